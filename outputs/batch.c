// SPDX-License-Identifier: GPL-2.0-only
#include "batch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tables/columns.h"
#include "../tables/proctable.h"
#include "../lib/scnames.h"
#include "../lib/util.h"

/*
 * The text default reads only /proc/PID/stat (one pread per process per tick):
 * context switches and run_delay need a status and a schedstat read per
 * thread, 2.5x the refresh (bench/README.md), so they are asked for with -o.
 * CSV and JSON, for every number known, read them.
 */
static const int text_default[] = {
	COL_PID, COL_USER, COL_STATE, COL_CPU, COL_MEM, COL_RSS, COL_MINFLT, COL_MAJFLT,
	COL_THREADS, COL_TIME, COL_COMM,
};
static const int data_default[] = {
	COL_PID, COL_PPID, COL_USER, COL_UID, COL_COMM, COL_STATE, COL_NICE, COL_THREADS,
	COL_CPU, COL_MEM, COL_RSS, COL_VSZ, COL_TIME, COL_MINFLT, COL_MAJFLT, COL_VCSW,
	COL_IVCSW, COL_RUNQ, COL_LOST_EXITS,
};

/* Counted from events: no /proc reads, so they cost the text default nothing. */
static const int text_traced[] = {
	COL_PID, COL_USER, COL_STATE, COL_CPU, COL_MEM, COL_RSS, COL_SYSC, COL_SYSERR,
	COL_TOPSC, COL_MINFLT, COL_MAJFLT, COL_VCSW, COL_IVCSW, COL_THREADS, COL_TIME, COL_COMM,
};
static const int data_traced[] = {
	COL_PID, COL_PPID, COL_USER, COL_UID, COL_COMM, COL_STATE, COL_NICE, COL_THREADS,
	COL_CPU, COL_MEM, COL_RSS, COL_VSZ, COL_TIME, COL_MINFLT, COL_MAJFLT, COL_VCSW,
	COL_IVCSW, COL_SYSC, COL_SYSERR, COL_TOPSC, COL_SIGRECV, COL_SIGSENT, COL_ONCPU,
	COL_RUNQ, COL_SLEEP, COL_BLOCKED, COL_LOST,
	COL_LOST_EXITS,
};

void batch_default_columns(enum out_format fmt, bool traced, int *cols, size_t *ncols)
{
	const int *src;
	size_t n;

	if (fmt == OUT_TEXT) {
		src = traced ? text_traced : text_default;
		n = traced ? ARRAY_SIZE(text_traced) : ARRAY_SIZE(text_default);
	} else {
		src = traced ? data_traced : data_default;
		n = traced ? ARRAY_SIZE(data_traced) : ARRAY_SIZE(data_default);
	}
	memcpy(cols, src, n * sizeof(*src));
	*ncols = n;
}

unsigned batch_needs(const struct model *m, const int *cols, size_t ncols)
{
	unsigned needs = 0;
	size_t i;

	for (i = 0; i < ncols; i++)
		needs |= columns_needs(m, cols[i]);
	return needs;
}

/*
 * A task's syscalls of the interval, most calls first. Returns how many; *out is
 * malloc'ed (free it) and valid until the model changes.
 */
static size_t task_syscalls(const struct task *t, const struct sc_stat ***out)
{
	*out = xmalloc((t->sc.used ? t->sc.used : 1) * sizeof(**out));
	return sctable_sorted(&t->sc, *out);
}

/*
 * The durations of @t's syscall @s (time_ms, p50_us, p99_us, max_us) into
 * @out, separated by @sep, @none for what is not known: all four when calls
 * are not timed (no sys_enter), the percentiles and max when none of these
 * was. Percentiles are log2 bucket bounds, or the longest call when that is
 * less (lib/lathist.h).
 */
