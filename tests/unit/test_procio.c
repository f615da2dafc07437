// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/proc/procio.c's parser of /proc/PID/io: the kernel's
 * file as it is, fields in another order, values at the limits, and cut,
 * empty or hostile buffers (never read past the buffer, never a wrong number).
 */
#include <errno.h>

#include "../../collectors/proc/procio.h"
#include "../../lib/util.h"
#include "test.h"

static int parse(const char *s, struct procio *io)
{
	return procio_parse(s, strlen(s), io);
}

static void test_kernel_file(void)
{
	static const char f[] = "rchar: 10498\nwchar: 8389035\nsyscr: 12\nsyscw: 10\n"
				"read_bytes: 1048576\nwrite_bytes: 8388608\ncancelled_write_bytes: 4096\n";
	struct procio io;

	CHECK(parse(f, &io) == 0);
	CHECK_EQ_U64(io.read_bytes, 1048576);
	CHECK_EQ_U64(io.write_bytes, 8388608);
	CHECK_EQ_U64(io.cancelled_write_bytes, 4096);
}

static void test_order_and_limits(void)
{
	struct procio io;

	/* Keys are whole words: rchar's "read_bytes" look-alikes are not them. */
	CHECK(parse("xread_bytes: 5\nwrite_bytes: 18446744073709551615\nread_bytes: 0\n", &io) == 0);
	CHECK_EQ_U64(io.read_bytes, 0);
	CHECK_EQ_U64(io.write_bytes, UINT64_MAX);
	CHECK_EQ_U64(io.cancelled_write_bytes, 0);
	CHECK(parse("write_bytes: 9\nread_bytes: 7\n", &io) == 0);
	CHECK_EQ_U64(io.write_bytes, 9);
	CHECK_EQ_U64(io.read_bytes, 7);
}

static void test_bad(void)
{
	struct procio io;
	char cut[] = "read_bytes: 12\nwrite_bytes: 34\n";

	CHECK(parse("", &io) == -EINVAL);
	CHECK(parse("read_bytes: 1\n", &io) == -EINVAL);
	CHECK(parse("read_bytes: \nwrite_bytes: 1\n", &io) == -EINVAL);
	CHECK(parse("read_bytes: 1x\nwrite_bytes: 1\n", &io) == -EINVAL);
	CHECK(parse("read_bytes: -1\nwrite_bytes: 1\n", &io) == -EINVAL);
	CHECK(parse("read_bytes: 18446744073709551616\nwrite_bytes: 1\n", &io) == -EINVAL);
	/* Cut inside "write_bytes": the bytes after the length are never looked at. */
	CHECK(procio_parse(cut, 20, &io) == -EINVAL);
	/* Cut inside its number, or before its newline: a shorter number is not the value. */
	CHECK(procio_parse(cut, 29, &io) == -EINVAL);
	CHECK(procio_parse(cut, 30, &io) == -EINVAL);
	CHECK(procio_parse(cut, 31, &io) == 0);
	CHECK_EQ_U64(io.write_bytes, 34);
}

static const struct test tests[] = {
	{ "kernel_file", test_kernel_file },
	{ "order_and_limits", test_order_and_limits },
	{ "bad", test_bad },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
