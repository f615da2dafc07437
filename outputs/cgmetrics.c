// SPDX-License-Identifier: GPL-2.0-only
#include "cgmetrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cfam {
	CF_PSI, CF_THR_P, CF_THR_S, CF_OOM, CF_ALERTS, CF_MEM, CF_MEM_MAX, CF_CPU_LIM, CF_SYS_PSI,
	CF_NR
};

static const struct {
	const char *name;
	enum prom_type type;
	enum prom_value value;
	const char *unit, *help;
	bool grouped;
	const char *labels[2];
} defs[CF_NR] = {
	[CF_PSI] = { "ktop_cgroup_pressure_seconds", PROM_COUNTER, PROM_DOUBLE, "seconds",
		"Time some (or all, kind full) of the group's tasks stalled on a resource: the deltas of its cgroup's cpu/io/memory.pressure total.",
		true, { "resource", "kind" } },
	[CF_THR_P] = { "ktop_cgroup_throttled_periods", PROM_COUNTER, PROM_U64, NULL,
		"CFS periods the group's cgroup was throttled by its CPU limit (cpu.stat nr_throttled).",
		true, { NULL } },
	[CF_THR_S] = { "ktop_cgroup_throttled_seconds", PROM_COUNTER, PROM_DOUBLE, "seconds",
		"Time the group's cgroup was throttled (cpu.stat throttled_usec, v1 throttled_time).",
		true, { NULL } },
	[CF_OOM] = { "ktop_cgroup_oom_kills", PROM_COUNTER, PROM_U64, NULL,
		"Processes of the group's cgroup killed by the OOM killer (memory.events oom_kill, v1 memory.oom_control).",
		true, { NULL } },
	[CF_ALERTS] = { "ktop_cgroup_alerts", PROM_COUNTER, PROM_U64, NULL,
		"Refreshes in which the group was throttled, had a process OOM-killed, or stalled on memory 1% of the interval or more.",
		true, { "alert" } },
	[CF_MEM] = { "ktop_cgroup_memory_bytes", PROM_GAUGE, PROM_U64, "bytes",
		"Memory of the group's cgroup (memory.current, v1 memory.usage_in_bytes).", true,
		{ NULL } },
	[CF_MEM_MAX] = { "ktop_cgroup_memory_limit_bytes", PROM_GAUGE, PROM_U64, "bytes",
		"Memory limit of the group's cgroup (memory.max, v1 memory.limit_in_bytes); no series when unlimited.",
		true, { NULL } },
	[CF_CPU_LIM] = { "ktop_cgroup_cpu_limit_cpus", PROM_GAUGE, PROM_DOUBLE, NULL,
		"CPU limit of the group's cgroup in CPUs (cpu.max, v1 cfs_quota_us / cfs_period_us); no series when unlimited.",
		true, { NULL } },
	[CF_SYS_PSI] = { "ktop_pressure_seconds", PROM_COUNTER, PROM_DOUBLE, "seconds",
		"Time some (or all, kind full) tasks of the system stalled on a resource (/proc/pressure).",
		false, { "resource", "kind" } },
};

static const char *const res_names[CG_PSI_NR] = { "cpu", "io", "memory" };
static const char *const kind_names[2] = { "some", "full" };
static const char *const alert_names[3] = { "throttled", "oom_kill", "memory_pressure" };

struct cgmetrics {
	struct prom_family *fam[CF_NR];
	struct cgacc sys;
};

struct cgmetrics *cgmetrics_new(const char *group_label, size_t max_series, char *err,
				size_t errlen)
{
	struct cgmetrics *c = calloc(1, sizeof(*c));
	int i;

	if (!c) {
		snprintf(err, errlen, "metrics: out of memory");
		return NULL;
	}
	for (i = 0; i < CF_NR; i++) {
		const char *labels[3];
		size_t n = 0, j;
		struct prom_family_def pd = {
			.name = defs[i].name, .type = defs[i].type, .value = defs[i].value,
			.unit = defs[i].unit, .help = defs[i].help, .labels = labels,
			.max_series = defs[i].grouped ? max_series : 0,
		};

		if (defs[i].grouped)
			labels[n++] = group_label;
		for (j = 0; j < 2 && defs[i].labels[j]; j++)
			labels[n++] = defs[i].labels[j];
		pd.nlabels = n;
		c->fam[i] = prom_family_new(&pd, err, errlen);
		if (!c->fam[i]) {
			cgmetrics_free(c);
			return NULL;
		}
	}
	return c;
}

void cgmetrics_free(struct cgmetrics *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < CF_NR; i++)
		prom_family_free(c->fam[i]);
	free(c);
}

/* The delta of a counter of @r's last interval; false when not known. */
static bool rdelta(const struct cgres *r, uint32_t bit, uint64_t cur, uint64_t prev, uint64_t *d)
{
	if (!r->have_prev || !(r->cur.have & bit) || !(r->prev.have & bit) || cur < prev)
		return false;
	*d = cur - prev;
	return true;
}

