// SPDX-License-Identifier: GPL-2.0-only
#include "sysparse.h"

#include <errno.h>
#include <string.h>

/* Splits a buffer into lines without needing a NUL terminator. */
struct lines {
	const char *p, *end;
};

static int next_line(struct lines *l, const char **s, const char **e)
{
	const char *nl;

	if (l->p >= l->end)
		return 0;
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	*s = l->p;
	*e = nl ? nl : l->end;
	l->p = nl ? nl + 1 : l->end;
	return 1;
}

static int starts(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - s) >= n && memcmp(s, word, n) == 0;
}

/* Reads up to @max unsigned numbers separated by blanks; returns how many. */
static int read_u64s(const char *s, const char *e, uint64_t *out, int max)
{
	int n = 0;

	while (n < max) {
		uint64_t v = 0;
		const char *start;

		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		start = s;
		while (s < e && *s >= '0' && *s <= '9')
			v = v * 10 + (uint64_t)(*s++ - '0');
		if (s == start)
			break;
		out[n++] = v;
	}
	return n;
}

static void fill_cpu(struct cpu_times *c, const uint64_t *v, int n)
{
	uint64_t f[8] = { 0 };

	memcpy(f, v, (size_t)(n < 8 ? n : 8) * sizeof(*v));
	c->user = f[0];
	c->nice = f[1];
	c->system = f[2];
	c->idle = f[3];
	c->iowait = f[4];
	c->irq = f[5];
	c->softirq = f[6];
	c->steal = f[7];
	c->present = 1;
}

int sysparse_sys_stat(const char *buf, size_t len, struct sys_stat *st)
{
	struct lines l = { buf, buf + len };
	const char *s, *e;
	uint64_t v[10];
	int i, n, seen_cpu = 0;

	st->ncpu = 0;
	memset(&st->total, 0, sizeof(st->total));
	for (i = 0; i < st->ncpu_max; i++)
		st->cpu[i].present = 0;
	st->ctxt = st->intr = st->forks = 0;
	st->procs_running = st->procs_blocked = 0;

	while (next_line(&l, &s, &e)) {
		if (starts(s, e, "cpu ")) {
			n = read_u64s(s + 4, e, v, 10);
			if (n < 4)
				return -EINVAL;
			fill_cpu(&st->total, v, n);
			seen_cpu = 1;
		} else if (starts(s, e, "cpu")) {
			uint64_t id;

			if (read_u64s(s + 3, e, &id, 1) != 1)
				continue;
			s += 3;
			while (s < e && *s >= '0' && *s <= '9')
				s++;
			n = read_u64s(s, e, v, 10);
			if (n < 4 || id >= (uint64_t)st->ncpu_max)
				continue;
			fill_cpu(&st->cpu[id], v, n);
			if ((int)id + 1 > st->ncpu)
				st->ncpu = (int)id + 1;
		} else if (starts(s, e, "ctxt ")) {
			read_u64s(s + 5, e, &st->ctxt, 1);
		} else if (starts(s, e, "intr ")) {
			read_u64s(s + 5, e, &st->intr, 1);
		} else if (starts(s, e, "processes ")) {
			read_u64s(s + 10, e, &st->forks, 1);
		} else if (starts(s, e, "procs_running ")) {
			read_u64s(s + 14, e, &st->procs_running, 1);
		} else if (starts(s, e, "procs_blocked ")) {
			read_u64s(s + 14, e, &st->procs_blocked, 1);
		}
	}
	return seen_cpu ? 0 : -EINVAL;
}

struct kv_field {
	const char *key;	/* including the ':' of meminfo or the ' ' of vmstat */
	uint64_t *dst;
	int *seen;
};

static int sysparse_kv(const char *buf, size_t len, const struct kv_field *f, size_t nf)
{
	struct lines l = { buf, buf + len };
	const char *s, *e;
	size_t i, found = 0;

	while (next_line(&l, &s, &e)) {
		for (i = 0; i < nf; i++) {
			size_t klen = strlen(f[i].key);

			if (starts(s, e, f[i].key) &&
			    read_u64s(s + klen, e, f[i].dst, 1) == 1) {
				if (f[i].seen)
					*f[i].seen = 1;
				found++;
				break;
			}
		}
	}
	return found ? 0 : -EINVAL;
}

