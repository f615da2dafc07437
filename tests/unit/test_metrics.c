// SPDX-License-Identifier: GPL-2.0-only
/*
 * outputs/metrics: the exporter's per-group counters, fed with synthetic
 * samples through model_apply as the live loop does, read back from the
 * rendered text. A process that is born and exits between two scrapes still
 * counts; a group whose processes are all gone keeps its counters; the group
 * cap folds later groups into "other" and says how many.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include <snappy-c.h>

#include "../../tables/columns.h"
#include "../../model/model.h"
#include "../../model/sample.h"
#include "../../lib/util.h"
#include "../../outputs/metrics.h"
#include "../../outputs/rwproto.h"
#include "fixture.h"
#include "test.h"

#define SEC 1000000000ull
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ENOENT_ 2
#define EACCES_ 13

/* Events supply these counters, as when tracing runs. */
#define EV_COUNTERS ((1u << CNT_SYSCALLS) | (1u << CNT_SYSERR) | (1u << CNT_SIGRECV) | \
		     (1u << CNT_SIGSENT) | (1u << CNT_VCSW) | (1u << CNT_IVCSW))

struct fixture {
	struct model m;
	struct sample s;
	struct metrics *mx;
	struct prom_buf out;
	double t;
};

static double fx_expire_s;	/* the next fx_init's expire_s */

static void fx_init(struct fixture *f, enum cgroup_group_by by, size_t max_series)
{
	struct metrics_opts o = { .by = by, .max_series = max_series, .expire_s = fx_expire_s };
	char err[128];

	memset(f, 0, sizeof(*f));
	model_init(&f->m, 100, 4);
	f->m.event_counters = EV_COUNTERS;
	sample_init(&f->s);
	f->mx = metrics_new(&o, err, sizeof(err));
	f->t = 10;
	if (!f->mx)
		printf("# metrics_new: %s\n", err);
}

static void fx_free(struct fixture *f)
{
	metrics_free(f->mx);
	prom_buf_free(&f->out);
	sample_free(&f->s);
	model_free(&f->m);
}

/* A /proc reading of @pid in this tick's sample. */
static struct task_reading *reading(struct fixture *f, pid_t pid, const char *comm,
				    uint64_t utime, uint64_t minflt)
{
	struct task_reading *r = fx_reading(&f->s, pid, comm);

	r->stat.utime = utime;
	r->stat.minflt = minflt;
	r->uid = 0;
	return r;
}

/* One row of events: @calls of @nr, @errs of them failing with @err. */
static struct row_events *events(struct fixture *f, pid_t pid, const char *comm, bool exited,
				 struct sctable *sc, struct sctable *et, uint32_t nr,
				 uint64_t calls, uint64_t errs, uint32_t err)
{
	struct row_events *e = fx_row(&f->s, pid, comm, exited);

	e->n[CNT_SYSCALLS] = calls;
	e->n[CNT_SYSERR] = errs;
	sctable_clear(sc);
	sctable_clear(et);
	if (calls) {
		sctable_get(sc, nr)->calls = calls;
		sctable_get(sc, nr)->errors = errs;
	}
	if (errs)
		sctable_get(et, sc_err_key(nr, err))->errors = errs;
	e->sc = sc;
	e->err = et;
	return e;
}

/* @n signals @sig from @sender to @receiver with signal_generate's @result. */
static void flow(struct fixture *f, pid_t sender, pid_t receiver, int sig, int result, uint64_t n)
{
	struct sig_flow *o = sample_add_flow(&f->s);

	o->sender = sender;
	o->receiver = receiver;
	o->sig = sig;
	o->result = result;
	o->n = n;
}

static void tick_start(struct fixture *f)
{
	fx_begin(&f->s, f->t);
	f->t += 1;
}

static void tick_end(struct fixture *f)
{
	f->s.end = true;
	model_apply(&f->m, &f->s);
	metrics_tick(f->mx, &f->m);
}

static void render(struct fixture *f)
{
	struct metrics_health h = { .tracing = true, .have_events = true };

	CHECK_EQ_I64(metrics_render(f->mx, &h, PROM_FMT_TEXT, &f->out), 0);
}

/* The value of the sample line that starts with @series; NAN when absent. */
static double value(const struct fixture *f, const char *series)
{
	size_t n = strlen(series);
	const char *p = f->out.data;

	while (p && *p) {
		if (!strncmp(p, series, n) && p[n] == ' ')
			return strtod(p + n + 1, NULL);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NAN;
}

/* The sum of the samples whose line starts with @prefix. */
static double sum(const struct fixture *f, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = f->out.data, *sp;
	double v = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, n) && (sp = strchr(p, ' ')))
			v += strtod(sp + 1, NULL);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return v;
}

