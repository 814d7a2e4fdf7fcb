#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/build-ci-series.t - scripts/ci-series walks the series step by step
# and resumes: on the mini fixture series, with one target whose cross
# compiler does not exist (so no kernel make runs; every build fails fast),
# and a last patch that adds arch/example, booted by a stub boot script.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt"
command -v flock >/dev/null 2>&1 || skip_all "no flock"
plan 22
mini_setup
cat > "$TMP/patches/example-arch.patch" <<'EOP'
Subject: [PATCH] example: a stand-in arch/example

---
--- /dev/null
+++ b/arch/example/Kconfig
@@ -0,0 +1 @@
+config EXAMPLE
EOP
echo example-arch.patch >> "$QUILT_SERIES"
# the boot script stub: says what it got, fails when BOOT_FAIL is set
cat > "$TMP/boot" <<'EOB'
#!/bin/sh
[ "$1" = --log ] || exit 2
echo "booting TREE=$TREE BUILD=$BUILD" > "$2"
[ -z "${BOOT_FAIL:-}" ] || { echo "Kernel panic - not syncing: no init found" >> "$2"; exit 1; }
echo "example: reached /init" >> "$2"
EOB
chmod +x "$TMP/boot"
export BOOT_EXAMPLE="$TMP/boot"
"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1 || { cat "$TMP/tree.log"; exit 1; }
# a checkpatch that finds one thing in every patch
mkdir -p "$TREE/scripts"
printf '#!/bin/sh\necho "CHECK: one"\necho "WARNING: two"\necho "total: 0 errors, 1 warnings, 1 checks"\nexit 1\n' > "$TREE/scripts/checkpatch.pl"
chmod +x "$TREE/scripts/checkpatch.pl"
mkdir -p "$TMP/configs"
: > "$TMP/configs/base.config"
echo "a alpha nosuch-linux-gnu- quick" > "$TMP/configs/targets"
: > "$TMP/configs/a.config"
export CONFIGS="$TMP/configs" KBUILD_LOCK="$TMP/lock"
unset KBUILD_LOCK_HELD TARGETS TIER SHARD
ci=$OUT/ci/$BASE
npatch=$(series_patches | wc -l)

fails "a failed build makes ci-series exit non-zero" "$REPO/scripts/ci-series"
is "$(ls -d "$ci"/[0-9][0-9][0-9]-*/ | wc -l)" "$((npatch + 1))" "one step for the baseline and one per patch"
is "$(ls "$ci"/*/done | wc -l)" "$((npatch + 1))" "every step is marked done"
first=$(series_patches | head -n 1)
is "$(grep '^stage=' "$ci/001-$first/a.result")" "stage=toolchain" "the target's result is recorded per patch"
is "$(grep '^new_warnings=' "$ci/001-$first/a.result")" "new_warnings=0" "new warnings since the previous step are recorded"
is "$(grep '^status=\|^first_error=' "$ci/001-$first/checkpatch.result" | tr '\n' ' ')" "status=fail first_error=CHECK: one " \
	"checkpatch's first complaint is recorded"

rm "$ci/001-$first/done"
out=$("$REPO/scripts/ci-series" 2>&1)
is "$(echo "$out" | grep -c '^  STEP')" 1 "a resumed run redoes only the unfinished step"
is "$(cd "$TREE" && quilt applied 2>/dev/null | wc -l)" "$npatch" "and leaves the tree with the patches it had"

last=$(printf '%03d-example-arch.patch' "$npatch")
is "$(cat "$ci"/*/boot.result | grep -c '^status=')" 1 "only the step with arch/example boots"
is "$(grep '^status=' "$ci/$last/boot.result"; cat "$ci/$last/boot.log")" "status=ok
booting TREE=$TREE BUILD=$OUT/build/$BASE
example: reached /init" "the boot script gets TREE, BUILD and --log; ok is recorded"
like "$(cat "$ci/results.json" 2>&1)" '"boot": true' "a failed run still renders results.json, with the boot column"
rm "$ci/$last/done"
BOOT_FAIL=1 "$REPO/scripts/ci-series" > /dev/null 2>&1
is "$(grep '^status=\|^first_error=' "$ci/$last/boot.result" | tr '\n' ' ')" \
	"status=fail first_error=Kernel panic - not syncing: no init found " "a failed boot is recorded with its first error line"
like "$(grep -o '<td[^>]*data-col="boot"[^>]*>' "$ci/results.html")" 'data-status="fail"' "results.html shows the failed boot"
rm -rf "$TREE"
rm "$ci/$last/done"
"$REPO/scripts/ci-series" > /dev/null 2>&1
is "$(cd "$TREE" 2>/dev/null && quilt applied 2>/dev/null | wc -l)" "$npatch" "with no tree it makes one, as on a fresh CI machine"
# --down: from the top of the series to the baseline, the tree put back
out=$("$REPO/scripts/ci-series" --down --restart 2>&1)
is "$(echo "$out" | sed -n 's/^  STEP    \([0-9]*\)-.*/\1/p' | tr '\n' ' ')" \
	"$(series_patches | awk '{ printf "%03d\n", NR }' | sort -r | tr '\n' ' ')000 " "--down walks the steps from the top down"
is "$(cd "$TREE" && quilt applied 2>/dev/null | wc -l)" "$npatch" "and leaves the tree at the top of the series"
is "$(grep -h '^new_warnings=' "$ci"/*/a.result | sort -u)" "new_warnings=0" \
	"new warnings are worked out against the step before, whatever the order"
# --steps: a part of the column now, the rest later
out=$("$REPO/scripts/ci-series" --down --restart --steps=1-2 2>&1)
is "$(echo "$out" | sed -n 's/^  STEP    \([0-9]*\)-.*/\1/p' | tr '\n' ' ')" "002 001 " "--steps=1-2 runs only those steps"
is "$(ls "$ci"/*/done | wc -l)" 2 "and marks only them done"
out=$("$REPO/scripts/ci-series" --down 2>&1)
is "$(echo "$out" | grep -c '^  STEP')" "$((npatch - 1))" "a later run without --steps does the others"
fails "--steps=3-1 is refused" "$REPO/scripts/ci-series" --steps=3-1
fails "--steps=x is refused" "$REPO/scripts/ci-series" --steps=x
done_testing
