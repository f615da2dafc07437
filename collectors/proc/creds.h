/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CREDS_H
#define KTOP_CREDS_H

/*
 * collectors/proc/creds: whose a process is, asked again when its credentials may
 * have changed. A user other than root sees the events of their own processes
 * only (the Ktrace rule); a process of theirs that executes a setuid, setgid
 * or file-capability program is theirs no more from that exec on, and its
 * events must not reach them (perf stops monitoring it then for the same
 * reason: the kernel makes it non-dumpable).
 *
 * Credentials change only at an exec or through a set*id, setgroups or capset
 * call. A process of the user cannot take another effective uid without an
 * exec (those calls let it choose among its own ids only); a root process that
 * switches to the user (a login, cron, su's child) becomes the user's, but what
 * it did before the switch was root's: see counting.c for how an interval with
 * such a call is withheld.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * creds_owner - the owner the kernel gives /proc/@rel (relative to @dirfd,
 * "PID" or "PID/task/TID"): the effective uid, or root when the process is not
 * dumpable (it changed credentials: setgid, capabilities, a setuid program
 * that set its uid back), as for ptrace and perf. -1 when it is gone.
 * A fresh path lookup: the owner of a descriptor kept open is not updated.
 */
int64_t creds_owner(int dirfd, const char *rel);

/*
 * creds_exec_ordinary - did @pid's exec of @file (the name execve was given,
 * @len bytes) run a program that grants nothing: a regular file without a
 * setuid bit of another owner than @uid, a setgid bit of another group than
 * @gid, or file capabilities? The name is looked up as the process would
 * (its root, its working directory, its /proc/self), which works while the
 * process is @uid's (ptrace rules). False when that cannot be told.
 */
bool creds_exec_ordinary(pid_t pid, const char *file, size_t len, uid_t uid, gid_t gid);

#endif
