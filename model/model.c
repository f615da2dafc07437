// SPDX-License-Identifier: GPL-2.0-only
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fproc.h"
#include "../lib/rcstr.h"
#include "../lib/util.h"

/* How many ticks a row stays "wanted" after it was last shown (scrolling back). */
#define WANT_TICKS 10

void model_init(struct model *m, long hz, long page_kb)
{
	memset(m, 0, sizeof(*m));
	pidmap_init(&m->index);
	pidmap_init(&m->limbo);
	pidmap_init(&m->dead);
	pidmap_init(&m->past);
	pidmap_init(&m->unsure);
	m->hz = hz > 0 ? hz : 100;
	m->page_kb = page_kb > 0 ? page_kb : 4;
	m->events_uid = -1;
	m->cpu_bufs[0] = xcalloc(SYS_MAX_CPUS, sizeof(struct cpu_times));
	m->cpu_bufs[1] = xcalloc(SYS_MAX_CPUS, sizeof(struct cpu_times));
	m->sys.stat.cpu = m->cpu_bufs[0];
	m->sys.stat.ncpu_max = SYS_MAX_CPUS;
	m->sys_prev.stat.cpu = m->cpu_bufs[1];
	m->sys_prev.stat.ncpu_max = SYS_MAX_CPUS;
	m->sum.cpu_busy = xcalloc(SYS_MAX_CPUS, sizeof(*m->sum.cpu_busy));
	pidmap_init(&m->focus_set);
	systotals_init(&m->agg);
	sigflows_init(&m->sigflows);
	disks_init(&m->disks);
	cgnames_init(&m->names);
	cgres_table_init(&m->cgres);
}

static void task_free(struct task *t)
{
	rcstr_put(t->cmdline);
	sctable_free(&t->sc);
	sctable_free(&t->err);
	free(t);
}

static void dead_expire(struct model *m, bool all);

static void limbo_clear(struct pidmap *limbo)
{
	size_t i;

	for (i = 0; i < limbo->cap; i++)
		if (limbo->slots[i].key)
			task_free(limbo->slots[i].val);
	pidmap_clear(limbo);
}

void model_clear(struct model *m)
{
	size_t i;

	for (i = 0; i < m->ntasks; i++) {
		pidmap_del(&m->index, m->tasks[i]->pid);
		task_free(m->tasks[i]);
	}
	m->ntasks = 0;
	pidmap_clear(&m->past);
	limbo_clear(&m->limbo);
	dead_expire(m, true);
}

void model_restart(struct model *m)
{
	model_clear(m);
	m->tick = 0;
	m->t_now = m->t_prev = 0;
	m->interval_s = 0;
	m->sys.have_stat = m->sys.have_mem = m->sys.have_vm = false;
	m->sys.have_load = m->sys.have_uptime = false;
	m->sys_prev.have_stat = m->sys_prev.have_mem = m->sys_prev.have_vm = false;
	m->sys_prev.have_load = m->sys_prev.have_uptime = false;
}

void model_set_session(struct model *m, const struct sample_session *ss)
{
	if (ss->restart)
		model_restart(m);
	else if (ss->clear || ss->threads != m->threads)
		model_clear(m);
	m->hz = ss->hz > 0 ? ss->hz : 100;
	m->page_kb = ss->page_kb > 0 ? ss->page_kb : 4;
	m->threads = ss->threads;
	m->event_counters = ss->event_counters;
	m->events_uid = ss->events_uid;
	snprintf(m->trace_status, sizeof(m->trace_status), "%s", ss->trace_status);
	m->exit_records = ss->exit_records;
	snprintf(m->exits_status, sizeof(m->exits_status), "%s", ss->exits_status);
	disks_set_why(&m->disks, ss->disks_status);
	snprintf(m->conns_why, sizeof(m->conns_why), "%s", ss->conns_status);
	/* The recording's -p, unless this replay names its own. */
	if (ss->npins && !m->focus)
		model_set_focus(m, ss->pins, ss->npins);
}

void model_free(struct model *m)
{
	model_clear(m);
	free(m->calls);
	while (m->nfprocs)
		model_fproc_remove(m, m->fprocs[0]->pid);
	free(m->fprocs);
	free(m->tasks);
	free(m->focus);
	pidmap_free(&m->focus_set);
	sctable_free(&m->sc_total);
	systotals_free(&m->agg);
	sigflows_free(&m->sigflows);
	free(m->conns);
	disks_free(&m->disks);
	cgnames_free(&m->names);
	cgres_table_free(&m->cgres);
	free(m->cpu_bufs[0]);
	free(m->cpu_bufs[1]);
	free(m->sum.cpu_busy);
	pidmap_free(&m->index);
	limbo_clear(&m->limbo);
	pidmap_free(&m->limbo);
	dead_expire(m, true);
	pidmap_free(&m->dead);
	pidmap_free(&m->past);
	pidmap_free(&m->unsure);
}

/* A new interval for @t: this tick's readings and events start empty. */
static void task_begin(struct task *t)
{
	memcpy(t->prev, t->cnt, sizeof(t->prev));
	t->have_prev = t->have;
	t->have = 0;
	memset(t->ev, 0, sizeof(t->ev));
	t->ev_withheld = false;
	t->st_known = false;
	sctable_clear(&t->sc);
	sctable_clear(&t->err);
	t->exited = false;
	t->was_final = t->final;
	t->final = false;
	t->read_now = false;
}

void model_begin_tick(struct model *m, uint64_t mono_ns, double wall_s)
{
	struct sys_sample tmp;
	size_t i;

	m->tick++;
	pidmap_clear(&m->unsure);
	m->t_prev = m->t_now;
	m->t_now = mono_ns;
	m->wall_s = wall_s;
	m->interval_s = m->tick > 1 ? (double)(m->t_now - m->t_prev) / 1e9 : 0;

	/* The current system sample becomes the previous one; swap the buffers. */
	tmp = m->sys_prev;
	m->sys_prev = m->sys;
	m->sys = tmp;
	m->sys.have_stat = m->sys.have_mem = m->sys.have_vm = false;
	m->sys.have_load = m->sys.have_uptime = false;

	for (i = 0; i < m->ntasks; i++) {
		struct task *t = m->tasks[i];

		/* An exited named process keeps its last numbers (keep_exited). */
		if (t->gone || (m->keep_exited && t->state == 'X' && model_is_pinned(m, t->tgid))) {
			t->gone = true;
			continue;
		}
		task_begin(t);
	}
	memset(m->ev_total, 0, sizeof(m->ev_total));
	m->lost_events = 0;
	m->lost_unknown = false;
	sigflows_begin(&m->sigflows);
	m->nconns = 0;
	disks_begin(&m->disks);
	m->exits_lost = 0;
	m->exits_lost_unknown = false;
	/* A tick without a source for them (a replay, tracing off): not known. */
	m->calls_known = false;
	m->ncalls = 0;
}

