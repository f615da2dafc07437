// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sources of the loop: tracing stopped, one tick's collection (each
 * live source fills the sample, the model applies it; or a recording's next
 * interval), the focus of a process view, KTOP_STATS. Moving about in a
 * recording (-r's keys, --begin) is replayctl.c's.
 */
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../collectors/cgnames.h"
#include "../collectors/cgres.h"
#include "../outputs/metrics.h"
#include "../collectors/clocks.h"
#include "../model/watched.h"
#include "../lib/sctable.h"
#include "../lib/util.h"
#include "../collectors/exits.h"
#include "../collectors/focus.h"
#include "../collectors/inprog.h"
#include "../collectors/procfs.h"
#include "../collectors/system.h"
#include "../views/view.h"
#include "flightctl.h"
#include "httpd.h"
#include "ktop.h"

/* Stop tracing (the instance is removed), keeping its statistics for KTOP_STATS. */
void stop_tracing(struct ktop *k)
{
	flightctl_finish(k);	/* a save still due: the instances are still there */
	focus_free(k->focus);	/* its instance first: the main one outlives it */
	k->focus = NULL;
	inprog_free(k->inprog);
	k->inprog = NULL;
	if (!k->ftrace)
		return;
	ftrace_get_stats(k->ftrace, &k->fstats);
	ftrace_stop(k->ftrace);
	k->ftrace = NULL;
}

/*
 * Watched processes that gained privileges (ktop not root): they are not
 * reported any more (ftrace_privileged); say so, in the summary at the end.
 */
static void report_privileged(struct ktop *k)
{
	const struct ftrace_priv *p;
	size_t n = ftrace_privileged(k->ftrace, &p), i;
	char name[64];

	for (i = 0; i < n; i++) {
		if (!p[i].pinned)
			procfs_focus_remove(k->procfs, p[i].pid);
		if (p[i].from)
			continue;
		k->priv = xrealloc(k->priv, (k->npriv + 1) * sizeof(*k->priv));
		k->priv[k->npriv].pid = p[i].pid;
		memcpy(k->priv[k->npriv++].comm, p[i].comm, sizeof(p[i].comm));
		sanitize_text(name, sizeof(name), p[i].comm, strnlen(p[i].comm, sizeof(p[i].comm)),
			      k->opt.batch || k->app.utf8);
		if (k->opt.batch)
			fprintf(stderr, "ktop: pid %d (%s) gained privileges: no longer reported\n",
				(int)p[i].pid, name);
		else if (!k->opt.summary)
			app_message(&k->app, "pid %d (%s) gained privileges: no longer reported",
				    (int)p[i].pid, name);
	}
}

/* The key of the groups a view or writer shows this tick, whose cgroups are read; -1: none. */
static int shown_group_by(const struct ktop *k)
{
	if (k->opt.batch && k->batch.view == VIEW_GROUPS)
		return (int)k->batch.groups.by;
	if (!k->opt.batch && k->mode->screen && k->app.view == VIEW_GROUPS)
		return (int)k->app.groups.by;
	/* Else the exporter's groups (a view's key comes first: one key is read). */
	return k->metrics ? (int)metrics_group_by(k->metrics) : -1;
}

/* A source's sample to the model, and to the recorder first (-w stores what the sources said). */
static void apply(struct ktop *k, struct sample *s)
{
	if (k->rec) {
		struct timespec t0, t1;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		record_sample(k->rec, s);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		k->rec_cpu_ns += (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL +
					    (t1.tv_nsec - t0.tv_nsec));
	}
	model_apply(&k->model, s);
}

static bool live_collect(struct ktop *k)
{
	struct model *m = &k->model;
	struct sample *s = &k->sample;
	struct procfs_need need;
	const pid_t *born, *ids;
	size_t nborn, nids;

	live_want_rows(k);
	sinks_needs(k, &need);
	exits_begin(k->exits);
	/* Fork events say which processes are new: then /proc need not be listed. */
	if (ftrace_read(k->ftrace, &born, &nborn) && !m->threads)
		procfs_hint_born(k->procfs, born, nborn);
	/* Whose the tasks are whose credentials changed, before their events count. */
	nids = ftrace_cred_changes(k->ftrace, m, &ids);
	procfs_recheck_owners(k->procfs, ids, nids);
	/* A process moved to another cgroup (no exec): its cgroup is read again. */
	nids = ftrace_cgroup_moves(k->ftrace, m, &ids);
	procfs_recheck_cgroups(k->procfs, ids, nids);
	cgres_moved(k->cgres, ids, nids);
	if (k->focus && m->nfprocs) {
		const struct acct_sig *sigs;
		size_t n = ftrace_signals(k->ftrace, &sigs), i;

		focus_collect(k->focus, m);
		/* Their senders: the focus instance runs only in the focused processes. */
		for (i = 0; i < n; i++)
			focus_signal_seen(k->focus, m, &sigs[i]);
	}
	/* -- CMD, --summary: what the watched processes fork is watched too. */
	nborn = ftrace_follow(k->ftrace, m, &born);
	while (nborn--)
		procfs_focus_add(k->procfs, *born++);
	/* Each source fills the sample and the model applies it, in turn. */
	s->begin = true;
	/* Traced, the events' interval ends where ftrace_read began: the tick's. */
	s->mono_ns = ftrace_cut_ns(k->ftrace) ? ftrace_cut_ns(k->ftrace) : now_mono_ns();
	s->wall_s = now_wall_s();
	system_collect(k->sys, s);
	apply(k, s);
	procfs_collect(k->procfs, m, &need, s);
	apply(k, s);
	cgnames_collect(k->cgnames, m, s);
	ftrace_collect(k->ftrace, m, s, k->last_collect);
	if (k->focus && m->nfprocs)
		focus_thread_states(k->focus, m, ftrace_on(k->ftrace) ? ftrace_acct(k->ftrace) : NULL);
	if (k->inprog && ftrace_on(k->ftrace))
		inprog_collect(k->inprog, ftrace_acct(k->ftrace), m, ftrace_cut_ns(k->ftrace), s);
	report_privileged(k);
	apply(k, s);
	ftrace_end_interval(k->ftrace);
	/* Last: the deaths /proc and the events told of have their records queued. */
	nids = ftrace_held(k->ftrace, &ids);
	exits_collect(k->exits, m, s, ids, nids);
	cgres_collect(k->cgres, m, shown_group_by(k),
		      need.all & NEED_CPULIMIT ? CGRES_ROWS_ALL :
		      need.wanted & NEED_CPULIMIT ? CGRES_ROWS_WANTED : CGRES_ROWS_NONE, s);
	s->end = true;
	apply(k, s);
	/* The live view's rows point at the tasks: rebuilt at once (batch_write does its own). */
	if (k->mode->screen) {
		rowset_refresh(&k->app.rows, m);
		sysview_refresh_all(&k->app);
	}
	k->ticks++;
	return true;
}

/*
 * After a jump the process views start again at the interval shown: the
 * baselines the jump applied before it are not intervals the user saw, and
 * an interval seen twice (a step back) must not count twice. Their history
 * keeps its last point, their totals the interval shown.
 */
static void fprocs_restart(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nfprocs; i++) {
		struct fproc *fp = m->fprocs[i];

		if (fp->hist_n > 1)
			fp->hist_n = 1;
		sc_table_clear(&fp->sc_total);
		sc_table_merge(&fp->sc_total, &fp->sc_last);
	}
}

