#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/results.t - scripts/results and scripts/merge-results on fixture
# record folders of two shards (four patches, four targets, ok, failed,
# skipped and new-warning cells, a patch that does not apply; no kernel
# build): results.json and results.md
# hold what the records say, and results.html, rendered by headless
# Chromium, has every cell of results.json with its status, log link and
# first error line.  Conflicting or mismatched shards are refused.
. "$(dirname "$0")/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3 (make deps)"
plan 30

# res STEP TARGET STATUS SECONDS WARNINGS NEW_WARNINGS [FIRST_ERROR]:
# a build result as ci-series records it, with a one-line log.
res() {
	mkdir -p "$rec/$1"
	cat > "$rec/$1/$2.result" <<-EOF
	target=$2
	status=$3
	stage=built
	seconds=$4
	warnings=$5
	vmlinux_size=1000
	first_error=${7:-}
	log=/elsewhere/$1/$2.log
	tree=/elsewhere/linux
	base=9.9.1
	new_warnings=$6
	EOF
	echo "# build-arch $2" > "$rec/$1/$2.log"
}
# other STEP NAME STATUS [KEY=VALUE...]: a checkpatch, sparse or boot result
other() {
	mkdir -p "$rec/$1"
	_s=$1 _n=$2 _st=$3
	shift 3
	{ echo "status=$_st"; printf '%s\n' "$@"; echo "log=/elsewhere/$_s/$_n.log"; } > "$rec/$_s/$_n.result"
	echo "$_n of $_s" > "$rec/$_s/$_n.log"
}
info() { # SHARD
	mkdir -p "$rec"
	printf 'base=9.9.1\nseries=one.patch two.patch three.patch four.patch\nshard=%s\ntier=\ntargets=\n' "$1" > "$rec/info"
}

# Shard 1/2: alpha and mips; patch three does not apply, four is not run.
rec=$TMP/a
info 1/2
res 000-baseline alpha ok 10.5 0 0
res 000-baseline mips ok 11.0 1 0
res 001-one.patch alpha ok 3.2 3 2
res 001-one.patch mips fail 2.0 1 0 '/elsewhere/linux/arch/mips/x.c:1:2: error: "FOO" <undeclared> & \gone'
other 001-one.patch checkpatch ok errors=0 warnings=0
other 001-one.patch sparse skip warnings=0 files=
res 002-two.patch alpha fail 4.0 0 0
printf 'cc x.o\nmake[2]: *** [scripts/Makefile.build:1: x.o] Error 1\nmake: *** [Makefile:2: all] Error 2\n' >> "$rec/002-two.patch/alpha.log"
res 002-two.patch mips ok 5.0 1 0
other 002-two.patch checkpatch fail errors=1 warnings=0
echo 'ERROR: trailing whitespace' > "$rec/002-two.patch/checkpatch.log"
other 002-two.patch sparse skip warnings=0 files=
other 002-two.patch boot ok seconds=7.5 first_error=
echo codegen=identical >> "$rec/001-one.patch/alpha.result"
echo codegen=differs >> "$rec/002-two.patch/mips.result"
touch "$rec/000-baseline/done" "$rec/001-one.patch/done" "$rec/002-two.patch/done"
mkdir -p "$rec/003-three.patch" && echo status=fail > "$rec/003-three.patch/push.result"

# Shard 2/2: x86, example (skipped until its arch is in), and the sparse runs.
rec=$TMP/b
info 2/2
res 000-baseline x86 ok 20.0 0 0
res 000-baseline example skip 0.1 0 0 'no arch/example in the tree'
res 001-one.patch x86 ok 21.0 0 0
res 001-one.patch example skip 0.1 0 0 'no arch/example in the tree'
res 002-two.patch example ok 30.0 0 0
other 001-one.patch checkpatch ok errors=0 warnings=0
other 001-one.patch sparse ok warnings=1 files=a.c
res 002-two.patch x86 fail 1.5 0 0
echo 'configs/x86.config: CONFIG_FOO dropped by Kconfig: requested CONFIG_FOO=y, .config has it unset (a dependency is missing)' >> "$rec/002-two.patch/x86.log"
other 002-two.patch checkpatch fail errors=1 warnings=0
echo 'ERROR: trailing whitespace' > "$rec/002-two.patch/checkpatch.log"
other 002-two.patch sparse ok warnings=0 'files=b.c c.c'
other 002-two.patch boot ok seconds=7.5 first_error=
touch "$rec/000-baseline/done" "$rec/001-one.patch/done" "$rec/002-two.patch/done"
mkdir -p "$rec/003-three.patch" && echo status=fail > "$rec/003-three.patch/push.result"

