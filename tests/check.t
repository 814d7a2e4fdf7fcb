#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/check.t - scripts/check (make check) passes prove's exit status
# through the pipe to its log and ends with the time table: a stand-in
# prove prints a --timer log and exits as told.
. "$(dirname "$0")/tap.sh"

[ -f "$OUT/src/.$BASE.ready" ] || skip_all "no baseline $BASE (scripts/fetch-baseline)"
plan 6
mkdir -p "$TMP/bin"
cat > "$TMP/bin/prove" <<'EOP'
#!/bin/sh
echo "[01:00:00] tests/a.t .... "
echo "ok 1 - one"
echo "ok     2500 ms ( 0.00 usr  0.00 sys +  1.00 cusr  0.50 csys =  1.50 CPU)"
echo "[01:00:03] tests/b.t .... "
echo "not ok 1 - two"
echo "Files=2, Tests=2, 3 wallclock secs ( 0.00 usr  0.00 sys +  1.00 cusr  0.50 csys =  1.50 CPU)"
exit "${FAKE_RC:-0}"
EOP
chmod +x "$TMP/bin/prove"
run() {
	PATH=$TMP/bin:$PATH CHECK_LOG=$TMP/check.log "$REPO/scripts/check" > "$TMP/out" 2>&1
}
export FAKE_RC=0
run
is "$?" 0 "prove's success is make check's"
like "$(tail -n 4 "$TMP/out")" "check-times: 2 test files, 3 s of wall time \\(prove\\); the 1 slowest:" \
	"it ends with the total"
like "$(tail -n 4 "$TMP/out")" "2.5 s  *83.3 %  tests/a.t" "and the slowest files with their share"
like "$(tail -n 1 "$TMP/out")" "no time \\(failed or skipped\\): tests/b.t" "a file without a time is named"
FAKE_RC=1
run
is "$?" 1 "prove's failure goes through the pipe"
is "$(grep -c '^ok     2500 ms\|^Files=2' "$TMP/check.log")" 2 "the log holds prove's output"
done_testing
