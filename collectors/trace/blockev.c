// SPDX-License-Identifier: GPL-2.0-only
#include "blockev.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/util.h"
#include "../../model/sample.h"

/* An issue never completed in this long is dropped (its completion was lost). */
#define STALE_NS (60ull * 1000000000ull)
/* The table's slots: twice its bound, so that probes stay short. */
#define SLOTS (2 * BLOCKEV_INFLIGHT_MAX)
/* Tasks summed per device and interval; the rest only into sub_reqs, sub_bytes. */
#define TASKS_MAX 32
/*
 * Ticks an early completion (its issue not read by the cut after it: a CPU
 * not read to its end) waits for its issue before it is counted unmatched.
 */
#define EARLY_TICKS 4
/* Events held for the cut; past that, the older half is paired at once (forced). */
#define PENDING_MAX (8 * BLOCKEV_INFLIGHT_MAX)

enum { E_FREE, E_ISSUED, E_DONE };
enum { P_ISSUE, P_COMPLETE, P_REQUEUE };

/* An event read, held until a cut says every CPU was read past it. */
struct pending {
	uint64_t ts, sector, seq;
	uint32_t dev, nr_sector;
	char op;
	uint8_t kind;
};

/*
 * A request issued (or, read before its issue, completed): keyed by (dev,
 * sector). @end: the sector after it (an issue's request, a completion's
 * part): a request completed in parts (blk_update_request with fewer bytes
 * than it has) stays issued from the sector after each part, until its last.
 */
struct entry {
	uint64_t sector, ts, end;
	uint32_t dev, gen;	/* gen: the fill it was stored before (E_DONE) */
	uint8_t state;
	char op;		/* E_DONE's: its request counted when it is paired or dropped */
};

struct task_acc {
	pid_t pid;
	char comm[16];
	uint64_t reqs, bytes;
};

struct device {
	struct disk_reading r;
	struct task_acc tasks[TASKS_MAX];
	size_t ntasks;
};

struct blockev {
	char *sysfs;
	struct entry *t;		/* SLOTS, allocated at the first request */
	size_t n;
	uint32_t gen;
	uint64_t last_ts;		/* the latest stamp seen */
	struct pending *pend;		/* read, not yet paired: the cut comes first */
	size_t npend, cappend;
	uint64_t seq;
	struct device *dev;
	size_t ndev, capdev;
	size_t last;			/* the device of the last event */
	struct blockev_stats st;
};

struct blockev *blockev_new(const char *sysfs)
{
	struct blockev *b = xcalloc(1, sizeof(*b));

	if (sysfs)
		b->sysfs = xstrdup(sysfs);
	return b;
}

void blockev_free(struct blockev *b)
{
	if (!b)
		return;
	free(b->sysfs);
	free(b->t);
	free(b->pend);
	free(b->dev);
	free(b);
}

/* The device's name: DEVNAME of its uevent, else MAJ:MIN. */
static void name_device(const struct blockev *b, uint32_t dev, char *name, size_t n)
{
	unsigned maj = dev >> 20, min = dev & ((1u << 20) - 1);
	char path[128], buf[512], *p, *e;
	ssize_t len = -1;
	int fd;

	snprintf(name, n, "%u:%u", maj, min);
	if (!b->sysfs)
		return;
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/uevent", b->sysfs, maj, min);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (len <= 0)
		return;
	buf[len] = '\0';
	for (p = buf; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (e)
			*e = '\0';
		if (!strncmp(p, "DEVNAME=", 8) && p[8]) {
			snprintf(name, n, "%s", p + 8);
			return;
		}
	}
}

static struct device *device_of(struct blockev *b, uint32_t dev)
{
	size_t i;

