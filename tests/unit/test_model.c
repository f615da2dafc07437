// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the model (model/model.c: counts within the interval, rates,
 * pid reuse, removal, the header's numbers; tables/rows.c: sorting, filtering)
 * with synthetic samples, and of its helpers: lib/util.c (sanitize_text, parse_uint, parse_seconds) and
 * lib/pidmap.c (against a reference array).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tables/columns.h"
#include "../../model/model.h"
#include "../../lib/pidmap.h"
#include "../../lib/rcstr.h"
#include "../../tables/rows.h"
#include "../../model/sample.h"
#include "../../lib/util.h"
#include "fixture.h"
#include "test.h"

#define SEC 1000000000ull

/* ---- model ---------------------------------------------------------------- */

static void tick_begin(struct model *m, double at_s)
{
	model_begin_tick(m, (uint64_t)(at_s * (double)SEC), FX_WALL0 + at_s);
}

/* The end of a tick, and the rows of a view refreshed as the main loop does. */
static void end_tick(struct model *m, struct rowset *rs)
{
	model_end_tick(m);
	rowset_refresh(rs, m);
}

static struct pid_stat mkstat(pid_t pid, const char *comm, uint64_t utime, uint64_t stime,
			      uint64_t minflt)
{
	struct pid_stat st = fx_stat(pid, comm);

	st.pgid = pid;
	st.sid = pid;
	st.priority = 20;
	st.vsize = 8u << 20;
	st.rss = 100;
	st.utime = utime;
	st.stime = stime;
	st.minflt = minflt;
	return st;
}

/* One task's stat sample in the current tick. */
static struct task *sample(struct model *m, pid_t pid, uint64_t starttime, const char *comm,
			   uint64_t utime, uint64_t stime, uint64_t minflt)
{
	struct pid_stat st = mkstat(pid, comm, utime, stime, minflt);
	struct task *t;

	st.starttime = starttime;
	t = model_task_sample(m, pid, pid, starttime);
	model_task_set_stat(m, t, &st);
	return t;
}

static void test_model_first_tick(void)
{
	struct model m;
	struct rowset rs;
	struct task *t;
	uint64_t d;
	double r, v;
	int c;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	tick_begin(&m, 10);
	t = sample(&m, 42, 1000, "first", 500, 100, 7000);
	model_task_set_counter(t, CNT_VCSW, 3);
	end_tick(&m, &rs);

	CHECK_EQ_U64(m.tick, 1);
	CHECK_NEAR(m.interval_s, 0, 0);
	CHECK(model_task_find(&m, 42) == t);
	CHECK(!t->have_cpu);
	CHECK_EQ_U64(t->have_delta, 0);
	for (c = 0; c < CNT_NR; c++) {
		CHECK(!task_delta(t, (enum counter)c, &d));
		CHECK(!task_rate(&m, t, (enum counter)c, &r));
	}
	CHECK(!columns_num(&m, t, COL_CPU, &v));
	CHECK(!columns_num(&m, t, COL_MINFLT, &v));
	CHECK(!columns_num(&m, t, COL_VCSW, &v));
	/* The values read are known: TIME+ needs one sample only. */
	CHECK(columns_num(&m, t, COL_TIME, &v));
	CHECK_NEAR(v, 6.0, 1e-9);
	CHECK_EQ_U64(rs.nrows, 1);
	rowset_free(&rs);
	model_free(&m);
}

static void test_model_second_tick_rates(void)
{
	struct model m;
	struct task *t;
	uint64_t d;
	double r, v;

	model_init(&m, 100, 4);
	tick_begin(&m, 10);
	t = sample(&m, 42, 1000, "busy", 500, 100, 7000);
	model_end_tick(&m);

	tick_begin(&m, 11);	/* one second later */
	t = sample(&m, 42, 1000, "busy", 550, 100, 8234);
	model_end_tick(&m);
	CHECK_NEAR(m.interval_s, 1.0, 1e-12);
	CHECK(t->have_cpu);
	CHECK_NEAR(t->cpu_pct, 50.0, 1e-9);
	CHECK(task_delta(t, CNT_UTIME, &d) && d == 50);
	CHECK(task_delta(t, CNT_STIME, &d) && d == 0);
	CHECK(task_delta(t, CNT_MINFLT, &d));
	CHECK_EQ_U64(d, 1234);
	CHECK(task_rate(&m, t, CNT_MINFLT, &r));
	CHECK_NEAR(r, 1234.0, 1e-9);
	CHECK(task_delta(t, CNT_MAJFLT, &d) && d == 0);
	CHECK(!task_delta(t, CNT_VCSW, &d));	/* never read */
	CHECK(columns_num(&m, t, COL_CPU, &v));
	CHECK_NEAR(v, 50.0, 1e-9);
	CHECK(columns_num(&m, t, COL_MINFLT, &v));
	CHECK_NEAR(v, 1234.0, 1e-9);

	/* Two seconds later, user and system time: 150 ticks / 2 s at 100 Hz = 75%. */
	tick_begin(&m, 13);
	t = sample(&m, 42, 1000, "busy", 650, 150, 8234);
	model_end_tick(&m);
	CHECK_NEAR(m.interval_s, 2.0, 1e-12);
	CHECK(t->have_cpu);
	CHECK_NEAR(t->cpu_pct, 75.0, 1e-9);
	CHECK(task_delta(t, CNT_MINFLT, &d));
	CHECK_EQ_U64(d, 0);
	CHECK(task_rate(&m, t, CNT_MINFLT, &r));
	CHECK_NEAR(r, 0.0, 0);

	/* More than one CPU: 100 = one CPU, so 3 CPUs busy = 300 (of three threads). */
	tick_begin(&m, 13.5);
	t = sample(&m, 42, 1000, "busy", 800, 150, 8234);
	t->threads = 3;
	model_end_tick(&m);
	CHECK_NEAR(t->cpu_pct, 300.0, 1e-9);
	model_free(&m);
}

/* A different clock rate (hz) scales CPU%. */
static void test_model_hz(void)
{
	struct model m;
	struct task *t;

	model_init(&m, 250, 4);
	tick_begin(&m, 1);
	sample(&m, 7, 1, "x", 0, 0, 0);
	model_end_tick(&m);
	tick_begin(&m, 2);
	t = sample(&m, 7, 1, "x", 100, 25, 0);
	model_end_tick(&m);
	CHECK_NEAR(t->cpu_pct, 50.0, 1e-9);
	model_free(&m);

	/* Invalid hz and page size fall back to 100 and 4. */
	model_init(&m, 0, -1);
	CHECK_EQ_I64(m.hz, 100);
	CHECK_EQ_I64(m.page_kb, 4);
	model_free(&m);
}

static void test_model_set_stat_fields(void)
{
	struct model m;
	struct pid_stat st = mkstat(42, "fields", 1, 2, 3);
	struct task *t;
	double v;

	model_init(&m, 100, 16);
	tick_begin(&m, 1);
	st.state = 'R';
	st.ppid = 7;
	st.pgid = 8;
	st.sid = 9;
	st.tty_nr = 34816;
	st.priority = 15;
	st.nice = -5;
	st.num_threads = 12;
	st.vsize = 10ull << 30;
	st.rss = 1000;
	st.processor = 3;
	st.majflt = 4;
	t = model_task_sample(&m, 42, 40, 1000);
	model_task_set_stat(&m, t, &st);
	model_end_tick(&m);
	CHECK_STR(t->comm, "fields");
	CHECK_EQ_I64(t->pid, 42);
	CHECK_EQ_I64(t->tgid, 40);
	CHECK_EQ_U64(t->state, 'R');
	CHECK_EQ_I64(t->ppid, 7);
	CHECK_EQ_I64(t->pgid, 8);
	CHECK_EQ_I64(t->sid, 9);
	CHECK_EQ_I64(t->tty_nr, 34816);
	CHECK_EQ_I64(t->priority, 15);
	CHECK_EQ_I64(t->nice, -5);
	CHECK_EQ_U64(t->threads, 12);
	CHECK_EQ_U64(t->rss_kb, 16000);		/* pages * page_kb */
	CHECK_EQ_U64(t->vsize_kb, 10ull << 20);	/* bytes / 1024 */
	CHECK_EQ_I64(t->processor, 3);
	CHECK_EQ_U64(t->cnt[CNT_UTIME], 1);
	CHECK_EQ_U64(t->cnt[CNT_STIME], 2);
	CHECK_EQ_U64(t->cnt[CNT_MINFLT], 3);
	CHECK_EQ_U64(t->cnt[CNT_MAJFLT], 4);
	CHECK_EQ_I64(t->uid, -1);
	CHECK(columns_num(&m, t, COL_CPUID, &v) && v == 3);
	t->processor = -1;
	CHECK(!columns_num(&m, t, COL_CPUID, &v));
	CHECK(!columns_num(&m, t, COL_UID, &v));
	CHECK(!columns_num(&m, t, COL_MEM, &v));	/* no meminfo yet */
	model_free(&m);
}

/* A counter read at ticks 1 and 3 but not 2 has no count at 3. */
static void test_model_counter_gap(void)
{
	struct model m;
	struct task *t;
	uint64_t d;

	model_init(&m, 100, 4);
	tick_begin(&m, 1);
	t = sample(&m, 5, 1, "gap", 0, 0, 0);
	model_task_set_counter(t, CNT_VCSW, 100);
	model_end_tick(&m);

	tick_begin(&m, 2);
	t = sample(&m, 5, 1, "gap", 0, 0, 0);
	model_end_tick(&m);
	CHECK(!task_delta(t, CNT_VCSW, &d));

	tick_begin(&m, 3);
	t = sample(&m, 5, 1, "gap", 0, 0, 0);
	model_task_set_counter(t, CNT_VCSW, 130);
	model_end_tick(&m);
	CHECK(!task_delta(t, CNT_VCSW, &d));
	CHECK(task_delta(t, CNT_UTIME, &d));	/* stat was read every tick */

	tick_begin(&m, 4);
	t = sample(&m, 5, 1, "gap", 0, 0, 0);
	model_task_set_counter(t, CNT_VCSW, 145);
	model_end_tick(&m);
	CHECK(task_delta(t, CNT_VCSW, &d));
	CHECK_EQ_U64(d, 15);
	model_free(&m);
}

