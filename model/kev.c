// SPDX-License-Identifier: GPL-2.0-only
#include "kev.h"

#include <string.h>

/* The kind catalog: what the event list calls each kind (its text: tables/kevtext.c). */
static const struct kev_def {
	const char *name;
	const char *source;	/* the tracepoints behind it */
} kev_defs[KEV_NR] = {
	[KEV_SYSCALL]	 = { "syscall", "raw_syscalls:sys_enter + sys_exit" },
	[KEV_SWITCH]	 = { "switch", "sched:sched_switch" },
	[KEV_FAULT]	 = { "fault", "exceptions:page_fault_user" },
	[KEV_SIGGEN]	 = { "signal", "signal:signal_generate" },
	[KEV_SIGDELIVER] = { "deliver", "signal:signal_deliver" },
	[KEV_FORK]	 = { "fork", "task:task_newtask" },
	[KEV_EXEC]	 = { "exec", "sched:sched_process_exec" },
	[KEV_EXIT]	 = { "exit", "sched:sched_process_exit" },
};

const char *kev_kind_name(enum kev_kind k)
{
	return (unsigned)k < KEV_NR ? kev_defs[k].name : "?";
}

const char *kev_kind_source(enum kev_kind k)
{
	return (unsigned)k < KEV_NR ? kev_defs[k].source : "?";
}

int kev_kind_by_name(const char *name)
{
	size_t len = strlen(name);
	int k, found = -1;

	if (!len)
		return -1;
	for (k = 0; k < KEV_NR; k++) {
		if (!strcmp(kev_defs[k].name, name))
			return k;
		if (!strncmp(kev_defs[k].name, name, len)) {
			if (found >= 0)
				return -1;	/* ambiguous */
			found = k;
		}
	}
	return found;
}
