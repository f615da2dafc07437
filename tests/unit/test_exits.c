// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/exits/exits.c and the model's final readings (model.c,
 * apply_final): synthetic exit records (struct taskparse_exit, as tsparse makes them)
 * fed to the collector between ticks of a model, as src/sources.c runs them:
 * a task born and dead within the interval, one /proc read before it died,
 * a record that comes while /proc still reads its task (a zombie), a process
 * of several threads, a reused pid, ktop's own records, threads mode, focus,
 * the rule that a dead row is shown once, and the CPU time the events add to
 * a record (collectors/exits/lifecpu.c). Untraced, a pid's lives are told apart by
 * their records and /proc's start times: two lives in one interval are two
 * rows, a later life's counts are its own.
 */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../collectors/exits/exits.h"
#include "../../outputs/batch.h"
#include "../../tables/columns.h"
#include "../../model/model.h"
#include "../../lib/util.h"
#include "fixture.h"
#include "test.h"

#define SEC 1000000000ull
#define MS 1000000ull

static struct model m;
static struct sample s;
static struct exits *x;

static void setup(void)
{
	model_init(&m, 100, 4);
	sample_init(&s);
	x = exits_new(100);
}

static void teardown(void)
{
	model_free(&m);
	sample_free(&s);
	exits_free(x);
}

/* A tick @at_s seconds in: its /proc readings are added by the caller between begin and end. */
static void tick_begin(double at_s)
{
	exits_begin(x);
	fx_begin(&s, at_s);
	model_apply(&m, &s);
}

static void reading(pid_t pid, uint64_t starttime, char state, uint64_t ticks, uint64_t minflt)
{
	struct task_reading *r = fx_reading(&s, pid, "reader");

	r->stat.state = state;
	r->stat.starttime = starttime;
	r->stat.utime = ticks;
	r->stat.minflt = minflt;
	r->uid = 1000;
	r->user = "alice";
}

/* Traced, a tick to follow: exits_collect's @forks_next. */
static bool forks_next;

/* The rest of a tick: readings applied, then the exit records, then its end. */
static void tick_end(void)
{
	model_apply(&m, &s);
	exits_collect(x, &m, &s, NULL, 0, forks_next);
	s.end = true;
	model_apply(&m, &s);
}

/* The boot clock now, ns. */
static uint64_t boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

static struct taskparse_exit rec(pid_t tid, pid_t tgid, bool group_dead, uint64_t run_ms, uint64_t minflt,
			  const char *comm)
{
	struct taskparse_exit e;

	memset(&e, 0, sizeof(e));
	e.tid = tid;
	e.tgid = tgid;
	e.ppid = 1;
	e.uid = 0;
	e.group_dead = group_dead;
	e.run_ns = run_ms * MS;
	e.utime_us = run_ms * 1000;
	e.minflt = minflt;
	e.majflt = 1;
	e.nvcsw = 3;
	e.nivcsw = 2;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	/* Read a second from now: the ticks of a test come at once, before it. */
	e.exit_lo_ns = e.exit_hi_ns = boot_ns() + SEC;
	e.etime_us = 20000;
	return e;
}

/* Its start as /proc/PID/stat says it (clock ticks after boot). */
static uint64_t start_of(const struct taskparse_exit *e)
{
	uint64_t lo = 0, hi = 0;

	taskparse_start_window(e, 100, &lo, &hi);
	return lo;
}

static double col(const struct task *t, enum col_id c)
{
	double v = -1;

	if (!columns_num(&m, t, c, &v))
		return -1;
	return v;
}

