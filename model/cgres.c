// SPDX-License-Identifier: GPL-2.0-only
#include "cgres.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"

/* Ticks a cgroup not read stays known: a view switched away and back keeps its totals. */
#define CGRES_KEEP_TICKS 60

/* ---- the interval's numbers ---- */

static bool both(const struct cgres *r, uint32_t bit)
{
	return r->have_prev && (r->cur.have & bit) && (r->prev.have & bit) && r->t_cur > r->t_prev;
}

/* A counter's delta; a counter that went back (a cgroup made anew) is not known. */
static bool delta(const struct cgres *r, uint32_t bit, uint64_t cur, uint64_t prev, uint64_t *d)
{
	if (!both(r, bit) || cur < prev)
		return false;
	*d = cur - prev;
	return true;
}

static bool psi_pct(const struct cgres *r, int res, bool full, double *out)
{
	uint64_t d;
	bool ok = full ? delta(r, CGR_PSI_FULL(res), r->cur.psi_full[res], r->prev.psi_full[res], &d)
		       : delta(r, CGR_PSI_SOME(res), r->cur.psi_some[res], r->prev.psi_some[res], &d);

	if (!ok)
		return false;
	*out = (double)d * 1000.0 * 100.0 / (double)(r->t_cur - r->t_prev);
	return true;
}

bool cgres_num(const struct cgres *r, enum cgres_field f, double *out)
{
	const struct cgres_raw *c = &r->cur;
	uint64_t d;

	switch (f) {
	case CGF_CPU_SOME:
	case CGF_CPU_FULL:
		return psi_pct(r, CG_PSI_CPU, f == CGF_CPU_FULL, out);
	case CGF_IO_SOME:
	case CGF_IO_FULL:
		return psi_pct(r, CG_PSI_IO, f == CGF_IO_FULL, out);
	case CGF_MEM_SOME:
	case CGF_MEM_FULL:
		return psi_pct(r, CG_PSI_MEM, f == CGF_MEM_FULL, out);
	case CGF_CPU_SOME_US:
		if (!delta(r, CGR_PSI_SOME(CG_PSI_CPU), c->psi_some[CG_PSI_CPU],
			   r->prev.psi_some[CG_PSI_CPU], &d))
			return false;
		*out = (double)d;
		return true;
	case CGF_CPU_LIMIT:
		if (!(c->have & CGR_CPU_MAX) || c->quota_us == CGR_UNLIMITED || !c->period_us)
			return false;
		*out = (double)c->quota_us * 100.0 / (double)c->period_us;
		return true;
	case CGF_THROTTLED:
	case CGF_THROTTLED_US:
		if (!delta(r, CGR_THROTTLE, f == CGF_THROTTLED ? c->nr_throttled : c->throttled_us,
			   f == CGF_THROTTLED ? r->prev.nr_throttled : r->prev.throttled_us, &d))
			return false;
		*out = (double)d;
		return true;
	case CGF_THROTTLED_PCT:
		if (!delta(r, CGR_THROTTLE, c->throttled_us, r->prev.throttled_us, &d))
			return false;
		*out = (double)d * 1000.0 * 100.0 / (double)(r->t_cur - r->t_prev);
		return true;
	case CGF_MEM_KB:
		if (!(c->have & CGR_MEM_CUR))
			return false;
		*out = (double)(c->mem_cur / 1024);
		return true;
	case CGF_MEM_MAX_KB:
		if (!(c->have & CGR_MEM_MAX) || c->mem_max == CGR_UNLIMITED)
			return false;
		*out = (double)(c->mem_max / 1024);
		return true;
	case CGF_OOM_KILLS:
		if (!delta(r, CGR_OOM_KILL, c->oom_kill, r->prev.oom_kill, &d))
			return false;
		*out = (double)d;
		return true;
	case CGF_OOM_KILLS_TOTAL:
		if (!(c->have & CGR_OOM_KILL))
			return false;
		*out = (double)r->oom_kills_total;
		return true;
	case CGF_MEM_HITS:
		if (!delta(r, CGR_MEM_HITS, c->mem_max_hits, r->prev.mem_max_hits, &d))
			return false;
		*out = (double)d;
		return true;
	case CGF_PIDS:
		if (!(c->have & CGR_PIDS_CUR))
			return false;
		*out = (double)c->pids_cur;
		return true;
	case CGF_PIDS_MAX:
		if (!(c->have & CGR_PIDS_MAX) || c->pids_max == CGR_UNLIMITED)
			return false;
		*out = (double)c->pids_max;
		return true;
	default:
		return false;
	}
}

