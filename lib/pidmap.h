/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PIDMAP_H
#define KTOP_PIDMAP_H

#include <stddef.h>
#include <sys/types.h>

/*
 * pid -> pointer map (open addressing, linear probing, backward-shift delete):
 * the lookups on ktop's per-tick and per-event paths are O(1) and allocate
 * nothing. The map does not own the values.
 */
struct pidmap {
	struct pidmap_slot {
		pid_t key;	/* 0 = empty; pid 0 is never stored */
		void *val;
	} *slots;
	size_t cap, n;
};

void pidmap_init(struct pidmap *m);
/* Empty it, keeping its memory. */
void pidmap_clear(struct pidmap *m);
void pidmap_free(struct pidmap *m);
void *pidmap_get(const struct pidmap *m, pid_t key);
void pidmap_put(struct pidmap *m, pid_t key, void *val);
void *pidmap_del(struct pidmap *m, pid_t key);

#endif
