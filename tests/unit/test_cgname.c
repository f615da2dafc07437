// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/cgname: what a cgroup path says of its container, pod and machine
 * (Docker, containerd and CRI-O under Kubernetes with either cgroup driver,
 * podman, machined), the keys with and without names, the groups' cgroup
 * directories, and the scans of Docker's config.v2.json and the kubelet's
 * file names.
 */
#include "test.h"

#include "../../lib/cgname.h"

#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))

#define ID64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define UIDD "1f2e3d4c-5b6a-4789-8abc-def012345678"
#define UID_ "1f2e3d4c_5b6a_4789_8abc_def012345678"

struct ident_case {
	const char *path;
	enum cgroup_runtime rt;
	const char *pod_uid;
	enum cg_qos qos;
	const char *ctr_dir, *pod_dir;	/* "" none */
};

static const struct ident_case ident_cases[] = {
	{ "/docker/" ID64, CGROUP_RT_DOCKER, "", CG_QOS_NONE, "/docker/" ID64, "" },
	{ "/system.slice/docker-" ID64 ".scope", CGROUP_RT_DOCKER, "", CG_QOS_NONE,
	  "/system.slice/docker-" ID64 ".scope", "" },
	/* Kubernetes, cgroupfs driver (v1 and v2 alike), each QoS class. */
	{ "/kubepods/burstable/pod" UIDD "/" ID64, CGROUP_RT_KUBEPODS, UIDD, CG_QOS_BURSTABLE,
	  "/kubepods/burstable/pod" UIDD "/" ID64, "/kubepods/burstable/pod" UIDD },
	{ "/kubepods/besteffort/pod" UIDD "/" ID64, CGROUP_RT_KUBEPODS, UIDD, CG_QOS_BESTEFFORT,
	  "/kubepods/besteffort/pod" UIDD "/" ID64, "/kubepods/besteffort/pod" UIDD },
	{ "/kubepods/pod" UIDD "/" ID64, CGROUP_RT_KUBEPODS, UIDD, CG_QOS_GUARANTEED,
	  "/kubepods/pod" UIDD "/" ID64, "/kubepods/pod" UIDD },
	{ "/kubepods/burstable/pod" UIDD "/crio-" ID64, CGROUP_RT_CRIO, UIDD, CG_QOS_BURSTABLE,
	  "/kubepods/burstable/pod" UIDD "/crio-" ID64, "/kubepods/burstable/pod" UIDD },
	/* systemd driver: the UID with underscores. */
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/cri-containerd-" ID64 ".scope", CGROUP_RT_CONTAINERD, UIDD, CG_QOS_BURSTABLE,
	  "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	  ".slice/cri-containerd-" ID64 ".scope",
	  "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" ID64 ".scope", CGROUP_RT_CRIO, UIDD,
	  CG_QOS_GUARANTEED, "/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" ID64 ".scope",
	  "/kubepods.slice/kubepods-pod" UID_ ".slice" },
	/* The pod's own slice: a pod, no container. */
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice",
	  CGROUP_RT_NONE, UIDD, CG_QOS_BESTEFFORT, "",
	  "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice" },
	/* kind: a node in a docker container; the pod is the inner one. */
	{ "/docker/" ID64 "/kubepods/besteffort/pod" UIDD "/" ID64, CGROUP_RT_KUBEPODS, UIDD,
	  CG_QOS_BESTEFFORT, "/docker/" ID64 "/kubepods/besteffort/pod" UIDD "/" ID64,
	  "/docker/" ID64 "/kubepods/besteffort/pod" UIDD },
	{ "/machine.slice/libpod-" ID64 ".scope/container", CGROUP_RT_PODMAN, "", CG_QOS_NONE,
	  "/machine.slice/libpod-" ID64 ".scope", "" },
	{ "/machine.slice/machine-web\\x2d1.scope/payload", CGROUP_RT_NONE, "", CG_QOS_NONE,
	  "/machine.slice/machine-web\\x2d1.scope", "" },
	/* Not a pod: "pod..." outside kubepods; a UID that is not hex. */
	{ "/system.slice/podman.service", CGROUP_RT_NONE, "", CG_QOS_NONE, "", "" },
	{ "/kubepods/burstable/podxyz/" ID64, CGROUP_RT_KUBEPODS, "", CG_QOS_NONE,
	  "/kubepods/burstable/podxyz/" ID64, "" },
	{ "/", CGROUP_RT_NONE, "", CG_QOS_NONE, "", "" },
};

