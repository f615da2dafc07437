/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SYSPARSE_H
#define KTOP_SYSPARSE_H

/*
 * Parsers of the system-wide /proc files. Pure functions over a buffer, like
 * the per-process ones in procfs.h: unit-tested and fuzzed. Return 0 or -EINVAL.
 */

#include <stddef.h>
#include <stdint.h>

#include "../../model/procdata.h"

#define SYS_MAX_CPUS 1024

int sysparse_sys_stat(const char *buf, size_t len, struct sys_stat *st);

int sysparse_meminfo(const char *buf, size_t len, struct sys_mem *m);

int sysparse_vmstat(const char *buf, size_t len, struct sys_vm *v);

int sysparse_loadavg(const char *buf, size_t len, struct sys_load *l);
int sysparse_uptime(const char *buf, size_t len, double *uptime_s);

/*
 * The trace clock's time now from a tracefs per_cpu/cpuN/stats file, "now ts:":
 * "S.UUUUUU" (seconds and rounded microseconds: a clock in ns; @raw in ns)
 * or a count (x86-tsc, counter: @raw that count). @in_ns says which.
 */
int sysparse_trace_now_ts(const char *buf, size_t len, uint64_t *raw, int *in_ns);
/*
 * Does debugfs's sched/debug say sched_clock() is stable (kept synchronized
 * across CPUs)? Its header's "sched_clock_stable()" line: 1 or 0; a kernel
 * whose sched_clock cannot be unstable prints no such line: 1. -EINVAL when
 * the text is not that file's.
 */
int sysparse_sched_clock_stable(const char *buf, size_t len);

#endif
