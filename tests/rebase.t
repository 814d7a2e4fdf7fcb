#!/bin/sh
# make rebase on stand-in baselines: 9.9.2 moves one patch (offset), changes
# the context of another (fuzz) and conflicts with a third.  Uncommitted
# edits are refused, the conflict stops at the right patch with the steps
# to resolve it and loses nothing, the resolution continues, and a rebase
# killed part way resumes to the same result as one run straight through.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
TREE=$OUT/linux-9.9.2
M="make -s -C $REPO"

# 9.9.2: two lines more above alpha's Kbuild (offset), beta's SPDX line
# changed (fuzz), HZ changed (a conflict for hz.patch).
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v2"
k=$TMP/v2/arch/alpha/include/asm/Kbuild
{ printf '# alpha headers\n#\n'; cat "$k"; } > "$k.new" && mv "$k.new" "$k"
sed -i 's/GPL-2.0$/GPL-2.0-only/' "$TMP/v2/arch/beta/include/asm/Kbuild"
sed -i 's/HZ 100/HZ 300/' "$TMP/v2/include/asm-generic/param.h"
sed -i 's/SUBLEVEL = 1/SUBLEVEL = 2/' "$TMP/v2/Makefile"
mini_baseline 9.9.2 "$TMP/v2"
# 9.9.1 unpacked, as on a machine whose series is on it (the range-diff
# reads its files)
"$REPO/scripts/fetch-baseline" 9.9.1 > /dev/null

# Two more patches: hz.patch conflicts on 9.9.2, notes.patch always applies.
cp "$T_DIR/fixtures/mini/hz.patch" "$QUILT_PATCHES/"
cat > "$QUILT_PATCHES/notes.patch" <<'EOF'
From: asm-generic series <series@example.org>
Subject: [PATCH] Documentation: notes

A test patch that adds a file, so it applies to every baseline.

Verified: the fixture tree has no build; this is a test patch.

Signed-off-by: asm-generic series <series@example.org>
---
--- /dev/null
+++ b/Documentation/notes.txt
@@ -0,0 +1 @@
+notes
EOF
printf 'alpha-param.patch\nbeta-param.patch\nhz.patch\nnotes.patch\n' > "$QUILT_SERIES"
cp -a "$QUILT_PATCHES" "$TMP/orig"
git -C "$QUILT_PATCHES" init -q
git -C "$QUILT_PATCHES" add .
git -C "$QUILT_PATCHES" -c user.name=t -c user.email=t@t commit -q -m series

plan 43

# Uncommitted changes in patches/ are refused; nothing is touched.
echo "+more notes" >> "$QUILT_PATCHES/notes.patch"
out=$(FROM=9.9.1 scripts/rebase 9.9.2 2>&1) && rc=0 || rc=$?
is "$rc" 1 "rebase refuses uncommitted changes in patches/"
like "$out" "notes.patch" "the refusal names the changed patch"
like "$out" "uncommitted changes .* ALLOW_DIRTY=1" "and says how to go on"
is "$(test -d "$TREE" && echo made || echo none)" none "no tree was made"
is "$(tail -n 1 "$QUILT_PATCHES/notes.patch")" "+more notes" "the uncommitted edit is still there"
git -C "$QUILT_PATCHES" checkout -q notes.patch

