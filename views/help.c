// SPDX-License-Identifier: GPL-2.0-only
/*
 * The help screen, generated from the key tables the views dispatch on: a key
 * cannot work without being listed here, nor be listed without working. The
 * keys of the view help was opened from come first, then every other view's.
 */
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"
#include "../lib/util.h"

/* Every view with a key table, in the order help shows them. */
static const struct view *const views[] = {
	&table_view, &sys_views[SV_SYSCALLS], &procview_view, &evlist_view, &snapshot_view,
	&menu_view, &setup_view,
};

/*
 * What the header's meters and numbers are, before the keys (htop's help has
 * its meter legends too): a number a newcomer compares with another tool's
 * must say which of the defensible definitions it is.
 */
static const char *const legend[] = {
	"The header",
	" CPU       busy share of each CPU and of all: /proc/stat, all but idle and iowait",
	" Mem       used = MemTotal - MemAvailable (/proc/meminfo): what the kernel could",
	"           not hand out at once. htop's used leaves out buffers and page cache too,",
	"           so it reads lower; free(1) shows both.",
	" Swp       SwapTotal - SwapFree",
	" Tasks     live processes (threads with H) by state; zombie: state Z, as ps shows;",
	"           exited: rows of processes that exited since the last refresh (state X),",
	"           not in the total (x hides or shows them)",
	" Rates     system-wide per second: /proc/stat (ctxsw, intr, forks), /proc/vmstat",
	" Evnts     system calls, failed ones, signals per second, from the kernel's tracepoints",
	" -         not known yet: a rate needs two readings (from the second refresh on)",
	" 0.4       rates under 10 per second carry a decimal: one event every 2.5 s is 0.4",
	" CPU%\u25bd    the sort column and its order (\u25bd descending, \u25b3 ascending)",
};
#define NLEGEND (int)(ARRAY_SIZE(legend) + 1)	/* and a blank line */

/* After every view's keys: what an htop user's fingers would expect otherwise. */
static const char *const htop_keys[] = {
	"Where the keys differ from htop's",
	" Up Down   the selection then stays on its process as rows move (htop: on its line",
	"           unless F); Home and End put it back on a line",
	" Space     htop tags; ktop has no tags and says so (k signals the selected process)",
	" Z         pauses, as in htop; a replay: pause and play (Space too)",
	" s         htop's strace: ktop's own, the process's system calls as they happen",
	" / F3      search, as in htop; \\ F4 filter",
	" [ ]       a replay: the interval before and after (htop's renice: F7 F8, as in htop)",
	" H         a row per thread (htop's H shows or hides user threads)",
	" c         COMMAND: the command line or the name (htop's c tags a tree)",
	" x         exited processes' rows (htop's x: file locks)",
	" C S F2    setup, as in htop; its Theme line changes the colours",
	" l w a i U m p   htop's lsof, wrap, affinity, I/O priority, untag, merge, path: not in ktop",
};
/* The views in the order shown: @under first. Returns how many. */
static size_t help_order(const struct view *under, const struct view **out)
{
	size_t i, n = 0;

	if (under->keys)
		out[n++] = under;
	/* The system views share one table: listed once. */
	for (i = 0; i < ARRAY_SIZE(views); i++)
		if (views[i] != under && views[i]->keys && views[i]->keys != under->keys)
			out[n++] = views[i];
	return n;
}

/* The section line @n is in: "the header", or a view's name. */
static const char *help_section(const struct view *const *order, size_t nv, int n)
{
	size_t t;

	if (n < NLEGEND)
		return "header";
	n -= NLEGEND;
	for (t = 0; t < nv; t++) {
		if (n < (int)order[t]->nkeys + 2)
			return order[t]->name;
		n -= (int)order[t]->nkeys + 2;
	}
	return "htop";
}

/* The widest key label of the views listed: their help starts past it ("Esc q F6 F10" too). */
static int label_width(const struct view *const *order, size_t nv)
{
	int wmax = 11;
	size_t t, k;

	for (t = 0; t < nv; t++)
		for (k = 0; k < order[t]->nkeys; k++)
			if ((int)strlen(order[t]->keys[k].label) > wmax)
				wmax = (int)strlen(order[t]->keys[k].label);
	return wmax;
}

