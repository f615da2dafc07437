// SPDX-License-Identifier: GPL-2.0-only
/*
 * Short-lived processes with known numbers, for tests/cli/exits.bats (dead
 * processes' rows against what the processes say of themselves).
 *
 *   burn one MS PAGES OUT [THREADS]
 *                             burn MS ms of CPU, touch PAGES new pages, then
 *                             append "pid cpu_us minflt majflt" (getrusage
 *                             RUSAGE_SELF, the last thing it does) to OUT and
 *                             exit; with THREADS, as many threads burn MS ms
 *                             each too (joined first: their time is in it)
 *   burn loop N EVERY_MS PROG MS PAGES OUT [THREADS]
 *                             run "PROG one MS PAGES OUT" N times, one every
 *                             EVERY_MS ms (PROG: this program under another
 *                             name, so that its children's comm is PROG's),
 *                             reaping each; exit 0 if every child exited 0
 *   burn name NAME            rename itself NAME (prctl PR_SET_NAME), make a
 *                             few calls, exit: a short-lived process whose
 *                             last name is not its program's
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long cpu_us(const struct rusage *ru)
{
	return (long)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000L +
	       ru->ru_utime.tv_usec + ru->ru_stime.tv_usec;
}

/* Burn @arg ms of this thread's CPU. */
static void *burn_thread(void *arg)
{
	long ms = (long)arg;
	struct timespec ts;
	volatile unsigned long x = 0;
	long i;

	do {
		for (i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1000L + ts.tv_nsec / 1000000L < ms);
	return NULL;
}

static int one(long ms, long pages, const char *out, long nthreads)
{
	pthread_t th[64];
	struct rusage ru;
	volatile unsigned long x = 0;
	char line[128];
	long page = sysconf(_SC_PAGESIZE), i;
	char *mem;
	int fd, n;

	fd = open(out, O_WRONLY | O_APPEND | O_CREAT, 0666);
	if (fd < 0)
		return 1;
	/* Every page the last steps touch, touched now: the report is the total. */
	getrusage(RUSAGE_SELF, &ru);
	n = snprintf(line, sizeof(line), "%d %ld %ld %ld\n", (int)getpid(), cpu_us(&ru),
		     ru.ru_minflt, ru.ru_majflt);
	if (write(fd, line, 0) < 0)
		return 1;
	x = *(volatile const unsigned char *)(void *)_exit;
	mem = mmap(NULL, (size_t)(pages * page + page), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	for (i = 0; i < pages; i++)
		mem[i * page] = 1;
	for (i = 0; i < nthreads && i < 64; i++)
		if (pthread_create(&th[i], NULL, burn_thread, (void *)ms))
			return 1;
	while (i--)
		pthread_join(th[i], NULL);
	do {
		for (i = 0; i < 100000; i++)
			x += (unsigned long)i;
		getrusage(RUSAGE_SELF, &ru);
	} while (cpu_us(&ru) < ms * 1000);
	getrusage(RUSAGE_SELF, &ru);
	n = snprintf(line, sizeof(line), "%d %ld %ld %ld\n", (int)getpid(), cpu_us(&ru),
		     ru.ru_minflt, ru.ru_majflt);
	_exit(write(fd, line, (size_t)n) == n ? 0 : 1);
}

static int loop(long n, long every_ms, char **prog_args)
{
	struct timespec next;
	int bad = 0, st;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) {
			execv(prog_args[0], prog_args);
			_exit(127);
		}
		next.tv_nsec += every_ms * 1000000L;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		/* Reap whatever ended while waiting for the next start. */
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL))
			;
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	while (wait(&st) > 0)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "name")) {
		if (prctl(PR_SET_NAME, argv[2], 0, 0, 0))
			return 1;
		return getppid() > 0 && getpid() > 0 ? 0 : 1;
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "one"))
		return one(atol(argv[2]), atol(argv[3]), argv[4], argc == 6 ? atol(argv[5]) : 0);
	if ((argc == 8 || argc == 9) && !strcmp(argv[1], "loop")) {
		char *args[] = { argv[4], "one", argv[5], argv[6], argv[7], argc == 9 ? argv[8] : NULL,
				 NULL };

		return loop(atol(argv[2]), atol(argv[3]), args);
	}
	fprintf(stderr, "usage: burn one MS PAGES OUT [THREADS] | "
		"burn loop N EVERY_MS PROG MS PAGES OUT [THREADS] | burn name NAME\n");
	return 2;
}
