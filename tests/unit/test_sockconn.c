// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/trace/sockconn.c: the sockets' table. Events of one
 * socket decoded out of time order (CPUs are read in turn), an address
 * reused by a new socket (its events read before its predecessor's end),
 * and the bound: full of sockets, idle ones evicted (closed and unowned
 * first), counted.
 */
#include "../../collectors/trace/sockconn.h"
#include "../../collectors/trace/sockev.h"
#include "../../lib/util.h"
#include "test.h"

static const uint8_t lo4[4] = { 127, 0, 0, 1 };

static struct sockconn_addr addr(uint16_t sport, uint16_t dport)
{
	return (struct sockconn_addr){ .family = SOCKEV_AF_INET, .sport = sport, .dport = dport,
				       .saddr4 = lo4, .daddr4 = lo4 };
}

/* The entry the index names for @sk (the live one), or NULL. */
static const struct sockconn_entry *live(const struct sockconn *c, uint64_t sk)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].sk == sk && !c->v[i].dead)
			return &c->v[i];
	return NULL;
}

static size_t active(const struct sockconn *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->n; i++)
		n += c->v[i].active;
	return n;
}

static void test_out_of_order(void)
{
	struct sockconn c;
	struct sockconn_addr a = addr(40000, 5000);
	const struct sockconn_entry *e;

	sockconn_init(&c);
	/* CPU 1's buffer first: the sends, a retransmit, then CPU 0's: the connect. */
	sockconn_io(&c, 0x1000, 77, true, SOCKEV_AF_INET, 6, 1000, 0, 300);
	sockconn_apply(&c);
	sockconn_retrans(&c, 0x1000, 1, &a, 0, 400);
	sockconn_apply(&c);
	sockconn_state(&c, 0x1000, 77, SOCKCONN_TCP_CLOSE, SOCKCONN_TCP_SYN_SENT, 6, &a, 100);
	sockconn_apply(&c);
	sockconn_state(&c, 0x1000, 0, SOCKCONN_TCP_SYN_SENT, 1, 6, &a, 200);
	sockconn_apply(&c);
	e = live(&c, 0x1000);
	CHECK(e != NULL);
	CHECK_EQ_U64(c.n, 1);
	CHECK(e->begun && e->named);
	CHECK_EQ_U64(e->state, 1);
	CHECK_EQ_U64(e->n[SCN_TX], 1000);
	CHECK_EQ_U64(e->n[SCN_RETRANS], 1);
	CHECK_EQ_U64(e->first_ns, 100);
	CHECK_EQ_U64(e->lport, 40000);
	CHECK_EQ_U64(e->rport, 5000);
	/* A failed send, a peek: not counted, as the rows do not count them. */
	sockconn_io(&c, 0x1000, 77, true, SOCKEV_AF_INET, 6, -11, 0, 500);
	sockconn_apply(&c);
	sockconn_io(&c, 0x1000, 77, false, SOCKEV_AF_INET, 6, 10, SOCKEV_MSG_PEEK, 500);
	sockconn_apply(&c);
	CHECK_EQ_U64(e->n[SCN_TX] + e->n[SCN_RX], 1000);
	sockconn_free(&c);
}

static void test_reused_address(void)
{
	struct sockconn c;
	struct sockconn_addr a = addr(40000, 5000), b = addr(40001, 6000);
	const struct sockconn_entry *e;
	uint64_t first;
	size_t i;

	sockconn_init(&c);
	sockconn_state(&c, 0x2000, 10, SOCKCONN_TCP_CLOSE, SOCKCONN_TCP_SYN_SENT, 6, &a, 100);
	sockconn_apply(&c);
	sockconn_io(&c, 0x2000, 10, true, SOCKEV_AF_INET, 6, 500, 0, 150);
	sockconn_apply(&c);
	sockconn_state(&c, 0x2000, 0, 1, SOCKCONN_TCP_CLOSE, 6, &a, 200);
	sockconn_apply(&c);
	first = live(&c, 0x2000)->id;
	/* Freed, and a new socket at its address; its predecessor's last send decoded after. */
	sockconn_state(&c, 0x2000, 11, SOCKCONN_TCP_CLOSE, SOCKCONN_TCP_SYN_SENT, 6, &b, 300);
	sockconn_apply(&c);
	sockconn_io(&c, 0x2000, 11, true, SOCKEV_AF_INET, 6, 7, 0, 350);
	sockconn_apply(&c);
	sockconn_io(&c, 0x2000, 10, true, SOCKEV_AF_INET, 6, 20, 0, 180);
	sockconn_apply(&c);
	e = live(&c, 0x2000);
	CHECK(e->id != first);
	CHECK_EQ_U64(e->n[SCN_TX], 7);
	CHECK_EQ_U64(e->rport, 6000);
	CHECK_EQ_U64(e->tid, 11);
	for (i = 0; i < c.n; i++)
		if (c.v[i].id == first)
			CHECK_EQ_U64(c.v[i].n[SCN_TX], 520);
	CHECK_EQ_U64(c.st.reused, 1);
	CHECK_EQ_U64(active(&c), 2);
	/* Reported, the replaced one goes; the closed one an interval after its close. */
	sockconn_end_interval(&c);
	CHECK_EQ_U64(c.n, 1);
	CHECK(live(&c, 0x2000)->id == e->id);
	sockconn_free(&c);
}

/* The entry of @sk whose owner is @tid, or NULL. */
static const struct sockconn_entry *owned(const struct sockconn *c, uint64_t sk, pid_t tid)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].sk == sk && c->v[i].tid == tid)
			return &c->v[i];
	return NULL;
}

