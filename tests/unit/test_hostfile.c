// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/cgroup/hostfile.c: the runtimes' files under a host's
 * root are read only when the runtime could have written them: no link at
 * the last component, a link on the way resolved inside the root (never out
 * of it), a regular file of one name that others may not write, in a
 * directory others may not write to. Then again as on a kernel without
 * openat2 (a seccomp filter makes it ENOSYS): no link on the way at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../collectors/cgroup/hostfile.h"
#include "test.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static char root[64];

static void put(const char *rel, const char *text, mode_t mode)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || chmod(p, mode))
		abort();
}

/* @cmd run in the root. */
static void sh(const char *cmd)
{
	char line[512];

	snprintf(line, sizeof(line), "cd '%s' && %s", root, cmd);
	if (system(line))
		abort();
}

/* @rel's text (hostfile_open), or "-ERRNO" when refused. */
static const char *read_rel(const char *rel)
{
	static char buf[64];
	int fd = hostfile_open(root, rel);
	ssize_t n;

	if (fd < 0) {
		snprintf(buf, sizeof(buf), "-%s", strerrorname_np(errno));
		return buf;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static bool lists(const char *rel)
{
	DIR *d = hostfile_opendir(root, rel);

	if (d)
		closedir(d);
	return d != NULL;
}

static void make_tree(void)
{
	strcpy(root, "/tmp/ktop-test-hostfile.XXXXXX");
	if (!mkdtemp(root))
		abort();
	sh("mkdir -p a/sub sticky open && chmod 0755 a a/sub && chmod 1777 sticky && chmod 0777 open");
	put("a/f", "ok-a", 0644);
	put("sticky/f", "ok-sticky", 0644);
	put("open/f", "in-open", 0644);
	put("a/rw", "rw", 0666);
	put("a/gw", "gw", 0664);
	put("a/h1", "hard", 0644);
	sh("ln a/h1 a/h2 && ln -s f a/link && ln -s /etc/passwd a/abs");
	/* on the way: an absolute link (inside the root), a relative one out of it */
	sh("ln -s /a b && ln -s ../../../../../../tmp c && mkfifo a/fifo");
}

/* What both kinds of resolution agree on. */
static void common_cases(void)
{
	CHECK_STR(read_rel("a/f"), "ok-a");
	CHECK_STR(read_rel("sticky/f"), "ok-sticky");
	CHECK(lists("a"));
	/* the last component a link, wherever it points */
	CHECK_STR(read_rel("a/link"), "-EPERM");
	CHECK_STR(read_rel("a/abs"), "-EPERM");
	CHECK(!lists("b"));
	/* others may write it, or it has two names */
	CHECK_STR(read_rel("a/rw"), "-EPERM");
	CHECK_STR(read_rel("a/gw"), "-EPERM");
	CHECK_STR(read_rel("a/h1"), "-EPERM");
	CHECK_STR(read_rel("a/h2"), "-EPERM");
	/* not a file: refused before it is opened (a FIFO would wait) */
	CHECK_STR(read_rel("a/fifo"), "-EPERM");
	CHECK_STR(read_rel("a"), "-EPERM");
	/* in a directory others may write to (no sticky bit) */
	CHECK_STR(read_rel("open/f"), "-EPERM");
	CHECK(!lists("open"));
	CHECK_STR(read_rel("a/none"), "-ENOENT");
	CHECK_STR(read_rel("../etc/passwd")[0] == '-' ? "refused" : "read", "refused");
}

static void test_in_root(void)
{
	common_cases();
	/* a link on the way: inside the root, "/" its root */
	CHECK_STR(read_rel("b/f"), "ok-a");
	CHECK(lists("b/sub"));
	/* ".." stops at the root: root/tmp, which is not there */
	CHECK_STR(read_rel("c/passwd"), "-ENOENT");
	CHECK_STR(read_rel("a/../../../../etc/passwd"), "-ENOENT");
}

static void test_owner(void)
{
	char p[256];

	if (geteuid() != 0) {
		TEST_SKIP("chown to another user needs root");
		return;
	}
	put("a/theirs", "theirs", 0644);
	snprintf(p, sizeof(p), "%s/a/theirs", root);
	CHECK(chown(p, 65534, 65534) == 0);
	CHECK_STR(read_rel("a/theirs"), "-EPERM");
	/* a file of root's in another user's directory */
	snprintf(p, sizeof(p), "%s/a", root);
	CHECK(chown(p, 65534, 65534) == 0);
	CHECK_STR(read_rel("a/f"), "-EPERM");
	CHECK(!lists("a"));
	CHECK(chown(p, 0, 0) == 0);
	CHECK_STR(read_rel("a/f"), "ok-a");
}

/* openat2 is ENOSYS from here on in this process. */
static int no_openat2(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)ARRAY_SIZE(f), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static void test_without_openat2(void)
{
	int st = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (no_openat2() || syscall(SYS_openat2, AT_FDCWD, ".", NULL, 0) != -1 ||
		    errno != ENOSYS) {
			printf("# cannot make openat2 ENOSYS\n");
			fflush(stdout);
			_exit(2);
		}
		common_cases();
		/* no link on the way at all (O_NOFOLLOW | O_DIRECTORY: ENOTDIR), no ".." */
		CHECK_STR(read_rel("b/f"), "-ENOTDIR");
		CHECK(!lists("b/sub"));
		CHECK_STR(read_rel("c/passwd"), "-ENOTDIR");
		CHECK_STR(read_rel("a/../a/f"), "-EPERM");
		fflush(stdout);
		_exit(test_failures_ ? 1 : 0);
	}
	if (!CHECK(pid > 0) || !CHECK(waitpid(pid, &st, 0) == pid))
		return;
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

static const struct test tests[] = {
	{ "hostfile: resolved inside the root; links, others' and writable files refused", test_in_root },
	{ "hostfile: a file or directory of another user is refused", test_owner },
	{ "hostfile: without openat2, no link on the way at all", test_without_openat2 },
	{ "hostfile: cleanup", test_cleanup },
};

int main(void)
{
	make_tree();
	return run_tests(tests, ARRAY_SIZE(tests));
}
