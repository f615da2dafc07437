// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event list's index (tables/evindex.c): the events of a bounded ring
 * that pass a filter, kept as events arrive, trimmed as the ring drops them,
 * made again for a new filter; a selection kept as an event's sequence
 * number finds its event (or the nearest left) after each of these, and the
 * list it drives (tables/list.c) keeps the event on its line.
 */
#include "../../tables/evindex.h"
#include "../../tables/list.h"
#include "../../lib/scnames.h"
#include "../../lib/util.h"
#include "test.h"

/* Events of the pattern: every third a switch, the others syscalls @a and @b in turn. */
static void push(struct evring *r, unsigned count, int64_t a, int64_t b)
{
	while (count--) {
		struct kev *e = evring_push(r);
		uint64_t seq = r->pushed - 1;

		if (seq % 3 == 2) {
			e->kind = KEV_SWITCH;
		} else {
			e->kind = KEV_SYSCALL;
			e->u.sc.nr = seq % 3 ? b : a;
		}
		e->ts = seq;	/* the event's own number: what the checks compare */
	}
}

static const struct evfilter all = { .kind = -1 };
static const struct evfilter switches = { .kind = KEV_SWITCH };

/* Each entry is an event of the ring that passes @f, in order, and none is missing. */
static bool consistent(const struct evindex *ix, const struct evring *r, uint64_t end,
		       const struct evfilter *f)
{
	size_t i = 0;
	uint64_t s;

	for (s = r->first; s < end; s++) {
		if (!evfilter_match(f, evring_at(r, s)))
			continue;
		if (!CHECK(i < ix->n) || !CHECK_EQ_U64(evindex_seq(ix, i), s))
			return false;
		i++;
	}
	return CHECK_EQ_U64(ix->n, i);
}

static void test_arrivals_and_drops(void)
{
	struct evring r;
	struct evindex ix;

	evring_init(&r, sizeof(struct kev), 30);
	evindex_init(&ix);
	push(&r, 10, 0, 1);
	CHECK_EQ_U64(evindex_sync(&ix, &r, r.pushed, &switches), 0);
	CHECK_EQ_U64(ix.n, 3);		/* 2, 5, 8 */
	consistent(&ix, &r, r.pushed, &switches);
	/* Arrivals join the back, each event looked at once. */
	push(&r, 15, 0, 1);
	CHECK_EQ_U64(evindex_sync(&ix, &r, r.pushed, &switches), 0);
	CHECK_EQ_U64(ix.n, 8);
	consistent(&ix, &r, r.pushed, &switches);
	/* The ring (30) drops 0..19: the switches among them (2 .. 17) leave the front. */
	push(&r, 25, 0, 1);
	CHECK_EQ_U64(r.first, 20);
	CHECK_EQ_U64(evindex_sync(&ix, &r, r.pushed, &switches), 6);
	CHECK_EQ_U64(evindex_seq(&ix, 0), 20);
	consistent(&ix, &r, r.pushed, &switches);
	/* Long after: never more entries than the ring keeps. */
	push(&r, 1000, 0, 1);
	evindex_clear(&ix);
	evindex_sync(&ix, &r, r.pushed, &all);
	CHECK_EQ_U64(ix.n, 30);
	CHECK(ix.cap <= r.max);
	consistent(&ix, &r, r.pushed, &all);
	evindex_free(&ix);
	evring_free(&r);
}

/* Paused: the list ends where it was; the ring still drops from the front. */
static void test_paused_end(void)
{
	struct evring r;
	struct evindex ix;
	uint64_t end;

	evring_init(&r, sizeof(struct kev), 16);
	evindex_init(&ix);
	push(&r, 10, 0, 1);
	end = r.pushed;
	push(&r, 12, 0, 1);
	evindex_sync(&ix, &r, end, &all);
	consistent(&ix, &r, end, &all);
	CHECK_EQ_U64(evindex_seq(&ix, ix.n - 1), end - 1);
	/* Resumed: the rest joins. */
	evindex_sync(&ix, &r, r.pushed, &all);
	consistent(&ix, &r, r.pushed, &all);
	evindex_free(&ix);
	evring_free(&r);
}

/* A syscall's name: its events only, whichever number comes first. */
static void test_syscall_filter(void)
{
	struct evring r;
	struct evindex ix;
	struct evfilter f = { .kind = KEV_SYSCALL };
	char nb[SYSCALL_LABEL_BUF];

	syscall_label(39, nb, sizeof(nb));
	snprintf(f.syscall, sizeof(f.syscall), "%s", nb);
	evring_init(&r, sizeof(struct kev), 64);
	evindex_init(&ix);
	push(&r, 40, 39, 110);
	evindex_sync(&ix, &r, r.pushed, &f);
	CHECK_EQ_U64(ix.n, 14);		/* 0, 3, 6, ... 39 */
	consistent(&ix, &r, r.pushed, &f);
	/* The other number first this time: the remembered answers are per number. */
	evindex_clear(&ix);
	push(&r, 40, 110, 39);
	evindex_sync(&ix, &r, r.pushed, &f);
	consistent(&ix, &r, r.pushed, &f);
	evindex_free(&ix);
	evring_free(&r);
}

/*
 * What the event list does: the selection is an event (a sequence number)
 * and the list's selection its position, found again after each sync.
 */
