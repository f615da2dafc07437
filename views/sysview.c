// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system-wide views: Syscalls, Errors, Subsystems, Signals, Groups, Latency, Disks, and
 * what Enter opens from a row of one (a subsystem's syscalls, the processes
 * behind a row). Each is a table of tables/systable.h's: the same look and
 * keys as the process table, its rows refreshed each tick
 * (sysview_refresh_all) and when its order or filter changes. The view keys
 * (1-9, v, F3) switch the view picked, at the bottom of the stack.
 */
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"
#include "../tables/columns.h"
#include "../model/sigflow.h"
#include "../lib/scnames.h"
#include "../model/systotals.h"
#include "../lib/util.h"

static const enum view_kind sv_kind[SV_NR] = {
	[SV_SYSCALLS] = VIEW_SYSCALLS, [SV_ERRORS] = VIEW_ERRORS,
	[SV_SUBSYSTEMS] = VIEW_SUBSYSTEMS, [SV_SIGNALS] = VIEW_SIGNALS,
	[SV_GROUPS] = VIEW_GROUPS, [SV_LATENCY] = VIEW_LATENCY, [SV_CONNECTIONS] = VIEW_CONNECTIONS,
	[SV_DISKS] = VIEW_DISKS,
	[SV_SUB_SYSCALLS] = VIEW_SYSCALLS,
	[SV_CALLERS] = VIEW_CALLERS,
};

/* The key of each view (key_view_1 ...): the tabs say it. */
static const char view_keys[VIEW_NAMED] = {
	[VIEW_PROCESSES] = '1', [VIEW_SYSCALLS] = '2', [VIEW_ERRORS] = '3', [VIEW_SUBSYSTEMS] = '4',
	[VIEW_SIGNALS] = '5', [VIEW_GROUPS] = '6', [VIEW_LATENCY] = '7',
	[VIEW_CONNECTIONS] = '8', [VIEW_DISKS] = '9',
};

/* The tabs' names when every full one does not fit (as the key bar's). */
static const char *const view_short[VIEW_NAMED] = {
	[VIEW_PROCESSES] = "Procs", [VIEW_SYSCALLS] = "Sysc", [VIEW_ERRORS] = "Errors",
	[VIEW_SUBSYSTEMS] = "Subsys", [VIEW_SIGNALS] = "Signal", [VIEW_GROUPS] = "Groups",
	[VIEW_LATENCY] = "Latncy", [VIEW_CONNECTIONS] = "Conns", [VIEW_DISKS] = "Disks",
};

/* The screen of system view @id; -1 when @v is not one. */
static int sv_of(const struct view *v)
{
	int i;

	for (i = 0; i < SV_NR; i++)
		if (v == &sys_views[i])
			return i;
	return -1;
}

static struct sv_state *top_state(struct app *a, int *id)
{
	int i = sv_of(a->stack[a->depth - 1]);

	if (id)
		*id = i;
	return i >= 0 ? &a->sv[i] : NULL;
}

void sysview_init(struct app *a, enum view_kind view, enum cgroup_group_by by)
{
	int i;

	for (i = 0; i < SV_NR; i++)
		systable_init(&a->sv[i].av, sv_kind[i]);
	groups_init(&a->groups, by);
	a->view = view;
}

void sysview_free(struct app *a)
{
	int i;

	for (i = 0; i < SV_NR; i++)
		systable_free(&a->sv[i].av);
	groups_free(&a->groups);
}

static void sv_refresh(struct app *a, int id)
{
	struct sv_state *s = &a->sv[id];

	systable_refresh(&s->av, a->model, &a->groups);
	if (s->list.sel >= s->av.n)
		s->list.sel = s->av.n ? s->av.n - 1 : 0;
}

void sysview_refresh_all(struct app *a)
{
	int i;

	/* Every tick, shown or not: its totals since first seen are counted so. */
	groups_update(&a->groups, a->model);
	for (i = 0; i < a->depth; i++)
		if (sv_of(a->stack[i]) >= 0)
			sv_refresh(a, sv_of(a->stack[i]));
}

/* ---- the view switcher ---------------------------------------------------- */