static const char *syscall_times(const struct model *m, const struct task *t,
				 const struct sc_stat *s, const char *sep, const char *none,
				 char *out, size_t n)
{
	const struct lathist *h = sctable_hist(&t->sc, s);
	double p50, p99;

	if (!model_counts_events(m, CNT_SCTIME))
		snprintf(out, n, "%s%s%s%s%s%s%s", none, sep, none, sep, none, sep, none);
	else if (!h || !lathist_quantile_us(h, 0.5, s->max_ns, &p50) ||
		 !lathist_quantile_us(h, 0.99, s->max_ns, &p99))
		snprintf(out, n, "%.3f%s%s%s%s%s%s", (double)s->time_ns / 1e6, sep, none, sep, none,
			 sep, none);
	else	/* a bound above the longest call is the longest: as max_us writes it */
		snprintf(out, n, "%.3f%s%.*f%s%.*f%s%.3f", (double)s->time_ns / 1e6, sep,
			 p50 == floor(p50) ? 0 : 3, p50, sep, p99 == floor(p99) ? 0 : 3, p99, sep,
			 (double)s->max_ns / 1e3);
	return out;
}

/* A writer of one (process, syscall) line of --syscalls output. */
typedef void syscall_line_fn(struct batch *b, const struct model *m, const struct task *t,
			     const char *comm, const struct sc_stat *s);

/* Call @fn for each row's syscalls of the interval, most calls first. */
static void each_syscall(struct batch *b, const struct model *m, syscall_line_fn *fn)
{
	size_t i, k, n;

	for (i = 0; i < b->rows.nrows; i++) {
		const struct task *t = b->rows.rows[i].task;
		const struct sc_stat **v;
		char comm[PROC_COMM_MAX];

		n = task_syscalls(t, &v);
		sanitize_text(comm, sizeof(comm), t->comm, strlen(t->comm), TEXT_UTF8);
		for (k = 0; k < n; k++)
			fn(b, m, t, comm, v[k]);
		free(v);
	}
}

static void text_syscall_line(struct batch *b, const struct model *m, const struct task *t,
			      const char *comm, const struct sc_stat *s)
{
	char name[SYSCALL_LABEL_BUF], err[32], padded[PROC_COMM_MAX * 4], tm[128];
	char *f[4], *save = NULL;
	int i;

	syscall_times(m, t, s, " ", "-", tm, sizeof(tm));
	for (i = 0; i < 4; i++)
		f[i] = strtok_r(i ? NULL : tm, " ", &save);
	fprintf(b->out, "%7d %s %-20s %-15s %9llu %9llu %10s %8s %8s %10s %s\n", (int)t->pid,
		text_pad(padded, sizeof(padded), comm, 15),
		syscall_label(s->nr, name, sizeof(name)), subsystem_name(syscall_subsystem(s->nr)),
		(unsigned long long)s->calls, (unsigned long long)s->errors, f[0], f[1], f[2], f[3],
		s->errors ? errno_name((int)s->top_errno, err, sizeof(err)) : "");
}

static void text_syscalls(struct batch *b, const struct model *m)
{
	fprintf(b->out, "%7s %-15s %-20s %-15s %9s %9s %10s %8s %8s %10s %s\n", "PID", "COMMAND",
		"SYSCALL", "SUBSYSTEM", "CALLS", "ERRORS", "TIME-ms", "P50-us", "P99-us", "MAX-us",
		"LAST-ERRNO");
	each_syscall(b, m, text_syscall_line);
	fputc('\n', b->out);
}

/* A system-wide rate; "-" when no event counts it (the event is missing here). */
static void text_total(struct batch *b, const struct model *m, enum counter c, const char *what)
{
	if (model_counts_events(m, c))
		fprintf(b->out, " %.0f%s", (double)m->ev_total[c] / m->interval_s, what);
	else
		fprintf(b->out, " -%s", what);
}

static void json_total(FILE *f, const struct model *m, enum counter c, const char *key)
{
	if (model_counts_events(m, c))
		fprintf(f, ",\"%s\":%llu", key, (unsigned long long)m->ev_total[c]);
	else
		fprintf(f, ",\"%s\":null", key);
}

/* The header's event line; tracing's status when it is off. */
static void text_events(struct batch *b, const struct model *m)
{
	if (!m->event_counters) {
		if (m->trace_status[0])
			fprintf(b->out, "Events: %s\n", m->trace_status);
		return;
	}
	if (m->interval_s <= 0) {
		fputs("Events/s: - (first interval)\n", b->out);
		return;
	}
	fputs("Events/s:", b->out);
	text_total(b, m, CNT_SYSCALLS, " syscalls,");
	text_total(b, m, CNT_SYSERR, " failed,");
	text_total(b, m, CNT_SIGRECV, " signals");
	if (m->lost_events || m->lost_unknown)
		fprintf(b->out, "; LOST %llu%s events: counts may be short",
			(unsigned long long)m->lost_events, m->lost_unknown ? "+" : "");
	if (m->trace_status[0])
		fprintf(b->out, "; %s", m->trace_status);
	fputc('\n', b->out);
}

