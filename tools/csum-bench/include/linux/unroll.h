/* SPDX-License-Identifier: GPL-2.0 */
/* <linux/unroll.h>: unrolled_full, for gcc and clang */
#ifdef __clang__
#define unrolled_full	_Pragma("clang loop unroll(full)")
#else
#define unrolled_full	_Pragma("GCC unroll 65534")
#endif
