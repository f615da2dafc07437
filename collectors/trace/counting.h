/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_COUNTING_H
#define KTOP_COUNTING_H

/*
 * collectors/trace/counting: per-task system calls, errors, context switches and signals
 * counted from the kernel's ring buffers. It ties together ktop's instance
 * (instance.h), the decoder (evdecode.h) and the per-thread sums (evsums.h), and once
 * per tick adds the interval's sums to the model's rows:
 *
 *   instance_read_page -> evdecode_page -> acct_* -> counting_collect -> model
 *
 * Without tracefs or permission it stays off and says why (counting_status); the
 * rest of ktop runs as a /proc monitor.
 */

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blockev.h"
#include "evsums.h"
#include "sockconn.h"
#include "../../model/model.h"

struct counting;
struct flight;

struct counting_opts {
	bool time_syscalls;	/* also sys_enter, for time per call (costs an event) */
	size_t buffer_kb;	/* per CPU; 0 = automatic */
	bool baseline_only;	/* no interval but the first (whose events no sink shows) */
	const pid_t *pids;	/* only these processes (and children) in the kernel */
	size_t npids;
	/*
	 * The trace clock (KTOP_TRACE_CLOCK): NULL or "auto" for the cheapest
	 * safe one (counting_start), else one of counting_clock_ok's.
	 */
	const char *trace_clock;
	struct flight *flight;	/* non-NULL: the pages read are kept there too (flight.h) */
};

/*
 * Can ktop map trace clock @name's stamps to CLOCK_MONOTONIC ("auto" too)?
 * The clocks in ns (local, global, perf, mono, mono_raw, boot, tai) and x86-tsc.
 */
bool counting_clock_ok(const char *name);

struct counting_stats {
	uint64_t events;	/* decoded, all time */
	uint64_t pages;		/* ring-buffer pages read */
	uint64_t drains;	/* wake-ups that read pages (a buffer reached buffer_percent) */
	uint64_t stashed;	/* pages copied out during a long /proc scan (counting_stash) */
	uint64_t malformed;	/* records the decoder rejected */
	uint64_t lost;		/* dropped by the kernel, all time */
	uint64_t unattributed;	/* events of threads whose process was not found */
	uint64_t carried;	/* events kept for the next tick: their process not looked up yet */
	uint64_t held;		/* ending rows left for the next tick: exit read, not its last switch */
	uint64_t unparented;	/* rows left for the next tick: born while traced, fork not read */
	uint64_t lives_unsplit;	/* events of two lives of a tid counted in one (evlives.c) */
	uint64_t switches_unseen;	/* switches the kernel did not write, told by other records */
	uint64_t oncpu_overlaps;	/* on-CPU times that would have overlapped on a CPU (none) */
	size_t dark_threads;		/* threads whose switch-outs are not written, read (evdark.c) */
	uint64_t dark_moved_ns;		/* of others' on-CPU time, theirs (their schedstat said) */
	uint64_t dark_dropped;		/* their slots past an interval's ACCT_DARK_SLOTS: not given back */
	size_t stash_kept;	/* the most a CPU's stash kept once decoded (bytes; freed: 0) */
	size_t buffer_kb;
	/* The trace clock, and how its stamps were mapped to CLOCK_MONOTONIC (lib/clockmap.h). */
	char clock[16];
	char clock_why[64];		/* why this clock */
	uint64_t clock_samples, clock_refused, clock_steps;
	int64_t clock_err_last_ns;	/* the last sample's error, mapped vs measured */
	uint64_t clock_err_max_ns;	/* the largest |error| of a sample */
	uint64_t clock_bound_ns;	/* the largest margin the cut was given */
	double clock_rate;		/* CLOCK_MONOTONIC ns per trace clock unit */
	struct sockconn_stats conns;	/* the sockets' table (collectors/trace/sockconn.h) */
	bool block_on;			/* the block devices' events are decoded */
	struct blockev_stats block;	/* collectors/trace/blockev.h */
};

/*
 * counting_start - start tracing, or explain why not
 * @out: always set (to a collector that is off when tracing is not possible);
 *       free with counting_stop
 *
 * Returns 0 when tracing runs, else -errno with counting_status saying why.
 */
int counting_start(const struct counting_opts *o, struct counting **out);
/*
 * counting_new_offline - a collector without an instance, for the unit tests of
 * the fold: the test gives counting_acct's acct_* the events the decoder would,
 * then counting_collect adds them to a model as a tick does. @only_uid: -1 as
 * root, else the user whose tasks alone count. Free with counting_stop.
 */
struct counting *counting_new_offline(int64_t only_uid);
/* The per-thread sums the events go to (owned by @ft). */
struct evsums *counting_acct(struct counting *ft);
/* Stop tracing and remove the instance. NULL is fine. */
void counting_stop(struct counting *ft);