# cells JSON: one line per cell of results.json, "STEP COLUMN STATUS LOG
# | FIRST_ERROR" (none and - for a null cell or log); stops on bad JSON.
cat > "$TMP/cells.py" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for s in r["steps"]:
    cols = [(t, s["targets"][t]) for t in r["targets"]]
    cols += [(c, s[c]) for c in ("checkpatch", "sparse", "boot") if c != "boot" or r["boot"]]
    for c, v in cols:
        if v is None:
            print(s["step"], c, "none - |")
        else:
            print(s["step"], c, v["status"], v["log"] or "-", "|", v["first_error"])
EOF

# dom JSON DOM: compare every cell of the page Chromium dumped with
# results.json: the cells in order, each cell's data-status, class, link
# and, for failures, the first error line as title and visible text.
cat > "$TMP/dom.py" <<'EOF'
import json, sys
from html.parser import HTMLParser
r = json.load(open(sys.argv[1]))
want = []
for s in r["steps"]:
    cols = [(t, s["targets"][t]) for t in r["targets"]]
    cols += [(c, s[c]) for c in ("checkpatch", "sparse", "boot") if c != "boot" or r["boot"]]
    for c, v in cols:
        if v is None:
            want.append((s["step"], c, "none", None, "", ""))
        else:
            want.append((s["step"], c, v["status"], v["log"], v["first_error"], v["first_error"]))

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells, self.step, self.cell, self.span = [], None, None, None
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "tr":
            self.step = a.get("data-step")
        elif tag == "td" and self.step:
            self.cell = {"step": self.step, "col": a.get("data-col"), "status": a.get("data-status"),
                         "class": a.get("class", ""), "title": a.get("title", ""), "href": None, "err": ""}
        elif tag == "a" and self.cell is not None:
            self.cell["href"] = a.get("href")
        elif tag == "span" and self.cell is not None:
            self.span = a.get("class")
    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.cells.append(self.cell)
            self.cell = None
        elif tag == "span":
            self.span = None
    def handle_data(self, d):
        if self.cell is not None and self.span == "err":
            self.cell["err"] += d

p = Page()
p.feed(open(sys.argv[2]).read())
got = [(c["step"], c["col"], c["status"], c["href"], c["title"] if c["err"] else "", c["err"])
       for c in p.cells]
bad = 0
for c in p.cells:
    if c["status"] not in c["class"].split():
        print("cell", c["step"], c["col"], "data-status", c["status"], "but class", c["class"]); bad = 1
for i in range(max(len(got), len(want))):
    g = got[i] if i < len(got) else None
    w = want[i] if i < len(want) else None
    if g != w:
        print("cell", i, "page:", g); print("cell", i, "json:", w); bad = 1
print(len(got), "cells")
sys.exit(bad)
EOF

# render HTML: headless Chromium's DOM of the page
render() {
	command -v chromium >/dev/null 2>&1 ||
		{ echo "no chromium: install the Debian package 'chromium' (make deps)"; return 1; }
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chromium" \
		--dump-dom "file://$1" 2> "$TMP/chromium.err"
}

