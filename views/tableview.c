// SPDX-License-Identifier: GPL-2.0-only
/* The process table: one row per process (or thread), the selection, sorting. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "theme.h"
#include "view.h"
#include "../tables/columns.h"
#include "../tables/proctable.h"
#include "../lib/util.h"

/*
 * Where the selection is after rows were rebuilt: on its process when sticky
 * (found by pid and start time) or when the user changed the order or the
 * rows (keep_pid, once), else on its line, as in htop. A process the selection sticks to no
 * longer among the rows (gone, filtered out) leaves it on the line.
 */
static void follow_selection(struct app *a)
{
	struct table_state *ts = &a->table;
	const struct rowset *rs = &a->rows;
	size_t i;

	bool keep = ts->keep_pid;

	ts->keep_pid = false;
	if (!ts->sticky && !keep)
		return;
	for (i = 0; i < rs->nrows; i++) {
		const struct task *t = rs->rows[i].task;

		if (t->pid == ts->selected_pid && t->starttime == ts->selected_start) {
			ts->list.sel = i;
			return;
		}
	}
	if (!ts->sticky)
		return;
	if (a->follow)
		app_message(a, "the followed process %d is gone", (int)ts->selected_pid);
	a->follow = false;
	ts->sticky = false;
}

/* The selection's process is now row @i's: followed from here on when @stick. */
static void select_row(struct app *a, size_t i, bool stick)
{
	struct table_state *ts = &a->table;

	ts->list.sel = i;
	ts->sticky = stick && i < a->rows.nrows;
	if (i < a->rows.nrows) {
		ts->selected_pid = a->rows.rows[i].task->pid;
		ts->selected_start = a->rows.rows[i].task->starttime;
	}
}

static void clamp_scroll(struct app *a, int h)
{
	struct table_state *ts = &a->table;
	size_t rows = a->rows.nrows;

	follow_selection(a);
	list_fit(&ts->list, rows, h);
	if (!ts->sticky)
		select_row(a, ts->list.sel, false);
}

/* Rates by level; thresholds per second (CPU: percent of one CPU). */
static enum elem level(double v, double low, double mid)
{
	return v <= 0 ? EL_RATE_ZERO : v < low ? EL_RATE_LOW : v < mid ? EL_RATE_MID : EL_RATE_HIGH;
}

static enum elem cell_style(const struct model *m, const struct task *t, int c)
{
	double v;

	if (c == COL_STATE)
		return t->state == 'R' ? EL_STATE_RUN : t->state == 'D' ? EL_STATE_D : EL_NORMAL;
	if (c == COL_LOST || c == COL_LOST_EXITS || c == COL_THROTTLED)
		return columns_num(m, t, c, &v) && v > 0 ? EL_LOST : EL_RATE_ZERO;
	if (columns[c].type != CT_COUNTER && c != COL_CPU)
		return EL_NORMAL;
	if (!columns_num(m, t, c, &v) || v == 0 || (c != COL_CPU && m->interval_s <= 0))
		return EL_RATE_ZERO;
	if (c == COL_SYSERR)
		return EL_ERROR;
	if (c == COL_CPU)
		return level(v, 25, 75);
	return level(v / m->interval_s, 100, 1000);
}

/* The table as the engine sees it: the process table's definition over a->rows. */
static void as_table(struct app *a, struct table *t)
{
	proc_table(t, a->model, &a->rows, a->cols, a->ncols);
}

/* The columns that fit in @w, the long names as wide as the rows on screen need. */
static size_t fit_shown(struct app *a, int w, int *out, int *width)
{
	const struct list *l = &a->table.list;
	struct table t;

	as_table(a, &t);
	return table_fit_rows(&t, a->cols, a->ncols, w, l->top, (size_t)l->rows, out, width);
}

void table_view_free(struct app *a)
{
	free(a->table.environ);
	free(a->table.environ_items);
	a->table.environ = NULL;
	a->table.environ_items = NULL;
	a->table.environ_n = 0;
}

/* The columns that fit in @w (tables/proctable.c: which go first): @out gets them. */
size_t table_view_fit(struct app *a, int w, int *out)
{
	struct table t;
	int width[COL_NR];

	as_table(a, &t);
	return table_fit(&t, a->cols, a->ncols, w, out, width);
}

/*
 * The sort column is not on screen (no room, not ticked): the header still
 * says what the rows are sorted by, at its right end, with the arrow.
 */
static void draw_sort_elsewhere(const struct app *a, const int *cols, size_t ncols, int y, int w)
{
	const struct glyphs *g = glyphs_get(a);
	char text[64];
	int len;
	size_t i;

	for (i = 0; i < ncols; i++)
		if (cols[i] == a->rows.sort_col)
			return;
	snprintf(text, sizeof(text), " sorted by %s", columns[a->rows.sort_col].title);
	len = (int)strlen(text) + 1;
	if (len + 8 > w - a->hdr_x[a->hdr_n - 1])
		return;	/* COMMAND's title first; the bottom line says sort: anyway */
	attrset(theme_attr(EL_SORT_COL));
	put_text(y, w - len, len, text);
	mvaddstr(y, w - 1, a->rows.sort_dir == SORT_DESC ? g->sort_desc : g->sort_asc);
}

