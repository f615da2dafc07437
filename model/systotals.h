/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SYSTOTALS_H
#define KTOP_SYSTOTALS_H

/*
 * model/systotals: the whole system's system calls, failed calls per errno and
 * kernel subsystems, summed from the same per-process tables the process
 * table shows (task->sc), the rows of processes that exited in the interval
 * included: a syscall's calls are exactly the sum of its callers' calls.
 * Computed once a tick (systotals_update, from model_end_tick), kept with the
 * totals since the first interval (the baseline tick is not counted, as for
 * every count).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/sctable.h"
#include "../lib/scnames.h"

struct model;
struct task;

/* Intervals of calls/s a subsystem's graph keeps. */
#define SYSAGG_HIST 120

/* One system call, the whole system. */
struct systotals_sc {
	uint32_t nr;
	enum subsystem sub;
	uint64_t calls, errors;			/* the interval */
	uint64_t calls_total, errors_total;	/* since the first interval */
	uint32_t top_errno;			/* the interval's most frequent; 0 = none */
	uint32_t top_errno_total;		/* since the first interval */
	uint32_t procs;				/* rows (processes, threads) that made it */
};

/* One (system call, errno) pair: the rows' error tables (task.err) summed. */
struct systotals_err {
	uint32_t nr, err;
	enum subsystem sub;
	uint64_t n, total;
	uint32_t procs;
};

/* One kernel subsystem. */
struct systotals_sub {
	uint64_t calls, errors, calls_total, errors_total;
	uint32_t procs;			/* rows that made one of its calls */
	uint32_t nsyscalls;		/* its calls made this interval */
	float hist[SYSAGG_HIST];	/* calls/s of the last intervals, a ring */
};

struct systotals {
	uint64_t tick;			/* the model's tick it was computed for */
	bool valid;			/* the interval's counts are known (not the baseline) */
	struct sctable now, total;	/* per syscall: the interval's, since the first */
	struct sctable err_now, err_total;	/* per (syscall, errno): sc_err_key */
	struct systotals_sc *sc;		/* every syscall seen since the first interval, by number */
	size_t nsc, cap_sc;
	struct systotals_err *err;		/* every pair seen, by (number, errno) */
	size_t nerr, cap_err;
	struct systotals_sub sub[SUB_NR];
	size_t hist_pos, hist_n;	/* the graphs' next slot and how many are filled */
	uint64_t calls, errors;		/* the interval's, every row */
	uint64_t calls_total, errors_total;
	uint32_t rows;			/* rows whose calls are counted */
};

void systotals_init(struct systotals *g);
void systotals_free(struct systotals *g);

/*
 * Does @t's table count this tick? It was seen this tick (not a frozen
 * exited row) and is focused; its events were counted (not another user's).
 */
bool systotals_counts(const struct model *m, const struct task *t);

/* This tick's sums from @m's rows; once per tick (model_end_tick calls it). */
void systotals_update(struct systotals *g, const struct model *m);

/* The row of syscall @nr, or NULL (never seen). */
const struct systotals_sc *systotals_find_sc(const struct systotals *g, uint32_t nr);
const struct systotals_err *systotals_find_err(const struct systotals *g, uint32_t nr, uint32_t err);
/* The calls/s of subsystem @sub @ago intervals back (0 = the last); false if not known. */
bool systotals_hist(const struct systotals *g, enum subsystem sub, size_t ago, double *out);

#endif
