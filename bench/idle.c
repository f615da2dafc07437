// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/idle: fork N children that sleep in pause() until killed, for the
 * ktop-vs-top benchmark (bench/run.sh).
 *
 *   idle N PIDFILE
 *
 * Writes the children's pids, one a line, to PIDFILE (atomically: PIDFILE.tmp
 * then rename, so the file appearing means all N are running), then waits.
 * On SIGTERM/SIGINT/SIGHUP it SIGKILLs exactly its own children, reaps them and
 * exits. A child's pid cannot be reused before this parent reaps it, and each
 * child gets PR_SET_PDEATHSIG=SIGKILL, so none outlives the parent.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t block, old;
	pid_t parent = getpid(), *kids;
	long n, i, made = 0;
	char tmp[4096];
	FILE *f;

	if (argc != 3 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: %s N PIDFILE\n", argv[0]);
		return 2;
	}
	kids = calloc((size_t)n, sizeof(*kids));
	if (!kids)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* Block the stop signals while forking: handled once all children are known. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	for (i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0) {
			fprintf(stderr, "idle: fork %ld of %ld: %s\n", i + 1, n, strerror(errno));
			break;
		}
		if (p == 0) {
			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			signal(SIGHUP, SIG_DFL);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(0);
			sigprocmask(SIG_SETMASK, &old, NULL);
			for (;;)
				pause();
		}
		kids[made++] = p;
	}
	if (made == n) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
		f = fopen(tmp, "w");
		if (f) {
			for (i = 0; i < made; i++)
				fprintf(f, "%d\n", (int)kids[i]);
			if (fclose(f) == 0)
				rename(tmp, argv[2]);
		}
	} else {
		stop = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	while (!stop)
		pause();
	for (i = 0; i < made; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < made; i++)
		while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
			;
	return made == n ? 0 : 1;
}