/* Dead processes' exit records: lost ones (their rows' numbers are missing), or why none. */
static void text_exits(struct batch *b, const struct model *m)
{
	if (!m->exit_records) {
		if (m->exits_status[0])
			fprintf(b->out, "Exits: %s\n", m->exits_status);
	} else if (m->exits_lost || m->exits_lost_unknown) {
		fprintf(b->out, "Exits: LOST %llu%s exit records: dead processes' numbers may be missing\n",
			(unsigned long long)m->exits_lost, m->exits_lost_unknown ? "+" : "");
	}
}

/* The text header: time, load, tasks, CPU, memory, rates, events; a blank line. */
static void text_header(struct batch *b, const struct model *m)
{
	const struct sys_summary *s = &m->sum;
	char a[32], c[32], d[32];
	time_t now = (time_t)m->wall_s;
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(a, sizeof(a), "%H:%M:%S", &tm);
	fmt_uptime(c, sizeof(c), s->uptime_s);
	fprintf(b->out, "ktop - %s up %s, load average: %.2f, %.2f, %.2f\n", a, c,
		s->load[0], s->load[1], s->load[2]);
	fprintf(b->out, "Tasks: %lu total, %lu running, %lu sleeping, %lu disk, %lu stopped, %lu zombie, %lu idle; %lu exited\n",
		s->tasks, s->running, s->sleeping, s->disk, s->stopped, s->zombie, s->idle, s->exited);
	if (s->have_cpu)
		fprintf(b->out, "CPU: %.1f%% busy, %d CPUs\n", s->cpu_pct, s->ncpu);
	else
		fprintf(b->out, "CPU: - busy, %d CPUs\n", s->ncpu);
	if (s->have_mem) {
		fmt_mem(a, sizeof(a), s->mem_used_kb);
		fmt_mem(c, sizeof(c), s->mem_total_kb);
		fmt_mem(d, sizeof(d), s->mem_avail_kb);
		fprintf(b->out, "Mem: %s used of %s, %s available", a, c, d);
		fmt_mem(a, sizeof(a), s->swap_used_kb);
		fmt_mem(c, sizeof(c), s->swap_total_kb);
		fprintf(b->out, "; Swap: %s used of %s\n", a, c);
	}
	if (s->have_rates)
		fprintf(b->out, "Rates/s: %.0f ctxsw, %.0f intr, %.0f forks, %.0f minflt, %.0f majflt\n",
			s->ctxt, s->intr, s->forks, s->minflt, s->majflt);
	else
		fputs("Rates/s: - (first interval; the rows' CPU% and page faults/s: averages since "
		      "each process started)\n", b->out);
	text_events(b, m);
	text_exits(b, m);
	fputc('\n', b->out);
}

/* Is call @c of the row @t (its process's, or its thread's with -H)? */
static bool call_of(const struct model *m, const struct fcall *c, const struct task *t)
{
	return m->threads ? c->tid == t->pid : c->tgid == t->pid;
}

/*
 * The watched processes' calls in progress for an interval or more, oldest
 * first, after the table: the slow call one looks for (-p). Only when there
 * are some: a quiet process adds no line.
 */
static void text_calls(struct batch *b, const struct model *m)
{
	char text[256], clean[256];
	size_t i;

	if (!m->calls_known || !m->ncalls)
		return;
	fputs("Calls in progress (an interval or more):\n", b->out);
	for (i = 0; i < m->ncalls; i++) {
		fcall_text(&m->calls[i], m->calls_ns, text, sizeof(text));
		sanitize_text(clean, sizeof(clean), text, strlen(text), false);
		fprintf(b->out, "%7d %7d  %s\n", (int)m->calls[i].tgid, (int)m->calls[i].tid, clean);
	}
	fputc('\n', b->out);
}

