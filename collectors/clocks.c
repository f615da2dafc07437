// SPDX-License-Identifier: GPL-2.0-only
#include "clocks.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc/procfs.h"
#include "system/sysparse.h"

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
	return sizeof(long) == 8 ? procfs_parse_elf_compat(h, (size_t)n, NATIVE_EM) : 0;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t clocks_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t clocks_thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

double clocks_wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define DEBUGFS "/sys/kernel/debug"
#define SCHED_DEBUG DEBUGFS "/sched/debug"
/* The header is all that is read: the per-CPU run queues follow it. */
#define SCHED_DEBUG_HEAD 2048

/*
 * In a child: debugfs mounted in a mount namespace of its own, made private
 * first so that nothing propagates back; its header written to @fd. Only
 * system calls: the parent may have threads. (A change of propagation
 * ignores source and type: "none", not NULL, which valgrind takes for a
 * string it cannot read.) tests/cli/helpers/ktopcheck.py strace_sandbox
 * allows this child exactly these calls.
 */
static void __attribute__((noreturn)) read_privately(int fd)
{
	char buf[SCHED_DEBUG_HEAD];
	ssize_t n;
	int in;

	if (unshare(CLONE_NEWNS) || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("debugfs", DEBUGFS, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		_exit(1);
	in = open(SCHED_DEBUG, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		_exit(1);
	n = read(in, buf, sizeof(buf));
	if (n > 0 && write(fd, buf, (size_t)n) != n)
		_exit(1);
	close(fd);
	_exit(0);
}

/* The first SCHED_DEBUG_HEAD bytes of sched/debug, from a private mount of debugfs. */
static ssize_t read_sched_debug_privately(char *buf, size_t size)
{
	ssize_t n = 0, r;
	int p[2], st;
	pid_t pid;

	if (geteuid() != 0 || pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		close(p[0]);
		read_privately(p[1]);
	}
	close(p[1]);
	while ((size_t)n < size - 1 && ((r = read(p[0], buf + n, size - 1 - (size_t)n)) > 0 ||
					(r < 0 && errno == EINTR)))
		n += r > 0 ? r : 0;
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	buf[n] = '\0';
	return n;
}

int sched_clock_stable(char *why, size_t whylen)
{
	char buf[SCHED_DEBUG_HEAD + 1];
	ssize_t n = read_small_file(SCHED_DEBUG, buf, sizeof(buf));
	int ret;

	if (n <= 0)
		n = read_sched_debug_privately(buf, sizeof(buf));
	ret = n > 0 ? sysparse_sched_clock_stable(buf, (size_t)n) : -1;
	if (ret < 0) {
		snprintf(why, whylen, "sched_clock's stability unknown: no debugfs sched/debug");
		return -1;
	}
	snprintf(why, whylen, "sched_clock %s", ret ? "stable" : "unstable");
	return ret;
}
