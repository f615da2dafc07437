// SPDX-License-Identifier: GPL-2.0-only
/*
 * outputs/rwproto: a text exposition to a remote write body and back. The
 * bytes are checked against a WriteRequest written by hand from the protobuf
 * definition, and snappy's block decodes to them.
 */
#include <errno.h>
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

static const struct test tests[] = {
	{ "rwproto: the bytes of a WriteRequest", test_bytes },
	{ "rwproto: escapes, external labels, sorted labels, empty labels dropped", test_roundtrip },
	{ "rwproto: lines not of the text format", test_bad },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