/*
 * -r: the next interval shown, after the baseline before it when a jump or
 * a new file starts there, applied to the model; the sinks see it through
 * collect(). False when there is none (yet), --end is passed, or the file
 * is damaged (replay_err).
 */
static bool replay_collect(struct ktop *k)
{
	struct model *m = &k->model;
	struct sample *s = &k->sample;
	bool shown = false, applied = false;
	int rc;

	if (k->replay_past_end || k->replay_err[0])
		return false;
	do {
		rc = replay_next(k->replay, s, &shown, k->replay_err, sizeof(k->replay_err));
		if (rc <= 0) {
			if (!rc)
				k->replay_err[0] = '\0';
			k->replay_at_end = true;
			break;
		}
		/* Past --end: stopped before the interval begins, the model as the last one left it. */
		if (s->begin && replay_showing(k->replay) && k->replay_end > 0 &&
		    s->wall_s > k->replay_end + 5e-7) {
			sample_reset(s);
			k->replay_past_end = k->replay_at_end = true;
			break;
		}
		model_apply(m, s);
		applied = true;
	} while (!shown);
	/* Before any sink sees it: the process views show the jump's interval alone. */
	if (applied && k->replay_jumped)
		fprocs_restart(m);
	k->replay_jumped = false;
	/* The live view's rows point at the tasks (a jump dropped them all). */
	if (applied && k->mode->screen) {
		rowset_refresh(&k->app.rows, m);
		sysview_refresh_all(&k->app);
	}
	if (rc <= 0 || k->replay_past_end)
		return false;
	k->replay_at_end = false;
	k->replay_elapsed += m->interval_s;
	k->ticks++;
	if (k->mode->screen)
		replay_position(k);
	return true;
}

