/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_EVSUMS_H
#define KTOP_EVSUMS_H

/*
 * collectors/trace/evsums: what the kernel events of one interval add up to, per thread.
 * The event decoder (evdecode.h) calls the acct_* event functions, one per
 * decoded event, with fixed-size arguments; they allocate only when a thread is
 * seen for the first time or a table grows. Once per tick the ftrace collector
 * walks the threads that had events (evsums_first_active), adds them to the
 * model's rows, and ends the interval (evsums_end_interval). No I/O here.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../lib/pidmap.h"
#include "../../lib/sctable.h"
#include "../../model/counters.h"

/*
 * A thread's counts are indexed by enum counter (model/counters.def): those
 * of SRC EVENTS and STATE are counted here, the rest stay 0. CNT_EXITCPU:
 * of CNT_ONCPU, the time after its exit event: the exit's own work (freeing
 * its memory and files) up to its last switch, which its exit record
 * (taskstats, sent just before the event) leaves out.
 */

/* The kernel's TASK_REPORT_MAX: sched_switch's prev_state when preempted. */
#define ACCT_STATE_PREEMPTED 0x100
/* EXIT_DEAD | EXIT_ZOMBIE in prev_state: the task's last switch, after its exit. */
#define ACCT_STATE_EXITED 0x30
#define ACCT_CLONE_THREAD 0x00010000ull

#define ACCT_SIGS 256
#define ACCT_RECENT 64		/* a power of two */
#define ACCT_WATCH 16
/* Distinct signal flows kept an interval; the signals of more are counted apart. */
#define ACCT_FLOWS 1024

/*
 * The signals of one interval from one sender to one target, of one signal
 * and one result (signal_generate's), system-wide: the Signals view's rows.
 * Threads as the events name them; the collector finds their processes.
 */
struct evsums_flow {
	pid_t sender;		/* 0: no sending task (interrupt context, the kernel) */
	pid_t target;
	int sig, result;
	uint64_t n;		/* 0 = free slot */
};

