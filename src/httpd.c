// SPDX-License-Identifier: GPL-2.0-only
#include "httpd.h"
#include "../lib/dlhttp.h"
#include "../lib/util.h"
#include "../collectors/clocks.h"

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

#include <sys/epoll.h>
#include <zlib.h>

enum {
	DEF_CONN_LIMIT = 64,
	DEF_PER_IP_LIMIT = 8,
	DEF_TIMEOUT_S = 10,
	DEF_CONN_MEMORY = 16 * 1024,
	LISTEN_BACKLOG = 128,
	AUTH_OK = 16,		/* user-password pairs that passed bcrypt, remembered */
	AUTH_BAD = 64,		/* pairs that failed, remembered: a retry costs no bcrypt */
	AUTH_RECENT = 16,	/* the last bcrypt checks' addresses: whose turn is next */
};
#define DEF_MAX_INFLIGHT ((size_t)64 << 20)
/*
 * bcrypt runs on the one loop: its checks take at most this share of the
 * loop's time (seconds each check held the loop, per second: on a busy
 * machine a check holds it longer, and fewer are made), a burst of
 * AUTH_BURST_S at most.
 */
#define AUTH_SHARE 0.2
#define AUTH_BURST_S 0.25
/* A request that waited this long for its check is answered 429. */
#define AUTH_WAIT_S 10.0

/* Where a request stands with its password check (check_basic_auth). */
enum auth_state {
	AUTH_NONE,
	AUTH_WAITING,		/* suspended, in the line for a bcrypt check */
	AUTH_GRANTED,		/* resumed: its check runs now */
	AUTH_EXPIRED,		/* resumed: waited AUTH_WAIT_S, answered 429 */
	AUTH_GONE,		/* resumed: its client hung up or it was evicted; closed */
};

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
	enum auth_state auth;
	double auth_since;	/* when it started to wait for its check */
};

/* A rendered body, shared by the connections that send it. */
struct body {
	struct httpd *h;
	size_t len;
	char data[];
};

/* A user-password pair bcrypt judged: its keyed MAC (auth_mac), never the password. */
struct auth_seen {
	unsigned char mac[32];
	bool used;
};

struct httpd {
	struct MHD_Daemon *d;
	int listen_fd;		/* ours: each daemon gets a dup, so a reload keeps the port */
	int ep;			/* the fd polled: an epoll over the daemon's, stable across reloads */
	int daemon_ep;
	struct httpd_limits lim;
	httpd_render_fn render;
	void *ctx;
	unsigned port;
	size_t max_inflight;
	/* This model state's rendered responses, per format and gzip; NULL: not yet. */
	struct MHD_Response *cache[2][2];
	struct body *plain[2];	/* cache[fmt][0]'s body, what the gzip one compresses */
	/* Fixed answers. */
	struct MHD_Response *r_index, *r_404, *r_405, *r_413, *r_500, *r_503;
	struct MHD_Response *r_401, *r_403, *r_429;
	/* --web-config: TLS of the running daemon, users of basic auth. */
	char *cert, *key, *trust;
	bool cert_required, cert_verified;
	struct httpd_user *users;
	size_t nusers;
	struct auth_seen auth_ok[AUTH_OK], auth_bad[AUTH_BAD];
	unsigned ok_next, bad_next;
	unsigned char auth_key[32];	/* the MAC's key: random, for the server's life */
	double auth_budget, auth_at;	/* seconds bcrypt may hold the loop now; refilled when */
	bool auth_ran;			/* a bcrypt check ran in this httpd_run */
	struct {
		struct sockaddr_storage addr;
		double at;
	} auth_recent[AUTH_RECENT];	/* the last checks: for whom, when */
	unsigned recent_next;
	struct crypt_data *cd;
	char auth_wait;			/* its address: the con_cls of a request in the line */
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

/* This thread's CPU time: what compressing costs, whatever else runs. */
static double cpu_s(void)
{
	return (double)clocks_thread_cpu_ns() / 1e9;
}

static void body_free(void *cls)
{
	struct body *b = cls;

	b->h->st.inflight -= b->len;
	free(b);
}

/* @len bytes as a gzip member into a new body; NULL: out of memory. */
static struct body *gzip_body(struct httpd *h, const char *data, size_t len)
{
	z_stream z = { 0 };
	struct body *b;
	uLong bound;

