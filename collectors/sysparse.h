/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SYSPARSE_H
#define KTOP_SYSPARSE_H

/*
 * Parsers of the system-wide /proc files. Pure functions over a buffer, like
 * the per-process ones in procfs.h: unit-tested and fuzzed. Return 0 or -EINVAL.
 */

#include <stddef.h>
#include <stdint.h>

#include "../model/procdata.h"

#define SYS_MAX_CPUS 1024

int parse_sys_stat(const char *buf, size_t len, struct sys_stat *st);

int parse_meminfo(const char *buf, size_t len, struct sys_mem *m);

int parse_vmstat(const char *buf, size_t len, struct sys_vm *v);

int parse_loadavg(const char *buf, size_t len, struct sys_load *l);
int parse_uptime(const char *buf, size_t len, double *uptime_s);

#endif
