/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_EXITS_H
#define KTOP_EXITS_H

/*
 * collectors/exits/exits: dead tasks' final numbers, from the kernel's exit records
 * (taskstats.h, taskparse.h), as final readings of the sample (task_final):
 *
 *   taskstats socket -> taskstats_drain (at POLLIN and each tick) -> records
 *   -> per row: matched to the model's task, summed over a process's threads
 *   -> task_final -> model_apply
 *
 * A task that lived and died between two ticks gets a row (state X) with its
 * CPU time, faults, switches and (real) user; one that /proc read at the
 * previous tick and that died since counts its record less that reading.
 * Its CPU time is the record's and what the events saw after it (lifecpu.h).
 *
 * When: at a tick, after /proc was read and the trace events applied. The
 * kernel queues a task's record before its exit event and long before its
 * /proc files fail (it is reaped later still), so whatever death the model
 * knows of this tick has its record queued already: drained then, it is
 * never a tick late. A record may come early (a zombie /proc still reads,
 * an exit event on a CPU not read yet): it waits, matched to nothing, until
 * its task's row is dead, at most EXITS_WAIT_TICKS ticks.
 *
 * A record whose start does not fit the task the model has under its pid,
 * or that comes while that task lives and an earlier life of the pid ended
 * this tick (model_past_find), is an earlier life's: given at once, the model
 * makes it that life's row (pid reuse, model.h).
 *
 * A process's row (not threads mode) sums its threads' records; the last
 * one (group_dead) ends it. When a multi-threaded process started before
 * ktop listened, or records were dropped during its life, the sum is not its
 * whole: its row gets no counters (unknown, never short).
 *
 * ktop's own records (a child whose exec failed) are skipped; so are those
 * of processes outside the focus (-p, -- CMD).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "taskparse.h"
#include "../../model/model.h"

#define EXITS_WAIT_TICKS 3

struct exits;

struct exits_stats {
	uint64_t records;	/* read */
	uint64_t rows;		/* final readings given to the model */
	uint64_t unmatched;	/* waited EXITS_WAIT_TICKS for a dead row in vain */
	uint64_t partial;	/* processes whose threads' sum is not whole: counters left unknown */
	uint64_t lost;		/* dropped by the kernel */
	uint64_t unborn;	/* waited a tick for their fork (exits_collect's @forks_next) */
};

/*
 * exits_new - the collector, not listening yet
 * @hz: clock ticks per second (the /proc start times the records are matched to)
 */
struct exits *exits_new(long hz);
void exits_free(struct exits *x);

/*
 * exits_listen - open the taskstats listener
 * @rcvbuf: its receive buffer, bytes; 0 = TS_RCVBUF_DEFAULT
 *
 * Returns 0, or -errno with exits_status saying why in one line ("exit
 * records off: taskstats: needs root (CAP_NET_ADMIN)").
 */
int exits_listen(struct exits *x, size_t rcvbuf);
/* Not listening, for the reason @why (the header's words). */
void exits_off(struct exits *x, const char *why);
bool exits_on(const struct exits *x);
/* Why there are no exit records; "" when listening. */
const char *exits_status(const struct exits *x);
/* The descriptor for poll() (POLLIN: records queued); -1 when off. */
int exits_fd(const struct exits *x);
/* POLLIN: read the queued records (bounded), keeping them for the tick. */
void exits_drain(struct exits *x);
/* Records as if read from the socket (tests; a replayed recording). */
void exits_feed(struct exits *x, const struct taskparse_exit *v, size_t n);

/*
 * A tick begins, before any source reads (the fork events, /proc): a task
 * that started before it and lives is read this tick, so one whose record
 * says it started before the previous tick's beginning and that has no
 * reading of then was missed, and its counts cannot all be this interval's.
 */
void exits_begin(struct exits *x);

/*
 * exits_collect - the dead tasks' final readings, into @s
 * @m: the model with this tick's /proc readings and events applied; read only
 * @later: rows whose end the events tell next tick (counting_held); their
 *	records wait like those of rows alive
 * @forks_next: the events are counted and another tick follows: a record
 *	of a process the model has no task of was forked after the events'
 *	cut, and /proc did not list it; it waits a tick, once, for its fork,
 *	its events and /proc's reading (a zombie not reaped is Z, not X)
 *
 * Drains the socket first. Sets the sample's lost exit records of the interval.
 */
void exits_collect(struct exits *x, const struct model *m, struct sample *s,
		   const pid_t *later, size_t nlater, bool forks_next);

void exits_get_stats(const struct exits *x, struct exits_stats *st);

#endif