static void test_born_and_dead(void)
{
	struct taskparse_exit e = rec(500, 500, true, 30, 574, "burnone");
	struct task *t;
	char buf[64];

	setup();
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, &e, 1);
	tick_end();
	t = model_task_find(&m, 500);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_STR(t->comm, "burnone");
	CHECK_EQ_I64(t->uid, 0);
	CHECK_STR(columns_text(t, COL_USER, buf, sizeof(buf), 1), "root");
	CHECK_NEAR(col(t, COL_TIME), 0.030, 1e-9);
	CHECK_NEAR(col(t, COL_CPU), 3.0, 1e-9);	/* 30 ms of 1 s */
	CHECK_NEAR(col(t, COL_MINFLT), 574, 0);
	CHECK_NEAR(col(t, COL_MAJFLT), 1, 0);
	CHECK_NEAR(col(t, COL_VCSW), 3, 0);	/* not traced: the record's */
	{
		uint64_t d = 99;

		/* Split as /proc splits it: all user time here, 3 clock ticks. */
		CHECK(task_delta(t, CNT_UTIME, &d) && d == 3);
		CHECK(task_delta(t, CNT_STIME, &d) && d == 0);
	}
	CHECK(m.ntasks == 1 && m.tasks[0] == t);
	/* CSV and JSON: the record's microseconds, not 0.03 */
	{
		static const int cols[] = { COL_PID, COL_TIME };
		struct batch b = { 0 };
		char *text = NULL;
		size_t len = 0;

		rowset_init(&b.rows);
		b.out = open_memstream(&text, &len);
		b.fmt = OUT_CSV;
		b.cols = cols;
		b.ncols = 2;
		if (CHECK(b.out)) {
			batch_write(&b, &m);
			fclose(b.out);
			CHECK(text && strstr(text, ",500,0.030000\n"));
		}
		free(text);
		rowset_free(&b.rows);
		batch_free(&b);
	}
	/* Its row was its last: gone at the next tick. */
	tick_begin(3);
	tick_end();
	CHECK(!model_task_find(&m, 500));
out:
	teardown();
}

/*
 * Started long before the previous tick, never read (outside what /proc was
 * asked for): its totals are known, its counts of this interval are not.
 */
static void test_never_read(void)
{
	struct taskparse_exit e = rec(550, 550, true, 30, 574, "unseen");
	struct task *t;

	setup();
	e.etime_us = 60 * 1000000ull;
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, &e, 1);
	tick_end();
	t = model_task_find(&m, 550);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_NEAR(col(t, COL_TIME), 0.030, 1e-9);
	CHECK_EQ_I64(col(t, COL_CPU), -1);
	CHECK_EQ_I64(col(t, COL_MINFLT), -1);
out:
	teardown();
}

static void test_alive_then_dead(void)
{
	struct taskparse_exit e = rec(600, 600, true, 150, 130, "worker");
	struct task *t;

	setup();
	e.etime_us = 5 * 1000000;	/* 5 s old: /proc read it */
	tick_begin(1);
	reading(600, start_of(&e), 'R', 5, 90);
	tick_end();
	tick_begin(2);
	reading(600, start_of(&e), 'R', 10, 100);	/* 100 ms, 100 faults so far */
	tick_end();
	tick_begin(3);			/* its read failed: gone, its record came */
	exits_feed(x, &e, 1);
	tick_end();
	t = model_task_find(&m, 600);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_STR(t->comm, "worker");	/* the name at exit */
	CHECK_STR(t->user, "alice");	/* /proc's effective user stays */
	CHECK_NEAR(col(t, COL_TIME), 0.150, 1e-9);
	CHECK_NEAR(col(t, COL_CPU), 5.0, 1e-9);	/* the last 50 ms of the last second */
	CHECK_NEAR(col(t, COL_MINFLT), 30, 0);	/* not the 130 again */
out:
	teardown();
}

