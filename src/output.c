// SPDX-License-Identifier: GPL-2.0-only
/*
 * What ktop writes besides the screen and the sinks: --output, and the
 * --summary table at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../collectors/clocks.h"
#include "../lib/util.h"
#include "../collectors/proc/procfs.h"
#include "ktop.h"

/*
 * --output FILE, or stdout; the summary's default is stderr, as strace -c's:
 * after `-- CMD` the table must not mix into the command's own output.
 * Returns 0 or -1 (said why).
 */
int open_output(struct ktop *k)
{
	int fd;

	k->out = k->opt.summary ? stderr : stdout;
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

	for (i = 0; i < k->opt.npids; i++) {
		const struct task *t = model_task_find(&k->model, k->opt.pids[i]);

		/* A replay: the recording's end tells, not this system's /proc. */
		if (k->replay ? !t || t->state == 'X' : !procfs_pid_exists(k->sources.procfs, k->opt.pids[i]))
			out[n++] = k->opt.pids[i];
	}
	return n;
}

int write_summary(struct ktop *k)
{
	struct model *m = &k->model;
	struct summary_info si = {
		.fmt = k->opt.format, .sort = k->opt.summary_sort, .asc = k->opt.summary_asc,
		.cmd = k->opt.cmd, .pids = k->opt.pids, .npids = k->opt.npids,
		.nprocs = m->nfocus, .lost = m->lost_total, .lost_unknown = m->lost_total_unknown,
		.priv = k->priv, .npriv = k->npriv,
	};
	pid_t *gone = xcalloc(k->opt.npids + 1, sizeof(*gone));
	char how[64];
	int err;

	si.elapsed_s = k->replay ? k->replay_elapsed :
		       k->t_start ? (double)(clocks_mono_ns() - k->t_start) / 1e9 : 0;
	if (k->opt.cmd && k->launch.exited) {
		launch_describe(k->launch.status, how, sizeof(how));
		si.ended = how;
		si.exit_code = launch_exit_code(k->launch.status);
	}
	if (k->replay && !replay_first_session(k->replay)->npins)
		si.untimed = "a recording of the whole system has no times; one of -p or -- CMD has";
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
