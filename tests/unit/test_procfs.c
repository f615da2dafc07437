// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/proc/procfs.c against a fake /proc: a directory made with
 * mkdtemp holding "PID/stat", "PID/status" and "PID/task/TID/..." files that the
 * tests write and rewrite between ticks.
 *
 * Files are rewritten in place (O_TRUNC, same inode): the collector keeps its
 * descriptors open and re-reads them with pread, as it does on the real /proc.
 * A file replaced by rename would keep its old content behind the old descriptor.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* nftw */
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tables/columns.h"
#include "../../collectors/proc/fdcache.h"
#include "../../model/model.h"
#include "../../tables/rows.h"
#include "../../collectors/proc/procfs.h"
#include "../../lib/util.h"
#include "fixture.h"
#include "test.h"


/* A fake process or thread: what its stat and status files say. */
struct fp {
	pid_t pid, tgid;
	const char *comm;
	uint64_t utime, stime, minflt, majflt;
	uint64_t start, threads, rss;
	int processor;
	int64_t uid;		/* effective; the real one is uid + 1 */
	uint64_t vcsw, ivcsw;
};

static void write_file(const char *root, const char *rel, const char *data, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		perror(path);
		abort();
	}
	close(fd);
}

static void make_dir(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		abort();
	}
}

#define RUN_DELAY 1000003ull

/* "@rel/stat" for @p, in the kernel's format. */
static void write_stat(const char *root, const char *rel, const struct fp *p)
{
	char buf[512], name[256];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "%d (%s) S 1 %d %d 0 -1 4194560 %llu 0 %llu 0 %llu %llu 0 0 20 0 %llu 0 "
		     "%llu %llu %llu 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 %d 0 0 0 0 "
		     "0 0 0 0 0 0 0 0\n",
		     (int)p->pid, p->comm, (int)p->tgid, (int)p->tgid,
		     (unsigned long long)p->minflt, (unsigned long long)p->majflt,
		     (unsigned long long)p->utime, (unsigned long long)p->stime,
		     (unsigned long long)p->threads, (unsigned long long)p->start,
		     (unsigned long long)p->rss * 4096 * 3, (unsigned long long)p->rss,
		     p->processor);
	snprintf(name, sizeof(name), "%s/stat", rel);
	write_file(root, name, buf, (size_t)n);
}

/* "@rel/status" for @p; @pad bytes of other lines before the counters. */
static void write_status(const char *root, const char *rel, const struct fp *p, size_t pad)
{
	char head[512], tail[256], name[256];
	char *buf;
	int nh, nt;
	size_t i, len;

	nh = snprintf(head, sizeof(head),
		      "Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nNgid:\t0\n"
		      "Pid:\t%d\nPPid:\t1\nTracerPid:\t0\nUid:\t%lld\t%lld\t%lld\t%lld\n"
		      "Gid:\t0\t0\t0\t0\nFDSize:\t64\nThreads:\t%llu\n",
		      p->comm, (int)p->tgid, (int)p->pid, (long long)p->uid + 1,
		      (long long)p->uid, (long long)p->uid, (long long)p->uid,
		      (unsigned long long)p->threads);
	nt = snprintf(tail, sizeof(tail),
		      "voluntary_ctxt_switches:\t%llu\nnonvoluntary_ctxt_switches:\t%llu\n",
		      (unsigned long long)p->vcsw, (unsigned long long)p->ivcsw);
	len = (size_t)nh + pad + (size_t)nt;
	buf = xmalloc(len);
	memcpy(buf, head, (size_t)nh);
	for (i = 0; i < pad; i++)	/* "Pad:\txxxx...\n" lines */
		buf[nh + i] = i % 64 == 63 ? '\n' : i % 64 < 4 ? "Pad:"[i % 64] : 'x';
	if (pad)
		buf[nh + pad - 1] = '\n';
	memcpy(buf + nh + pad, tail, (size_t)nt);
	snprintf(name, sizeof(name), "%s/status", rel);
	write_file(root, name, buf, len);
	free(buf);
	/* schedstat: run time, run_delay (RUN_DELAY ns a voluntary switch here), timeslices. */
	nt = snprintf(tail, sizeof(tail), "%llu %llu %llu\n", (unsigned long long)p->utime * 10000000,
		      (unsigned long long)p->vcsw * RUN_DELAY, (unsigned long long)p->vcsw);
	snprintf(name, sizeof(name), "%s/schedstat", rel);
	write_file(root, name, tail, (size_t)nt);
}

static int rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	if (remove(path))
		perror(path);
	return 0;
}