static void task_reset(struct task *t, pid_t pid, pid_t tgid, uint64_t starttime)
{
	struct sctable sc = t->sc, err = t->err;

	rcstr_put(t->cmdline);
	/* The tables' memory is kept for the new task; their entries are not. */
	sctable_clear(&sc);
	sctable_clear(&err);
	memset(t, 0, sizeof(*t));
	t->sc = sc;
	t->err = err;
	t->top_nr = SC_EMPTY;
	t->pid = pid;
	t->tgid = tgid;
	t->starttime = starttime;
	t->uid = -1;
	t->processor = -1;
}

static void tasks_push(struct model *m, struct task *t)
{
	if (m->ntasks == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 256;
		m->tasks = xrealloc(m->tasks, m->cap * sizeof(*m->tasks));
	}
	m->tasks[m->ntasks++] = t;
}

static void tasks_add(struct model *m, struct task *t)
{
	tasks_push(m, t);
	pidmap_put(&m->index, t->pid, t);
}

/* A new task in the list, not in the index yet (a past life's stays out). */
static struct task *tasks_new(struct model *m, pid_t pid, pid_t tgid, uint64_t starttime)
{
	struct task *t = xcalloc(1, sizeof(*t));

	task_reset(t, pid, tgid, starttime);
	t->made_tick = m->tick;
	tasks_push(m, t);
	return t;
}

/* @t, the index's task of its pid, is an earlier life now (task.past). */
static void past_add(struct model *m, struct task *t)
{
	if (pidmap_get(&m->index, t->pid) == t)
		pidmap_del(&m->index, t->pid);
	t->past = true;
	t->past_tick = m->tick;
	t->older = pidmap_get(&m->past, t->pid);
	pidmap_put(&m->past, t->pid, t);
}

static void past_del(struct model *m, struct task *t)
{
	struct task *p = pidmap_get(&m->past, t->pid);

	if (p == t) {
		if (t->older)
			pidmap_put(&m->past, t->pid, t->older);
		else
			pidmap_del(&m->past, t->pid);
		return;
	}
	while (p && p->older != t)
		p = p->older;
	if (p)
		p->older = t->older;
}

/* A past life nothing else told of, from its row or its exit record. */
static struct task *past_new(struct model *m, pid_t pid, pid_t tgid)
{
	struct task *t = tasks_new(m, pid, tgid, 0);

	past_add(m, t);
	return t;
}

/*
 * @t's pid began a new life: the task that has it now. @t's row was shown
 * already (X at an earlier tick, or kept exited): @t is reset for it. Else
 * @t is a past life, and its end (the events' row, its exit record) may
 * still come this tick: never mixed with the new life's numbers.
 */
static struct task *new_life(struct model *m, struct task *t, pid_t tgid, uint64_t starttime)
{
	uint64_t want = t->want_until;
	pid_t pid = t->pid;

	if (t->gone || (t->state == 'X' && t->seen_tick != m->tick)) {
		task_reset(t, pid, tgid, starttime);
		t->made_tick = m->tick;
	} else {
		past_add(m, t);
		t = tasks_new(m, pid, tgid, starttime);
		pidmap_put(&m->index, pid, t);
	}
	t->want_until = want;
	return t;
}

struct task *model_task_sample(struct model *m, pid_t pid, pid_t tgid, uint64_t starttime)
{
	struct task *t = pidmap_get(&m->index, pid);

	if (t && !t->starttime && !(t->state == 'X' && t->seen_tick != m->tick)) {
		/* Created from events; /proc tells who it is. */
		t->starttime = starttime;
		t->tgid = tgid;
	} else if (t && t->starttime != starttime) {
		/* A reused pid: never mix the new process with the old one's numbers. */
		t = new_life(m, t, tgid, starttime);
	}
	if (!t) {
		t = tasks_new(m, pid, tgid, starttime);
		pidmap_put(&m->index, pid, t);
	}
	t->seen_tick = m->tick;
	return t;
}

const struct task *model_past_find(const struct model *m, pid_t pid)
{
	return pidmap_get(&m->past, pid);
}

struct task *model_task_find(const struct model *m, pid_t pid)
{
	return pidmap_get(&m->index, pid);
}

void model_task_set_counter(struct task *t, enum counter c, uint64_t v)
{
	t->cnt[c] = v;
	t->have |= 1u << c;
}

void model_task_add_events(struct task *t, enum counter c, uint64_t n)
{
	t->ev[c] += n;
}

bool model_state_counter(enum counter c)
{
	return (CNT_STATE_MASK & (1 << c)) || c == CNT_EXITCPU;
}

bool model_counts_events(const struct model *m, enum counter c)
{
	return m->event_counters & (1u << c);
}

void model_task_born(struct task *t)
{
	memset(t->prev, 0, sizeof(t->prev));
	t->have_prev = ~0u;
}

/* Clock ticks in nanoseconds (exact for the usual 100 Hz, 250, 1000). */
static uint64_t ticks_to_ns(uint64_t ticks, long hz)
{
	return ticks / (uint64_t)hz * 1000000000u + ticks % (uint64_t)hz * 1000000000u / (uint64_t)hz;
}

void model_task_set_stat(struct model *m, struct task *t, const struct pid_stat *st)
{
	memcpy(t->comm, st->comm, sizeof(t->comm));
	t->state = st->state;
	t->ppid = st->ppid;
	t->pgid = st->pgid;
	t->sid = st->sid;
	t->tty_nr = st->tty_nr;
	t->priority = st->priority;
	t->nice = st->nice;
	t->threads_before = t->threads;
	t->threads = st->num_threads;
	t->rss_kb = st->rss * (uint64_t)m->page_kb;
	t->vsize_kb = st->vsize / 1024;
	t->processor = st->processor;
	t->have_flags = st->have_flags;
	t->kthread = st->kthread;
	model_task_set_counter(t, CNT_UTIME, st->utime);
	model_task_set_counter(t, CNT_STIME, st->stime);
	model_task_set_counter(t, CNT_CPU, ticks_to_ns(st->utime + st->stime, m->hz));
	model_task_set_counter(t, CNT_MINFLT, st->minflt);
	model_task_set_counter(t, CNT_MAJFLT, st->majflt);
}

