// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of outputs/promtext.c: both formats byte for byte on small
 * families, escaping (quotes, backslashes, newlines, control characters and
 * invalid UTF-8 in process names and cgroup paths), values, the series cap and
 * its sticky, monotonic rule, and "# EOF".
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../outputs/promtext.h"
#include "test.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static const char *const comm_l[] = { "comm" };
static const char *const comm_sc_l[] = { "comm", "syscall" };

static struct prom_family *family(const char *name, enum prom_type type, enum prom_value v,
				  const char *unit, const char *help,
				  const char *const *labels, size_t nlabels, size_t max)
{
	struct prom_family_def d = { name, type, v, unit, help, labels, nlabels, max };
	char err[200];
	struct prom_family *f = prom_family_new(&d, err, sizeof(err));

	if (!f) {
		printf("# prom_family_new: %s\n", err);
		abort();
	}
	return f;
}

/* Write @f in @fmt into a fresh buffer; the caller frees the string. */
static char *render(struct prom_family *f, enum prom_format fmt, bool eof)
{
	struct prom_buf b = { 0 };

	CHECK_EQ_I64(prom_family_write(f, &b, fmt), 0);
	if (eof)
		CHECK_EQ_I64(prom_write_eof(&b, fmt), 0);
	return b.data ? b.data : calloc(1, 1);
}

#define CHECK_RENDER(f, fmt, eof, want)                 \
	do {                                            \
		char *got_ = render((f), (fmt), (eof)); \
		CHECK_STR(got_, (want));                \
		free(got_);                             \
	} while (0)

static void test_counter_both_formats(void)
{
	struct prom_family *f = family("ktop_syscalls", PROM_COUNTER, PROM_U64, NULL,
				       "System calls.", comm_sc_l, 2, 0);

	prom_family_begin(f);
	CHECK_EQ_I64(prom_family_add_u64(f, (const char *[]){ "bash", "read" }, 12), 0);
	prom_family_add_u64(f, (const char *[]){ "sshd", "openat" }, 3);
	CHECK_RENDER(f, PROM_FMT_TEXT, true,
		     "# HELP ktop_syscalls_total System calls.\n"
		     "# TYPE ktop_syscalls_total counter\n"
		     "ktop_syscalls_total{comm=\"bash\",syscall=\"read\"} 12\n"
		     "ktop_syscalls_total{comm=\"sshd\",syscall=\"openat\"} 3\n");
	CHECK_RENDER(f, PROM_FMT_OPENMETRICS, true,
		     "# TYPE ktop_syscalls counter\n"
		     "# HELP ktop_syscalls System calls.\n"
		     "ktop_syscalls_total{comm=\"bash\",syscall=\"read\"} 12\n"
		     "ktop_syscalls_total{comm=\"sshd\",syscall=\"openat\"} 3\n"
		     "# EOF\n");
	CHECK_EQ_U64(prom_family_dropped(f), 0);
	prom_family_free(f);
}

static void test_unit_gauge_unlabeled(void)
{
	struct prom_family *c = family("ktop_cpu_seconds", PROM_COUNTER, PROM_DOUBLE, "seconds",
				       "CPU time.", comm_l, 1, 0);
	struct prom_family *g = family("ktop_tracing", PROM_GAUGE, PROM_U64, NULL, NULL, NULL, 0,
				       0);

	prom_family_begin(c);
	prom_family_add_double(c, (const char *[]){ "make" }, 1.25);
	CHECK_RENDER(c, PROM_FMT_TEXT, false,
		     "# HELP ktop_cpu_seconds_total CPU time.\n"
		     "# TYPE ktop_cpu_seconds_total counter\n"
		     "ktop_cpu_seconds_total{comm=\"make\"} 1.25\n");
	CHECK_RENDER(c, PROM_FMT_OPENMETRICS, false,
		     "# TYPE ktop_cpu_seconds counter\n"
		     "# UNIT ktop_cpu_seconds seconds\n"
		     "# HELP ktop_cpu_seconds CPU time.\n"
		     "ktop_cpu_seconds_total{comm=\"make\"} 1.25\n");
	/* No HELP given: no HELP line; no labels: no braces; offered twice: summed. */
	prom_family_begin(g);
	prom_family_add_u64(g, NULL, 1);
	prom_family_add_u64(g, NULL, 2);
	CHECK_RENDER(g, PROM_FMT_TEXT, true, "# TYPE ktop_tracing gauge\nktop_tracing 3\n");
	CHECK_RENDER(g, PROM_FMT_OPENMETRICS, true,
		     "# TYPE ktop_tracing gauge\nktop_tracing 3\n# EOF\n");
	prom_family_free(c);
	prom_family_free(g);
}

static void test_no_samples(void)
{
	struct prom_family *f = family("ktop_signals", PROM_COUNTER, PROM_U64, NULL, "Signals.",
				       comm_l, 1, 5);

	prom_family_begin(f);
	CHECK_RENDER(f, PROM_FMT_TEXT, true,
		     "# HELP ktop_signals_total Signals.\n# TYPE ktop_signals_total counter\n");
	CHECK_RENDER(f, PROM_FMT_OPENMETRICS, true,
		     "# TYPE ktop_signals counter\n# HELP ktop_signals Signals.\n# EOF\n");
	/* An empty exposition is "# EOF" alone. */
	{
		struct prom_buf b = { 0 };

		prom_write_eof(&b, PROM_FMT_OPENMETRICS);
		CHECK_STR(b.data, "# EOF\n");
		prom_buf_reset(&b);
		prom_write_eof(&b, PROM_FMT_TEXT);
		CHECK_EQ_U64(b.len, 0);
		prom_buf_free(&b);
	}
	prom_family_free(f);
}

