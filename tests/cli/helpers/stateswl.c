// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workloads with known state times, for tests/cli/states.bats. Each writes
 * what the kernel says of it (the truth ktop's numbers are checked against)
 * to OUT, as "key value" lines, when done.
 *
 *   stateswl pinned MS OUT     three threads busy for MS ms, all pinned to
 *                              one CPU: run_delay (schedstat) and CPU time
 *                              of the threads and of the process
 *   stateswl vfork N MS OUT    vfork; the child sleeps N times MS ms, then
 *                              _exit: the parent waits in vfork
 *   stateswl sleepexit MS OUT  fork a child that sleeps MS ms and exits;
 *                              its pid and how long it existed: at most
 *                              (the parent, fork to waitpid), at least (the
 *                              child, its first to its last instruction)
 *   stateswl sleeps N MS OUT   fork a child that makes N nanosleep calls of
 *                              MS ms, each timed around the call: its pid,
 *                              the sum of those times, how long it existed
 *   stateswl sleepshere N MS OUT the same calls in this process (no fork): a
 *                              pid known before they start (ktop -p); it
 *                              waits for a line on the fifo GOFIFO, if set
 *                              (no nanosleep of its own before the N);
 *                              the sum and the longest of those times
 *   stateswl burnsleep CPU BURN SLEEP MS OUT  fork a child pinned to
 *                              CPU that burns BURN ms and sleeps SLEEP ms in
 *                              turn for MS ms, after the line on GOFIFO (as
 *                              sleepshere); its pid (written at once), and
 *                              its schedstat (time on a CPU, waiting for
 *                              one) from before it waits for the line to
 *                              its end (read from its zombie)
 *
 * Started with GO set to a file name, each waits until that file exists
 * before working (the test starts ktop first).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static void wait_go(void)
{
	const char *go = getenv("GO");

	while (go && access(go, F_OK))
		sleep_ms(5);
}

/* /proc/thread-self/schedstat: time on a CPU, time runnable waiting (ns). */
static void schedstat(long long *run, long long *delay)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	*run = *delay = -1;
	if (f) {
		if (fscanf(f, "%lld %lld", run, delay) != 2)
			*run = *delay = -1;
		fclose(f);
	}
}

static long busy_ms;
static long long delay_sum, run_sum;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t barrier;
static FILE *tid_out;