/* Same pid, new start time: a new process, nothing carried over. */
static void test_model_pid_reuse(void)
{
	struct model m;
	struct rowset rs;
	struct task *t;
	uint64_t d;
	double v;
	char *cmd = rcstr_new("old-cmd", 7);

	model_init(&m, 100, 4);
	rowset_init(&rs);
	tick_begin(&m, 1);
	t = sample(&m, 300, 1000, "old", 5000, 100, 90000);
	model_task_set_counter(t, CNT_VCSW, 777);
	model_task_set_cmdline(t, cmd, strlen(cmd) + 1);
	t->uid = 1000;
	end_tick(&m, &rs);
	rowset_want(&rs, &m, 0, 1);

	tick_begin(&m, 2);
	t = sample(&m, 300, 2000, "new", 10, 0, 50);
	model_task_set_counter(t, CNT_VCSW, 3);
	end_tick(&m, &rs);
	CHECK_EQ_U64(m.ntasks, 1);
	CHECK(model_task_find(&m, 300) == t);
	CHECK_EQ_U64(t->starttime, 2000);
	CHECK_STR(t->comm, "new");
	CHECK(!t->have_cpu);
	CHECK_EQ_U64(t->have_delta, 0);
	CHECK(!task_delta(t, CNT_UTIME, &d));
	CHECK(!task_delta(t, CNT_MINFLT, &d));
	CHECK(!task_delta(t, CNT_VCSW, &d));
	CHECK_EQ_U64(t->cnt[CNT_UTIME], 10);
	CHECK_EQ_U64(t->cnt[CNT_MINFLT], 50);
	CHECK_EQ_U64(t->cnt[CNT_VCSW], 3);
	CHECK(t->cmdline == NULL);
	CHECK_EQ_U64(t->cmdline_len, 0);
	CHECK_EQ_I64(t->uid, -1);
	CHECK(columns_num(&m, t, COL_TIME, &v));
	CHECK_NEAR(v, 0.1, 1e-9);
	/* The row stays wanted: it is the same line on the screen. */
	CHECK(model_task_wants_status(&m, t));

	tick_begin(&m, 3);
	t = sample(&m, 300, 2000, "new", 20, 0, 60);
	end_tick(&m, &rs);
	CHECK(t->have_cpu);
	CHECK_NEAR(t->cpu_pct, 10.0, 1e-9);
	CHECK(task_delta(t, CNT_MINFLT, &d) && d == 10);
	rowset_free(&rs);
	model_free(&m);
}

/* A task not sampled in a tick is gone at model_end_tick. */
static void test_model_removal(void)
{
	struct model m;
	struct rowset rs;
	struct task *t;
	uint64_t d;
	size_t i;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	tick_begin(&m, 1);
	sample(&m, 10, 1, "a", 0, 0, 0);
	sample(&m, 20, 1, "b", 0, 0, 0);
	sample(&m, 30, 1, "c", 0, 0, 0);
	end_tick(&m, &rs);
	CHECK_EQ_U64(m.ntasks, 3);
	CHECK_EQ_U64(rs.nrows, 3);

	tick_begin(&m, 2);
	sample(&m, 10, 1, "a", 1, 0, 0);
	sample(&m, 30, 1, "c", 1, 0, 0);
	end_tick(&m, &rs);
	CHECK_EQ_U64(m.ntasks, 2);
	CHECK_EQ_U64(rs.nrows, 2);
	CHECK(model_task_find(&m, 20) == NULL);
	CHECK(model_task_find(&m, 10) != NULL);
	CHECK(model_task_find(&m, 30) != NULL);
	for (i = 0; i < rs.nrows; i++)
		CHECK(rs.rows[i].task->pid != 20);

	/* Back again: a new task without history. */
	tick_begin(&m, 3);
	sample(&m, 10, 1, "a", 2, 0, 0);
	sample(&m, 30, 1, "c", 2, 0, 0);
	t = sample(&m, 20, 1, "b", 5, 0, 0);
	end_tick(&m, &rs);
	CHECK_EQ_U64(m.ntasks, 3);
	CHECK(!task_delta(t, CNT_UTIME, &d));

	/* Nothing sampled: everything goes. */
	tick_begin(&m, 4);
	end_tick(&m, &rs);
	CHECK_EQ_U64(m.ntasks, 0);
	CHECK_EQ_U64(rs.nrows, 0);
	CHECK(model_task_find(&m, 10) == NULL);
	rowset_free(&rs);
	model_free(&m);
}

/* Many tasks: the arrays grow, removals by swap keep the index right. */
static void test_model_many_tasks(void)
{
	struct model m;
	struct rowset rs;
	pid_t pid;
	uint64_t d;
	bool ok = true;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	tick_begin(&m, 1);
	for (pid = 1; pid <= 2000; pid++)
		sample(&m, pid, (uint64_t)pid, "many", (uint64_t)pid, 0, 0);
	end_tick(&m, &rs);
	CHECK_EQ_U64(m.ntasks, 2000);
	CHECK_EQ_U64(rs.nrows, 2000);

	tick_begin(&m, 2);
	for (pid = 2; pid <= 2000; pid += 2)
		sample(&m, pid, (uint64_t)pid, "many", (uint64_t)pid + 3, 0, 0);
	end_tick(&m, &rs);
	CHECK_EQ_U64(m.ntasks, 1000);
	CHECK_EQ_U64(rs.nrows, 1000);
	for (pid = 1; pid <= 2000; pid++) {
		struct task *t = model_task_find(&m, pid);

		if (pid % 2) {
			ok &= t == NULL;
		} else {
			ok &= t && t->pid == pid && task_delta(t, CNT_UTIME, &d) && d == 3;
		}
	}
	CHECK(ok);
	model_clear(&m);
	CHECK_EQ_U64(m.ntasks, 0);
	rowset_refresh(&rs, &m);
	CHECK_EQ_U64(rs.nrows, 0);
	CHECK(model_task_find(&m, 2) == NULL);
	rowset_free(&rs);
	model_free(&m);
}

/* Counters only grow: a smaller value gives no count, the others still do. */
static void test_model_counter_backwards(void)
{
	struct model m;
	struct task *t;
	uint64_t d;

	model_init(&m, 100, 4);
	tick_begin(&m, 1);
	t = sample(&m, 9, 1, "back", 100, 50, 1000);
	model_task_set_counter(t, CNT_VCSW, 500);
	model_end_tick(&m);

	tick_begin(&m, 2);
	t = sample(&m, 9, 1, "back", 90, 60, 1100);
	model_task_set_counter(t, CNT_VCSW, 499);
	model_end_tick(&m);
	CHECK(!task_delta(t, CNT_UTIME, &d));
	CHECK(!task_delta(t, CNT_VCSW, &d));
	CHECK(!t->have_cpu);	/* needs both utime and stime */
	CHECK(task_delta(t, CNT_STIME, &d) && d == 10);
	CHECK(task_delta(t, CNT_MINFLT, &d) && d == 100);

	/* From the new value on, counts resume. */
	tick_begin(&m, 3);
	t = sample(&m, 9, 1, "back", 95, 60, 1100);
	model_task_set_counter(t, CNT_VCSW, 510);
	model_end_tick(&m);
	CHECK(task_delta(t, CNT_UTIME, &d) && d == 5);
	CHECK(task_delta(t, CNT_VCSW, &d) && d == 11);
	CHECK(t->have_cpu);
	CHECK_NEAR(t->cpu_pct, 5.0, 1e-9);
	model_free(&m);
}

static bool rows_are(const struct rowset *rs, const pid_t *want, size_t n)
{
	size_t i;
	bool ok = rs->nrows == n;

	for (i = 0; ok && i < n; i++)
		ok = rs->rows[i].task->pid == want[i];
	if (!ok) {
		printf("# rows:");
		for (i = 0; i < rs->nrows; i++)
			printf(" %d", (int)rs->rows[i].task->pid);
		printf("\n# want:");
		for (i = 0; i < n; i++)
			printf(" %d", (int)want[i]);
		printf("\n");
	}
	return ok;
}

/*
 * Sorting by CPU%: descending by default, unknown values (a task new this tick)
 * sort lowest, ties by pid ascending whatever the direction.
 */
static void test_model_sort(void)
{
	static const pid_t desc[] = { 2, 5, 1, 3, 4, 6 };
	static const pid_t asc[] = { 6, 4, 1, 3, 2, 5 };
	static const pid_t by_pid[] = { 1, 2, 3, 4, 5, 6 };
	static const pid_t by_pid_desc[] = { 6, 5, 4, 3, 2, 1 };
	static const pid_t by_comm[] = { 3, 1, 5, 2, 6, 4 };
	struct model m;
	struct rowset rs;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	CHECK_EQ_I64(rs.sort_col, COL_CPU);
	CHECK_EQ_I64(rs.sort_dir, SORT_DESC);
	tick_begin(&m, 1);
	sample(&m, 5, 1, "d", 0, 0, 0);
	sample(&m, 4, 1, "z", 0, 0, 0);
	sample(&m, 3, 1, "a", 0, 0, 0);
	sample(&m, 2, 1, "e", 0, 0, 0);
	sample(&m, 1, 1, "b", 0, 0, 0);
	end_tick(&m, &rs);

	tick_begin(&m, 2);
	sample(&m, 3, 1, "a", 10, 0, 0);
	sample(&m, 6, 1, "f", 90, 0, 0);	/* new: CPU% unknown */
	sample(&m, 1, 1, "b", 10, 0, 0);
	sample(&m, 5, 1, "d", 25, 25, 0);
	sample(&m, 4, 1, "z", 0, 0, 0);
	sample(&m, 2, 1, "e", 50, 0, 0);
	end_tick(&m, &rs);
	CHECK(rows_are(&rs, desc, ARRAY_SIZE(desc)));

	rs.sort_dir = SORT_ASC;
	rowset_refresh(&rs, &m);
	CHECK(rows_are(&rs, asc, ARRAY_SIZE(asc)));

	rs.sort_col = COL_PID;
	rowset_refresh(&rs, &m);
	CHECK(rows_are(&rs, by_pid, ARRAY_SIZE(by_pid)));
	rs.sort_dir = SORT_DESC;
	rowset_refresh(&rs, &m);
	CHECK(rows_are(&rs, by_pid_desc, ARRAY_SIZE(by_pid_desc)));

	rs.sort_col = COL_COMM;
	rs.sort_dir = SORT_ASC;
	rowset_refresh(&rs, &m);
	CHECK(rows_are(&rs, by_comm, ARRAY_SIZE(by_comm)));

	/* Sorting keeps going at the next tick. */
	rs.sort_col = COL_CPU;
	rs.sort_dir = SORT_DESC;
	tick_begin(&m, 3);
	sample(&m, 1, 1, "b", 10, 0, 0);
	sample(&m, 2, 1, "e", 50, 0, 0);
	sample(&m, 3, 1, "a", 10, 0, 0);
	sample(&m, 4, 1, "z", 0, 0, 0);
	sample(&m, 5, 1, "d", 25, 25, 0);
	sample(&m, 6, 1, "f", 95, 0, 0);
	end_tick(&m, &rs);
	{
		static const pid_t next[] = { 6, 1, 2, 3, 4, 5 };

		CHECK(rows_are(&rs, next, ARRAY_SIZE(next)));
	}
	rowset_free(&rs);
	model_free(&m);
}

