// SPDX-License-Identifier: GPL-2.0-only
#include "cgfiles.h"
#include "cgparse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/util.h"
#include "../../model/fproc.h"
#include "cgfds.h"

/* The hierarchies a group's files are in. */
enum hier { H_V2, H_CPU, H_MEM, H_PIDS, H_NR };

/* The files read, each in one hierarchy. */
enum file {
	F_CPU_P, F_IO_P, F_MEM_P,			/* v2 pressure */
	F_CPU_MAX, F_CPU_STAT, F_MEM_CUR, F_MEM_MAX, F_MEM_EV, F_PIDS_CUR, F_PIDS_MAX,	/* v2 */
	F1_QUOTA, F1_PERIOD, F1_CPU_STAT,		/* v1 cpu */
	F1_MEM_USE, F1_MEM_LIM, F1_OOM, F1_FAILCNT,	/* v1 memory */
	F1_PIDS_CUR, F1_PIDS_MAX,			/* v1 pids */
	F_NR
};

static const struct {
	enum hier h;
	const char *name;
} files[F_NR] = {
	[F_CPU_P] = { H_V2, "cpu.pressure" },
	[F_IO_P] = { H_V2, "io.pressure" },
	[F_MEM_P] = { H_V2, "memory.pressure" },
	[F_CPU_MAX] = { H_V2, "cpu.max" },
	[F_CPU_STAT] = { H_V2, "cpu.stat" },
	[F_MEM_CUR] = { H_V2, "memory.current" },
	[F_MEM_MAX] = { H_V2, "memory.max" },
	[F_MEM_EV] = { H_V2, "memory.events" },
	[F_PIDS_CUR] = { H_V2, "pids.current" },
	[F_PIDS_MAX] = { H_V2, "pids.max" },
	[F1_QUOTA] = { H_CPU, "cpu.cfs_quota_us" },
	[F1_PERIOD] = { H_CPU, "cpu.cfs_period_us" },
	[F1_CPU_STAT] = { H_CPU, "cpu.stat" },
	[F1_MEM_USE] = { H_MEM, "memory.usage_in_bytes" },
	[F1_MEM_LIM] = { H_MEM, "memory.limit_in_bytes" },
	[F1_OOM] = { H_MEM, "memory.oom_control" },
	[F1_FAILCNT] = { H_MEM, "memory.failcnt" },
	[F1_PIDS_CUR] = { H_PIDS, "pids.current" },
	[F1_PIDS_MAX] = { H_PIDS, "pids.max" },
};

/* Descriptors kept open at most; past it a group's files are opened and closed each tick. */
#define CGRES_FD_BUDGET 4096
/* Ticks a group not shown keeps its descriptors. */
#define CGRES_IDLE_TICKS 3

enum fstate { FS_UNTRIED, FS_ABSENT };

struct cgent {
	char *key;			/* the group's dir (struct group.dir), the table's key */
	enum cgroup_group_by by;
	char *dir[H_NR];		/* relative to each hierarchy's mount; NULL: none */
	int fd[F_NR];
	uint8_t st[F_NR];
	uint64_t tick;			/* the model's tick it was last wanted */
	/*
	 * Its rows' CPU limit (collectors/cgroup/cgcpu.h), when they were read: the
	 * cgroup its CPU numbers come from (a copy of its key; NULL: its own),
	 * kept while it limits one of its rows. This tick: its reading's index
	 * in the sample, the first limit seen, whether @cpu_key was seen.
	 */
	char *cpu_key;
	uint64_t last_tick;		/* read before, in that tick */
	size_t rd;
	const char *cand;
	struct cgres_raw cand_raw, keep_raw;
	bool keep;
};

struct cgfiles_src {
	int mnt[H_NR];			/* each hierarchy's mount, O_PATH directory; -1 none */
	int psi[CG_PSI_NR];		/* /proc/pressure/{cpu,io,memory}; -1 none */
	struct cgent **v;
	size_t n, cap;
	size_t *index;			/* open addressing by the key's hash: v index + 1 */
	size_t index_cap;
	struct cgfds fds;		/* the groups' files' descriptors */
	unsigned long group_reads;
	uint64_t cpu_ns;		/* its own CPU time (KTOP_STATS, bench/cgroups.sh) */
	struct cgcpu *cpu;		/* the rows' CPU limits; NULL: no CPU controller found */
	/* Each task's cgroup path (interned) -> its group's entry (NULL: no one cgroup). */
	enum cgroup_group_by by;
	struct pslot {
		const char *cg;
		struct cgent *e;
	} *ptab;
	size_t ptab_n, ptab_cap;
};

