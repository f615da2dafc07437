/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FPROC_H
#define KTOP_FPROC_H

/*
 * A focused process: what the process view, the event list and the snapshots
 * show, kept from the moment a view (or -p) focused it until the view closes,
 * through its exit ("exited", the data kept). Part of the model: no I/O.
 *
 * The focus collector (collectors/focus/focus.c) appends the process's kernel events
 * (with their variable samples) and the times of its system calls from the
 * focus tracefs instance; fproc_tick adds, once per tick, the identity, the
 * rates and the per-syscall calls and errors the model has from /proc and
 * the system-wide instance (its rows' tables: the counting path, which loses
 * nothing at default settings), and keeps their history. When the focus
 * instance drops events (a flood), the event list and the times lack them
 * (lost says how many); the calls and errors do not.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/sctable.h"
#include "../lib/evring.h"
#include "fcall.h"
#include "kev.h"
#include "procdata.h"
#include "vars.h"

struct model;

/*
 * The rates the view graphs, each from the model's counter of the same name;
 * from FR_ONCPU on, the state split: ns per s (the view shows a share).
 */
enum fp_rate {
	FR_SYSCALLS, FR_SYSERR, FR_MINFLT, FR_MAJFLT, FR_VCSW, FR_IVCSW, FR_SIGNALS,
	FR_ONCPU, FR_RUNQ, FR_SLEEP, FR_BLOCKED, FR_NR
};

/* Ticks of history per rate (6 minutes at the default 2 s). */
#define FPROC_HIST 180
#define FPROC_SIGS 64

/* A signal the process received (or sent itself), for the signals panel. */
struct fsig {
	uint64_t ts;		/* CLOCK_MONOTONIC ns */
	bool ts_exact;		/* from the event; false: when ktop read it */
	pid_t sender;		/* 0 = not seen (interrupt context, or outside the filter) */
	char sender_comm[16];
	pid_t target;
	int sig;
	int result;		/* signal_generate's result; -1 = generation not seen */
	int code;		/* si_code, with the queue known */
	int8_t group;		/* queue: 1 the process's, 0 the target thread's; -1 unknown */
	uint8_t delivery;	/* enum fsig_delivery */
	bool sys_seen;		/* the system-wide instance reported it too */
	uint64_t ev_seq;	/* its deliver event in the ring, + 1; 0 = none */
};

/*
 * FSIG_TAKEN: queued, then no more pending without a delivery seen (a newer
 * one of that standard signal was queued: sigwait, signalfd, a handler reset
 * to SIG_IGN, or its delivery event lost).
 */
enum fsig_delivery { FSIG_PENDING, FSIG_HANDLER, FSIG_DEFAULT, FSIG_IGNORED, FSIG_TAKEN };

/*
 * One thread's state split, from the counting instance's (collectors/trace/evsums.c,
 * the numbers its process row sums): put each tick by the focus collector,
 * its history kept with the process's (the same ticks).
 */
enum fp_state { FS_ONCPU, FS_RUNQ, FS_SLEEP, FS_BLOCKED, FS_NR };
/* Threads kept per process; more are counted in threads_over (the row has their time). */
#define FPROC_THREADS 256

struct fthread {
	pid_t tid;
	char comm[16];		/* its name, as the scheduler events or /proc gave it */
	bool put;		/* fproc_thread_put this tick */
	bool known;		/* its state split of this tick is known */
	bool exited;
	uint8_t unseen;		/* ticks without fproc_thread_put: dropped after a few */
	uint64_t cur[FS_NR];	/* ns of this interval, until fproc_tick */
	float hist[FS_NR][FPROC_HIST];	/* ns per s, at the process's hist_pos; NaN unknown */
};

/* Errors of one syscall with one errno: the top errno is the most frequent. */
struct fp_errno {
	uint32_t nr;
	int err;
	uint64_t count;
};

struct fproc {
	pid_t pid;
	bool exited;		/* gone from /proc or its last thread's exit seen */
	bool with_descendants;	/* children's events count here too (-- CMD) */

	/* Identity, from the model's row while the process lives. */
	bool have_identity;
	char comm[PROC_COMM_MAX];
	char *cmdline;		/* owned; NUL-separated */
	size_t cmdline_len;
	const char *user;
	int64_t uid;
	char state;
	pid_t ppid, pgid, sid;
	uint64_t threads;

	/* Rates per second, one value per tick; NaN = not known that tick. */
	float hist[FR_NR][FPROC_HIST];
	size_t hist_n, hist_pos;	/* values kept; where the next goes */

	/*
	 * Calls and errors per syscall, from its rows (the system-wide counting
	 * path): all since focused (from the interval it was focused in), and
	 * the last interval. sc_cur is unused between ticks.
	 */
	struct sctable sc_total, sc_last, sc_cur;
	double sc_last_s;		/* length of the last interval */
	uint64_t sys_lost;		/* system-wide events lost in those intervals */
	bool sys_lost_unknown;
	/*
	 * From the focus instance's events, since focused: per syscall the calls
	 * it saw (calls), their errors and times (time_ns, timed, max_ns); the
	 * errnos ranked; its totals. Short of the above when it lost events.
	 */
	struct sctable times;
	struct fp_errno *errs;
	size_t nerrs, cap_errs;
	uint64_t calls_total, errors_total;

