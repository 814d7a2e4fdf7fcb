#!/bin/sh
# make nightly on stand-in baselines, with a stand-in archive (an apt-cache
# that offers 9.9.2) and a stand-in build: it rebases a copy of the series
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

# The archive offers 9.9.2 and 9.9.1, newest first, as apt-cache madison says.
mkdir -p "$TMP/bin"
cat > "$TMP/bin/apt-cache" <<'EOC'
#!/bin/sh
[ "$1" = madison ] && [ "$2" = linux-source-9.9 ] || exit 0
for v in $OFFERED; do
	echo "linux-source-9.9 | $v | http://deb.debian.org/debian bookworm/main amd64 Packages"
done
EOC
chmod +x "$TMP/bin/apt-cache"
PATH=$TMP/bin:$PATH
OFFERED="9.9.2-1 9.9.1-1"
NIGHTLY_OUT=$TMP/nightly
NIGHTLY_BUILD='echo "$TREE $BUILD" >> "$NIGHTLY_OUT/builds"; echo "build-all: 1/1 ok in 0s"'
export OFFERED NIGHTLY_OUT NIGHTLY_BUILD
M="make -s -C $REPO"
builds() { wc -l < "$NIGHTLY_OUT/builds" 2>/dev/null | tr -d ' ' || echo 0; }
reports() { ls "$NIGHTLY_OUT/reports/" 2>/dev/null | grep -c "[0-9]\.md$" || :; }

plan 18

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
out=$(OFFERED="9.9.3-1 9.9.2-1" $M nightly 2>&1) && rc=0 || rc=$?
is "$rc $(builds)" "2 2" "a conflict on the newest version fails the nightly, nothing is built"
like "$(tr "\n" " " < "$NIGHTLY_OUT/latest.md")" "Rebase: \*\*conflict\*\*.*resolve it for real with 'make rebase BASE=9.9.3'" \
	"the report says so, and how to resolve it"

# A newer version that is not pinned: say what to do.
out=$(OFFERED="9.9.4-1 9.9.3-1" scripts/nightly 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*9.9.4-1, not pinned .*fetch-baseline --pin 9.9.4" "an unpinned newest version is named, with the fix"
is "$(builds)" 2 "and nothing is built"
done_testing
