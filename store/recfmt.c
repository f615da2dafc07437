// SPDX-License-Identifier: GPL-2.0-only
#include "recfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"

const enum counter recfmt_ev_counter[RECFMT_NEV] = {
	CNT_SYSCALLS, CNT_SYSERR, CNT_SIGRECV, CNT_SIGSENT, CNT_VCSW, CNT_IVCSW,
};

/*
 * An interval's samples are one blob (store/recsample.h, zlib'ed: its
 * length in 4 bytes, big-endian, then the deflated bytes); the rest is for
 * people who query the file, kept small since a short-lived process costs
 * its share of every table here and atop stores none of it (issue 22). A
 * process life is one row of life: what lives share (the same command run
 * again by the same parent: comm, ppid, user, command line, cgroup) is one
 * row of kind, and its first interval's syscall tables ride in it (a short
 * life has no other); task_after holds the intervals after, the view task
 * all of them. Per-syscall tables, cgroup paths, command lines and users
 * repeat (the processes of one service): each is stored once per file, in
 * sctab, cgroup and text, and rows name it by its id (the samples' rows name
 * their tables by these ids too). A command line that shares its beginning
 * and end with one stored before (a compiler's flags) is stored as that
 * one's id, the lengths they share and the middle (text.base, text.n,
 * text.m). An interval's signal flows are grouped by receiver
 * (recfmt_flows_encode). The views proc, task, syscall, syscall_error and
 * sigflow put it back together.
 */
/* A command line stored as the middle of one stored before: its bytes put together. */
#define CMD_JOINED "substr(CAST(b.t AS BLOB), 1, c.n) || c.t ||" \
	" substr(CAST(b.t AS BLOB), length(CAST(b.t AS BLOB)) - c.m + 1)"
