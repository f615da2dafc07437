// SPDX-License-Identifier: GPL-2.0-only
/* A one-line editor on the bottom line (filter, delay). */
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "view.h"

static void prompt_draw(struct app *a, int y0, int h, int w)
{
	const struct prompt_state *pr = &a->prompt;

	(void)h;
	attrset(theme_attr(EL_FOOTER_KEY));
	mvhline(y0, 0, ' ', w);
	put_text(y0, 0, w, pr->label);
	attrset(theme_attr(EL_NORMAL));
	put_text(y0, (int)strlen(pr->label), w - (int)strlen(pr->label), pr->text);
	attrset(theme_attr(EL_SELECTED));
	put_text(y0, (int)(strlen(pr->label) + pr->len), 1, " ");	/* the cursor */
	attrset(theme_attr(EL_NORMAL));
}

static enum action prompt_key(struct app *a, int ch)
{
	struct prompt_state *pr = &a->prompt;
	enum action act;

	switch (ch) {
	case 27:	/* Esc */
		app_pop(a);
		return pr->done(a, NULL);
	case '\n':
	case '\r':
	case KEY_ENTER:
		app_pop(a);
		act = pr->done(a, pr->text);
		return act;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (pr->len)
			pr->text[--pr->len] = '\0';
		break;
	case 21:	/* ^U */
		pr->len = 0;
		pr->text[0] = '\0';
		break;
	default:
		if (pr->key && (act = pr->key(a, ch, pr->text)) != ACT_NONE)
			return act;
		if (ch < 0x20 || ch > 0x7e || pr->len + 1 >= sizeof(pr->text))
			return ACT_NONE;
		pr->text[pr->len++] = (char)ch;
		pr->text[pr->len] = '\0';
		break;
	}
	if (pr->change)
		pr->change(a, pr->text);
	return ACT_REDRAW;
}

static const struct view prompt_view = {
	.name = "prompt",
	.draw = prompt_draw,
	.key = prompt_key,
	.overlay = true,
};

void prompt_open(struct app *a, const char *label, const char *initial, prompt_done_fn done,
		 prompt_change_fn change)
{
	struct prompt_state *pr = &a->prompt;

	snprintf(pr->label, sizeof(pr->label), "%s", label);
	snprintf(pr->text, sizeof(pr->text), "%s", initial ? initial : "");
	pr->len = strlen(pr->text);
	pr->done = done;
	pr->change = change;
	pr->key = NULL;
	app_push(a, &prompt_view);
}

void prompt_keys(struct app *a, prompt_key_fn key)
{
	a->prompt.key = key;
}

void prompt_relabel(struct app *a, const char *label)
{
	snprintf(a->prompt.label, sizeof(a->prompt.label), "%s", label);
}
