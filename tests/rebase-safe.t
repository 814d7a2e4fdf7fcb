#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/rebase-safe.t - make rebase loses nothing, on stand-in baselines
# (tests/mini.sh) in an OUT whose path has a space:
#  - a hand edit of a patch made after the rebase was killed at any of its
#    points (pushed, recorded, saved, refreshed) is never refreshed over:
#    the re-run stops naming the patch, and the printed command, pasted
#    into a fresh shell, pushes the edited patch and finishes;
#  - the steps printed at a conflict, pasted into a fresh shell (the
#    editor's line done by sed), resolve it and finish the rebase;
#  - a patch dropped from the series during the rebase is listed in the
#    final report; ABORT=1 puts patches/ and series back as they were and
#    removes the rebase's tree; a BASE that is not a version makes nothing;
#  - --help prints the usage and exits 0, an unknown option is an error.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"
mini_setup
mv "$OUT" "$TMP/o ut"
OUT="$TMP/o ut"
SRC=$OUT/src/9.9.1
TREE=$OUT/linux-9.9.2
export OUT TREE
REBASE_OUT=$OUT/rebase
M="make -s -C $REPO"

# 9.9.2: alpha's Kbuild two lines longer (offset), HZ changed (a conflict
# for hz.patch).
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v2"
k=$TMP/v2/arch/alpha/include/asm/Kbuild
{ printf '# alpha headers\n#\n'; cat "$k"; } > "$k.new" && mv "$k.new" "$k"
sed -i 's/HZ 100/HZ 300/' "$TMP/v2/include/asm-generic/param.h"
mini_baseline 9.9.2 "$TMP/v2"
cp "$T_DIR/fixtures/mini/hz.patch" "$QUILT_PATCHES/"
printf 'alpha-param.patch\nbeta-param.patch\nhz.patch\n' > "$QUILT_SERIES"
cp -a "$QUILT_PATCHES" "$TMP/orig"
fresh() {	# a command pasted into a fresh shell: only PATH and HOME
	env -i PATH="$PATH" HOME="$HOME" sh -c "$1"
}

plan 27

