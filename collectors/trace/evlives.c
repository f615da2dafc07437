// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/trace/evlives: the lives of a tid, so that a reused pid's processes
 * are counted apart (evsums.h, acct_life_*).
 *
 * A tid is reused: one process exits and is reaped, and its pid goes to the
 * next fork (a busy machine wraps pid_max in minutes; ns_last_pid, clone3's
 * set_tid choose it). Within one interval both lives' events come under one
 * tid. Each CPU's buffer is decoded in turn, in time order, so a tid's
 * events come in no one order across CPUs; what ends and begins a life is
 * read as decoded, with its time:
 *
 *   - its exit (sched_process_exit): nothing of that life follows but its
 *     last switch and the SIGCHLD it sends (evsums_life_tail);
 *   - its beginning: task_newtask in its creator, and its own first return
 *     from the fork (a clone that returns 0 in it: the first event it writes
 *     on the CPU it first runs on).
 *
 * Each life is an evsums_thread that holds the events from life_lo to life_hi
 * (inclusive), its calls from call_lo (its first return) to call_hi (its
 * exit). The newest is in acct.threads; the older ones still kept hang off
 * it (older), newest first, life_hi below the newer one's life_lo. An event
 * outside its newest life's bounds goes to the life it falls in: a call
 * after an exit, anything after the last switch, begins a new life there
 * (its fork is read later, from another CPU); a call before every kept life
 * (or before a life's first return) is an older life's. A fork read before
 * a first return it may or may not go with waits for evsums_order_life, when
 * every CPU was read; a fork or first return read after a life's events
 * that came later moves that life's earlier beginnings to an older one.
 *
 * What cannot be split: a life's events read from one CPU before both its
 * end and the next one's beginning, from others, when the next life's
 * events came first in that CPU too (the old life moved off it, the new
 * one onto it, both before the boundary's CPUs were read). acct.lives_unsplit
 * counts it; both lives are mixed: their rows' event counts are unknown.
 */
#include <stdint.h>

#include "evsums.h"

/* Nothing of @l after @hi (a life keeps one nanosecond at least: its bounds never cross). */
static void set_hi(struct evsums_thread *l, uint64_t hi)
{
	if (hi < l->life_lo)
		hi = l->life_lo;
	if (l->life_hi > hi)
		l->life_hi = hi;
	if (l->call_hi > hi)
		l->call_hi = hi < l->call_lo ? l->call_lo : hi;
}

/* @l begins at @lo: the older life ends before. */
static void set_lo(struct evsums_thread *l, uint64_t lo)
{
	l->life_lo = lo;
	l->call_lo = l->seen_fr && l->fr_ts > lo ? l->fr_ts : lo;
	if (l->life_hi < lo)
		l->life_hi = lo;
	if (l->call_hi < l->call_lo)
		l->call_hi = l->call_lo;
	if (l->older)
		set_hi(l->older, lo ? lo - 1 : 0);
}

/* The tid's newest life is @n now, @old the next older one. */
static void make_newest(struct evsums *a, struct evsums_thread *old, struct evsums_thread *n)
{
	struct evsums_thread **recent = &a->recent[(uint32_t)old->tid & (ACCT_RECENT - 1)];

	n->older = old;
	n->mixed |= old->mixed;
	old->ended = true;
	pidmap_put(&a->threads, old->tid, n);
	if (*recent == old)
		*recent = n;
}

/* A life of @t's tid from @lo, newer than @t (and older than @newer, NULL: the newest). */
static struct evsums_thread *life_after(struct evsums *a, struct evsums_thread *t,
				      struct evsums_thread *newer, uint64_t lo)
{
	struct evsums_thread *n = evsums_thread_new(a, t->tid);

	n->life_hi = n->call_hi = newer ? newer->life_lo - 1 : UINT64_MAX;
	n->own_life = n->born = true;
	n->mixed = t->mixed;
	if (newer) {
		newer->older = n;
		n->older = t;
		t->ended = true;
	} else {
		make_newest(a, t, n);
	}
	set_lo(n, lo);
	return n;
}

/*
 * A life of @l's tid older than @l, made below it: before @cut (0: below
 * all of @l), with @l's beginnings read before @cut (a fork and a return of
 * two lives taken for one's, nothing of @l counted before @cut).
 */
static struct evsums_thread *life_below(struct evsums *a, struct evsums_thread *l, uint64_t cut)
{
	struct evsums_thread *o = evsums_thread_new(a, l->tid);

	o->older = l->older;
	l->older = o;
	o->ended = true;
	o->mixed = l->mixed;
	if (!cut) {
		set_hi(o, l->life_lo - 1);
		return o;
	}
	o->life_lo = o->call_lo = l->life_lo;
	if (l->seen_nt && l->nt_ts < cut) {
		o->seen_nt = o->own_life = o->born = true;
		o->nt_ts = l->nt_ts;
		l->seen_nt = false;
	}
	if (l->seen_fr && l->fr_ts < cut) {
		o->seen_fr = o->own_life = o->born = true;
		o->fr_ts = o->call_lo = l->fr_ts;
		l->seen_fr = false;
	}
	set_lo(l, cut);
	return o;
}

/* Could @l hold nothing before @cut (then what is older of it is another life's)? */
static bool empty_before(const struct evsums_thread *l, uint64_t cut)
{
	return l->first_ts >= cut && (!l->end_ts || l->end_ts >= cut) && cut > l->life_lo;
}

struct evsums_thread *evsums_life_route(struct evsums *a, struct evsums_thread *t, uint64_t ts, bool call)
{
	struct evsums_thread *newer = NULL;

	/*
	 * After the newest life's last switch, or a call after its exit (it
	 * makes none): the next life's, begun since.
	 */
	if (ts > (call ? t->call_hi : t->life_hi))
		return life_after(a, t, NULL, ts > t->life_hi ? t->life_hi + 1 : ts);
	while (t->older && ts < t->life_lo) {
		newer = t;
		t = t->older;
	}
	/*
	 * Before every life kept: an older life's, its beginning unknown (a
	 * life makes no call before its first return, nothing before its
	 * fork); else the oldest's (its fork's wakeup, before that return).
	 */
	if (ts < t->life_lo)
		return call || t->seen_nt ? life_below(a, t, 0) : t;
	/* A call before its first return: an older life's (its fork was taken for this one's). */
	if (call && ts < t->call_lo)
		return empty_before(t, t->call_lo) ? life_below(a, t, t->call_lo) : t;
	/*
	 * A call after an older life's exit: the newer one's, begun by then;
	 * before the newer one's first return, a life's between them.
	 */
	if (call && ts > t->call_hi && newer) {
		if (newer->seen_fr && ts < newer->fr_ts)
			return life_after(a, t, newer, ts);
		set_lo(newer, ts);
		return newer;
	}
	/*
	 * Between its end and the newer one's beginning: its last switch, or
	 * once that was read, the newer one's (its fork's wakeup, its first
	 * switch, with its fork not placed yet).
	 */
	if (ts > t->life_hi && newer && t->gone_ts && ts > t->gone_ts)
		return newer;
	return t;
}

/* The life newer than @l, or NULL when @l is the newest. */
static struct evsums_thread *newer_of(struct evsums *a, struct evsums_thread *l)
{
	struct evsums_thread *n = pidmap_get(&a->threads, l->tid);

	if (n == l)
		return NULL;
	while (n && n->older != l)
		n = n->older;
	return n;
}

/* Did @l begin with this very event (evsums_order_life applies what decoding saw)? */
static bool began_at(const struct evsums_thread *l, uint64_t ts, bool fr)
{
	return l && (fr ? l->seen_fr && l->fr_ts == ts : l->seen_nt && l->nt_ts == ts);
}

/* Can @ts (@fr: the first return, else the fork) be where @l began? */
static bool own_beginning(const struct evsums *a, const struct evsums_thread *l, uint64_t ts, bool fr)
{
	/* What it did comes after both, none of another life's between. */
	if (l->first_ts < ts || (l->end_ts && ts > l->end_ts))
		return false;
	if (fr ? l->seen_fr || (l->seen_nt && ts < l->nt_ts) : l->seen_nt || (l->seen_fr && ts > l->fr_ts))
		return false;
	/* Not one that was there before, nothing of it read yet (only its scheduler's records). */
	return l->own_life || l->first_ts != UINT64_MAX || l->made == a->intervals;
}

static struct evsums_thread *begun(struct evsums_thread *l, uint64_t ts, bool fr)
{
	l->own_life = l->born = true;
	if (fr) {
		l->seen_fr = true;
		l->fr_ts = ts;
		/* Nothing of it is older (but its fork's wakeup, with the fork). */
		if (!l->seen_nt && l->life_lo < ts)
			l->life_lo = ts;
		l->call_lo = ts;
		if (l->call_hi < ts)
			l->call_hi = ts;
	} else {
		l->seen_nt = true;
		l->nt_ts = ts;
		set_lo(l, ts);
	}
	return l;
}

/*
 * A fork older than @l's first return: @l's, or a life's between whose
 * first return is not read yet (another CPU's). Told once every CPU is read.
 */
static bool fork_unsure(const struct evsums_thread *l, uint64_t ts, bool fr, bool settle)
{
	return !fr && !settle && (ts < l->life_lo || (l->seen_fr && ts < l->fr_ts));
}

struct evsums_thread *evsums_life_begin(struct evsums *a, struct evsums_thread *l, uint64_t ts, bool fr,
				    bool settle)
{
	struct evsums_thread *n = newer_of(a, l);

	if (began_at(l, ts, fr))
		return l;
	if (began_at(n, ts, fr))
		return n;
	/* A second fork in @l, nothing of it counted since: the first is an older life's. */
	if (!fr && l->seen_nt && l->nt_ts < ts && empty_before(l, ts))
		life_below(a, l, ts);
	if (own_beginning(a, l, ts, fr))
		return fork_unsure(l, ts, fr, settle) ? NULL : begun(l, ts, fr);
	/*
	 * Another life begins within @l's: calls of @l read after that are the
	 * new one's, and cannot be told from @l's now. Both counts unknown.
	 */
	if (l->last_call_ts >= ts && ts >= l->life_lo) {
		a->lives_unsplit++;
		l->mixed = true;
	}
	/* The newer one read first (its first return, or its calls after @l's exit). */
	if (n && own_beginning(a, n, ts, fr)) {
		n->mixed |= l->mixed;
		return fork_unsure(n, ts, fr, settle) ? NULL : begun(n, ts, fr);
	}
	return begun(ts < l->life_lo ? life_below(a, l, 0) : life_after(a, l, n, ts), ts, fr);
}

void evsums_life_end(struct evsums *a, struct evsums_thread *l, uint64_t ts, bool ends)
{
	if (!l->end_ts || ts < l->end_ts)
		l->end_ts = ts;
	if (!ends)
		return;
	l->exit_ends = true;
	/*
	 * Calls of it after its exit, read before it: the next life's, not
	 * split. Its counts and the next one's (made later, from @l) unknown.
	 */
	if (l->last_call_ts > ts) {
		struct evsums_thread *n = newer_of(a, l);

		a->lives_unsplit++;
		l->mixed = true;
		if (n)
			n->mixed = true;
	}
	if (l->call_hi > ts)
		l->call_hi = ts < l->call_lo ? l->call_lo : ts;
}

void evsums_life_gone(struct evsums_thread *l, uint64_t ts)
{
	if (l->exit_ends)
		set_hi(l, ts);
}

struct evsums_thread *evsums_life_tail(struct evsums *a, struct evsums_thread *t, uint64_t ts)
{
	struct evsums_thread *l;

	for (l = t; l; l = l->older)
		if (l->end_ts && l->end_ts <= ts && !l->gone_ts)
			return l;
	return evsums_life_at(a, t, ts);
}

struct evsums_thread *evsums_life_of_proc(const struct evsums *a, struct evsums_thread *th, pid_t tgid)
{
	struct evsums_thread *l = pidmap_get(&a->threads, tgid), *x;

	if (th->tid == tgid)
		return th;
	for (x = l; x && th->proc_life; x = x->older)
		if (x->serial == th->proc_life)
			return x;
	return l;
}
