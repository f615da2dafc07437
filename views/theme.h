/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_THEME_H
#define KTOP_THEME_H

/*
 * The look of each element of the screen (enum elem, src/themefile.h), from the
 * theme files in themes/. Views ask theme_attr() for an element; no view names a
 * colour.
 */

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "../src/themefile.h"

/*
 * theme_use - load theme @name and make it the look of the screen
 *
 * Without colours (@color false: NO_COLOR, or a terminal without them) the theme
 * is "mono" whatever @name says. On error @err says which file and line, and the
 * default theme is used. Returns 0 or -errno. Call after curses started.
 */
int theme_use(const char *name, bool color, char *err, size_t errsz);
/* The name of the theme in use. */
const char *theme_current(void);
/* Can the terminal show colours at all (and NO_COLOR is not set)? */
bool theme_has_color(void);
attr_t theme_attr(enum elem e);

#endif
