// SPDX-License-Identifier: GPL-2.0-only
/* The header: clock, uptime, load, tasks, CPU and memory meters, system rates. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "theme.h"
#include "view.h"
#include "../tables/columns.h"
#include "../lib/util.h"

#define METER_MIN_W 16

void put_text(int y, int x, int maxw, const char *s)
{
	if (maxw > 0)
		mvaddnstr(y, x, s, maxw);
}

void put_line(int y, int x, int w, const char *s)
{
	int cy, cx;

	if (w <= 0)
		return;
	mvaddnstr(y, x, s, w);
	getyx(stdscr, cy, cx);
	/* Past the right edge the cursor moved to the next line: nothing to pad. */
	if (cy == y && cx < x + w)
		mvhline(y, cx, ' ', x + w - cx);
}

void blank_lines(int y, int end, int w)
{
	attrset(theme_attr(EL_NORMAL));
	for (; y < end; y++)
		mvhline(y, 0, ' ', w);
}

const char *view_clean(const struct app *a, char *buf, size_t n, const char *s)
{
	sanitize_text(buf, n, s, strlen(s), a->utf8);
	return buf;
}

/* Each line is drawn whole (the screen is not erased between refreshes). */
static void blank(int y, int w)
{
	attrset(theme_attr(EL_NORMAL));
	mvhline(y, 0, ' ', w);
}

/* "LBL[|||||     12.3%]": the text sits inside the bar at the right, as in htop. */
static void meter(int y, int x, int w, const char *label, double frac, const char *text)
{
	int inner = w - (int)strlen(label) - 2, bars, i, tl = (int)strlen(text);

	if (inner < 1)
		return;
	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	bars = (int)(frac * inner + 0.5);
	attrset(theme_attr(EL_LABEL));
	mvaddstr(y, x, label);
	attrset(theme_attr(EL_NORMAL));
	addch('[');
	for (i = 0; i < inner; i++) {
		bool in_text = i >= inner - tl;
		chtype ch = in_text ? (chtype)(unsigned char)text[i - (inner - tl)] :
				      i < bars ? '|' : ' ';

		attrset(in_text ? theme_attr(EL_VALUE) :
			theme_attr(frac > 0.8 ? EL_METER_HIGH : EL_METER));
		addch(ch);
	}
	attrset(theme_attr(EL_NORMAL));
	addch(']');
}

static void cpu_meters(struct app *a, int *y, int w, int max_lines)
{
	const struct model *m = a->model;
	int per_line = w / (METER_MIN_W + 1), ncpu = m->sys.stat.ncpu, i, lines;
	int mw;
	char text[16], label[12];
	double pct;

	if (per_line < 1)
		per_line = 1;
	lines = (ncpu + 1 + per_line - 1) / per_line;
	if (ncpu <= 1 || lines > max_lines)
		ncpu = 0;	/* too many CPUs for the room: the total only */
	if (!ncpu)
		per_line = 1;
	mw = (w - (per_line - 1)) / per_line;
	for (i = 0; i < (ncpu + 1 + per_line - 1) / per_line; i++)
		blank(*y + i, w);
	for (i = -1; i < ncpu; i++) {
		const struct cpu_times *cur = i < 0 ? &m->sys.stat.total : &m->sys.stat.cpu[i];
		int slot = i + 1;

		if (i < 0)
			snprintf(label, sizeof(label), "CPU");
		else
			snprintf(label, sizeof(label), "%3d", i);
		pct = i < 0 ? (m->sum.have_cpu ? m->sum.cpu_pct : -1) : m->sum.cpu_busy[i];
		if (pct >= 0)
			snprintf(text, sizeof(text), "%.1f%%", pct);
		else if (i >= 0 && !cur->present)
			snprintf(text, sizeof(text), "off"), pct = 0;
		else
			snprintf(text, sizeof(text), "-"), pct = 0;
		meter(*y + slot / per_line, (slot % per_line) * (mw + 1), mw, label, pct / 100, text);
	}
	*y += (ncpu + 1 + per_line - 1) / per_line;
}

/* After the event line's text at @x: lost exit records (loud), or why there are none. */
static void exits_note(const struct model *m, int y, int x, int w)
{
	char buf[200];

	if (x >= w)
		return;
	if (m->exits_lost || m->exits_lost_unknown) {
		snprintf(buf, sizeof(buf), "  LOST %llu%s exits", (unsigned long long)m->exits_lost,
			 m->exits_lost_unknown ? "+" : "");
		attrset(theme_attr(EL_LOST));
	} else if (!m->exit_records && m->exits_status[0]) {
		snprintf(buf, sizeof(buf), "; %s", m->exits_status);
		attrset(theme_attr(EL_RATE_ZERO));
	} else {
		return;
	}
	put_text(y, x, w - x, buf);
	attrset(theme_attr(EL_NORMAL));
}

