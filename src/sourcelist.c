// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sources: where each live interval comes from. One list, run in its
 * order by one loop, as the sinks are (sinks.c): each entry a table of
 * operations (collectors/source.h) in a file beside its collector. A tick
 * runs each phase over the list (begin, read, take, collect with the model
 * applying the sample after the entries that say so and at the end, applied,
 * end); the sinks' demand (sinks_needs) is handed to every source, and what
 * one source tells another goes through the tick's facts, never a call. The
 * loop polls the sources' descriptors; KTOP_STATS prints the list's
 * statistics. A new source is one file in collectors/ and one entry here.
 */
#include <string.h>
#include <time.h>

#include "../collectors/clocks.h"
#include "../collectors/trace/counting.h"
#include "../collectors/source.h"
#include "../lib/util.h"
#include "ktop.h"

/*
 * In the order of a tick: the system's files, then /proc (it sees the
 * system's last pid), the names and the events of the rows /proc made, the
 * process view's threads and the calls in progress from the events' sums,
 * then the exit records of what died, the groups' cgroup files last.
 */
static const struct source *const sources[] = {
	&system_source,
	&procfs_source,
	&cgnames_source,
	&counting_source,
	&focus_source,
	&inprog_source,
	&exits_source,
	&cgfiles_source,
};

#define NSOURCES ARRAY_SIZE(sources)

_Static_assert(NSOURCES <= SOURCES_MAX, "a state per source (struct ktop)");

/* A long /proc scan waits: each source keeps what would be lost meanwhile. */
static void sources_pause(void *arg)
{
	struct ktop *k = arg;
	size_t i;

	for (i = 0; i < NSOURCES; i++)
		if (k->source_state[i] && sources[i]->pause)
			sources[i]->pause(k->source_state[i]);
}

int sources_start(struct ktop *k)
{
	struct source_env *env = &k->sources;
	size_t i;

	env->pause = sources_pause;
	env->pause_arg = k;
	for (i = 0; i < NSOURCES; i++) {
		int ret = sources[i]->start(env, &k->source_state[i]);

		k->ftrace = env->ftrace;
		if (ret)
			return -1;
		k->sources_started = i + 1;
	}
	k->traced = env->tracing;
	return 0;
}

void sources_setup(struct ktop *k)
{
	size_t i;

	for (i = 0; i < k->sources_started; i++)
		if (k->source_state[i] && sources[i]->setup)
			sources[i]->setup(k->source_state[i], &k->sources, &k->model);
}

size_t sources_pollfds(struct ktop *k, struct pollfd *pfd, size_t max)
{
	size_t i, n = 0, j, got;

	for (i = 0; i < NSOURCES && n < max; i++) {
		if (!k->source_state[i] || !sources[i]->pollfds)
			continue;
		got = sources[i]->pollfds(k->source_state[i], pfd + n, max - n);
		for (j = n; j < n + got && j < ARRAY_SIZE(k->source_pfd); j++)
			k->source_pfd[j] = (unsigned char)i;
		n += got;
	}
	return n;
}

unsigned sources_generation(const struct ktop *k)
{
	unsigned gen = 0;
	size_t i;

	for (i = 0; i < NSOURCES; i++)
		if (k->source_state[i] && sources[i]->generation)
			gen += sources[i]->generation(k->source_state[i]);
	return gen;
}

void sources_drain(struct ktop *k, const struct pollfd *pfd, size_t n)
{
	struct source_env *env = &k->sources;
	bool done[NSOURCES] = { false };
	size_t i, s;

	env->m = env->feed = &k->model;
	for (i = 0; i < n && i < ARRAY_SIZE(k->source_pfd); i++) {
		s = k->source_pfd[i];
		if (!(pfd[i].revents & POLLIN) || done[s] || !k->source_state[s])
			continue;
		done[s] = sources[s]->drain(k->source_state[s], env, pfd[i].fd);
	}
}

/* A source's sample to the model, and to the recorder first (-w stores what the sources said). */
static void apply(struct ktop *k, struct sample *s)
{
	if (k->rec) {
		struct timespec t0, t1;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		record_sample(k->rec, s);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		k->rec_cpu_ns += (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL +
					    (t1.tv_nsec - t0.tv_nsec));
	}
	model_apply(&k->model, s);
}

#define PHASE(k, op) do {							\
	for (size_t i_ = 0; i_ < NSOURCES; i_++)				\
		if ((k)->source_state[i_] && sources[i_]->op)			\
			sources[i_]->op((k)->source_state[i_], &(k)->sources);	\
} while (0)

/*
 * Watched processes that gained privileges (ktop not root): they are not
 * reported any more (counting_privileged); say so, in the summary at the end.
 */
