// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/trace/evdecode.c and collectors/trace/evsums.c: synthetic ring-buffer
 * pages in the kernel's layout (page header, 4-byte record headers, payloads with
 * the formats below, copied from a 6.18 kernel), decoded into per-thread counts.
 * Also: hostile pages (random bytes, bad commit sizes, truncated records) must be
 * rejected without reading outside the page (the ASan build checks that).
 */
#include <errno.h>
#include <sys/syscall.h>

#include "../../collectors/trace/evsums.h"
#include "../../collectors/trace/evdecode.h"
#include "../../lib/util.h"
#include "test.h"
#include "evformats.h"

#define PAGE 4096

/* A page being written: records appended after the 16-byte header. */
struct page {
	uint8_t b[PAGE];
	size_t len;	/* bytes of data after the header */
};

static void page_init(struct page *p)
{
	memset(p, 0, sizeof(*p));
}

/* A page whose first record is at @ts (ns; each record is 10 ns after the one before). */
static void page_at(struct page *p, uint64_t ts)
{
	page_init(p);
	memcpy(p->b, &ts, 8);
}

/* Append a record: 4-byte header (type_len = words, delta), payload padded to 4. */
static uint8_t *page_add(struct page *p, size_t size, uint32_t delta)
{
	size_t words = (size + 3) / 4;
	uint32_t hdr = (uint32_t)words | (delta << 5);
	uint8_t *rec;
	uint64_t commit;

	memcpy(p->b + 16 + p->len, &hdr, 4);
	rec = p->b + 16 + p->len + 4;
	memset(rec, 0, words * 4);
	p->len += 4 + words * 4;
	commit = p->len;
	memcpy(p->b + 8, &commit, 8);
	return rec;
}

static uint8_t *rec_new(struct page *p, uint16_t id, int32_t pid, size_t size)
{
	uint8_t *r = page_add(p, size, 10);

	memcpy(r, &id, 2);
	memcpy(r + 4, &pid, 4);
	return r;
}

static void put64(uint8_t *r, int off, int64_t v)
{
	memcpy(r + off, &v, 8);
}

static void put32(uint8_t *r, int off, int32_t v)
{
	memcpy(r + off, &v, 4);
}

static void add_exit(struct page *p, int32_t pid, long nr, long ret)
{
	uint8_t *r = rec_new(p, ID_EXIT, pid, 24);

	put64(r, 8, nr);
	put64(r, 16, ret);
}

static void add_switch(struct page *p, int32_t prev, long state)
{
	uint8_t *r = rec_new(p, ID_SWITCH, prev, 64);

	put32(r, 24, prev);
	put64(r, 32, state);
}

static void add_newtask(struct page *p, int32_t parent, int32_t child, uint64_t flags,
			const char *comm)
{
	uint8_t *r = rec_new(p, ID_NEWTASK, parent, 44);

	put32(r, 8, child);
	memcpy(r + 12, comm, strlen(comm));
	put64(r, 32, (int64_t)flags);
}

static void add_pexit(struct page *p, int32_t pid, bool group_dead)
{
	uint8_t *r = rec_new(p, ID_PEXIT, pid, 36);

	put32(r, 24, pid);
	r[32] = group_dead;
}

static void add_signal(struct page *p, int32_t sender, int32_t target, int result, bool irq)
{
	uint8_t *r = rec_new(p, ID_SIGNAL, sender, 48);

	if (irq)
		r[2] = 0x08;
	put32(r, 8, 10);
	put32(r, 36, target);
	put32(r, 44, result);
}

static void add_exec(struct page *p, int32_t pid, int32_t old, const char *file)
{
	size_t n = strlen(file) + 1;
	uint8_t *r = rec_new(p, ID_EXEC, pid, 20 + n);
	uint32_t loc = (uint32_t)(20 | (n << 16));

	memcpy(r + 8, &loc, 4);
	put32(r, 12, pid);
	put32(r, 16, old);
	memcpy(r + 20, file, n);
}

