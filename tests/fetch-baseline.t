#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/fetch-baseline.t - baselines from a stand-in Debian archive
# (tests/archive.sh) through the project's own apt configuration: every
# suite listed, the pinned default fetched, a cached copy used when the
# archive moved on, the fallback to the newest mainline version when
# there is none (and the stop when the series does not take it), and
# each bad input a clear error.  Offline: the archive is a file:// folder.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
. "$T_DIR/archive.sh"
need dpkg-scanpackages dpkg-dev
mini_setup
archive_setup
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v2"
echo "# 9.9.2" >> "$TMP/v2/Makefile"
mini_baseline 9.9.2 "$TMP/v2"
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v3"
sed -i 's/^generic-y += vmalloc.h$/generic-y += vmalloc.h\ngeneric-y += other.h/' "$TMP/v3/arch/alpha/include/asm/Kbuild"
sed -i 's/HZ 100/HZ 250/' "$TMP/v3/arch/alpha/include/asm/param.h"
mini_baseline 9.9.3 "$TMP/v3"
# 9.9.1 is pinned (the default); 9.9.2 and 9.9.3 are not.
sed -i '/ 9\.9\.[23]-1 /d' "$BASELINES"
mkdir -p "$TMP/debs"
mv "$OUT"/dl/*.deb "$TMP/debs/"
archive_put unstable "$TMP/debs/linux-source-9.9_9.9.1-1_all.deb"
archive_put experimental "$TMP/debs/linux-source-9.9_9.9.2-1_all.deb"
# a third patch, a new file whose name holds "offset": no hunk of it moved
cat > "$QUILT_PATCHES/gamma-note.patch" <<'EOP'
From: asm-generic series <series@example.org>
Subject: [PATCH] gamma: a note

A new file whose name holds the word offset.

Signed-off-by: asm-generic series <series@example.org>
---
--- /dev/null
+++ b/include/asm-generic/asm-offsets-note.h
@@ -0,0 +1 @@
+/* a note */
EOP
echo gamma-note.patch >> "$QUILT_SERIES"
unset BASE
cp -a "$QUILT_PATCHES" "$TMP/orig"
FB=$REPO/scripts/fetch-baseline

plan 25

out=$("$FB" --list 2>&1) && rc=0 || rc=$?
is "$rc" 0 "--list reads the stand-in archive"
like "$(echo "$out" | tr -s ' ')" "experimental linux-source-9.9 9.9.2-1 no" "it names the suite, the version and that it is not pinned"
like "$(echo "$out" | tr -s ' ')" "unstable linux-source-9.9 9.9.1-1 yes" "and a pinned one"
check "the project's sources list is under OUT" grep -q "^deb \[trusted=yes\] file://$ARCHIVE unstable main" "$OUT/apt/sources.list"

