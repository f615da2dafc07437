/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_EVRICH_H
#define KTOP_EVRICH_H

/*
 * collectors/evrich: the rich events of a focused process, decoded whole (a
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

#include "evformat.h"
#include "rbpage.h"
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

/* What the event list shows: one kind per row of the kind catalog. */
enum kev_kind {
	KEV_SYSCALL,	/* entry + exit paired into one row, strace-like */
	KEV_SWITCH,	/* switched out (state, to whom) or in (from whom) */
	KEV_FAULT,
	KEV_SIGGEN,
	KEV_SIGDELIVER,
	KEV_FORK,
	KEV_EXEC,
	KEV_EXIT,
	KEV_NR
};

#define KEV_SC_ARGS 6
/* syscall rows: no entry seen (tracing began in the call, or it was lost) */
#define KEVF_NO_ENTER 0x01
/* syscall rows: no exit (exit, exit_group, or the process died in the call) */
#define KEVF_NO_EXIT 0x02
/* switch rows: the focused task is the one switched in */
#define KEVF_SWITCH_IN 0x04

/*
 * One event of a focused process, as kept in its ring (evring.h). Fixed size,
 * no pointers. The "exact" variables of the snapshot travel with the event:
 * read from events, not sampled.
 */
struct kev {
	uint64_t ts;		/* ring-buffer time, ns of CLOCK_MONOTONIC (trace_clock mono) */
	uint64_t sample;	/* sequence number of its variable sample (vars.h) */
	int32_t tid;		/* the focused task it happened to */
	int32_t last_out;	/* the last switch of this process up to here: who left */
	int32_t last_in;	/* ... and who came in; -1 = none seen yet, 0 = idle */
	int16_t last_sig;	/* the last signal delivered to it; 0 = none yet */
	uint16_t cpu;
	uint8_t kind;		/* enum kev_kind */
	uint8_t flags;		/* KEVF_* */
	uint8_t nargs;		/* syscall rows: arguments the call takes (6 if unknown) */
	uint8_t pad;
	union {
		struct {
			int64_t nr, ret;
			uint64_t args[KEV_SC_ARGS];
			uint64_t dur_ns;	/* exit - entry, with KEVF_NO_ENTER unset */
		} sc;
		struct {
			int32_t prev, next;
			int64_t prev_state;
			char prev_comm[16], next_comm[16];
		} sw;
		struct {
			uint64_t address, ip, error_code;
		} pf;
		struct {
			int32_t sig, code, err, target, sender, result, group;
			char comm[16];		/* generate: the target's; deliver: the sender's if known */
			uint64_t handler, sa_flags;
		} sig;
		struct {
			int32_t parent, child;
			uint64_t clone_flags;
			char comm[16];
		} fork;
		struct {
			int32_t pid, old_pid;
			char file[64];
		} exec;
		struct {
			int32_t pid, group_dead;
		} exit;
	} u;
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

/* The kind catalog: short name (filters: "syscall", "fault", ...), its tracepoints. */
const char *kev_kind_name(enum kev_kind k);
const char *kev_kind_source(enum kev_kind k);
/* A kind by its short name (or a unique prefix); -1 when none. */
int kev_kind_by_name(const char *name);

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

/*
 * kev_render - the one-line text of an event (without time, cpu, tid)
 * @nargs_known: for syscalls, print this many arguments
 *
 * "openat(0xffffff9c, 0x7ffd12345678, 0x80000, 0) = 3 <12.1 us>",
 * "= -2 ENOENT", "out S -> 1234 (bash)", "read user not-present at 0x... ip 0x...".
 * Returns @buf.
 */
char *kev_render(const struct kev *e, char *buf, size_t n);

/* Pieces the snapshot view shows field by field. */
const char *kev_switch_state(int64_t prev_state, char *buf, size_t n);
/* "read user not-present" style text of an x86 page-fault error code. */
char *kev_fault_text(uint64_t error_code, char *buf, size_t n);
/* "SIGUSR1", or "SIG33". */
const char *kev_signal_name(int sig, char *buf, size_t n);
/* signal_generate's result: "delivered", "ignored", "already pending", ... */
const char *kev_sig_result(int result);
/* Time as "12.1 us", "3.40 ms", "1.234 s". */
char *kev_duration(uint64_t ns, char *buf, size_t n);

/*
 * The fields of @e, one "name value" pair per call, for the snapshot: @i from
 * 0; returns false past the last.
 */
bool kev_field(const struct kev *e, int i, const char **name, char *val, size_t n);

#endif
