/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RECFMT_H
#define KTOP_RECFMT_H

/*
 * store/recfmt: the recording's format, shared by the recorder
 * (store/record.c) and the replayer (store/replay.c): the SQLite
 * schema, what each column of a task row holds, and the two encodings that
 * are ktop's own (the system sample, a task's per-syscall table). Pure: the
 * SQL is text here, the database is the callers'.
 *
 * A recording is a list of intervals. Each stores what moved: a task row per
 * process whose readings changed or that had events, its identity once per
 * life (table proc), the system sample as a difference from the interval
 * before. Every so often an interval is a keyframe: a full row for every live
 * process and the whole system sample, so that a replay jumps to any time by
 * reading forward from the keyframe before it, never from the start. The man
 * page (RECORDING) documents the tables for people who query them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/model.h"
#include "../model/sigflow.h"

/* PRAGMA application_id: "ktop"; PRAGMA user_version: the format. */
#define RECFMT_APP_ID	0x6b746f70
/* 2: task.states (the state split); format 1 files are read without it. */
#define RECFMT_VERSION	2

/*
 * The longest text or blob a recording holds: above what ktop writes (a
 * command line of 64 KiB, 4096 signal flows, an error table of every call and
 * errno), so that a reader can refuse a longer value before it is read.
 */
#define RECFMT_VALUE_MAX (8 << 20)

/* interval.flags */
#define RI_KEYFRAME	0x1	/* full rows and the whole system sample */
#define RI_HIDDEN	0x2	/* a baseline: the interval(s) before a file's first, not shown */
#define RI_SESSION	0x4	/* a session row starts here */

/* task.flags */
#define RT_READ		0x01	/* read from /proc this interval (a replay emits it) */
#define RT_BORN		0x02	/* it did not exist at the interval before */
#define RT_CSW		0x04	/* vcsw/ivcsw were read (status) */
#define RT_ROW		0x08	/* a row of kernel events */
#define RT_EXITED	0x10	/* its exit was seen: its last row */
#define RT_WITHHELD	0x20	/* its events of this interval are withheld */
#define RT_EXIT		0x40	/* its process's exit was applied */
#define RT_GONE		0x80	/* not read any more: it leaves the live set */
#define RT_FINAL	0x100	/* its final reading: the exit record (column final) */
#define RT_ALL		0x1ff

/* The integer columns of a task row, in table order after seq, proc, flags, state. */
enum recfmt_field {
	RF_PPID, RF_PGID, RF_SID, RF_TTY, RF_PRIO, RF_NICE, RF_THREADS, RF_CPU, RF_RSS,
	RF_VSZ, RF_UTIME, RF_STIME, RF_MINFLT, RF_MAJFLT, RF_VCSW, RF_IVCSW, RF_UID, RF_NR
};
extern const char *const recfmt_field_names[RF_NR];

/* The event counts of a task row, in table order after the text columns. */
#define RECFMT_NEV 6
extern const enum counter recfmt_ev_counter[RECFMT_NEV];
extern const char *const recfmt_ev_names[RECFMT_NEV];

/* The schema of a new file (statements separated by ';'). */
extern const char recfmt_schema[];
/* "INSERT INTO task VALUES (?,...)" with one ? per column. */
extern const char recfmt_task_insert[];
/*
 * "SELECT seq, proc, flags, state, ... FROM task" (no WHERE), the cgroup path
 * and the syscall table's text in place of their ids; _nosc: NULL for the table.
 */
extern const char recfmt_task_select[];
extern const char recfmt_task_select_nosc[];
/* The same for a format 1 file: NULL for the states. */
extern const char recfmt_task_select_v1[];
extern const char recfmt_task_select_nosc_v1[];
/* Where the text and event columns start in a task row (0-based column index). */
#define RECFMT_COL_STATE	3
#define RECFMT_COL_FIELDS	4
#define RECFMT_COL_USER		(RECFMT_COL_FIELDS + RF_NR)
#define RECFMT_COL_COMM		(RECFMT_COL_USER + 1)
#define RECFMT_COL_CMDLINE	(RECFMT_COL_USER + 2)
#define RECFMT_COL_CGROUP	(RECFMT_COL_USER + 3)
#define RECFMT_COL_EV		(RECFMT_COL_USER + 4)
#define RECFMT_COL_SC		(RECFMT_COL_EV + RECFMT_NEV)
#define RECFMT_COL_ERRS		(RECFMT_COL_SC + 1)
#define RECFMT_COL_FINAL	(RECFMT_COL_ERRS + 1)
#define RECFMT_COL_STATES	(RECFMT_COL_FINAL + 1)
#define RECFMT_NCOLS		(RECFMT_COL_STATES + 1)

