/* SPDX-License-Identifier: GPL-2.0 */
/* Empty: compat.h, included first, provides what the kernel header would. */
