// SPDX-License-Identifier: GPL-2.0-only
/*
 * The process table's definition: its cells from columns.c, its
 * sort keys (the exited rows after the live ones, then the column, then the
 * pid), its filter (rows.c) and what Enter opens (the process view).
 */
#include "proctable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "../lib/util.h"

static const struct task *task_of(const void *item)
{
	return ((const struct row *)item)->task;
}

static const struct rowset *rows_of(const struct table *t)
{
	return t->src;
}

static bool col(const struct table *t, int c, struct tcol *out)
{
	const struct column *k;

	(void)t;
	if (c < 0 || c >= COL_NR)
		return false;
	k = &columns[c];
	*out = (struct tcol){
		.key = k->key, .title = k->title, .width = k->width, .left = k->left,
		.text = k->type == CT_STR || k->type == CT_CHAR, .sort_default = k->sort_default,
		/* Long names: as wide as they need where the screen has room. */
		.grow = c == COL_CGROUP || c == COL_UNIT,
	};
	return true;
}

static const void *item(const struct table *t, size_t row)
{
	return &rows_of(t)->rows[row];
}

/*
 * A cell's number for the sort: on the first frame, what the cell shows
 * (CPU% and faults per second since each process started), so that the
 * rows are in the order the arrow says from the first frame on.
 */
static bool num(const struct table *t, const void *it, int c, double *out)
{
	return fmt_since_start(t->m, task_of(it), (enum col_id)c, out) ||
	       columns_num(t->m, task_of(it), (enum col_id)c, out);
}

static const char *text(const struct table *t, const void *it, int c, char *buf, size_t n, int how)
{
	return columns_text_model(t->m, task_of(it), (enum col_id)c, buf, n, how);
}

static const char *cell(const struct table *t, const void *it, int c, char *buf, size_t n, int utf8)
{
	return fmt_cell(t->m, task_of(it), (enum col_id)c, buf, n, utf8);
}

/*
 * The decimals a CPU time has at its source: an exit record's are in
 * microseconds (a process of 20.5 ms is 0.020500, not 0.02); /proc's in
 * clock ticks (1/hz s: 2 decimals at 100 Hz, 3 at 250 or 1000).
 */
static int time_decimals(const struct model *m, const struct task *t)
{
	long p;
	int d = 0;

	if (t->final)
		return 6;
	for (p = 1; p < m->hz; p *= 10)
		d++;
	return d;
}

/* A raw number for CSV/JSON, or false when unknown (empty cell, JSON null). */
static bool raw(const struct table *t, const void *it, int c, char *buf, size_t n)
{
	const struct model *m = t->m;
	const struct task *task = task_of(it);
	double v;

	if (!columns_num(m, task, (enum col_id)c, &v))
		return false;
	if ((columns[c].type == CT_COUNTER || columns[c].type == CT_MS) && m->interval_s <= 0)
		return false;
	switch (columns[c].type) {
	case CT_MS:
		snprintf(buf, n, "%.3f", v);
		break;
	case CT_PCT:
		snprintf(buf, n, "%.1f", v);
		break;
	case CT_TIME:
		snprintf(buf, n, "%.*f", time_decimals(m, task), v);
		break;
	default:
		snprintf(buf, n, "%.0f", v);
		break;
	}
	return true;
}

/* JSON: the name and command line as the kernel has them (the writer escapes); no user: null. */
static const char *json(const struct table *t, const void *it, int c, char *buf, size_t n,
			size_t *len, char **owned)
{
	const struct task *task = task_of(it);
	size_t k, l;
	char *copy;

	(void)t;
	switch (c) {
	case COL_COMM:
		*len = strlen(task->comm);
		return task->comm;
	case COL_CMDLINE:
		l = task->cmdline_len;
		while (l && task->cmdline && task->cmdline[l - 1] == '\0')
			l--;
		if (!task->cmdline || !l) {
			snprintf(buf, n, task->cmdline || columns_kthread(task) ? "[%s]" : "%s", task->comm);
			*len = strlen(buf);
			return buf;
		}
		/* Arguments are NUL-separated: joined by spaces, like ps. */
		copy = l <= n ? buf : (*owned = xmalloc(l));
		for (k = 0; k < l; k++)
			copy[k] = task->cmdline[k] ? task->cmdline[k] : ' ';
		*len = l;
		return copy;
	case COL_USER:
		if (!task->user)
			return NULL;
		*len = strlen(task->user);
		return task->user;
	default:
		columns_text_model(t->m, task, (enum col_id)c, buf, n, TEXT_UTF8);
		*len = strlen(buf);
		return buf;
	}
}

