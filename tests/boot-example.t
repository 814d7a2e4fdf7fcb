#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot-example.t - scripts/boot-example judges a boot by its console:
# a stand-in qemu-system-riscv64 prints a good boot, a panic, a missing
# marker, a wrong memory size or hangs; then, when the real series tree
# has arch/example, a real build and boot of both halves (64 and 32 bits),
# a real boot with QEMU's own device tree, and a real boot broken on
# purpose (no init to run: a panic) that must fail and show a call trace.
. "$(dirname "$0")/tap.sh"

plan 14
be=$REPO/scripts/boot-example

# A fake build: the files boot-example --no-build looks for.
F=$TMP/build/example
mkdir -p "$F/usr" "$TMP/tree/arch/example" "$TMP/bin"
: > "$F/vmlinux"
printf '#!/bin/sh\necho cpio\n' > "$F/usr/gen_init_cpio"
chmod +x "$F/usr/gen_init_cpio"
mkdir -p "$F/usr/include"
cp -r "$REPO/out/src/$BASE/include/uapi/asm-generic" "$F/usr/include/" 2>/dev/null ||
	mkdir -p "$F/usr/include/asm-generic"
mkdir -p "$F/usr/include/asm" "$F/usr/include/linux"
echo '#include <asm-generic/unistd.h>' > "$F/usr/include/asm/unistd.h"
echo '#include <asm-generic/bitsperlong.h>' > "$F/usr/include/asm/bitsperlong.h"

