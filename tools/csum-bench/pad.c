// SPDX-License-Identifier: GPL-2.0
/*
 * pad.c - PAD bytes of code space after a 64-byte boundary, linked in
 * front of every variant's object by csum-bench's placement builds
 * (make placements): that object's code then starts PAD bytes into a
 * 64-byte line.  Never executed.
 */
#define STR_(x)	#x
#define STR(x)	STR_(x)

__asm__(".text\n\t.p2align 6\n\t.skip " STR(PAD) "\n");