static void add_rename(struct page *p, int32_t writer, int32_t pid, const char *comm)
{
	uint8_t *r = rec_new(p, ID_RENAME, writer, 46);

	put32(r, 8, pid);
	memcpy(r + 28, comm, strlen(comm));
}

static struct evdecode dec;
static struct evsums acct;

static bool setup(void)
{
	size_t i;

	evsums_init(&acct);
	if (!CHECK_EQ_I64(evdecode_init(&dec, header_page, sizeof(header_page) - 1), 0))
		return false;
	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (!CHECK_EQ_I64(evdecode_add(&dec, formats[i].kind, formats[i].format,
					       strlen(formats[i].format)), 0))
			return false;
	return true;
}

static void teardown(void)
{
	evdecode_free(&dec);
	evsums_free(&acct);
}

static struct evsums_thread *thr(pid_t tid)
{
	return pidmap_get(&acct.threads, tid);
}

static void test_syscalls_and_errors(void)
{
	struct page p;
	struct evsums_thread *t;

	if (!setup())
		return;
	page_init(&p);
	add_exit(&p, 100, 0, 12);		/* read = 12 */
	add_exit(&p, 100, 0, -11);		/* read = -EAGAIN */
	add_exit(&p, 100, 257, -2);		/* openat = -ENOENT */
	add_exit(&p, 100, 9, (long)0xffffffffff000000ull);	/* mmap: an address, no error */
	add_exit(&p, 100, 56, 101);		/* clone in the parent */
	add_exit(&p, 101, 56, 0);		/* ... and the child's return: not a call */
	add_exit(&p, 100, -1, 0);		/* rt_sigreturn reports -1 */
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 7);
	t = thr(100);
	if (!CHECK(t))
		goto out;
	CHECK_EQ_U64(t->n[CNT_SYSCALLS], 6);
	CHECK_EQ_U64(t->n[CNT_SYSERR], 2);
	CHECK_EQ_U64(sctable_find(&t->sc, 0)->calls, 2);
	CHECK_EQ_U64(sctable_find(&t->sc, 0)->errors, 1);
	CHECK_EQ_U64(sctable_find(&t->sc, 257)->top_errno, 2);
	CHECK_EQ_U64(sctable_find(&t->sc, 9)->errors, 0);
	CHECK_EQ_U64(sctable_find(&t->sc, 56)->calls, 1);
	CHECK_EQ_U64(sctable_find(&t->sc, SYS_rt_sigreturn)->calls, 1);
	CHECK(!thr(101) || thr(101)->n[CNT_SYSCALLS] == 0);
	CHECK_EQ_U64(acct.total[CNT_SYSCALLS], 6);
	evsums_end_interval(&acct);
	CHECK_EQ_U64(thr(100)->n[CNT_SYSCALLS], 0);
	CHECK_EQ_U64(thr(100)->sc.used, 0);
	CHECK(evsums_first_active(&acct) == NULL);
out:
	teardown();
}

static void test_switches(void)
{
	struct page p;

	if (!setup())
		return;
	page_init(&p);
	add_switch(&p, 200, 0x1);	/* S: blocked */
	add_switch(&p, 200, 0x2);	/* D */
	add_switch(&p, 200, 0x80);	/* I */
	add_switch(&p, 200, 0x100);	/* R+: preempted */
	add_switch(&p, 200, 0);		/* R: schedule() while runnable */
	add_switch(&p, 0, 0);		/* the idle task: nobody's */
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 6);
	CHECK_EQ_U64(thr(200)->n[CNT_VCSW], 3);
	CHECK_EQ_U64(thr(200)->n[CNT_IVCSW], 2);
	CHECK(thr(0) == NULL);
	teardown();
}

