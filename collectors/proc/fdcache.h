/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FDCACHE_H
#define KTOP_FDCACHE_H

/*
 * Persistent file descriptors for /proc files, re-read with pread(fd, buf, n, 0)
 * every tick (the Ktrace thesis's fix for top: no open/close per refresh).
 * The number open is bounded by a budget below RLIMIT_NOFILE; past it the least
 * recently used descriptor is closed and reopened when next needed, so every
 * process is still read, at the price of an open and a close.
 */

#include <stddef.h>
#include <sys/types.h>

struct pfile {
	int fd;				/* -1 when closed */
	struct pfile *lru_prev, *lru_next;
};

struct fdcache {
	int dirfd;			/* /proc, open for openat() */
	size_t budget, nopen;
	struct pfile lru;		/* list head: lru.next most recent */
	unsigned long opens, evictions;	/* statistics for benchmarks and tests */
};

/* Raise RLIMIT_NOFILE's soft limit to the hard one; returns the new soft limit. */
long fdcache_raise_limit(void);

/*
 * @budget: how many descriptors the cache may hold open. Returns 0 or -errno
 * (/proc cannot be opened).
 */
int fdcache_init(struct fdcache *fc, const char *procdir, size_t budget);
void fdcache_free(struct fdcache *fc);

static inline void pfile_init(struct pfile *pf)
{
	pf->fd = -1;
	pf->lru_prev = pf->lru_next = NULL;
}

void pfile_close(struct fdcache *fc, struct pfile *pf);

/*
 * Read a file from offset 0 into @buf, opening it first if @pf is closed. Its
 * path relative to /proc is @fmt and what follows, formatted only when it must
 * be opened: the steady state formats nothing. Returns the byte count (0 for an
 * empty file) or -errno: -ENOENT or -ESRCH mean the task is gone.
 */
ssize_t pfile_read(struct fdcache *fc, struct pfile *pf, char *buf, size_t size,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Like pfile_read, for a directory: rewinds and returns its descriptor. */
int pfile_dir(struct fdcache *fc, struct pfile *pf, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
