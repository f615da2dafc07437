/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FCALL_H
#define KTOP_FCALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A system call a thread was in when a tick was taken, for one interval or
 * more: a "call in progress" (the process view's, and batch's with -p). It
 * is counted (calls, times) in the interval where it ends, like every call.
 * Its entry is a sys_enter event (exact), or, for a call entered before
 * tracing (or the focus) began, /proc/TID/syscall read then: @before, and
 * @since_ns is when it was read (its age is a lower bound).
 */
enum fcall_arg {
	FA_NONE,	/* its first argument says nothing worth showing */
	FA_FD,		/* a file descriptor (fd, epfd, ...) */
	FA_PID,		/* a process (wait4's upid, ...) */
	FA_ADDR,	/* an address to wait on (futex's uaddr) */
};

struct fcall {
	pid_t tgid, tid;
	uint32_t nr;		/* its key (sctable.h: number and ABI) */
	uint8_t arg;		/* enum fcall_arg: what arg0 is */
	bool before;		/* entered before the focus: since_ns is a lower bound */
	uint64_t since_ns;	/* its entry, CLOCK_MONOTONIC */
	uint64_t arg0;
	char target[64];	/* FA_FD: what the descriptor is (its /proc link); "" unknown */
};

/*
 * fcall_text - "read on fd 3 (pipe:[812]) for 12.4 s" into @buf (the
 * caller's): the call, its argument when it says something, its age at
 * @now_ns ("for more than" when it began before it was seen). Returns @buf.
 */
const char *fcall_text(const struct fcall *c, uint64_t now_ns, char *buf, size_t n);
/* Sort @n calls oldest first. */
void fcall_sort(struct fcall *c, size_t n);

#endif
