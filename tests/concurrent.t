#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/concurrent.t - two runs on one OUT at once: two `make tree` on a
# fresh OUT (stand-in baseline, tests/mini.sh) both end with one complete
# pristine baseline and one tree with the whole series; the second waits
# for the first rather than share the unpack or the pushes.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
rm -rf "$OUT/src"
n=$(series_patches | wc -l)

plan 6

"$REPO/scripts/tree" > "$TMP/a.log" 2>&1 &
a=$!
"$REPO/scripts/tree" > "$TMP/b.log" 2>&1 &
b=$!
wait $a && ra=0 || ra=$?
wait $b && rb=0 || rb=$?
is "$ra $rb" "0 0" "both runs succeed"
like "$(cat "$TMP/a.log" "$TMP/b.log")" "WAIT +waiting for PID [0-9]+ \\(tree\\), which holds .*/out/.lock" "one of them waited for the other, naming its PID and command"
is "$(cd "$T_DIR/fixtures/mini/tree" && find . -type f | sort | xargs sha256sum | sha256sum)" \
	"$(cd "$OUT/src/$BASE" && find . -type f | sort | xargs sha256sum | sha256sum)" \
	"the pristine baseline is whole"
is "$(wc -l < "$TREE/.pc/applied-patches")" "$n" "the tree has every patch applied once"
is "$(sort "$TREE/.pc/applied-patches" | uniq -d)" "" "and none twice"
check "quilt agrees the series is applied" sh -c "cd '$TREE' && quilt --quiltrc '$QUILTRC' unapplied 2>&1 | grep -q 'fully applied'"
done_testing
