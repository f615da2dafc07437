/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGROUP_H
#define KTOP_CGROUP_H

/*
 * lib/cgroup: which group a process belongs to, from its cgroup path: the
 * path itself, the systemd unit it names, the container it names. Pure string
 * work, no I/O: collectors/cgroup/cgroupfs reads /proc/PID/cgroup and hands its bytes
 * to cgroup_parse_proc(); the model keeps the path and derives the rest.
 *
 * A cgroup path is arbitrary bytes (no NUL, no '/' inside a name, no newline:
 * the kernel refuses a cgroup name with one) and can be PATH_MAX long. Every
 * output here is bounded by the caller's buffer, always NUL-terminated, and
 * never cut inside a UTF-8 sequence. Nothing is sanitized: a view or output
 * sanitizes before it prints, as for a comm.
 */

#include <stdbool.h>
#include <stddef.h>

/* Bytes, NUL included, a model keeps of a path: the longest real ones (kubepods) are ~200. */
#define CGROUP_PATH_MAX 256
/* A group key (a unit name, "docker:0123456789ab", a path): enough for any of them. */
#define CGROUP_KEY_MAX CGROUP_PATH_MAX
/* Hex container ids are shortened to this many characters, as `docker ps` does. */
#define CGROUP_SHORT_ID 12
/* An LXC container's name (not shortened) or a short id, NUL included. */
#define CGROUP_ID_MAX 64

/*
 * cgroup_parse_proc - "the cgroup" of a process from /proc/PID/cgroup
 * @buf, @len: the file's bytes, not NUL-terminated
 * @out, @cap: receives the path, NUL-terminated, shortened by cgroup_path_fit()
 *
 * Each line is "ID:CONTROLLERS:PATH" (the path is everything after the second
 * colon, colons included). One line is chosen, among those whose path is not
 * the root "/", in this order:
 *  1. the first cgroup v2 line ("0::PATH"): the unified hierarchy, the one
 *     systemd and today's runtimes manage, and the only one on a v2 system;
 *  2. "name=systemd" (systemd's own tracking hierarchy on v1 and hybrid);
 *  3. the pids, memory, then cpu controller (the ones container runtimes and
 *     resource managers always place a process in), then any other line, in
 *     file order.
 * A line whose path names a container (cgroup_container()) is preferred over
 * one that does not: on a hybrid host an older runc places a container in the
 * v1 hierarchies only, leaving its v2 path at its shim's service
 * ("0::/system.slice/containerd.service"). The kernel's " (deleted)" mark of
 * a removed v2 cgroup is dropped. A process at the root of every hierarchy
 * gets "/".
 *
 * Returns the length written, or -EINVAL (and "") when no line parses.
 */
int cgroup_parse_proc(const char *buf, size_t len, char *out, size_t cap);

/*
 * cgroup_hier_path - the path of one hierarchy's line of @buf (@len bytes of
 * /proc/PID/cgroup): the v1 hierarchy that has controller @ctl ("cpu" is
 * "cpu,cpuacct" too), or with @ctl NULL the v2 one ("0::", its " (deleted)"
 * mark dropped). Whole, not shortened: it names the directory whose files
 * are read. Returns its length, -ENOENT when no line is that hierarchy's,
 * -ENAMETOOLONG when it does not fit @cap.
 */
int cgroup_hier_path(const char *buf, size_t len, const char *ctl, char *out, size_t cap);

/*
 * cgroup_path_fit - @n bytes of @path into @out (@cap bytes), NUL-terminated.
 * A path too long keeps its first component and its end, where the unit and
 * the container id are, with a "…" component in between:
 * "/kubepods/…/burstable/pod1234/0123...cdef"; the end starts at a component
 * boundary when it can, and never inside a UTF-8 sequence.
 * Returns the length written.
 */
size_t cgroup_path_fit(const char *path, size_t n, char *out, size_t cap);

/*
 * cgroup_unit - the systemd unit @path (NUL-terminated) names, into @out:
 * the innermost ".service" or ".scope" component, else the innermost ".slice",
 * else "-" (the root, or a path systemd does not manage: "/docker/ID").
 * So "/system.slice/nginx.service" is "nginx.service", a process directly in
 * "/user.slice/user-1000.slice" is "user-1000.slice", and a user's service
 * (".../user@1000.service/app.slice/foo.service") is "foo.service", the unit
 * its owner knows and manages with `systemctl --user` (`ps -o uunit`); two
 * users' units of one name thus share a group: the user or the cgroup key
 * tells them apart. systemd's "\xHH" escapes of printable ASCII are undone
 * ("getty@tty\x2d1" -> "getty@tty-1"); other bytes are kept escaped.
 * Returns the length written.
 */
