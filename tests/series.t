#!/bin/sh
# The real series on the real baseline: it applies with quilt, make lint is
# clean (checkpatch --strict, headers, no fuzz), and git am of make export's
# mails onto the baseline reproduces the quilt-applied tree byte for byte.
. "$(dirname "$0")/tap.sh"
M="make -s -C $REPO"

plan 4

check "the baseline $BASE fetches, verifies and unpacks" scripts/fetch-baseline
TREE=$TMP/linux
export TREE
check "the series applies to $BASE" env TREE_COPY=link $M tree
check "make lint: the series is clean" $M lint

$M export >/dev/null 2>&1
g=$OUT/export/$BASE/git
git --git-dir="$g" worktree prune
git --git-dir="$g" worktree add -q --detach "$TMP/am" "baseline-$BASE" 2>/dev/null
set -- "$OUT"/export/$BASE/mbox/00[0-9][1-9]-*.patch
if [ -f "$1" ]; then
	(cd "$TMP/am" && git -c user.name=t -c user.email=t@t am -q "$@") >/dev/null 2>&1
fi
check "git am of make export onto $BASE reproduces the quilt tree byte for byte" \
	diff -r --no-dereference -x .pc -x .git "$TMP/am" "$TREE"
git --git-dir="$g" worktree remove --force "$TMP/am" 2>/dev/null || true
done_testing
