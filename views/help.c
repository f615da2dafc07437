// SPDX-License-Identifier: GPL-2.0-only
/*
 * The help screen, generated from the key tables the views dispatch on: a key
 * cannot work without being listed here, nor be listed without working. The
 * keys of the view help was opened from come first, then every other view's.
 */
#include <stdio.h>

#include "theme.h"
#include "view.h"
#include "../model/util.h"

/* Every view with a key table, in the order help shows them. */
static const struct view *const views[] = {
	&table_view, &sys_views[SV_SYSCALLS], &procview_view, &evlist_view, &snapshot_view,
	&menu_view, &setup_view,
};

static int help_scroll;

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

/* Line @n of the list (a section title or a key), drawn at @y. */
static bool help_line(const struct view *const *order, size_t nv, int n, int y, int w)
{
	char title[64];
	size_t t;

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

			attrset(theme_attr(EL_FOOTER_KEY));
			put_text(y, 1, w - 1, k->label);
			attrset(theme_attr(EL_NORMAL));
			put_text(y, 13, w - 13, k->help);
		}
		attrset(theme_attr(EL_NORMAL));
		return true;
	}
	return false;
}

static void help_draw(struct app *a, int y0, int h, int w)
{
	const struct view *under = a->depth > 1 ? a->stack[a->depth - 2] : &table_view;
	const struct view *order[ARRAY_SIZE(views) + 1];
	size_t nv = help_order(under, order), t;
	char line[256];
	int y = y0, n, total = 0;

	for (t = 0; t < nv; t++)
		total += (int)order[t]->nkeys + 2;
	if (help_scroll > total - (h - 3))
		help_scroll = total - (h - 3) > 0 ? total - (h - 3) : 0;
	attrset(theme_attr(EL_NORMAL));
	for (n = y0; n < y0 + h; n++)
		mvhline(n, 0, ' ', w);
	attrset(theme_attr(EL_TITLE));
	snprintf(line, sizeof(line), "ktop %s - %s view keys (any key returns; Up/Down scroll)",
		 KTOP_VERSION, under->name);
	put_text(y++, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	snprintf(line, sizeof(line), "Rates are per second over the refresh interval (%.2f s); "
		 "'-' = not known yet. Theme: %.60s.", a->delay_s, a->theme);
	put_text(y++, 0, w, line);
	y++;
	for (n = help_scroll; y < y0 + h && help_line(order, nv, n, y, w); n++, y++)
		;
}

static enum action help_key(struct app *a, int ch)
{
	if (ch == KEY_DOWN || ch == 'j' || ch == KEY_NPAGE) {
		help_scroll += ch == KEY_NPAGE ? 10 : 1;
		return ACT_REDRAW;
	}
	if (ch == KEY_UP || ch == 'k' || ch == KEY_PPAGE) {
		help_scroll -= ch == KEY_PPAGE ? 10 : 1;
		if (help_scroll < 0)
			help_scroll = 0;
		return ACT_REDRAW;
	}
	help_scroll = 0;
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
