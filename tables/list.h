/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_LIST_H
#define KTOP_LIST_H

/*
 * A scrolling list: the selected item and the window of items a screen shows.
 * Every screen that scrolls (the process table, the system views, the menus,
 * the sort menu, the process view's syscalls, its event list, setup, help)
 * keeps one in its own state and moves it with these, so Up, Down, PgUp,
 * PgDn, Home, End, the wheel and a click behave alike everywhere. Pure: the screen draws items
 * top .. top + rows - 1 and marks sel.
 */

#include <stdbool.h>
#include <stddef.h>

struct list {
	size_t sel;	/* the selected item */
	size_t top;	/* the first item shown */
	int rows;	/* the items the window had room for at the last list_fit (>= 1) */
};

/*
 * list_fit - before a draw: @n items, a window of @rows lines (at least one).
 * The selection moves into the items (the last one when it was past them), the
 * window onto the selection, and it shows no blank lines past the last item
 * that an item above could fill.
 */
void list_fit(struct list *l, size_t n, int rows);

/*
 * list_scroll - a list without a selection (help): the window @delta lines on,
 * kept within the @n items (none past the last page).
 */
void list_scroll(struct list *l, size_t n, long delta);
/* The window as list_fit leaves it, for a list without a selection. */
void list_fit_window(struct list *l, size_t n, int rows);

/* The selection @delta items on, kept within 0 .. @n - 1. False when there is none. */
bool list_move(struct list *l, size_t n, long delta);
/* PgUp/PgDn's step: a page less one line, so the line at the edge stays in view. */
long list_page(const struct list *l);
/* The item at line @line of the window (0 = the first shown); false past the items. */
bool list_at(const struct list *l, size_t n, long line, size_t *item);

#endif
