// SPDX-License-Identifier: GPL-2.0-only
#include "sample.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/rcstr.h"
#include "../lib/util.h"

void sample_init(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = xcalloc(SYS_MAX_CPUS, sizeof(*s->cpu));
	s->sys.stat.cpu = s->cpu;
	s->sys.stat.ncpu_max = SYS_MAX_CPUS;
}

void sample_free(struct sample *s)
{
	sample_reset(s);
	free(s->cpu);
	free(s->tasks);
	free(s->rows);
	free(s->withheld);
	free(s->exits);
	free(s->unfocus);
	free(s->follow);
	free(s->fthreads);
	free(s->flows);
	free(s->conns);
	free(s->finals);
	free(s->named);
	free(s->cgres);
	free(s->cpu_of);
	free(s->calls);
	free(s->disks);
	memset(s, 0, sizeof(*s));
}

void sample_reset(struct sample *s)
{
	size_t i;

	/* Command lines not handed over are the sample's. */
	for (i = 0; i < s->ntasks; i++)
		rcstr_put(s->tasks[i].cmdline);
	s->have_session = false;
	s->begin = s->end = false;
	s->have_sys = s->have_totals = false;
	s->ntasks = s->nrows = s->nwithheld = s->nexits = s->nunfocus = s->nfinals = 0;
	s->nfollow = s->nfthreads = 0;
	s->have_fthreads = s->fthreads_known = false;
	s->nflows = 0;
	s->nconns = 0;
	s->nnamed = s->ncgres = s->ncpu_of = 0;
	s->have_calls = false;
	s->have_disks = false;
	s->ndisks = 0;
	s->ncalls = 0;
	s->have_exit_totals = s->exits_lost_unknown = false;
	s->exits_lost = 0;
	memset(s->ev_total, 0, sizeof(s->ev_total));
	s->lost = 0;
	s->lost_unknown = false;
}

/* Grow @v (of @size-byte elements) to hold one more; returns the new element, zeroed. */
static void *grow(void **v, size_t *n, size_t *cap, size_t size)
{
	char *e;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = xrealloc(*v, *cap * size);
	}
	e = (char *)*v + (*n)++ * size;
	memset(e, 0, size);
	return e;
}

struct task_reading *sample_add_task(struct sample *s)
{
	struct task_reading *r = grow((void **)&s->tasks, &s->ntasks, &s->cap_tasks, sizeof(*r));

	r->uid = -1;
	return r;
}

struct row_events *sample_add_row(struct sample *s)
{
	return grow((void **)&s->rows, &s->nrows, &s->cap_rows, sizeof(struct row_events));
}

void sample_add_withheld(struct sample *s, pid_t id)
{
	*(pid_t *)grow((void **)&s->withheld, &s->nwithheld, &s->cap_withheld, sizeof(pid_t)) = id;
}

void sample_add_exit(struct sample *s, pid_t tgid)
{
	*(pid_t *)grow((void **)&s->exits, &s->nexits, &s->cap_exits, sizeof(pid_t)) = tgid;
}

void sample_add_unfocus(struct sample *s, pid_t tgid)
{
	*(pid_t *)grow((void **)&s->unfocus, &s->nunfocus, &s->cap_unfocus, sizeof(pid_t)) = tgid;
}

struct sock_conn *sample_add_conn(struct sample *s)
{
	return grow((void **)&s->conns, &s->nconns, &s->cap_conns, sizeof(struct sock_conn));
}

void sample_add_follow(struct sample *s, pid_t tgid)
{
	*(pid_t *)grow((void **)&s->follow, &s->nfollow, &s->cap_follow, sizeof(pid_t)) = tgid;
}

struct fthread_split *sample_add_fthread(struct sample *s)
{
	return grow((void **)&s->fthreads, &s->nfthreads, &s->cap_fthreads,
		    sizeof(struct fthread_split));
}

struct sig_flow *sample_add_flow(struct sample *s)
{
	return grow((void **)&s->flows, &s->nflows, &s->cap_flows, sizeof(struct sig_flow));
}

struct task_final *sample_add_final(struct sample *s)
{
	struct task_final *f = grow((void **)&s->finals, &s->nfinals, &s->cap_finals, sizeof(*f));

	f->uid = -1;
	return f;
}

struct fcall *sample_add_call(struct sample *s)
{
	return grow((void **)&s->calls, &s->ncalls, &s->cap_calls, sizeof(struct fcall));
}

struct disk_reading *sample_add_disk(struct sample *s)
{
	return grow((void **)&s->disks, &s->ndisks, &s->cap_disks, sizeof(struct disk_reading));
}

struct cg_named *sample_add_named(struct sample *s)
{
	return grow((void **)&s->named, &s->nnamed, &s->cap_named, sizeof(struct cg_named));
}

struct cg_reading *sample_add_cgres(struct sample *s)
{
	return grow((void **)&s->cgres, &s->ncgres, &s->cap_cgres, sizeof(struct cg_reading));
}

struct cg_cpu_of *sample_add_cpu_of(struct sample *s)
{
	return grow((void **)&s->cpu_of, &s->ncpu_of, &s->cap_cpu_of, sizeof(struct cg_cpu_of));
}
