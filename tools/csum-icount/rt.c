// SPDX-License-Identifier: GPL-2.0
/*
 * rt.c - _start, write and exit_group, and the few library functions of
 * rt.h, for static freestanding Linux binaries of the arches that
 * tools/csum-icount builds: aarch64 (both endiannesses), x86-64, riscv32/64,
 * loongarch64, or1k, m68k/ColdFire, hppa, MIPS o32 and n64, hexagon.
 *
 * _start passes the initial stack pointer, where Linux puts argc and
 * then argv, to rt_start(); hppa, whose stack grows upwards, has argv in
 * r24 and passes the address one word below it instead.
 */
#include "rt.h"

int main(int argc, char **argv);
void rt_start(long *sp) __attribute__((__noreturn__, __used__));

#if defined(__aarch64__)
#define NR_write	64
#define NR_exit_group	94
asm(".text\n.globl _start\n_start:\n\tmov x0, sp\n\tbl rt_start\n");

static long rt_syscall3(long nr, long a, long b, long c)
{
	register long x8 asm("x8") = nr;
	register long x0 asm("x0") = a;
	register long x1 asm("x1") = b;
	register long x2 asm("x2") = c;

	asm volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	return x0;
}

#elif defined(__x86_64__)
#define NR_write	1
#define NR_exit_group	231
asm(".text\n.globl _start\n_start:\n\tmov %rsp, %rdi\n\tand $-16, %rsp\n\tcall rt_start\n");

static long rt_syscall3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
		     : "memory", "rcx", "r11");
	return ret;
}

#elif defined(__riscv)
#define NR_write	64
#define NR_exit_group	94
asm(".text\n.globl _start\n_start:\n\tmv a0, sp\n\tcall rt_start\n");

static long rt_syscall3(long nr, long a, long b, long c)
{
	register long a7 asm("a7") = nr;
	register long a0 asm("a0") = a;
	register long a1 asm("a1") = b;
	register long a2 asm("a2") = c;

	asm volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
	return a0;
}

#elif defined(__loongarch__)
#define NR_write	64
#define NR_exit_group	94
asm(".text\n.globl _start\n_start:\n\tmove $a0, $sp\n\tbl rt_start\n");

static long rt_syscall3(long nr, long a, long b, long c)
{
	register long a7 asm("$a7") = nr;
	register long a0 asm("$a0") = a;
	register long a1 asm("$a1") = b;
	register long a2 asm("$a2") = c;

	asm volatile("syscall 0" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2)
		     : "memory", "$t0", "$t1", "$t2", "$t3", "$t4", "$t5",
		       "$t6", "$t7", "$t8");
	return a0;
}

#elif defined(__or1k__)
#define NR_write	64
#define NR_exit_group	94
asm(".text\n.globl _start\n_start:\n\tl.ori r3, r1, 0\n\tl.jal rt_start\n\tl.nop\n");

static long rt_syscall3(long nr, long a, long b, long c)
{
	register long r11 asm("r11") = nr;
	register long r3 asm("r3") = a;
	register long r4 asm("r4") = b;
	register long r5 asm("r5") = c;

	asm volatile("l.sys 1\n\tl.nop" : "+r"(r11), "+r"(r3), "+r"(r4), "+r"(r5)
		     : : "memory", "r12", "r13", "r15", "r17", "r19", "r21",
		       "r23", "r25", "r27", "r29", "r31");
	return r11;
}

#elif defined(__m68k__)
#define NR_write	4
#define NR_exit_group	247
asm(".text\n.globl _start\n_start:\n\tmove.l %sp, %d0\n\tmove.l %d0, -(%sp)\n\tjsr rt_start\n");

static long rt_syscall3(long nr, long a, long b, long c)
{
	register long d0 asm("d0") = nr;
	register long d1 asm("d1") = a;
	register long d2 asm("d2") = b;
	register long d3 asm("d3") = c;

	asm volatile("trap #0" : "+r"(d0) : "r"(d1), "r"(d2), "r"(d3) : "memory");
	return d0;
}

#elif defined(__hppa__)
#define NR_write	4
#define NR_exit_group	222
asm(".text\n.globl _start\n_start:\n"
    "\tldil L%$global$, %r27\n\tldo R%$global$(%r27), %r27\n"
    "\tldo -4(%r24), %r26\n\tldo 128(%sp), %sp\n"
    "\tbl rt_start, %r2\n\tnop\n");

static long rt_syscall3(long nr, long a, long b, long c)
{
	register long r20 asm("r20") = nr;
	register long r26 asm("r26") = a;
	register long r25 asm("r25") = b;
	register long r24 asm("r24") = c;
	register long r28 asm("r28");

	asm volatile("ble 0x100(%%sr2, %%r0)\n\tnop"
		     : "=r"(r28), "+r"(r20), "+r"(r26), "+r"(r25), "+r"(r24)
		     : : "memory", "r1", "r2", "r21", "r22", "r23", "r29", "r31");
	return r28;
}

#elif defined(__mips__)
#if _MIPS_SIM == _ABIO32
#define NR_write	4004
#define NR_exit_group	4246
asm(".text\n.globl _start\n.set noreorder\n_start:\n\tmove $a0, $sp\n"
    "\taddiu $sp, $sp, -16\n\tjal rt_start\n\tnop\n.set reorder\n");
#else
#define NR_write	5001
#define NR_exit_group	5205
asm(".text\n.globl _start\n.set noreorder\n_start:\n\tmove $a0, $sp\n"
    "\tjal rt_start\n\tnop\n.set reorder\n");
#endif