static void acc_psi(struct cgacc *a, const struct cgres *r)
{
	uint64_t d;
	int i;

	for (i = 0; i < CG_PSI_NR; i++) {
		if (rdelta(r, CGR_PSI_SOME(i), r->cur.psi_some[i], r->prev.psi_some[i], &d)) {
			a->psi_s[i][0] += (double)d / 1e6;
			a->have_psi[i][0] = true;
		}
		if (rdelta(r, CGR_PSI_FULL(i), r->cur.psi_full[i], r->prev.psi_full[i], &d)) {
			a->psi_s[i][1] += (double)d / 1e6;
			a->have_psi[i][1] = true;
		}
	}
}

void cgacc_tick(struct cgacc *a, const struct cgres_table *t, const char *dir, uint64_t tick)
{
	const struct cgres *r = dir && *dir ? cgres_find(t, dir) : NULL;
	unsigned al;
	uint64_t d;
	double v;
	int i;

	if (!r || r->tick != tick || a->tick == tick)
		return;
	a->tick = tick;
	a->seen = true;
	acc_psi(a, r);
	if (rdelta(r, CGR_THROTTLE, r->cur.nr_throttled, r->prev.nr_throttled, &d)) {
		a->thr_periods += d;
		a->have_thr = true;
	}
	if (rdelta(r, CGR_THROTTLE, r->cur.throttled_us, r->prev.throttled_us, &d))
		a->thr_s += (double)d / 1e6;
	if (rdelta(r, CGR_OOM_KILL, r->cur.oom_kill, r->prev.oom_kill, &d)) {
		a->oom_kills += d;
		a->have_oom = true;
	}
	al = cgres_alerts(r);
	for (i = 0; i < 3; i++)
		a->alerts[i] += !!(al & (1u << i));
	a->mem = r->cur.have & CGR_MEM_CUR ? (double)r->cur.mem_cur : -1;
	a->mem_max = (r->cur.have & CGR_MEM_MAX) && r->cur.mem_max != CGR_UNLIMITED ?
		     (double)r->cur.mem_max : -1;
	a->cpu_limit = cgres_num(r, CGF_CPU_LIMIT, &v) ? v / 100.0 : -1;
}

void cgmetrics_tick(struct cgmetrics *c, const struct cgres_table *t, uint64_t tick)
{
	if (!c || t->sys.tick != tick || c->sys.tick == tick)
		return;
	c->sys.tick = tick;
	c->sys.seen = true;
	acc_psi(&c->sys, &t->sys);
}

void cgmetrics_begin(struct cgmetrics *c)
{
	int i;

	for (i = 0; i < CF_NR; i++)
		prom_family_begin(c->fam[i]);
}

void cgmetrics_add(struct cgmetrics *c, const char *group, const struct cgacc *a)
{
	const char *v[3] = { group };
	int i, k;

	if (!a || !a->seen)
		return;
	for (i = 0; i < CG_PSI_NR; i++)
		for (k = 0; k < 2; k++) {
			if (!a->have_psi[i][k])
				continue;
			v[1] = res_names[i];
			v[2] = kind_names[k];
			prom_family_add_double(c->fam[CF_PSI], v, a->psi_s[i][k]);
		}
	if (a->have_thr) {
		prom_family_add_u64(c->fam[CF_THR_P], v, a->thr_periods);
		prom_family_add_double(c->fam[CF_THR_S], v, a->thr_s);
	}
	if (a->have_oom)
		prom_family_add_u64(c->fam[CF_OOM], v, a->oom_kills);
	for (i = 0; i < 3; i++) {
		v[1] = alert_names[i];
		prom_family_add_u64(c->fam[CF_ALERTS], v, a->alerts[i]);
	}
	if (a->mem >= 0)
		prom_family_add_u64(c->fam[CF_MEM], v, (uint64_t)a->mem);
	if (a->mem_max >= 0)
		prom_family_add_u64(c->fam[CF_MEM_MAX], v, (uint64_t)a->mem_max);
	if (a->cpu_limit >= 0)
		prom_family_add_double(c->fam[CF_CPU_LIM], v, a->cpu_limit);
}

int cgmetrics_write(struct cgmetrics *c, const struct prom_out *o,
		    void (*dropped)(void *arg, const char *family, size_t n), void *arg)
{
	int i, k, r = 0, r2;

	for (i = 0; i < CG_PSI_NR && c->sys.seen; i++)
		for (k = 0; k < 2; k++)
			if (c->sys.have_psi[i][k])
				prom_family_add_double(c->fam[CF_SYS_PSI],
						       (const char *[]){ res_names[i], kind_names[k] },
						       c->sys.psi_s[i][k]);
	for (i = 0; i < CF_NR; i++) {
		r2 = prom_family_emit(c->fam[i], o);
		r = r ? r : r2;
		if (dropped)
			dropped(arg, defs[i].name, prom_family_dropped(c->fam[i]));
	}
	return r;
}
