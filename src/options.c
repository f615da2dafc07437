// SPDX-License-Identifier: GPL-2.0-only
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"
#include "../outputs/metrics.h"
#include "../tables/trigger.h"
#include "flightctl.h"
#include "httpd.h"

enum {
	OPT_CSV = 256, OPT_JSON, OPT_NO_TRACE, OPT_LATENCY, OPT_SYSCALLS, OPT_EVENTS, OPT_THEME, OPT_ASCII,
	OPT_NO_MOUSE, OPT_SUMMARY, OPT_OUTPUT, OPT_LISTEN, OPT_TEXTFILE, OPT_GROUP_BY,
	OPT_MAX_SERIES, OPT_VIEW, OPT_VIEW_GROUP_BY,
	OPT_RECORD_KEEP, OPT_RECORD_MAX, OPT_BEGIN, OPT_END, OPT_FOLLOW,
	OPT_EXPIRE, OPT_WEB_CONFIG, OPT_RW, OPT_RW_HEADER, OPT_EXT_LABEL, OPT_RW_QUEUE,
	OPT_RW_USER, OPT_RW_PASSWORD, OPT_RW_TOKEN, OPT_RW_CA, OPT_EXPOSE_HIDEPID, OPT_COMPLETION,
	OPT_FLIGHT, OPT_FLIGHT_DIR, OPT_FLIGHT_AFTER, OPT_TRIGGER, OPT_TRIGGER_EVERY,
};

static const struct option long_opts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "pid", required_argument, NULL, 'p' },
	{ "columns", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, 's' },
	{ "threads", no_argument, NULL, 'H' },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	{ "latency", no_argument, NULL, OPT_LATENCY },
	{ "syscalls", no_argument, NULL, OPT_SYSCALLS },
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "metrics-group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "metrics-max-series", required_argument, NULL, OPT_MAX_SERIES },
	{ "metrics-expire", required_argument, NULL, OPT_EXPIRE },
	{ "web-config", required_argument, NULL, OPT_WEB_CONFIG },
	{ "remote-write", required_argument, NULL, OPT_RW },
	{ "remote-write-header", required_argument, NULL, OPT_RW_HEADER },
	{ "external-label", required_argument, NULL, OPT_EXT_LABEL },
	{ "remote-write-queue", required_argument, NULL, OPT_RW_QUEUE },
	{ "remote-write-user", required_argument, NULL, OPT_RW_USER },
	{ "remote-write-password-file", required_argument, NULL, OPT_RW_PASSWORD },
	{ "remote-write-bearer-token-file", required_argument, NULL, OPT_RW_TOKEN },
	{ "remote-write-ca", required_argument, NULL, OPT_RW_CA },
	{ "expose-hidepid", no_argument, NULL, OPT_EXPOSE_HIDEPID },
	{ "view", required_argument, NULL, OPT_VIEW },
	{ "group-by", required_argument, NULL, OPT_VIEW_GROUP_BY },
	{ "write", required_argument, NULL, 'w' },
	{ "record-keep", required_argument, NULL, OPT_RECORD_KEEP },
	{ "record-max-size", required_argument, NULL, OPT_RECORD_MAX },
	{ "read", required_argument, NULL, 'r' },
	{ "begin", required_argument, NULL, OPT_BEGIN },
	{ "end", required_argument, NULL, OPT_END },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{ "flight", required_argument, NULL, OPT_FLIGHT },
	{ "flight-dir", required_argument, NULL, OPT_FLIGHT_DIR },
	{ "flight-after", required_argument, NULL, OPT_FLIGHT_AFTER },
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ "trigger-every", required_argument, NULL, OPT_TRIGGER_EVERY },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "completion", required_argument, NULL, OPT_COMPLETION },
	{ NULL, 0, NULL, 0 },
};

const struct option *options_long(void)
{
	return long_opts;
}

