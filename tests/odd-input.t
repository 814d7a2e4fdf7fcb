#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/odd-input.t - odd input to lint, push, refresh and fetch-baseline
# on the stand-in baseline and archive (tests/mini.sh, tests/archive.sh):
#  - lint: a From: or Signed-off-by: that is not "Name <local@domain>"
#    (Jane Doe <Jane Doe>, series@@example) and a CRLF patch fail, named;
#    quilt's PATCH~ backups are not reported as unlisted patches;
#  - make push Q=<typo> pushes nothing; Q=<an applied patch> neither;
#  - make refresh does not overwrite a hand edit of the patch's diff;
#    FORCE=1 does;
#  - the fix make tree prints for a patch that does not apply, pasted
#    into a fresh shell (the editor's line done by sed), refreshes the
#    patch in the series' form (a/ b/, lint finds it) and the tree ends
#    complete;
#  - a pinned sha256 the archive's file does not have: one clear stop that
#    does not send the user round a re-download; a killed download's
#    .partial.PID is cleared by the next run.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
. "$T_DIR/archive.sh"
need dpkg-scanpackages dpkg-dev
mini_setup
M="make -s -C $REPO"
P=$QUILT_PATCHES

plan 21

"$REPO/scripts/tree" > /dev/null 2>&1
out=$("$REPO/scripts/lint" 2>&1) && rc=0 || rc=$?
is "$(echo "$out" | grep -c 'is not "Name\|not listed')" 0 "lint: the stand-in series' identities are sound, every file listed"
cp -a "$P" "$TMP/good"