# The stand-in QEMU prints $FAKE_LOG with the memory of its -m.
cat > "$TMP/bin/qemu-system-riscv64" <<'EOF2'
#!/bin/sh
mem=64
while [ $# -gt 0 ]; do [ "$1" = -m ] && mem=${2%M}; shift; done
[ "${FAKE_HANG:-}" = 1 ] && sleep 30
sed "s/@MEM@/$mem/g; s/@KB@/$((mem * 1024 - 3000))/g" "$FAKE_LOG"
EOF2
chmod +x "$TMP/bin/qemu-system-riscv64"
cat > "$TMP/good.log" <<'EOF2'
[    0.000000] Linux version 6.12.118
[    0.000000] memory: @MEM@ MiB at 0x80000000
[    0.300000] Run /init as init process
EXAMPLE-INIT: hello from userspace
EXAMPLE-INIT: getpid is 1: ok
EXAMPLE-INIT: /proc/meminfo: MemTotal:       @KB@ kB
EXAMPLE-INIT: openat and read of /proc: ok
EXAMPLE-CHILD: execve ok, argv[1]=from-init env EXAMPLE=1
EXAMPLE-INIT: vfork, execve and wait: ok
EXAMPLE-INIT: ptrace GETREGSET NT_PRSTATUS: ok
EXAMPLE-INIT: audit arch AUDIT_ARCH_EXAMPLE: ok
EXAMPLE-INIT: ptrace: first argument changed at syscall entry: ok
EXAMPLE-INIT: foreign programs refused: ENOEXEC: ok
EXAMPLE-INIT: traced child detached, exits 42: ok
EXAMPLE-INIT: rt_sigaction: ok
EXAMPLE-INIT: signal delivered, handler returned: ok
EXAMPLE-INIT: sigreturn not through the stack: ok
EXAMPLE-INIT: ucontext: uc_sigmask, then uc_mcontext last: ok
EXAMPLE-INIT: signal frame: records end in a zero record: ok
EXAMPLE-INIT: clock_gettime and nanosleep: ok
EXAMPLE-INIT: AT_MINSIGSTKSZ given: ok
EXAMPLE-INIT: system call restarted once: ok
EXAMPLE-INIT: bad user pointers: EFAULT: ok
EXAMPLE-INIT: the timer interrupts: ok
EXAMPLE-INIT: the UART interrupts: ok
EXAMPLE-INIT: all checks passed, powering off
EOF2
run() {
	PATH=$TMP/bin:$PATH TREE=$TMP/tree BUILD=$TMP/build OUT=$TMP/out \
		BOOT_TIMEOUT=${BOOT_TIMEOUT:-20} "$be" --no-build "$@"
}

FAKE_LOG=$TMP/good.log
export FAKE_LOG
check "a good console passes, 64 and 512 MiB" run
grep -v 'signal delivered' "$TMP/good.log" > "$TMP/nosig.log"
FAKE_LOG=$TMP/nosig.log
fails "a missing /init marker fails" run --mem 64
like "$(run --mem 64 2>&1)" "no 'EXAMPLE-INIT: signal delivered" "the missing marker is named"
{ cat "$TMP/good.log"; echo 'Kernel panic - not syncing: Attempted to kill init!'; } > "$TMP/panic.log"
FAKE_LOG=$TMP/panic.log
like "$(run --mem 64 2>&1)" "the log has 'Kernel panic'" "a panic fails, named"
sed 's/memory: @MEM@ MiB/memory: 128 MiB/' "$TMP/good.log" > "$TMP/mem.log"
FAKE_LOG=$TMP/mem.log
like "$(run --mem 64 2>&1)" "reports 128 MiB of memory, the DTB has 64" "memory that does not follow the DTB fails"
FAKE_LOG=$TMP/good.log
like "$(FAKE_HANG=1 BOOT_TIMEOUT=2 run --mem 64 2>&1)" "did not finish in 2s" "a hang is caught by the timeout"

# The real thing, on the series tree (scripts/tree applies it, or
# resumes): $TREE, default out/linux-BASE, built in $BUILD (default
# out/build/BASE).
T=$TREE
(cd "$REPO" && scripts/tree) > "$TMP/tree.log" 2>&1 || sed 's/^/# /' "$TMP/tree.log"
if [ -f "$T/arch/example/Kconfig" ]; then
	out=$(TREE=$T "$be" --mem 64 --kunit 2>&1)
	st=$?
	echo "$out" | sed 's/^/# /'
	is "$st" 0 "arch/example builds and boots to /init, with KUnit"
	like "$out" "KUNIT .*passed" "the KUnit results are parsed"
	# QEMU's own device tree, nothing edited but bootargs, at two sizes
	out=$(TREE=$T "$be" --no-build --mem 64 --mem 128 --qemu-dtb 2>&1)
	st=$?
	echo "$out" | sed 's/^/# /'
	is "$st" 0 "it boots with QEMU's own device tree at 64 and 128 MiB"
	out=$(TREE=$T "$be" --no-build --mem 64 --bootargs rdinit=/missing \
		--log "$TMP/missing.log" 2>&1)
	st=$?
	echo "$out" | sed 's/^/# /'
	isnt "$st" 0 "a kernel with no init to run fails the boot"
	like "$out" "the log has 'Kernel panic'" "the panic is named"
	# panic() dumps the stack: show_stack() names the callers.
	trace=$(sed -n '/Call trace/,$p' "$TMP/missing.log")
	like "$trace" "kernel_init\+0x" "the panic shows a call trace through kernel_init"
	out=$(TREE=$T "$be" --bits 32 --mem 64 2>&1)
	st=$?
	echo "$out" | sed 's/^/# /'
	is "$st" 0 "the 32-bit half (example32) builds and boots to /init"
	out=$(TREE=$T "$be" --bits 32 --no-build --mem 64 --qemu-dtb 2>&1)
	st=$?
	echo "$out" | sed 's/^/# /'
	is "$st" 0 "example32 boots with QEMU's own device tree"
else
	_result 1 "no $T/arch/example: scripts/tree did not apply the series"
	_result 1 "KUnit not run"
	_result 1 "no boot with QEMU's device tree"
	_result 1 "no broken boot"
	_result 1 "no broken boot"
	_result 1 "no call trace"
	_result 1 "no 32-bit boot"
	_result 1 "no 32-bit boot with QEMU's device tree"
fi
done_testing
