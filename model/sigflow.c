// SPDX-License-Identifier: GPL-2.0-only
#include "sigflow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"

static const char *const result_names[SIGRES_NR] = {
	[SIGRES_DELIVERED] = "delivered",
	[SIGRES_IGNORED] = "ignored",
	[SIGRES_ALREADY_PENDING] = "already_pending",
	[SIGRES_OVERFLOW_FAIL] = "overflow_fail",
	[SIGRES_LOSE_INFO] = "lose_info",
};

const char *sig_result_name(int result, char *buf, size_t n)
{
	if (result >= 0 && result < SIGRES_NR)
		return result_names[result];
	snprintf(buf, n, "result_%d", result);
	return buf;
}

void sigflows_init(struct sigflows *f)
{
	memset(f, 0, sizeof(*f));
	f->other.sender = f->other.receiver = -1;
}

void sigflows_free(struct sigflows *f)
{
	free(f->v);
	free(f->index);
	sigflows_init(f);
}

void sigflows_begin(struct sigflows *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		f->v[i].n = 0;
	f->other.n = 0;
	f->n_all = 0;
}

static uint32_t flow_hash(pid_t sender, pid_t receiver, int sig, int result)
{
	uint32_t h = ((uint32_t)sender * 2654435761u) ^ ((uint32_t)receiver * 40503u) ^
		     ((uint32_t)sig << 8) ^ (uint32_t)result;

	return h ^ h >> 15;
}

static bool same(const struct sigflow *r, pid_t sender, pid_t receiver, int sig, int result)
{
	return r->sender == sender && r->receiver == receiver && r->sig == sig && r->result == result;
}

/* The index slot of the key: its row's, or the empty one where it would go. */
static uint32_t *slot_of(const struct sigflows *f, pid_t sender, pid_t receiver, int sig,
			 int result)
{
	size_t i = flow_hash(sender, receiver, sig, result) & (f->index_cap - 1);

	while (f->index[i] && !same(&f->v[f->index[i] - 1], sender, receiver, sig, result))
		i = (i + 1) & (f->index_cap - 1);
	return &f->index[i];
}

static void reindex(struct sigflows *f)
{
	size_t i;

	memset(f->index, 0, f->index_cap * sizeof(*f->index));
	for (i = 0; i < f->n; i++) {
		const struct sigflow *r = &f->v[i];

		*slot_of(f, r->sender, r->receiver, r->sig, r->result) = (uint32_t)i + 1;
	}
}

const struct sigflow *sigflows_find(const struct sigflows *f, pid_t sender, pid_t receiver,
				    int sig, int result)
{
	uint32_t *s;

	if (!f->index_cap)
		return NULL;
	s = slot_of(f, sender, receiver, sig, result);
	return *s ? &f->v[*s - 1] : NULL;
}

/* Full: the rows idle this interval go to the other row. Returns whether room was made. */
static bool make_room(struct sigflows *f)
{
	size_t i, k = 0;

	for (i = 0; i < f->n; i++) {
		if (!f->v[i].n) {
			f->other.total += f->v[i].total;
			continue;
		}
		f->v[k++] = f->v[i];
	}
	if (k == f->n)
		return false;
	f->n = k;
	reindex(f);
	return true;
}

static void copy_comm(char *dst, const char *src)
{
	if (src[0])
		snprintf(dst, 16, "%.15s", src);
}

void sigflows_add(struct sigflows *f, const struct sig_flow *in)
{
	struct sigflow *r;
	uint32_t *s;

	if (!in->n)
		return;
	f->n_all += in->n;
	f->total_all += in->n;
	if (in->sender < 0 && in->receiver < 0) {
		f->other.n += in->n;
		f->other.total += in->n;
		return;
	}
	if (!f->index_cap) {
		f->index_cap = 2 * SIGFLOW_MAX;
		f->index = xcalloc(f->index_cap, sizeof(*f->index));
	}
	s = slot_of(f, in->sender, in->receiver, in->sig, in->result);
	if (!*s) {
		if (f->n == SIGFLOW_MAX && !make_room(f)) {
			f->other.n += in->n;
			f->other.total += in->n;
			return;
		}
		/* make_room moved the rows: the slot is looked up again. */
		s = slot_of(f, in->sender, in->receiver, in->sig, in->result);
		if (f->n == f->cap) {
			f->cap = f->cap ? f->cap * 2 : 64;
			f->v = xrealloc(f->v, f->cap * sizeof(*f->v));
		}
		r = &f->v[f->n++];
		memset(r, 0, sizeof(*r));
		r->sender = in->sender;
		r->receiver = in->receiver;
		r->sig = in->sig;
		r->result = in->result;
		*s = (uint32_t)f->n;
	}
	r = &f->v[*s - 1];
	r->n += in->n;
	r->total += in->n;
	copy_comm(r->sender_comm, in->sender_comm);
	copy_comm(r->receiver_comm, in->receiver_comm);
}

/* The merge order: sender's name (the kernel apart), receiver's, signal, result. */
static int cmp_by_comm(const void *pa, const void *pb)
{
	const struct sigflow *a = pa, *b = pb;
	int r;

	if ((a->sender == 0) != (b->sender == 0))
		return a->sender == 0 ? -1 : 1;
	r = strcmp(a->sender ? a->sender_comm : "", b->sender ? b->sender_comm : "");
	if (!r)
		r = strcmp(a->receiver_comm, b->receiver_comm);
	if (!r)
		r = a->sig < b->sig ? -1 : a->sig > b->sig;
	if (!r)
		r = a->result < b->result ? -1 : a->result > b->result;
	return r;
}

void sigflows_by_comm(const struct sigflows *in, struct sigflows *out)
{
	size_t i, k = 0;

	if (out->cap < in->n) {
		out->v = xrealloc(out->v, (in->n ? in->n : 1) * sizeof(*out->v));
		out->cap = in->n;
	}
	if (in->n)
		memcpy(out->v, in->v, in->n * sizeof(*out->v));
	sort_array(out->v, in->n, sizeof(*out->v), cmp_by_comm);
	for (i = 0; i < in->n; i++) {
		struct sigflow *r = &out->v[i], *last = k ? &out->v[k - 1] : NULL;

		if (last && !cmp_by_comm(last, r)) {
			if (last->sender != r->sender)
				last->sender = SIGFLOW_SEVERAL;
			if (last->receiver != r->receiver)
				last->receiver = SIGFLOW_SEVERAL;
			last->n += r->n;
			last->total += r->total;
			continue;
		}
		out->v[k++] = *r;
	}
	out->n = k;
	out->other = in->other;
	out->n_all = in->n_all;
	out->total_all = in->total_all;
}
