// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/cgroup.c (the cgroup, unit and container of a process,
 * from /proc/PID/cgroup) and collectors/cgroup/cgroupfs.c (reading it): fixture files
 * of systemd hosts, docker, containerd and kubepods, podman, cri-o and LXC on
 * v1, hybrid and v2 layouts, hostile and very long paths, then a real cgroup
 * created here with a child moved into it.
 *
 * Both headers are called cgroup.h: they are included by their paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/cgroup.h"
#include "../../collectors/cgroup/cgroupfs.h"
#include "test.h"

#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))

#define ID64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID64B "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define SHORT "0123456789ab"
#define SHORTB "fedcba987654"
#define UID_ "8e2b6b5c_5d2a_4e5f_9a1b_1c2d3e4f5a6b"
#define UIDD "8e2b6b5c-5d2a-4e5f-9a1b-1c2d3e4f5a6b"

/* Parse @s (a C string, its NUL not passed) from an exactly-sized heap copy. */
static int parse_exact(const char *s, char *out, size_t cap)
{
	size_t n = strlen(s);
	char *b = malloc(n ? n : 1);
	int r;

	if (!b)
		abort();
	memcpy(b, s, n);
	r = cgroup_parse_proc(b, n, out, cap);
	free(b);
	return r;
}

/* Is @s (@n bytes) valid UTF-8 (the structure; enough to see a cut sequence)? */
static bool utf8_valid(const char *s, size_t n)
{
	size_t i = 0, k, j;
	unsigned char b;

	while (i < n) {
		b = (unsigned char)s[i];
		k = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 :
		    b >= 0xf0 && b <= 0xf4 ? 4 : 0;
		if (!k || i + k > n)
			return false;
		for (j = 1; j < k; j++)
			if (((unsigned char)s[i + j] & 0xc0) != 0x80)
				return false;
		i += k;
	}
	return true;
}

struct derive_case {
	const char *path, *unit, *key;	/* key: the container group key */
};

/* Paths as systemd, the runtimes and their cgroup drivers make them. */
static const struct derive_case derive_cases[] = {
	{ "/", "-", "-" },
	{ "/init.scope", "init.scope", "-" },
	{ "/system.slice/nginx.service", "nginx.service", "-" },
	{ "/user.slice/user-1000.slice/session-4.scope", "session-4.scope", "-" },
	{ "/user.slice/user-1000.slice", "user-1000.slice", "-" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service",
	  "foo.service", "-" },
	{ "/user.slice/user-1000.slice/user@1000.service/init.scope", "init.scope", "-" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice", "user@1000.service", "-" },
	{ "/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service", "-" },
	{ "/system.slice/system-systemd\\x2dfsck.slice/"
	  "systemd-fsck@dev-disk-by\\x2duuid-1234.service",
	  "systemd-fsck@dev-disk-by-uuid-1234.service", "-" },
	/* Not printable ASCII: stays escaped, as systemctl shows it. */
	{ "/system.slice/a\\x0ab\\xc3\\xa9.service", "a\\x0ab\\xc3\\xa9.service", "-" },
	{ "/system.slice/bad\\x2.service", "bad\\x2.service", "-" },
	{ "/system.slice/.service", "system.slice", "-" },
	{ "/process_api/70999a3cfe0d9845cf48c547b78eca58", "-", "-" },
	{ "/a:b/c:d.service", "c:d.service", "-" },
	/* docker: cgroupfs driver, systemd driver, nested (docker in docker). */
	{ "/docker/" ID64, "-", "docker:" SHORT },
	{ "/system.slice/docker-" ID64 ".scope", "docker-" ID64 ".scope", "docker:" SHORT },
	{ "/docker/" ID64 "/docker/" ID64B, "-", "docker:" SHORTB },
	{ "/actions_job/" ID64, "-", "container:" SHORT },
	/* containerd with kubernetes: cgroupfs driver, every QoS class. */
	{ "/kubepods/besteffort/pod" UIDD "/" ID64, "-", "kubepods:" SHORT },
	{ "/kubepods/burstable/pod" UIDD "/" ID64, "-", "kubepods:" SHORT },
	{ "/kubepods/pod" UIDD "/" ID64, "-", "kubepods:" SHORT },
	/* ... and the systemd driver. */
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
	  ".slice/cri-containerd-" ID64 ".scope",
	  "cri-containerd-" ID64 ".scope", "containerd:" SHORT },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/cri-containerd-" ID64 ".scope",
	  "cri-containerd-" ID64 ".scope", "containerd:" SHORT },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID64 ".scope",
	  "cri-containerd-" ID64 ".scope", "containerd:" SHORT },
	/* The pod's own slice (no container yet): the host. */
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice", "kubepods-pod" UID_ ".slice", "-" },
	/* kind: kubernetes nodes in docker containers. */
	{ "/docker/" ID64B "/kubepods/besteffort/pod" UIDD "/" ID64, "-", "kubepods:" SHORT },
	/* podman: rootful, with its "container" sub-cgroup, rootless, cgroupfs, conmon. */
	{ "/machine.slice/libpod-" ID64 ".scope", "libpod-" ID64 ".scope", "podman:" SHORT },
	{ "/machine.slice/libpod-" ID64 ".scope/container", "libpod-" ID64 ".scope",
	  "podman:" SHORT },
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID64
	  ".scope/container", "libpod-" ID64 ".scope", "podman:" SHORT },
	{ "/libpod_parent/libpod-" ID64, "-", "podman:" SHORT },
	{ "/machine.slice/libpod-conmon-" ID64 ".scope", "libpod-conmon-" ID64 ".scope", "-" },
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-conmon-" ID64
	  ".scope", "libpod-conmon-" ID64 ".scope", "-" },
	/* A monitor inside a container counts as that container. */
	{ "/docker/" ID64B "/machine.slice/libpod-conmon-" ID64 ".scope",
	  "libpod-conmon-" ID64 ".scope", "docker:" SHORTB },
	/* cri-o: systemd and cgroupfs drivers, conmon. */
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/crio-" ID64 ".scope", "crio-" ID64 ".scope", "crio:" SHORT },
	{ "/kubepods/burstable/pod" UIDD "/crio-" ID64, "-", "crio:" SHORT },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/crio-conmon-" ID64 ".scope", "crio-conmon-" ID64 ".scope", "-" },
	/* LXC 1-3, LXC 4+ and LXD, with systemd inside, the monitors. */
	{ "/lxc/web1", "-", "lxc:web1" },
	{ "/lxc/web1/sub", "-", "lxc:web1" },
	{ "/lxc.payload/web1", "-", "lxc:web1" },
	{ "/lxc.payload.web1", "-", "lxc:web1" },
	{ "/lxc.payload.web1/system.slice/nginx.service", "nginx.service", "lxc:web1" },
	{ "/lxc.monitor.web1", "-", "-" },
	{ "/lxc.monitor/web1", "-", "-" },
	{ "/lxc", "-", "-" },
	/* Near misses: ids too short, not hex, 63 digits bare. */
	{ "/system.slice/docker-0123.scope", "docker-0123.scope", "-" },
	{ "/system.slice/docker-" ID64 "x.scope", "docker-" ID64 "x.scope", "-" },
	{ "/docker/" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde", "-", "-" },
	/* A cgroup namespace's view from outside it. */
	{ "/../../system.slice/docker-" ID64 ".scope", "docker-" ID64 ".scope",
	  "docker:" SHORT },
	{ "//system.slice//nginx.service//", "nginx.service", "-" },
};

