/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_REPLAY_H
#define KTOP_REPLAY_H

/*
 * The replayer (-r FILE): a source that fills, per recorded interval, the
 * same sample the live sources fill (model/sample.h): every live task's
 * reading (the unchanged ones from its own state: a recording stores only
 * what moved), the rows of kernel events, exits, totals, the system sample,
 * the time, and the recording's session. model_apply then leaves the model as
 * it was when recorded. It reads a SQLite file (model/recfmt.h) read-only: no
 * root, no tracefs, nothing of the live system; a file another ktop is still
 * writing too (its next intervals appear as they are committed).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/sample.h"

struct replay;

/*
 * replay_open - open a recording
 *
 * Refuses, with a one-line @err, a file that is not a ktop recording, one of a
 * newer format, a damaged one, one with no interval. Returns 0 or -1.
 */
int replay_open(const char *path, struct replay **out, char *err, size_t errsz);
void replay_close(struct replay *r);

/* The session of the first interval: the recording's units, row mode, tracing. */
const struct sample_session *replay_first_session(const struct replay *r);
/* Wall-clock times of the first and last shown intervals recorded so far. */
int replay_range(struct replay *r, double *first, double *last, char *err, size_t errsz);

/*
 * replay_next - fill @s with the next interval (the sample must be empty)
 *
 * Returns 1 when filled: apply it; *@shown is false for a baseline (the
 * interval before one a jump or a new file starts at: it gives the rates of
 * the next, it is not shown itself). Returns 0 when there is no next interval
 * (yet: a file being written grows), -1 on a damaged file (@err).
 */
int replay_next(struct replay *r, struct sample *s, bool *shown, char *err, size_t errsz);

/* The sequence number and wall-clock time of the interval filled last (0: none). */
int64_t replay_seq(const struct replay *r);

/*
 * replay_seek - make interval @seq the next one shown
 *
 * The next replay_next calls fill the two intervals before it (baselines,
 * not shown: what the second says of tasks that left finds them as the
 * first read them), or @seq at once where it starts a session. Reads
 * forward from the keyframe before it, never from the start. Returns 0, or
 * -1 (@err).
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
