// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sort menu of every table (the process table, the system views): one
 * item per column, the sort column marked and selected; a menu (menu.c), so
 * it moves, pages and takes clicks as every menu does.
 */
#include <stdio.h>

#include "view.h"

void sort_menu_item(struct app *a, size_t i, bool current, const char *title, const char *key,
		    const char *doc)
{
	struct sortmenu_state *sm = &a->sortmenu;

	if (i >= SORT_MENU_MAX)
		return;
	snprintf(sm->text[i], sizeof(sm->text[i]), "%c %-13s %-12s %s", current ? '*' : ' ', title,
		 key, doc ? doc : "");
	sm->items[i] = sm->text[i];
}

void sort_menu_open(struct app *a, size_t n, size_t cur, menu_pick_fn pick)
{
	menu_open(a, "Sort by (Enter: sort, again: the other way; Esc: cancel)", a->sortmenu.items,
		  n < SORT_MENU_MAX ? n : SORT_MENU_MAX, cur, pick);
}
