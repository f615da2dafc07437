/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_EVRING_H
#define KTOP_EVRING_H

/*
 * lib/evring: a bounded ring of fixed-size records (a focused process's
 * recent kernel events, its variable samples, its signals). It grows by
 * doubling up to @max entries, then overwrites the oldest: memory stays
 * bounded however long ktop runs, and a quiet process costs little.
 *
 * Entries are addressed by their sequence number (0 for the first pushed,
 * counting on for ever), so a reference to an entry (an event's variable
 * sample) stays valid or is known to be gone. No I/O, no curses.
 */

#include <stddef.h>
#include <stdint.h>

struct evring {
	unsigned char *buf;
	size_t esize;		/* bytes of one entry */
	size_t cap;		/* entries allocated (grows to max) */
	size_t max;		/* the bound */
	uint64_t pushed;	/* entries ever pushed: the next sequence number */
	uint64_t first;		/* sequence number of the oldest kept */
};

void evring_init(struct evring *r, size_t esize, size_t max);
void evring_free(struct evring *r);

/*
 * evring_push - room for the next entry, zeroed
 *
 * The oldest entry is dropped when the ring holds @max. The returned pointer
 * belongs to the ring and is valid until the next push.
 */
void *evring_push(struct evring *r);

/* The entry with sequence number @seq, or NULL when it was dropped or not pushed. */
void *evring_at(const struct evring *r, uint64_t seq);

/* Entries kept now. */
static inline size_t evring_count(const struct evring *r)
{
	return (size_t)(r->pushed - r->first);
}

/* Bytes allocated (for the memory report). */
static inline size_t evring_bytes(const struct evring *r)
{
	return r->cap * r->esize;
}

#endif
