#!/bin/sh
# scripts/dup-census on a fixture tree whose figures are counted by hand
# below, then on the real baseline (skipped when it is not unpacked).
. "$(dirname "$0")/tap.sh"
C=$REPO/scripts/dup-census
FIX=$T_DIR/fixtures/census

plan 29

# The fixture, counted by hand (lines are normalised lines: no comments,
# guard, blank lines; see scripts/seriesci/census.py, the program behind
# the wrapper scripts/dup-census):
#  near.h    uapi, alpha beta gamma: 9 lines each, one of them their own,
#            8 in common: near, (3-1)*8 = 16.  delta's differs in 3 of 9
#            lines (over 10%): left out.
#  ipc       uapi msgbuf.h beta delta byte-identical, 3 lines: (2-1)*3 = 3;
#            uapi sembuf.h alpha delta, 2 lines: 2.  One family: 5.
#  pair.h    asm, alpha beta byte-identical, 5 lines: 5.  gamma's uapi
#            pair.h has the same bytes but another kind; beta's
#            generated/asm/pair.h is not looked at.
#  gen.h     asm, gamma equal to include/asm-generic/gen.h but for
#            comments, guard (#if !defined) and whitespace, 4 lines:
#            1*4 = 4.  delta's gen.h is a one-line wrapper: skipped.
#  norm.h    asm, beta (guard) and delta (no guard, other comments and
#            spacing), 3 lines: (2-1)*3 = 3.
#  vm.h      asm, alpha gamma only a guard: empty, 0.
#  made.h    beta delta, marked generated: skipped.
#  feature.h alpha gamma: the first #ifndef is no guard (the last #endif
#            closes another #if), so the copies differ in 2 of 6 lines: none.
#  Total 16 + 5 + 5 + 4 + 3 = 33.
T='	'
want_tsv="uapi${T}near.h${T}near.h${T}near${T}alpha,beta,gamma${T}8${T}16
uapi${T}ipc${T}msgbuf.h${T}identical${T}beta,delta${T}3${T}3
uapi${T}ipc${T}sembuf.h${T}identical${T}alpha,delta${T}2${T}2
asm${T}pair.h${T}pair.h${T}identical${T}alpha,beta${T}5${T}5
asm${T}gen.h${T}gen.h${T}generic${T}gamma${T}4${T}4
asm${T}norm.h${T}norm.h${T}normalised${T}beta,delta${T}3${T}3
asm${T}vm.h${T}vm.h${T}empty${T}alpha,gamma${T}0${T}0"

tsv=$("$C" --tsv "$FIX" 2>&1)
is "$(printf '%s\n' "$tsv" | grep -v '^#')" "$want_tsv" "fixture: every group, its class, arches, lines and removable lines"
like "$(printf '%s\n' "$tsv" | head -n 1)" "^#kind${T}subsystem${T}header${T}class${T}arches${T}lines${T}removable$" \
	"--tsv opens with a # header line"
is "$("$C" --total "$FIX" 2>&1)" 33 "fixture: --total is the hand-counted 33"
is "$(printf '%s\n' "$tsv" | awk -F'\t' '!/^#/ { s += $7 } END { print s }')" 33 \
	"fixture: the --tsv rows add up to the total"
out=$("$C" "$FIX" 2>&1)
like "$out" "^total removable duplicated lines: 33$" "fixture: the report ends with the total"
like "$out" "\(1 wrappers and 2 generated skipped, 2 empty\)" "fixture: the wrapper and the generated headers are skipped"
like "$out" "^ +16  near.h$" "fixture: the report gives each subsystem's removable lines"
like "$out" "^ +uapi near.h near: 3 x 8 = 16, alpha beta gamma$" "fixture: the report gives each group's copies, lines and arches"
out=$("$C" --lines "$FIX" 2>&1)
like "$out" "\| #define NEAR_C 3" "--lines prints the common lines of a near group"
is "$(printf '%s\n' "$out" | grep -c 'NEAR_ALPHA\|NEAR_GAMMA_B\|pad_BETA')" 0 "--lines leaves out the lines only one copy has"
out=$("$C" --top 1 "$FIX" 2>&1)
is "$(printf '%s\n' "$out" | grep -c '^ *[0-9][0-9]*  ')" 1 "--top 1 keeps one subsystem"
is "$(TREE=$FIX "$C" --total 2>&1)" 33 "TREE from the environment is the default tree"
# --near 0: no near groups, the exact ones stand alone: 5 + 5 + 4 + 3
is "$("$C" --near 0 --total "$FIX" 2>&1)" 17 "fixture: --near 0 leaves the exact groups, 17"
fails "--tsv and --total together are refused" "$C" --tsv --total "$FIX"
fails "an unknown option is refused" "$C" --frobnicate "$FIX"
fails "a folder that is no kernel tree is refused" "$C" "$TMP"

