/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SAMPLE_H
#define KTOP_SAMPLE_H

/*
 * model/sample: the one interface between a source and the model.
 *
 * A source fills a sample with what it read (the processes' /proc readings,
 * the interval's event counts per row, the system files, lost events, the
 * time) and the model applies it (model_apply, model.h): sources never write
 * the model's data themselves, they get it const, with one exception: the
 * focus (collectors/focus/focus.c, the process view's rings, fed at event rate
 * between ticks) writes through model_focus_feed (model.h) alone, with the
 * model the source list hands the focus source (collectors/source.h, struct
 * source_env's feed). The live loop is the list (src/sourcelist.c), in its
 * order:
 *
 *	system, procfs, cgnames, counting, focus, inprog, exits, cgres:
 *	fill a sample -> model_apply (after system, procfs, inprog, cgres)
 *	-> views, outputs (sinks read the model)
 *
 * and a replayed recording is one more source filling the same samples. A
 * source may read the model (what the views want, which tasks it has) to
 * decide what to read; several sources apply in turn within one tick, each
 * seeing what the previous ones applied (procfs the system's last_pid, ftrace
 * the rows procfs made).
 *
 * Entries are applied in this order: a recording's session, the processes
 * that join the focus, the tick's start (begin), the system sample, task
 * readings, withheld rows, event rows, exits, unfocused processes, final
 * readings, signal flows, sockets, block devices, totals, calls in progress, the
 * focused processes' threads, cgroups, the tick's end (end). A sample owns its arrays and is reused from tick to
 * tick: no allocation in the steady state.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/cgname.h"
#include "cgres.h"
#include "counters.h"
#include "disks.h"
#include "fcall.h"
#include "procdata.h"
#include "fproc.h"
#include "../lib/sctable.h"

/*
 * What a source must read beyond /proc/PID/stat, asked by a column
 * (tables/columns.h) or a sink: the procfs collector's orders.
 */
#define NEED_STATUS	0x1u
#define NEED_CMDLINE	0x2u
#define NEED_CGROUP	0x4u	/* /proc/PID/cgroup, once a process life and after exec */
#define NEED_SCHEDSTAT	0x8u	/* /proc/PID/task/TID/schedstat, each thread (run_delay) */
/*
 * Its CPU limit (collectors/cgroup/cgfiles.c: the cgroup of the CPU controller that
 * limits it, its cpu.stat each tick; /proc/PID/cgroup once a process life).
 */
#define NEED_CPULIMIT	0x10u
#define NEED_IO		0x20u	/* /proc/PID/io (read_bytes, write_bytes) */

/* One task's /proc reading (collectors/proc/procfs.c). */
struct task_reading {
	pid_t pid, tgid;		/* pid: the tid in thread mode */
	bool born;			/* it did not exist at the previous tick: counts are totals */
	struct pid_stat stat;		/* stat.starttime: with pid, its identity */
	bool have_csw;			/* vcsw/ivcsw read (status, summed over threads) */
	uint64_t vcsw, ivcsw;
	bool have_runq;			/* run_delay read (schedstat, summed over threads), ns */
	uint64_t runq_ns;
	bool have_io;			/* /proc/PID/io read (NEED_IO): the task's totals, bytes */
	uint64_t io_read, io_write;	/* read_bytes, write_bytes */
	int64_t uid;			/* -1 unknown */
	const char *user;		/* interned by the source, lives as long as it */
	const char *cgroup;		/* likewise; NULL: not read this time (unchanged) */
	char *cmdline;			/* a reference (lib/rcstr.h), passed to the model; NULL: unchanged or not read */
	size_t cmdline_len;
};

/*
 * One row's kernel events of the interval (collectors/trace/counting.c). A row the
 * model does not have (born and gone between two /proc reads) is made from
 * @comm, @ppid and @exited; one that /proc did not read this tick is gone, its
 * events were its last.
 */
struct row_events {
	pid_t id, tgid;			/* id: the row (tgid, or the tid in thread mode) */
	uint64_t n[CNT_NR];	/* indexed by enum counter; event counters only */
	const struct sctable *sc;	/* per syscall; the source's, valid until applied */
	const struct sctable *err;	/* per syscall and errno (sc_err_key); likewise */
	char comm[16];			/* its name by the events: the last one when @renamed */
	/* The state split's counters are known (a thread's state was); else unknown. */
	bool have_state;
	bool renamed;			/* it exec'd or was renamed after /proc last read it */
	pid_t ppid;
	bool exited;
	/*
	 * Which life of @id it is: a pid is reused, within an interval too
	 * (collectors/trace/evlives.c). @life: its number (0: it began before the
	 * events told); @born: it began this interval; @ended: an older life
	 * than the one the id has now, ended (a row of its own, X, next to
	 * the newer one's).
	 */
	uint32_t life;
	bool born, ended;
	/* Its events and another life's were read in an order that cannot split them: unknown. */
	bool unsure;
};

