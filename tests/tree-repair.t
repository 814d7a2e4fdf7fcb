#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/tree-repair.t - make tree finds a tree whose quilt record and files
# disagree, and repairs it from the pristine baseline and the series,
# keeping the tree's version of the files aside and naming it (stand-in
# baseline, tests/mini.sh):
#  - a push killed after it changed a file, then plain `quilt push` (quilt
#    takes the half-changed file as its backup);
#  - a patch's changes in the files with no record of it in .pc;
#  - a patch recorded applied with its changes gone from the files;
#  - a patch put in the series before the applied ones;
# while an unrefreshed edit of the top patch's file alone is left as it is.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
export QUILTRC
B=arch/beta/include/asm/Kbuild

plan 18

"$REPO/scripts/tree" > /dev/null 2>&1
cp -a "$TREE" "$TMP/good"
whole() {	# the tree is the good one: same files, every patch applied
	diff -r -x .pc "$TMP/good" "$TREE" && [ "$(cat "$TREE/.pc/applied-patches")" = "$(series_patches)" ]
}
tree() {
	out=$("$REPO/scripts/tree" 2>&1) && rc=0 || rc=$?
}

# An unrefreshed edit of the top patch's file: no repair.
echo "generic-y += edited.h" >> "$TREE/$B"
tree
like "$rc $(echo $out)" "^0 .*series fully applied" "an unrefreshed edit of the top patch: make tree goes on"
isnt "$(echo "$out" | grep -c REPAIR)" 1 "without a repair"
is "$(tail -n 1 "$TREE/$B")" "generic-y += edited.h" "and the edit stays"
cp "$TMP/good/$B" "$TREE/$B"

# A killed push of beta-param.patch (its backup of Kbuild made, Kbuild
# changed, nothing recorded), then plain quilt push.
(cd "$TREE" && quilt pop -q) > /dev/null 2>&1
mkdir -p "$TREE/.pc/beta-param.patch/arch/beta/include/asm"
cp -p "$TREE/$B" "$TREE/.pc/beta-param.patch/$B"
cp "$TMP/good/$B" "$TREE/$B"
(cd "$TREE" && quilt push) > "$TMP/push.log" 2>&1 || :
tree
like "$rc $(echo $out)" "^0 .*quilt's backup of $B .*is not the file before beta-param.patch.*REPAIR .*kept in" \
	"a killed push then plain quilt push: found, named, repaired"
check "the tree is whole again" whole
kept=$(ls -d "$OUT"/kept/*-linux-9.9.1 2>/dev/null | tail -n 1)
like "$(cat "${kept:-/dev/null}/changes.diff")" "^\+generic-y \+= param.h" "the tree's version is kept aside"
like "$out" "kept in ${kept:-NONE}" "and named"

# beta-param.patch's changes without quilt's record of it.
rm -rf "$OUT/kept"
sed -i '$d' "$TREE/.pc/applied-patches"
rm -rf "$TREE/.pc/beta-param.patch"
tree
like "$rc $(echo $out)" "^0 .*$B is not the baseline's with the applied patches.*REPAIR" \
	"changes with no record: found and repaired"
check "the tree is whole again" whole

# beta-param.patch recorded, its changes gone (files put back by hand),
# and an edit of alpha's file too: kept and named.
for f in $B arch/beta/include/asm/param.h; do
	cp -p "$TREE/.pc/beta-param.patch/$f" "$TREE/$f"
done
echo "/* a hand edit */" >> "$TREE/arch/alpha/include/asm/Kbuild"
tree
like "$rc $(echo $out)" "^0 .*beta-param.patch is recorded applied but none of its changes are in the tree.*REPAIR" \
	"a record with no changes: found and repaired"
check "the tree is whole again" whole
kept=$(ls -d "$OUT"/kept/*-linux-9.9.1 2>/dev/null | tail -n 1)
like "$(cat "${kept:-/dev/null}/changes.diff")" "^\+/\* a hand edit \*/" "the hand edit is kept aside"
check "with the file as it was" grep -q 'a hand edit' "$kept/files/arch/alpha/include/asm/Kbuild"

# a patch put in the series before the applied ones: the tree is made
# again with it (quilt would never push it: "fully applied")
cat > "$QUILT_PATCHES/notes.patch" <<'EOP'
From: asm-generic series <series@example.org>
Subject: [PATCH] Documentation: notes

A test patch that adds a file.

Verified: a test patch.

Signed-off-by: asm-generic series <series@example.org>
---
--- /dev/null
+++ b/Documentation/notes.txt
@@ -0,0 +1 @@
+notes
EOP
cp "$QUILT_SERIES" "$TMP/series.good"
{ echo notes.patch; cat "$TMP/series.good"; } > "$QUILT_SERIES"
tree
like "$rc $(echo $out)" "^0 .*not the start of the series .*REPAIR.*PUSH +notes.patch" \
	"a patch put before the applied ones: found, and the tree made again with it"
is "$(cat "$TREE/.pc/applied-patches")" "$(series_patches)" "every patch of the series is applied, in order"
cp "$TMP/series.good" "$QUILT_SERIES"
"$REPO/scripts/tree" > /dev/null 2>&1
check "and back without it, the tree is whole" whole

# a tree that agrees: nothing to repair, quickly
tree
like "$rc $(echo $out)" "^0 .*series fully applied" "a whole tree: make tree says so"
isnt "$(echo "$out" | grep -c REPAIR)" 1 "and repairs nothing"
done_testing