static void draw_header_row(struct app *a, const int *cols, const int *width, size_t ncols,
			    int y, int w)
{
	int x = 0;
	size_t i;

	attrset(theme_attr(EL_TABLE_HEADER));
	mvhline(y, 0, ' ', w);
	a->hdr_y = y;
	a->hdr_n = 0;
	for (i = 0; i < ncols && x < w; i++) {
		const struct column *c = &columns[cols[i]];
		bool last = i + 1 == ncols;
		char cell[64];
		int cwid = width[i], cw = last ? w - x : cwid;

		a->hdr_x[a->hdr_n] = x;
		a->hdr_col[a->hdr_n++] = cols[i];
		a->hdr_x[a->hdr_n] = last ? w : x + cwid + 1;

		snprintf(cell, sizeof(cell), c->left ? "%-*s" : "%*s", cwid, c->title);
		if (cols[i] == a->rows.sort_col) {
			const struct glyphs *g = glyphs_get(a);
			int tl = (int)strlen(c->title);
			/*
			 * The arrow as in htop, after the title: within the column when
			 * it has room (the title moves left by one), else in the space
			 * that follows it.
			 */
			int ax = x + (last || c->left ? tl : tl < cwid ? cwid - 1 : cwid);

			if (!c->left && !last && tl < cwid)
				snprintf(cell, sizeof(cell), "%*s ", cwid - 1, c->title);
			attrset(theme_attr(EL_SORT_COL));
			put_text(y, x, cw < w - x ? cw : w - x, cell);
			if (ax < w)
				mvaddstr(y, ax, a->rows.sort_dir == SORT_DESC ? g->sort_desc :
					 g->sort_asc);
		} else {
			put_text(y, x, cw < w - x ? cw : w - x, cell);
		}
		attrset(theme_attr(EL_TABLE_HEADER));
		x += cwid + 1;
	}
	draw_sort_elsewhere(a, cols, ncols, y, w);
	attrset(theme_attr(EL_NORMAL));
}

/*
 * The tree's lines before COMMAND take at most half of COMMAND's room: when the
 * deepest row shown would take more, every ancestor's line narrows to one cell
 * (the same for all rows, so a child stays right of its parent), and past that
 * the outermost levels go. A name at depth 8 then still reads at 80 columns
 * instead of shrinking to a letter.
 */
static void tree_layout(struct app *a, int w)
{
	struct table_state *ts = &a->table;
	const struct list *l = &ts->list;
	int budget = w / 2 > 3 ? w / 2 : 3, deepest = 0, r;

	ts->tree_step = 3;
	ts->tree_first = 1;
	for (r = 0; r < l->rows && l->top + (size_t)r < a->rows.nrows; r++)
		if (a->rows.rows[l->top + (size_t)r].depth > deepest)
			deepest = a->rows.rows[l->top + (size_t)r].depth;
	if (deepest * 3 <= budget)
		return;
	ts->tree_step = 1;
	if (deepest - 1 + 3 > budget)
		ts->tree_first = deepest + 3 - budget;
}

/* The tree's lines before COMMAND; returns the cells used. */
static int draw_tree(const struct app *a, const struct row *r, int y, int x, int w,
		     bool selected)
{
	const struct glyphs *g = glyphs_get(a);
	int used = 0, d;

	if (!a->rows.tree)
		return 0;
	if (!selected)
		attrset(theme_attr(EL_TREE));
	for (d = a->table.tree_first; d <= r->depth && used + 3 <= w; d++) {
		bool vert = d < 64 && (r->more >> d & 1);

		if (d < r->depth) {
			mvaddstr(y, x + used, a->table.tree_step == 3 ?
				 (vert ? g->tree_vert : g->tree_blank) : vert ? g->tree_vert1 : " ");
			used += a->table.tree_step;
			continue;
		}
		mvaddstr(y, x + used, r->last ? g->tree_last : g->tree_branch);
		used += 3;
	}
	if (r->folded && used + 2 <= w) {
		mvaddstr(y, x + used, g->folded);
		mvaddstr(y, x + used + 1, " ");
		used += 2;
	}
	return used;
}

static void draw_row(struct app *a, const int *cols, const int *width, size_t ncols,
		     const struct row *row, int y, int w, bool selected)
{
	const struct task *t = row->task;
	char cell[CMDLINE_TEXT_MAX];
	int x = 0;
	size_t i;

	attrset(theme_attr(selected ? EL_SELECTED : EL_NORMAL));
	/* One line, drawn whole: no erase of the screen is needed before it. */
	mvhline(y, 0, ' ', w);
	for (i = 0; i < ncols && x < w; i++) {
		int c = cols[i];
		const struct column *col = &columns[c];
		int cwid = width[i];
		bool last = i + 1 == ncols;
		char padded[CMDLINE_TEXT_MAX + 16];
		const char *text = fmt_cell(a->model, t, c, cell, sizeof(cell), a->utf8);

		if (last)
			snprintf(padded, sizeof(padded), "%s", text);
		else if (col->left)
			snprintf(padded, sizeof(padded), "%-*.*s", cwid, cwid, text);
		else	/* by cells: a percentile's "≤" is 3 bytes, 1 cell */
			snprintf(padded, sizeof(padded), "%*s", cwid + (int)(strlen(text) -
				 text_width(text, strlen(text))), text);
		if (last)
			x += draw_tree(a, row, y, x, w - x, selected);
		if (!selected)
			attrset(theme_attr(cell_style(a->model, t, c)));
		/* Only the last column (COMMAND) is cut; the others keep their width. */
		put_text(y, x, w - x, padded);
		/*
		 * The space after a cell in the cell's own look: a run of cells of one
		 * look (dim zeros) is then one run for the terminal, not one
		 * attribute change per cell, which over SSH is most of a refresh.
		 */
		if (!last && x + cwid < w)
			put_text(y, x + cwid, 1, " ");
		x += cwid + 1;
	}
	attrset(theme_attr(EL_NORMAL));
}

