/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SYSTEM_H
#define KTOP_SYSTEM_H

/*
 * collectors/system/system: the header's numbers from /proc/stat, /proc/meminfo,
 * /proc/vmstat, /proc/loadavg and /proc/uptime, each through one descriptor
 * opened once and re-read with pread (like procps's meminfo).
 */

#include "../../model/sample.h"

struct sysfiles;

/* @procdir: "/proc" or a test directory. Returns 0 or -errno; *out is the caller's. */
int system_new(const char *procdir, struct sysfiles **out);
void system_free(struct sysfiles *s);
/* Read every file into @out->sys; a file that cannot be read leaves its have_ flag off. */
void system_collect(struct sysfiles *s, struct sample *out);

#endif
