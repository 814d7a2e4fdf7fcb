#!/bin/sh
# make headers_install does not depend on the configuration (issue 20):
# with the Part 2 patches applied to a copy of the baseline, riscv's uapi
# headers installed from a build folder without a configuration and from
# one with a leftover configuration that sets ARCH_HAS_CANONICAL_ABI are
# the same, file for file, and scripts/Makefile.asm-headers is the
# baseline's.  v1 of the patches read include/config/auto.conf there, so
# the second run stopped on riscv's deviations.  Two kernel makes, under
# the build lock (16.2 s and 13.8 s on the 2 vCPU Xeon, 190 s with the
# wait for the lock, 27.5 s of CPU).
. "$(dirname "$0")/tap.sh"

[ -f "$SRC/Makefile" ] || skip_all "no baseline at $SRC (make tree)"
P1=$QUILT_PATCHES/canonical-abi-definition.patch
P2=$QUILT_PATCHES/canonical-abi-kconfig-check.patch
[ -f "$P1" ] && [ -f "$P2" ] || skip_all "the Part 2 patches are not in $QUILT_PATCHES"
need make make

plan 6

K=$TMP/k
cp -al "$SRC" "$K"
for p in "$P1" "$P2"; do
	(cd "$K" && patch -s -p1 -F0 < "$p") || echo "# $p does not apply"
done
check "scripts/Makefile.asm-headers is the baseline's" \
	cmp "$SRC/scripts/Makefile.asm-headers" "$K/scripts/Makefile.asm-headers"

# a leftover configuration: .config and auto.conf with the symbol set
mkdir -p "$TMP/o2/include/config"
printf 'CONFIG_ARCH_HAS_CANONICAL_ABI=y\nCONFIG_64BIT=y\n' > "$TMP/o2/.config"
cp "$TMP/o2/.config" "$TMP/o2/include/config/auto.conf"
mkdir -p "$TMP/o1"

cat > "$TMP/hi.sh" <<'EOT'
# hi.sh K TMP: headers_install of riscv from TMP/o1 and TMP/o2
for n in 1 2; do
	s=$(date +%s.%N)
	make -s -C "$1" O="$2/o$n" ARCH=riscv INSTALL_HDR_PATH="$2/h$n" \
		headers_install > "$2/o$n.out" 2>&1
	echo $? > "$2/o$n.rc"
	echo "# headers_install $n: $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
done
EOT
"$REPO/scripts/kbuild-lock" sh "$TMP/hi.sh" "$K" "$TMP"
is "$(cat "$TMP/o1.rc")" 0 "headers_install without a configuration"
is "$(cat "$TMP/o2.rc")" 0 "headers_install with a leftover configuration setting ARCH_HAS_CANONICAL_ABI"
[ "$(cat "$TMP/o2.rc")" = 0 ] || sed 's/^/# /' "$TMP/o2.out" | tail -n 20
check "riscv's uapi headers are installed" test -s "$TMP/h1/include/asm/unistd_64.h"
check "the two installs are the same, file for file" diff -r "$TMP/h1" "$TMP/h2"
is "$(grep -c 'canonical ABI\|CHKABI' "$TMP/o2.out")" 0 "and the check did not run for headers"
done_testing
