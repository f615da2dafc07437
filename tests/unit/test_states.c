// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/evsums: the state split. A thread's scheduler events are written
 * on several CPUs and each CPU's buffer is decoded in turn: evsums_state_end
 * applies them in time order, up to the cut, and closes each open state at
 * the cut, so that a thread's states add up to the interval.
 */
#include "test.h"

#include <string.h>
#include <sys/syscall.h>

#include "../../collectors/trace/evsums.h"
#include "../../lib/util.h"

#define T1 700
#define T2 701
#define T3 702

/* sched_switch's prev_state values (TASK_REPORT bits; 0x100 = preempted). */
#define R_PREEMPT 0x100
#define R_RUNNING 0
#define S_SLEEP 0x1
#define S_DISK 0x2
#define S_STOP 0x4
#define S_DEAD 0x10

static uint64_t ns(struct evsums *a, pid_t tid, enum counter c)
{
	return evsums_thread(a, tid)->n[c];
}

static uint64_t sum(struct evsums *a, pid_t tid)
{
	return ns(a, tid, CNT_ONCPU) + ns(a, tid, CNT_RUNQ) + ns(a, tid, CNT_SLEEP) +
	       ns(a, tid, CNT_BLOCKED) + ns(a, tid, CNT_STOPPED);
}

static void start(struct evsums *a)
{
	evsums_init(a);
	a->states = true;
}

static void test_state_of(void)
{
	CHECK_EQ_I64(evsums_state_of(R_PREEMPT), ACCT_ST_RUNQ);
	/* Preempted on its way to sleep: still runnable. */
	CHECK_EQ_I64(evsums_state_of(R_PREEMPT | S_SLEEP), ACCT_ST_RUNQ);
	CHECK_EQ_I64(evsums_state_of(R_RUNNING), ACCT_ST_RUNQ);
	CHECK_EQ_I64(evsums_state_of(S_SLEEP), ACCT_ST_SLEEP);
	CHECK_EQ_I64(evsums_state_of(S_DISK), ACCT_ST_BLOCKED);
	CHECK_EQ_I64(evsums_state_of(S_STOP), ACCT_ST_STOPPED);
	CHECK_EQ_I64(evsums_state_of(0x8), ACCT_ST_STOPPED);
	CHECK_EQ_I64(evsums_state_of(S_DEAD), ACCT_ST_DEAD);
	CHECK_EQ_I64(evsums_state_of(0x20), ACCT_ST_DEAD);
	CHECK_EQ_I64(evsums_state_of(0x80), ACCT_ST_SLEEP);	/* I: idle kernel thread */
}

/*
 * The same life as test_across_cpus, cut into five runs decoded out of time
 * order (drains of both CPUs): three merge passes, an odd run left over in
 * the first two.
 */
static void test_five_runs(void)
{
	struct evsums a;

	start(&a);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 900);		/* CPU 0, drain 2 */
	evsums_state_switch(&a, T1, R_PREEMPT, T2, 700);		/* CPU 1, drain 2 */
	evsums_state_wakeup(&a, T1, false, 0, 500);			/* CPU 1, drain 1 */
	evsums_state_switch(&a, 0, R_RUNNING, T1, 600);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 200);		/* CPU 0, drain 1 */
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);		/* CPU 0, drain 0 */
	evsums_state_switch(&a, T1, S_DISK, 0, 1000);
	CHECK_EQ_U64(a.sv_runs.n, 4);
	evsums_state_end(&a, 2000);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 100 + 100 + 100);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 300);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 100 + 200);
	CHECK_EQ_U64(ns(&a, T1, CNT_BLOCKED), 1000);
	CHECK_EQ_U64(sum(&a, T1), 2000 - 100);
	CHECK_EQ_U64(a.nsv, 0);
	CHECK_EQ_U64(a.sv_runs.n, 0);
	evsums_free(&a);
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
	struct evsums a;
	uint64_t i;

	start(&a);
	for (i = 0; i < N; i++) {
		uint64_t t = 100 + i * 10;

		evsums_set_cpu(&a, 0);
		evsums_state_switch(&a, 0, R_RUNNING, T1, t);
		evsums_state_switch(&a, T1, S_SLEEP, 0, t + 4);
		evsums_set_cpu(&a, 1);
		evsums_state_wakeup(&a, T1, false, 0, t + 7);
	}
	CHECK_EQ_U64(a.nsv, 3 * (uint64_t)N);
	evsums_state_end(&a, 100 + N * 10);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 4 * (uint64_t)N);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 3 * (uint64_t)N);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 3 * (uint64_t)N);
	CHECK_EQ_U64(a.nsv, 0);
	evsums_free(&a);
}

