// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/trace/blockev.c: block requests counted at completion,
 * issues paired with their completions by (dev, sector) in time order though
 * the CPUs' buffers are read one after the other (held until the tick's
 * cut), requeues, the end of a flush sequence, and the submitters.
 */
#include "../../collectors/trace/blockev.h"
#include "../../model/sample.h"
#include "../../lib/util.h"
#include "test.h"

#define DEV (7u << 20 | 3u)	/* loop3 */
#define US 1000ull

/* The one device's reading of the interval blockev_fill gives after a cut at @cut. */
static struct disk_reading tick(struct blockev *b, uint64_t cut)
{
	struct sample s;
	struct disk_reading r = { 0 };

	blockev_cut(b, cut);
	sample_init(&s);
	blockev_fill(b, &s, NULL, NULL);
	CHECK(s.have_disks);
	if (CHECK_EQ_U64(s.ndisks, 1))
		r = s.disks[0];
	sample_free(&s);
	return r;
}

/* A tick whose cut is past every event read. */
static struct disk_reading fill(struct blockev *b)
{
	return tick(b, UINT64_MAX);
}

/*
 * A sector written again and again: issue on CPU 1, completion on CPU 0,
 * and CPU 0's page read first (every completion before any issue).
 */
static void test_same_sector_across_cpus(void)
{
	struct blockev *b = blockev_new(NULL);
	struct blockev_stats st;
	struct disk_reading r;

	blockev_complete(b, DEV, 800, 8, "WS", 2, 1000 * US + 40 * US);
	blockev_complete(b, DEV, 800, 8, "WS", 2, 1100 * US + 300 * US);
	blockev_issue(b, DEV, 800, 8, "WS", 2, 1000 * US);
	blockev_issue(b, DEV, 800, 8, "WS", 2, 1100 * US);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 2);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 8192);
	CHECK_EQ_U64(r.timed, 2);
	CHECK_EQ_U64(r.max_ns, 300 * US);
	CHECK_EQ_U64(r.lat_ns, 340 * US);
	CHECK_EQ_U64(r.inflight, 0);
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.matched, 2);
	CHECK_EQ_U64(st.inflight, 0);
	/* In the other order: each completion takes the latest issue before it. */
	blockev_issue(b, DEV, 800, 8, "W", 1, 2000 * US);
	blockev_issue(b, DEV, 800, 8, "W", 1, 2100 * US);
	blockev_complete(b, DEV, 800, 8, "W", 1, 2050 * US);
	blockev_complete(b, DEV, 800, 8, "W", 1, 2110 * US);
	r = fill(b);
	CHECK_EQ_U64(r.timed, 2);
	CHECK_EQ_U64(r.lat_ns, 60 * US);
	CHECK_EQ_U64(r.inflight, 0);
	blockev_free(b);
}

/* Issued, put back (the driver was busy), issued again: timed from the last issue. */
static void test_requeue(void)
{
	struct blockev *b = blockev_new(NULL);
	struct disk_reading r;

	blockev_issue(b, DEV, 16, 8, "WM", 2, 100 * US);
	blockev_requeue(b, DEV, 16, 101 * US);
	blockev_issue(b, DEV, 16, 8, "WM", 2, 150 * US);
	blockev_complete(b, DEV, 16, 8, "WM", 2, 170 * US);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 1);
	CHECK_EQ_U64(r.timed, 1);
	CHECK_EQ_U64(r.max_ns, 20 * US);
	CHECK_EQ_U64(r.inflight, 0);
	blockev_free(b);
}

/*
 * An fsync's flush: the flush request (FF, sector -1 at completion) and the
 * empty write that asked for it (W, no sector): flushes, not writes. Reads,
 * discards; one left in flight.
 */
