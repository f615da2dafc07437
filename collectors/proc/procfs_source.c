// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/proc/procfs_source: the per-process files (procfs.h) as a source of
 * the list (source.h). What the events saw happen (forks, credentials and
 * cgroups changed, forks followed, privileges gained) it takes from the
 * tick's facts.
 */
#include <string.h>

#include "../trace/counting.h"
#include "../source.h"

static int proc_start(struct source_env *env, void **st)
{
	struct procfs *pc;
	int ret = procfs_new("/proc", 0, &pc);
	size_t i;

	if (ret) {
		fprintf(stderr, "ktop: cannot read /proc: %s\n", strerror(-ret));
		return -1;
	}
	*st = pc;
	env->procfs = pc;
	for (i = 0; i < env->npids; i++) {
		if (!procfs_pid_exists(pc, env->pids[i])) {
			fprintf(stderr, "ktop: no process with pid %d\n", (int)env->pids[i]);
			return -1;
		}
	}
	return 0;
}

static void proc_setup(void *st, struct source_env *env, struct model *m)
{
	(void)m;
	/* A long scan lets the ring buffers be copied out meanwhile (DESIGN.md, The one loop). */
	if (env->tracing)
		procfs_set_pause(st, env->pause, env->pause_arg);
	if (env->nwatch)
		procfs_set_focus(st, env->watch, env->nwatch);
}

static void proc_take(void *st, struct source_env *env)
{
	const struct source_facts *f = &env->facts;
	size_t i;

	procfs_set_threads(st, env->m->threads);
	/* Fork events say which processes are new: then /proc need not be listed. */
	if (f->whole && !env->m->threads)
		procfs_hint_born(st, f->born, f->nborn);
	/* Whose the tasks are whose credentials changed, before their events count. */
	procfs_recheck_owners(st, f->cred, f->ncred);
	/* A process moved to another cgroup (no exec): its cgroup is read again. */
	procfs_recheck_cgroups(st, f->moved, f->nmoved);
	/* -- CMD, --summary: what the watched processes fork is watched too. */
	for (i = 0; i < f->nfollowed; i++)
		procfs_focus_add(st, f->followed[i]);
}

static void proc_collect(void *st, struct source_env *env, struct sample *s)
{
	procfs_collect(st, env->m, &env->need.proc, s);
}

/* A followed process that gained privileges is not read any more. */
static void proc_end(void *st, struct source_env *env)
{
	const struct source_facts *f = &env->facts;
	size_t i;

	for (i = 0; i < f->npriv; i++)
		if (!f->priv[i].pinned)
			procfs_focus_remove(st, f->priv[i].pid);
}

static void proc_fields(void *st, const struct source_env *env, FILE *out)
{
	struct procfs_stats ps;

	(void)env;
	procfs_get_stats(st, &ps);
	fprintf(out, " stat_reads=%lu scans=%lu event_scans=%lu", ps.stat_reads, ps.scans,
		ps.event_scans);
}

static void proc_free(void *st)
{
	procfs_free(st);
}

const struct source procfs_source = {
	.name = "procfs",
	.start = proc_start,
	.setup = proc_setup,
	.take = proc_take,
	.collect = proc_collect,
	.apply = true,
	.end = proc_end,
	.fields = proc_fields,
	.free = proc_free,
};
