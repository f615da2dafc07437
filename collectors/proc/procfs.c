// SPDX-License-Identifier: GPL-2.0-only
#include "procfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../cgroup/cgroupfs.h"
#include "../clocks.h"
#include "creds.h"
#include "fdcache.h"
#include "procio.h"
#include "users.h"
#include "../../lib/pidmap.h"
#include "../../lib/rcstr.h"
#include "../../lib/strpool.h"
#include "../../lib/util.h"

#define STAT_BUF	4096
#define STATUS_BUF	8192
#define CMDLINE_MAX	4096	/* what a screen or a CSV cell can use of it */
#define DENTS_BUF	(256 * 1024)	/* a /proc of ~8,000 pids in one getdents64 */
#define FD_RESERVE	64	/* descriptors kept free for the terminal, tracing, output */

/* One thread of a multi-threaded process, for context switches summed over threads. */
struct pthread_ctx {
	pid_t tid;
	struct pfile status, schedstat;
	uint64_t vcsw, ivcsw;
	uint64_t run_delay;	/* schedstat's second field (ns), when read */
	uint64_t kept;		/* model tick it was last listed */
};

struct pentry {
	pid_t pid, tgid;
	bool is_thread;
	bool born;			/* appeared since the previous complete scan */
	size_t idx;			/* position in its entries array */
	uint64_t seen_scan;		/* last scan that listed it */
	uint64_t tids_scan;		/* thread mode: last scan that listed its tids */
	int64_t uid;			/* owner of its /proc directory */
	const char *cgroup;		/* its cgroup path (pc->cgroups); NULL: to be read */
	char path[40];			/* "PID" or "PID/task/TID", relative to /proc */
	struct pfile stat, status, cmdline, taskdir;
	struct pfile schedstat;		/* thread mode: its own (NEED_SCHEDSTAT) */
	struct pfile io;		/* NEED_IO */

	/* Process mode: threads whose status is summed. */
	struct pthread_ctx **thr;
	size_t nthr;
	uint64_t acc_vcsw, acc_ivcsw;	/* monotonic sums built from per-thread deltas */
	uint64_t acc_runq;		/* likewise, run_delay (NEED_SCHEDSTAT) */
	uint64_t status_tick;		/* model tick of the last status read */
};

struct entries {
	struct pentry **v;
	size_t n, cap;
	struct pidmap map;
};

struct procfs {
	struct fdcache fc;
	struct users *users;
	struct strpool cgroups;		/* the cgroup paths seen: one copy each */
	bool threads;
	pid_t *focus;
	size_t nfocus, cap_focus;
	struct entries procs;		/* by tgid */
	struct entries tasks;		/* by tid, thread mode only */
	uint64_t scan;
	uint64_t last_pid;		/* /proc/loadavg's last pid at the last listing */
	bool listed;			/* last_pid is valid */
	pid_t *hint;			/* procfs_hint_born: new processes from events */
	size_t nhint, hint_cap;
	bool hint_valid;		/* for the next discover only */
	bool ever_listed;		/* one complete listing was made */
	char *dents;			/* getdents64 buffer */
	char *buf;			/* read buffer */
	size_t bufsz;
	struct procfs_stats st;
	void (*pause)(void *);		/* procfs_set_pause */
	void *pause_arg;
	uint64_t pause_at;		/* CLOCK_MONOTONIC ns: the next call, at the earliest */
};

static void entries_init(struct entries *e)
{
	memset(e, 0, sizeof(*e));
	pidmap_init(&e->map);
}

static void thr_free(struct procfs *pc, struct pthread_ctx *t)
{
	pfile_close(&pc->fc, &t->status);
	pfile_close(&pc->fc, &t->schedstat);
	free(t);
}

/* Close an entry's files and drop its threads. */
static void entry_close(struct procfs *pc, struct pentry *e)
{
	size_t i;

	pfile_close(&pc->fc, &e->stat);
	pfile_close(&pc->fc, &e->status);
	pfile_close(&pc->fc, &e->schedstat);
	pfile_close(&pc->fc, &e->cmdline);
	pfile_close(&pc->fc, &e->taskdir);
	pfile_close(&pc->fc, &e->io);
	for (i = 0; i < e->nthr; i++)
		thr_free(pc, e->thr[i]);
	free(e->thr);
	e->thr = NULL;
	e->nthr = 0;
}

static void entry_free(struct procfs *pc, struct pentry *e)
{
	entry_close(pc, e);
	free(e);
}

/* The pid is a new process's: forget what the entry knew of the old one. */
static void entry_forget_files(struct procfs *pc, struct pentry *e)
{
	entry_close(pc, e);
	e->acc_vcsw = e->acc_ivcsw = 0;
	e->status_tick = 0;
	e->uid = creds_owner(pc->fc.dirfd, e->path);
}

static void entries_del(struct procfs *pc, struct entries *es, struct pentry *e)
{
	pidmap_del(&es->map, e->pid);
	es->v[e->idx] = es->v[--es->n];
	es->v[e->idx]->idx = e->idx;
	entry_free(pc, e);
}