static void rm_rf(const char *root, const char *rel)
{
	char path[512];

	if (rel)
		snprintf(path, sizeof(path), "%s/%s", root, rel);
	else
		snprintf(path, sizeof(path), "%s", root);
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void make_root(char *root, size_t n)
{
	snprintf(root, n, "/tmp/ktop-test-procfs-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		abort();
	}
	/* What a real /proc also has: names that are not pids. */
	make_dir(root, "self");
	make_dir(root, "12abc");
	write_file(root, "meminfo", "MemTotal: 1 kB\n", 15);
	write_file(root, "4294967296", "", 0);	/* numeric, too large for a pid */
}

/* A single-threaded process: "PID" with stat and status. */
static void write_proc(const char *root, const struct fp *p)
{
	char rel[32];

	snprintf(rel, sizeof(rel), "%d", (int)p->pid);
	make_dir(root, rel);
	write_stat(root, rel, p);
	write_status(root, rel, p, 0);
}

/* A thread: "TGID/task/TID" with stat and status. */
static void write_thread(const char *root, const struct fp *t)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "%d/task", (int)t->tgid);
	make_dir(root, rel);
	snprintf(rel, sizeof(rel), "%d/task/%d", (int)t->tgid, (int)t->pid);
	make_dir(root, rel);
	write_stat(root, rel, t);
	write_status(root, rel, t, 0);
}

static void tick_first(struct procfs *pc, struct model *m, double at_s, unsigned all,
		       unsigned wanted, unsigned first)
{
	struct procfs_need need = { .all = all, .wanted = wanted, .first = first };
	struct sample s;

	/* As the main loop does: the source fills a sample, the model applies it. */
	sample_init(&s);
	fx_begin(&s, at_s);
	model_apply(m, &s);
	procfs_collect(pc, m, &need, &s);
	s.end = true;
	model_apply(m, &s);
	sample_free(&s);
}

static void tick(struct procfs *pc, struct model *m, double at_s, unsigned all, unsigned wanted)
{
	tick_first(pc, m, at_s, all, wanted, 0);
}

static bool delta_is(const struct task *t, enum counter c, uint64_t want)
{
	uint64_t d;

	if (!task_delta(t, c, &d)) {
		printf("# counter %d of pid %d: no count\n", (int)c, (int)t->pid);
		return false;
	}
	if (d != want)
		printf("# counter %d of pid %d: %llu, want %llu\n", (int)c, (int)t->pid,
		       (unsigned long long)d, (unsigned long long)want);
	return d == want;
}

/*
 * The fake /proc of most tests: process 100 "multi" with threads 100 and 101,
 * process 200 "single" with one thread.
 */
static void setup_two(const char *root, struct fp *leader, struct fp *thr, struct fp *single)
{
	struct fp l = { 100, 100, "multi", 500, 100, 7000, 3, 1000, 2, 250, 1, 4242, 10, 2 };
	struct fp t = { 101, 100, "multi", 200, 50, 0, 0, 1000, 2, 250, 0, 4242, 5, 3 };
	struct fp s = { 200, 200, "single", 40, 4, 300, 0, 2000, 1, 100, 1, 1000, 70, 7 };

	*leader = l;
	*thr = t;
	*single = s;
	write_proc(root, leader);
	write_thread(root, leader);
	write_thread(root, thr);
	write_proc(root, single);
	write_thread(root, single);
}

/* Open the collector on @root and a model; on failure, remove @root and say so. */
static bool open_collector(const char *root, size_t budget, struct procfs **pc,
			   struct model *m)
{
	if (!CHECK_EQ_I64(procfs_new(root, budget, pc), 0)) {
		rm_rf(root, NULL);
		return false;
	}
	model_init(m, 100, 4);
	return true;
}

static void close_collector(const char *root, struct procfs *pc, struct model *m)
{
	procfs_free(pc);
	model_free(m);
	rm_rf(root, NULL);
}

static void test_procfs_new_errors(void)
{
	struct procfs *pc = NULL;

	CHECK_EQ_I64(procfs_new("/nonexistent-ktop-test-dir", 3, &pc), -ENOENT);
	CHECK_EQ_I64(procfs_new("/dev/null", 3, &pc), -ENOTDIR);
	procfs_free(NULL);
}

