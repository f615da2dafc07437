/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROCIO_H
#define KTOP_PROCIO_H

/*
 * collectors/proc/procio: /proc/PID/io, the bytes a task caused to be read from
 * and written to storage (the kernel's task I/O accounting).
 *
 * read_bytes is counted when the block layer is asked for the data
 * (submit_bio); write_bytes when a page-cache page is first dirtied (or a
 * direct write is submitted), whether or not it is ever written back;
 * cancelled_write_bytes is what a truncate then discarded. A process's file
 * sums its live threads and those that exited. Reading another user's file
 * needs ptrace access (root, or the same user): else it is not known.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fdcache.h"

struct procio {
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
};

/*
 * procio_parse - the byte counters of a /proc/PID/io buffer (not
 * NUL-terminated). Pure: no I/O. Returns 0, or -EINVAL when read_bytes or
 * write_bytes is missing or not a number.
 */
int procio_parse(const char *buf, size_t len, struct procio *io);

/*
 * procio_read - read @dir/io ("PID" or "PID/task/TID", relative to /proc)
 * through @pf, a kept descriptor of @fc opened at the first read. Returns 0
 * or -errno (the task is gone, or its file may not be read).
 */
int procio_read(struct fdcache *fc, struct pfile *pf, const char *dir, struct procio *io);

#endif