	if (b->last < b->ndev && b->dev[b->last].r.dev == dev)
		return &b->dev[b->last];
	for (i = 0; i < b->ndev; i++) {
		if (b->dev[i].r.dev == dev) {
			b->last = i;
			return &b->dev[i];
		}
	}
	if (b->ndev >= BLOCKEV_DEVICES_MAX) {
		b->st.dropped_devices++;
		return NULL;
	}
	if (b->ndev == b->capdev) {
		b->capdev = b->capdev ? b->capdev * 2 : 4;
		b->dev = xrealloc(b->dev, b->capdev * sizeof(*b->dev));
	}
	memset(&b->dev[b->ndev], 0, sizeof(b->dev[b->ndev]));
	b->dev[b->ndev].r.dev = dev;
	name_device(b, dev, b->dev[b->ndev].r.name, sizeof(b->dev[b->ndev].r.name));
	b->last = b->ndev;
	return &b->dev[b->ndev++];
}

/*
 * The request's operation from the event's rwbs (blk_fill_rwbs): an 'F'
 * first is a flush before it when another operation follows.
 */
static char rwbs_op(const char *rwbs, size_t len)
{
	if (!len)
		return 'N';
	if (rwbs[0] == 'F' && len > 1 && strchr("WRDFN", rwbs[1]) && rwbs[1])
		return rwbs[1];
	return rwbs[0];
}

