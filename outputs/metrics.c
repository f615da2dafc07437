// SPDX-License-Identifier: GPL-2.0-only
#include "metrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cgname.h"
#include "../lib/pidmap.h"
#include "../tables/columns.h"
#include "../lib/signames.h"
#include "../model/sigflow.h"
#include "../lib/scnames.h"
#include "cgmetrics.h"

/* Signal numbers named in ktop_signals (the kernel's _NSIG); the rest are "other". */
#define MSIG_MAX 64

/* Signals sent and received, the directions of ktop_signals. */
enum mg_dir { DIR_SENT, DIR_RECV, DIR_NR };

struct mgroup {
	char *key;
	uint64_t hash;
	int64_t uid;		/* its owner: the uid of the task that made it (-1: not known yet) */
	uint64_t seq;		/* the order made */
	uint64_t n[CNT_NR];	/* its counters, for the life of ktop: those exported (mg_of) */
	/*
	 * Of n[CNT_SIGSENT] and n[CNT_SIGRECV], those the signal flows name, per
	 * signal: [sig][dir]; NULL until one. The rest are "other".
	 */
	uint64_t (*sig)[DIR_NR];
	uint64_t tick_n[DIR_NR];	/* this tick's signals (tick_of) */
	uint64_t tick_named[DIR_NR];	/* of them, those flows name */
	uint64_t tick_of;
	struct sctable sc;	/* calls and errors per syscall */
	struct sctable err;	/* errors per syscall and errno (sc_err_key) */
	uint64_t procs;		/* processes alive at the end of tick procs_tick */
	uint64_t procs_tick;
	uint64_t seen_ns;	/* the last tick (monotonic) a task of it was read */
	/* Its cgroup (cgname_group_dir of its first process's) and its numbers: cgmetrics.h. */
	char *dir;
	bool dir_done;
	struct cgacc res;
};

/* The families, in the order they are written. */
enum fam {
	F_SYSCALLS, F_ERRORS, F_CSW, F_FAULTS, F_SIGNALS, F_CPU, F_STATE, F_SC_DURATION, F_PROCS,
	F_DISK_BYTES, F_NET_BYTES, F_DEV_OPS, F_DEV_BYTES, F_DEV_LATENCY, F_DEV_INFLIGHT,
	F_SUB_CALLS, F_SUB_ERRORS, F_LOST, F_LOST_UNKNOWN, F_LOST_EXITS, F_LOST_EXITS_UNKNOWN,
	F_EVENTS, F_TICKS, F_LAST_TICK, F_SCRAPES, F_SCRAPE_S, F_RW_SENT, F_RW_DROPPED, F_RW_QUEUE,
	F_FLIGHT_FILES, F_FLIGHT_BYTES, F_TRACING, F_TRACING_INFO, F_DROPPED_GROUPS, F_DROPPED,
	F_NR,
	F_NONE = F_NR	/* a counter not exported per group */
};

/*
 * Each counter's family and its label value there (model/counters.def): the
 * state split (F_STATE) and the bytes through sockets (F_NET_BYTES) are
 * written when the model counts them from events.
 */
static const struct {
	enum fam fam;
	const char *label;
} mg_of[CNT_NR] = {
#define COUNTER(id, src, family, label, doc) [CNT_##id] = { F_##family, label },
#include "../model/counters.def"
};

/* A pointer (an interned user name or cgroup path) -> its group. */
struct pslot {
	const void *p;
	struct mgroup *g;
};

/* Signals of one flow, for a group and direction, until the tick's counts say they fit. */
struct sigpart {
	struct mgroup *g;
	int sig;
	enum mg_dir dir;
	uint64_t n;
};

/* Bounded count of distinct group keys folded into "other". */
#define FOLDED_MAX 65536

/* An owner's number of groups (the "other" group is nobody's). */
struct owner {
	int64_t uid;
	size_t n;
};

struct metrics {
	enum cgroup_group_by by;
	size_t max_groups;
	uint64_t expire_ns;		/* an idle group leaves after this; 0: never */
	struct prom_family *fam[F_NR];

	struct mgroup **groups;		/* in the order made */
	size_t ngroups, cap_groups;
	struct mgroup **tab;		/* open addressing by key; NULL = free */
	size_t tab_cap;
	struct mgroup *other;		/* made when the first group is folded */
	uint64_t seq;			/* groups made */
	uint64_t tick;			/* the model's tick being added */
	bool taking;			/* a new group may take another's slot now */
	const struct task **later;	/* tasks whose group is made once all are seen */
	size_t nlater, cap_later;

	struct owner *owners;		/* uids owning a group, and how many */
	size_t nowners, cap_owners;
	struct mgroup **dead;		/* given up this tick: freed at its end */
	size_t ndead, cap_dead;
	struct pidmap sig_groups;	/* this tick: task -> the group its signals counted in */

	struct pslot *ptab;		/* by user or a cgroup key: pointer -> group */
	size_t ptab_cap, ptab_used;

	uint64_t *folded;		/* hashes of the keys folded into other; 0 = free */
	size_t nfolded;

	struct sigpart *parts;		/* name_signals' */
	size_t cap_parts;

	long hz;
	bool states;			/* the model counts the state split (tracing) */
	bool timed;			/* the model times system calls (--latency) */
	bool net;			/* the model counts network bytes (the sock events) */
	uint64_t ticks, lost, lost_unknown;
	bool exit_records;		/* exit records are listened to: their losses count */
	uint64_t lost_exits, lost_exits_unknown;
	double wall_s;			/* the last tick's wall clock */
	const struct cgnames *names;	/* the model's, for container and pod keys */
	struct cgmetrics *cg;		/* the groups' cgroups' families */
	/* The block devices' totals since the first interval, the last tick's (model/disks.h). */
	struct disk *devs;
	size_t ndevs, cap_devs;
	bool devs_on;			/* the block events are counted */
};

