// SPDX-License-Identifier: GPL-2.0-only
#include "conntable.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "../lib/util.h"

const struct av_col conn_cols[CONN_NCOLS] = {
	[CONN_PID] = { "pid", "PID", 7, false, AV_INT, SORT_ASC, -1,
		       "the process that last sent or received through it (or opened it); empty: none yet" },
	[CONN_COMM] = { "comm", "COMMAND", 15, true, AV_STR, SORT_ASC, -1, "its command name" },
	[CONN_PROTO] = { "proto", "PROTO", 5, true, AV_STR, SORT_ASC, -1,
			 "tcp, udp, sctp, mptcp, ... (sock_send_length's protocol); 6 after it: IPv6" },
	[CONN_LOCAL] = { "local", "LOCAL", 21, true, AV_STR, SORT_ASC, -1,
			 "local address:port (inet_sock_set_state, tcp_retransmit_skb); (before ktop): "
			 "a TCP connection ktop did not see begin, not named yet; -: not in the events "
			 "(UDP and others)" },
	[CONN_REMOTE] = { "remote", "REMOTE", 21, true, AV_STR, SORT_ASC, -1, "remote address:port, likewise" },
	[CONN_STATE] = { "state", "STATE", 11, true, AV_STR, SORT_ASC, -1,
			 "its TCP state after its latest change (ESTABLISHED, CLOSE_WAIT, ...); empty: not known" },
	[CONN_BYTES] = { "bytes", "BYTES/s", 8, false, AV_COUNT, SORT_DESC, COL_NET_TX,
			 "tx_bytes + rx_bytes" },
	[CONN_TX] = { "tx_bytes", "TX/s", 7, false, AV_COUNT, SORT_DESC, COL_NET_TX,
		      "bytes sent through it in the interval (sock_send_length: calls that succeeded)" },
	[CONN_RX] = { "rx_bytes", "RX/s", 7, false, AV_COUNT, SORT_DESC, COL_NET_RX,
		      "bytes received (sock_recv_length: calls that succeeded, peeks not counted)" },
	[CONN_RETRANS] = { "retrans", "RETR/s", 6, false, AV_COUNT, SORT_DESC, -1,
			   "segments it retransmitted (tcp:tcp_retransmit_skb, those sent)" },
	[CONN_RESETS] = { "resets", "RST/s", 5, false, AV_COUNT, SORT_DESC, -1,
			  "resets it sent (tcp:tcp_send_reset)" },
	[CONN_AGE] = { "age_s", "AGE", 6, false, AV_INT, SORT_DESC, -1,
		       "seconds since ktop first saw an event of it (its beginning when opened is seen)" },
	[CONN_OPENED] = { "opened", "OPENED", 6, true, AV_STR, SORT_ASC, -1,
			  "seen: ktop saw it begin (connect, listen, accept); before: a TCP socket begun "
			  "before ktop saw it; empty: no beginning to see (UDP and others)" },
	[CONN_TX_TOTAL] = { "tx_total", "TX", 9, false, AV_TOTAL, SORT_DESC, -1,
			    "bytes sent since ktop first saw it" },
	[CONN_RX_TOTAL] = { "rx_total", "RX", 9, false, AV_TOTAL, SORT_DESC, -1,
			    "bytes received since ktop first saw it" },
	[CONN_RETRANS_TOTAL] = { "retrans_total", "RETR", 6, false, AV_TOTAL, SORT_DESC, -1,
				 "segments retransmitted since ktop first saw it" },
};

bool conntable_num(const struct model *m, const struct sock_conn *c, int col, double *out)
{
	/* Counts of the interval exist only past the baseline (model_apply drops its rows). */
	switch (col) {
	case CONN_PID: *out = c->pid; return c->pid > 0;
	case CONN_BYTES: *out = (double)(c->tx + c->rx); return true;
	case CONN_TX: *out = (double)c->tx; return true;
	case CONN_RX: *out = (double)c->rx; return true;
	case CONN_RETRANS: *out = (double)c->retrans; return true;
	case CONN_RESETS: *out = (double)c->resets; return true;
	case CONN_AGE:
		if (!c->id || !c->first_ns || m->t_now < c->first_ns)
			return false;
		*out = (double)((m->t_now - c->first_ns) / 1000000000ull);
		return true;
	case CONN_TX_TOTAL: *out = (double)c->tx_total; return c->id != 0;
	case CONN_RX_TOTAL: *out = (double)c->rx_total; return c->id != 0;
	case CONN_RETRANS_TOTAL: *out = (double)c->retrans_total; return c->id != 0;
	}
	return false;
}