static void test_unit_and_container(void)
{
	char out[CGROUP_KEY_MAX];
	struct cgroup_container c;
	size_t i, n;

	for (i = 0; i < N_ELEM(derive_cases); i++) {
		const struct derive_case *d = &derive_cases[i];

		n = cgroup_unit(d->path, out, sizeof(out));
		if (!CHECK_STR(out, d->unit))
			printf("# path %s\n", d->path);
		CHECK_EQ_U64(n, strlen(out));
		n = cgroup_group_key(CGROUP_BY_CONTAINER, "comm", "user", d->path, out,
				     sizeof(out));
		if (!CHECK_STR(out, d->key))
			printf("# path %s\n", d->path);
		CHECK_EQ_U64(n, strlen(out));
		cgroup_container(d->path, &c);
		CHECK((c.runtime == CGROUP_RT_NONE) == (c.id[0] == '\0'));
		CHECK((c.runtime == CGROUP_RT_NONE) == (strcmp(d->key, "-") == 0));
	}
	CHECK(cgroup_container("/docker/" ID64, &c) == CGROUP_RT_DOCKER);
	CHECK_STR(c.id, SHORT);
	CHECK_STR(cgroup_runtime_name(CGROUP_RT_NONE), "");
	CHECK_STR(cgroup_runtime_name(CGROUP_RT__COUNT), "");
}

/* An LXC name is kept whole up to CGROUP_ID_MAX - 1 bytes, cut between characters. */
static void test_container_long_name(void)
{
	char path[300] = "/lxc/";
	struct cgroup_container c;
	size_t i;

	for (i = 0; i < 100; i++)
		strcat(path, "\xc3\xa9");	/* é */
	CHECK(cgroup_container(path, &c) == CGROUP_RT_LXC);
	CHECK(strlen(c.id) <= CGROUP_ID_MAX - 1);
	CHECK(strlen(c.id) >= CGROUP_ID_MAX - 2);
	CHECK(utf8_valid(c.id, strlen(c.id)));
}

struct parse_case {
	const char *name, *file, *path;
};

