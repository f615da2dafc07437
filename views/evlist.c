// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event list: a focused process's recent kernel events from its ring,
 * newest at the bottom, filtered by kind and syscall name, pausable. Enter
 * opens the snapshot of the selected event.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "theme.h"
#include "view.h"
#include "../tables/kevtext.h"
#include "../model/watched.h"
#include "../lib/scnames.h"
#include "../lib/util.h"

bool evlist_match(const struct app *a, const struct kev *e)
{
	char nb[SYSCALL_LABEL_BUF];

	if (a->ev.kind >= 0 && e->kind != a->ev.kind)
		return false;
	if (a->ev.syscall[0] &&
	    (e->kind != KEV_SYSCALL ||
	     strcmp(syscall_label((unsigned)e->u.sc.nr, nb, sizeof(nb)), a->ev.syscall)))
		return false;
	return true;
}

/* The end of what the list shows: everything, or what there was at the pause. */
static uint64_t list_end(const struct app *a, const struct fproc *fp)
{
	return a->ev.paused && a->ev.pause_end < fp->events.pushed ? a->ev.pause_end :
								     fp->events.pushed;
}

/* The matching event before (@dir < 0) or after @seq; false when none. */
bool evlist_step(const struct app *a, const struct fproc *fp, uint64_t seq, int dir,
		 uint64_t *out)
{
	uint64_t end = list_end(a, fp);

	if (dir < 0) {
		while (seq > fp->events.first) {
			seq--;
			if (seq < end && evlist_match(a, evring_at(&fp->events, seq))) {
				*out = seq;
				return true;
			}
		}
		return false;
	}
	for (seq++; seq < end; seq++) {
		if (evlist_match(a, evring_at(&fp->events, seq))) {
			*out = seq;
			return true;
		}
	}
	return false;
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
	snprintf(buf, n, "%s%s%s%s", a->ev.kind >= 0 ? "kind=" : "",
		 a->ev.kind >= 0 ? kev_kind_name(a->ev.kind) : "", a->ev.syscall[0] ? " syscall=" : "",
		 a->ev.syscall);
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
	uint64_t seqs[512], seq, end;
	int rows = h - 3, n = 0, r, i;
	char line[512], t[32], ev[320], clean[320], filt[96];

	if (!fp) {
		put_line(y0, 0, w, "no process is focused");
		blank_lines(y0 + 1, y0 + h, w);
		return;
	}
	if (rows > (int)ARRAY_SIZE(seqs))
		rows = (int)ARRAY_SIZE(seqs);
	a->ev.rows = rows;
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

	end = list_end(a, fp);
	/* Where the selection is: the newest when following, else kept (if still there). */
	if (a->ev.follow || a->ev.sel < fp->events.first || a->ev.sel >= end ||
	    !evlist_match(a, evring_at(&fp->events, a->ev.sel))) {
		/* (A selection that left the ring moves to the newest too.) */
		if (!evlist_step(a, fp, end, -1, &a->ev.sel))
			a->ev.sel = UINT64_MAX;
	}
	/* The rows: the selection with newer ones under it, filling from the bottom. */
	if (a->ev.sel != UINT64_MAX) {
		uint64_t after[512];
		int na = 0, nb = 0;

		seq = a->ev.sel;
		/* Up to half a page after the selection, the rest before it. */
		while (na < rows / 2 && evlist_step(a, fp, seq, 1, &seq))
			after[na++] = seq;
		seqs[0] = a->ev.sel;
		nb = 1;
		seq = a->ev.sel;
		while (nb + na < rows && evlist_step(a, fp, seq, -1, &seq))
			seqs[nb++] = seq;
		/* seqs holds the selection and older ones, newest first: reverse. */
		for (i = 0; i < nb / 2; i++) {
			uint64_t tmp = seqs[i];

			seqs[i] = seqs[nb - 1 - i];
			seqs[nb - 1 - i] = tmp;
		}
		for (i = 0; i < na && nb + i < rows; i++)
			seqs[nb + i] = after[i];
		n = nb + (na < rows - nb ? na : rows - nb);
	}
	if (!n) {
		attrset(theme_attr(EL_RATE_ZERO));
		put_line(y0 + 3, 0, w, evring_count(&fp->events) ? " no event matches the filter" :
			 " no events yet");
		blank_lines(y0 + 4, y0 + h, w);
		return;
	}
	/* Whole lines: the rows above a short list are blank. */
	blank_lines(y0 + 3, y0 + 3 + rows - n, w);
	/* Newest at the bottom: a short list sits at the bottom of the space. */
	for (r = 0; r < n; r++) {
		const struct kev *e = evring_at(&fp->events, seqs[r]);
		int y = y0 + 3 + rows - n + r;

		evlist_time(a->model, e->ts, t, sizeof(t));
		kev_render(e, ev, sizeof(ev));
		snprintf(line, sizeof(line), "%-15s %4u %7d  %s", t, e->cpu, (int)e->tid,
			 view_clean(a, clean, sizeof(clean), ev));
		attrset(theme_attr(seqs[r] == a->ev.sel ? EL_SELECTED : evlist_elem(e)));
		put_line(y, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
	}
	blank_lines(y0 + 3 + rows, y0 + h, w);
}

static enum action ev_move(struct app *a, int steps)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);
	uint64_t s = a->ev.sel;
	int i;

	if (!fp || s == UINT64_MAX)
		return ACT_NONE;
	for (i = 0; i < (steps < 0 ? -steps : steps); i++)
		if (!evlist_step(a, fp, s, steps < 0 ? -1 : 1, &s))
			break;
	a->ev.sel = s;
	/* Down to the newest follows the list again. */
	a->ev.follow = steps > 0 && !evlist_step(a, fp, s, 1, &s) && !a->ev.paused;
	return ACT_REDRAW;
}