static void *busy(void *arg)
{
	long long r0, d0, r1, d1, end;
	volatile unsigned long x = 0;

	(void)arg;
	pthread_barrier_wait(&barrier);
	schedstat(&r0, &d0);
	end = now_ns() + busy_ms * 1000000LL;
	while (now_ns() < end)
		x++;
	schedstat(&r1, &d1);
	pthread_mutex_lock(&lock);
	delay_sum += d1 - d0;
	run_sum += r1 - r0;
	fprintf(tid_out, "tid_run %ld %lld %lld\n", (long)syscall(SYS_gettid), r1 - r0, d1 - d0);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static int pinned(long ms, FILE *out)
{
	pthread_t th[3];
	cpu_set_t set;
	long long r, d, r0, d0;
	unsigned long long ut, st;
	char buf[1024], *p;
	FILE *f;
	int i;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	/* Every thread made after this inherits it: one CPU for all three. */
	if (sched_setaffinity(0, sizeof(set), &set))
		return 1;
	busy_ms = ms;
	tid_out = out;
	schedstat(&r0, &d0);
	pthread_barrier_init(&barrier, NULL, 3);
	for (i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, busy, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	schedstat(&r, &d);
	f = fopen("/proc/self/stat", "r");
	if (!f || !fgets(buf, sizeof(buf), f) || !(p = strrchr(buf, ')')))
		return 1;
	fclose(f);
	/* After ") S": ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return 1;
	/* The main thread's since it began to work; utime+stime since its fork. */
	fprintf(out, "threads_run_delay_ns %lld\nthreads_run_ns %lld\nmain_run_ns %lld\n"
		"main_run_delay_ns %lld\nutime_stime_ticks %llu\nhz %ld\n",
		delay_sum, run_sum, r - r0, d - d0, ut + st, sysconf(_SC_CLK_TCK));
	return 0;
}

static int vfork_wait(int n, long ms, FILE *out)
{
	long long t0 = now_ns(), t1;
	pid_t pid;
	int i, st;

	fflush(out);
	pid = vfork();
	if (pid < 0)
		return 1;
	if (!pid) {
		for (i = 0; i < n; i++)
			sleep_ms(ms);
		_exit(0);
	}
	t1 = now_ns();
	waitpid(pid, &st, 0);
	fprintf(out, "parent %d\nchild %d\nvfork_ns %lld\n", (int)getpid(), (int)pid, t1 - t0);
	return 0;
}

static int sleepexit(long ms, FILE *out)
{
	long long *inner = mmap(NULL, 2 * sizeof(long long), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long t0, t1;
	pid_t pid;
	int st;

	if (inner == MAP_FAILED)
		return 1;
	t0 = now_ns();
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		inner[0] = now_ns();
		sleep_ms(ms);
		inner[1] = now_ns();
		_exit(0);
	}
	waitpid(pid, &st, 0);
	t1 = now_ns();
	fprintf(out, "child %d\nlife_ns %lld\ninner_ns %lld\n", (int)pid, t1 - t0,
		inner[1] - inner[0]);
	return 0;
}

static int sleeps(int n, long ms, FILE *out)
{
	long long *inner = mmap(NULL, sizeof(long long), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long t0, t1;
	pid_t pid;
	int i, st;

	if (inner == MAP_FAILED)
		return 1;
	t0 = now_ns();
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		for (i = 0; i < n; i++) {
			long long a = now_ns();

			nanosleep(&ts, NULL);
			*inner += now_ns() - a;
		}
		_exit(0);
	}
	waitpid(pid, &st, 0);
	t1 = now_ns();
	fprintf(out, "child %d\ninner_ns %lld\nlife_ns %lld\n", (int)pid, *inner, t1 - t0);
	return 0;
}

/* Wait for a line on the fifo GOFIFO, if set. */
static int wait_fifo(void)
{
	const char *fifo = getenv("GOFIFO");
	char c;
	int fd;

	if (!fifo)
		return 0;
	fd = open(fifo, O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1)
		return -1;
	close(fd);
	return 0;
}

static int sleeps_here(int n, long ms, FILE *out)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	long long inner = 0, max = 0;
	int i;

	if (wait_fifo())
		return 1;
	for (i = 0; i < n; i++) {
		long long a = now_ns();

		nanosleep(&ts, NULL);
		a = now_ns() - a;
		inner += a;
		if (a > max)
			max = a;
	}
	fprintf(out, "child %d\ninner_ns %lld\nmax_ns %lld\n", (int)getpid(), inner, max);
	return 0;
}

/* /proc/PID/schedstat of a child that exited, before it is reaped (its whole life). */
static int zombie_schedstat(pid_t pid, long long *run, long long *delay)
{
	char path[64];
	siginfo_t si;
	FILE *f;
	int ok;

	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	ok = f && fscanf(f, "%lld %lld", run, delay) == 2;
	if (f)
		fclose(f);
	waitpid(pid, NULL, 0);
	return ok ? 0 : -1;
}

static int burn_sleep(int cpu, long burn, long nap, long ms, FILE *out)
{
	long long *t0 = mmap(NULL, 2 * sizeof(long long), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long r1, d1;
	pid_t pid;

	if (t0 == MAP_FAILED)
		return 1;
	fflush(out);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		volatile unsigned long x = 0;
		long long end, stop;
		cpu_set_t set;

		/* A test that ends early kills its parent: not left waiting for the go. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(1);
		/* From here, its start-up done, to its end: what ktop sees of it. */
		schedstat(&t0[0], &t0[1]);
		if (wait_fifo())
			_exit(1);
		stop = now_ns() + ms * 1000000LL;
		while (now_ns() < stop) {
			end = now_ns() + burn * 1000000LL;
			while (now_ns() < end)
				x++;
			sleep_ms(nap);
		}
		_exit(0);
	}
	fprintf(out, "child %d\n", (int)pid);
	fflush(out);
	if (zombie_schedstat(pid, &r1, &d1))
		return 1;
	fprintf(out, "run_ns %lld\nrun_delay_ns %lld\n", r1 - t0[0], d1 - t0[1]);
	return 0;
}

int main(int argc, char **argv)
{
	FILE *out;
	int ret;

	if (argc < 4)
		return 2;
	out = fopen(argv[argc - 1], "w");
	if (!out)
		return 2;
	wait_go();
	if (!strcmp(argv[1], "pinned"))
		ret = pinned(atol(argv[2]), out);
	else if (!strcmp(argv[1], "vfork") && argc == 5)
		ret = vfork_wait(atoi(argv[2]), atol(argv[3]), out);
	else if (!strcmp(argv[1], "sleeps") && argc == 5)
		ret = sleeps(atoi(argv[2]), atol(argv[3]), out);
	else if (!strcmp(argv[1], "sleepshere") && argc == 5)
		ret = sleeps_here(atoi(argv[2]), atol(argv[3]), out);
	else if (!strcmp(argv[1], "burnsleep") && argc == 7)
		ret = burn_sleep(atoi(argv[2]), atol(argv[3]), atol(argv[4]), atol(argv[5]), out);
	else if (!strcmp(argv[1], "sleepexit"))
		ret = sleepexit(atol(argv[2]), out);
	else
		ret = 2;
	fprintf(out, "done 1\n");
	fclose(out);
	return ret;
}
