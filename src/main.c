// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktop: top for kernel events. The one main loop: poll() over the tick timer,
 * a signalfd and the terminal. Each tick: collect -> model -> draw or write.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "../collectors/sysio.h"
#include "../views/app.h"
#include "../outputs/batch.h"
#include "../model/fproc.h"
#include "launch.h"
#include "options.h"
#include "procctl.h"
#include "settings.h"
#include "../outputs/summary.h"
#include "ui.h"
#include "../model/util.h"
#include "../collectors/focus.h"
#include "../collectors/ftrace.h"
#include "../collectors/procfs.h"
#include "../collectors/system.h"
#include "../views/view.h"

/* Interactive table columns; COMMAND (comm or cmdline) last. */
static const int table_default[] = {
	COL_PID, COL_USER, COL_STATE, COL_CPU, COL_MEM, COL_RSS, COL_MINFLT, COL_MAJFLT,
	COL_VCSW, COL_IVCSW, COL_THREADS, COL_CMDLINE,
};
/* With tracing: the syscall columns first, they are what ktop is for. */
static const int table_traced[] = {
	COL_PID, COL_USER, COL_STATE, COL_CPU, COL_MEM, COL_SYSC, COL_SYSERR, COL_TOPSC,
	COL_MINFLT, COL_MAJFLT, COL_VCSW, COL_IVCSW, COL_SIGRECV, COL_THREADS, COL_CMDLINE,
};

struct ktop {
	struct app app;
	struct options opt;
	struct procfs *procfs;
	struct sysfiles *sys;
	struct ftrace *ftrace;
	struct focus *focus;		/* the focused processes' rich events */
	struct sample sample;		/* what each source read, for the model to apply */
	struct batch batch;
	int batch_cols[COL_NR];
	int sigfd, timerfd;
	long ticks;
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
	int interrupts;			/* terminating signals (or q) while CMD ran */
	int quits;			/* q pressed while CMD runs */
	char error[256];		/* why CMD could not be executed */
	int exit_code;			/* what ktop returns once CMD has ended */
	uint64_t t_start;		/* monotonic ns: tracing armed (-p), CMD released */
	const pid_t *watch;		/* -p's pids, or CMD's */
	size_t nwatch;
	struct summary_priv *priv;	/* watched processes that gained privileges */
	size_t npriv;
	struct ftrace_stats fstats;	/* the collector's, kept when it stops */
};

/* Stop tracing (the instance is removed), keeping its statistics for KTOP_STATS. */
static void stop_tracing(struct ktop *k)
{
	focus_free(k->focus);	/* its instance first: the main one outlives it */
	k->focus = NULL;
	if (!k->ftrace)
		return;
	ftrace_get_stats(k->ftrace, &k->fstats);
	ftrace_stop(k->ftrace);
	k->ftrace = NULL;
}

static int arm_timer(int fd, double delay_s, bool now)
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

/* What must be read beyond stat this tick, from what is shown or written. */
static void collect_needs(const struct ktop *k, struct procfs_need *need)
{
	const struct model *m = &k->app.model;

	need->all = 0;
	need->wanted = 0;
	if (k->opt.batch) {
		need->all = batch_needs(m, k->batch.cols, k->batch.ncols);
	} else {
		size_t i;

		for (i = 0; i < k->app.ncols; i++)
			need->wanted |= col_needs(m, k->app.cols[i]);
	}
	/* Sorting or filtering by a value means reading it for every task. */
	need->all |= col_needs(m, m->sort_col);
	if (m->filter[0])
		need->all |= NEED_CMDLINE;
}

/*
 * Watched processes that gained privileges (ktop not root): they are not
 * reported any more (ftrace_privileged); say so, in the summary at the end.
 */
static void report_privileged(struct ktop *k)
{
	const struct ftrace_priv *p;
	size_t n = ftrace_privileged(k->ftrace, &p), i;
	char name[64];

	for (i = 0; i < n; i++) {
		if (!p[i].pinned)
			procfs_focus_remove(k->procfs, p[i].pid);
		if (p[i].from)
			continue;
		k->priv = xrealloc(k->priv, (k->npriv + 1) * sizeof(*k->priv));
		k->priv[k->npriv].pid = p[i].pid;
		memcpy(k->priv[k->npriv++].comm, p[i].comm, sizeof(p[i].comm));
		sanitize_text(name, sizeof(name), p[i].comm, strnlen(p[i].comm, sizeof(p[i].comm)),
			      k->opt.batch || k->app.utf8);
		if (k->opt.batch)
			fprintf(stderr, "ktop: pid %d (%s) gained privileges: no longer reported\n",
				(int)p[i].pid, name);
		else if (!k->opt.summary)
			app_message(&k->app, "pid %d (%s) gained privileges: no longer reported",
				    (int)p[i].pid, name);
	}
}

