// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/evsums: the time of each system call from its sys_enter and
 * sys_exit. The per-CPU buffers are decoded one after the other, so a call
 * that moved to another CPU may have its exit decoded before its entry. A
 * thread's records read from one CPU with no switch-out of it in between
 * are paired as decoded; what crosses a switch-out or a CPU is kept and
 * paired in time order by evsums_time_calls.
 */
#include "test.h"

#include <sys/syscall.h>

#include "../../collectors/trace/evsums.h"
#include "../../lib/util.h"

#define TID 700
/* sched_switch's prev_state: asleep (S), preempted. */
#define OUT_SLEEP 0x1
#define OUT_PREEMPTED 0x100

static const struct sc_stat *stat_of(struct evsums *a, long nr)
{
	return sctable_find(&evsums_thread(a, TID)->sc, (uint32_t)nr);
}

static void check_read(struct evsums *a, uint64_t calls, uint64_t timed, uint64_t time_ns,
		       uint64_t max_ns)
{
	const struct sc_stat *s = stat_of(a, SYS_read);

	if (!CHECK(s))
		return;
	CHECK_EQ_U64(s->calls, calls);
	CHECK_EQ_U64(s->timed, timed);
	CHECK_EQ_U64(s->time_ns, time_ns);
	CHECK_EQ_U64(s->max_ns, max_ns);
}

/* One CPU, no switch: each call timed as decoded, nothing kept. */
static void test_in_order(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	evsums_sys_enter(&a, TID, SYS_read, 100);
	evsums_sys_exit(&a, TID, SYS_read, 5, 150);
	evsums_sys_enter(&a, TID, SYS_read, 200);
	evsums_sys_exit(&a, TID, SYS_read, 5, 230);
	check_read(&a, 2, 2, 80, 50);
	CHECK_EQ_U64(a.ntv, 0);
	evsums_free(&a);
}

/*
 * Two reads in a pipe ping-pong: each entered on CPU 1 (where it blocks),
 * returned on CPU 0 (where it was woken, and which it leaves again).
 */
static void decode_bouncing(struct evsums *a)
{
	/* CPU 0's buffer first: both exits. */
	evsums_set_cpu(a, 0);
	evsums_sys_exit(a, TID, SYS_read, 1, 200);
	evsums_switch(a, TID, OUT_PREEMPTED, 210);
	evsums_sys_exit(a, TID, SYS_read, 1, 400);
	evsums_switch(a, TID, OUT_PREEMPTED, 410);
	/* Then CPU 1's: both entries. */
	evsums_set_cpu(a, 1);
	evsums_sys_enter(a, TID, SYS_read, 100);
	evsums_switch(a, TID, OUT_SLEEP, 110);
	evsums_sys_enter(a, TID, SYS_read, 350);
	evsums_switch(a, TID, OUT_SLEEP, 360);
}

static void test_ordered(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	decode_bouncing(&a);
	/* Counted at once, timed once every CPU was read. */
	check_read(&a, 2, 0, 0, 0);
	evsums_time_calls(&a);
	check_read(&a, 2, 2, 100 + 50, 100);
	evsums_free(&a);
}

/*
 * Four CPUs' buffers, decoded in an order that is not time order, each in
 * time order: runs that take two merge passes to become one. Two threads
 * bounce between the CPUs; every call is timed from its own entry.
 */
static void test_ordered_runs(void)
{
	const pid_t other = TID + 1;
	const struct sc_stat *s;
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	evsums_set_cpu(&a, 3);
	evsums_sys_exit(&a, TID, SYS_read, 1, 900);
	evsums_sys_enter(&a, other, SYS_write, 910);
	evsums_switch(&a, other, OUT_SLEEP, 920);
	evsums_set_cpu(&a, 0);
	evsums_sys_enter(&a, TID, SYS_read, 100);
	evsums_switch(&a, TID, OUT_SLEEP, 110);
	evsums_sys_exit(&a, other, SYS_write, 1, 300);
	evsums_switch(&a, other, OUT_PREEMPTED, 310);
	evsums_sys_enter(&a, TID, SYS_read, 700);
	evsums_switch(&a, TID, OUT_SLEEP, 710);
	evsums_set_cpu(&a, 2);
	evsums_sys_exit(&a, TID, SYS_read, 1, 150);
	evsums_switch(&a, TID, OUT_PREEMPTED, 160);
	evsums_sys_exit(&a, other, SYS_write, 1, 990);
	evsums_set_cpu(&a, 1);
	evsums_sys_enter(&a, other, SYS_write, 120);
	evsums_switch(&a, other, OUT_SLEEP, 130);
	evsums_sys_enter(&a, TID, SYS_read, 400);
	evsums_sys_exit(&a, TID, SYS_read, 1, 450);
	evsums_switch(&a, TID, OUT_PREEMPTED, 460);
	evsums_time_calls(&a);
	/* read: 100-150, 400-450, 700-900; write: 120-300, 910-990 */
	check_read(&a, 3, 3, 50 + 50 + 200, 200);
	s = sctable_find(&evsums_thread(&a, other)->sc, SYS_write);
	if (CHECK(s)) {
		CHECK_EQ_U64(s->timed, 2);
		CHECK_EQ_U64(s->time_ns, 180 + 80);
		CHECK_EQ_U64(s->max_ns, 180);
	}
	CHECK_EQ_U64(a.ntv, 0);
	evsums_free(&a);
}

