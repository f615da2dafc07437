// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table engine (tables/table.c) over a small table of its own: the sort
 * (a key before the column, known numbers above unknown ones, the tie column,
 * a total order), the default filter (any text cell), the column fit (a drop
 * order with the last column's least width; the first columns and a graph)
 * and text lines (padding, the last cell, a line too short for a cell).
 */
#include "../../tables/table.h"
#include "../../lib/util.h"
#include "test.h"

struct fruit {
	const char *name;
	double n;		/* < 0: not known */
	int weight;
	bool gone;		/* sorts after the others, whatever the order */
};

static const struct tcol fcols[] = {
	{ "name", "NAME", 8, true, true, false, SORT_ASC, false },
	{ "n", "N", 4, false, false, false, SORT_DESC, false },
	{ "weight", "WEIGHT", 6, false, false, false, SORT_DESC, false },
	{ "graph", "GRAPH", 0, true, false, true, SORT_DESC, false },
};

static bool f_col(const struct table *t, int c, struct tcol *out)
{
	(void)t;
	if (c < 0 || (size_t)c >= ARRAY_SIZE(fcols))
		return false;
	*out = fcols[c];
	return true;
}

static const void *f_item(const struct table *t, size_t row)
{
	return &((const struct fruit *)t->src)[row];
}

static bool f_num(const struct table *t, const void *item, int c, double *out)
{
	const struct fruit *f = item;

	(void)t;
	if (c == 1 && f->n >= 0) {
		*out = f->n;
		return true;
	}
	if (c == 2) {
		*out = f->weight;
		return true;
	}
	return false;
}

static const char *f_text(const struct table *t, const void *item, int c, char *buf, size_t n,
			  int how)
{
	(void)t;
	(void)how;
	snprintf(buf, n, "%s", c == 0 ? ((const struct fruit *)item)->name : "");
	return buf;
}

static const char *f_cell(const struct table *t, const void *item, int c, char *buf, size_t n,
			  int utf8)
{
	double d;

	if (c == 0)
		return f_text(t, item, c, buf, n, utf8);
	if (!f_num(t, item, c, &d))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.0f", d);
	return buf;
}

static int f_first(const struct table *t, const void *a, const void *b)
{
	bool ga = ((const struct fruit *)a)->gone, gb = ((const struct fruit *)b)->gone;

	(void)t;
	return ga == gb ? 0 : ga ? 1 : -1;
}

static int f_last(const struct table *t, const void *a, const void *b)
{
	(void)t;
	return strcmp(((const struct fruit *)a)->name, ((const struct fruit *)b)->name);
}

static int f_tie(const struct table *t)
{
	(void)t;
	return 2;
}

static int f_last_min(int w)
{
	(void)w;
	return 6;
}

static const int f_drop[] = { 2, 1 };

static struct table_def def = {
	.rows_key = "fruit",
	.cell_max = 64,
	.data_max = 64,
	.col = f_col,
	.item = f_item,
	.num = f_num,
	.text = f_text,
	.cell = f_cell,
	.sort_first = f_first,
	.sort_text_max = 64,
	.sort_last = f_last,
	.tie = f_tie,
};

static void sorted_names(struct table *t, struct fruit *v, size_t n, char *out, size_t size)
{
	size_t i, o = 0;

	table_sort(t, v, n, sizeof(*v));
	out[0] = '\0';
	for (i = 0; i < n && o + 1 < size; i++)
		o += (size_t)snprintf(out + o, size - o, "%s%s", i ? " " : "", v[i].name);
}

static void test_sort(void)
{
	struct fruit v[] = {
		{ "pear", 3, 1, false }, { "fig", -1, 9, false }, { "apple", 3, 5, false },
		{ "kiwi", 7, 2, true }, { "date", 3, 5, false },
	};
	struct table t = { .def = &def, .src = v, .nrows = ARRAY_SIZE(v), .sort = 1, .dir = SORT_DESC };
	char names[128];

	/*
	 * By N, descending: the gone one last whatever its N, the unknown N below
	 * the known; the 3s by the tie column (weight, descending), then by name.
	 */
	sorted_names(&t, v, ARRAY_SIZE(v), names, sizeof(names));
	CHECK_STR(names, "apple date pear fig kiwi");
	t.dir = SORT_ASC;	/* ascending: unknown first; ties still heaviest first */
	sorted_names(&t, v, ARRAY_SIZE(v), names, sizeof(names));
	CHECK_STR(names, "fig apple date pear kiwi");
	t.sort = 0;		/* by text */
	sorted_names(&t, v, ARRAY_SIZE(v), names, sizeof(names));
	CHECK_STR(names, "apple date fig pear kiwi");
	t.sort = 99;		/* no such column: the tie column, then the total order */
	sorted_names(&t, v, ARRAY_SIZE(v), names, sizeof(names));
	CHECK_STR(names, "fig apple date pear kiwi");
}

static void test_match(void)
{
	struct fruit f = { "Apple", 1, 1, false };
	struct table t = { .def = &def, .src = &f, .nrows = 1 };

	CHECK(table_match(&t, &f, ""));
	CHECK(table_match(&t, &f, "ppl"));
	CHECK(table_match(&t, &f, "APP"));	/* any case */
	CHECK(!table_match(&t, &f, "1"));	/* numbers are not text */
}

static void test_fit(void)
{
	struct table t = { .def = &def };
	int cols[] = { 1, 2, 0 }, all[] = { 0, 1, 2, 3 }, out[8], width[8];
	size_t n;

	/* Room for all: N (4+1) WEIGHT (6+1), NAME the rest. */
	def.drop_order = f_drop;
	def.ndrop = ARRAY_SIZE(f_drop);
	def.last_min = f_last_min;
	n = table_fit(&t, cols, 3, 30, out, width);
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_I64(width[2], 30 - 12);
	/* 15 cells: WEIGHT goes first (the drop order), N stays. */
	n = table_fit(&t, cols, 3, 15, out, width);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_I64(out[0], 1);
	CHECK_EQ_I64(out[1], 0);
	CHECK_EQ_I64(width[1], 10);
	/* Too narrow for even that: all of the drop order goes, the last stays. */
	n = table_fit(&t, cols, 3, 4, out, width);
	CHECK_EQ_U64(n, 1);
	CHECK_EQ_I64(out[0], 0);
	/* Without a drop order: from the first while they fit; a graph the rest, if 8. */
	def.drop_order = NULL;
	n = table_fit(&t, all, 4, 30, out, width);
	CHECK_EQ_U64(n, 4);
	CHECK_EQ_I64(width[3], 30 - 9 - 5 - 7);
	n = table_fit(&t, all, 4, 25, out, width);
	CHECK_EQ_U64(n, 3);	/* 4 cells left: no graph */
	n = table_fit(&t, all, 4, 14, out, width);
	CHECK_EQ_U64(n, 2);
	n = table_fit(&t, all, 4, 3, out, width);
	CHECK_EQ_U64(n, 1);	/* the first always */
}

/*
 * A second catalog: NAME grows (a long name), SUM stands in for N where N
 * has no room (redundant), CMD last.
 */
static const struct tcol gcols[] = {
	{ "name", "NAME", 4, true, true, false, SORT_ASC, true },
	{ "n", "N", 4, false, false, false, SORT_DESC, false },
	{ "sum", "SUM", 6, false, false, false, SORT_DESC, false },
	{ "cmd", "CMD", 6, true, true, false, SORT_ASC, false },
};

static bool g_col(const struct table *t, int c, struct tcol *out)
{
	(void)t;
	if (c < 0 || (size_t)c >= ARRAY_SIZE(gcols))
		return false;
	*out = gcols[c];
	return true;
}

static bool g_redundant(const struct table *t, int c, const bool *kept)
{
	(void)t;
	return c == 2 && kept[1];
}

static const int g_drop[] = { 1 };

static void test_fit_rows(void)
{
	struct fruit v[] = { { "fig", 1, 1, false }, { "blackberry", 2, 2, false } };
	struct table_def gd = def;
	struct table t = { .def = &gd, .src = v, .nrows = ARRAY_SIZE(v) };
	int stand[] = { 2, 1, 3 }, named[] = { 0, 1, 3 }, out[8], width[8];
	size_t n;

	gd.col = g_col;
	gd.drop_order = g_drop;
	gd.ndrop = ARRAY_SIZE(g_drop);
	gd.last_min = f_last_min;
	gd.redundant = g_redundant;
	/* Room for N: SUM says nothing more. */
	n = table_fit_rows(&t, stand, 3, 40, 0, 2, out, width);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_I64(out[0], 1);
	CHECK_EQ_I64(out[1], 3);
	/* No room for N (5 + CMD's 6 > 10): SUM in its place, room or not. */
	n = table_fit_rows(&t, stand, 3, 10, 0, 2, out, width);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_I64(out[0], 2);
	/* NAME as wide as "blackberry" where CMD has more than its 6... */
	n = table_fit_rows(&t, named, 3, 40, 0, 2, out, width);
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_I64(width[0], 10);
	CHECK_EQ_I64(width[2], 40 - 11 - 5);
	/* ... of the rows asked for only ("fig"); and none where there is no room. */
	n = table_fit_rows(&t, named, 3, 40, 0, 1, out, width);
	CHECK_EQ_I64(width[0], 4);
	n = table_fit_rows(&t, named, 3, 18, 0, 2, out, width);
	CHECK_EQ_I64(width[0], 6);	/* 18 - 5 - 5 - 6: two cells over its 4 */
	/* Without a drop order, a first name takes up to half the line. */
	gd.drop_order = NULL;
	n = table_fit_rows(&t, named, 3, 40, 0, 2, out, width);
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_I64(width[0], 10);
	n = table_fit_rows(&t, named, 3, 16, 0, 2, out, width);
	CHECK_EQ_I64(width[0], 8);
}

static void test_lines(void)
{
	struct fruit v[] = { { "blackberry", 12, 3, false } };
	int cols[] = { 0, 1, 2 }, last_left[] = { 1, 0 };
	struct table t = { .def = &def, .src = v, .nrows = 1, .cols = cols, .ncols = 3 };
	char buf[128];

	def.pad_last = false;
	table_header_line(&t, buf, sizeof(buf));
	CHECK_STR(buf, "NAME        N WEIGHT");
	table_row_line(&t, 0, buf, sizeof(buf));
	CHECK_STR(buf, "blackber   12 3");	/* text cut to its width; the last unpadded */
	def.pad_last = true;
	table_row_line(&t, 0, buf, sizeof(buf));
	CHECK_STR(buf, "blackber   12      3");
	t.cols = last_left;
	t.ncols = 2;
	table_row_line(&t, 0, buf, sizeof(buf));
	CHECK_STR(buf, "  12 blackberry");	/* a text last: whole, never padded */
	table_row_line(&t, 0, buf, 12);		/* no room for it: left out, not cut */
	CHECK_STR(buf, "  12 ");
	def.line_max = 0;
	CHECK(table_line_size(&t) >= 4 + 8 + 2 * def.cell_max);
}

static const struct test tests[] = {
	{ "sort: a key first, known above unknown, the tie column, a total order", test_sort },
	{ "filter: any text cell holds it, in any case", test_match },
	{ "fit: a drop order and the last's least width; or the first and a graph", test_fit },
	{ "fit: a stand-in where what it stands for has no room; a long name takes the room there is",
	  test_fit_rows },
	{ "text lines: padded to the columns, the last as the table says", test_lines },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
