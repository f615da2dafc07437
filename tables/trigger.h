/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TRIGGER_H
#define KTOP_TRIGGER_H

/*
 * tables/trigger: the flight recorder's conditions (--trigger EXPR), read
 * against each applied interval. An expression is a column of the process
 * table (tables/columns.c, by its key), a comparison and a number:
 * "runq_ms>500" fires when some row (a process; a thread with -H) is above
 * 500 in the interval (the value as CSV writes it: a count or milliseconds
 * of the interval). "BY:KEY>N", BY a --group-by key (comm, user, cgroup,
 * unit, container, pod, namespace), compares each group's sum for the
 * columns a group sums (tables/groups.h), else each row's value under its
 * group's name. "oom" is the kernel's OOM kills (its caller counts them).
 * No I/O.
 */

#include <stdbool.h>
#include <stddef.h>

#include "../lib/cgroup.h"
#include "groups.h"
#include "../model/model.h"

enum trigger_op { TRIG_GT, TRIG_GE, TRIG_LT, TRIG_LE };

struct trigger {
	char text[96];		/* as given, spaces removed */
	bool oom;		/* "oom": the caller decides */
	int col;		/* the column (enum col_id); -1 for oom */
	bool grouped;
	enum cgroup_group_by by;
	enum trigger_op op;
	double value;
};

/* Parse @s into @t: 0, or -EINVAL with @err saying what is wrong. */
int trigger_parse(const char *s, struct trigger *t, char *err, size_t errsz);

/*
 * trigger_eval - does @t hold in @m's last interval? (never for oom)
 * @g: groups by t->by, for a grouped one (updated here for the tick)
 * @what: on true, who and the value: "pid 123 (stress) runq_ms 712.4"
 */
bool trigger_eval(const struct trigger *t, const struct model *m, struct groups *g, char *what,
		  size_t whatsz);

/* What /proc must read for every task for @t (tables/columns.h NEED_*). */
unsigned trigger_needs(const struct trigger *t, const struct model *m);

#endif