static void test_early_record(void)
{
	struct taskparse_exit e = rec(700, 700, true, 100, 100, "zombie");
	struct task *t;

	setup();
	e.etime_us = 5 * 1000000;
	tick_begin(1);
	reading(700, start_of(&e), 'R', 5, 50);
	tick_end();
	/* It exited; /proc still reads its zombie (final numbers), its record is queued. */
	tick_begin(2);
	reading(700, start_of(&e), 'Z', 10, 100);
	exits_feed(x, &e, 1);
	tick_end();
	t = model_task_find(&m, 700);
	CHECK(t && t->state == 'Z' && !t->exited);
	CHECK_NEAR(col(t, COL_MINFLT), 50, 0);
	/* Reaped: the record is its last row, with what is left (nothing). */
	tick_begin(3);
	tick_end();
	t = model_task_find(&m, 700);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_NEAR(col(t, COL_MINFLT), 0, 0);
	CHECK_NEAR(col(t, COL_CPU), 0, 0);
	CHECK_NEAR(col(t, COL_TIME), 0.1, 1e-9);
out:
	teardown();
}

/*
 * Traced: the exit event comes with the tick /proc reads the zombie (the
 * events were read before /proc): its row says Z, exited, with its record's
 * numbers; never X while it is not reaped (it showed X, then Z rows).
 */
static void test_traced_zombie(void)
{
	struct taskparse_exit e = rec(760, 760, true, 100, 100, "zombie");
	struct task *t;

	setup();
	e.etime_us = 5 * 1000000;
	tick_begin(1);
	reading(760, start_of(&e), 'R', 5, 50);
	tick_end();
	tick_begin(2);
	reading(760, start_of(&e), 'Z', 10, 100);
	sample_add_exit(&s, 760);
	exits_feed(x, &e, 1);
	tick_end();
	t = model_task_find(&m, 760);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'Z');
	CHECK(t->exited && t->final);
	CHECK_NEAR(col(t, COL_TIME), 0.1, 1e-9);
	/* Still not reaped: Z again. */
	tick_begin(3);
	reading(760, start_of(&e), 'Z', 10, 100);
	tick_end();
	t = model_task_find(&m, 760);
	CHECK(t && t->state == 'Z');
	/*
	 * Its record again while /proc lists it (a recording's keyframe gives
	 * it again, record.c regive_finals): the same life's, nothing changes;
	 * not a past life's row X (its pid is not free while it is listed).
	 */
	tick_begin(3.5);
	reading(760, start_of(&e), 'Z', 10, 100);
	fx_final(&s, 760, "zombie")->ppid = 4242;
	tick_end();
	t = model_task_find(&m, 760);
	CHECK(t && t->state == 'Z' && t->final);
	CHECK(model_past_find(&m, 760) == NULL);
	if (t)
		CHECK_NEAR(col(t, COL_TIME), 0.1, 1e-9);
	/* Reaped: one row X, its total CPU time as it was, no count since. */
	tick_begin(4);
	tick_end();
	t = model_task_find(&m, 760);
	CHECK(t && t->final);	/* the record's numbers, kept through its Z rows */
	t = model_task_find(&m, 760);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_NEAR(col(t, COL_TIME), 0.1, 1e-9);
	CHECK_NEAR(col(t, COL_MINFLT), 0, 0);
	/* and then no more */
	tick_begin(5);
	tick_end();
	CHECK(model_task_find(&m, 760) == NULL);
out:
	teardown();
}

/*
 * Traced: forked after the events' cut, exited before the records were read,
 * never listed by /proc. Its record waits a tick for its fork: /proc then
 * reads its zombie, Z. (It was a row X from the record, then nothing: the
 * zombie /proc listed was hidden as a process whose last row was shown.)
 */
