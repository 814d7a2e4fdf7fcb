#!/bin/sh
# The real series moved between two real baselines, both pinned: onto
# 6.12.117 (as if it were kept there) and from there back onto 6.12.118.
# Each rebase classifies every patch and writes its report, and the
# round trip ends with the tree the series gives on 6.12.118.  Works on a
# copy of patches/ and series, in trees of its own under
# out/rebase-test/ (hard-linked copies of the baselines, a few seconds).
. "$(dirname "$0")/tap.sh"

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
check "6.12.117 is fetched and unpacked" "$REPO/scripts/fetch-baseline" 6.12.117
check "the series rebases onto 6.12.117" rebase 6.12.118 6.12.117
check "and from 6.12.117 back onto 6.12.118" rebase 6.12.117 6.12.118
js=$RT/report/6.12.117-to-6.12.118.json
md=$RT/report/6.12.117-to-6.12.118.md
like "$(cat "$js")" '"status": "done"' "the JSON report says done"
is "$(grep -c '^    {"n": ' "$js")" "$n" "it has a line for each of the $n patches"
is "$(grep '^    {"n": ' "$js" | grep -Evc '"result": "(clean|offset|fuzz)"')" 0 \
	"each of them clean, offset or fuzz"
is "$(grep -c '^| [0-9]* | .*\.patch | ' "$md")" "$n" "the Markdown report has a row for each"
is "$(cat "$RT/linux-6.12.118/.pc/applied-patches" | wc -l)" "$n" "the whole series is applied"

# The files the series touches are as the repository's patches make them.
mkdir -p "$TMP/want"
for p in $(series_patches); do
	sed -n -e 's|^--- a/||p' -e 's|^+++ b/||p' "$ORIG/$p"
done | sed 's/\t.*//' | sort -u > "$TMP/files"
while read -r f; do
	[ -f "$OUT/src/6.12.118/$f" ] || continue
	mkdir -p "$TMP/want/$(dirname "$f")"
	cp "$OUT/src/6.12.118/$f" "$TMP/want/$f"
done < "$TMP/files"
for p in $(series_patches); do
	patch -s -d "$TMP/want" -p1 -F0 -E --no-backup-if-mismatch -i "$ORIG/$p" || echo "FAILED $p"
done > "$TMP/apply" 2>&1
same=yes
while read -r f; do
	if [ -f "$TMP/want/$f" ] || [ -f "$RT/linux-6.12.118/$f" ]; then
		cmp -s "$TMP/want/$f" "$RT/linux-6.12.118/$f" || { same="no: $f"; break; }
	fi
done < "$TMP/files"
is "$same" yes "after the round trip the tree has the series' files"
check "(the reference: the repository's patches apply to 6.12.118 without fuzz)" test ! -s "$TMP/apply"
done_testing