	/* Speed over size: node_exporter's pages shrink 10 times even so. */
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	bound = deflateBound(&z, (uLong)len);
	b = malloc(sizeof(*b) + bound + 1);
	if (!b) {
		deflateEnd(&z);
		return NULL;
	}
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)b->data;
	z.avail_out = (uInt)bound;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(b);
		return NULL;
	}
	b->h = h;
	b->len = z.total_out;
	deflateEnd(&z);
	return b;
}

/*
 * Whether an Accept-Encoding header takes gzip: the token (or *) with a q
 * above 0, and gzip not refused by its own q=0.
 */
bool httpd_accepts_gzip(const char *ae)
{
	int gz = -1, star = -1;
	const char *p = ae;

	while (p && *p) {
		const char *end = strchr(p, ','), *semi, *tok = p;
		size_t tlen, len;
		int q = 1000;

		if (!end)
			end = p + strlen(p);
		len = (size_t)(end - p);
		semi = memchr(p, ';', len);
		tlen = trim(&tok, (size_t)((semi ? semi : end) - p));
		if (semi) {
			const char *par = semi + 1;
			size_t plen = trim(&par, (size_t)(end - par));

			if (plen > 2 && (par[0] == 'q' || par[0] == 'Q') && par[1] == '=') {
				q = parse_q(par + 2, plen - 2);
				if (q < 0)
					q = 1000;
			}
		}
		if (token_is(tok, tlen, "gzip") || token_is(tok, tlen, "x-gzip"))
			gz = q;
		else if (token_is(tok, tlen, "*"))
			star = q;
		p = *end ? end + 1 : end;
	}
	return gz > 0 || (gz < 0 && star > 0);
}

/* This model state's response in @fmt, rendered now if needed; NULL: see *@status. */
static struct MHD_Response *scrape_response(struct httpd *h, enum httpd_format fmt, bool gz,
					    unsigned *status)
{
	struct MHD_Response *r;
	const char *data = NULL;
	size_t len = 0;
	struct body *b;

	if (h->cache[fmt][gz])
		return h->cache[fmt][gz];
	/*
	 * Slow readers still hold older bodies: past the budget, refuse rather
	 * than grow (but always serve one, however big).
	 */
	if (h->st.inflight && h->st.inflight >= h->max_inflight) {
		*status = MHD_HTTP_SERVICE_UNAVAILABLE;
		return NULL;
	}
	if (gz) {
		/* The plain page compressed: both encodings say the same in a model state. */
		if (!scrape_response(h, fmt, false, status))
			return NULL;
		data = h->plain[fmt]->data;
		len = h->plain[fmt]->len;
	} else {
		h->st.renders++;
		if (h->render(h->ctx, fmt, &data, &len) || (!data && len)) {
			h->st.render_errors++;
			*status = MHD_HTTP_INTERNAL_SERVER_ERROR;
			return NULL;
		}
	}
	if (h->st.inflight && len > h->max_inflight - h->st.inflight) {
		*status = MHD_HTTP_SERVICE_UNAVAILABLE;
		return NULL;
	}
	if (gz) {
		double t0 = cpu_s();

		b = gzip_body(h, data, len);
		h->st.gzip_cpu_s += cpu_s() - t0;
		h->st.gzips++;
	} else if ((b = malloc(sizeof(*b) + len + 1))) {
		b->h = h;
		b->len = len;
		if (len)
			memcpy(b->data, data, len);
	}
	if (!b) {
		*status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		return NULL;
	}
	len = b->len;
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
	/* Caches between the scraper and ktop must not serve one encoding for the other. */
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
	if (gz)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	else
		h->plain[fmt] = b;	/* lives as long as cache[fmt][0] holds it */
	h->cache[fmt][gz] = r;
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
	case MHD_HTTP_UNAUTHORIZED:
		h->st.unauthorized++;
		return MHD_queue_basic_auth_fail_response(c, "ktop", r);
	case MHD_HTTP_FORBIDDEN:
		h->st.forbidden++;
		break;
	case MHD_HTTP_TOO_MANY_REQUESTS:
		h->st.auth_throttled++;
		break;
	}
	return MHD_queue_response(c, status, r);
}

