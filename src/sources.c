// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loop's intervals: tracing stopped, one tick's collection (the live
 * sources' list, sourcelist.c; or a recording's next interval), the focus of
 * a process view, KTOP_STATS. Moving about in a recording (-r's keys,
 * --begin) is replayctl.c's.
 */
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../model/fproc.h"
#include "../lib/sctable.h"
#include "../lib/util.h"
#include "../views/view.h"
#include "flightctl.h"
#include "httpd.h"
#include "ktop.h"

/* Stop tracing (the instances are removed), keeping its statistics for KTOP_STATS. */
void stop_tracing(struct ktop *k)
{
	flightctl_finish(k);	/* a save still due: the instances are still there */
	sources_stop(k);
}

static bool live_collect(struct ktop *k)
{
	struct model *m = &k->model;

	live_want_rows(k);
	sources_tick(k);
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
		sctable_clear(&fp->sc_total);
		sctable_merge(&fp->sc_total, &fp->sc_last);
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
	return k->replay ? replay_first_session(k->replay)->event_counters != 0 : counting_on(k->ftrace);
}

bool collect(struct ktop *k)
{
	if (!(k->replay ? replay_collect(k) : live_collect(k)))
		return false;
	/* Every sink, whatever asked for the interval (sinks.c). */
	k->sink_status = sinks_interval(k);
	return true;
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
	int r = sources_focus_open(k, pid, why, sizeof(why));

	if (r > 0) {
		app_message(&k->app, "%s", why);
		return false;
	}
	if (!r)
		return true;
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

/* KTOP_STATS=1: what the collectors did, for benchmarks (bench/). */
void print_stats(const struct ktop *k)
{
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
	if (!k->sources_started)
		return;
	getrusage(RUSAGE_SELF, &ru);
	/* The focused processes' rings and tables (--events bounds them). */
	for (i = 0; i < k->model.nfprocs; i++) {
		focus_bytes += fproc_bytes(k->model.fprocs[i]);
		focus_events += k->model.fprocs[i]->events.pushed;
	}
	fprintf(stderr, "ktop-stats: focus_bytes=%zu focus_events=%llu\n", focus_bytes,
		(unsigned long long)focus_events);
	fprintf(stderr, "ktop-stats: ticks=%ld cpu_s=%.3f maxrss_kb=%ld tracing=%d", k->ticks,
		(double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
		(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
		ru.ru_maxrss, k->model.event_counters != 0);
	sources_print_fields(k, stderr);
	fputc('\n', stderr);
	sources_print_lines(k, stderr);
}
