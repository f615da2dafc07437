// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of lib/sctable.c: the sparse per-syscall table against a dense reference. */
#include "../../lib/sctable.h"
#include "../../lib/util.h"
#include "test.h"

static void test_get_creates_zeroed(void)
{
	struct sctable t = { 0 };
	struct sc_stat *s = sctable_get(&t, 0);

	CHECK_EQ_U64(s->nr, 0);
	CHECK_EQ_U64(s->calls, 0);
	s->calls = 5;
	CHECK(sctable_get(&t, 0) == s);
	CHECK_EQ_U64(t.used, 1);
	CHECK(sctable_find(&t, 1) == NULL);
	CHECK(sctable_find(&t, SC_EMPTY) == NULL);
	sctable_free(&t);
}

static void test_against_reference(void)
{
	enum { N = 1024 };
	static uint64_t ref[N];
	struct sctable t = { 0 };
	const struct sc_stat *sorted[N];
	uint32_t seed = 7, i;
	size_t n, k;

	for (i = 0; i < 200000; i++) {
		/* Mostly small numbers, like real syscalls, some far apart. */
		uint32_t nr = test_rand(&seed) % 8 ? test_rand(&seed) % 64 : test_rand(&seed) % N;

		sctable_get(&t, nr)->calls++;
		ref[nr]++;
	}
	for (i = 0; i < N; i++) {
		const struct sc_stat *s = sctable_find(&t, i);

		if (!CHECK_EQ_U64(s ? s->calls : 0, ref[i]))
			break;
	}
	n = sctable_sorted(&t, sorted);
	CHECK_EQ_U64(n, t.used);
	for (k = 1; k < n; k++)
		CHECK(sorted[k - 1]->calls > sorted[k]->calls ||
		      (sorted[k - 1]->calls == sorted[k]->calls && sorted[k - 1]->nr < sorted[k]->nr));
	CHECK(sctable_top(&t) == sorted[0]);
	sctable_free(&t);
}

/*
 * close (3) and getppid (110) share a first slot in a table of 16: a getppid
 * flood after one close finds getppid's entry second (the table's hot slot),
 * and never another's once the table grew, was cleared or the slot changed.
 */
static void test_collision_hot(void)
{
	struct sctable t = { 0 };
	struct sc_stat *c, *g;
	uint32_t i;

	c = sctable_get(&t, 3);
	c->calls = 1;
	CHECK_EQ_U64(t.cap, 16);
	g = sctable_get(&t, 110);
	CHECK(g != c);
	for (i = 0; i < 1000; i++)
		sctable_get(&t, 110)->calls++;
	CHECK_EQ_U64(g->calls, 1000);
	CHECK(sctable_get(&t, 3) == c);
	CHECK_EQ_U64(c->calls, 1);
	/* Grown (the slots move): each key still finds its own. */
	for (i = 200; i < 240; i++)
		sctable_get(&t, i)->calls = i;
	CHECK(t.cap > 16 && t.hot < t.cap);
	CHECK_EQ_U64(sctable_get(&t, 110)->calls, 1000);
	CHECK_EQ_U64(sctable_get(&t, 3)->calls, 1);
	for (i = 200; i < 240; i++)
		CHECK_EQ_U64(sctable_get(&t, i)->calls, i);
	/* Cleared: the hot slot is empty, a lookup makes a new entry. */
	sctable_clear(&t);
	CHECK_EQ_U64(sctable_get(&t, 110)->calls, 0);
	CHECK_EQ_U64(t.used, 1);
	sctable_free(&t);
	CHECK_EQ_U64(t.hot, 0);
}

static void test_merge_and_clear(void)
{
	struct sctable a = { 0 }, b = { 0 };
	struct sc_stat *s;

	s = sctable_get(&a, 3);
	s->calls = 2;
	s->errors = 1;
	s->time_ns = 100;
	s->timed = 2;
	s->max_ns = 70;
	s = sctable_get(&b, 3);
	s->calls = 1;
	s->max_ns = 90;
	s->top_errno = 2;
	sctable_get(&b, 500)->calls = 4;
	sctable_merge(&a, &b);
	s = sctable_get(&a, 3);
	CHECK_EQ_U64(s->calls, 3);
	CHECK_EQ_U64(s->errors, 1);
	CHECK_EQ_U64(s->max_ns, 90);
	CHECK_EQ_U64(s->top_errno, 2);
	CHECK_EQ_U64(sctable_top(&a)->nr, 500);
	sctable_clear(&a);
	CHECK_EQ_U64(a.used, 0);
	CHECK(sctable_top(&a) == NULL);
	CHECK(sctable_find(&a, 3) == NULL);
	/* Ties: the lower number first. */
	sctable_get(&a, 9)->calls = 1;
	sctable_get(&a, 4)->calls = 1;
	CHECK_EQ_U64(sctable_top(&a)->nr, 4);
	sctable_free(&a);
	sctable_free(&b);
}

/* What the tables take, counted through growth, histograms, merges and frees. */
static void test_live_bytes(void)
{
	struct sctable a = { 0 }, b = { 0 };
	struct lathist h = { { 0 } };
	size_t before = sctable_live_bytes();
	uint32_t nr;

	h.n[2] = 1;
	for (nr = 0; nr < 400; nr++)
		sctable_get(&a, nr * 7)->calls = 1;
	CHECK_EQ_U64(sctable_live_bytes() - before, sctable_mem(&a));
	CHECK_EQ_U64(sctable_mem(&a), 1024 * sizeof(struct sc_stat));
	sctable_put_hist(&a, sctable_get(&a, 7), &h);
	CHECK_EQ_U64(sctable_mem(&a), 1024 * (sizeof(struct sc_stat) + sizeof(struct lathist)));
	sctable_merge(&b, &a);
	/* A copy takes no more than its source. */
	CHECK(sctable_mem(&b) <= sctable_mem(&a));
	CHECK_EQ_U64(sctable_live_bytes() - before, sctable_mem(&a) + sctable_mem(&b));
	sctable_clear(&b);
	CHECK_EQ_U64(sctable_live_bytes() - before, sctable_mem(&a) + sctable_mem(&b));
	sctable_free(&a);
	sctable_free(&b);
	CHECK_EQ_U64(sctable_live_bytes(), before);
}

static const struct test tests[] = {
	{ "live bytes: growth, histograms, merge, free", test_live_bytes },
	{ "get creates a zeroed entry once", test_get_creates_zeroed },
	{ "200k random calls agree with a dense array; sorted and top", test_against_reference },
	{ "merge adds, keeps the max; clear keeps nothing", test_merge_and_clear },
	{ "a key that collided is found in the hot slot, never another's", test_collision_hot },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