static const struct view *base_of(enum view_kind k)
{
	switch (k) {
	case VIEW_SYSCALLS: return &sys_views[SV_SYSCALLS];
	case VIEW_ERRORS: return &sys_views[SV_ERRORS];
	case VIEW_SUBSYSTEMS: return &sys_views[SV_SUBSYSTEMS];
	case VIEW_SIGNALS: return &sys_views[SV_SIGNALS];
	case VIEW_GROUPS: return &sys_views[SV_GROUPS];
	case VIEW_LATENCY: return &sys_views[SV_LATENCY];
	case VIEW_CONNECTIONS: return &sys_views[SV_CONNECTIONS];
	case VIEW_DISKS: return &sys_views[SV_DISKS];
	default: return &table_view;
	}
}

/* What was on top of the picked view closes; a process view's focus with it. */
enum action sysview_switch(struct app *a, enum view_kind k)
{
	bool had_process = false;
	int i, id;

	for (i = 1; i < a->depth; i++)
		had_process |= a->stack[i] == &procview_view;
	a->view = k;
	a->stack[0] = base_of(k);
	a->depth = 1;
	id = sv_of(a->stack[0]);
	if (id >= 0)
		sv_refresh(a, id);
	return had_process ? ACT_UNFOCUS : k == VIEW_PROCESSES ? ACT_RESORT : ACT_REDRAW;
}

enum action key_view_next(struct app *a)
{
	return sysview_switch(a, (enum view_kind)((a->view + 1) % VIEW_NAMED));
}

static enum action view_pick(struct app *a, size_t i)
{
	return sysview_switch(a, (enum view_kind)i);
}

enum action key_view_menu(struct app *a)
{
	static const char *const what[VIEW_NAMED] = {
		[VIEW_PROCESSES] = "one row per process (the table)",
		[VIEW_SYSCALLS] = "the whole system's system calls",
		[VIEW_ERRORS] = "failed calls per (syscall, errno)",
		[VIEW_SUBSYSTEMS] = "kernel subsystems",
		[VIEW_SIGNALS] = "who signals whom",
		[VIEW_GROUPS] = "processes summed per command, user, cgroup, unit, container",
		[VIEW_LATENCY] = "the system calls' durations: time, percentiles (--latency)",
		[VIEW_CONNECTIONS] = "the sockets of the interval: addresses, state, bytes, retransmits",
		[VIEW_DISKS] = "block devices: I/O, bytes, latency, queue, submitters",
	};
	int i;

	struct sysviews_state *vs = &a->svs;

	for (i = 0; i < VIEW_NAMED; i++) {
		snprintf(vs->view_text[i], sizeof(vs->view_text[i]), "%c %-11s %s", view_keys[i],
			 systable_title((enum view_kind)i), what[i]);
		vs->view_items[i] = vs->view_text[i];
	}
	menu_open(a, "Views (Enter: show, Esc: cancel)", vs->view_items, VIEW_NAMED, (size_t)a->view,
		  view_pick);
	return ACT_REDRAW;
}

enum action key_view_1(struct app *a) { return sysview_switch(a, VIEW_PROCESSES); }
enum action key_view_2(struct app *a) { return sysview_switch(a, VIEW_SYSCALLS); }
enum action key_view_3(struct app *a) { return sysview_switch(a, VIEW_ERRORS); }
enum action key_view_4(struct app *a) { return sysview_switch(a, VIEW_SUBSYSTEMS); }
enum action key_view_5(struct app *a) { return sysview_switch(a, VIEW_SIGNALS); }
enum action key_view_6(struct app *a) { return sysview_switch(a, VIEW_GROUPS); }
enum action key_view_7(struct app *a) { return sysview_switch(a, VIEW_LATENCY); }
enum action key_view_8(struct app *a) { return sysview_switch(a, VIEW_CONNECTIONS); }
enum action key_view_9(struct app *a) { return sysview_switch(a, VIEW_DISKS); }

/* ---- drawing ------------------------------------------------------------------ */