static void test_help_escaping(void)
{
	struct prom_family *f = family("ktop_x", PROM_GAUGE, PROM_U64, NULL,
				       "a \"quoted\" back\\slash\nnext line", NULL, 0, 0);

	prom_family_begin(f);
	/* The text format knows no \" in HELP: the quote stays bare. */
	CHECK_RENDER(f, PROM_FMT_TEXT, false,
		     "# HELP ktop_x a \"quoted\" back\\\\slash\\nnext line\n"
		     "# TYPE ktop_x gauge\n");
	CHECK_RENDER(f, PROM_FMT_OPENMETRICS, false,
		     "# TYPE ktop_x gauge\n"
		     "# HELP ktop_x a \\\"quoted\\\" back\\\\slash\\nnext line\n");
	prom_family_free(f);
}

/* The label value @in (@n bytes) as written. */
static char *label_value(const char *in, size_t n)
{
	struct prom_buf b = { 0 };

	CHECK_EQ_I64(prom_put_label_value(&b, in, n), 0);
	return b.data ? b.data : calloc(1, 1);
}

#define LV(in, want)                                            \
	do {                                                    \
		char *got_ = label_value((in), sizeof(in) - 1); \
		CHECK_STR(got_, (want));                        \
		free(got_);                                     \
	} while (0)

#define FFFD "\xef\xbf\xbd"

static void test_label_escaping(void)
{
	LV("plain", "plain");
	LV("", "");
	LV("a\"b", "a\\\"b");
	LV("a\\b", "a\\\\b");
	LV("a\nb", "a\\nb");
	LV("\\\"\n", "\\\\\\\"\\n");
	LV("\\n", "\\\\n");	/* a backslash and an n, not a newline */
	/* Control characters: C0 (tab, CR, ESC), DEL, C1 (U+0085, U+009B CSI). */
	LV("a\tb", "a" FFFD "b");
	LV("cr\rlf", "cr" FFFD "lf");
	LV("\x1b[31mred", FFFD "[31mred");
	LV("del\x7f", "del" FFFD);
	LV("nel\xc2\x85 csi\xc2\x9b", "nel" FFFD " csi" FFFD);
	LV("\x01\x1f", FFFD FFFD);
	/* Valid UTF-8 is kept: 2, 3 and 4 bytes, U+FFFD itself, U+10FFFF. */
	LV("caf\xc3\xa9", "caf\xc3\xa9");
	LV("\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80");
	LV(FFFD, FFFD);
	LV("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");
	LV("\xc2\xa0nbsp", "\xc2\xa0nbsp");
	/*
	 * Invisible code points (bidi controls, zero-width and format
	 * characters): '?', as the text output and CSV show them.
	 */
	LV("x\xe2\x80\xae" "abc", "x?abc");		/* U+202E RLO */
	LV("\xe2\x80\x8b\xe2\x80\x8f", "??");	/* U+200B ZWSP, U+200F RLM */
	LV("\xe2\x80\xaa\xe2\x80\xac", "??");	/* U+202A LRE, U+202C PDF */
	LV("\xe2\x81\xa0\xe2\x81\xa4", "??");	/* U+2060 WJ, U+2064 */
	LV("\xe2\x81\xa6" "a\xe2\x81\xa9", "?a?");	/* U+2066 LRI, U+2069 PDI */
	LV("\xef\xbb\xbf\xd8\x9c\xe1\xa0\x8e", "???");	/* U+FEFF, U+061C ALM, U+180E */
	LV("\xf3\xa0\x80\x81", "?");			/* U+E0001 LANGUAGE TAG */
	LV("a\xe2\x80\xae\"\n", "a?\\\"\\n");		/* then a quote and a newline */
}