/*
 * A thread that left its CPU in a read and came back to it for the exit of
 * another read, the calls between made on another CPU whose pages are read
 * later: the exit is not paired with the entry before it on that CPU
 * (its switch-out ends the segment), each read has its own time.
 */
static void test_left_and_came_back(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	evsums_set_cpu(&a, 0);
	evsums_sys_enter(&a, TID, SYS_read, 100);
	evsums_switch(&a, TID, OUT_SLEEP, 110);
	evsums_sys_exit(&a, TID, SYS_read, 1, 300);
	evsums_set_cpu(&a, 1);
	evsums_sys_exit(&a, TID, SYS_read, 1, 150);
	evsums_sys_enter(&a, TID, SYS_read, 160);
	evsums_switch(&a, TID, OUT_SLEEP, 170);
	evsums_time_calls(&a);
	check_read(&a, 2, 2, 50 + 140, 140);
	evsums_free(&a);
}

/*
 * The same, but the switch-out on CPU 0 was lost (a page said events were
 * missed before it): no segment goes on across the gap.
 */
static void test_lost_switch(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	evsums_set_cpu(&a, 0);
	evsums_sys_enter(&a, TID, SYS_read, 100);
	evsums_lost(&a, 1);
	evsums_sys_exit(&a, TID, SYS_read, 1, 300);
	evsums_set_cpu(&a, 1);
	evsums_sys_exit(&a, TID, SYS_read, 1, 150);
	evsums_sys_enter(&a, TID, SYS_read, 160);
	evsums_switch(&a, TID, OUT_SLEEP, 170);
	evsums_time_calls(&a);
	check_read(&a, 2, 2, 50 + 140, 140);
	evsums_free(&a);
}

/*
 * A getppid-like flood on two CPUs, each thread staying on its own: every
 * call paired as decoded, nothing kept; CPU 1's thread preempted in user
 * space once: its segment's end kept (nothing pending), nothing more.
 */
static void test_flood_keeps_nothing(void)
{
	const pid_t other = TID + 1;
	struct evsums a;
	uint64_t ts;

	evsums_init(&a);
	a.order_times = true;
	evsums_set_cpu(&a, 0);
	for (ts = 1000; ts < 101000; ts += 100) {
		evsums_sys_enter(&a, TID, SYS_read, ts);
		evsums_sys_exit(&a, TID, SYS_read, 1, ts + 30);
	}
	evsums_set_cpu(&a, 1);
	for (ts = 1000; ts < 101000; ts += 100) {
		evsums_sys_enter(&a, other, SYS_read, ts);
		evsums_sys_exit(&a, other, SYS_read, 1, ts + 40);
		if (ts == 50000)
			evsums_switch(&a, other, OUT_PREEMPTED, ts + 50);
	}
	CHECK_EQ_U64(a.ntv, 1);
	check_read(&a, 1000, 1000, 1000 * 30, 30);
	evsums_time_calls(&a);
	check_read(&a, 1000, 1000, 1000 * 30, 30);
	if (CHECK(sctable_find(&evsums_thread(&a, other)->sc, SYS_read)))
		CHECK_EQ_U64(sctable_find(&evsums_thread(&a, other)->sc, SYS_read)->time_ns,
			     1000 * 40);
	evsums_free(&a);
}

/*
 * In progress at the tick: a read entered on CPU 1 and not returned is the
 * call its thread is in once every CPU is read (collectors/trace/inprog.c shows
 * it), whether it blocked (switched out) or still runs; a thread that
 * returned from its last call is in none.
 */
static void test_in_progress(void)
{
	const pid_t running = TID + 1, idle = TID + 2;
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	evsums_set_cpu(&a, 1);
	evsums_sys_enter(&a, TID, SYS_read, 100);
	evsums_switch(&a, TID, OUT_SLEEP, 110);
	evsums_sys_enter(&a, running, SYS_write, 120);
	evsums_sys_enter(&a, idle, SYS_write, 130);
	evsums_sys_exit(&a, idle, SYS_write, 1, 140);
	evsums_time_calls(&a);
	CHECK_EQ_U64(evsums_thread(&a, TID)->enter_nr, SYS_read);
	CHECK_EQ_U64(evsums_thread(&a, TID)->enter_ts, 100);
	CHECK_EQ_U64(evsums_thread(&a, running)->enter_nr, SYS_write);
	CHECK_EQ_U64(evsums_thread(&a, running)->enter_ts, 120);
	CHECK_EQ_U64(evsums_thread(&a, idle)->enter_nr, SC_EMPTY);
	CHECK_EQ_U64(evsums_thread(&a, idle)->last_exit_ts, 140);
	/* The next tick: the read returned on CPU 0, the write on CPU 1. */
	evsums_end_interval(&a);
	evsums_set_cpu(&a, 0);
	evsums_sys_exit(&a, TID, SYS_read, 1, 5100);
	evsums_set_cpu(&a, 1);
	evsums_sys_exit(&a, running, SYS_write, 1, 5120);
	evsums_time_calls(&a);
	check_read(&a, 1, 1, 5000, 5000);
	if (CHECK(sctable_find(&evsums_thread(&a, running)->sc, SYS_write)))
		CHECK_EQ_U64(sctable_find(&evsums_thread(&a, running)->sc, SYS_write)->time_ns, 5000);
	CHECK_EQ_U64(evsums_thread(&a, TID)->enter_nr, SC_EMPTY);
	evsums_free(&a);
}

