/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's <net/checksum.h> starts with <asm/checksum.h>; so do we. */
#ifndef _CSUM_BENCH_NET_CHECKSUM_H
#define _CSUM_BENCH_NET_CHECKSUM_H

#include <asm/checksum.h>

/*
 * Mainline's lib/checksum.c folds its 32-bit sum with
 * csum_from32to16() of <net/checksum.h>: the end-around-carry fold.
 */
static inline unsigned short csum_from32to16(unsigned int sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (unsigned short)sum;
}

#endif
