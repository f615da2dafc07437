// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exporter, a sink beside the mode's own (live, batch, summary, or none:
 * ktop -b --listen): outputs/metrics.c keeps the per-group counters and
 * renders them; this file wires it to the HTTP server (src/httpd.c, driven
 * by the main loop's poll) and to --textfile, and says how ktop itself is.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/dl.h"
#include "../lib/util.h"
#include "../collectors/clocks.h"
#include "../outputs/metrics.h"
#include "../outputs/textfile.h"
#include "httpd.h"
#include "flightctl.h"
#include "ktop.h"
#include "remotewrite.h"
#include "webconfig.h"

/* ---- --web-config ---- */

/*
 * Read --web-config and the files it names, and serve as it says. Returns 0,
 * or a negative errno with the reason in @err (the server goes on as it was).
 */
static int apply_web_config(struct ktop *k, char *err, size_t errlen)
{
	struct httpd_security sec = { 0 };
	struct httpd_user *users = NULL;
	char *cert = NULL, *key = NULL, *ca = NULL;
	struct webconfig wc;
	size_t i;
	int r;

	/*
	 * Stamped as read (a change while reading is read at the next tick), and
	 * again while it is bad: it is read again when it changes.
	 */
	k->web_stamp = webconfig_stamp(k->opt.web_config, &k->web);
	r = webconfig_load(k->opt.web_config, &wc, err, errlen);
	if (r)
		return r;
	k->web_stamp = webconfig_stamp(k->opt.web_config, &wc);
	r = -EIO;
	if (wc.tls && (!(cert = webconfig_read_file("--web-config: cert_file", wc.cert_file, err, errlen)) ||
		       !(key = webconfig_read_file("--web-config: key_file", wc.key_file, err, errlen))))
		goto out;
	if (wc.client_ca_file &&
	    !(ca = webconfig_read_file("--web-config: client_ca_file", wc.client_ca_file, err, errlen)))
		goto out;
	if (wc.nusers && !(users = calloc(wc.nusers, sizeof(*users)))) {
		r = err_set(err, errlen, -ENOMEM, "--web-config: out of memory");
		goto out;
	}
	for (i = 0; i < wc.nusers; i++)
		users[i] = (struct httpd_user){ wc.users[i].name, wc.users[i].hash };
	sec = (struct httpd_security){
		.cert_pem = cert, .key_pem = key, .trust_pem = ca,
		.cert_required = wc.client_auth == WC_REQUIRE_ANY_CLIENT_CERT ||
				 wc.client_auth == WC_REQUIRE_AND_VERIFY,
		.cert_verified = wc.client_auth == WC_VERIFY_IF_GIVEN ||
				 wc.client_auth == WC_REQUIRE_AND_VERIFY,
		.users = users, .nusers = wc.nusers,
	};
	r = httpd_set_security(k->httpd, &sec, err, errlen);
	if (!r) {
		k->web_auth = wc.nusers > 0;
		/* Kept: the files it names are those to watch. */
		webconfig_free(&k->web);
		k->web = wc;
		memset(&wc, 0, sizeof(wc));
	}
out:
	if (key) {
		memset(key, 0, strlen(key));	/* the private key: not left in freed memory */
		free(key);
	}
	free(cert);
	free(ca);
	free(users);
	webconfig_free(&wc);
	return r;
}

/*
 * At each tick: the file (or one it names) changed? Read it again; a bad one
 * is said once (again when it goes wrong otherwise, or after it was read).
 */
static void web_config_tick(struct ktop *k)
{
	char err[512];

	if (!k->opt.web_config || !k->httpd)
		return;
	/* A few stat() per tick; the file is parsed only when one of them changed. */
	if (k->web_stamp && webconfig_stamp(k->opt.web_config, &k->web) == k->web_stamp)
		return;
	if (!apply_web_config(k, err, sizeof(err))) {
		k->web_said[0] = '\0';
		return;
	}
	if (!strcmp(k->web_said, err))
		return;
	snprintf(k->web_said, sizeof(k->web_said), "%s", err);
	if (k->mode->screen)
		app_message(&k->app, "%s (the configuration before is kept)", err);
	else
		fprintf(stderr, "ktop: %s (the configuration before is kept)\n", err);
}

/* ---- where the metrics go ---- */

static bool loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
	if (ss->ss_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)ss)->sin6_addr);
	return ss->ss_family == AF_UNIX;
}