static void collect(struct ktop *k)
{
	struct model *m = &k->app.model;
	struct sample *s = &k->sample;
	struct procfs_need need;
	const pid_t *born, *ids;
	size_t nborn, nids;

	collect_needs(k, &need);
	/* Fork events say which processes are new: then /proc need not be listed. */
	if (ftrace_read(k->ftrace, &born, &nborn) && !m->threads)
		procfs_hint_born(k->procfs, born, nborn);
	/* Whose the tasks are whose credentials changed, before their events count. */
	nids = ftrace_cred_changes(k->ftrace, m, &ids);
	procfs_recheck_owners(k->procfs, ids, nids);
	if (k->focus && m->nfprocs) {
		const struct acct_sig *sigs;
		size_t n = ftrace_signals(k->ftrace, &sigs), i;

		focus_collect(k->focus, m);
		/* Their senders: the focus instance runs only in the focused processes. */
		for (i = 0; i < n; i++)
			focus_signal_seen(k->focus, m, &sigs[i]);
	}
	/* -- CMD, --summary: what the watched processes fork is watched too. */
	nborn = ftrace_follow(k->ftrace, m, &born);
	while (nborn--)
		procfs_focus_add(k->procfs, *born++);
	/* Each source fills the sample and the model applies it, in turn. */
	s->begin = true;
	s->mono_ns = now_mono_ns();
	s->wall_s = now_wall_s();
	system_collect(k->sys, s);
	model_apply(m, s);
	procfs_collect(k->procfs, m, &need, s);
	model_apply(m, s);
	ftrace_collect(k->ftrace, m, s);
	report_privileged(k);
	s->end = true;
	model_apply(m, s);
	ftrace_end_interval(k->ftrace);
	k->ticks++;
}

static int setup_signals(void)
{
	sigset_t set;

	/*
	 * Handled in the loop through a signalfd, never in a handler: each ends
	 * ktop through its one clean exit path (which removes the trace instance),
	 * SIGWINCH excepted. That includes the signals whose default would end the
	 * process silently (SIGUSR1, SIGALRM, ...).
	 */
	static const int sigs[] = {
		SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGUSR1, SIGUSR2, SIGALRM,
		SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSTKFLT, SIGPWR,
	};
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&set, sigs[i]);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	/* A closed pipe is a write error (EPIPE) that the batch writer handles. */
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void fatal_signal(int sig)
{
	/* Restore the terminal, stop tracing; then die of the same signal. */
	ftrace_emergency_stop();
	ui_stop();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void setup_fatal_handlers(void)
{
	/* Crashes: nothing to do but stop and leave. */
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], fatal_signal);
}

/* The system-wide instance reports the signals sent to the focused processes. */
static void watch_signals(struct ktop *k)
{
	const struct model *m = &k->app.model;
	pid_t pids[ACCT_WATCH];
	size_t i, n = 0;

	for (i = 0; i < m->nfprocs && n < ACCT_WATCH; i++)
		pids[n++] = m->fprocs[i]->pid;
	ftrace_watch_signals(k->ftrace, pids, n);
}

/*
 * Focus @pid's events (a process view opened): the rich events, if tracing
 * can. Returns false when refused: @pid is another user's and ktop is not
 * root (the reason is on the bottom line); its view is not opened.
 */
static bool focus_open_view(struct ktop *k, pid_t pid)
{
	struct model *m = &k->app.model;
	char why[160];

	if (k->focus) {
		/* focus_add checks too, and adds nothing when it refuses. */
		snprintf(why, sizeof(why), "process %d: not focused", (int)pid);
		if (focus_may_see(pid, why, sizeof(why)) ||
		    (focus_add(k->focus, m, pid, false) && !model_fproc_find(m, pid))) {
			app_message(&k->app, "%s", why);
			return false;
		}
		watch_signals(k);
		return true;
	}
	model_fproc_add(m, pid);
	snprintf(m->focus_status, sizeof(m->focus_status), "events off: %.140s",
		 k->opt.no_trace ? "--no-trace" : m->trace_status[0] ? m->trace_status :
		 "tracing is not running");
	return true;
}

