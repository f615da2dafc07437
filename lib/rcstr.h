/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RCSTR_H
#define KTOP_RCSTR_H

/*
 * lib/rcstr: byte strings shared by a count of references, for a task's
 * command line (up to 64 KiB). A source makes one (rcstr_new), whoever keeps
 * it takes a reference (rcstr_ref) and drops it (rcstr_put): the sample, the
 * model's task, a recording's memory of the task, the tasks a recording
 * stores as "the command line of the one before" all hold one copy.
 *
 * The bytes of the strings alive are counted (rcstr_live_bytes): a replay
 * refuses a file whose tasks' strings would take more than its limit
 * (store/replay.c). One count for the process: ktop reads or replays
 * from one thread.
 *
 * A string is a char * to its bytes, NUL-terminated after its length; it
 * must never be given to free(), nor a malloc'ed one to rcstr_put.
 */

#include <stddef.h>

/* A string of @len bytes of @p, and a NUL after them; one reference. */
char *rcstr_new(const void *p, size_t len);
/* Another reference to @s (NULL: NULL). */
char *rcstr_ref(char *s);
/* Drop a reference to @s (NULL: nothing); the last one frees it. */
void rcstr_put(char *s);
/* The bytes the strings alive take, their headers included. */
size_t rcstr_live_bytes(void);

#endif
