/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SCCACHE_H
#define KTOP_SCCACHE_H

/*
 * store/sccache: the id a recording gave a syscall table, found by the
 * table's contents without writing its text. The recorder names a table by
 * its row of sctab (JSON text, once per distinct one) every interval, for
 * every process that made calls, twice (the samples' rows and the task
 * rows): most are the same as one stored before, and writing the text only
 * to find that out was most of the recorder's time. A table is found by a
 * hash of its entries that does not depend on their order in the slots,
 * then checked entry by entry, so two tables are one only when their
 * numbers are. Tables with durations (--latency histograms) are not kept:
 * they go the way of the text.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/sctable.h"

struct sccache {
	struct sccache_slot *v;		/* open addressing; id 0 = free */
	size_t cap, n;
};

void sccache_init(struct sccache *c);
/* Forget every table (a new file: its ids are its own). Keeps nothing allocated. */
void sccache_clear(struct sccache *c);
/* The id @t (@err: a table of errors) was given, or 0 when not known. */
int64_t sccache_get(const struct sccache *c, const struct sctable *t, bool err);
/* Remember @t (copied: the cache owns its copy) as @id (> 0). */
void sccache_put(struct sccache *c, const struct sctable *t, bool err, int64_t id);

#endif
