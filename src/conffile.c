// SPDX-License-Identifier: GPL-2.0-only
#include "conffile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int owner_ok(const struct stat *st)
{
	return st->st_uid == 0 || st->st_uid == geteuid();
}

/* Others may write it: refused unless it is root's sticky directory (/tmp). */
static int writable_by_others(const struct stat *st)
{
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	return !(S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX) && st->st_uid == 0);
}

static int refuse(const char *what, const struct stat *st, char *why, size_t n)
{
	if (!owner_ok(st))
		snprintf(why, n, "%.200s is owned by uid %u, not by you or root", what,
			 (unsigned)st->st_uid);
	else
		snprintf(why, n, "%.200s is writable by others (mode %03o)", what,
			 (unsigned)(st->st_mode & 0777));
	return -EPERM;
}

int conf_dir_safe(const char *dir, char *why, size_t n)
{
	char real[PATH_MAX], *slash;
	struct stat st;

	if (!realpath(dir, real)) {
		int err = errno;

		snprintf(why, n, "%.200s: %s", dir, strerror(err));
		return -err;
	}
	/* Every directory from @dir up to /: any of them could swap what is below. */
	for (;;) {
		if (stat(real, &st)) {
			int err = errno;

			snprintf(why, n, "%.200s: %s", real, strerror(err));
			return -err;
		}
		if (!owner_ok(&st) || writable_by_others(&st))
			return refuse(real, &st, why, n);
		slash = strrchr(real, '/');
		if (!slash || slash == real) {
			if (!strcmp(real, "/"))
				return 0;
			real[1] = '\0';	/* then / itself */
			continue;
		}
		*slash = '\0';
	}
}

static int parent_safe(const char *path, char *why, size_t n)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		return conf_dir_safe(".", why, n);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash == path ? 1 : slash - path), path);
	return conf_dir_safe(dir, why, n);
}

ssize_t conf_read(const char *path, char *buf, size_t size, int strict, char *why, size_t n)
{
	struct stat st;
	ssize_t len;
	int fd, err;

	if (!size)
		return -EINVAL;
	/* O_NONBLOCK: a FIFO opens at once (then is refused) instead of waiting for a writer. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		if (err == ELOOP)
			snprintf(why, n, "%.200s is a symbolic link: not followed", path);
		else
			snprintf(why, n, "%.200s: %s", path, strerror(err));
		return -err;
	}
	if (fstat(fd, &st)) {
		err = errno;
		snprintf(why, n, "%.200s: %s", path, strerror(err));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = EINVAL;
		snprintf(why, n, "%.200s is not a regular file", path);
		goto fail;
	}
	if (strict && (!owner_ok(&st) || writable_by_others(&st))) {
		err = -refuse(path, &st, why, n);
		goto fail;
	}
	if (strict && (err = -parent_safe(path, why, n)))
		goto fail;
	len = read(fd, buf, size - 1);
	if (len < 0) {
		err = errno;
		snprintf(why, n, "%.200s: %s", path, strerror(err));
		goto fail;
	}
	close(fd);
	buf[len] = '\0';
	return len;
fail:
	close(fd);
	return -err;
}

int conf_write(const char *path, const char *text, size_t len, char *why, size_t n)
{
	char tmp[PATH_MAX];
	int fd, err;

	err = parent_safe(path, why, n);
	if (err)
		return err;
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp)) {
		snprintf(why, n, "%.200s: %s", path, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	/* mkstemp: O_CREAT|O_EXCL, a fresh name: nothing planted there is followed. */
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		snprintf(why, n, "%.200s: %s", tmp, strerror(err));
		return -err;
	}
	errno = 0;
	if (fchmod(fd, 0644) || write(fd, text, len) != (ssize_t)len || fsync(fd)) {
		err = errno ? errno : EIO;
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		err = errno;
		goto fail;
	}
	fd = -1;
	/* rename() replaces the name itself: a symlink at @path is replaced, not followed. */
	if (rename(tmp, path)) {
		err = errno;
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	snprintf(why, n, "%.200s: %s", path, strerror(err));
	return -err;
}

int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}