static void test_lifecycle(void)
{
	struct page p;

	if (!setup())
		return;
	page_init(&p);
	add_exit(&p, 300, 0, 1);		/* an old thread: process unknown */
	add_newtask(&p, 300, 301, 0x00010000 | 0x100, "worker");	/* CLONE_THREAD */
	add_newtask(&p, 300, 302, 0x11, "child");	/* a process */
	add_exec(&p, 302, 302, "/usr/bin/very-long-program-name");
	add_exit(&p, 302, 59, 0);		/* execve returns 0 in the new image */
	add_pexit(&p, 302, true);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 6);
	CHECK_EQ_I64(thr(300)->tgid, 0);
	CHECK_EQ_I64(thr(301)->tgid, 0);	/* the parent's process is not known yet */
	CHECK_EQ_I64(thr(302)->tgid, 302);
	CHECK_EQ_I64(thr(302)->ppid, 300);
	CHECK_STR(thr(302)->comm, "very-long-progr");
	CHECK_EQ_U64(acct.nborn, 1);
	CHECK_EQ_I64(acct.born[0], 302);
	CHECK_EQ_U64(acct.ndead, 1);
	CHECK_EQ_I64(acct.dead[0], 302);
	CHECK_EQ_U64(thr(302)->n[CNT_SYSCALLS], 1);
	/* Known parent: a new thread is in its process. */
	evsums_set_tgid(&acct, thr(300), 300);
	page_init(&p);
	add_newtask(&p, 300, 303, 0x00010000, "w2");
	evdecode_page(&dec, p.b, PAGE, &acct);
	CHECK_EQ_I64(thr(303)->tgid, 300);
	/* An exited thread lives two more intervals (late events), then goes. */
	evsums_end_interval(&acct);
	CHECK(thr(302) != NULL);
	evsums_end_interval(&acct);
	CHECK(thr(302) == NULL);
	CHECK(thr(300) != NULL);
	teardown();
}

static void test_signals(void)
{
	struct page p;

	if (!setup())
		return;
	page_init(&p);
	add_signal(&p, 400, 401, 0, false);	/* delivered */
	add_signal(&p, 400, 401, 4, false);	/* queued, info lost */
	add_signal(&p, 400, 401, 2, false);	/* already pending: merged */
	add_signal(&p, 400, 401, 1, false);	/* ignored */
	add_signal(&p, 999, 401, 0, true);	/* from an interrupt: 999 sent nothing */
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 5);
	CHECK_EQ_U64(thr(400)->n[CNT_SIGSENT], 4);
	CHECK_EQ_U64(thr(401)->n[CNT_SIGRECV], 3);
	CHECK(thr(999) == NULL || thr(999)->n[CNT_SIGSENT] == 0);
	teardown();
}

static void test_noreturn_and_timing(void)
{
	struct page p;
	uint8_t *r;

	if (!setup())
		return;
	acct.order_times = true;
	page_init(&p);
	r = rec_new(&p, ID_ENTER, 500, 64);	/* sys_enter read */
	put64(r, 8, 0);
	add_exit(&p, 500, 0, 5);		/* 10 ns later (each record's delta) */
	r = rec_new(&p, ID_EXIT_GROUP, 500, 24);
	put32(r, 8, 231);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 3);
	CHECK_EQ_U64(thr(500)->n[CNT_SYSCALLS], 2);
	CHECK_EQ_U64(sctable_find(&thr(500)->sc, 231)->calls, 1);
	CHECK_EQ_U64(sctable_find(&thr(500)->sc, 0)->timed, 1);
	CHECK_EQ_U64(sctable_find(&thr(500)->sc, 0)->time_ns, 10);
	teardown();
}

static void add_enter(struct page *p, int32_t pid, long nr)
{
	put64(rec_new(p, ID_ENTER, pid, 64), 8, nr);
}

