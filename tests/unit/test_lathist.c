// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/lathist.c and the durations of model/sctable.c: the
 * log2 buckets' edges, the nearest-rank percentiles against a sorted
 * reference, and histograms that follow their entries through a table's
 * growth, merges, re-keying and clears.
 */
#include <math.h>

#include "../../lib/lathist.h"
#include "../../lib/sctable.h"
#include "../../lib/util.h"
#include "test.h"

static void test_bucket_edges(void)
{
	unsigned b;

	CHECK_EQ_U64(lathist_bucket(0), 0);
	CHECK_EQ_U64(lathist_bucket(1000), 0);	/* 1 us: at most 1 us */
	CHECK_EQ_U64(lathist_bucket(1001), 1);
	CHECK_EQ_U64(lathist_bucket(2000), 1);
	CHECK_EQ_U64(lathist_bucket(2001), 2);
	CHECK_EQ_U64(lathist_bucket(16000), 4);
	CHECK_EQ_U64(lathist_bucket(16001), 5);
	/* 10 ms: in (8192, 16384] us. */
	CHECK_EQ_U64(lathist_bucket(10000000), 14);
	CHECK_EQ_U64(lathist_bucket_us(14), 16384);
	/* Each bound is in its bucket, a nanosecond more in the next. */
	for (b = 0; b < LAT_OVERFLOW; b++) {
		CHECK_EQ_U64(lathist_bucket(lathist_bucket_us(b) * 1000), b);
		CHECK_EQ_U64(lathist_bucket(lathist_bucket_us(b) * 1000 + 1), b + 1);
	}
	CHECK_EQ_U64(lathist_bucket_us(LAT_OVERFLOW), 0);
	CHECK_EQ_U64(lathist_bucket(UINT64_MAX), LAT_OVERFLOW);
}

/* The bucket by its definition: microseconds rounded up, then the log2 rounded up. */
static unsigned ref_bucket(uint64_t ns)
{
	uint64_t us = ns / 1000 + (ns % 1000 != 0);
	unsigned b = 0;

	while (b < LAT_OVERFLOW && us > (uint64_t)1 << b)
		b++;
	return b;
}

/*
 * lathist_bucket finds the bucket without a division (two candidates, one
 * compare): every power of two and every bound, a nanosecond either side,
 * and random durations of every size give the definition's bucket.
 */
