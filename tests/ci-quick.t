#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/ci-quick.t - the quick tier of the per-patch CI on the real series:
# scripts/ci-series with TIER=quick (x86_64; m68k, 32-bit and big-endian;
# arch/example) builds every target after every patch, runs checkpatch and
# sparse on each patch and boots arch/example from the patch that brings
# it up to /init.  Every cell must pass.  Targets that no change of a step
# can reach (scripts/reach) are not rebuilt; the kept build folders then
# show reach on real Kbuild output.  The record is $OUT/ci/$BASE-quick.
# It walks down from the top of the series (--down) over the patches only
# (--steps=1-N): on 6.12.118 the baseline's include/linux/fs.h differed
# from every patch's (a Part 0 fix), and the baseline step is still one
# more build of every target for a step that is not a patch.  make
# ci-full runs it.
. "$(dirname "$0")/tap.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt (make deps)"
[ -d "$SRC" ] || skip_all "no baseline at $SRC (scripts/fetch-baseline)"
plan 15
rec=$OUT/ci/$BASE-quick
unset TARGETS SHARD RECORD KBUILD_LOCK_HELD
export TIER=quick
npatch=$(series_patches | wc -l)

RECORD=$rec "$REPO/scripts/ci-series" --restart --down --steps="1-$npatch" > "$TMP/ci.log" 2>&1
rc=$?
sed 's/^/# /' "$TMP/ci.log" | grep -v '^#   \(PUSH\|POP\)' | tail -n 80
is "$rc" 0 "ci-series TIER=quick passes on every step of the series"
is "$(ls "$rec"/*/done 2>/dev/null | wc -l)" "$npatch" "every step ran to its end: the $npatch patches"
is "$(cd "$TREE" && quilt applied 2>/dev/null | wc -l)" "$npatch" "the tree is left with the whole series applied"

# cells: target:status counts over all steps
cells() {
	for r in "$rec"/[0-9][0-9][0-9]-*/"$1".result; do
		sed -n 's/^status=//p' "$r"
	done | sort | uniq -c | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }'
}
is "$(cells x86_64)" "ok:$npatch" "x86_64 builds after every patch"
is "$(cells m68k)" "ok:$npatch" "m68k builds after every patch"
first=$(series_patches | grep -n '^arch-example-' | head -n 1 | cut -d: -f1)
is "$(cells example)" "ok:$((npatch + 1 - first)) skip:$((first - 1))" \
	"example builds from the patch that adds arch/example on, and is skipped before"
is "$(cat "$rec"/[0-9]*/checkpatch.result | grep -c '^status=ok')" "$npatch" "checkpatch --strict passes on every patch"
is "$(cat "$rec"/[0-9]*/sparse.result | grep -c '^status=fail')" 0 "sparse passes on the C files every patch touches"
like "$(grep -h '^status=' "$rec"/[0-9]*/boot.result | sort | uniq -c | tr '\n' ' ' | tr -s ' ')" \
	'^ [0-9]+ status=ok [0-9]+ status=skip $' \
	"arch/example boots to /init from the patch that removes its stubs (before: skip)"
like "$(grep -l '^stage=unreached' "$rec"/[0-9]*/*.result | wc -l)" '^[1-9]' \
	"steps whose changes cannot reach a target's build leave it unbuilt"
# asm-offsets.c is compiled to a .s, never to an object of any target:
# sparse cannot check it, and says so (the series' other C files outside
# arch/example, lib/checksum.c, are in example's kept build folder).
is "$(grep -h '^unbuilt=' "$rec"/[0-9]*-arch-example-add-a-template-architecture-that-builds.patch/sparse.result)" \
	"unbuilt=arch/example/kernel/asm-offsets.c" \
	"sparse skips, and names, a touched file that no quick target compiles"

# generated code: a consolidation patch of Part 1 leaves every target's
# code as it was; arch/example's second patch changes example's
codegen() {	# codegen STEP-GLOB TARGET
	sed -n 's/^codegen=//p' "$rec"/$1/"$2".result 2>/dev/null
}
bad=
for p in $(sed -n '/^# Part 1/,/^# Part 2/p' "$REPO/series" | grep -v '^#' | grep -v csum); do
	s=$(cd "$rec" && ls -d [0-9][0-9][0-9]-"$p")
	for t in x86_64 m68k; do
		case $(codegen "$s" "$t") in
		identical|same) ;;
		*) bad="$bad $s/$t:$(codegen "$s" "$t")" ;;
		esac
	done
done
is "${bad:-none}" none "no consolidation patch of Part 1 changes the code of x86_64 or m68k"
is "$(codegen "$(printf %03d $((first + 1)))-*" example)" differs \
	"arch/example's boot patch changes example's code, and that is seen"

# reach on the real build folders: the generic checksum header is read by
# arch/example (generic-y) and not by x86_64 (its own asm/checksum.h)
B=$OUT/build/$BASE
is "$("$REPO/scripts/reach" -q --key "$(sed -n 1p "$B/example/.reach/key")" \
	--files include/asm-generic/checksum.h "$B/example" && echo reached)" reached \
	"include/asm-generic/checksum.h reaches example's build"
is "$("$REPO/scripts/reach" -q --key "$(sed -n 1p "$B/x86_64/.reach/key")" \
	--files include/asm-generic/checksum.h "$B/x86_64" || echo unreached)" unreached \
	"and does not reach x86_64's"
done_testing
