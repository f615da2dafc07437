// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktop: top for kernel events. The one main loop: poll() over the tick timer,
 * a signalfd, the terminal, the trace buffers and the exporter's HTTP server.
 * Each tick: collect -> model -> draw or write, and the exporter's counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#include "../collectors/clocks.h"
#include "ui.h"
#include "../lib/util.h"
#include "../views/view.h"
#include "flightctl.h"
#include "httpd.h"
#include "completion.h"
#include "ktop.h"
#include "version.h"
#include "watchdog.h"

int arm_timer(int fd, double delay_s, bool now)
{
	struct itimerspec its;
	long long ns = (long long)(delay_s * 1e9);

	its.it_interval.tv_sec = ns / 1000000000;
	its.it_interval.tv_nsec = ns % 1000000000;
	its.it_value = its.it_interval;
	if (now) {	/* the first tick at once: the first frame must not wait a delay */
		its.it_value.tv_sec = 0;
		its.it_value.tv_nsec = 1;
	}
	return timerfd_settime(fd, 0, &its, NULL);
}

/* Returns the exit status, or -1 to go on. */
static int on_signal(struct ktop *k)
{
	struct signalfd_siginfo si;

	while (read(k->sigfd, &si, sizeof(si)) == sizeof(si)) {
		/* The flight recorder's: a save, not an end. */
		if (si.ssi_signo == SIGUSR2) {
			flightctl_request(k, "SIGUSR2");
			continue;
		}
		if (si.ssi_signo == SIGWINCH) {
			ui_resize();
			ui_draw(&k->app);
			continue;
		}
		if (cmd_running(k)) {
			int st = cmd_interrupted(k, (int)si.ssi_signo);

			if (st >= 0)
				return st;
			continue;
		}
		/* SIGINT, SIGTERM, SIGHUP, SIGQUIT: leave cleanly. */
		return k->opt.cmd ? k->exit_code : 0;
	}
	return -1;
}

/* A tick: the sources, then every sink (sinks.c). -1 goes on, else the exit status. */
static int tick(struct ktop *k)
{
	if (k->app.paused || k->final)
		return -1;
	k->last_collect = k->ending || (k->opt.iterations && k->ticks + 1 >= k->opt.iterations);
	test_stall(k);
	if (!collect(k)) {
		/* A replay with no next interval: damaged, done, or waiting for more. */
		if (k->replay_err[0])
			return 1;
		if (k->mode->screen) {
			k->app.replay_end = true;
			ui_draw(&k->app);
			return -1;
		}
		return k->opt.follow && !k->replay_past_end ? -1 : 0;
	}
	k->app.replay_end = false;
	if (k->sink_status >= 0)
		return k->sink_status;
	if (k->ending)
		return cmd_ended(k);
	/* -p: every watched process has exited, nothing more to write. */
	if (k->opt.pids && !k->model.ntasks && !k->mode->screen)
		return 0;
	if (k->opt.cmd && !k->released)
		return release_cmd(k);
	if (k->opt.iterations && k->ticks >= k->opt.iterations)
		return 0;
	return -1;
}

static int on_tick(struct ktop *k)
{
	uint64_t expirations;

	if (read(k->timerfd, &expirations, sizeof(expirations)) < 0)
		return -1;
	return tick(k);
}

/*
 * The main loop's descriptors: timer, signals, terminal, CMD's pidfd and its
 * captured output, the HTTP server's (epoll) fd, remote write's (epoll) fd,
 * then the sources' (sources_pollfds: one per traced CPU, the exit records'
 * socket...).
 */
#define PFD_FIXED 7
#define PFD_MAX (PFD_FIXED + SOURCES_PFD_MAX)

