// SPDX-License-Identifier: GPL-2.0-only
#include "recsample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/rcstr.h"
#include "../lib/util.h"

#define PID_LIMIT	(1 << 22)	/* the kernel's PID_MAX_LIMIT */
/*
 * Entries of one list of a sample: 262,144 readings (threads, with -H) is
 * more than a machine runs; a hostile file cannot make a reader allocate
 * more than that many (a reading is 1 byte stored, ~200 in memory).
 */
#define COUNT_LIMIT	RECSAMPLE_COUNT_MAX
#define CMDLINE_LIMIT	(1 << 16)	/* more than /proc gives ktop */
#define TEXT_LIMIT	4096

/*
 * A field of a struct: FN a number (1, 4 or 8 bytes; stored as its
 * difference from the one remembered), FA an array of uint64_t (a mask of
 * the entries that moved, then theirs), FS a char array (its text).
 */
enum fkind { FK_NUM, FK_ARR, FK_STR, FK_BOOL };
struct fdesc {
	uint16_t off, size;
	uint8_t kind;
};
#define FN(T, f) { offsetof(T, f), sizeof(((T *)0)->f), FK_NUM }
#define FA(T, f) { offsetof(T, f), sizeof(((T *)0)->f), FK_ARR }
#define FS(T, f) { offsetof(T, f), sizeof(((T *)0)->f), FK_STR }
#define FB(T, f) { offsetof(T, f), sizeof(((T *)0)->f), FK_BOOL }	/* 0 or 1 */

/* Append only: an older file's masks say nothing of a field added at the end. */
static const struct fdesc task_fields[] = {
	FN(struct task_reading, tgid), FB(struct task_reading, born),
	FN(struct task_reading, stat.pid), FS(struct task_reading, stat.comm),
	FN(struct task_reading, stat.state), FN(struct task_reading, stat.ppid),
	FN(struct task_reading, stat.pgid), FN(struct task_reading, stat.sid),
	FN(struct task_reading, stat.tty_nr), FN(struct task_reading, stat.minflt),
	FN(struct task_reading, stat.majflt), FN(struct task_reading, stat.utime),
	FN(struct task_reading, stat.stime), FN(struct task_reading, stat.priority),
	FN(struct task_reading, stat.nice), FN(struct task_reading, stat.num_threads),
	FN(struct task_reading, stat.starttime), FN(struct task_reading, stat.vsize),
	FN(struct task_reading, stat.rss), FN(struct task_reading, stat.processor),
	FB(struct task_reading, have_csw), FN(struct task_reading, vcsw),
	FN(struct task_reading, ivcsw), FB(struct task_reading, have_runq),
	FN(struct task_reading, runq_ns), FN(struct task_reading, uid),
};
/* The bits after a task's fields: its texts. */
#define TB_USER		(1ull << ARRAY_SIZE(task_fields))	/* the user moved */
/*
 * Format 4: whether a cgroup is given flipped since the reading it is stored
 * against (the recorder has one given every tick: an idle process then costs
 * its one byte); format 3: a cgroup given (else NULL: unchanged).
 */
#define TB_CG		(TB_USER << 1)
#define TB_CG_NEW	(TB_USER << 2)	/* ...and it is not the one remembered: its text */
#define TB_CMD		(TB_USER << 3)	/* a command line given */
#define TB_CMD_NEW	(TB_USER << 4)	/* ...and it moved: its bytes */
/* Format 6: the I/O counters moved (a mask of io_fields, then theirs, after the texts). */
#define TB_IO		(TB_USER << 5)

static const struct fdesc io_fields[] = {
	FB(struct task_reading, have_io), FN(struct task_reading, io_read),
	FN(struct task_reading, io_write),
};

static const struct fdesc row_fields[] = {
	FN(struct row_events, tgid), FA(struct row_events, n), FS(struct row_events, comm),
	FB(struct row_events, have_state), FB(struct row_events, renamed),
	FN(struct row_events, ppid), FB(struct row_events, exited),
};
#define RB_SC	(1ull << ARRAY_SIZE(row_fields))	/* a syscall table: its id */
#define RB_ERR	(RB_SC << 1)				/* an errno table: its id */
/*
 * Which life of its pid a row is (a reused pid): after its tables, a mask and
 * the fields that moved, when a bit after RB_ERR says so (files written
 * before it have none: their masks end before that bit).
 */
#define RB_LIFE	(RB_SC << 2)
static const struct fdesc life_fields[] = {
	FN(struct row_events, life), FB(struct row_events, born), FB(struct row_events, ended),
	FB(struct row_events, unsure),
};

static const struct fdesc final_fields[] = {
	FN(struct task_final, tgid), FN(struct task_final, ppid), FB(struct task_final, born),
	FN(struct task_final, have), FA(struct task_final, cnt), FN(struct task_final, uid),
	FS(struct task_final, comm),
};
#define FB_USER	(1ull << ARRAY_SIZE(final_fields))
/* Likewise its start window (which life of its pid it was), after its user. */
#define FB_WIN	(FB_USER << 1)
static const struct fdesc window_fields[] = {
	FB(struct task_final, have_window), FN(struct task_final, start_lo),
	FN(struct task_final, start_hi),
};

static const struct fdesc flow_fields[] = {
	FN(struct sig_flow, sender), FN(struct sig_flow, receiver), FN(struct sig_flow, sig),
	FN(struct sig_flow, result), FN(struct sig_flow, n), FS(struct sig_flow, sender_comm),
	FS(struct sig_flow, receiver_comm),
};

/* Format 9 (RECFMT_CONNS): the sockets of the interval (the Connections view). */
static const struct fdesc conn_fields[] = {
	FN(struct sock_conn, id), FN(struct sock_conn, pid), FS(struct sock_conn, comm),
	FN(struct sock_conn, family), FN(struct sock_conn, protocol), FN(struct sock_conn, state),
	FN(struct sock_conn, flags), FN(struct sock_conn, lport), FN(struct sock_conn, rport),
	FA(struct sock_conn, addr), FN(struct sock_conn, tx), FN(struct sock_conn, rx),
	FN(struct sock_conn, retrans), FN(struct sock_conn, resets), FN(struct sock_conn, tx_total),
	FN(struct sock_conn, rx_total), FN(struct sock_conn, retrans_total),
	FN(struct sock_conn, first_ns),
};

static const struct fdesc cg_fields[] = {
	FN(struct cg_reading, t_ns), FN(struct cg_reading, raw.have),
	FA(struct cg_reading, raw.psi_some), FA(struct cg_reading, raw.psi_full),
	FN(struct cg_reading, raw.quota_us), FN(struct cg_reading, raw.period_us),
	FN(struct cg_reading, raw.nr_throttled), FN(struct cg_reading, raw.throttled_us),
	FN(struct cg_reading, raw.mem_cur), FN(struct cg_reading, raw.mem_max),
	FN(struct cg_reading, raw.mem_max_hits), FN(struct cg_reading, raw.oom),
	FN(struct cg_reading, raw.oom_kill), FN(struct cg_reading, raw.pids_cur),
	FN(struct cg_reading, raw.pids_max),
};