static void test_invalid_utf8(void)
{
	/* Each byte that does not start a valid sequence is one U+FFFD. */
	LV("\xff", FFFD);
	LV("a\xfe\xff" "b", "a" FFFD FFFD "b");
	LV("\x80\xbf", FFFD FFFD);		/* lone continuation bytes */
	LV("\xc0\xaf", FFFD FFFD);		/* overlong '/' */
	LV("\xe0\x80\xaf", FFFD FFFD FFFD);	/* overlong, 3 bytes */
	LV("\xf0\x80\x80\xaf", FFFD FFFD FFFD FFFD);
	LV("\xc1\xbf", FFFD FFFD);
	LV("\xed\xa0\x80", FFFD FFFD FFFD);	/* a surrogate, U+D800 */
	LV("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD);	/* past U+10FFFF */
	LV("\xf5\x80\x80\x80", FFFD FFFD FFFD FFFD);
	LV("cut\xe2\x82", "cut" FFFD FFFD);	/* a sequence cut by the end */
	LV("\xe2\x82" "a", FFFD FFFD "a");	/* ... or by an ASCII byte */
	LV("\xc3\"", FFFD "\\\"");		/* then a quote, still escaped */
	LV("\xc3\\", FFFD "\\\\");
	LV("\xc3\n", FFFD "\\n");
	/* A comm cut by the kernel inside a character (TASK_COMM_LEN). */
	LV("python3-\xe6\x97", "python3-" FFFD FFFD);
	/* cgroup paths */
	LV("/user.slice/\xe9t\xe9.scope", "/user.slice/" FFFD "t" FFFD ".scope");
	LV("/a\"b\\c/\nd", "/a\\\"b\\\\c/\\nd");
}

/* Label sets equal once written are one series: the values add up. */
static void test_merged_after_mapping(void)
{
	struct prom_family *f = family("ktop_procs", PROM_GAUGE, PROM_U64, NULL, NULL, comm_l, 1,
				       0);

	prom_family_begin(f);
	prom_family_add_u64(f, (const char *[]){ "a\xff" }, 1);
	prom_family_add_u64(f, (const char *[]){ "b" }, 10);
	prom_family_add_u64(f, (const char *[]){ "a\xfe" }, 2);
	prom_family_add_u64(f, (const char *[]){ "a\t" }, 4);	/* a control: U+FFFD too */
	prom_family_add_u64(f, (const char *[]){ "a" FFFD }, 8);
	CHECK_RENDER(f, PROM_FMT_TEXT, false,
		     "# TYPE ktop_procs gauge\n"
		     "ktop_procs{comm=\"a" FFFD "\"} 15\n"
		     "ktop_procs{comm=\"b\"} 10\n");
	/* Empty and missing (NULL) values are the same, written label="". */
	prom_family_begin(f);
	prom_family_add_u64(f, (const char *[]){ "" }, 1);
	prom_family_add_u64(f, (const char *[]){ NULL }, 2);
	CHECK_RENDER(f, PROM_FMT_OPENMETRICS, false,
		     "# TYPE ktop_procs gauge\nktop_procs{comm=\"\"} 3\n");
	prom_family_free(f);
}

static char *value_str(double v)
{
	struct prom_buf b = { 0 };

	prom_put_double(&b, v);
	return b.data;
}

#define DV(v, want)                        \
	do {                               \
		char *got_ = value_str(v); \
		CHECK_STR(got_, (want));   \
		free(got_);                \
	} while (0)

static void test_values(void)
{
	struct prom_buf b = { 0 };

	DV(0.0, "0");
	DV(-0.0, "0");
	DV(3.0, "3");
	DV(-2.5, "-2.5");
	DV(0.1, "0.1");
	DV(1.0 / 3, "0.3333333333333333");
	DV(0.1 + 0.2, "0.30000000000000004");
	DV(1e300, "1e+300");
	DV(-1.5e-300, "-1.5e-300");
	DV(5e-324, "4.94065645841247e-324");	/* 15 digits read back */
	DV(9007199254740991.0, "9007199254740991");	/* 2^53 - 1: as an integer */
	DV(9007199254740992.0, "9007199254740992");
	DV(1e21, "1e+21");
	DV(INFINITY, "+Inf");
	DV(-INFINITY, "-Inf");
	DV(NAN, "NaN");
	prom_put_u64(&b, UINT64_MAX);
	CHECK_STR(b.data, "18446744073709551615");
	prom_buf_reset(&b);
	prom_put_u64(&b, 0);
	CHECK_STR(b.data, "0");
	prom_buf_reset(&b);
	prom_put_u64(&b, 9007199254740993ull);	/* not a double: exact all the same */
	CHECK_STR(b.data, "9007199254740993");
	prom_buf_free(&b);
}

/*
 * Under a locale with a decimal comma the numbers keep their point. Without
 * one installed, one is compiled into a temporary directory (localedef).
 */
static void test_locale(void)
{
	char dir[] = "/tmp/ktop-test-locale.XXXXXX", cmd[256];
	const char *ok = setlocale(LC_ALL, "de_DE.UTF-8");
	bool made = false;

	if (!ok && mkdtemp(dir)) {
		made = true;
		snprintf(cmd, sizeof(cmd),
			 "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
		if (system(cmd) == 0) {
			setenv("LOCPATH", dir, 1);
			ok = setlocale(LC_ALL, "de_DE.UTF-8");
		}
	}
	if (!ok) {
		TEST_SKIP("no de_DE.UTF-8 locale, and localedef could not make one");
	} else {
		char tmp[16];

		snprintf(tmp, sizeof(tmp), "%g", 0.5);
		CHECK_STR(tmp, "0,5");	/* the locale is in effect */
		DV(0.5, "0.5");
		DV(1.0 / 3, "0.3333333333333333");
		DV(-1.5e300, "-1.5e+300");
	}
	setlocale(LC_ALL, "C");
	unsetenv("LOCPATH");
	if (made) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
}

static void test_counter_invalid_values(void)
{
	struct prom_family *f = family("ktop_cpu_seconds", PROM_COUNTER, PROM_DOUBLE, "seconds",
				       NULL, comm_l, 1, 0);
	struct prom_family *u = family("ktop_n", PROM_GAUGE, PROM_U64, NULL, NULL, comm_l, 1, 0);

	prom_family_begin(f);
	prom_family_add_double(f, (const char *[]){ "nan" }, NAN);
	prom_family_add_double(f, (const char *[]){ "neg" }, -1);
	prom_family_add_double(f, (const char *[]){ "inf" }, INFINITY);
	prom_family_add_u64(f, (const char *[]){ "u" }, 7);
	CHECK_RENDER(f, PROM_FMT_OPENMETRICS, false,
		     "# TYPE ktop_cpu_seconds counter\n# UNIT ktop_cpu_seconds seconds\n"
		     "ktop_cpu_seconds_total{comm=\"inf\"} +Inf\n"
		     "ktop_cpu_seconds_total{comm=\"u\"} 7\n");
	CHECK_EQ_U64(prom_family_invalid(f), 2);
	/* Doubles into an integer family: rounded down, clamped. */
	prom_family_begin(u);
	prom_family_add_double(u, (const char *[]){ "a" }, 2.9);
	prom_family_add_double(u, (const char *[]){ "b" }, -3);
	prom_family_add_double(u, (const char *[]){ "c" }, 1e30);
	CHECK_RENDER(u, PROM_FMT_TEXT, false,
		     "# TYPE ktop_n gauge\nktop_n{comm=\"a\"} 2\nktop_n{comm=\"b\"} 0\n"
		     "ktop_n{comm=\"c\"} 18446744073709551615\n");
	prom_family_free(f);
	prom_family_free(u);
}

static void test_bad_definitions(void)
{
	static const char *const dup[] = { "comm", "comm" };
	static const char *const reserved[] = { "__name__" };
	static const char *const badl[] = { "1x" };
	static const struct prom_family_def bad[] = {
		{ "", PROM_GAUGE, PROM_U64, NULL, NULL, NULL, 0, 0 },
		{ "9lives", PROM_GAUGE, PROM_U64, NULL, NULL, NULL, 0, 0 },
		{ "a-b", PROM_GAUGE, PROM_U64, NULL, NULL, NULL, 0, 0 },
		{ "ktop_x_total", PROM_COUNTER, PROM_U64, NULL, NULL, NULL, 0, 0 },
		{ "ktop_cpu", PROM_COUNTER, PROM_DOUBLE, "seconds", NULL, NULL, 0, 0 },
		{ "ktop_xseconds", PROM_COUNTER, PROM_DOUBLE, "seconds", NULL, NULL, 0, 0 },
		{ "seconds", PROM_GAUGE, PROM_DOUBLE, "seconds", NULL, NULL, 0, 0 },
		{ "ktop_x", PROM_GAUGE, PROM_U64, NULL, NULL, dup, 2, 0 },
		{ "ktop_x", PROM_GAUGE, PROM_U64, NULL, NULL, reserved, 1, 0 },
		{ "ktop_x", PROM_GAUGE, PROM_U64, NULL, NULL, badl, 1, 0 },
		{ "ktop_x", PROM_GAUGE, PROM_U64, NULL, NULL, NULL, 1, 0 },
	};
	char err[200];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct prom_family *f;

		err[0] = '\0';
		f = prom_family_new(&bad[i], err, sizeof(err));
		if (!CHECK(f == NULL))
			printf("# accepted: %s\n", bad[i].name);
		CHECK(err[0] != '\0');
		prom_family_free(f);
	}
	/* A gauge may end in _total; colons are fine in names. */
	{
		struct prom_family_def d = { "a:b_total", PROM_GAUGE, PROM_U64, NULL, NULL, NULL,
					     0, 0 };
		struct prom_family *f = prom_family_new(&d, err, sizeof(err));

		CHECK(f != NULL);
		prom_family_free(f);
	}
}

/* One scrape of a capped counter: @n label sets comm=names[i] with values[i]. */
static char *scrape(struct prom_family *f, const char *const *names, const uint64_t *values,
		    size_t n)
{
	size_t i;

	prom_family_begin(f);
	for (i = 0; i < n; i++)
		prom_family_add_u64(f, (const char *[]){ names[i] }, values[i]);
	return render(f, PROM_FMT_TEXT, false);
}

#define HDR "# TYPE c_total counter\n"

static void test_cap_counter_sticky(void)
{
	struct prom_family *f = family("c", PROM_COUNTER, PROM_U64, NULL, NULL, comm_l, 1, 2);
	char *s;

	/* The two largest of the first scrape get the slots. */
	s = scrape(f, (const char *[]){ "a", "b", "c" }, (const uint64_t[]){ 5, 10, 1 }, 3);
	CHECK_STR(s, HDR "c_total{comm=\"a\"} 5\nc_total{comm=\"b\"} 10\nc_total{comm=\"other\"} 1\n");
	CHECK_EQ_U64(prom_family_dropped(f), 1);
	free(s);
	/* d is much larger, but the slots are taken for life: d goes to other. */
	s = scrape(f, (const char *[]){ "a", "b", "c", "d" }, (const uint64_t[]){ 6, 11, 3, 100 },
		   4);
	CHECK_STR(s, HDR "c_total{comm=\"a\"} 6\nc_total{comm=\"b\"} 11\nc_total{comm=\"other\"} 103\n");
	CHECK_EQ_U64(prom_family_dropped(f), 2);
	free(s);
	/* Written again unchanged (the other format, a second scrape): the same. */
	s = render(f, PROM_FMT_TEXT, false);
	CHECK_STR(s, HDR "c_total{comm=\"a\"} 6\nc_total{comm=\"b\"} 11\nc_total{comm=\"other\"} 103\n");
	free(s);
	/* c is not offered any more, b neither: other does not go down. */
	s = scrape(f, (const char *[]){ "d", "a" }, (const uint64_t[]){ 150, 7 }, 2);
	CHECK_STR(s, HDR "c_total{comm=\"a\"} 7\nc_total{comm=\"other\"} 153\n");
	CHECK_EQ_U64(prom_family_dropped(f), 1);
	free(s);
	/* b is back with its own series; d was reset (went down): counted whole. */
	s = scrape(f, (const char *[]){ "b", "d", "a" }, (const uint64_t[]){ 12, 4, 7 }, 3);
	CHECK_STR(s, HDR "c_total{comm=\"b\"} 12\nc_total{comm=\"a\"} 7\nc_total{comm=\"other\"} 157\n");
	free(s);
	/* No member at all: the overflow series stays, at its value. */
	s = scrape(f, (const char *[]){ "a" }, (const uint64_t[]){ 8 }, 1);
	CHECK_STR(s, HDR "c_total{comm=\"a\"} 8\nc_total{comm=\"other\"} 157\n");
	CHECK_EQ_U64(prom_family_dropped(f), 0);
	free(s);
	prom_family_free(f);
}

/* scrape() with an owner per label set. */
static char *scrape_owned(struct prom_family *f, const char *const *names, const uint64_t *values,
			  const int64_t *owners, size_t n)
{
	size_t i;

	prom_family_begin(f);
	for (i = 0; i < n; i++) {
		prom_family_owner(f, owners[i]);
		prom_family_add_u64(f, (const char *[]){ names[i] }, values[i]);
	}
	return render(f, PROM_FMT_TEXT, false);
}

/*
 * One owner's churn takes only its share: user 1000 holds all four slots;
 * root's two newcomers take two of them (1000's smallest, whose series end
 * and count in the overflow from their value then), a third user's one more;
 * 1000's further newcomers stay in the overflow.
 */
static void test_cap_counter_owners(void)
{
	struct prom_family *f = family("c", PROM_COUNTER, PROM_U64, NULL, NULL, comm_l, 1, 4);
	char *s;

	s = scrape_owned(f, (const char *[]){ "u1", "u2", "u3", "u4" },
			 (const uint64_t[]){ 40, 30, 20, 10 }, (const int64_t[]){ 1000, 1000, 1000, 1000 }, 4);
	CHECK_STR(s, HDR "c_total{comm=\"u1\"} 40\nc_total{comm=\"u2\"} 30\nc_total{comm=\"u3\"} 20\n"
		  "c_total{comm=\"u4\"} 10\n");
	free(s);
	s = scrape_owned(f, (const char *[]){ "u1", "u2", "u3", "u4", "u5", "r1", "r2" },
			 (const uint64_t[]){ 41, 31, 21, 11, 99, 1, 2 },
			 (const int64_t[]){ 1000, 1000, 1000, 1000, 1000, 0, 0 }, 7);
	/* u5 counts whole (new to the overflow); u3 and u4 from now on. */
	CHECK_STR(s, HDR "c_total{comm=\"u1\"} 41\nc_total{comm=\"u2\"} 31\nc_total{comm=\"r1\"} 1\n"
		  "c_total{comm=\"r2\"} 2\nc_total{comm=\"other\"} 99\n");
	CHECK_EQ_U64(prom_family_dropped(f), 3);
	free(s);
	/* A third user: one slot, from a holder two above it (0 and 1000 hold 2: the first, root's smallest). */
	s = scrape_owned(f, (const char *[]){ "u1", "u2", "u3", "u4", "u5", "r1", "r2", "x1" },
			 (const uint64_t[]){ 42, 32, 25, 13, 100, 1, 2, 7 },
			 (const int64_t[]){ 1000, 1000, 1000, 1000, 1000, 0, 0, 33 }, 8);
	CHECK_STR(s, HDR "c_total{comm=\"u1\"} 42\nc_total{comm=\"u2\"} 32\nc_total{comm=\"r2\"} 2\n"
		  "c_total{comm=\"x1\"} 7\nc_total{comm=\"other\"} 106\n");
	CHECK_EQ_U64(prom_family_dropped(f), 4);
	free(s);
	prom_family_free(f);
}

static void test_cap_counter_first_come(void)
{
	struct prom_family *f = family("c", PROM_COUNTER, PROM_U64, NULL, NULL, comm_l, 1, 3);
	char *s;

	/* Slots left for everyone: no overflow series. */
	s = scrape(f, (const char *[]){ "a" }, (const uint64_t[]){ 1 }, 1);
	CHECK_STR(s, HDR "c_total{comm=\"a\"} 1\n");
	free(s);
	/* Two slots left, three newcomers: the larger two; a tie goes to the first offered. */
	s = scrape(f, (const char *[]){ "x", "y", "a", "z" }, (const uint64_t[]){ 5, 9, 2, 5 }, 4);
	CHECK_STR(s, HDR "c_total{comm=\"x\"} 5\nc_total{comm=\"y\"} 9\nc_total{comm=\"a\"} 2\n"
		     "c_total{comm=\"other\"} 5\n");
	free(s);
	/* z keeps counting in other, by its increase. */
	s = scrape(f, (const char *[]){ "z" }, (const uint64_t[]){ 6 }, 1);
	CHECK_STR(s, HDR "c_total{comm=\"other\"} 6\n");
	free(s);
	prom_family_free(f);
}

/* A process named "other" is summed into the overflow series, never beside it. */
static void test_cap_genuine_other(void)
{
	struct prom_family *f = family("c", PROM_COUNTER, PROM_U64, NULL, NULL, comm_l, 1, 5);
	struct prom_family *g = family("g", PROM_GAUGE, PROM_U64, NULL, NULL, comm_l, 1, 1);
	struct prom_family *two = family("t", PROM_COUNTER, PROM_U64, NULL, NULL, comm_sc_l, 2, 1);
	char *s;

	s = scrape(f, (const char *[]){ "other", "a" }, (const uint64_t[]){ 4, 1 }, 2);
	CHECK_STR(s, HDR "c_total{comm=\"a\"} 1\nc_total{comm=\"other\"} 4\n");
	CHECK_EQ_U64(prom_family_dropped(f), 0);
	free(s);
	prom_family_begin(g);
	prom_family_add_u64(g, (const char *[]){ "other" }, 100);
	prom_family_add_u64(g, (const char *[]){ "a" }, 1);
	prom_family_add_u64(g, (const char *[]){ "b" }, 2);
	CHECK_RENDER(g, PROM_FMT_TEXT, false,
		     "# TYPE g gauge\ng{comm=\"b\"} 2\ng{comm=\"other\"} 101\n");
	CHECK_EQ_U64(prom_family_dropped(g), 1);
	/* Two labels: only other/other is the overflow's; other/read is a series. */
	prom_family_begin(two);
	prom_family_add_u64(two, (const char *[]){ "other", "read" }, 3);
	prom_family_add_u64(two, (const char *[]){ "sh", "other" }, 2);
	prom_family_add_u64(two, (const char *[]){ "other", "other" }, 1);
	CHECK_RENDER(two, PROM_FMT_TEXT, false,
		     "# TYPE t_total counter\nt_total{comm=\"other\",syscall=\"read\"} 3\n"
		     "t_total{comm=\"other\",syscall=\"other\"} 3\n");
	prom_family_free(f);
	prom_family_free(g);
	prom_family_free(two);
}

static void test_cap_gauge_top(void)
{
	struct prom_family *g = family("g", PROM_GAUGE, PROM_DOUBLE, NULL, NULL, comm_l, 1, 2);

	prom_family_begin(g);
	prom_family_add_double(g, (const char *[]){ "a" }, 1);
	prom_family_add_double(g, (const char *[]){ "b" }, 5);
	prom_family_add_double(g, (const char *[]){ "c" }, 3);
	prom_family_add_double(g, (const char *[]){ "d" }, NAN);
	CHECK_RENDER(g, PROM_FMT_TEXT, false,
		     "# TYPE g gauge\ng{comm=\"b\"} 5\ng{comm=\"c\"} 3\ng{comm=\"other\"} NaN\n");
	CHECK_EQ_U64(prom_family_dropped(g), 2);
	/* Gauges are chosen afresh at each scrape; nothing over the cap: no other. */
	prom_family_begin(g);
	prom_family_add_double(g, (const char *[]){ "a" }, 9);
	prom_family_add_double(g, (const char *[]){ "b" }, -1);
	CHECK_RENDER(g, PROM_FMT_TEXT, false, "# TYPE g gauge\ng{comm=\"a\"} 9\ng{comm=\"b\"} -1\n");
	CHECK_EQ_U64(prom_family_dropped(g), 0);
	prom_family_free(g);
}

/* Parse "name{comm="X"} V" lines of @s into @vals by the index of X in @names. */
static size_t parse_lines(const char *s, uint64_t *vals, bool *seen, size_t nnames)
{
	size_t lines = 0;

	while ((s = strstr(s, "{comm=\""))) {
		char name[16];
		unsigned long long v;
		size_t k;

		s += 7;
		k = strcspn(s, "\"");
		if (k >= sizeof(name))
			return (size_t)-1;
		memcpy(name, s, k);
		name[k] = '\0';
		if (sscanf(s + k, "\"} %llu", &v) != 1)
			return (size_t)-1;
		k = !strcmp(name, "other") ? nnames : (size_t)atoi(name + 1);
		vals[k] = v;
		seen[k] = true;
		lines++;
	}
	return lines;
}

/*
 * A random workload over many scrapes: label sets come, go and come back,
 * grow, some reset. Every series written (own or overflow) must never go
 * down; at most max_series + 1 series are written; and as long as no member
 * left or reset, the overflow equals its members' sum.
 */
static void test_cap_monotonic_random(void)
{
	enum { NAMES = 40, MAX = 6, SCRAPES = 400 };
	struct prom_family *f = family("c", PROM_COUNTER, PROM_U64, NULL, NULL, comm_l, 1, MAX);
	static char names[NAMES][8];
	uint64_t cur[NAMES] = { 0 }, last[NAMES + 1] = { 0 };
	bool alive[NAMES] = { false }, has_own[NAMES] = { false };
	uint32_t x = 12345;
	size_t i, sc, bad = 0, too_many = 0, ever_own = 0, own_before_leaving = 0;
	bool stable_other = true;

	for (i = 0; i < NAMES; i++)
		snprintf(names[i], sizeof(names[i]), "n%zu", i);
	for (sc = 0; sc < SCRAPES; sc++) {
		uint64_t vals[NAMES + 1] = { 0 }, members = 0;
		bool seen[NAMES + 1] = { false };
		size_t lines;
		char *s;

		if (sc == SCRAPES / 2 + 1)
			own_before_leaving = ever_own;
		prom_family_begin(f);
		for (i = 0; i < NAMES; i++) {
			uint32_t r = test_rand(&x);

			if (!alive[i] && r % 8 == 0)
				alive[i] = true;
			else if (alive[i] && sc > SCRAPES / 2 && r % 50 == 0)
				alive[i] = false, stable_other = false;	/* left */
			if (!alive[i])
				continue;
			if (sc > SCRAPES / 2 && r % 97 == 1) {
				cur[i] = 0;	/* a reset */
				stable_other = false;
			}
			cur[i] += r % 1000;
			prom_family_add_u64(f, (const char *[]){ names[i] }, cur[i]);
		}
		s = render(f, PROM_FMT_TEXT, false);
		lines = parse_lines(s, vals, seen, NAMES);
		if (!CHECK(lines != (size_t)-1)) {
			free(s);
			break;
		}
		if (lines > MAX + 1)
			too_many++;
		for (i = 0; i <= NAMES; i++) {
			if (!seen[i])
				continue;
			/* own series: the counter itself (resets are the workload's) */
			if (i < NAMES && !has_own[i])
				has_own[i] = true, ever_own++;
			if (i == NAMES && vals[i] < last[i])
				bad++;
			last[i] = vals[i];
		}
		for (i = 0; i < NAMES; i++)
			if (alive[i] && !seen[i])
				members += cur[i];
		if (stable_other && seen[NAMES])
			CHECK_EQ_U64(vals[NAMES], members);
		free(s);
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(too_many, 0);
	/* The same MAX label sets while none left; then those that left gave slots back. */
	CHECK_EQ_U64(own_before_leaving, MAX);
	CHECK(ever_own > MAX);
	prom_family_free(f);
}

/*
 * Random bytes as label values: the output is valid UTF-8, every byte under
 * 0x20 is a line's newline, and each value's quotes are balanced.
 */
/*
 * With owners, at random: the overflow never decreases, at most MAX series of
 * their own, an owner's churn never leaves another below its share (each owner
 * with a name alive at the end holds at least MAX / owners - 1 slots, or all
 * its names), and a label set that lost its series never has one again.
 */
static void test_cap_owners_random(void)
{
	enum { NAMES = 60, MAX = 6, SCRAPES = 300, OWNERS = 3 };
	struct prom_family *f = family("c", PROM_COUNTER, PROM_U64, NULL, NULL, comm_l, 1, MAX);
	static char names[NAMES][8];
	uint64_t cur[NAMES] = { 0 }, last_other = 0;
	bool alive[NAMES] = { false }, lost[NAMES] = { false }, had[NAMES] = { false };
	uint32_t x = 777;
	size_t i, sc, bad = 0, too_many = 0, back = 0;

	for (i = 0; i < NAMES; i++)
		snprintf(names[i], sizeof(names[i]), "n%zu", i);
	for (sc = 0; sc < SCRAPES; sc++) {
		uint64_t vals[NAMES + 1] = { 0 };
		bool seen[NAMES + 1] = { false };
		size_t lines, held[OWNERS] = { 0 }, names_of[OWNERS] = { 0 };
		char *s;

		prom_family_begin(f);
		for (i = 0; i < NAMES; i++) {
			uint32_t r = test_rand(&x);
			/* owner 1 churns: most names are its own */
			size_t o = i % 5 == 0 ? 0 : i % 7 == 0 ? 2 : 1;

			if (!alive[i] && r % (o == 1 ? 3 : 20) == 0)
				alive[i] = true, lost[i] = had[i] = false;
			if (!alive[i])
				continue;
			cur[i] += r % 100;
			prom_family_owner(f, (int64_t)o * 1000);
			prom_family_add_u64(f, (const char *[]){ names[i] }, cur[i]);
		}
		s = render(f, PROM_FMT_TEXT, false);
		lines = parse_lines(s, vals, seen, NAMES);
		free(s);
		if (!CHECK(lines != (size_t)-1))
			break;
		if (lines > MAX + 1)
			too_many++;
		if (seen[NAMES] && vals[NAMES] < last_other)
			bad++;
		if (seen[NAMES])
			last_other = vals[NAMES];
		for (i = 0; i < NAMES; i++) {
			size_t o = i % 5 == 0 ? 0 : i % 7 == 0 ? 2 : 1;

			if (!alive[i])
				continue;
			names_of[o]++;
			if (seen[i])
				held[o]++, back += lost[i], had[i] = true;
			else if (had[i])
				lost[i] = true;
		}
		if (sc == SCRAPES - 1)
			for (i = 0; i < OWNERS; i++)
				CHECK(held[i] >= MAX / OWNERS - 1 || held[i] == names_of[i]);
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(too_many, 0);
	CHECK_EQ_U64(back, 0);
	prom_family_free(f);
}

static void test_random_bytes(void)
{
	struct prom_family *f = family("r", PROM_GAUGE, PROM_U64, NULL, "h\x01\xff", comm_sc_l, 2,
				       50);
	uint32_t x = 777;
	size_t round, bad = 0;

	for (round = 0; round < 200; round++) {
		char v[2][40];
		struct prom_buf b = { 0 };
		size_t i, j;

		prom_family_begin(f);
		for (i = 0; i < 20; i++) {
			for (j = 0; j < 2; j++) {
				size_t n = test_rand(&x) % 39, k;

				for (k = 0; k < n; k++) {
					char c = (char)test_rand(&x);

					v[j][k] = c ? c : 'z';
				}
				v[j][n] = '\0';
			}
			prom_family_add_u64(f, (const char *[]){ v[0], v[1] }, i);
		}
		prom_family_write(f, &b, round % 2 ? PROM_FMT_OPENMETRICS : PROM_FMT_TEXT);
		for (i = 0; i < b.len; i++) {
			unsigned char c = (unsigned char)b.data[i];

			if (c < 0x20 && c != '\n')
				bad++;
			if (c == '\n' && i + 1 < b.len && b.data[i + 1] != '#' && b.data[i + 1] != 'r')
				bad++;
		}
		{
			/* valid UTF-8: round-trip through the writer changes nothing */
			struct prom_buf again = { 0 };
			char *nobs = malloc(b.len + 1);
			size_t n = 0;

			/* the escapes are ASCII: drop backslashes and quotes, keep the rest */
			for (i = 0; i < b.len; i++)
				if (b.data[i] != '\\' && b.data[i] != '"' && b.data[i] != '\n')
					nobs[n++] = b.data[i];
			prom_put_label_value(&again, nobs, n);
			if (again.len != n || memcmp(again.data, nobs, n))
				bad++;
			free(nobs);
			prom_buf_free(&again);
		}
		prom_buf_free(&b);
	}
	CHECK_EQ_U64(bad, 0);
	prom_family_free(f);
}

/*
 * Many scrapes of ever new label sets: the output stays at the cap; the
 * label sets of a scrape not offered again give their slots to the next.
 */
static void test_cap_bounded(void)
{
	struct prom_family *f = family("c", PROM_COUNTER, PROM_U64, NULL, NULL, comm_l, 1, 10);
	size_t sc, i, worst = 0;

	for (sc = 0; sc < 300; sc++) {
		struct prom_buf b = { 0 };
		size_t lines = 0;

		prom_family_begin(f);
		for (i = 0; i < 50; i++) {
			char name[32];

			snprintf(name, sizeof(name), "p%zu-%zu", sc, i);
			prom_family_add_u64(f, (const char *[]){ name }, i + 1);
		}
		prom_family_write(f, &b, PROM_FMT_TEXT);
		for (i = 0; i < b.len; i++)
			lines += b.data[i] == '\n';
		if (lines > worst)
			worst = lines;
		CHECK_EQ_U64(prom_family_dropped(f), 40);
		prom_buf_free(&b);
	}
	CHECK_EQ_U64(worst, 1 + 10 + 1);
	prom_family_free(f);
}

/*
 * Histograms: cumulative buckets with le (+Inf last), _sum, _count, in both
 * formats; offered twice, they add; capped as counters: the overflow's
 * buckets and sum advance by its members' increases, a reset counts whole.
 */
static void test_histogram(void)
{
	static const double bounds[] = { 0.001, 0.5 };
	struct prom_family_def d = { "t_wait_seconds", PROM_HISTOGRAM, PROM_U64, "seconds",
				     "Waits.", comm_l, 1, 1 };
	char err[200];
	struct prom_family *f = prom_family_new_hist(&d, bounds, 2, err, sizeof(err));
	struct prom_family_def bad = d;

	if (!CHECK(f))
		return;
	CHECK(!prom_family_new(&d, err, sizeof(err)));	/* a histogram needs its buckets */
	bad.type = PROM_COUNTER;
	bad.name = "t_waits";
	bad.unit = NULL;
	CHECK(!prom_family_new_hist(&bad, bounds, 2, err, sizeof(err)));
	CHECK(!prom_family_new_hist(&d, (const double[]){ 0.5, 0.001 }, 2, err, sizeof(err)));
	CHECK(prom_family_add_u64(f, (const char *[]){ "a" }, 1) == 0);	/* not a histogram's */

	prom_family_begin(f);
	CHECK(!prom_family_add_hist(f, (const char *[]){ "a" }, (const uint64_t[]){ 1, 2, 0 }, 0.25));
	CHECK(!prom_family_add_hist(f, (const char *[]){ "a" }, (const uint64_t[]){ 0, 1, 1 }, 1.5));
	CHECK_RENDER(f, PROM_FMT_TEXT, false,
		     "# HELP t_wait_seconds Waits.\n"
		     "# TYPE t_wait_seconds histogram\n"
		     "t_wait_seconds_bucket{comm=\"a\",le=\"0.001\"} 1\n"
		     "t_wait_seconds_bucket{comm=\"a\",le=\"0.5\"} 4\n"
		     "t_wait_seconds_bucket{comm=\"a\",le=\"+Inf\"} 5\n"
		     "t_wait_seconds_sum{comm=\"a\"} 1.75\n"
		     "t_wait_seconds_count{comm=\"a\"} 5\n");
	/* Cap 1: b and c go to the overflow, which adds their increases. */
	prom_family_begin(f);
	prom_family_add_hist(f, (const char *[]){ "a" }, (const uint64_t[]){ 1, 3, 1 }, 1.75);
	prom_family_add_hist(f, (const char *[]){ "b" }, (const uint64_t[]){ 0, 0, 2 }, 8);
	prom_family_add_hist(f, (const char *[]){ "c" }, (const uint64_t[]){ 1, 0, 0 }, 0.0005);
	CHECK_RENDER(f, PROM_FMT_OPENMETRICS, true,
		     "# TYPE t_wait_seconds histogram\n"
		     "# UNIT t_wait_seconds seconds\n"
		     "# HELP t_wait_seconds Waits.\n"
		     "t_wait_seconds_bucket{comm=\"a\",le=\"0.001\"} 1\n"
		     "t_wait_seconds_bucket{comm=\"a\",le=\"0.5\"} 4\n"
		     "t_wait_seconds_bucket{comm=\"a\",le=\"+Inf\"} 5\n"
		     "t_wait_seconds_sum{comm=\"a\"} 1.75\n"
		     "t_wait_seconds_count{comm=\"a\"} 5\n"
		     "t_wait_seconds_bucket{comm=\"other\",le=\"0.001\"} 1\n"
		     "t_wait_seconds_bucket{comm=\"other\",le=\"0.5\"} 1\n"
		     "t_wait_seconds_bucket{comm=\"other\",le=\"+Inf\"} 3\n"
		     "t_wait_seconds_sum{comm=\"other\"} 8.0005\n"
		     "t_wait_seconds_count{comm=\"other\"} 3\n"
		     "# EOF\n");
	CHECK_EQ_U64(prom_family_dropped(f), 2);
	/* b grows by one in the first bucket; c was reset (counted whole again). */
	prom_family_begin(f);
	prom_family_add_hist(f, (const char *[]){ "a" }, (const uint64_t[]){ 1, 3, 1 }, 1.75);
	prom_family_add_hist(f, (const char *[]){ "b" }, (const uint64_t[]){ 1, 0, 2 }, 8.25);
	prom_family_add_hist(f, (const char *[]){ "c" }, (const uint64_t[]){ 0, 1, 0 }, 0.125);
	{
		char *got = render(f, PROM_FMT_TEXT, false);

		CHECK(strstr(got, "t_wait_seconds_bucket{comm=\"other\",le=\"0.001\"} 2\n"
				  "t_wait_seconds_bucket{comm=\"other\",le=\"0.5\"} 3\n"
				  "t_wait_seconds_bucket{comm=\"other\",le=\"+Inf\"} 5\n"
				  "t_wait_seconds_sum{comm=\"other\"} 8.3755\n"
				  "t_wait_seconds_count{comm=\"other\"} 5\n"));
		free(got);
	}
	prom_family_free(f);
}

static const struct test tests[] = {
	{ "counter_both_formats", test_counter_both_formats },
	{ "unit_gauge_unlabeled", test_unit_gauge_unlabeled },
	{ "no_samples", test_no_samples },
	{ "help_escaping", test_help_escaping },
	{ "label_escaping", test_label_escaping },
	{ "invalid_utf8", test_invalid_utf8 },
	{ "merged_after_mapping", test_merged_after_mapping },
	{ "values", test_values },
	{ "locale", test_locale },
	{ "counter_invalid_values", test_counter_invalid_values },
	{ "bad_definitions", test_bad_definitions },
	{ "cap_counter_sticky", test_cap_counter_sticky },
	{ "cap_counter_owners", test_cap_counter_owners },
	{ "cap_counter_first_come", test_cap_counter_first_come },
	{ "cap_genuine_other", test_cap_genuine_other },
	{ "cap_gauge_top", test_cap_gauge_top },
	{ "cap_monotonic_random", test_cap_monotonic_random },
	{ "cap_owners_random", test_cap_owners_random },
	{ "random_bytes", test_random_bytes },
	{ "cap_bounded", test_cap_bounded },
	{ "histogram", test_histogram },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
