/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_KEV_H
#define KTOP_KEV_H

/*
 * model/kev: one kernel event of a focused process, as its ring keeps it, and
 * the kind catalog (name, the tracepoints behind each kind). Pure data: the
 * decoding from ring-buffer records is collectors/focus/evrich.c's, the text
 * tables/kevtext.c's. A new kind is a row in kev.c's catalog, an enum
 * kev_kind and its renderer in kevtext.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * syscall rows: entered before the focus began (its entry read from
 * /proc/TID/syscall): dur_ns is from the focus on, a lower bound
 */
#define KEVF_BEFORE 0x08

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

/* The kind catalog: short name (filters: "syscall", "fault", ...), its tracepoints. */
const char *kev_kind_name(enum kev_kind k);
const char *kev_kind_source(enum kev_kind k);
/* A kind by its short name (or a unique prefix); -1 when none. */
int kev_kind_by_name(const char *name);

#endif