/* ---- groups ---- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h ? h : 1;
}

static int tab_grow(struct metrics *mx)
{
	size_t cap = mx->tab_cap ? mx->tab_cap * 2 : 64, i;
	struct mgroup **t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < mx->ngroups; i++) {
		size_t j = mx->groups[i]->hash & (cap - 1);

		while (t[j])
			j = (j + 1) & (cap - 1);
		t[j] = mx->groups[i];
	}
	free(mx->tab);
	mx->tab = t;
	mx->tab_cap = cap;
	return 0;
}

static struct mgroup *group_find(const struct metrics *mx, const char *key, uint64_t h)
{
	size_t j;

	if (!mx->tab_cap)
		return NULL;
	for (j = h & (mx->tab_cap - 1); mx->tab[j]; j = (j + 1) & (mx->tab_cap - 1))
		if (mx->tab[j]->hash == h && !strcmp(mx->tab[j]->key, key))
			return mx->tab[j];
	return NULL;
}

static struct mgroup *group_add(struct metrics *mx, const char *key, uint64_t h)
{
	struct mgroup *g;
	size_t j;

	if ((mx->ngroups + 1) * 2 > mx->tab_cap && tab_grow(mx))
		return NULL;
	if (mx->ngroups == mx->cap_groups) {
		size_t cap = mx->cap_groups ? mx->cap_groups * 2 : 64;
		struct mgroup **v = realloc(mx->groups, cap * sizeof(*v));

		if (!v)
			return NULL;
		mx->groups = v;
		mx->cap_groups = cap;
	}
	g = calloc(1, sizeof(*g));
	if (!g || !(g->key = strdup(key))) {
		free(g);
		return NULL;
	}
	g->hash = h;
	mx->groups[mx->ngroups++] = g;
	for (j = h & (mx->tab_cap - 1); mx->tab[j]; j = (j + 1) & (mx->tab_cap - 1))
		;
	mx->tab[j] = g;
	return g;
}

/* Remember that @h's group was folded into other (counted once, up to FOLDED_MAX). */
static void note_folded(struct metrics *mx, uint64_t h)
{
	size_t cap = 2 * FOLDED_MAX, j;

	if (!mx->folded && !(mx->folded = calloc(cap, sizeof(*mx->folded))))
		return;
	for (j = h & (cap - 1); mx->folded[j]; j = (j + 1) & (cap - 1))
		if (mx->folded[j] == h)
			return;
	if (mx->nfolded < FOLDED_MAX) {
		mx->folded[j] = h;
		mx->nfolded++;
	}
}

/*
 * Whether @key is "other" inside n >= 0 pairs of brackets: those names are
 * written in one more pair, so that "other" is only ever the overflow (a
 * process named "other" is "[other]", one named "[other]" is "[[other]]":
 * no two names meet).
 */
static bool other_like(const char *key)
{
	size_t n = strlen(key), d = 0;

	while (d < n / 2 && key[d] == '[' && key[n - 1 - d] == ']')
		d++;
	for (;; d--) {
		if (n - 2 * d == 5 && !memcmp(key + d, "other", 5))
			return true;
		if (!d)
			return false;
	}
}

/* ---- the cap, shared out per user ---- */

/*
 * @v (@n of *@cap elements of @size bytes used) with room for one more: @v
 * itself, or moved (*@cap updated); NULL when out of memory (@v unchanged).
 */
static void *grow(void *v, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? *cap * 2 : 16;

	if (n < *cap)
		return v;
	v = realloc(v, c * size);
	if (v)
		*cap = c;
	return v;
}

static struct owner *owner_find(const struct metrics *mx, int64_t uid)
{
	size_t i;

	for (i = 0; i < mx->nowners; i++)
		if (mx->owners[i].uid == uid)
			return &mx->owners[i];
	return NULL;
}

/* @uid owns @d more groups (-1: one less). Returns 0 or -ENOMEM (nothing changed). */
static int owner_add(struct metrics *mx, int64_t uid, int d)
{
	struct owner *o = owner_find(mx, uid);

	if (!o) {
		struct owner *v = d < 0 ? NULL :
			grow(mx->owners, mx->nowners, &mx->cap_owners, sizeof(*v));

		if (!v)
			return d < 0 ? 0 : -ENOMEM;
		mx->owners = v;
		o = &mx->owners[mx->nowners++];
		*o = (struct owner){ uid, 0 };
	}
	if (d > 0) {
		o->n += (size_t)d;
	} else if (o->n <= (size_t)-d) {
		*o = mx->owners[--mx->nowners];	/* owns none: forgotten */
	} else {
		o->n -= (size_t)-d;
	}
	return 0;
}

/* Rebuild the key table from the groups kept. */
static void tab_fill(struct metrics *mx)
{
	size_t i, j;

	memset(mx->tab, 0, mx->tab_cap * sizeof(*mx->tab));
	for (i = 0; i < mx->ngroups; i++) {
		for (j = mx->groups[i]->hash & (mx->tab_cap - 1); mx->tab[j];
		     j = (j + 1) & (mx->tab_cap - 1))
			;
		mx->tab[j] = mx->groups[i];
	}
}

/* The pointer cache names groups that left, and "other" for names that may fit now. */
static void ptab_flush(struct metrics *mx)
{
	free(mx->ptab);
	mx->ptab = NULL;
	mx->ptab_cap = mx->ptab_used = 0;
}

/*
 * Which group of @uid gives its slot up (every task of the tick seen): one
 * with no process alive this tick, the longest unseen first; else the newest
 * made, so that long-lived processes keep theirs.
 */
static struct mgroup *owner_victim(const struct metrics *mx, int64_t uid)
{
	struct mgroup *idle = NULL, *live = NULL;
	size_t i;

	for (i = 0; i < mx->ngroups; i++) {
		struct mgroup *g = mx->groups[i];

		if (g == mx->other || g->uid != uid)
			continue;
		if (g->procs_tick == mx->tick) {
			if (!live || g->seq > live->seq)
				live = g;
		} else if (!idle || g->seen_ns < idle->seen_ns ||
			   (g->seen_ns == idle->seen_ns && g->seq < idle->seq)) {
			idle = g;
		}
	}
	return idle ? idle : live;
}

/*
 * Every slot taken, whose slot a new group of @uid may take: one of the owner
 * of the most groups, if it has two more than @uid (so the counts meet and
 * never swap back: max-min fairness). So each of the k users with groups
 * keeps max_groups/k of them whatever the others start, and a user's churn of
 * new names takes only the slots of users above their share (its own new
 * names are in "other" once it is the biggest). NULL: none.
 */
