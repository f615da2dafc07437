/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SUMMARY_H
#define KTOP_SUMMARY_H

/*
 * ktop --summary: the per-syscall table of strace -c -f (time, calls, errors),
 * with each call's kernel subsystem, then the totals per subsystem; as text,
 * CSV or JSON. Formatting only: the numbers are the model's (model.sc_total),
 * the only I/O is writing to the FILE given.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "batch.h"
#include "../lib/sctable.h"

/* A watched process that gained privileges (ktop not root): not counted since. */
/* --summary: the order of the per-syscall table (-s KEY). */
enum summary_sort { SUM_TIME, SUM_CALLS, SUM_ERRORS, SUM_AVG, SUM_MAX, SUM_NAME };

struct summary_priv {
	pid_t pid;
	char comm[16];			/* the program it ran then; raw, may be "" */
};

struct summary_info {
	enum out_format fmt;
	enum summary_sort sort;
	bool asc;
	char *const *cmd;		/* -- CMD: its argv; NULL with -p */
	const pid_t *pids;		/* -p: the pids named */
	size_t npids;
	const char *ended;		/* CMD: "exited with status 0" ...; NULL if unknown */
	int exit_code;			/* CMD's, as a shell reports it; with ended */
	const pid_t *exited;		/* -p: named pids that exited while watched */
	size_t nexited;
	double elapsed_s;
	size_t nprocs;			/* processes watched (named and followed) */
	uint64_t lost;			/* events the kernel lost: counts may be short */
	bool lost_unknown;
	const struct summary_priv *priv;
	size_t npriv;
	const char *untimed;		/* why calls have no time; NULL: the live reasons */
};

/*
 * summary_write - write the summary of @t (calls of every watched process)
 *
 * Returns 0, or -errno when writing failed.
 */
int summary_write(FILE *f, const struct sctable *t, const struct summary_info *si);
/*
 * One line per process that gained privileges: the text summary has them; with
 * CSV and JSON the caller writes them to stderr.
 */
void summary_write_priv(FILE *f, const struct summary_info *si);

#endif