/*
 * exit_group's own event and its raw sys_enter, in either order (whichever
 * probe the kernel calls first), a few ns apart: counted once, never timed,
 * and no call left pending.
 */
static void test_noreturn_either_order(void)
{
	struct evsums a;
	int first;

	for (first = 0; first < 2; first++) {
		evsums_init(&a);
		a.order_times = true;
		evsums_sys_enter(&a, TID, SYS_read, 100);
		evsums_sys_exit(&a, TID, SYS_read, 1, 150);
		if (first)
			evsums_sys_enter(&a, TID, SYS_exit_group, 200);
		evsums_sys_noreturn(&a, TID, SYS_exit_group, 202);
		if (!first)
			evsums_sys_enter(&a, TID, SYS_exit_group, 204);
		evsums_time_calls(&a);
		if (CHECK(stat_of(&a, SYS_exit_group))) {
			CHECK_EQ_U64(stat_of(&a, SYS_exit_group)->calls, 1);
			CHECK_EQ_U64(stat_of(&a, SYS_exit_group)->timed, 0);
		}
		CHECK_EQ_U64(evsums_thread(&a, TID)->enter_nr, SC_EMPTY);
		evsums_free(&a);
	}
}

static void test_begun_before_tracing(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	evsums_sys_exit(&a, TID, SYS_read, 5, 1000);	/* entered before tracing began */
	evsums_sys_enter(&a, TID, SYS_read, 1100);	/* a later call */
	evsums_sys_exit(&a, TID, SYS_read, 5, 1150);
	evsums_time_calls(&a);
	check_read(&a, 2, 1, 50, 50);
	evsums_free(&a);
}

static void test_across_reads(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	/* The entry read at one tick, the exit at the next. */
	evsums_sys_enter(&a, TID, SYS_read, 3000);
	evsums_time_calls(&a);
	evsums_sys_exit(&a, TID, SYS_read, 5, 3400);
	evsums_time_calls(&a);
	check_read(&a, 1, 1, 400, 400);
	/* An entry older than an exit already timed: never pending. */
	evsums_sys_enter(&a, TID, SYS_read, 3200);
	evsums_time_calls(&a);
	evsums_sys_exit(&a, TID, SYS_read, 5, 3600);
	evsums_time_calls(&a);
	check_read(&a, 2, 1, 400, 400);
	evsums_free(&a);
}

static void test_interval_end(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	evsums_sys_enter(&a, TID, SYS_read, 2000);
	evsums_sys_exit(&a, TID, SYS_read, 5, 2070);
	/* Not timed yet when the interval ends: timed into its tables first. */
	evsums_end_interval(&a);
	CHECK(stat_of(&a, SYS_read) == NULL);
	CHECK_EQ_U64(a.ntv, 0);
	/* exit_group: counted, never timed. */
	evsums_sys_enter(&a, TID, SYS_exit_group, 2100);
	evsums_sys_noreturn(&a, TID, SYS_exit_group, 2100);
	evsums_time_calls(&a);
	if (CHECK(stat_of(&a, SYS_exit_group))) {
		CHECK_EQ_U64(stat_of(&a, SYS_exit_group)->calls, 1);
		CHECK_EQ_U64(stat_of(&a, SYS_exit_group)->timed, 0);
	}
	evsums_free(&a);
}

/*
 * A read blocked 2 s, across two interval ends: nothing of it in the
 * intervals it spans, then one call of 2 s, in its bucket, in the interval
 * where it returns.
 */
static void test_long_call(void)
{
	struct evsums a;
	const struct lathist *h;

	evsums_init(&a);
	a.order_times = true;
	evsums_sys_enter(&a, TID, SYS_read, 1000000000ull);
	evsums_end_interval(&a);
	CHECK(stat_of(&a, SYS_read) == NULL);
	evsums_end_interval(&a);
	CHECK(stat_of(&a, SYS_read) == NULL);
	evsums_sys_exit(&a, TID, SYS_read, 1, 3000000000ull);
	evsums_time_calls(&a);
	check_read(&a, 1, 1, 2000000000ull, 2000000000ull);
	h = sctable_hist(&evsums_thread(&a, TID)->sc, stat_of(&a, SYS_read));
	if (CHECK(h)) {
		CHECK_EQ_U64(lathist_count(h), 1);
		CHECK_EQ_U64(h->n[21], 1);	/* (1048576, 2097152] us */
	}
	evsums_end_interval(&a);
	CHECK(stat_of(&a, SYS_read) == NULL);
	evsums_free(&a);
}

