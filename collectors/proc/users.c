// SPDX-License-Identifier: GPL-2.0-only
#include "users.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/pidmap.h"
#include "../../lib/util.h"

struct users {
	struct pidmap names;	/* uid + 1 -> name (the map reserves key 0) */
};

struct users *users_new(void)
{
	struct users *u = xcalloc(1, sizeof(*u));

	pidmap_init(&u->names);
	return u;
}

void users_free(struct users *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->names.cap; i++)
		if (u->names.slots[i].key)
			free(u->names.slots[i].val);
	pidmap_free(&u->names);
	free(u);
}

const char *users_name(struct users *u, int64_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096], num[24];
	char *name;
	pid_t key;

	if (uid < 0 || uid >= 0x7ffffffe)
		return NULL;
	key = (pid_t)(uid + 1);
	name = pidmap_get(&u->names, key);
	if (name)
		return name;
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) == 0 && res && res->pw_name)
		name = xstrdup(res->pw_name);
	else {
		snprintf(num, sizeof(num), "%lld", (long long)uid);
		name = xstrdup(num);
	}
	pidmap_put(&u->names, key, name);
	return name;
}
