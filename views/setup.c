// SPDX-License-Identifier: GPL-2.0-only
/*
 * The setup screen (F2): the settings of src/settings.h, changed live; s saves
 * them to the settings file (the main loop writes it: views do no I/O).
 */
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"
#include "../lib/util.h"

enum item {
	IT_DELAY, IT_THEME, IT_SORT, IT_ORDER, IT_TREE, IT_THREADS, IT_KTHREADS, IT_COMMAND, IT_VIEW,
	IT_GROUP_BY, IT_COLS
};

static const char *const item_names[IT_COLS] = {
	"Delay", "Theme", "Sort by", "Sort order", "Tree view", "Threads", "Kernel threads",
	"COMMAND shows", "View", "Groups by",
};

/* Its steps; any delay from DELAY_MIN_S (-d, d, the settings file) is kept until one is picked. */
static const double delays[] = { DELAY_MIN_S, 0.1, 0.2, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 60 };

/* The column list: the visible ones in their order, then the others. */
static size_t column_list(const struct app *a, int *out, bool *shown)
{
	bool in[COL_NR] = { false };
	size_t i, n = 0;
	int c;

	for (i = 0; i + 1 < a->ncols; i++) {
		in[a->cols[i]] = true;
		out[n] = a->cols[i];
		shown[n++] = true;
	}
	for (c = 0; c < COL_NR; c++) {
		if (in[c] || c == COL_COMM || c == COL_CMDLINE)
			continue;
		out[n] = c;
		shown[n++] = false;
	}
	return n;
}

static int nitems(const struct app *a)
{
	int cols[COL_NR];
	bool shown[COL_NR];

	return IT_COLS + (int)column_list(a, cols, shown);
}

static void item_text(const struct app *a, int i, char *buf, size_t n)
{
	const struct rowset *rs = &a->rows;

	switch (i) {
	case IT_DELAY: snprintf(buf, n, "%.2f s", a->delay_s); break;
	case IT_THEME: snprintf(buf, n, "%.80s", a->theme); break;
	case IT_SORT: snprintf(buf, n, "%s (%s)", columns[rs->sort_col].title, columns[rs->sort_col].key); break;
	case IT_ORDER: snprintf(buf, n, "%s", rs->sort_dir == SORT_DESC ? "descending" : "ascending"); break;
	case IT_TREE: snprintf(buf, n, "%s", rs->tree ? "yes" : "no"); break;
	case IT_THREADS: snprintf(buf, n, "%s", a->model->threads ? "yes (a row per thread)" : "no"); break;
	case IT_KTHREADS: snprintf(buf, n, "%s", rs->hide_kthreads ? "hidden (K)" : "shown (K)"); break;
	case IT_COMMAND: snprintf(buf, n, "%s", a->show_cmdline ? "command line" : "name"); break;
	case IT_VIEW: snprintf(buf, n, "%s (shown when setup closes)", systable_title(a->view)); break;
	case IT_GROUP_BY: snprintf(buf, n, "%s", cgroup_group_by_name(a->groups.by)); break;
	default: buf[0] = '\0'; break;
	}
}

