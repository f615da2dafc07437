// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the system-wide views' model code, with synthetic samples
 * applied as the sources apply them (model_apply):
 * - model/systotals.c: each syscall's, pair's and subsystem's counts are the
 *   sums of the rows' (the rows of processes that exited in the interval
 *   included), the totals the sums of the intervals, the baseline excluded;
 * - tables/groups.c: the sum of a group's rows is the group's row, in every
 *   column it sums, by command, user, cgroup, unit and container on fixture
 *   paths (systemd, docker, containerd, podman, kubepods);
 * - model/sigflow.c: flows and their bound (the other row keeps sums exact);
 * - tables/systable.c: the views' rows, filter, order, and the callers behind
 *   a row summing to it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tables/systable.h"
#include "../../tables/groups.h"
#include "../../model/model.h"
#include "../../lib/sctable.h"
#include "../../model/sigflow.h"
#include "../../model/systotals.h"
#include "../../lib/scnames.h"
#include "../../lib/util.h"
#include "fixture.h"
#include "test.h"


/* x86_64-independent: the tests name calls by number, their names do not matter. */
enum { NR_READ = 0, NR_OPENAT = 257, NR_GETPPID = 110, NR_FUTEX = 202 };

/* ---- a synthetic system ----------------------------------------------------- */

/* One process of the synthetic system, and what it does this interval. */
struct fake {
	pid_t pid;
	const char *comm, *user, *cgroup;
	int64_t uid;
	bool in_proc;		/* /proc lists it (else its events alone make its row) */
	bool exited;		/* its exit is seen this interval */
	uint64_t utime, minflt, rss;
	struct sctable sc;	/* the interval's calls, as acct counts them */
	struct sctable err;	/* and failures per (syscall, errno): sc_err_key */
	uint64_t sig_sent, sig_recv;
};

/* @n calls of @nr, @nerr of them failing with @err, as evsums_sys_exit counts them. */
static void calls(struct fake *f, uint32_t nr, uint64_t n, uint32_t err, uint64_t nerr)
{
	struct sc_stat *s = sctable_get(&f->sc, nr);

	s->calls += n;
	if (!nerr)
		return;
	s->errors += nerr;
	s->top_errno = err;
	sctable_get(&f->err, sc_err_key(nr, err))->errors += nerr;
}

/* One tick: the /proc readings, the events (rows, flows), the end; the fakes' tables emptied. */
static void tick(struct model *m, struct sample *s, double at, struct fake *f, size_t n,
		 const struct sig_flow *flows, size_t nflows)
{
	size_t i, k;

	fx_begin(s, at);
	for (i = 0; i < n; i++) {
		struct task_reading *r;

		if (!f[i].in_proc)
			continue;
		r = fx_reading(s, f[i].pid, f[i].comm);
		r->stat.rss = f[i].rss;
		r->stat.utime = f[i].utime;
		r->stat.minflt = f[i].minflt;
		r->uid = f[i].uid;
		r->user = f[i].user;
		r->cgroup = f[i].cgroup;
	}
	model_apply(m, s);
	for (i = 0; i < n; i++) {
		struct row_events *e;
		uint32_t j;

		if (!f[i].sc.used && !f[i].sig_sent && !f[i].sig_recv && !f[i].exited)
			continue;
		e = fx_row(s, f[i].pid, f[i].comm, f[i].exited);
		for (j = 0; j < f[i].sc.cap; j++) {
			const struct sc_stat *st = &f[i].sc.slots[j];

			if (st->nr == SC_EMPTY)
				continue;
			e->n[CNT_SYSCALLS] += st->calls;
			e->n[CNT_SYSERR] += st->errors;
		}
		e->n[CNT_SIGSENT] = f[i].sig_sent;
		e->n[CNT_SIGRECV] = f[i].sig_recv;
		e->sc = &f[i].sc;
		e->err = &f[i].err;
	}
	for (k = 0; k < nflows; k++)
		*sample_add_flow(s) = flows[k];
	s->end = true;
	model_apply(m, s);
	for (i = 0; i < n; i++) {
		sctable_clear(&f[i].sc);
		sctable_clear(&f[i].err);
		f[i].sig_sent = f[i].sig_recv = 0;
	}
}

