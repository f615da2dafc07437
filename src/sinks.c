// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sinks: where each applied interval goes. Every interval the sources
 * produce reaches every sink of one list, whatever asked for it: the tick,
 * a key that collects at once (resume, a signal sent, a sort by a status
 * column, threads on or off), the end of CMD. In order: the recorder (-w),
 * the exporter (--listen, --textfile), then the mode's own (the live view
 * draws, the batch writer writes; --summary writes only at the end). Each
 * says what it needs read from /proc beyond stat, and whether it takes a
 * replayed interval (ktop -r: a tick, a step or a jump in the recording).
 */
#include <stdio.h>
#include <time.h>

#include "../collectors/proc/procfs.h"
#include "../lib/util.h"
#include "../outputs/metrics.h"
#include "../views/view.h"
#include "flightctl.h"
#include "ktop.h"

struct sink {
	const char *name;
	/* What it needs read beyond stat this interval, added to @need. */
	void (*needs)(const struct ktop *k, struct procfs_need *need);
	/* The interval just applied: -1 goes on, else ktop's exit status. */
	int (*interval)(struct ktop *k);
	/* It takes the intervals of a replay (-r), not only the live system's. */
	bool replayed;
};

/*
 * A recording stores who each process is (its command line and cgroup once a
 * life) and its disk bytes: who wrote the disk is asked of the past too.
 */
static void recorder_needs(const struct ktop *k, struct procfs_need *need)
{
	if (!k->rec)
		return;
	need->all |= NEED_CGROUP | NEED_IO;
	need->first |= NEED_CMDLINE;
}

void sinks_record_notices(struct ktop *k)
{
	const char *line;

	while (k->rec && (line = record_notice(k->rec)) != NULL) {
		if (k->mode->screen)
			app_message(&k->app, "%s", line);
		else
			fprintf(stderr, "ktop: %s\n", line);
	}
}

/* -w: the interval into the recording. A failure stops recording, not ktop. */
static int recorder_interval(struct ktop *k)
{
	char err[640];
	struct timespec t0, t1;
	int ret;

	if (!k->rec)
		return -1;
	/* Its own CPU time, for KTOP_STATS: the recorder's share of a core. */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	ret = record_tick(k->rec, &k->model, err, sizeof(err));
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	k->rec_cpu_ns += (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
	sinks_record_notices(k);
	if (!ret)
		return -1;
	record_get_stats(k->rec, &k->rec_stats);
	record_close(k->rec);
	k->rec = NULL;
	k->rec_failed = true;
	k->app.recording = 2;
	if (k->mode->screen)
		app_message(&k->app, "%s", err);
	else
		fprintf(stderr, "ktop: %s\n", err);
	/* Recording was all it did. */
	return k->mode == &mode_record ? 1 : -1;
}

static void exporter_needs(const struct ktop *k, struct procfs_need *need)
{
	if (k->metrics)
		need->all |= metrics_needs(k->metrics, &k->model);
}

static int exporter_sink(struct ktop *k)
{
	exporter_interval(k);
	return -1;
}

static void mode_needs(const struct ktop *k, struct procfs_need *need)
{
	if (k->mode->needs)
		k->mode->needs(k, need);
}

static int mode_interval(struct ktop *k)
{
	return k->mode->tick ? k->mode->tick(k) : -1;
}

/*
 * A replay's intervals reach the mode only. The recorder would record the
 * past as if it happened now (into the file it reads, at worst). The
 * exporter's counters add up each interval once for the life of ktop: a
 * step back shows an interval again, and it would count twice; a pushed
 * sample would carry a time Prometheus has long closed. The command line
 * refuses -w and the exporters with -r; the list keeps the rule whatever
 * the options allow.
 */
static const struct sink sinks[] = {
	{ "recorder", recorder_needs, recorder_interval, false },
	{ "exporter", exporter_needs, exporter_sink, false },
	{ "flight", flightctl_needs, flightctl_interval, false },
	{ "mode", mode_needs, mode_interval, true },
};

/* The key of the groups a view or writer shows this tick, whose cgroups are read; -1: none. */
static int shown_group_by(const struct ktop *k)
{
	if (k->opt.batch && k->batch.view == VIEW_GROUPS)
		return (int)k->batch.groups.by;
	if (!k->opt.batch && k->mode->screen && k->app.view == VIEW_GROUPS)
		return (int)k->app.groups.by;
	/* Else the exporter's groups (a view's key comes first: one key is read). */
	return k->metrics ? (int)metrics_group_by(k->metrics) : -1;
}

void sinks_needs(const struct ktop *k, struct source_demand *d)
{
	size_t i;

	d->proc.all = d->proc.wanted = d->proc.first = 0;
	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		sinks[i].needs(k, &d->proc);
	d->group_by = shown_group_by(k);
}

int sinks_interval(struct ktop *k)
{
	int st = -1, r;
	size_t i;

	_Static_assert(ARRAY_SIZE(sinks) <= ARRAY_SIZE(k->sink_intervals), "a count per sink");
	/* Each gets the interval, even after one has said to stop: the first status wins. */
	for (i = 0; i < ARRAY_SIZE(sinks); i++) {
		if (k->replay && !sinks[i].replayed)
			continue;
		k->sink_intervals[i]++;
		if ((r = sinks[i].interval(k)) >= 0 && st < 0)
			st = r;
	}
	return st;
}

void sinks_print_stats(const struct ktop *k)
{
	size_t i;

	fprintf(stderr, "ktop-stats: intervals=%ld", k->ticks);
	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		fprintf(stderr, " sink_%s=%lu", sinks[i].name, k->sink_intervals[i]);
	fputc('\n', stderr);
}
