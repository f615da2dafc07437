/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROCPARSE_H
#define KTOP_PROCPARSE_H

/*
 * Parsers of /proc files. Pure functions over a buffer: no I/O, no allocation, so
 * they can be unit-tested and fuzzed with hostile input (a comm with spaces, ')',
 * newlines; truncated or empty files; fields the running kernel lacks).
 * Each returns 0 on success or -EINVAL when the buffer is not a usable file.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../model/procdata.h"

int parse_pid_stat(const char *buf, size_t len, struct pid_stat *st);

int parse_pid_status(const char *buf, size_t len, struct pid_status *st);

#endif