static const struct owner *owner_above(const struct metrics *mx, int64_t uid)
{
	const struct owner *o = owner_find(mx, uid), *big = NULL;
	size_t own = o ? o->n : 0, i;

	for (i = 0; i < mx->nowners; i++)
		if (!big || mx->owners[i].n > big->n)
			big = &mx->owners[i];
	return big && big->uid != uid && big->n >= own + 2 ? big : NULL;
}

/*
 * A slot for a new group of @uid (owner_above): the group given up leaves as
 * an expired one does (its series end; it is freed at the end of the tick: a
 * task's signals may still name it). Its processes are in "other" from now on.
 */
static bool make_room(struct metrics *mx, int64_t uid)
{
	const struct owner *big = owner_above(mx, uid);
	struct mgroup *v, **dead;
	size_t i;

	if (!big || !(dead = grow(mx->dead, mx->ndead, &mx->cap_dead, sizeof(*dead))))
		return false;
	mx->dead = dead;
	v = owner_victim(mx, big->uid);
	if (!v)
		return false;
	if (v->procs_tick == mx->tick) {
		if (!mx->other && !(mx->other = group_add(mx, "other", hash_str("other"))))
			return false;
		if (mx->other->procs_tick != mx->tick) {
			mx->other->procs_tick = mx->tick;
			mx->other->procs = 0;
		}
		mx->other->procs += v->procs;
		mx->other->seen_ns = v->seen_ns;
	}
	for (i = 0; mx->groups[i] != v; i++)
		;
	memmove(&mx->groups[i], &mx->groups[i + 1], (mx->ngroups - i - 1) * sizeof(*mx->groups));
	mx->ngroups--;
	owner_add(mx, v->uid, -1);
	mx->dead[mx->ndead++] = v;
	tab_fill(mx);
	ptab_flush(mx);
	return true;
}

/* What group_get returns for a task to be placed once every task of the tick is seen. */
static struct mgroup group_later;

/*
 * The group of @key for a task of @uid: found, made, or (the table full and
 * no slot for @uid: make_room) the group "other". Before mx->taking, a new
 * group that would take another's slot is &group_later: which one gives it up
 * is chosen when every group's processes of the tick are known.
 */
static struct mgroup *group_get(struct metrics *mx, const char *key, int64_t uid)
{
	char esc[CGROUP_KEY_MAX + 2];
	uint64_t h;
	struct mgroup *g;

	if (other_like(key)) {
		snprintf(esc, sizeof(esc), "[%s]", key);
		key = esc;
	}
	h = hash_str(key);
	g = group_find(mx, key, h);
	if (g)
		return g;
	/* The overflow never takes a slot of the cap. */
	if (mx->ngroups - (mx->other != NULL) >= mx->max_groups) {
		if (!owner_above(mx, uid))
			goto fold;
		if (!mx->taking)
			return &group_later;
		if (!make_room(mx, uid))
			goto fold;
	}
	if (owner_add(mx, uid, 1))
		return NULL;
	g = group_add(mx, key, h);
	if (!g) {
		owner_add(mx, uid, -1);
		return NULL;
	}
	g->uid = uid;
	g->seq = ++mx->seq;
	return g;
fold:
	note_folded(mx, h);
	if (!mx->other)
		mx->other = group_add(mx, "other", hash_str("other"));
	return mx->other;
}

static void group_free(struct mgroup *g)
{
	sctable_free(&g->sc);
	sctable_free(&g->err);
	free(g->sig);
	free(g->key);
	free(g->dir);
	free(g);
}

/*
 * Groups that had no task read for expire_ns leave (their series go: a
 * counter that disappears is what Prometheus expects of a process that
 * ended), so that their slots go to new names rather than every later
 * command hiding in "other". A name that comes back starts from zero.
 */
static void expire_groups(struct metrics *mx, uint64_t now_ns)
{
	size_t i, n = 0;

	for (i = 0; i < mx->ngroups; i++) {
		struct mgroup *g = mx->groups[i];

		if (now_ns - g->seen_ns < mx->expire_ns) {
			mx->groups[n++] = g;
			continue;
		}
		if (g == mx->other)
			mx->other = NULL;
		else
			owner_add(mx, g->uid, -1);
		group_free(g);
	}
	if (n == mx->ngroups)
		return;
	mx->ngroups = n;
	tab_fill(mx);
	ptab_flush(mx);
}

/* The pointer @p's group, from the cache or made with @key_of. */
static struct mgroup *group_by_ptr(struct metrics *mx, const struct task *t, const void *p)
{
	char key[CGROUP_KEY_MAX];
	struct mgroup *g;
	size_t j;

	if (mx->ptab_cap) {
		uintptr_t h = (uintptr_t)p * 0x9e3779b97f4a7c15ull >> 16;

		for (j = h & (mx->ptab_cap - 1); mx->ptab[j].g; j = (j + 1) & (mx->ptab_cap - 1))
			if (mx->ptab[j].p == p)
				return mx->ptab[j].g;
	}
	cgname_group_key(mx->by, t->comm, t->user, t->cgroup,
			 mx->names ? cgnames_get(mx->names, t->cgroup) : NULL, key, sizeof(key));
	g = group_get(mx, key, t->uid);
	if (!g || g == &group_later)
		return g;
	if ((mx->ptab_used + 1) * 2 > mx->ptab_cap) {
		size_t cap = mx->ptab_cap ? mx->ptab_cap * 2 : 64, i;
		struct pslot *nt = calloc(cap, sizeof(*nt));

		if (!nt)
			return g;	/* not cached: looked up again next time */
		for (i = 0; i < mx->ptab_cap; i++) {
			uintptr_t h;

			if (!mx->ptab[i].g)
				continue;
			h = (uintptr_t)mx->ptab[i].p * 0x9e3779b97f4a7c15ull >> 16;
			for (j = h & (cap - 1); nt[j].g; j = (j + 1) & (cap - 1))
				;
			nt[j] = mx->ptab[i];
		}
		free(mx->ptab);
		mx->ptab = nt;
		mx->ptab_cap = cap;
	}
	{
		uintptr_t h = (uintptr_t)p * 0x9e3779b97f4a7c15ull >> 16;

		for (j = h & (mx->ptab_cap - 1); mx->ptab[j].g; j = (j + 1) & (mx->ptab_cap - 1))
			;
		mx->ptab[j] = (struct pslot){ p, g };
		mx->ptab_used++;
	}
	return g;
}

