/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TEST_H
#define KTOP_TEST_H

/*
 * A tiny unit-test harness, no external library. Each test file defines
 *
 *	static void test_xxx(void) { CHECK(...); ... }
 *	static const struct test tests[] = { { "xxx", test_xxx }, ... };
 *	int main(void) { return run_tests(tests, ARRAY_SIZE(tests)); }
 *
 * The output is TAP: a "1..N" plan, then "ok N - name" or "not ok N - name" per
 * test, with the failed checks (file:line and values) as "# ..." lines before it.
 * The binary exits non-zero if any test failed.
 *
 * The CHECK macros are expressions: they return true when the check passed, so
 * a test can stop early with `if (!CHECK(p)) return;`.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct test {
	const char *name;
	void (*fn)(void);
};

/* Failed checks in the running test; only the first few are printed. */
static unsigned test_failures_;
/* Why the running test could not run (TEST_SKIP); NULL = it ran. */
static const char *test_skipped_;

/* The test cannot run here (say why): TAP "ok N - name # SKIP why", never a pass of it. */
#define TEST_SKIP(why) ((void)(test_skipped_ = (why)))
enum { TEST_MAX_REPORTS_ = 20 };

static inline bool test_report_(const char *file, int line)
{
	test_failures_++;
	if (test_failures_ > TEST_MAX_REPORTS_) {
		if (test_failures_ == TEST_MAX_REPORTS_ + 1)
			printf("# (further failures of this test not shown)\n");
		return false;
	}
	printf("# %s:%d: ", file, line);
	return true;
}

static inline bool test_check_(bool ok, const char *expr, const char *file, int line)
{
	if (!ok && test_report_(file, line))
		printf("CHECK(%s) failed\n", expr);
	return ok;
}

static inline bool test_check_u64_(uint64_t a, uint64_t b, const char *ea, const char *eb,
				   const char *file, int line)
{
	if (a != b && test_report_(file, line))
		printf("%s == %s failed: %" PRIu64 " != %" PRIu64 " (signed %" PRId64 " != %" PRId64
		       ")\n", ea, eb, a, b, (int64_t)a, (int64_t)b);
	return a == b;
}

static inline bool test_check_i64_(int64_t a, int64_t b, const char *ea, const char *eb,
				   const char *file, int line)
{
	if (a != b && test_report_(file, line))
		printf("%s == %s failed: %" PRId64 " != %" PRId64 "\n", ea, eb, a, b);
	return a == b;
}

static inline bool test_check_near_(double a, double b, double eps, const char *ea,
				    const char *eb, const char *file, int line)
{
	bool ok = a - b <= eps && b - a <= eps;	/* false for NaN */

	if (!ok && test_report_(file, line))
		printf("%s ~= %s failed: %.9g != %.9g (eps %g)\n", ea, eb, a, b, eps);
	return ok;
}

/* Prints a string with its non-printable bytes escaped. */
static inline void test_print_str_(const char *s)
{
	if (!s) {
		printf("NULL");
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static inline bool test_check_str_(const char *a, const char *b, const char *ea,
				   const char *eb, const char *file, int line)
{
	bool ok = a && b ? strcmp(a, b) == 0 : a == b;

	if (!ok && test_report_(file, line)) {
		printf("%s == %s failed: ", ea, eb);
		test_print_str_(a);
		printf(" != ");
		test_print_str_(b);
		putchar('\n');
	}
	return ok;
}

#define CHECK(cond) test_check_(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ_U64(a, b) \
	test_check_u64_((uint64_t)(a), (uint64_t)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_EQ_I64(a, b) \
	test_check_i64_((int64_t)(a), (int64_t)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_NEAR(a, b, eps) \
	test_check_near_((double)(a), (double)(b), (eps), #a, #b, __FILE__, __LINE__)
#define CHECK_STR(a, b) test_check_str_((a), (b), #a, #b, __FILE__, __LINE__)

/* xorshift32: the tests' repeatable pseudo-random numbers. */
static inline uint32_t test_rand(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * Fuzz input: random bytes mixed with @tok (an empty token stands for a NUL
 * byte), at least one piece, until a random stop (@stop_mask bits of the state
 * all zero) or @cap - @margin bytes. Returns the length.
 */
static inline size_t test_fuzz_fill(char *buf, size_t cap, size_t margin, uint32_t stop_mask,
				    uint32_t *x, const char *const *tok, size_t ntok)
{
	size_t n = 0, k;
	const char *t;

	do {
		test_rand(x);
		if (*x & 0x100) {
			buf[n++] = (char)(*x >> 24);
			continue;
		}
		t = tok[(*x >> 9) % ntok];
		k = t[0] ? strlen(t) : 1;
		memcpy(buf + n, t, k);
		n += k;
	} while (n < cap - margin && (*x & stop_mask) != 0);
	return n;
}

static inline int run_tests(const struct test *t, size_t n)
{
	size_t i, failed = 0;

	/* Keep the diagnostics in order with what the tests and ASan print. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		test_failures_ = 0;
		test_skipped_ = NULL;
		t[i].fn();
		if (test_failures_) {
			failed++;
			printf("not ok %zu - %s\n", i + 1, t[i].name);
		} else if (test_skipped_) {
			printf("ok %zu - %s # SKIP %s\n", i + 1, t[i].name, test_skipped_);
		} else {
			printf("ok %zu - %s\n", i + 1, t[i].name);
		}
	}
	if (failed)
		printf("# %zu of %zu tests failed\n", failed, n);
	fflush(stdout);
	return failed ? 1 : 0;
}

#endif