/* The tabs of the views a user picks, the one shown marked; then what it is. */
static void draw_title(struct app *a, int id, int y, int w)
{
	const struct sv_state *s = &a->sv[id];
	const struct model *m = a->model;
	char line[512], name[SYSCALL_LABEL_BUF], err[ERRNO_NAME_BUF], key[CGROUP_KEY_MAX];
	struct av_row_id rid;
	bool short_tabs;
	int x = 0, i;

	attrset(theme_attr(EL_NORMAL));
	mvhline(y, 0, ' ', w);
	if (id == SV_SUB_SYSCALLS || id == SV_CALLERS) {
		const struct av_drill *d = &s->av.drill;

		if (id == SV_SUB_SYSCALLS)
			snprintf(line, sizeof(line), "Syscalls of %s", subsystem_name((enum subsystem)s->av.sub));
		else if (d->from == VIEW_SYSCALLS)
			snprintf(line, sizeof(line), "Processes making %s",
				 syscall_label(d->nr, name, sizeof(name)));
		else if (d->from == VIEW_LATENCY)
			snprintf(line, sizeof(line), "Processes timed in %s",
				 syscall_label(d->nr, name, sizeof(name)));
		else if (d->from == VIEW_ERRORS)
			snprintf(line, sizeof(line), "Processes whose %s failed with %s",
				 syscall_label(d->nr, name, sizeof(name)),
				 errno_name((int)d->err, err, sizeof(err)));
		else
			snprintf(line, sizeof(line), "Processes of %s %s", cgroup_group_by_name(d->by),
				 view_clean(a, key, sizeof(key), d->key));
		attrset(theme_attr(EL_LABEL));
		put_text(y, 0, w, line);
		x = (int)strlen(line) + 2;
		attrset(theme_attr(EL_RATE_ZERO));
		put_text(y, x, w - x, id == SV_SUB_SYSCALLS ? "(Enter: its processes, Esc: back)" :
			 "(Enter: process view, Esc: back)");
		attrset(theme_attr(EL_NORMAL));
		return;
	}
	if (id == SV_GROUPS)
		snprintf(line, sizeof(line), " by %s (b: another key)", cgroup_group_by_name(a->groups.by));
	else if (id == SV_SIGNALS)
		snprintf(line, sizeof(line), a->sv[id].av.by_comm ? " per command (b: per process)" :
			 " per process (b: per command)");
	else if (id == SV_ERRORS && systable_row_id(&s->av, s->list.sel, &rid) && errno_hint((int)rid.err))
		/* A kernel-internal errno no manual names: what it means, for the selected row. */
		snprintf(line, sizeof(line), " %s: %s", errno_name((int)rid.err, err, sizeof(err)),
			 errno_hint((int)rid.err));
	else if (m->focus)
		snprintf(line, sizeof(line), " the watched processes");
	else if (m->events_uid >= 0)
		snprintf(line, sizeof(line), " your processes only (not root)");
	else
		line[0] = '\0';
	/* Too narrow for every title beside it: the views not shown by their short names. */
	for (i = 0; i < VIEW_NAMED; i++)
		x += (int)strlen(systable_title((enum view_kind)i)) + 5;
	short_tabs = x + (int)strlen(line) > w;
	x = 0;
	for (i = 0; i < VIEW_NAMED && x < w; i++) {
		char tab[32];
		bool shown = i == (int)sv_kind[id];

		snprintf(tab, sizeof(tab), " %c %s ", view_keys[i], short_tabs && !shown ?
			 view_short[i] : systable_title((enum view_kind)i));
		attrset(theme_attr(shown ? EL_TAB_CURRENT : EL_TAB));
		put_text(y, x, w - x, tab);
		x += (int)strlen(tab) + 1;
	}
	attrset(theme_attr(EL_RATE_ZERO));
	if (x < w)
		put_text(y, x, w - x, line);
	attrset(theme_attr(EL_NORMAL));
}

/*
 * The columns that fit in @w (the engine: the first ones, a graph taking what
 * is left; a group's name as wide as the rows of @l's window need).
 */
static size_t fit(const struct systable *v, const struct list *l, size_t n, int w, int *width)
{
	struct table t;
	int cols[32], out[32];
	size_t i;

	for (i = 0; i < n && i < ARRAY_SIZE(cols); i++)
		cols[i] = (int)i;
	systable_table(&t, v, cols, i);
	return table_fit_rows(&t, cols, i, w, l->top, (size_t)l->rows, out, width);
}