static void test_traced_unborn_zombie(void)
{
	struct taskparse_exit e = rec(780, 780, true, 100, 100, "zombie");
	struct task *t;

	setup();
	forks_next = true;
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, &e, 1);
	tick_end();
	CHECK(model_task_find(&m, 780) == NULL);
	tick_begin(3);
	reading(780, start_of(&e), 'Z', 10, 100);
	sample_add_exit(&s, 780);
	tick_end();
	t = model_task_find(&m, 780);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'Z');
	CHECK(t->exited && t->final);
	CHECK_NEAR(col(t, COL_TIME), 0.1, 1e-9);
	tick_begin(4);
	reading(780, start_of(&e), 'Z', 10, 100);
	tick_end();
	t = model_task_find(&m, 780);
	CHECK(t && t->state == 'Z');
	/* Never forked as far as the events tell (lost): its row X, a tick late. */
	e = rec(790, 790, true, 30, 10, "lostfork");
	tick_begin(5);
	exits_feed(x, &e, 1);
	tick_end();
	CHECK(model_task_find(&m, 790) == NULL);
	tick_begin(6);
	tick_end();
	t = model_task_find(&m, 790);
	CHECK(t && t->state == 'X');
out:
	forks_next = false;
	teardown();
}

/* Reaped at the next tick: its row X keeps the record's numbers, final (microseconds). */
static void test_traced_zombie_reaped(void)
{
	struct taskparse_exit e = rec(770, 770, true, 100, 100, "zombie");
	struct task *t;

	setup();
	e.etime_us = 5 * 1000000;
	tick_begin(1);
	reading(770, start_of(&e), 'R', 5, 50);
	tick_end();
	tick_begin(2);
	reading(770, start_of(&e), 'Z', 10, 100);
	sample_add_exit(&s, 770);
	exits_feed(x, &e, 1);
	tick_end();
	tick_begin(3);
	tick_end();
	t = model_task_find(&m, 770);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK(t->final);
	CHECK_NEAR(col(t, COL_TIME), 0.1, 1e-9);
	CHECK_NEAR(col(t, COL_MINFLT), 0, 0);
out:
	teardown();
}

/*
 * Not traced: a zombie /proc read at 120 ms (the kernel's final figure, in
 * clock ticks), its record of 80 ms (before its exit freed its memory) read
 * once it is reaped: its row X keeps the 120 ms its rows Z said.
 */
static void test_zombie_record_short(void)
{
	struct taskparse_exit e = rec(780, 780, true, 80, 100, "zombie");
	struct task *t;

	setup();
	e.etime_us = 5 * 1000000;
	tick_begin(1);
	reading(780, start_of(&e), 'R', 5, 50);
	tick_end();
	tick_begin(2);
	reading(780, start_of(&e), 'Z', 12, 100);
	tick_end();
	tick_begin(3);
	exits_feed(x, &e, 1);
	tick_end();
	t = model_task_find(&m, 780);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_NEAR(col(t, COL_TIME), 0.12, 1e-9);
out:
	teardown();
}

/* A record whose row stays alive (the pid lived on: an exec from a thread) is dropped. */
static void test_record_waits_bounded(void)
{
	struct taskparse_exit e = rec(750, 750, true, 100, 100, "lives");
	struct exits_stats st;
	int i;

	setup();
	e.etime_us = 5 * 1000000;
	tick_begin(1);
	reading(750, start_of(&e), 'R', 5, 50);
	exits_feed(x, &e, 1);
	tick_end();
	for (i = 0; i < EXITS_WAIT_TICKS + 1; i++) {
		tick_begin(2 + i);
		reading(750, start_of(&e), 'R', 5, 50);
		tick_end();
	}
	exits_get_stats(x, &st);
	CHECK_EQ_U64(st.unmatched, 1);
	/* Its death later has no record: the row just goes, as without taskstats. */
	tick_begin(10);
	tick_end();
	CHECK(!model_task_find(&m, 750));
	teardown();
}

