// SPDX-License-Identifier: GPL-2.0-only
#include "exits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lifecpu.h"
#include "taskstats.h"
#include "../proc/users.h"
#include "../../lib/pidmap.h"
#include "../../lib/util.h"

/* Drain calls a tick may make while the kernel says more records are queued. */
#define DRAIN_ROUNDS 8
/* A process's thread sum not added to for this many ticks, its row gone: stale. */
#define SUM_FORGET_TICKS 8

/* A process's thread records so far (one that had threads), until its last. */
struct tsum {
	uint64_t cnt[CNT_NR];
	uint64_t last_tick;		/* the collect that last added to it */
	bool have_start;		/* its leader's record came: the process's start */
	uint64_t start_lo, start_hi;	/* clock ticks after boot */
};

/* A final reading waiting for its task's row to be dead (or for none). */
struct pending {
	struct task_final f;
	bool have_window;		/* the start is known: the row's must be in it */
	uint64_t start_lo, start_hi;	/* clock ticks after boot */
	unsigned age;			/* ticks waited */
	uint64_t boundary;		/* the previous tick's beginning when it was read */
};

struct exits {
	struct taskstats_listener *ts;
	long hz;
	pid_t self;
	struct users *users;
	struct taskstats_vec in;		/* records read, not looked at yet */
	struct pending *pend;
	size_t npend, cap_pend;
	struct pidmap sums;		/* tgid -> struct tsum */
	struct lifecpu *life;		/* the rows' time on a CPU, by the events */
	uint64_t ticks;			/* exits_collect calls */
	uint64_t begin_ticks;		/* this tick's exits_begin, clock ticks after boot */
	uint64_t prev_begin_ticks;	/* the previous tick's; 0 = none */
	uint64_t listen_ticks;		/* when listening began, clock ticks after boot */
	uint64_t last_drop_ticks;	/* when drops were last found; 0 = never */
	uint64_t drops_seen;		/* the listener's drop count at the last look */
	uint64_t enobufs_seen;
	uint64_t lost;			/* this interval */
	bool lost_unknown;
	bool fed;			/* records were fed (exits_feed): as if listening */
	struct exits_stats st;
	char status[160];
};

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t ns_to_ticks(uint64_t ns, long hz)
{
	return ns / 1000000000u * (uint64_t)hz + ns % 1000000000u * (uint64_t)hz / 1000000000u;
}

struct exits *exits_new(long hz)
{
	struct exits *x = xcalloc(1, sizeof(*x));

	x->hz = hz > 0 ? hz : 100;
	x->self = getpid();
	x->users = users_new();
	pidmap_init(&x->sums);
	x->life = lifecpu_new();
	snprintf(x->status, sizeof(x->status), "exit records off");
	return x;
}

static void sums_clear(struct exits *x)
{
	size_t i;

	for (i = 0; i < x->sums.cap; i++)
		if (x->sums.slots[i].key)
			free(x->sums.slots[i].val);
	pidmap_clear(&x->sums);
}

void exits_free(struct exits *x)
{
	if (!x)
		return;
	taskstats_close(x->ts);
	taskstats_vec_free(&x->in);
	free(x->pend);
	sums_clear(x);
	pidmap_free(&x->sums);
	lifecpu_free(x->life);
	users_free(x->users);
	free(x);
}

int exits_listen(struct exits *x, size_t rcvbuf)
{
	char why[128];
	int err;

	if (x->ts)
		return 0;
	err = taskstats_open(rcvbuf, &x->ts, why, sizeof(why));
	if (err) {
		snprintf(x->status, sizeof(x->status), "exit records off: %s", why);
		x->ts = NULL;
		return err;
	}
	x->listen_ticks = ns_to_ticks(clock_ns(CLOCK_BOOTTIME), x->hz);
	x->status[0] = '\0';
	return 0;
}

void exits_off(struct exits *x, const char *why)
{
	snprintf(x->status, sizeof(x->status), "%s", why);
}

bool exits_on(const struct exits *x)
{
	return x && x->ts;
}

const char *exits_status(const struct exits *x)
{
	return x ? x->status : "exit records off";
}

int exits_fd(const struct exits *x)
{
	return exits_on(x) ? taskstats_fd(x->ts) : -1;
}

