// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the /proc parsers of collectors/proc/procfs.c: /proc/PID/stat and status
 * parsers against real-looking lines, hostile process names and cut buffers.
 *
 * The kernel's buffers are not NUL-terminated, so every parse goes through an
 * exactly-sized heap copy: under AddressSanitizer a read past the length fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/proc/procfs.h"
#include "../../lib/util.h"
#include "test.h"

/*
 * A /proc/PID/stat line as this machine writes it (copied from /proc/self/stat
 * and given distinct values where ktop reads a field). Field numbers as in proc(5).
 */
#define STAT_HEAD "3101 ("
#define STAT_TAIL_TO_RSS                                                          \
	") R 3097 3098 2601 34816 3101 4194304 102 7 3 1 57 23 2 1 15 -5 4 0 36059 " \
	"3133440 358"
#define STAT_TAIL_AFTER_RSS                                                       \
	" 18446744073709551615 94670082121728 94670082141609 140728625136224 0 0 0 " \
	"0 0 0 0 0 0 17 1 0 0 0 0 0 94670082157616 94670082159232 94671084666880 "    \
	"140728625142402 140728625142422 140728625142422 140728625143787 0\n"

/* Parse @len bytes of @s from a heap buffer of exactly @len bytes. */
static int parse_stat_exact(const char *s, size_t len, struct pid_stat *st)
{
	char *b = malloc(len);
	int r;

	/* malloc(0) is not NULL with glibc or ASan: a buffer with no byte to read. */
	if (!b)
		abort();
	memcpy(b, s, len);
	r = procfs_parse_pid_stat(b, len, st);
	free(b);
	return r;
}

static int parse_status_exact(const char *s, size_t len, struct pid_status *st)
{
	char *b = malloc(len);
	int r;

	/* malloc(0) is not NULL with glibc or ASan: a buffer with no byte to read. */
	if (!b)
		abort();
	memcpy(b, s, len);
	r = procfs_parse_pid_status(b, len, st);
	free(b);
	return r;
}

/* A full stat line with @comm (@clen raw bytes, may hold anything) into @out. */
static size_t make_stat(char *out, size_t outsz, const char *comm, size_t clen)
{
	size_t n = 0, k;

	k = strlen(STAT_HEAD);
	memcpy(out + n, STAT_HEAD, k);
	n += k;
	memcpy(out + n, comm, clen);
	n += clen;
	k = strlen(STAT_TAIL_TO_RSS STAT_TAIL_AFTER_RSS);
	if (n + k > outsz)
		abort();
	memcpy(out + n, STAT_TAIL_TO_RSS STAT_TAIL_AFTER_RSS, k);
	return n + k;
}

/* Every field ktop takes from the line above. */
static void check_stat_fields(const struct pid_stat *st)
{
	CHECK_EQ_I64(st->pid, 3101);
	CHECK_EQ_U64(st->state, 'R');
	CHECK_EQ_I64(st->ppid, 3097);
	CHECK_EQ_I64(st->pgid, 3098);
	CHECK_EQ_I64(st->sid, 2601);
	CHECK_EQ_I64(st->tty_nr, 34816);
	CHECK_EQ_U64(st->minflt, 102);
	CHECK_EQ_U64(st->majflt, 3);
	CHECK_EQ_U64(st->utime, 57);
	CHECK_EQ_U64(st->stime, 23);
	CHECK_EQ_I64(st->priority, 15);
	CHECK_EQ_I64(st->nice, -5);
	CHECK_EQ_U64(st->num_threads, 4);
	CHECK_EQ_U64(st->starttime, 36059);
	CHECK_EQ_U64(st->vsize, 3133440);
	CHECK_EQ_U64(st->rss, 358);
	CHECK(st->have_flags && !st->kthread);	/* 4194304: PF_RANDOMIZE only */
}

static void test_stat_real_line(void)
{
	char line[512];
	struct pid_stat st;
	size_t n = make_stat(line, sizeof(line), "cat", 3);

	CHECK_EQ_I64(parse_stat_exact(line, n, &st), 0);
	CHECK_STR(st.comm, "cat");
	check_stat_fields(&st);
	CHECK_EQ_I64(st.processor, 1);
}

