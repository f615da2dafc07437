// SPDX-License-Identifier: GPL-2.0-only
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/util.h"

/*
 * Numbers are formatted with integer arithmetic: a text batch at 5,000
 * processes formats 50,000 cells per refresh, and printf's floating point was a
 * fifth of ktop's own CPU time there.
 */

/* Decimal digits of @v at @buf (room for 20); returns the length. */
static size_t put_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/* @v (>= 0) with @decimals (0 to 2) and an optional unit suffix, into @buf. */
static void put_fixed(char *buf, size_t n, double v, int decimals, char suffix)
{
	static const uint64_t scale[] = { 1, 10, 100 };
	char tmp[48];
	uint64_t x, sc = scale[decimals > 2 ? 2 : decimals < 0 ? 0 : decimals];
	size_t len;

	if (!(v >= 0))
		v = 0;
	if (v > 1e16)
		v = 1e16;
	x = (uint64_t)llround(v * (double)sc);
	len = put_u64(tmp, x / sc);
	if (sc > 1) {
		tmp[len++] = '.';
		if (sc == 100)
			tmp[len++] = (char)('0' + x / 10 % 10);
		tmp[len++] = (char)('0' + x % 10);
	}
	if (suffix)
		tmp[len++] = suffix;
	if (!n)
		return;
	if (len >= n)
		len = n - 1;
	memcpy(buf, tmp, len);
	buf[len] = '\0';
}

void fmt_rate(char *buf, size_t n, double v)
{
	/*
	 * A rare event (one SIGCHLD every 2.5 s, a major fault now and then) is
	 * 0.4/s, not 0: below 10 a decimal, as top gives percentages. Zero
	 * stays "0": nothing happened, exactly.
	 */
	if (v > 0 && v < 9.95)
		put_fixed(buf, n, v, 1, 0);
	else if (v < 9999.5)
		put_fixed(buf, n, v, 0, 0);
	else if (v < 99950)
		put_fixed(buf, n, v / 1e3, 1, 'k');
	else if (v < 9999.5e3)
		put_fixed(buf, n, v / 1e3, 0, 'k');
	else if (v < 99950e3)
		put_fixed(buf, n, v / 1e6, 1, 'M');
	else if (v < 9999.5e6)
		put_fixed(buf, n, v / 1e6, 0, 'M');
	else
		put_fixed(buf, n, v / 1e9, 1, 'G');
}

void fmt_kb(char *buf, size_t n, double kb)
{
	/* At most 6 characters: "999.9M", then "1.0G"; never "20480.0G" (ASan's VIRT). */
	if (kb < 100000)
		put_fixed(buf, n, kb, 0, 0);
	else if (kb < 1024.0 * 999.95)
		put_fixed(buf, n, kb / 1024, 1, 'M');
	else if (kb < 1024.0 * 1024 * 999.95)
		put_fixed(buf, n, kb / (1024.0 * 1024), 1, 'G');
	else
		put_fixed(buf, n, kb / (1024.0 * 1024 * 1024), 1, 'T');
}

void fmt_mem(char *buf, size_t n, double kb)
{
	if (kb < 1024)
		put_fixed(buf, n, kb, 0, 'K');
	else if (kb < 1024.0 * 1024)
		put_fixed(buf, n, kb / 1024, 1, 'M');
	else if (kb < 1024.0 * 1024 * 1024)
		put_fixed(buf, n, kb / (1024.0 * 1024), 1, 'G');
	else
		put_fixed(buf, n, kb / (1024.0 * 1024 * 1024), 1, 'T');
}