unsigned cgres_alerts(const struct cgres *r)
{
	unsigned a = 0;
	double v;

	if (cgres_num(r, CGF_THROTTLED, &v) && v > 0)
		a |= CGA_THROTTLED;
	if (cgres_num(r, CGF_OOM_KILLS, &v) && v > 0)
		a |= CGA_OOM_KILL;
	if (cgres_num(r, CGF_MEM_SOME, &v) && v >= CGRES_MEM_ALERT_PCT)
		a |= CGA_MEM_PRESS;
	return a;
}

const char *cgres_alert_text(unsigned alerts, char *out, size_t cap)
{
	snprintf(out, cap, "%s%s%s%s%s", alerts & CGA_THROTTLED ? "THR" : "",
		 (alerts & CGA_THROTTLED) && (alerts & (CGA_OOM_KILL | CGA_MEM_PRESS)) ? "," : "",
		 alerts & CGA_OOM_KILL ? "OOM" : "",
		 (alerts & CGA_OOM_KILL) && (alerts & CGA_MEM_PRESS) ? "," : "",
		 alerts & CGA_MEM_PRESS ? "MEM" : "");
	return out;
}

/* ---- the table ---- */

void cgres_table_init(struct cgres_table *t)
{
	memset(t, 0, sizeof(*t));
	t->sys.dir = "";
	pidmap_init(&t->cpu_of);
}

static void cgres_free_one(struct cgres *r)
{
	free((char *)r->dir);
	free(r);
}

void cgres_table_free(struct cgres_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		cgres_free_one(t->v[i]);
	free(t->v);
	free(t->index);
	pidmap_free(&t->cpu_of);
	memset(t, 0, sizeof(*t));
}

/* @dir's slot in the index (t->index_cap > 0): its entry + 1, or 0 where it would go. */
static size_t *slot_of(const struct cgres_table *t, const char *dir)
{
	size_t i = str_hash(dir) & (t->index_cap - 1);

	while (t->index[i] && strcmp(t->v[t->index[i] - 1]->dir, dir))
		i = (i + 1) & (t->index_cap - 1);
	return &t->index[i];
}

static void reindex(struct cgres_table *t)
{
	size_t i;

	while (t->index_cap < 2 * (t->n + 1))
		t->index_cap = t->index_cap ? t->index_cap * 2 : 64;
	free(t->index);
	t->index = xcalloc(t->index_cap, sizeof(*t->index));
	for (i = 0; i < t->n; i++)
		*slot_of(t, t->v[i]->dir) = i + 1;
}

const struct cgres *cgres_find(const struct cgres_table *t, const char *dir)
{
	size_t s;

	if (!dir)
		return NULL;
	if (!*dir)
		return &t->sys;
	if (!t->index_cap)
		return NULL;
	s = *slot_of(t, dir);
	return s ? t->v[s - 1] : NULL;
}

