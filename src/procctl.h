/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROCCTL_H
#define KTOP_PROCCTL_H

/*
 * Acting on a process the user picked: send it a signal, change its nice value.
 * The process is named by pid and start time, so a pid reused since it was shown
 * is never hit: the pid is pinned with a pidfd, then its start time checked.
 */

#include <stdint.h>
#include <sys/types.h>

/* Send @sig. 0 or -errno (-ESRCH: gone, or the pid now belongs to another process). */
int proc_signal(pid_t pid, uint64_t starttime, int sig);
/* Set the nice value of @pid (a thread in thread mode) to @nice. 0 or -errno. */
int proc_renice(pid_t pid, uint64_t starttime, int nice);
/*
 * The environment of @pid (/proc/PID/environ: NUL-separated), its first @cap
 * bytes into @buf. The bytes read, or -errno (-ESRCH: gone or another process).
 */
ssize_t proc_environ(pid_t pid, uint64_t starttime, char *buf, size_t cap);

#endif
