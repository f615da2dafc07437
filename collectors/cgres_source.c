// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/cgres_source: the groups' cgroup files and the system's
 * pressure (cgres.h) as a source of the list (source.h): the rows moved to
 * another cgroup come from the tick's facts, the group key and the rows from
 * the sinks' demand.
 */
#include <stdlib.h>

#include "cgres.h"
#include "source.h"

static int cgres_src_start(struct source_env *env, void **st)
{
	(void)env;
	/* A fixture's mount table (tests): its hierarchies where it says. */
	*st = cgres_new(getenv("KTOP_CGROUP_MOUNTINFO"));
	return 0;
}

static void cgres_src_take(void *st, struct source_env *env)
{
	cgres_moved(st, env->facts.moved, env->facts.nmoved);
}

static void cgres_src_collect(void *st, struct source_env *env, struct sample *s)
{
	const struct procfs_need *need = &env->need.proc;

	cgres_collect(st, env->m, env->need.group_by,
		      need->all & NEED_CPULIMIT ? CGRES_ROWS_ALL :
		      need->wanted & NEED_CPULIMIT ? CGRES_ROWS_WANTED : CGRES_ROWS_NONE, s);
}

static void cgres_src_lines(void *st, const struct source_env *env, FILE *out)
{
	struct cgres_stats cs;

	(void)env;
	cgres_get_stats(st, &cs);
	fprintf(out, "ktop-stats: cgres_cpu_s=%.6f cgres_group_reads=%lu cgres_file_reads=%lu "
		"cgres_opens=%lu cgres_fds=%zu cgcpu_file_reads=%lu cgcpu_path_reads=%lu "
		"cgcpu_cgroups=%zu cgcpu_fds=%zu\n", (double)cs.cpu_ns / 1e9, cs.group_reads,
		cs.reads, cs.opens, cs.open_fds, cs.cpu.reads, cs.cpu.path_reads, cs.cpu.nodes,
		cs.cpu.open_fds);
}

static void cgres_src_free(void *st)
{
	cgres_destroy(st);
}

const struct source cgres_source = {
	.name = "cgres",
	.start = cgres_src_start,
	.take = cgres_src_take,
	.collect = cgres_src_collect,
	.lines = cgres_src_lines,
	.free = cgres_src_free,
};
