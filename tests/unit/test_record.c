// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record and replay (store/record.c, store/replay.c, store/recfmt.c).
 *
 * A pseudo-random source plays the live collectors: births, exits (with and
 * without an exit event, zombies), pid reuse, processes only events told of,
 * events of one /proc no longer lists (renamed by an exec), withheld rows,
 * context switches read or not, command lines, users, cgroups, CPUs going
 * offline, lost events. The model it feeds is recorded after every tick; a
 * second model fed by the replayer must write, tick for tick, the very same
 * batch output (text with --syscalls and JSON with every column), also after
 * a jump to every interval, and across files (a strftime pattern).
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../store/replay.h"
#include "../../tables/columns.h"
#include "../../model/model.h"
#include "../../store/recfmt.h"
#include "../../store/recsample.h"
#include "../../tables/rows.h"
#include "../../lib/rcstr.h"
#include "../../lib/util.h"
#include "../../outputs/batch.h"
#include "../../store/record.h"
#include "fixture.h"
#include "test.h"

#define NSIM 48
#define EV_BITS ((1u << CNT_VCSW) | (1u << CNT_IVCSW) | (1u << CNT_SYSCALLS) | \
		 (1u << CNT_SYSERR) | (1u << CNT_SIGRECV) | (1u << CNT_SIGSENT) | \
		 (1u << CNT_ONCPU) | (1u << CNT_RUNQ) | (1u << CNT_SLEEP) | (1u << CNT_BLOCKED) | \
		 (1u << CNT_STOPPED) | (1u << CNT_NET_TX) | (1u << CNT_NET_RX))

struct sim {
	bool alive, read_last;
	pid_t pid;
	struct pid_stat st;
	uint64_t vcsw, ivcsw;
	uint64_t rd, wr;		/* /proc/PID/io read_bytes, write_bytes */
	int64_t uid;
	const char *user, *cgroup;
	char cmd[64];
	bool cmd_sent;
};

static const char *const users[] = { "root", "alice", "bob" };
static const char *const cgroups[] = { "/system.slice/a.service", "/user.slice", "/" };

struct world {
	uint32_t rnd;
	struct sim p[NSIM];
	pid_t next_pid;
	uint64_t mono;
	double wall;
	struct sys_sample sys;
	struct cpu_times cpu[4];
	struct sctable sc[NSIM + 8], err[NSIM + 8];
	bool threads, traced;
};

static uint32_t rnd(struct world *w, uint32_t n)
{
	return test_rand(&w->rnd) % n;
}

static void sim_new(struct world *w, struct sim *s, bool born)
{
	memset(s, 0, sizeof(*s));
	s->alive = true;
	s->pid = w->next_pid++;
	s->st.pid = s->pid;
	snprintf(s->st.comm, sizeof(s->st.comm), "proc%d", (int)s->pid);
	s->st.state = "RSDI"[rnd(w, 4)];
	s->st.ppid = 1;
	s->st.pgid = s->pid;
	s->st.sid = s->pid;
	s->st.priority = 20;
	s->st.num_threads = 1 + rnd(w, 3);
	s->st.starttime = 1000 + w->mono / 10000000 + rnd(w, 5);
	s->st.vsize = (uint64_t)(1 + rnd(w, 100)) << 20;
	s->st.rss = rnd(w, 1000);
	s->st.processor = (int)rnd(w, 2);
	s->uid = rnd(w, 3);
	s->user = users[s->uid];
	s->cgroup = cgroups[rnd(w, 3)];
	snprintf(s->cmd, sizeof(s->cmd), "cmd%d%c--arg", (int)s->pid, 0);
	s->read_last = false;
	(void)born;
}

static void fill_sc(struct world *w, struct sctable *t)
{
	int n = (int)rnd(w, 5), i;

	sctable_clear(t);
	for (i = 0; i < n; i++) {
		struct sc_stat *s = sctable_get(t, rnd(w, 460));

		s->calls += 1 + rnd(w, 50);
		if (rnd(w, 3) == 0) {
			s->errors = 1 + rnd(w, (uint32_t)s->calls);
			s->top_errno = 1 + rnd(w, 40);
		}
		if (rnd(w, 4) == 0) {
			s->timed = s->calls;
			s->time_ns = rnd(w, 1000000);
			s->max_ns = rnd(w, 100000);
		}
	}
}

static void fill_err(struct world *w, struct sctable *t)
{
	int n = (int)rnd(w, 3), i;

	sctable_clear(t);
	for (i = 0; i < n; i++)
		sctable_get(t, sc_err_key(rnd(w, 460), 1 + rnd(w, 130)))->errors += 1 + rnd(w, 9);
	if (rnd(w, 20) == 0)	/* a number past the last system call's */
		sctable_get(t, sc_err_key(0xfffffff0u, 38))->errors = 3;
}

/* One tick of the pseudo-live source into @m. */
/* The recorder the samples go to (record_world), as src/sources.c gives them. */
static struct record *g_rec;

static void apply(struct model *m, struct sample *s)
{
	if (g_rec)
		record_sample(g_rec, s);
	model_apply(m, s);
}

