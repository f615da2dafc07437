// SPDX-License-Identifier: GPL-2.0-only
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/util.h"

/* What a shell says and returns for a command it cannot run. */
static int not_runnable(const char *name, int err, char *msg, size_t n)
{
	if (err == ENOENT && !strchr(name, '/'))
		snprintf(msg, n, "%s: command not found", name);
	else
		snprintf(msg, n, "%s: %s", name, strerror(err));
	return -err;
}

/* A file execve can run: 0, or the errno a shell would report. */
static int runnable(const char *path)
{
	struct stat sb;

	if (stat(path, &sb))
		return errno;
	if (S_ISDIR(sb.st_mode))
		return EISDIR;
	if (!S_ISREG(sb.st_mode) || access(path, X_OK))
		return EACCES;
	return 0;
}

/*
 * The file to execute, found as execvp(3) would, but here, before the fork:
 * the child then makes one execve (as under strace), not one per directory of
 * PATH, and a missing command is reported before anything runs.
 */
static int resolve(const char *name, char **path)
{
	const char *env = getenv("PATH"), *p, *end;
	char buf[PATH_MAX];
	int err, first = ENOENT;

	if (!*name)
		return ENOENT;
	if (strchr(name, '/')) {
		err = runnable(name);
		if (!err)
			*path = xstrdup(name);
		return err;
	}
	if (!env)
		env = "/usr/local/bin:/usr/bin:/bin";
	for (p = env;; p = end + 1) {
		size_t len;

		end = strchrnul(p, ':');
		len = (size_t)(end - p);
		/* An empty entry is the current directory. */
		if (snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, p, len ? "/" : "", name) <
		    (int)sizeof(buf)) {
			err = runnable(buf);
			if (!err) {
				*path = xstrdup(buf);
				return 0;
			}
			/* Found but not executable: say so, unless a later one is. */
			if (err != ENOENT && err != ENOTDIR && first == ENOENT)
				first = err;
		}
		if (!*end)
			break;
	}
	return first;
}

/* In the child, between fork and execve: async-signal-safe calls only. */
static void child(const struct launch *l, pid_t parent, int null_fd, int out_w, int err_w)
{
	int e;

	/*
	 * ktop killed (SIGKILL: no clean-up of its own) must not leave CMD stopped
	 * forever, or running on untraced: it dies with ktop. The parent may have
	 * died before the prctl: then nobody would send it.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(126);
	if (null_fd >= 0 && (dup2(null_fd, STDIN_FILENO) < 0 || dup2(out_w, STDOUT_FILENO) < 0 ||
			     dup2(out_w, STDERR_FILENO) < 0))
		goto fail;
	/*
	 * Stopped here until the trace is armed. The stop takes effect on the way
	 * out of kill(), after its exit event: once continued, the next system call
	 * this process makes is the execve.
	 */
	kill(getpid(), SIGSTOP);
	execv(l->path, l->argv);
fail:
	e = errno;
	if (write(err_w, &e, sizeof(e)) < 0) {
		/* The parent reads an end of file and the exit status says enough. */
	}
	_exit(e == ENOENT ? 127 : 126);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int launch_start(struct launch *l, char *const argv[], bool capture, char *err, size_t errsz)
{
	int errp[2] = { -1, -1 }, outp[2] = { -1, -1 }, null_fd = -1, e;
	siginfo_t si;
	pid_t self;

	memset(l, 0, sizeof(*l));
	l->pidfd = l->out_fd = l->err_fd = -1;
	l->argv = argv;
	e = resolve(argv[0], &l->path);
	if (e)
		return not_runnable(argv[0], e, err, errsz);
	if (pipe2(errp, O_CLOEXEC))
		goto sys_fail;
	if (capture) {
		null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null_fd < 0 || pipe2(outp, O_CLOEXEC))
			goto sys_fail;
		l->tail = xmalloc(LAUNCH_TAIL);
	}
	fflush(NULL);	/* nothing buffered is written twice */
	self = getpid();
	l->pid = fork();
	if (l->pid < 0) {
		l->pid = 0;
		goto sys_fail;
	}
	if (l->pid == 0)
		child(l, self, null_fd, outp[1], errp[1]);
	close_fd(&errp[1]);
	close_fd(&outp[1]);
	close_fd(&null_fd);
	l->err_fd = errp[0];
	l->out_fd = outp[0];
	if (l->out_fd >= 0)
		fcntl(l->out_fd, F_SETFL, O_NONBLOCK);
	/* Stopped before execve, or already gone (dup2 failed). */
	while (waitid(P_PID, (id_t)l->pid, &si, WSTOPPED | WEXITED | WNOWAIT)) {
		if (errno != EINTR)
			goto sys_fail;
	}
	if (si.si_code != CLD_STOPPED) {
		snprintf(err, errsz, "%s: cannot start it", argv[0]);
		launch_free(l);
		return -ECHILD;
	}
	/* Consume the stop report; the exit is waited for through the pidfd. */
	waitid(P_PID, (id_t)l->pid, &si, WSTOPPED);
	l->pidfd = (int)syscall(SYS_pidfd_open, l->pid, 0);
	if (l->pidfd < 0)
		goto sys_fail;
	return 0;
sys_fail:
	e = errno;
	snprintf(err, errsz, "cannot start %s: %s", argv[0], strerror(e));
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	close_fd(&outp[0]);
	close_fd(&outp[1]);
	close_fd(&null_fd);
	launch_free(l);
	return -e;
}

