/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_EVDECODE_H
#define KTOP_EVDECODE_H

/*
 * collectors/trace/evdecode: kernel event records -> evsums.h calls.
 *
 * The event catalog (ev_defs in evdecode.c) names each kind's tracepoint and the
 * fields it reads. At start-up the formats of the kinds in use are parsed once
 * (libtraceevent) and each field's offset and size kept; the per-event path then
 * reads fixed offsets, checks every read against the record's size, allocates
 * nothing and formats nothing. No I/O: the caller hands in format text and ring
 * buffer pages, so the decoder is unit-tested and fuzzed with synthetic pages.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../lib/clockmap.h"
#include "evsums.h"
#include "evformat.h"

struct sockconn;

/* The system calls' kinds first, to EV_EXIT_GROUP (evdecode.c, own_call). */
enum ev_kind {
	EV_SYS_EXIT,		/* raw_syscalls:sys_exit: every syscall that returns */
	EV_SYS_ENTER,		/* raw_syscalls:sys_enter: only to time calls */
	EV_EXIT,		/* syscalls:sys_enter_exit: never returns */
	EV_EXIT_GROUP,		/* syscalls:sys_enter_exit_group: never returns */
	EV_SWITCH,		/* sched:sched_switch */
	EV_NEWTASK,		/* task:task_newtask: fork/clone, thread or process */
	EV_EXEC,		/* sched:sched_process_exec */
	EV_PEXIT,		/* sched:sched_process_exit */
	EV_SIGNAL,		/* signal:signal_generate */
	EV_SIGDELIVER,		/* signal:signal_deliver: with a kernel pid filter */
	EV_CGATTACH,		/* cgroup:cgroup_attach_task: a task moved to another cgroup */
	EV_RENAME,		/* task:task_rename: prctl(PR_SET_NAME), /proc/PID/comm, exec */
	EV_WAKEUP,		/* sched:sched_wakeup: the state split (a sleeper is runnable) */
	EV_WAKEUP_NEW,		/* sched:sched_wakeup_new: likewise, a new task */
	EV_SOCK_SEND,		/* sock:sock_send_length: a sendmsg's bytes (Linux 6.3+) */
	EV_SOCK_RECV,		/* sock:sock_recv_length: a recvmsg's bytes */
	EV_SOCK_STATE,		/* sock:inet_sock_set_state: a TCP socket's state, addresses */
	EV_TCP_RETRANS,		/* tcp:tcp_retransmit_skb */
	EV_TCP_RESET,		/* tcp:tcp_send_reset */
	EV_BLK_ISSUE,		/* block:block_rq_issue: a request to the driver (blockev.h) */
	EV_BLK_COMPLETE,	/* block:block_rq_complete: the driver completed it */
	EV_BLK_START,		/* block:block_io_start: a request made, in its submitter */
	EV_BLK_REQUEUE,		/* block:block_rq_requeue: an issued request back in the queue */
	EV_NR
};

#define EV_MAX_FIELDS 11

struct evdecode {
	struct tep_handle *tep;
	int page_size;			/* bytes of one ring-buffer sub-buffer */
	int id[EV_NR];			/* the kernel's event id; -1 = not loaded */
	struct ev_field f[EV_NR][EV_MAX_FIELDS];
	int min_size[EV_NR];		/* records shorter than this are malformed */
	uint8_t *kind_of;		/* event id -> enum ev_kind + 1; 0 = not ours */
	int nkind_of;
	uint64_t events, malformed;	/* records decoded and rejected, all time */
	/*
	 * The trace clock's stamps to CLOCK_MONOTONIC (the owner's, set after
	 * evdecode_init); NULL: the trace clock is mono, stamps are times.
	 */
	const struct clockmap *cmap;
	/*
	 * ktop's own thread (the owner's, set after evdecode_init; -1 none):
	 * its system calls are dropped here, not by the kernel's pid filter,
	 * which would run two probes on every context switch and wakeup of
	 * every traced task. Its switches and wakeups stay.
	 */
	int32_t self;
	/* The sockets' table (the owner's, set after evdecode_init); NULL: not kept. */
	struct sockconn *conns;
	/* The block events' collector (the owner's; NULL: those events are not decoded). */
	struct blockev *blk;
};

/* The catalog: which tracepoint an event kind is. */
const char *ev_system(enum ev_kind k);
const char *ev_name(enum ev_kind k);

/*
 * evdecode_init - set up from the ring buffer's page header description
 * @header_page: the text of events/header_page
 *
 * Returns 0 or -errno; the caller frees with evdecode_free either way.
 */
int evdecode_init(struct evdecode *d, const char *header_page, size_t len);
void evdecode_free(struct evdecode *d);

/*
 * evdecode_add - make kind @k decodable from its format file's text
 *
 * Returns 0, -EINVAL when the format lacks a field the kind cannot do without,
 * or -ENOMEM.
 */
int evdecode_add(struct evdecode *d, enum ev_kind k, const char *format, size_t len);

/*
 * evdecode_page - decode one ring-buffer sub-buffer into @a
 *
 * Returns the number of our events decoded (not @d->self's system calls), or
 * -EINVAL for a page whose header does not fit @len.
 */
int evdecode_page(struct evdecode *d, const void *page, size_t len, struct evsums *a);

#endif