static void world_tick(struct world *w, struct model *m, struct sample *s)
{
	size_t i, nsc = 0;
	int c;

	w->mono += 500000000ull + rnd(w, 1000000);
	w->wall += 0.5 + rnd(w, 1000) / 1e6;
	s->begin = s->end = true;
	s->mono_ns = w->mono;
	s->wall_s = w->wall;
	/* The system: counters grow, a CPU goes offline now and then. */
	s->have_sys = true;
	w->sys.have_stat = w->sys.have_mem = w->sys.have_vm = w->sys.have_load = true;
	w->sys.have_uptime = rnd(w, 10) != 0;
	w->sys.stat.ncpu = 2 + (int)rnd(w, 2);
	for (c = 0; c < w->sys.stat.ncpu; c++) {
		w->cpu[c].present = rnd(w, 8) != 0;
		w->cpu[c].user += rnd(w, 50);
		w->cpu[c].idle += rnd(w, 50);
		w->cpu[c].system += rnd(w, 5);
	}
	w->sys.stat.total.present = 1;
	w->sys.stat.total.user += rnd(w, 100);
	w->sys.stat.total.idle += rnd(w, 100);
	w->sys.stat.ctxt += rnd(w, 100000);
	w->sys.stat.intr += rnd(w, 100000);
	w->sys.stat.forks += rnd(w, 10);
	w->sys.mem.total = 8000000;
	w->sys.mem.available = 4000000 + rnd(w, 1000);
	w->sys.mem.has_available = 1;
	w->sys.vm.pgfault += rnd(w, 1000);
	w->sys.load.avg[0] = rnd(w, 400) / 100.0;
	w->sys.uptime_s += 0.5;
	s->sys = w->sys;
	s->sys.stat.cpu = s->cpu;
	memcpy(s->cpu, w->cpu, sizeof(w->cpu));

	for (i = 0; i < NSIM; i++) {
		struct sim *p = &w->p[i];
		struct task_reading *r;

		if (!p->alive) {
			if (rnd(w, 4) == 0) {
				pid_t reuse = p->pid;

				sim_new(w, p, true);
				/* Now and then the pid of the one before: reused. */
				if (rnd(w, 3) == 0) {
					p->pid = p->st.pid = reuse;
					w->next_pid--;
				}
			} else {
				/* It left: a row of its last events, or not. */
				if (p->read_last && w->traced && rnd(w, 2)) {
					struct row_events *e = sample_add_row(s);

					e->id = p->pid;
					e->tgid = p->pid;
					e->n[CNT_SYSCALLS] = rnd(w, 9);
					e->renamed = rnd(w, 2);
					snprintf(e->comm, sizeof(e->comm), "%s", e->renamed ? "execd" : p->st.comm);
					e->exited = true;
				}
				/* Its exit record, the tick after its last reading. */
				if (p->read_last && rnd(w, 2)) {
					struct task_final *f = sample_add_final(s);

					f->id = f->tgid = p->pid;
					f->ppid = 1;
					f->have = (1u << CNT_CPU) | (1u << CNT_MINFLT) | (1u << CNT_MAJFLT);
					if (!w->traced)
						f->have |= (1u << CNT_VCSW) | (1u << CNT_IVCSW);
					f->cnt[CNT_CPU] = (p->st.utime + p->st.stime) * 10000000ull + rnd(w, 9999999);
					f->cnt[CNT_MINFLT] = p->st.minflt + rnd(w, 50);
					f->cnt[CNT_MAJFLT] = p->st.majflt;
					f->cnt[CNT_VCSW] = p->vcsw + rnd(w, 5);
					f->cnt[CNT_IVCSW] = p->ivcsw;
					f->have |= (1u << CNT_DISK_READ) | (1u << CNT_DISK_WRITE);
					f->cnt[CNT_DISK_READ] = p->rd + p->st.minflt % 8 * 1024;
					f->cnt[CNT_DISK_WRITE] = p->wr + p->vcsw % 8 * 4096;
					f->uid = rnd(w, 3) ? -1 : 1;
					f->user = f->uid < 0 ? NULL : users[1];
					snprintf(f->comm, sizeof(f->comm), "%s", rnd(w, 3) ? p->st.comm : "lastname");
				}
				p->read_last = false;
				continue;
			}
		}
		/* A reading; most move, some do not. */
		if (rnd(w, 3)) {
			p->st.utime += rnd(w, 20);
			p->st.minflt += rnd(w, 100);
			p->st.rss = rnd(w, 1000);
		}
		if (rnd(w, 20) == 0) {
			/* An exec: a new name and command line. */
			snprintf(p->st.comm, sizeof(p->st.comm), "exec%u", rnd(w, 99));
			snprintf(p->cmd, sizeof(p->cmd), "new%u", rnd(w, 99));
			p->cmd_sent = false;
		}
		if (rnd(w, 30) == 0) {
			p->uid = rnd(w, 3);
			p->user = users[p->uid];
		}
		r = sample_add_task(s);
		r->pid = p->pid;
		r->tgid = p->pid;
		r->born = !p->read_last && rnd(w, 4) != 0;
		r->stat = p->st;
		r->have_csw = !w->traced && rnd(w, 4) != 0;
		p->vcsw += rnd(w, 10);
		p->ivcsw += rnd(w, 3);
		r->vcsw = p->vcsw;
		r->ivcsw = p->ivcsw;
		/*
		 * Format 6: the disk bytes, read or not, moving or not; from what
		 * moved already, not rnd: the other fields' draws stay as they were.
		 */
		r->have_io = (p->st.utime + (uint64_t)p->pid) % 5 != 0;
		p->rd += p->st.minflt % 3 ? 0 : (p->st.utime % 64) * 4096;
		p->wr += p->vcsw % 2 ? 0 : (p->vcsw * 977 % 2048) * 4096;
		r->io_read = p->rd;
		r->io_write = p->wr;
		r->uid = p->uid;
		r->user = p->user;
		r->cgroup = rnd(w, 2) ? p->cgroup : NULL;
		if (!p->cmd_sent && rnd(w, 2)) {
			size_t len = strlen(p->cmd) + 1 + strlen(p->cmd + strlen(p->cmd) + 1);

			r->cmdline = rcstr_new(p->cmd, len);
			r->cmdline_len = len;
			p->cmd_sent = true;
		}
		p->read_last = true;
		if (w->traced && rnd(w, 2)) {
			struct row_events *e = sample_add_row(s);

			e->id = p->pid;
			e->tgid = p->pid;
			for (c = 0; c < CNT_NR; c++)
				if (EV_BITS & (1u << c))
					e->n[c] = rnd(w, 4) ? rnd(w, 30) : 0;
			/* The state split: known or not, ns (a whole interval's and more). */
			e->have_state = rnd(w, 3) != 0;
			for (c = CNT_ONCPU; c <= CNT_STOPPED; c++)
				e->n[c] = e->have_state && rnd(w, 2) ? rnd(w, 900000) * 1111ull : 0;
			fill_sc(w, &w->sc[nsc]);
			fill_err(w, &w->err[nsc]);
			e->err = &w->err[nsc];
			e->sc = &w->sc[nsc++];
			snprintf(e->comm, sizeof(e->comm), "%s", p->st.comm);
		}
		if (w->traced && rnd(w, 25) == 0)
			sample_add_withheld(s, p->pid);
		/* Its exit: the event, and /proc gone from the next tick. */
		if (rnd(w, 12) == 0) {
			p->alive = false;
			if (rnd(w, 2) && !w->threads)
				sample_add_exit(s, p->pid);
			if (rnd(w, 2))
				p->st.state = 'Z';
		}
	}
	/* Who signals whom: among the processes, the kernel, the other row. */
	if (w->traced) {
		int nf = (int)rnd(w, 4);

		for (c = 0; c < nf; c++) {
			struct sig_flow *f = sample_add_flow(s);

			f->sender = rnd(w, 5) ? w->p[rnd(w, NSIM)].pid : 0;
			f->receiver = w->p[rnd(w, NSIM)].pid;
			f->sig = 1 + (int)rnd(w, 31);
			f->result = (int)rnd(w, 5);
			f->n = 1 + rnd(w, 20);
			snprintf(f->sender_comm, sizeof(f->sender_comm), "s\"nd\\%c", (char)(0x80 + rnd(w, 4)));
			snprintf(f->receiver_comm, sizeof(f->receiver_comm), "rcv%u", rnd(w, 9));
		}
		if (rnd(w, 6) == 0) {
			struct sig_flow *f = sample_add_flow(s);

			f->sender = f->receiver = -1;
			f->n = 1 + rnd(w, 5);
		}
	}
	/* Born and gone between two reads: only its exit record tells of it. */
	if (rnd(w, 3) == 0) {
		struct task_final *f = sample_add_final(s);

		f->id = f->tgid = w->next_pid++;
		f->ppid = 1;
		f->born = true;
		f->have = (1u << CNT_CPU) | (1u << CNT_MINFLT);
		f->cnt[CNT_CPU] = rnd(w, 100000000);
		f->cnt[CNT_MINFLT] = rnd(w, 300);
		f->uid = 0;
		f->user = users[0];
		snprintf(f->comm, sizeof(f->comm), "brief%u", rnd(w, 9));
	}
	s->have_exit_totals = true;
	s->exits_lost = rnd(w, 12) == 0 ? rnd(w, 7) : 0;
	s->exits_lost_unknown = rnd(w, 40) == 0;
	/* Born and gone between two reads: only events tell of them. */
	if (w->traced && rnd(w, 2)) {
		struct row_events *e = sample_add_row(s);

		e->id = w->next_pid++;
		e->tgid = e->id;
		e->ppid = 1;
		e->n[CNT_SYSCALLS] = 1 + rnd(w, 40);
		e->have_state = rnd(w, 2);
		e->n[CNT_SLEEP] = e->have_state ? rnd(w, 500000) * 1000ull : 0;
		fill_sc(w, &w->sc[nsc]);
		e->sc = &w->sc[nsc++];
		snprintf(e->comm, sizeof(e->comm), "short%u", rnd(w, 9));
		e->exited = rnd(w, 2);
	}
	s->have_totals = true;
	for (c = 0; c < CNT_NR; c++)
		s->ev_total[c] = w->traced && (EV_BITS & (1u << c)) ? rnd(w, 100000) : 0;
	s->lost = rnd(w, 10) == 0 ? rnd(w, 50) : 0;
	s->lost_unknown = rnd(w, 30) == 0;
	apply(m, s);
}

