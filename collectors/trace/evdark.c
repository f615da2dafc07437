// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/evdark: how long the threads ran whose switch-outs the
 * kernel does not write (evsums.h, evsums_dark_*).
 *
 * This machine's kernel writes no task-context record of its VM agent's
 * threads (tokio-rt-worker, pid 1, nice -10): their interrupts' records
 * are written, and their switch-ins (the switch-out of the task they
 * preempt), never their switch-outs. When such a thread D preempts a
 * thread T, the CPU's next record is T's (its switch-out, a call): T ran
 * since D left, and D left somewhere between the CPU's last record and
 * T's. evsums.c credits T from the CPU's last record, so every D's run
 * became T's: three threads pinned to one CPU beside two CPU hogs ran
 * 9-25 ms more than their own schedstat said in 2 s, the preempted
 * thread's run-queue time as much less.
 *
 * The scheduler counts D's run time all the same (/proc/TID/schedstat):
 * the collector reads it at each cut. What D ran in the interval beyond
 * what its records credited it is the time it held its CPUs in its slots,
 * the stretches between where its credit ended and the next record on its
 * CPU. That is shared among its slots (water-filling: each gets an equal
 * share, none more than its length, what a short one cannot take going to
 * the longer ones), given to D as on-CPU time from its guessed sleep, and
 * taken from T's on-CPU time (T was runnable, waiting) where T's credit
 * began before D's share ended. Exact when D had one slot in the interval
 * (the usual case: the agent runs every few seconds); with several, each
 * slot's share is a guess whose sum is right. The first interval after a
 * thread is found dark has no count yet (its first read is the baseline).
 */
#include <stdlib.h>

#include "../../lib/util.h"
#include "evsums.h"

void evdark_slot(struct evsums *a, struct evsums_thread *d, uint64_t d_from, struct evsums_thread *t,
		 uint64_t t_from, uint64_t ts)
{
	struct evsums_dark_slot *s;

	if (!d || d->tid <= 0)
		return;
	d->dark = true;
	if (ts <= d_from)
		return;
	if (a->ndslots == ACCT_DARK_SLOTS) {
		a->dark_dropped++;
		return;
	}
	if (a->ndslots == a->cap_dslots) {
		a->cap_dslots = a->cap_dslots ? a->cap_dslots * 2 : 64;
		a->dslots = xrealloc(a->dslots, a->cap_dslots * sizeof(*a->dslots));
	}
	s = &a->dslots[a->ndslots++];
	s->d = d;
	s->t = t;
	s->d_from = d_from;
	s->t_from = t_from;
	s->ts = ts;
	s->x = 0;
}

void evsums_dark_reader(struct evsums *a, bool (*first)(void *arg, pid_t tid, uint64_t *run_ns, uint64_t *at_ns),
			void *arg)
{
	a->dark_first = first;
	a->dark_arg = arg;
}

bool evsums_dark_run(struct evsums *a, pid_t tid, uint64_t run_ns)
{
	struct evsums_thread *t = tid > 0 ? pidmap_get(&a->threads, tid) : NULL;

	if (!t || !t->dark)
		return false;
	t->dark_run = run_ns;
	t->dark_budget = true;
	return true;
}

/* By thread, then by length: each thread's slots together, shortest first. */
static int slot_cmp(const void *x, const void *y)
{
	const struct evsums_dark_slot *p = x, *q = y;
	uint64_t lp = p->ts - p->d_from, lq = q->ts - q->d_from;

	if (p->d != q->d)
		return (uintptr_t)p->d < (uintptr_t)q->d ? -1 : 1;
	return lp < lq ? -1 : lp > lq;
}

static void move_time(struct evsums *a, struct evsums_thread *t, enum counter from, enum counter to,
		      uint64_t ns)
{
	t->n[from] -= ns;
	t->n[to] += ns;
	a->total[from] -= ns;
	a->total[to] += ns;
}

/* Slot @s's share @s->x: @d's run, not the time of whoever its credit went to. */
static void give(struct evsums *a, const struct evsums_dark_slot *s)
{
	struct evsums_thread *d = s->d, *t = s->t;
	/* Its time there was counted as asleep (cpu_evict's guess): never more than that. */
	uint64_t x = s->x < d->n[CNT_SLEEP] ? s->x : d->n[CNT_SLEEP];
	uint64_t over;

	if (!x)
		return;
	move_time(a, d, CNT_SLEEP, CNT_ONCPU, x);
	a->dark_moved_ns += x;
	if (!t || t == d || s->d_from + x <= s->t_from)
		return;
	over = s->d_from + x - s->t_from;
	if (over > s->ts - s->t_from)
		over = s->ts - s->t_from;
	if (over > t->n[CNT_ONCPU])
		over = t->n[CNT_ONCPU];
	move_time(a, t, CNT_ONCPU, CNT_RUNQ, over);
	/*
	 * Of it, what came after its exit event was counted as its exit's work
	 * too (CNT_EXITCPU, which a dead row's CPU time adds to its record's).
	 */
	if (t->exit_ts && s->t_from + over > t->exit_ts) {
		uint64_t lo = s->t_from > t->exit_ts ? s->t_from : t->exit_ts;
		uint64_t after = s->t_from + over - lo;

		if (after > t->n[CNT_EXITCPU])
			after = t->n[CNT_EXITCPU];
		t->n[CNT_EXITCPU] -= after;
		a->total[CNT_EXITCPU] -= after;
	}
}

/*
 * @n slots of one dark thread, shortest first: its run beyond its credit
 * (up to @cut), shared among them.
 */
static void share(struct evsums *a, struct evsums_dark_slot *s, size_t n, uint64_t cut)
{
	struct evsums_thread *d = s->d;
	uint64_t left;
	size_t i;

	/*
	 * Found dark this interval: its run since tracing began, less what was
	 * credited to it before this interval, is this interval's (it ran
	 * before only where it left no slot: on a CPU at a cut, or moved).
	 */
	if (!d->dark_read && a->dark_first) {
		uint64_t since, at = 0;

		d->dark_read = true;
		if (a->dark_first(a->dark_arg, d->tid, &since, &at)) {
			/*
			 * Read now, after the buffers: one on a CPU at the cut
			 * (a spinner whose one switch-out was missed) ran since.
			 */
			if (d->st == ACCT_ST_ONCPU && at > cut)
				since -= since < at - cut ? since : at - cut;
			d->dark_run = since > d->oncpu_before ? since - d->oncpu_before : 0;
			d->dark_budget = true;
		}
	}
	if (!d->dark_budget || d->exit_ts || d->dark_run <= d->n[CNT_ONCPU])
		return;
	left = d->dark_run - d->n[CNT_ONCPU];
	for (i = 0; i < n; i++) {
		uint64_t len = s[i].ts - s[i].d_from, fair = left / (n - i);

		s[i].x = len < fair ? len : fair;
		left -= s[i].x;
	}
	for (i = 0; i < n; i++)
		give(a, &s[i]);
}

void evdark_apply(struct evsums *a, uint64_t cut)
{
	size_t i, j;

	if (!a->ndslots)
		return;
	sort_array(a->dslots, a->ndslots, sizeof(*a->dslots), slot_cmp);
	for (i = 0; i < a->ndslots; i = j) {
		for (j = i + 1; j < a->ndslots && a->dslots[j].d == a->dslots[i].d; j++)
			;
		share(a, &a->dslots[i], j - i, cut);
	}
	/* Budgets are the interval's: a slot of a thread not read this time gets nothing. */
	for (i = 0; i < a->ndslots; i++)
		a->dslots[i].d->dark_budget = false;
	a->ndslots = 0;
}
