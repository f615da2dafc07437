// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/exits/taskparse.c: taskstats exit records in synthetic
 * netlink buffers, built here as the kernel builds them (kernel/taskstats.c:
 * mk_reply). Every parse goes through an exactly-sized heap copy, so under
 * AddressSanitizer a read past the buffer fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "../../collectors/exits/taskparse.h"
#include "test.h"

#define FAMILY 31

/* A buffer being built, with the open message and nest. */
struct nb {
	unsigned char b[16384];
	size_t len;
	size_t msg;	/* offset of the open message's header */
	size_t nest;	/* offset of the open nest's header */
};

static void put(struct nb *n, const void *p, size_t len)
{
	if (!len)
		return;
	if (n->len + len > sizeof(n->b))
		abort();
	memcpy(n->b + n->len, p, len);
	n->len += len;
}

static void pad4(struct nb *n)
{
	static const unsigned char zero[4];

	put(n, zero, NLMSG_ALIGN(n->len) - n->len);
}

static void msg_begin(struct nb *n, uint16_t type, uint8_t cmd)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_seq = 7 };
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };

	pad4(n);
	n->msg = n->len;
	put(n, &h, sizeof(h));
	put(n, &g, sizeof(g));
}

static void msg_end(struct nb *n)
{
	uint32_t len = (uint32_t)(n->len - n->msg);

	memcpy(n->b + n->msg, &len, sizeof(len));	/* nlmsg_len */
	pad4(n);
}

static void attr(struct nb *n, uint16_t type, const void *p, size_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = type };

	put(n, &a, sizeof(a));
	put(n, p, len);
	pad4(n);
}

static void nest_begin(struct nb *n, uint16_t type)
{
	struct nlattr a = { .nla_type = type | NLA_F_NESTED };

	n->nest = n->len;
	put(n, &a, sizeof(a));
}

static void nest_end(struct nb *n)
{
	uint16_t len = (uint16_t)(n->len - n->nest);

	memcpy(n->b + n->nest, &len, sizeof(len));
}

/* A struct taskstats of @len bytes (a newer kernel's is larger) with known values. */
struct fake {
	unsigned char s[1024];
	size_t len;
};

static void fake_init(struct fake *f, uint16_t version, size_t len, uint32_t pid)
{
	struct taskstats ts;

	memset(&ts, 0, sizeof(ts));
	ts.version = version;
	ts.ac_exitcode = 0x0700;
	ts.ac_flag = 0x21;	/* AFORK | AGROUP */
	ts.cpu_run_virtual_total = 50123456;
	memcpy(ts.ac_comm, "worker", 7);
	ts.ac_uid = 1000;
	ts.ac_gid = 100;
	ts.ac_pid = pid;
	ts.ac_ppid = 1;
	ts.ac_btime = 1700000000;
	ts.ac_etime = 1234567;
	ts.ac_utime = 40000;
	ts.ac_stime = 12000;
	ts.ac_minflt = 1234;
	ts.ac_majflt = 5;
	ts.hiwater_rss = 4096;
	ts.hiwater_vm = 8192;
	ts.read_char = 10240;
	ts.write_char = 2048;
	ts.read_syscalls = 1024;
	ts.write_syscalls = 2048;
	ts.read_bytes = 4096;
	ts.write_bytes = 8192;
	ts.cancelled_write_bytes = 1024;
	ts.nvcsw = 17;
	ts.nivcsw = 3;
	ts.ac_btime64 = 1700000001;
	ts.ac_tgid = pid - 4;
	memset(f->s, 0xa5, sizeof(f->s));	/* a newer kernel's fields: anything */
	memcpy(f->s, &ts, len < sizeof(ts) ? len : sizeof(ts));
	f->len = len;
}