/* Everything the model shows of a tick, as the batch writers write it. */
static char *dump(const struct model *m)
{
	static const int all[] = {
		COL_PID, COL_TGID, COL_PPID, COL_USER, COL_UID, COL_STATE, COL_NICE, COL_CPU, COL_MEM,
		COL_RSS, COL_VSZ, COL_TIME, COL_MINFLT, COL_MAJFLT, COL_VCSW, COL_IVCSW, COL_SYSC,
		COL_SYSERR, COL_TOPSC, COL_SIGRECV, COL_SIGSENT, COL_ONCPU, COL_RUNQ, COL_SLEEP,
		COL_BLOCKED, COL_STOPPED, COL_LOST, COL_THREADS, COL_CPUID,
		COL_DISK_READ, COL_DISK_WRITE, COL_NET_TX, COL_NET_RX,
		COL_CGROUP, COL_LOST_EXITS, COL_COMM, COL_CMDLINE,
	};
	struct batch b = { 0 };
	char *buf = NULL;
	size_t n = 0;

	rowset_init(&b.rows);
	b.rows.sort_col = COL_PID;
	b.rows.sort_dir = SORT_ASC;
	b.out = open_memstream(&buf, &n);
	b.cols = all;
	b.ncols = ARRAY_SIZE(all);
	b.syscalls = true;
	b.fmt = OUT_JSON;
	batch_write(&b, m);
	b.fmt = OUT_TEXT;
	batch_write(&b, m);
	/* The signal flows, as recorded (this interval's) and since the start. */
	{
		struct recbuf f = { 0 };

		recfmt_flows_encode(&f, &m->sigflows, NULL);
		fprintf(b.out, "flows %s other %llu all %llu\n", (char *)f.p,
			(unsigned long long)m->sigflows.other.n, (unsigned long long)m->sigflows.n_all);
		/* Since the start: after a jump, since the jump (compared without a jump only). */
		fprintf(b.out, "totals: %llu %llu", (unsigned long long)m->sigflows.other.total,
			(unsigned long long)m->sigflows.total_all);
		for (size_t i = 0; i < m->sigflows.n; i++)
			fprintf(b.out, " %llu", (unsigned long long)m->sigflows.v[i].total);
		fputc('\n', b.out);
		recbuf_free(&f);
	}
	/* What no writer shows (yet): each row's errors by errno. */
	for (size_t i = 0; i < b.rows.nrows; i++) {
		struct recbuf e = { 0 };

		recfmt_err_encode(&e, &b.rows.rows[i].task->err);
		fprintf(b.out, "%d %s\n", (int)b.rows.rows[i].task->pid, (char *)e.p);
		recbuf_free(&e);
	}
	fclose(b.out);
	rowset_free(&b.rows);
	return buf;
}

static void model_setup(struct model *m, const struct world *w)
{
	model_init(m, 100, 4);
	m->threads = w->threads;
	m->event_counters = w->traced ? EV_BITS : 0;
	m->exit_records = true;
	snprintf(m->trace_status, sizeof(m->trace_status), "%s", w->traced ? "" : "tracing off: test");
}

#define NTICKS 40

/*
 * Record NTICKS of a world into @pattern (keyframes every @key_s), keeping each
 * tick's dump; returns the dumps.
 */
static char **record_world(struct world *w, const char *pattern, double key_s, char **files,
			   size_t *nfiles)
{
	struct record_opts o = { .pattern = pattern, .keyframe_s = key_s };
	struct record *rec = NULL;
	struct model m;
	struct sample s;
	char **dumps = xcalloc(NTICKS, sizeof(*dumps)), err[640];
	int i;

	*nfiles = 0;
	model_setup(&m, w);
	sample_init(&s);
	w->wall = 1700000000.0;
	if (!CHECK(record_open(&o, w->wall + 0.5, &rec, err, sizeof(err)) == 0)) {
		printf("# %s\n", err);
		return dumps;
	}
	g_rec = rec;
	for (i = 0; i < NTICKS; i++) {
		world_tick(w, &m, &s);
		if (!CHECK(record_tick(rec, &m, err, sizeof(err)) == 0)) {
			printf("# %s\n", err);
			break;
		}
		if (!*nfiles || strcmp(files[*nfiles - 1], record_path(rec)))
			files[(*nfiles)++] = xstrdup(record_path(rec));
		dumps[i] = dump(&m);
	}
	g_rec = NULL;
	record_close(rec);
	sample_free(&s);
	model_free(&m);
	return dumps;
}

/* @d without its "totals:" line (in place). */
static void strip_totals(char *d)
{
	char *t = strstr(d, "\ntotals: "), *e;

	if (!t)
		return;
	e = strchr(t + 1, '\n');
	memmove(t + 1, e ? e + 1 : t + strlen(t), strlen(e ? e + 1 : t + strlen(t)) + 1);
}

/* Replay @file from its start, or from interval @seek (0 = no jump); compare with @dumps from @first. */
static int replay_compare(const char *file, const struct world *w, char **dumps, int first,
			  int64_t seek, bool since_start)
{
	struct replay *rp;
	struct model m;
	struct sample s;
	char err[320];
	bool shown;
	int i = first, rc, bad = 0;

	if (!CHECK(replay_open(file, NULL, &rp, err, sizeof(err)) == 0)) {
		printf("# %s\n", err);
		return -1;
	}
	model_setup(&m, w);
	sample_init(&s);
	if (seek && !CHECK(replay_seek(rp, seek, err, sizeof(err)) == 0))
		printf("# %s\n", err);
	while ((rc = replay_next(rp, &s, &shown, err, sizeof(err))) == 1) {
		model_apply(&m, &s);
		if (!shown)
			continue;
		if (i < NTICKS && dumps[i]) {
			char *d = dump(&m), *want = xstrdup(dumps[i]);

			/* What sums since the start sums since the jump, or the file's start. */
			if (!since_start) {
				strip_totals(d);
				strip_totals(want);
			}

			if (strcmp(d, want) && !bad++) {
				printf("# tick %d (file %s, seek %lld) differs\n", i, file, (long long)seek);
				size_t k = 0;

				while (d[k] && d[k] == want[k])
					k++;
				/* Around the first difference, within its line. */
				size_t b = k;

				while (b && want[b - 1] != '\n' && k - b < 150)
					b--;
				printf("# recorded: %.*s\n", (int)strcspn(want + b, "\n") < 300 ?
				       (int)strcspn(want + b, "\n") : 300, want + b);
				printf("# replayed: %.*s\n", (int)strcspn(d + b, "\n") < 300 ?
				       (int)strcspn(d + b, "\n") : 300, d + b);
			}
			CHECK(!strcmp(d, want));
			free(d);
			free(want);
		}
		i++;
	}
	if (rc < 0)
		printf("# %s\n", err);
	CHECK(rc == 0);
	sample_free(&s);
	model_free(&m);
	replay_close(rp);
	return i;
}