/* The parts of a sample, in the order model_apply applies them. */
enum {
	P_BEGIN = 1 << 0, P_SYS = 1 << 1, P_TASKS = 1 << 2, P_WITHHELD = 1 << 3,
	P_ROWS = 1 << 4, P_EXITS = 1 << 5, P_UNFOCUS = 1 << 6, P_FINALS = 1 << 7,
	P_EXIT_TOTALS = 1 << 8, P_FLOWS = 1 << 9, P_TOTALS = 1 << 10, P_CGRES = 1 << 11,
	P_END = 1 << 12, P_RESTORE = 1 << 13, P_DISKS = 1 << 14, P_CONNS = 1 << 15,
	P_ALL = (1 << 16) - 1
};

/*
 * Format 8 (RECFMT_DISKS): a block device's interval (model/disks.h), after
 * its place in the remembered list (or its dev and name): its fields that
 * moved since its last reading (an idle device: one byte).
 */
#define DF_SUB(k) FN(struct disk_reading, sub[k].pid), FS(struct disk_reading, sub[k].comm), \
		  FN(struct disk_reading, sub[k].reqs), FN(struct disk_reading, sub[k].bytes)
static const struct fdesc disk_fields[] = {
	FA(struct disk_reading, ios), FA(struct disk_reading, bytes), FN(struct disk_reading, other),
	FN(struct disk_reading, timed), FA(struct disk_reading, hist.n),
	FN(struct disk_reading, lat_ns), FN(struct disk_reading, max_ns),
	FN(struct disk_reading, inflight), FN(struct disk_reading, nsub),
	FN(struct disk_reading, sub_reqs), FN(struct disk_reading, sub_bytes),
	DF_SUB(0), DF_SUB(1), DF_SUB(2), FN(struct disk_reading, sub_hidden),
};
_Static_assert(DISK_SUBMITTERS == 3, "disk_fields names each submitter");

static const struct fdesc totals_fields[] = {
	FA(struct sample, ev_total), FN(struct sample, lost), FB(struct sample, lost_unknown),
};

/* --- bytes --- */

