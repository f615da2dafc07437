/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_COUNTERS_H
#define KTOP_COUNTERS_H

/*
 * model/counters: the per-task counters, named once in the catalog
 * (model/counters.def, one row each). Monotonic per-task counters: each is
 * read from one source (the row's SRC and DOC) and turned into a count
 * within the interval when it was read in two consecutive ticks; an event
 * counter is the interval's count itself.
 */

enum counter {
#define COUNTER(id, src, family, label, doc) CNT_##id,
#include "counters.def"
	CNT_NR
};

/*
 * COUNTERS_IF_STATE(src, x): x for a row whose SRC is STATE (the time of
 * a thread state), nothing for the others: for the tables made of the state
 * rows only (collectors/trace/evsums.h).
 */
#define COUNTERS_IF_STATE(src, ...) COUNTERS_IF_STATE_##src(__VA_ARGS__)
#define COUNTERS_IF_STATE_STATE(...) __VA_ARGS__
#define COUNTERS_IF_STATE_PROC(...)
#define COUNTERS_IF_STATE_EVENTS(...)
#define COUNTERS_IF_STATE_CALLS(...)

/* The state split's counters (SRC STATE), a bit per enum counter. */
enum {
	CNT_STATE_MASK = 0
#define COUNTER(id, src, family, label, doc) COUNTERS_IF_STATE(src, | (1 << CNT_##id))
#include "counters.def"
};

#endif
