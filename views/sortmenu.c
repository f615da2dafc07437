// SPDX-License-Identifier: GPL-2.0-only
/* The sort menu: every column, Enter sorts by it, Esc leaves it as it was. */
#include <stdio.h>

#include "theme.h"
#include "view.h"

static void sort_draw(struct app *a, int y0, int h, int w)
{
	struct list *l = &a->sortmenu;
	char line[160];
	size_t i;

	if (!a->sortmenu_open) {
		l->sel = (size_t)a->rows.sort_col;
		a->sortmenu_open = true;
	}
	attrset(theme_attr(EL_TABLE_HEADER));
	mvhline(y0, 0, ' ', w);
	put_text(y0, 0, w, "Sort by (Enter: sort, Esc: cancel)");
	attrset(theme_attr(EL_NORMAL));
	/* No window kept: the cursor's line is the last one once it is past the first page. */
	l->top = 0;
	list_fit(l, COL_NR, h - 1);
	for (i = l->top; i < COL_NR && (int)(i - l->top) < h - 1; i++) {
		int y = y0 + 1 + (int)(i - l->top);

		snprintf(line, sizeof(line), "%c %-9s %-8s %s", (int)i == a->rows.sort_col ? '*' : ' ',
			 columns[i].title, columns[i].key, columns[i].doc);
		attrset(theme_attr(i == l->sel ? EL_SELECTED : EL_NORMAL));
		mvhline(y, 0, ' ', w);
		put_text(y, 0, w, line);
	}
	attrset(theme_attr(EL_NORMAL));
}

static enum action sort_close(struct app *a, enum action act)
{
	a->sortmenu_open = false;
	app_pop(a);
	return act;
}

static enum action sort_key(struct app *a, int ch)
{
	struct list *l = &a->sortmenu;
	int col = (int)l->sel;

	switch (ch) {
	case KEY_UP:
	case 'k':
		list_move(l, COL_NR, -1);
		return ACT_REDRAW;
	case KEY_DOWN:
	case 'j':
		list_move(l, COL_NR, 1);
		return ACT_REDRAW;
	case KEY_HOME:
		list_move(l, COL_NR, -COL_NR);
		return ACT_REDRAW;
	case KEY_END:
		list_move(l, COL_NR, COL_NR);
		return ACT_REDRAW;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (a->rows.sort_col == col)
			a->rows.sort_dir = a->rows.sort_dir == SORT_DESC ? SORT_ASC : SORT_DESC;
		else
			a->rows.sort_dir = columns[col].sort_default;
		a->rows.sort_col = col;
		return sort_close(a, ACT_COLLECT);
	case 27:
	case 'q':
	case KEY_F(6):
		return sort_close(a, ACT_REDRAW);
	default:
		return ACT_NONE;
	}
}

const struct view sort_view = {
	.name = "sort",
	.draw = sort_draw,
	.key = sort_key,
};