bool events_counted(const struct ktop *k)
{
	return k->replay ? replay_first_session(k->replay)->event_counters != 0 : ftrace_on(k->ftrace);
}

bool collect(struct ktop *k)
{
	if (!(k->replay ? replay_collect(k) : live_collect(k)))
		return false;
	/* Every sink, whatever asked for the interval (sinks.c). */
	k->sink_status = sinks_interval(k);
	return true;
}

/* The system-wide instance reports the signals sent to the focused processes. */
void watch_signals(struct ktop *k)
{
	const struct model *m = &k->model;
	pid_t pids[ACCT_WATCH];
	size_t i, n = 0;

	for (i = 0; i < m->nfprocs && n < ACCT_WATCH; i++)
		pids[n++] = m->fprocs[i]->pid;
	ftrace_watch_signals(k->ftrace, pids, n);
}

/*
 * Focus @pid's events (a process view opened): the rich events, if tracing
 * can. Returns false when refused: @pid is another user's and ktop is not
 * root (the reason is on the bottom line); its view is not opened.
 */
bool focus_open_view(struct ktop *k, pid_t pid)
{
	struct model *m = &k->model;
	char why[160];

	if (k->focus) {
		/* focus_add checks too, and adds nothing when it refuses. */
		snprintf(why, sizeof(why), "process %d: not focused", (int)pid);
		if (focus_may_see(pid, why, sizeof(why)) ||
		    (focus_add(k->focus, m, pid, false) && !model_fproc_find(m, pid))) {
			app_message(&k->app, "%s", why);
			return false;
		}
		watch_signals(k);
		return true;
	}
	model_fproc_add(m, pid);
	if (k->replay) {
		/* The interval shown is there already: the view shows it at once, paused too. */
		if (m->tick)
			fproc_tick(model_fproc_find(m, pid), m);
		snprintf(m->focus_status, sizeof(m->focus_status),
			 "a recording keeps no event list: rates and syscalls as recorded");
	}
	else
		snprintf(m->focus_status, sizeof(m->focus_status), "events off: %.140s",
			 k->opt.no_trace ? "--no-trace" : m->trace_status[0] ? m->trace_status :
			 "tracing is not running");
	return true;
}

int check_pids(struct ktop *k)
{
	size_t i;

	for (i = 0; i < k->opt.npids; i++) {
		if (!procfs_pid_exists(k->procfs, k->opt.pids[i])) {
			fprintf(stderr, "ktop: no process with pid %d\n", (int)k->opt.pids[i]);
			return -1;
		}
	}
	return 0;
}

