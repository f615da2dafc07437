// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scrolling list under every screen that scrolls (tables/list.c): the
 * selection stays within the items, the window follows it, a page is a page
 * less one line, and a window never shows blank lines an item could fill.
 */
#include "../../tables/list.h"
#include "../../lib/util.h"
#include "test.h"

static void test_move_clamps(void)
{
	struct list l = { 0 };

	CHECK(!list_move(&l, 0, 1));	/* no items: nothing to select */
	CHECK_EQ_U64(l.sel, 0);
	CHECK(list_move(&l, 10, 3));
	CHECK_EQ_U64(l.sel, 3);
	CHECK(list_move(&l, 10, -5));
	CHECK_EQ_U64(l.sel, 0);
	CHECK(list_move(&l, 10, 100));	/* End */
	CHECK_EQ_U64(l.sel, 9);
	CHECK(list_move(&l, 10, -100));	/* Home */
	CHECK_EQ_U64(l.sel, 0);
	/* Fewer items since the selection was made: a step back lands on the last. */
	l.sel = 20;
	CHECK(list_move(&l, 10, -1));
	CHECK_EQ_U64(l.sel, 9);
}

static void test_window_follows(void)
{
	struct list l = { 0 };

	list_fit(&l, 100, 10);
	CHECK_EQ_U64(l.top, 0);
	CHECK_EQ_I64(l.rows, 10);
	CHECK_EQ_I64(list_page(&l), 9);
	list_move(&l, 100, 9);		/* the last line of the window: no scroll */
	list_fit(&l, 100, 10);
	CHECK_EQ_U64(l.top, 0);
	list_move(&l, 100, 1);		/* one past it: the window moves one line */
	list_fit(&l, 100, 10);
	CHECK_EQ_U64(l.top, 1);
	list_move(&l, 100, list_page(&l));	/* PgDn: the old last line is the first */
	list_fit(&l, 100, 10);
	CHECK_EQ_U64(l.sel, 19);
	CHECK_EQ_U64(l.top, 10);
	list_move(&l, 100, -15);	/* above the window: it starts at the selection */
	list_fit(&l, 100, 10);
	CHECK_EQ_U64(l.top, 4);
	list_move(&l, 100, 1000);
	list_fit(&l, 100, 10);
	CHECK_EQ_U64(l.sel, 99);
	CHECK_EQ_U64(l.top, 90);
}

static void test_fit_shrinks(void)
{
	struct list l = { .sel = 50, .top = 45 };

	/* The items shrank under the selection: the last one, the window filled. */
	list_fit(&l, 20, 10);
	CHECK_EQ_U64(l.sel, 19);
	CHECK_EQ_U64(l.top, 10);
	/* A taller window: no blank line an item above could fill. */
	list_fit(&l, 20, 15);
	CHECK_EQ_U64(l.top, 5);
	/* All fit: from the first. */
	list_fit(&l, 20, 40);
	CHECK_EQ_U64(l.top, 0);
	/* No items, no room. */
	list_fit(&l, 0, 0);
	CHECK_EQ_U64(l.sel, 0);
	CHECK_EQ_U64(l.top, 0);
	CHECK_EQ_I64(l.rows, 1);
	CHECK_EQ_I64(list_page(&l), 1);
}

static void test_at(void)
{
	struct list l = { .sel = 30 };
	size_t i = 1234;

	list_fit(&l, 35, 10);		/* items 21 .. 30 shown, the selection last */
	CHECK(list_at(&l, 35, 0, &i));
	CHECK_EQ_U64(i, 21);
	CHECK(list_at(&l, 35, 9, &i));
	CHECK_EQ_U64(i, 30);
	CHECK(!list_at(&l, 35, 14, &i));	/* past the last item */
	CHECK(!list_at(&l, 35, -1, &i));	/* above the window (its title) */
}

static void test_scroll(void)
{
	struct list l = { 0 };

	list_fit_window(&l, 50, 20);	/* help: no selection */
	list_scroll(&l, 50, 10);
	CHECK_EQ_U64(l.top, 10);
	list_scroll(&l, 50, 100);	/* End: the last page */
	CHECK_EQ_U64(l.top, 30);
	list_scroll(&l, 50, -7);
	CHECK_EQ_U64(l.top, 23);
	list_scroll(&l, 50, -100);	/* Home */
	CHECK_EQ_U64(l.top, 0);
	list_fit_window(&l, 10, 20);	/* shorter than the window */
	list_scroll(&l, 10, 5);
	CHECK_EQ_U64(l.top, 0);
	l.top = 40;			/* fewer lines since (a resize): back to the last page */
	list_fit_window(&l, 50, 20);
	CHECK_EQ_U64(l.top, 30);
}

static const struct test tests[] = {
	{ "the selection stays within the items", test_move_clamps },
	{ "the window follows the selection; a page is a page less a line", test_window_follows },
	{ "fewer items or a taller window: the window filled from the items", test_fit_shrinks },
	{ "a line of the window is an item, or nothing", test_at },
	{ "a list without a selection scrolls within its lines", test_scroll },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