	/* Bounded rings: struct kev, struct var_sample, struct fsig. */
	struct evring events, samples, sigs;
	uint64_t sampled_tick;		/* the tick of the last sample; 0 = none */
	uint64_t lost;			/* focus-instance events lost while focused */
	bool lost_unknown;
	uint64_t other_events;		/* of descendants, not kept (not with_descendants) */

	/* Calls in progress (struct fcall) at calls_ns (CLOCK_MONOTONIC), oldest first. */
	struct fcall *calls;
	size_t ncalls, cap_calls;
	uint64_t calls_ns;

	/* Its threads' state split; threads_why: why none is known ("" when some are). */
	struct fthread *thr;
	size_t nthr;
	size_t threads_over, over_cur;	/* threads not kept at the last tick; this one */
	char threads_why[96];

	/* What the next event carries as its exact variables (-1, 0: none yet). */
	int32_t last_out, last_in;
	int16_t last_sig;
	uint64_t focused_ns;		/* when the focus began */
};

/* @nevents: the event ring's bound (--events). The fproc belongs to the caller. */
struct fproc *fproc_new(pid_t pid, size_t nevents);
void fproc_free(struct fproc *fp);

/*
 * fproc_push_event - append an event; returns the slot (owned by the ring)
 * with the exact variables set and @e copied in. Its sample is the next one
 * taken (fproc_sample_slot) unless one was taken this tick.
 */
struct kev *fproc_push_event(struct fproc *fp, const struct kev *e, uint64_t tick);
/* Room for this tick's variable sample (zeroed); marks the tick sampled. */
struct var_sample *fproc_sample_slot(struct fproc *fp, uint64_t tick);
/* A system call the focus instance saw end: its time, its errno (fp->times, errs). */
void fproc_count_syscall(struct fproc *fp, uint32_t nr, int64_t ret, bool timed, uint64_t ns,
			 bool returned);
/* The most frequent errno of syscall @nr, 0 when none. */
int fproc_top_errno(const struct fproc *fp, uint32_t nr);
/* A signal for the panel; returns its slot. */
struct fsig *fproc_push_sig(struct fproc *fp);
/*
 * fproc_sig_generated - the panel's record of signal_generate @e (@e->ts
 * CLOCK_MONOTONIC), for @fp's process. Owned by the ring.
 */
struct fsig *fproc_sig_generated(struct fproc *fp, const struct kev *e);
/*
 * fproc_sig_delivered - signal_deliver @e in thread @tid: the generation it
 * takes, as the kernel dequeues (the thread's queue, then the process's; a
 * real-time signal's oldest; a standard one's only), marked delivered, or a
 * new entry without a sender. @e learns the sender. Owned by the ring.
 */
struct fsig *fproc_sig_delivered(struct fproc *fp, struct kev *e, pid_t tid);

/*
 * fproc_calls_begin - the calls in progress at @now_ns are listed anew:
 * fproc_call_add each, oldest or not, they are sorted oldest first by
 * fproc_calls_end. The slot returned is zeroed and owned by @fp.
 */
void fproc_calls_begin(struct fproc *fp, uint64_t now_ns);
struct fcall *fproc_call_add(struct fproc *fp);
void fproc_calls_end(struct fproc *fp);

/*
 * fproc_thread_put - thread @tid's split of this interval (ns per enum
 * fp_state; @known false: not known this tick), @comm its name or NULL,
 * @exited: this is its last. Taken into its history by fproc_tick.
 */
void fproc_thread_put(struct fproc *fp, pid_t tid, const char *comm, const uint64_t ns[FS_NR],
		      bool known, bool exited);
/* fproc_tick's: the threads' splits of the tick into their history, at hist_pos. */
void fproc_threads_tick(struct fproc *fp, double interval_s);
/* The share (ns per s) of state @st of thread @th @back ticks ago; false when not known. */
bool fproc_thread_hist(const struct fproc *fp, const struct fthread *th, enum fp_state st,
		       size_t back, double *out);

/*
 * Once per tick, by model_end_tick: identity, rates, history, and the calls
 * and errors of the process's rows this interval (every thread's, threads
 * mode), into the tables.
 */
void fproc_tick(struct fproc *fp, struct model *m);

/*
 * The snapshot at one kept event, with what changed since the process's
 * previous event ("only what changed"): what the snapshot view shows.
 */
struct fsnap {
	bool valid;		/* computed (fproc_snapshot fills the rest) */
	pid_t pid;		/* the process */
	uint64_t seq;		/* the event (sequence number in the ring) */
	uint64_t ts;		/* its time stamp: with pid and seq, which event */
	struct var_snap vars;	/* its variables */
	uint32_t changed;	/* bit per var_id: changed since the previous event */
	bool have_prev;		/* the previous event is kept: changed says something */
	bool have_sample;	/* its /proc sample is kept */
	bool have_prev_sample;	/* the previous event's is */
};

/*
 * fproc_snapshot - the snapshot at event @seq of @fp into @snap
 *
 * @snap is the caller's (a view's state): it is computed once, and again
 * only when it is about another event or when the samples kept of the event
 * and of the one before it changed (a sample is taken after its events, and
 * rings drop the oldest). Returns false when the event is no longer kept.
 */
bool fproc_snapshot(const struct fproc *fp, uint64_t seq, struct fsnap *snap);

/* The rate @r @back ticks ago (0 = the last); false when not known. */
bool fproc_hist(const struct fproc *fp, enum fp_rate r, size_t back, double *out);

/* Bytes the rings and tables hold now (the memory report). */
size_t fproc_bytes(const struct fproc *fp);

#endif