static void check_call(pid_t tid, uint32_t nr, uint64_t calls, uint64_t timed, uint64_t ns)
{
	const struct sc_stat *s = thr(tid) ? sctable_find(&thr(tid)->sc, nr) : NULL;

	if (!CHECK(s))
		return;
	CHECK_EQ_U64(s->calls, calls);
	CHECK_EQ_U64(s->timed, timed);
	CHECK_EQ_U64(s->time_ns, ns);
}

/*
 * --latency reads the record after a sys_enter ahead: when it is that
 * thread's sys_exit, the two are paired in one call. Whatever else follows
 * (another thread's exit, a record too short, the page's end) goes the
 * usual way, and the entry stays pending for its own exit.
 */
static void test_enter_read_ahead(void)
{
	struct page p;

	if (!setup())
		return;
	acct.order_times = true;
	page_init(&p);
	add_enter(&p, 700, 39);		/* 10 */
	add_exit(&p, 700, 39, 5);	/* 20: its exit next */
	add_enter(&p, 700, 39);		/* 30 */
	add_exit(&p, 701, 39, 5);	/* 40: another thread's, no entry of its own */
	add_exit(&p, 700, 39, 5);	/* 50: 700's, 20 ns after its entry */
	add_enter(&p, 700, 1);		/* 60 */
	rec_new(&p, ID_EXIT, 700, 16);	/* 70: too short, malformed */
	add_exit(&p, 700, 1, 0);	/* 80 */
	add_enter(&p, 702, 0);		/* 90: the page's last record */
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 8);
	CHECK_EQ_U64(dec.malformed, 1);
	page_at(&p, 1000);
	add_exit(&p, 702, 0, 0);	/* 1010, the next page of the same CPU */
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 1);
	evsums_time_calls(&acct);
	check_call(700, 39, 2, 2, 10 + 20);
	check_call(700, 1, 1, 1, 20);
	check_call(701, 39, 1, 0, 0);
	check_call(702, 0, 1, 1, 920);
	CHECK_EQ_U64(acct.total[CNT_SYSCALLS], 5);
	teardown();
}

/*
 * ktop's own system calls are dropped as decoded (the kernel's pid filter
 * would cost every traced switch): entries, exits, exit_group, fused or
 * not, and not counted in what the page returns; its switches stay, and
 * another thread's calls around them are untouched.
 */
static void test_own_calls_dropped(void)
{
	struct page p;
	uint8_t *r;

	if (!setup())
		return;
	acct.order_times = true;
	dec.self = 800;
	page_init(&p);
	add_enter(&p, 800, 0);		/* its read: entry and exit, fused */
	add_exit(&p, 800, 0, 5);
	add_exit(&p, 800, 17, 0);	/* an exit alone */
	add_enter(&p, 801, 39);		/* another's entry, then ktop's exit between */
	add_exit(&p, 800, 0, 1);
	add_exit(&p, 801, 39, 5);
	add_switch(&p, 800, 0x1);	/* its switch away: kept */
	r = rec_new(&p, ID_EXIT_GROUP, 800, 24);
	put32(r, 8, 231);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 3);
	evsums_time_calls(&acct);
	CHECK(!thr(800) || thr(800)->n[CNT_SYSCALLS] == 0);
	CHECK(thr(800) && thr(800)->n[CNT_VCSW] == 1);
	check_call(801, 39, 1, 1, 20);
	CHECK_EQ_U64(acct.total[CNT_SYSCALLS], 1);
	/* A page of nothing but its own calls decodes none: a tick's read ends there. */
	page_init(&p);
	add_exit(&p, 800, 0, 64);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 0);
	teardown();
}

static void test_missed_events(void)
{
	struct page p;
	uint64_t commit, lost = 1234;

	if (!setup())
		return;
	page_init(&p);
	add_exit(&p, 600, 0, 0);
	/* RB_MISSED_EVENTS | RB_MISSED_STORED: the count follows the data. */
	memcpy(p.b + 16 + p.len, &lost, 8);
	commit = p.len | (1ull << 31) | (1ull << 30);
	memcpy(p.b + 8, &commit, 8);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 1);
	CHECK_EQ_U64(acct.lost, 1234);
	/* Missed, count not stored. */
	commit = p.len | (1ull << 31);
	memcpy(p.b + 8, &commit, 8);
	evdecode_page(&dec, p.b, PAGE, &acct);
	CHECK(acct.lost_unknown);
	teardown();
}

