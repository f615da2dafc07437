// SPDX-License-Identifier: GPL-2.0-only
/* collectors/system/system_source: the system files (system.h) as a source of the list (source.h). */
#include <string.h>

#include "../source.h"
#include "system.h"

static int sys_start(struct source_env *env, void **st)
{
	struct sysfiles *sf;
	int ret = system_new("/proc", &sf);

	(void)env;
	if (ret) {
		fprintf(stderr, "ktop: cannot read /proc: %s\n", strerror(-ret));
		return -1;
	}
	*st = sf;
	return 0;
}

static void sys_collect(void *st, struct source_env *env, struct sample *s)
{
	(void)env;
	system_collect(st, s);
}

static void sys_free(void *st)
{
	system_free(st);
}

const struct source system_source = {
	.name = "system",
	.start = sys_start,
	.collect = sys_collect,
	.apply = true,
	.free = sys_free,
};
