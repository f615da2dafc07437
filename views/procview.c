// SPDX-License-Identifier: GPL-2.0-only
/*
 * The process view: one focused process's identity, its rates with their
 * history, its connections of the interval (the model's sockets), its
 * per-syscall table and subsystem shares, and its signals. Drawn from the
 * model's fproc (model/fproc.h) and its sockets alone.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"
#include "../tables/columns.h"
#include "../tables/conntable.h"
#include "../tables/kevtext.h"
#include "../model/fproc.h"
#include "../lib/scnames.h"
#include "../lib/signames.h"
#include "../lib/util.h"

static const char *const rate_label[FR_NR] = {
	[FR_SYSCALLS] = "syscalls", [FR_SYSERR] = "failed", [FR_MINFLT] = "minflt",
	[FR_MAJFLT] = "majflt", [FR_VCSW] = "vcsw", [FR_IVCSW] = "ivcsw",
	[FR_SIGNALS] = "signals", [FR_ONCPU] = "on cpu %", [FR_RUNQ] = "runq %",
	[FR_SLEEP] = "sleep %", [FR_BLOCKED] = "blocked %",
};

/* Eight heights: UTF-8 blocks, or ASCII where the locale is not UTF-8. */
static const char *const blocks_utf8[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
					    "\u2585", "\u2586", "\u2587", "\u2588" };
static const char blocks_ascii[8] = { '_', '.', ',', ':', '-', '=', '+', '#' };

static void sparkline(const struct app *a, const struct fproc *fp, enum fp_rate r, int y, int x,
		      int w)
{
	double v, max = 0;
	int i, n = w;

	if ((size_t)n > fp->hist_n)
		n = (int)fp->hist_n;
	for (i = 0; i < n; i++)
		if (fproc_hist(fp, r, (size_t)i, &v) && v > max)
			max = v;
	/*
	 * A state's share on a fixed scale, one thread's whole interval at
	 * least: a quiet process's small shares do not redraw the row each
	 * time they move (they would, scaled to their own maximum).
	 */
	if (r >= FR_ONCPU && max < 1e9)
		max = 1e9;
	/* Oldest left, newest right, right-aligned in the space. */
	for (i = 0; i < n; i++) {
		int col = x + w - 1 - i, lvl;

		/* A state's share under 1/16 of the scale: blank, like 0 (the NOW column has it). */
		if (!fproc_hist(fp, r, (size_t)i, &v) || v <= 0 || (r >= FR_ONCPU && v < max / 16)) {
			attrset(theme_attr(EL_NORMAL));
			mvaddch(y, col, ' ');
			continue;
		}
		lvl = max > 0 ? (int)(v / max * 7.999) : 0;
		if (lvl < 0)
			lvl = 0;
		if (lvl > 7)
			lvl = 7;
		/* The top quarter of the scale stands out (graph-high). */
		attrset(theme_attr(lvl >= 6 ? EL_GRAPH_HIGH : EL_GRAPH));
		if (a->utf8)
			mvaddstr(y, col, blocks_utf8[lvl]);
		else
			mvaddch(y, col, (chtype)blocks_ascii[lvl]);
	}
}

/*
 * The table's last row of this process, when Enter opened it exited
 * (views/tableview.c): no number of its own comes after it.
 */
static const struct pv_last_row *last_row(const struct app *a, const struct fproc *fp)
{
	return a->pv_last.pid == fp->pid ? &a->pv_last : NULL;
}

