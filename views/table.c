// SPDX-License-Identifier: GPL-2.0-only
/* The process table: one row per process (or thread), the selection, sorting. */
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"
#include "../src/format.h"
#include "../src/util.h"

/* Where the selection is after rows were rebuilt: on the same pid if it is still there. */
static void follow_selection(struct app *a)
{
	const struct model *m = &a->model;
	size_t i;

	if (a->selected_pid) {
		for (i = 0; i < m->nrows; i++) {
			if (m->rows[i]->pid == a->selected_pid) {
				a->selected = i;
				return;
			}
		}
	}
	if (a->selected >= m->nrows)
		a->selected = m->nrows ? m->nrows - 1 : 0;
}

static void clamp_scroll(struct app *a, int h)
{
	size_t rows = a->model.nrows;

	follow_selection(a);
	if (h < 1)
		h = 1;
	if (a->selected < a->top)
		a->top = a->selected;
	if (a->selected >= a->top + (size_t)h)
		a->top = a->selected - (size_t)h + 1;
	if (a->top + (size_t)h > rows)
		a->top = rows > (size_t)h ? rows - (size_t)h : 0;
	a->selected_pid = a->selected < rows ? a->model.rows[a->selected]->pid : 0;
}

static enum elem cell_style(const struct model *m, const struct task *t, int c)
{
	double v;

	if (c == COL_STATE)
		return t->state == 'R' ? EL_STATE_RUN : t->state == 'D' ? EL_STATE_D : EL_NORMAL;
	if (columns[c].type != CT_COUNTER && c != COL_CPU)
		return EL_NORMAL;
	if (!col_num(m, t, c, &v) || v == 0)
		return EL_RATE_ZERO;
	if (c == COL_CPU)
		return v >= 90 ? EL_RATE_HIGH : EL_NORMAL;
	return m->interval_s > 0 && v / m->interval_s >= 1000 ? EL_RATE_HIGH : EL_NORMAL;
}

/* Dropped first when the terminal is narrow, so COMMAND keeps some room. */
/* Narrow terminals lose these first; what ktop is for (syscalls, switches) stays. */
static const int drop_order[] = {
	COL_MEM, COL_THREADS, COL_MAJFLT, COL_SIGRECV, COL_IVCSW, COL_MINFLT, COL_USER,
	COL_TOPSC, COL_SYSERR,
};
#define COMMAND_MIN_W 13

/* The columns that fit in @w: @out gets indexes into a->cols. */
static size_t fit_columns(const struct app *a, int w, int *out)
{
	bool dropped[COL_NR] = { false };
	size_t i, d = 0, n;
	int total;

	for (;;) {
		total = 0;
		for (i = 0; i + 1 < a->ncols; i++)
			if (!dropped[a->cols[i]])
				total += columns[a->cols[i]].width + 1;
		if (total + COMMAND_MIN_W <= w || d == ARRAY_SIZE(drop_order))
			break;
		dropped[drop_order[d++]] = true;
	}
	for (i = 0, n = 0; i < a->ncols; i++)
		if (!dropped[a->cols[i]])
			out[n++] = a->cols[i];
	return n;
}

static void draw_header_row(struct app *a, const int *cols, size_t ncols, int y, int w)
{
	int x = 0;
	size_t i;

	attrset(theme_attr(EL_TABLE_HEADER));
	mvhline(y, 0, ' ', w);
	for (i = 0; i < ncols && x < w; i++) {
		const struct column *c = &columns[cols[i]];
		bool last = i + 1 == ncols;
		char cell[64];
		int cw = last ? w - x : c->width;

		snprintf(cell, sizeof(cell), c->left ? "%-*s" : "%*s", c->width, c->title);
		if (cols[i] == a->model.sort_col)
			attrset(theme_attr(EL_SORT_COL));
		put_text(y, x, cw < w - x ? cw : w - x, cell);
		attrset(theme_attr(EL_TABLE_HEADER));
		x += c->width + 1;
	}
	attrset(theme_attr(EL_NORMAL));
}

static void draw_row(struct app *a, const int *cols, size_t ncols, const struct task *t,
		     int y, int w, bool selected)
{
	char cell[CMDLINE_TEXT_MAX];
	int x = 0;
	size_t i;

	if (selected) {
		attrset(theme_attr(EL_SELECTED));
		mvhline(y, 0, ' ', w);
	}
	for (i = 0; i < ncols && x < w; i++) {
		int c = cols[i];
		const struct column *col = &columns[c];
		bool last = i + 1 == ncols;
		char padded[CMDLINE_TEXT_MAX + 16];

		fmt_cell(&a->model, t, c, cell, sizeof(cell), a->utf8);
		if (last)
			snprintf(padded, sizeof(padded), "%s", cell);
		else if (col->left)
			snprintf(padded, sizeof(padded), "%-*.*s", col->width, col->width, cell);
		else
			snprintf(padded, sizeof(padded), "%*s", col->width, cell);
		if (!selected)
			attrset(theme_attr(cell_style(&a->model, t, c)));
		/* Only the last column (COMMAND) is cut; the others keep their width. */
		put_text(y, x, w - x, padded);
		x += col->width + 1;
	}
	attrset(theme_attr(EL_NORMAL));
}