static void test_kinds(void)
{
	struct blockev *b = blockev_new(NULL);
	struct blockev_stats st;
	struct disk_reading r;

	blockev_issue(b, DEV, 0, 0, "FF", 2, 10 * US);
	blockev_complete(b, DEV, UINT64_MAX, 0, "FF", 2, 20 * US);
	blockev_complete(b, DEV, 0, 0, "WS", 2, 21 * US);
	blockev_issue(b, DEV, 64, 32, "RA", 2, 30 * US);
	blockev_complete(b, DEV, 64, 32, "RA", 2, 31 * US);
	blockev_issue(b, DEV, 128, 8, "DS", 2, 40 * US);
	blockev_complete(b, DEV, 128, 8, "DS", 2, 45 * US);
	blockev_issue(b, DEV, 256, 8, "FWS", 3, 50 * US);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_READ], 1);
	CHECK_EQ_U64(r.bytes[DISK_READ], 16384);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 0);
	CHECK_EQ_U64(r.other, 3);
	CHECK_EQ_U64(r.timed, 1);
	CHECK_EQ_U64(r.inflight, 1);
	CHECK(!strcmp(r.name, "7:3"));
	/*
	 * A completion whose issue was never read waits four ticks, then is
	 * dropped: its bytes counted when read, the request when dropped.
	 */
	blockev_complete(b, DEV, 4096, 8, "W", 1, 60 * US);
	r = fill(b);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 4096);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 0);
	fill(b);
	fill(b);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 0);
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.early, 1);
	CHECK_EQ_U64(st.unmatched, 0);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 1);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 0);
	CHECK_EQ_U64(r.timed, 0);
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.unmatched, 1);
	CHECK_EQ_U64(st.inflight, 1);
	blockev_free(b);
}

static void test_submitters(void)
{
	struct blockev *b = blockev_new(NULL);
	struct disk_reading r;
	int i;

	for (i = 0; i < 5; i++)
		blockev_start(b, DEV, 300 + i, "kworker/u8:1", 12, 4096u * (uint32_t)(i + 1));
	blockev_start(b, DEV, 42, "dd", 2, 1 << 20);
	r = fill(b);
	CHECK_EQ_U64(r.nsub, DISK_SUBMITTERS);
	CHECK_EQ_U64(r.sub[0].pid, 42);
	CHECK(!strcmp(r.sub[0].comm, "dd"));
	CHECK_EQ_U64(r.sub[1].pid, 304);
	CHECK_EQ_U64(r.sub_reqs, 6);
	CHECK_EQ_U64(r.sub_bytes, (1 << 20) + 4096 * 15);
	/* The next interval starts empty. */
	r = fill(b);
	CHECK_EQ_U64(r.nsub, 0);
	CHECK_EQ_U64(r.sub_reqs, 0);
	blockev_free(b);
}

/*
 * A request the driver completes in parts (blk_update_request with fewer
 * bytes than the request has: block_rq_complete per part, each at the
 * part's sector): /sys/block/DEV/stat counts each part's sectors and the
 * request once, at its end. So does blockev; its time runs from the issue
 * to the last part. Both orders: the parts read after the issue, and read
 * before it (the completions' CPU read first).
 */
static void test_partial(void)
{
	struct blockev *b = blockev_new(NULL);
	struct blockev_stats st;
	struct disk_reading r;

	/* 64 KiB written, completed 16 + 48 KiB. */
	blockev_issue(b, DEV, 1000, 128, "W", 1, 100 * US);
	blockev_complete(b, DEV, 1000, 32, "W", 1, 150 * US);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 0);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 32 * 512);
	CHECK_EQ_U64(r.timed, 0);
	CHECK_EQ_U64(r.inflight, 1);
	blockev_complete(b, DEV, 1032, 96, "W", 1, 400 * US);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 1);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 96 * 512);
	CHECK_EQ_U64(r.timed, 1);
	CHECK_EQ_U64(r.max_ns, 300 * US);
	CHECK_EQ_U64(r.inflight, 0);
	/* A read in three parts, all read before its issue. */
	blockev_complete(b, DEV, 5000, 8, "R", 1, 510 * US);
	blockev_complete(b, DEV, 5008, 8, "R", 1, 520 * US);
	blockev_complete(b, DEV, 5016, 16, "R", 1, 530 * US);
	blockev_issue(b, DEV, 5000, 32, "R", 1, 500 * US);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_READ], 1);
	CHECK_EQ_U64(r.bytes[DISK_READ], 32 * 512);
	CHECK_EQ_U64(r.timed, 1);
	CHECK_EQ_U64(r.max_ns, 30 * US);
	CHECK_EQ_U64(r.inflight, 0);
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.parts, 3);
	CHECK_EQ_U64(st.inflight, 0);
	blockev_free(b);
}

