// SPDX-License-Identifier: GPL-2.0-only
#include "remotewrite.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "../lib/dlcurl.h"
#include "../lib/util.h"
#include "webconfig.h"

#define DEF_QUEUE_MAX ((size_t)64 << 20)
#define BACKOFF_MIN_S 0.2
#define BACKOFF_MAX_S 5.0
/* A receiver's Retry-After is waited for up to this long (the queue holds meanwhile). */
#define RETRY_AFTER_MAX_S 300

/* One tick's body, queued. */
struct batch {
	struct batch *next;
	size_t len, samples;
	char data[];
};

struct endpoint {
	struct remote_write *w;
	char *url;
	char shown[160];		/* the URL without user:password@, for messages */
	struct batch *head, *tail;
	size_t bytes;
	CURL *easy;
	struct curl_slist *hdrs;	/* this request's: the common ones, then Authorization */
	bool busy;			/* head is in flight */
	double retry_at, backoff;
	bool said_refused, said_failing;
	char errbuf[CURL_ERROR_SIZE];
	char reply[200];		/* the start of the receiver's answer, for messages */
	size_t reply_len;
};

struct remote_write {
	CURLM *multi;
	int ep;
	double timer_at;		/* libcurl's timeout; < 0: none */
	struct endpoint *eps;
	size_t n;
	size_t queue_max;
	struct rw_writer *enc;		/* this tick's body, from the samples */
	const char *const *headers;
	size_t nheaders;
	const char *user, *password_file, *token_file, *ca_file;
	void (*say)(void *ctx, const char *msg);
	void *ctx;
	struct rw_stats st;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void say(struct remote_write *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct remote_write *w, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (w->say)
		w->say(w->ctx, msg);
}

/* ---- libcurl's sockets in our epoll ---- */

static int on_socket(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp)
{
	struct remote_write *w = userp;
	struct epoll_event ev = { 0 };

	(void)easy;
	if (what == CURL_POLL_REMOVE) {
		epoll_ctl(w->ep, EPOLL_CTL_DEL, s, NULL);
		curl_multi_assign(w->multi, s, NULL);
		return 0;
	}
	ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0) | (what & CURL_POLL_OUT ? EPOLLOUT : 0);
	ev.data.fd = s;
	if (socketp) {
		epoll_ctl(w->ep, EPOLL_CTL_MOD, s, &ev);
	} else {
		epoll_ctl(w->ep, EPOLL_CTL_ADD, s, &ev);
		curl_multi_assign(w->multi, s, w);
	}
	return 0;
}

static int on_timer(CURLM *multi, long ms, void *userp)
{
	struct remote_write *w = userp;

	(void)multi;
	w->timer_at = ms < 0 ? -1 : now_s() + (double)ms / 1000;
	return 0;
}

static size_t on_reply(char *p, size_t size, size_t n, void *userp)
{
	struct endpoint *e = userp;
	size_t len = size * n, room = sizeof(e->reply) - 1 - e->reply_len;

	if (room) {
		size_t k = len < room ? len : room;

		memcpy(e->reply + e->reply_len, p, k);
		e->reply_len += k;
		e->reply[e->reply_len] = '\0';
	}
	return len;
}

/* ---- requests ---- */

static void drop_head(struct endpoint *e, bool count)
{
	struct batch *b = e->head;

	e->head = b->next;
	if (!e->head)
		e->tail = NULL;
	e->bytes -= b->len;
	e->w->st.queue_bytes -= b->len;
	if (count)
		e->w->st.samples_dropped += b->samples;
	free(b);
}

/* A secret from a file, its trailing newline off; NULL: said why. */
static char *secret(struct endpoint *e, const char *what, const char *path)
{
	char err[300], *s = slurp_file(what, path, NULL, err, sizeof(err));

	if (!s) {
		if (!e->said_failing)
			say(e->w, "remote write %s: %s", e->shown, err);
		e->said_failing = true;
		return NULL;
	}
	s[strcspn(s, "\r\n")] = '\0';
	return s;
}

