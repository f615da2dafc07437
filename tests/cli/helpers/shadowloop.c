// SPDX-License-Identifier: GPL-2.0-only
/*
 * shadowloop SECONDS: read /etc/shadow over and over for SECONDS (one pass
 * for 0), with a sched_yield each pass: calls a python3 never makes, to tell
 * its lines apart. The tests install it setuid root and run it as a user: it
 * exits 0 only if every open succeeded, i.e. it ran with root's privileges.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1, t;
	struct timespec t0, now;
	char buf[4096];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		int fd = open("/etc/shadow", O_RDONLY);

		if (fd < 0)
			return 1;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		sched_yield();
		usleep(2000);
		clock_gettime(CLOCK_MONOTONIC, &now);
		t = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
	} while (t < secs);
	return 0;
}
