/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SCNAMES_H
#define KTOP_SCNAMES_H

#include <stddef.h>

#include "sctable.h"

/*
 * System call numbers (what the raw_syscalls trace events carry) turned into
 * names, the kernel subsystem that implements each call, and errno names for
 * failed calls.
 */

/*
 * The kernel subsystem a system call belongs to, named as in the kernel's
 * Documentation/admin-guide/workload-tracing.rst. lib/scnames.c documents the
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

/*
 * Buffer sizes that always fit syscall_name()'s and errno_name()'s fallbacks,
 * and syscall_label()'s whole text.
 */
enum { SYSCALL_NAME_BUF = 24, ERRNO_NAME_BUF = 16, SYSCALL_LABEL_BUF = 64 };

/*
 * The system call names of the architecture ktop is built for, indexed by
 * number, NULL for unused numbers. Generated at build time by
 * tools/gen-syscalls.sh (build/gen/syscall_names.c) from the compiler's
 * <asm/unistd.h> and the kernel's own table for this machine in
 * data/syscalls, each number named by the newer of the two.
 */
extern const char *const syscall_names[];
extern const unsigned syscall_names_count;
/*
 * The same for the other ABIs of this machine's processes (x86_64: i386 and
 * x32, from data/syscalls alone), indexed by the number within the ABI;
 * empty (count 0) elsewhere.
 */
extern const char *const syscall_names_compat[];
extern const unsigned syscall_names_compat_count;
extern const char *const syscall_names_x32[];
extern const unsigned syscall_names_x32_count;

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
 * @nr: the system call key (sc_key: the number of a raw_syscalls event and its ABI)
 * @buf: where to format the name of an unknown number
 * @n: size of @buf; SYSCALL_NAME_BUF always fits
 *
 * The name in the key's ABI's table, without the ABI: "read" for 0 on x86_64,
 * "restart_syscall" for 0 of a 32-bit process (SC_ABI_COMPAT).
 * Return: the name, or "syscall_NNN" (NNN the number within its ABI) written
 * into @buf when the ABI has no system call of that number.
 */
const char *syscall_name(unsigned nr, char *buf, size_t n);

/**
 * syscall_abi_name() - the name of a system call's ABI
 * @nr: the system call key
 *
 * Return: a static string: "64-bit" (the native ABI of a 64-bit machine;
 * "32-bit" on a 32-bit one), "32-bit" (SC_ABI_COMPAT), "x32".
 */
const char *syscall_abi_name(unsigned nr);

/**
 * syscall_label() - the name of a system call, with its ABI when not native
 * @nr: the system call key
 * @buf: where the label is written
 * @n: size of @buf; SYSCALL_LABEL_BUF always fits
 *
 * For the views and outputs that show calls of every ABI in one list:
 * "getppid" for a native call, "getppid (32-bit)" for a 32-bit process's.
 * Return: @buf.
 */
const char *syscall_label(unsigned nr, char *buf, size_t n);

/**
 * syscall_subsystem() - the kernel subsystem of a system call
 * @nr: the system call key
 *
 * Return: the subsystem of the call in its ABI, SUB_OTHER for an unknown
 * number. O(1).
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

/**
 * errno_hint() - plain words for a kernel-internal errno
 * @err: as errno_name() takes it
 *
 * A trace sees ERESTARTSYS, ERESTART_RESTARTBLOCK and the like before the
 * kernel's restart logic turns them into a restart or EINTR; no manual page
 * names them. Return: a static phrase for those, NULL for any other.
 */
const char *errno_hint(int err);

#endif
