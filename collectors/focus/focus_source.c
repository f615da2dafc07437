// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/focus/focus_source: the process view's tracing instance (focus.h) as
 * a source of the list (source.h); it runs with the counting source only.
 * It is the focus exception: its events reach the model's rings at event
 * rate, between ticks, through model_focus_feed (model.h), the one writer
 * of the model besides model_apply; its threads' splits go in the sample.
 */
#include <stdlib.h>

#include "../../lib/util.h"
#include "focus.h"
#include "../source.h"

static int focus_src_start(struct source_env *env, void **st)
{
	const char *kb = getenv("KTOP_FOCUS_KB");
	unsigned long long v;
	struct focus *f;
	size_t i;

	/* A summary of another user's process would be all zeros: say why not. */
	for (i = 0; env->summary && i < env->npids; i++) {
		char why[160];

		if (focus_may_see(env->pids[i], why, sizeof(why))) {
			fprintf(stderr, "ktop: --summary: %s\n", why);
			return -1;
		}
	}
	if (!env->tracing)
		return 0;
	/* The process view's buffer; small ones let tests see its losses. */
	if (!kb || parse_uint(kb, 1 << 22, &v) || v < 4)
		v = 0;
	f = focus_new((size_t)v);
	focus_set_flight(f, env->flight);
	*st = f;
	return 0;
}

static size_t focus_src_pollfds(void *st, struct pollfd *pfd, size_t max)
{
	return focus_pollfds(st, pfd, max);
}

/* A process view opened or closed the instance: its CPUs come and go. */
static unsigned focus_src_generation(void *st)
{
	return focus_generation(st);
}

static bool focus_src_drain(void *st, struct source_env *env, int fd)
{
	focus_drain(st, env->feed, fd);
	return true;	/* one pass reads every CPU of the focus instance */
}

static void focus_src_take(void *st, struct source_env *env)
{
	const struct source_facts *f = &env->facts;
	size_t i;

	if (!env->m->nfprocs)
		return;
	focus_collect(st, env->feed);
	/* Their senders: the focus instance runs only in the focused processes. */
	for (i = 0; i < f->nsigs; i++)
		focus_signal_seen(st, env->feed, &f->sigs[i]);
}

/* The focused processes' threads: the state split of the interval's sums. */
static void focus_src_collect(void *st, struct source_env *env, struct sample *s)
{
	if (env->m->nfprocs)
		focus_thread_states(st, env->m, env->facts.acct, s);
}

static bool focus_src_open(void *st, struct source_env *env, pid_t pid, char *why, size_t len)
{
	/* focus_add checks too, and adds nothing when it refuses. */
	snprintf(why, len, "process %d: not focused", (int)pid);
	return focus_may_see(pid, why, len) ||
	       (focus_add(st, env->feed, pid, false) && !model_fproc_find(env->m, pid));
}

static void focus_src_close(void *st, struct source_env *env, pid_t pid)
{
	focus_remove(st, env->feed, pid);
}

/* Its instance first: the counting one outlives it. */
static void *focus_src_stop(void *st, struct source_env *env)
{
	(void)env;
	focus_free(st);
	return NULL;
}

const struct source focus_source = {
	.name = "focus",
	.start = focus_src_start,
	.pollfds = focus_src_pollfds,
	.generation = focus_src_generation,
	.drain = focus_src_drain,
	.take = focus_src_take,
	.collect = focus_src_collect,
	.focus_open = focus_src_open,
	.focus_close = focus_src_close,
	.stop = focus_src_stop,
};