/* New drops since the last look: counted for the interval, and when. */
static void note_drops(struct exits *x)
{
	struct taskstats_counts c;

	taskstats_get_counts(x->ts, &c);
	if (c.drops == x->drops_seen && c.enobufs == x->enobufs_seen)
		return;
	if (c.drops_known)
		x->lost += c.drops - x->drops_seen;
	else
		x->lost_unknown = true;
	x->st.lost += c.drops - x->drops_seen;
	x->drops_seen = c.drops;
	x->enobufs_seen = c.enobufs;
	x->last_drop_ticks = ns_to_ticks(clock_ns(CLOCK_BOOTTIME), x->hz);
}

/* Read what is queued; after a drop the queue must be emptied quickly. */
static void drain(struct exits *x, int rounds)
{
	size_t before = x->in.n, left = 1;

	while (rounds-- > 0 && left)
		if (taskstats_drain(x->ts, &x->in, 0, &left) < 0)
			break;
	x->st.records += x->in.n - before;
	note_drops(x);
}

void exits_drain(struct exits *x)
{
	if (exits_on(x))
		drain(x, 2);
}

void exits_feed(struct exits *x, const struct taskparse_exit *v, size_t n)
{
	if (x->in.n + n > x->in.cap) {
		x->in.cap = x->in.n + n + 64;
		x->in.v = xrealloc(x->in.v, x->in.cap * sizeof(*x->in.v));
	}
	memcpy(x->in.v + x->in.n, v, n * sizeof(*v));
	x->in.n += n;
	x->fed = true;
	x->st.records += n;
}

/*
 * A record's counters, as the model's: CPU in ns, the scheduler's runtime
 * when it has one, split into user and system time in the ratio of the
 * record's tick samples, as /proc splits it (cputime_adjust). The split
 * stays in ns here (sums of threads round once): final_ticks makes it ticks.
 */
static void record_counts(const struct taskparse_exit *e, uint64_t cnt[CNT_NR])
{
	uint64_t us = e->utime_us + e->stime_us, rt = e->run_ns ? e->run_ns : us * 1000u;

	cnt[CNT_CPU] = rt;
	if (!e->stime_us || !us)
		cnt[CNT_UTIME] = rt;
	else if (!e->utime_us)
		cnt[CNT_UTIME] = 0;
	else
		cnt[CNT_UTIME] = (uint64_t)((double)rt * (double)e->utime_us / (double)us);
	cnt[CNT_STIME] = rt - cnt[CNT_UTIME];
	cnt[CNT_MINFLT] = e->minflt;
	cnt[CNT_MAJFLT] = e->majflt;
	cnt[CNT_VCSW] = e->nvcsw;
	cnt[CNT_IVCSW] = e->nivcsw;
	cnt[CNT_DISK_READ] = e->read_bytes;
	cnt[CNT_DISK_WRITE] = e->write_bytes;
}

/* User and system time of record_counts in clock ticks, rounded down as /proc's. */
static void final_ticks(uint64_t cnt[CNT_NR], long hz)
{
	cnt[CNT_UTIME] = ns_to_ticks(cnt[CNT_UTIME], hz);
	cnt[CNT_STIME] = ns_to_ticks(cnt[CNT_STIME], hz);
}

#define FINAL_HAVE ((1u << CNT_CPU) | (1u << CNT_UTIME) | (1u << CNT_STIME) | \
		    (1u << CNT_MINFLT) | (1u << CNT_MAJFLT) | \
		    (1u << CNT_VCSW) | (1u << CNT_IVCSW) | \
		    (1u << CNT_DISK_READ) | (1u << CNT_DISK_WRITE))

static struct pending *add_pending(struct exits *x, const struct taskparse_exit *e, pid_t id)
{
	struct pending *p;
	size_t n;

	if (x->npend == x->cap_pend) {
		x->cap_pend = x->cap_pend ? x->cap_pend * 2 : 64;
		x->pend = xrealloc(x->pend, x->cap_pend * sizeof(*x->pend));
	}
	p = &x->pend[x->npend++];
	memset(p, 0, sizeof(*p));
	p->boundary = x->prev_begin_ticks;
	p->f.id = id;
	p->f.tgid = e->tgid ? e->tgid : e->tid;
	p->f.ppid = e->ppid;
	p->f.uid = e->uid;
	p->f.user = users_name(x->users, e->uid);
	n = strnlen(e->comm, sizeof(p->f.comm) - 1);
	memcpy(p->f.comm, e->comm, n);
	return p;
}

