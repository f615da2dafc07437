// SPDX-License-Identifier: GPL-2.0-only
/*
 * The process table's definition (tables/proctable.c) as the JSON writer reads
 * it: the name and command line as the kernel has them, no user as null, and
 * the other text columns (the cgroup columns, top_syscall) whole, not cut to
 * the 7 bytes the writer's buffer once held ("/proces" for /process_api/...).
 */
#include "../../tables/proctable.h"
#include "../../lib/util.h"
#include "test.h"

static const char *json_of(const struct task *t, int col, char *buf, size_t n, size_t *len)
{
	struct row r = { .task = t };
	struct rowset rs = { .rows = &r, .nrows = 1 };
	struct model m = { 0 };
	struct table tb;
	char *owned = NULL;
	const char *s;

	proc_table(&tb, &m, &rs, &col, 1);
	s = proc_table_def.json(&tb, &r, col, buf, n, len, &owned);
	if (s && owned) {	/* the test's buffer is big enough: never a copy */
		free(owned);
		return "(copied)";
	}
	return s;
}

static void test_json_text(void)
{
	static char cmdline[] = "sleep\0" "1000\0";
	struct task t = { .pid = 7, .state = 'S', .cgroup = "/system.slice/cron.service",
			  .cmdline = cmdline, .cmdline_len = sizeof(cmdline) - 1 };
	char buf[4300];
	size_t len = 0;
	const char *s;

	snprintf(t.comm, sizeof(t.comm), "sl\x01" "ep");
	s = json_of(&t, COL_COMM, buf, sizeof(buf), &len);
	CHECK(s && len == 5 && !memcmp(s, "sl\x01" "ep", 5));	/* raw: the writer escapes */
	s = json_of(&t, COL_CMDLINE, buf, sizeof(buf), &len);
	CHECK(s && len == 10 && !memcmp(s, "sleep 1000", 10));
	CHECK(json_of(&t, COL_USER, buf, sizeof(buf), &len) == NULL);	/* null */
	s = json_of(&t, COL_STATE, buf, sizeof(buf), &len);
	CHECK_STR(s, "S");
	s = json_of(&t, COL_CGROUP, buf, sizeof(buf), &len);
	CHECK_STR(s, "/system.slice/cron.service");
	CHECK_EQ_U64(len, strlen("/system.slice/cron.service"));
	s = json_of(&t, COL_UNIT, buf, sizeof(buf), &len);
	CHECK_STR(s, "cron.service");
}

/* Durations in the unit they need; a percentile marked as the bound it is. */
static void test_durations(void)
{
	char b[32];

	fmt_usec(b, sizeof(b), 0.4, false, true);
	CHECK_STR(b, "0.4us");
	fmt_usec(b, sizeof(b), 16, false, true);
	CHECK_STR(b, "16us");
	fmt_usec(b, sizeof(b), 999.4, false, true);
	CHECK_STR(b, "999us");
	fmt_usec(b, sizeof(b), 999.6, false, true);
	CHECK_STR(b, "1.00ms");
	fmt_usec(b, sizeof(b), 4194.304, false, true);
	CHECK_STR(b, "4.19ms");
	fmt_usec(b, sizeof(b), 48668, false, true);
	CHECK_STR(b, "48.7ms");
	fmt_usec(b, sizeof(b), 262144, true, true);
	CHECK_STR(b, "\u2264262ms");
	fmt_usec(b, sizeof(b), 262144, true, false);
	CHECK_STR(b, "<=262ms");
	fmt_usec(b, sizeof(b), 3001716, false, true);
	CHECK_STR(b, "3.00s");
	fmt_usec(b, sizeof(b), 67108864, false, true);
	CHECK_STR(b, "67.1s");
	fmt_usec(b, sizeof(b), 1501534000, false, true);
	CHECK_STR(b, "1502s");
}

