// SPDX-License-Identifier: GPL-2.0-only
/*
 * System calls in progress (model/fcall.h): a focused process's list, made
 * by the focus collector at each tick (model/fproc.h), and how the process
 * view and batch say one ("read on fd 3 (pipe:[812]) for 12.4 s").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fproc.h"
#include "../lib/scnames.h"
#include "../lib/util.h"

void fproc_calls_begin(struct fproc *fp, uint64_t now_ns)
{
	fp->ncalls = 0;
	fp->calls_ns = now_ns;
}

struct fcall *fproc_call_add(struct fproc *fp)
{
	struct fcall *c;

	if (fp->ncalls == fp->cap_calls) {
		fp->cap_calls = fp->cap_calls ? fp->cap_calls * 2 : 8;
		fp->calls = xrealloc(fp->calls, fp->cap_calls * sizeof(*fp->calls));
	}
	c = &fp->calls[fp->ncalls++];
	memset(c, 0, sizeof(*c));
	return c;
}

static int older_first(const void *x, const void *y)
{
	const struct fcall *a = x, *b = y;

	if (a->since_ns != b->since_ns)
		return a->since_ns < b->since_ns ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

void fcall_sort(struct fcall *c, size_t n)
{
	sort_array(c, n, sizeof(*c), older_first);
}

void fproc_calls_end(struct fproc *fp)
{
	fcall_sort(fp->calls, fp->ncalls);
}

/* 12.4 s, 3 min 07 s, 2 h 05 min: a call's age, to a tenth where it matters. */
static void put_age(char *buf, size_t n, uint64_t ns)
{
	double s = (double)ns / 1e9;
	unsigned long long w = (unsigned long long)s;

	if (s < 60)
		snprintf(buf, n, "%.1f s", s);
	else if (s < 3600)
		snprintf(buf, n, "%llu min %02llu s", w / 60, w % 60);
	else
		snprintf(buf, n, "%llu h %02llu min", w / 3600, w % 3600 / 60);
}

const char *fcall_text(const struct fcall *c, uint64_t now_ns, char *buf, size_t n)
{
	char nb[SYSCALL_LABEL_BUF], arg[128], age[32];

	switch (c->arg) {
	case FA_FD:
		/* The descriptor as the kernel passed it: an int, whatever the register held. */
		if (c->target[0])
			snprintf(arg, sizeof(arg), " on fd %d (%s)", (int)c->arg0, c->target);
		else
			snprintf(arg, sizeof(arg), " on fd %d", (int)c->arg0);
		break;
	case FA_PID:
		snprintf(arg, sizeof(arg), " for pid %d", (int)c->arg0);
		break;
	case FA_ADDR:
		snprintf(arg, sizeof(arg), " on 0x%llx", (unsigned long long)c->arg0);
		break;
	default:
		arg[0] = '\0';
	}
	put_age(age, sizeof(age), now_ns > c->since_ns ? now_ns - c->since_ns : 0);
	snprintf(buf, n, "%s%s for %s%s", syscall_label(c->nr, nb, sizeof(nb)), arg,
		 c->before ? "more than " : "", age);
	return buf;
}