static void act_signal(struct ktop *k)
{
	struct app *a = &k->app;
	const char *name = sigabbrev_np(a->req.sig);
	int ret = proc_signal(a->req.pid, a->req.starttime, a->req.sig);

	if (ret == -ESRCH)
		app_message(a, "SIG%s not sent: process %d is gone", name, (int)a->req.pid);
	else if (ret)
		app_message(a, "SIG%s to %d failed: %s", name, (int)a->req.pid, strerror(-ret));
	else
		app_message(a, "SIG%s sent to %d", name, (int)a->req.pid);
	if (!ret && !a->paused)
		collect(k);	/* show what it did at once */
}

static void act_renice(struct ktop *k)
{
	struct app *a = &k->app;
	int ret = proc_renice(a->req.pid, a->req.starttime, a->req.nice);

	if (ret == -ESRCH)
		app_message(a, "process %d is gone", (int)a->req.pid);
	else if (ret)
		app_message(a, "nice %d for %d: %s%s", a->req.nice, (int)a->req.pid, strerror(-ret),
			    ret == -EACCES || ret == -EPERM ? " (lowering nice needs root)" : "");
	else
		app_message(a, "%d now has nice %d", (int)a->req.pid, a->req.nice);
	if (!ret && !a->paused)
		collect(k);
}

/* The live view's settings as they are now, into the settings file. */
static void save_settings(struct ktop *k)
{
	struct app *a = &k->app;
	struct settings s;
	char err[512];

	memset(&s, 0, sizeof(s));
	s.delay_s = a->delay_s;
	snprintf(s.theme, sizeof(s.theme), "%s", a->theme);
	s.sort_col = a->model.sort_col;
	s.sort_asc = a->model.sort_dir == SORT_ASC;
	memcpy(s.cols, a->cols, a->ncols * sizeof(a->cols[0]));
	s.ncols = a->ncols;
	s.tree = a->model.tree;
	s.threads = a->model.threads;
	if (!k->rc_path[0])
		app_message(a, "not saved: neither XDG_CONFIG_HOME nor HOME is set");
	else if (settings_save(k->rc_path, &s, err, sizeof(err)))
		app_message(a, "not saved: %s", err);
	else
		app_message(a, "saved to %s", k->rc_path);
}

static bool cmd_running(const struct ktop *k)
{
	return k->opt.cmd && !k->launch.exited;
}

static const char *cmd_name(const struct ktop *k)
{
	const char *s = strrchr(k->opt.cmd[0], '/');

	return s && s[1] ? s + 1 : k->opt.cmd[0];
}

/* The live view's lasting line about CMD: running (with its last output line) or ended. */
static void cmd_notice(struct ktop *k)
{
	struct app *a = &k->app;
	char name[32], line[80], how[64];

	if (!k->opt.cmd || k->opt.batch || k->opt.summary)
		return;
	sanitize_text(name, sizeof(name), cmd_name(k), strlen(cmd_name(k)), a->utf8);
	if (k->launch.exited) {
		launch_describe(k->launch.status, how, sizeof(how));
		snprintf(a->notice, sizeof(a->notice), "%s %s; the numbers are final; q quits", name, how);
		return;
	}
	sanitize_text(line, sizeof(line), k->launch.last_line, strlen(k->launch.last_line), a->utf8);
	snprintf(a->notice, sizeof(a->notice), "%s runs, pid %d%s%s", name, (int)k->launch.pid,
		 line[0] ? "; output (shown at exit): " : "", line);
}

/*
 * q while CMD runs: the first asks, the second sends it SIGTERM (ktop ends
 * with it), a third SIGKILL. Returns true to quit now.
 */
static bool quit_key(struct ktop *k)
{
	if (!cmd_running(k))
		return true;
	switch (++k->quits) {
	case 1:
		app_message(&k->app, "%s still runs: q again sends it SIGTERM, and ktop ends with it",
			    cmd_name(k));
		break;
	case 2:
		launch_signal(&k->launch, SIGTERM);
		k->interrupts++;
		app_message(&k->app, "SIGTERM sent to %s; ktop ends when it does (q: SIGKILL)",
			    cmd_name(k));
		break;
	default:
		launch_signal(&k->launch, SIGKILL);
		break;
	}
	return false;
}