/* Append raw 32-bit words (record headers and payloads of any type). */
static void page_words(struct page *p, const uint32_t *w, size_t n)
{
	uint64_t commit;

	memcpy(p->b + 16 + p->len, w, n * 4);
	p->len += n * 4;
	commit = p->len;
	memcpy(p->b + 8, &commit, 8);
}

/*
 * The other record types of the ring buffer: a long record (type_len 0, its
 * length in the next word), a time extend, an absolute time stamp, a
 * discarded record (padding with a delta) and the padding that ends a page.
 */
static void test_record_types(void)
{
	struct page p;
	uint8_t *r;
	uint32_t w[20];
	int64_t v;

	if (!setup())
		return;
	acct.order_times = true;
	page_init(&p);
	r = rec_new(&p, ID_ENTER, 800, 64);		/* t = 10 */
	put64(r, 8, 0);
	/* time extend: 2^27 * 3 + 5 ns */
	w[0] = 30 | (5u << 5);
	w[1] = 3;
	page_words(&p, w, 2);
	/* a discarded record, 20 bytes in all (its length word counts itself): its delta does not count */
	w[0] = 29 | (1000u << 5);
	w[1] = 16;
	w[2] = w[3] = w[4] = 0xdeadbeef;
	page_words(&p, w, 5);
	/* sys_exit as a long record: type_len 0, length word = 4 + 24 bytes, delta 7 */
	memset(w, 0, sizeof(w));
	w[0] = 0 | (7u << 5);
	w[1] = 4 + 24;
	memcpy(&w[2], &(uint16_t){ ID_EXIT }, 2);
	memcpy(&w[3], &(int32_t){ 800 }, 4);
	v = 0;
	memcpy(&w[4], &v, 8);	/* id: read */
	v = 3;
	memcpy(&w[6], &v, 8);	/* ret */
	page_words(&p, w, 8);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 2);
	CHECK_EQ_U64(sctable_find(&thr(800)->sc, 0)->calls, 1);
	CHECK_EQ_U64(sctable_find(&thr(800)->sc, 0)->time_ns, (3ull << 27) + 5 + 7);

	/* An absolute time stamp resets the clock; padding with delta 0 ends the page. */
	page_init(&p);
	r = rec_new(&p, ID_ENTER, 801, 64);		/* t = page time 0 + 10 */
	put64(r, 8, 1);
	w[0] = 31 | (100u << 5);			/* t = (1 << 27) | 100 */
	w[1] = 1;
	page_words(&p, w, 2);
	add_exit(&p, 801, 1, 0);			/* + 10 */
	w[0] = 29;					/* end of the page's data */
	w[1] = 0;
	page_words(&p, w, 2);
	add_exit(&p, 801, 1, 0);			/* past the end: never read */
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 2);
	CHECK_EQ_U64(sctable_find(&thr(801)->sc, 1)->calls, 1);
	CHECK_EQ_U64(sctable_find(&thr(801)->sc, 1)->time_ns, (1ull << 27) + 100 + 10 - 10);
	CHECK_EQ_U64(dec.malformed, 0);
	teardown();
}

/*
 * sys_exit's and sys_enter's fast paths (longs, decoded before the
 * dispatch) and the rest: a record shorter than its format is malformed,
 * not a call nor an entry; a kernel whose
 * sys_exit fields are ints (a 32-bit one's format) is decoded by the sizes
 * its format gives.
 */
