#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/series-file.t - the series file is read one way: a CRLF series,
# an indented comment, a patch listed twice, a missing patch file and a
# CRLF patch each stop make tree, push, lint, export, rebase and ci-series
# (and a CRLF series make top, applied, pop and refresh, through scripts/q)
# with the line named, before quilt reads the file its own way (stand-in
# baseline).
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
S=$QUILT_SERIES
cp "$S" "$TMP/series.good"

plan 30

runs() {	# runs PATTERN DESC: tree, lint, push, export, rebase and ci-series fail, matching PATTERN
	for c in tree lint push export rebase ci-series; do
		out=$("$REPO/scripts/$c" 2>&1) && rc=0 || rc=$?
		like "$rc $(echo $out)" "^1 .*$1" "$c: $2"
	done
}

sed 's/$/\r/' "$TMP/series.good" > "$S"
runs "series:1: a carriage return" "a CRLF series file is named with its line"
for c in top applied pop refresh; do
	out=$("$REPO/scripts/q" $c 2>&1) && rc=0 || rc=$?
	like "$rc $(echo $out)" "^1 .*series:1: a carriage return" "q $c: a CRLF series file is named"
done
{ head -n 1 "$TMP/series.good"; echo "  # an indented note"; tail -n +2 "$TMP/series.good"; } > "$S"
runs "series:2: a comment that does not start in column 1" "an indented comment"
{ cat "$TMP/series.good"; head -n 1 "$TMP/series.good"; } > "$S"
runs "alpha-param.patch is listed twice \\(first on line 1\\)" "a patch listed twice"
{ cat "$TMP/series.good"; echo "gamma-missing.patch"; } > "$S"
runs "gamma-missing.patch is listed but .* does not exist" "a missing patch file"
cp "$TMP/series.good" "$S"
sed -i 's/$/\r/' "$QUILT_PATCHES/beta-param.patch"
out=$("$REPO/scripts/tree" 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*beta-param.patch: CRLF line ends" "a CRLF patch stops make tree"
check "and no tree was made from a bad series" test ! -e "$TREE/.pc/applied-patches"
done_testing
