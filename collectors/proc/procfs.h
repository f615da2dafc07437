/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROCFS_H
#define KTOP_PROCFS_H

/*
 * collectors/proc/procfs: per-process (or per-thread) numbers from /proc/PID/stat,
 * status and cmdline, through persistent descriptors (fdcache.h).
 *
 * Each tick: a /proc scan finds new processes (getdents64 on a kept descriptor),
 * stat is read for every task, status and cmdline only for tasks whose values
 * someone needs (the visible rows, the sort column, the batch columns).
 * A task whose read fails is gone; a pid whose start time changed was reused.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../../model/model.h"
#include "../../model/procdata.h"

struct procfs;

/* What every task needs read this tick, beyond stat (NEED_* of columns.h). */
struct procfs_need {
	unsigned all;		/* for every task */
	unsigned wanted;	/* for tasks the model marks as wanted (visible) */
	/*
	 * Once a process life, and again after an exec (a new name): what the
	 * model has none of yet (NEED_CMDLINE: a recording's identities).
	 */
	unsigned first;
};

struct procfs_stats {
	unsigned long scans, skipped_scans, event_scans, stat_reads, status_reads, cmdline_reads;
	unsigned long schedstat_reads;	/* run_delay of threads (runq_ms untraced) */
	unsigned long io_reads;		/* /proc/PID/io (NEED_IO) */
	unsigned long cgroup_reads;
	unsigned long opens, evictions;
	size_t nopen, budget;
};

/*
 * procfs_new - set up the collector
 * @procdir: "/proc" (tests pass a directory of their own)
 * @fd_budget: how many descriptors it may keep open; 0 = from RLIMIT_NOFILE
 * @out: the collector, owned by the caller (procfs_free)
 *
 * Returns 0 or -errno.
 */
int procfs_new(const char *procdir, size_t fd_budget, struct procfs **out);
void procfs_free(struct procfs *pc);

/* Rows are threads (true) or processes; switching drops every entry. */
void procfs_set_threads(struct procfs *pc, bool threads);

/*
 * Restrict the collector to these processes (-p): no /proc scan is needed.
 * The array is copied.
 */
void procfs_set_focus(struct procfs *pc, const pid_t *pids, size_t n);
/*
 * Add one process to the focus (a child of a focused one, from fork events).
 * A focused process whose files cannot be read any more has exited: it leaves
 * the focus (its pid, if reused, is not another process to watch).
 */
void procfs_focus_add(struct procfs *pc, pid_t pid);
/* Stop reading a process of the focus (it is not watched any more). */
void procfs_focus_remove(struct procfs *pc, pid_t pid);

/*
 * The processes created since the last tick, from fork events, when the events
 * are complete (tracing ran the whole interval and lost nothing): the next
 * procfs_collect adds them instead of listing /proc. The array is copied.
 */
void procfs_hint_born(struct procfs *pc, const pid_t *pids, size_t n);

/*
 * The tasks (tids in thread mode, else processes) whose credentials may have
 * changed since the last tick (an exec, a set*id call: counting_cred_changes):
 * their owner is read again, for the next procfs_collect to give the model.
 */
void procfs_recheck_owners(struct procfs *pc, const pid_t *ids, size_t n);
/*
 * The tasks (as above) moved to another cgroup without an exec since the
 * last tick (counting_cgroup_moves): their cgroup is read again when wanted.
 */
void procfs_recheck_cgroups(struct procfs *pc, const pid_t *ids, size_t n);

/*
 * procfs_set_pause - call @fn(@arg) every 20 ms or so of a tick's scan
 *
 * A read of /proc/PID/stat waits while PID execs (the kernel's
 * exec_update_lock): 10,000 processes exec'ing at once made one scan last
 * 40 s. @fn keeps what must not wait that long going (the ring buffers);
 * it must not touch the model or the sample.
 */
void procfs_set_pause(struct procfs *pc, void (*fn)(void *), void *arg);

/*
 * procfs_collect - one tick's readings of every task, into @s
 * @m: the model as applied so far this tick (the system's last_pid, the
 *     tasks the views want status of); read only
 *
 * Call after the tick began (the system sample applied), then model_apply @s.
 */
void procfs_collect(struct procfs *pc, const struct model *m, const struct procfs_need *need,
		    struct sample *s);

void procfs_get_stats(const struct procfs *pc, struct procfs_stats *st);

/* Does /proc/@pid exist (for -p validation)? */
bool procfs_pid_exists(const struct procfs *pc, pid_t pid);

/*
 * Parsers of /proc files. Pure functions over a buffer: no I/O, no allocation, so
 * they can be unit-tested and fuzzed with hostile input (a comm with spaces, ')',
 * newlines; truncated or empty files; fields the running kernel lacks).
 * Each returns 0 on success or -EINVAL when the buffer is not a usable file.
 */
/* The flags field's bit of a kernel thread (include/linux/sched.h). */
#define PROCFS_PF_KTHREAD 0x00200000u
int procfs_parse_pid_stat(const char *buf, size_t len, struct pid_stat *st);

int procfs_parse_pid_status(const char *buf, size_t len, struct pid_status *st);

/*
 * The start of an ELF file (@len bytes of @h, 20 needed): 1 when it is a
 * 32-bit program of another machine than @native_em (an e_machine; x86_64's
 * x32 programs are class 32 of EM_X86_64 itself), 0 for another program, -1
 * when it is no ELF header.
 */
int procfs_parse_elf_compat(const unsigned char *h, size_t len, unsigned native_em);

#endif