/* A counter column with unknown values: unknown lowest both ways round. */
static void test_model_sort_unknown_counter(void)
{
	static const pid_t desc[] = { 3, 1, 2, 4 };
	static const pid_t asc[] = { 2, 4, 1, 3 };
	struct model m;
	struct rowset rs;
	struct task *t;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	rs.sort_col = COL_VCSW;
	tick_begin(&m, 1);
	t = sample(&m, 1, 1, "x", 0, 0, 0);
	model_task_set_counter(t, CNT_VCSW, 10);
	sample(&m, 2, 1, "x", 0, 0, 0);
	t = sample(&m, 3, 1, "x", 0, 0, 0);
	model_task_set_counter(t, CNT_VCSW, 10);
	sample(&m, 4, 1, "x", 0, 0, 0);
	end_tick(&m, &rs);
	tick_begin(&m, 2);
	t = sample(&m, 1, 1, "x", 0, 0, 0);
	model_task_set_counter(t, CNT_VCSW, 15);	/* 5 */
	sample(&m, 2, 1, "x", 0, 0, 0);			/* unknown */
	t = sample(&m, 3, 1, "x", 0, 0, 0);
	model_task_set_counter(t, CNT_VCSW, 30);	/* 20 */
	sample(&m, 4, 1, "x", 0, 0, 0);			/* unknown */
	end_tick(&m, &rs);
	CHECK(rows_are(&rs, desc, ARRAY_SIZE(desc)));
	rs.sort_dir = SORT_ASC;
	rowset_refresh(&rs, &m);
	CHECK(rows_are(&rs, asc, ARRAY_SIZE(asc)));
	rowset_free(&rs);
	model_free(&m);
}

static void set_cmdline(struct task *t, const char *s, size_t len)
{
	model_task_set_cmdline(t, rcstr_new(s, len), len);
}

static void set_filter(struct rowset *rs, const struct model *m, const char *f)
{
	snprintf(rs->filter, sizeof(rs->filter), "%s", f);
	rowset_refresh(rs, m);
}

/* Case-insensitive substring of comm or of the command line (NUL = space). */
static void test_model_filter(void)
{
	static const char py[] = "/usr/bin/python3\0myScript.py\0--verbose\0";
	static const pid_t all[] = { 1, 2, 3, 4 };
	static const pid_t foo[] = { 1 };
	static const pid_t python[] = { 3 };
	static const pid_t none[] = { 0 };
	static const pid_t uid1000[] = { 2, 3 };
	struct model m;
	struct rowset rs;
	struct task *t;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	rs.sort_col = COL_PID;
	rs.sort_dir = SORT_ASC;
	tick_begin(&m, 1);
	t = sample(&m, 1, 1, "FooBar", 0, 0, 0);
	t->uid = 0;
	t = sample(&m, 2, 1, "bash", 0, 0, 0);
	t->uid = 1000;
	set_cmdline(t, "-bash", 6);
	t = sample(&m, 3, 1, "python3", 0, 0, 0);
	t->uid = 1000;
	set_cmdline(t, py, sizeof(py) - 1);
	t = sample(&m, 4, 1, "kworker/0:1", 0, 0, 0);	/* no command line */
	end_tick(&m, &rs);
	CHECK(rows_are(&rs, all, ARRAY_SIZE(all)));

	set_filter(&rs, &m, "foo");
	CHECK(rows_are(&rs, foo, ARRAY_SIZE(foo)));
	set_filter(&rs, &m, "BAR");
	CHECK(rows_are(&rs, foo, ARRAY_SIZE(foo)));
	set_filter(&rs, &m, "oob");
	CHECK(rows_are(&rs, foo, ARRAY_SIZE(foo)));
	/* Only in the command line, across its NUL separators. */
	set_filter(&rs, &m, "myscript.py --VERB");
	CHECK(rows_are(&rs, python, ARRAY_SIZE(python)));
	set_filter(&rs, &m, "PYTHON3 MYSCRIPT");
	CHECK(rows_are(&rs, python, ARRAY_SIZE(python)));
	set_filter(&rs, &m, "/usr/bin/");
	CHECK(rows_are(&rs, python, ARRAY_SIZE(python)));
	set_filter(&rs, &m, "zzz");
	CHECK(rows_are(&rs, none, 0));
	/* The trailing NUL is a space too, but nothing follows it. */
	set_filter(&rs, &m, "--verbose");
	CHECK(rows_are(&rs, python, ARRAY_SIZE(python)));
	set_filter(&rs, &m, "");
	CHECK(rows_are(&rs, all, ARRAY_SIZE(all)));

	/* The user filter, alone and with the text filter. */
	rs.filter_uid = 1000;
	set_filter(&rs, &m, "");
	CHECK(rows_are(&rs, uid1000, ARRAY_SIZE(uid1000)));
	set_filter(&rs, &m, "bash");
	CHECK(rows_are(&rs, uid1000, 1));
	set_filter(&rs, &m, "foo");
	CHECK(rows_are(&rs, none, 0));
	rs.filter_uid = -1;

	/* The filter holds at the next tick. */
	snprintf(rs.filter, sizeof(rs.filter), "%s", "KWORKER");
	tick_begin(&m, 2);
	sample(&m, 1, 1, "FooBar", 0, 0, 0);
	sample(&m, 2, 1, "bash", 0, 0, 0);
	sample(&m, 3, 1, "python3", 0, 0, 0);
	sample(&m, 4, 1, "kworker/0:1", 0, 0, 0);
	end_tick(&m, &rs);
	{
		static const pid_t kw[] = { 4 };

		CHECK(rows_are(&rs, kw, ARRAY_SIZE(kw)));
	}
	CHECK_EQ_U64(m.ntasks, 4);	/* filtered out is not removed */
	rowset_free(&rs);
	model_free(&m);
}

/* -p: only the focused processes are rows. */
static void test_model_focus(void)
{
	static const pid_t want[] = { 2, 4 };
	struct model m;
	struct rowset rs;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	rs.sort_col = COL_PID;
	rs.sort_dir = SORT_ASC;
	model_set_focus(&m, (const pid_t[]){ 4, 2 }, 2);
	CHECK(model_is_focused(&m, 2));
	CHECK(!model_is_focused(&m, 3));
	tick_begin(&m, 1);
	sample(&m, 1, 1, "a", 0, 0, 0);
	sample(&m, 2, 1, "b", 0, 0, 0);
	sample(&m, 3, 1, "c", 0, 0, 0);
	sample(&m, 4, 1, "d", 0, 0, 0);
	end_tick(&m, &rs);
	CHECK(rows_are(&rs, want, ARRAY_SIZE(want)));
	rowset_free(&rs);
	model_free(&m);
}

/* -- CMD: children join the focus; only the named ones are pinned. */
static void test_model_focus_follow(void)
{
	struct model m;

	model_init(&m, 100, 4);
	CHECK(model_is_focused(&m, 9));		/* no focus: everything */
	model_set_focus(&m, (const pid_t[]){ 10 }, 1);
	CHECK(!model_is_focused(&m, 11));
	CHECK(model_focus_add(&m, 11));
	CHECK(!model_focus_add(&m, 11));	/* known already */
	CHECK(model_is_focused(&m, 11));
	CHECK(model_is_pinned(&m, 10));
	CHECK(!model_is_pinned(&m, 11));
	CHECK_EQ_U64(m.nfocus, 2);
	model_free(&m);
}

/* A followed process taken out of the focus; the named ones stay. */
static void test_model_focus_remove(void)
{
	struct model m;

	model_init(&m, 100, 4);
	model_set_focus(&m, (const pid_t[]){ 10, 20 }, 2);
	CHECK(model_focus_add(&m, 11));
	CHECK(model_focus_add(&m, 12));
	CHECK(model_focus_add(&m, 13));
	CHECK(model_focus_remove(&m, 11));
	CHECK(!model_is_focused(&m, 11));
	CHECK(!model_focus_remove(&m, 11));	/* not focused any more */
	CHECK(!model_focus_remove(&m, 10));	/* pinned */
	CHECK(!model_focus_remove(&m, 99));
	CHECK(model_is_focused(&m, 10) && model_is_pinned(&m, 10));
	CHECK(model_is_focused(&m, 20) && model_is_pinned(&m, 20));
	CHECK(model_is_focused(&m, 12) && model_is_focused(&m, 13));
	CHECK_EQ_U64(m.nfocus, 4);
	CHECK(model_focus_add(&m, 11));		/* may come back (a reused pid) */
	model_free(&m);
}

/*
 * Not root: an interval whose events are withheld (credentials changed in it)
 * has no count, like another user's, and the next interval counts again.
 */
static void test_model_events_withheld(void)
{
	struct model m;
	struct task *t;
	uint64_t d;
	int i;

	model_init(&m, 100, 4);
	m.event_counters = 1u << CNT_SYSCALLS;
	m.events_uid = 1000;
	for (i = 1; i <= 3; i++) {
		tick_begin(&m, i);
		t = sample(&m, 7, 1, "w", 0, 0, 0);
		t->uid = 1000;
		model_task_add_events(t, CNT_SYSCALLS, 5);
		/* Set in one interval only: the next tick starts without it. */
		if (i == 2)
			t->ev_withheld = true;
		model_end_tick(&m);
		t = model_task_find(&m, 7);
		if (!CHECK(t))
			break;
		if (i == 2)
			CHECK(!task_delta(t, CNT_SYSCALLS, &d));
		else if (i == 3)
			CHECK(task_delta(t, CNT_SYSCALLS, &d) && d == 5);
	}
	model_free(&m);
}

