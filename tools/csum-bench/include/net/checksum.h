/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's <net/checksum.h> starts with <asm/checksum.h>; so do we. */
#include <asm/checksum.h>