/* "calls_in_progress": the row's calls in progress, [] when none; only where looked for (-p). */
static void json_calls(FILE *f, const struct model *m, const struct task *t)
{
	char nb[SYSCALL_LABEL_BUF];
	bool first = true;
	size_t i;

	if (!m->calls_known)
		return;
	fputs(",\"calls_in_progress\":[", f);
	for (i = 0; i < m->ncalls; i++) {
		const struct fcall *c = &m->calls[i];
		const char *name;

		if (!call_of(m, c, t))
			continue;
		name = syscall_label(c->nr, nb, sizeof(nb));
		fprintf(f, "%s{\"tid\":%d,\"syscall\":", first ? "" : ",", (int)c->tid);
		batch_json_string(f, name, strlen(name));
		if (c->arg == FA_FD)
			fprintf(f, ",\"fd\":%d", (int)c->arg0);
		else if (c->arg == FA_PID)
			fprintf(f, ",\"pid\":%d", (int)c->arg0);
		else if (c->arg == FA_ADDR)
			fprintf(f, ",\"addr\":\"0x%llx\"", (unsigned long long)c->arg0);
		if (c->target[0]) {
			fputs(",\"target\":", f);
			batch_json_string(f, c->target, strlen(c->target));
		}
		fprintf(f, ",\"age_s\":%.3f,\"at_least\":%s}",
			(double)(m->calls_ns > c->since_ns ? m->calls_ns - c->since_ns : 0) / 1e9,
			c->before ? "true" : "false");
		first = false;
	}
	fputc(']', f);
}

/*
 * The rows of table @t as text, after the header: its titles, its rows as the
 * screen shows them (rates per second), a blank line.
 */
static void table_text(struct batch *b, const struct table *t)
{
	size_t i, n = table_line_size(t);
	char *line = xmalloc(n);

	table_header_line(t, line, n);
	fputs(line, b->out);
	fputc('\n', b->out);
	for (i = 0; i < t->nrows; i++) {
		table_row_line(t, i, line, n);
		fputs(line, b->out);
		fputc('\n', b->out);
	}
	fputc('\n', b->out);
	free(line);
}

void batch_csv_string(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_syscall_line(struct batch *b, const struct model *m, const struct task *t,
			     const char *comm, const struct sc_stat *s)
{
	char name[SYSCALL_LABEL_BUF], err[32], tm[128];

	fprintf(b->out, "%.6f,%.6f,%d,%d,", m->wall_s, m->interval_s, (int)t->pid, (int)t->ppid);
	batch_csv_string(b->out, comm);
	fprintf(b->out, ",%s,%s,%llu,%llu,%s,%s\n", syscall_label(s->nr, name, sizeof(name)),
		subsystem_name(syscall_subsystem(s->nr)), (unsigned long long)s->calls,
		(unsigned long long)s->errors,
		s->errors ? errno_name((int)s->top_errno, err, sizeof(err)) : "",
		syscall_times(m, t, s, ",", "", tm, sizeof(tm)));
}

/* --syscalls --csv: one row per process and syscall with calls in the interval. */
static void csv_syscalls(struct batch *b, const struct model *m)
{
	if (!b->header_done) {
		fputs("time,interval_s,pid,ppid,comm,syscall,subsystem,calls,errors,last_errno,"
		      "time_ms,p50_us,p99_us,max_us\n", b->out);
		b->header_done = true;
	}
	if (m->interval_s > 0)
		each_syscall(b, m, csv_syscall_line);
}

/* A header line (once), then a line per row: raw numbers, empty when not known. */
static void table_csv(struct batch *b, const struct table *t)
{
	const struct model *m = t->m;
	char buf[CMDLINE_TEXT_MAX];
	size_t i, k, dn = t->def->data_max < sizeof(buf) ? t->def->data_max : sizeof(buf);
	const struct tcol *c;
	struct tcol tmp;

	if (!b->header_done) {
		fputs("time,interval_s", b->out);
		for (k = 0; k < t->ncols; k++)
			if ((c = table_shown(t, k, &tmp)))
				fprintf(b->out, ",%s", c->key);
		fputc('\n', b->out);
		b->header_done = true;
	}
	for (i = 0; i < t->nrows; i++) {
		const void *item = t->def->item(t, i);

		fprintf(b->out, "%.6f,", m->wall_s);
		if (m->interval_s > 0)
			fprintf(b->out, "%.6f", m->interval_s);
		for (k = 0; k < t->ncols; k++) {
			if (!(c = table_shown(t, k, &tmp)))
				continue;
			fputc(',', b->out);
			if (c->text)
				batch_csv_string(b->out, t->def->text(t, item, t->cols[k], buf, dn,
								      TEXT_UTF8));
			else if (t->def->raw(t, item, t->cols[k], buf, sizeof(buf)))
				fputs(buf, b->out);
		}
		fputc('\n', b->out);
	}
}

/* JSON string of untrusted bytes: controls escaped, invalid UTF-8 as U+FFFD. */
void batch_json_string(FILE *f, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, len;

	fputc('"', f);
	while (i < n) {
		if (u[i] == '"' || u[i] == '\\') {
			fputc('\\', f);
			fputc(u[i++], f);
		} else if (u[i] < 0x20 || u[i] == 0x7f) {
			fprintf(f, "\\u%04x", u[i++]);
		} else if ((len = utf8_seq_len(u + i, n - i)) > 0) {
			unsigned cp = utf8_cp(u + i, len);

			/* Kept, but visible to whoever reads the JSON as text. */
			if (!cp_invisible(cp))
				fwrite(u + i, 1, len, f);
			else if (cp < 0x10000)
				fprintf(f, "\\u%04x", cp);
			else
				fprintf(f, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10),
					0xdc00 + ((cp - 0x10000) & 0x3ff));
			i += len;
		} else {
			fputs("\\ufffd", f);	/* one per invalid byte */
			i++;
		}
	}
	fputc('"', f);
}

