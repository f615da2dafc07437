/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_REPLAY_H
#define KTOP_REPLAY_H

/*
 * The replayer (-r FILE): a source that gives, per recorded interval, the
 * samples the live sources gave then (model/sample.h), one by one, with the
 * recording's session. model_apply then leaves the model as it was when
 * recorded. It reads a SQLite file (store/recfmt.h) read-only: no
 * root, no tracefs, nothing of the live system; a file another ktop is still
 * writing too (its next intervals appear as they are committed).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/sample.h"

struct replay;

struct replay_opts {
	/*
	 * The file may still be written to (--follow, the live view): read it
	 * as SQLite shares it. Else a file in rollback-journal mode (not being
	 * written: ktop writes in WAL mode) is opened immutable: no lock, no
	 * -journal or -wal looked at, nothing made beside it.
	 */
	bool follow;
	/* A query that runs longer is stopped (the file is refused); 0: REPLAY_STEP_LIMIT_S. */
	double step_limit_s;
	/*
	 * Lower limits of what a file may make the replay hold (a fuzzer's,
	 * under its RSS limit); 0: REPLAY_STRINGS_MAX_MIB, REPLAY_TABLES_MAX_MIB,
	 * RECSAMPLE_COUNT_MAX. Never higher.
	 */
	int strings_max_mib, tables_max_mib;
	size_t tasks_max;
};

/* Seconds: the longest a single query on a recording may run. */
#define REPLAY_STEP_LIMIT_S 10.0

/*
 * What a file may make a replay hold, counted as it is decoded (a few bytes
 * of a file can say "a task with the command line of the one before", or
 * "a row with syscall table 7", for thousands of tasks). The tasks' strings
 * alive, each command line once however many tasks share it (lib/rcstr.h),
 * users and cgroup paths: 256 MiB, 50,000 tasks at 2.5 KiB each held twice
 * (a keyframe's copy while the model still has the last); a real recording
 * needs 120 to 520 bytes a task. The syscall tables alive, the model's and
 * the decoder's, with those the interval's rows name copied into their tasks
 * ("a row with table 7" is a few bytes, the copy up to 264 bytes a syscall):
 * 1 GiB; a real recording needs 3 KiB a task alive and 3.5 KiB a row, 1 GiB
 * is 50,000 tasks each with a row three times over. The tasks an interval
 * gives: RECSAMPLE_COUNT_MAX readings, as many rows of events and as many
 * exit records. A file that asks for more is refused (replay_next's error
 * says how much it wanted).
 */
#define REPLAY_STRINGS_MAX_MIB 256
#define REPLAY_TABLES_MAX_MIB 1024

/*
 * replay_open - open a recording (@o may be NULL: the defaults)
 *
 * Refuses, with a one-line @err, what is not a regular file, a file that is
 * not a ktop recording (its tables must be tables, with ktop's columns), one
 * of a newer format, a damaged one, one with no interval. The file is
 * untrusted: its schema runs no code, a value longer than RECFMT_VALUE_MAX is
 * an error before it is read, a query is stopped after step_limit_s. Returns
 * 0 or -1.
 */
int replay_open(const char *path, const struct replay_opts *o, struct replay **out, char *err,
		size_t errsz);
void replay_close(struct replay *r);

/* The session of the first interval: the recording's units, row mode, tracing. */
const struct sample_session *replay_first_session(const struct replay *r);
/* Wall-clock times of the first and last shown intervals recorded so far. */
int replay_range(struct replay *r, double *first, double *last, char *err, size_t errsz);
/*
 * replay_flight - the first flight recorder save the recording lists
 * (store/recflight.h) made after @after and up to @upto (wall clock), as
 * "PATH (WHY)" into @out, text of the file (the caller makes it safe to
 * show). 1, or 0 when none (or no table yet).
 */
int replay_flight(struct replay *r, double after, double upto, char *out, size_t n);

/*
 * replay_next - fill @s with the next sample (the sample must be empty)
 *
 * Returns 1 when filled: apply it; *@shown is true on the last sample of an
 * interval shown (not a baseline: the intervals before one a jump or a new
 * file starts at give the rates of the next, they are not shown). Returns 0
 * when there is no next interval (yet: a file being written grows), -1 on a
 * damaged file (@err).
 */
int replay_next(struct replay *r, struct sample *s, bool *shown, char *err, size_t errsz);
/* The interval replay_next fills now is one shown (not a baseline). */
bool replay_showing(const struct replay *r);

/* The sequence number and wall-clock time of the interval filled last (0: none). */
int64_t replay_seq(const struct replay *r);

/*
 * replay_seek - make interval @seq the next one shown
 *
 * The next replay_next calls fill the intervals from the keyframe before
 * the interval before it (baselines, not shown), or @seq at once where it
 * starts a session: never from the start. Returns 0, or -1 (@err).
 */
int replay_seek(struct replay *r, int64_t seq, char *err, size_t errsz);

/*
 * The shown interval at wall-clock time @t: the first at or after it, else
 * the last one. Returns 1 with *@seq, 0 when the file has none, -1 (@err).
 */
int replay_find_time(struct replay *r, double t, int64_t *seq, char *err, size_t errsz);
/* The shown interval before (@dir < 0) or after @seq. Returns 1, 0 when none, -1. */
int replay_step_seq(struct replay *r, int64_t seq, int dir, int64_t *out, char *err,
		    size_t errsz);

#endif
