/* SPDX-License-Identifier: GPL-2.0 */
/* The variant's arch header, a path in the kernel tree given by make. */
#include CSUM_ARCH_H