/* Returns true when the loop should end. */
static bool handle_action(struct ktop *k, enum action act)
{
	struct app *a = &k->app;

	if (act != ACT_QUIT && act != ACT_NONE && k->quits == 1)
		k->quits = 0;	/* a q, then something else: the q is forgotten */
	switch (act) {
	case ACT_QUIT:
		return quit_key(k);
	case ACT_RESORT:
		model_refresh_rows(&a->model);
		break;
	case ACT_COLLECT:
		if (!a->paused && !k->final)
			collect(k);
		else
			model_refresh_rows(&a->model);
		break;
	case ACT_DELAY:
		arm_timer(k->timerfd, a->delay_s, false);
		break;
	case ACT_THREADS:
		if (k->final) {
			/* Collecting again would replace the final numbers. */
			a->model.threads = !a->model.threads;
			app_message(a, "%s has exited: the numbers are final", cmd_name(k));
			break;
		}
		model_clear(&a->model);
		procfs_set_threads(k->procfs, a->model.threads);
		collect(k);
		break;
	case ACT_FOCUS:
		if (!focus_open_view(k, a->view_pid)) {
			app_pop(a);
			a->view_pid = 0;
		}
		break;
	case ACT_UNFOCUS:
		if (k->focus)
			focus_remove(k->focus, &a->model, a->view_pid);
		else
			model_fproc_remove(&a->model, a->view_pid);
		watch_signals(k);
		a->view_pid = 0;
		break;
	case ACT_THEME:
		ui_theme(a);
		break;
	case ACT_SIGNAL:
		act_signal(k);
		break;
	case ACT_RENICE:
		act_renice(k);
		break;
	case ACT_SAVE:
		save_settings(k);
		break;
	default:
		break;
	}
	if (act != ACT_NONE)
		ui_draw(a);
	return false;
}

/*
 * A terminating signal while CMD runs. SIGINT and SIGQUIT come from the
 * terminal to the whole foreground process group: CMD has its own, as under a
 * shell. Others were sent to ktop alone: CMD gets SIGTERM (SIGHUP as is).
 * ktop ends when CMD does; a second signal ends it at once (CMD is killed).
 */
static int cmd_interrupted(struct ktop *k, int sig)
{
	if (k->interrupts++)
		return 128 + sig;
	if (sig != SIGINT && sig != SIGQUIT)
		launch_signal(&k->launch, sig == SIGHUP ? SIGHUP : SIGTERM);
	if (!k->opt.batch && !k->opt.summary) {
		app_message(&k->app, "waiting for %s to end (a second signal kills it)", cmd_name(k));
		ui_draw(&k->app);
	}
	return -1;
}

