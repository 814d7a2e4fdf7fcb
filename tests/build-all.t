#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/build-all.t - scripts/build-all's selection and failure handling,
# with no kernel make: the targets of a configs/ of our own name a cross
# compiler that does not exist, so each build-arch stops at once.
. "$(dirname "$0")/tap.sh"

command -v flock >/dev/null 2>&1 || skip_all "no flock"
plan 11
mkdir -p "$TMP/configs" "$TMP/arch/x86"
: > "$TMP/arch/x86/Makefile"
: > "$TMP/configs/base.config"
for t in e d c b a; do
	echo "$t x86 nosuch-linux-gnu- full" >> "$TMP/configs/targets"
	: > "$TMP/configs/$t.config"
done
sed -i 's/^b x86 nosuch-linux-gnu- full$/b x86 nosuch-linux-gnu- quick/' "$TMP/configs/targets"
export CONFIGS="$TMP/configs" OUT="$TMP/out" TREE="$TMP" KBUILD_LOCK="$TMP/lock"
unset KBUILD_LOCK_HELD TARGETS TIER SHARD MAKEFLAGS
ba="$REPO/scripts/build-all"

names() { # the targets an output line reported on, in order
	sed -n 's/^\[ *[0-9]*\/[0-9]*\] \([^ ]*\) .*/\1/p' | sort | tr '\n' ' '
}
out=$(SHARD=2/3 "$ba" 2>&1)
is "$(echo "$out" | names)" "b e " "SHARD=2/3 takes every 3rd of the sorted list from the 2nd"
out=$(SHARD=1/3 "$ba" 2>&1; SHARD=2/3 "$ba" 2>&1; SHARD=3/3 "$ba" 2>&1)
is "$(echo "$out" | names)" "a b c d e " "the shards together are every target once"
out=$(TARGETS="d a" "$ba" 2>&1)
is "$(echo "$out" | names)" "a d " "TARGETS= filters"
out=$(TIER=quick "$ba" 2>&1)
is "$(echo "$out" | names)" "b " "TIER= filters"
fails "a failed target makes it exit non-zero" env TARGETS=a "$ba"
like "$(TARGETS=a "$ba" 2>&1)" "gcc-nosuch-linux-gnu" "the missing compiler's package is named"
like "$(TARGETS="a c" "$ba" 2>&1)" "0/2 ok .*failed: a c" "the summary lists the failures"
fails "an unknown target is an error" env TARGETS=zz "$ba"
# A target whose arch the tree does not have (yet) is skipped, not failed.
echo "z nosuch nosuch-linux-gnu- full" >> "$TMP/configs/targets"
: > "$TMP/configs/z.config"
check "a target without arch/ARCH in the tree is skipped, exit 0" env TARGETS=z "$ba"
like "$(TARGETS="z a" "$ba" 2>&1)" "0/2 ok .*skipped: z, failed: a" "the summary lists skips apart from failures"
# quilt pop leaves the emptied folders of an arch the series adds
mkdir -p "$TMP/arch/gone/include/asm"
echo "y gone nosuch-linux-gnu- full" >> "$TMP/configs/targets"
: > "$TMP/configs/y.config"
like "$(TARGETS=y "$ba" 2>&1)" "y .*skip .*no arch/gone" "an arch folder with nothing but empty folders is skipped"
done_testing
