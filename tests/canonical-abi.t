#!/bin/sh
# The canonical ABI of Part 2 of the series, on a copy of the baseline with
# the Part 2 patches applied (tests/canonical-abi.sh):
#  - scripts/check-canonical-abi.sh --doc passes, and fails when the
#    document and the definition disagree or an excluded entry point
#    enters a canonical tag;
#  - the check of "make prepare" (--arch, on the uapi asm headers Kbuild
#    generates) passes the minimal fixture architecture, a wrapper with an
#    override (listed) and a syscall of its own in the reserved numbers,
#    and fails one fixture per rule, naming the deviation; riscv fails on
#    what it really deviates in and passes its bitsperlong.h wrapper.
# No compiler runs (Makefile.asm-headers only runs syscallhdr.sh): no
# build lock.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/canonical-abi.sh"

[ -f "$SRC/scripts/syscall.tbl" ] || skip_all "no baseline at $SRC (make tree)"
[ -f "$CABI_P1" ] && [ -f "$CABI_P2" ] || skip_all "the Part 2 patches are not in $QUILT_PATCHES"

plan 32

cabi_setup
CHK="sh $K/scripts/check-canonical-abi.sh --srctree $K"

# --- the definition and its document (on the table without cannr's line) ---
cp "$K/scripts/syscall.tbl" "$TMP/tbl.keep"
sed -i '/cannr_frob/d' "$K/scripts/syscall.tbl"
check "the definition and Documentation/arch/canonical-abi.rst agree" $CHK --doc
RST=Documentation/arch/canonical-abi.rst
cabi_own_copy "$RST"
cp "$K/$RST" "$TMP/rst"
sed -i '/^- ``rlimit``/d' "$K/$RST"
$CHK --doc > "$TMP/doc.out" 2>&1 && rc=0 || rc=$?
is "$rc" 1 "a legacy tag missing from the document fails the check"
like "$(cat "$TMP/doc.out")" "'legacy' lacks rlimit" "and names the key and the tag"
cp "$TMP/rst" "$K/$RST"
sed -i 's/^- ``sys_fork``, ``sys_vfork``:/- ``sys_fork``:/' "$K/$RST"
$CHK --doc > "$TMP/doc.out" 2>&1 && rc=0 || rc=$?
is "$rc:$(grep -c . "$TMP/doc.out")" 1:1 "an excluded call missing from its bullet fails, one line"
like "$(cat "$TMP/doc.out")" "'excluded' lacks sys_vfork" "and names it"
cp "$TMP/rst" "$K/$RST"
printf '%s\tcommon\tfork\t\t\tsys_fork\n' "$((CANNR + 1))" >> "$K/scripts/syscall.tbl"
$CHK --doc > "$TMP/doc.out" 2>&1 && rc=0 || rc=$?
like "$rc $(cat "$TMP/doc.out")" "^1 .*'fork' of the canonical tag 'common' has an excluded entry point" \
	"sys_fork in the common tag fails the check"
cp "$TMP/tbl.keep" "$K/scripts/syscall.tbl"

# --- the check of make prepare, one fixture per rule ---
ARCHS="canon canwrap canown cantime cantbl canhdr canmin canaudit cannr canclone canback riscv"
cabi_headers $ARCHS
for a in $ARCHS; do
	cabi_check "$a"
done
rc() { cat "$TMP/$1.rc"; }
out() { cat "$TMP/$1.out"; }
errs() { grep -c "^canonical ABI: " "$TMP/$1.out"; }

is "$(rc canon):$(out canon)" "0:" "canon: the minimal architecture passes, silently"
is "$(rc canwrap)" 0 "canwrap: a wrapper of asm-generic/signal.h passes"
like "$(out canwrap)" "uapi/asm/signal.h: wraps asm-generic/signal.h, overrides: SIGSTKSZ" \
	"and its override is listed"
is "$(rc canown)" 0 "canown: a syscall of its own tag at 250 (reserved) passes"
is "$(rc cantime):$(errs cantime)" 1:2 "cantime: the time32 tag fails (one deviation and the summary)"
like "$(out cantime)" "syscall_abis_32 asks for the legacy ABI tag 'time32' \\(.*clock_gettime" \
	"the legacy tag and its syscalls are named"
is "$(rc cantbl)" 1 "cantbl: a syscall table of its own fails"
like "$(out cantbl)" "2 syscall\\(s\\) of its unistd_64.h are not numbered as in scripts/syscall.tbl" \
	"the renumbered syscalls are counted"
is "$(rc canhdr)" 1 "canhdr: a private copy of fcntl.h fails"
like "$(out canhdr)" "arch/canhdr/include/uapi/asm/fcntl.h: a private copy of include/uapi/asm-generic/fcntl.h" \
	"fcntl.h is named"
is "$(rc canmin)" 1 "canmin: no AT_MINSIGSTKSZ fails"
like "$(out canmin)" "does not report AT_MINSIGSTKSZ.*rule 'minsigstksz'" "the rule is named"
is "$(rc canaudit)" 1 "canaudit: riscv's AUDIT_ARCH fails"
like "$(out canaudit)" "AUDIT_ARCH_RISCV64 is the value of arch/riscv's AUDIT_ARCH_RISCV64" \
	"the architecture it shares the value with is named"
is "$(rc cannr)" 1 "cannr: a syscall of its own tag at $CANNR fails"
like "$(out cannr)" "syscall $CANNR 'cannr_frob' of tag 'cannr' is outside the reserved range 244-259" \
	"the syscall and the range are named"
is "$(rc canclone)" 1 "canclone: __ARCH_BROKEN_SYS_CLONE3 fails"
is "$(rc canback)" 1 "canback: CLONE_BACKWARDS fails"
like "$(out canback)" "selects CLONE_BACKWARDS; rule 'clone-args'" "the rule is named"

# --- the rule that only warns (a port meets it late in its bring-up) ---
sh "$K/scripts/check-canonical-abi.sh" --srctree "$K" --objtree "$TMP/obj" --arch canmin \
	> "$TMP/canmin.default" 2>&1 && rc=0 || rc=$?
is "$rc" 0 "canmin with the default warn_rules: the build goes on"
like "$(cat "$TMP/canmin.default")" "^canonical ABI: warning: arch/canmin: does not report AT_MINSIGSTKSZ" \
	"and is warned"

# --- a real architecture ---
is "$(rc riscv)" 1 "riscv fails"
like "$(out riscv)" "syscall_abis_64 asks for the legacy ABI tag 'rlimit' \\(getrlimit setrlimit\\)" \
	"riscv: the rlimit tag of its 64-bit ABI"
like "$(out riscv)" "uapi/asm/setup.h: a private copy" "riscv: its setup.h, a full copy"
like "$(out riscv)" "uapi/asm/bitsperlong.h: wraps asm-generic/bitsperlong.h, overrides: __BITS_PER_LONG" \
	"riscv: its bitsperlong.h is a wrapper, listed"
isnt "$(out riscv | grep -c 'bitsperlong.h: a private copy')" 1 "riscv: the wrapper is not an error"
done_testing
