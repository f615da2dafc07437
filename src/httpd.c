// SPDX-License-Identifier: GPL-2.0-only
#include "httpd.h"
#include "../model/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

enum {
	DEF_CONN_LIMIT = 64,
	DEF_PER_IP_LIMIT = 8,
	DEF_TIMEOUT_S = 10,
	DEF_CONN_MEMORY = 16 * 1024,
	LISTEN_BACKLOG = 128,
};
#define DEF_MAX_INFLIGHT ((size_t)64 << 20)

/*
 * A connection as ktop tracks it, beside libmicrohttpd: when its request head
 * must be complete, and where from, for the slowloris deadline and the
 * per-address share.
 */
struct hconn {
	struct MHD_Connection *c;
	int fd;
	struct sockaddr_storage addr;
	double since;		/* accepted, or its last response done */
	bool in_request;	/* a complete request head is being answered */
	bool doomed;		/* shut down: libmicrohttpd closes it */
};

/* A rendered body, shared by the connections that send it. */
struct body {
	struct httpd *h;
	size_t len;
	char data[];
};

struct httpd {
	struct MHD_Daemon *d;
	httpd_render_fn render;
	void *ctx;
	unsigned port;
	size_t max_inflight;
	/* This model state's rendered responses, one per format; NULL: not yet. */
	struct MHD_Response *cache[2];
	/* Fixed answers. */
	struct MHD_Response *r_index, *r_404, *r_405, *r_413, *r_500, *r_503;
	struct httpd_stats st;
	char lastlog[160];	/* libmicrohttpd's last message, never printed */
	/* Open connections, oldest first. */
	struct hconn **conns;
	size_t nconns;
	unsigned conn_limit, per_ip_limit;
	double head_timeout_s;
};

/* ---- --listen ---- */

static int parse_port(const char *s, unsigned *port)
{
	unsigned v = 0;
	const char *p;

	if (!*s || strlen(s) > 5)
		return -EINVAL;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (v > 65535)
		return -EINVAL;
	*port = v;
	return 0;
}

int httpd_parse_listen(const char *spec, struct sockaddr_storage *addr, socklen_t *addrlen,
		       char *err, size_t errlen)
{
	char host[INET6_ADDRSTRLEN + 8];
	const char *port_s, *colon;
	unsigned port;
	size_t n;

	memset(addr, 0, sizeof(*addr));
	if (!spec || !*spec)
		return err_set(err, errlen, -EINVAL, "--listen: empty address; use [ADDR:]PORT");
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)addr;

		if (!close || close[1] != ':')
			return err_set(err, errlen, -EINVAL,
				       "--listen '%s': an IPv6 address is written [ADDR]:PORT",
				       spec);
		n = (size_t)(close - spec - 1);
		if (n >= sizeof(host))
			goto bad_addr;
		memcpy(host, spec + 1, n);
		host[n] = '\0';
		port_s = close + 2;
		if (inet_pton(AF_INET6, host, &a6->sin6_addr) != 1)
			goto bad_addr;
		if (parse_port(port_s, &port))
			goto bad_port;
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		*addrlen = sizeof(*a6);
		return 0;
	}
	colon = strrchr(spec, ':');
	if (colon && memchr(spec, ':', (size_t)(colon - spec)))
		return err_set(err, errlen, -EINVAL,
			       "--listen '%s': an IPv6 address is written [ADDR]:PORT", spec);
	port_s = colon ? colon + 1 : spec;
	n = colon ? (size_t)(colon - spec) : 0;
	if (n >= sizeof(host))
		goto bad_addr;
	memcpy(host, spec, n);
	host[n] = '\0';
	{
		struct sockaddr_in *a4 = (struct sockaddr_in *)addr;

		/* The default is this host only: all interfaces must be asked for. */
		if (!n)
			strcpy(host, "127.0.0.1");
		if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
			goto bad_addr;
		if (parse_port(port_s, &port))
			goto bad_port;
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)port);
		*addrlen = sizeof(*a4);
	}
	return 0;
bad_addr:
	return err_set(err, errlen, -EINVAL,
		       "--listen '%s': not a numeric IPv4 address or [IPv6] address", spec);
bad_port:
	return err_set(err, errlen, -EINVAL, "--listen '%s': the port must be 0-65535", spec);
}

/* ---- content negotiation ---- */

