/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TABLE_H
#define KTOP_TABLE_H

/*
 * The table engine: what the process table and the system-wide views
 * (Syscalls, Errors, Subsystems, Signals, Groups, the processes behind a row)
 * have in common, written once. A table is a definition (struct table_def:
 * its columns and how to read a row's cell, its sort keys, its filter and what
 * Enter opens from a row) over a source (the model's tasks as a struct rowset,
 * or a struct systable); the engine sorts rows, matches a filter, says what a
 * row drills into, fits columns to a width and lays out text lines, and the
 * batch writers (outputs/batch.c) write text, CSV and JSON through it. The
 * differences between the two kinds of table are the definitions' data.
 *
 * Pure: no I/O. What a definition returns points into the source, valid
 * until the model's next tick.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/cgroup.h"
#include "columns.h"
#include "../model/model.h"

/* A column as the engine sees it, whichever catalog it comes from. */
struct tcol {
	const char *key;	/* CSV/JSON name */
	const char *title;	/* header */
	int width;		/* cells, without the separating space; 0: the rest of the line */
	bool left;		/* left-aligned (text) */
	bool text;		/* its cells are text, not numbers */
	bool screen_only;	/* drawn, never written (a graph) */
	enum sort_dir sort_default;
	bool grow;		/* a long name: as wide as its cells where there is room (table_fit_rows) */
};

/* What Enter opens from a row. */
enum drill_kind {
	DRILL_NONE,
	DRILL_PROCESS,		/* the process view of @pid */
	DRILL_CALLERS,		/* the processes behind the row (@callers) */
	DRILL_SUBSYSTEM,	/* the syscalls of subsystem @sub */
};

/* Whose processes a callers table lists: the rows behind one row of another table. */
struct av_drill {
	int from;	/* enum view_kind: VIEW_SYSCALLS, VIEW_ERRORS, VIEW_GROUPS, VIEW_LATENCY; else every row */
	uint32_t nr, err;	/* a syscall; with err, a (syscall, errno) pair */
	enum cgroup_group_by by;	/* a group: its key */
	char key[CGROUP_KEY_MAX];
};

struct drill {
	enum drill_kind kind;
	pid_t pid;
	int sub;
	struct av_drill callers;
	const char *why;	/* DRILL_NONE: why nothing opens, or NULL */
};

struct table;

/*
 * A table definition. A row's cells are read through an item: what the
 * source's row array holds (a struct row of a rowset, an index of an
 * aggview), so that the sort compares the array's own elements.
 */
struct table_def {
	const char *rows_key;	/* JSON: the array of rows ("processes", "rows") */
	/*
	 * Text lines: a right-aligned last cell is padded to its width (the
	 * process rows; the views end at their last character).
	 */
	bool pad_last;
	size_t line_max;	/* a text line's bytes; 0: as long as its cells */
	size_t cell_max;	/* a text line's cell, in bytes */
	size_t data_max;	/* a CSV or JSON text cell, in bytes */

	/* Column @c of the catalog; false when there is none. */
	bool (*col)(const struct table *t, int c, struct tcol *out);
	/* The item of row @row, in the order shown. */
	const void *(*item)(const struct table *t, size_t row);
	/* A number of a cell; false when not known. */
	bool (*num)(const struct table *t, const void *item, int c, double *out);
	/* The text of a text cell, sanitized by @how (sanitize_text's utf8). */
	const char *(*text)(const struct table *t, const void *item, int c, char *buf, size_t n,
			    int how);
	/* The cell as a person reads it (rates per second, units), "-" when not known. */
	const char *(*cell)(const struct table *t, const void *item, int c, char *buf, size_t n,
			    int utf8);
	/* The cell as CSV and JSON write a number; false when not known (empty, null). */
	bool (*raw)(const struct table *t, const void *item, int c, char *buf, size_t n);
	/*
	 * The bytes JSON writes of a text cell (escaped by the writer), *@len of
	 * them; NULL: null. May point into @buf, into the source, or at a
	 * malloc'ed copy it puts in *@owned for the writer to free.
	 */
	const char *(*json)(const struct table *t, const void *item, int c, char *buf, size_t n,
			    size_t *len, char **owned);