# The rebase onto 9.9.2 stops at hz.patch.
out=$(FROM=9.9.1 $M rebase BASE=9.9.2 2>&1) && rc=0 || rc=$?
is "$rc" 2 "make rebase fails at the conflict"
like "$out" "offset +alpha-param.patch" "alpha-param.patch: offset"
like "$out" "fuzz +beta-param.patch" "beta-param.patch: fuzz"
like "$out" "patch hz.patch does not apply to 9.9.2" "the conflict names hz.patch"
like "$out" "\| -#define HZ 100" "the rejected hunk is shown"
like "$out" "quilt push -f hz.patch" "the steps to resolve it are given"
like "$out" "make rebase BASE=9.9.2 CONTINUE=1" "with the command that continues"
T2=$TREE
is "$(tail -n 1 "$T2/.pc/applied-patches")" beta-param.patch "the tree stays at the last good patch"
is "$(ls "$T2"/include/asm-generic/*.rej 2>/dev/null)" "" "and holds no .rej files"
js=$(cat "$OUT/rebase/9.9.1-to-9.9.2.json")
like "$js" '"status": "conflict"' "the JSON report says conflict"
like "$js" '"patch": "notes.patch", "result": "not-reached"' "and that notes.patch was not reached"
like "$(cat "$OUT/rebase/9.9.1-to-9.9.2.md")" "## Rejected hunks of hz.patch" "the Markdown report has the rejected hunks"

# The moved patches were refreshed: exact on 9.9.2, headers kept; the old
# versions are in the backup and in git.
(cd "$OUT/src/9.9.2" && patch -p1 -F0 --dry-run -i "$QUILT_PATCHES/alpha-param.patch") > "$TMP/a" 2>&1
is "$(grep -c 'offset\|fuzz\|FAILED' "$TMP/a")" 0 "the refreshed alpha-param.patch applies exactly to 9.9.2"
like "$(cat "$QUILT_PATCHES/beta-param.patch")" "^Subject: \[PATCH\] beta: use asm-generic/param.h" \
	"the refreshed beta-param.patch kept its header"
