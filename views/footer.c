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
#include "../lib/util.h"

static const struct {
	int key;
	const char *name, *what;	/* "F1", "Help  ": padded to 6 as in htop, then a space */
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
	{ '7', "7", "Latncy", true }, { '8', "8", "Conns ", true }, { '9', "9", "Disks ", true },
};

/* The binding of @key in @v's table, or NULL. */
static const struct key_binding *binding(const struct view *v, int key)
{
	size_t i, k;

	for (i = 0; i < v->nkeys; i++)
		for (k = 0; k < ARRAY_SIZE(v->keys[i].keys) && v->keys[i].keys[k]; k++)
			if (v->keys[i].keys[k] == key)
				return &v->keys[i];
	return NULL;
}

/* What entry @i does in view @v: the binding's own word, else the bar's. */
static const char *what(const struct view *v, size_t i)
{
	int f = bar[i].key - KEY_F(1);

	if (v->bar_words && !bar[i].extra && f >= 0 && f < 10 && v->bar_words[f])
		return v->bar_words[f];
	return bar[i].what;
}

/* The length of entry @i's text, padded to 6 as in htop or not. */
static int what_len(const struct view *v, size_t i, bool pad)
{
	const char *s = what(v, i);
	int n = (int)strlen(s);

	if (pad)
		return n > 6 ? n : 6;
	while (n > 0 && s[n - 1] == ' ')
		n--;
	return n;
}

/* An entry and the space after it: "F3Search" never runs into "F4Filter". */
static int entry_len(const struct view *v, size_t i, bool pad)
{
	return (int)strlen(bar[i].name) + what_len(v, i, pad) + 1;
}

/*
 * Which function keys show in @room cells (@show[i]), padded or not (the
 * return). When not all fit, the least needed go first (renice, then setup,
 * sort, tree...); quitting is never one of them: at 80 columns a newcomer
 * must still see how to leave. A replay offers no renice or kill (@replay).
 */
static bool bar_pick(const struct view *v, int room, bool replay, bool *show)
{
	static const int drop[] = { KEY_F(8), KEY_F(7), KEY_F(2), KEY_F(5), KEY_F(6),
				    KEY_F(4), KEY_F(9), KEY_F(3), KEY_F(1) };
	int x = 0, pass;
	size_t i, d;

	for (pass = 0; pass < 2; pass++) {
		bool pad = pass == 0;

		x = 0;
		for (i = 0; i < ARRAY_SIZE(bar); i++) {
			show[i] = v->keys && !bar[i].extra && binding(v, bar[i].key) &&
				  !(replay && bar[i].key >= KEY_F(7) && bar[i].key <= KEY_F(9));
			if (show[i])
				x += entry_len(v, i, pad);
		}
		if (x <= room)
			return pad;
	}
	for (d = 0; d < ARRAY_SIZE(drop) && x > room; d++)
		for (i = 0; i < ARRAY_SIZE(bar); i++)
			if (show[i] && bar[i].key == drop[d]) {
				show[i] = false;
				x -= entry_len(v, i, false);
			}
	return false;
}

void footer_draw(struct app *a, int y, int w)
{
	const struct view *v = a->stack[a->depth - 1];
	const struct rowset *rs = &a->rows;
	char right[320], user[64] = "";
	bool show[ARRAY_SIZE(bar)];
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
		snprintf(right, sizeof(right), "%s%s%s%s%s%s%s%ssort:%s%s", a->follow ? "follow " : "",
			 rs->tree ? "tree " : "", rs->hide_kthreads ? "kthreads:hidden " : "", user,
			 rs->filter[0] ? "filter:" : "", rs->filter,
			 rs->filter[0] ? " " : "", rs->exited == EXITED_HIDE ? "exited:hidden " :
			 rs->exited == EXITED_MIXED ? "exited:mixed " : "", columns[rs->sort_col].key,
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
	pad = bar_pick(v, w - rw - 1 - x, a->replay, show);
	for (i = 0; i < ARRAY_SIZE(bar); i++) {
		int nl = (int)strlen(bar[i].name), len;

		if (bar[i].extra)	/* the views by number, where room is left */
			show[i] = v->keys && binding(v, bar[i].key) &&
				  x + entry_len(v, i, pad) <= w - rw - (rw > 0);
		if (!show[i])
			continue;
		len = entry_len(v, i, pad);
		if (x + len > w - rw - (rw > 0))
			continue;
		attrset(theme_attr(EL_FOOTER_KEY));
		put_text(y, x, w - x, bar[i].name);
		attrset(theme_attr(EL_FOOTER_TEXT));
		put_text(y, x + nl, what_len(v, i, pad), what(v, i));
		x += len;
	}
	attrset(theme_attr(EL_FOOTER_TEXT));
	if (rw)
		put_text(y, w - rw, rw, right);
	attrset(theme_attr(EL_NORMAL));
}