static void entries_clear(struct procfs *pc, struct entries *es)
{
	while (es->n)
		entries_del(pc, es, es->v[es->n - 1]);
}

static struct pentry *entries_add(struct procfs *pc, struct entries *es, pid_t pid,
				  pid_t tgid, bool is_thread)
{
	struct pentry *e = xcalloc(1, sizeof(*e));

	e->pid = pid;
	e->tgid = tgid;
	e->is_thread = is_thread;
	if (is_thread)
		snprintf(e->path, sizeof(e->path), "%d/task/%d", (int)tgid, (int)pid);
	else
		snprintf(e->path, sizeof(e->path), "%d", (int)pid);
	pfile_init(&e->stat);
	pfile_init(&e->status);
	pfile_init(&e->schedstat);
	pfile_init(&e->cmdline);
	pfile_init(&e->taskdir);
	pfile_init(&e->io);
	/*
	 * The directory's owner is the effective uid (root for non-dumpable
	 * tasks, as ps shows them); status, when read, gives the exact one.
	 * One fstatat per new task, none per tick: again only when its
	 * credentials may have changed (procfs_recheck_owners).
	 */
	e->uid = creds_owner(pc->fc.dirfd, e->path);
	if (es->n == es->cap) {
		es->cap = es->cap ? es->cap * 2 : 256;
		es->v = xrealloc(es->v, es->cap * sizeof(*es->v));
	}
	e->idx = es->n;
	es->v[es->n++] = e;
	pidmap_put(&es->map, pid, e);
	return e;
}

int procfs_new(const char *procdir, size_t fd_budget, struct procfs **out)
{
	struct procfs *pc = xcalloc(1, sizeof(*pc));
	int err;

	if (!fd_budget) {
		long lim = fdcache_raise_limit();

		fd_budget = lim > 2 * FD_RESERVE ? (size_t)(lim - FD_RESERVE) : (size_t)(lim / 2);
	}
	err = fdcache_init(&pc->fc, procdir, fd_budget);
	if (err) {
		free(pc);
		return err;
	}
	pc->users = users_new();
	strpool_init(&pc->cgroups);
	entries_init(&pc->procs);
	entries_init(&pc->tasks);
	pc->dents = xmalloc(DENTS_BUF);
	pc->bufsz = STATUS_BUF;
	pc->buf = xmalloc(pc->bufsz);
	*out = pc;
	return 0;
}

void procfs_free(struct procfs *pc)
{
	if (!pc)
		return;
	entries_clear(pc, &pc->tasks);
	entries_clear(pc, &pc->procs);
	pidmap_free(&pc->tasks.map);
	pidmap_free(&pc->procs.map);
	free(pc->tasks.v);
	free(pc->procs.v);
	fdcache_free(&pc->fc);
	users_free(pc->users);
	strpool_free(&pc->cgroups);
	free(pc->hint);
	free(pc->focus);
	free(pc->dents);
	free(pc->buf);
	free(pc);
}

void procfs_set_threads(struct procfs *pc, bool threads)
{
	if (pc->threads == threads)
		return;
	entries_clear(pc, &pc->tasks);
	entries_clear(pc, &pc->procs);
	pc->threads = threads;
	/* The next scan is a first one: what it finds is not new, only unknown. */
	pc->scan = 0;
	pc->listed = false;
	pc->ever_listed = false;
}

void procfs_set_focus(struct procfs *pc, const pid_t *pids, size_t n)
{
	free(pc->focus);
	pc->focus = NULL;
	pc->nfocus = pc->cap_focus = n;
	pc->scan = 0;
	if (n) {
		pc->focus = xmalloc(n * sizeof(*pids));
		memcpy(pc->focus, pids, n * sizeof(*pids));
	}
}

void procfs_focus_add(struct procfs *pc, pid_t pid)
{
	if (!pc->focus || pid <= 0)
		return;
	if (pc->nfocus == pc->cap_focus) {
		pc->cap_focus = pc->cap_focus * 2 + 16;
		pc->focus = xrealloc(pc->focus, pc->cap_focus * sizeof(*pc->focus));
	}
	pc->focus[pc->nfocus++] = pid;
}

/* A focused process that could not be read has exited: stop looking for it. */
static void focus_drop(struct procfs *pc, pid_t pid)
{
	size_t i;

	for (i = 0; i < pc->nfocus; i++) {
		if (pc->focus[i] == pid) {
			memmove(pc->focus + i, pc->focus + i + 1, (pc->nfocus - i - 1) * sizeof(*pc->focus));
			pc->nfocus--;
			return;
		}
	}
}

void procfs_recheck_owners(struct procfs *pc, const pid_t *ids, size_t n)
{
	struct entries *es = pc->threads ? &pc->tasks : &pc->procs;
	size_t i;

	for (i = 0; i < n; i++) {
		struct pentry *e = pidmap_get(&es->map, ids[i]);

		if (e) {
			e->uid = creds_owner(pc->fc.dirfd, e->path);
			/* An exec: runc, systemd and podman move a process before theirs. */
			e->cgroup = NULL;
		}
	}
}

