/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FLIGHTCTL_H
#define KTOP_FLIGHTCTL_H

/*
 * src/flightctl: the flight recorder, wired. The ring (collectors/trace/flight.h)
 * is made before tracing starts and given to both instances; a save is
 * asked for by SIGUSR2, the W key or a --trigger, and written at the first
 * tick --flight-after seconds later (a tick has read every page up to it)
 * as a trace.dat (store/tracedat.h) in --flight-dir; its path goes to
 * stderr or the live view's message line, and into the recording (-w).
 */

#include <stdbool.h>
#include <stdint.h>

/* --flight's default: see flightctl.c. */
#define FLIGHT_DEFAULT (64ull << 20)

struct ktop;
struct procfs_need;
struct flight;

/* The ring for the instances (NULL: --flight 0, or tracing not asked for). */
struct flight *flightctl_start(struct ktop *k);
/* Tracing started, and at each tick: the main clock's offset for the other buffers' pages. */
void flightctl_clock(struct ktop *k);
/* A save is asked for (@why: "SIGUSR2", "the W key"): said if the recorder is off. */
void flightctl_request(struct ktop *k, const char *why);
/* The sink: the clock offset, the triggers, a save that is due. -1. */
int flightctl_interval(struct ktop *k);
void flightctl_needs(const struct ktop *k, struct procfs_need *need);
/* A save asked for is written now, with what is kept (no tick will come: paused). */
void flightctl_now(struct ktop *k);
/* Before tracing stops: a save still waiting is written now (its line on stderr, at exit). */
void flightctl_finish(struct ktop *k);
void flightctl_free(struct ktop *k);
/* Saved files and their bytes (the exporter's health family). */
void flightctl_counts(const struct ktop *k, uint64_t *files, uint64_t *bytes);
/* KTOP_STATS: one line. */
void flightctl_print_stats(const struct ktop *k);

#endif