sed -i 's/^From: .*/From: Jane Doe <Jane Doe>/; s/^Signed-off-by: .*/Signed-off-by: Jane Doe <Jane Doe>/' "$P/alpha-param.patch"
out=$("$REPO/scripts/lint" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*alpha-param.patch: \"Jane Doe <Jane Doe>\" is not \"Name <address>\"" \
	"lint: From: Jane Doe <Jane Doe> fails, named"
cp "$TMP/good/alpha-param.patch" "$P/"
sed -i 's/^Signed-off-by: .*/&\nSigned-off-by: Series <series@@example>/' "$P/beta-param.patch"
out=$("$REPO/scripts/lint" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*beta-param.patch: \"Series <series@@example>\" is not" \
	"lint: a Signed-off-by: series@@example fails, named"
cp "$TMP/good/beta-param.patch" "$P/"
sed -i 's/$/\r/' "$P/beta-param.patch"
out=$("$REPO/scripts/lint" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*beta-param.patch: CRLF line ends" "lint: a CRLF patch fails, named"
cp "$TMP/good/beta-param.patch" "$P/"
cp "$P/beta-param.patch" "$P/beta-param.patch~"
out=$("$REPO/scripts/lint" 2>&1) && rc=0 || rc=$?
is "$(echo "$out" | grep -c 'patch~')" 0 "lint: a quilt backup PATCH~ is not reported"
rm -f "$P/beta-param.patch~"

# make push Q=typo
"$REPO/scripts/q" pop -a > /dev/null 2>&1
out=$($M push Q=alpha-parm.patch 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^2 .*alpha-parm.patch is not a patch of" "make push Q=<typo> fails, naming it"
is "$(cat "$TREE/.pc/applied-patches" 2>/dev/null)" "" "and pushes nothing"
$M push Q=alpha-param.patch > /dev/null 2>&1
out=$($M push Q=alpha-param.patch 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^2 .*alpha-param.patch is applied already" "make push Q=<applied patch> pushes nothing"
is "$(cat "$TREE/.pc/applied-patches")" "alpha-param.patch" "the tree stays at it"

# make refresh over a hand edit of the patch's diff
sleep 0.01
sed -i 's/^+generic-y += param.h$/+generic-y += param.h # by hand/' "$P/alpha-param.patch"
cp "$P/alpha-param.patch" "$TMP/edited"
out=$($M refresh 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^2 .*alpha-param.patch was edited after quilt pushed it" "make refresh stops at a hand edit of the diff"
check "and leaves the edit" cmp "$TMP/edited" "$P/alpha-param.patch"
fix=$(echo "$out" | sed -n 's/^  \(cd .* quilt pop -f && quilt push\)$/\1/p')
env -i PATH="$PATH" HOME="$HOME" sh -c "$fix" > "$TMP/fix.log" 2>&1 && rc=0 || rc=$?
like "$rc $(tail -n 1 "$TREE/arch/alpha/include/asm/Kbuild")" "^0 generic-y \+= param.h # by hand" \
	"the printed command, pasted into a fresh shell, pushes the edited patch"
sleep 0.01
sed -i 's/^+generic-y += param.h # by hand$/+generic-y += param.h # by hand again/' "$P/alpha-param.patch"
out=$(FORCE=1 $M refresh 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*Refreshed" "FORCE=1 refreshes anyway"
# a header edit alone is refreshed, kept
cp "$TMP/good/alpha-param.patch" "$P/"
"$REPO/scripts/q" pop -af > /dev/null 2>&1
"$REPO/scripts/q" push > /dev/null 2>&1
sleep 0.01
sed -i 's/^Subject: .*/& (edited)/' "$P/alpha-param.patch"
echo "generic-y += more.h" >> "$TREE/arch/alpha/include/asm/Kbuild"
out=$($M refresh 2>&1) && rc=0 || rc=$?
# the header edit plus a tree edit cannot be told from a diff edit: a stop
like "$rc" "^[02]$" "make refresh after a header edit: refreshes or stops, never loses it"
check "the header edit is kept" grep -q '(edited)' "$P/alpha-param.patch"

# make tree's printed fix for a patch that does not apply
cp -a "$TMP/good/." "$P/"
cat > "$P/hz.patch" <<'EOP'
From: asm-generic series <series@example.org>
Subject: [PATCH] asm-generic: HZ 250

A test patch whose context is not the baseline's: it does not apply.

Verified: the fixture tree has no build; this is a test patch.

Signed-off-by: asm-generic series <series@example.org>
---
--- a/include/asm-generic/param.h
+++ b/include/asm-generic/param.h
@@ -2,6 +2,6 @@
 #ifndef __ASM_GENERIC_PARAM_H
 #define __ASM_GENERIC_PARAM_H
 
-#define HZ 300
+#define HZ 250
 
 #endif
EOP
echo hz.patch >> "$QUILT_SERIES"
out=$("$REPO/scripts/tree" 2>&1) && rc=0 || rc=$?
echo "$out" | sed -n '/^(each line works/,$p' | sed -e '1d' -e 's/^  //' -e 's/ *#.*//' \
	-e 's/^\$EDITOR .*/sed -i "s\/HZ 100\/HZ 250\/" include\/asm-generic\/param.h \&\& rm -f include\/asm-generic\/param.h.rej/' \
	-e 's/^quilt push -f .*/& || :/' > "$TMP/fix"
like "$rc $(tail -n 1 "$TMP/fix")" "^1 cd .* && OUT=.* TREE=.* make tree" "make tree prints the fix, ending with make tree on the same OUT and TREE"
env -i PATH="$PATH" HOME="$HOME" sh -c "set -e; $(cat "$TMP/fix")" > "$TMP/fix.log" 2>&1 && rc=0 || rc=$?
is "$rc" 0 "the fix, pasted into a fresh shell, ends with the series applied"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/fix.log" | tail -n 20
like "$(grep '^[-+][-+][-+] ' "$P/hz.patch" | tr '\n' ' ')" "^--- a/include/asm-generic/param.h \+\+\+ b/include/asm-generic/param.h $" \
	"the refreshed patch is in the series' form (a/ b/, no timestamps)"
is "$("$REPO/scripts/lint" 2>&1 | grep -c "hz.patch: does not apply\|can.t find file")" 0 "and lint applies it"

# fetch-baseline: a wrong pin; a killed download's leftovers
archive_setup
mkdir -p "$TMP/debs"
mv "$OUT"/dl/*.deb "$TMP/debs/"
archive_put unstable "$TMP/debs/linux-source-9.9_9.9.1-1_all.deb"
sed -i 's/ [0-9a-f]\{64\}$/ 0000000000000000000000000000000000000000000000000000000000000000/' "$BASELINES"
mkdir -p "$OUT/dl/.partial.99999"
rm -rf "$OUT/src"
out=$("$REPO/scripts/fetch-baseline" 2>&1) && rc=0 || rc=$?
out2=$("$REPO/scripts/fetch-baseline" 2>&1) && rc2=0 || rc2=$?
like "$rc $rc2 $(echo $out2)" "^1 1 .*archive serves it now has sha256 .*Downloading again will not help" \
	"a wrong pin: the same clear stop each run, no re-download advice"
is "$(ls -A "$OUT/dl" | grep -c '^\.partial\.\|^linux-source')" 0 "no partial download and no unverified .deb left"
done_testing