void model_task_set_cmdline(struct task *t, char *cmdline, size_t len)
{
	rcstr_put(t->cmdline);
	t->cmdline = cmdline;
	t->cmdline_len = len;
}

bool model_task_wants_status(const struct model *m, const struct task *t)
{
	return t->want_until >= m->tick;
}

void model_want_task(struct model *m, const struct task *t)
{
	/* The model's own (writable) task: @t came through a const view of it. */
	struct task *mt = pidmap_get(&m->index, t->pid);

	if (mt == t)
		mt->want_until = m->tick + WANT_TICKS;
}

bool task_delta(const struct task *t, enum counter c, uint64_t *out)
{
	if (!(t->have_delta & (1u << c)))
		return false;
	*out = t->delta[c];
	return true;
}

bool task_sc_quantile_us(const struct task *t, double q, double *out)
{
	struct lathist h;
	uint64_t max;

	return sctable_hist_sum(&t->sc, &h, &max) && lathist_quantile_us(&h, q, max, out);
}

double task_share_max(const struct model *m, const struct task *t)
{
	uint64_t n = t->threads > t->threads_before ? t->threads : t->threads_before;

	return m->threads || !n ? 100.0 : 100.0 * (double)n;
}

bool task_rate(const struct model *m, const struct task *t, enum counter c, double *out)
{
	uint64_t d;

	if (m->interval_s <= 0 || !task_delta(t, c, &d))
		return false;
	*out = (double)d / m->interval_s;
	return true;
}

struct fproc *model_fproc_find(const struct model *m, pid_t pid)
{
	size_t i;

	for (i = 0; i < m->nfprocs; i++)
		if (m->fprocs[i]->pid == pid)
			return m->fprocs[i];
	return NULL;
}

struct fproc *model_fproc_add(struct model *m, pid_t pid)
{
	struct fproc *fp = model_fproc_find(m, pid);

	if (fp)
		return fp;
	fp = fproc_new(pid, m->ring_events ? m->ring_events : 4096);
	m->fprocs = xrealloc(m->fprocs, (m->nfprocs + 1) * sizeof(*m->fprocs));
	m->fprocs[m->nfprocs++] = fp;
	return fp;
}

void model_fproc_remove(struct model *m, pid_t pid)
{
	size_t i;

	for (i = 0; i < m->nfprocs; i++) {
		if (m->fprocs[i]->pid != pid)
			continue;
		fproc_free(m->fprocs[i]);
		m->fprocs[i] = m->fprocs[--m->nfprocs];
		return;
	}
}

bool model_is_focused(const struct model *m, pid_t tgid)
{
	return !m->focus || pidmap_get(&m->focus_set, tgid) != NULL;
}

bool groups_counts(const struct model *m, const struct task *t)
{
	return t->seen_tick == m->tick && !t->gone && model_is_focused(m, t->tgid);
}

bool model_focus_add(struct model *m, pid_t tgid)
{
	if (tgid <= 0 || pidmap_get(&m->focus_set, tgid))
		return false;
	if (m->nfocus == m->cap_focus) {
		m->cap_focus = m->cap_focus ? m->cap_focus * 2 : 16;
		m->focus = xrealloc(m->focus, m->cap_focus * sizeof(*m->focus));
	}
	m->focus[m->nfocus++] = tgid;
	/* The map holds no value, only the key: any non-NULL pointer says "in". */
	pidmap_put(&m->focus_set, tgid, m);
	return true;
}

bool model_focus_remove(struct model *m, pid_t tgid)
{
	size_t i;

	if (!pidmap_get(&m->focus_set, tgid))
		return false;
	for (i = m->npinned; i < m->nfocus; i++) {
		if (m->focus[i] != tgid)
			continue;
		m->focus[i] = m->focus[--m->nfocus];
		pidmap_del(&m->focus_set, tgid);
		return true;
	}
	return false;
}

void model_set_focus(struct model *m, const pid_t *pids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		model_focus_add(m, pids[i]);
	m->npinned = m->nfocus;
}

bool model_is_pinned(const struct model *m, pid_t tgid)
{
	size_t i;

	for (i = 0; i < m->npinned; i++)
		if (m->focus[i] == tgid)
			return true;
	return false;
}

/*
 * A signal the counting instance saw generated towards @fp's process (the
 * focus instance cannot see it: it runs in the sender): the panel's entry
 * it completes, or a new one, and the deliver event that learns its sender.
 */
static void feed_sig_seen(struct fproc *fp, const struct focus_feed *ff)
{
	pid_t sender = ff->ev.u.sig.sender;
	int sig = ff->ev.u.sig.sig;
	struct fsig *s;
	struct kev *k;
	uint64_t seq;

	for (seq = fp->sigs.first; seq < fp->sigs.pushed; seq++) {
		s = evring_at(&fp->sigs, seq);
		/*
		 * A child of a focused process is in the focus instance's pid
		 * filter (event-fork) without being focused itself: its
		 * signal_generate is there already, with the exact time.
		 */
		if (s->sig == sig && s->sender == sender && s->ts_exact && !s->sys_seen) {
			s->sys_seen = true;
			if (s->sender_comm[0])
				return;
			goto comm;
		}
		/* Delivered before this was read: the panel entry is there, without a sender. */
		if (s->sig == sig && s->result < 0 && !s->sender) {
			s->sender = sender;
			s->result = ff->ev.u.sig.result;
			s->sys_seen = true;
			goto comm;
		}
	}
	s = fproc_push_sig(fp);
	memset(s, 0, sizeof(*s));
	s->group = -1;		/* the system-wide instance's: queue and code not kept */
	s->ts = ff->ev.ts;
	s->ts_exact = false;
	s->sender = sender;
	s->target = ff->ev.u.sig.target;
	s->sig = sig;
	s->result = ff->ev.u.sig.result;
	s->delivery = FSIG_PENDING;
	s->sys_seen = true;
comm:
	if (ff->comm && ff->comm[0])
		snprintf(s->sender_comm, sizeof(s->sender_comm), "%.15s", ff->comm);
	/* Its deliver event, already in the list, learns who sent it. */
	if (s->ev_seq && (k = evring_at(&fp->events, s->ev_seq - 1)) && k->kind == KEV_SIGDELIVER) {
		k->u.sig.sender = sender;
		memcpy(k->u.sig.comm, s->sender_comm, sizeof(k->u.sig.comm));
	}
}

