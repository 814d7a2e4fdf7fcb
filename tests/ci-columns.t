#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/ci-columns.t - scripts/ci-columns runs ci-series --down one target
# column at a time: a failed column is logged and not marked done, an
# old TARGET.ok without a fingerprint is not honoured, DIR/stop stops
# before the next column (tests/ci-stale.t: a done column is skipped
# while its fingerprint is current).  The
# mini fixture series and two targets whose cross compiler does not exist
# (no kernel make runs), as tests/ci-concurrent.t.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt"
plan 7
mini_ci_setup a b
D=$TMP/cols
export COLUMNS_DIR=$D

out=$("$REPO/scripts/ci-columns" 2>&1) && rc=0 || rc=$?
is "$rc" 1 "a column whose builds fail makes ci-columns fail"
like "$(cat "$D/done.log")" "^a rc=1 [0-9]+s" "each column is logged with its exit status"
like "$(sed -n 2p "$D/done.log")" "^b rc=1 " "and the next column still runs"
is "$(ls "$D"/*.ok 2>/dev/null | wc -l)" 0 "a failed column is not marked done"
is "$(ls -d "$D"/a/[0-9]*/ | wc -l)" "$(( $(series_patches | wc -l) + 1 ))" "a column has every step of the series and the baseline"
touch "$D/a.ok"
like "$("$REPO/scripts/ci-columns" a 2>&1)" "STALE +.*a.ok has no fingerprint.*running the column again" \
	"an a.ok without a fingerprint (an older ci-columns) is not honoured: the column runs"
touch "$D/stop"
like "$("$REPO/scripts/ci-columns" b 2>&1)" "STOP .*not starting b" "DIR/stop stops before the next column"
done_testing