static void test_ident(void)
{
	char dir[CGROUP_PATH_MAX];
	struct cg_ident id;
	size_t i;

	for (i = 0; i < N_ELEM(ident_cases); i++) {
		const struct ident_case *c = &ident_cases[i];

		cgname_ident(c->path, &id);
		if (!CHECK_EQ_I64(id.runtime, c->rt) || !CHECK_STR(id.pod_uid, c->pod_uid) ||
		    !CHECK_EQ_I64(id.qos, c->qos))
			printf("# path %s\n", c->path);
		if (c->rt != CGROUP_RT_NONE && c->rt != CGROUP_RT_LXC)
			CHECK_STR(id.id, ID64);
		cgname_group_dir(CGROUP_BY_CONTAINER, c->path, dir, sizeof(dir));
		if (!CHECK_STR(dir, c->ctr_dir))
			printf("# path %s\n", c->path);
		cgname_group_dir(CGROUP_BY_POD, c->path, dir, sizeof(dir));
		if (!CHECK_STR(dir, c->pod_dir))
			printf("# path %s\n", c->path);
	}
	cgname_ident("/machine.slice/machine-web\\x2d1.scope/payload", &id);
	CHECK(id.machine);
	CHECK_STR(id.name, "web-1");
}

static void test_keys(void)
{
	struct cg_name nm = { "shop/cart-5c7d/app", "shop/cart-5c7d", "shop" };
	const char *kp = "/kubepods/burstable/pod" UIDD "/" ID64;
	char out[CGROUP_KEY_MAX];

	/* With names. */
	cgname_group_key(CGROUP_BY_CONTAINER, "c", "u", kp, &nm, out, sizeof(out));
	CHECK_STR(out, "shop/cart-5c7d/app");
	cgname_group_key(CGROUP_BY_POD, "c", "u", kp, &nm, out, sizeof(out));
	CHECK_STR(out, "shop/cart-5c7d");
	cgname_group_key(CGROUP_BY_NAMESPACE, "c", "u", kp, &nm, out, sizeof(out));
	CHECK_STR(out, "shop");
	/* Without: today's RUNTIME:ID, the pod's UID, an unknown namespace. */
	cgname_group_key(CGROUP_BY_CONTAINER, "c", "u", kp, NULL, out, sizeof(out));
	CHECK_STR(out, "kubepods:0123456789ab");
	cgname_group_key(CGROUP_BY_POD, "c", "u", kp, NULL, out, sizeof(out));
	CHECK_STR(out, "pod:" UIDD);
	cgname_group_key(CGROUP_BY_NAMESPACE, "c", "u", kp, NULL, out, sizeof(out));
	CHECK_STR(out, "?");
	/* The host, and not read yet. */
	cgname_group_key(CGROUP_BY_POD, "c", "u", "/system.slice/a.service", NULL, out, sizeof(out));
	CHECK_STR(out, "-");
	cgname_group_key(CGROUP_BY_NAMESPACE, "c", "u", NULL, NULL, out, sizeof(out));
	CHECK_STR(out, "?");
	/* The same through cgroup_group_key (no names). */
	cgroup_group_key(CGROUP_BY_POD, "c", "u", kp, out, sizeof(out));
	CHECK_STR(out, "pod:" UIDD);
	/* A machine by its name; other keys as before. */
	cgname_group_key(CGROUP_BY_CONTAINER, "c", "u", "/machine.slice/machine-db.scope", NULL,
			 out, sizeof(out));
	CHECK_STR(out, "machine:db");
	cgname_group_key(CGROUP_BY_COMM, "c", "u", kp, &nm, out, sizeof(out));
	CHECK_STR(out, "c");
	/* The id behind a name. */
	cgname_group_id(CGROUP_BY_CONTAINER, kp, out, sizeof(out));
	CHECK_STR(out, "kubepods:0123456789ab");
	cgname_group_id(CGROUP_BY_POD, "/kubepods/burstable/pod" UIDD, out, sizeof(out));
	CHECK_STR(out, "pod:" UIDD);
	cgname_group_id(CGROUP_BY_UNIT, kp, out, sizeof(out));
	CHECK_STR(out, "");
	/* Bounded, NUL-terminated. */
	CHECK_EQ_U64(cgname_group_key(CGROUP_BY_CONTAINER, "c", "u", kp, &nm, out, 5), 4);
	CHECK_STR(out, "shop");
	CHECK_STR(cgroup_group_by_name(CGROUP_BY_POD), "pod");
	CHECK_STR(cgroup_group_by_name(CGROUP_BY_NAMESPACE), "namespace");
}