# Killed at each point, then alpha-param.patch edited by hand.
for k in pushed recorded saved refreshed; do
	w=$TMP/p-$k
	cp -a "$TMP/orig" "$w"
	printf 'alpha-param.patch\nbeta-param.patch\n' > "$w/series"
	export QUILT_PATCHES="$w" QUILT_SERIES="$w/series" TREE="$OUT/t-$k" REBASE_OUT="$TMP/r-$k"
	REBASE_KILL=1:$k FROM=9.9.1 ALLOW_DIRTY=1 "$REPO/scripts/rebase" 9.9.2 > "$TMP/k.log" 2>&1 || :
	sed -i 's/^+generic-y += param.h$/+generic-y += param.h # by hand/' "$w/alpha-param.patch"
	cp "$w/alpha-param.patch" "$TMP/edited"
	out=$(FROM=9.9.1 "$REPO/scripts/rebase" 9.9.2 2>&1) && rc=0 || rc=$?
	grep -q "REBASE_KILL=1:$k" "$TMP/k.log" || echo "# not killed at 1:$k"
	like "$rc $(echo $out)" "^1 .*alpha-param.patch changed since the rebase" \
		"killed at $k, then edited: the re-run stops, naming the patch"
	if [ "$k" = pushed ]; then
		check "and leaves the edit as it is" cmp "$TMP/edited" "$w/alpha-param.patch"
		fix=$(echo "$out" | sed -n 's/^  \(cd .* quilt pop -f && .*CONTINUE=1\)$/\1/p')
		fresh "$fix" > "$TMP/fix.log" 2>&1 && rc=0 || rc=$?
		is "$rc" 0 "the printed command, pasted into a fresh shell, finishes the rebase"
		[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/fix.log" | tail -n 20
		like "$(cat "$w/alpha-param.patch")" '^\+generic-y \+= param.h # by hand' "with the edit in the refreshed patch"
	else
		is "$(grep -c '# by hand' "$w/alpha-param.patch")" 1 "and leaves the edit there"
	fi
done
unset QUILT_PATCHES QUILT_SERIES REBASE_OUT
mini_setup_patches() {
	QUILT_PATCHES=$TMP/patches QUILT_SERIES=$TMP/patches/series TREE=$OUT/linux-9.9.2 REBASE_OUT=$OUT/rebase
	export QUILT_PATCHES QUILT_SERIES TREE REBASE_OUT
}
mini_setup_patches

# A conflict; its printed steps, pasted into a fresh shell, resolve it.
out=$(FROM=9.9.1 ALLOW_DIRTY=1 "$REPO/scripts/rebase" 9.9.2 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*patch hz.patch does not apply" "the rebase stops at hz.patch"
echo "$out" | sed -n '/^To resolve:/,/^  Or /p' | sed -e '1d' -e '$d' -e 's/^  //' -e 's/ *#.*//' \
	-e 's/^\$EDITOR .*/sed -i "s\/HZ 300\/HZ 250\/" include\/asm-generic\/param.h \&\& rm -f include\/asm-generic\/param.h.rej/' \
	-e 's/^quilt push -f .*/& || :/' > "$TMP/steps"
like "$(cat "$TMP/steps")" "^cd '[^']*o ut/linux-9.9.2' && export QUILTRC=" "the steps go to the tree, path quoted, with QUILTRC"
like "$(tail -n 1 "$TMP/steps")" "OUT='[^']*o ut' TREE=.* make rebase BASE=9.9.2 CONTINUE=1" "and continue with OUT and TREE"
fresh "set -e; $(cat "$TMP/steps")" > "$TMP/steps.log" 2>&1 && rc=0 || rc=$?
is "$rc" 0 "the steps, pasted into a fresh shell, resolve the conflict and finish"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/steps.log" | tail -n 20
like "$(cat "$REBASE_OUT/9.9.1-to-9.9.2.json")" '"status": "done"' "the report in this OUT says done"
is "$(ls "$REPO/out/rebase/9.9.1-to-9.9.2.json" 2>/dev/null)" "" "and none went to the default OUT"
like "$(cat "$QUILT_PATCHES/hz.patch")" '^\+#define HZ 250' "the resolution is in hz.patch"

# ABORT=1 after the resolution: patches/ and series as before.
out=$($M rebase BASE=9.9.2 ABORT=1 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*ABORT" "make rebase ABORT=1 aborts"
check "patches/ and series are as before the rebase" diff -r "$TMP/orig" "$QUILT_PATCHES"
check "the rebase's tree is gone" test ! -e "$TREE"
check "what patches/ held at the abort is kept" test -f "$(ls -d "$REBASE_OUT"/aborted/*-9.9.1-to-9.9.2 | head -n 1)/patches/hz.patch"

# A patch dropped from the series during the rebase is reported.
out=$(FROM=9.9.1 ALLOW_DIRTY=1 "$REPO/scripts/rebase" 9.9.2 2>&1) && rc=0 || rc=$?
sed -i '/^hz.patch$/d' "$QUILT_SERIES"
out=$(FROM=9.9.1 ALLOW_DIRTY=1 "$REPO/scripts/rebase" --continue 9.9.2 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 .*1 dropped \\(hz.patch\\)" "a patch dropped at the conflict is named at the end"
like "$(cat "$REBASE_OUT/9.9.1-to-9.9.2.json")" '"dropped": \["hz.patch"\]' "and in the JSON report"
like "$(cat "$REBASE_OUT/9.9.1-to-9.9.2.md")" 'Dropped from the series: 1 \(hz.patch\)' "and in the Markdown one"

# Odd input.
out=$(TREE= "$REPO/scripts/rebase" ../../x 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^1 .*BASE=../../x is not a kernel version" "a BASE that is not a version is refused"
is "$(ls -a "$OUT/.." "$OUT" | grep -c '^x$\|rebase-lock\|^linux-\.\.')" 0 "and makes nothing outside OUT, nor a folder of its name"
out=$("$REPO/scripts/rebase" --help 2>&1) && rc=0 || rc=$?
like "$rc $(echo $out)" "^0 usage: scripts/rebase" "--help prints the usage"
done_testing