static void test_threads_summed(void)
{
	struct taskparse_exit v[4];
	struct task *t;

	setup();
	v[0] = rec(801, 800, false, 10, 5, "pool");
	v[1] = rec(802, 800, false, 12, 6, "pool");
	v[2] = rec(800, 800, true, 20, 50, "pool");
	v[3] = rec(0, 800, false, 0, 0, "");
	v[3].group = true;	/* the group record: delay accounting only */
	v[3].run_ns = 42 * MS;
	v[3].minflt = 999;
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, v, 2);
	tick_end();
	CHECK(!model_task_find(&m, 801) && !model_task_find(&m, 800));	/* threads: no row */
	tick_begin(3);
	exits_feed(x, v + 2, 2);
	tick_end();
	t = model_task_find(&m, 800);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_NEAR(col(t, COL_TIME), 0.042, 1e-9);
	CHECK_NEAR(col(t, COL_MINFLT), 61, 0);
	CHECK_NEAR(col(t, COL_MAJFLT), 3, 0);
out:
	teardown();
}

/* Its start unknown (no leader record, no row): threads may have died unheard. */
static void test_threads_partial(void)
{
	struct taskparse_exit v[3];
	struct exits_stats st;
	struct task *t;

	setup();
	v[0] = rec(851, 850, false, 10, 5, "old");
	v[1] = rec(852, 850, true, 20, 50, "old");	/* the leader exited long ago */
	v[2] = rec(0, 850, false, 0, 0, "");
	v[2].group = true;
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, v, 3);
	tick_end();
	t = model_task_find(&m, 850);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_STR(t->comm, "old");
	CHECK_EQ_I64(col(t, COL_TIME), -1);	/* unknown, not short */
	CHECK_EQ_I64(col(t, COL_MINFLT), -1);
	exits_get_stats(x, &st);
	CHECK_EQ_U64(st.partial, 1);
out:
	teardown();
}

static void test_reused_pid_and_self(void)
{
	struct taskparse_exit v[2];
	struct task *t;

	setup();
	v[0] = rec(900, 900, true, 10, 10, "old");	/* started 20 ms ago */
	v[1] = rec(getpid(), getpid(), true, 10, 10, "ktop");
	tick_begin(1);
	reading(900, 5, 'S', 1, 1);	/* another process has the pid: started at boot */
	tick_end();
	tick_begin(2);
	reading(900, 5, 'S', 1, 1);
	exits_feed(x, v, 2);
	tick_end();
	t = model_task_find(&m, 900);
	CHECK(t && t->state == 'S' && !t->exited);
	CHECK_STR(t->comm, "reader");
	/* The record is an earlier life's, /proc never read: a row of its own. */
	t = (struct task *)model_past_find(&m, 900);
	CHECK(t && t->state == 'X' && t->seen_tick == m.tick);
	if (t)
		CHECK_STR(t->comm, "old");
	CHECK(!model_task_find(&m, getpid()));
	teardown();
}

/* Two lives of pid 900 in one interval, neither read by /proc: two rows, each its record. */
static void test_reuse_two_records(void)
{
	struct taskparse_exit v[2];
	const struct task *a, *b;

	setup();
	v[0] = rec(900, 900, true, 40, 3000, "life-a");
	v[1] = rec(900, 900, true, 90, 1000, "life-b");
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, v, 2);
	tick_end();
	a = model_past_find(&m, 900);
	b = model_task_find(&m, 900);
	if (!CHECK(a && b))
		goto out;
	CHECK_STR(a->comm, "life-a");
	CHECK_STR(b->comm, "life-b");
	CHECK(a->state == 'X' && b->state == 'X');
	CHECK_NEAR(col(a, COL_MINFLT), 3000, 0);
	CHECK_NEAR(col(b, COL_MINFLT), 1000, 0);
	CHECK_NEAR(col(a, COL_TIME), 0.040, 1e-9);
	CHECK_NEAR(col(b, COL_TIME), 0.090, 1e-9);
	CHECK_EQ_U64(m.ntasks, 2);
out:
	teardown();
}

/*
 * Life A read by /proc, then in one interval dead and its pid another's that
 * /proc reads (another start): A's row X is its record less its reading.
 */
