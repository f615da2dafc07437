/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_INPROG_H
#define KTOP_INPROG_H

/*
 * collectors/trace/inprog: the system calls the watched processes (-p, -- CMD) are
 * in for an interval or more, for batch output (the process view has the
 * focus instance's, collectors/focus/focus.c). From the counting instance's
 * pairing of sys_enter and sys_exit (acct: each thread's call in progress;
 * sys_enter is on when processes are watched), the first argument from
 * /proc/TID/syscall. A call entered before tracing began has no sys_enter:
 * the watched processes' threads are asked /proc at the first tick, and such
 * a call is listed ("more than" its age since then) until its thread ends a
 * call. Like every call, each is counted in the interval where it ends.
 */

#include <stdint.h>

#include "evsums.h"
#include "../../model/model.h"
#include "../../model/sample.h"

struct inprog;

/* Free with inprog_free (NULL is fine). */
struct inprog *inprog_new(void);
void inprog_free(struct inprog *ip);

/*
 * inprog_collect - into @s (have_calls), the watched processes' calls in
 * progress at @cut (the events' interval end) that were at the last tick
 * too. @a: the counting instance's sums after counting_read, before the
 * interval ends; nothing is written when it does not time calls (no
 * sys_enter) or nothing is watched.
 */
void inprog_collect(struct inprog *ip, const struct evsums *a, const struct model *m, uint64_t cut,
		    struct sample *s);

#endif