static void test_procfs_basic(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single;
	struct task *t;
	double v;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	/* Not processes: a pid directory without stat, one with a garbage stat. */
	make_dir(root, "300");
	make_dir(root, "400");
	write_file(root, "400/stat", "garbage\n", 8);

	if (!open_collector(root, 64, &pc, &m))
		return;
	CHECK(procfs_pid_exists(pc, 100));
	CHECK(procfs_pid_exists(pc, 300));
	CHECK(!procfs_pid_exists(pc, 999));
	CHECK(!procfs_pid_exists(pc, 0));
	CHECK(!procfs_pid_exists(pc, -1));

	tick(pc, &m, 1, NEED_STATUS | NEED_CMDLINE, 0);
	CHECK_EQ_U64(m.ntasks, 2);
	CHECK(model_task_find(&m, 300) == NULL);
	CHECK(model_task_find(&m, 400) == NULL);
	CHECK(model_task_find(&m, 101) == NULL);	/* process mode: no thread rows */

	t = model_task_find(&m, 100);
	if (CHECK(t)) {
		CHECK_STR(t->comm, "multi");
		CHECK_EQ_I64(t->tgid, 100);
		CHECK_EQ_U64(t->starttime, 1000);
		CHECK_EQ_U64(t->state, 'S');
		CHECK_EQ_U64(t->threads, 2);
		CHECK_EQ_U64(t->rss_kb, 250 * 4);
		CHECK_EQ_U64(t->vsize_kb, 250 * 4 * 3);
		CHECK_EQ_I64(t->processor, 1);
		CHECK_EQ_U64(t->cnt[CNT_UTIME], 500);
		CHECK_EQ_U64(t->cnt[CNT_MINFLT], 7000);
		/* Status: the effective uid (second Uid field), not the real one. */
		CHECK_EQ_I64(t->uid, 4242);
		CHECK(t->user != NULL);
		/* Context switches summed over the threads: leader 10 + thread 5. */
		CHECK(t->have & (1u << CNT_VCSW));
		CHECK_EQ_U64(t->cnt[CNT_VCSW], 15);
		CHECK_EQ_U64(t->cnt[CNT_IVCSW], 5);
		/* No cmdline file: nothing, no crash. */
		CHECK(t->cmdline == NULL);
		CHECK(!t->have_cpu);
		CHECK(!columns_num(&m, t, COL_VCSW, &v));
	}
	t = model_task_find(&m, 200);
	if (CHECK(t)) {
		CHECK_STR(t->comm, "single");
		CHECK_EQ_I64(t->uid, 1000);
		CHECK_EQ_U64(t->cnt[CNT_VCSW], 70);
		CHECK_EQ_U64(t->cnt[CNT_IVCSW], 7);
	}

	/* One second later: files rewritten in place. */
	leader.utime += 50;
	leader.minflt += 123;
	leader.vcsw += 4;
	leader.ivcsw += 1;
	thr.vcsw += 3;
	thr.ivcsw += 2;
	single.stime += 20;
	single.vcsw += 1;
	write_stat(root, "100", &leader);
	write_status(root, "100", &leader, 0);
	write_status(root, "100/task/100", &leader, 0);
	write_status(root, "100/task/101", &thr, 0);
	write_stat(root, "200", &single);
	write_status(root, "200", &single, 0);
	tick(pc, &m, 2, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 2);
	t = model_task_find(&m, 100);
	if (CHECK(t)) {
		CHECK(t->have_cpu);
		CHECK_NEAR(t->cpu_pct, 50.0, 1e-9);
		CHECK(delta_is(t, CNT_UTIME, 50));
		CHECK(delta_is(t, CNT_MINFLT, 123));
		CHECK(delta_is(t, CNT_VCSW, 7));
		CHECK(delta_is(t, CNT_IVCSW, 3));
		CHECK(columns_num(&m, t, COL_VCSW, &v));
		CHECK_NEAR(v, 7.0, 0);
	}
	t = model_task_find(&m, 200);
	if (CHECK(t)) {
		CHECK_NEAR(t->cpu_pct, 20.0, 1e-9);
		CHECK(delta_is(t, CNT_VCSW, 1));
		CHECK(delta_is(t, CNT_IVCSW, 0));
	}

	/* Process 200 exits: its directory disappears. */
	rm_rf(root, "200");
	tick(pc, &m, 3, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 1);
	CHECK(model_task_find(&m, 200) == NULL);
	CHECK(model_task_find(&m, 100) != NULL);
	CHECK(!procfs_pid_exists(pc, 200));

	/*
	 * And a new process appears. A complete scan did not list it last tick,
	 * so it was born within the interval: all it counted is its count.
	 */
	single.pid = single.tgid = 201;
	write_proc(root, &single);
	tick(pc, &m, 4, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 2);
	t = model_task_find(&m, 201);
	if (CHECK(t)) {
		CHECK_STR(t->comm, "single");
		CHECK(t->have_cpu);
		CHECK_NEAR(t->cpu_pct, 64.0, 1e-9);	/* (40 + 24) ticks in 1 s */
		CHECK(delta_is(t, CNT_MINFLT, 300));
		CHECK(delta_is(t, CNT_VCSW, 71));
	}
	/* The one that was there all along is not new. */
	t = model_task_find(&m, 100);
	if (CHECK(t))
		CHECK(delta_is(t, CNT_UTIME, 0));

	close_collector(root, pc, &m);
}

