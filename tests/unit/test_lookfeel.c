// SPDX-License-Identifier: GPL-2.0-only
/* Theme files, the settings file and the tree order: the data behind the look. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "../../tables/columns.h"
#include "../../model/model.h"
#include "../../tables/rows.h"
#include "../../src/settings.h"
#include "../../src/themefile.h"
#include "../../lib/themedef.h"
#include "../../lib/util.h"
#include "../../collectors/clocks.h"

static const char *const shipped[] = { "default", "light", "mono", "high-contrast" };

/* Every shipped theme parses and names every element (none falls back to normal). */
static void test_shipped_themes(void)
{
	char path[128], err[256], text[16384];
	size_t i;
	int e;

	for (i = 0; i < ARRAY_SIZE(shipped); i++) {
		struct theme_def d;

		snprintf(path, sizeof(path), "themes/%s.theme", shipped[i]);
		if (!CHECK(theme_load(path, &d, err, sizeof(err)) == 0)) {
			printf("# %s\n", err);
			continue;
		}
		CHECK_STR(d.name, shipped[i]);
		CHECK(read_small_file(path, text, sizeof(text)) > 0);
		for (e = 0; e < EL_NR; e++) {
			char needle[64];
			const char *p = text;
			bool found = false;

			snprintf(needle, sizeof(needle), "\n%s ", themedef_elem_name(e));
			while ((p = strstr(p, needle))) {
				found = true;
				p++;
			}
			if (!CHECK(found))
				printf("# %s lacks %s\n", path, themedef_elem_name(e));
		}
		/* The view shown must stand out of the tab line (issue 21). */
		if (!CHECK(memcmp(&d.st[EL_TAB], &d.st[EL_TAB_CURRENT], sizeof(d.st[0]))))
			printf("# %s: tab-current looks like tab\n", path);
	}
}

/* mono has no colour at all; the compiled-in default is themes/default.theme. */
static void test_mono_and_builtin(void)
{
	struct theme_def mono, file, built;
	char err[256];
	int e;

	CHECK(theme_load("themes/mono.theme", &mono, err, sizeof(err)) == 0);
	for (e = 0; e < EL_NR; e++)
		CHECK(mono.st[e].fg.c == -1 && mono.st[e].bg.c == -1);
	CHECK(mono.st[EL_SELECTED].attrs & TA_REVERSE);
	CHECK(theme_load("themes/default.theme", &file, err, sizeof(err)) == 0);
	CHECK(theme_builtin("default", &built) == 0);
	CHECK(memcmp(file.st, built.st, sizeof(file.st)) == 0);
	CHECK(theme_builtin("light", &built) == -ENOENT);
}

static void test_theme_syntax(void)
{
	struct theme_def d = { .name = "t" };
	char err[256];
	int line;

	CHECK(themedef_parse("# c\n\nnormal default default\n"
			  "selected black 153/cyan bold reverse # trailing\n"
			  "  rate-mid\t214/yellow  default\n"
			  "title bright-red 7\n", &d, &line, err, sizeof(err)) == 0);
	CHECK_EQ_I64(d.st[EL_SELECTED].fg.c, 0);
	CHECK_EQ_I64(d.st[EL_SELECTED].bg.c, 153);
	CHECK_EQ_I64(d.st[EL_SELECTED].bg.fallback, 6);
	CHECK(d.st[EL_SELECTED].attrs == (TA_BOLD | TA_REVERSE));
	CHECK_EQ_I64(d.st[EL_RATE_MID].fg.c, 214);
	CHECK_EQ_I64(d.st[EL_TITLE].fg.c, 9);
	CHECK_EQ_I64(d.st[EL_TITLE].bg.c, 7);
	/* not named: looks like normal */
	CHECK_EQ_I64(d.st[EL_ERROR].fg.c, -1);
	CHECK_EQ_I64(d.st[EL_ERROR].attrs, 0);

	CHECK(themedef_parse("normal default default\nbogus red blue\n", &d, &line, err,
			  sizeof(err)) == -EINVAL);
	CHECK_EQ_I64(line, 2);
	CHECK(strstr(err, "bogus") != NULL);
	CHECK(themedef_parse("\n\n\ntitle pink default\n", &d, &line, err, sizeof(err)) == -EINVAL);
	CHECK_EQ_I64(line, 4);
	CHECK(strstr(err, "pink") != NULL);
	CHECK(themedef_parse("title red default blinky\n", &d, &line, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "blinky") != NULL);
	CHECK(themedef_parse("title red\n", &d, &line, err, sizeof(err)) == -EINVAL);
	CHECK(themedef_parse("title red default\ntitle red default\n", &d, &line, err,
			  sizeof(err)) == -EINVAL);
	CHECK_EQ_I64(line, 2);
	CHECK(themedef_parse("title 256 default\n", &d, &line, err, sizeof(err)) == -EINVAL);
	CHECK(themedef_parse("title 12/300 default\n", &d, &line, err, sizeof(err)) == -EINVAL);
}

