/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FLIGHTSAVE_H
#define KTOP_FLIGHTSAVE_H

/*
 * collectors/trace/flightsave: what a flight recorder's save reads besides the
 * pages (collectors/trace/flight.h): the event formats of the buffers' events and
 * of ftrace's own, header_event, the main instance's trace_clock and per-CPU
 * stats; the walk over the pages a save writes (flightsave_begin), with the
 * names of the pids they name; and the kernel's OOM kill count, for the
 * "oom" trigger.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "flight.h"

struct flightsave_fmt {
	char *system, *name;
	char *text;
	size_t len;
};

struct flightsave_meta {
	char *header_event;
	size_t header_event_len;
	struct flightsave_fmt *ftrace;	/* events/ftrace/'*'/format */
	size_t nftrace;
	struct flightsave_fmt *events;	/* every buffer's events, sorted by system */
	size_t nevents;
	char *trace_clock;		/* the main instance's trace_clock file; NULL: unread */
	char **cpustats;		/* "CPU: N\n" and the main instance's per_cpu/cpuN/stats */
	size_t ncpustats;
};

/* Read what @fl's buffers need. 0, or -errno (header_event unreadable). Free with flightsave_meta_free. */
int flightsave_meta_read(const struct flight *fl, struct flightsave_meta *m);
void flightsave_meta_free(struct flightsave_meta *m);

/*
 * --flight's default: @want, but at most 1/32 of the memory available now
 * (/proc/meminfo MemAvailable; the ring buffers take up to 1/64), at least
 * FLIGHT_MIN.
 */
size_t flightsave_default_size(size_t want);
/* The OOM kills since boot (/proc/vmstat oom_kill): 0, or -errno. */
int flightsave_oom_kills(uint64_t *n);
/*
 * A save's name of @pid, by the caller (ktop's process table, the events'
 * threads): NULL when it has none. @seen: the name the pages gave it, "" if
 * none did.
 */
typedef const char *(*flightsave_comm_fn)(void *arg, pid_t pid, const char *seen);

/*
 * struct flightsave - one save's reading of the ring, from flightsave_begin
 * to flightsave_end: what the file's writer (store/tracedat.h) is given.
 * @meta: the formats and the main instance's files; @buf: each buffer's
 * layout (@nbuffers); @page and @cmdlines, called with @arg: the pages of a
 * buffer's CPU in time order, then the pids they named with their names
 * (the caller's @comm first, then the pages', then /proc/PID/comm), one
 * "PID NAME" line each (malloc'ed, the writer frees it). The rest is the
 * walk's.
 */
struct flightsave {
	struct flightsave_meta meta;
	struct flight_buffer_info buf[FLIGHT_BUFFERS];
	size_t nbuffers;
	const void *(*page)(void *arg, size_t buf, int cpu);
	char *(*cmdlines)(void *arg, size_t *len);
	void *arg;
	struct flight_walk *walk;
	flightsave_comm_fn comm;
	void *comm_arg;
};

/*
 * flightsave_begin - read what @fl's save needs and begin its walk (the
 * ring does not change under it: the loop runs neither read nor tick until
 * flightsave_end). 0, or -errno (the formats unreadable: nothing to end).
 */
int flightsave_begin(struct flightsave *s, struct flight *fl, flightsave_comm_fn comm, void *arg);
/* The walk ended: *@pages_in of its pages were merged into *@pages_out; @s freed. */
void flightsave_end(struct flightsave *s, uint64_t *pages_in, uint64_t *pages_out);

#endif
