// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/counting.c's fold: an interval's per-thread sums (acct) added to
 * the model's rows, as a tick does, with a collector that has no instance
 * (counting_new_offline) and events given as the decoder gives them:
 * - a process's threads sum into its row; the totals are the rows' sums;
 * - a task /proc listed as a process, that no event introduced, is named
 *   from the model without a read, also once gone (a mass exit: reads fail);
 * - a process whose exit was read before its last switch is shown once,
 *   whole, a tick later;
 * - not root: another user's process counts nothing, a process whose
 *   credentials changed in the interval is withheld, and neither is in the
 *   totals;
 * - a child whose exec and exit were read a tick before its fork (its
 *   parent's CPU was read first) is shown once, a tick later, with its
 *   parent, X, whole: followed with a focus, named by its parent without;
 * - a pid reused within one interval is two rows, each life's calls its own,
 *   whichever CPU (the parent's, the old life's, the new one's) is read
 *   first; reused an interval later, the new life's row is not the old one's;
 *   a fork read after its child's calls, or a thread's rows without its
 *   leader's, make no second life; the new life's later calls read before
 *   both the old one's exit and the new one's fork (it moved to a CPU read
 *   first): both rows, their calls unknown, and counted as unsplit.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "../../collectors/trace/counting.h"
#include "../../model/model.h"
#include "../../lib/util.h"
#include "fixture.h"
#include "test.h"

/* Beyond any pid_max: /proc has no such task, whatever runs on the machine. */
#define GONE 4190000

struct proc {
	pid_t pid;
	int64_t uid;
	const char *comm;
	bool listed;		/* /proc lists it this tick */
};

static void setup(struct model *m, struct sample *s, struct counting *ft)
{
	model_init(m, 100, 4);
	sample_init(s);
	m->event_counters = counting_event_counters(ft);
	m->events_uid = counting_only_uid(ft);
}

/* One tick as src/sources.c runs it, the events already given to the collector. */
static void tick(struct model *m, struct sample *s, struct counting *ft, int n_s,
		 const struct proc *p, size_t np)
{
	const pid_t *ids;
	size_t i, n;

	evsums_order_life(counting_acct(ft));
	counting_cred_changes(ft, m, &ids);
	/* The followed join the focus with the tick's first sample (counting_source.c). */
	n = counting_follow(ft, m, &ids);
	for (i = 0; i < n; i++)
		sample_add_follow(s, ids[i]);
	fx_begin(s, n_s);
	model_apply(m, s);
	for (i = 0; i < np; i++)
		if (p[i].listed)
			fx_reading(s, p[i].pid, p[i].comm)->uid = p[i].uid;
	model_apply(m, s);
	counting_collect(ft, m, s, false);
	model_apply(m, s);
	counting_end_interval(ft);
	s->end = true;
	model_apply(m, s);
}

/* @t's count of @c in the interval; -1 when unknown. */
static long long count(const struct model *m, pid_t pid, enum counter c)
{
	const struct task *t = model_task_find(m, pid);

	if (!t || t->seen_tick != m->tick)
		return -2;	/* no row this tick */
	return t->have_delta & (1u << c) ? (long long)t->delta[c] : -1;
}

static void test_threads_sum(void)
{
	struct counting *ft = counting_new_offline(-1);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = { { 500, 0, "srv", true } };
	struct model m;
	struct sample s;
	int i;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);	/* the baseline */
	evsums_newtask(a, 500, 501, ACCT_CLONE_THREAD, "srv", 3, 10);
	for (i = 0; i < 3; i++)
		evsums_sys_exit(a, 500, SYS_read, i ? 1 : -2, 20 + (uint64_t)i);
	evsums_sys_exit(a, 501, SYS_write, 1, 30);
	evsums_sys_exit(a, 501, SYS_write, 1, 31);
	evsums_switch(a, 501, 1, 40);
	tick(&m, &s, ft, 2, p, 1);
	CHECK_EQ_U64((uint64_t)count(&m, 500, CNT_SYSCALLS), 5);
	CHECK_EQ_U64((uint64_t)count(&m, 500, CNT_SYSERR), 1);
	CHECK_EQ_U64((uint64_t)count(&m, 500, CNT_VCSW), 1);
	CHECK(model_task_find(&m, 501) == NULL);
	CHECK_EQ_U64(m.ev_total[CNT_SYSCALLS], 5);
	CHECK_EQ_U64(m.ev_total[CNT_VCSW], 1);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

static void test_listed_resolved_from_model(void)
{
	struct counting *ft = counting_new_offline(-1);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = { { GONE, 0, "sleep", true } };
	struct counting_stats st;
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);
	/* Killed: its last call, its signal, its exit and last switch; /proc no longer lists it. */
	evsums_signal(a, 0, GONE, SIGTERM, 0, 10);
	evsums_sys_exit(a, GONE, SYS_pause, -4, 20);
	evsums_exit(a, GONE, true, 30);
	evsums_switch(a, GONE, 0x10, 40);
	p[0].listed = false;
	tick(&m, &s, ft, 2, p, 1);
	CHECK(model_task_find(&m, GONE) && model_task_find(&m, GONE)->state == 'X');
	CHECK_EQ_U64((uint64_t)count(&m, GONE, CNT_SYSCALLS), 1);
	CHECK_EQ_U64((uint64_t)count(&m, GONE, CNT_SIGRECV), 1);
	counting_get_stats(ft, &st);
	CHECK_EQ_U64(st.unattributed, 0);
	CHECK_EQ_U64(st.carried, 0);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

static void test_exit_before_last_switch(void)
{
	struct counting *ft = counting_new_offline(-1);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = { { 1, 0, "init", true } };
	struct counting_stats st;
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);
	/* Born and gone: its CPU was read between its exit event and its last switch. */
	evsums_newtask(a, 1, 700, 0, "true", 4, 10);
	evsums_sys_exit(a, 700, SYS_read, 0, 20);
	evsums_sys_noreturn(a, 700, SYS_exit_group, 25);
	evsums_exit(a, 700, true, 30);
	tick(&m, &s, ft, 2, p, 1);
	CHECK_EQ_I64(count(&m, 700, CNT_SYSCALLS), -2);
	/* Then the SIGCHLD it sends and its last switch: one row, whole. */
	evsums_signal(a, 700, 1, SIGCHLD, 0, 35);
	evsums_switch(a, 700, 0x10, 40);
	tick(&m, &s, ft, 3, p, 1);
	CHECK(model_task_find(&m, 700) && model_task_find(&m, 700)->state == 'X');
	CHECK_EQ_U64((uint64_t)count(&m, 700, CNT_SYSCALLS), 2);
	CHECK_EQ_U64((uint64_t)count(&m, 700, CNT_SIGSENT), 1);
	CHECK_EQ_U64((uint64_t)count(&m, 700, CNT_VCSW), 1);
	CHECK_EQ_U64(m.ev_total[CNT_SYSCALLS], 2);
	tick(&m, &s, ft, 4, p, 1);
	CHECK_EQ_I64(count(&m, 700, CNT_SYSCALLS), -2);
	counting_get_stats(ft, &st);
	CHECK_EQ_U64(st.held, 1);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

/*
 * @focus: -- CMD (600 followed); else system-wide. 700's CPU was read after
 * its exec and exit, 600's before its fork of 700.
 */
static void fork_read_late(bool focus)
{
	struct counting *ft = counting_new_offline(-1);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = { { 600, 0, "sh", true } };
	const pid_t pin = 600, kid = GONE + 1;
	struct counting_stats st;
	const struct task *t;
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	if (focus) {
		model_set_focus(&m, &pin, 1);
		m.focus_follow = true;
	}
	tick(&m, &s, ft, 1, p, 1);
	evsums_exec(a, kid, kid, "/bin/true", 9, 20);
	evsums_sys_exit(a, kid, SYS_execve, 0, 21);
	evsums_sys_exit(a, kid, SYS_brk, 0, 22);
	evsums_sys_noreturn(a, kid, SYS_exit_group, 25);
	evsums_exit(a, kid, true, 30);
	evsums_switch(a, kid, 0x10, 31);
	tick(&m, &s, ft, 2, p, 1);
	CHECK_EQ_I64(count(&m, kid, CNT_SYSCALLS), -2);
	evsums_newtask(a, 600, kid, 0, "sh", 2, 10);
	tick(&m, &s, ft, 3, p, 1);
	t = model_task_find(&m, kid);
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ_I64(t->state, 'X');
		CHECK_EQ_I64(t->ppid, 600);
		CHECK_STR(t->comm, "true");
	}
	CHECK_EQ_U64((uint64_t)count(&m, kid, CNT_SYSCALLS), 3);
	CHECK_EQ_U64((uint64_t)count(&m, kid, CNT_VCSW), 1);
	tick(&m, &s, ft, 4, p, 1);
	CHECK_EQ_I64(count(&m, kid, CNT_SYSCALLS), -2);
	counting_get_stats(ft, &st);
	CHECK_EQ_U64(st.unparented, 1);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

static void test_fork_read_late_focus(void)
{
	fork_read_late(true);
}

static void test_fork_read_late(void)
{
	fork_read_late(false);
}

static void test_not_root(void)
{
	struct counting *ft = counting_new_offline(1000);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = {
		{ 800, 1000, "mine", true }, { 801, 0, "roots", true }, { 802, 1000, "su", true },
	};
	struct model m;
	struct sample s;
	int i;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 3);
	for (i = 0; i < 3; i++) {
		evsums_sys_exit(a, 800, SYS_getppid, 1, 10 + (uint64_t)i);
		evsums_sys_exit(a, 801, SYS_getppid, 1, 20 + (uint64_t)i);
		evsums_sys_exit(a, 802, SYS_getppid, 1, 30 + (uint64_t)i);
	}
	/* 802 becomes another user in the interval: whose were its calls? */
	evsums_sys_exit(a, 802, SYS_setuid, 0, 40);
	tick(&m, &s, ft, 2, p, 3);
	CHECK_EQ_I64(count(&m, 800, CNT_SYSCALLS), 3);
	CHECK_EQ_I64(count(&m, 801, CNT_SYSCALLS), -1);
	CHECK_EQ_I64(count(&m, 802, CNT_SYSCALLS), -1);
	CHECK_EQ_U64(m.ev_total[CNT_SYSCALLS], 3);
	/* The next interval of the user's own is counted again. */
	evsums_sys_exit(a, 802, SYS_getppid, 1, 50);
	tick(&m, &s, ft, 3, p, 3);
	CHECK_EQ_I64(count(&m, 802, CNT_SYSCALLS), 1);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

/* The calls of syscall @nr in @t's table this interval. */
static uint64_t calls_of(const struct task *t, long nr)
{
	const struct sc_stat *st = t ? sctable_find(&t->sc, sc_key(nr, false)) : NULL;

	return st ? st->calls : 0;
}

/*
 * One life of pid 800, forked by 1, as its CPUs write it: the fork (and its
 * wakeup) in the parent, then in the child its first return, its name, @n
 * getppid calls, exit_group, the exit, its SIGCHLD and last switch. @part:
 * 1 the parent's events, 2 the child's; from time @at.
 */
static void life(struct evsums *a, int part, uint64_t at, const char *name, int n)
{
	int i;

	if (part == 1) {
		evsums_newtask(a, 1, 800, 0, "lives", 5, at);
		return;
	}
	evsums_sys_exit(a, 800, SYS_clone, 0, at + 10);
	evsums_rename(a, 800, name, strlen(name), at + 15);
	for (i = 0; i < n; i++)
		evsums_sys_exit(a, 800, SYS_getppid, 1, at + 20 + (uint64_t)i);
	evsums_sys_noreturn(a, 800, SYS_exit_group, at + 50);
	evsums_exit(a, 800, true, at + 51);
	evsums_signal(a, 800, 1, SIGCHLD, 0, at + 52);
	evsums_switch(a, 800, 0x10, at + 53);
}

/* Both lives' rows: the newest the pid's task, the older its past life. */
static void check_lives(const struct model *m, struct counting *ft)
{
	const struct task *b = model_task_find(m, 800), *a = model_past_find(m, 800);
	struct counting_stats st;

	if (!CHECK(a && b))
		return;
	CHECK(!a->older);
	CHECK_STR(a->comm, "life-a");
	CHECK_STR(b->comm, "life-b");
	CHECK(a->state == 'X' && b->state == 'X');
	CHECK(a->seen_tick == m->tick && b->seen_tick == m->tick);
	CHECK_EQ_U64(a->delta[CNT_SYSCALLS], 4);
	CHECK_EQ_U64(b->delta[CNT_SYSCALLS], 6);
	CHECK_EQ_U64(calls_of(a, SYS_getppid), 3);
	CHECK_EQ_U64(calls_of(b, SYS_getppid), 5);
	CHECK_EQ_U64(a->delta[CNT_SIGSENT], 1);
	CHECK_EQ_U64(b->delta[CNT_SIGSENT], 1);
	CHECK_EQ_U64(a->delta[CNT_VCSW], 1);
	CHECK_EQ_U64(b->delta[CNT_VCSW], 1);
	counting_get_stats(ft, &st);
	CHECK_EQ_U64(st.lives_unsplit, 0);
}

/*
 * @order: which CPU was read first. 0: one CPU, in time order; 1: the new
 * life's, the old one's, the parent's; 2: the parent's, the new life's, the
 * old one's; 3: the old life's, the new one's, the parent's.
 */
static void reuse_in_interval(int order)
{
	struct counting *ft = counting_new_offline(-1);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = { { 1, 0, "init", true } };
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);
	switch (order) {
	case 0:
		life(a, 1, 100, "life-a", 3);
		life(a, 2, 100, "life-a", 3);
		life(a, 1, 200, "life-b", 5);
		life(a, 2, 200, "life-b", 5);
		break;
	case 1:
		life(a, 2, 200, "life-b", 5);
		life(a, 2, 100, "life-a", 3);
		life(a, 1, 100, "life-a", 3);
		life(a, 1, 200, "life-b", 5);
		break;
	case 2:
		life(a, 1, 100, "life-a", 3);
		life(a, 1, 200, "life-b", 5);
		life(a, 2, 200, "life-b", 5);
		life(a, 2, 100, "life-a", 3);
		break;
	default:
		life(a, 2, 100, "life-a", 3);
		life(a, 2, 200, "life-b", 5);
		life(a, 1, 100, "life-a", 3);
		life(a, 1, 200, "life-b", 5);
		break;
	}
	tick(&m, &s, ft, 2, p, 1);
	check_lives(&m, ft);
	/* Next tick: both rows were their last. */
	tick(&m, &s, ft, 3, p, 1);
	CHECK_EQ_I64(count(&m, 800, CNT_SYSCALLS), -2);
	CHECK(!model_past_find(&m, 800) || model_past_find(&m, 800)->seen_tick != m.tick);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

static void test_reuse_one_cpu(void)
{
	reuse_in_interval(0);
}

static void test_reuse_new_first(void)
{
	reuse_in_interval(1);
}

static void test_reuse_parent_first(void)
{
	reuse_in_interval(2);
}

static void test_reuse_old_first(void)
{
	reuse_in_interval(3);
}

/* The new life an interval after the old one's row X: a task of its own. */
static void test_reuse_next_interval(void)
{
	struct counting *ft = counting_new_offline(-1);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = { { 1, 0, "init", true } };
	const struct task *t;
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);
	life(a, 2, 100, "life-a", 3);
	life(a, 1, 100, "life-a", 3);
	tick(&m, &s, ft, 2, p, 1);
	t = model_task_find(&m, 800);
	CHECK(t && t->state == 'X' && !strcmp(t->comm, "life-a"));
	CHECK_EQ_I64(count(&m, 800, CNT_SYSCALLS), 4);
	/* Its calls first, its fork read after them. */
	life(a, 2, 300, "life-b", 5);
	life(a, 1, 300, "life-b", 5);
	tick(&m, &s, ft, 3, p, 1);
	t = model_task_find(&m, 800);
	CHECK(t && t->state == 'X' && !strcmp(t->comm, "life-b"));
	CHECK(t && t->made_tick == m.tick);
	CHECK_EQ_I64(count(&m, 800, CNT_SYSCALLS), 6);
	CHECK_EQ_U64(calls_of(t, SYS_getppid), 5);
	CHECK(!model_past_find(&m, 800));
	CHECK_EQ_U64(m.ntasks, 2);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

/*
 * Life B's first return and first calls on one CPU, its later calls and its
 * end on another, read first; life A's whole life on the first one.
 */
static void test_reuse_unsplit(void)
{
	struct counting *ft = counting_new_offline(-1);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = { { 1, 0, "init", true } };
	const struct task *pa, *pb;
	struct counting_stats st;
	uint64_t total;
	struct model m;
	struct sample s;
	int i;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);
	for (i = 0; i < 3; i++)
		evsums_sys_exit(a, 800, SYS_getppid, 1, 230 + (uint64_t)i);
	evsums_sys_noreturn(a, 800, SYS_exit_group, 250);
	evsums_exit(a, 800, true, 251);
	evsums_switch(a, 800, 0x10, 253);
	life(a, 1, 100, "life-a", 3);
	life(a, 2, 100, "life-a", 3);
	evsums_newtask(a, 1, 800, 0, "lives", 5, 200);
	evsums_sys_exit(a, 800, SYS_clone, 0, 210);
	evsums_rename(a, 800, "life-b", 6, 215);
	evsums_sys_exit(a, 800, SYS_getppid, 1, 220);
	evsums_sys_exit(a, 800, SYS_getppid, 1, 221);
	tick(&m, &s, ft, 2, p, 1);
	pa = model_past_find(&m, 800);
	if (CHECK(pa)) {
		CHECK(pa->state == 'X' && pa->seen_tick == m.tick);
		CHECK(!(pa->have_delta & (1u << CNT_SYSCALLS)));
	}
	total = m.ev_total[CNT_SYSCALLS];
	/* The new life's exit without its last switch (the old one took it): a tick late. */
	tick(&m, &s, ft, 3, p, 1);
	pb = model_task_find(&m, 800);
	if (CHECK(pb)) {
		CHECK(pb->state == 'X' && pb->seen_tick == m.tick);
		CHECK_STR(pb->comm, "life-b");
	}
	CHECK_EQ_I64(count(&m, 800, CNT_SYSCALLS), -1);
	/* The calls happened: the totals have them. */
	CHECK_EQ_U64(total + m.ev_total[CNT_SYSCALLS], 10);
	counting_get_stats(ft, &st);
	CHECK(st.lives_unsplit > 0);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

/*
 * One life whose fork is read after its calls (the parent's CPU last), a
 * process listed before whose thread alone has events, then its leader: one
 * row each, never a second life.
 */
static void test_one_life_each(void)
{
	struct counting *ft = counting_new_offline(-1);
	struct evsums *a = counting_acct(ft);
	struct proc p[] = { { 1, 0, "init", true }, { 500, 0, "srv", true } };
	struct counting_stats st;
	const struct task *t;
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 2);
	life(a, 2, 100, "short", 3);
	evsums_newtask(a, 500, 501, ACCT_CLONE_THREAD, "srv", 3, 90);
	evsums_sys_exit(a, 501, SYS_clone3, 0, 95);
	evsums_sys_exit(a, 501, SYS_read, 1, 96);
	life(a, 1, 100, "short", 3);
	tick(&m, &s, ft, 2, p, 2);
	t = model_task_find(&m, 800);
	CHECK(t && t->state == 'X' && !strcmp(t->comm, "short"));
	CHECK_EQ_I64(count(&m, 800, CNT_SYSCALLS), 4);
	CHECK_EQ_I64(count(&m, 500, CNT_SYSCALLS), 1);
	evsums_sys_exit(a, 500, SYS_write, 1, 400);
	evsums_sys_exit(a, 501, SYS_read, 1, 401);
	tick(&m, &s, ft, 3, p, 2);
	CHECK_EQ_I64(count(&m, 500, CNT_SYSCALLS), 2);
	CHECK(!model_past_find(&m, 800) && !model_past_find(&m, 500));
	t = model_task_find(&m, 500);
	CHECK(t && t->made_tick == 1);
	counting_get_stats(ft, &st);
	CHECK_EQ_U64(st.lives_unsplit, 0);
	sample_free(&s);
	model_free(&m);
	counting_stop(ft);
}

static const struct test tests[] = {
	{ "fold: a process's threads sum into its row; the totals are the rows'", test_threads_sum },
	{ "fold: a task /proc listed is named from the model, gone too: nothing unattributed",
	  test_listed_resolved_from_model },
	{ "fold: an exit read before the last switch: one row a tick later, whole",
	  test_exit_before_last_switch },
	{ "fold: -- CMD: a child's exec and exit read a tick before its fork: followed, one row X",
	  test_fork_read_late_focus },
	{ "fold: the same system-wide: one row X a tick later, with its parent",
	  test_fork_read_late },
	{ "fold: not root: another user's and a withheld interval count nothing, not in totals",
	  test_not_root },
	{ "fold: a pid reused in an interval, one CPU: two rows, each life's calls",
	  test_reuse_one_cpu },
	{ "fold: the same, the new life's CPU read first, the parent's last", test_reuse_new_first },
	{ "fold: the same, the parent's CPU read first, the old life's last",
	  test_reuse_parent_first },
	{ "fold: the same, the old life's CPU read first, the parent's last", test_reuse_old_first },
	{ "fold: a pid reused an interval later: the new life's row is its own",
	  test_reuse_next_interval },
	{ "fold: a fork read after its calls, a thread without its leader: no second life",
	  test_one_life_each },
	{ "fold: the new life's later calls read before both boundaries: two rows, unknown",
	  test_reuse_unsplit },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
