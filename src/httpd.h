/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_HTTPD_H
#define KTOP_HTTPD_H

/*
 * The exporter's HTTP server: libmicrohttpd in its epoll mode, driven by the
 * caller's one poll() loop. No thread: every callback (the render) runs inside
 * httpd_run(), on the caller's thread.
 *
 * Each loop iteration:
 *
 *	fds[n] = (struct pollfd){ httpd_fd(h), POLLIN, 0 };
 *	timeout = min(own timeout, httpd_timeout_ms(h))   (-1: no limit from httpd)
 *	poll(fds, ..., timeout);
 *	httpd_run(h);          (always after poll returns: cheap when idle)
 *	... after the model is refreshed: httpd_invalidate(h);
 *
 * Served: GET and HEAD of /metrics (render callback; OpenMetrics 1.0.0 when the
 * Accept header prefers application/openmetrics-text, else the text format
 * 0.0.4; gzip when Accept-Encoding takes it) and of / (a tiny page linking
 * /metrics). With httpd_set_security: TLS, a client certificate (403
 * without), basic auth (401 without; a password not judged before waits,
 * suspended, for its turn of a bcrypt check, 429 after 10 s). Other paths: 404; other
 * methods: 405; a request with a body: 413; headers past the per-connection
 * memory: 431 (libmicrohttpd); over the in-flight budget: 503.
 *
 * Bounds: at most conn_limit connections, per_ip_limit from one address: a
 * connection past either share closes the oldest one (of its address, or of
 * all) that is not being answered, or itself when all are. A request head
 * must be complete within head_timeout_s of the accept (or of the previous
 * response on the connection), however slowly it trickles in (slowloris);
 * a connection is idle at most timeout_s, each with at
 * most conn_memory bytes for its request. A response is rendered at most once
 * per format between two httpd_invalidate() calls and shared by the clients of
 * that model state (so a flood of scrapes costs one render per refresh), and
 * the bodies still held by slow readers total at most max_inflight bytes.
 * libmicrohttpd accepts at most 10 connections per httpd_run().
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct httpd;

enum httpd_format {
	HTTPD_TEXT,		/* text/plain; version=0.0.4 */
	HTTPD_OPENMETRICS,	/* application/openmetrics-text; version=1.0.0 */
};

/*
 * Fills *@body and *@len with the exposition in @fmt. The body stays owned by
 * the callee and needs to stay valid only until the callback returns (httpd
 * copies it). Returns 0, or a negative errno (the client gets a 500).
 */
typedef int (*httpd_render_fn)(void *ctx, enum httpd_format fmt, const char **body,
			       size_t *len);

/* Limits; a 0 field takes the default shown. */
struct httpd_limits {
	unsigned conn_limit;	/* 64 connections */
	unsigned per_ip_limit;	/* 8 connections from one address */
	unsigned timeout_s;	/* 10 s idle, then the connection is closed */
	size_t conn_memory;	/* 16 KiB per connection (request line + headers) */
	size_t max_inflight;	/* 64 MiB of bodies held for clients */
	double head_timeout_s;	/* 10 s for a whole request head, from the accept */
};

/* What the server did, for ktop's health metrics. */
struct httpd_stats {
	uint64_t requests;	/* answered, any status */
	uint64_t scrapes;	/* 200s of /metrics (GET and HEAD) */
	uint64_t renders;	/* calls of the render callback */
	uint64_t render_errors;	/* render callbacks that failed (500) */
	uint64_t not_found, not_allowed, refused;	/* 404, 405, 413 */
	uint64_t busy;		/* 503: over the in-flight budget */
	uint64_t unauthorized;	/* 401: basic auth missing or wrong */
	uint64_t forbidden;	/* 403: no client certificate of the CA */
	uint64_t auth_throttled;	/* 429: waited too long for a bcrypt check */
	uint64_t auth_waits;	/* requests that waited in the line for a bcrypt check */
	uint64_t bcrypts;	/* passwords checked with bcrypt (not remembered) */
	uint64_t head_timeouts;	/* closed: no complete request head in head_timeout_s */
	uint64_t evicted;	/* closed to make room for a newer connection */
	double last_scrape_s;	/* handling time of the last /metrics (render + copy) */
	double scrape_s_total;	/* summed over all /metrics */
	uint64_t gzips;		/* pages compressed (once per model state and format) */
	double gzip_cpu_s;	/* CPU time they took (KTOP_STATS) */
	unsigned connections;	/* open now */
	size_t inflight;	/* body bytes held now */
};

/*
 * Parse @spec, "[ADDR:]PORT": "PORT" and ":PORT" are 127.0.0.1; ADDR is a
 * numeric IPv4 address or a bracketed IPv6 one ("[::1]:9469"); PORT 0-65535 (0:
 * the kernel picks one, see httpd_port()). Returns 0, or -EINVAL with a
 * one-line reason in @err.
 */
int httpd_parse_listen(const char *spec, struct sockaddr_storage *addr, socklen_t *addrlen,
		       char *err, size_t errlen);

/*
 * Bind @spec ([ADDR:]PORT; "fd:N": the listening socket N, as systemd passes
 * it), listen and start the daemon; *@out is the server, to free with
 * httpd_stop(). @lim may be NULL (defaults). Returns 0, or with a one-line
 * reason in @err: -EINVAL for a bad @spec (a usage error: exit 2), another
 * negative errno when the address cannot be served (-EADDRINUSE, -EACCES,
 * -EADDRNOTAVAIL, ...: exit 1).
 */
int httpd_start(const char *spec, const struct httpd_limits *lim, httpd_render_fn render,
		void *ctx, struct httpd **out, char *err, size_t errlen);

/* A user of basic auth and the bcrypt hash of its password. */
struct httpd_user {
	const char *name, *hash;
};

/* --web-config's part: TLS (PEM text) and who may scrape. */
struct httpd_security {
	const char *cert_pem, *key_pem;	/* NULL: plain HTTP */
	const char *trust_pem;		/* CAs of client certificates; NULL: none asked */
	bool cert_required;		/* a request without one is refused (403) */
	bool cert_verified;		/* one given must verify against trust_pem */
	const struct httpd_user *users;	/* basic auth; none: anyone may scrape */
	size_t nusers;
};

/*
 * Serve as @sec says from now on (copied). A change of TLS restarts
 * libmicrohttpd on the same socket (open connections close; the port and
 * httpd_fd() stay); if that fails, the server before serves on. Returns 0 or
 * a negative errno with the reason in @err.
 */
int httpd_set_security(struct httpd *h, const struct httpd_security *sec, char *err,
		       size_t errlen);

/* The fd to poll for POLLIN (an epoll fd: stays the same for the server's life). */
int httpd_fd(const struct httpd *h);
/* The longest the caller's poll may wait before httpd_run(), in ms; -1: any. */
int httpd_timeout_ms(struct httpd *h);
/* Do what is ready (accept, read, answer, time out); never blocks. */
void httpd_run(struct httpd *h);
/* The model changed: the next scrape of each format renders anew. */
void httpd_invalidate(struct httpd *h);
/* The port bound (the one the kernel chose for port 0). */
unsigned httpd_port(const struct httpd *h);
void httpd_get_stats(const struct httpd *h, struct httpd_stats *st);
/* Close every connection and the socket; free @h (NULL is fine). */
void httpd_stop(struct httpd *h);

/* Whether an Accept-Encoding header takes gzip (NULL: no). */
bool httpd_accepts_gzip(const char *accept_encoding);
/* Which format an Accept header asks for (NULL: the text format). */
enum httpd_format httpd_negotiate(const char *accept);

#endif
