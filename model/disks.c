// SPDX-License-Identifier: GPL-2.0-only
#include "disks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"

void disks_init(struct disks *d)
{
	memset(d, 0, sizeof(*d));
}

void disks_free(struct disks *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

void disks_begin(struct disks *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		struct disk_reading *r = &d->v[i].now;
		uint32_t dev = r->dev;
		char name[DISK_NAME_MAX];

		memcpy(name, r->name, sizeof(name));
		memset(r, 0, sizeof(*r));
		r->dev = dev;
		memcpy(r->name, name, sizeof(name));
	}
	d->known = false;
}

void disks_set_why(struct disks *d, const char *why)
{
	snprintf(d->why, sizeof(d->why), "%s", why ? why : "");
}

const struct disk *disks_find(const struct disks *d, uint32_t dev)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].now.dev == dev)
			return &d->v[i];
	return NULL;
}

void disks_known(struct disks *d)
{
	d->known = true;
}

void disks_apply(struct disks *d, const struct disk_reading *r, bool counted)
{
	struct disk *k = (struct disk *)disks_find(d, r->dev);
	int i;

	if (!k) {
		if (d->n == d->cap) {
			d->cap = d->cap ? d->cap * 2 : 8;
			d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
		}
		k = &d->v[d->n++];
		memset(k, 0, sizeof(*k));
	}
	k->now = *r;
	d->known = true;
	if (!counted)
		return;
	for (i = 0; i < DISK_DIRS; i++) {
		k->ios_total[i] += r->ios[i];
		k->bytes_total[i] += r->bytes[i];
	}
	k->other_total += r->other;
	k->timed_total += r->timed;
	lathist_add(&k->hist_total, &r->hist);
	k->lat_ns_total += r->lat_ns;
	if (r->max_ns > k->max_ns_total)
		k->max_ns_total = r->max_ns;
}

bool disk_queue_avg(const struct disk_reading *r, double interval_s, double *out)
{
	if (interval_s <= 0)
		return false;
	*out = (double)r->lat_ns / 1e9 / interval_s;
	return true;
}
