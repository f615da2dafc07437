// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of src/httpd.c: --listen parsing and errors, content negotiation,
 * and a real server on 127.0.0.1 and a free port, driven by this test's own
 * poll loop as ktop's main loop drives it, with non-blocking clients in the
 * same process: status codes, content types, the render cache, a huge
 * request, a slow client, floods of connections (the loop must never block,
 * connections and memory must stay bounded) and slow readers of big bodies.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../collectors/clocks.h"
#include "../../src/httpd.h"
#include "test.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- parsing ---- */

static void test_parse_listen(void)
{
	static const struct {
		const char *spec;
		int family;
		const char *addr;
		unsigned port;
	} good[] = {
		{ "9469", AF_INET, "127.0.0.1", 9469 },
		{ ":9469", AF_INET, "127.0.0.1", 9469 },
		{ "0.0.0.0:9469", AF_INET, "0.0.0.0", 9469 },
		{ "10.1.2.3:1", AF_INET, "10.1.2.3", 1 },
		{ "127.0.0.1:0", AF_INET, "127.0.0.1", 0 },
		{ "[::1]:9469", AF_INET6, "::1", 9469 },
		{ "[::]:65535", AF_INET6, "::", 65535 },
		{ "[::ffff:127.0.0.1]:80", AF_INET6, "::ffff:127.0.0.1", 80 },
	};
	static const char *const bad[] = {
		"", ":", "abc", "localhost:9469", "1.2.3:80", "1.2.3.4.5:80", "256.0.0.1:80",
		"::1:9469", "[::1]9469", "[::1]:", "[::1", "[]:80", "[1.2.3.4]:80",
		"[fe80::1%eth0]:80", ":65536", ":-1", ":+80", ":80x", ": 80", "1.2.3.4:",
		":999999", "0x7f.1:80", "127.0.0.1:80:80",
	};
	struct sockaddr_storage ss;
	socklen_t len;
	char err[200], addr[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		int r = httpd_parse_listen(good[i].spec, &ss, &len, err, sizeof(err));

		if (!CHECK_EQ_I64(r, 0)) {
			printf("# %s: %s\n", good[i].spec, err);
			continue;
		}
		CHECK_EQ_I64(ss.ss_family, good[i].family);
		if (ss.ss_family == AF_INET) {
			struct sockaddr_in *a = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &a->sin_addr, addr, sizeof(addr));
			CHECK_EQ_U64(ntohs(a->sin_port), good[i].port);
			CHECK_EQ_U64(len, sizeof(*a));
		} else {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &a->sin6_addr, addr, sizeof(addr));
			CHECK_EQ_U64(ntohs(a->sin6_port), good[i].port);
			CHECK_EQ_U64(len, sizeof(*a));
		}
		CHECK_STR(addr, good[i].addr);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		if (!CHECK_EQ_I64(httpd_parse_listen(bad[i], &ss, &len, err, sizeof(err)), -EINVAL))
			printf("# accepted: '%s'\n", bad[i]);
		/* one line, naming what was given */
		CHECK(err[0] && !strchr(err, '\n'));
	}
	CHECK_EQ_I64(httpd_parse_listen(NULL, &ss, &len, err, sizeof(err)), -EINVAL);
}

static void test_negotiate(void)
{
	static const struct {
		const char *accept;
		enum httpd_format want;
	} cases[] = {
		{ NULL, HTTPD_TEXT },
		{ "", HTTPD_TEXT },
		/* Prometheus 2.42's scrape header */
		{ "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
		  "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
		  HTTPD_OPENMETRICS },
		{ "application/openmetrics-text", HTTPD_OPENMETRICS },
		{ "application/openmetrics-text; version=1.0.0; charset=utf-8", HTTPD_OPENMETRICS },
		{ "APPLICATION/OpenMetrics-Text;Version=\"1.0.0\"", HTTPD_OPENMETRICS },
		{ "application/*", HTTPD_OPENMETRICS },
		{ "text/plain", HTTPD_TEXT },
		{ "text/plain;version=0.0.4", HTTPD_TEXT },
		{ "*/*", HTTPD_TEXT },
		{ "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", HTTPD_TEXT },
		{ "application/openmetrics-text;version=0.0.1", HTTPD_TEXT },
		{ "application/openmetrics-text;version=2.0.0,text/plain", HTTPD_TEXT },
		{ "application/openmetrics-text;q=0.3, text/plain;q=0.5", HTTPD_TEXT },
		{ "application/openmetrics-text;q=0.5, text/plain;q=0.5", HTTPD_OPENMETRICS },
		{ "text/plain;q=0.2, application/openmetrics-text;q=0.9", HTTPD_OPENMETRICS },
		{ "application/openmetrics-text;q=0", HTTPD_TEXT },
		{ "application/openmetrics-text;q=0.000, */*", HTTPD_TEXT },
		{ "application/openmetrics-text;q=2", HTTPD_OPENMETRICS },	/* bad q: 1 */
		{ ",,;;;==,;q=,application/openmetrics-text", HTTPD_OPENMETRICS },
		{ ";;;,,,", HTTPD_TEXT },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!CHECK_EQ_I64(httpd_negotiate(cases[i].accept), cases[i].want))
			printf("# Accept: %s\n", cases[i].accept ? cases[i].accept : "(none)");
}