void cgres_table_apply(struct cgres_table *t, const char *dir, const struct cgres_raw *raw,
		       uint64_t t_ns, uint64_t tick)
{
	struct cgres *r = (struct cgres *)cgres_find(t, dir);

	if (!r) {
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 32;
			t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
		}
		r = xcalloc(1, sizeof(*r));
		r->dir = xstrdup(dir);
		t->v[t->n++] = r;
		if (2 * (t->n + 1) > t->index_cap)
			reindex(t);
		else
			*slot_of(t, dir) = t->n;
	}
	if (r->tick == tick && r->have_prev)
		return;		/* read twice in one tick (two views): the first counts */
	r->prev = r->cur;
	r->t_prev = r->t_cur;
	r->have_prev = r->tick != 0 && r->tick + 1 == tick;
	r->cur = *raw;
	r->t_cur = t_ns;
	r->tick = tick;
	if (r->have_prev && (raw->have & CGR_OOM_KILL) && (r->prev.have & CGR_OOM_KILL) &&
	    raw->oom_kill >= r->prev.oom_kill)
		r->oom_kills_total += raw->oom_kill - r->prev.oom_kill;
}

void cgres_table_end(struct cgres_table *t, uint64_t tick)
{
	unsigned a, cpu_throttled = 0;
	size_t i, k = 0;

	t->n_throttled = t->n_oom = t->n_mem = 0;
	t->have_groups = false;
	for (i = 0; i < t->n; i++) {
		struct cgres *r = t->v[i];

		if (r->tick == tick && cgres_is_cpu(r)) {
			cpu_throttled += !!(cgres_alerts(r) & CGA_THROTTLED);
		} else if (r->tick == tick) {
			t->have_groups = true;
			a = cgres_alerts(r);
			t->n_throttled += !!(a & CGA_THROTTLED);
			t->n_oom += !!(a & CGA_OOM_KILL);
			t->n_mem += !!(a & CGA_MEM_PRESS);
		}
		if (r->tick + CGRES_KEEP_TICKS < tick) {
			cgres_free_one(r);
			continue;
		}
		t->v[k++] = r;
	}
	/*
	 * The cgroups that limit the rows' CPU (read at the rows' own paths),
	 * each counted once; a group's cgroup that limits them is one of them,
	 * so the larger count, not the sum.
	 */
	if (cpu_throttled > t->n_throttled)
		t->n_throttled = cpu_throttled;
	/* A row's limit is of this tick's readings (cgres_cpu_of): none of these. */
	if (k != t->n) {
		t->n = k;
		reindex(t);
	}
}

bool cgres_is_cpu(const struct cgres *r)
{
	return !strncmp(r->dir, CGRES_CPU_KEY, strlen(CGRES_CPU_KEY));
}

/* What a row maps to when nothing limits it (a pidmap value is never NULL). */
static const struct cgres no_limit;

void cgres_table_cpu_of(struct cgres_table *t, pid_t id, const char *dir, uint64_t tick)
{
	const struct cgres *r = *dir ? cgres_find(t, dir) : &no_limit;

	if (t->cpu_tick != tick) {
		pidmap_clear(&t->cpu_of);
		t->cpu_tick = tick;
	}
	/* Its reading not applied (a damaged sample): not known, rather than not limited. */
	if (id > 0 && r)
		pidmap_put(&t->cpu_of, id, (void *)r);
}

bool cgres_cpu_of(const struct cgres_table *t, pid_t id, uint64_t tick, const struct cgres **r)
{
	const struct cgres *v;

	if (!tick || t->cpu_tick != tick || !(v = pidmap_get(&t->cpu_of, id)))
		return false;
	*r = v == &no_limit ? NULL : v;
	return true;
}

bool cgres_group_num(const struct cgres_table *t, const char *dir, int f, double *out)
{
	const struct cgres *r = dir && *dir ? cgres_find(t, dir) : NULL;

	return r && f >= 0 && f < CGF_NR && cgres_num(r, (enum cgres_field)f, out);
}

const char *cgres_group_alerts(const struct cgres_table *t, const char *dir, char *out,
			       size_t cap)
{
	const struct cgres *r = dir && *dir ? cgres_find(t, dir) : NULL;

	if (cap)
		out[0] = '\0';
	return r ? cgres_alert_text(cgres_alerts(r), out, cap) : out;
}
