// SPDX-License-Identifier: GPL-2.0-only
#include "creds.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

int64_t creds_owner(int dirfd, const char *rel)
{
	struct stat sb;

	return fstatat(dirfd, rel, &sb, 0) == 0 ? (int64_t)sb.st_uid : -1;
}

static bool starts(const char *s, size_t len, const char *prefix, size_t *plen)
{
	*plen = strlen(prefix);
	return len > *plen && !memcmp(s, prefix, *plen);
}

/*
 * Where @file is for process @pid, as a path ktop can look up: its own names
 * (/proc/self, /dev/fd) are its /proc entries, other absolute names are under
 * its root (a chroot, a container), relative ones under its working directory.
 * Returns false when the name cannot be placed (/proc/thread-self: which thread).
 */
static bool exec_path(char *out, size_t n, pid_t pid, const char *file, size_t len)
{
	size_t p;
	int w;

	if (starts(file, len, "/proc/self/", &p))
		w = snprintf(out, n, "/proc/%d/%.*s", (int)pid, (int)(len - p), file + p);
	else if (starts(file, len, "/dev/fd/", &p))
		w = snprintf(out, n, "/proc/%d/fd/%.*s", (int)pid, (int)(len - p), file + p);
	else if (starts(file, len, "/proc/thread-self/", &p))
		return false;
	else if (file[0] == '/')
		w = snprintf(out, n, "/proc/%d/root%.*s", (int)pid, (int)len, file);
	else
		w = snprintf(out, n, "/proc/%d/cwd/%.*s", (int)pid, (int)len, file);
	return w > 0 && (size_t)w < n;
}

bool creds_exec_ordinary(pid_t pid, const char *file, size_t len, uid_t uid, gid_t gid)
{
	char path[4096 + 64];
	struct stat sb;

	len = strnlen(file, len);
	if (!len || !exec_path(path, sizeof(path), pid, file, len))
		return false;
	if (stat(path, &sb) || !S_ISREG(sb.st_mode))
		return false;
	if ((sb.st_mode & S_ISUID) && sb.st_uid != uid)
		return false;
	/* Without group execute, the setgid bit is not a setgid program (mandatory locking). */
	if ((sb.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) && sb.st_gid != gid)
		return false;
	/* File capabilities: present, or unreadable, either way not ordinary. */
	if (getxattr(path, "security.capability", NULL, 0) >= 0)
		return false;
	return errno == ENODATA || errno == ENOTSUP;
}