static void put_zigzag(struct recbuf *b, uint64_t cur, uint64_t prev)
{
	int64_t d = (int64_t)(cur - prev);

	rec_put_varint(b, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
}

static void put_text(struct recbuf *b, const char *s, size_t n)
{
	rec_put_varint(b, n);
	rec_put_bytes(b, s, n);
}

static uint64_t get_zigzag(struct rec_reader *r, uint64_t prev)
{
	uint64_t z = rec_get_varint(r);

	return prev + ((z >> 1) ^ (0 - (z & 1)));
}

/* A text of at most @limit bytes: a pointer into the bytes, its length in *@len. */
static const char *get_text(struct rec_reader *r, size_t limit, size_t *len)
{
	uint64_t n = rec_get_varint(r);
	const char *s;

	if (r->bad || n > limit || n > r->n - r->pos) {
		r->bad = true;
		*len = 0;
		return "";
	}
	s = (const char *)r->p + r->pos;
	r->pos += n;
	*len = (size_t)n;
	return s;
}

/* A count of a list, within bounds. */
static size_t get_count(struct rec_reader *r)
{
	uint64_t n = rec_get_varint(r);

	if (n > COUNT_LIMIT || n > r->n - r->pos) {	/* every entry takes a byte at least */
		r->bad = true;
		return 0;
	}
	return (size_t)n;
}

static pid_t get_pid(struct rec_reader *r, pid_t prev)
{
	int64_t v = (int64_t)get_zigzag(r, (uint64_t)(int64_t)prev);

	if (v <= -2 || v >= PID_LIMIT) {	/* -1: a flow's "other" */
		r->bad = true;
		return 0;
	}
	return (pid_t)v;
}

/* --- fields --- */

/* A field's number as a uint64_t (signed ones sign-extended), and back, truncated. */
static uint64_t load(const void *base, const struct fdesc *f, size_t i)
{
	const char *p = (const char *)base + f->off + i * 8;
	uint8_t u8;
	int16_t i16;
	int32_t i32;
	uint64_t u64;

	switch (f->kind == FK_ARR ? 8 : f->size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&i16, p, 2);
		return (uint64_t)(int64_t)i16;
	case 4:
		memcpy(&i32, p, 4);
		return (uint64_t)(int64_t)i32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

static void store(void *base, const struct fdesc *f, size_t i, uint64_t v)
{
	char *p = (char *)base + f->off + i * 8;
	uint8_t u8 = (uint8_t)v;
	int16_t i16 = (int16_t)v;
	int32_t i32 = (int32_t)v;

	switch (f->kind == FK_ARR ? 8 : f->size) {
	case 1:
		memcpy(p, &u8, 1);
		break;
	case 2:
		memcpy(p, &i16, 2);
		break;
	case 4:
		memcpy(p, &i32, 4);
		break;
	default:
		memcpy(p, &v, 8);
	}
}

static bool field_eq(const void *a, const void *b, const struct fdesc *f)
{
	const char *x = (const char *)a + f->off, *y = (const char *)b + f->off;

	if (f->kind == FK_STR)
		return !strncmp(x, y, f->size);
	/* Numbers as loads, not a call of memcmp each: a tick compares every field of every task. */
	if (f->kind != FK_ARR)
		return load(a, f, 0) == load(b, f, 0);
	return !memcmp(x, y, f->size);
}

/* The mask of the fields of @cur that differ from @prev. */
static uint64_t fields_mask(const struct fdesc *fd, size_t nf, const void *cur, const void *prev)
{
	uint64_t mask = 0;
	size_t i;

	for (i = 0; i < nf; i++)
		if (!field_eq(cur, prev, &fd[i]))
			mask |= 1ull << i;
	return mask;
}

/* The fields of @mask, each as it differs from @prev. */
static void put_fields(struct recbuf *b, const struct fdesc *fd, size_t nf, uint64_t mask,
		       const void *cur, const void *prev)
{
	size_t i, k;

	for (i = 0; i < nf; i++) {
		const struct fdesc *f = &fd[i];

		if (!(mask & (1ull << i)))
			continue;
		if (f->kind == FK_STR) {
			const char *s = (const char *)cur + f->off;

			put_text(b, s, strnlen(s, f->size));
		} else if (f->kind == FK_NUM || f->kind == FK_BOOL) {
			put_zigzag(b, load(cur, f, 0), load(prev, f, 0));
		} else {
			uint64_t sub = 0;

			for (k = 0; k < f->size / 8; k++)
				if (load(cur, f, k) != load(prev, f, k))
					sub |= 1ull << k;
			rec_put_varint(b, sub);
			for (k = 0; k < f->size / 8; k++)
				if (sub & (1ull << k))
					put_zigzag(b, load(cur, f, k), load(prev, f, k));
		}
	}
}

/* Into @out (which holds what they differ from), the fields of @mask. */
static void get_fields(struct rec_reader *r, const struct fdesc *fd, size_t nf, uint64_t mask, void *out)
{
	size_t i, k, len;

	for (i = 0; i < nf && !r->bad; i++) {
		const struct fdesc *f = &fd[i];

		if (!(mask & (1ull << i)))
			continue;
		if (f->kind == FK_STR) {
			const char *s = get_text(r, f->size - 1, &len);
			char *dst = (char *)out + f->off;

			memset(dst, 0, f->size);
			memcpy(dst, s, len);
		} else if (f->kind == FK_NUM || f->kind == FK_BOOL) {
			uint64_t v = get_zigzag(r, load(out, f, 0));

			if (f->kind == FK_BOOL && v > 1)
				r->bad = true;
			store(out, f, 0, v);
		} else {
			uint64_t sub = rec_get_varint(r);

			if (f->size / 8 < 64 && sub >> (f->size / 8))
				r->bad = true;
			for (k = 0; k < f->size / 8 && !r->bad; k++)
				if (sub & (1ull << k))
					store(out, f, k, get_zigzag(r, load(out, f, k)));
		}
	}
	/* A bit past the table's: a newer field this ktop does not know. */
	if (nf < 64 && mask >> nf)
		r->bad = true;
}

/* Fields added after a struct's mask (RB_LIFE, FB_WIN): their own mask (put_plain's), then them. */
static void get_more(struct rec_reader *r, const struct fdesc *fd, size_t nf, void *out)
{
	uint64_t mask = rec_get_varint(r);

	if (mask >> nf)
		r->bad = true;
	else
		get_fields(r, fd, nf, mask, out);
}

/* A struct stored as its fields that are not 0 (the mask first). */
static void put_plain(struct recbuf *b, const struct fdesc *fd, size_t nf, const void *cur,
		      const void *zero, uint64_t extra)
{
	uint64_t mask = fields_mask(fd, nf, cur, zero) | extra;

	rec_put_varint(b, mask);
	put_fields(b, fd, nf, mask, cur, zero);
}

/* --- memory --- */

void recmem_init(struct recmem *m)
{
	memset(m, 0, sizeof(*m));
	m->format = RECFMT_VERSION;
	pidmap_init(&m->map);
	pidmap_init(&m->old);
	strpool_init(&m->pool);
	m->sys.stat.cpu = xcalloc(SYS_MAX_CPUS, sizeof(struct cpu_times));
	m->sys.stat.ncpu_max = SYS_MAX_CPUS;
}

static void forget(struct pidmap *map)
{
	size_t i;

	for (i = 0; i < map->cap; i++) {
		struct recmem_task *t = map->slots[i].key ? map->slots[i].val : NULL;

		if (t) {
			rcstr_put(t->cmdline);
			free(t);
		}
	}
	pidmap_clear(map);
}

static void forget_tasks(struct recmem *m)
{
	forget(&m->map);
	forget(&m->old);
	m->norder = 0;
}

void recmem_reset(struct recmem *m)
{
	forget_tasks(m);
	m->have_sys = false;
	m->ncg = 0;
	m->ndisk = 0;
}

void recmem_keyframe(struct recmem *m)
{
	struct pidmap tmp;

	forget(&m->old);
	tmp = m->old;
	m->old = m->map;
	m->map = tmp;
	m->norder = 0;
	m->have_sys = false;
	m->ncg = 0;
	m->ndisk = 0;
}

void recmem_free(struct recmem *m)
{
	forget_tasks(m);
	pidmap_free(&m->map);
	pidmap_free(&m->old);
	free(m->order);
	free(m->sys.stat.cpu);
	free(m->cg);
	free(m->disk);
	strpool_free(&m->pool);
	memset(m, 0, sizeof(*m));
}

static void copy_sys(struct sys_sample *dst, const struct sys_sample *src)
{
	struct cpu_times *cpu = dst->stat.cpu;
	int n = src->stat.ncpu < 0 ? 0 : src->stat.ncpu > SYS_MAX_CPUS ? SYS_MAX_CPUS : src->stat.ncpu;

	*dst = *src;
	dst->stat.cpu = cpu;
	dst->stat.ncpu_max = SYS_MAX_CPUS;
	if (n && src->stat.cpu)
		memcpy(cpu, src->stat.cpu, (size_t)n * sizeof(*cpu));
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static const char *intern(struct recmem *m, const char *s)
{
	return s ? strpool_get(&m->pool, s) : NULL;
}

static struct recmem_cg *cg_find(struct recmem *m, const char *dir, size_t hint, size_t *idx)
{
	size_t i;

	/* The same groups come in the same order each tick: try where the last one was. */
	if (hint < m->ncg && !strcmp(m->cg[hint].dir, dir)) {
		*idx = hint;
		return &m->cg[hint];
	}
	for (i = 0; i < m->ncg; i++)
		if (!strcmp(m->cg[i].dir, dir)) {
			*idx = i;
			return &m->cg[i];
		}
	return NULL;
}

static struct recmem_cg *cg_add(struct recmem *m, const char *dir)
{
	struct recmem_cg *c;

	if (m->ncg == m->cap_cg) {
		m->cap_cg = m->cap_cg ? m->cap_cg * 2 : 16;
		m->cg = xrealloc(m->cg, m->cap_cg * sizeof(*m->cg));
	}
	c = &m->cg[m->ncg++];
	memset(c, 0, sizeof(*c));
	c->dir = intern(m, dir);
	return c;
}

static void order_push(struct recmem *m, pid_t pid)
{
	if (m->norder == m->cap_order) {
		m->cap_order = m->cap_order ? m->cap_order * 2 : 256;
		m->order = xrealloc(m->order, m->cap_order * sizeof(*m->order));
	}
	m->order[m->norder++] = pid;
}

/*
 * Readings come in the order of the last ones, less the tasks not read, then
 * the new ones: the order costs nothing but the pids left and new. Else
 * (another source's order) every pid is stored.
 */
static bool same_order(struct recmem *m, const struct sample *s)
{
	size_t i, k = 0;

	m->gen++;
	for (i = 0; i < s->ntasks; i++) {
		struct recmem_task *t = pidmap_get(&m->map, s->tasks[i].pid);

		if (t) {
			if (t->mark == m->gen)
				return false;	/* twice in one sample */
			t->mark = m->gen;
		}
	}
	/* The old ones still read, in their order, then the new ones. */
	for (i = 0; i < m->norder; i++) {
		struct recmem_task *t = pidmap_get(&m->map, m->order[i]);

		if (t->mark != m->gen)
			continue;
		if (k >= s->ntasks || s->tasks[k].pid != m->order[i])
			return false;
		k++;
	}
	for (; k < s->ntasks; k++)
		if (pidmap_get(&m->map, s->tasks[k].pid))
			return false;
	return true;
}

/*
 * A new sample's readings: the tasks of the last one's order that it does
 * not read (their mark is not this sample's) are forgotten, the order
 * emptied for the new one. The encoder and the decoder both, alike.
 */
static void forget_unread(struct recmem *m)
{
	size_t i;

	for (i = 0; i < m->norder; i++) {
		struct recmem_task *t = pidmap_get(&m->map, m->order[i]);

		if (t && t->mark != m->gen) {
			pidmap_del(&m->map, m->order[i]);
			rcstr_put(t->cmdline);
			free(t);
		}
	}
	m->norder = 0;
	m->tmpl = NULL;
}

/* --- encoding --- */

static void put_pids(struct recbuf *b, const pid_t *v, size_t n)
{
	pid_t prev = 0;
	size_t i;

	rec_put_varint(b, n);
	for (i = 0; i < n; i++) {
		put_zigzag(b, (uint64_t)(int64_t)v[i], (uint64_t)(int64_t)prev);
		prev = v[i];
	}
}

static void put_task(struct recbuf *b, struct recmem *m, const struct task_reading *given)
{
	static const struct task_reading zero;
	struct recmem_task *t = pidmap_get(&m->map, given->pid), *o = NULL, *src;
	const struct task_reading *in = given, *base;
	struct task_reading tmp;
	const char *user, *cg;
	bool cmd_new = false;
	uint64_t mask, io_mask;

	/* New since a keyframe: its texts as known before, where this sample has none. */
	if (!t && (o = pidmap_get(&m->old, given->pid)) &&
	    o->r.stat.starttime != given->stat.starttime)
		o = NULL;	/* another life */
	if (o && ((!given->cmdline && o->cmdline) || (!given->cgroup && o->r.cgroup))) {
		tmp = *given;
		if (!tmp.cmdline && o->cmdline) {
			tmp.cmdline = o->cmdline;
			tmp.cmdline_len = o->cmdline_len;
		}
		if (!tmp.cgroup)
			tmp.cgroup = o->r.cgroup;
		in = &tmp;
	}
	/* A new life of the pid: the texts of the one before are not its. */
	if (t && t->r.stat.starttime != in->stat.starttime) {
		rcstr_put(t->cmdline);
		t->cmdline = NULL;
		t->cmdline_len = 0;
		t->r.cgroup = NULL;
		t->cg_given = false;
		t->zexit = false;
	}
	/* What it is stored against: its last reading, else the sample's last new one, else 0. */
	src = t ? t : m->tmpl;
	base = src ? &src->r : &zero;
	mask = fields_mask(task_fields, ARRAY_SIZE(task_fields), in, base);
	if (!str_eq(in->user, base->user))
		mask |= TB_USER;
	if (!in->cgroup != !(src && src->cg_given))
		mask |= TB_CG;
	if (in->cgroup && !str_eq(in->cgroup, base->cgroup))
		mask |= TB_CG_NEW;
	io_mask = fields_mask(io_fields, ARRAY_SIZE(io_fields), in, base);
	if (io_mask)
		mask |= TB_IO;
	if (in->cmdline) {
		mask |= TB_CMD;
		cmd_new = !src || !src->cmdline || src->cmdline_len != in->cmdline_len ||
			  memcmp(src->cmdline, in->cmdline, in->cmdline_len);
		if (cmd_new)
			mask |= TB_CMD_NEW;
	}
	rec_put_varint(b, mask);
	put_fields(b, task_fields, ARRAY_SIZE(task_fields), mask, in, base);
	if (mask & TB_USER) {
		rec_put_varint(b, in->user ? 1 : 0);
		if (in->user)
			put_text(b, in->user, strlen(in->user));
	}
	if (mask & TB_CG_NEW)
		put_text(b, in->cgroup, strlen(in->cgroup));
	if (cmd_new)
		put_text(b, in->cmdline, in->cmdline_len);
	if (io_mask) {
		rec_put_varint(b, io_mask);
		put_fields(b, io_fields, ARRAY_SIZE(io_fields), io_mask, in, base);
	}
	/* Remembered as it now is (base may be t->r: its texts first). */
	user = (mask & TB_USER) ? intern(m, in->user) : base->user;
	/* Its own texts only: a new one's cgroup is the last new one's only when given. */
	cg = (mask & TB_CG_NEW) ? intern(m, in->cgroup) : in->cgroup || t ? base->cgroup : NULL;
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		pidmap_put(&m->map, in->pid, t);
		/* Its command line given, the last new one's. */
		if ((mask & TB_CMD) && !cmd_new) {
			t->cmdline = rcstr_ref(src->cmdline);
			t->cmdline_len = src->cmdline_len;
		}
		m->tmpl = t;
	}
	t->r = *in;
	t->r.cmdline = NULL;
	t->r.cmdline_len = 0;
	t->r.user = user;
	t->r.cgroup = cg;
	t->cg_given = in->cgroup != NULL;
	t->read_tick = m->tick;
	if (o)
		t->zexit = o->zexit;
	if (cmd_new) {
		char *c = rcstr_ref(in->cmdline);

		rcstr_put(t->cmdline);
		t->cmdline = c;
		t->cmdline_len = in->cmdline_len;
	}
}

static void put_tasks(struct recbuf *b, struct recmem *m, const struct sample *s)
{
	size_t i, nleft = 0, nnew = 0;
	bool same = same_order(m, s);
	pid_t prev = 0;

	rec_put_varint(b, s->ntasks);
	rec_put_varint(b, same ? 0 : 1);
	if (same) {
		for (i = 0; i < m->norder; i++)
			if (((struct recmem_task *)pidmap_get(&m->map, m->order[i]))->mark != m->gen)
				nleft++;
		rec_put_varint(b, nleft);
		for (i = 0; i < m->norder; i++) {
			if (((struct recmem_task *)pidmap_get(&m->map, m->order[i]))->mark == m->gen)
				continue;
			put_zigzag(b, (uint64_t)(int64_t)m->order[i], (uint64_t)(int64_t)prev);
			prev = m->order[i];
		}
		for (i = 0; i < s->ntasks; i++)
			if (!pidmap_get(&m->map, s->tasks[i].pid))
				nnew++;
		rec_put_varint(b, nnew);
		prev = 0;
		for (i = s->ntasks - nnew; i < s->ntasks; i++) {
			put_zigzag(b, (uint64_t)(int64_t)s->tasks[i].pid, (uint64_t)(int64_t)prev);
			prev = s->tasks[i].pid;
		}
	} else {
		for (i = 0; i < s->ntasks; i++) {
			put_zigzag(b, (uint64_t)(int64_t)s->tasks[i].pid, (uint64_t)(int64_t)prev);
			prev = s->tasks[i].pid;
		}
	}
	forget_unread(m);
	for (i = 0; i < s->ntasks; i++) {
		put_task(b, m, &s->tasks[i]);
		order_push(m, s->tasks[i].pid);
	}
}

static int put_rows(struct recbuf *b, const struct sample *s, const struct recsample_tables *tb)
{
	static const struct row_events zero;
	pid_t prev = 0;
	size_t i;

	rec_put_varint(b, s->nrows);
	for (i = 0; i < s->nrows; i++) {
		const struct row_events *e = &s->rows[i];
		/* Against the row before: the rows of a loop's commands are alike. */
		const struct row_events *before = i ? &s->rows[i - 1] : &zero;
		bool sc = e->sc && e->sc->used, err = e->err && e->err->used;
		bool life = fields_mask(life_fields, ARRAY_SIZE(life_fields), e, before) != 0;
		int64_t id;

		put_zigzag(b, (uint64_t)(int64_t)e->id, (uint64_t)(int64_t)prev);
		prev = e->id;
		put_plain(b, row_fields, ARRAY_SIZE(row_fields), e, before,
			  (sc ? RB_SC : 0) | (err ? RB_ERR : 0) | (life ? RB_LIFE : 0));
		if (sc) {
			id = tb->id(tb->arg, e->sc, false);
			if (id <= 0)
				return -1;
			rec_put_varint(b, (uint64_t)id);
		}
		if (err) {
			id = tb->id(tb->arg, e->err, true);
			if (id <= 0)
				return -1;
			rec_put_varint(b, (uint64_t)id);
		}
		if (life)
			put_plain(b, life_fields, ARRAY_SIZE(life_fields), e, before, 0);
	}
	return 0;
}

static void put_cg(struct recbuf *b, struct recmem *m, const struct sample *s)
{
	size_t i, idx = 0;

	rec_put_varint(b, s->ncgres);
	for (i = 0; i < s->ncgres; i++) {
		const struct cg_reading *in = &s->cgres[i];
		struct recmem_cg *c = cg_find(m, in->dir, idx, &idx);

		/* Its place in the remembered list + 1, or 0 and its directory. */
		if (c) {
			rec_put_varint(b, idx + 1);
		} else {
			rec_put_varint(b, 0);
			put_text(b, in->dir, strlen(in->dir));
			c = cg_add(m, in->dir);
			idx = m->ncg - 1;
		}
		{
			uint64_t mask = fields_mask(cg_fields, ARRAY_SIZE(cg_fields), in, &c->c);

			rec_put_varint(b, mask);
			put_fields(b, cg_fields, ARRAY_SIZE(cg_fields), mask, in, &c->c);
		}
		c->c = *in;
		c->c.dir = NULL;
		idx++;
	}
}

/* The remembered reading of device @dev (its place in *@idx), or NULL. */
static struct disk_reading *disk_find(struct recmem *m, uint32_t dev, size_t hint, size_t *idx)
{
	size_t i;

	if (hint < m->ndisk && m->disk[hint].dev == dev) {
		*idx = hint;
		return &m->disk[hint];
	}
	for (i = 0; i < m->ndisk; i++)
		if (m->disk[i].dev == dev) {
			*idx = i;
			return &m->disk[i];
		}
	return NULL;
}

static struct disk_reading *disk_add(struct recmem *m, uint32_t dev, const char *name)
{
	struct disk_reading *d;

	if (m->ndisk == m->cap_disk) {
		m->cap_disk = m->cap_disk ? m->cap_disk * 2 : 8;
		m->disk = xrealloc(m->disk, m->cap_disk * sizeof(*m->disk));
	}
	d = &m->disk[m->ndisk++];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	snprintf(d->name, sizeof(d->name), "%s", name);
	return d;
}

static void put_disks(struct recbuf *b, struct recmem *m, const struct sample *s)
{
	size_t i, idx = 0;

	rec_put_varint(b, s->ndisks);
	for (i = 0; i < s->ndisks; i++) {
		const struct disk_reading *in = &s->disks[i];
		struct disk_reading *d = disk_find(m, in->dev, idx, &idx);
		uint64_t mask;

		/* Its place in the remembered list + 1, or 0, its dev and its name. */
		if (d && !strncmp(d->name, in->name, sizeof(d->name))) {
			rec_put_varint(b, idx + 1);
		} else {
			rec_put_varint(b, 0);
			rec_put_varint(b, in->dev);
			put_text(b, in->name, strnlen(in->name, sizeof(in->name)));
			if (!d) {
				d = disk_add(m, in->dev, "");
				idx = m->ndisk - 1;
			}
		}
		mask = fields_mask(disk_fields, ARRAY_SIZE(disk_fields), in, d);
		rec_put_varint(b, mask);
		put_fields(b, disk_fields, ARRAY_SIZE(disk_fields), mask, in, d);
		*d = *in;
		idx++;
	}
}

/*
 * A keyframe's readings of zombies whose exit the model applied before it:
 * their pids, so that a decoder starting there applies it again (the model
 * reaps such a zombie as X, else it just leaves).
 */
static size_t restore_pids(struct recmem *m, const struct sample *s, pid_t **out)
{
	size_t i, n = 0;

	*out = NULL;
	for (i = 0; i < s->ntasks; i++) {
		const struct task_reading *in = &s->tasks[i];
		struct recmem_task *o;

		if (pidmap_get(&m->map, in->pid) || !(o = pidmap_get(&m->old, in->pid)) ||
		    !o->zexit || o->r.stat.starttime != in->stat.starttime || in->stat.state != 'Z')
			continue;
		if (!n)
			*out = xmalloc(s->ntasks * sizeof(**out));
		(*out)[n++] = in->pid;
	}
	return n;
}

/* The exits of @s: which of them the model takes as a zombie's (mark_exited, model.c). */
static void note_exits(struct recmem *m, const struct sample *s)
{
	size_t i;

	for (i = 0; i < s->nexits; i++) {
		struct recmem_task *t = pidmap_get(&m->map, s->exits[i]);

		if (t && t->read_tick == m->tick && t->r.stat.state == 'Z')
			t->zexit = true;
	}
}

int recsample_encode(struct recbuf *b, struct recmem *m, const struct sample *s,
		     const struct recsample_tables *t)
{
	pid_t *restore;
	size_t nrestore;

	static const struct sample zs;
	static const struct task_final zf;
	static const struct sig_flow zfl;
	static const struct sock_conn zco;
	unsigned parts = (s->begin ? P_BEGIN : 0) | (s->have_sys ? P_SYS : 0) |
			 (s->ntasks ? P_TASKS : 0) | (s->nwithheld ? P_WITHHELD : 0) |
			 (s->nrows ? P_ROWS : 0) | (s->nexits ? P_EXITS : 0) |
			 (s->nunfocus ? P_UNFOCUS : 0) | (s->nfinals ? P_FINALS : 0) |
			 (s->have_exit_totals ? P_EXIT_TOTALS : 0) | (s->nflows ? P_FLOWS : 0) |
			 (s->have_totals ? P_TOTALS : 0) | (s->ncgres ? P_CGRES : 0) |
			 (s->end ? P_END : 0) | (s->have_disks ? P_DISKS : 0) |
			 (s->nconns ? P_CONNS : 0);
	pid_t prev = 0;
	size_t i;

	if (s->begin)
		m->tick++;
	nrestore = restore_pids(m, s, &restore);
	if (nrestore)
		parts |= P_RESTORE;
	rec_put_varint(b, parts);
	if (parts & P_SYS) {
		struct recbuf tmp = { 0 };

		recfmt_sys_encode(&tmp, &s->sys, m->have_sys ? &m->sys : NULL);
		rec_put_varint(b, m->have_sys);
		put_text(b, (const char *)tmp.p, tmp.len);
		recbuf_free(&tmp);
		copy_sys(&m->sys, &s->sys);
		m->have_sys = true;
	}
	if (parts & P_TASKS)
		put_tasks(b, m, s);
	if (parts & P_RESTORE)
		put_pids(b, restore, nrestore);
	free(restore);
	note_exits(m, s);
	if (parts & P_WITHHELD)
		put_pids(b, s->withheld, s->nwithheld);
	if ((parts & P_ROWS) && put_rows(b, s, t))
		return -1;
	if (parts & P_EXITS)
		put_pids(b, s->exits, s->nexits);
	if (parts & P_UNFOCUS)
		put_pids(b, s->unfocus, s->nunfocus);
	if (parts & P_FINALS) {
		rec_put_varint(b, s->nfinals);
		for (i = 0; i < s->nfinals; i++) {
			const struct task_final *f = &s->finals[i];

			const struct task_final *fb = i ? &s->finals[i - 1] : &zf;
			bool win = fields_mask(window_fields, ARRAY_SIZE(window_fields), f, fb) != 0;

			put_zigzag(b, (uint64_t)(int64_t)f->id, (uint64_t)(int64_t)prev);
			prev = f->id;
			/* Against the record before, its user too. */
			put_plain(b, final_fields, ARRAY_SIZE(final_fields), f, fb,
				  (str_eq(f->user, fb->user) ? 0 : FB_USER) | (win ? FB_WIN : 0));
			if (!str_eq(f->user, fb->user)) {
				rec_put_varint(b, f->user ? 1 : 0);
				if (f->user)
					put_text(b, f->user, strlen(f->user));
			}
			if (win)
				put_plain(b, window_fields, ARRAY_SIZE(window_fields), f, fb, 0);
		}
	}
	if (parts & P_EXIT_TOTALS) {
		rec_put_varint(b, s->exits_lost);
		rec_put_varint(b, s->exits_lost_unknown);
	}
	if (parts & P_FLOWS) {
		rec_put_varint(b, s->nflows);
		for (i = 0; i < s->nflows; i++)
			put_plain(b, flow_fields, ARRAY_SIZE(flow_fields), &s->flows[i],
				  i ? &s->flows[i - 1] : &zfl, 0);
	}
	if (parts & P_TOTALS)
		put_plain(b, totals_fields, ARRAY_SIZE(totals_fields), s, &zs, 0);
	if (parts & P_CGRES)
		put_cg(b, m, s);
	if (parts & P_DISKS)
		put_disks(b, m, s);
	if (parts & P_CONNS) {
		rec_put_varint(b, s->nconns);
		for (i = 0; i < s->nconns; i++)
			put_plain(b, conn_fields, ARRAY_SIZE(conn_fields), &s->conns[i],
				  i ? &s->conns[i - 1] : &zco, 0);
	}
	return 0;
}

/* --- decoding --- */

static void get_pids(struct rec_reader *r, void (*add)(struct sample *, pid_t), struct sample *s)
{
	size_t n = get_count(r), i;
	pid_t prev = 0;

	for (i = 0; i < n && !r->bad; i++) {
		prev = get_pid(r, prev);
		if (prev <= 0)
			r->bad = true;
		else if (add)
			add(s, prev);
	}
}

/* A reading of @pid against what @m remembers of it; remembered anew. */
static void get_task(struct rec_reader *r, struct recmem *m, pid_t pid, struct sample *s)
{
	static const struct task_reading zero;
	struct recmem_task *t = pidmap_get(&m->map, pid), *src;
	struct task_reading *out = sample_add_task(s);
	uint64_t mask = rec_get_varint(r);
	bool existed = t != NULL, cg_given;
	const char *txt, *cg;
	size_t len;

	if (!t) {
		t = xcalloc(1, sizeof(*t));
		pidmap_put(&m->map, pid, t);
	}
	/* As the encoder: against its last reading, else the sample's last new one, else 0. */
	src = existed ? t : m->tmpl;
	*out = src ? src->r : zero;
	out->pid = pid;
	get_fields(r, task_fields, ARRAY_SIZE(task_fields),
		   mask & ((1ull << ARRAY_SIZE(task_fields)) - 1), out);
	/* A new life's texts are its own. */
	if (existed && out->stat.starttime != t->r.stat.starttime) {
		rcstr_put(t->cmdline);
		t->cmdline = NULL;
		t->cmdline_len = 0;
		t->r.cgroup = NULL;
		t->cg_given = false;
	}
	cg_given = (mask & TB_CG) != 0;
	if (m->format >= RECFMT_CG_FLIP)
		cg_given ^= src && src->cg_given;
	if (mask >> (ARRAY_SIZE(task_fields) + (m->format >= RECFMT_IO ? 6 : 5)) || ((mask & TB_CG_NEW) && !cg_given) ||
	    ((mask & TB_CMD_NEW) && !(mask & TB_CMD)))
		r->bad = true;
	if ((mask & TB_USER) && !r->bad) {
		out->user = NULL;
		if (rec_get_varint(r)) {
			char buf[TEXT_LIMIT + 1];

			txt = get_text(r, TEXT_LIMIT, &len);
			memcpy(buf, txt, len);
			buf[len] = '\0';
			out->user = intern(m, buf);
		}
	}
	cg = src ? src->r.cgroup : NULL;
	if ((mask & TB_CG_NEW) && !r->bad) {
		char *buf;

		txt = get_text(r, TEXT_LIMIT, &len);
		buf = xmalloc(len + 1);
		memcpy(buf, txt, len);
		buf[len] = '\0';
		cg = intern(m, buf);
		free(buf);
	}
	out->cgroup = cg_given ? cg : NULL;
	if (!cg_given)
		cg = existed ? t->r.cgroup : NULL;
	if ((mask & TB_CMD_NEW) && !r->bad) {
		txt = get_text(r, CMDLINE_LIMIT, &len);
		rcstr_put(t->cmdline);
		t->cmdline = rcstr_new(txt, len);
		t->cmdline_len = len;
	} else if ((mask & TB_CMD) && !r->bad) {
		if (!src || !src->cmdline) {
			r->bad = true;
		} else if (!existed) {
			/* The one before's: one copy for both. */
			t->cmdline = rcstr_ref(src->cmdline);
			t->cmdline_len = src->cmdline_len;
		}
	}
	if ((mask & TB_CMD) && !r->bad) {
		out->cmdline = rcstr_ref(t->cmdline);
		out->cmdline_len = t->cmdline_len;
	}
	if ((mask & TB_IO) && !r->bad) {
		uint64_t io_mask = rec_get_varint(r);

		if (!io_mask || io_mask >> ARRAY_SIZE(io_fields))
			r->bad = true;
		else
			get_fields(r, io_fields, ARRAY_SIZE(io_fields), io_mask, out);
	}
	t->r = *out;
	t->r.cmdline = NULL;
	t->r.cmdline_len = 0;
	t->r.cgroup = cg;
	t->cg_given = cg_given;
	if (!existed)
		m->tmpl = t;
}

static void get_tasks(struct rec_reader *r, struct recmem *m, struct sample *s)
{
	size_t n = get_count(r), i, k = 0, nleft, nnew;
	uint64_t mode = rec_get_varint(r);
	pid_t *pids, prev = 0;

	if (r->bad || mode > 1) {
		r->bad = true;
		return;
	}
	pids = xcalloc(n ? n : 1, sizeof(*pids));
	m->gen++;
	if (mode == 0) {
		nleft = get_count(r);
		for (i = 0; i < nleft && !r->bad; i++) {
			struct recmem_task *t;

			prev = get_pid(r, prev);
			t = pidmap_get(&m->map, prev);
			if (!t)
				r->bad = true;
			else
				t->mark = m->gen;	/* this mark: left */
		}
		for (i = 0; i < m->norder && !r->bad; i++) {
			struct recmem_task *t = pidmap_get(&m->map, m->order[i]);

			if (t->mark == m->gen)
				continue;
			if (k >= n)
				r->bad = true;
			else
				pids[k++] = m->order[i];
		}
		nnew = get_count(r);
		prev = 0;
		if (k + nnew != n)
			r->bad = true;
		for (i = 0; i < nnew && !r->bad; i++) {
			prev = get_pid(r, prev);
			if (prev <= 0 || pidmap_get(&m->map, prev))
				r->bad = true;
			pids[k++] = prev;
		}
		m->gen++;
	} else {
		for (i = 0; i < n && !r->bad; i++) {
			prev = get_pid(r, prev);
			if (prev <= 0)
				r->bad = true;
			pids[i] = prev;
		}
	}
	if (r->bad) {
		free(pids);
		return;
	}
	/* As the encoder: marks say who is read; the others are forgotten. */
	for (i = 0; i < n; i++) {
		struct recmem_task *t = pidmap_get(&m->map, pids[i]);

		if (t) {
			if (t->mark == m->gen)
				r->bad = true;	/* twice: the encoder stores every pid then */
			t->mark = m->gen;
		}
	}
	forget_unread(m);
	for (i = 0; i < n && !r->bad; i++) {
		get_task(r, m, pids[i], s);
		order_push(m, pids[i]);
	}
	/* A bad sample: the replay stops; recmem_free frees what the map holds. */
	free(pids);
}

static void get_rows(struct rec_reader *r, struct sample *s, const struct recsample_tables *tb,
		     int format)
{
	/* RB_LIFE: written from format 7 on. */
	size_t bits = ARRAY_SIZE(row_fields) + (format >= RECFMT_LIVES ? 3 : 2);

	size_t n = get_count(r), i;
	pid_t prev = 0;

	for (i = 0; i < n && !r->bad; i++) {
		struct row_events *e = sample_add_row(s);
		uint64_t mask;
		int k;

		/* Against the row before (as the encoder), its tables its own. */
		if (i) {
			*e = s->rows[i - 1];
			e->sc = e->err = NULL;
		}
		prev = get_pid(r, prev);
		e->id = prev;
		mask = rec_get_varint(r);
		get_fields(r, row_fields, ARRAY_SIZE(row_fields),
			   mask & ((1ull << ARRAY_SIZE(row_fields)) - 1), e);
		if (e->id <= 0 || mask >> bits)
			r->bad = true;
		for (k = 0; k < 2 && !r->bad; k++) {
			bool err = k == 1, bad = false;
			const struct sctable *t;
			uint64_t id;

			if (!(mask & (err ? RB_ERR : RB_SC)))
				continue;
			id = rec_get_varint(r);
			if (!id || id > INT64_MAX / 2) {
				r->bad = true;
				break;
			}
			t = tb->get(tb->arg, (int64_t)id, err, &bad);
			if (bad)
				r->bad = true;
			else if (err)
				e->err = t;
			else
				e->sc = t;
		}
		if ((mask & RB_LIFE) && !r->bad)
			get_more(r, life_fields, ARRAY_SIZE(life_fields), e);
		e->comm[sizeof(e->comm) - 1] = '\0';
	}
}

static void get_cg(struct rec_reader *r, struct recmem *m, struct sample *s)
{
	size_t n = get_count(r), i;

	for (i = 0; i < n && !r->bad; i++) {
		uint64_t idx = rec_get_varint(r), mask;
		struct recmem_cg *c;
		struct cg_reading *out;

		if (idx == 0) {
			size_t len;
			const char *txt = get_text(r, TEXT_LIMIT, &len);
			char *buf;

			if (r->bad)
				break;
			buf = xmalloc(len + 1);
			memcpy(buf, txt, len);
			buf[len] = '\0';
			c = cg_add(m, buf);
			free(buf);
		} else if (idx <= m->ncg) {
			c = &m->cg[idx - 1];
		} else {
			r->bad = true;
			break;
		}
		mask = rec_get_varint(r);
		get_fields(r, cg_fields, ARRAY_SIZE(cg_fields), mask, &c->c);
		out = sample_add_cgres(s);
		*out = c->c;
		out->dir = c->dir;
	}
}

static void get_disks(struct rec_reader *r, struct recmem *m, struct sample *s)
{
	size_t n = get_count(r), i;

	s->have_disks = true;
	for (i = 0; i < n && !r->bad; i++) {
		uint64_t idx = rec_get_varint(r), mask;
		struct disk_reading *d, *out;

		if (idx == 0) {
			uint64_t dev = rec_get_varint(r);
			size_t len, k;
			const char *txt = get_text(r, DISK_NAME_MAX - 1, &len);
			char name[DISK_NAME_MAX];

			if (r->bad || dev > UINT32_MAX)
				break;
			memcpy(name, txt, len);
			name[len] = '\0';
			d = disk_find(m, (uint32_t)dev, 0, &k);
			if (!d)
				d = disk_add(m, (uint32_t)dev, "");
			memset(d->name, 0, sizeof(d->name));
			memcpy(d->name, name, len);
		} else if (idx <= m->ndisk) {
			d = &m->disk[idx - 1];
		} else {
			r->bad = true;
			break;
		}
		mask = rec_get_varint(r);
		get_fields(r, disk_fields, ARRAY_SIZE(disk_fields), mask, d);
		out = sample_add_disk(s);
		*out = *d;
	}
}

static void add_withheld(struct sample *s, pid_t p)
{
	sample_add_withheld(s, p);
}

static void add_exit(struct sample *s, pid_t p)
{
	sample_add_exit(s, p);
}

static void add_unfocus(struct sample *s, pid_t p)
{
	sample_add_unfocus(s, p);
}

/* Numbers the model takes as they are: in the ranges a live source gives. */
static bool sane(const struct sample *s)
{
	size_t i;

	for (i = 0; i < s->ntasks; i++) {
		const struct task_reading *t = &s->tasks[i];

		if (t->tgid <= 0 || t->tgid >= PID_LIMIT || t->uid < -1 || t->stat.ppid < 0 ||
		    t->stat.ppid >= PID_LIMIT || t->stat.processor < -1 ||
		    t->stat.processor >= SYS_MAX_CPUS)
			return false;
	}
	for (i = 0; i < s->nrows; i++) {
		const struct row_events *e = &s->rows[i];

		if (e->tgid < 0 || e->tgid >= PID_LIMIT || e->ppid < 0 || e->ppid >= PID_LIMIT)
			return false;
	}
	for (i = 0; i < s->nfinals; i++) {
		const struct task_final *f = &s->finals[i];

		if (f->tgid < 0 || f->tgid >= PID_LIMIT || f->ppid < 0 || f->ppid >= PID_LIMIT ||
		    f->uid < -1 || (f->have >> CNT_NR))
			return false;
	}
	for (i = 0; i < s->nflows; i++) {
		const struct sig_flow *f = &s->flows[i];

		if (f->sender < -1 || f->sender >= PID_LIMIT || f->receiver < -1 ||
		    f->receiver >= PID_LIMIT || f->sig < -4096 || f->sig > 4096 ||
		    f->result < -4096 || f->result > 4096)
			return false;
	}
	for (i = 0; i < s->ncgres; i++)
		if (s->cgres[i].raw.have >= CGR_PIDS_MAX << 1)
			return false;
	for (i = 0; i < s->ndisks; i++) {
		const struct disk_reading *d = &s->disks[i];
		uint32_t k;

		if (d->nsub > DISK_SUBMITTERS || d->name[sizeof(d->name) - 1])
			return false;
		for (k = 0; k < d->nsub; k++)
			if (d->sub[k].pid < 0 || d->sub[k].pid >= PID_LIMIT ||
			    d->sub[k].comm[sizeof(d->sub[k].comm) - 1])
				return false;
	}
	for (i = 0; i < s->nconns; i++) {
		const struct sock_conn *c = &s->conns[i];

		if (c->pid < 0 || c->pid >= PID_LIMIT || c->lport > 65535 || c->rport > 65535)
			return false;
	}
	return true;
}

int recsample_decode(const uint8_t *p, size_t n, size_t *pos, struct recmem *m,
		     struct sample *s, const struct recsample_tables *t)
{
	struct rec_reader r = { .p = p, .n = n, .pos = *pos };
	uint64_t parts;
	size_t i, len;
	pid_t prev = 0;

	if (r.pos >= n)
		return 0;
	parts = rec_get_varint(&r);
	if (parts & ~(uint64_t)P_ALL)
		r.bad = true;
	s->begin = parts & P_BEGIN;
	s->end = parts & P_END;
	if ((parts & P_SYS) && !r.bad) {
		bool delta = rec_get_varint(&r) != 0;
		const char *b = get_text(&r, RECFMT_VALUE_MAX, &len);

		if (!r.bad && ((delta && !m->have_sys) ||
			       recfmt_sys_decode((const uint8_t *)b, len, delta, &m->sys)))
			r.bad = true;
		if (!r.bad) {
			m->have_sys = true;
			s->have_sys = true;
			s->sys = m->sys;
			s->sys.stat.cpu = s->cpu;
			memcpy(s->cpu, m->sys.stat.cpu, SYS_MAX_CPUS * sizeof(*s->cpu));
		}
	}
	if ((parts & P_TASKS) && !r.bad)
		get_tasks(&r, m, s);
	if ((parts & P_RESTORE) && !r.bad)
		get_pids(&r, m->fresh ? add_exit : NULL, s);
	if ((parts & P_WITHHELD) && !r.bad)
		get_pids(&r, add_withheld, s);
	if ((parts & P_ROWS) && !r.bad)
		get_rows(&r, s, t, m->format);
	if ((parts & P_EXITS) && !r.bad)
		get_pids(&r, add_exit, s);
	if ((parts & P_UNFOCUS) && !r.bad)
		get_pids(&r, add_unfocus, s);
	if ((parts & P_FINALS) && !r.bad) {
		size_t nf = get_count(&r);

		for (i = 0; i < nf && !r.bad; i++) {
			struct task_final *f = sample_add_final(s);
			uint64_t mask;

			/* What the encoder's fields differ from: the record before, or 0. */
			if (i)
				*f = s->finals[i - 1];
			else
				memset(f, 0, sizeof(*f));
			prev = get_pid(&r, prev);
			f->id = prev;
			mask = rec_get_varint(&r);
			get_fields(&r, final_fields, ARRAY_SIZE(final_fields),
				   mask & ((1ull << ARRAY_SIZE(final_fields)) - 1), f);
			/* FB_WIN: written from format 7 on. */
			if (f->id <= 0 ||
			    mask >> (ARRAY_SIZE(final_fields) + (m->format >= RECFMT_LIVES ? 2 : 1)))
				r.bad = true;
			if ((mask & FB_USER) && !r.bad) {
				f->user = NULL;
				if (rec_get_varint(&r)) {
					char buf[TEXT_LIMIT + 1];
					const char *txt = get_text(&r, TEXT_LIMIT, &len);

					memcpy(buf, txt, len);
					buf[len] = '\0';
					f->user = intern(m, buf);
				}
			}
			if ((mask & FB_WIN) && !r.bad)
				get_more(&r, window_fields, ARRAY_SIZE(window_fields), f);
			f->comm[sizeof(f->comm) - 1] = '\0';
		}
	}
	if ((parts & P_EXIT_TOTALS) && !r.bad) {
		s->have_exit_totals = true;
		s->exits_lost = rec_get_varint(&r);
		s->exits_lost_unknown = rec_get_varint(&r) != 0;
	}
	if ((parts & P_FLOWS) && !r.bad) {
		size_t nf = get_count(&r);

		for (i = 0; i < nf && !r.bad; i++) {
			struct sig_flow *f = sample_add_flow(s);

			if (i)
				*f = s->flows[i - 1];
			get_fields(&r, flow_fields, ARRAY_SIZE(flow_fields), rec_get_varint(&r), f);
			f->sender_comm[sizeof(f->sender_comm) - 1] = '\0';
			f->receiver_comm[sizeof(f->receiver_comm) - 1] = '\0';
		}
	}
	if ((parts & P_TOTALS) && !r.bad) {
		s->have_totals = true;
		get_fields(&r, totals_fields, ARRAY_SIZE(totals_fields), rec_get_varint(&r), s);
		s->lost_unknown = s->lost_unknown != 0;
	}
	if ((parts & P_CGRES) && !r.bad)
		get_cg(&r, m, s);
	/* Before RECFMT_DISKS no file has them: the bit says the bytes are not a sample. */
	if ((parts & P_DISKS) && m->format < RECFMT_DISKS)
		r.bad = true;
	if ((parts & P_DISKS) && !r.bad)
		get_disks(&r, m, s);
	/* Likewise before RECFMT_CONNS. */
	if ((parts & P_CONNS) && m->format < RECFMT_CONNS)
		r.bad = true;
	if ((parts & P_CONNS) && !r.bad) {
		size_t nc = get_count(&r);

		for (i = 0; i < nc && !r.bad; i++) {
			struct sock_conn *c = sample_add_conn(s);

			if (i)
				*c = s->conns[i - 1];
			get_fields(&r, conn_fields, ARRAY_SIZE(conn_fields), rec_get_varint(&r), c);
			c->comm[sizeof(c->comm) - 1] = '\0';
		}
	}
	if (r.bad || !sane(s)) {
		sample_reset(s);
		return -1;
	}
	*pos = r.pos;
	return 1;
}
