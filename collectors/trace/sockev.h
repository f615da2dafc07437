/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SOCKEV_H
#define KTOP_SOCKEV_H

/*
 * collectors/trace/sockev: network bytes per thread from sock:sock_send_length and
 * sock:sock_recv_length (Linux 6.3+). The kernel fires them at the end of
 * sock_sendmsg and sock_recvmsg, in the calling task, once per call (not per
 * packet), with the socket's family and what the call returned: send(2),
 * write(2) on a socket, sendmsg, sendfile and splice to a socket, io_uring's
 * sends, and their receiving twins, every protocol.
 *
 * Counted: INET and INET6 sockets only (a UNIX socket's bytes are local IPC,
 * netlink's the kernel's talk), the bytes of calls that succeeded; a
 * receive with MSG_PEEK leaves the data queued and is not counted (the read
 * that takes it is).
 */

#include <stdbool.h>
#include <sys/types.h>

#include "evsums.h"

/* The socket families counted (<linux/socket.h>). */
#define SOCKEV_AF_INET	2
#define SOCKEV_AF_INET6	10
#define SOCKEV_MSG_PEEK	2

/*
 * sockev_bytes - one sock_send_length (@send) or sock_recv_length event of
 * thread @tid: @ret the call's result (bytes, or -errno), @flags the
 * receive's flags, @ts its time (the thread's life it is of: a tid is
 * reused, evlives.c). Adds to CNT_NET_TX or CNT_NET_RX.
 */
void sockev_bytes(struct evsums *a, pid_t tid, bool send, unsigned family, int ret, int flags,
		  uint64_t ts);

#endif
