/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SYSCALLS_H
#define KTOP_SYSCALLS_H

#include <stddef.h>

/*
 * System call numbers (what the raw_syscalls trace events carry) turned into
 * names, the kernel subsystem that implements each call, and errno names for
 * failed calls.
 */

/*
 * The kernel subsystem a system call belongs to, named as in the kernel's
 * Documentation/admin-guide/workload-tracing.rst. model/syscalls.c documents the
 * rule that places each call.
 */
enum subsystem {
	SUB_FS,		/* "Filesystem" */
	SUB_MM,		/* "Memory Mgmt." */
	SUB_PROC,	/* "Process Mgmt." */
	SUB_SCHED,	/* "Scheduler" */
	SUB_SIGNAL,	/* "Signal" */
	SUB_NET,	/* "Network" */
	SUB_FUTEX,	/* "Futex" */
	SUB_TIME,	/* "Time" */
	SUB_IPC,	/* "IPC" */
	SUB_CAP,	/* "Capability" */
	SUB_SECURITY,	/* "Security" */
	SUB_IO_URING,	/* "I/O uring" */
	SUB_BPF,	/* "BPF" */
	SUB_PERF,	/* "Perf/Tracing" */
	SUB_MODULE,	/* "Modules" */
	SUB_SYSTEM,	/* "System" */
	SUB_OTHER,	/* "Other": unknown numbers, never-implemented slots */
	SUB_NR
};

/* Buffer sizes that always fit syscall_name()'s and errno_name()'s fallbacks. */
enum { SYSCALL_NAME_BUF = 24, ERRNO_NAME_BUF = 16 };

/*
 * The system call names of the architecture ktop is built for, indexed by
 * number, NULL for unused numbers. Generated at build time by
 * tools/gen-syscalls.sh (build/gen/syscall_names.c) from the compiler's
 * <asm/unistd.h> and the kernel's own table for this machine in
 * data/syscalls, each number named by the newer of the two.
 */
extern const char *const syscall_names[];
extern const unsigned syscall_names_count;

/**
 * syscalls_init() - build the number → subsystem map
 *
 * Looks every name of syscall_names[] up in the subsystem table once, so that
 * syscall_subsystem() is an array access afterwards. Calling it again does
 * nothing; syscall_subsystem() calls it if nobody did. Not thread-safe: call it
 * at startup.
 */
void syscalls_init(void);

/**
 * syscall_name() - name of a system call
 * @nr: the system call number (the "id" field of raw_syscalls events)
 * @buf: where to format the name of an unknown number
 * @n: size of @buf; SYSCALL_NAME_BUF always fits
 *
 * Return: the name, "read" for 0 on x86_64, or "syscall_NNN" written into @buf
 * when this architecture has no system call @nr.
 */
const char *syscall_name(unsigned nr, char *buf, size_t n);

/**
 * syscall_subsystem() - the kernel subsystem of a system call
 * @nr: the system call number
 *
 * Return: the subsystem, SUB_OTHER for an unknown number. O(1).
 */
enum subsystem syscall_subsystem(unsigned nr);

/**
 * syscall_subsystem_by_name() - the kernel subsystem of a system call name
 * @name: the name, as in syscall_names[] ("openat")
 *
 * Whatever the architecture ktop is built for: the table is the same for all.
 * Return: the subsystem, SUB_OTHER for a name the table lacks. O(table size).
 */
enum subsystem syscall_subsystem_by_name(const char *name);

/**
 * subsystem_name() - display name of a subsystem
 * @sub: the subsystem
 *
 * Return: a static string such as "Memory Mgmt."; "Other" for a value out of
 * range.
 */
const char *subsystem_name(enum subsystem sub);

/**
 * errno_name() - symbolic name of an errno value
 * @err: the error number, positive (2) or as a system call returns it (-2)
 * @buf: where to format the fallback
 * @n: size of @buf; ERRNO_NAME_BUF always fits
 *
 * Return: "ENOENT" for 2 or -2, or "E<number>" written into @buf when the C
 * library has no name for it.
 */
const char *errno_name(int err, char *buf, size_t n);

#endif
