// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/recgen - a long recording made fast, and the replay's start and jumps
 * timed on it (bench/record.sh).
 *
 *   recgen make FILE HOURS INTERVAL_S NPROCS
 *       Records HOURS of a synthetic system into FILE through the recorder
 *       (store/record.c), as ktop -w would at INTERVAL_S: NPROCS processes
 *       that live throughout, of which about 3% move each interval (CPU time,
 *       faults, memory) and 2% make system calls (tables drawn from a few
 *       programs' profiles, counts varied), plus 5 short-lived commands an
 *       interval and a busy server that calls all the time. Keyframes every
 *       10 minutes, as ktop's. Prints: intervals= bytes= seconds=
 *   recgen time FILE JUMPS
 *       What ktop -r FILE does before its first frame (open, the first
 *       interval applied), then JUMPS jumps to random times (find the
 *       interval, read forward from the keyframe before it, apply the
 *       baseline and the interval), each timed with CLOCK_MONOTONIC.
 *       Prints: first_ms= jump_median_ms= jump_max_ms= jumps=
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../store/replay.h"
#include "../tables/columns.h"
#include "../model/model.h"
#include "../lib/rcstr.h"
#include "../lib/util.h"
#include "../store/record.h"

static uint32_t seed = 2463534242u;

static uint32_t rnd(uint32_t n)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed % n;
}

struct gproc {
	struct pid_stat st;
	char cmd[48];
	bool cmd_sent;
};

/* A few programs' system call profiles: (nr, calls) pairs, counts varied when used. */
static const uint32_t profiles[4][12] = {
	{ 0, 12, 1, 4, 3, 6, 257, 5, 262, 3, 9, 8 },		/* a shell command */
	{ 7, 40, 0, 30, 1, 30, 232, 20, 288, 5, 3, 5 },	/* a server */
	{ 202, 10, 230, 8, 0, 2, 1, 2, 3, 1, 14, 6 },		/* a daemon */
	{ 257, 30, 0, 60, 3, 30, 5, 30, 9, 12, 11, 12 },	/* a file walker */
};

static void make_table(struct sctable *t, int prof, bool vary)
{
	int i;

	sctable_clear(t);
	for (i = 0; i < 12; i += 2) {
		struct sc_stat *s = sctable_get(t, profiles[prof][i]);

		s->calls = profiles[prof][i + 1] + (vary ? rnd(20) : 0);
		if (profiles[prof][i] == 257 && rnd(3) == 0) {
			s->errors = 1 + rnd(3);
			s->top_errno = 2;
		}
	}
}

static void gen_stat(struct gproc *p, pid_t pid, uint64_t start)
{
	memset(p, 0, sizeof(*p));
	p->st.pid = pid;
	snprintf(p->st.comm, sizeof(p->st.comm), "proc%d", (int)(pid % 97));
	p->st.state = 'S';
	p->st.ppid = 1;
	p->st.pgid = pid;
	p->st.sid = pid;
	p->st.priority = 20;
	p->st.num_threads = 1;
	p->st.starttime = start;
	p->st.vsize = 20u << 20;
	p->st.rss = 500;
	snprintf(p->cmd, sizeof(p->cmd), "/usr/bin/proc%d%c--flag", (int)(pid % 97), 0);
}

static const uint32_t EV = (1u << CNT_VCSW) | (1u << CNT_IVCSW) | (1u << CNT_SYSCALLS) |
			   (1u << CNT_SYSERR) | (1u << CNT_SIGRECV) | (1u << CNT_SIGSENT);