/* The live ones first, whatever the order: the exited ones fill a busy box. */
static int sort_first(const struct table *t, const void *a, const void *b)
{
	char sa = task_of(a)->state, sb = task_of(b)->state;

	if (rows_of(t)->exited == EXITED_LAST && (sa == 'X') != (sb == 'X'))
		return sa == 'X' ? 1 : -1;
	return 0;
}

static int sort_last(const struct table *t, const void *a, const void *b)
{
	pid_t pa = task_of(a)->pid, pb = task_of(b)->pid;

	(void)t;
	return pa < pb ? -1 : pa > pb;
}

static bool match(const struct table *t, const void *it, const char *s)
{
	const struct rowset *rs = rows_of(t);
	const struct task *task = task_of(it);

	if (t->m->focus && !model_is_focused(t->m, task->tgid))
		return false;
	if (rs->exited == EXITED_HIDE && task->state == 'X')
		return false;
	if (rs->filter_uid >= 0 && task->uid != rs->filter_uid)
		return false;
	if (rs->hide_kthreads && columns_kthread(task))
		return false;
	return task_text_matches(task, s);
}

static void drill(const struct table *t, const void *it, struct drill *out)
{
	const struct task *task = task_of(it);

	(void)t;
	out->kind = DRILL_PROCESS;
	out->pid = task->tgid ? task->tgid : task->pid;
}

/*
 * Narrow terminals lose these first: the rarer rates, then what a top user can
 * spare. Where the time goes stays: RUNQ% and BLOCK% to 118 columns, then
 * WAIT% in their place (redundant); PID, state, CPU%, RES, TIME+ (htop
 * keeps it at 80) and the syscall count (what ktop is for) go last.
 */
static const int drop_order[] = {
	COL_THROTTLED, COL_MAJFLT, COL_SIGRECV, COL_IVCSW, COL_THREADS, COL_MINFLT, COL_VSZ, COL_TOPSC,
	COL_VCSW, COL_RUNQ, COL_BLOCKED, COL_MEM, COL_SYSERR, COL_USER, COL_NICE, COL_SYSC, COL_TIME,
	COL_RSS,
};

/* WAIT% says which of RUNQ%, BLOCK% (...) is largest: not where they show themselves. */
static bool redundant(const struct table *t, int c, const bool *kept)
{
	(void)t;
	return c == COL_WAIT && columns_wait_redundant(kept);
}
#define COMMAND_MIN_W 13

/*
 * COMMAND's least width: a third of the line (40 cells at 120 columns, htop
 * gives it about 55), so that a command started by its path shows more than
 * the start of the path; never below COMMAND_MIN_W.
 */
static int command_min(int w)
{
	return w / 3 > COMMAND_MIN_W ? w / 3 : COMMAND_MIN_W;
}

const struct table_def proc_table_def = {
	.rows_key = "processes",
	.pad_last = true,
	.line_max = 4096,
	.cell_max = 1024,
	.data_max = CMDLINE_TEXT_MAX,
	.col = col,
	.item = item,
	.num = num,
	.text = text,
	.cell = cell,
	.raw = raw,
	.json = json,
	.sort_first = sort_first,
	.sort_text_max = 256,
	.sort_text_how = TEXT_UTF8,
	.sort_last = sort_last,
	.match = match,
	.drill = drill,
	.drop_order = drop_order,
	.ndrop = ARRAY_SIZE(drop_order),
	.last_min = command_min,
	.redundant = redundant,
};

void proc_table(struct table *t, const struct model *m, const struct rowset *rs, const int *cols,
		size_t ncols)
{
	*t = (struct table){
		.def = &proc_table_def, .m = m, .src = rs, .cols = cols, .ncols = ncols,
		.nrows = rs->nrows, .sort = rs->sort_col, .dir = rs->sort_dir,
	};
}
