/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGRES_H
#define KTOP_CGRES_H

/*
 * model/cgres: a group's resources, from its cgroup's files: pressure stall
 * information (v2 cpu/io/memory.pressure), the CPU limit and throttling (v2
 * cpu.max, cpu.stat; v1 cpu.cfs_quota_us, cpu.cfs_period_us, cpu.stat),
 * memory use, limit and OOM events (v2 memory.current, memory.max,
 * memory.events; v1 memory.usage_in_bytes, memory.limit_in_bytes,
 * memory.oom_control, memory.failcnt), pids. collectors/cgroup/cgfiles.c reads the
 * files (persistent descriptors, pread) and hands the raw counters over in
 * the sample; the model keeps two readings per cgroup and turns them into
 * the interval's numbers: a pressure share is the delta of the file's
 * `total` (microseconds stalled) over the time between the two readings,
 * not the kernel's running averages.
 *
 * The parsers take a file's bytes, not NUL-terminated, and never read past them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/pidmap.h"

enum cg_psi { CG_PSI_CPU, CG_PSI_IO, CG_PSI_MEM, CG_PSI_NR };

/* What a reading has (struct cgres_raw.have). */
#define CGR_PSI_SOME(r)	(1u << (r))		/* psi_some[r] */
#define CGR_PSI_FULL(r)	(1u << (3 + (r)))	/* psi_full[r] */
#define CGR_CPU_MAX	(1u << 6)	/* quota_us, period_us */
#define CGR_THROTTLE	(1u << 7)	/* nr_throttled, throttled_us */
#define CGR_MEM_CUR	(1u << 8)
#define CGR_MEM_MAX	(1u << 9)
#define CGR_MEM_HITS	(1u << 10)	/* mem_max_hits: v2 events "max", v1 failcnt */
#define CGR_OOM_KILL	(1u << 11)	/* oom_kill: v2 events, v1 oom_control */
#define CGR_OOM		(1u << 12)	/* oom: v2 events (the OOM killer was invoked) */
#define CGR_PIDS_CUR	(1u << 13)
#define CGR_PIDS_MAX	(1u << 14)

/* No limit (cpu.max "max", memory.max "max", v1 -1 or PAGE_COUNTER_MAX). */
#define CGR_UNLIMITED UINT64_MAX

/* One reading of a cgroup's files: the kernel's counters as they are. */
struct cgres_raw {
	uint32_t have;
	uint64_t psi_some[CG_PSI_NR], psi_full[CG_PSI_NR];	/* total=, microseconds */
	uint64_t quota_us, period_us;		/* quota CGR_UNLIMITED: none */
	uint64_t nr_throttled, throttled_us;	/* v1 throttled_time (ns) converted */
	uint64_t mem_cur, mem_max;		/* bytes */
	uint64_t mem_max_hits, oom, oom_kill;
	uint64_t pids_cur, pids_max;
};

/* A group's alerts this interval (cgres_alerts). */
#define CGA_THROTTLED	0x1u	/* throttled at least once */
#define CGA_OOM_KILL	0x2u	/* a process OOM-killed */
#define CGA_MEM_PRESS	0x4u	/* memory "some" pressure of CGRES_MEM_ALERT_PCT or more */
/* Share of the interval with some task stalled on memory that counts as an alert. */
#define CGRES_MEM_ALERT_PCT 1.0

/* The numbers a group shows (cgres_num). */
enum cgres_field {
	CGF_CPU_SOME,		/* percent of the interval */
	CGF_CPU_FULL,
	CGF_IO_SOME,
	CGF_IO_FULL,
	CGF_MEM_SOME,
	CGF_MEM_FULL,
	CGF_CPU_SOME_US,	/* microseconds of the interval (the total's delta) */
	CGF_CPU_LIMIT,		/* quota / period, percent of one CPU; unknown when unlimited */
	CGF_THROTTLED,		/* periods throttled in the interval */
	CGF_THROTTLED_US,	/* microseconds throttled in the interval */
	CGF_THROTTLED_PCT,	/* those as a percent of the interval */
	CGF_MEM_KB,		/* KiB in use */
	CGF_MEM_MAX_KB,		/* KiB limit; unknown when unlimited */
	CGF_OOM_KILLS,		/* processes OOM-killed in the interval */
	CGF_OOM_KILLS_TOTAL,	/* since the group's cgroup was first read */
	CGF_PIDS,
	CGF_PIDS_MAX,		/* unknown when unlimited */
	CGF_MEM_HITS,		/* times its usage hit its limit in the interval (events max, failcnt) */
	CGF_NR
};