static void setup_draw(struct app *a, int y0, int h, int w)
{
	int cols[COL_NR], n, i, y, rows, cursor;
	bool shown[COL_NR];
	char line[256], val[96];
	size_t nc = column_list(a, cols, shown);

	int fitted[COL_NR];
	size_t nfit = table_view_fit(a, w, fitted), k;
	bool on_screen[COL_NR] = { false };

	for (k = 0; k < nfit; k++)
		on_screen[fitted[k]] = true;
	n = IT_COLS + (int)nc;
	attrset(theme_attr(EL_NORMAL));
	for (y = y0; y < y0 + h; y++)
		mvhline(y, 0, ' ', w);
	attrset(theme_attr(EL_DIALOG_TITLE));
	mvhline(y0, 0, ' ', w);
	put_text(y0, 0, w, "Setup - Up/Down: pick  Left/Right: change  Space: show/hide  "
		 "[ ]: move column  s: save  Esc: back");
	attrset(theme_attr(EL_NORMAL));
	rows = h - 2;
	list_fit(&a->setup, (size_t)n, rows);
	cursor = (int)a->setup.sel;
	for (i = (int)a->setup.top, y = y0 + 2; i < n && y < y0 + h; i++, y++) {
		if (i < IT_COLS) {
			item_text(a, i, val, sizeof(val));
			snprintf(line, sizeof(line), "  %-16s %s", item_names[i], val);
		} else {
			int c_id = cols[i - IT_COLS];
			const struct column *c = &columns[c_id];
			char why[64] = "";
			bool hidden = shown[i - IT_COLS] && !on_screen[c_id];

			/* Ticked, not on screen: say so, and why, before what it is. */
			if (hidden && c_id == COL_WAIT && columns_wait_redundant(on_screen))
				snprintf(why, sizeof(why), "(shown where RUNQ%% and BLOCK%% do not fit) ");
			else if (hidden)
				snprintf(why, sizeof(why), "(no room at %d columns) ", w);
			snprintf(line, sizeof(line), "  %s %-10s %-15s %s%s", shown[i - IT_COLS] ? "[x]" : "[ ]",
				 c->title, c->key, why, c->doc);
		}
		attrset(theme_attr(i == cursor ? EL_SELECTED : i < IT_COLS ? EL_DIALOG : EL_NORMAL));
		mvhline(y, 0, ' ', w);
		put_text(y, 0, w, line);
	}
	attrset(theme_attr(EL_NORMAL));
}

static enum action s_up(struct app *a)
{
	list_move(&a->setup, (size_t)nitems(a), -1);
	return ACT_REDRAW;
}

static enum action s_down(struct app *a)
{
	list_move(&a->setup, (size_t)nitems(a), 1);
	return ACT_REDRAW;
}

static enum action step_delay(struct app *a, int dir)
{
	size_t i;

	if (dir > 0) {
		for (i = 0; i < ARRAY_SIZE(delays) && delays[i] <= a->delay_s + 1e-9; i++)
			;
		if (i == ARRAY_SIZE(delays))
			return ACT_NONE;
	} else {
		for (i = ARRAY_SIZE(delays); i > 0 && delays[i - 1] >= a->delay_s - 1e-9; i--)
			;
		if (i == 0)
			return ACT_NONE;
		i--;
	}
	a->delay_s = delays[i];
	return ACT_DELAY;
}

/* Show or hide column @c; COMMAND stays last, one column at least before it. */
static enum action toggle_column(struct app *a, int c, bool shown)
{
	size_t i;

	if (shown) {
		if (a->ncols <= 2)
			return ACT_NONE;
		for (i = 0; i < a->ncols && a->cols[i] != c; i++)
			;
		memmove(a->cols + i, a->cols + i + 1, (a->ncols - i - 1) * sizeof(a->cols[0]));
		a->ncols--;
	} else {
		a->cols[a->ncols] = a->cols[a->ncols - 1];
		a->cols[a->ncols - 1] = c;
		a->ncols++;
	}
	return ACT_COLLECT;
}

static enum action change(struct app *a, int dir)
{
	struct rowset *rs = &a->rows;
	int cursor = (int)a->setup.sel;
	int cols[COL_NR];
	bool shown[COL_NR];

	switch (cursor) {
	case IT_DELAY:
		return step_delay(a, dir);
	case IT_THEME:
		return theme_step(a, dir);
	case IT_SORT:
		rs->sort_col = (rs->sort_col + COL_NR + dir) % COL_NR;
		rs->sort_dir = columns[rs->sort_col].sort_default;
		return ACT_COLLECT;
	case IT_ORDER:
		rs->sort_dir = rs->sort_dir == SORT_DESC ? SORT_ASC : SORT_DESC;
		return ACT_RESORT;
	case IT_TREE:
		rs->tree = !rs->tree;
		return ACT_RESORT;
	case IT_THREADS:	/* src/live.c toggles the model's thread mode */
		return ACT_THREADS;
	case IT_KTHREADS:
		rs->hide_kthreads = !rs->hide_kthreads;
		return ACT_RESORT;
	case IT_COMMAND:
		a->show_cmdline = !a->show_cmdline;
		a->cols[a->ncols - 1] = a->show_cmdline ? COL_CMDLINE : COL_COMM;
		return ACT_COLLECT;
	case IT_VIEW:
		a->view = (enum view_kind)((a->view + VIEW_NAMED + dir) % VIEW_NAMED);
		return ACT_REDRAW;
	case IT_GROUP_BY:
		groups_set_by(&a->groups, (enum cgroup_group_by)((a->groups.by + CGROUP_BY__COUNT + dir) %
								 CGROUP_BY__COUNT));
		/* By a cgroup: the processes' cgroups are read from the next tick on. */
		return ACT_COLLECT;
	default:
		column_list(a, cols, shown);
		return toggle_column(a, cols[cursor - IT_COLS], shown[cursor - IT_COLS]);
	}
}

