# SPDX-License-Identifier: GPL-2.0
# tests/canonical-abi.sh - a kernel tree K=$TMP/k for the canonical-ABI
# tests: hard links to the baseline's scripts/, include/, arch/, Kbuild
# and Documentation/arch/, the two Part 2 patches applied, and fixture
# architectures, each breaking one rule of scripts/canonical-abi.txt or
# passing it.  Source it after tap.sh; call cabi_setup, then cabi_headers
# ARCH... to make their uapi asm headers as Kbuild does (config-free:
# scripts/Makefile.asm-headers, which runs only scripts/syscallhdr.sh, no
# compiler) into $TMP/obj, for scripts/abi-report; cabi_compile ARCH
# installs an architecture's uapi headers (make headers) and compiles
# scripts/canonical-abi.c against them as usr/Makefile does, with the host
# gcc (output in $TMP/ARCH.out, exit status in $TMP/ARCH.rc).
#
# The fixtures:
#   canon     the minimum: four uapi headers (a sigcontext ending in
#             its record area) and its own ucontext.h, an own
#             AUDIT_ARCH_CANON*, AT_MINSIGSTKSZ in its ARCH_DLINFO; passes
#   canwrap   canon + a uapi signal.h that includes asm-generic/signal.h
#             and overrides SIGSTKSZ: passes, listing the override
#   canown    canon + a syscall of its own tag at 250 (reserved): passes
#   cantime   the legacy tag time32 (legacy syscall)
#   cantbl    a syscall table of its own (syscalltbl): read and write swapped
#   canhdr    its own fcntl.h, a full copy (private copy)
#   canmin    no AT_MINSIGSTKSZ in its aux vector
#   canaudit  returns AUDIT_ARCH_RISCV64, riscv's (reused AUDIT_ARCH)
#   cannr     a syscall of its own tag after the table's last (outside
#             the reserved numbers)
#   canclone  defines __ARCH_BROKEN_SYS_CLONE3
#   canback   selects CLONE_BACKWARDS
#   canuc     the sigcontext of arch/example in v3 of the series: no
#             record area
#   canlast   a ucontext with uc_sigmask last
#   canptrace a uapi PTRACE_GETREGS
#   canlack   no uapi sigcontext.h

CABI_P1=$QUILT_PATCHES/canonical-abi-definition.patch
CABI_P2=$QUILT_PATCHES/canonical-abi-kconfig-check.patch

cabi_setup() {
	K=$TMP/k
	mkdir -p "$K/Documentation"
	for _d in scripts include arch Documentation/arch MAINTAINERS Kbuild \
		Makefile Kconfig init usr; do
		cp -al "$SRC/$_d" "$K/$_d"
	done
	for _p in "$CABI_P1" "$CABI_P2"; do
		(cd "$K" && patch -s -p1 -F0 < "$_p") || echo "# $_p does not apply"
	done
	cabi_own_copy include/uapi/linux/audit.h
	_em=32767
	for _a in canon canwrap canown cantime cantbl canhdr canmin canaudit \
		cannr canclone canback canuc canlast canptrace canlack; do
		cabi_fixture "$_a"
	done
	printf '#define SIGSTKSZ 16384\n#include <asm-generic/signal.h>\n' \
		> "$K/arch/canwrap/include/uapi/asm/signal.h"
	echo 'syscall_abis_32 += canown' > "$K/arch/canown/kernel/Makefile.syscalls"
	cabi_own_copy scripts/syscall.tbl
	awk '/^260[[:space:]]/ && !done {
		print "250\tcanown\tcanown_frob\t\t\tsys_canown_frob"; done = 1 } { print }' \
		"$K/scripts/syscall.tbl" > "$TMP/tbl" && mv "$TMP/tbl" "$K/scripts/syscall.tbl"
	echo 'syscall_abis_32 += time32' > "$K/arch/cantime/kernel/Makefile.syscalls"
	echo 'syscalltbl = $(srctree)/arch/cantbl/kernel/syscall.tbl' \
		> "$K/arch/cantbl/kernel/Makefile.syscalls"
	awk '!/^#/ && $3 == "read" { $3 = "write"; $4 = "sys_write"; print; next }
		!/^#/ && $3 == "write" { $3 = "read"; $4 = "sys_read"; print; next }
		{ print }' OFS='\t' "$K/scripts/syscall.tbl" > "$K/arch/cantbl/kernel/syscall.tbl"
	echo '/* own fcntl.h */' > "$K/arch/canhdr/include/uapi/asm/fcntl.h"
	echo '/* no aux vector entries */' > "$K/arch/canmin/include/asm/elf.h"
	sed -i 's/AUDIT_ARCH_CANAUDIT/AUDIT_ARCH_RISCV/' "$K/arch/canaudit/include/asm/syscall.h"
	echo 'syscall_abis_64 += cannr' > "$K/arch/cannr/kernel/Makefile.syscalls"
	# the first number after the table's last: outside the reserved range
	CANNR=$(awk '!/^#/ && NF { n = $1 } END { print n + 1 }' "$K/scripts/syscall.tbl")
	printf '%s\tcannr\tcannr_frob\t\t\tsys_cannr_frob\n' "$CANNR" >> "$K/scripts/syscall.tbl"
	echo '#define __ARCH_BROKEN_SYS_CLONE3' >> "$K/arch/canclone/include/asm/unistd.h"
	printf 'config CANBACK\n\tdef_bool y\n\tselect CLONE_BACKWARDS\n' > "$K/arch/canback/Kconfig"
	cat > "$K/arch/canuc/include/uapi/asm/sigcontext.h" <<'EOT'
