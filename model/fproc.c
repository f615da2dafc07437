// SPDX-License-Identifier: GPL-2.0-only
#include "fproc.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "../lib/util.h"

/* Distinct (syscall, errno) pairs kept per process; past it, new pairs are not ranked. */
#define FPROC_MAX_ERRS 256
/* Variable samples kept: one per tick with events at most, so fewer than events. */
#define SAMPLES_PER_EVENTS 4

struct fproc *fproc_new(pid_t pid, size_t nevents)
{
	struct fproc *fp = xcalloc(1, sizeof(*fp));
	size_t ns = nevents / SAMPLES_PER_EVENTS;

	fp->pid = pid;
	fp->uid = -1;
	fp->last_out = fp->last_in = -1;	/* no switch seen yet */
	evring_init(&fp->events, sizeof(struct kev), nevents);
	evring_init(&fp->samples, sizeof(struct var_sample), ns < 64 ? 64 : ns);
	evring_init(&fp->sigs, sizeof(struct fsig), FPROC_SIGS);
	return fp;
}

void fproc_free(struct fproc *fp)
{
	if (!fp)
		return;
	free(fp->cmdline);
	sctable_free(&fp->sc_total);
	sctable_free(&fp->sc_last);
	sctable_free(&fp->sc_cur);
	sctable_free(&fp->times);
	free(fp->errs);
	free(fp->calls);
	free(fp->thr);
	evring_free(&fp->events);
	evring_free(&fp->samples);
	evring_free(&fp->sigs);
	free(fp);
}

struct kev *fproc_push_event(struct fproc *fp, const struct kev *e, uint64_t tick)
{
	struct kev *k = evring_push(&fp->events);

	*k = *e;
	k->last_out = fp->last_out;
	k->last_in = fp->last_in;
	k->last_sig = fp->last_sig;
	k->sample = fp->sampled_tick == tick && fp->samples.pushed ? fp->samples.pushed - 1 :
								    fp->samples.pushed;
	return k;
}

struct var_sample *fproc_sample_slot(struct fproc *fp, uint64_t tick)
{
	fp->sampled_tick = tick;
	return evring_push(&fp->samples);
}

void fproc_count_syscall(struct fproc *fp, uint32_t nr, int64_t ret, bool timed, uint64_t ns,
			 bool returned)
{
	struct sc_stat *s = sctable_get(&fp->times, nr);
	size_t i;

	s->calls++;
	fp->calls_total++;
	if (timed)
		sctable_time(&fp->times, s, ns);
	if (!returned || ret >= 0 || ret < -4095)
		return;
	s->errors++;
	s->top_errno = (uint32_t)-ret;
	fp->errors_total++;
	for (i = 0; i < fp->nerrs; i++) {
		if (fp->errs[i].nr == nr && fp->errs[i].err == (int)-ret) {
			fp->errs[i].count++;
			return;
		}
	}
	if (fp->nerrs == FPROC_MAX_ERRS)
		return;
	if (fp->nerrs == fp->cap_errs) {
		fp->cap_errs = fp->cap_errs ? fp->cap_errs * 2 : 8;
		fp->errs = xrealloc(fp->errs, fp->cap_errs * sizeof(*fp->errs));
	}
	fp->errs[fp->nerrs++] = (struct fp_errno){ .nr = nr, .err = (int)-ret, .count = 1 };
}

int fproc_top_errno(const struct fproc *fp, uint32_t nr)
{
	const struct fp_errno *best = NULL;
	size_t i;

	for (i = 0; i < fp->nerrs; i++)
		if (fp->errs[i].nr == nr && (!best || fp->errs[i].count > best->count))
			best = &fp->errs[i];
	if (best)
		return best->err;
	/* Pairs past the bound, or events lost: the most recent is all that is known. */
	{
		const struct sc_stat *s = sctable_find(&fp->sc_total, nr);

		return s ? (int)s->top_errno : 0;
	}
}

struct fsig *fproc_push_sig(struct fproc *fp)
{
	return evring_push(&fp->sigs);
}

