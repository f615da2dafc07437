// SPDX-License-Identifier: GPL-2.0-only
/*
 * A sample exposition of outputs/promtext.c with hostile label values, for the
 * strict parsers of tests/cli/promtext.bats (promtool, prometheus_client).
 *
 *	promsample text|openmetrics [SCRAPES]
 *		print the exposition, after SCRAPES scrapes (default 1) of
 *		growing counters
 *	promsample serve SECONDS
 *		serve it with src/httpd.c on 127.0.0.1 and a free port, print
 *		the port, and answer for SECONDS seconds
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../outputs/promtext.h"
#include "../../src/httpd.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const comm_lv[] = { "comm" };
static const char *const comm_sc_lv[] = { "comm", "syscall" };
static const char *const cgroup_lv[] = { "cgroup" };
static const char *const kind_lv[] = { "kind" };

static const struct prom_family_def defs[] = {
	{ "ktop_syscalls", PROM_COUNTER, PROM_U64, NULL,
	  "System calls, by group and system call. Quote \" backslash \\ newline \n end.",
	  comm_sc_lv, 2, 6 },
	{ "ktop_cpu_seconds", PROM_COUNTER, PROM_DOUBLE, "seconds", "CPU time, by group.",
	  comm_lv, 1, 0 },
	{ "ktop_processes", PROM_GAUGE, PROM_U64, NULL, "Processes, by cgroup.", cgroup_lv, 1,
	  3 },
	{ "ktop_odd", PROM_GAUGE, PROM_DOUBLE, NULL, "Odd values.", kind_lv, 1, 0 },
	{ "ktop_signals", PROM_COUNTER, PROM_U64, NULL, "Signals (none here).", comm_lv, 1,
	  10 },
	{ "ktop_tracing", PROM_GAUGE, PROM_U64, NULL, "1 when tracing is on.", NULL, 0, 0 },
	{ "ktop_wait_seconds", PROM_HISTOGRAM, PROM_U64, "seconds",
	  "Waits, by group and system call (a histogram).", comm_sc_lv, 2, 5 },
	{ "ktop_metrics_dropped_series", PROM_GAUGE, PROM_U64, NULL,
	  "Label sets summed into other series at the last scrape.", NULL, 0, 0 },
};

static const char *const comms[] = {
	"bash", "a\"quote", "back\\slash", "new\nline", ("\xff\xfe" "bad"), "tab\there",
	"esc\x1b[31mred", "", "other", "caf\xc3\xa9 \xf0\x9f\x98\x80", "cr\rx", "\xc0\xaf",
};

static const char *const cgroups[] = {
	"/system.slice/ssh.service", "/user.slice/user-0.slice/\xe9t\xe9", "/a\"b\\c",
	"/x/\xed\xa0\x80surrogate", "/", "/other",
};

static struct prom_family *fam[N(defs)];

/* The histogram's buckets (and +Inf): odd ones, tiny to large. */
static const double bounds[] = { 1e-06, 0.001, 0.5, 2, 1e6 };

