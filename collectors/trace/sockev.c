// SPDX-License-Identifier: GPL-2.0-only
#include "sockev.h"

void sockev_bytes(struct evsums *a, pid_t tid, bool send, unsigned family, int ret, int flags,
		  uint64_t ts)
{
	enum counter c = send ? CNT_NET_TX : CNT_NET_RX;
	struct evsums_thread *t;

	if (ret <= 0 || tid <= 0 || (family != SOCKEV_AF_INET && family != SOCKEV_AF_INET6))
		return;
	if (!send && (flags & SOCKEV_MSG_PEEK))
		return;
	t = evsums_activate(a, tid, ts);
	t->n[c] += (uint64_t)ret;
	a->total[c] += (uint64_t)ret;
}
