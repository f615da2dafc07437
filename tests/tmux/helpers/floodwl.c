// SPDX-License-Identifier: GPL-2.0-only
/*
 * A system call flood that counts itself, for tests/tmux/views.bats (the
 * process view's counts against the flood's own).
 *
 *     floodwl PIDFILE SECONDS
 *
 * Writes its pid to PIDFILE (via PIDFILE.tmp and rename), waits for SIGUSR1,
 * pins itself to the first CPU it may run on, then calls getppid (raw
 * syscall(2): nothing else in the loop) for SECONDS, reading the clock (vDSO,
 * no system call) every 256 calls. Then writes the number of getppid calls to
 * PIDFILE.count and sleeps until killed, alive, so its view stays open.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int write_file(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		return -1;
	return rename(tmp, path);
}

int main(int argc, char **argv)
{
	char buf[4096];
	uint64_t calls = 0, end;
	cpu_set_t set;
	sigset_t usr1;
	int sig, cpu;

	if (argc != 3) {
		fprintf(stderr, "usage: floodwl PIDFILE SECONDS\n");
		return 2;
	}
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (write_file(argv[1], buf))
		return 1;
	if (sigwait(&usr1, &sig))
		return 1;
	if (!sched_getaffinity(0, sizeof(set), &set)) {
		for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
			;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	end = now_ns() + (uint64_t)(atof(argv[2]) * 1e9);
	do {
		int i;

		for (i = 0; i < 256; i++)
			syscall(SYS_getppid);
		calls += 256;
	} while (now_ns() < end);
	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)calls);
	snprintf(buf + 2048, 2048, "%s.count", argv[1]);
	if (write_file(buf + 2048, buf))
		return 1;
	for (;;)
		pause();
}
