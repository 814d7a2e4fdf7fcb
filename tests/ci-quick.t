#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/ci-quick.t - the quick tier of the per-patch CI on the real series:
# scripts/ci-series with TIER=quick (x86_64; m68k, 32-bit and big-endian;
# arch/example) walks down from the top of the series (--down): every
# target is built at the top and after the patch below it, checkpatch and
# sparse run on those patches, and arch/example boots to /init.  Every
# cell must pass.  Targets that no change of a step can reach
# (scripts/reach) are not rebuilt; the kept build folders then show
# reach on real Kbuild output.  The record is $OUT/ci/$BASE-quick.
#   CI_QUICK_STEPS=top        the default: the top two steps (in make
#                             check: about 12.5 minutes of 2 cores with a
#                             cold ccache, most of it the top's x86_64 and
#                             m68k builds)
#   CI_QUICK_STEPS=template   every patch of the last destination of the
#                             series file (Parts 2 and 3: the canonical ABI
#                             and arch/example): also that example is
#                             skipped before its first patch and boots from
#                             the patch that removes its stubs; each
#                             arch/example patch that changes its headers
#                             is one more full example build (about 4
#                             minutes each, cold)
#   CI_QUICK_STEPS=all        every patch (--steps=1-N), as make check ran
#                             it until 2026-12-07 (about 3,400 s, over half
#                             of CI's 90 minutes on the 32-patch series),
#                             with the test that no Part 1 patch changes the
#                             code of x86_64 or m68k
# make ci-quick runs the tier after every patch and the baseline, and the
# build-all shards of the GitHub and GitLab pipelines every target after
# every patch.
. "$(dirname "$0")/tap.sh"

command -v quilt >/dev/null 2>&1 || skip_all "no quilt (make deps)"
[ -d "$SRC" ] || skip_all "no baseline at $SRC (scripts/fetch-baseline)"
plan 16
rec=$OUT/ci/$BASE-quick
unset TARGETS SHARD RECORD KBUILD_LOCK_HELD
export TIER=quick
npatch=$(series_patches | wc -l)
case ${CI_QUICK_STEPS:-top} in
all)	from=1 ;;
top)	from=$((npatch > 1 ? npatch - 1 : 1)) ;;
template)
	# the first patch of the last destination (scripts/destinations)
	tfirst=$("$REPO/scripts/destinations" | awk -F '\t' '
		$1 == "dest" { first = "" }
		$1 == "patch" && first == "" { first = $3 }
		END { print first }')
	from=$(series_patches | grep -nxF "$tfirst" | cut -d: -f1)
	[ -n "$from" ] || { echo "# scripts/destinations names no first patch of the last destination"; exit 1; } ;;
*)	echo "# CI_QUICK_STEPS=$CI_QUICK_STEPS: 'top', 'template' or 'all'"; exit 1 ;;
esac
nsteps=$((npatch + 1 - from))

RECORD=$rec "$REPO/scripts/ci-series" --restart --down --steps="$from-$npatch" > "$TMP/ci.log" 2>&1
rc=$?
sed 's/^/# /' "$TMP/ci.log" | grep -v '^#   \(PUSH\|POP\)' | tail -n 80
is "$rc" 0 "ci-series TIER=quick passes on steps $from to $npatch of the series"
is "$(ls "$rec"/*/done 2>/dev/null | wc -l)" "$nsteps" "every step ran to its end: the $nsteps patches from $from on"
is "$(cd "$TREE" && quilt applied 2>/dev/null | wc -l)" "$npatch" "the tree is left with the whole series applied"

# cells: target:status counts over all steps
cells() {
	for r in "$rec"/[0-9][0-9][0-9]-*/"$1".result; do
		sed -n 's/^status=//p' "$r"
	done | sort | uniq -c | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }'
}
is "$(cells x86_64)" "ok:$nsteps" "x86_64 builds after each of those patches"
is "$(cells m68k)" "ok:$nsteps" "m68k builds after each of those patches"
first=$(series_patches | grep -n '^arch-example-' | head -n 1 | cut -d: -f1)
top=$(cd "$rec" && ls -d "$(printf %03d "$npatch")"-* 2>/dev/null)
if [ "$first" -ge "$from" ]; then
	want="ok:$((npatch + 1 - first))"
	[ "$first" -eq "$from" ] || want="$want skip:$((first - from))"
else
	want="ok:$nsteps"
fi
is "$(cells example)" "$want" \
	"example builds from the patch that adds arch/example on, and is skipped before"
is "$(cat "$rec"/[0-9]*/checkpatch.result | grep -c '^status=ok')" "$nsteps" "checkpatch --strict passes on each of those patches"
is "$(cat "$rec"/[0-9]*/sparse.result | grep -c '^status=fail')" 0 "sparse passes on the C files every patch touches"
is "$(sed -n 's/^status=//p' "$rec/$top/boot.result" 2>/dev/null)" ok \
	"arch/example boots to /init at the top of the series"
if [ "$first" -ge "$from" ]; then
	like "$(grep -h '^status=' "$rec"/[0-9]*/boot.result | sort | uniq -c | tr '\n' ' ' | tr -s ' ')" \
		'^ [0-9]+ status=ok [0-9]+ status=skip $' \
		"arch/example boots to /init from the patch that removes its stubs (before: skip)"
else
	skip "arch/example boots to /init from the patch that removes its stubs (before: skip)" \
		"its first patch is below step $from (CI_QUICK_STEPS=template runs it)"
fi
like "$(grep -l '^stage=unreached' "$rec"/[0-9]*/*.result | wc -l)" '^[1-9]' \
	"steps whose changes cannot reach a target's build leave it unbuilt"
# asm-offsets.c is compiled to a .s, never to an object of any target:
# sparse cannot check it, and says so (the series' other C files outside
# arch/example, lib/checksum.c, are in example's kept build folder).
if [ "$first" -ge "$from" ]; then
	is "$(grep -h '^unbuilt=' "$rec"/[0-9]*-arch-example-add-a-template-architecture-that-builds.patch/sparse.result)" \
		"unbuilt=arch/example/kernel/asm-offsets.c" \
		"sparse skips, and names, a touched file that no quick target compiles"
else
	skip "sparse skips, and names, a touched file that no quick target compiles" \
		"arch/example's first patch is below step $from"
fi

# generated code: a consolidation patch of Part 1 leaves every target's
# code as it was; arch/example's second patch changes example's
codegen() {	# codegen STEP-GLOB TARGET
	sed -n 's/^codegen=//p' "$rec"/$1/"$2".result 2>/dev/null
}
if [ "$from" -eq 1 ]; then
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
else
	skip "no consolidation patch of Part 1 changes the code of x86_64 or m68k" \
		"Part 1's steps not run (CI_QUICK_STEPS=all runs them)"
fi
if [ "$first" -ge "$from" ]; then
	is "$(codegen "$(printf %03d $((first + 1)))-*" example)" differs \
		"arch/example's boot patch changes example's code, and that is seen"
else
	skip "arch/example's boot patch changes example's code, and that is seen" \
		"the step below it is not run"
fi

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
