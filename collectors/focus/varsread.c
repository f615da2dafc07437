// SPDX-License-Identifier: GPL-2.0-only
#include "varsread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../proc/procfs.h"
#include "../system/sysparse.h"

/* A hex line of /proc/PID/status ("SigBlk:\t0000000000010000"). */
static bool status_hex(const char *buf, size_t len, const char *key, int64_t *out)
{
	size_t klen = strlen(key), i;
	uint64_t v = 0;
	int digits = 0;

	for (i = 0; i + klen <= len; i++) {
		if ((i && buf[i - 1] != '\n') || memcmp(buf + i, key, klen))
			continue;
		for (i += klen; i < len && (buf[i] == ' ' || buf[i] == '\t'); i++)
			;
		for (; i < len && digits < 16; i++, digits++) {
			char c = buf[i];
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

			if (d < 0)
				break;
			v = v << 4 | (uint64_t)d;
		}
		*out = (int64_t)v;
		return digits > 0;
	}
	return false;
}

void varsread_parse(enum var_src src, const char *buf, size_t len, struct var_sample *out)
{
	union {
		struct pid_stat st;
		struct pid_status su;
		struct sys_mem mi;
		struct sys_vm vm;
	} u;
	int ok;
	int v;

	memset(&u, 0, sizeof(u));
	switch (src) {
	case VS_STAT: ok = !procfs_parse_pid_stat(buf, len, &u.st); break;
	case VS_STATUS: ok = !procfs_parse_pid_status(buf, len, &u.su); break;
	case VS_MEMINFO: ok = !sysparse_meminfo(buf, len, &u.mi); break;
	case VS_VMSTAT: ok = !sysparse_vmstat(buf, len, &u.vm); break;
	default: return;
	}
	if (!ok)
		return;
	vars_take(src, &u, out);
	/* Lines no parser reads (SigBlk) are found by their key. */
	for (v = 0; v < VAR_NR; v++) {
		const char *key = vars_key(v);

		if (key && vars_source(v) == src && status_hex(buf, len, key, &out->v[v]))
			out->have |= 1u << v;
	}
}

static int open_at(int dirfd, const char *rel)
{
	return openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
}

int varsread_proc_open(struct varsread_proc *p, int procdir_fd, pid_t pid)
{
	char rel[64];
	int s;

	for (s = 0; s < VS_NR; s++)
		p->fd[s] = -1;
	p->pid = pid;
	snprintf(rel, sizeof(rel), "%d/stat", (int)pid);
	p->fd[VS_STAT] = open_at(procdir_fd, rel);
	snprintf(rel, sizeof(rel), "%d/status", (int)pid);
	p->fd[VS_STATUS] = open_at(procdir_fd, rel);
	if (p->fd[VS_STAT] < 0) {
		int err = -errno;

		varsread_proc_close(p);
		return err;
	}
	return 0;
}

void varsread_proc_close(struct varsread_proc *p)
{
	int s;

	for (s = 0; s < VS_NR; s++) {
		if (p->fd[s] >= 0)
			close(p->fd[s]);
		p->fd[s] = -1;
	}
}

int varsread_sys_open(struct varsread_sys *s, int procdir_fd)
{
	int i;

	for (i = 0; i < VS_NR; i++)
		s->fd[i] = -1;
	s->fd[VS_MEMINFO] = open_at(procdir_fd, "meminfo");
	s->fd[VS_VMSTAT] = open_at(procdir_fd, "vmstat");
	return s->fd[VS_MEMINFO] < 0 && s->fd[VS_VMSTAT] < 0 ? -ENOENT : 0;
}

void varsread_sys_close(struct varsread_sys *s)
{
	int i;

	for (i = 0; i < VS_NR; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
	}
}

/* Big enough for vmstat (~6 KB on 6.x); status and stat are smaller. */
#define VARS_BUF 16384

static bool read_source(int fd, enum var_src src, uint64_t now_ns, struct var_sample *out)
{
	static char buf[VARS_BUF];
	ssize_t n;

	if (fd < 0)
		return false;
	n = pread(fd, buf, sizeof(buf), 0);
	if (n <= 0)
		return false;
	varsread_parse(src, buf, (size_t)n, out);
	out->read_ns[src] = now_ns;
	return true;
}

int varsread_sample(struct varsread_proc *p, struct varsread_sys *s, uint64_t now_ns,
		struct var_sample *out)
{
	bool alive;

	memset(out, 0, sizeof(*out));
	alive = read_source(p->fd[VS_STAT], VS_STAT, now_ns, out);
	read_source(p->fd[VS_STATUS], VS_STATUS, now_ns, out);
	read_source(s->fd[VS_MEMINFO], VS_MEMINFO, now_ns, out);
	read_source(s->fd[VS_VMSTAT], VS_VMSTAT, now_ns, out);
	return alive ? 0 : -ESRCH;
}
