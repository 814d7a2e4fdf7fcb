#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/arch-coverage.t - configs/targets builds every architecture of the
# baseline: each directory of arch/ is the ARCH of a target (um's host
# variants are um's; arch/example comes with the series, whose targets
# build it), every TOOLCHAIN=crosstool target names a triplet
# scripts/crosstool accepts, and the test fails on a baseline that gains
# an architecture no target builds (a fake arch/ shows it).  Reads files
# only: no build, no lock.
. "$(dirname "$0")/tap.sh"

[ -d "$SRC/arch" ] || skip_all "no baseline at $SRC (make tree)"
plan 4

archs() {
	for d in "$1"/*/; do
		[ -f "$d/Kconfig" ] && basename "$d"
	done
}
built=$(PYTHONPATH=$REPO/scripts python3 -B -m seriesci targets --field arch | sort -u)
# uncovered ARCHDIR: the architectures of ARCHDIR that no target builds
uncovered() {
	for a in $(archs "$1"); do
		printf '%s\n' "$built" | grep -qx "$a" || echo "$a"
	done
}
is "$(uncovered "$SRC/arch" | tr '\n' ' ')" "" "every architecture of the baseline has a target"
is "$(printf '%s\n' "$built" | grep -cxE 'csky|microblaze|nios2|xtensa')" 4 \
	"csky, microblaze, nios2 and xtensa are targets"
ct=$(PYTHONPATH=$REPO/scripts python3 -B -m seriesci targets --with TOOLCHAIN=crosstool --field cross)
bad=
for c in $ct; do
	OUT=$TMP/out "$REPO/scripts/crosstool" key "$c" > /dev/null 2>&1 || bad="$bad $c"
done
is "$(echo $ct):$bad" "csky-linux- microblaze-linux- nios2-linux- xtensa-linux-:" \
	"scripts/crosstool takes every TOOLCHAIN=crosstool triplet (targets --with selects them)"
mkdir -p "$TMP/arch"
for a in $(archs "$SRC/arch"); do mkdir -p "$TMP/arch/$a" && : > "$TMP/arch/$a/Kconfig"; done
mkdir -p "$TMP/arch/newarch" && : > "$TMP/arch/newarch/Kconfig"
is "$(uncovered "$TMP/arch" | tr '\n' ' ')" "newarch " "an architecture no target builds is named"
