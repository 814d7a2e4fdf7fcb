#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/git-baseline.t - a kernel git tree as the baseline (LINUX_GIT), on
# a small clone made here of the stand-in tree (tests/mini.sh): v9.9.1 and
# v9.9.2 as two tagged commits, master a branch that moves.  make tree
# from a tag, make export on that commit (its id the mails' base-commit,
# the clone's objects borrowed, not copied), make rebase from one tag to
# the other, make nightly following master (nothing fetched; a second run
# with master where it was does nothing; master moved, it rebases onto
# the new head, named by its git describe, the report naming both
# commits), and the errors for a ref or a clone that is not one.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
command -v b4 >/dev/null 2>&1 || skip_all "b4 is not installed (make deps)"
mini_setup
unset SENDER ALLOW_DIRTY BASE TREE
L=$TMP/linux
export GIT_AUTHOR_NAME=Linus GIT_AUTHOR_EMAIL=linus@example.org \
	GIT_COMMITTER_NAME=Linus GIT_COMMITTER_EMAIL=linus@example.org
# git: the test's clone, not the repository's or the user's configuration
lgit() { git -C "$L" "$@"; }
cp -a "$T_DIR/fixtures/mini/tree" "$L"
# with the stand-in checkpatch.pl of submit-check's test
cp -a "$T_DIR/fixtures/submit/scripts" "$L/"
lgit init -q -b master
lgit add -A
lgit commit -q -m "Linux 9.9.1"
lgit tag v9.9.1
k=$L/arch/alpha/include/asm/Kbuild
{ printf '# alpha headers\n#\n'; cat "$k"; } > "$k.new" && mv "$k.new" "$k"
lgit commit -q -a -m "Linux 9.9.2"
lgit tag v9.9.2
c1=$(lgit rev-parse v9.9.1^{commit})
c2=$(lgit rev-parse v9.9.2^{commit})
export LINUX_GIT="$L"
M="make -s -C $REPO"
objects() { lgit count-objects | cut -d' ' -f1; }

plan 28

