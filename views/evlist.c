// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event list: a focused process's recent kernel events from its ring,
 * newest at the bottom, filtered by kind and syscall name, pausable. Enter
 * opens the snapshot of the selected event. Its items are the events that
 * pass the filter (tables/evindex.c), scrolled with tables/list.c like every
 * list; the selection is an event, not a line.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "theme.h"
#include "view.h"
#include "../tables/kevtext.h"
#include "../model/fproc.h"
#include "../lib/util.h"

/* The end of what the list shows: everything, or what there was at the pause. */
static uint64_t list_end(const struct app *a, const struct fproc *fp)
{
	return a->ev.paused && a->ev.pause_end < fp->events.pushed ? a->ev.pause_end :
								     fp->events.pushed;
}

/*
 * The index brought up to the ring, and the list's selection onto the
 * selected event: the newest when following, else the event itself (the
 * line it is on moves with it), or the nearest left when the ring dropped
 * it. The window moves up by the lines that left the front, so that what
 * stays keeps its place on the screen.
 */
static void evlist_sync(struct app *a, const struct fproc *fp)
{
	struct evlist_state *ev = &a->ev;
	size_t dropped = evindex_sync(&ev->index, &fp->events, list_end(a, fp), &ev->filter);
	size_t pos;

	ev->list.top = ev->list.top > dropped ? ev->list.top - dropped : 0;
	if (!ev->index.n) {
		ev->list.sel = ev->list.top = 0;
		if (ev->follow)
			ev->sel = UINT64_MAX;
		return;
	}
	if (ev->follow || ev->sel == UINT64_MAX)
		pos = ev->index.n - 1;
	else
		evindex_near(&ev->index, ev->sel, &pos);
	ev->list.sel = pos;
	ev->sel = evindex_seq(&ev->index, pos);
}

/* A new filter: the index made again, the selection on its event's line if it passes. */
static void evlist_refilter(struct app *a)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);
	struct list *l = &a->ev.list;
	size_t line = l->sel >= l->top ? l->sel - l->top : 0;

	evindex_clear(&a->ev.index);
	if (!fp)
		return;
	evlist_sync(a, fp);
	l->top = l->sel > line ? l->sel - line : 0;
}

void evlist_open(struct app *a, const char *syscall)
{
	a->ev.filter.kind = syscall ? KEV_SYSCALL : -1;
	snprintf(a->ev.filter.syscall, sizeof(a->ev.filter.syscall), "%s", syscall ? syscall : "");
	a->ev.paused = false;
	a->ev.follow = true;
	a->ev.sel = UINT64_MAX;
	evindex_clear(&a->ev.index);
	a->ev.list = (struct list){ 0 };
	app_push(a, &evlist_view);
}

void evlist_free(struct app *a)
{
	evindex_free(&a->ev.index);
}

bool evlist_step(struct app *a, const struct fproc *fp, uint64_t seq, int dir, uint64_t *out)
{
	const struct evindex *ix = &a->ev.index;
	size_t p;

	evlist_sync(a, fp);
	p = evindex_lower(ix, seq);
	if (dir < 0) {
		if (!p)
			return false;
		*out = evindex_seq(ix, p - 1);
		return true;
	}
	if (p < ix->n && evindex_seq(ix, p) == seq)
		p++;
	if (p >= ix->n)
		return false;
	*out = evindex_seq(ix, p);
	return true;
}

/* "14:03:07.123456": wall time of a CLOCK_MONOTONIC event time, from the tick's pair. */
void evlist_time(const struct model *m, uint64_t ts, char *buf, size_t n)
{
	double wall = m->wall_s - ((double)m->t_now - (double)ts) / 1e9;
	time_t sec = (time_t)wall;
	struct tm tm;

	localtime_r(&sec, &tm);
	snprintf(buf, n, "%02d:%02d:%02d.%06d", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (int)((wall - (double)sec) * 1e6));
}

static void filter_text(const struct app *a, char *buf, size_t n)
{
	const struct evfilter *f = &a->ev.filter;

	snprintf(buf, n, "%s%s%s%s", f->kind >= 0 ? "kind=" : "",
		 f->kind >= 0 ? kev_kind_name(f->kind) : "", f->syscall[0] ? " syscall=" : "",
		 f->syscall);
	if (!buf[0])
		snprintf(buf, n, "none");
}

enum elem evlist_elem(const struct kev *e)
{
	static const enum elem of[KEV_NR] = {
		[KEV_SYSCALL] = EL_EVENT_SYSCALL, [KEV_SWITCH] = EL_EVENT_SWITCH,
		[KEV_FAULT] = EL_EVENT_FAULT, [KEV_SIGGEN] = EL_EVENT_SIGNAL,
		[KEV_SIGDELIVER] = EL_EVENT_SIGNAL, [KEV_FORK] = EL_EVENT_PROCESS,
		[KEV_EXEC] = EL_EVENT_PROCESS, [KEV_EXIT] = EL_EVENT_PROCESS,
	};

