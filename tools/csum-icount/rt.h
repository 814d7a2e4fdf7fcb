/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt.h - the little of a C library that csum-test and csum-icount need,
 * for static freestanding binaries run under qemu-user on arches with no
 * libc here (or1k, loongarch64, hexagon, ColdFire, MIPS R6, riscv32,
 * big-endian arm64): write(), exit, a printf() for %d %u %x %s %c with
 * the '#' and '0' flags and a width, and an aligned_alloc() that hands
 * out a static arena.  rt.c has _start and the system calls.
 */
#ifndef CSUM_RT_H
#define CSUM_RT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

long rt_write(int fd, const void *buf, unsigned long len);
void rt_exit(int status) __attribute__((__noreturn__));

int printf(const char *fmt, ...) __attribute__((__format__(printf, 1, 2)));
void *aligned_alloc(size_t align, size_t size);
void free(void *p);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
int atoi(const char *s);

#endif /* CSUM_RT_H */