/* ---- --web-config: client certificates, basic auth ---- */

/* The client's certificate, as tls_server_config's client_auth_type asks: 0 or 403. */
static unsigned check_client_cert(struct httpd *h, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci;
	unsigned int n = 0, status = 0;

	if (!h->cert || !h->trust)
		return 0;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!ci || !ci->tls_session)
		return MHD_HTTP_FORBIDDEN;
	if (!gnutls_certificate_get_peers(ci->tls_session, &n) || !n)
		return h->cert_required ? MHD_HTTP_FORBIDDEN : 0;
	if (!h->cert_verified)
		return 0;
	if (gnutls_certificate_verify_peers2(ci->tls_session, &status) || status)
		return MHD_HTTP_FORBIDDEN;
	return 0;
}

static bool same_bytes(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	unsigned char d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return !d;
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

/*
 * What remembers a pair: HMAC-SHA256 under a key drawn at start, of whether
 * the user is configured, its name, the hash it is checked against and the
 * password. A new hash (a reload) is a new pair; the memory holds nothing
 * that can be guessed against offline. False: no MAC (then nothing is
 * remembered or matched).
 */
static bool auth_mac(const struct httpd *h, bool known, const char *user, const char *hash,
		     const char *pass, unsigned char out[32])
{
	gnutls_hmac_hd_t hd;
	unsigned char k = known;

	if (gnutls_hmac_init(&hd, GNUTLS_MAC_SHA256, h->auth_key, sizeof(h->auth_key)) < 0)
		return false;
	if (gnutls_hmac(hd, &k, 1) < 0 || gnutls_hmac(hd, user, strlen(user) + 1) < 0 ||
	    gnutls_hmac(hd, hash, strlen(hash) + 1) < 0 || gnutls_hmac(hd, pass, strlen(pass)) < 0) {
		gnutls_hmac_deinit(hd, out);
		return false;
	}
	gnutls_hmac_deinit(hd, out);
	return true;
}

/* Whether @mac is in @set: every entry compared, each in constant time. */
static bool auth_seen(const struct auth_seen *set, size_t n, const unsigned char mac[32])
{
	bool hit = false;
	size_t i;

	for (i = 0; i < n; i++)
		hit |= set[i].used & same_bytes(set[i].mac, mac, 32);
	return hit;
}

static void auth_refill(struct httpd *h, double now)
{
	h->auth_budget += (now - h->auth_at) * AUTH_SHARE;
	if (h->auth_budget > AUTH_BURST_S)
		h->auth_budget = AUTH_BURST_S;
	h->auth_at = now;
}

static bool auth_waiting(const struct httpd *h)
{
	size_t i;

	for (i = 0; i < h->nconns; i++)
		if (h->conns[i]->auth == AUTH_WAITING)
			return true;
	return false;
}

/* Values of check_basic_auth beside 0 and HTTP statuses. */
enum { AUTH_SUSPENDED = 1, AUTH_CLOSE, AUTH_UNCHECKED };

/*
 * Basic auth against the bcrypt hashes: 0 (passed), 401, 429 (waited
 * AUTH_WAIT_S in the line), AUTH_CLOSE (its client went while it waited),
 * AUTH_SUSPENDED (in the line: auth_schedule resumes it), AUTH_UNCHECKED
 * (!@may_wait, the request refused whoever sends it: not worth a check).
 *
 * bcrypt costs tens of ms on the one loop, and a guess is known wrong only
 * by paying it. A pair bcrypt judged is remembered (auth_mac), right or
 * wrong: a scrape with it costs a MAC and is never limited or delayed, so
 * the rightful scraper pays bcrypt once per password. The checks of pairs
 * not seen take at most AUTH_SHARE of the loop's time; past it, a request
 * is not refused but waits, suspended, in one line (auth_schedule): a client
 * guessing holds at most its connections' places in it (per_ip_limit from
 * one address), so the rightful user's first scrape waits behind those and
 * is then checked, whoever floods. A user not configured is checked against
 * a hash all the same, so its absence takes as long.
 */
static unsigned check_basic_auth(struct httpd *h, struct MHD_Connection *c, struct hconn *hc,
				 bool may_wait)
{
	enum auth_state was = hc ? hc->auth : AUTH_NONE;
	char *pass = NULL, *user = NULL;
	unsigned char mac[32];
	const char *hash, *got;
	unsigned st = MHD_HTTP_UNAUTHORIZED;
	bool known = false, ok;
	double t0;
	size_t i;

	if (!h->nusers)
		return 0;
	if (hc)
		hc->auth = AUTH_NONE;
	if (was == AUTH_GONE)
		return AUTH_CLOSE;
	if (was == AUTH_EXPIRED)
		return MHD_HTTP_TOO_MANY_REQUESTS;
	user = MHD_basic_auth_get_username_password(c, &pass);
	if (!user || !pass)
		goto out;
	hash = h->users[0].hash;
	for (i = 0; i < h->nusers; i++)
		if (!strcmp(h->users[i].name, user)) {
			known = true;
			hash = h->users[i].hash;
		}
	if (!auth_mac(h, known, user, hash, pass, mac))
		goto out;
	if (auth_seen(h->auth_ok, AUTH_OK, mac)) {
		st = 0;
		goto out;
	}
	if (auth_seen(h->auth_bad, AUTH_BAD, mac))
		goto out;
	if (was != AUTH_GRANTED) {
		auth_refill(h, now_s());
		/* One check per run, and none ahead of those in the line. */
		if (h->auth_ran || h->auth_budget <= 0 || auth_waiting(h)) {
			if (!may_wait) {
				st = AUTH_UNCHECKED;
			} else if (!hc) {
				st = MHD_HTTP_TOO_MANY_REQUESTS;
			} else {
				hc->auth = AUTH_WAITING;
				hc->auth_since = now_s();
				h->st.auth_waits++;
				MHD_suspend_connection(c);
				st = AUTH_SUSPENDED;
			}
			goto out;
		}
	}
	h->auth_ran = true;
	h->st.bcrypts++;
	t0 = now_s();
	got = crypt_rn(pass, hash, h->cd, sizeof(*h->cd));
	h->auth_budget -= now_s() - t0;
	ok = known && got && strlen(got) == strlen(hash) && same_bytes(got, hash, strlen(hash));
	if (ok) {
		memcpy(h->auth_ok[h->ok_next % AUTH_OK].mac, mac, sizeof(mac));
		h->auth_ok[h->ok_next++ % AUTH_OK].used = true;
		st = 0;
	} else {
		memcpy(h->auth_bad[h->bad_next % AUTH_BAD].mac, mac, sizeof(mac));
		h->auth_bad[h->bad_next++ % AUTH_BAD].used = true;
	}
	if (hc) {
		h->auth_recent[h->recent_next % AUTH_RECENT].addr = hc->addr;
		h->auth_recent[h->recent_next++ % AUTH_RECENT].at = now_s();
	}
out:
	if (pass) {
		gnutls_memset(pass, 0, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return st;
}

/* Whether the client of @fd hung up (or reset): nobody waits for its answer. */
static bool peer_gone(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLRDHUP };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

/* Resume @hc, suspended in the line, to be answered as @to says. */
static void auth_resume(struct hconn *hc, enum auth_state to)
{
	hc->auth = to;
	MHD_resume_connection(hc->c);
}

/* When a check was last made for @addr; 0: not among the last AUTH_RECENT. */
static double auth_last(const struct httpd *h, const struct sockaddr_storage *addr)
{
	double at = 0;
	size_t i;

	for (i = 0; i < AUTH_RECENT && i < h->recent_next; i++)
		if (h->auth_recent[i].at > at && same_addr(&h->auth_recent[i].addr, addr))
			at = h->auth_recent[i].at;
	return at;
}

/*
 * The line of requests waiting for a bcrypt check, at each run: those that
 * waited AUTH_WAIT_S are answered 429, those whose client left are closed
 * (no check is spent on them), and, the budget allowing, one is checked: of
 * the address checked least recently, the one that waited longest. One
 * address flooding thus takes turns with each other one, and from one
 * address the line is first come, first checked. Returns whether one was
 * resumed (libmicrohttpd must run again).
 */
static bool auth_schedule(struct httpd *h)
{
	struct hconn *best = NULL;
	double best_at = 0, now = now_s();
	bool resumed = false;
	size_t i;

	auth_refill(h, now);
	for (i = 0; i < h->nconns; i++) {
		struct hconn *hc = h->conns[i];
		double at;

		if (hc->auth != AUTH_WAITING)
			continue;
		if (now - hc->auth_since >= AUTH_WAIT_S) {
			auth_resume(hc, AUTH_EXPIRED);
			resumed = true;
			continue;
		}
		if (peer_gone(hc->fd)) {
			auth_resume(hc, AUTH_GONE);
			resumed = true;
			continue;
		}
		at = auth_last(h, &hc->addr);
		if (!best || at < best_at || (at == best_at && hc->auth_since < best->auth_since)) {
			best = hc;
			best_at = at;
		}
	}
	if (best && h->auth_budget > 0 && !h->auth_ran) {
		h->auth_ran = true;
		auth_resume(best, AUTH_GRANTED);
		resumed = true;
	}
	return resumed;
}

/* Milliseconds until the line can move (a check, an expiry); -1: nobody waits. */
static int auth_timeout_ms(struct httpd *h)
{
	double now = now_s(), oldest = -1, wait;
	size_t i;

	for (i = 0; i < h->nconns; i++)
		if (h->conns[i]->auth == AUTH_WAITING &&
		    (oldest < 0 || h->conns[i]->auth_since < oldest))
			oldest = h->conns[i]->auth_since;
	if (oldest < 0)
		return -1;
	auth_refill(h, now);
	wait = h->auth_budget > 0 ? 0 : -h->auth_budget / AUTH_SHARE;
	if (oldest + AUTH_WAIT_S - now < wait)
		wait = oldest + AUTH_WAIT_S - now;
	return wait <= 0 ? 0 : (int)(wait * 1000) + 1;
}

/* Before a daemon stops: what waits in the line is resumed to be closed. */
static void auth_release(struct httpd *h)
{
	bool resumed = false;
	size_t i;

	for (i = 0; i < h->nconns; i++)
		if (h->conns[i]->auth == AUTH_WAITING) {
			auth_resume(h->conns[i], AUTH_GONE);
			resumed = true;
		}
	if (resumed)
		MHD_run(h->d);
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
	 * kept alive for the next scrape. A request suspended in the line of
	 * bcrypt checks is called again when resumed, complete (it has no body:
	 * one with a body is never put in the line): its checks run again, its
	 * password's turn come, and it is answered in that call.
	 */
	if (!*con_cls || *con_cls == &h->auth_wait) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
		struct hconn *hc = ci ? ci->socket_context : NULL;
		bool resumed = *con_cls == &h->auth_wait;
		unsigned bad = 0, deny;

		if (hc)
			hc->in_request = true;
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
			bad = MHD_HTTP_METHOD_NOT_ALLOWED;
		else if (has_body(c))
			bad = MHD_HTTP_CONTENT_TOO_LARGE;
		deny = check_client_cert(h, c);
		if (!deny)
			deny = check_basic_auth(h, c, hc, !bad);
		if (deny == AUTH_SUSPENDED) {
			/* Called again once resumed (auth_schedule): the request is complete. */
			*con_cls = &h->auth_wait;
			return MHD_YES;
		}
		if (deny == AUTH_CLOSE)
			return MHD_NO;
		if (deny && deny != AUTH_UNCHECKED)
			return answer(h, c, deny, deny == MHD_HTTP_UNAUTHORIZED ? h->r_401 :
				      deny == MHD_HTTP_FORBIDDEN ? h->r_403 : h->r_429);
		if (bad)
			return answer(h, c, bad, bad == MHD_HTTP_METHOD_NOT_ALLOWED ? h->r_405 : h->r_413);
		*con_cls = h;
		if (!resumed)
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
	r = scrape_response(h, fmt,
			    httpd_accepts_gzip(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							MHD_HTTP_HEADER_ACCEPT_ENCODING)),
			    &status);
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

/*
 * Shut @hc down: its peer gets nothing more, libmicrohttpd wakes to close it
 * (one waiting in the line of bcrypt checks is suspended: resumed to be closed).
 */
static void doom(struct hconn *hc)
{
	if (hc->doomed)
		return;
	hc->doomed = true;
	shutdown(hc->fd, SHUT_RDWR);
	if (hc->auth == AUTH_WAITING)
		auth_resume(hc, AUTH_GONE);
}

static unsigned conns_from(const struct httpd *h, const struct sockaddr_storage *addr)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < h->nconns; i++)
		n += !h->conns[i]->doomed && same_addr(&h->conns[i]->addr, addr);
	return n;
}

/*
 * A new connection over a share (@same: of its address; else of the server):
 * the oldest connection that is not being answered (still sending its
 * request head, or idle between two requests) makes room for it; else one
 * waiting for its bcrypt check, the newest of the address that holds the
 * most connections (a guesser's, not the one a scraper holds). A client that
 * holds connections open gains nothing but its own being closed; one being
 * answered is never cut. With none to evict, the new one goes.
 */
static void make_room(struct httpd *h, struct hconn *new, bool same)
{
	struct hconn *waiting = NULL;
	unsigned most = 0;
	size_t i;

	for (i = 0; i < h->nconns; i++) {
		struct hconn *hc = h->conns[i];
		unsigned n;

		if (hc == new || hc->doomed || (same && !same_addr(&hc->addr, &new->addr)))
			continue;
		if (!hc->in_request) {
			h->st.evicted++;
			doom(hc);
			return;
		}
		if (hc->auth != AUTH_WAITING)
			continue;
		n = same ? 0 : conns_from(h, &hc->addr);
		if (!waiting || n >= most) {
			waiting = hc;
			most = n;
		}
	}
	h->st.evicted++;
	doom(waiting ? waiting : new);
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
		hc->auth = AUTH_NONE;
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
	h->r_401 = fixed("401 Unauthorized\n", plain);
	h->r_403 = fixed("403 Forbidden: a client certificate of the configured CA is required\n",
			 plain);
	h->r_429 = fixed("429 Too Many Requests: password checks are rate-limited\n", plain);
	if (!h->r_index || !h->r_404 || !h->r_405 || !h->r_413 || !h->r_500 || !h->r_503 ||
	    !h->r_401 || !h->r_403 || !h->r_429)
		return -ENOMEM;
	if (MHD_add_response_header(h->r_405, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES ||
	    MHD_add_response_header(h->r_503, MHD_HTTP_HEADER_RETRY_AFTER, "1") != MHD_YES ||
	    MHD_add_response_header(h->r_429, MHD_HTTP_HEADER_RETRY_AFTER, "1") != MHD_YES)
		return -ENOMEM;
	return 0;
}

static void free_users(struct httpd *h)
{
	size_t i;

	for (i = 0; i < h->nusers; i++) {
		free((char *)h->users[i].name);
		free((char *)h->users[i].hash);
	}
	free(h->users);
	h->users = NULL;
	h->nusers = 0;
}

static void free_fixed(struct httpd *h)
{
	struct MHD_Response **r[] = { &h->r_index, &h->r_404, &h->r_405, &h->r_413, &h->r_500,
				      &h->r_503, &h->r_401, &h->r_403, &h->r_429 };
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

	/* A socket given, bound and listening (systemd's socket activation). */
	if (!strncmp(spec, "fd:", 3)) {
		fd = atoi(spec + 3);
		if (getsockname(fd, (struct sockaddr *)&got, &glen))
			return err_set(err, errlen, -EBADF, "the socket given (fd %d): %s", fd,
				       strerror(errno));
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		*port = got.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&got)->sin6_port) :
			got.ss_family == AF_INET ? ntohs(((struct sockaddr_in *)&got)->sin_port) : 0;
		return fd;
	}
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

/*
 * A daemon on a dup of the listening socket, TLS as h->cert/key/trust say;
 * NULL with the reason in @err.
 */
static struct MHD_Daemon *start_daemon(struct httpd *h, char *err, size_t errlen)
{
	const struct httpd_limits *l = &h->lim;
	struct MHD_OptionItem tls[4], *t = tls;
	unsigned flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
	struct MHD_Daemon *d;
	int fd = fcntl(h->listen_fd, F_DUPFD_CLOEXEC, 3);

	if (fd < 0) {
		err_set(err, errlen, -errno, "--listen: dup: %s", strerror(errno));
		return NULL;
	}
	if (h->cert) {
		flags |= MHD_USE_TLS;
		*t++ = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, h->cert };
		*t++ = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, h->key };
		if (h->trust)
			*t++ = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_TRUST, 0, h->trust };
	}
	*t = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	h->lastlog[0] = '\0';
	d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, h,
			     MHD_OPTION_EXTERNAL_LOGGER, on_log, h,
			     MHD_OPTION_LISTEN_SOCKET, fd,
			     /*
			      * One over ktop's limits: a connection past its share
			      * is accepted so that an older one can make room
			      * (make_room), not left in the backlog.
			      */
			     MHD_OPTION_CONNECTION_LIMIT, l->conn_limit + 1,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT, l->per_ip_limit + 1,
			     MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
			     MHD_OPTION_CONNECTION_TIMEOUT, l->timeout_s,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, l->conn_memory,
			     MHD_OPTION_CONNECTION_MEMORY_INCREMENT, (size_t)1024,
			     MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
			     MHD_OPTION_ARRAY, tls,
			     MHD_OPTION_END);
	if (!d) {
		err_set(err, errlen, -EIO, "libmicrohttpd did not start%s%s%s",
			h->cert ? " with TLS" : "", h->lastlog[0] ? ": " : "", h->lastlog);
		/*
		 * It closes the socket on some failures and not on others; single
		 * threaded, nothing can have taken the number since.
		 */
		if (fcntl(fd, F_GETFD) != -1)
			close(fd);
	}
	return d;
}