static void test_reuse_listed(void)
{
	struct taskparse_exit e = rec(900, 900, true, 40, 3000, "life-a");
	uint64_t start = start_of(&e);
	const struct task *a, *b;

	setup();
	tick_begin(1);
	reading(900, start, 'R', 1, 1000);
	tick_end();
	tick_begin(2);
	reading(900, start + 20, 'S', 0, 50);
	exits_feed(x, &e, 1);
	tick_end();
	a = model_past_find(&m, 900);
	b = model_task_find(&m, 900);
	if (!CHECK(a && b))
		goto out;
	CHECK(a->state == 'X' && a->starttime == start);
	CHECK_NEAR(col(a, COL_MINFLT), 2000, 0);
	CHECK_NEAR(col(a, COL_TIME), 0.040, 1e-9);
	CHECK(b->state == 'S' && b->starttime == start + 20);
	CHECK_NEAR(col(b, COL_MINFLT), -1, 0);	/* its first reading: no count yet */
	CHECK_NEAR(col(b, COL_TIME), 0, 1e-9);
	/* Its row was its last. */
	tick_begin(3);
	reading(900, start + 20, 'S', 0, 60);
	tick_end();
	CHECK(!model_past_find(&m, 900));
	CHECK_EQ_U64(m.ntasks, 1);
out:
	teardown();
}

/* A second life a tick after the first one's row X: its record's counts are its own. */
static void test_reuse_next_tick(void)
{
	struct taskparse_exit a = rec(900, 900, true, 40, 3000, "life-a");
	struct taskparse_exit b = rec(900, 900, true, 90, 1000, "life-b");
	const struct task *t;

	setup();
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, &a, 1);
	tick_end();
	tick_begin(3);
	exits_feed(x, &b, 1);
	tick_end();
	t = model_task_find(&m, 900);
	if (!CHECK(t))
		goto out;
	CHECK(t->state == 'X' && t->seen_tick == m.tick);
	CHECK_STR(t->comm, "life-b");
	CHECK_NEAR(col(t, COL_MINFLT), 1000, 0);
	CHECK_NEAR(col(t, COL_TIME), 0.090, 1e-9);
out:
	teardown();
}

static void test_threads_mode(void)
{
	struct taskparse_exit v[3];
	struct task *t;

	setup();
	m.threads = true;
	v[0] = rec(951, 950, false, 10, 5, "w1");
	v[1] = rec(950, 950, true, 20, 50, "main");
	v[2] = rec(0, 950, false, 0, 0, "");
	v[2].group = true;
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, v, 3);
	tick_end();
	t = model_task_find(&m, 951);
	CHECK(t && t->state == 'X' && t->tgid == 950);
	CHECK_NEAR(col(t, COL_TIME), 0.010, 1e-9);
	t = model_task_find(&m, 950);
	CHECK(t && t->state == 'X');
	CHECK_NEAR(col(t, COL_MINFLT), 50, 0);
	teardown();
}

static void test_focus(void)
{
	struct taskparse_exit v[2];
	pid_t pid = 1000;

	setup();
	model_set_focus(&m, &pid, 1);
	v[0] = rec(1000, 1000, true, 10, 10, "mine");
	v[1] = rec(1001, 1001, true, 10, 10, "other");
	tick_begin(1);
	tick_end();
	tick_begin(2);
	exits_feed(x, v, 2);
	tick_end();
	CHECK(model_task_find(&m, 1000) != NULL);
	CHECK(!model_task_find(&m, 1001));
	CHECK_EQ_U64(m.ntasks, 1);
	teardown();
}

/*
 * An exit event showed its last row; neither a record nor events that come a
 * tick later show it again (it would be a second row X, of 0 calls).
 */
