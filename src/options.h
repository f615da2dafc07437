/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_OPTIONS_H
#define KTOP_OPTIONS_H

#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../tables/systable.h"
#include "../lib/cgroup.h"
#include "../tables/columns.h"
#include "../outputs/batch.h"
#include "../outputs/summary.h"

/* Repeatable options: at most this many of each. */
#define OPT_LIST_MAX 16

struct options {
	bool batch;
	long iterations;		/* -n; 0 = until interrupted */
	double delay_s;			/* -d */
	pid_t *pids;			/* -p; NULL = all */
	size_t npids;
	enum out_format format;
	int cols[COL_NR];		/* -o; ncols == 0 = the mode's default */
	size_t ncols;
	bool threads;			/* -H */
	int sort_col;			/* -s; -1 = default */
	bool sort_asc;			/* -s with a leading '+': ascending */
	bool no_trace;			/* --no-trace: /proc only */
	bool latency;			/* --latency: sys_enter system-wide, calls timed */
	bool syscalls;			/* --syscalls: per-syscall batch rows */
	size_t events;			/* --events: per focused process, events kept */
	bool delay_set;			/* -d given: it beats the settings file */
	const char *theme;		/* --theme; NULL = settings or default */
	bool ascii;			/* --ascii: no UTF-8 line drawing */
	bool no_mouse;			/* --no-mouse */
	bool summary;			/* --summary: one per-syscall table at exit */
	enum summary_sort summary_sort;	/* -s in --summary mode */
	bool summary_asc;		/* ... in ascending order */
	const char *output;		/* --output FILE; NULL = stdout */
	enum view_kind view;		/* --view: what batch writes, what the screen shows first */
	bool view_set;
	enum cgroup_group_by group_by;	/* --group-by (the groups view) */
	bool group_by_set;
	int view_sort;			/* -s with a --view other than processes: its column; -1 */
	char **cmd;			/* -- CMD ARGS...: argv of the command to run */
	const char *listen;		/* --listen [ADDR:]PORT: serve /metrics; NULL = no */
	const char *textfile;		/* --textfile DIR: DIR/ktop.prom each tick; NULL = no */
	enum cgroup_group_by metrics_by;	/* --metrics-group-by (default comm) */
	size_t metrics_max_series;	/* --metrics-max-series; 0 = the default */
	double metrics_expire;		/* --metrics-expire SECONDS; < 0 = the default */
	bool metrics_opts;		/* one of those given */
	const char *web_config;		/* --web-config FILE: TLS and basic auth of --listen */
	/* --remote-write URL (repeatable) and how to push: */
	const char *remote_write[OPT_LIST_MAX];
	size_t nremote_write;
	const char *rw_headers[OPT_LIST_MAX];	/* --remote-write-header 'Name: value' */
	size_t nrw_headers;
	const char *ext_labels[OPT_LIST_MAX];	/* --external-label NAME=VALUE */
	size_t next_labels;
	uint64_t rw_queue;		/* --remote-write-queue SIZE: bytes held; 0 = the default */
	const char *rw_user;		/* --remote-write-user: basic auth's user */
	const char *rw_password_file;	/* --remote-write-password-file */
	const char *rw_token_file;	/* --remote-write-bearer-token-file */
	const char *rw_ca;		/* --remote-write-ca FILE: the receiver's CA */
	bool expose_hidepid;		/* --expose-hidepid: serve outputs though /proc hides pids */
	const char *write;		/* -w FILE: record every interval (strftime pattern) */
	double record_keep;		/* --record-keep DAYS: older files of the pattern go; 0 = keep */
	uint64_t record_max;		/* --record-max-size: then the oldest, above it; 0 = no cap */
	const char *read;		/* -r FILE: replay a recording instead of the live system */
	const char *begin, *end;	/* --begin, --end TIME: the replayed intervals */
	bool follow;			/* --follow: batch replay waits for new intervals */
	/* The flight recorder (src/flightctl.c). */
	uint64_t flight;		/* --flight SIZE: bytes of pages kept; 0 = off */
	bool flight_set;		/* --flight given */
	const char *flight_dir;		/* --flight-dir DIR; NULL = -w's directory, or . */
	double flight_after;		/* --flight-after SECONDS: the save waits this long */
	const char *triggers[OPT_LIST_MAX];	/* --trigger EXPR (tables/trigger.h) */
	size_t ntriggers;
	double trigger_every;		/* --trigger-every SECONDS: one triggered save per */
	bool show_help, show_version;
	const char *completion;		/* --completion bash|themes: print it, exit */
};

/*
 * options_parse - parse the command line
 * @err: on failure, a one-line message (no trailing newline)
 *
 * Returns 0, or -EINVAL with @err filled. @o owns what it allocates
 * (options_free).
 */
int options_parse(int argc, char **argv, struct options *o, char *err, size_t errsz);
void options_free(struct options *o);
/* Any of the exporter's sinks: --listen, --textfile, --remote-write. */
bool options_exporter(const struct options *o);
/*
 * -b with --listen, --textfile or --remote-write and no batch output asked for (--csv, --json,
 * -o, --syscalls, --output): a headless exporter, nothing on stdout.
 */
bool options_exporter_only(const struct options *o);
/* -b -w FILE and nothing asked of stdout: the recorder is the only sink. */
bool options_record_only(const struct options *o);
/* The --help text. */
void options_usage(FILE *f);
/* getopt's table of the long options (completion.c); ends with a NULL name. */
const struct option *options_long(void);
/* --summary's orders (-s), @i from 0; NULL past the last. */
const char *options_summary_key(size_t i);

#endif
