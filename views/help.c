// SPDX-License-Identifier: GPL-2.0-only
/* The help screen, generated from the key table the table view dispatches on. */
#include <stdio.h>

#include "theme.h"
#include "view.h"
#include "../src/util.h"

static int help_scroll;

static void help_draw(struct app *a, int y0, int h, int w)
{
	/* The keys of the view help was opened from. */
	const struct view *under = a->depth > 1 ? a->stack[a->depth - 2] : &table_view;
	const struct key_binding *keys = under->keys ? under->keys : table_keys;
	int nkeys = under->keys ? (int)under->nkeys : (int)table_nkeys;
	char line[256];
	int y = y0, i;

	attrset(theme_attr(EL_TITLE));
	snprintf(line, sizeof(line), "ktop %s - %s view keys (any key returns; Up/Down scroll)",
		 KTOP_VERSION, under->name);
	put_text(y++, 0, w, line);
	attrset(theme_attr(EL_NORMAL));
	snprintf(line, sizeof(line), "Rates are per second over the refresh interval (%.2f s); "
		 "'-' = not known yet.", a->delay_s);
	put_text(y++, 0, w, line);
	y++;
	if (help_scroll > nkeys - 1)
		help_scroll = nkeys - 1;
	for (i = help_scroll; i < nkeys && y < y0 + h; i++, y++) {
		attrset(theme_attr(EL_FOOTER_KEY));
		put_text(y, 1, w - 1, keys[i].label);
		attrset(theme_attr(EL_NORMAL));
		put_text(y, 12, w - 12, keys[i].help);
	}
}

static enum action help_key(struct app *a, int ch)
{
	if (ch == KEY_DOWN || ch == 'j') {
		help_scroll++;
		return ACT_REDRAW;
	}
	if (ch == KEY_UP || ch == 'k') {
		if (help_scroll > 0)
			help_scroll--;
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
};
