// SPDX-License-Identifier: GPL-2.0-only
/*
 * outputs/rwproto: a text exposition to a remote write body and back. The
 * bytes are checked against a WriteRequest written by hand from the protobuf
 * definition, and snappy's block decodes to them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <snappy-c.h>

#include "../../outputs/rwproto.h"
#include "test.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The raw protobuf of @b. */
static char *unsnappy(const struct rw_body *b, size_t *len)
{
	char *raw;

	if (snappy_uncompressed_length(b->data, b->len, len) != SNAPPY_OK)
		return NULL;
	raw = malloc(*len + 1);
	if (raw && snappy_uncompress(b->data, b->len, raw, len) != SNAPPY_OK) {
		free(raw);
		return NULL;
	}
	return raw;
}

static void test_bytes(void)
{
	/* up 1 @ 1000 ms: hand-encoded from remote.proto. */
	static const unsigned char want[] = {
		0x0a, 0x1e,				/* TimeSeries, 30 bytes */
		0x0a, 0x0e,				/* Label, 14 */
		0x0a, 0x08, '_', '_', 'n', 'a', 'm', 'e', '_', '_',
		0x12, 0x02, 'u', 'p',
		0x12, 0x0c,				/* Sample, 12 */
		0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,	/* value 1.0 */
		0x10, 0xe8, 0x07,			/* timestamp 1000 */
	};
	struct rw_body b;
	char err[128], *raw;
	size_t len;

	if (!CHECK_EQ_I64(rw_encode("# HELP up x\nup 1\n", 17, 1000, NULL, 0, &b, err, sizeof(err)), 0))
		return;
	CHECK_EQ_U64(b.samples, 1);
	raw = unsnappy(&b, &len);
	if (CHECK(raw)) {
		CHECK_EQ_U64(len, sizeof(want));
		CHECK(len == sizeof(want) && !memcmp(raw, want, len));
	}
	free(raw);
	free(b.data);
}

static void test_roundtrip(void)
{
	static const char page[] =
		"# HELP ktop_syscalls_total x\n"
		"# TYPE ktop_syscalls_total counter\n"
		"ktop_syscalls_total{comm=\"a\\\"b\\\\c\\nd\",syscall=\"kill\"} 777\n"
		"ktop_tracing{reason=\"\"} 1\n"
		"ktop_cpu_seconds_total{comm=\"x\",mode=\"user\"} 1.5e-05\n"
		"ktop_x{instance=\"mine\"} NaN\n";
	static const struct rw_label ext[] = { { "instance", "host1" }, { "job", "ktop" } };
	static const char want[] =
		"__name__=\"ktop_syscalls_total\",comm=\"a\"b\\c\nd\",instance=\"host1\",job=\"ktop\",syscall=\"kill\" 777 1700000000123\n"
		"__name__=\"ktop_tracing\",instance=\"host1\",job=\"ktop\" 1 1700000000123\n"
		"__name__=\"ktop_cpu_seconds_total\",comm=\"x\",instance=\"host1\",job=\"ktop\",mode=\"user\" 1.5e-05 1700000000123\n"
		"__name__=\"ktop_x\",instance=\"mine\",job=\"ktop\" nan 1700000000123\n";
	struct rw_body b;
	char err[128], *raw, *text = NULL;
	size_t len, tlen;

	if (!CHECK_EQ_I64(rw_encode(page, strlen(page), 1700000000123ll, ext, 2, &b, err,
				    sizeof(err)), 0))
		return;
	CHECK_EQ_U64(b.samples, 4);
	raw = unsnappy(&b, &len);
	if (CHECK(raw) && CHECK_EQ_I64(rw_decode_text(raw, len, &text, &tlen), 0))
		CHECK_STR(text, want);
	free(text);
	free(raw);
	free(b.data);
}

static void test_bad(void)
{
	static const char *const bad[] = { "x{a=\"b} 1\n", "x 1x\n", "{a=\"b\"} 1\n", "x\n" };
	struct rw_body b;
	char err[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK_EQ_I64(rw_encode(bad[i], strlen(bad[i]), 1, NULL, 0, &b, err, sizeof(err)), -EINVAL);
		CHECK(b.data == NULL);
	}
}

/* ---- the direct encoding against the text's ---- */

