// SPDX-License-Identifier: GPL-2.0-only
#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"

/* The longest text cell of any table: a command line once sanitized. */
#define TEXT_MAX CMDLINE_TEXT_MAX

bool table_col(const struct table *t, int c, struct tcol *out)
{
	return c >= 0 && t->def->col(t, c, out);
}

void table_read_cols(struct table *t, struct tcol *cv)
{
	size_t k;

	for (k = 0; k < t->ncols; k++)
		if (!table_col(t, t->cols[k], &cv[k]))
			cv[k].key = NULL;
	t->cv = cv;
}

const struct tcol *table_shown(const struct table *t, size_t k, struct tcol *tmp)
{
	if (!t->cv)
		return table_col(t, t->cols[k], tmp) ? tmp : NULL;
	return t->cv[k].key ? &t->cv[k] : NULL;
}

/* Known numbers above unknown ones, then by value. */
static int cmp_num(const struct table *t, const void *a, const void *b, int c)
{
	double x, y;
	bool hx = t->def->num(t, a, c, &x), hy = t->def->num(t, b, c, &y);

	if (hx != hy)
		return hx ? 1 : -1;
	if (!hx)
		return 0;
	return x < y ? -1 : x > y;
}

static int cmp_text(const struct table *t, const void *a, const void *b, int c)
{
	char bx[TEXT_MAX], by[TEXT_MAX];
	size_t n = t->def->sort_text_max < sizeof(bx) ? t->def->sort_text_max : sizeof(bx);

	return strcmp(t->def->text(t, a, c, bx, n, t->def->sort_text_how),
		      t->def->text(t, b, c, by, n, t->def->sort_text_how));
}

/* What a sort reads of its table once, not at each comparison. */
struct sort_ctx {
	const struct table *t;
	bool have_key, text;	/* the sort column exists; its cells are text */
	int tie;		/* the tie column, or -1 */
};

static void sort_ctx(struct sort_ctx *s, const struct table *t)
{
	struct tcol c;

	s->t = t;
	s->have_key = table_col(t, t->sort, &c);
	s->text = s->have_key && c.text;
	s->tie = t->def->tie ? t->def->tie(t) : -1;
}

static int compare(const struct sort_ctx *s, const void *a, const void *b)
{
	const struct table *t = s->t;
	const struct table_def *d = t->def;
	int r = d->sort_first ? d->sort_first(t, a, b) : 0;

	if (r)
		return r;
	if (s->have_key)
		r = s->text ? cmp_text(t, a, b, t->sort) : cmp_num(t, a, b, t->sort);
	if (t->dir == SORT_DESC)
		r = -r;
	if (!r && s->tie >= 0 && s->tie != t->sort)
		r = -cmp_num(t, a, b, s->tie);
	if (!r && d->sort_last)	/* a total order keeps rows from jumping between refreshes */
		r = d->sort_last(t, a, b);
	return r;
}

int table_compare(const struct table *t, const void *a, const void *b)
{
	struct sort_ctx s;

	sort_ctx(&s, t);
	return compare(&s, a, b);
}

/* qsort has no context argument; sorting happens on the one main thread. */
static const struct sort_ctx *sorting;

static int sort_cmp(const void *a, const void *b)
{
	return compare(sorting, a, b);
}

void table_sort(const struct table *t, void *items, size_t n, size_t size)
{
	const struct sort_ctx *outer = sorting;
	struct sort_ctx s;

	if (n < 2)
		return;
	sort_ctx(&s, t);
	sorting = &s;
	sort_array(items, n, size, sort_cmp);
	sorting = outer;
}

bool table_match(const struct table *t, const void *item, const char *text)
{
	char buf[TEXT_MAX];
	size_t n = t->def->data_max < sizeof(buf) ? t->def->data_max : sizeof(buf);
	struct tcol c;
	int k;

	if (t->def->match)
		return t->def->match(t, item, text);
	if (!text[0])
		return true;
	for (k = 0; table_col(t, k, &c); k++)
		if (c.text && strcasestr(t->def->text(t, item, k, buf, n, TEXT_DATA), text))
			return true;
	return false;
}

