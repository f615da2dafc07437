// SPDX-License-Identifier: GPL-2.0-only
#include "groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cgname.h"
#include "../model/model.h"
#include "../lib/util.h"

void groups_init(struct groups *g, enum cgroup_group_by by)
{
	memset(g, 0, sizeof(*g));
	g->by = by;
	strpool_init(&g->keys);
}

void groups_free(struct groups *g)
{
	strpool_free(&g->keys);
	free(g->v);
	free(g->index);
	memset(g, 0, sizeof(*g));
}

void groups_set_by(struct groups *g, enum cgroup_group_by by)
{
	if (g->by == by)
		return;
	groups_free(g);
	groups_init(g, by);
}

bool groups_col_sums(int c)
{
	switch (c) {
	case COL_CPU:
	case COL_MEM:
	case COL_RSS:
	case COL_VSZ:
	case COL_TIME:
	case COL_THREADS:
		return true;
	default:
		return c >= 0 && c < COL_NR &&
		       (columns[c].type == CT_COUNTER || columns[c].type == CT_MS);
	}
}

size_t groups_task_key(const struct model *m, enum cgroup_group_by by, const struct task *t,
		       char *out, size_t cap)
{
	char uid[24];
	const char *user = t->user;

	/*
	 * Its cgroup not read: it exited before /proc was read (born and gone
	 * within an interval: its row is its exit record's or its events'), or
	 * its reading failed. Named so, not "?".
	 */
	if (by >= CGROUP_BY_CGROUP && !t->cgroup && cap) {
		snprintf(out, cap, "%s", t->exited || t->gone || t->final || t->state == 'X' ||
			 t->state == 'Z' ? GROUPS_EXITED_UNREAD : GROUPS_UNREAD);
		return strlen(out);
	}
	/* A user with no name (no passwd entry) is its number, as ps shows it. */
	if (!user && t->uid >= 0) {
		snprintf(uid, sizeof(uid), "%lld", (long long)t->uid);
		user = uid;
	}
	return cgname_group_key(by, t->comm, user, t->cgroup, cgnames_get(&m->names, t->cgroup),
				out, cap);
}

/* The index slot of @key (interned): its group's, or the empty one where it goes. */
static uint32_t *slot_of(const struct groups *g, const char *key)
{
	size_t i = ((uintptr_t)key >> 4) * 2654435761u & (g->index_cap - 1);

	while (g->index[i] && g->v[g->index[i] - 1].key != key)
		i = (i + 1) & (g->index_cap - 1);
	return &g->index[i];
}

static void reindex(struct groups *g)
{
	size_t i;

	while (g->index_cap < 2 * (g->n + 1))
		g->index_cap = g->index_cap ? g->index_cap * 2 : 256;
	free(g->index);
	g->index = xcalloc(g->index_cap, sizeof(*g->index));
	for (i = 0; i < g->n; i++)
		*slot_of(g, g->v[i].key) = (uint32_t)i + 1;
}

/* Past GROUPS_MAX: forget the groups without rows this tick. */
static void forget_idle(struct groups *g)
{
	size_t i, k = 0;

	for (i = 0; i < g->n; i++)
		if (g->v[i].seen_tick == g->tick)
			g->v[k++] = g->v[i];
	g->n = k;
	reindex(g);
}

static struct group *group_get(struct groups *g, const char *key)
{
	struct group *gr;
	uint32_t *s;

	key = strpool_get(&g->keys, key);
	if (!g->index_cap || 2 * (g->n + 1) > g->index_cap)
		reindex(g);
	s = slot_of(g, key);
	if (*s)
		return &g->v[*s - 1];
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 64;
		g->v = xrealloc(g->v, g->cap * sizeof(*g->v));
	}
	gr = &g->v[g->n++];
	memset(gr, 0, sizeof(*gr));
	gr->key = key;
	*s = (uint32_t)g->n;
	return gr;
}

static void add_task(struct group *gr, const struct model *m, const struct task *t)
{
	uint64_t d;
	double v;
	int c;

	gr->rows++;
	for (c = 0; c < COL_NR; c++) {
		if (!groups_col_sums(c) || !columns_num(m, t, (enum col_id)c, &v))
			continue;
		gr->sum[c] += v;
		gr->known[c]++;
	}
	if (task_delta(t, CNT_SCTIME, &d)) {
		struct lathist h;
		uint64_t max;

		if (sctable_hist_sum(&t->sc, &h, &max)) {
			lathist_add(&gr->sc_hist, &h);
			if (max > gr->sc_max_ns)
				gr->sc_max_ns = max;
		}
	}
	for (c = 0; c < CNT_NR; c++) {
		if (!task_delta(t, (enum counter)c, &d))
			continue;
		gr->total[c] += d;
		gr->have_total[c] = true;
	}
}

/* The group's cgroup, from its first row this tick (lib/cgname.h). */
static void group_dir(struct groups *g, struct group *gr, const struct task *t)
{
	char dir[CGROUP_PATH_MAX];

	gr->dir = cgname_group_dir(g->by, t->cgroup, dir, sizeof(dir)) ?
		  strpool_get(&g->keys, dir) : NULL;
	gr->pid = t->tgid;
}

void groups_update(struct groups *g, const struct model *m)
{
	char key[CGROUP_KEY_MAX];
	size_t i;

	if (g->tick == m->tick && g->tick)
		return;
	g->tick = m->tick;
	for (i = 0; i < g->n; i++) {
		struct group *gr = &g->v[i];

		gr->rows = 0;
		memset(gr->sum, 0, sizeof(gr->sum));
		memset(gr->known, 0, sizeof(gr->known));
		memset(&gr->sc_hist, 0, sizeof(gr->sc_hist));
		gr->sc_max_ns = 0;
	}
	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];
		struct group *gr;

		if (!groups_counts(m, t))
			continue;
		groups_task_key(m, g->by, t, key, sizeof(key));
		gr = group_get(g, key);
		if (gr->seen_tick != g->tick)
			group_dir(g, gr, t);
		gr->seen_tick = g->tick;
		add_task(gr, m, t);
	}
	if (g->n > GROUPS_MAX)
		forget_idle(g);
}

const struct group *groups_find(const struct groups *g, const char *key)
{
	size_t i;

	/* Not interned: compared as text (a view's lookup, not a per-row one). */
	for (i = 0; i < g->n; i++)
		if (!strcmp(g->v[i].key, key))
			return &g->v[i];
	return NULL;
}

bool group_num(const struct group *gr, int c, double *out)
{
	if (c == COL_SCP99)
		return lathist_quantile_us(&gr->sc_hist, 0.99, gr->sc_max_ns, out);
	if (c < 0 || c >= COL_NR || !groups_col_sums(c) || !gr->known[c])
		return false;
	*out = gr->sum[c];
	return true;
}