bool counting_on(const struct counting *ft);
/* The model counters (bit per enum counter) events supply; 0 when off. */
uint32_t counting_event_counters(const struct counting *ft);
/* Not root: the uid whose tasks alone are counted (the others' stay unknown); -1 = all. */
int64_t counting_only_uid(const struct counting *ft);
/* From a crash's signal handler: stop tracing (async-signal-safe); see instance.h. */
void counting_emergency_stop(void);
/* Why tracing is off, or which events are missing; "" when all is well. */
const char *counting_status(const struct counting *ft);
/* Why the block devices are not counted while tracing (-p, events missing); "" when they are. */
const char *counting_disks_why(const struct counting *ft);

/* The per-CPU descriptors to poll: up to @max, returns how many. */
size_t counting_pollfds(const struct counting *ft, struct pollfd *pfd, size_t max);
/* A descriptor of counting_pollfds was readable: decode what it holds. */
void counting_drain(struct counting *ft, int fd);
/*
 * counting_stash - copy the whole sub-buffers waiting in the ring buffers out,
 * undecoded, for the next read of each CPU: callable in the middle of a
 * tick (from a long /proc scan), where decoding is not.
 */
void counting_stash(struct counting *ft);
/*
 * At a tick, first: read everything the kernel wrote up to now (the partly filled
 * pages too). Returns true when the interval's events are complete (tracing ran
 * through it and nothing was lost); then *born lists the processes forked in it
 * (ftrace's memory, valid until counting_collect).
 */
bool counting_read(struct counting *ft, const pid_t **born, size_t *nborn);
/*
 * The CLOCK_MONOTONIC time the last counting_read's interval ended at: every
 * event before it was read, the state split's times are up to it. The tick's
 * time (sample.mono_ns), so that a thread's states add up to the interval.
 * 0 when tracing is off.
 */
uint64_t counting_cut_ns(const struct counting *ft);
/*
 * The signals generated in the interval counting_read ended (bounded, ACCT_SIGS):
 * the focus view takes their senders. Valid until counting_collect.
 */
size_t counting_signals(const struct counting *ft, const struct evsums_sig **sigs);
/* The processes whose received signals counting_signals lists (at most ACCT_WATCH). */
void counting_watch_signals(struct counting *ft, const pid_t *pids, size_t n);
/*
 * After counting_read, with model.focus_follow: the processes forked by focused
 * ones (or by those that join with them), which join the model's focus
 * (the caller's sample, sample_add_follow). Returns how many; *added lists
 * them (ftrace's memory, valid until the next call).
 */
size_t counting_follow(struct counting *ft, const struct model *m, const pid_t **added);
/*
 * After counting_read: the tasks whose credentials may have changed in the
 * interval (an exec; a set*id, setgroups or capset call that succeeded), as
 * row ids (tids in thread mode, else processes), with the owners @m has for
 * them still (before model_begin_tick). Their owners must be read again
 * (procfs_recheck_owners) before procfs_collect and counting_collect, which
 * decides from them what a user other than root may see. Returns how many;
 * *ids is ftrace's memory, valid until counting_collect.
 */
size_t counting_cred_changes(struct counting *ft, const struct model *m, const pid_t **ids);
/*
 * After counting_collect: the rows (row ids) counting_collect left for the next
 * tick, their last events (hold_ending) or their fork (hold_unparented) not
 * read yet: their exit records must wait for them. *ids is ftrace's memory, valid until the next
 * counting_collect.
 */
size_t counting_held(const struct counting *ft, const pid_t **ids);
/*
 * After counting_read: the rows (tids in thread mode, else processes) moved to
 * another cgroup in the interval (cgroup:cgroup_attach_task), for
 * procfs_recheck_cgroups. *ids is ftrace's memory, valid until the next call.
 */
size_t counting_cgroup_moves(struct counting *ft, const struct model *m, const pid_t **ids);
/*
 * counting_collect - the interval's events, per row, into @s
 * @m: the model with this tick's /proc readings applied (procfs_collect); read only
 * @last: no tick follows: no row is left for one (counting_held)
 *
 * The rows' per-syscall tables in @s are ftrace's: model_apply @s, then
 * counting_end_interval, before anything reads the rings again.
 */
void counting_collect(struct counting *ft, const struct model *m, struct sample *s, bool last);
/* The interval is applied: its counts start again from zero. */
void counting_end_interval(struct counting *ft);

/*
 * A watched process (-p, -- CMD) that stopped being reported at the last
 * counting_collect: not root, it gained privileges (an exec made it another
 * user's), or it descends from one that did. A followed one has left the
 * model's focus; a pinned one stays (its row, its events unknown) and what it
 * forks is not followed.
 */
struct counting_priv {
	pid_t pid;
	pid_t from;		/* 0: it gained them; else the process it descends from */
	bool pinned;
	char comm[16];		/* the program it runs now; may be "" */
};
/* Those of the last counting_collect; *out is ftrace's memory, valid until the next one. */
size_t counting_privileged(const struct counting *ft, const struct counting_priv **out);

void counting_get_stats(const struct counting *ft, struct counting_stats *st);
/*
 * The trace clock minus CLOCK_MONOTONIC now, in ns, from the clock's mapping
 * (0 for mono); false when tracing is off or the clock is not in ns.
 */
bool counting_clock_offset(const struct counting *ft, int64_t *off_ns);

#endif
