/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGMETRICS_H
#define KTOP_CGMETRICS_H

/*
 * outputs/cgmetrics: the exporter's families of the groups' cgroups
 * (model/cgres.h) and of the system's pressure, for outputs/metrics.c:
 *
 *	ktop_cgroup_pressure_seconds_total{GROUP,resource,kind}
 *	ktop_cgroup_throttled_periods_total{GROUP}
 *	ktop_cgroup_throttled_seconds_total{GROUP}
 *	ktop_cgroup_oom_kills_total{GROUP}
 *	ktop_cgroup_alerts_total{GROUP,alert}	refreshes the group alerted in
 *	ktop_cgroup_memory_bytes{GROUP}, ktop_cgroup_memory_limit_bytes{GROUP}
 *	ktop_cgroup_cpu_limit_cpus{GROUP}
 *	ktop_pressure_seconds_total{resource,kind}	/proc/pressure
 *
 * Counters add each interval's deltas of the cgroup files (the same numbers
 * as the Groups view's), from the refreshes where ktop read the group's
 * cgroup (it was one cgroup and grouped by the exporter's key).
 */

#include <stdbool.h>
#include <stdint.h>

#include "../model/cgres.h"
#include "promtext.h"

/* A group's accumulated numbers. */
struct cgacc {
	bool seen;			/* its cgroup was read in some interval */
	double psi_s[CG_PSI_NR][2];	/* [resource][some, full] */
	bool have_psi[CG_PSI_NR][2];
	uint64_t thr_periods, oom_kills, alerts[3];
	double thr_s;
	bool have_thr, have_oom;
	/* Levels at the last refresh it was read; < 0 unknown. */
	double mem, mem_max, cpu_limit;
	uint64_t tick;
};

struct cgmetrics;

struct cgmetrics *cgmetrics_new(const char *group_label, size_t max_series, char *err,
				size_t errlen);
void cgmetrics_free(struct cgmetrics *c);

/* The interval just ended into @a: the readings of @dir in @t at tick @tick. */
void cgacc_tick(struct cgacc *a, const struct cgres_table *t, const char *dir, uint64_t tick);
/* The system's pressure at tick @tick. */
void cgmetrics_tick(struct cgmetrics *c, const struct cgres_table *t, uint64_t tick);

/*
 * A scrape: begin, each group's add, then write to @o (each family's dropped
 * series said to @dropped). Returns 0 or the first error of a family's write.
 */
void cgmetrics_begin(struct cgmetrics *c);
void cgmetrics_add(struct cgmetrics *c, const char *group, const struct cgacc *a);
int cgmetrics_write(struct cgmetrics *c, const struct prom_out *o,
		    void (*dropped)(void *arg, const char *family, size_t n), void *arg);

#endif
