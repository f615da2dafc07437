/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_LIFECPU_H
#define KTOP_LIFECPU_H

/*
 * collectors/exits/lifecpu: each row's time on a CPU over its life, as ktop's own
 * events saw it (the model's rows: CNT_ONCPU, and of it CNT_EXITCPU, the
 * time after the exit event), for a dead row's CPU time (exits.c). The sum
 * is the collector's: a replay (-r) gets the finals it made.
 *
 * The exit record (taskstats) is sent from do_exit before the exit's own work
 * (freeing the memory, the files) and carries the scheduler's runtime as last
 * brought up to date (a clock tick, a switch), not as of then: a process that
 * touched 256 MiB is 20-40 ms short of what wait4 says, one that only ran,
 * up to a clock tick, one whose only run had no tick, 0. wait4's utime +
 * stime is the runtime after the last switch (cputime_adjust scales the
 * ticks to it). So a dead row's CPU time is its record's plus the time on a
 * CPU its events saw after its exit event; or, when larger, the events' sum
 * over its rows, which is its whole when they saw it from its birth. A life
 * during which events were lost has neither (a lost switch makes time off a
 * CPU look on it): the record's alone.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../model/model.h"

struct lifecpu;

struct lifecpu *lifecpu_new(void);
void lifecpu_free(struct lifecpu *l);
/*
 * lifecpu_note - a tick's events, once the model @m applied them (read
 * only): each row's time on a CPU added to its life's; a tick that lost
 * events spoils every life it is part of.
 */
void lifecpu_note(struct lifecpu *l, const struct model *m);
/*
 * lifecpu_final - the CPU time of dead row @t (ns) from its exit record's
 * @record_ns (the sum of its threads' records, for a process); its life is
 * forgotten. @t: the task the record goes to (model_final_of), NULL when
 * the model has none (no event of it was counted): the record's alone.
 */
uint64_t lifecpu_final(struct lifecpu *l, const struct task *t, uint64_t record_ns);
/* Forget the lives of rows gone from the model @m without a record (their pids may come again). */
void lifecpu_forget(struct lifecpu *l, const struct model *m);

#endif
