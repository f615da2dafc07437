/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TASKSTATS_H
#define KTOP_TASKSTATS_H

/*
 * collectors/exits/taskstats: the kernel's record of every task that exits, from
 * the TASKSTATS generic netlink family, with plain netlink sockets (no libnl).
 * taskstats_open resolves the family, registers for the exits on every possible CPU
 * (TASKSTATS_CMD_ATTR_REGISTER_CPUMASK) and returns a non-blocking socket for
 * the main loop's poll(); taskstats_drain reads what is pending into the caller's
 * array, bounded so that a tick never waits; taskstats_close deregisters and closes.
 * Records are parsed by taskparse.h (read it for what each field means).
 *
 * Needs CAP_NET_ADMIN (registering is GENL_ADMIN_PERM) in the initial user and
 * PID namespaces (the kernel refuses listeners elsewhere) and CONFIG_TASKSTATS.
 * Without them taskstats_open says why in one line for the header.
 *
 * Measured here (Linux 6.18, 2 CPUs; tests/unit/test_taskstats.c): struct
 * version 16, 560 bytes, 1,280 bytes of receive memory per record, so the
 * default buffer (8 MiB asked, 16 MiB granted) holds about 13,000 exits;
 * undrained, a 7,000-forks/s storm overflows it in 2 s. A drain costs about
 * 1-2 us per record. taskstats_open takes 0.05 ms.
 *
 * Matching a record to a process row of the model:
 *   - Identity is (pid, start time), as for /proc rows: a thread record is of
 *     tid e->tid, of process e->tgid; taskparse_exit_is(e, pid, starttime, hz) says
 *     whether the row whose /proc/PID/stat starttime is @starttime is that
 *     task. The start is known within a window (taskparse_start_window): the exit
 *     happened between the last time the socket was found empty (less 100 ms
 *     for the kernel's own latency) and the read, so a pid reused within that
 *     window could be taken for its predecessor - it takes pid_max forks.
 *   - A process is dead when a thread record has e->group_dead (AGROUP). Not
 *     when tid == tgid: a leader can exit before its threads, and the leader
 *     of a process that execs from another thread exits while its pid lives on.
 *   - Thread records carry the THREAD's counters. A single-threaded process's
 *     one record (group_dead set) is the whole process. A process that ever
 *     had threads sends one record per thread, the last with group_dead and
 *     followed by a group record (e->group) that holds the threads' delay
 *     accounting only: skip it for CPU, faults, switches and I/O (sum the
 *     thread records).
 *   - A process seen alive by /proc at the previous tick must not be counted
 *     twice: its last interval is its counters at death minus that reading.
 *     Single-threaded: record - reading. Multi-threaded: the sum of its thread
 *     records received since the reading, minus (the reading - the sum of its
 *     thread records received before it), which is exact only when ktop has
 *     listened since the process started; otherwise per-thread readings are
 *     needed. A process born and dead within the interval: the sum of its
 *     thread records. Clamp each difference at 0: see the next points.
 *   - CPU: the record's utime/stime are the tick's samples (tick-based
 *     accounting: a short-lived task can show 0 us), /proc's and wait4's are
 *     scaled to the exact runtime; they differ by a tick or more. e->run_ns
 *     (the scheduler's runtime) is within a tick of wait4's total when it is
 *     non-zero: prefer it (tests/unit/test_taskstats.c measures both).
 *   - Switches: the task switches once or more after its record is made
 *     (its final schedule, blocking in exit_mm/exit_files): wait4 says 1-2
 *     more voluntary switches. Faults and I/O are final.
 *   - I/O bytes and read/write call counts are rounded down to 1024 each, by
 *     the kernel, per thread.
 *   - uid/gid are the REAL ids; the model shows the effective uid from
 *     /proc/PID/status. They differ for set-uid programs.
 *   - comm is the name at exit (after exec and prctl), at most 15 bytes.
 *   - Order: the kernel queues the record just before it writes the
 *     sched_process_exit trace event (do_exit: taskstats_exit, then the
 *     tracepoint), but the two reach ktop by different paths read at
 *     different times: a record may be drained before the exit event's
 *     ring-buffer page, or a tick after the row was marked dead. Keep
 *     unmatched records (by tid) for a couple of ticks, and keep dead rows
 *     until their record came or that time passed.
 *   - ktop's own records: children it forks (a launch whose exec failed) and
 *     any thread it ever starts send records with tgid == getpid(): skip them.
 *   - Records of kernel threads (kworkers) come too; ppid 2.
 *
 * Losses: the kernel drops a record when the socket's receive buffer is full
 * and from then on EVERY record until the reader has emptied the queue
 * (NETLINK_S_CONGESTED); the next recv fails with ENOBUFS once. The drops are
 * counted exactly through SO_MEMINFO (SK_MEMINFO_DROPS) when the kernel has
 * it, else "some lost, count unknown". After a drop, drain to empty quickly
 * (call taskstats_drain again while it says records are left).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "taskparse.h"

struct taskstats_listener;

/* A growable array of records the caller owns; taskstats_drain appends to it. */
struct taskstats_vec {
	struct taskparse_exit *v;
	size_t n, cap;
};