struct evsums_thread {
	pid_t tid;
	pid_t tgid;		/* 0 until known */
	pid_t ppid;		/* the forking thread's process (or tid); 0 = unknown */
	pid_t creator;		/* CLONE_THREAD: the tid that made it, while tgid is unknown */
	uint64_t n[CNT_NR];	/* this interval */
	struct sctable sc;	/* this interval, per syscall */
	struct sctable err;	/* this interval, per syscall and errno (sc_err_key) */
	/*
	 * Call timing (acct.order_times). Its events are paired as they are
	 * decoded within a segment: the run of its records read from one
	 * CPU's pages with no switch-out of it in between, during which it
	 * never left that CPU, so that nothing of it can be elsewhere. @seg is
	 * the segment's CPU (acct.here), SEG_NONE when none is open; @seg_nr
	 * the number of its entry still pending, or SC_EMPTY (nothing pending
	 * since @seg_ts: an exit, an exit_group), or the segment's only record
	 * is the exit that opened it (kept, evsums.c).
	 */
	uint32_t seg, seg_nr;
	uint64_t seg_ts;
	uint32_t noret;		/* number + 1 of the never-returning call it entered, 0 = none */
	/*
	 * Its calls across segments, from the kept records paired in time
	 * order (evsums_time_calls): the call in progress (after the tick's
	 * pairing, the one it is in) and the latest exit.
	 */
	uint64_t enter_ts;	/* raw sys_enter time of the call in progress */
	uint32_t enter_nr;	/* its number; SC_EMPTY = none seen */
	uint64_t last_exit_ts;	/* the latest sys_exit timed or not: older entries are not pending */
	bool active;		/* on the active list */
	bool carry;		/* its counts go on into the next interval (evsums_carry) */
	uint8_t exited;		/* ticks since its exit; 0 = alive */
	bool group_dead;	/* its exit ended its process */
	/*
	 * When its last switch was (0 = not read): nothing of it follows. Between
	 * its exit event and that switch the kernel still sends its parent
	 * SIGCHLD. Switches are counted as read, lifecycle events later (in time
	 * order), so it is its own only when not older than its exit (life_ts).
	 */
	uint64_t gone_ts;
	bool held;		/* its ending row waits for what follows its exit (ftrace) */
	uint16_t idle;		/* intervals without events */
	/*
	 * The time of the latest lifecycle event applied to it (fork, exec,
	 * rename, exit): an older one, read late, does not undo what it says.
	 */
	uint64_t life_ts;
	char comm[16];		/* from task_newtask, exec or task_rename; may be "" */
	bool renamed;		/* exec'd this interval: comm is the name it ended it with */
	bool named;		/* its name changed this interval (exec, prctl): comm is the last */
	bool cred_call;		/* a call that changes credentials succeeded this interval */
	/*
	 * The ABI of its calls: compat, a 32-bit program's (i386 on x86_64),
	 * whose numbers are another table's (sctable.h). abi_known once learnt:
	 * from its creator at its fork, from its exec's return, or from /proc
	 * (evsums_set_abi); until then its calls are keyed as native, and
	 * evsums_set_abi re-keys them. abi_slow: one of these needs looking at on
	 * sys_exit (the hot path tests this one flag).
	 */
	bool compat, abi_known, abi_slow;
	bool in_exec;		/* its exec was decoded: its next sys_exit is the exec's return */
	uint64_t abi_ts;	/* when the event that told its ABI was (0: /proc) */
	/*
	 * While its ABI is unknown: a first sys_exit that is a 32-bit fork's
	 * return in the child (not counted) or a native call (counted), number
	 * + 1; evsums_set_abi decides. 0 = none.
	 */
	uint32_t stash_nr;
	/*
	 * The state split (acct_state_*): the state it is in (enum evsums_st)
	 * since @st_since (ring-buffer time); ACCT_ST_UNKNOWN until its first
	 * scheduler event, its time before that is not counted.
	 */
	uint8_t st;
	bool st_moved;		/* a scheduler record of it was applied this interval */
	/*
	 * Off a CPU without a switch-out read (another task's records on its
	 * CPU said it had left, acct_cpu): counted as asleep, its state not known.
	 */
	bool st_guess;
	uint16_t st_cpu;	/* ACCT_ST_ONCPU: the CPU it runs on (acct.cpus) */
	uint64_t st_since;
	/*
	 * Its life (evlives.c). A tid is reused, another process's or thread's
	 * within an interval too: its events are this life's from @life_lo to
	 * @life_hi (ring-buffer time, inclusive), its system calls from
	 * @call_lo (its first return from its fork: none come before) to
	 * @call_hi (its exit: none follow), one outside is another life's
	 * (evsums_life_at, evsums_life_call). The tid's newest life is in
	 * acct.threads; the older ones still kept hang off @older, newest
	 * first, each ended.
	 */
	uint64_t life_lo, life_hi, call_lo, call_hi;
	uint64_t end_ts;	/* its exit event (0: none seen); its last switch and SIGCHLD follow it */
	/* When its first call or switch was (UINT64_MAX: none yet), its last call. */
	uint64_t first_ts, last_call_ts;
	struct evsums_thread *older;
	uint32_t serial;	/* its life's number (acct.lives): never 0 */
	uint32_t proc_life;	/* its process's life (the leader's serial) when it began; 0 unknown */
	uint32_t made;		/* acct.intervals when it was made */
	bool own_life;		/* began while traced (its fork, or events after an exit): serial told */
	bool exit_ends;		/* its exit ended the tid's life (not a leader's whose process goes on) */
	/* Its fork was read (task_newtask in its creator, at @nt_ts), its first return (at @fr_ts). */
	bool seen_nt, seen_fr;
	uint64_t nt_ts, fr_ts;
	bool born;		/* it began this interval (read then: its fork, events after an exit) */
	bool ended;		/* a newer life has the tid */
	/*
	 * Another life's events were counted in it, or its in another, this
	 * interval (read in an order that cannot split them): its rows' event
	 * counts are unknown.
	 */
	bool mixed;
	uint8_t ended_age;	/* intervals since it ended */
	uint64_t exit_ts;	/* its exit event's time, as decoded (CNT_EXITCPU); 0 = none */
	/*
	 * Dark (evdark.c): the kernel did not write its switch-out (other
	 * tasks' records on its CPU told it had left), so how long it ran is
	 * its scheduler's count: @dark_run, this interval's, when @dark_budget;
	 * @dark_read once the collector reads it. @oncpu_before: its on-CPU time
	 * credited in the intervals before this one.
	 */
	bool dark, dark_budget, dark_read;
	uint64_t dark_run, oncpu_before;
	struct evsums_thread *next;	/* active list */
};