static void setup(struct model *m, struct sample *s)
{
	model_init(m, 100, 4);
	sample_init(s);
	m->aggregate = true;
	m->event_counters = (1u << CNT_SYSCALLS) | (1u << CNT_SYSERR) | (1u << CNT_SIGSENT) |
			    (1u << CNT_SIGRECV);
}

static void teardown(struct model *m, struct sample *s, struct fake *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sctable_free(&f[i].sc);
		sctable_free(&f[i].err);
	}
	sample_free(s);
	model_free(m);
}

/* The sum over the model's counted rows of @nr's calls and errors, and how many made it. */
static void rows_sum(const struct model *m, uint32_t nr, uint64_t *calls_, uint64_t *errs,
		     uint32_t *procs)
{
	size_t i;

	*calls_ = *errs = 0;
	*procs = 0;
	for (i = 0; i < m->ntasks; i++) {
		const struct sc_stat *st;

		if (!systotals_counts(m, m->tasks[i]))
			continue;
		st = sctable_find(&m->tasks[i]->sc, nr);
		if (!st || !st->calls)
			continue;
		*calls_ += st->calls;
		*errs += st->errors;
		(*procs)++;
	}
}

static void test_sysagg_sums(void)
{
	struct fake f[] = {
		{ .pid = 100, .comm = "web", .in_proc = true },
		{ .pid = 200, .comm = "db", .in_proc = true },
		/* Born and gone between two /proc reads: its events are its row. */
		{ .pid = 300, .comm = "short", .in_proc = false, .exited = true },
	};
	struct model m;
	struct sample s;
	const struct systotals_sc *r;
	const struct systotals_err *e;
	uint64_t c, er, sum_calls = 0;
	uint32_t procs;
	size_t i;
	int sub;

	setup(&m, &s);
	/* The baseline: events before it are in no count. */
	calls(&f[0], NR_OPENAT, 1000, 2, 1000);
	tick(&m, &s, 1, f, 2, NULL, 0);
	CHECK(!m.agg.valid);
	CHECK_EQ_U64(m.agg.nsc, 0);

	calls(&f[0], NR_OPENAT, 50, 2, 30);	/* ENOENT */
	calls(&f[0], NR_OPENAT, 0, 13, 5);	/* EACCES */
	calls(&f[0], NR_READ, 70, 0, 0);
	calls(&f[1], NR_OPENAT, 7, 2, 7);
	calls(&f[1], NR_FUTEX, 400, 110, 9);	/* ETIMEDOUT */
	calls(&f[2], NR_OPENAT, 11, 2, 11);
	calls(&f[2], NR_GETPPID, 3, 0, 0);
	tick(&m, &s, 2, f, 3, NULL, 0);
	CHECK(m.agg.valid);
	CHECK_EQ_U64(m.agg.rows, 3);

	/* Each syscall: the sum of its rows (the exited one's included). */
	for (i = 0; i < m.agg.nsc; i++) {
		r = &m.agg.sc[i];
		rows_sum(&m, r->nr, &c, &er, &procs);
		CHECK_EQ_U64(r->calls, c);
		CHECK_EQ_U64(r->errors, er);
		CHECK_EQ_U64(r->procs, procs);
		CHECK_EQ_U64(r->calls_total, c);
		sum_calls += r->calls;
	}
	CHECK_EQ_U64(sum_calls, 50 + 70 + 7 + 400 + 11 + 3);
	CHECK_EQ_U64(m.agg.calls, sum_calls);
	r = systotals_find_sc(&m.agg, NR_OPENAT);
	if (!CHECK(r))
		return;
	CHECK_EQ_U64(r->calls, 68);
	CHECK_EQ_U64(r->errors, 53);
	CHECK_EQ_U64(r->procs, 3);
	CHECK_EQ_U64(r->top_errno, 2);

	/* Pairs: ENOENT from three rows, EACCES from one. */
	e = systotals_find_err(&m.agg, NR_OPENAT, 2);
	CHECK(e && e->n == 48 && e->procs == 3);
	e = systotals_find_err(&m.agg, NR_OPENAT, 13);
	CHECK(e && e->n == 5 && e->procs == 1);
	e = systotals_find_err(&m.agg, NR_FUTEX, 110);
	CHECK(e && e->n == 9 && e->total == 9);
	c = 0;
	for (i = 0; i < m.agg.nerr; i++)
		c += m.agg.err[i].n;
	CHECK_EQ_U64(c, m.agg.errors);

	/* Subsystems: the sums of their syscalls. */
	c = er = 0;
	for (sub = 0; sub < SUB_NR; sub++) {
		uint64_t sc = 0;

		for (i = 0; i < m.agg.nsc; i++)
			if ((int)m.agg.sc[i].sub == sub)
				sc += m.agg.sc[i].calls;
		CHECK_EQ_U64(m.agg.sub[sub].calls, sc);
		c += m.agg.sub[sub].calls;
	}
	CHECK_EQ_U64(c, m.agg.calls);
	CHECK_EQ_U64(m.agg.sub[syscall_subsystem(NR_FUTEX)].procs, 1);

	/* The next interval: totals are the running sums; the exited row is gone. */
	f[1].in_proc = true;
	calls(&f[0], NR_OPENAT, 10, 2, 10);
	tick(&m, &s, 3, f, 2, NULL, 0);
	r = systotals_find_sc(&m.agg, NR_OPENAT);
	CHECK(r && r->calls == 10 && r->calls_total == 78 && r->errors_total == 63);
	r = systotals_find_sc(&m.agg, NR_GETPPID);
	CHECK(r && r->calls == 0 && r->calls_total == 3 && r->procs == 0);
	e = systotals_find_err(&m.agg, NR_OPENAT, 2);
	CHECK(e && e->n == 10 && e->total == 58 && e->procs == 1);
	CHECK(!model_task_find(&m, 300));
	{
		double v;

		CHECK(systotals_hist(&m.agg, syscall_subsystem(NR_OPENAT), 0, &v));
		CHECK_NEAR(v, 10, 1e-9);
		CHECK(systotals_hist(&m.agg, syscall_subsystem(NR_OPENAT), 1, &v));
		CHECK_NEAR(v, 68 + 70, 1e-9);
		CHECK(!systotals_hist(&m.agg, syscall_subsystem(NR_OPENAT), 2, &v));
	}
	teardown(&m, &s, f, 3);
}