static void test_shown_once(void)
{
	struct taskparse_exit e = rec(1100, 1100, true, 10, 10, "late");
	struct row_events *r;
	struct task *t;

	setup();
	tick_begin(1);
	tick_end();
	tick_begin(2);
	fx_row(&s, 1100, "late", true);
	tick_end();
	t = model_task_find(&m, 1100);
	CHECK(t && t->state == 'X');
	tick_begin(3);
	exits_feed(x, &e, 1);
	/* Its final context switch, after its exit event, read a tick later. */
	r = fx_row(&s, 1100, "", true);
	r->n[CNT_VCSW] = 1;
	tick_end();
	t = model_task_find(&m, 1100);
	CHECK(!t || t->seen_tick != m.tick);
	tick_begin(4);
	tick_end();
	CHECK(!model_task_find(&m, 1100));
	teardown();
}

/*
 * Calls read a tick after the exit event (their CPU read before they were
 * written, the exit's after) are the process's: its row again, with them.
 */
static void test_late_calls(void)
{
	struct row_events *r;
	struct task *t;
	uint64_t d;

	setup();
	m.event_counters = (1u << CNT_SYSCALLS) | (1u << CNT_VCSW);
	tick_begin(1);
	tick_end();
	tick_begin(2);
	r = fx_row(&s, 1200, "", true);
	r->n[CNT_SYSCALLS] = 5;
	tick_end();
	tick_begin(3);
	r = fx_row(&s, 1200, "", false);
	r->n[CNT_SYSCALLS] = 2;
	r->n[CNT_VCSW] = 1;
	tick_end();
	t = model_task_find(&m, 1200);
	if (!CHECK(t))
		goto out;
	CHECK(t->seen_tick == m.tick && t->state == 'X');
	CHECK(task_delta(t, CNT_SYSCALLS, &d) && d == 2);
out:
	teardown();
}

/* A row of @id's events this tick: @oncpu_ms on a CPU, @exit_ms of it after its exit event. */
static void events(pid_t id, double oncpu_ms, double exit_ms, bool exited)
{
	struct row_events *r = sample_add_row(&s);

	r->id = r->tgid = id;
	r->n[CNT_ONCPU] = (uint64_t)(oncpu_ms * (double)MS);
	r->n[CNT_EXITCPU] = (uint64_t)(exit_ms * (double)MS);
	r->have_state = true;
	r->exited = exited;
	snprintf(r->comm, sizeof(r->comm), "child");
}

/*
 * Born and dead within the interval, as its events saw it: 2.4 ms on a CPU,
 * 1.9 of them after its exit event; its record's runtime @record_ms; @lost:
 * events were lost in the interval. Its row, or NULL.
 */
static struct task *born_dead(pid_t pid, uint64_t record_ms, bool lost)
{
	struct taskparse_exit e = rec(pid, pid, true, record_ms, 10, "child");

	m.event_counters = (1u << CNT_ONCPU) | (1u << CNT_EXITCPU);
	tick_begin(1);
	tick_end();
	tick_begin(2);
	events(pid, 2.4, 1.9, true);
	s.have_totals = lost;
	s.lost = lost ? 5 : 0;
	exits_feed(x, &e, 1);
	tick_end();
	return model_task_find(&m, pid);
}

/*
 * Its one run met no clock tick: the record's runtime is 0 (the kernel
 * brought it up to date at no tick, no switch); the events saw its whole life.
 */
static void test_events_whole_life(void)
{
	struct task *t;

	setup();
	t = born_dead(1300, 0, false);
	if (CHECK(t)) {
		CHECK_EQ_I64(t->state, 'X');
		CHECK_NEAR(col(t, COL_TIME), 0.0024, 1e-9);
		CHECK_NEAR(col(t, COL_CPU), 0.24, 1e-9);	/* 2.4 ms of 1 s */
	}
	teardown();
}

/*
 * Older than tracing (its events saw 75 ms of its life): its record's 600 ms
 * and the 40 ms on a CPU after its exit event (freeing its memory).
 */
