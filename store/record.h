/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RECORD_H
#define KTOP_RECORD_H

/*
 * The recorder (-w FILE): it takes each sample the sources give the model
 * (record_sample) and, after the tick, writes them to a SQLite file
 * (store/recfmt.h, store/recsample.h have the format), one transaction per
 * interval in WAL mode, so a kill loses at most the interval being written. The file name may hold strftime conversions: a new file
 * starts when the name changes, and --record-keep and --record-max-size
 * remove old ones of ktop's user (at the start and at each new file).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/model.h"
#include "../model/sample.h"

struct record_opts {
	const char *pattern;	/* the file name, strftime conversions allowed */
	double keep_days;	/* remove the pattern's files older than this; 0 = keep */
	uint64_t max_bytes;	/* then the oldest, while the pattern's files are larger; 0 = no cap */
	double keyframe_s;	/* seconds between keyframes; 0 = the default (600) */
};

struct record_stats {
	uint64_t intervals, task_rows, proc_rows, files;
	uint64_t refused;	/* file names refused at a start or a new name (open_free) */
	uint64_t unrecorded;	/* intervals not written: every name of theirs refused */
};

struct record;

/*
 * record_open - check that the file of @now (wall clock) can be written
 *
 * Creates it (mode 0600: it holds every process's command line) or opens
 * one to append to. Refuses a file that is not a ktop recording, one of a
 * newer format, one another ktop records to, and one that is not ktop's
 * user's own, or whose -wal, -shm or -journal is not (store/recfile.h).
 * A name with conversions that is refused (planted by another user in a
 * shared directory) is skipped for the first of NAME.1.EXT to NAME.9.EXT
 * that is not, said by record_notice; so is one at each new name, and when
 * none is free, nothing is written until the pattern's name changes.
 * Returns 0, or -1 with @err (one line).
 */
int record_open(const struct record_opts *o, double now, struct record **out, char *err,
		size_t errsz);

/*
 * record_sample - take @s, about to be given to model_apply
 *
 * Every sample of a tick, in order, from its first (s->begin) on: the
 * interval record_tick writes is these, as a replay gives them back.
 */
void record_sample(struct record *r, const struct sample *s);

/*
 * record_tick - write the interval the model has just ended (its samples)
 *
 * Returns 0, or -1 when recording stopped (a full disk, an I/O error): @err
 * says why; the file keeps every interval written before, and the caller
 * goes on without recording (record_close).
 */
int record_tick(struct record *r, const struct model *m, char *err, size_t errsz);

/* The file written now. */
const char *record_path(const struct record *r);
/*
 * record_notice - the next line to say about the recording that stops
 * nothing (a name refused, the one written instead, a name with none
 * left), once each, or NULL: after record_open and each record_tick.
 */
const char *record_notice(struct record *r);
void record_get_stats(const struct record *r, struct record_stats *st);
/*
 * record_flight - list a flight recorder's save in the file written now
 * (store/recflight.h), between two ticks. 0, or -1 (no file now, or SQLite
 * failed: @err).
 */
int record_flight(struct record *r, double wall, const char *path, const char *why,
		  uint64_t bytes, char *err, size_t errsz);
void record_close(struct record *r);

#endif
