/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_KTOP_H
#define KTOP_KTOP_H

/*
 * The program's state, shared by the files of src/: main.c (the loop),
 * start.c (what happens before it), sources.c (collecting an interval),
 * replayctl.c (moving in a recording), sinks.c (every interval to every
 * sink), modesinks.c (the modes: live, batch, summary, headless), live.c (the
 * live view's actions), cmd.c (-- CMD), output.c (--output, --summary).
 */

#include <stdbool.h>
#include <stdio.h>

#include "launch.h"
#include "options.h"
#include "settings.h"
#include "webconfig.h"
#include "../collectors/trace/counting.h"
#include "../collectors/source.h"
#include "../store/replay.h"
#include "../model/sample.h"
#include "../outputs/batch.h"
#include "../outputs/promtext.h"
#include "../store/record.h"
#include "../outputs/summary.h"
#include "../views/app.h"

/* The live sources (sourcelist.c's list) and the descriptors they may poll. */
#define SOURCES_MAX 16
#define SOURCES_PFD_MAX 1024

/* A mode: the last sink of the list, and what happens at the end (modesinks.c). */
struct ktop;
struct procfs_need;
struct source_demand;
struct mode {
	const char *name;
	bool screen;			/* the live view: the terminal is ktop's */
	/* What it needs read beyond stat, added to @need; NULL: nothing. */
	void (*needs)(const struct ktop *k, struct procfs_need *need);
	int (*tick)(struct ktop *k);	/* after an interval: -1 goes on, else the exit status */
	int (*end)(struct ktop *k);	/* after the loop, tracing stopped: 0, or 1 failed */
};
extern const struct mode mode_live, mode_batch, mode_summary, mode_exporter, mode_record;

struct ktop {
	const struct mode *mode;
	/* The applied state: the sources' samples go in, every sink reads it. */
	struct model model;
	struct app app;			/* the live view's, which reads the model through a const pointer */
	struct options opt;
	/* The live sources (sourcelist.c): each one's state, in list order, and what they share. */
	void *source_state[SOURCES_MAX];
	size_t sources_started;		/* the first this many started (their stats are printed) */
	struct source_env sources;
	unsigned char source_pfd[SOURCES_PFD_MAX];	/* the source of each of sources_pollfds's */
	struct counting *ftrace;		/* the counting source's, for the flight recorder and health */
	struct sample sample;		/* what each source read, for the model to apply */
	struct batch batch;
	int batch_cols[COL_NR];
	int sigfd, timerfd;
	long ticks;
	int sink_status;		/* what the sinks said of the last interval: -1 goes on */
	char rc_path[4096];		/* the settings file; "" = none (no HOME) */
	char rc_warn[512];		/* what was wrong in it, shown once the screen is up */
	char themes[THEME_MAX][THEME_NAME_MAX];
	size_t nthemes;
	struct settings rc;		/* the settings file as read at start (read_files) */
	FILE *out;			/* batch and summary output: stdout or --output */

	/* -- CMD */
	struct launch launch;
	bool released;			/* CMD let go to its execve */
	bool ending;			/* CMD exited: the next tick is the last */
	bool final;			/* CMD exited: the numbers on screen are final */
	bool last_collect;		/* no collect follows the next one (-n, CMD's end) */
	int interrupts;			/* terminating signals (or q) while CMD ran */
	int quits;			/* q pressed while CMD runs */
	char error[256];		/* why CMD could not be executed */
	int exit_code;			/* what ktop returns once CMD has ended */
	uint64_t t_start;		/* monotonic ns: tracing armed (-p), CMD released */
	const pid_t *watch;		/* -p's pids, or CMD's */
	size_t nwatch;
	struct summary_priv *priv;	/* watched processes that gained privileges */
	size_t npriv;
	struct counting_stats fstats;	/* the collector's, kept when it stops */
	bool traced;			/* tracing ran (its counters exist) */

	/* The exporter (--listen, --textfile): a sink beside the mode's own. */
	struct metrics *metrics;
	struct httpd *httpd;
	struct textfile *textfile;
	struct remote_write *rw;	/* --remote-write */
	struct prom_buf prom;		/* the last rendering */
	bool textfile_failing;		/* said once, until a write works again */
	struct webconfig web;		/* --web-config as last applied */
	unsigned long long web_stamp;	/* the files as last read (webconfig_stamp) */
	char web_said[512];		/* why --web-config is refused, as said once; "": read */
	bool web_auth;			/* --web-config asks for basic auth */
	/* CPU time of the scrapes' renderings and of the pushes (KTOP_STATS, bench/exporter.sh). */
	uint64_t scrape_cpu_ns, scrape_renders, push_cpu_ns, pushes;

	/* -w: the recorder, a sink after each tick; NULL when not (or no longer) recording. */
	struct record *rec;
	struct record_stats rec_stats;	/* kept when it stops, for KTOP_STATS */
	bool rec_failed;		/* it stopped: a full disk, an I/O error */
	uint64_t rec_cpu_ns;		/* CPU time spent recording (KTOP_STATS) */
	/* -r: the source instead of the live system's. */
	struct replay *replay;
	double replay_end;		/* --end, seconds since 1970; 0 = the file's end */
	bool replay_at_end;		/* no next interval (yet): a growing file may have more */
	bool replay_past_end;		/* --end reached */
	double replay_elapsed;		/* seconds of the intervals shown (--summary) */
	char replay_err[320];		/* the file is damaged: why (exit 1) */
	bool replay_jumped;		/* it was moved (a step back, a jump): the process views restart */
	unsigned long sink_intervals[4];	/* KTOP_STATS: the intervals each sink was handed */
	struct flightctl *flight;	/* the flight recorder (flightctl.h); NULL: off */
};

