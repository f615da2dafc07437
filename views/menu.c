// SPDX-License-Identifier: GPL-2.0-only
/* A menu in the table's place: the signal to send, the user to show. */
#include <stdio.h>

#include "theme.h"
#include "view.h"
#include "../lib/util.h"

void menu_open(struct app *a, const char *title, const char *const *items, size_t n,
	       size_t cursor, menu_pick_fn pick)
{
	struct menu_state *mn = &a->menu;

	snprintf(mn->title, sizeof(mn->title), "%s", title);
	mn->items = items;
	mn->n = n;
	mn->list.sel = cursor < n ? cursor : 0;
	mn->list.top = 0;
	mn->pick = pick;
	app_push(a, &menu_view);
}

static void menu_draw(struct app *a, int y0, int h, int w)
{
	struct menu_state *mn = &a->menu;
	int r;

	attrset(theme_attr(EL_DIALOG_TITLE));
	mvhline(y0, 0, ' ', w);
	put_text(y0, 0, w, mn->title);
	mn->y0 = y0 + 1;
	list_fit(&mn->list, mn->n, h - 1);
	for (r = 0; r < h - 1; r++) {
		size_t i = mn->list.top + (size_t)r;

		attrset(theme_attr(i == mn->list.sel ? EL_SELECTED : EL_DIALOG));
		mvhline(y0 + 1 + r, 0, ' ', w);
		if (i < mn->n)
			put_text(y0 + 1 + r, 1, w - 1, mn->items[i]);
	}
	attrset(theme_attr(EL_NORMAL));
}

static enum action menu_move(struct app *a, long d)
{
	list_move(&a->menu.list, a->menu.n, d);
	return ACT_REDRAW;
}

/* A menu pages by a whole page (the table by a page less a line). */
static enum action m_up(struct app *a) { return menu_move(a, -1); }
static enum action m_down(struct app *a) { return menu_move(a, 1); }
static enum action m_pgup(struct app *a) { return menu_move(a, -(long)a->menu.list.rows); }
static enum action m_pgdn(struct app *a) { return menu_move(a, a->menu.list.rows); }
static enum action m_home(struct app *a) { return menu_move(a, -(long)a->menu.n); }
static enum action m_end(struct app *a) { return menu_move(a, (long)a->menu.n); }

static enum action m_pick(struct app *a)
{
	app_pop(a);
	return a->menu.n ? a->menu.pick(a, a->menu.list.sel) : ACT_REDRAW;
}

static enum action m_cancel(struct app *a)
{
	app_pop(a);
	return ACT_REDRAW;
}

static const struct key_binding menu_keys[] = {
	{ { KEY_UP, 'k' }, "Up k", "the item above", m_up },
	{ { KEY_DOWN, 'j' }, "Down j", "the item below", m_down },
	{ { KEY_PPAGE }, "PgUp", "one page up", m_pgup },
	{ { KEY_NPAGE }, "PgDn", "one page down", m_pgdn },
	{ { KEY_HOME }, "Home", "first item", m_home },
	{ { KEY_END }, "End", "last item", m_end },
	{ { '\n', '\r', KEY_ENTER }, "Enter", "do it (send the signal, show the user)", m_pick },
	{ { 27, 'q', KEY_F(6), KEY_F(10) }, "Esc q F6 F10", "leave the menu, do nothing", m_cancel },
};

static enum action menu_mouse(struct app *a, int y, int x, enum mouse_kind kind)
{
	struct menu_state *mn = &a->menu;
	size_t i;

	(void)x;
	if (kind == MOUSE_WHEEL_UP)
		return menu_move(a, -3);
	if (kind == MOUSE_WHEEL_DOWN)
		return menu_move(a, 3);
	if (!list_at(&mn->list, mn->n, y - mn->y0, &i))
		return ACT_NONE;
	mn->list.sel = i;
	return kind == MOUSE_DOUBLE ? m_pick(a) : ACT_REDRAW;
}

const struct view menu_view = {
	.name = "menu",
	.draw = menu_draw,
	.mouse = menu_mouse,
	.keys = menu_keys,
	.nkeys = ARRAY_SIZE(menu_keys),
	.whole_lines = true,
};
