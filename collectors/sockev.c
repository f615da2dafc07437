// SPDX-License-Identifier: GPL-2.0-only
#include "sockev.h"

void sockev_bytes(struct acct *a, pid_t tid, bool send, unsigned family, int ret, int flags,
		  uint64_t ts)
{
	enum acct_cnt c = send ? AC_NET_TX : AC_NET_RX;
	struct acct_thread *t;

	if (ret <= 0 || tid <= 0 || (family != SOCKEV_AF_INET && family != SOCKEV_AF_INET6))
		return;
	if (!send && (flags & SOCKEV_MSG_PEEK))
		return;
	t = acct_activate(a, tid, ts);
	t->n[c] += (uint64_t)ret;
	a->total[c] += (uint64_t)ret;
}
