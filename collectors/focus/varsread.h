/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_VARSREAD_H
#define KTOP_VARSREAD_H

/*
 * Reading the snapshot variables (model/vars.h's catalog) from /proc: the
 * descriptors of a focused process and of the system files, opened once and
 * re-read with pread at each sampling.
 */

#include <stdint.h>
#include <sys/types.h>

#include "../../model/vars.h"

/* The /proc files of one process, opened once. */
struct varsread_proc {
	pid_t pid;
	int fd[VS_NR];		/* only the per-process sources; -1 = closed */
};

/* The system files, opened once for all processes. */
struct varsread_sys {
	int fd[VS_NR];
};

/* Open the descriptors; returns 0 or -errno (the process is gone). */
int varsread_proc_open(struct varsread_proc *p, int procdir_fd, pid_t pid);
void varsread_proc_close(struct varsread_proc *p);
int varsread_sys_open(struct varsread_sys *s, int procdir_fd);
void varsread_sys_close(struct varsread_sys *s);

/*
 * varsread_sample - read the sources now
 * @now_ns: CLOCK_MONOTONIC after the reads: each source's read time
 *
 * A source that cannot be read leaves its variables out of @out->have. Returns
 * 0, or -ESRCH when the process's files say it is gone.
 */
int varsread_sample(struct varsread_proc *p, struct varsread_sys *s, uint64_t now_ns,
		struct var_sample *out);

/* Pure parsing of the sources (unit-tested): fill @out's variables of @src. */
void varsread_parse(enum var_src src, const char *buf, size_t len, struct var_sample *out);

#endif
