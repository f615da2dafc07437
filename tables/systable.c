// SPDX-License-Identifier: GPL-2.0-only
#include "systable.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conntable.h"
#include "groups.h"
#include "../lib/signames.h"
#include "../model/sigflow.h"
#include "../lib/scnames.h"
#include "../model/systotals.h"
#include "../lib/util.h"

static const char *const names[VIEW_NR] = {
	[VIEW_PROCESSES] = "processes", [VIEW_SYSCALLS] = "syscalls", [VIEW_ERRORS] = "errors",
	[VIEW_SUBSYSTEMS] = "subsystems", [VIEW_SIGNALS] = "signals", [VIEW_GROUPS] = "groups",
	[VIEW_LATENCY] = "latency", [VIEW_CONNECTIONS] = "connections", [VIEW_DISKS] = "disks",
	[VIEW_CALLERS] = "callers",
};
static const char *const titles[VIEW_NR] = {
	[VIEW_PROCESSES] = "Processes", [VIEW_SYSCALLS] = "Syscalls", [VIEW_ERRORS] = "Errors",
	[VIEW_SUBSYSTEMS] = "Subsystems", [VIEW_SIGNALS] = "Signals", [VIEW_GROUPS] = "Groups",
	[VIEW_LATENCY] = "Latency", [VIEW_CONNECTIONS] = "Connections", [VIEW_DISKS] = "Disks",
	[VIEW_CALLERS] = "Processes",
};

const char *systable_name(enum view_kind k)
{
	return k < VIEW_NR ? names[k] : "";
}

const char *systable_title(enum view_kind k)
{
	return k < VIEW_NR ? titles[k] : "";
}