/*
 * Signals of the interval from one process to another, of one signal and one
 * result of signal:signal_generate (collectors/trace/counting.c): the Signals view.
 */
struct sig_flow {
	pid_t sender;			/* its process; 0: the kernel (no sending task) */
	pid_t receiver;			/* the target's process */
	int sig;			/* 0 with sender = receiver = -1: signals of flows not kept */
	int result;			/* enum sig_result (model/sigflow.h) */
	uint64_t n;
	char sender_comm[16];		/* as the events knew them; may be "" */
	char receiver_comm[16];
};

/*
 * A socket that had events in the interval (collectors/trace/sockconn.c): the
 * Connections view's rows. Its counts are the interval's, its totals since
 * ktop first saw it.
 */
#define SOCK_CONN_NAMED		0x1u	/* addresses known */
#define SOCK_CONN_BEGUN		0x2u	/* ktop saw it begin (a TCP state change from CLOSE) */
struct sock_conn {
	uint64_t id;			/* ktop's number of it, from 1; 0: sockets not tracked */
	pid_t pid;			/* the process that last sent or received on it; 0: none */
	char comm[16];			/* as the events knew it; may be "" */
	uint32_t family, protocol;	/* AF_INET, AF_INET6; IPPROTO_TCP, IPPROTO_UDP, ... */
	int32_t state;			/* TCP state, 1 ESTABLISHED .. 12 NEW_SYN_RECV; 0: unknown */
	uint32_t flags;			/* SOCK_CONN_* */
	uint32_t lport, rport;
	uint64_t addr[4];		/* local, then remote: 16 bytes each (IPv4: the first 4) */
	uint64_t tx, rx, retrans, resets;	/* bytes sent, received; segments retransmitted, resets sent */
	uint64_t tx_total, rx_total, retrans_total;
	uint64_t first_ns;		/* CLOCK_MONOTONIC of the first event ktop saw of it */
};

/*
 * A dead task's final reading: the kernel's record of its exit
 * (collectors/exits/exits.c, from taskstats). Its counters are its life's totals;
 * the model turns them into the interval's counts against the task's last
 * /proc reading, or takes them whole for a task born in the interval.
 * Applied only to a task that is dead this tick (its /proc read failed, or an
 * exit event said so), or to none: it then makes the task's row. Of a pid's
 * lives, the oldest dead this tick without its record takes it: records come
 * in the order the tasks exited.
 */
struct task_final {
	pid_t id, tgid;			/* id: the row (tgid, or the tid in thread mode) */
	pid_t ppid;
	/* It started after the previous tick: a row without a reading then counts it all. */
	bool born;
	uint32_t have;			/* bit per enum counter set in @cnt */
	uint64_t cnt[CNT_NR];		/* totals at exit (CPU, faults, switches) */
	int64_t uid;			/* the REAL uid (the record has no other); -1 unknown */
	const char *user;		/* interned by the source, lives as long as it */
	char comm[16];			/* its name at exit (after exec and prctl) */
	/* When it started, in clock ticks after boot, as the record bounds it: which life it was. */
	bool have_window;
	uint64_t start_lo, start_hi;
};

/*
 * What the model is told of the session a replayed recording was made in
 * (store/replay.c): the recording host's clock ticks and page size, its
 * row mode, and the state of tracing then. Live sources never set it: the
 * model has these from the running system (src/main.c).
 */
struct sample_session {
	bool restart;			/* the model starts over: the next tick is a first one */
	bool clear;			/* its tasks are dropped (the row mode changed) */
	long hz, page_kb;
	bool threads;
	uint32_t event_counters;	/* bit per enum counter that events supplied */
	int64_t events_uid;
	char trace_status[160];
	const pid_t *pins;		/* -p of the recording: the focus; NULL = none */
	size_t npins;
	bool exit_records;		/* exit records were listened to */
	char exits_status[160];		/* why not */
	char disks_status[96];		/* why the block devices are not in it ("": they may be) */
	char conns_status[96];		/* why the sockets are not in it ("": they may be) */
};

/* A cgroup's names (collectors/cgroup/cgnames.c), resolved once per cgroup path. */
struct cg_named {
	const char *cgroup;		/* the path as the tasks have it (interned by the source) */
	struct cg_name name;
};

/* One group's cgroup files read (collectors/cgroup/cgfiles.c); dir "": /proc/pressure. */
struct cg_reading {
	const char *dir;		/* the source's, valid until applied */
	uint64_t t_ns;			/* CLOCK_MONOTONIC when read */
	struct cgres_raw raw;
};

/*
 * A row's CPU limit (collectors/cgroup/cgfiles.c): the key of the reading (struct
 * cg_reading, read in the same sample) of the nearest cgroup with a CPU
 * limit on its path in the hierarchy of the CPU controller.
 */
struct cg_cpu_of {
	pid_t id;			/* the row (tgid, or the tid in thread mode) */
	const char *dir;		/* CGRES_CPU_KEY "PATH", the source's; "": nothing limits it */
};