/*
 * The run of a dark thread @d on a CPU that ended unwritten: from @d_from
 * (where what it was credited ended) to its next record's time @ts at the
 * latest; @t (NULL: none, or the idle task) was credited with on-CPU time
 * there from @t_from: it ran after @d left (evdark.c).
 */
struct evsums_dark_slot {
	struct evsums_thread *d, *t;
	uint64_t d_from, t_from, ts;
	uint64_t x;		/* of it, @d's run (evdark_apply) */
};
#define ACCT_DARK_SLOTS 4096	/* an interval's, at most: more are counted (dark_dropped) */

/*
 * An exec of the interval: the process and the file as execve was given it,
 * for the collector to tell whether the program ran with other credentials.
 */
#define ACCT_EXEC_FILE 256
struct evsums_exec {
	pid_t pid;
	bool cut;			/* the name was longer than file[]: not known */
	char file[ACCT_EXEC_FILE];
};

/*
 * A lifecycle event (fork, exec, rename, exit) kept until every CPU's buffer
 * is read, then applied in time order (evsums_order_life).
 */
enum evsums_life_kind { AL_NEWTASK, AL_EXEC, AL_RENAME, AL_EXIT };
struct evsums_life {
	uint64_t ts;
	uint64_t clone_flags;		/* newtask */
	uint32_t seq;			/* decode order: equal times keep it */
	pid_t pid;			/* the task it is about (the child of a newtask) */
	pid_t other;			/* newtask: the parent; exec: old_pid */
	uint32_t file_off, file_len;	/* exec: its filename in acct.life_str */
	uint8_t kind;			/* enum evsums_life_kind */
	bool group_dead;		/* exit */
	char comm[16];			/* newtask, rename */
};

/* A thread's state, for the state split: from sched_switch and sched_wakeup. */
enum evsums_st {
	ACCT_ST_UNKNOWN,	/* no scheduler event of it yet */
	/* Its time is counter CNT_<ID> (a STATE row of model/counters.def). */
#define COUNTER(id, src, family, label, doc) COUNTERS_IF_STATE(src, ACCT_ST_##id,)
#include "../../model/counters.def"
	ACCT_ST_DEAD,		/* its last switch, after its exit */
};

/*
 * A scheduler event kept until every CPU is read (evsums_state_end): 16 bytes.
 * @what: in its low 8 bits enum evsums_sched_what (or ACCT_SR_OUT + enum
 * acct_st), above them the CPU whose buffer it was read from.
 */
struct evsums_sched {
	uint64_t ts;
	pid_t tid;
	uint32_t what;
};

/*
 * Per CPU, for the state split: a CPU runs one task at a time. Its records
 * say which: a switch's prev and next, and the writer (common_pid) of every
 * record written on it, the system calls' and wakeups' too. Some kernels do
 * not write every switch (this one writes none of CPU 1's idle task's own
 * events, its switches to a woken task included, nor some threads' of its
 * VM agent): a record written by another task than the one believed running
 * says a switch was missed (evsums_state_switch, ACCT_SR_RAN). Applied in time
 * order, the thread on it (owner) is the only one credited on-CPU time of
 * it, and no two of its credited spans overlap: per CPU, on-CPU time is a
 * partition of the time, idle included.
 */
