// SPDX-License-Identifier: GPL-2.0-only
#include "evring.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define EVRING_MIN 64

void evring_init(struct evring *r, size_t esize, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->esize = esize;
	r->max = max ? max : 1;
}

void evring_free(struct evring *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
	r->pushed = r->first = 0;
}

/*
 * Entry seq lives at slot seq % cap. Growing re-lays the kept entries out for
 * the new cap; it happens only while the ring is not yet full, a few times.
 */
static void grow(struct evring *r)
{
	size_t ncap = r->cap ? r->cap * 2 : EVRING_MIN;
	unsigned char *nb;
	uint64_t s;

	if (ncap > r->max)
		ncap = r->max;
	nb = xmalloc(ncap * r->esize);
	for (s = r->first; s < r->pushed; s++)
		memcpy(nb + (size_t)(s % ncap) * r->esize, r->buf + (size_t)(s % r->cap) * r->esize,
		       r->esize);
	free(r->buf);
	r->buf = nb;
	r->cap = ncap;
}

void *evring_push(struct evring *r)
{
	unsigned char *e;

	if (evring_count(r) == r->cap) {
		if (r->cap < r->max)
			grow(r);
		else
			r->first++;
	}
	e = r->buf + (size_t)(r->pushed % r->cap) * r->esize;
	r->pushed++;
	memset(e, 0, r->esize);
	return e;
}

void *evring_at(const struct evring *r, uint64_t seq)
{
	if (seq < r->first || seq >= r->pushed)
		return NULL;
	return r->buf + (size_t)(seq % r->cap) * r->esize;
}