static size_t slot_of(uint32_t dev, uint64_t sector)
{
	uint64_t h = (sector ^ ((uint64_t)dev << 40)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (SLOTS - 1);
}

/*
 * The partner of an event at @ts of (dev, sector): of the entries in @state,
 * for a completion (E_ISSUED) the latest issued at or before it, for an
 * issue (E_DONE) the first completed at or after it. A sector written again
 * and again has several requests one after the other, whose events two CPUs
 * may have written: each CPU's are read in order, so pairing by time pairs
 * them as they happened. NULL: none.
 */
static struct entry *find(struct blockev *b, uint32_t dev, uint64_t sector, int state, uint64_t ts)
{
	struct entry *best = NULL;
	size_t i = slot_of(dev, sector);

	for (; b->t[i].state != E_FREE; i = (i + 1) & (SLOTS - 1)) {
		struct entry *e = &b->t[i];

		if (e->state != state || e->dev != dev || e->sector != sector)
			continue;
		if (state == E_ISSUED ? e->ts <= ts && (!best || e->ts > best->ts) :
					e->ts >= ts && (!best || e->ts < best->ts))
			best = e;
	}
	return best;
}

/* A free slot for (dev, sector), counted; NULL when the table is at its bound. */
static struct entry *free_slot(struct blockev *b, uint32_t dev, uint64_t sector)
{
	size_t i = slot_of(dev, sector);

	if (b->n >= BLOCKEV_INFLIGHT_MAX) {
		b->st.table_full++;
		return NULL;
	}
	while (b->t[i].state != E_FREE)
		i = (i + 1) & (SLOTS - 1);
	b->n++;
	return &b->t[i];
}

/* Remove slot @i; the entries after it move back (linear probing, no tombstones). */
static void remove_at(struct blockev *b, size_t i)
{
	size_t j = i;

	for (;;) {
		size_t h;

		j = (j + 1) & (SLOTS - 1);
		if (b->t[j].state == E_FREE)
			break;
		h = slot_of(b->t[j].dev, b->t[j].sector);
		/* Stays when its home is cyclically in (i, j]. */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		b->t[i] = b->t[j];
		i = j;
	}
	b->t[i].state = E_FREE;
	b->n--;
}

static void time_request(struct device *d, uint64_t issued, uint64_t done)
{
	uint64_t ns = done - issued;

	d->r.timed++;
	d->r.hist.n[lathist_bucket(ns)]++;
	d->r.lat_ns += ns;
	if (ns > d->r.max_ns)
		d->r.max_ns = ns;
}

static bool timed_op(char op)
{
	return op == 'R' || op == 'W';
}

/* A flush's completion says sector -1 (none); its issue says 0. */
static bool sector_valid(uint64_t sector)
{
	return sector != UINT64_MAX;
}

static bool table_ready(struct blockev *b)
{
	if (!b->t)
		b->t = xcalloc(SLOTS, sizeof(*b->t));
	return true;
}

static void issue(struct blockev *b, uint32_t dev, uint64_t sector, uint32_t nr_sector, char op,
		  uint64_t ts)
{
	uint64_t end = sector + nr_sector;
	struct device *d;
	struct entry *e;

	if (!timed_op(op) || !sector_valid(sector) || !(d = device_of(b, dev)) || !table_ready(b))
		return;
	/* Its completion was read first (another CPU's buffer): all of it, or its parts. */
	while ((e = find(b, dev, sector, E_DONE, ts))) {
		uint64_t part_end = e->end, done = e->ts;

		remove_at(b, (size_t)(e - b->t));
		/* The request is counted at its last part (an early one was not when read). */
		if (part_end >= end || part_end <= sector) {
			d->r.ios[op == 'R' ? DISK_READ : DISK_WRITE]++;
			time_request(d, ts, done);
			b->st.matched++;
			return;
		}
		b->st.parts++;
		sector = part_end;
	}
	e = free_slot(b, dev, sector);
	if (e)
		*e = (struct entry){ .sector = sector, .ts = ts, .end = end, .dev = dev,
				     .state = E_ISSUED };
}

static void complete(struct blockev *b, uint32_t dev, uint64_t sector, uint32_t nr_sector,
		     char op, uint64_t ts)
{
	struct device *d;
	struct entry *e;
	int dir = -1;

	d = device_of(b, dev);
	if (!d)
		return;
	/*
	 * A write of no sectors is the end of a flush sequence (an fsync's
	 * empty write with a flush before it): the kernel counts its flush,
	 * not a write.
	 */
	if ((op == 'R' || op == 'W') && nr_sector) {
		dir = op == 'R' ? DISK_READ : DISK_WRITE;
		d->r.bytes[dir] += (uint64_t)nr_sector * 512;
	} else {
		d->r.other++;
	}
	/* Its issue: the latest one of its sector before it. */
	e = timed_op(op) && sector_valid(sector) && table_ready(b) ?
		find(b, dev, sector, E_ISSUED, ts) : NULL;
	if (e && nr_sector && sector + nr_sector < e->end) {
		/*
		 * A part of it (blk_update_request with fewer bytes): its bytes
		 * now, the request at its last part, as /sys/block/DEV/stat
		 * counts them. It waits from the sector after this part.
		 */
		struct entry part = *e;

		remove_at(b, (size_t)(e - b->t));
		b->st.parts++;
		part.sector = sector + nr_sector;
		e = free_slot(b, dev, part.sector);
		if (e)
			*e = part;
		return;
	}
	if (e) {
		if (dir >= 0)
			d->r.ios[dir]++;
		if (nr_sector)
			time_request(d, e->ts, ts);
		b->st.matched++;
		remove_at(b, (size_t)(e - b->t));
		return;
	}
	/*
	 * Early: its issue not read by the cut (a CPU not read to its end).
	 * The request is counted when its issue comes (at its last part, if
	 * this is a part) or when it is dropped. The end of a flush sequence
	 * has no issue of its own to wait for.
	 */
	e = timed_op(op) && sector_valid(sector) && b->t && nr_sector ?
		free_slot(b, dev, sector) : NULL;
	if (!e) {
		if (dir >= 0)
			d->r.ios[dir]++;
		return;
	}
	b->st.early++;
	*e = (struct entry){ .sector = sector, .ts = ts, .end = sector + nr_sector, .dev = dev,
			     .gen = b->gen, .state = E_DONE, .op = op };
}

static void requeue(struct blockev *b, uint32_t dev, uint64_t sector, uint64_t ts)
{
	struct entry *e;

	if (!b->t || !sector_valid(sector))
		return;
	e = find(b, dev, sector, E_ISSUED, ts);
	if (e) {
		b->st.requeued++;
		remove_at(b, (size_t)(e - b->t));
	}
}

static void apply(struct blockev *b, const struct pending *p)
{
	if (p->kind == P_ISSUE)
		issue(b, p->dev, p->sector, p->nr_sector, p->op, p->ts);
	else if (p->kind == P_COMPLETE)
		complete(b, p->dev, p->sector, p->nr_sector, p->op, p->ts);
	else
		requeue(b, p->dev, p->sector, p->ts);
}

static int by_time(const void *x, const void *y)
{
	const struct pending *a = x, *c = y;

	if (a->ts != c->ts)
		return a->ts < c->ts ? -1 : 1;
	return (a->seq > c->seq) - (a->seq < c->seq);
}

/* Pair the events held up to @upto in time order, the first @max at most; the rest stay. */
static void settle(struct blockev *b, uint64_t upto, size_t max)
{
	size_t n;

	sort_array(b->pend, b->npend, sizeof(*b->pend), by_time);
	for (n = 0; n < b->npend && n < max && b->pend[n].ts <= upto; n++)
		apply(b, &b->pend[n]);
	if (n && n < b->npend)
		memmove(b->pend, b->pend + n, (b->npend - n) * sizeof(*b->pend));
	b->npend -= n;
}

void blockev_cut(struct blockev *b, uint64_t ts)
{
	settle(b, ts, SIZE_MAX);
}

static void hold(struct blockev *b, uint8_t kind, uint32_t dev, uint64_t sector,
		 uint32_t nr_sector, char op, uint64_t ts)
{
	if (ts > b->last_ts)
		b->last_ts = ts;
	if (b->npend == PENDING_MAX) {
		/* A tick's worth past the bound (drains between cuts): the older half now. */
		b->st.forced += PENDING_MAX / 2;
		settle(b, UINT64_MAX, PENDING_MAX / 2);
	}
	if (b->npend == b->cappend) {
		b->cappend = b->cappend ? 2 * b->cappend : 256;
		b->pend = xrealloc(b->pend, b->cappend * sizeof(*b->pend));
	}
	b->pend[b->npend++] = (struct pending){ .ts = ts, .sector = sector, .seq = b->seq++,
						 .dev = dev, .nr_sector = nr_sector, .op = op,
						 .kind = kind };
}

void blockev_issue(struct blockev *b, uint32_t dev, uint64_t sector, uint32_t nr_sector,
		   const char *rwbs, size_t len, uint64_t ts)
{
	b->st.issued++;
	hold(b, P_ISSUE, dev, sector, nr_sector, rwbs_op(rwbs, len), ts);
}

void blockev_complete(struct blockev *b, uint32_t dev, uint64_t sector, uint32_t nr_sector,
		      const char *rwbs, size_t len, uint64_t ts)
{
	b->st.completed++;
	hold(b, P_COMPLETE, dev, sector, nr_sector, rwbs_op(rwbs, len), ts);
}

void blockev_requeue(struct blockev *b, uint32_t dev, uint64_t sector, uint64_t ts)
{
	hold(b, P_REQUEUE, dev, sector, 0, 0, ts);
}

void blockev_start(struct blockev *b, uint32_t dev, pid_t tid, const char *comm, size_t commlen,
		   uint32_t bytes)
{
	struct device *d;
	struct task_acc *t = NULL;
	size_t i;

	b->st.started++;
	d = device_of(b, dev);
	if (!d)
		return;
	d->r.sub_reqs++;
	d->r.sub_bytes += bytes;
	for (i = 0; i < d->ntasks; i++) {
		if (d->tasks[i].pid == tid) {
			t = &d->tasks[i];
			break;
		}
	}
	if (!t) {
		if (d->ntasks == TASKS_MAX)
			return;
		t = &d->tasks[d->ntasks++];
		memset(t, 0, sizeof(*t));
		t->pid = tid;
		if (commlen > sizeof(t->comm) - 1)
			commlen = sizeof(t->comm) - 1;
		memcpy(t->comm, comm, commlen);
		t->comm[strnlen(t->comm, commlen)] = '\0';
	}
	t->reqs++;
	t->bytes += bytes;
}

/*
 * Drop what will not be matched: early completions EARLY_TICKS ticks old
 * (counted now: requests whose issue was not read), issues a minute old.
 */
static void expire(struct blockev *b)
{
	size_t i = 0;

	while (b->n && i < SLOTS) {
		struct entry *e = &b->t[i];

		if (e->state == E_DONE && b->gen - e->gen >= EARLY_TICKS) {
			struct device *d = device_of(b, e->dev);

			if (d)
				d->r.ios[e->op == 'R' ? DISK_READ : DISK_WRITE]++;
			b->st.unmatched++;
			remove_at(b, i);
			continue;	/* slot i holds the next one now */
		}
		if (e->state == E_ISSUED && e->ts + STALE_NS < b->last_ts) {
			b->st.stale++;
			remove_at(b, i);
			continue;
		}
		i++;
	}
}

static int by_bytes(const void *x, const void *y)
{
	const struct task_acc *a = x, *c = y;

	if (a->bytes != c->bytes)
		return a->bytes < c->bytes ? 1 : -1;
	if (a->reqs != c->reqs)
		return a->reqs < c->reqs ? 1 : -1;
	return (a->pid > c->pid) - (a->pid < c->pid);
}

void blockev_fill(struct blockev *b, struct sample *s, bool (*visible)(void *arg, pid_t tid),
		  void *arg)
{
	size_t i, k;

	if (b->t)
		expire(b);
	for (i = 0; i < b->ndev; i++)
		b->dev[i].r.inflight = 0;
	for (i = 0; b->t && b->n && i < SLOTS; i++) {
		struct device *d;

		if (b->t[i].state != E_ISSUED)
			continue;
		for (k = 0; k < b->ndev; k++) {
			d = &b->dev[k];
			if (d->r.dev == b->t[i].dev) {
				d->r.inflight++;
				break;
			}
		}
	}
	s->have_disks = true;
	for (i = 0; i < b->ndev; i++) {
		struct device *d = &b->dev[i];
		struct disk_reading *r = sample_add_disk(s);

		d->r.sub_hidden = 0;
		for (k = 0; visible && k < d->ntasks;) {
			if (visible(arg, d->tasks[k].pid)) {
				k++;
				continue;
			}
			d->r.sub_hidden++;
			d->tasks[k] = d->tasks[--d->ntasks];
		}
		sort_array(d->tasks, d->ntasks, sizeof(d->tasks[0]), by_bytes);
		d->r.nsub = 0;
		for (k = 0; k < d->ntasks && k < DISK_SUBMITTERS; k++) {
			d->r.sub[k].pid = d->tasks[k].pid;
			memcpy(d->r.sub[k].comm, d->tasks[k].comm, sizeof(d->r.sub[k].comm));
			d->r.sub[k].reqs = d->tasks[k].reqs;
			d->r.sub[k].bytes = d->tasks[k].bytes;
			d->r.nsub++;
		}
		*r = d->r;
		/* A new interval: the counts start again, the name and dev stay. */
		memset(d->r.ios, 0, sizeof(d->r.ios));
		memset(d->r.bytes, 0, sizeof(d->r.bytes));
		memset(&d->r.hist, 0, sizeof(d->r.hist));
		d->r.other = d->r.timed = d->r.lat_ns = d->r.max_ns = 0;
		d->r.sub_reqs = d->r.sub_bytes = 0;
		d->r.nsub = d->r.sub_hidden = 0;
		d->ntasks = 0;
	}
	b->gen++;
}

void blockev_get_stats(const struct blockev *b, struct blockev_stats *st)
{
	*st = b->st;
	st->inflight = b->n;
	st->pending = b->npend;
}
