// SPDX-License-Identifier: GPL-2.0-only
#include "cgfds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* A directory and a file name: a cgroup path (PATH_MAX) and "memory.limit_in_bytes". */
#define CGFDS_REL_MAX 4200

ssize_t cgfds_read(struct cgfds *k, int dirfd, const char *dir, const char *name, int *fd,
		   char *buf, size_t cap)
{
	char rel[CGFDS_REL_MAX];
	ssize_t n;
	int f = *fd;

	if (f < 0) {
		if ((size_t)snprintf(rel, sizeof(rel), "%s/%s", dir, name) >= sizeof(rel))
			return -EIO;
		f = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			return errno == ENOENT ? -ENOENT : -EIO;
		k->opens++;
		if (k->n < k->budget) {
			*fd = f;
			k->n++;
		}
	}
	n = pread(f, buf, cap - 1, 0);
	k->reads++;
	if (*fd != f)
		close(f);
	if (n < 0) {
		cgfds_close(k, fd);
		return -EIO;
	}
	buf[n] = '\0';
	return n;
}

void cgfds_close(struct cgfds *k, int *fd)
{
	if (*fd < 0)
		return;
	close(*fd);
	*fd = -1;
	k->n--;
}