/* The focused processes' calls in progress, listed anew (oldest first). */
static void feed_calls(struct model *m, const struct focus_feed *ff)
{
	struct fproc *fp;
	size_t i;

	for (i = 0; i < m->nfprocs; i++)
		fproc_calls_begin(m->fprocs[i], ff->ns);
	for (i = 0; i < ff->ncalls; i++)
		if ((fp = model_fproc_find(m, ff->calls[i].tgid)))
			*fproc_call_add(fp) = ff->calls[i];
	for (i = 0; i < m->nfprocs; i++)
		fproc_calls_end(m->fprocs[i]);
}

void model_focus_feed(struct model *m, const struct focus_feed *ff)
{
	struct fproc *fp = ff->kind == FEED_OPEN ? model_fproc_add(m, ff->pid) :
			   model_fproc_find(m, ff->pid), *sfp;
	struct kev e = ff->ev;
	struct fsig *s;
	size_t i;

	switch (ff->kind) {
	case FEED_LOST:
		for (i = 0; i < m->nfprocs; i++) {
			if (ff->unknown)
				m->fprocs[i]->lost_unknown = true;
			else
				m->fprocs[i]->lost += ff->n;
		}
		return;
	case FEED_STATUS:
		snprintf(m->focus_status, sizeof(m->focus_status), "%s", ff->status);
		return;
	case FEED_CALLS:
		feed_calls(m, ff);
		return;
	case FEED_CLOSE:
		model_fproc_remove(m, ff->pid);
		return;
	default:
		break;
	}
	if (!fp)
		return;
	switch (ff->kind) {
	case FEED_OPEN:
		fp->with_descendants = ff->with_descendants;
		if (ff->ns)
			fp->focused_ns = ff->ns;
		break;
	case FEED_SYSCALL:
		fproc_count_syscall(fp, (uint32_t)e.u.sc.nr, e.u.sc.ret, ff->timed, e.u.sc.dur_ns,
				    ff->returned);
		fproc_push_event(fp, &e, m->tick + 1);
		break;
	case FEED_SWITCH:
		/* The last switch: an exact variable of every later event of the process. */
		fp->last_out = e.u.sw.prev;
		fp->last_in = e.u.sw.next;
		fproc_push_event(fp, &e, m->tick + 1);
		break;
	case FEED_SIGGEN:
		s = fproc_sig_generated(fp, &e);
		sfp = ff->from ? model_fproc_find(m, ff->from) : NULL;
		if (sfp)
			memcpy(s->sender_comm, sfp->comm, sizeof(s->sender_comm));
		if (sfp != fp)
			fproc_push_event(fp, &e, m->tick + 1);
		break;
	case FEED_SIGDELIVER:
		s = fproc_sig_delivered(fp, &e, e.tid);
		fp->last_sig = (int16_t)e.u.sig.sig;
		fproc_push_event(fp, &e, m->tick + 1);
		/* The sender may be learnt later (FEED_SIGSEEN): it patches the event. */
		s->ev_seq = fp->events.pushed;
		break;
	case FEED_SIGSEEN:
		feed_sig_seen(fp, ff);
		break;
	case FEED_VARS:
		if (fp->sampled_tick != m->tick + 1)
			*fproc_sample_slot(fp, m->tick + 1) = *ff->vars;
		break;
	default:
		fproc_push_event(fp, &e, m->tick + 1);
		break;
	}
}

/* The system files' readings; @in's CPU array is copied into the model's own. */
static void apply_sys(struct model *m, const struct sys_sample *in)
{
	struct cpu_times *cpu = m->sys.stat.cpu;
	int n = in->stat.ncpu < SYS_MAX_CPUS ? in->stat.ncpu : SYS_MAX_CPUS;

	m->sys = *in;
	m->sys.stat.cpu = cpu;
	m->sys.stat.ncpu_max = SYS_MAX_CPUS;
	if (n > 0 && in->stat.cpu)
		memcpy(cpu, in->stat.cpu, (size_t)n * sizeof(*cpu));
}

/*
 * Processes whose row X was shown while /proc still lists them: pid ->
 * {starttime, last tick listed}. Without it the listing would make a task
 * again, with rows after its last.
 */
struct dead_listed {
	uint64_t starttime, tick;
};

static bool dead_listed(struct model *m, pid_t pid, uint64_t starttime)
{
	struct dead_listed *d = pidmap_get(&m->dead, pid);

	if (!d)
		return false;
	if (d->starttime != starttime) {
		free(pidmap_del(&m->dead, pid));	/* its pid reused */
		return false;
	}
	d->tick = m->tick;
	return true;
}

static void dead_add(struct model *m, pid_t pid, uint64_t starttime)
{
	struct dead_listed *d = xcalloc(1, sizeof(*d));

	d->starttime = starttime;
	d->tick = m->tick;
	free(pidmap_del(&m->dead, pid));
	pidmap_put(&m->dead, pid, d);
}

/* End of a tick: forget what /proc did not list this tick (all, with @all). */
static void dead_expire(struct model *m, bool all)
{
	size_t i = 0;

	if (!m->dead.n)
		return;
	while (i < m->dead.cap) {
		struct pidmap_slot *sl = &m->dead.slots[i];
		struct dead_listed *d = sl->val;

		/* A delete shifts a later entry into this slot: look at it again. */
		if (sl->key && (all || d->tick != m->tick))
			free(pidmap_del(&m->dead, sl->key));
		else
			i++;
	}
}

static void apply_reading(struct model *m, struct task_reading *r)
{
	struct task *t = model_task_find(m, r->pid);

	if (!t && dead_listed(m, r->pid, r->stat.starttime))
		return;
	/*
	 * Its row X was shown at an earlier tick (the exit came while /proc did
	 * not read it), yet /proc lists the same process, in the kernel's exit
	 * path or a zombie: no row after the last.
	 */
	if (t && t->state == 'X' && t->seen_tick != m->tick &&
	    (t->starttime ? t->starttime == r->stat.starttime
			  : !strncmp(t->comm, r->stat.comm, sizeof(t->comm)))) {
		/* One the events alone made: the same name, so the same process. */
		dead_add(m, r->pid, r->stat.starttime);
		return;
	}
	t = model_task_sample(m, r->pid, r->tgid, r->stat.starttime);
	t->read_now = true;
	if (r->born)
		model_task_born(t);
	model_task_set_stat(m, t, &r->stat);
	if (t->zombie_exited)
		t->state = 'Z';	/* exited: in the kernel's exit path (D, R) or reaped soon */
	if (r->have_csw && !t->zombie_exited) {
		model_task_set_counter(t, CNT_VCSW, r->vcsw);
		model_task_set_counter(t, CNT_IVCSW, r->ivcsw);
	}
	if (r->have_runq && !t->zombie_exited)
		model_task_set_counter(t, CNT_RUNQ, r->runq_ns);
	if (r->have_io && !t->zombie_exited) {
		model_task_set_counter(t, CNT_DISK_READ, r->io_read);
		model_task_set_counter(t, CNT_DISK_WRITE, r->io_write);
	}
	if (t->zombie_exited) {
		/*
		 * Exited at an earlier tick, still listed: it runs no more, its
		 * counts are the last ones (its exit's may be exact where /proc's
		 * zombie reading is in clock ticks, lower): none this interval.
		 */
		memcpy(t->cnt, t->prev, sizeof(t->cnt));
		t->have = t->have_prev;
		t->final = t->was_final;
	}
	if (r->cmdline) {
		model_task_set_cmdline(t, r->cmdline, r->cmdline_len);
		r->cmdline = NULL;
	}
	t->uid = r->uid;
	t->user = r->user;
	if (r->cgroup)
		t->cgroup = r->cgroup;
}

