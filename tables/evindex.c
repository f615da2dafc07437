// SPDX-License-Identifier: GPL-2.0-only
#include "evindex.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/scnames.h"
#include "../lib/util.h"

#define EVINDEX_MIN 64

bool evfilter_match(const struct evfilter *f, const struct kev *e)
{
	char nb[SYSCALL_LABEL_BUF];

	if (f->kind >= 0 && e->kind != f->kind)
		return false;
	if (!f->syscall[0])
		return true;
	return e->kind == KEV_SYSCALL &&
	       !strcmp(syscall_label((unsigned)e->u.sc.nr, nb, sizeof(nb)), f->syscall);
}

/* evfilter_match, with the answer for each syscall number remembered. */
static bool match(struct evindex *ix, const struct evfilter *f, const struct kev *e)
{
	size_t slot;

	if (!f->syscall[0] || e->kind != KEV_SYSCALL || (f->kind >= 0 && e->kind != f->kind))
		return evfilter_match(f, e);
	slot = (size_t)e->u.sc.nr % EVINDEX_MEMO;
	if (ix->memo_nr[slot] != e->u.sc.nr) {
		ix->memo_nr[slot] = e->u.sc.nr;
		ix->memo_ok[slot] = evfilter_match(f, e);
	}
	return ix->memo_ok[slot];
}

static void memo_clear(struct evindex *ix)
{
	size_t i;

	for (i = 0; i < EVINDEX_MEMO; i++)
		ix->memo_nr[i] = -1;
}

void evindex_init(struct evindex *ix)
{
	memset(ix, 0, sizeof(*ix));
	memo_clear(ix);
}

void evindex_free(struct evindex *ix)
{
	free(ix->off);
	evindex_init(ix);
}

void evindex_clear(struct evindex *ix)
{
	ix->head = ix->n = 0;
	ix->base = ix->next = 0;
	memo_clear(ix);
}

/* Room for one more entry: the entries laid out again from slot 0. */
static void grow(struct evindex *ix, size_t bound)
{
	size_t ncap = ix->cap ? ix->cap * 2 : EVINDEX_MIN, i;
	uint32_t *no;

	if (ncap > bound)
		ncap = bound;
	if (ncap <= ix->n)
		ncap = ix->n + 1;	/* (never: n is at most the ring's bound) */
	no = xmalloc(ncap * sizeof(*no));
	for (i = 0; i < ix->n; i++)
		no[i] = ix->off[(ix->head + i) % ix->cap];
	free(ix->off);
	ix->off = no;
	ix->cap = ncap;
	ix->head = 0;
}

static void push(struct evindex *ix, uint64_t seq, size_t bound)
{
	size_t i;

	if (!ix->n)
		ix->base = seq;
	if (seq - ix->base > UINT32_MAX) {
		/* Billions of events on: the offsets start again from the oldest entry. */
		uint64_t nb = evindex_seq(ix, 0);

		for (i = 0; i < ix->n; i++)
			ix->off[(ix->head + i) % ix->cap] -= (uint32_t)(nb - ix->base);
		ix->base = nb;
	}
	if (ix->n == ix->cap)
		grow(ix, bound);
	ix->off[(ix->head + ix->n) % ix->cap] = (uint32_t)(seq - ix->base);
	ix->n++;
}

size_t evindex_sync(struct evindex *ix, const struct evring *r, uint64_t end,
		    const struct evfilter *f)
{
	size_t dropped = 0;
	uint64_t s;

	/* Fewer events than already looked at: not the ring the index was made of. */
	if (r->pushed < ix->next)
		evindex_clear(ix);
	while (ix->n && evindex_seq(ix, 0) < r->first) {
		ix->head = (ix->head + 1) % ix->cap;
		ix->n--;
		dropped++;
	}
	if (end > r->pushed)
		end = r->pushed;
	for (s = ix->next > r->first ? ix->next : r->first; s < end; s++)
		if (match(ix, f, evring_at(r, s)))
			push(ix, s, r->max);
	if (end > ix->next)
		ix->next = end;
	return dropped;
}

size_t evindex_lower(const struct evindex *ix, uint64_t seq)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (evindex_seq(ix, mid) < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool evindex_near(const struct evindex *ix, uint64_t seq, size_t *pos)
{
	size_t p;

	if (!ix->n)
		return false;
	p = evindex_lower(ix, seq);
	if (p < ix->n && evindex_seq(ix, p) == seq)
		*pos = p;
	else
		*pos = p ? p - 1 : 0;
	return true;
}