/*
 * A sleep: its clock_nanosleep entered at one tick, returned at the next, then
 * exit_group, all decoded before the next pairing. The exit_group's entry
 * (decoded at once) must not drop the pending call's (kept in time order).
 */
static void test_exit_after_pending(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	evsums_sys_enter(&a, TID, SYS_read, 5000);
	evsums_end_interval(&a);
	evsums_sys_exit(&a, TID, SYS_read, 5, 5400);
	evsums_sys_noreturn(&a, TID, SYS_exit_group, 5500);
	evsums_sys_enter(&a, TID, SYS_exit_group, 5500);
	evsums_time_calls(&a);
	check_read(&a, 1, 1, 400, 400);
	if (CHECK(stat_of(&a, SYS_exit_group)))
		CHECK_EQ_U64(stat_of(&a, SYS_exit_group)->timed, 0);
	/* and nothing pending after it: an exited thread whose exit was lost is forgotten */
	CHECK_EQ_U64(evsums_thread(&a, TID)->enter_nr, SC_EMPTY);
	evsums_free(&a);
}

/*
 * A child forked and still in a call when the interval ends: its entry is
 * paired before its fork is applied (evsums_end_interval times first); the fork
 * forgets what the tid's older task left, not the child's own call.
 */
static void test_fork_after_pairing(void)
{
	struct evsums a;

	evsums_init(&a);
	a.order_times = true;
	a.order_life = true;
	evsums_newtask(&a, 1, TID, 0, "sh", 2, 100);
	evsums_sys_enter(&a, TID, SYS_read, 200);
	evsums_end_interval(&a);
	evsums_sys_exit(&a, TID, SYS_read, 5, 900);
	evsums_time_calls(&a);
	check_read(&a, 1, 1, 700, 700);
	evsums_free(&a);
}

/* Execs are kept with their file names for the collector to judge, one interval. */
static void test_exec_records(void)
{
	char longname[400];
	struct evsums a;

	evsums_init(&a);
	evsums_exec(&a, TID, TID, "/usr/bin/su", 11, 1);
	/* A non-leader thread exec'd: the process's pid carries on. */
	evsums_exec(&a, TID, TID + 1, "./prog\0junk", 11, 2);
	memset(longname, 'x', sizeof(longname));
	longname[0] = '/';
	evsums_exec(&a, TID + 5, TID + 5, longname, sizeof(longname), 3);
	if (CHECK_EQ_U64(a.nexecs, 3)) {
		CHECK_EQ_I64(a.execs[0].pid, TID);
		CHECK_STR(a.execs[0].file, "/usr/bin/su");
		CHECK(!a.execs[0].cut);
		CHECK_EQ_I64(a.execs[1].pid, TID);
		CHECK_STR(a.execs[1].file, "./prog");
		CHECK(a.execs[2].cut);
		CHECK_STR(a.execs[2].file, "");
	}
	CHECK(evsums_thread(&a, TID)->renamed);
	evsums_end_interval(&a);
	CHECK_EQ_U64(a.nexecs, 0);
	CHECK(!evsums_thread(&a, TID)->renamed);
	evsums_free(&a);
}

/* A set*id, setgroups or capset call that succeeded marks its thread for the interval. */
static void test_cred_calls(void)
{
	struct evsums a;

	evsums_init(&a);
	evsums_sys_exit(&a, TID, SYS_getuid, 1000, 10);
	evsums_sys_exit(&a, TID, SYS_setresuid, -1 /* -EPERM */, 20);
	CHECK(!evsums_thread(&a, TID)->cred_call);
	evsums_sys_exit(&a, TID, SYS_setresuid, 0, 30);
	CHECK(evsums_thread(&a, TID)->cred_call);
	evsums_sys_exit(&a, TID + 1, SYS_capset, 0, 40);
	CHECK(evsums_thread(&a, TID + 1)->cred_call);
	CHECK(evsums_cred_call(SYS_setuid) && evsums_cred_call(SYS_setgroups) &&
	      evsums_cred_call(SYS_setfsuid) && !evsums_cred_call(SYS_getppid) && !evsums_cred_call(-1));
	evsums_end_interval(&a);
	CHECK(!evsums_thread(&a, TID)->cred_call);
	CHECK(!evsums_thread(&a, TID + 1)->cred_call);
	evsums_free(&a);
}

/* A thread whose process was not looked up in time keeps its counts for the next interval. */
static void test_carry(void)
{
	struct evsums a;
	struct evsums_thread *t;

	evsums_init(&a);
	evsums_sys_exit(&a, TID, SYS_read, 1, 100);
	evsums_sys_exit(&a, TID, SYS_read, -2, 200);
	t = evsums_first_active(&a);
	CHECK(t && t->tid == TID);
	evsums_carry(&a, t);
	evsums_end_interval(&a);
	/* Still active, with both calls, and the system-wide totals restart. */
	CHECK(evsums_first_active(&a) == t);
	CHECK_EQ_U64(t->n[CNT_SYSCALLS], 2);
	CHECK_EQ_U64(t->n[CNT_SYSERR], 1);
	CHECK_EQ_U64(sctable_find(&t->sc, SYS_read)->calls, 2);
	CHECK_EQ_U64(a.total[CNT_SYSCALLS], 0);
	evsums_sys_exit(&a, TID, SYS_read, 1, 300);
	CHECK_EQ_U64(t->n[CNT_SYSCALLS], 3);
	evsums_end_interval(&a);
	/* Not carried again: cleared like any other. */
	CHECK(evsums_first_active(&a) == NULL);
	CHECK_EQ_U64(t->n[CNT_SYSCALLS], 0);
	evsums_free(&a);
}