/* ---- groups ------------------------------------------------------------------ */

#define ID64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID64B "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static struct fake group_fakes[] = {
	{ .pid = 10, .comm = "nginx", .user = "www", .uid = 33, .in_proc = true, .rss = 100,
	  .cgroup = "/system.slice/nginx.service" },
	{ .pid = 11, .comm = "nginx", .user = "www", .uid = 33, .in_proc = true, .rss = 50,
	  .cgroup = "/system.slice/nginx.service" },
	{ .pid = 20, .comm = "postgres", .user = "pg", .uid = 70, .in_proc = true, .rss = 400,
	  .cgroup = "/system.slice/docker-" ID64 ".scope" },
	{ .pid = 21, .comm = "sh", .user = "root", .uid = 0, .in_proc = true, .rss = 3,
	  .cgroup = "/docker/" ID64 },
	{ .pid = 30, .comm = "redis", .user = "pg", .uid = 70, .in_proc = true, .rss = 30,
	  .cgroup = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
		    "8e2b6b5c_5d2a_4e5f_9a1b_1c2d3e4f5a6b.slice/cri-containerd-" ID64B ".scope" },
	{ .pid = 31, .comm = "app", .user = "root", .uid = 0, .in_proc = true, .rss = 9,
	  .cgroup = "/machine.slice/libpod-" ID64B ".scope/container" },
	{ .pid = 32, .comm = "pause", .user = "root", .uid = 0, .in_proc = true, .rss = 1,
	  .cgroup = "/kubepods/besteffort/pod8e2b6b5c-5d2a-4e5f-9a1b-1c2d3e4f5a6b/" ID64 },
	{ .pid = 40, .comm = "bash", .user = NULL, .uid = 1000, .in_proc = true, .rss = 5,
	  .cgroup = "/user.slice/user-1000.slice/session-4.scope" },
	/* Exited in the interval, never read: its group is not known, its counts are. */
	{ .pid = 50, .comm = "cc1", .in_proc = false, .exited = true },
};
#define NGF (sizeof(group_fakes) / sizeof(group_fakes[0]))