static void draw_graph(const struct app *a, const struct systotals *g, enum subsystem sub, int y,
		       int x, int w)
{
	const struct glyphs *gl = glyphs_get(a);
	double v, max = 0;
	int i, n = w < (int)g->hist_n ? w : (int)g->hist_n;

	for (i = 0; i < n; i++)
		if (systotals_hist(g, sub, (size_t)i, &v) && v > max)
			max = v;
	for (i = 0; i < n; i++) {
		int lvl;

		if (!systotals_hist(g, sub, (size_t)i, &v) || v <= 0)
			continue;
		lvl = max > 0 ? (int)(v / max * 7.999) : 0;
		lvl = lvl < 0 ? 0 : lvl > 7 ? 7 : lvl;
		attrset(theme_attr(lvl >= 6 ? EL_GRAPH_HIGH : EL_GRAPH));
		mvaddstr(y, x + w - 1 - i, gl->spark[lvl]);
	}
}

/* A group throttled, OOM-killed or under memory pressure in the interval (model/cgres.h). */
static bool group_alerting(const struct systable *v, size_t row)
{
	char buf[32];
	int col = systable_col_by_key(VIEW_GROUPS, "alerts");

	return v->kind == VIEW_GROUPS && col >= 0 &&
	       systable_text(v, row, col, buf, sizeof(buf), 0)[0] != '\0';
}

static enum elem cell_style(const struct systable *v, size_t row, int col, const struct av_col *c)
{
	double d;

	/* Its name and its alerts loud, where they cannot be missed. */
	if (v->kind == VIEW_GROUPS && (col == 0 || !strcmp(c->key, "alerts")) &&
	    group_alerting(v, row))
		return EL_LOST;
	if (c->type != AV_COUNT)
		return c->type == AV_STR && col > 0 && !strcmp(c->key, "errno") ? EL_ERROR : EL_NORMAL;
	if (!systable_num(v, row, col, &d) || !systable_rate(v, d, &d) || d <= 0)
		return EL_RATE_ZERO;
	if (!strcmp(c->key, "errors") || !strcmp(c->key, "syscall_errors"))
		return EL_ERROR;
	return d < 100 ? EL_RATE_LOW : d < 1000 ? EL_RATE_MID : EL_RATE_HIGH;
}

static void draw_rows(struct app *a, int id, int y0, int h, int w)
{
	struct sv_state *s = &a->sv[id];
	const struct systable *v = &s->av;
	size_t n, k, r, i;
	const struct av_col *c = systable_columns(v->kind, &n);
	int width[32], x;
	char cell[CGROUP_KEY_MAX * 4], padded[CGROUP_KEY_MAX * 4 + 16];

	list_fit(&s->list, v->n, h - 1);
	k = fit(v, &s->list, n, w, width);
	/* The titles, the sort column marked. */
	attrset(theme_attr(EL_TABLE_HEADER));
	mvhline(y0, 0, ' ', w);
	a->hdr_y = y0;
	a->hdr_n = 0;
	for (i = 0, x = 0; i < k; i++) {
		const char *title = c[i].title;

		if (id == SV_GROUPS && i == 0)
			title = cgroup_group_by_name(a->groups.by);
		snprintf(padded, sizeof(padded), c[i].left ? "%-*s" : "%*s", width[i], title);
		if (id == SV_GROUPS && i == 0)
			for (char *p = padded; *p; p++)
				*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
		a->hdr_x[a->hdr_n] = x;
		a->hdr_col[a->hdr_n++] = (int)i;
		attrset(theme_attr((int)i == v->sort ? EL_SORT_COL : EL_TABLE_HEADER));
		put_text(y0, x, w - x, padded);
		x += width[i] + 1;
		a->hdr_x[a->hdr_n] = x;
	}
	attrset(theme_attr(EL_NORMAL));
	a->rows_y = y0 + 1;
	for (r = 0; (int)r < h - 1; r++) {
		size_t row = s->list.top + r;
		bool sel = row == s->list.sel;
		int y = y0 + 1 + (int)r;

		attrset(theme_attr(sel ? EL_SELECTED : EL_NORMAL));
		mvhline(y, 0, ' ', w);
		if (row >= v->n)
			continue;
		for (i = 0, x = 0; i < k; i++) {
			const char *t;

			if (c[i].type == AV_GRAPH) {
				struct av_row_id rid;

				if (systable_row_id(v, row, &rid) && rid.sub >= 0)
					draw_graph(a, &a->model->agg, (enum subsystem)rid.sub, y, x, width[i]);
				continue;
			}
			t = systable_cell(v, row, (int)i, cell, sizeof(cell), a->utf8);
			if (c[i].left)
				text_pad(padded, sizeof(padded), t, (size_t)width[i]);
			else	/* by cells: a percentile's "≤" is 3 bytes, 1 cell */
				snprintf(padded, sizeof(padded), "%*s", width[i] + (int)(strlen(t) -
					 text_width(t, strlen(t))), t);
			if (!sel)
				attrset(theme_attr(cell_style(v, row, (int)i, &c[i])));
			put_text(y, x, w - x, padded);
			x += width[i] + 1;
		}
	}
	attrset(theme_attr(EL_NORMAL));
}

