// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/exits/exits_source: dead tasks' exit records (exits.h) as a source of
 * the list (source.h), traced or not; --summary counts only system calls.
 * Last of the tick: the deaths /proc and the events told of have their
 * records queued; the rows the counting source holds wait (the tick's facts).
 */
#include <stdlib.h>
#include <unistd.h>

#include "../../lib/util.h"
#include "exits.h"
#include "../source.h"

static int exits_src_start(struct source_env *env, void **st)
{
	struct exits *x = exits_new(sysconf(_SC_CLK_TCK));

	*st = x;
	if (!env->summary) {
		const char *kb = getenv("KTOP_EXITS_KB");
		unsigned long long v = 0;

		/* A small receive buffer lets tests see lost exit records; 0, the events alone. */
		if (kb && !parse_uint(kb, 1 << 22, &v) && !v)
			exits_off(x, "exit records off: KTOP_EXITS_KB=0");
		else
			exits_listen(x, (size_t)v * 1024);
	}
	return 0;
}

static void exits_src_setup(void *st, struct source_env *env, struct model *m)
{
	(void)env;
	m->exit_records = exits_on(st);
	snprintf(m->exits_status, sizeof(m->exits_status), "%s", exits_status(st));
}

static size_t exits_src_pollfds(void *st, struct pollfd *pfd, size_t max)
{
	int fd = exits_fd(st);

	if (fd < 0 || !max)
		return 0;
	*pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	return 1;
}

/* Exit records are queued: read them before the socket's queue overflows. */
static bool exits_src_drain(void *st, struct source_env *env, int fd)
{
	(void)env;
	(void)fd;
	exits_drain(st);
	return true;
}

static void exits_src_begin(void *st, struct source_env *env)
{
	(void)env;
	exits_begin(st);
}

static void exits_src_collect(void *st, struct source_env *env, struct sample *s)
{
	exits_collect(st, env->m, s, env->facts.held, env->facts.nheld,
		      env->facts.traced && !env->need.last);
}

static void exits_src_lines(void *st, const struct source_env *env, FILE *out)
{
	struct exits_stats xs;

	(void)env;
	exits_get_stats(st, &xs);
	fprintf(out, "ktop-stats: exit_records=%llu exit_rows=%llu exit_unmatched=%llu "
		"exit_partial=%llu exit_lost=%llu exit_unborn=%llu\n", (unsigned long long)xs.records,
		(unsigned long long)xs.rows, (unsigned long long)xs.unmatched,
		(unsigned long long)xs.partial, (unsigned long long)xs.lost,
		(unsigned long long)xs.unborn);
}

static void exits_src_free(void *st)
{
	exits_free(st);
}

const struct source exits_source = {
	.name = "exits",
	.start = exits_src_start,
	.setup = exits_src_setup,
	.pollfds = exits_src_pollfds,
	.drain = exits_src_drain,
	.begin = exits_src_begin,
	.collect = exits_src_collect,
	.lines = exits_src_lines,
	.free = exits_src_free,
};