static void test_selection_stays_on_its_event(void)
{
	struct evring r;
	struct evindex ix;
	struct list l = { 0 };
	struct evfilter f = { .kind = -1 };
	uint64_t sel;
	size_t pos, line, dropped;

	evring_init(&r, sizeof(struct kev), 100);
	evindex_init(&ix);
	push(&r, 60, 0, 1);
	evindex_sync(&ix, &r, r.pushed, &f);
	/* Following: the newest, at the window's bottom; then Up 5. */
	l.sel = ix.n - 1;
	list_fit(&l, ix.n, 20);
	list_move(&l, ix.n, -5);
	list_fit(&l, ix.n, 20);
	sel = evindex_seq(&ix, l.sel);
	CHECK_EQ_U64(sel, 54);
	line = l.sel - l.top;
	/* 30 arrive: the event keeps its position, and its line. */
	push(&r, 30, 0, 1);
	CHECK_EQ_U64(evindex_sync(&ix, &r, r.pushed, &f), 0);
	CHECK(evindex_near(&ix, sel, &pos));
	CHECK_EQ_U64(evindex_seq(&ix, pos), sel);
	l.sel = pos;
	list_fit(&l, ix.n, 20);
	CHECK_EQ_U64(l.sel - l.top, line);
	/* 30 more: the ring (100) drops 20; the window moves up with it, the event keeps its line. */
	push(&r, 30, 0, 1);
	dropped = evindex_sync(&ix, &r, r.pushed, &f);
	CHECK_EQ_U64(dropped, 20);
	l.top -= dropped;
	CHECK(evindex_near(&ix, sel, &pos));
	CHECK_EQ_U64(evindex_seq(&ix, pos), sel);
	l.sel = pos;
	list_fit(&l, ix.n, 20);
	CHECK_EQ_U64(l.sel - l.top, line);
	/* A filter it passes: still on it. */
	f.kind = KEV_SYSCALL;
	evindex_clear(&ix);
	evindex_sync(&ix, &r, r.pushed, &f);
	consistent(&ix, &r, r.pushed, &f);
	CHECK(evindex_near(&ix, sel, &pos));
	CHECK_EQ_U64(evindex_seq(&ix, pos), sel);
	/* One it does not pass (54 is a syscall; switches only): the nearest switch before it. */
	evindex_clear(&ix);
	evindex_sync(&ix, &r, r.pushed, &switches);
	CHECK(evindex_near(&ix, sel, &pos));
	CHECK_EQ_U64(evindex_seq(&ix, pos), 53);
	/* The ring drops it: the oldest kept. */
	push(&r, 200, 0, 1);
	evindex_sync(&ix, &r, r.pushed, &switches);
	CHECK(evindex_near(&ix, sel, &pos));
	CHECK_EQ_U64(pos, 0);
	CHECK(evindex_seq(&ix, 0) >= r.first);
	/* Stepping (the snapshot's Left/Right): the entries either side. */
	pos = evindex_lower(&ix, evindex_seq(&ix, 3));
	CHECK_EQ_U64(pos, 3);
	CHECK_EQ_U64(evindex_lower(&ix, evindex_seq(&ix, 3) + 1), 4);
	CHECK_EQ_U64(evindex_lower(&ix, r.pushed), ix.n);
	evindex_free(&ix);
	CHECK(!evindex_near(&ix, sel, &pos));
	evring_free(&r);
}

/* The 4-byte entries after billions of events: the base moves, the numbers stay. */
static void test_rebase(void)
{
	struct evring r;
	struct evindex ix;
	size_t i;

	evring_init(&r, sizeof(struct kev), 64);
	evindex_init(&ix);
	push(&r, 20, 0, 1);
	evindex_sync(&ix, &r, r.pushed, &all);
	/* The same entries as if the base were 4 billion events older. */
	ix.base -= UINT32_MAX - 19;
	for (i = 0; i < ix.n; i++)
		ix.off[(ix.head + i) % ix.cap] += UINT32_MAX - 19;	/* the newest at UINT32_MAX */
	consistent(&ix, &r, r.pushed, &all);
	push(&r, 40, 0, 1);
	evindex_sync(&ix, &r, r.pushed, &all);
	consistent(&ix, &r, r.pushed, &all);
	CHECK_EQ_U64(ix.base, r.first);
	evindex_free(&ix);
	evring_free(&r);
}

/* Another ring (the view opened on another process) that has seen fewer events. */
static void test_other_ring(void)
{
	struct evring r1, r2;
	struct evindex ix;

	evring_init(&r1, sizeof(struct kev), 64);
	evring_init(&r2, sizeof(struct kev), 64);
	evindex_init(&ix);
	push(&r1, 50, 0, 1);
	push(&r2, 10, 0, 1);
	evindex_sync(&ix, &r1, r1.pushed, &all);
	evindex_sync(&ix, &r2, r2.pushed, &all);
	consistent(&ix, &r2, r2.pushed, &all);
	evindex_free(&ix);
	evring_free(&r1);
	evring_free(&r2);
}

static const struct test tests[] = {
	{ "arrivals join, drops leave, never more than the ring", test_arrivals_and_drops },
	{ "paused: the list ends at the pause", test_paused_end },
	{ "a syscall's name filters its events", test_syscall_filter },
	{ "the selection stays on its event and its line", test_selection_stays_on_its_event },
	{ "4-byte entries rebase", test_rebase },
	{ "another ring", test_other_ring },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
