#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/csum-bench.t - scripts/csum-bench builds and prints its tables, and
# its --placements builds put every variant where they say: the same
# function 0, 16, 32 and 48 bytes further into a 64-byte line than in the
# first of them.  No figure is judged here: a benchmark prints, a test
# does not time (the figures are in Documentation/csum.md and
# Documentation/measurements.md).
. "$(dirname "$0")/tap.sh"

command -v gcc >/dev/null 2>&1 || skip_all "no gcc"
[ -f "$SRC/lib/checksum.c" ] || skip_all "no baseline at $SRC (scripts/fetch-baseline)"
plan 6

fails "an unknown option is refused" "$REPO/scripts/csum-bench" --bogus
"$REPO/scripts/csum-bench" 1 20 64 > "$TMP/one" 2>&1
is "$?" 0 "csum-bench 1 20 64 runs"
like "$(grep -c '^ *64 *[01] ' "$TMP/one")" '^[2-9]' \
	"it prints rows for 64 bytes at offsets 0 and 1"
"$REPO/scripts/csum-bench" --placements 1 40 > "$TMP/pl" 2>&1
is "$?" 0 "csum-bench --placements 1 40 runs"
like "$(sed -n '/placement builds/,$p' "$TMP/pl" | grep -c '^ *40 *[01] .* [0-9.]\+ \+[0-9.]\+ \+[0-9.]\+ \+[0-9.]\+ \+[0-9.]\+$')" \
	'^[1-9]' "the placement table has new/x86 at 0, 16, 32, 48 and their median"

# csum_partial of every variant, in the four builds: its address, less
# that in the build at 0, is 0, 16, 32 and 48 modulo 64
B=$OUT/csum-bench
addrs() {
	nm "$B/csum-bench-at$1" | awk '$3 == "csum_partial" { print $1 }'
}
bad=
for p in 16 32 48; do
	set -- $(addrs 0)
	for a in $(addrs $p); do
		[ $# -gt 0 ] || { bad="$bad at$p:more"; break; }
		d=$(( (0x$a - 0x$1) % 64 ))
		[ "$d" -eq "$p" ] || bad="$bad at$p:$d"
		shift
	done
done
[ -n "$(addrs 0)" ] || bad="no csum_partial in $B/csum-bench-at0"
is "${bad:-none}" none "every variant's csum_partial moves by 16, 32 and 48 bytes in a 64-byte line"
