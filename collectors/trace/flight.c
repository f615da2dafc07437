// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder's ring (flight.h). One byte ring for every buffer and
 * CPU: a page is a 32-byte header and its used bytes (a tick's partly filled
 * page is a few hundred bytes, not a sub-buffer's 64 KiB), 8-aligned. The
 * ring's positions are 64-bit logical offsets (the physical one is modulo
 * the size); an entry never wraps: one that would is put at the next turn,
 * the end skipped. The oldest entry of the ring is always the oldest of its
 * stream, so dropping it only moves that stream's head.
 */
#include "flight.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <event-parse.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../clocks.h"
#include "evformat.h"
#include "instance.h"
#include "../../lib/pidmap.h"
#include "../../lib/util.h"

#define NONE UINT64_MAX
#define SKIP UINT32_MAX		/* an entry's len: the rest of this turn is unused */

struct entry {
	uint64_t next;		/* the next entry of its stream; NONE */
	uint64_t kept_ns;	/* CLOCK_MONOTONIC when kept */
	int64_t ts_add;		/* ns to add to its stamps when saved */
	uint32_t len;		/* bytes of the page; SKIP */
	uint16_t buf, cpu;
};
#define HDR ((uint64_t)sizeof(struct entry))

/* A sub-buffer's commit word and records (kernel/trace/ring_buffer.c). */
#define COMMIT_MASK ((1u << 27) - 1)
#define MISSED_STORED (1ull << 30)
#define MISSED_FLAGS (3ull << 30)
#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define TS_BITS 59

struct stream {
	uint64_t head, tail;	/* its oldest and newest entries; NONE */
};

struct fbuf {
	char name[64], clock[16];
	int page_size, ncpus;
	char *header_page;
	size_t header_len;
	const char *(*events)[2];
	size_t nevents;
	struct stream *s;	/* ncpus */
	bool mono;		/* on clock "mono" while the main buffer is not */
};

struct flight {
	unsigned char *ring;
	uint64_t cap;
	bool mapped;		/* ring is mmap'd (else malloc'd) */
	uint64_t head, tail;	/* the next entry's place, the oldest entry */
	struct fbuf buf[FLIGHT_BUFFERS];
	size_t nbuf;
	int64_t off_ns;		/* the main buffer's clock minus CLOCK_MONOTONIC */
	bool off_ok;
	bool holding;		/* flight_hold */
	uint64_t hold_from;	/* pages from this time on count */
	uint64_t held;		/* bytes of them kept */
	struct flight_stats st;
};

/* 16-aligned: a page's bytes are copied with 16-byte stores (copy_page). */
static uint64_t entry_size(uint32_t len)
{
	return HDR + (((uint64_t)len + 15) & ~15ull);
}

/*
 * A page into the ring. Non-temporal stores where the host has them: the
 * ring is far larger than the caches and written once, read back only by
 * a save, so its lines need not be fetched before they are written (a 64
 * KiB page: 4 us instead of 9 on the 2-CPU test VM), nor evict what the
 * decoders use.
 */
static void copy_page(void *dst, const void *src, size_t len)
{
#ifdef __SSE2__
	__m128i *d = dst;
	const __m128i *s = src;
	size_t i, n = len / 64;

	for (i = 0; i < n; i++, d += 4, s += 4) {
		__m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1);
		__m128i c = _mm_loadu_si128(s + 2), e = _mm_loadu_si128(s + 3);

		_mm_stream_si128(d, a);
		_mm_stream_si128(d + 1, b);
		_mm_stream_si128(d + 2, c);
		_mm_stream_si128(d + 3, e);
	}
	_mm_sfence();
	memcpy(d, s, len - n * 64);
#else
	memcpy(dst, src, len);
#endif
}

static struct entry *at(const struct flight *fl, uint64_t pos)
{
	return (struct entry *)(void *)(fl->ring + pos % fl->cap);
}

struct flight *flight_new(size_t cap)
{
	struct flight *fl = xcalloc(1, sizeof(*fl));