/* Line @n of the list (the legend, a section title or a key), drawn at @y. */
static bool help_line(const struct app *a, const struct view *const *order, size_t nv, int n,
		      int y, int w)
{
	char title[64];
	size_t t;

	if (n < NLEGEND) {
		const char *s = n < (int)ARRAY_SIZE(legend) ? legend[n] : "";

		/* A section's title: not indented. */
		attrset(theme_attr(s[0] && s[0] != ' ' ? EL_LABEL : EL_NORMAL));
		/* The glyphs' line is ASCII where the terminal is. */
		if (a->ascii && strstr(s, "\u25bd"))
			s = " CPU%v     the sort column and its order (v descending, ^ ascending)";
		put_text(y, 0, w, s);
		attrset(theme_attr(EL_NORMAL));
		return true;
	}
	n -= NLEGEND;
	for (t = 0; t < nv; t++) {
		int len = (int)order[t]->nkeys + 2;	/* title, keys, a blank line */

		if (n >= len) {
			n -= len;
			continue;
		}
		if (n == 0) {
			snprintf(title, sizeof(title), "Keys of the %s view", order[t]->name);
			attrset(theme_attr(EL_LABEL));
			put_text(y, 0, w, title);
		} else if (n <= (int)order[t]->nkeys) {
			const struct key_binding *k = &order[t]->keys[n - 1];
			int x = label_width(order, nv) + 2;

			attrset(theme_attr(EL_FOOTER_KEY));
			put_text(y, 1, w - 1, k->label);
			attrset(theme_attr(EL_NORMAL));
			put_text(y, x, w - x, k->help);
		}
		attrset(theme_attr(EL_NORMAL));
		return true;
	}
	if (n < (int)ARRAY_SIZE(htop_keys)) {
		attrset(theme_attr(n ? EL_NORMAL : EL_LABEL));
		put_text(y, 0, w, htop_keys[n]);
		attrset(theme_attr(EL_NORMAL));
		return true;
	}
	return false;
}

/* The view help was opened from: its keys come first. */
static const struct view *help_under(const struct app *a)
{
	return a->depth > 1 ? a->stack[a->depth - 2] : &table_view;
}

/* The lines of the list: the legend, then each view's title, keys and a blank line. */
static size_t help_total(const struct view *const *order, size_t nv)
{
	size_t t, total = NLEGEND + ARRAY_SIZE(htop_keys);

	for (t = 0; t < nv; t++)
		total += order[t]->nkeys + 2;
	return total;
}

static void help_draw(struct app *a, int y0, int h, int w)
{
	const struct view *under = help_under(a);
	const struct view *order[ARRAY_SIZE(views) + 1];
	size_t nv = help_order(under, order);
	char line[256];
	const char *section;
	int y = y0, n, help_scroll;

	list_fit_window(&a->help, help_total(order, nv), h - 3);
	help_scroll = (int)a->help.top;
	attrset(theme_attr(EL_NORMAL));
	for (n = y0; n < y0 + h; n++)
		mvhline(n, 0, ' ', w);
	attrset(theme_attr(EL_TITLE));
	mvhline(y, 0, ' ', w);
	/*
	 * The title names the section at the top of the page, not always the
	 * first; the shorter form where the longer would be cut.
	 */
	section = help_scroll < NLEGEND ? under->name : help_section(order, nv, help_scroll);
	if (!strcmp(section, "htop"))
		snprintf(line, sizeof(line), "ktop %s help: where the keys differ from htop's (any key "
			 "returns; Up/Down/PgUp/PgDn/Home/End scroll)", KTOP_VERSION);
	else
		snprintf(line, sizeof(line), "ktop %s help: %s%s view (any key returns; "
			 "Up/Down/PgUp/PgDn/Home/End scroll)", KTOP_VERSION, help_scroll < NLEGEND ?
			 "the header, then the keys of the " : "keys of the ", section);
	if ((int)strlen(line) > w)
		snprintf(line, sizeof(line), "ktop help: %s%s (any key returns; arrows scroll)",
			 section, strcmp(section, "htop") ? " view" : "'s keys and ktop's");
	put_text(y++, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	snprintf(line, sizeof(line), "Rates are per second over the refresh interval (%.2f s); "
		 "'-' = not known yet. Theme: %.60s.", a->delay_s, a->theme);
	put_text(y++, 0, w, line);
	y++;
	for (n = help_scroll; y < y0 + h && help_line(a, order, nv, n, y, w); n++, y++)
		;
}

static enum action help_key(struct app *a, int ch)
{
	const struct view *order[ARRAY_SIZE(views) + 1];
	size_t total = help_total(order, help_order(help_under(a), order));
	long step = 0;

	if (ch == KEY_DOWN || ch == 'j' || ch == KEY_NPAGE)
		step = ch == KEY_NPAGE ? 10 : 1;
	else if (ch == KEY_UP || ch == 'k' || ch == KEY_PPAGE)
		step = ch == KEY_PPAGE ? -10 : -1;
	else if (ch == KEY_END || ch == 'G')
		step = (long)total;
	else if (ch == KEY_HOME || ch == 'g')
		step = -(long)total;
	if (step) {
		list_scroll(&a->help, total, step);
		return ACT_REDRAW;
	}
	a->help.top = 0;
	app_pop(a);
	return ACT_REDRAW;
}

const struct view help_view = {
	.name = "help",
	.draw = help_draw,
	.key = help_key,
	.fullscreen = true,
	.whole_lines = true,
};
