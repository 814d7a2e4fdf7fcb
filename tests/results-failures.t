#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/results-failures.t - scripts/results tells a failure a patch
# brought from one it did not: a target that fails on the baseline
# (6.12.118's alpha and sparc64 do), then with the same first error line
# after the next patch (the fix comes later), is "baseline" and "as
# before"; a failure with another first error line, or after an ok step,
# is "new".  The summary counts the new ones.  Fixture records only.
. "$(dirname "$0")/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3 (make deps)"
plan 8

rec=$TMP/r
# res STEP TARGET STATUS [FIRST_ERROR]
res() {
	mkdir -p "$rec/$1"
	printf 'target=%s\nstatus=%s\nstage=build\nseconds=1.0\nwarnings=0\nfirst_error=%s\nlog=x\ntree=/t\nbase=9.9.1\n' \
		"$2" "$3" "${4:-}" > "$rec/$1/$2.result"
	touch "$rec/$1/done"
}
mkdir -p "$rec"
printf 'base=9.9.1\nseries=one.patch two.patch three.patch four.patch\nshard=\ntier=\ntargets=\n' > "$rec/info"
res 000-baseline a fail '/t/a.c:1:1: error: undeclared'
res 001-one.patch a fail '/t/a.c:1:1: error: undeclared'
res 002-two.patch a fail '/t/b.c:2:2: error: other'
res 003-three.patch a ok
res 004-four.patch a fail '/t/b.c:2:2: error: other'
res 000-baseline b ok
res 001-one.patch b fail '/t/a.c:1:1: error: undeclared'
res 002-two.patch b ok
res 003-three.patch b ok
res 004-four.patch b ok

check "scripts/results renders the record" "$REPO/scripts/results" "$rec"
is "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join(str(s["targets"][t]["failure"]) for s in r["steps"] for t in ("a", "b")), r["summary"]["new_failures"])' "$rec/results.json")" \
	"baseline None as before new new None None None new None 3" \
	"results.json: each failure is the baseline's, as before, or new; the new ones counted"
is "$(awk '/^\| [0-9]/ { print; next }' "$rec/results.md" | sed -n 1,5p)" "| 0 | baseline | **FAIL** (baseline) | ok |   |   |
| 1 | one.patch | **FAIL** (as before) | **FAIL** |   |   |
| 2 | two.patch | **FAIL** | ok |   |   |
| 3 | three.patch | ok | ok |   |   |
| 4 | four.patch | **FAIL** | ok |   |   |" "results.md: the table marks the failures no patch brought"
like "$(cat "$rec/results.md")" "^5 ok, 5 fail \(3 new with their patch\)" "results.md: the summary counts the new failures"
like "$(cat "$rec/results.html")" 'class="fail old" data-col="a" data-status="fail"' "results.html: such a cell has its own colour"

# the compiler of a result (build-arch's compiler=, binutils=): per cell
# in results.json, per target in a row of results.md
echo 'compiler=loongarch64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0' >> "$rec/004-four.patch/a.result"
echo 'binutils=GNU ld (GNU Binutils for Debian) 2.44' >> "$rec/004-four.patch/a.result"
"$REPO/scripts/results" "$rec" > /dev/null
is "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(r["steps"][4]["targets"]["a"]["compiler"], "/", r["steps"][4]["targets"]["a"]["binutils"], "/", r["steps"][4]["targets"]["b"]["compiler"])' "$rec/results.json")" \
	"loongarch64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0 / GNU ld (GNU Binutils for Debian) 2.44 / None" \
	"results.json: a cell names its compiler and linker (null when its result does not)"
like "$(cat "$rec/results.md")" '^\|  \| \*compiler\* \| gcc 14\.2\.0 \|  \|' "results.md: a row names each target's compiler, short"
is "$(grep -c '^| 0 | baseline' "$rec/results.md")" 1 "and the matrix is unchanged below it"
