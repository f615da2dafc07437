/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_EVINDEX_H
#define KTOP_EVINDEX_H

/*
 * tables/evindex: the events of a focused process's ring (lib/evring.h, of
 * struct kev) that pass the event list's filter, as the list the event list
 * scrolls with tables/list.c. Pure, no I/O.
 *
 * The index holds the sequence numbers of the passing events, oldest first,
 * kept as events arrive (each event is looked at once per filter) and
 * trimmed as the ring drops them: a position in it is a line of the list, a
 * sequence number is an event, so a selection kept as a sequence number
 * stays on its event however the list moves. Each entry is 4 bytes (its
 * distance from a base; every kept event is within the ring's bound of the
 * oldest), and there are never more than the ring keeps: at the largest
 * ring (--events 4194304) at most 16 MiB, at the default (4096) 16 KiB,
 * allocated as the passing events need it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/evring.h"
#include "../model/kev.h"

/* What the event list shows: a kind and a syscall's name (its label). */
struct evfilter {
	int kind;		/* enum kev_kind; -1 = every kind */
	char syscall[64];	/* syscall_label()'s text; "" = every call */
};

struct evindex {
	uint32_t *off;		/* circular, @cap entries from @head: seq - @base, oldest first */
	size_t cap, head, n;
	uint64_t base;
	uint64_t next;		/* the ring's events before it have been looked at */
	/*
	 * The syscall numbers met, by their low bits, and whether their name
	 * is the filter's: a name lookup per number, not per event.
	 */
#define EVINDEX_MEMO 64
	int64_t memo_nr[EVINDEX_MEMO];	/* -1: none */
	bool memo_ok[EVINDEX_MEMO];
};

/* Whether @e passes @f. */
bool evfilter_match(const struct evfilter *f, const struct kev *e);

void evindex_init(struct evindex *ix);
void evindex_free(struct evindex *ix);
/* Forget every entry (a new filter, another ring): the next sync looks at every kept event. */
void evindex_clear(struct evindex *ix);

/*
 * evindex_sync - the index brought up to the ring @r: the events it dropped
 * leave the front, its events up to @end (exclusive: the list's end, earlier
 * while paused) that pass @f join the back. @f must be the filter the index
 * was built with since the last evindex_clear. Returns how many entries
 * left the front (the lines the list moved up by).
 */
size_t evindex_sync(struct evindex *ix, const struct evring *r, uint64_t end,
		    const struct evfilter *f);

/* The sequence number of entry @i (0 = the oldest; @i < n). */
static inline uint64_t evindex_seq(const struct evindex *ix, size_t i)
{
	return ix->base + ix->off[(ix->head + i) % ix->cap];
}

/* The position of the first entry at or after event @seq; n when none is. */
size_t evindex_lower(const struct evindex *ix, uint64_t seq);

/*
 * evindex_near - where a selection on event @seq goes: @seq's own entry, or
 * (it left the ring, or the filter hides it) the last entry before it, or
 * the first after when none is before. False when the index is empty.
 */
bool evindex_near(const struct evindex *ix, uint64_t seq, size_t *pos);

/* Bytes allocated (the memory report). */
static inline size_t evindex_bytes(const struct evindex *ix)
{
	return ix->cap * sizeof(*ix->off);
}

#endif
