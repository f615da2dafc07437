// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of collectors/exits/taskstats.c against the running kernel (root): children
 * that burn a known CPU time, fault known pages and do known I/O, then exit;
 * each record is compared with what wait4() says of the same child and with
 * its /proc/PID/stat read while it lived. Then a fork storm measures what the
 * drain handles and when the kernel starts dropping (ENOBUFS): a storm of
 * more children than the buffer holds records (about 4 s of forking on a
 * 2-CPU machine).
 *
 * Skipped, with the reason taskstats_open gives, where the socket cannot be opened
 * (not root, kernel without TASKSTATS, a container's namespaces).
 * TS_STORM=N sets the storm's children (default: from the buffer's size, 5000
 * under ASan).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../collectors/proc/procfs.h"
#include "../../collectors/exits/taskstats.h"
#include "test.h"

/*
 * Sanitized forks are 5 times slower: a storm that does not overrun the buffer.
 * Otherwise (0) the storm is sized from the buffer, one child per 1.6 kB of
 * it: a record takes 2.7 kB (16 MiB hold 6,154 of the storm's 10,240), so it
 * overruns; 20,000 whatever the buffer took minutes on a loaded machine.
 */
#if defined(__SANITIZE_ADDRESS__)
#define STORM_DEFAULT 5000
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STORM_DEFAULT 5000
#endif
#endif
#ifndef STORM_DEFAULT
#define STORM_DEFAULT 0
#endif

static char open_why[256];

static struct taskstats_listener *open_or_skip(void)
{
	struct taskstats_listener *t;

	if (taskstats_open(0, &t, open_why, sizeof(open_why))) {
		TEST_SKIP(open_why);
		return NULL;
	}
	return t;
}

static uint64_t ns_of(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* Drain (waiting in poll, 3 s at most) until the record of thread @tid is in @v: its index, or -1. */
static long wait_record(struct taskstats_listener *t, struct taskstats_vec *v, pid_t tid)
{
	struct pollfd p = { .fd = taskstats_fd(t), .events = POLLIN };
	uint64_t end = ns_of(CLOCK_MONOTONIC) + 3000000000ull;
	size_t i, from = 0;

	do {
		if (taskstats_drain(t, v, 0, NULL) < 0)
			return -1;
		for (i = from; i < v->n; i++)
			if (!v->v[i].group && v->v[i].tid == tid)
				return (long)i;
		from = v->n;
		poll(&p, 1, 100);
	} while (ns_of(CLOCK_MONOTONIC) < end);
	return -1;
}

static uint64_t proc_starttime(pid_t pid)
{
	char path[64], buf[1024];
	struct pid_stat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || procfs_parse_pid_stat(buf, (size_t)n, &st))
		return 0;
	return st.starttime;
}

