// SPDX-License-Identifier: GPL-2.0-only
#include "cgnames.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/util.h"
#include "hostfile.h"

/* config.v2.json read at most: a container's is a few KiB, with many labels tens. */
#define CONFIG_MAX (1 << 20)

struct cgnames_src {
	char root[512];			/* the host's root: its runtimes' files are under it */
	const char **seen;		/* cgroup paths looked at (interned pointers) */
	size_t nseen, cap;		/* open addressing; cap a power of two */
};

struct cgnames_src *cgnames_new(const char *root)
{
	struct cgnames_src *c = calloc(1, sizeof(*c));
	size_t n;

	if (!c)
		return NULL;
	if (!root)
		root = getenv("KTOP_HOST_ROOT");
	if (!root || !*root)
		root = "/";
	snprintf(c->root, sizeof(c->root), "%s", root);
	n = strlen(c->root);
	while (n > 1 && c->root[n - 1] == '/')
		c->root[--n] = '\0';
	return c;
}

void cgnames_destroy(struct cgnames_src *c)
{
	if (!c)
		return;
	free(c->seen);
	free(c);
}

static size_t slot(const struct cgnames_src *c, const char *p)
{
	size_t i = (size_t)((uintptr_t)p * 0x9e3779b97f4a7c15ull >> 20) & (c->cap - 1);

	while (c->seen[i] && c->seen[i] != p)
		i = (i + 1) & (c->cap - 1);
	return i;
}

/* Marks @p seen; false when it was already. */
static bool first_sight(struct cgnames_src *c, const char *p)
{
	size_t i;

	if ((c->nseen + 1) * 2 > c->cap) {
		const char **old = c->seen;
		size_t oc = c->cap;

		c->cap = c->cap ? c->cap * 2 : 256;
		c->seen = xcalloc(c->cap, sizeof(*c->seen));
		for (i = 0; i < oc; i++)
			if (old[i])
				c->seen[slot(c, old[i])] = old[i];
		free(old);
	}
	i = slot(c, p);
	if (c->seen[i])
		return false;
	c->seen[i] = p;
	c->nseen++;
	return true;
}

/*
 * A whole file @rel under the root (up to @cap - 1 bytes), NUL-terminated,
 * when the runtime could have written it (hostfile.h); its length or -errno.
 */
static ssize_t slurp(const struct cgnames_src *c, const char *rel, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;
	int fd = hostfile_open(c->root, rel);

	if (fd < 0)
		return -errno;
	while (n + 1 < cap) {
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return (ssize_t)n;
}

static bool docker_names(const struct cgnames_src *c, const char *id, struct cg_name *nm)
{
	char path[1024], project[CGNAME_NS_MAX], service[CGNAME_NS_MAX], *buf;
	ssize_t n;
	const char *name;
	bool ok = false;

	if (strlen(id) != 64)
		return false;
	snprintf(path, sizeof(path), "var/lib/docker/containers/%s/config.v2.json", id);
	buf = malloc(CONFIG_MAX);
	if (!buf)
		return false;
	n = slurp(c, path, buf, CONFIG_MAX);
	if (n > 0 && cgname_json_string(buf, (size_t)n, "Name", 1, nm->container,
					sizeof(nm->container)) > 0) {
		/* Docker keeps its names with a leading '/'. */
		name = nm->container[0] == '/' ? nm->container + 1 : nm->container;
		memmove(nm->container, name, strlen(name) + 1);
		ok = nm->container[0] != '\0';
		if (cgname_json_string(buf, (size_t)n, "com.docker.compose.project", 0, project,
				       sizeof(project)) > 0 &&
		    cgname_json_string(buf, (size_t)n, "com.docker.compose.service", 0, service,
				       sizeof(service)) > 0) {
			snprintf(nm->ns, sizeof(nm->ns), "%s", project);
			snprintf(nm->pod, sizeof(nm->pod), "%s/%s", project, service);
		}
	}
	free(buf);
	return ok;
}

/* The only subdirectory of @rel under the root into @out; false for none or several. */
static bool only_subdir(const struct cgnames_src *c, const char *rel, char *out, size_t cap)
{
	DIR *d = hostfile_opendir(c->root, rel);
	struct dirent *e;
	int found = 0;

	if (!d)
		return false;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
			continue;
		if (found++)
			break;
		snprintf(out, cap, "%s", e->d_name);
	}
	closedir(d);
	return found == 1;
}