static void test_dirs(void)
{
	char dir[CGROUP_PATH_MAX];

	CHECK_EQ_U64(cgname_group_dir(CGROUP_BY_UNIT, "/system.slice/nginx.service/sub", dir,
				      sizeof(dir)), strlen("/system.slice/nginx.service"));
	CHECK_STR(dir, "/system.slice/nginx.service");
	cgname_group_dir(CGROUP_BY_UNIT, "/user.slice/user-1000.slice", dir, sizeof(dir));
	CHECK_STR(dir, "/user.slice/user-1000.slice");
	cgname_group_dir(CGROUP_BY_CGROUP, "/a/b", dir, sizeof(dir));
	CHECK_STR(dir, "/a/b");
	/* No one cgroup: the root, comm, user, namespace, a shortened path. */
	CHECK_EQ_U64(cgname_group_dir(CGROUP_BY_CGROUP, "/", dir, sizeof(dir)), 0);
	CHECK_EQ_U64(cgname_group_dir(CGROUP_BY_COMM, "/a", dir, sizeof(dir)), 0);
	CHECK_EQ_U64(cgname_group_dir(CGROUP_BY_NAMESPACE, "/kubepods/pod" UIDD, dir, sizeof(dir)), 0);
	CHECK_EQ_U64(cgname_group_dir(CGROUP_BY_CGROUP, "/kubepods/\xe2\x80\xa6/x", dir, sizeof(dir)),
		     0);
	CHECK_EQ_U64(cgname_group_dir(CGROUP_BY_CONTAINER, "/system.slice/a.service", dir,
				      sizeof(dir)), 0);
}