/*
 * A named process that exits: one last row in state X, then gone (batch), or
 * kept with its numbers (keep_exited, the live view).
 */
static void test_model_focus_exit(void)
{
	struct model m;
	struct rowset rs;
	const struct task *t;
	uint64_t d;
	int keep;

	for (keep = 0; keep <= 1; keep++) {
		model_init(&m, 100, 4);
		rowset_init(&rs);
		model_set_focus(&m, (const pid_t[]){ 5 }, 1);
		m.keep_exited = keep;
		tick_begin(&m, 1);
		sample(&m, 5, 1, "w", 10, 0, 100);
		end_tick(&m, &rs);
		tick_begin(&m, 2);
		sample(&m, 5, 1, "w", 20, 0, 130);
		end_tick(&m, &rs);
		/* gone from /proc, no event said so */
		tick_begin(&m, 3);
		end_tick(&m, &rs);
		if (!CHECK_EQ_U64(rs.nrows, 1))
			break;
		t = rs.rows[0].task;
		CHECK(t->state == 'X' && t->exited);
		CHECK(!task_delta(t, CNT_MINFLT, &d));	/* not read: not known */
		tick_begin(&m, 4);
		end_tick(&m, &rs);
		CHECK_EQ_U64(rs.nrows, keep ? 1 : 0);
		if (keep && rs.nrows) {
			tick_begin(&m, 5);
			end_tick(&m, &rs);
			CHECK(rs.rows[0].task->gone && rs.rows[0].task->state == 'X');
		}
		rowset_free(&rs);
		model_free(&m);
	}
}

/* --summary: the focused tasks' syscalls, summed over the ticks with an interval. */
static void test_model_sum_syscalls(void)
{
	struct model m;
	struct task *t;
	int i;

	model_init(&m, 100, 4);
	model_set_focus(&m, (const pid_t[]){ 7 }, 1);
	m.sum_syscalls = true;
	for (i = 1; i <= 3; i++) {
		tick_begin(&m, i);
		t = sample(&m, 7, 1, "s", 0, 0, 0);
		sctable_get(&t->sc, 1)->calls += 10;
		sctable_get(&t->sc, 2)->errors += (sctable_get(&t->sc, 2)->calls += 2);
		t = sample(&m, 8, 1, "other", 0, 0, 0);
		sctable_get(&t->sc, 1)->calls += 1000;
		m.lost_events = 1;
		model_end_tick(&m);
	}
	/* The first tick is the baseline, like every other count. */
	CHECK_EQ_U64(sctable_find(&m.sc_total, 1)->calls, 20);
	CHECK_EQ_U64(sctable_find(&m.sc_total, 2)->errors, 4);
	CHECK_EQ_U64(m.lost_total, 2);
	model_free(&m);
}

static void test_rowset_want(void)
{
	struct model m;
	struct rowset rs;
	struct task *a, *b, *c, *d;
	int tick;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	rs.sort_col = COL_PID;
	rs.sort_dir = SORT_ASC;
	tick_begin(&m, 1);
	a = sample(&m, 1, 1, "a", 0, 0, 0);
	b = sample(&m, 2, 1, "b", 0, 0, 0);
	c = sample(&m, 3, 1, "c", 0, 0, 0);
	d = sample(&m, 4, 1, "d", 0, 0, 0);
	end_tick(&m, &rs);
	CHECK(!model_task_wants_status(&m, a));
	CHECK(!model_task_wants_status(&m, b));

	/* The view shows rows 1 and 2 (pids 2 and 3). */
	rowset_want(&rs, &m, 1, 2);
	CHECK(!model_task_wants_status(&m, a));
	CHECK(model_task_wants_status(&m, b));
	CHECK(model_task_wants_status(&m, c));
	CHECK(!model_task_wants_status(&m, d));

	/* Past the end: clipped, no crash. */
	rowset_want(&rs, &m, 3, 100);
	CHECK(model_task_wants_status(&m, d));
	rowset_want(&rs, &m, 10, 5);

	/* Still wanted for some ticks after it was last shown (scrolling back). */
	for (tick = 2; tick <= 11; tick++) {
		tick_begin(&m, tick);
		sample(&m, 1, 1, "a", 0, 0, 0);
		sample(&m, 2, 1, "b", 0, 0, 0);
		sample(&m, 3, 1, "c", 0, 0, 0);
		sample(&m, 4, 1, "d", 0, 0, 0);
		if (!CHECK(model_task_wants_status(&m, b)))
			printf("#   at tick %d\n", tick);
		CHECK(!model_task_wants_status(&m, a));
		end_tick(&m, &rs);
	}
	tick_begin(&m, 12);
	sample(&m, 1, 1, "a", 0, 0, 0);
	sample(&m, 2, 1, "b", 0, 0, 0);
	CHECK(!model_task_wants_status(&m, b));
	end_tick(&m, &rs);
	rowset_free(&rs);
	model_free(&m);
}

/*
 * A tick before any task was ever sampled (ktop -p with a pid that is gone):
 * no rows, and no undefined behaviour (qsort of a NULL array is, even with 0
 * elements: run under -fsanitize=undefined to see it).
 */
static void test_model_empty_tick(void)
{
	struct model m;
	struct rowset rs;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	tick_begin(&m, 1);
	end_tick(&m, &rs);
	CHECK_EQ_U64(m.ntasks, 0);
	CHECK_EQ_U64(rs.nrows, 0);
	rs.filter[0] = 'x';
	rowset_refresh(&rs, &m);
	CHECK_EQ_U64(rs.nrows, 0);
	rowset_want(&rs, &m, 0, 10);
	rowset_free(&rs);
	model_free(&m);
}

static void test_sys_rate(void)
{
	struct model m;
	double r = -1;

	model_init(&m, 100, 4);
	tick_begin(&m, 1);
	sample(&m, 1, 1, "init", 0, 0, 0);
	model_end_tick(&m);
	CHECK(!sys_rate(&m, 300, 100, &r));
	tick_begin(&m, 3);
	sample(&m, 1, 1, "init", 0, 0, 0);
	model_end_tick(&m);
	CHECK(sys_rate(&m, 300, 100, &r));
	CHECK_NEAR(r, 100.0, 1e-9);
	CHECK(sys_rate(&m, 100, 100, &r));
	CHECK_NEAR(r, 0.0, 0);
	CHECK(!sys_rate(&m, 99, 100, &r));	/* a counter reset: unknown */
	tick_begin(&m, 3.25);
	sample(&m, 1, 1, "init", 0, 0, 0);
	model_end_tick(&m);
	CHECK(sys_rate(&m, 1100, 100, &r));
	CHECK_NEAR(r, 4000.0, 1e-6);
	model_free(&m);
}

/* The system sample buffers swap at each tick: this tick's becomes the last. */
static void test_sys_sample_swap(void)
{
	struct model m;

	model_init(&m, 100, 4);
	tick_begin(&m, 1);
	sample(&m, 1, 1, "init", 0, 0, 0);
	m.sys.stat.cpu[0].user = 11;
	m.sys.have_stat = true;
	m.sys.mem.total = 1000;
	m.sys.have_mem = true;
	model_end_tick(&m);
	tick_begin(&m, 2);
	CHECK(!m.sys.have_stat);
	CHECK(!m.sys.have_mem);
	CHECK(m.sys_prev.have_stat);
	CHECK_EQ_U64(m.sys_prev.stat.cpu[0].user, 11);
	CHECK_EQ_U64(m.sys_prev.mem.total, 1000);
	CHECK(m.sys.stat.cpu != m.sys_prev.stat.cpu);
	CHECK_EQ_I64(m.sys.stat.ncpu_max, SYS_MAX_CPUS);
	sample(&m, 1, 1, "init", 0, 0, 0);
	m.sys.stat.cpu[0].user = 22;
	model_end_tick(&m);
	tick_begin(&m, 3);
	sample(&m, 1, 1, "init", 0, 0, 0);
	CHECK_EQ_U64(m.sys_prev.stat.cpu[0].user, 22);
	model_end_tick(&m);
	model_free(&m);
}

static struct cpu_times cpu(uint64_t user, uint64_t sys, uint64_t idle, uint64_t iowait)
{
	struct cpu_times c;

	memset(&c, 0, sizeof(c));
	c.user = user;
	c.system = sys;
	c.idle = idle;
	c.iowait = iowait;
	c.present = 1;
	return c;
}

/*
 * The header's numbers (m->sum) are computed at the end of each tick: task
 * states of the focused processes, CPU busy (all and each), memory, rates.
 */
static void test_model_sys_summary(void)
{
	struct model m;
	const struct sys_summary *s = &m.sum;
	static const char states[] = "RSDZtIX";
	size_t i;

	model_init(&m, 100, 4);
	CHECK_EQ_U64(s->tasks, 0);
	CHECK(!s->have_cpu && !s->have_mem && !s->have_rates);
	tick_begin(&m, 1);
	for (i = 0; states[i]; i++)
		model_task_sample(&m, (pid_t)(i + 1), (pid_t)(i + 1), 1)->state = states[i];
	model_task_sample(&m, 99, 99, 1)->state = 'R';
	model_set_focus(&m, (const pid_t[]){ 1, 2, 3, 4, 5, 6, 7 }, 7);
	m.sys.have_stat = m.sys.have_mem = m.sys.have_vm = true;
	m.sys.stat.ncpu = 2;
	m.sys.stat.total = cpu(100, 100, 1000, 0);
	m.sys.stat.cpu[0] = cpu(50, 50, 500, 0);
	m.sys.stat.cpu[1] = cpu(50, 50, 500, 0);
	m.sys.stat.ctxt = 1000;
	m.sys.vm.pgfault = 500;
	m.sys.vm.pgmajfault = 10;
	m.sys.mem.total = 1000;
	m.sys.mem.available = 400;
	m.sys.mem.swap_total = 100;
	m.sys.mem.swap_free = 100;
	model_end_tick(&m);
	/* 99 is not focused: not counted. */
	/* X (exited since the last refresh) is no task and no zombie: ps shows neither. */
	CHECK_EQ_U64(s->tasks, 6);
	CHECK(s->running == 1 && s->sleeping == 1 && s->disk == 1 && s->stopped == 1);
	CHECK(s->zombie == 1 && s->idle == 1 && s->exited == 1);
	CHECK(s->have_mem);
	CHECK_NEAR(s->mem_used_kb, 600, 1e-9);
	CHECK_NEAR(s->swap_used_kb, 0, 1e-9);
	CHECK_EQ_I64(s->ncpu, 2);
	CHECK(!s->have_cpu && !s->have_rates);	/* one sample: no interval */
	CHECK(s->cpu_busy[0] < 0 && s->cpu_busy[1] < 0);

	tick_begin(&m, 3);
	for (i = 0; states[i]; i++)
		model_task_sample(&m, (pid_t)(i + 1), (pid_t)(i + 1), 1)->state = states[i];
	model_task_sample(&m, 1, 1, 1)->state = 'S';
	m.sys.have_stat = m.sys.have_vm = true;
	m.sys.stat.ncpu = 2;
	m.sys.stat.total = cpu(150, 150, 1100, 0);	/* 100 of 200 busy */
	m.sys.stat.cpu[0] = cpu(100, 50, 550, 0);	/* 50 of 100 */
	m.sys.stat.cpu[1] = cpu(50, 50, 500, 0);	/* no time passed: unknown */
	m.sys.stat.ctxt = 1100;
	m.sys.vm.pgfault = 700;
	m.sys.vm.pgmajfault = 30;
	model_end_tick(&m);
	CHECK_EQ_U64(s->tasks, 6);
	CHECK(s->running == 0 && s->sleeping == 2);
	CHECK(!s->have_mem);
	CHECK(s->have_cpu);
	CHECK_NEAR(s->cpu_pct, 50.0, 1e-9);
	CHECK_NEAR(s->cpu_busy[0], 50.0, 1e-9);
	CHECK(s->cpu_busy[1] < 0);
	CHECK(s->have_rates);
	CHECK_NEAR(s->ctxt, 50.0, 1e-9);
	CHECK_EQ_U64(s->n_ctxt, 100);
	CHECK_EQ_U64(s->n_minflt, 180);
	CHECK_EQ_U64(s->n_majflt, 20);
	CHECK_NEAR(s->majflt, 10.0, 1e-9);
	model_free(&m);
}

