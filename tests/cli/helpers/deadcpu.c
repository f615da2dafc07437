// SPDX-License-Identifier: GPL-2.0-only
/*
 * Children whose CPU time the kernel counts partly after their exit record,
 * reaped with wait4, for tests/cli/deadcpu.bats (dead processes' cpu_s against
 * what wait4 says of them).
 *
 *   deadcpu kids N MIB MS EVERY_MS OUT
 *                       fork N children, one every EVERY_MS ms: the even ones
 *                       touch MIB MiB and exit (the exit frees them: work the
 *                       kernel does after the exit record), the odd ones spin
 *                       MS ms of the monotonic clock (no system call: the
 *                       scheduler's runtime is not brought up to date before
 *                       the exit) and exit; each is reaped with wait4, its
 *                       "pid cpu_us" (rusage utime + stime) appended to OUT
 *   deadcpu zombie MIB DELAY_MS OUT
 *                       fork one child that touches MIB MiB and exits, reap
 *                       it DELAY_MS ms later (a zombie until then), append its
 *                       "pid cpu_us" to OUT
 *
 * Exits 0 when every child exited 0 and every line was written.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static char *touch(long mib)
{
	long page = sysconf(_SC_PAGESIZE), len = mib << 20, i;
	char *mem = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		_exit(1);
	for (i = 0; i < len; i += page)
		mem[i] = 1;
	return mem;
}

static void spin(long ms)
{
	volatile unsigned long x = 0;
	long end = now_ms() + ms, i;

	while (now_ms() < end)
		for (i = 0; i < 10000; i++)
			x += (unsigned long)i;
}

/*
 * Reap @pid (any child: -1), append its "pid cpu_us" to @fd: its pid, 0 (none
 * ended, WNOHANG), -1 (no child left) or -2 (it failed, or the line did not go).
 */
static int reap(pid_t pid, int fd, int flags)
{
	struct rusage ru;
	char line[64];
	int st, n;

	pid = wait4(pid, &st, flags, &ru);
	if (pid <= 0)
		return pid;
	n = snprintf(line, sizeof(line), "%d %ld\n", (int)pid,
		     (long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
		     ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	if (write(fd, line, (size_t)n) != n || !WIFEXITED(st) || WEXITSTATUS(st))
		return -2;
	return pid;
}

static int kids(long n, long mib, long ms, long every_ms, int fd)
{
	long next, i;
	int bad = 0, r;

	/*
	 * The memory the children touch, touched once and freed: on a virtual
	 * machine that gives free memory back to its host, a page's first touch
	 * waits for the host, time the kernel counts as stolen, not the task's.
	 */
	munmap(touch(mib), (size_t)mib << 20);
	next = now_ms();
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) {
			if (i % 2)
				spin(ms);
			else
				(void)touch(mib);
			_exit(0);
		}
		next += every_ms;
		while (now_ms() < next) {
			usleep(5000);
			while ((r = reap(-1, fd, WNOHANG)) != 0 && r != -1)
				bad |= r == -2;
		}
	}
	while ((r = reap(-1, fd, 0)) != -1)
		bad |= r == -2;
	return bad;
}

static int zombie(long mib, long delay_ms, int fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (!pid) {
		(void)touch(mib);
		_exit(0);
	}
	usleep((useconds_t)delay_ms * 1000);
	return reap(pid, fd, 0) != pid;
}

int main(int argc, char **argv)
{
	const char *out = argc > 2 ? argv[argc - 1] : NULL;
	int fd = out ? open(out, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;

	if (argc == 7 && !strcmp(argv[1], "kids") && fd >= 0)
		return kids(atol(argv[2]), atol(argv[3]), atol(argv[4]), atol(argv[5]), fd);
	if (argc == 5 && !strcmp(argv[1], "zombie") && fd >= 0)
		return zombie(atol(argv[2]), atol(argv[3]), fd);
	fprintf(stderr, "usage: deadcpu kids N MIB MS EVERY_MS OUT | deadcpu zombie MIB DELAY_MS OUT\n");
	return 2;
}
