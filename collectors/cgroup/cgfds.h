/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGFDS_H
#define KTOP_CGFDS_H

/*
 * collectors/cgroup/cgfds: cgroup files read through descriptors kept open and read
 * again with pread (as collectors/proc/procfs.c reads /proc), within a budget:
 * past it a file is opened and closed each time. For collectors/cgroup/cgfiles.c (the
 * groups' cgroups) and collectors/cgroup/cgcpu.c (the rows' CPU limits).
 */

#include <stddef.h>
#include <sys/types.h>

struct cgfds {
	size_t n, budget;		/* descriptors open; at most */
	unsigned long opens, reads;	/* openat and pread calls since the start */
};

/*
 * cgfds_read - file @name of directory @dir (relative to @dirfd, the
 * hierarchy's mount; "." its root) into @buf (@cap bytes, NUL-terminated),
 * through *@fd: opened when -1, and kept while the budget allows.
 * Returns its length, -ENOENT when the file is not there, -EIO when it
 * cannot be read (a removed cgroup's files read ENODEV: *@fd is closed and
 * -1, opened again next time).
 */
ssize_t cgfds_read(struct cgfds *k, int dirfd, const char *dir, const char *name, int *fd,
		   char *buf, size_t cap);
/* Closes *@fd when open (-1 after). */
void cgfds_close(struct cgfds *k, int *fd);

#endif