#define CHECK_VAL(f, series, v) CHECK_NEAR(value(f, series), (double)(v), 1e-9)

static void test_exited_between_scrapes(void)
{
	struct sctable sc = { 0 }, et = { 0 }, sc2 = { 0 }, et2 = { 0 };
	struct fixture f;

	fx_init(&f, CGROUP_BY_COMM, 0);
	if (!CHECK(f.mx))
		return;
	/* Tick 1: the baseline. Its events are nobody's count. */
	tick_start(&f);
	reading(&f, 100, "worker", 10, 500);
	events(&f, 100, "worker", false, &sc, &et, SYS_openat, 99, 99, ENOENT_);
	tick_end(&f);
	render(&f);
	CHECK(isnan(value(&f, "ktop_syscalls_total{comm=\"worker\",syscall=\"openat\"}")));
	CHECK_VAL(&f, "ktop_processes{comm=\"worker\"}", 1);

	/* Tick 2: 100 works; 101 is born, fails 4 openat and exits, all within it. */
	tick_start(&f);
	reading(&f, 100, "worker", 35, 520);
	events(&f, 100, "worker", false, &sc, &et, SYS_openat, 5, 3, ENOENT_);
	events(&f, 101, "worker", true, &sc2, &et2, SYS_openat, 7, 4, EACCES_);
	f.s.rows[0].n[CNT_SIGSENT] = 2;
	f.s.rows[1].n[CNT_SIGRECV] = 2;
	f.s.rows[1].n[CNT_VCSW] = 6;
	flow(&f, 100, 101, 10 /* SIGUSR1 */, 0 /* delivered */, 2);
	tick_end(&f);
	/* Tick 3: nothing new; 101 is gone from the model. */
	tick_start(&f);
	reading(&f, 100, "worker", 35, 520);
	tick_end(&f);
	CHECK(model_task_find(&f.m, 101) == NULL);
	render(&f);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"worker\",syscall=\"openat\"}", 12);
	CHECK_VAL(&f, "ktop_syscall_errors_total{comm=\"worker\",syscall=\"openat\",errno=\"ENOENT\"}", 3);
	CHECK_VAL(&f, "ktop_syscall_errors_total{comm=\"worker\",syscall=\"openat\",errno=\"EACCES\"}", 4);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"worker\",direction=\"sent\",signal=\"SIGUSR1\"}", 2);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"worker\",direction=\"sent\",signal=\"other\"}", 0);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"worker\",direction=\"received\",signal=\"SIGUSR1\"}", 2);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"worker\",direction=\"received\",signal=\"other\"}", 0);
	CHECK_VAL(&f, "ktop_context_switches_total{comm=\"worker\",kind=\"voluntary\"}", 6);
	CHECK_VAL(&f, "ktop_context_switches_total{comm=\"worker\",kind=\"involuntary\"}", 0);
	/* /proc counters: 100's deltas (25 ticks of 100 Hz, 20 faults). */
	CHECK_VAL(&f, "ktop_cpu_seconds_total{comm=\"worker\",mode=\"user\"}", 0.25);
	CHECK_VAL(&f, "ktop_page_faults_total{comm=\"worker\",kind=\"minor\"}", 20);
	CHECK_VAL(&f, "ktop_processes{comm=\"worker\"}", 1);
	CHECK_VAL(&f, "ktop_subsystem_syscalls_total{subsystem=\"Filesystem\"}", 12);
	CHECK_VAL(&f, "ktop_subsystem_syscall_errors_total{subsystem=\"Filesystem\"}", 7);

	/* Tick 4: 100 exits with its last events; tick 5: nobody is left. */
	tick_start(&f);
	events(&f, 100, "worker", true, &sc, &et, SYS_openat, 1, 1, ENOENT_);
	tick_end(&f);
	tick_start(&f);
	tick_end(&f);
	render(&f);
	CHECK_EQ_U64(f.m.ntasks, 0);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"worker\",syscall=\"openat\"}", 13);
	CHECK_VAL(&f, "ktop_syscall_errors_total{comm=\"worker\",syscall=\"openat\",errno=\"ENOENT\"}", 4);
	CHECK_VAL(&f, "ktop_processes{comm=\"worker\"}", 0);
	CHECK_VAL(&f, "ktop_refreshes_total", 5);
	sctable_free(&sc);
	sctable_free(&et);
	sctable_free(&sc2);
	sctable_free(&et2);
	fx_free(&f);
}

