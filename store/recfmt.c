// SPDX-License-Identifier: GPL-2.0-only
#include "recfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"

const char *const recfmt_field_names[RF_NR] = {
	[RF_PPID] = "ppid", [RF_PGID] = "pgid", [RF_SID] = "sid", [RF_TTY] = "tty",
	[RF_PRIO] = "prio", [RF_NICE] = "nice", [RF_THREADS] = "threads", [RF_CPU] = "cpu",
	[RF_RSS] = "rss_kb", [RF_VSZ] = "vsz_kb", [RF_UTIME] = "utime", [RF_STIME] = "stime",
	[RF_MINFLT] = "minflt", [RF_MAJFLT] = "majflt", [RF_VCSW] = "vcsw", [RF_IVCSW] = "ivcsw",
	[RF_UID] = "uid",
};

const enum counter recfmt_ev_counter[RECFMT_NEV] = {
	CNT_SYSCALLS, CNT_SYSERR, CNT_SIGRECV, CNT_SIGSENT, CNT_VCSW, CNT_IVCSW,
};
const char *const recfmt_ev_names[RECFMT_NEV] = {
	"syscalls", "syscall_errors", "sig_recv", "sig_sent", "ev_vcsw", "ev_ivcsw",
};

/*
 * Integer columns are stored as SQLite integers (a value takes 0 to 8 bytes by
 * its size; 0 and NULL take none), text as text, a command line as text or a
 * blob (recfmt_cmdline_text). In a task row NULL means "as before": only what
 * moved is written, except in keyframes. Per-syscall tables and cgroup paths
 * repeat (the same command run again, the processes of one service): each is
 * stored once per file, in sctab and cgroup, and rows name it by its id.
 */
