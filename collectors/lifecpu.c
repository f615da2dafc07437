// SPDX-License-Identifier: GPL-2.0-only
#include "lifecpu.h"

#include <stdlib.h>

#include "../lib/pidmap.h"
#include "../lib/util.h"

/* One row's events over its life so far. */
struct life {
	uint64_t oncpu_ns;	/* on a CPU */
	uint64_t exit_ns;	/* of it, after its exit event */
	uint64_t starttime;	/* its task's, once /proc read it (a reused pid is another's) */
	bool lost;		/* events were lost while it lived */
};

struct lifecpu {
	struct pidmap lives;	/* row id -> struct life */
	bool threads;		/* the row mode the lives are of */
};

struct lifecpu *lifecpu_new(void)
{
	struct lifecpu *l = xcalloc(1, sizeof(*l));

	pidmap_init(&l->lives);
	return l;
}

static void lives_clear(struct lifecpu *l)
{
	size_t i;

	for (i = 0; i < l->lives.cap; i++)
		if (l->lives.slots[i].key)
			free(l->lives.slots[i].val);
	pidmap_clear(&l->lives);
}

void lifecpu_free(struct lifecpu *l)
{
	if (!l)
		return;
	lives_clear(l);
	pidmap_free(&l->lives);
	free(l);
}

void lifecpu_note(struct lifecpu *l, const struct model *m)
{
	size_t i;

	/* Another row mode: the ids are others (the model starts over too). */
	if (m->threads != l->threads) {
		lives_clear(l);
		l->threads = m->threads;
	}
	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];
		struct life *f;

		if (t->seen_tick != m->tick || !t->ev[CNT_ONCPU])
			continue;
		f = pidmap_get(&l->lives, t->pid);
		if (f && f->starttime && t->starttime && f->starttime != t->starttime) {
			/* Its pid is another process's: that one's life was not seen to its end. */
			free(pidmap_del(&l->lives, t->pid));
			f = NULL;
		}
		if (!f) {
			f = xcalloc(1, sizeof(*f));
			pidmap_put(&l->lives, t->pid, f);
		}
		f->starttime = t->starttime;
		f->oncpu_ns += t->ev[CNT_ONCPU];
		f->exit_ns += t->ev[CNT_EXITCPU];
	}
	if (m->lost_events || m->lost_unknown)
		for (i = 0; i < l->lives.cap; i++)
			if (l->lives.slots[i].key)
				((struct life *)l->lives.slots[i].val)->lost = true;
}

uint64_t lifecpu_final(struct lifecpu *l, pid_t id, uint64_t record_ns)
{
	struct life *f = pidmap_del(&l->lives, id);
	uint64_t cpu = record_ns;

	if (f && !f->lost) {
		cpu += f->exit_ns;
		if (f->oncpu_ns > cpu)
			cpu = f->oncpu_ns;
	}
	free(f);
	return cpu;
}

void lifecpu_forget(struct lifecpu *l, const struct model *m)
{
	size_t i = 0;

	/*
	 * Not in the model now (its last row was shown, or it left the limbo
	 * of rows held a tick): gone, its record not read (dropped, or none).
	 */
	while (i < l->lives.cap) {
		struct pidmap_slot *sl = &l->lives.slots[i];

		/* A delete shifts a later entry into this slot: look at it again. */
		if (sl->key && !model_task_find(m, sl->key))
			free(pidmap_del(&l->lives, sl->key));
		else
			i++;
	}
}
