// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktop --version: the version, what this build can do and with which
 * libraries (the optional ones found or not, never loaded: --version stays
 * as fast as a start), and what the running kernel offers ktop. Only stat()s,
 * one mountinfo read and one netlink exchange: a few hundred microseconds.
 */
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sqlite3.h>
#include <zlib.h>

#include "../collectors/trace/evdecode.h"
#include "../collectors/exits/taskstats.h"
#include "../lib/dl.h"
#include "../lib/util.h"

/*
 * Where the loader would find @l: LD_LIBRARY_PATH's directories, then the
 * file the build linked against (its soname in the system's library
 * directory). Returns the path, or NULL.
 */
static const char *dl_where(const struct dl_lib *l, char *buf, size_t len)
{
	const char *p = getenv("LD_LIBRARY_PATH");

	while (p && *p) {
		size_t n = strcspn(p, ":");

		snprintf(buf, len, "%.*s/%s", (int)n, p, l->soname);
		if (n && !access(buf, R_OK))
			return buf;
		p += n + (p[n] == ':');
	}
	return access(l->path, R_OK) ? NULL : l->path;
}

static void print_libraries(FILE *f)
{
	char buf[PATH_MAX];
	const char *last = NULL;
	size_t i;

	fprintf(f, "built with: tracing (libtracefs, libtraceevent), recording and replay (SQLite %s, zlib %s)\n",
		sqlite3_libversion(), zlibVersion());
	fputs("loaded when asked:", f);
	for (i = 0; i < dl_nfeatures; i++) {
		const struct dl_feature *d = &dl_features[i];
		bool first = !last || strcmp(last, d->option);

		if (first)
			fprintf(f, "%s %s %s (", last ? ")," : "", d->feature, d->option);
		fprintf(f, "%s%s%s", first ? "" : ", ", d->lib->soname,
			dl_where(d->lib, buf, sizeof(buf)) ? "" : " NOT FOUND");
		last = d->option;
	}
	fputs(last ? ")\n" : "\n", f);
}

/* The tracefs mount point, from mountinfo (libtracefs would mount it). */
static bool tracefs_dir(char *dir, size_t len)
{
	FILE *m = fopen("/proc/self/mountinfo", "re");
	char line[1024], mnt[512], type[64];
	bool found = false;

	if (!m)
		return false;
	while (!found && fgets(line, sizeof(line), m)) {
		const char *dash = strstr(line, " - ");

		if (dash && sscanf(line, "%*s %*s %*s %*s %511s", mnt) == 1 &&
		    sscanf(dash + 3, "%63s", type) == 1 && !strcmp(type, "tracefs")) {
			snprintf(dir, len, "%s", mnt);
			found = true;
		}
	}
	fclose(m);
	return found;
}

static bool exists(const char *dir, const char *rel)
{
	char path[1200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return !stat(path, &st);
}

/* A system call the kernel has: anything but ENOSYS for bad arguments. */
static bool has_syscall(long nr)
{
	return syscall(nr, -1, NULL, 0, 0) >= 0 || errno != ENOSYS;
}

static void print_kernel(FILE *f)
{
	char dir[512], path[600], missing[256] = "", why[160];
	struct taskstats_listener *ts = NULL;
	struct utsname u;
	size_t used = 0, n = 0;
	int k;

	fprintf(f, "kernel %s:", uname(&u) ? "?" : u.release);
	if (!tracefs_dir(dir, sizeof(dir))) {
		fputs(" tracefs not mounted (tracing off)", f);
	} else {
		snprintf(path, sizeof(path), "%s/instances", dir);
		fprintf(f, " tracefs at %s (%s)", dir,
			faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) ? "not writable here: tracing off" :
			"instances writable");
		for (k = 0; k < EV_NR; k++) {
			snprintf(path, sizeof(path), "events/%s/%s", ev_system(k), ev_name(k));
			if (exists(dir, path)) {
				n++;
			} else if (used < sizeof(missing)) {
				used += (size_t)snprintf(missing + used, sizeof(missing) - used, " %s:%s",
							 ev_system(k), ev_name(k));
			}
		}
		fprintf(f, ", events %zu of %d%s%s", n, EV_NR, missing[0] ? ", missing:" : "", missing);
		if (exists(dir, "buffer_subbuf_size_kb"))
			fputs(", large sub-buffers", f);
	}
	if (taskstats_open(4096, &ts, why, sizeof(why)) == 0) {
		fputs(", taskstats exit records", f);
		taskstats_close(ts);
	} else {
		fprintf(f, ", no taskstats exit records (%s)", why);
	}
	if (exists("/sys/fs/cgroup", "cgroup.controllers"))
		fputs(", cgroup v2", f);
	if (exists("/proc/pressure", "cpu"))
		fputs(", pressure (PSI)", f);
#ifdef SYS_pidfd_open
	if (has_syscall(SYS_pidfd_open))
		fputs(", pidfd", f);
#endif
#ifdef SYS_openat2
	if (has_syscall(SYS_openat2))
		fputs(", openat2", f);
#endif
	fputc('\n', f);
}

void version_print(FILE *f)
{
	fprintf(f, "ktop %s\n", KTOP_VERSION);
	print_libraries(f);
	print_kernel(f);
}