/* Every summed column: the group's value is the sum of its rows' values. */
static void check_group_sums(const struct model *m, const struct groups *g)
{
	size_t i, k, rows = 0;
	int c;

	for (i = 0; i < g->n; i++) {
		const struct group *gr = &g->v[i];
		uint32_t nrows = 0;

		if (gr->seen_tick != m->tick)
			continue;
		for (c = 0; c < COL_NR; c++) {
			double sum = 0, v, gv;
			uint32_t known = 0;

			if (!groups_col_sums(c))
				continue;
			nrows = 0;
			for (k = 0; k < m->ntasks; k++) {
				const struct task *t = m->tasks[k];
				char key[CGROUP_KEY_MAX];

				if (!groups_counts(m, t))
					continue;
				groups_task_key(m, g->by, t, key, sizeof(key));
				if (strcmp(key, gr->key))
					continue;
				nrows++;
				if (columns_num(m, t, (enum col_id)c, &v))
					sum += v, known++;
			}
			CHECK_EQ_U64(gr->known[c], known);
			if (known) {
				CHECK(group_num(gr, c, &gv));
				CHECK_NEAR(gv, sum, 1e-6);
			} else {
				CHECK(!group_num(gr, c, &gv));
			}
		}
		CHECK_EQ_U64(gr->rows, nrows);
		rows += nrows;
	}
	for (i = 0, k = 0; i < m->ntasks; i++)
		k += groups_counts(m, m->tasks[i]);
	CHECK_EQ_U64(rows, k);
}

static const struct group *find(const struct groups *g, const char *key)
{
	const struct group *gr = groups_find(g, key);

	if (!gr)
		printf("# no group %s\n", key);
	return gr;
}

