// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktop -- CMD: the command started stopped before its execve, released
 * after the first tick, its end, and the signals and keys meant for it.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "../collectors/clocks.h"
#include "ui.h"
#include "../lib/util.h"
#include "ktop.h"

bool cmd_running(const struct ktop *k)
{
	return k->opt.cmd && !k->launch.exited;
}

const char *cmd_name(const struct ktop *k)
{
	const char *s = strrchr(k->opt.cmd[0], '/');

	return s && s[1] ? s + 1 : k->opt.cmd[0];
}

/* The live view's lasting line about CMD: running (with its last output line) or ended. */
void cmd_notice(struct ktop *k)
{
	struct app *a = &k->app;
	char name[32], line[80], how[64];

	if (!k->opt.cmd || k->opt.batch || k->opt.summary)
		return;
	sanitize_text(name, sizeof(name), cmd_name(k), strlen(cmd_name(k)), a->utf8);
	if (k->launch.exited) {
		launch_describe(k->launch.status, how, sizeof(how));
		/* Its pid: the row X whose status this is. */
		snprintf(a->notice, sizeof(a->notice), "%s, pid %d, %s; the numbers are final; q quits",
			 name, (int)(k->launch.pid ? k->launch.pid : k->launch.was_pid), how);
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
bool quit_key(struct ktop *k)
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

/*
 * A terminating signal while CMD runs. SIGINT and SIGQUIT come from the
 * terminal to the whole foreground process group: CMD has its own, as under a
 * shell. Others were sent to ktop alone: CMD gets SIGTERM (SIGHUP as is).
 * ktop ends when CMD does; a second signal ends it at once (CMD is killed).
 */
int cmd_interrupted(struct ktop *k, int sig)
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

/* The first tick is the baseline: CMD starts after it, so its events all count. */
int release_cmd(struct ktop *k)
{
	int err;

	k->released = true;
	k->t_start = clocks_mono_ns();
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
int cmd_ended(struct ktop *k)
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
int on_cmd_exit(struct ktop *k)
{
	int st;

	if (!launch_poll_exit(&k->launch))
		return -1;
	k->exit_code = launch_exit_code(k->launch.status);
	/* The next tick is its last (cmd_ended reaps it after): its row says X. */
	model_reaping(&k->model, k->launch.pid);
	if (k->mode->screen && !k->interrupts) {
		k->ending = true;
		return -1;
	}
	k->last_collect = true;
	/* The last interval is written; a reader that left (0) does not change the status. */
	if (collect(k) && (st = k->sink_status) > 0)
		return st;
	return cmd_ended(k);
}

/* -- CMD: start it, stopped before its execve. Returns 0 or the exit status. */
int start_cmd(struct ktop *k)
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
