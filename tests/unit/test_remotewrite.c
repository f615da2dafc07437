// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/remotewrite: pushes driven by a poll loop, against a receiver in this
 * test (a socket answering each request with the status the test scripts):
 * bodies are sent in order, 5xx and 429 retried, other 4xx dropped and
 * counted, and past the queue's bound the oldest go, counted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <snappy-c.h>

#include "../../outputs/rwproto.h"
#include "../../src/remotewrite.h"
#include "test.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct receiver {
	int lfd, cfd;
	unsigned port;
	char req[1 << 16];
	size_t len;
	const int *statuses;	/* answered in turn; then 204 */
	size_t nstatus, answered;
	int retry_after;	/* > 0: a Retry-After of that many seconds with each 429 and 503 */
	double at[64];		/* when each request was read whole */
	long long ts[64];	/* the timestamp of each request accepted (2xx) */
	size_t nts;
	char said[4][256];
	size_t nsaid;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void on_say(void *ctx, const char *msg)
{
	struct receiver *r = ctx;

	if (r->nsaid < 4)
		snprintf(r->said[r->nsaid++], sizeof(r->said[0]), "%s", msg);
}

static bool receiver_start(struct receiver *r)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);

	r->cfd = -1;
	r->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (r->lfd < 0 || bind(r->lfd, (struct sockaddr *)&a, sizeof(a)) || listen(r->lfd, 8) ||
	    getsockname(r->lfd, (struct sockaddr *)&a, &len))
		return false;
	r->port = ntohs(a.sin_port);
	return true;
}

/* The timestamp of the first sample of a request's body. */
static long long first_ts(const char *body, size_t len)
{
	size_t raw_len;
	char *raw, *text = NULL, *sp;
	long long ts = -1;
	size_t tl;

	if (snappy_uncompressed_length(body, len, &raw_len) != SNAPPY_OK)
		return -1;
	raw = malloc(raw_len + 1);
	if (raw && snappy_uncompress(body, len, raw, &raw_len) == SNAPPY_OK &&
	    !rw_decode_text(raw, raw_len, &text, &tl) && (sp = strchr(text, '\n'))) {
		*sp = '\0';
		sp = strrchr(text, ' ');
		ts = sp ? atoll(sp + 1) : -1;
	}
	free(text);
	free(raw);
	return ts;
}

/* Accept, read a whole request, answer it; never blocks for long. */
static void receiver_run(struct receiver *r)
{
	struct pollfd pf = { r->cfd >= 0 ? r->cfd : r->lfd, POLLIN, 0 };
	char *hend, *cl;
	ssize_t n;

	if (poll(&pf, 1, 0) != 1)
		return;
	if (r->cfd < 0) {
		r->cfd = accept4(r->lfd, NULL, NULL, SOCK_CLOEXEC);
		r->len = 0;
		return;
	}
	n = recv(r->cfd, r->req + r->len, sizeof(r->req) - 1 - r->len, MSG_DONTWAIT);
	if (n <= 0) {
		close(r->cfd);
		r->cfd = -1;
		return;
	}
	r->len += (size_t)n;
	r->req[r->len] = '\0';
	hend = strstr(r->req, "\r\n\r\n");
	cl = strcasestr(r->req, "Content-Length: ");
	if (hend && cl && r->len >= (size_t)(hend + 4 - r->req) + (size_t)atol(cl + 16)) {
		int st = r->answered < r->nstatus ? r->statuses[r->answered] : 204;
		char resp[160], ra[40] = "";

		if (r->answered < ARRAY_SIZE(r->at))
			r->at[r->answered] = now();
		r->answered++;
		if (st / 100 == 2 && r->nts < ARRAY_SIZE(r->ts))
			r->ts[r->nts++] = first_ts(hend + 4, (size_t)atol(cl + 16));
		if (r->retry_after > 0 && (st == 429 || st == 503))
			snprintf(ra, sizeof(ra), "Retry-After: %d\r\n", r->retry_after);
		snprintf(resp, sizeof(resp), "HTTP/1.1 %d X\r\n%sContent-Length: 4\r\nConnection: close\r\n\r\nnope",
			 st, ra);
		send(r->cfd, resp, strlen(resp), MSG_NOSIGNAL);
		close(r->cfd);
		r->cfd = -1;
	}
}

/* The loop: the receiver and the pushes, until @done or @secs. */
static void loop(struct remote_write *w, struct receiver *r, double secs, bool (*done)(struct remote_write *w, struct receiver *r))
{
	double end = now() + secs;

	while (now() < end && !(done && done(w, r))) {
		struct pollfd pf = { rw_fd(w), POLLIN, 0 };
		int t = rw_timeout_ms(w);

		poll(&pf, 1, t < 0 || t > 5 ? 5 : t);
		rw_run(w);
		receiver_run(r);
	}
}

static bool queue_empty(struct remote_write *w, struct receiver *r)
{
	struct rw_stats st;

	(void)r;
	rw_get_stats(w, &st);
	return !st.queue_bytes;
}

static struct remote_write *start(struct receiver *r, size_t queue_max)
{
	char url[64], err[256];
	const char *urls[1] = { url };
	struct rw_config c = { .urls = urls, .nurls = 1, .queue_max = queue_max, .say = on_say, .ctx = r };
	struct remote_write *w;

