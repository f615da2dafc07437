// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of outputs/textfile.c (--textfile DIR): the file written whole,
 * replaced atomically, readable by another user whatever the umask, never
 * written through a symbolic link, no temporary file left behind on success
 * or on a failed write, and clear errors for a bad directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../outputs/textfile.h"
#include "test.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static char dir[64];

static void make_dir(void)
{
	strcpy(dir, "/tmp/ktop-test-textfile.XXXXXX");
	if (!mkdtemp(dir))
		abort();
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Entries of the directory other than ktop.prom and @also. */
static int strays(const char *also)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, TEXTFILE_NAME) && (!also || strcmp(e->d_name, also)))
			n++;
	closedir(d);
	return n;
}

static void test_write_replace(void)
{
	char path[128], err[256];
	struct textfile *tf;
	struct stat st;
	mode_t old;

	make_dir();
	snprintf(path, sizeof(path), "%s/" TEXTFILE_NAME, dir);
	old = umask(077);
	tf = textfile_open(dir, err, sizeof(err));
	if (!CHECK(tf)) {
		printf("# %s\n", err);
		umask(old);
		remove_dir();
		return;
	}
	CHECK_EQ_I64(strays(NULL), 0);	/* the start-up check left nothing */
	CHECK_EQ_I64(textfile_write(tf, "a 1\n", 4, false, err, sizeof(err)), 0);
	CHECK_STR(slurp(path), "a 1\n");
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0644);
	CHECK_EQ_I64(textfile_write(tf, "b 2\nc 3\n", 8, true, err, sizeof(err)), 0);
	CHECK_STR(slurp(path), "b 2\nc 3\n");
	CHECK_EQ_I64(textfile_write(tf, "", 0, false, err, sizeof(err)), 0);
	CHECK_STR(slurp(path), "");
	CHECK_EQ_I64(strays(NULL), 0);
	umask(old);
	textfile_close(tf, true);
	CHECK(access(path, F_OK) != 0);
	textfile_close(NULL, true);
	remove_dir();
}

/* A link planted at ktop.prom is replaced, never written through. */
static void test_symlink(void)
{
	char path[128], victim[128], err[256];
	struct textfile *tf;
	struct stat st;
	int fd;

	make_dir();
	snprintf(path, sizeof(path), "%s/" TEXTFILE_NAME, dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	fd = open(victim, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, "precious\n", 9) == 9);
	close(fd);
	CHECK(symlink(victim, path) == 0);
	tf = textfile_open(dir, err, sizeof(err));
	if (CHECK(tf)) {
		CHECK_EQ_I64(textfile_write(tf, "x 1\n", 4, false, err, sizeof(err)), 0);
		CHECK_STR(slurp(victim), "precious\n");
		CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
		CHECK_STR(slurp(path), "x 1\n");
		CHECK_EQ_I64(strays("victim"), 0);
		textfile_close(tf, false);
		CHECK(access(path, F_OK) == 0);
	}
	remove_dir();
}

static void test_bad_dir(void)
{
	char err[256], file[128];
	struct textfile *tf;
	int fd;

	tf = textfile_open("/nonexistent/ktop", err, sizeof(err));
	CHECK(!tf);
	CHECK(strstr(err, "/nonexistent/ktop") && strstr(err, "No such file"));
	printf("# %s\n", err);
	make_dir();
	snprintf(file, sizeof(file), "%s/plain", dir);
	fd = open(file, O_WRONLY | O_CREAT, 0644);
	close(fd);
	tf = textfile_open(file, err, sizeof(err));
	CHECK(!tf);
	CHECK(strstr(err, "not a directory"));
	printf("# %s\n", err);
	tf = textfile_open("", err, sizeof(err));
	CHECK(!tf);
	/* Not writable: root writes anyway, so only as another user. */
	if (geteuid() != 0) {
		chmod(dir, 0555);
		tf = textfile_open(dir, err, sizeof(err));
		CHECK(!tf);
		CHECK(strstr(err, "Permission denied"));
		chmod(dir, 0755);
	}
	/* /proc: a directory where no file can be made, even by root. */
	tf = textfile_open("/proc", err, sizeof(err));
	CHECK(!tf);
	CHECK(strstr(err, "cannot create"));
	printf("# %s\n", err);
	textfile_close(tf, false);
	remove_dir();
}

/* A write that fails (a file size limit here): the old file stays, nothing left behind. */
static void test_failed_write(void)
{
	char path[128], err[256], big[8192];
	struct textfile *tf;
	struct rlimit old, rl;
	int r;

	make_dir();
	snprintf(path, sizeof(path), "%s/" TEXTFILE_NAME, dir);
	tf = textfile_open(dir, err, sizeof(err));
	if (!CHECK(tf)) {
		remove_dir();
		return;
	}
	CHECK_EQ_I64(textfile_write(tf, "old 1\n", 6, false, err, sizeof(err)), 0);
	memset(big, 'x', sizeof(big));
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	rl = old;
	rl.rlim_cur = 4096;
	CHECK(setrlimit(RLIMIT_FSIZE, &rl) == 0);
	r = textfile_write(tf, big, sizeof(big), false, err, sizeof(err));
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	CHECK_EQ_I64(r, -EFBIG);
	CHECK(strstr(err, "write") && strstr(err, dir));
	printf("# %s\n", err);
	CHECK_STR(slurp(path), "old 1\n");
	CHECK_EQ_I64(strays(NULL), 0);
	textfile_close(tf, true);
	remove_dir();
}

static const struct test tests[] = {
	{ "write_replace", test_write_replace },
	{ "symlink", test_symlink },
	{ "bad_dir", test_bad_dir },
	{ "failed_write", test_failed_write },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
