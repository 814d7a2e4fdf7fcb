#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/ci-concurrent.t - two `make ci-quick` (scripts/ci-series) started at
# once on one OUT: the second waits for OUT's lock, naming the first's PID
# and command, before it takes the build lock; both end with a complete
# record.  The mini fixture series, one target whose cross compiler does
# not exist (no kernel make runs), as tests/build-ci-series.t.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt"
command -v flock >/dev/null 2>&1 || skip_all "no flock"
plan 5
mini_ci_setup a
ci=$OUT/ci/$BASE
npatch=$(series_patches | wc -l)

"$REPO/scripts/ci-series" --restart > "$TMP/a.log" 2>&1 &
a=$!
sleep 0.2
"$REPO/scripts/ci-series" --restart > "$TMP/b.log" 2>&1 &
b=$!
wait $a && ra=0 || ra=$?
wait $b && rb=0 || rb=$?
is "$ra $rb" "1 1" "both runs end (the target's build fails, as it must here)"
like "$(cat "$TMP/b.log")" "WAIT +waiting for PID $a \\(ci-series --restart\\), which holds .*/.lock" \
	"the second waited for OUT's lock, naming the first"
isnt "$(grep -c 'kbuild-lock: waiting' "$TMP/b.log")" 1 "and not in the build lock's queue"
is "$(ls "$ci"/*/done | wc -l)" "$((npatch + 1))" "the record has every step done once"
is "$(cat "$TREE/.pc/applied-patches")" "$(series_patches)" "and the tree every patch once"
done_testing
