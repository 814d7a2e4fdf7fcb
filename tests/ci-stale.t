#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/ci-stale.t - a record is reused only for the series it judged:
# scripts/ci-series keeps a done step only while its fingerprint (the
# baseline, the patches up to it, the targets, their configs and
# toolchain) is the current one, redoes the steps from a changed patch
# on (saying why) and keeps those before; scripts/ci-columns honours
# TARGET.ok only while it holds the column's current fingerprint, and
# archives a finished column beside the series, from which a fresh OUT
# restores it.  The
# mini fixture series with a third patch, and a target whose
# architecture the tree lacks (its builds are skipped, so a column ends
# ok; no kernel make runs).
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt"
command -v flock >/dev/null 2>&1 || skip_all "no flock"
plan 40
mini_ci_setup z
echo "z nosucharch - quick" > "$TMP/configs/targets"
cat > "$TMP/patches/gamma-doc.patch" <<'EOP'
Subject: [PATCH] gamma: a note

---
--- /dev/null
+++ b/Documentation/gamma.txt
@@ -0,0 +1 @@
+gamma
EOP
echo gamma-doc.patch >> "$QUILT_SERIES"
(cd "$TREE" && quilt push -q -a > /dev/null 2>&1)
ci=$OUT/ci/$BASE
p1=$(series_patches | sed -n 1p)
p2=$(series_patches | sed -n 2p)
# stepped: the step numbers a run's output says it did, in order
stepped() {
	printf '%s\n' "$1" | sed -n 's/^  STEP    \([0-9]*\)-.*/\1/p' | tr '\n' ' '
}

check "a first run ends ok" "$REPO/scripts/ci-series"
is "$(ls "$ci"/*/fingerprint | wc -l)" 4 "every step keeps its fingerprint"
like "$(cat "$ci/002-$p2/fingerprint")" "^fingerprint=[0-9a-f]{64}
base=9.9.1 .*
targets=z
.*patch_002=[0-9a-f]{64} $p2" "the fingerprint names the baseline, the targets and the patches up to the step"
out=$("$REPO/scripts/ci-series" 2>&1)
is "$(stepped "$out")" "" "nothing changed: every step is kept"

# a patch's message changes: its checkpatch cell only, the builds kept
touch -d '2000-01-01' "$ci/001-$p1/done"
echo "kept=1" >> "$ci/002-$p2/z.result"
sed -i 's/^beta uses a copy/Beta uses a copy/' "$QUILT_PATCHES/$p2"
out=$("$REPO/scripts/ci-series" 2>&1) && rc=0 || rc=$?
is "$rc $(stepped "$out")" "0 002 " "a message edit: its step alone"
like "$out" "STEP +002-$p2 \\(2/3 patches\\) kept, checkpatch redone: the message of $p2 changed" \
	"its checkpatch cell is done again, saying why"
is "$(grep -c '^kept=1$' "$ci/002-$p2/z.result") $(find "$ci/002-$p2/checkpatch.result" -newermt 2000-01-02 | wc -l)" \
	"1 1" "its build results kept, its checkpatch result new"
is "$(cd "$TREE" && quilt applied 2>/dev/null | wc -l)" 3 "and the tree as it was"
out=$("$REPO/scripts/ci-series" 2>&1)
is "$(stepped "$out")" "" "then every step is kept"

# a patch's diff changes (here the text of a hunk header: a change of
# the diff that quilt pop does not check)
sed -i 's/^@@ -1,2 +1,3 @@$/@@ -1,2 +1,3 @@ generic-y/' "$QUILT_PATCHES/$p2"
out=$("$REPO/scripts/ci-series" 2>&1) && rc=0 || rc=$?
is "$rc" 0 "the run after a patch changed ends ok"
is "$(stepped "$out")" "002 003 " "the steps from the changed patch on are redone"
like "$out" "STEP +002-$p2 \\(2/3 patches\\) redone: patch $p2 changed" "each saying why"
like "$out" "POP +below $p2" "the tree is popped below the changed patch first"
is "$(find "$ci/001-$p1/done" ! -newermt 2000-01-02 | wc -l)" 1 "the steps before it are kept, untouched"
is "$(cd "$TREE" && quilt applied 2>/dev/null | tr '\n' ' ')" "$p1 $p2 gamma-doc.patch " "the tree has the series again"
out=$("$REPO/scripts/ci-series" 2>&1)
is "$(stepped "$out")" "" "and the next run keeps every step"

