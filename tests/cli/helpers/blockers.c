// SPDX-License-Identifier: GPL-2.0-only
/*
 * blockers NTHREADS PIDFILE [GATE DONEFILE CALLS]: a process of NTHREADS
 * threads that block (a JVM's or a Go server's idle pool). Writes its pid to
 * PIDFILE once every thread exists; dies with its parent (PR_SET_PDEATHSIG).
 *
 * With GATE (a FIFO): the NTHREADS - 1 other threads each block in a 1-byte
 * read of GATE; a byte written there releases one, which then makes CALLS
 * getppid() and blocks for good (pause). When all are done, the main thread
 * writes DONEFILE. So the process makes exactly NTHREADS - 1 reads and
 * (NTHREADS - 1) * CALLS getppids after its start, and no other read or getppid.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int gate = -1, calls;
static int left;	/* threads not done yet: a futex word */

static void *work(void *arg)
{
	sigset_t all;
	char c;
	int i;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (gate >= 0 && read(gate, &c, 1) == 1) {
		for (i = 0; i < calls; i++)
			syscall(SYS_getppid);
		if (__atomic_sub_fetch(&left, 1, __ATOMIC_SEQ_CST) == 0)
			syscall(SYS_futex, &left, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
	for (;;)
		pause();
	return NULL;
}

static int write_pid(const char *path)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) || rename(tmp, path))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	pthread_attr_t at;
	int i, n, v;

	if ((argc != 3 && argc != 6) || (n = atoi(argv[1])) <= 0) {
		fputs("usage: blockers NTHREADS PIDFILE [GATE DONEFILE CALLS]\n", stderr);
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (argc == 6) {
		/* O_RDWR: the open does not wait for a writer, and reads never see EOF. */
		gate = open(argv[3], O_RDWR | O_CLOEXEC);
		calls = atoi(argv[5]);
		if (gate < 0) {
			perror(argv[3]);
			return 1;
		}
	}
	left = n - 1;
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 16 * 1024);
	for (i = 1; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &at, work, NULL)) {
			fprintf(stderr, "blockers: thread %d of %d: cannot create\n", i + 1, n);
			return 1;
		}
	}
	if (write_pid(argv[2]))
		return 1;
	if (gate >= 0) {
		while ((v = __atomic_load_n(&left, __ATOMIC_SEQ_CST)) > 0)
			syscall(SYS_futex, &left, FUTEX_WAIT, v, NULL, NULL, 0);
		if (write_pid(argv[4]))
			return 1;
	}
	for (;;)
		pause();
}
