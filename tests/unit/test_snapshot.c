// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the snapshot data: model/vars.c (the variable catalog,
 * parsing of the sampled /proc files, snapshots, "only what changed"),
 * lib/evring.c (bounded rings) and model/fproc.c (a focused process's
 * events, samples and syscall table).
 */
#include <math.h>
#include <sys/syscall.h>

#include "../../lib/evring.h"
#include "../../model/fproc.h"
#include "../../model/model.h"
#include "../../collectors/focus/varsread.h"
#include "../../lib/util.h"
#include "test.h"

static const char stat_text[] =
	"4242 (my prog) S 1 4242 4200 0 -1 4194560 137 0 2 0 5 3 0 0 20 0 1 0 12345 "
	"2691072 308 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
static const char status_text[] =
	"Name:\tmy prog\nTgid:\t4242\nPid:\t4242\nUid:\t1000\t1000\t1000\t1000\n"
	"SigBlk:\t0000000000010000\nvoluntary_ctxt_switches:\t84\n"
	"nonvoluntary_ctxt_switches:\t3\n";
static const char meminfo_text[] =
	"MemTotal:       24684084 kB\nMemFree:        23155452 kB\nMemAvailable:   23000000 kB\n";
static const char vmstat_text[] =
	"nr_free_pages 5788863\npgpgin 5761521\npgpgout 3187824\npswpin 7\npswpout 9\n"
	"pgfault 90150755\npgmajfault 1234\n";

static void sample(struct var_sample *s, uint64_t at)
{
	memset(s, 0, sizeof(*s));
	varsread_parse(VS_STAT, stat_text, strlen(stat_text), s);
	s->read_ns[VS_STAT] = at;
	varsread_parse(VS_STATUS, status_text, strlen(status_text), s);
	s->read_ns[VS_STATUS] = at;
	varsread_parse(VS_MEMINFO, meminfo_text, strlen(meminfo_text), s);
	s->read_ns[VS_MEMINFO] = at;
	varsread_parse(VS_VMSTAT, vmstat_text, strlen(vmstat_text), s);
	s->read_ns[VS_VMSTAT] = at;
}

static void test_parse(void)
{
	struct var_sample s;
	char buf[64];

	sample(&s, 5);
	CHECK_EQ_I64(s.v[VAR_PID], 4242);
	CHECK_EQ_I64(s.v[VAR_PPID], 1);
	CHECK_EQ_I64(s.v[VAR_PGID], 4242);
	CHECK_EQ_I64(s.v[VAR_STATE], 'S');
	CHECK_EQ_I64(s.v[VAR_MINFLT], 137);
	CHECK_EQ_I64(s.v[VAR_MAJFLT], 2);
	CHECK_EQ_I64(s.v[VAR_THREADS], 1);
	CHECK_EQ_I64(s.v[VAR_RSS], 308);
	CHECK_EQ_I64(s.v[VAR_UID], 1000);
	CHECK_EQ_I64(s.v[VAR_VCSW], 84);
	CHECK_EQ_I64(s.v[VAR_IVCSW], 3);
	CHECK_EQ_I64(s.v[VAR_SIGBLK], 0x10000);
	CHECK_EQ_I64(s.v[VAR_MEMFREE], 23155452);
	CHECK_EQ_I64(s.v[VAR_MEMTOTAL], 24684084);
	CHECK_EQ_I64(s.v[VAR_PGFAULT], 90150755);
	CHECK_EQ_I64(s.v[VAR_PSWPOUT], 9);
	CHECK_STR(vars_format(VAR_STATE, s.v[VAR_STATE], buf, sizeof(buf)), "S");
	CHECK_STR(vars_format(VAR_MEMFREE, 12, buf, sizeof(buf)), "12 kB");
	CHECK_STR(vars_format(VAR_LASTSIG, 10, buf, sizeof(buf)), "SIGUSR1");
	CHECK_STR(vars_format(VAR_SW_IN, -1, buf, sizeof(buf)), "none seen yet");
	CHECK_STR(vars_format(VAR_SW_IN, 0, buf, sizeof(buf)), "0 (idle)");
	/* A truncated or empty file leaves its variables unknown, never zero. */
	memset(&s, 0, sizeof(s));
	varsread_parse(VS_STAT, stat_text, 10, &s);
	varsread_parse(VS_STATUS, "", 0, &s);
	CHECK_EQ_U64(s.have, 0);
}

