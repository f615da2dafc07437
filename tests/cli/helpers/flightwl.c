// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workloads of the flight recorder's tests (tests/cli/flight.bats).
 *
 *     flightwl READY GATE kills N   after a byte on the FIFO GATE: N x
 *         kill(999999, 0) (ESRCH: no such process), raw syscalls; then writes
 *         "T0 T1\n" to stdout, the CLOCK_MONOTONIC ns just before the first
 *         and just after the last, and blocks in read(GATE) until killed.
 *     flightwl READY GATE runq N    N threads pinned to CPU 0, spinning from
 *         the gate on: each waits for the CPU most of the time.
 *     flightwl READY GATE flood 0   getppid in a loop from the gate on.
 *     flightwl READY GATE slow 0    getppid every 2 ms from the gate on.
 *
 * READY gets "PID TID..." (the threads of runq) once all is set up, written
 * to READY.tmp and renamed. The process is named "flightwl".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int gate;
static volatile int go;
static pid_t tids[64];
static int ntids;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *what)
{
	fprintf(stderr, "flightwl: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void wait_gate(void)
{
	char c;

	if (syscall(SYS_read, gate, &c, 1) != 1)
		die("read gate");
}

static void *spinner(void *arg)
{
	cpu_set_t set;
	volatile unsigned long n = 0;

	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	pthread_mutex_lock(&lock);
	tids[ntids++] = (pid_t)syscall(SYS_gettid);
	pthread_mutex_unlock(&lock);
	while (!go)
		usleep(1000);
	for (;;)
		n++;
	return NULL;
}

int main(int argc, char **argv)
{
	char tmp[4096], text[2048];
	size_t len;
	long n;
	FILE *f;
	int i;

	if (argc != 5)
		return 2;
	n = atol(argv[4]);
	gate = open(argv[2], O_RDWR);
	if (gate < 0)
		die(argv[2]);
	if (!strcmp(argv[3], "runq")) {
		pthread_t th;

		for (i = 0; i < n && i < 64; i++)
			if (pthread_create(&th, NULL, spinner, NULL))
				die("pthread_create");
		while (1) {
			pthread_mutex_lock(&lock);
			i = ntids;
			pthread_mutex_unlock(&lock);
			if (i >= n)
				break;
			usleep(1000);
		}
	}
	len = (size_t)snprintf(text, sizeof(text), "%d", (int)getpid());
	for (i = 0; i < ntids && len < sizeof(text) - 16; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, " %d", (int)tids[i]);
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) || rename(tmp, argv[1]))
		die("ready");
	wait_gate();
	if (!strcmp(argv[3], "kills")) {
		unsigned long long t0 = mono_ns(), t1;

		for (i = 0; i < n; i++)
			syscall(SYS_kill, 999999, 0);
		t1 = mono_ns();
		len = (size_t)snprintf(text, sizeof(text), "%llu %llu\n", t0, t1);
		if (write(1, text, len) != (ssize_t)len)
			die("write");
	} else if (!strcmp(argv[3], "runq")) {
		go = 1;
	} else if (!strcmp(argv[3], "flood")) {
		for (;;)
			syscall(SYS_getppid);
	} else if (!strcmp(argv[3], "slow")) {
		for (;;) {
			syscall(SYS_getppid);
			usleep(2000);
		}
	}
	for (;;)
		wait_gate();
}