/* Make @d the daemon polled, stopping the one before (its connections close). */
static int switch_daemon(struct httpd *h, struct MHD_Daemon *d, char *err, size_t errlen)
{
	const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
	struct epoll_event ev = { .events = EPOLLIN };
	size_t f;

	if (!i || epoll_ctl(h->ep, EPOLL_CTL_ADD, i->epoll_fd, &ev)) {
		MHD_stop_daemon(d);
		return err_set(err, errlen, -EIO, "--listen: epoll: %s", strerror(errno));
	}
	if (h->d) {
		auth_release(h);
		epoll_ctl(h->ep, EPOLL_CTL_DEL, h->daemon_ep, NULL);
		MHD_stop_daemon(h->d);
		for (f = 0; f < 4; f++) {
			if (h->cache[f / 2][f % 2])
				MHD_destroy_response(h->cache[f / 2][f % 2]);
			h->cache[f / 2][f % 2] = NULL;
		}
	}
	h->d = d;
	h->daemon_ep = i->epoll_fd;
	return 0;
}

int httpd_start(const char *spec, const struct httpd_limits *lim, httpd_render_fn render,
		void *ctx, struct httpd **out, char *err, size_t errlen)
{
	struct httpd_limits l = lim ? *lim : (struct httpd_limits){ 0 };
	struct MHD_Daemon *d;
	struct httpd *h;
	int r;

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
	h->listen_fd = h->ep = -1;
	h->lim = l;
	h->render = render;
	h->ctx = ctx;
	h->max_inflight = l.max_inflight;
	h->conn_limit = l.conn_limit;
	h->per_ip_limit = l.per_ip_limit;
	h->head_timeout_s = l.head_timeout_s;
	h->auth_budget = AUTH_BURST_S;
	h->auth_at = now_s();
	if (gnutls_rnd(GNUTLS_RND_KEY, h->auth_key, sizeof(h->auth_key))) {
		r = err_set(err, errlen, -EIO, "--listen: no random key for basic auth");
		goto fail;
	}
	if (make_fixed(h)) {
		r = err_set(err, errlen, -ENOMEM, "--listen: out of memory");
		goto fail;
	}
	h->ep = epoll_create1(EPOLL_CLOEXEC);
	if (h->ep < 0) {
		r = err_set(err, errlen, -errno, "--listen: epoll: %s", strerror(errno));
		goto fail;
	}
	r = listen_on(spec, &h->port, err, errlen);
	if (r < 0)
		goto fail;
	h->listen_fd = r;
	d = start_daemon(h, err, errlen);
	if (!d) {
		char why[400];

		snprintf(why, sizeof(why), "%s", err);
		r = err_set(err, errlen, -EIO, "--listen '%s': %s", spec, why);
		goto fail;
	}
	r = switch_daemon(h, d, err, errlen);
	if (r)
		goto fail;
	*out = h;
	return 0;
fail:
	httpd_stop(h);
	return r;
}