/*
 * T1 runs on CPU 0 from 100, sleeps at 200, is woken (on CPU 1) at 500,
 * runs on CPU 1 at 600, is preempted at 700 by T2, waits until 900, blocks
 * at 1000. CPU 1's buffer is decoded before CPU 0's.
 */
static void test_across_cpus(void)
{
	struct evsums a;

	start(&a);
	evsums_set_cpu(&a, 1);
	evsums_state_wakeup(&a, T1, false, 0, 500);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 600);
	evsums_state_switch(&a, T1, R_PREEMPT, T2, 700);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 200);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 900);
	evsums_state_switch(&a, T1, S_DISK, 0, 1000);
	evsums_state_end(&a, 2000);
	/* Its time before its first event (100) is not known: none. */
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 100 + 100 + 100);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 300);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 100 + 200);
	CHECK_EQ_U64(ns(&a, T1, CNT_BLOCKED), 1000);
	CHECK_EQ_U64(sum(&a, T1), 2000 - 100);
	/* T2 first seen at its switch-in (700): on a CPU since, to the cut. */
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 1300);
	CHECK_EQ_U64(sum(&a, T2), 1300);
	CHECK(evsums_thread(&a, T1)->active && evsums_thread(&a, T2)->active);
	evsums_end_interval(&a);

	/* Nothing happens to them next interval: each a whole interval in its state. */
	evsums_state_end(&a, 3000);
	CHECK_EQ_U64(ns(&a, T1, CNT_BLOCKED), 1000);
	CHECK_EQ_U64(sum(&a, T1), 1000);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 1000);
	CHECK(evsums_thread(&a, T1)->active);
	evsums_free(&a);
}

/* A wakeup of a thread still on its CPU (it was about to sleep) changes nothing. */
static void test_wakeup_while_running(void)
{
	struct evsums a;

	start(&a);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_wakeup(&a, T1, false, T1, 150);
	evsums_state_switch(&a, T1, R_RUNNING, 0, 200);	/* it yielded, runnable */
	evsums_state_wakeup(&a, T1, false, 0, 250);		/* runnable already */
	evsums_state_switch(&a, 0, R_RUNNING, T1, 300);
	evsums_state_end(&a, 400);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 100 + 100);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 100);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 0);
	evsums_free(&a);
}

/*
 * The events after the cut (read because a CPU was read after it) are the
 * next interval's, but for a thread that exited: up to its last switch.
 */
static void test_cut(void)
{
	struct evsums a;

	start(&a);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 1500);	/* after the cut at 1000 */
	evsums_set_cpu(&a, 1);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 200);
	evsums_exit(&a, T2, true, 1090);
	evsums_state_switch(&a, T2, S_DEAD, 0, 1100);
	evsums_order_life(&a);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 900);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 0);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 900);
	CHECK_EQ_I64(evsums_thread(&a, T2)->st, ACCT_ST_DEAD);
	evsums_end_interval(&a);

	evsums_state_end(&a, 2000);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 500);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 500);
	CHECK_EQ_U64(sum(&a, T1), 1000);
	/* Dead: no time, no row for it. */
	CHECK_EQ_U64(sum(&a, T2), 0);
	CHECK(!evsums_thread(&a, T2)->active);
	evsums_free(&a);
}

/* A process that sleeps, is woken, and exits within the interval. */
static void test_sleep_then_exit(void)
{
	struct evsums a;

	start(&a);
	evsums_state_wakeup(&a, T1, true, 0, 10);		/* wakeup_new */
	evsums_state_switch(&a, 0, R_RUNNING, T1, 30);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 40);
	evsums_state_wakeup(&a, T1, false, 0, 540);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 545);
	evsums_state_switch(&a, T1, S_DEAD, 0, 560);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 20 + 5);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 10 + 15);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 500);
	CHECK_EQ_U64(sum(&a, T1), 560 - 10);
	evsums_free(&a);
}

