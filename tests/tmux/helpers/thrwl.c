// SPDX-License-Identifier: GPL-2.0-only
/*
 * A process of five threads in known states, for tests/tmux/inprog.bats.
 *
 *     thrwl PIDFILE OUT
 *
 *   wl-busy    spins: on a CPU or waiting for one, never asleep
 *   wl-sleep   nanosleep of an hour: asleep (S) all the time
 *   wl-vfork   vfork, its child sleeps 60 s and _exits: the thread waits in
 *              vfork, blocked (D: TASK_KILLABLE) all the time
 *   wl-reader  reads 1 byte from a pipe, in a loop: each read blocks until
 *              the main thread writes, every 2 s; the time of each read
 *              (clock_gettime around the call) is appended to OUT as
 *              "read FD NS"
 *   main       nanosleep 2 s, write 1 byte, in a loop
 *
 * Writes "PID BUSY SLEEP VFORK READER FD" (the thread ids, the pipe's read
 * end) to PIDFILE (via PIDFILE.tmp and rename) once every thread runs. Dies
 * with its parent (PR_SET_PDEATHSIG), and so does the vfork child with its
 * thread. Raw syscall(2) for the calls the tests look for.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pid_t tids[4];
static int fds[2];
static const char *out;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	syscall(SYS_nanosleep, &ts, NULL);
}

static void *busy(void *arg)
{
	(void)arg;
	__atomic_store_n(&tids[0], (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	pthread_setname_np(pthread_self(), "wl-busy");
	for (;;)
		__asm__ volatile("" ::: "memory");
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	__atomic_store_n(&tids[1], (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	pthread_setname_np(pthread_self(), "wl-sleep");
	for (;;)
		nap(3600 * 1000L);
	return NULL;
}

static void *vforker(void *arg)
{
	(void)arg;
	__atomic_store_n(&tids[2], (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	pthread_setname_np(pthread_self(), "wl-vfork");
	for (;;) {
		pid_t c = vfork();

		if (c == 0) {
			/* The child shares the memory: system calls only, then _exit. */
			syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			nap(60 * 1000L);
			_exit(0);
		}
		if (c < 0)
			nap(1000);
	}
	return NULL;
}

static void *reader(void *arg)
{
	char b;

	(void)arg;
	__atomic_store_n(&tids[3], (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	pthread_setname_np(pthread_self(), "wl-reader");
	for (;;) {
		long long t0 = now_ns(), t1;
		long n = syscall(SYS_read, fds[0], &b, 1);
		FILE *f;

		t1 = now_ns();
		if (n != 1)
			continue;
		f = fopen(out, "a");
		if (f) {
			fprintf(f, "read %d %lld\n", fds[0], t1 - t0);
			fclose(f);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*fn[4])(void *) = { busy, sleeper, vforker, reader };
	char tmp[4096];
	pthread_t th;
	FILE *f;
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: thrwl PIDFILE OUT\n");
		return 2;
	}
	out = argv[2];
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (pipe(fds))
		return 1;
	for (i = 0; i < 4; i++)
		if (pthread_create(&th, NULL, fn[i], NULL))
			return 1;
	for (i = 0; i < 4; i++)
		while (!__atomic_load_n(&tids[i], __ATOMIC_SEQ_CST))
			nap(10);
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	fprintf(f, "%d %d %d %d %d %d\n", (int)getpid(), (int)tids[0], (int)tids[1], (int)tids[2],
		(int)tids[3], fds[0]);
	fclose(f);
	if (rename(tmp, argv[1]))
		return 1;
	for (;;) {
		nap(2000);
		if (syscall(SYS_write, fds[1], "x", 1) != 1)
			return 1;
	}
}