static void start(struct endpoint *e)
{
	struct remote_write *w = e->w;
	struct curl_slist *h = NULL, *t;
	char *token = NULL, *pass = NULL;
	const char *body;
	size_t i;
	static const char *const fixed[] = {
		"Content-Encoding: snappy", "Content-Type: application/x-protobuf",
		"X-Prometheus-Remote-Write-Version: 0.1.0", "User-Agent: ktop",
		"Expect:",	/* no 100-continue wait */
	};

	curl_slist_free_all(e->hdrs);
	e->hdrs = NULL;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if ((t = curl_slist_append(h, fixed[i])))
			h = t;
	for (i = 0; i < w->nheaders; i++)
		if ((t = curl_slist_append(h, w->headers[i])))
			h = t;
	/* Read at each request: a rotated token or password is taken at once. */
	if (w->token_file) {
		char *hdr;

		token = secret(e, "--remote-write-bearer-token-file", w->token_file);
		if (!token)
			goto later;
		if (asprintf(&hdr, "Authorization: Bearer %s", token) >= 0) {
			if ((t = curl_slist_append(h, hdr)))
				h = t;
			memset(hdr, 0, strlen(hdr));
			free(hdr);
		}
	}
	if (w->password_file && !(pass = secret(e, "--remote-write-password-file", w->password_file)))
		goto later;
	e->hdrs = h;
	curl_easy_reset(e->easy);
	curl_easy_setopt(e->easy, CURLOPT_URL, e->url);
	curl_easy_setopt(e->easy, CURLOPT_POST, 1L);
	body = e->head->data;
	curl_easy_setopt(e->easy, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(e->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)e->head->len);
	curl_easy_setopt(e->easy, CURLOPT_HTTPHEADER, e->hdrs);
	curl_easy_setopt(e->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e->easy, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
	curl_easy_setopt(e->easy, CURLOPT_TIMEOUT_MS, 15000L);
	curl_easy_setopt(e->easy, CURLOPT_ERRORBUFFER, e->errbuf);
	curl_easy_setopt(e->easy, CURLOPT_WRITEFUNCTION, on_reply);
	curl_easy_setopt(e->easy, CURLOPT_WRITEDATA, e);
	curl_easy_setopt(e->easy, CURLOPT_PRIVATE, e);
	curl_easy_setopt(e->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	if (w->ca_file)
		curl_easy_setopt(e->easy, CURLOPT_CAINFO, w->ca_file);
	if (pass) {
		curl_easy_setopt(e->easy, CURLOPT_USERNAME, w->user);
		curl_easy_setopt(e->easy, CURLOPT_PASSWORD, pass);
	}
	e->errbuf[0] = '\0';
	e->reply_len = 0;
	e->reply[0] = '\0';
	if (curl_multi_add_handle(w->multi, e->easy) != CURLM_OK) {
		if (!e->said_failing)
			say(w, "remote write %s: libcurl refused the request", e->shown);
		e->said_failing = true;
		goto later;
	}
	e->busy = true;
	w->st.requests++;
	goto out;
later:
	curl_slist_free_all(h);
	e->hdrs = NULL;
	e->backoff = e->backoff ? e->backoff * 2 : BACKOFF_MIN_S;
	if (e->backoff > BACKOFF_MAX_S)
		e->backoff = BACKOFF_MAX_S;
	e->retry_at = now_s() + e->backoff;
out:
	if (token) {
		memset(token, 0, strlen(token));
		free(token);
	}
	if (pass) {
		/* libcurl copied it. */
		memset(pass, 0, strlen(pass));
		free(pass);
	}
}

static void done(struct endpoint *e, CURLcode cr)
{
	struct remote_write *w = e->w;
	curl_off_t after = 0;
	long code = 0;

	curl_multi_remove_handle(w->multi, e->easy);
	e->busy = false;
	curl_easy_getinfo(e->easy, CURLINFO_RESPONSE_CODE, &code);
	if (cr == CURLE_OK && code >= 200 && code < 300) {
		w->st.samples_sent += e->head->samples;
		drop_head(e, false);
		e->backoff = 0;
		e->retry_at = 0;
		if (e->said_failing)
			say(w, "remote write %s: sending again", e->shown);
		e->said_failing = false;
		return;
	}
	if (cr == CURLE_OK && code != 429 && code < 500) {
		/* Refused: the same body would be refused again. */
		if (!e->said_refused)
			say(w, "remote write %s: HTTP %ld, %zu samples dropped, not retried: %.*s",
			    e->shown, code, e->head->samples, (int)strcspn(e->reply, "\r\n"), e->reply);
		e->said_refused = true;
		drop_head(e, true);
		return;
	}
	w->st.retries++;
	/* A 429 or 5xx may say when to come back (seconds or a date: libcurl reads both). */
	if (cr != CURLE_OK || curl_easy_getinfo(e->easy, CURLINFO_RETRY_AFTER, &after) != CURLE_OK ||
	    after < 0)
		after = 0;
	if (after > RETRY_AFTER_MAX_S)
		after = RETRY_AFTER_MAX_S;
	if (!e->said_failing) {
		if (cr != CURLE_OK)
			say(w, "remote write %s: %s; retrying (the queue holds up to %zu bytes)",
			    e->shown, e->errbuf[0] ? e->errbuf : curl_easy_strerror(cr), w->queue_max);
		else if (after)
			say(w, "remote write %s: HTTP %ld; retrying in %lld s (Retry-After)", e->shown,
			    code, (long long)after);
		else
			say(w, "remote write %s: HTTP %ld; retrying", e->shown, code);
	}
	e->said_failing = true;
	e->backoff = e->backoff ? e->backoff * 2 : BACKOFF_MIN_S;
	if (e->backoff > BACKOFF_MAX_S)
		e->backoff = BACKOFF_MAX_S;
	/* Never sooner than the receiver asked, nor than the backoff. */
	e->retry_at = now_s() + (after > e->backoff ? (double)after : e->backoff);
}

/* Start what may start: each receiver's oldest body, its backoff over. */
static void kick(struct remote_write *w)
{
	double now = now_s();
	size_t i;

	for (i = 0; i < w->n; i++) {
		struct endpoint *e = &w->eps[i];

		if (!e->busy && e->head && now >= e->retry_at)
			start(e);
	}
}

void rw_run(struct remote_write *w)
{
	struct epoll_event ev[16];
	int n, i, running;
	CURLMsg *msg;

	if (!w)
		return;
	n = epoll_wait(w->ep, ev, 16, 0);
	for (i = 0; i < n; i++)
		curl_multi_socket_action(w->multi, ev[i].data.fd,
					 (ev[i].events & (EPOLLIN | EPOLLHUP) ? CURL_CSELECT_IN : 0) |
					 (ev[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
					 (ev[i].events & EPOLLERR ? CURL_CSELECT_ERR : 0),
					 &running);
	if (w->timer_at >= 0 && now_s() >= w->timer_at) {
		w->timer_at = -1;
		curl_multi_socket_action(w->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	}
	while ((msg = curl_multi_info_read(w->multi, &n))) {
		struct endpoint *e = NULL;

		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&e);
		if (e)
			done(e, msg->data.result);
	}
	kick(w);
}

int rw_fd(const struct remote_write *w)
{
	return w ? w->ep : -1;
}

int rw_timeout_ms(const struct remote_write *w)
{
	double now = now_s(), best = -1;
	size_t i;

	if (!w)
		return -1;
	if (w->timer_at >= 0)
		best = w->timer_at;
	for (i = 0; i < w->n; i++) {
		const struct endpoint *e = &w->eps[i];

		if (!e->busy && e->head && (best < 0 || e->retry_at < best))
			best = e->retry_at;
	}
	if (best < 0)
		return -1;
	return best <= now ? 0 : (int)((best - now) * 1000) + 1;
}

void rw_push_begin(struct remote_write *w, int64_t ts_ms, struct prom_out *o)
{
	rw_writer_begin(w->enc, ts_ms);
	o->sample = rw_writer_sample;
	o->ctx = w->enc;
}

void rw_push_end(struct remote_write *w, int render_err)
{
	struct rw_body body;
	char err[256];
	size_t i;

	if (rw_writer_end(w->enc, &body, err, sizeof(err)) || render_err) {
		say(w, "remote write: this refresh's samples are lost: %s",
		    render_err ? strerror(-render_err) : err);
		return;
	}
	for (i = 0; i < w->n; i++) {
		struct endpoint *e = &w->eps[i];
		struct batch *b = malloc(sizeof(*b) + body.len);

		if (!b) {
			w->st.samples_dropped += body.samples;
			continue;
		}
		b->next = NULL;
		b->len = body.len;
		b->samples = body.samples;
		memcpy(b->data, body.data, body.len);
		/* Room first: the oldest not in flight go, counted. */
		while (e->head && e->bytes + b->len > w->queue_max) {
			if (e->busy) {
				struct batch *second = e->head->next;

				if (!second)
					break;
				e->head->next = second->next;
				if (e->tail == second)
					e->tail = e->head;
				e->bytes -= second->len;
				w->st.queue_bytes -= second->len;
				w->st.samples_dropped += second->samples;
				free(second);
			} else {
				drop_head(e, true);
			}
		}
		if (e->tail)
			e->tail->next = b;
		else
			e->head = b;
		e->tail = b;
		e->bytes += b->len;
		w->st.queue_bytes += b->len;
	}
	/*
	 * Sent by the loop's next rw_run (rw_timeout_ms is 0 now), not here:
	 * the tick pays for the encoding alone, as a scrape's rendering.
	 */
}

void rw_get_stats(const struct remote_write *w, struct rw_stats *st)
{
	*st = w->st;
}

/* The URL without its user:password@, for messages. */
static void shown_url(const char *url, char *out, size_t len)
{
	const char *scheme = strstr(url, "://"), *host = scheme ? scheme + 3 : url;
	const char *at = strchr(host, '@'), *slash = strchr(host, '/');

	if (at && (!slash || at < slash))
		snprintf(out, len, "%.*s%s", (int)(host - url), url, at + 1);
	else
		snprintf(out, len, "%s", url);
}

struct remote_write *rw_new(const struct rw_config *c, char *err, size_t errlen)
{
	struct remote_write *w = calloc(1, sizeof(*w));
	size_t i;

	if (!w) {
		err_set(err, errlen, -ENOMEM, "--remote-write: out of memory");
		return NULL;
	}
	w->ep = -1;
	w->timer_at = -1;
	w->queue_max = c->queue_max ? c->queue_max : DEF_QUEUE_MAX;
	w->headers = c->headers;
	w->nheaders = c->nheaders;
	w->user = c->user;
	w->password_file = c->password_file;
	w->token_file = c->token_file;
	w->ca_file = c->ca_file;
	w->say = c->say;
	w->ctx = c->ctx;
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		err_set(err, errlen, -EIO, "--remote-write: libcurl did not initialize");
		free(w);
		return NULL;
	}
	w->enc = rw_writer_new(c->labels, c->nlabels);
	w->eps = calloc(c->nurls, sizeof(*w->eps));
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	w->multi = curl_multi_init();
	if (!w->enc || !w->eps || w->ep < 0 || !w->multi)
		goto nomem;
	curl_multi_setopt(w->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
	curl_multi_setopt(w->multi, CURLMOPT_SOCKETDATA, w);
	curl_multi_setopt(w->multi, CURLMOPT_TIMERFUNCTION, on_timer);
	curl_multi_setopt(w->multi, CURLMOPT_TIMERDATA, w);
	for (i = 0; i < c->nurls; i++) {
		struct endpoint *e = &w->eps[i];

		e->w = w;
		e->url = strdup(c->urls[i]);
		e->easy = curl_easy_init();
		w->n++;
		if (!e->url || !e->easy)
			goto nomem;
		shown_url(e->url, e->shown, sizeof(e->shown));
	}
	return w;
nomem:
	err_set(err, errlen, -ENOMEM, "--remote-write: out of memory");
	rw_free(w, 0);
	return NULL;
}

void rw_free(struct remote_write *w, double secs)
{
	double end = now_s() + secs;
	size_t i;

	if (!w)
		return;
	/* At exit: what is queued gets a bounded chance, while the receivers answer. */
	while (secs > 0 && now_s() < end) {
		bool pending = false, failing = false;
		struct pollfd pf = { w->ep, POLLIN, 0 };
		int t = rw_timeout_ms(w), left = (int)((end - now_s()) * 1000) + 1;

		for (i = 0; i < w->n; i++) {
			pending |= w->eps[i].head != NULL;
			failing |= w->eps[i].said_failing && !w->eps[i].busy;
		}
		if (!pending || failing)
			break;
		poll(&pf, 1, t < 0 || t > left ? left : t);
		rw_run(w);
	}
	for (i = 0; i < w->n; i++) {
		struct endpoint *e = &w->eps[i];

		if (e->busy)
			curl_multi_remove_handle(w->multi, e->easy);
		while (e->head)
			drop_head(e, false);
		if (e->easy)
			curl_easy_cleanup(e->easy);
		curl_slist_free_all(e->hdrs);
		free(e->url);
	}
	if (w->multi)
		curl_multi_cleanup(w->multi);
	if (w->ep >= 0)
		close(w->ep);
	free(w->eps);
	rw_writer_free(w->enc);
	free(w);
	curl_global_cleanup();
}