bk=$(ls -d "$OUT"/rebase/backup/*-9.9.1-to-9.9.2)
check "the dated backup holds patches/ and series as they were" diff -r -x .git "$TMP/orig" "$bk/patches"
is "$(git -C "$QUILT_PATCHES" show HEAD:beta-param.patch | cmp - "$TMP/orig/beta-param.patch" && echo same)" same \
	"git still has the committed version"
ls "$QUILT_PATCHES" | grep '~$' > "$TMP/tilde" || :
is "$(cat "$TMP/tilde")" "" "no quilt ~ backups are left in patches/"

# Running it again without CONTINUE=1 repeats the steps and changes nothing.
cp -a "$QUILT_PATCHES" "$TMP/before"
out=$(scripts/rebase 9.9.2 2>&1) && rc=0 || rc=$?
like "$rc $out" "^1 .*stopped at a conflict in hz.patch" "a re-run without --continue repeats where it stopped"
check "and changes nothing" diff -r "$TMP/before" "$QUILT_PATCHES"

# Resolve it as the steps say, and continue.
(
	cd "$T2" && export QUILTRC="$REPO/scripts/quiltrc" &&
	{ quilt push -f hz.patch || :; } &&
	sed -i 's/HZ 300/HZ 250/' include/asm-generic/param.h &&
	rm -f include/asm-generic/param.h.rej &&
	quilt refresh
) > "$TMP/resolve" 2>&1
out=$($M rebase BASE=9.9.2 CONTINUE=1 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make rebase CONTINUE=1 finishes after the resolution"
like "$out" "conflict +hz.patch \(resolved by hand\)" "hz.patch is recorded as a resolved conflict"
like "$out" "clean +notes.patch" "notes.patch applies clean after it"
js=$(cat "$OUT/rebase/9.9.1-to-9.9.2.json")
like "$js" '"status": "done"' "the report says done"
like "$js" '"clean": 1, "offset": 1, "fuzz": 1, "conflict": 1, "not_reached": 0, "refreshed": 3' \
	"one of each, three refreshed"
like "$(cat "$QUILT_PATCHES/hz.patch")" '^\+#define HZ 250' "the resolution is in patches/hz.patch"
# the range-diff of the finished rebase: old series on 9.9.1 against the
# refreshed one on 9.9.2
md=$(cat "$OUT/rebase/9.9.1-to-9.9.2.md")
like "$md" "^- alpha-param.patch: context$" "range-diff: alpha-param.patch moved (offset): context only"
like "$md" "^- hz.patch: \\*\\*review\\*\\*$" "hz.patch, resolved by hand (HZ 250 for 300): marked for review"
like "$md" "^- notes.patch: same$" "notes.patch: the same"
like "$(cat "$OUT/rebase/9.9.1-to-9.9.2.range-diff")" "^3: +[0-9a-f]+ ! +3: +[0-9a-f]+ asm-generic: HZ 250$" \
	"git range-diff's own output is kept beside the report"
like "$($M rebase BASE=9.9.2 2>&1)" "nothing to do" "a re-run of a finished rebase does nothing"

# A working tree is never taken over, even with nothing applied.
TREE=$OUT/linux-9.9.1 $M tree > /dev/null 2>&1
TREE=$OUT/linux-9.9.1 $M pop Q=-a > /dev/null 2>&1
out=$(TREE=$OUT/linux-9.9.1 FROM=9.9.1 scripts/rebase 9.9.1 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*linux-9.9.1 exists and is not a rebase in progress" \
	"rebase refuses an existing working tree that has nothing applied"
is "$(ls -A "$OUT/linux-9.9.1/.pc" | grep -c 'applied-patches\|rebase'; ls -A "$OUT/linux-9.9.1" | grep -c '^.rebase$')" "0
0" "and leaves it as it was"

# A rebase killed part way resumes to the result of one run straight
# through: the same patches, report and tree.
for w in A B; do
	mkdir -p "$TMP/p$w"
	cp "$TMP/orig/alpha-param.patch" "$TMP/orig/beta-param.patch" "$TMP/orig/notes.patch" "$TMP/p$w"
	printf 'alpha-param.patch\nbeta-param.patch\nnotes.patch\n' > "$TMP/p$w/series"
done
run() {	# A|B, then scripts/rebase's arguments
	_w=$1
	shift
	QUILT_PATCHES=$TMP/p$_w QUILT_SERIES=$TMP/p$_w/series TREE=$OUT/t$_w \
		REBASE_OUT=$TMP/r$_w FROM=9.9.1 scripts/rebase "$@"
}
run A 9.9.2 > "$TMP/straight" 2>&1
kills=
for k in 1:pushed 1:saved 2:recorded 2:refreshed 3:pushed; do
	REBASE_KILL=$k run B 9.9.2 > "$TMP/killed" 2>&1 && rc=0 || rc=$?
	[ "$rc" -ne 0 ] && grep -q "REBASE_KILL=$k" "$TMP/killed" && kills="$kills $k"
done
is "$kills" " 1:pushed 1:saved 2:recorded 2:refreshed 3:pushed" "the run was killed at each of the five points"
check "the killed rebase resumes and finishes" run B 9.9.2
check "to the same patches as the straight run" diff -r "$TMP/pA" "$TMP/pB"
check "and the same tree" diff -r -x .pc -x .rebase "$OUT/tA" "$OUT/tB"
strip() { grep -Ev '"(tree|backup|saved|started|finished)":' "$1"; }
is "$(strip "$TMP/rB/9.9.1-to-9.9.2.json")" "$(strip "$TMP/rA/9.9.1-to-9.9.2.json")" "and the same report"

# A patch edited by hand after the rebase pushed it is not refreshed over.
mkdir -p "$TMP/pC" && cp "$TMP/pA/series" "$TMP/pC"
cp "$TMP/orig/alpha-param.patch" "$TMP/orig/beta-param.patch" "$TMP/orig/notes.patch" "$TMP/pC"
REBASE_KILL=1:recorded run C 9.9.2 > /dev/null 2>&1 || :
sed -i 's/^Verified: /Verified by hand: /' "$TMP/pC/alpha-param.patch"
out=$(run C 9.9.2 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*alpha-param.patch changed since the rebase pushed it" \
	"a patch edited since its push stops the refresh, named"
done_testing
