/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RECSAMPLE_H
#define KTOP_RECSAMPLE_H

/*
 * store/recsample: a sample (model/sample.h) as bytes and back, the
 * recording's record of what the sources said. Pure: the recorder
 * (store/record.c) encodes each sample given to model_apply, the replayer
 * (store/replay.c) decodes them and gives them to model_apply again, so
 * that a replay is the live run by construction.
 *
 * Compact because both sides remember the same things (struct recmem): each
 * task's last reading, the order the readings came in, the system sample,
 * each cgroup's last reading. A reading is stored as the fields that moved
 * (a bit mask, then each as a zigzag varint of its difference): an idle
 * process costs one byte a tick, the order of the readings nothing while it
 * stays the same. Rows of events, exit records, flows and totals are stored
 * as their fields that are not 0. recmem_reset makes a keyframe: the next
 * sample is stored whole and decodes without anything before it
 * (recmem_keyframe, the encoder's side).
 *
 * Every struct is described by a table of its fields (offset, size, kind),
 * one line each, in recsample.c: FN a number of 1, 2, 4 or 8 bytes, FB a
 * bool, FA an array of uint64_t (up to 64), FS a char array. A new field of
 * struct task_reading, row_events, task_final, sig_flow, cg_reading or the
 * sample's totals is one line appended to its table (never inserted: an
 * older file's masks say nothing of it, and it decodes as 0) and
 * RECFMT_VERSION + 1 (an older ktop then says the file is newer, rather
 * than damaged). A pointer to a table (a row's syscall tables) goes through
 * the caller's callbacks (struct recsample_tables), like RB_SC.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/pidmap.h"
#include "recfmt.h"
#include "../model/sample.h"
#include "../lib/strpool.h"

/* The most entries a list of a sample may have (its readings, rows, exit records...). */
#define RECSAMPLE_COUNT_MAX (1 << 18)

/* A task's last reading, as both sides remember it. */
struct recmem_task {
	struct task_reading r;	/* r.user, r.cgroup: interned in recmem.pool; r.cmdline NULL */
	char *cmdline;		/* the last command line given, a reference (lib/rcstr.h); NULL: none */
	size_t cmdline_len;
	uint64_t mark;		/* the sample that read it last (recmem.gen) */
	uint64_t read_tick;	/* the tick of its last reading (recmem.tick) */
	/* Its process's exit was applied while it was read a zombie: the model reaps it as X. */
	bool zexit;
	bool cg_given;		/* its last reading had a cgroup (r.cgroup is remembered either way) */
};

/* A cgroup's last reading. */
struct recmem_cg {
	const char *dir;	/* interned in recmem.pool */
	struct cg_reading c;	/* c.dir unused */
};

struct recmem {
	/* The file's format (recmem_init: RECFMT_VERSION, what the encoder writes). */
	int format;
	struct pidmap map;		/* pid -> struct recmem_task */
	/*
	 * The encoder's, after recmem_keyframe: what it knew before, so that a
	 * keyframe still carries each task's command line and cgroup (the
	 * sources give them once a life, a replay starting there needs them).
	 */
	struct pidmap old;
	pid_t *order;			/* the pids of the last sample's readings, in its order */
	size_t norder, cap_order;
	uint64_t gen;
	/*
	 * The task read new last in this sample: a new one is stored as its
	 * difference from it (the short-lived commands of a loop are alike).
	 */
	struct recmem_task *tmpl;
	uint64_t tick;			/* samples with begin seen */
	/*
	 * The decoder's: it starts at this keyframe (a jump, a file's start),
	 * so the model knows nothing before: what a keyframe restores of the
	 * model's past (zombies whose exit was applied) is given to it.
	 */
	bool fresh;
	bool have_sys;
	struct sys_sample sys;		/* sys.stat.cpu: SYS_MAX_CPUS entries, owned */
	struct recmem_cg *cg;
	size_t ncg, cap_cg;
	/* Each block device's last reading (format RECFMT_DISKS), in the order first given. */
	struct disk_reading *disk;
	size_t ndisk, cap_disk;
	struct strpool pool;		/* users, cgroup paths and directories */
};

void recmem_init(struct recmem *m);
void recmem_free(struct recmem *m);
/* Forget everything (the decoder at a keyframe). */
void recmem_reset(struct recmem *m);
/*
 * The encoder at a keyframe: the next samples are stored whole, as if
 * nothing were remembered, a task's texts that they do not give included
 * (from what was remembered, for the same life).
 */
void recmem_keyframe(struct recmem *m);

/* The syscall tables of rows, stored apart (the file's table sctab). */
struct recsample_tables {
	void *arg;
	/* The id (> 0) of @t (@err: a table of errors by errno); 0 on a write error. */
	int64_t (*id)(void *arg, const struct sctable *t, bool err);
	/*
	 * The table of @id (valid until the sample is applied); NULL: not
	 * wanted (the interval is not shown). Sets *@bad on a bad id.
	 */
	const struct sctable *(*get)(void *arg, int64_t id, bool err, bool *bad);
};

/*
 * recsample_encode - append @s (as model_apply will apply it) to @b
 *
 * @m is updated to what the sample said. Returns 0, or -1 when a table could
 * not be stored (@t's id said so).
 */
int recsample_encode(struct recbuf *b, struct recmem *m, const struct sample *s,
		     const struct recsample_tables *t);

/*
 * recsample_decode - the next sample of @p (@n bytes) from *@pos into @s
 * (empty; begin and end, the time and the session are the caller's)
 *
 * Checks everything: bytes that are not a sample are -1, never a crash.
 * Returns 1 with a sample, 0 at the end of the bytes, -1 when they are bad.
 */
int recsample_decode(const uint8_t *p, size_t n, size_t *pos, struct recmem *m,
		     struct sample *s, const struct recsample_tables *t);

#endif