static void test_snap_and_changes(void)
{
	struct var_sample s1, s2;
	struct var_snap a, b;
	struct kev e1, e2;

	sample(&s1, 1000);
	s2 = s1;
	s2.v[VAR_MINFLT] = 140;
	s2.v[VAR_MEMFREE] = 23000000;
	s2.read_ns[VS_STAT] = s2.read_ns[VS_MEMINFO] = 2000;
	memset(&e1, 0, sizeof(e1));
	e1.ts = 900;
	e1.tid = 4242;
	e1.last_out = 4242;
	e1.last_in = 0;
	e1.last_sig = 0;
	e2 = e1;
	e2.ts = 1900;
	e2.last_sig = 10;
	e2.tid = 4243;
	vars_snap(&e1, 4242, &s1, &a);
	vars_snap(&e2, 4242, &s2, &b);
	/* Exact ones are true at the event; sampled ones when they were read. */
	CHECK_EQ_U64(a.at_ns[VAR_TID], 900);
	CHECK_EQ_U64(a.at_ns[VAR_MINFLT], 1000);
	CHECK_EQ_U64(b.at_ns[VAR_MINFLT], 2000);
	CHECK_EQ_U64(b.at_ns[VAR_LASTSIG], 1900);
	CHECK_EQ_U64(vars_changed(&a, &b),
		     (1u << VAR_TID) | (1u << VAR_MINFLT) | (1u << VAR_MEMFREE) | (1u << VAR_LASTSIG));
	CHECK_EQ_U64(vars_changed(&a, &a), 0);
	/* Without a sample only the exact variables (and the pid) are known; */
	vars_snap(&e2, 4242, NULL, &b);
	CHECK(b.have & (1u << VAR_TID));
	CHECK(b.have & (1u << VAR_PID));
	CHECK(!(b.have & (1u << VAR_MINFLT)));
	/* what one side does not know has not "changed". */
	CHECK_EQ_U64(vars_changed(&a, &b), (1u << VAR_TID) | (1u << VAR_LASTSIG));
}

/* The snapshot view's data: computed once, again when its samples arrive or go. */
static void test_fproc_snapshot(void)
{
	struct fproc *fp = fproc_new(4242, 64);
	struct fsnap sn = { 0 };
	struct var_sample *vs;
	struct kev e;

	memset(&e, 0, sizeof(e));
	e.ts = 900;
	e.tid = 4242;
	fproc_push_event(fp, &e, 1);
	CHECK(fproc_snapshot(fp, 0, &sn));
	/* Its sample is taken after it: not yet. */
	CHECK(sn.valid && sn.seq == 0 && !sn.have_prev && !sn.have_sample);
	CHECK(!(sn.vars.have & (1u << VAR_MINFLT)));
	sample(fproc_sample_slot(fp, 1), 1000);
	CHECK(fproc_snapshot(fp, 0, &sn));
	CHECK(sn.have_sample && (sn.vars.have & (1u << VAR_MINFLT)));
	CHECK_EQ_U64(sn.changed, 0);

	e.ts = 1900;
	e.tid = 4243;
	fproc_push_event(fp, &e, 2);
	vs = fproc_sample_slot(fp, 2);
	sample(vs, 2000);
	vs->v[VAR_MINFLT] = 140;
	CHECK(fproc_snapshot(fp, 1, &sn));
	CHECK(sn.have_prev && sn.have_sample && sn.have_prev_sample);
	CHECK_EQ_U64(sn.changed, (1u << VAR_TID) | (1u << VAR_MINFLT));
	/* Nothing kept changed: the stored result is returned as it is. */
	sn.changed = 0;
	CHECK(fproc_snapshot(fp, 1, &sn));
	CHECK_EQ_U64(sn.changed, 0);
	/* Another event: computed again. */
	CHECK(fproc_snapshot(fp, 0, &sn));
	CHECK(sn.seq == 0 && !sn.have_prev);
	CHECK(!fproc_snapshot(fp, 7, &sn));	/* never pushed */
	CHECK(!sn.valid);
	fproc_free(fp);
}

