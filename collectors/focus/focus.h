/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FOCUS_H
#define KTOP_FOCUS_H

/*
 * collectors/focus/focus: the rich events of the focused processes (process view,
 * -p) from a second tracefs instance, "ktop-<pid>-f". The kernel filters it
 * (set_event_pid = the focused processes' threads, event-fork for what they
 * create), so its cost follows what the focused processes do, not the rest of
 * the system; the system-wide counting instance (collectors/trace/counting.c) stays as
 * it was. The instance is made when the first process is focused and removed
 * when the last one is unfocused.
 *
 *   instance_read_page -> evrich_page -> pair, attribute -> fproc rings (model)
 *                                   -> varsread_sample, once per tick per process
 */

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../trace/evsums.h"
#include "../../model/model.h"
#include "../../model/sample.h"

struct focus;

/*
 * A collector with nothing focused (no instance yet). Free with focus_free.
 * @buffer_kb: its instance's buffer per CPU; 0 = 4 MiB.
 */
struct focus *focus_new(size_t buffer_kb);
/*
 * focus_new_offline - a collector that makes no instance, for the unit tests
 * of attribution (tests/unit/test_focus.c): focus_add keeps the process and
 * its threads as it would, and focus_feed gives it the records the decoder
 * would, in time order. No variable is sampled. Free with focus_free.
 */
struct focus *focus_new_offline(void);
/*
 * focus_feed - one record of CPU @cpu, decoded (evrich_cursor_decode's
 * result), attributed as a read pass does: paired, counted and kept in the
 * ring of the focused process it belongs to, if any.
 */
struct evrich_rec;
void focus_feed(struct focus *f, struct model *m, int cpu, const struct evrich_rec *r);
/* Remove the instance if there is one. NULL is fine. */
void focus_free(struct focus *f);
/* The instances made from now on keep their pages in @fl too (flight.h); NULL: not. */
struct flight;
void focus_set_flight(struct focus *f, struct flight *fl);

/*
 * focus_add - focus @pid: model_fproc_add, and the instance (re)made to
 * include it. @with_descendants: children's events count as the process's.
 *
 * Returns 0, or -errno with m->focus_status saying why (the process view then
 * shows the /proc side and the reason). -EPERM: @pid is another user's and
 * ktop is not root (focus_may_see); nothing was added.
 */
/*
 * focus_may_see - may this user see @pid's events? Root may see all; another
 * user only the processes that are theirs: their effective uid, and the owner
 * the kernel gives them (not theirs when an exec changed credentials,
 * creds.h; the rule the system-wide counts follow too). Returns 0, or -EPERM
 * (another user's) or -errno (its owner could not be read) with the reason in
 * @why. A focused process that becomes another user's by an exec later has
 * no event kept from that exec on, and m->focus_status says so.
 */
int focus_may_see(pid_t pid, char *why, size_t len);
int focus_add(struct focus *f, struct model *m, pid_t pid, bool with_descendants);
/* Unfocus @pid and forget its data; the last one removes the instance. */
void focus_remove(struct focus *f, struct model *m, pid_t pid);

/* Changes whenever the descriptors to poll change (the main loop rebuilds its set). */
unsigned focus_generation(const struct focus *f);
size_t focus_pollfds(const struct focus *f, struct pollfd *pfd, size_t max);
/* A descriptor of focus_pollfds was readable. */
void focus_drain(struct focus *f, struct model *m, int fd);
/* At a tick, before model_begin_tick: read all that is there, sample, count losses. */
void focus_collect(struct focus *f, struct model *m);

/*
 * focus_thread_states - each focused process's threads' state split of the
 * interval, from the counting instance's per-thread sums @a (NULL: tracing
 * off), into @s (sample_add_fthread; model_apply puts them in their fproc):
 * the numbers the process's row adds up. Between counting_collect and
 * counting_end_interval (@a holds the interval's times then), after
 * focus_collect (the threads created in it are known).
 */
void focus_thread_states(struct focus *f, const struct model *m, const struct evsums *a,
			 struct sample *s);

/*
 * A signal the system-wide instance saw generated towards a focused process
 * (the focus instance cannot: it runs in the sender). Adds the sender to the
 * signals panel. @as->sender 0: from interrupt context.
 */
void focus_signal_seen(struct focus *f, struct model *m, const struct evsums_sig *as);

#endif