/*
 * @t exited. 'X' is for what is gone: a process /proc read this tick (the
 * events were read before /proc, the exit records after) is not reaped yet.
 */
static void mark_exited(struct task *t)
{
	t->exited = true;
	if (t->read_now && t->pid == t->tgid) {
		/*
		 * /proc read it this tick, a zombie or still in the kernel's exit
		 * path (a mass exit makes that long): 'Z' until /proc lists it no
		 * more. A thread is never a zombie: X at once.
		 */
		t->zombie_exited = true;
		t->state = 'Z';
	} else {
		t->state = 'X';
	}
}

/* What the events say of a task no reading made. */
static void from_events(struct task *t, const struct row_events *e)
{
	memcpy(t->comm, e->comm, sizeof(e->comm));
	t->state = e->exited ? 'X' : '?';
	t->ppid = e->ppid;
	t->exited = e->exited;
}

/*
 * Could @t be a life begun this interval (row_events.born)? Not one there
 * before the last tick: the events of the interval before were read before
 * /proc's last reading, so one made then may have begun after them.
 */
static bool may_be_born(const struct model *m, const struct task *t)
{
	return t->made_tick + 1 >= m->tick;
}

/*
 * Is @e (the newest life of its id in the sample) another life than @t's?
 * What /proc read this tick is the newest life; else the events' numbers
 * say, or a life begun this interval is not a task that was there before.
 */
static bool life_differs(const struct model *m, const struct task *t, const struct row_events *e)
{
	if (t->gone || t->read_now)
		return false;
	if (t->life && e->life)
		return t->life != e->life;
	return e->born && !may_be_born(m, t);
}

/*
 * The task of @e, a life of its id older than the newest (row_events.ended):
 * one of this tick's past lives that can be it (the same life, or one whose
 * life no event told: /proc's, its pid reused since), else the id's task if
 * nothing of this tick made it the newest (it is this life, ended), else a
 * new past life.
 */
static struct task *past_of_row(struct model *m, const struct row_events *e)
{
	struct task *p, *t = model_task_find(m, e->id);

	for (p = pidmap_get(&m->past, e->id); p && e->life; p = p->older)
		if (p->past_tick == m->tick && p->life == e->life)
			return p;
	for (p = pidmap_get(&m->past, e->id); p; p = p->older)
		if (p->past_tick == m->tick && !p->life && (!e->born || may_be_born(m, p)))
			return p;
	if (t && t->seen_tick != m->tick && !t->gone && t->state != 'X' &&
	    (!t->life || !e->life || t->life == e->life) && (!e->born || may_be_born(m, t))) {
		past_add(m, t);
		return t;
	}
	p = past_new(m, e->id, e->tgid);
	from_events(p, e);
	return p;
}

/*
 * A row's events. A row /proc did not list is made from what the events say
 * (born and gone within the interval); one /proc listed before but not now
 * is gone, and these were its last events. An older life of a reused pid is
 * a row of its own (past_of_row), X.
 */
static void apply_row(struct model *m, const struct row_events *e)
{
	struct task *t = model_task_find(m, e->id);
	struct task *held = t ? NULL : pidmap_get(&m->limbo, e->id);
	int c;

	if (e->ended) {
		t = past_of_row(m, e);
		t->seen_tick = m->tick;
		t->state = 'X';
		t->exited = true;
		if (e->renamed && e->comm[0])
			memcpy(t->comm, e->comm, sizeof(e->comm));
	} else if (t && life_differs(m, t, e)) {
		/* A new life of the pid, /proc not told yet: the task's is another's. */
		t = new_life(m, t, e->tgid, 0);
		from_events(t, e);
		t->seen_tick = m->tick;
	} else if (held && !life_differs(m, held, e)) {
		t = pidmap_del(&m->limbo, e->id);
		/*
		 * Its row was held a tick: the task /proc last listed, back with the
		 * name and owner it had. Like a row /proc never listed, it is X only
		 * when the events say it ended (another thread's row may be to come).
		 */
		task_begin(t);
		tasks_add(m, t);
		t->seen_tick = m->tick;
		t->state = e->exited ? 'X' : '?';
		t->exited = e->exited;
		if (e->renamed && e->comm[0])
			memcpy(t->comm, e->comm, sizeof(e->comm));
	} else if (!t) {
		t = model_task_sample(m, e->id, e->tgid, 0);
		from_events(t, e);
	} else if (t->seen_tick != m->tick) {
		/*
		 * Its last row was shown at an earlier tick. Its final switch, after
		 * its exit event, is in the totals, not a row again (of 0 calls).
		 * Calls or signals are its own, read late (their CPU was read before
		 * they were written, its exit's after): a row again, with them.
		 */
		if (t->gone || (t->state == 'X' && !e->n[CNT_SYSCALLS] && !e->n[CNT_SIGRECV] &&
				!e->n[CNT_SIGSENT]))
			return;
		t->seen_tick = m->tick;
		mark_exited(t);
		/* It exec'd (or renamed itself) after /proc last read it: that name is its last. */
		if (e->renamed && e->comm[0])
			memcpy(t->comm, e->comm, sizeof(e->comm));
	}
	if (e->life)
		t->life = e->life;
	/*
	 * Two lives' events that could not be split: unknown, not a share of
	 * them; so are the pid's other lives' of this tick (task_compute), a
	 * life whose calls went to this row included.
	 */
	if (e->unsure) {
		t->ev_withheld = true;
		pidmap_put(&m->unsure, e->id, t);
	}
	if (t->ev_withheld)
		return;
	for (c = 0; c < CNT_NR; c++)
		if (e->n[c])
			model_task_add_events(t, c, e->n[c]);
	if (e->have_state)
		t->st_known = true;
	if (e->sc)
		sctable_merge(&t->sc, e->sc);
	if (e->err)
		sctable_merge(&t->err, e->err);
}

