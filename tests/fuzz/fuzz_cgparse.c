// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the container and cgroup-file parsers on any bytes, each
 * over an exact-size copy: the scan of Docker's config.v2.json (any depth,
 * the top level, a small and a large buffer: NUL-terminated, within its
 * capacity, never a cut character past it), what a cgroup path says and the
 * keys and directories made from it (bounded, within the path), the kubelet's
 * file names, and the pressure, keyed, limit and cpu.max files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/cgname.h"
#include "../../model/cgres.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise: say which, then crash (libFuzzer keeps the input). */
#define MUST(cond)                                                                   \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "fuzz_cgparse: line %d: %s\n", __LINE__, #cond); \
			abort();                                                     \
		}                                                                    \
	} while (0)

static void json(const char *buf, size_t size, const char *key, int depth, size_t cap)
{
	char out[256];
	int n = cgname_json_string(buf, size, key, depth, out, cap);

	MUST(n < (int)cap && (n < 0 || strlen(out) == (size_t)n) && strlen(out) < cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), key[CGROUP_KEY_MAX], dir[CGROUP_PATH_MAX];
	char ns[CGNAME_NS_MAX], pod[CGNAME_MAX];
	struct cg_name nm = { "c", "p", "n" };
	struct cg_ident id;
	uint64_t a, b;
	size_t n;
	int by;

	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	json(buf, size, "Name", 1, 256);
	json(buf, size, "com.docker.compose.service", 0, 5);
	cgparse_psi(buf, size, &a, &b);
	cgparse_key(buf, size, "nr_throttled", &a);
	cgparse_limit(buf, size, &a);
	cgparse_cpu_max(buf, size, &a, &b);
	/* The rest take a NUL-terminated string. */
	buf[size] = '\0';
	cgname_ident(buf, &id);
	MUST(id.ctr_len <= strlen(buf) && id.pod_len <= strlen(buf) && strlen(id.id) < sizeof(id.id));
	for (by = 0; by < CGROUP_BY__COUNT; by++) {
		n = cgname_group_key((enum cgroup_group_by)by, "comm", "user", buf, by & 1 ? &nm : NULL,
				     key, sizeof(key));
		MUST(n == strlen(key) && n < sizeof(key));
		n = cgname_group_dir((enum cgroup_group_by)by, buf, dir, sizeof(dir));
		MUST(n == strlen(dir) && (!n || !strncmp(dir, buf, n)));
		cgname_group_id((enum cgroup_group_by)by, buf, key, 8);
		MUST(strlen(key) < 8);
	}
	cgname_pod_dir(buf, "1f2e3d4c-5b6a-4789-8abc-def012345678", ns, sizeof(ns), pod, sizeof(pod));
	cgname_container_log(buf, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
			     pod, 16);
	free(buf);
	return 0;
}
