// SPDX-License-Identifier: GPL-2.0-only
#include "callargs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../clocks.h"
#include "instance.h"
#include "../../model/kev.h"
#include "../../lib/scnames.h"
#include "../../lib/util.h"

/*
 * What a call's first argument is, by its name in the format ("field:unsigned
 * int fd;"): the one a call in progress is shown with ("read on fd 3").
 */
static enum fcall_arg arg_kind(const char *field)
{
	static const struct {
		const char *name;
		enum fcall_arg kind;
	} known[] = {
		{ "fd", FA_FD }, { "epfd", FA_FD }, { "ufd", FA_FD }, { "fildes", FA_FD },
		{ "upid", FA_PID }, { "pid", FA_PID }, { "uaddr", FA_ADDR },
	};
	const char *end = strchr(field, ';'), *b;
	size_t i;

	if (!end)
		return FA_NONE;
	b = end;
	while (b > field && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') ||
			     (b[-1] >= '0' && b[-1] <= '9')))
		b--;
	for (i = 0; i < ARRAY_SIZE(known); i++)
		if ((size_t)(end - b) == strlen(known[i].name) &&
		    !memcmp(b, known[i].name, (size_t)(end - b)))
			return known[i].kind;
	return FA_NONE;
}

/* Look @nr's format up once: how many arguments, what the first is. */
static uint8_t look_up(struct callargs *ca, int64_t nr)
{
	char nb[SYSCALL_NAME_BUF], rel[128];
	const char *name, *p;
	size_t len;
	char *text;
	int n = 0;

	if (nr < 0 || nr >= CALLARGS_MAX)
		return KEV_SC_ARGS;
	if (ca->nargs[nr])
		return (uint8_t)(ca->nargs[nr] - 1);
	name = syscall_name((unsigned)nr, nb, sizeof(nb));
	snprintf(rel, sizeof(rel), "syscalls/sys_enter_%s/format", name);
	text = instance_read_format(rel, &len);
	if (!text) {
		n = KEV_SC_ARGS;	/* no such event here: show them all */
	} else {
		/* The fields after __syscall_nr are the arguments. */
		p = strstr(text, "__syscall_nr");
		while (p && (p = strstr(p + 1, "field:")))
			if (!n++)
				ca->arg0[nr] = (uint8_t)arg_kind(p);
		free(text);
		if (n > KEV_SC_ARGS)
			n = KEV_SC_ARGS;
	}
	ca->nargs[nr] = (uint8_t)(n + 1);
	return (uint8_t)n;
}

uint8_t callargs_count(struct callargs *ca, int64_t nr)
{
	return look_up(ca, nr);
}

enum fcall_arg callargs_first(struct callargs *ca, int64_t nr)
{
	if (nr < 0 || nr >= CALLARGS_MAX)
		return FA_NONE;
	look_up(ca, nr);
	return (enum fcall_arg)ca->arg0[nr];
}

bool callargs_current(pid_t pid, pid_t tid, long *nr, uint64_t args[KEV_SC_ARGS])
{
	char path[64], buf[256];
	unsigned long long a[KEV_SC_ARGS];
	ssize_t n;
	int k;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	n = read_small_file(path, buf, sizeof(buf));
	/* "running", or "-1 SP PC" (in the kernel, not in a call): none. */
	if (n <= 0 || sscanf(buf, "%ld %llx %llx %llx %llx %llx %llx", nr, &a[0], &a[1], &a[2],
			     &a[3], &a[4], &a[5]) != 7 || *nr < 0)
		return false;
	for (k = 0; k < KEV_SC_ARGS; k++)
		args[k] = a[k];
	return true;
}

void callargs_fd_target(pid_t pid, pid_t tid, int fd, char *buf, size_t len)
{
	char path[80];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/fd/%d", (int)pid, (int)tid, fd);
	n = readlink(path, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
}