/* Why a view is empty: tracing, the baseline, the filter. */
static void draw_empty(struct app *a, int id, int y, int w)
{
	const struct model *m = a->model;
	const struct sv_state *s = &a->sv[id];
	char line[256];

	if (s->av.n)
		return;
	if (systable_traced(sv_kind[id]) && !a->tracing)
		snprintf(line, sizeof(line), "The %s view counts kernel events: %s", systable_title(sv_kind[id]),
			 m->trace_status[0] ? m->trace_status : "tracing is off");
	else if (id == SV_LATENCY && !model_counts_events(m, CNT_SCTIME))
		snprintf(line, sizeof(line), "system calls are not timed: start ktop with --latency "
			 "(sys_enter too: twice the events a call)");
	else if (id == SV_DISKS && !m->disks.known && m->disks.why[0])
		snprintf(line, sizeof(line), "The block devices are %s", m->disks.why);
	else if (id == SV_CONNECTIONS && m->conns_why[0])
		snprintf(line, sizeof(line), "The sockets are %s", m->conns_why);
	else if (s->av.filter[0])
		snprintf(line, sizeof(line), "no row matches the filter");
	else if (m->interval_s <= 0)
		snprintf(line, sizeof(line), "counting: the first numbers come at the next refresh");
	else
		snprintf(line, sizeof(line), "nothing seen since ktop started");
	attrset(theme_attr(EL_RATE_ZERO));
	put_text(y, 1, w - 1, line);
	attrset(theme_attr(EL_NORMAL));
}

static void sys_draw(struct app *a, int y0, int h, int w)
{
	int id = sv_of(a->stack[a->depth - 1]);
	int i;

	/* Drawn under an overlay (a prompt): the view below it. */
	for (i = a->depth - 1; id < 0 && i >= 0; i--)
		id = sv_of(a->stack[i]);
	if (id < 0 || h < 3)
		return;
	draw_title(a, id, y0, w);
	draw_rows(a, id, y0 + 1, h - 1, w);
	draw_empty(a, id, y0 + 2, w);
}

/* ---- keys ------------------------------------------------------------------------ */

static enum action sel_move(struct app *a, long d)
{
	struct sv_state *s = top_state(a, NULL);

	return s && list_move(&s->list, s->av.n, d) ? ACT_REDRAW : ACT_NONE;
}

static long page(const struct app *a)
{
	return list_page(&a->sv[sv_of(a->stack[a->depth - 1])].list);
}

static enum action k_up(struct app *a) { return sel_move(a, -1); }
static enum action k_down(struct app *a) { return sel_move(a, 1); }
static enum action k_pgup(struct app *a) { return sel_move(a, -page(a)); }
static enum action k_pgdn(struct app *a) { return sel_move(a, page(a)); }
static enum action k_home(struct app *a) { return sel_move(a, -(1l << 30)); }
static enum action k_end(struct app *a) { return sel_move(a, 1l << 30); }

/* The order changed: the rows again, the selection on the first one. */
static enum action reordered(struct app *a)
{
	int id;
	struct sv_state *s = top_state(a, &id);

	sv_refresh(a, id);
	s->list.sel = s->list.top = 0;
	return ACT_REDRAW;
}

static enum action sort_by(struct app *a, int col)
{
	struct sv_state *s = top_state(a, NULL);
	size_t n;
	const struct av_col *c = systable_columns(s->av.kind, &n);

