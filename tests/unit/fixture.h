/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FIXTURE_H
#define KTOP_FIXTURE_H

/*
 * tests/unit/fixture: the samples the unit tests give the model, made as a
 * source makes them (model/sample.h), in one place. A task of the fixture is
 * a sleeping process of one thread, child of init, started 1000 + its pid
 * clock ticks after boot (fx_start: with the pid, its identity), so that a
 * test sets only what it checks:
 *
 *	fx_begin(&s, 1);
 *	fx_reading(&s, 100, "worker")->stat.utime = 10;
 *	fx_row(&s, 100, "worker", false)->n[CNT_SYSCALLS] = 5;
 *	s.end = true;
 *	model_apply(&m, &s);
 *
 * A test's clock: tick @at_s is at @at_s seconds of CLOCK_MONOTONIC and
 * 1700000000 + @at_s of the wall clock.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "../../model/sample.h"

#define FX_WALL0 1700000000.0

/* The start time (clock ticks after boot) of the fixture's task @pid. */
static inline uint64_t fx_start(pid_t pid)
{
	return 1000 + (uint64_t)pid;
}

/* A tick's start at @at_s seconds into the test (the caller applies it). */
static inline void fx_begin(struct sample *s, double at_s)
{
	s->begin = true;
	s->mono_ns = (uint64_t)(at_s * 1e9);
	s->wall_s = FX_WALL0 + at_s;
}

/* /proc/@pid/stat of the fixture's task @pid named @comm, its counters 0. */
static inline struct pid_stat fx_stat(pid_t pid, const char *comm)
{
	struct pid_stat st;

	memset(&st, 0, sizeof(st));
	st.pid = pid;
	snprintf(st.comm, sizeof(st.comm), "%s", comm);
	st.state = 'S';
	st.ppid = 1;
	st.num_threads = 1;
	st.starttime = fx_start(pid);
	return st;
}

/* A /proc reading of process @pid in @s (its owner unknown: uid -1). */
static inline struct task_reading *fx_reading(struct sample *s, pid_t pid, const char *comm)
{
	struct task_reading *r = sample_add_task(s);

	r->pid = r->tgid = pid;
	r->stat = fx_stat(pid, comm);
	r->uid = -1;
	return r;
}

/* A row of kernel events of process @pid in @s, its counts 0; @exited: its exit was seen. */
static inline struct row_events *fx_row(struct sample *s, pid_t pid, const char *comm,
					bool exited)
{
	struct row_events *e = sample_add_row(s);

	e->id = e->tgid = pid;
	snprintf(e->comm, sizeof(e->comm), "%s", comm);
	e->ppid = 1;
	e->exited = exited;
	return e;
}

/* The exit record of process @pid in @s, no counter known (owner unknown: uid -1). */
static inline struct task_final *fx_final(struct sample *s, pid_t pid, const char *comm)
{
	struct task_final *f = sample_add_final(s);

	f->id = f->tgid = pid;
	f->ppid = 1;
	f->uid = -1;
	snprintf(f->comm, sizeof(f->comm), "%s", comm);
	return f;
}

#endif
