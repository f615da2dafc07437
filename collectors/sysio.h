/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SYSIO_H
#define KTOP_SYSIO_H

/*
 * The clocks and one-off file reads: the few system calls that are not a
 * collector's own reading, kept out of the pure model/util.h.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Monotonic time in nanoseconds: every interval and rate is measured on it. */
uint64_t now_mono_ns(void);
/* Wall-clock time in seconds with fraction, for batch timestamps. */
double now_wall_s(void);

/*
 * Read a small file whole, once (open, read, close), into @buf, NUL-terminated:
 * for files read rarely. Persistent descriptors are for those read every tick.
 * Returns the length or -1.
 */
ssize_t read_small_file(const char *path, char *buf, size_t size);

#endif
