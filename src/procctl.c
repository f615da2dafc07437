// SPDX-License-Identifier: GPL-2.0-only
#include "procctl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../collectors/clocks.h"
#include "../lib/util.h"
#include "../collectors/proc/procfs.h"

/* Is @pid still the process that started at @starttime? 0, or -ESRCH. */
static int same_process(pid_t pid, uint64_t starttime)
{
	char path[64], buf[1024];
	struct pid_stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = read_small_file(path, buf, sizeof(buf));
	if (n <= 0 || procfs_parse_pid_stat(buf, (size_t)n, &st))
		return -ESRCH;
	return !starttime || st.starttime == starttime ? 0 : -ESRCH;
}

int proc_signal(pid_t pid, uint64_t starttime, int sig)
{
	int fd, ret;

	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0) {
		if (errno != ENOSYS && errno != EINVAL)
			return -errno;
		/*
		 * Kernels before 5.3, or a thread (not a leader) in thread mode: the
		 * start time check narrows the race only.
		 */
		ret = same_process(pid, starttime);
		if (!ret && kill(pid, sig))
			ret = -errno;
		return ret;
	}
	/* The pidfd holds the process: if it is the one shown now, it is the one signalled. */
	ret = same_process(pid, starttime);
	if (!ret && syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0))
		ret = -errno;
	close(fd);
	return ret;
}

int proc_renice(pid_t pid, uint64_t starttime, int nice)
{
	int ret = same_process(pid, starttime);

	if (!ret && setpriority(PRIO_PROCESS, (id_t)pid, nice))
		ret = -errno;
	return ret;
}

ssize_t proc_environ(pid_t pid, uint64_t starttime, char *buf, size_t cap)
{
	char path[64];
	size_t len = 0;
	ssize_t n;
	int fd, ret;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	/* Opened: the start time says it is the process shown (a pid reused since is not). */
	ret = same_process(pid, starttime);
	while (!ret && len < cap && (n = read(fd, buf + len, cap - len)) != 0) {
		if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (n > 0)
			len += (size_t)n;
	}
	close(fd);
	return ret ? ret : (ssize_t)len;
}
