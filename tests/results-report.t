#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/results-report.t - what scripts/results writes beside the
# records, and the two readers of a record, end to end on a fixture
# record of the repository's own first three patches and two real
# targets (no kernel build): per build cell a metadata.json with
# tuxmake's groups; per failing cell a reproduce.sh whose --dry-run,
# against this repository, passes its checks and prints the commands
# that rebuild the cell; `seriesci report`, 0-day style, names the first
# bad commit with the new error marked ">>" and exits 4; `seriesci kcidb`
# writes KCIDB v5 data with a checkout per step and a build per cell.
. "$(dirname "$0")/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3 (make deps)"
# shellcheck disable=SC2046 # the patch names, one word each
set -- $(sed -e 's/#.*//' "$REPO/series" | awk 'NF { print $1 }' | head -n 3)
[ $# -eq 3 ] || skip_all "the series has fewer than 3 patches"
p1=$1 p2=$2 p3=$3
plan 15

r=$TMP/r
# res STEP TARGET STATUS [FIRST_ERROR]
res() {
	mkdir -p "$r/$1"
	printf 'target=%s\nstatus=%s\nstage=build\nseconds=2.5\nwarnings=0\nvmlinux_size=%s\nfirst_error=%s\ntree=/t\nbase=7.3-rc7\ncompiler=m68k-linux-gnu-gcc (Debian 12.2.0-13) 12.2.0\nbinutils=GNU ld (GNU Binutils for Debian) 2.40\nruntime=\nnew_warnings=0\n' \
		"$2" "$3" "$([ "$3" = ok ] && echo 1000 || echo 0)" "${4:-}" > "$r/$1/$2.result"
	echo "# build-arch $2" > "$r/$1/$2.log"
	touch "$r/$1/done"
}
mkdir -p "$r"
printf 'base=7.3-rc7\nseries=%s %s %s\nshard=\ntier=\ntargets=\n' "$p1" "$p2" "$p3" > "$r/info"
for s in 000-baseline "001-$p1" "002-$p2" "003-$p3"; do
	res "$s" x86_64 ok
done
res 000-baseline m68k ok
res "001-$p1" m68k ok
res "002-$p2" m68k fail '/t/arch/m68k/kernel/x.c:1:1: error: broken'
res "003-$p3" m68k fail '/t/arch/m68k/kernel/x.c:1:1: error: broken'

check "scripts/results renders the record" "$REPO/scripts/results" "$r"
is "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(d)), d["build"]["target_arch"], d["build"]["toolchain"], d["results"]["status"], d["vmlinux"]["file_size"])' "$r/001-$p1/m68k.metadata.json")" \
	"build compiler results series tools vmlinux m68k gcc-12 PASS 1000" \
	"metadata.json: tuxmake's groups, values from the result"
is "$(cd "$r" && printf '%s ' */*.reproduce.sh)" "002-$p2/m68k.reproduce.sh 003-$p3/m68k.reproduce.sh " \
	"a reproduce.sh for each failing cell, none for the others"

sc=$r/002-$p2/m68k.reproduce.sh
(cd "$REPO" && OUT=$TMP/out sh "$sc" --dry-run) > "$TMP/dry" 2>&1
is "$?" 0 "reproduce.sh --dry-run: this repository passes its checks"
like "$(cat "$TMP/dry")" "quilt --quiltrc \"\\\$REPO/scripts/quiltrc\" push $p2" "it pushes the series up to the failing patch"
like "$(cat "$TMP/dry")" 'ARCH=m68k CROSS_COMPILE=m68k-linux-gnu- tinyconfig' "it configures the target as configs/targets says"
# shellcheck disable=SC2016 # $REPO as the script prints it
like "$(cat "$TMP/dry")" 'configs/base.config "\$REPO"/configs/m68k.config' "with build-arch's fragments"
like "$(cat "$TMP/dry")" "fetch-baseline 7.3-rc7" "it fetches the baseline"
check "--dry-run runs nothing" test ! -e "$TMP/out"
(cd "$TMP" && REPO=$TMP sh "$sc" --dry-run) > "$TMP/dry" 2>&1
isnt "$?" 0 "reproduce.sh refuses a folder that is not a clone"

PYTHONPATH=$REPO/scripts python3 -m seriesci report "$r" > "$TMP/report" 2>&1
is "$?" 4 "report: exit 4, a regression"
like "$(cat "$TMP/report")" "BUILD REGRESSION 7.3-rc7" "report: the verdict in the subject"
like "$(cat "$TMP/report")" "^first bad commit: 002-$p2" "report: the first bad commit"
like "$(cat "$TMP/report")" "^>> 002-$p2 m68k: arch/m68k/kernel/x.c:1:1: error: broken" "report: the new error marked >>, the one after it not"

PYTHONPATH=$REPO/scripts python3 -m seriesci kcidb -o "$TMP/k.json" "$r" > /dev/null 2>&1
is "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["version"]["major"], len(d["checkouts"]), len(d["builds"]), sorted({b["status"] for b in d["builds"]}))' "$TMP/k.json")" \
	"5 4 8 ['FAIL', 'PASS']" "kcidb: schema 5, a checkout per step, a build per cell"
done_testing