int systable_parse(const char *s, enum view_kind *k)
{
	int i;

	for (i = 0; i < VIEW_NAMED; i++) {
		if (!strcmp(s, names[i])) {
			*k = (enum view_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

bool systable_traced(enum view_kind k)
{
	return k == VIEW_SYSCALLS || k == VIEW_ERRORS || k == VIEW_SUBSYSTEMS || k == VIEW_SIGNALS ||
	       k == VIEW_LATENCY || k == VIEW_CONNECTIONS || k == VIEW_DISKS;
}

/*
 * The catalogs. The first column names the row; counts within the interval
 * (AV_COUNT) are what CSV and JSON write, as for the process table, and what
 * the screen shows per second.
 */
static const struct av_col syscalls_cols[] = {
	{ "syscall", "SYSCALL", 18, true, AV_STR, SORT_ASC, -1,
	  "system call name (raw_syscalls:sys_exit id, named from the kernel's tables)" },
	{ "calls", "CALLS/s", 9, false, AV_COUNT, SORT_DESC, -1,
	  "calls that ended in the interval, summed over every process" },
	{ "errors", "ERR/s", 8, false, AV_COUNT, SORT_DESC, -1,
	  "of those, failed ones (returned -errno)" },
	{ "share_pct", "SHARE%", 6, false, AV_PCT, SORT_DESC, -1,
	  "its share of all the calls of the interval" },
	{ "top_errno", "TOP-ERRNO", 12, true, AV_STR, SORT_ASC, -1,
	  "the errno it failed with most in the interval (since start when none)" },
	{ "subsystem", "SUBSYSTEM", 13, true, AV_STR, SORT_ASC, -1,
	  "the kernel subsystem that implements it" },
	{ "procs", "PROCS", 5, false, AV_INT, SORT_DESC, -1,
	  "processes (threads with -H) that made it in the interval" },
	{ "calls_total", "CALLS", 10, false, AV_TOTAL, SORT_DESC, -1,
	  "calls since the first interval" },
	{ "errors_total", "ERRORS", 9, false, AV_TOTAL, SORT_DESC, -1,
	  "failed calls since the first interval" },
	{ "nr", "NR", 4, false, AV_INT, SORT_ASC, -1, "its number on this architecture" },
};

static const struct av_col errors_cols[] = {
	{ "syscall", "SYSCALL", 18, true, AV_STR, SORT_ASC, -1, "system call name" },
	{ "errno", "ERRNO", 14, true, AV_STR, SORT_ASC, -1,
	  "the error it returned (-errno of raw_syscalls:sys_exit)" },
	{ "errors", "ERR/s", 8, false, AV_COUNT, SORT_DESC, -1,
	  "calls that failed so in the interval, every process" },
	{ "share_pct", "SHARE%", 6, false, AV_PCT, SORT_DESC, -1,
	  "their share of all the failed calls of the interval" },
	{ "procs", "PROCS", 5, false, AV_INT, SORT_DESC, -1,
	  "processes (threads with -H) that failed so in the interval" },
	{ "errors_total", "ERRORS", 9, false, AV_TOTAL, SORT_DESC, -1,
	  "calls that failed so since the first interval" },
	{ "subsystem", "SUBSYSTEM", 13, true, AV_STR, SORT_ASC, -1, "the syscall's subsystem" },
};

static const struct av_col subsystems_cols[] = {
	{ "subsystem", "SUBSYSTEM", 13, true, AV_STR, SORT_ASC, -1,
	  "kernel subsystem, as in the kernel's workload-tracing document" },
	{ "calls", "CALLS/s", 9, false, AV_COUNT, SORT_DESC, -1,
	  "its system calls that ended in the interval, every process" },
	{ "errors", "ERR/s", 8, false, AV_COUNT, SORT_DESC, -1, "of those, failed ones" },
	{ "share_pct", "SHARE%", 6, false, AV_PCT, SORT_DESC, -1,
	  "its share of all the calls of the interval" },
	{ "syscalls", "SYSCALLS", 8, false, AV_INT, SORT_DESC, -1,
	  "how many of its system calls were made in the interval" },
	{ "procs", "PROCS", 5, false, AV_INT, SORT_DESC, -1,
	  "processes (threads with -H) that made one of them in the interval" },
	{ "calls_total", "CALLS", 10, false, AV_TOTAL, SORT_DESC, -1,
	  "its calls since the first interval" },
	{ "errors_total", "ERRORS", 9, false, AV_TOTAL, SORT_DESC, -1,
	  "its failed calls since the first interval" },
	{ "history", "CALLS/s HISTORY (each row to its own peak)", 0, true, AV_GRAPH, SORT_DESC, -1,
	  "screen only: calls/s over the last intervals, newest right; each row is scaled to "
	  "its own peak, so 5 calls/s and 22.6k/s draw as tall: compare rows by CALLS/s" },
};

static const struct av_col signals_cols[] = {
	{ "sender_pid", "FROM", 7, false, AV_INT, SORT_ASC, -1,
	  "the sending process; 0: the kernel (no sending task)" },
	{ "sender_comm", "SENDER", 15, true, AV_STR, SORT_ASC, -1, "its command name" },
	{ "receiver_pid", "TO", 7, false, AV_INT, SORT_ASC, -1, "the process the signal went to" },
	{ "receiver_comm", "RECEIVER", 15, true, AV_STR, SORT_ASC, -1, "its command name" },
	{ "signal", "SIGNAL", 9, true, AV_STR, SORT_ASC, -1, "the signal (signal:signal_generate sig)" },
	{ "result", "RESULT", 15, true, AV_STR, SORT_ASC, -1,
	  "delivered, ignored, already_pending, overflow_fail, lose_info (signal_generate result)" },
	{ "count", "SIG/s", 7, false, AV_COUNT, SORT_DESC, -1, "signals so in the interval" },
	{ "total", "TOTAL", 8, false, AV_TOTAL, SORT_DESC, -1, "signals so since the first interval" },
};

static const struct av_col groups_cols[] = {
	{ "group", "GROUP", 24, true, AV_STR, SORT_ASC, -1,
	  "the group: command, user, cgroup path, unit or RUNTIME:ID (--group-by)" },
	{ "procs", "PROCS", 5, false, AV_INT, SORT_DESC, -1,
	  "its rows this interval (processes, threads with -H), exited ones included" },
	{ "cpu_pct", "CPU%", 6, false, AV_PCT, SORT_DESC, COL_CPU, "the rows' cpu_pct, summed" },
	/*
	 * Its CPU limit where a screen of 120 columns shows it, beside its CPU%
	 * (the rest of its cgroup's resources: after TIME+). On a hybrid host,
	 * a cgroup that limits its rows, each read at its own path in the cpu
	 * hierarchy (collectors/cgroup/cgfiles.c, group_cpu).
	 */
	{ "throttled_pct", "THROT%", 6, false, AV_PCT, SORT_DESC, AV_CGRES(CGF_THROTTLED_PCT),
	  "share of the interval it was throttled by its CPU limit (cpu.stat)" },
	{ "cpu_limit_pct", "CPULIM%", 7, false, AV_PCT, SORT_DESC, AV_CGRES(CGF_CPU_LIMIT),
	  "its CPU limit, 100 = one CPU (cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us)" },
	{ "alerts", "ALERT", 11, true, AV_STR, SORT_DESC, AV_CGRES(CGF_NR),
	  "THR throttled, OOM a process OOM-killed, MEM memory pressure, in the interval" },
	{ "mem_pct", "MEM%", 5, false, AV_PCT, SORT_DESC, COL_MEM, "the rows' mem_pct, summed" },
	{ "rss_kb", "RSS", 6, false, AV_KB, SORT_DESC, COL_RSS, "the rows' rss_kb, summed" },
	{ "syscalls", "SYSC/s", 8, false, AV_COUNT, SORT_DESC, COL_SYSC, "the rows' syscalls, summed" },
	{ "syscall_errors", "ERR/s", 7, false, AV_COUNT, SORT_DESC, COL_SYSERR,
	  "the rows' syscall_errors, summed" },
	{ "minflt", "MINFLT/s", 8, false, AV_COUNT, SORT_DESC, COL_MINFLT, "the rows' minflt, summed" },
	{ "majflt", "MAJFLT/s", 8, false, AV_COUNT, SORT_DESC, COL_MAJFLT, "the rows' majflt, summed" },
	{ "vcsw", "CSW/s", 7, false, AV_COUNT, SORT_DESC, COL_VCSW, "the rows' vcsw, summed" },
	{ "ivcsw", "ICSW/s", 7, false, AV_COUNT, SORT_DESC, COL_IVCSW, "the rows' ivcsw, summed" },
	{ "sig_recv", "SIG/s", 6, false, AV_COUNT, SORT_DESC, COL_SIGRECV, "the rows' sig_recv, summed" },
	{ "sig_sent", "SIGTX/s", 7, false, AV_COUNT, SORT_DESC, COL_SIGSENT, "the rows' sig_sent, summed" },
	{ "disk_read_bytes", "RD/s", 6, false, AV_COUNT, SORT_DESC, COL_DISK_READ,
	  "the rows' disk_read_bytes, summed" },
	{ "disk_write_bytes", "WR/s", 6, false, AV_COUNT, SORT_DESC, COL_DISK_WRITE,
	  "the rows' disk_write_bytes, summed" },
	{ "net_tx_bytes", "TX/s", 6, false, AV_COUNT, SORT_DESC, COL_NET_TX,
	  "the rows' net_tx_bytes, summed" },
	{ "net_rx_bytes", "RX/s", 6, false, AV_COUNT, SORT_DESC, COL_NET_RX,
	  "the rows' net_rx_bytes, summed" },
	{ "oncpu_ms", "ONCPU%", 6, false, AV_MS, SORT_DESC, COL_ONCPU, "the rows' oncpu_ms, summed" },
	{ "runq_ms", "RUNQ%", 6, false, AV_MS, SORT_DESC, COL_RUNQ, "the rows' runq_ms, summed" },
	{ "sleep_ms", "SLEEP%", 6, false, AV_MS, SORT_DESC, COL_SLEEP, "the rows' sleep_ms, summed" },
	{ "blocked_ms", "BLOCK%", 6, false, AV_MS, SORT_DESC, COL_BLOCKED,
	  "the rows' blocked_ms, summed" },
	{ "sc_time_ms", "SCTIME%", 7, false, AV_MS, SORT_DESC, COL_SCTIME,
	  "the rows' sc_time_ms, summed (--latency, -p, -- CMD)" },
	{ "sc_p99_us", "SCP99", 8, false, AV_USEC_BOUND, SORT_DESC, COL_SCP99,
	  "99th percentile of the rows' calls put together in us, as a log2 bucket's upper bound "
	  "(the longest call when shorter)" },
	{ "threads", "THR", 5, false, AV_INT, SORT_DESC, COL_THREADS, "the rows' threads, summed" },
	{ "vsz_kb", "VIRT", 6, false, AV_KB, SORT_DESC, COL_VSZ, "the rows' vsz_kb, summed" },
	{ "cpu_s", "TIME+", 10, false, AV_TIME, SORT_DESC, COL_TIME, "the rows' cpu_s, summed" },
	{ "syscalls_total", "SYSCALLS", 10, false, AV_TOTAL, SORT_DESC, COL_SYSC,
	  "system calls of its rows since the group was first seen" },
	{ "syscall_errors_total", "ERRORS", 9, false, AV_TOTAL, SORT_DESC, COL_SYSERR,
	  "failed system calls of its rows since the group was first seen" },
	/*
	 * Its cgroup's resources (model/cgres.h), for the keys that are one
	 * cgroup (cgroup, unit, container, pod): pcol AV_CGRES(field).
	 */
	{ "id", "ID", 22, true, AV_STR, SORT_ASC, AV_CGRES_ID,
	  "the container's RUNTIME:ID, the pod's pod:UID (by container, pod)" },
	{ "cpu_some_pct", "CPUPSI%", 7, false, AV_PCT, SORT_DESC, AV_CGRES(CGF_CPU_SOME),
	  "share of the interval some of its tasks waited for a CPU (cpu.pressure)" },
	{ "mem_some_pct", "MEMPSI%", 7, false, AV_PCT, SORT_DESC, AV_CGRES(CGF_MEM_SOME),
	  "share of the interval some of its tasks waited for memory (memory.pressure)" },
	{ "io_some_pct", "IOPSI%", 6, false, AV_PCT, SORT_DESC, AV_CGRES(CGF_IO_SOME),
	  "share of the interval some of its tasks waited for I/O (io.pressure)" },
	{ "mem_kb", "MEMCG", 6, false, AV_KB, SORT_DESC, AV_CGRES(CGF_MEM_KB),
	  "its cgroup's memory (memory.current, v1 memory.usage_in_bytes)" },
	{ "mem_max_kb", "MEMMAX", 6, false, AV_KB, SORT_DESC, AV_CGRES(CGF_MEM_MAX_KB),
	  "its memory limit (memory.max, v1 memory.limit_in_bytes); empty: none" },
	{ "oom_kills_total", "OOMKILL", 7, false, AV_TOTAL, SORT_DESC, AV_CGRES(CGF_OOM_KILLS_TOTAL),
	  "its processes OOM-killed since it was first read (memory.events, v1 memory.oom_control)" },
	{ "pids", "PIDS", 5, false, AV_INT, SORT_DESC, AV_CGRES(CGF_PIDS), "pids.current" },
	{ "pids_max", "PIDMAX", 6, false, AV_INT, SORT_DESC, AV_CGRES(CGF_PIDS_MAX),
	  "pids.max; empty: none" },
	{ "cpu_full_pct", "CPUFULL%", 8, false, AV_PCT, SORT_DESC, AV_CGRES(CGF_CPU_FULL),
	  "share of the interval all its tasks waited for a CPU" },
	{ "mem_full_pct", "MEMFULL%", 8, false, AV_PCT, SORT_DESC, AV_CGRES(CGF_MEM_FULL),
	  "share of the interval all its tasks waited for memory" },
	{ "io_full_pct", "IOFULL%", 7, false, AV_PCT, SORT_DESC, AV_CGRES(CGF_IO_FULL),
	  "share of the interval all its tasks waited for I/O" },
	{ "cpu_some_us", "CPUPSI-us", 9, false, AV_INT, SORT_DESC, AV_CGRES(CGF_CPU_SOME_US),
	  "microseconds some of its tasks waited for a CPU in the interval (cpu.pressure total)" },
	{ "throttled", "THROTTLED", 9, false, AV_INT, SORT_DESC, AV_CGRES(CGF_THROTTLED),
	  "periods it was throttled in the interval (cpu.stat nr_throttled)" },
	{ "throttled_us", "THROT-us", 9, false, AV_INT, SORT_DESC, AV_CGRES(CGF_THROTTLED_US),
	  "microseconds throttled in the interval (cpu.stat throttled_usec, v1 throttled_time)" },
	{ "oom_kills", "OOM", 4, false, AV_INT, SORT_DESC, AV_CGRES(CGF_OOM_KILLS),
	  "its processes OOM-killed in the interval" },
	{ "mem_max_hits", "MEMHIT", 6, false, AV_INT, SORT_DESC, AV_CGRES(CGF_MEM_HITS),
	  "times its memory hit its limit in the interval (memory.events max, v1 memory.failcnt)" },
};

/*
 * The system calls timed (sys_enter to sys_exit, --latency): the durations
 * of the calls that ended in the interval, every process's summed. A
 * percentile is the upper bound of its log2 bucket, or the longest call
 * when that is less (lib/lathist.h); the screen scales durations (us, ms,
 * s), CSV and JSON write microseconds.
 */
static const struct av_col latency_cols[] = {
	{ "syscall", "SYSCALL", 18, true, AV_STR, SORT_ASC, -1, "system call name" },
	{ "time_ms", "TIME/s", 7, false, AV_MS_PER_S, SORT_DESC, -1,
	  "time inside its calls that ended in the interval, every process's threads summed; the "
	  "screen: per second, 3.70s = 3.7 threads in it on average" },
	{ "calls", "CALLS/s", 9, false, AV_COUNT, SORT_DESC, -1,
	  "its calls timed in the interval (entry and exit seen)" },
	{ "avg_us", "AVG", 8, false, AV_USEC, SORT_DESC, -1, "their mean duration, microseconds" },
	{ "p50_us", "P50", 8, false, AV_USEC_BOUND, SORT_DESC, -1,
	  "median duration: the upper bound of the log2 bucket half of the calls fit in, or the "
	  "longest call when shorter (us; the screen: <=262ms)" },
	{ "p90_us", "P90", 8, false, AV_USEC_BOUND, SORT_DESC, -1, "90th percentile, likewise" },
	{ "p99_us", "P99", 8, false, AV_USEC_BOUND, SORT_DESC, -1,
	  "99th percentile, likewise: 16 = 99% of the calls took at most 16 us" },
	{ "max_us", "MAX", 9, false, AV_USEC, SORT_DESC, -1, "the longest call, microseconds" },
	{ "procs", "PROCS", 5, false, AV_INT, SORT_DESC, -1,
	  "processes (threads with -H) that made it in the interval" },
	{ "subsystem", "SUBSYSTEM", 13, true, AV_STR, SORT_ASC, -1, "the kernel subsystem that implements it" },
	{ "calls_total", "CALLS", 10, false, AV_TOTAL, SORT_DESC, -1, "calls since the first interval" },
};

/*
 * The block devices (model/disks.h), from block_rq_issue, block_rq_complete
 * and block_io_start. Requests are counted at their completion, as the
 * kernel's /sys/block/DEV/stat counts them; bytes are the sectors completed.
 * The byte columns name the process columns of the same unit (pcol), for
 * the screen's scaling only.
 */
static const struct av_col disks_cols[] = {
	{ "device", "DEVICE", 10, true, AV_STR, SORT_ASC, -1,
	  "the block device (DEVNAME of /sys/dev/block/MAJ:MIN/uevent; MAJ:MIN otherwise)" },
	{ "reads", "RD/s", 7, false, AV_COUNT, SORT_DESC, -1,
	  "read requests completed in the interval (block_rq_complete)" },
	{ "writes", "WR/s", 7, false, AV_COUNT, SORT_DESC, -1, "write requests completed" },
	{ "read_bytes", "RDB/s", 6, false, AV_COUNT, SORT_DESC, COL_DISK_READ,
	  "bytes read: the sectors of the read requests completed, times 512" },
	{ "write_bytes", "WRB/s", 6, false, AV_COUNT, SORT_DESC, COL_DISK_WRITE, "bytes written, likewise" },
	{ "p50_us", "P50", 8, false, AV_USEC_BOUND, SORT_DESC, -1,
	  "median time from issue to completion of the reads and writes timed (us), as a log2 "
	  "bucket's upper bound or the longest request when shorter" },
	{ "p99_us", "P99", 8, false, AV_USEC_BOUND, SORT_DESC, -1, "99th percentile, likewise" },
	{ "max_us", "MAX", 8, false, AV_USEC, SORT_DESC, -1, "the longest of them (us)" },
	{ "inflight", "INFL", 5, false, AV_INT, SORT_DESC, -1,
	  "requests issued and not completed at the interval's end" },
	{ "queue_avg", "AQU", 6, false, AV_MEAN, SORT_DESC, -1,
	  "mean requests in flight over the interval: the issue -> complete times of those "
	  "completed in it, summed, over its length (iostat's aqu-sz counts from the request's start)" },
	{ "submitters", "SUBMITTERS", 30, true, AV_STR, SORT_ASC, -1,
	  "the tasks that started the most bytes of requests (block_io_start, in the submitting "
	  "task: a process's own reads, direct and synchronous writes; the page cache's "
	  "writeback is a kernel thread's, kworker): COMM[TID] BYTES, most first" },
	{ "timed", "TIMED/s", 7, false, AV_COUNT, SORT_DESC, -1,
	  "reads and writes whose issue and completion were both read (the percentiles' count)" },
	{ "other", "OTHER/s", 7, false, AV_COUNT, SORT_DESC, -1,
	  "flushes, discards and other requests completed" },
	{ "started", "START/s", 7, false, AV_COUNT, SORT_DESC, -1,
	  "requests started (block_io_start), by every task" },
	{ "reads_total", "READS", 9, false, AV_TOTAL, SORT_DESC, -1, "reads since the first interval" },
	{ "writes_total", "WRITES", 9, false, AV_TOTAL, SORT_DESC, -1, "writes since the first interval" },
	{ "read_bytes_total", "RDBYTES", 10, false, AV_TOTAL, SORT_DESC, -1,
	  "bytes read since the first interval" },
	{ "write_bytes_total", "WRBYTES", 10, false, AV_TOTAL, SORT_DESC, -1,
	  "bytes written since the first interval" },
};
enum { DK_DEVICE, DK_READS, DK_WRITES, DK_RBYTES, DK_WBYTES, DK_P50, DK_P99, DK_MAX, DK_INFL,
       DK_AQU, DK_SUBMITTERS, DK_TIMED, DK_OTHER, DK_STARTED, DK_READS_T, DK_WRITES_T,
       DK_RBYTES_T, DK_WBYTES_T };

static const struct av_col callers_cols[] = {
	{ "pid", "PID", 7, false, AV_INT, SORT_ASC, COL_PID, "process id" },
	{ "user", "USER", 8, true, AV_STR, SORT_ASC, COL_USER, "its user" },
	{ "state", "S", 1, true, AV_STR, SORT_ASC, COL_STATE, "its state" },
	{ "cpu_pct", "CPU%", 5, false, AV_PCT, SORT_DESC, COL_CPU, "its CPU use" },
	{ "calls", "CALLS/s", 9, false, AV_COUNT, SORT_DESC, -1,
	  "its calls of the syscall (of every syscall for a group)" },
	{ "errors", "ERR/s", 8, false, AV_COUNT, SORT_DESC, -1,
	  "those that failed (with the errno, for an error)" },
	{ "syscalls", "SYSC/s", 7, false, AV_COUNT, SORT_DESC, COL_SYSC, "all its system calls" },
	{ "top_syscall", "TOP-SYSCALL", 14, true, AV_STR, SORT_ASC, COL_TOPSC, "its most frequent" },
	{ "time_ms", "TIME/s", 7, false, AV_MS_PER_S, SORT_DESC, -1,
	  "time inside its calls of the syscall (of every syscall, for a group) that ended in the "
	  "interval, its threads summed; the screen: per second (--latency)" },
	{ "p50_us", "P50", 8, false, AV_USEC_BOUND, SORT_DESC, -1,
	  "their median duration, as a log2 bucket's upper bound or the longest call (us)" },
	{ "p99_us", "P99", 8, false, AV_USEC_BOUND, SORT_DESC, -1, "their 99th percentile, likewise" },
	{ "max_us", "MAX", 9, false, AV_USEC, SORT_DESC, -1, "the longest of them (us)" },
	{ "comm", "COMMAND", 15, true, AV_STR, SORT_ASC, COL_COMM, "its command name" },
};

static const struct {
	const struct av_col *cols;
	size_t n;
	int sort;
} catalog[VIEW_NR] = {
	[VIEW_SYSCALLS] = { syscalls_cols, ARRAY_SIZE(syscalls_cols), 1 },
	[VIEW_ERRORS] = { errors_cols, ARRAY_SIZE(errors_cols), 2 },
	[VIEW_SUBSYSTEMS] = { subsystems_cols, ARRAY_SIZE(subsystems_cols), 1 },
	[VIEW_SIGNALS] = { signals_cols, ARRAY_SIZE(signals_cols), 6 },
	[VIEW_GROUPS] = { groups_cols, ARRAY_SIZE(groups_cols), 2 },
	[VIEW_LATENCY] = { latency_cols, ARRAY_SIZE(latency_cols), 1 },
	[VIEW_CONNECTIONS] = { conn_cols, CONN_NCOLS, CONN_BYTES },
	[VIEW_DISKS] = { disks_cols, ARRAY_SIZE(disks_cols), DK_AQU },
	[VIEW_CALLERS] = { callers_cols, ARRAY_SIZE(callers_cols), 4 },
};

/* Each view's totals column: the order of rows that tie (and of the baseline). */
static int tie_col(enum view_kind k)
{
	switch (k) {
	case VIEW_SYSCALLS:
	case VIEW_SUBSYSTEMS:
		return 7;
	case VIEW_LATENCY:
		return 10;
	case VIEW_ERRORS:
		return 5;
	case VIEW_DISKS:
		return DK_WRITES_T;
	case VIEW_SIGNALS:
		return 7;
	case VIEW_CONNECTIONS:
		return CONN_TX_TOTAL;
	case VIEW_GROUPS:
		/* By name: columns were added before it (it was blocked_ms by number). */
		return systable_col_by_key(k, "syscalls_total");
	default:
		return -1;
	}
}

const struct av_col *systable_columns(enum view_kind k, size_t *n)
{
	*n = k < VIEW_NR ? catalog[k].n : 0;
	return k < VIEW_NR ? catalog[k].cols : NULL;
}

int systable_col_by_key(enum view_kind k, const char *key)
{
	size_t i, n;
	const struct av_col *c = systable_columns(k, &n);

	for (i = 0; i < n; i++)
		if (!strcasecmp(c[i].key, key))
			return (int)i;
	return -1;
}

int systable_default_sort(enum view_kind k)
{
	return k < VIEW_NR ? catalog[k].sort : 0;
}

void systable_init(struct systable *v, enum view_kind k)
{
	memset(v, 0, sizeof(*v));
	v->kind = k;
	v->sort = systable_default_sort(k);
	v->dir = k < VIEW_NR && catalog[k].cols ? catalog[k].cols[v->sort].sort_default : SORT_DESC;
	v->sub = -1;
}

void systable_free(struct systable *v)
{
	sigflows_free(&v->merged);
	free(v->idx);
	free(v->tasks);
	v->idx = NULL;
	v->tasks = NULL;
	v->n = v->cap = v->ntasks = v->cap_tasks = 0;
}

/* The Signals view's rows: per process, or merged per command (b). */
static const struct sigflows *flows_of(const struct systable *v)
{
	return v->by_comm ? &v->merged : &v->m->sigflows;
}

static const struct av_col *col_of(const struct systable *v, int col)
{
	size_t n;
	const struct av_col *c = systable_columns(v->kind, &n);

	return col >= 0 && (size_t)col < n ? &c[col] : NULL;
}

/* The model's kernel events for @c are counted this interval (not the baseline). */
static bool counted(const struct model *m, enum counter c)
{
	return m->interval_s > 0 && model_counts_events(m, c);
}

bool systable_rate(const struct systable *v, double count, double *out)
{
	if (!v->m || v->m->interval_s <= 0)
		return false;
	*out = count / v->m->interval_s;
	return true;
}

bool systable_drill_match(const struct model *m, const struct av_drill *d, const struct task *t)
{
	const struct sc_stat *s;
	char key[CGROUP_KEY_MAX];

	switch (d->from) {
	case VIEW_SYSCALLS:
		s = systotals_counts(m, t) ? sctable_find(&t->sc, d->nr) : NULL;
		return s && s->calls;
	case VIEW_LATENCY:
		s = systotals_counts(m, t) ? sctable_find(&t->sc, d->nr) : NULL;
		return s && s->timed;
	case VIEW_ERRORS:
		s = systotals_counts(m, t) ? sctable_find(&t->err, sc_err_key(d->nr, d->err)) : NULL;
		return s && s->errors;
	case VIEW_GROUPS:
		if (!groups_counts(m, t))
			return false;
		groups_task_key(m, d->by, t, key, sizeof(key));
		return !strcmp(key, d->key);
	default:
		return groups_counts(m, t);
	}
}

/*
 * A duration column of @hist (NULL: none timed): 1 time_ms, 4 p50, 5 p90,
 * 6 p99, 7 max, as the Latency view numbers its columns.
 */
static bool time_num(const struct sc_stat *s, const struct lathist *hist, int col, double *out)
{
	switch (col) {
	case 1:
		*out = s ? (double)s->time_ns / 1e6 : 0;
		return true;
	case 3:
		if (!s || !s->timed)
			return false;
		*out = (double)s->time_ns / (double)s->timed / 1e3;
		return true;
	case 4:
	case 5:
	case 6:
		return hist && lathist_quantile_us(hist, col == 4 ? 0.5 : col == 5 ? 0.9 : 0.99,
						    s->max_ns, out);
	case 7:
		if (!s || !s->timed)
			return false;
		*out = (double)s->max_ns / 1e3;
		return true;
	}
	return false;
}

/* The callers' duration columns (8 time_ms .. 11 max_us): of the syscall, or of all. */
static bool callers_time(const struct systable *v, const struct task *t, int col, double *out)
{
	static const int as[] = { 1, 4, 6, 7 };
	const struct sc_stat *s;
	struct sc_stat all = { 0 };
	struct lathist h;

	if (!model_counts_events(v->m, CNT_SCTIME) || !task_delta(t, CNT_SCTIME, &all.time_ns))
		return false;
	if (v->drill.from == VIEW_SYSCALLS || v->drill.from == VIEW_LATENCY) {
		s = sctable_find(&t->sc, v->drill.nr);
		return time_num(s, sctable_hist(&t->sc, s), as[col - 8], out);
	}
	all.timed = sctable_hist_sum(&t->sc, &h, &all.max_ns);
	return time_num(&all, all.timed ? &h : NULL, as[col - 8], out);
}

static bool callers_num(const struct systable *v, const struct task *t, int col, double *out)
{
	const struct av_col *c = col_of(v, col);
	const struct sc_stat *s;
	uint64_t d;

	if (c->pcol >= 0)
		return columns_num(v->m, t, (enum col_id)c->pcol, out);
	if (col >= 8)
		return callers_time(v, t, col, out);
	if (v->drill.from != VIEW_SYSCALLS && v->drill.from != VIEW_ERRORS &&
	    v->drill.from != VIEW_LATENCY) {
		if (!task_delta(t, col == 4 ? CNT_SYSCALLS : CNT_SYSERR, &d))
			return false;
		*out = (double)d;
		return true;
	}
	if (!task_delta(t, CNT_SYSCALLS, &d))
		return false;
	/* An error's processes: their failures with that errno, from their error tables. */
	if (col == 5 && v->drill.from == VIEW_ERRORS)
		s = sctable_find(&t->err, sc_err_key(v->drill.nr, v->drill.err));
	else
		s = sctable_find(&t->sc, v->drill.nr);
	*out = !s ? 0 : col == 4 ? (double)s->calls : (double)s->errors;
	return true;
}

static bool groups_num(const struct systable *v, const struct group *gr, int col, double *out)
{
	const struct av_col *c = col_of(v, col);
	int cnt;

	if (col == 1) {
		*out = gr->rows;
		return true;
	}
	if (c->pcol <= AV_CGRES(0))
		return cgres_group_num(&v->m->cgres, gr->dir, AV_CGRES(0) - c->pcol, out);
	if (c->type != AV_TOTAL)
		return group_num(gr, c->pcol, out);
	cnt = columns[c->pcol].counter;
	if (cnt < 0 || !gr->have_total[cnt])
		return false;
	*out = (double)gr->total[cnt];
	return true;
}

static bool disk_num(const struct model *m, const struct disk *d, int col, double *out)
{
	const struct disk_reading *r = &d->now;

	if (!m->disks.known)
		return false;
	switch (col) {
	case DK_READS_T: *out = (double)d->ios_total[DISK_READ]; return true;
	case DK_WRITES_T: *out = (double)d->ios_total[DISK_WRITE]; return true;
	case DK_RBYTES_T: *out = (double)d->bytes_total[DISK_READ]; return true;
	case DK_WBYTES_T: *out = (double)d->bytes_total[DISK_WRITE]; return true;
	case DK_INFL: *out = r->inflight; return true;
	}
	if (m->interval_s <= 0)
		return false;
	switch (col) {
	case DK_READS: *out = (double)r->ios[DISK_READ]; return true;
	case DK_WRITES: *out = (double)r->ios[DISK_WRITE]; return true;
	case DK_RBYTES: *out = (double)r->bytes[DISK_READ]; return true;
	case DK_WBYTES: *out = (double)r->bytes[DISK_WRITE]; return true;
	case DK_TIMED: *out = (double)r->timed; return true;
	case DK_OTHER: *out = (double)r->other; return true;
	case DK_STARTED: *out = (double)r->sub_reqs; return true;
	case DK_AQU: return disk_queue_avg(r, m->interval_s, out);
	case DK_P50:
	case DK_P99:
		return lathist_quantile_us(&r->hist, col == DK_P50 ? 0.5 : 0.99, r->max_ns, out);
	case DK_MAX:
		if (!r->timed)
			return false;
		*out = (double)r->max_ns / 1e3;
		return true;
	}
	return false;
}

/* A device's submitters: "COMM[TID] BYTES, ..." most first; "(N more)" for the rest. */
static const char *disk_submitters(const struct disk_reading *r, char *buf, size_t n)
{
	uint64_t named = 0;
	size_t len = 0;
	uint32_t i;
	char b[16];

	if (n)
		buf[0] = '\0';
	for (i = 0; i < r->nsub && len < n; i++) {
		fmt_bytes(b, sizeof(b), (double)r->sub[i].bytes);
		len += (size_t)snprintf(buf + len, n - len, "%s%.16s[%d] %s", i ? ", " : "",
					r->sub[i].comm, (int)r->sub[i].pid, b);
		named += r->sub[i].bytes;
	}
	if (len < n && r->sub_bytes > named) {
		fmt_bytes(b, sizeof(b), (double)(r->sub_bytes - named));
		len += (size_t)snprintf(buf + len, n - len, "%sothers %s", len ? ", " : "", b);
	}
	/* Not root: other users' tasks are a number, not who (as their rows are not shown). */
	if (len < n && r->sub_hidden)
		snprintf(buf + len, n - len, "%s%u other users' task%s", len ? ", " : "",
			 (unsigned)r->sub_hidden, r->sub_hidden == 1 ? "" : "s");
	return buf;
}

static bool pct(double part, double whole, double *out)
{
	*out = whole > 0 ? 100.0 * part / whole : 0;
	return true;
}

/* The number of column @col of the source row @i (an index into the view's source). */
static bool num_at(const struct systable *v, size_t i, int col, double *out)
{
	const struct model *m = v->m;
	const struct av_col *c = col_of(v, col);
	const struct systotals *sa = m ? &m->agg : NULL;

	if (!c || c->type == AV_STR || c->type == AV_GRAPH)
		return false;
	switch (v->kind) {
	case VIEW_SYSCALLS: {
		const struct systotals_sc *r = &sa->sc[i];

		if ((c->type == AV_COUNT || c->type == AV_PCT || col == 6) && !sa->valid)
			return false;
		if (c->type == AV_TOTAL && !model_counts_events(m, CNT_SYSCALLS))
			return false;
		switch (col) {
		case 1: *out = (double)r->calls; return true;
		case 2: *out = (double)r->errors; return true;
		case 3: return pct((double)r->calls, (double)sa->calls, out);
		case 6: *out = r->procs; return true;
		case 7: *out = (double)r->calls_total; return true;
		case 8: *out = (double)r->errors_total; return true;
		case 9: *out = r->nr; return true;
		}
		return false;
	}
	case VIEW_ERRORS: {
		const struct systotals_err *r = &sa->err[i];

		if ((c->type == AV_COUNT || c->type == AV_PCT || col == 4) && !sa->valid)
			return false;
		if (c->type == AV_TOTAL && !model_counts_events(m, CNT_SYSCALLS))
			return false;
		switch (col) {
		case 2: *out = (double)r->n; return true;
		case 3: return pct((double)r->n, (double)sa->errors, out);
		case 4: *out = r->procs; return true;
		case 5: *out = (double)r->total; return true;
		}
		return false;
	}
	case VIEW_SUBSYSTEMS: {
		const struct systotals_sub *r = &sa->sub[i];

		if (c->type != AV_TOTAL && !sa->valid)
			return false;
		if (c->type == AV_TOTAL && !model_counts_events(m, CNT_SYSCALLS))
			return false;
		switch (col) {
		case 1: *out = (double)r->calls; return true;
		case 2: *out = (double)r->errors; return true;
		case 3: return pct((double)r->calls, (double)sa->calls, out);
		case 4: *out = r->nsyscalls; return true;
		case 5: *out = r->procs; return true;
		case 6: *out = (double)r->calls_total; return true;
		case 7: *out = (double)r->errors_total; return true;
		}
		return false;
	}
	case VIEW_SIGNALS: {
		const struct sigflows *sf = flows_of(v);
		const struct sigflow *r = i < sf->n ? &sf->v[i] : &sf->other;

		if (c->type == AV_COUNT && !counted(m, CNT_SIGSENT))
			return false;
		if (c->type == AV_TOTAL && !model_counts_events(m, CNT_SIGSENT))
			return false;
		switch (col) {
		case 0:
			*out = r->sender;
			return r->sender >= 0;
		case 2:
			*out = r->receiver;
			return r->receiver >= 0;
		case 6: *out = (double)r->n; return true;
		case 7: *out = (double)r->total; return true;
		}
		return false;
	}
	case VIEW_LATENCY: {
		const struct systotals_sc *r = &sa->sc[i];
		const struct sc_stat *s = sctable_find(&sa->now, r->nr);

		if (c->type == AV_TOTAL) {
			*out = (double)r->calls_total;
			return model_counts_events(m, CNT_SYSCALLS);
		}
		if (!sa->valid || !model_counts_events(m, CNT_SCTIME))
			return false;
		if (col == 2) {
			*out = s ? (double)s->timed : 0;
			return true;
		}
		if (col == 8) {
			*out = r->procs;
			return true;
		}
		return time_num(s, sctable_hist(&sa->now, s), col, out);
	}
	case VIEW_GROUPS:
		return groups_num(v, &v->gr->v[i], col, out);
	case VIEW_DISKS:
		return disk_num(m, &m->disks.v[i], col, out);
	case VIEW_CALLERS:
		return callers_num(v, v->tasks[i], col, out);
	case VIEW_CONNECTIONS:
		return conntable_num(m, &m->conns[i], col, out);
	default:
		return false;
	}
}

static const char *copy(char *buf, size_t n, const char *s, int utf8)
{
	sanitize_text(buf, n, s, strlen(s), utf8);
	return buf;
}

bool systable_num(const struct systable *v, size_t row, int col, double *out)
{
	return row < v->n && num_at(v, v->idx[row], col, out);
}

static const char *text_at(const struct systable *v, size_t i, int col, char *buf, size_t n,
			   int utf8)
{
	const struct model *m = v->m;
	const struct av_col *c = col_of(v, col);
	const struct systotals *sa = m ? &m->agg : NULL;
	char tmp[64];

	if (n)
		buf[0] = '\0';
	if (!c || c->type == AV_GRAPH)
		return buf;
	if (c->type != AV_STR) {
		double d;

		if (num_at(v, i, col, &d))
			snprintf(buf, n, c->type == AV_PCT ? "%.1f" :
				 c->type == AV_TIME || c->type == AV_MEAN ? "%.2f" :
				 c->type == AV_MS || c->type == AV_MS_PER_S ? "%.3f" : "%.0f", d);
		return buf;
	}
	switch (v->kind) {
	case VIEW_SYSCALLS: {
		const struct systotals_sc *r = &sa->sc[i];
		uint32_t e = r->top_errno ? r->top_errno : r->top_errno_total;

		if (col == 0)
			return copy(buf, n, syscall_label(r->nr, tmp, sizeof(tmp)), utf8);
		if (col == 4 && e)
			return copy(buf, n, errno_name((int)e, tmp, sizeof(tmp)), utf8);
		if (col == 5)
			return copy(buf, n, subsystem_name(r->sub), utf8);
		return buf;
	}
	case VIEW_ERRORS: {
		const struct systotals_err *r = &sa->err[i];

		if (col == 0)
			return copy(buf, n, syscall_label(r->nr, tmp, sizeof(tmp)), utf8);
		if (col == 1)
			return copy(buf, n, errno_name((int)r->err, tmp, sizeof(tmp)), utf8);
		return copy(buf, n, subsystem_name(r->sub), utf8);
	}
	case VIEW_SUBSYSTEMS:
		return copy(buf, n, subsystem_name((enum subsystem)i), utf8);
	case VIEW_LATENCY:
		if (col == 0)
			return copy(buf, n, syscall_label(sa->sc[i].nr, tmp, sizeof(tmp)), utf8);
		return copy(buf, n, subsystem_name(sa->sc[i].sub), utf8);
	case VIEW_SIGNALS: {
		const struct sigflows *sf = flows_of(v);
		const struct sigflow *r = i < sf->n ? &sf->v[i] : &sf->other;

		if (i >= sf->n)
			return copy(buf, n, col == 1 ? "(other flows)" : "", utf8);
		if (col == 1)
			return copy(buf, n, r->sender ? r->sender_comm : "(kernel)", utf8);
		if (col == 3)
			return copy(buf, n, r->receiver_comm, utf8);
		if (col == 4)
			return copy(buf, n, signal_name(r->sig, tmp, sizeof(tmp)), utf8);
		return copy(buf, n, sig_result_name(r->result, tmp, sizeof(tmp)), utf8);
	}
	case VIEW_GROUPS:
		if (c->pcol == AV_CGRES_ID) {
			char id[CGROUP_KEY_MAX];

			cgname_group_id(v->gr->by, v->gr->v[i].dir, id, sizeof(id));
			return copy(buf, n, id, utf8);
		}
		if (c->pcol <= AV_CGRES(0))
			return copy(buf, n, cgres_group_alerts(&m->cgres, v->gr->v[i].dir, tmp,
							       sizeof(tmp)), utf8);
		return copy(buf, n, v->gr->v[i].key, utf8);
	case VIEW_DISKS:
		if (col == DK_DEVICE)
			return copy(buf, n, m->disks.v[i].now.name, utf8);
		if (!m->disks.known || m->interval_s <= 0)
			return buf;
		{
			char subs[DISK_SUBMITTERS * 48 + 64];

			return copy(buf, n, disk_submitters(&m->disks.v[i].now, subs, sizeof(subs)),
				    utf8);
		}
	case VIEW_CALLERS:
		return columns_text_model(m, v->tasks[i], (enum col_id)c->pcol, buf, n, utf8);
	case VIEW_CONNECTIONS:
		return conntable_text(&m->conns[i], col, buf, n, utf8);
	default:
		return buf;
	}
}

const char *systable_text(const struct systable *v, size_t row, int col, char *buf, size_t n,
			 int utf8)
{
	if (row >= v->n) {
		if (n)
			buf[0] = '\0';
		return buf;
	}
	return text_at(v, v->idx[row], col, buf, n, utf8);
}

const struct task *systable_task(const struct systable *v, size_t row)
{
	return v->kind == VIEW_CALLERS && row < v->n ? v->tasks[v->idx[row]] : NULL;
}

bool systable_row_id(const struct systable *v, size_t row, struct av_row_id *id)
{
	size_t i;

	memset(id, 0, sizeof(*id));
	id->sub = -1;
	if (row >= v->n)
		return false;
	i = v->idx[row];
	switch (v->kind) {
	case VIEW_SYSCALLS:
	case VIEW_LATENCY:
		id->nr = v->m->agg.sc[i].nr;
		return true;
	case VIEW_ERRORS:
		id->nr = v->m->agg.err[i].nr;
		id->err = v->m->agg.err[i].err;
		return true;
	case VIEW_SUBSYSTEMS:
		id->sub = (int)i;
		return true;
	case VIEW_SIGNALS:
		if (i >= flows_of(v)->n)
			return false;
		id->sender = flows_of(v)->v[i].sender;
		id->receiver = flows_of(v)->v[i].receiver;
		return true;
	case VIEW_GROUPS:
		id->key = v->gr->v[i].key;
		return true;
	case VIEW_DISKS:
		id->key = v->m->disks.v[i].now.name;
		return true;
	case VIEW_CALLERS:
		id->pid = v->tasks[i]->pid;
		return true;
	case VIEW_CONNECTIONS:
		id->pid = v->m->conns[i].pid;
		return true;
	default:
		return false;
	}
}

static void push(struct systable *v, const struct table *t, size_t i)
{
	if (v->filter[0] && !table_match(t, &i, v->filter))
		return;
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 64;
		v->idx = xrealloc(v->idx, v->cap * sizeof(*v->idx));
	}
	v->idx[v->n++] = i;
}

/* The callers' tasks: every row the drill names. */
static void collect_tasks(struct systable *v, const struct model *m)
{
	size_t i;

	v->ntasks = 0;
	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];

		if (!systable_drill_match(m, &v->drill, t))
			continue;
		if (v->ntasks == v->cap_tasks) {
			v->cap_tasks = v->cap_tasks ? v->cap_tasks * 2 : 64;
			v->tasks = xrealloc(v->tasks, v->cap_tasks * sizeof(*v->tasks));
		}
		v->tasks[v->ntasks++] = t;
	}
}

/* Every source row that holds the filter, unordered. */
static void collect_rows(struct systable *v, const struct table *t, const struct model *m,
			 const struct groups *gr)
{
	const struct systotals *sa = &m->agg;
	size_t i;

	switch (v->kind) {
	case VIEW_SYSCALLS:
		for (i = 0; i < sa->nsc; i++)
			if (v->sub < 0 || (int)sa->sc[i].sub == v->sub)
				push(v, t, i);
		break;
	case VIEW_ERRORS:
		for (i = 0; i < sa->nerr; i++)
			push(v, t, i);
		break;
	case VIEW_LATENCY:
		/* The syscalls timed since the first interval: a row stays when idle, as in Syscalls. */
		for (i = 0; i < sa->nsc; i++) {
			const struct sc_stat *s = sctable_find(&sa->total, sa->sc[i].nr);

			if (s && s->timed)
				push(v, t, i);
		}
		break;
	case VIEW_SUBSYSTEMS:
		for (i = 0; i < SUB_NR; i++)
			if (sa->sub[i].calls_total || sa->sub[i].calls)
				push(v, t, i);
		break;
	case VIEW_SIGNALS:
		if (v->by_comm)
			sigflows_by_comm(&m->sigflows, &v->merged);
		for (i = 0; i < flows_of(v)->n; i++)
			push(v, t, i);
		if (m->sigflows.other.total || m->sigflows.other.n)
			push(v, t, flows_of(v)->n);
		break;
	case VIEW_DISKS:
		for (i = 0; i < m->disks.n; i++)
			push(v, t, i);
		break;
	case VIEW_GROUPS:
		for (i = 0; gr && i < gr->n; i++)
			if (gr->v[i].seen_tick == gr->tick && gr->tick == m->tick)
				push(v, t, i);
		break;
	case VIEW_CALLERS:
		collect_tasks(v, m);
		for (i = 0; i < v->ntasks; i++)
			push(v, t, i);
		break;
	case VIEW_CONNECTIONS:
		for (i = 0; i < m->nconns; i++)
			push(v, t, i);
		break;
	default:
		break;
	}
}

void systable_refresh(struct systable *v, const struct model *m, const struct groups *gr)
{
	struct table t;

	v->m = m;
	v->gr = gr;
	v->n = 0;
	systable_table(&t, v, NULL, 0);
	collect_rows(v, &t, m, gr);
	t.nrows = v->n;
	table_sort(&t, v->idx, v->n, sizeof(*v->idx));
}

/* ---- the table definition ------------------------------------------------ */

static const struct systable *av_of(const struct table *t)
{
	return t->src;
}

static size_t src_of(const void *item)
{
	return *(const size_t *)item;
}

static bool def_col(const struct table *t, int c, struct tcol *out)
{
	const struct av_col *k = col_of(av_of(t), c);

	if (!k)
		return false;
	*out = (struct tcol){
		.key = k->key, .title = k->title, .width = k->width, .left = k->left,
		.text = k->type == AV_STR, .screen_only = k->type == AV_GRAPH,
		.sort_default = k->sort_default,
		/* The group's name (a cgroup's path is long): wider where there is room. */
		.grow = (av_of(t)->kind == VIEW_GROUPS && c == 0) ||
			(av_of(t)->kind == VIEW_DISKS && c == DK_SUBMITTERS),
	};
	return true;
}

static const void *def_item(const struct table *t, size_t row)
{
	return &av_of(t)->idx[row];
}

static bool def_num(const struct table *t, const void *item, int c, double *out)
{
	return num_at(av_of(t), src_of(item), c, out);
}

static const char *def_text(const struct table *t, const void *item, int c, char *buf, size_t n,
			    int how)
{
	return text_at(av_of(t), src_of(item), c, buf, n, how);
}

static const char *def_cell(const struct table *t, const void *item, int c, char *buf, size_t n,
			    int utf8)
{
	const struct systable *v = av_of(t);

	return systable_cell(v, (size_t)((const size_t *)item - v->idx), c, buf, n, utf8);
}

/* Counts within the interval and their shares of it: unknown in the baseline. */
static bool def_raw(const struct table *t, const void *item, int c, char *buf, size_t n)
{
	const struct av_col *k = col_of(av_of(t), c);
	double d;

	bool ms = k && (k->type == AV_MS || k->type == AV_MS_PER_S);

	if (!k || !num_at(av_of(t), src_of(item), c, &d) ||
	    ((k->type == AV_COUNT || ms) && t->m->interval_s <= 0))
		return false;
	snprintf(buf, n, k->type == AV_PCT ? "%.1f" : k->type == AV_TIME || k->type == AV_MEAN ? "%.2f" :
		 ms ? "%.3f" : "%.0f", d);
	return true;
}

static const char *def_json(const struct table *t, const void *item, int c, char *buf, size_t n,
			    size_t *len, char **owned)
{
	(void)owned;
	text_at(av_of(t), src_of(item), c, buf, n, TEXT_DATA);
	*len = strlen(buf);
	return buf;
}

static int def_last(const struct table *t, const void *a, const void *b)
{
	size_t x = src_of(a), y = src_of(b);

	(void)t;
	return x < y ? -1 : x > y;
}

static int def_tie(const struct table *t)
{
	return tie_col(av_of(t)->kind);
}

static void def_drill(const struct table *t, const void *item, struct drill *out)
{
	const struct systable *v = av_of(t);
	size_t row = (size_t)((const size_t *)item - v->idx);
	struct av_row_id rid;
	const struct task *task;

	if (!systable_row_id(v, row, &rid))
		return;
	switch (v->kind) {
	case VIEW_SYSCALLS:
	case VIEW_ERRORS:
	case VIEW_LATENCY:
		out->kind = DRILL_CALLERS;
		out->callers.from = v->kind;
		out->callers.nr = rid.nr;
		out->callers.err = v->kind == VIEW_ERRORS ? rid.err : 0;
		return;
	case VIEW_SUBSYSTEMS:
		out->kind = DRILL_SUBSYSTEM;
		out->sub = rid.sub;
		return;
	case VIEW_SIGNALS:
		if (rid.receiver <= 0) {
			out->why = "several receivers in this row: b shows them one per process";
			return;
		}
		out->kind = DRILL_PROCESS;
		out->pid = rid.receiver;
		return;
	case VIEW_GROUPS:
		out->kind = DRILL_CALLERS;
		out->callers.from = VIEW_GROUPS;
		out->callers.by = v->gr->by;
		snprintf(out->callers.key, sizeof(out->callers.key), "%s", rid.key);
		return;
	case VIEW_DISKS:
		out->why = "a device's processes are its SUBMITTERS: the process table's WR/s has them all";
		return;
	case VIEW_CALLERS:
		task = systable_task(v, row);
		if (task) {
			out->kind = DRILL_PROCESS;
			out->pid = task->tgid ? task->tgid : task->pid;
		}
		return;
	case VIEW_CONNECTIONS:
		if (rid.pid <= 0) {
			out->why = "no process has sent or received through this socket yet";
			return;
		}
		out->kind = DRILL_PROCESS;
		out->pid = rid.pid;
		return;
	default:
		return;
	}
}

const struct table_def aggview_table_def = {
	.rows_key = "rows",
	.cell_max = CGROUP_KEY_MAX * 4,
	.data_max = CGROUP_KEY_MAX * 4,
	.col = def_col,
	.item = def_item,
	.num = def_num,
	.text = def_text,
	.cell = def_cell,
	.raw = def_raw,
	.json = def_json,
	.sort_text_max = CGROUP_KEY_MAX * 4,
	.sort_text_how = TEXT_DATA,
	.sort_last = def_last,
	.tie = def_tie,
	.drill = def_drill,
};

void systable_table(struct table *t, const struct systable *v, const int *cols, size_t ncols)
{
	*t = (struct table){
		.def = &aggview_table_def, .m = v->m, .src = v, .cols = cols, .ncols = ncols,
		.nrows = v->n, .sort = v->sort, .dir = v->dir,
	};
}

size_t systable_written_columns(enum view_kind k, int *cols)
{
	size_t i, n, w = 0;
	const struct av_col *c = systable_columns(k, &n);

	for (i = 0; i < n && w < 64; i++)
		if (c[i].type != AV_GRAPH)
			cols[w++] = (int)i;
	return w;
}

const char *systable_cell(const struct systable *v, size_t row, int col, char *buf, size_t n,
			int utf8)
{
	size_t ncols;
	const struct av_col *c = systable_columns(v->kind, &ncols);
	double d;

	if (n)
		buf[0] = '\0';
	if (col < 0 || (size_t)col >= ncols || c[col].type == AV_GRAPH)
		return buf;
	c += col;
	if (c->type == AV_STR)
		return systable_text(v, row, col, buf, n, utf8);
	if (!systable_num(v, row, col, &d) ||
	    ((c->type == AV_COUNT || c->type == AV_MS_PER_S) && !systable_rate(v, d, &d)) ||
	    (c->type == AV_MS && !systable_rate(v, d / 10, &d))) {
		snprintf(buf, n, "-");
		return buf;
	}
	switch (c->type) {
	case AV_COUNT:
		if (c->pcol >= 0 && c->pcol < COL_NR && columns_bytes(c->pcol))
			fmt_bytes(buf, n, d);
		else
			fmt_rate(buf, n, d);
		break;
	case AV_TOTAL:
		snprintf(buf, n, "%.0f", d);
		if (strlen(buf) > (size_t)c->width)
			fmt_rate(buf, n, d);
		break;
	case AV_PCT:
	case AV_MS:	/* ms / (s * 1000) * 100: the share of the interval */
		fmt_fixed(buf, n, d, d < 999.95, 0);
		break;
	case AV_KB:
		fmt_kb(buf, n, d);
		break;
	case AV_TIME:
		fmt_cputime(buf, n, d);
		break;
	case AV_MS_PER_S:	/* ms a second: a duration a second */
		fmt_usec(buf, n, d * 1e3, false, utf8);
		break;
	case AV_USEC:
	case AV_USEC_BOUND:
		fmt_usec(buf, n, d, c->type == AV_USEC_BOUND, utf8);
		break;
	case AV_MEAN:
		fmt_fixed(buf, n, d, d < 99.995 ? 2 : 0, 0);
		break;
	default:
		snprintf(buf, n, "%.0f", d);
		break;
	}
	return buf;
}
