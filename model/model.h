/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_MODEL_H
#define KTOP_MODEL_H

/*
 * The model: what ktop knows, with no I/O. Collectors write samples into it,
 * the model turns consecutive samples into counts within the interval and rates,
 * and views and batch writers read it. Everything here is testable with
 * synthetic samples (tests/unit/test_model.c).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/cgname.h"
#include "cgres.h"
#include "../lib/pidmap.h"
#include "../lib/sctable.h"
#include "procdata.h"
#include "sample.h"
#include "sigflow.h"
#include "disks.h"
#include "systotals.h"


struct task {
	pid_t pid;		/* the tid in thread mode */
	pid_t tgid;
	uint64_t starttime;	/* with pid, the identity of a task */
	char comm[PROC_COMM_MAX];
	char *cmdline;		/* raw, NUL-separated; NULL until read; a reference (lib/rcstr.h) */
	size_t cmdline_len;
	const char *user;	/* interned by the collector; NULL if unknown */
	const char *cgroup;	/* its cgroup path, interned by the source; NULL: not read */
	int64_t uid;		/* -1 if unknown */
	char state;
	pid_t ppid, pgid, sid;
	int tty_nr;
	int64_t priority, nice;
	uint64_t threads;
	uint64_t threads_before;	/* at the reading before (task_share_max) */
	uint64_t rss_kb, vsize_kb;
	int processor;
	bool have_flags, kthread;	/* PF_KTHREAD, when /proc said (not a replay) */

	uint64_t cnt[CNT_NR];		/* values read this tick */
	uint64_t prev[CNT_NR];		/* values read the tick before */
	uint32_t have, have_prev;	/* bit per counter: read this / last tick */
	uint64_t delta[CNT_NR];		/* count within the interval, when known */
	uint32_t have_delta;
	uint64_t ev[CNT_NR];		/* counted from events this interval */
	/*
	 * This interval's events are not shown (unknown): not root, its
	 * credentials changed within it (collectors/trace/counting.c says why); or
	 * its pid's lives' events could not be split (row_events.unsure).
	 */
	bool ev_withheld;
	bool st_known;			/* a row said its state split this interval (have_state) */
	struct sctable sc;		/* this interval's syscalls, from events */
	struct sctable err;		/* this interval's errors by syscall and errno (sc_err_key) */
	uint32_t top_nr;		/* most frequent syscall; SC_EMPTY = none */
	bool exited;			/* its exit was seen: this is its last row */
	/*
	 * Its counters are its exit record's (task_final): one below the last
	 * /proc reading is that reading's rounding (a tick of CPU, the
	 * switches after the record), a count of 0, not an unknown one.
	 */
	bool final;
	bool gone;			/* exited and kept (model.keep_exited): numbers final */
	bool zombie_exited;		/* its exit applied while /proc listed it: 'Z', X once reaped */
	bool was_final;			/* final, the tick before */
	double cpu_pct;			/* 100 = one CPU; valid with have_cpu */
	bool have_cpu;

	/*
	 * Which life of its pid it is: a pid is reused, within one interval
	 * too. /proc tells lives apart by @starttime, the events by @life
	 * (row_events.life; 0: not told), exit records by their start window.
	 */
	uint32_t life;
	uint64_t made_tick;		/* the tick it was made (or its pid's new life began) */
	/*
	 * An earlier life of its pid than the one model.index has (that one
	 * began this tick): kept, not indexed, for its row X; in model.past
	 * (its pid's newest first, @older next) until it is freed.
	 */
	bool past;
	uint64_t past_tick;		/* the tick it became one */
	struct task *older;

	uint64_t seen_tick;		/* last tick a collector saw it alive */
	/* /proc read it this tick: its exit applied now leaves a zombie 'Z' (mark_exited). */
	bool read_now;
	uint64_t want_until;		/* status wanted up to this tick (visible) */
};


/* What the header says about the system, computed once per tick (model_end_tick). */
struct sys_summary {
	double uptime_s;
	bool have_uptime;
	double load[3];
	bool have_load;
	unsigned long tasks, running, sleeping, disk, stopped, zombie, idle;
	unsigned long exited;		/* X rows: exited since the last refresh, not in tasks */
	double cpu_pct;			/* all CPUs, 0..100 */
	bool have_cpu;
	int ncpu;
	double *cpu_busy;		/* each CPU's (ncpu): 0..100, < 0 = not known; model-owned */
	double mem_total_kb, mem_used_kb, mem_avail_kb, swap_total_kb, swap_used_kb;
	bool have_mem;
	/* per second; valid with have_rates */
	double ctxt, intr, forks, minflt, majflt;
	/* the same as counts within the interval, for CSV and JSON */
	uint64_t n_ctxt, n_intr, n_forks, n_minflt, n_majflt;
	bool have_rates;
};