/*
 * --listen systemd: the socket systemd passed (LISTEN_PID is ktop, LISTEN_FDS
 * at least 1: fd 3), as "fd:3" for httpd; the variables are removed so that
 * CMD does not take the socket for its own.
 */
static int systemd_socket(char *spec, size_t len, char *err, size_t errlen)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");

	if (!pid || !fds || strtol(pid, NULL, 10) != (long)getpid() || strtol(fds, NULL, 10) < 1)
		return err_set(err, errlen, -EINVAL,
			       "--listen systemd: no socket passed (LISTEN_PID and LISTEN_FDS: start ktop from a .socket unit)");
	if (strtol(fds, NULL, 10) > 1)
		fprintf(stderr, "ktop: --listen systemd: %s sockets passed, ktop serves the first\n", fds);
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	snprintf(spec, len, "fd:3");
	return 0;
}

/* Whether --listen (or systemd's socket) is reachable beyond this host. */
static bool off_host(const char *spec)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char err[256];

	if (!strncmp(spec, "fd:", 3)) {
		if (getsockname(atoi(spec + 3), (struct sockaddr *)&ss, &len))
			return false;
	} else if (httpd_parse_listen(spec, &ss, &len, err, sizeof(err))) {
		return false;
	}
	return !loopback(&ss);
}

/* The hidepid=N of /proc's mount (0: none, or /proc not found). */
static int proc_hidepid(char *how, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char mnt[256], *opt;

		if (sscanf(line, "%*s %*s %*s %*s %255s", mnt) != 1 || strcmp(mnt, "/proc"))
			continue;
		opt = strstr(line, "hidepid=");
		n = 0;
		if (opt) {
			snprintf(how, len, "%.*s", (int)strcspn(opt, ", \n"), opt);
			n = !strncmp(opt + 8, "0", 1) || !strncmp(opt + 8, "off", 3) ? 0 : 1;
		}
	}
	fclose(f);
	return n;
}

/*
 * /proc hides other users' processes from them (hidepid): metrics that name
 * every process, readable by anyone who connects or reads a 0644 file or the
 * receiver, would undo it. Said at start; refused unless --expose-hidepid.
 */
static int hidepid_check(struct ktop *k, bool open_http)
{
	char how[64] = "hidepid", what[160] = "";

	if (!proc_hidepid(how, sizeof(how)))
		return 0;
	if (open_http)
		snprintf(what, sizeof(what), "--listen without basic auth");
	if (k->opt.textfile)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s--textfile (0644)",
			 what[0] ? ", " : "");
	if (k->opt.nremote_write)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s--remote-write",
			 what[0] ? ", " : "");
	if (!what[0])
		return 0;
	if (k->opt.expose_hidepid) {
		fprintf(stderr, "ktop: /proc is mounted with %s: %s shows every user's processes (--expose-hidepid)\n",
			how, what);
		return 0;
	}
	fprintf(stderr, "ktop: /proc is mounted with %s: %s would show every user's processes to others; add --expose-hidepid to serve them anyway\n",
		how, what);
	return 2;
}

/*
 * The trace status's sentence (the header's, stderr's) as ktop_tracing_info's
 * cause: a label takes one of a few words, never the sentence (whose paths,
 * errnos and event lists would make a series of each).
 */
static const char *tracing_cause(const char *status)
{
	static const struct { const char *prefix, *cause; } causes[] = {
		{ "events missing here", "events_missing" },
		{ "tracing off: ktop runs in a pid namespace", "pid_namespace" },
		{ "tracing off: tracefs is not mounted", "no_tracefs" },
		{ "tracing off: tracefs is mounted read-only", "not_permitted" },
		{ "tracing off: needs root", "not_permitted" },
	};
	size_t i;

	for (i = 0; i < sizeof(causes) / sizeof(causes[0]); i++)
		if (!strncmp(status, causes[i].prefix, strlen(causes[i].prefix)))
			return causes[i].cause;
	return "error";
}

