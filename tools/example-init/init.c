// SPDX-License-Identifier: GPL-2.0-only
/*
 * init.c: the /init of arch/example's initramfs.  It checks, one line
 * each, that a no-MMU kernel gives userspace the canonical system
 * calls: write, openat/read (/proc), getpid, vfork + execve + wait4,
 * rt_sigaction with a delivered signal that returns, clock_gettime and
 * nanosleep, a system call restarted once when its signal cannot be
 * delivered, -EFAULT for bad user pointers (the kernel survives them),
 * a timer and a UART that interrupt (/proc/interrupts), the signal
 * frame's layout (the registers last, then records ending in a zero
 * one) and its return (not through the stack), ptrace of a child: its
 * registers by PTRACE_GETREGSET, its AUDIT_ARCH, a first argument
 * changed at a system call's entry stop; and that programs of another
 * ABI (riscv Linux, hard float) are refused with ENOEXEC.  Every line
 * starts "EXAMPLE-INIT:", every check prints "ok" or "FAIL";
 * scripts/boot-example reads them from the console.
 * At the end it powers the machine off (QEMU exits 0), or, when a
 * check failed, exits, and the kernel panics.
 */
#include "sys.h"

/*
 * arch/example's AUDIT_ARCH (its asm/syscall.h; no uapi header has it,
 * a template claims no uapi number): EM_RISCV (243), little-endian, both
 * convention bits, and the 64-bit bit on 64-bit.
 */
#define EXAMPLE_AUDIT_ARCH	(243 | 0x40000000U | 0x30000000U | \
				 (sizeof(long) == 8 ? 0x80000000U : 0))

#define AT_FDCWD		-100
#define O_RDONLY		0
#define SIGUSR1			10
#define SIGUSR2			12
#define SIGSEGV			11
#define SIGALRM			14
#define SIGCHLD			17
#define SA_SIGINFO		4
#define SIG_BLOCK		0
#define SIG_SETMASK		2
#define SA_ONSTACK		0x08000000
#define SA_RESTART		0x10000000
#define S_IFIFO			0010000
#define ITIMER_REAL		0
#define FIONBIO			0x5421
#define ENOEXEC			8
#define EBADF			9
#define EFAULT			14
#define ERESTARTSYS		512
#define CLONE_VM		0x00000100
#define CLONE_VFORK		0x00004000
#define CLOCK_MONOTONIC		1
#define P_PID			1
#define WSTOPPED		2
#define WEXITED			4
#define CLD_TRAPPED		4
#define SIGTRAP			5
#define PTRACE_TRACEME		0
#define PTRACE_PEEKDATA		2
#define PTRACE_DETACH		17
#define PTRACE_SYSCALL		24
#define PTRACE_GETREGSET	0x4204
#define PTRACE_SETREGSET	0x4205
#define PTRACE_GET_SYSCALL_INFO	0x420e
#define NT_PRSTATUS		1
#define AT_ENTRY		9
#define AT_MINSIGSTKSZ		51
#define TCSBRK			0x5409

struct ts {
	long long sec;
	long long nsec;
};

/* The kernel's struct sigaction (asm-generic: no sa_restorer) */
struct ksigaction {
	void (*handler)(int, void *, void *);
	unsigned long flags;
	unsigned long long mask;
};

/*
 * stack_t and struct ucontext: uc_sigmask with room for 1024 signals,
 * then uc_mcontext last: user_regs_struct, then 1024 bytes of records
 * (each a 32-bit magic and a 32-bit size, a zero one ends the list),
 * 16-byte aligned.
 */
struct kstack {
	void *sp;
	int flags;
	ulong size;
};

#define NREGS		33	/* pc, x1 to x31 (a0 is 10, a7 17), orig_a0 */
#define ORIG_A0		32

struct ksigcontext {
	ulong regs[NREGS];
	unsigned char records[1024] __attribute__((aligned(16)));
};

struct kucontext {
	ulong flags;
	void *link;
	struct kstack stack;
	ulong sigmask[8 / sizeof(ulong)];
	unsigned char unused[1024 / 8 - 8];
	struct ksigcontext mc;
};

/* field by field: an initialiser could become a call to memset */
static long sigact(int sig, void *handler, ulong flags)
{
	struct ksigaction sa;

	sa.handler = handler;
	sa.flags = flags;
	sa.mask = 0;
	return sys4(__NR_rt_sigaction, sig, &sa, 0, sizeof(sa.mask));
}

