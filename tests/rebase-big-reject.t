#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/rebase-big-reject.t - a rebase conflict whose rejected hunk is
# about 100 KB (a patch that deletes a whole 3,000-line header the new
# baseline changed): make rebase stops at it, its reports (Markdown and
# JSON) carry the whole reject, and CONTINUE=1 after the resolution ends
# with a complete report.  Debian's awk (mawk) limits sprintf to 8 KB.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup

# 9.9.1 gets a big header; bigdel.patch deletes it; 9.9.2 changes it.
big() {	# big DIR WORD: a 3,000-line header in DIR/include/asm-generic
	awk -v w="$2" 'BEGIN { for (i = 1; i <= 3000; i++) printf "#define BIG_%s_%04d %d /* a line of the big header */\n", w, i, i }' \
		> "$1/include/asm-generic/big.h"
}
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v1"
big "$TMP/v1" ONE
sed -i '/ 9\.9\.1-1 /d' "$BASELINES"
rm -f "$OUT"/dl/*
mini_baseline 9.9.1 "$TMP/v1"
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v2"
big "$TMP/v2" TWO
mini_baseline 9.9.2 "$TMP/v2"
{
	printf 'From: asm-generic series <series@example.org>\nSubject: [PATCH] asm-generic: drop big.h\n\n'
	printf 'A test patch that deletes a whole header.\n\nVerified: a test patch.\n\n'
	printf 'Signed-off-by: asm-generic series <series@example.org>\n---\n'
	(cd "$TMP/v1" && diff -u --label a/include/asm-generic/big.h --label /dev/null include/asm-generic/big.h /dev/null) || :
} > "$QUILT_PATCHES/bigdel.patch"
echo bigdel.patch >> "$QUILT_SERIES"
M="make -s -C $REPO"
REBASE_OUT=$OUT/rebase
export REBASE_OUT

plan 7

"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1
check "the series with bigdel.patch applies to 9.9.1" grep -q bigdel "$TREE/.pc/applied-patches"
TREE=$OUT/linux-9.9.2
out=$($M rebase BASE=9.9.2 2>&1) && rc=0 || rc=$?
like "$rc $(echo "$out" | tr '\n' ' ')" "^[12] .*bigdel.patch" "the rebase stops at the conflicting patch"
isnt "$(echo "$out" | grep -c 'program limit exceeded')" 1 "awk does not run out of buffer"
js=$(ls "$REBASE_OUT"/*.json 2>/dev/null | head -n 1)
check "the JSON report is there" test -s "${js:-/nonexistent}"
like "$(wc -c < "${js:-/dev/null}")" '^[0-9]{6,}' "and holds the whole reject (over 100 KB)"
# resolve as the printed steps say: push -f, make the patch's change, refresh
(cd "$TREE" && export QUILTRC=$REPO/scripts/quiltrc &&
	{ quilt push -f bigdel.patch || :; } && rm -f include/asm-generic/big.h.rej include/asm-generic/big.h &&
	quilt refresh) > "$TMP/resolve.log" 2>&1 || sed "s/^/# resolve: /" "$TMP/resolve.log"
out=$($M rebase BASE=9.9.2 CONTINUE=1 2>&1) && rc=0 || rc=$?
is "$rc" 0 "CONTINUE=1 after the resolution finishes"
[ "$rc" = 0 ] || echo "$out" | head -n 30 | cut -c1-200 | sed "s/^/# /"
is "$(grep -c "\"status\": \"done\"" "$js")" 1 "and the final report says done"
done_testing