/*
 * Are there processes whose command line was not read yet? Right after a
 * restart of the collector (H) only the rows shown have one: a filter on a
 * command line matches them from the next refresh, which reads them all.
 */
static bool cmdlines_pending(const struct model *m)
{
	size_t i;

	for (i = 0; i < m->ntasks; i++)
		if (!m->tasks[i]->cmdline && m->tasks[i]->state != 'X')
			return true;
	return false;
}

static void table_draw(struct app *a, int y0, int h, int w)
{
	const struct rowset *rs = &a->rows;
	const struct list *l = &a->table.list;
	int rows = h - 1, r, cols[COL_NR], width[COL_NR];
	size_t ncols;

	if (rows < 1)
		return;
	clamp_scroll(a, rows);
	ncols = fit_shown(a, w, cols, width);
	draw_header_row(a, cols, width, ncols, y0, w);
	if (rs->tree)	/* COMMAND's room: what the header row left it */
		tree_layout(a, w - a->hdr_x[a->hdr_n - 1]);
	a->rows_y = y0 + 1;
	for (r = 0; r < rows && l->top + (size_t)r < rs->nrows; r++) {
		size_t idx = l->top + (size_t)r;

		draw_row(a, cols, width, ncols, &rs->rows[idx], y0 + 1 + r, w, idx == l->sel);
	}
	attrset(theme_attr(EL_NORMAL));
	for (; r < rows; r++)
		mvhline(y0 + 1 + r, 0, ' ', w);
	if (!rs->nrows) {
		attrset(theme_attr(EL_RATE_ZERO));
		put_text(y0 + 1, 1, w - 1, !rs->filter[0] ?
			 (a->model->focus ? "the watched processes have exited" : "no processes") :
			 cmdlines_pending(a->model) ?
			 "no name matches yet: command lines are read at the next refresh (Esc clears the filter)" :
			 "no process matches the filter (Esc clears it)");
		attrset(theme_attr(EL_NORMAL));
	}
	/* The collector reads these rows' status (context switches) and command lines. */
	a->table.shown_first = l->top;
	a->table.shown_n = (size_t)rows;
	a->table.shown = true;
}

/*
 * The user changed what the rows are (sort, filter, tree, H...): the
 * selection stays on its process through it, sticky or not.
 */
static enum action reorder(struct app *a, enum action act)
{
	a->table.keep_pid = true;
	return act;
}

/* The selection @delta rows on; the process it lands on is followed (@stick), as htop's F. */
static enum action move_sel(struct app *a, long delta, bool stick)
{
	struct table_state *ts = &a->table;

	follow_selection(a);	/* from where its process is now */
	if (!list_move(&ts->list, a->rows.nrows, delta))
		return ACT_NONE;
	select_row(a, ts->list.sel, stick);
	a->follow = false;	/* another process: F's is left */
	return ACT_REDRAW;
}

static enum action k_up(struct app *a) { return move_sel(a, -1, true); }
static enum action k_down(struct app *a) { return move_sel(a, 1, true); }
static enum action k_pgup(struct app *a) { return move_sel(a, -list_page(&a->table.list), true); }
static enum action k_pgdn(struct app *a) { return move_sel(a, list_page(&a->table.list), true); }
/* Home and End: the first and last lines, whatever process is there (htop's). */
static enum action k_home(struct app *a) { return move_sel(a, -(long)a->rows.nrows, false); }
static enum action k_end(struct app *a) { return move_sel(a, (long)a->rows.nrows, false); }

static enum action sort_by(struct app *a, int col)
{
	if (a->rows.sort_col == col) {
		a->rows.sort_dir = a->rows.sort_dir == SORT_DESC ? SORT_ASC : SORT_DESC;
	} else {
		a->rows.sort_col = col;
		a->rows.sort_dir = columns[col].sort_default;
	}
	/* A column read only for visible rows must now be read for all. */
	return reorder(a, columns[col].needs & NEED_STATUS ? ACT_COLLECT : ACT_RESORT);
}

static enum action k_sort_cpu(struct app *a) { return sort_by(a, COL_CPU); }
static enum action k_sort_mem(struct app *a) { return sort_by(a, COL_RSS); }
static enum action k_sort_pid(struct app *a) { return sort_by(a, COL_PID); }
static enum action k_sort_time(struct app *a) { return sort_by(a, COL_TIME); }

static enum action k_invert(struct app *a)
{
	a->rows.sort_dir = a->rows.sort_dir == SORT_DESC ? SORT_ASC : SORT_DESC;
	return reorder(a, ACT_RESORT);
}

/* < and >: the column left or right of the sort column among those on screen, as in htop. */
static enum action sort_step(struct app *a, int step)
{
	int cols[COL_NR];
	size_t i, n = table_view_fit(a, COLS, cols);

	if (!n)
		return ACT_NONE;
	for (i = 0; i < n && cols[i] != a->rows.sort_col; i++)
		;
	i = i == n ? 0 : (i + n + (size_t)step) % n;
	a->rows.sort_col = cols[i];
	a->rows.sort_dir = columns[cols[i]].sort_default;
	return reorder(a, columns[cols[i]].needs & NEED_STATUS ? ACT_COLLECT : ACT_RESORT);
}

static enum action k_sort_left(struct app *a) { return sort_step(a, -1); }
static enum action k_sort_right(struct app *a) { return sort_step(a, 1); }

static enum action sort_pick(struct app *a, size_t item)
{
	size_t col = item < SORT_MENU_MAX ? (size_t)a->sortmenu.col[item] : 0;

