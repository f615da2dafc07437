/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CALLARGS_H
#define KTOP_CALLARGS_H

/*
 * collectors/trace/callargs: what a system call's arguments are, and the call a
 * thread is in now. The count and the first argument's kind come from the
 * call's syscalls:sys_enter_NAME format (its field names), looked up once
 * per call number; the call in progress from /proc/PID/task/TID/syscall
 * (the kernel's view of a blocked thread's registers), a descriptor's
 * target from its /proc link.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../model/fcall.h"
#include "../../model/kev.h"

#define CALLARGS_MAX 1024

/* The caller's cache, zeroed: nothing looked up yet. */
struct callargs {
	uint8_t nargs[CALLARGS_MAX];	/* syscall nr -> arguments + 1; 0 = not looked up */
	uint8_t arg0[CALLARGS_MAX];	/* syscall nr -> enum fcall_arg of its first argument */
};

/* How many arguments call @nr takes (KEV_SC_ARGS when its format is not there). */
uint8_t callargs_count(struct callargs *ca, int64_t nr);
/* What its first argument is (FA_NONE for a number past the table: a 32-bit program's). */
enum fcall_arg callargs_first(struct callargs *ca, int64_t nr);
/*
 * callargs_current - the call thread @tid of @pid is in, read now: its
 * number as the thread's ABI has it into @nr, its six arguments. False when
 * it is in none (running, or in the kernel outside a call), gone, or not
 * ours to read (ptrace access).
 */
bool callargs_current(pid_t pid, pid_t tid, long *nr, uint64_t args[KEV_SC_ARGS]);
/* What descriptor @fd of @tid is ("pipe:[812]", a path), into @buf; "" when not known. */
void callargs_fd_target(pid_t pid, pid_t tid, int fd, char *buf, size_t len);

#endif