static void test_ring(void)
{
	struct evring r;
	uint64_t i;
	int *p;

	evring_init(&r, sizeof(int), 100);
	CHECK(evring_at(&r, 0) == NULL);
	for (i = 0; i < 1000; i++) {
		p = evring_push(&r);
		*p = (int)i;
		/* Grows while filling, never past the bound. */
		CHECK(r.cap <= 100);
	}
	CHECK_EQ_U64(evring_count(&r), 100);
	CHECK_EQ_U64(r.first, 900);
	CHECK(evring_at(&r, 899) == NULL);
	CHECK(evring_at(&r, 1000) == NULL);
	for (i = 900; i < 1000; i++) {
		p = evring_at(&r, i);
		if (!CHECK(p && *p == (int)i))
			break;
	}
	CHECK_EQ_U64(evring_bytes(&r), 100 * sizeof(int));
	evring_free(&r);
	/* Entries survive growth. */
	evring_init(&r, sizeof(int), 1000);
	for (i = 0; i < 300; i++)
		*(int *)evring_push(&r) = (int)i * 3;
	for (i = 0; i < 300; i++)
		CHECK_EQ_I64(*(int *)evring_at(&r, i), (int64_t)i * 3);
	evring_free(&r);
}

static void test_fproc(void)
{
	struct fproc *fp = fproc_new(4242, 64);
	struct kev e, *k;
	struct var_sample *s;
	int i;

	memset(&e, 0, sizeof(e));
	/* Events before the tick's sample point at the sample taken next. */
	k = fproc_push_event(fp, &e, 1);
	CHECK_EQ_U64(k->sample, 0);
	CHECK_EQ_I64(k->last_in, -1);
	s = fproc_sample_slot(fp, 1);
	CHECK(s != NULL);
	/* Later in the same tick: that same sample. */
	k = fproc_push_event(fp, &e, 1);
	CHECK_EQ_U64(k->sample, 0);
	k = fproc_push_event(fp, &e, 2);
	CHECK_EQ_U64(k->sample, 1);
	/* The event ring is bounded, and so is the sample ring. */
	for (i = 0; i < 1000; i++) {
		fproc_push_event(fp, &e, 3 + (uint64_t)i);
		fproc_sample_slot(fp, 3 + (uint64_t)i);
	}
	CHECK_EQ_U64(evring_count(&fp->events), 64);
	CHECK(evring_count(&fp->samples) <= 64);

	/* Top errno: the most frequent, not the last. */
	for (i = 0; i < 5; i++)
		fproc_count_syscall(fp, SYS_openat, -2, true, 1000, true);
	fproc_count_syscall(fp, SYS_openat, -13, true, 3000, true);
	fproc_count_syscall(fp, SYS_openat, 3, true, 2000, true);
	fproc_count_syscall(fp, SYS_exit_group, 0, false, 0, false);
	CHECK_EQ_I64(fproc_top_errno(fp, SYS_openat), 2);
	CHECK_EQ_I64(fproc_top_errno(fp, SYS_read), 0);
	CHECK_EQ_U64(fp->calls_total, 8);
	CHECK_EQ_U64(fp->errors_total, 6);
	{
		const struct sc_stat *st = sctable_find(&fp->times, SYS_openat);

		if (CHECK(st)) {
			CHECK_EQ_U64(st->calls, 7);
			CHECK_EQ_U64(st->errors, 6);
			CHECK_EQ_U64(st->timed, 7);
			CHECK_EQ_U64(st->time_ns, 10000);
			CHECK_EQ_U64(st->max_ns, 3000);
		}
	}
	CHECK(fproc_bytes(fp) > 64 * sizeof(struct kev));
	fproc_free(fp);
}

