// SPDX-License-Identifier: GPL-2.0-only
#include "pidmap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static size_t slot_of(pid_t key, size_t cap)
{
	/* Fibonacci hashing: consecutive pids spread over the table. */
	return (size_t)(((uint32_t)key * 2654435769u) >> 7) & (cap - 1);
}

void pidmap_init(struct pidmap *m)
{
	m->cap = 256;
	m->n = 0;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
}

void pidmap_clear(struct pidmap *m)
{
	if (m->n)
		memset(m->slots, 0, m->cap * sizeof(*m->slots));
	m->n = 0;
}

void pidmap_free(struct pidmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}

void *pidmap_get(const struct pidmap *m, pid_t key)
{
	size_t i = slot_of(key, m->cap);

	while (m->slots[i].key) {
		if (m->slots[i].key == key)
			return m->slots[i].val;
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

static void insert(struct pidmap_slot *slots, size_t cap, pid_t key, void *val)
{
	size_t i = slot_of(key, cap);

	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & (cap - 1);
	slots[i].key = key;
	slots[i].val = val;
}

void pidmap_put(struct pidmap *m, pid_t key, void *val)
{
	/* Values are never NULL: get() answers NULL for "absent". */
	if (!key || !val)
		return;
	if (!pidmap_get(m, key)) {
		if ((m->n + 1) * 2 > m->cap) {
			struct pidmap_slot *old = m->slots;
			size_t i, oldcap = m->cap;

			m->cap *= 2;
			m->slots = xcalloc(m->cap, sizeof(*m->slots));
			for (i = 0; i < oldcap; i++)
				if (old[i].key)
					insert(m->slots, m->cap, old[i].key, old[i].val);
			free(old);
		}
		m->n++;
	}
	insert(m->slots, m->cap, key, val);
}

void *pidmap_del(struct pidmap *m, pid_t key)
{
	size_t i = slot_of(key, m->cap), j, home;
	void *val;

	if (!key)
		return NULL;
	while (m->slots[i].key != key) {
		if (!m->slots[i].key)
			return NULL;
		i = (i + 1) & (m->cap - 1);
	}
	val = m->slots[i].val;
	m->slots[i].key = 0;
	m->n--;
	/* Shift later members of the probe run back so lookups never stop early. */
	j = i;
	for (;;) {
		j = (j + 1) & (m->cap - 1);
		if (!m->slots[j].key)
			break;
		home = slot_of(m->slots[j].key, m->cap);
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->slots[i] = m->slots[j];
			m->slots[j].key = 0;
			i = j;
		}
	}
	return val;
}