/*
 * A freed socket's address taken by an accepted one in the same tick, read
 * CPU by CPU: CPU 0 has the new one's reads and writes, CPU 1 the old one's
 * whole life, then the new one's beginning (in another task's interrupt)
 * and close. Decoded as read, the new one's bytes went to the old one, its
 * owner the old one's (the last one decoded): its row was nowhere. In time
 * order, each its own.
 */
static void test_reused_across_cpus(void)
{
	struct sockconn c;
	struct sockconn_addr a = addr(40000, 5000), b = addr(5000, 40001);
	const struct sockconn_entry *old, *acc;

	sockconn_init(&c);
	/* CPU 0 */
	sockconn_io(&c, 0x3000, 26, false, SOCKEV_AF_INET, 6, 5000, 0, 300);
	sockconn_io(&c, 0x3000, 26, true, SOCKEV_AF_INET, 6, 1000, 0, 310);
	/* CPU 1 */
	sockconn_state(&c, 0x3000, 900, SOCKCONN_TCP_CLOSE, SOCKCONN_TCP_SYN_SENT, 6, &a, 100);
	sockconn_io(&c, 0x3000, 900, true, SOCKEV_AF_INET, 6, 100, 0, 110);
	sockconn_state(&c, 0x3000, 0, 1, SOCKCONN_TCP_CLOSE, 6, &a, 130);
	sockconn_state(&c, 0x3000, 0, SOCKCONN_TCP_LISTEN, SOCKCONN_TCP_SYN_RECV, 6, &b, 200);
	sockconn_state(&c, 0x3000, 0, SOCKCONN_TCP_SYN_RECV, 1, 6, &b, 210);
	sockconn_state(&c, 0x3000, 0, 1, SOCKCONN_TCP_CLOSE, 6, &b, 400);
	sockconn_apply(&c);
	old = owned(&c, 0x3000, 900);
	acc = owned(&c, 0x3000, 26);
	CHECK(old != NULL && acc != NULL);
	if (!old || !acc)
		goto out;
	CHECK(old->id != acc->id);
	CHECK_EQ_U64(old->n[SCN_TX], 100);
	CHECK_EQ_U64(old->n[SCN_RX], 0);
	CHECK_EQ_U64(old->rport, 5000);
	CHECK_EQ_U64(acc->n[SCN_TX], 1000);
	CHECK_EQ_U64(acc->n[SCN_RX], 5000);
	CHECK_EQ_U64(acc->total[SCN_TX], 1000);
	CHECK(acc->begun && acc->named);
	CHECK_EQ_U64(acc->lport, 5000);
	CHECK_EQ_U64(acc->rport, 40001);
	CHECK_EQ_U64(acc->state, SOCKCONN_TCP_CLOSE);
	CHECK_EQ_U64(acc->first_ns, 200);
	CHECK_EQ_U64(c.st.reused, 1);
	CHECK_EQ_U64(c.nq, 0);
out:
	sockconn_free(&c);
}

static void test_bound(void)
{
	struct sockconn c;
	struct sockconn_addr a = addr(1, 2);
	uint64_t i;

	sockconn_init(&c);
	/* One interval: the sockets of a process, then more than fit. */
	for (i = 0; i < SOCKCONN_MAX; i++)
		sockconn_io(&c, 0x10000 + i * 64, 5, true, SOCKEV_AF_INET, 17, 1, 0, 1000 + i);
	sockconn_apply(&c);
	CHECK_EQ_U64(c.n, SOCKCONN_MAX);
	/* Every one had events this interval: no room, the bytes on the other row. */
	sockconn_io(&c, 0x8, 5, true, SOCKEV_AF_INET, 17, 3, 0, 9000);
	sockconn_apply(&c);
	CHECK_EQ_U64(c.n, SOCKCONN_MAX);
	CHECK_EQ_U64(c.other[SCN_TX], 3);
	CHECK_EQ_U64(c.st.untracked, 1);
	sockconn_end_interval(&c);
	CHECK_EQ_U64(c.other[SCN_TX], 0);
	/* Next interval: one unowned socket (a retransmit in another task's interrupt). */
	sockconn_retrans(&c, 0x10000, 1, &a, 0, 20000);	/* owned: keeps its owner */
	sockconn_apply(&c);
	sockconn_end_interval(&c);
	CHECK_EQ_U64(c.n, SOCKCONN_MAX);
	sockconn_io(&c, 0x9, 6, true, SOCKEV_AF_INET, 17, 1, 0, 30000);
	sockconn_apply(&c);
	/* A quarter evicted, the least recently used first: the first sockets but the one retransmitted. */
	CHECK_EQ_U64(c.st.evicted, SOCKCONN_MAX / 4);
	CHECK_EQ_U64(c.n, SOCKCONN_MAX - SOCKCONN_MAX / 4 + 1);
	CHECK(live(&c, 0x10000) != NULL);
	CHECK(live(&c, 0x10000 + 64) == NULL);
	CHECK(live(&c, 0x10000 + (SOCKCONN_MAX - 1) * 64) != NULL);
	CHECK(live(&c, 0x9) != NULL);
	sockconn_free(&c);
}

static const struct test tests[] = {
	{ "out_of_order", test_out_of_order },
	{ "reused_address", test_reused_address },
	{ "reused_across_cpus", test_reused_across_cpus },
	{ "bound", test_bound },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
