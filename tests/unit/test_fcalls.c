// SPDX-License-Identifier: GPL-2.0-only
/*
 * The process view's calls in progress and thread table, model side
 * (model/fcalls.c, model/fthreads.c): how a call in progress is said, their
 * order, and each thread's state split into its history.
 */
#include <math.h>
#include <string.h>
#include <sys/syscall.h>

#include "../../model/fproc.h"
#include "../../tables/kevtext.h"
#include "../../lib/sctable.h"
#include "../../lib/util.h"
#include "test.h"

#define S_NS 1000000000ull

static struct fcall *call(struct fproc *fp, pid_t tid, long nr, enum fcall_arg arg,
			  uint64_t arg0, uint64_t since, bool before, const char *target)
{
	struct fcall *c = fproc_call_add(fp);

	c->tid = tid;
	c->nr = sc_key(nr, false);
	c->arg = (uint8_t)arg;
	c->arg0 = arg0;
	c->since_ns = since;
	c->before = before;
	snprintf(c->target, sizeof(c->target), "%s", target);
	return c;
}

static void test_call_text(void)
{
	struct fproc *fp = fproc_new(100, 64);
	char buf[256];

	fproc_calls_begin(fp, 100000 * S_NS);
	call(fp, 101, SYS_read, FA_FD, 3, 100000 * S_NS - 12400000000ull, false, "pipe:[812]");
	call(fp, 102, SYS_wait4, FA_PID, 77, 100000 * S_NS - 187 * S_NS, false, "");
	call(fp, 103, SYS_nanosleep, FA_NONE, 0x7ffd0000, 100000 * S_NS - 7500 * S_NS, true, "");
	call(fp, 104, SYS_futex, FA_ADDR, 0x55aa10, 100000 * S_NS - 2 * S_NS, false, "");
	/* A descriptor is an int: what the register held above it is not the fd. */
	call(fp, 105, SYS_read, FA_FD, 0xffffffff00000005ull, 100000 * S_NS - S_NS, false, "");
	fproc_calls_end(fp);
	if (!CHECK(fp->ncalls == 5))
		goto out;
	/* Oldest first. */
	CHECK(fp->calls[0].tid == 103);
	CHECK(fp->calls[1].tid == 102);
	CHECK(fp->calls[2].tid == 101);
	CHECK(fp->calls[3].tid == 104);
	CHECK(fp->calls[4].tid == 105);
	CHECK_STR(fcall_text(&fp->calls[2], fp->calls_ns, buf, sizeof(buf)),
		  "read on fd 3 (pipe:[812]) for 12.4 s");
	CHECK_STR(fcall_text(&fp->calls[1], fp->calls_ns, buf, sizeof(buf)), "wait4 for pid 77 for 3 min 07 s");
	/* Begun before the focus: its age is at least this. */
	CHECK_STR(fcall_text(&fp->calls[0], fp->calls_ns, buf, sizeof(buf)),
		  "nanosleep for more than 2 h 05 min");
	CHECK_STR(fcall_text(&fp->calls[3], fp->calls_ns, buf, sizeof(buf)), "futex on 0x55aa10 for 2.0 s");
	CHECK_STR(fcall_text(&fp->calls[4], fp->calls_ns, buf, sizeof(buf)), "read on fd 5 for 1.0 s");
	/* A new list replaces the last one. */
	fproc_calls_begin(fp, 100001 * S_NS);
	fproc_calls_end(fp);
	CHECK(fp->ncalls == 0);
out:
	fproc_free(fp);
}

/* One tick of the process's history (fproc_tick's part for the threads). */
static void tick(struct fproc *fp, double interval_s)
{
	fproc_threads_tick(fp, interval_s);
	fp->hist_pos = (fp->hist_pos + 1) % FPROC_HIST;
	if (fp->hist_n < FPROC_HIST)
		fp->hist_n++;
}

static struct fthread *thr(struct fproc *fp, pid_t tid)
{
	size_t i;

	for (i = 0; i < fp->nthr; i++)
		if (fp->thr[i].tid == tid)
			return &fp->thr[i];
	return NULL;
}

