// SPDX-License-Identifier: GPL-2.0-only
/*
 * outputs/summary: the calls of a 32-bit program (the compat ABI) in a table
 * of their own, as strace -c -f shows each personality ("System call usage
 * summary for 32 bit mode:"), named with i386's names; in CSV and JSON, one
 * line each, labelled with the ABI. The subsystems sum every ABI's.
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "../../lib/scnames.h"
#include "../../lib/util.h"
#include "../../outputs/summary.h"

static void add(struct sctable *t, uint32_t key, uint64_t calls, uint64_t errors, uint32_t err)
{
	struct sc_stat *s = sctable_get(t, key);

	s->calls = calls;
	s->errors = errors;
	s->top_errno = err;
	s->timed = calls;
	s->time_ns = calls * 1000;
	s->max_ns = 2000;
}

/* The summary of @t in @fmt, as text the caller frees. */
static char *write(const struct sctable *t, enum out_format fmt)
{
	static char prog[] = "prog";
	char *const cmd[] = { prog, NULL };
	struct summary_info si = { .fmt = fmt, .sort = SUM_TIME, .cmd = cmd,
				   .ended = "exited with status 0", .nprocs = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	CHECK_EQ_I64(summary_write(f, t, &si), 0);
	fclose(f);
	if (getenv("SHOW"))
		fputs(buf, stdout);
	return buf;
}

#if defined(__x86_64__) && !defined(__ILP32__)
/* i386: 5 open, 64 getppid, 183 getcwd; x86_64: 110 getppid. */
static void test_per_abi(void)
{
	struct sctable t = { 0 };
	char *text, *compat, *native;

	add(&t, sc_key(110, false), 100, 0, 0);
	add(&t, sc_key(64, true), 1000, 0, 0);
	add(&t, sc_key(5, true), 1000, 1000, 2);
	add(&t, sc_key(183, true), 1000, 1000, 34);

	text = write(&t, OUT_TEXT);
	compat = strstr(text, "System call usage summary for 32 bit mode:\n");
	native = strstr(text, " getppid ");
	CHECK(compat && native && native < compat);
	/* In the 32-bit table, i386's names: not semget, fstat, afs_syscall. */
	CHECK(compat && strstr(compat, " 1000 ") && strstr(compat, " getppid "));
	CHECK(compat && strstr(compat, " open ") && strstr(compat, " getcwd "));
	CHECK(!strstr(text, "semget") && !strstr(text, "afs_syscall") && !strstr(text, "fstat"));
	CHECK(!strstr(text, "IPC"));
	/* Each table its own total; the subsystems all of them. */
	CHECK(compat && strstr(compat, "  3000      2000 total\n"));
	CHECK(strstr(text, "Process Mgmt.        1100"));
	free(text);

	text = write(&t, OUT_CSV);
	CHECK(strstr(text, "\nsyscall,getppid,Process Mgmt.,100,0,"));
	CHECK(strstr(text, "\nsyscall,getppid (32-bit),Process Mgmt.,1000,0,"));
	CHECK(strstr(text, "\nsyscall,open (32-bit),Filesystem,1000,1000,") &&
	      strstr(text, ",ENOENT\n"));
	CHECK(strstr(text, "\nsyscall,getcwd (32-bit),Filesystem,1000,1000,") &&
	      strstr(text, ",ERANGE\n"));
	CHECK(strstr(text, "\nsubsystem,,Process Mgmt.,1100,0,"));
	CHECK(strstr(text, "\nsubsystem,,Filesystem,2000,2000,"));
	free(text);
	sctable_free(&t);
}

/* Only a 32-bit program's calls: its table alone, with its heading. */
static void test_compat_only(void)
{
	struct sctable t = { 0 };
	char *text;

	add(&t, sc_key(64, true), 10, 0, 0);
	text = write(&t, OUT_TEXT);
	CHECK(strstr(text, "System call usage summary for 32 bit mode:\n"));
	/* One table: one header line. */
	CHECK(strstr(text, "usecs/call") && !strstr(strstr(text, "usecs/call") + 1, "usecs/call"));
	free(text);
	sctable_free(&t);
}
#endif

/* Only native calls: one table, no heading (as before, as strace). */
static void test_native_only(void)
{
	struct sctable t = { 0 };
	char *text;

	add(&t, sc_key(1, false), 10, 0, 0);
	text = write(&t, OUT_TEXT);
	CHECK(!strstr(text, "System call usage summary"));
	CHECK(strstr(text, "usecs/call") && !strstr(strstr(text, "usecs/call") + 1, "usecs/call"));
	free(text);
	/* No call at all: the (empty) native table still. */
	sctable_clear(&t);
	text = write(&t, OUT_TEXT);
	CHECK(strstr(text, "usecs/call") && strstr(text, " total\n"));
	free(text);
	sctable_free(&t);
}

/*
 * p50 and p99 from the calls' histograms: per syscall, per ABI's total, per
 * subsystem (summed bucket by bucket), in text, CSV and JSON.
 */
static void test_percentiles(void)
{
	struct sctable t = { 0 };
	struct sc_stat *s;
	char *text;
	int i;

	/* read: 98 of 3 us, 2 of 5 ms; write: 100 of 40 us. Same subsystem. */
	s = sctable_get(&t, sc_key(0, false));
	for (i = 0; i < 100; i++) {
		s->calls++;
		sctable_time(&t, s, i < 98 ? 3000 : 5000000);
	}
	s = sctable_get(&t, sc_key(1, false));
	for (i = 0; i < 100; i++) {
		s->calls++;
		sctable_time(&t, s, 40000);
	}
	text = write(&t, OUT_TEXT);
	CHECK(strstr(text, "p50 <=us  p99 <=us"));
	/*
	 * read: avg 102 us, max 5000, p50 4, p99 5000 (its bucket's bound,
	 * 8192, is above the longest call); write: its bucket's 64 too, 40.
	 */
	CHECK(strstr(text, "         102        5000         4      5000       100           read "));
	CHECK(strstr(text, "          40          40        40        40       100           write "));
	/*
	 * The total: 200 calls, 198 of them at most 64 us: p50 and p99 64
	 * (rank 100 and 198); read's two slow calls are past the 99th.
	 */
	CHECK(strstr(text, "        64        64       200           total\n"));
	free(text);
	text = write(&t, OUT_CSV);
	CHECK(strstr(text, "\nsyscall,read,Filesystem,100,0,100,10294.000,102.940,5000.000,4,5000,"));
	CHECK(strstr(text, "\nsubsystem,,Filesystem,200,0,200,14294.000,71.470,5000.000,64,64,"));
	free(text);
	text = write(&t, OUT_JSON);
	CHECK(strstr(text, "\"syscall\":\"write\",\"subsystem\":\"Filesystem\",\"calls\":100,"
			   "\"errors\":0,\"timed\":100,\"total_us\":4000.000,\"avg_us\":40.000,"
			   "\"max_us\":40.000,\"p50_us\":40,\"p99_us\":40"));
	free(text);
	/* Untimed calls: no percentile. */
	sctable_clear(&t);
	sctable_get(&t, sc_key(0, false))->calls = 3;
	text = write(&t, OUT_CSV);
	CHECK(strstr(text, "\nsyscall,read,Filesystem,3,0,0,0.000,,,,,"));
	free(text);
	sctable_free(&t);
}

static const struct test tests[] = {
#if defined(__x86_64__) && !defined(__ILP32__)
	{ "summary: a 32-bit program's calls in their own table, i386's names; CSV labels",
	  test_per_abi },
	{ "summary: only a 32-bit program's calls: its table alone, with the heading",
	  test_compat_only },
#endif
	{ "summary: only native calls: one table, no heading", test_native_only },
	{ "summary: p50 and p99 from the histograms, per syscall, total, subsystem", test_percentiles },
};

int main(void)
{
	syscalls_init();
	return run_tests(tests, ARRAY_SIZE(tests));
}
