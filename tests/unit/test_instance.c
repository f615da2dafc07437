// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/trace/instance.c's instance names and liveness: a ktop's
 * instance is ktop-PID-START (START: its start time in clock ticks since
 * boot), and its maker is alive exactly when a process with that pid started
 * at that time exists. Nothing here reads a wall clock, so no clock step (NTP,
 * a VM resumed) can make a running ktop look dead.
 */
#include "../../collectors/trace/instance.h"
#include "../../lib/util.h"
#include "test.h"

static void test_parse_names(void)
{
	uint64_t start;
	pid_t pid;
	bool focus;

	CHECK_EQ_I64(instance_parse_name("ktop-123-4567", &pid, &start, &focus), 0);
	CHECK_EQ_I64(pid, 123);
	CHECK_EQ_U64(start, 4567);
	CHECK(!focus);
	CHECK_EQ_I64(instance_parse_name("ktop-123-4567-f", &pid, &start, &focus), 0);
	CHECK(focus);
	/* An older ktop's names: no start time. */
	CHECK_EQ_I64(instance_parse_name("ktop-99", &pid, &start, &focus), 1);
	CHECK_EQ_I64(pid, 99);
	CHECK_EQ_U64(start, 0);
	CHECK_EQ_I64(instance_parse_name("ktop-99-f", &pid, &start, &focus), 1);
	CHECK(focus);
	/* Not ktop's: left alone. */
	CHECK_EQ_I64(instance_parse_name("ktop-notapid", &pid, &start, &focus), -1);
	CHECK_EQ_I64(instance_parse_name("ktop-12x", &pid, &start, &focus), -1);
	CHECK_EQ_I64(instance_parse_name("ktop-0-5", &pid, &start, &focus), -1);
	CHECK_EQ_I64(instance_parse_name("ktop-12-5-g", &pid, &start, &focus), -1);
	CHECK_EQ_I64(instance_parse_name("ktop--5", &pid, &start, &focus), -1);
	CHECK_EQ_I64(instance_parse_name("ktoptest-1", &pid, &start, &focus), -1);
	CHECK_EQ_I64(instance_parse_name("ktop-99999999999-1", &pid, &start, &focus), -1);
}

static void test_maker_alive(void)
{
	/* The same pid and the same boot-relative start: the maker, whatever the clock says. */
	CHECK(instance_maker_alive(0, 4567, true, 4567));
	/* The pid reused by a later process: stale. */
	CHECK(!instance_maker_alive(0, 4567, true, 9000));
	/* An earlier start cannot happen for the same pid; still not the maker. */
	CHECK(!instance_maker_alive(0, 4567, true, 100));
	/* No such process: stale. */
	CHECK(!instance_maker_alive(0, 4567, false, 0));
	/* An older ktop's name: kept while any process has the pid. */
	CHECK(instance_maker_alive(1, 0, true, 123456));
	CHECK(!instance_maker_alive(1, 0, false, 0));
}

static const struct test tests[] = {
	{ "instance names: ktop-PID-START[-f], an older ktop's ktop-PID[-f], others not ours", test_parse_names },
	{ "the maker is alive iff the pid has the start time of the name (no wall clock)", test_maker_alive },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
