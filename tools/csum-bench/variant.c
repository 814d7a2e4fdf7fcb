// SPDX-License-Identifier: GPL-2.0
/*
 * variant.c - one checksum implementation, built from the kernel's own
 * files.  make passes VARIANT (the name), KFILE1 and maybe KFILE2 (paths
 * of kernel .c files) and CSUM_ARCH_H (the arch's asm/checksum.h).  The
 * kernel's symbols are hidden and then made local with objcopy, so the
 * variants link side by side; only <VARIANT>_csum_partial and
 * <VARIANT>_ip_fast_csum stay global.
 */
#include KFILE1
#ifdef KFILE2
#include KFILE2
#endif

#define __PASTE(a, b)	a##_##b
#define PASTE(a, b)	__PASTE(a, b)
#define ENTRY(f)	__attribute__((__visibility__("default"))) PASTE(VARIANT, f)

__wsum ENTRY(csum_partial)(const void *buff, int len, __wsum sum)
{
	return csum_partial(buff, len, sum);
}

__sum16 ENTRY(ip_fast_csum)(const void *iph, unsigned int ihl)
{
	return ip_fast_csum(iph, ihl);
}