/* The same time stamp on two CPUs: out, then the wakeup, then in. */
static void test_equal_times(void)
{
	struct evsums a;

	start(&a);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	/* CPU 1: woken and switched in at 300 */
	evsums_set_cpu(&a, 1);
	evsums_state_wakeup(&a, T1, false, 0, 300);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 300);
	/* CPU 0: it slept at 200, at 300 another task's */
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, T1, S_STOP, 0, 200);
	evsums_state_end(&a, 400);
	CHECK_EQ_U64(ns(&a, T1, CNT_STOPPED), 100);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 100 + 100);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 0);
	CHECK_EQ_I64(evsums_thread(&a, T1)->st, ACCT_ST_ONCPU);
	evsums_free(&a);
}

/* Many runs (a run per CPU and drain), merged: every thread's sums exact. */
static void test_many_runs(void)
{
	struct evsums a;
	int run, i;

	start(&a);
	/* 8 runs, each of its own thread on its own CPU at interleaved times. */
	for (run = 0; run < 8; run++) {
		evsums_set_cpu(&a, run);
		for (i = 0; i < 1000; i++) {
			uint64_t t = (uint64_t)i * 1000 + (uint64_t)run;

			evsums_state_switch(&a, 0, R_RUNNING, 800 + run, t);
			evsums_state_switch(&a, 800 + run, S_SLEEP, 0, t + 400);
			evsums_state_wakeup(&a, 800 + run, false, 0, t + 900);
		}
	}
	evsums_state_end(&a, 1000000);
	for (run = 0; run < 8; run++) {
		CHECK_EQ_U64(ns(&a, 800 + run, CNT_ONCPU), 1000 * 400);
		CHECK_EQ_U64(ns(&a, 800 + run, CNT_SLEEP), 1000 * 500);
		CHECK_EQ_U64(ns(&a, 800 + run, CNT_RUNQ), 999 * 100 + 100 - (uint64_t)run);
	}
	evsums_free(&a);
}

/*
 * --latency: a call begun in one interval ends in the next, followed by
 * exit_group: timed in the interval it ended in (exit_group's entry, decoded
 * before the pairing, must not drop it).
 */
static void test_call_across_intervals_then_exit(void)
{
	struct evsums a;
	const struct sc_stat *s;

	evsums_init(&a);
	a.order_times = true;
	evsums_sys_enter(&a, T1, 35, 1000);	/* nanosleep */
	evsums_time_calls(&a);
	evsums_end_interval(&a);
	evsums_sys_exit(&a, T1, 35, 0, 11000);
	evsums_sys_enter(&a, T1, 231, 11500);	/* exit_group */
	evsums_sys_noreturn(&a, T1, 231, 11500);
	evsums_time_calls(&a);
	s = sctable_find(&evsums_thread(&a, T1)->sc, 35);
	if (CHECK(s)) {
		CHECK_EQ_U64(s->calls, 1);
		CHECK_EQ_U64(s->timed, 1);
		CHECK_EQ_U64(s->time_ns, 10000);
	}
	evsums_free(&a);
}

/* Off (not asked for, or the kernel lacks an event): nothing kept. */
static void test_off(void)
{
	struct evsums a;

	evsums_init(&a);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(a.nsv, 0);
	CHECK_EQ_I64(evsums_thread(&a, T1)->st, ACCT_ST_UNKNOWN);
	CHECK_EQ_U64(sum(&a, T1), 0);
	evsums_free(&a);
}

/*
 * When the kernel does not write every switch. Some kernels leave out a
 * CPU's idle task's own events (this machine's CPU 1: its switch to a task
 * woken there is never written) or those of some threads (a VM agent's:
 * their switch-ins are written by the task they follow, their switch-outs
 * not at all). Each CPU's records say who runs there: a switch-out's prev
 * and the writer of every record. A record of another task than the one
 * believed running says a switch was missed; and a CPU runs one task at a
 * time: its on-CPU time is a partition of the interval, never more than
 * its wall time.
 */
