// SPDX-License-Identifier: GPL-2.0-only
#include "procparse.h"

#include <errno.h>
#include <string.h>

/*
 * A bounded cursor over a buffer that is not NUL-terminated (pread fills it with
 * exactly what the kernel wrote), so the parser never reads past @end.
 */
struct cursor {
	const char *p, *end;
};

static int next_u64(struct cursor *c, uint64_t *out)
{
	uint64_t v = 0;
	const char *start;

	while (c->p < c->end && *c->p == ' ')
		c->p++;
	start = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		v = v * 10 + (uint64_t)(*c->p - '0');
		c->p++;
	}
	if (c->p == start)
		return -EINVAL;
	*out = v;
	return 0;
}

static int next_i64(struct cursor *c, int64_t *out)
{
	uint64_t v;
	int neg = 0;

	while (c->p < c->end && *c->p == ' ')
		c->p++;
	if (c->p < c->end && *c->p == '-') {
		neg = 1;
		c->p++;
	}
	if (next_u64(c, &v))
		return -EINVAL;
	/* Negated unsigned: "-9223372036854775808" must not overflow a signed negation. */
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static int skip_fields(struct cursor *c, int n)
{
	int64_t dummy;

	while (n--)
		if (next_i64(c, &dummy))
			return -EINVAL;
	return 0;
}

static const char *memrchr_bounded(const char *buf, size_t len, char ch)
{
	while (len--)
		if (buf[len] == ch)
			return buf + len;
	return NULL;
}

int parse_pid_stat(const char *buf, size_t len, struct pid_stat *st)
{
	struct cursor c = { buf, buf + len };
	const char *open, *close;
	uint64_t u;
	int64_t i;
	size_t n;

	memset(st, 0, sizeof(*st));
	st->processor = -1;

	/*
	 * "pid (comm) state ...": comm may hold spaces, '(' and ')', so it ends at
	 * the last ')' of the line, the only one that cannot belong to comm.
	 */
	open = memchr(buf, '(', len);
	close = memrchr_bounded(buf, len, ')');
	if (!open || !close || close < open)
		return -EINVAL;
	c.end = open;
	if (next_u64(&c, &u) || u == 0 || u > 0x7fffffff)
		return -EINVAL;
	st->pid = (pid_t)u;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	st->comm[n] = '\0';

	c.p = close + 1;
	c.end = buf + len;
	if (c.end - c.p < 2 || c.p[0] != ' ')
		return -EINVAL;
	st->state = c.p[1];
	c.p += 2;

	if (next_i64(&c, &i)) return -EINVAL;	/* 4 ppid */
	st->ppid = (pid_t)i;
	if (next_i64(&c, &i)) return -EINVAL;	/* 5 pgrp */
	st->pgid = (pid_t)i;
	if (next_i64(&c, &i)) return -EINVAL;	/* 6 session */
	st->sid = (pid_t)i;
	if (next_i64(&c, &i)) return -EINVAL;	/* 7 tty_nr */
	st->tty_nr = (int)i;
	if (skip_fields(&c, 2)) return -EINVAL;	/* 8 tpgid, 9 flags */
	if (next_u64(&c, &st->minflt)) return -EINVAL;	/* 10 */
	if (skip_fields(&c, 1)) return -EINVAL;		/* 11 cminflt */
	if (next_u64(&c, &st->majflt)) return -EINVAL;	/* 12 */
	if (skip_fields(&c, 1)) return -EINVAL;		/* 13 cmajflt */
	if (next_u64(&c, &st->utime)) return -EINVAL;	/* 14 */
	if (next_u64(&c, &st->stime)) return -EINVAL;	/* 15 */
	if (skip_fields(&c, 2)) return -EINVAL;		/* 16 cutime, 17 cstime */
	if (next_i64(&c, &st->priority)) return -EINVAL;	/* 18 */
	if (next_i64(&c, &st->nice)) return -EINVAL;	/* 19 */
	if (next_u64(&c, &st->num_threads)) return -EINVAL;	/* 20 */
	if (skip_fields(&c, 1)) return -EINVAL;		/* 21 itrealvalue */
	if (next_u64(&c, &st->starttime)) return -EINVAL;	/* 22 */
	if (next_u64(&c, &st->vsize)) return -EINVAL;	/* 23 */
	if (next_u64(&c, &st->rss)) return -EINVAL;	/* 24 */
	/* The kernel always writes more after rss: a file cut inside it is not whole. */
	if (c.p == c.end)
		return -EINVAL;
	/* 25..38 are optional for ktop; 39 is the last CPU the task ran on. */
	if (skip_fields(&c, 14) == 0 && next_i64(&c, &i) == 0)
		st->processor = (int)i;
	return 0;
}

/* Value of the line "@key:\t..." in a status buffer, or NULL. */
static const char *status_line(const char *buf, size_t len, const char *key,
			       const char **end)
{
	size_t klen = strlen(key);
	const char *p = buf, *e = buf + len, *nl;

	while (p < e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		if ((size_t)(nl - p) > klen && memcmp(p, key, klen) == 0 && p[klen] == ':') {
			*end = nl;
			return p + klen + 1;
		}
		p = nl + 1;
	}
	return NULL;
}

static int64_t status_field(const char *buf, size_t len, const char *key, int nth)
{
	struct cursor c;
	uint64_t v = 0;
	const char *end;

	c.p = status_line(buf, len, key, &end);
	if (!c.p)
		return -1;
	c.end = end;
	while (nth-- >= 0) {
		while (c.p < c.end && *c.p == '\t')
			c.p++;
		if (next_u64(&c, &v))
			return -1;
	}
	return (int64_t)v;
}

int parse_elf_compat(const unsigned char *h, size_t len, unsigned native_em)
{
	unsigned machine;

	/* e_ident: magic, class (1: 32-bit, 2: 64-bit), data (1: little endian). */
	if (len < 20 || memcmp(h, "\177ELF", 4) != 0 || (h[4] != 1 && h[4] != 2) ||
	    (h[5] != 1 && h[5] != 2))
		return -1;
	/* e_machine, at 18, in the file's byte order. */
	machine = h[5] == 1 ? (unsigned)(h[18] | h[19] << 8) : (unsigned)(h[18] << 8 | h[19]);
	return h[4] == 1 && machine != native_em;
}

int parse_pid_status(const char *buf, size_t len, struct pid_status *st)
{
	st->tgid = status_field(buf, len, "Tgid", 0);
	st->uid = status_field(buf, len, "Uid", 1);
	st->vcsw = status_field(buf, len, "voluntary_ctxt_switches", 0);
	st->ivcsw = status_field(buf, len, "nonvoluntary_ctxt_switches", 0);
	/* A status file always has Name: first; anything else is not one. */
	if (len < 5 || memcmp(buf, "Name:", 5) != 0)
		return -EINVAL;
	return 0;
}
