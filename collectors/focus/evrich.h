/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_EVRICH_H
#define KTOP_EVRICH_H

/*
 * collectors/focus/evrich: the rich events of a focused process, decoded whole (a
 * system call with its arguments, a context switch with both tasks, a page
 * fault with its address) for the event list and the snapshots. The system-wide
 * counting path (evdecode.h) reads two fields per event; this one is only fed
 * the focus instance's events, which the kernel filtered to the focused
 * processes.
 *
 * Two catalog tables in evrich.c: the tracepoints (system, name, the fields
 * decoded) and the event kinds (name, the tracepoints behind it, how it
 * renders). Adding an event is a row in each. Decoding reads fixed offsets
 * resolved once from the format files and checks every read against the
 * record's size; rendering is pure formatting. No I/O.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../trace/evformat.h"
#include "../../model/kev.h"
#include "../trace/instance.h"
#include <sys/types.h>

/* The tracepoints the focus instance enables, in this order. */
enum rich_tp {
	RT_SYS_ENTER,	/* raw_syscalls:sys_enter: number, six arguments */
	RT_SYS_EXIT,	/* raw_syscalls:sys_exit: number, return value */
	RT_SWITCH,	/* sched:sched_switch: both tasks, the state of the one leaving */
	RT_FAULT,	/* exceptions:page_fault_user (x86): address, ip, error code */
	RT_SIGGEN,	/* signal:signal_generate */
	RT_SIGDELIVER,	/* signal:signal_deliver */
	RT_NEWTASK,	/* task:task_newtask */
	RT_EXEC,	/* sched:sched_process_exec */
	RT_EXIT,	/* sched:sched_process_exit */
	RT_NR
};

#define EVRICH_MAX_FIELDS 7

struct evrich {
	struct tep_handle *tep;
	int page_size;
	int id[RT_NR];			/* the kernel's event id; -1 = not loaded */
	struct ev_field f[RT_NR][EVRICH_MAX_FIELDS];
	int min_size[RT_NR];
	uint64_t events, malformed;
};

/* The tracepoint catalog. */
const char *evrich_system(enum rich_tp t);
const char *evrich_name(enum rich_tp t);

/* Set up from events/header_page; evrich_free either way. Returns 0 or -errno. */
int evrich_init(struct evrich *d, const char *header_page, size_t len);
void evrich_free(struct evrich *d);
/* Make @t decodable from its format text. Returns 0, -EINVAL, -ENOMEM. */
int evrich_add(struct evrich *d, enum rich_tp t, const char *format, size_t len);

/* One decoded record, before the focus collector pairs and attributes it. */
struct evrich_rec {
	enum rich_tp tp;
	uint64_t ts;
	int32_t pid;		/* common_pid: the task it ran in */
	bool irq;		/* written from interrupt context (no sending task) */
	struct kev ev;		/* kind and fields filled; tid, cpu, exact vars not yet */
	/* RT_EXEC: the whole file name (ev has 63 bytes), in the page: valid while it is. */
	const char *file;
	size_t file_len;
};

typedef void (*evrich_fn)(void *ctx, const struct evrich_rec *r);

/*
 * A position in one CPU's sub-buffer, so that several CPUs' records can be
 * merged in time order (a task that moves between CPUs enters a call on one
 * and leaves it on another).
 */
struct evrich_cursor {
	struct rbpage page;
	const uint8_t *rec;	/* the current record of ours; NULL = none left */
	int size, tp;
	uint64_t ts;
};

/*
 * Start on a sub-buffer (which must stay in place while the cursor is on it);
 * the cursor is on its first record of ours, if any. Returns 0 or -EINVAL;
 * @missed as for evrich_page.
 */
int evrich_cursor_load(struct evrich *d, struct evrich_cursor *c, const void *page, size_t len,
		       long *missed);
/* Move to the next record of ours; false when the sub-buffer has no more. */
bool evrich_cursor_next(struct evrich *d, struct evrich_cursor *c);
/* Decode the current record. */
void evrich_cursor_decode(struct evrich *d, const struct evrich_cursor *c, struct evrich_rec *r);

/*
 * evrich_page - decode one ring-buffer sub-buffer, calling @fn per record
 *
 * Returns the records decoded, or -EINVAL for a page that does not fit @len.
 * @missed gets the kernel's "events missed before this page" (-1 = some).
 */
int evrich_page(struct evrich *d, const void *page, size_t len, evrich_fn fn, void *ctx,
		long *missed);

#endif
