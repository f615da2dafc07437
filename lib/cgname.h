/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGNAME_H
#define KTOP_CGNAME_H

/*
 * lib/cgname: the names people use for a container, a pod, a machine,
 * from the cgroup path (pure: what the path says) and from what
 * collectors/cgroup/cgnames.c read once per cgroup in the runtimes' files (Docker's
 * config.v2.json, the kubelet's /var/log/pods directories). The model keeps
 * one struct cg_name per cgroup path (struct cgnames, keyed by the interned
 * path pointer), and the group keys container, pod and namespace use it.
 *
 * Nothing here is sanitized: names are printed through sanitize_text like a
 * comm.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup.h"

/* Bytes, NUL included, of a name kept ("default/api-7d9f/app"). */
#define CGNAME_MAX 160
/* A Kubernetes namespace or a compose project (63 bytes at most, DNS labels). */
#define CGNAME_NS_MAX 64
/* A pod UID, dashed: 36 characters. */
#define CGNAME_UID_MAX 40

enum cg_qos {
	CG_QOS_NONE,		/* not a pod */
	CG_QOS_GUARANTEED,	/* directly under kubepods */
	CG_QOS_BURSTABLE,
	CG_QOS_BESTEFFORT,
};

/* What a cgroup path says of its container and pod, pure. */
struct cg_ident {
	enum cgroup_runtime runtime;	/* CGROUP_RT_NONE: no container */
	char id[CGROUP_ID_MAX + 1];	/* the whole id (64 hex), or an LXC name */
	bool machine;			/* a systemd-nspawn/machined machine: @name */
	char name[CGNAME_NS_MAX];	/* its machine name ("machine-NAME.scope") */
	char pod_uid[CGNAME_UID_MAX];	/* a pod's UID, dashed; "" not a pod */
	enum cg_qos qos;
	size_t ctr_len;			/* bytes of the path up to its container's cgroup; 0 none */
	size_t pod_len;			/* bytes up to its pod's cgroup; 0 none */
};

/*
 * cgname_ident - what @path (NUL-terminated) says: the container (as
 * cgroup_container(), with the whole id), the pod UID and QoS class of a
 * Kubernetes pod (the cgroupfs driver's "/kubepods/burstable/podUID/ID" and
 * the systemd driver's ".../kubepods-burstable-podUID_WITH_UNDERSCORES.slice/
 * cri-containerd-ID.scope", cgroup v1 or v2 alike), a machine of machined
 * ("/machine.slice/machine-NAME.scope", systemd's escapes undone).
 * Returns true when it names a container, a pod or a machine.
 */
bool cgname_ident(const char *path, struct cg_ident *id);

/* The names resolved for one cgroup; "" where not known. */
struct cg_name {
	char container[CGNAME_MAX];	/* "web-1", "shop/cart-5c7d/app", "machine:NAME" */
	char pod[CGNAME_MAX];		/* "shop/cart-5c7d"; compose: "PROJECT/SERVICE" */
	char ns[CGNAME_NS_MAX];		/* "shop"; compose: the project */
};

/*
 * cgname_json_string - the string value of key @key in the JSON text @buf
 * (@len bytes) at object depth @depth (1: the top object's keys, 0: any
 * depth), unescaped (\uXXXX as UTF-8) into @out (@cap bytes, NUL-terminated,
 * cut at a character boundary). For Docker's config.v2.json ("Name" at depth
 * 1, the compose labels at any depth): a scan, not a parser; text that is
 * not JSON finds nothing.
 * Returns the length, or -1 when the key is not there (or its value is not a string).
 */
int cgname_json_string(const char *buf, size_t len, const char *key, int depth, char *out,
		       size_t cap);

/*
 * cgname_pod_dir - a kubelet pod log directory's name "NAMESPACE_POD_UID"
 * (/var/log/pods/...): when its UID is @uid, its namespace and pod into @ns
 * and @pod. Namespaces and pod names are DNS names: no '_' in them.
 * Returns true on a match.
 */
bool cgname_pod_dir(const char *dirname, const char *uid, char *ns, size_t ns_cap, char *pod,
		    size_t pod_cap);

/*
 * cgname_container_log - a kubelet container log link's name
 * "POD_NAMESPACE_CONTAINER-ID.log" (/var/log/containers): when its id is
 * @id (whole, 64 hex), the container's name into @out. Returns true on a match.
 */
bool cgname_container_log(const char *fname, const char *id, char *out, size_t cap);

/*
 * cgname_group_key - cgroup_group_key() with names: by container, @nm's
 * container name when known, a machine's "machine:NAME", else RUNTIME:ID; by
 * pod, @nm's pod ("namespace/pod") or "pod:UID" when its files are not
 * found, "-" outside a pod; by namespace, @nm's, "?" for a pod whose
 * namespace is not known, "-" outside a pod. @nm may be NULL.
 * Returns the length written.
 */
size_t cgname_group_key(enum cgroup_group_by by, const char *comm, const char *user,
			const char *path, const struct cg_name *nm, char *out, size_t cap);

/*
 * cgname_group_id - the id behind a group key of @by (container: RUNTIME:ID
 * or "machine:NAME"; pod: "pod:UID"), into @out; "" for other keys or
 * outside a container or pod. Returns the length.
 */
size_t cgname_group_id(enum cgroup_group_by by, const char *path, char *out, size_t cap);

/*
 * cgname_group_dir - the cgroup of a group of @by that holds a process at
 * @path: its container's, pod's or unit's cgroup, or @path itself by
 * cgroup; into @out. Returns its length, 0 when the group is no one cgroup
 * (comm, user, namespace, the root, a host process by container).
 */
size_t cgname_group_dir(enum cgroup_group_by by, const char *path, char *out, size_t cap);

/* The model's names, one per cgroup path (an interned pointer of the source's). */
struct cgnames {
	const char **keys;
	struct cg_name **v;
	size_t n, cap;		/* open addressing; cap a power of two or 0 */
};

void cgnames_init(struct cgnames *t);
void cgnames_free(struct cgnames *t);
/* @path's names are @nm from now on (copied). */
void cgnames_set(struct cgnames *t, const char *path, const struct cg_name *nm);
/* @path's names, or NULL when none were resolved. Owned by @t. */
const struct cg_name *cgnames_get(const struct cgnames *t, const char *path);

#endif