/* RFC 9110 qvalue: "0" ["." 0*3DIGIT] / "1" ["." 0*3"0"], in thousandths; -1: bad. */
static int parse_q(const char *s, size_t n)
{
	int v, scale = 100;
	size_t i;

	if (!n || (s[0] != '0' && s[0] != '1'))
		return -1;
	v = (s[0] - '0') * 1000;
	if (n == 1)
		return v;
	if (s[1] != '.' || n > 5)
		return -1;
	for (i = 2; i < n; i++, scale /= 10) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v += (s[i] - '0') * scale;
	}
	return v > 1000 ? -1 : v;
}

static bool token_is(const char *s, size_t n, const char *t)
{
	return strlen(t) == n && !strncasecmp(s, t, n);
}

static size_t trim(const char **s, size_t n)
{
	while (n && (**s == ' ' || **s == '\t'))
		(*s)++, n--;
	while (n && ((*s)[n - 1] == ' ' || (*s)[n - 1] == '\t'))
		n--;
	return n;
}

/*
 * OpenMetrics when the client accepts it (application/openmetrics-text with no
 * version or 1.0.0, or application/...) with a q at least that of the text
 * format (text/plain with no version or 0.0.4, text/..., a wildcard): what
 * Prometheus asks for. Anything else, and no header, is the text format.
 */
enum httpd_format httpd_negotiate(const char *accept)
{
	int om = 0, text = 0;
	const char *p = accept;

	if (!p)
		return HTTPD_TEXT;
	while (*p) {
		const char *end = strchr(p, ','), *semi, *type = p;
		size_t tlen, len;
		bool version_ok = true;
		int q = 1000, *slot = NULL;

		if (!end)
			end = p + strlen(p);
		len = (size_t)(end - p);
		semi = memchr(p, ';', len);
		tlen = trim(&type, (size_t)((semi ? semi : end) - p));
		/* Parameters: q and version; others are ignored. */
		while (semi && semi < end) {
			const char *par = semi + 1, *eq, *val;
			size_t plen, nlen, vlen;

			semi = memchr(par, ';', (size_t)(end - par));
			plen = (size_t)((semi ? semi : end) - par);
			eq = memchr(par, '=', plen);
			if (!eq)
				continue;
			val = eq + 1;
			vlen = trim(&val, plen - (size_t)(eq + 1 - par));
			nlen = trim(&par, (size_t)(eq - par));
			if (vlen >= 2 && val[0] == '"' && val[vlen - 1] == '"')
				val++, vlen -= 2;
			if (token_is(par, nlen, "q")) {
				q = parse_q(val, vlen);
				if (q < 0)
					q = 1000;
			} else if (token_is(par, nlen, "version")) {
				version_ok = false;
				if (token_is(type, tlen, "application/openmetrics-text"))
					version_ok = token_is(val, vlen, "1.0.0");
				else if (token_is(type, tlen, "text/plain"))
					version_ok = token_is(val, vlen, "0.0.4");
			}
		}
		if (token_is(type, tlen, "application/openmetrics-text") ||
		    token_is(type, tlen, "application/*"))
			slot = &om;
		else if (token_is(type, tlen, "text/plain") || token_is(type, tlen, "text/*") ||
			 token_is(type, tlen, "*/*"))
			slot = &text;
		if (slot && version_ok && q > *slot)
			*slot = q;
		p = *end ? end + 1 : end;
	}
	return om > 0 && om >= text ? HTTPD_OPENMETRICS : HTTPD_TEXT;
}

/* ---- requests ---- */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void body_free(void *cls)
{
	struct body *b = cls;

	b->h->st.inflight -= b->len;
	free(b);
}

