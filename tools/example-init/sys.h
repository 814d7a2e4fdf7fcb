/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sys.h: system calls without a libc, for the userspace that
 * scripts/boot-example puts in arch/example's initramfs.  RISC-V
 * calling convention: number in a7, arguments in a0..a5, result in a0.
 * The numbers are the kernel's own, from the headers_install tree.
 */
#ifndef EXAMPLE_SYS_H
#define EXAMPLE_SYS_H

#include <asm/unistd.h>

typedef unsigned long ulong;

/*
 * Without a libc, the compiler still calls memset to clear a large
 * object (the 32-bit build does for init's siginfo buffer): it is here.
 * The Makefile's -fno-tree-loop-distribute-patterns keeps this loop
 * from becoming a call to itself.
 */
void *memset(void *s, int c, ulong n);
void *memset(void *s, int c, ulong n)
{
	unsigned char *p = s;

	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

static inline long sys6(long nr, ulong a, ulong b, ulong c, ulong d,
			ulong e, ulong f)
{
	register ulong a0 __asm__("a0") = a;
	register ulong a1 __asm__("a1") = b;
	register ulong a2 __asm__("a2") = c;
	register ulong a3 __asm__("a3") = d;
	register ulong a4 __asm__("a4") = e;
	register ulong a5 __asm__("a5") = f;
	register long a7 __asm__("a7") = nr;

	__asm__ __volatile__ ("ecall"
			      : "+r" (a0)
			      : "r" (a1), "r" (a2), "r" (a3), "r" (a4),
				"r" (a5), "r" (a7)
			      : "memory");
	return a0;
}

#define sys0(n)			sys6(n, 0, 0, 0, 0, 0, 0)
#define sys1(n, a)		sys6(n, (ulong)(a), 0, 0, 0, 0, 0)
#define sys2(n, a, b)		sys6(n, (ulong)(a), (ulong)(b), 0, 0, 0, 0)
#define sys3(n, a, b, c)	sys6(n, (ulong)(a), (ulong)(b), (ulong)(c), 0, 0, 0)
#define sys4(n, a, b, c, d)	sys6(n, (ulong)(a), (ulong)(b), (ulong)(c), (ulong)(d), 0, 0)
#define sys5(n, a, b, c, d, e)	sys6(n, (ulong)(a), (ulong)(b), (ulong)(c), (ulong)(d), (ulong)(e), 0)

static inline ulong slen(const char *s)
{
	ulong n = 0;

	while (s[n])
		n++;
	return n;
}

static inline void say(const char *s)
{
	sys3(__NR_write, 1, s, slen(s));
}

/* Decimal, into buf (at least 24 bytes); returns buf. */
static inline char *dec(char *buf, long v)
{
	char tmp[24];
	int i = 0, j = 0;
	ulong u = v < 0 ? -(ulong)v : (ulong)v;

	do {
		tmp[i++] = '0' + u % 10;
		u /= 10;
	} while (u);
	if (v < 0)
		buf[j++] = '-';
	while (i)
		buf[j++] = tmp[--i];
	buf[j] = 0;
	return buf;
}

static inline void say_num(const char *pre, long v, const char *post)
{
	char b[24];

	say(pre);
	say(dec(b, v));
	say(post);
}

static inline __attribute__((noreturn)) void sys_exit(int code)
{
	for (;;)
		sys1(__NR_exit, code);
}

/*
 * The entry point: the kernel's stack holds argc, argv[], NULL,
 * envp[], NULL, auxv.  No relocations to apply: the programs are
 * built so that they need none (scripts/boot-example checks).
 */
#define ENTRY(fn)							\
	__asm__(".text\n.globl _start\n_start:\n"			\
		"	mv a0, sp\n"					\
		"	andi sp, sp, -16\n"				\
		"	call " #fn "\n"					\
		"	li a7, " __stringify_n(__NR_exit) "\n"		\
		"	ecall\n")
#define __stringify_n_1(x)	#x
#define __stringify_n(x)	__stringify_n_1(x)

#endif /* EXAMPLE_SYS_H */