/* One replay, jumping back and forth: each jump shows the interval it asked for. */
static void seek_around(const char *file, const struct world *w, char **dumps)
{
	static const int64_t targets[] = { 30, 5, 1, 20, 2, 2, 40, 39, 1, 17 };
	struct replay *rp;
	struct model m;
	struct sample s;
	char err[320];
	bool shown;
	size_t i;

	if (!CHECK(replay_open(file, NULL, &rp, err, sizeof(err)) == 0))
		return;
	model_setup(&m, w);
	sample_init(&s);
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		int64_t seq = targets[i];
		char *d, *want;

		if (!CHECK(replay_seek(rp, seq, err, sizeof(err)) == 0))
			break;
		do {
			if (!CHECK(replay_next(rp, &s, &shown, err, sizeof(err)) == 1))
				goto out;
			model_apply(&m, &s);
		} while (!shown);
		CHECK_EQ_I64(replay_seq(rp), seq);
		d = dump(&m);
		want = xstrdup(dumps[seq - 1]);
		strip_totals(d);
		strip_totals(want);
		if (!CHECK(!strcmp(d, want)))
			printf("# jump %zu to %lld differs\n", i, (long long)seq);
		free(d);
		free(want);
	}
out:
	sample_free(&s);
	model_free(&m);
	replay_close(rp);
}

static void world_free(struct world *w)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(w->sc); i++) {
		sctable_free(&w->sc[i]);
		sctable_free(&w->err[i]);
	}
	free(w);
}

static void free_dumps(char **d)
{
	int i;

	for (i = 0; i < NTICKS; i++)
		free(d[i]);
	free(d);
}

static void round_trip(bool traced, bool threads, uint32_t seed)
{
	char dir[] = "/tmp/ktop-test-record-XXXXXX", file[128], *files[NTICKS];
	struct world *w = xcalloc(1, sizeof(*w));
	char **dumps;
	size_t nfiles, i;
	int64_t seq;
	int n;

	if (!CHECK(mkdtemp(dir)))
		return;
	w->rnd = seed;
	w->next_pid = 100;
	w->traced = traced;
	w->threads = threads;
	for (i = 0; i < NSIM; i++)
		sim_new(w, &w->p[i], false);
	snprintf(file, sizeof(file), "%s/rec.db", dir);
	dumps = record_world(w, file, 3.0, files, &nfiles);
	CHECK_EQ_U64(nfiles, 1);
	n = replay_compare(file, w, dumps, 0, 0, true);
	CHECK_EQ_I64(n, NTICKS);
	/* A jump to each interval: the same from there on. */
	for (seq = 2; seq <= NTICKS; seq++)
		CHECK_EQ_I64(replay_compare(file, w, dumps, (int)seq - 1, seq, false), NTICKS);
	seek_around(file, w, dumps);
	for (i = 0; i < nfiles; i++)
		free(files[i]);
	unlink(file);
	rmdir(dir);
	free_dumps(dumps);
	world_free(w);
}

static void test_round_trip_traced(void)
{
	round_trip(true, false, 12345);
	round_trip(true, false, 777);
	for (uint32_t seed = 1; getenv("KTOP_TEST_SEEDS") && seed < (uint32_t)atoi(getenv("KTOP_TEST_SEEDS")); seed++)
		round_trip(seed % 3 != 0, seed % 5 == 0, seed * 2654435761u + 1);
}

static void test_round_trip_proc_only(void)
{
	round_trip(false, false, 4242);
}

static void test_round_trip_threads(void)
{
	round_trip(true, true, 99);
}

/* A new file each second: each replays on its own, from its hidden baseline on. */
static void test_rotation(void)
{
	char dir[] = "/tmp/ktop-test-record-XXXXXX", pat[128], *files[NTICKS];
	struct world *w = xcalloc(1, sizeof(*w));
	char **dumps;
	size_t nfiles, i;
	int at = 0;

	if (!CHECK(mkdtemp(dir)))
		return;
	w->rnd = 31337;
	w->next_pid = 100;
	w->traced = true;
	for (i = 0; i < NSIM; i++)
		sim_new(w, &w->p[i], false);
	snprintf(pat, sizeof(pat), "%s/r-%%H%%M%%S.db", dir);
	dumps = record_world(w, pat, 600, files, &nfiles);
	CHECK(nfiles >= NTICKS / 3);
	for (i = 0; i < nfiles; i++) {
		int n = replay_compare(files[i], w, dumps, at, 0, i == 0);

		CHECK(n > at);
		at = n;
		unlink(files[i]);
		free(files[i]);
	}
	CHECK_EQ_I64(at, NTICKS);
	rmdir(dir);
	free_dumps(dumps);
	world_free(w);
}

/* A scripted source for test_rotation_carry: a reading of @pid. */
static void carry_read(struct sample *s, pid_t pid, char state, uint64_t utime, int64_t uid)
{
	char comm[16];
	struct task_reading *r;

	snprintf(comm, sizeof(comm), "p%d", (int)pid);
	r = fx_reading(s, pid, comm);
	r->stat.state = state;
	r->stat.utime = utime;
	r->stat.vsize = 4468 << 10;
	r->stat.rss = 796;
	r->uid = uid;
	r->user = uid >= 0 ? users[uid] : NULL;
	r->cgroup = cgroups[0];
	r->cmdline = rcstr_new("cmd", 4);
	r->cmdline_len = 4;
}

/* Its events of the interval, read after /proc listed it (or without it: only events tell). */
static void carry_row(struct sample *s, pid_t pid, uint64_t calls, bool exited)
{
	char comm[16];

	snprintf(comm, sizeof(comm), "p%d", (int)pid);
	fx_row(s, pid, comm, exited)->n[CNT_SYSCALLS] = calls;
}

/* Its exit record: @cpu_ns of CPU (0: none), its owner @uid. */
static void carry_final(struct sample *s, pid_t pid, uint64_t cpu_ns, bool born, int64_t uid)
{
	char comm[16];
	struct task_final *f;

	snprintf(comm, sizeof(comm), "p%d", (int)pid);
	f = fx_final(s, pid, comm);
	f->born = born;
	f->have = cpu_ns ? 1u << CNT_CPU : 0;
	f->cnt[CNT_CPU] = cpu_ns;
	f->uid = uid;
	f->user = uid >= 0 ? users[uid] : NULL;
}

/*
 * What a new file's first interval finds of the one before, each case of
 * the live runs that replayed otherwise: the next file must show its first
 * interval as recorded, though the state it starts from was the last file's.
 * 20: a zombie whose exit record counts more CPU than /proc reads it with
 * (no CPU then, not 0.0); 30: born and gone, only its exit record, then a
 * late row (its owner is the record's); 40: read, then its last row, then a
 * late one (its size, owner, command line are its last reading's); 50: read
 * with its exit seen, then late rows twice; 60: only events, then read; 70:
 * read, then its exit record, then another late row; 80: read as a zombie
 * with its exit, read again, then reaped (one last row, X).
 */