/* @h's strings point into @fs and the model: both outlive the render. */
static void health(struct ktop *k, struct metrics_health *h, struct counting_stats *fs)
{
	const struct model *m = &k->model;

	memset(h, 0, sizeof(*h));
	*fs = k->fstats;
	h->tracing = counting_on(k->ftrace);
	if (k->ftrace)
		counting_get_stats(k->ftrace, fs);
	h->have_events = k->traced;
	h->events = fs->events;
	h->clock = k->traced ? fs->clock : "";
	if (h->tracing)
		h->cause = strncmp(m->trace_status, "events missing", 14) ? "none" :
			   tracing_cause(m->trace_status);
	else if (k->opt.no_trace)
		h->cause = "no_trace_option";
	else if (k->traced)
		h->cause = "stopped";
	else
		h->cause = tracing_cause(m->trace_status);
	if (k->httpd) {
		struct httpd_stats st;

		httpd_get_stats(k->httpd, &st);
		h->have_http = true;
		h->scrapes = st.scrapes;
		h->last_scrape_s = st.last_scrape_s;
	}
	h->have_flight = k->flight != NULL;
	flightctl_counts(k, &h->flight_files, &h->flight_bytes);
	if (k->rw) {
		struct rw_stats st;

		rw_get_stats(k->rw, &st);
		h->have_rw = true;
		h->rw_sent = st.samples_sent;
		h->rw_dropped = st.samples_dropped;
		h->rw_queue_bytes = st.queue_bytes;
	}
}

static int render(struct ktop *k, const struct prom_out *o)
{
	struct metrics_health h;
	struct counting_stats fs;

	health(k, &h, &fs);
	return metrics_emit(k->metrics, &h, o);
}

/* httpd's callback: at most once per format between two ticks (httpd caches it). */
static int on_scrape(void *ctx, enum httpd_format fmt, const char **body, size_t *len)
{
	struct ktop *k = ctx;
	const struct prom_out o = {
		.text = &k->prom, .fmt = fmt == HTTPD_OPENMETRICS ? PROM_FMT_OPENMETRICS : PROM_FMT_TEXT,
	};
	uint64_t t0 = clocks_thread_cpu_ns();
	int r = render(k, &o);

	k->scrape_cpu_ns += clocks_thread_cpu_ns() - t0;
	k->scrape_renders++;
	if (r)
		return r;
	*body = k->prom.data;
	*len = k->prom.len;
	return 0;
}

/* ---- --remote-write ---- */

/* What the pushes say went wrong: once per kind (remotewrite.c), on the screen or stderr. */
static void rw_say(void *ctx, const char *msg)
{
	struct ktop *k = ctx;

	if (k->mode->screen)
		app_message(&k->app, "%s", msg);
	else
		fprintf(stderr, "ktop: %s\n", msg);
}

static int rw_start(struct ktop *k, char *err, size_t errlen)
{
	struct rw_label labels[OPT_LIST_MAX + 2];
	char host[256] = "", split[OPT_LIST_MAX][256];
	size_t n = 0, i, j;
	struct rw_config c = {
		.urls = k->opt.remote_write, .nurls = k->opt.nremote_write,
		.headers = k->opt.rw_headers, .nheaders = k->opt.nrw_headers,
		.queue_max = k->opt.rw_queue, .user = k->opt.rw_user,
		.password_file = k->opt.rw_password_file, .token_file = k->opt.rw_token_file,
		.ca_file = k->opt.rw_ca, .say = rw_say, .ctx = k,
	};

	for (i = 0; i < k->opt.next_labels; i++) {
		const char *eq = strchr(k->opt.ext_labels[i], '=');

		snprintf(split[i], sizeof(split[i]), "%s", k->opt.ext_labels[i]);
		split[i][eq - k->opt.ext_labels[i]] = '\0';
		/* The last of a name wins. */
		for (j = 0; j < n && strcmp(labels[j].name, split[i]); j++)
			;
		labels[j] = (struct rw_label){ split[i], split[i] + (eq - k->opt.ext_labels[i]) + 1 };
		if (j == n)
			n++;
	}
	/* Which machine: what a scrape's instance label would say, unless given. */
	gethostname(host, sizeof(host) - 1);
	for (j = 0; j < n && strcmp(labels[j].name, "instance"); j++)
		;
	if (j == n && host[0])
		labels[n++] = (struct rw_label){ "instance", host };
	for (j = 0; j < n && strcmp(labels[j].name, "job"); j++)
		;
	if (j == n)
		labels[n++] = (struct rw_label){ "job", "ktop" };
	c.labels = labels;
	c.nlabels = n;
	k->rw = rw_new(&c, err, errlen);
	return k->rw ? 0 : -ENOMEM;
}