/*
 * Signals by name come from the signal flows, as far as the rows' counts hold
 * them; a group's signals the flows do not name, or name more of than its
 * rows counted, are "other": the sum over signals is always the group's.
 */
static void test_signals_by_name(void)
{
	struct sctable sc = { 0 }, et = { 0 };
	struct fixture f;

	fx_init(&f, CGROUP_BY_COMM, 0);
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	reading(&f, 100, "a", 1, 1);
	reading(&f, 200, "b", 1, 1);
	tick_end(&f);
	/* a sends b 3 SIGTERM (one already pending) and 1 unnamed; b sends a 5 SIGUSR2 (a counted 4). */
	tick_start(&f);
	reading(&f, 100, "a", 1, 1);
	reading(&f, 200, "b", 1, 1);
	events(&f, 100, "a", false, &sc, &et, SYS_openat, 0, 0, 0)->n[CNT_SIGSENT] = 4;
	f.s.rows[0].n[CNT_SIGRECV] = 4;
	events(&f, 200, "b", false, &sc, &et, SYS_openat, 0, 0, 0)->n[CNT_SIGSENT] = 5;
	f.s.rows[1].n[CNT_SIGRECV] = 2;
	flow(&f, 100, 200, 15, 0, 2);
	flow(&f, 100, 200, 15, 2 /* already pending: not received */, 1);
	flow(&f, 200, 100, 12, 0, 5);
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"a\",direction=\"sent\",signal=\"SIGTERM\"}", 3);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"a\",direction=\"sent\",signal=\"other\"}", 1);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"b\",direction=\"received\",signal=\"SIGTERM\"}", 2);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"b\",direction=\"received\",signal=\"other\"}", 0);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"b\",direction=\"sent\",signal=\"SIGUSR2\"}", 5);
	/* 5 named, 4 counted: none named, all 4 other. */
	CHECK(isnan(value(&f, "ktop_signals_total{comm=\"a\",direction=\"received\",signal=\"SIGUSR2\"}")));
	CHECK_VAL(&f, "ktop_signals_total{comm=\"a\",direction=\"received\",signal=\"other\"}", 4);
	CHECK_VAL(&f, "ktop_signals_total{comm=\"b\",direction=\"sent\",signal=\"other\"}", 0);
	sctable_free(&sc);
	sctable_free(&et);
	fx_free(&f);
}

/* A born process's /proc counters are its totals: all of them are in the interval. */
static void test_born_counts_whole(void)
{
	struct fixture f;

	fx_init(&f, CGROUP_BY_COMM, 0);
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	reading(&f, 100, "old", 10, 500);
	tick_end(&f);
	tick_start(&f);
	reading(&f, 100, "old", 10, 500);
	reading(&f, 200, "new", 3, 40)->born = true;
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_page_faults_total{comm=\"new\",kind=\"minor\"}", 40);
	CHECK_VAL(&f, "ktop_cpu_seconds_total{comm=\"new\",mode=\"user\"}", 0.03);
	CHECK_VAL(&f, "ktop_page_faults_total{comm=\"old\",kind=\"minor\"}", 0);
	fx_free(&f);
}

/* Groups past the cap count in "other", said by ktop_metrics_dropped_groups. */
static void test_group_cap(void)
{
	static const char *const names[] = { "a", "b", "c", "d", "c" };
	struct sctable sc = { 0 }, et = { 0 };
	struct fixture f;
	size_t i;

	fx_init(&f, CGROUP_BY_COMM, 2);
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	tick_end(&f);
	tick_start(&f);
	for (i = 0; i < 5; i++) {
		events(&f, (pid_t)(300 + i), names[i], true, &sc, &et, SYS_read, 10 + i, 0, 0);
		model_apply(&f.m, &f.s);	/* the row's tables are the fixture's: one at a time */
	}
	tick_end(&f);
	render(&f);
	/* a, b and other: c and d (twice) in other. */
	CHECK_EQ_U64(metrics_ngroups(f.mx), 3);
	CHECK_VAL(&f, "ktop_metrics_dropped_groups", 2);
	/*
	 * The family's own cap (2 series) keeps the largest label sets: the
	 * other group's (39) and b's (11); a's goes to the overflow series.
	 * Nothing is lost: the samples add up to every call.
	 */
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"other\",syscall=\"read\"}", 12 + 13 + 14);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"b\",syscall=\"read\"}", 11);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"other\",syscall=\"other\"}", 10);
	CHECK_NEAR(sum(&f, "ktop_syscalls_total{"), 10 + 11 + 12 + 13 + 14, 0);
	CHECK_VAL(&f, "ktop_metrics_dropped_series{family=\"ktop_syscalls\"}", 1);
	/* Later groups stay in other; a, b keep their series (sticky). */
	tick_start(&f);
	events(&f, 400, "e", true, &sc, &et, SYS_read, 1000, 0, 0);
	model_apply(&f.m, &f.s);
	events(&f, 401, "a", true, &sc, &et, SYS_read, 1, 0, 0);
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_metrics_dropped_groups", 3);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"other\",syscall=\"read\"}", 39 + 1000);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"other\",syscall=\"other\"}", 11);
	CHECK_NEAR(sum(&f, "ktop_syscalls_total{"), 60 + 1001, 0);
	sctable_free(&sc);
	sctable_free(&et);
	fx_free(&f);
}