static void test_rotation_carry(void)
{
	char dir[] = "/tmp/ktop-test-record-XXXXXX", pat[128], *files[NTICKS], err[640];
	struct record_opts o = { .pattern = pat, .keyframe_s = 600 };
	struct world w = { .traced = true };
	static const double walls[] = { 1700000000.1, 1700000000.5, 1700000001.1, 1700000001.5 };
	char *dumps[NTICKS] = { 0 };
	struct record *rec = NULL;
	struct model m;
	struct sample s;
	size_t nfiles = 0, i;
	int k;

	if (!CHECK(mkdtemp(dir)))
		return;
	snprintf(pat, sizeof(pat), "%s/c-%%S.db", dir);
	model_setup(&m, &w);
	sample_init(&s);
	if (!CHECK(record_open(&o, walls[0], &rec, err, sizeof(err)) == 0)) {
		printf("# %s\n", err);
		goto out;
	}
	for (k = 0; k < (int)ARRAY_SIZE(walls); k++) {
		s.begin = s.end = true;
		s.mono_ns = 1000000000ull + (uint64_t)k * 500000000ull;
		s.wall_s = walls[k];
		carry_read(&s, 10, 'S', 10u * (unsigned)k, 0);
		switch (k) {
		case 0:
			carry_read(&s, 20, 'S', 5, 0);
			carry_read(&s, 40, 'S', 7, 1);
			carry_read(&s, 50, 'S', 3, 2);
			sample_add_exit(&s, 50);
			carry_read(&s, 70, 'S', 2, 1);
			carry_read(&s, 80, 'Z', 4, 0);
			sample_add_exit(&s, 80);
			break;
		case 1:
			carry_read(&s, 20, 'Z', 6, 0);
			sample_add_exit(&s, 20);
			carry_final(&s, 20, 90000000, false, 0);
			carry_final(&s, 30, 1000000, true, 0);
			carry_row(&s, 40, 3, true);
			carry_row(&s, 50, 2, true);
			carry_row(&s, 60, 4, false);
			carry_final(&s, 70, 30000000, false, 1);
			carry_read(&s, 80, 'Z', 4, 0);
			break;
		case 2:
			carry_read(&s, 20, 'Z', 6, 0);
			carry_row(&s, 30, 2, true);
			carry_row(&s, 40, 1, true);
			carry_row(&s, 50, 1, true);
			carry_read(&s, 60, 'R', 1, 2);
			carry_row(&s, 70, 5, true);
			break;
		default:
			carry_read(&s, 60, 'R', 2, 2);
			break;
		}
		record_sample(rec, &s);
		model_apply(&m, &s);
		if (!CHECK(record_tick(rec, &m, err, sizeof(err)) == 0)) {
			printf("# %s\n", err);
			break;
		}
		if (!nfiles || strcmp(files[nfiles - 1], record_path(rec)))
			files[nfiles++] = xstrdup(record_path(rec));
		dumps[k] = dump(&m);
	}
	record_close(rec);
	rec = NULL;
	CHECK_EQ_U64(nfiles, 2);
	/* The second file from its start: its two intervals as they were recorded. */
	if (nfiles == 2)
		CHECK_EQ_I64(replay_compare(files[1], &w, dumps, 2, 0, false), 4);
	/* And a jump to its first interval (its third: two are the hidden baseline). */
	if (nfiles == 2)
		CHECK_EQ_I64(replay_compare(files[1], &w, dumps, 2, 3, false), 4);
out:
	for (i = 0; i < nfiles; i++) {
		unlink(files[i]);
		free(files[i]);
	}
	rmdir(dir);
	for (k = 0; k < NTICKS; k++)
		free(dumps[k]);
	sample_free(&s);
	model_free(&m);
}

/*
 * A zombie whose exit the model applied before the keyframe a jump starts
 * from: reaped after the jump, it is the X row it was live (the keyframe
 * restores its exit), not a process that silently left.
 */
static void test_zombie_before_keyframe(void)
{
	char dir[] = "/tmp/ktop-test-record-XXXXXX", f[128], err[640];
	struct record_opts o = { .pattern = f, .keyframe_s = 1.0 };
	struct world w = { .traced = true };
	char *dumps[NTICKS] = { 0 };
	struct record *rec = NULL;
	struct model m;
	struct sample s;
	int k;

	if (!CHECK(mkdtemp(dir)))
		return;
	snprintf(f, sizeof(f), "%s/z.db", dir);
	model_setup(&m, &w);
	sample_init(&s);
	if (!CHECK(record_open(&o, 1700000000.0, &rec, err, sizeof(err)) == 0)) {
		printf("# %s\n", err);
		goto out;
	}
	/* Keyframes at ticks 0, 2, 4; the exit at 1; read a zombie to 4; reaped at 5. */
	for (k = 0; k < 6; k++) {
		s.begin = s.end = true;
		s.mono_ns = 1000000000ull + (uint64_t)k * 500000000ull;
		s.wall_s = 1700000000.1 + k * 0.1;
		carry_read(&s, 10, 'S', 10u * (unsigned)k, 0);
		if (k < 5)
			carry_read(&s, 90, k ? 'Z' : 'S', 3, 1);
		if (k == 1)
			sample_add_exit(&s, 90);
		record_sample(rec, &s);
		model_apply(&m, &s);
		if (!CHECK(record_tick(rec, &m, err, sizeof(err)) == 0)) {
			printf("# %s\n", err);
			break;
		}
		dumps[k] = dump(&m);
	}
	record_close(rec);
	CHECK(strstr(dumps[5], "\"pid\":90,") != NULL);
	CHECK_EQ_I64(replay_compare(f, &w, dumps, 0, 0, false), 6);
	/* From the keyframe at tick 2 (seq 3), two before the reaping's interval (seq 6). */
	CHECK_EQ_I64(replay_compare(f, &w, dumps, 5, 6, false), 6);
	CHECK_EQ_I64(replay_compare(f, &w, dumps, 4, 5, false), 6);
out:
	unlink(f);
	rmdir(dir);
	for (k = 0; k < NTICKS; k++)
		free(dumps[k]);
	sample_free(&s);
	model_free(&m);
}

static const struct sctable *stub_table(void *arg, int64_t id, bool err, bool *bad)
{
	(void)err;
	if (id > 3)
		*bad = true;
	return id > 3 ? NULL : arg;
}

static int64_t stub_id(void *arg, const struct sctable *t, bool err)
{
	(void)arg;
	(void)t;
	return err ? 2 : 1;
}

/*
 * Tasks with the command line of the one before (stored as "the same", a
 * byte): the encoder, the decoder, the samples and the model hold one copy,
 * a reference each (lib/rcstr.h); one task's own stays its own.
 */