void procfs_recheck_cgroups(struct procfs *pc, const pid_t *ids, size_t n)
{
	struct entries *es = pc->threads ? &pc->tasks : &pc->procs;
	size_t i;

	for (i = 0; i < n; i++) {
		struct pentry *e = pidmap_get(&es->map, ids[i]);

		if (e)
			e->cgroup = NULL;
	}
}

/*
 * Its cgroup, read once a process life: a process moves between cgroups
 * (almost) only before it execs, and an exec reads it again
 * (procfs_recheck_owners), as does a new name when no events tell of execs,
 * and a move the events saw (procfs_recheck_cgroups).
 */
static void sample_cgroup(struct procfs *pc, struct pentry *e, struct task_reading *r)
{
	char path[CGROUP_PATH_MAX];

	if (!e->cgroup) {
		if (cgroupfs_read(pc->fc.dirfd, e->path, path, sizeof(path)) < 0)
			return;
		pc->st.cgroup_reads++;
		e->cgroup = strpool_get(&pc->cgroups, path);
	}
	r->cgroup = e->cgroup;
}

void procfs_focus_remove(struct procfs *pc, pid_t pid)
{
	struct pentry *e = pidmap_get(&pc->procs.map, pid);

	if (!pc->focus)
		return;
	focus_drop(pc, pid);
	/* Its threads go at the next collect, with no process to list them. */
	if (e)
		entries_del(pc, &pc->procs, e);
}

bool procfs_pid_exists(const struct procfs *pc, pid_t pid)
{
	char path[24];
	struct stat sb;

	snprintf(path, sizeof(path), "%d", (int)pid);
	return pid > 0 && fstatat(pc->fc.dirfd, path, &sb, 0) == 0;
}

/* A directory entry name that is a pid; 0 otherwise. */
static pid_t name_pid(const char *s)
{
	long v = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 0x7fffffff / 10)
			return 0;
		v = v * 10 + (*s - '0');
	}
	return (pid_t)v;
}

/*
 * List the numeric names of directory @fd (already rewound) and call @fn on
 * each. Returns 0 or -errno.
 */
static int scan_pids(struct procfs *pc, int fd, void (*fn)(struct procfs *, pid_t, void *),
		     void *arg)
{
	for (;;) {
		ssize_t n = getdents64(fd, pc->dents, DENTS_BUF), off = 0;

		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		while (off < n) {
			/* The kernel aligns every record (d_reclen) to 8 bytes. */
			struct dirent64 *d = (struct dirent64 *)(void *)(pc->dents + off);
			pid_t pid = name_pid(d->d_name);

			if (pid)
				fn(pc, pid, arg);
			off += d->d_reclen;
		}
	}
}

static void seen_proc(struct procfs *pc, pid_t pid, void *arg)
{
	struct pentry *e = pidmap_get(&pc->procs.map, pid);

	(void)arg;
	if (!e) {
		e = entries_add(pc, &pc->procs, pid, pid, false);
		/* Only a scan of all /proc proves it was not there last time. */
		e->born = !pc->focus && pc->scan > 1;
	}
	e->seen_scan = pc->scan;
}

void procfs_hint_born(struct procfs *pc, const pid_t *pids, size_t n)
{
	if (n > pc->hint_cap) {
		pc->hint_cap = n;
		pc->hint = xrealloc(pc->hint, n * sizeof(*pc->hint));
	}
	if (n)
		memcpy(pc->hint, pids, n * sizeof(*pids));
	pc->nhint = n;
	pc->hint_valid = true;
}

/*
 * Find the processes of this tick: the focus list, or a /proc scan. Returns true
 * when /proc was listed, false when the listing of last time still holds.
 */