/*
 * The slot hole: unique names fill the groups, later commands hide in other.
 * Groups none of whose tasks was read for expire_s leave, the family's
 * series slots too, and a new name gets a series of its own again.
 */
static void test_expire(void)
{
	static const char *const names[] = { "u1", "u2", "u3", "u4" };
	struct sctable sc = { 0 }, et = { 0 };
	struct fixture f;
	size_t i;

	fx_expire_s = 3;
	fx_init(&f, CGROUP_BY_COMM, 2);
	fx_expire_s = 0;
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	tick_end(&f);
	tick_start(&f);
	for (i = 0; i < 4; i++) {
		events(&f, (pid_t)(300 + i), names[i], true, &sc, &et, SYS_read, 10 + i, 0, 0);
		model_apply(&f.m, &f.s);
	}
	tick_end(&f);
	tick_start(&f);
	events(&f, 400, "new", true, &sc, &et, SYS_read, 5, 0, 0);
	tick_end(&f);
	render(&f);
	CHECK(isnan(value(&f, "ktop_syscalls_total{comm=\"new\",syscall=\"read\"}")));
	CHECK_EQ_U64(metrics_ngroups(f.mx), 3);
	/* 3 s with no task of theirs: u1, u2 and other leave. */
	for (i = 0; i < 3; i++) {
		tick_start(&f);
		tick_end(&f);
	}
	render(&f);
	CHECK_EQ_U64(metrics_ngroups(f.mx), 0);
	CHECK(isnan(value(&f, "ktop_syscalls_total{comm=\"u1\",syscall=\"read\"}")));
	CHECK(isnan(value(&f, "ktop_processes{comm=\"other\"}")));
	tick_start(&f);
	events(&f, 401, "new", true, &sc, &et, SYS_read, 7, 0, 0);
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"new\",syscall=\"read\"}", 7);
	CHECK_VAL(&f, "ktop_processes{comm=\"new\"}", 0);
	/* A group with a live process stays, however long. */
	for (i = 0; i < 5; i++) {
		tick_start(&f);
		reading(&f, 500, "daemon", 1, 1);
		tick_end(&f);
	}
	render(&f);
	CHECK_VAL(&f, "ktop_processes{comm=\"daemon\"}", 1);
	CHECK(isnan(value(&f, "ktop_processes{comm=\"new\"}")));
	sctable_free(&sc);
	sctable_free(&et);
	fx_free(&f);
}

/* Live processes of @uid this tick: @names[i] is pid @pid0 + i. */
static void live(struct fixture *f, int64_t uid, pid_t pid0, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i])
			reading(f, pid0 + (pid_t)i, names[i], 1, 1)->uid = uid;
}

#define HAS(f, comm) (!isnan(value(f, "ktop_processes{comm=\"" comm "\"}")))

/*
 * Issue 32: the cap is shared out per user. One user's new names, every slot
 * taken, went to "other", and so did every later process of anyone. Now a
 * user with fewer groups takes the slot of the user with the most (two more
 * at least): an idle group of theirs first, else their newest. A user at its
 * share takes nobody's slot: its new names are "other".
 */
