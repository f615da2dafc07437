/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_COMPLETION_H
#define KTOP_COMPLETION_H

#include <stdio.h>

/*
 * completion_print - ktop --completion WHAT
 * @what: "bash" (the completion script) or "themes" (the names --theme takes)
 *
 * Returns 0, or -1 for another @what.
 */
int completion_print(FILE *f, const char *what);

#endif