void options_usage(FILE *f)
{
	int i;

	fputs("Usage: ktop [options]\n"
	      "       ktop [options] -- CMD [ARGS...]\n"
	      "       ktop --summary [--csv|--json] (-p PID[,PID...] | -- CMD [ARGS...])\n"
	      "       ktop -w FILE [-b] [options]      record; ktop -r FILE [-b] [options]  replay\n"
	      "Live per-process kernel event rates: system calls (as root), context switches,\n"
	      "signals, page faults, CPU, memory.\n"
	      "\n"
	      "  -b, --batch            write text (or CSV/JSON) to stdout instead of the screen\n"
	      "  -n, --iterations N     batch: stop after N iterations (default: until interrupted)\n"
	      "  -d, --delay SECONDS    time between refreshes, 0.01 to 86400, fractions allowed (default\n"
	      "                         2 screen, 1 batch; the same range for the d key, F2, ktoprc)\n"
	      "  -p, --pid PID[,PID...] only these processes (repeatable); batch text and JSON\n"
	      "                         list the system calls they have been in an interval or more\n"
	      "  -o, --columns LIST     batch columns, comma-separated keys (see below)\n"
	      "  -s, --sort KEY         sort by column KEY, descending; +KEY ascending\n"
	      "  -H, --threads          one row per thread instead of per process\n"
	      "      --csv              batch: CSV, a header line then one row per process per interval\n"
	      "      --json             batch: one JSON object per interval per line\n"
	      "      --syscalls         batch: per process, each system call's calls and errors\n"
	      "                         in the interval (CSV: one row per process and syscall);\n"
	      "                         timed: time_ms, p50_us, p99_us, max_us\n"
	      "      --no-trace         do not trace: a /proc monitor only (no syscall columns)\n"
	      "      --latency          time every system call, system-wide (sys_enter too: twice\n"
	      "                         the events a call): sc_time_ms, sc_p99_us, --syscalls'\n"
	      "                         times, the Latency view (7), the exporter's histogram.\n"
	      "                         Percentiles are log2 bucket bounds: p99 16 = 99% of the\n"
	      "                         calls took at most 16 us\n"
	      "      --events N         process view: the recent kernel events kept per focused\n"
	      "                         process, with their snapshots (default 4096)\n"
	      "      --theme NAME       live view: colours of theme NAME (default, light, mono,\n"
	      "                         high-contrast, or a file); NO_COLOR forces mono\n"
	      "      --ascii            live view: ASCII lines and graphs even in a UTF-8 locale\n"
	      "      --no-mouse         live view: leave the mouse to the terminal\n"
	      "      --summary          at exit, per system call: time, calls, errors, subsystem\n"
	      "                         (like strace -c -f), then totals per subsystem; needs\n"
	      "                         -- CMD or -p; -s time|calls|errors|avg|max|name orders it\n"
	      "      --output FILE      batch and summary output to FILE instead of stdout\n"
	      "      --listen [ADDR:]PORT  serve Prometheus metrics on http://ADDR:PORT/metrics\n"
	      "                         in any mode (ADDR default 127.0.0.1; 0.0.0.0 for all);\n"
	      "                         ktop -b --listen PORT alone writes nothing to stdout;\n"
	      "                         --listen systemd: the socket of a .socket unit\n"
	      "      --textfile DIR     write the same metrics to DIR/ktop.prom at each refresh\n"
	      "                         (atomically, for node_exporter's textfile collector)\n"
	      "      --metrics-group-by KEY  group the metrics by comm, user, unit, container,\n"
	      "                         pod, namespace or cgroup (default comm)\n"
	      "      --metrics-max-series N  series per metric and groups kept, the rest summed\n"
	      "                         into \"other\" (default 4000)\n"
	      "      --metrics-expire SECONDS  a group with no process for SECONDS leaves the\n"
	      "                         metrics, its slot free for new names (default 300; 0 never)\n"
	      "      --web-config FILE  TLS and basic auth of --listen, in node_exporter's\n"
	      "                         web config format (re-read when it changes)\n"
	      "      --remote-write URL push the same metrics to URL at each refresh (Prometheus\n"
	      "                         remote write 1.0; repeatable)\n"
	      "      --remote-write-header 'NAME: VALUE'  an HTTP header of each push (repeatable)\n"
	      "      --external-label NAME=VALUE  a label of every pushed series (repeatable;\n"
	      "                         default instance=HOSTNAME and job=ktop)\n"
	      "      --remote-write-queue SIZE  bytes of pushes held while the receiver is away,\n"
	      "                         then the oldest dropped (default 64M)\n"
	      "      --remote-write-user USER, --remote-write-password-file FILE  basic auth\n"
	      "      --remote-write-bearer-token-file FILE  Authorization: Bearer (from FILE)\n"
	      "      --remote-write-ca FILE  the receiver's TLS certificate authority\n"
	      "      --expose-hidepid   serve the metrics (--listen without basic auth, --textfile,\n"
	      "                         --remote-write) though /proc is mounted with hidepid\n"
	      "      --view VIEW        processes (default), syscalls, errors, subsystems,\n"
	      "                         signals, groups, latency, connections or disks: what batch\n"
	      "                         writes, what the live view shows first (system-wide\n"
	      "                         tables, see ktop(1))\n"
	      "      --group-by KEY     the groups view's groups: comm, user, cgroup, unit\n"
	      "                         (systemd), container, pod or namespace (default comm)\n"
	      "  -w, --write FILE       record every interval to FILE (SQLite; strftime conversions\n"
	      "                         start a new file when the name changes: ktop_%Y%m%d.db);\n"
	      "                         with -b nothing on stdout unless --csv, --json, -o or\n"
	      "                         --output ask for it; made 0600, and refused where a\n"
	      "                         file, -wal or -journal is another user's\n"
	      "      --record-keep DAYS remove recordings of the -w pattern older than DAYS\n"
	      "      --record-max-size SIZE  then remove the oldest while the pattern's files\n"
	      "                         take more than SIZE of disk (K, M, G, T: powers of\n"
	      "                         1024); only ktop's user's own are counted or removed\n"
	      "  -r, --read FILE        replay a recording: the live view (keys [ ] J Space), -b,\n"
	      "                         or --summary -p PID, as they were when recorded\n"
	      "      --begin TIME       replay from TIME: HH:MM[:SS], YYYY-MM-DD HH:MM[:SS], or\n"
	      "                         seconds since 1970\n"
	      "      --end TIME         replay up to TIME\n"
	      "      --follow           batch replay: wait for the intervals still being recorded\n"
	      "      --flight SIZE      flight recorder: keep the last SIZE of raw kernel events\n"
	      "                         (default 64M; 0 off); SIGUSR2 or the W key saves them as\n"
	      "                         a trace.dat (trace-cmd report -i FILE, KernelShark)\n"
	      "      --flight-dir DIR   where saves go (default: -w's directory, else .)\n"
	      "      --flight-after SECONDS  a save also holds this long after it was asked\n"
	      "                         for (default 2)\n"
	      "      --trigger EXPR     save when EXPR holds in an interval: KEY>N, KEY<N (a\n"
	      "                         column, as CSV has it: runq_ms>500, syscall_errors>1000),\n"
	      "                         BY:KEY>N per group (container:runq_ms>500), or oom\n"
	      "                         (repeatable)\n"
	      "      --trigger-every SECONDS  at most one triggered save per SECONDS (default 60)\n"
	      "  -- CMD [ARGS...]       run CMD traced from its first system call (its execve),\n"
	      "                         with its children; end with it, with its exit status\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version, the features and libraries, the kernel's; exit\n"
	      "      --completion bash  print a bash completion script (made from these tables)\n"
	      "\n"
	      "In CSV and JSON the event columns are counts within the interval (exact); text\n"
	      "shows them per second (one decimal under 10). The first iteration is the\n"
	      "baseline and leaves them empty; text and the screen show CPU% and page faults/s\n"
	      "averaged since each process started there, as top does. Keys of the live view:\n"
	      "? in it, or the man page. -n also ends the live view after N refreshes.\n"
	      "Column keys:\n", f);
	for (i = 0; i < COL_NR; i++)
		fprintf(f, "  %-8s %s\n", columns[i].key, columns[i].doc);
	fputs("\nKeys in the live view: press ? or F1 for the full list. Settings: F2, saved in\n"
	      "$XDG_CONFIG_HOME/ktop/ktoprc (default ~/.config/ktop/ktoprc). See ktop(1).\n", f);
}

