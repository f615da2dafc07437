// SPDX-License-Identifier: GPL-2.0-only
/*
 * The snapshot at one event (the Ktrace thesis's "system state at an event"):
 * the event's fields, then the process and system variables, each with where
 * its value came from and when it was true; the ones that changed since the
 * process's previous event are highlighted ("only what changed").
 */
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"
#include "../tables/kevtext.h"
#include "../model/fproc.h"
#include "../lib/util.h"

/* Where a value came from and when: "event (exact)" or "stat +12.3 ms" (read after it). */
static void when_text(const struct var_snap *s, int v, uint64_t ev_ts, char *buf, size_t n)
{
	const char *src = vars_source_name(vars_source(v));
	const char *slash = strrchr(src, '/');
	char d[24];

	if (vars_source(v) == VS_EVENT) {
		snprintf(buf, n, "event (exact)");
		return;
	}
	if (!(s->have & (1u << v))) {
		snprintf(buf, n, "%s: not read", slash ? slash + 1 : src);
		return;
	}
	if (s->at_ns[v] >= ev_ts)
		snprintf(buf, n, "%s +%s", slash ? slash + 1 : src,
			 kevtext_duration(s->at_ns[v] - ev_ts, d, sizeof(d)));
	else
		snprintf(buf, n, "%s -%s", slash ? slash + 1 : src,
			 kevtext_duration(ev_ts - s->at_ns[v], d, sizeof(d)));
}

/* One variable in a cell of width @w at (@y, @x); changed ones stand out. */
static void draw_var(const struct var_snap *s, int v, bool changed, uint64_t ev_ts, int y, int x,
		     int w)
{
	char line[160], val[64], when[64];

	if (s->have & (1u << v))
		vars_format(v, s->v[v], val, sizeof(val));
	else
		snprintf(val, sizeof(val), "-");
	when_text(s, v, ev_ts, when, sizeof(when));
	snprintf(line, sizeof(line), "%c %-11s %-19s %s", changed ? '*' : ' ', vars_name(v), val, when);
	attrset(theme_attr(changed ? EL_CHANGED : EL_NORMAL));
	put_line(y, x, w, line);
	attrset(theme_attr(EL_NORMAL));
}

#define SNAP_TWO_COLUMNS 100

static void snapshot_draw(struct app *a, int y0, int h, int w)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);
	const struct fsnap *sn = &a->snap;
	const struct kev *e;
	char line[512], t[32], ev[320], val[160], clean[320];
	const char *name;
	bool two = w >= SNAP_TWO_COLUMNS;
	int y = y0, end = y0 + h, i, v, cw = two ? w / 2 : w, rows[2] = { 0, 0 };

	e = fp ? evring_at(&fp->events, a->ev.sel) : NULL;
	if (!e || !fproc_snapshot(fp, a->ev.sel, &a->snap)) {
		put_line(y0, 0, w, "the event is no longer kept (the ring moved past it)");
		blank_lines(y0 + 1, end, w);
		return;
	}
	evlist_time(a->model, e->ts, t, sizeof(t));
	attrset(theme_attr(EL_TITLE));
	snprintf(line, sizeof(line), "Snapshot at event #%llu of %d %s - %s cpu %u tid %d",
		 (unsigned long long)a->ev.sel, (int)fp->pid, view_clean(a, clean, sizeof(clean), fp->comm),
		 t, e->cpu, (int)e->tid);
	put_line(y++, 0, w, line);
	attrset(theme_attr(evlist_elem(e)));
	kevtext_render(e, ev, sizeof(ev));
	snprintf(line, sizeof(line), "%s  [%s]", view_clean(a, clean, sizeof(clean), ev),
		 kev_kind_source(e->kind));
	put_line(y++, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	/* The event's fields, two to a line when there is room. */
	for (i = 0; y < end && kevtext_field(e, i, &name, val, sizeof(val)); i++) {
		snprintf(line, sizeof(line), "   %-11s %s", name, view_clean(a, clean, sizeof(clean), val));
		/* The right half's line: the left half is written first, whole. */
		put_line(y, two && (i & 1) ? cw : 0, two && !(i & 1) ? w : cw, line);
		if (!two || (i & 1))
			y++;
	}
	if (two && (i & 1))
		y++;
	if (y >= end)
		return;
	attrset(theme_attr(EL_RATE_ZERO));
	if (!sn->have_prev)
		put_line(y++, 0, w, "(the first event kept: nothing to compare with)");
	else if (!sn->have_sample)
		put_line(y++, 0, w, "(the /proc sample of this event is no longer kept)");
	else
		put_line(y++, 0, w, "* = changed since the process's previous event;  "
			 "+t = read from /proc that long after the event");
	attrset(theme_attr(EL_NORMAL));
	if (y >= end)
		return;
	attrset(theme_attr(EL_TABLE_HEADER));
	put_line(y, 0, w, "  PROCESS     VALUE               FROM, WHEN");
	if (two)
		put_line(y, cw, w - cw, "  SYSTEM      VALUE               FROM, WHEN");
	attrset(theme_attr(EL_NORMAL));
	y++;
	/* Whole lines: the columns' cells are blank first (their lengths differ). */
	blank_lines(y, end, w);
	/* Process variables on the left, system ones on the right (or after them). */
	for (v = 0; v < VAR_NR; v++) {
		int col = vars_is_system(v) ? 1 : 0, row;

		if (!two) {
			row = rows[0]++;
			if (y + row < end)
				draw_var(&sn->vars, v, sn->changed & (1u << v), e->ts, y + row, 0, w);
			continue;
		}
		row = rows[col]++;
		if (y + row < end)
			draw_var(&sn->vars, v, sn->changed & (1u << v), e->ts, y + row, col * cw, cw);
	}
}

static enum action step(struct app *a, int dir)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);
	uint64_t s;

	if (!fp || !evlist_step(a, fp, a->ev.sel, dir, &s))
		return ACT_NONE;
	a->ev.sel = s;
	return ACT_REDRAW;
}

static enum action k_prev(struct app *a) { return step(a, -1); }
static enum action k_next(struct app *a) { return step(a, 1); }

static const struct key_binding snapshot_keys[] = {
	{ { KEY_LEFT, 'p', 'h' }, "Left p", "the previous event (of the list's filter)", k_prev },
	{ { KEY_RIGHT, 'n', 'l' }, "Right n", "the next event", k_next },
	{ { 27, 'q', '\n', '\r' }, "Esc q", "back to the event list", key_back },
	{ { '?', KEY_F(1) }, "? F1", "this help", key_help },
	{ { KEY_F(10), 'Q' }, "F10 Q", "quit ktop", key_quit },
};

const struct view snapshot_view = {
	.name = "snapshot",
	.draw = snapshot_draw,
	.fullscreen = true,
	.whole_lines = true,
	.hint = "F1 Help  Left/Right previous/next event  Esc back to the list  F10 quit",
	.keys = snapshot_keys,
	.nkeys = ARRAY_SIZE(snapshot_keys),
};