/* KTOP_STATS=1: what the collectors did, for benchmarks (bench/). */
void print_stats(const struct ktop *k)
{
	struct procfs_stats ps;
	struct ftrace_stats fs = k->fstats;
	struct exits_stats xs;
	struct rusage ru;
	size_t focus_bytes = 0, i;
	uint64_t focus_events = 0;

	if (k->opt.write)
		fprintf(stderr, "ktop-stats: record_cpu_s=%.3f record_intervals=%llu task_rows=%llu "
			"proc_rows=%llu files=%llu record_refused=%llu record_unrecorded=%llu\n",
			(double)k->rec_cpu_ns / 1e9,
			(unsigned long long)k->rec_stats.intervals,
			(unsigned long long)k->rec_stats.task_rows,
			(unsigned long long)k->rec_stats.proc_rows,
			(unsigned long long)k->rec_stats.files,
			(unsigned long long)k->rec_stats.refused,
			(unsigned long long)k->rec_stats.unrecorded);
	if (k->metrics) {
		struct httpd_stats hs = { 0 };

		if (k->httpd)
			httpd_get_stats(k->httpd, &hs);
		fprintf(stderr, "ktop-stats: scrape_renders=%llu scrape_render_cpu_s=%.6f gzips=%llu "
			"gzip_cpu_s=%.6f pushes=%llu push_cpu_s=%.6f\n",
			(unsigned long long)k->scrape_renders, (double)k->scrape_cpu_ns / 1e9,
			(unsigned long long)hs.gzips, hs.gzip_cpu_s, (unsigned long long)k->pushes,
			(double)k->push_cpu_ns / 1e9);
	}
	sinks_print_stats(k);
	flightctl_print_stats(k);
	if (!k->procfs)
		return;
	procfs_get_stats(k->procfs, &ps);
	getrusage(RUSAGE_SELF, &ru);
	/* The focused processes' rings and tables (--events bounds them). */
	for (i = 0; i < k->model.nfprocs; i++) {
		focus_bytes += fproc_bytes(k->model.fprocs[i]);
		focus_events += k->model.fprocs[i]->events.pushed;
	}
	fprintf(stderr, "ktop-stats: focus_bytes=%zu focus_events=%llu\n", focus_bytes,
		(unsigned long long)focus_events);
	{
		struct cgres_stats cs;

		cgres_get_stats(k->cgres, &cs);
		fprintf(stderr, "ktop-stats: cgres_cpu_s=%.6f cgres_group_reads=%lu cgres_file_reads=%lu "
			"cgres_opens=%lu cgres_fds=%zu cgcpu_file_reads=%lu cgcpu_path_reads=%lu "
			"cgcpu_cgroups=%zu cgcpu_fds=%zu\n", (double)cs.cpu_ns / 1e9, cs.group_reads,
			cs.reads, cs.opens, cs.open_fds, cs.cpu.reads, cs.cpu.path_reads, cs.cpu.nodes,
			cs.cpu.open_fds);
	}
	exits_get_stats(k->exits, &xs);
	fprintf(stderr, "ktop-stats: exit_records=%llu exit_rows=%llu exit_unmatched=%llu "
		"exit_partial=%llu exit_lost=%llu\n", (unsigned long long)xs.records,
		(unsigned long long)xs.rows, (unsigned long long)xs.unmatched,
		(unsigned long long)xs.partial, (unsigned long long)xs.lost);
	fprintf(stderr, "ktop-stats: ticks=%ld cpu_s=%.3f maxrss_kb=%ld tracing=%d events=%llu pages=%llu "
		"drains=%llu stashed=%llu lost=%llu malformed=%llu unattributed=%llu carried=%llu held=%llu unparented=%llu "
		"buffer_kb=%zu switches_unseen=%llu oncpu_overlaps=%llu stash_kept=%zu "
		"stat_reads=%lu scans=%lu event_scans=%lu\n",
		k->ticks, (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
		(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
		ru.ru_maxrss, k->model.event_counters != 0, (unsigned long long)fs.events,
		(unsigned long long)fs.pages, (unsigned long long)fs.drains,
		(unsigned long long)fs.stashed, (unsigned long long)fs.lost,
		(unsigned long long)fs.malformed, (unsigned long long)fs.unattributed,
		(unsigned long long)fs.carried, (unsigned long long)fs.held,
		(unsigned long long)fs.unparented, fs.buffer_kb,
		(unsigned long long)fs.switches_unseen, (unsigned long long)fs.oncpu_overlaps,
		fs.stash_kept, ps.stat_reads, ps.scans, ps.event_scans);
	fprintf(stderr, "ktop-stats: sockets=%llu sockets_kept_peak=%zu sockets_evicted=%llu "
		"sockets_untracked=%llu sockets_reused=%llu\n", (unsigned long long)fs.conns.sockets,
		fs.conns.peak, (unsigned long long)fs.conns.evicted,
		(unsigned long long)fs.conns.untracked, (unsigned long long)fs.conns.reused);
	if (fs.clock[0])
		fprintf(stderr, "ktop-stats: trace_clock=%s clock_why=\"%s\" clock_samples=%llu "
			"clock_refused=%llu clock_steps=%llu clock_err_last_ns=%lld clock_err_max_ns=%llu "
			"clock_cut_margin_ns=%llu clock_rate=%.9f\n", fs.clock, fs.clock_why,
			(unsigned long long)fs.clock_samples, (unsigned long long)fs.clock_refused,
			(unsigned long long)fs.clock_steps, (long long)fs.clock_err_last_ns,
			(unsigned long long)fs.clock_err_max_ns, (unsigned long long)fs.clock_bound_ns,
			fs.clock_rate);
}