static char *dup_or_null(const char *s, bool *nomem)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*nomem = true;
	return d;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int httpd_set_security(struct httpd *h, const struct httpd_security *sec, char *err,
		       size_t errlen)
{
	struct httpd_user *users = NULL;
	bool nomem = false, restart;
	size_t i;

	restart = !same_str(h->cert, sec->cert_pem) || !same_str(h->key, sec->key_pem) ||
		  !same_str(h->trust, sec->trust_pem);
	if (restart) {
		char *cert = h->cert, *key = h->key, *trust = h->trust;
		struct MHD_Daemon *d;
		int r;

		h->cert = dup_or_null(sec->cert_pem, &nomem);
		h->key = dup_or_null(sec->key_pem, &nomem);
		h->trust = dup_or_null(sec->trust_pem, &nomem);
		d = nomem ? NULL : start_daemon(h, err, errlen);
		if (nomem)
			err_set(err, errlen, -ENOMEM, "--web-config: out of memory");
		r = d ? switch_daemon(h, d, err, errlen) : -EIO;
		if (r) {
			/* The daemon before serves on, with what it had. */
			free(h->cert);
			free(h->key);
			free(h->trust);
			h->cert = cert;
			h->key = key;
			h->trust = trust;
			return nomem ? -ENOMEM : r;
		}
		free(cert);
		free(key);
		if (trust) {
			gnutls_memset(trust, 0, strlen(trust));
			free(trust);
		}
	}
	h->cert_required = sec->cert_required;
	h->cert_verified = sec->cert_verified;
	if (sec->nusers && !(users = calloc(sec->nusers, sizeof(*users))))
		return err_set(err, errlen, -ENOMEM, "--web-config: out of memory");
	for (i = 0; i < sec->nusers; i++) {
		users[i].name = dup_or_null(sec->users[i].name, &nomem);
		users[i].hash = dup_or_null(sec->users[i].hash, &nomem);
	}
	if (!h->cd && sec->nusers && !(h->cd = calloc(1, sizeof(*h->cd))))
		nomem = true;
	if (nomem) {
		for (i = 0; i < sec->nusers; i++) {
			free((char *)users[i].name);
			free((char *)users[i].hash);
		}
		free(users);
		return err_set(err, errlen, -ENOMEM, "--web-config: out of memory");
	}
	free_users(h);
	h->users = users;
	h->nusers = sec->nusers;
	/*
	 * What bcrypt judged stays: a pair is remembered with the hash it was
	 * checked against, so a user whose hash changed, or who is gone, is
	 * checked anew, and the others' scrapes go on costing no bcrypt.
	 */
	return 0;
}