/* WAIT%: the larger of the waits, named; not known without their numbers. */
static void test_wait(void)
{
	struct model m = { .interval_s = 2, .event_counters = (1u << CNT_RUNQ) | (1u << CNT_BLOCKED) };
	struct task t = { .pid = 9, .starttime = 5, .state = 'D' };
	bool kept[COL_NR] = { false };
	const char *word;
	char b[32];
	double v;

	CHECK(!columns_wait(&m, &t, &v, &word));
	CHECK_STR(fmt_cell(&m, &t, COL_WAIT, b, sizeof(b), true), "-");
	/* 2 s: 0.4 s waiting for a CPU (20%), 1.2 s blocked (60%). */
	t.have_delta = (1u << CNT_RUNQ) | (1u << CNT_BLOCKED);
	t.delta[CNT_RUNQ] = 400000000;
	t.delta[CNT_BLOCKED] = 1200000000;
	CHECK(columns_wait(&m, &t, &v, &word));
	CHECK(v > 59.99 && v < 60.01);
	CHECK_STR(word, "blk");
	CHECK_STR(fmt_cell(&m, &t, COL_WAIT, b, sizeof(b), true), "blk 60");
	t.delta[CNT_RUNQ] = 3 * 2000000000ull;	/* three threads waiting all the time: 300% */
	CHECK_STR(fmt_cell(&m, &t, COL_WAIT, b, sizeof(b), true), "runq 300");
	t.delta[CNT_RUNQ] = t.delta[CNT_BLOCKED] = 0;
	CHECK_STR(fmt_cell(&m, &t, COL_WAIT, b, sizeof(b), true), "0");
	/* It says nothing more where RUNQ% and BLOCK% both show. */
	kept[COL_RUNQ] = true;
	CHECK(!columns_wait_redundant(kept));
	kept[COL_BLOCKED] = true;
	CHECK(columns_wait_redundant(kept));
}

/* What only stat says is not known of a task /proc never read (born and gone). */
static void test_unread(void)
{
	struct model m = { .interval_s = 1 };
	struct task t = { .pid = 9, .state = 'X' };
	char b[32];
	double v;

	CHECK(!columns_num(&m, &t, COL_NICE, &v));
	CHECK(!columns_num(&m, &t, COL_RSS, &v));
	CHECK_STR(fmt_cell(&m, &t, COL_RSS, b, sizeof(b), true), "-");
	t.starttime = 77;	/* read once: its last reading */
	CHECK(columns_num(&m, &t, COL_NICE, &v) && v == 0);
	/* A kernel thread is bracketed before its command line is read. */
	t.ppid = 2;
	snprintf(t.comm, sizeof(t.comm), "kworker/0:1");
	CHECK_STR(columns_text(&t, COL_CMDLINE, b, sizeof(b), true), "[kworker/0:1]");
	CHECK_STR(fmt_cell(&m, &t, COL_COMM, b, sizeof(b), true), "[kworker/0:1]");
	CHECK_STR(columns_text(&t, COL_COMM, b, sizeof(b), true), "kworker/0:1");	/* CSV: the name */
}

/*
 * A kernel thread is what stat's PF_KTHREAD says, not its parent: a helper
 * kthreadd forks (modprobe, a core_pattern pipe) has no memory before its
 * exec, and is not one; a recording (no flags) goes by the parent.
 */
static void test_kthread_flag(void)
{
	struct model m = { .interval_s = 1 };
	struct task t = { .pid = 4242, .ppid = 2, .starttime = 77, .state = 'R' };
	char b[32];

	snprintf(t.comm, sizeof(t.comm), "modprobe");
	CHECK(columns_kthread(&t));		/* no flags: the parentage rule */
	t.have_flags = true;
	CHECK(!columns_kthread(&t));
	CHECK_STR(fmt_cell(&m, &t, COL_COMM, b, sizeof(b), true), "modprobe");
	t.ppid = 0;
	t.kthread = true;
	CHECK(columns_kthread(&t));
	CHECK_STR(fmt_cell(&m, &t, COL_COMM, b, sizeof(b), true), "[modprobe]");
}

static const struct test tests[] = {
	{ "JSON text cells: raw name and command line, whole cgroup and unit", test_json_text },
	{ "durations: us, ms, s as needed; a percentile marked as a bound", test_durations },
	{ "WAIT%: the larger wait, named; redundant where RUNQ% and BLOCK% show", test_wait },
	{ "a task /proc never read: its stat columns not known; kernel threads bracketed", test_unread },
	{ "kernel threads: stat's PF_KTHREAD, else (a recording) the parentage", test_kthread_flag },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
