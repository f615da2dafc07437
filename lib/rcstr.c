// SPDX-License-Identifier: GPL-2.0-only
#include "rcstr.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define RCSTR_MAGIC 0x72637374u	/* "rcst": a pointer that is not one is caught, not freed */

struct rcstr {
	uint32_t magic;
	uint32_t refs;
	size_t size;		/* of the whole allocation: what rcstr_live_bytes counts */
	alignas(max_align_t) char s[];
};

static size_t live;

static struct rcstr *head(char *s)
{
	struct rcstr *h = (struct rcstr *)(void *)(s - offsetof(struct rcstr, s));

	if (h->magic != RCSTR_MAGIC)
		abort();	/* a malloc'ed string, or one freed: a bug, never carried on from */
	return h;
}

char *rcstr_new(const void *p, size_t len)
{
	size_t size = sizeof(struct rcstr) + len + 1;
	struct rcstr *h = xmalloc(size);

	h->magic = RCSTR_MAGIC;
	h->refs = 1;
	h->size = size;
	if (len)
		memcpy(h->s, p, len);
	h->s[len] = '\0';
	live += size;
	return h->s;
}

char *rcstr_ref(char *s)
{
	if (s) {
		struct rcstr *h = head(s);

		if (h->refs == UINT32_MAX)	/* never: a reference per task, 2^22 pids */
			abort();
		h->refs++;
	}
	return s;
}

void rcstr_put(char *s)
{
	struct rcstr *h;

	if (!s)
		return;
	h = head(s);
	if (--h->refs)
		return;
	live -= h->size;
	h->magic = 0;
	free(h);
}

size_t rcstr_live_bytes(void)
{
	return live;
}