static void test_cpu_busy_pct(void)
{
	struct cpu_times prev = cpu(100, 100, 1000, 10), cur;
	double v = -1;

	cur = cpu(150, 100, 1050, 10);
	CHECK(cpu_busy_pct(&cur, &prev, &v));
	CHECK_NEAR(v, 50.0, 1e-9);

	cur = cpu(100, 100, 1100, 10);	/* all idle */
	CHECK(cpu_busy_pct(&cur, &prev, &v));
	CHECK_NEAR(v, 0.0, 1e-9);

	cur = cpu(170, 130, 1000, 10);	/* all busy */
	CHECK(cpu_busy_pct(&cur, &prev, &v));
	CHECK_NEAR(v, 100.0, 1e-9);

	cur = cpu(120, 100, 1000, 90);	/* iowait counts as idle */
	CHECK(cpu_busy_pct(&cur, &prev, &v));
	CHECK_NEAR(v, 20.0, 1e-9);

	/* iowait stepping back (tickless kernels): idle clamps, stays in 0..100. */
	cur = cpu(150, 100, 1010, 0);
	CHECK(cpu_busy_pct(&cur, &prev, &v));
	CHECK(v >= 0 && v <= 100);
	CHECK_NEAR(v, 100.0, 1e-9);

	/* Steal, irq, softirq and nice are busy. */
	cur = prev;
	cur.steal += 10;
	cur.irq += 10;
	cur.softirq += 10;
	cur.nice += 10;
	cur.idle += 60;
	CHECK(cpu_busy_pct(&cur, &prev, &v));
	CHECK_NEAR(v, 40.0, 1e-9);

	/* No time passed, or counters went back (hotplug): unknown. */
	CHECK(!cpu_busy_pct(&prev, &prev, &v));
	cur = cpu(10, 10, 10, 0);
	CHECK(!cpu_busy_pct(&cur, &prev, &v));

	/* An offline CPU, in either sample: unknown. */
	cur = cpu(150, 100, 1050, 10);
	cur.present = 0;
	CHECK(!cpu_busy_pct(&cur, &prev, &v));
	cur.present = 1;
	prev.present = 0;
	CHECK(!cpu_busy_pct(&cur, &prev, &v));
}

/* ---- util ----------------------------------------------------------------- */

static const char *san(const char *src, size_t n, bool utf8)
{
	static char out[256];

	sanitize_text(out, sizeof(out), src, n, utf8);
	return out;
}

#define SAN(s, utf8) san((s), sizeof(s) - 1, (utf8))

static void test_sanitize_basic(void)
{
	char buf[8];

	CHECK_STR(SAN("abc", true), "abc");
	CHECK_STR(SAN("", true), "");
	CHECK_STR(SAN("a b~", false), "a b~");
	/* Control bytes, DEL and escape sequences. */
	CHECK_STR(SAN("a\tb\nc\rd", true), "a?b?c?d");
	CHECK_STR(SAN("\x1b[31mred\x1b[0m", true), "?[31mred?[0m");
	CHECK_STR(SAN("\x7f\x01\x1f", true), "???");
	CHECK_STR(SAN("\x07\x08", false), "??");
	/* NUL separates command-line arguments: a space. */
	CHECK_STR(SAN("ls\0-l\0/tmp\0", true), "ls -l /tmp ");
	CHECK_STR(SAN("\0\0", false), "  ");
	/* The length is @n, not the first NUL. */
	CHECK_EQ_U64(sanitize_text(buf, sizeof(buf), "ab\0cd", 5, true), 5);
	CHECK_STR(buf, "ab cd");
	CHECK_EQ_U64(sanitize_text(buf, sizeof(buf), "abcdef", 3, true), 3);
	CHECK_STR(buf, "abc");
}

static void test_sanitize_utf8(void)
{
	/* Valid UTF-8: kept with utf8, one '?' per character without. */
	CHECK_STR(SAN("caf\xc3\xa9", true), "caf\xc3\xa9");
	CHECK_STR(SAN("caf\xc3\xa9", false), "caf?");
	CHECK_STR(SAN("\xe2\x82\xac" "5", true), "\xe2\x82\xac" "5");
	CHECK_STR(SAN("\xe2\x82\xac" "5", false), "?5");
	CHECK_STR(SAN("\xf0\x9f\x98\x80!", true), "\xf0\x9f\x98\x80!");
	CHECK_STR(SAN("\xf0\x9f\x98\x80!", false), "?!");
	CHECK_STR(SAN("\xe6\x97\xa5\xe6\x9c\xac", true), "\xe6\x97\xa5\xe6\x9c\xac");
	CHECK_STR(SAN("\xc2\xa0", true), "\xc2\xa0");		/* U+00A0, first after C1 */
	CHECK_STR(SAN("\xf4\x8f\xbf\xbf", true), "\xf4\x8f\xbf\xbf");	/* U+10FFFF */
	CHECK_STR(SAN("\xef\xbf\xbd", true), "\xef\xbf\xbd");	/* U+FFFD */

	/* Invalid UTF-8: '?' per bad byte, whatever the mode. */
	CHECK_STR(SAN("\xff", true), "?");
	CHECK_STR(SAN("\xfe\xff", false), "??");
	CHECK_STR(SAN("\x80", true), "?");			/* lone continuation */
	CHECK_STR(SAN("a\xc3", true), "a?");			/* cut at the end */
	CHECK_STR(SAN("\xc3(", true), "?(");			/* bad continuation */
	CHECK_STR(SAN("\xe2\x82", true), "??");
	CHECK_STR(SAN("\xe2\x82x", true), "??x");
	CHECK_STR(SAN("\xc0\xaf", true), "??");			/* overlong '/' */
	CHECK_STR(SAN("\xc1\xbf", true), "??");
	CHECK_STR(SAN("\xe0\x80\xaf", true), "???");		/* overlong, 3 bytes */
	CHECK_STR(SAN("\xf0\x80\x80\xaf", true), "????");	/* overlong, 4 bytes */
	CHECK_STR(SAN("\xed\xa0\x80", true), "???");		/* surrogate U+D800 */
	CHECK_STR(SAN("\xed\xbf\xbf", true), "???");		/* surrogate U+DFFF */
	CHECK_STR(SAN("\xf4\x90\x80\x80", true), "????");	/* U+110000 */
	CHECK_STR(SAN("\xf5\x80\x80\x80", true), "????");
	/* A NUL or control byte inside a sequence ends it. */
	CHECK_STR(SAN("\xe2\x00\xac", true), "? ?");
	CHECK_STR(SAN("\xe2\n\xac", true), "???");
}

/* C1 controls (U+0080..U+009F) are escape sequences on some terminals. */
static void test_sanitize_c1(void)
{
	static const char *const c1[] = { "\xc2\x80", "\xc2\x85", "\xc2\x9b", "\xc2\x9d",
					  "\xc2\x9f" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c1); i++) {
		const char *t = san(c1[i], 2, true);

		CHECK_STR(t, "??");
		t = san(c1[i], 2, false);
		CHECK_STR(t, "??");
	}
	/* Raw 8-bit C1 bytes (CSI 0x9b, OSC 0x9d) are invalid UTF-8 anyway. */
	CHECK_STR(SAN("\x9b" "31m", true), "?31m");
	CHECK_STR(SAN("\x9d" "0;x\x9c", false), "?0;x?");
	CHECK_STR(SAN("a\xc2\x9b" "2J", true), "a??2J");
}

