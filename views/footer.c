// SPDX-License-Identifier: GPL-2.0-only
/* The bottom line: the main keys as in htop, or a notice, and the active filter/sort. */
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"
#include "../src/util.h"

static const struct {
	const char *key, *what;
} footer_keys[] = {
	{ "F1", "Help" }, { "F4", "Filter" }, { "F6", "Sort" }, { "H", "Threads" },
	{ "d", "Delay" }, { "Spc", "Pause" }, { "q", "Quit" },
};

void footer_draw(struct app *a, int y, int w)
{
	char right[200];
	int x = 0;
	size_t i;

	attrset(theme_attr(EL_FOOTER_TEXT));
	mvhline(y, 0, ' ', w);
	if (a->message[0] && now_mono_ns() < a->message_until) {
		attrset(theme_attr(EL_MESSAGE));
		put_text(y, 0, w, a->message);
		attrset(theme_attr(EL_NORMAL));
		return;
	}
	if (a->stack[a->depth - 1]->hint) {
		put_text(y, 0, w, a->stack[a->depth - 1]->hint);
		attrset(theme_attr(EL_NORMAL));
		return;
	}
	for (i = 0; i < ARRAY_SIZE(footer_keys) && x < w; i++) {
		attrset(theme_attr(EL_FOOTER_KEY));
		put_text(y, x, w - x, footer_keys[i].key);
		x += (int)strlen(footer_keys[i].key);
		attrset(theme_attr(EL_FOOTER_TEXT));
		put_text(y, x, w - x, footer_keys[i].what);
		x += (int)strlen(footer_keys[i].what) + 1;
	}
	snprintf(right, sizeof(right), "%s%s%s sort:%s%s", a->model.filter[0] ? "filter:" : "",
		 a->model.filter, a->model.filter[0] ? " " : "",
		 columns[a->model.sort_col].key, a->model.sort_dir == SORT_DESC ? "-" : "+");
	if ((int)strlen(right) < w - x)
		put_text(y, w - (int)strlen(right), (int)strlen(right), right);
	attrset(theme_attr(EL_NORMAL));
}