static void test_cmdline_shared(void)
{
	enum { N = 1000, LEN = 60000 };
	const struct recsample_tables enc = { .id = stub_id }, dec = { .get = stub_table };
	char *big = xmalloc(LEN), *same;
	size_t before = rcstr_live_bytes(), pos = 0, i;
	struct recbuf b = { 0 };
	struct recmem em, dm;
	struct sample s;
	struct model m;

	memset(big, 'a', LEN);
	same = rcstr_new(big, LEN);
	sample_init(&s);
	recmem_init(&em);
	recmem_init(&dm);
	model_init(&m, 100, 4);
	s.begin = s.end = true;
	for (i = 0; i < N; i++) {
		struct task_reading *r = sample_add_task(&s);

		r->pid = r->tgid = r->stat.pid = (pid_t)(100 + i);
		r->stat.starttime = 7;
		r->cmdline = rcstr_ref(same);
		r->cmdline_len = LEN;
	}
	/* The last one's own: its bytes, its copy. */
	big[0] = 'b';
	rcstr_put(s.tasks[N - 1].cmdline);
	s.tasks[N - 1].cmdline = rcstr_new(big, LEN);
	CHECK(recsample_encode(&b, &em, &s, &enc) == 0);
	sample_reset(&s);
	/* Two command lines' bytes, not a thousand's. */
	CHECK(b.len < 2 * LEN + 20 * N);
	CHECK(recsample_decode(b.p, b.len, &pos, &dm, &s, &dec) == 1);
	CHECK_EQ_U64(s.ntasks, N);
	CHECK(s.tasks[0].cmdline && s.tasks[0].cmdline == s.tasks[N - 2].cmdline);
	CHECK(s.tasks[N - 1].cmdline != s.tasks[0].cmdline && s.tasks[N - 1].cmdline[0] == 'b');
	model_apply(&m, &s);
	CHECK_EQ_U64(m.ntasks, N);
	CHECK(model_task_find(&m, 100)->cmdline_len == LEN &&
	      !memcmp(model_task_find(&m, 100)->cmdline, same, LEN));
	/* The encoder's and the decoder's: two copies each, with headers. */
	rcstr_put(same);
	CHECK(rcstr_live_bytes() - before < 4 * (LEN + 64));
	CHECK(rcstr_live_bytes() - before >= 4 * LEN);
	model_free(&m);
	recmem_free(&em);
	recmem_free(&dm);
	CHECK_EQ_U64(rcstr_live_bytes(), before);
	sample_free(&s);
	recbuf_free(&b);
	free(big);
}

/*
 * The samples' decoder on what a hostile file may hold: every cut of a real
 * interval's bytes and random changes to them end in -1 or a sample, never a
 * crash or a read outside (ASan); the whole decodes to what was encoded.
 */
static void test_samples_damaged(void)
{
	struct world *w = xcalloc(1, sizeof(*w));
	struct sctable tab = { 0 };
	const struct recsample_tables enc = { .id = stub_id }, dec = { .arg = &tab, .get = stub_table };
	struct recbuf b = { 0 };
	struct recmem em, dm;
	struct sample d;
	size_t cut, pos, start, i;
	int k, rc;

	w->rnd = 4242;
	w->next_pid = 100;
	w->traced = true;
	for (i = 0; i < NSIM; i++)
		sim_new(w, &w->p[i], false);
	sctable_get(&tab, 59);	/* not empty: rows name it */
	sample_init(&d);
	recmem_init(&em);
	/* A sample made by hand: encoded twice (the second as differences), decoded, damaged. */
	{
		struct sample t;

		sample_init(&t);
		t.begin = t.end = true;
		for (i = 0; i < 40; i++) {
			struct task_reading *r = sample_add_task(&t);

			r->pid = (pid_t)(100 + i);
			r->tgid = r->pid;
			r->stat.starttime = 1000 + i;
			r->stat.utime = i * 7;
			snprintf(r->stat.comm, sizeof(r->stat.comm), "p%zu", i);
			r->user = users[i % 3];
			r->cgroup = i % 2 ? cgroups[i % 3] : NULL;
			if (i % 3 == 0) {
				r->cmdline = rcstr_new("cmd", 4);
				r->cmdline_len = 4;
			}
		}
		for (i = 0; i < 5; i++) {
			struct row_events *e = sample_add_row(&t);

			e->id = e->tgid = (pid_t)(100 + i);
			e->n[CNT_SYSCALLS] = i + 1;
			e->sc = &tab;
		}
		sample_add_exit(&t, 103);
		struct task_final *f = sample_add_final(&t);

		f->id = f->tgid = 200;
		f->uid = 0;
		f->user = users[0];
		f->have = 1;
		f->cnt[0] = 5;
		b.len = 0;
		CHECK(recsample_encode(&b, &em, &t, &enc) == 0);
		/* Twice: the second as a difference from the first. */
		start = b.len;
		t.tasks[3].stat.utime += 5;
		for (i = 0; i < t.ntasks; i++) {
			rcstr_put(t.tasks[i].cmdline);
			t.tasks[i].cmdline = NULL;
		}
		CHECK(recsample_encode(&b, &em, &t, &enc) == 0);
		/* Whole: both decode, the second's readings as encoded. */
		recmem_init(&dm);
		pos = 0;
		CHECK(recsample_decode(b.p, b.len, &pos, &dm, &d, &dec) == 1);
		sample_reset(&d);
		CHECK_EQ_U64(pos, start);
		CHECK(recsample_decode(b.p, b.len, &pos, &dm, &d, &dec) == 1);
		CHECK_EQ_U64(pos, b.len);
		CHECK_EQ_U64(d.ntasks, 40);
		CHECK_EQ_U64(d.tasks[3].stat.utime, 26);
		CHECK_STR(d.tasks[5].user, users[2]);
		CHECK(d.tasks[5].cgroup && !strcmp(d.tasks[5].cgroup, cgroups[2]));
		CHECK(!d.tasks[4].cgroup);
		CHECK(!d.tasks[0].cmdline);
		CHECK_EQ_U64(d.nrows, 5);
		CHECK(d.rows[2].sc == &tab && d.rows[2].n[CNT_SYSCALLS] == 3);
		CHECK_EQ_U64(d.nexits, 1);
		CHECK_EQ_U64(d.nfinals, 1);
		CHECK(d.finals[0].uid == 0 && d.finals[0].cnt[0] == 5);
		sample_reset(&d);
		recmem_free(&dm);
		/* Every cut, and random bytes changed: -1 or a sample, nothing else. */
		for (cut = 0; cut < b.len; cut++) {
			recmem_init(&dm);
			pos = 0;
			while ((rc = recsample_decode(b.p, cut, &pos, &dm, &d, &dec)) == 1)
				sample_reset(&d);
			CHECK(rc == 0 || rc == -1);
			sample_reset(&d);
			recmem_free(&dm);
		}
		for (k = 0; k < 3000; k++) {
			uint8_t *c = xmalloc(b.len);

			memcpy(c, b.p, b.len);
			for (i = 0; i < 1 + rnd(w, 4); i++)
				c[rnd(w, (uint32_t)b.len)] = (uint8_t)rnd(w, 256);
			recmem_init(&dm);
			pos = 0;
			while ((rc = recsample_decode(c, b.len, &pos, &dm, &d, &dec)) == 1)
				sample_reset(&d);
			CHECK(rc == 0 || rc == -1);
			sample_reset(&d);
			recmem_free(&dm);
			free(c);
		}
		sample_free(&t);
	}
	recmem_free(&em);
	recbuf_free(&b);
	sample_free(&d);
	sctable_free(&tab);
	world_free(w);
}

/*
 * An idle process costs a byte a tick: its reading unchanged, its cgroup
 * given every tick (the recorder asks for it) as at the tick before. A
 * cgroup that stops being given, and comes again, decodes as it was given.
 */