/*
 * A row's state split (CNT_ONCPU..CNT_STOPPED, ns) as the column states holds
 * it: "N,N,N,N,N"; NULL when the task's states were not known.
 */
#define RECFMT_NSTATES 5
void recfmt_states_encode(char *buf, size_t n, const uint64_t ns[RECFMT_NSTATES]);
int recfmt_states_decode(const char *s, size_t n, uint64_t ns[RECFMT_NSTATES]);

/* A task's integer fields as a row stores them (RSS and size in KiB). */
void recfmt_task_fields(const struct task *t, int64_t v[RF_NR]);
/*
 * The reading that makes the model hold @v again: its stat (RSS back in
 * pages of @page_kb) and context switches when @csw.
 */
void recfmt_reading(const int64_t v[RF_NR], char state, const char *comm, long page_kb,
		    bool csw, struct task_reading *r);

/*
 * A command line as the file stores it: as text, its arguments separated by
 * spaces, when that says it exactly (NUL-terminated, no space in an
 * argument: SQL shows it as ps does); else as a blob, NUL-separated.
 * recfmt_cmdline_text: does @s (@len bytes) go as text? Then @out (@len
 * bytes) gets that text, NUL-terminated.
 */
bool recfmt_cmdline_text(const char *s, size_t len, char *out);
/* The command line of text @t (@n bytes) into @out (@n + 1 bytes). */
void recfmt_cmdline_from_text(const char *t, size_t n, char *out);

/* A growing byte buffer. */
struct recbuf {
	uint8_t *p;
	size_t len, cap;
};
void recbuf_free(struct recbuf *b);

/*
 * The system sample: all of @cur (@prev NULL: a keyframe), or each number as
 * its difference from @prev's. Appended to @b.
 */
void recfmt_sys_encode(struct recbuf *b, const struct sys_sample *cur,
		       const struct sys_sample *prev);
/*
 * Decode into @s: the whole sample (@delta false), or @s (the interval
 * before) plus the differences. s->stat.cpu must hold SYS_MAX_CPUS entries.
 * Returns 0, or -1 when the bytes are not a sample.
 */
int recfmt_sys_decode(const uint8_t *p, size_t n, bool delta, struct sys_sample *s);

/*
 * A per-syscall table as JSON text, [[nr,calls,errors,errno,timed,ns,max_ns],...]
 * by syscall number, each entry cut after its last non-zero number (at least
 * nr and calls): the SQL view "syscall" reads it with json_each. NUL-terminated.
 * The file keeps each distinct one once (table sctab).
 */
void recfmt_sc_encode(struct recbuf *b, const struct sc_table *t);
/* Parse that text (exactly that grammar) into @t (cleared first). 0, or -1. */
int recfmt_sc_decode(const char *s, size_t n, struct sc_table *t);
/*
 * The errors by errno (a table keyed by sc_err_key) as JSON text,
 * [[nr,errno,count],...] by syscall and errno (the SQL view syscall_error
 * reads it); and back. NUL-terminated.
 */
void recfmt_err_encode(struct recbuf *b, const struct sc_table *t);
int recfmt_err_decode(const char *s, size_t n, struct sc_table *t);
/*
 * The interval's signal flows (the rows of @f that counted this interval,
 * the other row's as sender and receiver -1) as JSON text,
 * [[sender,receiver,sig,result,n,"sender_comm","receiver_comm"],...] (no
 * names: the five numbers only), the
 * names' bytes outside printable ASCII as \u00XX; NUL-terminated. Appends
 * nothing but "[]" when there is none. With @m, a name is left out ("") when
 * @m has that process under that name: the model names a flow after its
 * task when it has it, and it has it again when replayed.
 */
void recfmt_flows_encode(struct recbuf *b, const struct sigflows *f, const struct model *m);
/* Parse that text into flows of @s (sample_add_flow). 0, or -1. */
int recfmt_flows_decode(const char *t, size_t n, struct sample *s);
/*
 * A final reading's counters (the exit record) as JSON text, [have, cnt...]
 * with one number per enum counter (0 where @have has no bit); and back.
 */
void recfmt_final_encode(struct recbuf *b, uint32_t have, const uint64_t cnt[CNT_NR]);
int recfmt_final_decode(const char *s, size_t n, uint32_t *have, uint64_t cnt[CNT_NR]);

#endif
