// SPDX-License-Identifier: GPL-2.0-only
#include "themedef.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

static const struct {
	const char *name, *doc;
} elems[EL_NR] = {
	[EL_NORMAL] = { "normal", "everything not named below" },
	[EL_TITLE] = { "title", "the program name and the clock" },
	[EL_LABEL] = { "label", "header labels: CPU, Mem, Swp, Tasks, Rates, Evnts" },
	[EL_VALUE] = { "value", "numbers inside the header meters" },
	[EL_METER] = { "meter", "meter bars" },
	[EL_METER_HIGH] = { "meter-high", "a meter past 80%" },
	[EL_TABLE_HEADER] = { "table-header", "the column titles of a table" },
	[EL_SORT_COL] = { "sort-column", "the title of the sort column" },
	[EL_SELECTED] = { "selected", "the selected row" },
	[EL_RATE_ZERO] = { "rate-zero", "a rate of 0, or not known yet (-)" },
	[EL_RATE_LOW] = { "rate-low", "a low rate (below 100/s; CPU below 25%)" },
	[EL_RATE_MID] = { "rate-mid", "a middle rate (below 1000/s; CPU below 75%)" },
	[EL_RATE_HIGH] = { "rate-high", "a high rate (1000/s and more; CPU 75% and more)" },
	[EL_STATE_RUN] = { "state-running", "process state R" },
	[EL_STATE_D] = { "state-disk", "process state D (uninterruptible sleep)" },
	[EL_ERROR] = { "error", "failed system calls, errors" },
	[EL_LOST] = { "lost-events", "lost events: counts that may be short" },
	[EL_TREE] = { "tree", "the lines of the tree view" },
	[EL_GRAPH] = { "graph", "history graphs" },
	[EL_GRAPH_HIGH] = { "graph-high", "the upper part of a history graph" },
	[EL_EVENT_SYSCALL] = { "event-syscall", "event list: system calls" },
	[EL_EVENT_SWITCH] = { "event-switch", "event list: context switches" },
	[EL_EVENT_FAULT] = { "event-fault", "event list: page faults" },
	[EL_EVENT_SIGNAL] = { "event-signal", "event list: signals" },
	[EL_EVENT_PROCESS] = { "event-process", "event list: fork, exec, exit" },
	[EL_CHANGED] = { "changed", "snapshot: a variable that changed since the previous one" },
	[EL_FOOTER_KEY] = { "footer-key", "function-key bar: the key" },
	[EL_FOOTER_TEXT] = { "footer-text", "function-key bar: what the key does" },
	[EL_MESSAGE] = { "message", "notices on the bottom line" },
	[EL_DIALOG] = { "dialog", "menus and the setup screen" },
	[EL_DIALOG_TITLE] = { "dialog-title", "the title line of a menu" },
	[EL_TAB] = { "tab", "the tabs of the system-wide views: a view not shown" },
	[EL_TAB_CURRENT] = { "tab-current", "the tab of the view shown (must differ from tab)" },
};

static const char *const color_names[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{ "normal", 0 }, { "bold", TA_BOLD }, { "dim", TA_DIM }, { "reverse", TA_REVERSE },
	{ "underline", TA_UNDERLINE }, { "standout", TA_STANDOUT }, { "italic", TA_ITALIC },
};

const char *themedef_elem_name(int e)
{
	return e >= 0 && e < EL_NR ? elems[e].name : NULL;
}

const char *themedef_elem_doc(int e)
{
	return e >= 0 && e < EL_NR ? elems[e].doc : NULL;
}

/* One colour without a fallback: default, a name, bright-NAME or 0-255. */
static int parse_one_color(const char *s, short *out)
{
	unsigned long long v;
	size_t i;

	if (!strcasecmp(s, "default")) {
		*out = -1;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(color_names); i++) {
		if (!strcasecmp(s, color_names[i])) {
			*out = (short)i;
			return 0;
		}
		if (!strncasecmp(s, "bright-", 7) && !strcasecmp(s + 7, color_names[i])) {
			*out = (short)(i + 8);
			return 0;
		}
	}
	if (!parse_uint(s, 255, &v)) {
		*out = (short)v;
		return 0;
	}
	return -EINVAL;
}

