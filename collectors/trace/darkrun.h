/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_DARKRUN_H
#define KTOP_DARKRUN_H

/*
 * collectors/trace/darkrun: the scheduler's run time of the dark threads
 * (evdark.c: their switch-outs are not written), from /proc/TID/schedstat,
 * read at each cut so that the interval's states can give them their runs.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "evsums.h"

#define DARKRUN_MAX 64		/* threads read at a tick, at most: a pread each */
#define DARKRUN_SCAN_MAX 2048	/* threads read as tracing begins, at most (darkrun_start) */

struct darkrun {
	struct darkrun_thread {
		pid_t tid;
		int fd;			/* /proc/TID/schedstat */
		uint64_t last;		/* its run time at the last read (ns) */
	} t[DARKRUN_MAX];
	size_t n;
	/* Every thread's run time when tracing began, by tid (darkrun_start). */
	struct darkrun_base {
		pid_t tid;
		uint64_t run;
	} *base;
	size_t nbase;
	bool scan_skipped;	/* more threads than DARKRUN_SCAN_MAX: no run times then */
	uint64_t refused;	/* dark threads not read (past DARKRUN_MAX, no schedstat) */
};

/*
 * darkrun_start - every thread's run time now (one pass over
 * /proc/PID/task/TID/schedstat, as tracing begins, when there are at most
 * DARKRUN_SCAN_MAX), and @a's reader: a thread found dark later gets its
 * run since then, the first time.
 */
void darkrun_start(struct darkrun *d, struct evsums *a);
/*
 * darkrun_read - at the cut: each dark thread's run time since the last cut
 * told to @a (evsums_dark_run); a thread gone or no longer dark is dropped.
 */
void darkrun_read(struct darkrun *d, struct evsums *a);
void darkrun_free(struct darkrun *d);

#endif