struct model {
	struct task **tasks;		/* every live task, unordered */
	size_t ntasks, cap;
	struct pidmap index;		/* pid -> task */
	/*
	 * Tasks dropped at the end of the last tick (not listed, no row): a row
	 * of events held for a tick (its last switch came late, after /proc had
	 * stopped listing it) brings one back, with the name and owner /proc
	 * gave it. Freed at the end of this tick. pid -> task.
	 */
	struct pidmap limbo;
	struct pidmap dead;		/* row X shown, /proc lists it still (model.c) */
	struct pidmap past;		/* pid -> its newest past life (task.past) */
	struct pidmap unsure;		/* this tick: pids whose lives' events could not be split */

	uint64_t tick;			/* 1 for the first sample */
	uint64_t t_now, t_prev;		/* monotonic ns of this and the last tick */
	double interval_s;		/* 0 before the second tick: no rates yet */
	double wall_s;			/* wall clock at this tick (batch time) */

	struct sys_sample sys, sys_prev;
	struct cpu_times *cpu_bufs[2];	/* storage behind sys{,_prev}.stat.cpu */
	struct sys_summary sum;		/* sys and the tasks, summed up at the end of the tick */

	long hz;			/* clock ticks per second (sysconf) */
	long page_kb;

	bool threads;			/* tasks are threads, not processes */
	/*
	 * Focus (-p, -- CMD): only these processes (tgids); NULL = all. The
	 * first npinned were named by the user; with focus_follow the processes
	 * they fork join (model_focus_add), so the list grows.
	 */
	pid_t *focus;
	size_t nfocus, cap_focus, npinned;
	struct pidmap focus_set;	/* the same pids, for O(1) lookups */
	bool focus_follow;
	bool keep_exited;		/* a named process that exits keeps its row (state X) */
	/* A zombie its parent, ktop (-- CMD), reaps after this tick: X, not Z (model_reaping). */
	pid_t reaping;

	/* --summary: every focused task's syscalls, summed over the ticks. */
	bool sum_syscalls;
	struct sctable sc_total;
	uint64_t lost_total;		/* events lost over those ticks */
	bool lost_total_unknown;

	/* Kernel events (collectors/trace/counting.c); all zero when tracing is off. */
	uint32_t event_counters;	/* bit per enum counter that events supply */
	int64_t events_uid;		/* not root: only this uid's tasks are counted; -1 = all */
	uint64_t ev_total[CNT_NR];	/* the whole system, this interval */
	uint64_t lost_events;		/* dropped by the kernel this interval */
	bool lost_unknown;		/* some dropped, how many unknown */
	char trace_status[160];		/* why tracing is off, or what is missing */

	/*
	 * The whole system's syscalls, errors and subsystems (model/systotals.h),
	 * summed at each tick's end when @aggregate (a view or writer shows
	 * them), and who signals whom (model/sigflow.h), always.
	 */
	bool aggregate;
	struct systotals agg;
	struct sigflows sigflows;
	/*
	 * The sockets of the interval (struct sock_conn, sample.h): the
	 * Connections view's rows, named after the process table's rows. None
	 * in the baseline interval, like every event count.
	 */
	struct sock_conn *conns;
	size_t nconns, cap_conns;
	/* Why the session has none: a recording older than them ("": it may). */
	char conns_why[96];
	/* Block devices (model/disks.h): from the block layer's events. */
	struct disks disks;
	/* Exit records (collectors/exits/exits.c, taskstats): dead tasks' final numbers. */
	bool exit_records;		/* listening */
	uint64_t exits_lost;		/* records the kernel dropped this interval */
	bool exits_lost_unknown;	/* some dropped, how many unknown */
	char exits_status[160];		/* why not listening; "" when it is */

	/*
	 * The watched processes' (-p, -- CMD) system calls in progress for an
	 * interval or more at calls_ns, oldest first; calls_known: looked for
	 * this tick (batch writes them).
	 */
	bool calls_known;
	struct fcall *calls;
	size_t ncalls, cap_calls;
	uint64_t calls_ns;

