// SPDX-License-Identifier: GPL-2.0-only
#include "cgparse.h"

#include <string.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A decimal number at *@p (before @end); *@p moves past it. */
static bool num(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	while (s < end && *s >= '0' && *s <= '9') {
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s++ - '0');
	}
	*p = s;
	*v = x;
	return true;
}

/* The line of @buf that starts with @word and a blank, its rest in [*@s, *@e). */
static bool line_of(const char *buf, size_t n, const char *word, const char **s, const char **e)
{
	const char *p = buf, *end = buf + n, *le;
	size_t k = strlen(word);

	for (; p < end; p = le + 1) {
		le = memchr(p, '\n', (size_t)(end - p));
		if (!le)
			le = end;
		if ((size_t)(le - p) > k && !memcmp(p, word, k) && (p[k] == ' ' || p[k] == '\t')) {
			*s = p + k;
			*e = le;
			return true;
		}
		if (le == end)
			break;
	}
	return false;
}

static bool psi_total(const char *buf, size_t n, const char *word, uint64_t *v)
{
	const char *s, *e, *t;

	if (!line_of(buf, n, word, &s, &e))
		return false;
	for (t = s; t + 6 <= e; t++)
		if (!memcmp(t, "total=", 6) && is_space(t[-1])) {
			t += 6;
			return num(&t, e, v) && (t == e || is_space(*t));
		}
	return false;
}

unsigned cgparse_psi(const char *buf, size_t n, uint64_t *some, uint64_t *full)
{
	unsigned r = 0;

	if (psi_total(buf, n, "some", some))
		r |= 1;
	if (psi_total(buf, n, "full", full))
		r |= 2;
	return r;
}

bool cgparse_key(const char *buf, size_t n, const char *key, uint64_t *v)
{
	const char *s, *e;

	if (!line_of(buf, n, key, &s, &e))
		return false;
	while (s < e && is_space(*s))
		s++;
	return num(&s, e, v) && (s == e || is_space(*s));
}

/* One word at the start of @buf (blanks around it), as [*@s, *@e). */
static void word(const char *buf, size_t n, const char **s, const char **e)
{
	const char *p = buf, *end = buf + n;

	while (p < end && is_space(*p))
		p++;
	*s = p;
	while (p < end && !is_space(*p))
		p++;
	*e = p;
}

static bool limit_word(const char *s, const char *e, uint64_t *v)
{
	if ((e - s == 3 && !memcmp(s, "max", 3)) || (e - s == 2 && !memcmp(s, "-1", 2))) {
		*v = CGR_UNLIMITED;
		return true;
	}
	if (!num(&s, e, v) || s != e)
		return false;
	if (*v >= (1ull << 62))
		*v = CGR_UNLIMITED;
	return true;
}

bool cgparse_limit(const char *buf, size_t n, uint64_t *v)
{
	const char *s, *e;

	word(buf, n, &s, &e);
	return s < e && limit_word(s, e, v);
}

bool cgparse_cpu_max(const char *buf, size_t n, uint64_t *quota, uint64_t *period)
{
	const char *s, *e, *end = buf + n;

	word(buf, n, &s, &e);
	if (s == e || !limit_word(s, e, quota))
		return false;
	word(e, (size_t)(end - e), &s, &e);
	return s < e && num(&s, e, period) && s == e && *period > 0;
}