static void test_idle_one_byte(void)
{
	const struct recsample_tables enc = { .id = stub_id }, dec = { .get = stub_table };
	struct recbuf b = { 0 };
	struct recmem em, dm;
	struct sample t, d;
	size_t i, pos = 0, start, tick2, tick3;
	int round;

	sample_init(&t);
	sample_init(&d);
	recmem_init(&em);
	recmem_init(&dm);
	t.begin = t.end = true;
	for (i = 0; i < 1000; i++) {
		struct task_reading *r = sample_add_task(&t);

		r->pid = r->tgid = (pid_t)(1000 + i);
		r->stat.starttime = 500 + i;
		r->stat.state = 'S';
		snprintf(r->stat.comm, sizeof(r->stat.comm), "idle");
		r->user = users[0];
		r->cgroup = cgroups[i % 2];
	}
	CHECK(recsample_encode(&b, &em, &t, &enc) == 0);
	start = b.len;
	CHECK(recsample_encode(&b, &em, &t, &enc) == 0);
	/* The parts, the count, the order's mode and its two empty lists: 5 bytes, then 1 a task. */
	CHECK(b.len - start <= 1000 + 8);
	tick2 = b.len;
	t.tasks[7].cgroup = NULL;
	CHECK(recsample_encode(&b, &em, &t, &enc) == 0);
	tick3 = b.len;
	t.tasks[7].cgroup = cgroups[1];
	CHECK(recsample_encode(&b, &em, &t, &enc) == 0);
	for (round = 0; round < 4; round++) {
		CHECK(recsample_decode(b.p, b.len, &pos, &dm, &d, &dec) == 1);
		CHECK_EQ_U64(d.ntasks, 1000);
		CHECK(d.tasks[6].cgroup && !strcmp(d.tasks[6].cgroup, cgroups[0]));
		if (round == 2)
			CHECK(!d.tasks[7].cgroup);
		else
			CHECK(d.tasks[7].cgroup && !strcmp(d.tasks[7].cgroup, cgroups[1]));
		CHECK_EQ_U64(pos, round == 0 ? start : round == 1 ? tick2 : round == 2 ? tick3 : b.len);
		sample_reset(&d);
	}
	recmem_free(&dm);
	recmem_free(&em);
	recbuf_free(&b);
	sample_free(&t);
	sample_free(&d);
}

static void test_sys_codec(void)
{
	struct cpu_times c1[4] = { 0 }, c2[4] = { 0 }, c3[SYS_MAX_CPUS];
	struct sys_sample a = { 0 }, b = { 0 }, d = { 0 };
	struct recbuf buf = { 0 };

	a.stat.cpu = c1;
	b.stat.cpu = c2;
	d.stat.cpu = c3;
	a.have_stat = a.have_load = true;
	a.stat.ncpu = 2;
	c1[0] = (struct cpu_times){ 10, 0, 5, 1000, 3, 0, 0, 0, 1 };
	c1[1] = (struct cpu_times){ 20, 1, 6, 900, 2, 1, 1, 0, 0 };
	a.stat.ctxt = 123456789012ull;
	a.load.avg[0] = 0.52;
	a.uptime_s = 12345.67;
	b = a;
	b.stat.cpu = c2;
	b.stat.ncpu = 3;	/* one more CPU: its numbers count from 0 */
	c2[0] = c1[0];
	c2[1] = c1[1];
	c2[0].user += 7;
	c2[2] = (struct cpu_times){ 1, 2, 3, 4, 5, 6, 7, 8, 1 };
	b.stat.ctxt -= 5;	/* a counter that steps back still round-trips */
	b.load.avg[1] = 1.25;
	recfmt_sys_encode(&buf, &a, NULL);
	CHECK(recfmt_sys_decode(buf.p, buf.len, false, &d) == 0);
	CHECK_EQ_U64(d.stat.ctxt, a.stat.ctxt);
	CHECK(d.load.avg[0] == 0.52 && d.uptime_s == 12345.67 && d.have_stat && !d.have_mem);
	CHECK(!memcmp(c3, c1, 2 * sizeof(c1[0])));
	buf.len = 0;
	recfmt_sys_encode(&buf, &b, &a);
	CHECK(recfmt_sys_decode(buf.p, buf.len, true, &d) == 0);
	CHECK_EQ_I64(d.stat.ncpu, 3);
	CHECK(!memcmp(c3, c2, 3 * sizeof(c2[0])));
	CHECK_EQ_U64(d.stat.ctxt, b.stat.ctxt);
	CHECK(d.load.avg[1] == 1.25);
	/* Cut short, or with a byte more: not a sample. */
	CHECK(recfmt_sys_decode(buf.p, buf.len - 1, true, &d) == -1);
	buf.p[buf.len] = 0;
	CHECK(recfmt_sys_decode(buf.p, buf.len + 1, true, &d) == -1);
	recbuf_free(&buf);
}

static void test_sc_codec(void)
{
	struct sctable t = { 0 }, u = { 0 };
	struct recbuf buf = { 0 };
	struct sc_stat *s;
	static const char *const bad[] = {
		"", "[", "[[]]", "[[1]]", "[[1,2]", "[[1,2]]x", "[[01,2]]", "[[1,2,3,4,5,6,7,8]]",
		"[[1,2],[1,3]]", "[[4294967295,1]]", "[[1,-2]]", "[[1,18446744073709551616]]",
		"[ [1,2]]", "[[1,2],]", "[[1,2,3,4294967296]]",
	};
	size_t i;

	recfmt_sc_encode(&buf, &t);
	CHECK_STR((char *)buf.p, "[]");
	s = sctable_get(&t, 257);
	s->calls = 12;
	s->errors = 3;
	s->top_errno = 2;
	s = sctable_get(&t, 0);
	s->calls = 5;
	s = sctable_get(&t, 1);
	s->calls = 1;
	s->timed = 1;
	s->time_ns = 1500;
	s->max_ns = 1500;
	buf.len = 0;
	recfmt_sc_encode(&buf, &t);
	CHECK_STR((char *)buf.p, "[[0,5],[1,1,0,0,1,1500,1500],[257,12,3,2]]");
	CHECK(recfmt_sc_decode((char *)buf.p, buf.len, &u) == 0);
	CHECK_EQ_U64(u.used, 3);
	CHECK_EQ_U64(sctable_find(&u, 257)->top_errno, 2);
	CHECK_EQ_U64(sctable_find(&u, 1)->max_ns, 1500);
	CHECK(recfmt_sc_decode("[[18446744073709551615,18446744073709551615]]", 45, &u) == -1);
	CHECK(recfmt_sc_decode("[[7,18446744073709551615]]", 26, &u) == 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!CHECK(recfmt_sc_decode(bad[i], strlen(bad[i]), &u) == -1))
			printf("# accepted %s\n", bad[i]);
	sctable_free(&t);
	sctable_free(&u);
	recbuf_free(&buf);
}

