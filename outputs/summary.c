// SPDX-License-Identifier: GPL-2.0-only
#include "summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "../lib/scnames.h"
#include "../lib/util.h"

/* One line of either table: a system call, a subsystem, or the total. */
struct line {
	const char *name;
	enum subsystem sub;
	struct sc_stat s;	/* a syscall's, or the sum of several */
	struct lathist h;	/* the durations of its timed calls (lib/lathist.h) */
};

/*
 * Its median and 99th percentile, log2 bucket bounds in microseconds; false
 * when none of its calls was timed.
 */
/* A bucket's bound is whole; the longest call, when less, is written as max_us is. */
static int pct_decimals(double p)
{
	return p == floor(p) ? 0 : 3;
}

static bool pcts(const struct line *l, double *p50, double *p99)
{
	return lathist_quantile_us(&l->h, 0.5, l->s.max_ns, p50) &&
	       lathist_quantile_us(&l->h, 0.99, l->s.max_ns, p99);
}

/* Add @s, an entry of @t, to line @l. */
static void line_add(struct line *l, const struct sctable *t, const struct sc_stat *s)
{
	const struct lathist *h = sctable_hist(t, s);

	sctable_stat_add(&l->s, s);
	if (h)
		lathist_add(&l->h, h);
}

/* Average over the calls that have a time; false when none has. */
static bool avg_ns(const struct line *l, double *out)
{
	if (!l->s.timed)
		return false;
	*out = (double)l->s.time_ns / (double)l->s.timed;
	return true;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

struct order {
	enum summary_sort key;
	bool asc;
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_line(const void *pa, const void *pb, void *arg)
{
	const struct line *a = pa, *b = pb;
	const struct order *o = arg;
	double x = 0, y = 0;
	int r = 0;

	switch (o->key) {
	case SUM_TIME:
		r = cmp_u64(a->s.time_ns, b->s.time_ns);
		break;
	case SUM_CALLS:
		r = cmp_u64(a->s.calls, b->s.calls);
		break;
	case SUM_ERRORS:
		r = cmp_u64(a->s.errors, b->s.errors);
		break;
	case SUM_AVG:
		/* A line without a time sorts as the smallest. */
		r = (avg_ns(a, &x) ? 1 : 0) - (avg_ns(b, &y) ? 1 : 0);
		if (!r)
			r = x < y ? -1 : x > y;
		break;
	case SUM_MAX:
		r = cmp_u64(a->s.max_ns, b->s.max_ns);
		break;
	case SUM_NAME:
		r = strcmp(a->name, b->name);
		break;
	}
	if (!o->asc)
		r = -r;
	/* Ties: most calls first, then by name: the same input, the same order. */
	if (!r)
		r = -cmp_u64(a->s.calls, b->s.calls);
	if (!r)
		r = strcmp(a->name, b->name);
	return r;
}

struct tables {
	struct line *sc;		/* one per syscall */
	size_t nsc;
	struct line sub[SUB_NR];	/* one per subsystem, SUB_NR order until sorted */
	size_t nsub;
	struct line total;
	char (*names)[SYSCALL_LABEL_BUF];	/* storage of the syscalls' labels */
};

static void build(const struct sctable *t, const struct summary_info *si, struct tables *tb)
{
	struct order o = { si->sort, si->asc };
	struct order by_time = { SUM_TIME, false };
	uint32_t i;
	size_t k;

	memset(tb, 0, sizeof(*tb));
	tb->sc = xcalloc(t->used ? t->used : 1, sizeof(*tb->sc));
	tb->names = xcalloc(t->used ? t->used : 1, sizeof(*tb->names));
	for (k = 0; k < SUB_NR; k++) {
		tb->sub[k].sub = (enum subsystem)k;
		tb->sub[k].name = subsystem_name((enum subsystem)k);
	}
	tb->total.name = "total";
	for (i = 0; i < t->cap; i++) {
		const struct sc_stat *s = &t->slots[i];
		struct line *l;

		if (s->nr == SC_EMPTY || !s->calls)
			continue;
		l = &tb->sc[tb->nsc];
		line_add(l, t, s);
		l->s.nr = s->nr;
		/* With its ABI when not native: one name, one line. */
		l->name = syscall_label(s->nr, tb->names[tb->nsc], sizeof(tb->names[0]));
		l->sub = syscall_subsystem(s->nr);
		tb->nsc++;
		line_add(&tb->sub[l->sub], t, s);
		line_add(&tb->total, t, s);
	}
	sort_array_r(tb->sc, tb->nsc, sizeof(*tb->sc), cmp_line, &o);
	/* Subsystems: only those used, most time first. */
	for (k = 0; k < SUB_NR; k++)
		if (tb->sub[k].s.calls)
			tb->sub[tb->nsub++] = tb->sub[k];
	sort_array_r(tb->sub, tb->nsub, sizeof(*tb->sub), cmp_line, &by_time);
}

static void tables_free(struct tables *tb)
{
	free(tb->sc);
	free(tb->names);
}

/* ---------------------------------------------------------------- text */

static void text_dashes(FILE *f)
{
	fputs("------ ----------- ----------- ----------- --------- --------- --------- --------- "
	      "---------------------- ------------\n", f);
}

/*
 * usecs/call and max usecs as strace shows usecs: whole microseconds; then
 * p50 and p99, the upper bounds of their log2 buckets, or the longest call
 * (whole microseconds as max usecs, never above it).
 */
static void text_times(FILE *f, const struct line *l)
{
	double a, p50, p99;

	if (avg_ns(l, &a))
		fprintf(f, " %11llu %11llu", (unsigned long long)(a / 1000),
			(unsigned long long)(l->s.max_ns / 1000));
	else
		fprintf(f, " %11s %11s", "-", "-");
	if (pcts(l, &p50, &p99))
		fprintf(f, " %9.0f %9.0f", floor(p50), floor(p99));
	else
		fprintf(f, " %9s %9s", "-", "-");
}

static void text_errors(FILE *f, uint64_t errors)
{
	if (errors)
		fprintf(f, " %9llu", (unsigned long long)errors);
	else
		fprintf(f, " %9s", "");
}

/*
 * The table of the calls of one ABI, as strace -c -f shows each personality
 * apart: the native one's first, without a heading (and even when empty, if
 * no other has calls), then "System call usage summary for 32 bit mode:".
 * Returns whether it wrote one.
 */
static bool text_syscalls(FILE *f, const struct tables *tb, enum sc_abi abi, bool any_other,
			  bool sep)
{
	struct line total = { .name = "total" };
	char nb[SYSCALL_NAME_BUF];
	size_t i;

	for (i = 0; i < tb->nsc; i++) {
		if (sc_key_abi(tb->sc[i].s.nr) != abi)
			continue;
		sctable_stat_add(&total.s, &tb->sc[i].s);
		lathist_add(&total.h, &tb->sc[i].h);
	}
	if (!total.s.calls && (abi != SC_ABI_NATIVE || any_other))
		return false;
	if (sep)
		fputc('\n', f);
	if (abi == SC_ABI_COMPAT)
		fputs("System call usage summary for 32 bit mode:\n", f);
	else if (abi == SC_ABI_X32)
		fputs("System call usage summary for x32 mode:\n", f);
	fprintf(f, "%6s %11s %11s %11s %9s %9s %9s %9s %-22s %s\n", "% time", "seconds", "usecs/call",
		"max usecs", "p50 <=us", "p99 <=us", "calls", "errors", "syscall", "subsystem");
	text_dashes(f);
	for (i = 0; i < tb->nsc; i++) {
		const struct line *l = &tb->sc[i];

		if (sc_key_abi(l->s.nr) != abi)
			continue;
		fprintf(f, "%6.2f %11.6f", pct(l->s.time_ns, total.s.time_ns), (double)l->s.time_ns / 1e9);
		text_times(f, l);
		fprintf(f, " %9llu", (unsigned long long)l->s.calls);
		text_errors(f, l->s.errors);
		fprintf(f, " %-22s %s\n", syscall_name(l->s.nr, nb, sizeof(nb)), subsystem_name(l->sub));
	}
	text_dashes(f);
	fprintf(f, "%6.2f %11.6f", total.s.calls ? 100.0 : 0.0, (double)total.s.time_ns / 1e9);
	text_times(f, &total);
	fprintf(f, " %9llu", (unsigned long long)total.s.calls);
	text_errors(f, total.s.errors);
	fputs(" total\n", f);
	return true;
}

static void text_subsystems(FILE *f, const struct tables *tb)
{
	size_t i;

	fprintf(f, "%-15s %9s %9s %11s %7s %7s\n", "subsystem", "calls", "errors", "seconds",
		"% time", "% calls");
	fputs("--------------- --------- --------- ----------- ------- -------\n", f);
	for (i = 0; i < tb->nsub; i++) {
		const struct line *l = &tb->sub[i];

		fprintf(f, "%-15s %9llu", l->name, (unsigned long long)l->s.calls);
		text_errors(f, l->s.errors);
		fprintf(f, " %11.6f %7.2f %7.2f\n", (double)l->s.time_ns / 1e9,
			pct(l->s.time_ns, tb->total.s.time_ns), pct(l->s.calls, tb->total.s.calls));
	}
}

static void text_command(FILE *f, char *const *cmd)
{
	size_t i;

	for (i = 0; cmd[i]; i++) {
		char buf[256];

		sanitize_text(buf, sizeof(buf), cmd[i], strlen(cmd[i]), true);
		fprintf(f, "%s%s", i ? " " : "", buf);
	}
}

void summary_write_priv(FILE *f, const struct summary_info *si)
{
	char name[64];
	size_t i;

	for (i = 0; i < si->npriv; i++) {
		const struct summary_priv *p = &si->priv[i];

		sanitize_text(name, sizeof(name), p->comm, strnlen(p->comm, sizeof(p->comm)), true);
		fprintf(f, "ktop: pid %d (%s) gained privileges: its calls are not counted from the "
			"refresh before that exec on\n", (int)p->pid, name);
	}
}

/*
 * Why calls have no time, counted by reason: exit and exit_group never
 * return; any other had its exit seen without its entry (begun before
 * tracing, or its entry lost). The reasons are not guessed: each is a count.
 */
/* exit or exit_group, of any ABI ("exit_group (32-bit)"). */
static bool never_returns(const char *name)
{
	size_t n = strcspn(name, " ");

	return (n == 4 && !strncmp(name, "exit", 4)) || (n == 10 && !strncmp(name, "exit_group", 10));
}

static void write_untimed(FILE *f, const struct tables *tb, const struct summary_info *si)
{
	uint64_t n = tb->total.s.calls - tb->total.s.timed, noret = 0, other;
	size_t i;

	if (!n)
		return;
	fprintf(f, "(%llu call%s without a time: ", (unsigned long long)n, n == 1 ? "" : "s");
	if (si->untimed) {
		fprintf(f, "%s)\n", si->untimed);
		return;
	}
	for (i = 0; i < tb->nsc; i++)
		if (never_returns(tb->sc[i].name))
			noret += tb->sc[i].s.calls - tb->sc[i].s.timed;
	other = n - noret;
	if (noret)
		fprintf(f, "%llu exit/exit_group, which never return%s", (unsigned long long)noret,
			other ? "; " : "");
	if (other)
		fprintf(f, "%llu whose entry was not seen: begun before tracing%s",
			(unsigned long long)other, si->lost || si->lost_unknown ? ", or lost" : "");
	fputs(")\n", f);
}

static void write_text(FILE *f, const struct tables *tb, const struct summary_info *si)
{
	bool other, sep;
	size_t i;
	int abi;

	if (si->cmd) {
		fputs("ktop: ", f);
		text_command(f, si->cmd);
		fprintf(f, ": %s", si->ended ? si->ended : "still running");
	} else {
		fputs("ktop: pid", f);
		for (i = 0; i < si->npids; i++)
			fprintf(f, "%s%d", i ? "," : " ", (int)si->pids[i]);
	}
	fprintf(f, "; %.3f s watched, %zu process%s; call times are wall-clock (entry to exit, "
		"as strace -c -w)\n", si->elapsed_s, si->nprocs, si->nprocs == 1 ? "" : "es");
	for (i = 0; i < si->nexited; i++)
		fprintf(f, "ktop: pid %d exited while watched\n", (int)si->exited[i]);
	summary_write_priv(f, si);
	if (si->lost || si->lost_unknown)
		fprintf(f, "ktop: LOST %llu%s events: the counts may be short\n",
			(unsigned long long)si->lost, si->lost_unknown ? "+" : "");
	other = false;
	for (i = 0; i < tb->nsc; i++)
		other |= sc_key_abi(tb->sc[i].s.nr) != SC_ABI_NATIVE;
	sep = text_syscalls(f, tb, SC_ABI_NATIVE, other, false);
	for (abi = SC_ABI_X32; abi < SC_ABI_NR; abi++)
		sep |= text_syscalls(f, tb, (enum sc_abi)abi, other, sep);
	write_untimed(f, tb, si);
	fputc('\n', f);
	text_subsystems(f, tb);
}

/* ---------------------------------------------------------------- CSV */

static void csv_line(FILE *f, const char *kind, const struct line *l, const struct tables *tb,
		     const char *syscall, const char *sub)
{
	char err[ERRNO_NAME_BUF];
	double a, p50, p99;

	fprintf(f, "%s,%s,%s,%llu,%llu,%llu,%.3f,", kind, syscall, sub,
		(unsigned long long)l->s.calls, (unsigned long long)l->s.errors,
		(unsigned long long)l->s.timed, (double)l->s.time_ns / 1e3);
	if (avg_ns(l, &a))
		fprintf(f, "%.3f,%.3f", a / 1e3, (double)l->s.max_ns / 1e3);
	else
		fputc(',', f);
	if (pcts(l, &p50, &p99))
		fprintf(f, ",%.*f,%.*f", pct_decimals(p50), p50, pct_decimals(p99), p99);
	else
		fputs(",,", f);
	fprintf(f, ",%.2f,%.2f,%s\n", pct(l->s.time_ns, tb->total.s.time_ns),
		pct(l->s.calls, tb->total.s.calls),
		syscall[0] && l->s.top_errno ? errno_name((int)l->s.top_errno, err, sizeof(err)) : "");
}

static void write_csv(FILE *f, const struct tables *tb)
{
	size_t i;

	fputs("kind,syscall,subsystem,calls,errors,timed,total_us,avg_us,max_us,p50_us,p99_us,"
	      "pct_time,pct_calls,last_errno\n", f);
	for (i = 0; i < tb->nsc; i++)
		csv_line(f, "syscall", &tb->sc[i], tb, tb->sc[i].name, subsystem_name(tb->sc[i].sub));
	csv_line(f, "total", &tb->total, tb, "", "");
	for (i = 0; i < tb->nsub; i++)
		csv_line(f, "subsystem", &tb->sub[i], tb, "", tb->sub[i].name);
}

/* ---------------------------------------------------------------- JSON */

static void json_line(FILE *f, const struct line *l, const struct tables *tb, bool syscall)
{
	char err[ERRNO_NAME_BUF];
	double a, p50, p99;

	fputc('{', f);
	if (syscall)
		fprintf(f, "\"syscall\":\"%s\",", l->name);
	if (l != &tb->total)
		fprintf(f, "\"subsystem\":\"%s\",", subsystem_name(l->sub));
	fprintf(f, "\"calls\":%llu,\"errors\":%llu,\"timed\":%llu,\"total_us\":%.3f,",
		(unsigned long long)l->s.calls, (unsigned long long)l->s.errors,
		(unsigned long long)l->s.timed, (double)l->s.time_ns / 1e3);
	if (avg_ns(l, &a))
		fprintf(f, "\"avg_us\":%.3f,\"max_us\":%.3f", a / 1e3, (double)l->s.max_ns / 1e3);
	else
		fputs("\"avg_us\":null,\"max_us\":null", f);
	if (pcts(l, &p50, &p99))
		fprintf(f, ",\"p50_us\":%.*f,\"p99_us\":%.*f", pct_decimals(p50), p50, pct_decimals(p99),
			p99);
	else
		fputs(",\"p50_us\":null,\"p99_us\":null", f);
	fprintf(f, ",\"pct_time\":%.2f,\"pct_calls\":%.2f", pct(l->s.time_ns, tb->total.s.time_ns),
		pct(l->s.calls, tb->total.s.calls));
	if (syscall && l->s.top_errno)
		fprintf(f, ",\"last_errno\":\"%s\"", errno_name((int)l->s.top_errno, err, sizeof(err)));
	fputc('}', f);
}

static void json_pids(FILE *f, const char *key, const pid_t *p, size_t n)
{
	size_t i;

	fprintf(f, ",\"%s\":[", key);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", (int)p[i]);
	fputc(']', f);
}

static void write_json(FILE *f, const struct tables *tb, const struct summary_info *si)
{
	size_t i;

	fputc('{', f);
	if (si->cmd) {
		fputs("\"command\":[", f);
		for (i = 0; si->cmd[i]; i++) {
			if (i)
				fputc(',', f);
			batch_json_string(f, si->cmd[i], strlen(si->cmd[i]));
		}
		fputc(']', f);
		if (si->ended)
			fprintf(f, ",\"ended\":\"%s\",\"exit_status\":%d", si->ended, si->exit_code);
		else
			fputs(",\"ended\":null,\"exit_status\":null", f);
	} else {
		fputs("\"command\":null", f);
		json_pids(f, "pids", si->pids, si->npids);
		json_pids(f, "exited", si->exited, si->nexited);
	}
	fputs(",\"privileged\":[", f);
	for (i = 0; i < si->npriv; i++)
		fprintf(f, "%s%d", i ? "," : "", (int)si->priv[i].pid);
	fputc(']', f);
	fprintf(f, ",\"elapsed_s\":%.3f,\"processes\":%zu,\"lost_events\":%llu", si->elapsed_s,
		si->nprocs, (unsigned long long)si->lost);
	if (si->lost_unknown)
		fputs(",\"lost_unknown\":true", f);
	fputs(",\"syscalls\":[", f);
	for (i = 0; i < tb->nsc; i++) {
		if (i)
			fputc(',', f);
		json_line(f, &tb->sc[i], tb, true);
	}
	fputs("],\"total\":", f);
	json_line(f, &tb->total, tb, false);
	fputs(",\"subsystems\":[", f);
	for (i = 0; i < tb->nsub; i++) {
		if (i)
			fputc(',', f);
		json_line(f, &tb->sub[i], tb, false);
	}
	fputs("]}\n", f);
}

int summary_write(FILE *f, const struct sctable *t, const struct summary_info *si)
{
	struct tables tb;

	build(t, si, &tb);
	switch (si->fmt) {
	case OUT_CSV:
		write_csv(f, &tb);
		break;
	case OUT_JSON:
		write_json(f, &tb, si);
		break;
	default:
		write_text(f, &tb, si);
		break;
	}
	tables_free(&tb);
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
