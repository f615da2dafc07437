/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CONNTABLE_H
#define KTOP_CONNTABLE_H

/*
 * tables/conntable: the Connections view's columns and cells, one row per
 * socket of the interval (struct sock_conn, the model's conns). The
 * system views' table (systable.c) reads its rows through these; the
 * process view lists a process's own with conntable_line. Pure.
 */

#include <stdbool.h>
#include <stddef.h>

#include "systable.h"

enum conn_col {
	CONN_PID, CONN_COMM, CONN_PROTO, CONN_LOCAL, CONN_REMOTE, CONN_STATE, CONN_BYTES,
	CONN_TX, CONN_RX, CONN_RETRANS, CONN_RESETS, CONN_AGE, CONN_OPENED, CONN_TX_TOTAL,
	CONN_RX_TOTAL, CONN_RETRANS_TOTAL, CONN_NCOLS
};

extern const struct av_col conn_cols[CONN_NCOLS];

/* Column @col of @c (a row of @m) as a number; false when it is not one or not known. */
bool conntable_num(const struct model *m, const struct sock_conn *c, int col, double *out);
/* Its text (the text columns), sanitized as systable_text's. Returns @buf. */
const char *conntable_text(const struct sock_conn *c, int col, char *buf, size_t n, int utf8);

/*
 * conntable_line - one line for the process view: protocol, local -> remote,
 * state, bytes sent and received this interval per second (@interval_s;
 * totals when 0). Returns @buf.
 */
const char *conntable_line(const struct sock_conn *c, double interval_s, char *buf, size_t n);

#endif