static struct mgroup *task_group(struct metrics *mx, const struct task *t)
{
	char key[CGROUP_KEY_MAX];

	switch (mx->by) {
	case CGROUP_BY_USER:
		/* User names and cgroup paths are interned: one key per pointer. */
		return group_by_ptr(mx, t, t->user);
	case CGROUP_BY_CGROUP:
	case CGROUP_BY_UNIT:
	case CGROUP_BY_CONTAINER:
	case CGROUP_BY_POD:
	case CGROUP_BY_NAMESPACE:
		return group_by_ptr(mx, t, t->cgroup);
	default:
		cgroup_group_key(mx->by, t->comm, t->user, t->cgroup, key, sizeof(key));
		return group_get(mx, key, t->uid);
	}
}

/* ---- the tick ---- */

/* @n signals @sig of the process @pid, in direction @dir: a part, if its row counted them. */
static size_t add_part(struct metrics *mx, const struct model *m, size_t np, pid_t pid,
		       enum mg_dir dir, int sig, uint64_t n)
{
	const struct task *t = pid > 0 ? model_task_find(m, pid) : NULL;
	struct mgroup *g;
	uint64_t d;

	if (!t || t->seen_tick != m->tick ||
	    !task_delta(t, dir == DIR_SENT ? CNT_SIGSENT : CNT_SIGRECV, &d))
		return np;
	g = pidmap_get(&mx->sig_groups, t->pid);
	if (!g || g->tick_of != m->tick)
		return np;
	if (np == mx->cap_parts) {
		size_t cap = mx->cap_parts ? mx->cap_parts * 2 : 64;
		struct sigpart *v = realloc(mx->parts, cap * sizeof(*v));

		if (!v)
			return np;	/* counted as "other" */
		mx->parts = v;
		mx->cap_parts = cap;
	}
	mx->parts[np] = (struct sigpart){ g, sig, dir, n };
	g->tick_named[dir] += n;
	return np + 1;
}

/*
 * The signals of the interval by signal, from the signal flows (who signalled
 * whom, with which signal): a group's share of each, sent and received
 * (queued: the flow's result says so). They are the events that counted the
 * rows' signals, so they add up to the group's counts; where they do not
 * (received counted at delivery with -p; a flow past the model's bound), the
 * group's signals of the tick stay "other" rather than be named wrong.
 */
static void name_signals(struct metrics *mx, const struct model *m)
{
	size_t i, np = 0;

	for (i = 0; i < m->sigflows.n; i++) {
		const struct sigflow *f = &m->sigflows.v[i];

		if (!f->n || f->sig <= 0 || f->sig > MSIG_MAX)
			continue;
		np = add_part(mx, m, np, f->sender, DIR_SENT, f->sig, f->n);
		if (f->result == SIGRES_DELIVERED || f->result == SIGRES_LOSE_INFO)
			np = add_part(mx, m, np, f->receiver, DIR_RECV, f->sig, f->n);
	}
	for (i = 0; i < np; i++) {
		const struct sigpart *p = &mx->parts[i];
		struct mgroup *g = p->g;

		if (g->tick_named[p->dir] > g->tick_n[p->dir])
			continue;
		if (!g->sig && !(g->sig = calloc(MSIG_MAX + 1, sizeof(*g->sig))))
			return;
		g->sig[p->sig][p->dir] += p->n;
	}
}

unsigned metrics_needs(const struct metrics *mx, const struct model *m)
{
	unsigned need = 0;

	if (mx->by >= CGROUP_BY_CGROUP)	/* cgroup, unit, container, pod, namespace */
		need |= NEED_CGROUP;
	if (!model_counts_events(m, CNT_VCSW) || !model_counts_events(m, CNT_IVCSW))
		need |= NEED_STATUS;
	return need | NEED_IO;
}

/* Add the tick's counts of @t (read this tick) to its group @g. */
static void count_task(struct metrics *mx, const struct model *m, const struct task *t,
		       struct mgroup *g)
{
	uint64_t d;
	int c;

	g->seen_ns = m->t_now;
	/* Made by a task whose uid was not known (seen by its events only): the first known. */
	if (g->uid < 0 && t->uid >= 0 && g != mx->other && !owner_add(mx, t->uid, 1)) {
		owner_add(mx, g->uid, -1);
		g->uid = t->uid;
	}
	if (!g->dir_done) {
		char dir[CGROUP_PATH_MAX];

		g->dir_done = true;
		if (g != mx->other && cgname_group_dir(mx->by, t->cgroup, dir, sizeof(dir)))
			g->dir = strdup(dir);
	}
	if (t->state != 'X' && (!m->threads || t->pid == t->tgid)) {
		if (g->procs_tick != m->tick) {
			g->procs_tick = m->tick;
			g->procs = 0;
		}
		g->procs++;
	}
	if (m->interval_s <= 0)
		return;
	for (c = 0; c < CNT_NR; c++)
		if (mg_of[c].fam != F_NONE && task_delta(t, (enum counter)c, &d))
			g->n[c] += d;
	if (g->tick_of != m->tick) {
		g->tick_of = m->tick;
		memset(g->tick_n, 0, sizeof(g->tick_n));
		memset(g->tick_named, 0, sizeof(g->tick_named));
	}
	if (task_delta(t, CNT_SIGSENT, &d))
		g->tick_n[DIR_SENT] += d;
	if (task_delta(t, CNT_SIGRECV, &d))
		g->tick_n[DIR_RECV] += d;
	/* Its group now: a later task's new group may take this one's slot. */
	if (m->sigflows.n)
		pidmap_put(&mx->sig_groups, t->pid, g);
	/* The tables are the events': known when the syscall count is. */
	if (task_delta(t, CNT_SYSCALLS, &d)) {
		sctable_merge(&g->sc, &t->sc);
		sctable_merge(&g->err, &t->err);
	}
}

/* @t's group is made once every task of the tick is seen (group_later). */
static bool defer_task(struct metrics *mx, const struct task *t)
{
	const struct task **v = grow(mx->later, mx->nlater, &mx->cap_later, sizeof(*v));

	if (!v)
		return false;
	mx->later = v;
	mx->later[mx->nlater++] = t;
	return true;
}