static void test_fproc_tick(void)
{
	struct model m;
	struct fproc *fp;
	struct task *t;
	struct pid_stat st;
	double v;
	int tick;

	model_init(&m, 100, 4);
	fp = model_fproc_add(&m, 4242);
	CHECK(model_fproc_add(&m, 4242) == fp);
	for (tick = 1; tick <= 3; tick++) {
		model_begin_tick(&m, (uint64_t)tick * 1000000000ull, tick);
		memset(&st, 0, sizeof(st));
		st.pid = 4242;
		st.state = 'S';
		st.minflt = (uint64_t)tick * 10;
		memcpy(st.comm, "prog", 5);
		t = model_task_sample(&m, 4242, 4242, 7);
		model_task_set_stat(&m, t, &st);
		/* The counting path counted 1000 calls and an error; the focus instance saw one. */
		sctable_get(&t->sc, SYS_getppid)->calls += 1000;
		sctable_get(&t->sc, SYS_openat)->calls++;
		sctable_get(&t->sc, SYS_openat)->errors++;
		sctable_get(&t->sc, SYS_openat)->top_errno = 2;
		fproc_count_syscall(fp, SYS_getppid, 1, true, 500, true);
		if (tick == 2)
			m.lost_events = 7;
		model_end_tick(&m);
	}
	CHECK_STR(fp->comm, "prog");
	CHECK(!fp->exited);
	CHECK_EQ_U64(fp->hist_n, 3);
	CHECK(fproc_hist(fp, FR_MINFLT, 0, &v) && fabs(v - 10) < 1e-9);
	CHECK(!fproc_hist(fp, FR_MINFLT, 2, &v));	/* the first tick has no rate */
	/* Calls and errors: the rows' (the counting path); times: the focus instance's. */
	CHECK_EQ_U64(sctable_find(&fp->sc_total, SYS_getppid)->calls, 3000);
	CHECK_EQ_U64(sctable_find(&fp->sc_last, SYS_getppid)->calls, 1000);
	CHECK_EQ_U64(sctable_find(&fp->sc_total, SYS_openat)->errors, 3);
	CHECK_EQ_I64(fproc_top_errno(fp, SYS_openat), 2);
	CHECK_EQ_U64(sctable_find(&fp->times, SYS_getppid)->calls, 3);
	CHECK_EQ_U64(sctable_find(&fp->times, SYS_getppid)->time_ns, 1500);
	CHECK_EQ_U64(fp->sys_lost, 7);
	/* Gone from /proc: exited, the data kept. */
	model_begin_tick(&m, 4000000000ull, 4);
	model_end_tick(&m);
	CHECK(fp->exited);
	CHECK_EQ_U64(sctable_find(&fp->sc_total, SYS_getppid)->calls, 3000);
	model_fproc_remove(&m, 4242);
	CHECK(model_fproc_find(&m, 4242) == NULL);
	model_free(&m);
}

/* Threads mode: the process's calls are its threads' rows', and no other's. */
static void test_fproc_threads(void)
{
	struct model m;
	struct fproc *fp;
	struct pid_stat st;
	pid_t tids[3] = { 4242, 4243, 5000 };
	int i;

	model_init(&m, 100, 4);
	m.threads = true;
	fp = model_fproc_add(&m, 4242);
	model_begin_tick(&m, 1000000000ull, 1);
	for (i = 0; i < 3; i++) {
		struct task *t = model_task_sample(&m, tids[i], i < 2 ? 4242 : 5000, 7);

		memset(&st, 0, sizeof(st));
		st.pid = tids[i];
		st.state = 'R';
		model_task_set_stat(&m, t, &st);
		sctable_get(&t->sc, SYS_getppid)->calls += 10 * (uint64_t)(i + 1);
	}
	model_end_tick(&m);
	CHECK_EQ_U64(sctable_find(&fp->sc_total, SYS_getppid)->calls, 30);
	model_free(&m);
}

static const struct test tests[] = {
	{ "vars: /proc sources parsed into the catalog's variables", test_parse },
	{ "vars: exact and sampled values, what changed", test_snap_and_changes },
	{ "fproc: the snapshot at an event, computed once", test_fproc_snapshot },
	{ "evring: grows to its bound, then drops the oldest", test_ring },
	{ "fproc: events refer to their sample; syscall table, top errno", test_fproc },
	{ "fproc: identity, rate history, interval tables; exited keeps the data", test_fproc_tick },
	{ "fproc: threads mode sums the process's threads", test_fproc_threads },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
