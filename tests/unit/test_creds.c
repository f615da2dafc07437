// SPDX-License-Identifier: GPL-2.0-only
/*
 * collectors/proc/creds: the owner the kernel gives a /proc entry, and whether an
 * exec ran an ordinary program (no setuid or setgid bit of another user or
 * group, no file capabilities), its name looked up as the process would: in
 * its root, its working directory, its /proc/self and /dev/fd. This process
 * plays the one that exec'd; "another user" is an id that is not its own.
 */
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "../../collectors/proc/creds.h"
#include "../../lib/util.h"

static char dir[64];

static void make_file(const char *name, mode_t mode)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	if (fd < 0 || write(fd, "#!/bin/true\n", 12) != 12 || fchmod(fd, mode)) {
		perror(path);
		abort();
	}
	close(fd);
}

static void remove_all(void)
{
	static const char *const names[] = { "plain", "suid", "sgid", "sgid-noexec", "caps" };
	char path[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* The file @name of the test directory, exec'd by this process as @uid, @gid. */
static bool ordinary(const char *name, uid_t uid, gid_t gid)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return creds_exec_ordinary(getpid(), path, strlen(path), uid, gid);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ktop-test-creds-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		abort();
	}
	make_file("plain", 0755);
	make_file("suid", 04755);
	make_file("sgid", 02755);
	make_file("sgid-noexec", 02745);
}

static void test_owner(void)
{
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char rel[32];

	CHECK_EQ_I64(creds_owner(AT_FDCWD, "/proc/self"), (int64_t)geteuid());
	snprintf(rel, sizeof(rel), "%d", (int)getpid());
	CHECK_EQ_I64(creds_owner(procfd, rel), (int64_t)geteuid());
	CHECK_EQ_I64(creds_owner(procfd, "no-such-pid"), -1);
	if (procfd >= 0)
		close(procfd);
}

static void test_set_id_bits(void)
{
	uid_t me = geteuid(), other = me + 1;
	gid_t mine = getegid(), others = mine + 1;

	setup();
	CHECK(ordinary("plain", other, others));
	/* This process's own setuid file runs with its own uid: nothing gained. */
	CHECK(!ordinary("suid", other, others));
	CHECK(ordinary("suid", me, others));
	CHECK(!ordinary("sgid", other, others));
	CHECK(ordinary("sgid", other, mine));
	/* Setgid without group execute is not a setgid program. */
	CHECK(ordinary("sgid-noexec", other, others));
	CHECK(!ordinary("missing", other, others));
	CHECK(!creds_exec_ordinary(getpid(), dir, strlen(dir), other, others));	/* a directory */
	CHECK(!creds_exec_ordinary(getpid(), "", 0, other, others));
	remove_all();
}

/* Names as the process gave them: relative, its /dev/fd, its /proc/self. */
static void test_names(void)
{
	uid_t other = geteuid() + 1;
	gid_t others = getegid() + 1;
	char cwd[4096], name[128];
	int fd_plain, fd_suid;

	setup();
	if (!CHECK(getcwd(cwd, sizeof(cwd)) != NULL) || !CHECK(chdir(dir) == 0)) {
		remove_all();
		return;
	}
	CHECK(creds_exec_ordinary(getpid(), "plain", 5, other, others));
	CHECK(!creds_exec_ordinary(getpid(), "./suid", 6, other, others));
	/* The name is @len bytes: what follows is not part of it. */
	CHECK(creds_exec_ordinary(getpid(), "plainXYZ", 5, other, others));
	CHECK(chdir(cwd) == 0);

	fd_plain = open("plain", O_RDONLY);	/* not here any more: cwd moved */
	CHECK(fd_plain < 0);
	snprintf(name, sizeof(name), "%s/plain", dir);
	fd_plain = open(name, O_RDONLY | O_CLOEXEC);
	snprintf(name, sizeof(name), "%s/suid", dir);
	fd_suid = open(name, O_RDONLY | O_CLOEXEC);
	if (CHECK(fd_plain >= 0 && fd_suid >= 0)) {
		snprintf(name, sizeof(name), "/dev/fd/%d", fd_plain);
		CHECK(creds_exec_ordinary(getpid(), name, strlen(name), other, others));
		snprintf(name, sizeof(name), "/dev/fd/%d", fd_suid);
		CHECK(!creds_exec_ordinary(getpid(), name, strlen(name), other, others));
		snprintf(name, sizeof(name), "/proc/self/fd/%d", fd_suid);
		CHECK(!creds_exec_ordinary(getpid(), name, strlen(name), other, others));
	}
	if (fd_plain >= 0)
		close(fd_plain);
	if (fd_suid >= 0)
		close(fd_suid);
	/* This test program: an ordinary one. */
	CHECK(creds_exec_ordinary(getpid(), "/proc/self/exe", 14, other, others));
	/* Which thread's is not known. */
	CHECK(!creds_exec_ordinary(getpid(), "/proc/thread-self/exe", 21, other, others));
	remove_all();
}

/* A file with capabilities (CAP_NET_RAW permitted, as ping has) is not ordinary. */
static void test_capabilities(void)
{
	/* struct vfs_cap_data, revision 2: magic_etc, then permitted/inheritable pairs. */
	static const uint32_t cap[5] = { 0x02000001, 1u << 13, 0, 0, 0 };
	char path[128];

	setup();
	make_file("caps", 0755);
	snprintf(path, sizeof(path), "%s/caps", dir);
	if (setxattr(path, "security.capability", cap, sizeof(cap), 0)) {
		/* Setting file capabilities needs CAP_SETFCAP and a file system with xattrs. */
		TEST_SKIP(errno == EPERM ? "setting file capabilities needs root" :
			  "no extended attributes on /tmp");
	} else {
		CHECK(!ordinary("caps", geteuid() + 1, getegid() + 1));
	}
	CHECK(ordinary("plain", geteuid() + 1, getegid() + 1));
	remove_all();
}

static const struct test tests[] = {
	{ "creds_owner: the owner of a /proc entry, -1 when gone", test_owner },
	{ "creds_exec_ordinary: setuid and setgid bits of another user or group",
	  test_set_id_bits },
	{ "creds_exec_ordinary: relative names, /dev/fd, /proc/self, as the process sees them",
	  test_names },
	{ "creds_exec_ordinary: file capabilities", test_capabilities },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
