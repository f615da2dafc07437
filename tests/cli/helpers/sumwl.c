// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workloads with a known number of each system call, for tests/cli/summary.bats
 * (ktop --summary against strace -c -f). Every call is made with syscall(2) or
 * a libc wrapper that makes exactly one, and nothing depends on timing.
 *
 *   sumwl mix              3 children (fork): each 50 getppid, 20 openat of a
 *                          missing file, 10 write to /dev/null, _exit(child
 *                          number); the parent reaps them and makes 30 failed
 *                          access calls
 *   sumwl sleep N MS       N clock_nanosleep of MS milliseconds
 *   sumwl gate FIFO N      read one byte from FIFO, then N openat of a missing
 *                          file, exit 0 (for -p: blocked until ktop watches)
 *   sumwl threads T N      T threads, each N getppid; joined
 *   sumwl exit CODE        exit with CODE
 *   sumwl listmount N      N listmount calls with a NULL request: each fails
 *                          at once (EFAULT; ENOSYS before Linux 6.8). A call
 *                          newer than Debian 12's headers; exits 3 where its
 *                          number is not known here
 *   sumwl abi N [PROG ARG...]
 *                          N getppid, N open of a missing file (ENOENT), N
 *                          getcwd into 1 byte (ERANGE); then, with PROG, fork
 *                          a child that executes PROG ARG... and reap it. Built
 *                          with gcc -m32 too (summary.bats): a 32-bit program's
 *                          calls, whose numbers are i386's (open 5, getppid 64,
 *                          getcwd 183), and a 64-bit parent of a 32-bit child
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MISSING "/nonexistent/ktop-sumwl"

static void child(int i)
{
	int k, fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);

	for (k = 0; k < 50; k++)
		syscall(SYS_getppid);
	for (k = 0; k < 20; k++)
		syscall(SYS_openat, AT_FDCWD, MISSING, O_RDONLY);
	for (k = 0; k < 10; k++)
		syscall(SYS_write, fd, "x", 1);
	syscall(SYS_exit_group, i);
}

static int mix(void)
{
	int i, st;

	for (i = 1; i <= 3; i++) {
		pid_t p = (pid_t)syscall(SYS_fork);

		if (p == 0)
			child(i);
		if (p < 0)
			return 1;
		/* One at a time: the parent's calls do not depend on the children's timing. */
		if (syscall(SYS_wait4, p, &st, 0, NULL) != p)
			return 1;
	}
	for (i = 0; i < 30; i++)
		syscall(SYS_access, MISSING, F_OK);
	return 0;
}

static int nap(int n, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	int i;

	for (i = 0; i < n; i++)
		syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL);
	return 0;
}

static int gate(const char *fifo, int n)
{
	char c;
	int i, fd = open(fifo, O_RDONLY);

	if (fd < 0 || read(fd, &c, 1) != 1)
		return 1;
	for (i = 0; i < n; i++)
		syscall(SYS_openat, AT_FDCWD, MISSING, O_RDONLY);
	return 0;
}

/*
 * listmount's number: the C library's, or the one of the kernel's tables
 * (data/syscalls: 458 in x86_64.tbl and in generic.tbl, which aarch64,
 * riscv64 and loongarch64 use).
 */
#if defined(SYS_listmount)
#define NR_LISTMOUNT SYS_listmount
#elif (defined(__x86_64__) && !defined(__ILP32__)) || defined(__aarch64__) || \
	(defined(__riscv) && __riscv_xlen == 64) || defined(__loongarch64)
#define NR_LISTMOUNT 458
#endif

static int listmount(int n)
{
#ifdef NR_LISTMOUNT
	int i;

	for (i = 0; i < n; i++)
		syscall(NR_LISTMOUNT, NULL, NULL, 0, 0);
	return 0;
#else
	(void)n;
	fprintf(stderr, "sumwl: listmount's number is not known for this architecture\n");
	return 3;
#endif
}

static int abi(int n, char **prog)
{
	char c;
	int i, st;
	pid_t p;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	for (i = 0; i < n; i++)
		syscall(SYS_open, MISSING, O_RDONLY);
	for (i = 0; i < n; i++)
		syscall(SYS_getcwd, &c, 1);
	if (!prog[0])
		return 0;
	p = (pid_t)syscall(SYS_fork);
	if (p == 0) {
		execv(prog[0], prog);
		_exit(127);
	}
	if (p < 0 || syscall(SYS_wait4, p, &st, 0, NULL) != p)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int per_thread;

static void *worker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < per_thread; i++)
		syscall(SYS_getppid);
	return NULL;
}

static int threads(int t, int n)
{
	pthread_t th[64];
	int i;

	per_thread = n;
	if (t > 64)
		t = 64;
	for (i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, worker, NULL))
			return 1;
	for (i = 0; i < t; i++)
		pthread_join(th[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	if (!strcmp(m, "mix"))
		return mix();
	if (!strcmp(m, "sleep") && argc == 4)
		return nap(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(m, "gate") && argc == 4)
		return gate(argv[2], atoi(argv[3]));
	if (!strcmp(m, "threads") && argc == 4)
		return threads(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(m, "exit") && argc == 3)
		return atoi(argv[2]);
	if (!strcmp(m, "listmount") && argc == 3)
		return listmount(atoi(argv[2]));
	if (!strcmp(m, "abi") && argc >= 3)
		return abi(atoi(argv[2]), argv + 3);
	fprintf(stderr, "usage: sumwl mix | sleep N MS | gate FIFO N | threads T N | exit CODE |"
		" listmount N | abi N [PROG ARG...]\n");
	return 2;
}
