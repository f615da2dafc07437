// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/focus/focus.c's attribution: which focused process (process view,
 * -p, -- CMD) an event of the focus instance counts to, and how a call's
 * entry and exit pair. A collector without an instance (focus_new_offline)
 * is given records as the decoder gives them (evrich_cursor_decode's
 * struct evrich_rec), in time order:
 * - a focused process's calls are paired and counted to it;
 * - its threads are its own, its children only when descendants are kept,
 *   and a child's first return (its creator's fork) is counted nowhere;
 * - a task no event introduced is the process /proc says, or nobody's;
 * - a switch between two focused processes is in both lists, each its side;
 * - a signal between two of them: the sender's list, the receiver's panel
 *   and list, once each; a sender the system-wide instance saw completes the
 *   delivery already listed;
 * - a call in progress at an exit is kept unfinished, before the exit;
 * - an unfocused process's tasks count to nobody any more.
 * The focused processes are this test and a child of it: both are the
 * user's, so that it runs as root and not.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../collectors/focus/evrich.h"
#include "../../collectors/focus/focus.h"
#include "../../lib/sctable.h"
#include "../../model/model.h"
#include "../../model/fproc.h"
#include "../../lib/util.h"
#include "test.h"

/* Beyond any pid_max: /proc has no such task, whatever runs on the machine. */
#define GONE 4190000
#define THREAD 4190001	/* a thread of the test, made by an event */
#define CHILD_A 4190002	/* a child of the test (descendants not kept) */
#define CHILD_B 4190003	/* a child of the child (descendants kept) */
#define CLONE_THREAD_FLAG 0x00010000ull

struct fixture {
	struct model m;
	struct focus *f;
	pid_t a, b;	/* the focused processes: this test, and its child */
	int pipe[2];	/* the child waits on it */
	uint64_t ts;
};

static void setup(struct fixture *x)
{
	char c;

	memset(x, 0, sizeof(*x));
	model_init(&x->m, 100, 4);
	x->f = focus_new_offline();
	x->a = getpid();
	if (pipe(x->pipe))
		abort();
	x->b = fork();
	if (!x->b) {
		close(x->pipe[1]);
		_exit((int)read(x->pipe[0], &c, 1));
	}
	close(x->pipe[0]);
	x->ts = 1000;
	CHECK_EQ_I64(focus_add(x->f, &x->m, x->a, false), 0);
	CHECK_EQ_I64(focus_add(x->f, &x->m, x->b, true), 0);
}

static void teardown(struct fixture *x)
{
	focus_free(x->f);
	model_free(&x->m);
	close(x->pipe[1]);
	waitpid(x->b, NULL, 0);
}

static struct fproc *fp_of(struct fixture *x, pid_t pid)
{
	return model_fproc_find(&x->m, pid);
}

/* Record @r of task @pid, the next in time. */
static void feed(struct fixture *x, enum rich_tp tp, pid_t pid, struct evrich_rec *r)
{
	r->tp = tp;
	r->pid = pid;
	r->ts = x->ts += 10;
	focus_feed(x->f, &x->m, 0, r);
}

static void sys_enter(struct fixture *x, pid_t tid, long nr, uint64_t arg0)
{
	struct evrich_rec r = { 0 };

	r.ev.kind = KEV_SYSCALL;
	r.ev.u.sc.nr = nr;
	r.ev.u.sc.args[0] = arg0;
	feed(x, RT_SYS_ENTER, tid, &r);
}

static void sys_exit(struct fixture *x, pid_t tid, long nr, int64_t ret)
{
	struct evrich_rec r = { 0 };

	r.ev.kind = KEV_SYSCALL;
	r.ev.u.sc.nr = nr;
	r.ev.u.sc.ret = ret;
	feed(x, RT_SYS_EXIT, tid, &r);
}

static void newtask(struct fixture *x, pid_t parent, pid_t child, uint64_t flags)
{
	struct evrich_rec r = { 0 };

	r.ev.kind = KEV_FORK;
	r.ev.u.fork.parent = parent;
	r.ev.u.fork.child = child;
	r.ev.u.fork.clone_flags = flags;
	snprintf(r.ev.u.fork.comm, sizeof(r.ev.u.fork.comm), "kid");
	feed(x, RT_NEWTASK, parent, &r);
}

