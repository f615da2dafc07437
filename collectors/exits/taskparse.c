// SPDX-License-Identifier: GPL-2.0-only
#include "taskparse.h"

#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

/*
 * Offsets in struct taskstats. Its fields carry explicit 8-byte alignments
 * where the natural ones differ between ABIs, so these hold on every
 * architecture; they are ktop's own so that a build host with old headers
 * still reads a new kernel's fields.
 */
enum {
	OFF_VERSION = 0,
	OFF_EXITCODE = 4,
	OFF_FLAG = 8,
	OFF_RUN_VIRTUAL = 72,
	OFF_COMM = 80,
	OFF_UID = 120,
	OFF_GID = 124,
	OFF_PPID = 132,
	OFF_BTIME = 136,
	OFF_ETIME = 144,
	OFF_UTIME = 152,
	OFF_STIME = 160,
	OFF_MINFLT = 168,
	OFF_MAJFLT = 176,
	OFF_HIWATER_RSS = 200,
	OFF_HIWATER_VM = 208,
	OFF_RCHAR = 216,
	OFF_WCHAR = 224,
	OFF_SYSCR = 232,
	OFF_SYSCW = 240,
	OFF_READ_BYTES = 248,
	OFF_WRITE_BYTES = 256,
	OFF_CANCELLED = 264,
	OFF_NVCSW = 272,
	OFF_NIVCSW = 280,
	OFF_BTIME64 = 344,	/* version 10 */
	OFF_TGID = 368,		/* version 12 */
};