check "scripts/results renders shard 1" "$REPO/scripts/results" "$TMP/a"
check "results.json is valid JSON" python3 -m json.tool "$TMP/a/results.json"
is "$(python3 "$TMP/cells.py" "$TMP/a/results.json")" "000-baseline alpha ok 000-baseline/alpha.log | 
000-baseline mips ok 000-baseline/mips.log | 
000-baseline checkpatch none - |
000-baseline sparse none - |
000-baseline boot none - |
001-one.patch alpha ok 001-one.patch/alpha.log | 
001-one.patch mips fail 001-one.patch/mips.log | arch/mips/x.c:1:2: error: \"FOO\" <undeclared> & \\gone
001-one.patch checkpatch ok 001-one.patch/checkpatch.log | 
001-one.patch sparse skip 001-one.patch/sparse.log | 
001-one.patch boot none - |
002-two.patch alpha fail 002-two.patch/alpha.log | make[2]: *** [scripts/Makefile.build:1: x.o] Error 1
002-two.patch mips ok 002-two.patch/mips.log | 
002-two.patch checkpatch fail 002-two.patch/checkpatch.log | ERROR: trailing whitespace
002-two.patch sparse skip 002-two.patch/sparse.log | 
002-two.patch boot ok 002-two.patch/boot.log | 
003-three.patch alpha skip - | the patch does not apply
003-three.patch mips skip - | the patch does not apply
003-three.patch checkpatch none - |
003-three.patch sparse none - |
003-three.patch boot none - |
004-four.patch alpha notrun - | 
004-four.patch mips notrun - | 
004-four.patch checkpatch none - |
004-four.patch sparse none - |
004-four.patch boot none - |" "results.json: every cell's status, relative log and first error line"
is "$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); s = r["steps"][1]["targets"]["alpha"]
print(r["baseline"], r["series"], r["targets"], s["wall"], s["warnings"], s["new_warnings"], r["summary"])' "$TMP/a/results.json")" \
	"9.9.1 ['one.patch', 'two.patch', 'three.patch', 'four.patch'] ['alpha', 'mips'] 3.2 3 2 {'ok': 6, 'fail': 3, 'skip': 4, 'notrun': 2, 'new_failures': 2}" \
	"results.json: baseline, series, targets, wall time, warnings, new warnings, summary"
is "$(awk '/^\| [0-9]/ { p = 1; print; next } p { exit }' "$TMP/a/results.md")" "| 0 | baseline | ok | ok |   |   |   |
| 1 | one.patch | ok +2w | **FAIL** | ok | skip |   |
| 2 | two.patch | **FAIL** | ok | **FAIL** | skip | ok |
| 3 | three.patch (**does not apply**) | skip | skip |   |   |   |
| 4 | four.patch | - | - |   |   |   |" "results.md: the patch-by-target table"
is "$(sed -n '/^## Generated code/,$p' "$TMP/a/results.md" | grep '^| [0-9]')" "| 1 | one.patch | 1 | 0 | - | 1 |
| 2 | two.patch | 0 | 0 | mips | 1 |
| 3 | three.patch | 0 | 0 | - | 2 |
| 4 | four.patch | 0 | 0 | - | 0 |" "results.md: per patch, the targets whose generated code it changed"
is "$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
print(r["steps"][1]["targets"]["alpha"]["codegen"], r["steps"][2]["targets"]["mips"]["codegen"], r["steps"][2]["targets"]["alpha"]["codegen"])' "$TMP/a/results.json")" \
	"identical differs None" "results.json: each cell's codegen"
like "$(cat "$TMP/a/results.md")" '^- 002-two.patch, alpha: `make\[2\]: \*\*\* .*` \(\[log\]\(002-two.patch/alpha.log\)\)$' \
	"results.md: the failures with first error line and log"
render "$TMP/a/results.html" > "$TMP/a.dom"
check "Chromium renders results.html" test -s "$TMP/a.dom"
check "the page's cells are results.json's: status, log link, first error" python3 "$TMP/dom.py" "$TMP/a/results.json" "$TMP/a.dom"
like "$(cat "$TMP/a.dom")" 'class="ok warn"' "a cell with new warnings is marked"
like "$(cat "$TMP/a.dom")" '<tr data-step="003-three.patch" class="noapply"><th>3</th><th class="patch">three.patch \(does not apply\)</th>' \
	"a patch that does not apply is marked in its row"
like "$(cat "$TMP/a/results.html")" 'title="arch/mips/x.c:1:2: error: &quot;FOO&quot; &lt;undeclared&gt; &amp; \\gone"' \
	"the first error line is escaped in the cell's title"
fails "the page needs no script and no other file" grep -Eiq '<script|<link|src=|https?:' "$TMP/a/results.html"
check "a log link works from the page's folder" test -f "$TMP/a/$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["steps"][1]["targets"]["mips"]["log"])' "$TMP/a/results.json")"

# the check can fail: a page that lies about one cell
sed 's|data-col="mips" data-status="fail"|data-col="mips" data-status="ok"|' "$TMP/a.dom" > "$TMP/bad.dom"
fails "a cell that differs from results.json is caught" python3 "$TMP/dom.py" "$TMP/a/results.json" "$TMP/bad.dom"

