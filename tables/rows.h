/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_ROWS_H
#define KTOP_ROWS_H

/*
 * Rows: the model's tasks as one screen or writer shows them, filtered, sorted
 * and, in the tree view, each under its parent. The options (sort, filter,
 * tree, folds) are view state, not the model's data: whoever shows rows owns
 * a rowset (the live view's struct app, the batch writer) and refreshes it
 * from the model. The functions are pure computations over the model.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "columns.h"
#include "../model/model.h"
#include "../lib/pidmap.h"

/*
 * Rows of processes that exited since the last refresh (state X): among the
 * others as the sort puts them, after the live ones, or not shown.
 */
enum exited_rows { EXITED_MIXED, EXITED_LAST, EXITED_HIDE };

/* One row: a task and, in the tree view, its place in the tree. */
struct row {
	const struct task *task;
	uint64_t more;		/* bit d: its ancestor at depth d has a later sibling */
	uint16_t depth;		/* 0 = a root (always, out of the tree view) */
	bool last;		/* the last of its siblings */
	bool kids;		/* it has children among the rows */
	bool folded;		/* they are hidden (collapsed) */
};

struct rowset {
	/* What to show: the owner sets these, rowset_refresh applies them. */
	int sort_col;			/* enum col_id */
	enum sort_dir sort_dir;
	char filter[128];		/* substring of comm or cmdline; "" = none */
	int64_t filter_uid;		/* -1 = all users */
	bool tree;			/* children under their parent */
	bool hide_kthreads;		/* kernel threads not shown (htop's K) */
	enum exited_rows exited;	/* where the X rows go (the live view: last) */
	pid_t *folded;			/* tree: processes whose children are hidden */
	size_t nfolded;

	/*
	 * What is shown, owned by the rowset. The rows point at the model's
	 * tasks: valid until the model's next model_end_tick or model_clear,
	 * after which the owner refreshes them before reading them again.
	 */
	struct row *rows;
	size_t nrows, cap;
	struct pidmap index;		/* tree: pid -> its row, while the tree is built */
};

/*
 * Does @text (case-insensitive) occur in @t's name or command line (its
 * arguments joined by spaces, as a shell shows them)? "" matches all. The
 * filter hides what does not; the search (F3) jumps to what does.
 */
bool task_text_matches(const struct task *t, const char *text);

/* Defaults: by CPU%, descending; no filter, flat. */
void rowset_init(struct rowset *rs);
void rowset_free(struct rowset *rs);

/* Rebuild the rows from @m's tasks: filter, sort, tree order. */
void rowset_refresh(struct rowset *rs, const struct model *m);

/* Tree: hide (@fold true) or show the children of @pid. Returns whether it changed. */
bool rowset_fold(struct rowset *rs, pid_t pid, bool fold);
bool rowset_is_folded(const struct rowset *rs, pid_t pid);
/* Tree: show every process's children. Returns whether any was folded. */
bool rowset_unfold_all(struct rowset *rs);

/*
 * The rows @first.. @first + @count - 1 (clipped) are on the screen: the next
 * ticks read their status (model_want_task).
 */
void rowset_want(const struct rowset *rs, struct model *m, size_t first, size_t count);

#endif