/*
 * A signal flow of the interval. The baseline interval's are not counted,
 * like every event count. The names are the rows' (the process table's),
 * else what the events knew.
 */
static void apply_flow(struct model *m, const struct sig_flow *f)
{
	struct sig_flow named = *f;
	const struct task *t;

	if (m->interval_s <= 0)
		return;
	if (named.sender > 0 && (t = model_task_find(m, named.sender)) && t->comm[0])
		snprintf(named.sender_comm, sizeof(named.sender_comm), "%.15s", t->comm);
	if (named.receiver > 0 && (t = model_task_find(m, named.receiver)) && t->comm[0])
		snprintf(named.receiver_comm, sizeof(named.receiver_comm), "%.15s", t->comm);
	sigflows_add(&m->sigflows, &named);
}

/* A socket of the interval (not in the baseline), named as its process's row is. */
static void apply_conn(struct model *m, const struct sock_conn *c)
{
	struct sock_conn *r;
	const struct task *t;

	if (m->interval_s <= 0)
		return;
	if (m->nconns == m->cap_conns) {
		m->cap_conns = m->cap_conns ? m->cap_conns * 2 : 64;
		m->conns = xrealloc(m->conns, m->cap_conns * sizeof(*m->conns));
	}
	r = &m->conns[m->nconns++];
	*r = *c;
	r->comm[sizeof(r->comm) - 1] = '\0';
	if (r->pid > 0 && (t = model_task_find(m, r->pid)) && t->comm[0])
		snprintf(r->comm, sizeof(r->comm), "%.15s", t->comm);
}

/* Can @t be the life whose exit record @f is (its start in the record's window)? */
static bool final_fits(const struct task *t, const struct task_final *f)
{
	return !f->have_window || !t->starttime ||
	       (t->starttime >= f->start_lo && t->starttime <= f->start_hi);
}

/*
 * The task of an exit record: records come in the order the tasks exited,
 * so the oldest of this tick's past lives of the pid that has none yet;
 * else the pid's task, unless it started outside the record's window or
 * took another record this tick (then the record's life is one of its own:
 * a pid reused, untraced, by tasks /proc never read). NULL: its last row
 * was shown already.
 */
/*
 * Of this tick's past lives of @f's pid without a record that @f fits, the
 * @skip-th oldest (the ones before it take the records of the pid that come
 * first); NULL if none. @n: how many there are.
 */
static struct task *past_pick(const struct model *m, const struct task_final *f, size_t skip,
			      size_t *n)
{
	struct task *p;
	size_t i = 0;

	*n = 0;
	for (p = pidmap_get(&m->past, f->id); p; p = p->older)
		*n += p->past_tick == m->tick && !p->final && final_fits(p, f);
	if (skip >= *n)
		return NULL;
	for (p = pidmap_get(&m->past, f->id); p; p = p->older)
		if (p->past_tick == m->tick && !p->final && final_fits(p, f) && i++ == *n - 1 - skip)
			return p;
	return NULL;
}

static struct task *final_task(struct model *m, const struct task_final *f)
{
	struct task *pick, *t = model_task_find(m, f->id);
	size_t n;

	if ((pick = past_pick(m, f, 0, &n)))
		return pick;
	if (t && !final_fits(t, f)) {
		t = past_new(m, f->id, f->tgid);
	} else if (t && t->final && t->seen_tick == m->tick && !t->zombie_exited) {
		/*
		 * The next life's record: the earlier one is past. (Not while /proc
		 * lists its zombie: its pid is not free, so a record again is its
		 * own, a recording's keyframe giving it again: record.c
		 * regive_finals.)
		 */
		t = new_life(m, t, f->tgid, 0);
	} else if (!t) {
		t = model_task_sample(m, f->id, f->tgid, 0);
	} else if (t->gone || (t->state == 'X' && t->seen_tick != m->tick)) {
		/* Its last row was shown already: never twice. With its record: this is the next life's. */
		if (t->gone || !t->was_final)
			return NULL;
		t = new_life(m, t, f->tgid, 0);
	} else {
		return t;
	}
	t->ppid = f->ppid;
	return t;
}

const struct task *model_final_of(const struct model *m, const struct task_final *f, size_t skip)
{
	const struct task *t = model_task_find(m, f->id), *pick;
	size_t n;

	if ((pick = past_pick(m, f, skip, &n)))
		return pick;
	/* final_task's cases that make a task for the record: nothing else told of that life. */
	if (skip > n || !t || !final_fits(t, f) || (t->final && t->seen_tick == m->tick) ||
	    t->gone || (t->state == 'X' && t->seen_tick != m->tick))
		return NULL;
	return t;
}

/*
 * A dead task's final reading (its exit record). A task /proc read at the
 * previous tick counts the record less that reading; one born within the
 * interval counts it all; one without a reading that was older (ktop never
 * read it) shows its totals (cpu_s) but no count of the interval. Its CPU
 * time is never below its last /proc reading: a zombie's is the kernel's
 * final figure in clock ticks, which the record alone may miss (exits.c),
 * and a zombie's row X keeps what its rows Z said.
 */
static void apply_final(struct model *m, const struct task_final *f)
{
	struct task *t = final_task(m, f);
	uint64_t proc;
	int c;

	if (!t)
		return;
	t->seen_tick = m->tick;
	mark_exited(t);
	/* Its last name (an exec, a prctl); a longer kernel thread name it begins is kept. */
	if (f->comm[0] && strncmp(t->comm, f->comm, strlen(f->comm)))
		memcpy(t->comm, f->comm, strnlen(f->comm, sizeof(f->comm) - 1) + 1);
	if (t->uid < 0 && f->uid >= 0) {
		t->uid = f->uid;
		t->user = f->user;
	}
	if (!f->have)
		return;
	if (f->born && !(t->have_prev & (1u << CNT_CPU)))
		model_task_born(t);
	if (t->read_now && (t->have & (1u << CNT_CPU)))
		proc = t->cnt[CNT_CPU];
	else
		proc = t->have_prev & (1u << CNT_CPU) ? t->prev[CNT_CPU] : 0;
	for (c = 0; c < CNT_NR; c++)
		if (f->have & (1u << c))
			model_task_set_counter(t, c, f->cnt[c]);
	if ((f->have & (1u << CNT_CPU)) && proc > t->cnt[CNT_CPU])
		t->cnt[CNT_CPU] = proc;
	t->final = true;
}

