// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/clockmap.c: a trace clock's stamps mapped to
 * CLOCK_MONOTONIC from calibration samples. Simulated clocks with a known
 * offset, rate (an NTP correction, a TSC's frequency) and reading noise; the
 * mapping checked against the truth, for order, continuity and durations.
 */
#include <math.h>

#include "../../lib/clockmap.h"
#include "../../lib/util.h"
#include "test.h"

/* A simulated pair of clocks: mono = off + raw * rate. */
struct sim {
	double off, rate;
};

static uint64_t truth(const struct sim *s, uint64_t raw)
{
	return (uint64_t)llround(s->off + (double)raw * s->rate);
}

/*
 * A sample as ktop takes one: two CLOCK_MONOTONIC reads @half ns either side
 * of the raw reading, the raw reading where the truth is off by @skew ns
 * within the bracket (the kernel reads its clock late or early in the call).
 */
static int sample(struct clockmap *m, const struct sim *s, uint64_t raw, uint64_t half, int64_t skew)
{
	uint64_t t = truth(s, raw) + (uint64_t)skew;

	return clockmap_sample(m, raw, t - half, t + half);
}

static int64_t diff(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

static void test_offset_exact(void)
{
	struct sim s = { 5e9, 1.0 };
	struct clockmap m;

	clockmap_init(&m, 1.0, 0);
	CHECK(!clockmap_ready(&m));
	CHECK_EQ_I64(sample(&m, &s, 1000000, 2000, 0), 0);
	CHECK(clockmap_ready(&m));
	CHECK_EQ_U64(clockmap_mono(&m, 1000000), 5e9 + 1000000);
	CHECK_EQ_U64(clockmap_mono(&m, 2000000000), 5e9 + 2000000000);
	/* Before the first sample: the same line backwards. */
	CHECK_EQ_U64(clockmap_mono(&m, 0), 5e9);
	CHECK_EQ_I64(sample(&m, &s, 1001000000, 2000, 0), 0);
	CHECK_EQ_I64(m.last_err_ns, 0);
	CHECK_EQ_U64(clockmap_mono(&m, 1501000000), 5e9 + 1501000000);
	CHECK_EQ_U64(m.steps, 0);
}

/* mono runs 50 ppm faster than the raw clock (NTP), readings noisy by +-2 us. */
static void test_drift(void)
{
	static const int64_t noise[] = { 1500, -2000, 700, 0, -1200, 1900, -300, 2000, -1700, 400 };
	struct sim s = { -22.8e6, 1 + 50e-6 };
	uint64_t raw = 35000000000ull, worst = 0, worst_late = 0;
	struct clockmap m;
	int tick;

	clockmap_init(&m, 1.0, 500);
	for (tick = 0; tick < 200; tick++) {
		uint64_t r;

		CHECK_EQ_I64(sample(&m, &s, raw, 2500, noise[tick % 10]), 0);
		/* The next tick's stamps, mapped before the next sample. */
		for (r = raw; r < raw + 1000000000ull; r += 37000000) {
			uint64_t e = (uint64_t)llabs(diff(clockmap_mono(&m, r), truth(&s, r)));

			if (e > worst)
				worst = e;
			if (tick >= 70 && e > worst_late)
				worst_late = e;
		}
		raw += 1000000000ull;
	}
	/* Within the readings' noise, once the rate is known; the first ticks 50 us a second. */
	CHECK(worst < 60000);
	CHECK(worst_late < 6000);
	CHECK(fabs(m.rate - s.rate) < 1e-7);
	CHECK_EQ_U64(m.steps, 0);
	CHECK(m.bound_ns >= (uint64_t)llabs(m.last_err_ns));
}

/* Segments join: strictly increasing, no step at a sample, old stamps keep their time. */
static void test_continuous(void)
{
	struct sim s = { 1e6, 1 + 300e-6 };
	uint64_t raw = 1000000000ull, before[4];
	static const uint64_t probe[4] = { 1000000000ull, 1400000000ull, 1999999999ull, 2000000000ull };
	struct clockmap m;
	int tick, i;

	clockmap_init(&m, 1.0, 0);
	CHECK_EQ_I64(sample(&m, &s, raw, 1000, 0), 0);
	for (i = 0; i < 4; i++)
		before[i] = clockmap_mono(&m, probe[i]);
	for (tick = 1; tick < 20; tick++) {
		uint64_t b = raw + (uint64_t)tick * 1000000000ull, r;

		/* A sample at b: the stamps before it, mapped already, keep their values. */
		CHECK_EQ_I64(sample(&m, &s, b, 1000, tick % 2 ? 3000 : -3000), 0);
		if (tick == 1)
			for (i = 0; i < 3; i++)
				CHECK_EQ_U64(clockmap_mono(&m, probe[i]), before[i]);
		for (r = b - 3; r < b + 3; r++)
			CHECK(clockmap_mono(&m, r + 1) > clockmap_mono(&m, r));
		CHECK(clockmap_mono(&m, b) - clockmap_mono(&m, b - 1) <= 2);
	}
}

/* A call across two samples: its duration off by the rate's error only (ppm). */
static void test_duration(void)
{
	struct sim s = { 7e9, 1 - 120e-6 };
	uint64_t raw = 2000000000ull, enter, exit;
	struct clockmap m;
	int tick;

	clockmap_init(&m, 1.0, 500);
	for (tick = 0; tick < 30; tick++)
		CHECK_EQ_I64(sample(&m, &s, raw + (uint64_t)tick * 1000000000ull, 2000,
				    tick % 3 ? 1500 : -1500), 0);
	/* 10 ms from 5 ms before the last sample to 5 ms after it. */
	enter = raw + 29 * 1000000000ull - 5000000;
	exit = enter + 10000000;
	CHECK(llabs(diff(clockmap_mono(&m, exit) - clockmap_mono(&m, enter),
			 truth(&s, exit) - truth(&s, enter))) < 20);
}

/* A TSC: cycles at 2.096 GHz, rate unknown until a second sample. */
static void test_tsc(void)
{
	struct sim s = { -1.1e15, 1 / 2.095998 };
	uint64_t raw = 2300000000000000ull;
	struct clockmap m;
	int tick;

	clockmap_init(&m, 0, 0);
	CHECK_EQ_I64(sample(&m, &s, raw, 2000, 0), 0);
	CHECK(!clockmap_ready(&m));
	/* 5 ms later, as ktop's start does. */
	CHECK_EQ_I64(sample(&m, &s, raw + 10480000, 2000, 1000), 0);
	CHECK(clockmap_ready(&m));
	CHECK(fabs(m.rate - s.rate) / s.rate < 1e-3);
	for (tick = 1; tick <= 10; tick++)
		CHECK_EQ_I64(sample(&m, &s, raw + (uint64_t)tick * 2095998000ull, 2000,
				    tick % 2 ? 1000 : -1000), 0);
	CHECK(fabs(m.rate - s.rate) / s.rate < 2e-6);
	CHECK(llabs(diff(clockmap_mono(&m, raw + 10500000000ull), truth(&s, raw + 10500000000ull))) < 5000);
}

/* A jump of 10 ms (a VM resumed): stepped and counted, mapped right after it. */
static void test_step(void)
{
	struct sim s = { 0, 1.0 };
	struct clockmap m;

	clockmap_init(&m, 1.0, 0);
	CHECK_EQ_I64(sample(&m, &s, 1000000000ull, 1000, 0), 0);
	s.off = 10e6;
	CHECK_EQ_I64(sample(&m, &s, 2000000000ull, 1000, 0), 0);
	CHECK_EQ_U64(m.steps, 1);
	CHECK_EQ_U64(clockmap_mono(&m, 2500000000ull), 2510000000ull);
	CHECK_EQ_U64(m.max_err_ns, 0);
}

static void test_refused(void)
{
	struct sim s = { 0, 1.0 };
	struct clockmap m;

	clockmap_init(&m, 1.0, 0);
	/* Read too slowly to say anything. */
	CHECK_EQ_I64(sample(&m, &s, 1000000000ull, CLOCKMAP_MAX_BRACKET_NS, 0), -1);
	CHECK(!clockmap_ready(&m));
	CHECK_EQ_I64(sample(&m, &s, 1000000000ull, 1000, 0), 0);
	/* Not after the newest segment: the raw clock went back. */
	CHECK_EQ_I64(sample(&m, &s, 999999999ull, 1000, 0), -1);
	CHECK_EQ_I64(clockmap_sample(&m, 2000000000ull, 2000001000ull, 2000000000ull), -1);
	CHECK_EQ_U64(m.refused, 3);
	CHECK_EQ_U64(m.samples, 1);
}

/* Stamps far older than the segments kept map on the oldest one's line. */
static void test_old_stamps(void)
{
	struct sim s = { 3e9, 1 + 20e-6 };
	struct clockmap m;
	int tick;

	clockmap_init(&m, 1.0, 0);
	for (tick = 0; tick < 3 * CLOCKMAP_SEGS; tick++)
		CHECK_EQ_I64(sample(&m, &s, 1000000000ull * (uint64_t)(tick + 1), 500, 0), 0);
	CHECK_EQ_U64(m.nseg, CLOCKMAP_SEGS);
	CHECK(llabs(diff(clockmap_mono(&m, 500000000ull), truth(&s, 500000000ull))) < 50000);
}

/*
 * ktop's first interval is short (its first frame at once), the next ones a
 * second: a reading error at the short one must not become a slope that
 * carries the mapping far off over the long one.
 */
static void test_short_then_long(void)
{
	struct sim s = { -22.8e6, 1.0 };
	uint64_t raw = 35000000000ull;
	struct clockmap m;

	clockmap_init(&m, 1.0, 500);
	CHECK_EQ_I64(sample(&m, &s, raw, 1400, -1500), 0);
	CHECK_EQ_I64(sample(&m, &s, raw + 20000000, 1400, 1500), 0);
	CHECK_EQ_I64(sample(&m, &s, raw + 1020000000, 1400, 0), 0);
	CHECK(llabs(m.last_err_ns) < 5000);
	CHECK(llabs(diff(clockmap_mono(&m, raw + 2020000000), truth(&s, raw + 2020000000))) < 5000);
}

/* The decoder's cursor maps as clockmap_mono does: across segments, a step back; before the oldest within 1 ns. */
static void test_cursor(void)
{
	static const int64_t noise[] = { 900, -1300, 400, 2000, -700 };
	struct sim s = { -4e6, 1 + 80e-6 };
	struct clockmap_cursor c;
	struct clockmap m;
	uint64_t r, start = 500000000ull;
	int tick, diffs = 0;

	clockmap_init(&m, 1.0, 500);
	for (tick = 0; tick < 12; tick++)
		CHECK_EQ_I64(sample(&m, &s, 1000000000ull * (uint64_t)(tick + 1), 1500, noise[tick % 5]), 0);
	clockmap_seek(&m, start, &c);
	for (r = start; r < 14000000000ull; r += 7777777) {
		int64_t d = diff(clockmap_next(&m, &c, r), clockmap_mono(&m, r));

		/* Before the oldest segment its line is taken from the cursor's start: rounding. */
		diffs += r < m.seg[(m.cur + 1) % CLOCKMAP_SEGS].raw ? llabs(d) > 1 : d != 0;
	}
	/* Back a little, then on: looked up again. */
	diffs += clockmap_next(&m, &c, r - 3000000000ull) != clockmap_mono(&m, r - 3000000000ull);
	diffs += clockmap_next(&m, &c, r + 5) != clockmap_mono(&m, r + 5);
	CHECK_EQ_I64(diffs, 0);
}

static const struct test tests[] = {
	{ "offset_exact", test_offset_exact },
	{ "drift", test_drift },
	{ "continuous", test_continuous },
	{ "duration", test_duration },
	{ "tsc", test_tsc },
	{ "step", test_step },
	{ "refused", test_refused },
	{ "old_stamps", test_old_stamps },
	{ "short_then_long", test_short_then_long },
	{ "cursor", test_cursor },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
