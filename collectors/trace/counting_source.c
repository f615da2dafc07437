// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/counting_source: the system-wide counting of kernel events
 * (counting.h) as a source of the list (source.h). It reads first, and
 * publishes what the events saw happen in the tick's facts.
 */
#include <stdlib.h>

#include "../../lib/util.h"
#include "../../model/fproc.h"
#include "counting.h"
#include "../source.h"

struct counting_source {
	struct counting *ft;		/* NULL: --no-trace, or stopped */
	struct counting_stats kept;	/* its statistics when it stopped */
};

static int cnt_start(struct source_env *env, void **st)
{
	struct counting_source *c = xcalloc(1, sizeof(*c));
	struct counting_opts fo = { .pids = env->watch, .npids = env->nwatch };
	const char *kb = getenv("KTOP_BUFFER_KB");
	unsigned long long v;

	*st = c;
	if (env->no_trace)
		return 0;
	fo.baseline_only = env->baseline_only;
	fo.time_syscalls = env->time_syscalls;
	/* Per-CPU ring buffer size; small ones let tests see lost events. */
	if (kb && !parse_uint(kb, 1 << 22, &v) && v >= 4)
		fo.buffer_kb = (size_t)v;
	/* The trace clock, for tests and benchmarks: the default picks the cheapest safe one. */
	fo.trace_clock = getenv("KTOP_TRACE_CLOCK");
	if (fo.trace_clock && *fo.trace_clock && !counting_clock_ok(fo.trace_clock)) {
		fprintf(stderr, "ktop: KTOP_TRACE_CLOCK=%s: not a trace clock ktop maps "
			"(auto, local, global, perf, mono, mono_raw, boot, tai, x86-tsc)\n",
			fo.trace_clock);
		return -1;
	}
	fo.flight = env->flight;
	env->tracing = counting_start(&fo, &c->ft) == 0;
	env->ftrace = c->ft;
	/* exit() from deep inside (out of memory) must not leave tracing behind. */
	atexit(counting_emergency_stop);
	if (env->summary && !env->tracing) {
		fprintf(stderr, "ktop: --summary counts kernel events, but %s\n",
			counting_status(c->ft)[0] ? counting_status(c->ft) : "tracing is off");
		return -1;
	}
	return 0;
}

static void cnt_setup(void *st, struct source_env *env, struct model *m)
{
	struct counting_source *c = st;

	if (counting_on(c->ft)) {
		m->event_counters = counting_event_counters(c->ft);
		m->events_uid = counting_only_uid(c->ft);
		disks_set_why(&m->disks, counting_disks_why(c->ft));
	}
	snprintf(m->trace_status, sizeof(m->trace_status), "%s",
		 env->no_trace ? "tracing off: --no-trace" : counting_status(c->ft));
}

static size_t cnt_pollfds(void *st, struct pollfd *pfd, size_t max)
{
	return counting_pollfds(((struct counting_source *)st)->ft, pfd, max);
}

/* A ring buffer is filling: decode it now, the tick sums it up. */
static bool cnt_drain(void *st, struct source_env *env, int fd)
{
	(void)env;
	counting_drain(((struct counting_source *)st)->ft, fd);
	return false;
}

static void cnt_pause(void *st)
{
	struct counting_source *c = st;

	if (c->ft)
		counting_stash(c->ft);
}

/* Everything up to the tick's cut, and what it says happened. */
static void cnt_read(void *st, struct source_env *env, struct sample *s)
{
	struct counting_source *c = st;
	struct source_facts *f = &env->facts;
	size_t i;

	f->traced = counting_on(c->ft);
	f->whole = counting_read(c->ft, &f->born, &f->nborn);
	f->ncred = counting_cred_changes(c->ft, env->m, &f->cred);
	f->nmoved = counting_cgroup_moves(c->ft, env->m, &f->moved);
	f->nsigs = counting_signals(c->ft, &f->sigs);
	/* The forks of focused processes join the model's focus, before the tick's rows. */
	f->nfollowed = counting_follow(c->ft, env->m, &f->followed);
	for (i = 0; i < f->nfollowed; i++)
		sample_add_follow(s, f->followed[i]);
	f->cut_ns = counting_cut_ns(c->ft);
}

static void cnt_collect(void *st, struct source_env *env, struct sample *s)
{
	struct counting_source *c = st;
	struct source_facts *f = &env->facts;

	counting_collect(c->ft, env->m, s, env->need.last);
	f->acct = counting_on(c->ft) ? counting_acct(c->ft) : NULL;
	f->npriv = counting_privileged(c->ft, &f->priv);
}

/* Its rows are applied: the interval's counts start again; the rows held wait for their exit records. */
static void cnt_applied(void *st, struct source_env *env)
{
	struct counting_source *c = st;

	counting_end_interval(c->ft);
	env->facts.nheld = counting_held(c->ft, &env->facts.held);
}

