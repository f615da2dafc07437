// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live view's wiring: what the views' actions do (collect, focus,
 * signal, renice, save), its columns and its settings file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "procctl.h"
#include "ui.h"
#include "../lib/util.h"
#include "../views/view.h"
#include "flightctl.h"
#include "ktop.h"

/* Interactive table columns; COMMAND (comm or cmdline) last. */
/*
 * What a top or htop user looks for first (NI, RES, TIME+), then ktop's own:
 * RUNQ% from schedstat's run_delay and the context switches from status, read
 * for the rows on screen only (bench/README.md: what they cost).
 */
static const int table_default[] = {
	COL_PID, COL_USER, COL_NICE, COL_STATE, COL_CPU, COL_RUNQ, COL_MEM, COL_VSZ, COL_RSS, COL_TIME,
	COL_MINFLT, COL_MAJFLT, COL_VCSW, COL_IVCSW, COL_THREADS, COL_CMDLINE,
};
/*
 * With tracing: where the time goes next to CPU% (RUNQ%, BLOCK%; WAIT% in
 * their place where they do not fit), then the syscall columns, what ktop
 * is for. Untraced, BLOCK% is not known.
 */
static const int table_traced[] = {
	COL_PID, COL_USER, COL_NICE, COL_STATE, COL_CPU, COL_RUNQ, COL_THROTTLED, COL_BLOCKED, COL_WAIT,
	COL_MEM, COL_RSS, COL_TIME, COL_SYSC, COL_SYSERR, COL_TOPSC, COL_MINFLT, COL_MAJFLT, COL_VCSW,
	COL_IVCSW, COL_SIGRECV, COL_THREADS, COL_CMDLINE,
};

/* Setup's theme: which theme it switched to, and which of how many. */
static void say_theme(struct app *a)
{
	size_t i;

	for (i = 0; i < a->nthemes && strcmp(a->themes[i], a->theme); i++)
		;
	if (i < a->nthemes)
		app_message(a, "theme %s (%zu of %zu; Left/Right: another)", a->theme, i + 1,
			    a->nthemes);
	else
		app_message(a, "theme %.100s", a->theme);
}

static void act_signal(struct ktop *k)
{
	struct app *a = &k->app;
	const char *name = sigabbrev_np(a->req.sig);
	int ret = proc_signal(a->req.pid, a->req.starttime, a->req.sig);

	if (ret == -ESRCH)
		app_message(a, "SIG%s not sent: process %d is gone", name, (int)a->req.pid);
	else if (ret)
		app_message(a, "SIG%s to %d failed: %s", name, (int)a->req.pid, strerror(-ret));
	else
		app_message(a, "SIG%s sent to %d", name, (int)a->req.pid);
	if (!ret && !a->paused)
		collect(k);	/* show what it did at once */
}

static void act_renice(struct ktop *k)
{
	struct app *a = &k->app;
	int ret = proc_renice(a->req.pid, a->req.starttime, a->req.nice);

	if (ret == -ESRCH)
		app_message(a, "process %d is gone", (int)a->req.pid);
	else if (ret)
		app_message(a, "nice %d for %d: %s%s", a->req.nice, (int)a->req.pid, strerror(-ret),
			    ret == -EACCES || ret == -EPERM ? " (lowering nice needs root)" : "");
	else
		app_message(a, "%d now has nice %d", (int)a->req.pid, a->req.nice);
	if (!ret && !a->paused)
		collect(k);
}

#define ENVIRON_MAX (64 * 1024)

static enum action environ_pick(struct app *a, size_t i)
{
	(void)a;
	(void)i;
	return ACT_REDRAW;
}

/*
 * e: the environment of a->req.pid as a menu, one variable a line (its
 * text made safe for the terminal); the first 64 KiB, or why not.
 */