int exporter_poll_fd(const struct ktop *k)
{
	return rw_fd(k->rw);
}

int exporter_poll_timeout(const struct ktop *k, int timeout_ms)
{
	int t = rw_timeout_ms(k->rw);

	return t >= 0 && (timeout_ms < 0 || t < timeout_ms) ? t : timeout_ms;
}

void exporter_poll_run(struct ktop *k)
{
	rw_run(k->rw);
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
	/* Their libraries first: one missing is one line, before anything starts. */
	if ((k->opt.listen && dl_load_for("--listen", err, sizeof(err))) ||
	    (k->opt.web_config && dl_load_for("--web-config", err, sizeof(err))) ||
	    (k->opt.nremote_write && dl_load_for("--remote-write", err, sizeof(err)))) {
		fprintf(stderr, "ktop: %s\n", err);
		return 1;
	}
	k->metrics = metrics_new(&mo, err, sizeof(err));
	if (!k->metrics) {
		fprintf(stderr, "ktop: %s\n", err);
		return 1;
	}
	if (k->opt.listen) {
		char spec[16];
		const char *listen = k->opt.listen;

		if (!strcmp(listen, "systemd")) {
			if (systemd_socket(spec, sizeof(spec), err, sizeof(err))) {
				fprintf(stderr, "ktop: %s\n", err);
				return 1;
			}
			listen = spec;
		}
		r = httpd_start(listen, NULL, on_scrape, k, &k->httpd, err, sizeof(err));
		if (r) {
			fprintf(stderr, "ktop: %s\n", err);
			return r == -EINVAL ? 2 : 1;
		}
		if (k->opt.web_config && apply_web_config(k, err, sizeof(err))) {
			fprintf(stderr, "ktop: %s\n", err);
			return 1;
		}
		if (!k->opt.web_config && off_host(listen))
			fprintf(stderr, "ktop: warning: --listen %s serves the metrics beyond this host without TLS or authentication: see --web-config\n",
				k->opt.listen);
	}
	r = hidepid_check(k, k->opt.listen && !k->web_auth);
	if (r)
		return r;
	if (k->opt.nremote_write && rw_start(k, err, sizeof(err))) {
		fprintf(stderr, "ktop: %s\n", err);
		return 1;
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

static void textfile_tick(struct ktop *k, int r)
{
	char err[512];

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
	metrics_tick(k->metrics, &k->model);
	if (k->httpd) {
		httpd_invalidate(k->httpd);
		web_config_tick(k);
	}
	if (k->textfile || k->rw) {
		/* One rendering for both: the page and the push's samples. */
		struct prom_out o = { .text = k->textfile ? &k->prom : NULL, .fmt = PROM_FMT_TEXT };
		uint64_t t0 = clocks_thread_cpu_ns();
		int r;

		/* Each sample at the time of its tick, however late it is delivered. */
		if (k->rw)
			rw_push_begin(k->rw, (int64_t)(k->model.wall_s * 1000 + 0.5), &o);
		r = render(k, &o);
		if (k->rw) {
			rw_push_end(k->rw, r);
			/* The push's own cost (with the page's when --textfile shares it). */
			k->push_cpu_ns += clocks_thread_cpu_ns() - t0;
			k->pushes++;
		}
		if (k->textfile)
			textfile_tick(k, r);
	}
}

void exporter_stop(struct ktop *k)
{
	httpd_stop(k->httpd);
	k->httpd = NULL;
	/* What the receivers have not taken yet: 2 s at most, while they answer. */
	rw_free(k->rw, 2.0);
	k->rw = NULL;
	/* ktop's metrics end with it: not left frozen in node_exporter's. */
	textfile_close(k->textfile, true);
	k->textfile = NULL;
	metrics_free(k->metrics);
	k->metrics = NULL;
	webconfig_free(&k->web);
	prom_buf_free(&k->prom);
}