static void test_fair_share(void)
{
	static const char *const fl[] = { "f0", "f1", "f2", "f3", "f4" };
	static const char *const fl_no_f1[] = { "f0", NULL, "f2", "f3", "f4" };
	static const char *const root1[] = { "daemon" };
	static const char *const root2[] = { "daemon", "daemon2" };
	static const char *const root3[] = { "daemon", "daemon2", "daemon3" };
	static const char *const more[] = { "f5" };
	struct fixture f;

	fx_init(&f, CGROUP_BY_COMM, 4);
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	tick_end(&f);
	/* nobody's five names: four slots, f4 in other */
	tick_start(&f);
	live(&f, 65534, 100, fl, 5);
	tick_end(&f);
	render(&f);
	CHECK(HAS(&f, "f3") && !HAS(&f, "f4"));
	CHECK_VAL(&f, "ktop_processes{comm=\"other\"}", 1);
	/* root's daemon takes the slot of nobody's idle f1 (its process is gone) */
	tick_start(&f);
	live(&f, 65534, 100, fl_no_f1, 5);
	live(&f, 0, 200, root1, 1);
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_processes{comm=\"daemon\"}", 1);
	CHECK(!HAS(&f, "f1") && HAS(&f, "f0") && HAS(&f, "f3"));
	/* 1 against 3: root's daemon2 takes nobody's newest, f3; f3 is in other */
	tick_start(&f);
	live(&f, 65534, 100, fl_no_f1, 5);
	live(&f, 0, 200, root2, 2);
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_processes{comm=\"daemon2\"}", 1);
	CHECK(!HAS(&f, "f3") && HAS(&f, "f0") && HAS(&f, "f2"));
	CHECK_VAL(&f, "ktop_processes{comm=\"other\"}", 2);
	/* 2 and 2: each at its share, the new names of both are in other */
	tick_start(&f);
	live(&f, 65534, 100, fl_no_f1, 5);
	live(&f, 65534, 150, more, 1);
	live(&f, 0, 200, root3, 3);
	tick_end(&f);
	render(&f);
	CHECK(!HAS(&f, "daemon3") && !HAS(&f, "f5"));
	CHECK(HAS(&f, "daemon") && HAS(&f, "daemon2") && HAS(&f, "f0") && HAS(&f, "f2"));
	CHECK_VAL(&f, "ktop_processes{comm=\"other\"}", 4);
	CHECK_EQ_U64(metrics_ngroups(f.mx), 5);
	/* every process counted once: 4 of nobody's, 3 of root's */
	CHECK_NEAR(sum(&f, "ktop_processes{"), 4 + 1 + 3, 0);
	fx_free(&f);
}

/* "other" is only the overflow: a process of that name is "[other]", and so on. */
static void test_other_name(void)
{
	static const char *const names[] = { "other", "[other]", "[other", "others" };
	struct sctable sc = { 0 }, et = { 0 };
	struct fixture f;
	size_t i;

	fx_init(&f, CGROUP_BY_COMM, 0);
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	tick_end(&f);
	tick_start(&f);
	for (i = 0; i < 4; i++) {
		events(&f, (pid_t)(300 + i), names[i], true, &sc, &et, SYS_read, 10 + i, 0, 0);
		model_apply(&f.m, &f.s);
	}
	tick_end(&f);
	render(&f);
	CHECK(isnan(value(&f, "ktop_syscalls_total{comm=\"other\",syscall=\"read\"}")));
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"[other]\",syscall=\"read\"}", 10);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"[[other]]\",syscall=\"read\"}", 11);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"[other\",syscall=\"read\"}", 12);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"others\",syscall=\"read\"}", 13);
	CHECK_VAL(&f, "ktop_metrics_dropped_groups", 0);
	sctable_free(&sc);
	sctable_free(&et);
	fx_free(&f);
}

/* Exit records the kernel dropped are counted, as lost events are. */
static void test_lost_exits(void)
{
	struct fixture f;

	fx_init(&f, CGROUP_BY_COMM, 0);
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	tick_end(&f);
	render(&f);
	CHECK(isnan(value(&f, "ktop_lost_exit_records_total")));
	f.m.exit_records = true;
	tick_start(&f);
	f.s.have_exit_totals = true;
	f.s.exits_lost = 3617;
	tick_end(&f);
	tick_start(&f);
	f.s.have_exit_totals = true;
	f.s.exits_lost_unknown = true;
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_lost_exit_records_total", 3617);
	CHECK_VAL(&f, "ktop_lost_exit_records_unknown_intervals_total", 1);
	fx_free(&f);
}

