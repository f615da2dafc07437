/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FLIGHTSAVE_H
#define KTOP_FLIGHTSAVE_H

/*
 * collectors/flightsave: what a flight recorder's save reads besides the
 * pages (collectors/flight.h): the event formats of the buffers' events and
 * of ftrace's own, header_event, the main instance's trace_clock and per-CPU
 * stats; and the kernel's OOM kill count, for the "oom" trigger.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct flight;

struct flight_fmt {
	char *system, *name;
	char *text;
	size_t len;
};

struct flight_meta {
	char *header_event;
	size_t header_event_len;
	struct flight_fmt *ftrace;	/* events/ftrace/'*'/format */
	size_t nftrace;
	struct flight_fmt *events;	/* every buffer's events, sorted by system */
	size_t nevents;
	char *trace_clock;		/* the main instance's trace_clock file; NULL: unread */
	char **cpustats;		/* "CPU: N\n" and the main instance's per_cpu/cpuN/stats */
	size_t ncpustats;
};

/* Read what @fl's buffers need. 0, or -errno (header_event unreadable). Free with flight_meta_free. */
int flight_meta_read(const struct flight *fl, struct flight_meta *m);
void flight_meta_free(struct flight_meta *m);

/*
 * --flight's default: @want, but at most 1/32 of the memory available now
 * (/proc/meminfo MemAvailable; the ring buffers take up to 1/64), at least
 * FLIGHT_MIN.
 */
size_t flight_default_size(size_t want);
/* The OOM kills since boot (/proc/vmstat oom_kill): 0, or -errno. */
int flight_oom_kills(uint64_t *n);
/* /proc/@pid/comm into @comm (NUL-terminated); false when it cannot be read. */
bool flight_proc_comm(pid_t pid, char comm[16]);

#endif