# merging the shards
m=$TMP/merged
out=$("$REPO/scripts/merge-results" -o "$m" "$TMP/a" "$TMP/b" 2>&1)
is "$?" 0 "merge-results merges the two shards"
like "$out" "2 records into $m/results.html" "it says where the merged page is"
is "$(python3 "$TMP/cells.py" "$m/results.json" | grep -v '^000\|^003\|^004')" "001-one.patch alpha ok 001-one.patch/alpha.log | 
001-one.patch example skip 001-one.patch/example.log | no arch/example in the tree
001-one.patch mips fail 001-one.patch/mips.log | arch/mips/x.c:1:2: error: \"FOO\" <undeclared> & \\gone
001-one.patch x86 ok 001-one.patch/x86.log | 
001-one.patch checkpatch ok 001-one.patch/checkpatch.log | 
001-one.patch sparse ok 001-one.patch/sparse.log | 
001-one.patch boot none - |
002-two.patch alpha fail 002-two.patch/alpha.log | make[2]: *** [scripts/Makefile.build:1: x.o] Error 1
002-two.patch example ok 002-two.patch/example.log | 
002-two.patch mips ok 002-two.patch/mips.log | 
002-two.patch x86 fail 002-two.patch/x86.log | configs/x86.config: CONFIG_FOO dropped by Kconfig: requested CONFIG_FOO=y, .config has it unset (a dependency is missing)
002-two.patch checkpatch fail 002-two.patch/checkpatch.log | ERROR: trailing whitespace
002-two.patch sparse ok 002-two.patch/sparse.log | 
002-two.patch boot ok 002-two.patch/boot.log | " "the merged matrix has every shard's targets; sparse comes from the shard that ran it"
is "$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print([s["done"] for s in r["steps"]], r["steps"][2]["sparse"]["files"])' "$m/results.json")" \
	"[True, True, True, False, False] ['b.c', 'c.c']" "steps done in every shard are done"
render "$m/results.html" > "$TMP/m.dom"
check "the merged page's cells are its results.json's" python3 "$TMP/dom.py" "$m/results.json" "$TMP/m.dom"
check "merging again rewrites the earlier merge (records named by their results.json)" \
	"$REPO/scripts/merge-results" -o "$m" "$TMP/a/results.json" "$TMP/b"
like "$("$REPO/scripts/merge-results" -o "$TMP/only-a" "$TMP/a" 2>&1)" "warning: shards missing: 2/2" "a missing shard is named"

# what is refused
cp -a "$TMP/b" "$TMP/c"
sed -i 's/^status=ok$/status=fail/' "$TMP/c/001-one.patch/x86.result"
like "$("$REPO/scripts/merge-results" -o "$TMP/m2" "$TMP/a" "$TMP/b" "$TMP/c" 2>&1)" \
	"error: conflicting cell 001-one.patch x86: .*/b says status=ok, .*/c says status=fail" "a conflicting target cell is an error naming it"
check "and nothing is written" test ! -e "$TMP/m2"
cp -a "$TMP/b" "$TMP/d"
sed -i 's/^status=fail$/status=ok/' "$TMP/d/002-two.patch/checkpatch.result"
like "$("$REPO/scripts/merge-results" -o "$TMP/m2" "$TMP/a" "$TMP/d" 2>&1)" \
	"error: conflicting cell 002-two.patch checkpatch" "checkpatch ok in one shard and fail in another is an error"
cp -a "$TMP/b" "$TMP/e"
sed -i 's/^base=.*/base=9.9.2/' "$TMP/e/info"
like "$("$REPO/scripts/merge-results" -o "$TMP/m2" "$TMP/a" "$TMP/e" 2>&1)" \
	"error: different baselines: .*/a is 9.9.1, .*/e is 9.9.2" "different baselines are an error"
sed -i 's/^base=.*/base=9.9.1/; s/^series=.*/series=one.patch three.patch/' "$TMP/e/info"
like "$("$REPO/scripts/merge-results" -o "$TMP/m2" "$TMP/a" "$TMP/e" 2>&1)" \
	"error: different series" "a different series is an error"
mkdir -p "$TMP/keep" && echo precious > "$TMP/keep/file"
fails "an output folder that is not an earlier merge is refused" "$REPO/scripts/merge-results" -o "$TMP/keep" "$TMP/a" "$TMP/b"
is "$(cat "$TMP/keep/file")" precious "and left as it was"
done_testing
