#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/csum.t - tools/csum-test: every C checksum implementation that
# builds against RFC 1071, natively and through qemu-user on big-endian
# and 32-bit arches.  Mainline's arm64 and loongarch ip_fast_csum lose a
# carry: the test must catch that, and pass once the fix patches exist.
# Then, for each GENERIC_CSUM arch of tools/csum-icount/arches (the
# kernels that run lib/checksum.c: both endiannesses, 32 and 64 bits,
# aligned and unaligned loads), the same test as a static freestanding
# program under qemu-user, and scripts/csum-icount --check: the new
# generic csum_partial() executes no more instructions than mainline's.
. "$(dirname "$0")/tap.sh"

[ -f "$SRC/lib/checksum.c" ] || skip_all "no baseline at $SRC"
command -v gcc >/dev/null || skip_all "no gcc"

# triplet qemu: the cross arches, where their compiler and qemu exist
CROSS="s390x-linux-gnu qemu-s390x
powerpc64-linux-gnu qemu-ppc64
m68k-linux-gnu qemu-m68k
mips-linux-gnu qemu-mips
arm-linux-gnueabi qemu-arm"

build() {	# build DIR [make args]: tools/csum-test into DIR
	_o=$1
	shift
	make -s -C "$T_DIR/../tools/csum-test" KSRC="$SRC" O="$_o" "$@" \
		> "$_o.log" 2>&1 || { tail -n 20 "$_o.log"; return 1; }
}

PATCHES=$T_DIR/../patches
have_fix() { [ -f "$PATCHES/$1-csum-fix-ip_fast_csum-carry.patch" ]; }

# native: per variant, csum_partial and ip_fast_csum
plan_n=1
N=$TMP/native
if build "$N"; then
	VARIANTS=$("$N/csum-test" -l)
else
	VARIANTS=
fi
n=0
for v in $VARIANTS; do n=$((n + 2)); done
ncross=$(echo "$CROSS" | wc -l)
# name and qemu of each arch of tools/csum-icount/arches
FREE=$(awk -F'|' '!/^#/ && NF >= 6 { n = $1; q = $4; gsub(/^[ \t]+|[ \t]+$/, "", n)
	gsub(/^[ \t]+|[ \t]+$/, "", q); print n, q }' "$T_DIR/../tools/csum-icount/arches")
nfree=$(echo "$FREE" | wc -l)
plan $((1 + n + 2 * ncross + 3 * nfree))

check "csum-test builds natively" test -x "$N/csum-test"
for v in $VARIANTS; do
	check "$v csum_partial, lengths 0-1500, offsets 0-7" "$N/csum-test" "$v:csum"
	case $v in
	arm64|loongarch)
		fails "$v ip_fast_csum of mainline: its lost carry is detected" \
			"$N/csum-test" "$v:ip" ;;
	arm64fix|loongarchfix)
		if have_fix "${v%fix}"; then
			check "$v ip_fast_csum with the fix patch" "$N/csum-test" "$v:ip"
		else
			fails "$v ip_fast_csum without a fix patch still loses the carry" \
				"$N/csum-test" "$v:ip"
		fi ;;
	*)
		check "$v ip_fast_csum" "$N/csum-test" "$v:ip" ;;
	esac
done

# cross: everything that should pass, in one run per arch
echo "$CROSS" | while read -r triplet qemu; do
	a=${triplet%%-*}
	if ! command -v "$triplet-gcc" >/dev/null || ! command -v "$qemu" >/dev/null; then
		echo "ok $((T_NUM + 1)) # SKIP $a: no $triplet-gcc or $qemu"
		echo "ok $((T_NUM + 2)) # SKIP $a"
		T_NUM=$((T_NUM + 2))
		continue
	fi
	check "csum-test builds for $a (static)" build "$TMP/$a" CROSS_COMPILE="$triplet-" STATIC=1
	want=
	for v in $("$qemu" "$TMP/$a/csum-test" -l 2>/dev/null); do
		case $v in
		arm64|loongarch) want="$want $v:csum" ;;
		*fix) have_fix "${v%fix}" && want="$want $v" || want="$want $v:csum" ;;
		*) want="$want $v" ;;
		esac
	done
	# shellcheck disable=SC2086
	check "$a:$want" "$qemu" "$TMP/$a/csum-test" $want
	echo "$T_NUM $T_FAIL" > "$TMP/.count"
done
[ -f "$TMP/.count" ] && read -r T_NUM T_FAIL < "$TMP/.count"

# the GENERIC_CSUM arches: freestanding csum-test and the instruction count
ICOUNT_OUT=$TMP/icount
export ICOUNT_OUT
echo "$FREE" | while read -r a qemu; do
	if ! why=$("$T_DIR/../scripts/csum-icount" --usable "$a" 2>&1); then
		for _ in 1 2 3; do
			T_NUM=$((T_NUM + 1))
			echo "ok $T_NUM # SKIP $why"
		done
		echo "$T_NUM $T_FAIL" > "$TMP/.count"
		continue
	fi
	check "csum-test and csum-icount build for $a (freestanding)" \
		"$T_DIR/../scripts/csum-icount" --build "$a"
	want=
	# shellcheck disable=SC2086
	for v in $($qemu "$ICOUNT_OUT/$a/csum-test" -l 2>/dev/null); do
		case $v in
		arm64|loongarch) want="$want $v:csum" ;;
		*fix) have_fix "${v%fix}" && want="$want $v" || want="$want $v:csum" ;;
		*) want="$want $v" ;;
		esac
	done
	# shellcheck disable=SC2086
	check "$a:$want" $qemu "$ICOUNT_OUT/$a/csum-test" $want
	check "$a: new generic no more instructions than mainline's, 20-1500 bytes" \
		"$T_DIR/../scripts/csum-icount" --check --arch "$a" 20 40 64 80 256 576 1500
	echo "$T_NUM $T_FAIL" > "$TMP/.count"
done
[ -f "$TMP/.count" ] && read -r T_NUM T_FAIL < "$TMP/.count"
done_testing
