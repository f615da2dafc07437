// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exporter, a sink beside the mode's own (live, batch, summary, or none:
 * ktop -b --listen): outputs/metrics.c keeps the per-group counters and
 * renders them; this file wires it to the HTTP server (src/httpd.c, driven
 * by the main loop's poll) and to --textfile, and says how ktop itself is.
 */
#include <errno.h>
#include <string.h>

#include "../outputs/metrics.h"
#include "../outputs/textfile.h"
#include "httpd.h"
#include "ktop.h"

static void health(struct ktop *k, struct metrics_health *h, char *reason, size_t len)
{
	const struct model *m = &k->app.model;
	struct ftrace_stats fs = k->fstats;

	memset(h, 0, sizeof(*h));
	h->tracing = ftrace_on(k->ftrace);
	if (k->ftrace)
		ftrace_get_stats(k->ftrace, &fs);
	h->have_events = k->traced;
	h->events = fs.events;
	if (h->tracing)
		snprintf(reason, len, "%s", m->trace_status);
	else if (k->opt.no_trace)
		snprintf(reason, len, "--no-trace");
	else if (k->traced)
		snprintf(reason, len, "tracing stopped: %s ended", k->opt.cmd ? "the command" : "ktop");
	else
		snprintf(reason, len, "%s", m->trace_status[0] ? m->trace_status :
			 "tracing is not running");
	h->reason = reason;
	if (k->httpd) {
		struct httpd_stats st;

		httpd_get_stats(k->httpd, &st);
		h->have_http = true;
		h->scrapes = st.scrapes;
		h->last_scrape_s = st.last_scrape_s;
	}
}

static int render(struct ktop *k, enum prom_format fmt)
{
	struct metrics_health h;
	char reason[sizeof(k->app.model.trace_status) + 64];

	health(k, &h, reason, sizeof(reason));
	return metrics_render(k->metrics, &h, fmt, &k->prom);
}

/* httpd's callback: at most once per format between two ticks (httpd caches it). */
static int on_scrape(void *ctx, enum httpd_format fmt, const char **body, size_t *len)
{
	struct ktop *k = ctx;
	int r = render(k, fmt == HTTPD_OPENMETRICS ? PROM_FMT_OPENMETRICS : PROM_FMT_TEXT);

	if (r)
		return r;
	*body = k->prom.data;
	*len = k->prom.len;
	return 0;
}

/*
 * Before anything else starts (no tracing, no CMD): a port that cannot be
 * served or a directory that cannot be written is a one-line error.
 * Returns 0, or the exit status (1; 2 for a bad address).
 */
int exporter_start(struct ktop *k)
{
	struct metrics_opts mo = {
		.by = k->opt.metrics_by, .max_series = k->opt.metrics_max_series,
		.expire_s = k->opt.metrics_expire < 0 ? METRICS_EXPIRE_DEFAULT : k->opt.metrics_expire,
	};
	char err[512];
	int r;

	if (!options_exporter(&k->opt))
		return 0;
	k->metrics = metrics_new(&mo, err, sizeof(err));
	if (!k->metrics) {
		fprintf(stderr, "ktop: %s\n", err);
		return 1;
	}
	if (k->opt.listen) {
		r = httpd_start(k->opt.listen, NULL, on_scrape, k, &k->httpd, err, sizeof(err));
		if (r) {
			fprintf(stderr, "ktop: %s\n", err);
			return r == -EINVAL ? 2 : 1;
		}
	}
	if (k->opt.textfile) {
		k->textfile = textfile_open(k->opt.textfile, err, sizeof(err));
		if (!k->textfile) {
			fprintf(stderr, "ktop: %s\n", err);
			return 1;
		}
	}
	return 0;
}

static void textfile_tick(struct ktop *k)
{
	char err[512];
	int r = render(k, PROM_FMT_TEXT);

	if (!r)
		r = textfile_write(k->textfile, k->prom.data, k->prom.len, false, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "--textfile: the metrics could not be rendered: %s",
			 strerror(-r));
	if (!r) {
		k->textfile_failing = false;
		return;
	}
	/* Said once until it works again: a full disk must not flood the terminal or the log. */
	if (k->textfile_failing)
		return;
	k->textfile_failing = true;
	if (k->mode->screen)
		app_message(&k->app, "%s", err);
	else
		fprintf(stderr, "ktop: %s\n", err);
}

void exporter_interval(struct ktop *k)
{
	if (!k->metrics)
		return;
	metrics_tick(k->metrics, &k->app.model);
	if (k->httpd)
		httpd_invalidate(k->httpd);
	if (k->textfile)
		textfile_tick(k);
}

void exporter_stop(struct ktop *k)
{
	httpd_stop(k->httpd);
	k->httpd = NULL;
	/* ktop's metrics end with it: not left frozen in node_exporter's. */
	textfile_close(k->textfile, true);
	k->textfile = NULL;
	metrics_free(k->metrics);
	k->metrics = NULL;
	prom_buf_free(&k->prom);
}