static void table_draw(struct app *a, int y0, int h, int w)
{
	struct model *m = &a->model;
	int rows = h - 1, r, cols[COL_NR];
	size_t ncols;

	if (rows < 1)
		return;
	a->table_rows = rows;
	clamp_scroll(a, rows);
	ncols = fit_columns(a, w, cols);
	draw_header_row(a, cols, ncols, y0, w);
	for (r = 0; r < rows && a->top + (size_t)r < m->nrows; r++) {
		size_t idx = a->top + (size_t)r;

		draw_row(a, cols, ncols, m->rows[idx], y0 + 1 + r, w, idx == a->selected);
	}
	if (!m->nrows) {
		attrset(theme_attr(EL_RATE_ZERO));
		put_text(y0 + 1, 1, w - 1, m->filter[0] ? "no process matches the filter" :
			 m->focus ? "the watched processes have exited" : "no processes");
		attrset(theme_attr(EL_NORMAL));
	}
	/* Ask the collector for these rows' status (context switches) and command lines. */
	model_want_rows(m, a->top, (size_t)rows);
}

static enum action move_sel(struct app *a, long delta)
{
	size_t n = a->model.nrows;
	long s = (long)a->selected + delta;

	if (!n)
		return ACT_NONE;
	if (s < 0)
		s = 0;
	if (s >= (long)n)
		s = (long)n - 1;
	a->selected = (size_t)s;
	a->selected_pid = a->model.rows[a->selected]->pid;
	return ACT_REDRAW;
}

static enum action k_up(struct app *a) { return move_sel(a, -1); }
static enum action k_down(struct app *a) { return move_sel(a, 1); }
static enum action k_pgup(struct app *a) { return move_sel(a, -(long)(a->table_rows > 1 ? a->table_rows - 1 : 1)); }
static enum action k_pgdn(struct app *a) { return move_sel(a, a->table_rows > 1 ? a->table_rows - 1 : 1); }
static enum action k_home(struct app *a) { return move_sel(a, -(long)a->model.nrows); }
static enum action k_end(struct app *a) { return move_sel(a, (long)a->model.nrows); }

static enum action sort_by(struct app *a, int col)
{
	if (a->model.sort_col == col) {
		a->model.sort_dir = a->model.sort_dir == SORT_DESC ? SORT_ASC : SORT_DESC;
	} else {
		a->model.sort_col = col;
		a->model.sort_dir = columns[col].sort_default;
	}
	/* A column read only for visible rows must now be read for all. */
	return columns[col].needs & NEED_STATUS ? ACT_COLLECT : ACT_RESORT;
}

static enum action k_sort_cpu(struct app *a) { return sort_by(a, COL_CPU); }
static enum action k_sort_mem(struct app *a) { return sort_by(a, COL_RSS); }
static enum action k_sort_pid(struct app *a) { return sort_by(a, COL_PID); }
static enum action k_sort_time(struct app *a) { return sort_by(a, COL_TIME); }

static enum action k_invert(struct app *a)
{
	a->model.sort_dir = a->model.sort_dir == SORT_DESC ? SORT_ASC : SORT_DESC;
	return ACT_RESORT;
}

static enum action sort_step(struct app *a, int step)
{
	size_t i, n = a->ncols;

	for (i = 0; i < n && a->cols[i] != a->model.sort_col; i++)
		;
	i = i == n ? 0 : (i + n + (size_t)step) % n;
	a->model.sort_col = a->cols[i];
	a->model.sort_dir = columns[a->cols[i]].sort_default;
	return columns[a->cols[i]].needs & NEED_STATUS ? ACT_COLLECT : ACT_RESORT;
}

static enum action k_sort_left(struct app *a) { return sort_step(a, -1); }
static enum action k_sort_right(struct app *a) { return sort_step(a, 1); }

static enum action k_sort_menu(struct app *a)
{
	app_push(a, &sort_view);
	return ACT_REDRAW;
}

static char saved_filter[sizeof(((struct model *)0)->filter)];

static void filter_change(struct app *a, const char *text)
{
	snprintf(a->model.filter, sizeof(a->model.filter), "%s", text);
	model_refresh_rows(&a->model);
}

static enum action filter_done(struct app *a, const char *text)
{
	snprintf(a->model.filter, sizeof(a->model.filter), "%s", text ? text : saved_filter);
	return ACT_RESORT;
}

static enum action k_filter(struct app *a)
{
	memcpy(saved_filter, a->model.filter, sizeof(saved_filter));
	prompt_open(a, "Filter: ", a->model.filter, filter_done, filter_change);
	return ACT_REDRAW;
}

static enum action k_clear_filter(struct app *a)
{
	if (!a->model.filter[0])
		return ACT_NONE;
	a->model.filter[0] = '\0';
	return ACT_RESORT;
}

static enum action delay_done(struct app *a, const char *text)
{
	double d;