static void test_sys_exit_shapes(void)
{
	static const char ints[] = "name: sys_exit\nID: 442\nformat:\n" COMMON
		"\tfield:int id;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n\nprint fmt: \"x\"\n";
	struct page p;
	uint8_t *r;

	if (!setup())
		return;
	acct.order_times = true;
	page_init(&p);
	r = rec_new(&p, ID_ENTER, 900, 64);
	put64(r, 8, 1);
	add_exit(&p, 900, 1, 5);			/* 10 ns later: timed */
	rec_new(&p, ID_ENTER, 900, 8);			/* needs 16 bytes */
	rec_new(&p, ID_EXIT, 900, 16);			/* needs 24 bytes */
	add_exit(&p, 900, 1, -2);			/* no entry read: not timed */
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 3);
	CHECK_EQ_U64(dec.malformed, 2);
	if (CHECK(thr(900) && sctable_find(&thr(900)->sc, 1))) {
		CHECK_EQ_U64(sctable_find(&thr(900)->sc, 1)->calls, 2);
		CHECK_EQ_U64(sctable_find(&thr(900)->sc, 1)->errors, 1);
		CHECK_EQ_U64(sctable_find(&thr(900)->sc, 1)->timed, 1);
		CHECK_EQ_U64(sctable_find(&thr(900)->sc, 1)->time_ns, 10);
	}
	teardown();

	evsums_init(&acct);
	if (!CHECK_EQ_I64(evdecode_init(&dec, header_page, sizeof(header_page) - 1), 0) ||
	    !CHECK_EQ_I64(evdecode_add(&dec, EV_SYS_EXIT, ints, sizeof(ints) - 1), 0)) {
		teardown();
		return;
	}
	page_init(&p);
	r = rec_new(&p, ID_EXIT, 901, 16);
	put32(r, 8, 0);		/* read */
	put32(r, 12, -11);	/* EAGAIN */
	r = rec_new(&p, ID_EXIT, 901, 16);
	put32(r, 8, 0);
	put32(r, 12, 64);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 2);
	if (CHECK(thr(901) && sctable_find(&thr(901)->sc, 0))) {
		CHECK_EQ_U64(sctable_find(&thr(901)->sc, 0)->calls, 2);
		CHECK_EQ_U64(sctable_find(&thr(901)->sc, 0)->errors, 1);
		CHECK_EQ_U64(sctable_find(&thr(901)->sc, 0)->top_errno, 11);
	}
	CHECK_EQ_U64(dec.malformed, 0);
	teardown();
}

static void test_bad_formats(void)
{
	struct evdecode d;
	static const char no_ret[] = "name: sys_exit\nID: 442\nformat:\n" COMMON
		"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n\nprint fmt: \"x\"\n";
	static const char outside[] = "name: sys_exit\nID: 442\nformat:\n" COMMON
		"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield:long ret;\toffset:9000;\tsize:8;\tsigned:1;\n\nprint fmt: \"x\"\n";

	if (!CHECK_EQ_I64(evdecode_init(&d, header_page, sizeof(header_page) - 1), 0))
		return;
	CHECK_EQ_I64(evdecode_add(&d, EV_SYS_EXIT, no_ret, sizeof(no_ret) - 1), -EINVAL);
	evdecode_free(&d);
	if (!CHECK_EQ_I64(evdecode_init(&d, header_page, sizeof(header_page) - 1), 0))
		return;
	CHECK_EQ_I64(evdecode_add(&d, EV_SYS_EXIT, outside, sizeof(outside) - 1), -EINVAL);
	CHECK_EQ_I64(evdecode_add(&d, EV_SYS_EXIT, "garbage", 7), -EINVAL);
	evdecode_free(&d);
}

