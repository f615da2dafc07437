// SPDX-License-Identifier: GPL-2.0-only
#include "theme.h"

/*
 * The built-in look: colours for dark terminals, and attributes alone for mono
 * (NO_COLOR, terminals without colour). Colour pairs use the terminal's default
 * background (-1) so ktop blends into the user's scheme.
 */
struct elem_style {
	short fg, bg;
	attr_t color_attr;	/* with colours */
	attr_t mono_attr;	/* without */
};

static const struct elem_style styles[EL_NR] = {
	[EL_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
	[EL_TITLE] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[EL_LABEL] = { COLOR_CYAN, -1, A_NORMAL, A_BOLD },
	[EL_VALUE] = { -1, -1, A_BOLD, A_NORMAL },
	[EL_METER] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[EL_METER_HIGH] = { COLOR_RED, -1, A_BOLD, A_BOLD },
	[EL_TABLE_HEADER] = { COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_REVERSE },
	[EL_SORT_COL] = { COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD | A_UNDERLINE },
	[EL_SELECTED] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[EL_RATE_ZERO] = { -1, -1, A_DIM, A_DIM },
	[EL_RATE_HIGH] = { COLOR_RED, -1, A_BOLD, A_BOLD },
	[EL_STATE_RUN] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[EL_STATE_D] = { COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[EL_FOOTER_KEY] = { -1, -1, A_BOLD, A_BOLD },
	[EL_FOOTER_TEXT] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[EL_MESSAGE] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_REVERSE },
	[EL_CHANGED] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE },
};

static attr_t attrs[EL_NR];

void theme_init(bool color)
{
	int i;

	if (color && has_colors() && start_color() == OK) {
		use_default_colors();
		for (i = 0; i < EL_NR; i++) {
			if (styles[i].fg == -1 && styles[i].bg == -1) {
				attrs[i] = styles[i].color_attr;
				continue;
			}
			init_pair((short)(i + 1), styles[i].fg, styles[i].bg);
			attrs[i] = COLOR_PAIR(i + 1) | styles[i].color_attr;
		}
		return;
	}
	for (i = 0; i < EL_NR; i++)
		attrs[i] = styles[i].mono_attr;
}

attr_t theme_attr(enum elem e)
{
	return attrs[e];
}
