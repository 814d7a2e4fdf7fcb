/* SPDX-License-Identifier: GPL-2.0 */
/* hexagon's <asm/intrinsics.h>, a path in the kernel tree given by make. */
#include CSUM_INTRINSICS_H
