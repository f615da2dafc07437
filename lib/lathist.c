// SPDX-License-Identifier: GPL-2.0-only
#include "lathist.h"

#include <math.h>

uint64_t lathist_bucket_us(unsigned b)
{
	return b < LAT_OVERFLOW ? (uint64_t)1 << b : 0;
}

void lathist_add(struct lathist *dst, const struct lathist *src)
{
	unsigned i;

	for (i = 0; i < LAT_BUCKETS; i++)
		dst->n[i] += src->n[i];
}

uint64_t lathist_count(const struct lathist *h)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < LAT_BUCKETS; i++)
		n += h->n[i];
	return n;
}

int lathist_quantile(const struct lathist *h, double q)
{
	uint64_t total = lathist_count(h), rank, seen = 0;
	unsigned i;

	if (!total)
		return -1;
	if (q > 1)
		q = 1;
	rank = (uint64_t)ceil(q * (double)total);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < LAT_BUCKETS; i++) {
		seen += h->n[i];
		if (seen >= rank)
			return (int)i;
	}
	return LAT_OVERFLOW;
}

bool lathist_quantile_us(const struct lathist *h, double q, uint64_t max_ns, double *out)
{
	int b = lathist_quantile(h, q);

	if (b < 0)
		return false;
	/*
	 * Past the last bound, the longest call is the one bound known; a
	 * bucket's bound above the longest call says less than the call does
	 * (p50 4194304 us of calls that took 3.0 s at most): the longest, then.
	 */
	*out = b == LAT_OVERFLOW ? (double)max_ns / 1e3 : (double)lathist_bucket_us((unsigned)b);
	if (*out > (double)max_ns / 1e3)
		*out = (double)max_ns / 1e3;
	return true;
}
