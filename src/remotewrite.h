/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_REMOTEWRITE_H
#define KTOP_REMOTEWRITE_H

/*
 * --remote-write: the metrics pushed to receivers (Prometheus, Mimir,
 * VictoriaMetrics, ...) with remote write 1.0 (outputs/rwproto.h), over
 * libcurl's multi interface driven by the caller's one poll() loop: no
 * thread, and nothing here ever waits (name resolution is libcurl's own
 * thread; connecting, TLS and sending are non-blocking).
 *
 *	fds[n] = (struct pollfd){ rw_fd(w), POLLIN, 0 };
 *	timeout = min(own timeout, rw_timeout_ms(w))   (-1: no limit from rw)
 *	poll(fds, ..., timeout);
 *	rw_run(w);                       (always after poll returns: cheap when idle)
 *	... after each tick, the metrics rendered to a prom_out (promtext.h):
 *	rw_push_begin(w, the tick's time, &o); r = metrics_emit(mx, h, &o); rw_push_end(w, r);
 *
 * Each receiver has its queue of bodies (one per tick, in order: a series'
 * samples must arrive in time order) and one request in flight. A 2xx
 * takes the body off the queue; a 5xx, a 429 or a network error keeps it and
 * retries after a backoff (0.2 s doubling to 5 s), or after the receiver's
 * Retry-After when longer (at most 300 s); any other status drops it
 * (said once: a receiver that refuses will refuse again). Past queue_max
 * bytes, the oldest bodies not in flight are dropped, and counted.
 */

#include <stddef.h>
#include <stdint.h>

#include "../outputs/rwproto.h"

struct remote_write;

struct rw_config {
	const char *const *urls;
	size_t nurls;
	const char *const *headers;	/* "Name: value" */
	size_t nheaders;
	const struct rw_label *labels;	/* external labels */
	size_t nlabels;
	size_t queue_max;		/* bytes per receiver; 0: 64 MiB */
	const char *user, *password_file;	/* basic auth */
	const char *token_file;		/* Authorization: Bearer, read at each request */
	const char *ca_file;		/* the receivers' CA; NULL: the system's */
	/* Says what went wrong, once per kind until it works again. */
	void (*say)(void *ctx, const char *msg);
	void *ctx;
};

struct rw_stats {
	uint64_t samples_sent;		/* accepted by a receiver (2xx) */
	uint64_t samples_dropped;	/* past the queue, or refused (4xx) */
	uint64_t requests, retries;
	size_t queue_bytes;		/* held now, every receiver */
};

/* NULL with a reason in @err. */
struct remote_write *rw_new(const struct rw_config *c, char *err, size_t errlen);
/*
 * This tick's push, its samples at @ts_ms: sets @o's sample encoder (its text
 * is the caller's, and may be rendered in the same pass). After the samples,
 * rw_push_end with the rendering's result: the body is queued for every
 * receiver, unless the rendering or the encoding failed (said; not queued).
 */
void rw_push_begin(struct remote_write *w, int64_t ts_ms, struct prom_out *o);
void rw_push_end(struct remote_write *w, int render_err);
int rw_fd(const struct remote_write *w);
int rw_timeout_ms(const struct remote_write *w);
void rw_run(struct remote_write *w);
void rw_get_stats(const struct remote_write *w, struct rw_stats *st);
/* At exit: up to @secs to send what is queued, then free (NULL is fine). */
void rw_free(struct remote_write *w, double secs);

#endif
