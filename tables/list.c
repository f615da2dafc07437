// SPDX-License-Identifier: GPL-2.0-only
#include "list.h"

static void window(struct list *l, size_t n, int rows)
{
	size_t h;

	l->rows = rows > 1 ? rows : 1;
	h = (size_t)l->rows;
	if (l->top + h > n)
		l->top = n > h ? n - h : 0;
}

void list_fit(struct list *l, size_t n, int rows)
{
	size_t h;

	if (l->sel >= n)
		l->sel = n ? n - 1 : 0;
	l->rows = rows > 1 ? rows : 1;
	h = (size_t)l->rows;
	if (l->sel < l->top)
		l->top = l->sel;
	if (l->sel >= l->top + h)
		l->top = l->sel - h + 1;
	window(l, n, l->rows);
}

void list_fit_window(struct list *l, size_t n, int rows)
{
	window(l, n, rows);
}

void list_scroll(struct list *l, size_t n, long delta)
{
	long t = (long)l->top + delta;

	l->top = t > 0 ? (size_t)t : 0;
	window(l, n, l->rows);
}

bool list_move(struct list *l, size_t n, long delta)
{
	long s;

	if (!n)
		return false;
	s = (long)l->sel + delta;
	if (s < 0)
		s = 0;
	if (s >= (long)n)
		s = (long)n - 1;
	l->sel = (size_t)s;
	return true;
}

long list_page(const struct list *l)
{
	return l->rows > 1 ? l->rows - 1 : 1;
}

bool list_at(const struct list *l, size_t n, long line, size_t *item)
{
	long i = (long)l->top + line;

	if (line < 0 || i >= (long)n)
		return false;
	*item = (size_t)i;
	return true;
}