/* One exit message: [NULL padding,] AGGR_PID nest [, AGGR_TGID nest]. */
static void put_exit(struct nb *n, const struct fake *thread, uint32_t pid,
		     const struct fake *group, uint32_t tgid, bool null_pad)
{
	msg_begin(n, FAMILY, TASKSTATS_CMD_NEW);
	if (null_pad)
		attr(n, TASKSTATS_TYPE_NULL, NULL, 0);
	nest_begin(n, TASKSTATS_TYPE_AGGR_PID);
	attr(n, TASKSTATS_TYPE_PID, &pid, sizeof(pid));
	attr(n, TASKSTATS_TYPE_STATS, thread->s, thread->len);
	nest_end(n);
	if (group) {
		nest_begin(n, TASKSTATS_TYPE_AGGR_TGID);
		attr(n, TASKSTATS_TYPE_TGID, &tgid, sizeof(tgid));
		attr(n, TASKSTATS_TYPE_STATS, group->s, group->len);
		nest_end(n);
	}
	msg_end(n);
}

static void put_ack(struct nb *n, int32_t err)
{
	struct nlmsghdr h = { .nlmsg_type = NLMSG_ERROR };

	pad4(n);
	n->msg = n->len;
	put(n, &h, sizeof(h));
	put(n, &err, sizeof(err));
	put(n, &h, sizeof(h));	/* the request's header, as the kernel echoes it */
	msg_end(n);
}

/* Parse @len bytes of @p from an exactly-sized heap copy. */
static size_t parse_exact(const void *p, size_t len, struct taskparse_exit *out, size_t max,
			  struct taskparse_stats *st)
{
	unsigned char *b = malloc(len ? len : 1);
	size_t r;

	if (!b)
		abort();
	memcpy(b, p, len);
	r = taskparse(b, len, FAMILY, out, max, st);
	free(b);
	return r;
}

static void check_fields(const struct taskparse_exit *e, pid_t tid)
{
	CHECK_EQ_I64(e->tid, tid);
	CHECK_EQ_I64(e->tgid, tid - 4);
	CHECK_EQ_I64(e->ppid, 1);
	CHECK_EQ_U64(e->uid, 1000);
	CHECK_EQ_U64(e->gid, 100);
	CHECK_EQ_U64(e->exit_code, 0x0700);
	CHECK_EQ_U64(e->ac_flag, 0x21);
	CHECK(!e->group);
	CHECK(e->group_dead);
	CHECK_STR(e->comm, "worker");
	CHECK_EQ_U64(e->btime, 1700000001);
	CHECK_EQ_U64(e->etime_us, 1234567);
	CHECK_EQ_U64(e->utime_us, 40000);
	CHECK_EQ_U64(e->stime_us, 12000);
	CHECK_EQ_U64(e->run_ns, 50123456);
	CHECK_EQ_U64(e->minflt, 1234);
	CHECK_EQ_U64(e->majflt, 5);
	CHECK_EQ_U64(e->nvcsw, 17);
	CHECK_EQ_U64(e->nivcsw, 3);
	CHECK_EQ_U64(e->rchar, 10240);
	CHECK_EQ_U64(e->wchar, 2048);
	CHECK_EQ_U64(e->syscr, 1024);
	CHECK_EQ_U64(e->syscw, 2048);
	CHECK_EQ_U64(e->read_bytes, 4096);
	CHECK_EQ_U64(e->write_bytes, 8192);
	CHECK_EQ_U64(e->cancelled_write_bytes, 1024);
	CHECK_EQ_U64(e->hiwater_rss_kb, 4096);
	CHECK_EQ_U64(e->hiwater_vm_kb, 8192);
	CHECK_EQ_U64(e->exit_lo_ns, 0);
	CHECK_EQ_U64(e->exit_hi_ns, 0);
}

static void test_well_formed(void)
{
	struct taskparse_stats st = { 0 };
	struct taskparse_exit e[4];
	struct fake f;
	struct nb n = { .len = 0 };

	fake_init(&f, 16, 560, 4321);	/* Linux 6.18's version and size */
	put_exit(&n, &f, 4321, NULL, 0, false);
	if (!CHECK_EQ_U64(parse_exact(n.b, n.len, e, 4, &st), 1))
		return;
	check_fields(&e[0], 4321);
	CHECK_EQ_U64(e[0].version, 16);
	CHECK_EQ_U64(e[0].len, 560);
	CHECK_EQ_U64(st.msgs, 1);
	CHECK_EQ_U64(st.malformed + st.unsupported + st.other + st.overflow + st.errors, 0);
}