/*
 * dd's writes then reads of the same sectors (disks.bats's exporter test):
 * the write issued and completed on CPU 1, the read of its sector issued on
 * CPU 1 and completed on CPU 0, whose page is read first. Paired as read, the
 * write's issue took the read's completion, the write's completion waited
 * for an issue that was gone, and the read stayed in flight: all three
 * requests untimed or mistimed. Held for the cut, they pair in time order.
 */
static void test_cut_orders_cpus(void)
{
	struct blockev *b = blockev_new(NULL);
	struct blockev_stats st;
	struct disk_reading r;
	int i;

	/* CPU 0: the reads' completions. */
	for (i = 0; i < 3; i++)
		blockev_complete(b, DEV, 8u * i, 8, "R", 1, (2000 + 100 * i + 30) * US);
	/* CPU 1: the writes, then the reads' issues. */
	for (i = 0; i < 3; i++) {
		blockev_issue(b, DEV, 8u * i, 8, "WS", 2, (1000 + 100 * i) * US);
		blockev_complete(b, DEV, 8u * i, 8, "WS", 2, (1000 + 100 * i + 20) * US);
	}
	for (i = 0; i < 3; i++)
		blockev_issue(b, DEV, 8u * i, 8, "R", 1, (2000 + 100 * i) * US);
	r = tick(b, 3000 * US);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 3);
	CHECK_EQ_U64(r.ios[DISK_READ], 3);
	CHECK_EQ_U64(r.timed, 6);
	CHECK_EQ_U64(r.lat_ns, 3 * 20 * US + 3 * 30 * US);
	CHECK_EQ_U64(r.max_ns, 30 * US);
	CHECK_EQ_U64(r.inflight, 0);
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.matched, 6);
	CHECK_EQ_U64(st.early, 0);
	CHECK_EQ_U64(st.inflight, 0);
	blockev_free(b);
}

/* What was read past the cut (its CPU read after the cut) is the next interval's. */
static void test_cut_holds_later(void)
{
	struct blockev *b = blockev_new(NULL);
	struct blockev_stats st;
	struct disk_reading r;

	blockev_issue(b, DEV, 64, 8, "W", 1, 100 * US);
	blockev_complete(b, DEV, 64, 8, "W", 1, 300 * US);
	r = tick(b, 200 * US);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 0);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 0);
	CHECK_EQ_U64(r.inflight, 1);
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.pending, 1);
	r = tick(b, 400 * US);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 1);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 4096);
	CHECK_EQ_U64(r.timed, 1);
	CHECK_EQ_U64(r.max_ns, 200 * US);
	CHECK_EQ_U64(r.inflight, 0);
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.pending, 0);
	CHECK_EQ_U64(st.early, 0);
	blockev_free(b);
}

/*
 * A completion whose issue came two ticks after its cut (the issue's CPU not
 * read to its end, under load): it waits for it, and is timed; its request
 * is counted when paired, its bytes when read. A part read so, then its
 * issue: the request once.
 */