	return e->kind < KEV_NR ? of[e->kind] : EL_NORMAL;
}

static void evlist_draw(struct app *a, int y0, int h, int w)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);
	struct list *l = &a->ev.list;
	int rows = h - 3, shown, r;
	size_t n;
	char line[512], t[32], ev[320], clean[320], filt[96];

	if (!fp) {
		put_line(y0, 0, w, "no process is focused");
		blank_lines(y0 + 1, y0 + h, w);
		return;
	}
	evlist_sync(a, fp);
	n = a->ev.index.n;
	filter_text(a, filt, sizeof(filt));
	attrset(theme_attr(EL_TITLE));
	snprintf(line, sizeof(line), "Events of %d %s%s - filter: %s - %s - %llu kept of %llu seen",
		 (int)fp->pid, view_clean(a, clean, sizeof(clean), fp->comm),
		 fp->exited ? " (exited)" : "", filt,
		 a->ev.paused ? "PAUSED" : "live", (unsigned long long)evring_count(&fp->events),
		 (unsigned long long)fp->events.pushed);
	put_line(y0, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	if (a->model->focus_status[0] || fp->lost || fp->lost_unknown) {
		attrset(theme_attr(EL_MESSAGE));
		if (a->model->focus_status[0])
			snprintf(line, sizeof(line), "%s", a->model->focus_status);
		else
			snprintf(line, sizeof(line), "the kernel dropped %llu%s events while focused",
				 (unsigned long long)fp->lost, fp->lost_unknown ? " or more" : "");
		put_line(y0 + 1, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
	} else {
		put_line(y0 + 1, 0, w, "");
	}
	attrset(theme_attr(EL_TABLE_HEADER));
	put_line(y0 + 2, 0, w, "TIME             CPU     TID  EVENT");
	attrset(theme_attr(EL_NORMAL));

	if (rows < 1)
		return;
	if (!n) {
		attrset(theme_attr(EL_RATE_ZERO));
		put_line(y0 + 3, 0, w, evring_count(&fp->events) ? " no event matches the filter" :
			 " no events yet");
		blank_lines(y0 + 4, y0 + h, w);
		return;
	}
	list_fit(l, n, rows);
	shown = n - l->top < (size_t)l->rows ? (int)(n - l->top) : l->rows;
	a->ev.y_top = y0 + 3 + l->rows - shown;
	/* Newest at the bottom: a short list sits at the bottom of the space, blank above. */
	blank_lines(y0 + 3, y0 + 3 + l->rows - shown, w);
	for (r = 0; r < shown; r++) {
		size_t i = l->top + (size_t)r;
		const struct kev *e = evring_at(&fp->events, evindex_seq(&a->ev.index, i));
		int y = y0 + 3 + l->rows - shown + r;

		evlist_time(a->model, e->ts, t, sizeof(t));
		kevtext_render(e, ev, sizeof(ev));
		snprintf(line, sizeof(line), "%-15s %4u %7d  %s", t, e->cpu, (int)e->tid,
			 view_clean(a, clean, sizeof(clean), ev));
		attrset(theme_attr(i == l->sel ? EL_SELECTED : evlist_elem(e)));
		put_line(y, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
	}
	blank_lines(y0 + 3 + l->rows, y0 + h, w);
}

/* Every move goes through the list: the selection @delta events of the filter on. */
static enum action ev_move(struct app *a, long delta)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);
	struct evlist_state *ev = &a->ev;

	if (!fp)
		return ACT_NONE;
	evlist_sync(a, fp);
	if (!list_move(&ev->list, ev->index.n, delta))
		return ACT_NONE;
	ev->sel = evindex_seq(&ev->index, ev->list.sel);
	/* Down to the newest follows the list again. */
	ev->follow = delta > 0 && ev->list.sel + 1 == ev->index.n && !ev->paused;
	return ACT_REDRAW;
}

static enum action k_up(struct app *a) { return ev_move(a, -1); }
static enum action k_down(struct app *a) { return ev_move(a, 1); }
static enum action k_pgup(struct app *a) { return ev_move(a, -list_page(&a->ev.list)); }
static enum action k_pgdn(struct app *a) { return ev_move(a, list_page(&a->ev.list)); }
static enum action k_home(struct app *a) { return ev_move(a, -(long)a->ev.index.n - 1); }
static enum action k_end(struct app *a) { return ev_move(a, (long)a->ev.index.n + 1); }

static enum action k_pause(struct app *a)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);

	a->ev.paused = !a->ev.paused;
	if (a->ev.paused && fp)
		a->ev.pause_end = fp->events.pushed;
	a->ev.follow = !a->ev.paused;
	return ACT_REDRAW;
}

