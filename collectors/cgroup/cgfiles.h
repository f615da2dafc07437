/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGFILES_H
#define KTOP_CGFILES_H

/*
 * collectors/cgroup/cgfiles: the reading side of model/cgres. Each tick it reads the
 * system's pressure (/proc/pressure/cpu, io, memory) and, for each group a
 * view or writer shows (tables/groups.h) that is one cgroup,
 * that cgroup's files (only the groups shown), through descriptors kept open and re-read with pread
 * (as collectors/proc/procfs.c reads /proc): cgroup v2 files in the unified
 * hierarchy, and on a v1 or hybrid host the cpu, memory and pids
 * controllers' files in their own hierarchies, at the path the group's
 * process has in each (its /proc/PID/cgroup lines, read once per group), cut
 * as the group's key cuts it (the container's, pod's, unit's cgroup). In
 * the v2 hierarchy only the group's own cgroup counts: a container whose v2
 * path was left at its runtime's service is not that service.
 * A file a hierarchy does not have is not tried again; a group not shown for
 * a few ticks has its descriptors closed. What limits each process's CPU,
 * read at its own path whatever the groups: collectors/cgroup/cgcpu.h.
 */

#include <stddef.h>
#include <stdint.h>

#include "../../model/model.h"
#include "cgcpu.h"

struct cgfiles_src;

/*
 * cgfiles_new - finds the cgroup mounts in @mountinfo (NULL: /proc/self/mountinfo)
 * and opens /proc/pressure's files. NULL only without memory: a host without
 * cgroups or PSI has every number unknown.
 */
struct cgfiles_src *cgfiles_new(const char *mountinfo);
void cgfiles_destroy(struct cgfiles_src *c);

/* Whose CPU limit cgfiles_collect reads (collectors/cgroup/cgcpu.h). */
enum cgfiles_rows {
	CGRES_ROWS_NONE,	/* the process view's (focused) processes only */
	CGRES_ROWS_WANTED,	/* and the rows the model marks wanted (on screen) */
	CGRES_ROWS_ALL,		/* and every row groups count */
};

/*
 * cgfiles_collect - the system's pressure and the cgroup files of this tick's
 * groups by @by (enum cgroup_group_by; -1: the system's only), each group's
 * cgroup (cgname_group_dir) read once, and the CPU limit of @rows' rows
 * (cgcpu_row), into @s (sample_add_cgres, sample_add_cpu_of). Runs after
 * the tick's /proc readings are applied, before its end.
 */
void cgfiles_collect(struct cgfiles_src *c, const struct model *m, int by, enum cgfiles_rows rows,
		   struct sample *s);
/* Rows @ids moved to another cgroup: what limits their CPU is found again. */
void cgfiles_moved(struct cgfiles_src *c, const pid_t *ids, size_t n);

/*
 * Statistics since the start: descriptors open, groups known, files read
 * (preads), opens, groups read (one per group per tick), its CPU time.
 */
struct cgfiles_stats {
	size_t open_fds, groups;
	unsigned long reads, opens, group_reads;
	uint64_t cpu_ns;
	struct cgcpu_stats cpu;		/* the rows' CPU limits */
};
void cgfiles_get_stats(const struct cgfiles_src *c, struct cgfiles_stats *st);

#endif