	if (!text || !*text)
		return ACT_REDRAW;
	if (parse_seconds(text, 0.1, 86400, &d)) {
		app_message(a, "delay '%.40s' is not a number of seconds from 0.1 to 86400", text);
		return ACT_REDRAW;
	}
	a->delay_s = d;
	app_message(a, "delay %.2f s", d);
	return ACT_DELAY;
}

static enum action k_delay(struct app *a)
{
	char cur[32];

	snprintf(cur, sizeof(cur), "%g", a->delay_s);
	prompt_open(a, "Delay in seconds: ", cur, delay_done, NULL);
	return ACT_REDRAW;
}

static enum action k_pause(struct app *a)
{
	a->paused = !a->paused;
	return a->paused ? ACT_REDRAW : ACT_COLLECT;
}

static enum action k_threads(struct app *a)
{
	a->model.threads = !a->model.threads;
	app_message(a, a->model.threads ? "one row per thread" : "one row per process");
	return ACT_THREADS;
}

static enum action k_cmdline(struct app *a)
{
	a->show_cmdline = !a->show_cmdline;
	a->cols[a->ncols - 1] = a->show_cmdline ? COL_CMDLINE : COL_COMM;
	if (a->model.sort_col == COL_CMDLINE || a->model.sort_col == COL_COMM)
		a->model.sort_col = a->cols[a->ncols - 1];
	return ACT_COLLECT;
}

/* The process view of the selected row's process; its events get focused. */
static enum action k_open(struct app *a)
{
	const struct task *t;

	if (a->selected >= a->model.nrows)
		return ACT_NONE;
	t = a->model.rows[a->selected];
	a->view_pid = t->tgid ? t->tgid : t->pid;
	a->pv_sel = 0;
	app_push(a, &procview_view);
	return ACT_FOCUS;
}

static enum action k_help(struct app *a)
{
	app_push(a, &help_view);
	return ACT_REDRAW;
}

static enum action k_quit(struct app *a)
{
	(void)a;
	return ACT_QUIT;
}

static enum action k_redraw(struct app *a)
{
	(void)a;
	clearok(curscr, TRUE);
	return ACT_REDRAW;
}

const struct key_binding table_keys[] = {
	{ { '\n', '\r', KEY_ENTER }, "Enter", "the process view: its syscalls, rates, signals, events", k_open },
	{ { KEY_UP, 'k' }, "Up k", "select the row above", k_up },
	{ { KEY_DOWN, 'j' }, "Down j", "select the row below", k_down },
	{ { KEY_PPAGE, 2 /* ^B */ }, "PgUp", "one page up", k_pgup },
	{ { KEY_NPAGE, 6 /* ^F */ }, "PgDn", "one page down", k_pgdn },
	{ { KEY_HOME, 'g' }, "Home g", "first row", k_home },
	{ { KEY_END, 'G' }, "End G", "last row", k_end },
	{ { 'P' }, "P", "sort by CPU%", k_sort_cpu },
	{ { 'M' }, "M", "sort by memory (RSS)", k_sort_mem },
	{ { 'N' }, "N", "sort by PID", k_sort_pid },
	{ { 'T' }, "T", "sort by CPU time", k_sort_time },
	{ { '<', ',' }, "<", "sort by the column to the left", k_sort_left },
	{ { '>', '.' }, ">", "sort by the column to the right", k_sort_right },
	{ { 'I', 'R' }, "I R", "invert the sort order", k_invert },
	{ { KEY_F(6), 's' }, "F6 s", "sort menu: pick any column", k_sort_menu },
	{ { '/', 'o', KEY_F(4) }, "/ o F4", "filter by name or command line (Esc cancels)", k_filter },
	{ { 27 /* Esc */, '\\' }, "Esc", "clear the filter", k_clear_filter },
	{ { 'H' }, "H", "threads on/off (a row per thread)", k_threads },
	{ { 'c' }, "c", "COMMAND: command line or name", k_cmdline },
	{ { ' ' }, "Space", "pause/resume refreshing", k_pause },
	{ { 'd' }, "d", "change the delay between refreshes", k_delay },
	{ { 12 /* ^L */ }, "^L", "redraw the screen", k_redraw },
	{ { '?', KEY_F(1), 'h' }, "? F1 h", "this help", k_help },
	{ { 'q', KEY_F(10) }, "q F10", "quit", k_quit },
};
const size_t table_nkeys = ARRAY_SIZE(table_keys);

enum action keys_dispatch(struct app *a, const struct key_binding *keys, size_t n, int ch)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < ARRAY_SIZE(keys[i].keys) && keys[i].keys[k]; k++)
			if (keys[i].keys[k] == ch)
				return keys[i].fn(a);
	return ACT_NONE;
}

static enum action table_key(struct app *a, int ch)
{
	return keys_dispatch(a, table_keys, table_nkeys, ch);
}

const struct view table_view = {
	.name = "table",
	.draw = table_draw,
	.key = table_key,
	.keys = table_keys,
	.nkeys = ARRAY_SIZE(table_keys),
};