	if (col < 0 || (size_t)col >= n || c[col].type == AV_GRAPH)
		return ACT_NONE;
	if (s->av.sort == col) {
		s->av.dir = s->av.dir == SORT_DESC ? SORT_ASC : SORT_DESC;
	} else {
		s->av.sort = col;
		s->av.dir = c[col].sort_default;
	}
	return reordered(a);
}

static enum action sort_step(struct app *a, int step)
{
	struct sv_state *s = top_state(a, NULL);
	size_t n;
	const struct av_col *c = systable_columns(s->av.kind, &n);
	int col = s->av.sort;

	do
		col = (col + (int)n + step) % (int)n;
	while (c[col].type == AV_GRAPH);
	s->av.sort = col;
	s->av.dir = c[col].sort_default;
	return reordered(a);
}

static enum action k_left(struct app *a) { return sort_step(a, -1); }
static enum action k_right(struct app *a) { return sort_step(a, 1); }

static enum action k_invert(struct app *a)
{
	struct sv_state *s = top_state(a, NULL);

	s->av.dir = s->av.dir == SORT_DESC ? SORT_ASC : SORT_DESC;
	return reordered(a);
}

static enum action sort_pick(struct app *a, size_t i)
{
	return sort_by(a, (int)i);
}

static enum action k_sort_menu(struct app *a)
{
	struct sv_state *s = top_state(a, NULL);
	size_t n, i;
	const struct av_col *c = systable_columns(s->av.kind, &n);

	for (i = 0; i < n; i++)
		sort_menu_item(a, i, (int)i == s->av.sort, c[i].title, c[i].key, NULL);
	sort_menu_open(a, n, (size_t)s->av.sort, sort_pick);
	return ACT_REDRAW;
}

static void filter_change(struct app *a, const char *text)
{
	struct sv_state *s = &a->sv[a->svs.filter_id];

	snprintf(s->av.filter, sizeof(s->av.filter), "%s", text);
	sv_refresh(a, a->svs.filter_id);
}

static enum action filter_done(struct app *a, const char *text)
{
	struct sv_state *s = &a->sv[a->svs.filter_id];

	snprintf(s->av.filter, sizeof(s->av.filter), "%s", text ? text : a->svs.saved_filter);
	sv_refresh(a, a->svs.filter_id);
	s->list.sel = s->list.top = 0;
	return ACT_REDRAW;
}

static enum action k_filter(struct app *a)
{
	struct sv_state *s = top_state(a, &a->svs.filter_id);

	_Static_assert(sizeof(a->svs.saved_filter) == sizeof(s->av.filter), "the filter's size");
	memcpy(a->svs.saved_filter, s->av.filter, sizeof(a->svs.saved_filter));
	prompt_open(a, "Filter: ", s->av.filter, filter_done, filter_change);
	return ACT_REDRAW;
}

/* Back to the view this one was opened from; from a view picked, the process table. */
static enum action k_back(struct app *a)
{
	if (a->depth > 1) {
		app_pop(a);
		return ACT_REDRAW;
	}
	return sysview_switch(a, VIEW_PROCESSES);
}

/* Esc: the filter first, as in the process table; then back. */
static enum action k_esc(struct app *a)
{
	int id;
	struct sv_state *s = top_state(a, &id);

	if (s->av.filter[0]) {
		s->av.filter[0] = '\0';
		return reordered(a);
	}
	return k_back(a);
}

static enum action open_callers(struct app *a, const struct av_drill *d)
{
	struct sv_state *s = &a->sv[SV_CALLERS];

	s->av.drill = *d;
	s->av.filter[0] = '\0';
	s->list.sel = s->list.top = 0;
	app_push(a, &sys_views[SV_CALLERS]);
	sv_refresh(a, SV_CALLERS);
	return ACT_REDRAW;
}

static enum action open_process(struct app *a, pid_t pid)
{
	if (pid <= 0) {
		app_message(a, "no process to show: the signals came from the kernel");
		return ACT_REDRAW;
	}
	a->view_pid = pid;
	a->pv_list.sel = 0;
	app_push(a, &procview_view);
	return ACT_FOCUS;
}

enum action view_drill(struct app *a, const struct drill *d)
{
	struct sv_state *s = &a->sv[SV_SUB_SYSCALLS];