/* The devices' totals as the model has them (cumulative): copied, for the scrapes between ticks. */
static void devices_tick(struct metrics *mx, const struct model *m)
{
	if (!m->disks.known)
		return;
	mx->devs_on = true;
	if (m->disks.n > mx->cap_devs) {
		struct disk *v = realloc(mx->devs, m->disks.n * sizeof(*v));

		if (!v)
			return;	/* out of memory: the last tick's are written */
		mx->devs = v;
		mx->cap_devs = m->disks.n;
	}
	if (m->disks.n)
		memcpy(mx->devs, m->disks.v, m->disks.n * sizeof(*mx->devs));
	mx->ndevs = m->disks.n;
}

void metrics_tick(struct metrics *mx, const struct model *m)
{
	size_t i;

	mx->hz = m->hz;
	mx->names = &m->names;
	mx->tick = m->tick;
	mx->ticks++;
	if (model_counts_events(m, CNT_RUNQ))
		mx->states = true;
	if (model_counts_events(m, CNT_SCTIME))
		mx->timed = true;
	if (model_counts_events(m, CNT_NET_TX) && model_counts_events(m, CNT_NET_RX))
		mx->net = true;
	mx->wall_s = m->wall_s;
	/* The first tick is the baseline: nothing was counted in it. */
	if (m->interval_s > 0) {
		mx->lost += m->lost_events;
		mx->lost_unknown += m->lost_unknown;
		mx->lost_exits += m->exits_lost;
		mx->lost_exits_unknown += m->exits_lost_unknown;
	}
	mx->exit_records = m->exit_records;
	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];
		struct mgroup *g;

		/* Not read this tick: gone, or kept on screen with its last numbers. */
		if (t->seen_tick != m->tick)
			continue;
		g = task_group(mx, t);
		if (g == &group_later && defer_task(mx, t))
			continue;
		if (g == &group_later) {	/* out of memory: placed now */
			mx->taking = true;
			g = task_group(mx, t);
			mx->taking = false;
		}
		if (!g)
			continue;	/* out of memory: this tick's counts of it are lost */
		count_task(mx, m, t, g);
	}
	/* Which groups have processes this tick is known: the slots a new one may take. */
	mx->taking = true;
	for (i = 0; i < mx->nlater; i++) {
		struct mgroup *g = task_group(mx, mx->later[i]);

		if (g)
			count_task(mx, m, mx->later[i], g);
	}
	mx->taking = false;
	mx->nlater = 0;
	if (m->interval_s > 0)
		name_signals(mx, m);
	pidmap_clear(&mx->sig_groups);
	while (mx->ndead)
		group_free(mx->dead[--mx->ndead]);
	/* Groups with no process this tick have none. */
	for (i = 0; i < mx->ngroups; i++)
		if (mx->groups[i]->procs_tick != m->tick)
			mx->groups[i]->procs = 0;
	if (mx->expire_ns)
		expire_groups(mx, m->t_now);
	for (i = 0; i < mx->ngroups; i++)
		if (mx->groups[i]->dir)
			cgacc_tick(&mx->groups[i]->res, &m->cgres, mx->groups[i]->dir, m->tick);
	cgmetrics_tick(mx->cg, &m->cgres, m->tick);
	devices_tick(mx, m);
}

enum cgroup_group_by metrics_group_by(const struct metrics *mx)
{
	return mx->by;
}

size_t metrics_ngroups(const struct metrics *mx)
{
	return mx->ngroups;
}

/* ---- families ---- */

static const char *const no_labels[] = { NULL };

struct fam_def {
	const char *name;
	enum prom_type type;
	enum prom_value value;
	const char *unit;
	const char *help;
	bool grouped;		/* the group's label first */
	const char *labels[2];	/* then these */
	bool capped;		/* max_series applies */
};

