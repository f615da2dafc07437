// SPDX-License-Identifier: GPL-2.0-only
#include "flightsave.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "flight.h"
#include "instance.h"
#include "../system/sysparse.h"
#include "../clocks.h"
#include "../../lib/util.h"

static int cmp_fmt(const void *a, const void *b)
{
	const struct flightsave_fmt *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

/* events/@sys/@ev/format into @out; false when it cannot be read. */
static bool read_fmt(const char *sys, const char *ev, struct flightsave_fmt *out)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/%s/format", sys, ev);
	out->text = instance_read_format(rel, &out->len);
	if (!out->text || !out->len) {
		free(out->text);
		return false;
	}
	out->system = xstrdup(sys);
	out->name = xstrdup(ev);
	return true;
}

static bool listed(const struct flightsave_fmt *v, size_t n, const char *sys, const char *ev)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].system, sys) && !strcmp(v[i].name, ev))
			return true;
	return false;
}

/* The main instance's file @rel, malloc'ed text; NULL when unreadable. */
static char *instance_file(const char *instance, const char *rel)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, instance);
	char *s;
	int len = 0;

	if (!inst)
		return NULL;
	s = tracefs_instance_file_read(inst, rel, &len);
	tracefs_instance_free(inst);
	if (s && len <= 0) {
		free(s);
		return NULL;
	}
	return s;
}

int flightsave_meta_read(const struct flight *fl, struct flightsave_meta *m)
{
	struct flight_buffer_info bi;
	char **names;
	size_t i, j, cap = 0;

	memset(m, 0, sizeof(*m));
	m->header_event = instance_read_format("header_event", &m->header_event_len);
	if (!m->header_event)
		return -ENOENT;
	/* ftrace's own events, as trace-cmd keeps them (markers, function records). */
	names = tracefs_system_events(NULL, "ftrace");
	for (i = 0; names && names[i]; i++) {
		m->ftrace = xrealloc(m->ftrace, (m->nftrace + 1) * sizeof(*m->ftrace));
		if (read_fmt("ftrace", names[i], &m->ftrace[m->nftrace]))
			m->nftrace++;
	}
	tracefs_list_free(names);
	for (i = 0; i < flight_nbuffers(fl); i++) {
		flight_buffer_info(fl, i, &bi);
		for (j = 0; j < bi.nevents; j++) {
			if (listed(m->events, m->nevents, bi.events[j][0], bi.events[j][1]))
				continue;
			if (m->nevents == cap) {
				cap = cap ? 2 * cap : 16;
				m->events = xrealloc(m->events, cap * sizeof(*m->events));
			}
			if (read_fmt(bi.events[j][0], bi.events[j][1], &m->events[m->nevents]))
				m->nevents++;
		}
	}
	sort_array(m->events, m->nevents, sizeof(*m->events), cmp_fmt);
	if (flight_nbuffers(fl)) {
		flight_buffer_info(fl, 0, &bi);
		m->trace_clock = instance_file(bi.instance, "trace_clock");
		m->cpustats = xcalloc((size_t)bi.ncpus, sizeof(*m->cpustats));
		for (int c = 0; c < bi.ncpus; c++) {
			char rel[64], *s, *line;

			snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", c);
			s = instance_file(bi.instance, rel);
			if (!s)
				continue;
			if (asprintf(&line, "CPU: %d\n%s", c, s) > 0)
				m->cpustats[m->ncpustats++] = line;
			free(s);
		}
	}
	return 0;
}

static void free_fmts(struct flightsave_fmt *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].system);
		free(v[i].name);
		free(v[i].text);
	}
	free(v);
}

void flightsave_meta_free(struct flightsave_meta *m)
{
	free(m->header_event);
	free_fmts(m->ftrace, m->nftrace);
	free_fmts(m->events, m->nevents);
	free(m->trace_clock);
	for (size_t i = 0; i < m->ncpustats; i++)
		free(m->cpustats[i]);
	free(m->cpustats);
	memset(m, 0, sizeof(*m));
}