/* src/main.c */
/* (Re)arm the tick timer: every @delay_s, the first at once when @now. */
int arm_timer(int fd, double delay_s, bool now);

/* src/start.c */
/* Block the signals the loop reads; returns their signalfd, or -1. */
int setup_signals(void);
/* Crashes stop tracing and restore the terminal; the watchdog is armed. */
void setup_fatal_handlers(void);
/* KTOP_TEST_STALL: the tick that must never finish, for the watchdog's tests. */
void test_stall(const struct ktop *k);
/* The live sources (/proc, tracing, exit records); -1 (said why) on failure. */
int start_sources(struct ktop *k);
/* The model, the rows, the views and the settings, once the sources are known. */
void setup_app(struct ktop *k);

/* src/sources.c */
void stop_tracing(struct ktop *k);
/* Are kernel events counted (the live system's tracing, or the recording's)? */
bool events_counted(const struct ktop *k);
/*
 * One interval of the sources (the live system's, or a replay's next one,
 * after the baseline before it when a jump or a new file starts there),
 * applied to the model and handed to every sink (sinks.c): the one road,
 * for a tick, a key that collects and a replay's step or jump alike. False
 * when none was applied (a replay: none there yet, --end passed, or the
 * file is damaged: replay_err).
 */
bool collect(struct ktop *k);
bool focus_open_view(struct ktop *k, pid_t pid);
void print_stats(const struct ktop *k);

/*
 * src/sourcelist.c: the live sources, one list (collectors/source.h), run in
 * its order. -1 (said why) when one cannot start.
 */
int sources_start(struct ktop *k);
/* The model is made: what each source says of itself. */
void sources_setup(struct ktop *k);
/* The main loop's share: the sources' descriptors, when their set changed, their reads. */
size_t sources_pollfds(struct ktop *k, struct pollfd *pfd, size_t max);
unsigned sources_generation(const struct ktop *k);
void sources_drain(struct ktop *k, const struct pollfd *pfd, size_t n);
/* One interval of every source, applied to the model (the sinks' demand read first). */
void sources_tick(struct ktop *k);
/* A process view opens: 0, 1 refused (*why says so), -1 no source focuses (untraced). */
int sources_focus_open(struct ktop *k, pid_t pid, char *why, size_t len);
/* A process view closes: false when no source focused it. */
bool sources_focus_close(struct ktop *k, pid_t pid);
/* The process views changed: the signals sent to their processes are reported. */
void watch_signals(struct ktop *k);
/* The events stop (instances removed; the statistics kept), then, after the model, freed. */
void sources_stop(struct ktop *k);
void sources_free(struct ktop *k);
/* KTOP_STATS: the fields of the common line, then the sources' own lines. */
void sources_print_fields(const struct ktop *k, FILE *out);
void sources_print_lines(const struct ktop *k, FILE *out);

/* src/modesinks.c */
/*
 * The live view's table drew rows since the last tick: the model wants
 * their status and command lines read for the next ticks (model_want_task).
 */
void live_want_rows(struct ktop *k);

/* src/replayctl.c */
/* -r: open the recording, --begin; -1 (said why) on failure. */
int replay_start(struct ktop *k);
/* -r, the live view's keys: one interval back (-1) or on (1), or the time typed. */
void replay_step(struct ktop *k, int dir);
void replay_jump(struct ktop *k, const char *when);
/* The interval shown, of how many, and the recording's first and last times, into the app. */
void replay_position(struct ktop *k);

/* src/cmd.c */
bool cmd_running(const struct ktop *k);
const char *cmd_name(const struct ktop *k);
void cmd_notice(struct ktop *k);
bool quit_key(struct ktop *k);
int cmd_interrupted(struct ktop *k, int sig);
int release_cmd(struct ktop *k);
int cmd_ended(struct ktop *k);
int on_cmd_exit(struct ktop *k);
int start_cmd(struct ktop *k);

/* src/live.c */
bool handle_action(struct ktop *k, enum action act);
void default_columns(struct ktop *k);
bool column_useless(const struct ktop *k, int c);
void apply_settings(struct ktop *k);
void read_files(struct ktop *k);

/* src/exporter.c */
int exporter_start(struct ktop *k);
/* An interval applied: the counters move, the next scrape renders anew. */
void exporter_interval(struct ktop *k);
void exporter_stop(struct ktop *k);
/* The main loop's share for --remote-write: its fd (-1: none), its wait, its work. */
int exporter_poll_fd(const struct ktop *k);
int exporter_poll_timeout(const struct ktop *k, int timeout_ms);
void exporter_poll_run(struct ktop *k);

/* src/sinks.c: every applied interval to every sink, whatever collected it. */
/* What the sinks need read this interval, and the groups they show: the sources' demand. */
void sinks_needs(const struct ktop *k, struct source_demand *d);
int sinks_interval(struct ktop *k);
/* KTOP_STATS: the intervals collected, and how many each sink was handed. */
void sinks_print_stats(const struct ktop *k);
/* What the recorder has to say that stops nothing (record_notice): stderr, or the live view's line. */
void sinks_record_notices(struct ktop *k);

/* src/output.c */
int open_output(struct ktop *k);
int write_summary(struct ktop *k);

#endif
