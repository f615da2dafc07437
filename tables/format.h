/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_FORMAT_H
#define KTOP_FORMAT_H

/*
 * How numbers look to a person, shared by the screen and the text batch writer
 * (CSV and JSON write raw numbers instead). No I/O, no curses.
 */

#include <stdbool.h>
#include <stddef.h>

#include "systable.h"
#include "columns.h"
#include "../model/model.h"

/* "1234", "12.3k", "1.2M": at most 5 characters for any rate. */
void fmt_rate(char *buf, size_t n, double v);
/* KiB as "123456" below 100,000 KiB, else "97.7M", "1.2G", "20.0T": 6 characters at most. */
void fmt_kb(char *buf, size_t n, double kb);
/* KiB with a unit always: "512K", "299.0M", "23.5G". */
void fmt_mem(char *buf, size_t n, double kb);
/* CPU seconds as top's TIME+: "M:SS.hh", or "HHHh" past 999 minutes. */
void fmt_cputime(char *buf, size_t n, double s);
/* "3 days, 04:05" or "04:05" */
void fmt_uptime(char *buf, size_t n, double s);

/*
 * The first frame (no interval yet): what top's first iteration shows, CPU%
 * and the kernel's own counters (faults; switches from status) per second
 * since @t started, from its start time and the uptime. False otherwise and
 * for columns counted from events, which have no since-start total.
 */
bool fmt_since_start(const struct model *m, const struct task *t, enum col_id c, double *out);

/*
 * The screen text of column @c for @t, at most @n-1 bytes; "-" when the value is
 * not known yet (first interval; CPU% and the faults then are averages since
 * the start, fmt_since_start). Rates are per second.
 */
const char *fmt_cell(const struct model *m, const struct task *t, enum col_id c,
		     char *buf, size_t n, bool utf8);

/*
 * The screen text of cell (@row, @col) of a system-wide view, as fmt_cell:
 * counts of the interval per second, totals whole (compact when wider than
 * the column), "-" when not known; "" for the graph column (drawn apart).
 */
const char *fmt_av_cell(const struct aggview *v, size_t row, int col, char *buf, size_t n,
			int utf8);


#endif