static void test_groups(void)
{
	struct fake *f = group_fakes;
	struct model m;
	struct sample s;
	struct groups g;
	const struct group *gr;
	double v;
	int by;

	setup(&m, &s);
	groups_init(&g, CGROUP_BY_UNIT);
	tick(&m, &s, 1, f, NGF - 1, NULL, 0);
	groups_update(&g, &m);
	check_group_sums(&m, &g);

	f[0].utime = 50;
	f[1].utime = 25;
	f[0].minflt = 7;
	calls(&f[0], NR_READ, 100, 0, 0);
	calls(&f[1], NR_OPENAT, 20, 2, 20);
	calls(&f[2], NR_FUTEX, 3, 0, 0);
	calls(&f[8], NR_OPENAT, 44, 2, 1);
	f[0].sig_sent = 2;
	f[1].sig_recv = 2;
	tick(&m, &s, 2, f, NGF, NULL, 0);
	for (by = 0; by < CGROUP_BY__COUNT; by++) {
		groups_set_by(&g, (enum cgroup_group_by)by);
		g.tick = 0;
		groups_update(&g, &m);
		check_group_sums(&m, &g);
	}

	groups_set_by(&g, CGROUP_BY_UNIT);
	groups_update(&g, &m);
	gr = find(&g, "nginx.service");
	if (!CHECK(gr))
		goto out;
	CHECK_EQ_U64(gr->rows, 2);
	CHECK(group_num(gr, COL_SYSC, &v));
	CHECK_NEAR(v, 120, 0);
	CHECK(group_num(gr, COL_SYSERR, &v));
	CHECK_NEAR(v, 20, 0);
	CHECK(group_num(gr, COL_CPU, &v));
	CHECK_NEAR(v, 75, 1e-9);	/* 75 ticks of 100 Hz in one second */
	CHECK(group_num(gr, COL_RSS, &v));
	CHECK_NEAR(v, 600, 0);		/* 150 pages of 4 KiB */
	CHECK(group_num(gr, COL_SIGSENT, &v) && v == 2);
	CHECK(find(&g, "session-4.scope"));
	CHECK(find(&g, "docker-" ID64 ".scope"));
	gr = find(&g, GROUPS_EXITED_UNREAD);	/* the exited row: counted, named what it is */
	CHECK(gr && gr->rows == 1 && group_num(gr, COL_SYSC, &v) && v == 44);

	groups_set_by(&g, CGROUP_BY_CONTAINER);
	groups_update(&g, &m);
	gr = find(&g, "docker:0123456789ab");
	CHECK(gr && gr->rows == 2);	/* a systemd scope and a cgroupfs path, one id */
	CHECK(find(&g, "containerd:fedcba987654"));
	CHECK(find(&g, "podman:fedcba987654"));
	CHECK(find(&g, "kubepods:0123456789ab"));
	gr = find(&g, "-");
	CHECK(gr && gr->rows == 3);
	/* The process table's container column names it as the groups do, the id beside. */
	{
		const struct task *t = model_task_find(&m, 21);
		struct cg_name nm = { .container = "web-1" };
		char buf[64];

		if (CHECK(t && t->cgroup)) {
			CHECK_STR(columns_text_model(&m, t, COL_CONTAINER, buf, sizeof(buf), 0),
				  "docker:0123456789ab");
			cgnames_set(&m.names, t->cgroup, &nm);
			CHECK_STR(columns_text_model(&m, t, COL_CONTAINER, buf, sizeof(buf), 0), "web-1");
			CHECK_STR(columns_text_model(&m, t, COL_CONTAINER_ID, buf, sizeof(buf), 0),
				  "docker:0123456789ab");
			groups_set_by(&g, CGROUP_BY_CONTAINER);
			g.tick = 0;
			groups_update(&g, &m);
			CHECK(find(&g, "web-1"));
		}
		t = model_task_find(&m, 10);	/* the host: empty, not "-" */
		CHECK(t && !strcmp(columns_text_model(&m, t, COL_CONTAINER, buf, sizeof(buf), 0), ""));
		CHECK(t && !strcmp(columns_text_model(&m, t, COL_CONTAINER_ID, buf, sizeof(buf), 0), ""));
	}

	groups_set_by(&g, CGROUP_BY_USER);
	groups_update(&g, &m);
	CHECK(find(&g, "1000"));	/* no name: the uid */
	gr = find(&g, "pg");
	CHECK(gr && gr->rows == 2);

	/* Totals since first seen: the intervals' counts, summed. */
	calls(&f[2], NR_FUTEX, 5, 110, 5);
	tick(&m, &s, 3, f, NGF - 1, NULL, 0);
	groups_update(&g, &m);
	check_group_sums(&m, &g);
	gr = find(&g, "pg");
	CHECK(gr && gr->total[CNT_SYSCALLS] == 8 && gr->total[CNT_SYSERR] == 5);
	CHECK(gr && group_num(gr, COL_SYSC, &v) && v == 5);
	CHECK(!find(&g, "?") || find(&g, "?")->seen_tick != m.tick);
out:
	groups_free(&g);
	teardown(&m, &s, f, NGF);
}

/* ---- signals ------------------------------------------------------------------ */