	snprintf(url, sizeof(url), "http://127.0.0.1:%u/api/v1/write", r->port);
	w = rw_new(&c, err, sizeof(err));
	if (!w)
		printf("# rw_new: %s\n", err);
	return w;
}

/* A tick's push: two samples, as a rendering gives them. */
static void push(struct remote_write *w, long long ts)
{
	struct prom_out o = { 0 };
	struct prom_label l = { "a", "b", 1 };
	struct prom_sample s = { .name = "ktop_refreshes", .suffix = "_total", .type = PROM_U64, .u = 1 };
	int r;

	rw_push_begin(w, ts, &o);
	r = prom_emit_sample(&o, &s);
	s = (struct prom_sample){ .name = "ktop_x", .suffix = "", .labels = &l, .nlabels = 1,
				  .type = PROM_U64, .u = 2 };
	r = r ? r : prom_emit_sample(&o, &s);
	rw_push_end(w, r);
}

/* 503, 429 retried; 400 dropped and said once; the rest in order, once each. */
static void test_statuses(void)
{
	static const int script[] = { 503, 429, 204, 400, 500 };
	struct receiver r = { .statuses = script, .nstatus = ARRAY_SIZE(script) };
	struct remote_write *w;
	struct rw_stats st;
	size_t i;

	if (!CHECK(receiver_start(&r)) || !CHECK(w = start(&r, 0)))
		return;
	for (i = 1; i <= 4; i++)
		push(w, (long long)i * 1000);
	loop(w, &r, 10, queue_empty);
	rw_get_stats(w, &st);
	/* 1: 503, 429, then 204. 2: 400, dropped. 3: 500, then 204. 4: 204. */
	CHECK_EQ_U64(r.answered, 7);
	CHECK_EQ_U64(st.samples_sent, 6);
	CHECK_EQ_U64(st.samples_dropped, 2);
	CHECK_EQ_U64(st.retries, 3);
	CHECK_EQ_U64(st.queue_bytes, 0);
	CHECK_EQ_U64(r.nts, 3);
	CHECK_EQ_I64(r.ts[0], 1000);
	CHECK_EQ_I64(r.ts[1], 3000);
	CHECK_EQ_I64(r.ts[2], 4000);
	for (i = 0; i < r.nsaid; i++)
		printf("# said: %s\n", r.said[i]);
	CHECK(r.nsaid >= 2 && strstr(r.said[0], "HTTP 503; retrying"));
	rw_free(w, 0);
	close(r.lfd);
}

/* A receiver that is away: the queue holds to its bound, the oldest go, counted; then all in order. */
static void test_queue_bound(void)
{
	struct receiver r = { 0 };
	struct remote_write *w;
	struct rw_stats st;
	size_t i, one;

	if (!CHECK(receiver_start(&r)))
		return;
	/* Nobody accepts yet: the first request waits; pushes queue. */
	if (!CHECK(w = start(&r, 0)))
		return;
	push(w, 1);
	rw_get_stats(w, &st);
	one = st.queue_bytes;
	rw_free(w, 0);
	w = start(&r, one * 10);
	if (!CHECK(w))
		return;
	for (i = 1; i <= 25; i++)
		push(w, (long long)i);
	rw_get_stats(w, &st);
	CHECK(st.queue_bytes <= one * 10);
	/* 15 or 16 pushes dropped (one may be in flight, kept), 2 samples each. */
	CHECK(st.samples_dropped == 30 || st.samples_dropped == 32);
	loop(w, &r, 10, queue_empty);
	rw_get_stats(w, &st);
	CHECK_EQ_U64(st.samples_sent + st.samples_dropped, 50);
	CHECK(r.nts >= 9);
	for (i = 1; i < r.nts; i++)
		CHECK(r.ts[i] > r.ts[i - 1]);
	CHECK_EQ_I64(r.ts[r.nts - 1], 25);
	rw_free(w, 0);
	close(r.lfd);
}

/*
 * A 429 or 503 with Retry-After: the next attempt waits that long, not the
 * backoff's 0.2 s (a lower bound: a slow machine only makes it later).
 */
static void test_retry_after(void)
{
	static const int script[] = { 429, 503, 204 };
	struct receiver r = { .statuses = script, .nstatus = ARRAY_SIZE(script), .retry_after = 2 };
	struct remote_write *w;
	struct rw_stats st;

	if (!CHECK(receiver_start(&r)) || !CHECK(w = start(&r, 0)))
		return;
	push(w, 1000);
	loop(w, &r, 15, queue_empty);
	rw_get_stats(w, &st);
	CHECK_EQ_U64(r.answered, 3);
	CHECK_EQ_U64(st.samples_sent, 2);
	if (r.answered == 3) {
		printf("# attempts %.2f s and %.2f s apart (Retry-After: 2)\n", r.at[1] - r.at[0],
		       r.at[2] - r.at[1]);
		CHECK(r.at[1] - r.at[0] >= 1.9);
		CHECK(r.at[2] - r.at[1] >= 1.9);
	}
	CHECK(r.nsaid >= 1 && strstr(r.said[0], "Retry-After"));
	rw_free(w, 0);
	close(r.lfd);
}

static const struct test tests[] = {
	{ "remotewrite: 5xx and 429 retried, other 4xx dropped, in order", test_statuses },
	{ "remotewrite: the queue's bound drops the oldest, counted", test_queue_bound },
	{ "remotewrite: Retry-After of a 429 or 503 is waited for", test_retry_after },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
