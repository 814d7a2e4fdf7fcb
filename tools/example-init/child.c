// SPDX-License-Identifier: GPL-2.0-only
/*
 * child.c: /bin/child, the second program /init runs (vfork, execve):
 * it shows its arguments and environment, in one write (the traced run
 * redirects that write at its entry stop), and exits with status 42.
 */
#include "sys.h"

static char *put(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

int main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	char line[256], *p = line;

	p = put(p, "EXAMPLE-CHILD: execve ok, argv[1]=");
	p = put(p, argc > 1 && slen(argv[1]) < 64 ? argv[1] : "(none)");
	p = put(p, " env ");
	p = put(p, envp[0] && slen(envp[0]) < 64 ? envp[0] : "(none)");
	p = put(p, "\n");
	sys3(__NR_write, 1, line, p - line);
	return 42;
}

ENTRY(main);
