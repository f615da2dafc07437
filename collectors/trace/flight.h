/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FLIGHT_H
#define KTOP_FLIGHT_H

/*
 * collectors/trace/flight: the flight recorder's memory. Every sub-buffer ktop
 * reads from a tracefs instance of its own (instance_read_page: the counting
 * instance, the process view's) is also copied here, as read, undecoded,
 * into one byte ring of a fixed size (--flight SIZE); the oldest pages go
 * first when a new one needs room. Each page is kept with its buffer (the
 * instance) and CPU, and each (buffer, CPU) stream is linked in read order,
 * which is its time order: a save walks one stream at a time (flight_walk)
 * and gets the pages trace.dat wants (store/tracedat.h), whole sub-buffers,
 * the partly filled ones read at each tick merged into as few as fit.
 *
 * The decoders are not involved: keeping a page is a copy of its used bytes
 * (header and records), nothing else.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct flight;

/* Instances that may give pages: the counting instance and the process view's. */
#define FLIGHT_BUFFERS 4

struct flight_stats {
	size_t cap;		/* bytes of the ring */
	size_t used;		/* bytes held now (pages and their headers) */
	uint64_t pages;		/* pages kept since the start */
	uint64_t dropped;	/* pages dropped for room, oldest first */
	uint64_t bytes;		/* bytes of pages kept since the start */
	uint64_t oldest_ns;	/* CLOCK_MONOTONIC when the oldest page held now was kept; 0: none */
	uint64_t held_back;	/* pages not kept: half the ring came after a save was asked for */
};

/* A ring of @cap bytes (at least FLIGHT_MIN). Free with flight_free. */
#define FLIGHT_MIN (1024 * 1024)
struct flight *flight_new(size_t cap);
void flight_free(struct flight *fl);
void flight_get_stats(const struct flight *fl, struct flight_stats *st);

/*
 * flight_buffer - the buffer of instance @name (made at the first call for
 * a name, the same one again when the instance is made again)
 * @clock: its trace clock; @page_size: bytes of one of its sub-buffers
 * @header_page: its events/header_page (the sub-buffer's layout), copied
 * @events: the {system, event} pairs it records
 *
 * Returns its index, or -1 when FLIGHT_BUFFERS are taken (its pages are not
 * kept). The first buffer is the file's main one (trace.dat's top buffer).
 */
int flight_buffer(struct flight *fl, const char *name, const char *clock, int page_size,
		  int ncpus, const char *header_page, size_t header_len,
		  const char *const (*events)[2], size_t nevents);
/* Buffer @buf's trace clock is now @clock (the kernel emptied its buffers). */
void flight_buffer_clock(struct flight *fl, int buf, const char *clock);

/*
 * flight_hold - the pages that begin at @from_ts (the main buffer's clock)
 * or later take at most half the ring from now on, the others not kept
 * (counted in held_back); earlier ones, still coming (read late from the
 * kernel's buffers), are kept as always. A save asked for at @from_ts keeps
 * the moment it was asked at, whatever comes before it is written. Off
 * again with @on false.
 */
void flight_hold(struct flight *fl, bool on, uint64_t from_ts);

/* Keep the sub-buffer @page of @len bytes (as instance_read_page read it) of @buf's CPU @cpu. */
void flight_keep(struct flight *fl, int buf, int cpu, const void *page, size_t len);

/*
 * flight_clock_offset - the main buffer's clock minus CLOCK_MONOTONIC, in ns,
 * now (@ok false: not known, or not a clock in ns). Pages of a buffer on
 * clock "mono" kept from now on are moved by it when saved: the file has one
 * time line, the main buffer's trace clock.
 */
void flight_clock_offset(struct flight *fl, int64_t off_ns, bool ok);

/* What a save writes of each buffer. */
struct flight_buffer_info {
	const char *name;	/* "" for the main buffer (trace.dat's top buffer) */
	const char *instance;	/* its tracefs instance */
	const char *clock;	/* the clock its stamps are in, as saved */
	int page_size, ncpus;
	const char *header_page;
	size_t header_len;
	const char *const (*events)[2];
	size_t nevents;
};
size_t flight_nbuffers(const struct flight *fl);
void flight_buffer_info(const struct flight *fl, size_t buf, struct flight_buffer_info *out);

/*
 * A save's walk over the pages held when it began (the ring does not change
 * under it: it runs on the loop, between two reads).
 */
struct flight_walk;
struct flight_walk *flight_walk_begin(struct flight *fl);
/*
 * flight_walk_page - the next page of @buf's CPU @cpu, @page_size bytes
 * (padded with zeros), valid until the next call; NULL at the end.
 * Consecutive pages that fit in one (a tick's partly filled ones) come as
 * one, joined by a time extend record; a page after lost events starts
 * its own. Every record's writer (common_pid) is noted for flight_walk_pids.
 */
const void *flight_walk_page(struct flight_walk *w, size_t buf, int cpu);
/*
 * The pids the pages walked so far name (the records' writers, and the
 * tasks sched_switch and task_newtask name), each with the name the last
 * such record gave it ("" when none did), ascending. *@comms: 16 bytes a
 * pid. Valid until flight_walk_end.
 */
size_t flight_walk_pids(struct flight_walk *w, const pid_t **pids, const char (**comms)[16]);
/* Pages of the walk that were merged into others, and the pages returned. */
void flight_walk_counts(const struct flight_walk *w, uint64_t *in, uint64_t *out);
void flight_walk_end(struct flight_walk *w);

/*
 * The event names of a sched_switch and task_newtask record, for the walk:
 * @format is the event's format file. Called by flight_walk_begin's caller
 * before the walk (no I/O here): 0, or -EINVAL when it cannot be parsed.
 */
int flight_walk_learn(struct flight_walk *w, const char *system, const char *event,
		      const char *format, size_t len);

#endif