/* Threads come and go: the process counter never steps back. */
static void test_procfs_threads_come_and_go(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single, t2;
	struct task *t;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	if (!open_collector(root, 64, &pc, &m))
		return;
	tick(pc, &m, 1, NEED_STATUS, 0);

	/* Thread 101 exits; the leader switched 2 more times. */
	rm_rf(root, "100/task/101");
	leader.threads = 1;
	leader.vcsw += 2;
	write_stat(root, "100", &leader);
	write_status(root, "100", &leader, 0);
	tick(pc, &m, 2, NEED_STATUS, 0);
	t = model_task_find(&m, 100);
	if (CHECK(t)) {
		CHECK(delta_is(t, CNT_VCSW, 2));
		CHECK(delta_is(t, CNT_IVCSW, 0));
	}

	/* Thread 102 is born with 4 switches; the leader did 1 more. */
	t2 = thr;
	t2.pid = 102;
	t2.vcsw = 4;
	t2.ivcsw = 1;
	write_thread(root, &t2);
	leader.threads = 2;
	leader.vcsw += 1;
	write_stat(root, "100", &leader);
	write_status(root, "100", &leader, 0);
	tick(pc, &m, 3, NEED_STATUS, 0);
	t = model_task_find(&m, 100);
	if (CHECK(t)) {
		CHECK(delta_is(t, CNT_VCSW, 5));
		CHECK(delta_is(t, CNT_IVCSW, 1));
	}

	/* Nothing changes. */
	tick(pc, &m, 4, NEED_STATUS, 0);
	t = model_task_find(&m, 100);
	if (CHECK(t)) {
		CHECK(delta_is(t, CNT_VCSW, 0));
		CHECK(delta_is(t, CNT_IVCSW, 0));
	}
	close_collector(root, pc, &m);
}

/*
 * Untraced runq_ms: schedstat's run_delay summed over the threads, from their
 * deltas (a thread that exits takes its own; one born brings all of its).
 */
static void test_procfs_run_delay(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single, t2;
	struct task *t;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	if (!open_collector(root, 64, &pc, &m))
		return;
	tick(pc, &m, 1, NEED_SCHEDSTAT, 0);
	t = model_task_find(&m, 100);
	CHECK(t && !delta_is(t, CNT_RUNQ, 0));	/* one reading: no count yet */

	rm_rf(root, "100/task/101");
	leader.threads = 1;
	leader.vcsw += 2;
	write_stat(root, "100", &leader);
	write_status(root, "100", &leader, 0);
	single.vcsw += 7;
	write_status(root, "200", &single, 0);
	tick(pc, &m, 2, NEED_SCHEDSTAT, 0);
	t = model_task_find(&m, 100);
	CHECK(t && delta_is(t, CNT_RUNQ, 2 * RUN_DELAY));
	t = model_task_find(&m, 200);
	CHECK(t && delta_is(t, CNT_RUNQ, 7 * RUN_DELAY));

	t2 = thr;
	t2.pid = 102;
	t2.vcsw = 4;
	write_thread(root, &t2);
	leader.threads = 2;
	leader.vcsw += 1;
	write_stat(root, "100", &leader);
	write_status(root, "100", &leader, 0);
	tick(pc, &m, 3, NEED_SCHEDSTAT, 0);
	t = model_task_find(&m, 100);
	CHECK(t && delta_is(t, CNT_RUNQ, 5 * RUN_DELAY));
	close_collector(root, pc, &m);
}

/* Thread mode: one row per thread, each with its own counters. */
static void test_procfs_thread_mode(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single;
	struct task *t;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	if (!open_collector(root, 64, &pc, &m))
		return;
	procfs_set_threads(pc, true);
	m.threads = true;
	tick(pc, &m, 1, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 3);
	t = model_task_find(&m, 101);
	if (CHECK(t)) {
		CHECK_EQ_I64(t->tgid, 100);
		CHECK_EQ_U64(t->cnt[CNT_UTIME], 200);
		CHECK_EQ_U64(t->cnt[CNT_VCSW], 5);
	}
	t = model_task_find(&m, 100);
	if (CHECK(t)) {
		CHECK_EQ_I64(t->tgid, 100);
		CHECK_EQ_U64(t->cnt[CNT_VCSW], 10);	/* the leader's own, not summed */
	}
	CHECK(model_task_find(&m, 200) != NULL);

	thr.utime += 30;
	thr.vcsw += 6;
	write_stat(root, "100/task/101", &thr);
	write_status(root, "100/task/101", &thr, 0);
	tick(pc, &m, 2, NEED_STATUS, 0);
	t = model_task_find(&m, 101);
	if (CHECK(t)) {
		CHECK_NEAR(t->cpu_pct, 30.0, 1e-9);
		CHECK(delta_is(t, CNT_VCSW, 6));
	}
	t = model_task_find(&m, 100);
	if (CHECK(t))
		CHECK(delta_is(t, CNT_VCSW, 0));

	/* A thread exits: its row goes. */
	rm_rf(root, "100/task/101");
	tick(pc, &m, 3, NEED_STATUS, 0);
	CHECK(model_task_find(&m, 101) == NULL);
	CHECK_EQ_U64(m.ntasks, 2);

	close_collector(root, pc, &m);
}

