/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TRACE_H
#define KTOP_TRACE_H

/*
 * collectors/instance: ktop's own tracefs instance, "ktop-<pid>", the only place
 * ktop writes in tracefs. Like rtla: created with tracing off, configured,
 * started last, destroyed on every exit path (trace_close). A crash stops
 * tracing from its signal handler (trace_emergency_stop) but leaves the
 * instance; instances left by a ktop that crashed or was killed are removed at
 * the next start; nothing else is touched.
 *
 * Reading: one non-blocking trace_pipe_raw descriptor per CPU, wrapped in a
 * tracefs_cpu and read with splice (tracefs_cpu_buffered_read) in whole
 * sub-buffers; the partly filled last page is read with tracefs_cpu_flush at
 * each tick. The descriptors are poll()ed by the main loop: the kernel wakes it
 * when a buffer is buffer_percent full.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pollfd;

struct trace;

struct trace_config {
	const char *const (*events)[2];	/* {system, event} pairs to enable */
	size_t nevents;
	size_t buffer_kb;	/* per CPU; 0 = chosen from memory and CPU count */
	unsigned buffer_percent;
	const pid_t *pids;	/* non-NULL: only these (and, with follow, children) */
	size_t npids;
	bool follow_forks;
	/*
	 * NULL: ktop's main instance "ktop-<pid>-<start>" (<start>: ktop's start
	 * time in clock ticks since boot, /proc/PID/stat field 22). A suffix
	 * names a second one, "ktop-<pid>-<start><suffix>" (the focus view's
	 * "-f"): removed as stale like the main one once its maker is gone.
	 */
	const char *name_suffix;
	const char *clock;	/* trace_clock to select (e.g. "mono"); NULL = default */
};

/*
 * trace_parse_name - read an instance name of ktop's
 * Returns 0 for ktop-PID-START[-f], 1 for an older ktop's ktop-PID[-f] (@start
 * 0), -1 for a name that is not ktop's.
 */
int trace_parse_name(const char *name, pid_t *pid, uint64_t *start, bool *focus);

/*
 * trace_maker_alive - may the ktop that made an instance still run?
 * @format: trace_parse_name's result; @exists: a process has the pid now,
 * started at @now_start. Boot-relative times only: no clock step fools it.
 */
bool trace_maker_alive(int format, uint64_t start, bool exists, uint64_t now_start);

/*
 * trace_open - create, configure and start ktop's instance
 * @why: on failure, a one-line reason for the header ("needs root ...")
 *
 * Events that this kernel lacks are skipped and named in @missing (may be "").
 * Returns 0 or -errno; on failure nothing is left behind.
 */
int trace_open(const struct trace_config *cfg, struct trace **out, char *why, size_t whylen,
	       char *missing, size_t missinglen);
/* Stop tracing, close every descriptor and remove the instance. NULL is fine. */
void trace_close(struct trace *t);
/*
 * From a crash's signal handler: stop tracing, async-signal-safe calls only. The
 * instance stays (see instance.c) for the next ktop to remove.
 */
void trace_emergency_stop(void);
/*
 * trace_emergency_stop, then the instances removed: async-signal-safe, for a
 * caller that has closed every descriptor of the process (no splice pipe may
 * hold their pages; see trace_emergency_stop).
 */
void trace_emergency_remove(void);

/* The text of a file under events/ (header_page, SYS/EVENT/format); malloc'ed. */
char *trace_read_format(const char *rel, size_t *len);
/* Was the event enabled (present on this kernel)? */
bool trace_event_on(const struct trace *t, size_t i);
/* Disable event @i (@sys:@ev) again: ktop cannot decode it (its format is unreadable). */
void trace_event_off(struct trace *t, size_t i, const char *sys, const char *ev);

int trace_ncpus(const struct trace *t);
/* The descriptor to poll for CPU @i (readable: the buffer is partly full). */
int trace_cpu_fd(const struct trace *t, int i);
/* Fill @pfd with the CPUs' descriptors (POLLIN); returns how many, at most @max. */
size_t trace_pollfds(const struct trace *t, struct pollfd *pfd, size_t max);
int trace_page_size(const struct trace *t);
/*
 * Read the next sub-buffer of CPU @i into @page (trace_page_size bytes).
 * @flush: also the partly filled page the writer is on (at a tick).
 * Returns its size, 0 when there is nothing more now, or -errno.
 */
int trace_read_page(struct trace *t, int i, void *page, bool flush);
/* Events the kernel dropped or overwrote, all CPUs, since the start. */
uint64_t trace_lost(struct trace *t);
size_t trace_buffer_kb(const struct trace *t);

#endif