/* The kernel's first real-time signal: below it, a signal is queued once per queue. */
#define KSIGRTMIN 32
/* signal_generate's results that queue it: TRACE_SIGNAL_DELIVERED, _LOSE_INFO. */
#define queued(r) ((r) == 0 || (r) == 4)

static bool same_queue(const struct fsig *a, int8_t group, pid_t target)
{
	return a->group >= 0 && group >= 0 && a->group == group && (group || a->target == target);
}

/*
 * A standard signal queued means none of it was pending in that queue: an
 * older entry still pending there was taken without a delivery seen.
 */
static void sig_retire(struct fproc *fp, const struct fsig *n)
{
	uint64_t seq;

	if (n->sig >= KSIGRTMIN)
		return;
	for (seq = fp->sigs.first; seq < fp->sigs.pushed; seq++) {
		struct fsig *c = evring_at(&fp->sigs, seq);

		if (c != n && c->sig == n->sig && c->delivery == FSIG_PENDING && queued(c->result) &&
		    c->ts <= n->ts && same_queue(c, n->group, n->target))
			c->delivery = FSIG_TAKEN;
	}
}

/*
 * A delivery read before its generation (a drain reads whole pages: the
 * sender's CPU may not have filled one yet): the entry the delivery made,
 * without a generation, after this one, the oldest such.
 */
static struct fsig *delivered_first(struct fproc *fp, const struct kev *e)
{
	uint64_t seq;

	for (seq = fp->sigs.first; seq < fp->sigs.pushed; seq++) {
		struct fsig *c = evring_at(&fp->sigs, seq);

		if (c->sig == e->u.sig.sig && c->result < 0 && !c->sender && c->group < 0 &&
		    c->delivery != FSIG_PENDING && c->ts_exact && c->ts >= e->ts &&
		    (e->u.sig.result == 4 || c->code == e->u.sig.code))
			return c;
	}
	return NULL;
}

struct fsig *fproc_sig_generated(struct fproc *fp, const struct kev *e)
{
	struct fsig *s = queued(e->u.sig.result) ? delivered_first(fp, e) : NULL;
	struct kev *k;

	if (s) {
		s->ts = e->ts;
		s->sender = e->u.sig.sender;
		s->target = e->u.sig.target;
		s->result = e->u.sig.result;
		s->code = e->u.sig.code;
		s->group = e->u.sig.group ? 1 : 0;
		/* Its deliver event, in the list already, learns who sent it. */
		if (s->ev_seq && (k = evring_at(&fp->events, s->ev_seq - 1)) &&
		    k->kind == KEV_SIGDELIVER)
			k->u.sig.sender = s->sender;
		return s;
	}
	s = fproc_push_sig(fp);
	memset(s, 0, sizeof(*s));
	s->ts = e->ts;
	s->ts_exact = true;
	s->sender = e->u.sig.sender;
	s->target = e->u.sig.target;
	s->sig = e->u.sig.sig;
	s->result = e->u.sig.result;
	s->code = e->u.sig.code;
	s->group = e->u.sig.group ? 1 : 0;
	s->delivery = FSIG_PENDING;
	if (queued(s->result))
		sig_retire(fp, s);
	return s;
}

struct fsig *fproc_sig_delivered(struct fproc *fp, struct kev *e, pid_t tid)
{
	struct fsig *s = NULL;
	int best = -1;
	uint64_t seq;

