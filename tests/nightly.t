#!/bin/sh
# make nightly on stand-in baselines, with a stand-in archive (9.9.2 in
# experimental, tests/archive.sh) and a stand-in build: it rebases a copy of the series
# onto the newest version, builds, writes a dated report, leaves the
# repository's patches alone, and a second run does nothing new.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v2"
k=$TMP/v2/arch/alpha/include/asm/Kbuild
{ printf '# alpha headers\n#\n'; cat "$k"; } > "$k.new" && mv "$k.new" "$k"
mini_baseline 9.9.2 "$TMP/v2"
cp -a "$QUILT_PATCHES" "$TMP/orig"

# The stand-in archive: 9.9.2 in experimental, 9.9.1 in unstable.
. "$T_DIR/archive.sh"
archive_setup
archive_put unstable "$OUT/dl/linux-source-9.9_9.9.1-1_all.deb"
archive_put experimental "$OUT/dl/linux-source-9.9_9.9.2-1_all.deb"
NIGHTLY_OUT=$TMP/nightly
NIGHTLY_BUILD='echo "$TREE $BUILD" >> "$NIGHTLY_OUT/builds"; echo "build-all: 1/1 ok in 0s"'
export NIGHTLY_OUT NIGHTLY_BUILD
M="make -s -C $REPO"
builds() { wc -l < "$NIGHTLY_OUT/builds" 2>/dev/null | tr -d ' ' || echo 0; }
reports() { ls "$NIGHTLY_OUT/reports/" 2>/dev/null | grep -c "[0-9]\.md$" || :; }

plan 21

out=$($M nightly 2>&1) && rc=0 || rc=$?
is "$rc" 0 "make nightly succeeds"
like "$out" "NEWEST +linux-source-9.9 9.9.2-1" "it picks the newest version offered"
is "$(builds)" 1 "it builds once"
like "$(cat "$NIGHTLY_OUT/builds")" "^$NIGHTLY_OUT/linux-9.9.2 $NIGHTLY_OUT/build-9.9.2$" \
	"the rebased tree, in a build folder of its own"
like "$(readlink "$NIGHTLY_OUT/latest.md")" "^reports/20[0-9-]*T[0-9]*Z-9.9.2.md$" "the report is dated"
md=$(cat "$NIGHTLY_OUT/latest.md")
like "$md" "Rebase: \*\*done\*\*; 2 patches: 1 clean, 1 offset" "the report has the rebase's classification"
like "$md" "Build \(TIER=quick\): \*\*ok\*\*; build-all: 1/1 ok" "and the build's result"
like "$md" "Range-diff: reports/20[0-9T-]*Z-9.9.2.range-diff" "and the range-diff, kept beside it"
like "$md" "^- alpha-param.patch: context$" "alpha-param.patch, moved on 9.9.2: its context only"
like "$(cat "$NIGHTLY_OUT/latest.json")" '"status": 0,' "the JSON report says it passed"
check "the repository's patches are not changed" diff -r "$TMP/orig" "$QUILT_PATCHES"
like "$(cat "$NIGHTLY_OUT/work/patches/alpha-param.patch")" "^@@ -2,3 \+2,4 @@" \
	"the copy has the refreshed patch"

out=$($M nightly 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*nothing new since reports/" "a second run says there is nothing new"
is "$(builds) $(reports)" "1 1" "and builds and reports nothing"

# A changed patch is something new; a failed build fails the job.
sed -i 's/^Verified: /Verified again: /' "$QUILT_PATCHES/beta-param.patch"
NIGHTLY_BUILD='echo "$TREE" >> "$NIGHTLY_OUT/builds"; exit 1' $M nightly > "$TMP/o" 2>&1 && rc=0 || rc=$?
is "$rc $(builds)" "2 2" "after a patch changed the nightly runs again, and a failed build fails it"
like "$(cat "$NIGHTLY_OUT/latest.md")" "Build \(TIER=quick\): \*\*failed\*\*" "the report says the build failed"

# A newest version the series conflicts with: the job fails, builds nothing.
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v3"
sed -i 's/HZ 100/HZ 1000/' "$TMP/v3/arch/alpha/include/asm/param.h"
mini_baseline 9.9.3 "$TMP/v3"
archive_put experimental "$OUT/dl/linux-source-9.9_9.9.3-1_all.deb"
out=$($M nightly 2>&1) && rc=0 || rc=$?
is "$rc $(builds)" "2 2" "a conflict on the newest version fails the nightly, nothing is built"
like "$(tr "\n" " " < "$NIGHTLY_OUT/latest.md")" "Rebase: \*\*conflict\*\*.*resolve it for real with 'make rebase BASE=9.9.3'" \
	"the report says so, and how to resolve it"

# A newer version that is not pinned: trusted from the signed index for
# the nightly's copy, and the report says so.
mini_baseline 9.9.4 "$T_DIR/fixtures/mini/tree"
sed -i '/ 9\.9\.4-1 /d' "$BASELINES"
archive_put experimental "$OUT/dl/linux-source-9.9_9.9.4-1_all.deb"
rm -f "$OUT"/dl/*9.9.4*
out=$(scripts/nightly 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*9.9.4-1 \(experimental, not pinned: trusted from the archive's signed index; pin it with 'scripts/fetch-baseline --pin 9.9.4'" \
	"an unpinned newest version is used, and named so, with the fix"
like "$(tr "\n" " " < "$NIGHTLY_OUT/latest.md")" "9.9.4-1, not pinned" "in the report too"
is "$(builds)" 3 "and it is built"
done_testing
