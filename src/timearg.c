// SPDX-License-Identifier: GPL-2.0-only
#include "timearg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "HH:MM" or "HH:MM:SS" exactly; fills the hour, minute and second of @tm. */
static bool parse_clock(const char *s, struct tm *tm)
{
	int h, m, sec = 0, n = 0;

	if (sscanf(s, "%2d:%2d%n", &h, &m, &n) != 2 || n != 5)
		return false;
	if (s[n] == ':') {
		int k = 0;

		if (sscanf(s + n + 1, "%2d%n", &sec, &k) != 1 || k != 2)
			return false;
		n += 3;
	}
	if (s[n] || h > 23 || m > 59 || sec > 60 || h < 0 || m < 0 || sec < 0)
		return false;
	tm->tm_hour = h;
	tm->tm_min = m;
	tm->tm_sec = sec;
	return true;
}

static bool all_digits(const char *s)
{
	bool dot = false, digit = false;

	for (; *s; s++) {
		if (*s == '.' && !dot)
			dot = true;
		else if (*s >= '0' && *s <= '9')
			digit = true;
		else
			return false;
	}
	return digit;
}

int time_parse(const char *s, double ref, bool roll, double *out)
{
	time_t t = (time_t)ref;
	struct tm tm;
	time_t r;

	while (*s == ' ')
		s++;
	if (all_digits(s)) {
		*out = strtod(s, NULL);
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	if (strchr(s, '-')) {
		int y, mo, d, n = 0;

		if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10 || mo < 1 || mo > 12 ||
		    d < 1 || d > 31)
			return -1;
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		s += n;
		if (*s && ((*s != ' ' && *s != 'T') || !parse_clock(s + 1, &tm)))
			return -1;
		roll = false;
	} else {
		if (!localtime_r(&t, &tm) || !parse_clock(s, &tm))
			return -1;
	}
	tm.tm_isdst = -1;
	r = mktime(&tm);
	if (r == (time_t)-1)
		return -1;
	/* Half a day before: the next day's (03:00 of a night that began at 22:00). */
	if (roll && (double)r < ref - 12 * 3600) {
		tm.tm_mday++;
		tm.tm_isdst = -1;
		r = mktime(&tm);
	}
	*out = (double)r;
	return 0;
}
