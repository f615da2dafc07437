/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SETTINGS_H
#define KTOP_SETTINGS_H

/*
 * The settings file of the live view, $XDG_CONFIG_HOME/ktop/ktoprc (or
 * ~/.config/ktop/ktoprc): "key = value" lines, '#' comments.
 *
 *	delay = 2               seconds between refreshes, 0.01 to 86400 (DELAY_MIN_S)
 *	theme = default         a theme name or a file
 *	sort = -cpu_pct         a column key; '-' descending, '+' ascending
 *	columns = pid,user,...  the table's columns in order; COMMAND last
 *	tree = no               tree view
 *	threads = no            a row per thread
 *	hide_kernel_threads = no  kernel threads not shown (K)
 *	view = processes        the view shown at start (--view's words)
 *	group_by = comm         the groups view's key (--group-by's words)
 *
 * A bad line is reported and that setting keeps its default: a settings file
 * never stops ktop from starting. The command line beats the file.
 */

#include <stdbool.h>
#include <stddef.h>

#include "../tables/systable.h"
#include "../lib/cgroup.h"
#include "../tables/columns.h"
#include "themefile.h"

struct settings {
	double delay_s;
	char theme[THEME_NAME_MAX + 192];	/* a name, or a path */
	int sort_col;				/* enum col_id */
	bool sort_asc;
	int cols[COL_NR];
	size_t ncols;
	bool tree, threads, hide_kthreads;
	enum view_kind view;
	enum cgroup_group_by group_by;
	/* which of the above the file set */
	bool have_delay, have_theme, have_sort, have_tree, have_threads, have_view, have_group_by;
	bool have_hide_kthreads;
};

/* The file's path in @buf; -ENOENT when neither XDG_CONFIG_HOME nor HOME is set. */
int settings_path(char *buf, size_t n);

/*
 * settings_parse - read the text of a settings file into @s
 * @warn: gets "LINE: what" of the first bad line, "" when there was none
 *
 * Returns the number of bad lines (their settings are left unset).
 */
int settings_parse(const char *text, struct settings *s, char *warn, size_t warnsz);

/*
 * settings_load - read @path into @s; a missing file is no error
 * @warn: "PATH:LINE: what (and N more)" when lines were bad, or why the file
 * could not be read; "" otherwise
 *
 * Returns the number of problems (0 = all good).
 */
int settings_load(const char *path, struct settings *s, char *warn, size_t warnsz);

/* Write @s to @path (the directory is created), atomically. 0 or -errno, @err set. */
int settings_save(const char *path, const struct settings *s, char *err, size_t errsz);

#endif