static enum action k_up(struct app *a) { return ev_move(a, -1); }
static enum action k_down(struct app *a) { return ev_move(a, 1); }
static enum action k_pgup(struct app *a) { return ev_move(a, -(a->ev.rows > 1 ? a->ev.rows - 1 : 1)); }
static enum action k_pgdn(struct app *a) { return ev_move(a, a->ev.rows > 1 ? a->ev.rows - 1 : 1); }
static enum action k_home(struct app *a) { return ev_move(a, -(1 << 30)); }

static enum action k_end(struct app *a)
{
	a->ev.follow = !a->ev.paused;
	return ev_move(a, 1 << 30);
}

static enum action k_pause(struct app *a)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);

	a->ev.paused = !a->ev.paused;
	if (a->ev.paused && fp)
		a->ev.pause_end = fp->events.pushed;
	a->ev.follow = !a->ev.paused;
	return ACT_REDRAW;
}

static enum action kind_done(struct app *a, const char *text)
{
	int k;

	if (!text)
		return ACT_REDRAW;
	if (!text[0]) {
		a->ev.kind = -1;
		return ACT_REDRAW;
	}
	k = kev_kind_by_name(text);
	if (k < 0) {
		app_message(a, "no event kind '%.30s' (syscall switch fault signal deliver fork exec exit)",
			    text);
		return ACT_REDRAW;
	}
	a->ev.kind = k;
	if (k != KEV_SYSCALL)
		a->ev.syscall[0] = '\0';
	return ACT_REDRAW;
}

static enum action k_kind(struct app *a)
{
	prompt_open(a, "Kind (syscall switch fault signal deliver fork exec exit; empty = all): ",
		    a->ev.kind >= 0 ? kev_kind_name(a->ev.kind) : "", kind_done, NULL);
	return ACT_REDRAW;
}

static enum action syscall_done(struct app *a, const char *text)
{
	if (!text)
		return ACT_REDRAW;
	snprintf(a->ev.syscall, sizeof(a->ev.syscall), "%s", text);
	if (text[0])
		a->ev.kind = KEV_SYSCALL;
	return ACT_REDRAW;
}

static enum action k_syscall(struct app *a)
{
	prompt_open(a, "Syscall name (empty = all): ", a->ev.syscall, syscall_done, NULL);
	return ACT_REDRAW;
}

static enum action k_clear(struct app *a)
{
	a->ev.kind = -1;
	a->ev.syscall[0] = '\0';
	return ACT_REDRAW;
}

static enum action k_snapshot(struct app *a)
{
	if (a->ev.sel == UINT64_MAX)
		return ACT_NONE;
	/* The snapshot is of one event: the list stops moving under it. */
	a->ev.follow = false;
	app_push(a, &snapshot_view);
	return ACT_REDRAW;
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
	.fullscreen = true,
	.hint = "F1 Help  Enter snapshot  Space pause  f kind  / syscall  c clear  End follow  Esc back",
	.keys = evlist_keys,
	.nkeys = ARRAY_SIZE(evlist_keys),
};
