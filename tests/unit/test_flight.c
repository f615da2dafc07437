// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/trace/flight.c, the flight recorder's ring, on
 * sub-buffers made here (the kernel's layout: a time stamp, the commit word,
 * records of a 32-bit header and a payload): the newest pages kept within
 * the size, oldest dropped first, each CPU's in order; a tick's partly
 * filled pages joined into one page whose records keep their times exactly
 * (read back with the walk the decoders use, instance.h); a page after lost
 * events standing alone; the hold keeping the moment; a mono buffer's
 * stamps moved onto the main clock.
 */
#include "../../collectors/trace/flight.h"
#include "../../collectors/trace/instance.h"
#include "../../lib/util.h"
#include "test.h"

#define PSZ 4096
#define MISSED_EVENTS (1ull << 31)

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char *const events[][2] = { { "raw_syscalls", "sys_exit" } };

/*
 * A page of @n records from @ts, @step ns apart (the first @step after the
 * page's stamp), 16-byte payloads: type 7, pid @pid, a sequence number @seq0
 * on. Returns its used bytes.
 */
static size_t page(uint8_t *p, uint64_t ts, unsigned n, uint32_t step, int32_t pid, uint64_t seq0,
		   uint64_t flags)
{
	uint64_t commit = (uint64_t)n * 20 | flags;
	unsigned i;

	memset(p, 0, PSZ);
	memcpy(p, &ts, 8);
	memcpy(p + 8, &commit, 8);
	for (i = 0; i < n; i++) {
		uint8_t *r = p + RBPAGE_HDR_SIZE + i * 20;
		uint32_t hdr = 4 | (step << 5);	/* type_len 4: 16 bytes */
		uint16_t type = 7;
		uint64_t seq = seq0 + i;

		memcpy(r, &hdr, 4);
		memcpy(r + 4, &type, 2);
		memcpy(r + 4 + RB_COMMON_PID_OFF, &pid, 4);
		memcpy(r + 4 + 8, &seq, 8);
	}
	return RBPAGE_HDR_SIZE + (size_t)n * 20;
}

/* Every record of the pages the walk gives for @buf's @cpu: their times and sequence numbers. */
static size_t walk_all(struct flight *fl, size_t buf, int cpu, uint64_t *ts, uint64_t *seq,
		       size_t max, size_t *pages)
{
	struct flight_walk *w = flight_walk_begin(fl);
	const void *pg;
	size_t n = 0;

	*pages = 0;
	while ((pg = flight_walk_page(w, buf, cpu))) {
		struct rbpage rp;
		const uint8_t *rec;
		unsigned size;
		long missed;

		(*pages)++;
		if (rbpage_load(&rp, pg, PSZ, &missed))
			break;
		while ((rec = rbpage_next(&rp, &size)) && n < max) {
			ts[n] = rp.ts;
			memcpy(&seq[n], rec + 8, 8);
			n++;
		}
	}
	flight_walk_end(w);
	return n;
}

static struct flight *ring(size_t cap, int ncpus)
{
	struct flight *fl = flight_new(cap);

	CHECK_EQ_I64(flight_buffer(fl, "ktop-1-1", "local", PSZ, ncpus, header_page,
				   sizeof(header_page) - 1, events, 1), 0);
	return fl;
}

static void test_oldest_dropped(void)
{
	struct flight *fl = ring(FLIGHT_MIN, 2);
	struct flight_stats st;
	static uint8_t p[PSZ];
	static uint64_t ts[100000], seq[100000];
	size_t n, pages, i, full = (PSZ - RBPAGE_HDR_SIZE) / 20;
	int k;

	/* 600 full pages, CPUs 0 and 1 in turn: 2.4 MiB through a 1 MiB ring. */
	for (k = 0; k < 600; k++) {
		page(p, 1000000ull * (uint64_t)k, (unsigned)full, 10, 100 + k % 2, (uint64_t)k * full, 0);
		flight_keep(fl, 0, k % 2, p, PSZ);
	}
	flight_get_stats(fl, &st);
	CHECK(st.used <= st.cap);
	CHECK_EQ_U64(st.cap, FLIGHT_MIN);
	CHECK_EQ_U64(st.pages, 600);
	CHECK(st.dropped > 300 && st.dropped < 400);
	/* What stays is the newest, each CPU's pages in order and whole. */
	n = walk_all(fl, 0, 1, ts, seq, 100000, &pages);
	CHECK_EQ_U64(n, pages * full);
	CHECK_EQ_U64(pages, (600 - st.dropped) / 2);
	CHECK_EQ_U64(seq[n - 1], 599 * full + full - 1);
	for (i = 1; i < n; i++)
		if (!CHECK(ts[i] > ts[i - 1]))
			break;
	n = walk_all(fl, 0, 0, ts, seq, 100000, &pages);
	CHECK_EQ_U64(seq[n - 1], 598 * full + full - 1);
	flight_free(fl);
}