/* This model state's response in @fmt, rendered now if needed; NULL: see *@status. */
static struct MHD_Response *scrape_response(struct httpd *h, enum httpd_format fmt,
					    unsigned *status)
{
	struct MHD_Response *r;
	const char *data = NULL;
	size_t len = 0;
	struct body *b;

	if (h->cache[fmt])
		return h->cache[fmt];
	/*
	 * Slow readers still hold older bodies: past the budget, refuse rather
	 * than grow (but always serve one, however big).
	 */
	if (h->st.inflight && h->st.inflight >= h->max_inflight) {
		*status = MHD_HTTP_SERVICE_UNAVAILABLE;
		return NULL;
	}
	h->st.renders++;
	if (h->render(h->ctx, fmt, &data, &len) || (!data && len)) {
		h->st.render_errors++;
		*status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		return NULL;
	}
	if (h->st.inflight && len > h->max_inflight - h->st.inflight) {
		*status = MHD_HTTP_SERVICE_UNAVAILABLE;
		return NULL;
	}
	b = malloc(sizeof(*b) + len + 1);
	if (!b) {
		*status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		return NULL;
	}
	b->h = h;
	b->len = len;
	if (len)
		memcpy(b->data, data, len);
	r = MHD_create_response_from_buffer_with_free_callback_cls(len, b->data, body_free, b);
	if (!r) {
		free(b);
		*status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		return NULL;
	}
	h->st.inflight += len;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				fmt == HTTPD_OPENMETRICS ?
				"application/openmetrics-text; version=1.0.0; charset=utf-8" :
				"text/plain; version=0.0.4; charset=utf-8");
	h->cache[fmt] = r;
	return r;
}

static enum MHD_Result answer(struct httpd *h, struct MHD_Connection *c, unsigned status,
			      struct MHD_Response *r)
{
	h->st.requests++;
	switch (status) {
	case MHD_HTTP_NOT_FOUND:
		h->st.not_found++;
		break;
	case MHD_HTTP_METHOD_NOT_ALLOWED:
		h->st.not_allowed++;
		break;
	case MHD_HTTP_CONTENT_TOO_LARGE:
		h->st.refused++;
		break;
	case MHD_HTTP_SERVICE_UNAVAILABLE:
		h->st.busy++;
		break;
	}
	return MHD_queue_response(c, status, r);
}

static bool has_body(struct MHD_Connection *c)
{
	const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						     MHD_HTTP_HEADER_CONTENT_LENGTH);

	if (MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return true;
	return cl && strspn(cl, "0") != strlen(cl);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **con_cls)
{
	struct httpd *h = cls;
	struct MHD_Response *r;
	unsigned status = MHD_HTTP_OK;
	enum httpd_format fmt;
	double t0;

	(void)version;
	(void)upload_data;
	/*
	 * First call, on the headers: refuse here what has or may have a body
	 * (an answer queued now makes libmicrohttpd discard the rest and close
	 * the connection: no body is ever read). The rest is answered at the
	 * second call, once the request is complete, so the connection can be
	 * kept alive for the next scrape.
	 */
	if (!*con_cls) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

		if (ci && ci->socket_context)
			((struct hconn *)ci->socket_context)->in_request = true;
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
			return answer(h, c, MHD_HTTP_METHOD_NOT_ALLOWED, h->r_405);
		if (has_body(c))
			return answer(h, c, MHD_HTTP_CONTENT_TOO_LARGE, h->r_413);
		*con_cls = h;
		return MHD_YES;
	}
	if (*upload_data_size) {
		/* Not announced by the headers, so not possible: drop it all the same. */
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (!strcmp(url, "/"))
		return answer(h, c, MHD_HTTP_OK, h->r_index);
	if (strcmp(url, "/metrics"))
		return answer(h, c, MHD_HTTP_NOT_FOUND, h->r_404);
	t0 = now_s();
	fmt = httpd_negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							  MHD_HTTP_HEADER_ACCEPT));
	r = scrape_response(h, fmt, &status);
	if (!r)
		return answer(h, c, status,
			      status == MHD_HTTP_SERVICE_UNAVAILABLE ? h->r_503 : h->r_500);
	h->st.scrapes++;
	h->st.last_scrape_s = now_s() - t0;
	h->st.scrape_s_total += h->st.last_scrape_s;
	return answer(h, c, MHD_HTTP_OK, r);
}

static void on_log(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

static void on_log(void *cls, const char *fmt, va_list ap)
{
	struct httpd *h = cls;
	size_t n;

	vsnprintf(h->lastlog, sizeof(h->lastlog), fmt, ap);
	n = strlen(h->lastlog);
	while (n && h->lastlog[n - 1] == '\n')
		h->lastlog[--n] = '\0';
}

static bool same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return true;	/* a socket given by systemd of another family: one client */
}

/* Shut @hc down: its peer gets nothing more, libmicrohttpd wakes to close it. */
static void doom(struct hconn *hc)
{
	if (hc->doomed)
		return;
	hc->doomed = true;
	shutdown(hc->fd, SHUT_RDWR);
}