# steps of another series (a patch dropped or renamed) are put aside
mkdir "$ci/004-dropped.patch" "$ci/002-old-name.patch"
touch "$ci/004-dropped.patch/done" "$ci/002-old-name.patch/done"
out=$("$REPO/scripts/ci-series" 2>&1)
is "$(ls -d "$ci"/[0-9]* | sed 's|.*/||' | tr '\n' ' ')" "000-baseline 001-$p1 002-$p2 003-gamma-doc.patch " \
	"step folders of another series leave the record"
like "$out" "STALE +002-old-name.patch: not a step of this series, put aside" "to .stale, saying so"

# the configs of the targets change: every step
echo "CONFIG_X=y" > "$TMP/configs/z.config"
out=$("$REPO/scripts/ci-series" --down 2>&1)
is "$(stepped "$out")" "003 002 001 000 " "a changed fragment redoes every step"
like "$out" "redone: the configs/targets lines or Kconfig fragments of its targets changed" "saying so"

# the tree has another version of a patch than the patch file: quilt
# cannot pop it, and the run stops rather than build the old one
sleep 1
sed -i 's/^+gamma$/+gamma two/' "$QUILT_PATCHES/gamma-doc.patch"
out=$("$REPO/scripts/ci-series" 2>&1) && rc=0 || rc=$?
isnt "$rc" 0 "a tree that has an older version of a changed patch stops the run"
like "$out" "quilt cannot pop .* below gamma-doc.patch: the tree has another version" "naming the patch and the way out"
is "$(ls "$ci"/003-*/done 2>/dev/null | wc -l)" 0 "and its step is not shown done: its results are put aside"
(cd "$TREE" && quilt pop -f -q > /dev/null 2>&1)
out=$("$REPO/scripts/ci-series" 2>&1)
is "$(stepped "$out")" "003 " "once the tree is popped, the step is redone"

# a step done before fingerprints: redone, or adopted with --adopt
rm "$ci/001-$p1/fingerprint"
out=$("$REPO/scripts/ci-series" 2>&1)
like "$out" "STEP +001-$p1 .* redone: no fingerprint" "a done step without a fingerprint is redone"
rm "$ci/002-$p2/fingerprint"
touch "$ci/002-$p2/done"
out=$("$REPO/scripts/ci-series" --adopt 2>&1)
like "$out" "ADOPT +002-$p2: done before fingerprints, adopted" "--adopt keeps one done after its patches changed"
is "$(stepped "$out")" "" "and redoes nothing else"

# ci-columns: TARGET.ok holds the column's fingerprint
D=$TMP/cols
export COLUMNS_DIR=$D
check "a column that ends ok" "$REPO/scripts/ci-columns" z
like "$(cat "$D/z.ok")" "^fingerprint=[0-9a-f]{64}" "is marked done with its fingerprint"
like "$("$REPO/scripts/ci-columns" z 2>&1)" "SKIP +z: column done" "and skipped while it is current"
sleep 1
sed -i 's/^Beta uses a copy/BETA uses a copy/' "$QUILT_PATCHES/$p2"
like "$("$REPO/scripts/ci-columns" z 2>&1)" "STALE +.*z.ok: the message or the checkpatch-ignore lines of a patch changed" \
	"a message edit runs the column again"
like "$(cat "$D/z.log")" "STEP +002-$p2 .* kept, checkpatch redone" "for that step's checkpatch cell only"
sed -i 's/^@@ -1,2 +1,3 @@ generic-y$/@@ -1,2 +1,3 @@ generic-y list/' "$QUILT_PATCHES/$p2"
like "$("$REPO/scripts/ci-columns" z 2>&1)" "STALE +.*z.ok is of another series: patch $p2 changed" \
	"a stale TARGET.ok runs the column again"
is "$(stepped "$(cat "$D/z.log")")" "003 002 " "which redoes the steps from the changed patch only"

# the archive beside the series: a fresh OUT restores the column from it
A=$(dirname "$QUILT_SERIES")/ci/records/$BASE-full
is "$(tar -tJf "$A/z.tar.xz" | grep -c 'z\.ok$\|/done$')" 5 "a column that ends ok is archived with its done marks"
is "$(tar -tJf "$A/z.tar.xz" | grep -c '/z\.log$')" 0 "without its build logs"
rm -rf "$D"
out=$("$REPO/scripts/ci-columns" z 2>&1)
like "$out" "RESTORE +z: from $A/z.tar.xz" "a column missing from COLUMNS_DIR is restored from its archive"
like "$out" "SKIP +z: column done" "and, still current, not run again"
rm -rf "$D"
echo garbage > "$A/z.tar.xz"
fails "a damaged archive stops ci-columns" "$REPO/scripts/ci-columns" z
like "$("$REPO/scripts/ci-columns" z 2>&1)" "z.tar.xz: not a readable archive of a column" "naming it and the fix"
done_testing