/* The line of a kernel thread exactly as /proc/2/stat shows it. */
static void test_stat_kthread_line(void)
{
	static const char line[] =
		"2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 3 0 0 20 0 1 0 2 0 0 "
		"18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 0 0 0 0 0 "
		"0 0 0 0 0 0 0\n";
	struct pid_stat st;

	CHECK_EQ_I64(parse_stat_exact(line, sizeof(line) - 1, &st), 0);
	CHECK_EQ_I64(st.pid, 2);
	CHECK_STR(st.comm, "kthreadd");
	CHECK_EQ_U64(st.state, 'S');
	CHECK_EQ_I64(st.ppid, 0);
	CHECK_EQ_U64(st.stime, 3);
	CHECK_EQ_U64(st.starttime, 2);
	CHECK_EQ_U64(st.vsize, 0);
	CHECK_EQ_U64(st.rss, 0);
	CHECK_EQ_I64(st.processor, 1);
	/* flags 2129984 = 0x208040: PF_KTHREAD */
	CHECK(st.have_flags);
	CHECK(st.kthread);
}

struct hostile {
	const char *comm;
	size_t len;
	const char *want;	/* comm as parsed */
};

#define H(s, w) { s, sizeof(s) - 1, w }
static const struct hostile hostile_comms[] = {
	H("my prog", "my prog"),
	H("a b  c ", "a b  c "),
	H(")", ")"),
	H("(", "("),
	H("((x", "((x"),
	H("a)b", "a)b"),
	H("x) (y", "x) (y"),
	H(") R 1 2", ") R 1 2"),
	H(") S 1 1 1 0 -1 0 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9", ") S 1 1 1 0 -1 0 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9"),
	H("line1\nline2", "line1\nline2"),
	H("\n", "\n"),
	H("", ""),
	H("tab\there", "tab\there"),
	H("\x1b[31mred", "\x1b[31mred"),
	H("caf\xc3\xa9", "caf\xc3\xa9"),
	/* 15 bytes: TASK_COMM_LEN - 1, what user processes have. */
	H("123456789012345", "123456789012345"),
	/* 63 bytes: fits PROC_COMM_MAX with its NUL. */
	H("kworker/u8:0-events_unbound_long_name_padded_to_63_bytesxxxxxxx",
	  "kworker/u8:0-events_unbound_long_name_padded_to_63_bytesxxxxxxx"),
	/* 64 bytes: one too many, cut to 63. */
	H("kworker/u8:0-events_unbound_long_name_padded_to_64_bytesyyyyyyyy",
	  "kworker/u8:0-events_unbound_long_name_padded_to_64_bytesyyyyyyy"),
	/* Far longer than any kernel writes: cut, never overflowed. */
	H("0123456789012345678901234567890123456789012345678901234567890123456789"
	  "0123456789012345678901234567890123456789",
	  "012345678901234567890123456789012345678901234567890123456789012"),
};
#undef H

static void test_stat_hostile_comms(void)
{
	size_t i;

	CHECK_EQ_U64(strlen(hostile_comms[16].comm), 63);
	CHECK_EQ_U64(strlen(hostile_comms[17].comm), 64);
	for (i = 0; i < ARRAY_SIZE(hostile_comms); i++) {
		const struct hostile *h = &hostile_comms[i];
		char line[512];
		struct pid_stat st;
		size_t n = make_stat(line, sizeof(line), h->comm, h->len);

		if (!CHECK_EQ_I64(parse_stat_exact(line, n, &st), 0)) {
			printf("#   comm #%zu\n", i);
			continue;
		}
		if (!CHECK_STR(st.comm, h->want))
			printf("#   comm #%zu\n", i);
		CHECK(strlen(st.comm) < PROC_COMM_MAX);
		check_stat_fields(&st);
		CHECK_EQ_I64(st.processor, 1);
	}
}

/* A comm with a NUL byte in it: kept up to the NUL, the fields still parse. */
static void test_stat_comm_with_nul(void)
{
	char line[512];
	struct pid_stat st;
	size_t n = make_stat(line, sizeof(line), "ab\0cd", 5);

	CHECK_EQ_I64(parse_stat_exact(line, n, &st), 0);
	CHECK_STR(st.comm, "ab");
	check_stat_fields(&st);
}