/* Grouped by systemd unit: from the cgroup path, asked of /proc for every task. */
static void test_by_unit(void)
{
	struct fixture f;

	fx_init(&f, CGROUP_BY_UNIT, 0);
	if (!CHECK(f.mx))
		return;
	CHECK(metrics_needs(f.mx, &f.m) & NEED_CGROUP);
	CHECK(!(metrics_needs(f.mx, &f.m) & NEED_STATUS));
	f.m.event_counters = 0;
	CHECK(metrics_needs(f.mx, &f.m) & NEED_STATUS);
	tick_start(&f);
	reading(&f, 10, "nginx", 0, 100)->cgroup = "/system.slice/nginx.service";
	reading(&f, 11, "nginx", 0, 100)->cgroup = "/system.slice/nginx.service";
	reading(&f, 12, "bash", 0, 100)->cgroup = "/user.slice/user-0.slice/session-1.scope";
	reading(&f, 13, "odd", 0, 100);	/* its cgroup not read: "?" */
	tick_end(&f);
	tick_start(&f);
	reading(&f, 10, "nginx", 0, 101);
	reading(&f, 11, "nginx", 0, 105);
	reading(&f, 12, "bash", 0, 100);
	reading(&f, 13, "odd", 0, 100);
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_processes{unit=\"nginx.service\"}", 2);
	CHECK_VAL(&f, "ktop_processes{unit=\"session-1.scope\"}", 1);
	CHECK_VAL(&f, "ktop_processes{unit=\"?\"}", 1);
	CHECK_VAL(&f, "ktop_page_faults_total{unit=\"nginx.service\",kind=\"minor\"}", 6);
	fx_free(&f);
}

/* Both formats are whole expositions; the text one has no UNIT or EOF. */
static void test_formats(void)
{
	struct metrics_health h = { .tracing = false, .cause = "no \"tracefs\"\n", .clock = "mono" };
	struct fixture f;

	fx_init(&f, CGROUP_BY_COMM, 0);
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	reading(&f, 1, "init", 0, 0);
	tick_end(&f);
	CHECK_EQ_I64(metrics_render(f.mx, &h, PROM_FMT_OPENMETRICS, &f.out), 0);
	CHECK(strstr(f.out.data, "# UNIT ktop_cpu_seconds seconds\n") != NULL);
	/* A cause not of the fixed set is "error": the label's values stay bounded. */
	CHECK(strstr(f.out.data, "ktop_tracing 0\n") != NULL);
	CHECK(strstr(f.out.data, "ktop_tracing_info{cause=\"error\",clock=\"mono\"} 1\n") != NULL);
	CHECK(f.out.len > 6 && !strcmp(f.out.data + f.out.len - 6, "# EOF\n"));
	/* Tracing never ran: no subsystem or event samples, only their metadata. */
	CHECK(strstr(f.out.data, "ktop_subsystem_syscalls_total{") == NULL);
	CHECK_EQ_I64(metrics_render(f.mx, &h, PROM_FMT_TEXT, &f.out), 0);
	CHECK(strstr(f.out.data, "# UNIT") == NULL && strstr(f.out.data, "# EOF") == NULL);
	CHECK(strstr(f.out.data, "# TYPE ktop_cpu_seconds_total counter\n") != NULL);
	fx_free(&f);
}


#if defined(__x86_64__) && !defined(__ILP32__)
/*
 * A 32-bit program's calls (i386's numbers) are series of their own, named
 * with its table and its ABI: 64 is getppid there, not x86_64's semget (IPC).
 */
static void test_compat_names(void)
{
	struct sctable sc = { 0 }, et = { 0 }, sc2 = { 0 }, et2 = { 0 };
	struct fixture f;

	fx_init(&f, CGROUP_BY_COMM, 0);
	if (!CHECK(f.mx))
		return;
	tick_start(&f);
	reading(&f, 100, "prog32", 10, 500);
	reading(&f, 101, "prog64", 10, 500);
	tick_end(&f);
	tick_start(&f);
	reading(&f, 100, "prog32", 10, 500);
	reading(&f, 101, "prog64", 10, 500);
	events(&f, 100, "prog32", false, &sc, &et, sc_key(5, true), 1000, 1000, ENOENT_);
	events(&f, 101, "prog64", false, &sc2, &et2, SYS_getppid, 7, 0, 0);
	tick_end(&f);
	render(&f);
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"prog32\",syscall=\"open (32-bit)\"}", 1000);
	CHECK_VAL(&f, "ktop_syscall_errors_total{comm=\"prog32\",syscall=\"open (32-bit)\",errno=\"ENOENT\"}",
		  1000);
	CHECK(isnan(value(&f, "ktop_syscalls_total{comm=\"prog32\",syscall=\"fstat\"}")));
	CHECK_VAL(&f, "ktop_syscalls_total{comm=\"prog64\",syscall=\"getppid\"}", 7);
	CHECK_VAL(&f, "ktop_subsystem_syscalls_total{subsystem=\"Filesystem\"}", 1000);
	CHECK_VAL(&f, "ktop_subsystem_syscalls_total{subsystem=\"Process Mgmt.\"}", 7);
	sctable_free(&sc);
	sctable_free(&et);
	sctable_free(&sc2);
	sctable_free(&et2);
	fx_free(&f);
}
#endif

