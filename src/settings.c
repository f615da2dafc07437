// SPDX-License-Identifier: GPL-2.0-only
#include "settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conffile.h"
#include "../lib/util.h"

int settings_path(char *buf, size_t n)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(buf, n, "%s/ktop/ktoprc", xdg);
	else if (home && *home)
		snprintf(buf, n, "%s/.config/ktop/ktoprc", home);
	else
		return -ENOENT;
	return 0;
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* "pid,user,...": known keys, none twice, COMMAND (comm or cmdline) once and last. */
static int parse_columns(char *v, struct settings *s, char *why, size_t n)
{
	bool seen[COL_NR] = { false };
	char *save = NULL, *tok;
	size_t nc = 0;
	int c;

	for (tok = strtok_r(v, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		c = columns_by_key(tok);
		if (c < 0) {
			snprintf(why, n, "unknown column '%.40s'", tok);
			return -EINVAL;
		}
		if (seen[c] || nc == COL_NR) {
			snprintf(why, n, "column '%.40s' given twice", tok);
			return -EINVAL;
		}
		if (nc && (s->cols[nc - 1] == COL_COMM || s->cols[nc - 1] == COL_CMDLINE)) {
			snprintf(why, n, "the command (comm or cmdline) must be the last column");
			return -EINVAL;
		}
		seen[c] = true;
		s->cols[nc++] = c;
	}
	if (!nc) {
		snprintf(why, n, "no columns");
		return -EINVAL;
	}
	/* COMMAND is always there, last: the one column cut to the width left. */
	if (s->cols[nc - 1] != COL_COMM && s->cols[nc - 1] != COL_CMDLINE) {
		if (nc == COL_NR) {
			snprintf(why, n, "too many columns");
			return -EINVAL;
		}
		s->cols[nc++] = COL_CMDLINE;
	}
	s->ncols = nc;
	return 0;
}

static int parse_setting(const char *key, char *v, struct settings *s, char *why, size_t n)
{
	if (!strcmp(key, "delay")) {
		if (parse_seconds(v, DELAY_MIN_S, DELAY_MAX_S, &s->delay_s)) {
			snprintf(why, n, "delay '%.40s' is not a number of seconds from %g to %g", v,
				 DELAY_MIN_S, DELAY_MAX_S);
			return -EINVAL;
		}
		s->have_delay = true;
	} else if (!strcmp(key, "theme")) {
		if (!*v || strlen(v) >= THEME_NAME_MAX) {
			snprintf(why, n, "theme needs a name");
			return -EINVAL;
		}
		/* A name found in the theme directories, never a file anywhere (/etc/shadow). */
		if (strchr(v, '/') || has_control(v)) {
			snprintf(why, n, "theme must be a theme's name, not a path");
			return -EINVAL;
		}
		snprintf(s->theme, sizeof(s->theme), "%s", v);
		s->have_theme = true;
	} else if (!strcmp(key, "sort")) {
		const char *k = v;

		s->sort_asc = *k == '+';
		if (*k == '+' || *k == '-')
			k++;
		s->sort_col = columns_by_key(k);
		if (s->sort_col < 0) {
			snprintf(why, n, "unknown sort column '%.40s'", k);
			return -EINVAL;
		}
		s->have_sort = true;
	} else if (!strcmp(key, "columns")) {
		return parse_columns(v, s, why, n);
	} else if (!strcmp(key, "tree") || !strcmp(key, "threads")) {
		bool *b = key[1] == 'r' ? &s->tree : &s->threads;

		if (parse_bool(v, b)) {
			snprintf(why, n, "%s: '%.40s' is not yes or no", key, v);
			return -EINVAL;
		}
		*(key[1] == 'r' ? &s->have_tree : &s->have_threads) = true;
	} else if (!strcmp(key, "hide_kernel_threads")) {
		if (parse_bool(v, &s->hide_kthreads)) {
			snprintf(why, n, "%s: '%.40s' is not yes or no", key, v);
			return -EINVAL;
		}
		s->have_hide_kthreads = true;
	} else if (!strcmp(key, "view")) {
		if (systable_parse(v, &s->view)) {
			snprintf(why, n, "view: '%.40s' is not a view", v);
			return -EINVAL;
		}
		s->have_view = true;
	} else if (!strcmp(key, "group_by")) {
		if (cgroup_group_by_parse(v, &s->group_by)) {
			snprintf(why, n, "group_by: '%.40s' is not comm, user, cgroup, unit, container, pod or namespace", v);
			return -EINVAL;
		}
		s->have_group_by = true;
	} else {
		snprintf(why, n, "unknown setting '%.40s'", key);
		return -EINVAL;
	}
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int settings_parse(const char *text, struct settings *s, char *warn, size_t warnsz)
{
	const char *p = text;
	int line = 0, bad = 0;

	memset(s, 0, sizeof(*s));
	warn[0] = '\0';
	while (*p) {
		const char *nl = strchrnul(p, '\n');
		size_t len = (size_t)(nl - p);
		char buf[1024], why[160], *hash, *eq, *key;

		line++;
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1), p);
		p = *nl ? nl + 1 : nl;
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		key = trim(buf);
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (len >= sizeof(buf)) {
			snprintf(why, sizeof(why), "line too long");
		} else if (!eq) {
			snprintf(why, sizeof(why), "not 'key = value'");
		} else {
			*eq = '\0';
			if (!parse_setting(trim(key), trim(eq + 1), s, why, sizeof(why)))
				continue;
		}
		if (!bad++)
			snprintf(warn, warnsz, "%d: %s", line, why);
	}
	return bad;
}