/*
 * Many processes exit at once (issue 20): threads whose process is not looked
 * up in time are carried tick after tick, and an exited one is forgotten two
 * intervals after its exit. Forgotten while carried, it was freed while still
 * linked on the active list (ktop crashed in the walk, or looped forever on a
 * list made cyclic by the doomed list's links). Carried threads stay until
 * their counts are folded; then they go.
 */
static void test_carry_exited(void)
{
	struct evsums a;
	struct evsums_thread *t, *u;
	size_t n;
	int tick;

	evsums_init(&a);
	for (tick = 0; tick < 6; tick++) {
		if (!tick) {
			evsums_switch(&a, TID, 1, 10);	/* S: voluntary */
			evsums_switch(&a, TID + 1, 1, 11);
			evsums_exit(&a, TID, true, 20);
			evsums_exit(&a, TID + 1, true, 21);
		}
		/* Both still active, each once: the list is neither cut nor cyclic. */
		for (n = 0, u = evsums_first_active(&a); u && n < 10; u = u->next)
			n++;
		CHECK_EQ_U64(n, 2);
		for (u = evsums_first_active(&a); u; u = u->next)
			evsums_carry(&a, u);
		evsums_end_interval(&a);
	}
	t = evsums_first_active(&a);
	CHECK(t && t->n[CNT_VCSW] == 1);
	/* Folded at last (not carried): forgotten within the next intervals. */
	evsums_end_interval(&a);
	CHECK(evsums_first_active(&a) == NULL);
	evsums_end_interval(&a);
	CHECK(pidmap_get(&a.threads, TID) == NULL);
	CHECK(pidmap_get(&a.threads, TID + 1) == NULL);
	evsums_free(&a);
}

/*
 * Its time on a CPU after its exit event (CNT_EXITCPU): the exit's own work
 * up to its last switch, across a preemption and another CPU, the last
 * switch read past the cut; none of a new task's that has the tid after it.
 */
static void test_exit_time(void)
{
	struct evsums_thread *t;
	struct evsums a;

	evsums_init(&a);
	a.states = a.order_life = true;
	evsums_state_cpus(&a, 2);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, 0, TID, 100);
	evsums_exit(&a, TID, true, 150);
	evsums_state_switch(&a, TID, OUT_PREEMPTED, 0, 200);
	evsums_set_cpu(&a, 1);
	evsums_state_switch(&a, 0, 0, TID, 300);
	evsums_state_switch(&a, TID, 0x20, 0, 350);		/* Z: its last switch */
	evsums_order_life(&a);
	evsums_state_end(&a, 320);
	t = evsums_thread(&a, TID);
	CHECK_EQ_U64(t->n[CNT_ONCPU], 100 + 50);
	CHECK_EQ_U64(t->n[CNT_EXITCPU], 50 + 50);
	CHECK_EQ_U64(a.total[CNT_EXITCPU], 100);
	evsums_end_interval(&a);
	evsums_set_cpu(&a, 0);
	evsums_state_switch(&a, 0, 0, TID + 1, 400);		/* its parent */
	evsums_newtask(&a, TID + 1, TID, 0, "new", 3, 500);
	evsums_state_wakeup(&a, TID, true, TID + 1, 500);
	evsums_state_switch(&a, TID + 1, OUT_SLEEP, TID, 600);
	evsums_state_switch(&a, TID, OUT_SLEEP, 0, 700);
	evsums_order_life(&a);
	evsums_state_end(&a, 1000);
	t = evsums_thread(&a, TID);
	CHECK_EQ_U64(t->n[CNT_ONCPU], 100);
	CHECK_EQ_U64(t->n[CNT_EXITCPU], 0);
	evsums_free(&a);
}

/*
 * A task's last switch (prev_state X or Z, not a preemption) after its exit
 * says nothing more of it comes; read before the lifecycle events are put
 * in order, it still counts. A preemption after the exit does not; nor does
 * the last switch of the task that had the tid before a new one's fork.
 */
/*
 * A thread forgotten after its exit, then its tid (and one sharing its slot of
 * the recent lookups) seen again: a new thread, never the freed one (ASan
 * would see the use after free).
 */