size_t flightsave_default_size(size_t want)
{
	struct sys_mem mem;
	char buf[4096];
	ssize_t n = read_small_file("/proc/meminfo", buf, sizeof(buf));

	if (n > 0 && !sysparse_meminfo(buf, (size_t)n, &mem) && mem.has_available &&
	    mem.available * 1024 / 32 < want)
		want = (size_t)(mem.available * 1024 / 32);
	return want < FLIGHT_MIN ? FLIGHT_MIN : want;
}

int flightsave_oom_kills(uint64_t *n)
{
	char buf[16384], *p;
	ssize_t len = read_small_file("/proc/vmstat", buf, sizeof(buf));

	if (len <= 0)
		return len < 0 ? (int)len : -EIO;
	p = strstr(buf, "\noom_kill ");
	if (!p)
		return -ENOENT;
	*n = strtoull(p + 10, NULL, 10);
	return 0;
}

/* /proc/@pid/comm into @comm (NUL-terminated); false when it cannot be read. */
static bool proc_comm(pid_t pid, char comm[16])
{
	char path[64], buf[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	n = read_small_file(path, buf, sizeof(buf));
	if (n <= 0)
		return false;
	if (buf[n - 1] == '\n')
		n--;
	if (n > 15)
		n = 15;
	memcpy(comm, buf, (size_t)n);
	comm[n] = '\0';
	return n > 0;
}

/* /proc/PID/comm reads a save may make for pids nothing else names. */
#define COMM_READS_MAX 4096

static const void *save_page(void *arg, size_t buf, int cpu)
{
	struct flightsave *s = arg;

	return flight_walk_page(s->walk, buf, cpu);
}

static char *save_cmdlines(void *arg, size_t *len)
{
	struct flightsave *s = arg;
	const pid_t *pids;
	const char (*comms)[16];
	size_t n = flight_walk_pids(s->walk, &pids, &comms), i, used = 0;
	char *out = xmalloc(n * 40 + 1), buf[16];
	int reads = 0;

	for (i = 0; i < n; i++) {
		const char *comm = s->comm(s->comm_arg, pids[i], comms[i]);
		char name[16];
		size_t j;

		if (!comm && reads < COMM_READS_MAX) {
			reads++;
			if (proc_comm(pids[i], buf))
				comm = buf;
		}
		if (!comm)
			continue;
		/* One line each: a name's newline would start another. */
		for (j = 0; j < 15 && comm[j]; j++)
			name[j] = comm[j] == '\n' ? '?' : comm[j];
		name[j] = '\0';
		used += (size_t)snprintf(out + used, 40, "%d %s\n", (int)pids[i], name);
	}
	*len = used;
	return out;
}

int flightsave_begin(struct flightsave *s, struct flight *fl, flightsave_comm_fn comm, void *arg)
{
	const struct flightsave_fmt *ev;
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = flightsave_meta_read(fl, &s->meta);
	if (ret)
		return ret;
	s->walk = flight_walk_begin(fl);
	/* The walk names the tasks of these two (the cmdlines' pids). */
	for (i = 0; i < s->meta.nevents; i++) {
		ev = &s->meta.events[i];
		if ((!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_switch")) ||
		    (!strcmp(ev->system, "task") && !strcmp(ev->name, "task_newtask")))
			flight_walk_learn(s->walk, ev->system, ev->name, ev->text, ev->len);
	}
	s->nbuffers = flight_nbuffers(fl);
	for (i = 0; i < s->nbuffers; i++)
		flight_buffer_info(fl, i, &s->buf[i]);
	s->page = save_page;
	s->cmdlines = save_cmdlines;
	s->arg = s;
	s->comm = comm;
	s->comm_arg = arg;
	return 0;
}

void flightsave_end(struct flightsave *s, uint64_t *pages_in, uint64_t *pages_out)
{
	flight_walk_counts(s->walk, pages_in, pages_out);
	flight_walk_end(s->walk);
	flightsave_meta_free(&s->meta);
	memset(s, 0, sizeof(*s));
}