	if (a->rows.sort_col == (int)col)
		a->rows.sort_dir = a->rows.sort_dir == SORT_DESC ? SORT_ASC : SORT_DESC;
	else
		a->rows.sort_dir = columns[col].sort_default;
	a->rows.sort_col = (int)col;
	return reorder(a, ACT_COLLECT);
}

/*
 * The sort menu: the columns on screen first, in their order, then the
 * others, each said not shown (a sort by one still shows: draw_sort_elsewhere).
 */
static enum action k_sort_menu(struct app *a)
{
	int shown[COL_NR];
	bool in[COL_NR] = { false };
	size_t nshown = table_view_fit(a, COLS, shown), n = 0, i, cur = 0;
	char doc[200];
	int c;

	for (i = 0; i < nshown; i++)
		in[shown[i]] = true;
	for (i = 0; i < nshown + COL_NR && n < SORT_MENU_MAX; i++) {
		c = i < nshown ? shown[i] : (int)(i - nshown);
		if (i >= nshown && in[c])
			continue;
		snprintf(doc, sizeof(doc), "%s%s", i < nshown ? "" : "(not shown) ", columns[c].doc);
		if (c == a->rows.sort_col)
			cur = n;
		a->sortmenu.col[n] = c;
		sort_menu_item(a, n++, c == a->rows.sort_col, columns[c].title, columns[c].key, doc);
	}
	sort_menu_open(a, n, cur, sort_pick);
	return ACT_REDRAW;
}

static void filter_change(struct app *a, const char *text)
{
	snprintf(a->rows.filter, sizeof(a->rows.filter), "%s", text);
	rowset_refresh(&a->rows, a->model);
}

static enum action filter_done(struct app *a, const char *text)
{
	snprintf(a->rows.filter, sizeof(a->rows.filter), "%s", text ? text : a->table.saved_filter);
	/* Command lines not read yet: read them now, not at the next refresh. */
	if (a->rows.filter[0] && cmdlines_pending(a->model) && !a->paused && !a->replay)
		return reorder(a, ACT_COLLECT);
	return reorder(a, ACT_RESORT);
}

static enum action k_filter(struct app *a)
{
	_Static_assert(sizeof(a->table.saved_filter) == sizeof(a->rows.filter), "the filter's size");
	memcpy(a->table.saved_filter, a->rows.filter, sizeof(a->table.saved_filter));
	prompt_open(a, "Filter: ", a->rows.filter, filter_done, filter_change);
	return ACT_REDRAW;
}

/*
 * Search, as htop's F3: the selection jumps to the next row whose name or
 * command line holds the text, and no row is hidden (the filter hides).
 */
/* The first row matching @text from row @from on (wrapping); -1 when none. */
static long search_from(const struct app *a, const char *text, size_t from)
{
	size_t n = a->rows.nrows, i;

	for (i = 0; i < n; i++) {
		size_t r = (from + i) % n;

		if (task_text_matches(a->rows.rows[r].task, text))
			return (long)r;
	}
	return -1;
}

static void search_go(struct app *a, const char *text, size_t from)
{
	long r = text[0] ? search_from(a, text, from) : -1;

	/* Found: followed from now on, through re-sorts, as htop follows it. */
	if (r >= 0)
		select_row(a, (size_t)r, true);
	prompt_relabel(a, text[0] && r < 0 ? "Search (no match): " : "Search (F3: next): ");
}

static void search_change(struct app *a, const char *text)
{
	snprintf(a->search, sizeof(a->search), "%s", text);
	follow_selection(a);
	search_go(a, text, a->table.list.sel);
}

static enum action search_key(struct app *a, int ch, const char *text)
{
	if (ch != KEY_F(3))
		return ACT_NONE;
	follow_selection(a);
	search_go(a, text, a->table.list.sel + 1);
	return ACT_REDRAW;
}

/* Enter: the selection stays where the search took it. Esc too, the text cleared. */
static enum action search_done(struct app *a, const char *text)
{
	if (!text)
		a->search[0] = '\0';
	a->searching = false;
	return ACT_REDRAW;
}

static bool cmdlines_pending(const struct model *m);

/* F3, /: a new search, its text empty (htop's); F3 in its prompt: the next match. */
static enum action k_search(struct app *a)
{
	a->search[0] = '\0';
	prompt_open(a, "Search (F3: next): ", "", search_done, search_change);
	prompt_keys(a, search_key);
	a->searching = true;
	/*
	 * Only the rows shown have their command line: read them all, now. That
	 * refresh reorders the rows: the selection stays on its process (the one
	 * the search will take it to, or the one it is on), not on its line.
	 */
	follow_selection(a);
	select_row(a, a->table.list.sel, true);
	if (cmdlines_pending(a->model) && !a->paused && !a->replay)
		return ACT_COLLECT;
	return ACT_REDRAW;
}

/* x: the exited processes' rows after the live ones, hidden, or among them. */
static enum action k_exited(struct app *a)
{
	static const char *const say[] = {
		[EXITED_LAST] = "exited processes (X) after the live ones (x: hide them)",
		[EXITED_HIDE] = "exited processes (X) hidden (x: show them among the live ones)",
		[EXITED_MIXED] = "exited processes (X) among the live ones, as sorted (x: last)",
	};

	a->rows.exited = a->rows.exited == EXITED_LAST ? EXITED_HIDE :
			 a->rows.exited == EXITED_HIDE ? EXITED_MIXED : EXITED_LAST;
	app_message(a, "%s", say[a->rows.exited]);
	return reorder(a, ACT_RESORT);
}

static enum action k_clear_filter(struct app *a)
{
	if (!a->rows.filter[0])
		return ACT_NONE;
	a->rows.filter[0] = '\0';
	return reorder(a, ACT_RESORT);
}