static void test_partial_pages_joined(void)
{
	struct flight *fl = ring(FLIGHT_MIN, 1);
	static uint8_t p[PSZ];
	uint64_t ts[64], seq[64], want_ts[64];
	size_t n, pages, i;
	unsigned k;

	/* Ten ticks' partial pages of 3 records, 1 ms of silence between them. */
	for (k = 0; k < 10; k++) {
		uint64_t t0 = 5000000000ull + k * 1000000ull;

		page(p, t0, 3, 100, 42, k * 3, 0);
		flight_keep(fl, 0, 0, p, PSZ);
		for (i = 0; i < 3; i++)
			want_ts[k * 3 + i] = t0 + 100 * (i + 1);
	}
	/* Then one after lost events: it starts a page of its own. */
	page(p, 5100000000ull, 3, 100, 42, 30, MISSED_EVENTS);
	flight_keep(fl, 0, 0, p, PSZ);
	for (i = 0; i < 3; i++)
		want_ts[30 + i] = 5100000000ull + 100 * (i + 1);
	n = walk_all(fl, 0, 0, ts, seq, 64, &pages);
	CHECK_EQ_U64(pages, 2);
	CHECK_EQ_U64(n, 33);
	for (i = 0; i < n && i < 33; i++) {
		CHECK_EQ_U64(seq[i], i);
		CHECK_EQ_U64(ts[i], want_ts[i]);
	}
	{
		struct flight_walk *w = flight_walk_begin(fl);
		const pid_t *pids;
		const char (*comms)[16];

		while (flight_walk_page(w, 0, 0))
			;
		CHECK_EQ_U64(flight_walk_pids(w, &pids, &comms), 1);
		CHECK_EQ_I64(pids[0], 42);
		flight_walk_end(w);
	}
	flight_free(fl);
}

static void test_hold_keeps_the_moment(void)
{
	struct flight *fl = ring(FLIGHT_MIN, 1);
	struct flight_stats st;
	static uint8_t p[PSZ];
	static uint64_t ts[100000], seq[100000];
	size_t n, pages, full = (PSZ - RBPAGE_HDR_SIZE) / 20;
	unsigned k;

	for (k = 0; k < 200; k++) {
		page(p, 1000000ull * k, (unsigned)full, 10, 7, (uint64_t)k * full, 0);
		flight_keep(fl, 0, 0, p, PSZ);
	}
	/* Asked for at page 200's time; then 1000 more pages. */
	flight_hold(fl, true, 1000000ull * 200);
	for (; k < 1200; k++) {
		page(p, 1000000ull * k, (unsigned)full, 10, 7, (uint64_t)k * full, 0);
		flight_keep(fl, 0, 0, p, PSZ);
	}
	flight_get_stats(fl, &st);
	CHECK(st.held_back > 800);
	n = walk_all(fl, 0, 0, ts, seq, 100000, &pages);
	/* The moment (page 199, 200) is there; so is half a ring after it. */
	CHECK(seq[0] <= 199 * full);
	CHECK(seq[n - 1] > 300 * full);
	flight_hold(fl, false, 0);
	flight_free(fl);
}

static void test_mono_buffer_moved(void)
{
	struct flight *fl = ring(FLIGHT_MIN, 1);
	struct flight_buffer_info bi;
	static uint8_t p[PSZ];
	uint64_t ts[8], seq[8];
	size_t n, pages;

	CHECK_EQ_I64(flight_buffer(fl, "ktop-1-1-f", "mono", PSZ, 1, header_page,
				   sizeof(header_page) - 1, events, 1), 1);
	flight_clock_offset(fl, -250000, true);
	page(p, 9000000000ull, 2, 50, 9, 0, 0);
	flight_keep(fl, 1, 0, p, PSZ);
	n = walk_all(fl, 1, 0, ts, seq, 8, &pages);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_U64(ts[0], 9000000000ull - 250000 + 50);
	flight_buffer_info(fl, 1, &bi);
	CHECK_STR(bi.clock, "local");
	CHECK_STR(bi.name, "ktop-1-1-f");
	flight_buffer_info(fl, 0, &bi);
	CHECK_STR(bi.name, "");
	flight_free(fl);
}

static const struct test tests[] = {
	{ "oldest_dropped", test_oldest_dropped },
	{ "partial_pages_joined", test_partial_pages_joined },
	{ "hold_keeps_the_moment", test_hold_keeps_the_moment },
	{ "mono_buffer_moved", test_mono_buffer_moved },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