static void test_sigflows(void)
{
	struct fake f[] = {
		{ .pid = 7, .comm = "sender", .in_proc = true },
		{ .pid = 8, .comm = "receiver", .in_proc = true },
	};
	struct sig_flow fl[] = {
		{ .sender = 7, .receiver = 8, .sig = SIGUSR1, .result = SIGRES_DELIVERED, .n = 5,
		  .sender_comm = "evname" },
		{ .sender = 0, .receiver = 8, .sig = SIGCHLD, .result = SIGRES_IGNORED, .n = 1 },
		{ .sender = -1, .receiver = -1, .n = 3 },	/* past the source's bound */
	};
	struct sigflows sf;
	struct sig_flow in = { .receiver = 1, .sig = SIGTERM, .n = 1 };
	const struct sigflow *r;
	struct model m;
	struct sample s;
	uint64_t total = 0;
	size_t i;

	setup(&m, &s);
	tick(&m, &s, 1, f, 2, fl, 3);	/* the baseline */
	CHECK_EQ_U64(m.sigflows.n, 0);
	tick(&m, &s, 2, f, 2, fl, 3);
	tick(&m, &s, 3, f, 2, fl, 1);
	r = sigflows_find(&m.sigflows, 7, 8, SIGUSR1, SIGRES_DELIVERED);
	CHECK(r && r->n == 5 && r->total == 10);
	CHECK(r && !strcmp(r->sender_comm, "sender"));	/* the row's name first */
	r = sigflows_find(&m.sigflows, 0, 8, SIGCHLD, SIGRES_IGNORED);
	CHECK(r && r->n == 0 && r->total == 1);
	CHECK_EQ_U64(m.sigflows.other.total, 3);
	CHECK_EQ_U64(m.sigflows.n_all, 5);
	CHECK_EQ_U64(m.sigflows.total_all, 14);
	teardown(&m, &s, f, 2);

	/* The bound: idle rows go to the other row, the sums stay exact. */
	sigflows_init(&sf);
	for (i = 0; i < SIGFLOW_MAX + 10; i++) {
		in.sender = (pid_t)(1000 + i);
		sigflows_add(&sf, &in);
	}
	CHECK_EQ_U64(sf.n, SIGFLOW_MAX);
	CHECK_EQ_U64(sf.other.n, 10);
	sigflows_begin(&sf);
	in.sender = 99;
	sigflows_add(&sf, &in);
	CHECK_EQ_U64(sf.n, 1);
	CHECK(sigflows_find(&sf, 99, 1, SIGTERM, 0));
	CHECK(!sigflows_find(&sf, 1000, 1, SIGTERM, 0));
	total = sf.other.total;
	for (i = 0; i < sf.n; i++)
		total += sf.v[i].total;
	CHECK_EQ_U64(total, SIGFLOW_MAX + 11);
	CHECK_EQ_U64(sf.total_all, SIGFLOW_MAX + 11);
	sigflows_free(&sf);
}

/* Per command: a shell loop's children (one receiver, 30 senders) make one row. */
static void test_sigflows_by_comm(void)
{
	struct sigflows sf, by;
	struct sig_flow in = { .receiver = 50, .sig = SIGCHLD, .n = 1 };
	uint64_t n = 0, total = 0;
	size_t i;

	sigflows_init(&sf);
	sigflows_init(&by);
	for (i = 0; i < 30; i++) {
		in.sender = (pid_t)(100 + i);
		snprintf(in.sender_comm, sizeof(in.sender_comm), "sleep");
		snprintf(in.receiver_comm, sizeof(in.receiver_comm), "bash");
		sigflows_add(&sf, &in);
	}
	in.sender = 7;	/* another command to the same receiver: a row of its own */
	snprintf(in.sender_comm, sizeof(in.sender_comm), "kill");
	in.sig = SIGTERM;
	in.n = 2;
	sigflows_add(&sf, &in);
	CHECK_EQ_U64(sf.n, 31);
	sigflows_by_comm(&sf, &by);
	CHECK_EQ_U64(by.n, 2);
	for (i = 0; i < by.n; i++) {
		const struct sigflow *r = &by.v[i];

		n += r->n;
		total += r->total;
		if (!strcmp(r->sender_comm, "sleep")) {
			CHECK(r->n == 30 && r->sender == SIGFLOW_SEVERAL && r->receiver == 50);
			CHECK(r->sig == SIGCHLD && !strcmp(r->receiver_comm, "bash"));
		} else {
			CHECK(r->n == 2 && r->sender == 7 && r->sig == SIGTERM);
		}
	}
	CHECK_EQ_U64(n, 32);	/* the sums stay the rows' */
	CHECK_EQ_U64(by.n_all, sf.n_all);
	sigflows_by_comm(&sf, &by);	/* rebuilt, not added to */
	CHECK_EQ_U64(by.n, 2);
	sigflows_free(&by);
	sigflows_free(&sf);
}

/* ---- the views' row sets -------------------------------------------------------- */

