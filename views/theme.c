// SPDX-License-Identifier: GPL-2.0-only
/*
 * Theme files (lib/themedef.c parses them, src/themefile.c reads them) turned into curses attributes: one
 * colour pair per element, with the colours a terminal of 8, 16 or 256 colours
 * can show. The only colours in C are those of the compiled-in default theme,
 * which is themes/default.theme itself.
 */
#include "theme.h"

#include <stdio.h>
#include <string.h>

static attr_t attrs[EL_NR];
static char current[THEME_NAME_MAX];
static bool colors_started, colors_ok, default_colors;

static attr_t curses_attrs(unsigned bits)
{
	attr_t a = A_NORMAL;

	if (bits & TA_BOLD)
		a |= A_BOLD;
	if (bits & TA_DIM)
		a |= A_DIM;
	if (bits & TA_REVERSE)
		a |= A_REVERSE;
	if (bits & TA_UNDERLINE)
		a |= A_UNDERLINE;
	if (bits & TA_STANDOUT)
		a |= A_STANDOUT;
	if (bits & TA_ITALIC)
		a |= A_ITALIC;
	return a;
}

static short term_color(struct theme_color c, bool fg)
{
	short v = themedef_color_for(c, COLORS);

	/* Without default colours, "default" is the classic white on black. */
	if (v < 0 && !default_colors)
		v = fg ? COLOR_WHITE : COLOR_BLACK;
	return v;
}

static void apply(const struct theme_def *d, bool color)
{
	int e;

	for (e = 0; e < EL_NR; e++) {
		const struct theme_style *s = &d->st[e];
		short fg, bg;

		attrs[e] = curses_attrs(s->attrs);
		if (!color)
			continue;
		fg = term_color(s->fg, true);
		bg = term_color(s->bg, false);
		if (fg < 0 && bg < 0)
			continue;
		if (e + 1 >= COLOR_PAIRS)
			continue;	/* a terminal with very few pairs: attributes only */
		init_pair((short)(e + 1), fg, bg);
		attrs[e] |= COLOR_PAIR(e + 1);
	}
	bkgd(' ' | attrs[EL_NORMAL]);
	snprintf(current, sizeof(current), "%s", d->name);
}

bool theme_has_color(void)
{
	return colors_ok;
}

bool theme_colors(bool color)
{
	if (color && !colors_started) {
		colors_started = true;
		colors_ok = has_colors() && start_color() == OK;
		default_colors = colors_ok && use_default_colors() == OK;
	}
	return color && colors_ok;
}

void theme_apply(const struct theme_def *d, bool color)
{
	apply(d, color);
	clearok(curscr, TRUE);
}

const char *theme_current(void)
{
	return current;
}

attr_t theme_attr(enum elem e)
{
	return attrs[e];
}