#include <asm/ptrace.h>
struct sigcontext {
	struct user_regs_struct sc_regs;
};
EOT
	sed -i '/uc_sigmask;/d; s/^\tstruct sigcontext uc_mcontext;/&\n\tsigset_t uc_sigmask;/' \
		"$K/arch/canlast/include/uapi/asm/ucontext.h"
	echo '#define PTRACE_GETREGS 12' >> "$K/arch/canptrace/include/uapi/asm/ptrace.h"
	rm "$K/arch/canlack/include/uapi/asm/sigcontext.h"
	# an include guard around every uapi header of the fixtures
	for _f in "$K"/arch/can*/include/uapi/asm/*.h; do
		_g=_FIXTURE_$(basename "$_f" .h | tr a-z A-Z)_H
		{ printf '#ifndef %s\n#define %s\n' "$_g" "$_g"; cat "$_f"; echo '#endif'; } \
			> "$TMP/guarded" && mv "$TMP/guarded" "$_f"
	done
}

# cabi_own_copy FILE: K's FILE (a hard link to the baseline) replaced by
# a copy of its own, so the test may change it.
cabi_own_copy() {
	cp "$K/$1" "$TMP/own" && rm -f "$K/$1" && mv "$TMP/own" "$K/$1"
}

# cabi_fixture NAME: the minimal canonical architecture arch/NAME, with
# AUDIT_ARCH_<NAME>32 and 64 of an ELF machine number of its own.
cabi_fixture() {
	_a=$K/arch/$1
	_u=AUDIT_ARCH_$(echo "$1" | tr a-z A-Z)
	_em=$((_em - 1))
	printf '#define %s32\t(%s|__AUDIT_ARCH_LE)\n#define %s64\t(%s|__AUDIT_ARCH_64BIT|__AUDIT_ARCH_LE)\n' \
		"$_u" "$_em" "$_u" "$_em" >> "$K/include/uapi/linux/audit.h"
	mkdir -p "$_a/include/uapi/asm" "$_a/include/asm" "$_a/kernel"
	: > "$_a/Kconfig"
	printf 'syscall-y += unistd_32.h\nsyscall-y += unistd_64.h\n' > "$_a/include/uapi/asm/Kbuild"
	: > "$_a/Makefile"
	echo '#include <linux/byteorder/little_endian.h>' > "$_a/include/uapi/asm/byteorder.h"
	printf 'struct user_regs_struct {\n\tunsigned long pc, regs[31];\n};\n' \
		> "$_a/include/uapi/asm/ptrace.h"
	cat > "$_a/include/uapi/asm/sigcontext.h" <<'EOT'
#include <linux/types.h>
#include <asm/ptrace.h>
struct sigcontext {
	struct user_regs_struct sc_regs;
	__u8 sc_records[1024] __attribute__((__aligned__(16)));
};
EOT
	cat > "$_a/include/uapi/asm/ucontext.h" <<'EOT'
struct ucontext {
	unsigned long uc_flags;
	struct ucontext *uc_link;
	stack_t uc_stack;
	sigset_t uc_sigmask;
	__u8 __unused[1024 / 8 - sizeof(sigset_t)];
	struct sigcontext uc_mcontext;
};
EOT
	cat > "$_a/include/uapi/asm/unistd.h" <<'EOT'
#include <asm/bitsperlong.h>
#if __BITS_PER_LONG == 64
#include <asm/unistd_64.h>
#else
#include <asm/unistd_32.h>
#endif
EOT
	echo "/* asm/unistd.h of a fixture */" > "$_a/include/asm/unistd.h"
	printf 'static inline int syscall_get_arch(struct task_struct *task)\n{\n\treturn IS_ENABLED(CONFIG_64BIT) ? %s64 : %s32;\n}\n' \
		"$_u" "$_u" > "$_a/include/asm/syscall.h"
	cat > "$_a/include/asm/elf.h" <<'EOT'
#define ARCH_DLINFO	NEW_AUX_ENT(AT_MINSIGSTKSZ, signal_minsigstksz)
EOT
}

# cabi_headers ARCH...: their uapi asm headers, as "make prepare" makes them.
cabi_headers() {
	for _a in "$@"; do
		(mkdir -p "$TMP/obj" && cd "$TMP/obj" &&
		 make -s -f "$K/scripts/Makefile.asm-headers" srctree="$K" SRCARCH="$_a" \
			obj="arch/$_a/include/generated/uapi/asm" \
			generic=include/uapi/asm-generic CONFIG_SHELL=sh) > "$TMP/$_a.hdr" 2>&1 ||
			sed 's/^/# /' "$TMP/$_a.hdr"
	done
}

# cabi_compile ARCH [32|64] [GCC OPTION...]: ARCH's uapi headers installed
# in $TMP/o/usr/include by make headers, then scripts/canonical-abi.c
# compiled against them with the checks of "check-canonical-abi.sh --c"
# for the word size (default 64, 32 with -m32), as usr/Makefile does.
cabi_compile() {
	_a=$1
	_w=${2:-64}
	shift
	[ $# -eq 0 ] || shift
	_m=
	[ "$_w" = 64 ] || _m=-m32
	rm -rf "$TMP/o/usr/include/asm" # installs go by time stamps
	make -s -C "$K" O="$TMP/o" ARCH="$_a" headers > "$TMP/$_a.hdr" 2>&1 ||
		sed 's/^/# /' "$TMP/$_a.hdr"
	sh "$K/scripts/check-canonical-abi.sh" --srctree "$K" --c "$_w" > "$TMP/c$_w.h"
	gcc $_m -fsyntax-only -nostdinc -I "$TMP/o/usr/include" -include "$TMP/c$_w.h" \
		"$@" "$K/scripts/canonical-abi.c" > "$TMP/$_a.out" 2>&1 &&
		echo 0 > "$TMP/$_a.rc" || echo $? > "$TMP/$_a.rc"
}