static bool discover(struct procfs *pc, const struct model *m)
{
	const struct sys_load *l = &m->sys.load;
	bool hinted = pc->hint_valid;
	size_t i;

	pc->scan++;
	pc->hint_valid = false;
	if (pc->focus) {
		for (i = 0; i < pc->nfocus; i++)
			seen_proc(pc, pc->focus[i], NULL);
		return true;
	}
	/*
	 * Fork events named every process created since the last tick: add them,
	 * no listing. (Threads are listed per process as before.)
	 */
	if (pc->ever_listed && hinted && !pc->threads) {
		for (i = 0; i < pc->procs.n; i++)
			pc->procs.v[i]->seen_scan = pc->scan;
		for (i = 0; i < pc->nhint; i++)
			seen_proc(pc, pc->hint[i], NULL);
		pc->st.event_scans++;
		return false;
	}
	/*
	 * No pid was allocated since the last listing (the kernel's last_pid did
	 * not move): no process or thread can have appeared, so the listing is
	 * skipped. Exits show as failed reads. This makes a steady-state refresh
	 * one pread per process and nothing else.
	 */
	if (pc->listed && m->sys.have_load && l->has_last_pid && l->last_pid == pc->last_pid) {
		for (i = 0; i < pc->procs.n; i++)
			pc->procs.v[i]->seen_scan = pc->scan;
		pc->st.skipped_scans++;
		return false;
	}
	/* last_pid is read before the listing, so a fork after it is seen next time. */
	pc->listed = m->sys.have_load && l->has_last_pid;
	pc->last_pid = l->last_pid;
	if (lseek(pc->fc.dirfd, 0, SEEK_SET) == 0) {
		scan_pids(pc, pc->fc.dirfd, seen_proc, NULL);
		pc->st.scans++;
		pc->ever_listed = true;
	}
	/* Not listed any more: gone (a zombie is still listed until reaped). */
	for (i = 0; i < pc->procs.n;) {
		struct pentry *e = pc->procs.v[i];

		if (e->seen_scan != pc->scan)
			entries_del(pc, &pc->procs, e);
		else
			i++;
	}
	return true;
}

/*
 * Read @dir/@name, or @dir/task/@tid/@name when @tid is not 0, whole: a full
 * buffer may be a cut file, so grow it (up to @max) and read again. The path is
 * formatted only when the file must be opened.
 */
static ssize_t read_file(struct procfs *pc, struct pfile *pf, const char *dir, pid_t tid,
			 const char *name, size_t max)
{
	ssize_t n;

	for (;;) {
		if (tid)
			n = pfile_read(&pc->fc, pf, pc->buf, pc->bufsz, "%s/task/%d/%s", dir,
				       (int)tid, name);
		else
			n = pfile_read(&pc->fc, pf, pc->buf, pc->bufsz, "%s/%s", dir, name);
		if (n < (ssize_t)pc->bufsz || pc->bufsz >= max)
			return n;
		pc->bufsz *= 2;
		pc->buf = xrealloc(pc->buf, pc->bufsz);
	}
}

/* A thread's run_delay: time runnable, waiting for a CPU (ns), schedstat's second field. */
static int read_run_delay(struct procfs *pc, struct pfile *pf, const char *dir, pid_t tid,
			  uint64_t *out)
{
	ssize_t n = read_file(pc, pf, dir, tid, "schedstat", 4096);
	unsigned long long run, delay;

	pc->st.schedstat_reads++;
	if (n <= 0 || n >= (ssize_t)pc->bufsz)
		return -EIO;
	pc->buf[n] = '\0';
	if (sscanf(pc->buf, "%llu %llu", &run, &delay) != 2)
		return -EINVAL;
	*out = delay;
	return 0;
}

static int read_status(struct procfs *pc, struct pfile *pf, const char *dir, pid_t tid,
		       struct pid_status *st)
{
	ssize_t n = read_file(pc, pf, dir, tid, "status", 1 << 20);