/* A task's own record is its whole: a thread (threads mode) or a process of one thread. */
static void pending_whole(struct exits *x, const struct taskparse_exit *e, pid_t id)
{
	struct pending *p = add_pending(x, e, id);

	record_counts(e, p->f.cnt);
	final_ticks(p->f.cnt, x->hz);
	p->f.have = FINAL_HAVE;
	p->have_window = taskparse_start_window(e, x->hz, &p->start_lo, &p->start_hi);
}

static struct tsum *sum_get(struct exits *x, pid_t tgid, bool create)
{
	struct tsum *s = pidmap_get(&x->sums, tgid);

	if (!s && create) {
		s = xcalloc(1, sizeof(*s));
		pidmap_put(&x->sums, tgid, s);
	}
	return s;
}

static void sum_add(struct exits *x, struct tsum *s, const struct taskparse_exit *e)
{
	uint64_t cnt[CNT_NR] = { 0 };
	int c;

	record_counts(e, cnt);
	for (c = 0; c < CNT_NR; c++)
		s->cnt[c] += cnt[c];
	s->last_tick = x->ticks;
	if (e->tid == e->tgid)
		s->have_start = taskparse_start_window(e, x->hz, &s->start_lo, &s->start_hi);
}

static void sum_del(struct exits *x, pid_t tgid)
{
	free(pidmap_get(&x->sums, tgid));
	pidmap_del(&x->sums, tgid);
}

/*
 * The last thread of a process that had threads: its row sums them all, when
 * all were heard: the process started after ktop listened and no record was
 * dropped since. Else its counters stay unknown.
 */
static void pending_sum(struct exits *x, const struct model *m, const struct taskparse_exit *e,
			struct tsum *s)
{
	struct pending *p = add_pending(x, e, e->tgid);
	const struct task *t = model_task_find(m, e->tgid);
	uint64_t start;

	/* /proc's start time is exact; the record's a window (exits.h). */
	if (t && t->starttime && (!s->have_start ||
				  (t->starttime >= s->start_lo && t->starttime <= s->start_hi)))
		start = t->starttime;
	else
		start = s->have_start ? s->start_lo : 0;
	p->have_window = s->have_start;
	p->start_lo = s->start_lo;
	p->start_hi = s->start_hi;
	if (!start || start <= x->listen_ticks || (x->last_drop_ticks && x->last_drop_ticks >= start)) {
		x->st.partial++;
return;
	}
	memcpy(p->f.cnt, s->cnt, sizeof(p->f.cnt));
	final_ticks(p->f.cnt, x->hz);
	p->f.have = FINAL_HAVE;
}

/* The records read since the last tick, into pending final readings. */
static void take_records(struct exits *x, const struct model *m)
{
	size_t i;

	for (i = 0; i < x->in.n; i++) {
		const struct taskparse_exit *e = &x->in.v[i];
		bool multi;
		struct tsum *s;

		/* A group record holds the threads' delay accounting only. */
		if (e->group || !e->tid || e->tgid == x->self)
			continue;
		/* The kernel sends one after the last thread of a process that had threads. */
		multi = i + 1 < x->in.n && x->in.v[i + 1].group && x->in.v[i + 1].tgid == e->tgid;
		if (m->threads)
			pending_whole(x, e, e->tid);
		if (!e->group_dead) {
			/* Summed for its process's row, in either mode (the mode may change). */
			if (e->tgid)
				sum_add(x, sum_get(x, e->tgid, true), e);
			continue;
		}
		s = sum_get(x, e->tgid, multi);
		if (!m->threads) {
			if (multi) {
				sum_add(x, s, e);
				pending_sum(x, m, e, s);
			} else {
				pending_whole(x, e, e->tgid);
			}
		}
		/* Done; or left by an older process of that pid whose last record was dropped. */
		if (s)
			sum_del(x, e->tgid);
	}
	x->in.n = 0;
}

/* Sums of processes that are gone without their last record (dropped). */
static void forget_sums(struct exits *x, const struct model *m)
{
	pid_t doomed[64];
	size_t i, n = 0;

	for (i = 0; i < x->sums.cap && n < ARRAY_SIZE(doomed); i++) {
		struct tsum *s = x->sums.slots[i].val;
		pid_t tgid = x->sums.slots[i].key;

		if (tgid && x->ticks - s->last_tick > SUM_FORGET_TICKS && !model_task_find(m, tgid))
			doomed[n++] = tgid;
	}
	for (i = 0; i < n; i++)
		sum_del(x, doomed[i]);
}

