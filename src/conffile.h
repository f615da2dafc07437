/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CONFFILE_H
#define KTOP_CONFFILE_H

/*
 * Configuration files (ktoprc, themes) read and written the way ssh treats
 * its own (StrictModes): root may run ktop with HOME or XDG_CONFIG_HOME in a
 * directory somebody else controls (sudo -E), so a file is used only when it
 * and every directory above it belong to root or to the effective user and
 * nobody else can write them. A world-writable directory is accepted only when
 * it is sticky and root's (/tmp): others cannot rename or remove what is ours
 * in it. Files are opened without following a final symlink and without
 * blocking (a FIFO is refused, not waited on), and must be regular files.
 * Errors: -errno, with a sentence in @why.
 */

#include <stddef.h>
#include <sys/types.h>

/* Is @dir, and every directory above it, safe as described? 0 or -errno. */
int conf_dir_safe(const char *dir, char *why, size_t n);

/*
 * conf_read - read a whole small configuration file into @buf, NUL-terminated
 * @strict: also check ownership and permissions of the file and its
 *	directories (false for a path the user typed on the command line:
 *	their own choice, still a regular file, still no waiting)
 *
 * Returns the length, or -errno (-ENOENT when there is no file) with @why set.
 */
ssize_t conf_read(const char *path, char *buf, size_t size, int strict, char *why, size_t n);

/*
 * conf_write - replace @path by @len bytes of @text, atomically: a new file
 * made with mkstemp() in the same (safe) directory, fsync()ed, renamed over
 * @path. Never follows a symlink at @path or at a temporary name.
 */
int conf_write(const char *path, const char *text, size_t len, char *why, size_t n);

/* Does @s hold a byte below 0x20 or DEL (a newline in a name, an escape)? */
int has_control(const char *s);

#endif