out=$("$FB" 2>&1) && rc=0 || rc=$?
is "$rc" 0 "the pinned default is downloaded"
like "$out" "FETCH +linux-source-9.9 9.9.1-1 \(unstable\)" "from its suite"
check "and unpacked" test -f "$OUT/src/9.9.1/Makefile"
# Its .deb deleted and the archive out of reach: the ready tree is enough.
mv "$OUT/dl/linux-source-9.9_9.9.1-1_all.deb" "$TMP/deb.keep" && mv "$ARCHIVE" "$ARCHIVE.off"
out=$(BASE=9.9.1 "$FB" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*CACHED .*ready, unpacked from linux-source-9.9 9.9.1-1" \
	"a ready tree without its .deb, offline: used as it is, nothing fetched"
mv "$ARCHIVE.off" "$ARCHIVE" && mv "$TMP/deb.keep" "$OUT/dl/linux-source-9.9_9.9.1-1_all.deb"
is "$("$FB" --newest)" "linux-source-9.9 9.9.2-1 experimental" "--newest: the highest mainline version"

# The archive moves on: 9.9.1 leaves it.
archive_drop unstable 9.9.1-1
out=$("$FB" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*CACHED" "a pinned version gone from the archive: the cached copy is used"
rm -rf "$OUT/src/9.9.1" "$OUT"/dl/*9.9.1*
out=$("$REPO/scripts/tree" 2>&1) && rc=0 || rc=$?
is "$rc" 0 "no copy either: make tree goes on"
like "$out" "FALLBACK 9.9.1 has left the archive .* using 9.9.2" "with the newest mainline version, said in one line"
like "$out" "TRIAL +9.9.2 takes all 3 patches unchanged \\(0 with offsets\\)" \
	"after a trial in a scratch copy, counting only hunks that moved"
is "$(cat "$OUT/linux-9.9.2/.pc/applied-patches" 2>/dev/null | wc -l)" 3 "the series is applied to it"
check "and patches/ is untouched" diff -r "$TMP/orig" "$QUILT_PATCHES"
like "$(cat "$OUT/apt/pins")" "^linux-source-9.9 9.9.2-1 experimental [0-9a-f]{64}$" "its sha256, from the signed index, is pinned in OUT only"

# A newer fallback that the series does not take: stop, name it, change nothing.
archive_put experimental "$TMP/debs/linux-source-9.9_9.9.3-1_all.deb"
rm -rf "$OUT/linux-9.9.2" "$OUT/src/9.9.2" "$OUT/apt/fallback" "$OUT"/dl/*9.9.2*
out=$("$REPO/scripts/tree" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*patch alpha-param.patch does not apply.*make rebase BASE=9.9.3" \
	"a fallback the series does not take stops with the patch and the steps"
check "no tree is left and patches/ is untouched" sh -c "[ ! -e '$OUT/linux-9.9.3' ] && diff -r '$TMP/orig' '$QUILT_PATCHES'"

# Bad input.
out=$(APT_SUITES="experimental nosuch" "$FB" --list 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*the archive does not serve the suite nosuch" "a suite the archive does not serve"
out=$(APT_TRUSTED= APT_KEYRING=$TMP/none.gpg "$FB" --list 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*does not verify against " "a Release file that does not verify"
echo "linux-source-9.9 9.9.5-1 unstable 0000000000000000000000000000000000000000000000000000000000000000" >> "$BASELINES"
out=$(BASE=9.9.5 "$FB" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*9\.9\.5-1 cannot be downloaded .*the archive offers: 9\.9\.3-1 experimental" \
	"a pinned .deb the archive does not serve: what it offers instead"
out=$(BASE=9.9.7 "$FB" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*9\.9\.7 is not pinned .*names no version any suite offers.*the archive offers: 9\.9\.3-1" \
	"a version string that names no suite"

# lib.sh in an OUT that fell back (apt/fallback, no copy of the pinned
# base): its functions are defined before it uses them.
mkdir -p "$TMP/fbout/apt" && echo 9.9.3 > "$TMP/fbout/apt/fallback"
out=$(env -u BASE -u BASE_AUTO OUT="$TMP/fbout" sh -uc '. "$1/scripts/lib.sh"; echo "BASE=$BASE"' \
	"$REPO/scripts/lib.sh" "$REPO" 2>&1) && rc=0 || rc=$?
is "$rc $(echo $out)" "0 BASE=9.9.3" "lib.sh in a fallback OUT: the fallback base, no error (set -u)"
# BASE in Debian's form is the same baseline: one src/, one tree.
out=$(env -u TREE BASE=9.9.2-1 sh -uc '. "$1/scripts/lib.sh"; echo "$BASE $SRC $TREE"' "$REPO/scripts/lib.sh" "$REPO" 2>&1)
is "$out" "9.9.2 $OUT/src/9.9.2 $OUT/linux-9.9.2" "BASE=9.9.2-1 is 9.9.2"
out=$(BASE='7.3~rc7-1~exp1' sh -uc '. "$1/scripts/lib.sh"; echo "$BASE"' "$REPO/scripts/lib.sh" "$REPO" 2>&1)
is "$out" "7.3-rc7" "BASE=7.3~rc7-1~exp1 is 7.3-rc7, and 7.3-rc7 stays itself"
done_testing
