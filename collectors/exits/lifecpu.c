// SPDX-License-Identifier: GPL-2.0-only
#include "lifecpu.h"

#include <stdlib.h>

#include "../../lib/pidmap.h"
#include "../../lib/util.h"

/*
 * One row's events over its life so far. A pid's lives are apart (a reused
 * pid's earlier life is a task of its own this tick, model.h's task.past):
 * each is its task's, told by its address and the tick it was made (a task
 * is reset for its pid's next life, or freed and its memory reused). The
 * address is compared, never followed.
 */
struct life {
	const struct task *task;
	uint64_t made_tick;
	uint64_t oncpu_ns;	/* on a CPU */
	uint64_t exit_ns;	/* of it, after its exit event */
	uint64_t starttime;	/* its task's, once /proc read it (a reused pid is another's) */
	bool lost;		/* events were lost while it lived */
	struct life *next;	/* the pid's other lives */
};

struct lifecpu {
	struct pidmap lives;	/* row id -> its struct life list */
	bool threads;		/* the row mode the lives are of */
};

struct lifecpu *lifecpu_new(void)
{
	struct lifecpu *l = xcalloc(1, sizeof(*l));

	pidmap_init(&l->lives);
	return l;
}

static void life_free_all(struct life *f)
{
	struct life *next;

	for (; f; f = next) {
		next = f->next;
		free(f);
	}
}

static void lives_clear(struct lifecpu *l)
{
	size_t i;

	for (i = 0; i < l->lives.cap; i++)
		if (l->lives.slots[i].key)
			life_free_all(l->lives.slots[i].val);
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

static bool life_is(const struct life *f, const struct task *t)
{
	return f->task == t && f->made_tick == t->made_tick;
}

/* @t's life, taken off its pid's list (NULL: none). */
static struct life *life_take(struct lifecpu *l, const struct task *t)
{
	struct life *head = pidmap_get(&l->lives, t->pid), **pp, *f;

	for (pp = &head; (f = *pp); pp = &f->next) {
		if (!life_is(f, t))
			continue;
		*pp = f->next;
		f->next = NULL;
		if (head)
			pidmap_put(&l->lives, t->pid, head);
		else
			pidmap_del(&l->lives, t->pid);
		return f;
	}
	return NULL;
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
		f = life_take(l, t);
		if (f && f->starttime && t->starttime && f->starttime != t->starttime) {
			/* Its pid is another process's: that one's life was not seen to its end. */
			free(f);
			f = NULL;
		}
		if (!f) {
			f = xcalloc(1, sizeof(*f));
			f->task = t;
			f->made_tick = t->made_tick;
		}
		f->next = pidmap_get(&l->lives, t->pid);
		pidmap_put(&l->lives, t->pid, f);
		f->starttime = t->starttime;
		f->oncpu_ns += t->ev[CNT_ONCPU];
		f->exit_ns += t->ev[CNT_EXITCPU];
	}
	if (m->lost_events || m->lost_unknown)
		for (i = 0; i < l->lives.cap; i++) {
			struct life *f = l->lives.slots[i].key ? l->lives.slots[i].val : NULL;

			for (; f; f = f->next)
				f->lost = true;
		}
}

uint64_t lifecpu_final(struct lifecpu *l, const struct task *t, uint64_t record_ns)
{
	struct life *f = t ? life_take(l, t) : NULL;
	uint64_t cpu = record_ns;

	if (f && !f->lost) {
		cpu += f->exit_ns;
		if (f->oncpu_ns > cpu)
			cpu = f->oncpu_ns;
	}
	free(f);
	return cpu;
}

/* Is @f the life of a task of its pid the model has now (the pid's, or a past one's)? */
static bool life_kept(const struct model *m, pid_t pid, const struct life *f)
{
	const struct task *t = model_task_find(m, pid);

	if (t && life_is(f, t))
		return true;
	for (t = model_past_find(m, pid); t; t = t->older)
		if (life_is(f, t))
			return true;
	return false;
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
		struct life *head, **pp, *f;
		pid_t pid = sl->key;

		if (!pid) {
			i++;
			continue;
		}
		head = sl->val;
		for (pp = &head; (f = *pp);) {
			if (life_kept(m, pid, f)) {
				pp = &f->next;
			} else {
				*pp = f->next;
				free(f);
			}
		}
		if (head) {
			sl->val = head;
			i++;
		} else {
			/* A delete shifts a later entry into this slot: look at it again. */
			pidmap_del(&l->lives, pid);
		}
	}
}
