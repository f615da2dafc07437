// SPDX-License-Identifier: GPL-2.0-only
/*
 * What happens before the loop: signals blocked (read from a signalfd by the
 * loop), crash handlers and the watchdog, the live sources started, the
 * model and the views set up.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>

#include "ui.h"
#include "../lib/util.h"
#include "../views/view.h"
#include "flightctl.h"
#include "ktop.h"
#include "watchdog.h"

int setup_signals(void)
{
	sigset_t set;

	/*
	 * Handled in the loop through a signalfd, never in a handler: each ends
	 * ktop through its one clean exit path (which removes the trace instance),
	 * SIGWINCH excepted. That includes the signals whose default would end the
	 * process silently (SIGUSR1, SIGALRM, ...).
	 */
	static const int sigs[] = {
		SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGUSR1, SIGUSR2, SIGALRM,
		SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSTKFLT, SIGPWR,
	};
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&set, sigs[i]);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	/* A closed pipe is a write error (EPIPE) that the batch writer handles. */
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void fatal_signal(int sig)
{
	/* Restore the terminal, stop tracing; then die of the same signal. */
	counting_emergency_stop();
	ui_stop();
	signal(sig, SIG_DFL);
	raise(sig);
}

void setup_fatal_handlers(void)
{
	/* Crashes: nothing to do but stop and leave. */
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], fatal_signal);
	/* And a step that never ends must not keep SIGTERM waiting. */
	watchdog_init();
}

/*
 * KTOP_TEST_STALL=N: tick N never finishes, as a defect would have it; the
 * tests of the watchdog (tests/cli/massexit.bats) need one.
 */
void test_stall(const struct ktop *k)
{
	static long at = -1;
	static volatile unsigned long spin;

	if (at < 0) {
		const char *e = getenv("KTOP_TEST_STALL");

		at = e ? strtol(e, NULL, 10) : 0;
	}
	if (at > 0 && k->ticks + 1 == at)
		for (;;)
			spin++;
}

void setup_app(struct ktop *k)
{
	struct app *a = &k->app;
	struct model *m = &k->model;
	struct rowset *rs = k->opt.batch ? &k->batch.rows : &a->rows;

	model_init(m, sysconf(_SC_CLK_TCK), sysconf(_SC_PAGESIZE) / 1024);
	sample_init(&k->sample);
	rowset_init(&a->rows);
	a->rows.exited = EXITED_LAST;	/* the live view: the live processes first */
	rowset_init(&k->batch.rows);
	a->delay_s = k->opt.delay_s;
	a->show_cmdline = true;
	default_columns(k);
	/* Tracing's status and the exit records', as the live sources say them. */
	sources_setup(k);
	a->tracing = events_counted(k);
	a->replay = k->replay != NULL;
	a->recording = k->opt.write ? 1 : 0;
	a->mouse = !k->opt.no_mouse;
	a->ascii = k->opt.ascii;
	snprintf(a->theme, sizeof(a->theme), "%s", k->opt.theme ? k->opt.theme : "default");
	a->stack[0] = &table_view;
	a->depth = 1;
	m->ring_events = k->opt.events;
	m->threads = k->opt.threads;
	if (k->opt.sort_col >= 0) {
		rs->sort_col = k->opt.sort_col;
		rs->sort_dir = k->opt.sort_asc ? SORT_ASC : SORT_DESC;
	}
	sysview_init(a, k->opt.view, k->opt.group_by);
	if (!k->opt.batch && !k->opt.summary)
		apply_settings(k);
	if (k->mode->screen) {
		/* Any view may be picked at any time: the sums are kept from the start. */
		m->aggregate = true;
		if (a->view != VIEW_PROCESSES)
			sysview_switch(a, a->view);
	}
	if (k->replay)
		m->threads = replay_first_session(k->replay)->threads;
	if (k->nwatch) {
		model_set_focus(m, k->watch, k->nwatch);
		/* CMD's children are CMD's work; so are a process's under --summary, as with strace -f. */
		m->focus_follow = k->opt.cmd || k->opt.summary;
		/* The live view keeps the row of a named process that exits (state X). */
		m->keep_exited = !k->opt.batch && !k->opt.summary;
		m->sum_syscalls = k->opt.summary;
	}
	/* The recording's units, rows and tracing; its -p unless this replay has its own. */
	if (k->replay)
		model_set_session(m, replay_first_session(k->replay));
	if (k->opt.batch) {
		k->batch.out = k->out;
		k->batch.fmt = k->opt.format;
		k->batch.syscalls = k->opt.syscalls;
		if (k->opt.ncols) {
			memcpy(k->batch_cols, k->opt.cols, k->opt.ncols * sizeof(int));
			k->batch.ncols = k->opt.ncols;
		} else {
			batch_default_columns(k->opt.format, events_counted(k), k->batch_cols,
					      &k->batch.ncols);
		}
		k->batch.cols = k->batch_cols;
		batch_init_view(&k->batch, k->opt.view, k->opt.group_by, k->opt.view_sort,
				k->opt.sort_asc);
		m->aggregate = k->opt.view != VIEW_PROCESSES;
	}
}

/*
 * The live system's sources (sourcelist.c), with signals blocked before
 * tracing starts. Returns 0, or -1 (said why).
 */
int start_sources(struct ktop *k)
{
	struct source_env *env = &k->sources;

	/*
	 * Signals are blocked (and read from the signalfd) before tracing starts:
	 * a Ctrl-C from now on ends the loop, which removes the instance.
	 */
	k->sigfd = setup_signals();
	setup_fatal_handlers();
	env->pids = k->opt.pids;
	env->npids = k->opt.npids;
	env->watch = k->watch;
	env->nwatch = k->nwatch;
	env->no_trace = k->opt.no_trace;
	env->summary = k->opt.summary;
	/*
	 * ktop -b -n 1: the baseline is all it writes, and a first interval's
	 * event columns are empty. (An exporter, a recording or a summary
	 * would still use the interval's events.)
	 */
	env->baseline_only = k->mode == &mode_batch && k->opt.iterations == 1 &&
			     !k->opt.write && !options_exporter(&k->opt);
	/* Time per call (sys_enter too) only when watching a few processes. */
	env->time_syscalls = k->nwatch > 0 || k->opt.latency;
	if (!k->opt.no_trace)
		env->flight = flightctl_start(k);
	if (sources_start(k))
		return -1;
	if (env->tracing)
		flightctl_clock(k);
	return 0;
}