static void start_cpus(struct evsums *a, int ncpus)
{
	start(a);
	evsums_state_cpus(a, ncpus);
}

/*
 * A 20/30 burn-sleep loop pinned to CPU 1, whose idle task's switches are
 * not written: it sleeps at 120, its timer wakes it at 300 (written by the
 * interrupt, in the idle task), it runs, and its next switch-out (at 320)
 * names it as prev. It ran from its wakeup, not waited 20 for a CPU.
 */
static void test_idle_exit_unwritten(void)
{
	struct evsums a;

	start_cpus(&a, 2);
	evsums_set_cpu(&a, 1);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 120);
	evsums_state_wakeup(&a, T1, false, 0, 300);
	/* no 0 -> T1 */
	evsums_state_switch(&a, T1, S_SLEEP, 0, 320);
	evsums_state_end(&a, 400);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 20 + 20);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 0);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 180 + 80);
	CHECK_EQ_U64(sum(&a, T1), 300);
	CHECK_EQ_U64(a.st_unseen, 1);
	CHECK_EQ_U64(a.st_overlaps, 0);
	evsums_free(&a);
}

/*
 * The same, its first record after the wakeup a system call's exit (its
 * nanosleep returning at 302): it ran from 300, and the cut at 310 falls
 * before its switch-out was written.
 */
static void test_idle_exit_syscall(void)
{
	struct evsums a;

	start_cpus(&a, 2);
	evsums_set_cpu(&a, 1);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 120);
	evsums_state_wakeup(&a, T1, false, 0, 300);
	evsums_sys_exit(&a, T1, SYS_clock_nanosleep, 0, 302);
	evsums_state_end(&a, 310);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 20 + 10);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 0);
	CHECK_EQ_I64(evsums_thread(&a, T1)->st, ACCT_ST_ONCPU);
	evsums_end_interval(&a);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 330);
	evsums_state_end(&a, 400);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 20);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 70);
	evsums_free(&a);
}

/*
 * Woken from CPU 0 (at 300) onto CPU 1, idle since 120 with nothing
 * written there since: it ran from its wakeup at the earliest, not from
 * the CPU's last record.
 */
static void test_remote_wakeup(void)
{
	struct evsums a;

	start_cpus(&a, 2);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 250);
	evsums_state_wakeup(&a, T1, false, T2, 300);
	evsums_state_switch(&a, T2, S_SLEEP, 0, 350);
	evsums_set_cpu(&a, 1);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 120);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 320);
	evsums_state_end(&a, 400);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 20 + 20);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 180 + 80);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 0);
	evsums_free(&a);
}

/*
 * A thread whose own events are not written (T3): its switch-in at 100 is
 * (T2's switch-out), its switch-out is not. The CPU's next switch-out names
 * T2 (at 500): T3 did not run since at least 100, T2 did. Before, T3 ran
 * to the cut and T2 waited: 2 x 900 of on-CPU time on one CPU's 1000.
 */
static void test_switch_out_of_another(void)
{
	struct evsums a;

	start_cpus(&a, 1);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 50);
	evsums_state_switch(&a, T2, R_PREEMPT, T3, 100);
	/* no T3 -> T2 */
	evsums_state_switch(&a, T2, S_SLEEP, 0, 500);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 450);
	CHECK_EQ_U64(ns(&a, T2, CNT_RUNQ), 0);
	CHECK_EQ_U64(ns(&a, T2, CNT_SLEEP), 500);
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 0);
	/* Off its CPU, its state not known: asleep, until its records say more. */
	CHECK_EQ_U64(sum(&a, T3), 900);
	CHECK(evsums_thread(&a, T3)->st_guess);
	evsums_free(&a);
}

/* The dark threads' run time since tracing began, as the collector would read it (darkrun.c). */
static uint64_t dark_since[8];
static int dark_asked;
static uint64_t dark_at;
static bool dark_first(void *arg, pid_t tid, uint64_t *run_ns, uint64_t *at_ns)
{
	(void)arg;
	*at_ns = dark_at;
	dark_asked++;
	if (tid < T1 || tid > T3 || !dark_since[tid - T1])
		return false;
	*run_ns = dark_since[tid - T1];
	return true;
}