static void test_events_after_exit(void)
{
	struct taskparse_exit e = rec(1310, 1310, true, 600, 100, "old");
	struct task *t;

	setup();
	m.event_counters = (1u << CNT_ONCPU) | (1u << CNT_EXITCPU);
	e.etime_us = 5 * 1000000;
	tick_begin(1);
	reading(1310, start_of(&e), 'R', 50, 90);
	tick_end();
	tick_begin(2);
	reading(1310, start_of(&e), 'R', 55, 95);
	events(1310, 30, 0, false);
	tick_end();
	tick_begin(3);
	events(1310, 45, 40, true);
	exits_feed(x, &e, 1);
	tick_end();
	t = model_task_find(&m, 1310);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_I64(t->state, 'X');
	CHECK_NEAR(col(t, COL_TIME), 0.640, 1e-9);
	CHECK_NEAR(col(t, COL_CPU), 9.0, 1e-9);	/* 640 - 550 ms of 1 s */
out:
	teardown();
}

/* Events lost while it lived: a lost switch makes time off a CPU look on it; the record alone. */
static void test_events_lost(void)
{
	struct task *t;

	setup();
	t = born_dead(1320, 1, true);
	if (CHECK(t))
		CHECK_NEAR(col(t, COL_TIME), 0.001, 1e-9);
	teardown();
}

/* A pid again, another process's: none of the life of the one before, gone without a record. */
static void test_events_pid_again(void)
{
	struct taskparse_exit e = rec(1330, 1330, true, 0, 10, "child");
	struct task *t;

	setup();
	m.event_counters = (1u << CNT_ONCPU) | (1u << CNT_EXITCPU);
	tick_begin(1);
	tick_end();
	tick_begin(2);
	reading(1330, 100, 'R', 50, 90);
	events(1330, 500, 0, false);
	tick_end();
	tick_begin(3);		/* gone, its record dropped */
	tick_end();
	tick_begin(4);
	tick_end();
	tick_begin(5);
	events(1330, 1, 0.5, true);
	exits_feed(x, &e, 1);
	tick_end();
	t = model_task_find(&m, 1330);
	if (CHECK(t))
		CHECK_NEAR(col(t, COL_TIME), 0.001, 1e-9);
	teardown();
}

static const struct test tests[] = {
	{ "exits: traced, its exit and its zombie in one tick: Z, not X, until reaped",
	  test_traced_zombie },
	{ "exits: traced zombie reaped at the next tick: its row X with the record's numbers",
	  test_traced_zombie_reaped },
	{ "exits: traced, forked after the cut and dead before the records: its zombie Z, not X",
	  test_traced_unborn_zombie },
	{ "born and dead within the interval: a row X, exact", test_born_and_dead },
	{ "started before the previous tick, never read: totals only", test_never_read },
	{ "read by /proc, then dead: the record less the reading", test_alive_then_dead },
	{ "a record before its row is dead waits (zombie)", test_early_record },
	{ "a zombie's record below what /proc read of it: its row X keeps /proc's",
	  test_zombie_record_short },
	{ "a record whose row lives on is dropped after a few ticks", test_record_waits_bounded },
	{ "a process of threads: the sum of its thread records", test_threads_summed },
	{ "threads unheard: counters unknown, not short", test_threads_partial },
	{ "a reused pid and ktop's own records", test_reused_pid_and_self },
	{ "a pid reused in one interval, untraced: a row per record", test_reuse_two_records },
	{ "a pid reused, /proc read the old life: its row X, its record less its reading",
	  test_reuse_listed },
	{ "a pid reused a tick later, untraced: the new life's counts are its own",
	  test_reuse_next_tick },
	{ "threads mode: a row per thread", test_threads_mode },
	{ "focus: only the focused processes", test_focus },
	{ "a dead row is shown once", test_shown_once },
	{ "calls read a tick late: the dead row again, with them", test_late_calls },
	{ "its record's runtime 0: the events saw its whole life, the exit's work too",
	  test_events_whole_life },
	{ "older than tracing: its record and its time on a CPU after its exit event",
	  test_events_after_exit },
	{ "events lost while it lived: its record alone", test_events_lost },
	{ "its pid again: nothing of the process before", test_events_pid_again },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