struct evsums_cpu {
	/* Decoding its buffer, in its own time order: */
	pid_t cur;		/* who runs on it, as read so far: 0 idle, -1 not known yet */
	/* Applying every CPU's records in time order: */
	pid_t owner;		/* the thread on it (ACCT_ST_ONCPU, st_cpu this one); 0: none */
	uint64_t last;		/* the time of the latest record of it applied */
	uint64_t credited;	/* where the latest on-CPU time credited on it ends */
};

/*
 * Where the runs of kept records begin, but the first: each CPU's records come
 * in time order, so a record before the one kept last starts a run. Merged
 * at the tick (DEFINE_MERGE_RUNS in evsums.c) without looking for them again.
 */
struct evsums_runs {
	uint32_t *start;
	size_t n, cap;
};

/*
 * A record of a call kept until it can be paired in time order: a segment's
 * last state (tid > 0: its entry pending, or nr SC_EMPTY: none pending from
 * ts on) or the exit that opened one (of -tid).
 */
struct evsums_timing {
	uint64_t ts;
	pid_t tid;
	uint32_t nr;
};

struct evsums {
	struct pidmap threads;		/* tid -> struct evsums_thread */
	struct evsums_thread *active;	/* threads with events this interval */
	/*
	 * The threads looked up last, by tid modulo ACCT_RECENT: a CPU's page
	 * repeats one thread, and the state split's records, merged across
	 * CPUs, alternate between a few (a pipe's two ends).
	 */
	struct evsums_thread *recent[ACCT_RECENT];
	uint64_t total[CNT_NR];		/* every thread, this interval */
	uint64_t lost;			/* events the kernel dropped, this interval */
	bool lost_unknown;		/* a page said "missed events", count unknown */
	/*
	 * Count received signals at delivery (in the receiver) instead of at
	 * generation (in the sender): with a kernel pid filter, a sender outside it
	 * records nothing.
	 */
	bool recv_on_deliver;
	/* A thread ran a 32-bit program (compat ABI): their exits are looked for on sys_enter. */
	bool compat_seen;
	/*
	 * Time calls (sys_enter is traced; needs sched_switch's switch-outs).
	 * Each CPU's buffer is decoded in turn, so a call that moved to another
	 * CPU (it blocked and woke up there, execve balanced it) may have its
	 * exit decoded before its entry. Within a segment (evsums_thread.seg) a
	 * thread's entry and exit are paired as decoded, nothing kept; a
	 * segment's last state and the exit that opens one are kept (tv) and
	 * paired in time order by evsums_time_calls once every CPU is read.
	 */
	bool order_times;
	struct evsums_timing *tv, *tv_tmp;	/* tv_tmp: the merge's scratch */
	size_t ntv, cap_tv;
	struct evsums_runs tv_runs;
	/*
	 * Whose pages are decoded (evsums_set_cpu): the CPU, and in the high
	 * bits how many pages said events were lost before them (a lost
	 * switch-out could hide a move: every segment ends there).
	 */
	uint32_t here;
	size_t nseg;			/* segments open (an upper bound) */
	/*
	 * Apply lifecycle events in time order: each CPU's buffer is decoded in
	 * turn, so a child's exec or exit (on its CPU) may be decoded before its
	 * fork (on its parent's): applied as decoded, the fork would rename it
	 * back to its parent's name and undo its exit. They are few (the
	 * counting events are not kept): kept with their times, merged into
	 * one order by evsums_order_life once every CPU is read. Off: applied as
	 * decoded (one CPU, tests); either way an event older than the last one
	 * applied to its task changes only what that one left unknown.
	 */
	bool order_life;
	struct evsums_life *lv;
	size_t nlv, cap_lv;
	char *life_str;			/* the kept execs' filenames */
	size_t nlife_str, cap_life_str;
	uint32_t life_seq;

