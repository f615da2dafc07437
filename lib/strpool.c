// SPDX-License-Identifier: GPL-2.0-only
#include "strpool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* FNV-1a: short strings, few of them; good enough and no state. */
static size_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

void strpool_init(struct strpool *p)
{
	p->cap = 64;
	p->n = 0;
	p->bytes = 0;
	p->slots = xcalloc(p->cap, sizeof(*p->slots));
}

void strpool_free(struct strpool *p)
{
	size_t i;

	for (i = 0; i < p->cap; i++)
		free(p->slots[i]);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

static char **find(char **slots, size_t cap, const char *s)
{
	size_t i = hash(s) & (cap - 1);

	while (slots[i] && strcmp(slots[i], s))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

const char *strpool_get(struct strpool *p, const char *s)
{
	char **slot = find(p->slots, p->cap, s);

	if (*slot)
		return *slot;
	/* At most half full: lookups stay short. */
	if ((p->n + 1) * 2 > p->cap) {
		size_t cap = p->cap * 2, i;
		char **slots = xcalloc(cap, sizeof(*slots));

		for (i = 0; i < p->cap; i++)
			if (p->slots[i])
				*find(slots, cap, p->slots[i]) = p->slots[i];
		free(p->slots);
		p->slots = slots;
		p->cap = cap;
		slot = find(p->slots, p->cap, s);
	}
	*slot = xstrdup(s);
	p->n++;
	p->bytes += strlen(s) + 1;
	return *slot;
}

size_t strpool_mem(const struct strpool *p)
{
	/* malloc's header and rounding: 16 bytes a string on glibc, about. */
	return p->bytes + p->n * 16 + p->cap * sizeof(*p->slots);
}