/*
 * A new connection over a share (@same: of its address; else of the server):
 * the oldest connection that is not being answered (still sending its
 * request head, or idle between two requests) makes room for it. A client
 * that holds connections open gains nothing but its own being closed; one
 * being answered is never cut. With none to evict, the new one goes.
 */
static void make_room(struct httpd *h, struct hconn *new, bool same)
{
	size_t i;

	for (i = 0; i < h->nconns; i++) {
		struct hconn *hc = h->conns[i];

		if (hc == new || hc->doomed || hc->in_request ||
		    (same && !same_addr(&hc->addr, &new->addr)))
			continue;
		h->st.evicted++;
		doom(hc);
		return;
	}
	h->st.evicted++;
	doom(new);
}

static void track(struct httpd *h, struct MHD_Connection *c, int fd, void **socket_ctx)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	struct hconn *hc = calloc(1, sizeof(*hc)), **v;
	unsigned live = 0, from = 0;
	size_t i;

	v = hc ? realloc(h->conns, (h->nconns + 1) * sizeof(*v)) : NULL;
	if (!v) {
		/* Untracked, it could escape the deadline: refuse it. */
		free(hc);
		shutdown(fd, SHUT_RDWR);
		return;
	}
	h->conns = v;
	hc->c = c;
	hc->fd = fd;
	hc->since = now_s();
	if (ci && ci->client_addr) {
		socklen_t len = ci->client_addr->sa_family == AF_INET6 ?
				sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);

		memcpy(&hc->addr, ci->client_addr, len);
	}
	h->conns[h->nconns++] = hc;
	*socket_ctx = hc;
	for (i = 0; i < h->nconns; i++) {
		if (h->conns[i]->doomed)
			continue;
		live++;
		from += same_addr(&h->conns[i]->addr, &hc->addr);
	}
	if (from > h->per_ip_limit)
		make_room(h, hc, true);
	else if (live > h->conn_limit)
		make_room(h, hc, false);
}

static void untrack(struct httpd *h, struct hconn *hc)
{
	size_t i;

	for (i = 0; i < h->nconns; i++)
		if (h->conns[i] == hc) {
			memmove(h->conns + i, h->conns + i + 1,
				(h->nconns - i - 1) * sizeof(*h->conns));
			h->nconns--;
			break;
		}
	free(hc);
}

/* A response sent: the connection may wait for its next request head, from now. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode code)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	(void)cls;
	(void)con_cls;
	(void)code;
	if (ci && ci->socket_context) {
		struct hconn *hc = ci->socket_context;

		hc->in_request = false;
		hc->since = now_s();
	}
}

/*
 * The slowloris deadline: a request head must be complete within
 * head_timeout_s of the accept (or of the previous response), however it
 * trickles in; libmicrohttpd's own timeout is reset by every byte.
 */
static void enforce_deadlines(struct httpd *h)
{
	double now = now_s();
	size_t i;

	for (i = 0; i < h->nconns; i++) {
		struct hconn *hc = h->conns[i];

		if (!hc->doomed && !hc->in_request && now - hc->since >= h->head_timeout_s) {
			h->st.head_timeouts++;
			doom(hc);
		}
	}
}

/* Milliseconds to the next head deadline; -1: none. */
static int next_deadline_ms(const struct httpd *h)
{
	double now = now_s(), best = -1;
	size_t i;

	for (i = 0; i < h->nconns; i++) {
		const struct hconn *hc = h->conns[i];
		double left;

		if (hc->doomed || hc->in_request)
			continue;
		left = hc->since + h->head_timeout_s - now;
		if (left < 0)
			left = 0;
		if (best < 0 || left < best)
			best = left;
	}
	return best < 0 ? -1 : (int)(best * 1000) + 1;
}

