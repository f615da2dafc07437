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
	free(c->q);
	free(c->gone);
	sockconn_init(c);
}

void sockconn_set_procs(struct sockconn *c,
			struct sockconn_proc (*fn)(void *arg, pid_t tid, uint64_t ts), void *arg)
{
	c->proc_of = fn;
	c->proc_arg = arg;
}

/*
 * The protocols whose sockets inet_sock_set_state follows: TCP, DCCP, SCTP,
 * MPTCP (the kernel's show_inet_protocol_name). Their sockets are told
 * apart by their beginnings; the others' by their processes.
 */
static bool has_states(unsigned protocol)
{
	return protocol == 6 || protocol == 33 || protocol == 132 || protocol == 262;
}

/* The key's rest for the sockets of a protocol with state events (the TCP events'). */
static const struct sockconn_proc no_proc;

static size_t hash_key(uint64_t sk, struct sockconn_proc p)
{
	uint64_t h = sk ^ ((uint64_t)(uint32_t)p.tgid << 32 | p.life) * 0x9e3779b97f4a7c15ull;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (size_t)h;
}

static bool same_key(const struct sockconn_entry *e, uint64_t sk, struct sockconn_proc p)
{
	return e->sk == sk && e->proc.tgid == p.tgid && e->proc.life == p.life;
}

/* The index slot of (@sk, @p): its entry's, or the empty one where it would go. */
static uint32_t *slot_of(const struct sockconn *c, uint64_t sk, struct sockconn_proc p)
{
	size_t i = hash_key(sk, p) & (c->index_cap - 1);

	while (c->index[i] && !same_key(&c->v[c->index[i] - 1], sk, p))
		i = (i + 1) & (c->index_cap - 1);
	return &c->index[i];
}

