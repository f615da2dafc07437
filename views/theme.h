/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_THEME_H
#define KTOP_THEME_H

/*
 * The look of each element of the screen (enum elem, lib/themedef.h), from the
 * theme files in themes/. Views ask theme_attr() for an element; no view names a
 * colour.
 */

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "../lib/themedef.h"

/*
 * theme_colors - may the screen use colours?
 *
 * @color false (NO_COLOR) or a terminal without colours: no. Starts curses'
 * colours the first time it says yes. Call after curses started.
 */
bool theme_colors(bool color);
/* Make @d (src/themefile.c read it) the look of the screen, with or without colours. */
void theme_apply(const struct theme_def *d, bool color);
/* The name of the theme in use. */
const char *theme_current(void);
/* Can the terminal show colours at all (and NO_COLOR is not set)? */
bool theme_has_color(void);
attr_t theme_attr(enum elem e);

#endif