int sysparse_meminfo(const char *buf, size_t len, struct sys_mem *m)
{
	const struct kv_field f[] = {
		{ "MemTotal:", &m->total, NULL },
		{ "MemFree:", &m->free, NULL },
		{ "MemAvailable:", &m->available, &m->has_available },
		{ "Buffers:", &m->buffers, NULL },
		{ "Cached:", &m->cached, NULL },
		{ "SReclaimable:", &m->sreclaimable, NULL },
		{ "Shmem:", &m->shmem, NULL },
		{ "SwapTotal:", &m->swap_total, NULL },
		{ "SwapFree:", &m->swap_free, NULL },
	};

	memset(m, 0, sizeof(*m));
	if (sysparse_kv(buf, len, f, sizeof(f) / sizeof(f[0])) || !m->total)
		return -EINVAL;
	if (!m->has_available)	/* kernels before 3.14 */
		m->available = m->free + m->buffers + m->cached;
	return 0;
}

int sysparse_vmstat(const char *buf, size_t len, struct sys_vm *v)
{
	const struct kv_field f[] = {
		{ "pgfault ", &v->pgfault, NULL },
		{ "pgmajfault ", &v->pgmajfault, NULL },
		{ "pswpin ", &v->pswpin, NULL },
		{ "pswpout ", &v->pswpout, NULL },
		{ "pgpgin ", &v->pgpgin, NULL },
		{ "pgpgout ", &v->pgpgout, NULL },
	};

	memset(v, 0, sizeof(*v));
	return sysparse_kv(buf, len, f, sizeof(f) / sizeof(f[0]));
}

/* A non-negative decimal with optional fraction, e.g. "0.08" or "118.46". */
static int read_decimal(const char **sp, const char *e, double *out)
{
	const char *s = *sp;
	double v = 0, scale = 1;
	int digits = 0;

	while (s < e && *s == ' ')
		s++;
	while (s < e && *s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		digits++;
	}
	if (s < e && *s == '.') {
		s++;
		while (s < e && *s >= '0' && *s <= '9') {
			scale /= 10;
			v += (*s++ - '0') * scale;
			digits++;
		}
	}
	if (!digits)
		return -EINVAL;
	*sp = s;
	*out = v;
	return 0;
}

int sysparse_loadavg(const char *buf, size_t len, struct sys_load *l)
{
	const char *s = buf, *e = buf + len;
	uint64_t v[2];
	int i;

	for (i = 0; i < 3; i++)
		if (read_decimal(&s, e, &l->avg[i]))
			return -EINVAL;
	/* "1/79": running and total scheduling entities. */
	if (read_u64s(s, e, v, 1) != 1)
		return -EINVAL;
	while (s < e && *s != '/')
		s++;
	if (s == e || read_u64s(s + 1, e, v + 1, 1) != 1)
		return -EINVAL;
	l->running = v[0];
	l->threads = v[1];
	s++;
	while (s < e && *s >= '0' && *s <= '9')
		s++;
	l->has_last_pid = read_u64s(s, e, &l->last_pid, 1) == 1;
	return 0;
}

int sysparse_uptime(const char *buf, size_t len, double *uptime_s)
{
	const char *s = buf;

	return read_decimal(&s, buf + len, uptime_s);
}

int sysparse_trace_now_ts(const char *buf, size_t len, uint64_t *raw, int *in_ns)
{
	struct lines l = { buf, buf + len };
	const char *s, *e;
	uint64_t v[2];

	while (next_line(&l, &s, &e)) {
		if (!starts(s, e, "now ts:"))
			continue;
		if (read_u64s(s + 7, e, v, 1) != 1)
			return -EINVAL;
		s += 7;
		while (s < e && *s == ' ')
			s++;
		while (s < e && *s >= '0' && *s <= '9')
			s++;
		if (s == e) {
			*raw = v[0];
			*in_ns = 0;
			return 0;
		}
		/* Exactly six digits of microseconds, and nothing after them. */
		if (*s != '.' || e - s != 7 || read_u64s(s + 1, e, v + 1, 1) != 1 ||
		    v[0] > UINT64_MAX / 1000000000ull - 1)
			return -EINVAL;
		*raw = v[0] * 1000000000ull + v[1] * 1000;
		*in_ns = 1;
		return 0;
	}
	return -EINVAL;
}

int sysparse_sched_clock_stable(const char *buf, size_t len)
{
	struct lines l = { buf, buf + len };
	const char *s, *e;
	uint64_t v;

	if (!next_line(&l, &s, &e) || !starts(s, e, "Sched Debug Version"))
		return -EINVAL;
	while (next_line(&l, &s, &e)) {
		const char *c;

		/* The header ends at the first empty line. */
		if (s == e)
			break;
		if (!starts(s, e, "sched_clock_stable()"))
			continue;
		c = memchr(s, ':', (size_t)(e - s));
		if (!c || read_u64s(c + 1, e, &v, 1) != 1 || v > 1)
			return -EINVAL;
		return (int)v;
	}
	return 1;
}