static void test_stat_invalid(void)
{
	static const char *const bad[] = {
		"",
		"\n",
		"garbage",
		"3101",
		"3101 (cat",
		"3101 cat) R 1",
		"3101 )cat( R 1 2 3",
		"3101 (cat)",
		"3101 (cat)\n",
		"3101 (cat) ",
		"3101 (cat)R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 7",
		"3101 (cat) R",
		"3101 (cat) R ",
		"3101 (cat) R x",
		"3101 (cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6",
		"3101 (cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 -",
		"3101 (cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 x",
		"3101 (cat) R 3097 3098 2601 0 -1 0 -1 0 0 0 1 1 0 0 20 0 1 0 5 6 7",
		"0 (swapper) R 0 0 0 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 7",
		"abc (cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 7",
		"(cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 7",
		"-5 (cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 7",
		"2147483648 (cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 7",
		"99999999999999999999999 (cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 7",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct pid_stat st;

		if (!CHECK_EQ_I64(parse_stat_exact(bad[i], strlen(bad[i]), &st), -EINVAL)) {
			printf("#   input: ");
			test_print_str_(bad[i]);
			putchar('\n');
		}
	}
}

static void test_stat_empty_buffer(void)
{
	struct pid_stat st;
	char one = '(';
	volatile size_t zero = 0;	/* keeps GCC from warning on a 0-byte malloc */

	CHECK_EQ_I64(parse_stat_exact("", zero, &st), -EINVAL);
	/* A buffer with a byte in it but length 0 is still empty. */
	CHECK_EQ_I64(procfs_parse_pid_stat(&one, 0, &st), -EINVAL);
	CHECK_EQ_I64(st.processor, -1);
}

/* The largest pid the parser accepts, and 64-bit counters at their maximum. */
static void test_stat_limits(void)
{
	static const char line[] =
		"2147483647 (max) R 1 1 1 0 -1 0 18446744073709551615 0 18446744073709551615 0 "
		"18446744073709551615 18446744073709551615 0 0 -100 19 100000 0 "
		"18446744073709551615 18446744073709551615 18446744073709551615\n";
	struct pid_stat st;

	CHECK_EQ_I64(parse_stat_exact(line, sizeof(line) - 1, &st), 0);
	CHECK_EQ_I64(st.pid, 2147483647);
	CHECK_EQ_U64(st.minflt, UINT64_MAX);
	CHECK_EQ_U64(st.majflt, UINT64_MAX);
	CHECK_EQ_U64(st.utime, UINT64_MAX);
	CHECK_EQ_U64(st.stime, UINT64_MAX);
	CHECK_EQ_I64(st.priority, -100);
	CHECK_EQ_I64(st.nice, 19);
	CHECK_EQ_U64(st.num_threads, 100000);
	CHECK_EQ_U64(st.starttime, UINT64_MAX);
	CHECK_EQ_U64(st.vsize, UINT64_MAX);
	CHECK_EQ_U64(st.rss, UINT64_MAX);
	CHECK_EQ_I64(st.processor, -1);
}

/*
 * The most negative 64-bit number in a signed field: its negation overflows a
 * signed type (found by tests/fuzz; the ASan+UBSan build of this test catches it).
 */
static void test_stat_int64_min(void)
{
	static const char line[] =
		"1 (a) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 -9223372036854775808 0 1 0 1 1 1 0\n";
	struct pid_stat st;

	CHECK_EQ_I64(parse_stat_exact(line, sizeof(line) - 1, &st), 0);
	CHECK_EQ_I64(st.priority, INT64_MIN);
}

