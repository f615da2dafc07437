/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CLOCKS_H
#define KTOP_CLOCKS_H

/*
 * The clocks and one-off file reads: the few system calls that are not a
 * collector's own reading, kept out of the pure lib/util.h.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Monotonic time in nanoseconds: every interval and rate is measured on it. */
uint64_t clocks_mono_ns(void);
/* The calling thread's CPU time in nanoseconds: what a piece of work costs, whatever else runs. */
uint64_t clocks_thread_cpu_ns(void);
/* Wall-clock time in seconds with fraction, for batch timestamps. */
double clocks_wall_s(void);

/*
 * sched_clock_stable - does the kernel keep sched_clock(), trace_clock
 * "local", synchronized across CPUs?
 * @why: what the answer rests on, a few words for KTOP_STATS and the header
 *
 * Its own word (kernel/sched/debug.c, debugfs sched/debug:
 * "sched_clock_stable()"), read where debugfs is mounted, else from a mount
 * of it in a private mount namespace of a child (root; the system's mounts
 * are not touched). Returns 1, 0, or -1 when it cannot tell.
 */
int sched_clock_stable(char *why, size_t whylen);

/*
 * Read a small file whole, once (open, read, close), into @buf, NUL-terminated:
 * for files read rarely. Persistent descriptors are for those read every tick.
 * Returns the length or -1.
 */
ssize_t read_small_file(const char *path, char *buf, size_t size);

/*
 * Does process @pid run a 32-bit program on this 64-bit machine (its calls
 * are then the compat ABI's: i386 numbers on x86_64)? Read from the ELF
 * header of /proc/PID/exe: class 32 of another machine than ktop's (x32, class
 * 32 of x86_64 itself, uses x86_64's numbers with their own bit). Returns 1 or
 * 0, -1 when it cannot be read (gone, a kernel thread, not ours).
 */
int exe_compat(pid_t pid);

#endif
