// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/cputime: run a command and print the CPU time it used, with the
 * microsecond resolution of wait4()'s rusage (/usr/bin/time rounds to 10 ms).
 *
 *   cputime [-o OUTFILE] COMMAND [ARG...]
 *
 * The command's stdout goes to OUTFILE (default /dev/null). Prints one line on
 * stdout: "USER_US SYS_US MAXRSS_KB WALL_US EXIT" and fails when the command
 * did not exit 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

int main(int argc, char **argv)
{
	const char *out = "/dev/null";
	struct timespec t0, t1;
	struct rusage ru;
	int status, argi = 1;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "-o")) {
		out = argv[2];
		argi = 3;
	}
	if (argi >= argc) {
		fprintf(stderr, "usage: %s [-o OUTFILE] COMMAND [ARG...]\n", argv[0]);
		return 2;
	}
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 1;
	}
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0) {
			perror("cputime: output");
			_exit(127);
		}
		close(fd);
		execvp(argv[argi], argv + argi);
		fprintf(stderr, "cputime: %s: %s\n", argv[argi], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("cputime: wait4");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%lld %lld %ld %lld %d\n", us(ru.ru_utime), us(ru.ru_stime), ru.ru_maxrss,
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
