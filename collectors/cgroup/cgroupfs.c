// SPDX-License-Identifier: GPL-2.0-only
#include "cgroupfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads @fd into @buf until end of file or @cap bytes: the count, or -errno. */
static ssize_t read_upto(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;

	while (n < cap) {
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

int cgroupfs_read(int dirfd, const char *rel, char *out, size_t cap)
{
	char name[256], small[4096], *buf = small, *nl;
	ssize_t n, more;
	int fd, ret;

	if (cap)
		out[0] = '\0';
	if ((size_t)snprintf(name, sizeof(name), "%s/cgroup", rel) >= sizeof(name))
		return -ENAMETOOLONG;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read_upto(fd, small, sizeof(small));
	/* Nearly always all of it; a file of long paths goes on in a bigger buffer. */
	if (n == (ssize_t)sizeof(small)) {
		buf = malloc(CGROUP_FILE_MAX);
		if (!buf) {
			close(fd);
			return -ENOMEM;
		}
		memcpy(buf, small, sizeof(small));
		more = read_upto(fd, buf + n, CGROUP_FILE_MAX - (size_t)n);
		n = more < 0 ? more : n + more;
		/* Cut short: a partial last line would be a wrong path. */
		if (n == CGROUP_FILE_MAX) {
			nl = memrchr(buf, '\n', (size_t)n);
			n = nl ? nl + 1 - buf : 0;
		}
	}
	close(fd);
	ret = n < 0 ? (int)n : cgroup_parse_proc(buf, (size_t)n, out, cap);
	if (buf != small)
		free(buf);
	return ret;
}

/* Is "field:TYPE NAME;" of @name in the format text @fmt? */
static bool format_has_field(const char *fmt, const char *name)
{
	const char *p = fmt, *semi, *s;
	size_t k = strlen(name);

	while ((p = strstr(p, "field:")) != NULL) {
		p += strlen("field:");
		semi = strchr(p, ';');
		if (!semi)
			break;
		/* The name is the last word before the ';' ("__data_loc char[] dst_path"). */
		s = semi;
		while (s > p && s[-1] != ' ' && s[-1] != '\t')
			s--;
		if ((size_t)(semi - s) == k && memcmp(s, name, k) == 0)
			return true;
		p = semi;
	}
	return false;
}

int cgroupfs_attach_event(const char *tracing_dir)
{
	static const char *const fields[] = { "pid", "dst_root", "dst_path" };
	char path[512], fmt[8192];
	ssize_t n;
	size_t i;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/events/cgroup/cgroup_attach_task/format",
			     tracing_dir) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	n = read_upto(fd, fmt, sizeof(fmt) - 1);
	close(fd);
	if (n < 0)
		return (int)n;
	fmt[n] = '\0';
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!format_has_field(fmt, fields[i]))
			return 0;
	return 1;
}