static int run(struct ktop *k)
{
	static struct pollfd pfd[PFD_MAX];
	size_t npfd;
	int status = -1, ch, nkeys;
	bool live = k->mode->screen;

	pfd[0] = (struct pollfd){ .fd = k->timerfd, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = k->sigfd, .events = POLLIN };
	unsigned gen;

	pfd[2] = (struct pollfd){ .fd = live ? STDIN_FILENO : -1, .events = POLLIN };
	pfd[3] = (struct pollfd){ .fd = k->opt.cmd ? k->launch.pidfd : -1, .events = POLLIN };
	pfd[4] = (struct pollfd){ .fd = k->opt.cmd ? k->launch.out_fd : -1, .events = POLLIN };
	pfd[5] = (struct pollfd){ .fd = k->httpd ? httpd_fd(k->httpd) : -1, .events = POLLIN };
	/* --remote-write: libcurl's sockets (one epoll fd) and its timers. */
	pfd[6] = (struct pollfd){ .fd = exporter_poll_fd(k), .events = POLLIN };
	gen = sources_generation(k);
	npfd = PFD_FIXED + sources_pollfds(k, pfd + PFD_FIXED, PFD_MAX - PFD_FIXED);
	while (status < 0) {
		/* Batch replay runs as fast as it can: a tick each time round, signals still heard. */
		bool free_run = k->replay && !live && !k->replay_at_end;

		/* A process view opened or closed the focus instance: its CPUs come and go. */
		if (!k->final && sources_generation(k) != gen) {
			gen = sources_generation(k);
			npfd = PFD_FIXED + sources_pollfds(k, pfd + PFD_FIXED, PFD_MAX - PFD_FIXED);
		}
		/* The server's timeouts (an idle connection to close) bound the wait. */
		watchdog_idle();
		int r = poll(pfd, (nfds_t)npfd, free_run ? 0 : exporter_poll_timeout(k,
				k->httpd ? httpd_timeout_ms(k->httpd) : -1));

		watchdog_busy();

		/* Never blocks; what it answers comes from the last tick's counters. */
		if (k->httpd)
			httpd_run(k->httpd);
		exporter_poll_run(k);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		/* Exit records queued, ring buffers filling: read now, the tick sums them up. */
		sources_drain(k, pfd + PFD_FIXED, npfd - PFD_FIXED);
		/* CMD's output must be read, or CMD blocks writing it. */
		if ((pfd[4].revents & (POLLIN | POLLHUP | POLLERR)) && !launch_read_output(&k->launch))
			pfd[4].fd = -1;
		if (pfd[1].revents & POLLIN)
			status = on_signal(k);
		if (status < 0 && (pfd[0].revents & POLLIN))
			status = on_tick(k);
		else if (status < 0 && free_run)
			status = tick(k);
		if (status < 0 && (pfd[3].revents & POLLIN)) {
			status = on_cmd_exit(k);
			pfd[3].fd = -1;
		}
		if (k->final)
			npfd = PFD_FIXED;	/* tracing has stopped */
		if (pfd[2].revents & (POLLHUP | POLLERR | POLLNVAL))
			return 0;	/* the terminal went away */
		/* Bounded: a flood of input must not starve the ticks. */
		for (nkeys = 0; nkeys < 64 && status < 0 && (pfd[2].revents & POLLIN) &&
		     ui_next_key(&ch); nkeys++)
			if (handle_action(k, ui_key(&k->app, ch)))
				status = k->opt.cmd ? k->exit_code : 0;
	}
	return status;
}

/*
 * Standard descriptors the caller closed get /dev/null, so that no file ktop
 * opens later (a /proc directory, a tracefs control file) becomes its stdout or
 * stderr. Returns false when stdout was closed: batch output has nowhere to go.
 */
static bool guard_std_fds(void)
{
	bool out_open = fcntl(STDOUT_FILENO, F_GETFD) >= 0;
	int fd;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		/* open() returns the lowest free descriptor: this one. */
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) < 0)
			break;
	}
	return out_open;
}