/* Both bodies' WriteRequests: the same bytes, and decoded the same series. */
static void check_same(const struct rw_body *direct, const struct rw_body *text, size_t want)
{
	char *a, *b, *ta = NULL, *tb = NULL;
	size_t la, lb, tla, tlb;

	CHECK_EQ_U64(direct->samples, want);
	CHECK_EQ_U64(text->samples, want);
	a = unsnappy(direct, &la);
	b = unsnappy(text, &lb);
	if (CHECK(a) && CHECK(b) && CHECK_EQ_I64(rw_decode_text(a, la, &ta, &tla), 0) &&
	    CHECK_EQ_I64(rw_decode_text(b, lb, &tb, &tlb), 0)) {
		CHECK_STR(ta, tb);
		/* NaN's bits and -0 too: what decoding prints alike. */
		CHECK(la == lb && !memcmp(a, b, la));
	}
	free(ta);
	free(tb);
	free(a);
	free(b);
}

static struct prom_family *family(const char *name, enum prom_type t, enum prom_value v,
				  const char *const *labels, size_t n, size_t max_series)
{
	struct prom_family_def d = { name, t, v, NULL, "help", labels, n, max_series };
	char err[128];
	struct prom_family *f = prom_family_new(&d, err, sizeof(err));

	if (!f)
		printf("# %s\n", err);
	return f;
}

/*
 * A histogram's series written by hand (promtext has no histogram family):
 * _bucket with "le", _sum, _count, as a histogram family's would be.
 */
static int histogram(const struct prom_out *o, const char *comm, const uint64_t *counts,
		     double sum)
{
	static const char *const le[] = { "1e-06", "0.001", "+Inf" };
	struct prom_label l[2] = { { "comm", comm, strlen(comm) }, { "le", NULL, 0 } };
	struct prom_sample s = { .name = "ktop_hand_seconds", .suffix = "_bucket",
				 .labels = l, .nlabels = 2, .type = PROM_U64 };
	int r = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(le); i++) {
		l[1].value = le[i];
		l[1].len = strlen(le[i]);
		s.u = counts[i];
		r |= prom_emit_sample(o, &s);
	}
	s.suffix = "_sum";
	s.nlabels = 1;
	s.type = PROM_DOUBLE;
	s.d = sum;
	r |= prom_emit_sample(o, &s);
	s.suffix = "_count";
	s.type = PROM_U64;
	s.u = counts[2];
	return r | prom_emit_sample(o, &s);
}

/*
 * Families rendered once to text and to the direct encoder at the same time
 * (one prom_out): the text read back by rw_encode (the push before) and the
 * samples encoded directly give the same WriteRequest. Escapes, bytes that
 * are not UTF-8, empty values, a series' own instance label, NaN, -0, +Inf,
 * integers past 2^53, a capped family's overflow (two scrapes: it is sticky),
 * a family without labels and a histogram.
 */