static const struct parse_case parse_cases[] = {
	{ "v2 service", "0::/system.slice/nginx.service\n", "/system.slice/nginx.service" },
	{ "v2 root", "0::/\n", "/" },
	{ "v2 no newline", "0::/system.slice/a.service", "/system.slice/a.service" },
	{ "v2 deleted", "0::/system.slice/gone.service (deleted)\n", "/system.slice/gone.service" },
	{ "v2 colons", "0::/a:b/c::d.service\n", "/a:b/c::d.service" },
	/* This machine: hybrid without systemd, a memory cgroup of a sandbox. */
	{ "hybrid, this machine",
	  "9:name=systemd:/\n8:pids:/\n7:blkio:/\n6:freezer:/\n5:devices:/\n"
	  "4:memory:/process_api/70999a3cfe0d9845cf48c547b78eca58\n3:cpuset:/\n"
	  "2:cpuacct:/\n1:cpu:/\n0::/\n",
	  "/process_api/70999a3cfe0d9845cf48c547b78eca58" },
	{ "hybrid systemd",
	  "12:pids:/system.slice/sshd.service\n11:memory:/system.slice/sshd.service\n"
	  "2:cpu,cpuacct:/system.slice/sshd.service\n1:name=systemd:/system.slice/sshd.service\n"
	  "0::/system.slice/sshd.service\n",
	  "/system.slice/sshd.service" },
	{ "hybrid, v2 differs: v2 wins",
	  "1:name=systemd:/system.slice/old.service\n0::/system.slice/new.service\n",
	  "/system.slice/new.service" },
	/* An older runc on a hybrid host: the container in v1 only. */
	{ "hybrid docker cgroupfs",
	  "12:pids:/docker/" ID64 "\n4:memory:/docker/" ID64 "\n1:name=systemd:/docker/" ID64
	  "\n0::/system.slice/containerd.service\n",
	  "/docker/" ID64 },
	{ "v1 systemd",
	  "11:pids:/system.slice/sshd.service\n10:memory:/system.slice\n"
	  "4:cpu,cpuacct:/system.slice\n1:name=systemd:/system.slice/sshd.service\n",
	  "/system.slice/sshd.service" },
	{ "v1 docker",
	  "11:pids:/docker/" ID64 "\n4:cpu,cpuacct:/docker/" ID64 "\n1:name=systemd:/docker/"
	  ID64 "\n", "/docker/" ID64 },
	{ "v1 kubepods",
	  "9:memory:/kubepods/burstable/pod" UIDD "/" ID64 "\n"
	  "1:name=systemd:/kubepods/burstable/pod" UIDD "/" ID64 "\n",
	  "/kubepods/burstable/pod" UIDD "/" ID64 },
	{ "v1 no name=systemd: pids",
	  "5:blkio:/b\n4:cpu,cpuacct:/c\n3:memory:/m\n2:pids:/p\n", "/p" },
	{ "v1 memory before cpu", "5:blkio:/b\n4:cpu,cpuacct:/c\n3:memory:/m\n", "/m" },
	{ "v1 cpu in a list", "5:blkio:/b\n4:cpuacct,cpu:/c\n", "/c" },
	{ "v1 first other", "5:blkio:/b\n4:freezer:/f\n", "/b" },
	{ "v1 all root", "2:pids:/\n1:name=systemd:/\n", "/" },
	{ "v2 in a namespace", "0::/../../system.slice/x.service\n",
	  "/../../system.slice/x.service" },
	/* A second "0::" line is not the kernel's: the first counts. */
	{ "forged v2", "0::/real\n0::/system.slice/sshd.service\n", "/real" },
	{ "forged v2 after the root", "0::/\n0::/system.slice/sshd.service\n", "/" },
	{ "junk lines kept out",
	  "garbage\n:::\n0:x\n1::/empty-controllers\nx:pids:/x\n12345678901:pids:/big\n"
	  "3:pids:relative\n0::/system.slice/ok.service\n",
	  "/system.slice/ok.service" },
};

static void test_parse_proc(void)
{
	char out[CGROUP_PATH_MAX];
	size_t i;
	int r;

	for (i = 0; i < N_ELEM(parse_cases); i++) {
		r = parse_exact(parse_cases[i].file, out, sizeof(out));
		if (!CHECK_STR(out, parse_cases[i].path))
			printf("# case %s\n", parse_cases[i].name);
		CHECK_EQ_I64(r, (int64_t)strlen(out));
	}
	CHECK_EQ_I64(parse_exact("", out, sizeof(out)), -EINVAL);
	CHECK_STR(out, "");
	CHECK_EQ_I64(parse_exact("hello\n", out, sizeof(out)), -EINVAL);
	CHECK_EQ_I64(parse_exact("x::/a\n", out, sizeof(out)), -EINVAL);
	CHECK_EQ_I64(parse_exact("0::relative\n", out, sizeof(out)), -EINVAL);
	CHECK_EQ_I64(parse_exact("0::\n", out, sizeof(out)), -EINVAL);
	/* Tiny buffers: still terminated, never cut inside a character. */
	CHECK_EQ_I64(parse_exact("0::/system.slice/x.service\n", out, 1), 0);
	CHECK_STR(out, "");
	CHECK_EQ_I64(parse_exact("0::/\xc3\xa9\xc3\xa9\n", out, 4), 3);
	CHECK_STR(out, "/\xc3\xa9");
}

/* A path of @depth components "dirN" then @leaf. */
static void long_path(char *buf, size_t size, const char *first, int depth, const char *leaf)
{
	int i;

	snprintf(buf, size, "%s", first);
	for (i = 0; i < depth; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "/d%03d", i);
	snprintf(buf + strlen(buf), size - strlen(buf), "%s", leaf);
}

