/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SYSPARSE_H
#define KTOP_SYSPARSE_H

/*
 * Parsers of the system-wide /proc files. Pure functions over a buffer, like
 * procparse.h: unit-tested and fuzzed. Return 0 or -EINVAL.
 */

#include <stddef.h>
#include <stdint.h>

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

int parse_sys_stat(const char *buf, size_t len, struct sys_stat *st);

/* /proc/meminfo, in kB. */
struct sys_mem {
	uint64_t total, free, available, buffers, cached, sreclaimable, shmem;
	uint64_t swap_total, swap_free;
	int has_available;
};

int parse_meminfo(const char *buf, size_t len, struct sys_mem *m);

/* /proc/vmstat: the counters ktop shows. */
struct sys_vm {
	uint64_t pgfault, pgmajfault, pswpin, pswpout, pgpgin, pgpgout;
};

int parse_vmstat(const char *buf, size_t len, struct sys_vm *v);

struct sys_load {
	double avg[3];
	uint64_t running, threads;
	uint64_t last_pid;	/* the pid allocated last: moves on every fork and clone */
	int has_last_pid;
};

int parse_loadavg(const char *buf, size_t len, struct sys_load *l);
int parse_uptime(const char *buf, size_t len, double *uptime_s);

#endif