void table_drill(const struct table *t, size_t row, struct drill *out)
{
	memset(out, 0, sizeof(*out));
	out->sub = -1;
	if (row < t->nrows && t->def->drill)
		t->def->drill(t, t->def->item(t, row), out);
}

#define FIT_COLS_MAX 128

/* Which of @cols are kept once @dropped are: not dropped, and not said by the others. */
static void fit_kept(const struct table *t, const int *cols, size_t ncols, const bool *dropped,
		     bool *kept)
{
	size_t i;

	memset(kept, 0, FIT_COLS_MAX * sizeof(*kept));
	for (i = 0; i < ncols; i++)
		if (cols[i] >= 0 && cols[i] < FIT_COLS_MAX && !dropped[cols[i]])
			kept[cols[i]] = true;
	if (!t->def->redundant)
		return;
	for (i = 0; i + 1 < ncols; i++)
		if (kept[cols[i]] && t->def->redundant(t, cols[i], kept))
			kept[cols[i]] = false;
}

/*
 * Drop the columns of drop_order, in its order, until the rest leave the last
 * its least. A column that stands in for others (redundant) comes back when
 * one of them goes.
 */
static size_t fit_dropping(const struct table *t, const int *cols, size_t ncols, int w, int *out,
			   int *width)
{
	const struct table_def *d = t->def;
	bool dropped[FIT_COLS_MAX] = { false }, kept[FIT_COLS_MAX];
	size_t i, k = 0, n;
	struct tcol c;
	int total, x = 0;

	for (;;) {
		total = 0;
		fit_kept(t, cols, ncols, dropped, kept);
		for (i = 0; i + 1 < ncols; i++)
			if (cols[i] >= 0 && cols[i] < FIT_COLS_MAX && kept[cols[i]] &&
			    table_col(t, cols[i], &c))
				total += c.width + 1;
		if (total + d->last_min(w) <= w || k == d->ndrop)
			break;
		if (d->drop_order[k] >= 0 && d->drop_order[k] < FIT_COLS_MAX)
			dropped[d->drop_order[k]] = true;
		k++;
	}
	for (i = 0, n = 0; i < ncols; i++) {
		if (cols[i] < 0 || cols[i] >= FIT_COLS_MAX || !kept[cols[i]] ||
		    !table_col(t, cols[i], &c))
			continue;
		out[n] = cols[i];
		width[n++] = i + 1 == ncols ? w - x : c.width;
		x += c.width + 1;
	}
	return n;
}

/* The columns from the first while they fit; a graph takes what is left, if 8 cells. */
static size_t fit_first(const struct table *t, const int *cols, size_t ncols, int w, int *out,
			int *width)
{
	size_t i, k = 0;
	struct tcol c;
	int x = 0;

	for (i = 0; i < ncols && table_col(t, cols[i], &c); i++) {
		int cw = c.screen_only ? w - x : c.width;

		if (c.screen_only && cw < 8)
			break;
		if (x + cw > w && k)
			break;
		out[k] = cols[i];
		width[k++] = cw;
		x += cw + 1;
	}
	return k;
}

size_t table_fit(const struct table *t, const int *cols, size_t ncols, int w, int *out,
		 int *width)
{
	if (t->def->drop_order)
		return fit_dropping(t, cols, ncols, w, out, width);
	return fit_first(t, cols, ncols, w, out, width);
}

/* The cells column @c's text takes in rows @first .. @first + @count - 1, at most. */
static int cells_needed(const struct table *t, int c, size_t first, size_t count)
{
	char cell[TEXT_MAX];
	size_t r, n = t->def->cell_max < sizeof(cell) ? t->def->cell_max : sizeof(cell);
	int need = 0, tw;

	for (r = first; r < first + count && r < t->nrows; r++) {
		const char *s = t->def->cell(t, t->def->item(t, r), c, cell, n, TEXT_UTF8);

		tw = (int)text_width(s, strlen(s));
		if (tw > need)
			need = tw;
	}
	return need;
}