static void act_environ(struct ktop *k)
{
	struct app *a = &k->app;
	struct table_state *ts = &a->table;
	char *raw = xmalloc(ENVIRON_MAX), title[160];
	ssize_t n = proc_environ(a->req.pid, a->req.starttime, raw, ENVIRON_MAX);
	size_t i, start, nitems = 0, off = 0;

	if (n < 0) {
		app_message(a, "the environment of %d: %s", (int)a->req.pid,
			    n == -ESRCH ? "the process is gone" : strerror((int)-n));
		free(raw);
		return;
	}
	free(ts->environ);
	free(ts->environ_items);
	/* Each byte at most 4 once made safe (sanitize_text), and a NUL a line. */
	ts->environ = xmalloc((size_t)n * 4 + (size_t)n + 2);
	ts->environ_items = xmalloc(((size_t)n + 1) * sizeof(*ts->environ_items));
	for (i = 0, start = 0; i <= (size_t)n; i++) {
		if (i < (size_t)n && raw[i])
			continue;
		if (i > start) {
			sanitize_text(ts->environ + off, (i - start) * 4 + 1, raw + start, i - start,
				      a->utf8);
			ts->environ_items[nitems++] = ts->environ + off;
			off += strlen(ts->environ + off) + 1;
		}
		start = i + 1;
	}
	ts->environ_n = nitems;
	free(raw);
	snprintf(title, sizeof(title), "Environment of %d%s (%zu variables; Esc: back)",
		 (int)a->req.pid, n == ENVIRON_MAX ? ", its first 64 KiB" : "", nitems);
	menu_open(a, title, ts->environ_items, nitems, 0, environ_pick);
}

/* The live view's settings as they are now, into the settings file. */
static void save_settings(struct ktop *k)
{
	struct app *a = &k->app;
	struct settings s;
	char err[512];

	memset(&s, 0, sizeof(s));
	s.delay_s = a->delay_s;
	snprintf(s.theme, sizeof(s.theme), "%s", a->theme);
	s.sort_col = a->rows.sort_col;
	s.sort_asc = a->rows.sort_dir == SORT_ASC;
	memcpy(s.cols, a->cols, a->ncols * sizeof(a->cols[0]));
	s.ncols = a->ncols;
	s.tree = a->rows.tree;
	s.hide_kthreads = a->rows.hide_kthreads;
	s.view = a->view;
	s.group_by = a->groups.by;
	s.threads = k->model.threads;
	if (!k->rc_path[0])
		app_message(a, "not saved: neither XDG_CONFIG_HOME nor HOME is set");
	else if (settings_save(k->rc_path, &s, err, sizeof(err)))
		app_message(a, "not saved: %s", err);
	else
		app_message(a, "saved to %s", k->rc_path);
}

/* Returns true when the loop should end. */
bool handle_action(struct ktop *k, enum action act)
{
	struct app *a = &k->app;

	if (act != ACT_QUIT && act != ACT_NONE && k->quits == 1)
		k->quits = 0;	/* a q, then something else: the q is forgotten */
	/* A recording: no process to signal or renice, its rows are as recorded. */
	if (k->replay && (act == ACT_SIGNAL || act == ACT_RENICE || act == ACT_THREADS ||
			  act == ACT_ENVIRON)) {
		if (act == ACT_THREADS)
			app_message(a, "a recording keeps its rows: one per %s",
				    k->model.threads ? "thread" : "process");
		else
			app_message(a, "a recording: no live process to act on");
		act = ACT_REDRAW;
	}
	switch (act) {
	case ACT_QUIT:
		return quit_key(k);
	case ACT_REPLAY_BACK:
	case ACT_REPLAY_FWD:
		if (k->replay)
			replay_step(k, act == ACT_REPLAY_BACK ? -1 : 1);
		a->replay_end = k->replay_at_end;
		if (k->replay_err[0])
			return true;
		break;
	case ACT_REPLAY_JUMP:
		if (k->replay)
			replay_jump(k, a->jump_to);
		a->replay_end = k->replay_at_end;
		if (k->replay_err[0])
			return true;
		break;
	case ACT_RESORT:
		rowset_refresh(&a->rows, &k->model);
		break;
	case ACT_COLLECT:
		/* A replay has every number already: the next interval waits for its tick. */
		if (!a->paused && !k->final && !k->replay)
			collect(k);
		else
			rowset_refresh(&a->rows, &k->model);
		break;
	case ACT_DELAY:
		arm_timer(k->timerfd, a->delay_s, false);
		break;
	case ACT_THREADS:
		if (k->final) {
			/* Collecting again would replace the final numbers. */
			app_message(a, "%s has exited: the numbers are final", cmd_name(k));
			break;
		}
		k->model.threads = !k->model.threads;
		model_clear(&k->model);
		/* The rows pointed at the tasks just freed: the collect below reads them. */
		rowset_refresh(&a->rows, &k->model);
		sysview_refresh_all(a);
		collect(k);	/* /proc is read anew in the new mode */
		break;
	case ACT_FOCUS:
		if (!focus_open_view(k, a->view_pid)) {
			/* The process view and what opened over it (s: its event list). */
			while (a->depth > 1 && a->stack[a->depth - 1] != &procview_view)
				app_pop(a);
			app_pop(a);
			a->view_pid = 0;
		}
		break;
	case ACT_UNFOCUS:
		if (!sources_focus_close(k, a->view_pid))
			model_fproc_remove(&k->model, a->view_pid);
		watch_signals(k);
		a->view_pid = 0;
		a->pv_last.pid = 0;
		break;
	case ACT_THEME:
		if (!ui_theme(a) && a->color)
			say_theme(a);
		break;
	case ACT_SIGNAL:
		act_signal(k);
		break;
	case ACT_RENICE:
		act_renice(k);
		break;
	case ACT_ENVIRON:
		act_environ(k);
		break;
	case ACT_SAVE:
		save_settings(k);
		break;
	case ACT_FLIGHT:
		flightctl_request(k, "the W key");
		/* No tick comes while paused or after CMD's end: what is kept, now. */
		if (a->paused || k->final)
			flightctl_now(k);
		break;
	default:
		break;
	}
	if (act != ACT_NONE)
		ui_draw(a);
	return false;
}

