// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/evsums: the state split's records applied at the drains
 * (evsums_state_drained), before the tick, once every CPU was read past them:
 * the same sums as applying them all at the tick, few records kept between.
 */
#include "test.h"

#include "../../collectors/trace/evsums.h"
#include "../../lib/util.h"

#define T1 700
#define T2 701
#define T3 702

#define R_PREEMPT 0x100
#define R_RUNNING 0
#define S_SLEEP 0x1

static uint64_t ns(struct evsums *a, pid_t tid, enum counter c)
{
	return evsums_thread(a, tid)->n[c];
}

static void start(struct evsums *a, int ncpus)
{
	evsums_init(a);
	a->states = true;
	if (ncpus)
		evsums_state_cpus(a, ncpus);
}

/*
 * A ping-pong over a pipe: T1 on CPU 0 and T2 on CPU 1 wake each other, T1
 * at 100, 300, ..., T2 at 0, 200, ...: each runs 50 ns, wakes the other at
 * 40 and sleeps. A drain reads a CPU's @from to @to.
 */
static void pingpong(struct evsums *a, uint64_t from, uint64_t to, int cpu)
{
	uint64_t t;

	evsums_set_cpu(a, cpu);
	for (t = from; t < to; t += 100) {
		if ((t / 100) % 2 != (cpu ? 0u : 1u))
			continue;
		evsums_state_switch(a, 0, R_RUNNING, cpu ? T2 : T1, t);
		evsums_state_wakeup(a, cpu ? T1 : T2, false, cpu ? T2 : T1, t + 40);
		evsums_state_switch(a, cpu ? T2 : T1, S_SLEEP, 0, t + 50);
	}
}

/* The drains apply what both CPUs were read past, and the tick the rest: the tick's sums. */
static void test_drains_as_tick(void)
{
	struct evsums a, b;
	uint64_t t;
	size_t most = 0;
	int i;

	start(&a, 2);
	start(&b, 0);
	for (t = 0; t < 10000; t += 1000) {
		pingpong(&a, t, t + 1000, 0);
		evsums_state_drained(&a, 0);
		if (a.nsv > most)
			most = a.nsv;
		pingpong(&a, t, t + 1000, 1);
		evsums_state_drained(&a, 0);
		if (a.nsv > most)
			most = a.nsv;
		pingpong(&b, t, t + 1000, 0);
		pingpong(&b, t, t + 1000, 1);
	}
	/* A drain's records (15) and the few past the other CPU's read wait: not the interval's 300. */
	/*
	 * A drain's records (15) and those past the other CPU's read wait, and
	 * are walked again once half as many again came: two drains' worth and
	 * a few at most, not the interval's 300.
	 */
	CHECK(most <= 40);
	CHECK(a.st_early >= 250);
	CHECK_EQ_U64(b.nsv, 300);
	evsums_state_end(&a, 9999);
	evsums_state_end(&b, 9999);
	for (i = 0; i < CNT_NR; i++) {
		CHECK_EQ_U64(ns(&a, T1, (enum counter)i), ns(&b, T1, (enum counter)i));
		CHECK_EQ_U64(ns(&a, T2, (enum counter)i), ns(&b, T2, (enum counter)i));
	}
	/* T1: from its first wakeup (40), 50 times 60 waiting and 50 running. */
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 50 * 50);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 50 * 60);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 49 * 90 + 49);
	CHECK(evsums_thread(&a, T1)->st_moved && evsums_thread(&a, T2)->st_moved);
	evsums_free(&a);
	evsums_free(&b);
}

/*
 * A CPU that wrote nothing since the cut may still hold older records (its
 * partial page is not read at a drain): nothing is applied before the tick.
 */
static void test_quiet_cpu_holds_back(void)
{
	struct evsums a;

	start(&a, 3);
	pingpong(&a, 0, 1000, 0);
	evsums_state_drained(&a, 0);
	pingpong(&a, 0, 1000, 1);
	evsums_state_drained(&a, 0);
	CHECK_EQ_U64(a.st_early, 0);
	CHECK_EQ_U64(a.nsv, 30);
	/* CPU 2 had T3 on it from 10 to 990: read at the tick, in order with the rest. */
	evsums_set_cpu(&a, 2);
	evsums_state_switch(&a, 0, R_RUNNING, T3, 10);
	evsums_state_switch(&a, T3, R_PREEMPT, 0, 990);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 980);
	CHECK_EQ_U64(ns(&a, T3, CNT_RUNQ), 10);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 5 * 50);
	evsums_free(&a);
}

/* A CPU without a buffer (offline when tracing began) is never read: it holds nothing back. */
static void test_cpu_without_buffer(void)
{
	struct evsums a;

	start(&a, 3);
	evsums_state_no_cpu(&a, 2);
	pingpong(&a, 0, 1000, 0);
	evsums_state_drained(&a, 0);
	pingpong(&a, 0, 1000, 1);
	evsums_state_drained(&a, 0);
	/* Both read up to 950 and 850: all but T1's last run (900, 940, 950) and T2's 850. */
	CHECK_EQ_U64(a.st_early, 30 - 4);
	CHECK_EQ_U64(a.nsv, 4);
	evsums_free(&a);
}