/* The process views' processes: the signals sent to them are reported. */
static void cnt_focus_changed(void *st, struct source_env *env)
{
	const struct model *m = env->m;
	pid_t pids[ACCT_WATCH];
	size_t i, n = 0;

	for (i = 0; i < m->nfprocs && n < ACCT_WATCH; i++)
		pids[n++] = m->fprocs[i]->pid;
	counting_watch_signals(((struct counting_source *)st)->ft, pids, n);
}

/* The instance is removed, its statistics kept for KTOP_STATS. */
static void *cnt_stop(void *st, struct source_env *env)
{
	struct counting_source *c = st;

	if (c->ft) {
		counting_get_stats(c->ft, &c->kept);
		counting_stop(c->ft);
		c->ft = NULL;
		env->ftrace = NULL;
	}
	return c;
}

static void cnt_fields(void *st, const struct source_env *env, FILE *out)
{
	struct counting_source *c = st;
	const struct counting_stats *fs = &c->kept;

	(void)env;
	if (c->ft)
		counting_get_stats(c->ft, &c->kept);
	fprintf(out, " events=%llu pages=%llu drains=%llu stashed=%llu lost=%llu malformed=%llu "
		"unattributed=%llu carried=%llu held=%llu unparented=%llu lives_unsplit=%llu buffer_kb=%zu "
		"switches_unseen=%llu oncpu_overlaps=%llu dark_threads=%zu dark_moved_us=%llu dark_dropped=%llu "
		"stash_kept=%zu",
		(unsigned long long)fs->events, (unsigned long long)fs->pages,
		(unsigned long long)fs->drains, (unsigned long long)fs->stashed,
		(unsigned long long)fs->lost, (unsigned long long)fs->malformed,
		(unsigned long long)fs->unattributed, (unsigned long long)fs->carried,
		(unsigned long long)fs->held, (unsigned long long)fs->unparented,
		(unsigned long long)fs->lives_unsplit, fs->buffer_kb,
		(unsigned long long)fs->switches_unseen, (unsigned long long)fs->oncpu_overlaps,
		fs->dark_threads, (unsigned long long)(fs->dark_moved_ns / 1000),
		(unsigned long long)fs->dark_dropped, fs->stash_kept);
}

static void cnt_lines(void *st, const struct source_env *env, FILE *out)
{
	const struct counting_stats *fs = &((struct counting_source *)st)->kept;

	(void)env;
	if (fs->block_on)
		fprintf(out, "ktop-stats: block_issued=%llu block_completed=%llu block_started=%llu "
			"block_matched=%llu block_requeued=%llu block_early=%llu block_unmatched=%llu block_stale=%llu "
			"block_table_full=%llu block_dropped_devices=%llu block_forced=%llu block_inflight=%zu "
			"block_pending=%zu\n",
			(unsigned long long)fs->block.issued, (unsigned long long)fs->block.completed,
			(unsigned long long)fs->block.started, (unsigned long long)fs->block.matched,
			(unsigned long long)fs->block.requeued,
			(unsigned long long)fs->block.early, (unsigned long long)fs->block.unmatched,
			(unsigned long long)fs->block.stale, (unsigned long long)fs->block.table_full,
			(unsigned long long)fs->block.dropped_devices,
			(unsigned long long)fs->block.forced, fs->block.inflight, fs->block.pending);
	fprintf(out, "ktop-stats: sockets=%llu sockets_kept_peak=%zu sockets_evicted=%llu "
		"sockets_untracked=%llu sockets_reused=%llu\n", (unsigned long long)fs->conns.sockets,
		fs->conns.peak, (unsigned long long)fs->conns.evicted,
		(unsigned long long)fs->conns.untracked, (unsigned long long)fs->conns.reused);
	if (fs->clock[0])
		fprintf(out, "ktop-stats: trace_clock=%s clock_why=\"%s\" clock_samples=%llu "
			"clock_refused=%llu clock_steps=%llu clock_err_last_ns=%lld clock_err_max_ns=%llu "
			"clock_cut_margin_ns=%llu clock_rate=%.9f\n", fs->clock, fs->clock_why,
			(unsigned long long)fs->clock_samples, (unsigned long long)fs->clock_refused,
			(unsigned long long)fs->clock_steps, (long long)fs->clock_err_last_ns,
			(unsigned long long)fs->clock_err_max_ns, (unsigned long long)fs->clock_bound_ns,
			fs->clock_rate);
}

static void cnt_free(void *st)
{
	struct counting_source *c = st;

	counting_stop(c->ft);
	free(c);
}

const struct source counting_source = {
	.name = "counting",
	.start = cnt_start,
	.setup = cnt_setup,
	.pollfds = cnt_pollfds,
	.drain = cnt_drain,
	.pause = cnt_pause,
	.read = cnt_read,
	.collect = cnt_collect,
	.applied = cnt_applied,
	.focus_changed = cnt_focus_changed,
	.stop = cnt_stop,
	.fields = cnt_fields,
	.lines = cnt_lines,
	.free = cnt_free,
};
