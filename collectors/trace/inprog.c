// SPDX-License-Identifier: GPL-2.0-only
#include "inprog.h"

#include <dirent.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "callargs.h"
#include "../../lib/util.h"

/* A call begun before tracing: what /proc said at the first tick. */
struct seed {
	pid_t tgid, tid;
	long nr;
	uint64_t args[KEV_SC_ARGS];
	uint64_t since;		/* the cut of the tick it was read at: the call is older */
};

struct inprog {
	struct callargs args;
	struct seed *seeds;
	size_t nseeds, cap_seeds;
	bool seeded;
};

struct inprog *inprog_new(void)
{
	return xcalloc(1, sizeof(struct inprog));
}

void inprog_free(struct inprog *ip)
{
	if (!ip)
		return;
	free(ip->seeds);
	free(ip);
}

/* The threads of the watched processes that are in a call that tracing did not see begin. */
static void seed(struct inprog *ip, const struct evsums *a, const struct model *m, uint64_t cut)
{
	char path[64];
	struct dirent *de;
	size_t i;

	ip->seeded = true;
	for (i = 0; i < m->nfocus; i++) {
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)m->focus[i]);
		d = opendir(path);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			const struct evsums_thread *th;
			pid_t tid = (pid_t)atoi(de->d_name);
			struct seed sd = { .tgid = m->focus[i], .tid = tid };

			if (tid <= 0)
				continue;
			th = pidmap_get(&a->threads, tid);
			if (th && th->enter_nr != SC_EMPTY)
				continue;	/* begun since: its entry was traced */
			if (!callargs_current(sd.tgid, tid, &sd.nr, sd.args))
				continue;
			/* Begun before tracing, so before the cut too: its age is at least from there. */
			sd.since = cut;
			if (ip->nseeds == ip->cap_seeds) {
				ip->cap_seeds = ip->cap_seeds ? ip->cap_seeds * 2 : 16;
				ip->seeds = xrealloc(ip->seeds, ip->cap_seeds * sizeof(*ip->seeds));
			}
			ip->seeds[ip->nseeds++] = sd;
		}
		closedir(d);
	}
}

/* Its thread ended a call, began one, or exited since /proc was read: the call is over. */
static bool seed_over(const struct seed *sd, const struct evsums *a)
{
	const struct evsums_thread *th = pidmap_get(&a->threads, sd->tid);

	return th && (th->exited || th->n[CNT_SYSCALLS] || th->last_exit_ts > sd->since ||
		      (th->enter_nr != SC_EMPTY && th->enter_ts > sd->since));
}

static void add(struct inprog *ip, struct sample *s, pid_t tgid, pid_t tid, uint32_t key,
		long raw, uint64_t since, bool before, const uint64_t *args)
{
	struct fcall *c = sample_add_call(s);
	uint64_t now[KEV_SC_ARGS];
	long nr;

	c->tgid = tgid;
	c->tid = tid;
	c->nr = key;
	c->since_ns = since;
	c->before = before;
	/* The argument: what the thread's registers hold, if it is in that call still. */
	if (!args && callargs_current(tgid, tid, &nr, now) && nr == raw)
		args = now;
	c->arg = args ? (uint8_t)callargs_first(&ip->args, key) : FA_NONE;
	if (!args)
		return;
	c->arg0 = args[0];
	if (c->arg == FA_FD)
		callargs_fd_target(tgid, tid, (int)args[0], c->target, sizeof(c->target));
}

void inprog_collect(struct inprog *ip, const struct evsums *a, const struct model *m, uint64_t cut,
		    struct sample *s)
{
	uint64_t interval = m->t_prev && cut > m->t_prev ? cut - m->t_prev : 0;
	size_t i, keep = 0;

	if (!m->nfocus || !a->order_times)
		return;
	if (!ip->seeded)
		seed(ip, a, m, cut);
	/* The first tick has no interval to be in progress for: not known yet (as its rates). */
	if (!interval)
		return;
	s->have_calls = true;
	s->calls_ns = cut;
	for (i = 0; i < a->threads.cap; i++) {
		const struct evsums_thread *th = a->threads.slots[i].val;

		if (!a->threads.slots[i].key || th->enter_nr == SC_EMPTY || th->exited ||
		    th->tgid <= 0 || th->enter_ts > cut || !model_is_focused(m, th->tgid))
			continue;
		/* In progress at the last tick too: an interval or more. */
		if (cut - th->enter_ts < interval)
			continue;
		/* Kept by its number as reported (evsums.c's sc_nr): the key has the thread's ABI. */
		add(ip, s, th->tgid, th->tid, sc_key((long)sc_key_nr(th->enter_nr), th->compat),
		    (long)sc_key_nr(th->enter_nr), th->enter_ts, false, NULL);
	}
	for (i = 0; i < ip->nseeds; i++) {
		const struct seed *sd = &ip->seeds[i];
		const struct evsums_thread *th = pidmap_get(&a->threads, sd->tid);

		if (seed_over(sd, a) || !model_is_focused(m, sd->tgid))
			continue;
		ip->seeds[keep++] = *sd;
		add(ip, s, sd->tgid, sd->tid, sc_key(sd->nr, th && th->compat), sd->nr, sd->since,
		    true, sd->args);
	}
	ip->nseeds = keep;
	fcall_sort(s->calls, s->ncalls);
}
