/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGPARSE_H
#define KTOP_CGPARSE_H

/*
 * collectors/cgroup/cgparse: the cgroup files' text, parsed (pure, fuzzed:
 * tests/fuzz/fuzz_cgparse.c): pressure totals, keyed counters, limits, cpu.max.
 * Read by collectors/cgroup/cgfiles.c and cgcpu.c into model/cgres.h's types.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../model/cgres.h"

/*
 * cgparse_psi - a pressure file ("some avg10=... total=N\nfull ... total=N"):
 * the totals into *@some and *@full. Returns the lines found: 1 some, 2 full.
 */
unsigned cgparse_psi(const char *buf, size_t n, uint64_t *some, uint64_t *full);
/* The value of line "@key N" of a flat keyed file (cpu.stat, memory.events, oom_control). */
bool cgparse_key(const char *buf, size_t n, const char *key, uint64_t *v);
/*
 * A one-number file: "N", "max" or "-1" (CGR_UNLIMITED); a v1 byte limit of
 * 2^62 or more (the kernel's PAGE_COUNTER_MAX in bytes) is no limit either.
 */
bool cgparse_limit(const char *buf, size_t n, uint64_t *v);
/* cpu.max: "QUOTA PERIOD" or "max PERIOD". */
bool cgparse_cpu_max(const char *buf, size_t n, uint64_t *quota, uint64_t *period);

#endif