static int failed;
static volatile int signals;
static volatile int signo_seen;
static volatile ulong usr1_ra, usr1_sp, usr1_mask, usr1_a7;
static volatile long usr1_records;

static void check(int ok, const char *what)
{
	say("EXAMPLE-INIT: ");
	say(what);
	say(ok ? ": ok\n" : ": FAIL\n");
	if (!ok)
		failed = 1;
}

static int has(const char *s, const char *sub)
{
	ulong n = slen(sub), i, j;

	for (i = 0; s[i]; i++) {
		for (j = 0; j < n && s[i + j] == sub[j]; j++)
			;
		if (j == n)
			return 1;
	}
	return 0;
}

/* The first line of a /proc file that contains key, printed; or 0. */
static const char *show_proc(const char *path, const char *key)
{
	static char buf[4096];
	long fd, n, i, start = 0;

	fd = sys4(__NR_openat, AT_FDCWD, path, O_RDONLY, 0);
	if (fd < 0)
		return 0;
	n = sys3(__NR_read, fd, buf, sizeof(buf) - 1);
	sys1(__NR_close, fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (i = 0; i <= n; i++) {
		if (buf[i] != '\n' && buf[i])
			continue;
		buf[i] = 0;
		if (has(buf + start, key)) {
			say("EXAMPLE-INIT: ");
			say(path);
			say(": ");
			say(buf + start);
			say("\n");
			return buf + start;
		}
		start = i + 1;
	}
	return 0;
}

/*
 * The records of a signal frame, as a C library or a debugger walks
 * them: the number before the zero record that ends the list, or -1
 * when a record's size is not a multiple of 16 or the list runs past
 * the area without its end.
 */
static long walk_records(const unsigned char *area, ulong room)
{
	const unsigned int *h;
	ulong off = 0;
	long n = 0;

	while (off + 8 <= room) {
		h = (const unsigned int *)(area + off);
		if (!h[0] && !h[1])
			return n;
		if (h[1] < 16 || h[1] % 16 || h[1] > room - off)
			return -1;
		off += h[1];
		n++;
	}
	return -1;
}

static void on_usr1(int sig, void *info, void *ucp)
{
	struct kucontext *uc = ucp;

	signo_seen = *(int *)info;	/* si_signo */
	usr1_ra = (ulong)__builtin_return_address(0);
	usr1_sp = (ulong)&uc;
	usr1_mask = uc->sigmask[0];
	usr1_a7 = uc->mc.regs[17];
	usr1_records = walk_records(uc->mc.records, sizeof(uc->mc.records));
	signals++;
}

/*
 * The double restart check: openat of a FIFO without a writer blocks
 * (its first argument, the directory, is unused for an absolute path,
 * so it can be -ERESTARTSYS), on a stack pointer of 16, where no
 * signal frame fits.  SIGALRM (SA_RESTART) interrupts it: the kernel
 * rewinds the ecall to restart it, fails to write the SIGALRM frame and
 * forces SIGSEGV, whose handler runs on the alternate stack; it sees
 * the registers the ecall will restart with, then resumes past it.
 * Those are the ecall's address and a0 = -ERESTARTSYS: restarted once.
 */
extern const char restart_ecall[] __attribute__((visibility("hidden")));
extern const char restart_resume[] __attribute__((visibility("hidden")));
static volatile ulong seen_pc, seen_a0, seen_a7;

static void on_segv(int sig, void *info, void *ucp)
{
	struct kucontext *uc = ucp;

	seen_pc = uc->mc.regs[0];
	seen_a0 = uc->mc.regs[10];
	seen_a7 = uc->mc.regs[17];
	uc->mc.regs[0] = (ulong)restart_resume;
}

static void on_alrm(int sig, void *info, void *uc)
{
}

static void openat_on_bad_stack(const char *fifo)
{
	register long a0 __asm__("a0") = -ERESTARTSYS;
	register ulong a1 __asm__("a1") = (ulong)fifo;
	register ulong a2 __asm__("a2") = O_RDONLY;
	register ulong a3 __asm__("a3") = 0;
	register ulong a7 __asm__("a7") = __NR_openat;

	__asm__ __volatile__ (
		"	mv	s1, sp\n"
		"	li	sp, 16\n"
		".globl restart_ecall\n.hidden restart_ecall\n"
		"restart_ecall:\n"
		"	ecall\n"
		".globl restart_resume\n.hidden restart_resume\n"
		"restart_resume:\n"
		"	mv	sp, s1\n"
		: "+r" (a0), "+r" (a1), "+r" (a2), "+r" (a3), "+r" (a7)
		: : "s1", "memory");
}

static int restarts_once(void)
{
	static long altstack[512];
	struct kstack ss;
	long timer[4] = { 0, 0, 0, 20000 };	/* it_value: 20 ms */

	ss.sp = altstack;
	ss.flags = 0;
	ss.size = sizeof(altstack);
	if (sys2(__NR_sigaltstack, &ss, 0) ||
	    sigact(SIGSEGV, on_segv, SA_SIGINFO | SA_ONSTACK | SA_RESTART) ||
	    sigact(SIGALRM, on_alrm, SA_SIGINFO | SA_RESTART) ||
	    sys4(__NR_mknodat, AT_FDCWD, "/fifo", S_IFIFO | 0600, 0) ||
	    sys3(__NR_setitimer, ITIMER_REAL, timer, 0))
		return 0;
	openat_on_bad_stack("/fifo");
	sigact(SIGSEGV, 0, 0);		/* SIG_DFL */
	say_num("EXAMPLE-INIT: to restart: pc - ecall ",
		(long)(seen_pc - (ulong)restart_ecall), "");
	say_num(", a0 ", seen_a0, "\n");
	return seen_pc == (ulong)restart_ecall &&
	       seen_a0 == (ulong)-ERESTARTSYS && seen_a7 == __NR_openat;
}

/*
 * Bad user pointers: -EFAULT from copy_from_user() (write), from
 * copy_to_user() (read), from get_user() (FIONBIO) and put_user()
 * (getresuid).  Nothing answers at address 0 on QEMU's virt machine.
 */
static int bad_pointers_fault(void)
{
	long w, r = -1, g, p, fd;

	w = sys3(__NR_write, 1, 0, 1);
	fd = sys4(__NR_openat, AT_FDCWD, "/proc/self/status", O_RDONLY, 0);
	if (fd >= 0) {
		r = sys3(__NR_read, fd, 0, 64);
		sys1(__NR_close, fd);
	}
	g = sys3(__NR_ioctl, 1, FIONBIO, 0);
	p = sys3(__NR_getresuid, 0, 0, 0);
	say_num("EXAMPLE-INIT: write ", w, "");
	say_num(", read ", r, "");
	say_num(", FIONBIO ", g, "");
	say_num(", getresuid ", p, "\n");
	return w == -EFAULT && r == -EFAULT && g == -EFAULT && p == -EFAULT;
}

/* The count of the line of /proc/interrupts that names key ("3: 123 ...") */
static long irq_count(const char *key)
{
	const char *s = show_proc("/proc/interrupts", key);
	long n = 0;

	while (s && *s && *s++ != ':')
		;
	while (s && *s == ' ')
		s++;
	while (s && *s >= '0' && *s <= '9')
		n = n * 10 + *s++ - '0';
	return n;
}

/*
 * vfork, then execve in the child: the child runs on the parent's
 * stack until execve, so both calls are in one piece of assembly.
 * With trace, the child asks to be traced first (PTRACE_TRACEME): it
 * stops with SIGTRAP after execve, and its parent is its tracer.
 */
static long vfork_exec(const char *path, char **argv, char **envp, int trace)
{
	register ulong a0 __asm__("a0") = CLONE_VM | CLONE_VFORK | SIGCHLD;
	register ulong a1 __asm__("a1") = 0;
	register ulong a2 __asm__("a2") = 0;
	register ulong a3 __asm__("a3") = 0;
	register ulong a4 __asm__("a4") = 0;
	register ulong a7 __asm__("a7") = __NR_clone;
	register ulong s1 __asm__("s1") = (ulong)path;
	register ulong s2 __asm__("s2") = (ulong)argv;
	register ulong s3 __asm__("s3") = (ulong)envp;
	register ulong s4 __asm__("s4") = trace;

	__asm__ __volatile__ (
		"	ecall\n"
		"	bnez	a0, 1f\n"
		"	beqz	s4, 2f\n"
		"	li	a0, %[traceme]\n"
		"	li	a7, %[ptrace]\n"
		"	ecall\n"
		"2:	mv	a0, s1\n"
		"	mv	a1, s2\n"
		"	mv	a2, s3\n"
		"	li	a7, %[execve]\n"
		"	ecall\n"
		"	li	a0, 127\n"
		"	li	a7, %[exit]\n"
		"	ecall\n"
		"1:\n"
		: "+r" (a0), "+r" (a1), "+r" (a2), "+r" (a3), "+r" (a4),
		  "+r" (a7)
		: "r" (s1), "r" (s2), "r" (s3), "r" (s4),
		  [execve] "i" (__NR_execve), [exit] "i" (__NR_exit),
		  [ptrace] "i" (__NR_ptrace), [traceme] "i" (PTRACE_TRACEME)
		: "memory");
	return a0;
}

static long long now_ns(void)
{
	struct ts t;

#ifdef __NR_clock_gettime64
	if (sys2(__NR_clock_gettime64, CLOCK_MONOTONIC, &t))
		return -1;
#else
	if (sys2(__NR_clock_gettime, CLOCK_MONOTONIC, &t))
		return -1;
#endif
	return t.sec * 1000000000LL + t.nsec;
}

/* No 64-bit division: a 32-bit program has no libgcc for __divdi3. */
static long sleep_for(long sec, long nsec)
{
	struct ts t = { sec, nsec };

#ifdef __NR_nanosleep
	return sys2(__NR_nanosleep, &t, 0);
#else
	return sys4(__NR_clock_nanosleep_time64, CLOCK_MONOTONIC, 0, &t, 0);
#endif
}

/* The child's exit status: wait4 on 64-bit, waitid where time32 is gone. */
static int wait_child(long pid)
{
#ifdef __NR_wait4
	int status = 0;

	if (sys4(__NR_wait4, pid, &status, 0, 0) != pid)
		return -1;
	return (status >> 8) & 0xff;
#else
	/*
	 * siginfo_t: si_signo, si_errno, si_code, then the union, which is
	 * aligned for a pointer: si_pid, si_uid, si_status are ints 3 to 5
	 * on a 32-bit ABI and 4 to 6 on a 64-bit one.
	 */
	int info[32] = { 0 };

	if (sys5(__NR_waitid, P_PID, pid, info, WEXITED, 0))
		return -1;
	return info[sizeof(long) == 8 ? 6 : 5];
#endif
}

/* waitid for pid's next event: its si_code (CLD_*), *st its si_status */
static int wait_event(long pid, int *st)
{
	int info[32] = { 0 };

	if (sys5(__NR_waitid, P_PID, pid, info, WEXITED | WSTOPPED, 0))
		return -1;
	*st = info[sizeof(long) == 8 ? 6 : 5];
	return info[2];
}

/* A word of a traced child's memory, or 0 */
static ulong peek(long pid, ulong addr)
{
	ulong w = 0;

	sys4(__NR_ptrace, PTRACE_PEEKDATA, pid, addr, &w);
	return w;
}

/* An entry of the auxiliary vector above argv and envp on /init's stack */
static ulong auxval(long *sp, ulong type)
{
	long *p = sp + 1 + sp[0] + 1;

	while (*p)
		p++;
	for (p++; p[0]; p += 2)
		if ((ulong)p[0] == type)
			return p[1];
	return 0;
}

/*
 * A tracer changes a system call's first argument at its entry stop:
 * the child's first call is write(1, ...) (child.c writes its line
 * at once); at the entry stop, PTRACE_SETREGSET of NT_PRSTATUS with
 * orig_a0 = 1000, a file descriptor it does not have, must make the
 * write fail with -EBADF, which the exit stop shows in a0.
 */
static void syscall_entry_write(long child, ulong *regs, void *iov)
{
	ulong nr, fd, ret = 0;
	int st = 0, c1, c2;

	sys4(__NR_ptrace, PTRACE_SYSCALL, child, 0, 0);
	c1 = wait_event(child, &st);
	sys4(__NR_ptrace, PTRACE_GETREGSET, child, NT_PRSTATUS, iov);
	nr = regs[17];
	fd = regs[ORIG_A0];
	regs[ORIG_A0] = 1000;
	sys4(__NR_ptrace, PTRACE_SETREGSET, child, NT_PRSTATUS, iov);
	sys4(__NR_ptrace, PTRACE_SYSCALL, child, 0, 0);
	c2 = wait_event(child, &st);
	if (!sys4(__NR_ptrace, PTRACE_GETREGSET, child, NT_PRSTATUS, iov))
		ret = regs[10];
	say_num("EXAMPLE-INIT: syscall entry stop: nr ", nr, "");
	say_num(", orig_a0 ", fd, "");
	say_num(", after orig_a0 = 1000: a0 ", ret, "\n");
	check(c1 == CLD_TRAPPED && c2 == CLD_TRAPPED && nr == __NR_write &&
	      fd == 1 && ret == (ulong)-EBADF,
	      "ptrace: first argument changed at syscall entry");
}

/*
 * Programs of another ABI: a riscv Linux program, and one marked as
 * arch/example's but for the double float calling convention
 * (tools/example-init/foreign.c).  execve must refuse both with
 * ENOEXEC, and /init goes on; had one been taken, /init would be gone.
 */
static void foreign_refused(char **envp)
{
	char *argv[2] = { "/bin/foreign", 0 };
	long plain, hard;

	plain = sys3(__NR_execve, argv[0], argv, envp);
	argv[0] = "/bin/hardfloat";
	hard = sys3(__NR_execve, argv[0], argv, envp);
	say_num("EXAMPLE-INIT: execve of a riscv Linux program ", plain, "");
	say_num(", of a hard-float one ", hard, "\n");
	check(plain == -ENOEXEC && hard == -ENOEXEC,
	      "foreign programs refused: ENOEXEC");
}

/*
 * ptrace of a child stopped after execve: PTRACE_GETREGSET of
 * NT_PRSTATUS gives user_regs_struct, whose pc must be the entry point
 * the kernel told the child (AT_ENTRY, in the auxiliary vector on its
 * stack) and whose sp must point at its argc (2); and
 * PTRACE_GET_SYSCALL_INFO names the system call convention: example's
 * AUDIT_ARCH, not riscv's.  Then the child goes on and exits 42.
 */
static void traced_child(char **argv, char **envp)
{
	ulong regs[NREGS] = { 0 }, sp, entry = 0, t, i;
	struct { void *base; ulong len; } iov = { regs, sizeof(regs) };
	unsigned long long info[16];
	long child, r;
	int st = 0, code;

	child = vfork_exec(argv[0], argv, envp, 1);
	code = child > 0 ? wait_event(child, &st) : -1;
	r = sys4(__NR_ptrace, PTRACE_GETREGSET, child, NT_PRSTATUS, &iov);
	sp = regs[2];
	for (i = 1 + peek(child, sp) + 1; i < 64 && peek(child, sp + i * sizeof(ulong)); i++)
		;		/* past argv, then envp */
	for (i++; i < 128 && (t = peek(child, sp + i * sizeof(ulong))); i += 2)
		if (t == AT_ENTRY)
			entry = peek(child, sp + (i + 1) * sizeof(ulong));
	say_num("EXAMPLE-INIT: traced child: stop ", code, "");
	say_num(" signal ", st, "");
	say_num(", GETREGSET ", r, "");
	say_num(" len ", iov.len, "");
	say_num(", pc - AT_ENTRY ", regs[0] - entry, "");
	say_num(", argc at sp ", peek(child, sp), "\n");
	check(code == CLD_TRAPPED && st == SIGTRAP && r == 0 &&
	      iov.len == sizeof(regs) && entry && regs[0] == entry &&
	      peek(child, sp) == 2, "ptrace GETREGSET NT_PRSTATUS");
	info[0] = 0;
	r = sys4(__NR_ptrace, PTRACE_GET_SYSCALL_INFO, child, sizeof(info), info);
	say_num("EXAMPLE-INIT: PTRACE_GET_SYSCALL_INFO ", r, "");
	say_num(" arch ", (long)(unsigned int)(info[0] >> 32), "\n");
	check(r > 0 && (unsigned int)(info[0] >> 32) == EXAMPLE_AUDIT_ARCH,
	      "audit arch AUDIT_ARCH_EXAMPLE");
	syscall_entry_write(child, regs, &iov);
	sys4(__NR_ptrace, PTRACE_DETACH, child, 0, 0);
	code = wait_event(child, &st);
	check(code == 1 && st == 42, "traced child detached, exits 42");
}

static long usr1_stack[512];

int main(long *sp)
{
	struct kstack ss;
	char *argv[3], *envp[2];
	unsigned long long mask;
	long long t0, t1;
	long pid, child;
	int code;

	say("EXAMPLE-INIT: hello from userspace\n");

	pid = sys0(__NR_getpid);
	say_num("EXAMPLE-INIT: getpid ", pid, "\n");
	check(pid == 1, "getpid is 1");

	sys3(__NR_mkdirat, AT_FDCWD, "/proc", 0555);
	sys5(__NR_mount, "proc", "/proc", "proc", 0, 0);
	check(show_proc("/proc/meminfo", "MemTotal") &&
	      show_proc("/proc/cpuinfo", "isa") &&
	      show_proc("/proc/self/status", "Pid"),
	      "openat and read of /proc");

	argv[0] = "/bin/child";
	argv[1] = "from-init";
	argv[2] = 0;
	envp[0] = "EXAMPLE=1";
	envp[1] = 0;
	child = vfork_exec(argv[0], argv, envp, 0);
	code = child > 0 ? wait_child(child) : -1;
	say_num("EXAMPLE-INIT: child exit status ", code, "\n");
	check(child > 1 && code == 42, "vfork, execve and wait");

	traced_child(argv, envp);
	foreign_refused(envp);

	/*
	 * SIGUSR1's frame goes on an alternate stack full of 0xa5: the end
	 * of its record area is there only if the kernel wrote it.
	 */
	for (code = 0; code < (int)sizeof(usr1_stack); code++)
		((volatile unsigned char *)usr1_stack)[code] = 0xa5;
	ss.sp = usr1_stack;
	ss.flags = 0;
	ss.size = sizeof(usr1_stack);
	sys2(__NR_sigaltstack, &ss, 0);
	check(sigact(SIGUSR1, on_usr1, SA_SIGINFO | SA_ONSTACK) == 0,
	      "rt_sigaction");
	mask = 1ULL << (SIGUSR2 - 1);
	sys4(__NR_rt_sigprocmask, SIG_BLOCK, &mask, 0, sizeof(mask));
	sys2(__NR_kill, pid, SIGUSR1);
	mask = 0;
	sys4(__NR_rt_sigprocmask, SIG_SETMASK, &mask, 0, sizeof(mask));
	check(signals == 1 && signo_seen == SIGUSR1,
	      "signal delivered, handler returned");
	/* The handler returns to the kernel's sigreturn code, not to its stack */
	say_num("EXAMPLE-INIT: handler's ra - sp ", (long)(usr1_ra - usr1_sp), "\n");
	check(usr1_ra && (usr1_ra < usr1_sp || usr1_ra - usr1_sp >= 65536),
	      "sigreturn not through the stack");
	say_num("EXAMPLE-INIT: ucontext: uc_sigmask ", usr1_mask, "");
	say_num(", uc_mcontext a7 ", usr1_a7, "\n");
	check(usr1_mask == 1UL << (SIGUSR2 - 1) && usr1_a7 == __NR_kill,
	      "ucontext: uc_sigmask, then uc_mcontext last");
	say_num("EXAMPLE-INIT: signal frame: records before the end ",
		usr1_records, "\n");
	check(usr1_records == 0, "signal frame: records end in a zero record");

	t0 = now_ns();
	code = sleep_for(0, 50000000);
	t1 = now_ns();
	check(t0 > 0 && code == 0 && t1 - t0 >= 50000000 &&
	      t1 - t0 < 2000000000LL, "clock_gettime and nanosleep");
	if (t1 - t0 < 2000000000LL)
		say_num("EXAMPLE-INIT: nanosleep 50 ms took ",
			(long)(t1 - t0) / 1000, " us\n");

	t0 = auxval(sp, AT_MINSIGSTKSZ);
	say_num("EXAMPLE-INIT: AT_MINSIGSTKSZ ", t0, "\n");
	check(t0 > 0 && t0 % 16 == 0 && t0 <= 4096, "AT_MINSIGSTKSZ given");
	check(restarts_once(), "system call restarted once");
	check(bad_pointers_fault(), "bad user pointers: EFAULT");
	/* the 8250 sends what /init writes on its transmit interrupt */
	check(irq_count("clint-timer") > 0, "the timer interrupts");
	check(irq_count("ttyS") > 0, "the UART interrupts");

	if (failed) {
		say("EXAMPLE-INIT: some checks failed\n");
		sys3(__NR_ioctl, 1, TCSBRK, 1);
		return 1;
	}
	say("EXAMPLE-INIT: all checks passed, powering off\n");
	sys3(__NR_ioctl, 1, TCSBRK, 1);		/* tcdrain: the console shows all */
	sys4(__NR_reboot, 0xfee1dead, 672274793, 0x4321fedc, 0);
	return 2;
}

ENTRY(main);