static void test_json(void)
{
	static const char cfg[] =
		"{\"StreamConfig\":{},\"State\":{\"Running\":true},\"ID\":\"" ID64 "\","
		"\"Config\":{\"Hostname\":\"x\",\"Labels\":{\"com.docker.compose.project\":\"shop\","
		"\"com.docker.compose.service\":\"w\\u00e9b\",\"Name\":\"not-this\"}},"
		"\"MountPoints\":{\"/d\":{\"Name\":\"vol\"}},\"List\":[{\"Name\":\"in-array\"}],"
		"\"Name\":\"/web-1\",\"Driver\":\"overlay2\"}";
	char out[64];

	CHECK_EQ_I64(cgname_json_string(cfg, strlen(cfg), "Name", 1, out, sizeof(out)), 6);
	CHECK_STR(out, "/web-1");
	CHECK(cgname_json_string(cfg, strlen(cfg), "com.docker.compose.project", 0, out,
				 sizeof(out)) == 4);
	CHECK_STR(out, "shop");
	cgname_json_string(cfg, strlen(cfg), "com.docker.compose.service", 0, out, sizeof(out));
	CHECK_STR(out, "w\xc3\xa9" "b");
	CHECK_EQ_I64(cgname_json_string(cfg, strlen(cfg), "Nope", 0, out, sizeof(out)), -1);
	CHECK_STR(out, "");
	/* A value is not a key; a truncated file finds nothing past its end. */
	CHECK_EQ_I64(cgname_json_string("{\"a\":\"Name\",\"b\":1}", 19, "Name", 0, out, sizeof(out)),
		     -1);
	CHECK_EQ_I64(cgname_json_string(cfg, 40, "Name", 1, out, sizeof(out)), -1);
	/* No NUL inside a name (\u0000, a raw one, an escaped one: dropped); a cut escape gives "". */
	CHECK_EQ_I64(cgname_json_string("{\"Name\":\"a\\u0000b\"}", 20, "Name", 1, out, sizeof(out)),
		     2);
	CHECK_STR(out, "ab");
	CHECK_EQ_I64(cgname_json_string("{\"Name\":\"a\0b\\\0c\"}", 17, "Name", 1, out, sizeof(out)),
		     3);
	CHECK_STR(out, "abc");
	memset(out, 'x', sizeof(out));
	CHECK_EQ_I64(cgname_json_string("{\"Name\":\"w\\u1\"}", 16, "Name", 1, out, sizeof(out)), -1);
	CHECK_STR(out, "");
	/* Cut at a character boundary. */
	CHECK(cgname_json_string("{\"Name\":\"\\u00e9\\u00e9\"}", 22, "Name", 1, out, 4) == 2);
	CHECK_STR(out, "\xc3\xa9");
}

static void test_kubelet_names(void)
{
	char ns[64], pod[64], ctr[64];

	CHECK(cgname_pod_dir("shop_cart-5c7d_" UIDD, UIDD, ns, sizeof(ns), pod, sizeof(pod)));
	CHECK_STR(ns, "shop");
	CHECK_STR(pod, "cart-5c7d");
	CHECK(!cgname_pod_dir("shop_cart-5c7d_" UIDD "x", UIDD, ns, sizeof(ns), pod, sizeof(pod)));
	CHECK(!cgname_pod_dir("shop_" UIDD, UIDD, ns, sizeof(ns), pod, sizeof(pod)));
	CHECK(cgname_container_log("cart-5c7d_shop_app-" ID64 ".log", ID64, ctr, sizeof(ctr)));
	CHECK_STR(ctr, "app");
	CHECK(!cgname_container_log("cart-5c7d_shop_app-" ID64 ".log", "f123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", ctr,
				    sizeof(ctr)));
	CHECK(!cgname_container_log("cart-5c7d_shop-" ID64 ".log", ID64, ctr, sizeof(ctr)));
}

static void test_table(void)
{
	static const char a[] = "/a", b[] = "/b";
	struct cg_name nm = { "x", "", "" };
	struct cgnames t;
	char keys[300][12];
	int i;

	cgnames_init(&t);
	CHECK(!cgnames_get(&t, a));
	cgnames_set(&t, a, &nm);
	CHECK_STR(cgnames_get(&t, a)->container, "x");
	CHECK(!cgnames_get(&t, b));
	/* Keyed by the pointer (paths are interned), through growth. */
	for (i = 0; i < 300; i++) {
		snprintf(keys[i], sizeof(keys[i]), "%d", i);
		snprintf(nm.container, sizeof(nm.container), "c%d", i);
		cgnames_set(&t, keys[i], &nm);
	}
	for (i = 0; i < 300; i++) {
		char want[16];

		snprintf(want, sizeof(want), "c%d", i);
		CHECK_STR(cgnames_get(&t, keys[i])->container, want);
	}
	CHECK_STR(cgnames_get(&t, a)->container, "x");
	cgnames_free(&t);
}

static const struct test tests[] = {
	{ "ident", test_ident },
	{ "keys", test_keys },
	{ "dirs", test_dirs },
	{ "json", test_json },
	{ "kubelet_names", test_kubelet_names },
	{ "table", test_table },
};

int main(void)
{
	return run_tests(tests, N_ELEM(tests));
}