static void test_direct_equals_text(void)
{
	static const char *const sc_l[] = { "comm", "syscall" }, *const g_l[] = { "instance" };
	static const struct rw_label ext[] = { { "instance", "host1" }, { "job", "ktop" } };
	struct prom_family *sc = family("ktop_syscalls", PROM_COUNTER, PROM_U64, sc_l, 2, 3);
	struct prom_family *cpu = family("ktop_cpu_seconds", PROM_COUNTER, PROM_DOUBLE, sc_l, 1, 0);
	struct prom_family *g = family("ktop_x", PROM_GAUGE, PROM_DOUBLE, g_l, 1, 0);
	struct prom_family *ticks = family("ktop_refreshes", PROM_COUNTER, PROM_U64, NULL, 0, 0);
	/* a histogram family, capped at 1 series: its overflow's buckets too */
	static const double bounds[] = { 1e-06, 0.001, 2.5 };
	struct prom_family_def hd = { "ktop_syscall_duration_seconds", PROM_HISTOGRAM, PROM_U64,
				      "seconds", "help", sc_l, 2, 1 };
	char herr[128];
	struct prom_family *hist = prom_family_new_hist(&hd, bounds, 3, herr, sizeof(herr));
	struct rw_writer *w = rw_writer_new(ext, ARRAY_SIZE(ext));
	struct prom_buf text = { 0 };
	int round;

	if (!hist)
		printf("# %s\n", herr);
	if (!CHECK(sc && cpu && g && ticks && hist && w))
		goto out;
	for (round = 0; round < 2; round++) {
		struct prom_out o = { .text = &text, .fmt = PROM_FMT_TEXT, .sample = rw_writer_sample,
				      .ctx = w };
		const uint64_t hist_counts[3] = { 3, 70 + (uint64_t)round, 777 };
		struct rw_body direct, old;
		char err[128];

		prom_buf_reset(&text);
		rw_writer_begin(w, 1700000000123ll + round * 1000);
		prom_family_begin(sc);
		prom_family_add_u64(sc, (const char *[]){ "a\"b\\c\nd", "kill" }, 777 + (uint64_t)round);
		prom_family_add_u64(sc, (const char *[]){ "bad\xff\x01utf8", "read" }, 9007199254740993ull);
		prom_family_add_u64(sc, (const char *[]){ "", "write" }, UINT64_MAX);
		prom_family_add_u64(sc, (const char *[]){ "x", "openat" }, 5);
		/* past the cap of 3: the overflow "other" series */
		prom_family_add_u64(sc, (const char *[]){ "y", "openat" }, 2 + (uint64_t)round);
		prom_family_add_u64(sc, (const char *[]){ "z", "close" }, 1);
		CHECK_EQ_I64(prom_family_emit(sc, &o), 0);
		prom_family_begin(cpu);
		prom_family_add_double(cpu, (const char *[]){ "a" }, 1.5e-05);
		prom_family_add_double(cpu, (const char *[]){ "b" }, 0.1 + 0.2);
		prom_family_add_double(cpu, (const char *[]){ "c" }, 1e300);
		CHECK_EQ_I64(prom_family_emit(cpu, &o), 0);
		prom_family_begin(g);
		prom_family_add_double(g, (const char *[]){ "mine" }, NAN);
		prom_family_add_double(g, (const char *[]){ "" }, -0.0);
		prom_family_add_double(g, (const char *[]){ "neg" }, -INFINITY);
		prom_family_add_double(g, (const char *[]){ "tiny" }, 5e-324);
		CHECK_EQ_I64(prom_family_emit(g, &o), 0);
		prom_family_begin(ticks);
		prom_family_add_u64(ticks, NULL, 42);
		CHECK_EQ_I64(prom_family_emit(ticks, &o), 0);
		CHECK_EQ_I64(histogram(&o, "sh", hist_counts, 0.0123), 0);
		prom_family_begin(hist);
		prom_family_add_hist(hist, (const char *[]){ "sh", "read" }, (const uint64_t[]){ 1, 2, 3, 4 },
				     0.5 + round);
		prom_family_add_hist(hist, (const char *[]){ "a\"b", "nanosleep" },
				     (const uint64_t[]){ 0, 0, 50, (uint64_t)round }, 0.51);
		CHECK_EQ_I64(prom_family_emit(hist, &o), 0);
		CHECK_EQ_I64(prom_out_eof(&o), 0);
		if (!CHECK_EQ_I64(rw_writer_end(w, &direct, err, sizeof(err)), 0))
			break;
		if (CHECK_EQ_I64(rw_encode(text.data, text.len, 1700000000123ll + round * 1000, ext,
					   ARRAY_SIZE(ext), &old, err, sizeof(err)), 0)) {
			/* 3 own + other; 3; 4; 1; 3 buckets, sum, count; 2 x (4 buckets, sum, count) */
			check_same(&direct, &old, 4 + 3 + 4 + 1 + 5 + 12);
			free(old.data);
		}
	}
	/* What the text said of the odd ones, as a check that they were there. */
	CHECK(strstr(text.data, "comm=\"a\\\"b\\\\c\\nd\""));
	CHECK(strstr(text.data, "ktop_hand_seconds_bucket{comm=\"sh\",le=\"+Inf\"} 777\n"));
	CHECK(strstr(text.data, "ktop_syscall_duration_seconds_bucket{comm=\"other\",syscall=\"other\",le=\"2.5\"} "));
	/* x 5, y 2 then 3, z 1: past the cap, the overflow's increases */
	CHECK(strstr(text.data, "ktop_syscalls_total{comm=\"other\",syscall=\"other\"} 9\n"));
out:
	prom_buf_free(&text);
	rw_writer_free(w);
	prom_family_free(sc);
	prom_family_free(cpu);
	prom_family_free(g);
	prom_family_free(ticks);
	prom_family_free(hist);
}

/*
 * One writer, its buffers kept from push to push: a body of many snappy
 * blocks (64 KiB), then a smaller one, then an empty one: each decodes to
 * its own protobuf, whole (nothing of the one before), and is what
 * snappy_compress makes of it.
 */