/* A slack (a mapped clock's error) keeps what was read last from being applied. */
static void test_slack(void)
{
	struct evsums a;

	start(&a, 2);
	pingpong(&a, 0, 1000, 0);
	evsums_state_drained(&a, 100);
	pingpong(&a, 0, 1000, 1);
	evsums_state_drained(&a, 100);
	/* Read up to 950 and 850, less 100: the 23 records before 750 applied. */
	CHECK_EQ_U64(a.st_early, 23);
	CHECK_EQ_U64(a.nsv, 7);
	evsums_free(&a);
}

/*
 * A CPU that wrote one record early and none since holds the others back:
 * they are walked again only once half as many again came, not at every drain.
 */
static void test_lagging_cpu(void)
{
	struct evsums a, b;
	uint64_t t;
	int i;

	start(&a, 3);
	start(&b, 0);
	evsums_set_cpu(&a, 2);
	evsums_set_cpu(&b, 2);
	evsums_state_switch(&a, 0, R_RUNNING, T3, 5);
	evsums_state_switch(&b, 0, R_RUNNING, T3, 5);
	for (t = 0; t < 100000; t += 1000) {
		pingpong(&a, t, t + 1000, 0);
		evsums_state_drained(&a, 0);
		pingpong(&a, t, t + 1000, 1);
		evsums_state_drained(&a, 0);
		pingpong(&b, t, t + 1000, 0);
		pingpong(&b, t, t + 1000, 1);
	}
	/* 200 drains, 3,001 records: walks at 0, 16, 31, 46, 76, ... records (1.5 times as many). */
	CHECK(a.st_walks <= 12);
	CHECK_EQ_U64(a.st_early, 1);	/* T2's first switch-in, at 0 */
	evsums_state_end(&a, 100000);
	evsums_state_end(&b, 100000);
	for (i = 0; i < CNT_NR; i++) {
		CHECK_EQ_U64(ns(&a, T1, (enum counter)i), ns(&b, T1, (enum counter)i));
		CHECK_EQ_U64(ns(&a, T2, (enum counter)i), ns(&b, T2, (enum counter)i));
		CHECK_EQ_U64(ns(&a, T3, (enum counter)i), ns(&b, T3, (enum counter)i));
	}
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 100000 - 5);
	evsums_free(&a);
	evsums_free(&b);
}

/*
 * Records at the time a CPU was read up to wait: that CPU may hold more of
 * that time, which go first (a switch-out before a wakeup before a switch-in).
 */
static void test_equal_time_waits(void)
{
	struct evsums a;

	start(&a, 2);
	evsums_set_cpu(&a, 1);
	evsums_state_wakeup(&a, T2, false, 0, 300);
	evsums_state_drained(&a, 0);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 50);
	evsums_state_wakeup(&a, T3, false, T2, 300);
	evsums_state_drained(&a, 0);
	/* Both CPUs read up to 300: only what is before it is applied. */
	CHECK_EQ_U64(a.st_early, 1);
	CHECK_EQ_U64(a.nsv, 2);
	/* CPU 0's next drain: T2 slept at 300, then the wakeup (on CPU 1) came. */
	evsums_state_switch(&a, T2, S_SLEEP, 0, 300);
	evsums_state_end(&a, 400);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 250);
	CHECK_EQ_U64(ns(&a, T2, CNT_SLEEP), 0);
	CHECK_EQ_U64(ns(&a, T2, CNT_RUNQ), 100);
	evsums_free(&a);
}

/* A thread all of whose records were applied at the drains moved this interval (state_ghost). */
static void test_moved_at_drain(void)
{
	struct evsums a;

	start(&a, 1);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 200);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 300);
	evsums_state_drained(&a, 0);
	CHECK_EQ_U64(a.st_early, 2);
	evsums_state_end(&a, 1000);
	CHECK(evsums_thread(&a, T1)->st_moved);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 800);
	evsums_end_interval(&a);
	CHECK(!evsums_thread(&a, T1)->st_moved);
	evsums_state_end(&a, 2000);
	CHECK(!evsums_thread(&a, T1)->st_moved);
	evsums_free(&a);
}

static const struct test tests[] = {
	{ "states early: drains of two CPUs apply what both were read past; the tick's sums",
	  test_drains_as_tick },
	{ "states early: a CPU quiet since the cut holds every record back", test_quiet_cpu_holds_back },
	{ "states early: a CPU without a buffer holds nothing back", test_cpu_without_buffer },
	{ "states early: a slack holds back what was read last", test_slack },
	{ "states early: a lagging CPU: the records walked again only once half as many again came",
	  test_lagging_cpu },
	{ "states early: a record at a CPU's read time waits for that CPU", test_equal_time_waits },
	{ "states early: a thread applied at a drain only is moved this interval", test_moved_at_drain },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
