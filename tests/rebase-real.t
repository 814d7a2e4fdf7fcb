#!/bin/sh
# The real series moved between two real baselines, both pinned: from
# mainline 7.3-rc7 onto 7.2.13 (unstable's, as if it were kept there) and
# from there back onto 7.3-rc7, the move the nightly makes when unstable
# lags experimental.  Each rebase classifies every patch and writes its
# report, and the round trip ends with the tree the series gives on
# 7.3-rc7.  Works on a
# copy of patches/ and series, in trees of its own under
# out/rebase-test/ (hard-linked copies of the baselines, a few seconds).
. "$(dirname "$0")/tap.sh"
MAIN=$(pinned_base)

ORIG=$QUILT_PATCHES
P=$TMP/patches
mkdir -p "$P"
cp "$QUILT_SERIES" "$P/series"
for p in $(series_patches); do
	cp "$QUILT_PATCHES/$p" "$P/" || exit 1
done
QUILT_PATCHES=$P
QUILT_SERIES=$P/series
export QUILT_PATCHES QUILT_SERIES
n=$(series_patches | wc -l)
[ "$n" -gt 0 ] || skip_all "the series is empty"
RT=$OUT/rebase-test/run.$$
trap 'rm -rf "$TMP" "$RT"' EXIT

plan 10

rebase() {	# FROM BASE
	FROM=$1 TREE=$RT/linux-$2 REBASE_OUT=$RT/report TREE_COPY=link \
		"$REPO/scripts/rebase" "$2"
}
check "7.2.13 is fetched and unpacked" "$REPO/scripts/fetch-baseline" 7.2.13
check "the series rebases from $MAIN onto 7.2.13" rebase $MAIN 7.2.13
check "and from 7.2.13 back onto $MAIN" rebase 7.2.13 $MAIN
js=$RT/report/7.2.13-to-$MAIN.json
md=$RT/report/7.2.13-to-$MAIN.md
like "$(cat "$js")" '"status": "done"' "the JSON report says done"
is "$(grep -c '^    {"n": ' "$js")" "$n" "it has a line for each of the $n patches"
is "$(grep '^    {"n": ' "$js" | grep -Evc '"result": "(clean|offset|fuzz)"')" 0 \
	"each of them clean, offset or fuzz"
is "$(grep -c '^| [0-9]* | .*\.patch | ' "$md")" "$n" "the Markdown report has a row for each"
is "$(cat "$RT/linux-$MAIN/.pc/applied-patches" | wc -l)" "$n" "the whole series is applied"

# The files the series touches are as the repository's patches make them.
mkdir -p "$TMP/want"
for p in $(series_patches); do
	sed -n -e 's|^--- a/||p' -e 's|^+++ b/||p' "$ORIG/$p"
done | sed 's/\t.*//' | sort -u > "$TMP/files"
while read -r f; do
	[ -f "$OUT/src/$MAIN/$f" ] || continue
	mkdir -p "$TMP/want/$(dirname "$f")"
	cp "$OUT/src/$MAIN/$f" "$TMP/want/$f"
done < "$TMP/files"
for p in $(series_patches); do
	patch -s -d "$TMP/want" -p1 -F0 -E --no-backup-if-mismatch -i "$ORIG/$p" || echo "FAILED $p"
done > "$TMP/apply" 2>&1
same=yes
while read -r f; do
	if [ -f "$TMP/want/$f" ] || [ -f "$RT/linux-$MAIN/$f" ]; then
		cmp -s "$TMP/want/$f" "$RT/linux-$MAIN/$f" || { same="no: $f"; break; }
	fi
done < "$TMP/files"
is "$same" yes "after the round trip the tree has the series' files"
check "(the reference: the repository's patches apply to $MAIN without fuzz)" test ! -s "$TMP/apply"
done_testing