static const char *proto_name(const struct sock_conn *c, char *buf, size_t n)
{
	const char *p;

	switch (c->protocol) {
	case 0: p = "ip"; break;
	case 1: p = "icmp"; break;
	case 6: p = "tcp"; break;
	case 17: p = "udp"; break;
	case 58: p = "icmp"; break;
	case 132: p = "sctp"; break;
	case 136: p = "udplite"; break;
	case 255: p = "raw"; break;
	case 262: p = "mptcp"; break;
	default:
		snprintf(buf, n, "proto_%u%s", c->protocol, c->family == 10 ? "6" : "");
		return buf;
	}
	snprintf(buf, n, "%s%s", p, c->family == 10 ? "6" : "");
	return buf;
}

static const char *const tcp_states[] = {
	"", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2", "TIME_WAIT", "CLOSE",
	"CLOSE_WAIT", "LAST_ACK", "LISTEN", "CLOSING", "NEW_SYN_RECV",
};

/* Does the protocol have the state changes that name a socket (inet_sock_set_state)? */
static bool has_states(const struct sock_conn *c)
{
	return c->protocol == 6 || c->protocol == 132 || c->protocol == 262;
}

static void endpoint(const struct sock_conn *c, bool remote, char *buf, size_t n)
{
	const uint8_t *a = (const uint8_t *)&c->addr[remote ? 2 : 0];
	char ip[INET6_ADDRSTRLEN];

	if (!(c->flags & SOCK_CONN_NAMED)) {
		snprintf(buf, n, "%s", remote ? "" : has_states(c) ? "(before ktop)" : "-");
		return;
	}
	if (c->family == 10) {
		if (!inet_ntop(AF_INET6, a, ip, sizeof(ip)))
			snprintf(ip, sizeof(ip), "?");
		snprintf(buf, n, "[%s]:%u", ip, remote ? c->rport : c->lport);
		return;
	}
	snprintf(buf, n, "%u.%u.%u.%u:%u", a[0], a[1], a[2], a[3], remote ? c->rport : c->lport);
}

const char *conntable_text(const struct sock_conn *c, int col, char *buf, size_t n, int utf8)
{
	char tmp[80];
	const char *s = "";

	switch (col) {
	case CONN_COMM:
		s = c->id ? c->comm : "(other sockets)";
		break;
	case CONN_PROTO:
		s = c->id ? proto_name(c, tmp, sizeof(tmp)) : "";
		break;
	case CONN_LOCAL:
	case CONN_REMOTE:
		if (c->id)
			endpoint(c, col == CONN_REMOTE, tmp, sizeof(tmp));
		else
			tmp[0] = '\0';
		s = tmp;
		break;
	case CONN_STATE:
		s = c->state > 0 && (size_t)c->state < ARRAY_SIZE(tcp_states) ? tcp_states[c->state] : "";
		break;
	case CONN_OPENED:
		s = !c->id || !has_states(c) ? "" : (c->flags & SOCK_CONN_BEGUN) ? "seen" : "before";
		break;
	}
	sanitize_text(buf, n, s, strlen(s), utf8);
	return buf;
}

const char *conntable_line(const struct sock_conn *c, double interval_s, char *buf, size_t n)
{
	char proto[32], l[64], r[64], tx[16], rx[16];
	const char *st = c->state > 0 && (size_t)c->state < ARRAY_SIZE(tcp_states) ?
			 tcp_states[c->state] : "";

	proto_name(c, proto, sizeof(proto));
	endpoint(c, false, l, sizeof(l));
	endpoint(c, true, r, sizeof(r));
	if (interval_s > 0) {
		fmt_bytes(tx, sizeof(tx), (double)c->tx / interval_s);
		fmt_bytes(rx, sizeof(rx), (double)c->rx / interval_s);
	} else {
		snprintf(tx, sizeof(tx), "-");
		snprintf(rx, sizeof(rx), "-");
	}
	snprintf(buf, n, "%-6s %-21s %s %-21s %-11s TX/s %6s  RX/s %6s  retrans %llu", proto, l,
		 r[0] ? "->" : "  ", r, st, tx, rx, (unsigned long long)c->retrans);
	return buf;
}
