/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TEXTFILE_H
#define KTOP_TEXTFILE_H

/*
 * --textfile DIR: the metrics in the text format, in DIR/ktop.prom, for
 * node_exporter's textfile collector. Each write is atomic: a new file in DIR
 * (O_CREAT|O_EXCL: never through a symbolic link planted at its name, and not
 * named *.prom, which the collector would read), written whole, then renamed
 * over ktop.prom (rename replaces a link at that name; it never writes through
 * it). Readers see the old file or the new one, never part of one. DIR itself
 * is opened once, as given (a link to a directory is followed: it is the
 * administrator's path), and used by descriptor from then on.
 *
 * The file is made mode 0644 whatever the umask: node_exporter runs as
 * another user. Writes are not fsync'ed unless asked: the file is rewritten
 * every interval, and an fsync can stall the refresh on a busy disk.
 */

#include <stdbool.h>
#include <stddef.h>

#define TEXTFILE_NAME "ktop.prom"

struct textfile;

/*
 * Open @dir for writing DIR/ktop.prom, and check now that a file can be made
 * in it (so that a bad --textfile fails at start-up). Returns NULL with a
 * one-line reason in @err (and errno set).
 */
struct textfile *textfile_open(const char *dir, char *err, size_t errlen);

/*
 * Replace DIR/ktop.prom with @len bytes of @data, fsync'ed first when @sync.
 * Returns 0, or a negative errno with a one-line reason in @err (ENOSPC, EIO,
 * ...; the old file is left as it was and no temporary file is left behind).
 */
int textfile_write(struct textfile *tf, const void *data, size_t len, bool sync, char *err,
		   size_t errlen);

/*
 * Close; with @remove, unlink DIR/ktop.prom too (ktop's metrics stop when ktop
 * does, rather than stay frozen in node_exporter's). NULL is fine.
 */
void textfile_close(struct textfile *tf, bool remove);

#endif
