// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/evsums: the state split. A thread's scheduler events are written
 * on several CPUs and each CPU's buffer is decoded in turn: acct_state_end
 * applies them in time order, up to the cut, and closes each open state at
 * the cut, so that a thread's states add up to the interval.
 */
#include "test.h"

#include "../../collectors/evsums.h"
#include "../../lib/util.h"

#define T1 700
#define T2 701

/* sched_switch's prev_state values (TASK_REPORT bits; 0x100 = preempted). */
#define R_PREEMPT 0x100
#define R_RUNNING 0
#define S_SLEEP 0x1
#define S_DISK 0x2
#define S_STOP 0x4
#define S_DEAD 0x10

static uint64_t ns(struct acct *a, pid_t tid, enum acct_cnt c)
{
	return acct_thread(a, tid)->n[c];
}

static uint64_t sum(struct acct *a, pid_t tid)
{
	return ns(a, tid, AC_ONCPU_NS) + ns(a, tid, AC_RUNQ_NS) + ns(a, tid, AC_SLEEP_NS) +
	       ns(a, tid, AC_BLOCKED_NS) + ns(a, tid, AC_STOPPED_NS);
}

static void start(struct acct *a)
{
	acct_init(a);
	a->states = true;
}

static void test_state_of(void)
{
	CHECK_EQ_I64(acct_state_of(R_PREEMPT), ACCT_ST_RUNQ);
	/* Preempted on its way to sleep: still runnable. */
	CHECK_EQ_I64(acct_state_of(R_PREEMPT | S_SLEEP), ACCT_ST_RUNQ);
	CHECK_EQ_I64(acct_state_of(R_RUNNING), ACCT_ST_RUNQ);
	CHECK_EQ_I64(acct_state_of(S_SLEEP), ACCT_ST_SLEEP);
	CHECK_EQ_I64(acct_state_of(S_DISK), ACCT_ST_BLOCKED);
	CHECK_EQ_I64(acct_state_of(S_STOP), ACCT_ST_STOPPED);
	CHECK_EQ_I64(acct_state_of(0x8), ACCT_ST_STOPPED);
	CHECK_EQ_I64(acct_state_of(S_DEAD), ACCT_ST_DEAD);
	CHECK_EQ_I64(acct_state_of(0x20), ACCT_ST_DEAD);
	CHECK_EQ_I64(acct_state_of(0x80), ACCT_ST_SLEEP);	/* I: idle kernel thread */
}

/*
 * The same life as test_across_cpus, cut into five runs decoded out of time
 * order (drains of both CPUs): three merge passes, an odd run left over in
 * the first two.
 */
static void test_five_runs(void)
{
	struct acct a;

	start(&a);
	acct_state_switch(&a, 0, R_RUNNING, T1, 900);		/* CPU 0, drain 2 */
	acct_state_switch(&a, T1, R_PREEMPT, T2, 700);		/* CPU 1, drain 2 */
	acct_state_wakeup(&a, T1, false, 500);			/* CPU 1, drain 1 */
	acct_state_switch(&a, 0, R_RUNNING, T1, 600);
	acct_state_switch(&a, T1, S_SLEEP, 0, 200);		/* CPU 0, drain 1 */
	acct_state_switch(&a, 0, R_RUNNING, T1, 100);		/* CPU 0, drain 0 */
	acct_state_switch(&a, T1, S_DISK, 0, 1000);
	CHECK_EQ_U64(a.sv_runs.n, 4);
	acct_state_end(&a, 2000);
	CHECK_EQ_U64(ns(&a, T1, AC_ONCPU_NS), 100 + 100 + 100);
	CHECK_EQ_U64(ns(&a, T1, AC_SLEEP_NS), 300);
	CHECK_EQ_U64(ns(&a, T1, AC_RUNQ_NS), 100 + 200);
	CHECK_EQ_U64(ns(&a, T1, AC_BLOCKED_NS), 1000);
	CHECK_EQ_U64(sum(&a, T1), 2000 - 100);
	CHECK_EQ_U64(a.nsv, 0);
	CHECK_EQ_U64(a.sv_runs.n, 0);
	acct_free(&a);
}

