#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/results-garbage.t - issue 24: scripts/results and
# scripts/merge-results on garbage.  A folder that is no record, or whose
# result files are all unreadable, is an error naming the folder or the
# files, and no page is written; a record with one malformed result file
# (not key=value, no or an unknown status, a number that is not one,
# binary) is rendered with that cell as a failure, never green, and
# exits non-zero naming the file; merge-results refuses it and writes
# nothing.  Fixture folders only.
. "$(dirname "$0")/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3 (make deps)"
plan 17

# an empty folder, and one of files that are not a record
mkdir -p "$TMP/empty" "$TMP/junk/photos"
echo hello > "$TMP/junk/notes.txt"
fails "results: an empty folder is an error" "$REPO/scripts/results" "$TMP/empty"
like "$("$REPO/scripts/results" "$TMP/junk" 2>&1)" "junk: not a ci-series record folder" \
	"results: the message names the folder and says what it is not"
check "results: no page written" test ! -e "$TMP/junk/results.html"

# only garbage result files
g=$TMP/garbage
mkdir -p "$g/000-baseline" "$g/001-a.patch"
printf 'base=1\nseries=a.patch\n' > "$g/info"
head -c 300 /dev/urandom > "$g/000-baseline/x86_64.result"
printf '<html>not a result</html>\n' > "$g/001-a.patch/x86_64.result"
"$REPO/scripts/results" "$g" > "$TMP/out" 2>&1
rc=$?
isnt "$rc" 0 "results: a record of garbage result files exits non-zero"
like "$(cat "$TMP/out")" "001-a.patch/x86_64.result: line 1 is not key=value" "results: the message names the file and why"
check "results: no page for a record of garbage" test ! -e "$g/results.html"

# one malformed result among good ones: a failure, not green
r=$TMP/r
mkdir -p "$r/000-baseline" "$r/001-a.patch" "$r/002-b.patch"
printf 'base=1\nseries=a.patch b.patch\n' > "$r/info"
for s in 000-baseline 001-a.patch; do
	printf 'target=x86_64\nstatus=ok\nseconds=1.0\nwarnings=0\n' > "$r/$s/x86_64.result"
done
printf 'target=x86_64\nstatus=PASSED\nseconds=1.0\n' > "$r/002-b.patch/x86_64.result"
printf 'status=ok\nerrors=zero\n' > "$r/002-b.patch/checkpatch.result"
"$REPO/scripts/results" "$r" > "$TMP/out" 2>&1
rc=$?
isnt "$rc" 0 "results: a malformed result file makes results exit non-zero"
like "$(cat "$TMP/out")" "002-b.patch/x86_64.result: status='PASSED' is not ok, fail or skip" "results: it names the file"
like "$(cat "$TMP/out")" "002-b.patch/checkpatch.result: line 2: errors='zero' is not a number" "results: and every other one"
is "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["steps"][2]["targets"]["x86_64"]["status"], d["steps"][2]["checkpatch"]["status"], d["summary"]["fail"], len(d["malformed"]))' "$r/results.json")" \
	"fail fail 2 2" "results.json: the malformed cells are failures, listed under malformed"
like "$(cat "$r/results.html")" 'class="malformed fail">2 malformed result files' "results.html: says so above the matrix"
like "$(cat "$r/results.html")" 'data-col="x86_64" data-status="fail"' "results.html: the cell is red"
check "the good cells still have their metadata.json" test -f "$r/001-a.patch/x86_64.metadata.json"

# merge-results refuses such a record and writes nothing
mkdir -p "$TMP/s1/001-a.patch" "$TMP/s2/001-a.patch"
printf 'base=1\nseries=a.patch\nshard=1/2\n' > "$TMP/s1/info"
printf 'base=1\nseries=a.patch\nshard=2/2\n' > "$TMP/s2/info"
printf 'target=x86_64\nstatus=ok\n' > "$TMP/s1/001-a.patch/x86_64.result"
printf 'target=m68k\n' > "$TMP/s2/001-a.patch/m68k.result"
"$REPO/scripts/merge-results" -o "$TMP/m" "$TMP/s1" "$TMP/s2" > "$TMP/out" 2>&1
rc=$?
isnt "$rc" 0 "merge-results: a malformed result file in a shard is an error"
like "$(cat "$TMP/out")" "s2/001-a.patch/m68k.result: no status= line" "merge-results: the message names the file"
check "merge-results: nothing written" test ! -e "$TMP/m"
printf 'status=ok\n' >> "$TMP/s2/001-a.patch/m68k.result"
check "merge-results: the same shards once fixed merge" "$REPO/scripts/merge-results" -o "$TMP/m" "$TMP/s1" "$TMP/s2"
done_testing