static void my_comm(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/comm", "r");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

static void burn(uint64_t ns)
{
	uint64_t end = ns_of(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (ns_of(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

/* Fault @pages fresh pages in: one minor fault each. */
static void touch(size_t pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = pages ? mmap(NULL, pages * (size_t)pg, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
	size_t i;

	if (!pages)
		return;
	if (m == MAP_FAILED)
		_exit(90);
	for (i = 0; i < pages; i++)
		m[i * (size_t)pg] = 1;
}

/* Read 64 KiB of /dev/zero, write 32 KiB to /dev/null: I/O the record rounds to KiB. */
static void do_io(void)
{
	static char b[65536];
	int z = open("/dev/zero", O_RDONLY), n = open("/dev/null", O_WRONLY);

	if (z < 0 || n < 0 || read(z, b, sizeof(b)) != (ssize_t)sizeof(b) ||
	    write(n, b, 32768) != 32768)
		_exit(91);
	close(z);
	close(n);
}

struct spec {
	uint64_t burn_ns;
	size_t pages;
	uid_t uid;	/* (uid_t)-1: keep root's */
	int code;
};

struct outcome {
	pid_t pid;
	uint64_t starttime;	/* /proc/PID/stat, while it lived */
	int status;
	struct rusage ru;
	uint64_t span_ns;	/* from before the drain before its exit to after the one after */
};

/*
 * Run one child to @s and reap it. It waits on a pipe until its /proc/PID/stat
 * has been read, so the start time is the child's own.
 */
static bool run_child(const struct spec *s, struct outcome *o)
{
	int sync[2];
	char c;

	if (pipe(sync))
		return false;
	o->pid = fork();
	if (o->pid < 0)
		return false;
	if (!o->pid) {
		close(sync[1]);
		if (read(sync[0], &c, 1) != 1)
			_exit(92);
		if (s->uid != (uid_t)-1 &&
		    (setresgid(s->uid, s->uid, s->uid) || setresuid(s->uid, s->uid, s->uid)))
			_exit(93);
		burn(s->burn_ns);
		touch(s->pages);
		do_io();
		_exit(s->code);
	}
	close(sync[0]);
	o->starttime = proc_starttime(o->pid);
	c = 'x';
	if (write(sync[1], &c, 1) != 1)
		return false;
	close(sync[1]);
	return wait4(o->pid, &o->status, 0, &o->ru) == o->pid;
}

/* The checks every child's record passes; prints the differences it allows. */
static void check_record(const struct taskparse_exit *e, const struct spec *s, const struct outcome *o)
{
	uint64_t ru_cpu = tv_us(o->ru.ru_utime) + tv_us(o->ru.ru_stime);
	uint64_t ts_cpu = e->utime_us + e->stime_us, lo, hi;
	long hz = sysconf(_SC_CLK_TCK), tick_us = 1000000 / hz;
	uid_t uid = s->uid == (uid_t)-1 ? getuid() : s->uid;
	gid_t gid = s->uid == (uid_t)-1 ? getgid() : (gid_t)s->uid;
	char comm[64];

	my_comm(comm, sizeof(comm));
	CHECK_EQ_I64(e->tid, o->pid);
	CHECK_EQ_I64(e->tgid, o->pid);
	CHECK_EQ_I64(e->ppid, getpid());
	CHECK_EQ_U64(e->uid, uid);
	CHECK_EQ_U64(e->gid, gid);
	CHECK_STR(e->comm, comm);
	CHECK_EQ_U64(e->exit_code, (unsigned)o->status);
	CHECK(WIFEXITED(o->status) && WEXITSTATUS(o->status) == s->code);
	CHECK(!e->group);
	CHECK(e->group_dead);
	CHECK(e->ac_flag & TS_AFORK);	/* forked, never exec'd */

	/*
	 * CPU: each stretch the child ran is sampled to within a tick (the
	 * kernel's is at most a clock tick), so the samples are off by less than
	 * a tick per stretch; the runtime lags by less than one.
	 */
	CHECK_NEAR(ts_cpu, ru_cpu, (e->nvcsw + e->nivcsw + 1) * tick_us);
	if (e->run_ns)
		CHECK_NEAR(e->run_ns / 1000, ru_cpu, tick_us);
	CHECK(ru_cpu >= s->burn_ns / 1000);

	/* Faults are final when the record is made. */
	CHECK_EQ_U64(e->minflt, o->ru.ru_minflt);
	CHECK_EQ_U64(e->majflt, o->ru.ru_majflt);
	CHECK(e->minflt >= s->pages);

	/* The final schedule (and any block in exit_mm/exit_files) comes after the record. */
	CHECK(e->nvcsw <= (uint64_t)o->ru.ru_nvcsw && (uint64_t)o->ru.ru_nvcsw <= e->nvcsw + 5);
	/*
	 * Preemptions after it: each needs the CPU it ran after the record (the
	 * exit's own work, freeing its memory): on a busy machine one per
	 * 0.25 ms of it (the sanitizer build runs at nice 10 beside the test
	 * files: 12 in 3.2 ms seen), 5 more allowed as above.
	 */
	{
		uint64_t after_us = e->run_ns && ru_cpu > e->run_ns / 1000 ?
				    (uint64_t)ru_cpu - e->run_ns / 1000 : 0;

		CHECK(e->nivcsw <= (uint64_t)o->ru.ru_nivcsw &&
		      (uint64_t)o->ru.ru_nivcsw <= e->nivcsw + 5 + after_us / 250);
	}

	/* 64 KiB + the sync pipe's byte read, 32 KiB written: rounded down to KiB. */
	CHECK_EQ_U64(e->rchar, 65536);
	CHECK_EQ_U64(e->wchar, 32768);
	CHECK_EQ_U64(e->syscr, 0);	/* 2 calls: rounded down to 1024 too */

	/*
	 * The start: within the window, and the window no wider than the time
	 * between the drains either side of the exit, and the listener's 100 ms
	 * of slack (0.1 s + 2 ticks of rounding): on a quiet machine about 0.2 s;
	 * under load the child lives as long as the CPU it gets allows.
	 */
	CHECK(o->starttime > 0);
	if (CHECK(taskparse_start_window(e, hz, &lo, &hi))) {
		CHECK(lo <= o->starttime && o->starttime <= hi);
		CHECK(hi - lo <= o->span_ns * (uint64_t)hz / 1000000000u + (uint64_t)hz / 10 + 2);
		CHECK(taskparse_exit_is(e, o->pid, o->starttime, hz));
		CHECK(!taskparse_exit_is(e, o->pid, o->starttime + 200, hz));
	}
	/* btime: wall-clock seconds of the start. */
	CHECK_NEAR((double)e->btime, (double)(ns_of(CLOCK_REALTIME) / 1000000000u) -
		   (double)e->etime_us / 1e6, 2);

	printf("# pid %d v%u/%uB: cpu ts %" PRIu64 " us, run %" PRIu64 " us, wait4 %" PRIu64
	       " us; minflt %" PRIu64 "; nvcsw %" PRIu64 "/%ld nivcsw %" PRIu64
	       "/%ld (record/wait4); start %" PRIu64 " in [%" PRIu64 ", %" PRIu64 "]\n",
	       (int)o->pid, e->version, e->len, ts_cpu, e->run_ns / 1000, ru_cpu, e->minflt,
	       e->nvcsw, o->ru.ru_nvcsw, e->nivcsw, o->ru.ru_nivcsw, o->starttime, lo, hi);
}

static void test_children(void)
{
	static const struct spec specs[] = {
		{ 50000000, 100, (uid_t)-1, 7 },
		{ 50000000, 1000, (uid_t)-1, 0 },
		{ 20000000, 10, (uid_t)-1, 1 },
		{ 0, 0, (uid_t)-1, 3 },
		{ 50000000, 50, 65534, 5 },	/* another user: setresuid in the child */
	};
	/* Listening (the queue seen empty) since before this. */
	uint64_t t0 = ns_of(CLOCK_MONOTONIC);
	struct taskstats_listener *t = open_or_skip();
	struct taskstats_vec v = { 0 };
	struct outcome o;
	size_t i;
	long k;

	if (!t)
		return;
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		uint64_t t1;

		if (!CHECK(run_child(&specs[i], &o)))
			break;
		t1 = ns_of(CLOCK_MONOTONIC);
		k = wait_record(t, &v, o.pid);
		if (!CHECK(k >= 0))
			break;
		o.span_ns = ns_of(CLOCK_MONOTONIC) - t0;
		check_record(&v.v[k], &specs[i], &o);
		/* The next child's exit comes after this drain began. */
		t0 = t1;
	}
	taskstats_vec_free(&v);
	taskstats_close(t);
}

static void *thread_main(void *arg)
{
	(void)arg;
	burn(20000000);
	touch(200);
	return NULL;
}

/*
 * A process with two threads: one record per thread with the thread's own
 * counters, the last with group_dead, then the group record.
 */
static void test_threads(void)
{
	struct taskstats_listener *t = open_or_skip();
	struct taskstats_vec v = { 0 };
	uint64_t minflt = 0, run = 0, ru_cpu;
	struct rusage ru;
	pid_t pid;
	size_t i, nthreads = 0, ngroup = 0, ndead = 0;
	int status;
	long k;

	if (!t)
		return;
	pid = fork();
	if (!pid) {
		pthread_t a, b;

		if (pthread_create(&a, NULL, thread_main, NULL) ||
		    pthread_create(&b, NULL, thread_main, NULL))
			_exit(94);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		touch(100);
		_exit(0);
	}
	if (!CHECK(wait4(pid, &status, 0, &ru) == pid) || !CHECK(wait_record(t, &v, pid) >= 0))
		goto out;
	/* The group record is in the same message as the last thread's. */
	for (i = 0; i < v.n; i++) {
		const struct taskparse_exit *e = &v.v[i];

		if (e->tgid != pid)
			continue;
		if (e->group) {
			ngroup++;
			printf("# group record: v%u, minflt %" PRIu64 ", utime %" PRIu64
			       ", nvcsw %" PRIu64 ", run %" PRIu64 " us, comm \"%s\"\n",
			       e->version, e->minflt, e->utime_us, e->nvcsw, e->run_ns / 1000,
			       e->comm);
			continue;
		}
		nthreads++;
		minflt += e->minflt;
		run += e->run_ns;
		if (e->group_dead) {
			ndead++;
			CHECK_EQ_I64(e->tid, pid);	/* main joined its threads */
		}
	}
	CHECK_EQ_U64(nthreads, 3);
	CHECK_EQ_U64(ndead, 1);
	CHECK_EQ_U64(ngroup, 1);
	/* The threads' records add up to the process. */
	CHECK_EQ_U64(minflt, ru.ru_minflt);
	ru_cpu = tv_us(ru.ru_utime) + tv_us(ru.ru_stime);
	CHECK_NEAR(run / 1000, ru_cpu, 3 * 1000000 / sysconf(_SC_CLK_TCK));
	printf("# 3 threads: minflt sum %" PRIu64 " = wait4 %ld; run sum %" PRIu64
	       " us, wait4 %" PRIu64 " us\n", minflt, ru.ru_minflt, run / 1000, ru_cpu);
	(void)k;
out:
	taskstats_vec_free(&v);
	taskstats_close(t);
}

/* Without CAP_NET_ADMIN: refused, with the reason for the header. */
static void test_not_root(void)
{
	struct taskstats_listener *t = open_or_skip();
	char why[256] = "";
	int p[2], status;
	ssize_t n;
	pid_t pid;

	if (!t)
		return;
	taskstats_close(t);
	if (!CHECK(pipe(p) == 0))
		return;
	pid = fork();
	if (!pid) {
		struct taskstats_listener *u;
		int r;

		close(p[0]);
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(1);
		r = taskstats_open(0, &u, why, sizeof(why));
		if (write(p[1], why, strlen(why)) < 0)
			_exit(2);
		_exit(r == -EPERM ? 0 : 3);
	}
	close(p[1]);
	n = read(p[0], why, sizeof(why) - 1);
	close(p[0]);
	why[n > 0 ? n : 0] = '\0';
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_STR(why, "taskstats: needs root (CAP_NET_ADMIN)");
}

/* Fork @n children that exit at once, reaped in batches; drain every @every (0 = never). */
static void storm(size_t n, size_t every, struct taskstats_listener *t, struct taskstats_vec *v,
		  uint64_t *drain_ns)
{
	size_t i, batch = 0;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (!pid)
			_exit(0);
		if (pid < 0) {
			while (wait(NULL) > 0)
				;
			i--;
			continue;
		}
		if (++batch == 64) {
			while (batch && wait(NULL) > 0)
				batch--;
		}
		if (every && (i + 1) % every == 0) {
			uint64_t t0 = ns_of(CLOCK_MONOTONIC);

			taskstats_drain(t, v, 0, NULL);
			*drain_ns += ns_of(CLOCK_MONOTONIC) - t0;
		}
	}
	while (wait(NULL) > 0)
		;
}

static size_t count_mine(const struct taskstats_vec *v)
{
	size_t i, n = 0;

	for (i = 0; i < v->n; i++)
		n += !v->v[i].group && v->v[i].ppid == getpid();
	return n;
}

/*
 * A fork storm, twice. Undrained: how many records the buffer holds before the
 * kernel drops (ENOBUFS), and how fast one drain empties it. Drained every 64
 * forks: nothing lost.
 */
static void test_storm(void)
{
	const char *env = getenv("TS_STORM");
	size_t n = env ? strtoul(env, NULL, 10) : STORM_DEFAULT, left, got, first_left;
	struct taskstats_listener *t = open_or_skip();
	struct taskstats_counts c0, c1;
	struct taskstats_vec v = { 0 };
	uint64_t t0, cpu0, wall, cpu, drain_ns = 0, open_ns;
	int r;

	if (!t)
		return;
	taskstats_close(t);
	t0 = ns_of(CLOCK_MONOTONIC);
	if (taskstats_open(0, &t, open_why, sizeof(open_why))) {
		CHECK(0);
		return;
	}
	open_ns = ns_of(CLOCK_MONOTONIC) - t0;
	CHECK(open_ns < 100000000);	/* never waits */

	/* 1: nobody reads until the storm is over. */
	taskstats_drain(t, &v, 0, NULL);
	v.n = 0;
	taskstats_get_counts(t, &c0);
	if (!n)
		n = c0.rcvbuf / 2048 * 5 / 4;
	t0 = ns_of(CLOCK_MONOTONIC);
	if (n < 100)
		n = 100;
	storm(n, 0, t, &v, &drain_ns);
	wall = ns_of(CLOCK_MONOTONIC) - t0;
	printf("# storm of %zu forks: %.0f/s\n", n, n / (wall / 1e9));
	t0 = ns_of(CLOCK_MONOTONIC);
	cpu0 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	r = taskstats_drain(t, &v, 1000, &first_left);
	CHECK(r >= 0);
	do
		r = taskstats_drain(t, &v, 0, &left);
	while (r > 0 || left);
	wall = ns_of(CLOCK_MONOTONIC) - t0;
	cpu = ns_of(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	taskstats_get_counts(t, &c1);
	got = count_mine(&v);
	printf("# undrained: %zu of %zu records kept in %zu bytes of buffer, ENOBUFS %" PRIu64
	       ", drops %" PRIu64 "%s\n", got, n, c1.rcvbuf, c1.enobufs - c0.enobufs,
	       c1.drops - c0.drops, c1.drops_known ? "" : " (unknown)");
	if (got < n)
		printf("# the buffer was full at %zu records: %zu bytes each\n", got,
		       c1.rcvbuf / got);
	printf("# drain: %zu records in %.1f ms (%.1f ms CPU): %.0f records/s; after the first "
	       "1000 it said %zu left\n", v.n, wall / 1e6, cpu / 1e6, v.n / (wall / 1e9),
	       first_left);
	CHECK(got <= n);
	if (got < n) {
		CHECK(c1.enobufs > c0.enobufs);
		CHECK(!c1.drops_known || c1.drops - c0.drops >= n - got);
		CHECK(first_left > 0);
	}
	CHECK(c1.drops_known);

	/* 2: drained every 64 forks, as a poll loop would; a quarter of the children. */
	n /= 4;
	v.n = 0;
	taskstats_get_counts(t, &c0);
	drain_ns = 0;
	storm(n, 64, t, &v, &drain_ns);
	do
		r = taskstats_drain(t, &v, 0, &left);
	while (r > 0 || left);
	taskstats_get_counts(t, &c1);
	got = count_mine(&v);
	printf("# drained every 64 forks: %zu of %zu records, drops %" PRIu64
	       ", %.2f us of drain per record\n", got, n, c1.drops - c0.drops,
	       v.n ? drain_ns / 1e3 / v.n : 0.0);
	if (c1.drops == c0.drops)
		CHECK_EQ_U64(got, n);
	printf("# ts_open took %.2f ms\n", open_ns / 1e6);
	taskstats_vec_free(&v);
	taskstats_close(t);
}

/*
 * A small buffer overrun on purpose: every drop counted, and once the queue
 * has been emptied the kernel delivers again (it drops everything while
 * congested, until then).
 */
static void test_overrun(void)
{
	struct taskstats_listener *t = open_or_skip();
	struct taskstats_counts c0, c1;
	struct taskstats_vec v = { 0 };
	size_t n = 2000, got, left;
	uint64_t unused = 0;
	int r;

	if (!t)
		return;
	taskstats_close(t);
	if (!CHECK(taskstats_open(128 << 10, &t, open_why, sizeof(open_why)) == 0))
		return;
	taskstats_get_counts(t, &c0);
	storm(n, 0, t, &v, &unused);
	do
		r = taskstats_drain(t, &v, 100, &left);
	while (r > 0 || left);
	taskstats_get_counts(t, &c1);
	got = count_mine(&v);
	printf("# %zu bytes of buffer: %zu of %zu records, ENOBUFS %" PRIu64 ", drops %" PRIu64
	       "\n", c1.rcvbuf, got, n, c1.enobufs - c0.enobufs, c1.drops - c0.drops);
	CHECK(got < n);
	CHECK(c1.enobufs > c0.enobufs);
	CHECK(c1.drops_known && c1.drops - c0.drops >= n - got);
	CHECK(!c1.lost_unknown);
	/* Emptied: delivered again. Reaped children's records are queued (before exit_notify). */
	v.n = 0;
	storm(10, 0, t, &v, &unused);
	do
		r = taskstats_drain(t, &v, 0, &left);
	while (r > 0 || left);
	CHECK_EQ_U64(count_mine(&v), 10);
	taskstats_vec_free(&v);
	taskstats_close(t);
}

static const struct test tests[] = {
	{ "children", test_children },
	{ "threads", test_threads },
	{ "not_root", test_not_root },
	{ "storm", test_storm },
	{ "overrun", test_overrun },
};

int main(void)
{
	return run_tests(tests, sizeof(tests) / sizeof(tests[0]));
}
