// SPDX-License-Identifier: GPL-2.0-only
#include "sockconn.h"

#include <stdlib.h>
#include <string.h>

#include "sockev.h"
#include "../../lib/util.h"

void sockconn_init(struct sockconn *c)
{
	memset(c, 0, sizeof(*c));
	c->next_id = 1;
}

void sockconn_free(struct sockconn *c)
{
	free(c->v);
	free(c->index);
	sockconn_init(c);
}

static size_t hash_sk(uint64_t sk)
{
	sk ^= sk >> 33;
	sk *= 0xff51afd7ed558ccdull;
	sk ^= sk >> 33;
	return (size_t)sk;
}

/* The index slot of @sk: its entry's, or the empty one where it would go. */
static uint32_t *slot_of(const struct sockconn *c, uint64_t sk)
{
	size_t i = hash_sk(sk) & (c->index_cap - 1);

	while (c->index[i] && c->v[c->index[i] - 1].sk != sk)
		i = (i + 1) & (c->index_cap - 1);
	return &c->index[i];
}

static void reindex(struct sockconn *c)
{
	size_t i;

	memset(c->index, 0, c->index_cap * sizeof(*c->index));
	for (i = 0; i < c->n; i++)
		if (!c->v[i].dead)
			*slot_of(c, c->v[i].sk) = (uint32_t)i + 1;
}

/* Keep the entries @keep says, in order; the index follows. */
static void compact(struct sockconn *c, bool (*keep)(const struct sockconn_entry *, uint64_t),
		    uint64_t arg)
{
	size_t i, k = 0;

	for (i = 0; i < c->n; i++)
		if (keep(&c->v[i], arg))
			c->v[k++] = c->v[i];
	if (k == c->n)
		return;
	c->n = k;
	reindex(c);
}

/*
 * The order sockets are evicted in: closed ones first, then those no process
 * used (seen in other tasks' interrupts only: a scan, a flood), then the
 * least recently used. A key: the rank in the top bits, the time below.
 */
static uint64_t evict_key(const struct sockconn_entry *e)
{
	uint64_t rank = e->closed || e->dead ? 0 : !e->tid ? 1 : 2;

	return rank << 62 | (e->last_ns & ((1ull << 62) - 1));
}