/*
 * test_switch_out_of_another's schedule, with T3's scheduler count known:
 * it ran 300 of it (dark: its switch-out is not written). T3 ran from 100
 * to 400, T2 waited (preempted at 100) and ran from 400. Before, T3 had
 * 0 and T2 waited 0: T3's run was T2's.
 */
static void test_dark_run(void)
{
	struct evsums a;

	start_cpus(&a, 1);
	memset(dark_since, 0, sizeof(dark_since));
	dark_since[T3 - T1] = 300;
	dark_asked = 0;
	evsums_dark_reader(&a, dark_first, NULL);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 50);
	evsums_state_switch(&a, T2, R_PREEMPT, T3, 100);
	/* no T3 -> T2 */
	evsums_state_switch(&a, T2, S_SLEEP, 0, 500);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 50 + 100);
	CHECK_EQ_U64(ns(&a, T2, CNT_RUNQ), 300);
	CHECK_EQ_U64(ns(&a, T2, CNT_SLEEP), 500);
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 300);
	CHECK_EQ_U64(sum(&a, T3), 900);
	CHECK_EQ_U64(a.dark_moved_ns, 300);
	CHECK_EQ_I64(dark_asked, 1);
	CHECK(evsums_thread(&a, T3)->dark);
	/* Not dark: no reading of it is taken. */
	CHECK(!evsums_dark_run(&a, T2, 5));

	/*
	 * The next interval, read at the cut: T3 ran 250 in two runs, one
	 * before the idle task's switch-out at 1200 (a slot of 100: all of
	 * it), one before T1's switch-out at 1900 (a slot of 400: the rest,
	 * 150). T1 ran from 1200, waited from 1500 (preempted) to 1650.
	 */
	evsums_end_interval(&a);
	CHECK(evsums_dark_run(&a, T3, 250));
	evsums_state_switch(&a, 0, R_RUNNING, T3, 1100);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 1200);
	evsums_state_switch(&a, T1, R_PREEMPT, T3, 1500);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 1900);
	evsums_state_end(&a, 2000);
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 250);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 300 + 250);
	CHECK_EQ_U64(ns(&a, T1, CNT_RUNQ), 150);
	CHECK_EQ_I64(dark_asked, 1);
	CHECK_EQ_U64(a.st_overlaps, 0);

	/* A third interval with no reading: nothing given back (no guess). */
	evsums_end_interval(&a);
	evsums_state_switch(&a, T1, R_PREEMPT, T3, 2100);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 2500);
	evsums_state_end(&a, 3000);
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 0);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 400);
	evsums_free(&a);
}

/*
 * The same, T2 exiting: its exit event at 300 (written on its CPU while the
 * records said T3 ran there), its last switch at 500. T3 ran 300 from 100:
 * T2 ran from 400 only, all of it after its exit (its exit's work, 100, not
 * the 200 from its exit event on).
 */
static void test_dark_run_exited(void)
{
	struct evsums a;

	start_cpus(&a, 1);
	memset(dark_since, 0, sizeof(dark_since));
	dark_since[T3 - T1] = 300;
	evsums_dark_reader(&a, dark_first, NULL);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 50);
	evsums_state_switch(&a, T2, R_PREEMPT, T3, 100);
	evsums_exit(&a, T2, true, 300);
	evsums_state_switch(&a, T2, S_DEAD, 0, 500);
	evsums_order_life(&a);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 50 + 100);
	CHECK_EQ_U64(ns(&a, T2, CNT_RUNQ), 300);
	CHECK_EQ_U64(ns(&a, T2, CNT_EXITCPU), 100);
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 300);
	evsums_free(&a);
}

/*
 * Found dark while it runs at the cut (1000) and read later (1200): its
 * count holds 200 after the cut, not this interval's. T3 ran 100 of its
 * slot (100 to 300) and from 700 on: 400 to the cut; not 500.
 */