/* A long path loses its middle, never its first component, unit or id. */
static void test_long_paths(void)
{
	char path[4096], file[4200], out[CGROUP_PATH_MAX], key[CGROUP_KEY_MAX];
	const char *leaf = "/cri-containerd-" ID64 ".scope";
	int r;

	long_path(path, sizeof(path), "/kubepods.slice", 150, leaf);
	CHECK(strlen(path) > 700);
	snprintf(file, sizeof(file), "1:name=systemd:/\n0::%s\n", path);
	r = parse_exact(file, out, sizeof(out));
	CHECK_EQ_I64(r, (int64_t)strlen(out));
	CHECK(r <= CGROUP_PATH_MAX - 1 && r >= CGROUP_PATH_MAX - 8);
	CHECK(strncmp(out, "/kubepods.slice/\xe2\x80\xa6/", 20) == 0);
	CHECK(strcmp(out + strlen(out) - strlen(leaf), leaf) == 0);
	cgroup_group_key(CGROUP_BY_CONTAINER, NULL, NULL, out, key, sizeof(key));
	CHECK_STR(key, "containerd:" SHORT);
	cgroup_group_key(CGROUP_BY_UNIT, NULL, NULL, out, key, sizeof(key));
	CHECK_STR(key, "cri-containerd-" ID64 ".scope");
	/* A bare id needs its ancestor: the first component is kept for that. */
	long_path(path, sizeof(path), "/docker", 150, "/" ID64);
	cgroup_path_fit(path, strlen(path), out, sizeof(out));
	cgroup_group_key(CGROUP_BY_CONTAINER, NULL, NULL, out, key, sizeof(key));
	CHECK_STR(key, "docker:" SHORT);
	/* A first component too long to keep: only the end. */
	memset(path, 'a', 200);
	path[0] = '/';
	long_path(path + 200, sizeof(path) - 200, "", 150, "/nginx.service");
	r = (int)cgroup_path_fit(path, strlen(path), out, sizeof(out));
	CHECK(strncmp(out, "/\xe2\x80\xa6/", 5) == 0);
	cgroup_unit(out, key, sizeof(key));
	CHECK_STR(key, "nginx.service");
}

/*
 * Every cap from 0 to past the length, on paths of multi-byte characters, one
 * long last component, invalid bytes: always terminated, within the cap,
 * valid UTF-8 out of valid UTF-8 in.
 */
