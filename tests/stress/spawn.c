// SPDX-License-Identifier: GPL-2.0-only
/*
 * Many idle processes and threads, for tests/stress/scale.sh.
 *
 *	spawn NPROC NTHREAD_PROCS THREADS_EACH PIDFILE
 *
 * Forks NPROC processes that only wait, and NTHREAD_PROCS processes of
 * THREADS_EACH threads each (small stacks), writes every pid to PIDFILE (one a
 * line, the thread holders first), then waits. Killing it kills them all
 * (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void child(int nthreads)
{
	pthread_attr_t attr;
	pthread_t t;
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t, &attr, idle, NULL)) {
			perror("pthread_create");
			break;
		}
	idle(NULL);
}

int main(int argc, char **argv)
{
	int nproc, ntp, each, i;
	FILE *f;

	if (argc != 5)
		return 2;
	nproc = atoi(argv[1]);
	ntp = atoi(argv[2]);
	each = atoi(argv[3]);
	f = fopen(argv[4], "w");
	if (!f)
		return 1;
	for (i = 0; i < ntp + nproc; i++) {
		pid_t p = fork();

		if (p < 0) {
			perror("fork");
			return 1;
		}
		if (p == 0)
			child(i < ntp ? each : 0);
		fprintf(f, "%d\n", (int)p);
	}
	fclose(f);
	for (;;)
		pause();
}