static void test_aggview(void)
{
	struct fake f[] = {
		{ .pid = 100, .comm = "web", .in_proc = true },
		{ .pid = 200, .comm = "db", .in_proc = true },
		{ .pid = 300, .comm = "batch", .in_proc = true },
	};
	struct model m;
	struct sample s;
	struct systable v, callers;
	struct av_row_id id;
	char buf[64];
	double d, sum;
	size_t r, k;
	int col;

	setup(&m, &s);
	tick(&m, &s, 1, f, 3, NULL, 0);
	systable_init(&v, VIEW_SYSCALLS);
	systable_refresh(&v, &m, NULL);
	CHECK_EQ_U64(v.n, 0);

	calls(&f[0], NR_OPENAT, 30, 2, 30);
	calls(&f[1], NR_OPENAT, 12, 2, 2);
	calls(&f[1], NR_READ, 500, 0, 0);
	calls(&f[2], NR_GETPPID, 7, 0, 0);
	tick(&m, &s, 3, f, 3, NULL, 0);	/* two seconds */
	systable_refresh(&v, &m, NULL);
	CHECK_EQ_U64(v.n, 3);
	/* Calls, most first: read, openat, getppid. */
	CHECK(systable_row_id(&v, 0, &id) && id.nr == NR_READ);
	CHECK(systable_row_id(&v, 1, &id) && id.nr == NR_OPENAT);
	CHECK(systable_num(&v, 1, 1, &d) && d == 42);
	CHECK(systable_rate(&v, d, &d) && d == 21);
	CHECK(systable_num(&v, 1, 3, &d));
	CHECK_NEAR(d, 100.0 * 42 / 549, 1e-9);
	CHECK_STR(systable_text(&v, 1, 4, buf, sizeof(buf), TEXT_DATA), "ENOENT");
	CHECK_STR(systable_text(&v, 1, 1, buf, sizeof(buf), TEXT_DATA), "42");

	/* The callers of each row sum to it. */
	for (r = 0; r < v.n; r++) {
		CHECK(systable_row_id(&v, r, &id));
		systable_init(&callers, VIEW_CALLERS);
		callers.drill.from = VIEW_SYSCALLS;
		callers.drill.nr = id.nr;
		systable_refresh(&callers, &m, NULL);
		for (col = 4; col <= 5; col++) {
			for (k = 0, sum = 0; k < callers.n; k++)
				if (systable_num(&callers, k, col, &d))
					sum += d;
			CHECK(systable_num(&v, r, col == 4 ? 1 : 2, &d));
			CHECK_NEAR(sum, d, 0);
		}
		CHECK(systable_num(&v, r, 6, &d));
		CHECK_NEAR(d, (double)callers.n, 0);
		systable_free(&callers);
	}

	/* Sorted by name, then filtered. */
	v.sort = 0;
	v.dir = SORT_ASC;
	systable_refresh(&v, &m, NULL);
	CHECK(systable_row_id(&v, 0, &id) && id.nr == NR_GETPPID);
	snprintf(v.filter, sizeof(v.filter), "ENOENT");
	systable_refresh(&v, &m, NULL);
	CHECK_EQ_U64(v.n, 1);
	v.filter[0] = '\0';
	v.sub = syscall_subsystem(NR_GETPPID);
	systable_refresh(&v, &m, NULL);
	CHECK_EQ_U64(v.n, 1);
	systable_free(&v);

	/* Errors: the callers of a pair are those that failed so. */
	systable_init(&v, VIEW_ERRORS);
	systable_refresh(&v, &m, NULL);
	CHECK_EQ_U64(v.n, 1);
	CHECK(systable_num(&v, 0, 2, &d) && d == 32);
	systable_init(&callers, VIEW_CALLERS);
	callers.drill = (struct av_drill){ .from = VIEW_ERRORS, .nr = NR_OPENAT, .err = 2 };
	systable_refresh(&callers, &m, NULL);
	CHECK_EQ_U64(callers.n, 2);
	CHECK(systable_task(&callers, 0) && systable_task(&callers, 0)->pid == 100);
	CHECK(systable_num(&callers, 1, 5, &d) && d == 2);
	systable_free(&callers);
	systable_free(&v);

	CHECK_STR(systable_name(VIEW_SUBSYSTEMS), "subsystems");
	{
		enum view_kind kind;

		CHECK(!systable_parse("groups", &kind) && kind == VIEW_GROUPS);
		CHECK(systable_parse("callers", &kind));
		CHECK(systable_parse("Syscalls", &kind));
	}
	teardown(&m, &s, f, 3);
}

static const struct test tests[] = {
	{ "sysagg sums of the rows", test_sysagg_sums },
	{ "groups: rows sum to the group", test_groups },
	{ "signal flows and their bound", test_sigflows },
	{ "signal flows per command", test_sigflows_by_comm },
	{ "aggview rows, order, callers", test_aggview },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