size_t cgroup_unit(const char *path, char *out, size_t cap);

enum cgroup_runtime {
	CGROUP_RT_NONE,		/* the host: no container */
	CGROUP_RT_DOCKER,	/* /docker/ID, docker-ID.scope */
	CGROUP_RT_CONTAINERD,	/* cri-containerd-ID.scope */
	CGROUP_RT_KUBEPODS,	/* /kubepods/.../ID: a pod's container, runtime not named */
	CGROUP_RT_PODMAN,	/* libpod-ID.scope, /libpod_parent/libpod-ID */
	CGROUP_RT_CRIO,		/* crio-ID.scope, /kubepods/.../crio-ID */
	CGROUP_RT_LXC,		/* /lxc/NAME, /lxc.payload/NAME, /lxc.payload.NAME */
	CGROUP_RT_OTHER,	/* a bare 64-hex-digit component elsewhere (--cgroup-parent) */
	CGROUP_RT__COUNT
};

struct cgroup_container {
	enum cgroup_runtime runtime;
	char id[CGROUP_ID_MAX];	/* CGROUP_SHORT_ID hex digits, or the LXC name; "" on the host */
};

/*
 * cgroup_container - the container @path (NUL-terminated) is in, into @c:
 * the innermost component that names one (a container nested in another is
 * the inner one). Monitors run on the host beside their container, not in it,
 * and count as the host (or as the container they themselves run in):
 * podman's and cri-o's conmon ("libpod-conmon-ID.scope", "crio-conmon-ID.scope")
 * and LXC's monitor ("lxc.monitor.NAME", "/lxc.monitor/NAME"), as docker's
 * containerd-shim, which lives in containerd's service, does.
 * Returns c->runtime (CGROUP_RT_NONE, id "", for the host).
 */
enum cgroup_runtime cgroup_container(const char *path, struct cgroup_container *c);

/*
 * cgroup_container_span - the container's id in @path as cgroup_container()
 * finds it, whole (not shortened): its offset in *@off, its length in *@n,
 * and the bytes of @path up to the end of the component that holds it in
 * *@dir_len (the container's own cgroup). Returns the runtime (CGROUP_RT_NONE:
 * nothing set).
 */
enum cgroup_runtime cgroup_container_span(const char *path, size_t *off, size_t *n,
					  size_t *dir_len);

/* "docker", "containerd", "kubepods", "podman", "crio", "lxc", "container"; "" for none. */
const char *cgroup_runtime_name(enum cgroup_runtime rt);

/* What processes are grouped by (--group-by). */
enum cgroup_group_by {
	CGROUP_BY_COMM,
	CGROUP_BY_USER,
	CGROUP_BY_CGROUP,
	CGROUP_BY_UNIT,
	CGROUP_BY_CONTAINER,
	CGROUP_BY_POD,		/* a Kubernetes pod, "namespace/pod" (lib/cgname.h) */
	CGROUP_BY_NAMESPACE,	/* its namespace */
	CGROUP_BY__COUNT
};

/* "comm", "user", "cgroup", "unit", "container", "pod", "namespace" (the --group-by words). */
const char *cgroup_group_by_name(enum cgroup_group_by by);
/* The group-by named @s (exactly one of the words above): 0, or -EINVAL. */
int cgroup_group_by_parse(const char *s, enum cgroup_group_by *by);

/*
 * cgroup_group_key - the key of a task's group, into @out (@cap bytes):
 * its @comm, its @user name, its cgroup @path, the unit (cgroup_unit()) or
 * the container as "RUNTIME:ID" ("docker:0123456789ab"; "-" on the host),
 * the pod or namespace as cgname_group_key() without names gives them.
 * An input not known (NULL or "": a cgroup not read yet, a gone process)
 * gives "?". Returns the length written.
 */
size_t cgroup_group_key(enum cgroup_group_by by, const char *comm, const char *user,
			const char *path, char *out, size_t cap);

#endif