static bool pod_names(const struct cgnames_src *c, const struct cg_ident *id, struct cg_name *nm)
{
	char path[1024], ctr[256] = "", dname[256] = "";
	struct dirent *e;
	DIR *d;

	d = hostfile_opendir(c->root, "var/log/pods");
	while (d && (e = readdir(d)) != NULL)
		if (cgname_pod_dir(e->d_name, id->pod_uid, nm->ns, sizeof(nm->ns), nm->pod,
				   sizeof(nm->pod))) {
			snprintf(dname, sizeof(dname), "%s", e->d_name);
			break;
		}
	if (d)
		closedir(d);
	if (!dname[0]) {
		nm->ns[0] = nm->pod[0] = '\0';
	} else {
		/* "namespace/pod", the name kubectl takes. */
		char pod[CGNAME_MAX];

		snprintf(pod, sizeof(pod), "%s", nm->pod);
		snprintf(nm->pod, sizeof(nm->pod), "%.63s/%.95s", nm->ns, pod);
	}
	if (id->runtime == CGROUP_RT_NONE)
		return dname[0] != '\0';
	/* The container: its log link names it by id, else a pod of one container. */
	d = hostfile_opendir(c->root, "var/log/containers");
	while (d && (e = readdir(d)) != NULL)
		if (cgname_container_log(e->d_name, id->id, ctr, sizeof(ctr)))
			break;
	if (d)
		closedir(d);
	if (!ctr[0] && dname[0]) {
		snprintf(path, sizeof(path), "var/log/pods/%s", dname);
		only_subdir(c, path, ctr, sizeof(ctr));
	}
	if (!ctr[0]) {
		snprintf(path, sizeof(path), "var/lib/kubelet/pods/%s/containers", id->pod_uid);
		only_subdir(c, path, ctr, sizeof(ctr));
	}
	if (dname[0] && ctr[0])
		snprintf(nm->container, sizeof(nm->container), "%.100s/%.58s", nm->pod, ctr);
	else if (dname[0])
		snprintf(nm->container, sizeof(nm->container), "%.140s/%.12s", nm->pod, id->id);
	else if (ctr[0])
		snprintf(nm->container, sizeof(nm->container), "pod:%.39s/%.100s", id->pod_uid, ctr);
	return nm->container[0] || dname[0];
}

/* @path's names from the node's files; false when none were found. */
static bool resolve(const struct cgnames_src *c, const char *path, struct cg_name *nm)
{
	struct cg_ident id;

	memset(nm, 0, sizeof(*nm));
	if (!cgname_ident(path, &id))
		return false;
	if (id.pod_uid[0])
		return pod_names(c, &id, nm);
	if (id.runtime != CGROUP_RT_NONE && id.runtime != CGROUP_RT_LXC)
		return docker_names(c, id.id, nm);
	return false;
}

size_t cgnames_collect(struct cgnames_src *c, const struct model *m, struct sample *s)
{
	struct cg_name nm;
	size_t i, looked = 0;

	if (!c)
		return 0;
	for (i = 0; i < m->ntasks; i++) {
		const char *p = m->tasks[i]->cgroup;

		if (!p || !first_sight(c, p))
			continue;
		looked++;
		if (resolve(c, p, &nm)) {
			struct cg_named *e = sample_add_named(s);

			e->cgroup = p;
			e->name = nm;
		}
	}
	return looked;
}