int main(int argc, char **argv)
{
	static struct ktop k;	/* large; zeroed */
	char err[256];
	int status = 1, ret;
	bool live, out_open = guard_std_fds();

	k.app.model = &k.model;	/* the live view reads the program's model */
	setlocale(LC_ALL, "");
	if (options_parse(argc, argv, &k.opt, err, sizeof(err))) {
		fprintf(stderr, "ktop: %s\n", err);
		return 2;
	}
	if (k.opt.show_help) {
		options_usage(stdout);
		return 0;
	}
	if (k.opt.completion)
		return completion_print(stdout, k.opt.completion) ? 2 : 0;
	if (k.opt.show_version) {
		version_print(stdout);
		return 0;
	}
	k.mode = k.opt.summary ? &mode_summary : options_exporter_only(&k.opt) ? &mode_exporter :
		 !k.opt.batch ? &mode_live : options_record_only(&k.opt) ? &mode_record : &mode_batch;
	live = k.mode->screen;
	if (!live && k.mode != &mode_exporter && k.mode != &mode_record && !out_open && !k.opt.output) {
		fputs("ktop: stdout is closed: batch output has nowhere to go\n", stderr);
		return 1;
	}
	if (live && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		int fd = isatty(STDIN_FILENO) ? STDOUT_FILENO : STDIN_FILENO;

		/* Say which end is not a terminal and what it is instead. */
		fprintf(stderr, "ktop: the live view needs a terminal, but %s is %s; use -b for "
			"batch output\n", fd ? "stdout" : "stdin", ui_fd_kind(fd));
		return 1;
	}
	k.sigfd = k.timerfd = -1;
	k.launch.pidfd = k.launch.out_fd = k.launch.err_fd = -1;
	k.watch = k.opt.pids;
	k.nwatch = k.opt.npids;
	/* A port that cannot be served: said before anything starts (tracing, CMD, the output). */
	ret = exporter_start(&k);
	if (ret) {
		exporter_stop(&k);
		return ret;
	}
	if (open_output(&k)) {
		exporter_stop(&k);
		return 1;
	}
	if (live)
		read_files(&k);
	/* Before signals are blocked and SIGPIPE ignored: CMD inherits neither. */
	if (k.opt.cmd) {
		status = start_cmd(&k);
		if (status)
			goto out;
		status = 1;
	}
	if (k.opt.read ? replay_start(&k) : start_sources(&k))
		goto out;
	k.t_start = clocks_mono_ns();
	setup_app(&k);
	/*
	 * Every batch format says once, on stderr, that its event columns are
	 * missing and why (the header's words): a CSV reader sees no header. A
	 * view of kernel events says it of its columns, in one line too.
	 */
	if (k.mode == &mode_batch && systable_traced(k.opt.view) && !events_counted(&k))
		fprintf(stderr, "ktop: the %s view counts kernel events, but %s: its columns are empty\n",
			systable_name(k.opt.view), k.replay ? k.model.trace_status :
			k.opt.no_trace ? "--no-trace is given" :
			k.model.trace_status[0] ? k.model.trace_status : "tracing is off");
	else if (k.mode == &mode_batch && !events_counted(&k))
		fprintf(stderr, "ktop: %s\n", k.model.trace_status[0] ? k.model.trace_status :
			"tracing off");
	else if (k.mode == &mode_batch && k.opt.view == VIEW_DISKS && k.model.disks.why[0])
		fprintf(stderr, "ktop: the disks view: the block devices are %s\n",
			k.model.disks.why);
	else if (k.mode == &mode_batch && k.opt.view == VIEW_CONNECTIONS && k.model.conns_why[0])
		fprintf(stderr, "ktop: the connections view: the sockets are %s\n", k.model.conns_why);
	/* ktop -p PID: the view of that process, its events focused. */
	if (live && k.opt.npids == 1 && focus_open_view(&k, k.opt.pids[0])) {
		k.app.view_pid = k.opt.pids[0];
		app_push(&k.app, &procview_view);
	}
	if (k.replay) {
		/* A replay: its signals are handled in the loop like the live system's. */
		k.sigfd = setup_signals();
		setup_fatal_handlers();
	}
	if (k.opt.write) {
		struct record_opts ro = { .pattern = k.opt.write, .keep_days = k.opt.record_keep,
					  .max_bytes = k.opt.record_max };
		char why[640];
		const char *ks = getenv("KTOP_KEYFRAME_S");

		/* Benchmarks and tests: keyframes more often than every 10 minutes. */
		if (ks)
			ro.keyframe_s = strtod(ks, NULL);
		if (record_open(&ro, clocks_wall_s(), &k.rec, why, sizeof(why))) {
			fprintf(stderr, "ktop: %s\n", why);
			goto out;
		}
		sinks_record_notices(&k);
	}
	if (!live)
		setvbuf(k.out, NULL, _IOFBF, 1 << 16);	/* a few writes per iteration */

	k.timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (k.sigfd < 0 || k.timerfd < 0 || arm_timer(k.timerfd, k.app.delay_s, true)) {
		fprintf(stderr, "ktop: cannot set up the main loop: %s\n", strerror(errno));
		goto out;
	}
	if (live) {
		atexit(ui_stop);
		k.app.themes = k.themes;
		k.app.nthemes = k.nthemes;
		if (ui_start(&k.app))
			goto out;
		/* A bad settings line outranks a theme message: it is about every start. */
		if (k.rc_warn[0]) {
			char theme_msg[sizeof(k.app.message)];

			snprintf(theme_msg, sizeof(theme_msg), "%s", k.app.message);
			app_message(&k.app, "%s%s%.100s", k.rc_warn, theme_msg[0] ? "; " : "", theme_msg);
		}
		if (k.app.message[0])	/* about the files: longer than a notice */
			k.app.message_ns += 6000000000ull;
	}
	status = run(&k);
	/* The output went on without the recording, or some of it: still, say it failed. */
	if (k.rec)
		record_get_stats(k.rec, &k.rec_stats);
	if ((k.rec_failed || k.rec_stats.unrecorded) && !status)
		status = 1;
	/* Tracing ends first: what CMD still does is not counted. */
	stop_tracing(&k);
	if (k.mode->end && k.mode->end(&k))
		status = 1;
out:
	ui_stop();
	if (k.error[0] && k.opt.cmd && k.released)
		fprintf(stderr, "ktop: %s\n", k.error);
	if (k.replay_err[0]) {
		fprintf(stderr, "ktop: %s\n", k.replay_err);
		status = 1;
	}
	stop_tracing(&k);
	/* The interval written last is whole; the file is closed as a rollback-journal one. */
	if (k.rec) {
		record_get_stats(k.rec, &k.rec_stats);
		record_close(k.rec);
		k.rec = NULL;
	}
	if (getenv("KTOP_STATS"))
		print_stats(&k);
	/* The screen is the terminal's again: what CMD wrote meanwhile, at last. */
	if (k.launch.tail_len) {
		if (k.launch.dropped)
			fprintf(stderr, "ktop: output of %s (its first %llu bytes were not kept):\n",
				k.opt.cmd[0], k.launch.dropped);
		else
			fprintf(stderr, "ktop: output of %s:\n", k.opt.cmd[0]);
		launch_write_output(&k.launch, STDOUT_FILENO);
	}
	exporter_stop(&k);
	/* ktop leaves nothing running behind it: a CMD still running is killed. */
	launch_free(&k.launch);
	rowset_free(&k.app.rows);
	sysview_free(&k.app);
	evlist_free(&k.app);
	table_view_free(&k.app);
	rowset_free(&k.batch.rows);
	model_free(&k.model);
	batch_free(&k.batch);
	sources_free(&k);	/* after the model: its rows name the exit records' users */
	flightctl_free(&k);
	sample_free(&k.sample);
	/* After the model: it points into the replay's strings. */
	replay_close(k.replay);
	options_free(&k.opt);
	free(k.priv);
	if (k.sigfd >= 0)
		close(k.sigfd);
	if (k.timerfd >= 0)
		close(k.timerfd);
	if (k.out && k.out != stdout && fclose(k.out))
		status = status ? status : 1;
	return status;
}