static void render(struct prom_buf *b, enum prom_format fmt, unsigned scrape)
{
	size_t i, dropped = 0;

	prom_buf_reset(b);
	for (i = 0; i < N(defs); i++)
		prom_family_begin(fam[i]);
	for (i = 0; i < N(comms); i++) {
		const char *sc[] = { comms[i], i % 2 ? "read" : "openat" };
		const char *c[] = { comms[i] };

		prom_family_add_u64(fam[0], sc, (i + 1) * 1000 * scrape);
		prom_family_add_double(fam[1], c, 0.1 * (double)(i + 1) * scrape);
		prom_family_add_hist(fam[6], sc,
				     (const uint64_t[]){ i * scrape, scrape, 0, 2 * scrape, i % 2, scrape },
				     0.25 * (double)(i + 1) * scrape);
	}
	prom_family_add_u64(fam[0], (const char *[]){ "huge", "read" }, UINT64_MAX);
	for (i = 0; i < N(cgroups); i++)
		prom_family_add_u64(fam[2], (const char *[]){ cgroups[i] }, i * 7 % 5);
	prom_family_add_double(fam[3], (const char *[]){ "neg" }, -2.5);
	prom_family_add_double(fam[3], (const char *[]){ "nan" }, 0.0 / 0.0);
	prom_family_add_double(fam[3], (const char *[]){ "inf" }, 1.0 / 0.0);
	prom_family_add_double(fam[3], (const char *[]){ "-inf" }, -1.0 / 0.0);
	prom_family_add_double(fam[3], (const char *[]){ "tiny" }, 1e-300);
	prom_family_add_double(fam[3], (const char *[]){ "big" }, 1.5e300);
	prom_family_add_double(fam[3], (const char *[]){ "third" }, 1.0 / 3);
	prom_family_add_u64(fam[5], NULL, 1);
	for (i = 0; i + 1 < N(defs); i++) {
		prom_family_write(fam[i], b, fmt);
		dropped += prom_family_dropped(fam[i]);
	}
	prom_family_add_u64(fam[N(defs) - 1], NULL, dropped);
	prom_family_write(fam[N(defs) - 1], b, fmt);
	prom_write_eof(b, fmt);
}

struct serve_ctx {
	struct prom_buf buf;
	unsigned scrapes;
};

static int serve_render(void *ctx, enum httpd_format fmt, const char **body, size_t *len)
{
	struct serve_ctx *s = ctx;

	render(&s->buf, fmt == HTTPD_OPENMETRICS ? PROM_FMT_OPENMETRICS : PROM_FMT_TEXT,
	       ++s->scrapes);
	if (s->buf.nomem)
		return -ENOMEM;
	*body = s->buf.data;
	*len = s->buf.len;
	return 0;
}

static int serve(double seconds)
{
	struct serve_ctx ctx = { { 0 }, 0 };
	struct httpd *h;
	struct timespec t0, t;
	char err[256];
	int r;

	r = httpd_start(":0", NULL, serve_render, &ctx, &h, err, sizeof(err));
	if (r) {
		fprintf(stderr, "promsample: %s\n", err);
		return r == -EINVAL ? 2 : 1;
	}
	printf("%u\n", httpd_port(h));
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { httpd_fd(h), POLLIN, 0 };
		int tmo = httpd_timeout_ms(h);

		if (tmo < 0 || tmo > 100)
			tmo = 100;
		poll(&pfd, 1, tmo);
		httpd_run(h);
		/* A new scrape renders again (counters grow between scrapes). */
		httpd_invalidate(h);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 > seconds)
			break;
	}
	httpd_stop(h);
	prom_buf_free(&ctx.buf);
	return 0;
}

int main(int argc, char **argv)
{
	struct prom_buf b = { 0 };
	unsigned i, n = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
	char err[256];
	int r = 0;

	for (i = 0; i < N(defs); i++) {
		fam[i] = defs[i].type == PROM_HISTOGRAM ?
			 prom_family_new_hist(&defs[i], bounds, N(bounds), err, sizeof(err)) :
			 prom_family_new(&defs[i], err, sizeof(err));
		if (!fam[i]) {
			fprintf(stderr, "promsample: %s\n", err);
			return 1;
		}
	}
	if (argc >= 2 && !strcmp(argv[1], "serve")) {
		r = serve(argc > 2 ? atof(argv[2]) : 10);
	} else if (argc >= 2 && (!strcmp(argv[1], "text") || !strcmp(argv[1], "openmetrics"))) {
		for (i = 1; i <= n; i++)
			render(&b, !strcmp(argv[1], "text") ? PROM_FMT_TEXT : PROM_FMT_OPENMETRICS, i);
		fwrite(b.data, 1, b.len, stdout);
	} else {
		fprintf(stderr, "usage: promsample text|openmetrics [SCRAPES] | serve SECONDS\n");
		r = 2;
	}
	prom_buf_free(&b);
	for (i = 0; i < N(defs); i++)
		prom_family_free(fam[i]);
	return r;
}
