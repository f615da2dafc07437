/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_THEME_H
#define KTOP_THEME_H

#include <curses.h>
#include <stdbool.h>

/* Every element of the screen that has a look of its own. */
enum elem {
	EL_NORMAL,
	EL_TITLE,		/* "ktop" and the clock */
	EL_LABEL,		/* header labels: CPU, Mem, Swp */
	EL_VALUE,		/* header values */
	EL_METER,		/* meter bars */
	EL_METER_HIGH,		/* a meter past 80% */
	EL_TABLE_HEADER,
	EL_SORT_COL,		/* the sort column's header cell */
	EL_SELECTED,		/* the selected row */
	EL_RATE_ZERO,		/* a rate of 0 or "-": dim */
	EL_RATE_HIGH,		/* a rate that stands out */
	EL_STATE_RUN,		/* state R */
	EL_STATE_D,		/* state D: uninterruptible, worth a look */
	EL_FOOTER_KEY,
	EL_FOOTER_TEXT,
	EL_MESSAGE,		/* notices and errors */
	EL_CHANGED,		/* a snapshot variable that changed since the previous one */
	EL_NR
};

/* Set up the attributes; @color false (NO_COLOR, no colour terminal) = mono. */
void theme_init(bool color);
attr_t theme_attr(enum elem e);

#endif