void taskstats_vec_free(struct taskstats_vec *v);

struct taskstats_counts {
	uint64_t records;	/* parsed since taskstats_open */
	uint64_t msgs;		/* datagrams read */
	uint64_t bytes;		/* of them */
	uint64_t malformed;	/* messages that could not be read (tsparse), truncated datagrams */
	uint64_t unsupported;	/* records of a struct version ktop cannot read */
	uint64_t enobufs;	/* times recv failed with ENOBUFS: records were dropped */
	uint64_t drops;		/* records the kernel dropped, when drops_known */
	bool drops_known;	/* SO_MEMINFO counts them (Linux 4.x and later) */
	bool lost_unknown;	/* records were dropped, how many is not known */
	size_t rcvbuf;		/* receive buffer, bytes of kernel memory (SO_RCVBUF) */
};

/* Receive buffer asked for (the kernel doubles it); see the report in the test. */
#define TS_RCVBUF_DEFAULT (8u << 20)
/* Datagrams taskstats_drain reads per call when @max is 0. */
#define TS_DRAIN_DEFAULT 8192

/*
 * taskstats_open - listen to the exits of every task
 * @rcvbuf: receive buffer to ask for, bytes; 0 = TS_RCVBUF_DEFAULT
 * @out: the listener, on success
 * @why: on failure, a one-line reason for the header ("taskstats: needs root
 *       (CAP_NET_ADMIN)")
 *
 * Never blocks: the kernel answers the family query and the registration
 * while it processes them. Records that arrive before the registration's
 * answer are kept for the first taskstats_drain. Returns 0 or -errno; on failure
 * nothing is left registered or open.
 */
int taskstats_open(size_t rcvbuf, struct taskstats_listener **out, char *why, size_t whylen);

/* Deregister and close. NULL is fine. */
void taskstats_close(struct taskstats_listener *t);

/* The descriptor for poll(): POLLIN when records are queued. */
int taskstats_fd(const struct taskstats_listener *t);

/*
 * taskstats_drain - read the records queued now, without waiting
 * @out: records are appended (it grows as needed)
 * @max: at most this many datagrams (one per exit) this call; 0 = TS_DRAIN_DEFAULT
 * @left: set to an estimate of the records still queued (0 = the queue was
 *        emptied); may be NULL
 *
 * Each record gets exit_lo_ns/exit_hi_ns (CLOCK_BOOTTIME). ENOBUFS is counted
 * (taskstats_get_counts), not returned. Returns the number of records appended, or
 * -errno (-ENOMEM when @out cannot grow: the records already appended stay,
 * the datagram being parsed is lost).
 */
int taskstats_drain(struct taskstats_listener *t, struct taskstats_vec *out, size_t max, size_t *left);

/* The counts since taskstats_open (drops read from the kernel now). */
void taskstats_get_counts(struct taskstats_listener *t, struct taskstats_counts *c);

#endif