static void test_large_body(void)
{
	static const struct rw_label ext[] = { { "instance", "a-host-name" } };
	struct rw_writer *w = rw_writer_new(ext, 1);
	const size_t counts[] = { 20000, 1500, 0 };
	size_t k;

	if (!CHECK(w))
		return;
	for (k = 0; k < ARRAY_SIZE(counts); k++) {
		struct prom_out o = { .sample = rw_writer_sample, .ctx = w };
		char err[128], comm[32], *raw = NULL, *one = NULL;
		struct prom_label l[2] = { { "comm", comm, 0 }, { "syscall", "openat", 6 } };
		struct prom_sample smp = { .name = "ktop_syscalls", .suffix = "_total", .labels = l,
					   .nlabels = 2, .type = PROM_U64 };
		struct rw_body b;
		size_t i, len = 0, one_len;

		rw_writer_begin(w, 1700000000000ll + (int64_t)k);
		for (i = 0; i < counts[k]; i++) {
			l[0].len = (size_t)snprintf(comm, sizeof(comm), "worker-%zu", i * 7919 % 100003);
			smp.u = i * i;
			CHECK_EQ_I64(prom_emit_sample(&o, &smp), 0);
		}
		if (!CHECK_EQ_I64(rw_writer_end(w, &b, err, sizeof(err)), 0))
			break;
		CHECK_EQ_U64(b.samples, counts[k]);
		if (k == 0)
			CHECK(b.raw_len > 10 * 65536);
		raw = unsnappy(&b, &len);
		if (CHECK(raw)) {
			CHECK_EQ_U64(len, b.raw_len);
			one_len = snappy_max_compressed_length(len);
			one = malloc(one_len);
			if (CHECK(one) && CHECK(snappy_compress(raw, len, one, &one_len) == SNAPPY_OK)) {
				CHECK_EQ_U64(b.len, one_len);
				CHECK(b.len == one_len && !memcmp(b.data, one, one_len));
			}
		}
		if (k == 0 && raw && len > 100) {
			char *text = NULL;
			size_t tl;

			/* the last series whole, past the last block's start */
			if (CHECK_EQ_I64(rw_decode_text(raw, len, &text, &tl), 0))
				CHECK(strstr(text, "\n__name__=\"ktop_syscalls_total\",comm=\"worker-") != NULL &&
				      strstr(text, " 399960001 1700000000000\n") != NULL);
			free(text);
		}
		free(one);
		free(raw);
	}
	rw_writer_free(w);
}

/*
 * A process name with a bidi override (U+202E) and a zero-width space: the
 * pushed label value is what /metrics shows ('?' for each, as text and CSV
 * show them), never the invisible bytes.
 */
static void test_invisible(void)
{
	static const char *const l[] = { "comm" };
	struct prom_family *f = family("ktop_processes", PROM_GAUGE, PROM_U64, l, 1, 0);
	struct rw_writer *w = rw_writer_new(NULL, 0);
	struct prom_out o = { .sample = rw_writer_sample, .ctx = w };
	struct rw_body b;
	char err[128], *raw = NULL, *text = NULL;
	size_t len = 0, tl;

	if (!CHECK(f && w))
		goto out;
	rw_writer_begin(w, 1700000000000ll);
	prom_family_begin(f);
	prom_family_add_u64(f, (const char *[]){ "x\xe2\x80\xae" "abc\xe2\x80\x8b" }, 1);
	CHECK_EQ_I64(prom_family_emit(f, &o), 0);
	if (!CHECK_EQ_I64(rw_writer_end(w, &b, err, sizeof(err)), 0))
		goto out;
	raw = unsnappy(&b, &len);
	if (CHECK(raw) && CHECK_EQ_I64(rw_decode_text(raw, len, &text, &tl), 0)) {
		CHECK(strstr(text, "__name__=\"ktop_processes\",comm=\"x?abc?\" 1 1700000000000\n") != NULL);
		CHECK(!memmem(raw, len, "\xe2\x80", 2));
	}
out:
	free(text);
	free(raw);
	rw_writer_free(w);
	prom_family_free(f);
}

static const struct test tests[] = {
	{ "rwproto: the bytes of a WriteRequest", test_bytes },
	{ "rwproto: escapes, external labels, sorted labels, empty labels dropped", test_roundtrip },
	{ "rwproto: lines not of the text format", test_bad },
	{ "rwproto: the samples encoded directly equal the text's encoding", test_direct_equals_text },
	{ "rwproto: bodies large, small and empty from one writer", test_large_body },
	{ "rwproto: invisible characters of a name are '?', as /metrics writes them", test_invisible },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
