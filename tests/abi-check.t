#!/bin/sh
# scripts/abi-check and scripts/abi-probe: the fixture trees of
# tests/fixtures/abi differ in one struct's padding and one macro, and
# abi-check must find exactly that; the probe's parser cases; the plan a
# patch gives; and, with the cross compiler and the pristine baseline,
# hand-checked asm/sembuf.h figures of x86_64 and m68k.
. "$(dirname "$0")/tap.sh"
FX=$T_DIR/fixtures/abi
CHECK=$REPO/scripts/abi-check
PROBE=$REPO/scripts/abi-probe
OUT=$TMP/out
export OUT

plan 29

# --- the fixture pair ---
fails "different trees: abi-check exits non-zero" \
	"$CHECK" --base "$FX/base" --new "$FX/new" --targets x86_64 asm/sembuf.h linux/probe_test.h
"$CHECK" --base "$FX/base" --new "$FX/new" --targets x86_64 \
	asm/sembuf.h linux/probe_test.h > "$TMP/diff" 2>&1 || true
is "$(grep '^x86_64: ' "$TMP/diff" | LC_ALL=C sort)" "$(LC_ALL=C sort <<-'X'
	x86_64: ~ macro.SEMFAKE_MAX 32 -> 64
	x86_64: - struct.semid64_ds.__unused1.offsetof 12
	x86_64: - struct.semid64_ds.__unused1.sizeof 4
	x86_64: ~ struct.semid64_ds.__unused2.offsetof 20 -> 16
	x86_64: ~ struct.semid64_ds.sem_ctime.offsetof 16 -> 12
	X
)" "exactly the lost padding and the macro differ; the move to asm-generic does not"
like "$(cat "$TMP/diff")" '^\[ 1/1\] x86_64 +DIFFER +\+0 -2 ~3 of [0-9]+ keys' \
	"the summary line counts them"
check "identical trees: abi-check exits 0" \
	"$CHECK" --base "$FX/base" --new "$FX/base" --targets x86_64 asm/sembuf.h linux/probe_test.h
"$CHECK" --base "$FX/base" --new "$FX/base" --targets x86_64 \
	asm/sembuf.h linux/probe_test.h > "$TMP/same" 2>&1
is "$(grep -c '^x86_64: ' "$TMP/same")" 0 "identical trees: no difference printed"
like "$(cat "$TMP/same")" '^\[ 1/1\] x86_64 +same +[0-9]+ keys' "identical trees: the summary says same"

# --- what the probe records ---
"$PROBE" -o "$TMP/p" x86_64 "$FX/base" linux/probe_test.h 2> "$TMP/p.err"
val() {
	awk -v k="$1" '$1 == k { print $2 }' "$TMP/p"
}
is "$(val struct.pt_outer.as_int.offsetof) $(val struct.pt_outer.as_bytes.sizeof)" "4 8" \
	"members of an anonymous union"
is "$(val struct.pt_outer.lo.offsetof) $(val struct.pt_outer.hi.offsetof) $(val struct.pt_outer.word.offsetof)" \
	"112 113 112" "members of an anonymous struct in an anonymous union"
is "$(val 'struct.pt_outer.pos[0].y.offsetof') $(val struct.pt_outer.pos.sizeof)" "14 8" \
	"members of a named inner struct array"
is "$(val struct.pt_outer.inner.v.offsetof) $(val struct.pt_inner.sizeof)" "24 8" \
	"a tagged inner struct: as a member and as a struct"
is "$(grep -c -e '\.flags\.' -e '\.more\.' "$TMP/p")" 0 "bitfields are skipped"
is "$(val struct.pt_outer.handler.offsetof) $(val struct.pt_outer.callback.offsetof) $(val struct.pt_outer.grid.sizeof)" \
	"40 48 48" "a function pointer typedef, a function pointer, a 2-D array"
is "$(val struct.pt_outer.sizeof) $(val struct.pt_outer.alignof)" "128 16" \
	"__attribute__((aligned(16))) after the body"
is "$(val struct.pt_packed.i.offsetof) $(val struct.pt_packed.sizeof) $(val struct.pt_packed.alignof)" \
	"1 5 1" "__attribute__((packed)) before the tag"
is "$(val typedef.pt_pair_t.b.offsetof) $(val typedef.pt_pair_t.sizeof) $(val typedef.pt_handler_t.sizeof)" \
	"4 8 8" "typedefs, and the members of a typedef'd anonymous struct"
is "$(val enum.PT_RED) $(val enum.PT_BLUE) $(val macro.PT_NEG) $(val macro.PT_BIG) $(val macro.PT_SIZE)" \
	"0 6 -2 1311768467463790320 128" "enumerators, macros (negative, 64-bit, sizeof)"
is "$(cat "$TMP/p.skipped" | tr '\n' ' ')" "macro.PT_CALL macro.PT_STRING macro.PT_TYPE " \
	"macros that are no integer constant expressions are skipped (an inline call too)"
like "$(cat "$TMP/p.err")" '3 skipped \(3 macros not constant\)' "and counted"
is "$(grep -c -e PT_FN -e semid64 -e _LINUX_PROBE_TEST_H "$TMP/p")" 0 \
	"no function-like macros, include guards or other headers' definitions"