/* One cgroup's readings in the model. */
struct cgres {
	const char *dir;		/* the group's cgroup, model-interned */
	struct cgres_raw cur, prev;
	uint64_t t_cur, t_prev;		/* CLOCK_MONOTONIC ns of the readings */
	bool have_prev;
	uint64_t oom_kills_total;
	uint64_t tick;			/* of the model, at the last reading */
};

/* Its number @f; false when not known (one reading only, not in its files). */
bool cgres_num(const struct cgres *r, enum cgres_field f, double *out);
/* CGA_* bits of its last interval. */
unsigned cgres_alerts(const struct cgres *r);
/* "THR", "OOM", "MEM" joined by ',' into @out; "" for none. Returns @out. */
const char *cgres_alert_text(unsigned alerts, char *out, size_t cap);

/*
 * The key of a reading of a cgroup in the hierarchy of the CPU controller,
 * read for the processes it limits (throttled_pct): "cpu:PATH". A group's
 * key is its cgroup's path alone; the two are read apart (on a hybrid host
 * the same path may be two cgroups) and only groups count as groups.
 */
#define CGRES_CPU_KEY "cpu:"

/* The system's pressure (/proc/pressure) and every cgroup read, in the model. */
struct cgres_table {
	struct cgres sys;		/* dir "": the whole system, PSI only */
	struct cgres **v;		/* in order of first reading */
	size_t n, cap;
	size_t *index;			/* open addressing by the dir's hash: v index + 1 */
	size_t index_cap;
	/* Groups alerting in the last interval, per alert, for the header and exporter. */
	unsigned n_throttled, n_oom, n_mem;
	bool have_groups;		/* some group was read this tick */
	/* Each row's CPU limit as of tick cpu_tick: row id -> struct cgres (cgres_cpu_of). */
	struct pidmap cpu_of;
	uint64_t cpu_tick;
};

void cgres_table_init(struct cgres_table *t);
void cgres_table_free(struct cgres_table *t);
/* A reading of @dir ("" for the system) taken at @t_ns, in tick @tick. */
void cgres_table_apply(struct cgres_table *t, const char *dir, const struct cgres_raw *raw,
		       uint64_t t_ns, uint64_t tick);
/* The end of tick @tick: the alert counts; cgroups not read for a while are forgotten. */
void cgres_table_end(struct cgres_table *t, uint64_t tick);
/* @dir's readings, or NULL. */
const struct cgres *cgres_find(const struct cgres_table *t, const char *dir);

/*
 * Row @id's CPU limit in tick @tick: the reading @dir (CGRES_CPU_KEY "PATH",
 * applied before in the tick), or "" when nothing on its path limits it.
 */
void cgres_table_cpu_of(struct cgres_table *t, pid_t id, const char *dir, uint64_t tick);
/*
 * Row @id's CPU limit in tick @tick: false when not read (its column not
 * shown, a recording); true with *@r its cgroup's reading, or NULL when
 * nothing limits it (never throttled).
 */
bool cgres_cpu_of(const struct cgres_table *t, pid_t id, uint64_t tick, const struct cgres **r);
/* Is @r a reading for the processes it limits (CGRES_CPU_KEY), not a group's? */
bool cgres_is_cpu(const struct cgres *r);

/* Field @f of the cgroup @dir (a group's; NULL: none) in @t; false when not known. */
bool cgres_group_num(const struct cgres_table *t, const char *dir, int f, double *out);
/* Its alerts as cgres_alert_text() writes them; "" when not read. Returns @out. */
const char *cgres_group_alerts(const struct cgres_table *t, const char *dir, char *out,
			       size_t cap);

#endif