static void test_early_two_ticks(void)
{
	struct blockev *b = blockev_new(NULL);
	struct blockev_stats st;
	struct disk_reading r;

	blockev_complete(b, DEV, 512, 8, "W", 1, 1000 * US);
	blockev_complete(b, DEV, 896, 8, "R", 1, 1010 * US);
	r = tick(b, 2000 * US);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 4096);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 0);
	CHECK_EQ_U64(r.bytes[DISK_READ], 4096);
	r = tick(b, 3000 * US);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 0);
	blockev_issue(b, DEV, 512, 8, "W", 1, 900 * US);
	blockev_issue(b, DEV, 896, 16, "R", 1, 905 * US);
	r = tick(b, 4000 * US);
	CHECK_EQ_U64(r.ios[DISK_WRITE], 1);
	CHECK_EQ_U64(r.bytes[DISK_WRITE], 0);
	CHECK_EQ_U64(r.timed, 1);
	CHECK_EQ_U64(r.max_ns, 100 * US);
	/* The read's part (sectors 896-903 of 896-911) is not its last: in flight from 904. */
	CHECK_EQ_U64(r.ios[DISK_READ], 0);
	CHECK_EQ_U64(r.inflight, 1);
	blockev_complete(b, DEV, 904, 8, "R", 1, 4100 * US);
	r = tick(b, 5000 * US);
	CHECK_EQ_U64(r.ios[DISK_READ], 1);
	CHECK_EQ_U64(r.bytes[DISK_READ], 4096);
	CHECK_EQ_U64(r.timed, 1);
	CHECK_EQ_U64(r.inflight, 0);
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.early, 2);
	CHECK_EQ_U64(st.unmatched, 0);
	CHECK_EQ_U64(st.matched, 2);
	CHECK_EQ_U64(st.inflight, 0);
	blockev_free(b);
}

/* Events read between cuts past the bound: the older half is paired at once, and counted. */
static void test_pending_bound(void)
{
	struct blockev *b = blockev_new(NULL);
	struct blockev_stats st;
	struct disk_reading r;
	uint64_t i, n = 8 * BLOCKEV_INFLIGHT_MAX + 2;

	for (i = 0; i < n / 2; i++) {
		blockev_issue(b, DEV, 8 * i, 8, "W", 1, (10 * i + 1) * US);
		blockev_complete(b, DEV, 8 * i, 8, "W", 1, (10 * i + 5) * US);
	}
	blockev_get_stats(b, &st);
	CHECK_EQ_U64(st.forced, 4 * BLOCKEV_INFLIGHT_MAX);
	CHECK_EQ_U64(st.pending, n - 4 * BLOCKEV_INFLIGHT_MAX);
	r = fill(b);
	CHECK_EQ_U64(r.ios[DISK_WRITE], n / 2);
	CHECK_EQ_U64(r.timed, n / 2);
	CHECK_EQ_U64(r.max_ns, 4 * US);
	CHECK_EQ_U64(r.inflight, 0);
	blockev_free(b);
}

/* Not root: a task that is not the user's is counted, not named (its bytes are "others"). */
static bool not_42(void *arg, pid_t tid)
{
	(void)arg;
	return tid != 42;
}

static void test_submitters_hidden(void)
{
	struct blockev *b = blockev_new(NULL);
	struct sample s;
	struct disk_reading r;

	blockev_start(b, DEV, 42, "dd", 2, 1 << 20);
	blockev_start(b, DEV, 7, "mine", 4, 4096);
	sample_init(&s);
	blockev_fill(b, &s, not_42, NULL);
	CHECK_EQ_U64(s.ndisks, 1);
	r = s.disks[0];
	sample_free(&s);
	CHECK_EQ_U64(r.nsub, 1);
	CHECK_EQ_U64(r.sub[0].pid, 7);
	CHECK_EQ_U64(r.sub_hidden, 1);
	CHECK_EQ_U64(r.sub_reqs, 2);
	CHECK_EQ_U64(r.sub_bytes, (1 << 20) + 4096);
	blockev_free(b);
}

static const struct test tests[] = {
	{ "submitters_hidden", test_submitters_hidden },
	{ "partial", test_partial },
	{ "same_sector_across_cpus", test_same_sector_across_cpus },
	{ "requeue", test_requeue },
	{ "kinds", test_kinds },
	{ "cut_orders_cpus", test_cut_orders_cpus },
	{ "cut_holds_later", test_cut_holds_later },
	{ "early_two_ticks", test_early_two_ticks },
	{ "pending_bound", test_pending_bound },
	{ "submitters", test_submitters },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
