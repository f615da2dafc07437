/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_BATCH_H
#define KTOP_BATCH_H

/*
 * Batch writers (-b): text like top -b, CSV, JSON lines. They read the same model
 * as the screen. Counters are written as counts within the interval (exact);
 * the first iteration is the baseline and leaves them empty (null in JSON).
 */

#include <stdio.h>

#include "../tables/systable.h"
#include "../tables/groups.h"
#include "../model/model.h"
#include "../tables/rows.h"

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON };

struct batch {
	FILE *out;
	enum out_format fmt;
	const int *cols;
	size_t ncols;
	bool syscalls;		/* --syscalls: each process's syscalls too */
	bool header_done;
	struct rowset rows;	/* the rows written (sort: -s); batch_write refreshes them */
	/*
	 * --view: a system-wide table instead of the processes (the model must
	 * aggregate: model.aggregate), its rows in @av; the groups view's groups
	 * (--group-by) in @groups. batch_init_view sets them up.
	 */
	enum view_kind view;
	struct systable av;
	struct groups groups;
	int view_cols[64];	/* its columns a file gets */
	size_t nview_cols;
};

/* Write view @view (@by: the groups view's key; @sort a column or -1, @asc its order). */
void batch_init_view(struct batch *b, enum view_kind view, enum cgroup_group_by by, int sort,
		     bool asc);
void batch_free(struct batch *b);

/* Default columns of each format (when -o is not given). */
void batch_default_columns(enum out_format fmt, bool traced, int *cols, size_t *ncols);
/* The union of NEED_* flags of @cols. */
unsigned batch_needs(const struct model *m, const int *cols, size_t ncols);

/* @s as a CSV cell: quoted when it holds a comma, a quote or a line break. */
void batch_csv_string(FILE *f, const char *s);
/* @n bytes of untrusted text as a JSON string: controls escaped, bad UTF-8 as U+FFFD. */
void batch_json_string(FILE *f, const char *s, size_t n);

/*
 * Write one iteration: b->rows, refreshed from @m first. Returns 0 or -errno of
 * the failed write (EPIPE: reader gone).
 */
int batch_write(struct batch *b, const struct model *m);

#endif