/* Kernels or files that stop early: rss is the last field ktop needs. */
static void test_stat_missing_trailing_fields(void)
{
	char buf[512];
	struct pid_stat st;
	int n;

	/*
	 * Ends after rss with a newline. (Without the newline, the end of the
	 * buffer right after rss's digits may be a cut: see test_stat_cut_inside_rss.)
	 */
	n = snprintf(buf, sizeof(buf), "%s%s%s\n", STAT_HEAD, "cat", STAT_TAIL_TO_RSS);
	CHECK_EQ_I64(parse_stat_exact(buf, (size_t)n, &st), 0);
	check_stat_fields(&st);
	CHECK_EQ_I64(st.processor, -1);

	/* Up to field 38 (exit_signal), no processor. */
	n = snprintf(buf, sizeof(buf), "%s%s%s%s\n", STAT_HEAD, "cat", STAT_TAIL_TO_RSS,
		     " 18446744073709551615 1 2 3 0 0 0 0 0 0 0 0 0 17");
	CHECK_EQ_I64(parse_stat_exact(buf, (size_t)n, &st), 0);
	check_stat_fields(&st);
	CHECK_EQ_I64(st.processor, -1);

	/* Field 39 present and nothing after it (kernels 2.2 to 2.6.18). */
	n = snprintf(buf, sizeof(buf), "%s%s%s%s\n", STAT_HEAD, "cat", STAT_TAIL_TO_RSS,
		     " 18446744073709551615 1 2 3 0 0 0 0 0 0 0 0 0 17 7");
	CHECK_EQ_I64(parse_stat_exact(buf, (size_t)n, &st), 0);
	check_stat_fields(&st);
	CHECK_EQ_I64(st.processor, 7);
}

/* Offsets of the first digit of rss and of the byte after it in @line. */
static void rss_span(const char *line, size_t len, size_t *start, size_t *end)
{
	const char *tail = strstr(line, STAT_TAIL_TO_RSS);

	if (!tail || (size_t)(tail - line) + strlen(STAT_TAIL_TO_RSS) > len)
		abort();
	*end = (size_t)(tail - line) + strlen(STAT_TAIL_TO_RSS);
	*start = *end - strlen("358");
}

/*
 * The line cut at every length. Cut anywhere up to and including the first digit
 * of rss, a field ktop needs is missing: -EINVAL. Once the byte after rss is
 * there, the parse succeeds with every field exact; processor is -1 while it is
 * missing and exact once the byte after it is there too.
 */
static void test_stat_truncated_every_length(void)
{
	static const char *const comms[] = { "cat", "my (prog", "" };
	size_t c;

	for (c = 0; c < ARRAY_SIZE(comms); c++) {
		char line[512];
		size_t n = make_stat(line, sizeof(line), comms[c], strlen(comms[c]));
		size_t rss_start, rss_end, len;
		const char *p39 = strstr(line, " 17 1 ");
		size_t proc_start, proc_end;

		if (!p39)
			abort();
		proc_start = (size_t)(p39 - line) + 4;
		proc_end = proc_start + 1;
		rss_span(line, n, &rss_start, &rss_end);
		for (len = 0; len <= n; len++) {
			struct pid_stat st;
			int r = parse_stat_exact(line, len, &st);

			if (len <= rss_start) {
				if (!CHECK_EQ_I64(r, -EINVAL))
					printf("#   comm \"%s\" cut at %zu of %zu\n", comms[c], len, n);
				continue;
			}
			if (len <= rss_end)
				continue;	/* inside rss: see test_stat_cut_inside_rss */
			if (!CHECK_EQ_I64(r, 0)) {
				printf("#   comm \"%s\" cut at %zu of %zu\n", comms[c], len, n);
				continue;
			}
			CHECK_STR(st.comm, comms[c]);
			check_stat_fields(&st);
			if (len <= proc_start)
				CHECK_EQ_I64(st.processor, -1);
			else if (len > proc_end)
				CHECK_EQ_I64(st.processor, 1);
		}
	}
}

/*
 * A line cut inside rss ("... 3133440 35" of "... 3133440 358 ...") has lost
 * the end of a field ktop needs, so it must be rejected rather than parsed with
 * a wrong rss. The kernel always writes more fields and a newline after rss,
 * so a number that runs into the end of the buffer is a cut one.
 */
static void test_stat_cut_inside_rss(void)
{
	char line[512];
	size_t n = make_stat(line, sizeof(line), "cat", 3);
	size_t rss_start, rss_end, len;

	rss_span(line, n, &rss_start, &rss_end);
	for (len = rss_start + 1; len < rss_end; len++) {
		struct pid_stat st;
		int r = parse_stat_exact(line, len, &st);

		if (!CHECK_EQ_I64(r, -EINVAL))
			printf("#   cut at %zu of %zu: parsed rss %llu (real 358)\n", len, n,
			       (unsigned long long)st.rss);
	}
}

