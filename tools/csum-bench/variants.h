/* SPDX-License-Identifier: GPL-2.0 */
/*
 * variants.h - the entry points that variant.c builds for each checksum
 * variant (VARIANT_csum_partial, VARIANT_ip_fast_csum), declared weak so
 * that a program lists every variant and finds at run time which of them
 * were built for this host.  Shared by csum-bench and csum-test.
 */
#ifndef CSUM_VARIANTS_H
#define CSUM_VARIANTS_H

#include <stdint.h>

typedef uint32_t (*csum_fn)(const void *buff, int len, uint32_t sum);
typedef uint16_t (*ipcsum_fn)(const void *iph, unsigned int ihl);

#define DECLARE(v)							\
	uint32_t v##_csum_partial(const void *, int, uint32_t)		\
		__attribute__((__weak__));				\
	uint16_t v##_ip_fast_csum(const void *, unsigned int)		\
		__attribute__((__weak__))

#endif