/* No task (process or thread) has a CPU% in the tick after the mode switch. */
static size_t tasks_with_rates(const struct model *m)
{
	size_t i, n = 0;
	uint64_t d;

	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];

		if (t->have_cpu || task_delta(t, CNT_UTIME, &d)) {
			printf("# pid %d has a count: cpu %.1f%%\n", (int)t->pid, t->cpu_pct);
			n++;
		}
	}
	return n;
}

/*
 * Switching between processes and threads drops every entry (procfs.h) and the
 * model (model_clear): "rates restart from the next tick". The tasks listed
 * after the switch are not new, so their first tick has no counts; counting
 * their whole lifetime as one interval would show a CPU% of hundreds.
 */
static void test_procfs_toggle_threads(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single;
	struct task *t;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	if (!open_collector(root, 64, &pc, &m))
		return;
	tick(pc, &m, 1, NEED_STATUS, 0);
	tick(pc, &m, 2, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 2);

	/* To threads. */
	procfs_set_threads(pc, true);
	model_clear(&m);
	m.threads = true;
	tick(pc, &m, 3, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 3);
	CHECK_EQ_U64(tasks_with_rates(&m), 0);
	tick(pc, &m, 4, NEED_STATUS, 0);
	t = model_task_find(&m, 101);
	if (CHECK(t))
		CHECK(delta_is(t, CNT_UTIME, 0));

	/* Back to processes. */
	procfs_set_threads(pc, false);
	model_clear(&m);
	m.threads = false;
	tick(pc, &m, 5, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 2);
	CHECK_EQ_U64(tasks_with_rates(&m), 0);
	tick(pc, &m, 6, NEED_STATUS, 0);
	t = model_task_find(&m, 100);
	if (CHECK(t))
		CHECK(delta_is(t, CNT_UTIME, 0));
	close_collector(root, pc, &m);
}

/* Status and cmdline are read only when needed: all tasks, or the wanted rows. */
static void test_procfs_needs(void)
{
	static const char cmd[] = "/usr/bin/multi\0--flag\0";
	char root[64];
	struct procfs *pc = NULL;
	struct procfs_stats st;
	struct model m;
	struct rowset rs;
	struct fp leader, thr, single;
	struct task *t;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	write_file(root, "100/cmdline", cmd, sizeof(cmd) - 1);
	write_file(root, "200/cmdline", "", 0);	/* kernel threads and zombies */
	if (!open_collector(root, 64, &pc, &m))
		return;
	rowset_init(&rs);
	rs.sort_col = COL_PID;
	rs.sort_dir = SORT_ASC;

	/* Stat only: no status, so the uid is the directory's owner. */
	tick(pc, &m, 1, 0, NEED_STATUS | NEED_CMDLINE);
	procfs_get_stats(pc, &st);
	CHECK_EQ_U64(st.status_reads, 0);
	CHECK_EQ_U64(st.cmdline_reads, 0);
	CHECK_EQ_U64(st.stat_reads, 2);
	CHECK(st.scans >= 1);
	t = model_task_find(&m, 100);
	if (CHECK(t)) {
		CHECK_EQ_I64(t->uid, (int64_t)geteuid());
		CHECK(!(t->have & (1u << CNT_VCSW)));
		CHECK(t->cmdline == NULL);
	}

	/* The view shows row 0 (pid 100): from the next tick it is read. */
	rowset_refresh(&rs, &m);
	rowset_want(&rs, &m, 0, 1);
	tick(pc, &m, 2, 0, NEED_STATUS | NEED_CMDLINE);
	procfs_get_stats(pc, &st);
	CHECK(st.status_reads >= 1);
	CHECK_EQ_U64(st.cmdline_reads, 1);
	t = model_task_find(&m, 100);
	if (CHECK(t)) {
		CHECK_EQ_I64(t->uid, 4242);
		CHECK_EQ_U64(t->cnt[CNT_VCSW], 15);
		if (CHECK(t->cmdline != NULL)) {
			CHECK_EQ_U64(t->cmdline_len, sizeof(cmd) - 1);
			CHECK(memcmp(t->cmdline, cmd, sizeof(cmd) - 1) == 0);
		}
	}
	t = model_task_find(&m, 200);
	if (CHECK(t)) {
		CHECK(!(t->have & (1u << CNT_VCSW)));
		CHECK(t->cmdline == NULL);
	}

	/* Filtering on the command line read. */
	snprintf(rs.filter, sizeof(rs.filter), "%s", "MULTI --fl");
	rowset_refresh(&rs, &m);
	CHECK_EQ_U64(rs.nrows, 1);
	rs.filter[0] = '\0';

	/* For every task: the empty command line of 200 is read as empty. */
	tick(pc, &m, 3, NEED_STATUS | NEED_CMDLINE, 0);
	t = model_task_find(&m, 200);
	if (CHECK(t)) {
		CHECK(t->have & (1u << CNT_VCSW));
		CHECK_EQ_U64(t->cmdline_len, 0);
	}
	rowset_free(&rs);
	close_collector(root, pc, &m);
}

