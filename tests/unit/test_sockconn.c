// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/trace/sockconn.c: the sockets' table. Events of one
 * socket decoded out of time order (CPUs are read in turn), an address
 * reused by a new socket (its events read before its predecessor's end), a
 * UDP socket's by another process's, and the bound: full of sockets, idle
 * ones evicted (closed and unowned first), counted.
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
		sockconn_io(&c, 0x10000 + i * 64, 5, true, SOCKEV_AF_INET, 6, 1, 0, 1000 + i);
	sockconn_apply(&c);
	CHECK_EQ_U64(c.n, SOCKCONN_MAX);
	/* Every one had events this interval: no room, the bytes on the other row. */
	sockconn_io(&c, 0x8, 5, true, SOCKEV_AF_INET, 6, 3, 0, 9000);
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
	sockconn_io(&c, 0x9, 6, true, SOCKEV_AF_INET, 6, 1, 0, 30000);
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

/* The processes of the threads of test_udp_processes: tid -> (tgid, life). */
static struct sockconn_proc procs_of(void *arg, pid_t tid, uint64_t ts)
{
	(void)arg;
	switch (tid) {
	case 100:
	case 101:
		return (struct sockconn_proc){ 100, 1 };
	case 200:
		return (struct sockconn_proc){ 200, 2 };
	case 300:	/* tid 300: a process, then (from 1000) another with its pid, reused */
		return (struct sockconn_proc){ 300, ts < 1000 ? 3 : 4 };
	default:
		return (struct sockconn_proc){ 0 };	/* not known */
	}
}

/* A UDP send (@send) or receive of @n bytes by @tid on @sk at @ts. */
static void udp_io(struct sockconn *c, uint64_t sk, pid_t tid, bool send, int n, uint64_t ts)
{
	sockconn_io(c, sk, tid, send, SOCKEV_AF_INET, 17, n, 0, ts);
}

/* The entries of @sk, in the order made. */
static size_t entries_of(const struct sockconn *c, uint64_t sk, const struct sockconn_entry **v,
			 size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < c->n && n < max; i++)
		if (c->v[i].sk == sk)
			v[n++] = &c->v[i];
	return n;
}

/*
 * UDP has no state events: a socket freed and made again at its address by
 * another process was one row, both sockets' bytes, its owner the last
 * sender. Each process's is its own row: one process's two threads one row,
 * a socket shared by two processes a row each (the same from one interval to
 * the next), a reused pid's process another row, a thread whose process is
 * not known a row of its own; a process's end ends its rows. TCP goes by its
 * state events, as before.
 */