/* The focused processes' threads' splits of the interval, taken into their history at the tick's end. */
static void apply_fthreads(struct model *m, const struct sample *s)
{
	size_t i;

	for (i = 0; i < m->nfprocs; i++)
		snprintf(m->fprocs[i]->threads_why, sizeof(m->fprocs[i]->threads_why), "%s",
			 s->fthreads_known ? "" : "not known: the states come from the scheduler "
						  "events (tracing, as root)");
	for (i = 0; i < s->nfthreads; i++) {
		const struct fthread_split *t = &s->fthreads[i];
		struct fproc *fp = model_fproc_find(m, t->pid);

		if (fp)
			fproc_thread_put(fp, t->tid, t->comm, t->ns, t->known, t->exited);
	}
}

void model_apply(struct model *m, struct sample *s)
{
	size_t i;

	if (s->have_session)
		model_set_session(m, &s->session);
	for (i = 0; i < s->nfollow; i++)
		model_focus_add(m, s->follow[i]);
	if (s->begin)
		model_begin_tick(m, s->mono_ns, s->wall_s);
	if (s->have_sys)
		apply_sys(m, &s->sys);
	for (i = 0; i < s->ntasks; i++)
		apply_reading(m, &s->tasks[i]);
	for (i = 0; i < s->nwithheld; i++) {
		struct task *t = model_task_find(m, s->withheld[i]);

		if (t)
			t->ev_withheld = true;
	}
	for (i = 0; i < s->nrows; i++)
		apply_row(m, &s->rows[i]);
	for (i = 0; i < s->nexits; i++) {
		struct task *t = model_task_find(m, s->exits[i]);

		if (t && !m->threads)
			mark_exited(t);
	}
	for (i = 0; i < s->nunfocus; i++)
		model_focus_remove(m, s->unfocus[i]);
	for (i = 0; i < s->nfinals; i++)
		apply_final(m, &s->finals[i]);
	if (s->have_exit_totals) {
		m->exits_lost = s->exits_lost;
		m->exits_lost_unknown = s->exits_lost_unknown;
	}
	for (i = 0; i < s->nflows; i++)
		apply_flow(m, &s->flows[i]);
	for (i = 0; i < s->nconns; i++)
		apply_conn(m, &s->conns[i]);
	if (s->have_disks)
		disks_known(&m->disks);
	for (i = 0; i < s->ndisks; i++)
		disks_apply(&m->disks, &s->disks[i], m->interval_s > 0);
	if (s->have_totals) {
		memcpy(m->ev_total, s->ev_total, sizeof(m->ev_total));
		m->lost_events = s->lost;
		m->lost_unknown = s->lost_unknown;
	}
	if (s->have_calls) {
		if (s->ncalls > m->cap_calls) {
			m->cap_calls = s->ncalls;
			m->calls = xrealloc(m->calls, m->cap_calls * sizeof(*m->calls));
		}
		if (s->ncalls)
			memcpy(m->calls, s->calls, s->ncalls * sizeof(*m->calls));
		m->ncalls = s->ncalls;
		m->calls_ns = s->calls_ns;
		m->calls_known = true;
	}
	if (s->have_fthreads)
		apply_fthreads(m, s);
	for (i = 0; i < s->nnamed; i++)
		cgnames_set(&m->names, s->named[i].cgroup, &s->named[i].name);
	for (i = 0; i < s->ncgres; i++)
		cgres_table_apply(&m->cgres, s->cgres[i].dir, &s->cgres[i].raw, s->cgres[i].t_ns,
				  m->tick);
	for (i = 0; i < s->ncpu_of; i++)
		cgres_table_cpu_of(&m->cgres, s->cpu_of[i].id, s->cpu_of[i].dir, m->tick);
	if (s->end)
		model_end_tick(m);
	sample_reset(s);
}

/*
 * A focused process the collectors no longer see. A named one gets one last
 * row in state X (its exit, even when no event told), then goes, or with
 * keep_exited stays with its numbers frozen. So does a zombie whose exit was
 * applied (its rows said Z). Returns true to keep it.
 */
static bool keep_unseen(struct model *m, struct task *t)
{
	if (t->past)
		return false;	/* its row was its last */
	if (t->gone)
		return true;
	if (t->zombie_exited && t->state == 'Z') {
		/* Reaped: one last row says it is gone, its numbers as they were. */
		t->state = 'X';
		t->exited = true;
		t->seen_tick = m->tick;
		t->have = t->have_prev;
		t->final = t->was_final;
		return true;
	}
	if (!m->focus || !model_is_pinned(m, t->tgid) || t->state == 'X')
		return false;
	t->state = 'X';
	t->exited = true;
	t->seen_tick = m->tick;
	return true;
}

static void task_compute(struct model *m, struct task *t)
{
	uint32_t both = t->have & t->have_prev;
	const struct sc_stat *top;
	int c;

	if (!t->ev_withheld && pidmap_get(&m->unsure, t->pid)) {
		t->ev_withheld = true;
		memset(t->ev, 0, sizeof(t->ev));
		sctable_clear(&t->sc);
		sctable_clear(&t->err);
	}

	t->have_delta = 0;
	for (c = 0; c < CNT_NR; c++) {
		if (model_counts_events(m, c)) {
			/*
			 * Tracing ran through the whole interval (it starts before the
			 * first tick), so a task without events had none: 0 is exact.
			 * Another user's task (ktop not root) was not counted: unknown;
			 * so are the events of one whose credentials changed.
			 */
			if (m->interval_s > 0 && !t->ev_withheld &&
			    (m->events_uid < 0 || t->uid == m->events_uid) &&
			    (!model_state_counter(c) || t->st_known)) {
				t->delta[c] = t->ev[c];
				t->have_delta |= 1u << c;
			}
			continue;
		}
		if (!(both & (1u << c)))
			continue;
		/*
		 * Counters only grow; a smaller value means the source changed under
		 * us (the threads summed are not the same ones): no count this time.
		 */
		if (t->cnt[c] < t->prev[c] && !t->final)
			continue;
		t->delta[c] = t->cnt[c] > t->prev[c] ? t->cnt[c] - t->prev[c] : 0;
		t->have_delta |= 1u << c;
	}
	top = sctable_top(&t->sc);
	t->top_nr = top ? top->nr : SC_EMPTY;
	t->have_cpu = false;
	/* One of /proc's utime or stime going back is a source that changed: no CPU then. */
	if (m->interval_s > 0 && (t->have_delta & (1u << CNT_CPU)) &&
	    (t->final || ((t->have_delta & (1u << CNT_UTIME)) && (t->have_delta & (1u << CNT_STIME))))) {
		t->cpu_pct = (double)t->delta[CNT_CPU] * 100.0 / (m->interval_s * 1e9);
		if (t->cpu_pct > task_share_max(m, t))
			t->cpu_pct = task_share_max(m, t);
		t->have_cpu = true;
	}
}