int settings_load(const char *path, struct settings *s, char *warn, size_t warnsz)
{
	static char text[64 * 1024];
	char first[256];
	ssize_t n;
	int bad;

	memset(s, 0, sizeof(*s));
	warn[0] = '\0';
	n = conf_read(path, text, sizeof(text), 1, warn, warnsz);
	if (n < 0) {
		if (n == -ENOENT) {
			warn[0] = '\0';
			return 0;
		}
		snprintf(warn + strlen(warn), warnsz - strlen(warn), ": defaults used");
		return 1;
	}
	bad = settings_parse(text, s, first, sizeof(first));
	if (bad > 1)
		snprintf(warn, warnsz, "%s:%s (and %d more bad lines): default used", path, first,
			 bad - 1);
	else if (bad)
		snprintf(warn, warnsz, "%s:%s: default used", path, first);
	return bad;
}

/* mkdir -p of the directory of @path. */
static int make_parent(const char *path)
{
	char dir[4096], *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int settings_save(const char *path, const struct settings *s, char *err, size_t errsz)
{
	char text[4096], *p = text, *end = text + sizeof(text);
	size_t i;
	int ret;

	ret = make_parent(path);
	if (ret) {
		snprintf(err, errsz, "cannot create the directory of %s: %s", path, strerror(-ret));
		return ret;
	}
	p += snprintf(p, (size_t)(end - p),
		      "# ktop settings, written by the setup screen (F2). See ktop(1), FILES.\n"
		      "delay = %g\n", s->delay_s);
	/*
	 * Only a theme's name, as the file may hold (a --theme path is the command
	 * line's); never a control character: a newline would add lines.
	 */
	if (*s->theme && !has_control(s->theme) && !strchr(s->theme, '/'))
		p += snprintf(p, (size_t)(end - p), "theme = %s\n", s->theme);
	p += snprintf(p, (size_t)(end - p), "sort = %c%s\ncolumns = ", s->sort_asc ? '+' : '-',
		      columns[s->sort_col].key);
	for (i = 0; i < s->ncols; i++)
		p += snprintf(p, (size_t)(end - p), "%s%s", i ? "," : "", columns[s->cols[i]].key);
	p += snprintf(p, (size_t)(end - p), "\ntree = %s\nthreads = %s\nhide_kernel_threads = %s\n",
		      s->tree ? "yes" : "no", s->threads ? "yes" : "no", s->hide_kthreads ? "yes" : "no");
	p += snprintf(p, (size_t)(end - p), "view = %s\ngroup_by = %s\n", systable_name(s->view),
		      cgroup_group_by_name(s->group_by));
	return conf_write(path, text, (size_t)(p - text), err, errsz);
}