/* ---- a server and its clients ---- */

static char big_body[8 << 20];

struct ctx {
	unsigned renders;
	size_t size;		/* 0: a small body naming the format and render */
	int fail;
	char small[128];
};

static int render_cb(void *vctx, enum httpd_format fmt, const char **body, size_t *len)
{
	struct ctx *c = vctx;

	c->renders++;
	if (c->fail)
		return c->fail;
	if (c->size) {
		*body = big_body;
		*len = c->size;
		return 0;
	}
	snprintf(c->small, sizeof(c->small), "%s render %u\n",
		 fmt == HTTPD_OPENMETRICS ? "openmetrics" : "text", c->renders);
	*body = c->small;
	*len = strlen(c->small);
	return 0;
}

/*
 * The loop's record: the longest httpd_run(), in this thread's CPU time: the
 * work one call does, which a loaded machine's preemptions do not lengthen
 * (104.6 ms of wall time beside stress-ng, under ASan and nice).
 */
static double max_run_s;

static double cpu_now(void)
{
	return (double)clocks_thread_cpu_ns() / 1e9;
}

/* One iteration of a main loop: poll the server's fd (and @fds) then run it. */
static void loop_once(struct httpd *h, struct pollfd *fds, size_t nfds, int max_ms)
{
	struct pollfd pf[64];
	int tmo = httpd_timeout_ms(h);
	double t0;
	size_t i;

	if (tmo < 0 || tmo > max_ms)
		tmo = max_ms;
	pf[0] = (struct pollfd){ httpd_fd(h), POLLIN, 0 };
	for (i = 0; i < nfds && i < 63; i++)
		pf[i + 1] = fds[i];
	poll(pf, i + 1, tmo);
	for (i = 0; i < nfds && i < 63; i++)
		fds[i].revents = pf[i + 1].revents;
	t0 = cpu_now();
	httpd_run(h);
	t0 = cpu_now() - t0;
	if (t0 > max_run_s)
		max_run_s = t0;
}

static void loop_for(struct httpd *h, double seconds)
{
	double end = now() + seconds;

	while (now() < end)
		loop_once(h, NULL, 0, 20);
}

/*
 * A non-blocking TCP connection from @src (NULL: any) to 127.0.0.1:@port,
 * with a receive buffer of @rcvbuf bytes (0: the kernel's autotuning).
 */
static int client_connect_buf(const char *src, unsigned port, int rcvbuf)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	/* Before connect, or the window is already scaled. */
	if (rcvbuf)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (src) {
		struct sockaddr_in s = { .sin_family = AF_INET };

		inet_pton(AF_INET, src, &s.sin_addr);
		if (bind(fd, (struct sockaddr *)&s, sizeof(s))) {
			close(fd);
			return -1;
		}
	}
	a.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) && errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

static int client_connect(const char *src, unsigned port)
{
	return client_connect_buf(src, port, 0);
}

struct reply {
	int status;		/* 0: none (closed or timed out first) */
	char *raw;		/* headers and body, NUL-terminated */
	size_t len;
	bool closed;		/* the server closed the connection */
};

static void reply_free(struct reply *r)
{
	free(r->raw);
	memset(r, 0, sizeof(*r));
}