static void test_fit_utf8(void)
{
	static const char *const chars[] = { "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "a" };
	char path[2048], out[700];
	size_t cap, n, i, k, len;

	for (k = 0; k < 5; k++) {
		len = 0;
		for (i = 0; len < 1200; i++) {
			const char *ch = chars[(i * 7 + k) % N_ELEM(chars)];

			/* k 0-2: components of 1-29 characters; k 3: no '/' after the first. */
			if ((k < 3 && i % (k * 9 + 5) == 0) || len == 0)
				path[len++] = '/';
			if (k == 4 && i % 11 == 0)
				path[len++] = (char)0x80;	/* a stray continuation byte */
			memcpy(path + len, ch, strlen(ch));
			len += strlen(ch);
		}
		path[len] = '\0';
		for (cap = 0; cap < sizeof(out); cap++) {
			memset(out, 'Z', sizeof(out));
			n = cgroup_path_fit(path, len, out, cap);
			if (!cap) {
				CHECK_EQ_U64(n, 0);
				CHECK(out[0] == 'Z');
				continue;
			}
			if (!CHECK(n < cap && out[n] == '\0' && strlen(out) == n))
				break;
			if (k < 4 && !CHECK(utf8_valid(out, n))) {
				printf("# k %zu cap %zu\n", k, cap);
				break;
			}
		}
	}
}

static void test_unit_bounded(void)
{
	const char *p = "/system.slice/a\\x2db\xc3\xa9\\x0a.service";
	char out[64];
	size_t cap, n;

	cgroup_unit(p, out, sizeof(out));
	CHECK_STR(out, "a-b\xc3\xa9\\x0a.service");
	for (cap = 1; cap < 20; cap++) {
		n = cgroup_unit(p, out, cap);
		CHECK(n < cap && strlen(out) == n);
		CHECK(utf8_valid(out, n));
		/* The kept escape is whole or absent. */
		CHECK(!strstr(out, "\\") || strstr(out, "\\x0a"));
	}
	CHECK_EQ_U64(cgroup_unit(p, out, 0), 0);
}

static void test_group_key(void)
{
	static const char *const words[] = { "comm", "user", "cgroup", "unit", "container" };
	const char *path = "/system.slice/docker-" ID64 ".scope";
	enum cgroup_group_by by;
	char out[CGROUP_KEY_MAX];
	size_t i;

	for (i = 0; i < N_ELEM(words); i++) {
		CHECK_EQ_I64(cgroup_group_by_parse(words[i], &by), 0);
		CHECK_EQ_U64(by, i);
		CHECK_STR(cgroup_group_by_name(by), words[i]);
	}
	CHECK_EQ_I64(cgroup_group_by_parse("pid", &by), -EINVAL);
	CHECK_EQ_I64(cgroup_group_by_parse("", &by), -EINVAL);
	CHECK_EQ_I64(cgroup_group_by_parse("Unit", &by), -EINVAL);
	CHECK_STR(cgroup_group_by_name(CGROUP_BY__COUNT), "");

	cgroup_group_key(CGROUP_BY_COMM, "nginx", "www-data", path, out, sizeof(out));
	CHECK_STR(out, "nginx");
	cgroup_group_key(CGROUP_BY_USER, "nginx", "www-data", path, out, sizeof(out));
	CHECK_STR(out, "www-data");
	cgroup_group_key(CGROUP_BY_CGROUP, "nginx", "www-data", path, out, sizeof(out));
	CHECK_STR(out, path);
	cgroup_group_key(CGROUP_BY_UNIT, "nginx", "www-data", path, out, sizeof(out));
	CHECK_STR(out, "docker-" ID64 ".scope");
	cgroup_group_key(CGROUP_BY_CONTAINER, "nginx", "www-data", path, out, sizeof(out));
	CHECK_STR(out, "docker:" SHORT);
	cgroup_group_key(CGROUP_BY_CGROUP, "nginx", "www-data", "/", out, sizeof(out));
	CHECK_STR(out, "/");
	/* Not known yet: "?", not the root's "/" or "-". */
	cgroup_group_key(CGROUP_BY_UNIT, "nginx", "www-data", NULL, out, sizeof(out));
	CHECK_STR(out, "?");
	cgroup_group_key(CGROUP_BY_CONTAINER, "nginx", "www-data", "", out, sizeof(out));
	CHECK_STR(out, "?");
	cgroup_group_key(CGROUP_BY_COMM, NULL, "www-data", path, out, sizeof(out));
	CHECK_STR(out, "?");
	cgroup_group_key(CGROUP_BY__COUNT, "a", "b", path, out, sizeof(out));
	CHECK_STR(out, "?");
	/* A comm of raw bytes is kept as it is (sanitized where printed), cut whole. */
	cgroup_group_key(CGROUP_BY_COMM, "a\x1b[2J\xc3\xa9", NULL, NULL, out, sizeof(out));
	CHECK_STR(out, "a\x1b[2J\xc3\xa9");
	cgroup_group_key(CGROUP_BY_COMM, "ab\xc3\xa9", NULL, NULL, out, 4);
	CHECK_STR(out, "ab");
	cgroup_group_key(CGROUP_BY_CONTAINER, NULL, NULL, path, out, 8);
	CHECK_STR(out, "docker:");
	CHECK_EQ_U64(cgroup_group_key(CGROUP_BY_COMM, "x", NULL, NULL, out, 0), 0);
}

/* One hierarchy's line, whole: the cpu controller's path where the model keeps another. */
static void test_hier_path(void)
{
	static const char hybrid[] =
		"9:name=systemd:/\n8:pids:/\n3:cpuset:/\n4:memory:/process_api/5724\n"
		"2:cpu,cpuacct:/ktop-thr\n0::/\n";
	static const char v2[] = "1:name=systemd:/x\n0::/svc.slice/a.service (deleted)\n";
	char out[CGROUP_PATH_MAX], longp[600], file[700];

	/* The model's path is the memory one; the CPU's is its own. */
	CHECK(parse_exact(hybrid, out, sizeof(out)) > 0);
	CHECK_STR(out, "/process_api/5724");
	CHECK_EQ_I64(cgroup_hier_path(hybrid, strlen(hybrid), "cpu", out, sizeof(out)),
		     strlen("/ktop-thr"));
	CHECK_STR(out, "/ktop-thr");
	CHECK_EQ_I64(cgroup_hier_path(hybrid, strlen(hybrid), "cpuacct", out, sizeof(out)),
		     strlen("/ktop-thr"));
	CHECK_EQ_I64(cgroup_hier_path(hybrid, strlen(hybrid), "memory", out, sizeof(out)),
		     strlen("/process_api/5724"));
	/* "cpuset" is not "cpu"; v2 with its mark dropped; the root is a path. */
	CHECK_EQ_I64(cgroup_hier_path("3:cpuset:/x\n", 12, "cpu", out, sizeof(out)), -ENOENT);
	CHECK_STR(out, "");
	CHECK_EQ_I64(cgroup_hier_path(v2, strlen(v2), NULL, out, sizeof(out)),
		     strlen("/svc.slice/a.service"));
	CHECK_STR(out, "/svc.slice/a.service");
	CHECK_EQ_I64(cgroup_hier_path(hybrid, strlen(hybrid), NULL, out, sizeof(out)), 1);
	CHECK_EQ_I64(cgroup_hier_path(hybrid, strlen(hybrid), "pids", out, sizeof(out)), 1);
	CHECK_STR(out, "/");
	/* v2 only: no v1 line names cpu. */
	CHECK_EQ_I64(cgroup_hier_path("0::/a\n", 6, "cpu", out, sizeof(out)), -ENOENT);
	/* Not shortened: a path that does not fit is not read at all. */
	long_path(longp, sizeof(longp), "/kubepods", 60, "/leaf");
	snprintf(file, sizeof(file), "2:cpu:%s\n", longp);
	CHECK_EQ_I64(cgroup_hier_path(file, strlen(file), "cpu", out, sizeof(out)),
		     -ENAMETOOLONG);
	CHECK_EQ_I64(cgroup_hier_path(file, strlen(file), "cpu", longp, sizeof(longp)) > 0, 1);
	/* Hostile: no NUL inside, no relative path, a partial last line. */
	CHECK_EQ_I64(cgroup_hier_path("2:cpu:/a\0b\n", 11, "cpu", out, sizeof(out)), -ENOENT);
	CHECK_EQ_I64(cgroup_hier_path("2:cpu:rel\n", 10, "cpu", out, sizeof(out)), -ENOENT);
	CHECK_EQ_I64(cgroup_hier_path("2:cpu:/a", 8, "cpu", out, sizeof(out)), 2);
}

/*
 * Random files of 1-4 lines, each a head ("0::", "4:memory:", junk) and a
 * path of cgroup-ish tokens and random bytes: outputs bounded and terminated,
 * no read out of bounds (ASan), and most of the files parse.
 */
static void test_fuzz(void)
{
	static const char *const head[] = {
		"0::", "0::", "1:name=systemd:", "4:memory:", "2:cpu,cpuacct:", "3:pids:",
		"7:blkio:", "x:", "0:", "",
	};
	static const char *const tok[] = {
		"/", "/", "/", ":", "", ".service", ".scope", ".slice", "docker-", "libpod-",
		"libpod-conmon-", "crio-", "cri-containerd-", "lxc.payload.", "lxc", "docker",
		"kubepods", ID64, SHORT, "\\x2d", "\\x", "\xc3\xa9", "\xe2\x80", " (deleted)",
		"/lxc/", "user@1000.service", "\n",
	};
	char buf[2048], out[CGROUP_PATH_MAX], key[80];
	struct cgroup_container c;
	uint32_t x = 0x5eed1234;
	size_t n, cap, k;
	int i, r, by, lines, parsed = 0;

	for (i = 0; i < 20000; i++) {
		char *b;

		n = 0;
		for (lines = 1 + (int)(test_rand(&x) % 4); lines--;) {
			const char *h = head[test_rand(&x) % N_ELEM(head)];

			memcpy(buf + n, h, strlen(h));
			n += strlen(h);
			buf[n++] = '/';
			n += test_fuzz_fill(buf + n, 400, 70, 31, &x, tok, N_ELEM(tok));
			buf[n++] = '\n';
		}
		/* Sometimes no final newline, sometimes a cut line. */
		k = test_rand(&x) % 8;
		n -= k < n ? k : 0;
		b = malloc(n ? n : 1);
		if (!b)
			abort();
		memcpy(b, buf, n);
		cap = 1 + test_rand(&x) % sizeof(out);
		r = cgroup_hier_path(b, n, i % 2 ? "cpu" : NULL, out, cap);
		if (!CHECK(r == -ENOENT || r == -ENAMETOOLONG ||
			   (r > 0 && (size_t)r < cap && strlen(out) == (size_t)r && out[0] == '/')))
			break;
		r = cgroup_parse_proc(b, n, out, cap);
		free(b);
		if (!CHECK(r == -EINVAL || (r >= 0 && (size_t)r < cap && strlen(out) == (size_t)r)))
			break;
		if (r < 0)
			continue;
		parsed++;
		cgroup_container(out, &c);
		CHECK(strlen(c.id) < sizeof(c.id));
		for (by = 0; by < CGROUP_BY__COUNT; by++) {
			cap = 1 + test_rand(&x) % sizeof(key);
			n = cgroup_group_key((enum cgroup_group_by)by, out, out, out, key, cap);
			if (!CHECK(n < cap && strlen(key) == n))
				break;
		}
	}
	/* The inputs reach the parser's choices, not only its rejections. */
	CHECK(parsed > 10000);
	printf("# %d of 20000 inputs parsed\n", parsed);
}

/* A fixture /proc: @dir/@pid/cgroup with @len bytes of @content. */
static bool fixture_write(const char *dir, const char *pid, const char *content, size_t len)
{
	char p[512];
	FILE *f;
	bool ok;

	snprintf(p, sizeof(p), "%s/%s", dir, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s/cgroup", dir, pid);
	f = fopen(p, "w");
	if (!f)
		return false;
	ok = fwrite(content, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

static void fixture_rm(const char *dir, const char *pid)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s/cgroup", dir, pid);
	unlink(p);
	snprintf(p, sizeof(p), "%s/%s", dir, pid);
	rmdir(p);
}

static void test_read_fixture(void)
{
	char dir[] = "/tmp/ktop-cgroup-XXXXXX", out[CGROUP_PATH_MAX], *big, v1[256];
	const char *hybrid = "1:name=systemd:/system.slice/a.service\n0::/system.slice/a.service\n";
	size_t n = 0, line;
	int dfd, i;

	if (!mkdtemp(dir)) {
		TEST_SKIP("no temporary directory");
		return;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	big = malloc(2 * CGROUP_FILE_MAX);
	if (!CHECK(dfd >= 0 && big))
		goto out;
	CHECK(fixture_write(dir, "10", hybrid, strlen(hybrid)));
	CHECK_EQ_I64(cgroupfs_read(dfd, "10", out, sizeof(out)), strlen("/system.slice/a.service"));
	CHECK_STR(out, "/system.slice/a.service");
	CHECK_EQ_I64(cgroupfs_read(dfd, "11", out, sizeof(out)), -ENOENT);
	CHECK_STR(out, "");
	CHECK(fixture_write(dir, "12", "", 0));
	CHECK_EQ_I64(cgroupfs_read(dfd, "12", out, sizeof(out)), -EINVAL);

	/* Past the first 4 KiB: v1 lines of 2,000-byte paths, the v2 line last. */
	snprintf(v1, sizeof(v1), "1:name=systemd:/system.slice/v1.service\n");
	n = strlen(v1);
	memcpy(big, v1, n);
	for (i = 0; i < 10; i++) {
		n += (size_t)sprintf(big + n, "%d:memory:/", i + 2);
		memset(big + n, 'm', 2000);
		n += 2000;
		big[n++] = '\n';
	}
	n += (size_t)sprintf(big + n, "0::/system.slice/v2.service\n");
	CHECK(fixture_write(dir, "13", big, n));
	cgroupfs_read(dfd, "13", out, sizeof(out));
	CHECK_STR(out, "/system.slice/v2.service");

	/* Past CGROUP_FILE_MAX: a v2 line cut at the limit is not taken for a path. */
	n = strlen(v1);
	for (i = 0; n < CGROUP_FILE_MAX - 3000; i++) {
		n += (size_t)sprintf(big + n, "%d:memory:/", i + 2);
		memset(big + n, 'm', 2000);
		n += 2000;
		big[n++] = '\n';
	}
	line = (size_t)sprintf(big + n, "0::/");
	memset(big + n + line, 'v', 6000);
	n += line + 6000;
	n += (size_t)sprintf(big + n, "\n");
	CHECK(n > CGROUP_FILE_MAX);
	CHECK(fixture_write(dir, "14", big, n));
	cgroupfs_read(dfd, "14", out, sizeof(out));
	CHECK_STR(out, "/system.slice/v1.service");
out:
	free(big);
	if (dfd >= 0)
		close(dfd);
	fixture_rm(dir, "10");
	fixture_rm(dir, "12");
	fixture_rm(dir, "13");
	fixture_rm(dir, "14");
	rmdir(dir);
}

/* The real format of cgroup:cgroup_attach_task (6.18). */
static const char attach_format[] =
	"name: cgroup_attach_task\nID: 538\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int dst_root;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dst_level;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 dst_id;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] dst_path;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] comm;\toffset:32;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"dst_root=%d dst_id=%llu dst_level=%d dst_path=%s pid=%d comm=%s\", ...\n";

static bool write_format(const char *dir, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/events/cgroup/cgroup_attach_task", dir);
	if (access(p, F_OK) != 0) {
		snprintf(p, sizeof(p), "%s/events", dir);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/events/cgroup", dir);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/events/cgroup/cgroup_attach_task", dir);
		mkdir(p, 0755);
	}
	snprintf(p, sizeof(p), "%s/events/cgroup/cgroup_attach_task/format", dir);
	f = fopen(p, "w");
	if (!f)
		return false;
	fputs(text, f);
	return fclose(f) == 0;
}

static void test_attach_event(void)
{
	char dir[] = "/tmp/ktop-tracefs-XXXXXX", p[512], *old;
	int r;

	if (!mkdtemp(dir)) {
		TEST_SKIP("no temporary directory");
		return;
	}
	CHECK_EQ_I64(cgroupfs_attach_event(dir), 0);
	CHECK(write_format(dir, attach_format));
	CHECK_EQ_I64(cgroupfs_attach_event(dir), 1);
	/* An older layout without dst_root: not usable. */
	old = strdup(attach_format);
	if (old) {
		memcpy(strstr(old, "int dst_root;"), "int dst_rooX;", 13);
		CHECK(write_format(dir, old));
		CHECK_EQ_I64(cgroupfs_attach_event(dir), 0);
		free(old);
	}
	snprintf(p, sizeof(p), "%s/events/cgroup/cgroup_attach_task/format", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/events/cgroup/cgroup_attach_task", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/events/cgroup", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/events", dir);
	rmdir(p);
	rmdir(dir);

	/* This machine's tracefs, read only. */
	r = cgroupfs_attach_event("/sys/kernel/tracing");
	printf("# /sys/kernel/tracing: cgroup:cgroup_attach_task %s (%d)\n",
	       r == 1 ? "usable" : r == 0 ? "absent" : "unreadable", r);
	CHECK(r == 1 || r == 0 || r < 0);
}

/* The v2 mount point and the root it shows, from mountinfo; false if none. */
static bool v2_mount(char *mnt, size_t mntsz, char *root, size_t rootsz)
{
	char line[1024], r[512], m[512], *dash;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - cgroup2 ");
		if (!dash || sscanf(line, "%*s %*s %*s %511s %511s", r, m) != 2)
			continue;
		/* Escaped names (\040) are not worth decoding here. */
		if (strchr(m, '\\') || strchr(r, '\\'))
			continue;
		snprintf(mnt, mntsz, "%s", m);
		snprintf(root, rootsz, "%s", r);
		found = true;
	}
	fclose(f);
	return found;
}

/* Our own v2 path, from /proc/self/cgroup's "0::" line. */
static bool own_v2_path(char *out, size_t size)
{
	char line[1024];
	FILE *f = fopen("/proc/self/cgroup", "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			found = (size_t)snprintf(out, size, "%s", line + 3) < size;
		}
	fclose(f);
	return found;
}

/*
 * A real cgroup: created under ours in the v2 hierarchy, a child moved into
 * it, read back through collectors/cgroup; removed after.
 */
static void test_live_cgroup(void)
{
	static char why[160];
	char mnt[512], root[512], own[512], dir[1024], procs[1100], want[CGROUP_PATH_MAX];
	char out[CGROUP_PATH_MAX], rel[64], pidtxt[32];
	int pfd[2] = { -1, -1 }, proc_fd = -1, fd, i, st;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	pid_t child = -1;
	ssize_t w;

	if (!v2_mount(mnt, sizeof(mnt), root, sizeof(root)) || !own_v2_path(own, sizeof(own))) {
		TEST_SKIP("no cgroup v2 hierarchy mounted here");
		return;
	}
	/* Our path is relative to the hierarchy's root; the mount shows @root of it. */
	if (strncmp(own, root, strlen(root)) != 0 && strcmp(root, "/") != 0) {
		TEST_SKIP("our cgroup is outside the v2 mount's view");
		return;
	}
	if ((size_t)snprintf(want, sizeof(want), "%s/ktop-test-%d", strcmp(own, "/") ? own : "",
			     (int)getpid()) >= sizeof(want) ||
	    (size_t)snprintf(dir, sizeof(dir), "%s%s", mnt,
			     strcmp(root, "/") ? want + strlen(root) : want) >= sizeof(dir)) {
		TEST_SKIP("our cgroup's path is too long for this test");
		return;
	}
	if (mkdir(dir, 0755) != 0) {
		snprintf(why, sizeof(why), "cannot create a cgroup in the v2 hierarchy: %s",
			 strerror(errno));
		TEST_SKIP(why);
		return;
	}
	if (!CHECK(pipe(pfd) == 0))
		goto out;
	child = fork();
	if (child == 0) {
		char c;

		close(pfd[1]);
		while (read(pfd[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	if (!CHECK(child > 0))
		goto out;
	close(pfd[0]);
	pfd[0] = -1;
	if (!CHECK((size_t)snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir) < sizeof(procs)))
		goto out;
	snprintf(pidtxt, sizeof(pidtxt), "%d\n", (int)child);
	fd = open(procs, O_WRONLY | O_CLOEXEC);
	w = fd >= 0 ? write(fd, pidtxt, strlen(pidtxt)) : -1;
	if (fd >= 0)
		close(fd);
	if (!CHECK(w == (ssize_t)strlen(pidtxt))) {
		printf("# moving %d into %s: %s\n", (int)child, dir, strerror(errno));
		goto out;
	}
	snprintf(rel, sizeof(rel), "/proc/%d", (int)child);
	CHECK_EQ_I64(cgroupfs_read(AT_FDCWD, rel, out, sizeof(out)), strlen(want));
	CHECK_STR(out, want);
	proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(rel, sizeof(rel), "%d", (int)child);
	cgroupfs_read(proc_fd, rel, out, sizeof(out));
	CHECK_STR(out, want);
	snprintf(rel, sizeof(rel), "%d/task/%d", (int)child, (int)child);
	cgroupfs_read(proc_fd, rel, out, sizeof(out));
	CHECK_STR(out, want);
	/* We did not move. */
	cgroupfs_read(proc_fd, "self", out, sizeof(out));
	CHECK(strcmp(out, want) != 0);
out:
	if (pfd[1] >= 0)
		close(pfd[1]);	/* the child reads end of file and exits */
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (child > 0)
		waitpid(child, &st, 0);
	if (proc_fd >= 0) {
		/* Gone: ENOENT (or ESRCH while it is being reaped). */
		snprintf(rel, sizeof(rel), "%d", (int)child);
		i = cgroupfs_read(proc_fd, rel, out, sizeof(out));
		CHECK(i == -ENOENT || i == -ESRCH);
		close(proc_fd);
	}
	/* The cgroup empties once the child is reaped; the kernel may lag a moment. */
	for (i = 0; rmdir(dir) != 0 && errno == EBUSY && i < 50; i++)
		nanosleep(&ts, NULL);
	CHECK(access(dir, F_OK) != 0);
}

static const struct test tests[] = {
	{ "unit_and_container", test_unit_and_container },
	{ "container_long_name", test_container_long_name },
	{ "parse_proc", test_parse_proc },
	{ "long_paths", test_long_paths },
	{ "fit_utf8", test_fit_utf8 },
	{ "unit_bounded", test_unit_bounded },
	{ "group_key", test_group_key },
	{ "hier_path", test_hier_path },
	{ "fuzz", test_fuzz },
	{ "read_fixture", test_read_fixture },
	{ "attach_event", test_attach_event },
	{ "live_cgroup", test_live_cgroup },
};

int main(void)
{
	return run_tests(tests, N_ELEM(tests));
}
