// SPDX-License-Identifier: GPL-2.0-only
#include "systotals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "../lib/util.h"

void systotals_init(struct systotals *g)
{
	memset(g, 0, sizeof(*g));
}

void systotals_free(struct systotals *g)
{
	sctable_free(&g->now);
	sctable_free(&g->total);
	sctable_free(&g->err_now);
	sctable_free(&g->err_total);
	free(g->sc);
	free(g->err);
	memset(g, 0, sizeof(*g));
}

bool systotals_counts(const struct model *m, const struct task *t)
{
	uint64_t d;

	return t->seen_tick == m->tick && !t->gone && model_is_focused(m, t->tgid) &&
	       task_delta(t, CNT_SYSCALLS, &d);
}

static int cmp_sc(const void *pa, const void *pb)
{
	const struct systotals_sc *a = pa, *b = pb;

	return a->nr < b->nr ? -1 : a->nr > b->nr;
}

static int cmp_err(const void *pa, const void *pb)
{
	const struct systotals_err *a = pa, *b = pb;

	if (a->nr != b->nr)
		return a->nr < b->nr ? -1 : 1;
	return a->err < b->err ? -1 : a->err > b->err;
}

const struct systotals_sc *systotals_find_sc(const struct systotals *g, uint32_t nr)
{
	struct systotals_sc key = { .nr = nr };

	return g->nsc ? bsearch(&key, g->sc, g->nsc, sizeof(key), cmp_sc) : NULL;
}

const struct systotals_err *systotals_find_err(const struct systotals *g, uint32_t nr, uint32_t err)
{
	struct systotals_err key = { .nr = nr, .err = err };

	return g->nerr ? bsearch(&key, g->err, g->nerr, sizeof(key), cmp_err) : NULL;
}

/* The errno @nr failed with most in @err (sc_err_key table; ties: the lower errno), 0 = none. */
static void top_errnos(struct systotals *g, const struct sctable *err, bool total)
{
	uint64_t *best = xcalloc(g->nsc ? g->nsc : 1, sizeof(*best));
	uint32_t i;

	for (i = 0; i < err->cap; i++) {
		const struct sc_stat *e = &err->slots[i];
		struct systotals_sc *r;
		uint32_t *top;
		size_t k;

		if (e->nr == SC_EMPTY || !e->errors)
			continue;
		r = (struct systotals_sc *)systotals_find_sc(g, sc_err_nr(e->nr));
		if (!r)
			continue;
		k = (size_t)(r - g->sc);
		top = total ? &r->top_errno_total : &r->top_errno;
		if (e->errors > best[k] || (e->errors == best[k] && sc_err_errno(e->nr) < *top)) {
			best[k] = e->errors;
			*top = sc_err_errno(e->nr);
		}
	}
	free(best);
}

/* The rows of every syscall and pair seen since the first interval, with this interval's counts. */
static void build_rows(struct systotals *g)
{
	size_t i, n = 0;

	if (g->total.used > g->cap_sc) {
		g->cap_sc = g->total.used * 2;
		g->sc = xrealloc(g->sc, g->cap_sc * sizeof(*g->sc));
	}
	g->nsc = 0;
	for (i = 0; i < g->total.cap; i++) {
		const struct sc_stat *t = &g->total.slots[i], *now;
		struct systotals_sc *r;

		if (t->nr == SC_EMPTY)
			continue;
		now = sctable_find(&g->now, t->nr);
		r = &g->sc[g->nsc++];
		memset(r, 0, sizeof(*r));
		r->nr = t->nr;
		r->sub = syscall_subsystem(t->nr);
		r->calls_total = t->calls;
		r->errors_total = t->errors;
		if (now) {
			r->calls = now->calls;
			r->errors = now->errors;
		}
	}
	if (g->nsc)
		sort_array(g->sc, g->nsc, sizeof(*g->sc), cmp_sc);
	top_errnos(g, &g->err_now, false);
	top_errnos(g, &g->err_total, true);

	if (g->err_total.used > g->cap_err) {
		g->cap_err = g->err_total.used * 2;
		g->err = xrealloc(g->err, g->cap_err * sizeof(*g->err));
	}
	for (i = 0; i < g->err_total.cap; i++) {
		const struct sc_stat *t = &g->err_total.slots[i], *now;
		struct systotals_err *r;

		if (t->nr == SC_EMPTY)
			continue;
		now = sctable_find(&g->err_now, t->nr);
		r = &g->err[n++];
		r->nr = sc_err_nr(t->nr);
		r->err = sc_err_errno(t->nr);
		r->sub = syscall_subsystem(r->nr);
		r->total = t->errors;
		r->n = now ? now->errors : 0;
		r->procs = 0;
	}
	g->nerr = n;
	if (n)
		sort_array(g->err, g->nerr, sizeof(*g->err), cmp_err);
}

