#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/rebase-deletion.t - make rebase onto a baseline that changed a file
# a patch deletes (alpha-param.patch deletes alpha's param.h; the stand-in
# 9.9.3 changes its HZ): a conflict whose hint says the deletion must be
# made again, not that the patch looks applied already (dropping it would
# lose the deletion).
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v3"
sed -i 's/HZ 100/HZ 250/' "$TMP/v3/arch/alpha/include/asm/param.h"
sed -i 's/SUBLEVEL = 1/SUBLEVEL = 3/' "$TMP/v3/Makefile"
mini_baseline 9.9.3 "$TMP/v3"
git -C "$QUILT_PATCHES" init -q && git -C "$QUILT_PATCHES" add -A &&
	git -C "$QUILT_PATCHES" -c user.name=t -c user.email=t@example.org commit -qm fixture

plan 4

out=$(FROM=9.9.1 "$REPO/scripts/rebase" 9.9.3 2>&1) && rc=0 || rc=$?
is "$rc" 1 "the rebase stops at alpha-param.patch"
like "$out" "patch alpha-param.patch does not apply to 9.9.3" "naming it"
is "$(printf '%s\n' "$out" | grep -c 'looks applied already')" 0 "its hint does not call the deletion applied"
like "$(printf '%s\n' "$out" | tr '\n' ' ')" "deletes arch/alpha/include/asm/param.h, which 9.9.3 still has, changed: .*do not drop the patch" \
	"it says what the deletion needs"