void fmt_cputime(char *buf, size_t n, double s)
{
	uint64_t cs = (uint64_t)llround(s > 0 ? s * 100 : 0);
	uint64_t min = cs / 6000;
	char tmp[48];
	size_t len;

	if (min >= 1000) {
		put_fixed(buf, n, (double)(min / 60), 0, 'h');
		return;
	}
	len = put_u64(tmp, min);
	tmp[len++] = ':';
	tmp[len++] = (char)('0' + cs / 100 % 60 / 10);
	tmp[len++] = (char)('0' + cs / 100 % 10);
	tmp[len++] = '.';
	tmp[len++] = (char)('0' + cs % 100 / 10);
	tmp[len++] = (char)('0' + cs % 10);
	tmp[len] = '\0';
	snprintf(buf, n, "%s", tmp);
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

bool fmt_since_start(const struct model *m, const struct task *t, enum col_id c, double *out)
{
	int k = columns[c].counter;
	double age;

	if (m->interval_s > 0 || !m->sys.have_uptime || m->hz <= 0)
		return false;
	age = m->sys.uptime_s - (double)t->starttime / (double)m->hz;
	if (!(age > 0.01))
		return false;
	if (c == COL_CPU) {
		if (!(t->have & (1u << CNT_CPU)))
			return false;
		*out = (double)t->cnt[CNT_CPU] / 1e9 / age * 100.0;
		return true;
	}
	/* The kernel's own counters since the start; events are counted from ktop's. */
	if (k < 0 || k > CNT_IVCSW || model_counts_events(m, (enum counter)k) ||
	    !(t->have & (1u << k)))
		return false;
	*out = (double)t->cnt[k] / age;
	return true;
}

const char *fmt_cell(const struct model *m, const struct task *t, enum col_id c,
		     char *buf, size_t n, bool utf8)
{
	const struct column *col = &columns[c];
	double v;

	if (col->type == CT_STR || col->type == CT_CHAR)
		return col_text(t, c, buf, n, utf8);
	/* The first frame: what is known at once, the average since the start. */
	if (fmt_since_start(m, t, c, &v)) {
		if (c == COL_CPU)
			put_fixed(buf, n, v, v < 999.95, 0);
		else
			fmt_rate(buf, n, v);
		return buf;
	}
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
		/*
		 * MEM% of a 10 MB process on a 24 GiB machine is 0.04: with one
		 * decimal every process but the largest would read 0.0.
		 */
		if (c == COL_MEM && v < 9.995)
			put_fixed(buf, n, v, 2, 0);
		else
			put_fixed(buf, n, v, v < 999.95, 0);
		break;
	case CT_MS:
		if (m->interval_s <= 0) {
			snprintf(buf, n, "-");
			break;
		}
		/* ms / (s * 1000) * 100: the share of the interval. */
		v /= m->interval_s * 10;
		put_fixed(buf, n, v, v < 999.95, 0);
		break;
	case CT_KB:
		fmt_kb(buf, n, v);
		break;
	case CT_TIME:
		fmt_cputime(buf, n, v);
		break;
	default:
		if (v < 0) {	/* nice, priority */
			buf[0] = '-';
			put_fixed(buf + 1, n - 1, -v, 0, 0);
		} else {
			put_fixed(buf, n, v, 0, 0);
		}
		break;
	}
	return buf;
}

const char *fmt_av_cell(const struct aggview *v, size_t row, int col, char *buf, size_t n,
			int utf8)
{
	size_t ncols;
	const struct av_col *c = view_columns(v->kind, &ncols);
	double d;

	if (n)
		buf[0] = '\0';
	if (col < 0 || (size_t)col >= ncols || c[col].type == AV_GRAPH)
		return buf;
	c += col;
	if (c->type == AV_STR)
		return aggview_text(v, row, col, buf, n, utf8);
	if (!aggview_num(v, row, col, &d) || (c->type == AV_COUNT && !aggview_rate(v, d, &d)) ||
	    (c->type == AV_MS && !aggview_rate(v, d / 10, &d))) {
		snprintf(buf, n, "-");
		return buf;
	}
	switch (c->type) {
	case AV_COUNT:
		fmt_rate(buf, n, d);
		break;
	case AV_TOTAL:
		snprintf(buf, n, "%.0f", d);
		if (strlen(buf) > (size_t)c->width)
			fmt_rate(buf, n, d);
		break;
	case AV_PCT:
	case AV_MS:	/* ms / (s * 1000) * 100: the share of the interval */
		put_fixed(buf, n, d, d < 999.95, 0);
		break;
	case AV_KB:
		fmt_kb(buf, n, d);
		break;
	case AV_TIME:
		fmt_cputime(buf, n, d);
		break;
	default:
		snprintf(buf, n, "%.0f", d);
		break;
	}
	return buf;
}
