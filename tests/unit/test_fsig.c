// SPDX-License-Identifier: GPL-2.0-only
/*
 * model/fproc.c's signals panel: which generation a delivery takes, as the
 * kernel dequeues (the thread's queue, then the process's; a standard signal
 * is queued once per queue, a real-time one in order). A shell's SIGCHLDs
 * were matched to the oldest pending entry: a stale one (taken without a
 * delivery seen) made every later delivery name the previous child.
 */
#include <signal.h>
#include <string.h>

#include "../../lib/evring.h"
#include "../../model/fproc.h"
#include "../../model/kev.h"
#include "../../lib/util.h"
#include "test.h"

#define PID 900
#define CLD_EXITED_CODE 1

static struct kev gen(int sig, int code, bool group, pid_t target, pid_t sender, int result,
		      uint64_t ts)
{
	struct kev e;

	memset(&e, 0, sizeof(e));
	e.kind = KEV_SIGGEN;
	e.ts = ts;
	e.u.sig.sig = sig;
	e.u.sig.code = code;
	e.u.sig.group = group;
	e.u.sig.target = target;
	e.u.sig.sender = sender;
	e.u.sig.result = result;
	return e;
}

static pid_t deliver(struct fproc *fp, int sig, int code, pid_t tid, uint64_t ts)
{
	struct kev e;

	memset(&e, 0, sizeof(e));
	e.kind = KEV_SIGDELIVER;
	e.ts = ts;
	e.u.sig.sig = sig;
	e.u.sig.code = code;
	e.u.sig.target = tid;
	e.u.sig.handler = 0x401000;	/* a handler */
	fproc_sig_delivered(fp, &e, tid);
	return e.u.sig.sender;
}

static struct fsig *entry(struct fproc *fp, size_t i)
{
	return evring_at(&fp->sigs, fp->sigs.first + i);
}

static void test_stale_pending(void)
{
	struct fproc *fp = fproc_new(PID, 64);
	struct kev e;

	/* Child 10's SIGCHLD, taken without a delivery seen; then child 20's. */
	e = gen(SIGCHLD, CLD_EXITED_CODE, true, PID, 10, 0, 100);
	fproc_sig_generated(fp, &e);
	e = gen(SIGCHLD, CLD_EXITED_CODE, true, PID, 20, 0, 200);
	fproc_sig_generated(fp, &e);
	CHECK_EQ_I64(deliver(fp, SIGCHLD, CLD_EXITED_CODE, PID, 210), 20);
	CHECK_EQ_I64(entry(fp, 0)->delivery, FSIG_TAKEN);
	CHECK_EQ_I64(entry(fp, 1)->delivery, FSIG_HANDLER);
	/* And the next child's: its own. */
	e = gen(SIGCHLD, CLD_EXITED_CODE, true, PID, 30, 0, 300);
	fproc_sig_generated(fp, &e);
	CHECK_EQ_I64(deliver(fp, SIGCHLD, CLD_EXITED_CODE, PID, 310), 30);
	CHECK_EQ_I64(evring_count(&fp->sigs), 3);
	fproc_free(fp);
}

static void test_merged(void)
{
	struct fproc *fp = fproc_new(PID, 64);
	struct kev e;

	e = gen(SIGCHLD, CLD_EXITED_CODE, true, PID, 10, 0, 100);
	fproc_sig_generated(fp, &e);
	/* Already pending (2): merged into the first, never delivered itself. */
	e = gen(SIGCHLD, CLD_EXITED_CODE, true, PID, 20, 2, 150);
	fproc_sig_generated(fp, &e);
	CHECK_EQ_I64(deliver(fp, SIGCHLD, CLD_EXITED_CODE, PID, 160), 10);
	CHECK_EQ_I64(entry(fp, 0)->delivery, FSIG_HANDLER);
	CHECK_EQ_I64(entry(fp, 1)->delivery, FSIG_PENDING);
	CHECK_EQ_I64(entry(fp, 1)->result, 2);
	fproc_free(fp);
}

static void test_realtime_in_order(void)
{
	struct fproc *fp = fproc_new(PID, 64);
	int rt = SIGRTMIN + 1;
	struct kev e;

	e = gen(rt, -1, true, PID, 10, 0, 100);
	fproc_sig_generated(fp, &e);
	e = gen(rt, -1, true, PID, 20, 0, 200);
	fproc_sig_generated(fp, &e);
	CHECK_EQ_I64(deliver(fp, rt, -1, PID, 300), 10);
	CHECK_EQ_I64(deliver(fp, rt, -1, PID, 310), 20);
	fproc_free(fp);
}

static void test_thread_queue_first(void)
{
	struct fproc *fp = fproc_new(PID, 64);
	struct kev e;

	e = gen(SIGUSR1, 0, true, PID, 10, 0, 100);	/* kill: the process's queue */
	fproc_sig_generated(fp, &e);
	e = gen(SIGUSR1, -6, false, PID + 7, 20, 0, 150);	/* tgkill: thread PID+7's */
	fproc_sig_generated(fp, &e);
	/* Another thread takes the process's; PID+7 its own first. */
	CHECK_EQ_I64(deliver(fp, SIGUSR1, -6, PID + 7, 160), 20);
	CHECK_EQ_I64(deliver(fp, SIGUSR1, 0, PID + 7, 170), 10);
	/* A delivery with no generation seen: an entry of its own, without a sender. */
	CHECK_EQ_I64(deliver(fp, SIGUSR2, 0, PID, 180), 0);
	CHECK_EQ_I64(evring_count(&fp->sigs), 3);
	CHECK_EQ_I64(entry(fp, 2)->result, -1);
	fproc_free(fp);
}

/* The delivery read before its generation (a drain: the child's CPU had no whole page yet). */
static void test_delivery_read_first(void)
{
	struct fproc *fp = fproc_new(PID, 64);
	struct kev e;

	CHECK_EQ_I64(deliver(fp, SIGCHLD, CLD_EXITED_CODE, PID, 210), 0);
	e = gen(SIGCHLD, CLD_EXITED_CODE, true, PID, 20, 0, 200);
	fproc_sig_generated(fp, &e);
	/* One entry, delivered, from 20, at its generation's time: not a second one pending. */
	CHECK_EQ_I64(evring_count(&fp->sigs), 1);
	CHECK_EQ_I64(entry(fp, 0)->sender, 20);
	CHECK_EQ_I64(entry(fp, 0)->delivery, FSIG_HANDLER);
	CHECK_EQ_I64(entry(fp, 0)->ts, 200);
	/* The next child's, in order: its own, nothing left pending to take. */
	e = gen(SIGCHLD, CLD_EXITED_CODE, true, PID, 30, 0, 300);
	fproc_sig_generated(fp, &e);
	CHECK_EQ_I64(deliver(fp, SIGCHLD, CLD_EXITED_CODE, PID, 310), 30);
	CHECK_EQ_I64(evring_count(&fp->sigs), 2);
	fproc_free(fp);
}

static const struct test tests[] = {
	{ "fsig: a standard signal queued again: the older was taken; the delivery is the newer's",
	  test_stale_pending },
	{ "fsig: one merged into a pending one (already pending) is not delivered itself", test_merged },
	{ "fsig: real-time signals delivered in the order queued", test_realtime_in_order },
	{ "fsig: the thread's queue before the process's; no generation, no sender",
	  test_thread_queue_first },
	{ "fsig: a delivery read before its generation: one entry, its sender learnt",
	  test_delivery_read_first },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
