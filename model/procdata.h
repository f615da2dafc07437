/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROCDATA_H
#define KTOP_PROCDATA_H

/*
 * The readings of /proc the model keeps: its own types. The parsers
 * (collectors/proc/procfs.c, sysparse.c) fill them straight from the files' text,
 * so no copy stands between a reading and the model; a replayed recording
 * fills the same types from its rows.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PROC_COMM_MAX 64	/* TASK_COMM_LEN is 16; kernel threads' names can be 64 */

/* What ktop takes from /proc/PID/stat (and /proc/PID/task/TID/stat). */
struct pid_stat {
	pid_t pid;
	char comm[PROC_COMM_MAX];	/* raw bytes, NUL-terminated; sanitize to print */
	char state;
	pid_t ppid, pgid, sid;
	int tty_nr;
	uint64_t minflt, majflt;	/* whole process (dead threads included) */
	uint64_t utime, stime;		/* clock ticks, whole process */
	int64_t priority, nice;
	uint64_t num_threads;
	uint64_t starttime;		/* clock ticks after boot: identity of a pid */
	uint64_t vsize;			/* bytes */
	uint64_t rss;			/* pages */
	int processor;			/* -1 when the kernel lacks the field */
	/* PF_KTHREAD of the flags field: read from /proc (a recording has no flags). */
	bool have_flags, kthread;
};

/* What ktop takes from /proc/PID/status. Missing lines leave fields at -1/0. */
struct pid_status {
	int64_t tgid;		/* -1 if absent */
	int64_t uid;		/* effective uid, -1 if absent */
	int64_t vcsw;		/* voluntary_ctxt_switches, -1 if absent */
	int64_t ivcsw;		/* nonvoluntary_ctxt_switches, -1 if absent */
};

#define SYS_MAX_CPUS 1024

/* One "cpu" line of /proc/stat, in clock ticks. */
struct cpu_times {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
	int present;	/* the line was in the file this time (CPUs go offline) */
};

struct sys_stat {
	struct cpu_times total;
	struct cpu_times *cpu;	/* caller-owned array of @ncpu_max entries */
	int ncpu_max;
	int ncpu;		/* 1 + highest cpuN seen */
	uint64_t ctxt, intr, forks;
	uint64_t procs_running, procs_blocked;
};

/* /proc/meminfo, in kB. */
struct sys_mem {
	uint64_t total, free, available, buffers, cached, sreclaimable, shmem;
	uint64_t swap_total, swap_free;
	int has_available;
};

/* /proc/vmstat: the counters ktop shows. */
struct sys_vm {
	uint64_t pgfault, pgmajfault, pswpin, pswpout, pgpgin, pgpgout;
};

struct sys_load {
	double avg[3];
	uint64_t running, threads;
	uint64_t last_pid;	/* the pid allocated last: moves on every fork and clone */
	int has_last_pid;
};

/* The system files' readings: what the header shows. */
struct sys_sample {
	struct sys_stat stat;
	struct sys_mem mem;
	struct sys_vm vm;
	struct sys_load load;
	double uptime_s;
	bool have_stat, have_mem, have_vm, have_load, have_uptime;
};

#endif