/*
 * The buffer of test_several: a lone thread's exit, an ack, the last thread of
 * a threaded process (with the group record, unstamped as the kernel sends it,
 * and the NULL padding some architectures add), another family's message, and
 * a thread that is not the last. Records: 4.
 */
static void build_several(struct nb *n, size_t *ends)
{
	struct fake a, g, c;

	fake_init(&a, 16, 560, 100);
	put_exit(n, &a, 100, NULL, 0, false);
	ends[0] = n->len;
	put_ack(n, 0);
	ends[1] = n->len;
	fake_init(&a, 16, 560, 204);
	fake_init(&g, 0, 560, 0);
	put_exit(n, &a, 204, &g, 200, true);
	ends[2] = n->len;
	msg_begin(n, FAMILY + 1, TASKSTATS_CMD_NEW);
	attr(n, 1, "x", 2);
	msg_end(n);
	ends[3] = n->len;
	fake_init(&c, 16, 560, 205);
	((struct taskstats *)(void *)c.s)->ac_flag = 0;	/* not the last thread */
	put_exit(n, &c, 205, NULL, 0, false);
	ends[4] = n->len;
}

static const size_t several_records[5] = { 1, 1, 3, 3, 4 };

static void test_several(void)
{
	struct taskparse_stats st = { 0 };
	struct taskparse_exit e[8];
	size_t ends[5];
	struct nb n = { .len = 0 };

	build_several(&n, ends);
	if (!CHECK_EQ_U64(parse_exact(n.b, n.len, e, 8, &st), 4))
		return;
	check_fields(&e[0], 100);
	check_fields(&e[1], 204);
	CHECK(e[2].group);
	CHECK(e[2].group_dead);
	CHECK_EQ_I64(e[2].tgid, 200);
	CHECK_EQ_I64(e[2].tid, 0);
	CHECK_EQ_U64(e[2].version, 16);	/* taken from the thread record */
	CHECK_EQ_I64(e[3].tid, 205);
	CHECK(!e[3].group_dead);
	CHECK_EQ_U64(st.msgs, 5);
	CHECK_EQ_U64(st.other, 2);
	CHECK_EQ_U64(st.malformed + st.unsupported + st.overflow + st.errors, 0);
}

/* Cut at every length: records of the whole messages only, one malformed otherwise. */
static void test_truncated(void)
{
	struct taskparse_exit e[8], full[8];
	struct taskparse_stats st;
	size_t ends[5], len, k, want, got, i;
	struct nb n = { .len = 0 };

	build_several(&n, ends);
	memset(&st, 0, sizeof(st));
	parse_exact(n.b, n.len, full, 8, &st);
	for (len = 0; len <= n.len; len++) {
		memset(&st, 0, sizeof(st));
		got = parse_exact(n.b, len, e, 8, &st);
		want = 0;
		for (k = 0; k < 5 && ends[k] <= len; k++)
			want = several_records[k];
		/* A boundary: the previous message's end or its padding. */
		bool at_end = len == 0;

		for (k = 0; k < 5; k++)
			at_end |= len == ends[k];
		if (!CHECK_EQ_U64(got, want) || !CHECK_EQ_U64(st.malformed, at_end ? 0 : 1)) {
			printf("# cut at %zu of %zu\n", len, n.len);
			return;
		}
		for (i = 0; i < got; i++)
			CHECK(memcmp(&e[i], &full[i], sizeof(e[i])) == 0);
	}
}