	if (cap < FLIGHT_MIN)
		cap = FLIGHT_MIN;
	fl->cap = cap & ~15ull;
	/*
	 * Reserved whole at the start, as the kernel's own ring buffers are:
	 * faulted in page by page as the first turn came, a 64 MiB ring cost
	 * 16,384 faults (60-70 ms of ktop's CPU here) inside whatever flood
	 * filled it first; populated now, about half that, once, before the
	 * first refresh. Where the kernel cannot populate it all, the rest is
	 * faulted in as it is reached.
	 */
	fl->ring = mmap(NULL, fl->cap, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	fl->mapped = fl->ring != MAP_FAILED;
	if (!fl->mapped)
		fl->ring = xmalloc(fl->cap);
	fl->st.cap = fl->cap;
	return fl;
}

void flight_free(struct flight *fl)
{
	size_t i;

	if (!fl)
		return;
	for (i = 0; i < fl->nbuf; i++) {
		struct fbuf *b = &fl->buf[i];

		for (size_t e = 0; e < b->nevents; e++) {
			free((void *)b->events[e][0]);
			free((void *)b->events[e][1]);
		}
		free(b->events);
		free(b->header_page);
		free(b->s);
	}
	if (fl->mapped)
		munmap(fl->ring, fl->cap);
	else
		free(fl->ring);
	free(fl);
}

void flight_get_stats(const struct flight *fl, struct flight_stats *st)
{
	*st = fl->st;
	st->used = (size_t)(fl->head - fl->tail);
	st->oldest_ns = fl->head != fl->tail ? at(fl, fl->tail)->kept_ns : 0;
}

static void set_clock(struct flight *fl, struct fbuf *b, const char *clock)
{
	snprintf(b->clock, sizeof(b->clock), "%s", clock);
	b->mono = b != &fl->buf[0] && !strcmp(clock, "mono") && strcmp(fl->buf[0].clock, "mono");
}

int flight_buffer(struct flight *fl, const char *name, const char *clock, int page_size,
		  int ncpus, const char *header_page, size_t header_len,
		  const char *const (*events)[2], size_t nevents)
{
	struct fbuf *b = NULL;
	size_t i;

	for (i = 0; i < fl->nbuf && !b; i++)
		if (!strcmp(fl->buf[i].name, name))
			b = &fl->buf[i];
	if (b && (b->page_size != page_size || b->ncpus != ncpus))
		return -1;	/* not the same shape: its old pages could not be read as one */
	if (!b) {
		if (fl->nbuf == FLIGHT_BUFFERS || page_size <= RBPAGE_HDR_SIZE || ncpus <= 0 ||
		    (uint64_t)page_size + HDR > fl->cap)
			return -1;
		b = &fl->buf[fl->nbuf++];
		snprintf(b->name, sizeof(b->name), "%s", name);
		b->page_size = page_size;
		b->ncpus = ncpus;
		b->s = xmalloc((size_t)ncpus * sizeof(*b->s));
		for (i = 0; i < (size_t)ncpus; i++)
			b->s[i].head = b->s[i].tail = NONE;
	}
	set_clock(fl, b, clock);
	free(b->header_page);
	b->header_page = xmalloc(header_len + 1);
	memcpy(b->header_page, header_page, header_len);
	b->header_page[header_len] = '\0';
	b->header_len = header_len;
	for (i = 0; i < b->nevents; i++) {
		free((void *)b->events[i][0]);
		free((void *)b->events[i][1]);
	}
	free(b->events);
	b->events = xcalloc(nevents ? nevents : 1, sizeof(*b->events));
	for (i = 0; i < nevents; i++) {
		b->events[i][0] = xstrdup(events[i][0]);
		b->events[i][1] = xstrdup(events[i][1]);
	}
	b->nevents = nevents;
	return (int)(b - fl->buf);
}

void flight_buffer_clock(struct flight *fl, int buf, const char *clock)
{
	if (buf >= 0 && (size_t)buf < fl->nbuf)
		set_clock(fl, &fl->buf[buf], clock);
}

void flight_clock_offset(struct flight *fl, int64_t off_ns, bool ok)
{
	fl->off_ns = off_ns;
	fl->off_ok = ok;
}

/* Past the entries of this turn: a skip marker, or too little room left for a header. */
static uint64_t next_turn(const struct flight *fl, uint64_t pos)
{
	uint64_t room = fl->cap - pos % fl->cap;

	if (room < HDR || at(fl, pos)->len == SKIP)
		return pos + room;
	return pos;
}

/* Drop the oldest entry (the oldest of its stream too). */
static void drop_oldest(struct flight *fl)
{
	struct entry *e = at(fl, fl->tail);
	struct stream *s = &fl->buf[e->buf].s[e->cpu];

	s->head = e->next;
	if (s->head == NONE)
		s->tail = NONE;
	fl->tail += entry_size(e->len);
	fl->st.dropped++;
	if (fl->tail != fl->head)
		fl->tail = next_turn(fl, fl->tail);
}

void flight_keep(struct flight *fl, int buf, int cpu, const void *page, size_t len)
{
	struct fbuf *b;
	struct stream *s;
	struct entry *e;
	uint64_t need, room, pos, commit, used, ts;
	int64_t ts_add;

	if (buf < 0 || (size_t)buf >= fl->nbuf || cpu < 0 || cpu >= fl->buf[buf].ncpus ||
	    len < RBPAGE_HDR_SIZE)
		return;
	b = &fl->buf[buf];
	if (len > (size_t)b->page_size)
		len = (size_t)b->page_size;
	/* Its used bytes only: the header, the records, a count of events lost after them. */
	memcpy(&commit, (const uint8_t *)page + 8, 8);
	used = RBPAGE_HDR_SIZE + (commit & COMMIT_MASK) + ((commit & MISSED_STORED) ? 8 : 0);
	if (used < len)
		len = used;
	need = entry_size((uint32_t)len);
	ts_add = b->mono && fl->off_ok ? fl->off_ns : 0;
	memcpy(&ts, page, 8);
	if (fl->holding && ts + (uint64_t)ts_add >= fl->hold_from) {
		if (fl->held + need > fl->cap / 2) {
			fl->st.held_back++;
			return;
		}
		fl->held += need;
	}
	pos = fl->head;
	room = fl->cap - pos % fl->cap;
	if (room < need)
		pos += room;	/* never across the end: at the next turn */
	while (fl->tail != fl->head && pos + need - fl->tail > fl->cap)
		drop_oldest(fl);
	if (fl->tail == fl->head)
		fl->tail = pos;	/* empty: start where the entry goes */
	else if (pos != fl->head && room >= HDR)
		at(fl, fl->head)->len = SKIP;
	e = at(fl, pos);
	e->next = NONE;
	e->kept_ns = clocks_mono_ns();
	e->ts_add = ts_add;
	e->len = (uint32_t)len;
	e->buf = (uint16_t)buf;
	e->cpu = (uint16_t)cpu;
	copy_page(e + 1, page, len);
	s = &b->s[cpu];
	if (s->tail != NONE)
		at(fl, s->tail)->next = pos;
	else
		s->head = pos;
	s->tail = pos;
	fl->head = pos + need;
	fl->st.pages++;
	fl->st.bytes += len;
}

void flight_hold(struct flight *fl, bool on, uint64_t from_ts)
{
	fl->holding = on;
	fl->hold_from = from_ts;
	fl->held = 0;
}

size_t flight_nbuffers(const struct flight *fl)
{
	return fl->nbuf;
}

void flight_buffer_info(const struct flight *fl, size_t buf, struct flight_buffer_info *out)
{
	const struct fbuf *b = &fl->buf[buf];

	out->name = buf ? b->name : "";
	out->instance = b->name;
	/* A mono buffer's stamps are moved onto the main clock when it is one in ns. */
	out->clock = b->mono && fl->off_ok ? fl->buf[0].clock : b->clock;
	out->page_size = b->page_size;
	out->ncpus = b->ncpus;
	out->header_page = b->header_page;
	out->header_len = b->header_len;
	out->events = (const char *const (*)[2])b->events;
	out->nevents = b->nevents;
}

/* The walk: where each stream is, what the pages name, the page being made. */
struct walk_names {
	int id;			/* event id; -1 unknown */
	struct ev_field f[4];	/* pid/comm pairs */
	int min;
};

struct flight_walk {
	struct flight *fl;
	uint64_t *pos;		/* per buffer and CPU: the next entry; NONE */
	uint64_t *last;		/* per buffer and CPU: the stream's newest when the walk began */
	size_t *base;		/* per buffer: its first stream's index */
	unsigned char *out;
	size_t out_cap;
	struct tep_handle *tep;
	int tep_page;
	struct walk_names sw, nt;	/* sched_switch, task_newtask */
	struct pidmap seen;	/* pid -> index + 1 */
	pid_t *pids;
	char (*comms)[16];
	size_t npids, cap;
	uint64_t in, outn;
};

struct flight_walk *flight_walk_begin(struct flight *fl)
{
	struct flight_walk *w = xcalloc(1, sizeof(*w));
	size_t n = 0, i;

