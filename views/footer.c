// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bottom line: the function keys as in htop, or a notice, and the active
 * filter and sort. A function key shows only when the view on top binds it: the
 * bar is read from the same key table the view dispatches on.
 */
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"
#include "../model/util.h"

static const struct {
	int key;
	const char *name, *what;	/* "F1", "Help  ": padded to 6 as in htop */
	bool extra;			/* shown in the room the function keys leave */
} bar[] = {
	{ KEY_F(1), "F1", "Help  ", false }, { KEY_F(2), "F2", "Setup ", false },
	{ KEY_F(3), "F3", "Views ", false }, { KEY_F(4), "F4", "Filter", false },
	{ KEY_F(5), "F5", "Tree  ", false }, { KEY_F(6), "F6", "SortBy", false },
	{ KEY_F(7), "F7", "Nice -", false }, { KEY_F(8), "F8", "Nice +", false },
	{ KEY_F(9), "F9", "Kill  ", false }, { KEY_F(10), "F10", "Quit  ", false },
	/* The views by number, where the terminal is wide enough. */
	{ '1', "1", "Procs ", true }, { '2', "2", "Sysc  ", true }, { '3', "3", "Errors", true },
	{ '4', "4", "Subsys", true }, { '5', "5", "Signal", true }, { '6', "6", "Groups", true },
};

static bool bound(const struct view *v, int key)
{
	size_t i, k;

	for (i = 0; i < v->nkeys; i++)
		for (k = 0; k < ARRAY_SIZE(v->keys[i].keys) && v->keys[i].keys[k]; k++)
			if (v->keys[i].keys[k] == key)
				return true;
	return false;
}

/* The length of entry @i's text, padded to 6 as in htop or not. */
static int what_len(size_t i, bool pad)
{
	int n = (int)strlen(bar[i].what);

	while (!pad && n > 0 && bar[i].what[n - 1] == ' ')
		n--;
	return n;
}

/*
 * The function keys' width with padding, or without it (then a space between
 * entries); the extra entries take what room is left.
 */
static int bar_width(const struct view *v, bool pad)
{
	int x = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bar) && v->keys; i++)
		if (!bar[i].extra && bound(v, bar[i].key))
			x += (int)strlen(bar[i].name) + what_len(i, pad) + !pad;
	return x;
}

void footer_draw(struct app *a, int y, int w)
{
	const struct view *v = a->stack[a->depth - 1];
	const struct rowset *rs = &a->rows;
	char right[240], user[64] = "";
	int x = 0, rw;
	bool pad;
	size_t i;

	attrset(theme_attr(EL_FOOTER_TEXT));
	mvhline(y, 0, ' ', w);
	if (a->message[0] && a->now_ns < a->message_until) {
		attrset(theme_attr(EL_MESSAGE));
		mvhline(y, 0, ' ', w);
		put_text(y, 0, w, a->message);
		attrset(theme_attr(EL_NORMAL));
		return;
	}
	if (a->stack[a->depth - 1]->hint) {
		put_text(y, 0, w, a->stack[a->depth - 1]->hint);
		attrset(theme_attr(EL_NORMAL));
		return;
	}
	if (rs->filter_uid >= 0)
		snprintf(user, sizeof(user), "user:%lld ", (long long)rs->filter_uid);
	/* A system view's own order and filter; else the process table's. */
	if (!sysview_status(a, right, sizeof(right)))
		snprintf(right, sizeof(right), "%s%s%s%s%s%ssort:%s%s", a->follow ? "follow " : "",
			 rs->tree ? "tree " : "", user, rs->filter[0] ? "filter:" : "", rs->filter,
			 rs->filter[0] ? " " : "", columns[rs->sort_col].key,
			 rs->sort_dir == SORT_DESC ? "-" : "+");
	rw = (int)strlen(right);
	if (rw >= w)
		rw = 0;
	if (a->notice[0] && w - rw - 1 > 0) {
		/* What became of CMD (ktop -- CMD) first; the keys that fit after it. */
		int nw = (int)strlen(a->notice) < w - rw - 1 ? (int)strlen(a->notice) : w - rw - 1;

		attrset(theme_attr(EL_MESSAGE));
		put_text(y, 0, nw, a->notice);
		x = nw + 2;
	}
	/* What is in effect always shows; the bar gives up its padding, then keys. */
	pad = bar_width(v, true) <= w - rw - 1 - x;
	for (i = 0; i < ARRAY_SIZE(bar) && v->keys; i++) {
		int nl = (int)strlen(bar[i].name), len = nl + what_len(i, pad) + !pad;

		if (!bound(v, bar[i].key))
			continue;
		if (x + len > w - rw - (rw > 0))
			break;
		attrset(theme_attr(EL_FOOTER_KEY));
		put_text(y, x, w - x, bar[i].name);
		attrset(theme_attr(EL_FOOTER_TEXT));
		put_text(y, x + nl, what_len(i, pad), bar[i].what);
		x += len;
	}
	attrset(theme_attr(EL_FOOTER_TEXT));
	if (rw)
		put_text(y, w - rw, rw, right);
	attrset(theme_attr(EL_NORMAL));
}
