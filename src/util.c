// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t read_small_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (!size)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

uint64_t now_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double now_wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
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

size_t sanitize_text(char *dst, size_t dstsz, const char *src, size_t n, bool utf8)
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