/* Exactly-sized destinations: never written past, always terminated. */
static void test_sanitize_bounds(void)
{
	static const char *const inputs[] = {
		"plain ascii text", "caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80 x",
		"\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", "\x1b\x9b\xc2\x9b\0\xff\xc3",
		"\xf0\x9f\x98\x80",
	};
	size_t i, sz;
	int mode;

	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		size_t n = strlen(inputs[i]) + (i == 3 ? 3 : 0);

		for (mode = 0; mode < 2; mode++) {
			char full[128];
			size_t flen = sanitize_text(full, sizeof(full), inputs[i], n, mode);

			CHECK_EQ_U64(flen, strlen(full));
			for (sz = 1; sz <= flen + 2; sz++) {
				char *dst = malloc(sz);
				size_t r;

				if (!dst)
					abort();
				memset(dst, 'Z', sz);
				r = sanitize_text(dst, sz, inputs[i], n, mode);
				CHECK(r < sz);
				CHECK_EQ_U64(dst[r], 0);
				CHECK_EQ_U64(strlen(dst), r);
				/* A prefix of the full output: characters dropped whole. */
				CHECK(memcmp(dst, full, r) == 0);
				free(dst);
			}
		}
	}
	{
		char one = 'Z';
		char two[2] = { 'Z', 'Z' };

		/* Size 0: nothing written at all. */
		CHECK_EQ_U64(sanitize_text(&one, 0, "abc", 3, true), 0);
		CHECK_EQ_U64(one, 'Z');
		CHECK_EQ_U64(sanitize_text(&one, 1, "abc", 3, true), 0);
		CHECK_EQ_U64(one, 0);
		/* A multi-byte character that does not fit is not split. */
		CHECK_EQ_U64(sanitize_text(two, 2, "\xc3\xa9", 2, true), 0);
		CHECK_EQ_U64(two[0], 0);
	}
	{
		char b[4];

		CHECK_EQ_U64(sanitize_text(b, sizeof(b), "a\xe2\x82\xac", 4, true), 1);
		CHECK_STR(b, "a");
		CHECK_EQ_U64(sanitize_text(b, sizeof(b), "ab\xc3\xa9", 4, true), 2);
		CHECK_STR(b, "ab");
		CHECK_EQ_U64(sanitize_text(b, sizeof(b), "ab\xc3\xa9", 4, false), 3);
		CHECK_STR(b, "ab?");
	}
}

