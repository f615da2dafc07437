// SPDX-License-Identifier: GPL-2.0-only
#include "hostfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Root, or ktop's user: who may have written what ktop shows. */
static bool owner_ok(uid_t u)
{
	return u == 0 || u == geteuid();
}

/* A directory nobody else could have put an entry in, or swapped one of (sticky). */
static bool dir_ok(const struct stat *sb)
{
	return S_ISDIR(sb->st_mode) && owner_ok(sb->st_uid) &&
	       (!(sb->st_mode & (S_IWGRP | S_IWOTH)) || (sb->st_mode & S_ISVTX));
}

/* A file nobody else wrote: one name (no link to a file kept elsewhere). */
static bool file_ok(const struct stat *sb)
{
	return S_ISREG(sb->st_mode) && owner_ok(sb->st_uid) && sb->st_nlink == 1 &&
	       !(sb->st_mode & (S_IWGRP | S_IWOTH));
}

/* Without openat2 (before Linux 5.6): one component at a time, no link at all. */
static int walk_nofollow(int rootfd, char *path)
{
	char *comp, *save = NULL;
	int fd = openat(rootfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC), next;

	for (comp = strtok_r(path, "/", &save); comp && fd >= 0; comp = strtok_r(NULL, "/", &save)) {
		if (!strcmp(comp, "..")) {
			close(fd);
			errno = EPERM;
			return -1;
		}
		next = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	return fd;
}

/* The directory @path (relative), resolved as if @rootfd were "/". */
static int dir_in_root(int rootfd, char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (!*path)
		return openat(rootfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return (int)fd;
	return walk_nofollow(rootfd, path);
}

/*
 * @rel's last component, opened with @flags under its directory resolved
 * inside @root, with no link followed at the last component; checked with
 * @ok (and its directory with dir_ok when @check_dir). -1 with errno.
 */
static int open_checked(const char *root, const char *rel, int flags, bool check_dir,
			bool (*ok)(const struct stat *))
{
	char path[PATH_MAX];
	const char *last;
	struct stat sb, again;
	int rootfd, dirfd = -1, pfd = -1, fd = -1, e;
	char *slash;

	if ((size_t)snprintf(path, sizeof(path), "%s", rel) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	slash = strrchr(path, '/');
	if (slash) {
		*slash = '\0';
		last = slash + 1;
	} else {
		last = rel;
		path[0] = '\0';
	}
	if (!*last || !strcmp(last, ".") || !strcmp(last, "..")) {
		errno = EINVAL;
		return -1;
	}
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -1;
	dirfd = dir_in_root(rootfd, path);
	if (dirfd < 0)
		goto out;
	if (check_dir && (fstat(dirfd, &sb) || !dir_ok(&sb)))
		goto refused;
	/* Looked at before it is opened: a FIFO or a device is never opened. */
	pfd = openat(dirfd, last, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		goto out;
	if (fstat(pfd, &sb) || !ok(&sb))
		goto refused;
	fd = openat(dirfd, last, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		goto out;
	if (fstat(fd, &again) || again.st_dev != sb.st_dev || again.st_ino != sb.st_ino) {
		close(fd);
		fd = -1;
		goto refused;
	}
	goto out;
refused:
	errno = EPERM;
out:
	e = errno;
	if (pfd >= 0)
		close(pfd);
	if (dirfd >= 0)
		close(dirfd);
	close(rootfd);
	errno = e;
	return fd;
}

int hostfile_open(const char *root, const char *rel)
{
	return open_checked(root, rel, O_RDONLY, true, file_ok);
}

DIR *hostfile_opendir(const char *root, const char *rel)
{
	int fd = open_checked(root, rel, O_RDONLY | O_DIRECTORY, false, dir_ok);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}
