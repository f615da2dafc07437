// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/counting.c's fold: an interval's per-thread sums (acct) added to
 * the model's rows, as a tick does, with a collector that has no instance
 * (ftrace_new_offline) and events given as the decoder gives them:
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
 *   parent, X, whole: followed with a focus, named by its parent without.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "../../collectors/counting.h"
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

static void setup(struct model *m, struct sample *s, struct ftrace *ft)
{
	model_init(m, 100, 4);
	sample_init(s);
	m->event_counters = ftrace_event_counters(ft);
	m->events_uid = ftrace_only_uid(ft);
}

/* One tick as src/sources.c runs it, the events already given to the collector. */
static void tick(struct model *m, struct sample *s, struct ftrace *ft, int n_s,
		 const struct proc *p, size_t np)
{
	const pid_t *ids;
	size_t i;

	acct_order_life(ftrace_acct(ft));
	ftrace_cred_changes(ft, m, &ids);
	ftrace_follow(ft, m, &ids);
	fx_begin(s, n_s);
	model_apply(m, s);
	for (i = 0; i < np; i++)
		if (p[i].listed)
			fx_reading(s, p[i].pid, p[i].comm)->uid = p[i].uid;
	model_apply(m, s);
	ftrace_collect(ft, m, s, false);
	model_apply(m, s);
	ftrace_end_interval(ft);
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
	struct ftrace *ft = ftrace_new_offline(-1);
	struct acct *a = ftrace_acct(ft);
	struct proc p[] = { { 500, 0, "srv", true } };
	struct model m;
	struct sample s;
	int i;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);	/* the baseline */
	acct_newtask(a, 500, 501, ACCT_CLONE_THREAD, "srv", 3, 10);
	for (i = 0; i < 3; i++)
		acct_sys_exit(a, 500, SYS_read, i ? 1 : -2, 20 + (uint64_t)i);
	acct_sys_exit(a, 501, SYS_write, 1, 30);
	acct_sys_exit(a, 501, SYS_write, 1, 31);
	acct_switch(a, 501, 1, 40);
	tick(&m, &s, ft, 2, p, 1);
	CHECK_EQ_U64((uint64_t)count(&m, 500, CNT_SYSCALLS), 5);
	CHECK_EQ_U64((uint64_t)count(&m, 500, CNT_SYSERR), 1);
	CHECK_EQ_U64((uint64_t)count(&m, 500, CNT_VCSW), 1);
	CHECK(model_task_find(&m, 501) == NULL);
	CHECK_EQ_U64(m.ev_total[CNT_SYSCALLS], 5);
	CHECK_EQ_U64(m.ev_total[CNT_VCSW], 1);
	sample_free(&s);
	model_free(&m);
	ftrace_stop(ft);
}

static void test_listed_resolved_from_model(void)
{
	struct ftrace *ft = ftrace_new_offline(-1);
	struct acct *a = ftrace_acct(ft);
	struct proc p[] = { { GONE, 0, "sleep", true } };
	struct ftrace_stats st;
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);
	/* Killed: its last call, its signal, its exit and last switch; /proc no longer lists it. */
	acct_signal(a, 0, GONE, SIGTERM, 0);
	acct_sys_exit(a, GONE, SYS_pause, -4, 20);
	acct_exit(a, GONE, true, 30);
	acct_switch(a, GONE, 0x10, 40);
	p[0].listed = false;
	tick(&m, &s, ft, 2, p, 1);
	CHECK(model_task_find(&m, GONE) && model_task_find(&m, GONE)->state == 'X');
	CHECK_EQ_U64((uint64_t)count(&m, GONE, CNT_SYSCALLS), 1);
	CHECK_EQ_U64((uint64_t)count(&m, GONE, CNT_SIGRECV), 1);
	ftrace_get_stats(ft, &st);
	CHECK_EQ_U64(st.unattributed, 0);
	CHECK_EQ_U64(st.carried, 0);
	sample_free(&s);
	model_free(&m);
	ftrace_stop(ft);
}