static void test_forgotten_lookup(void)
{
	const pid_t alias = TID + ACCT_RECENT;
	struct evsums_thread *t;
	struct evsums a;
	int i;

	evsums_init(&a);
	evsums_sys_exit(&a, TID, SYS_read, 1, 10);
	evsums_exit(&a, TID, true, 20);
	CHECK(evsums_thread(&a, TID)->exited);
	for (i = 0; i < 4; i++)
		evsums_end_interval(&a);
	CHECK(pidmap_get(&a.threads, TID) == NULL);
	t = evsums_thread(&a, TID);
	CHECK(!t->exited && !t->sc.used);
	CHECK_EQ_U64(t->n[CNT_SYSCALLS], 0);
	evsums_sys_exit(&a, alias, SYS_read, 1, 30);
	evsums_exit(&a, alias, true, 40);
	for (i = 0; i < 4; i++)
		evsums_end_interval(&a);
	evsums_sys_exit(&a, alias, SYS_write, 1, 50);
	CHECK_EQ_U64(evsums_thread(&a, alias)->n[CNT_SYSCALLS], 1);
	CHECK(evsums_thread(&a, TID) == t);
	evsums_free(&a);
}

static void test_gone(void)
{
	struct evsums a;
	struct evsums_thread *t;

	evsums_init(&a);
	a.order_life = true;	/* as ftrace reads: lifecycle events applied after the read */
	evsums_newtask(&a, 1, TID, 0, "true", 4, 10);
	evsums_sys_exit(&a, TID, SYS_read, 1, 20);
	evsums_switch(&a, TID, ACCT_STATE_PREEMPTED | 0x20, 40);
	evsums_exit(&a, TID, true, 30);
	evsums_order_life(&a);
	t = evsums_thread(&a, TID);
	CHECK(t->exited && t->group_dead);
	CHECK(!evsums_gone(t));
	evsums_switch(&a, TID, 0x20, 50);	/* Z: its parent reaps it */
	CHECK(evsums_gone(t));
	evsums_end_interval(&a);
	evsums_end_interval(&a);
	evsums_end_interval(&a);

	/* Autoreaped (X), the switch decoded before the exit it follows. */
	evsums_switch(&a, TID + 1, 0x10, 80);
	evsums_newtask(&a, 1, TID + 1, 0, "true", 4, 60);
	evsums_exit(&a, TID + 1, true, 70);
	evsums_order_life(&a);
	CHECK(evsums_gone(evsums_thread(&a, TID + 1)));

	/* The tid's old task's last switch, then a new task with the tid that exits. */
	evsums_switch(&a, TID + 2, 0x10, 90);
	evsums_newtask(&a, 1, TID + 2, 0, "true", 4, 100);
	evsums_exit(&a, TID + 2, true, 110);
	evsums_order_life(&a);
	CHECK(!evsums_gone(evsums_thread(&a, TID + 2)));
	evsums_free(&a);
}

/* Errors are counted per syscall and errno: top_errno keeps only the latest. */
static void test_errno_table(void)
{
	struct evsums a;
	struct evsums_thread *t;
	const struct sc_stat *s;

	evsums_init(&a);
	evsums_sys_exit(&a, TID, SYS_openat, -2 /* ENOENT */, 10);
	evsums_sys_exit(&a, TID, SYS_openat, -2, 20);
	evsums_sys_exit(&a, TID, SYS_openat, -13 /* EACCES */, 30);
	evsums_sys_exit(&a, TID, SYS_openat, 3, 40);
	evsums_sys_exit(&a, TID, SYS_read, -2, 50);
	evsums_sys_exit(&a, TID, 0x7fffffffL, -38 /* ENOSYS */, 60);
	evsums_sys_exit(&a, TID, 0x100000L, -38, 70);
	t = evsums_thread(&a, TID);
	CHECK_EQ_U64(t->err.used, 4);
	s = sctable_find(&t->err, sc_err_key(SYS_openat, 2));
	CHECK(s && s->errors == 2);
	s = sctable_find(&t->err, sc_err_key(SYS_openat, 13));
	CHECK(s && s->errors == 1);
	s = sctable_find(&t->err, sc_err_key(SYS_read, 2));
	CHECK(s && s->errors == 1);
	/* Numbers no kernel has share one key, decoded as the call table's shared slot. */
	s = sctable_find(&t->err, sc_err_key(SC_EMPTY - 1, 38));
	if (CHECK(s)) {
		CHECK_EQ_U64(s->errors, 2);
		CHECK_EQ_U64(sc_err_nr(s->nr), SC_EMPTY - 1);
		CHECK_EQ_U64(sc_err_errno(s->nr), 38);
	}
	CHECK_EQ_U64(sc_err_nr(sc_err_key(SYS_openat, 4095)), SYS_openat);
	CHECK_EQ_U64(sc_err_errno(sc_err_key(SYS_openat, 4095)), 4095);
	CHECK(sc_err_key(SC_EMPTY - 1, 4095) != SC_EMPTY);
	CHECK_EQ_U64(sctable_find(&t->sc, SYS_openat)->errors, 3);
	evsums_end_interval(&a);
	CHECK_EQ_U64(t->err.used, 0);
	evsums_free(&a);
}


#if defined(__x86_64__) && !defined(__ILP32__)
/*
 * A 32-bit program's calls (the compat ABI): keyed with their ABI, so that
 * i386's 64 is getppid, not x86_64's semget. i386 numbers: 5 open, 11 execve,
 * 64 getppid, 120 clone, 173 rt_sigreturn, 183 getcwd, 213 setuid32,
 * 252 exit_group.
 */