	/*
	 * The state split: the scheduler events of the interval (each CPU's
	 * buffer is decoded in turn, and a thread sleeps on one CPU, is woken
	 * on another and runs on a third), kept and applied in time order by
	 * evsums_state_end. Off: nothing kept (states unknown).
	 */
	bool states;
	struct evsums_cpu *cpus;		/* ncpus_cap of them; [0] from evsums_init */
	size_t ncpus_cap;
	struct evsums_cpu *on;		/* the CPU being read (evsums_set_cpu) */
	uint32_t cpu_tag;		/* its number, in acct_sched.what's place */
	uint64_t st_unseen;		/* switches missed, told by another task's record */
	uint64_t st_overlaps;		/* on-CPU times that overlapped on a CPU (none by design) */
	bool st_detached;		/* applying an exited thread's record past the cut */
	struct evsums_sched *sv, *sv_tmp;	/* sv_tmp: the merge's scratch */
	size_t nsv, cap_sv;
	struct evsums_runs sv_runs;
	uint64_t st_cut;		/* the end of the last interval closed (0: none) */
	uint64_t st_overflow;		/* times the records were applied early (full) */
	/*
	 * Applied before the tick (evsums_state_drained), when every CPU was read
	 * past them: per CPU (evsums_state_cpus, st_ncpus of them; none: only
	 * at the tick) the newest scheduler record read from it; st_mark is
	 * where the records of the CPU being read began.
	 */
	uint64_t *st_read;
	int st_ncpus;
	size_t st_mark;
	/*
	 * What the last walk (at a drain, at the tick) left: the next drain
	 * walks them again only once half as many again came, so that a CPU
	 * that holds them back costs each record a few copies, not one a drain.
	 */
	size_t st_left;
	/*
	 * Dark threads (evdark.c): the interval's slots, and the collector's
	 * reader (evsums_dark_reader).
	 */
	struct evsums_dark_slot *dslots;
	size_t ndslots, cap_dslots;
	bool (*dark_first)(void *arg, pid_t tid, uint64_t *run_ns, uint64_t *at_ns);
	void *dark_arg;
	uint64_t dark_moved_ns;		/* on-CPU time given back to dark threads, in all */
	uint64_t dark_dropped;		/* slots past ACCT_DARK_SLOTS */
	uint64_t st_early;		/* records applied before their tick */
	uint64_t st_walks;		/* walks at the drains */

	/*
	 * The lives of the tids (evlives.c): lives made (evsums_thread.serial),
	 * intervals ended, and events of two lives counted together in one (a
	 * life's beginning or end read after the next life's events from
	 * another CPU: not split).
	 */
	uint32_t lives, intervals;
	uint64_t lives_unsplit;
	/* sched_process_exit says whether an exit ended its process (a leader's may not: an exec). */
	bool group_dead_known;

	pid_t *born;			/* processes forked this interval */
	size_t nborn, cap_born;
	pid_t *dead;			/* tids whose exit ended their process */
	size_t ndead, cap_dead;
	struct evsums_exec *execs;	/* the interval's execs, in the order decoded */
	size_t nexecs, cap_execs;
	/* Tasks moved to another cgroup this interval (once per thread and hierarchy). */
	pid_t *moved;
	size_t nmoved, cap_moved;

	/*
	 * Signals generated this interval towards the watched processes (the
	 * focus view's: their senders), bounded.
	 */
	struct evsums_sig {
		pid_t sender, target;
		int sig, result;
		char comm[16];	/* the sender's, as events told it; may be "" */
	} sigs[ACCT_SIGS];
	size_t nsigs;
	pid_t sig_watch[ACCT_WATCH];	/* tgids; none = nothing recorded */
	size_t nsig_watch;

	/*
	 * Every signal of the interval, per flow (open addressing over
	 * 2 * ACCT_FLOWS slots, allocated at the first signal); flow_idx lists
	 * the slots in use. Past ACCT_FLOWS flows, flows_over counts them.
	 */
	struct evsums_flow *flows;
	uint16_t *flow_idx;
	size_t nflows;
	uint64_t flows_over;
};

void evsums_init(struct evsums *a);
void evsums_free(struct evsums *a);

/* The thread @tid, created (tgid unknown) on first sight. Never NULL. */
struct evsums_thread *evsums_thread_slow(struct evsums *a, pid_t tid);
/*
 * @tid's thread, its life that made a system call's event at @ts
 * (evlives.c), on the interval's active list (its counts are collected).
 */
