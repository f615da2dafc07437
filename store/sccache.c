// SPDX-License-Identifier: GPL-2.0-only
#include "sccache.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"

/* Past this many tables the cache starts over (the text's dedup still finds them). */
#define SCCACHE_MAX 65536

struct sccache_slot {
	uint64_t hash;
	int64_t id;
	bool err;
	uint32_t n;
	struct sc_stat *v;	/* its n entries, owned */
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static uint64_t stat_hash(const struct sc_stat *s)
{
	uint64_t h = mix(s->nr ^ (uint64_t)s->top_errno << 32);

	h = mix(h ^ s->calls);
	h = mix(h ^ s->errors);
	h = mix(h ^ s->timed);
	h = mix(h ^ s->time_ns);
	return mix(h ^ s->max_ns);
}

/* A sum over the entries: the same for any order of the slots. */
static uint64_t table_hash(const struct sctable *t, bool err)
{
	uint64_t h = mix(t->used * 2u + err);
	uint32_t k;

	for (k = 0; k < t->cap; k++)
		if (t->slots[k].nr != SC_EMPTY)
			h += stat_hash(&t->slots[k]);
	return h;
}

static bool stat_eq(const struct sc_stat *a, const struct sc_stat *b)
{
	return a->nr == b->nr && a->top_errno == b->top_errno && a->calls == b->calls &&
	       a->errors == b->errors && a->timed == b->timed && a->time_ns == b->time_ns &&
	       a->max_ns == b->max_ns;
}

/* As many entries, each found in @t with the same numbers: the same table. */
static bool slot_is(const struct sccache_slot *e, const struct sctable *t, bool err, uint64_t h)
{
	uint32_t i;

	if (e->hash != h || e->err != err || e->n != t->used)
		return false;
	for (i = 0; i < e->n; i++) {
		const struct sc_stat *f = sctable_find(t, e->v[i].nr);

		if (!f || !stat_eq(f, &e->v[i]))
			return false;
	}
	return true;
}

void sccache_init(struct sccache *c)
{
	memset(c, 0, sizeof(*c));
}

void sccache_clear(struct sccache *c)
{
	size_t i;

	for (i = 0; i < c->cap; i++)
		free(c->v[i].v);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int64_t sccache_get(const struct sccache *c, const struct sctable *t, bool err)
{
	uint64_t h;
	size_t i;

	if (!c->cap || t->hist)
		return 0;
	h = table_hash(t, err);
	for (i = h & (c->cap - 1); c->v[i].id; i = (i + 1) & (c->cap - 1))
		if (slot_is(&c->v[i], t, err, h))
			return c->v[i].id;
	return 0;
}

static void insert(struct sccache *c, struct sccache_slot e)
{
	size_t i;

	for (i = e.hash & (c->cap - 1); c->v[i].id; i = (i + 1) & (c->cap - 1))
		;
	c->v[i] = e;
	c->n++;
}

void sccache_put(struct sccache *c, const struct sctable *t, bool err, int64_t id)
{
	struct sccache_slot e = { .hash = table_hash(t, err), .id = id, .err = err, .n = t->used };
	uint32_t k, j = 0;

	if (t->hist || id <= 0)
		return;
	if (c->n >= SCCACHE_MAX)
		sccache_clear(c);
	if (c->n + 1 > c->cap * 3 / 4) {
		struct sccache_slot *old = c->v;
		size_t oldcap = c->cap, i;

		c->cap = c->cap ? c->cap * 2 : 256;
		c->v = xcalloc(c->cap, sizeof(*c->v));
		c->n = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i].id)
				insert(c, old[i]);
		free(old);
	}
	e.v = xmalloc((e.n ? e.n : 1) * sizeof(*e.v));
	for (k = 0; k < t->cap; k++)
		if (t->slots[k].nr != SC_EMPTY)
			e.v[j++] = t->slots[k];
	insert(c, e);
}
