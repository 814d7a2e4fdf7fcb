// SPDX-License-Identifier: GPL-2.0-only
/*
 * child.c: /bin/child, the second program /init runs (vfork, execve):
 * it shows its arguments and environment and exits with status 42.
 */
#include "sys.h"

int main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;

	say("EXAMPLE-CHILD: execve ok, argv[1]=");
	say(argc > 1 ? argv[1] : "(none)");
	say(" env ");
	say(envp[0] ? envp[0] : "(none)");
	say("\n");
	return 42;
}

ENTRY(main);