static enum action delay_done(struct app *a, const char *text)
{
	double d;

	if (!text || !*text)
		return ACT_REDRAW;
	if (parse_seconds(text, DELAY_MIN_S, DELAY_MAX_S, &d)) {
		app_message(a, "delay '%.40s' is not a number of seconds from %g to %g", text,
			    DELAY_MIN_S, DELAY_MAX_S);
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

/* Z: pause or resume the refreshing, as htop's Z; a replay: pause or play. */
enum action key_pause(struct app *a)
{
	a->paused = !a->paused;
	return a->paused ? ACT_REDRAW : ACT_COLLECT;
}

/*
 * Space: htop tags the selected process with it; ktop has no tags. Rather
 * than something else under an htop user's finger (it paused), it says so;
 * a replay's Space is a player's: pause and play.
 */
enum action key_space(struct app *a)
{
	if (a->replay)
		return key_pause(a);
	app_message(a, "Space tags in htop; ktop has no tags: k signals the selected process, Z pauses");
	return ACT_REDRAW;
}

/* K: kernel threads hidden or shown, as htop's K. */
static enum action k_kthreads(struct app *a)
{
	a->rows.hide_kthreads = !a->rows.hide_kthreads;
	app_message(a, a->rows.hide_kthreads ? "kernel threads hidden (K: show them)" :
		    "kernel threads shown (K: hide them)");
	return reorder(a, ACT_RESORT);
}

/* A recording's keys: step, jump (src/live.c does them); not a replay, say how to get one. */
static bool replaying(struct app *a)
{
	/*
	 * Not htop's renice: a terminal's key sequence split under load
	 * (Esc [ 1 ~) would then renice whatever is selected. F7 and F8 do.
	 */
	if (!a->replay)
		app_message(a, "this key steps through a recording: ktop -r FILE (recorded with -w FILE); "
			    "nice: F7 F8");
	return a->replay;
}

enum action key_replay_back(struct app *a)
{
	return replaying(a) ? ACT_REPLAY_BACK : ACT_REDRAW;
}

enum action key_replay_fwd(struct app *a)
{
	return replaying(a) ? ACT_REPLAY_FWD : ACT_REDRAW;
}

static enum action jump_done(struct app *a, const char *text)
{
	if (!text || !*text)
		return ACT_REDRAW;
	snprintf(a->jump_to, sizeof(a->jump_to), "%s", text);
	return ACT_REPLAY_JUMP;
}

enum action key_replay_jump(struct app *a)
{
	if (replaying(a))
		prompt_open(a, "Jump to (HH:MM[:SS], date): ", "", jump_done, NULL);
	return ACT_REDRAW;
}

static enum action k_threads(struct app *a)
{
	/* What the toggle does (src/live.c toggles, or says why not: a recording, CMD's end). */
	app_message(a, a->model->threads ? "one row per process" : "one row per thread");
	return reorder(a, ACT_THREADS);
}

static enum action k_cmdline(struct app *a)
{
	a->show_cmdline = !a->show_cmdline;
	a->cols[a->ncols - 1] = a->show_cmdline ? COL_CMDLINE : COL_COMM;
	if (a->rows.sort_col == COL_CMDLINE || a->rows.sort_col == COL_COMM)
		a->rows.sort_col = a->cols[a->ncols - 1];
	return reorder(a, ACT_COLLECT);
}

/*
 * An exited process's row: the process view will have nothing of its own
 * (no /proc, no events to come), so it shows the row's last numbers as the
 * table did: its columns but COMMAND, as text lines, and its command apart.
 */
static void keep_last_row(struct app *a, const struct table *t, size_t row)
{
	struct pv_last_row *l = &a->pv_last;
	const struct task *task = a->rows.rows[row].task;
	struct table one = *t;
	char cmd[CMDLINE_TEXT_MAX];
	int cols[COL_NR];
	size_t n = table_view_fit(a, COLS, cols);

	l->pid = 0;
	if (task->state != 'X' || n < 2)
		return;
	one.cols = cols;	/* those on screen */
	one.ncols = n - 1;
	table_header_line(&one, l->header, sizeof(l->header));
	table_row_line(&one, row, l->row, sizeof(l->row));
	snprintf(l->command, sizeof(l->command), "%s",
		 columns_text(task, COL_CMDLINE, cmd, sizeof(cmd), a->utf8));
	columns_text(task, COL_COMM, l->comm, sizeof(l->comm), a->utf8);
	l->pid = task->tgid ? task->tgid : task->pid;
}

/* The process view of the selected row's process; its events get focused. */
static enum action k_open(struct app *a)
{
	struct table t;
	struct drill d;

	follow_selection(a);
	if (a->table.list.sel >= a->rows.nrows) {
		/* Say why nothing opens, rather than nothing. */
		app_message(a, a->rows.filter[0] ? "no process to open: the filter '%.60s' matches none (Esc clears it)" :
			    "no process to open%.0s", a->rows.filter);
		return ACT_REDRAW;
	}
	as_table(a, &t);
	table_drill(&t, a->table.list.sel, &d);
	keep_last_row(a, &t, a->table.list.sel);
	return view_drill(a, &d);
}

static const struct row *selected_row(struct app *a);

/*
 * s, htop's strace of the selected process: ktop's own, the process view's
 * event list (its system calls as they happen, with arguments and times).
 */
static enum action k_strace(struct app *a)
{
	enum action act = k_open(a);

	if (act == ACT_FOCUS)
		evlist_open(a, NULL);
	return act;
}

/* The selected row: its process's, wherever the rows put it since the last draw. */
static const struct row *selected_row(struct app *a)
{
	follow_selection(a);
	return a->table.list.sel < a->rows.nrows ? &a->rows.rows[a->table.list.sel] : NULL;
}

static const struct task *selected_task(struct app *a)
{
	const struct row *r = selected_row(a);

	return r ? r->task : NULL;
}

static enum action k_tree(struct app *a)
{
	a->rows.tree = !a->rows.tree;
	app_message(a, a->rows.tree ? "tree view (- folds, + unfolds)" : "flat view");
	return reorder(a, ACT_RESORT);
}

static enum action fold(struct app *a, bool on)
{
	const struct row *r = selected_row(a);

	if (!a->rows.tree || !r)
		return ACT_NONE;
	if (on && !r->kids)
		return ACT_NONE;
	return rowset_fold(&a->rows, r->task->pid, on) ? reorder(a, ACT_RESORT) : ACT_NONE;
}

static enum action k_fold(struct app *a) { return fold(a, true); }
static enum action k_unfold(struct app *a) { return fold(a, false); }

static enum action k_unfold_all(struct app *a)
{
	if (!a->rows.tree || !rowset_unfold_all(&a->rows))
		return ACT_NONE;
	return reorder(a, ACT_RESORT);
}

static enum action k_follow(struct app *a)
{
	const struct task *t = selected_task(a);

	if (!t)
		return ACT_NONE;
	a->follow = !a->follow;
	/* F off: the selection stays on its line, as in htop before a move. */
	select_row(a, a->table.list.sel, a->follow);
	if (a->follow)
		app_message(a, "following %d (%s): F again to stop", (int)t->pid, t->comm);
	else
		app_message(a, "not following: the selection stays on its line until it moves");
	return ACT_REDRAW;
}

/* The users of the processes in the table: the u menu ("All users" first). */
static int cmp_user(const void *pa, const void *pb)
{
	return strcmp(((const struct user_item *)pa)->name, ((const struct user_item *)pb)->name);
}

static enum action user_pick(struct app *a, size_t i)
{
	a->rows.filter_uid = a->table.users[i].uid;
	if (i)
		app_message(a, "only the processes of %s (u: another user)", a->table.users[i].name);
	return reorder(a, ACT_RESORT);
}

static enum action k_user(struct app *a)
{
	const struct model *m = a->model;
	struct table_state *ts = &a->table;
	size_t i, k, cursor = 0;

	snprintf(ts->users[0].name, sizeof(ts->users[0].name), "All users");
	ts->users[0].uid = -1;
	ts->nusers = 1;
	for (i = 0; i < m->ntasks && ts->nusers <= USERS_MAX; i++) {
		const struct task *t = m->tasks[i];

		if (t->uid < 0)
			continue;
		for (k = 1; k < ts->nusers && ts->users[k].uid != t->uid; k++)
			;
		if (k < ts->nusers)
			continue;
		if (t->user)
			sanitize_text(ts->users[ts->nusers].name, sizeof(ts->users[0].name), t->user,
				      strlen(t->user), a->utf8);
		else
			snprintf(ts->users[ts->nusers].name, sizeof(ts->users[0].name), "%lld", (long long)t->uid);
		ts->users[ts->nusers++].uid = t->uid;
	}
	sort_array(ts->users + 1, ts->nusers - 1, sizeof(ts->users[0]), cmp_user);
	for (i = 0; i < ts->nusers; i++) {
		ts->user_items[i] = ts->users[i].name;
		if (ts->users[i].uid == a->rows.filter_uid)
			cursor = i;
	}
	menu_open(a, "Show the processes of (Enter: show, Esc: cancel)", ts->user_items, ts->nusers,
		  cursor, user_pick);
	return ACT_REDRAW;
}

/* The signals of the kill menu, the usual first. */
static const struct {
	int sig;
	const char *item;
} signals[] = {
	{ SIGTERM, "15 SIGTERM  terminate (may be caught: the polite way)" },
	{ SIGKILL, " 9 SIGKILL  kill (cannot be caught)" },
	{ SIGHUP, " 1 SIGHUP   hang up (many daemons reload)" },
	{ SIGINT, " 2 SIGINT   interrupt (Ctrl-C)" },
	{ SIGQUIT, " 3 SIGQUIT  quit (core dump)" },
	{ SIGUSR1, "10 SIGUSR1  user signal 1" },
	{ SIGUSR2, "12 SIGUSR2  user signal 2" },
	{ SIGSTOP, "19 SIGSTOP  stop (cannot be caught)" },
	{ SIGCONT, "18 SIGCONT  continue a stopped process" },
	{ SIGTSTP, "20 SIGTSTP  stop from the terminal (Ctrl-Z)" },
	{ SIGALRM, "14 SIGALRM  alarm" },
	{ SIGWINCH, "28 SIGWINCH window size changed" },
};
_Static_assert(ARRAY_SIZE(signals) <= SIGNALS_MAX, "the menu's items");

static enum action signal_pick(struct app *a, size_t i)
{
	a->req.sig = signals[i].sig;
	return ACT_SIGNAL;
}

/*
 * May this user signal or renice @t? Not one that exited (its pid may be
 * another process's now, a reused pid's row beside it); root may, others
 * their own processes only.
 */
static bool may_act_on(struct app *a, const struct task *t, const char *what)
{
	uid_t me = geteuid();

	if (t->state == 'X') {
		app_message(a, "cannot %s %d: it exited", what, (int)t->pid);
		return false;
	}
	if (me == 0 || (t->uid >= 0 && (uid_t)t->uid == me))
		return true;
	app_message(a, "cannot %s %d: it belongs to %s, not to you", what, (int)t->pid,
		    t->user ? t->user : "another user");
	return false;
}

static void request(struct app *a, const struct task *t)
{
	a->req.pid = t->pid;
	a->req.starttime = t->starttime;
}

/* A recording's processes are not this machine's now: nothing to signal or renice. */
static bool live_process(struct app *a)
{
	if (a->replay)
		app_message(a, "a recording: no live process to signal or renice");
	return !a->replay;
}

static enum action k_kill(struct app *a)
{
	const struct task *t = selected_task(a);
	char title[160];
	size_t i;

	if (!live_process(a))
		return ACT_REDRAW;
	if (!t || !may_act_on(a, t, "signal"))
		return ACT_REDRAW;
	request(a, t);
	for (i = 0; i < ARRAY_SIZE(signals); i++)
		a->table.signal_items[i] = signals[i].item;
	snprintf(title, sizeof(title), "Send a signal to %d (%s)? Enter: send, Esc: cancel",
		 (int)t->pid, t->comm);
	menu_open(a, title, a->table.signal_items, ARRAY_SIZE(signals), 0, signal_pick);
	return ACT_REDRAW;
}

static enum action renice(struct app *a, int step)
{
	const struct task *t = selected_task(a);
	int nice;

	if (!live_process(a) || !t || !may_act_on(a, t, "renice"))
		return ACT_REDRAW;
	nice = (int)t->nice + step;
	if (nice < -20 || nice > 19) {
		app_message(a, "nice stays from -20 to 19");
		return ACT_REDRAW;
	}
	request(a, t);
	a->req.nice = nice;
	return ACT_RENICE;
}

static enum action k_nice_down(struct app *a) { return renice(a, -1); }
static enum action k_nice_up(struct app *a) { return renice(a, 1); }


/* e: the selected process's environment, as htop's e (src/live.c reads it). */
static enum action k_environ(struct app *a)
{
	const struct task *t = selected_task(a);

	if (!live_process(a) || !t)
		return ACT_REDRAW;
	request(a, t);
	return ACT_ENVIRON;
}

static enum action k_setup(struct app *a)
{
	app_push(a, &setup_view);
	return ACT_REDRAW;
}

enum action theme_step(struct app *a, int dir)
{
	size_t i;

	if (!a->color) {
		app_message(a, "NO_COLOR is set: the mono theme only");
		return ACT_REDRAW;
	}
	if (!a->nthemes)
		return ACT_NONE;
	for (i = 0; i < a->nthemes && strcmp(a->themes[i], a->theme); i++)
		;
	if (i == a->nthemes)
		i = 0;
	else
		i = (i + a->nthemes + (dir > 0 ? 1 : a->nthemes - 1)) % a->nthemes;
	snprintf(a->theme, sizeof(a->theme), "%s", a->themes[i]);
	return ACT_THEME;
}


/* htop's keys for what ktop does not do: said, rather than nothing. */
static enum action k_not_htop(struct app *a)
{
	app_message(a, "not in ktop: htop's l lsof, w wrap, a affinity, i I/O priority, U untag, "
		    "m merged command, p program path (? lists ktop's keys)");
	return ACT_REDRAW;
}

static enum action k_redraw(struct app *a)
{
	(void)a;
	clearok(curscr, TRUE);
	return ACT_REDRAW;
}

static const struct key_binding table_keys[] = {
	{ { '\n', '\r', KEY_ENTER }, "Enter", "the process view: its syscalls, rates, signals, events", k_open },
	{ { KEY_UP }, "Up", "select the row above: the selection then stays on its process as rows move", k_up },
	{ { KEY_DOWN }, "Down", "select the row below", k_down },
	{ { KEY_PPAGE, 2 /* ^B */ }, "PgUp ^B", "one page up", k_pgup },
	{ { KEY_NPAGE, 6 /* ^F */ }, "PgDn ^F", "one page down", k_pgdn },
	{ { KEY_HOME, 'g' }, "Home g", "first row: the selection stays on the first line as rows move", k_home },
	{ { KEY_END, 'G' }, "End G", "last row (its line, as Home)", k_end },
	{ { 'P' }, "P", "sort by CPU%", k_sort_cpu },
	{ { 'M' }, "M", "sort by memory (RSS)", k_sort_mem },
	{ { 'N' }, "N", "sort by PID", k_sort_pid },
	{ { 'T' }, "T", "sort by CPU time", k_sort_time },
	{ { '<', ',' }, "< ,", "sort by the column to the left", k_sort_left },
	{ { '>', '.' }, "> .", "sort by the column to the right", k_sort_right },
	{ { 'I', 'R' }, "I R", "invert the sort order", k_invert },
	{ { KEY_F(6) }, "F6", "sort menu: the columns on screen first, then the others", k_sort_menu },
	{ { KEY_F(3), '/' }, "F3 /", "search: select the next row whose name or command line holds the text, hiding none (F3 again: the next)", k_search },
	{ { '\\', 'o', KEY_F(4) }, "\\ o F4", "filter by name or command line: only the rows that hold the text show (Esc cancels)", k_filter },
	{ { 27 /* Esc */ }, "Esc", "clear the filter", k_clear_filter },
	{ { 'x' }, "x", "exited processes (X rows): after the live ones (default), hidden, or among them", k_exited },
	{ { 'u' }, "u", "show one user's processes (menu)", k_user },
	{ { 't', KEY_F(5) }, "t F5", "tree view on/off", k_tree },
	{ { '-' }, "-", "tree: fold (hide the children of the selected process)", k_fold },
	{ { '+', '=' }, "+ =", "tree: unfold the selected process", k_unfold },
	{ { '*' }, "*", "tree: unfold all", k_unfold_all },
	{ { 'K' }, "K", "kernel threads hidden or shown (settings: hide_kernel_threads)", k_kthreads },
	{ { 'F' }, "F", "follow the selected process (a move, a click or a search follows the one it lands on; F again: its line)", k_follow },
	{ { 'k', KEY_F(9) }, "k F9", "send a signal to the selected process (menu)", k_kill },
	{ { 's' }, "s", "its system calls as they happen (htop's strace): the process view's event list", k_strace },
	{ { 'e' }, "e", "its environment (a menu; root, or your own processes)", k_environ },
	{ { KEY_F(7) }, "F7", "nice - 1: more CPU for the selected process (root)", k_nice_down },
	{ { KEY_F(8) }, "F8", "nice + 1: less CPU for the selected process", k_nice_up },
	{ { 'H' }, "H", "threads on/off (a row per thread)", k_threads },
	{ { 'c' }, "c", "COMMAND: command line or name", k_cmdline },
	{ { 'Z' }, "Z", "pause/resume refreshing, as htop's Z (a replay: pause/play)", key_pause },
	{ { ' ' }, "Space", "a replay: pause/play; live, says that ktop has no tags (htop's Space)", key_space },
	{ { '[' }, "[", "a replay (-r): the interval before (htop's [ ] renice: F8 F7 here)", key_replay_back },
	{ { ']' }, "]", "a replay: the interval after", key_replay_fwd },
	{ { 'J' }, "J", "a replay: jump to a time, HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS]", key_replay_jump },
	{ { 'W' }, "W", "flight recorder: save the last kernel events as a trace.dat (--flight)", key_flight },
	{ { 'd' }, "d", "change the delay between refreshes", k_delay },
	{ { KEY_F(2), 'S', 'C' }, "F2 S C", "setup: delay, theme, sort, columns, tree, threads; save", k_setup },
	{ { 'v', '\t' }, "v Tab", "the next view: Processes, Syscalls, Errors, Subsystems, Signals, Groups, Latency, Connections, Disks", key_view_next },
	{ { 'V' }, "V", "views menu (F3 in the other views)", key_view_menu },
	{ { '1' }, "1", "the Processes view (this table)", key_view_1 },
	{ { '2' }, "2", "the Syscalls view", key_view_2 },
	{ { '3' }, "3", "the Errors view: failed calls per (syscall, errno)", key_view_3 },
	{ { '4' }, "4", "the Subsystems view", key_view_4 },
	{ { '5' }, "5", "the Signals view: who signals whom", key_view_5 },
	{ { '6' }, "6", "the Groups view: processes summed per group", key_view_6 },
	{ { '7' }, "7", "the Latency view: the system calls' durations (--latency)", key_view_7 },
	{ { '8' }, "8", "the Connections view: the sockets of the interval", key_view_8 },
	{ { '9' }, "9", "the Disks view: block devices' I/O, latency, queue, submitters", key_view_9 },
	{ { 'l', 'w', 'a', 'i' }, "l w a i", "htop's lsof, wrap, affinity, I/O priority: not in ktop (says so)", k_not_htop },
	{ { 'U', 'm', 'p' }, "U m p", "htop's untag, merged command, program path: not in ktop (says so)", k_not_htop },
	{ { 12 /* ^L */ }, "^L", "redraw the screen", k_redraw },
	{ { '?', KEY_F(1), 'h' }, "? F1 h", "this help", key_help },
	{ { 'q', KEY_F(10) }, "q F10", "quit", key_quit },
};

enum action key_help(struct app *a)
{
	app_push(a, &help_view);
	return ACT_REDRAW;
}

enum action key_back(struct app *a)
{
	app_pop(a);
	return ACT_REDRAW;
}

enum action key_quit(struct app *a)
{
	(void)a;
	return ACT_QUIT;
}

enum action keys_dispatch(struct app *a, const struct key_binding *keys, size_t n, int ch)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < ARRAY_SIZE(keys[i].keys) && keys[i].keys[k]; k++)
			if (keys[i].keys[k] == ch)
				return keys[i].fn(a);
	return ACT_NONE;
}

