// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/focus/evrich.c: the focus view's rich events decoded from
 * synthetic ring-buffer pages (the 6.18 formats of evformats.h), merged in
 * time order through cursors, and rendered as the event list shows them.
 * Hostile pages must be rejected without reading outside them (ASan build).
 */
#include <errno.h>
#include <sys/syscall.h>

#include "evformats.h"
#include "../../collectors/focus/evrich.h"
#include "../../lib/signames.h"
#include "../../tables/kevtext.h"
#include "../../lib/util.h"
#include "test.h"

/* The focus decoder's tracepoints, with the formats shared with test_evdecode.c. */
static const struct {
	enum rich_tp tp;
	const char *format;
} rich_formats[] = {
	{ RT_SYS_ENTER, FMT_SYS_ENTER },
	{ RT_SYS_EXIT, FMT_SYS_EXIT },
	{ RT_SWITCH, FMT_SWITCH },
	{ RT_FAULT, FMT_FAULT },
	{ RT_SIGGEN, FMT_SIGNAL },
	{ RT_SIGDELIVER, FMT_SIGDELIVER },
	{ RT_NEWTASK, FMT_NEWTASK },
	{ RT_EXEC, FMT_EXEC },
	{ RT_EXIT, FMT_PEXIT },
};

#define PAGE 4096

struct page {
	uint8_t b[PAGE];
	size_t len;
};

static void page_init(struct page *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, &ts, 8);
}

/* A record: 4-byte header (type_len = words, time delta), payload padded to 4. */
static uint8_t *rec_new(struct page *p, uint16_t id, int32_t pid, size_t size, uint32_t delta)
{
	size_t words = (size + 3) / 4;
	uint32_t hdr = (uint32_t)words | (delta << 5);
	uint8_t *r;
	uint64_t commit;

	memcpy(p->b + 16 + p->len, &hdr, 4);
	r = p->b + 16 + p->len + 4;
	memset(r, 0, words * 4);
	p->len += 4 + words * 4;
	commit = p->len;
	memcpy(p->b + 8, &commit, 8);
	memcpy(r, &id, 2);
	memcpy(r + 4, &pid, 4);
	return r;
}

static void put64(uint8_t *r, int off, int64_t v) { memcpy(r + off, &v, 8); }
static void put32(uint8_t *r, int off, int32_t v) { memcpy(r + off, &v, 4); }

static struct evrich dec;

static bool setup(void)
{
	size_t i;

	if (!CHECK_EQ_I64(evrich_init(&dec, header_page, strlen(header_page)), 0))
		return false;
	for (i = 0; i < ARRAY_SIZE(rich_formats); i++)
		if (!CHECK_EQ_I64(evrich_add(&dec, rich_formats[i].tp, rich_formats[i].format,
					     strlen(rich_formats[i].format)), 0))
			return false;
	return true;
}

#define MAX_RECS 16
static struct evrich_rec got[MAX_RECS];
static int ngot;

static void collect(void *ctx, const struct evrich_rec *r)
{
	(void)ctx;
	if (ngot < MAX_RECS)
		got[ngot++] = *r;
}

static int decode(const struct page *p)
{
	long missed;

	ngot = 0;
	return evrich_page(&dec, p->b, PAGE, collect, NULL, &missed);
}

static void test_syscall_records(void)
{
	struct page p;
	uint8_t *r;
	int i;

	if (!setup())
		return;
	page_init(&p, 1000000);
	r = rec_new(&p, ID_ENTER, 77, 64, 10);
	put64(r, 8, SYS_openat);
	for (i = 0; i < 6; i++)
		put64(r, 16 + 8 * i, i == 0 ? 0xffffff9cll : 0x1000ll * (i + 1));
	r = rec_new(&p, ID_EXIT, 77, 24, 12100);
	put64(r, 8, SYS_openat);
	put64(r, 16, -2);
	CHECK_EQ_I64(decode(&p), 2);
	CHECK_EQ_I64(got[0].tp, RT_SYS_ENTER);
	CHECK_EQ_I64(got[0].pid, 77);
	CHECK_EQ_U64(got[0].ts, 1000010);
	CHECK_EQ_I64(got[0].ev.u.sc.nr, SYS_openat);
	CHECK_EQ_U64(got[0].ev.u.sc.args[0], 0xffffff9c);
	CHECK_EQ_U64(got[0].ev.u.sc.args[5], 0x6000);
	CHECK_EQ_I64(got[1].tp, RT_SYS_EXIT);
	CHECK_EQ_U64(got[1].ts, 1000010 + 12100);
	CHECK_EQ_I64(got[1].ev.u.sc.ret, -2);
	evrich_free(&dec);
}