static void test_hostile_pages(void)
{
	static struct page p;
	uint32_t seed = 42;
	uint64_t commit;
	int i;

	if (!setup())
		return;
	/* Commit larger than the page: refused. */
	page_init(&p);
	add_exit(&p, 700, 0, 0);
	commit = PAGE;
	memcpy(p.b + 8, &commit, 8);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), -EINVAL);
	CHECK_EQ_I64(evdecode_page(&dec, p.b, 8, &acct), -EINVAL);
	/* A record cut short by the page end, and one shorter than its format. */
	page_init(&p);
	add_exit(&p, 700, 0, 0);
	{
		uint8_t *r = rec_new(&p, ID_SWITCH, 700, 12);	/* needs 40 bytes */

		(void)r;
	}
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 1);
	CHECK(dec.malformed >= 1);
	/* Random pages with a plausible commit: anything but a crash or overread. */
	for (i = 0; i < 20000; i++) {
		uint32_t k;

		for (k = 0; k < PAGE; k += 4) {
			uint32_t v = test_rand(&seed);

			/* Mostly our ids, so records get decoded, not skipped. */
			if (k % 64 == 20)
				v = (v & 0xffff0000u) | (uint32_t)(v % 3 ? ID_EXIT : ID_EXEC);
			memcpy(p.b + k, &v, 4);
		}
		commit = test_rand(&seed) % (PAGE - 16) | ((uint64_t)(test_rand(&seed) & 3) << 30);
		memcpy(p.b + 8, &commit, 8);
		evdecode_page(&dec, p.b, PAGE, &acct);
		if (i % 1000 == 0)
			evsums_end_interval(&acct);
	}
	CHECK(1);
	teardown();
}

/*
 * Two CPUs whose events interleave: "sh" (700) forks 701 on CPU 0; 701 runs
 * on CPU 1, execs true, renames itself (prctl) and exits. CPU 1's page is
 * decoded first, as a tick reads the CPUs in turn: applied as decoded, the
 * fork, read last, would name the child "sh" again and undo its exit.
 */
static void pages_two_cpus(struct page *cpu0, struct page *cpu1)
{
	page_at(cpu0, 1000);
	add_exit(cpu0, 700, 0, 1);			/* 1000: sh reads */
	add_newtask(cpu0, 700, 701, 0x11, "sh");	/* 1010: fork */
	add_exit(cpu0, 700, 56, 701);			/* 1020: clone returns in sh */
	add_exit(cpu0, 700, 61, 701);			/* 1030: wait4 */
	page_at(cpu1, 1015);
	add_exec(cpu1, 701, 701, "/usr/bin/true");	/* 1015: exec, 5 ns after the fork */
	add_exit(cpu1, 701, 59, 0);			/* 1025 */
	add_rename(cpu1, 701, 701, "worker");		/* 1035: prctl(PR_SET_NAME) */
	add_pexit(cpu1, 701, true);			/* 1045 */
}

static void test_lifecycle_time_order(void)
{
	struct page cpu0, cpu1;
	struct evsums_thread *t;

	pages_two_cpus(&cpu0, &cpu1);
	/*
	 * Applied as decoded (acct.order_life off: one CPU, tests), each task's
	 * event times still keep the fork, read last, from undoing the rest.
	 */
	if (!setup())
		return;
	CHECK_EQ_I64(evdecode_page(&dec, cpu1.b, PAGE, &acct), 4);
	CHECK_EQ_I64(evdecode_page(&dec, cpu0.b, PAGE, &acct), 4);
	t = thr(701);
	CHECK(t && !strcmp(t->comm, "worker") && t->exited);	/* the times guard it */
	teardown();

	if (!setup())
		return;
	acct.order_life = true;
	CHECK_EQ_I64(evdecode_page(&dec, cpu1.b, PAGE, &acct), 4);
	CHECK_EQ_I64(evdecode_page(&dec, cpu0.b, PAGE, &acct), 4);
	/* Kept until every CPU is read: nothing applied yet but the counts. */
	CHECK_EQ_U64(acct.nborn, 0);
	CHECK_EQ_U64(thr(701)->n[CNT_SYSCALLS], 1);
	evsums_order_life(&acct);
	t = thr(701);
	if (!CHECK(t))
		goto out;
	CHECK_STR(t->comm, "worker");
	CHECK(t->named && t->renamed);
	CHECK_EQ_I64(t->exited, 1);
	CHECK_EQ_I64(t->tgid, 701);
	CHECK_EQ_I64(t->ppid, 700);
	CHECK(t->active);
	CHECK_EQ_U64(acct.nborn, 1);
	CHECK_EQ_U64(acct.ndead, 1);
	CHECK_EQ_U64(acct.nexecs, 1);
	CHECK_STR(acct.execs[0].file, "/usr/bin/true");
	CHECK_EQ_U64(thr(700)->n[CNT_SYSCALLS], 3);
out:
	teardown();
}