/*
 * A context-switch flood's worth of records (29 MiB kept, past the 2 MiB
 * where the array grows in huge-page blocks), from two CPUs in turn: every
 * record kept across the growths, in order. T1 sleeps on CPU 0 and is woken
 * on CPU 1, 600,000 times: 600,000 x (4 on CPU + 3 asleep + 3 waiting).
 */
static void test_many_records(void)
{
	enum { N = 600000 };
	struct acct a;
	uint64_t i;

	start(&a);
	for (i = 0; i < N; i++) {
		uint64_t t = 100 + i * 10;

		acct_set_cpu(&a, 0);
		acct_state_switch(&a, 0, R_RUNNING, T1, t);
		acct_state_switch(&a, T1, S_SLEEP, 0, t + 4);
		acct_set_cpu(&a, 1);
		acct_state_wakeup(&a, T1, false, t + 7);
	}
	CHECK_EQ_U64(a.nsv, 3 * (uint64_t)N);
	acct_state_end(&a, 100 + N * 10);
	CHECK_EQ_U64(ns(&a, T1, AC_ONCPU_NS), 4 * (uint64_t)N);
	CHECK_EQ_U64(ns(&a, T1, AC_SLEEP_NS), 3 * (uint64_t)N);
	CHECK_EQ_U64(ns(&a, T1, AC_RUNQ_NS), 3 * (uint64_t)N);
	CHECK_EQ_U64(a.nsv, 0);
	acct_free(&a);
}

/*
 * T1 runs on CPU 0 from 100, sleeps at 200, is woken (on CPU 1) at 500,
 * runs on CPU 1 at 600, is preempted at 700 by T2, waits until 900, blocks
 * at 1000. CPU 1's buffer is decoded before CPU 0's.
 */
static void test_across_cpus(void)
{
	struct acct a;

	start(&a);
	/* CPU 1 */
	acct_state_wakeup(&a, T1, false, 500);
	acct_state_switch(&a, 0, R_RUNNING, T1, 600);
	acct_state_switch(&a, T1, R_PREEMPT, T2, 700);
	/* CPU 0 */
	acct_state_switch(&a, 0, R_RUNNING, T1, 100);
	acct_state_switch(&a, T1, S_SLEEP, 0, 200);
	acct_state_switch(&a, 0, R_RUNNING, T1, 900);
	acct_state_switch(&a, T1, S_DISK, 0, 1000);
	acct_state_end(&a, 2000);
	/* Its time before its first event (100) is not known: none. */
	CHECK_EQ_U64(ns(&a, T1, AC_ONCPU_NS), 100 + 100 + 100);
	CHECK_EQ_U64(ns(&a, T1, AC_SLEEP_NS), 300);
	CHECK_EQ_U64(ns(&a, T1, AC_RUNQ_NS), 100 + 200);
	CHECK_EQ_U64(ns(&a, T1, AC_BLOCKED_NS), 1000);
	CHECK_EQ_U64(sum(&a, T1), 2000 - 100);
	/* T2 first seen at its switch-in (700): on a CPU since, to the cut. */
	CHECK_EQ_U64(ns(&a, T2, AC_ONCPU_NS), 1300);
	CHECK_EQ_U64(sum(&a, T2), 1300);
	CHECK(acct_thread(&a, T1)->active && acct_thread(&a, T2)->active);
	acct_end_interval(&a);

	/* Nothing happens to them next interval: each a whole interval in its state. */
	acct_state_end(&a, 3000);
	CHECK_EQ_U64(ns(&a, T1, AC_BLOCKED_NS), 1000);
	CHECK_EQ_U64(sum(&a, T1), 1000);
	CHECK_EQ_U64(ns(&a, T2, AC_ONCPU_NS), 1000);
	CHECK(acct_thread(&a, T1)->active);
	acct_free(&a);
}