/* Hostile comms cut at every length: no crash, no overread, comm terminated. */
static void test_stat_truncated_hostile(void)
{
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(hostile_comms); i++) {
		char line[512];
		size_t n = make_stat(line, sizeof(line), hostile_comms[i].comm,
				     hostile_comms[i].len);

		for (len = 0; len <= n; len++) {
			struct pid_stat st;
			int r = parse_stat_exact(line, len, &st);

			CHECK(r == 0 || r == -EINVAL);
			if (r == 0) {
				CHECK(memchr(st.comm, '\0', sizeof(st.comm)) != NULL);
				CHECK(st.pid == 3101);
			}
		}
	}
}

/* Random bytes mixed with stat-like tokens: must never crash or overread. */
static void test_stat_fuzz(void)
{
	static const char *const tok[] = { "(", ")", " ", "1", "-", "R", "\n", "99999999999",
					   "-1", ") R ", "\0", "3101 (" };
	uint32_t x = 2463534242u;
	int iter;

	for (iter = 0; iter < 20000; iter++) {
		char buf[160];
		size_t n = test_fuzz_fill(buf, sizeof(buf), 16, 63, &x, tok, ARRAY_SIZE(tok));
		struct pid_stat st;
		int r;

		r = parse_stat_exact(buf, n, &st);
		CHECK(r == 0 || r == -EINVAL);
		if (r == 0)
			CHECK(memchr(st.comm, '\0', sizeof(st.comm)) != NULL);
	}
}

/* /proc/PID/status as this machine writes it, with distinct uids. */
static const char status_real[] =
	"Name:\tcat\n"
	"Umask:\t0022\n"
	"State:\tR (running)\n"
	"Tgid:\t3102\n"
	"Ngid:\t0\n"
	"Pid:\t3102\n"
	"PPid:\t3097\n"
	"TracerPid:\t0\n"
	"Uid:\t1000\t1001\t1002\t1003\n"
	"Gid:\t100\t100\t100\t100\n"
	"FDSize:\t256\n"
	"Groups:\t \n"
	"NStgid:\t3102\n"
	"NSpid:\t3102\n"
	"NSpgid:\t3097\n"
	"NSsid:\t2601\n"
	"Kthread:\t0\n"
	"VmPeak:\t    3060 kB\n"
	"VmSize:\t    3060 kB\n"
	"VmRSS:\t    1660 kB\n"
	"Threads:\t1\n"
	"SigQ:\t0/96365\n"
	"CapEff:\t000001fffeffffff\n"
	"Cpus_allowed_list:\t0-1\n"
	"Mems_allowed_list:\t0\n"
	"voluntary_ctxt_switches:\t1234\n"
	"nonvoluntary_ctxt_switches:\t56\n";