static long rt_syscall3(long nr, long a, long b, long c)
{
	register long v0 asm("$2") = nr;
	register long a0 asm("$4") = a;
	register long a1 asm("$5") = b;
	register long a2 asm("$6") = c;
	register long a3 asm("$7");

	asm volatile("syscall" : "+r"(v0), "=r"(a3), "+r"(a0), "+r"(a1), "+r"(a2)
		     : : "memory", "$1", "$3", "$8", "$9", "$10", "$11", "$12",
		       "$13", "$14", "$15", "$24", "$25"
#if __mips_isa_rev < 6
		       , "hi", "lo"
#endif
		     );
	return a3 ? -v0 : v0;
}

#elif defined(__hexagon__)
#define NR_write	64
#define NR_exit_group	94
asm(".text\n.globl _start\n_start:\n\t{ r0 = r29; call rt_start }\n");

static long rt_syscall3(long nr, long a, long b, long c)
{
	register long r6 asm("r6") = nr;
	register long r0 asm("r0") = a;
	register long r1 asm("r1") = b;
	register long r2 asm("r2") = c;

	asm volatile("trap0(#1)" : "+r"(r0) : "r"(r6), "r"(r1), "r"(r2) : "memory");
	return r0;
}

#else
#error "rt.c: no _start and system calls for this arch"
#endif

long rt_write(int fd, const void *buf, unsigned long len)
{
	return rt_syscall3(NR_write, fd, (long)buf, len);
}

void rt_exit(int status)
{
	for (;;)
		rt_syscall3(NR_exit_group, status, 0, 0);
}

void rt_start(long *sp)
{
	char **argv = (char **)(sp + 1);
	int argc = 0;

	while (argv[argc])
		argc++;
	rt_exit(main(argc, argv));
}

/* The library */

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

/* volatile: so that the compiler makes no call to memset of memset */
void *memset(void *d, int c, size_t n)
{
	volatile unsigned char *p = d;

	while (n--)
		*p++ = c;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	volatile unsigned char *p = d;
	const unsigned char *q = s;

	if (p < q)
		while (n--)
			*p++ = *q++;
	else
		while (n--)
			p[n] = q[n];
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	return memmove(d, s, n);
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

int atoi(const char *s)
{
	int v = 0, neg = *s == '-';

	for (s += neg; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + *s - '0';
	return neg ? -v : v;
}

/* Enough for the harnesses: 128 KiB, freed all at once at exit. */
static unsigned char arena[128 * 1024 + 256] __attribute__((__aligned__(64)));
static size_t arena_used;

void *aligned_alloc(size_t align, size_t size)
{
	size_t at = (arena_used + align - 1) & ~(align - 1);

	if (at + size > sizeof(arena))
		return NULL;
	arena_used = at + size;
	return arena + at;
}

void free(void *p)
{
	(void)p;
}

/* printf: %d %u %x %s %c, flags '#' and '0', a width; one line buffer */
static char line[256];
static size_t used;

static void flush(void)
{
	rt_write(1, line, used);
	used = 0;
}

static void put(char c)
{
	if (used == sizeof(line))
		flush();
	line[used++] = c;
	if (c == '\n')
		flush();
}

/* No division: hexagon has no divide instruction, and no libgcc here */
static void put_num(unsigned long v, int base, int neg, int alt, int zero,
		    int width)
{
	char digits[24];
	int n = 0, len, i;

	if (base == 16) {
		do {
			digits[n++] = "0123456789abcdef"[v & 15];
			v >>= 4;
		} while (v);
	} else {
		unsigned long p[20];
		int k = 0;

		/* the powers of ten up to v, then digits by subtraction */
		for (p[0] = 1; k < 19 && p[k] <= ~0UL / 10 &&
		     v >= p[k] * 10; k++)
			p[k + 1] = p[k] * 10;
		for (; k >= 0; k--) {
			for (i = 0; v >= p[k]; i++)
				v -= p[k];
			digits[n++] = '0' + i;
		}
		for (i = 0; i < n / 2; i++) {
			char c = digits[i];

			digits[i] = digits[n - 1 - i];
			digits[n - 1 - i] = c;
		}
	}
	len = n + neg + (alt ? 2 : 0);
	if (!zero)
		for (; width > len; width--)
			put(' ');
	if (neg)
		put('-');
	if (alt) {
		put('0');
		put('x');
	}
	if (zero)
		for (; width > len; width--)
			put('0');
	while (n)
		put(digits[--n]);
}

int printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		int alt = 0, zero = 0, width = 0;
		const char *s;
		long d;

		if (*fmt != '%') {
			put(*fmt);
			continue;
		}
		for (fmt++; *fmt == '#' || *fmt == '0'; fmt++)
			*fmt == '#' ? (alt = 1) : (zero = 1);
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + *fmt - '0';
		switch (*fmt) {
		case 'd':
			d = va_arg(ap, int);
			put_num(d < 0 ? -(unsigned long)d : (unsigned long)d,
				10, d < 0, 0, zero, width);
			break;
		case 'u':
			put_num(va_arg(ap, unsigned int), 10, 0, 0, zero, width);
			break;
		case 'x':
			put_num(va_arg(ap, unsigned int), 16, 0, alt, zero, width);
			break;
		case 's':
			for (s = va_arg(ap, const char *); *s; s++)
				put(*s);
			break;
		case 'c':
			put(va_arg(ap, int));
			break;
		default:
			put('%');
			put(*fmt);
			break;
		}
		if (!*fmt)
			break;
	}
	va_end(ap);
	return 0;
}