/*
 * ktop_task_state_seconds_total: the groups' state split, summed over their
 * processes and the intervals, an exited one's included; absent untraced.
 */
static void test_task_states(void)
{
	struct sctable sc = { 0 }, et = { 0 };
	struct fixture f;
	struct row_events *e;
	int i;

	fx_init(&f, CGROUP_BY_COMM, 0);
	f.m.event_counters |= (1u << CNT_ONCPU) | (1u << CNT_RUNQ) | (1u << CNT_SLEEP) |
			      (1u << CNT_BLOCKED) | (1u << CNT_STOPPED);
	for (i = 0; i < 3; i++) {
		tick_start(&f);
		reading(&f, 10, "web", 0, 0);
		if (i < 2)
			reading(&f, 11, "web", 0, 0);
		e = events(&f, 10, "web", false, &sc, &et, 0, 0, 0, 0);
		e->have_state = true;
		e->n[CNT_ONCPU] = SEC / 4;
		e->n[CNT_RUNQ] = SEC / 2;
		e->n[CNT_BLOCKED] = SEC / 4;
		/* 11 exits in the third interval, after 300 ms asleep. */
		e = events(&f, 11, "web", i == 2, &sc, &et, 0, 0, 0, 0);
		e->have_state = true;
		e->n[CNT_SLEEP] = i < 2 ? SEC : SEC * 3 / 10;
		tick_end(&f);
	}
	render(&f);
	/* The first tick is the baseline: two intervals counted. */
	CHECK_VAL(&f, "ktop_task_state_seconds_total{comm=\"web\",state=\"on_cpu\"}", 0.5);
	CHECK_VAL(&f, "ktop_task_state_seconds_total{comm=\"web\",state=\"runnable\"}", 1.0);
	CHECK_VAL(&f, "ktop_task_state_seconds_total{comm=\"web\",state=\"blocked\"}", 0.5);
	CHECK_VAL(&f, "ktop_task_state_seconds_total{comm=\"web\",state=\"sleeping\"}", 1.3);
	CHECK_VAL(&f, "ktop_task_state_seconds_total{comm=\"web\",state=\"stopped\"}", 0);
	fx_free(&f);

	/* Without the state split (not traced): no such series at all. */
	fx_init(&f, CGROUP_BY_COMM, 0);
	tick_start(&f);
	reading(&f, 10, "web", 0, 0);
	tick_end(&f);
	render(&f);
	CHECK(strstr(f.out.data, "ktop_task_state_seconds_total{") == NULL);
	fx_free(&f);
	sctable_free(&sc);
	sctable_free(&et);
}

/* The raw protobuf of a remote write body. */
static char *unsnappy(const struct rw_body *b, size_t *len)
{
	char *raw;

	if (snappy_uncompressed_length(b->data, b->len, len) != SNAPPY_OK)
		return NULL;
	raw = malloc(*len + 1);
	if (raw && snappy_uncompress(b->data, b->len, raw, len) != SNAPPY_OK) {
		free(raw);
		return NULL;
	}
	return raw;
}

/*
 * A push is encoded from the samples as they are rendered: the same
 * WriteRequest as the page's text read back (the push before), for groups
 * past the cap (the overflow), names to escape, signals, errors, exited
 * processes, the remote write's own health; and the page rendered beside
 * the push in one pass is the page rendered alone.
 */
