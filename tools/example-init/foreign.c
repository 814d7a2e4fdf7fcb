// SPDX-License-Identifier: GPL-2.0-only
/*
 * foreign.c: a program arch/example must not run.  The Makefile builds
 * it for riscv Linux's double float calling convention, as /bin/foreign
 * without arch/example's EI_OSABI mark and as /bin/hardfloat with it;
 * /init's execve of either must fail with ENOEXEC.  Should one run
 * anyway, it says so, and /init's check fails.
 */
#include "sys.h"

int main(long *sp)
{
	say("EXAMPLE-FOREIGN: ran, and it must not\n");
	return 99;
}

ENTRY(main);