/* A file with an error: the message names the file and the line. */
static void test_theme_file_error(void)
{
	char path[] = "/tmp/ktop-test-theme-XXXXXX", err[512];
	struct theme_def d;
	FILE *f;
	int fd = mkstemp(path);

	if (!CHECK(fd >= 0))
		return;
	f = fdopen(fd, "w");
	fputs("normal default default\n# fine\nselected black wrongcolour\n", f);
	fclose(f);
	CHECK(theme_load(path, &d, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, path) == err);
	CHECK(strstr(err, ":3: ") != NULL);
	CHECK(strstr(err, "wrongcolour") != NULL);
	unlink(path);
	CHECK(theme_load(path, &d, err, sizeof(err)) == -ENOENT);
	CHECK(theme_load("no-such-theme", &d, err, sizeof(err)) == -ENOENT);
	CHECK(theme_load("../etc", &d, err, sizeof(err)) == -ENOENT);	/* a path: not found */
	CHECK(theme_load(".hidden", &d, err, sizeof(err)) == -EINVAL);
}

static void test_theme_colors(void)
{
	struct theme_color c;

	c = (struct theme_color){ 214, 3 };
	CHECK_EQ_I64(themedef_color_for(c, 256), 214);
	CHECK_EQ_I64(themedef_color_for(c, 8), 3);
	c = (struct theme_color){ 9, -1 };	/* bright-red */
	CHECK_EQ_I64(themedef_color_for(c, 16), 9);
	CHECK_EQ_I64(themedef_color_for(c, 8), 1);
	c = (struct theme_color){ 196, -1 };	/* xterm red, no fallback */
	CHECK_EQ_I64(themedef_color_for(c, 8), 1);
	c = (struct theme_color){ 250, -1 };	/* light grey */
	CHECK_EQ_I64(themedef_color_for(c, 8), 7);
	c = (struct theme_color){ -1, -1 };
	CHECK_EQ_I64(themedef_color_for(c, 8), -1);
	c = (struct theme_color){ 153, 14 };	/* fallback bright-cyan on 8 colours: cyan */
	CHECK_EQ_I64(themedef_color_for(c, 8), 6);
}

static void test_settings_parse(void)
{
	struct settings s;
	char warn[256];

	CHECK_EQ_I64(settings_parse("# ktop\n delay = 0.5\ntheme=light\nsort = +pid\n"
				    "columns = pid, user,cpu_pct\ntree = yes\nthreads = off\n",
				    &s, warn, sizeof(warn)), 0);
	CHECK_STR(warn, "");
	CHECK(s.have_delay && s.delay_s == 0.5);
	CHECK(s.have_theme && !strcmp(s.theme, "light"));
	CHECK(s.have_sort && s.sort_col == COL_PID && s.sort_asc);
	/* COMMAND is added last */
	CHECK_EQ_U64(s.ncols, 4);
	CHECK(s.cols[0] == COL_PID && s.cols[2] == COL_CPU && s.cols[3] == COL_CMDLINE);
	CHECK(s.have_tree && s.tree);
	CHECK(s.have_threads && !s.threads);

	/* bad lines: counted, the first reported, their settings unset, the rest kept */
	CHECK_EQ_I64(settings_parse("delay = fast\ntheme = mono\ncolumns = pid,nosuch\n"
				    "sort = -vcsw\ntree = maybe\nwhat = 1\nno equals sign\n"
				    "columns = comm,pid\ndelay = 0.001\n", &s, warn, sizeof(warn)), 7);
	CHECK(strncmp(warn, "1: ", 3) == 0);
	CHECK(strstr(warn, "fast") != NULL);
	CHECK(!s.have_delay && !s.have_tree && !s.ncols);
	CHECK(s.have_theme && s.have_sort && s.sort_col == COL_VCSW && !s.sort_asc);
	CHECK_EQ_I64(settings_parse("view = signals\ngroup_by = unit\n", &s, warn, sizeof(warn)), 0);
	CHECK(s.have_view && s.view == VIEW_SIGNALS && s.have_group_by && s.group_by == CGROUP_BY_UNIT);
	CHECK_EQ_I64(settings_parse("view = callers\ngroup_by = pid\n", &s, warn, sizeof(warn)), 2);
	CHECK(!s.have_view && !s.have_group_by);
}

