/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RECFMT_H
#define KTOP_RECFMT_H

/*
 * store/recfmt: the recording's format, shared by the recorder
 * (store/record.c) and the replayer (store/replay.c): the SQLite
 * schema and the encodings that are ktop's own (the system sample, a
 * per-syscall table); the samples' encoding is store/recsample.h. Pure:
 * the SQL is text here, the database is the callers'.
 *
 * A recording is a list of intervals, each the samples the sources gave
 * model_apply then. Every so often an interval is a keyframe (its samples
 * decode alone), so that a replay jumps to any time by reading forward from
 * the keyframe before it, never from the start. The man page (RECORDING)
 * documents the tables for people who query them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/model.h"
#include "../model/sigflow.h"

/* PRAGMA application_id: "ktop"; PRAGMA user_version: the format. */
#define RECFMT_APP_ID	0x6b746f70
/*
 * 3: the samples the sources gave (store/recsample.h). 1 and 2 stored the
 * model's state (task rows): refused, with a line saying so. 4: a task's
 * cgroup bit says that it came or went (RECFMT_CG_FLIP), and the intervals
 * from a keyframe to the next are one deflate stream (RECFMT_ZSTREAM). 5:
 * the same samples, smaller tables beside them for sqlite3 (what process
 * lives share in kind, a life's first interval's syscall tables in its row,
 * command lines as the rest of an earlier one, signal flows grouped by
 * receiver); a replay reads none of those. 6: a task's I/O bytes
 * (/proc/PID/io, RECFMT_IO), the byte counters of rows and exit records.
 * 7: which life of its pid a row and an exit record are (a reused pid:
 * RECFMT_LIVES, a bit of their own after their masks' fields). 8: the
 * block devices' interval readings (RECFMT_DISKS, model/disks.h); an older
 * file's replay says they are not recorded in it. 9: the sockets of each
 * interval (the Connections view, RECFMT_CONNS), a part of its own; an older
 * file's replay says they are not recorded in it either.
 */
#define RECFMT_VERSION	9
#define RECFMT_CONNS	9
#define RECFMT_LIVES	7
#define RECFMT_IO	6
#define RECFMT_DISKS	8
#define RECFMT_CG_FLIP	4
#define RECFMT_ZSTREAM	4
/*
 * The first format of samples: a replay reads it and every one up to
 * RECFMT_VERSION (a field appended to a table of store/recsample.c is a new
 * format, and reads as 0 from the older ones).
 */
#define RECFMT_SAMPLES	3

/*
 * The longest text or blob a recording holds: above what ktop writes (a
 * command line of 64 KiB, 4096 signal flows, an error table of every call and
 * errno), so that a reader can refuse a longer value before it is read.
 */
#define RECFMT_VALUE_MAX (8 << 20)
/* The longest an interval's samples may be, uncompressed: a reader allocates no more. */
#define RECFMT_SAMPLES_MAX (32 << 20)

/* interval.flags */
#define RI_KEYFRAME	0x1	/* the samples decode without the intervals before */
#define RI_HIDDEN	0x2	/* a baseline: the interval before a file's first, not shown */
#define RI_SESSION	0x4	/* a session row starts here */

/* The whole system's event counts in an interval row, in table order. */
#define RECFMT_NEV 6
extern const enum counter recfmt_ev_counter[RECFMT_NEV];

/* The schema of a new file (statements separated by ';'). */
extern const char recfmt_schema[];
/* "INSERT INTO task_after VALUES (?,?,?,?)": seq, proc, sc, errs. */
extern const char recfmt_task_insert[];

/*
 * A command line as the file stores it: as text, its arguments separated by
 * spaces, when that says it exactly (NUL-terminated, no space in an
 * argument: SQL shows it as ps does); else as a blob, NUL-separated.
 * recfmt_cmdline_text: does @s (@len bytes) go as text? Then @out (@len
 * bytes) gets that text, NUL-terminated.
 */
bool recfmt_cmdline_text(const char *s, size_t len, char *out);
/* A growing byte buffer. */
struct recbuf {
	uint8_t *p;
	size_t len, cap;
};
void recbuf_free(struct recbuf *b);
/* Append @n bytes of @p to @b (it grows; xrealloc ends the program when out of memory). */
void rec_put_bytes(struct recbuf *b, const void *p, size_t n);
/* Append @v as an LEB128 varint (7 bits a byte, the high bit: more follow). */
void rec_put_varint(struct recbuf *b, uint64_t v);

/* A stored value being read: a read past its end sets @bad and gives 0. */
struct rec_reader {
	const uint8_t *p;
	size_t n, pos;
	bool bad;
};

/* The next LEB128 varint of @r; 0 with r->bad set when cut or over 64 bits. */
uint64_t rec_get_varint(struct rec_reader *r);

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
void recfmt_sc_encode(struct recbuf *b, const struct sctable *t);
/* Parse that text (exactly that grammar) into @t (cleared first). 0, or -1. */
int recfmt_sc_decode(const char *s, size_t n, struct sctable *t);
/*
 * The errors by errno (a table keyed by sc_err_key) as JSON text,
 * [[nr,errno,count],...] by syscall and errno (the SQL view syscall_error
 * reads it); and back. NUL-terminated.
 */
void recfmt_err_encode(struct recbuf *b, const struct sctable *t);
int recfmt_err_decode(const char *s, size_t n, struct sctable *t);
/*
 * The interval's signal flows (the rows of @f that counted this interval,
 * the other row's as sender and receiver -1) as JSON text, grouped by
 * receiver, signal and result: [[receiver,sig,result,S,S,...],...], each S
 * a sender: its pid alone when it sent once and no name is said, else
 * [sender,n] or [sender,n,"sender_comm","receiver_comm"] (a SIGCHLD of each
 * short-lived child to its shell is 5 bytes, not 20; the view sigflow reads
 * it a flow a row). The names' bytes outside printable ASCII as \u00XX;
 * NUL-terminated; "[]" when there is none. With @m, a name is left out ("")
 * when @m has that process under that name: the model names a flow after
 * its task when it has it, and it has it again when replayed.
 */
void recfmt_flows_encode(struct recbuf *b, const struct sigflows *f, const struct model *m);

#endif
