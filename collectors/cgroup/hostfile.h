/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_HOSTFILE_H
#define KTOP_HOSTFILE_H

/*
 * collectors/cgroup/hostfile: the container runtimes' files under a host's root
 * ("/", or KTOP_HOST_ROOT), read by a ktop that is often root and that shows
 * what it reads to whoever reads its output (a dashboard, /metrics). A name
 * is taken only from a file the runtime could have written:
 *  - its path is resolved inside the root (openat2 RESOLVE_IN_ROOT: a link,
 *    absolute or "..", never leads out of it), and its last component is no
 *    link at all (O_NOFOLLOW: config.v2.json -> /root/secret is refused, as
 *    a link to a file inside the root is);
 *  - the file is regular, of root or of ktop's user, has one name, and
 *    neither group nor others may write it;
 *  - its directory is of root or of ktop's user, and neither group nor others
 *    may write it (but with the sticky bit): nobody else could have put or
 *    swapped the file there.
 * A directory listed (the kubelet's pod directories) is checked as a file's
 * directory is. What is refused is as if it were not there: the cgroup keeps
 * RUNTIME:ID.
 */

#include <dirent.h>
#include <stddef.h>

/*
 * hostfile_open - @rel (relative, '/'-separated) under the directory @root,
 * for reading, when it passes the checks above. Returns the descriptor (the
 * caller closes it), or -1 with errno (EPERM: refused by a check).
 */
int hostfile_open(const char *root, const char *rel);

/* hostfile_opendir - the directory @rel under @root, checked alike; NULL with errno. */
DIR *hostfile_opendir(const char *root, const char *rel);

#endif