# make tree: the default is the tag of the pinned version, v9.9.1
is "$("$REPO/scripts/fetch-baseline" --resolve)" v9.9.1 "the default BASE is the tag of the pinned version"
out=$($M tree 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make tree from the tag v9.9.1"
check "the tree has every patch" cmp "$OUT/linux-v9.9.1/.pc/applied-patches" "$QUILT_SERIES"
is "$(cat "$OUT/src/.v9.9.1.ready")" "$(lgit ls-tree -r --name-only "$c1" | wc -l) $c1" \
	"the pristine tree is marked with its file count and commit"
mkdir "$TMP/c1" && lgit archive v9.9.1 | tar -x -C "$TMP/c1"
check "and is the commit's files" diff -r "$TMP/c1" "$OUT/src/v9.9.1"
$M pop Q=-a > "$TMP/pp.log" 2>&1 && $M push Q=-a >> "$TMP/pp.log" 2>&1 && rc=0 || rc=$?
is "$rc $(cat "$OUT/linux-v9.9.1/.pc/applied-patches" | wc -l)" "0 2" "make pop and push on it"
# (the stand-in patches' messages are short: lint says so, and only that)
out=$($M lint 2>&1) && rc=0 || rc=$?
is "$(echo "$out" | grep FAIL | grep -vc 'commit message too short')" 0 "make lint on it: the patches apply, no other complaint"

# ci-series: its record says which commit it judged
mkdir -p "$TMP/configs"
: > "$TMP/configs/base.config"
echo "t1 alpha nosuch-linux-gnu- quick" > "$TMP/configs/targets"
: > "$TMP/configs/t1.config"
CONFIGS=$TMP/configs KBUILD_LOCK=$TMP/lock RECORD=$TMP/rec BOOT_EXAMPLE=/bin/true \
	"$REPO/scripts/ci-series" --steps=0 > "$TMP/ci.log" 2>&1 || :
like "$(cat "$TMP/rec/info")" "^baseline=git $c1 v9.9.1$" "ci-series' record names the commit and its describe"

# make export on the commit itself
before=$(objects)
out=$(SENDER="Jane Tester <jane@example.org>" $M export BASE=v9.9.1 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make export on v9.9.1"
[ "$rc" -eq 0 ] || echo "$out" | sed "s/^/# /"
X=$OUT/export/v9.9.1
is "$(git --git-dir="$X/git" rev-parse baseline)" "$c1" "the export's commits sit on the tag's commit"
is "$(git --git-dir="$X/git" rev-list --count baseline..series)" 2 "one commit a patch"
like "$(cat "$X"/series/*.eml 2>/dev/null || cat "$X"/*/*.eml)" "^base-commit: $c1$" "the mails' base-commit is that commit"
check "and nothing warns that no maintainer has it" sh -c "! echo \"\$1\" | grep -q \"no maintainer.s tree has\"" sh "$out"
check "the clone's objects are borrowed, not written" test -s "$X/git/objects/info/alternates"
is "$(objects)" "$before" "nothing is written into the clone"

# make submit-check: the mails as maintainers get them, on that commit
CHECKPATCH_IGNORE=$TMP/checkpatch-ignore
printf '%s\n' '* UNKNOWN_COMMIT_ID # no history in the stand-in' > "$CHECKPATCH_IGNORE"
out=$(CHECKPATCH_IGNORE=$CHECKPATCH_IGNORE SENDER="Jane Tester <jane@example.org>" \
	SUBMIT_BUILD='echo "build-all: 1/1 ok in 0s"' $M submit-check BASE=v9.9.1 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make submit-check on it"
[ "$rc" -eq 0 ] || echo "$out" | sed 's/^/# /'

# make rebase from one tag to the other
out=$(ALLOW_DIRTY=1 $M rebase BASE=v9.9.2 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make rebase BASE=v9.9.2 (from v9.9.1)"
check "the report is v9.9.1-to-v9.9.2" test -f "$OUT/rebase/v9.9.1-to-v9.9.2.md"
check "and the rebased tree has every patch" cmp "$OUT/linux-v9.9.2/.pc/applied-patches" "$QUILT_SERIES"

# make nightly following master (at v9.9.2)
NIGHTLY_OUT=$TMP/nightly
NIGHTLY_BUILD='echo "$TREE" >> "$NIGHTLY_OUT/builds"; echo "build-all: 1/1 ok in 0s"'
export NIGHTLY_OUT NIGHTLY_BUILD
out=$($M nightly 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make nightly on master"
like "$(cat "$NIGHTLY_OUT/latest.md")" "Followed: master of $L at $c2 .*kept on v9.9.1 at $c1" \
	"the report names the branch's head and the series' commit"
out=$($M nightly 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*nothing new since reports/" "master where it was: nothing new"
echo "/* moved */" >> "$L/Makefile"
lgit commit -q -a -m "a commit after v9.9.2"
c3=$(lgit rev-parse HEAD)
d3=v9.9.2-1-g$(lgit rev-parse --short=12 HEAD)
out=$($M nightly 2>&1) && rc=0 || rc=$?
is "$rc" 0 "master moved: make nightly runs again"
like "$(cat "$NIGHTLY_OUT/builds")" "linux-$d3$" "on the new head, named by its git describe"
like "$(cat "$NIGHTLY_OUT/latest.json")" "\"commit\": \"$c3\"" "the JSON report has its commit"

# errors
out=$(BASE=nosuch "$REPO/scripts/tree" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*BASE=nosuch is not a tag, branch or commit of LINUX_GIT=$L" "a ref the clone lacks"
out=$(LINUX_GIT=$TMP/none "$REPO/scripts/tree" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*LINUX_GIT=$TMP/none is not a git repository" "a clone that is not one"
out=$("$REPO/scripts/fetch-baseline" --newest 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*--newest is for Debian's archive" "the archive's modes say they are not for a clone"
done_testing