/* A wakeup of a thread still on its CPU (it was about to sleep) changes nothing. */
static void test_wakeup_while_running(void)
{
	struct acct a;

	start(&a);
	acct_state_switch(&a, 0, R_RUNNING, T1, 100);
	acct_state_wakeup(&a, T1, false, 150);
	acct_state_switch(&a, T1, R_RUNNING, 0, 200);	/* it yielded, runnable */
	acct_state_wakeup(&a, T1, false, 250);		/* runnable already */
	acct_state_switch(&a, 0, R_RUNNING, T1, 300);
	acct_state_end(&a, 400);
	CHECK_EQ_U64(ns(&a, T1, AC_ONCPU_NS), 100 + 100);
	CHECK_EQ_U64(ns(&a, T1, AC_RUNQ_NS), 100);
	CHECK_EQ_U64(ns(&a, T1, AC_SLEEP_NS), 0);
	acct_free(&a);
}

/*
 * The events after the cut (read because a CPU was read after it) are the
 * next interval's, but for a thread that exited: up to its last switch.
 */
static void test_cut(void)
{
	struct acct a;

	start(&a);
	acct_state_switch(&a, 0, R_RUNNING, T1, 100);
	acct_state_switch(&a, T1, S_SLEEP, 0, 1500);	/* after the cut at 1000 */
	acct_state_switch(&a, 0, R_RUNNING, T2, 200);
	acct_exit(&a, T2, true, 1090);
	acct_state_switch(&a, T2, S_DEAD, 0, 1100);
	acct_order_life(&a);
	acct_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T1, AC_ONCPU_NS), 900);
	CHECK_EQ_U64(ns(&a, T1, AC_SLEEP_NS), 0);
	CHECK_EQ_U64(ns(&a, T2, AC_ONCPU_NS), 900);
	CHECK_EQ_I64(acct_thread(&a, T2)->st, ACCT_ST_DEAD);
	acct_end_interval(&a);

	acct_state_end(&a, 2000);
	CHECK_EQ_U64(ns(&a, T1, AC_ONCPU_NS), 500);
	CHECK_EQ_U64(ns(&a, T1, AC_SLEEP_NS), 500);
	CHECK_EQ_U64(sum(&a, T1), 1000);
	/* Dead: no time, no row for it. */
	CHECK_EQ_U64(sum(&a, T2), 0);
	CHECK(!acct_thread(&a, T2)->active);
	acct_free(&a);
}

/* A process that sleeps, is woken, and exits within the interval. */
static void test_sleep_then_exit(void)
{
	struct acct a;

	start(&a);
	acct_state_wakeup(&a, T1, true, 10);		/* wakeup_new */
	acct_state_switch(&a, 0, R_RUNNING, T1, 30);
	acct_state_switch(&a, T1, S_SLEEP, 0, 40);
	acct_state_wakeup(&a, T1, false, 540);
	acct_state_switch(&a, 0, R_RUNNING, T1, 545);
	acct_state_switch(&a, T1, S_DEAD, 0, 560);
	acct_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T1, AC_RUNQ_NS), 20 + 5);
	CHECK_EQ_U64(ns(&a, T1, AC_ONCPU_NS), 10 + 15);
	CHECK_EQ_U64(ns(&a, T1, AC_SLEEP_NS), 500);
	CHECK_EQ_U64(sum(&a, T1), 560 - 10);
	acct_free(&a);
}

/* The same time stamp on two CPUs: out, then the wakeup, then in. */
static void test_equal_times(void)
{
	struct acct a;

	start(&a);
	acct_state_switch(&a, 0, R_RUNNING, T1, 100);
	/* CPU 1: woken and switched in at 300 */
	acct_state_wakeup(&a, T1, false, 300);
	acct_state_switch(&a, 0, R_RUNNING, T1, 300);
	/* CPU 0: it slept at 200, at 300 another task's */
	acct_state_switch(&a, T1, S_STOP, 0, 200);
	acct_state_end(&a, 400);
	CHECK_EQ_U64(ns(&a, T1, AC_STOPPED_NS), 100);
	CHECK_EQ_U64(ns(&a, T1, AC_ONCPU_NS), 100 + 100);
	CHECK_EQ_U64(ns(&a, T1, AC_RUNQ_NS), 0);
	CHECK_EQ_I64(acct_thread(&a, T1)->st, ACCT_ST_ONCPU);
	acct_free(&a);
}

