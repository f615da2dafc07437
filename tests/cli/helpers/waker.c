// SPDX-License-Identifier: GPL-2.0-only
/*
 * waker NTHREADS PIDFILE: a process of NTHREADS threads, each waking 10 times
 * a second (nanosleep 100 ms), like a thread-pool server. Writes its pid to
 * PIDFILE once every thread runs; dies with its parent (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static void *wake(void *arg)
{
	struct timespec ts = { 0, 100000000 };

	(void)arg;
	for (;;)
		nanosleep(&ts, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t at;
	FILE *f;
	int i, n;

	if (argc != 3 || (n = atoi(argv[1])) <= 0) {
		fputs("usage: waker NTHREADS PIDFILE\n", stderr);
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	for (i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &at, wake, NULL)) {
			perror("pthread_create");
			return 1;
		}
	}
	f = fopen(argv[2], "w");
	if (!f)
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	for (;;)
		pause();
}
