/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel tree's own include/asm-generic/checksum.h, path from make. */
#include CSUM_GENERIC_H
