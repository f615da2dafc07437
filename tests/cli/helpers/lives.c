// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two lives of one pid, for tests/cli/pidreuse.bats: each its own calls,
 * faults and CPU, measured here as the outside truth.
 *
 *	lives GATE GAP_MS
 *
 * Waits for a byte on the FIFO GATE, then forks life A ("life-a": touches
 * 3000 pages, spins 80M rounds (some 50 ms of CPU), 1000 getppid calls,
 * exit 3) and reaps it; GAP_MS later gives its pid to life B ("life-b": 1000
 * pages, 160M rounds, 2000 getppid, exit 4) with clone3's set_tid, or where
 * the kernel lacks it through /proc/sys/kernel/ns_last_pid (a fork of
 * another process may take the pid then: a child that did not get it exits
 * 99 at once), and reaps it; a pid taken meanwhile by another process is
 * tried again, for 10 s at most. Writes one line a life, from wait4's rusage:
 *
 *	life NAME PID STATUS MINFLT CPU_US START END
 *
 * START and END: the wall clock before its fork and after its reap. Exit 77
 * (skip) when the pid cannot be given again (not root).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct life {
	const char *name;
	int pages;
	unsigned long rounds;	/* of a CPU-bound loop: CPU time, whatever the load */
	int calls, status;
};

static const struct life lives[2] = {
	{ "life-a", 3000, 80000000ul, 1000, 3 },
	{ "life-b", 1000, 160000000ul, 2000, 4 },
};

static double now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The life's work: getpid (B), prctl, mmap, the getppid calls, exit_group. */
static void live(const struct life *l, pid_t want)
{
	long psz = sysconf(_SC_PAGESIZE);
	volatile unsigned long v = 0;
	volatile char *p;
	unsigned long r;
	int i;

	if (want && syscall(SYS_getpid) != want)
		_exit(99);
	prctl(PR_SET_NAME, l->name, 0, 0, 0);
	p = mmap(NULL, (size_t)l->pages * (size_t)psz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	for (i = 0; i < l->pages; i++)
		p[(long)i * psz] = 1;
	for (r = 0; r < l->rounds; r++)
		v += r;
	for (i = 0; i < l->calls; i++)
		syscall(SYS_getppid);
	_exit(l->status);
}

/*
 * Fork @l (as pid @want when not 0). Returns its pid; 0 when another
 * process has @want now; -1 with errno when it cannot be given.
 */
static pid_t start(const struct life *l, pid_t want)
{
	struct clone_args ca;
	char buf[32];
	pid_t pid, tid = want;
	long r;
	int fd, n;

	if (want) {
		memset(&ca, 0, sizeof(ca));
		ca.exit_signal = SIGCHLD;
		ca.set_tid = (uint64_t)(uintptr_t)&tid;
		ca.set_tid_size = 1;
		r = syscall(SYS_clone3, &ca, sizeof(ca));
		if (r == 0)
			live(l, 0);
		if (r > 0)
			return (pid_t)r;
		if (errno == EEXIST)
			return 0;
		if (errno != ENOSYS && errno != EINVAL && errno != E2BIG)
			return -1;
		/* No clone3 set_tid here: the pid next handed out. */
		fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
		if (fd < 0)
			return -1;
		n = snprintf(buf, sizeof(buf), "%d", (int)want - 1);
		if (write(fd, buf, (size_t)n) != n) {
			close(fd);
			return -1;
		}
		close(fd);
	}
	pid = fork();
	if (pid == 0)
		live(l, want);
	return pid;
}

static int report(const struct life *l, pid_t pid, double t0)
{
	struct rusage ru;
	int st;

	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	if (!WIFEXITED(st))
		return -1;
	if (WEXITSTATUS(st) == 99)
		return 1;	/* not the pid wanted: it did nothing */
	printf("life %s %d %d %ld %lld %.6f %.6f\n", l->name, (int)pid, WEXITSTATUS(st),
	       ru.ru_minflt,
	       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
		       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
	       t0, now(CLOCK_REALTIME));
	return 0;
}

int main(int argc, char **argv)
{
	const struct timespec pause = { 0, 10000000 };
	struct timespec gap;
	pid_t a, b;
	double t0;
	int fd, tries, rc;
	char c;

	if (argc != 3)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1)
		return 1;
	t0 = now(CLOCK_REALTIME);
	a = start(&lives[0], 0);
	if (a < 0 || report(&lives[0], a, t0))
		return 1;
	gap.tv_sec = atoi(argv[2]) / 1000;
	gap.tv_nsec = atoi(argv[2]) % 1000 * 1000000L;
	nanosleep(&gap, NULL);
	for (tries = 0; tries < 1000; tries++) {
		t0 = now(CLOCK_REALTIME);
		b = start(&lives[1], a);
		if (b < 0) {
			fprintf(stderr, "pid %d again: %s\n", (int)a, strerror(errno));
			return errno == EPERM || errno == EACCES || errno == ENOENT ? 77 : 1;
		}
		rc = b ? report(&lives[1], b, t0) : 1;
		if (rc <= 0)
			return rc ? 1 : 0;
		/* Another process has the pid: until it is gone. */
		nanosleep(&pause, NULL);
	}
	fprintf(stderr, "pid %d was another process's for 10 s\n", (int)a);
	return 1;
}