/* A filter changed: the list is made again, its selection kept on its event if it passes. */
static enum action filter_set(struct app *a, int kind, const char *syscall)
{
	struct evfilter *f = &a->ev.filter;

	if (f->kind == kind && !strcmp(f->syscall, syscall))
		return ACT_REDRAW;
	f->kind = kind;
	snprintf(f->syscall, sizeof(f->syscall), "%s", syscall);
	evlist_refilter(a);
	return ACT_REDRAW;
}

static enum action kind_done(struct app *a, const char *text)
{
	int k;

	if (!text)
		return ACT_REDRAW;
	if (!text[0])
		return filter_set(a, -1, a->ev.filter.syscall);
	k = kev_kind_by_name(text);
	if (k < 0) {
		app_message(a, "no event kind '%.30s' (syscall switch fault signal deliver fork exec exit)",
			    text);
		return ACT_REDRAW;
	}
	return filter_set(a, k, k == KEV_SYSCALL ? a->ev.filter.syscall : "");
}

static enum action k_kind(struct app *a)
{
	const struct evfilter *f = &a->ev.filter;

	prompt_open(a, "Kind (syscall switch fault signal deliver fork exec exit; empty = all): ",
		    f->kind >= 0 ? kev_kind_name(f->kind) : "", kind_done, NULL);
	return ACT_REDRAW;
}

static enum action syscall_done(struct app *a, const char *text)
{
	if (!text)
		return ACT_REDRAW;
	return filter_set(a, text[0] ? KEV_SYSCALL : a->ev.filter.kind, text);
}

static enum action k_syscall(struct app *a)
{
	prompt_open(a, "Syscall name (empty = all): ", a->ev.filter.syscall, syscall_done, NULL);
	return ACT_REDRAW;
}

static enum action k_clear(struct app *a)
{
	return filter_set(a, -1, "");
}

static enum action k_snapshot(struct app *a)
{
	/* (An empty list keeps the selection's event, for a filter that shows it again.) */
	if (!a->ev.index.n || a->ev.sel == UINT64_MAX)
		return ACT_NONE;
	/* The snapshot is of one event: the list stops moving under it. */
	a->ev.follow = false;
	app_push(a, &snapshot_view);
	return ACT_REDRAW;
}

/* The wheel moves the selection; a click selects the event; a double click opens its snapshot. */
static enum action evlist_mouse(struct app *a, int y, int x, enum mouse_kind kind)
{
	size_t i;

	(void)x;
	if (kind == MOUSE_WHEEL_UP)
		return ev_move(a, -3);
	if (kind == MOUSE_WHEEL_DOWN)
		return ev_move(a, 3);
	if (y < a->ev.y_top || y - a->ev.y_top >= a->ev.list.rows || !list_at(&a->ev.list, a->ev.index.n, y - a->ev.y_top, &i) ||
	    ev_move(a, (long)i - (long)a->ev.list.sel) == ACT_NONE)
		return ACT_NONE;
	return kind == MOUSE_DOUBLE ? k_snapshot(a) : ACT_REDRAW;
}

static const struct key_binding evlist_keys[] = {
	{ { KEY_UP, 'k' }, "Up k", "select the event above (stops following)", k_up },
	{ { KEY_DOWN, 'j' }, "Down j", "select the event below", k_down },
	{ { KEY_PPAGE }, "PgUp", "one page up", k_pgup },
	{ { KEY_NPAGE }, "PgDn", "one page down", k_pgdn },
	{ { KEY_HOME, 'g' }, "Home g", "the oldest event kept", k_home },
	{ { KEY_END, 'G' }, "End G", "the newest; follow new events", k_end },
	{ { ' ' }, "Space", "pause/resume the list (events are still recorded)", k_pause },
	{ { '\n', '\r', KEY_ENTER }, "Enter", "the snapshot at the selected event", k_snapshot },
	{ { 'f', 'K' }, "f", "filter by kind (syscall, switch, fault, signal, ...)", k_kind },
	{ { '/', 's' }, "/ s", "filter by syscall name", k_syscall },
	{ { 'c' }, "c", "clear the filters", k_clear },
	{ { 27, 'q', KEY_LEFT }, "Esc q", "back to the process view", key_back },
	{ { '?', KEY_F(1), 'h' }, "? F1 h", "this help", key_help },
	{ { KEY_F(10), 'Q' }, "F10 Q", "quit ktop", key_quit },
};

const struct view evlist_view = {
	.name = "event list",
	.whole_lines = true,
	.draw = evlist_draw,
	.mouse = evlist_mouse,
	.fullscreen = true,
	.hint = "F1 Help  Enter snapshot  Space pause  f kind  / syscall  c clear  End follow  Esc back",
	.keys = evlist_keys,
	.nkeys = ARRAY_SIZE(evlist_keys),
};