/*
 * A client that sent part of a request and closed before it was accepted (a
 * slowloris that gave up, a flood): libmicrohttpd 0.9.75's epoll mode reads
 * its bytes once and, the read being short, waits for the next edge, which
 * never comes: the connection would hold a slot until its timeout. Its peer
 * has hung up (POLLRDHUP) and what it sent holds no complete request head:
 * nothing can come of it; shut it down, which wakes libmicrohttpd to close it.
 * A complete request from a client that half-closed is still answered.
 */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_ctx,
			  enum MHD_ConnectionNotificationCode code)
{
	struct httpd *h = cls;
	const union MHD_ConnectionInfo *ci;
	struct pollfd pfd;
	char buf[4096];
	ssize_t n;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (*socket_ctx)
			untrack(h, *socket_ctx);
		*socket_ctx = NULL;
		return;
	}
	if (code != MHD_CONNECTION_NOTIFY_STARTED)
		return;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return;
	track(h, c, ci->connect_fd, socket_ctx);
	pfd = (struct pollfd){ .fd = ci->connect_fd, .events = POLLRDHUP };
	if (poll(&pfd, 1, 0) != 1 || !(pfd.revents & (POLLRDHUP | POLLHUP | POLLERR)))
		return;
	n = recv(ci->connect_fd, buf, sizeof(buf) - 1, MSG_PEEK | MSG_DONTWAIT);
	if (n > 0) {
		buf[n] = '\0';
		if (memmem(buf, (size_t)n, "\r\n\r\n", 4) || memmem(buf, (size_t)n, "\n\n", 2))
			return;
	}
	shutdown(ci->connect_fd, SHUT_RDWR);
}

/* ---- the daemon ---- */

static struct MHD_Response *fixed(const char *text, const char *type)
{
	struct MHD_Response *r;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (r)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

static int make_fixed(struct httpd *h)
{
	static const char plain[] = "text/plain; charset=utf-8";

	h->r_index = fixed("<html><head><title>ktop</title></head><body>\n"
			   "<h1>ktop exporter</h1>\n<p><a href=\"/metrics\">Metrics</a></p>\n"
			   "</body></html>\n", "text/html; charset=utf-8");
	h->r_404 = fixed("404 Not Found: ktop serves /metrics\n", plain);
	h->r_405 = fixed("405 Method Not Allowed: GET or HEAD\n", plain);
	h->r_413 = fixed("413 Content Too Large: no request body is read\n", plain);
	h->r_500 = fixed("500 Internal Server Error: the metrics could not be rendered\n", plain);
	h->r_503 = fixed("503 Service Unavailable: too many responses in flight\n", plain);
	if (!h->r_index || !h->r_404 || !h->r_405 || !h->r_413 || !h->r_500 || !h->r_503)
		return -ENOMEM;
	if (MHD_add_response_header(h->r_405, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES ||
	    MHD_add_response_header(h->r_503, MHD_HTTP_HEADER_RETRY_AFTER, "1") != MHD_YES)
		return -ENOMEM;
	return 0;
}

static void free_fixed(struct httpd *h)
{
	struct MHD_Response **r[] = { &h->r_index, &h->r_404, &h->r_405,
				      &h->r_413, &h->r_500, &h->r_503 };
	size_t i;

	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		if (*r[i])
			MHD_destroy_response(*r[i]);
		*r[i] = NULL;
	}
}

/* The socket, bound and listening, or a negative errno with the reason in @err. */
static int listen_on(const char *spec, unsigned *port, char *err, size_t errlen)
{
	struct sockaddr_storage ss, got;
	socklen_t len, glen = sizeof(got);
	int fd, one = 1, zero = 0, r;

	r = httpd_parse_listen(spec, &ss, &len, err, errlen);
	if (r)
		return r;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		r = -errno;
		return err_set(err, errlen, r, "--listen '%s': socket: %s", spec, strerror(-r));
	}
	/* A restarted ktop can take its port back from connections in TIME_WAIT. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* [::] is every address, IPv4 ones too, whatever net.ipv6.bindv6only says. */
	if (ss.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)&ss)->sin6_addr))
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, LISTEN_BACKLOG)) {
		r = -errno;
		close(fd);
		return err_set(err, errlen, r, "cannot listen on %s: %s", spec, strerror(-r));
	}
	if (getsockname(fd, (struct sockaddr *)&got, &glen) == 0)
		*port = ntohs(got.ss_family == AF_INET6 ?
			      ((struct sockaddr_in6 *)&got)->sin6_port :
			      ((struct sockaddr_in *)&got)->sin_port);
	return fd;
}