static int make(const char *file, double hours, double interval, int nprocs)
{
	struct record_opts o = { .pattern = file };
	struct record *rec;
	struct gproc *procs = xcalloc((size_t)nprocs + 1, sizeof(*procs));
	struct sctable tables[64] = { 0 };
	struct model m;
	struct sample s;
	char err[640];
	long n = (long)(hours * 3600 / interval), i;
	int k, c;
	uint64_t mono = 1000000000000ull;
	double wall = 1735711200.0;	/* 2025-01-01 06:00 UTC */
	pid_t next = 100000;
	struct timespec t0, t1;
	struct stat sb;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	model_init(&m, 100, 4);
	m.event_counters = EV;
	sample_init(&s);
	for (k = 0; k < nprocs; k++)
		gen_stat(&procs[k], 1000 + k, 100 + (uint64_t)k);
	if (record_open(&o, wall, &rec, err, sizeof(err))) {
		fprintf(stderr, "recgen: %s\n", err);
		return 1;
	}
	for (i = 0; i < n; i++) {
		size_t nt = 0;

		mono += (uint64_t)(interval * 1e9) + rnd(1000000);
		wall += interval;
		s.begin = s.end = true;
		s.mono_ns = mono;
		s.wall_s = wall;
		s.have_sys = true;
		s.sys.have_stat = s.sys.have_mem = s.sys.have_vm = s.sys.have_load = true;
		s.sys.have_uptime = true;
		s.sys.stat.ncpu = 4;
		s.sys.stat.cpu = s.cpu;
		for (c = 0; c < 4; c++) {
			s.cpu[c].present = 1;
			s.cpu[c].user += 50 + rnd(400);
			s.cpu[c].idle += 500 + rnd(400);
			s.cpu[c].system += rnd(100);
		}
		s.sys.stat.total.present = 1;
		s.sys.stat.total.user += 1000;
		s.sys.stat.ctxt += 10000 + rnd(5000);
		s.sys.stat.intr += 8000 + rnd(5000);
		s.sys.stat.forks += 50;
		s.sys.mem.total = 16000000;
		s.sys.mem.available = 9000000 + rnd(100000);
		s.sys.mem.has_available = 1;
		s.sys.vm.pgfault += 50000;
		s.sys.load.avg[0] = rnd(300) / 100.0;
		s.sys.uptime_s += interval;
		for (k = 0; k < nprocs; k++) {
			struct gproc *p = &procs[k];
			struct task_reading *r = sample_add_task(&s);
			bool busy = k == 0;

			if (busy || rnd(100) < 3) {
				p->st.utime += 1 + rnd(busy ? 500 : 5);
				p->st.stime += rnd(busy ? 300 : 3);
				p->st.minflt += rnd(50);
				p->st.rss = 400 + rnd(200);
			}
			r->pid = r->tgid = p->st.pid;
			r->stat = p->st;
			r->uid = 0;
			r->user = "root";
			r->cgroup = "/system.slice/bench.service";
			if (!p->cmd_sent) {
				r->cmdline = rcstr_new(p->cmd, sizeof(p->cmd) - 1);
				r->cmdline_len = strlen(p->cmd) + 1 + strlen(p->cmd + strlen(p->cmd) + 1) + 1;
				p->cmd_sent = true;
			}
			if ((busy || rnd(100) < 2) && nt < 60) {
				struct row_events *e = sample_add_row(&s);

				e->id = e->tgid = p->st.pid;
				make_table(&tables[nt], busy ? 1 : 2, busy);
				e->sc = &tables[nt++];
				e->n[CNT_SYSCALLS] = busy ? 200000 + rnd(1000) : 20 + rnd(20);
				e->n[CNT_VCSW] = rnd(busy ? 5000 : 10);
			}
		}
		/* The short-lived commands of the interval: only events tell of them. */
		for (k = 0; k < 5; k++) {
			struct row_events *e = sample_add_row(&s);

			e->id = e->tgid = next++;
			e->ppid = 1000;
			snprintf(e->comm, sizeof(e->comm), "%s", k % 2 ? "ls" : "cat");
			make_table(&tables[nt], k % 2 ? 0 : 3, false);
			e->sc = &tables[nt++];
			e->n[CNT_SYSCALLS] = 40;
			e->exited = true;
		}
		s.have_totals = true;
		s.ev_total[CNT_SYSCALLS] = 300000 + rnd(10000);
		/* The sample to the recorder, then the model, as src/sources.c does. */
		record_sample(rec, &s);
		model_apply(&m, &s);
		if (record_tick(rec, &m, err, sizeof(err))) {
			fprintf(stderr, "recgen: %s\n", err);
			return 1;
		}
	}
	record_close(rec);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	stat(file, &sb);
	printf("intervals=%ld bytes=%lld seconds=%.1f\n", n, (long long)sb.st_size,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (k = 0; k < 64; k++)
		sctable_free(&tables[k]);
	sample_free(&s);
	model_free(&m);
	free(procs);
	return 0;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Apply intervals until one is shown; false at the end or on an error. */
static bool show_next(struct replay *r, struct model *m, struct sample *s)
{
	char err[320];
	bool shown = false;

	while (!shown) {
		if (replay_next(r, s, &shown, err, sizeof(err)) != 1) {
			fprintf(stderr, "recgen: %s\n", err);
			return false;
		}
		model_apply(m, s);
	}
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int timing(const char *file, int jumps)
{
	struct replay *r;
	struct model m;
	struct sample s;
	char err[320];
	double t0, first, lo, hi, *ms = xcalloc((size_t)jumps + 1, sizeof(double));
	int64_t seq;
	int i;

	t0 = now_ms();
	if (replay_open(file, NULL, &r, err, sizeof(err))) {
		fprintf(stderr, "recgen: %s\n", err);
		return 1;
	}
	model_init(&m, 100, 4);
	sample_init(&s);
	model_set_session(&m, replay_first_session(r));
	if (!show_next(r, &m, &s))
		return 1;
	first = now_ms() - t0;
	if (replay_range(r, &lo, &hi, err, sizeof(err)) != 1)
		return 1;
	for (i = 0; i < jumps; i++) {
		double t = lo + (hi - lo) * rnd(1000000) / 1e6;

		t0 = now_ms();
		if (replay_find_time(r, t, &seq, err, sizeof(err)) != 1 ||
		    replay_seek(r, seq, err, sizeof(err)) || !show_next(r, &m, &s)) {
			fprintf(stderr, "recgen: jump: %s\n", err);
			return 1;
		}
		ms[i] = now_ms() - t0;
	}
	sort_array(ms, (size_t)jumps, sizeof(*ms), cmp_double);
	printf("first_ms=%.1f jump_median_ms=%.1f jump_max_ms=%.1f jumps=%d rows=%zu\n", first,
	       jumps ? ms[jumps / 2] : 0, jumps ? ms[jumps - 1] : 0, jumps, m.ntasks);
	sample_free(&s);
	model_free(&m);
	replay_close(r);
	free(ms);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "make"))
		return make(argv[2], atof(argv[3]), atof(argv[4]), atoi(argv[5]));
	if (argc == 4 && !strcmp(argv[1], "time"))
		return timing(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: recgen make FILE HOURS INTERVAL_S NPROCS | recgen time FILE JUMPS\n");
	return 2;
}
