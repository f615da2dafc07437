/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_COLUMNS_H
#define KTOP_COLUMNS_H

/*
 * The column catalog: every per-task number ktop shows or writes is one row of
 * the table in columns.c, which names its source file and field. The table view,
 * the sort keys, the text, CSV and JSON writers all read this one table.
 */

#include <stdbool.h>
#include <stddef.h>

#include "../model/model.h"

enum col_id {
	COL_PID,
	COL_TGID,
	COL_PPID,
	COL_USER,
	COL_UID,
	COL_STATE,
	COL_NICE,
	COL_CPU,
	COL_MEM,
	COL_RSS,
	COL_VSZ,
	COL_TIME,
	COL_MINFLT,
	COL_MAJFLT,
	COL_VCSW,
	COL_IVCSW,
	COL_SYSC,
	COL_SYSERR,
	COL_TOPSC,
	COL_SIGRECV,
	COL_SIGSENT,
	COL_ONCPU,
	COL_RUNQ,
	COL_SLEEP,
	COL_BLOCKED,
	COL_STOPPED,
	COL_WAIT,
	COL_SCTIME,
	COL_SCP99,
	COL_DISK_READ,
	COL_DISK_WRITE,
	COL_NET_TX,
	COL_NET_RX,
	COL_LOST,
	COL_LOST_EXITS,
	COL_THREADS,
	COL_CPUID,
	COL_THROTTLED,
	COL_CGROUP,
	COL_UNIT,
	COL_CONTAINER,
	COL_CONTAINER_ID,
	COL_COMM,
	COL_CMDLINE,
	COL_NR
};

enum col_type {
	CT_INT,		/* an integer value */
	CT_COUNTER,	/* count in the interval; screens show it per second */
	CT_PCT,		/* percentage, one decimal */
	CT_KB,		/* kibibytes; screens scale it (M, G) */
	CT_TIME,	/* seconds of CPU; screens show M:SS.hh */
	/*
	 * Milliseconds of the interval (3 decimals in CSV/JSON); screens show
	 * the share of the interval, 100 = one thread's whole interval.
	 */
	CT_MS,
	CT_USEC_BOUND,	/* microseconds, an upper bound (a percentile); screens scale it: "≤262ms" */
	CT_CHAR,	/* one character (state) */
	CT_STR,		/* text, sanitized before it is shown */
};

/* Longest text of a cell: a command line as read (4 KiB) once sanitized. */
#define CMDLINE_TEXT_MAX 4200

enum sort_dir { SORT_ASC, SORT_DESC };

struct column {
	const char *key;	/* CSV/JSON/-o name, stable: "minflt" */
	const char *title;	/* screen header: "MINFLT/s" */
	int width;		/* screen width, without the separating space */
	bool left;		/* left-aligned (text) */
	enum col_type type;
	unsigned needs;
	int counter;		/* CT_COUNTER, CT_MS: enum counter, else -1 */
	enum sort_dir sort_default;
	const char *doc;	/* where it comes from, for --help and the man page */
};

extern const struct column columns[COL_NR];

/* A column of bytes (CT_COUNTER): screens scale its rate in KiB, MiB, GiB. */
bool columns_bytes(int c);
/* @v bytes (per second) for a person: "512", "4.0K", "8.0M", "1.2G" (1024-based, 6 wide). */
void fmt_bytes(char *buf, size_t n, double v);

/* Numeric value of a column; false if unknown (no rate yet, not read). */
bool columns_num(const struct model *m, const struct task *t, enum col_id c, double *out);
/*
 * Text of a string-like column (user, state, comm, cmdline), sanitized for a
 * terminal or a file. Returns @buf.
 */
const char *columns_text(const struct task *t, enum col_id c, char *buf, size_t n, int utf8);
/*
 * columns_text with what @m knows of the task's cgroup: the container column
 * names the container as the Groups view does ("web-1"), where columns_text
 * can only give its RUNTIME:ID.
 */
const char *columns_text_model(const struct model *m, const struct task *t, enum col_id c, char *buf,
			   size_t n, int utf8);
/*
 * The cgroup that limits @t's CPU this tick (collectors/cgroup/cgcpu.h): false when
 * not read, true with *@r its reading or NULL when nothing limits it.
 */
bool columns_cpu_limit(const struct model *m, const struct task *t, const struct cgres **r);
/*
 * What column @c needs read beyond stat this session: context switches come
 * from events when tracing runs, from status otherwise.
 */
unsigned columns_needs(const struct model *m, int c);
/*
 * WAIT%: the largest share of the interval @t waited for something, and
 * what (its word: "runq", "blk"); false when not known. columns_wait_redundant:
 * every kind it names is a column of its own among @shown (shown[c] per
 * catalog column), so it says nothing more.
 */
bool columns_wait(const struct model *m, const struct task *t, double *pct, const char **word);
bool columns_wait_redundant(const bool *shown);
/*
 * Is @t a kernel thread? Its stat's PF_KTHREAD flag says, known before a
 * command line is read. A recording has no flags: kthreadd (pid 2) and its
 * children with no memory of their own (a helper kthreadd started, such as
 * modprobe, has some once it exec'd; before, it passes for one).
 */
bool columns_kthread(const struct task *t);
/* The column named @key (case-insensitive), or -1. */
int columns_by_key(const char *key);
/* Compare two tasks by column @c, ascending; unknown values sort lowest. */
int columns_compare(const struct model *m, const struct task *a, const struct task *b,
		enum col_id c);

/*
 * How numbers look to a person, shared by the screen and the text batch writer
 * (CSV and JSON write raw numbers instead).
 */

/* @v (>= 0) with @decimals (0 to 2) and an optional unit @suffix (0: none). */
void fmt_fixed(char *buf, size_t n, double v, int decimals, char suffix);
/* "1234", "12.3k", "1.2M": at most 5 characters for any rate. */
void fmt_rate(char *buf, size_t n, double v);
/* KiB as "123456" below 100,000 KiB, else "97.7M", "1.2G", "20.0T": 6 characters at most. */
void fmt_kb(char *buf, size_t n, double kb);
/* KiB with a unit always: "512K", "299.0M", "23.5G". */
void fmt_mem(char *buf, size_t n, double kb);
/*
 * A duration of @us microseconds in the unit it needs: "0.4us", "16us",
 * "4.19ms", "262ms", "3.00s", "524s" (7 characters at most below 10^6 s).
 * @bound: it is an upper bound (a percentile), said "≤" ("<=" without
 * @utf8).
 */
void fmt_usec(char *buf, size_t n, double us, bool bound, bool utf8);
/* CPU seconds as top's TIME+: "M:SS.hh", or "HHHh" past 999 minutes. */
void fmt_cputime(char *buf, size_t n, double s);
/* "3 days, 04:05" or "04:05" */
void fmt_uptime(char *buf, size_t n, double s);

/*
 * The first frame (no interval yet): what top's first iteration shows, CPU%
 * and the kernel's own counters (faults; switches from status) per second
 * since @t started, from its start time and the uptime. False otherwise and
 * for columns counted from events, which have no since-start total.
 */
bool fmt_since_start(const struct model *m, const struct task *t, enum col_id c, double *out);

/*
 * The screen text of column @c for @t, at most @n-1 bytes; "-" when the value is
 * not known yet (first interval; CPU% and the faults then are averages since
 * the start, fmt_since_start). Rates are per second.
 */
const char *fmt_cell(const struct model *m, const struct task *t, enum col_id c,
		     char *buf, size_t n, bool utf8);

#endif
