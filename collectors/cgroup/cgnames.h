/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CGNAMES_H
#define KTOP_CGNAMES_H

/*
 * collectors/cgroup/cgnames: the names of containers and pods, read from the files
 * the runtimes leave on the node, once per cgroup path (never per tick), and
 * handed to the model in the sample (struct cg_named, lib/cgname.h):
 *  - Docker: ROOT/var/lib/docker/containers/ID/config.v2.json, "Name", and
 *    the compose labels com.docker.compose.project and .service (then the
 *    pod is "PROJECT/SERVICE" and the namespace the project);
 *  - Kubernetes (the pod UID in the path): ROOT/var/log/pods/NS_POD_UID for
 *    the namespace and pod, the container's name from
 *    ROOT/var/log/containers/POD_NS_NAME-ID.log, else the pod directory's
 *    only container directory, else ROOT/var/lib/kubelet/pods/UID/containers'.
 * Files only: no runtime is asked, nothing waits. A cgroup whose files are
 * not there keeps RUNTIME:ID (and is not looked at again); so does one whose
 * files the runtime could not have written (a link, a file or directory of
 * another user or that others may write: collectors/cgroup/hostfile.h).
 *
 * ROOT is "/" unless the environment variable KTOP_HOST_ROOT names another
 * directory (a host's root mounted elsewhere; tests).
 */

#include "../../model/model.h"

struct cgnames_src;

/* A resolver under @root (NULL: $KTOP_HOST_ROOT, else "/"). NULL only without memory. */
struct cgnames_src *cgnames_new(const char *root);
void cgnames_destroy(struct cgnames_src *c);

/*
 * cgnames_collect - the names of the cgroups of @m's tasks not looked at yet,
 * into @s (sample_add_named). Returns how many cgroups were looked at.
 */
size_t cgnames_collect(struct cgnames_src *c, const struct model *m, struct sample *s);

#endif