static const struct fam_def fam_defs[F_NR] = {
	[F_SYSCALLS] = { "ktop_syscalls", PROM_COUNTER, PROM_U64, NULL,
		"System calls that ended (raw_syscalls:sys_exit; exit and exit_group at their entry), by group and system call.",
		true, { "syscall" }, true },
	[F_ERRORS] = { "ktop_syscall_errors", PROM_COUNTER, PROM_U64, NULL,
		"System calls that returned an error, by group, system call and errno.",
		true, { "syscall", "errno" }, true },
	[F_CSW] = { "ktop_context_switches", PROM_COUNTER, PROM_U64, NULL,
		"Context switches, by group and kind: voluntary (it blocked) or involuntary (it was preempted).",
		true, { "kind" }, true },
	[F_FAULTS] = { "ktop_page_faults", PROM_COUNTER, PROM_U64, NULL,
		"Page faults, by group and kind: minor (no I/O) or major (read from disk).",
		true, { "kind" }, true },
	[F_SIGNALS] = { "ktop_signals", PROM_COUNTER, PROM_U64, NULL,
		"Signals, by group, direction (sent: generated by a task of the group; received: queued to one) and signal (other: not named by the signal events).",
		true, { "direction", "signal" }, true },
	[F_CPU] = { "ktop_cpu_seconds", PROM_COUNTER, PROM_DOUBLE, "seconds",
		"CPU time, by group and mode (user, system).", true, { "mode" }, true },
	[F_STATE] = { "ktop_task_state_seconds", PROM_COUNTER, PROM_DOUBLE, "seconds",
		"Wall time of the group's threads by state (sched_switch, sched_wakeup): on_cpu, runnable (waiting for a CPU), sleeping (S), blocked (D), stopped (T, t); a thread's time before its first scheduler event is not counted.",
		true, { "state" }, true },
	[F_SC_DURATION] = { "ktop_syscall_duration_seconds", PROM_HISTOGRAM, PROM_U64, "seconds",
		"Durations of the system calls timed (--latency: raw_syscalls:sys_enter to sys_exit), by group and system call; fixed log2 buckets of 1 us to 67 s. A call counts when it ends.",
		true, { "syscall" }, true },
	[F_PROCS] = { "ktop_processes", PROM_GAUGE, PROM_U64, NULL,
		"Processes alive at the last refresh, by group.", true, { NULL }, true },
	[F_DISK_BYTES] = { "ktop_disk_bytes", PROM_COUNTER, PROM_U64, "bytes",
		"Bytes the group's tasks caused to be read from or written to storage (/proc/PID/io read_bytes, write_bytes; exit records), by group and direction (read, write): OpenTelemetry's process.disk.io.",
		true, { "direction" }, true },
	[F_NET_BYTES] = { "ktop_network_bytes", PROM_COUNTER, PROM_U64, "bytes",
		"Bytes the group's tasks sent and received through INET and INET6 sockets (sock:sock_send_length, sock_recv_length: calls that succeeded, peeks not counted), by group and direction (transmit, receive): OpenTelemetry's process.network.io.",
		true, { "direction" }, true },
	[F_DEV_OPS] = { "ktop_disk_device_operations", PROM_COUNTER, PROM_U64, NULL,
		"Read and write requests block devices completed (block:block_rq_complete), by device and direction (read, write): /sys/block/DEV/stat's reads and writes completed; OpenTelemetry's system.disk.operations.",
		false, { "device", "direction" }, true },
	[F_DEV_BYTES] = { "ktop_disk_device_bytes", PROM_COUNTER, PROM_U64, "bytes",
		"Bytes of the requests block devices completed (sectors times 512), by device and direction: OpenTelemetry's system.disk.io.",
		false, { "device", "direction" }, true },
	[F_DEV_LATENCY] = { "ktop_disk_device_latency_seconds", PROM_HISTOGRAM, PROM_U64, "seconds",
		"Time from issue to completion of the read and write requests whose issue and completion were both read (block_rq_issue to block_rq_complete), by device; fixed log2 buckets of 1 us to 67 s. rate() of the sum: the mean requests in flight.",
		false, { "device" }, true },
	[F_DEV_INFLIGHT] = { "ktop_disk_device_requests_in_flight", PROM_GAUGE, PROM_U64, NULL,
		"Requests issued to a block device and not completed at the last refresh, by device.",
		false, { "device" }, true },
	[F_SUB_CALLS] = { "ktop_subsystem_syscalls", PROM_COUNTER, PROM_U64, NULL,
		"System calls of the whole system (the processes ktop watches), by kernel subsystem.",
		false, { "subsystem" }, true },
	[F_SUB_ERRORS] = { "ktop_subsystem_syscall_errors", PROM_COUNTER, PROM_U64, NULL,
		"System calls that returned an error, by kernel subsystem.", false,
		{ "subsystem" }, true },
	[F_LOST] = { "ktop_lost_events", PROM_COUNTER, PROM_U64, NULL,
		"Kernel events dropped before ktop read them (ring buffer overruns): the event counters may be short by this much.",
		false, { NULL }, false },
	[F_LOST_UNKNOWN] = { "ktop_lost_events_unknown_intervals", PROM_COUNTER, PROM_U64, NULL,
		"Refresh intervals in which the kernel reported dropped events without a count.",
		false, { NULL }, false },
	[F_LOST_EXITS] = { "ktop_lost_exit_records", PROM_COUNTER, PROM_U64, NULL,
		"Exit records (taskstats) the kernel dropped before ktop read them: the CPU time and faults of processes that exited in those intervals may be short.",
		false, { NULL }, false },
	[F_LOST_EXITS_UNKNOWN] = { "ktop_lost_exit_records_unknown_intervals", PROM_COUNTER, PROM_U64, NULL,
		"Refresh intervals in which the kernel reported dropped exit records without a count.",
		false, { NULL }, false },
	[F_EVENTS] = { "ktop_events_decoded", PROM_COUNTER, PROM_U64, NULL,
		"Kernel events ktop decoded from its trace instance.", false, { NULL }, false },
	[F_TICKS] = { "ktop_refreshes", PROM_COUNTER, PROM_U64, NULL,
		"Refreshes (ticks) done: the counters move at each.", false, { NULL }, false },
	[F_LAST_TICK] = { "ktop_last_refresh_timestamp_seconds", PROM_GAUGE, PROM_DOUBLE, "seconds",
		"Wall clock time (Unix) of the refresh the counters are of: the time column of ktop -b --csv.",
		false, { NULL }, false },
	[F_SCRAPES] = { "ktop_scrapes", PROM_COUNTER, PROM_U64, NULL,
		"Requests of /metrics answered.", false, { NULL }, false },
	[F_SCRAPE_S] = { "ktop_scrape_duration_seconds", PROM_GAUGE, PROM_DOUBLE, "seconds",
		"Time ktop took to answer the previous request of /metrics (rendering and copying it).",
		false, { NULL }, false },
	[F_RW_SENT] = { "ktop_remote_write_samples", PROM_COUNTER, PROM_U64, NULL,
		"Samples pushed with --remote-write that a receiver accepted (2xx), every receiver summed.",
		false, { NULL }, false },
	[F_RW_DROPPED] = { "ktop_remote_write_dropped_samples", PROM_COUNTER, PROM_U64, NULL,
		"Samples of --remote-write dropped: past --remote-write-queue while a receiver was away, or refused by one (4xx other than 429).",
		false, { NULL }, false },
	[F_RW_QUEUE] = { "ktop_remote_write_queue_bytes", PROM_GAUGE, PROM_U64, "bytes",
		"Bytes of --remote-write pushes held for receivers, not yet accepted.",
		false, { NULL }, false },
	[F_FLIGHT_FILES] = { "ktop_flight_saves", PROM_COUNTER, PROM_U64, NULL,
		"trace.dat files the flight recorder saved (--flight: SIGUSR2, --trigger).",
		false, { NULL }, false },
	[F_FLIGHT_BYTES] = { "ktop_flight_saved_bytes", PROM_COUNTER, PROM_U64, "bytes",
		"Bytes of the trace.dat files the flight recorder saved.", false, { NULL }, false },
	[F_TRACING] = { "ktop_tracing", PROM_GAUGE, PROM_U64, NULL,
		"1 when ktop counts kernel events, else 0 (why: ktop_tracing_info).",
		false, { NULL }, false },
	[F_TRACING_INFO] = { "ktop_tracing_info", PROM_GAUGE, PROM_U64, NULL,
		"Always 1. cause: why events are not counted, or what is missing (none, events_missing, no_trace_option, stopped, pid_namespace, no_tracefs, not_permitted, error); clock: the trace clock.",
		false, { "cause", "clock" }, false },
	[F_DROPPED_GROUPS] = { "ktop_metrics_dropped_groups", PROM_GAUGE, PROM_U64, NULL,
		"Group names whose processes are counted in the group \"other\": ktop keeps at most --metrics-max-series groups.",
		false, { NULL }, false },
	[F_DROPPED] = { "ktop_metrics_dropped_series", PROM_GAUGE, PROM_U64, NULL,
		"Label sets summed into the \"other\" series of a family at this scrape (its series cap, --metrics-max-series).",
		false, { "family" }, false },
};