static void test_settings_roundtrip(void)
{
	char dir[] = "/tmp/ktop-test-rc-XXXXXX", path[256], err[256], warn[256];
	struct settings s = { 0 }, r;

	if (!CHECK(mkdtemp(dir)))
		return;
	snprintf(path, sizeof(path), "%s/a/b/ktoprc", dir);
	s.delay_s = 1.5;
	snprintf(s.theme, sizeof(s.theme), "high-contrast");
	s.sort_col = COL_SYSC;
	s.cols[0] = COL_PID;
	s.cols[1] = COL_SYSC;
	s.cols[2] = COL_COMM;
	s.ncols = 3;
	s.tree = true;
	s.view = VIEW_ERRORS;
	s.group_by = CGROUP_BY_CONTAINER;
	CHECK(settings_save(path, &s, err, sizeof(err)) == 0);
	CHECK_EQ_I64(settings_load(path, &r, warn, sizeof(warn)), 0);
	CHECK(r.have_delay && r.delay_s == 1.5);
	CHECK_STR(r.theme, "high-contrast");
	CHECK(r.sort_col == COL_SYSC && !r.sort_asc);
	CHECK(r.ncols == 3 && r.cols[1] == COL_SYSC && r.cols[2] == COL_COMM);
	CHECK(r.tree && !r.threads);
	CHECK(r.have_view && r.view == VIEW_ERRORS);
	CHECK(r.have_group_by && r.group_by == CGROUP_BY_CONTAINER);
	/* missing: no problem, nothing set */
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK_EQ_I64(settings_load(path, &r, warn, sizeof(warn)), 0);
	CHECK(!r.have_delay && !r.ncols);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK(system(path) == 0);
}

static struct task *add(struct model *m, pid_t pid, pid_t ppid, double cpu)
{
	struct task *t = model_task_sample(m, pid, pid, (uint64_t)pid);

	t->ppid = ppid;
	t->cpu_pct = cpu;
	t->have_cpu = true;
	return t;
}

static void rows_pids(const struct rowset *rs, char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < rs->nrows && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, "%s%d:%u", i ? " " : "",
					(int)rs->rows[i].task->pid, rs->rows[i].depth);
}

/* The row of @pid; a static blank one (no tree flags) when it is not shown. */
static const struct row *row_of(const struct rowset *rs, pid_t pid)
{
	static const struct row none;
	size_t i;

	for (i = 0; i < rs->nrows; i++)
		if (rs->rows[i].task->pid == pid)
			return &rs->rows[i];
	CHECK(!"the pid has a row");
	return &none;
}

