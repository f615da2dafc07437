// SPDX-License-Identifier: GPL-2.0-only
#include "system.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sysparse.h"
#include "../../lib/util.h"

enum sysfile { SF_STAT, SF_MEMINFO, SF_VMSTAT, SF_LOADAVG, SF_UPTIME, SF_NR };

static const char *const sysfile_names[SF_NR] = {
	"stat", "meminfo", "vmstat", "loadavg", "uptime",
};

struct sysfiles {
	int fd[SF_NR];
	char *buf;
	size_t bufsz;
};

int system_new(const char *procdir, struct sysfiles **out)
{
	struct sysfiles *s = xcalloc(1, sizeof(*s));
	char path[256];
	int i;

	for (i = 0; i < SF_NR; i++) {
		snprintf(path, sizeof(path), "%s/%s", procdir, sysfile_names[i]);
		s->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (s->fd[SF_STAT] < 0) {
		int err = -errno;

		system_free(s);
		return err;
	}
	s->bufsz = 64 * 1024;
	s->buf = xmalloc(s->bufsz);
	*out = s;
	return 0;
}

void system_free(struct sysfiles *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < SF_NR; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	free(s->buf);
	free(s);
}

/* Read a whole file: /proc/stat grows with CPUs and interrupts, so grow the buffer. */
static ssize_t read_whole(struct sysfiles *s, enum sysfile f)
{
	ssize_t n;

	if (s->fd[f] < 0)
		return -EBADF;
	for (;;) {
		n = pread(s->fd[f], s->buf, s->bufsz, 0);
		if (n < (ssize_t)s->bufsz || s->bufsz >= (16u << 20))
			return n;
		s->bufsz *= 2;
		s->buf = xrealloc(s->buf, s->bufsz);
	}
}

void system_collect(struct sysfiles *s, struct sample *out)
{
	struct sys_sample *x = &out->sys;
	ssize_t n;

	out->have_sys = true;
	x->have_stat = x->have_mem = x->have_vm = x->have_load = x->have_uptime = false;

	if ((n = read_whole(s, SF_STAT)) > 0)
		x->have_stat = sysparse_sys_stat(s->buf, (size_t)n, &x->stat) == 0;
	if ((n = read_whole(s, SF_MEMINFO)) > 0)
		x->have_mem = sysparse_meminfo(s->buf, (size_t)n, &x->mem) == 0;
	if ((n = read_whole(s, SF_VMSTAT)) > 0)
		x->have_vm = sysparse_vmstat(s->buf, (size_t)n, &x->vm) == 0;
	if ((n = read_whole(s, SF_LOADAVG)) > 0)
		x->have_load = sysparse_loadavg(s->buf, (size_t)n, &x->load) == 0;
	if ((n = read_whole(s, SF_UPTIME)) > 0)
		x->have_uptime = sysparse_uptime(s->buf, (size_t)n, &x->uptime_s) == 0;
}