/* Calls of syscall @nr counted to @fp (0 when none). */
static uint64_t calls(const struct fproc *fp, long nr)
{
	const struct sc_stat *s = fp ? sctable_find(&fp->times, sc_key(nr, false)) : NULL;

	return s ? s->calls : 0;
}

static const struct kev *last_event(const struct fproc *fp)
{
	return fp->events.pushed ? evring_at(&fp->events, fp->events.pushed - 1) : NULL;
}

/* The newest event's task and kind; -1 when the list is empty (a failed check, not a crash). */
static int64_t last_tid(const struct fproc *fp)
{
	return last_event(fp) ? last_event(fp)->tid : -1;
}

static int last_kind(const struct fproc *fp)
{
	return last_event(fp) ? last_event(fp)->kind : -1;
}

static void test_paired_call(void)
{
	struct fixture x;
	const struct kev *e;
	struct fproc *fa, *fb;

	setup(&x);
	fa = fp_of(&x, x.a);
	fb = fp_of(&x, x.b);
	CHECK(fa && fb);
	sys_enter(&x, x.a, SYS_read, 7);
	sys_exit(&x, x.a, SYS_read, 5);
	CHECK_EQ_U64(fa->events.pushed, 1);
	CHECK_EQ_U64(calls(fa, SYS_read), 1);
	CHECK_EQ_U64(fb->events.pushed, 0);
	e = last_event(fa);
	CHECK(e && e->kind == KEV_SYSCALL && e->tid == x.a);
	CHECK(e && e->u.sc.dur_ns == 10 && e->u.sc.args[0] == 7 && e->u.sc.ret == 5);
	CHECK(e && !(e->flags & (KEVF_NO_ENTER | KEVF_NO_EXIT)));
	/* An exit of another call than the one entered is not paired with it. */
	sys_enter(&x, x.a, SYS_read, 7);
	sys_exit(&x, x.a, SYS_write, 1);
	e = last_event(fa);
	CHECK(e && (e->flags & KEVF_NO_ENTER));
	CHECK_EQ_U64(calls(fa, SYS_write), 1);
	teardown(&x);
}

static void test_threads_and_children(void)
{
	struct fixture x;
	struct fproc *fa, *fb;

	setup(&x);
	fa = fp_of(&x, x.a);
	fb = fp_of(&x, x.b);
	/* A thread of the test's: its calls are the test's. */
	newtask(&x, x.a, THREAD, CLONE_THREAD_FLAG);
	CHECK_EQ_U64(fa->events.pushed, 1);
	CHECK_EQ_I64(last_kind(fa), KEV_FORK);
	sys_exit(&x, THREAD, SYS_clone, 0);	/* its first return: the creator's clone */
	CHECK_EQ_U64(calls(fa, SYS_clone), 0);
	sys_enter(&x, THREAD, SYS_write, 1);
	sys_exit(&x, THREAD, SYS_write, 3);
	CHECK_EQ_U64(calls(fa, SYS_write), 1);
	CHECK_EQ_I64(last_tid(fa), THREAD);
	/* A child of the test's (descendants not kept): nobody's. */
	newtask(&x, x.a, CHILD_A, 0);
	sys_exit(&x, CHILD_A, SYS_getpid, 9);
	CHECK_EQ_U64(calls(fa, SYS_getpid), 0);
	CHECK_EQ_U64(calls(fb, SYS_getpid), 0);
	/* A child of the child's (descendants kept): the child's, its fork's return not counted. */
	newtask(&x, x.b, CHILD_B, 0);
	sys_exit(&x, CHILD_B, SYS_clone, 0);
	sys_exit(&x, CHILD_B, SYS_getpid, 9);
	CHECK_EQ_U64(calls(fb, SYS_getpid), 1);
	CHECK_EQ_U64(calls(fb, SYS_clone), 0);
	CHECK_EQ_U64(calls(fa, SYS_getpid), 0);
	teardown(&x);
}

