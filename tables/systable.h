/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SYSTABLE_H
#define KTOP_SYSTABLE_H

/*
 * tables/systable: the system-wide views as tables. Each view (Syscalls,
 * Errors, Subsystems, Signals, Groups, and the processes behind a row of
 * one of them) has a column catalog, like the process table's (columns.h),
 * and a row set: its rows filtered and sorted, read through one accessor
 * per cell. The screen (views/sysview.c) and the batch writers
 * (outputs/batch.c) read the same tables, so both show the same numbers.
 *
 * The rows come from the model's aggregations (model/systotals.h, sigflow.h)
 * and from a struct groups (groups.h) the caller owns. A row set holds
 * indexes into them, valid until the next tick (systable_refresh again).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/cgroup.h"
#include "columns.h"
#include "../model/model.h"
#include "../model/sigflow.h"
#include "table.h"

struct groups;

enum view_kind {
	VIEW_PROCESSES,		/* the process table (views/tableview.c, the batch rows) */
	VIEW_SYSCALLS,
	VIEW_ERRORS,
	VIEW_SUBSYSTEMS,
	VIEW_SIGNALS,
	VIEW_GROUPS,
	VIEW_LATENCY,		/* the system calls' durations (--latency) */
	VIEW_CONNECTIONS,	/* the sockets of the interval (tables/conntable.h) */
	VIEW_DISKS,		/* the block devices (model/disks.h) */
	VIEW_CALLERS,		/* the rows behind a row of another view (drill-down) */
	VIEW_NR
};
/* The views --view names (VIEW_CALLERS is reached from another view only). */
#define VIEW_NAMED VIEW_CALLERS

/*
 * "processes", "syscalls", "errors", "subsystems", "signals", "groups",
 * "latency", "connections", "disks", "callers".
 */
const char *systable_name(enum view_kind k);
/* "Processes", "Syscalls", ... as the screen titles them. */
const char *systable_title(enum view_kind k);
/* The view named @s (one of the --view words): 0, or -EINVAL. */
int systable_parse(const char *s, enum view_kind *k);
/* Does the view show kernel events only (nothing to show without tracing)? */
bool systable_traced(enum view_kind k);

enum av_type {
	AV_STR,		/* text */
	AV_INT,		/* a whole number (a pid, a count of rows) */
	AV_COUNT,	/* events within the interval; screens show it per second */
	AV_TOTAL,	/* events since the first interval */
	AV_PCT,		/* percent, one decimal */
	AV_KB,		/* KiB; screens scale it */
	AV_TIME,	/* seconds of CPU */
	AV_MS,		/* ms within the interval (3 decimals); screens: share of it, 100 = one thread */
	/*
	 * ms within the interval (3 decimals), spent by any number of threads:
	 * screens show it per second, scaled ("3.70s": 3.7 threads in it on
	 * average), not as a share that passes 100.
	 */
	AV_MS_PER_S,
	AV_USEC,	/* a duration in microseconds; screens scale it: "48.7ms" */
	AV_USEC_BOUND,	/* likewise, an upper bound (a percentile): "≤262ms" */
	AV_MEAN,	/* a mean number of things (requests in flight), two decimals */
	AV_GRAPH,	/* the screen's history graph; not written in batch */
};

/* A Groups column from the group's cgroup (enum cgres_field; CGF_NR: its alerts). */
#define AV_CGRES(f) (-100 - (int)(f))
#define AV_CGRES_ID (-2)

struct av_col {
	const char *key;	/* CSV/JSON name, stable */
	const char *title;	/* screen header */
	int width;
	bool left;
	enum av_type type;
	enum sort_dir sort_default;
	int pcol;		/* groups, callers: the process column (enum col_id); -1 = own */
				/* groups: AV_CGRES(field) its cgroup's (model/cgres.h), AV_CGRES_ID */
	const char *doc;
};

/* The columns of view @k; *n gets how many. */
const struct av_col *systable_columns(enum view_kind k, size_t *n);
/* The column of view @k named @key, or -1. */
int systable_col_by_key(enum view_kind k, const char *key);
/* The column a view sorts by unless told otherwise. */
int systable_default_sort(enum view_kind k);

struct systable {
	enum view_kind kind;
	int sort;			/* a column of the view */
	enum sort_dir dir;
	char filter[128];		/* rows whose text holds it (any case); "" = all */
	int sub;			/* syscalls: only this subsystem's; -1 = all */
	struct av_drill drill;		/* callers: whose */
	bool by_comm;			/* signals: one row per (sender, receiver) name */
	struct sigflows merged;		/* ... those rows (sigflows_by_comm), owned */

	/* Set by systable_refresh: the sources and the rows shown, in order. */
	const struct model *m;
	const struct groups *gr;
	size_t *idx;
	size_t n, cap;
	const struct task **tasks;	/* callers: the rows' tasks */
	size_t ntasks, cap_tasks;
};

void systable_init(struct systable *v, enum view_kind k);
void systable_free(struct systable *v);

/*
 * systable_refresh - the rows of @v from @m (and @gr for groups), filtered and
 * sorted. @gr may be NULL except for VIEW_GROUPS and a drill into a group.
 */
void systable_refresh(struct systable *v, const struct model *m, const struct groups *gr);

/* Does the callers view of @d count @t (a row of @m this tick)? */
bool systable_drill_match(const struct model *m, const struct av_drill *d, const struct task *t);

/*
 * The number in column @col of row @row (0 .. n-1, in order); false when not
 * known (the baseline interval, tracing off, not a number).
 */
bool systable_num(const struct systable *v, size_t row, int col, double *out);
/*
 * The text of column @col of row @row, sanitized for a terminal (@utf8 as in
 * sanitize_text) or a file. Numbers as raw numbers. Returns @buf.
 */
const char *systable_text(const struct systable *v, size_t row, int col, char *buf, size_t n,
			 int utf8);
/* The task of callers row @row, or NULL. */
const struct task *systable_task(const struct systable *v, size_t row);

/* What a row is, for a drill-down from it (the row's identity). */
struct av_row_id {
	uint32_t nr, err;		/* syscalls, errors */
	int sub;			/* subsystems */
	pid_t sender, receiver;		/* signals */
	const char *key;		/* groups: its key (the groups' own copy) */
	pid_t pid;			/* callers: the task's; connections: its process (0 none) */
};
bool systable_row_id(const struct systable *v, size_t row, struct av_row_id *id);

/* The rate per second of a count, for the screen; false before an interval. */
bool systable_rate(const struct systable *v, double count, double *out);

/* The system-wide views' table definition (table.h): cells, sort keys, filter, drill. */
extern const struct table_def aggview_table_def;
/* systable_table - @t over @v's rows (as last refreshed), showing @cols. */
void systable_table(struct table *t, const struct systable *v, const int *cols, size_t ncols);
/* The columns of view @k a file gets (all but the graph) into @cols (room for 64): how many. */
size_t systable_written_columns(enum view_kind k, int *cols);

/*
 * The screen text of cell (@row, @col) of a system-wide view, as fmt_cell:
 * counts of the interval per second, totals whole (compact when wider than
 * the column), "-" when not known; "" for the graph column (drawn apart).
 */
const char *systable_cell(const struct systable *v, size_t row, int col, char *buf, size_t n,
			int utf8);

#endif