const char *const metrics_tracing_causes[] = {
	"none", "events_missing", "no_trace_option", "stopped", "pid_namespace", "no_tracefs",
	"not_permitted", "error", NULL
};

/* @c if it is one of the causes, else "error": the label's values stay a fixed set. */
static const char *tracing_cause(const char *c)
{
	size_t i;

	if (!c)
		return "none";
	for (i = 0; metrics_tracing_causes[i]; i++)
		if (!strcmp(c, metrics_tracing_causes[i]))
			return c;
	return "error";
}

struct metrics *metrics_new(const struct metrics_opts *o, char *err, size_t errlen)
{
	struct metrics *mx = calloc(1, sizeof(*mx));
	size_t max = o->max_series ? o->max_series : METRICS_MAX_SERIES_DEFAULT;
	double bounds[LAT_OVERFLOW];
	int i;

	if (!mx) {
		snprintf(err, errlen, "metrics: out of memory");
		return NULL;
	}
	mx->by = o->by;
	mx->max_groups = max;
	pidmap_init(&mx->sig_groups);
	mx->expire_ns = (uint64_t)(o->expire_s * 1e9);
	mx->hz = 100;
	for (i = 0; i < F_NR; i++) {
		const struct fam_def *d = &fam_defs[i];
		const char *labels[3];
		size_t n = 0, j;
		struct prom_family_def pd = {
			.name = d->name, .type = d->type, .value = d->value, .unit = d->unit,
			.help = d->help, .labels = labels, .max_series = d->capped ? max : 0,
		};

		/* The histograms' buckets (lib/lathist.h) in seconds. */
		for (j = 0; j < LAT_OVERFLOW; j++)
			bounds[j] = (double)lathist_bucket_us((unsigned)j) / 1e6;

		if (d->grouped)
			labels[n++] = cgroup_group_by_name(o->by);
		for (j = 0; j < 2 && d->labels[j]; j++)
			labels[n++] = d->labels[j];
		pd.nlabels = n;
		if (!n)
			pd.labels = no_labels;
		mx->fam[i] = d->type == PROM_HISTOGRAM ?
			     prom_family_new_hist(&pd, bounds, LAT_OVERFLOW, err, errlen) :
			     prom_family_new(&pd, err, errlen);
		if (!mx->fam[i]) {
			metrics_free(mx);
			return NULL;
		}
	}
	mx->cg = cgmetrics_new(cgroup_group_by_name(o->by), max, err, errlen);
	if (!mx->cg) {
		metrics_free(mx);
		return NULL;
	}
	syscalls_init();
	return mx;
}

void metrics_free(struct metrics *mx)
{
	size_t i;

	if (!mx)
		return;
	for (i = 0; i < F_NR; i++)
		prom_family_free(mx->fam[i]);
	for (i = 0; i < mx->ngroups; i++)
		group_free(mx->groups[i]);
	while (mx->ndead)
		group_free(mx->dead[--mx->ndead]);
	free(mx->dead);
	free(mx->later);
	free(mx->owners);
	pidmap_free(&mx->sig_groups);
	free(mx->groups);
	free(mx->tab);
	free(mx->ptab);
	free(mx->folded);
	free(mx->parts);
	cgmetrics_free(mx->cg);
	free(mx->devs);
	free(mx);
}

/* ---- a scrape ---- */

/* A group's signals by direction and signal: those named, then "other" (the rest). */
static void add_signals(struct metrics *mx, const struct mgroup *g)
{
	static const enum counter cnt[DIR_NR] = { CNT_SIGSENT, CNT_SIGRECV };
	const char *v[3] = { g->key };
	char name[24];
	int d, sig;

	for (d = 0; d < DIR_NR; d++) {
		uint64_t named = 0;

		v[1] = mg_of[cnt[d]].label;
		for (sig = 1; g->sig && sig <= MSIG_MAX; sig++) {
			if (!g->sig[sig][d])
				continue;
			v[2] = signal_name(sig, name, sizeof(name));
			prom_family_add_u64(mx->fam[F_SIGNALS], v, g->sig[sig][d]);
			named += g->sig[sig][d];
		}
		v[2] = "other";
		prom_family_add_u64(mx->fam[F_SIGNALS], v, g->n[cnt[d]] - named);
	}
}

static void add_group(struct metrics *mx, const struct mgroup *g, uint64_t *sub_calls,
		      uint64_t *sub_errs)
{
	char nbuf[SYSCALL_LABEL_BUF], ebuf[ERRNO_NAME_BUF];
	const char *v[3] = { g->key };
	uint32_t i;
	int c;

	/* Each family's series shared out per user, as the groups are (make_room). */
	for (c = 0; c < F_NR; c++)
		if (fam_defs[c].grouped)
			prom_family_owner(mx->fam[c], g == mx->other ? -1 : g->uid);
	for (c = 0; c < CNT_NR; c++) {
		enum fam f = mg_of[c].fam;

		v[1] = mg_of[c].label;
		if (f == F_NONE || f == F_SIGNALS)
			continue;	/* F_SIGNALS: add_signals */
		if (f == F_STATE && !mx->states)
			continue;
		if (f == F_NET_BYTES && !mx->net)
			continue;
		if (f == F_CPU)
			prom_family_add_double(mx->fam[F_CPU], v, (double)g->n[c] / (double)mx->hz);
		else if (f == F_STATE)
			prom_family_add_double(mx->fam[F_STATE], v, (double)g->n[c] / 1e9);
		else
			prom_family_add_u64(mx->fam[f], v, g->n[c]);
	}
	prom_family_add_u64(mx->fam[F_PROCS], v, g->procs);
	add_signals(mx, g);
	for (i = 0; i < g->sc.cap; i++) {
		const struct sc_stat *s = &g->sc.slots[i];
		enum subsystem sub;

		if (s->nr == SC_EMPTY)
			continue;
		v[1] = syscall_label(s->nr, nbuf, sizeof(nbuf));
		prom_family_add_u64(mx->fam[F_SYSCALLS], v, s->calls);
		if (mx->timed && s->timed && sctable_hist(&g->sc, s))
			prom_family_add_hist(mx->fam[F_SC_DURATION], v, sctable_hist(&g->sc, s)->n,
					     (double)s->time_ns / 1e9);
		sub = syscall_subsystem(s->nr);
		sub_calls[sub] += s->calls;
		sub_errs[sub] += s->errors;
	}
	for (i = 0; i < g->err.cap; i++) {
		const struct sc_stat *s = &g->err.slots[i];

		if (s->nr == SC_EMPTY)
			continue;
		v[1] = syscall_label(sc_err_nr(s->nr), nbuf, sizeof(nbuf));
		v[2] = errno_name((int)sc_err_errno(s->nr), ebuf, sizeof(ebuf));
		prom_family_add_u64(mx->fam[F_ERRORS], v, s->errors);
	}
}

