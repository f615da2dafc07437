/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_GROUPS_H
#define KTOP_GROUPS_H

/*
 * tables/groups: the process table's rows summed per group, the group being
 * the command name, the user, the cgroup path, the systemd unit or the
 * container (enum cgroup_group_by, lib/cgroup.h). A group's number in a
 * column is the sum of its rows' numbers in that column, the rows of
 * processes that exited in the interval included, so the sum of a group's
 * rows is the group's row, always (tests/unit/test_views.c). Event counts
 * are also kept since the group was first seen.
 *
 * The rows are the model's tasks seen this tick and focused: the process
 * table's own filters (text, user) are the table's, not the groups'.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../lib/cgroup.h"
#include "../lib/lathist.h"
#include "columns.h"
#include "../lib/strpool.h"

/* Groups kept; past it, those without rows this tick are forgotten. */
#define GROUPS_MAX 4096

struct group {
	const char *key;		/* interned (groups.keys) */
	uint32_t rows;			/* rows this tick (processes, or threads with -H) */
	double sum[COL_NR];		/* per summed column (groups_col_sums), known values */
	uint32_t known[COL_NR];		/* rows whose value was known */
	uint64_t total[CNT_NR];		/* counts since the group was first seen */
	bool have_total[CNT_NR];	/* some interval's count was known */
	uint64_t seen_tick;		/* the last tick it had rows */
	/* Its rows' timed calls of this tick (sc_p99_us), and the longest. */
	struct lathist sc_hist;
	uint64_t sc_max_ns;
	/*
	 * Its cgroup (cgname_group_dir() of its first row's path; interned in
	 * keys; NULL when the group is no one cgroup) and that row's process,
	 * whose /proc/PID/cgroup finds it in each v1 hierarchy: what
	 * collectors/cgroup/cgfiles.c reads the group's resources from.
	 */
	const char *dir;
	pid_t pid;
};

struct groups {
	enum cgroup_group_by by;
	uint64_t tick;			/* of the model, at the last update */
	struct strpool keys;
	struct group *v;		/* every group kept, in order of first sight */
	size_t n, cap;
	uint32_t *index;		/* open addressing on the key pointer: index + 1 */
	size_t index_cap;
};

void groups_init(struct groups *g, enum cgroup_group_by by);
void groups_free(struct groups *g);
/* Group by @by from now on; a change forgets every group and its totals. */
void groups_set_by(struct groups *g, enum cgroup_group_by by);

/* Is column @c one that a group sums (a count, a size, CPU)? */
bool groups_col_sums(int c);
/* The group of the rows by a cgroup whose cgroup was not read: exited before, or not. */
#define GROUPS_EXITED_UNREAD "(exited before read)"
#define GROUPS_UNREAD "(cgroup not read)"
/*
 * The key of @t's group under @by into @out, with the names @m has for its
 * cgroup (lib/cgname.h); by a cgroup, GROUPS_EXITED_UNREAD or GROUPS_UNREAD
 * when its cgroup was not read, "?" when else not known. Returns its length.
 */
size_t groups_task_key(const struct model *m, enum cgroup_group_by by, const struct task *t,
		       char *out, size_t cap);

/* This tick's sums from @m's rows; once per tick (again in the same tick: nothing). */
void groups_update(struct groups *g, const struct model *m);
/* The group of @key, or NULL. */
const struct group *groups_find(const struct groups *g, const char *key);
/*
 * Its number in summed column @c, false when no row's was known; for
 * sc_p99_us, the percentile of its rows' calls put together.
 */
bool group_num(const struct group *gr, int c, double *out);

#endif