/* A recording's command lines: read once a process life, again under a new name (an exec). */
static void test_procfs_cmdline_first(void)
{
	static const char cmd[] = "/usr/bin/single\0-x\0";
	static const char cmd2[] = "/usr/bin/other\0";
	char root[64];
	struct procfs *pc = NULL;
	struct procfs_stats st;
	struct model m;
	struct fp leader, thr, single;
	const struct task *t;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	write_file(root, "100/cmdline", "", 0);
	write_file(root, "200/cmdline", cmd, sizeof(cmd) - 1);
	if (!open_collector(root, 64, &pc, &m))
		return;
	tick_first(pc, &m, 1, 0, 0, NEED_CMDLINE);
	tick_first(pc, &m, 2, 0, 0, NEED_CMDLINE);
	tick_first(pc, &m, 3, 0, 0, NEED_CMDLINE);
	procfs_get_stats(pc, &st);
	CHECK_EQ_U64(st.cmdline_reads, 2);	/* once each, not each tick */
	t = model_task_find(&m, 200);
	if (CHECK(t) && CHECK(t->cmdline))
		CHECK(t->cmdline_len == sizeof(cmd) - 1 && !memcmp(t->cmdline, cmd, sizeof(cmd) - 1));
	/* An exec: a new name, and the new command line read once more. */
	single.comm = "other";
	write_proc(root, &single);
	write_file(root, "200/cmdline", cmd2, sizeof(cmd2) - 1);
	tick_first(pc, &m, 4, 0, 0, NEED_CMDLINE);
	tick_first(pc, &m, 5, 0, 0, NEED_CMDLINE);
	procfs_get_stats(pc, &st);
	CHECK_EQ_U64(st.cmdline_reads, 3);
	t = model_task_find(&m, 200);
	if (CHECK(t) && CHECK(t->cmdline))
		CHECK(t->cmdline_len == sizeof(cmd2) - 1 && !memcmp(t->cmdline, cmd2, sizeof(cmd2) - 1));
	close_collector(root, pc, &m);
}

/* The cgroup: read once a process life, again after an exec; one copy per path. */
static void test_procfs_cgroup(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct procfs_stats st;
	struct model m;
	struct fp leader, thr, single;
	const pid_t exec_ids[] = { 200 };
	const struct task *a, *b;
	static const char web2[] = "1:name=systemd:/\n0::/system.slice/web.service\n";
	static const char web[] = "0::/system.slice/web.service\n";
	static const char docker[] = "0::/system.slice/docker-0123456789abcdef0123456789abcdef"
				     "0123456789abcdef0123456789abcdef.scope\n";

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	write_file(root, "100/cgroup", web2, sizeof(web2) - 1);
	write_file(root, "200/cgroup", web, sizeof(web) - 1);
	if (!open_collector(root, 64, &pc, &m))
		return;
	/* Not asked: not read, and shown as not known. */
	tick(pc, &m, 1, 0, 0);
	a = model_task_find(&m, 100);
	if (CHECK(a))
		CHECK(a->cgroup == NULL);
	tick(pc, &m, 2, NEED_CGROUP, 0);
	tick(pc, &m, 3, NEED_CGROUP, 0);
	procfs_get_stats(pc, &st);
	CHECK_EQ_U64(st.cgroup_reads, 2);
	a = model_task_find(&m, 100);
	b = model_task_find(&m, 200);
	if (CHECK(a && b && a->cgroup && b->cgroup)) {
		CHECK_STR(a->cgroup, "/system.slice/web.service");
		CHECK(a->cgroup == b->cgroup);
	}
	/* It moved and exec'd: read again, the other one not. */
	write_file(root, "200/cgroup", docker, sizeof(docker) - 1);
	procfs_recheck_owners(pc, exec_ids, ARRAY_SIZE(exec_ids));
	tick(pc, &m, 4, NEED_CGROUP, 0);
	procfs_get_stats(pc, &st);
	CHECK_EQ_U64(st.cgroup_reads, 3);
	b = model_task_find(&m, 200);
	if (CHECK(b && b->cgroup)) {
		char buf[128];

		CHECK_STR(columns_text(b, COL_CONTAINER, buf, sizeof(buf), 0), "docker:0123456789ab");
		CHECK_STR(columns_text(b, COL_UNIT, buf, sizeof(buf), 0),
			     "docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope");
	}
	close_collector(root, pc, &m);
}