struct evsums_thread *evsums_activate(struct evsums *a, pid_t tid, uint64_t ts);
static inline struct evsums_thread *evsums_thread(struct evsums *a, pid_t tid)
{
	struct evsums_thread *t = a->recent[(uint32_t)tid & (ACCT_RECENT - 1)];

	if (t && t->tid == tid)
		return t;
	return evsums_thread_slow(a, tid);
}

/* A new thread, not in acct.threads yet: what the slow path makes (evlives.c makes lives). */
struct evsums_thread *evsums_thread_new(struct evsums *a, pid_t tid);

/*
 * The lives of a tid (evlives.c). Each CPU's buffer is decoded in turn, so
 * a reused tid's events come in no one order: each goes to the life its
 * time falls in, the lives bounded by what ends and begins one as decoded
 * (an exit; a task_newtask, the new task's first return from its fork).
 * evsums_life_route: @t's life does not hold @ts; the one that does, made
 * if new. From @t, the tid's newest life (evsums_thread).
 */
struct evsums_thread *evsums_life_route(struct evsums *a, struct evsums_thread *t, uint64_t ts, bool call);
static inline struct evsums_thread *evsums_life_at(struct evsums *a, struct evsums_thread *t, uint64_t ts)
{
	/* One compare: ts below life_lo wraps above the span. */
	if (__builtin_expect(ts - t->life_lo > t->life_hi - t->life_lo, 0))
		return evsums_life_route(a, t, ts, false);
	return t;
}
/* The same for a system call's event: none follows its life's exit. */
static inline struct evsums_thread *evsums_life_call(struct evsums *a, struct evsums_thread *t, uint64_t ts)
{
	if (__builtin_expect(ts - t->call_lo > t->call_hi - t->call_lo, 0))
		return evsums_life_route(a, t, ts, true);
	return t;
}
/*
 * A life of @l's tid begins at @ts: @fr, its first return from its fork
 * (@l: evsums_life_call's), else its creator's task_newtask (@l:
 * evsums_life_at's). Returns that life, made if new; NULL when that cannot be
 * told yet (a fork older than the oldest life kept, which began with a
 * return read first, no exit between): @settle takes it as that life's, once
 * every CPU is read (evsums_order_life).
 */
struct evsums_thread *evsums_life_begin(struct evsums *a, struct evsums_thread *l, uint64_t ts, bool fr,
				    bool settle);
/* @l (evsums_life_at's) exited at @ts; @ends: the tid's life ends (not a leader whose process goes on). */
void evsums_life_end(struct evsums *a, struct evsums_thread *l, uint64_t ts, bool ends);
/* @l's last switch, after its exit, at @ts (evsums_life_tail's): nothing of it follows. */
void evsums_life_gone(struct evsums_thread *l, uint64_t ts);
/* What a life does after its exit (its last switch, its SIGCHLD) at @ts: that life's, from the newest @t. */
struct evsums_thread *evsums_life_tail(struct evsums *a, struct evsums_thread *t, uint64_t ts);
/* The life of @th's process: its leader's (tid @tgid) when @th began, else the newest. */
struct evsums_thread *evsums_life_of_proc(const struct evsums *a, struct evsums_thread *th, pid_t tgid);

/*
 * A fork-family call returning 0: a new task leaving the kernel for the first
 * time. That is its creator's call, counted once there (strace counts it so).
 */
bool evsums_child_return(long nr, long ret);
/*
 * The same for a 32-bit program's calls (i386 numbers on x86_64; never
 * elsewhere).
 */
bool evsums_child_return_compat(long nr, long ret);
/* Is @nr execve of the compat ABI (how an exec into a 32-bit program returns)? */
bool evsums_compat_execve(long nr);
/* The call sys_exit reports as @nr (rt_sigreturn reports the restored -1). */
long evsums_real_nr(long nr);
/* A call that changes the caller's credentials when it succeeds (set*id, setgroups, capset)? */
bool evsums_cred_call(long nr);
bool evsums_cred_call_compat(long nr);