/* A message with one defect among good ones: it is malformed, the others read. */
static void test_wrong_lengths(void)
{
	struct taskparse_stats st;
	struct taskparse_exit e[8];
	struct fake f, shortf;
	uint32_t pid = 300;
	uint16_t pid16 = 300;
	struct nb n;
	int kind;

	fake_init(&f, 16, 560, 300);
	fake_init(&shortf, 16, TS_STATS_MIN_LEN - 1, 300);
	for (kind = 0; kind < 9; kind++) {
		memset(&n, 0, sizeof(n));
		put_exit(&n, &f, 300, NULL, 0, false);
		msg_begin(&n, FAMILY, TASKSTATS_CMD_NEW);
		switch (kind) {
		case 0:	/* struct shorter than any kernel's */
			nest_begin(&n, TASKSTATS_TYPE_AGGR_PID);
			attr(&n, TASKSTATS_TYPE_PID, &pid, sizeof(pid));
			attr(&n, TASKSTATS_TYPE_STATS, shortf.s, shortf.len);
			nest_end(&n);
			break;
		case 1:	/* a 2-byte pid */
			nest_begin(&n, TASKSTATS_TYPE_AGGR_PID);
			attr(&n, TASKSTATS_TYPE_PID, &pid16, sizeof(pid16));
			attr(&n, TASKSTATS_TYPE_STATS, f.s, f.len);
			nest_end(&n);
			break;
		case 2:	/* a group nest naming a thread */
			nest_begin(&n, TASKSTATS_TYPE_AGGR_TGID);
			attr(&n, TASKSTATS_TYPE_PID, &pid, sizeof(pid));
			attr(&n, TASKSTATS_TYPE_STATS, f.s, f.len);
			nest_end(&n);
			break;
		case 3:	/* two structs */
			nest_begin(&n, TASKSTATS_TYPE_AGGR_PID);
			attr(&n, TASKSTATS_TYPE_PID, &pid, sizeof(pid));
			attr(&n, TASKSTATS_TYPE_STATS, f.s, f.len);
			attr(&n, TASKSTATS_TYPE_STATS, f.s, f.len);
			nest_end(&n);
			break;
		case 4:	/* no struct */
			nest_begin(&n, TASKSTATS_TYPE_AGGR_PID);
			attr(&n, TASKSTATS_TYPE_PID, &pid, sizeof(pid));
			nest_end(&n);
			break;
		case 5:	/* a nest longer than its message */
			nest_begin(&n, TASKSTATS_TYPE_AGGR_PID);
			attr(&n, TASKSTATS_TYPE_PID, &pid, sizeof(pid));
			nest_end(&n);
			n.b[n.nest] = 200;
			break;
		case 6:	/* an attribute shorter than its header */
			nest_begin(&n, TASKSTATS_TYPE_AGGR_PID);
			attr(&n, TASKSTATS_TYPE_PID, &pid, sizeof(pid));
			nest_end(&n);
			n.b[n.nest + NLA_HDRLEN] = 2;
			break;
		case 7:	/* trailing bytes after the last attribute */
			put(&n, "\1\0", 2);
			break;
		case 8:	/* a message too short for its generic netlink header */
			n.len = n.msg + NLMSG_HDRLEN + 2;
			break;
		}
		msg_end(&n);
		if (kind == 8) {
			uint32_t l = NLMSG_HDRLEN + 2;

			memcpy(n.b + n.msg, &l, sizeof(l));
		}
		put_exit(&n, &f, 300, NULL, 0, false);
		memset(&st, 0, sizeof(st));
		if (!CHECK_EQ_U64(parse_exact(n.b, n.len, e, 8, &st), 2) ||
		    !CHECK_EQ_U64(st.malformed, 1) || !CHECK_EQ_U64(st.msgs, 3))
			printf("# defect %d\n", kind);
	}

	/* Message lengths that lose the next message: the rest of the buffer goes. */
	for (kind = 0; kind < 3; kind++) {
		uint32_t bad[] = { 0, NLMSG_HDRLEN - 1, 100000 };

		memset(&n, 0, sizeof(n));
		put_exit(&n, &f, 300, NULL, 0, false);
		put_exit(&n, &f, 300, NULL, 0, false);
		memcpy(n.b + n.msg, &bad[kind], sizeof(bad[kind]));
		put_exit(&n, &f, 300, NULL, 0, false);
		memset(&st, 0, sizeof(st));
		CHECK_EQ_U64(parse_exact(n.b, n.len, e, 8, &st), 1);
		CHECK_EQ_U64(st.malformed, 1);
	}

	/* An error answer, counted with its errno. */
	memset(&n, 0, sizeof(n));
	put_ack(&n, -EPERM);
	memset(&st, 0, sizeof(st));
	CHECK_EQ_U64(parse_exact(n.b, n.len, e, 8, &st), 0);
	CHECK_EQ_U64(st.errors, 1);
	CHECK_EQ_I64(st.last_error, -EPERM);
}