#define I386(nr) sc_key((nr), true)

static const struct sc_stat *find(struct evsums *a, pid_t tid, uint32_t key)
{
	return sctable_find(&evsums_thread(a, tid)->sc, key);
}

static void test_abi_compat(void)
{
	struct evsums a;
	struct evsums_thread *t;
	const struct sc_stat *s;
	int i;

	evsums_init(&a);
	t = evsums_thread(&a, TID);
	evsums_set_abi(&a, t, true);
	for (i = 0; i < 3; i++)
		evsums_sys_exit(&a, TID, 64, 1, 100 + (uint64_t)i);
	evsums_sys_exit(&a, TID, 5, -2, 200);
	evsums_sys_exit(&a, TID, 183, -34, 210);
	s = find(&a, TID, I386(64));
	CHECK(s && s->calls == 3 && s->errors == 0);
	CHECK(!find(&a, TID, 64));		/* not x86_64's semget */
	s = find(&a, TID, I386(5));
	CHECK(s && s->calls == 1 && s->errors == 1 && s->top_errno == 2);
	CHECK(sctable_find(&t->err, sc_err_key(I386(5), 2)));
	CHECK(sctable_find(&t->err, sc_err_key(I386(183), 34)));
	CHECK(!sctable_find(&t->err, sc_err_key(5, 2)));
	/* Its clone: once in it, not in the child (which inherits the ABI). */
	evsums_newtask(&a, TID, TID + 1, 0, "c", 1, 300);
	evsums_sys_exit(&a, TID + 1, 120, 0, 310);
	evsums_sys_exit(&a, TID, 120, TID + 1, 320);
	CHECK(!evsums_thread(&a, TID + 1)->sc.used);
	s = find(&a, TID, I386(120));
	CHECK(s && s->calls == 1);
	CHECK(evsums_thread(&a, TID + 1)->compat);
	/* exit_group: syscalls:sys_enter_exit_group ignores a 32-bit program's; counted at entry. */
	evsums_sys_enter(&a, TID + 1, 252, 400);
	s = find(&a, TID + 1, I386(252));
	CHECK(s && s->calls == 1);
	/* A native thread's 252 (ioprio_get) is counted at its exit only. */
	evsums_set_abi(&a, evsums_thread(&a, TID + 2), false);
	evsums_sys_enter(&a, TID + 2, 252, 500);
	CHECK(!evsums_thread(&a, TID + 2)->sc.used);
	/* rt_sigreturn's restored -1; a credential call of i386's numbers. */
	evsums_sys_exit(&a, TID, -1, 0, 600);
	s = find(&a, TID, I386(173));
	CHECK(s && s->calls == 1);
	CHECK(!t->cred_call);
	evsums_sys_exit(&a, TID, 213, 0, 610);
	CHECK(t->cred_call);
	evsums_free(&a);
}

/*
 * An exec into a 32-bit program returns as i386's execve (11), one into a
 * 64-bit program as x86_64's (59), whatever call was entered: the kernel sets
 * the new program's number for the return.
 */
static void test_abi_exec(void)
{
	struct evsums a;
	const struct sc_stat *s;

	evsums_init(&a);
	evsums_set_abi(&a, evsums_thread(&a, TID), false);
	evsums_sys_enter(&a, TID, SYS_execve, 100);
	evsums_exec(&a, TID, TID, "/bin/prog32", 11, 150);
	evsums_sys_exit(&a, TID, 11, 0, 200);
	evsums_sys_exit(&a, TID, 64, 1, 300);
	CHECK(evsums_thread(&a, TID)->compat);
	s = find(&a, TID, I386(11));
	CHECK(s && s->calls == 1);
	CHECK(!find(&a, TID, 11));		/* not x86_64's munmap */
	s = find(&a, TID, I386(64));
	CHECK(s && s->calls == 1);
	/* And back to 64-bit. */
	evsums_sys_enter(&a, TID, 11, 400);
	evsums_exec(&a, TID, TID, "/bin/prog64", 11, 450);
	evsums_sys_exit(&a, TID, SYS_execve, 0, 500);
	evsums_sys_exit(&a, TID, SYS_getppid, 1, 600);
	CHECK(!evsums_thread(&a, TID)->compat);
	s = find(&a, TID, SYS_execve);
	CHECK(s && s->calls == 1);
	s = find(&a, TID, SYS_getppid);
	CHECK(s && s->calls == 1);
	/* Without an exec, 11 returning 0 is x86_64's munmap. */
	evsums_sys_exit(&a, TID, 11, 0, 700);
	s = find(&a, TID, 11);
	CHECK(s && s->calls == 1);
	evsums_free(&a);
}

/*
 * A thread of an unknown ABI (it ran before tracing) is counted as native
 * until /proc says (evsums_set_abi): then this interval's calls are re-keyed.
 * Its first call, if a 32-bit fork's return in the child, waits for it.
 */