/* One event each, decoded by evdecode.c. @ts is the ring buffer time in ns. */
void evsums_sys_enter(struct evsums *a, pid_t tid, long nr, uint64_t ts);
void evsums_sys_exit(struct evsums *a, pid_t tid, long nr, long ret, uint64_t ts);
/*
 * A sys_enter and a sys_exit of @tid, the latter the next record of the same
 * CPU's page (--latency's common case: a call that neither blocked nor was
 * preempted): what evsums_sys_enter then evsums_sys_exit do, in one call.
 */
void evsums_sys_call(struct evsums *a, pid_t tid, long enter_nr, uint64_t enter_ts, long nr, long ret,
		   uint64_t ts);
/* The entry of a syscall that never returns (exit, exit_group): one call, none pending after. */
void evsums_sys_noreturn(struct evsums *a, pid_t tid, long nr, uint64_t ts);
void evsums_switch(struct evsums *a, pid_t prev, long prev_state, uint64_t ts);
/* Its last switch, after its exit, was read: nothing more of it can come. */
bool evsums_gone(const struct evsums_thread *t);
/* @sender is 0 when the signal came from interrupt context (no sending task). */
void evsums_signal(struct evsums *a, pid_t sender, pid_t target, int sig, int result, uint64_t ts);
/* signal_deliver in @tid: received, when acct.recv_on_deliver says so. */
void evsums_signal_deliver(struct evsums *a, pid_t tid, uint64_t ts);
/* Lifecycle events, with their ring buffer time @ts (see order_life). */
void evsums_newtask(struct evsums *a, pid_t parent, pid_t child, uint64_t clone_flags,
		  const char *comm, size_t comm_len, uint64_t ts);
void evsums_exec(struct evsums *a, pid_t pid, pid_t old_pid, const char *filename, size_t len,
	       uint64_t ts);
/* task_rename: @pid's name is @comm now (prctl PR_SET_NAME, /proc/PID/comm, exec). */
void evsums_rename(struct evsums *a, pid_t pid, const char *comm, size_t comm_len, uint64_t ts);
void evsums_exit(struct evsums *a, pid_t tid, bool group_dead, uint64_t ts);
/*
 * With order_life, after every CPU's buffer is read up to now: the kept
 * lifecycle events applied in time order (before the born, dead and exec
 * lists, the names and the exits are looked at).
 */
void evsums_order_life(struct evsums *a);
/* cgroup_attach_task: @tid moved to another cgroup (its cgroup is read again). */
void evsums_cgroup_attach(struct evsums *a, pid_t tid);
/*
 * After every CPU's buffer is read up to now: every segment ends, the kept
 * records are paired in time order, the time of each call they pair added
 * to the interval's tables (before evsums_first_active's sums are taken);
 * each thread's enter_nr says the call it is in.
 */
void evsums_time_calls(struct evsums *a);
/* @n events lost; n < 0: some, count unknown. */
void evsums_lost(struct evsums *a, long n);
/* The events decoded from now on are CPU @cpu's (0 until said). */
void evsums_set_cpu(struct evsums *a, int cpu);

/*
 * The ABI of @t's calls, learnt from /proc when no event said it (ftrace reads
 * the ELF class of its program): @compat for a 32-bit program's. Its calls of
 * this interval, keyed as native until now, are re-keyed. Nothing changes
 * when its ABI is known already.
 */
void evsums_set_abi(struct evsums *a, struct evsums_thread *t, bool compat);
/*
 * The state split (only with acct.states). sched_switch: @prev leaves the
 * CPU in @prev_state, @next takes it. sched_wakeup(_new): @pid is runnable;
 * @by wrote the record (its common_pid: the task running on this CPU, 0 its
 * idle task; the woken task's parent for a new one). A record written by
 * another task than the one the CPU's records said runs there (a switch's
 * prev, a wakeup's or a system call's writer) means a switch was not read:
 * that task ran since (acct_cpu).
 */
