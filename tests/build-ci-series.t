#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/build-ci-series.t - scripts/ci-series walks the series step by step
# and resumes: on the mini fixture series, with one target whose cross
# compiler does not exist (so no kernel make runs; every build fails fast).
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt"
command -v flock >/dev/null 2>&1 || skip_all "no flock"
plan 7
mini_setup
"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1 || { cat "$TMP/tree.log"; exit 1; }
mkdir -p "$TMP/configs"
: > "$TMP/configs/base.config"
echo "a x86 nosuch-linux-gnu- quick" > "$TMP/configs/targets"
: > "$TMP/configs/a.config"
export CONFIGS="$TMP/configs" KBUILD_LOCK="$TMP/lock"
unset KBUILD_LOCK_HELD TARGETS TIER SHARD
ci=$OUT/ci/$BASE
npatch=$(series_patches | wc -l)

fails "a failed build makes ci-series exit non-zero" "$REPO/scripts/ci-series"
is "$(ls "$ci" | wc -l)" "$((npatch + 1))" "one step for the baseline and one per patch"
is "$(ls "$ci"/*/done | wc -l)" "$((npatch + 1))" "every step is marked done"
first=$(series_patches | head -n 1)
is "$(grep '^stage=' "$ci/001-$first/a.result")" "stage=toolchain" "the target's result is recorded per patch"
is "$(grep '^new_warnings=' "$ci/001-$first/a.result")" "new_warnings=0" "new warnings since the previous step are recorded"

rm "$ci/001-$first/done"
out=$("$REPO/scripts/ci-series" 2>&1)
is "$(echo "$out" | grep -c '^  STEP')" 1 "a resumed run redoes only the unfinished step"
is "$(cd "$TREE" && quilt applied 2>/dev/null | wc -l)" "1" "the tree is at that step's patch"
done_testing