const char recfmt_schema[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;"
	"CREATE TABLE session(seq INTEGER PRIMARY KEY, wall REAL, host TEXT, kernel TEXT,"
	" version TEXT, hz INTEGER, page_kb INTEGER, threads INTEGER, event_counters INTEGER,"
	" events_uid INTEGER, trace_status TEXT, pins TEXT, restart INTEGER, clear INTEGER,"
	" exit_records INTEGER, exits_status TEXT);"
	"CREATE TABLE interval(seq INTEGER PRIMARY KEY, mono_ns INTEGER NOT NULL,"
	" wall REAL NOT NULL, flags INTEGER NOT NULL, syscalls INTEGER, syscall_errors INTEGER,"
	" sig_recv INTEGER, sig_sent INTEGER, vcsw INTEGER, ivcsw INTEGER, lost INTEGER,"
	" lost_unknown INTEGER, sigflows TEXT, lost_exits INTEGER,"
	" lost_exits_unknown INTEGER, samples BLOB);"
	"CREATE INDEX interval_wall ON interval(wall);"
	"CREATE TABLE kind(id INTEGER PRIMARY KEY, comm TEXT, ppid INTEGER, uid INTEGER,"
	" user INTEGER, cmdline INTEGER, cgroup INTEGER);"
	"CREATE TABLE life(id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, pid INTEGER NOT NULL,"
	" tgid INTEGER, starttime INTEGER NOT NULL, kind INTEGER NOT NULL, sc INTEGER, errs INTEGER);"
	"CREATE TABLE text(id INTEGER PRIMARY KEY, t, base INTEGER, n INTEGER, m INTEGER);"
	"CREATE VIEW proc AS SELECT l.id AS id, l.seq AS seq, l.pid AS pid,"
	" ifnull(l.tgid, l.pid) AS tgid, l.starttime AS starttime, k.comm AS comm,"
	" k.ppid AS ppid, k.uid AS uid, u.t AS user,"
	" CASE WHEN c.base IS NULL THEN c.t"
	" WHEN typeof(c.t) = 'blob' THEN CAST(" CMD_JOINED " AS BLOB)"
	" ELSE CAST(" CMD_JOINED " AS TEXT) END AS cmdline,"
	" k.cgroup AS cgroup"
	" FROM life AS l JOIN kind AS k ON k.id = l.kind LEFT JOIN text AS u ON u.id = k.user"
	" LEFT JOIN text AS c ON c.id = k.cmdline LEFT JOIN text AS b ON b.id = c.base;"
	"CREATE TABLE task_after(seq INTEGER NOT NULL, proc INTEGER NOT NULL, sc INTEGER,"
	" errs INTEGER, PRIMARY KEY(seq, proc)) WITHOUT ROWID;"
	"CREATE VIEW task AS SELECT seq, id AS proc, sc, errs FROM life"
	" WHERE sc IS NOT NULL OR errs IS NOT NULL UNION ALL SELECT * FROM task_after;"
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
	" ifnull(json_extract(j.value, '$[6]'), 0) AS max_ns,"
	" json_extract(j.value, '$[7]') AS hist"
	" FROM task AS t JOIN sctab AS x ON x.id = t.sc JOIN json_each(x.sc) AS j"
	" LEFT JOIN syscall_name AS n ON n.nr = json_extract(j.value, '$[0]');"
	"CREATE VIEW syscall_error AS SELECT t.seq AS seq, t.proc AS proc,"
	" json_extract(j.value, '$[0]') AS nr, n.name AS name,"
	" json_extract(j.value, '$[1]') AS errno, e.name AS errno_name,"
	" json_extract(j.value, '$[2]') AS count"
	" FROM task AS t JOIN sctab AS x ON x.id = t.errs JOIN json_each(x.sc) AS j"
	" LEFT JOIN syscall_name AS n ON n.nr = json_extract(j.value, '$[0]')"
	" LEFT JOIN errno_name AS e ON e.nr = json_extract(j.value, '$[1]');"
	"CREATE VIEW sigflow AS SELECT i.seq AS seq,"
	" CASE f.type WHEN 'array' THEN json_extract(f.value, '$[0]') ELSE f.value END AS sender,"
	" json_extract(g.value, '$[0]') AS receiver, json_extract(g.value, '$[1]') AS signal,"
	" json_extract(g.value, '$[2]') AS result,"
	" CASE f.type WHEN 'array' THEN json_extract(f.value, '$[1]') ELSE 1 END AS n,"
	" CASE f.type WHEN 'array' THEN json_extract(f.value, '$[2]') END AS sender_comm,"
	" CASE f.type WHEN 'array' THEN json_extract(f.value, '$[3]') END AS receiver_comm"
	" FROM interval AS i JOIN json_each(i.sigflows) AS g JOIN json_each(g.value) AS f"
	" WHERE f.key >= 3;";

const char recfmt_task_insert[] = "INSERT INTO task_after VALUES (?,?,?,?)";

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

void recbuf_free(struct recbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void rec_put_bytes(struct recbuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void rec_put_varint(struct recbuf *b, uint64_t v)
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
	rec_put_bytes(b, tmp, n);
}

/* A counter as itself (keyframe) or as its zigzag difference, wrapping, from @prev. */
static void put_num(struct recbuf *b, uint64_t cur, const uint64_t *prev)
{
	if (!prev) {
		rec_put_varint(b, cur);
		return;
	}
	int64_t d = (int64_t)(cur - *prev);

	rec_put_varint(b, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
}

/* A double: its 8 bytes, or in a difference one byte 0 when unchanged. */
static void put_double(struct recbuf *b, double cur, const double *prev)
{
	uint8_t one = 1;

	if (prev) {
		if (!memcmp(&cur, prev, sizeof(cur))) {
			uint8_t zero = 0;

			rec_put_bytes(b, &zero, 1);
			return;
		}
		rec_put_bytes(b, &one, 1);
	}
	rec_put_bytes(b, &cur, sizeof(cur));
}

uint64_t rec_get_varint(struct rec_reader *r)
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

static void get_num(struct rec_reader *r, uint64_t *v, bool delta)
{
	uint64_t z = rec_get_varint(r);

	if (!delta) {
		*v = z;
		return;
	}
	*v += (z >> 1) ^ (0 - (z & 1));
}

static void get_double(struct rec_reader *r, double *v, bool delta)
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

	rec_put_varint(b, (cur->have_stat ? SF_STAT : 0) | (cur->have_mem ? SF_MEM : 0) |
		   (cur->have_vm ? SF_VM : 0) | (cur->have_load ? SF_LOAD : 0) |
		   (cur->have_uptime ? SF_UPTIME : 0) | (cur->mem.has_available ? SF_AVAIL : 0) |
		   (cur->load.has_last_pid ? SF_LASTPID : 0) |
		   (cur->stat.total.present ? SF_TOTAL_PRESENT : 0));
	rec_put_varint(b, (uint64_t)ncpu);
	for (k = 0; k < 8; k++)
		put_num(b, *cpu_field(&c->stat.total, k), p ? cpu_field(&p->stat.total, k) : NULL);
	for (i = 0; i < ncpu; i++) {
		/* A CPU the sample before did not have counts from 0. */
		bool base = p && i < p->stat.ncpu;

		rec_put_varint(b, cur->stat.cpu[i].present ? 1 : 0);
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
	struct rec_reader r = { p, n, 0, false };
	uint64_t flags = rec_get_varint(&r), ncpu = rec_get_varint(&r);
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
		s->stat.cpu[i].present = rec_get_varint(&r) != 0;
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

/*
 * @v in decimal, after @sep when it is not NUL. The tables are written for
 * every new one an interval: snprintf's parsing of its format was most of it.
 */
static void put_dec(struct recbuf *b, char sep, uint64_t v)
{
	char tmp[U64_DEC_BUF], *s = u64_dec(tmp + sizeof(tmp), v);

	if (sep)
		*--s = sep;
	rec_put_bytes(b, s, (size_t)(tmp + sizeof(tmp) - s));
}

static int cmp_nr(const void *a, const void *b)
{
	uint32_t x = (*(const struct sc_stat *const *)a)->nr, y = (*(const struct sc_stat *const *)b)->nr;

	return x < y ? -1 : x > y;
}

/* @t's entries in the order of @cmp (the file's: one table, one text); free the array. */
static const struct sc_stat **sorted(const struct sctable *t,
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

void recfmt_sc_encode(struct recbuf *b, const struct sctable *t)
{
	size_t n, i;
	const struct sc_stat **v = sorted(t, cmp_nr, &n);
	const struct lathist *hist;
	unsigned k;
	bool first;

	rec_put_bytes(b, "[", 1);
	for (i = 0; i < n; i++) {
		uint64_t f[7] = { v[i]->nr, v[i]->calls, v[i]->errors, v[i]->top_errno, v[i]->timed,
				  v[i]->time_ns, v[i]->max_ns };
		int last = 6, j;

		while (last > 1 && !f[last])
			last--;
		rec_put_bytes(b, i ? ",[" : "[", i ? 2 : 1);
		for (j = 0; j <= last; j++)
			put_dec(b, j ? ',' : '\0', f[j]);
		hist = sctable_hist(t, v[i]);
		if (hist) {
			/* The timed calls' histogram (--latency): [bucket,count,...], buckets rising. */
			for (j = last + 1; j <= 6; j++)
				rec_put_bytes(b, ",0", 2);
			rec_put_bytes(b, ",[", 2);
			for (k = 0, first = true; k < LAT_BUCKETS; k++) {
				if (!hist->n[k])
					continue;
				put_dec(b, first ? '\0' : ',', k);
				put_dec(b, ',', hist->n[k]);
				first = false;
			}
			rec_put_bytes(b, "]", 1);
		}
		rec_put_bytes(b, "]", 1);
	}
	rec_put_bytes(b, "]", 2);	/* with the NUL */
	b->len--;
	free(v);
}

/*
 * A histogram's "[bucket,count,...]" at @s[*pos] (buckets rising, counts > 0)
 * into @h; false when it is not one.
 */
static bool parse_hist(const char *s, size_t n, size_t *pos, struct lathist *h);

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

int recfmt_sc_decode(const char *s, size_t n, struct sctable *t)
{
	size_t pos = 0;

	sctable_clear(t);
	if (n < 2 || s[pos++] != '[')
		return -1;
	if (s[pos] == ']')
		return pos + 1 == n ? 0 : -1;
	for (;;) {
		uint64_t f[7] = { 0 };
		struct lathist h;
		bool have_hist = false;
		struct sc_stat *st;
		int j = 0;

		if (pos >= n || s[pos++] != '[')
			return -1;
		for (;;) {
			if (j == 7 && pos < n && s[pos] == '[') {
				if (!parse_hist(s, n, &pos, &h))
					return -1;
				have_hist = true;
				break;
			}
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
		if (f[0] >= SC_EMPTY || f[3] > UINT32_MAX || sctable_find(t, (uint32_t)f[0]))
			return -1;
		st = sctable_get(t, (uint32_t)f[0]);
		st->calls = f[1];
		st->errors = f[2];
		st->top_errno = (uint32_t)f[3];
		st->timed = f[4];
		st->time_ns = f[5];
		st->max_ns = f[6];
		if (have_hist)
			sctable_put_hist(t, st, &h);
		if (pos >= n)
			return -1;
		if (s[pos] == ']')
			return pos + 1 == n ? 0 : -1;
		if (s[pos++] != ',')
			return -1;
	}
}

static bool parse_hist(const char *s, size_t n, size_t *pos, struct lathist *h)
{
	uint64_t b, c;
	int prev = -1;

	memset(h, 0, sizeof(*h));
	if (*pos >= n || s[(*pos)++] != '[')
		return false;
	if (*pos < n && s[*pos] == ']') {
		(*pos)++;
		return true;
	}
	for (;;) {
		if (!parse_u64(s, n, pos, &b) || b >= LAT_BUCKETS || (int)b <= prev ||
		    *pos >= n || s[(*pos)++] != ',' || !parse_u64(s, n, pos, &c) || !c)
			return false;
		h->n[b] = c;
		prev = (int)b;
		if (*pos >= n)
			return false;
		if (s[*pos] == ']') {
			(*pos)++;
			return true;
		}
		if (s[(*pos)++] != ',')
			return false;
	}
}

static int cmp_key(const void *a, const void *b)
{
	uint32_t x = (*(const struct sc_stat *const *)a)->nr, y = (*(const struct sc_stat *const *)b)->nr;
	uint64_t kx = (uint64_t)sc_err_nr(x) << 12 | sc_err_errno(x);
	uint64_t ky = (uint64_t)sc_err_nr(y) << 12 | sc_err_errno(y);

	return kx < ky ? -1 : kx > ky;
}

void recfmt_err_encode(struct recbuf *b, const struct sctable *t)
{
	size_t n, i;
	const struct sc_stat **v = sorted(t, cmp_key, &n);

	rec_put_bytes(b, "[", 1);
	for (i = 0; i < n; i++) {
		rec_put_bytes(b, i ? ",[" : "[", i ? 2 : 1);
		put_dec(b, '\0', sc_err_nr(v[i]->nr));
		put_dec(b, ',', sc_err_errno(v[i]->nr));
		put_dec(b, ',', v[i]->errors);
		rec_put_bytes(b, "]", 1);
	}
	rec_put_bytes(b, "]", 2);
	b->len--;
	free(v);
}

int recfmt_err_decode(const char *s, size_t n, struct sctable *t)
{
	size_t pos = 0;

	sctable_clear(t);
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
		if (sctable_find(t, key))
			return -1;
		sctable_get(t, key)->errors = f[2];
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

	rec_put_bytes(b, "\"", 1);
	for (i = 0; i < 16 && c[i]; i++) {
		unsigned char u = (unsigned char)c[i];
		char esc[8];

		if (u >= 0x20 && u < 0x7f && u != '"' && u != '\\') {
			rec_put_bytes(b, &c[i], 1);
			continue;
		}
		snprintf(esc, sizeof(esc), "\\u%04x", u);
		rec_put_bytes(b, esc, 6);
	}
	rec_put_bytes(b, "\"", 1);
}

/* A flow's sender in its group: the pid alone when it is all there is to say. */
static void put_sender(struct recbuf *b, pid_t sender, uint64_t n, const char *sc, const char *rc)
{
	char num[64];
	int len;

	if (n == 1 && !sc[0] && !rc[0]) {
		len = snprintf(num, sizeof(num), ",%d", (int)sender);
		rec_put_bytes(b, num, (size_t)len);
		return;
	}
	len = snprintf(num, sizeof(num), ",[%d,%llu", (int)sender, (unsigned long long)n);
	rec_put_bytes(b, num, (size_t)len);
	if (sc[0] || rc[0]) {
		rec_put_bytes(b, ",", 1);
		put_comm(b, sc);
		rec_put_bytes(b, ",", 1);
		put_comm(b, rc);
	}
	rec_put_bytes(b, "]", 1);
}

/* @c, or "" when @m has @pid by that name (the model names it so again). */
static const char *flow_name(const struct model *m, pid_t pid, const char *c)
{
	const struct task *t;

	if (!m || pid <= 0 || !(t = model_task_find(m, pid)) || !t->comm[0])
		return c;
	return strncmp(t->comm, c, 15) || strnlen(c, 16) > 15 ? c : "";
}

/* Flows by receiver, signal and result, then as the model has them. */
static int cmp_flow(const void *a, const void *b)
{
	const struct sigflow *x = *(const struct sigflow *const *)a, *y = *(const struct sigflow *const *)b;

	if (x->receiver != y->receiver)
		return x->receiver < y->receiver ? -1 : 1;
	if (x->sig != y->sig)
		return x->sig < y->sig ? -1 : 1;
	if (x->result != y->result)
		return x->result < y->result ? -1 : 1;
	return x < y ? -1 : x > y;
}

void recfmt_flows_encode(struct recbuf *b, const struct sigflows *f, const struct model *m)
{
	const struct sigflow **v = xmalloc((f->n + 1) * sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < f->n; i++)
		if (f->v[i].n)
			v[n++] = &f->v[i];
	sort_array(v, n, sizeof(*v), cmp_flow);
	if (f->other.n)
		v[n++] = &f->other;
	rec_put_bytes(b, "[", 1);
	for (i = 0; i < n; i++) {
		const struct sigflow *r = v[i];
		bool other = r == &f->other;

		if (!i || r->receiver != v[i - 1]->receiver || r->sig != v[i - 1]->sig ||
		    r->result != v[i - 1]->result) {
			char num[64];
			int len = snprintf(num, sizeof(num), "%s[%d,%d,%d", i ? "]," : "",
					   (int)r->receiver, r->sig, r->result);

			rec_put_bytes(b, num, (size_t)len);
		}
		put_sender(b, r->sender, r->n, other ? "" : flow_name(m, r->sender, r->sender_comm),
			   other ? "" : flow_name(m, r->receiver, r->receiver_comm));
	}
	rec_put_bytes(b, n ? "]]" : "]", n ? 3 : 2);	/* with the NUL */
	b->len--;
	free(v);
}
