// SPDX-License-Identifier: GPL-2.0-only
/* store/sccache: a syscall table's id found by its numbers, never another's. */
#include "test.h"

#include "../../lib/util.h"
#include "../../store/sccache.h"

/* Entries @nr[0..n) with calls nr * 3 (+ @bump on the last), inserted in @order. */
static void fill(struct sctable *t, const uint32_t *nr, size_t n, bool reverse, uint64_t bump)
{
	size_t i;

	sctable_clear(t);
	for (i = 0; i < n; i++) {
		size_t k = reverse ? n - 1 - i : i;
		struct sc_stat *s = sctable_get(t, nr[k]);

		s->calls = nr[k] * 3 + (k == n - 1 ? bump : 0);
		s->errors = nr[k] & 1;
		s->top_errno = nr[k] & 1 ? 2 : 0;
	}
}

static void test_same_numbers_same_id(void)
{
	static const uint32_t nr[] = { 0, 1, 3, 9, 257, 262, 1000, 5000, 77, 41, 42, 43 };
	struct sctable a = { 0 }, b = { 0 };
	struct sccache c;

	sccache_init(&c);
	fill(&a, nr, ARRAY_SIZE(nr), false, 0);
	CHECK_EQ_U64(sccache_get(&c, &a, false), 0);
	sccache_put(&c, &a, false, 7);
	CHECK_EQ_U64(sccache_get(&c, &a, false), 7);
	/* Another table, the same numbers inserted in another order: other slots, one id. */
	fill(&b, nr, ARRAY_SIZE(nr), true, 0);
	CHECK_EQ_U64(sccache_get(&c, &b, false), 7);
	/* Not as a table of errors. */
	CHECK_EQ_U64(sccache_get(&c, &b, true), 0);
	/* One count more, one entry fewer, one more: none is it. */
	fill(&b, nr, ARRAY_SIZE(nr), false, 1);
	CHECK_EQ_U64(sccache_get(&c, &b, false), 0);
	fill(&b, nr, ARRAY_SIZE(nr) - 1, false, 0);
	CHECK_EQ_U64(sccache_get(&c, &b, false), 0);
	fill(&b, nr, ARRAY_SIZE(nr), false, 0);
	sctable_get(&b, 99)->calls = 1;
	CHECK_EQ_U64(sccache_get(&c, &b, false), 0);
	sctable_get(&b, 99)->calls = 0;
	CHECK_EQ_U64(sccache_get(&c, &b, false), 0);	/* an entry of 0 calls is an entry */
	sccache_clear(&c);
	CHECK_EQ_U64(sccache_get(&c, &a, false), 0);
	sctable_free(&a);
	sctable_free(&b);
}

/* Many tables: each finds its own id after the cache grew. */
static void test_many(void)
{
	struct sctable t = { 0 };
	struct sccache c;
	uint32_t i, nr[3];
	bool ok = true;

	sccache_init(&c);
	for (i = 0; i < 5000; i++) {
		nr[0] = i % 7;
		nr[1] = 100 + i;
		nr[2] = 200000 + i / 3;
		fill(&t, nr, 3, i & 1, 0);
		sccache_put(&c, &t, false, (int64_t)i + 1);
	}
	for (i = 0; i < 5000; i++) {
		nr[0] = i % 7;
		nr[1] = 100 + i;
		nr[2] = 200000 + i / 3;
		fill(&t, nr, 3, !(i & 1), 0);
		ok &= sccache_get(&c, &t, false) == (int64_t)i + 1;
	}
	CHECK(ok);
	sccache_clear(&c);
	sctable_free(&t);
}

static const struct test tests[] = {
	{ "the same numbers in any slot order: its id; any other: none", test_same_numbers_same_id },
	{ "5000 tables each find their own id", test_many },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