	/* Focused processes (process view, -p): model/fproc.h. */
	struct fproc **fprocs;
	size_t nfprocs;
	size_t ring_events;		/* bound of each one's event ring (--events) */
	char focus_status[160];		/* the focus instance: why off, what is missing */
	/* Containers' and pods' names per cgroup path, groups' cgroup files (containers). */
	struct cgnames names;
	struct cgres_table cgres;
};

void model_init(struct model *m, long hz, long page_kb);
void model_free(struct model *m);
/* Drop every task (thread mode toggled): rates restart from the next tick. */
void model_clear(struct model *m);
/* Drop every task and the system sample: the next tick is a first one (no rates). */
void model_restart(struct model *m);
/* A recording's session (sample.h): the host's units, row mode and tracing then. */
void model_set_session(struct model *m, const struct sample_session *ss);

/*
 * model_apply - apply what a source read (model/sample.h), in the sample's order
 *
 * The one way sources change the model. Empties @s (sample_reset): what it
 * owned that the model took (command lines) is the model's now.
 */
void model_apply(struct model *m, struct sample *s);

/*
 * The primitives model_apply is made of (unit tests use them directly). A
 * tick: begin, the readings, end computes counts and rates.
 */
void model_begin_tick(struct model *m, uint64_t mono_ns, double wall_s);
void model_end_tick(struct model *m);

/*
 * The task @pid as of this tick, created if new. A different @starttime means the
 * pid was reused: a fresh task is returned, the old one is an earlier life of
 * the pid (task.past) whose end (its exit record, the events' last row) may
 * still come this tick. A task created from events has starttime 0 (unknown);
 * the first /proc read sets it. The returned task belongs to the model.
 */
struct task *model_task_sample(struct model *m, pid_t pid, pid_t tgid, uint64_t starttime);
struct task *model_task_find(const struct model *m, pid_t pid);
/*
 * The newest earlier life of @pid this tick (task.past; task.older the next
 * one): ended, and a row of its own beside the life model_task_find has.
 */
const struct task *model_past_find(const struct model *m, pid_t pid);
/*
 * The task exit record @f will be applied to, of those the model has now,
 * after @skip records of its pid that come before it in the same sample;
 * NULL when the model will make one for it (a life nothing else told of).
 */
const struct task *model_final_of(const struct model *m, const struct task_final *f, size_t skip);
void model_task_set_stat(struct model *m, struct task *t, const struct pid_stat *st);
void model_task_set_counter(struct task *t, enum counter c, uint64_t v);
/*
 * @t did not exist at the previous tick (a complete scan did not list it): all
 * it has counted happened within this interval, so its counts are its totals.
 */
void model_task_born(struct task *t);
/* @n events of counter @c (an event counter) happened to @t this interval. */
void model_task_add_events(struct task *t, enum counter c, uint64_t n);
/* Does @c come from kernel events this session? */
bool model_counts_events(const struct model *m, enum counter c);
/*
 * One of the state split's (CNT_ONCPU..CNT_STOPPED): from events, known for a
 * task only when a thread of it had a known state (a thread's time before
 * its first scheduler event is not known).
 */
bool model_state_counter(enum counter c);
/* Take the reference to a command line (lib/rcstr.h) @cmdline is. */
void model_task_set_cmdline(struct task *t, char *cmdline, size_t len);

/*
 * model_reaping - @pid has exited and ktop, its parent (-- CMD), reaps it
 * after the next tick's readings: no later tick would see it gone, so that
 * tick's row of it says X (exited), not Z, and the header counts it exited.
 */
void model_reaping(struct model *m, pid_t pid);

/* Does any view or writer need @t's status this tick? */
bool model_task_wants_status(const struct model *m, const struct task *t);
/*
 * Views call this for the tasks they show (rowset_want), so the next ticks
 * read their status.
 */
void model_want_task(struct model *m, const struct task *t);

/* Count of @c within the interval; false when not known (first tick, not read). */
bool task_delta(const struct task *t, enum counter c, uint64_t *out);
/*
 * The @q quantile of the durations of @t's calls timed this interval (every
 * system call), as its log2 bucket's upper bound in microseconds
 * (lib/lathist.h); false when none was timed.
 */
bool task_sc_quantile_us(const struct task *t, double q, double *out);
/* Rate per second of @c; false when not known. */
bool task_rate(const struct model *m, const struct task *t, enum counter c, double *out);
/*
 * The most a share of the interval can be for @t (cpu_pct, the state
 * columns' percentages): 100 per thread, of the most threads its last two
 * readings said (one in threads mode, and for a row /proc never read). A
 * count can be larger: CPU time between two reads of /proc, a late one, is
 * more than the interval; so is a wait the kernel counts when it ends
 * (schedstat's run_delay), or a row held a tick for its last switch.
 */
