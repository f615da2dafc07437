/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TASKPARSE_H
#define KTOP_TASKPARSE_H

/*
 * collectors/exits/taskparse: the kernel's taskstats exit records, read out of one
 * received generic netlink buffer. Pure: no I/O, no allocation, every read
 * bounds-checked against the buffer, the message and the attribute, so it can
 * be fuzzed. The socket side is taskstats.h.
 *
 * What the kernel sends (kernel/taskstats.c, taskstats_exit()): one
 * TASKSTATS_CMD_NEW message per exiting task, holding
 *   - a TASKSTATS_TYPE_AGGR_PID nest: the thread's id and its struct taskstats
 *     (its own counters, not its process's), and
 *   - only from the last thread of a process that ever had more than one
 *     thread: a TASKSTATS_TYPE_AGGR_TGID nest with the process's struct, in
 *     which the exit path sums the threads' delay accounting (its run_ns is
 *     their total runtime) and leaves the rest zero or meaningless, version
 *     included: never use it for CPU time, faults, switches or I/O.
 * Some 64-bit architectures put an empty TASKSTATS_TYPE_NULL before a nest;
 * the struct is never 8-byte aligned in the buffer (fields are memcpy'd).
 *
 * struct taskstats is versioned and only grows at its end (the attribute
 * length is the running kernel's sizeof), so fields are read at fixed offsets
 * and only when the attribute holds them; a newer, larger struct reads the
 * same. Except version 15 (Linux 6.15-rc only): it inserted fields in the
 * middle, version 16 moved them to the end; its records are counted as
 * unsupported, never misread. Offsets are this file's own (checked against
 * <linux/taskstats.h> at build time), not the build host's struct.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TS_COMM_LEN 32	/* the struct's ac_comm; TASK_COMM_LEN is 16 */

/* struct taskparse_exit.ac_flag bits (<linux/acct.h>) */
#define TS_AFORK 0x01	/* forked but did not exec */
#define TS_ASU 0x02	/* used superuser privileges */
#define TS_ACORE 0x08	/* dumped core */
#define TS_AXSIG 0x10	/* killed by a signal */
#define TS_AGROUP 0x20	/* the last thread of its process (version 12 and later) */

/*
 * One exit record, ktop's form. Counters are the kernel's at the moment the
 * task entered do_exit's accounting (before it released its memory and
 * files): a final context switch or two still follow (wait4's rusage counts
 * them, the record does not).
 */
struct taskparse_exit {
	pid_t tid;		/* the thread; 0 in a group record */
	pid_t tgid;		/* its process; 0 = unknown (struct older than version 12) */
	pid_t ppid;		/* the parent process at exit (a reaper when orphaned) */
	uint32_t uid, gid;	/* REAL ids (not effective), initial user namespace */
	uint32_t exit_code;	/* as wait() encodes it: status << 8 | signal */
	uint16_t version;	/* of the kernel's struct taskstats */
	uint32_t len;		/* bytes of it the kernel sent */
	uint8_t ac_flag;	/* TS_A* */
	bool group;		/* an AGGR_TGID record: the threads' delay accounting only */
	bool group_dead;	/* TS_AGROUP: the process ended with this thread */
	char comm[TS_COMM_LEN];	/* NUL-terminated; control bytes turned into '?' */
	uint64_t btime;		/* start, wall clock seconds (ac_btime64, or ac_btime) */
	uint64_t etime_us;	/* start to exit, CLOCK_MONOTONIC microseconds */
	/*
	 * CPU time in microseconds, as the tick sampled it (task_cputime; with
	 * tick-based accounting a task that ran 3 ms between ticks may show 0).
	 * /proc and wait4 scale the same samples to the exact runtime
	 * (cputime_adjust), so the two differ by up to a few ticks.
	 */
	uint64_t utime_us, stime_us;
	/*
	 * cpu_run_virtual_total: the scheduler's runtime (se.sum_exec_runtime)
	 * as of its last update (a tick or a switch), so it lags by less than
	 * a tick and is 0 for a task that never met either. Linux 6.18 fills it
	 * with kernel.task_delayacct=0; a kernel that fills it only with delay
	 * accounting on sends 0. Use it when non-zero, else utime + stime.
	 */
	uint64_t run_ns;
	uint64_t minflt, majflt;
	uint64_t nvcsw, nivcsw;
	/* Bytes, each rounded DOWN to a multiple of 1024 by the kernel (KB_MASK). */
	uint64_t rchar, wchar, read_bytes, write_bytes, cancelled_write_bytes;
	uint64_t syscr, syscw;	/* read/write system calls, rounded down to 1024 too */
	uint64_t hiwater_rss_kb, hiwater_vm_kb;
	/*
	 * Bounds of the exit time, CLOCK_BOOTTIME ns, set by the socket side
	 * (taskstats.c) when it read the record; 0 = unknown (the parser leaves
	 * them 0). See taskparse_start_window.
	 */
	uint64_t exit_lo_ns, exit_hi_ns;
};

/* What a buffer held besides records. Counts add up over calls. */
struct taskparse_stats {
	uint64_t msgs;		/* netlink messages seen */
	uint64_t malformed;	/* messages with lengths or attributes that do not add up */
	uint64_t unsupported;	/* records of a struct version ktop cannot read (1, 15) */
	uint64_t other;		/* well-formed messages without records (other commands, acks) */
	uint64_t overflow;	/* records that did not fit in @max */
	uint64_t errors;	/* NLMSG_ERROR messages carrying an error */
	int last_error;		/* the latest one, -errno */
};

/*
 * The least buffer space one record takes (its nests and the shortest struct
 * read): a buffer of N bytes yields at most N / TS_RECORD_MIN_BYTES + 1.
 */
#define TS_STATS_MIN_LEN 288	/* through nivcsw: every kernel since 2.6.2x */
#define TS_RECORD_MIN_BYTES (4 + 8 + 4 + TS_STATS_MIN_LEN)

/*
 * taskparse - the exit records of one received netlink buffer
 * @buf, @len: what one recv returned (several messages are fine)
 * @family: the TASKSTATS generic netlink family id (other types are skipped)
 * @out, @max: where records go, in the order of the buffer
 * @st: counts added to (not reset); may not be NULL
 *
 * A message whose header does not fit ends the buffer (nothing after it can
 * be found); a bad attribute ends its message. Records read before a defect
 * are kept. Returns how many records were written to @out.
 */
size_t taskparse(const void *buf, size_t len, uint16_t family, struct taskparse_exit *out, size_t max,
		struct taskparse_stats *st);

/*
 * taskparse_start_window - when the task started, as /proc/PID/stat's starttime
 * @hz: clock ticks per second (sysconf(_SC_CLK_TCK))
 *
 * taskstats has no start time in ticks: ac_btime is wall-clock seconds. The
 * start is exit - etime, and the exit lies in [exit_lo_ns, exit_hi_ns] (the
 * socket side's bounds, boot-relative), so the start lies in *lo..*hi ticks
 * after boot (inclusive). Wrong by the time suspended when the system
 * suspended during the task's life (etime is monotonic, starttime boot time).
 * Returns false when the bounds are unknown.
 */
bool taskparse_start_window(const struct taskparse_exit *e, long hz, uint64_t *lo, uint64_t *hi);

/*
 * taskparse_exit_is - is @e the exit of the task @pid that started at @starttime
 * (/proc/PID/stat field 22, clock ticks)? @pid is compared with the thread
 * (or, for a group record, the process). Without exit bounds only the pid is
 * compared.
 */
bool taskparse_exit_is(const struct taskparse_exit *e, pid_t pid, uint64_t starttime, long hz);

#endif
