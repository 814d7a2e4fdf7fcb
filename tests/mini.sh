# SPDX-License-Identifier: GPL-2.0
# tests/mini.sh - a stand-in baseline for the workflow tests: builds
# linux-source-9.9 9.9.1-1 as a .deb from tests/fixtures/mini/tree, pins it
# in $TMP/baselines and points OUT, BASE, the series and the tree at $TMP,
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
	mkdir -p "$TMP/pkg/usr/src" "$TMP/srcdir" "$OUT/dl"
	cp -a "$T_DIR/fixtures/mini/tree" "$TMP/srcdir/linux-source-9.9"
	tar -cJf "$TMP/pkg/usr/src/linux-source-9.9.tar.xz" -C "$TMP/srcdir" linux-source-9.9
	mkdir -p "$TMP/pkg/DEBIAN"
	cat > "$TMP/pkg/DEBIAN/control" <<-EOC
	Package: linux-source-9.9
	Version: 9.9.1-1
	Architecture: all
	Maintainer: asm-generic series <series@example.org>
	Description: stand-in kernel source for tests
	EOC
	dpkg-deb -Zxz --root-owner-group --build "$TMP/pkg" \
		"$OUT/dl/linux-source-9.9_9.9.1-1_all.deb" >/dev/null
	echo "linux-source-9.9 9.9.1-1 $(sha256sum "$OUT/dl/linux-source-9.9_9.9.1-1_all.deb" | cut -d' ' -f1)" \
		> "$BASELINES"
}