/* Newer and older structs, and the versions that cannot be read. */
static void test_versions(void)
{
	struct taskparse_stats st;
	struct taskparse_exit e[2];
	struct fake f;
	struct nb n;

	/* A future kernel: larger, its new fields ignored, the old ones where they were. */
	memset(&n, 0, sizeof(n));
	fake_init(&f, 40, 1000, 500);
	put_exit(&n, &f, 500, NULL, 0, false);
	memset(&st, 0, sizeof(st));
	if (CHECK_EQ_U64(parse_exact(n.b, n.len, e, 2, &st), 1)) {
		check_fields(&e[0], 500);
		CHECK_EQ_U64(e[0].len, 1000);
		CHECK_EQ_U64(e[0].version, 40);
	}

	/* Version 9 (Linux 4.x): no btime64, no tgid, no AGROUP. */
	memset(&n, 0, sizeof(n));
	fake_init(&f, 9, 344, 501);
	put_exit(&n, &f, 501, NULL, 0, false);
	memset(&st, 0, sizeof(st));
	if (CHECK_EQ_U64(parse_exact(n.b, n.len, e, 2, &st), 1)) {
		CHECK_EQ_U64(e[0].btime, 1700000000);
		CHECK_EQ_I64(e[0].tgid, 0);
		CHECK(!e[0].group_dead);
		CHECK_EQ_U64(e[0].minflt, 1234);
	}

	/* A version-12 number on a struct too short for ac_tgid: the length rules. */
	memset(&n, 0, sizeof(n));
	fake_init(&f, 12, 368, 502);
	put_exit(&n, &f, 502, NULL, 0, false);
	memset(&st, 0, sizeof(st));
	if (CHECK_EQ_U64(parse_exact(n.b, n.len, e, 2, &st), 1)) {
		CHECK_EQ_I64(e[0].tgid, 0);
		CHECK_EQ_U64(e[0].btime, 1700000001);
	}

	/* Versions 1 and 15 have other layouts; a thread's 0 is not a version. */
	for (unsigned v = 0; v < 3; v++) {
		static const uint16_t bad[] = { 1, 15, 0 };

		memset(&n, 0, sizeof(n));
		fake_init(&f, bad[v], 560, 503);
		put_exit(&n, &f, 503, &f, 503, false);
		memset(&st, 0, sizeof(st));
		CHECK_EQ_U64(parse_exact(n.b, n.len, e, 2, &st), 0);
		CHECK_EQ_U64(st.unsupported, 2);
		CHECK_EQ_U64(st.malformed, 0);
	}
}

static void test_comm(void)
{
	struct taskparse_stats st = { 0 };
	struct taskstats *ts;
	struct taskparse_exit e[1];
	struct fake f;
	struct nb n = { .len = 0 };

	fake_init(&f, 16, 560, 600);
	ts = (struct taskstats *)(void *)f.s;
	memset(ts->ac_comm, 'a', sizeof(ts->ac_comm));	/* no NUL at all */
	ts->ac_comm[0] = '\n';
	ts->ac_comm[1] = 0x7f;
	ts->ac_comm[2] = (char)0xc3;	/* UTF-8 bytes stay as they are */
	ts->ac_comm[3] = (char)0xa9;
	put_exit(&n, &f, 600, NULL, 0, false);
	if (!CHECK_EQ_U64(parse_exact(n.b, n.len, e, 1, &st), 1))
		return;
	CHECK_EQ_U64(strlen(e[0].comm), TS_COMM_LEN - 1);
	CHECK(memcmp(e[0].comm, "??\xc3\xa9" "aaaa", 8) == 0);
}

static void test_overflow(void)
{
	struct taskparse_stats st = { 0 };
	struct taskparse_exit e[2];
	size_t ends[5];
	struct nb n = { .len = 0 };

	build_several(&n, ends);
	CHECK_EQ_U64(parse_exact(n.b, n.len, e, 2, &st), 2);
	CHECK_EQ_U64(st.overflow, 2);
	CHECK_EQ_U64(taskparse(n.b, n.len, FAMILY, NULL, 0, &st), 0);
	/* Family 0 (unresolved) matches nothing. */
	memset(&st, 0, sizeof(st));
	CHECK_EQ_U64(taskparse(n.b, n.len, 0, e, 2, &st), 0);
	CHECK_EQ_U64(st.other, 5);
}

