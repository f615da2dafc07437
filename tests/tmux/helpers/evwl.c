// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload whose kernel events are known, for tests/tmux/views.bats.
 *
 *     evwl PIDFILE
 *
 * Forks a sender child named "evwl-sender", writes "PARENT SENDER" to PIDFILE
 * (via PIDFILE.tmp and rename), then loops every 100 ms until killed:
 *   parent: openat(AT_FDCWD, "/nonexistent/ktop-evwl", O_RDONLY) = -2 ENOENT,
 *           getppid(), nanosleep(100 ms); SIGUSR1 runs a handler that counts.
 *   sender: kill(parent, SIGUSR1), nanosleep(300 ms).
 * Raw syscall(2) for the calls the tests look for, so libc adds nothing.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	syscall(SYS_nanosleep, &ts, NULL);
}

int main(int argc, char **argv)
{
	char tmp[4096];
	pid_t parent = getpid(), sender;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: evwl PIDFILE\n");
		return 2;
	}
	signal(SIGUSR1, on_usr1);
	sender = fork();
	if (sender < 0)
		return 1;
	if (sender == 0) {
		prctl(PR_SET_NAME, "evwl-sender");
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			syscall(SYS_kill, parent, SIGUSR1);
			nap(300);
		}
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	fprintf(f, "%d %d\n", (int)parent, (int)sender);
	fclose(f);
	if (rename(tmp, argv[1]))
		return 1;
	for (;;) {
		syscall(SYS_openat, AT_FDCWD, "/nonexistent/ktop-evwl", O_RDONLY);
		syscall(SYS_getppid);
		nap(100);
	}
}