/* The four fields of syscall_times (space-separated) as JSON members. */
static void json_times(FILE *f, char *tm)
{
	static const char *const key[4] = { "time_ms", "p50_us", "p99_us", "max_us" };
	char *save = NULL, *v;
	int i;

	for (i = 0; i < 4 && (v = strtok_r(i ? NULL : tm, " ", &save)); i++)
		fprintf(f, ",\"%s\":%s", key[i], v);
}

static void json_syscalls(FILE *f, const struct model *m, const struct task *t)
{
	const struct sc_stat **v;
	char name[SYSCALL_LABEL_BUF], err[32], tm[128];
	size_t k, n = task_syscalls(t, &v);

	fputs(",\"syscall_list\":[", f);
	for (k = 0; k < n; k++) {
		fprintf(f, "%s{\"syscall\":\"%s\",\"subsystem\":\"%s\",\"calls\":%llu,\"errors\":%llu",
			k ? "," : "", syscall_label(v[k]->nr, name, sizeof(name)),
			subsystem_name(syscall_subsystem(v[k]->nr)),
			(unsigned long long)v[k]->calls, (unsigned long long)v[k]->errors);
		if (v[k]->errors)
			fprintf(f, ",\"last_errno\":\"%s\"",
				errno_name((int)v[k]->top_errno, err, sizeof(err)));
		syscall_times(m, t, v[k], " ", "null", tm, sizeof(tm));
		json_times(f, tm);
		fputc('}', f);
	}
	fputc(']', f);
	free(v);
}

static void json_events(FILE *f, const struct model *m)
{
	if (!m->event_counters) {
		fputs(",\"tracing\":", f);
		batch_json_string(f, m->trace_status, strlen(m->trace_status));
		return;
	}
	if (m->interval_s <= 0) {
		fputs(",\"syscalls\":null,\"syscall_errors\":null,\"signals\":null,\"lost_events\":null",
		      f);
		return;
	}
	json_total(f, m, CNT_SYSCALLS, "syscalls");
	json_total(f, m, CNT_SYSERR, "syscall_errors");
	json_total(f, m, CNT_SIGRECV, "signals");
	fprintf(f, ",\"lost_events\":%llu", (unsigned long long)m->lost_events);
	if (m->lost_unknown)
		fputs(",\"lost_unknown\":true", f);
}

