/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RECNAMES_H
#define KTOP_RECNAMES_H

/*
 * store/recnames: the names of containers and pods (lib/cgname.h) in a
 * recording: table cgname(path, container, pod, ns), one row per cgroup path
 * named, written when the model first has it, so that a replay groups by
 * container, pod and namespace as the live view did (store/replay.c
 * reads it). Made in files of an older ktop when it appends to them: a
 * reader without it finds no table and keeps RUNTIME:ID.
 */

#include <sqlite3.h>
#include <stddef.h>

#include "../lib/cgname.h"

/* The table (made if missing) and its insert statement into *@ins. SQLite's code. */
int recnames_open(sqlite3 *db, sqlite3_stmt **ins);
/*
 * The names of @t not written yet (*@written: how many @t had at the last
 * write; a file's first write writes all). SQLite's code.
 */
int recnames_write(sqlite3_stmt *ins, const struct cgnames *t, size_t *written);

#endif