static void report_privileged(struct ktop *k)
{
	const struct source_facts *f = &k->sources.facts;
	char name[64];
	size_t i;

	for (i = 0; i < f->npriv; i++) {
		const struct counting_priv *p = &f->priv[i];

		if (p->from)
			continue;
		k->priv = xrealloc(k->priv, (k->npriv + 1) * sizeof(*k->priv));
		k->priv[k->npriv].pid = p->pid;
		memcpy(k->priv[k->npriv++].comm, p->comm, sizeof(p->comm));
		sanitize_text(name, sizeof(name), p->comm, strnlen(p->comm, sizeof(p->comm)),
			      k->opt.batch || k->app.utf8);
		if (k->opt.batch)
			fprintf(stderr, "ktop: pid %d (%s) gained privileges: no longer reported\n",
				(int)p->pid, name);
		else if (!k->opt.summary)
			app_message(&k->app, "pid %d (%s) gained privileges: no longer reported",
				    (int)p->pid, name);
	}
}

void sources_tick(struct ktop *k)
{
	struct source_env *env = &k->sources;
	struct sample *s = &k->sample;
	size_t i, from = 0;

	memset(&env->facts, 0, sizeof(env->facts));
	sinks_needs(k, &env->need);
	env->need.last = k->last_collect;
	env->m = env->feed = &k->model;
	PHASE(k, begin);
	for (i = 0; i < NSOURCES; i++)
		if (k->source_state[i] && sources[i]->read)
			sources[i]->read(k->source_state[i], env, s);
	PHASE(k, take);
	s->begin = true;
	/* Traced, the events' interval ends where they were read: the tick's. */
	s->mono_ns = env->facts.cut_ns ? env->facts.cut_ns : clocks_mono_ns();
	s->wall_s = clocks_wall_s();
	for (i = 0; i < NSOURCES; i++) {
		if (k->source_state[i] && sources[i]->collect)
			sources[i]->collect(k->source_state[i], env, s);
		if (!sources[i]->apply && i + 1 < NSOURCES)
			continue;
		/* The last apply ends the interval. */
		s->end = i + 1 == NSOURCES;
		apply(k, s);
		for (; from <= i; from++)
			if (k->source_state[from] && sources[from]->applied)
				sources[from]->applied(k->source_state[from], env);
	}
	PHASE(k, end);
	report_privileged(k);
}

int sources_focus_open(struct ktop *k, pid_t pid, char *why, size_t len)
{
	size_t i;

	k->sources.m = k->sources.feed = &k->model;
	for (i = 0; i < NSOURCES; i++) {
		if (!k->source_state[i] || !sources[i]->focus_open)
			continue;
		if (sources[i]->focus_open(k->source_state[i], &k->sources, pid, why, len))
			return 1;
		watch_signals(k);
		return 0;
	}
	return -1;
}

bool sources_focus_close(struct ktop *k, pid_t pid)
{
	size_t i;

	k->sources.m = k->sources.feed = &k->model;
	for (i = 0; i < NSOURCES; i++) {
		if (k->source_state[i] && sources[i]->focus_close) {
			sources[i]->focus_close(k->source_state[i], &k->sources, pid);
			return true;
		}
	}
	return false;
}

/* The system-wide instance reports the signals sent to the focused processes. */
void watch_signals(struct ktop *k)
{
	k->sources.m = k->sources.feed = &k->model;
	PHASE(k, focus_changed);
}

void sources_stop(struct ktop *k)
{
	size_t i;

	/* Its statistics, kept for the exporter's health and KTOP_STATS. */
	if (k->ftrace)
		counting_get_stats(k->ftrace, &k->fstats);
	for (i = NSOURCES; i-- > 0;)
		if (k->source_state[i] && sources[i]->stop)
			k->source_state[i] = sources[i]->stop(k->source_state[i], &k->sources);
	k->ftrace = k->sources.ftrace;
}

void sources_free(struct ktop *k)
{
	size_t i;

	for (i = NSOURCES; i-- > 0;) {
		if (k->source_state[i] && sources[i]->free)
			sources[i]->free(k->source_state[i]);
		k->source_state[i] = NULL;
	}
	k->ftrace = k->sources.ftrace = NULL;
	k->sources.procfs = NULL;
}

/*
 * KTOP_STATS, of the sources started: the fields of the common line, in
 * reverse list order (the counting source's before /proc's, as the line
 * always had them), and their own lines.
 */
void sources_print_fields(const struct ktop *k, FILE *out)
{
	size_t i;

	for (i = k->sources_started; i-- > 0;)
		if (sources[i]->fields)
			sources[i]->fields(k->source_state[i], &k->sources, out);
}

void sources_print_lines(const struct ktop *k, FILE *out)
{
	size_t i;

	for (i = 0; i < k->sources_started; i++)
		if (sources[i]->lines)
			sources[i]->lines(k->source_state[i], &k->sources, out);
}
