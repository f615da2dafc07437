/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_DISKS_H
#define KTOP_DISKS_H

/*
 * model/disks: the block devices' I/O, per interval and since the first one,
 * as a source read it from the block layer's events (collectors/trace/blockev.c):
 * requests completed per direction and their bytes, the issue -> complete
 * times of the requests whose issue and completion were both seen (log2
 * histograms, lib/lathist.h), the requests in flight at the interval's end,
 * and the tasks that started requests (block_io_start, in the task that
 * made the request). Pure: no I/O.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/lathist.h"

#define DISK_NAME_MAX 32
/* The tasks named per device and interval: those that started the most bytes. */
#define DISK_SUBMITTERS 3

enum disk_dir { DISK_READ, DISK_WRITE, DISK_DIRS };

struct disk_submitter {
	pid_t pid;		/* the task (a thread id) block_io_start ran in */
	char comm[16];		/* its name then (the event's comm) */
	uint64_t reqs, bytes;	/* requests it started, their bytes at the start */
};

/* One device's interval: the sample's entry (model/sample.h). */
struct disk_reading {
	uint32_t dev;			/* the kernel's dev_t: major << 20 | minor */
	char name[DISK_NAME_MAX];	/* its DEVNAME (sysfs uevent), else "MAJ:MIN" */
	uint64_t ios[DISK_DIRS];	/* read and write requests completed */
	uint64_t bytes[DISK_DIRS];	/* the sectors they completed, in bytes */
	uint64_t other;			/* flushes, discards and other requests completed */
	uint64_t timed;			/* read and write requests both issued and completed */
	struct lathist hist;		/* their issue -> complete times */
	uint64_t lat_ns, max_ns;	/* the sum of those times, the longest */
	uint32_t inflight;		/* issued, not completed, at the interval's end */
	struct disk_submitter sub[DISK_SUBMITTERS];	/* most bytes first */
	uint32_t nsub;
	uint64_t sub_reqs, sub_bytes;	/* every task's, named or not */
	/* Tasks not named because they are other users' (ktop not root): their number only. */
	uint32_t sub_hidden;
};

/* A device of the model: seen since the first interval. */
struct disk {
	struct disk_reading now;	/* this interval (counts 0 when it was idle) */
	uint64_t ios_total[DISK_DIRS], bytes_total[DISK_DIRS], other_total, timed_total;
	struct lathist hist_total;
	uint64_t lat_ns_total, max_ns_total;
};

struct disks {
	struct disk *v;
	size_t n, cap;
	bool known;	/* a source read the devices this interval (the events are on) */
	/* Why no source reads them, when one says (a replay of a file without them); "" else. */
	char why[96];
};

void disks_init(struct disks *d);
void disks_free(struct disks *d);
/* A tick begins: every device's interval is empty, and not known until a source says. */
void disks_begin(struct disks *d);
/*
 * disks_apply - device @r's interval; @counted: an interval, not the
 * baseline (its numbers go into the totals). Marks the devices known.
 */
void disks_apply(struct disks *d, const struct disk_reading *r, bool counted);
/* Why the devices are not known ("" or NULL: nothing said). */
void disks_set_why(struct disks *d, const char *why);
/* A source read the devices this interval, whether any did I/O or not. */
void disks_known(struct disks *d);
/* The device @dev, or NULL. */
const struct disk *disks_find(const struct disks *d, uint32_t dev);
/*
 * The mean number of requests in flight over an interval of @interval_s:
 * the issue -> complete times of the requests completed in it, summed, over
 * its length (Little's law; iostat's aqu-sz is the same sum from the
 * request's start). false for no interval.
 */
bool disk_queue_avg(const struct disk_reading *r, double interval_s, double *out);

#endif