static void test_other_records(void)
{
	struct page p;
	uint8_t *r;
	const char file[] = "/usr/bin/true";

	if (!setup())
		return;
	page_init(&p, 5);
	r = rec_new(&p, ID_SWITCH, 77, 64, 1);
	memcpy(r + 8, "evwl", 5);
	put32(r, 24, 77);
	put64(r, 32, 0x100);	/* preempted */
	memcpy(r + 40, "kworker/0:1", 12);
	put32(r, 56, 12);
	r = rec_new(&p, ID_FAULT, 77, 32, 1);
	put64(r, 8, 0x7f0000001000);
	put64(r, 16, 0x401000);
	put64(r, 24, 6);	/* write, user, not present */
	r = rec_new(&p, ID_SIGNAL, 99, 48, 1);
	r[2] = 0;		/* task context */
	put32(r, 8, 10);
	memcpy(r + 20, "evwl", 5);
	put32(r, 36, 77);
	put32(r, 44, 0);
	r = rec_new(&p, ID_SIGDEL, 77, 40, 1);
	put32(r, 8, 10);
	put64(r, 24, 0x401234);
	r = rec_new(&p, ID_NEWTASK, 77, 42, 1);
	put32(r, 8, 78);
	memcpy(r + 12, "evwl", 5);
	put64(r, 32, 0x3d0f00);	/* CLONE_THREAD among them */
	r = rec_new(&p, ID_EXEC, 77, 20 + sizeof(file), 1);
	put32(r, 8, (int32_t)((sizeof(file) << 16) | 20));
	put32(r, 12, 77);
	put32(r, 16, 78);
	memcpy(r + 20, file, sizeof(file));
	r = rec_new(&p, ID_PEXIT, 77, 33, 1);
	put32(r, 24, 77);
	r[32] = 1;
	CHECK_EQ_I64(decode(&p), 7);
	CHECK_EQ_I64(got[0].ev.kind, KEV_SWITCH);
	CHECK_EQ_I64(got[0].ev.u.sw.prev, 77);
	CHECK_EQ_I64(got[0].ev.u.sw.next, 12);
	CHECK_STR(got[0].ev.u.sw.next_comm, "kworker/0:1");
	CHECK_EQ_I64(got[1].ev.kind, KEV_FAULT);
	CHECK_EQ_U64(got[1].ev.u.pf.address, 0x7f0000001000);
	CHECK_EQ_U64(got[1].ev.u.pf.error_code, 6);
	CHECK_EQ_I64(got[2].ev.kind, KEV_SIGGEN);
	CHECK_EQ_I64(got[2].ev.u.sig.sender, 99);
	CHECK_EQ_I64(got[2].ev.u.sig.target, 77);
	CHECK_EQ_I64(got[2].ev.u.sig.sig, 10);
	CHECK_EQ_I64(got[3].ev.kind, KEV_SIGDELIVER);
	CHECK_EQ_U64(got[3].ev.u.sig.handler, 0x401234);
	CHECK_EQ_I64(got[4].ev.u.fork.parent, 77);
	CHECK_EQ_I64(got[4].ev.u.fork.child, 78);
	CHECK_EQ_I64(got[5].ev.kind, KEV_EXEC);
	CHECK_STR(got[5].ev.u.exec.file, "/usr/bin/true");
	CHECK_EQ_I64(got[5].ev.u.exec.old_pid, 78);
	CHECK_EQ_I64(got[6].ev.kind, KEV_EXIT);
	CHECK_EQ_I64(got[6].ev.u.exit.group_dead, 1);
	evrich_free(&dec);
}

/* Two CPUs' pages walked by cursors in time order: enter on one, exit on the other. */
static void test_cursor_merge(void)
{
	struct page a, b;
	struct evrich_cursor ca, cb;
	struct evrich_rec r;
	uint64_t order[4];
	long missed;
	int n = 0;
	uint8_t *x;

	if (!setup())
		return;
	page_init(&a, 100);
	x = rec_new(&a, ID_ENTER, 5, 64, 0);	/* t=100 */
	put64(x, 8, SYS_read);
	x = rec_new(&a, ID_EXIT, 6, 24, 50);	/* t=150 */
	put64(x, 8, SYS_getppid);
	page_init(&b, 120);
	x = rec_new(&b, ID_ENTER, 6, 64, 0);	/* t=120 */
	put64(x, 8, SYS_getppid);
	x = rec_new(&b, ID_EXIT, 5, 24, 80);	/* t=200 */
	put64(x, 8, SYS_read);
	CHECK_EQ_I64(evrich_cursor_load(&dec, &ca, a.b, PAGE, &missed), 0);
	CHECK_EQ_I64(evrich_cursor_load(&dec, &cb, b.b, PAGE, &missed), 0);
	while (ca.rec || cb.rec) {
		struct evrich_cursor *c = !cb.rec || (ca.rec && ca.ts <= cb.ts) ? &ca : &cb;

		evrich_cursor_decode(&dec, c, &r);
		if (n < 4)
			order[n++] = r.ts;
		evrich_cursor_next(&dec, c);
	}
	CHECK_EQ_I64(n, 4);
	CHECK_EQ_U64(order[0], 100);
	CHECK_EQ_U64(order[1], 120);
	CHECK_EQ_U64(order[2], 150);
	CHECK_EQ_U64(order[3], 200);
	evrich_free(&dec);
}

