// SPDX-License-Identifier: GPL-2.0-only
#include "cgcpu.h"
#include "cgparse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/cgroup.h"
#include "../../lib/util.h"
#include "cgfds.h"

/* Ticks a cgroup or a process not asked for is kept (its descriptors too). */
#define CGCPU_IDLE_TICKS 3
/* Descriptors kept open at most; past it a file is opened and closed each time. */
#define CGCPU_FD_BUDGET 1024
/* Bytes of a path in the CPU hierarchy: longer ones are not read (not known). */
#define CGCPU_PATH_MAX 1024

enum cfile { CF_MAX, CF_PERIOD, CF_STAT, CF_PSI, CF_NR };

/* One cgroup of the CPU hierarchy on a process's path. */
struct cgnode {
	char *key;			/* CGRES_CPU_KEY "PATH"; key + KEYLEN is the path */
	struct cgnode *parent;		/* NULL: the root, which no limit applies to */
	int fd[CF_NR];
	bool absent[CF_NR];		/* not there: not tried again */
	uint64_t tick;			/* last asked for (it or a cgroup under it) */
	uint64_t limit_tick;		/* its limit last read */
	bool limited;
	uint64_t quota_us, period_us;
	uint64_t eval_tick;		/* @lim as of that tick */
	struct cgnode *lim;		/* the nearest limited one on its path; NULL none */
	uint64_t read_tick;		/* its reading handed over in that tick */
	bool have_reading;
	struct cgres_raw raw;		/* ...which is this */
};

/* A row's path, read once a life. */
struct cgproc {
	uint64_t starttime;
	const char *cgroup;		/* the model's path then (another after a move) */
	char comm[PROC_COMM_MAX];	/* its name then (another after an exec) */
	struct cgnode *node;
	uint64_t tick;
};

struct cgcpu {
	int mnt;			/* the hierarchy's mount (borrowed) */
	bool v1;
	int proc;			/* /proc */
	struct cgnode **v;
	size_t n, cap;
	size_t *index, index_cap;	/* open addressing by the path's hash: v index + 1 */
	struct pidmap procs;		/* row id -> struct cgproc */
	struct cgfds fds;
	unsigned long path_reads;
};

#define KEYLEN (sizeof(CGRES_CPU_KEY) - 1)

static const char *const cfile_name[2][CF_NR] = {
	{ "cpu.max", NULL, "cpu.stat", "cpu.pressure" },
	{ "cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.stat", NULL },
};