/* Returns the exit status, or -1 to go on. */
static int on_signal(struct ktop *k)
{
	struct signalfd_siginfo si;

	while (read(k->sigfd, &si, sizeof(si)) == sizeof(si)) {
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

/* The first tick is the baseline: CMD starts after it, so its events all count. */
static int release_cmd(struct ktop *k)
{
	int err;

	k->released = true;
	k->t_start = now_mono_ns();
	err = launch_release(&k->launch, k->error, sizeof(k->error));
	if (!err)
		return -1;
	/* The failed execve exited the child; its status says nothing more. */
	launch_poll_exit(&k->launch);
	return err == -ENOENT ? 127 : 126;
}

/*
 * CMD has exited and its last events are counted: reap it. Batch and summary
 * end here with its status; the live view keeps the final numbers until q
 * (tracing stops), or ends now if Ctrl-C or q asked it to.
 */
static int cmd_ended(struct ktop *k)
{
	k->ending = false;
	launch_read_output(&k->launch);
	launch_reap(&k->launch);
	if (k->opt.batch || k->opt.summary)
		return k->exit_code;
	k->final = true;
	stop_tracing(k);
	cmd_notice(k);
	ui_draw(&k->app);
	return k->interrupts ? k->exit_code : -1;
}

/*
 * CMD's pidfd is readable: it has exited, and stays a zombie (/proc still
 * describes it) while its last events are counted. The live view waits for
 * the next tick, so the last interval has its usual length (and rates).
 */
static int on_cmd_exit(struct ktop *k)
{
	int err;

	if (!launch_poll_exit(&k->launch))
		return -1;
	k->exit_code = launch_exit_code(k->launch.status);
	if (!k->opt.batch && !k->opt.summary && !k->interrupts) {
		k->ending = true;
		return -1;
	}
	collect(k);
	if (k->opt.batch) {
		err = batch_write(&k->batch, &k->app.model);
		if (err && err != -EPIPE) {
			fprintf(stderr, "ktop: cannot write the output: %s\n", strerror(-err));
			return 1;
		}
	}
	return cmd_ended(k);
}

static int on_tick(struct ktop *k)
{
	uint64_t expirations;
	int err;

	if (read(k->timerfd, &expirations, sizeof(expirations)) < 0)
		return -1;
	if (k->app.paused || k->final)
		return -1;
	collect(k);
	if (k->opt.batch) {
		err = batch_write(&k->batch, &k->app.model);
		if (err == -EPIPE)
			return 0;	/* the reader left: not an error */
		if (err) {
			/* Closed stdout (EBADF), a full disk: say so once, and stop. */
			fprintf(stderr, "ktop: cannot write the output: %s\n", strerror(-err));
			return 1;
		}
	} else if (!k->opt.summary) {
		cmd_notice(k);
		ui_draw(&k->app);
	}
	if (k->ending)
		return cmd_ended(k);
	/* -p: every watched process has exited, nothing more to write. */
	if (k->opt.pids && !k->app.model.ntasks && (k->opt.batch || k->opt.summary))
		return 0;
	if (k->opt.cmd && !k->released)
		return release_cmd(k);
	if (k->opt.iterations && k->ticks >= k->opt.iterations)
		return 0;
	return -1;
}

/*
 * The main loop's descriptors: timer, signals, terminal, CMD's pidfd and its
 * captured output, then one per traced CPU.
 */
#define PFD_FIXED 5
#define PFD_MAX (PFD_FIXED + 1024)

static int run(struct ktop *k)
{
	static struct pollfd pfd[PFD_MAX];
	size_t npfd, i;
	int status = -1, ch, nkeys;
	bool live = !k->opt.batch && !k->opt.summary;

	pfd[0] = (struct pollfd){ .fd = k->timerfd, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = k->sigfd, .events = POLLIN };
	size_t nmain;
	unsigned gen = 0;

	pfd[2] = (struct pollfd){ .fd = live ? STDIN_FILENO : -1, .events = POLLIN };
	pfd[3] = (struct pollfd){ .fd = k->opt.cmd ? k->launch.pidfd : -1, .events = POLLIN };
	pfd[4] = (struct pollfd){ .fd = k->opt.cmd ? k->launch.out_fd : -1, .events = POLLIN };
	nmain = npfd = PFD_FIXED + ftrace_pollfds(k->ftrace, pfd + PFD_FIXED, PFD_MAX - PFD_FIXED);
	while (status < 0) {
		/* A process view opened or closed the focus instance: its CPUs come and go. */
		if (k->focus && focus_generation(k->focus) != gen) {
			gen = focus_generation(k->focus);
			npfd = nmain + focus_pollfds(k->focus, pfd + nmain, PFD_MAX - nmain);
		}
		if (poll(pfd, (nfds_t)npfd, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		/* A ring buffer is filling: decode it now, the tick sums it up. */
		for (i = PFD_FIXED; i < nmain; i++)
			if (pfd[i].revents & POLLIN)
				ftrace_drain(k->ftrace, pfd[i].fd);
		for (i = nmain; i < npfd; i++)
			if (pfd[i].revents & POLLIN) {
				focus_drain(k->focus, &k->app.model, pfd[i].fd);
				break;	/* one pass reads every CPU of the focus instance */
			}
		/* CMD's output must be read, or CMD blocks writing it. */
		if ((pfd[4].revents & (POLLIN | POLLHUP | POLLERR)) && !launch_read_output(&k->launch))
			pfd[4].fd = -1;
		if (pfd[1].revents & POLLIN)
			status = on_signal(k);
		if (status < 0 && (pfd[0].revents & POLLIN))
			status = on_tick(k);
		if (status < 0 && (pfd[3].revents & POLLIN)) {
			status = on_cmd_exit(k);
			pfd[3].fd = -1;
		}
		if (k->final)
			nmain = npfd = PFD_FIXED;	/* tracing has stopped */
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

static int check_pids(struct ktop *k)
{
	size_t i;

	for (i = 0; i < k->opt.npids; i++) {
		if (!procfs_pid_exists(k->procfs, k->opt.pids[i])) {
			fprintf(stderr, "ktop: no process with pid %d\n", (int)k->opt.pids[i]);
			return -1;
		}
	}
	return 0;
}

static void default_columns(struct ktop *k)
{
	struct app *a = &k->app;

	if (ftrace_on(k->ftrace)) {
		memcpy(a->cols, table_traced, sizeof(table_traced));
		a->ncols = ARRAY_SIZE(table_traced);
	} else {
		memcpy(a->cols, table_default, sizeof(table_default));
		a->ncols = ARRAY_SIZE(table_default);
	}
	a->show_cmdline = true;
}

/* Columns that count kernel events, when tracing is off: nothing to show. */
static bool column_useless(const struct ktop *k, int c)
{
	const struct column *col = &columns[c];

	if (ftrace_on(k->ftrace))
		return false;
	return c == COL_TOPSC || c == COL_LOST ||
	       (col->counter >= CNT_SYSCALLS && col->counter < CNT_NR);
}

/*
 * The settings file, under the command line: -d, -s, -H and --theme win. A
 * bad setting was reported and left unset: its default stays.
 */
static void apply_settings(struct ktop *k)
{
	struct app *a = &k->app;
	struct model *m = &a->model;
	struct settings s;
	size_t i;

	if (!k->rc_path[0])
		return;
	s = k->rc;
	if (s.have_delay && !k->opt.delay_set)
		a->delay_s = s.delay_s;
	if (s.have_theme && !k->opt.theme)
		snprintf(a->theme, sizeof(a->theme), "%s", s.theme);
	if (s.have_sort && k->opt.sort_col < 0) {
		m->sort_col = s.sort_col;
		m->sort_dir = s.sort_asc ? SORT_ASC : SORT_DESC;
	}
	if (s.ncols) {
		a->ncols = 0;
		for (i = 0; i < s.ncols; i++)
			if (!column_useless(k, s.cols[i]))
				a->cols[a->ncols++] = s.cols[i];
		a->show_cmdline = a->cols[a->ncols - 1] == COL_CMDLINE;
		if (a->ncols < 2)	/* only COMMAND left: the defaults are better */
			default_columns(k);
	}
	if (s.have_tree)
		m->tree = s.tree;
	if (s.have_threads && !k->opt.threads)
		m->threads = s.threads;
}

/*
 * The live view's files, read first: before CMD is forked and before tracing
 * starts, so that a file that blocks (a FIFO is refused, but a hung NFS home
 * can still hang open()) holds up nothing that needs cleaning up, and Ctrl-C
 * still ends ktop (signals are not blocked yet).
 */
static void read_files(struct ktop *k)
{
	const char *theme = k->opt.theme ? k->opt.theme : "default";

	if (settings_path(k->rc_path, sizeof(k->rc_path)))
		k->rc_path[0] = '\0';
	else
		settings_load(k->rc_path, &k->rc, k->rc_warn, sizeof(k->rc_warn));
	if (!k->opt.theme && k->rc.have_theme)
		theme = k->rc.theme;
	k->nthemes = theme_list(k->themes, THEME_MAX);
	theme_preload(theme);
}

static void setup_app(struct ktop *k)
{
	struct app *a = &k->app;
	struct model *m = &a->model;

	model_init(m, sysconf(_SC_CLK_TCK), sysconf(_SC_PAGESIZE) / 1024);
	sample_init(&k->sample);
	a->delay_s = k->opt.delay_s;
	a->show_cmdline = true;
	default_columns(k);
	if (ftrace_on(k->ftrace)) {
		m->event_counters = ftrace_event_counters(k->ftrace);
		m->events_uid = ftrace_only_uid(k->ftrace);
	}
	snprintf(m->trace_status, sizeof(m->trace_status), "%s", ftrace_status(k->ftrace));
	a->tracing = ftrace_on(k->ftrace);
	a->mouse = !k->opt.no_mouse;
	a->ascii = k->opt.ascii;
	snprintf(a->theme, sizeof(a->theme), "%s", k->opt.theme ? k->opt.theme : "default");
	a->stack[0] = &table_view;
	a->depth = 1;
	m->ring_events = k->opt.events;
	m->threads = k->opt.threads;
	if (k->opt.sort_col >= 0) {
		m->sort_col = k->opt.sort_col;
		m->sort_dir = k->opt.sort_asc ? SORT_ASC : SORT_DESC;
	}
	if (!k->opt.batch && !k->opt.summary)
		apply_settings(k);
	if (k->nwatch) {
		model_set_focus(m, k->watch, k->nwatch);
		/* CMD's children are CMD's work; so are a process's under --summary, as with strace -f. */
		m->focus_follow = k->opt.cmd || k->opt.summary;
		/* The live view keeps the row of a named process that exits (state X). */
		m->keep_exited = !k->opt.batch && !k->opt.summary;
		m->sum_syscalls = k->opt.summary;
	}
	if (k->opt.batch) {
		k->batch.out = k->out;
		k->batch.fmt = k->opt.format;
		k->batch.syscalls = k->opt.syscalls;
		if (k->opt.ncols) {
			memcpy(k->batch_cols, k->opt.cols, k->opt.ncols * sizeof(int));
			k->batch.ncols = k->opt.ncols;
		} else {
			batch_default_columns(k->opt.format, ftrace_on(k->ftrace), k->batch_cols,
					      &k->batch.ncols);
		}
		k->batch.cols = k->batch_cols;
	}
}

/* KTOP_STATS=1: what the collectors did, for benchmarks (bench/). */
static void print_stats(const struct ktop *k)
{
	struct procfs_stats ps;
	struct ftrace_stats fs = k->fstats;
	struct rusage ru;
	size_t focus_bytes = 0, i;
	uint64_t focus_events = 0;

	if (!k->procfs)
		return;
	procfs_get_stats(k->procfs, &ps);
	getrusage(RUSAGE_SELF, &ru);
	/* The focused processes' rings and tables (--events bounds them). */
	for (i = 0; i < k->app.model.nfprocs; i++) {
		focus_bytes += fproc_bytes(k->app.model.fprocs[i]);
		focus_events += k->app.model.fprocs[i]->events.pushed;
	}
	fprintf(stderr, "ktop-stats: focus_bytes=%zu focus_events=%llu\n", focus_bytes,
		(unsigned long long)focus_events);
	fprintf(stderr, "ktop-stats: ticks=%ld cpu_s=%.3f maxrss_kb=%ld tracing=%d events=%llu pages=%llu "
		"lost=%llu malformed=%llu unattributed=%llu carried=%llu buffer_kb=%zu stat_reads=%lu scans=%lu "
		"event_scans=%lu\n",
		k->ticks, (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
		(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
		ru.ru_maxrss, k->app.model.event_counters != 0, (unsigned long long)fs.events,
		(unsigned long long)fs.pages, (unsigned long long)fs.lost,
		(unsigned long long)fs.malformed, (unsigned long long)fs.unattributed,
		(unsigned long long)fs.carried, fs.buffer_kb,
		ps.stat_reads, ps.scans, ps.event_scans);
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

/* --output FILE, or stdout. Returns 0 or -1 (said why). */
static int open_output(struct ktop *k)
{
	int fd;

	k->out = stdout;
	if (!k->opt.output)
		return 0;
	/* Close-on-exec: CMD must not inherit ktop's output file. */
	fd = open(k->opt.output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	k->out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!k->out) {
		fprintf(stderr, "ktop: cannot write %s: %s\n", k->opt.output, strerror(errno));
		if (fd >= 0)
			close(fd);
		k->out = NULL;
		return -1;
	}
	return 0;
}

/* The named pids (-p) that are gone at the end, for the summary's notes. */
static size_t exited_pids(struct ktop *k, pid_t *out)
{
	size_t i, n = 0;

	for (i = 0; i < k->opt.npids; i++)
		if (!procfs_pid_exists(k->procfs, k->opt.pids[i]))
			out[n++] = k->opt.pids[i];
	return n;
}

static int write_summary(struct ktop *k)
{
	struct model *m = &k->app.model;
	struct summary_info si = {
		.fmt = k->opt.format, .sort = k->opt.summary_sort, .asc = k->opt.summary_asc,
		.cmd = k->opt.cmd, .pids = k->opt.pids, .npids = k->opt.npids,
		.nprocs = m->nfocus, .lost = m->lost_total, .lost_unknown = m->lost_total_unknown,
		.priv = k->priv, .npriv = k->npriv,
	};
	pid_t *gone = xcalloc(k->opt.npids + 1, sizeof(*gone));
	char how[64];
	int err;

	si.elapsed_s = k->t_start ? (double)(now_mono_ns() - k->t_start) / 1e9 : 0;
	if (k->opt.cmd && k->launch.exited) {
		launch_describe(k->launch.status, how, sizeof(how));
		si.ended = how;
		si.exit_code = launch_exit_code(k->launch.status);
	}
	si.exited = gone;
	si.nexited = exited_pids(k, gone);
	if (si.fmt != OUT_TEXT && (si.lost || si.lost_unknown))
		fprintf(stderr, "ktop: LOST %llu%s events: the counts may be short\n",
			(unsigned long long)si.lost, si.lost_unknown ? "+" : "");
	if (si.fmt != OUT_TEXT)
		summary_write_priv(stderr, &si);
	err = summary_write(k->out, &m->sc_total, &si);
	free(gone);
	if (!err || err == -EPIPE)
		return 0;
	/* A full disk, /dev/full, a closed stdout: as batch mode does, say why. */
	fprintf(stderr, "ktop: cannot write the summary: %s\n", strerror(-err));
	return -1;
}

/* -- CMD: start it, stopped before its execve. Returns 0 or the exit status. */
static int start_cmd(struct ktop *k)
{
	static pid_t pid;
	bool live = !k->opt.batch && !k->opt.summary;
	int err;

	err = launch_start(&k->launch, k->opt.cmd, live, k->error, sizeof(k->error));
	if (err) {
		fprintf(stderr, "ktop: %s\n", k->error);
		return err == -ENOENT ? 127 : err == -EACCES || err == -EISDIR || err == -ENOTDIR ||
		       err == -ENOEXEC ? 126 : 1;
	}
	pid = k->launch.pid;
	k->watch = &pid;
	k->nwatch = 1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct ktop k;	/* large; zeroed */
	char err[256];
	int status = 1, ret;
	bool live, out_open = guard_std_fds();

	setlocale(LC_ALL, "");
	if (options_parse(argc, argv, &k.opt, err, sizeof(err))) {
		fprintf(stderr, "ktop: %s\n", err);
		return 2;
	}
	if (k.opt.show_help) {
		options_usage(stdout);
		return 0;
	}
	if (k.opt.show_version) {
		printf("ktop %s\n", KTOP_VERSION);
		return 0;
	}
	live = !k.opt.batch && !k.opt.summary;
	if (!live && !out_open && !k.opt.output) {
		fputs("ktop: stdout is closed: batch output has nowhere to go\n", stderr);
		return 1;
	}
	if (live && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fputs("ktop: the live view needs a terminal on stdin and stdout; use -b for batch output\n",
		      stderr);
		return 1;
	}
	k.sigfd = k.timerfd = -1;
	k.launch.pidfd = k.launch.out_fd = k.launch.err_fd = -1;
	k.watch = k.opt.pids;
	k.nwatch = k.opt.npids;
	if (open_output(&k))
		return 1;
	if (live)
		read_files(&k);
	/* Before signals are blocked and SIGPIPE ignored: CMD inherits neither. */
	if (k.opt.cmd) {
		status = start_cmd(&k);
		if (status)
			goto out;
		status = 1;
	}
	ret = procfs_new("/proc", 0, &k.procfs);
	if (!ret)
		ret = system_new("/proc", &k.sys);
	if (ret) {
		fprintf(stderr, "ktop: cannot read /proc: %s\n", strerror(-ret));
		goto out;
	}
	if (check_pids(&k))
		goto out;
	/*
	 * Signals are blocked (and read from the signalfd) before tracing starts:
	 * a Ctrl-C from now on ends the loop, which removes the instance.
	 */
	k.sigfd = setup_signals();
	setup_fatal_handlers();
	/* Before the first sample: counts start at the first tick's baseline. */
	if (!k.opt.no_trace) {
		struct ftrace_opts fo = { .pids = k.watch, .npids = k.nwatch };
		const char *kb = getenv("KTOP_BUFFER_KB");
		unsigned long long v;

		/* Time per call (sys_enter too) only when watching a few processes. */
		fo.time_syscalls = k.nwatch > 0;
		/* Per-CPU ring buffer size; small ones let tests see lost events. */
		if (kb && !parse_uint(kb, 1 << 22, &v) && v >= 4)
			fo.buffer_kb = (size_t)v;

		if (ftrace_start(&fo, &k.ftrace) == 0)
			k.focus = focus_new();
		/* exit() from deep inside (out of memory) must not leave tracing behind. */
		atexit(ftrace_emergency_stop);
	}
	if (k.opt.summary && !ftrace_on(k.ftrace)) {
		fprintf(stderr, "ktop: --summary counts kernel events, but %s\n",
			ftrace_status(k.ftrace)[0] ? ftrace_status(k.ftrace) : "tracing is off");
		goto out;
	}
	/* A summary of another user's process would be all zeros: say why not. */
	for (size_t i = 0; k.opt.summary && i < k.opt.npids; i++) {
		char why[160];

		if (focus_may_see(k.opt.pids[i], why, sizeof(why))) {
			fprintf(stderr, "ktop: --summary: %s\n", why);
			goto out;
		}
	}
	k.t_start = now_mono_ns();
	setup_app(&k);
	/* ktop -p PID: the view of that process, its events focused. */
	if (live && k.opt.npids == 1 && focus_open_view(&k, k.opt.pids[0])) {
		k.app.view_pid = k.opt.pids[0];
		app_push(&k.app, &procview_view);
	}
	procfs_set_threads(k.procfs, k.app.model.threads);
	if (k.nwatch)
		procfs_set_focus(k.procfs, k.watch, k.nwatch);
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
	/* Tracing ends first: what CMD still does is not counted. */
	stop_tracing(&k);
	if (k.opt.summary && write_summary(&k))
		status = 1;
out:
	ui_stop();
	if (k.error[0] && k.opt.cmd && k.released)
		fprintf(stderr, "ktop: %s\n", k.error);
	stop_tracing(&k);
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
	/* ktop leaves nothing running behind it: a CMD still running is killed. */
	launch_free(&k.launch);
	procfs_free(k.procfs);
	system_free(k.sys);
	model_free(&k.app.model);
	sample_free(&k.sample);
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
