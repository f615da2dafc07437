// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/inprog_source: the watched processes' calls in progress
 * (inprog.h) as a source of the list (source.h), from the counting source's
 * sums (the tick's facts); it runs with -p or CMD, traced.
 */
#include "inprog.h"
#include "../source.h"

static int inprog_src_start(struct source_env *env, void **st)
{
	if (env->tracing && env->nwatch)
		*st = inprog_new();
	return 0;
}

static void inprog_src_collect(void *st, struct source_env *env, struct sample *s)
{
	if (env->facts.acct)
		inprog_collect(st, env->facts.acct, env->m, env->facts.cut_ns, s);
}

static void *inprog_src_stop(void *st, struct source_env *env)
{
	(void)env;
	inprog_free(st);
	return NULL;
}

const struct source inprog_source = {
	.name = "inprog",
	.start = inprog_src_start,
	.collect = inprog_src_collect,
	/* The last of the events' group: their rows applied before the exit records are matched. */
	.apply = true,
	.stop = inprog_src_stop,
};