/* The cgroup families' dropped series, into ktop_metrics_dropped_series. */
static void add_devices(struct metrics *mx)
{
	static const char *const dirs[DISK_DIRS] = { [DISK_READ] = "read", [DISK_WRITE] = "write" };
	size_t i;
	int d;

	for (i = 0; mx->devs_on && i < mx->ndevs; i++) {
		const struct disk *k = &mx->devs[i];
		const char *v[2] = { k->now.name };

		for (d = 0; d < DISK_DIRS; d++) {
			v[1] = dirs[d];
			prom_family_add_u64(mx->fam[F_DEV_OPS], v, k->ios_total[d]);
			prom_family_add_u64(mx->fam[F_DEV_BYTES], v, k->bytes_total[d]);
		}
		prom_family_add_hist(mx->fam[F_DEV_LATENCY], v, k->hist_total.n,
				     (double)k->lat_ns_total / 1e9);
		prom_family_add_u64(mx->fam[F_DEV_INFLIGHT], v, k->now.inflight);
	}
}

static void cg_dropped(void *arg, const char *family, size_t n)
{
	struct metrics *mx = arg;

	prom_family_add_u64(mx->fam[F_DROPPED], (const char *[]){ family }, n);
}

int metrics_emit(struct metrics *mx, const struct metrics_health *h, const struct prom_out *o)
{
	uint64_t sub_calls[SUB_NR] = { 0 }, sub_errs[SUB_NR] = { 0 };
	size_t i;
	int f, r = 0, r2;

	if (o->text)
		prom_buf_reset(o->text);
	for (f = 0; f < F_NR; f++)
		prom_family_begin(mx->fam[f]);
	cgmetrics_begin(mx->cg);
	for (i = 0; i < mx->ngroups; i++) {
		add_group(mx, mx->groups[i], sub_calls, sub_errs);
		cgmetrics_add(mx->cg, mx->groups[i]->key, &mx->groups[i]->res);
	}
	add_devices(mx);
	/* Every subsystem, zeros included, once tracing counts: each is a counter from the start. */
	for (f = 0; f < SUB_NR && h->have_events; f++) {
		const char *v[1] = { subsystem_name((enum subsystem)f) };

		prom_family_add_u64(mx->fam[F_SUB_CALLS], v, sub_calls[f]);
		prom_family_add_u64(mx->fam[F_SUB_ERRORS], v, sub_errs[f]);
	}
	if (h->have_events) {
		prom_family_add_u64(mx->fam[F_LOST], NULL, mx->lost);
		prom_family_add_u64(mx->fam[F_LOST_UNKNOWN], NULL, mx->lost_unknown);
		prom_family_add_u64(mx->fam[F_EVENTS], NULL, h->events);
	}
	if (mx->exit_records) {
		prom_family_add_u64(mx->fam[F_LOST_EXITS], NULL, mx->lost_exits);
		prom_family_add_u64(mx->fam[F_LOST_EXITS_UNKNOWN], NULL, mx->lost_exits_unknown);
	}
	prom_family_add_u64(mx->fam[F_TICKS], NULL, mx->ticks);
	if (mx->ticks)
		prom_family_add_double(mx->fam[F_LAST_TICK], NULL, mx->wall_s);
	if (h->have_http) {
		prom_family_add_u64(mx->fam[F_SCRAPES], NULL, h->scrapes);
		prom_family_add_double(mx->fam[F_SCRAPE_S], NULL, h->last_scrape_s);
	}
	if (h->have_rw) {
		prom_family_add_u64(mx->fam[F_RW_SENT], NULL, h->rw_sent);
		prom_family_add_u64(mx->fam[F_RW_DROPPED], NULL, h->rw_dropped);
		prom_family_add_u64(mx->fam[F_RW_QUEUE], NULL, h->rw_queue_bytes);
	}
	if (h->have_flight) {
		prom_family_add_u64(mx->fam[F_FLIGHT_FILES], NULL, h->flight_files);
		prom_family_add_u64(mx->fam[F_FLIGHT_BYTES], NULL, h->flight_bytes);
	}
	prom_family_add_u64(mx->fam[F_TRACING], NULL, h->tracing);
	prom_family_add_u64(mx->fam[F_TRACING_INFO], (const char *[]){ tracing_cause(h->cause),
			    h->clock ? h->clock : "" }, 1);
	prom_family_add_u64(mx->fam[F_DROPPED_GROUPS], NULL, mx->nfolded);
	/* Every family is written even after an error: the caps' state moves as at every write. */
	for (f = 0; f < F_DROPPED; f++) {
		r2 = prom_family_emit(mx->fam[f], o);
		r = r ? r : r2;
		/* Written first: its cap applied, what it summed is known. */
		prom_family_add_u64(mx->fam[F_DROPPED], (const char *[]){ fam_defs[f].name },
				    prom_family_dropped(mx->fam[f]));
	}
	r2 = cgmetrics_write(mx->cg, o, cg_dropped, mx);
	r = r ? r : r2;
	r2 = prom_family_emit(mx->fam[F_DROPPED], o);
	r = r ? r : r2;
	r2 = prom_out_eof(o);
	return r ? r : r2;
}

int metrics_render(struct metrics *mx, const struct metrics_health *h, enum prom_format fmt,
		   struct prom_buf *out)
{
	const struct prom_out o = { .text = out, .fmt = fmt };

	return metrics_emit(mx, h, &o);
}