static void test_exit_before_last_switch(void)
{
	struct ftrace *ft = ftrace_new_offline(-1);
	struct acct *a = ftrace_acct(ft);
	struct proc p[] = { { 1, 0, "init", true } };
	struct ftrace_stats st;
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 1);
	/* Born and gone: its CPU was read between its exit event and its last switch. */
	acct_newtask(a, 1, 700, 0, "true", 4, 10);
	acct_sys_exit(a, 700, SYS_read, 0, 20);
	acct_sys_noreturn(a, 700, SYS_exit_group, 25);
	acct_exit(a, 700, true, 30);
	tick(&m, &s, ft, 2, p, 1);
	CHECK_EQ_I64(count(&m, 700, CNT_SYSCALLS), -2);
	/* Then the SIGCHLD it sends and its last switch: one row, whole. */
	acct_signal(a, 700, 1, SIGCHLD, 0);
	acct_switch(a, 700, 0x10, 40);
	tick(&m, &s, ft, 3, p, 1);
	CHECK(model_task_find(&m, 700) && model_task_find(&m, 700)->state == 'X');
	CHECK_EQ_U64((uint64_t)count(&m, 700, CNT_SYSCALLS), 2);
	CHECK_EQ_U64((uint64_t)count(&m, 700, CNT_SIGSENT), 1);
	CHECK_EQ_U64((uint64_t)count(&m, 700, CNT_VCSW), 1);
	CHECK_EQ_U64(m.ev_total[CNT_SYSCALLS], 2);
	tick(&m, &s, ft, 4, p, 1);
	CHECK_EQ_I64(count(&m, 700, CNT_SYSCALLS), -2);
	ftrace_get_stats(ft, &st);
	CHECK_EQ_U64(st.held, 1);
	sample_free(&s);
	model_free(&m);
	ftrace_stop(ft);
}

/*
 * @focus: -- CMD (600 followed); else system-wide. 700's CPU was read after
 * its exec and exit, 600's before its fork of 700.
 */
static void fork_read_late(bool focus)
{
	struct ftrace *ft = ftrace_new_offline(-1);
	struct acct *a = ftrace_acct(ft);
	struct proc p[] = { { 600, 0, "sh", true } };
	const pid_t pin = 600, kid = GONE + 1;
	struct ftrace_stats st;
	const struct task *t;
	struct model m;
	struct sample s;

	setup(&m, &s, ft);
	if (focus) {
		model_set_focus(&m, &pin, 1);
		m.focus_follow = true;
	}
	tick(&m, &s, ft, 1, p, 1);
	acct_exec(a, kid, kid, "/bin/true", 9, 20);
	acct_sys_exit(a, kid, SYS_execve, 0, 21);
	acct_sys_exit(a, kid, SYS_brk, 0, 22);
	acct_sys_noreturn(a, kid, SYS_exit_group, 25);
	acct_exit(a, kid, true, 30);
	acct_switch(a, kid, 0x10, 31);
	tick(&m, &s, ft, 2, p, 1);
	CHECK_EQ_I64(count(&m, kid, CNT_SYSCALLS), -2);
	acct_newtask(a, 600, kid, 0, "sh", 2, 10);
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
	ftrace_get_stats(ft, &st);
	CHECK_EQ_U64(st.unparented, 1);
	sample_free(&s);
	model_free(&m);
	ftrace_stop(ft);
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
	struct ftrace *ft = ftrace_new_offline(1000);
	struct acct *a = ftrace_acct(ft);
	struct proc p[] = {
		{ 800, 1000, "mine", true }, { 801, 0, "roots", true }, { 802, 1000, "su", true },
	};
	struct model m;
	struct sample s;
	int i;

	setup(&m, &s, ft);
	tick(&m, &s, ft, 1, p, 3);
	for (i = 0; i < 3; i++) {
		acct_sys_exit(a, 800, SYS_getppid, 1, 10 + (uint64_t)i);
		acct_sys_exit(a, 801, SYS_getppid, 1, 20 + (uint64_t)i);
		acct_sys_exit(a, 802, SYS_getppid, 1, 30 + (uint64_t)i);
	}
	/* 802 becomes another user in the interval: whose were its calls? */
	acct_sys_exit(a, 802, SYS_setuid, 0, 40);
	tick(&m, &s, ft, 2, p, 3);
	CHECK_EQ_I64(count(&m, 800, CNT_SYSCALLS), 3);
	CHECK_EQ_I64(count(&m, 801, CNT_SYSCALLS), -1);
	CHECK_EQ_I64(count(&m, 802, CNT_SYSCALLS), -1);
	CHECK_EQ_U64(m.ev_total[CNT_SYSCALLS], 3);
	/* The next interval of the user's own is counted again. */
	acct_sys_exit(a, 802, SYS_getppid, 1, 50);
	tick(&m, &s, ft, 3, p, 3);
	CHECK_EQ_I64(count(&m, 802, CNT_SYSCALLS), 1);
	sample_free(&s);
	model_free(&m);
	ftrace_stop(ft);
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
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
