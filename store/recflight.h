/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RECFLIGHT_H
#define KTOP_RECFLIGHT_H

/*
 * store/recflight: the flight recorder's saves in a recording: table
 * flight(wall, path, why, bytes), one row per trace.dat written while
 * recording (the time it was saved, where, what asked for it). Made in the
 * file at the first save; a reader that does not know it ignores it.
 */

#include <sqlite3.h>
#include <stdint.h>

/* Add a row (the table made if missing). SQLite's code. */
int recflight_add(sqlite3 *db, double wall, const char *path, const char *why, uint64_t bytes);

#endif