static void json_exits(FILE *f, const struct model *m)
{
	if (!m->exit_records) {
		fputs(",\"exit_records\":", f);
		batch_json_string(f, m->exits_status, strlen(m->exits_status));
		return;
	}
	if (m->interval_s <= 0) {
		fputs(",\"lost_exits\":null", f);
		return;
	}
	fprintf(f, ",\"lost_exits\":%llu", (unsigned long long)m->exits_lost);
	if (m->exits_lost_unknown)
		fputs(",\"lost_exits_unknown\":true", f);
}

/* {"time":...,"interval_s":...,"system":{...}: the start of an interval's object. */
static void json_head(struct batch *b, const struct model *m)
{
	const struct sys_summary *s = &m->sum;

	fprintf(b->out, "{\"time\":%.6f,\"interval_s\":", m->wall_s);
	if (m->interval_s > 0)
		fprintf(b->out, "%.6f", m->interval_s);
	else
		fputs("null", b->out);
	fprintf(b->out, ",\"system\":{\"uptime_s\":%.2f,\"load\":[%.2f,%.2f,%.2f]",
		s->uptime_s, s->load[0], s->load[1], s->load[2]);
	fprintf(b->out, ",\"tasks\":%lu,\"running\":%lu,\"sleeping\":%lu,\"disk\":%lu,"
		"\"stopped\":%lu,\"zombie\":%lu,\"idle\":%lu,\"exited\":%lu,\"ncpu\":%d",
		s->tasks, s->running, s->sleeping, s->disk, s->stopped, s->zombie, s->idle,
		s->exited, s->ncpu);
	if (s->have_cpu)
		fprintf(b->out, ",\"cpu_pct\":%.1f", s->cpu_pct);
	else
		fputs(",\"cpu_pct\":null", b->out);
	if (s->have_mem)
		fprintf(b->out, ",\"mem_total_kb\":%.0f,\"mem_used_kb\":%.0f,\"mem_avail_kb\":%.0f,"
			"\"swap_total_kb\":%.0f,\"swap_used_kb\":%.0f",
			s->mem_total_kb, s->mem_used_kb, s->mem_avail_kb, s->swap_total_kb,
			s->swap_used_kb);
	if (s->have_rates)
		fprintf(b->out, ",\"ctxt\":%llu,\"intr\":%llu,\"forks\":%llu,\"minflt\":%llu,"
			"\"majflt\":%llu",
			(unsigned long long)s->n_ctxt, (unsigned long long)s->n_intr,
			(unsigned long long)s->n_forks, (unsigned long long)s->n_minflt,
			(unsigned long long)s->n_majflt);
	else
		fputs(",\"ctxt\":null,\"intr\":null,\"forks\":null,\"minflt\":null,\"majflt\":null",
		      b->out);
	json_events(b->out, m);
	json_exits(b->out, m);
	fputc('}', b->out);
}

/*
 * The rows of table @t as a JSON array of objects, after the interval's head:
 * raw numbers, null when not known; a process's calls in progress (-p) and,
 * with @syscalls, its syscalls.
 */
static void table_json(struct batch *b, const struct table *t, bool procs, bool syscalls)
{
	char buf[CMDLINE_TEXT_MAX];
	size_t i, k, dn = t->def->data_max < sizeof(buf) ? t->def->data_max : sizeof(buf);
	const struct tcol *c;
	struct tcol tmp;

	fprintf(b->out, ",\"%s\":[", t->def->rows_key);
	for (i = 0; i < t->nrows; i++) {
		const void *item = t->def->item(t, i);
		bool first = true;

		fputs(i ? ",{" : "{", b->out);
		for (k = 0; k < t->ncols; k++) {
			int col = t->cols[k];

			if (!(c = table_shown(t, k, &tmp)))
				continue;
			fprintf(b->out, "%s\"%s\":", first ? "" : ",", c->key);
			first = false;
			if (c->text) {
				char *owned = NULL;
				size_t len = 0;
				const char *s = t->def->json(t, item, col, buf, dn, &len, &owned);

				if (s)
					batch_json_string(b->out, s, len);
				else
					fputs("null", b->out);
				free(owned);
			} else if (t->def->raw(t, item, col, buf, sizeof(buf))) {
				fputs(buf, b->out);
			} else {
				fputs("null", b->out);
			}
		}
		if (procs) {
			const struct task *task = ((const struct row *)item)->task;

			if (syscalls)
				json_syscalls(b->out, t->m, task);
			json_calls(b->out, t->m, task);
		}
		fputc('}', b->out);
	}
	fputs("]}\n", b->out);
}

