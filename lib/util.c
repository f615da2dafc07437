// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <fcntl.h>
#include <locale.h>
#include <stdint.h>
#include <wchar.h>
#include <unistd.h>

static void oom(void)
{
	/* No recovery is possible; the terminal is restored by the atexit hook. */
	fputs("ktop: out of memory\n", stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

#define HUGE_BLOCK ((size_t)2 << 20)

void *xrealloc_huge(void *p, size_t used, size_t n)
{
	void *q;

	if (n < HUGE_BLOCK)
		return xrealloc(p, n);
	n = (n + HUGE_BLOCK - 1) & ~(HUGE_BLOCK - 1);
	q = aligned_alloc(HUGE_BLOCK, n);
	if (!q)
		oom();
	/* A hint: where transparent huge pages are off, 4 KiB pages as before. */
	(void)madvise(q, n, MADV_HUGEPAGE);
	if (used)
		memcpy(q, p, used);
	free(p);
	return q;
}

char *u64_dec(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

int err_set(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_seconds(const char *s, double min, double max, double *out)
{
	double v;
	char *end;

	/* Reject signs, "inf", "nan" and hex floats that strtod would accept. */
	if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return -EINVAL;
	if (strpbrk(s, "xXpPeE"))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and out-of-range code points are invalid. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	/* C1 controls (U+0080..U+009F) act as escape sequences on some terminals. */
	if (cp >= 0x80 && cp <= 0x9f)
		return 0;
	return len;
}

unsigned utf8_cp(const unsigned char *s, size_t len)
{
	static const unsigned char lead[5] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	unsigned cp = s[0] & lead[len < 5 ? len : 1];
	size_t i;

	for (i = 1; i < len; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	return cp;
}

bool cp_invisible(unsigned cp)
{
	/* Ranges of Cf (Unicode 15), U+2028/U+2029, sorted. */
	static const unsigned r[][2] = {
		{ 0x00ad, 0x00ad }, { 0x0600, 0x0605 }, { 0x061c, 0x061c }, { 0x06dd, 0x06dd },
		{ 0x070f, 0x070f }, { 0x0890, 0x0891 }, { 0x08e2, 0x08e2 }, { 0x180e, 0x180e },
		{ 0x200b, 0x200f }, { 0x2028, 0x202e }, { 0x2060, 0x2064 }, { 0x2066, 0x206f },
		{ 0xfeff, 0xfeff }, { 0xfff9, 0xfffb }, { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd },
		{ 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a },
		{ 0xe0001, 0xe0001 }, { 0xe0020, 0xe007f },
	};
	size_t i;

	if (cp < 0xad)
		return false;
	for (i = 0; i < ARRAY_SIZE(r) && cp >= r[i][0]; i++)
		if (cp <= r[i][1])
			return true;
	return false;
}

/*
 * wcwidth() of @cp in a UTF-8 locale whatever the user's (LANG=C with UTF-8
 * names still has them): C.UTF-8's table, for this thread, for the call only.
 */
static int cp_width(unsigned cp)
{
	static locale_t utf8_loc;
	static bool tried;
	locale_t old;
	int w;

	if (cp < 0x7f)
		return 1;
	if (!tried) {
		tried = true;
		utf8_loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	if (!utf8_loc)
		return 1;	/* no table: one cell, as most terminals do */
	old = uselocale(utf8_loc);
	w = wcwidth((wchar_t)cp);
	uselocale(old);
	return w < 0 ? 1 : w;
}

size_t text_fit(const char *s, size_t n, size_t maxw, size_t *w)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, width = 0, len;
	int cw;

	while (i < n && u[i]) {
		len = u[i] < 0x80 ? 1 : utf8_seq_len(u + i, n - i);
		if (!len)
			len = 1;
		cw = len == 1 ? 1 : cp_width(utf8_cp(u + i, len));
		if (width + (size_t)cw > maxw)
			break;
		width += (size_t)cw;
		i += len;
	}
	/* Combining marks (width 0) after the last character go with it. */
	while (i < n && u[i] >= 0x80 && (len = utf8_seq_len(u + i, n - i)) &&
	       cp_width(utf8_cp(u + i, len)) == 0)
		i += len;
	*w = width;
	return i;
}

size_t text_width(const char *s, size_t n)
{
	size_t w;

	text_fit(s, n, SIZE_MAX, &w);
	return w;
}

const char *text_pad(char *dst, size_t dstsz, const char *s, size_t width)
{
	size_t w, len, pad;

	if (!dstsz)
		return dst;
	len = text_fit(s, strlen(s), width, &w);
	pad = width - w;
	if (len + pad + 1 > dstsz) {	/* cannot fit: blanks, never a cut character */
		len = 0;
		pad = width < dstsz ? width : dstsz - 1;
	}
	memcpy(dst, s, len);
	memset(dst + len, ' ', pad);
	dst[len + pad] = '\0';
	return dst;
}

size_t sanitize_text(char *dst, size_t dstsz, const char *src, size_t n, int utf8)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0, len;

	if (!dstsz)
		return 0;
	while (i < n && o + 1 < dstsz) {
		if (s[i] == 0) {
			dst[o++] = ' ';
			i++;
			continue;
		}
		if (s[i] < 0x20 || s[i] == 0x7f) {
			dst[o++] = '?';
			i++;
			continue;
		}
		len = utf8_seq_len(s + i, n - i);
		if (len == 1) {
			dst[o++] = (char)s[i++];
		} else if (len && utf8 == TEXT_UTF8 && cp_invisible(utf8_cp(s + i, len))) {
			dst[o++] = '?';	/* a bidi control or a zero-width character */
			i += len;
		} else if (len && utf8 && o + len < dstsz) {
			memcpy(dst + o, s + i, len);
			o += len;
			i += len;
		} else if (len && utf8) {
			break;	/* a character that does not fit is dropped whole */
		} else {
			dst[o++] = '?';
			i += len ? len : 1;
		}
	}
	dst[o] = '\0';
	return o;
}

void sort_array(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

void sort_array_r(void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

size_t str_hash(const char *s)
{
	size_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}
