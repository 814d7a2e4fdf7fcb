#!/bin/sh
# The canonical ABI of Part 2 of the series, on a copy of the baseline with
# the Part 2 patches applied (tests/canonical-abi.sh):
#  - scripts/check-canonical-abi.sh --doc passes, and fails when the
#    document and the definition disagree or an excluded entry point
#    enters a canonical tag;
#  - --doc fails a syscall of an architecture's own tag outside the
#    reserved numbers (rule 'reserved' is the table's);
#  - the compiled check (scripts/canonical-abi.c against the headers make
#    headers installs, as usr/Makefile compiles it) passes the minimal
#    fixture architecture in both word sizes, a wrapper with an override
#    and a syscall of its own in the reserved numbers, fails one fixture
#    per rule it judges, naming the rule, and lets the rules it cannot see
#    pass; riscv fails on what it really deviates in and passes its
#    bitsperlong.h wrapper.
# The host gcc compiles one file per fixture (-fsyntax-only); no kernel
# build: no build lock.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/canonical-abi.sh"

[ -f "$SRC/scripts/syscall.tbl" ] || skip_all "no baseline at $SRC (make tree)"
[ -f "$CABI_P1" ] && [ -f "$CABI_P2" ] || skip_all "the Part 2 patches are not in $QUILT_PATCHES"

plan 34

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

# --- rule 'reserved': the table's own lines ---
cp "$TMP/tbl.keep" "$K/scripts/syscall.tbl"
$CHK --doc > "$TMP/doc.out" 2>&1 && rc=0 || rc=$?
like "$rc $(cat "$TMP/doc.out")" "^1 .*syscall $CANNR 'cannr_frob' of tag 'cannr' is outside the reserved range 244-259" \
	"cannr: a syscall of its own tag after the table's last fails --doc"
sed -i '/cannr_frob/d' "$K/scripts/syscall.tbl"

# --- the compiled check (usr/Makefile), one fixture per rule ---
ARCHS="canon canwrap canown canhdr canmin canaudit canclone canuc canlast canptrace canlack"
for a in $ARCHS; do
	cabi_compile "$a"
done
cabi_compile cantime 32
cabi_compile cantbl
cabi_compile canback 64 -DCONFIG_CLONE_BACKWARDS=1
cabi_compile riscv
rc() { cat "$TMP/$1.rc"; }
out() { cat "$TMP/$1.out"; }
rule() { grep -c "error: #error \"canonical ABI rule '$2'" "$TMP/$1.out"; }

is "$(rc canon):$(out canon)" "0:" "canon: the minimal architecture passes, silently"
cabi_compile canon 32
is "$(rc canon):$(out canon)" "0:" "canon: and its 32-bit ABI too"
is "$(rc canwrap)" 0 "canwrap: a wrapper of asm-generic/signal.h that overrides SIGSTKSZ passes"
is "$(rc canown)" 0 "canown: a syscall of its own tag at 250 (reserved) passes"
is "$(rc cantime)" 1 "cantime: the time32 tag fails"
like "$(out cantime)" "rule 'legacy': __NR_mq_timedsend, of the legacy tag time32" \
	"the rule and a legacy syscall are named"
is "$(rc cantbl)" 1 "cantbl: a syscall table of its own fails"
like "$(out cantbl)" "rule 'syscalls': __NR_read is not 63" "the renumbered syscall is named"
is "$(rc canhdr)" 1 "canhdr: a private copy of fcntl.h fails"
like "$(out canhdr)" "rule 'uapi-generic': asm/fcntl.h does not include asm-generic/fcntl.h" \
	"the rule and fcntl.h are named"
is "$(rc canback)" 1 "canback: CLONE_BACKWARDS fails"
is "$(rule canback clone-args)" 1 "the rule 'clone-args' is named"
is "$(rc canuc)" 1 "canuc: arch/example's sigcontext of v3 (no record area) fails"
like "$(out canuc)" "has no member named .sc_records" "the missing record area sc_records is named"
like "$(out canuc)" "abi_rule\\(\"ucontext\", SC_RECORDS_AT" "in the lines of the rule 'ucontext'"
is "$(rc canlast)" 1 "canlast: uc_sigmask after uc_mcontext fails"
like "$(out canlast)" "rule .*ucontext.*: uc_mcontext is not last in struct ucontext" "and is named"
is "$(rc canptrace)" 1 "canptrace: a uapi PTRACE_GETREGS fails"
is "$(rule canptrace ptrace-regsets)" 1 "the rule 'ptrace-regsets' is named"
is "$(rc canlack)" 1 "canlack: no uapi sigcontext.h fails"
like "$(out canlack)" "rule 'uapi-arch': no asm/sigcontext.h" "the rule and the header are named"

# --- what only the document and the report judge: the build goes on ---
is "$(rc canmin):$(rc canaudit):$(rc canclone)" 0:0:0 \
	"canmin, canaudit, canclone: rules the compiler cannot see do not fail the build"

# --- a real architecture ---
is "$(rc riscv)" 1 "riscv fails"
like "$(out riscv)" "rule 'legacy': __NR_getrlimit, of the legacy tag rlimit" \
	"riscv: the rlimit tag of its 64-bit ABI"
like "$(out riscv)" "rule 'uapi-generic': asm/setup.h does not include" "riscv: its setup.h, its own"
is "$(grep -c "asm/bitsperlong.h does not" "$TMP/riscv.out")" 0 \
	"riscv: its bitsperlong.h, a wrapper of the generic one, passes"
like "$(out riscv)" "sc_records" "riscv: its sigcontext has no record area sc_records"
done_testing
