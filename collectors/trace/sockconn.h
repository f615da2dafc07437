/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SOCKCONN_H
#define KTOP_SOCKCONN_H

/*
 * collectors/trace/sockconn: the sockets of the interval, for the Connections view.
 * Every event that names a socket carries its kernel address (the sock
 * events' sk, the TCP events' skaddr): a bounded table keyed by it keeps
 * what each socket is.
 *
 * - sock:sock_send_length / sock_recv_length (process context): its family,
 *   protocol, the bytes (counted as collectors/trace/sockev.h counts them per
 *   thread: INET and INET6, calls that succeeded, peeks not) and the thread
 *   that made the call: the owner is the last one that did.
 * - sock:inet_sock_set_state (TCP, SCTP, MPTCP): its addresses, ports and
 *   state at each change. A socket ktop saw begin (CLOSE -> SYN_SENT or
 *   LISTEN, or an accepted child LISTEN -> SYN_RECV) is "seen"; one whose
 *   first event came later began before ktop saw it: its addresses are
 *   unknown until its next state change (its close), a retransmit, or never.
 * - tcp:tcp_retransmit_skb: retransmitted skbs (those the kernel sent: err 0),
 *   and the addresses; tcp:tcp_send_reset: resets it sent.
 *
 * A socket's address is reused once it is freed: a beginning on a socket
 * that closed (or whose family or protocol differ) is a new one. A protocol
 * without state events (UDP, raw, ...) has no beginning to tell: its
 * sockets are keyed by address and process (the sending or receiving
 * thread's, sockconn_set_procs), so a socket freed and made again at the
 * same address by another process is another row, never the same one; a
 * socket two processes share is a row per process; one a process frees
 * and makes again at the same address stays its row. Its process's end
 * (sockconn_exit) ends them: they go at the interval's end, as closed ones.
 *
 * Bounded: SOCKCONN_MAX sockets. When full, a quarter of those without an
 * event this interval are evicted (counted): closed ones first, then those no
 * process used (a scan's, a flood's), then the least recently used; if every one had events
 * this interval, a new socket's bytes go to the "other" row (counted).
 * Closed sockets go an interval after their close. No I/O, no allocation
 * per event once the table and the queue have grown.
 *
 * The events are queued and applied in time order by sockconn_apply (CPUs
 * are read in turn); a full queue (SOCKCONN_QUEUE_MAX) is applied as it is.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SOCKCONN_MAX	4096

/* TCP states (include/net/tcp_states.h). */
#define SOCKCONN_TCP_SYN_SENT	2
#define SOCKCONN_TCP_SYN_RECV	3
#define SOCKCONN_TCP_CLOSE	7
#define SOCKCONN_TCP_LISTEN	10

enum sockconn_cnt { SCN_TX, SCN_RX, SCN_RETRANS, SCN_RESETS, SCN_NR };

/*
 * A thread's process: @tgid, @life its life, a reused tgid's processes told
 * apart (collectors/trace/evlives.c; 0 began before tracing). @tgid 0: not
 * known; @life then the thread's life (0 not known either).
 */
struct sockconn_proc {
	pid_t tgid;
	uint32_t life;
};

struct sockconn_entry {
	uint64_t sk;		/* the kernel's address: the key, never shown */
	/*
	 * The rest of the key, for a protocol without state events: its
	 * process (tgid > 0, its life), or its thread (-tid, its life: the
	 * process not known); { 0, 0 } for the others.
	 */
	struct sockconn_proc proc;
	uint64_t id;		/* ktop's number of it, from 1 */
	pid_t tid;		/* the thread that last sent or received; 0 none yet */
	uint16_t family, protocol;
	int state;		/* TCP state; 0 unknown */
	uint64_t state_ts;	/* the event that set it (CPUs are read in turn) */
	bool named;		/* addresses known */
	bool begun;		/* ktop saw it begin */
	uint64_t begin_ts;	/* when; 0 not seen: an event before it is another socket's */
	bool active;		/* an event this interval */
	bool dead;		/* replaced by a new socket at its address: reported, then gone */
	uint8_t closed;		/* intervals since its close; 0 open */
	uint64_t close_ts;
	uint16_t lport, rport;
	uint8_t laddr[16], raddr[16];	/* IPv4: the first 4 bytes */
	uint64_t first_ns, last_ns;	/* its first and latest event (trace clock mapped) */
	uint64_t n[SCN_NR];		/* this interval */
	uint64_t total[SCN_NR];		/* since ktop first saw it */
};

