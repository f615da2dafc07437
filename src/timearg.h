/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TIMEARG_H
#define KTOP_TIMEARG_H

/*
 * A time as a user types it (--begin, --end, the replay's jump prompt), in
 * local time: HH:MM[:SS], YYYY-MM-DD[ HH:MM[:SS]] (or with a T), or seconds
 * since 1970 (fractions allowed).
 */

#include <stdbool.h>

/*
 * time_parse - @s as seconds since 1970
 * @ref: the day HH:MM[:SS] is on (seconds since 1970)
 * @roll: HH:MM[:SS] more than half a day before @ref is the next day's (a
 *	  night's recording)
 *
 * Returns 0, or -1 when @s is none of the forms.
 */
int time_parse(const char *s, double ref, bool roll, double *out);

#endif