	/* The sort: before the sort key (0: no order), the key's text, after it. */
	int (*sort_first)(const struct table *t, const void *a, const void *b);
	size_t sort_text_max;	/* a text key compares this many bytes at most */
	int sort_text_how;	/* ... sanitized so */
	int (*sort_last)(const struct table *t, const void *a, const void *b);
	/* Rows that tie: by this column, descending, before sort_last; -1: none. */
	int (*tie)(const struct table *t);

	/* Does the item hold @text? NULL: one of its text cells does (any case). */
	bool (*match)(const struct table *t, const void *item, const char *text);
	/* What Enter on the item opens. */
	void (*drill)(const struct table *t, const void *item, struct drill *out);

	/*
	 * Fitting the columns to a width: drop_order lists the catalog's
	 * columns that narrow screens lose first; without it, the columns are
	 * kept from the first while they fit (a graph takes what is left).
	 */
	const int *drop_order;
	size_t ndrop;
	int (*last_min)(int w);	/* drop_order: the last column's least width */
	/*
	 * drop_order: is column @c left out because the others kept say what
	 * it says (@kept[k] per catalog column)? NULL: none is.
	 */
	bool (*redundant)(const struct table *t, int c, const bool *kept);
};

/* A table: a definition over a source, the columns shown, the rows. */
struct table {
	const struct table_def *def;
	const struct model *m;
	const void *src;	/* struct rowset, struct systable: what the definition reads */
	const int *cols;	/* the columns shown, catalog indexes in order */
	size_t ncols;
	size_t nrows;
	int sort;		/* the sort column (catalog index) */
	enum sort_dir dir;
	const struct tcol *cv;	/* the shown columns as read once (table_read_cols), or NULL */
};

/* Column @c of @t's catalog into @out; false when there is none. */
bool table_col(const struct table *t, int c, struct tcol *out);
/*
 * table_read_cols - the shown columns read once into @cv (room for
 * t->ncols), for writers that go over every cell: t->cv points at it.
 */
void table_read_cols(struct table *t, struct tcol *cv);
/*
 * Shown column @k (0 .. ncols - 1): t->cv's, or read into @tmp; NULL when the
 * catalog has none.
 */
const struct tcol *table_shown(const struct table *t, size_t k, struct tcol *tmp);

/* table_compare - the order of items @a and @b (qsort's), by @t's sort column and direction. */
int table_compare(const struct table *t, const void *a, const void *b);
/* Sort @n items of @size bytes at @items by table_compare. */
void table_sort(const struct table *t, void *items, size_t n, size_t size);

/* Does the item hold the filter @text (""), as @t's definition matches? */
bool table_match(const struct table *t, const void *item, const char *text);

/* What Enter on row @row opens (DRILL_NONE past the rows). */
void table_drill(const struct table *t, size_t row, struct drill *out);

/*
 * table_fit - the columns of @cols (@ncols) that fit in @w cells, into @out
 * (catalog indexes) and their widths into @width (the last, or a graph:
 * what is left); returns how many.
 */
size_t table_fit(const struct table *t, const int *cols, size_t ncols, int w, int *out,
		 int *width);

/*
 * table_fit_rows - table_fit, and the grow columns (long names: a cgroup, a
 * unit) as wide as the longest of their cells in rows @first ..
 * @first + @count - 1 needs, as far as there is room: what the last column
 * leaves over its least (drop_order), or, for a first column, half the line
 * (the columns after it fit in the rest).
 */
size_t table_fit_rows(const struct table *t, const int *cols, size_t ncols, int w, size_t first,
		      size_t count, int *out, int *width);

/* The header line of the columns shown: each title padded to its column. */
void table_header_line(const struct table *t, char *buf, size_t n);
/* Row @row as a text line, padded like the header. */
void table_row_line(const struct table *t, size_t row, char *buf, size_t n);
/* The bytes a text line of @t needs (line_max, or its columns' widest). */
size_t table_line_size(const struct table *t);

#endif