/*
 * One thread's state split of the interval, of a focused process (the
 * process view's threads; collectors/focus/focus.c from the counting instance's
 * per-thread sums): fproc_thread_put's arguments.
 */
struct fthread_split {
	pid_t pid, tid;			/* the focused process, its thread */
	char comm[16];			/* its name; "" unknown */
	uint64_t ns[FS_NR];		/* indexed by enum fp_state */
	bool known;			/* its split is known this tick */
	bool exited;			/* this is its last */
};

struct sample {
	/* Applied first, before the tick begins: a recording's session. */
	bool have_session;
	struct sample_session session;
	/* Then the processes that join the focus (forked by a followed one, -- CMD). */
	pid_t *follow;
	size_t nfollow, cap_follow;

	/* The tick: begin starts one at @mono_ns, end computes its counts and rates. */
	bool begin, end;
	uint64_t mono_ns;		/* CLOCK_MONOTONIC: intervals and rates */
	double wall_s;			/* wall clock: what the outputs print */

	bool have_sys;
	struct sys_sample sys;		/* sys.stat.cpu points into @cpu */
	struct cpu_times *cpu;		/* SYS_MAX_CPUS entries, owned */

	struct task_reading *tasks;
	size_t ntasks, cap_tasks;
	struct row_events *rows;
	size_t nrows, cap_rows;
	/* Rows whose interval is withheld (not root: credentials changed in it). */
	pid_t *withheld;
	size_t nwithheld, cap_withheld;
	/* Processes whose last thread exited: their row is their last one. */
	pid_t *exits;
	size_t nexits, cap_exits;
	/* Followed processes that stop being reported (they gained privileges). */
	pid_t *unfocus;
	size_t nunfocus, cap_unfocus;
	/* Dead tasks' final readings (exit records). */
	struct task_final *finals;
	size_t nfinals, cap_finals;
	/* Exit records the kernel dropped this interval (taskstats' receive queue full). */
	bool have_exit_totals;
	uint64_t exits_lost;
	bool exits_lost_unknown;	/* some dropped, how many unknown */

	/* Signals, per flow (the whole system's, as far as the rows are shown). */
	struct sig_flow *flows;
	size_t nflows, cap_flows;

	/* Sockets of the interval (the Connections view). */
	struct sock_conn *conns;
	size_t nconns, cap_conns;

	/* Cgroups' names and groups' resources (applied after the readings). */
	struct cg_named *named;
	size_t nnamed, cap_named;
	struct cg_reading *cgres;
	size_t ncgres, cap_cgres;
	struct cg_cpu_of *cpu_of;	/* applied after the readings */
	size_t ncpu_of, cap_cpu_of;

	/*
	 * The watched processes' system calls in progress for an interval or
	 * more at @calls_ns (collectors/trace/inprog.c); have_calls: they were looked
	 * for (none is then "none", not "unknown").
	 */
	bool have_calls;
	struct fcall *calls;
	size_t ncalls, cap_calls;
	uint64_t calls_ns;

	/*
	 * The focused processes' threads' state splits (have_fthreads: put
	 * this tick, every focused process's; fthreads_known: the events had
	 * the threads' states, else none is known).
	 */
	bool have_fthreads, fthreads_known;
	struct fthread_split *fthreads;
	size_t nfthreads, cap_fthreads;

	/* Block devices' interval (collectors/trace/blockev.c); have_disks: read (none: idle). */
	bool have_disks;
	struct disk_reading *disks;
	size_t ndisks, cap_disks;

	/* The whole system's event counts and what the kernel dropped, this interval. */
	bool have_totals;
	uint64_t ev_total[CNT_NR];
	uint64_t lost;
	bool lost_unknown;		/* some dropped, how many unknown */
};

void sample_init(struct sample *s);
void sample_free(struct sample *s);
/* Empty it for the next source (model_apply does this after applying). */
void sample_reset(struct sample *s);

/* A new entry at the end of its list, zeroed; the sample owns it. */
struct task_reading *sample_add_task(struct sample *s);
struct row_events *sample_add_row(struct sample *s);
void sample_add_withheld(struct sample *s, pid_t id);
void sample_add_exit(struct sample *s, pid_t tgid);
void sample_add_unfocus(struct sample *s, pid_t tgid);
void sample_add_follow(struct sample *s, pid_t tgid);
struct fthread_split *sample_add_fthread(struct sample *s);
struct sig_flow *sample_add_flow(struct sample *s);
struct task_final *sample_add_final(struct sample *s);
struct sock_conn *sample_add_conn(struct sample *s);
struct cg_named *sample_add_named(struct sample *s);
struct cg_reading *sample_add_cgres(struct sample *s);
struct cg_cpu_of *sample_add_cpu_of(struct sample *s);
struct fcall *sample_add_call(struct sample *s);
struct disk_reading *sample_add_disk(struct sample *s);

#endif
