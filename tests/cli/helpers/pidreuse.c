// SPDX-License-Identifier: GPL-2.0-only
/*
 * A pid reused within one refresh, on a real kernel, for tests/cli/hostile.bats.
 *
 *	pidreuse READY GATE
 *
 * Forks a child named "reuse-old" and writes its pid to READY. A byte on the
 * FIFO GATE makes it kill and reap that child, then at once create a new one
 * with the same pid (clone3 with set_tid: root only, CAP_CHECKPOINT_RESTORE),
 * named "reuse-new"; it writes "done PID" on stdout. Then it waits to be killed.
 * Exit 77 (skip) when the kernel or the caller cannot reuse a pid on purpose.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(const char *name)
{
	prctl(PR_SET_NAME, name, 0, 0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	struct clone_args ca;
	pid_t old, tid;
	long pid;
	FILE *f;
	char c;
	int fd;

	if (argc != 3)
		return 2;
	old = fork();
	if (old < 0)
		return 1;
	if (old == 0)
		child("reuse-old");
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%d\n", (int)old) < 0 || fclose(f))
		return 1;
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1)
		return 1;
	kill(old, SIGKILL);
	waitpid(old, NULL, 0);
	tid = old;
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	ca.set_tid = (uint64_t)(uintptr_t)&tid;
	ca.set_tid_size = 1;
	pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid < 0) {
		fprintf(stderr, "clone3 set_tid %d: %s\n", (int)old, strerror(errno));
		return errno == EPERM || errno == ENOSYS || errno == EEXIST ? 77 : 1;
	}
	if (pid == 0)
		child("reuse-new");
	printf("done %ld\n", pid);
	fflush(stdout);
	for (;;)
		pause();
}
