// SPDX-License-Identifier: GPL-2.0-only
/*
 * timestamp: run a command and copy its output (stdout and stderr),
 * each line prefixed with the seconds since the command started:
 *   [   1.234] Run /init as init process
 * Exits with the command's exit status (128 + signal if it was
 * killed).  scripts/boot-example uses it to time QEMU's boot.
 *   usage: timestamp COMMAND [ARG]...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	struct timespec t0;
	int fd[2], status, bol = 1;
	char buf[4096];
	ssize_t n, i;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: timestamp COMMAND [ARG]...\n");
		return 2;
	}
	if (pipe(fd)) {
		perror("timestamp: pipe");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("timestamp: fork");
		return 2;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "timestamp: cannot run %s\n", argv[1]);
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			if (bol)
				printf("[%8.3f] ", since(&t0));
			putchar(buf[i]);
			bol = buf[i] == '\n';
		}
		fflush(stdout);
	}
	if (!bol)
		putchar('\n');
	if (waitpid(pid, &status, 0) < 0) {
		perror("timestamp: waitpid");
		return 2;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
