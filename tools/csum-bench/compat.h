/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the kernel types and helpers that lib/checksum.c and the
 * arch checksum files use, for building them unchanged in userspace.
 * Every variant is compiled with -include compat.h and -Iinclude, whose
 * linux/, net/ and asm/ headers are empty or point at the kernel's own
 * checksum headers.  No libc header here: glibc's <endian.h> defines
 * both __LITTLE_ENDIAN and __BIG_ENDIAN, the kernel only one.
 */
#ifndef CSUM_COMPAT_H
#define CSUM_COMPAT_H

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef u16 __be16;
typedef u32 __be32;
typedef u32 __wsum;
typedef u16 __sum16;
typedef _Bool bool;
#define false	0
#define true	1

#define __force
#define __user
#define __visible
#define __always_inline		inline __attribute__((__always_inline__))
#define noinline		__attribute__((__noinline__))
#define __no_sanitize_address	__attribute__((__no_sanitize_address__))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define EXPORT_SYMBOL(sym)
#define kasan_check_read(p, n)	((void)(p), (void)(n))

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define __LITTLE_ENDIAN 1234
#define htonl(x)		swab32(x)
#define htons(x)		swab16(x)
#else
#define __BIG_ENDIAN 4321
#define htonl(x)		((u32)(x))
#define htons(x)		((u16)(x))
#endif

#if __SIZEOF_LONG__ == 8
#define CONFIG_64BIT 1
#define BITS_PER_LONG 64
#else
#define CONFIG_32BIT 1
#define BITS_PER_LONG 32
#endif

/* <linux/kconfig.h>, for the options defined to 1 above or by make */
#define __ARG_PLACEHOLDER_1	0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x)		___is_defined(x)
#define ___is_defined(val)	____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option)	__is_defined(option)

/*
 * Where the kernel selects it by default (ColdFire: the m68k that is not
 * CPU_HAS_NO_UNALIGNED; not LoongArch, ARCH_STRICT_ALIGN=y by default);
 * make UNALIGNED=y|n sets CSUM_EFFICIENT_UNALIGNED, CSUM_ALIGNED drops it.
 */
#ifndef CSUM_EFFICIENT_UNALIGNED
#if defined(__x86_64__) || defined(__aarch64__) || defined(__powerpc__) || \
    defined(__s390__) || defined(__mcoldfire__)
#define CSUM_EFFICIENT_UNALIGNED 1
#else
#define CSUM_EFFICIENT_UNALIGNED 0
#endif
#endif
#if CSUM_EFFICIENT_UNALIGNED && !defined(CSUM_ALIGNED)
#define CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS 1
#endif

/*
 * <linux/swab.h> without ARCH_USE_BUILTIN_BSWAP: shifts and masks, which
 * gcc turns into the arch's byte swap where it has one (riscv without
 * Zbb has none, and __builtin_bswap32 would call libgcc).
 */
#define swab16(x)		((u16)((u16)(x) << 8 | (u16)(x) >> 8))
#define swab32(x)		((u32)(((u32)(x) & 0xff) << 24 |	\
				       ((u32)(x) & 0xff00) << 8 |	\
				       ((u32)(x) & 0xff0000) >> 8 |	\
				       ((u32)(x) & 0xff000000) >> 24))

static inline u32 ror32(u32 w, unsigned int s)
{
	return (w >> (s & 31)) | (w << ((-s) & 31));
}

static inline u32 rol32(u32 w, unsigned int s)
{
	return (w << (s & 31)) | (w >> ((-s) & 31));
}

static inline u64 ror64(u64 w, unsigned int s)
{
	return (w >> (s & 63)) | (w << ((-s) & 63));
}

static inline u64 rol64(u64 w, unsigned int s)
{
	return (w << (s & 63)) | (w >> ((-s) & 63));
}

/* <asm/unaligned.h>: byte-wise, as on an arch without unaligned loads */
#define get_unaligned(p) ({						\
	const struct { __typeof__(*(p)) x; } __attribute__((__packed__))	\
		*__pp = (const void *)(p);					\
	__pp->x;							\
})

/*
 * <asm/word-at-a-time.h>: the kernel may read past the end within the
 * page; the harnesses leave a word of slack after every buffer.
 */
static inline unsigned long load_unaligned_zeropad(const void *addr)
{
	unsigned long v;

	__builtin_memcpy(&v, addr, sizeof(v));
	return v;
}

struct in6_addr {
	union {
		u8 u6_addr8[16];
		u32 u6_addr32[4];
	} in6_u;
};
#define s6_addr in6_u.u6_addr8
#define s6_addr32 in6_u.u6_addr32

/* riscv's <asm/cpufeature.h>: no Zbb, unaligned loads as the kernel's */
#define RISCV_ISA_EXT_ZBB	0
#define riscv_has_extension_likely(ext)	false
#define has_fast_unaligned_accesses()	\
	IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS)

#endif /* CSUM_COMPAT_H */