static void test_render(void)
{
	struct kev e;
	char buf[256], t[64];

	memset(&e, 0, sizeof(e));
	e.kind = KEV_SYSCALL;
	e.nargs = 4;
	e.u.sc.nr = SYS_openat;
	e.u.sc.args[0] = 0xffffff9c;
	e.u.sc.args[1] = 0x7ffd1234;
	e.u.sc.args[2] = 0x80000;
	e.u.sc.ret = 3;
	e.u.sc.dur_ns = 12100;
	CHECK_STR(kevtext_render(&e, buf, sizeof(buf)),
		  "openat(0xffffff9c, 0x7ffd1234, 0x80000, 0) = 3 <12.1 us>");
	e.u.sc.ret = -2;
	CHECK_STR(kevtext_render(&e, buf, sizeof(buf)),
		  "openat(0xffffff9c, 0x7ffd1234, 0x80000, 0) = -2 ENOENT <12.1 us>");
	e.flags = KEVF_NO_ENTER;
	CHECK_STR(kevtext_render(&e, buf, sizeof(buf)), "openat(?) = -2 ENOENT");
	e.flags = KEVF_NO_EXIT;
	e.u.sc.nr = SYS_exit_group;
	e.nargs = 1;
	e.u.sc.args[0] = 0;
	CHECK_STR(kevtext_render(&e, buf, sizeof(buf)), "exit_group(0) = ?");
	/* A cut buffer stays terminated. */
	kevtext_render(&e, buf, 5);
	CHECK_STR(buf, "exit");

	memset(&e, 0, sizeof(e));
	e.kind = KEV_SWITCH;
	e.u.sw.prev = 77;
	e.u.sw.next = 0;
	e.u.sw.prev_state = 2;
	memcpy(e.u.sw.next_comm, "swapper/1", 10);
	CHECK_STR(kevtext_render(&e, buf, sizeof(buf)), "switch out D -> 0 swapper/1");
	CHECK_STR(kevtext_switch_state(0x100, t, sizeof(t)), "R+");
	CHECK_STR(kevtext_switch_state(0, t, sizeof(t)), "R");
	CHECK_STR(kevtext_switch_state(1, t, sizeof(t)), "S");

	CHECK_STR(kevtext_fault_text(6, t, sizeof(t)), "write user not-present");
	CHECK_STR(kevtext_fault_text(5, t, sizeof(t)), "read user protection");
	CHECK_STR(kevtext_fault_text(0x14, t, sizeof(t)), "read user not-present ifetch");
	CHECK_STR(signal_name(10, t, sizeof(t)), "SIGUSR1");
	CHECK_STR(kevtext_sig_result(1), "ignored");
	CHECK_STR(kevtext_sig_result(42), "?");
	CHECK_EQ_I64(kev_kind_by_name("fault"), KEV_FAULT);
	CHECK_EQ_I64(kev_kind_by_name("sys"), KEV_SYSCALL);
	CHECK_EQ_I64(kev_kind_by_name("e"), -1);	/* exec, exit: ambiguous */
	CHECK_EQ_I64(kev_kind_by_name("nope"), -1);
}

static void test_hostile_pages(void)
{
	struct page p;
	uint64_t commit;
	unsigned seed = 12345;
	int round, i;

	if (!setup())
		return;
	/* A commit larger than the page. */
	page_init(&p, 0);
	commit = PAGE;
	memcpy(p.b + 8, &commit, 8);
	CHECK_EQ_I64(decode(&p), -EINVAL);
	/* A record shorter than its format says: skipped, counted. */
	page_init(&p, 0);
	rec_new(&p, ID_SIGNAL, 1, 12, 1);
	CHECK_EQ_I64(decode(&p), 0);
	CHECK(dec.malformed > 0);
	/* Random bytes after a plausible header: no crash, no read outside. */
	for (round = 0; round < 200; round++) {
		page_init(&p, 0);
		for (i = 16; i < PAGE; i++) {
			seed = seed * 1103515245 + 12345;
			p.b[i] = (uint8_t)(seed >> 16);
		}
		commit = (seed >> 8) % (PAGE - 16);
		memcpy(p.b + 8, &commit, 8);
		decode(&p);
	}
	evrich_free(&dec);
}

static const struct test tests[] = {
	{ "raw_syscalls: number, six arguments, return, times", test_syscall_records },
	{ "switch, fault, signals, fork, exec, exit decoded", test_other_records },
	{ "cursors merge two CPUs in time order", test_cursor_merge },
	{ "rendering: strace-like calls, switch states, fault codes, names", test_render },
	{ "hostile pages rejected", test_hostile_pages },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
