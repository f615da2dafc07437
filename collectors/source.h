/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SOURCE_H
#define KTOP_SOURCE_H

/*
 * collectors/source: what a live source is to the program, one table of
 * operations per source (collectors/X_source.c, beside its collector), listed
 * once in src/sourcelist.c and run in list order by one loop, as the sinks
 * are in src/sinks.c. A new source is one file and one entry there.
 *
 * A tick, in phases, each over the list in order:
 *
 *	begin    the tick starts (exits: its boundary)
 *	read     events read up to the tick's cut; what they say happened is
 *	         published in the tick's facts, and what the model must know
 *	         before the tick's rows put in the tick's first sample (counting:
 *	         the processes that join the focus)
 *	take     the facts taken (/proc: forks, owners and cgroups to read again,
 *	         followed processes; cgroup files: moved rows; focus: signals)
 *	collect  into the sample; after an entry marked .apply, the sample is
 *	         given to the model (model_apply), the recorder first
 *	applied  after the apply of the sample it filled (counting: the interval's
 *	         counts start again)
 *	end      the whole tick applied
 *
 * Sources never call each other: what one tells another goes through the
 * tick's facts (struct source_facts) or the model.
 */

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "proc/procfs.h"
#include "../model/model.h"
#include "../model/sample.h"

struct evsums;
struct evsums_sig;
struct counting;
struct counting_priv;
struct flight;

/* What the sinks need read this interval (src/sinks.c), handed to every source. */
struct source_demand {
	struct procfs_need proc;	/* /proc files beyond stat, for which rows */
	int group_by;			/* the groups a sink shows (their cgroup files); -1: none */
	bool last;			/* no collect follows this one (-n, CMD's end) */
};

/*
 * What one source tells the others within a tick (valid for the tick): the
 * lifecycle facts the events saw, the events' sums for the focus and the
 * calls in progress, the rows whose exit records must wait.
 */
struct source_facts {
	/* read: the counting source */
	bool traced;			/* the events are counted this tick */
	bool whole;			/* the interval's events are complete: born is every fork */
	const pid_t *born;		/* processes forked in the interval */
	size_t nborn;
	const pid_t *cred;		/* rows whose credentials may have changed */
	size_t ncred;
	const pid_t *moved;		/* rows moved to another cgroup */
	size_t nmoved;
	const pid_t *followed;		/* processes that join the model's focus (forked by one) */
	size_t nfollowed;
	const struct evsums_sig *sigs;	/* signals generated in the interval */
	size_t nsigs;
	uint64_t cut_ns;		/* CLOCK_MONOTONIC where the events' interval ends; 0: untraced */
	/* collect: the counting source */
	const struct evsums *acct;	/* the interval's per-thread sums; NULL: untraced */
	const struct counting_priv *priv;	/* watched processes no longer reported */
	size_t npriv;
	/* applied: the counting source */
	const pid_t *held;		/* rows left for the next tick: their exit records wait */
	size_t nheld;
};

/* What every source is given to start, and shares for the life of the list. */
struct source_env {
	/* Given by src/ */
	const pid_t *pids;		/* -p's, which must exist */
	size_t npids;
	const pid_t *watch;		/* -p's pids or CMD's: traced and followed */
	size_t nwatch;
	bool no_trace;			/* --no-trace */
	bool summary;			/* --summary: counts system calls only, from the events */
	bool baseline_only;		/* one interval, whose events no sink shows */
	bool time_syscalls;		/* time per call (sys_enter too) */
	struct flight *flight;		/* the flight recorder's ring; NULL: off */
	/* A long /proc scan's pause, every 20 ms (the list's: each source's .pause). */
	void (*pause)(void *arg);
	void *pause_arg;
	/* Set by the sources */
	bool tracing;			/* the counting source runs (the focus and inprog need it) */
	/* For src/ only (the flight recorder, the exporter's health, the summary's exited pids). */
	struct counting *ftrace;		/* the counting collector; NULL once stopped */
	struct procfs *procfs;
	/* The tick's */
	struct source_facts facts;
	struct source_demand need;
	/*
	 * The model for model_focus_feed only (model.h): the focus exception
	 * (DESIGN.md, The one loop; model/sample.h), the process view's rings
	 * fed at event rate between ticks. The focus source hands it to
	 * collectors/focus/focus.c, which writes nothing else with it
	 * (tools/check-layout.sh); every source reads @m.
	 */
	struct model *feed;
	const struct model *m;
};

struct source {
	const char *name;
	/*
	 * Made, into *st (NULL: off, and none of its operations run). Returns
	 * 0, or -1 once it said why on stderr: ktop does not start.
	 */
	int (*start)(struct source_env *env, void **st);
	/* Once the model is made: what the source says of itself (tracing's status...). */
	void (*setup)(void *st, struct source_env *env, struct model *m);
	/* Descriptors for the loop's poll, up to @max; its set changes with *gen. */
	size_t (*pollfds)(void *st, struct pollfd *pfd, size_t max);
	unsigned (*generation)(void *st);
	/* One of its descriptors is readable. Returns true when one call read them all. */
	bool (*drain)(void *st, struct source_env *env, int fd);
	/* A long /proc scan waits: keep what would be lost meanwhile. */
	void (*pause)(void *st);
	void (*begin)(void *st, struct source_env *env);
	void (*read)(void *st, struct source_env *env, struct sample *s);
	void (*take)(void *st, struct source_env *env);
	void (*collect)(void *st, struct source_env *env, struct sample *s);
	bool apply;			/* the sample is applied after its collect */
	void (*applied)(void *st, struct source_env *env);
	void (*end)(void *st, struct source_env *env);
	/* A process view opened (true: @pid is refused, *why says so) or closed. */
	bool (*focus_open)(void *st, struct source_env *env, pid_t pid, char *why, size_t len);
	void (*focus_close)(void *st, struct source_env *env, pid_t pid);
	/* The process views open changed (the model's fprocs). */
	void (*focus_changed)(void *st, struct source_env *env);
	/*
	 * The events stop (before the sinks' ends), in reverse list order:
	 * instances removed. Returns what is left of the source (NULL: freed).
	 */
	void *(*stop)(void *st, struct source_env *env);
	/* After the model is freed (its rows may point into a source's names), in reverse order. */
	void (*free)(void *st);
	/*
	 * KTOP_STATS, off sources too (@st NULL): fields of the common line
	 * (" key=value"), then its own lines ("ktop-stats: key=value ...\n").
	 */
	void (*fields)(void *st, const struct source_env *env, FILE *out);
	void (*lines)(void *st, const struct source_env *env, FILE *out);
};

extern const struct source system_source, procfs_source, cgnames_source, counting_source,
	focus_source, inprog_source, exits_source, cgfiles_source;

#endif
