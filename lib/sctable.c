// SPDX-License-Identifier: GPL-2.0-only
#include "sctable.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* What every table's slots and histograms take (sctable_live_bytes). */
static size_t live;

static uint32_t slot_of(uint32_t nr, uint32_t cap)
{
	/* Must agree with sctable_get's inline first probe. */
	return (nr * 2654435769u >> 16) & (cap - 1);
}

static struct sc_stat *probe(struct sc_stat *slots, uint32_t cap, uint32_t nr)
{
	uint32_t i = slot_of(nr, cap);

	while (slots[i].nr != nr && slots[i].nr != SC_EMPTY)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void alloc_slots(struct sctable *t, uint32_t cap)
{
	uint32_t i;

	t->slots = xmalloc(cap * sizeof(*t->slots));
	live += cap * sizeof(*t->slots);
	for (i = 0; i < cap; i++)
		t->slots[i].nr = SC_EMPTY;
	t->cap = cap;
	t->hot = 0;
}

static void grow(struct sctable *t)
{
	struct sc_stat *old = t->slots;
	struct lathist *oldh = t->hist;
	uint32_t oldcap = t->cap, i;

	alloc_slots(t, oldcap ? oldcap * 2 : 16);
	if (oldh) {
		t->hist = xcalloc(t->cap, sizeof(*t->hist));
		live += t->cap * sizeof(*t->hist) - oldcap * sizeof(*oldh);
	}
	for (i = 0; i < oldcap; i++) {
		struct sc_stat *s;

		if (old[i].nr == SC_EMPTY)
			continue;
		s = probe(t->slots, t->cap, old[i].nr);
		*s = old[i];
		if (oldh)
			t->hist[s - t->slots] = oldh[i];
	}
	live -= oldcap * sizeof(*old);
	free(old);
	free(oldh);
}

struct sc_stat *sctable_slow_get(struct sctable *t, uint32_t nr)
{
	struct sc_stat *s;

	if (!t->cap)
		grow(t);
	s = probe(t->slots, t->cap, nr);
	if (s->nr != nr) {
		/* Keep the load under 3/4 so probes stay short. */
		if ((t->used + 1) * 4 > t->cap * 3) {
			grow(t);
			s = probe(t->slots, t->cap, nr);
		}
		memset(s, 0, sizeof(*s));
		if (t->hist)
			memset(&t->hist[s - t->slots], 0, sizeof(*t->hist));
		s->nr = nr;
		t->used++;
	}
	/* Not in its first slot (sctable_get looked): the next lookup looks here second. */
	t->hot = (uint32_t)(s - t->slots);
	return s;
}

const struct sc_stat *sctable_find(const struct sctable *t, uint32_t nr)
{
	const struct sc_stat *s;

	if (!t->cap || nr == SC_EMPTY)
		return NULL;
	s = probe(t->slots, t->cap, nr);
	return s->nr == nr ? s : NULL;
}

void sctable_clear(struct sctable *t)
{
	uint32_t i;

	if (!t->used)
		return;
	for (i = 0; i < t->cap; i++)
		t->slots[i].nr = SC_EMPTY;
	t->used = 0;
}

void sctable_free(struct sctable *t)
{
	live -= sctable_mem(t);
	free(t->slots);
	free(t->hist);
	t->slots = NULL;
	t->hist = NULL;
	t->cap = t->used = t->hot = 0;
}

void sctable_stat_add(struct sc_stat *dst, const struct sc_stat *src)
{
	dst->calls += src->calls;
	dst->errors += src->errors;
	dst->time_ns += src->time_ns;
	dst->timed += src->timed;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	if (src->top_errno)
		dst->top_errno = src->top_errno;
}

void sctable_hist_alloc(struct sctable *t)
{
	if (!t->hist) {
		t->hist = xcalloc(t->cap, sizeof(*t->hist));
		live += t->cap * sizeof(*t->hist);
	}
}

size_t sctable_mem(const struct sctable *t)
{
	return t->cap * (sizeof(*t->slots) + (t->hist ? sizeof(*t->hist) : 0));
}

size_t sctable_live_bytes(void)
{
	return live;
}

static struct lathist *hist_of(struct sctable *t, struct sc_stat *s)
{
	sctable_hist_alloc(t);
	return &t->hist[s - t->slots];
}

void sctable_add(struct sctable *dst, uint32_t nr, const struct sctable *src,
		  const struct sc_stat *s)
{
	struct sc_stat *d = sctable_get(dst, nr);

	sctable_stat_add(d, s);
	if (src->hist && s->timed)
		lathist_add(hist_of(dst, d), &src->hist[s - src->slots]);
}

void sctable_merge(struct sctable *dst, const struct sctable *src)
{
	uint32_t i;

	for (i = 0; i < src->cap; i++)
		if (src->slots[i].nr != SC_EMPTY)
			sctable_add(dst, src->slots[i].nr, src, &src->slots[i]);
}

void sctable_put_hist(struct sctable *t, struct sc_stat *s, const struct lathist *h)
{
	lathist_add(hist_of(t, s), h);
}

const struct lathist *sctable_hist(const struct sctable *t, const struct sc_stat *s)
{
	return t->hist && s && s->timed ? &t->hist[s - t->slots] : NULL;
}

uint64_t sctable_hist_sum(const struct sctable *t, struct lathist *out, uint64_t *max_ns)
{
	uint32_t i;

	memset(out, 0, sizeof(*out));
	*max_ns = 0;
	for (i = 0; t->hist && i < t->cap; i++) {
		const struct sc_stat *s = &t->slots[i];

		if (s->nr == SC_EMPTY || !s->timed)
			continue;
		lathist_add(out, &t->hist[i]);
		if (s->max_ns > *max_ns)
			*max_ns = s->max_ns;
	}
	return lathist_count(out);
}

static int before(const struct sc_stat *a, const struct sc_stat *b)
{
	if (a->calls != b->calls)
		return a->calls > b->calls;
	return a->nr < b->nr;
}

const struct sc_stat *sctable_top(const struct sctable *t)
{
	const struct sc_stat *best = NULL;
	uint32_t i;

	for (i = 0; i < t->cap; i++)
		if (t->slots[i].nr != SC_EMPTY && (!best || before(&t->slots[i], best)))
			best = &t->slots[i];
	return best;
}

static int cmp_stat(const void *pa, const void *pb)
{
	const struct sc_stat *a = *(const struct sc_stat *const *)pa;
	const struct sc_stat *b = *(const struct sc_stat *const *)pb;

	return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

size_t sctable_sorted(const struct sctable *t, const struct sc_stat **out)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < t->cap; i++)
		if (t->slots[i].nr != SC_EMPTY)
			out[n++] = &t->slots[i];
	sort_array(out, n, sizeof(*out), cmp_stat);
	return n;
}

uint64_t sctable_time_ns(const struct sctable *t)
{
	uint64_t ns = 0;
	uint32_t i;

	for (i = 0; i < t->cap; i++)
		if (t->slots[i].nr != SC_EMPTY)
			ns += t->slots[i].time_ns;
	return ns;
}