	switch (d->kind) {
	case DRILL_PROCESS:
		return open_process(a, d->pid);
	case DRILL_CALLERS:
		return open_callers(a, &d->callers);
	case DRILL_SUBSYSTEM:
		s->av.sub = d->sub;
		s->list.sel = s->list.top = 0;
		app_push(a, &sys_views[SV_SUB_SYSCALLS]);
		sv_refresh(a, SV_SUB_SYSCALLS);
		return ACT_REDRAW;
	default:
		if (!d->why)
			return ACT_NONE;
		app_message(a, "%s", d->why);
		return ACT_REDRAW;
	}
}

static enum action k_enter(struct app *a)
{
	struct sv_state *s = top_state(a, NULL);
	struct table t;
	struct drill d;

	systable_table(&t, &s->av, NULL, 0);
	table_drill(&t, s->list.sel, &d);
	return view_drill(a, &d);
}

static enum action by_pick(struct app *a, size_t i)
{
	groups_set_by(&a->groups, (enum cgroup_group_by)i);
	a->groups.tick = 0;
	groups_update(&a->groups, a->model);
	app_message(a, "groups by %s: totals count from now on", cgroup_group_by_name(a->groups.by));
	/* By a cgroup: every process's cgroup is read from the next tick on. */
	sv_refresh(a, SV_GROUPS);
	a->sv[SV_GROUPS].list.sel = a->sv[SV_GROUPS].list.top = 0;
	return ACT_COLLECT;
}

static enum action k_group_by(struct app *a)
{
	int id, i;

	top_state(a, &id);
	if (id == SV_SIGNALS) {
		/* A shell loop's 30 children are one row per command, not 30. */
		a->sv[id].av.by_comm = !a->sv[id].av.by_comm;
		a->sv[id].list.sel = a->sv[id].list.top = 0;
		sv_refresh(a, id);
		app_message(a, a->sv[id].av.by_comm ?
			    "one row per (sender, receiver) command; '-': several processes (b: per process)" :
			    "one row per (sender, receiver) process (b: per command)");
		return ACT_REDRAW;
	}
	if (id != SV_GROUPS)
		return ACT_NONE;
	for (i = 0; i < CGROUP_BY__COUNT; i++)
		a->svs.by_items[i] = cgroup_group_by_name((enum cgroup_group_by)i);
	menu_open(a, "Group by (Enter: group, Esc: cancel)", a->svs.by_items, CGROUP_BY__COUNT,
		  (size_t)a->groups.by, by_pick);
	return ACT_REDRAW;
}


static const struct key_binding sys_keys[] = {
	{ { '\n', '\r', KEY_ENTER }, "Enter", "what is behind the row: its processes, a subsystem's syscalls, the receiver's (a socket's owner's) process view", k_enter },
	{ { KEY_UP, 'k' }, "Up k", "select the row above", k_up },
	{ { KEY_DOWN, 'j' }, "Down j", "select the row below", k_down },
	{ { KEY_PPAGE, 2 /* ^B */ }, "PgUp ^B", "one page up", k_pgup },
	{ { KEY_NPAGE, 6 /* ^F */ }, "PgDn ^F", "one page down", k_pgdn },
	{ { KEY_HOME, 'g' }, "Home g", "first row", k_home },
	{ { KEY_END, 'G' }, "End G", "last row", k_end },
	{ { KEY_LEFT }, "Left", "back to the view this one was opened from (the process table)", k_back },
	{ { 27 /* Esc */ }, "Esc", "clear the filter; without one, back as Left", k_esc },
	{ { '<', ',' }, "< ,", "sort by the column to the left", k_left },
	{ { '>', '.' }, "> .", "sort by the column to the right", k_right },
	{ { 'I', 'R' }, "I R", "invert the sort order", k_invert },
	{ { KEY_F(6), 's' }, "F6 s", "sort menu: pick any column", k_sort_menu },
	{ { '/', 'o', KEY_F(4) }, "/ o F4", "filter: the rows whose text holds it (Esc cancels)", k_filter },
	{ { 'b' }, "b", "groups: group by command, user, cgroup, unit or container (menu); signals: per process or per command", k_group_by },
	{ { 'v', '\t' }, "v Tab", "the next view: Processes, Syscalls, Errors, Subsystems, Signals, Groups, Latency, Connections, Disks", key_view_next },
	{ { KEY_F(3), 'V' }, "F3 V", "views menu", key_view_menu },
	{ { '1' }, "1", "the Processes view (the process table)", key_view_1 },
	{ { '2' }, "2", "the Syscalls view", key_view_2 },
	{ { '3' }, "3", "the Errors view: failed calls per (syscall, errno)", key_view_3 },
	{ { '4' }, "4", "the Subsystems view", key_view_4 },
	{ { '5' }, "5", "the Signals view: who signals whom", key_view_5 },
	{ { '6' }, "6", "the Groups view: processes summed per group", key_view_6 },
	{ { '7' }, "7", "the Latency view: the system calls' durations (--latency)", key_view_7 },
	{ { '8' }, "8", "the Connections view: the sockets of the interval", key_view_8 },
	{ { '9' }, "9", "the Disks view: block devices' I/O, latency, queue, submitters", key_view_9 },
	{ { 'Z' }, "Z", "pause/resume refreshing, as htop's Z (a replay: pause/play)", key_pause },
	{ { ' ' }, "Space", "a replay: pause/play; live, says that ktop has no tags (htop's Space)", key_space },
	{ { '[' }, "[", "a replay (-r): the interval before", key_replay_back },
	{ { ']' }, "]", "a replay: the interval after", key_replay_fwd },
	{ { 'J' }, "J", "a replay: jump to a time", key_replay_jump },
	{ { 'W' }, "W", "flight recorder: save the last kernel events as a trace.dat (--flight)", key_flight },
	{ { '?', KEY_F(1), 'h' }, "? F1 h", "this help", key_help },
	{ { 'q', KEY_F(10) }, "q F10", "quit", key_quit },
};