/* System-wide event rates, lost events (loud), or why there are none. */
static void events_line(const struct model *m, int y, int w)
{
	static const enum counter shown[3] = { CNT_SYSCALLS, CNT_SYSERR, CNT_SIGRECV };
	char buf[256], r[3][20];
	int x, i;

	blank(y, w);
	attrset(theme_attr(EL_LABEL));
	put_text(y, 0, w, "Evnts");
	attrset(theme_attr(EL_NORMAL));
	if (!m->event_counters) {
		const char *why = m->trace_status[0] ? m->trace_status : "tracing off";

		attrset(theme_attr(EL_ERROR));
		put_text(y, 6, w - 6, why);
		attrset(theme_attr(EL_NORMAL));
		exits_note(m, y, 6 + (int)strlen(why), w);
		return;
	}
	if (m->interval_s <= 0) {
		put_text(y, 5, w - 5, " (from the next refresh)");
		return;
	}
	for (i = 0; i < 3; i++) {
		if (model_counts_events(m, shown[i])) {
			fmt_rate(r[i], sizeof(r[i]) - 2, (double)m->ev_total[shown[i]] / m->interval_s);
			strcat(r[i], "/s");
		} else {
			snprintf(r[i], sizeof(r[i]), "-");	/* its event is missing here */
		}
	}
	x = 5 + snprintf(buf, sizeof(buf), " syscalls %s  failed %s  signals %s", r[0], r[1], r[2]);
	put_text(y, 5, w - 5, buf);
	if (m->lost_events || m->lost_unknown) {
		/* Counts may be short: say so where it cannot be missed. */
		i = snprintf(buf, sizeof(buf), "  LOST %llu%s events", (unsigned long long)m->lost_events,
			     m->lost_unknown ? "+" : "");
		attrset(theme_attr(EL_LOST));
		put_text(y, x, w - x, buf);
		attrset(theme_attr(EL_NORMAL));
		x += i;
	} else if (m->trace_status[0]) {
		attrset(theme_attr(EL_RATE_ZERO));
		put_text(y, x + 2, w - 2 - x, m->trace_status);
		attrset(theme_attr(EL_NORMAL));
		x += 2 + (int)strlen(m->trace_status);
	}
	exits_note(m, y, x, w);
}

/*
 * After the tasks at @x: the system's pressure (/proc/pressure, the share of
 * the interval some task waited) and the cgroups alerting (throttled by a CPU
 * limit, a process OOM-killed, under memory pressure; read while the Groups
 * view or the throttled_pct column shows them), loud. Only what fits.
 */
static void pressure_note(const struct model *m, int y, int x, int w)
{
	const struct cgres_table *t = &m->cgres;
	char buf[160], v[3][16];
	static const enum cgres_field f[3] = { CGF_CPU_SOME, CGF_IO_SOME, CGF_MEM_SOME };
	double d;
	int i, n;

	for (i = 0; i < 3; i++) {
		if (cgres_num(&t->sys, f[i], &d))
			snprintf(v[i], sizeof(v[i]), "%.1f%%", d);
		else
			snprintf(v[i], sizeof(v[i]), "-");
	}
	if (t->sys.cur.have) {
		n = snprintf(buf, sizeof(buf), "  PSI cpu %s io %s mem %s", v[0], v[1], v[2]);
		if (x + n <= w) {
			put_text(y, x, w - x, buf);
			x += n;
		}
	}
	if (!t->n_throttled && !t->n_oom && !t->n_mem)
		return;
	/* In words, the ones that happened: "cgroups: 1 CPU-throttled, 2 with an OOM kill". */
	n = snprintf(buf, sizeof(buf), "  cgroups:");
	if (t->n_throttled)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %u CPU-throttled", t->n_throttled);
	if (t->n_oom)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s %u with an OOM kill",
			      t->n_throttled ? "," : "", t->n_oom);
	if (t->n_mem)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s %u short of memory",
			      t->n_throttled || t->n_oom ? "," : "", t->n_mem);
	if (x + n > w)
		x = w - n > 0 ? w - n : 0;
	attrset(theme_attr(EL_LOST));
	put_text(y, x, w - x, buf);
	attrset(theme_attr(EL_NORMAL));
}

