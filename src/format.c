// SPDX-License-Identifier: GPL-2.0-only
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fmt_rate(char *buf, size_t n, double v)
{
	if (v < 0)
		v = 0;
	if (v < 9999.5)
		snprintf(buf, n, "%.0f", v);
	else if (v < 99950)
		snprintf(buf, n, "%.1fk", v / 1e3);
	else if (v < 9999.5e3)
		snprintf(buf, n, "%.0fk", v / 1e3);
	else if (v < 99950e3)
		snprintf(buf, n, "%.1fM", v / 1e6);
	else if (v < 9999.5e6)
		snprintf(buf, n, "%.0fM", v / 1e6);
	else
		snprintf(buf, n, "%.1fG", v / 1e9);
}

void fmt_kb(char *buf, size_t n, double kb)
{
	if (kb < 100000)
		snprintf(buf, n, "%.0f", kb);
	else if (kb < 1024.0 * 1024 * 100)
		snprintf(buf, n, "%.1fM", kb / 1024);
	else if (kb < 1024.0 * 1024 * 1024 * 100)
		snprintf(buf, n, "%.1fG", kb / (1024.0 * 1024));
	else
		snprintf(buf, n, "%.1fT", kb / (1024.0 * 1024 * 1024));
}

void fmt_mem(char *buf, size_t n, double kb)
{
	if (kb < 1024)
		snprintf(buf, n, "%.0fK", kb);
	else if (kb < 1024.0 * 1024)
		snprintf(buf, n, "%.1fM", kb / 1024);
	else if (kb < 1024.0 * 1024 * 1024)
		snprintf(buf, n, "%.1fG", kb / (1024.0 * 1024));
	else
		snprintf(buf, n, "%.1fT", kb / (1024.0 * 1024 * 1024));
}

void fmt_cputime(char *buf, size_t n, double s)
{
	unsigned long long cs = (unsigned long long)llround(s * 100);
	unsigned long long min = cs / 6000;

	if (min < 1000)
		snprintf(buf, n, "%llu:%02llu.%02llu", min, cs / 100 % 60, cs % 100);
	else
		snprintf(buf, n, "%lluh", min / 60);
}

void fmt_uptime(char *buf, size_t n, double s)
{
	unsigned long long t = (unsigned long long)s;
	unsigned long long days = t / 86400, h = t / 3600 % 24, m = t / 60 % 60;

	if (days)
		snprintf(buf, n, "%llu day%s, %02llu:%02llu", days, days == 1 ? "" : "s", h, m);
	else
		snprintf(buf, n, "%02llu:%02llu", h, m);
}

const char *fmt_cell(const struct model *m, const struct task *t, enum col_id c,
		     char *buf, size_t n, bool utf8)
{
	const struct column *col = &columns[c];
	double v;

	if (col->type == CT_STR || col->type == CT_CHAR)
		return col_text(t, c, buf, n, utf8);
	if (!col_num(m, t, c, &v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	switch (col->type) {
	case CT_COUNTER:
		if (m->interval_s <= 0) {
			snprintf(buf, n, "-");
			break;
		}
		fmt_rate(buf, n, v / m->interval_s);
		break;
	case CT_PCT:
		snprintf(buf, n, v < 999.95 ? "%.1f" : "%.0f", v);
		break;
	case CT_KB:
		fmt_kb(buf, n, v);
		break;
	case CT_TIME:
		fmt_cputime(buf, n, v);
		break;
	default:
		snprintf(buf, n, "%.0f", v);
		break;
	}
	return buf;
}

static size_t put_cell(char *buf, size_t n, size_t off, const char *text, int width,
		       bool left, bool last)
{
	int w;

	if (off >= n)
		return off;
	if (last && left)
		w = snprintf(buf + off, n - off, "%s", text);
	else if (left)
		w = snprintf(buf + off, n - off, "%-*.*s ", width, width, text);
	else
		w = snprintf(buf + off, n - off, "%*s ", width, text);
	if (w < 0)
		return off;
	return off + (size_t)w < n ? off + (size_t)w : n - 1;
}

void fmt_header(char *buf, size_t n, const int *cols, size_t ncols)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < ncols; i++) {
		const struct column *c = &columns[cols[i]];

		off = put_cell(buf, n, off, c->title, c->width, c->left, i + 1 == ncols);
	}
}

void fmt_row(const struct model *m, const struct task *t, const int *cols, size_t ncols,
	     char *buf, size_t n, bool utf8)
{
	char cell[1024];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < ncols; i++) {
		const struct column *c = &columns[cols[i]];

		fmt_cell(m, t, cols[i], cell, sizeof(cell), utf8);
		off = put_cell(buf, n, off, cell, c->width, c->left, i + 1 == ncols);
	}
}

void sys_summarize(const struct model *m, struct sys_summary *s)
{
	const struct sys_sample *x = &m->sys, *p = &m->sys_prev;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->have_uptime = x->have_uptime;
	s->uptime_s = x->uptime_s;
	s->have_load = x->have_load;
	memcpy(s->load, x->load.avg, sizeof(s->load));

	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];

		if (!model_is_focused(m, t->tgid))
			continue;
		s->tasks++;
		switch (t->state) {
		case 'R': s->running++; break;
		case 'S': s->sleeping++; break;
		case 'D': s->disk++; break;
		case 'T': case 't': s->stopped++; break;
		case 'Z': case 'X': s->zombie++; break;
		case 'I': s->idle++; break;
		default: break;
		}
	}
	s->ncpu = x->have_stat ? x->stat.ncpu : 0;
	if (x->have_stat && p->have_stat)
		s->have_cpu = cpu_busy_pct(&x->stat.total, &p->stat.total, &s->cpu_pct);
	if (x->have_mem) {
		s->have_mem = true;
		s->mem_total_kb = (double)x->mem.total;
		s->mem_avail_kb = (double)x->mem.available;
		s->mem_used_kb = (double)(x->mem.total - (x->mem.available < x->mem.total ?
							   x->mem.available : x->mem.total));
		s->swap_total_kb = (double)x->mem.swap_total;
		s->swap_used_kb = (double)(x->mem.swap_total - (x->mem.swap_free < x->mem.swap_total ?
								 x->mem.swap_free : x->mem.swap_total));
	}
	if (x->have_stat && p->have_stat && x->have_vm && p->have_vm) {
		uint64_t minc = x->vm.pgfault - x->vm.pgmajfault;
		uint64_t minp = p->vm.pgfault - p->vm.pgmajfault;

		s->have_rates = sys_rate(m, x->stat.ctxt, p->stat.ctxt, &s->ctxt) &&
				sys_rate(m, x->stat.intr, p->stat.intr, &s->intr) &&
				sys_rate(m, x->stat.forks, p->stat.forks, &s->forks) &&
				sys_rate(m, minc, minp, &s->minflt) &&
				sys_rate(m, x->vm.pgmajfault, p->vm.pgmajfault, &s->majflt);
		if (s->have_rates) {
			s->n_ctxt = x->stat.ctxt - p->stat.ctxt;
			s->n_intr = x->stat.intr - p->stat.intr;
			s->n_forks = x->stat.forks - p->stat.forks;
			s->n_minflt = minc - minp;
			s->n_majflt = x->vm.pgmajfault - p->vm.pgmajfault;
		}
	}
}