	pc->st.status_reads++;
	if (n <= 0)
		return n < 0 ? (int)n : -ESRCH;
	return procfs_parse_pid_status(pc->buf, (size_t)n, st);
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

static struct pthread_ctx *thr_find(struct pthread_ctx **v, size_t n, pid_t tid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid]->tid == tid)
			return v[mid];
		if (v[mid]->tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct tid_list {
	pid_t *v;
	size_t n, cap;
};

static void seen_tid(struct procfs *pc, pid_t tid, void *arg)
{
	struct tid_list *l = arg;

	(void)pc;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = tid;
}

/* The tids of process @e, sorted; caller frees l->v. */
static int list_tids(struct procfs *pc, struct pentry *e, struct tid_list *l)
{
	int fd, err;

	fd = pfile_dir(&pc->fc, &e->taskdir, "%s/task", e->path);
	if (fd < 0)
		return fd;
	err = scan_pids(pc, fd, seen_tid, l);
	if (err)
		return err;
	sort_array(l->v, l->n, sizeof(*l->v), pid_cmp);
	return 0;
}

/*
 * Context switches of a process: the kernel counts them per thread, so the
 * process's count is the sum over its threads. Threads come and go, so the
 * process counter is built from per-thread deltas: a thread seen last tick adds
 * what it gained, a new one adds all it has (it was born in the interval).
 * What a thread did between the last read and its exit is lost; ftrace counts it.
 */
static int sample_ctxsw(struct procfs *pc, struct pentry *e, struct task_reading *r,
			const struct model *m, bool runq)
{
	bool continuous = e->status_tick && e->status_tick + 1 == m->tick;
	struct tid_list tids = { NULL, 0, 0 };
	struct pthread_ctx **now;
	struct pid_status st;
	uint64_t sum_v = 0, sum_iv = 0, sum_rq = 0, rq = 0;
	bool rq_ok = runq;
	size_t i, k;
	int err;

	/* The leader's status: uid, and the counts of a single-threaded process. */
	err = read_status(pc, &e->status, e->path, 0, &st);
	if (err)
		return err;
	if (st.uid >= 0)
		e->uid = st.uid;
	if (st.vcsw < 0 || st.ivcsw < 0)
		return -ENOTSUP;	/* a kernel without these lines */

	if (r->stat.num_threads <= 1 && e->nthr <= 1) {
		/*
		 * One thread, the leader: no task/ listing needed. It is still kept
		 * in e->thr so that, when the process starts threads, its count is
		 * known and only what it gains is added.
		 */
		struct pthread_ctx *l = e->nthr ? e->thr[0] : NULL;
		uint64_t v = (uint64_t)st.vcsw, iv = (uint64_t)st.ivcsw;

		if (l && l->tid != e->pid) {
			thr_free(pc, l);
			l = NULL;
		}
		if (runq && read_run_delay(pc, l ? &l->schedstat : &e->schedstat, e->path, 0, &rq))
			rq_ok = false;
		if (continuous && l) {
			e->acc_vcsw += v >= l->vcsw ? v - l->vcsw : v;
			e->acc_ivcsw += iv >= l->ivcsw ? iv - l->ivcsw : iv;
			e->acc_runq += rq >= l->run_delay ? rq - l->run_delay : rq;
		} else if (!continuous) {
			e->acc_vcsw = v;
			e->acc_ivcsw = iv;
			e->acc_runq = rq;
		} else {
			e->acc_vcsw += v;	/* its only thread now, unknown before */
			e->acc_ivcsw += iv;
			e->acc_runq += rq;
		}
		if (!l) {
			l = xcalloc(1, sizeof(*l));
			l->tid = e->pid;
			pfile_init(&l->status);
			pfile_init(&l->schedstat);
			if (!e->thr)
				e->thr = xmalloc(sizeof(*e->thr));
			e->thr[0] = l;
			e->nthr = 1;
		}
		l->vcsw = v;
		l->ivcsw = iv;
		l->run_delay = rq;
		goto done;
	}

	err = list_tids(pc, e, &tids);
	if (err) {
		free(tids.v);
		return err;
	}
	now = xcalloc(tids.n, sizeof(*now));
	for (i = 0, k = 0; i < tids.n; i++) {
		struct pthread_ctx *cur = thr_find(e->thr, e->nthr, tids.v[i]);
		uint64_t old_v = 0, old_iv = 0, old_rq = 0, trq = 0;
		bool known = cur != NULL;
		struct pid_status ts;

		if (known) {
			old_v = cur->vcsw;
			old_iv = cur->ivcsw;
			old_rq = cur->run_delay;
		} else {
			cur = xcalloc(1, sizeof(*cur));
			cur->tid = tids.v[i];
			pfile_init(&cur->status);
			pfile_init(&cur->schedstat);
		}
		now[k++] = cur;
		cur->kept = m->tick;
		if (cur->tid == e->pid) {
			ts = st;	/* the leader: read above */
		} else {
			if (read_status(pc, &cur->status, e->path, cur->tid, &ts) || ts.vcsw < 0 || ts.ivcsw < 0) {
				k--;	/* exited meanwhile */
				cur->kept = 0;
				if (!known)
					thr_free(pc, cur);
				continue;
			}
		}
		/* Exited between the two reads: its status counts, its delay is the last read's. */
		/* The leader's as the single-threaded path reads it: PID/schedstat. */
		if (runq && read_run_delay(pc, &cur->schedstat, e->path,
					   cur->tid == e->pid ? 0 : cur->tid, &trq))
			trq = old_rq;
		cur->vcsw = (uint64_t)ts.vcsw;
		cur->ivcsw = (uint64_t)ts.ivcsw;
		cur->run_delay = trq;
		sum_v += cur->vcsw;
		sum_iv += cur->ivcsw;
		sum_rq += trq;
		if (continuous) {
			/* A smaller count is a tid reused by a new thread: all of it is new. */
			e->acc_vcsw += known && cur->vcsw >= old_v ? cur->vcsw - old_v : cur->vcsw;
			e->acc_ivcsw += known && cur->ivcsw >= old_iv ? cur->ivcsw - old_iv : cur->ivcsw;
			e->acc_runq += known && trq >= old_rq ? trq - old_rq : trq;
		}
	}
	if (!continuous) {
		e->acc_vcsw = sum_v;
		e->acc_ivcsw = sum_iv;
		e->acc_runq = sum_rq;
	}
	/* Threads of the old list that are not in the new one have exited. */
	for (i = 0; i < e->nthr; i++)
		if (e->thr[i]->kept != m->tick)
			thr_free(pc, e->thr[i]);
	free(e->thr);
	e->thr = now;
	e->nthr = k;
	free(tids.v);
done:
	e->status_tick = m->tick;
	r->have_csw = true;
	r->vcsw = e->acc_vcsw;
	r->ivcsw = e->acc_ivcsw;
	/* A new reading series (first, or after a gap) is no count: the model needs two. */
	r->have_runq = rq_ok;
	r->runq_ns = e->acc_runq;
	return 0;
}

/* @t: the model's task of this process (the same one), NULL if none. */
static void sample_cmdline(struct procfs *pc, struct pentry *e, const struct task *t,
			   struct task_reading *r)
{
	ssize_t n;

	n = pfile_read(&pc->fc, &e->cmdline, pc->buf,
		       pc->bufsz < CMDLINE_MAX ? pc->bufsz : CMDLINE_MAX, "%s/cmdline", e->path);
	pc->st.cmdline_reads++;
	if (n < 0)
		return;
	/* A zombie's is empty: its row, X once reaped, keeps what it ran (Z shows [comm]). */
	if (!n && r->stat.state == 'Z' && t && t->cmdline)
		return;
	/* Unchanged (the usual case): keep the copy the model has. */
	if (t && t->cmdline && t->cmdline_len == (size_t)n && !memcmp(t->cmdline, pc->buf, (size_t)n))
		return;
	r->cmdline = rcstr_new(pc->buf, (size_t)n);
	r->cmdline_len = (size_t)n;
}

/* Its I/O byte counters (collectors/proc/procio.h). */
static void sample_io(struct procfs *pc, struct pentry *e, struct task_reading *r)
{
	struct procio io;

	pc->st.io_reads++;
	if (procio_read(&pc->fc, &e->io, e->path, &io))
		return;
	r->have_io = true;
	r->io_read = io.read_bytes;
	r->io_write = io.write_bytes;
}

/*
 * Read one task's files into a reading of @s. Returns false when the task is
 * gone (its stat cannot be read) so the caller drops the entry.
 */
static bool sample_entry(struct procfs *pc, struct pentry *e, const struct model *m,
			 const struct procfs_need *need, struct sample *s)
{
	struct task_reading *r;
	const struct task *t;
	unsigned wants;
	bool was_open;
	ssize_t n;

	was_open = e->stat.fd >= 0;
	n = pfile_read(&pc->fc, &e->stat, pc->buf, STAT_BUF, "%s/stat", e->path);
	pc->st.stat_reads++;
	if (n <= 0 && was_open) {
		/*
		 * The descriptors are bound to the process that was there when they
		 * were opened, and fail once it is gone, even when a new process has
		 * its pid already (reused within one refresh: a listing or a fork
		 * event names it). Opened again, the files are the new process's.
		 */
		entry_forget_files(pc, e);
		n = pfile_read(&pc->fc, &e->stat, pc->buf, STAT_BUF, "%s/stat", e->path);
		if (n > 0)
			e->born = !pc->focus;
	}
	r = sample_add_task(s);
	if (n <= 0 || procfs_parse_pid_stat(pc->buf, (size_t)n, &r->stat)) {
		s->ntasks--;
		return false;
	}
	r->pid = e->pid;
	r->tgid = e->tgid;
	r->born = e->born;
	e->born = false;

	/* What the views want of it follows the pid (a reused one too). */
	t = model_task_find(m, e->pid);
	wants = need->all;
	if (t && model_task_wants_status(m, t))
		wants |= need->wanted;
	/* The model's copy of its command line is this process's only if it is the same one. */
	if (t && t->starttime && t->starttime != r->stat.starttime)
		t = NULL;
	if (wants & (NEED_STATUS | NEED_SCHEDSTAT)) {
		if (e->is_thread) {
			struct pid_status ps;

			if (read_status(pc, &e->status, e->path, 0, &ps) == 0) {
				if (ps.uid >= 0)
					e->uid = ps.uid;
				if (ps.vcsw >= 0 && ps.ivcsw >= 0) {
					r->have_csw = true;
					r->vcsw = (uint64_t)ps.vcsw;
					r->ivcsw = (uint64_t)ps.ivcsw;
				}
			}
			if ((wants & NEED_SCHEDSTAT) &&
			    !read_run_delay(pc, &e->schedstat, e->path, 0, &r->runq_ns))
				r->have_runq = true;
		} else {
			sample_ctxsw(pc, e, r, m, wants & NEED_SCHEDSTAT);
		}
	}
	if ((wants & NEED_CMDLINE) ||
	    ((need->first & NEED_CMDLINE) && (!t || !t->cmdline || strcmp(t->comm, r->stat.comm))))
		sample_cmdline(pc, e, t, r);
	if (wants & NEED_IO)
		sample_io(pc, e, r);
	if (wants & NEED_CGROUP) {
		/* Without events, a new name is the sign of an exec. */
		if (t && t->cgroup && strcmp(t->comm, r->stat.comm))
			e->cgroup = NULL;
		sample_cgroup(pc, e, r);
	}
	r->uid = e->uid;
	r->user = users_name(pc->users, e->uid);
	return true;
}

/* Thread mode: make sure every thread of process @p has an entry. */
static void discover_threads(struct procfs *pc, struct pentry *p)
{
	struct tid_list tids = { NULL, 0, 0 };
	size_t i;

	if (list_tids(pc, p, &tids) == 0) {
		for (i = 0; i < tids.n; i++) {
			struct pentry *e = pidmap_get(&pc->tasks.map, tids.v[i]);

			if (e && e->tgid != p->pid) {
				entries_del(pc, &pc->tasks, e);	/* a tid reused elsewhere */
				e = NULL;
			}
			if (!e) {
				e = entries_add(pc, &pc->tasks, tids.v[i], p->pid, true);
				/* New if its process is, or if its tids were listed last tick. */
				e->born = p->born || (p->tids_scan && p->tids_scan + 1 == pc->scan);
			}
			e->seen_scan = pc->scan;
		}
		p->tids_scan = pc->scan;
	}
	p->born = false;
	free(tids.v);
}

/* How often a long scan calls its pause: a read of /proc/PID/stat can wait (see procfs.h). */
#define PAUSE_NS 20000000ull

void procfs_set_pause(struct procfs *pc, void (*fn)(void *), void *arg)
{
	pc->pause = fn;
	pc->pause_arg = arg;
}

void procfs_collect(struct procfs *pc, const struct model *m, const struct procfs_need *need,
		    struct sample *s)
{
	struct entries *es = pc->threads ? &pc->tasks : &pc->procs;
	size_t i;

	if (discover(pc, m)) {
		if (pc->threads)
			for (i = 0; i < pc->procs.n; i++)
				discover_threads(pc, pc->procs.v[i]);
	} else if (pc->threads) {
		for (i = 0; i < pc->tasks.n; i++)
			pc->tasks.v[i]->seen_scan = pc->scan;
		for (i = 0; i < pc->procs.n; i++)
			pc->procs.v[i]->tids_scan = pc->scan;
	}
	pc->pause_at = clocks_mono_ns() + PAUSE_NS;
	for (i = 0; i < es->n;) {
		struct pentry *e = es->v[i];

		/* A clock read (tens of ns) against a read of /proc (microseconds at least). */
		if (pc->pause && clocks_mono_ns() >= pc->pause_at) {
			pc->pause(pc->pause_arg);
			pc->pause_at = clocks_mono_ns() + PAUSE_NS;
		}
		if (pc->threads && e->seen_scan != pc->scan) {
			entries_del(pc, es, e);	/* the swap brings an unread entry to i */
		} else if (!sample_entry(pc, e, m, need, s)) {
			if (pc->focus && !pc->threads && !procfs_pid_exists(pc, e->pid))
				focus_drop(pc, e->pid);
			entries_del(pc, es, e);
		} else
			i++;
	}
}

void procfs_get_stats(const struct procfs *pc, struct procfs_stats *st)
{
	*st = pc->st;
	st->opens = pc->fc.opens;
	st->evictions = pc->fc.evictions;
	st->nopen = pc->fc.nopen;
	st->budget = pc->fc.budget;
}

/*
 * The parsers of the files read above: pure functions over a buffer, no I/O
 * and no allocation, unit-tested and fuzzed with hostile input.
 */

/*
 * A bounded cursor over a buffer that is not NUL-terminated (pread fills it with
 * exactly what the kernel wrote), so the parser never reads past @end.
 */
struct cursor {
	const char *p, *end;
};

static int next_u64(struct cursor *c, uint64_t *out)
{
	uint64_t v = 0;
	const char *start;

	while (c->p < c->end && *c->p == ' ')
		c->p++;
	start = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		v = v * 10 + (uint64_t)(*c->p - '0');
		c->p++;
	}
	if (c->p == start)
		return -EINVAL;
	*out = v;
	return 0;
}