static void test_push_equals_page(void)
{
	static const struct rw_label ext[] = { { "instance", "h" }, { "job", "ktop" } };
	static const char *const names[] = { "we\"ird\\name", "b\nc", "x", "y" };
	struct metrics_health h = { .tracing = true, .have_events = true,
				    .have_rw = true, .rw_sent = 12, .rw_queue_bytes = 345 };
	struct sctable sc[4] = { 0 }, et[4] = { 0 };
	struct rw_writer *w = rw_writer_new(ext, ARRAY_SIZE(ext));
	struct prom_buf both = { 0 };
	struct fixture f;
	int t;
	size_t i;

	fx_init(&f, CGROUP_BY_COMM, 3);
	if (!CHECK(f.mx && w))
		goto out;
	for (t = 0; t < 4; t++) {
		struct prom_out o = { .text = &both, .fmt = PROM_FMT_TEXT, .sample = rw_writer_sample,
				      .ctx = w };
		struct rw_body direct, old;
		char err[128], *a, *b, *ta = NULL, *tb = NULL;
		size_t la, lb, tla, tlb;

		tick_start(&f);
		for (i = 0; i < ARRAY_SIZE(names); i++) {
			pid_t pid = (pid_t)(100 + i);

			/* the last one exits at the third tick */
			if (i == 3 && t == 3)
				continue;
			reading(&f, pid, names[i], 10 * (uint64_t)t, 3 * (uint64_t)t);
			events(&f, pid, names[i], i == 3 && t == 2, &sc[i], &et[i], SYS_openat,
			       5 + i + (uint64_t)t, 2, ENOENT_);
		}
		flow(&f, 100, 101, 10, 0, 1);
		f.s.rows[0].n[CNT_SIGSENT] = 1;
		f.s.rows[1].n[CNT_SIGRECV] = 1;
		tick_end(&f);
		CHECK_EQ_I64(metrics_render(f.mx, &h, PROM_FMT_TEXT, &f.out), 0);
		rw_writer_begin(w, 1700000000000ll + t * 1000);
		if (!CHECK_EQ_I64(metrics_emit(f.mx, &h, &o), 0) ||
		    !CHECK_EQ_I64(rw_writer_end(w, &direct, err, sizeof(err)), 0))
			break;
		CHECK_STR(both.data, f.out.data);
		if (!CHECK_EQ_I64(rw_encode(f.out.data, f.out.len, 1700000000000ll + t * 1000, ext,
					    ARRAY_SIZE(ext), &old, err, sizeof(err)), 0))
			break;
		CHECK(direct.samples > 30);
		CHECK_EQ_U64(direct.samples, old.samples);
		a = unsnappy(&direct, &la);
		b = unsnappy(&old, &lb);
		if (CHECK(a && b) && CHECK_EQ_I64(rw_decode_text(a, la, &ta, &tla), 0) &&
		    CHECK_EQ_I64(rw_decode_text(b, lb, &tb, &tlb), 0)) {
			CHECK_STR(ta, tb);
			CHECK(la == lb && !memcmp(a, b, la));
		}
		free(ta);
		free(tb);
		free(a);
		free(b);
		free(old.data);
	}
	/* The overflow and the escapes were there. */
	CHECK(strstr(f.out.data, "comm=\"other\"") != NULL);
	CHECK(strstr(f.out.data, "comm=\"we\\\"ird\\\\name\"") != NULL);
out:
	for (i = 0; i < ARRAY_SIZE(sc); i++) {
		sctable_free(&sc[i]);
		sctable_free(&et[i]);
	}
	prom_buf_free(&both);
	rw_writer_free(w);
	fx_free(&f);
}

static const struct test tests[] = {
#if defined(__x86_64__) && !defined(__ILP32__)
	{ "metrics: a 32-bit program's calls named with i386's table and their ABI", test_compat_names },
#endif
	{ "task states: summed per group and state, exited included; none untraced",
	  test_task_states },
	{ "metrics: a process born and gone between scrapes counts; counters outlive the group's processes",
	  test_exited_between_scrapes },
	{ "metrics: signals by name from the flows, as far as the rows' counts hold them; the rest other",
	  test_signals_by_name },
	{ "metrics: a process born in the interval counts its whole /proc counters",
	  test_born_counts_whole },
	{ "metrics: groups past --metrics-max-series count in other, and are counted",
	  test_group_cap },
	{ "metrics: grouped by unit from the cgroup path; needs cgroup (and status untraced)",
	  test_by_unit },
	{ "metrics: OpenMetrics and text expositions", test_formats },
	{ "metrics: idle groups expire, a new name gets its own series", test_expire },
	{ "metrics: the group cap is shared out per user: one's new names take no other's slot",
	  test_fair_share },
	{ "metrics: a process named other is not the overflow", test_other_name },
	{ "metrics: lost exit records are counted", test_lost_exits },
	{ "metrics: a push encoded from the samples equals the page's encoding", test_push_equals_page },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