static void test_start_window(void)
{
	struct taskparse_exit e;
	uint64_t lo, hi;

	memset(&e, 0, sizeof(e));
	e.tid = 42;
	e.tgid = 40;
	e.etime_us = 2500000;	/* 2.5 s */
	CHECK(!taskparse_start_window(&e, 100, &lo, &hi));
	CHECK(taskparse_exit_is(&e, 42, 12345, 100));	/* no bounds: the pid only */
	CHECK(!taskparse_exit_is(&e, 40, 12345, 100));

	/* Exit between 100.000 s and 100.004 s after boot: start at 97.5..97.504 s. */
	e.exit_lo_ns = 100000000000ull;
	e.exit_hi_ns = 100004000000ull;
	CHECK(taskparse_start_window(&e, 100, &lo, &hi));
	CHECK_EQ_U64(lo, 9749);	/* 97.499999 s: etime lost its last microsecond */
	CHECK_EQ_U64(hi, 9750);
	CHECK(taskparse_exit_is(&e, 42, 9750, 100));
	CHECK(taskparse_exit_is(&e, 42, 9749, 100));
	CHECK(!taskparse_exit_is(&e, 42, 9751, 100));
	CHECK(!taskparse_exit_is(&e, 42, 9700, 100));
	CHECK(!taskparse_exit_is(&e, 43, 9750, 100));
	CHECK(taskparse_start_window(&e, 1000, &lo, &hi));	/* another USER_HZ */
	CHECK_EQ_U64(lo, 97499);
	CHECK_EQ_U64(hi, 97504);

	/* A group record is of its process. */
	e.group = true;
	CHECK(taskparse_exit_is(&e, 40, 9750, 100));
	CHECK(!taskparse_exit_is(&e, 42, 9750, 100));

	/* Nonsense never wraps: an etime longer than the uptime, huge values. */
	e.etime_us = UINT64_MAX;
	CHECK(taskparse_start_window(&e, 100, &lo, &hi));
	CHECK_EQ_U64(lo, 0);
	CHECK_EQ_U64(hi, 0);
	e.exit_lo_ns = e.exit_hi_ns = UINT64_MAX;
	e.etime_us = 0;
	CHECK(taskparse_start_window(&e, 100, &lo, &hi));
	CHECK_EQ_U64(hi, UINT64_MAX / 10000000u);
	CHECK(!taskparse_start_window(&e, 0, &lo, &hi));
	e.exit_lo_ns = 10;
	e.exit_hi_ns = 5;
	CHECK(!taskparse_start_window(&e, 100, &lo, &hi));	/* lo > hi */
}

/* Random damage to a good buffer, exact-size copies: no crash, sane records. */
static void test_mutations(void)
{
	struct taskparse_exit e[16];
	struct taskparse_stats st;
	unsigned char *b;
	size_t ends[5], got, i, k;
	uint32_t x = 0x1234567;
	struct nb n = { .len = 0 };
	int round;

	build_several(&n, ends);
	b = malloc(n.len);
	if (!b)
		abort();
	for (round = 0; round < 20000; round++) {
		memcpy(b, n.b, n.len);
		for (k = 1 + test_rand(&x) % 4; k; k--)
			b[test_rand(&x) % n.len] = (unsigned char)test_rand(&x);
		memset(&st, 0, sizeof(st));
		got = parse_exact(b, test_rand(&x) % (n.len + 1), e, 16, &st);
		if (!CHECK(got <= 16))
			break;
		for (i = 0; i < got; i++)
			if (!CHECK(memchr(e[i].comm, '\0', sizeof(e[i].comm))))
				break;
	}
	free(b);
}

static const struct test tests[] = {
	{ "well_formed", test_well_formed },
	{ "several", test_several },
	{ "truncated", test_truncated },
	{ "wrong_lengths", test_wrong_lengths },
	{ "versions", test_versions },
	{ "comm", test_comm },
	{ "overflow", test_overflow },
	{ "start_window", test_start_window },
	{ "mutations", test_mutations },
};

int main(void)
{
	return run_tests(tests, sizeof(tests) / sizeof(tests[0]));
}