static void test_udp_processes(void)
{
	const struct sockconn_entry *v[8];
	struct sockconn c;
	uint64_t a_id;

	sockconn_init(&c);
	sockconn_set_procs(&c, procs_of, NULL);
	/* Process 100 (two threads) sends, its socket is freed; 200's takes its address. */
	udp_io(&c, 0x5000, 100, true, 1000, 100);
	udp_io(&c, 0x5000, 101, true, 1000, 110);
	udp_io(&c, 0x5000, 101, false, 50, 120);
	udp_io(&c, 0x5000, 200, true, 7, 300);
	sockconn_apply(&c);
	CHECK_EQ_U64(entries_of(&c, 0x5000, v, 8), 2);
	CHECK_EQ_U64(active(&c), 2);
	if (c.n != 2)
		goto out;
	CHECK(v[0]->id != v[1]->id);
	CHECK_EQ_U64(v[0]->proc.tgid, 100);
	CHECK_EQ_U64(v[0]->n[SCN_TX], 2000);
	CHECK_EQ_U64(v[0]->n[SCN_RX], 50);
	CHECK_EQ_U64(v[1]->proc.tgid, 200);
	CHECK_EQ_U64(v[1]->tid, 200);
	CHECK_EQ_U64(v[1]->n[SCN_TX], 7);
	CHECK_EQ_U64(v[1]->total[SCN_TX], 7);
	a_id = v[0]->id;
	/* Next interval: shared (inherited across a fork), 100 and 200 in turn: a row each, as before. */
	sockconn_end_interval(&c);
	udp_io(&c, 0x5000, 100, true, 10, 400);
	udp_io(&c, 0x5000, 200, true, 20, 410);
	udp_io(&c, 0x5000, 101, true, 30, 420);
	udp_io(&c, 0x5000, 200, true, 40, 430);
	sockconn_apply(&c);
	CHECK_EQ_U64(entries_of(&c, 0x5000, v, 8), 2);
	CHECK_EQ_U64(v[0]->id, a_id);
	CHECK_EQ_U64(v[0]->n[SCN_TX], 40);
	CHECK_EQ_U64(v[0]->total[SCN_TX], 2040);
	CHECK_EQ_U64(v[1]->n[SCN_TX], 60);
	CHECK_EQ_U64(v[1]->total[SCN_TX], 67);
	CHECK_EQ_U64(c.st.sockets, 2);
	/* Pid 300's process, then another with that pid (its own life) at the same address. */
	sockconn_io(&c, 0x6000, 300, true, SOCKEV_AF_INET6, 17, 5, 0, 500);
	sockconn_io(&c, 0x6000, 300, true, SOCKEV_AF_INET6, 17, 6, 0, 1500);
	/* Threads of processes not known: each its own. */
	udp_io(&c, 0x7000, 400, true, 8, 1600);
	udp_io(&c, 0x7000, 401, true, 9, 1700);
	sockconn_apply(&c);
	CHECK_EQ_U64(entries_of(&c, 0x6000, v, 8), 2);
	CHECK(v[0]->proc.life != v[1]->proc.life);
	CHECK_EQ_U64(v[0]->total[SCN_TX], 5);
	CHECK_EQ_U64(v[1]->total[SCN_TX], 6);
	CHECK_EQ_U64(entries_of(&c, 0x7000, v, 8), 2);
	CHECK_EQ_U64(v[0]->proc.tgid, -400);
	CHECK_EQ_U64(v[0]->total[SCN_TX], 8);
	CHECK_EQ_U64(v[1]->proc.tgid, -401);
	CHECK_EQ_U64(v[1]->total[SCN_TX], 9);
	/* TCP: one row whoever sends (its lives go by its state events), the owner the last. */
	sockconn_io(&c, 0x8000, 100, true, SOCKEV_AF_INET, 6, 11, 0, 1800);
	sockconn_io(&c, 0x8000, 200, true, SOCKEV_AF_INET, 6, 12, 0, 1900);
	sockconn_apply(&c);
	CHECK_EQ_U64(entries_of(&c, 0x8000, v, 8), 1);
	CHECK_EQ_U64(v[0]->proc.tgid, 0);
	CHECK_EQ_U64(v[0]->tid, 200);
	CHECK_EQ_U64(v[0]->n[SCN_TX], 23);
	CHECK_EQ_U64(c.st.reused, 0);
	/*
	 * Ends: 200's process, a thread of 100's (not its process), thread 400
	 * of a process not known, and pid 300's leader on a kernel that does not
	 * say whether its process ended (taken as ended: its second life's).
	 * Reported this interval, their rows go at its end; the others stay.
	 */
	sockconn_exit(&c, 200, 1, 2000);
	sockconn_exit(&c, 101, 0, 2000);
	sockconn_exit(&c, 400, 1, 2000);
	sockconn_exit(&c, 300, -1, 2000);
	sockconn_apply(&c);
	CHECK_EQ_U64(active(&c), 7);
	sockconn_end_interval(&c);
	CHECK_EQ_U64(entries_of(&c, 0x5000, v, 8), 1);
	CHECK_EQ_U64(v[0]->proc.tgid, 100);
	CHECK_EQ_U64(entries_of(&c, 0x6000, v, 8), 1);
	CHECK_EQ_U64(v[0]->proc.life, 3);
	CHECK_EQ_U64(entries_of(&c, 0x7000, v, 8), 1);
	CHECK_EQ_U64(v[0]->proc.tgid, -401);
	CHECK_EQ_U64(entries_of(&c, 0x8000, v, 8), 1);
	CHECK_EQ_U64(c.n, 4);
out:
	sockconn_free(&c);
}

static const struct test tests[] = {
	{ "out_of_order", test_out_of_order },
	{ "reused_address", test_reused_address },
	{ "reused_across_cpus", test_reused_across_cpus },
	{ "bound", test_bound },
	{ "udp_processes", test_udp_processes },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