int httpd_fd(const struct httpd *h)
{
	return h->ep;
}

int httpd_timeout_ms(struct httpd *h)
{
	MHD_UNSIGNED_LONG_LONG t;
	int dl = next_deadline_ms(h), al = auth_timeout_ms(h);

	if (al >= 0 && (dl < 0 || al < dl))
		dl = al;
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

	h->auth_ran = false;
	MHD_run(h->d);
	/*
	 * At the connection limit the listening socket leaves the epoll set, and
	 * comes back only at the start of a run: run again once connections
	 * closed, or clients waiting in the backlog would wait for the next
	 * timeout.
	 */
	if (connections(h) < before)
		MHD_run(h->d);
	/* Those resumed from the line of bcrypt checks are answered now. */
	if (auth_schedule(h))
		MHD_run(h->d);
	enforce_deadlines(h);
}

void httpd_invalidate(struct httpd *h)
{
	size_t i;

	/* Connections still sending a body keep it until they are done. */
	for (i = 0; i < 4; i++) {
		if (h->cache[i / 2][i % 2])
			MHD_destroy_response(h->cache[i / 2][i % 2]);
		h->cache[i / 2][i % 2] = NULL;
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
	if (h->d) {
		auth_release(h);
		MHD_stop_daemon(h->d);
	}
	while (h->nconns)
		untrack(h, h->conns[0]);
	free(h->conns);
	httpd_invalidate(h);
	free_fixed(h);
	free_users(h);
	free(h->cert);
	free(h->key);
	free(h->trust);
	free(h->cd);
	if (h->listen_fd >= 0)
		close(h->listen_fd);
	if (h->ep >= 0)
		close(h->ep);
	free(h);
}