/* A header's value in @r (case-insensitive name), copied into @out. */
static bool header(const struct reply *r, const char *name, char *out, size_t size)
{
	const char *p = r->raw, *end = r->raw ? strstr(r->raw, "\r\n\r\n") : NULL;
	size_t n = strlen(name);

	while (p && end && (p = strstr(p, "\r\n")) && p < end) {
		p += 2;
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			size_t k = strcspn(p + n + 1, "\r");
			const char *v = p + n + 1;

			while (*v == ' ')
				v++, k--;
			snprintf(out, size, "%.*s", (int)k, v);
			return true;
		}
	}
	return false;
}

static const char *body_of(const struct reply *r)
{
	const char *p = r->raw ? strstr(r->raw, "\r\n\r\n") : NULL;

	return p ? p + 4 : "";
}

/*
 * Send @req (@len bytes) on a new connection from @src and read until the
 * server closes it or @secs pass, running the server meanwhile.
 */
static struct reply fetch_from(struct httpd *h, const char *src, const char *req, size_t len,
			       double secs)
{
	struct reply r = { 0 };
	size_t sent = 0, cap = 0;
	double end = now() + secs;
	int fd = client_connect(src, httpd_port(h));

	if (!CHECK(fd >= 0))
		return r;
	while (now() < end) {
		struct pollfd pf = { fd, POLLIN | (sent < len ? POLLOUT : 0), 0 };
		ssize_t n;

		loop_once(h, &pf, 1, 20);
		if (sent < len && (pf.revents & POLLOUT)) {
			n = send(fd, req + sent, len - sent, MSG_NOSIGNAL);
			if (n > 0)
				sent += (size_t)n;
			else if (n < 0 && errno != EAGAIN)
				sent = len;	/* refused: read what came back */
		}
		if (!(pf.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if (r.len + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 1 << 17;
			r.raw = realloc(r.raw, cap);
			if (!r.raw)
				abort();
		}
		n = recv(fd, r.raw + r.len, cap - r.len - 1, 0);
		if (n > 0) {
			r.len += (size_t)n;
			r.raw[r.len] = '\0';
		} else if (n == 0 || errno != EAGAIN) {
			r.closed = true;
			break;
		}
	}
	close(fd);
	if (r.raw && !strncmp(r.raw, "HTTP/1.", 7))
		r.status = atoi(r.raw + 9);
	return r;
}

static struct reply fetch(struct httpd *h, const char *req)
{
	return fetch_from(h, NULL, req, strlen(req), 3);
}

#define GET(path, extra) "GET " path " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" extra "\r\n"
/* Two requests at once on one kept-alive connection. */
#define GET_KA "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"

static struct httpd *start(struct ctx *c, const struct httpd_limits *lim)
{
	struct httpd *h = NULL;
	char err[256];
	int r = httpd_start("127.0.0.1:0", lim, render_cb, c, &h, err, sizeof(err));

	if (!CHECK_EQ_I64(r, 0))
		printf("# httpd_start: %s\n", err);
	return r ? NULL : h;
}

static void test_start_errors(void)
{
	struct ctx c = { 0 };
	struct httpd *h = NULL, *h2 = NULL;
	char err[256], spec[32];
	int r;

	/* A bad address: -EINVAL (the caller exits 2), nothing bound. */
	r = httpd_start("localhost:9469", NULL, render_cb, &c, &h, err, sizeof(err));
	CHECK_EQ_I64(r, -EINVAL);
	CHECK(h == NULL);
	/* A port in use: another error (exit 1), one line naming it. */
	h = start(&c, NULL);
	if (!h)
		return;
	snprintf(spec, sizeof(spec), ":%u", httpd_port(h));
	r = httpd_start(spec, NULL, render_cb, &c, &h2, err, sizeof(err));
	CHECK_EQ_I64(r, -EADDRINUSE);
	CHECK(h2 == NULL);
	CHECK(strstr(err, spec) && strstr(err, "in use") && !strchr(err, '\n'));
	printf("# %s\n", err);
	httpd_stop(h);
	/* An address of no interface here (TEST-NET-1): not a usage error. */
	r = httpd_start("192.0.2.1:0", NULL, render_cb, &c, &h2, err, sizeof(err));
	CHECK_EQ_I64(r, -EADDRNOTAVAIL);
	printf("# %s\n", err);
	/* IPv6 loopback, when this host has it. */
	r = httpd_start("[::1]:0", NULL, render_cb, &c, &h2, err, sizeof(err));
	if (r == 0) {
		CHECK(httpd_port(h2) > 0);
		httpd_stop(h2);
	} else {
		printf("# [::1]: %s\n", err);
		CHECK_EQ_I64(r, -EADDRNOTAVAIL);
	}
	httpd_stop(NULL);
}

static void test_requests(void)
{
	struct ctx c = { 0 };
	struct httpd *h = start(&c, NULL);
	struct httpd_stats st;
	struct reply r;
	char v[128];

	if (!h)
		return;
	/* The text format by default. */
	r = fetch(h, GET("/metrics", ""));
	CHECK_EQ_I64(r.status, 200);
	CHECK(header(&r, "Content-Type", v, sizeof(v)));
	CHECK_STR(v, "text/plain; version=0.0.4; charset=utf-8");
	CHECK_STR(body_of(&r), "text render 1\n");
	reply_free(&r);
	/* OpenMetrics when Prometheus asks for it. */
	r = fetch(h, GET("/metrics", "Accept: application/openmetrics-text;version=1.0.0,"
			 "text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n"));
	CHECK_EQ_I64(r.status, 200);
	CHECK(header(&r, "Content-Type", v, sizeof(v)));
	CHECK_STR(v, "application/openmetrics-text; version=1.0.0; charset=utf-8");
	CHECK_STR(body_of(&r), "openmetrics render 2\n");
	reply_free(&r);
	/* Same model state: both formats come from the cache, not a new render. */
	r = fetch(h, GET("/metrics", ""));
	CHECK_STR(body_of(&r), "text render 1\n");
	reply_free(&r);
	CHECK_EQ_U64(c.renders, 2);
	httpd_invalidate(h);
	r = fetch(h, GET("/metrics", ""));
	CHECK_STR(body_of(&r), "text render 3\n");
	reply_free(&r);
	/* HEAD: the headers, Content-Length of the body, no body. */
	r = fetch(h, "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	CHECK_EQ_I64(r.status, 200);
	CHECK(header(&r, "Content-Length", v, sizeof(v)));
	CHECK_STR(v, "14");
	CHECK_STR(body_of(&r), "");
	reply_free(&r);
	/* HTTP/1.0, no Host */
	r = fetch(h, "GET /metrics HTTP/1.0\r\n\r\n");
	CHECK_EQ_I64(r.status, 200);
	reply_free(&r);
	/* The index page links /metrics. */
	r = fetch(h, GET("/", ""));
	CHECK_EQ_I64(r.status, 200);
	CHECK(strstr(body_of(&r), "href=\"/metrics\""));
	reply_free(&r);
	/* Other paths, query strings aside. */
	r = fetch(h, GET("/metricsx", ""));
	CHECK_EQ_I64(r.status, 404);
	reply_free(&r);
	r = fetch(h, GET("/metrics/", ""));
	CHECK_EQ_I64(r.status, 404);
	reply_free(&r);
	r = fetch(h, GET("/../etc/passwd", ""));
	CHECK_EQ_I64(r.status, 404);
	reply_free(&r);
	r = fetch(h, GET("/metrics?x=1", ""));
	CHECK_EQ_I64(r.status, 200);
	reply_free(&r);
	/* Other methods: 405 with Allow. */
	r = fetch(h, "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc");
	CHECK_EQ_I64(r.status, 405);
	CHECK(header(&r, "Allow", v, sizeof(v)));
	CHECK_STR(v, "GET, HEAD");
	reply_free(&r);
	r = fetch(h, "DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
	CHECK_EQ_I64(r.status, 405);
	reply_free(&r);
	/* A GET with a body is refused, and the connection closed. */
	r = fetch(h, "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
	CHECK_EQ_I64(r.status, 413);
	CHECK(r.closed);
	reply_free(&r);
	r = fetch(h, "GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
		     "5\r\nhello\r\n0\r\n\r\n");
	CHECK_EQ_I64(r.status, 413);
	reply_free(&r);
	/* Garbage is answered 400 (libmicrohttpd) and closed. */
	r = fetch(h, "\x16\x03\x01\x02\x01\xfc\x03\x03 not http\r\n\r\n");
	if (!CHECK(r.status == 400 || (r.status == 0 && r.closed)))
		printf("# garbage: status %d closed %d: %.60s\n", r.status, r.closed, r.raw ? r.raw : "");
	reply_free(&r);
	/* A failing render: 500, and the next scrape renders again. */
	httpd_invalidate(h);
	c.fail = -EIO;
	r = fetch(h, GET("/metrics", ""));
	CHECK_EQ_I64(r.status, 500);
	reply_free(&r);
	c.fail = 0;
	r = fetch(h, GET("/metrics", ""));
	CHECK_EQ_I64(r.status, 200);
	reply_free(&r);
	httpd_get_stats(h, &st);
	CHECK_EQ_U64(st.scrapes, 8);
	CHECK_EQ_U64(st.render_errors, 1);
	CHECK_EQ_U64(st.not_found, 3);
	CHECK_EQ_U64(st.not_allowed, 2);
	CHECK_EQ_U64(st.refused, 2);
	CHECK(st.last_scrape_s >= 0 && st.last_scrape_s < 0.1);
	CHECK(st.scrape_s_total >= st.last_scrape_s);
	httpd_stop(h);
}

/* Keep-alive: two requests on one connection (as Prometheus scrapes). */
static void test_keepalive(void)
{
	static const char req[] = GET_KA;
	struct ctx c = { 0 };
	struct httpd *h = start(&c, NULL);
	struct reply r;

	if (!h)
		return;
	r = fetch_from(h, NULL, req, sizeof(req) - 1, 1.5);
	/* both answers on the one connection, which stays open until the timeout */
	CHECK_EQ_I64(r.status, 200);
	if (!CHECK(r.raw && strstr(r.raw, "text render 1") &&
		   strstr(strstr(r.raw, "text render 1"), "HTTP/1.1 200")))
		printf("# keep-alive: %s\n", r.raw ? r.raw : "(nothing)");
	reply_free(&r);
	httpd_stop(h);
}

/* A request larger than a connection's memory: refused, closed, nothing kept. */
static void test_huge_request(void)
{
	struct httpd_limits lim = { .conn_memory = 16 * 1024 };
	struct ctx c = { 0 };
	struct httpd *h = start(&c, &lim);
	size_t n = 1 << 20, k;
	char *req = malloc(n + 64);
	struct reply r;

	if (!h || !req) {
		free(req);
		httpd_stop(h);
		return;
	}
	/* One header line of a megabyte. */
	k = (size_t)sprintf(req, "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ");
	memset(req + k, 'a', n);
	k += n;
	k += (size_t)sprintf(req + k, "\r\n\r\n");
	r = fetch_from(h, NULL, req, k, 3);
	CHECK(r.closed);
	CHECK(r.status == 431 || r.status == 413 || r.status == 400 || r.status == 0);
	printf("# a 1 MiB header: status %d\n", r.status);
	reply_free(&r);
	/* A request line (URL) of 64 KiB */
	n = 64 * 1024;
	k = (size_t)sprintf(req, "GET /");
	memset(req + k, 'a', n);
	k += n;
	k += (size_t)sprintf(req + k, " HTTP/1.1\r\nHost: x\r\n\r\n");
	r = fetch_from(h, NULL, req, k, 3);
	CHECK(r.closed);
	CHECK(r.status >= 400 || r.status == 0);
	printf("# a 64 KiB URL: status %d\n", r.status);
	reply_free(&r);
	CHECK_EQ_U64(c.renders, 0);
	free(req);
	httpd_stop(h);
}

/* A client that sends half a request and waits: closed after the timeout. */
static void test_slow_client(void)
{
	struct httpd_limits lim = { .timeout_s = 1 };
	struct ctx c = { 0 };
	struct httpd *h = start(&c, &lim);
	struct httpd_stats st;
	double t0, took = -1;
	char buf[256];
	int fd;

	if (!h)
		return;
	fd = client_connect(NULL, httpd_port(h));
	if (!CHECK(fd >= 0)) {
		httpd_stop(h);
		return;
	}
	loop_for(h, 0.1);
	CHECK(send(fd, "GET /metr", 9, MSG_NOSIGNAL) == 9);
	t0 = now();
	max_run_s = 0;
	while (now() - t0 < 4) {
		struct pollfd pf = { fd, POLLIN, 0 };
		ssize_t n;

		loop_once(h, &pf, 1, 50);
		if (!(pf.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n == 0 || (n < 0 && errno != EAGAIN)) {
			took = now() - t0;
			break;
		}
	}
	close(fd);
	printf("# a half request was closed after %.2f s (timeout 1 s)\n", took);
	CHECK(took >= 0.9 && took < 2.5);
	httpd_get_stats(h, &st);
	CHECK_EQ_U64(st.connections, 0);
	CHECK(max_run_s < 0.05);
	httpd_stop(h);
}

static long rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * Floods: 5 addresses of 8 connections each (past the connection limit),
 * then 2,000 more from one address, all held open and silent. The loop never
 * blocks, the server never holds more than its limits, memory stays flat,
 * and once the idle ones time out a scraper from another address is answered
 * while the flood still holds its sockets.
 */
static void test_flood(void)
{
	enum { FLOOD = 2000, ADDRS = 5, PER_ADDR = 8 };
	struct httpd_limits lim = { .conn_limit = 32, .per_ip_limit = 8, .timeout_s = 2 };
	struct ctx c = { 0 };
	struct httpd *h;
	struct httpd_stats st;
	struct rlimit rl;
	int *fds;
	const char *env = getenv("KTOP_TEST_FLOOD");	/* another count, by hand */
	size_t i, opened = 0, want = env ? (size_t)atol(env) : FLOOD;
	unsigned max_conn = 0, at_limit;
	long rss0, rss1;
	double t0, took;
	int sfd, status = 0;

	/* ~2,100 descriptors, server side included */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < want + 512) {
		rl.rlim_cur = rl.rlim_max < want + 512 ? rl.rlim_max : want + 512;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
		if (rl.rlim_cur < 600) {
			TEST_SKIP("RLIMIT_NOFILE is too low for a flood of connections");
			return;
		}
		if (rl.rlim_cur < want + 512)
			want = rl.rlim_cur - 512;
	}
	fds = calloc(want + ADDRS * PER_ADDR, sizeof(*fds));
	h = fds ? start(&c, &lim) : NULL;
	if (!h) {
		free(fds);
		return;
	}
	loop_for(h, 0.05);
	rss0 = rss_kib();
	max_run_s = 0;
	for (i = 0; i < ADDRS * PER_ADDR; i++) {
		char src[32];
		int fd;

		snprintf(src, sizeof(src), "127.0.1.%zu", 1 + i / PER_ADDR);
		fd = client_connect(src, httpd_port(h));
		if (fd >= 0)
			fds[opened++] = fd;
	}
	t0 = now();
	do {
		loop_once(h, NULL, 0, 10);
		httpd_get_stats(h, &st);
	} while (st.connections < lim.conn_limit && now() - t0 < 1);
	at_limit = st.connections;
	/*
	 * A scraper from elsewhere comes now: the kernel completes its
	 * connection (in the listen backlog) and takes its request; the server,
	 * full, is not accepting it.
	 */
	sfd = client_connect("127.0.0.2", httpd_port(h));
	CHECK(sfd >= 0);
	t0 = now();
	while (now() - t0 < 1) {
		struct pollfd pf = { sfd, POLLOUT, 0 };

		loop_once(h, &pf, 1, 10);
		if (pf.revents & POLLOUT) {
			CHECK(send(sfd, GET("/metrics", ""), strlen(GET("/metrics", "")),
				   MSG_NOSIGNAL) > 0);
			break;
		}
	}
	/* The flood, from 127.0.0.1. */
	t0 = now();
	for (i = 0; i < want; i++) {
		int fd = client_connect(NULL, httpd_port(h));

		if (fd < 0)
			break;
		fds[opened++] = fd;
		if (i % 50 == 0)
			loop_once(h, NULL, 0, 0);
	}
	CHECK(opened >= want);
	/*
	 * Run the loop, watching the connection count, until the scraper has
	 * its answer: once the idle ones time out (2 s).
	 */
	took = -1;
	while (now() - t0 < 8) {
		struct pollfd pf = { sfd, POLLIN, 0 };
		char buf[4096];
		ssize_t n;

		loop_once(h, &pf, 1, 10);
		httpd_get_stats(h, &st);
		if (st.connections > max_conn)
			max_conn = st.connections;
		if (!(pf.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = recv(sfd, buf, sizeof(buf) - 1, 0);
		if (n > 12 && !status) {
			buf[n] = '\0';
			status = atoi(buf + 9);
		}
		if (n == 0 || (n < 0 && errno != EAGAIN)) {
			took = now() - t0;
			break;
		}
	}
	close(sfd);
	rss1 = rss_kib();
	printf("# flood: %zu connections held; server at most %u open (limit %u, reached: %u); "
	       "longest httpd_run %.1f ms of CPU; RSS %+ld KiB; the waiting scraper: %d after %.1f s\n",
	       opened, max_conn, lim.conn_limit, at_limit, max_run_s * 1e3, rss1 - rss0,
	       status, took);
	CHECK_EQ_I64(status, 200);
	CHECK(took > 0 && took < 4);
	/* One over the limit at most: the newcomer that makes room (make_room). */
	CHECK(at_limit >= lim.conn_limit && at_limit <= lim.conn_limit + 1);
	CHECK(max_conn <= lim.conn_limit + 1);
	CHECK(max_run_s < 0.1);
	CHECK(rss1 - rss0 < 16 * 1024);
	for (i = 0; i < opened; i++)
		close(fds[i]);
	/* Everything closed or timed out: back to no connection. */
	t0 = now();
	do {
		loop_once(h, NULL, 0, 50);
		httpd_get_stats(h, &st);
	} while (st.connections && now() - t0 < 5);
	CHECK_EQ_U64(st.connections, 0);
	httpd_stop(h);
	free(fds);
}

/*
 * Slow readers of big bodies: each model state's body is held until its
 * readers are done; past max_inflight, scrapes get 503 instead of memory.
 */
static void test_inflight_budget(void)
{
	struct httpd_limits lim = { .max_inflight = 20 << 20, .timeout_s = 5 };
	struct ctx c = { .size = sizeof(big_body) };
	struct httpd *h = start(&c, &lim);
	struct httpd_stats st;
	int fds[4], status[4] = { 0 };
	size_t i;

	if (!h)
		return;
	memset(big_body, 'x', sizeof(big_body));
	for (i = 0; i < 4; i++) {
		char head[64];
		double t0 = now();
		int fd = client_connect_buf(NULL, httpd_port(h), 4096);

		fds[i] = fd;
		if (!CHECK(fd >= 0))
			continue;
		CHECK(send(fd, GET("/metrics", ""), strlen(GET("/metrics", "")), MSG_NOSIGNAL) > 0);
		/*
		 * Read only the status line, never the rest: a slow reader. (30 s:
		 * a hang guard; rendering 8 MiB took over 2 s beside stress-ng.)
		 */
		while (now() - t0 < 30) {
			struct pollfd pf = { fd, POLLIN, 0 };

			loop_once(h, &pf, 1, 20);
			if (pf.revents & POLLIN) {
				ssize_t n = recv(fd, head, 12, 0);

				if (n >= 12)
					status[i] = atoi(head + 9);
				break;
			}
		}
		/* The model moves on: the next scrape renders a new body. */
		httpd_invalidate(h);
	}
	httpd_get_stats(h, &st);
	printf("# 8 MiB bodies to readers that do not read: %d %d %d %d; %zu MiB held\n",
	       status[0], status[1], status[2], status[3], st.inflight >> 20);
	CHECK_EQ_I64(status[0], 200);
	CHECK_EQ_I64(status[1], 200);
	CHECK_EQ_I64(status[2], 503);
	CHECK(st.inflight <= lim.max_inflight);
	CHECK_EQ_U64(st.busy, 2);
	for (i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	loop_for(h, 0.2);
	httpd_get_stats(h, &st);
	CHECK_EQ_U64(st.inflight, 0);
	CHECK_EQ_U64(st.connections, 0);
	httpd_stop(h);
}

/*
 * Slowloris: per_ip_limit connections from one address, each trickling a
 * header line well within the idle timeout. Each is closed at the head
 * deadline however it trickles, and a scraper from the same address, past
 * the share, gets its answer at once: the oldest trickler makes room.
 */
static void test_slowloris(void)
{
	enum { N = 4 };
	struct httpd_limits lim = { .timeout_s = 10, .per_ip_limit = N, .head_timeout_s = 1.5 };
	struct ctx c = { 0 };
	struct httpd *h = start(&c, &lim);
	double t0, closed_at[N], last_line = 0;
	struct httpd_stats st;
	struct reply r;
	int fds[N];
	size_t i, nclosed = 0;

	if (!h)
		return;
	for (i = 0; i < N; i++) {
		fds[i] = client_connect("127.0.0.3", httpd_port(h));
		closed_at[i] = -1;
		CHECK(fds[i] >= 0);
	}
	loop_for(h, 0.1);
	for (i = 0; i < N; i++)
		CHECK(send(fds[i], "GET /metrics HTTP/1.1\r\n", 23, MSG_NOSIGNAL) == 23);
	/* The share is full: the scraper still gets its page, at once. */
	t0 = now();
	r = fetch_from(h, "127.0.0.3", GET("/metrics", ""), strlen(GET("/metrics", "")), 3);
	printf("# scraper beside %d tricklers from its address: %d after %.2f s\n", N, r.status,
	       now() - t0);
	CHECK_EQ_I64(r.status, 200);
	CHECK(now() - t0 < 1);
	reply_free(&r);
	/* The others trickle a line every 0.3 s: closed at the head deadline. */
	t0 = now();
	while (nclosed < N && now() - t0 < 5) {
		struct pollfd pf[N];

		for (i = 0; i < N; i++)
			pf[i] = (struct pollfd){ closed_at[i] < 0 ? fds[i] : -1, POLLIN, 0 };
		loop_once(h, pf, N, 20);
		for (i = 0; i < N; i++) {
			char buf[256];
			ssize_t n;

			if (closed_at[i] >= 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = recv(fds[i], buf, sizeof(buf), 0);
			if (n == 0 || (n < 0 && errno != EAGAIN)) {
				closed_at[i] = now() - t0;
				nclosed++;
			}
		}
		if (now() - last_line >= 0.3) {
			last_line = now();
			for (i = 0; i < N; i++)
				if (closed_at[i] < 0)
					send(fds[i], "X-A: b\r\n", 8, MSG_NOSIGNAL);
		}
	}
	httpd_get_stats(h, &st);
	printf("# tricklers closed after %.2f %.2f %.2f %.2f s (head deadline 1.5 s, idle 10 s); "
	       "%llu evicted, %llu past the deadline\n", closed_at[0], closed_at[1], closed_at[2],
	       closed_at[3], (unsigned long long)st.evicted, (unsigned long long)st.head_timeouts);
	CHECK_EQ_U64(nclosed, N);
	for (i = 0; i < N; i++)
		CHECK(closed_at[i] < 2.5);
	CHECK_EQ_U64(st.evicted, 1);
	CHECK_EQ_U64(st.head_timeouts, N - 1);
	for (i = 0; i < N; i++)
		close(fds[i]);
	loop_for(h, 0.1);
	httpd_get_stats(h, &st);
	CHECK_EQ_U64(st.connections, 0);
	httpd_stop(h);
}

static void test_accepts_gzip(void)
{
	static const struct {
		const char *ae;
		bool gz;
	} cases[] = {
		{ NULL, false }, { "", false }, { "gzip", true }, { "GZIP", true },
		{ "deflate, gzip;q=0.5", true }, { "gzip;q=0", false }, { "gzip; q=0.000", false },
		{ "*", true }, { "*;q=0", false }, { "gzip;q=0, *", false }, { "identity", false },
		{ "x-gzip", true }, { "br, deflate", false }, { "gzipx", false },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!CHECK_EQ_I64(httpd_accepts_gzip(cases[i].ae), cases[i].gz))
			printf("# '%s'\n", cases[i].ae ? cases[i].ae : "(none)");
}

static const struct test tests[] = {
	{ "accepts_gzip", test_accepts_gzip },
	{ "parse_listen", test_parse_listen },
	{ "negotiate", test_negotiate },
	{ "start_errors", test_start_errors },
	{ "requests", test_requests },
	{ "keepalive", test_keepalive },
	{ "huge_request", test_huge_request },
	{ "slow_client", test_slow_client },
	{ "flood", test_flood },
	{ "inflight_budget", test_inflight_budget },
	{ "slowloris", test_slowloris },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