/* ---- mounts ---- */

/* Does the comma-separated list @opts (@n bytes) have @w? */
static bool has_opt(const char *opts, size_t n, const char *w)
{
	const char *p = opts, *e = opts + n, *c;
	size_t k = strlen(w);

	while (p < e) {
		c = memchr(p, ',', (size_t)(e - p));
		if (!c)
			c = e;
		if ((size_t)(c - p) == k && !memcmp(p, w, k))
			return true;
		p = c + 1;
	}
	return false;
}

/* Reads mountinfo: the hierarchies mounted at their root. */
static void find_mounts(struct cgfiles_src *c, const char *mountinfo)
{
	char line[4096], root[1024], point[1024], fstype[64], super[1024];
	FILE *f = fopen(mountinfo ? mountinfo : "/proc/self/mountinfo", "re");
	const char *sep;
	int h;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		/* "ID PARENT MAJ:MIN ROOT POINT OPTS [TAGS...] - FSTYPE SOURCE SUPER" */
		if (sscanf(line, "%*s %*s %*s %1023s %1023s", root, point) != 2)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s %*s %1023s", fstype, super) != 2)
			continue;
		if (strcmp(root, "/"))
			continue;	/* a bind of a subtree: not the hierarchy's root */
		if (!strcmp(fstype, "cgroup2"))
			h = H_V2;
		else if (strcmp(fstype, "cgroup"))
			continue;
		else if (has_opt(super, strlen(super), "cpu"))
			h = H_CPU;
		else if (has_opt(super, strlen(super), "memory"))
			h = H_MEM;
		else if (has_opt(super, strlen(super), "pids"))
			h = H_PIDS;
		else
			continue;
		/* mountinfo escapes spaces as \040: such a mount point is not used. */
		if (c->mnt[h] < 0 && !strchr(point, '\\'))
			c->mnt[h] = open(point, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	fclose(f);
}

struct cgfiles_src *cgfiles_new(const char *mountinfo)
{
	static const char *const psi[CG_PSI_NR] = {
		"/proc/pressure/cpu", "/proc/pressure/io", "/proc/pressure/memory"
	};
	struct cgfiles_src *c = calloc(1, sizeof(*c));
	int i;

	if (!c)
		return NULL;
	for (i = 0; i < H_NR; i++)
		c->mnt[i] = -1;
	c->fds.budget = CGRES_FD_BUDGET;
	find_mounts(c, mountinfo);
	c->cpu = cgcpu_new(c->mnt[H_CPU], c->mnt[H_V2], "/proc");
	for (i = 0; i < CG_PSI_NR; i++)
		c->psi[i] = open(psi[i], O_RDONLY | O_CLOEXEC);
	return c;
}

static void ent_close(struct cgfiles_src *c, struct cgent *e)
{
	int f;

	for (f = 0; f < F_NR; f++)
		cgfds_close(&c->fds, &e->fd[f]);
}

static void ent_free(struct cgfiles_src *c, struct cgent *e)
{
	int h;

	ent_close(c, e);
	for (h = 0; h < H_NR; h++)
		free(e->dir[h]);
	free(e->cpu_key);
	free(e->key);
	free(e);
}

void cgfiles_destroy(struct cgfiles_src *c)
{
	size_t i;

	if (!c)
		return;
	cgcpu_destroy(c->cpu);
	for (i = 0; i < c->n; i++)
		ent_free(c, c->v[i]);
	for (i = 0; i < H_NR; i++)
		if (c->mnt[i] >= 0)
			close(c->mnt[i]);
	for (i = 0; i < CG_PSI_NR; i++)
		if (c->psi[i] >= 0)
			close(c->psi[i]);
	free(c->v);
	free(c->index);
	free(c->ptab);
	free(c);
}

/* ---- the groups' entries ---- */

static size_t *slot_of(const struct cgfiles_src *c, const char *key)
{
	size_t i = str_hash(key) & (c->index_cap - 1);

	while (c->index[i] && strcmp(c->v[c->index[i] - 1]->key, key))
		i = (i + 1) & (c->index_cap - 1);
	return &c->index[i];
}

static void reindex(struct cgfiles_src *c)
{
	size_t i;

	while (c->index_cap < 2 * (c->n + 1))
		c->index_cap = c->index_cap ? c->index_cap * 2 : 256;
	free(c->index);
	c->index = xcalloc(c->index_cap, sizeof(*c->index));
	for (i = 0; i < c->n; i++)
		*slot_of(c, c->v[i]->key) = i + 1;
}

/*
 * The group's directory in each hierarchy, from its process's /proc/PID/cgroup:
 * the line of each hierarchy, cut as the group is (cgname_group_dir).
 */
static void ent_dirs(struct cgent *e, pid_t pid)
{
	char path[64], buf[16384], dir[CGROUP_PATH_MAX], *p, *next, *le, *c1, *c2;
	ssize_t n;
	int fd, h;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	/* "ID:CONTROLLERS:PATH" lines; "0::PATH" is the v2 hierarchy. */
	for (p = buf; p && *p; p = next) {
		le = strchr(p, '\n');
		next = le ? le + 1 : NULL;
		if (le)
			*le = '\0';
		c1 = strchr(p, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		if (!strcmp(p, "0:"))
			h = H_V2;
		else if (has_opt(c1 + 1, strlen(c1 + 1), "cpu"))
			h = H_CPU;
		else if (has_opt(c1 + 1, strlen(c1 + 1), "memory"))
			h = H_MEM;
		else if (has_opt(c1 + 1, strlen(c1 + 1), "pids"))
			h = H_PIDS;
		else
			continue;
		/*
		 * v2: only the group's own cgroup (a container's v2 path left at
		 * its runtime's service is not the container). v1: the process's
		 * own cgroup of that controller, cut as the group is: the limits
		 * its processes are under, wherever they are.
		 */
		if (!e->dir[h] && cgname_group_dir(e->by, c2 + 1, dir, sizeof(dir)) &&
		    (h != H_V2 || !strcmp(dir, e->key)))
			e->dir[h] = xstrdup(dir + 1);	/* relative to the mount */
	}
}

static struct cgent *ent_get(struct cgfiles_src *c, const char *dir, pid_t pid,
			     enum cgroup_group_by by)
{
	struct cgent *e;
	size_t *s;
	int f;

	if (!c->index_cap || 2 * (c->n + 1) > c->index_cap)
		reindex(c);
	s = slot_of(c, dir);
	if (*s) {
		e = c->v[*s - 1];
		if (e->by == by) {
			/* Its process was gone before its lines were read: this one's. */
			if (!e->dir[H_V2] && !e->dir[H_CPU] && !e->dir[H_MEM] && !e->dir[H_PIDS])
				ent_dirs(e, pid);
			return e;
		}
		/* Another key cut the same directory: its hierarchies may differ. */
		ent_close(c, e);
		for (f = 0; f < H_NR; f++) {
			free(e->dir[f]);
			e->dir[f] = NULL;
		}
	} else {
		if (c->n == c->cap) {
			c->cap = c->cap ? c->cap * 2 : 64;
			c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
		}
		e = xcalloc(1, sizeof(*e));
		e->key = xstrdup(dir);
		c->v[c->n++] = e;
		*s = c->n;
	}
	e->by = by;
	for (f = 0; f < F_NR; f++) {
		e->fd[f] = -1;
		e->st[f] = FS_UNTRIED;
	}
	ent_dirs(e, pid);
	return e;
}

/* ---- reading ---- */

/* File @f of @e into @buf: its length, or -1 (not there, not readable). */
static ssize_t read_file(struct cgfiles_src *c, struct cgent *e, enum file f, char *buf, size_t cap)
{
	enum hier h = files[f].h;
	ssize_t n;

	if (e->st[f] == FS_ABSENT || c->mnt[h] < 0 || !e->dir[h])
		return -1;
	n = cgfds_read(&c->fds, c->mnt[h], e->dir[h], files[f].name, &e->fd[f], buf, cap);
	if (n == -ENOENT)
		e->st[f] = FS_ABSENT;
	return n < 0 ? -1 : n;
}

/* A file that has nothing we use here (v2 cpu.stat without the cpu controller): not again. */
static void drop(struct cgfiles_src *c, struct cgent *e, enum file f)
{
	cgfds_close(&c->fds, &e->fd[f]);
	e->st[f] = FS_ABSENT;
}

static void read_group(struct cgfiles_src *c, struct cgent *e, struct cgres_raw *r)
{
	char buf[1024];
	uint64_t a, b;
	ssize_t n;
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < CG_PSI_NR; i++) {
		unsigned got;

		n = read_file(c, e, (enum file)(F_CPU_P + i), buf, sizeof(buf));
		if (n < 0)
			continue;
		got = cgparse_psi(buf, (size_t)n, &r->psi_some[i], &r->psi_full[i]);
		r->have |= (got & 1 ? CGR_PSI_SOME(i) : 0) | (got & 2 ? CGR_PSI_FULL(i) : 0);
	}
	/* v2 first; a v1 controller's files give what v2 did not (a hybrid host). */
	if ((n = read_file(c, e, F_CPU_MAX, buf, sizeof(buf))) >= 0 &&
	    cgparse_cpu_max(buf, (size_t)n, &r->quota_us, &r->period_us))
		r->have |= CGR_CPU_MAX;
	if ((n = read_file(c, e, F_CPU_STAT, buf, sizeof(buf))) >= 0) {
		if (cgparse_key(buf, (size_t)n, "nr_throttled", &r->nr_throttled) &&
		    cgparse_key(buf, (size_t)n, "throttled_usec", &r->throttled_us))
			r->have |= CGR_THROTTLE;
		else
			drop(c, e, F_CPU_STAT);
	}
	if ((n = read_file(c, e, F_MEM_CUR, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->mem_cur))
		r->have |= CGR_MEM_CUR;
	if ((n = read_file(c, e, F_MEM_MAX, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->mem_max))
		r->have |= CGR_MEM_MAX;
	if ((n = read_file(c, e, F_MEM_EV, buf, sizeof(buf))) >= 0) {
		if (cgparse_key(buf, (size_t)n, "max", &r->mem_max_hits))
			r->have |= CGR_MEM_HITS;
		if (cgparse_key(buf, (size_t)n, "oom", &r->oom))
			r->have |= CGR_OOM;
		if (cgparse_key(buf, (size_t)n, "oom_kill", &r->oom_kill))
			r->have |= CGR_OOM_KILL;
	}
	if ((n = read_file(c, e, F_PIDS_CUR, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->pids_cur))
		r->have |= CGR_PIDS_CUR;
	if ((n = read_file(c, e, F_PIDS_MAX, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->pids_max))
		r->have |= CGR_PIDS_MAX;
	if (!(r->have & CGR_CPU_MAX) &&
	    (n = read_file(c, e, F1_QUOTA, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->quota_us) &&
	    (n = read_file(c, e, F1_PERIOD, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->period_us) && r->period_us)
		r->have |= CGR_CPU_MAX;
	if (!(r->have & CGR_THROTTLE) && (n = read_file(c, e, F1_CPU_STAT, buf, sizeof(buf))) >= 0 &&
	    cgparse_key(buf, (size_t)n, "nr_throttled", &a) &&
	    cgparse_key(buf, (size_t)n, "throttled_time", &b)) {
		r->nr_throttled = a;
		r->throttled_us = b / 1000;	/* v1 counts nanoseconds */
		r->have |= CGR_THROTTLE;
	}
	if (!(r->have & CGR_MEM_CUR) && (n = read_file(c, e, F1_MEM_USE, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->mem_cur))
		r->have |= CGR_MEM_CUR;
	if (!(r->have & CGR_MEM_MAX) && (n = read_file(c, e, F1_MEM_LIM, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->mem_max))
		r->have |= CGR_MEM_MAX;
	if (!(r->have & CGR_OOM_KILL) && (n = read_file(c, e, F1_OOM, buf, sizeof(buf))) >= 0 &&
	    cgparse_key(buf, (size_t)n, "oom_kill", &r->oom_kill))
		r->have |= CGR_OOM_KILL;
	if (!(r->have & CGR_MEM_HITS) && (n = read_file(c, e, F1_FAILCNT, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->mem_max_hits))
		r->have |= CGR_MEM_HITS;
	if (!(r->have & CGR_PIDS_CUR) && (n = read_file(c, e, F1_PIDS_CUR, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->pids_cur))
		r->have |= CGR_PIDS_CUR;
	if (!(r->have & CGR_PIDS_MAX) && (n = read_file(c, e, F1_PIDS_MAX, buf, sizeof(buf))) >= 0 &&
	    cgparse_limit(buf, (size_t)n, &r->pids_max))
		r->have |= CGR_PIDS_MAX;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void read_system(struct cgfiles_src *c, struct sample *s)
{
	struct cg_reading *r = NULL;
	char buf[512];
	ssize_t n;
	int i;

	for (i = 0; i < CG_PSI_NR; i++) {
		unsigned got;

		if (c->psi[i] < 0)
			continue;
		n = pread(c->psi[i], buf, sizeof(buf) - 1, 0);
		c->fds.reads++;
		if (n < 0)
			continue;
		if (!r) {
			r = sample_add_cgres(s);
			r->dir = "";
			r->t_ns = mono_ns();
		}
		got = cgparse_psi(buf, (size_t)n, &r->raw.psi_some[i], &r->raw.psi_full[i]);
		r->raw.have |= (got & 1 ? CGR_PSI_SOME(i) : 0) | (got & 2 ? CGR_PSI_FULL(i) : 0);
	}
}

/* Groups not shown for a while: their descriptors closed, their entries gone. */
static void forget_idle(struct cgfiles_src *c, uint64_t tick)
{
	size_t i, k = 0;

	for (i = 0; i < c->n; i++) {
		if (c->v[i]->tick + CGRES_IDLE_TICKS < tick) {
			ent_free(c, c->v[i]);
			continue;
		}
		c->v[k++] = c->v[i];
	}
	if (k != c->n) {
		c->n = k;
		reindex(c);
		/* The path -> entry cache pointed at some of them. */
		memset(c->ptab, 0, c->ptab_cap * sizeof(*c->ptab));
		c->ptab_n = 0;
	}
}

static struct pslot *pslot_of(struct cgfiles_src *c, const char *cg)
{
	size_t i, j;

	if ((c->ptab_n + 1) * 2 > c->ptab_cap) {
		struct pslot *old = c->ptab;
		size_t oc = c->ptab_cap;

		c->ptab_cap = c->ptab_cap ? c->ptab_cap * 2 : 256;
		c->ptab = xcalloc(c->ptab_cap, sizeof(*c->ptab));
		for (i = 0; i < oc; i++) {
			if (!old[i].cg)
				continue;
			j = (size_t)((uintptr_t)old[i].cg * 0x9e3779b97f4a7c15ull >> 20) &
			    (c->ptab_cap - 1);
			while (c->ptab[j].cg)
				j = (j + 1) & (c->ptab_cap - 1);
			c->ptab[j] = old[i];
		}
		free(old);
	}
	j = (size_t)((uintptr_t)cg * 0x9e3779b97f4a7c15ull >> 20) & (c->ptab_cap - 1);
	while (c->ptab[j].cg && c->ptab[j].cg != cg)
		j = (j + 1) & (c->ptab_cap - 1);
	return &c->ptab[j];
}

static uint64_t cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The CPU limit of @rows' rows, and of the focused processes' (the process view). */
static void collect_rows(struct cgfiles_src *c, const struct model *m, enum cgfiles_rows rows,
			 struct sample *s)
{
	const struct task *t;
	size_t i;

	if (!c->cpu)
		return;
	for (i = 0; rows != CGRES_ROWS_NONE && i < m->ntasks; i++) {
		t = m->tasks[i];
		if (rows == CGRES_ROWS_ALL ? groups_counts(m, t) : model_task_wants_status(m, t))
			cgcpu_row(c->cpu, m, t, s);
	}
	/* One of them again: its cgroup is read once a tick all the same. */
	for (i = 0; i < m->nfprocs; i++)
		if ((t = model_task_find(m, m->fprocs[i]->pid)))
			cgcpu_row(c->cpu, m, t, s);
}

/* Row @t of group @e: the cgroup that limits its CPU, a candidate for the group's. */
static void row_limit(struct cgfiles_src *c, struct cgent *e, const struct task *t, uint64_t tick)
{
	struct cgres_raw raw;
	const char *key = cgcpu_limit(c->cpu, t, tick, &raw);

	if (!key)
		return;
	if (e->cpu_key && !e->keep && !strcmp(key, e->cpu_key)) {
		e->keep = true;
		e->keep_raw = raw;
	}
	if (!e->cand) {
		e->cand = key;
		e->cand_raw = raw;
	}
}

/*
 * Group @e's CPU numbers: on a hybrid host its rows may be in other cgroups
 * of the cpu hierarchy than its own (grouped by their memory path), each read
 * at its own path: the group's are those of a cgroup that limits one of its
 * rows (the same one while it does), else its own cgroup's. Its counters
 * then come from another cgroup: not an interval the first time.
 */
static void group_cpu(struct cgent *e, struct cgres_raw *r, bool rows_read, uint64_t tick)
{
	const char *pick = !rows_read ? NULL : e->keep ? e->cpu_key : e->cand;
	const struct cgres_raw *from = e->keep ? &e->keep_raw : &e->cand_raw;
	bool moved = (pick == NULL) != (e->cpu_key == NULL) || (pick && strcmp(pick, e->cpu_key));

	if (pick) {
		r->quota_us = from->quota_us;
		r->period_us = from->period_us;
		r->nr_throttled = from->nr_throttled;
		r->throttled_us = from->throttled_us;
		r->have = (r->have & ~(CGR_CPU_MAX | CGR_THROTTLE)) |
			  (from->have & (CGR_CPU_MAX | CGR_THROTTLE));
	}
	if (moved) {
		/* The model makes an interval of two readings in a row only. */
		if (e->last_tick && e->last_tick + 1 == tick)
			r->have &= ~CGR_THROTTLE;
		if (pick != e->cpu_key) {
			free(e->cpu_key);
			e->cpu_key = pick ? xstrdup(pick) : NULL;
		}
	}
}

static void collect(struct cgfiles_src *c, const struct model *m, int by, enum cgfiles_rows rows,
		    struct sample *s)
{
	char dir[CGROUP_PATH_MAX];
	struct cg_reading *r;
	struct pslot *ps;
	struct cgent *e;
	size_t i, first = s->ncgres;

	read_system(c, s);
	collect_rows(c, m, rows, s);
	if (by < 0 || by >= CGROUP_BY__COUNT) {
		forget_idle(c, m->tick);
		cgcpu_end(c->cpu, m->tick);
		return;
	}
	if ((enum cgroup_group_by)by != c->by) {
		if (c->ptab)	/* memset(NULL, 0, 0) is undefined */
			memset(c->ptab, 0, c->ptab_cap * sizeof(*c->ptab));
		c->ptab_n = 0;
		c->by = (enum cgroup_group_by)by;
	}
	/* The groups of this tick's rows (groups_counts), each read once. */
	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];

		if (!t->cgroup || !groups_counts(m, t))
			continue;
		ps = pslot_of(c, t->cgroup);
		if (!ps->cg) {
			ps->cg = t->cgroup;
			c->ptab_n++;
			ps->e = cgname_group_dir(c->by, t->cgroup, dir, sizeof(dir)) ?
				ent_get(c, dir, t->tgid, c->by) : NULL;
		}
		e = ps->e;
		if (!e)
			continue;
		if (e->tick != m->tick) {
			e->last_tick = e->tick;
			e->tick = m->tick;
			e->rd = s->ncgres;
			e->cand = NULL;
			e->keep = false;
			r = sample_add_cgres(s);
			r->dir = e->key;
			r->t_ns = mono_ns();
			read_group(c, e, &r->raw);
			c->group_reads++;
		}
		row_limit(c, e, t, m->tick);
	}
	/* Each group read this tick (its reading's index: the sample's array may have moved). */
	for (i = 0; i < c->n; i++) {
		e = c->v[i];
		if (e->tick == m->tick && e->rd >= first && e->rd < s->ncgres &&
		    s->cgres[e->rd].dir == e->key)
			group_cpu(e, &s->cgres[e->rd].raw, rows == CGRES_ROWS_ALL && c->cpu, m->tick);
	}
	forget_idle(c, m->tick);
	cgcpu_end(c->cpu, m->tick);
}

void cgfiles_collect(struct cgfiles_src *c, const struct model *m, int by, enum cgfiles_rows rows,
		   struct sample *s)
{
	uint64_t t0;

	if (!c)
		return;
	t0 = cpu_now_ns();
	collect(c, m, by, rows, s);
	c->cpu_ns += cpu_now_ns() - t0;
}

void cgfiles_moved(struct cgfiles_src *c, const pid_t *ids, size_t n)
{
	if (c)
		cgcpu_moved(c->cpu, ids, n);
}

void cgfiles_get_stats(const struct cgfiles_src *c, struct cgfiles_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!c)
		return;
	st->open_fds = c->fds.n;
	st->groups = c->n;
	st->reads = c->fds.reads;
	st->opens = c->fds.opens;
	st->group_reads = c->group_reads;
	st->cpu_ns = c->cpu_ns;
	cgcpu_get_stats(c->cpu, &st->cpu);
}
