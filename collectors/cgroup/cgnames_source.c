// SPDX-License-Identifier: GPL-2.0-only
/* collectors/cgroup/cgnames_source: containers' and pods' names (cgnames.h) as a source of the list (source.h). */
#include "cgnames.h"
#include "../source.h"

static int cgn_start(struct source_env *env, void **st)
{
	(void)env;
	*st = cgnames_new(NULL);
	return 0;
}

static void cgn_collect(void *st, struct source_env *env, struct sample *s)
{
	cgnames_collect(st, env->m, s);
}

static void cgn_free(void *st)
{
	cgnames_destroy(st);
}

const struct source cgnames_source = {
	.name = "cgnames",
	.start = cgn_start,
	.collect = cgn_collect,
	.free = cgn_free,
};
