/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_VARS_H
#define KTOP_VARS_H

/*
 * model/vars: the variables of a snapshot (the Ktrace thesis's "system
 * state at an event"): the variable catalog, sampling, and what changed.
 *
 * Each variable is a row of the catalog (vars.c): name, unit, source, where in
 * the source it is, how to render it. Two kinds of source, and the snapshot
 * says which:
 *  - exact: read from the event itself (the thread, the last switch's tasks,
 *    the last signal): true at the event;
 *  - sampled: read from /proc through descriptors kept open (pread at offset
 *    0, like collectors/proc/procfs.c), at most once per tick per process, when
 *    ktop reads the events; each sample records when each file was read, so a
 *    value is shown with the time it was true, not the event's.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kev.h"

enum var_id {
	/* process */
	VAR_PID, VAR_TID, VAR_PPID, VAR_PGID, VAR_UID, VAR_STATE, VAR_MINFLT, VAR_MAJFLT,
	VAR_VCSW, VAR_IVCSW, VAR_RSS, VAR_THREADS, VAR_SIGBLK,
	/* system */
	VAR_MEMFREE, VAR_MEMTOTAL, VAR_PGFAULT, VAR_PGPGIN, VAR_PGPGOUT, VAR_PSWPIN,
	VAR_PSWPOUT, VAR_SW_OUT, VAR_SW_IN, VAR_LASTSIG,
	VAR_NR
};

/* Where a variable's value comes from. */
enum var_src {
	VS_EVENT,	/* the event record (exact) */
	VS_STAT,	/* /proc/PID/stat */
	VS_STATUS,	/* /proc/PID/status */
	VS_MEMINFO,	/* /proc/meminfo */
	VS_VMSTAT,	/* /proc/vmstat */
	VS_NR
};

/* One sampling of the /proc sources, shared by the events read with it. */
struct var_sample {
	uint64_t read_ns[VS_NR];	/* CLOCK_MONOTONIC when each was read; 0 = not read */
	int64_t v[VAR_NR];
	uint32_t have;			/* bit per var_id */
};

/* A snapshot: an event and the sample read with it. */
struct var_snap {
	int64_t v[VAR_NR];
	uint32_t have;
	uint64_t at_ns[VAR_NR];		/* when each value was true: the event's or the read's */
};

const char *vars_name(enum var_id v);
const char *vars_unit(enum var_id v);
enum var_src vars_source(enum var_id v);
/* "event", "/proc/PID/stat", ... */
const char *vars_source_name(enum var_src s);
bool vars_is_system(enum var_id v);
/* The value as text ("12345 kB", "S", "SIGUSR1", "1234"). */
char *vars_format(enum var_id v, int64_t val, char *buf, size_t n);

/*
 * vars_take - the catalog's variables of source @src from its parsed reading
 * @parsed: a struct pid_stat, pid_status, sys_mem or sys_vm (model/procdata.h)
 *
 * Sets the values and their @out->have bits; variables with a key (vars_key)
 * are the reader's to find.
 */
void vars_take(enum var_src src, const void *parsed, struct var_sample *out);
/* The line key of a variable no parser reads ("SigBlk:"), or NULL. */
const char *vars_key(enum var_id v);

/* The snapshot at @e with the sample @s (NULL: only the exact variables). */
void vars_snap(const struct kev *e, pid_t pid, const struct var_sample *s, struct var_snap *out);

/*
 * vars_changed - what changed from @prev to @cur ("only what changed")
 *
 * A bit per var_id that both snapshots have with different values. Variables
 * only one of them has are not "changed": nothing is known about them.
 */
uint32_t vars_changed(const struct var_snap *prev, const struct var_snap *cur);

#endif