static void test_tree_order(void)
{
	struct model m;
	struct rowset rs;
	char got[256];

	model_init(&m, 100, 4);
	rowset_init(&rs);
	model_begin_tick(&m, 1000000000ull, 1);
	add(&m, 1, 0, 0);
	add(&m, 10, 1, 5);
	add(&m, 11, 10, 50);
	add(&m, 12, 10, 1);
	add(&m, 20, 1, 60);
	add(&m, 21, 20, 0);
	add(&m, 30, 99, 2);	/* parent not there: a root */
	add(&m, 2, 0, 0);
	add(&m, 40, 2, 0);
	rs.sort_col = COL_CPU;
	rs.sort_dir = SORT_DESC;
	rs.tree = true;
	rowset_refresh(&rs, &m);
	rows_pids(&rs, got, sizeof(got));
	/* roots by CPU then pid: 30 (2%), 1, 2; children by CPU */
	CHECK_STR(got, "30:0 1:0 20:1 21:2 10:1 11:2 12:2 2:0 40:1");
	CHECK(row_of(&rs, 10)->last);
	CHECK(!row_of(&rs, 20)->last);
	CHECK(!row_of(&rs, 11)->last && row_of(&rs, 12)->last);
	CHECK(row_of(&rs, 10)->kids && !row_of(&rs, 10)->folded && !row_of(&rs, 11)->kids);
	/* a line at level 1 under 20 (10 follows it), none under 10 (the last) */
	CHECK(row_of(&rs, 21)->more & (1u << 1));
	CHECK(!(row_of(&rs, 11)->more & (1u << 1)));
	/* fold 10: 11 and 12 hidden */
	CHECK(rowset_fold(&rs, 10, true));
	CHECK(rowset_is_folded(&rs, 10) && !rowset_is_folded(&rs, 1));
	rowset_refresh(&rs, &m);
	rows_pids(&rs, got, sizeof(got));
	CHECK_STR(got, "30:0 1:0 20:1 21:2 10:1 2:0 40:1");
	CHECK(row_of(&rs, 10)->folded);
	/* fold 1: everything under it, 10's children included, hidden */
	CHECK(rowset_fold(&rs, 1, true));
	rowset_refresh(&rs, &m);
	rows_pids(&rs, got, sizeof(got));
	CHECK_STR(got, "30:0 1:0 2:0 40:1");
	CHECK(rowset_fold(&rs, 1, false) && rowset_fold(&rs, 10, false));
	CHECK(!rowset_fold(&rs, 10, false));
	/* unfold all */
	CHECK(rowset_fold(&rs, 20, true) && rowset_fold(&rs, 2, true));
	CHECK(rowset_unfold_all(&rs));
	CHECK(!rowset_unfold_all(&rs) && !rowset_is_folded(&rs, 20));
	/* a parent cycle (pid reuse): every row still shown once */
	model_task_find(&m, 1)->ppid = 12;
	rowset_refresh(&rs, &m);
	CHECK_EQ_U64(rs.nrows, 9);
	/* flat again */
	rs.tree = false;
	rowset_refresh(&rs, &m);
	rows_pids(&rs, got, sizeof(got));
	CHECK(strncmp(got, "20:", 3) == 0);
	rowset_free(&rs);
	model_free(&m);
}

/* A chain deeper than any stack would allow recursion for. */
static void test_tree_deep_chain(void)
{
	struct model m;
	struct rowset rs;
	pid_t p;

	model_init(&m, 100, 4);
	rowset_init(&rs);
	model_begin_tick(&m, 1000000000ull, 1);
	for (p = 1; p <= 20000; p++)
		add(&m, p, p - 1, 0);
	rs.sort_col = COL_PID;
	rs.sort_dir = SORT_ASC;
	rs.tree = true;
	rowset_refresh(&rs, &m);
	if (CHECK_EQ_U64(rs.nrows, 20000)) {
		CHECK_EQ_I64(rs.rows[19999].task->pid, 20000);
		CHECK_EQ_I64(rs.rows[19999].depth, 19999);
	}
	rowset_free(&rs);
	model_free(&m);
}

static const struct test tests[] = {
	{ "shipped themes parse and name every element", test_shipped_themes },
	{ "mono has no colour; built-in default is the file", test_mono_and_builtin },
	{ "theme syntax: colours, fallbacks, attributes, errors with lines", test_theme_syntax },
	{ "theme file errors name the file and line", test_theme_file_error },
	{ "theme colours on 8, 16 and 256 colour terminals", test_theme_colors },
	{ "settings: parse, bad lines reported, others kept", test_settings_parse },
	{ "settings: save and load again", test_settings_roundtrip },
	{ "tree order, folding, cycles", test_tree_order },
	{ "tree: a 20000-deep chain", test_tree_deep_chain },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