static int parse_color(char *s, struct theme_color *out)
{
	char *slash = strchr(s, '/');

	out->fallback = -1;
	if (slash) {
		*slash = '\0';
		if (parse_one_color(slash + 1, &out->fallback))
			return -EINVAL;
	}
	return parse_one_color(s, &out->c);
}

static int parse_attr(const char *s, unsigned *attrs)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attr_names); i++) {
		if (!strcasecmp(s, attr_names[i].name)) {
			*attrs |= attr_names[i].bit;
			return 0;
		}
	}
	return -EINVAL;
}

static int elem_by_name(const char *s)
{
	int e;

	for (e = 0; e < EL_NR; e++)
		if (!strcasecmp(s, elems[e].name))
			return e;
	return -1;
}

/* One non-empty, non-comment line into @st[]; @seen marks the elements named. */
static int parse_line(char *line, struct theme_def *d, bool *seen, char *err, size_t errsz)
{
	char *save = NULL, *tok[16];
	int ntok = 0, e, i;

	for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (ntok == (int)ARRAY_SIZE(tok)) {
			snprintf(err, errsz, "too many words");
			return -EINVAL;
		}
		tok[ntok++] = t;
	}
	e = elem_by_name(tok[0]);
	if (e < 0) {
		snprintf(err, errsz, "unknown element '%.40s'", tok[0]);
		return -EINVAL;
	}
	if (seen[e]) {
		snprintf(err, errsz, "element '%s' given twice", elems[e].name);
		return -EINVAL;
	}
	if (ntok < 3) {
		snprintf(err, errsz, "'%s' needs a foreground and a background colour", elems[e].name);
		return -EINVAL;
	}
	memset(&d->st[e], 0, sizeof(d->st[e]));
	for (i = 1; i < 3; i++) {
		char word[64];

		snprintf(word, sizeof(word), "%s", tok[i]);
		if (parse_color(tok[i], i == 1 ? &d->st[e].fg : &d->st[e].bg)) {
			snprintf(err, errsz, "unknown colour '%.40s' (a name, bright-NAME, 0-255 or default)",
				 word);
			return -EINVAL;
		}
	}
	for (i = 3; i < ntok; i++) {
		if (parse_attr(tok[i], &d->st[e].attrs)) {
			snprintf(err, errsz, "unknown attribute '%.40s'", tok[i]);
			return -EINVAL;
		}
	}
	seen[e] = true;
	return 0;
}

int themedef_parse(const char *text, struct theme_def *out, int *line, char *err, size_t errsz)
{
	struct theme_def d;
	bool seen[EL_NR] = { false };
	const char *p = text;
	int e, ret;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", out->name);
	*line = 0;
	while (*p) {
		const char *nl = strchrnul(p, '\n');
		char buf[512], *s, *hash;
		size_t len = (size_t)(nl - p);

		(*line)++;
		if (len >= sizeof(buf)) {
			snprintf(err, errsz, "line too long");
			return -EINVAL;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		p = *nl ? nl + 1 : nl;
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		for (s = buf; *s == ' ' || *s == '\t' || *s == '\r'; s++)
			;
		if (!*s || strspn(s, " \t\r") == strlen(s))
			continue;
		for (char *c = s; *c; c++)
			if (*c == '\r')
				*c = ' ';
		ret = parse_line(s, &d, seen, err, errsz);
		if (ret)
			return ret;
	}
	/* An element not named looks like normal. */
	for (e = 1; e < EL_NR; e++)
		if (!seen[e])
			d.st[e] = d.st[EL_NORMAL];
	*out = d;
	return 0;
}

/* The nearest of the 8 basic colours to xterm colour @c (16-255). */
static short nearest_basic(short c)
{
	int r, g, b;

	if (c >= 232)	/* grey ramp */
		return c >= 244 ? 7 : 0;
	c = (short)(c - 16);
	r = c / 36 >= 3;
	g = (c / 6) % 6 >= 3;
	b = c % 6 >= 3;
	return (short)(r | g << 1 | b << 2);
}

short themedef_color_for(struct theme_color c, int ncolors)
{
	if (c.c < 0 || c.c < ncolors)
		return c.c;
	if (c.fallback >= 0)
		c.c = c.fallback;
	if (c.c < ncolors)
		return c.c;
	if (c.c < 16)
		return (short)(c.c - 8);
	return nearest_basic(c.c);
}