static int next_i64(struct cursor *c, int64_t *out)
{
	uint64_t v;
	int neg = 0;

	while (c->p < c->end && *c->p == ' ')
		c->p++;
	if (c->p < c->end && *c->p == '-') {
		neg = 1;
		c->p++;
	}
	if (next_u64(c, &v))
		return -EINVAL;
	/* Negated unsigned: "-9223372036854775808" must not overflow a signed negation. */
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static int skip_fields(struct cursor *c, int n)
{
	int64_t dummy;

	while (n--)
		if (next_i64(c, &dummy))
			return -EINVAL;
	return 0;
}

static const char *memrchr_bounded(const char *buf, size_t len, char ch)
{
	while (len--)
		if (buf[len] == ch)
			return buf + len;
	return NULL;
}

int procfs_parse_pid_stat(const char *buf, size_t len, struct pid_stat *st)
{
	struct cursor c = { buf, buf + len };
	const char *open, *close;
	uint64_t u;
	int64_t i;
	size_t n;

	memset(st, 0, sizeof(*st));
	st->processor = -1;

	/*
	 * "pid (comm) state ...": comm may hold spaces, '(' and ')', so it ends at
	 * the last ')' of the line, the only one that cannot belong to comm.
	 */
	open = memchr(buf, '(', len);
	close = memrchr_bounded(buf, len, ')');
	if (!open || !close || close < open)
		return -EINVAL;
	c.end = open;
	if (next_u64(&c, &u) || u == 0 || u > 0x7fffffff)
		return -EINVAL;
	st->pid = (pid_t)u;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	st->comm[n] = '\0';

	c.p = close + 1;
	c.end = buf + len;
	if (c.end - c.p < 2 || c.p[0] != ' ')
		return -EINVAL;
	st->state = c.p[1];
	c.p += 2;

	if (next_i64(&c, &i)) return -EINVAL;	/* 4 ppid */
	st->ppid = (pid_t)i;
	if (next_i64(&c, &i)) return -EINVAL;	/* 5 pgrp */
	st->pgid = (pid_t)i;
	if (next_i64(&c, &i)) return -EINVAL;	/* 6 session */
	st->sid = (pid_t)i;
	if (next_i64(&c, &i)) return -EINVAL;	/* 7 tty_nr */
	st->tty_nr = (int)i;
	if (skip_fields(&c, 1)) return -EINVAL;	/* 8 tpgid */
	if (next_u64(&c, &u)) return -EINVAL;	/* 9 flags */
	st->have_flags = true;
	st->kthread = u & PROCFS_PF_KTHREAD;
	if (next_u64(&c, &st->minflt)) return -EINVAL;	/* 10 */
	if (skip_fields(&c, 1)) return -EINVAL;		/* 11 cminflt */
	if (next_u64(&c, &st->majflt)) return -EINVAL;	/* 12 */
	if (skip_fields(&c, 1)) return -EINVAL;		/* 13 cmajflt */
	if (next_u64(&c, &st->utime)) return -EINVAL;	/* 14 */
	if (next_u64(&c, &st->stime)) return -EINVAL;	/* 15 */
	if (skip_fields(&c, 2)) return -EINVAL;		/* 16 cutime, 17 cstime */
	if (next_i64(&c, &st->priority)) return -EINVAL;	/* 18 */
	if (next_i64(&c, &st->nice)) return -EINVAL;	/* 19 */
	if (next_u64(&c, &st->num_threads)) return -EINVAL;	/* 20 */
	if (skip_fields(&c, 1)) return -EINVAL;		/* 21 itrealvalue */
	if (next_u64(&c, &st->starttime)) return -EINVAL;	/* 22 */
	if (next_u64(&c, &st->vsize)) return -EINVAL;	/* 23 */
	if (next_u64(&c, &st->rss)) return -EINVAL;	/* 24 */
	/* The kernel always writes more after rss: a file cut inside it is not whole. */
	if (c.p == c.end)
		return -EINVAL;
	/* 25..38 are optional for ktop; 39 is the last CPU the task ran on. */
	if (skip_fields(&c, 14) == 0 && next_i64(&c, &i) == 0)
		st->processor = (int)i;
	return 0;
}

/* Value of the line "@key:\t..." in a status buffer, or NULL. */
static const char *status_line(const char *buf, size_t len, const char *key,
			       const char **end)
{
	size_t klen = strlen(key);
	const char *p = buf, *e = buf + len, *nl;

	while (p < e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		if ((size_t)(nl - p) > klen && memcmp(p, key, klen) == 0 && p[klen] == ':') {
			*end = nl;
			return p + klen + 1;
		}
		p = nl + 1;
	}
	return NULL;
}

static int64_t status_field(const char *buf, size_t len, const char *key, int nth)
{
	struct cursor c;
	uint64_t v = 0;
	const char *end;

	c.p = status_line(buf, len, key, &end);
	if (!c.p)
		return -1;
	c.end = end;
	while (nth-- >= 0) {
		while (c.p < c.end && *c.p == '\t')
			c.p++;
		if (next_u64(&c, &v))
			return -1;
	}
	return (int64_t)v;
}

int procfs_parse_elf_compat(const unsigned char *h, size_t len, unsigned native_em)
{
	unsigned machine;

	/* e_ident: magic, class (1: 32-bit, 2: 64-bit), data (1: little endian). */
	if (len < 20 || memcmp(h, "\177ELF", 4) != 0 || (h[4] != 1 && h[4] != 2) ||
	    (h[5] != 1 && h[5] != 2))
		return -1;
	/* e_machine, at 18, in the file's byte order. */
	machine = h[5] == 1 ? (unsigned)(h[18] | h[19] << 8) : (unsigned)(h[18] << 8 | h[19]);
	return h[4] == 1 && machine != native_em;
}

int procfs_parse_pid_status(const char *buf, size_t len, struct pid_status *st)
{
	st->tgid = status_field(buf, len, "Tgid", 0);
	st->uid = status_field(buf, len, "Uid", 1);
	st->vcsw = status_field(buf, len, "voluntary_ctxt_switches", 0);
	st->ivcsw = status_field(buf, len, "nonvoluntary_ctxt_switches", 0);
	/* A status file always has Name: first; anything else is not one. */
	if (len < 5 || memcmp(buf, "Name:", 5) != 0)
		return -EINVAL;
	return 0;
}