static void test_status_real(void)
{
	struct pid_status st;

	CHECK_EQ_I64(parse_status_exact(status_real, sizeof(status_real) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, 1001);	/* Uid: real, effective, saved, fs */
	CHECK_EQ_I64(st.vcsw, 1234);
	CHECK_EQ_I64(st.ivcsw, 56);
}

static void test_status_effective_uid(void)
{
	static const char root_setuid[] = "Name:\tsu\nUid:\t1000\t0\t0\t0\n";
	static const char spaces[] = "Name:\tx\nUid:\t\t7\t\t8\t9\t10\n";
	static const char one_field[] = "Name:\tx\nUid:\t1000\n";
	static const char empty_uid[] = "Name:\tx\nUid:\n";
	static const char look_alike[] = "Name:\tx\nUidx:\t5\t6\t7\t8\nUid:\t1\t2\t3\t4\n";
	struct pid_status st;

	CHECK_EQ_I64(parse_status_exact(root_setuid, sizeof(root_setuid) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, 0);
	CHECK_EQ_I64(parse_status_exact(spaces, sizeof(spaces) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, 8);
	CHECK_EQ_I64(parse_status_exact(one_field, sizeof(one_field) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, -1);
	CHECK_EQ_I64(parse_status_exact(empty_uid, sizeof(empty_uid) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, -1);
	CHECK_EQ_I64(parse_status_exact(look_alike, sizeof(look_alike) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, 2);
}

static void test_status_ctxt_lines(void)
{
	/* The two keys share a suffix; the order must not matter. */
	static const char swapped[] =
		"Name:\tx\n"
		"nonvoluntary_ctxt_switches:\t9\n"
		"voluntary_ctxt_switches:\t18446744073709551\n";
	static const char no_newline[] =
		"Name:\tx\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t6";
	/* A name that looks like a key is on the Name line, not a key line. */
	static const char tricky_name[] =
		"Name:\tvoluntary_ctxt_switches:\t999\n"
		"voluntary_ctxt_switches:\t1\n"
		"nonvoluntary_ctxt_switches:\t2\n";
	struct pid_status st;

	CHECK_EQ_I64(parse_status_exact(swapped, sizeof(swapped) - 1, &st), 0);
	CHECK_EQ_I64(st.vcsw, 18446744073709551LL);
	CHECK_EQ_I64(st.ivcsw, 9);
	CHECK_EQ_I64(parse_status_exact(no_newline, sizeof(no_newline) - 1, &st), 0);
	CHECK_EQ_I64(st.vcsw, 5);
	CHECK_EQ_I64(st.ivcsw, 6);
	CHECK_EQ_I64(parse_status_exact(tricky_name, sizeof(tricky_name) - 1, &st), 0);
	CHECK_EQ_I64(st.vcsw, 1);
	CHECK_EQ_I64(st.ivcsw, 2);
}

static void test_status_missing_lines(void)
{
	static const char name_only[] = "Name:\tx\n";
	static const char no_uid[] =
		"Name:\tx\nvoluntary_ctxt_switches:\t3\nnonvoluntary_ctxt_switches:\t4\n";
	static const char no_ctxt[] = "Name:\tx\nUid:\t1\t2\t3\t4\n";
	static const char empty_vals[] =
		"Name:\tx\nvoluntary_ctxt_switches:\t\nnonvoluntary_ctxt_switches:\tabc\n";
	struct pid_status st;

	CHECK_EQ_I64(parse_status_exact(name_only, sizeof(name_only) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, -1);
	CHECK_EQ_I64(st.vcsw, -1);
	CHECK_EQ_I64(st.ivcsw, -1);
	CHECK_EQ_I64(parse_status_exact(no_uid, sizeof(no_uid) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, -1);
	CHECK_EQ_I64(st.vcsw, 3);
	CHECK_EQ_I64(st.ivcsw, 4);
	CHECK_EQ_I64(parse_status_exact(no_ctxt, sizeof(no_ctxt) - 1, &st), 0);
	CHECK_EQ_I64(st.uid, 2);
	CHECK_EQ_I64(st.vcsw, -1);
	CHECK_EQ_I64(st.ivcsw, -1);
	CHECK_EQ_I64(parse_status_exact(empty_vals, sizeof(empty_vals) - 1, &st), 0);
	CHECK_EQ_I64(st.vcsw, -1);
	CHECK_EQ_I64(st.ivcsw, -1);
}

static void test_status_not_status(void)
{
	static const char *const bad[] = {
		"",
		"N",
		"Name",
		"name:\tx\n",
		" Name:\tx\n",
		"3101 (cat) R 3097 3098 2601 0 -1 0 1 0 0 0 1 1 0 0 20 0 1 0 5 6 7\n",
		"Uid:\t1\t2\t3\t4\nName:\tx\n",
		"\n\n\n",
	};
	struct pid_status st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!CHECK_EQ_I64(parse_status_exact(bad[i], strlen(bad[i]), &st), -EINVAL))
			printf("#   input #%zu\n", i);
}

/*
 * The line of @key ends with a number: offset of its first digit into
 * *digits_start, and of the byte after its last digit (the newline) returned.
 */
static size_t value_end(const char *buf, const char *key, size_t *digits_start)
{
	const char *p = strstr(buf, key), *e;
	size_t end;

	if (!p)
		abort();
	e = strchr(p + 1, '\n');
	if (!e)
		abort();
	end = (size_t)(e - buf);
	*digits_start = end;
	while (buf[*digits_start - 1] >= '0' && buf[*digits_start - 1] <= '9')
		(*digits_start)--;
	return end;
}

/*
 * Cut at every length: never a crash or overread; -EINVAL below "Name:"; each
 * value is -1 while its digits are missing and exact once they are all there.
 */
static void test_status_truncated_every_length(void)
{
	size_t n = sizeof(status_real) - 1, len;
	size_t uid_s, uid_e, v_s, v_e, iv_s, iv_e;

	/* The effective uid is the second value: "1001" ends before "\t1002". */
	uid_e = (size_t)(strstr(status_real, "\t1002") - status_real);
	uid_s = uid_e - 4;
	v_e = value_end(status_real, "\nvoluntary_ctxt_switches:", &v_s);
	iv_e = value_end(status_real, "nonvoluntary_ctxt_switches:", &iv_s);
	for (len = 0; len <= n; len++) {
		struct pid_status st;
		int r = parse_status_exact(status_real, len, &st);

		CHECK_EQ_I64(r, len < 5 ? -EINVAL : 0);
		if (len <= uid_s)
			CHECK_EQ_I64(st.uid, -1);
		else if (len >= uid_e)
			CHECK_EQ_I64(st.uid, 1001);
		if (len <= v_s)
			CHECK_EQ_I64(st.vcsw, -1);
		else if (len >= v_e)
			CHECK_EQ_I64(st.vcsw, 1234);
		if (len <= iv_s)
			CHECK_EQ_I64(st.ivcsw, -1);
		else if (len >= iv_e)
			CHECK_EQ_I64(st.ivcsw, 56);
	}
}


/* The ELF header of /proc/PID/exe: a 32-bit program of another machine is compat. */
static void test_elf_compat(void)
{
	/* e_ident, e_type, e_machine (little endian at 18). */
	unsigned char h[20] = { 0x7f, 'E', 'L', 'F', 1, 1, 1, 0 };

	h[18] = 3;	/* EM_386 */
	CHECK_EQ_I64(procfs_parse_elf_compat(h, sizeof(h), 62), 1);
	h[4] = 2;	/* ELFCLASS64 */
	h[18] = 62;	/* EM_X86_64 */
	CHECK_EQ_I64(procfs_parse_elf_compat(h, sizeof(h), 62), 0);
	h[4] = 1;	/* x32: class 32 of x86_64 itself, x86_64's numbers */
	CHECK_EQ_I64(procfs_parse_elf_compat(h, sizeof(h), 62), 0);
	CHECK_EQ_I64(procfs_parse_elf_compat(h, sizeof(h), 0), 1);
	h[5] = 2;	/* big endian: e_machine 62 << 8 */
	h[18] = 0;
	h[19] = 62;
	CHECK_EQ_I64(procfs_parse_elf_compat(h, sizeof(h), 62), 0);
	CHECK_EQ_I64(procfs_parse_elf_compat(h, 19, 62), -1);
	h[5] = 3;
	CHECK_EQ_I64(procfs_parse_elf_compat(h, sizeof(h), 62), -1);
	h[5] = 1;
	h[4] = 0;
	CHECK_EQ_I64(procfs_parse_elf_compat(h, sizeof(h), 62), -1);
	memcpy(h, "#!/b", 4);	/* a script is no ELF file (exe never is one) */
	CHECK_EQ_I64(procfs_parse_elf_compat(h, sizeof(h), 62), -1);
}

static const struct test tests[] = {
	{ "procparse: an ELF header says a 32-bit program (compat), x32 is not", test_elf_compat },
	{ "stat_real_line", test_stat_real_line },
	{ "stat_kthread_line", test_stat_kthread_line },
	{ "stat_hostile_comms", test_stat_hostile_comms },
	{ "stat_comm_with_nul", test_stat_comm_with_nul },
	{ "stat_invalid", test_stat_invalid },
	{ "stat_empty_buffer", test_stat_empty_buffer },
	{ "stat_limits", test_stat_limits },
	{ "stat_int64_min", test_stat_int64_min },
	{ "stat_missing_trailing_fields", test_stat_missing_trailing_fields },
	{ "stat_truncated_every_length", test_stat_truncated_every_length },
	{ "stat_cut_inside_rss", test_stat_cut_inside_rss },
	{ "stat_truncated_hostile", test_stat_truncated_hostile },
	{ "stat_fuzz", test_stat_fuzz },
	{ "status_real", test_status_real },
	{ "status_effective_uid", test_status_effective_uid },
	{ "status_ctxt_lines", test_status_ctxt_lines },
	{ "status_missing_lines", test_status_missing_lines },
	{ "status_not_status", test_status_not_status },
	{ "status_truncated_every_length", test_status_truncated_every_length },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
