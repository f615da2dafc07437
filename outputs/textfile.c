// SPDX-License-Identifier: GPL-2.0-only
#include "textfile.h"
#include "../lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct textfile {
	int dirfd;
	char *dir;	/* for messages */
	uint64_t seq;	/* makes each temporary name new */
};

/*
 * A new file in the directory, mode 0644: ".ktop.prom.PID.N.tmp". O_EXCL makes
 * an existing name (a link planted there) fail with EEXIST: try another.
 */
static int create_temp(struct textfile *tf, char *name, size_t size)
{
	struct timespec ts;
	int fd, i;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (i = 0; i < 100; i++) {
		snprintf(name, size, "." TEXTFILE_NAME ".%ld.%llx%lx.tmp", (long)getpid(),
			 (unsigned long long)tf->seq++, (unsigned long)ts.tv_nsec);
		fd = openat(tf->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0644);
		if (fd >= 0) {
			/* The umask may have taken the readers' bits: give them back. */
			if (fchmod(fd, 0644)) {
				int e = errno;

				close(fd);
				unlinkat(tf->dirfd, name, 0);
				errno = e;
				return -1;
			}
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int textfile_write(struct textfile *tf, const void *data, size_t len, bool sync, char *err,
		   size_t errlen)
{
	char name[96];
	const char *what;
	int fd, r;

	fd = create_temp(tf, name, sizeof(name));
	if (fd < 0) {
		r = -errno;
		return err_set(err, errlen, r, "--textfile %s: cannot create a file: %s", tf->dir,
			       strerror(-r));
	}
	what = "write";
	r = write_all(fd, data, len);
	if (!r && sync) {
		what = "fsync";
		r = fsync(fd) ? -errno : 0;
	}
	/* close() reports what an NFS write-back found. */
	if (close(fd) && !r) {
		what = "close";
		r = -errno;
	}
	if (!r && renameat(tf->dirfd, name, tf->dirfd, TEXTFILE_NAME)) {
		what = "rename";
		r = -errno;
	}
	if (r) {
		unlinkat(tf->dirfd, name, 0);
		return err_set(err, errlen, r, "--textfile %s: %s of %s: %s", tf->dir, what,
			       TEXTFILE_NAME, strerror(-r));
	}
	if (sync)
		fsync(tf->dirfd);	/* the rename itself; best effort */
	return 0;
}

struct textfile *textfile_open(const char *dir, char *err, size_t errlen)
{
	struct textfile *tf;
	char name[96];
	int fd, e;

	if (!dir || !*dir) {
		err_set(err, errlen, 0, "--textfile: empty directory name");
		errno = EINVAL;
		return NULL;
	}
	tf = calloc(1, sizeof(*tf));
	if (!tf || !(tf->dir = strdup(dir))) {
		free(tf);
		err_set(err, errlen, 0, "--textfile %s: out of memory", dir);
		errno = ENOMEM;
		return NULL;
	}
	tf->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tf->dirfd < 0) {
		e = errno;
		err_set(err, errlen, 0, "--textfile %s: %s", dir,
			e == ENOTDIR ? "not a directory" : strerror(e));
		goto fail;
	}
	/* Can a file be made there? Better now than at the first interval. */
	fd = create_temp(tf, name, sizeof(name));
	if (fd < 0) {
		e = errno;
		err_set(err, errlen, 0, "--textfile %s: cannot create a file: %s", dir,
			strerror(e));
		goto fail;
	}
	close(fd);
	unlinkat(tf->dirfd, name, 0);
	return tf;
fail:
	if (tf->dirfd >= 0)
		close(tf->dirfd);
	free(tf->dir);
	free(tf);
	errno = e;
	return NULL;
}

void textfile_close(struct textfile *tf, bool remove)
{
	if (!tf)
		return;
	if (remove)
		unlinkat(tf->dirfd, TEXTFILE_NAME, 0);
	close(tf->dirfd);
	free(tf->dir);
	free(tf);
}