/* Click a title: sort by it; click a row: select it; double click: Enter. */
static enum action table_mouse(struct app *a, int y, int x, enum mouse_kind kind)
{
	size_t i;

	if (kind == MOUSE_WHEEL_UP)
		return move_sel(a, -3, true);
	if (kind == MOUSE_WHEEL_DOWN)
		return move_sel(a, 3, true);
	if (y == a->hdr_y) {
		for (i = 0; i < a->hdr_n; i++)
			if (x >= a->hdr_x[i] && x < a->hdr_x[i + 1])
				return sort_by(a, a->hdr_col[i]);
		return ACT_NONE;
	}
	if (y < a->rows_y || y >= a->rows_y + a->table.list.rows ||
	    !list_at(&a->table.list, a->rows.nrows, y - a->rows_y, &i))
		return ACT_NONE;
	select_row(a, i, true);
	a->follow = false;
	if (kind == MOUSE_DOUBLE)
		return keys_dispatch(a, table_keys, ARRAY_SIZE(table_keys), '\n');
	return ACT_REDRAW;
}

/* F3 searches here, as in htop (the system views' F3 is their menu). */
static const char *const table_bar_words[10] = { [2] = "Search" };

const struct view table_view = {
	.name = "table",
	.bar_words = table_bar_words,
	.draw = table_draw,
	.mouse = table_mouse,
	.keys = table_keys,
	.nkeys = ARRAY_SIZE(table_keys),
	.whole_lines = true,
};