/* A status file larger than the read buffer is read whole. */
static void test_procfs_big_status(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single;
	struct task *t;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	single.vcsw = 123456;
	write_status(root, "200", &single, 40000);
	if (!open_collector(root, 64, &pc, &m))
		return;
	tick(pc, &m, 1, NEED_STATUS, 0);
	t = model_task_find(&m, 200);
	if (CHECK(t)) {
		CHECK(t->have & (1u << CNT_VCSW));
		CHECK_EQ_U64(t->cnt[CNT_VCSW], 123456);
	}
	close_collector(root, pc, &m);
}

/* Same pid, new start time in its stat: a new process, no counts across. */
static void test_procfs_pid_reuse(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single;
	struct task *t;
	uint64_t d;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	if (!open_collector(root, 64, &pc, &m))
		return;
	tick(pc, &m, 1, NEED_STATUS, 0);
	single.start = 5000;
	single.comm = "reborn";
	single.utime = 1;
	write_stat(root, "200", &single);
	write_status(root, "200", &single, 0);
	tick(pc, &m, 2, NEED_STATUS, 0);
	t = model_task_find(&m, 200);
	if (CHECK(t)) {
		CHECK_STR(t->comm, "reborn");
		CHECK_EQ_U64(t->starttime, 5000);
		CHECK(!task_delta(t, CNT_UTIME, &d));
		CHECK(!t->have_cpu);
	}
	close_collector(root, pc, &m);
}

/* -p: only the focused pids are read, without a scan. */
static void test_procfs_focus(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single;
	const pid_t focus[] = { 200, 999 };

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	if (!open_collector(root, 64, &pc, &m))
		return;
	procfs_set_focus(pc, focus, ARRAY_SIZE(focus));
	tick(pc, &m, 1, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 1);
	CHECK(model_task_find(&m, 200) != NULL);
	CHECK(model_task_find(&m, 100) == NULL);
	tick(pc, &m, 2, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 1);
	/* A followed one joins, then leaves (it is not watched any more): not read. */
	procfs_focus_add(pc, 100);
	tick(pc, &m, 2.5, NEED_STATUS, 0);
	CHECK(model_task_find(&m, 100) != NULL);
	procfs_focus_remove(pc, 100);
	tick(pc, &m, 2.7, NEED_STATUS, 0);
	CHECK(model_task_find(&m, 100) == NULL);
	CHECK_EQ_U64(m.ntasks, 1);
	procfs_set_focus(pc, NULL, 0);
	tick(pc, &m, 3, NEED_STATUS, 0);
	CHECK_EQ_U64(m.ntasks, 2);
	close_collector(root, pc, &m);
}

/*
 * A descriptor budget far below the number of files: the least recently used
 * descriptors are closed and files reopened, and every process is still read
 * every tick, with fresh values.
 */
/*
 * The owner is read when a task is first seen, then only when its credentials
 * may have changed (an exec, a set*id call): procfs_recheck_owners.
 */
static void test_procfs_recheck_owner(void)
{
	char root[64], path[128];
	struct procfs *pc = NULL;
	struct model m;
	struct fp leader, thr, single;
	const pid_t ids[] = { 200, 999 };
	struct task *t;

	if (geteuid() != 0) {
		TEST_SKIP("giving a file to another user needs root");
		return;
	}
	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	if (!open_collector(root, 64, &pc, &m))
		return;
	tick(pc, &m, 1, 0, 0);
	snprintf(path, sizeof(path), "%s/200", root);
	CHECK(chown(path, 4343, (gid_t)-1) == 0);
	/* Not asked: the owner read at first sight stays. */
	tick(pc, &m, 2, 0, 0);
	t = model_task_find(&m, 200);
	if (CHECK(t))
		CHECK_EQ_I64(t->uid, (int64_t)geteuid());
	procfs_recheck_owners(pc, ids, ARRAY_SIZE(ids));
	tick(pc, &m, 3, 0, 0);
	t = model_task_find(&m, 200);
	if (CHECK(t))
		CHECK_EQ_I64(t->uid, 4343);
	t = model_task_find(&m, 100);
	if (CHECK(t))
		CHECK_EQ_I64(t->uid, (int64_t)geteuid());
	close_collector(root, pc, &m);
}

