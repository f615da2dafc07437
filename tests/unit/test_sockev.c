// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/trace/sockev.c: which sock_send_length and
 * sock_recv_length events count as a thread's network bytes (INET and INET6,
 * calls that succeeded, not peeks) and that they add up per thread and in all.
 */
#include "../../collectors/trace/sockev.h"
#include "../../lib/util.h"
#include "test.h"

static void test_counted(void)
{
	struct evsums a;
	struct evsums_thread *t;

	evsums_init(&a);
	sockev_bytes(&a, 100, true, SOCKEV_AF_INET, 65536, 0, 1);
	sockev_bytes(&a, 100, true, SOCKEV_AF_INET6, 1000, 0, 1);
	sockev_bytes(&a, 100, false, SOCKEV_AF_INET, 1000, SOCKEV_MSG_PEEK, 1);	/* a peek */
	sockev_bytes(&a, 100, false, SOCKEV_AF_INET, 1000, 0, 1);
	sockev_bytes(&a, 100, false, SOCKEV_AF_INET, 0, 0, 1);			/* the end */
	sockev_bytes(&a, 100, true, SOCKEV_AF_INET, -11, 0, 1);			/* EAGAIN */
	sockev_bytes(&a, 100, false, SOCKEV_AF_INET, -104, 0, 1);			/* ECONNRESET */
	sockev_bytes(&a, 100, true, 1, 4096, 0, 1);				/* AF_UNIX */
	sockev_bytes(&a, 100, false, 16, 4096, 0, 1);				/* AF_NETLINK */
	sockev_bytes(&a, 200, false, SOCKEV_AF_INET6, 7, 0x40, 1);			/* MSG_DONTWAIT */
	t = evsums_first_active(&a);
	CHECK(t != NULL);
	t = evsums_thread(&a, 100);
	CHECK_EQ_U64(t->n[CNT_NET_TX], 66536);
	CHECK_EQ_U64(t->n[CNT_NET_RX], 1000);
	t = evsums_thread(&a, 200);
	CHECK_EQ_U64(t->n[CNT_NET_TX], 0);
	CHECK_EQ_U64(t->n[CNT_NET_RX], 7);
	CHECK_EQ_U64(a.total[CNT_NET_TX], 66536);
	CHECK_EQ_U64(a.total[CNT_NET_RX], 1007);
	evsums_free(&a);
}

static void test_nothing_counted_is_no_thread(void)
{
	struct evsums a;

	evsums_init(&a);
	sockev_bytes(&a, 300, true, 1, 4096, 0, 1);
	sockev_bytes(&a, 300, false, SOCKEV_AF_INET, 10, SOCKEV_MSG_PEEK, 1);
	sockev_bytes(&a, 0, true, SOCKEV_AF_INET, 10, 0, 1);
	CHECK(evsums_first_active(&a) == NULL);
	CHECK_EQ_U64(a.total[CNT_NET_TX] + a.total[CNT_NET_RX], 0);
	evsums_free(&a);
}

static const struct test tests[] = {
	{ "counted", test_counted },
	{ "nothing_counted_is_no_thread", test_nothing_counted_is_no_thread },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
