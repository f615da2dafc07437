// SPDX-License-Identifier: GPL-2.0-only
/*
 * Many tasks that end at once, for tests/cli/massexit.bats and
 * tests/stress/massexit.sh: what broke ktop (issue 20) was 1,000 processes
 * killed in one go.
 *
 *	massexit MODE N READY
 *
 * MODE procs: N children (named "mx-kid") that wait; at the go each is sent
 * SIGTERM, in one loop, then all are reaped. MODE exec: N children that
 * wait; at the go each executes /bin/true at once (an exec storm), all
 * reaped. MODE threads: N threads that wait; at the go all return at once
 * and are joined.
 * When every task is there it writes its children's pids (procs, exec; one a
 * line) to READY.pids, then its own pid to READY. The go is SIGUSR1. When
 * all are gone it writes READY.done and exits 0.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go, started;

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	started++;
	pthread_cond_broadcast(&cond);
	while (!go)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void write_file(const char *path, const char *suffix, const char *text)
{
	char p[4096], tmp[4200];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", path, suffix);
	snprintf(tmp, sizeof(tmp), "%s.tmp", p);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, p)) {
		perror(p);
		exit(1);
	}
}

static void wait_go(const sigset_t *set)
{
	int sig;

	sigwait(set, &sig);
}

int main(int argc, char **argv)
{
	sigset_t set;
	pid_t *kids;
	int n, i;
	char *list, line[32];
	size_t len = 0;

	if (argc != 4 || (n = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: massexit procs|exec|threads N READY\n");
		return 2;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kids = calloc((size_t)n, sizeof(*kids));
	list = calloc((size_t)n, 16);
	if (!kids || !list)
		return 1;
	if (!strcmp(argv[1], "threads")) {
		pthread_attr_t attr;
		pthread_t *t = calloc((size_t)n, sizeof(*t));

		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		for (i = 0; i < n; i++)
			if (pthread_create(&t[i], &attr, waiter, NULL)) {
				fprintf(stderr, "massexit: thread %d not created\n", i);
				return 1;
			}
		pthread_mutex_lock(&lock);
		while (started < n)
			pthread_cond_wait(&cond, &lock);
		pthread_mutex_unlock(&lock);
		write_file(argv[3], ".pids", "");
		snprintf(line, sizeof(line), "%d\n", (int)getpid());
		write_file(argv[3], "", line);
		wait_go(&set);
		pthread_mutex_lock(&lock);
		go = 1;
		pthread_cond_broadcast(&cond);
		pthread_mutex_unlock(&lock);
		for (i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		write_file(argv[3], ".done", "done\n");
		return 0;
	}
	for (i = 0; i < n; i++) {
		kids[i] = fork();
		if (kids[i] < 0) {
			perror("fork");
			return 1;
		}
		if (!kids[i]) {
			prctl(PR_SET_NAME, "mx-kid", 0, 0, 0);
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			if (!strcmp(argv[1], "exec")) {
				wait_go(&set);
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			sigprocmask(SIG_UNBLOCK, &set, NULL);
			for (;;)
				pause();
		}
		len += (size_t)snprintf(list + len, 16, "%d\n", (int)kids[i]);
	}
	write_file(argv[3], ".pids", list);
	snprintf(line, sizeof(line), "%d\n", (int)getpid());
	write_file(argv[3], "", line);
	wait_go(&set);
	for (i = 0; i < n; i++)
		kill(kids[i], strcmp(argv[1], "exec") ? SIGTERM : SIGUSR1);
	for (i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	write_file(argv[3], ".done", "done\n");
	return 0;
}