const char recfmt_schema[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;"
	"CREATE TABLE session(seq INTEGER PRIMARY KEY, wall REAL, host TEXT, kernel TEXT,"
	" version TEXT, hz INTEGER, page_kb INTEGER, threads INTEGER, event_counters INTEGER,"
	" events_uid INTEGER, trace_status TEXT, pins TEXT, restart INTEGER, clear INTEGER,"
	" exit_records INTEGER, exits_status TEXT);"
	"CREATE TABLE interval(seq INTEGER PRIMARY KEY, mono_ns INTEGER NOT NULL,"
	" wall REAL NOT NULL, flags INTEGER NOT NULL, syscalls INTEGER, syscall_errors INTEGER,"
	" sig_recv INTEGER, sig_sent INTEGER, vcsw INTEGER, ivcsw INTEGER, lost INTEGER,"
	" lost_unknown INTEGER, sys BLOB, sigflows TEXT, lost_exits INTEGER,"
	" lost_exits_unknown INTEGER);"
	"CREATE INDEX interval_wall ON interval(wall);"
	"CREATE TABLE proc(id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, pid INTEGER NOT NULL,"
	" tgid INTEGER NOT NULL, starttime INTEGER NOT NULL, comm TEXT, ppid INTEGER,"
	" uid INTEGER, user TEXT, cmdline BLOB, cgroup INTEGER);"
	"CREATE TABLE task(seq INTEGER NOT NULL, proc INTEGER NOT NULL, flags INTEGER NOT NULL,"
	" state TEXT, ppid INTEGER, pgid INTEGER, sid INTEGER, tty INTEGER, prio INTEGER,"
	" nice INTEGER, threads INTEGER, cpu INTEGER, rss_kb INTEGER, vsz_kb INTEGER,"
	" utime INTEGER, stime INTEGER, minflt INTEGER, majflt INTEGER, vcsw INTEGER,"
	" ivcsw INTEGER, uid INTEGER, user TEXT, comm TEXT, cmdline BLOB, cgroup INTEGER,"
	" syscalls INTEGER, syscall_errors INTEGER, sig_recv INTEGER, sig_sent INTEGER,"
	" ev_vcsw INTEGER, ev_ivcsw INTEGER, sc INTEGER, errs INTEGER, final TEXT, states TEXT,"
	" PRIMARY KEY(seq, proc))"
	" WITHOUT ROWID;"
	"CREATE TABLE cgroup(id INTEGER PRIMARY KEY, path TEXT NOT NULL);"
	"CREATE TABLE sctab(id INTEGER PRIMARY KEY, sc TEXT NOT NULL);"
	"CREATE TABLE syscall_name(nr INTEGER PRIMARY KEY, name TEXT, subsystem TEXT);"
	"CREATE TABLE errno_name(nr INTEGER PRIMARY KEY, name TEXT);"
	"CREATE VIEW syscall AS SELECT t.seq AS seq, t.proc AS proc,"
	" json_extract(j.value, '$[0]') AS nr, n.name AS name, n.subsystem AS subsystem,"
	" json_extract(j.value, '$[1]') AS calls,"
	" ifnull(json_extract(j.value, '$[2]'), 0) AS errors,"
	" ifnull(json_extract(j.value, '$[3]'), 0) AS last_errno,"
	" ifnull(json_extract(j.value, '$[4]'), 0) AS timed,"
	" ifnull(json_extract(j.value, '$[5]'), 0) AS time_ns,"
	" ifnull(json_extract(j.value, '$[6]'), 0) AS max_ns"
	" FROM task AS t JOIN sctab AS x ON x.id = t.sc JOIN json_each(x.sc) AS j"
	" LEFT JOIN syscall_name AS n ON n.nr = json_extract(j.value, '$[0]');"
	"CREATE VIEW syscall_error AS SELECT t.seq AS seq, t.proc AS proc,"
	" json_extract(j.value, '$[0]') AS nr, n.name AS name,"
	" json_extract(j.value, '$[1]') AS errno, e.name AS errno_name,"
	" json_extract(j.value, '$[2]') AS count"
	" FROM task AS t JOIN sctab AS x ON x.id = t.errs JOIN json_each(x.sc) AS j"
	" LEFT JOIN syscall_name AS n ON n.nr = json_extract(j.value, '$[0]')"
	" LEFT JOIN errno_name AS e ON e.nr = json_extract(j.value, '$[1]');";

/* 36 columns: seq, proc, flags, state, the fields, 4 texts, 6 counts, sc, errs, final, states. */
const char recfmt_task_insert[] =
	"INSERT INTO task VALUES (?,?,?,?, ?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?, ?,?,?,?, ?,?,?,?,?,?, ?,?,?,?)";

#define TASK_SELECT(sc, states) \
	"SELECT seq, proc, flags, state, ppid, pgid, sid, tty, prio, nice, threads, cpu, rss_kb," \
	" vsz_kb, utime, stime, minflt, majflt, vcsw, ivcsw, uid, user, comm, cmdline," \
	" (SELECT path FROM cgroup WHERE id = task.cgroup), syscalls, syscall_errors, sig_recv," \
	" sig_sent, ev_vcsw, ev_ivcsw, " sc ", final, " states " FROM task"
#define TASK_SC "(SELECT sc FROM sctab WHERE id = task.sc), (SELECT sc FROM sctab WHERE id = task.errs)"
const char recfmt_task_select[] = TASK_SELECT(TASK_SC, "states");
const char recfmt_task_select_nosc[] = TASK_SELECT("NULL, NULL", "states");
const char recfmt_task_select_v1[] = TASK_SELECT(TASK_SC, "NULL");
const char recfmt_task_select_nosc_v1[] = TASK_SELECT("NULL, NULL", "NULL");

void recfmt_states_encode(char *buf, size_t n, const uint64_t ns[RECFMT_NSTATES])
{
	snprintf(buf, n, "%llu,%llu,%llu,%llu,%llu", (unsigned long long)ns[0],
		 (unsigned long long)ns[1], (unsigned long long)ns[2], (unsigned long long)ns[3],
		 (unsigned long long)ns[4]);
}

int recfmt_states_decode(const char *s, size_t n, uint64_t ns[RECFMT_NSTATES])
{
	size_t pos = 0;
	int i;

	for (i = 0; i < RECFMT_NSTATES; i++) {
		uint64_t v = 0;
		size_t start = pos;

		while (pos < n && s[pos] >= '0' && s[pos] <= '9') {
			if (v > (UINT64_MAX - 9) / 10)
				return -1;
			v = v * 10 + (uint64_t)(s[pos++] - '0');
		}
		if (pos == start || (i < RECFMT_NSTATES - 1 ? pos >= n || s[pos++] != ',' : pos != n))
			return -1;
		ns[i] = v;
	}
	return 0;
}

void recfmt_task_fields(const struct task *t, int64_t v[RF_NR])
{
	v[RF_PPID] = t->ppid;
	v[RF_PGID] = t->pgid;
	v[RF_SID] = t->sid;
	v[RF_TTY] = t->tty_nr;
	v[RF_PRIO] = t->priority;
	v[RF_NICE] = t->nice;
	v[RF_THREADS] = (int64_t)t->threads;
	v[RF_CPU] = t->processor;
	v[RF_RSS] = (int64_t)t->rss_kb;
	v[RF_VSZ] = (int64_t)t->vsize_kb;
	v[RF_UTIME] = (int64_t)t->cnt[CNT_UTIME];
	v[RF_STIME] = (int64_t)t->cnt[CNT_STIME];
	v[RF_MINFLT] = (int64_t)t->cnt[CNT_MINFLT];
	v[RF_MAJFLT] = (int64_t)t->cnt[CNT_MAJFLT];
	v[RF_VCSW] = (int64_t)t->cnt[CNT_VCSW];
	v[RF_IVCSW] = (int64_t)t->cnt[CNT_IVCSW];
	v[RF_UID] = t->uid;
}

void recfmt_reading(const int64_t v[RF_NR], char state, const char *comm, long page_kb,
		    bool csw, struct task_reading *r)
{
	struct pid_stat *st = &r->stat;

	st->pid = r->pid;
	snprintf(st->comm, sizeof(st->comm), "%s", comm);
	st->state = state;
	st->ppid = (pid_t)v[RF_PPID];
	st->pgid = (pid_t)v[RF_PGID];
	st->sid = (pid_t)v[RF_SID];
	st->tty_nr = (int)v[RF_TTY];
	st->priority = v[RF_PRIO];
	st->nice = v[RF_NICE];
	st->num_threads = (uint64_t)v[RF_THREADS];
	st->processor = (int)v[RF_CPU];
	/* The model makes KiB of these again: pages times page_kb, bytes / 1024. */
	st->rss = page_kb > 0 ? (uint64_t)v[RF_RSS] / (uint64_t)page_kb : 0;
	st->vsize = (uint64_t)v[RF_VSZ] * 1024;
	st->utime = (uint64_t)v[RF_UTIME];
	st->stime = (uint64_t)v[RF_STIME];
	st->minflt = (uint64_t)v[RF_MINFLT];
	st->majflt = (uint64_t)v[RF_MAJFLT];
	r->have_csw = csw;
	r->vcsw = (uint64_t)v[RF_VCSW];
	r->ivcsw = (uint64_t)v[RF_IVCSW];
	r->uid = v[RF_UID];
}

bool recfmt_cmdline_text(const char *s, size_t len, char *out)
{
	size_t i;

	if (!len || s[len - 1])
		return false;
	for (i = 0; i + 1 < len; i++) {
		if (s[i] == ' ')
			return false;
		out[i] = s[i] ? s[i] : ' ';
	}
	out[len - 1] = '\0';
	return true;
}

void recfmt_cmdline_from_text(const char *t, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = t[i] == ' ' ? '\0' : t[i];
	out[n] = '\0';
}

void recbuf_free(struct recbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void put_bytes(struct recbuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_varint(struct recbuf *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	do {
		tmp[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	put_bytes(b, tmp, n);
}

/* A counter as itself (keyframe) or as its zigzag difference, wrapping, from @prev. */
static void put_num(struct recbuf *b, uint64_t cur, const uint64_t *prev)
{
	if (!prev) {
		put_varint(b, cur);
		return;
	}
	int64_t d = (int64_t)(cur - *prev);

	put_varint(b, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
}

/* A double: its 8 bytes, or in a difference one byte 0 when unchanged. */
static void put_double(struct recbuf *b, double cur, const double *prev)
{
	uint8_t one = 1;

	if (prev) {
		if (!memcmp(&cur, prev, sizeof(cur))) {
			uint8_t zero = 0;

			put_bytes(b, &zero, 1);
			return;
		}
		put_bytes(b, &one, 1);
	}
	put_bytes(b, &cur, sizeof(cur));
}

struct reader {
	const uint8_t *p;
	size_t n, pos;
	bool bad;
};

static uint64_t get_varint(struct reader *r)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64; shift += 7) {
		uint8_t c;

		if (r->pos >= r->n) {
			r->bad = true;
			return 0;
		}
		c = r->p[r->pos++];
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static void get_num(struct reader *r, uint64_t *v, bool delta)
{
	uint64_t z = get_varint(r);

	if (!delta) {
		*v = z;
		return;
	}
	*v += (z >> 1) ^ (0 - (z & 1));
}

static void get_double(struct reader *r, double *v, bool delta)
{
	if (delta) {
		if (r->pos >= r->n) {
			r->bad = true;
			return;
		}
		if (!r->p[r->pos++])
			return;
	}
	if (r->n - r->pos < sizeof(*v)) {
		r->bad = true;
		return;
	}
	memcpy(v, r->p + r->pos, sizeof(*v));
	r->pos += sizeof(*v);
}

/* The numbers of a CPU line, in the order they are stored. */
static uint64_t *cpu_field(struct cpu_times *c, int i)
{
	uint64_t *f[8] = { &c->user, &c->nice, &c->system, &c->idle, &c->iowait, &c->irq,
			   &c->softirq, &c->steal };

	return f[i];
}

/* The other counters, in the order they are stored. */
#define SYS_NUMS 23
static uint64_t *sys_num(struct sys_sample *s, int i)
{
	uint64_t *f[SYS_NUMS] = {
		&s->stat.ctxt, &s->stat.intr, &s->stat.forks, &s->stat.procs_running,
		&s->stat.procs_blocked, &s->mem.total, &s->mem.free, &s->mem.available,
		&s->mem.buffers, &s->mem.cached, &s->mem.sreclaimable, &s->mem.shmem,
		&s->mem.swap_total, &s->mem.swap_free, &s->vm.pgfault, &s->vm.pgmajfault,
		&s->vm.pswpin, &s->vm.pswpout, &s->vm.pgpgin, &s->vm.pgpgout, &s->load.running,
		&s->load.threads, &s->load.last_pid,
	};

	return f[i];
}

enum {
	SF_STAT = 1, SF_MEM = 2, SF_VM = 4, SF_LOAD = 8, SF_UPTIME = 16, SF_AVAIL = 32,
	SF_LASTPID = 64, SF_TOTAL_PRESENT = 128,
};

void recfmt_sys_encode(struct recbuf *b, const struct sys_sample *cur,
		       const struct sys_sample *prev)
{
	/* The accessors take non-const samples; these are only read. */
	struct sys_sample *c = (struct sys_sample *)cur, *p = (struct sys_sample *)prev;
	int ncpu = cur->stat.ncpu < 0 ? 0 : cur->stat.ncpu > SYS_MAX_CPUS ? SYS_MAX_CPUS :
		   cur->stat.ncpu;
	int i, k;

	put_varint(b, (cur->have_stat ? SF_STAT : 0) | (cur->have_mem ? SF_MEM : 0) |
		   (cur->have_vm ? SF_VM : 0) | (cur->have_load ? SF_LOAD : 0) |
		   (cur->have_uptime ? SF_UPTIME : 0) | (cur->mem.has_available ? SF_AVAIL : 0) |
		   (cur->load.has_last_pid ? SF_LASTPID : 0) |
		   (cur->stat.total.present ? SF_TOTAL_PRESENT : 0));
	put_varint(b, (uint64_t)ncpu);
	for (k = 0; k < 8; k++)
		put_num(b, *cpu_field(&c->stat.total, k), p ? cpu_field(&p->stat.total, k) : NULL);
	for (i = 0; i < ncpu; i++) {
		/* A CPU the sample before did not have counts from 0. */
		bool base = p && i < p->stat.ncpu;

		put_varint(b, cur->stat.cpu[i].present ? 1 : 0);
		for (k = 0; k < 8; k++) {
			uint64_t zero = 0;

			put_num(b, *cpu_field(&c->stat.cpu[i], k),
				p ? (base ? cpu_field(&p->stat.cpu[i], k) : &zero) : NULL);
		}
	}
	for (k = 0; k < SYS_NUMS; k++)
		put_num(b, *sys_num(c, k), p ? sys_num(p, k) : NULL);
	for (k = 0; k < 3; k++)
		put_double(b, cur->load.avg[k], prev ? &prev->load.avg[k] : NULL);
	put_double(b, cur->uptime_s, prev ? &prev->uptime_s : NULL);
}

int recfmt_sys_decode(const uint8_t *p, size_t n, bool delta, struct sys_sample *s)
{
	struct reader r = { p, n, 0, false };
	uint64_t flags = get_varint(&r), ncpu = get_varint(&r);
	int old = s->stat.ncpu, i, k;

	if (r.bad || ncpu > SYS_MAX_CPUS || !s->stat.cpu)
		return -1;
	if (!delta) {
		struct cpu_times *cpu = s->stat.cpu;

		memset(s, 0, sizeof(*s));
		s->stat.cpu = cpu;
		old = 0;
	}
	s->stat.ncpu_max = SYS_MAX_CPUS;
	s->have_stat = flags & SF_STAT;
	s->have_mem = flags & SF_MEM;
	s->have_vm = flags & SF_VM;
	s->have_load = flags & SF_LOAD;
	s->have_uptime = flags & SF_UPTIME;
	s->mem.has_available = !!(flags & SF_AVAIL);
	s->load.has_last_pid = !!(flags & SF_LASTPID);
	s->stat.total.present = !!(flags & SF_TOTAL_PRESENT);
	for (k = 0; k < 8; k++)
		get_num(&r, cpu_field(&s->stat.total, k), delta);
	for (i = 0; i < (int)ncpu; i++) {
		if (i >= old || old < 0)
			memset(&s->stat.cpu[i], 0, sizeof(s->stat.cpu[i]));
		s->stat.cpu[i].present = get_varint(&r) != 0;
		for (k = 0; k < 8; k++)
			get_num(&r, cpu_field(&s->stat.cpu[i], k), delta);
	}
	s->stat.ncpu = (int)ncpu;
	for (k = 0; k < SYS_NUMS; k++)
		get_num(&r, sys_num(s, k), delta);
	for (k = 0; k < 3; k++)
		get_double(&r, &s->load.avg[k], delta);
	get_double(&r, &s->uptime_s, delta);
	return r.bad || r.pos != r.n ? -1 : 0;
}

static int cmp_nr(const void *a, const void *b)
{
	uint32_t x = (*(const struct sc_stat *const *)a)->nr, y = (*(const struct sc_stat *const *)b)->nr;

	return x < y ? -1 : x > y;
}

/* @t's entries in the order of @cmp (the file's: one table, one text); free the array. */
static const struct sc_stat **sorted(const struct sc_table *t,
				     int (*cmp)(const void *, const void *), size_t *n)
{
	const struct sc_stat **v = xmalloc((t->used ? t->used : 1) * sizeof(*v));
	uint32_t k;

	*n = 0;
	for (k = 0; k < t->cap; k++)
		if (t->slots[k].nr != SC_EMPTY)
			v[(*n)++] = &t->slots[k];
	sort_array(v, *n, sizeof(*v), cmp);
	return v;
}

void recfmt_sc_encode(struct recbuf *b, const struct sc_table *t)
{
	size_t n, i;
	const struct sc_stat **v = sorted(t, cmp_nr, &n);
	char num[24];

	put_bytes(b, "[", 1);
	for (i = 0; i < n; i++) {
		uint64_t f[7] = { v[i]->nr, v[i]->calls, v[i]->errors, v[i]->top_errno, v[i]->timed,
				  v[i]->time_ns, v[i]->max_ns };
		int last = 6, j;

		while (last > 1 && !f[last])
			last--;
		put_bytes(b, i ? ",[" : "[", i ? 2 : 1);
		for (j = 0; j <= last; j++) {
			int len = snprintf(num, sizeof(num), j ? ",%llu" : "%llu", (unsigned long long)f[j]);

			put_bytes(b, num, (size_t)len);
		}
		put_bytes(b, "]", 1);
	}
	put_bytes(b, "]", 2);	/* with the NUL */
	b->len--;
	free(v);
}

/* A decimal number without sign or leading zeros (but "0"), up to 2^64 - 1. */
static bool parse_u64(const char *s, size_t n, size_t *pos, uint64_t *out)
{
	uint64_t v = 0;
	size_t start = *pos;

	while (*pos < n && s[*pos] >= '0' && s[*pos] <= '9') {
		unsigned d = (unsigned)(s[*pos] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		(*pos)++;
	}
	if (*pos == start || (s[start] == '0' && *pos - start > 1))
		return false;
	*out = v;
	return true;
}

int recfmt_sc_decode(const char *s, size_t n, struct sc_table *t)
{
	size_t pos = 0;

	sc_table_clear(t);
	if (n < 2 || s[pos++] != '[')
		return -1;
	if (s[pos] == ']')
		return pos + 1 == n ? 0 : -1;
	for (;;) {
		uint64_t f[7] = { 0 };
		struct sc_stat *st;
		int j = 0;

		if (pos >= n || s[pos++] != '[')
			return -1;
		for (;;) {
			if (j == 7 || !parse_u64(s, n, &pos, &f[j++]))
				return -1;
			if (pos < n && s[pos] == ',') {
				pos++;
				continue;
			}
			break;
		}
		if (j < 2 || pos >= n || s[pos++] != ']')
			return -1;
		/* A number is a syscall's only once; SC_EMPTY is no syscall. */
		if (f[0] >= SC_EMPTY || f[3] > UINT32_MAX || sc_table_find(t, (uint32_t)f[0]))
			return -1;
		st = sc_table_get(t, (uint32_t)f[0]);
		st->calls = f[1];
		st->errors = f[2];
		st->top_errno = (uint32_t)f[3];
		st->timed = f[4];
		st->time_ns = f[5];
		st->max_ns = f[6];
		if (pos >= n)
			return -1;
		if (s[pos] == ']')
			return pos + 1 == n ? 0 : -1;
		if (s[pos++] != ',')
			return -1;
	}
}

static int cmp_key(const void *a, const void *b)
{
	uint32_t x = (*(const struct sc_stat *const *)a)->nr, y = (*(const struct sc_stat *const *)b)->nr;
	uint64_t kx = (uint64_t)sc_err_nr(x) << 12 | sc_err_errno(x);
	uint64_t ky = (uint64_t)sc_err_nr(y) << 12 | sc_err_errno(y);

	return kx < ky ? -1 : kx > ky;
}

void recfmt_err_encode(struct recbuf *b, const struct sc_table *t)
{
	size_t n, i;
	const struct sc_stat **v = sorted(t, cmp_key, &n);
	char num[80];

	put_bytes(b, "[", 1);
	for (i = 0; i < n; i++) {
		int len = snprintf(num, sizeof(num), "%s[%u,%u,%llu]", i ? "," : "",
				   sc_err_nr(v[i]->nr), sc_err_errno(v[i]->nr),
				   (unsigned long long)v[i]->errors);

		put_bytes(b, num, (size_t)len);
	}
	put_bytes(b, "]", 2);
	b->len--;
	free(v);
}

int recfmt_err_decode(const char *s, size_t n, struct sc_table *t)
{
	size_t pos = 0;

	sc_table_clear(t);
	if (n < 2 || s[pos++] != '[')
		return -1;
	if (s[pos] == ']')
		return pos + 1 == n ? 0 : -1;
	for (;;) {
		uint64_t f[3];
		uint32_t key;
		int j;

		if (pos >= n || s[pos++] != '[')
			return -1;
		for (j = 0; j < 3; j++) {
			if (!parse_u64(s, n, &pos, &f[j]) || pos >= n || s[pos++] != (j < 2 ? ',' : ']'))
				return -1;
		}
		if (f[0] >= SC_EMPTY || f[1] > 0xfff)
			return -1;
		key = sc_err_key((uint32_t)f[0], (uint32_t)f[1]);
		if (sc_table_find(t, key))
			return -1;
		sc_table_get(t, key)->errors = f[2];
		if (pos >= n)
			return -1;
		if (s[pos] == ']')
			return pos + 1 == n ? 0 : -1;
		if (s[pos++] != ',')
			return -1;
	}
}

static void put_comm(struct recbuf *b, const char *c)
{
	size_t i;

	put_bytes(b, "\"", 1);
	for (i = 0; i < 16 && c[i]; i++) {
		unsigned char u = (unsigned char)c[i];
		char esc[8];

		if (u >= 0x20 && u < 0x7f && u != '"' && u != '\\') {
			put_bytes(b, &c[i], 1);
			continue;
		}
		snprintf(esc, sizeof(esc), "\\u%04x", u);
		put_bytes(b, esc, 6);
	}
	put_bytes(b, "\"", 1);
}

static void put_flow(struct recbuf *b, bool first, pid_t sender, pid_t receiver, int sig,
		     int result, uint64_t n, const char *sc, const char *rc)
{
	char num[96];
	int len = snprintf(num, sizeof(num), "%s[%d,%d,%d,%d,%llu,", first ? "" : ",", (int)sender,
			   (int)receiver, sig, result, (unsigned long long)n);

	/* No names: the five numbers only. */
	if (!sc[0] && !rc[0]) {
		num[len - 1] = ']';
		put_bytes(b, num, (size_t)len);
		return;
	}
	put_bytes(b, num, (size_t)len);
	put_comm(b, sc);
	put_bytes(b, ",", 1);
	put_comm(b, rc);
	put_bytes(b, "]", 1);
}

/* @c, or "" when @m has @pid by that name (the model names it so again). */
static const char *flow_name(const struct model *m, pid_t pid, const char *c)
{
	const struct task *t;

	if (!m || pid <= 0 || !(t = model_task_find(m, pid)) || !t->comm[0])
		return c;
	return strncmp(t->comm, c, 15) || strnlen(c, 16) > 15 ? c : "";
}

void recfmt_flows_encode(struct recbuf *b, const struct sigflows *f, const struct model *m)
{
	bool first = true;
	size_t i;

	put_bytes(b, "[", 1);
	for (i = 0; i < f->n; i++) {
		const struct sigflow *r = &f->v[i];

		if (!r->n)
			continue;
		put_flow(b, first, r->sender, r->receiver, r->sig, r->result, r->n,
			 flow_name(m, r->sender, r->sender_comm),
			 flow_name(m, r->receiver, r->receiver_comm));
		first = false;
	}
	if (f->other.n)
		put_flow(b, first, -1, -1, 0, 0, f->other.n, "", "");
	put_bytes(b, "]", 2);
	b->len--;
}

static bool parse_int(const char *s, size_t n, size_t *pos, int64_t lo, int64_t hi, int64_t *out)
{
	bool neg = *pos < n && s[*pos] == '-';
	uint64_t v;

	if (neg)
		(*pos)++;
	if (!parse_u64(s, n, pos, &v) || v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return *out >= lo && *out <= hi;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A name as put_comm writes it, into @out (16 bytes, NUL-terminated). */
static bool parse_comm(const char *s, size_t n, size_t *pos, char *out)
{
	size_t k = 0;

	if (*pos >= n || s[(*pos)++] != '"')
		return false;
	while (*pos < n && s[*pos] != '"') {
		char c = s[(*pos)++];

		if (c == '\\') {
			int h0, h1;

			if (n - *pos < 5 || s[*pos] != 'u' || s[*pos + 1] != '0' || s[*pos + 2] != '0' ||
			    (h0 = hexval(s[*pos + 3])) < 0 || (h1 = hexval(s[*pos + 4])) < 0)
				return false;
			c = (char)(h0 << 4 | h1);
			*pos += 5;
			if (!c)
				return false;
		} else if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f) {
			return false;
		}
		if (k == 15)
			return false;
		out[k++] = c;
	}
	out[k] = '\0';
	return *pos < n && s[(*pos)++] == '"';
}

int recfmt_flows_decode(const char *t, size_t n, struct sample *s)
{
	size_t pos = 0;

	if (n < 2 || t[pos++] != '[')
		return -1;
	if (t[pos] == ']')
		return pos + 1 == n ? 0 : -1;
	for (;;) {
		int64_t v[4];
		uint64_t count;
		struct sig_flow *f;
		char sc[16], rc[16];
		int j;

		if (pos >= n || t[pos++] != '[')
			return -1;
		for (j = 0; j < 4; j++)
			if (!parse_int(t, n, &pos, j < 2 ? -1 : -4096, j < 2 ? INT32_MAX : 4096, &v[j]) ||
			    pos >= n || t[pos++] != ',')
				return -1;
		if (!parse_u64(t, n, &pos, &count) || pos >= n)
			return -1;
		sc[0] = rc[0] = '\0';
		if (t[pos] == ',' && (++pos, !parse_comm(t, n, &pos, sc) || pos >= n ||
				      t[pos++] != ',' || !parse_comm(t, n, &pos, rc) || pos >= n))
			return -1;
		if (t[pos++] != ']')
			return -1;
		f = sample_add_flow(s);
		f->sender = (pid_t)v[0];
		f->receiver = (pid_t)v[1];
		f->sig = (int)v[2];
		f->result = (int)v[3];
		f->n = count;
		memcpy(f->sender_comm, sc, sizeof(sc));
		memcpy(f->receiver_comm, rc, sizeof(rc));
		if (pos >= n)
			return -1;
		if (t[pos] == ']')
			return pos + 1 == n ? 0 : -1;
		if (t[pos++] != ',')
			return -1;
	}
}

void recfmt_final_encode(struct recbuf *b, uint32_t have, const uint64_t cnt[CNT_NR])
{
	char num[32];
	int c, len;

	int last = CNT_NR - 1;

	/* Trailing zeros are left out: a short-lived process's record is mostly zeros. */
	while (last >= 0 && !(have & (1u << last) && cnt[last]))
		last--;
	len = snprintf(num, sizeof(num), "[%u", have);
	put_bytes(b, num, (size_t)len);
	for (c = 0; c <= last; c++) {
		len = snprintf(num, sizeof(num), ",%llu", (unsigned long long)(have & (1u << c) ? cnt[c] : 0));
		put_bytes(b, num, (size_t)len);
	}
	put_bytes(b, "]", 2);
	b->len--;
}

int recfmt_final_decode(const char *s, size_t n, uint32_t *have, uint64_t cnt[CNT_NR])
{
	size_t pos = 0;
	uint64_t h;
	int c;

	if (n < 2 || s[pos++] != '[' || !parse_u64(s, n, &pos, &h) || h >= (1u << CNT_NR))
		return -1;
	for (c = 0; c < CNT_NR; c++) {
		cnt[c] = 0;
		if (pos < n && s[pos] == ']')
			continue;	/* the rest are 0 */
		if (pos >= n || s[pos++] != ',' || !parse_u64(s, n, &pos, &cnt[c]))
			return -1;
	}
	if (pos + 1 != n || s[pos] != ']')
		return -1;
	*have = (uint32_t)h;
	return 0;
}