static void draw_identity(struct app *a, const struct fproc *fp, int y, int w)
{
	char line[512], cmd[256], comm[64], user[64];
	const struct pv_last_row *last = last_row(a, fp);

	if (last && !fp->have_identity) {	/* the row's name and command: the process is gone */
		snprintf(comm, sizeof(comm), "%s", last->comm);
		snprintf(line, sizeof(line), "Process %d  %s  (exited before the view opened: its last "
			 "row below, as the table showed it)", (int)fp->pid, comm);
		attrset(theme_attr(EL_TITLE));
		put_line(y, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
		put_line(y + 1, 0, w, "not read from /proc: it was gone");
		snprintf(line, sizeof(line), "command: %s", last->command);
		put_line(y + 2, 0, w, line);
		return;
	}
	view_clean(a, comm, sizeof(comm), fp->comm);
	attrset(theme_attr(EL_TITLE));
	snprintf(line, sizeof(line), "Process %d  %s%s", (int)fp->pid, comm,
		 fp->exited ? "  (exited: the numbers below are its last)" : "");
	put_line(y, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	if (fp->have_identity) {
		snprintf(line, sizeof(line), "ppid %d  pgid %d  sid %d  user %s  threads %llu  state %c",
			 (int)fp->ppid, (int)fp->pgid, (int)fp->sid,
			 fp->user ? view_clean(a, user, sizeof(user), fp->user) : "?",
			 (unsigned long long)fp->threads, fp->state ? fp->state : '?');
	} else {
		snprintf(line, sizeof(line), "not read from /proc yet");
	}
	put_line(y + 1, 0, w, line);
	if (fp->cmdline)
		sanitize_text(cmd, sizeof(cmd), fp->cmdline, fp->cmdline_len, a->utf8);
	else
		snprintf(cmd, sizeof(cmd), "[%s]", comm);
	snprintf(line, sizeof(line), "command: %s", cmd);
	put_line(y + 2, 0, w, line);
}

/*
 * What limits its CPU (collectors/cgroup/cgcpu.h): the cgroup, its limit, how much
 * of the interval it was throttled, its cpu pressure. Throttled, its runq %
 * is that wait, not a busy CPU. Nothing when no limit applies or not known.
 */
static int draw_cpu_limit(struct app *a, const struct fproc *fp, int y, int w)
{
	const struct model *m = a->model;
	const struct task *t = model_task_find(m, fp->pid);
	const struct cgres *r;
	char line[512], name[CGROUP_KEY_MAX * 4], raw[CGROUP_KEY_MAX], dir[CGROUP_PATH_MAX];
	char thr[96], psi[48];
	const char *path;
	double lim, pct, us, n, some;

	if (!t || !columns_cpu_limit(m, t, &r) || !r || !cgres_num(r, CGF_CPU_LIMIT, &lim))
		return 0;
	path = r->dir + strlen(CGRES_CPU_KEY);
	/* Its container's own cgroup: named as the Groups view names it. */
	if (t->cgroup && cgname_group_dir(CGROUP_BY_CONTAINER, t->cgroup, dir, sizeof(dir)) &&
	    !strcmp(dir, path)) {
		cgname_group_key(CGROUP_BY_CONTAINER, NULL, NULL, t->cgroup,
				 cgnames_get(&m->names, t->cgroup), raw, sizeof(raw));
		view_clean(a, name, sizeof(name), raw);
		snprintf(line, sizeof(line), "container %.200s", name);
	} else {
		view_clean(a, name, sizeof(name), path);
		snprintf(line, sizeof(line), "cgroup %.200s", name);
	}
	snprintf(name, sizeof(name), "%s", line);
	if (cgres_num(r, CGF_THROTTLED_PCT, &pct) && cgres_num(r, CGF_THROTTLED_US, &us) &&
	    cgres_num(r, CGF_THROTTLED, &n))
		snprintf(thr, sizeof(thr), "throttled %.0f%% of the interval (%.0f ms, %.0f periods)",
			 pct, us / 1e3, n);
	else
		snprintf(thr, sizeof(thr), "throttled: - (one reading yet)");
	if (cgres_num(r, CGF_CPU_SOME, &some))
		snprintf(psi, sizeof(psi), "PSI cpu some %.1f%%", some);
	else
		snprintf(psi, sizeof(psi), "%s", r->cur.have & CGR_PSI_SOME(CG_PSI_CPU) ?
			 "PSI cpu -" : "no cpu.pressure (cgroup v1)");
	snprintf(line, sizeof(line), "CPU limit %.0f%% of a CPU, %.220s: %s; %s", lim, name, thr, psi);
	attrset(theme_attr(cgres_num(r, CGF_THROTTLED_PCT, &pct) && pct > 0 ? EL_LOST : EL_NORMAL));
	put_line(y, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	return 1;
}

static int draw_rates(struct app *a, const struct fproc *fp, int y, int w)
{
	char line[128], num[16];
	int r, graph_x = 22, graph_w = w - graph_x - 1;
	double v;

	attrset(theme_attr(EL_TABLE_HEADER));
	snprintf(line, sizeof(line), "%-10s %9s  history, newest right (%zu of %d ticks, %.3g s each)",
		 "RATE", "NOW/s", fp->hist_n, FPROC_HIST,
		 /* A recording's ticks are its own interval, not the delay asked for. */
		 a->replay && a->model->interval_s > 0 ? a->model->interval_s : a->delay_s);
	put_line(y, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	for (r = 0; r < FR_NR; r++) {
		/*
		 * The state split: ns per s, as a share (100 = one thread all the
		 * time), in whole percent: tenths would redraw a quiet one each time.
		 */
		if (fproc_hist(fp, r, 0, &v) && r >= FR_ONCPU)
			snprintf(num, sizeof(num), "%.0f", v / 1e7);
		else if (fproc_hist(fp, r, 0, &v))
			fmt_rate(num, sizeof(num), v);
		else
			snprintf(num, sizeof(num), "-");
		snprintf(line, sizeof(line), "%-10s %9s", rate_label[r], num);
		put_line(y + 1 + r, 0, w, line);
		if (graph_w > 4) {
			sparkline(a, fp, r, y + 1 + r, graph_x, graph_w);
			attrset(theme_attr(EL_NORMAL));
		}
	}
	return 1 + FR_NR;
}

/* The thread of a call in progress, for its name. */
static const struct fthread *thread_named(const struct fproc *fp, pid_t tid)
{
	size_t i;

	for (i = 0; i < fp->nthr; i++)
		if (fp->thr[i].tid == tid)
			return &fp->thr[i];
	return NULL;
}

/* Calls in progress for an interval or more, oldest first: the slow call one looks for. */
static int draw_calls(struct app *a, const struct fproc *fp, int y, int h, int w)
{
	char line[256], text[192], clean[192], comm[64];
	size_t i;
	int r = 0;

	for (i = 0; i < fp->ncalls && r < h; i++, r++) {
		const struct fthread *th = thread_named(fp, fp->calls[i].tid);

		/* The last line says how many did not fit. */
		if (r == h - 1 && i + 1 < fp->ncalls) {
			snprintf(line, sizeof(line), "in progress: %zu more calls", fp->ncalls - i);
			attrset(theme_attr(EL_MESSAGE));
			put_line(y + r++, 0, w, line);
			break;
		}
		fcall_text(&fp->calls[i], fp->calls_ns, text, sizeof(text));
		sanitize_text(clean, sizeof(clean), text, strlen(text), a->utf8);
		snprintf(line, sizeof(line), "in progress: %s  (thread %d %s)", clean,
			 (int)fp->calls[i].tid,
			 th && th->comm[0] ? view_clean(a, comm, sizeof(comm), th->comm) : "");
		attrset(theme_attr(EL_MESSAGE));
		put_line(y + r, 0, w, line);
	}
	attrset(theme_attr(EL_NORMAL));
	return r;
}

static const char state_letter[FS_NR] = { [FS_ONCPU] = 'R', [FS_RUNQ] = 'Q', [FS_SLEEP] = 'S',
					  [FS_BLOCKED] = 'D' };

/* The state thread @th spent most of the tick @back ago in; -1 unknown. */
static int dominant(const struct fproc *fp, const struct fthread *th, size_t back)
{
	double v, best = 0;
	int s, st = -1;

	for (s = 0; s < FS_NR; s++)
		if (fproc_thread_hist(fp, th, s, back, &v) && (st < 0 || v > best)) {
			best = v;
			st = s;
		}
	return st;
}

/* What a thread is worth looking at first: its time not asleep, the last tick. */
static double busy(const struct fproc *fp, const struct fthread *th)
{
	double v, sum = 0;
	int s;

	for (s = 0; s < FS_NR; s++)
		if (s != FS_SLEEP && fproc_thread_hist(fp, th, s, 0, &v))
			sum += v;
	return sum;
}

#define PV_MAX_THR FPROC_THREADS

static int draw_threads(struct app *a, const struct fproc *fp, int y, int h, int w)
{
	static const struct fthread *rows[PV_MAX_THR];
	char line[256], num[FS_NR][16], comm[64];
	int r, hist_x = 48, hist_w = w - hist_x - 1;
	size_t n = 0, i, j;

	attrset(theme_attr(EL_TABLE_HEADER));
	snprintf(line, sizeof(line), "%7s %-15s %5s %5s %6s %6s  %s", "TID", "THREAD", "CPU%",
		 "RUNQ%", "SLEEP%", "BLOCK%",
		 hist_w >= 40 ? "each tick, newest right: R cpu Q runq S sleep D blocked" : "");
	put_line(y, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	if (fp->threads_why[0] || !fp->nthr) {
		if (h < 2)
			return 1;
		attrset(theme_attr(EL_RATE_ZERO));
		snprintf(line, sizeof(line), " threads: %s", fp->threads_why[0] ? fp->threads_why :
			 a->replay ? "not in a recording" : "none known yet");
		put_line(y + 1, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
		return 2;
	}
	/* Busiest first (on CPU, waiting for one, blocked), then by TID: insertion, few rows. */
	for (i = 0; i < fp->nthr && n < PV_MAX_THR; i++) {
		const struct fthread *t = &fp->thr[i];
		double bt = busy(fp, t);

		for (j = n; j > 0 && (busy(fp, rows[j - 1]) < bt ||
				      (busy(fp, rows[j - 1]) == bt && rows[j - 1]->tid > t->tid)); j--)
			rows[j] = rows[j - 1];
		rows[j] = t;
		n++;
	}
	for (r = 1, i = 0; r < h && i < n; r++, i++) {
		const struct fthread *t = rows[i];
		int s, k;
		double v;

		/* The last line says how many did not fit. */
		if (r == h - 1 && i + 1 < n) {
			attrset(theme_attr(EL_RATE_ZERO));
			snprintf(line, sizeof(line), "%7s %zu more threads", "", n - i + fp->threads_over);
			put_line(y + r++, 0, w, line);
			attrset(theme_attr(EL_NORMAL));
			break;
		}
		for (s = 0; s < FS_NR; s++) {
			if (fproc_thread_hist(fp, t, s, 0, &v))
				snprintf(num[s], sizeof(num[s]), "%.0f", v / 1e7);
			else
				snprintf(num[s], sizeof(num[s]), "-");
		}
		snprintf(line, sizeof(line), "%7d %-15.15s %5s %5s %6s %6s", (int)t->tid,
			 t->exited ? "(exited)" : view_clean(a, comm, sizeof(comm), t->comm),
			 num[FS_ONCPU], num[FS_RUNQ], num[FS_SLEEP], num[FS_BLOCKED]);
		put_line(y + r, 0, w, line);
		/* Its history: the state of most of each tick, oldest left, newest right. */
		for (k = 0; hist_w > 4 && k < hist_w && (size_t)k < fp->hist_n; k++) {
			int st = dominant(fp, t, (size_t)k), col = hist_x + hist_w - 1 - k;

			if (st < 0) {
				attrset(theme_attr(EL_NORMAL));
				mvaddch(y + r, col, ' ');
				continue;
			}
			attrset(theme_attr(st == FS_ONCPU ? EL_GRAPH_HIGH : st == FS_SLEEP ?
					   EL_RATE_ZERO : st == FS_BLOCKED ? EL_LOST : EL_GRAPH));
			mvaddch(y + r, col, (chtype)state_letter[st]);
		}
		attrset(theme_attr(EL_NORMAL));
	}
	return r;
}

/*
 * The syscalls sorted by calls since focused; @out holds sc_total.used. Calls
 * and errors are the counting path's (exact); times are of the calls the
 * focus instance kept, marked partial ('~') when it lost some.
 */
static size_t sorted_syscalls(const struct fproc *fp, const struct sc_stat **out, size_t max)
{
	if (fp->sc_total.used > max)
		return 0;
	return sctable_sorted(&fp->sc_total, out);
}

#define PV_MAX_SC 512

static int draw_syscalls(struct app *a, const struct fproc *fp, int y, int h, int w)
{
	static const struct sc_stat *rows[PV_MAX_SC];
	char line[256], nb[SYSCALL_LABEL_BUF], eb[ERRNO_NAME_BUF], rate[16], avg[16], max[16];
	size_t n = sorted_syscalls(fp, rows, PV_MAX_SC), i, top;
	int r;

	bool partial = fp->lost || fp->lost_unknown;

	attrset(theme_attr(EL_TABLE_HEADER));
	snprintf(line, sizeof(line), "%-18s %-13s %8s %9s %8s %-12s %10s %10s", "SYSCALL",
		 "SUBSYSTEM", "CALLS/s", "CALLS", "ERRORS", "TOP ERRNO", partial ? "~AVG" : "AVG",
		 partial ? "~MAX" : "MAX");
	put_line(y, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	if (!n) {
		attrset(theme_attr(EL_RATE_ZERO));
		snprintf(line, sizeof(line), " %s", a->model->focus_status[0] ? a->model->focus_status :
			 "no system calls seen since the view opened");
		put_line(y + 1, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
		return 2;
	}
	/* No window kept: the selection's line is the last once it is past the first page. */
	a->pv_list.top = 0;
	list_fit(&a->pv_list, n, h - 1);
	top = a->pv_list.top;
	for (r = 1, i = top; r < h && i < n; r++, i++) {
		const struct sc_stat *s = rows[i];
		const struct sc_stat *last = sctable_find(&fp->sc_last, s->nr);
		const struct sc_stat *tm = sctable_find(&fp->times, s->nr);
		int te = s->errors ? fproc_top_errno(fp, s->nr) : 0;

		if (last && fp->sc_last_s > 0)
			fmt_rate(rate, sizeof(rate), (double)last->calls / fp->sc_last_s);
		else
			snprintf(rate, sizeof(rate), "0");
		if (tm && tm->timed) {
			kevtext_duration(tm->time_ns / tm->timed, avg, sizeof(avg));
			kevtext_duration(tm->max_ns, max, sizeof(max));
		} else {
			snprintf(avg, sizeof(avg), "-");
			snprintf(max, sizeof(max), "-");
		}
		snprintf(line, sizeof(line), "%-18.18s %-13.13s %8s %9llu %8llu %-12s %10s %10s",
			 syscall_label(s->nr, nb, sizeof(nb)),
			 subsystem_name(syscall_subsystem(s->nr)), rate,
			 (unsigned long long)s->calls, (unsigned long long)s->errors,
			 te ? errno_name(te, eb, sizeof(eb)) : "", avg, max);
		if (te && errno_hint(te)) {	/* a kernel-internal name: what it means */
			size_t l = strlen(line);

			snprintf(line + l, sizeof(line) - l, "  %s", errno_hint(te));
		}
		attrset(theme_attr(i == a->pv_list.sel ? EL_SELECTED : EL_NORMAL));
		put_line(y + r, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
	}
	return r;
}

static int draw_subsystems(struct app *a, const struct fproc *fp, int y, int h, int w)
{
	uint64_t calls[SUB_NR] = { 0 }, total = 0;
	bool used[SUB_NR] = { false };
	char line[160];
	int r = 1, bar_w = w - 32, s;
	uint32_t i;

	for (i = 0; i < fp->sc_total.cap; i++) {
		const struct sc_stat *st = &fp->sc_total.slots[i];

		if (st->nr == SC_EMPTY)
			continue;
		calls[syscall_subsystem(st->nr)] += st->calls;
		total += st->calls;
	}
	attrset(theme_attr(EL_LABEL));
	put_line(y, 0, w, "Subsystems (share of the calls since the view opened)");
	attrset(theme_attr(EL_NORMAL));
	if (!total)
		return 1;
	/* Largest first. */
	while (r < h) {
		int best = -1, k;
		double frac;

		for (s = 0; s < SUB_NR; s++)
			if (!used[s] && calls[s] && (best < 0 || calls[s] > calls[best]))
				best = s;
		if (best < 0)
			break;
		used[best] = true;
		frac = (double)calls[best] / (double)total;
		snprintf(line, sizeof(line), " %-13s %5.1f%% %9llu ", subsystem_name(best), frac * 100,
			 (unsigned long long)calls[best]);
		put_line(y + r, 0, w, line);
		attrset(theme_attr(EL_GRAPH));
		for (k = 0; bar_w > 0 && k < (int)(frac * bar_w + 0.5); k++) {
			if (a->utf8)
				mvaddstr(y + r, 32 + k, "\u2588");
			else
				mvaddch(y + r, 32 + k, '#');
		}
		attrset(theme_attr(EL_NORMAL));
		r++;
	}
	return r;
}

static const char *delivery_text(const struct fsig *s)
{
	static const char *const d[] = {
		[FSIG_PENDING] = "pending", [FSIG_HANDLER] = "delivered: handler",
		[FSIG_DEFAULT] = "delivered: default action", [FSIG_IGNORED] = "delivered: ignored",
		[FSIG_TAKEN] = "taken: no delivery seen",
	};

	if (s->result == 1)
		return "ignored";
	if (s->delivery == FSIG_PENDING && s->result >= 0 && s->result != 0 && s->result != 4)
		return kevtext_sig_result(s->result);
	return d[s->delivery];
}

static int draw_signals(struct app *a, const struct fproc *fp, int y, int h, int w)
{
	const struct model *m = a->model;
	char line[256], sb[16], when[32];
	uint64_t seq, first;
	int r = 1;

	attrset(theme_attr(EL_LABEL));
	snprintf(line, sizeof(line), "Signals (%llu kept)", (unsigned long long)evring_count(&fp->sigs));
	put_line(y, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	if (!evring_count(&fp->sigs)) {
		if (h < 2)
			return 1;
		attrset(theme_attr(EL_RATE_ZERO));
		put_line(y + 1, 0, w, " none since the view opened");
		attrset(theme_attr(EL_NORMAL));
		return 2;
	}
	/* The newest that fit, oldest first. */
	first = fp->sigs.pushed - (uint64_t)(h - 1) > fp->sigs.first && fp->sigs.pushed > (uint64_t)(h - 1) ?
		fp->sigs.pushed - (uint64_t)(h - 1) : fp->sigs.first;
	for (seq = first; seq < fp->sigs.pushed && r < h; seq++, r++) {
		const struct fsig *s = evring_at(&fp->sigs, seq);
		double ago = m->t_now > s->ts ? (double)(m->t_now - s->ts) / 1e9 : 0;
		char sender[48], comm[64];

		snprintf(when, sizeof(when), "%s%.1f s ago", s->ts_exact ? "" : "~", ago);
		if (s->sender > 0)
			snprintf(sender, sizeof(sender), "%d %.16s", (int)s->sender,
				 s->sender_comm[0] ? view_clean(a, comm, sizeof(comm), s->sender_comm) : "?");
		else
			snprintf(sender, sizeof(sender), "%s", s->result >= 0 ? "interrupt/kernel" :
				 "sender not seen");
		snprintf(line, sizeof(line), " %-14s %-9s from %-24s to %-7d %s", when,
			 signal_name(s->sig, sb, sizeof(sb)), sender, (int)s->target,
			 delivery_text(s));
		put_line(y + r, 0, w, line);
	}
	return r;
}

#define PV_CONNS 3	/* the most shown: the busiest; the Connections view has them all */

/* Its sockets of the interval (model.conns), the busiest @max first, into @out: how many it has. */
static size_t conns_of(const struct model *m, pid_t pid, const struct sock_conn **out, size_t max)
{
	size_t i, j, n = 0, k = 0;

	for (i = 0; i < m->nconns; i++) {
		const struct sock_conn *c = &m->conns[i];

		if (c->pid != pid)
			continue;
		n++;
		/* Insertion into the few kept, by bytes. */
		for (j = k < max ? k++ : max; j > 0 && out[j - 1]->tx + out[j - 1]->rx < c->tx + c->rx; j--)
			if (j < max)
				out[j] = out[j - 1];
		if (j < max)
			out[j] = c;
	}
	return n;
}

static int draw_conns(struct app *a, const struct fproc *fp, int y, int h, int w)
{
	const struct sock_conn *v[PV_CONNS];
	size_t n = conns_of(a->model, fp->pid, v, PV_CONNS), i;
	char line[256];

	attrset(theme_attr(EL_LABEL));
	snprintf(line, sizeof(line), "Connections (%zu socket%s this interval%s)", n, n == 1 ? "" : "s",
		 n > PV_CONNS ? "; 8: all of them" : "");
	put_line(y, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	for (i = 0; i < n && i < PV_CONNS && (int)i + 1 < h; i++) {
		char text[200];

		snprintf(line, sizeof(line), " %s",
			 conntable_line(v[i], a->model->interval_s, text, sizeof(text)));
		put_line(y + 1 + (int)i, 0, w, line);
	}
	return 1 + (int)i;
}

static void procview_draw(struct app *a, int y0, int h, int w)
{
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);
	int y = y0, end = y0 + h, sc_h, sub_h, sig_h, thr_h;
	char line[256];

	if (!fp) {
		put_line(y0, 0, w, "no process is focused");
		blank_lines(y0 + 1, end, w);
		return;
	}
	draw_identity(a, fp, y, w);
	y += 3;
	y += draw_cpu_limit(a, fp, y, w);
	if (a->model->focus_status[0]) {
		attrset(theme_attr(EL_MESSAGE));
		put_line(y++, 0, w, a->model->focus_status);
		attrset(theme_attr(EL_NORMAL));
	}
	/* The event list's losses: its events and the times (~) only, not the counts. */
	if (fp->lost || fp->lost_unknown) {
		attrset(theme_attr(EL_MESSAGE));
		snprintf(line, sizeof(line), "event list: LOST %llu%s events while focused; ~times of "
			 "the calls it kept, calls and errors exact",
			 (unsigned long long)fp->lost, fp->lost_unknown ? "+" : "");
		put_line(y++, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
	}
	/* The counting path's: then the counts of those intervals may be short. */
	if (fp->sys_lost || fp->sys_lost_unknown) {
		attrset(theme_attr(EL_LOST));
		snprintf(line, sizeof(line), "counts: LOST %llu%s events system-wide while focused: "
			 "calls and errors may be short", (unsigned long long)fp->sys_lost,
			 fp->sys_lost_unknown ? "+" : "");
		put_line(y++, 0, w, line);
		attrset(theme_attr(EL_NORMAL));
	}
	/* An exited process's last numbers, as its row in the table had them. */
	if (last_row(a, fp) && y + 2 < end) {
		attrset(theme_attr(EL_TABLE_HEADER));
		put_line(y++, 0, w, a->pv_last.header);
		attrset(theme_attr(EL_NORMAL));
		put_line(y++, 0, w, a->pv_last.row);
	}
	/* The calls in progress first: the slow call a person opened the view for. */
	y += draw_calls(a, fp, y, fp->ncalls > 4 ? 4 : (int)fp->ncalls, w);
	y += draw_rates(a, fp, y, w);
	/* Its threads: a row each and the total when there is room, a third of what is left. */
	thr_h = 1 + (int)(fp->nthr ? fp->nthr : 1);
	if (thr_h > (end - y) / 3)
		thr_h = (end - y) / 3;
	if (thr_h >= 2)
		y += draw_threads(a, fp, y, thr_h, w);
	/* Its sockets of the interval, when it has some: a few lines. */
	{
		const struct sock_conn *v[PV_CONNS];
		size_t n = conns_of(a->model, fp->pid, v, PV_CONNS);

		if (n && end - y >= 12)
			y += draw_conns(a, fp, y, 1 + (int)(n < PV_CONNS ? n : PV_CONNS), w);
	}
	/* What is left: the syscall table gets most, then subsystems and signals. */
	sub_h = 5;
	sig_h = 5;
	sc_h = end - y - sub_h - sig_h;
	if (sc_h < 4) {
		sig_h = 3;
		sub_h = 3;
		sc_h = end - y - sub_h - sig_h;
	}
	if (sc_h >= 2) {
		y += draw_syscalls(a, fp, y, sc_h, w);
		if (y + sub_h <= end)
			y += draw_subsystems(a, fp, y, sub_h, w);
		if (y < end)
			y += draw_signals(a, fp, y, end - y, w);
	}
	/* Whole lines: what is left of the area is blanked here, not by ui.c. */
	blank_lines(y, end, w);
}

/* Moved past the rows when they are not known yet: clamped when drawn. */
static enum action k_up(struct app *a)
{
	list_move(&a->pv_list, (size_t)LONG_MAX, -1);
	return ACT_REDRAW;
}

static enum action k_down(struct app *a)
{
	list_move(&a->pv_list, (size_t)LONG_MAX, 1);
	return ACT_REDRAW;
}

static enum action k_events(struct app *a)
{
	evlist_open(a, NULL);
	return ACT_REDRAW;
}

/* Enter on a syscall row: its events only. */
static enum action k_syscall_events(struct app *a)
{
	static const struct sc_stat *rows[PV_MAX_SC];
	const struct fproc *fp = model_fproc_find(a->model, a->view_pid);
	char nb[SYSCALL_LABEL_BUF];
	size_t n;

	if (!fp)
		return ACT_NONE;
	n = sorted_syscalls(fp, rows, PV_MAX_SC);
	if (a->pv_list.sel >= n) {
		evlist_open(a, NULL);
		return ACT_REDRAW;
	}
	evlist_open(a, syscall_label(rows[a->pv_list.sel]->nr, nb, sizeof(nb)));
	return ACT_REDRAW;
}

static enum action k_back(struct app *a)
{
	app_pop(a);
	return ACT_UNFOCUS;
}

static const struct key_binding procview_keys[] = {
	{ { KEY_UP, 'k' }, "Up k", "select the syscall above", k_up },
	{ { KEY_DOWN, 'j' }, "Down j", "select the syscall below", k_down },
	{ { '\n', '\r', KEY_ENTER }, "Enter", "the events of the selected syscall", k_syscall_events },
	{ { 'e', 'l' }, "e l", "the event list: every kernel event of the process", k_events },
	{ { 27, 'q', KEY_LEFT }, "Esc q", "back to the process table (the focus ends)", k_back },
	{ { '[' }, "[", "a replay (-r): the interval before", key_replay_back },
	{ { ']' }, "]", "a replay: the interval after", key_replay_fwd },
	{ { 'J' }, "J", "a replay: jump to a time", key_replay_jump },
	{ { 'W' }, "W", "flight recorder: save the last kernel events as a trace.dat (--flight)", key_flight },
	{ { '?', KEY_F(1), 'h' }, "? F1 h", "this help", key_help },
	{ { KEY_F(10), 'Q' }, "F10 Q", "quit ktop", key_quit },
};

const struct view procview_view = {
	.name = "process",
	.draw = procview_draw,
	.fullscreen = true,
	.whole_lines = true,
	.hint = "F1 Help  Up/Down select  Enter its events  e all events  Esc back  F10 quit",
	.keys = procview_keys,
	.nkeys = ARRAY_SIZE(procview_keys),
};
