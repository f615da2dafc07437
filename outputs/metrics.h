/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_METRICS_H
#define KTOP_METRICS_H

/*
 * outputs/metrics: the exporter's sink (--listen, --textfile). After each
 * tick (the model applied), metrics_tick adds every task's counts within the
 * interval (its deltas, its event counts, its per-syscall and per-errno
 * tables), the rows of processes that exited in the interval included, to
 * per-group counters that live as long as ktop. So a group's counter keeps
 * what its processes did after they are gone, and a scrape that comes after
 * a process was born and exited still sees its calls. metrics_render writes
 * the families from those counters at scrape time (promtext.h): no work per
 * event, and a scrape costs the same however many ticks went by.
 *
 * Groups are keyed as the views group (lib/cgroup.h: comm, user, unit,
 * container, cgroup). At most max_series groups are kept; the processes of
 * any later group count in the group "other" (and metrics_render says how
 * many group names were folded so: ktop_metrics_dropped_groups). A group
 * none of whose tasks was read for expire_s leaves (its slot free for a new
 * name). The slots are shared out per user (the uid of the task that made
 * the group): every slot taken, a new group of a user with two groups fewer
 * than the user with the most takes a slot of the latter's (one with no
 * process alive, else its newest), so that one user's churn of new names
 * cannot keep another's processes in "other" (max-min fairness; man ktop,
 * --metrics-max-series). "other" names only the overflow: a group of that name is written
 * "[other]" (and "[other]" "[[other]]", and so on). Each family
 * is capped again at max_series series by the writer, the rest summed into
 * an "other" series (ktop_metrics_dropped_series).
 *
 * What cannot be exact is left out rather than guessed: the first tick is
 * the baseline (no counts); a task whose counter is not known this interval
 * (another user's events when ktop is not root, a /proc value that went
 * down) adds nothing for it; a process whose /proc files are gone before a
 * tick read them (it exited) adds its events (tracing sees them) but not the
 * CPU time, faults (or, without tracing, switches) of its last interval.
 *
 * Pure: no I/O. One per exporter; not thread-safe.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "promtext.h"
#include "../lib/cgroup.h"
#include "../model/model.h"

/* --metrics-max-series's default: series per family, and groups kept. */
#define METRICS_MAX_SERIES_DEFAULT 4000
/* --metrics-expire's default, seconds. */
#define METRICS_EXPIRE_DEFAULT 300.0

struct metrics_opts {
	enum cgroup_group_by by;	/* --metrics-group-by */
	size_t max_series;		/* 0: METRICS_MAX_SERIES_DEFAULT */
	double expire_s;		/* a group with no task read this long leaves; 0: never */
};

/* ktop's own state at a scrape, from the program (src/). */
struct metrics_health {
	bool tracing;			/* counting kernel events now */
	/*
	 * Why not, or what is missing, as one of a fixed set of words
	 * (metrics_tracing_causes): a label value, so never the sentence, which
	 * goes to stderr and the header. NULL: "none".
	 */
	const char *cause;
	const char *clock;		/* the trace clock ("local", "mono"...); NULL: "" */
	bool have_events;		/* a collector has decoded events (tracing ran) */
	uint64_t events;		/* events decoded since start */
	bool have_http;			/* --listen: the HTTP server's numbers below */
	uint64_t scrapes;		/* /metrics answered */
	double last_scrape_s;		/* the previous /metrics request's handling time */
	bool have_rw;			/* --remote-write: its numbers below */
	uint64_t rw_sent, rw_dropped;	/* samples accepted by receivers; dropped */
	uint64_t rw_queue_bytes;	/* held for receivers now */
	bool have_flight;		/* the flight recorder keeps events: its saves below */
	uint64_t flight_files, flight_bytes;	/* trace.dat files saved, their bytes */
};

struct metrics;

/* The values ktop_tracing_info's cause label takes, NULL-terminated. */
extern const char *const metrics_tracing_causes[];

/* Make the sink and its families. NULL with a reason in @err (ENOMEM). */
struct metrics *metrics_new(const struct metrics_opts *o, char *err, size_t errlen);
void metrics_free(struct metrics *mx);

/*
 * What /proc must read for every task (NEED_* of tables/columns.h) for the
 * groups and counters: the cgroup when grouping by it, the status (context
 * switches) when events do not count them.
 */
unsigned metrics_needs(const struct metrics *mx, const struct model *m);

/* Add the tick's counts to the groups; call once per tick, after model_apply's end. */
void metrics_tick(struct metrics *mx, const struct model *m);

/*
 * Write every family into @out (reset first) in @fmt, ending in "# EOF" in
 * OpenMetrics. Returns 0, or -ENOMEM (@out->nomem: do not serve it).
 */
int metrics_render(struct metrics *mx, const struct metrics_health *h, enum prom_format fmt,
		   struct prom_buf *out);
/*
 * The same to @o (promtext.h): its text (reset first), if any, and each
 * sample to its encoder (a push: outputs/rwproto.h), from one rendering.
 * Returns 0, -ENOMEM, or the encoder's first error.
 */
int metrics_emit(struct metrics *mx, const struct metrics_health *h, const struct prom_out *o);

/* For tests: the groups kept (the "other" group included once made). */
size_t metrics_ngroups(const struct metrics *mx);
/* What the metrics group by (--metrics-group-by): their cgroups are read when no view says. */
enum cgroup_group_by metrics_group_by(const struct metrics *mx);

#endif
