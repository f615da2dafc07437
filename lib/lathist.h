/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_LATHIST_H
#define KTOP_LATHIST_H

/*
 * model/lathist: a log2 histogram of system-call durations, and the
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

struct lat_hist {
	uint64_t n[LAT_BUCKETS];
};

/* The bucket of a call of @ns nanoseconds. */
static inline unsigned lat_bucket(uint64_t ns)
{
	/* Bounds are whole microseconds: ceil, so 1024.001 us is past 1024. */
	uint64_t us = ns / 1000 + (ns % 1000 != 0);
	unsigned b;

	if (us <= 1)
		return 0;
	b = 64u - (unsigned)__builtin_clzll(us - 1);
	return b < LAT_OVERFLOW ? b : LAT_OVERFLOW;
}

/* Bucket @b's upper bound in microseconds; 0 for LAT_OVERFLOW (none). */
uint64_t lat_bucket_us(unsigned b);

void lat_hist_add(struct lat_hist *dst, const struct lat_hist *src);
uint64_t lat_hist_count(const struct lat_hist *h);

/*
 * lat_hist_quantile - the bucket the @q quantile (0 < q <= 1) falls in
 *
 * The smallest bucket holding at least ceil(q * count) of the calls (the
 * nearest rank). Returns -1 for an empty histogram.
 */
int lat_hist_quantile(const struct lat_hist *h, double q);

/*
 * lat_hist_quantile_us - the @q quantile as an upper bound, in microseconds
 * @max_ns: the longest call the histogram holds, the bound of LAT_OVERFLOW
 *
 * false for an empty histogram.
 */
bool lat_hist_quantile_us(const struct lat_hist *h, double q, uint64_t max_ns, double *out);

#endif
