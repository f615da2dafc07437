/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGCPU_H
#define KTOP_CGCPU_H

/*
 * collectors/cgroup/cgcpu: what limits a process's CPU (throttled_pct, the process
 * view), read at the process's own path in the hierarchy that holds the CPU
 * controller, whatever it is grouped by: the v1 "cpu" hierarchy where one is
 * mounted (a hybrid host: its path there may differ from its memory or v2
 * path), else the v2 one.
 *
 * A process's path is read from /proc/PID/cgroup once a life, and again
 * after an exec or a move. The cgroup that limits it is the nearest on that
 * path with a CPU limit (v2 cpu.max, v1 cpu.cfs_quota_us and
 * cpu.cfs_period_us); its cpu.stat (and v2 cpu.pressure) is read once a tick
 * for all the processes it limits, through descriptors kept open, and handed
 * over as a struct cg_reading keyed CGRES_CPU_KEY "PATH", beside each row's
 * struct cg_cpu_of. The limits of the cgroups above are read again every
 * CGCPU_LIMIT_TICKS ticks, the limiting one's every tick. Only the rows
 * asked for are read: nothing when no column, view or group shows it.
 */

#include <stdint.h>
#include <sys/types.h>

#include "../../model/model.h"

/* Ticks between two readings of the limit of a cgroup that does not limit. */
#define CGCPU_LIMIT_TICKS 5

struct cgcpu;

/*
 * cgcpu_new - @v1 the v1 cpu hierarchy's mount (an O_PATH directory) or -1,
 * @v2 the v2 hierarchy's or -1; borrowed, they outlive it. @proc: "/proc".
 * NULL when no hierarchy holds the CPU controller (every row then unknown),
 * or without memory.
 */
struct cgcpu *cgcpu_new(int v1, int v2, const char *proc);
void cgcpu_destroy(struct cgcpu *c);

/* The processes (rows) @ids moved to another cgroup: their path is read again. */
void cgcpu_moved(struct cgcpu *c, const pid_t *ids, size_t n);

/*
 * cgcpu_row - row @t's CPU limit this tick into @s: its struct cg_cpu_of,
 * and its cgroup's reading once per tick. Nothing when its path cannot be
 * read (gone before it was): not known.
 */
void cgcpu_row(struct cgcpu *c, const struct model *m, const struct task *t, struct sample *s);

/*
 * cgcpu_limit - the cgroup that limits row @t's CPU in tick @tick (after its
 * cgcpu_row): its key (CGRES_CPU_KEY "PATH", valid until cgcpu_end) and its
 * reading into @raw; NULL when nothing limits it or it is not known.
 */
const char *cgcpu_limit(const struct cgcpu *c, const struct task *t, uint64_t tick,
			struct cgres_raw *raw);

/* The end of the tick: what was not asked for a while is forgotten, descriptors closed. */
void cgcpu_end(struct cgcpu *c, uint64_t tick);

/* Statistics: cgroups and processes known, files read (preads), /proc/PID/cgroup reads. */
struct cgcpu_stats {
	size_t nodes, procs, open_fds;
	unsigned long reads, path_reads;
};
void cgcpu_get_stats(const struct cgcpu *c, struct cgcpu_stats *st);

#endif