struct sockconn_stats {
	uint64_t sockets;	/* sockets ever tracked */
	uint64_t evicted;	/* idle ones dropped from a full table */
	uint64_t untracked;	/* events of sockets the full table had no room for */
	uint64_t reused;	/* addresses a new socket took over */
	size_t peak;		/* the most kept at once */
};

/* An event waiting for sockconn_apply. */
enum sockconn_ev_kind { SCE_SEND, SCE_RECV, SCE_STATE, SCE_RETRANS, SCE_RESET, SCE_EXIT };

struct sockconn_ev {
	uint64_t ts, seq, sk;	/* seq: the order read in */
	pid_t pid;
	int a, b;		/* ret, flags; oldstate, newstate; state, err */
	uint8_t kind;
	bool has_addr;
	uint16_t sport, dport;
	unsigned family, protocol;
	uint8_t saddr[16], daddr[16];
};

#define SOCKCONN_QUEUE_MAX	65536

struct sockconn {
	struct sockconn_entry *v;
	size_t n, cap;
	uint32_t *index;	/* open addressing over v: index + 1, 0 = empty */
	size_t index_cap;
	uint64_t next_id;
	uint64_t other[SCN_NR];	/* this interval: sockets not tracked (full) */
	struct sockconn_stats st;
	struct sockconn_ev *q;	/* the events not applied yet */
	size_t nq, qcap;
	/* A thread's process at a time (sockconn_set_procs); NULL: never known. */
	struct sockconn_proc (*proc_of)(void *arg, pid_t tid, uint64_t ts);
	void *proc_arg;
	/* The processes and threads that ended this interval (sockconn_exit), keys as proc's. */
	struct sockconn_gone {
		struct sockconn_proc proc;
		uint64_t ts;
	} *gone;
	size_t ngone, capgone;
};

void sockconn_init(struct sockconn *c);
void sockconn_free(struct sockconn *c);

/*
 * sockconn_set_procs - how sockconn_apply learns a thread's process: @fn
 * (@arg, tid, the event's time) is asked, in time order, once every CPU is
 * read, for each send or receive on a socket of a protocol without state
 * events. One it cannot tell ({ 0 }) keys that socket by the thread.
 */
void sockconn_set_procs(struct sockconn *c,
			struct sockconn_proc (*fn)(void *arg, pid_t tid, uint64_t ts), void *arg);

/*
 * sockconn_io - a sock_send_length (@send) or sock_recv_length event of
 * thread @tid on socket @sk: @ret its result, @flags the receive's.
 */
void sockconn_io(struct sockconn *c, uint64_t sk, pid_t tid, bool send, unsigned family,
		 unsigned protocol, int ret, int flags, uint64_t ts);

/* The addresses of an event: family, ports (host order), IPv4 or IPv6 bytes. */
struct sockconn_addr {
	unsigned family;
	uint16_t sport, dport;
	const uint8_t *saddr4, *daddr4, *saddr6, *daddr6;	/* NULL: not in the record */
};

/*
 * sockconn_state - an inet_sock_set_state event: @pid the writer, 0 in
 * interrupt context (it may then be anyone's).
 */
void sockconn_state(struct sockconn *c, uint64_t sk, pid_t pid, int oldstate, int newstate,
		    unsigned protocol, const struct sockconn_addr *a, uint64_t ts);
/* tcp_retransmit_skb (@err: what sending it returned) and tcp_send_reset. */
void sockconn_retrans(struct sockconn *c, uint64_t sk, int state, const struct sockconn_addr *a,
		      int err, uint64_t ts);
void sockconn_reset(struct sockconn *c, uint64_t sk, uint64_t ts);
/*
 * sched_process_exit of thread @tid: @group_dead 1 its process ended, 0 not,
 * -1 the kernel does not say (before 6.16: a leader's exit is taken as its
 * process's). Its sockets' rows of a protocol without state events end.
 */
void sockconn_exit(struct sockconn *c, pid_t tid, int group_dead, uint64_t ts);

/*
 * The events above wait until this applies them, in time order: call it once
 * every CPU is read up to the tick (a full queue, SOCKCONN_QUEUE_MAX events,
 * is applied as it is).
 */
void sockconn_apply(struct sockconn *c);

/* The interval is reported: counts to 0, closed sockets gone a tick later. */
void sockconn_end_interval(struct sockconn *c);

#endif