/* The rows, pairs and subsystems @t made calls of: one more process each. */
static void count_procs(struct systotals *g, const struct task *t)
{
	uint32_t subs = 0, i;
	int s;

	for (i = 0; i < t->sc.cap; i++) {
		const struct sc_stat *st = &t->sc.slots[i];
		struct systotals_sc *r;

		if (st->nr == SC_EMPTY || !st->calls)
			continue;
		r = (struct systotals_sc *)systotals_find_sc(g, st->nr);
		if (r)
			r->procs++;
		subs |= 1u << syscall_subsystem(st->nr);
	}
	for (s = 0; s < SUB_NR; s++)
		if (subs & (1u << s))
			g->sub[s].procs++;
	for (i = 0; i < t->err.cap; i++) {
		const struct sc_stat *e = &t->err.slots[i];
		struct systotals_err *r;

		if (e->nr == SC_EMPTY || !e->errors)
			continue;
		r = (struct systotals_err *)systotals_find_err(g, sc_err_nr(e->nr), sc_err_errno(e->nr));
		if (r)
			r->procs++;
	}
}

static void sum_subsystems(struct systotals *g)
{
	size_t i;
	int s;

	for (s = 0; s < SUB_NR; s++) {
		struct systotals_sub *u = &g->sub[s];

		u->calls = u->errors = u->calls_total = u->errors_total = 0;
		u->nsyscalls = 0;
	}
	g->calls = g->errors = g->calls_total = g->errors_total = 0;
	for (i = 0; i < g->nsc; i++) {
		const struct systotals_sc *r = &g->sc[i];
		struct systotals_sub *u = &g->sub[r->sub < SUB_NR ? r->sub : SUB_OTHER];

		u->calls += r->calls;
		u->errors += r->errors;
		u->calls_total += r->calls_total;
		u->errors_total += r->errors_total;
		u->nsyscalls += r->calls > 0;
		g->calls += r->calls;
		g->errors += r->errors;
		g->calls_total += r->calls_total;
		g->errors_total += r->errors_total;
	}
}

/* One point per interval; not known (a gap) when its calls were not counted. */
static void push_hist(struct systotals *g, double interval_s)
{
	int s;

	for (s = 0; s < SUB_NR; s++)
		g->sub[s].hist[g->hist_pos] = interval_s > 0 ? (float)(g->sub[s].calls / interval_s) : NAN;
	g->hist_pos = (g->hist_pos + 1) % SYSAGG_HIST;
	if (g->hist_n < SYSAGG_HIST)
		g->hist_n++;
}

void systotals_update(struct systotals *g, const struct model *m)
{
	size_t i;
	int s;

	if (g->tick == m->tick && g->tick)
		return;
	g->tick = m->tick;
	g->valid = m->interval_s > 0 && model_counts_events(m, CNT_SYSCALLS);
	g->rows = 0;
	sctable_clear(&g->now);
	sctable_clear(&g->err_now);
	for (s = 0; s < SUB_NR; s++)
		g->sub[s].procs = 0;
	if (g->valid) {
		for (i = 0; i < m->ntasks; i++) {
			const struct task *t = m->tasks[i];

			if (!systotals_counts(m, t))
				continue;
			sctable_merge(&g->now, &t->sc);
			sctable_merge(&g->err_now, &t->err);
			g->rows++;
		}
		sctable_merge(&g->total, &g->now);
		sctable_merge(&g->err_total, &g->err_now);
	}
	build_rows(g);
	if (g->valid)
		for (i = 0; i < m->ntasks; i++)
			if (systotals_counts(m, m->tasks[i]))
				count_procs(g, m->tasks[i]);
	sum_subsystems(g);
	/* A graph has a point per interval: none for the baseline. */
	if (m->interval_s > 0)
		push_hist(g, g->valid ? m->interval_s : 0);
}

bool systotals_hist(const struct systotals *g, enum subsystem sub, size_t ago, double *out)
{
	float v;

	if (sub >= SUB_NR || ago >= g->hist_n)
		return false;
	v = g->sub[sub].hist[(g->hist_pos + SYSAGG_HIST - 1 - ago) % SYSAGG_HIST];
	if (isnan(v))
		return false;
	*out = v;
	return true;
}
