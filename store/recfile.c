// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording's files, ktop's user's own (recfile.h says why).
 *
 * ktop opens the database itself first (recfile_open); SQLite then opens it
 * again by name, and creates and removes the -wal, -shm and -journal by
 * name as it goes (a -journal at every change of journal mode). A name that
 * another user can take in between (any name in a sticky world-writable
 * directory that does not exist yet) is only safe when the open that SQLite
 * makes is itself checked: the guard replaces the open() of SQLite's unix VFS
 * (sqlite3_vfs.xSetSystemCall) with one that creates with O_EXCL or checks
 * the descriptor it returns.
 */
#include "recfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const sides[] = { "-wal", "-shm", "-journal" };

static const char *kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link" : "not a file";
}

bool recfile_owned(const struct stat *sb)
{
	return S_ISREG(sb->st_mode) && sb->st_uid == geteuid();
}

int recfile_check(const char *name, const struct stat *sb, char *err, size_t errsz)
{
	if (!S_ISREG(sb->st_mode))
		snprintf(err, errsz, "%.300s: not a regular file (%s): not written to", name,
			 kind(sb->st_mode));
	else if (sb->st_uid != geteuid())
		snprintf(err, errsz, "%.300s: owned by uid %u, not by ktop's user (uid %u): not written to",
			 name, (unsigned)sb->st_uid, (unsigned)geteuid());
	else if (sb->st_nlink != 1)
		snprintf(err, errsz, "%.300s: has %lu hard links (another name could read it): not written to",
			 name, (unsigned long)sb->st_nlink);
	else if (sb->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(err, errsz, "%.300s: group or others may write it (mode %04o): not written to",
			 name, (unsigned)(sb->st_mode & 07777));
	else
		return 0;
	return -1;
}

int recfile_check_dir(const char *path, char *err, size_t errsz)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat sb;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &sb)) {
		snprintf(err, errsz, "cannot write %.300s: %.300s: %s", path, dir, strerror(errno));
		return -1;
	}
	if (S_ISDIR(sb.st_mode) && (sb.st_mode & (S_IWGRP | S_IWOTH)) && !(sb.st_mode & S_ISVTX)) {
		snprintf(err, errsz,
			 "%.300s: group or others may write to this directory and it has no sticky bit "
			 "(mode %04o: they could replace the recording): not written to",
			 dir, (unsigned)(sb.st_mode & 07777));
		return -1;
	}
	return 0;
}

int recfile_check_sides(const char *path, char *err, size_t errsz)
{
	char side[4096 + 16];
	struct stat sb;
	size_t i;

	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", path, sides[i]);
		if (lstat(side, &sb)) {
			if (errno == ENOENT)
				continue;
			snprintf(err, errsz, "cannot write %.300s: %s", side, strerror(errno));
			return -1;
		}
		if (recfile_check(side, &sb, err, errsz))
			return -1;
	}
	return 0;
}

/*
 * Open @path as asked (@flags, @mode for a new file), safe in a directory
 * others write to: created new, or an existing regular file checked on its
 * descriptor. @sys_open is the open() to use. Returns the descriptor, or -1
 * with errno (EACCES and @err when the file is refused).
 */
static int safe_open(int (*sys_open)(const char *, int, int), const char *path, int flags,
		     int mode, char *err, size_t errsz)
{
	struct stat sb;
	int fd, tries;

	flags |= O_NOFOLLOW | O_CLOEXEC;
	for (tries = 0; tries < 8; tries++) {
		if (flags & O_CREAT) {
			/* New: nobody else can hold it, whatever the directory. */
			fd = sys_open(path, flags | O_EXCL, mode);
			if (fd >= 0 || errno != EEXIST)
				return fd;
		}
		/* O_NONBLOCK: a FIFO at the name is refused, not waited on. */
		fd = sys_open(path, (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_NONBLOCK, mode);
		if (fd < 0) {
			if (errno == ENOENT && (flags & O_CREAT))
				continue;	/* removed since: create it */
			return -1;
		}
		if (fstat(fd, &sb)) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		/* SQLite reads the directory (to sync it) and /dev/urandom. */
		if ((flags & O_ACCMODE) == O_RDONLY && (S_ISDIR(sb.st_mode) || S_ISCHR(sb.st_mode)))
			goto ok;
		if (recfile_check(path, &sb, err, errsz)) {
			close(fd);
			errno = EACCES;
			return -1;
		}
ok:
		if (!(flags & O_NONBLOCK))
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		return fd;
	}
	snprintf(err, errsz, "%.300s: removed and made again while opened: not written to", path);
	errno = EACCES;
	return -1;
}

static int libc_open(const char *path, int flags, int mode)
{
	return open(path, flags, (mode_t)mode);
}

int recfile_open(const char *path, char *err, size_t errsz)
{
	int fd = safe_open(libc_open, path, O_RDWR | O_CREAT, 0600, err, errsz);

	if (fd < 0 && errno != EACCES)
		snprintf(err, errsz, "cannot write %.300s: %s", path, strerror(errno));
	return fd;
}

static sqlite3_syscall_ptr sqlite_open;	/* the unix VFS's own open() */
static unsigned guards;
static char refused[512];

/* SQLite's unix VFS calls open() as (path, flags, mode). */
static int guarded_open(const char *path, int flags, int mode)
{
	int (*sys_open)(const char *, int, int) = (int (*)(const char *, int, int))sqlite_open;
	char why[sizeof(refused)];
	int fd;

	if (!guards)
		return sys_open(path, flags, mode);
	why[0] = '\0';
	fd = safe_open(sys_open, path, flags, mode, why, sizeof(why));
	if (fd < 0 && why[0]) {
		int e = errno;

		snprintf(refused, sizeof(refused), "%s", why);
		errno = e;
	}
	return fd;
}

int recfile_guard(bool on, char *err, size_t errsz)
{
	sqlite3_vfs *vfs;

	if (!on) {
		if (guards)
			guards--;
		return 0;
	}
	if (!sqlite_open) {
		vfs = sqlite3_vfs_find("unix");
		if (!vfs || vfs->iVersion < 3 || !vfs->xGetSystemCall || !vfs->xSetSystemCall ||
		    !(sqlite_open = vfs->xGetSystemCall(vfs, "open")) ||
		    vfs->xSetSystemCall(vfs, "open", (sqlite3_syscall_ptr)guarded_open) != SQLITE_OK) {
			sqlite_open = NULL;
			snprintf(err, errsz, "this SQLite (%s) lets ktop check none of the files it opens: "
				 "not recording", sqlite3_libversion());
			return -1;
		}
	}
	guards++;
	return 0;
}

const char *recfile_refused(void)
{
	return refused;
}

void recfile_clear_refused(void)
{
	refused[0] = '\0';
}
