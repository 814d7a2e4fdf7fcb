#!/bin/sh
# The daily workflow on a stand-in baseline: make tree, push/pop/top/applied,
# plain quilt edit + refresh changing the repo's patch, a re-run that keeps
# an edit, lint's bookkeeping, and export whose git am reproduces the tree.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
M="make -s -C $REPO"

plan 16

check "make tree fetches, unpacks and applies the series" $M tree
is "$(cd "$TREE" && cat .pc/applied-patches | tr '\n' ' ')" "alpha-param.patch beta-param.patch " \
	"both patches are applied, in order"
is "$(test -e "$TREE/arch/alpha/include/asm/param.h" && echo present || echo gone)" gone \
	"the patch removed alpha's param.h"
like "$($M applied 2>&1)" "alpha-param.patch" "make applied lists the patches"
check "make pop pops one patch" $M pop
like "$($M top 2>&1)" "^alpha-param.patch$" "make top names the new top"
check "make push pushes it again" $M push
like "$($M top 2>&1)" "^beta-param.patch$" "make top after push"

# Plain quilt in the tree works on the repository's patches.
echo "local edit" > "$TREE/localfile"
(
	cd "$TREE" &&
	QUILTRC=$REPO/scripts/quiltrc &&
	export QUILTRC &&
	quilt edit arch/beta/include/asm/Kbuild </dev/null >/dev/null 2>&1 || true
	# EDITOR may be absent: change the file the way an editor would.
	echo "generic-y += fcntl.h" >> arch/beta/include/asm/Kbuild &&
	quilt refresh >/dev/null 2>&1
)
like "$(cat "$QUILT_PATCHES/beta-param.patch")" '^\+generic-y \+= fcntl.h' \
	"plain quilt refresh in the tree changed the patch file in the repository"
like "$(cat "$QUILT_PATCHES/beta-param.patch")" '^Subject: \[PATCH\] beta: use asm-generic/param.h' \
	"the refreshed patch kept its header"

check "a re-run of make tree succeeds" $M tree
is "$(cat "$TREE/localfile")" "local edit" "a re-run of make tree keeps a local edit"

# lint's bookkeeping: an unlisted file, a missing one, a duplicate.
touch "$QUILT_PATCHES/stray.patch"
printf 'alpha-param.patch\nbeta-param.patch\nalpha-param.patch\nnothere.patch\n' > "$QUILT_SERIES"
out=$($M lint 2>&1) && rc=0 || rc=$?
like "$out" "alpha-param.patch: listed more than once" "lint reports a duplicate series entry"
like "$out" "nothere.patch: listed in series but" "lint reports a missing patch file"
like "$out" "stray.patch: not listed in series" "lint reports an unlisted patch file"
printf 'alpha-param.patch\nbeta-param.patch\n' > "$QUILT_SERIES"
rm "$QUILT_PATCHES/stray.patch"

# export: git am of the mails onto the baseline gives the quilt tree.
rm -f "$TREE/localfile"
check "git am of the export reproduces the quilt tree byte for byte" am_matches_tree
done_testing
