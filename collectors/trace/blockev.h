/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_BLOCKEV_H
#define KTOP_BLOCKEV_H

/*
 * collectors/trace/blockev: the block devices' I/O from the block layer's events in
 * the counting instance:
 *
 *   block:block_rq_issue     a request handed to the driver (its dev, sector)
 *   block:block_rq_complete  the driver completed it (or part of it)
 *   block:block_io_start     a request made, in the task that submitted the bio
 *   block:block_rq_requeue   an issued request put back (the driver was busy):
 *                            timed from its next issue
 *
 * Completions are counted per device and direction, with their sectors (the
 * kernel's /sys/block/DEV/stat counts the same requests). A request the
 * driver completes in parts (block_rq_complete with fewer sectors than it
 * has, its sector the part's) counts each part's bytes, and the request once,
 * at its last part (the kernel's stat does the same: sectors at each part,
 * the request at its end); its time runs from the issue to the last part. An issue and its
 * completion are matched by (dev, sector) in a bounded table: the time
 * between them is the request's latency on the device. The CPUs' buffers are
 * decoded one after the other, so a completion may be read before its issue
 * (the interrupt ran on another CPU), and a sector's later request before
 * its earlier one: the events are held until a cut (blockev_cut: every CPU
 * read past it) and paired then, all CPUs' merged in time order. One whose
 * issue the cut did not bring (a CPU not read to its end) waits in the table
 * for it EARLY_TICKS ticks. block_io_start runs in the task that submitted the
 * I/O when a process reads or writes itself (direct I/O, reads, fsync's
 * writes); the page cache's writeback is submitted by kernel threads
 * (kworker/u*:*, flush-*), and is theirs. Bio-based devices (device-mapper,
 * md) have no requests: their I/O shows on the devices below them.
 *
 * The decoder calls blockev_issue/complete/requeue/start; each tick
 * blockev_cut pairs what the CPUs' reads brought, then blockev_fill adds one
 * reading per device to the sample. No I/O but the devices' names
 * (/sys/dev/block/MAJ:MIN/uevent, once per device).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sample;
struct blockev;

/* The in-flight table's bound (requests issued, not completed, and early completions). */
#define BLOCKEV_INFLIGHT_MAX 8192
/* Devices tracked (the rest are counted in dropped_devices). */
#define BLOCKEV_DEVICES_MAX 256

struct blockev_stats {
	uint64_t issued, completed, started;	/* events, all time */
	uint64_t matched;		/* issues paired with their completion */
	uint64_t requeued;		/* issues taken back (block_rq_requeue) */
	uint64_t parts;			/* completions of a part of a request, not its last */
	uint64_t early;			/* completions whose issue came after their cut (paired later or not) */
	uint64_t unmatched;		/* completions whose issue was never read (issued before) */
	uint64_t stale;			/* issues not completed within a minute (their completion lost) */
	uint64_t table_full;		/* requests not timed: the table held BLOCKEV_INFLIGHT_MAX */
	uint64_t dropped_devices;	/* events of devices past BLOCKEV_DEVICES_MAX */
	uint64_t forced;		/* events paired before their cut (too many held between cuts) */
	size_t inflight;		/* entries in the table now */
	size_t pending;			/* events held for the next cut */
};

/*
 * blockev_new - the collector; @sysfs: the root under which dev/block/MAJ:MIN
 * names a device ("/sys"; NULL: not read, devices named MAJ:MIN).
 */
struct blockev *blockev_new(const char *sysfs);
void blockev_free(struct blockev *b);

/* @rwbs: the event's rwbs text (not terminated, up to @len). @ts: CLOCK_MONOTONIC ns. */
void blockev_issue(struct blockev *b, uint32_t dev, uint64_t sector, uint32_t nr_sector,
		   const char *rwbs, size_t len, uint64_t ts);
void blockev_complete(struct blockev *b, uint32_t dev, uint64_t sector, uint32_t nr_sector,
		      const char *rwbs, size_t len, uint64_t ts);
void blockev_requeue(struct blockev *b, uint32_t dev, uint64_t sector, uint64_t ts);
void blockev_start(struct blockev *b, uint32_t dev, pid_t tid, const char *comm, size_t commlen,
		   uint32_t bytes);

/*
 * blockev_cut - every CPU's buffer was read past @ts (CLOCK_MONOTONIC ns):
 * the events held up to it are paired and counted in time order, the later
 * ones wait for the next cut (and are the next interval's).
 */
void blockev_cut(struct blockev *b, uint64_t ts);

/*
 * The interval's readings into @s (one per device seen since the start),
 * then a new interval. @visible (NULL: every task) says whether task @tid
 * may be named: the others are counted in sub_hidden, their bytes in
 * sub_bytes only.
 */
void blockev_fill(struct blockev *b, struct sample *s, bool (*visible)(void *arg, pid_t tid),
		  void *arg);
void blockev_get_stats(const struct blockev *b, struct blockev_stats *st);

#endif