/* The row is alive this tick: /proc read it, and no exit event said otherwise. */
static bool row_alive(const struct model *m, const struct task *t)
{
	return t->seen_tick == m->tick && !t->exited && !t->gone;
}

void exits_begin(struct exits *x)
{
	if (!x)
		return;
	x->prev_begin_ticks = x->begin_ticks;
	x->begin_ticks = ns_to_ticks(clock_ns(CLOCK_BOOTTIME), x->hz);
}

static bool listed(const pid_t *v, size_t n, pid_t id)
{
	while (n--)
		if (*v++ == id)
			return true;
	return false;
}

/*
 * Has @id a past life this tick (its pid reused: model_past_find) without
 * its record, once those of @s from @from on are applied? Records come in
 * the order the tasks exited: the oldest such life's is the next.
 */
static bool past_open(const struct model *m, const struct sample *s, size_t from, pid_t id)
{
	const struct task *p;
	long open = 0;
	size_t i;

	for (p = model_past_find(m, id); p; p = p->older)
		open += p->past_tick == m->tick && !p->final;
	for (i = from; i < s->nfinals && open > 0; i++)
		open -= s->finals[i].id == id;
	return open > 0;
}

/* How many of @s's finals from @from on, before @f, are of @f's id. */
static size_t same_id(const struct sample *s, size_t from, const struct task_final *f)
{
	size_t n = 0;

	for (; from < s->nfinals && &s->finals[from] != f; from++)
		n += s->finals[from].id == f->id;
	return n;
}

void exits_collect(struct exits *x, const struct model *m, struct sample *s,
		   const pid_t *later, size_t nlater, bool forks_next)
{
	size_t i, keep = 0, first = s->nfinals;

	if (!x)
		return;
	x->ticks++;
	if (exits_on(x))
		drain(x, DRAIN_ROUNDS);
	take_records(x, m);
	/* Without records, nothing to add the events to. */
	if (exits_on(x) || x->fed)
		lifecpu_note(x->life, m);
	for (i = 0; i < x->npend; i++) {
		struct pending *p = &x->pend[i];
		const struct task *t = model_task_find(m, p->f.id);
		struct task_final *f;
		/* The pid is another process's now: the record's life is an earlier one. */
		bool other = t && t->starttime && p->have_window &&
			     (t->starttime < p->start_lo || t->starttime > p->start_hi);

		/* Unless its row waits for its fork: whether it is followed is known then. */
		if (m->focus && !model_is_focused(m, p->f.tgid) && !listed(later, nlater, p->f.id))
			continue;
		/*
		 * No task: forked after the events' cut, gone before the records
		 * were read, /proc never listed it. Shown now, X, it would be
		 * hidden when /proc lists it next tick, unreaped (model.c
		 * dead_listed), and its events would make a second row: its
		 * record waits for them, once.
		 */
		if (forks_next && !t && !p->age) {
			p->age++;
			x->pend[keep++] = *p;
			x->st.unborn++;
			continue;
		}
		if (listed(later, nlater, p->f.id) ||
		    (!other && t && row_alive(m, t) && !past_open(m, s, first, p->f.id))) {
			if (++p->age <= EXITS_WAIT_TICKS)
				x->pend[keep++] = *p;
			else
				x->st.unmatched++;
			continue;
		}
		f = sample_add_final(s);
		*f = p->f;
		f->have_window = p->have_window;
		f->start_lo = p->start_lo;
		f->start_hi = p->start_hi;
		/* The record leaves out the exit's own work: the events have it (its life's). */
		if (f->have & (1u << CNT_CPU))
			f->cnt[CNT_CPU] = lifecpu_final(x->life, model_final_of(m, f, same_id(s, first, f)),
							f->cnt[CNT_CPU]);
		/*
		 * Started after the tick before the one its record came at began
		 * (clock ticks: at most one early), or not.
		 */
		f->born = !p->have_window || p->start_hi >= p->boundary;
		x->st.rows++;
	}
	x->npend = keep;
	forget_sums(x, m);
	lifecpu_forget(x->life, m);
	if (exits_on(x)) {
		s->have_exit_totals = true;
		s->exits_lost = x->lost;
		s->exits_lost_unknown = x->lost_unknown && !x->lost;
	}
	x->lost = 0;
	x->lost_unknown = false;
}

void exits_get_stats(const struct exits *x, struct exits_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (x)
		*st = x->st;
}