/* What the header and the batch writers say about the system; once per tick. */
static void sys_summarize(const struct model *m, struct sys_summary *s)
{
	const struct sys_sample *x = &m->sys, *p = &m->sys_prev;
	double *busy = s->cpu_busy;
	size_t i;
	int c;

	memset(s, 0, sizeof(*s));
	s->cpu_busy = busy;
	s->have_uptime = x->have_uptime;
	s->uptime_s = x->uptime_s;
	s->have_load = x->have_load;
	memcpy(s->load, x->load.avg, sizeof(s->load));

	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];

		if (!model_is_focused(m, t->tgid))
			continue;
		/*
		 * An X row is a process that exited between two refreshes: it
		 * exists no more, so it is neither a task nor a zombie (ps would
		 * not show it); the header says how many apart.
		 */
		if (t->state == 'X') {
			s->exited++;
			continue;
		}
		s->tasks++;
		switch (t->state) {
		case 'R': s->running++; break;
		case 'S': s->sleeping++; break;
		case 'D': s->disk++; break;
		case 'T': case 't': s->stopped++; break;
		case 'Z': s->zombie++; break;
		case 'I': s->idle++; break;
		default: break;
		}
	}
	s->ncpu = x->have_stat ? x->stat.ncpu : 0;
	if (x->have_stat && p->have_stat)
		s->have_cpu = cpu_busy_pct(&x->stat.total, &p->stat.total, &s->cpu_pct);
	for (c = 0; c < x->stat.ncpu && c < SYS_MAX_CPUS; c++)
		if (!x->have_stat || !p->have_stat ||
		    !cpu_busy_pct(&x->stat.cpu[c], &p->stat.cpu[c], &busy[c]))
			busy[c] = -1;
	if (x->have_mem) {
		s->have_mem = true;
		s->mem_total_kb = (double)x->mem.total;
		s->mem_avail_kb = (double)x->mem.available;
		s->mem_used_kb = (double)(x->mem.total - (x->mem.available < x->mem.total ?
							   x->mem.available : x->mem.total));
		s->swap_total_kb = (double)x->mem.swap_total;
		s->swap_used_kb = (double)(x->mem.swap_total - (x->mem.swap_free < x->mem.swap_total ?
								 x->mem.swap_free : x->mem.swap_total));
	}
	if (x->have_stat && p->have_stat && x->have_vm && p->have_vm) {
		uint64_t minc = x->vm.pgfault - x->vm.pgmajfault;
		uint64_t minp = p->vm.pgfault - p->vm.pgmajfault;

		s->have_rates = sys_rate(m, x->stat.ctxt, p->stat.ctxt, &s->ctxt) &&
				sys_rate(m, x->stat.intr, p->stat.intr, &s->intr) &&
				sys_rate(m, x->stat.forks, p->stat.forks, &s->forks) &&
				sys_rate(m, minc, minp, &s->minflt) &&
				sys_rate(m, x->vm.pgmajfault, p->vm.pgmajfault, &s->majflt);
		if (s->have_rates) {
			s->n_ctxt = x->stat.ctxt - p->stat.ctxt;
			s->n_intr = x->stat.intr - p->stat.intr;
			s->n_forks = x->stat.forks - p->stat.forks;
			s->n_minflt = minc - minp;
			s->n_majflt = x->vm.pgmajfault - p->vm.pgmajfault;
		}
	}
}

void model_reaping(struct model *m, pid_t pid)
{
	m->reaping = pid;
}

/* The zombie ktop reaps now (model_reaping): gone once this tick is shown. */
static void reaped(struct model *m)
{
	struct task *t = m->reaping ? model_task_find(m, m->reaping) : NULL;

	m->reaping = 0;
	if (!t || t->state != 'Z')
		return;
	t->state = 'X';
	t->exited = true;
}

void model_end_tick(struct model *m)
{
	size_t i = 0;

	limbo_clear(&m->limbo);
	dead_expire(m, false);
	while (i < m->ntasks) {
		struct task *t = m->tasks[i];

		if (t->seen_tick != m->tick && !keep_unseen(m, t)) {
			/* Gone: its last read failed or it was not listed any more. */
			if (t->past) {
				past_del(m, t);
				task_free(t);
				m->tasks[i] = m->tasks[--m->ntasks];
				continue;
			}
			pidmap_del(&m->index, t->pid);
			if (t->state != 'X' && !t->gone)
				pidmap_put(&m->limbo, t->pid, t);
			else
				task_free(t);
			m->tasks[i] = m->tasks[--m->ntasks];
			continue;
		}
		i++;
		if (t->seen_tick != m->tick)
			continue;	/* kept as it was */
		task_compute(m, t);
		/* The first tick is the baseline: its events are not in any other count either. */
		if (m->sum_syscalls && m->interval_s > 0 && model_is_focused(m, t->tgid))
			sctable_merge(&m->sc_total, &t->sc);
	}
	if (m->sum_syscalls && m->interval_s > 0) {
		m->lost_total += m->lost_events;
		m->lost_total_unknown |= m->lost_unknown;
	}
	for (i = 0; i < m->nfprocs; i++)
		fproc_tick(m->fprocs[i], m);
	reaped(m);
	sys_summarize(m, &m->sum);
	if (m->aggregate)
		systotals_update(&m->agg, m);
	cgres_table_end(&m->cgres, m->tick);
}

bool sys_rate(const struct model *m, uint64_t cur, uint64_t prev, double *out)
{
	if (m->interval_s <= 0 || cur < prev)
		return false;
	*out = (double)(cur - prev) / m->interval_s;
	return true;
}

static uint64_t cpu_total(const struct cpu_times *c)
{
	return c->user + c->nice + c->system + c->idle + c->iowait + c->irq +
	       c->softirq + c->steal;
}

bool cpu_busy_pct(const struct cpu_times *cur, const struct cpu_times *prev, double *out)
{
	uint64_t total, idle;

	if (!cur->present || !prev->present)
		return false;
	if (cpu_total(cur) <= cpu_total(prev))
		return false;
	total = cpu_total(cur) - cpu_total(prev);
	/* iowait may step back on tickless kernels, and idle on CPU hotplug. */
	idle = cur->idle + cur->iowait;
	idle = idle > prev->idle + prev->iowait ? idle - (prev->idle + prev->iowait) : 0;
	if (idle > total)
		idle = total;
	*out = 100.0 * (double)(total - idle) / (double)total;
	return true;
}