/* Many runs (a run per CPU and drain), merged: every thread's sums exact. */
static void test_many_runs(void)
{
	struct acct a;
	int run, i;

	start(&a);
	/* 8 runs, each of its own thread at interleaved times. */
	for (run = 0; run < 8; run++)
		for (i = 0; i < 1000; i++) {
			uint64_t t = (uint64_t)i * 1000 + (uint64_t)run;

			acct_state_switch(&a, 0, R_RUNNING, 800 + run, t);
			acct_state_switch(&a, 800 + run, S_SLEEP, 0, t + 400);
			acct_state_wakeup(&a, 800 + run, false, t + 900);
		}
	acct_state_end(&a, 1000000);
	for (run = 0; run < 8; run++) {
		CHECK_EQ_U64(ns(&a, 800 + run, AC_ONCPU_NS), 1000 * 400);
		CHECK_EQ_U64(ns(&a, 800 + run, AC_SLEEP_NS), 1000 * 500);
		CHECK_EQ_U64(ns(&a, 800 + run, AC_RUNQ_NS), 999 * 100 + 100 - (uint64_t)run);
	}
	acct_free(&a);
}

/*
 * --latency: a call begun in one interval ends in the next, followed by
 * exit_group: timed in the interval it ended in (exit_group's entry, decoded
 * before the pairing, must not drop it).
 */
static void test_call_across_intervals_then_exit(void)
{
	struct acct a;
	const struct sc_stat *s;

	acct_init(&a);
	a.order_times = true;
	acct_sys_enter(&a, T1, 35, 1000);	/* nanosleep */
	acct_time_calls(&a);
	acct_end_interval(&a);
	acct_sys_exit(&a, T1, 35, 0, 11000);
	acct_sys_enter(&a, T1, 231, 11500);	/* exit_group */
	acct_sys_noreturn(&a, T1, 231, 11500);
	acct_time_calls(&a);
	s = sc_table_find(&acct_thread(&a, T1)->sc, 35);
	if (CHECK(s)) {
		CHECK_EQ_U64(s->calls, 1);
		CHECK_EQ_U64(s->timed, 1);
		CHECK_EQ_U64(s->time_ns, 10000);
	}
	acct_free(&a);
}

/* Off (not asked for, or the kernel lacks an event): nothing kept. */
static void test_off(void)
{
	struct acct a;

	acct_init(&a);
	acct_state_switch(&a, 0, R_RUNNING, T1, 100);
	acct_state_end(&a, 1000);
	CHECK_EQ_U64(a.nsv, 0);
	CHECK_EQ_I64(acct_thread(&a, T1)->st, ACCT_ST_UNKNOWN);
	CHECK_EQ_U64(sum(&a, T1), 0);
	acct_free(&a);
}

static const struct test tests[] = {
	{ "states: sched_switch prev_state to a state", test_state_of },
	{ "states: events of three CPUs decoded out of order, applied in order", test_across_cpus },
	{ "states: five runs out of time order, merged in three passes", test_five_runs },
	{ "states: a flood's 1,800,000 records from two CPUs in turn: kept across the growths, applied in order", test_many_records },
	{ "states: a wakeup of a running or runnable thread changes nothing",
	  test_wakeup_while_running },
	{ "states: after the cut, the next interval's; an exited thread's up to its end", test_cut },
	{ "states: a new task sleeps 500, wakes and exits: sleep 500", test_sleep_then_exit },
	{ "states: equal times on two CPUs: out, wakeup, in", test_equal_times },
	{ "states: eight runs merged", test_many_runs },
	{ "states: off: nothing kept", test_off },
	{ "latency: a call across two intervals, then exit_group: timed where it ends",
	  test_call_across_intervals_then_exit },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
