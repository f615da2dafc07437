// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/util.c's text for screens and text output: invisible code
 * points (bidi controls, zero-width characters, U+00AD, U+2028/9) shown as '?'
 * (screens, text, CSV), kept only for sorting, filtering and JSON; padding and cutting by display width at character
 * boundaries (CJK, emoji, combining marks).
 */
#include <string.h>

#include "../../lib/util.h"
#include "test.h"

static const char *clean(const char *s, int mode)
{
	static char buf[256];

	sanitize_text(buf, sizeof(buf), s, strlen(s), mode);
	return buf;
}

static void test_invisible(void)
{
	/* "evil" + RLO + "txt.exe": on a screen the RLO would reverse what follows. */
	CHECK_STR(clean("evil\xe2\x80\xaetxt.exe", TEXT_UTF8), "evil?txt.exe");
	CHECK_STR(clean("a\xe2\x80\x8b" "b", TEXT_UTF8), "a?b");		/* ZWSP */
	CHECK_STR(clean("a\xe2\x80\x8d" "b", TEXT_UTF8), "a?b");		/* ZWJ */
	CHECK_STR(clean("a\xc2\xad" "b", TEXT_UTF8), "a?b");		/* soft hyphen */
	CHECK_STR(clean("a\xe2\x81\xa6" "b", TEXT_UTF8), "a?b");		/* LRI */
	CHECK_STR(clean("a\xd8\x9c" "b", TEXT_UTF8), "a?b");		/* ALM */
	CHECK_STR(clean("a\xe2\x80\xa8" "b", TEXT_UTF8), "a?b");		/* LINE SEPARATOR */
	CHECK_STR(clean("a\xef\xbb\xbf" "b", TEXT_UTF8), "a?b");		/* BOM */
	/* Kept to sort, filter and escape as JSON does; ordinary text kept everywhere. */
	CHECK_STR(clean("evil\xe2\x80\xaetxt", TEXT_DATA), "evil\xe2\x80\xaetxt");
	CHECK_STR(clean("\xe6\x97\xa5\xe6\x9c\xac", TEXT_UTF8), "\xe6\x97\xa5\xe6\x9c\xac");
	CHECK(!cp_invisible('a') && !cp_invisible(0x65e5) && !cp_invisible(0x1f600));
	CHECK(cp_invisible(0x202e) && cp_invisible(0xe0041) && cp_invisible(0x2069));
}

static void test_width(void)
{
	size_t w;

	CHECK_EQ_U64(text_width("abc", 3), 3);
	CHECK_EQ_U64(text_width("\xe6\x97\xa5\xe6\x9c\xac", 6), 4);	/* 日本: 2 cells each */
	CHECK_EQ_U64(text_width("e\xcc\x81", 3), 1);			/* e + combining acute */
	CHECK_EQ_U64(text_width("\xf0\x9f\x98\x80", 4), 2);		/* an emoji */
	/* A cut never splits a character, and never overflows the width. */
	CHECK_EQ_U64(text_fit("\xe6\x97\xa5\xe6\x9c\xac", 6, 3, &w), 3);
	CHECK_EQ_U64(w, 2);
	CHECK_EQ_U64(text_fit("ab\xc3\xa9", 4, 3, &w), 4);		/* abé: 3 cells */
	CHECK_EQ_U64(text_fit("ab\xc3\xa9", 4, 2, &w), 2);
	/* A combining mark stays with its letter. */
	CHECK_EQ_U64(text_fit("e\xcc\x81x", 4, 1, &w), 3);
	CHECK_EQ_U64(w, 1);
}

static void test_pad(void)
{
	char buf[64];

	CHECK_STR(text_pad(buf, sizeof(buf), "ab", 4), "ab  ");
	/* 日本 is 4 cells: padded to 6 with 2 spaces, not 6 - 6 bytes = none. */
	CHECK_STR(text_pad(buf, sizeof(buf), "\xe6\x97\xa5\xe6\x9c\xac", 6), "\xe6\x97\xa5\xe6\x9c\xac  ");
	/* Cut to 3 cells: one wide character and a space. */
	CHECK_STR(text_pad(buf, sizeof(buf), "\xe6\x97\xa5\xe6\x9c\xac", 3), "\xe6\x97\xa5 ");
	CHECK_EQ_U64(text_width(buf, strlen(buf)), 3);
}

static const struct test tests[] = {
	{ "invisible code points: '?' on screens, in text and CSV, kept for JSON", test_invisible },
	{ "display width: CJK 2, combining 0, emoji 2; cuts at characters", test_width },
	{ "padding by display width", test_pad },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