static void reindex(struct sockconn *c)
{
	size_t i;

	memset(c->index, 0, c->index_cap * sizeof(*c->index));
	for (i = 0; i < c->n; i++)
		if (!c->v[i].dead)
			*slot_of(c, c->v[i].sk, c->v[i].proc) = (uint32_t)i + 1;
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
 * A new entry for (@sk, @p) at @slot (find's); NULL when the table is full of
 * sockets that all had events this interval.
 */
static struct sockconn_entry *add(struct sockconn *c, uint64_t sk, struct sockconn_proc p,
				  uint32_t *slot, uint64_t ts)
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
		slot = slot_of(c, sk, p);
	e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	e->sk = sk;
	e->proc = p;
	e->id = c->next_id++;
	e->first_ns = e->last_ns = ts;
	*slot = (uint32_t)c->n;
	c->st.sockets++;
	if (c->n > c->st.peak)
		c->st.peak = c->n;
	return e;
}

static struct sockconn_entry *find(struct sockconn *c, uint64_t sk, struct sockconn_proc p,
				   uint32_t **slot)
{
	if (!c->index_cap) {
		c->index_cap = 2 * SOCKCONN_MAX;
		c->index = xcalloc(c->index_cap, sizeof(*c->index));
	}
	*slot = slot_of(c, sk, p);
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
	e = add(c, old->sk, old->proc, slot, ts);
	if (!e)
		c->v[at].dead = false;	/* no room: the old one goes on */
	return e;
}

/*
 * The entry of an event at @ts on (@sk, @p): the one the index names (NULL:
 * none, *@slot where it goes), or, for an event before that one's beginning,
 * the socket that had the address then, replaced this interval (CPUs are
 * read in turn: its last events may be decoded after its successor's
 * first); *@slot NULL then, and NULL when it is not kept.
 */
static struct sockconn_entry *entry_at(struct sockconn *c, uint64_t sk, struct sockconn_proc p,
				       uint64_t ts, uint32_t **slot)
{
	struct sockconn_entry *e = find(c, sk, p, slot), *best = NULL;
	size_t i;

	if (!e || !e->begin_ts || ts >= e->begin_ts)
		return e;
	*slot = NULL;
	for (i = 0; i < c->n; i++) {
		struct sockconn_entry *d = &c->v[i];

		if (d->dead && same_key(d, sk, p) && d->first_ns <= ts &&
		    (!best || d->first_ns > best->first_ns))
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

static void apply_io(struct sockconn *c, uint64_t sk, pid_t tid, bool send, unsigned family,
		     unsigned protocol, int ret, int flags, uint64_t ts)
{
	struct sockconn_proc p = no_proc;
	struct sockconn_entry *e;
	uint32_t *slot;

	/* As the rows count them (sockev.c). */
	if (ret <= 0 || tid <= 0 || (family != SOCKEV_AF_INET && family != SOCKEV_AF_INET6))
		return;
	if (!send && (flags & SOCKEV_MSG_PEEK))
		return;
	/*
	 * No state event tells this socket's lives apart: its process does (a
	 * freed socket's address taken by another process's socket is not its row).
	 */
	if (!has_states(protocol)) {
		if (c->proc_of)
			p = c->proc_of(c->proc_arg, tid, ts);
		if (p.tgid <= 0)
			p = (struct sockconn_proc){ .tgid = -tid, .life = p.life };
	}
	e = entry_at(c, sk, p, ts, &slot);
	/* Another kind of socket, or one after the close that came before: a new one. */
	if (slot && e && (e->family != family || e->protocol != protocol ||
			  (e->closed && ts > e->close_ts)))
		e = replace(c, e, slot, ts);
	else if (slot && !e)
		e = add(c, sk, p, slot, ts);
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

static void apply_state(struct sockconn *c, uint64_t sk, pid_t pid, int oldstate, int newstate,
			unsigned protocol, const struct sockconn_addr *a, uint64_t ts)
{
	struct sockconn_entry *e;
	uint32_t *slot;
	bool begins = beginning(oldstate, newstate);

	e = entry_at(c, sk, no_proc, ts, &slot);
	/*
	 * A socket has no event before its beginning: an entry whose events all
	 * came before it was another socket at that address. (One whose later
	 * events were decoded first, from another CPU's buffer, is this one.)
	 */
	if (slot && e && begins && ts > e->last_ns)
		e = replace(c, e, slot, ts);
	else if (slot && !e)
		e = add(c, sk, no_proc, slot, ts);
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

static void apply_retrans(struct sockconn *c, uint64_t sk, int state,
			  const struct sockconn_addr *a, int err, uint64_t ts)
{
	struct sockconn_entry *e;
	uint32_t *slot;

	/* Not sent (err): the kernel's counts leave it out too. */
	if (err)
		return;
	e = entry_at(c, sk, no_proc, ts, &slot);
	if (!e && slot)
		e = add(c, sk, no_proc, slot, ts);
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

static void apply_reset(struct sockconn *c, uint64_t sk, uint64_t ts)
{
	struct sockconn_entry *e;
	uint32_t *slot;

	/* A reset of no socket (a segment to a closed port) is nobody's connection. */
	if (!sk)
		return;
	e = entry_at(c, sk, no_proc, ts, &slot);
	if (!e) {
		c->other[SCN_RESETS]++;
		return;
	}
	touch(e, ts);
	e->n[SCN_RESETS]++;
	e->total[SCN_RESETS]++;
}

/*
 * The events wait in a queue until sockconn_apply: CPUs are read in turn, so
 * a socket's events come out of time order, and a freed socket's address
 * taken by a new one makes that ambiguous (the new one's sends, read before
 * the old one's close and its own beginning, would be the old one's). In
 * time order they are not. Bounded: a full queue is applied as it is.
 */
static struct sockconn_ev *enqueue(struct sockconn *c, enum sockconn_ev_kind kind, uint64_t sk,
				   uint64_t ts)
{
	struct sockconn_ev *q;

	if (c->nq == SOCKCONN_QUEUE_MAX)
		sockconn_apply(c);
	if (c->nq == c->qcap) {
		c->qcap = c->qcap ? c->qcap * 2 : 256;
		c->q = xrealloc(c->q, c->qcap * sizeof(*c->q));
	}
	q = &c->q[c->nq++];
	memset(q, 0, sizeof(*q));
	q->kind = kind;
	q->sk = sk;
	q->ts = ts;
	q->seq = c->nq;
	return q;
}

/* @a's addresses into @q (copied: the record they point into is gone by then). */
static void keep_addr(struct sockconn_ev *q, const struct sockconn_addr *a)
{
	q->family = a->family;
	q->sport = a->sport;
	q->dport = a->dport;
	if (a->family == SOCKEV_AF_INET6 ? a->saddr6 && a->daddr6 : a->saddr4 && a->daddr4) {
		size_t len = a->family == SOCKEV_AF_INET6 ? 16 : 4;

		memcpy(q->saddr, a->family == SOCKEV_AF_INET6 ? a->saddr6 : a->saddr4, len);
		memcpy(q->daddr, a->family == SOCKEV_AF_INET6 ? a->daddr6 : a->daddr4, len);
		q->has_addr = true;
	}
}

static struct sockconn_addr addr_of(const struct sockconn_ev *q)
{
	struct sockconn_addr a = { .family = q->family, .sport = q->sport, .dport = q->dport };

	if (!q->has_addr)
		return a;
	if (q->family == SOCKEV_AF_INET6) {
		a.saddr6 = q->saddr;
		a.daddr6 = q->daddr;
	} else {
		a.saddr4 = q->saddr;
		a.daddr4 = q->daddr;
	}
	return a;
}

void sockconn_io(struct sockconn *c, uint64_t sk, pid_t tid, bool send, unsigned family,
		 unsigned protocol, int ret, int flags, uint64_t ts)
{
	struct sockconn_ev *q = enqueue(c, send ? SCE_SEND : SCE_RECV, sk, ts);

	q->pid = tid;
	q->family = family;
	q->protocol = protocol;
	q->a = ret;
	q->b = flags;
}

void sockconn_state(struct sockconn *c, uint64_t sk, pid_t pid, int oldstate, int newstate,
		    unsigned protocol, const struct sockconn_addr *a, uint64_t ts)
{
	struct sockconn_ev *q = enqueue(c, SCE_STATE, sk, ts);

	q->pid = pid;
	q->protocol = protocol;
	q->a = oldstate;
	q->b = newstate;
	keep_addr(q, a);
}

void sockconn_retrans(struct sockconn *c, uint64_t sk, int state, const struct sockconn_addr *a,
		      int err, uint64_t ts)
{
	struct sockconn_ev *q = enqueue(c, SCE_RETRANS, sk, ts);

	q->a = state;
	q->b = err;
	keep_addr(q, a);
}

void sockconn_reset(struct sockconn *c, uint64_t sk, uint64_t ts)
{
	enqueue(c, SCE_RESET, sk, ts);
}

void sockconn_exit(struct sockconn *c, pid_t tid, int group_dead, uint64_t ts)
{
	struct sockconn_ev *q = enqueue(c, SCE_EXIT, 0, ts);

	q->pid = tid;
	q->b = group_dead;
}

static void push_gone(struct sockconn *c, struct sockconn_proc p, uint64_t ts)
{
	if (c->ngone == c->capgone) {
		c->capgone = c->capgone ? c->capgone * 2 : 64;
		c->gone = xrealloc(c->gone, c->capgone * sizeof(*c->gone));
	}
	c->gone[c->ngone].proc = p;
	c->gone[c->ngone++].ts = ts;
}

/*
 * Thread @tid exited at @ts: the rows keyed by it end (its process not
 * known), or its process's when that ended (sockconn_end_interval ends them;
 * a reused pid's is another life). Rows keyed by the thread while its
 * process was not known, known by now, stay until evicted.
 */
static void apply_exit(struct sockconn *c, pid_t tid, int group_dead, uint64_t ts)
{
	struct sockconn_proc p = { 0 };

	if (tid <= 0)
		return;
	if (c->proc_of)
		p = c->proc_of(c->proc_arg, tid, ts);
	if (p.tgid <= 0)
		push_gone(c, (struct sockconn_proc){ .tgid = -tid, .life = p.life }, ts);
	else if (group_dead > 0 || (group_dead < 0 && p.tgid == tid))
		push_gone(c, p, ts);
}

/* Time order; as read for equal stamps (one CPU's order). */
static int cmp_ev(const void *x, const void *y)
{
	const struct sockconn_ev *a = x, *b = y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void sockconn_apply(struct sockconn *c)
{
	size_t i;

	sort_array(c->q, c->nq, sizeof(*c->q), cmp_ev);
	for (i = 0; i < c->nq; i++) {
		const struct sockconn_ev *q = &c->q[i];
		struct sockconn_addr a = addr_of(q);

		switch (q->kind) {
		case SCE_SEND:
		case SCE_RECV:
			apply_io(c, q->sk, q->pid, q->kind == SCE_SEND, q->family, q->protocol,
				 q->a, q->b, q->ts);
			break;
		case SCE_STATE:
			apply_state(c, q->sk, q->pid, q->a, q->b, q->protocol, &a, q->ts);
			break;
		case SCE_RETRANS:
			apply_retrans(c, q->sk, q->a, &a, q->b, q->ts);
			break;
		case SCE_RESET:
			apply_reset(c, q->sk, q->ts);
			break;
		case SCE_EXIT:
			apply_exit(c, q->pid, q->b, q->ts);
			break;
		}
	}
	c->nq = 0;
}

static bool keep_open(const struct sockconn_entry *e, uint64_t unused)
{
	(void)unused;
	return !e->dead && e->closed < 2;
}

static int cmp_gone(const void *x, const void *y)
{
	const struct sockconn_proc *a = &((const struct sockconn_gone *)x)->proc;
	const struct sockconn_proc *b = &((const struct sockconn_gone *)y)->proc;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return a->life < b->life ? -1 : a->life > b->life;
}

/*
 * The rows of the processes and threads that ended this interval, keyed by
 * them, close at their end (after their last event: a late one of another
 * life is not theirs). Once a tick, not once an exit: a sort and a look-up
 * per row.
 */
static void close_gone(struct sockconn *c)
{
	size_t i;

	for (i = 0; i < c->n && (!c->v[i].proc.tgid || c->v[i].closed); i++)
		;
	/* None keyed by a process or thread (a mass exit need not be sorted). */
	if (i == c->n)
		c->ngone = 0;
	if (!c->ngone)
		return;
	sort_array(c->gone, c->ngone, sizeof(*c->gone), cmp_gone);
	for (; i < c->n; i++) {
		struct sockconn_entry *e = &c->v[i];
		struct sockconn_gone key = { .proc = e->proc }, *g;

		if (!e->proc.tgid || e->closed)
			continue;
		g = bsearch(&key, c->gone, c->ngone, sizeof(*c->gone), cmp_gone);
		if (g && e->last_ns <= g->ts) {
			e->closed = 1;
			e->close_ts = g->ts;
		}
	}
	c->ngone = 0;
}

void sockconn_end_interval(struct sockconn *c)
{
	size_t i;

	close_gone(c);
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