#define CHECK_OFF(field, off) \
	_Static_assert(offsetof(struct taskstats, field) == (off), "taskstats." #field)
CHECK_OFF(version, OFF_VERSION);
CHECK_OFF(ac_exitcode, OFF_EXITCODE);
CHECK_OFF(ac_flag, OFF_FLAG);
CHECK_OFF(cpu_run_virtual_total, OFF_RUN_VIRTUAL);
CHECK_OFF(ac_comm, OFF_COMM);
CHECK_OFF(ac_uid, OFF_UID);
CHECK_OFF(ac_gid, OFF_GID);
CHECK_OFF(ac_ppid, OFF_PPID);
CHECK_OFF(ac_btime, OFF_BTIME);
CHECK_OFF(ac_etime, OFF_ETIME);
CHECK_OFF(ac_utime, OFF_UTIME);
CHECK_OFF(ac_stime, OFF_STIME);
CHECK_OFF(ac_minflt, OFF_MINFLT);
CHECK_OFF(ac_majflt, OFF_MAJFLT);
CHECK_OFF(hiwater_rss, OFF_HIWATER_RSS);
CHECK_OFF(hiwater_vm, OFF_HIWATER_VM);
CHECK_OFF(read_char, OFF_RCHAR);
CHECK_OFF(write_char, OFF_WCHAR);
CHECK_OFF(read_syscalls, OFF_SYSCR);
CHECK_OFF(write_syscalls, OFF_SYSCW);
CHECK_OFF(read_bytes, OFF_READ_BYTES);
CHECK_OFF(write_bytes, OFF_WRITE_BYTES);
CHECK_OFF(cancelled_write_bytes, OFF_CANCELLED);
CHECK_OFF(nvcsw, OFF_NVCSW);
CHECK_OFF(nivcsw, OFF_NIVCSW);
_Static_assert(OFF_NIVCSW + 8 == TS_STATS_MIN_LEN, "TS_STATS_MIN_LEN");
_Static_assert(sizeof(((struct taskstats *)0)->ac_comm) == TS_COMM_LEN, "TS_COMM_LEN");
#if TASKSTATS_VERSION >= 12
CHECK_OFF(ac_btime64, OFF_BTIME64);
CHECK_OFF(ac_tgid, OFF_TGID);
#endif

/* One struct taskstats as sent: @p holds @len bytes, no alignment. */
struct tstruct {
	const unsigned char *p;
	size_t len;
	unsigned version;	/* the layout it is read with */
};

/* Does @t hold @size bytes at @off, and is it of a version that has them? */
static bool has(const struct tstruct *t, size_t off, size_t size, unsigned since)
{
	return t->version >= since && off <= t->len && size <= t->len - off;
}

static uint64_t get_u64(const struct tstruct *t, size_t off)
{
	uint64_t v;

	memcpy(&v, t->p + off, sizeof(v));
	return v;
}

static uint32_t get_u32(const struct tstruct *t, size_t off)
{
	uint32_t v;

	memcpy(&v, t->p + off, sizeof(v));
	return v;
}

static void copy_comm(char *dst, const unsigned char *src)
{
	size_t i;

	for (i = 0; i < TS_COMM_LEN - 1 && src[i]; i++)
		dst[i] = src[i] < 0x20 || src[i] == 0x7f ? '?' : (char)src[i];
	dst[i] = '\0';
}

/* Every field ts_exit takes from a struct of at least TS_STATS_MIN_LEN bytes. */
static void fill(struct taskparse_exit *e, const struct tstruct *t)
{
	e->version = (uint16_t)t->version;
	e->len = t->len > UINT32_MAX ? UINT32_MAX : (uint32_t)t->len;
	e->exit_code = get_u32(t, OFF_EXITCODE);
	e->ac_flag = t->p[OFF_FLAG];
	e->run_ns = get_u64(t, OFF_RUN_VIRTUAL);
	copy_comm(e->comm, t->p + OFF_COMM);
	e->uid = get_u32(t, OFF_UID);
	e->gid = get_u32(t, OFF_GID);
	e->ppid = (pid_t)get_u32(t, OFF_PPID);
	e->btime = get_u32(t, OFF_BTIME);
	if (has(t, OFF_BTIME64, 8, 10))
		e->btime = get_u64(t, OFF_BTIME64);
	e->etime_us = get_u64(t, OFF_ETIME);
	e->utime_us = get_u64(t, OFF_UTIME);
	e->stime_us = get_u64(t, OFF_STIME);
	e->minflt = get_u64(t, OFF_MINFLT);
	e->majflt = get_u64(t, OFF_MAJFLT);
	e->hiwater_rss_kb = get_u64(t, OFF_HIWATER_RSS);
	e->hiwater_vm_kb = get_u64(t, OFF_HIWATER_VM);
	e->rchar = get_u64(t, OFF_RCHAR);
	e->wchar = get_u64(t, OFF_WCHAR);
	e->syscr = get_u64(t, OFF_SYSCR);
	e->syscw = get_u64(t, OFF_SYSCW);
	e->read_bytes = get_u64(t, OFF_READ_BYTES);
	e->write_bytes = get_u64(t, OFF_WRITE_BYTES);
	e->cancelled_write_bytes = get_u64(t, OFF_CANCELLED);
	e->nvcsw = get_u64(t, OFF_NVCSW);
	e->nivcsw = get_u64(t, OFF_NIVCSW);
}

/* The parse of one buffer. */
struct ctx {
	uint16_t family;
	struct taskparse_exit *out;
	size_t max, n;
	struct taskparse_stats *st;
	unsigned msg_version;	/* the thread record's, for a group record of version 0 */
	bool bad, unsupported, records;
};

static void emit(struct ctx *c, const struct tstruct *t, bool group, uint32_t id)
{
	struct taskparse_exit *e;

	c->records = true;
	if (c->n >= c->max) {
		c->st->overflow++;
		return;
	}
	e = &c->out[c->n++];
	memset(e, 0, sizeof(*e));
	fill(e, t);
	e->group = group;
	if (group) {
		e->tgid = (pid_t)id;
		e->group_dead = true;
	} else {
		e->tid = (pid_t)id;
		if (has(t, OFF_TGID, 4, 12))
			e->tgid = (pid_t)get_u32(t, OFF_TGID);
		e->group_dead = t->version >= 12 && (e->ac_flag & TS_AGROUP);
	}
}

/*
 * The attributes of @p, @len bytes, one at a time: *@type, *@data, *@dlen of
 * the next at *@pos. Returns 1 for an attribute, 0 at the end, -1 when the
 * lengths do not add up.
 */
static int next_attr(const unsigned char *p, size_t len, size_t *pos, unsigned *type,
		     const unsigned char **data, size_t *dlen)
{
	struct nlattr nla;
	size_t left = len - *pos, step;

	if (!left)
		return 0;
	if (left < NLA_HDRLEN)
		return -1;
	memcpy(&nla, p + *pos, sizeof(nla));
	if (nla.nla_len < NLA_HDRLEN || nla.nla_len > left)
		return -1;
	*type = nla.nla_type & NLA_TYPE_MASK;
	*data = p + *pos + NLA_HDRLEN;
	*dlen = nla.nla_len - NLA_HDRLEN;
	/* The last attribute may go without its padding. */
	step = NLA_ALIGN((size_t)nla.nla_len);
	*pos += step < left ? step : left;
	return 1;
}

/* A TASKSTATS_TYPE_AGGR_PID or _AGGR_TGID nest: the id and the struct. */
static void parse_aggr(struct ctx *c, const unsigned char *p, size_t len, bool group)
{
	unsigned want = group ? TASKSTATS_TYPE_TGID : TASKSTATS_TYPE_PID;
	const unsigned char *data, *stats = NULL;
	size_t pos = 0, dlen, slen = 0;
	bool have_id = false;
	struct tstruct t;
	uint32_t id = 0;
	uint16_t v;
	unsigned type;
	int r;

	while ((r = next_attr(p, len, &pos, &type, &data, &dlen)) > 0) {
		if (type == TASKSTATS_TYPE_PID || type == TASKSTATS_TYPE_TGID) {
			if (type != want || have_id || dlen < sizeof(id)) {
				c->bad = true;
				return;
			}
			memcpy(&id, data, sizeof(id));
			have_id = true;
		} else if (type == TASKSTATS_TYPE_STATS) {
			if (stats) {
				c->bad = true;
				return;
			}
			stats = data;
			slen = dlen;
		}
		/* Anything else: a newer kernel's addition, skipped. */
	}
	if (r < 0 || !have_id || !stats || slen < TS_STATS_MIN_LEN) {
		c->bad = true;
		return;
	}
	memcpy(&v, stats + OFF_VERSION, sizeof(v));
	t.p = stats;
	t.len = slen;
	t.version = v;
	if (group && v == 0) {
		/* The exit path copies a struct it never stamped: the thread's layout. */
		t.version = c->msg_version;
	} else if (!group) {
		c->msg_version = v;
	}
	/* Version 1 had another head; 15 grew in the middle (see taskparse.h). */
	if (t.version < 2 || t.version == 15) {
		c->unsupported = true;
		c->st->unsupported++;
		return;
	}
	emit(c, &t, group, id);
}

/* The attributes of one TASKSTATS_CMD_NEW message. */
static void parse_new(struct ctx *c, const unsigned char *p, size_t len)
{
	const unsigned char *data;
	size_t pos = 0, dlen;
	unsigned type;
	int r;

	c->msg_version = TASKSTATS_VERSION;
	while ((r = next_attr(p, len, &pos, &type, &data, &dlen)) > 0) {
		if (type == TASKSTATS_TYPE_AGGR_PID || type == TASKSTATS_TYPE_AGGR_TGID)
			parse_aggr(c, data, dlen, type == TASKSTATS_TYPE_AGGR_TGID);
		if (c->bad)
			return;
		/* TASKSTATS_TYPE_NULL (alignment padding) and unknown types: skipped. */
	}
	if (r < 0)
		c->bad = true;
}

size_t taskparse(const void *buf, size_t len, uint16_t family, struct taskparse_exit *out, size_t max,
		struct taskparse_stats *st)
{
	const unsigned char *b = buf;
	struct ctx c = { .family = family, .out = out, .max = max, .st = st };
	struct nlmsghdr h;
	size_t off = 0, mlen;

	while (len - off > 0) {
		if (len - off < NLMSG_HDRLEN) {
			st->malformed++;	/* trailing bytes: not a message */
			break;
		}
		memcpy(&h, b + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off) {
			st->malformed++;	/* the next one cannot be found */
			break;
		}
		mlen = h.nlmsg_len;
		st->msgs++;
		c.bad = c.unsupported = c.records = false;
		if (h.nlmsg_type == NLMSG_ERROR) {
			int32_t err;

			if (mlen < NLMSG_HDRLEN + sizeof(err)) {
				c.bad = true;
			} else {
				memcpy(&err, b + off + NLMSG_HDRLEN, sizeof(err));
				if (err) {
					st->errors++;
					st->last_error = err > 0 ? -err : err;
				} else {
					st->other++;	/* an ack */
				}
			}
		} else if (h.nlmsg_type != family || !family) {
			st->other++;
		} else if (mlen < NLMSG_HDRLEN + GENL_HDRLEN) {
			c.bad = true;
		} else if (b[off + NLMSG_HDRLEN] != TASKSTATS_CMD_NEW) {
			st->other++;	/* genlmsghdr.cmd */
		} else {
			parse_new(&c, b + off + NLMSG_HDRLEN + GENL_HDRLEN,
				  mlen - NLMSG_HDRLEN - GENL_HDRLEN);
			if (!c.bad && !c.records && !c.unsupported)
				st->other++;
		}
		if (c.bad)
			st->malformed++;
		off += NLMSG_ALIGN(mlen) < len - off ? NLMSG_ALIGN(mlen) : len - off;
	}
	return c.n;
}

/* Clock ticks in @ns nanoseconds, rounded down as the kernel's nsec_to_clock_t. */
static uint64_t ns_to_ticks(uint64_t ns, uint64_t hz)
{
	return ns / 1000000000u * hz + ns % 1000000000u * hz / 1000000000u;
}

static uint64_t sub_sat(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

bool taskparse_start_window(const struct taskparse_exit *e, long hz, uint64_t *lo, uint64_t *hi)
{
	uint64_t et;

	if (!e->exit_hi_ns || hz <= 0 || hz > 1000000 || e->exit_lo_ns > e->exit_hi_ns)
		return false;
	/* etime is whole microseconds, rounded down: the start may be 1 us earlier. */
	et = e->etime_us < UINT64_MAX / 1000 ? e->etime_us * 1000 : UINT64_MAX - 1000;
	*lo = ns_to_ticks(sub_sat(e->exit_lo_ns, et + 1000), (uint64_t)hz);
	*hi = ns_to_ticks(sub_sat(e->exit_hi_ns, et), (uint64_t)hz);
	return true;
}

bool taskparse_exit_is(const struct taskparse_exit *e, pid_t pid, uint64_t starttime, long hz)
{
	uint64_t lo, hi;

	if ((e->group ? e->tgid : e->tid) != pid)
		return false;
	if (!taskparse_start_window(e, hz, &lo, &hi))
		return true;
	return starttime >= lo && starttime <= hi;
}