static bool keep_recent(const struct sockconn_entry *e, uint64_t before)
{
	return e->active || evict_key(e) >= before;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Full: a quarter of the sockets go, none of this interval's, in evict_key's
 * order. Returns whether room was made.
 */
static bool evict(struct sockconn *c)
{
	uint64_t *last = xmalloc(c->n * sizeof(*last));
	size_t i, k = 0, before;

	for (i = 0; i < c->n; i++)
		if (!c->v[i].active)
			last[k++] = evict_key(&c->v[i]);
	if (!k) {
		free(last);
		return false;
	}
	sort_array(last, k, sizeof(*last), cmp_u64);
	/* Everything idle up to the quarter's newest (ties go with it). */
	i = k < SOCKCONN_MAX / 4 ? k - 1 : SOCKCONN_MAX / 4 - 1;
	before = c->n;
	compact(c, keep_recent, last[i] + 1);
	c->st.evicted += before - c->n;
	free(last);
	return true;
}

/*
 * A new entry for @sk at @slot (find's); NULL when the table is full of
 * sockets that all had events this interval.
 */
static struct sockconn_entry *add(struct sockconn *c, uint64_t sk, uint32_t *slot, uint64_t ts)
{
	struct sockconn_entry *e;

	if (c->n == SOCKCONN_MAX) {
		if (!evict(c))
			return NULL;
		slot = NULL;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	if (!slot)
		slot = slot_of(c, sk);
	e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	e->sk = sk;
	e->id = c->next_id++;
	e->first_ns = e->last_ns = ts;
	*slot = (uint32_t)c->n;
	c->st.sockets++;
	if (c->n > c->st.peak)
		c->st.peak = c->n;
	return e;
}

static struct sockconn_entry *find(struct sockconn *c, uint64_t sk, uint32_t **slot)
{
	if (!c->index_cap) {
		c->index_cap = 2 * SOCKCONN_MAX;
		c->index = xcalloc(c->index_cap, sizeof(*c->index));
	}
	*slot = slot_of(c, sk);
	return **slot ? &c->v[**slot - 1] : NULL;
}

/*
 * A new socket took @old's address (@old freed): @old is reported this
 * interval if it had events, then goes; the index names the new one.
 */
static struct sockconn_entry *replace(struct sockconn *c, struct sockconn_entry *old,
				      uint32_t *slot, uint64_t ts)
{
	size_t at = (size_t)(old - c->v);
	struct sockconn_entry *e;

	c->st.reused++;
	/* Kept to the interval's end: an event of it may still be decoded (entry_at). */
	old->dead = true;
	/* add() points the slot at the new entry (reindexed without @old if it evicts). */
	e = add(c, old->sk, slot, ts);
	if (!e)
		c->v[at].dead = false;	/* no room: the old one goes on */
	return e;
}

/*
 * The entry of an event at @ts on @sk: the one the index names (NULL: none,
 * *@slot where it goes), or, for an event before that one's beginning, the
 * socket that had the address then, replaced this interval (CPUs are read in
 * turn: its last events may be decoded after its successor's first); *@slot
 * NULL then, and NULL when it is not kept.
 */
static struct sockconn_entry *entry_at(struct sockconn *c, uint64_t sk, uint64_t ts,
				       uint32_t **slot)
{
	struct sockconn_entry *e = find(c, sk, slot), *best = NULL;
	size_t i;

	if (!e || !e->begin_ts || ts >= e->begin_ts)
		return e;
	*slot = NULL;
	for (i = 0; i < c->n; i++) {
		struct sockconn_entry *d = &c->v[i];

		if (d->dead && d->sk == sk && d->first_ns <= ts && (!best || d->first_ns > best->first_ns))
			best = d;
	}
	return best;
}

static void touch(struct sockconn_entry *e, uint64_t ts)
{
	e->active = true;
	if (ts > e->last_ns)
		e->last_ns = ts;
	/* CPUs are read in turn: an earlier event may come later. */
	if (ts < e->first_ns)
		e->first_ns = ts;
}

void sockconn_io(struct sockconn *c, uint64_t sk, pid_t tid, bool send, unsigned family,
		 unsigned protocol, int ret, int flags, uint64_t ts)
{
	struct sockconn_entry *e;
	uint32_t *slot;

	/* As the rows count them (sockev.c). */
	if (ret <= 0 || tid <= 0 || (family != SOCKEV_AF_INET && family != SOCKEV_AF_INET6))
		return;
	if (!send && (flags & SOCKEV_MSG_PEEK))
		return;
	e = entry_at(c, sk, ts, &slot);
	/* Another kind of socket, or one after the close that came before: a new one. */
	if (slot && e && (e->family != family || e->protocol != protocol ||
			  (e->closed && ts > e->close_ts)))
		e = replace(c, e, slot, ts);
	else if (slot && !e)
		e = add(c, sk, slot, ts);
	if (!e) {
		c->other[send ? SCN_TX : SCN_RX] += (uint64_t)ret;
		c->st.untracked++;
		return;
	}
	e->family = (uint16_t)family;
	e->protocol = (uint16_t)protocol;
	e->tid = tid;
	touch(e, ts);
	e->n[send ? SCN_TX : SCN_RX] += (uint64_t)ret;
	e->total[send ? SCN_TX : SCN_RX] += (uint64_t)ret;
}

/* The addresses of @a, as the socket has them (saddr is the local end). */
static void name(struct sockconn_entry *e, const struct sockconn_addr *a)
{
	const uint8_t *s = a->family == SOCKEV_AF_INET6 ? a->saddr6 : a->saddr4;
	const uint8_t *d = a->family == SOCKEV_AF_INET6 ? a->daddr6 : a->daddr4;
	size_t len = a->family == SOCKEV_AF_INET6 ? 16 : 4;

	if (!s || !d || (a->family != SOCKEV_AF_INET && a->family != SOCKEV_AF_INET6))
		return;
	memset(e->laddr, 0, sizeof(e->laddr));
	memset(e->raddr, 0, sizeof(e->raddr));
	memcpy(e->laddr, s, len);
	memcpy(e->raddr, d, len);
	e->lport = a->sport;
	e->rport = a->dport;
	e->family = (uint16_t)a->family;
	e->named = true;
}

static bool beginning(int oldstate, int newstate)
{
	return oldstate == SOCKCONN_TCP_CLOSE ||
	       (oldstate == SOCKCONN_TCP_LISTEN && newstate == SOCKCONN_TCP_SYN_RECV);
}

void sockconn_state(struct sockconn *c, uint64_t sk, pid_t pid, int oldstate, int newstate,
		    unsigned protocol, const struct sockconn_addr *a, uint64_t ts)
{
	struct sockconn_entry *e;
	uint32_t *slot;
	bool begins = beginning(oldstate, newstate);

	e = entry_at(c, sk, ts, &slot);
	/*
	 * A socket has no event before its beginning: an entry whose events all
	 * came before it was another socket at that address. (One whose later
	 * events were decoded first, from another CPU's buffer, is this one.)
	 */
	if (slot && e && begins && ts > e->last_ns)
		e = replace(c, e, slot, ts);
	else if (slot && !e)
		e = add(c, sk, slot, ts);
	if (!e) {
		c->st.untracked++;
		return;
	}
	if (!e->protocol)
		e->protocol = (uint16_t)protocol;
	/* Its beginning, decoded after a later event of it from another CPU's buffer, too. */
	if (begins) {
		e->begun = true;
		if (!e->begin_ts || ts < e->begin_ts)
			e->begin_ts = ts;
	}
	/* Its opener's (connect, listen run in the caller): the owner until one sends. */
	if (!e->tid && pid > 0 && begins)
		e->tid = pid;
	touch(e, ts);
	if (ts < e->state_ts)
		return;		/* an older change, read after a newer one from another CPU */
	e->state_ts = ts;
	e->state = newstate;
	name(e, a);
	if (newstate == SOCKCONN_TCP_CLOSE && !e->closed) {
		e->closed = 1;
		e->close_ts = ts;
	}
}

void sockconn_retrans(struct sockconn *c, uint64_t sk, int state, const struct sockconn_addr *a,
		      int err, uint64_t ts)
{
	struct sockconn_entry *e;
	uint32_t *slot;

	/* Not sent (err): the kernel's counts leave it out too. */
	if (err)
		return;
	e = entry_at(c, sk, ts, &slot);
	if (!e && slot)
		e = add(c, sk, slot, ts);
	if (!e) {
		c->other[SCN_RETRANS]++;
		c->st.untracked++;
		return;
	}
	if (!e->protocol)
		e->protocol = 6;	/* IPPROTO_TCP */
	touch(e, ts);
	e->n[SCN_RETRANS]++;
	e->total[SCN_RETRANS]++;
	if (!e->named)
		name(e, a);
	if (!e->state)
		e->state = state;
}

void sockconn_reset(struct sockconn *c, uint64_t sk, uint64_t ts)
{
	struct sockconn_entry *e;
	uint32_t *slot;

	/* A reset of no socket (a segment to a closed port) is nobody's connection. */
	if (!sk)
		return;
	e = entry_at(c, sk, ts, &slot);
	if (!e) {
		c->other[SCN_RESETS]++;
		return;
	}
	touch(e, ts);
	e->n[SCN_RESETS]++;
	e->total[SCN_RESETS]++;
}

static bool keep_open(const struct sockconn_entry *e, uint64_t unused)
{
	(void)unused;
	return !e->dead && e->closed < 2;
}

void sockconn_end_interval(struct sockconn *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct sockconn_entry *e = &c->v[i];

		if (e->active)
			memset(e->n, 0, sizeof(e->n));
		e->active = false;
		if (e->closed)
			e->closed++;
	}
	memset(c->other, 0, sizeof(c->other));
	compact(c, keep_open, 0);
}