static void test_err_codec(void)
{
	struct sctable t = { 0 }, u = { 0 };
	struct recbuf buf = { 0 };
	static const char *const bad[] = {
		"[[1,2]]", "[[1,4096,1]]", "[[1,2,3],[1,2,4]]", "[[4294967295,1,1]]", "[[1,2,3,4]]",
	};
	size_t i;

	sctable_get(&t, sc_err_key(257, 2))->errors = 5;
	sctable_get(&t, sc_err_key(257, 13))->errors = 1;
	sctable_get(&t, sc_err_key(4, 2))->errors = 7;
	sctable_get(&t, sc_err_key(0xffffff00u, 38))->errors = 2;
	recfmt_err_encode(&buf, &t);
	CHECK_STR((char *)buf.p, "[[4,2,7],[257,2,5],[257,13,1],[4294967294,38,2]]");
	CHECK(recfmt_err_decode((char *)buf.p, buf.len, &u) == 0);
	CHECK_EQ_U64(u.used, 4);
	CHECK_EQ_U64(sctable_find(&u, sc_err_key(257, 13))->errors, 1);
	CHECK_EQ_U64(sctable_find(&u, sc_err_key(0xffffff00u, 38))->errors, 2);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!CHECK(recfmt_err_decode(bad[i], strlen(bad[i]), &u) == -1))
			printf("# accepted %s\n", bad[i]);
	sctable_free(&t);
	sctable_free(&u);
	recbuf_free(&buf);
}

static void test_cmdline_codec(void)
{
	char out[64];

	CHECK(recfmt_cmdline_text("sleep\0" "60\0", 9, out));
	CHECK_STR(out, "sleep 60");
	CHECK(recfmt_cmdline_text("a\0\0b\0", 5, out));
	CHECK_STR(out, "a  b");
	/* An argument with a space, no final NUL (setproctitle), empty: a blob. */
	CHECK(!recfmt_cmdline_text("sh\0-c\0echo hi\0", 14, out));
	CHECK(!recfmt_cmdline_text("sshd: root", 10, out));
	CHECK(!recfmt_cmdline_text("", 0, out));
}

/* Not ktop's, a newer format, damaged: one line, no crash. */
static void test_refused(void)
{
	char dir[] = "/tmp/ktop-test-record-XXXXXX", f[128], err[320], sql[64];
	struct replay *rp = NULL;
	struct record *rec = NULL;
	struct record_opts o = { .pattern = f };
	sqlite3 *db;
	FILE *fp;

	if (!CHECK(mkdtemp(dir)))
		return;
	snprintf(f, sizeof(f), "%s/other.db", dir);
	CHECK(sqlite3_open(f, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "CREATE TABLE x(a); PRAGMA user_version=3", NULL, NULL, NULL) == 0);
	sqlite3_close(db);
	CHECK(replay_open(f, NULL, &rp, err, sizeof(err)) == -1);
	CHECK(strstr(err, "not a ktop recording") != NULL);
	/* The recorder does not write into someone else's database either. */
	CHECK(record_open(&o, 1700000000, &rec, err, sizeof(err)) == -1);
	CHECK(strstr(err, "not a ktop recording") != NULL);
	unlink(f);
	fp = fopen(f, "w");
	fputs("just text, long enough to be more than a header.................................."
	      "........................................................\n", fp);
	fclose(fp);
	CHECK(replay_open(f, NULL, &rp, err, sizeof(err)) == -1);
	CHECK(strstr(err, "not a ktop recording") != NULL);
	unlink(f);
	/* An empty recording: made, but no interval yet. */
	CHECK(record_open(&o, 1700000000, &rec, err, sizeof(err)) == 0);
	record_close(rec);
	CHECK(replay_open(f, NULL, &rp, err, sizeof(err)) == -1);
	CHECK(strstr(err, "no interval") != NULL);
	CHECK(sqlite3_open(f, &db) == SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", RECFMT_VERSION + 1);
	CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == 0);
	sqlite3_close(db);
	CHECK(replay_open(f, NULL, &rp, err, sizeof(err)) == -1);
	CHECK(strstr(err, "newer") != NULL);
	CHECK(record_open(&o, 1700000000, &rec, err, sizeof(err)) == -1);
	snprintf(sql, sizeof(sql), "format %d", RECFMT_VERSION + 1);
	CHECK(strstr(err, sql) != NULL);
	/* An older format (the model's rows, before the samples): refused, saying so. */
	CHECK(sqlite3_open(f, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "PRAGMA user_version=2", NULL, NULL, NULL) == 0);
	sqlite3_close(db);
	CHECK(replay_open(f, NULL, &rp, err, sizeof(err)) == -1);
	CHECK(strstr(err, "format 2 by an older ktop") != NULL);
	CHECK(record_open(&o, 1700000000, &rec, err, sizeof(err)) == -1);
	CHECK(strstr(err, "format 2") != NULL);
	unlink(f);
	rmdir(dir);
}

/*
 * The last resort against a hostile file: a query that runs longer than the
 * limit is stopped, and the replay ends with one line. A limit of a
 * nanosecond stops the first query that runs a thousand steps, whatever the
 * machine's speed; the default lets the same file play to its end.
 */
static void test_step_limit(void)
{
	char dir[] = "/tmp/ktop-test-record-XXXXXX", file[128], *files[NTICKS], err[320];
	struct world *w = xcalloc(1, sizeof(*w));
	struct replay_opts o = { .step_limit_s = 1e-9 };
	struct replay *rp;
	struct sample s;
	char **dumps;
	size_t nfiles, i;
	bool shown, stopped = false;
	int rc = 0, n = 0;

	if (!CHECK(mkdtemp(dir)))
		return;
	w->rnd = 2024;
	w->next_pid = 100;
	w->traced = true;
	for (i = 0; i < NSIM; i++)
		sim_new(w, &w->p[i], false);
	snprintf(file, sizeof(file), "%s/rec.db", dir);
	dumps = record_world(w, file, 600, files, &nfiles);
	sample_init(&s);
	err[0] = '\0';
	if (replay_open(file, &o, &rp, err, sizeof(err)) == 0) {
		while ((rc = replay_next(rp, &s, &shown, err, sizeof(err))) == 1) {
			sample_reset(&s);
			n++;
		}
		replay_close(rp);
	} else {
		rc = -1;
	}
	stopped = rc < 0 && strstr(err, "a query ran for more than") && !strchr(err, '\n');
	CHECK(stopped);
	if (!stopped)
		fprintf(stderr, "# %d intervals, rc %d: %s\n", n, rc, err);
	/* The default limit: every interval. */
	CHECK_EQ_I64(replay_compare(file, w, dumps, 0, 0, true), NTICKS);
	for (i = 0; i < nfiles; i++)
		free(files[i]);
	sample_free(&s);
	unlink(file);
	rmdir(dir);
	free_dumps(dumps);
	world_free(w);
}

static const struct test tests[] = {
	{ "idle_one_byte", test_idle_one_byte },
	{ "zombie_before_keyframe", test_zombie_before_keyframe },
	{ "samples_damaged", test_samples_damaged },
	{ "cmdline_shared", test_cmdline_shared },
	{ "sys_codec", test_sys_codec },
	{ "sc_codec", test_sc_codec },
	{ "cmdline_codec", test_cmdline_codec },
	{ "err_codec", test_err_codec },
	{ "round_trip_traced", test_round_trip_traced },
	{ "round_trip_proc_only", test_round_trip_proc_only },
	{ "round_trip_threads", test_round_trip_threads },
	{ "rotation", test_rotation },
	{ "rotation_carry", test_rotation_carry },
	{ "refused", test_refused },
	{ "step_limit", test_step_limit },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