size_t table_fit_rows(const struct table *t, const int *cols, size_t ncols, int w, size_t first,
		      size_t count, int *out, int *width)
{
	struct tcol c;
	int x = 0, slack, extra, w0;
	size_t n, i;

	if (!t->def->drop_order) {
		if (!ncols || !table_col(t, cols[0], &c) || !c.grow)
			return fit_first(t, cols, ncols, w, out, width);
		/* A name first: as wide as it needs up to half the line, the others after it. */
		w0 = cells_needed(t, cols[0], first, count);
		if (w0 > (w / 2 > c.width ? w / 2 : c.width))
			w0 = w / 2 > c.width ? w / 2 : c.width;
		if (w0 < c.width)
			w0 = c.width;
		out[0] = cols[0];
		width[0] = w0;
		return 1 + fit_first(t, cols + 1, ncols - 1, w - w0 - 1, out + 1, width + 1);
	}
	n = fit_dropping(t, cols, ncols, w, out, width);
	if (n < 2)
		return n;
	for (i = 0; i + 1 < n; i++)
		x += width[i] + 1;
	/* What the last column has over its least goes to the names that need it. */
	slack = w - x - t->def->last_min(w);
	for (i = 0; i + 1 < n && slack > 0; i++) {
		if (!table_col(t, out[i], &c) || !c.grow)
			continue;
		extra = cells_needed(t, out[i], first, count) - width[i];
		if (extra > slack)
			extra = slack;
		if (extra > 0) {
			width[i] += extra;
			width[n - 1] -= extra;
			slack -= extra;
		}
	}
	return n;
}

/*
 * Append @text at @off, padded to @width (right-aligned unless @left); the
 * last cell unpadded when left-aligned, or when the table's lines end at
 * their last character. A cell that does not fit in @n is left out.
 */
static size_t put_cell(char *buf, size_t n, size_t off, const char *text, int width, bool left,
		       bool last, bool pad_last)
{
	size_t len = strlen(text), w = width > 0 ? (size_t)width : 0, pad, tw;

	if (off + 1 >= n)
		return off;
	/*
	 * By display width, not bytes (a CJK name is 2 cells a character, a
	 * combining mark none), cut at a character boundary: text columns keep
	 * their width; the last one does not.
	 */
	if (left && !last)
		len = text_fit(text, len, w, &tw);
	else if (left)
		tw = text_width(text, len);
	else	/* right-aligned: numbers, "≤" before a percentile */
		tw = len && (text[0] & 0x80) ? text_width(text, len) : len;
	pad = tw < w && !(last && (left || !pad_last)) ? w - tw : 0;
	if (off + pad + len + 2 > n)
		return off;
	if (!left) {
		memset(buf + off, ' ', pad);
		off += pad;
	}
	memcpy(buf + off, text, len);
	off += len;
	if (left && pad) {
		memset(buf + off, ' ', pad);
		off += pad;
	}
	if (!last)
		buf[off++] = ' ';
	buf[off] = '\0';
	return off;
}

void table_header_line(const struct table *t, char *buf, size_t n)
{
	const struct tcol *c;
	struct tcol tmp;
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < t->ncols; i++)
		if ((c = table_shown(t, i, &tmp)))
			off = put_cell(buf, n, off, c->title, c->width, c->left, i + 1 == t->ncols,
				       t->def->pad_last);
}

void table_row_line(const struct table *t, size_t row, char *buf, size_t n)
{
	const void *item = t->def->item(t, row);
	char cell[TEXT_MAX];
	size_t i, off = 0, cn = t->def->cell_max < sizeof(cell) ? t->def->cell_max : sizeof(cell);
	const struct tcol *c;
	struct tcol tmp;

	buf[0] = '\0';
	for (i = 0; i < t->ncols; i++) {
		if (!(c = table_shown(t, i, &tmp)))
			continue;
		t->def->cell(t, item, t->cols[i], cell, cn, TEXT_UTF8);
		off = put_cell(buf, n, off, cell, c->width, c->left, i + 1 == t->ncols,
			       t->def->pad_last);
	}
}

size_t table_line_size(const struct table *t)
{
	const struct tcol *c;
	struct tcol tmp;
	size_t i, n = 2;

	if (t->def->line_max)
		return t->def->line_max;
	for (i = 0; i < t->ncols; i++)
		if ((c = table_shown(t, i, &tmp)))
			n += (c->width > 0 ? (size_t)c->width : 0) + t->def->cell_max + 1;
	return n;
}