int httpd_start(const char *spec, const struct httpd_limits *lim, httpd_render_fn render,
		void *ctx, struct httpd **out, char *err, size_t errlen)
{
	struct httpd_limits l = lim ? *lim : (struct httpd_limits){ 0 };
	struct httpd *h;
	int fd, r;

	*out = NULL;
	if (!l.conn_limit)
		l.conn_limit = DEF_CONN_LIMIT;
	if (!l.per_ip_limit)
		l.per_ip_limit = DEF_PER_IP_LIMIT;
	if (!l.timeout_s)
		l.timeout_s = DEF_TIMEOUT_S;
	if (!l.conn_memory)
		l.conn_memory = DEF_CONN_MEMORY;
	if (!l.max_inflight)
		l.max_inflight = DEF_MAX_INFLIGHT;
	if (!l.head_timeout_s)
		l.head_timeout_s = DEF_TIMEOUT_S;
	h = calloc(1, sizeof(*h));
	if (!h)
		return err_set(err, errlen, -ENOMEM, "--listen: out of memory");
	h->render = render;
	h->ctx = ctx;
	h->max_inflight = l.max_inflight;
	h->conn_limit = l.conn_limit;
	h->per_ip_limit = l.per_ip_limit;
	h->head_timeout_s = l.head_timeout_s;
	if (make_fixed(h)) {
		free_fixed(h);
		free(h);
		return err_set(err, errlen, -ENOMEM, "--listen: out of memory");
	}
	fd = listen_on(spec, &h->port, err, errlen);
	if (fd < 0) {
		free_fixed(h);
		free(h);
		return fd;
	}
	h->d = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request, h,
				MHD_OPTION_EXTERNAL_LOGGER, on_log, h,
				MHD_OPTION_LISTEN_SOCKET, fd,
				/*
				 * One over ktop's limits: a connection past its share
				 * is accepted so that an older one can make room
				 * (make_room), not left in the backlog.
				 */
				MHD_OPTION_CONNECTION_LIMIT, l.conn_limit + 1,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, l.per_ip_limit + 1,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
				MHD_OPTION_CONNECTION_TIMEOUT, l.timeout_s,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, l.conn_memory,
				MHD_OPTION_CONNECTION_MEMORY_INCREMENT, (size_t)1024,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
				MHD_OPTION_END);
	if (!h->d) {
		r = -EIO;
		err_set(err, errlen, r, "--listen '%s': libmicrohttpd did not start%s%s", spec,
			h->lastlog[0] ? ": " : "", h->lastlog);
		/*
		 * It closes the socket on some failures and not on others; single
		 * threaded, nothing can have taken the number since.
		 */
		if (fcntl(fd, F_GETFD) != -1)
			close(fd);
		free_fixed(h);
		free(h);
		return r;
	}
	*out = h;
	return 0;
}

int httpd_fd(const struct httpd *h)
{
	const union MHD_DaemonInfo *i = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_EPOLL_FD);

	return i ? i->epoll_fd : -1;
}

int httpd_timeout_ms(struct httpd *h)
{
	MHD_UNSIGNED_LONG_LONG t;

	int dl = next_deadline_ms(h);

	if (MHD_get_timeout(h->d, &t) != MHD_YES)
		return dl;
	if (t > INT_MAX)
		t = INT_MAX;
	return dl >= 0 && dl < (int)t ? dl : (int)t;
}

static unsigned connections(const struct httpd *h)
{
	const union MHD_DaemonInfo *i =
		MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);

	return i ? i->num_connections : 0;
}

void httpd_run(struct httpd *h)
{
	unsigned before = connections(h);

	MHD_run(h->d);
	/*
	 * At the connection limit the listening socket leaves the epoll set, and
	 * comes back only at the start of a run: run again once connections
	 * closed, or clients waiting in the backlog would wait for the next
	 * timeout.
	 */
	if (connections(h) < before)
		MHD_run(h->d);
	enforce_deadlines(h);
}

void httpd_invalidate(struct httpd *h)
{
	size_t i;

	/* Connections still sending a body keep it until they are done. */
	for (i = 0; i < 2; i++) {
		if (h->cache[i])
			MHD_destroy_response(h->cache[i]);
		h->cache[i] = NULL;
	}
}

unsigned httpd_port(const struct httpd *h)
{
	return h->port;
}

void httpd_get_stats(const struct httpd *h, struct httpd_stats *st)
{
	*st = h->st;
	st->connections = connections(h);
}

void httpd_stop(struct httpd *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	while (h->nconns)
		untrack(h, h->conns[0]);
	free(h->conns);
	httpd_invalidate(h);
	free_fixed(h);
	free(h);
}
