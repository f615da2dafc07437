// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/cgfiles_source: the groups' cgroup files and the system's
 * pressure (cgres.h) as a source of the list (source.h): the rows moved to
 * another cgroup come from the tick's facts, the group key and the rows from
 * the sinks' demand.
 */
#include <stdlib.h>

#include "cgfiles.h"
#include "../source.h"

static int cgfiles_src_start(struct source_env *env, void **st)
{
	(void)env;
	/* A fixture's mount table (tests): its hierarchies where it says. */
	*st = cgfiles_new(getenv("KTOP_CGROUP_MOUNTINFO"));
	return 0;
}

static void cgfiles_src_take(void *st, struct source_env *env)
{
	cgfiles_moved(st, env->facts.moved, env->facts.nmoved);
}

static void cgfiles_src_collect(void *st, struct source_env *env, struct sample *s)
{
	const struct procfs_need *need = &env->need.proc;

	cgfiles_collect(st, env->m, env->need.group_by,
		      need->all & NEED_CPULIMIT ? CGRES_ROWS_ALL :
		      need->wanted & NEED_CPULIMIT ? CGRES_ROWS_WANTED : CGRES_ROWS_NONE, s);
}

static void cgfiles_src_lines(void *st, const struct source_env *env, FILE *out)
{
	struct cgfiles_stats cs;

	(void)env;
	cgfiles_get_stats(st, &cs);
	fprintf(out, "ktop-stats: cgres_cpu_s=%.6f cgres_group_reads=%lu cgres_file_reads=%lu "
		"cgres_opens=%lu cgres_fds=%zu cgcpu_file_reads=%lu cgcpu_path_reads=%lu "
		"cgcpu_cgroups=%zu cgcpu_fds=%zu\n", (double)cs.cpu_ns / 1e9, cs.group_reads,
		cs.reads, cs.opens, cs.open_fds, cs.cpu.reads, cs.cpu.path_reads, cs.cpu.nodes,
		cs.cpu.open_fds);
}

static void cgfiles_src_free(void *st)
{
	cgfiles_destroy(st);
}

const struct source cgfiles_source = {
	.name = "cgres",
	.start = cgfiles_src_start,
	.take = cgfiles_src_take,
	.collect = cgfiles_src_collect,
	.lines = cgfiles_src_lines,
	.free = cgfiles_src_free,
};
