/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SIGFLOW_H
#define KTOP_SIGFLOW_H

/*
 * model/sigflow: who signals whom, system-wide. One row per (sender process,
 * receiving process, signal, result of signal_generate), with the count of
 * the interval and the total since ktop started. Sources hand the interval's
 * flows in the sample (struct sig_flow); the model keeps them here.
 *
 * Bounded: past SIGFLOW_MAX rows, the rows that had no signal this interval
 * are folded into one "other" row (their totals move there), and when none is
 * idle a new flow's signals go there: the sums stay exact, the rows stay few.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sample.h"

#define SIGFLOW_MAX 4096

/* signal_generate's result (TRACE_SIGNAL_*, include/trace/events/signal.h). */
enum sig_result {
	SIGRES_DELIVERED,	/* queued */
	SIGRES_IGNORED,		/* the receiver ignores it: dropped */
	SIGRES_ALREADY_PENDING,	/* a standard signal already pending: merged */
	SIGRES_OVERFLOW_FAIL,	/* the queue was full: not sent */
	SIGRES_LOSE_INFO,	/* queued without its siginfo */
	SIGRES_NR
};

/* "delivered", "ignored", "already_pending", "overflow_fail", "lose_info"; else "result_N". */
const char *sig_result_name(int result, char *buf, size_t n);

struct sigflow {
	pid_t sender;		/* 0: the kernel (no sending task); -1: the other row */
	pid_t receiver;
	int sig, result;
	uint64_t n;		/* this interval */
	uint64_t total;		/* since the first interval (the baseline excluded) */
	char sender_comm[16];	/* the last name known; may be "" */
	char receiver_comm[16];
};

struct sigflows {
	struct sigflow *v;
	size_t n, cap;
	uint32_t *index;	/* open addressing over v: index + 1, 0 = empty */
	size_t index_cap;
	struct sigflow other;	/* flows not kept (see above); sender = receiver = -1 */
	uint64_t n_all, total_all;	/* every row's, the other one's included */
};

void sigflows_init(struct sigflows *f);
void sigflows_free(struct sigflows *f);
/* A new interval: every row's count is 0 again. */
void sigflows_begin(struct sigflows *f);
/* Add an interval's flow (@in->n signals). */
void sigflows_add(struct sigflows *f, const struct sig_flow *in);
/* A merged row's sender or receiver when the rows merged had several. */
#define SIGFLOW_SEVERAL (-2)

/*
 * sigflows_by_comm - @in's rows merged per (sender's name, receiver's name,
 * signal, result): a shell loop's 30 children make one row. Counts and totals
 * are summed; a merged row's sender (receiver) is SIGFLOW_SEVERAL when its
 * rows had more than one. @out (sigflows_init'ed) is rebuilt, reusing its
 * memory, and has no index: read its rows, do not add to it.
 */
void sigflows_by_comm(const struct sigflows *in, struct sigflows *out);

/* The row of (@sender, @receiver, @sig, @result), or NULL. */
const struct sigflow *sigflows_find(const struct sigflows *f, pid_t sender, pid_t receiver,
				    int sig, int result);

#endif
