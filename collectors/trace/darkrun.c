// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/darkrun: reads the dark threads' run time (darkrun.h).
 *
 * /proc/TID/schedstat's first field is the thread's se.sum_exec_runtime:
 * its time on a CPU in ns as the scheduler counts it (the hypervisor's
 * stolen time left out), the count /proc/PID/schedstat and the exit's
 * taskstats give. The file stays open: a pread at 0 makes it again.
 *
 * A thread is found dark by its first run that ended unwritten, in the
 * middle of ktop's first interval as often as not: what it ran in that
 * interval is its run since tracing began (every thread's is read then,
 * once) less what its records credited it before.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "darkrun.h"
#include "../clocks.h"
#include "../../lib/util.h"

/* schedstat's first field: the run time in ns. */
static bool parse_run(const char *buf, uint64_t *ns)
{
	char *end;

	errno = 0;
	*ns = strtoull(buf, &end, 10);
	return end != buf && !errno;
}

/* Its run time now; false when it is gone (ESRCH) or unreadable. */
static bool run_now(int fd, uint64_t *ns)
{
	char buf[96];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	return parse_run(buf, ns);
}

static void drop(struct darkrun *d, size_t i)
{
	close(d->t[i].fd);
	d->t[i] = d->t[--d->n];
}

static int base_cmp(const void *x, const void *y)
{
	const struct darkrun_base *p = x, *q = y;

	return (p->tid > q->tid) - (p->tid < q->tid);
}

static void base_add(struct darkrun *d, size_t *cap, pid_t tid, uint64_t run)
{
	if (d->nbase == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		d->base = xrealloc(d->base, *cap * sizeof(*d->base));
	}
	d->base[d->nbase++] = (struct darkrun_base){ tid, run };
}

/*
 * The run time since tracing began of @tid, newly dark (evsums_dark_reader):
 * less its run then, if it was there (a tid not seen then was born since,
 * or its pid came back: all of it). It is read at each cut from now on.
 */
static bool first(void *arg, pid_t tid, uint64_t *run_ns, uint64_t *at_ns)
{
	struct darkrun *d = arg;
	struct darkrun_base key = { .tid = tid }, *b;
	char path[48];
	uint64_t now;
	size_t i;
	int fd;

	for (i = 0; i < d->n; i++)
		if (d->t[i].tid == tid)
			return false;	/* read already: its thread was forgotten and made again */
	if (d->n == DARKRUN_MAX) {
		d->refused++;
		return false;
	}
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	*at_ns = clocks_mono_ns();
	if (fd < 0 || !run_now(fd, &now)) {
		if (fd >= 0)
			close(fd);
		d->refused++;
		return false;
	}
	d->t[d->n++] = (struct darkrun_thread){ .tid = tid, .fd = fd, .last = now };
	if (d->scan_skipped)
		return false;
	b = d->nbase ? bsearch(&key, d->base, d->nbase, sizeof(*d->base), base_cmp) : NULL;
	*run_ns = b && b->run <= now ? now - b->run : now;
	return true;
}

/* The threads there are now (/proc/loadavg's fourth field, after the slash); 0 unknown. */
static unsigned long threads_now(void)
{
	unsigned long running, all;
	FILE *f = fopen("/proc/loadavg", "re");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%*s %*s %*s %lu/%lu", &running, &all);
	fclose(f);
	return n == 2 ? all : 0;
}

void darkrun_start(struct darkrun *d, struct evsums *a)
{
	DIR *procs, *tasks;
	struct dirent *p, *t;
	char path[80], buf[96];
	size_t cap = 0;
	uint64_t run;

	evsums_dark_reader(a, first, d);
	/*
	 * 13-19 us a thread here: more than ktop's start should wait for, past
	 * DARKRUN_SCAN_MAX. A thread found dark then gets its run from its
	 * second interval on (its first read the baseline).
	 */
	if (threads_now() > DARKRUN_SCAN_MAX) {
		d->scan_skipped = true;
		return;
	}
	procs = opendir("/proc");
	if (!procs)
		return;
	while ((p = readdir(procs))) {
		int pid = atoi(p->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		if (!(tasks = opendir(path)))
			continue;
		while ((t = readdir(tasks))) {
			int tid = atoi(t->d_name);

			if (tid <= 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
			if (read_small_file(path, buf, sizeof(buf)) > 0 && parse_run(buf, &run))
				base_add(d, &cap, tid, run);
		}
		closedir(tasks);
	}
	closedir(procs);
	if (d->nbase)
		sort_array(d->base, d->nbase, sizeof(*d->base), base_cmp);
}

void darkrun_read(struct darkrun *d, struct evsums *a)
{
	size_t i = 0;
	uint64_t now;

	while (i < d->n) {
		struct darkrun_thread *t = &d->t[i];

		/* Gone, or a tid reused by a thread with less run time: not the same. */
		if (!run_now(t->fd, &now) || now < t->last || !evsums_dark_run(a, t->tid, now - t->last)) {
			drop(d, i);
			continue;
		}
		t->last = now;
		i++;
	}
}

void darkrun_free(struct darkrun *d)
{
	while (d->n)
		drop(d, 0);
	free(d->base);
	d->base = NULL;
	d->nbase = 0;
}
