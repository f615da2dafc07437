// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the counter catalog (model/counters.def): a counter's number
 * is what recordings store (the samples' per-counter arrays, the session's
 * event_counters bits), so the rows keep their order; the tables made from
 * the catalog agree with it (the thread states' counters, the columns), and
 * the recording's interval columns are named as the counters they hold.
 */
#include <string.h>

#include "../../collectors/trace/evsums.h"
#include "../../model/counters.h"
#include "../../store/recfmt.h"
#include "../../tables/columns.h"
#include "../../lib/util.h"
#include "test.h"

/* The counters by number, as files of formats 1 to 8 store them: append only. */
static void test_numbers_stable(void)
{
	static const char *const stored[] = {
		"UTIME", "STIME", "MINFLT", "MAJFLT", "VCSW", "IVCSW", "CPU", "SYSCALLS",
		"SYSERR", "SIGRECV", "SIGSENT", "ONCPU", "RUNQ", "SLEEP", "BLOCKED", "STOPPED",
		"SCTIME", "EXITCPU", "DISK_READ", "DISK_WRITE", "NET_TX", "NET_RX",
	};
	static const char *const names[] = {
#define COUNTER(id, src, family, label, doc) #id,
#include "../../model/counters.def"
	};
	size_t i;

	CHECK_EQ_I64((int64_t)ARRAY_SIZE(names), CNT_NR);
	/* A new row goes at the end: the stored ones keep their numbers. */
	CHECK(ARRAY_SIZE(names) >= ARRAY_SIZE(stored));
	for (i = 0; i < ARRAY_SIZE(stored) && i < ARRAY_SIZE(names); i++)
		CHECK_STR(names[i], stored[i]);
	/* session.event_counters is a 32-bit mask, a bit per counter. */
	CHECK(CNT_NR <= 32);
}

/* Each thread state's time is its counter; the states between UNKNOWN and DEAD. */
static void test_states(void)
{
	CHECK_EQ_I64(ACCT_ST_UNKNOWN, 0);
	CHECK_EQ_I64(ACCT_ST_ONCPU, 1);
	CHECK_EQ_I64(ACCT_ST_RUNQ, 2);
	CHECK_EQ_I64(ACCT_ST_SLEEP, 3);
	CHECK_EQ_I64(ACCT_ST_BLOCKED, 4);
	CHECK_EQ_I64(ACCT_ST_STOPPED, 5);
	CHECK_EQ_I64(ACCT_ST_DEAD, 6);
	CHECK_EQ_I64(CNT_STATE_MASK, (1 << CNT_ONCPU) | (1 << CNT_RUNQ) | (1 << CNT_SLEEP) |
				 (1 << CNT_BLOCKED) | (1 << CNT_STOPPED));
}

/* The column that shows counter @c, or -1. */
static int column_of(int c)
{
	int i;

	for (i = 0; i < COL_NR; i++)
		if (columns[i].counter == c)
			return i;
	return -1;
}

/* Every SHOWN row is one column with the row's fields; no other column names a counter. */
static void test_columns(void)
{
	static const struct {
		int counter, col;
		const char *key, *title;
	} shown[] = {
#define COUNTER(id, src, family, label, doc)
#define SHOWN(id, col, key, title, width, type, needs, sort, src, family, label, doc) \
	{ CNT_##id, COL_##col, key, title },
#include "../../model/counters.def"
	};
	size_t i;
	int n = 0, c;

	for (i = 0; i < ARRAY_SIZE(shown); i++) {
		CHECK_EQ_I64(column_of(shown[i].counter), shown[i].col);
		CHECK_STR(columns[shown[i].col].key, shown[i].key);
		CHECK_STR(columns[shown[i].col].title, shown[i].title);
	}
	for (c = 0; c < COL_NR; c++)
		n += columns[c].counter >= 0;
	CHECK_EQ_I64(n, (int64_t)ARRAY_SIZE(shown));
}

/*
 * The interval table's per-counter columns (recfmt_schema) are the counters'
 * keys, in recfmt_ev_counter's order: a query of a file names them so.
 */
static void test_interval_columns(void)
{
	const char *p = strstr(recfmt_schema, "CREATE TABLE interval(");
	size_t i;

	if (!CHECK(p))
		return;
	p = strstr(p, " flags INTEGER NOT NULL,");
	if (!CHECK(p))
		return;
	p += strlen(" flags INTEGER NOT NULL,");
	for (i = 0; i < RECFMT_NEV; i++) {
		int col = column_of(recfmt_ev_counter[i]);
		char want[64];

		if (!CHECK(col >= 0))
			return;
		snprintf(want, sizeof(want), " %s INTEGER,", columns[col].key);
		if (!CHECK_STR(strncmp(p, want, strlen(want)) ? p : want, want))
			return;
		p += strlen(want);
	}
}

static const struct test tests[] = {
	{ "numbers_stable", test_numbers_stable },
	{ "states", test_states },
	{ "columns", test_columns },
	{ "interval_columns", test_interval_columns },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