/* Length of a valid, printable UTF-8 character at @s, or 0. */
static size_t printable_utf8(const unsigned char *s)
{
	unsigned cp;
	size_t len, i;

	if (s[0] >= 0x20 && s[0] < 0x7f)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if (cp < 0xa0 || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Random bytes: the output is printable ASCII, or valid UTF-8 without C0/C1. */
static void test_sanitize_fuzz(void)
{
	uint32_t x = 0x9e3779b9u;
	int iter;

	for (iter = 0; iter < 20000; iter++) {
		unsigned char in[24];
		char out[40];
		size_t n = 0, i, r, k;
		bool utf8 = iter & 1;

		n = test_rand(&x) % sizeof(in);
		for (i = 0; i < n; i++) {
			test_rand(&x);
			/* Bias towards UTF-8 lead and continuation bytes. */
			in[i] = (unsigned char)(x & 1 ? 0x80 | (x >> 8 & 0x7f) : x >> 8);
		}
		r = sanitize_text(out, 1 + (x >> 20) % sizeof(out), (const char *)in, n, utf8);
		CHECK_EQ_U64(strlen(out), r);
		for (i = 0; i < r; i += k) {
			k = utf8 ? printable_utf8((const unsigned char *)out + i)
				 : ((unsigned char)out[i] >= 0x20 && (unsigned char)out[i] < 0x7f);
			if (!CHECK(k > 0))
				break;
		}
	}
}

static void test_parse_uint(void)
{
	static const char *const bad[] = { "", "-1", "+1", " 1", "1 ", "abc", "1a", "0x10",
					   "1.5", "1e3", "\t1", "--1" };
	unsigned long long v = 0;
	size_t i;

	CHECK_EQ_I64(parse_uint("0", 10, &v), 0);
	CHECK_EQ_U64(v, 0);
	CHECK_EQ_I64(parse_uint("123", 1000, &v), 0);
	CHECK_EQ_U64(v, 123);
	CHECK_EQ_I64(parse_uint("007", 10, &v), 0);
	CHECK_EQ_U64(v, 7);
	CHECK_EQ_I64(parse_uint("10", 10, &v), 0);
	CHECK_EQ_U64(v, 10);
	CHECK_EQ_I64(parse_uint("18446744073709551615", ULLONG_MAX, &v), 0);
	CHECK_EQ_U64(v, ULLONG_MAX);
	v = 99;
	CHECK_EQ_I64(parse_uint("11", 10, &v), -ERANGE);
	CHECK_EQ_U64(v, 99);
	CHECK_EQ_I64(parse_uint("18446744073709551616", ULLONG_MAX, &v), -ERANGE);
	CHECK_EQ_I64(parse_uint("99999999999999999999999", ULLONG_MAX, &v), -ERANGE);
	CHECK_EQ_U64(v, 99);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (!CHECK_EQ_I64(parse_uint(bad[i], ULLONG_MAX, &v), -EINVAL))
			printf("#   input \"%s\"\n", bad[i]);
		CHECK_EQ_U64(v, 99);
	}
	CHECK_EQ_I64(parse_uint(NULL, 10, &v), -EINVAL);
}

static void test_parse_seconds(void)
{
	static const char *const bad[] = { "-1", "abc", "", "1e3", "1E3", "inf", "INF",
					   "infinity", "nan", "NaN", "0x10", "0X1p3", "+1",
					   " 1", "1 ", "1,5", ".", "-0", "1..2", "1s", "-.5" };
	double v = 0;
	char huge[400];
	size_t i;

	CHECK_EQ_I64(parse_seconds("0.5", 0.1, 3600, &v), 0);
	CHECK_NEAR(v, 0.5, 1e-12);
	CHECK_EQ_I64(parse_seconds("2", 0.1, 3600, &v), 0);
	CHECK_NEAR(v, 2.0, 1e-12);
	CHECK_EQ_I64(parse_seconds(".25", 0.1, 3600, &v), 0);
	CHECK_NEAR(v, 0.25, 1e-12);
	CHECK_EQ_I64(parse_seconds("3.", 0.1, 3600, &v), 0);
	CHECK_NEAR(v, 3.0, 1e-12);
	CHECK_EQ_I64(parse_seconds("3600", 0.1, 3600, &v), 0);
	CHECK_NEAR(v, 3600.0, 1e-12);
	v = 42;
	CHECK_EQ_I64(parse_seconds("0.05", 0.1, 3600, &v), -ERANGE);
	CHECK_EQ_I64(parse_seconds("0", 0.1, 3600, &v), -ERANGE);
	CHECK_EQ_I64(parse_seconds("3600.5", 0.1, 3600, &v), -ERANGE);
	memset(huge, '9', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	CHECK_EQ_I64(parse_seconds(huge, 0.1, 1e308, &v), -ERANGE);
	CHECK_NEAR(v, 42, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (!CHECK_EQ_I64(parse_seconds(bad[i], 0, 1e9, &v), -EINVAL))
			printf("#   input \"%s\"\n", bad[i]);
		CHECK_NEAR(v, 42, 0);
	}
	CHECK_EQ_I64(parse_seconds(NULL, 0, 1e9, &v), -EINVAL);
}

/* ---- pidmap --------------------------------------------------------------- */

static uint32_t rng_state = 12345u;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* Values are addresses in this pool: distinct, never NULL. */
static char value_pool[4096];

static size_t pidmap_count_check(const struct pidmap *m, void *const *ref, size_t nkeys,
				 const pid_t *keys)
{
	size_t i, bad = 0;

	for (i = 0; i < nkeys; i++)
		if (pidmap_get(m, keys[i]) != ref[i])
			bad++;
	return bad;
}

/* Random put/get/del against a reference array over @nkeys keys. */
static void pidmap_random_run(const pid_t *keys, size_t nkeys, int ops)
{
	struct pidmap m;
	void **ref = calloc(nkeys, sizeof(*ref));
	size_t live = 0, bad = 0;
	int op;

	if (!ref)
		abort();
	pidmap_init(&m);
	for (op = 0; op < ops; op++) {
		uint32_t r = rnd();
		size_t k = rnd() % nkeys;
		void *v;

		switch (r % 10) {
		case 0: case 1: case 2: case 3: case 4:
			v = &value_pool[rnd() % sizeof(value_pool)];
			pidmap_put(&m, keys[k], v);
			if (!ref[k])
				live++;
			ref[k] = v;
			break;
		case 5: case 6: case 7:
			v = pidmap_del(&m, keys[k]);
			if (v != ref[k])
				bad++;
			if (ref[k])
				live--;
			ref[k] = NULL;
			break;
		default:
			if (pidmap_get(&m, keys[k]) != ref[k])
				bad++;
			break;
		}
		if (m.n != live)
			bad++;
		if (op % 997 == 0)
			bad += pidmap_count_check(&m, ref, nkeys, keys);
	}
	bad += pidmap_count_check(&m, ref, nkeys, keys);
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(m.n, live);
	CHECK(m.cap >= 2 * m.n);
	/* Delete everything: the map is empty and still usable. */
	for (op = 0; op < (int)nkeys; op++)
		pidmap_del(&m, keys[op]);
	CHECK_EQ_U64(m.n, 0);
	pidmap_put(&m, keys[0], value_pool);
	CHECK(pidmap_get(&m, keys[0]) == value_pool);
	pidmap_free(&m);
	free(ref);
}

/*
 * The home slot of @key as pidmap.c computes it (Fibonacci hashing), to build
 * probe runs on purpose; if the hash changes, the tests still check the map,
 * only less pointedly.
 */
static size_t home_slot(pid_t key, size_t cap)
{
	return (size_t)(((uint32_t)key * 2654435769u) >> 7) & (cap - 1);
}

static void test_pidmap_random(void)
{
	enum { DENSE = 3000, SPARSE = 5000 };
	pid_t *keys = malloc(SPARSE * sizeof(*keys));
	size_t i, j;

	if (!keys)
		abort();
	/* Consecutive pids, the common case. */
	for (i = 0; i < DENSE; i++)
		keys[i] = (pid_t)(i + 1);
	pidmap_random_run(keys, DENSE, 50000);
	/* Distinct pids over the whole positive range. */
	for (i = 0; i < SPARSE; i++) {
		do {
			keys[i] = (pid_t)(1 + rnd() % 0x7ffffffe);
			for (j = 0; j < i && keys[j] != keys[i]; j++)
				;
		} while (j < i);
	}
	pidmap_random_run(keys, SPARSE, 50000);
	/*
	 * Keys crowded around the end of the initial table (home slots 250..3),
	 * fewer than fit before it grows: long probe runs that wrap around.
	 */
	for (i = 0; i < 100; i++) {
		pid_t k = i ? keys[i - 1] + 1 : 1;

		while (home_slot(k, 256) < 250 && home_slot(k, 256) > 3)
			k++;
		keys[i] = k;
	}
	pidmap_random_run(keys, 100, 20000);
	free(keys);
}

static void test_pidmap_basic(void)
{
	struct pidmap m;
	char a, b;

	pidmap_init(&m);
	CHECK(pidmap_get(&m, 1) == NULL);
	CHECK(pidmap_del(&m, 1) == NULL);
	CHECK_EQ_U64(m.n, 0);
	pidmap_put(&m, 1, &a);
	pidmap_put(&m, 0x7fffffff, &b);
	CHECK(pidmap_get(&m, 1) == &a);
	CHECK(pidmap_get(&m, 0x7fffffff) == &b);
	CHECK_EQ_U64(m.n, 2);
	pidmap_put(&m, 1, &b);	/* replace */
	CHECK(pidmap_get(&m, 1) == &b);
	CHECK_EQ_U64(m.n, 2);
	CHECK(pidmap_del(&m, 1) == &b);
	CHECK(pidmap_del(&m, 1) == NULL);
	CHECK(pidmap_get(&m, 1) == NULL);
	CHECK_EQ_U64(m.n, 1);
	/* Cleared: empty, the table kept, usable again. */
	pidmap_clear(&m);
	CHECK_EQ_U64(m.n, 0);
	CHECK(m.slots != NULL && pidmap_get(&m, 0x7fffffff) == NULL);
	pidmap_put(&m, 2, &a);
	CHECK(pidmap_get(&m, 2) == &a);
	pidmap_free(&m);
	CHECK(m.slots == NULL);
}

/* Deletions inside probe runs, including runs that wrap from the last slot to the first. */

static void test_pidmap_probe_chains(void)
{
	pid_t keys[12];
	size_t nk = 0, i, j, l;
	const size_t want_home[] = { 254, 254, 255, 255, 255, 0, 0, 1, 1, 2, 255, 0 };
	pid_t k;
	size_t bad = 0;

	/* Keys whose home slots in the initial 256-slot table are around the end. */
	for (i = 0; i < ARRAY_SIZE(want_home); i++) {
		for (k = 1; k < 10000000; k++) {
			for (j = 0; j < nk && keys[j] != k; j++)
				;
			if (j == nk && home_slot(k, 256) == want_home[i])
				break;
		}
		keys[nk++] = k;
	}
	for (i = 0; i < nk; i++) {
		for (j = 0; j < nk; j++) {
			struct pidmap m;

			pidmap_init(&m);
			if (!CHECK_EQ_U64(m.cap, 256))
				return;
			for (l = 0; l < nk; l++)
				pidmap_put(&m, keys[l], &value_pool[l + 1]);
			if (pidmap_del(&m, keys[i]) != &value_pool[i + 1])
				bad++;
			if (i != j && pidmap_del(&m, keys[j]) != &value_pool[j + 1])
				bad++;
			for (l = 0; l < nk; l++) {
				void *want = l == i || l == j ? NULL : &value_pool[l + 1];

				if (pidmap_get(&m, keys[l]) != want)
					bad++;
			}
			/* Put them back: every key findable again. */
			pidmap_put(&m, keys[i], &value_pool[i + 1]);
			pidmap_put(&m, keys[j], &value_pool[j + 1]);
			for (l = 0; l < nk; l++)
				if (pidmap_get(&m, keys[l]) != &value_pool[l + 1])
					bad++;
			if (m.n != nk)
				bad++;
			pidmap_free(&m);
		}
	}
	CHECK_EQ_U64(bad, 0);
}

/* What a person reads: a rare event is 0.4/s, not 0; MEM% of a small process is not 0.0. */
static void test_format_decimals(void)
{
	char b[32];

	fmt_rate(b, sizeof(b), 0.4);
	CHECK_STR(b, "0.4");
	fmt_rate(b, sizeof(b), 0.04);
	CHECK_STR(b, "0.0");	/* nonzero, below a decimal: 0.0, not 0 */
	fmt_rate(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	fmt_rate(b, sizeof(b), 9.94);
	CHECK_STR(b, "9.9");
	fmt_rate(b, sizeof(b), 9.96);
	CHECK_STR(b, "10");
	fmt_rate(b, sizeof(b), 2.5);
	CHECK_STR(b, "2.5");
	fmt_rate(b, sizeof(b), 1234);
	CHECK_STR(b, "1234");
	fmt_rate(b, sizeof(b), 12345);
	CHECK_STR(b, "12.3k");
	/* sizes keep the column's 6 characters */
	fmt_kb(b, sizeof(b), 99999);
	CHECK_STR(b, "99999");
	fmt_kb(b, sizeof(b), 1023.0 * 1024);
	CHECK_STR(b, "1.0G");
	fmt_kb(b, sizeof(b), 20.0 * 1024 * 1024 * 1024);	/* ASan's 20 TiB VIRT */
	CHECK_STR(b, "20.0T");
}

/*
 * The first frame: CPU% and faults/s since each process started (top's first
 * iteration), MEM% with two decimals; exited rows after the live ones; the
 * header's counts leave them out.
 */
static void test_first_frame_and_exited(void)
{
	static const pid_t live_first[] = { 2, 1 };
	struct model m;
	struct rowset rs;
	struct task *t;
	char b[32];
	double v;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	tick_begin(&m, 1);
	m.sys.have_uptime = true;
	m.sys.uptime_s = 110;		/* started at 10 s (1000 ticks): 100 s old */
	m.sys.have_mem = true;
	m.sys.mem.total = 24u * 1024 * 1024;	/* 24 GiB in KiB */
	t = sample(&m, 1, 1000, "old", 2000, 3000, 4000);	/* 50 s of CPU, 4000 faults */
	t->rss_kb = 10 * 1024;					/* 10 MiB */
	sample(&m, 2, 1000, "live", 0, 0, 0);
	end_tick(&m, &rs);
	t = model_task_find(&m, 1);
	CHECK(fmt_since_start(&m, t, COL_CPU, &v));
	CHECK_NEAR(v, 50.0, 1e-6);
	CHECK(fmt_since_start(&m, t, COL_MINFLT, &v));
	CHECK_NEAR(v, 40.0, 1e-6);
	CHECK_STR(fmt_cell(&m, t, COL_CPU, b, sizeof(b), true), "50.0");
	CHECK_STR(fmt_cell(&m, t, COL_MINFLT, b, sizeof(b), true), "40");
	CHECK_STR(fmt_cell(&m, t, COL_MEM, b, sizeof(b), true), "0.04");
	CHECK(!columns_num(&m, t, COL_CPU, &v));	/* CSV, JSON: still no rate */

	/* The second frame: rates of the interval, nothing since start. */
	tick_begin(&m, 2);
	m.sys.have_uptime = true;
	m.sys.uptime_s = 111;
	sample(&m, 1, 1000, "old", 2000, 3000, 4000)->state = 'X';
	sample(&m, 2, 1000, "live", 0, 0, 0);
	end_tick(&m, &rs);
	t = model_task_find(&m, 1);
	CHECK(!fmt_since_start(&m, t, COL_CPU, &v));
	CHECK_EQ_U64(m.sum.exited, 1);
	CHECK_EQ_U64(m.sum.zombie, 0);
	CHECK_EQ_U64(m.sum.tasks, 1);
	/* pid 1 sorts first by pid; exited, it goes after the live one. */
	rs.sort_col = COL_PID;
	rs.sort_dir = SORT_ASC;
	rs.exited = EXITED_LAST;
	rowset_refresh(&rs, &m);
	CHECK(rows_are(&rs, live_first, ARRAY_SIZE(live_first)));
	rs.exited = EXITED_HIDE;
	rowset_refresh(&rs, &m);
	CHECK(rs.nrows == 1 && rs.rows[0].task->pid == 2);
	rs.exited = EXITED_MIXED;
	rowset_refresh(&rs, &m);
	CHECK(rs.nrows == 2 && rs.rows[0].task->pid == 1);
	rowset_free(&rs);
	model_free(&m);
}

/*
 * A process /proc listed, then not (reaped), whose last row of events was
 * held a tick (its last switch came late): the row, which has no name (the
 * events never named a process older than tracing), is the process's own
 * last one: named, owned and parented as /proc said, in state X. Without
 * exit records nothing else would name it (the mass exit of issue 20).
 */
static void test_model_late_row(void)
{
	struct model m;
	struct sample s;
	struct task *t;
	struct row_events *e;
	int i;

	model_init(&m, 100, 4);
	sample_init(&s);
	m.event_counters = 1u << CNT_SYSCALLS | 1u << CNT_SIGRECV;
	for (i = 1; i <= 4; i++) {
		fx_begin(&s, i);
		model_apply(&m, &s);
		if (i <= 2) {
			t = sample(&m, 9, 500, "mx-kid", 1, 1, 1);
			t->uid = 1000;
			t->ppid = 8;
		}
		if (i == 4) {
			e = fx_row(&s, 9, "", true);
			e->n[CNT_SYSCALLS] = 1;
			e->n[CNT_SIGRECV] = 1;
		}
		s.end = true;
		model_apply(&m, &s);
		t = model_task_find(&m, 9);
		if (i == 3)
			CHECK(!t);
	}
	t = model_task_find(&m, 9);
	if (CHECK(t)) {
		CHECK_STR(t->comm, "mx-kid");
		CHECK(t->state == 'X');
		CHECK(t->uid == 1000 && t->ppid == 8);
		CHECK(t->starttime == 500);
		CHECK(t->ev[CNT_SIGRECV] == 1);
	}
	/* Gone for good after: a later row of that pid is another life. */
	s.begin = s.end = true;
	s.mono_ns = 5 * SEC;
	model_apply(&m, &s);
	CHECK(!model_task_find(&m, 9));
	sample_free(&s);
	model_free(&m);
}

/*
 * A mass exit (issue 20): the exit event comes while /proc lists the task in
 * the kernel's exit path ('D') or as a zombie. Read at the tick of its exit,
 * it is 'Z' (exited, not reaped) while /proc lists it, whatever the state
 * read, then X once; its pid reused (another start time) is a new task.
 * @read_at_exit false: /proc did not read it that tick (X at once); its later
 * listings make no row at all. Never a row after X, never another state.
 */
static void listed_after_exit(bool read_at_exit)
{
	static const char states[] = "SDDZ";
	struct model m;
	struct sample s;
	struct task_reading *r;
	struct row_events *e;
	struct task *t;
	int i;

	model_init(&m, 100, 4);
	sample_init(&s);
	m.event_counters = 1u << CNT_SYSCALLS | 1u << CNT_SIGRECV;
	for (i = 1; i <= 7; i++) {
		fx_begin(&s, i);
		if ((i <= 4 && (i != 2 || read_at_exit)) || i == 7) {
			r = fx_reading(&s, 9, "true");
			r->stat.utime = r->stat.stime = 1;
			r->stat.minflt = 10;
			r->stat.starttime = i == 7 ? 900 : 500;
			r->stat.state = i == 7 ? 'S' : states[i - 1];
		}
		if (i == 2) {
			e = fx_row(&s, 9, "", true);
			e->n[CNT_SYSCALLS] = 31;
			e->n[CNT_SIGRECV] = 1;
			sample_add_exit(&s, 9);
		}
		s.end = true;
		model_apply(&m, &s);
		t = model_task_find(&m, 9);
		if (i == 2)
			CHECK(t && t->seen_tick == m.tick && t->ev[CNT_SYSCALLS] == 31 &&
			      t->state == (read_at_exit ? 'Z' : 'X'));
		if (i == 3 || i == 4) {
			if (read_at_exit)
				CHECK(t && t->seen_tick == m.tick && t->state == 'Z' &&
				      !t->ev[CNT_SYSCALLS]);
			else
				CHECK(!t);	/* no row */
		}
		if (i == 5) {
			if (read_at_exit)
				CHECK(t && t->seen_tick == m.tick && t->state == 'X');
			else
				CHECK(!t);
		}
		if (i == 6)
			CHECK(!t);
		if (i == 7)
			CHECK(t && t->state == 'S' && t->seen_tick == m.tick && t->starttime == 900);
	}
	sample_free(&s);
	model_free(&m);
}

/*
 * A pid's two lives whose events could not be split (evlives.c): the ended
 * life's row comes unsure; the new life, with no row of its own this tick
 * (its calls went to that row), is unknown too, never a known 0.
 */
static void test_model_unsure_lives(void)
{
	struct model m;
	struct sample s;
	struct task_reading *r;
	struct row_events *e;
	struct task *t;
	int i;

	model_init(&m, 100, 4);
	sample_init(&s);
	m.event_counters = 1u << CNT_SYSCALLS;
	for (i = 1; i <= 2; i++) {
		fx_begin(&s, i);
		r = fx_reading(&s, 9, i == 1 ? "life-a" : "life-b");
		r->stat.starttime = i == 1 ? 500 : 900;
		if (i == 2) {
			e = fx_row(&s, 9, "life-a", true);
			e->ended = true;
			e->unsure = true;
			e->n[CNT_SYSCALLS] = 7;
		}
		s.end = true;
		model_apply(&m, &s);
	}
	t = model_task_find(&m, 9);
	if (CHECK(t)) {
		CHECK(t->starttime == 900 && t->seen_tick == m.tick);
		CHECK(!(t->have_delta & (1u << CNT_SYSCALLS)));
	}
	t = (struct task *)model_past_find(&m, 9);
	if (CHECK(t))
		CHECK(!(t->have_delta & (1u << CNT_SYSCALLS)));
	sample_free(&s);
	model_free(&m);
}

/*
 * A zombie listed ticks after its exit was applied: it runs no more, so its
 * CPU is 0 and its counts stay its last ones, though /proc's reading of it
 * may be lower (clock ticks, after the exact ones of its exit).
 */
static void test_model_zombie_after_exit(void)
{
	static const uint64_t utime[] = { 10, 14, 12, 12 };
	struct model m;
	struct sample s;
	struct task_reading *r;
	struct task *t;
	int i;

	model_init(&m, 100, 4);
	sample_init(&s);
	m.event_counters = 1u << CNT_SYSCALLS;
	for (i = 1; i <= 4; i++) {
		fx_begin(&s, i);
		r = fx_reading(&s, 9, "srv");
		r->stat.utime = utime[i - 1];
		r->stat.stime = 2;
		r->stat.minflt = 10;
		r->stat.starttime = 500;
		r->stat.state = i >= 2 ? 'Z' : 'S';
		if (i == 2)
			sample_add_exit(&s, 9);
		s.end = true;
		model_apply(&m, &s);
		t = model_task_find(&m, 9);
		CHECK(t && t->seen_tick == m.tick && t->state == (i >= 2 ? 'Z' : 'S'));
		if (t && i >= 3) {
			CHECK(t->have_cpu);
			CHECK_NEAR(t->cpu_pct, 0.0, 1e-9);
			CHECK_EQ_U64(t->cnt[CNT_UTIME], 14);
		}
	}
	sample_free(&s);
	model_free(&m);
}

static void late_refresh(bool traced)
{
	static const uint64_t utime[][2] = { { 0, 105 }, { 0, 380 } };
	static const uint64_t runq_ns[] = { 0, 1448000000ull };
	struct model m;
	struct sample s;
	struct task_reading *r;
	struct row_events *e;
	struct task *t;
	char b[32];
	double v;
	int i;

	model_init(&m, 100, 4);
	sample_init(&s);
	m.event_counters = traced ? (1u << CNT_ONCPU) | (1u << CNT_RUNQ) : 0;
	for (i = 0; i < 2; i++) {
		s.begin = true;
		s.mono_ns = (uint64_t)(i + 1) * SEC;	/* 1 s apart */
		s.wall_s = 1700000000.0 + i;
		/* One thread: 1.05 s of CPU between the reads, 1.448 s of waiting told at its end. */
		r = sample_add_task(&s);
		r->pid = r->tgid = 21;
		r->uid = -1;
		r->stat = mkstat(21, "late", utime[0][i], 0, 10);
		r->have_runq = !traced;
		r->runq_ns = runq_ns[i];
		/* Four threads, three of them gone by the second read: 3.8 s is not too much. */
		r = sample_add_task(&s);
		r->pid = r->tgid = 22;
		r->uid = -1;
		r->stat = mkstat(22, "pool", utime[1][i], 0, 10);
		r->stat.num_threads = i ? 1 : 4;
		/* Traced, a row held a tick: 1.2 s on a CPU, of one thread. */
		if (traced && i) {
			e = sample_add_row(&s);
			e->id = e->tgid = 21;
			e->n[CNT_ONCPU] = 1200000000ull;
			e->have_state = true;
		}
		s.end = true;
		model_apply(&m, &s);
	}
	t = model_task_find(&m, 21);
	if (!CHECK(t) || !CHECK(t->have_cpu))
		goto out;
	CHECK_NEAR(t->cpu_pct, 100.0, 1e-9);
	CHECK_STR(fmt_cell(&m, t, COL_CPU, b, sizeof(b), true), "100.0");
	/* The counts as counted (CSV's milliseconds): only the shares are bound. */
	if (traced) {
		CHECK_STR(fmt_cell(&m, t, COL_ONCPU, b, sizeof(b), true), "100.0");
		CHECK(columns_num(&m, t, COL_ONCPU, &v));
		CHECK_NEAR(v, 1200.0, 1e-9);
	} else {
		CHECK_STR(fmt_cell(&m, t, COL_RUNQ, b, sizeof(b), true), "100.0");
		CHECK(columns_num(&m, t, COL_RUNQ, &v));
		CHECK_NEAR(v, 1448.0, 1e-9);
	}
	t = model_task_find(&m, 22);
	if (CHECK(t) && CHECK(t->have_cpu))
		CHECK_NEAR(t->cpu_pct, 380.0, 1e-9);
out:
	sample_free(&s);
	model_free(&m);
}

/*
 * A refresh whose /proc reads came late (its scan waited) or whose counts
 * came late (a wait the kernel counts at its end, a row held a tick for its
 * last switch): more than the interval of CPU, or of waiting, for one
 * thread. No share is above 100 per thread; the counts stay as counted.
 */
static void test_model_share_late_refresh(void)
{
	late_refresh(false);
	late_refresh(true);
}

static void test_model_listed_after_exit(void)
{
	listed_after_exit(true);
	listed_after_exit(false);
}

static const struct test tests[] = {
	{ "format_decimals", test_format_decimals },
	{ "first_frame_and_exited", test_first_frame_and_exited },
	{ "model_first_tick", test_model_first_tick },
	{ "model_second_tick_rates", test_model_second_tick_rates },
	{ "model_hz", test_model_hz },
	{ "model_set_stat_fields", test_model_set_stat_fields },
	{ "model_counter_gap", test_model_counter_gap },
	{ "model_pid_reuse", test_model_pid_reuse },
	{ "model_unsure_lives", test_model_unsure_lives },
	{ "model_removal", test_model_removal },
	{ "model_many_tasks", test_model_many_tasks },
	{ "model_counter_backwards", test_model_counter_backwards },
	{ "model_sort", test_model_sort },
	{ "model_sort_unknown_counter", test_model_sort_unknown_counter },
	{ "model_filter", test_model_filter },
	{ "model_focus", test_model_focus },
	{ "model_focus_follow", test_model_focus_follow },
	{ "model_focus_exit", test_model_focus_exit },
	{ "model_focus_remove: a followed process leaves, a named one stays",
	  test_model_focus_remove },
	{ "model: events withheld for an interval are unknown", test_model_events_withheld },
	{ "model: a row held a tick after /proc stopped listing its process", test_model_late_row },
	{ "model: after its exit, Z while /proc lists it, then X once; no row after X", test_model_listed_after_exit },
	{ "model: a zombie listed after its exit: CPU 0, its last counts kept", test_model_zombie_after_exit },
	{ "model: a late refresh: no share above 100 per thread, the counts as counted",
	  test_model_share_late_refresh },
	{ "model_sum_syscalls", test_model_sum_syscalls },
	{ "rowset_want: the shown rows' status is read", test_rowset_want },
	{ "sys_rate", test_sys_rate },
	{ "sys_sample_swap", test_sys_sample_swap },
	{ "cpu_busy_pct", test_cpu_busy_pct },
	{ "model: the header's numbers, once per tick", test_model_sys_summary },
	{ "sanitize_basic", test_sanitize_basic },
	{ "sanitize_utf8", test_sanitize_utf8 },
	{ "sanitize_c1", test_sanitize_c1 },
	{ "sanitize_bounds", test_sanitize_bounds },
	{ "sanitize_fuzz", test_sanitize_fuzz },
	{ "parse_uint", test_parse_uint },
	{ "parse_seconds", test_parse_seconds },
	{ "pidmap_basic", test_pidmap_basic },
	{ "pidmap_probe_chains", test_pidmap_probe_chains },
	{ "pidmap_random", test_pidmap_random },
	/* Last: under -fno-sanitize-recover its failure would stop the run. */
	{ "model_empty_tick", test_model_empty_tick },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
