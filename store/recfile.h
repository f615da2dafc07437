/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RECFILE_H
#define KTOP_RECFILE_H

/*
 * The files of a recording (-w): the database, its -wal, -shm and -journal.
 * They hold every process's command line, and they may sit in a directory
 * other users write to (/tmp, a shared log directory): each must be a regular
 * file of ktop's user that nobody else can write and that has no other name,
 * created new (O_EXCL) or checked on the descriptor that is then used. Nothing
 * another user planted is written to, read back or taken over.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/*
 * recfile_check_dir - the directory of @path: refused when group or others
 * may write to it without the sticky bit (they could rename or remove the
 * recording and put their own file in its place). 0, or -1 with @err.
 */
int recfile_check_dir(const char *path, char *err, size_t errsz);

/*
 * recfile_check_sides - the -wal, -shm and -journal of @path that exist
 * must be ktop's user's own (recfile_check). 0, or -1 with @err naming one.
 */
int recfile_check_sides(const char *path, char *err, size_t errsz);

/*
 * recfile_open - the database file, for reading and writing: created new
 * with mode 0600 (O_EXCL: nothing planted at the name is used), or the
 * existing one when it passes recfile_check. Returns the descriptor (the
 * caller closes it), or -1 with @err.
 */
int recfile_open(const char *path, char *err, size_t errsz);

/*
 * recfile_check - is @sb (of @name) a file ktop may write: regular, of
 * ktop's user (the effective uid), one link, not writable by group or
 * others? 0, or -1 with @err saying which.
 */
int recfile_check(const char *name, const struct stat *sb, char *err, size_t errsz);

/* A regular file of ktop's user (what retention may count and remove). */
bool recfile_owned(const struct stat *sb);

/*
 * recfile_guard - while on (calls nest), every file SQLite's unix VFS opens in
 * this process is created new (O_EXCL) or checked like recfile_check on the
 * descriptor it gets, and never through a symbolic link: the guard against
 * a -wal, -shm or -journal planted between ktop's own checks and SQLite's
 * open. Returns 0, or -1 when SQLite lets no open be checked (@err).
 */
int recfile_guard(bool on, char *err, size_t errsz);

/* The guard's last refusal (one line), or "" when it refused nothing since it was cleared. */
const char *recfile_refused(void);
void recfile_clear_refused(void);

#endif