static void test_threads(void)
{
	struct fproc *fp = fproc_new(200, 64);
	const uint64_t busy[FS_NR] = { 300000000, 200000000, 0, 0 };
	const uint64_t asleep[FS_NR] = { 0, 0, 500000000, 0 };
	const uint64_t none[FS_NR] = { 0 };
	struct fthread *t;
	double v;
	int i;

	fproc_thread_put(fp, 200, "main", asleep, true, false);
	fproc_thread_put(fp, 201, "worker", busy, true, false);
	tick(fp, 0.5);
	t = thr(fp, 201);
	if (!CHECK(t))
		goto out;
	/* ns per s of the interval: 300 ms of 0.5 s on a CPU is 60%. */
	CHECK(fproc_thread_hist(fp, t, FS_ONCPU, 0, &v) && fabs(v - 6e8) < 1);
	CHECK(fproc_thread_hist(fp, t, FS_RUNQ, 0, &v) && fabs(v - 4e8) < 1);
	CHECK(fproc_thread_hist(fp, t, FS_SLEEP, 0, &v) && v == 0);
	CHECK_STR(t->comm, "worker");
	/* A thread that comes later has no history before it: not zeros. */
	fproc_thread_put(fp, 200, NULL, asleep, true, false);
	fproc_thread_put(fp, 201, NULL, busy, true, false);
	fproc_thread_put(fp, 202, "late", none, false, false);
	tick(fp, 0.5);
	t = thr(fp, 202);
	if (!CHECK(t))
		goto out;
	CHECK(!fproc_thread_hist(fp, t, FS_SLEEP, 0, &v));	/* its state not known */
	CHECK(!fproc_thread_hist(fp, t, FS_SLEEP, 1, &v));	/* before it was seen */
	CHECK_STR(thr(fp, 200)->comm, "main");			/* NULL keeps the name */
	CHECK(fproc_thread_hist(fp, thr(fp, 200), FS_SLEEP, 1, &v) && fabs(v - 1e9) < 1);
	/* Its last put says it exited; then it is not put and leaves after a few ticks. */
	fproc_thread_put(fp, 201, NULL, busy, true, true);
	tick(fp, 0.5);
	CHECK(thr(fp, 201) && thr(fp, 201)->exited);
	for (i = 0; i < 4; i++)
		tick(fp, 0.5);
	CHECK(!thr(fp, 201));
	CHECK(fp->nthr == 0);	/* none was put since: all gone */
out:
	fproc_free(fp);
}

static void test_threads_bound(void)
{
	struct fproc *fp = fproc_new(300, 64);
	const uint64_t ns[FS_NR] = { 1, 0, 0, 0 };
	int i;

	for (i = 0; i < FPROC_THREADS + 10; i++)
		fproc_thread_put(fp, 1000 + i, "t", ns, true, false);
	tick(fp, 1);
	CHECK(fp->nthr == FPROC_THREADS);
	CHECK(fp->threads_over == 10);
	fproc_free(fp);
}

/* A call that ends after the focus began from before it: a lower bound, said so. */
static void test_before_render(void)
{
	struct kev e;
	char buf[256];
	const char *name;
	char val[128];
	int i;

	memset(&e, 0, sizeof(e));
	e.kind = KEV_SYSCALL;
	e.u.sc.nr = SYS_read;
	e.u.sc.ret = 1;
	e.nargs = 3;
	e.u.sc.args[0] = 3;
	e.u.sc.dur_ns = 1500000000;
	e.flags = KEVF_BEFORE;
	CHECK(strstr(kevtext_render(&e, buf, sizeof(buf)), "= 1 <more than 1.500 s>") != NULL);
	for (i = 0; kevtext_field(&e, i, &name, val, sizeof(val)); i++)
		if (!strcmp(name, "duration"))
			CHECK(strstr(val, "at least") != NULL);
	e.flags = 0;
	CHECK(strstr(kevtext_render(&e, buf, sizeof(buf)), "= 1 <1.500 s>") != NULL);
}

static const struct test tests[] = {
	{ "call_text", test_call_text },
	{ "threads", test_threads },
	{ "threads_bound", test_threads_bound },
	{ "before_render", test_before_render },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