/*
 * --view: one system-wide table (tables/systable.h). Counts within the
 * interval in CSV and JSON, per second in text, as for the processes; the
 * screen's history graph is not written.
 */
void batch_init_view(struct batch *b, enum view_kind view, enum cgroup_group_by by, int sort,
		     bool asc)
{
	size_t n;

	b->view = view;
	groups_init(&b->groups, by);
	systable_init(&b->av, view == VIEW_PROCESSES ? VIEW_SYSCALLS : view);
	b->nview_cols = systable_written_columns(b->av.kind, b->view_cols);
	systable_columns(b->av.kind, &n);
	if (sort >= 0 && (size_t)sort < n) {
		b->av.sort = sort;
		b->av.dir = asc ? SORT_ASC : SORT_DESC;
	}
}

void batch_free(struct batch *b)
{
	systable_free(&b->av);
	groups_free(&b->groups);
}

/*
 * The interval's table: the processes (b->rows) or a system-wide view
 * (b->av), refreshed from @m; @t gets it.
 */
static void refresh(struct batch *b, const struct model *m, struct table *t)
{
	if (b->view == VIEW_PROCESSES) {
		rowset_refresh(&b->rows, m);
		proc_table(t, m, &b->rows, b->cols, b->ncols);
		return;
	}
	if (b->view == VIEW_GROUPS)
		groups_update(&b->groups, m);
	systable_refresh(&b->av, m, &b->groups);
	systable_table(t, &b->av, b->view_cols, b->nview_cols);
}

/* The Disks view, and why its devices are not known (a recording without them). */
static bool disks_unknown(const struct batch *b, const struct model *m)
{
	return b->view == VIEW_DISKS && !m->disks.known && m->disks.why[0];
}

/* The Connections view of a recording without sockets. */
static bool conns_unknown(const struct batch *b, const struct model *m)
{
	return b->view == VIEW_CONNECTIONS && m->conns_why[0];
}

/*
 * One interval of either kind of table, in one of the three formats; what
 * differs is the table's definition, and the lines around it: the groups'
 * key, the view's name, the processes' syscalls (--syscalls).
 */
int batch_write(struct batch *b, const struct model *m)
{
	bool procs = b->view == VIEW_PROCESSES;
	struct tcol cv[COL_NR > 64 ? COL_NR : 64];
	struct table t;

	refresh(b, m, &t);
	if (t.ncols <= ARRAY_SIZE(cv))
		table_read_cols(&t, cv);
	switch (b->fmt) {
	case OUT_CSV:
		if (procs && b->syscalls)
			csv_syscalls(b, m);
		else
			table_csv(b, &t);
		break;
	case OUT_JSON:
		json_head(b, m);
		if (!procs)
			fprintf(b->out, ",\"view\":\"%s\"", systable_name(b->av.kind));
		if (disks_unknown(b, m)) {
			fputs(",\"disks\":", b->out);
			batch_json_string(b->out, m->disks.why, strlen(m->disks.why));
		}
		if (conns_unknown(b, m)) {
			fputs(",\"connections\":", b->out);
			batch_json_string(b->out, m->conns_why, strlen(m->conns_why));
		}
		if (b->view == VIEW_GROUPS)
			fprintf(b->out, ",\"group_by\":\"%s\"", cgroup_group_by_name(b->groups.by));
		table_json(b, &t, procs, procs && b->syscalls && m->interval_s > 0);
		break;
	default:
		text_header(b, m);
		if (b->view == VIEW_GROUPS)
			fprintf(b->out, "Groups by %s\n", cgroup_group_by_name(b->groups.by));
		if (disks_unknown(b, m))
			fprintf(b->out, "Disks: %s\n", m->disks.why);
		if (conns_unknown(b, m))
			fprintf(b->out, "Connections: %s\n", m->conns_why);
		table_text(b, &t);
		if (procs)
			text_calls(b, m);
		if (procs && b->syscalls && m->interval_s > 0)
			text_syscalls(b, m);
		break;
	}
	if (fflush(b->out) || ferror(b->out))
		return errno ? -errno : -EIO;
	return 0;
}