void default_columns(struct ktop *k)
{
	struct app *a = &k->app;

	if (events_counted(k)) {
		memcpy(a->cols, table_traced, sizeof(table_traced));
		a->ncols = ARRAY_SIZE(table_traced);
	} else {
		memcpy(a->cols, table_default, sizeof(table_default));
		a->ncols = ARRAY_SIZE(table_default);
	}
	a->show_cmdline = true;
}

/* Columns that count kernel events, when tracing is off: nothing to show. */
bool column_useless(const struct ktop *k, int c)
{
	const struct column *col = &columns[c];

	if (c == COL_LOST_EXITS)
		return !k->model.exit_records;
	if (events_counted(k))
		return false;
	/* runq_ms has schedstat's run_delay untraced; WAIT% would not know blocked. */
	return c == COL_TOPSC || c == COL_LOST || c == COL_WAIT ||
	       (col->counter >= CNT_SYSCALLS && col->counter < CNT_NR && c != COL_RUNQ &&
		col->counter != CNT_DISK_READ && col->counter != CNT_DISK_WRITE);
}

/*
 * The settings file, under the command line: -d, -s, -H and --theme win. A
 * bad setting was reported and left unset: its default stays.
 */
void apply_settings(struct ktop *k)
{
	struct app *a = &k->app;
	struct model *m = &k->model;
	struct settings s;
	size_t i;

	if (!k->rc_path[0])
		return;
	s = k->rc;
	if (s.have_delay && !k->opt.delay_set)
		a->delay_s = s.delay_s;
	if (s.have_theme && !k->opt.theme)
		snprintf(a->theme, sizeof(a->theme), "%s", s.theme);
	if (s.have_sort && k->opt.sort_col < 0) {
		a->rows.sort_col = s.sort_col;
		a->rows.sort_dir = s.sort_asc ? SORT_ASC : SORT_DESC;
	}
	if (s.ncols) {
		a->ncols = 0;
		for (i = 0; i < s.ncols; i++)
			if (!column_useless(k, s.cols[i]))
				a->cols[a->ncols++] = s.cols[i];
		a->show_cmdline = a->cols[a->ncols - 1] == COL_CMDLINE;
		if (a->ncols < 2)	/* only COMMAND left: the defaults are better */
			default_columns(k);
	}
	if (s.have_tree)
		a->rows.tree = s.tree;
	if (s.have_hide_kthreads)
		a->rows.hide_kthreads = s.hide_kthreads;
	if (s.have_view && !k->opt.view_set)
		a->view = s.view;
	if (s.have_group_by && !k->opt.group_by_set)
		groups_set_by(&a->groups, s.group_by);
	if (s.have_threads && !k->opt.threads)
		m->threads = s.threads;
}

/*
 * The live view's files, read first: before CMD is forked and before tracing
 * starts, so that a file that blocks (a FIFO is refused, but a hung NFS home
 * can still hang open()) holds up nothing that needs cleaning up, and Ctrl-C
 * still ends ktop (signals are not blocked yet).
 */
void read_files(struct ktop *k)
{
	const char *theme = k->opt.theme ? k->opt.theme : "default";

	if (settings_path(k->rc_path, sizeof(k->rc_path)))
		k->rc_path[0] = '\0';
	else
		settings_load(k->rc_path, &k->rc, k->rc_warn, sizeof(k->rc_warn));
	if (!k->opt.theme && k->rc.have_theme)
		theme = k->rc.theme;
	k->nthemes = theme_list(k->themes, THEME_MAX);
	theme_preload(theme);
}
