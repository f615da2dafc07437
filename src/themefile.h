/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_THEMEFILE_H
#define KTOP_THEMEFILE_H

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
const char *theme_elem_name(int e);
const char *theme_elem_doc(int e);

/*
 * theme_parse - parse the text of a theme file into @out
 * @line: on error, the 1-based line at fault
 *
 * Returns 0, or -EINVAL with @err set (without the file and line).
 */
int theme_parse(const char *text, struct theme_def *out, int *line, char *err, size_t errsz);

/*
 * theme_load - find theme @name (or read the file @name when it has a '/') and parse it
 *
 * A name is looked up in the theme directories, whose files (and the
 * directories above them) must be root's or the user's and not writable by
 * others (src/conffile.h); a path (from --theme) is read as given.
 *
 * On error @err says "FILE:LINE: what" (or that no such theme exists) and @out
 * is untouched. Returns 0 or -errno.
 */
int theme_load(const char *name, struct theme_def *out, char *err, size_t errsz);
/*
 * Read theme @name now (before tracing starts and CMD forks: a file that
 * blocks must not hold them up); the next theme_load of @name returns it.
 */
void theme_preload(const char *name);

/* The compiled-in copy of themes/default.theme or mono.theme; -ENOENT for others. */
int theme_builtin(const char *name, struct theme_def *out);

/* Names of the themes found, sorted, duplicates removed; returns how many. */
size_t theme_list(char names[][THEME_NAME_MAX], size_t max);

/*
 * Colour @c for a terminal of @ncolors: itself, its fallback, bright colours as
 * the plain ones, or the nearest of the 8 basic colours.
 */
short theme_color_for(struct theme_color c, int ncolors);

#endif