	w->fl = fl;
	w->base = xcalloc(fl->nbuf + 1, sizeof(*w->base));
	for (i = 0; i < fl->nbuf; i++) {
		w->base[i] = n;
		n += (size_t)fl->buf[i].ncpus;
		if ((size_t)fl->buf[i].page_size > w->out_cap)
			w->out_cap = (size_t)fl->buf[i].page_size;
	}
	w->pos = xcalloc(n + 1, sizeof(*w->pos));
	w->last = xcalloc(n + 1, sizeof(*w->last));
	for (i = 0; i < fl->nbuf; i++)
		for (int c = 0; c < fl->buf[i].ncpus; c++) {
			w->pos[w->base[i] + (size_t)c] = fl->buf[i].s[c].head;
			w->last[w->base[i] + (size_t)c] = fl->buf[i].s[c].tail;
		}
	w->out = xmalloc(w->out_cap ? w->out_cap : 1);
	w->sw.id = w->nt.id = -1;
	pidmap_init(&w->seen);
	return w;
}

int flight_walk_learn(struct flight_walk *w, const char *system, const char *event,
		      const char *format, size_t len)
{
	static const char *const sw_names[] = { "prev_pid", "prev_comm", "next_pid", "next_comm" };
	static const char *const nt_names[] = { "pid", "comm", NULL };
	bool is_sw = !strcmp(event, "sched_switch");
	struct walk_names *wn = is_sw ? &w->sw : &w->nt;
	int id;

	if (!w->tep) {
		if (!w->fl->nbuf)
			return -EINVAL;
		if (evformat_init(&w->tep, &w->tep_page, w->fl->buf[0].header_page,
				  w->fl->buf[0].header_len)) {
			tep_free(w->tep);
			w->tep = NULL;
			return -EINVAL;
		}
	}
	id = evformat_add(w->tep, w->tep_page, system, event, format, len,
			  is_sw ? sw_names : nt_names, is_sw ? 4 : 2, 0, wn->f, &wn->min);
	if (id < 0)
		return id;
	wn->id = id;
	return 0;
}

static void note_pid(struct flight_walk *w, pid_t pid, const char *comm, size_t len)
{
	size_t i = (size_t)pidmap_get(&w->seen, pid);

	if (pid <= 0)
		return;
	if (!i) {
		if (w->npids == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 256;
			w->pids = xrealloc(w->pids, w->cap * sizeof(*w->pids));
			w->comms = xrealloc(w->comms, w->cap * sizeof(*w->comms));
		}
		w->pids[w->npids] = pid;
		w->comms[w->npids][0] = '\0';
		i = ++w->npids;
		pidmap_put(&w->seen, pid, (void *)i);
	}
	if (comm && len && comm[0]) {
		if (len > 15)
			len = 15;
		memcpy(w->comms[i - 1], comm, len);
		w->comms[i - 1][len] = '\0';
		w->comms[i - 1][strnlen(w->comms[i - 1], 16)] = '\0';
	}
}

/* A record's payload: its writer, and the tasks a sched_switch or a fork names. */
static void note_record(struct flight_walk *w, const uint8_t *rec, unsigned size)
{
	const struct walk_names *wn = NULL;
	int32_t pid;
	uint16_t type;

	memcpy(&type, rec, 2);
	memcpy(&pid, rec + RB_COMMON_PID_OFF, 4);
	note_pid(w, pid, NULL, 0);
	if (w->sw.id >= 0 && type == w->sw.id)
		wn = &w->sw;
	else if (w->nt.id >= 0 && type == w->nt.id)
		wn = &w->nt;
	if (!wn || (int)size < wn->min)
		return;
	for (int k = 0; k + 1 < 4 && wn->f[k].size; k += 2) {
		size_t len = 0;
		const char *s = ev_str(rec, (int)size, &wn->f[k + 1], &len);

		note_pid(w, (pid_t)ev_num(rec, &wn->f[k]), s, len);
	}
}


/*
 * The records of a page's @len bytes at @data, from time @ts: notes their
 * tasks, moves absolute stamps by @add (in place), and returns whether the
 * walk ended at the end of the data (no padding that ends a page early), so
 * that more records may follow; *@end is the last record's time.
 */
static bool walk_records(struct flight_walk *w, uint8_t *data, unsigned len, uint64_t ts,
			 int64_t add, uint64_t *end)
{
	unsigned off = 0;

	while (len - off >= 4) {
		uint32_t hdr, type, arr = 0, n;

		memcpy(&hdr, data + off, 4);
		type = hdr & 0x1f;
		if (type >= TYPE_PADDING || type == 0) {
			if (len - off < 8)
				break;
			memcpy(&arr, data + off + 4, 4);
		}
		if (type == TYPE_PADDING) {
			if (!(hdr >> 5) || arr > len - off - 4)
				break;	/* the page ends here */
			off += 4 + arr;
			continue;
		}
		if (type == TYPE_TIME_EXTEND) {
			ts += ((uint64_t)arr << 27) + (hdr >> 5);
			off += 8;
			continue;
		}
		if (type == TYPE_TIME_STAMP) {
			uint64_t abs = ((uint64_t)arr << 27) | (hdr >> 5);

			abs = (abs + (uint64_t)add) & ((1ull << TS_BITS) - 1);
			hdr = (hdr & 0x1f) | (uint32_t)((abs & ((1u << 27) - 1)) << 5);
			arr = (uint32_t)(abs >> 27);
			if (add) {
				memcpy(data + off, &hdr, 4);
				memcpy(data + off + 4, &arr, 4);
			}
			ts = (ts & ~((1ull << TS_BITS) - 1)) | abs;
			off += 8;
			continue;
		}
		n = type ? type * 4 : arr - 4;
		if (!type && arr < 4)
			break;
		off += type ? 4 : 8;
		if (n > len - off)
			break;
		ts += hdr >> 5;
		if (n >= RB_COMMON_SIZE)
			note_record(w, data + off, n);
		off += n;
	}
	*end = ts;
	return off == len;
}

/* An entry's page: its stamp (moved), the commit word, bytes of records. */
static void page_head(const struct entry *e, uint64_t *ts, uint64_t *commit, unsigned *len)
{
	memcpy(ts, e + 1, 8);
	memcpy(commit, (const uint8_t *)(e + 1) + 8, 8);
	*ts += (uint64_t)e->ts_add;
	*len = (unsigned)(*commit & COMMIT_MASK);
	if (*len > e->len - RBPAGE_HDR_SIZE)
		*len = e->len - RBPAGE_HDR_SIZE;
}

const void *flight_walk_page(struct flight_walk *w, size_t buf, int cpu)
{
	struct flight *fl = w->fl;
	size_t k;
	unsigned psz, used = 0;
	uint64_t end_ts = 0, out_commit = 0;
	bool open = false;

	if (buf >= fl->nbuf || cpu < 0 || cpu >= fl->buf[buf].ncpus)
		return NULL;
	k = w->base[buf] + (size_t)cpu;
	psz = (unsigned)fl->buf[buf].page_size;
	while (w->pos[k] != NONE) {
		struct entry *e = at(fl, w->pos[k]);
		uint64_t ts, commit, e_end;
		unsigned len;
		bool clean, missed;

		page_head(e, &ts, &commit, &len);
		missed = commit & MISSED_FLAGS;
		if (used) {
			/* Joined only when it is plain records that follow in time and fit. */
			if (!open || missed || ts < end_ts || used + 8 + len > psz)
				break;
			memcpy(w->out + used + 8, (uint8_t *)(e + 1) + RBPAGE_HDR_SIZE, len);
			if (!walk_records(w, w->out + used + 8, len, ts, e->ts_add, &e_end))
				break;	/* its records stop early: it starts a page of its own */
			uint64_t d = ts - end_ts;
			uint32_t hdr = TYPE_TIME_EXTEND | (uint32_t)((d & ((1u << 27) - 1)) << 5);
			uint32_t arr = (uint32_t)(d >> 27);

			memcpy(w->out + used, &hdr, 4);
			memcpy(w->out + used + 4, &arr, 4);
			used += 8 + len;
			out_commit = (out_commit & ~(uint64_t)COMMIT_MASK) | (used - RBPAGE_HDR_SIZE);
			memcpy(w->out + 8, &out_commit, 8);
			end_ts = e_end;
			w->in++;
		} else {
			unsigned copy = e->len < psz ? e->len : psz;

			memcpy(w->out, e + 1, copy);
			memcpy(w->out, &ts, 8);
			clean = walk_records(w, w->out + RBPAGE_HDR_SIZE, len, ts, e->ts_add, &end_ts);
			used = copy;
			out_commit = commit;
			/* A page whose records stop early, or after a loss (a count after them), stands alone. */
			open = clean && !missed && used == RBPAGE_HDR_SIZE + len;
			w->in++;
		}
		w->pos[k] = w->pos[k] == w->last[k] ? NONE : e->next;
		if (!open)
			break;
	}
	if (!used)
		return NULL;
	memset(w->out + used, 0, psz - used);
	w->outn++;
	return w->out;
}

static int cmp_pid_index(const void *a, const void *b, void *arg)
{
	const pid_t *p = arg;
	pid_t x = p[*(const size_t *)a], y = p[*(const size_t *)b];

	return (x > y) - (x < y);
}

size_t flight_walk_pids(struct flight_walk *w, const pid_t **pids, const char (**comms)[16])
{
	size_t *idx = xmalloc((w->npids + 1) * sizeof(*idx)), i;
	pid_t *p = xmalloc((w->npids + 1) * sizeof(*p));
	char (*c)[16] = xmalloc((w->npids + 1) * sizeof(*c));

	for (i = 0; i < w->npids; i++)
		idx[i] = i;
	sort_array_r(idx, w->npids, sizeof(*idx), cmp_pid_index, w->pids);
	for (i = 0; i < w->npids; i++) {
		p[i] = w->pids[idx[i]];
		memcpy(c[i], w->comms[idx[i]], 16);
	}
	free(idx);
	free(w->pids);
	free(w->comms);
	w->pids = p;
	w->comms = c;
	w->cap = w->npids + 1;
	pidmap_clear(&w->seen);
	for (i = 0; i < w->npids; i++)
		pidmap_put(&w->seen, p[i], (void *)(i + 1));
	*pids = w->pids;
	*comms = (const char (*)[16])w->comms;
	return w->npids;
}

void flight_walk_counts(const struct flight_walk *w, uint64_t *in, uint64_t *out)
{
	*in = w->in;
	*out = w->outn;
}

void flight_walk_end(struct flight_walk *w)
{
	if (!w)
		return;
	if (w->tep)
		tep_free(w->tep);
	pidmap_free(&w->seen);
	free(w->pids);
	free(w->comms);
	free(w->pos);
	free(w->last);
	free(w->base);
	free(w->out);
	free(w);
}
