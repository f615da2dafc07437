// SPDX-License-Identifier: GPL-2.0-only
#include "clocks.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "procfs.h"

/* The machine whose 32-bit programs use its own numbers (x32): not compat. */
#ifdef __x86_64__
#define NATIVE_EM EM_X86_64
#else
#define NATIVE_EM EM_NONE
#endif

ssize_t read_small_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (!size)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int exe_compat(pid_t pid)
{
	unsigned char h[20];
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	n = pread(fd, h, sizeof(h), 0);
	close(fd);
	if (n < 0)
		return -1;
	/* A 32-bit machine has no compat ABI. */
	return sizeof(long) == 8 ? parse_elf_compat(h, (size_t)n, NATIVE_EM) : 0;
}

uint64_t now_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double now_wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
