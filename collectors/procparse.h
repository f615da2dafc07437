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

#define PROC_COMM_MAX 64	/* TASK_COMM_LEN is 16; kernel threads' names can be 64 */

/* What ktop takes from /proc/PID/stat (and /proc/PID/task/TID/stat). */
struct pid_stat {
	pid_t pid;
	char comm[PROC_COMM_MAX];	/* raw bytes, NUL-terminated; sanitize to print */
	char state;
	pid_t ppid, pgid, sid;
	int tty_nr;
	uint64_t minflt, majflt;	/* whole process (dead threads included) */
	uint64_t utime, stime;		/* clock ticks, whole process */
	int64_t priority, nice;
	uint64_t num_threads;
	uint64_t starttime;		/* clock ticks after boot: identity of a pid */
	uint64_t vsize;			/* bytes */
	uint64_t rss;			/* pages */
	int processor;			/* -1 when the kernel lacks the field */
};

int parse_pid_stat(const char *buf, size_t len, struct pid_stat *st);

/* What ktop takes from /proc/PID/status. Missing lines leave fields at -1/0. */
struct pid_status {
	int64_t tgid;		/* -1 if absent */
	int64_t uid;		/* effective uid, -1 if absent */
	int64_t vcsw;		/* voluntary_ctxt_switches, -1 if absent */
	int64_t ivcsw;		/* nonvoluntary_ctxt_switches, -1 if absent */
};

int parse_pid_status(const char *buf, size_t len, struct pid_status *st);

#endif