int launch_release(struct launch *l, char *err, size_t errsz)
{
	ssize_t n;
	int e = 0;

	if (kill(l->pid, SIGCONT)) {
		e = errno;
		snprintf(err, errsz, "cannot start %s: %s", l->argv[0], strerror(e));
		return -e;
	}
	/* End of file: execve succeeded and closed the close-on-exec pipe. */
	do
		n = read(l->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close_fd(&l->err_fd);
	if (n == (ssize_t)sizeof(e) && e) {
		not_runnable(l->argv[0], e, err, errsz);
		return -e;
	}
	return 0;
}

bool launch_poll_exit(struct launch *l)
{
	siginfo_t si;

	if (l->exited || !l->pid)
		return l->exited;
	si.si_pid = 0;
	if (waitid(P_PID, (id_t)l->pid, &si, WEXITED | WNOHANG | WNOWAIT) || !si.si_pid)
		return false;
	l->exited = true;
	switch (si.si_code) {
	case CLD_EXITED:
		l->status = (si.si_status & 0xff) << 8;
		break;
	case CLD_DUMPED:
		l->status = (si.si_status & 0x7f) | 0x80;
		break;
	default:	/* CLD_KILLED */
		l->status = si.si_status & 0x7f;
		break;
	}
	return true;
}

void launch_reap(struct launch *l)
{
	int st;

	if (l->pid && l->exited) {
		while (waitpid(l->pid, &st, 0) < 0 && errno == EINTR)
			;
		l->status = st;
		l->was_pid = l->pid;
		l->pid = 0;
	}
	close_fd(&l->pidfd);
	close_fd(&l->err_fd);
}

void launch_signal(struct launch *l, int sig)
{
	if (l->pid && !l->exited)
		kill(l->pid, sig);
}

void launch_free(struct launch *l)
{
	if (l->pid && !l->exited) {
		kill(l->pid, SIGKILL);
		l->exited = true;
	}
	launch_reap(l);
	close_fd(&l->out_fd);
	free(l->path);
	free(l->tail);
	l->path = l->tail = NULL;
}

static void keep(struct launch *l, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		/* The last complete line, for the live view's status line. */
		if (buf[i] == '\n') {
			if (l->line_len) {
				memcpy(l->last_line, l->line_buf, l->line_len);
				l->last_line[l->line_len] = '\0';
			}
			l->line_len = 0;
		} else if (l->line_len < sizeof(l->line_buf) - 1) {
			l->line_buf[l->line_len++] = buf[i];
		}
	}
	/* Only the end is kept: a ring of LAUNCH_TAIL bytes, the oldest overwritten. */
	for (i = 0; i < n;) {
		size_t end = (l->tail_start + l->tail_len) % LAUNCH_TAIL;
		size_t room = LAUNCH_TAIL - end, k = n - i < room ? n - i : room;

		memcpy(l->tail + end, buf + i, k);
		i += k;
		l->tail_len += k;
		if (l->tail_len > LAUNCH_TAIL) {
			size_t over = l->tail_len - LAUNCH_TAIL;

			l->dropped += over;
			l->tail_start = (l->tail_start + over) % LAUNCH_TAIL;
			l->tail_len = LAUNCH_TAIL;
		}
	}
}

bool launch_read_output(struct launch *l)
{
	char buf[16384];
	ssize_t n;
	int rounds;

	if (l->out_fd < 0)
		return false;
	/* Bounded: a command that writes without pause must not hold the loop. */
	for (rounds = 0; rounds < 16; rounds++) {
		n = read(l->out_fd, buf, sizeof(buf));
		if (n > 0) {
			keep(l, buf, (size_t)n);
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return true;
		/* End of file: CMD and everything it started closed their output. */
		close_fd(&l->out_fd);
		return false;
	}
	return true;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

void launch_write_output(const struct launch *l, int fd)
{
	size_t first;

	if (!l->tail || !l->tail_len)
		return;
	first = LAUNCH_TAIL - l->tail_start;
	if (first > l->tail_len)
		first = l->tail_len;
	write_all(fd, l->tail + l->tail_start, first);
	write_all(fd, l->tail, l->tail_len - first);
}

int launch_exit_code(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

void launch_describe(int status, char *buf, size_t n)
{
	if (WIFSIGNALED(status))
		snprintf(buf, n, "killed by SIG%s%s", sigabbrev_np(WTERMSIG(status)) ?
			 sigabbrev_np(WTERMSIG(status)) : "?",
			 WCOREDUMP(status) ? " (core dumped)" : "");
	else
		snprintf(buf, n, "exited with status %d", WEXITSTATUS(status));
}