double task_share_max(const struct model *m, const struct task *t);
bool model_is_focused(const struct model *m, pid_t tgid);
/*
 * Does @t belong to the rows groups count this tick (seen, not frozen,
 * focused)? The groups (tables/groups.h) and the cgroup reader
 * (collectors/cgroup/cgfiles.c) ask the same.
 */
bool groups_counts(const struct model *m, const struct task *t);
/* Focus on @pids (copied), the processes the user named. */
void model_set_focus(struct model *m, const pid_t *pids, size_t n);
/* Add a process to the focus (a child of a focused one). Returns false if known. */
bool model_focus_add(struct model *m, pid_t tgid);
/*
 * Take a followed process out of the focus (its rows are not shown any more).
 * A pinned one stays: returns false then, or when @tgid is not focused.
 */
bool model_focus_remove(struct model *m, pid_t tgid);
/* Was @tgid named by the user (-p, the CMD of -- CMD)? */
bool model_is_pinned(const struct model *m, pid_t tgid);

/* The focused process @pid, or NULL. */
struct fproc *model_fproc_find(const struct model *m, pid_t pid);
/* Focus @pid (its data starts empty); the existing one if already focused. */
struct fproc *model_fproc_add(struct model *m, pid_t pid);
/* Forget @pid's focus data. */
void model_fproc_remove(struct model *m, pid_t pid);

/*
 * What the focus collector (collectors/focus/focus.c) tells the model of the
 * focused processes, at event rate, between ticks: model_focus_feed's.
 */
enum focus_feed_kind {
	FEED_EVENT,	/* @ev, of process @pid: into its ring (@ev.tid, @ev.cpu set) */
	FEED_SYSCALL,	/* likewise a call's end (@returned; else its task exited in it), counted (@timed) */
	FEED_SWITCH,	/* likewise a sched_switch: the exact variables of the events after it */
	FEED_SIGGEN,	/* signal_generate @ev towards process @pid, sent by focused process @from (0: none) */
	FEED_SIGDELIVER,/* signal_deliver @ev in thread @ev.tid of process @pid */
	FEED_SIGSEEN,	/* a signal the counting instance saw generated towards process @pid (@comm: its sender's name) */
	FEED_LOST,	/* @n events lost by every focused process; @unknown: some, how many not known */
	FEED_VARS,	/* @vars, process @pid's variables read after its events of this pass */
	FEED_CALLS,	/* the focused processes' calls in progress at @ns: @calls, @ncalls */
	FEED_STATUS,	/* the focus's status line: @status */
	FEED_OPEN,	/* process @pid focused (@with_descendants); @ns: when its events began, 0: not yet */
	FEED_CLOSE,	/* process @pid unfocused, its data forgotten */
};

struct focus_feed {
	enum focus_feed_kind kind;
	pid_t pid;			/* the focused process */
	pid_t from;			/* FEED_SIGGEN */
	/* FEED_EVENT to FEED_SIGSEEN (FEED_SIGSEEN: ts, u.sig's sender, target, sig, result) */
	struct kev ev;
	bool timed, returned;		/* FEED_SYSCALL */
	bool unknown;			/* FEED_LOST */
	bool with_descendants;		/* FEED_OPEN */
	uint64_t n;			/* FEED_LOST */
	uint64_t ns;			/* FEED_CALLS, FEED_OPEN */
	const char *comm;		/* FEED_SIGSEEN: "" unknown */
	const struct var_sample *vars;	/* FEED_VARS */
	const struct fcall *calls;	/* FEED_CALLS */
	size_t ncalls;
	const char *status;		/* FEED_STATUS */
};

/*
 * model_focus_feed - the one write of the model outside model_apply
 * (model/sample.h): the focused processes' events, kept in their rings as
 * the focus instance is read, at event rate, between ticks, and what goes
 * with them (their signals, variables, calls in progress, losses, the
 * focus's status, the processes focused).
 */
void model_focus_feed(struct model *m, const struct focus_feed *ff);

/* System rates derived from two samples; false before the second sample. */
bool sys_rate(const struct model *m, uint64_t cur, uint64_t prev, double *out);
/* Busy share (0..100) of a CPU between two samples; false if not known. */
bool cpu_busy_pct(const struct cpu_times *cur, const struct cpu_times *prev, double *out);

#endif