	for (seq = fp->sigs.first; seq < fp->sigs.pushed; seq++) {
		struct fsig *c = evring_at(&fp->sigs, seq);
		int rank;

		/* Only queued ones are delivered: not ignored (1), merged (2), overflow (3). */
		if (c->sig != e->u.sig.sig || c->delivery != FSIG_PENDING ||
		    !(c->result < 0 || queued(c->result)) || (c->ts_exact && c->ts > e->ts))
			continue;
		/* Its si_code, unless it lost its info (then dequeued as SI_USER). */
		if (c->group >= 0 && c->result == 0 && c->code != e->u.sig.code)
			continue;
		if (c->group == 0 && c->target != tid)
			continue;
		/* The thread's own queue first, then the process's, then an unknown one. */
		rank = c->group == 0 ? 2 : c->group == 1 ? 1 : 0;
		/* In one queue: a real-time signal's oldest; a standard one's newest (the only). */
		if (rank > best || (rank == best && e->u.sig.sig < KSIGRTMIN)) {
			best = rank;
			s = c;
		}
	}
	if (!s) {
		s = fproc_push_sig(fp);
		memset(s, 0, sizeof(*s));
		s->ts = e->ts;
		s->ts_exact = true;
		s->target = e->u.sig.target;
		s->sig = e->u.sig.sig;
		s->code = e->u.sig.code;
		s->result = -1;
		s->group = -1;
	}
	s->delivery = e->u.sig.handler == 0 ? FSIG_DEFAULT :
		      e->u.sig.handler == 1 ? FSIG_IGNORED : FSIG_HANDLER;
	if (!s->ts_exact) {	/* the generation was read first: its time is the delivery's */
		s->ts = e->ts;
		s->ts_exact = true;
	}
	if (s->group >= 0)
		sig_retire(fp, s);
	if (s->sender > 0) {
		e->u.sig.sender = s->sender;
		snprintf(e->u.sig.comm, sizeof(e->u.sig.comm), "%.15s", s->sender_comm);
	}
	return s;
}

static const enum counter rate_cnt[FR_NR] = {
	[FR_SYSCALLS] = CNT_SYSCALLS, [FR_SYSERR] = CNT_SYSERR, [FR_MINFLT] = CNT_MINFLT,
	[FR_MAJFLT] = CNT_MAJFLT, [FR_VCSW] = CNT_VCSW, [FR_IVCSW] = CNT_IVCSW,
	[FR_SIGNALS] = CNT_SIGRECV, [FR_ONCPU] = CNT_ONCPU, [FR_RUNQ] = CNT_RUNQ,
	[FR_SLEEP] = CNT_SLEEP, [FR_BLOCKED] = CNT_BLOCKED,
};

static void copy_identity(struct fproc *fp, const struct task *t)
{
	memcpy(fp->comm, t->comm, sizeof(fp->comm));
	if (t->cmdline && t->cmdline_len &&
	    (!fp->cmdline || fp->cmdline_len != t->cmdline_len ||
	     memcmp(fp->cmdline, t->cmdline, t->cmdline_len))) {
		free(fp->cmdline);
		fp->cmdline = xmalloc(t->cmdline_len);
		memcpy(fp->cmdline, t->cmdline, t->cmdline_len);
		fp->cmdline_len = t->cmdline_len;
	}
	if (t->user)
		fp->user = t->user;
	if (t->uid >= 0)
		fp->uid = t->uid;
	fp->state = t->state;
	fp->ppid = t->ppid;
	fp->pgid = t->pgid;
	fp->sid = t->sid;
	fp->threads = t->threads;
	fp->have_identity = true;
}

/* Add @t's calls and errors of this interval to the interval's table. */
static void take_calls(struct fproc *fp, const struct task *t)
{
	uint32_t i;

	for (i = 0; i < t->sc.cap; i++) {
		const struct sc_stat *s = &t->sc.slots[i];
		struct sc_stat *d;

		if (s->nr == SC_EMPTY)
			continue;
		d = sctable_get(&fp->sc_cur, s->nr);
		d->calls += s->calls;
		d->errors += s->errors;
		if (s->errors)
			d->top_errno = s->top_errno;
	}
}

/* The process's rows of this interval: its own, or (threads mode) its threads'. */
static void take_rows(struct fproc *fp, const struct model *m)
{
	const struct task *t;
	size_t i;

	if (!m->threads) {
		t = model_task_find(m, fp->pid);
		if (t && t->seen_tick == m->tick && !t->gone)
			take_calls(fp, t);
		return;
	}
	for (i = 0; i < m->ntasks; i++) {
		t = m->tasks[i];
		if (t->tgid == fp->pid && t->seen_tick == m->tick && !t->gone)
			take_calls(fp, t);
	}
}

