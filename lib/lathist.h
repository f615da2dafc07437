/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_LATHIST_H
#define KTOP_LATHIST_H

/*
 * lib/lathist: a log2 histogram of system-call durations, and the
 * percentiles it gives. Bucket i counts the calls that took more than
 * 2^(i-1) us and at most 2^i us (bucket 0: at most 1 us); the last bucket,
 * LAT_BUCKETS - 1, every call longer than 2^(LAT_BUCKETS - 2) us (67 s).
 * A percentile is stated as the upper bound of the bucket it falls in: "p99
 * 16" means 99% of the calls took at most 16 us. The bounds are fixed, so
 * histograms of threads, processes, groups and intervals add up bucket by
 * bucket, and the exporter's Prometheus buckets are the same.
 */

#include <stdbool.h>
#include <stdint.h>

#define LAT_BUCKETS 28
/* The last bucket has no upper bound (Prometheus' +Inf). */
#define LAT_OVERFLOW (LAT_BUCKETS - 1)

struct lathist {
	uint64_t n[LAT_BUCKETS];
};

/*
 * The bucket of a call of @ns nanoseconds: the smallest b with
 * @ns <= 1000 * 2^b (bounds are whole microseconds, so 1024.001 us is past
 * 1024). Once per timed call, so no division: with c the bits of @ns - 1
 * (2^(c - 1) < @ns <= 2^c), 1000 * 2^(c - 10) is 0.977 * 2^c and
 * 1000 * 2^(c - 9) above 2^c, so b is c - 10 or c - 9, one compare apart.
 */
static inline unsigned lathist_bucket(uint64_t ns)
{
	unsigned b;

	if (ns <= 1000)
		return 0;
	b = 64u - (unsigned)__builtin_clzll(ns - 1) - 10;
	if (b >= LAT_OVERFLOW)
		return LAT_OVERFLOW;
	return b + (ns > (uint64_t)1000 << b);
}

/* Bucket @b's upper bound in microseconds; 0 for LAT_OVERFLOW (none). */
uint64_t lathist_bucket_us(unsigned b);

void lathist_add(struct lathist *dst, const struct lathist *src);
uint64_t lathist_count(const struct lathist *h);

/*
 * lathist_quantile - the bucket the @q quantile (0 < q <= 1) falls in
 *
 * The smallest bucket holding at least ceil(q * count) of the calls (the
 * nearest rank). Returns -1 for an empty histogram.
 */
int lathist_quantile(const struct lathist *h, double q);

/*
 * lathist_quantile_us - the @q quantile as an upper bound, in microseconds
 * @max_ns: the longest call the histogram holds: the bound of LAT_OVERFLOW,
 * and of every bucket whose own bound is above it (a percentile is never
 * more than the longest call)
 *
 * false for an empty histogram.
 */
bool lathist_quantile_us(const struct lathist *h, double q, uint64_t max_ns, double *out);

#endif
