#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/out-lock.t - one lock per OUT ($OUT/.lock, lib.sh out_lock), on the
# stand-in baseline (tests/mini.sh): every command that writes in OUT
# waits for the run that holds it, saying "waiting for PID ... (command)";
# commands that only read do not; two pushes at once on one tree leave
# quilt's record and the files in agreement; a baseline is marked ready
# only with every file of its package, and one left without the mark
# with files missing is unpacked again, not trusted.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
n=$(series_patches | wc -l)

plan 16

"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1
check "make tree on the stand-in baseline" test -f "$TREE/.pc/applied-patches"
is "$(cat "$OUT/src/.$BASE.ready" 2>/dev/null)" "$(cd "$T_DIR/fixtures/mini/tree" && find . ! -type d | wc -l) $(sha256sum "$OUT"/dl/*.deb | cut -d' ' -f1)" \
	"the baseline is marked ready with its file count and the sha256 of its .deb"

# hold [SECS]: hold OUT's lock for SECS (default 1) as a run named
# "holder" would
hold() {
	flock "$OUT/.lock" sh -c 'echo "$$ holder" > "$1"; sleep "$2"' sh "$OUT/.lock" "${1:-1}" &
	sleep 0.3
}
waits() {	# waits DESC CMD...: CMD waits for the holder, then succeeds
	_d=$1
	shift
	# 3 s: a command reaches the lock after its start-up (Python's
	# included), on a loaded machine too
	hold 3
	"$@" > "$TMP/w.log" 2>&1 && _rc=0 || _rc=$?
	wait
	like "$_rc $(cat "$TMP/w.log" | tr '\n' ' ')" "^0 .*WAIT +waiting for PID [0-9]+ \\(holder\\)" "$_d"
}
waits "scripts/q pop -a waits for OUT's lock" "$REPO/scripts/q" pop -a
waits "scripts/push -a waits" "$REPO/scripts/push" -a
waits "scripts/fetch-baseline waits" "$REPO/scripts/fetch-baseline"
waits "scripts/tree waits" "$REPO/scripts/tree"
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v2"
mini_baseline 9.9.2 "$TMP/v2"
waits "scripts/rebase waits (no lock of its own beside the tree)" \
	env TREE="$OUT/rebase-9.9.2" FROM=9.9.1 ALLOW_DIRTY=1 "$REPO/scripts/rebase" 9.9.2
is "$(ls -a "$OUT" | grep -c 'rebase-lock')" 0 "the rebase leaves no lock file of its own"

# reading needs no lock
# (held for 5 s: done well before, on a loaded machine too)
hold 5
out=$(timeout 3 "$REPO/scripts/q" applied 2>&1) && rc=0 || rc=$?
wait
like "$rc $(echo $out)" "^0 .*beta-param.patch" "scripts/q applied reads without waiting"

# two pushes at once on an existing tree
"$REPO/scripts/q" pop -a > /dev/null 2>&1
"$REPO/scripts/push" -a > "$TMP/a.log" 2>&1 &
a=$!
"$REPO/scripts/push" -a > "$TMP/b.log" 2>&1 &
b=$!
wait $a && ra=0 || ra=$?
wait $b && rb=0 || rb=$?
is "$ra $rb" "0 0" "two pushes at once both succeed"
is "$(cat "$TREE/.pc/applied-patches")" "$(series_patches)" "the tree has every patch once, in order"
check "and quilt finds nothing to refresh" sh -c "cd '$TREE' && [ -z \"\$(quilt --quiltrc '$QUILTRC' diff -z)\" ]"

# a baseline without the ready mark, files missing: unpacked again
rm -f "$OUT/src/.$BASE.ready" "$SRC/arch/alpha/include/asm/Kbuild"
out=$("$REPO/scripts/fetch-baseline" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*holds [0-9]+ of the [0-9]+ files.*unpacking it again.*READY" \
	"a baseline without its ready mark and with a file missing is unpacked again"
check "and is whole" test -f "$SRC/arch/alpha/include/asm/Kbuild"
# one without the mark but whole (an OUT from before the marks): counted, kept
rm -f "$OUT/src/.$BASE.ready"
out=$("$REPO/scripts/fetch-baseline" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*COUNT .*CACHED" "a whole baseline without the mark is counted and kept"
check "and marked ready" test -s "$OUT/src/.$BASE.ready"
done_testing
