// SPDX-License-Identifier: GPL-2.0-only
#include "fdcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

long fdcache_raise_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 1024;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit want = { rl.rlim_max, rl.rlim_max };

		/* A huge hard limit (1M+) would let the cache grow past need: cap it. */
		if (want.rlim_cur > 1u << 20)
			want.rlim_cur = 1u << 20;
		if (!setrlimit(RLIMIT_NOFILE, &want))
			rl.rlim_cur = want.rlim_cur;
	}
	return (long)rl.rlim_cur;
}

int fdcache_init(struct fdcache *fc, const char *procdir, size_t budget)
{
	fc->dirfd = open(procdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fc->dirfd < 0)
		return -errno;
	fc->budget = budget ? budget : 1;
	fc->nopen = 0;
	fc->lru.lru_next = fc->lru.lru_prev = &fc->lru;
	fc->lru.fd = -1;
	fc->opens = fc->evictions = 0;
	return 0;
}

static void lru_unlink(struct pfile *pf)
{
	pf->lru_prev->lru_next = pf->lru_next;
	pf->lru_next->lru_prev = pf->lru_prev;
	pf->lru_prev = pf->lru_next = NULL;
}

static void lru_push_front(struct fdcache *fc, struct pfile *pf)
{
	pf->lru_next = fc->lru.lru_next;
	pf->lru_prev = &fc->lru;
	fc->lru.lru_next->lru_prev = pf;
	fc->lru.lru_next = pf;
}

void pfile_close(struct fdcache *fc, struct pfile *pf)
{
	if (pf->fd < 0)
		return;
	close(pf->fd);
	pf->fd = -1;
	lru_unlink(pf);
	fc->nopen--;
}

void fdcache_free(struct fdcache *fc)
{
	while (fc->lru.lru_next != &fc->lru)
		pfile_close(fc, fc->lru.lru_next);
	if (fc->dirfd >= 0)
		close(fc->dirfd);
	fc->dirfd = -1;
}

static int pfile_open(struct fdcache *fc, struct pfile *pf, int flags, const char *fmt,
		      va_list ap) __attribute__((format(printf, 4, 0)));

static int pfile_open(struct fdcache *fc, struct pfile *pf, int flags, const char *fmt,
		      va_list ap)
{
	char path[128];
	int fd;

	if (pf->fd >= 0) {
		/* Most recently used first: a cheap splice, no syscall. */
		if (fc->lru.lru_next != pf) {
			lru_unlink(pf);
			lru_push_front(fc, pf);
		}
		return pf->fd;
	}
	if (vsnprintf(path, sizeof(path), fmt, ap) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (;;) {
		if (fc->nopen >= fc->budget && fc->lru.lru_prev != &fc->lru) {
			pfile_close(fc, fc->lru.lru_prev);
			fc->evictions++;
		}
		fd = openat(fc->dirfd, path, flags | O_CLOEXEC);
		if (fd >= 0)
			break;
		/* Out of descriptors below our budget (another part of ktop holds some). */
		if ((errno == EMFILE || errno == ENFILE) && fc->nopen > 0) {
			fc->budget = fc->nopen > 16 ? fc->nopen - 8 : fc->nopen;
			pfile_close(fc, fc->lru.lru_prev);
			fc->evictions++;
			continue;
		}
		return -errno;
	}
	fc->opens++;
	pf->fd = fd;
	fc->nopen++;
	lru_push_front(fc, pf);
	return fd;
}

ssize_t pfile_read(struct fdcache *fc, struct pfile *pf, char *buf, size_t size,
		   const char *fmt, ...)
{
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	fd = pfile_open(fc, pf, O_RDONLY, fmt, ap);
	va_end(ap);
	if (fd < 0)
		return fd;
	n = pread(fd, buf, size, 0);
	if (n < 0) {
		n = -errno;
		pfile_close(fc, pf);
	}
	return n;
}

int pfile_dir(struct fdcache *fc, struct pfile *pf, const char *fmt, ...)
{
	va_list ap;
	int fd;

	va_start(ap, fmt);
	fd = pfile_open(fc, pf, O_RDONLY | O_DIRECTORY, fmt, ap);
	va_end(ap);
	if (fd < 0)
		return fd;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		int err = -errno;

		pfile_close(fc, pf);
		return err;
	}
	return fd;
}