/* Click a title: sort by it; a row: select it; double click: Enter. */
static enum action sys_mouse(struct app *a, int y, int x, enum mouse_kind kind)
{
	struct sv_state *s = top_state(a, NULL);
	size_t i;

	if (!s)
		return ACT_NONE;
	if (kind == MOUSE_WHEEL_UP)
		return sel_move(a, -3);
	if (kind == MOUSE_WHEEL_DOWN)
		return sel_move(a, 3);
	if (y == a->hdr_y) {
		for (i = 0; i < a->hdr_n; i++)
			if (x >= a->hdr_x[i] && x < a->hdr_x[i + 1])
				return sort_by(a, a->hdr_col[i]);
		return ACT_NONE;
	}
	if (!list_at(&s->list, s->av.n, y - a->rows_y, &i))
		return ACT_NONE;
	s->list.sel = i;
	return kind == MOUSE_DOUBLE ? k_enter(a) : ACT_REDRAW;
}

#define SYS_VIEW(nm) { .name = nm, .draw = sys_draw, .mouse = sys_mouse, .keys = sys_keys, \
		       .nkeys = ARRAY_SIZE(sys_keys), .whole_lines = true }

const struct view sys_views[SV_NR] = {
	[SV_SYSCALLS] = SYS_VIEW("syscalls"),
	[SV_ERRORS] = SYS_VIEW("errors"),
	[SV_SUBSYSTEMS] = SYS_VIEW("subsystems"),
	[SV_SIGNALS] = SYS_VIEW("signals"),
	[SV_GROUPS] = SYS_VIEW("groups"),
	[SV_LATENCY] = SYS_VIEW("latency"),
	[SV_CONNECTIONS] = SYS_VIEW("connections"),
	[SV_DISKS] = SYS_VIEW("disks"),
	[SV_SUB_SYSCALLS] = SYS_VIEW("subsystem's syscalls"),
	[SV_CALLERS] = SYS_VIEW("processes behind a row"),
};

bool sysview_status(const struct app *a, char *buf, size_t n)
{
	int id = sv_of(a->stack[a->depth - 1]);
	const struct sv_state *s;
	size_t nc;
	const struct av_col *c;

	if (id < 0)
		return false;
	s = &a->sv[id];
	c = systable_columns(s->av.kind, &nc);
	snprintf(buf, n, "%s%s%ssort:%s%s", s->av.filter[0] ? "filter:" : "", s->av.filter,
		 s->av.filter[0] ? " " : "", c[s->av.sort].key, s->av.dir == SORT_DESC ? "-" : "+");
	return true;
}
