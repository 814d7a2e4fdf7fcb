# SPDX-License-Identifier: GPL-2.0
# tests/mini.sh - a stand-in baseline for the workflow tests: builds
# linux-source-9.9 9.9.1-1 as a .deb from tests/fixtures/mini/tree, pins it
# in $TMP/baselines (mini_baseline pins more versions) and points OUT,
# BASE, the series and the tree at $TMP,
# so the tests run the real scripts quickly, offline, on a copy of the
# fixture series they may change.  Source it after tap.sh.

mini_setup() {
	OUT=$TMP/out
	BASE=9.9.1
	BASELINES=$TMP/baselines
	SRC=$OUT/src/$BASE
	TREE=$OUT/linux-$BASE
	QUILT_PATCHES=$TMP/patches
	QUILT_SERIES=$TMP/patches/series
	export OUT BASE BASELINES TREE QUILT_PATCHES QUILT_SERIES
	cp -a "$T_DIR/fixtures/mini/patches" "$TMP/patches"
	: > "$BASELINES"
	mini_baseline 9.9.1 "$T_DIR/fixtures/mini/tree"
}

# mini_ci_setup TARGET...: mini_setup, the tree made, and what ci-series
# needs to run on it without a kernel make: a stand-in boot and
# checkpatch.pl, configs/ whose targets are the TARGET names, each an
# alpha target whose cross compiler does not exist (its builds fail at
# once), and a build lock of the test's own.
mini_ci_setup() {
	mini_setup
	printf '#!/bin/sh\necho "example: reached /init" > "$2"\n' > "$TMP/boot"
	chmod +x "$TMP/boot"
	export BOOT_EXAMPLE="$TMP/boot"
	"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1 || { cat "$TMP/tree.log"; exit 1; }
	mkdir -p "$TREE/scripts" "$TMP/configs"
	printf '#!/bin/sh\necho "total: 0 errors, 0 warnings, 0 checks"\n' > "$TREE/scripts/checkpatch.pl"
	chmod +x "$TREE/scripts/checkpatch.pl"
	: > "$TMP/configs/base.config"
	: > "$TMP/configs/targets"
	for _t; do
		echo "$_t alpha nosuch-linux-gnu- quick" >> "$TMP/configs/targets"
		: > "$TMP/configs/$_t.config"
	done
	export CONFIGS="$TMP/configs" KBUILD_LOCK="$TMP/lock"
	unset KBUILD_LOCK_HELD TARGETS TIER SHARD
}

# mini_baseline VERSION DIR: one more stand-in baseline, linux-source-9.9
# VERSION-1 made of the tree DIR, as a .deb in $OUT/dl, pinned in $BASELINES.
mini_baseline() {
	_p=$TMP/pkg-$1
	rm -rf "$_p" "$TMP/srcdir"
	mkdir -p "$_p/usr/src" "$TMP/srcdir" "$OUT/dl"
	cp -a "$2" "$TMP/srcdir/linux-source-9.9"
	tar -cJf "$_p/usr/src/linux-source-9.9.tar.xz" -C "$TMP/srcdir" linux-source-9.9
	mkdir -p "$_p/DEBIAN"
	cat > "$_p/DEBIAN/control" <<-EOC
	Package: linux-source-9.9
	Version: $1-1
	Architecture: all
	Maintainer: asm-generic series <series@example.org>
	Description: stand-in kernel source for tests
	EOC
	_d=$OUT/dl/linux-source-9.9_$1-1_all.deb
	dpkg-deb -Zxz --root-owner-group --build "$_p" "$_d" >/dev/null
	echo "linux-source-9.9 $1-1 $(sha256sum "$_d" | cut -d' ' -f1)" >> "$BASELINES"
}