static void test_abi_learnt(void)
{
	struct evsums a;
	struct evsums_thread *t;
	const struct sc_stat *s;

	evsums_init(&a);
	evsums_sys_exit(&a, TID, 64, 1, 100);
	evsums_sys_exit(&a, TID, 64, 1, 110);
	evsums_sys_exit(&a, TID, 5, -2, 120);
	t = evsums_thread(&a, TID);
	CHECK(find(&a, TID, 64));
	evsums_set_abi(&a, t, true);
	s = find(&a, TID, I386(64));
	CHECK(s && s->calls == 2);
	CHECK(!find(&a, TID, 64));
	CHECK(sctable_find(&t->err, sc_err_key(I386(5), 2)));
	CHECK_EQ_U64(t->n[CNT_SYSCALLS], 3);
	/* Learnt once: /proc does not undo what an exec's return said. */
	evsums_set_abi(&a, t, false);
	CHECK(t->compat);

	/* A child's first return, 120 and 0: i386's clone in the child, or x86_64's getpgid. */
	evsums_sys_exit(&a, TID + 1, 120, 0, 200);
	CHECK(!evsums_thread(&a, TID + 1)->sc.used);
	evsums_set_abi(&a, evsums_thread(&a, TID + 1), true);
	CHECK(!evsums_thread(&a, TID + 1)->sc.used);
	CHECK_EQ_U64(evsums_thread(&a, TID + 1)->n[CNT_SYSCALLS], 0);
	evsums_sys_exit(&a, TID + 2, 120, 0, 300);
	evsums_set_abi(&a, evsums_thread(&a, TID + 2), false);
	s = find(&a, TID + 2, 120);
	CHECK(s && s->calls == 1);
	CHECK_EQ_U64(evsums_thread(&a, TID + 2)->n[CNT_SYSCALLS], 1);
	CHECK_EQ_U64(a.total[CNT_SYSCALLS], 4);

	/* A tid reused by a child of a 64-bit process: the old task's ABI goes. */
	evsums_set_abi(&a, evsums_thread(&a, TID + 3), true);
	evsums_newtask(&a, TID + 2, TID + 3, 0, "c", 1, 1000);
	CHECK(!evsums_thread(&a, TID + 3)->compat);
	evsums_sys_exit(&a, TID + 3, SYS_getppid, 1, 1010);
	CHECK(find(&a, TID + 3, SYS_getppid));
	/* Its exec's return, decoded before its fork (another CPU's), stays. */
	evsums_exec(&a, TID + 4, TID + 4, "/bin/prog32", 11, 1990);
	evsums_sys_exit(&a, TID + 4, 11, 0, 2000);
	evsums_newtask(&a, TID + 2, TID + 4, 0, "c", 1, 1500);
	CHECK(evsums_thread(&a, TID + 4)->compat);
	evsums_free(&a);
}
#endif

static const struct test tests[] = {
	{ "acct: errors by syscall and errno, cleared with the interval", test_errno_table },
	{ "carry: counts kept, still active, for one more interval", test_carry },
	{ "carry: exited threads carried for ticks stay linked once each, then go",
	  test_carry_exited },
	{ "acct: a forgotten thread's tid seen again is a new thread (recent lookups)",
	  test_forgotten_lookup },
	{ "acct: a task's last switch after its exit, and only that, says it is gone",
	  test_gone },
	{ "acct: enter then exit: timed", test_in_order },
	{ "acct: order_times: exits decoded before their entries, each timed", test_ordered },
	{ "acct: order_times: four CPUs' runs out of time order, two threads, each call timed",
	  test_ordered_runs },
	{ "acct: a thread that left its CPU mid-call and came back: each call its own time",
	  test_left_and_came_back },
	{ "acct: events lost before a page: no pairing as decoded across the gap",
	  test_lost_switch },
	{ "acct: a flood on two CPUs: every call paired as decoded, nothing kept",
	  test_flood_keeps_nothing },
	{ "acct: calls in progress at the tick, blocked or running, then timed where they end",
	  test_in_progress },
	{ "acct: exit_group's two entries in either order: one call, none pending",
	  test_noreturn_either_order },
	{ "acct: a call begun before tracing has no time; the next has", test_begun_before_tracing },
	{ "acct: an entry and its exit read at different ticks", test_across_reads },
	{ "acct: the interval's calls are timed before its tables go", test_interval_end },
	{ "acct: a 2 s call across two interval ends: one call, in its bucket, where it ends",
	  test_long_call },
	{ "acct: exit_group after a call pending from the last interval: that call timed",
	  test_exit_after_pending },
	{ "acct: a child's call pending at the interval's end survives its fork's replay",
	  test_fork_after_pairing },
	{ "acct: the interval's execs, with their file names, cut ones marked", test_exec_records },
	{ "acct: a thread's time on a CPU after its exit event, none of the tid's next task",
	  test_exit_time },
	{ "acct: a credential call that succeeded marks its thread for the interval",
	  test_cred_calls },
#if defined(__x86_64__) && !defined(__ILP32__)
	{ "acct: a 32-bit program's calls keyed with i386's numbers (fork, exit_group, errors)",
	  test_abi_compat },
	{ "acct: an exec's return tells the new program's ABI, both ways", test_abi_exec },
	{ "acct: an ABI learnt later re-keys the interval's calls; a child's first return waits",
	  test_abi_learnt },
#endif
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