void fproc_tick(struct fproc *fp, struct model *m)
{
	struct task *t = model_task_find(m, fp->pid);
	struct sctable tmp;
	int r;

	if (t && (m->threads ? t->tgid == fp->pid : true) && t->seen_tick == m->tick &&
	    !t->exited) {
		copy_identity(fp, t);
		/* Its status (uid, switches) is read every tick while focused. */
		t->want_until = m->tick + 1;
	} else if (fp->have_identity || m->tick > 1) {
		fp->exited = true;
		fp->state = 'X';
	}
	for (r = 0; r < FR_NR; r++) {
		double v;

		fp->hist[r][fp->hist_pos] = t && task_rate(m, t, rate_cnt[r], &v) ? (float)v : NAN;
	}
	fproc_threads_tick(fp, m->interval_s);
	fp->hist_pos = (fp->hist_pos + 1) % FPROC_HIST;
	if (fp->hist_n < FPROC_HIST)
		fp->hist_n++;

	/* The interval's syscalls become the last interval's; the table is reused. */
	take_rows(fp, m);
	fp->sys_lost += m->lost_events;
	fp->sys_lost_unknown |= m->lost_unknown;
	sctable_merge(&fp->sc_total, &fp->sc_cur);
	tmp = fp->sc_last;
	fp->sc_last = fp->sc_cur;
	fp->sc_cur = tmp;
	sctable_clear(&fp->sc_cur);
	fp->sc_last_s = m->interval_s;
}

bool fproc_snapshot(const struct fproc *fp, uint64_t seq, struct fsnap *snap)
{
	const struct kev *e = evring_at(&fp->events, seq), *pe;
	const struct var_sample *s, *ps = NULL;
	struct var_snap prev;

	if (!e) {
		snap->valid = false;
		return false;
	}
	s = evring_at(&fp->samples, e->sample);
	pe = seq > fp->events.first ? evring_at(&fp->events, seq - 1) : NULL;
	if (pe)
		ps = evring_at(&fp->samples, pe->sample);
	/* A kept event or sample never changes: what is kept says whether this one did. */
	if (snap->valid && snap->pid == fp->pid && snap->seq == seq && snap->ts == e->ts &&
	    snap->have_sample == !!s && snap->have_prev == !!pe && snap->have_prev_sample == !!ps)
		return true;
	snap->valid = true;
	snap->pid = fp->pid;
	snap->seq = seq;
	snap->ts = e->ts;
	snap->have_sample = s;
	snap->have_prev = pe;
	snap->have_prev_sample = ps;
	vars_snap(e, fp->pid, s, &snap->vars);
	snap->changed = 0;
	if (pe) {
		vars_snap(pe, fp->pid, ps, &prev);
		snap->changed = vars_changed(&prev, &snap->vars);
	}
	return true;
}

bool fproc_hist(const struct fproc *fp, enum fp_rate r, size_t back, double *out)
{
	float v;

	if (back >= fp->hist_n)
		return false;
	v = fp->hist[r][(fp->hist_pos + FPROC_HIST - 1 - back) % FPROC_HIST];
	if (isnan(v))
		return false;
	*out = v;
	return true;
}

size_t fproc_bytes(const struct fproc *fp)
{
	return sizeof(*fp) + evring_bytes(&fp->events) + evring_bytes(&fp->samples) +
	       evring_bytes(&fp->sigs) +
	       (fp->sc_total.cap + fp->sc_last.cap + fp->sc_cur.cap + fp->times.cap) *
	       sizeof(struct sc_stat) +
	       fp->cap_errs * sizeof(*fp->errs) + fp->cmdline_len +
	       fp->cap_calls * sizeof(*fp->calls) + fp->nthr * sizeof(*fp->thr);
}
