// SPDX-License-Identifier: GPL-2.0-only
/*
 * The process table's definition (tables/proctable.c) as the JSON writer reads
 * it: the name and command line as the kernel has them, no user as null, and
 * the other text columns (the cgroup columns, top_syscall) whole, not cut to
 * the 7 bytes the writer's buffer once held ("/proces" for /process_api/...).
 */
#include "../../tables/proctable.h"
#include "../../lib/util.h"
#include "test.h"

static const char *json_of(const struct task *t, int col, char *buf, size_t n, size_t *len)
{
	struct row r = { .task = t };
	struct rowset rs = { .rows = &r, .nrows = 1 };
	struct model m = { 0 };
	struct table tb;
	char *owned = NULL;
	const char *s;

	proc_table(&tb, &m, &rs, &col, 1);
	s = proc_table_def.json(&tb, &r, col, buf, n, len, &owned);
	if (s && owned) {	/* the test's buffer is big enough: never a copy */
		free(owned);
		return "(copied)";
	}
	return s;
}

static void test_json_text(void)
{
	static char cmdline[] = "sleep\0" "1000\0";
	struct task t = { .pid = 7, .state = 'S', .cgroup = "/system.slice/cron.service",
			  .cmdline = cmdline, .cmdline_len = sizeof(cmdline) - 1 };
	char buf[4300];
	size_t len = 0;
	const char *s;

	snprintf(t.comm, sizeof(t.comm), "sl\x01" "ep");
	s = json_of(&t, COL_COMM, buf, sizeof(buf), &len);
	CHECK(s && len == 5 && !memcmp(s, "sl\x01" "ep", 5));	/* raw: the writer escapes */
	s = json_of(&t, COL_CMDLINE, buf, sizeof(buf), &len);
	CHECK(s && len == 10 && !memcmp(s, "sleep 1000", 10));
	CHECK(json_of(&t, COL_USER, buf, sizeof(buf), &len) == NULL);	/* null */
	s = json_of(&t, COL_STATE, buf, sizeof(buf), &len);
	CHECK_STR(s, "S");
	s = json_of(&t, COL_CGROUP, buf, sizeof(buf), &len);
	CHECK_STR(s, "/system.slice/cron.service");
	CHECK_EQ_U64(len, strlen("/system.slice/cron.service"));
	s = json_of(&t, COL_UNIT, buf, sizeof(buf), &len);
	CHECK_STR(s, "cron.service");
}

static const struct test tests[] = {
	{ "JSON text cells: raw name and command line, whole cgroup and unit", test_json_text },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