static void *idle_thread(void *arg)
{
	int *fds = arg;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	char c;

	if (write(fds[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	if (read(fds[2], &c, 1) < 0)
		return NULL;
	return NULL;
}

static void test_task_from_proc(void)
{
	struct fixture x;
	struct fproc *fa;
	pthread_t th;
	int p1[2], p2[2], fds[3];
	pid_t tid = 0;

	setup(&x);
	fa = fp_of(&x, x.a);
	/* A thread made after the focus began whose creation no event told. */
	if (pipe(p1) || pipe(p2))
		abort();
	fds[0] = p1[0];
	fds[1] = p1[1];
	fds[2] = p2[0];
	CHECK_EQ_I64(pthread_create(&th, NULL, idle_thread, fds), 0);
	CHECK_EQ_I64(read(p1[0], &tid, sizeof(tid)), (int64_t)sizeof(tid));
	sys_exit(&x, tid, SYS_nanosleep, 0);
	CHECK_EQ_U64(calls(fa, SYS_nanosleep), 1);
	CHECK_EQ_I64(last_tid(fa), tid);
	/* One /proc does not know: nobody's. */
	sys_exit(&x, GONE, SYS_nanosleep, 0);
	CHECK_EQ_U64(calls(fa, SYS_nanosleep), 1);
	CHECK_EQ_U64(calls(fp_of(&x, x.b), SYS_nanosleep), 0);
	close(p2[1]);
	pthread_join(th, NULL);
	close(p1[0]);
	close(p1[1]);
	close(p2[0]);
	teardown(&x);
}

static void test_switch(void)
{
	struct fixture x;
	struct fproc *fa, *fb;
	struct evrich_rec r = { 0 };
	const struct kev *e;

	setup(&x);
	fa = fp_of(&x, x.a);
	fb = fp_of(&x, x.b);
	r.ev.kind = KEV_SWITCH;
	r.ev.u.sw.prev = x.a;
	r.ev.u.sw.next = x.b;
	r.ev.u.sw.prev_state = 1;
	feed(&x, RT_SWITCH, x.a, &r);
	e = last_event(fa);
	CHECK(e && e->kind == KEV_SWITCH && !(e->flags & KEVF_SWITCH_IN));
	CHECK_EQ_I64(last_tid(fa), x.a);
	e = last_event(fb);
	CHECK(e && e->kind == KEV_SWITCH && (e->flags & KEVF_SWITCH_IN));
	CHECK_EQ_I64(last_tid(fb), x.b);
	CHECK_EQ_I64(fa->last_out, x.a);
	CHECK_EQ_I64(fb->last_in, x.b);
	/* To a task of nobody's: the test's side only. */
	r.ev.u.sw.prev = x.a;
	r.ev.u.sw.next = GONE;
	feed(&x, RT_SWITCH, x.a, &r);
	CHECK_EQ_U64(fa->events.pushed, 2);
	CHECK_EQ_U64(fb->events.pushed, 1);
	CHECK_EQ_I64(fa->last_in, GONE);
	teardown(&x);
}

static void test_signals(void)
{
	struct fixture x;
	struct fproc *fa, *fb;
	struct evrich_rec r = { 0 };
	struct evsums_sig as = { 0 };
	const struct fsig *s;
	const struct kev *e;

	setup(&x);
	fa = fp_of(&x, x.a);
	fb = fp_of(&x, x.b);
	snprintf(fa->comm, sizeof(fa->comm), "sender");
	/* The test signals the child: its list, and the child's panel and list. */
	r.ev.kind = KEV_SIGGEN;
	r.ev.u.sig.sig = SIGUSR1;
	r.ev.u.sig.target = x.b;
	r.ev.u.sig.sender = x.a;
	feed(&x, RT_SIGGEN, x.a, &r);
	CHECK_EQ_U64(fa->events.pushed, 1);
	CHECK_EQ_U64(fb->events.pushed, 1);
	CHECK_EQ_U64(fa->sigs.pushed, 0);
	CHECK_EQ_U64(fb->sigs.pushed, 1);
	s = fb->sigs.pushed ? evring_at(&fb->sigs, 0) : NULL;
	CHECK(s && s->sig == SIGUSR1 && s->sender == x.a);
	CHECK_STR(s ? s->sender_comm : "", "sender");
	/* To itself: once in its list. */
	r.ev.u.sig.target = x.a;
	feed(&x, RT_SIGGEN, x.a, &r);
	CHECK_EQ_U64(fa->events.pushed, 2);
	CHECK_EQ_U64(fa->sigs.pushed, 1);
	/*
	 * A SIGTERM from a task outside the focus: its delivery is read first,
	 * then the system-wide instance names the sender, in the event too.
	 */
	memset(&r, 0, sizeof(r));
	r.ev.kind = KEV_SIGDELIVER;
	r.ev.u.sig.sig = SIGTERM;
	r.ev.u.sig.target = x.b;
	feed(&x, RT_SIGDELIVER, x.b, &r);
	e = last_event(fb);
	CHECK(e && e->kind == KEV_SIGDELIVER && e->u.sig.sender == 0);
	if (!e) {
		teardown(&x);
		return;
	}
	as.sender = GONE;
	as.target = x.b;
	as.sig = SIGTERM;
	snprintf(as.comm, sizeof(as.comm), "killer");
	focus_signal_seen(x.f, &x.m, &as);
	CHECK_EQ_I64(e->u.sig.sender, GONE);
	CHECK_STR(e->u.sig.comm, "killer");
	CHECK_EQ_U64(fb->sigs.pushed, 2);
	/* One the focus stream has, from a focused sender: not added twice. */
	as.sender = x.a;
	as.sig = SIGUSR1;
	focus_signal_seen(x.f, &x.m, &as);
	CHECK_EQ_U64(fb->sigs.pushed, 2);
	teardown(&x);
}

static void test_exit_in_call(void)
{
	struct fixture x;
	struct fproc *fa;
	struct evrich_rec r = { 0 };
	const struct kev *e;

	setup(&x);
	fa = fp_of(&x, x.a);
	newtask(&x, x.a, THREAD, CLONE_THREAD_FLAG);
	sys_enter(&x, THREAD, SYS_exit, 0);
	r.ev.kind = KEV_EXIT;
	r.ev.u.exit.pid = THREAD;
	feed(&x, RT_EXIT, THREAD, &r);
	CHECK_EQ_U64(fa->events.pushed, 3);
	e = fa->events.pushed == 3 ? evring_at(&fa->events, 1) : NULL;
	CHECK(e && e->kind == KEV_SYSCALL && (e->flags & KEVF_NO_EXIT));
	CHECK_EQ_I64(e ? e->tid : -1, THREAD);
	CHECK_EQ_U64(calls(fa, SYS_exit), 1);
	CHECK_EQ_I64(last_kind(fa), KEV_EXIT);
	teardown(&x);
}

static void test_unfocused(void)
{
	struct fixture x;
	struct fproc *fa;

	setup(&x);
	newtask(&x, x.b, CHILD_B, 0);
	focus_remove(x.f, &x.m, x.b);
	CHECK(!fp_of(&x, x.b));
	/* The child and its descendant are nobody's now; the test still counts. */
	sys_exit(&x, x.b, SYS_getpid, 1);
	sys_exit(&x, CHILD_B, SYS_getpid, 1);
	fa = fp_of(&x, x.a);
	CHECK(fa);
	CHECK_EQ_U64(calls(fa, SYS_getpid), 0);
	sys_exit(&x, x.a, SYS_getpid, 1);
	CHECK_EQ_U64(calls(fa, SYS_getpid), 1);
	teardown(&x);
}

static const struct test tests[] = {
	{ "focus: a focused process's call is paired and counted to it", test_paired_call },
	{ "focus: threads are their process's; children only with descendants kept",
	  test_threads_and_children },
	{ "focus: a task no event introduced is /proc's process, or nobody's", test_task_from_proc },
	{ "focus: a switch between two focused processes is in both lists", test_switch },
	{ "focus: a signal between focused processes; a sender seen system-wide completes it",
	  test_signals },
	{ "focus: a call in progress at an exit is kept unfinished, before the exit",
	  test_exit_in_call },
	{ "focus: an unfocused process's tasks count to nobody", test_unfocused },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
