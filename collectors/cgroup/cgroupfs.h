/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGROUPFS_H
#define KTOP_CGROUPFS_H

/*
 * collectors/cgroup/cgroupfs: the reading side of lib/cgroup. A process's cgroup is
 * read once, on its first sight and after an exec (open, read, close: not
 * worth a descriptor kept open), and again when it is seen to move: the
 * tracepoint cgroup:cgroup_attach_task says so where it exists, else a
 * periodic re-read of the rows on screen.
 */

#include <stddef.h>

#include "../../lib/cgroup.h"

/* Bytes of /proc/PID/cgroup read at most (13 v1 hierarchies of long paths fit). */
#define CGROUP_FILE_MAX 65536

/*
 * cgroupfs_read - the cgroup (cgroup_parse_proc()'s choice) of the process or
 * thread at @rel ("PID" or "PID/task/TID", relative to @dirfd, a /proc
 * directory; or AT_FDCWD and "/proc/PID"), read from @rel/cgroup into @out
 * (@cap bytes, CGROUP_PATH_MAX is the model's). A file longer than
 * CGROUP_FILE_MAX is parsed up to its last whole line.
 * Returns the path's length, or -errno: -ENOENT or -ESRCH when the process is
 * gone, -EINVAL when nothing in the file parses.
 */
int cgroupfs_read(int dirfd, const char *rel, char *out, size_t cap);

/*
 * cgroupfs_attach_event - does tracefs at @tracing_dir ("/sys/kernel/tracing")
 * have the event cgroup:cgroup_attach_task with the fields a move needs
 * (pid, dst_root: 0 for the v2 hierarchy, dst_path)? Reads its format file
 * only; enables nothing.
 * Returns 1 if so, 0 if the event or a field is missing, -errno when the
 * format cannot be read (-EACCES without permission).
 */
int cgroupfs_attach_event(const char *tracing_dir);

#endif
