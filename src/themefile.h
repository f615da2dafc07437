/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_THEMEFILE_H
#define KTOP_THEMEFILE_H

/*
 * Finding and reading theme files (themes/NAME.theme, the user's themes), and
 * the compiled-in ones; lib/themedef.h parses them.
 */

#include <stddef.h>

#include "../lib/themedef.h"

/*
 * theme_load - find theme @name (or read the file @name when it has a '/') and parse it
 *
 * A name is looked up in the theme directories, whose files (and the
 * directories above them) must be root's or the user's and not writable by
 * others (src/conffile.h); a path (from --theme) is read as given.
 *
 * On error @err says "FILE:LINE: what" (or that no such theme exists) and @out
 * is untouched. Returns 0 or -errno.
 */
int theme_load(const char *name, struct theme_def *out, char *err, size_t errsz);
/*
 * Read theme @name now (before tracing starts and CMD forks: a file that
 * blocks must not hold them up); the next theme_load of @name returns it.
 */
void theme_preload(const char *name);

/* The compiled-in copy of themes/default.theme or mono.theme; -ENOENT for others. */
int theme_builtin(const char *name, struct theme_def *out);

/* Names of the themes found, sorted, duplicates removed; returns how many. */
size_t theme_list(char names[][THEME_NAME_MAX], size_t max);


#endif