# --- nothing proven is no pass ---
mkdir -p "$TMP/nc/include/linux" "$TMP/uc/include/asm"
printf 'struct nc { undefined_t a; };\n' > "$TMP/nc/include/linux/nc_test.h"
"$CHECK" --base "$TMP/nc" --new "$TMP/nc" --targets x86_64 linux/nc_test.h > "$TMP/nc.out" 2>&1
is "$?" 3 "a header that compiles on neither side: exit 3"
like "$(cat "$TMP/nc.out")" '^\[ 1/1\] x86_64 +UNDECIDED +linux/nc_test.h compiles on neither side' \
	"and the line says UNDECIDED, not same"
ABI_CC=/nonexistent/gcc "$CHECK" --base "$FX/base" --new "$FX/base" --targets x86_64 \
	asm/sembuf.h > "$TMP/skip.out" 2>&1
is "$?" 3 "every target skipped for want of a compiler: exit 3, not a pass"
# asm/ucontext.h compiles only after what defines stack_t, sigset_t and
# struct sigcontext (usr/include/Makefile's no-header-test): the probe
# includes them first
cat > "$TMP/uc/include/asm/signal.h" <<-'X'
	typedef struct { unsigned long sig[1]; } sigset_t;
	typedef struct { void *ss_sp; int ss_flags; unsigned long ss_size; } stack_t;
	X
printf 'struct sigcontext { unsigned long r[4]; };\n' > "$TMP/uc/include/asm/sigcontext.h"
cat > "$TMP/uc/include/asm/ucontext.h" <<-'X'
	struct ucontext { unsigned long uc_flags; stack_t uc_stack;
		sigset_t uc_sigmask; struct sigcontext uc_mcontext; };
	X
"$PROBE" -o "$TMP/uc.p" x86_64 "$TMP/uc" asm/ucontext.h 2> "$TMP/uc.err"
is "$(awk '$1 == "header.asm/ucontext.h" || $1 == "struct.ucontext.uc_mcontext.offsetof" { printf "%s ", $2 }' "$TMP/uc.p")" \
	"ok 40 " "asm/ucontext.h is probed after asm/signal.h and asm/sigcontext.h"
is "$(grep -c 'sigset_t\|stack_t\|struct.sigcontext' "$TMP/uc.p")" 0 \
	"and only its own definitions are recorded"

# --- a patch gives the plan ---
is "$("$CHECK" -n --patch "$FX/consolidate.patch" --targets "parisc sparc64 x86_64")" \
	"parisc: asm/sembuf.h linux/sem.h
sparc64: asm/msgbuf.h linux/sem.h
x86_64: linux/sem.h" "--patch: uapi files and generic-y lines, per arch; non-uapi files ignored"

# --- the real baseline, hand-checked figures ---
if [ ! -f "$SRC/Makefile" ] || ! command -v m68k-linux-gnu-gcc >/dev/null 2>&1; then
	_result 0 "# SKIP no baseline at $SRC or no m68k-linux-gnu-gcc"
	_result 0 "# SKIP no baseline at $SRC or no m68k-linux-gnu-gcc"
	_result 0 "# SKIP no baseline at $SRC or no m68k-linux-gnu-gcc"
	_result 0 "# SKIP no baseline at $SRC or no m68k-linux-gnu-gcc"
else
	# a target whose arch the source tree lacks (arch/example before the
	# series) is skipped, named, and proves nothing
	"$CHECK" --base "$SRC" --new "$SRC" --targets example asm/signal.h > "$TMP/noarch" 2>&1
	is "$?" 3 "a target whose arch the tree lacks: skipped, exit 3 when nothing else is probed"
	like "$(cat "$TMP/noarch")" '^\[ 1/1\] example +skip +no arch/example in ' "and it is named"
	OUT=$REPO/out		# share the header cache with abi-check
	export OUT
	"$CHECK" --base "$SRC" --new "$SRC" --targets "x86_64 m68k" asm/sembuf.h > "$TMP/real" 2>&1 || true
	R=$OUT/abi/result/$(basename "$SRC")
	# x86_64: ipc64_perm is 48 (5 ints, u32 mode, 2 shorts, padding to 8,
	# 2 longs); then 7 longs: 48 + 56 = 104, sem_nsems at 48 + 4 * 8 = 80.
	is "$(awk '$1 == "struct.semid64_ds.sizeof" || $1 == "struct.semid64_ds.sem_nsems.offsetof" { printf "%s ", $2 }' "$R/x86_64" 2>&1)" \
		"80 104 " "x86_64: sizeof(struct semid64_ds) 104, sem_nsems at 80"
	# m68k, asm-generic's: ipc64_perm 36 (5 ints, u16 mode + 2 pad, 2
	# shorts, 2 longs of 4); 7 longs of 4 after it: 64; ints align to 2.
	is "$(awk '$1 ~ /^struct\.semid64_ds\.(sizeof|alignof|sem_perm\.sizeof|sem_nsems\.offsetof)$/ { printf "%s=%s ", $1, $2 }' "$R/m68k" 2>&1)" \
		"struct.semid64_ds.alignof=2 struct.semid64_ds.sem_nsems.offsetof=52 struct.semid64_ds.sem_perm.sizeof=36 struct.semid64_ds.sizeof=64 " \
		"m68k: sizeof 64, sem_perm 36, sem_nsems at 52, alignof 2"
fi
done_testing