/* A setting that reorders the table: its selection stays on its process. */
static enum action setup_change(struct app *a, int dir)
{
	a->table.keep_pid = true;
	return change(a, dir);
}

static enum action s_left(struct app *a) { return setup_change(a, -1); }
static enum action s_right(struct app *a) { return setup_change(a, 1); }

static enum action s_toggle(struct app *a)
{
	int cursor = (int)a->setup.sel;

	if (cursor == IT_DELAY || cursor == IT_THEME || cursor == IT_SORT)
		return ACT_NONE;
	return setup_change(a, 1);
}

/* Move the column under the cursor one place earlier (@dir -1) or later. */
static enum action move_column(struct app *a, int dir)
{
	int cursor = (int)a->setup.sel;
	size_t i = (size_t)(cursor - IT_COLS), j;
	int tmp;

	if (cursor < IT_COLS || i + 1 >= a->ncols)
		return ACT_NONE;	/* not a shown column */
	j = i + (size_t)dir;
	if ((dir < 0 && i == 0) || j + 1 >= a->ncols)
		return ACT_NONE;
	tmp = a->cols[i];
	a->cols[i] = a->cols[j];
	a->cols[j] = tmp;
	a->setup.sel = (size_t)(cursor + dir);
	return ACT_REDRAW;
}

static enum action s_earlier(struct app *a) { return move_column(a, -1); }
static enum action s_later(struct app *a) { return move_column(a, 1); }

static enum action s_save(struct app *a)
{
	(void)a;
	return ACT_SAVE;
}

static enum action s_back(struct app *a)
{
	app_pop(a);
	/* The view picked here, shown now. */
	if (a->view != VIEW_PROCESSES || a->stack[0] != &table_view)
		return sysview_switch(a, a->view);
	return ACT_REDRAW;
}

static const struct key_binding setup_keys[] = {
	{ { KEY_UP }, "Up", "the setting above", s_up },
	{ { KEY_DOWN }, "Down", "the setting below", s_down },
	{ { KEY_LEFT, '-' }, "Left -", "previous value (delay, theme, sort column), or toggle", s_left },
	{ { KEY_RIGHT, '+' }, "Right +", "next value, or toggle", s_right },
	{ { ' ', '\n', '\r', KEY_ENTER }, "Space Enter", "toggle: yes/no, show/hide a column", s_toggle },
	{ { '[' }, "[", "move the column earlier (left)", s_earlier },
	{ { ']' }, "]", "move the column later (right)", s_later },
	{ { 's' }, "s", "save the settings to the settings file", s_save },
	{ { 27, 'q', KEY_F(10) }, "Esc q F10", "back to the table (changes stay, unsaved)", s_back },
};

static enum action setup_mouse(struct app *a, int y, int x, enum mouse_kind kind)
{
	size_t i;

	(void)x;
	if (kind == MOUSE_WHEEL_UP)
		return s_up(a);
	if (kind == MOUSE_WHEEL_DOWN)
		return s_down(a);
	if (y < 2 || !list_at(&a->setup, (size_t)nitems(a), y - 2, &i))
		return ACT_NONE;
	a->setup.sel = i;
	return kind == MOUSE_DOUBLE ? s_right(a) : ACT_REDRAW;
}

const struct view setup_view = {
	.name = "setup",
	.draw = setup_draw,
	.mouse = setup_mouse,
	.keys = setup_keys,
	.nkeys = ARRAY_SIZE(setup_keys),
	.fullscreen = true,
	.whole_lines = true,
};