static void test_dark_read_late(void)
{
	struct evsums a;

	start_cpus(&a, 1);
	memset(dark_since, 0, sizeof(dark_since));
	dark_since[T3 - T1] = 600;
	dark_at = 1200;
	evsums_dark_reader(&a, dark_first, NULL);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 50);
	evsums_state_switch(&a, T2, R_PREEMPT, T3, 100);
	/* no T3 -> T2 */
	evsums_sys_exit(&a, T2, SYS_getppid, 1, 300);
	evsums_state_switch(&a, T2, R_PREEMPT, T3, 700);
	evsums_state_end(&a, 1000);
	dark_at = 0;
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 100 + 300);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 50 + 100 + 400);
	CHECK_EQ_U64(ns(&a, T2, CNT_RUNQ), 100 + 300);
	evsums_free(&a);
}

/*
 * The same thread, switched in on a CPU whose idle task's switches are
 * written: the idle task's switch-out (at 600) tells it left (at 100 at
 * the latest, the CPU's last record). Woken at 700 (written by T1 on
 * another CPU), switched in at 800 there: waited 100, ran from 800.
 */
static void test_switch_in_then_idle(void)
{
	struct evsums a;

	start_cpus(&a, 2);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, T2, R_PREEMPT, T3, 100);
	evsums_state_switch(&a, 0, R_RUNNING, T2, 600);
	evsums_set_cpu(&a, 1);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 650);
	evsums_state_wakeup(&a, T3, false, T1, 700);
	evsums_state_switch(&a, T1, R_PREEMPT, T3, 800);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T3, CNT_ONCPU), 200);
	CHECK_EQ_U64(ns(&a, T3, CNT_RUNQ), 100);
	CHECK_EQ_U64(ns(&a, T3, CNT_SLEEP), 600);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 400);
	CHECK_EQ_U64(ns(&a, T2, CNT_RUNQ), 500);
	CHECK_EQ_U64(a.st_overlaps, 0);
	evsums_free(&a);
}

/*
 * A thread moved to another CPU with its switch-out not written: T1 runs on
 * CPU 0 from 100, wakes T2 there at 200, leaves unseen; T2 runs there (its
 * switch-out at 450 tells); T1 is switched in on CPU 1 at 300. On one CPU
 * at a time, and each CPU one thread at a time: T1 on CPU 0 until its last
 * record there (200) only, T2 from then on.
 */
static void test_moved_unseen(void)
{
	struct evsums a;

	start_cpus(&a, 2);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 100);
	evsums_state_wakeup(&a, T2, false, T1, 200);
	evsums_state_switch(&a, T2, S_SLEEP, 0, 450);
	evsums_set_cpu(&a, 1);
	evsums_state_switch(&a, 0, R_RUNNING, T1, 300);
	evsums_state_switch(&a, T1, S_SLEEP, 0, 500);
	evsums_state_end(&a, 1000);
	CHECK_EQ_U64(ns(&a, T1, CNT_ONCPU), 100 + 200);
	CHECK_EQ_U64(ns(&a, T1, CNT_SLEEP), 100 + 500);
	CHECK_EQ_U64(ns(&a, T2, CNT_ONCPU), 250);
	CHECK_EQ_U64(ns(&a, T2, CNT_RUNQ), 0);
	CHECK_EQ_U64(sum(&a, T2), 800);
	CHECK_EQ_U64(a.st_overlaps, 0);
	evsums_free(&a);
}

/*
 * A pseudo-random schedule on NCPU CPUs of NTHR threads, with a fifth of
 * the switches and a third of the wakeups not written, read CPU by CPU,
 * with drains and ticks: per interval and CPU, the on-CPU time credited
 * over every thread never exceeds the interval; a thread's states never
 * add up to more than it; nothing overlaps.
 */
#define NCPU 3
#define NTHR 6
static uint32_t rnd_state = 12345;
static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 16) % n;
}

struct ev {
	uint64_t ts;
	int kind;	/* 0 switch, 1 wakeup, 2 syscall */
	pid_t a, b, by;
	long st;
};