/*
 * A tick read CPU 1 after the child's exec and exit, CPU 0 before the fork
 * was written: the fork comes a tick late, and must not undo them.
 */
static void test_lifecycle_late_fork(void)
{
	struct page cpu0, cpu1;
	struct evsums_thread *t;

	pages_two_cpus(&cpu0, &cpu1);
	if (!setup())
		return;
	acct.order_life = true;
	evdecode_page(&dec, cpu1.b, PAGE, &acct);
	evsums_order_life(&acct);
	CHECK_STR(thr(701)->comm, "worker");
	CHECK_EQ_I64(thr(701)->ppid, 0);	/* not known yet */
	evsums_end_interval(&acct);
	evdecode_page(&dec, cpu0.b, PAGE, &acct);
	evsums_order_life(&acct);
	t = thr(701);
	if (!CHECK(t))
		goto out;
	CHECK_STR(t->comm, "worker");
	CHECK(t->exited > 0);
	CHECK_EQ_I64(t->ppid, 700);		/* what the fork alone knew */
	CHECK_EQ_U64(acct.nborn, 1);
out:
	teardown();
}

/* task_rename names the task of its pid field (a /proc/PID/comm write), else the writer. */
static void test_rename(void)
{
	struct page p;

	if (!setup())
		return;
	page_init(&p);
	add_rename(&p, 800, 801, "other-thread");
	add_rename(&p, 800, 800, "a-name-longer-than-15");
	CHECK_EQ_I64(evdecode_page(&dec, p.b, PAGE, &acct), 2);
	CHECK_STR(thr(801)->comm, "other-thread");
	CHECK_STR(thr(800)->comm, "a-name-longer-t");
	CHECK(thr(800)->named && !thr(800)->renamed);	/* named, not exec'd */
	evsums_end_interval(&acct);
	CHECK(!thr(800)->named);
	teardown();
}

static const struct test tests[] = {
	{ "sys_exit: calls, -errno errors, fork child returns, rt_sigreturn", test_syscalls_and_errors },
	{ "sys_exit: a short record is malformed; int fields decoded by their size",
	  test_sys_exit_shapes },
	{ "sched_switch: blocked = voluntary, R and R+ = involuntary", test_switches },
	{ "newtask/exec/exit: threads, processes, comm, late exits", test_lifecycle },
	{ "two CPUs interleaved: fork, exec, rename, exit applied in time order", test_lifecycle_time_order },
	{ "a fork read a tick after its child's exec and exit undoes neither", test_lifecycle_late_fork },
	{ "task_rename: the pid field's task, 15 bytes", test_rename },
	{ "signal_generate: queued results count, interrupts send nothing", test_signals },
	{ "exit_group counted at entry; enter/exit pairs time a call", test_noreturn_and_timing },
	{ "--latency: an entry paired with its exit read next, not with another's",
	  test_enter_read_ahead },
	{ "ktop's own calls dropped as decoded, its switches kept", test_own_calls_dropped },
	{ "missed-event markers: stored count and unknown count", test_missed_events },
	{ "long records, time extends, absolute stamps, discarded and end padding", test_record_types },
	{ "formats missing a field or out of the page are refused", test_bad_formats },
	{ "hostile pages: bad commit, short records, 20000 random pages", test_hostile_pages },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
