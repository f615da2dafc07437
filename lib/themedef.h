/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_THEMEDEF_H
#define KTOP_THEMEDEF_H

/*
 * Theme files (themes/NAME.theme): one line per element of the screen, a colour
 * pair and attributes. This module finds, reads and parses them, without curses;
 * views/theme.c turns a parsed theme into curses attributes.
 *
 *	# comment
 *	ELEMENT  FOREGROUND  BACKGROUND  [ATTRIBUTE...]
 *
 * A colour is "default" (the terminal's own), a name (black red green yellow
 * blue magenta cyan white), "bright-NAME" (colours 8-15), or a number 0-255,
 * optionally with "/FALLBACK" for terminals with fewer colours than the number
 * needs ("244/white"). Attributes: normal bold dim reverse underline standout
 * italic. An element the file does not name looks like "normal".
 *
 * lib/themedef: the elements, a parsed theme and the parser, pure;
 * src/themefile.c finds and reads the files, views/theme.c applies a theme.
 */

#include <stdbool.h>
#include <stddef.h>

/* Every element of the screen that has a look of its own. */
enum elem {
	EL_NORMAL,
	EL_TITLE,		/* "ktop" and the clock */
	EL_LABEL,		/* header labels: CPU, Mem, Swp, Tasks */
	EL_VALUE,		/* header values inside meters */
	EL_METER,		/* meter bars */
	EL_METER_HIGH,		/* a meter past 80% */
	EL_TABLE_HEADER,
	EL_SORT_COL,		/* the sort column's header cell */
	EL_SELECTED,		/* the selected row */
	EL_RATE_ZERO,		/* a rate of 0 or "-" */
	EL_RATE_LOW,
	EL_RATE_MID,
	EL_RATE_HIGH,
	EL_STATE_RUN,		/* state R */
	EL_STATE_D,		/* state D: uninterruptible, worth a look */
	EL_ERROR,		/* failed system calls, errors */
	EL_LOST,		/* lost events: counts may be short */
	EL_TREE,		/* tree view lines */
	EL_GRAPH,		/* history graphs */
	EL_GRAPH_HIGH,		/* the upper part of a graph */
	EL_EVENT_SYSCALL,	/* event list: system calls */
	EL_EVENT_SWITCH,	/* context switches */
	EL_EVENT_FAULT,		/* page faults */
	EL_EVENT_SIGNAL,	/* signals */
	EL_EVENT_PROCESS,	/* fork, exec, exit */
	EL_CHANGED,		/* snapshot: a variable that changed */
	EL_FOOTER_KEY,		/* function-key bar: the key */
	EL_FOOTER_TEXT,		/* function-key bar: what it does */
	EL_MESSAGE,		/* notices */
	EL_DIALOG,		/* menus and the setup screen */
	EL_DIALOG_TITLE,
	EL_TAB,			/* the views' tabs: a view not shown */
	EL_TAB_CURRENT,		/* the tab of the view shown */
	EL_NR
};

enum theme_attr_bits {
	TA_BOLD = 1u << 0,
	TA_DIM = 1u << 1,
	TA_REVERSE = 1u << 2,
	TA_UNDERLINE = 1u << 3,
	TA_STANDOUT = 1u << 4,
	TA_ITALIC = 1u << 5,
};

/* A colour: -1 = the terminal's default; @fallback (-1 = none) for few colours. */
struct theme_color {
	short c, fallback;
};

struct theme_style {
	struct theme_color fg, bg;
	unsigned attrs;		/* enum theme_attr_bits */
};

struct theme_def {
	char name[64];
	struct theme_style st[EL_NR];
};

#define THEME_NAME_MAX 64
#define THEME_MAX 32

/* The element's name in theme files ("table-header"), and what it is. */
const char *themedef_elem_name(int e);
const char *themedef_elem_doc(int e);

/*
 * themedef_parse - parse the text of a theme file into @out
 * @line: on error, the 1-based line at fault
 *
 * Returns 0, or -EINVAL with @err set (without the file and line).
 */
int themedef_parse(const char *text, struct theme_def *out, int *line, char *err, size_t errsz);

/*
 * Colour @c for a terminal of @ncolors: itself, its fallback, bright colours as
 * the plain ones, or the nearest of the 8 basic colours.
 */
short themedef_color_for(struct theme_color c, int ncolors);

#endif