# The raw-line census (--raw), counted by hand on the same fixture: raw
# lines are the file's lines, comments and all; a copy within 10 changed
# lines of its group's centre (and, unless equal, with 3 lines in common)
# counts them, the centre does not.
#  near.h    4 copies of 13 raw lines (delta's too, 4 changed lines from
#            alpha's, over the other census's 10%): 3 * 13 = 39.
#  pair.h    alpha beta, 13 raw lines: 13.
#  norm.h    delta (5 raw lines) the centre, beta's 9 count: 9.
#  ipc       msgbuf.h 4, sembuf.h 3 (equal, so fewer than 3 lines is no
#            bar): 7.
#  feature.h alpha gamma, 4 changed lines, 4 common: 6.
#  vm.h      the empty copies, gamma's 4 raw lines the centre: alpha's 5.
#  big.h     alpha gamma share 20 lines but differ in 6 + 5 = 11: none
#            (--changed 11: gamma, 29 raw lines, the centre, alpha's 30).
#  tiny.h    alpha beta differ in 2 lines, 1 in common: none.
#  Total 39 + 13 + 9 + 7 + 6 + 5 = 79.
want_raw="uapi${T}near.h${T}near.h${T}raw-near${T}alpha,beta,delta,gamma${T}13${T}39
asm${T}pair.h${T}pair.h${T}raw-equal${T}alpha,beta${T}13${T}13
asm${T}norm.h${T}norm.h${T}raw-equal${T}beta,delta${T}5${T}9
uapi${T}ipc${T}msgbuf.h${T}raw-equal${T}beta,delta${T}4${T}4
uapi${T}ipc${T}sembuf.h${T}raw-equal${T}alpha,delta${T}3${T}3
asm${T}feature.h${T}feature.h${T}raw-near${T}alpha,gamma${T}6${T}6
asm${T}vm.h${T}vm.h${T}raw-equal${T}alpha,gamma${T}4${T}5"
tsv=$("$C" --raw --tsv "$FIX" 2>&1)
is "$(printf '%s\n' "$tsv" | grep -v '^#')" "$want_raw" "--raw fixture: every group, its class, arches, centre's and removable raw lines"
is "$("$C" --raw --total "$FIX" 2>&1)" 79 "--raw fixture: --total is the hand-counted 79"
is "$(printf '%s\n' "$tsv" | awk -F'\t' '!/^#/ { s += $7 } END { print s }')" 79 \
	"--raw fixture: the --tsv rows add up to the total"
is "$("$C" --total "$FIX" 2>&1)" 33 "--raw leaves the other census as it was: still 33"
out=$("$C" --raw "$FIX" 2>&1)
like "$out" "^total raw duplicated lines \(copies within 10 changed lines\): 79$" "--raw fixture: the report ends with its total"
like "$out" "^ +uapi near.h raw-near: 4 copies, 39 raw lines beyond the centre's 13, alpha\* beta~2 delta~4 gamma~2$" \
	"--raw fixture: the report marks the centre and each copy's changed lines"
is "$("$C" --raw --changed 11 --tsv "$FIX" 2>&1 | grep big.h)" \
	"asm${T}big.h${T}big.h${T}raw-near${T}alpha,gamma${T}29${T}30" "--raw --changed 11: the copies 11 lines apart join"
is "$("$C" --raw --changed 11 --total "$FIX" 2>&1)" 109 "--raw --changed 11: the total grows by their 30 lines"
fails "--changed without --raw is refused" "$C" --changed 5 "$FIX"
fails "--changed takes a whole number" "$C" --raw --changed x "$FIX"

# The real baseline.
if [ -d "$SRC/arch" ] && [ -d "$SRC/include/asm-generic" ]; then
	tsv=$("$C" --tsv "$SRC" 2>&1)
	like "$(printf '%s\n' "$tsv" | awk -F'\t' '$1 == "uapi" && $3 == "unistd.h" { print $5 }')" \
		"(^|,)arc,(.*,)?m68k,(.*,)?sh(,|$)" "baseline: arc, m68k and sh uapi unistd.h are in one group"
	total=$("$C" --total "$SRC")
	sum=$(printf '%s\n' "$tsv" | awk -F'\t' '!/^#/ { s += $7 } END { print s + 0 }')
	like "$total" "^[1-9][0-9]*$" "baseline: the total ($total) is a positive number"
	is "$sum" "$total" "baseline: the --tsv rows add up to the total"
else
	skip "no baseline at $SRC"
	skip "no baseline at $SRC"
	skip "no baseline at $SRC"
fi

done_testing
