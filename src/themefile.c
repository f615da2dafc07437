// SPDX-License-Identifier: GPL-2.0-only
#include "themefile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "conffile.h"
#include "../lib/util.h"

#ifndef KTOP_DATADIR
#define KTOP_DATADIR "/usr/local/share/ktop"
#endif

/* themes/default.theme and mono.theme, compiled in by the Makefile (build/gen/themes.c). */
extern const char theme_default_text[], theme_mono_text[];

int theme_builtin(const char *name, struct theme_def *out)
{
	const char *text = !strcmp(name, "default") ? theme_default_text :
			   !strcmp(name, "mono") ? theme_mono_text : NULL;
	char err[128];
	int line;

	if (!text)
		return -ENOENT;
	snprintf(out->name, sizeof(out->name), "%s", name);
	/* The files of themes/, which a unit test parses: they cannot fail. */
	return themedef_parse(text, out, &line, err, sizeof(err));
}

/* The directories searched for NAME.theme, in order: the user's, then ktop's. */
static size_t theme_dirs(char dirs[][PATH_MAX], size_t max)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char exe[PATH_MAX], *slash;
	ssize_t n;
	size_t nd = 0;

	if (xdg && *xdg)
		snprintf(dirs[nd++], PATH_MAX, "%s/ktop/themes", xdg);
	else if (home && *home)
		snprintf(dirs[nd++], PATH_MAX, "%s/.config/ktop/themes", home);
	/* Next to the binary: ./ktop in the source tree, or PREFIX/bin/../share. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(dirs[nd++], PATH_MAX, "%.4000s/themes", exe);
			snprintf(dirs[nd++], PATH_MAX, "%.4000s/../share/ktop/themes", exe);
		}
	}
	if (nd < max)
		snprintf(dirs[nd++], PATH_MAX, "%s/themes", KTOP_DATADIR);
	return nd;
}

/* @strict: a file of the theme directories (owner and mode checked), not a --theme path. */
static int read_theme_file(const char *path, const char *name, bool strict, struct theme_def *out,
			   char *err, size_t errsz)
{
	static char text[64 * 1024];
	char msg[160];
	struct theme_def d;
	ssize_t n;
	int line, ret;

	n = conf_read(path, text, sizeof(text), strict, err, errsz);
	if (n < 0)
		return (int)n;
	snprintf(d.name, sizeof(d.name), "%s", name);
	ret = themedef_parse(text, &d, &line, msg, sizeof(msg));
	if (ret) {
		snprintf(err, errsz, "%s:%d: %s", path, line, msg);
		return ret;
	}
	*out = d;
	return 0;
}

static bool valid_name(const char *name)
{
	return *name && strlen(name) < THEME_NAME_MAX && !strchr(name, '/') && name[0] != '.' &&
	       !has_control(name);
}

static int load_theme(const char *name, struct theme_def *out, char *err, size_t errsz)
{
	char dirs[4][PATH_MAX], path[PATH_MAX + THEME_NAME_MAX + 8];
	size_t nd, i;
	int ret;

	if (strchr(name, '/')) {
		const char *base = strrchr(name, '/') + 1;
		char stem[THEME_NAME_MAX];
		char *dot;

		snprintf(stem, sizeof(stem), "%s", base);
		dot = strstr(stem, ".theme");
		if (dot)
			*dot = '\0';
		return read_theme_file(name, stem, false, out, err, errsz);
	}
	if (!valid_name(name)) {
		snprintf(err, errsz, "'%.60s' is not a theme name", name);
		return -EINVAL;
	}
	nd = theme_dirs(dirs, ARRAY_SIZE(dirs));
	for (i = 0; i < nd; i++) {
		snprintf(path, sizeof(path), "%s/%s.theme", dirs[i], name);
		ret = read_theme_file(path, name, true, out, err, errsz);
		if (ret != -ENOENT)
			return ret;
	}
	/* Compiled in: ktop looks right without its files too. */
	if (!theme_builtin(name, out))
		return 0;
	snprintf(err, errsz, "no theme '%.60s' (looked in %s and %s)", name, dirs[0],
		 nd > 1 ? dirs[nd - 1] : "nowhere else");
	return -ENOENT;
}

/* Read before tracing starts (theme_preload), used once by the first theme_load. */
static struct {
	bool have;
	int ret;
	char name[THEME_NAME_MAX + 192];
	char err[256];
	struct theme_def def;
} pre;

void theme_preload(const char *name)
{
	snprintf(pre.name, sizeof(pre.name), "%s", name);
	pre.ret = load_theme(name, &pre.def, pre.err, sizeof(pre.err));
	pre.have = true;
}

int theme_load(const char *name, struct theme_def *out, char *err, size_t errsz)
{
	if (pre.have && !strcmp(name, pre.name)) {
		pre.have = false;
		if (pre.ret)
			snprintf(err, errsz, "%s", pre.err);
		else
			*out = pre.def;
		return pre.ret;
	}
	return load_theme(name, out, err, errsz);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

size_t theme_list(char names[][THEME_NAME_MAX], size_t max)
{
	char dirs[4][PATH_MAX];
	size_t nd, i, n = 0, k, j;

	nd = theme_dirs(dirs, ARRAY_SIZE(dirs));
	if (max > 1) {
		snprintf(names[n++], THEME_NAME_MAX, "default");
		snprintf(names[n++], THEME_NAME_MAX, "mono");
	}
	for (i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d)) && n < max) {
			size_t len = strlen(de->d_name);

			if (len <= 6 || len - 6 >= THEME_NAME_MAX ||
			    strcmp(de->d_name + len - 6, ".theme") || de->d_name[0] == '.' ||
			    has_control(de->d_name))
				continue;
			snprintf(names[n], THEME_NAME_MAX, "%.*s", (int)(len - 6), de->d_name);
			n++;
		}
		closedir(d);
	}
	sort_array(names, n, THEME_NAME_MAX, cmp_names);
	for (k = 0, j = 0; k < n; k++)
		if (!j || strcmp(names[k], names[j - 1]))
			memmove(names[j++], names[k], THEME_NAME_MAX);
	return j;
}