/* Fork events name the new processes: they are read without listing /proc. */
static void test_procfs_born_hint(void)
{
	char root[64];
	struct procfs *pc = NULL;
	struct procfs_stats st;
	struct model m;
	struct fp leader, thr, single;
	struct fp born = { 300, 300, "born", 1, 1, 50, 0, 3000, 1, 10, 0, 0, 1, 0 };
	struct fp hidden = { 400, 400, "hidden", 1, 1, 50, 0, 3000, 1, 10, 0, 0, 1, 0 };
	pid_t new_pid = 300;
	struct task *t;

	make_root(root, sizeof(root));
	setup_two(root, &leader, &thr, &single);
	if (!open_collector(root, 64, &pc, &m))
		return;
	tick(pc, &m, 1, 0, 0);
	CHECK_EQ_U64(m.ntasks, 2);
	/* 300 was forked (the events say so); 400 appears with no event: not seen. */
	write_proc(root, &born);
	write_proc(root, &hidden);
	procfs_hint_born(pc, &new_pid, 1);
	tick(pc, &m, 2, 0, 0);
	procfs_get_stats(pc, &st);
	CHECK_EQ_U64(st.event_scans, 1);
	CHECK_EQ_U64(st.scans, 1);
	t = model_task_find(&m, 300);
	/* Born in the interval: its faults so far are all in it. */
	if (CHECK(t))
		CHECK(delta_is(t, CNT_MINFLT, 50));
	CHECK(model_task_find(&m, 400) == NULL);
	CHECK(model_task_find(&m, 100) != NULL);
	/* Without a hint the listing is back (the fake has no loadavg last_pid). */
	tick(pc, &m, 3, 0, 0);
	procfs_get_stats(pc, &st);
	CHECK_EQ_U64(st.scans, 2);
	CHECK(model_task_find(&m, 400) != NULL);
	close_collector(root, pc, &m);
}

static void test_procfs_lru_budget(void)
{
	enum { NPROC = 10 };
	char root[64];
	struct procfs *pc = NULL;
	struct procfs_stats st;
	struct model m;
	struct fp p[NPROC];
	int i, k;

	make_root(root, sizeof(root));
	for (i = 0; i < NPROC; i++) {
		struct fp f = { 1001 + i, 1001 + i, "lru", 100, 0, 1000, 0, 500, 1, 10, 0, 1000,
				50, 5 };

		p[i] = f;
		write_proc(root, &p[i]);
	}
	if (!open_collector(root, 3, &pc, &m))
		return;
	for (k = 1; k <= 5; k++) {
		size_t present = 0, fresh = 0;

		tick(pc, &m, k, NEED_STATUS, 0);
		for (i = 0; i < NPROC; i++) {
			struct task *t = model_task_find(&m, p[i].pid);
			uint64_t d;

			if (!t)
				continue;
			present++;
			/* Each tick process i used i ticks and switched i + 1 times. */
			if (k == 1 ||
			    (task_delta(t, CNT_UTIME, &d) && d == (uint64_t)i &&
			     task_delta(t, CNT_VCSW, &d) && d == (uint64_t)i + 1 &&
			     t->cnt[CNT_MINFLT] == p[i].minflt))
				fresh++;
		}
		if (!CHECK_EQ_U64(present, NPROC) || !CHECK_EQ_U64(fresh, NPROC))
			printf("#   at tick %d\n", k);
		procfs_get_stats(pc, &st);
		CHECK(st.nopen <= 3);
		CHECK_EQ_U64(st.budget, 3);
		for (i = 0; i < NPROC; i++) {
			p[i].utime += (uint64_t)i;
			p[i].vcsw += (uint64_t)i + 1;
			p[i].minflt += 7;
		}
		for (i = 0; i < NPROC; i++) {
			char rel[16];

			snprintf(rel, sizeof(rel), "%d", (int)p[i].pid);
			write_stat(root, rel, &p[i]);
			write_status(root, rel, &p[i], 0);
		}
	}
	procfs_get_stats(pc, &st);
	CHECK(st.evictions > 0);
	CHECK(st.opens > 2 * NPROC);
	CHECK_EQ_U64(st.stat_reads, 5 * NPROC);
	close_collector(root, pc, &m);
}

static const struct test tests[] = {
	{ "untraced runq: schedstat run_delay summed over threads that come and go",
	  test_procfs_run_delay },
	{ "procfs_cgroup", test_procfs_cgroup },
	{ "procfs_new_errors", test_procfs_new_errors },
	{ "procfs_basic", test_procfs_basic },
	{ "procfs_threads_come_and_go", test_procfs_threads_come_and_go },
	{ "procfs_thread_mode", test_procfs_thread_mode },
	{ "procfs_toggle_threads", test_procfs_toggle_threads },
	{ "procfs_needs", test_procfs_needs },
	{ "procfs_cmdline_first", test_procfs_cmdline_first },
	{ "procfs_big_status", test_procfs_big_status },
	{ "procfs_pid_reuse", test_procfs_pid_reuse },
	{ "procfs_focus", test_procfs_focus },
	{ "procfs_born_hint", test_procfs_born_hint },
	{ "procfs_recheck_owner: read again when credentials may have changed",
	  test_procfs_recheck_owner },
	{ "procfs_lru_budget", test_procfs_lru_budget },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