static int add_list(const char **v, size_t *n, const char *opt, const char *arg, char *err,
		    size_t errsz)
{
	if (*n == OPT_LIST_MAX) {
		snprintf(err, errsz, "%s: at most %d", opt, OPT_LIST_MAX);
		return -EINVAL;
	}
	v[(*n)++] = arg;
	return 0;
}

/* NAME=VALUE, NAME a Prometheus label name not reserved (__*). */
static bool label_ok(const char *s)
{
	const char *eq = strchr(s, '=');
	const char *p;

	if (!eq || eq == s || (s[0] == '_' && s[1] == '_'))
		return false;
	for (p = s; p < eq; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
		      (p > s && *p >= '0' && *p <= '9')))
			return false;
	return true;
}

static int add_pids(struct options *o, const char *arg, char *err, size_t errsz)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long long v;

		if (parse_uint(tok, 0x3fffffff, &v) || v == 0) {
			snprintf(err, errsz, "invalid pid '%s'", tok);
			ret = -EINVAL;
			break;
		}
		o->pids = xrealloc(o->pids, (o->npids + 1) * sizeof(*o->pids));
		o->pids[o->npids++] = (pid_t)v;
	}
	if (!ret && !o->npids) {
		snprintf(err, errsz, "-p needs a pid");
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

static int set_columns(struct options *o, const char *arg, char *err, size_t errsz)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	int ret = 0;

	o->ncols = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int c = columns_by_key(tok);

		if (c < 0) {
			snprintf(err, errsz, "unknown column '%s' (see --help)", tok);
			ret = -EINVAL;
			break;
		}
		if (o->ncols < COL_NR)
			o->cols[o->ncols++] = c;
	}
	if (!ret && !o->ncols) {
		snprintf(err, errsz, "-o needs at least one column");
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

/* --summary's orders (-s), indexed by enum summary_sort. */
static const char *const summary_keys[] = {
	[SUM_TIME] = "time", [SUM_CALLS] = "calls", [SUM_ERRORS] = "errors",
	[SUM_AVG] = "avg", [SUM_MAX] = "max", [SUM_NAME] = "name",
};

const char *options_summary_key(size_t i)
{
	return i < ARRAY_SIZE(summary_keys) ? summary_keys[i] : NULL;
}

/* "500M", "2G", "1048576": bytes, the suffix a power of 1024 (K to T); at least 1 MiB. */
static int parse_size(const char *arg, uint64_t *out)
{
	static const char units[] = "KMGT";
	const char *u = NULL;
	char num[32];
	size_t len = strlen(arg);
	double v, mul = 1;
	int c = len ? arg[len - 1] & ~0x20 : 0;

	if (c && (u = strchr(units, c)))
		len--;
	if (!len || len >= sizeof(num))
		return -EINVAL;
	memcpy(num, arg, len);
	num[len] = '\0';
	if (parse_seconds(num, 0, 1e15, &v))
		return -EINVAL;
	for (; u && u >= units; u--)
		mul *= 1024;
	v *= mul;
	if (v < 1024 * 1024 || v > 1e18)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

static int parse_sort(struct options *o, const char *arg, char *err, size_t errsz)
{
	const char *key = arg;
	size_t i;

	if (!arg)
		return 0;
	if (key[0] == '+' || key[0] == '-')
		key++;
	if (o->summary) {
		for (i = 0; i < ARRAY_SIZE(summary_keys); i++) {
			if (strcmp(key, summary_keys[i]))
				continue;
			o->summary_sort = (enum summary_sort)i;
			/* Like strace -S: names A to Z, numbers largest first. */
			o->summary_asc = arg[0] == '+' || (arg[0] != '-' && o->summary_sort == SUM_NAME);
			return 0;
		}
		snprintf(err, errsz, "-s: '%s' is not a --summary order (time, calls, errors, avg, max, name)",
			 key);
		return -EINVAL;
	}
	o->sort_asc = arg[0] == '+';
	if (o->view != VIEW_PROCESSES) {
		size_t n;
		const struct av_col *c = systable_columns(o->view, &n);

		o->view_sort = systable_col_by_key(o->view, key);
		if (o->view_sort < 0 || c[o->view_sort].type == AV_GRAPH) {
			snprintf(err, errsz, "-s: the %s view has no column '%s' (see ktop(1), BATCH OUTPUT)",
				 systable_name(o->view), key);
			return -EINVAL;
		}
		return 0;
	}
	o->sort_col = columns_by_key(key);
	if (o->sort_col < 0) {
		snprintf(err, errsz, "-s: unknown column '%s' (see --help)", key);
		return -EINVAL;
	}
	return 0;
}

/* Options that do not go together, each with what to do instead. */
static int check_modes(const struct options *o, char *err, size_t errsz)
{
	if (o->summary && o->read && !o->npids) {
		snprintf(err, errsz, "--summary -r FILE needs -p PID: the recorded process to sum up");
		return -EINVAL;
	}
	if (o->summary && !o->cmd && !o->npids) {
		snprintf(err, errsz, "--summary needs a command (ktop --summary -- CMD [ARGS...]) or -p PID");
		return -EINVAL;
	}
	if (o->cmd && o->npids) {
		snprintf(err, errsz, "-p and -- CMD do not go together: ktop watches one or the other");
		return -EINVAL;
	}
	if (o->cmd && o->iterations) {
		snprintf(err, errsz, "-n does not go with -- CMD: ktop ends when CMD does");
		return -EINVAL;
	}
	if (o->summary && o->batch) {
		snprintf(err, errsz, "--summary and -b do not go together: the summary is one table at exit");
		return -EINVAL;
	}
	if (o->summary && o->no_trace) {
		snprintf(err, errsz, "--summary counts kernel events: it cannot go with --no-trace");
		return -EINVAL;
	}
	if (o->summary && (o->ncols || o->threads || o->syscalls)) {
		snprintf(err, errsz, "--summary has its own columns: -o, -H and --syscalls do not apply");
		return -EINVAL;
	}
	if (o->view != VIEW_PROCESSES && (o->summary || o->syscalls || o->ncols)) {
		snprintf(err, errsz, "--view %s has its own columns: -o, --syscalls and --summary do not apply",
			 systable_name(o->view));
		return -EINVAL;
	}
	if (o->group_by_set && o->batch && o->view != VIEW_GROUPS) {
		snprintf(err, errsz, "--group-by is for the groups view: add --view groups");
		return -EINVAL;
	}
	if (o->metrics_opts && !options_exporter(o)) {
		snprintf(err, errsz, "--metrics-group-by, --metrics-max-series and --metrics-expire are for --listen, --textfile and --remote-write");
		return -EINVAL;
	}
	if (o->web_config && !o->listen) {
		snprintf(err, errsz, "--web-config is for --listen");
		return -EINVAL;
	}
	if (!o->nremote_write && (o->nrw_headers || o->next_labels || o->rw_queue || o->rw_user ||
				  o->rw_password_file || o->rw_token_file || o->rw_ca)) {
		snprintf(err, errsz, "--remote-write-* and --external-label are for --remote-write URL");
		return -EINVAL;
	}
	if (!o->rw_user != !o->rw_password_file) {
		snprintf(err, errsz, "--remote-write-user and --remote-write-password-file go together");
		return -EINVAL;
	}
	if (o->rw_user && o->rw_token_file) {
		snprintf(err, errsz, "--remote-write: basic auth or a bearer token, not both");
		return -EINVAL;
	}
	if (o->write && o->read) {
		snprintf(err, errsz, "-w and -r do not go together: record the live system or replay a file");
		return -EINVAL;
	}
	if (o->read && options_exporter(o)) {
		snprintf(err, errsz, "-r replays a file: it serves no metrics (--listen, --textfile, --remote-write)");
		return -EINVAL;
	}
	if (o->read && o->cmd) {
		snprintf(err, errsz, "-r replays a file: it runs no command (-- CMD)");
		return -EINVAL;
	}
	if (o->read && (o->threads || o->no_trace)) {
		snprintf(err, errsz, "-r: a recording keeps the rows and events it was made with (%s)",
			 o->threads ? "-H" : "--no-trace");
		return -EINVAL;
	}
	if (!o->read && (o->begin || o->end || o->follow)) {
		snprintf(err, errsz, "--begin, --end and --follow are for replaying a recording (-r FILE)");
		return -EINVAL;
	}
	if (o->follow && !o->batch) {
		snprintf(err, errsz, "--follow is for batch replay: the live view follows a growing file by itself");
		return -EINVAL;
	}
	if ((o->record_keep > 0 || o->record_max) && !o->write) {
		snprintf(err, errsz, "--record-keep and --record-max-size are for recording (-w FILE)");
		return -EINVAL;
	}
	if ((o->flight_set || o->flight_dir || o->ntriggers) && (o->read || o->no_trace)) {
		snprintf(err, errsz, "the flight recorder keeps the live kernel events: not with %s",
			 o->read ? "-r" : "--no-trace");
		return -EINVAL;
	}
	if (o->ntriggers && !o->flight) {
		snprintf(err, errsz, "--trigger saves the flight recorder's events: not with --flight 0");
		return -EINVAL;
	}
	if (o->output && !o->batch && !o->summary) {
		snprintf(err, errsz, "--output is for -b and --summary (the live view is the terminal)");
		return -EINVAL;
	}
	return 0;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errsz)
{
	unsigned long long v;
	bool have_delay = false;
	const char *sort_arg = NULL;
	int c;

	memset(o, 0, sizeof(*o));
	o->sort_col = -1;
	o->view_sort = -1;
	o->format = OUT_TEXT;
	o->events = 4096;
	o->metrics_expire = -1;
	o->flight = FLIGHT_DEFAULT;
	o->flight_after = 2;
	o->trigger_every = 60;
	opterr = 0;
	optind = 1;
	/* '+': options end at the first other word, so CMD's own options stay its own. */
	while ((c = getopt_long(argc, argv, "+:bn:d:p:o:s:Hw:r:hV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->batch = true;
			break;
		case 'n':
			if (parse_uint(optarg, 1000000000ull, &v) || v == 0) {
				snprintf(err, errsz, "-n: '%s' is not a positive whole number", optarg);
				return -EINVAL;
			}
			o->iterations = (long)v;
			break;
		case 'd':
			if (parse_seconds(optarg, DELAY_MIN_S, DELAY_MAX_S, &o->delay_s)) {
				snprintf(err, errsz,
					 "-d: '%s' is not a delay in seconds from 0.01 to 86400", optarg);
				return -EINVAL;
			}
			have_delay = true;
			break;
		case 'p':
			if (add_pids(o, optarg, err, errsz))
				return -EINVAL;
			break;
		case 'o':
			if (set_columns(o, optarg, err, errsz))
				return -EINVAL;
			break;
		case 's':
			/* A column, or a --summary order: known once every option is read. */
			sort_arg = optarg;
			break;
		case 'H':
			o->threads = true;
			break;
		case OPT_CSV:
			o->format = OUT_CSV;
			break;
		case OPT_JSON:
			o->format = OUT_JSON;
			break;
		case OPT_LATENCY:
			o->latency = true;
			break;
		case OPT_NO_TRACE:
			o->no_trace = true;
			break;
		case OPT_SYSCALLS:
			o->syscalls = true;
			break;
		case OPT_EVENTS:
			if (parse_uint(optarg, 1u << 22, &v) || v < 16) {
				snprintf(err, errsz, "--events: '%s' is not a number from 16 to %u", optarg,
					 1u << 22);
				return -EINVAL;
			}
			o->events = (size_t)v;
			break;
		case OPT_THEME:
			o->theme = optarg;
			break;
		case OPT_ASCII:
			o->ascii = true;
			break;
		case OPT_NO_MOUSE:
			o->no_mouse = true;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_OUTPUT:
			if (!optarg[0]) {
				snprintf(err, errsz, "--output needs a file name");
				return -EINVAL;
			}
			o->output = optarg;
			break;
		case OPT_LISTEN: {
			struct sockaddr_storage ss;
			socklen_t len;

			/* A bad address is a usage error (exit 2); a busy port is found at start. */
			if (strcmp(optarg, "systemd") && httpd_parse_listen(optarg, &ss, &len, err, errsz))
				return -EINVAL;
			o->listen = optarg;
			break;
		}
		case OPT_TEXTFILE:
			if (!optarg[0]) {
				snprintf(err, errsz, "--textfile needs a directory");
				return -EINVAL;
			}
			o->textfile = optarg;
			break;
		case OPT_GROUP_BY:
			if (cgroup_group_by_parse(optarg, &o->metrics_by)) {
				snprintf(err, errsz,
					 "--metrics-group-by: '%s' is not comm, user, unit, container, pod, "
					 "namespace or cgroup",
					 optarg);
				return -EINVAL;
			}
			o->metrics_opts = true;
			break;
		case OPT_MAX_SERIES:
			if (parse_uint(optarg, 1000000, &v) || v == 0) {
				snprintf(err, errsz, "--metrics-max-series: '%s' is not a number from 1 to 1000000",
					 optarg);
				return -EINVAL;
			}
			o->metrics_max_series = (size_t)v;
			o->metrics_opts = true;
			break;
		case OPT_EXPIRE:
			if (parse_seconds(optarg, 0, 1e9, &o->metrics_expire)) {
				snprintf(err, errsz, "--metrics-expire: '%s' is not a number of seconds", optarg);
				return -EINVAL;
			}
			o->metrics_opts = true;
			break;
		case OPT_WEB_CONFIG:
			o->web_config = optarg;
			break;
		case OPT_RW:
			if (strncmp(optarg, "http://", 7) && strncmp(optarg, "https://", 8)) {
				snprintf(err, errsz, "--remote-write '%s': not an http:// or https:// URL", optarg);
				return -EINVAL;
			}
			if (add_list(o->remote_write, &o->nremote_write, "--remote-write", optarg, err, errsz))
				return -EINVAL;
			break;
		case OPT_RW_HEADER: {
			const char *colon = strchr(optarg, ':');

			if (!colon || colon == optarg || strpbrk(optarg, "\r\n")) {
				snprintf(err, errsz, "--remote-write-header '%s': not 'Name: value'", optarg);
				return -EINVAL;
			}
			if (add_list(o->rw_headers, &o->nrw_headers, "--remote-write-header", optarg, err, errsz))
				return -EINVAL;
			break;
		}
		case OPT_EXT_LABEL:
			if (!label_ok(optarg)) {
				snprintf(err, errsz, "--external-label '%s': not NAME=VALUE with a Prometheus label name", optarg);
				return -EINVAL;
			}
			if (add_list(o->ext_labels, &o->next_labels, "--external-label", optarg, err, errsz))
				return -EINVAL;
			break;
		case OPT_RW_QUEUE:
			if (parse_size(optarg, &o->rw_queue) || o->rw_queue < 65536) {
				snprintf(err, errsz, "--remote-write-queue: '%s' is not a size of 64K or more", optarg);
				return -EINVAL;
			}
			break;
		case OPT_RW_USER:
			o->rw_user = optarg;
			break;
		case OPT_RW_PASSWORD:
			o->rw_password_file = optarg;
			break;
		case OPT_RW_TOKEN:
			o->rw_token_file = optarg;
			break;
		case OPT_RW_CA:
			o->rw_ca = optarg;
			break;
		case OPT_EXPOSE_HIDEPID:
			o->expose_hidepid = true;
			break;
		case OPT_VIEW:
			if (systable_parse(optarg, &o->view)) {
				snprintf(err, errsz, "--view: '%s' is not a view (processes, syscalls, errors, "
					 "subsystems, signals, groups, latency, connections, disks)", optarg);
				return -EINVAL;
			}
			o->view_set = true;
			break;
		case OPT_VIEW_GROUP_BY:
			if (cgroup_group_by_parse(optarg, &o->group_by)) {
				snprintf(err, errsz, "--group-by: '%s' is not a key (comm, user, cgroup, unit, "
					 "container, pod, namespace)", optarg);
				return -EINVAL;
			}
			o->group_by_set = true;
			break;
		case 'w':
		case 'r':
			if (!optarg[0]) {
				snprintf(err, errsz, "-%c needs a file name", c);
				return -EINVAL;
			}
			if (c == 'w')
				o->write = optarg;
			else
				o->read = optarg;
			break;
		case OPT_RECORD_KEEP:
			if (parse_seconds(optarg, 0.001, 100000, &o->record_keep)) {
				snprintf(err, errsz, "--record-keep: '%s' is not a number of days", optarg);
				return -EINVAL;
			}
			break;
		case OPT_RECORD_MAX:
			if (parse_size(optarg, &o->record_max)) {
				snprintf(err, errsz, "--record-max-size: '%s' is not a size (like 500M or 2G)",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_BEGIN:
			o->begin = optarg;
			break;
		case OPT_END:
			o->end = optarg;
			break;
		case OPT_FOLLOW:
			o->follow = true;
			break;
		case OPT_FLIGHT:
			o->flight_set = true;
			if (!strcmp(optarg, "0")) {
				o->flight = 0;
			} else if (parse_size(optarg, &o->flight) || o->flight > (1ull << 40)) {
				snprintf(err, errsz, "--flight: '%s' is not 0 or a size from 1M (like 64M)",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_FLIGHT_DIR:
			if (!optarg[0]) {
				snprintf(err, errsz, "--flight-dir needs a directory");
				return -EINVAL;
			}
			o->flight_dir = optarg;
			break;
		case OPT_FLIGHT_AFTER:
			if (parse_seconds(optarg, 0, 3600, &o->flight_after)) {
				snprintf(err, errsz, "--flight-after: '%s' is not a number of seconds from 0 to 3600",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_TRIGGER: {
			struct trigger t;

			if (trigger_parse(optarg, &t, err, errsz) ||
			    add_list(o->triggers, &o->ntriggers, "--trigger", optarg, err, errsz))
				return -EINVAL;
			break;
		}
		case OPT_TRIGGER_EVERY:
			if (parse_seconds(optarg, 0, 1e7, &o->trigger_every)) {
				snprintf(err, errsz, "--trigger-every: '%s' is not a number of seconds", optarg);
				return -EINVAL;
			}
			break;
		case 'h':
			o->show_help = true;
			return 0;
		case 'V':
			o->show_version = true;
			return 0;
		case OPT_COMPLETION:
			if (strcmp(optarg, "bash") && strcmp(optarg, "themes")) {
				snprintf(err, errsz, "--completion: '%s' is not bash (or themes)", optarg);
				return -EINVAL;
			}
			o->completion = optarg;
			return 0;
		case ':':
			snprintf(err, errsz, "option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		default:
			if (optopt)
				snprintf(err, errsz, "unknown option '-%c' (see --help)", optopt);
			else
				snprintf(err, errsz, "unknown option '%s' (see --help)", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		if (optind == argc) {
			snprintf(err, errsz, "-- needs a command to run");
			return -EINVAL;
		}
		o->cmd = argv + optind;
	} else if (optind < argc) {
		snprintf(err, errsz, "unexpected argument '%s' (to run a command: ktop -- %s)",
			 argv[optind], argv[optind]);
		return -EINVAL;
	}
	if (parse_sort(o, sort_arg, err, errsz))
		return -EINVAL;
	if (check_modes(o, err, errsz))
		return -EINVAL;
	if (o->format != OUT_TEXT && !o->batch && !o->summary) {
		snprintf(err, errsz, "--csv and --json are batch formats: add -b (or --summary)");
		return -EINVAL;
	}
	if (o->syscalls && !o->batch) {
		snprintf(err, errsz, "--syscalls is a batch option: add -b");
		return -EINVAL;
	}
	if (o->latency && o->no_trace) {
		snprintf(err, errsz, "--latency times kernel events: it cannot go with --no-trace");
		return -EINVAL;
	}
	if (o->syscalls && o->no_trace) {
		snprintf(err, errsz, "--syscalls counts kernel events: it cannot go with --no-trace");
		return -EINVAL;
	}
	o->delay_set = have_delay;
	if (!have_delay)
		o->delay_s = o->batch ? 1.0 : 2.0;
	return 0;
}

bool options_record_only(const struct options *o)
{
	return o->batch && o->write && o->format == OUT_TEXT && !o->ncols && !o->syscalls &&
	       !o->output;
}

bool options_exporter(const struct options *o)
{
	return o->listen || o->textfile || o->nremote_write;
}

bool options_exporter_only(const struct options *o)
{
	return o->batch && options_exporter(o) && o->format == OUT_TEXT && !o->ncols &&
	       !o->syscalls && !o->output;
}

void options_free(struct options *o)
{
	free(o->pids);
	o->pids = NULL;
}