static void test_bucket_reference(void)
{
	uint32_t seed = 5;
	unsigned i;
	int d;

	for (i = 0; i < 64; i++)
		for (d = -1; d <= 1; d++) {
			uint64_t p = ((uint64_t)1 << i) + (uint64_t)(int64_t)d;
			uint64_t m = i < 54 ? ((uint64_t)1000 << i) + (uint64_t)(int64_t)d : p;

			CHECK_EQ_U64(lathist_bucket(p), ref_bucket(p));
			CHECK_EQ_U64(lathist_bucket(m), ref_bucket(m));
		}
	for (i = 0; i < 200000; i++) {
		uint64_t ns = (((uint64_t)test_rand(&seed) << 32) | test_rand(&seed)) >>
			      (test_rand(&seed) % 64);

		CHECK_EQ_U64(lathist_bucket(ns), ref_bucket(ns));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Random durations: the bucket of the nearest-rank sample is the quantile's. */
static void test_quantiles_against_sorted(void)
{
	enum { N = 5000 };
	static uint64_t v[N];
	static const double qs[] = { 0.01, 0.5, 0.9, 0.99, 0.999, 1.0 };
	uint32_t seed = 11;
	size_t n, i, k;

	for (n = 1; n <= N; n = n * 3 + 1) {
		struct lathist h = { { 0 } };

		for (i = 0; i < n; i++) {
			/* Spread over many buckets: a random power of two times a random factor. */
			v[i] = ((uint64_t)1 << (test_rand(&seed) % 34)) + test_rand(&seed) % 100000;
			h.n[lathist_bucket(v[i])]++;
		}
		qsort(v, n, sizeof(*v), cmp_u64);
		CHECK_EQ_U64(lathist_count(&h), n);
		for (k = 0; k < ARRAY_SIZE(qs); k++) {
			size_t rank = (size_t)ceil(qs[k] * (double)n);
			double us;

			CHECK_EQ_U64((uint64_t)lathist_quantile(&h, qs[k]), lathist_bucket(v[rank - 1]));
			CHECK(lathist_quantile_us(&h, qs[k], v[n - 1], &us));
			/* The bound is true: that share of the calls took at most it. */
			CHECK((double)v[rank - 1] <= us * 1000 + 1e-6);
			/* ... and never more than the longest call. */
			CHECK(us * 1000 <= (double)v[n - 1] + 1e-6);
		}
	}
}

static void test_quantile_small_cases(void)
{
	struct lathist h = { { 0 } };
	double us;

	CHECK_EQ_U64((uint64_t)(lathist_quantile(&h, 0.5) + 1), 0);
	CHECK(!lathist_quantile_us(&h, 0.5, 0, &us));
	/*
	 * 99 fast calls and one slow: p99 is the fast bucket, p99.9 the slow
	 * one, whose bound (8192 us) is above the longest call (5000 us): the
	 * longest, then.
	 */
	h.n[lathist_bucket(3000)] = 99;
	h.n[lathist_bucket(5000000)] = 1;
	CHECK(lathist_quantile_us(&h, 0.99, 5000000, &us));
	CHECK(us == 4);
	CHECK(lathist_quantile_us(&h, 0.999, 5000000, &us));
	CHECK(us == 5000);
	CHECK(lathist_quantile_us(&h, 0.5, 5000000, &us));
	CHECK(us == 4);
	/* A slow call's bucket: p50 4194304 us would be above calls of 3.0 s at most. */
	memset(&h, 0, sizeof(h));
	h.n[lathist_bucket(3001716000ull)] = 10;
	CHECK(lathist_quantile_us(&h, 0.5, 3001716000ull, &us));
	CHECK(us == 3001716);
	/* Past the last bound the longest call bounds it. */
	h.n[LAT_OVERFLOW] = 1000;
	CHECK(lathist_quantile_us(&h, 0.99, 100000000001ull, &us));
	CHECK(us == 100000000001ull / 1e3);
}

/* Durations stay with their syscall through growth, merges, re-keying and clears. */
static void test_table_durations(void)
{
	struct sctable a = { 0 }, b = { 0 }, c = { 0 };
	struct lathist sum;
	uint64_t max;
	uint32_t nr;

	/* Untimed: no histogram memory at all. */
	sctable_get(&a, 1)->calls = 3;
	CHECK(a.hist == NULL);
	CHECK(sctable_hist(&a, sctable_find(&a, 1)) == NULL);
	CHECK_EQ_U64(sctable_hist_sum(&a, &sum, &max), 0);
	/* 100 syscalls force growth after the first is timed. */
	for (nr = 0; nr < 100; nr++) {
		struct sc_stat *s = sctable_get(&a, nr);

		s->calls++;
		sctable_time(&a, s, (uint64_t)(nr + 1) * 1000);
	}
	for (nr = 0; nr < 100; nr++) {
		const struct sc_stat *s = sctable_find(&a, nr);
		const struct lathist *h = sctable_hist(&a, s);

		if (!CHECK(h))
			break;
		CHECK_EQ_U64(lathist_count(h), 1);
		CHECK_EQ_U64(h->n[lathist_bucket((uint64_t)(nr + 1) * 1000)], 1);
		CHECK_EQ_U64(s->max_ns, (uint64_t)(nr + 1) * 1000);
	}
	CHECK_EQ_U64(sctable_hist_sum(&a, &sum, &max), 100);
	CHECK_EQ_U64(max, 100000);
	CHECK_EQ_U64(sum.n[0], 1);
	CHECK_EQ_U64(sum.n[7], 36);	/* 65..100 us */
	/* Merged twice: counts double, into a table that had none. */
	sctable_merge(&b, &a);
	sctable_merge(&b, &a);
	CHECK_EQ_U64(sctable_hist_sum(&b, &sum, &max), 200);
	CHECK_EQ_U64(sctable_hist(&b, sctable_find(&b, 99))->n[7], 2);
	CHECK_EQ_U64(sctable_find(&b, 99)->time_ns, 200000);
	/* Re-keyed under another number (evsums_set_abi). */
	sctable_add(&c, 1000, &a, sctable_find(&a, 4));
	CHECK_EQ_U64(sctable_hist(&c, sctable_find(&c, 1000))->n[lathist_bucket(5000)], 1);
	/* A cleared table's new entry starts with an empty histogram. */
	sctable_clear(&b);
	sctable_get(&b, 99)->calls = 1;
	CHECK(sctable_hist(&b, sctable_find(&b, 99)) == NULL);
	sctable_time(&b, sctable_get(&b, 99), 1);
	CHECK_EQ_U64(lathist_count(sctable_hist(&b, sctable_find(&b, 99))), 1);
	/* A histogram put back (a replay): found with its entry, merged with it. */
	{
		struct lathist h = { { 0 } };
		struct sc_stat *s;

		sctable_clear(&c);
		h.n[3] = 4;
		s = sctable_get(&c, 5000);
		s->calls = s->timed = 4;
		sctable_put_hist(&c, s, &h);
		sctable_merge(&a, &c);
		CHECK_EQ_U64(sctable_hist(&a, sctable_find(&a, 5000))->n[3], 4);
	}
	sctable_free(&a);
	sctable_free(&b);
	sctable_free(&c);
}

static const struct test tests[] = {
	{ "bucket edges: (2^(i-1), 2^i] us", test_bucket_edges },
	{ "buckets without a division: the definition's, every size", test_bucket_reference },
	{ "percentiles are the nearest rank's bucket (random, sorted reference)",
	  test_quantiles_against_sorted },
	{ "percentiles: empty, one slow call, past the last bound", test_quantile_small_cases },
	{ "table durations through growth, merge, re-key, clear", test_table_durations },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
