// SPDX-License-Identifier: GPL-2.0-only
/* The sort menu: every column, Enter sorts by it, Esc leaves it as it was. */
#include <stdio.h>

#include "theme.h"
#include "view.h"

static int cursor = -1;

static void sort_draw(struct app *a, int y0, int h, int w)
{
	char line[160];
	int i, first;

	if (cursor < 0)
		cursor = a->rows.sort_col;
	attrset(theme_attr(EL_TABLE_HEADER));
	mvhline(y0, 0, ' ', w);
	put_text(y0, 0, w, "Sort by (Enter: sort, Esc: cancel)");
	attrset(theme_attr(EL_NORMAL));
	first = cursor >= h - 1 ? cursor - (h - 2) : 0;
	for (i = first; i < COL_NR && y0 + 1 + i - first < y0 + h; i++) {
		snprintf(line, sizeof(line), "%c %-9s %-8s %s", i == a->rows.sort_col ? '*' : ' ',
			 columns[i].title, columns[i].key, columns[i].doc);
		attrset(theme_attr(i == cursor ? EL_SELECTED : EL_NORMAL));
		mvhline(y0 + 1 + i - first, 0, ' ', w);
		put_text(y0 + 1 + i - first, 0, w, line);
	}
	attrset(theme_attr(EL_NORMAL));
}

static enum action sort_key(struct app *a, int ch)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (cursor > 0)
			cursor--;
		return ACT_REDRAW;
	case KEY_DOWN:
	case 'j':
		if (cursor < COL_NR - 1)
			cursor++;
		return ACT_REDRAW;
	case KEY_HOME:
		cursor = 0;
		return ACT_REDRAW;
	case KEY_END:
		cursor = COL_NR - 1;
		return ACT_REDRAW;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (a->rows.sort_col == cursor)
			a->rows.sort_dir = a->rows.sort_dir == SORT_DESC ? SORT_ASC : SORT_DESC;
		else
			a->rows.sort_dir = columns[cursor].sort_default;
		a->rows.sort_col = cursor;
		cursor = -1;
		app_pop(a);
		return ACT_COLLECT;
	case 27:
	case 'q':
	case KEY_F(6):
		cursor = -1;
		app_pop(a);
		return ACT_REDRAW;
	default:
		return ACT_NONE;
	}
}

const struct view sort_view = {
	.name = "sort",
	.draw = sort_draw,
	.key = sort_key,
};
