/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_STRPOOL_H
#define KTOP_STRPOOL_H

/*
 * lib/strpool: interned strings. Many processes share one cgroup path (or
 * user name): a source keeps one copy of each and hands the model pointers
 * that live as long as the pool. Pure; grows with the distinct strings seen.
 */

#include <stddef.h>

struct strpool {
	char **slots;		/* open addressing; NULL = empty */
	size_t cap, n;
	size_t bytes;		/* of the strings, their NULs included */
};

void strpool_init(struct strpool *p);
/* Frees every string: pointers handed out die with it. */
void strpool_free(struct strpool *p);
/* The pool's copy of @s (NUL-terminated), made the first time it is asked for. */
const char *strpool_get(struct strpool *p, const char *s);
/* What the pool takes: its strings, their allocations' overhead, its slots. */
size_t strpool_mem(const struct strpool *p);

#endif