void evsums_state_switch(struct evsums *a, pid_t prev, long prev_state, pid_t next, uint64_t ts);
void evsums_state_wakeup(struct evsums *a, pid_t pid, bool new_task, pid_t by, uint64_t ts);
/*
 * evsums_state_end - the interval's states, up to @cut
 * @cut: a time (the trace clock's) before which every CPU's events were read
 *
 * After evsums_order_life, every CPU read: the kept events before @cut (and
 * those of threads that exited, up to their last switch) applied in time
 * order, the rest kept for the next interval; then every thread's open
 * state closed at @cut, its time added to n[] (its state's counter), and the thread made
 * active (its row gets the time even without an event).
 */
void evsums_state_end(struct evsums *a, uint64_t cut);
/*
 * evsums_state_cpus - the buffers' CPUs are 0..@ncpus-1 (evsums_set_cpu's): from
 * then on evsums_state_drained applies the records every CPU was read past.
 */
void evsums_state_cpus(struct evsums *a, int ncpus);
/* CPU @cpu has no buffer (offline or absent when tracing began): never read, it holds nothing back. */
void evsums_state_no_cpu(struct evsums *a, int cpu);
/*
 * evsums_state_drained - a CPU's buffer was read (a drain, between ticks): the
 * kept records older than what every CPU was read up to (the newest record
 * read from it, or the last cut) less @slack applied in time order, as
 * evsums_state_end would apply them; the rest kept. A CPU that wrote none since
 * the cut holds them all back: its buffer may hold older ones yet. @slack
 * keeps them clear of the next cut when that may fall before what was read
 * (a mapped clock's error, counting.c).
 */
void evsums_state_drained(struct evsums *a, uint64_t slack);
/* The state a thread enters at a switch that reports @prev_state. */
enum evsums_st evsums_state_of(long prev_state);

/*
 * Dark threads (evdark.c): the kernel writes no task-context record of some
 * (a VM agent's here), so no switch-out: the CPU's next record, another
 * task's, tells it left, not when. Until then the time went to whoever ran
 * next. The scheduler's own count of a dark thread's run time
 * (/proc/TID/schedstat, read at the cut) tells how much of it was its.
 *
 * evsums_dark_reader - who tells the dark threads' run times: @first(@arg,
 * tid, &run_ns, &at_ns), at the tick a thread is first found dark, its run
 * time since tracing began as read at @at_ns (the cut's clock; 0: at the
 * cut), and from then on it is read at each cut (false: not known, never
 * asked again). Without one, nothing is given back.
 */
void evsums_dark_reader(struct evsums *a, bool (*first)(void *arg, pid_t tid, uint64_t *run_ns, uint64_t *at_ns),
			void *arg);
/*
 * evsums_dark_run - dark thread @tid ran @run_ns from the last cut to this
 * one (its schedstat's first field's growth), before evsums_state_end.
 * Returns false when @tid is not a dark thread (any more): stop reading it.
 */
bool evsums_dark_run(struct evsums *a, pid_t tid, uint64_t run_ns);
/* Internal to evsums.c (evdark.c): a slot, and the interval's, once its states closed. */
void evdark_slot(struct evsums *a, struct evsums_thread *d, uint64_t d_from, struct evsums_thread *t,
		 uint64_t t_from, uint64_t ts);
void evdark_apply(struct evsums *a, uint64_t cut);

/* Record that @tid belongs to @tgid (from /proc, when no event said so). */
void evsums_set_tgid(struct evsums *a, struct evsums_thread *t, pid_t tgid);

static inline struct evsums_thread *evsums_first_active(const struct evsums *a)
{
	return a->active;
}

/*
 * Keep @t's counts of this interval for the next one (its process could not be
 * looked up in time): evsums_end_interval leaves them, and @t active.
 */
void evsums_carry(struct evsums *a, struct evsums_thread *t);

/*
 * Start the next interval: counts and tables reset, lifecycle lists emptied,
 * threads that exited two intervals ago forgotten (a CPU drained later may still
 * hold events they wrote before exiting), and so are threads idle for
 * ACCT_IDLE_FORGET intervals (an exit event may have been lost).
 */
#define ACCT_IDLE_FORGET 600
void evsums_end_interval(struct evsums *a);

#endif