/* Does the v2 root list the cpu controller (enabled for cgroups below)? */
static bool v2_has_cpu(int mnt)
{
	char buf[512], *w, *save = NULL;
	ssize_t n;
	int fd = openat(mnt, "cgroup.controllers", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (w = strtok_r(buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
		if (!strcmp(w, "cpu"))
			return true;
	return false;
}

struct cgcpu *cgcpu_new(int v1, int v2, const char *proc)
{
	struct cgcpu *c;
	int pfd;

	if (v1 < 0 && (v2 < 0 || !v2_has_cpu(v2)))
		return NULL;
	pfd = open(proc, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(pfd);
		return NULL;
	}
	c->v1 = v1 >= 0;
	c->mnt = c->v1 ? v1 : v2;
	c->proc = pfd;
	c->fds.budget = CGCPU_FD_BUDGET;
	pidmap_init(&c->procs);
	return c;
}

static void node_free(struct cgcpu *c, struct cgnode *nd)
{
	int f;

	for (f = 0; f < CF_NR; f++)
		cgfds_close(&c->fds, &nd->fd[f]);
	free(nd->key);
	free(nd);
}

static void free_procs(struct cgcpu *c, bool all, uint64_t tick)
{
	size_t i;

	for (i = 0; i < c->procs.cap; i++) {
		struct pidmap_slot *sl = &c->procs.slots[i];
		struct cgproc *p = sl->val;

		if (sl->key && (all || p->tick + CGCPU_IDLE_TICKS < tick)) {
			free(p);
			if (!all) {
				pidmap_del(&c->procs, sl->key);
				i--;	/* backward-shift delete: this slot again */
			}
		}
	}
}

void cgcpu_destroy(struct cgcpu *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		node_free(c, c->v[i]);
	free_procs(c, true, 0);
	pidmap_free(&c->procs);
	free(c->v);
	free(c->index);
	close(c->proc);
	free(c);
}

void cgcpu_moved(struct cgcpu *c, const pid_t *ids, size_t n)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < n; i++)
		free(pidmap_del(&c->procs, ids[i]));
}

/* ---- the cgroups ---- */

static size_t *slot_of(const struct cgcpu *c, const char *path)
{
	size_t i = str_hash(path) & (c->index_cap - 1);

	while (c->index[i] && strcmp(c->v[c->index[i] - 1]->key + KEYLEN, path))
		i = (i + 1) & (c->index_cap - 1);
	return &c->index[i];
}

static void reindex(struct cgcpu *c)
{
	size_t i;

	while (c->index_cap < 2 * (c->n + 1))
		c->index_cap = c->index_cap ? c->index_cap * 2 : 64;
	free(c->index);
	c->index = xcalloc(c->index_cap, sizeof(*c->index));
	for (i = 0; i < c->n; i++)
		*slot_of(c, c->v[i]->key + KEYLEN) = i + 1;
}

/* The cgroup at @path ("/..."), and those above it, made when new. */
static struct cgnode *node_get(struct cgcpu *c, const char *path)
{
	char up[CGCPU_PATH_MAX], *slash;
	struct cgnode *nd;
	size_t *s, k;
	int f;

	if (!c->index_cap || 2 * (c->n + 1) > c->index_cap)
		reindex(c);
	s = slot_of(c, path);
	if (*s)
		return c->v[*s - 1];
	nd = xcalloc(1, sizeof(*nd));
	k = strlen(path);
	nd->key = xmalloc(KEYLEN + k + 1);
	memcpy(nd->key, CGRES_CPU_KEY, KEYLEN);
	memcpy(nd->key + KEYLEN, path, k + 1);
	for (f = 0; f < CF_NR; f++)
		nd->fd[f] = -1;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	c->v[c->n++] = nd;
	*s = c->n;
	if (strcmp(path, "/")) {
		snprintf(up, sizeof(up), "%s", path);
		slash = strrchr(up, '/');
		if (slash == up)
			slash[1] = '\0';
		else
			*slash = '\0';
		nd->parent = node_get(c, up);
	}
	return nd;
}

/* File @f of @nd into @buf: its length, or -1 (not there, not readable). */
static ssize_t node_read(struct cgcpu *c, struct cgnode *nd, enum cfile f, char *buf, size_t cap)
{
	const char *name = cfile_name[c->v1][f];
	ssize_t n;

	if (!name || nd->absent[f])
		return -1;
	/* Relative to the mount: "/a/b" is "a/b", the root ".". */
	n = cgfds_read(&c->fds, c->mnt, nd->key[KEYLEN + 1] ? nd->key + KEYLEN + 1 : ".", name,
		       &nd->fd[f], buf, cap);
	if (n == -ENOENT)
		nd->absent[f] = true;
	return n < 0 ? -1 : n;
}

/* @nd's CPU limit, read again when due. */
static void node_limit(struct cgcpu *c, struct cgnode *nd, uint64_t tick)
{
	char buf[128];
	ssize_t n;

	if (nd->limit_tick && nd->limit_tick + (nd->limited ? 1 : CGCPU_LIMIT_TICKS) > tick)
		return;
	nd->limit_tick = tick;
	nd->limited = false;
	n = node_read(c, nd, CF_MAX, buf, sizeof(buf));
	if (n < 0)
		return;
	if (!c->v1) {
		nd->limited = cgparse_cpu_max(buf, (size_t)n, &nd->quota_us, &nd->period_us);
	} else if (cgparse_limit(buf, (size_t)n, &nd->quota_us) &&
		   nd->quota_us != CGR_UNLIMITED &&
		   (n = node_read(c, nd, CF_PERIOD, buf, sizeof(buf))) >= 0) {
		nd->limited = cgparse_limit(buf, (size_t)n, &nd->period_us) && nd->period_us;
	}
	if (nd->quota_us == CGR_UNLIMITED)
		nd->limited = false;
}

/* The nearest limited cgroup on @nd's path (NULL: none); every one above it asked for. */
static struct cgnode *limit_of(struct cgcpu *c, struct cgnode *nd, uint64_t tick)
{
	struct cgnode *p;

	for (p = nd; p; p = p->parent)
		p->tick = tick;
	if (nd->eval_tick == tick)
		return nd->lim;
	nd->eval_tick = tick;
	nd->lim = NULL;
	/* The root: no limit applies to it (v1 has none, v2 no cpu.max). */
	if (nd->parent) {
		node_limit(c, nd, tick);
		nd->lim = nd->limited ? nd : limit_of(c, nd->parent, tick);
	}
	return nd->lim;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* @nd's reading of this tick into @s, once: false when its cpu.stat cannot be read. */
static bool node_reading(struct cgcpu *c, struct cgnode *nd, uint64_t tick, struct sample *s)
{
	struct cg_reading *r;
	char buf[1024];
	uint64_t v;
	ssize_t n;
	unsigned got;

	if (nd->read_tick == tick)
		return nd->have_reading;
	nd->read_tick = tick;
	nd->have_reading = false;
	n = node_read(c, nd, CF_STAT, buf, sizeof(buf));
	if (n < 0)
		return false;
	r = sample_add_cgres(s);
	r->dir = nd->key;
	r->t_ns = mono_ns();
	r->raw.quota_us = nd->quota_us;
	r->raw.period_us = nd->period_us;
	r->raw.have = CGR_CPU_MAX;
	if (cgparse_key(buf, (size_t)n, "nr_throttled", &r->raw.nr_throttled)) {
		if (!c->v1 && cgparse_key(buf, (size_t)n, "throttled_usec", &v)) {
			r->raw.throttled_us = v;
			r->raw.have |= CGR_THROTTLE;
		} else if (c->v1 && cgparse_key(buf, (size_t)n, "throttled_time", &v)) {
			r->raw.throttled_us = v / 1000;	/* v1 counts nanoseconds */
			r->raw.have |= CGR_THROTTLE;
		}
	}
	n = node_read(c, nd, CF_PSI, buf, sizeof(buf));
	if (n >= 0) {
		got = cgparse_psi(buf, (size_t)n, &r->raw.psi_some[CG_PSI_CPU],
				      &r->raw.psi_full[CG_PSI_CPU]);
		r->raw.have |= (got & 1 ? CGR_PSI_SOME(CG_PSI_CPU) : 0) |
			       (got & 2 ? CGR_PSI_FULL(CG_PSI_CPU) : 0);
	}
	nd->raw = r->raw;
	nd->have_reading = true;
	return true;
}

/* ---- the rows ---- */

/* @t's cgroup in the CPU hierarchy, from /proc/ID/cgroup; NULL when it cannot be read. */
static struct cgnode *read_path(struct cgcpu *c, const struct task *t)
{
	char name[32], buf[16384], path[CGCPU_PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "%d/cgroup", (int)t->pid);
	fd = openat(c->proc, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	c->path_reads++;
	if (n <= 0 || cgroup_hier_path(buf, (size_t)n, c->v1 ? "cpu" : NULL, path, sizeof(path)) < 0)
		return NULL;
	return node_get(c, path);
}

void cgcpu_row(struct cgcpu *c, const struct model *m, const struct task *t, struct sample *s)
{
	struct cgproc *p;
	struct cgnode *lim;
	struct cg_cpu_of *o;

	if (!c || t->pid <= 0)
		return;
	p = pidmap_get(&c->procs, t->pid);
	/* Another life, a move seen by its path, an exec (runc moves a process before it). */
	if (p && (p->starttime != t->starttime || p->cgroup != t->cgroup ||
		  strcmp(p->comm, t->comm) || !p->node)) {
		free(pidmap_del(&c->procs, t->pid));
		p = NULL;
	}
	if (!p) {
		/* A dead row's path is not there to read: not known. */
		if (t->exited || t->gone)
			return;
		p = xcalloc(1, sizeof(*p));
		p->starttime = t->starttime;
		p->cgroup = t->cgroup;
		snprintf(p->comm, sizeof(p->comm), "%s", t->comm);
		p->node = read_path(c, t);
		pidmap_put(&c->procs, t->pid, p);
	}
	p->tick = m->tick;
	if (!p->node)
		return;
	lim = limit_of(c, p->node, m->tick);
	if (lim && !node_reading(c, lim, m->tick, s))
		return;
	o = sample_add_cpu_of(s);
	o->id = t->pid;
	o->dir = lim ? lim->key : "";
}

const char *cgcpu_limit(const struct cgcpu *c, const struct task *t, uint64_t tick,
			struct cgres_raw *raw)
{
	const struct cgproc *p = c ? pidmap_get(&c->procs, t->pid) : NULL;
	const struct cgnode *lim;

	if (!p || p->tick != tick || !p->node || p->node->eval_tick != tick)
		return NULL;
	lim = p->node->lim;
	if (!lim || lim->read_tick != tick || !lim->have_reading)
		return NULL;
	*raw = lim->raw;
	return lim->key;
}

void cgcpu_end(struct cgcpu *c, uint64_t tick)
{
	size_t i, k = 0;

	if (!c)
		return;
	/*
	 * A cgroup asked for marks the ones above it, and a process asked for
	 * its own: an idle one has nothing asked for under it or pointing at it.
	 */
	free_procs(c, false, tick);
	for (i = 0; i < c->n; i++) {
		if (c->v[i]->tick + CGCPU_IDLE_TICKS < tick) {
			node_free(c, c->v[i]);
			continue;
		}
		c->v[k++] = c->v[i];
	}
	if (k != c->n) {
		c->n = k;
		reindex(c);
	}
}

void cgcpu_get_stats(const struct cgcpu *c, struct cgcpu_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!c)
		return;
	st->nodes = c->n;
	st->procs = c->procs.n;
	st->open_fds = c->fds.n;
	st->reads = c->fds.reads;
	st->path_reads = c->path_reads;
}