int header_draw(struct app *a, int w, int max_lines)
{
	const struct sys_summary *s = &a->model->sum;
	char buf[256], t1[32], t2[32], clock[32];
	time_t now = (time_t)a->model->wall_s;
	struct tm tm;
	int y = 0, half = (w - 1) / 2;

	localtime_r(&now, &tm);
	/* A replay: the day too, it may be any. */
	strftime(clock, sizeof(clock), a->replay ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
	fmt_uptime(t1, sizeof(t1), s->uptime_s);

	blank(y, w);
	attrset(theme_attr(EL_TITLE));
	put_text(y, 0, w, "ktop");
	attrset(theme_attr(EL_NORMAL));
	if (a->replay) {
		/* Where it is: what the time is is the recording's. */
		attrset(theme_attr(EL_LOST));
		put_text(y, 5, w - 5, "REPLAY");
		attrset(theme_attr(EL_NORMAL));
		char pos[96] = "", f[16], l[16];

		/* Which interval of how many, between which times: what J needs. */
		if (a->replay_n > 0) {
			time_t ft = (time_t)a->replay_first_s, lt = (time_t)a->replay_last_s;
			struct tm ftm, ltm;

			localtime_r(&ft, &ftm);
			localtime_r(&lt, &ltm);
			strftime(f, sizeof(f), "%H:%M:%S", &ftm);
			strftime(l, sizeof(l), "%H:%M:%S", &ltm);
			snprintf(pos, sizeof(pos), "  %lld/%lld [%s-%s]", (long long)a->replay_pos,
				 (long long)a->replay_n, f, l);
		}
		snprintf(buf, sizeof(buf), " %s%s  %s%s  up %s  load %.2f %.2f %.2f", clock, pos,
			 a->paused ? "PAUSED" : a->replay_end ? "END (following)" : "playing",
			 a->model->threads ? " threads" : "", t1, s->load[0], s->load[1], s->load[2]);
		put_text(y, 11, w - 11, buf);
	} else {
		snprintf(buf, sizeof(buf), " %s  up %s  load %.2f %.2f %.2f  %s%s%s", clock, t1,
			 s->load[0], s->load[1], s->load[2], a->paused ? "PAUSED" : "",
			 a->model->threads ? " threads" : "",
			 a->recording == 1 ? "  REC" : a->recording == 2 ? "  REC STOPPED" : "");
		put_text(y, 4, w - 4, buf);
	}
	y++;

	cpu_meters(a, &y, w, max_lines - 5 > 1 ? max_lines - 5 : 1);

	if (s->have_mem) {
		blank(y, w);
		fmt_mem(t1, sizeof(t1), s->mem_used_kb);
		fmt_mem(t2, sizeof(t2), s->mem_total_kb);
		/* Which "used" it is (htop's leaves out buffers and cache): help has the legend. */
		snprintf(buf, sizeof(buf), half - 5 >= 40 ? "%s/%s (total-avail)" : "%s/%s", t1, t2);
		meter(y, 0, half, "Mem", s->mem_total_kb ? s->mem_used_kb / s->mem_total_kb : 0, buf);
		fmt_mem(t1, sizeof(t1), s->swap_used_kb);
		fmt_mem(t2, sizeof(t2), s->swap_total_kb);
		snprintf(buf, sizeof(buf), "%s/%s", t1, t2);
		meter(y, half + 1, w - half - 1, "Swp",
		      s->swap_total_kb ? s->swap_used_kb / s->swap_total_kb : 0, buf);
		y++;
	}

	blank(y, w);
	attrset(theme_attr(EL_LABEL));
	put_text(y, 0, w, "Tasks");
	attrset(theme_attr(EL_NORMAL));
	snprintf(buf, sizeof(buf), " %lu, %lu run, %lu sleep, %lu D, %lu stop, %lu zombie, %lu idle;"
		 " %lu exited", s->tasks, s->running, s->sleeping, s->disk,
		 s->stopped, s->zombie, s->idle, s->exited);
	put_text(y, 5, w - 5, buf);
	pressure_note(a->model, y, 5 + (int)strlen(buf), w);
	y++;

	blank(y, w);
	attrset(theme_attr(EL_LABEL));
	put_text(y, 0, w, "Rates");
	attrset(theme_attr(EL_NORMAL));
	if (s->have_rates) {
		char r[5][16];

		fmt_rate(r[0], sizeof(r[0]), s->ctxt);
		fmt_rate(r[1], sizeof(r[1]), s->intr);
		fmt_rate(r[2], sizeof(r[2]), s->forks);
		fmt_rate(r[3], sizeof(r[3]), s->minflt);
		fmt_rate(r[4], sizeof(r[4]), s->majflt);
		snprintf(buf, sizeof(buf), " ctxsw %s/s  intr %s/s  forks %s/s  minflt %s/s  majflt %s/s",
			 r[0], r[1], r[2], r[3], r[4]);
	} else {
		/* The table's first frame: fmt_since_start. */
		snprintf(buf, sizeof(buf), " (from the next refresh; CPU%% and faults/s below: "
			 "averages since each process started)");
	}
	put_text(y, 5, w - 5, buf);
	y++;
	if (max_lines > y)
		events_line(a->model, y++, w);
	return y;
}