static void test_partition(void)
{
	static struct ev evs[NCPU][4096];
	size_t nev[NCPU] = { 0 }, pos[NCPU] = { 0 };
	pid_t on[NCPU] = { 0 };
	int where[NTHR], c, i, tick;
	uint64_t t = 1000, cut, prev_cut = 0;
	struct evsums a;

	for (i = 0; i < NTHR; i++)
		where[i] = -1;
	/* The true schedule; each CPU's written events. */
	for (i = 0; i < 3000; i++) {
		c = (int)rnd(NCPU);
		t += 1 + rnd(50);
		if (rnd(4) == 0 && on[c]) {
			/* a system call of the running thread */
			evs[c][nev[c]++] = (struct ev){ t, 2, on[c], 0, on[c], 0 };
			continue;
		}
		{
			int n = (int)rnd(NTHR + 1) - 1;	/* -1: idle */
			pid_t next = n < 0 ? 0 : (pid_t)(T1 + n), prev = on[c];
			bool hide = rnd(5) == 0;

			if (next && where[n] >= 0)
				continue;	/* running elsewhere */
			if (next == prev)
				continue;
			if (next && rnd(2)) {
				/* woken first, from here or another CPU */
				int wc = (int)rnd(NCPU);

				if (rnd(3))
					evs[wc][nev[wc]++] = (struct ev){ t, 1, next, 0, on[wc], 0 };
				t += 1 + rnd(5);
			}
			if (!hide)
				evs[c][nev[c]++] = (struct ev){ t, 0, prev, next, prev,
								 rnd(2) ? S_SLEEP : R_PREEMPT };
			if (prev)
				where[prev - T1] = -1;
			if (next)
				where[n] = c;
			on[c] = next;
		}
	}
	start_cpus(&a, NCPU);
	for (tick = 1; tick <= 10; tick++) {
		uint64_t oncpu = 0;

		cut = 1000 + (t - 1000) * (uint64_t)tick / 10;
		for (c = 0; c < NCPU; c++) {
			evsums_set_cpu(&a, c);
			while (pos[c] < nev[c] && evs[c][pos[c]].ts < cut) {
				const struct ev *e = &evs[c][pos[c]++];

				if (e->kind == 0)
					evsums_state_switch(&a, e->a, e->st, e->b, e->ts);
				else if (e->kind == 1)
					evsums_state_wakeup(&a, e->a, false, e->by, e->ts);
				else
					evsums_sys_exit(&a, e->a, SYS_getpid, 1, e->ts);
			}
			evsums_state_drained(&a, 0);
		}
		evsums_state_end(&a, cut);
		for (i = 0; i < NTHR; i++) {
			struct evsums_thread *th = evsums_thread(&a, T1 + i);

			oncpu += th->n[CNT_ONCPU];
			CHECK(sum(&a, T1 + i) <= cut - prev_cut);
		}
		if (!CHECK(oncpu <= NCPU * (cut - prev_cut)))
			printf("# tick %d: on-CPU %" PRIu64 " over %d CPUs x %" PRIu64 "\n", tick,
			       oncpu, NCPU, cut - prev_cut);
		evsums_end_interval(&a);
		prev_cut = cut;
	}
	CHECK(a.st_unseen > 0);
	CHECK_EQ_U64(a.st_overlaps, 0);
	evsums_free(&a);
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
	{ "states cpus: CPU 1 leaves idle unwritten: the next switch-out names the woken task, it ran",
	  test_idle_exit_unwritten },
	{ "states cpus: the woken task's system call tells it runs, before the cut",
	  test_idle_exit_syscall },
	{ "states cpus: woken from another CPU onto a silent one: runs from its wakeup",
	  test_remote_wakeup },
	{ "states cpus: a switch-in followed by another task's switch-out: that one ran",
	  test_switch_out_of_another },
	{ "states cpus: a dark thread's run (its schedstat) given back from the one credited after it",
	  test_dark_run },
	{ "states cpus: the same for a thread that exits: its exit's work is its run after the dark one's",
	  test_dark_run_exited },
	{ "states cpus: a dark thread read after the cut while it runs: not its run after the cut",
	  test_dark_read_late },
	{ "states cpus: a switch-in followed by the idle task's switch-out: it left",
	  test_switch_in_then_idle },
	{ "states cpus: moved to another CPU unwritten: on one CPU at a time",
	  test_moved_unseen },
	{ "states cpus: a random schedule with switches and wakeups missing: per CPU, on-CPU <= wall",
	  test_partition },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
