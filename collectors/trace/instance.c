// SPDX-License-Identifier: GPL-2.0-only
#include "instance.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "../clocks.h"
#include "flight.h"
#include "../proc/procfs.h"
#include "../system/sysparse.h"
#include "../../lib/util.h"

#define INSTANCE_PREFIX "ktop-"
#define MAX_CPUS 1024
/* The counting instance's events (evdecode.h's kinds, EV_NR at most). */
#define MAX_EVENTS 24
#define SUBBUF_KB 64
#define SUBBUF_KB_STR "64"

struct instance_cpu {
	int fd;			/* trace_pipe_raw, O_NONBLOCK; -1 if the CPU has none */
	int stats_fd;		/* per_cpu/cpuN/stats, re-read with pread */
	struct tracefs_cpu *tcpu;
	uint64_t lost;		/* overrun + dropped, last read */
};

struct instance {
	struct tracefs_instance *inst;
	char name[64];
	int slot;		/* emergency[] slot; -1 = none */
	int ncpus;
	struct instance_cpu *cpu;
	int page_size;
	size_t buffer_kb;
	bool on[MAX_EVENTS];
	struct flight *flight;	/* the pages read are kept there too; NULL: not */
	int flight_buf;		/* its buffer there */
};

/*
 * What a fatal signal handler needs to stop tracing without libtracefs or
 * malloc: one slot per instance (the main one and a focus view's).
 */
#define EMERGENCY_SLOTS 2
static struct {
	volatile sig_atomic_t armed;
	char tracing_on[PATH_MAX];
	char dir[PATH_MAX];	/* the instance, for instance_emergency_remove; "" = none */
} emergency[EMERGENCY_SLOTS];

/* The start time of process @pid, in clock ticks since boot; false if there is none. */
static bool start_of(pid_t pid, uint64_t *start)
{
	char path[64], buf[4096];
	struct pid_stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = read_small_file(path, buf, sizeof(buf));
	if (n <= 0 || procfs_parse_pid_stat(buf, (size_t)n, &st))
		return false;
	*start = st.starttime;
	return true;
}

int instance_parse_name(const char *name, pid_t *pid, uint64_t *start, bool *focus)
{
	const char *p = name + strlen(INSTANCE_PREFIX);
	char *end;
	unsigned long long v;

	if (strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) || !(*p >= '1' && *p <= '9'))
		return -1;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno || v > INT32_MAX)
		return -1;
	*pid = (pid_t)v;
	*start = 0;
	*focus = false;
	if (*end == '-' && end[1] >= '0' && end[1] <= '9') {
		p = end + 1;
		v = strtoull(p, &end, 10);
		if (errno)
			return -1;
		*start = v;
	}
	if (!strcmp(end, "-f"))
		*focus = true;
	else if (*end)
		return -1;
	return *start ? 0 : 1;
}

bool instance_maker_alive(int format, uint64_t start, bool exists, uint64_t now_start)
{
	/* ktop-PID-START: the same pid with the same boot-relative start is the maker. */
	if (format == 0)
		return exists && now_start == start;
	/*
	 * ktop-PID, an older ktop's: no start time to compare with. Gone only
	 * when no process has the pid; one that has it may be the maker.
	 */
	return exists;
}

/* Instance names ktop-PID-START[-f] (and older ktops' ktop-PID[-f]), collected. */
static int collect_ours(const char *name, void *arg)
{
	char ***names = arg, **n;
	uint64_t start;
	pid_t pid;
	bool focus;

	if (instance_parse_name(name, &pid, &start, &focus) < 0)
		return 0;
	n = tracefs_list_add(*names, name);
	if (n)
		*names = n;
	return 0;
}

/*
 * Remove instances of ktops that are gone; a live ktop's are left alone, and
 * our own are never touched here (a name in use is refused by instance_open).
 * Liveness comes from the pid and start time in the name, both relative to
 * boot: a clock step or a VM resume cannot make a running ktop look dead.
 */
static void remove_stale(void)
{
	/*
	 * Listed with a plain walk: tracefs_instances(regex) of libtracefs 1.6
	 * never frees its compiled regex (22 kB lost per call under valgrind).
	 */
	char **names = NULL;
	size_t i;

	if (tracefs_instances_walk(collect_ours, &names) < 0 || !names) {
		tracefs_list_free(names);
		return;
	}
	for (i = 0; names[i]; i++) {
		uint64_t start, now_start = 0;
		struct tracefs_instance *inst;
		bool focus, exists;
		pid_t pid;
		int format = instance_parse_name(names[i], &pid, &start, &focus);

		exists = start_of(pid, &now_start);
		if (pid == getpid() || instance_maker_alive(format, start, exists, now_start))
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (!inst)
			continue;
		tracefs_instance_file_write(inst, "tracing_on", "0");
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
}

/* The kernel's initial pid namespace: a fixed inode number (PROC_PID_INIT_INO). */
#define PID_NS_INIT_INO 0xEFFFFFFCull

/*
 * Events carry the kernel's global pids (those of the initial pid namespace),
 * and set_event_pid and set_event_notrace_pid take them too. Inside another
 * pid namespace (unshare -p, a container) /proc and getpid() give other
 * numbers: nothing could be matched (ktop's own pid, 1 there, is the host's
 * init). So: trace only in the initial namespace, and only with a /proc of it
 * (NSpid: one entry, our own pid).
 */
static bool pids_mappable(char *why, size_t whylen)
{
	char buf[4096], *ns;
	struct stat st;
	ssize_t n;

	if (stat("/proc/self/ns/pid", &st) == 0 && st.st_ino != PID_NS_INIT_INO)
		goto other;
	n = read_small_file("/proc/self/status", buf, sizeof(buf));
	if (n <= 0 || !(ns = strstr(buf, "\nNSpid:")))
		return true;	/* a kernel without pid namespaces */
	ns += 7;
	while (*ns == ' ' || *ns == '\t')
		ns++;
	if (strtol(ns, &ns, 10) == (long)getpid() && *ns == '\n')
		return true;
other:
	snprintf(why, whylen, "tracing off: ktop runs in a pid namespace (a container?): "
		 "the kernel's event pids are not its pids");
	return false;
}

/* Per-CPU buffer: enough for a syscall flood to wait out a slow reader. */
static size_t pick_buffer_kb(int ncpus)
{
	struct sys_mem mem;
	char buf[4096];
	size_t kb = 8192;
	ssize_t n = read_small_file("/proc/meminfo", buf, sizeof(buf));

	/* At most 1/64 of the available memory for all buffers together. */
	if (n > 0 && !sysparse_meminfo(buf, (size_t)n, &mem) && mem.has_available && ncpus > 0 &&
	    mem.available / 64 / (uint64_t)ncpus < kb)
		kb = (size_t)(mem.available / 64 / (uint64_t)ncpus);
	return kb < 1024 ? 1024 : kb;
}

static int write_file(struct instance *t, const char *file, const char *val)
{
	if (tracefs_instance_file_write(t->inst, file, val) >= 0)
		return 0;
	return errno ? -errno : -EIO;
}

/*
 * A new instance runs the default clock (local, unless the kernel's
 * trace_clock= said otherwise). Writing a clock, the same one too, empties the
 * buffers and waits for an RCU grace period: 30 ms here, a third of the
 * time tracing took to start. Written only when it changes.
 */
static int set_clock(struct instance *t, const char *clock)
{
	char *cur = tracefs_get_clock(t->inst);
	bool same = cur && !strcmp(cur, clock);

	free(cur);
	return same ? 0 : write_file(t, "trace_clock", clock);
}

/*
 * Every write to set_event_pid waits for an RCU grace period in the kernel
 * (event_pid_write -> tracepoint_synchronize_unregister: 20-70 ms each), and
 * adds its ids to the list (only an open with O_TRUNC empties it). One id a
 * write froze ktop for 6 minutes on a process of 10,000 threads; the kernel
 * parses a whole space-separated list per write, so all the ids go in one
 * write (10,000 ids, 60 kB: 5 ms), whatever their number.
 */
static int write_pid_list(struct instance *t, const pid_t *pids, size_t n)
{
	char *path = tracefs_instance_get_file(t->inst, "set_event_pid");
	size_t cap = n * 12 + 1, len = 0, off = 0;
	char *buf = xmalloc(cap);
	int fd, err = 0;
	size_t i;

	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%d", i ? " " : "", (int)pids[i]);
	fd = path ? open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) : -1;
	if (fd < 0) {
		err = path ? -errno : -ENOMEM;
		goto out;
	}
	/* The kernel takes whole ids: a short write leaves the rest, ids whole. */
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = w < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)w;
	}
	close(fd);
out:
	free(buf);
	tracefs_put_tracing_file(path);
	return err;
}

static int set_pids(struct instance *t, const struct instance_config *cfg)
{
	char buf[32];
	int err;

	/*
	 * System-wide, ktop's own calls are dropped as they are decoded
	 * (evdecode.h, self): a pid list of any kind makes the kernel run
	 * two probes on every context switch and wakeup it records, which
	 * cost the context-switch flood half again what ktop's reading does.
	 * With -p they run anyway: ktop is kept out there too.
	 */
	if (!cfg->pids)
		return 0;
	snprintf(buf, sizeof(buf), "%d", (int)getpid());
	err = write_file(t, "set_event_notrace_pid", buf);
	if (err)
		return err;
	if (cfg->npids) {
		err = write_pid_list(t, cfg->pids, cfg->npids);
		if (err)
			return err;
	}
	if (cfg->follow_forks && tracefs_option_enable(t->inst, TRACEFS_OPTION_EVENT_FORK))
		return -EIO;
	return 0;
}

static int open_cpus(struct instance *t)
{
	char path[PATH_MAX], rel[64];
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	int i, opened = 0;

	t->ncpus = conf > 0 && conf < MAX_CPUS ? (int)conf : MAX_CPUS;
	t->cpu = xcalloc((size_t)t->ncpus, sizeof(*t->cpu));
	for (i = 0; i < t->ncpus; i++) {
		struct instance_cpu *c = &t->cpu[i];
		char *p;

		c->fd = c->stats_fd = -1;
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", i);
		p = tracefs_instance_get_file(t->inst, rel);
		if (!p)
			continue;
		snprintf(path, sizeof(path), "%s", p);
		tracefs_put_tracing_file(p);
		/* An offline or absent CPU has no buffer: skip it. */
		c->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->fd < 0)
			continue;
		c->tcpu = tracefs_cpu_alloc_fd(c->fd, t->page_size, true);
		if (!c->tcpu) {
			close(c->fd);
			c->fd = -1;
			return -ENOMEM;
		}
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", i);
		p = tracefs_instance_get_file(t->inst, rel);
		if (p) {
			c->stats_fd = open(p, O_RDONLY | O_CLOEXEC);
			tracefs_put_tracing_file(p);
		}
		opened++;
	}
	return opened ? 0 : -ENODEV;
}

static void arm_emergency(struct instance *t)
{
	char *p = tracefs_instance_get_dir(t->inst);
	int i;

	t->slot = -1;
	if (!p)
		return;
	for (i = 0; i < EMERGENCY_SLOTS && emergency[i].armed; i++)
		;
	if (i < EMERGENCY_SLOTS) {
		snprintf(emergency[i].tracing_on, sizeof(emergency[i].tracing_on), "%s/tracing_on", p);
		snprintf(emergency[i].dir, sizeof(emergency[i].dir), "%s", p);
		emergency[i].armed = 1;
		t->slot = i;
	}
	tracefs_put_tracing_file(p);
}

/*
 * The flight recorder keeps this instance's pages: its buffer there, with
 * the sub-buffer's layout (this instance's header_page: its sub-buffer
 * size) and the events enabled.
 */
static void keep_pages(struct instance *t, const struct instance_config *cfg)
{
	const char *ev[MAX_EVENTS][2];
	size_t i, n = 0;
	int len = 0;
	char *hp = tracefs_instance_file_read(t->inst, "events/header_page", &len);

	for (i = 0; i < cfg->nevents; i++)
		if (t->on[i]) {
			ev[n][0] = cfg->events[i][0];
			ev[n++][1] = cfg->events[i][1];
		}
	if (hp && len > 0) {
		t->flight_buf = flight_buffer(cfg->flight, t->name, cfg->clock ? cfg->clock : "local",
					      t->page_size, t->ncpus, hp, (size_t)len,
					      (const char *const (*)[2])ev, n);
		if (t->flight_buf >= 0)
			t->flight = cfg->flight;
	}
	free(hp);
}

int instance_open(const struct instance_config *cfg, struct instance **out, char *why, size_t whylen,
	       char *missing, size_t missinglen)
{
	const char *dir = NULL;
	struct instance *t;
	size_t i, used = 0;
	int mounted, err, nenabled = 0;
	char buf[32], path[PATH_MAX];
	uint64_t self_start;

	*out = NULL;
	if (missing && missinglen)
		missing[0] = '\0';
	/* Root mounts tracefs where it belongs when nobody did. */
	mounted = tracefs_tracing_dir_is_mounted(geteuid() == 0, &dir);
	if (mounted < 0 || !dir || (mounted == 0 && geteuid() != 0)) {
		snprintf(why, whylen, "tracing off: tracefs is not mounted (root mounts it)");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	/* The effective ids (and capabilities) decide, as for the mkdir that follows. */
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS)) {
		if (errno == EROFS) {
			snprintf(why, whylen, "tracing off: tracefs is mounted read-only at %s", dir);
			return -EROFS;
		}
		snprintf(why, whylen, "tracing off: needs root or write access to %s", path);
		return -EACCES;
	}
	if (cfg->nevents > MAX_EVENTS) {
		snprintf(why, whylen, "tracing off: %zu events asked, at most %d", cfg->nevents,
			 MAX_EVENTS);
		return -EINVAL;
	}
	if (!pids_mappable(why, whylen))
		return -EXDEV;
	if (!start_of(getpid(), &self_start)) {
		snprintf(why, whylen, "tracing off: cannot read /proc/self/stat");
		return -EIO;
	}
	t = xcalloc(1, sizeof(*t));
	t->slot = -1;
	snprintf(t->name, sizeof(t->name), INSTANCE_PREFIX "%d-%llu%s", (int)getpid(),
		 (unsigned long long)self_start, cfg->name_suffix ? cfg->name_suffix : "");
	remove_stale();

	t->inst = tracefs_instance_create(t->name);
	if (!t->inst || !tracefs_instance_is_new(t->inst)) {
		/* Somebody made it already: never configure, and never remove, theirs. */
		err = !t->inst ? (errno ? -errno : -EIO) : -EEXIST;
		snprintf(why, whylen, "tracing off: cannot create tracefs instance %s: %s", t->name,
			 strerror(-err));
		tracefs_instance_free(t->inst);
		free(t);
		return err;
	}
	arm_emergency(t);
	/* A new instance records at once: off first, configure, start last. */
	err = write_file(t, "tracing_on", "0");
	if (err)
		goto fail;
	t->page_size = getpagesize();
	t->buffer_kb = cfg->buffer_kb;
	if (cfg->keep_buffer) {
		/* Growing them is 30 ms of the kernel's time (page allocation, RCU waits). */
		ssize_t kb = tracefs_instance_get_buffer_size(t->inst, 0);

		t->buffer_kb = kb > 0 ? (size_t)kb : 1024;
		goto sized;
	}
	if (!t->buffer_kb) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		t->buffer_kb = pick_buffer_kb(n > 0 ? (int)n : 1);
	}
	/*
	 * Larger sub-buffers (Linux 6.8+): the reader swaps a page out of the
	 * writer's ring once per sub-buffer, with interrupts off; at 4 KiB that
	 * swap was a sixth of ktop's time in a syscall flood. Older kernels lack
	 * the file and keep pages; so do small buffers (KTOP_BUFFER_KB), which
	 * need many sub-buffers.
	 */
	if (t->buffer_kb >= 16 * SUBBUF_KB &&
	    write_file(t, "buffer_subbuf_size_kb", SUBBUF_KB_STR) == 0)
		t->page_size = SUBBUF_KB * 1024;
	if (tracefs_instance_set_buffer_size(t->inst, t->buffer_kb, -1) < 0) {
		err = -ENOMEM;
		goto fail;
	}
sized:
	snprintf(buf, sizeof(buf), "%u", cfg->buffer_percent);
	err = write_file(t, "buffer_percent", buf);
	if (err)
		goto fail;
	err = set_pids(t, cfg);
	if (err)
		goto fail;
	if (cfg->clock) {
		err = set_clock(t, cfg->clock);
		if (err)
			goto fail;
	}
	for (i = 0; i < cfg->nevents; i++) {
		const char *sys = cfg->events[i][0], *ev = cfg->events[i][1];

		char file[128];

		/* Straight to the file: tracefs_event_enable would match regexes over every system. */
		snprintf(file, sizeof(file), "events/%s/%s/enable", sys, ev);
		if (write_file(t, file, "1") == 0) {
			t->on[i] = true;
			nenabled++;
		} else if (missing && used + strlen(sys) + strlen(ev) + 3 < missinglen) {
			used += (size_t)snprintf(missing + used, missinglen - used, "%s%s:%s",
						 used ? " " : "", sys, ev);
		}
	}
	if (!nenabled) {
		err = -ENOENT;
		snprintf(why, whylen, "tracing off: none of the events ktop uses exist here");
		goto fail_quiet;
	}
	err = open_cpus(t);
	if (err)
		goto fail;
	if (cfg->flight)
		keep_pages(t, cfg);
	err = write_file(t, "tracing_on", "1");
	if (err)
		goto fail;
	*out = t;
	return 0;
fail:
	snprintf(why, whylen, "tracing off: cannot set up the trace instance: %s", strerror(-err));
fail_quiet:
	instance_close(t);
	return err;
}

void instance_close(struct instance *t)
{
	int i;

	if (!t)
		return;
	if (t->inst)
		tracefs_instance_file_write(t->inst, "tracing_on", "0");
	for (i = 0; t->cpu && i < t->ncpus; i++) {
		if (t->cpu[i].tcpu)
			tracefs_cpu_free_fd(t->cpu[i].tcpu);
		if (t->cpu[i].fd >= 0)
			close(t->cpu[i].fd);
		if (t->cpu[i].stats_fd >= 0)
			close(t->cpu[i].stats_fd);
	}
	if (t->slot >= 0) {
		emergency[t->slot].armed = 0;
		emergency[t->slot].dir[0] = '\0';
	}
	if (t->inst) {
		/* Removing the instance disables its events; open files would block it. */
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	free(t->cpu);
	free(t);
}

void instance_emergency_stop(void)
{
	int fd, i;

	for (i = 0; i < EMERGENCY_SLOTS; i++) {
		if (!emergency[i].armed)
			continue;
		emergency[i].armed = 0;
		fd = open(emergency[i].tracing_on, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (write(fd, "0", 1) < 0) {
			/* Nothing more can be done from here. */
		}
		close(fd);
	}
	/*
	 * No rmdir here. libtracefs's splice pipes may hold ring-buffer pages,
	 * and this handler cannot close them: removing the instance first makes
	 * the kernel free those pages twice when the process exits (seen on
	 * 6.18: a GPF in ring_buffer_free_read_page and a corrupted page cache).
	 * The instance stays, tracing off, until the next ktop removes it.
	 */
}

void instance_emergency_remove(void)
{
	int i;

	instance_emergency_stop();
	for (i = 0; i < EMERGENCY_SLOTS; i++)
		if (emergency[i].dir[0] && !rmdir(emergency[i].dir))
			emergency[i].dir[0] = '\0';
}

char *instance_read_format(const char *rel, size_t *len)
{
	char path[PATH_MAX];
	int n = 0;
	char *s;

	snprintf(path, sizeof(path), "events/%s", rel);
	s = tracefs_instance_file_read(NULL, path, &n);
	*len = s && n > 0 ? (size_t)n : 0;
	return s;
}

bool instance_event_on(const struct instance *t, size_t i)
{
	return i < MAX_EVENTS && t->on[i];
}

void instance_event_off(struct instance *t, size_t i, const char *sys, const char *ev)
{
	char file[128];

	if (i >= MAX_EVENTS || !t->on[i])
		return;
	snprintf(file, sizeof(file), "events/%s/%s/enable", sys, ev);
	write_file(t, file, "0");
	t->on[i] = false;
}

int instance_ncpus(const struct instance *t)
{
	return t->ncpus;
}

int instance_cpu_fd(const struct instance *t, int i)
{
	return t->cpu[i].fd;
}

size_t instance_pollfds(const struct instance *t, struct pollfd *pfd, size_t max)
{
	size_t n = 0;
	int i;

	for (i = 0; i < t->ncpus && n < max; i++) {
		if (t->cpu[i].fd < 0)
			continue;
		pfd[n].fd = t->cpu[i].fd;
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		n++;
	}
	return n;
}

int instance_page_size(const struct instance *t)
{
	return t->page_size;
}

int instance_read_page(struct instance *t, int i, void *page, bool flush, bool *partial)
{
	struct instance_cpu *c = &t->cpu[i];
	int n;

	if (partial)
		*partial = false;
	if (!c->tcpu)
		return 0;
	/* Whole sub-buffers through the splice pipe first, then the partial one. */
	n = tracefs_cpu_buffered_read(c->tcpu, page, true);
	if (n <= 0 && flush) {
		n = tracefs_cpu_flush(c->tcpu, page);
		if (partial)
			*partial = true;
	}
	if (n < 0)
		return errno == EAGAIN || errno == EINTR || !errno ? 0 : -errno;
	if (n > 0 && t->flight)
		flight_keep(t->flight, t->flight_buf, i, page, (size_t)n);
	return n;
}

int instance_clock_now(struct instance *t, unsigned tries, uint64_t *raw, uint64_t *lo, uint64_t *hi,
		    int *in_ns)
{
	uint64_t best = UINT64_MAX;
	char buf[512];
	int i, fd = -1;

	for (i = 0; i < t->ncpus && fd < 0; i++)
		fd = t->cpu[i].stats_fd;
	if (fd < 0)
		return -ENOENT;
	while (tries--) {
		uint64_t a, b, r;
		ssize_t n;
		int ns;

		a = clocks_mono_ns();
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		b = clocks_mono_ns();
		if (n <= 0 || sysparse_trace_now_ts(buf, (size_t)n, &r, &ns))
			continue;
		if (b - a < best) {
			best = b - a;
			*raw = r;
			*lo = a;
			*hi = b;
			*in_ns = ns;
		}
	}
	return best == UINT64_MAX ? -EIO : 0;
}

int instance_file_open(const struct instance *t, const char *file, int flags)
{
	char *p = tracefs_instance_get_file(t->inst, file);
	int fd;

	if (!p)
		return -ENOMEM;
	fd = open(p, flags | O_CLOEXEC);
	tracefs_put_tracing_file(p);
	return fd < 0 ? -errno : fd;
}

int instance_set_clock(struct instance *t, const char *clock)
{
	int err = set_clock(t, clock);

	if (!err && t->flight)
		flight_buffer_clock(t->flight, t->flight_buf, clock);
	return err;
}

static uint64_t stats_field(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

uint64_t instance_lost(struct instance *t)
{
	uint64_t sum = 0;
	char buf[512];
	int i;

	for (i = 0; i < t->ncpus; i++) {
		struct instance_cpu *c = &t->cpu[i];
		ssize_t n;

		if (c->stats_fd < 0)
			continue;
		n = pread(c->stats_fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			c->lost = stats_field(buf, "overrun: ") + stats_field(buf, "dropped events: ");
		}
		sum += c->lost;
	}
	return sum;
}

size_t instance_buffer_kb(const struct instance *t)
{
	return t->buffer_kb;
}

/* The page walk (instance.h): a sub-buffer's header, and what is not a data record. */
#define COMMIT_MASK ((1u << 27) - 1)
#define MISSED_EVENTS (1ull << 31)
#define MISSED_STORED (1ull << 30)
#define TYPE_PADDING 29		/* delta 0: nothing more on the page */
#define TYPE_TIME_EXTEND 30	/* a delta too large for 27 bits */
#define TYPE_TIME_STAMP 31	/* an absolute time stamp */
#define TS_SHIFT 27
#define TS_MSB (0xf8ull << 56)	/* bits an absolute time stamp lacks */

bool rbpage_host_ok(void)
{
	return sizeof(long) == 8 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

int rbpage_load(struct rbpage *p, const void *sub, size_t size, long *missed)
{
	uint64_t commit, ts;
	unsigned len;

	*missed = 0;
	if (size < RBPAGE_HDR_SIZE)
		return -EINVAL;
	memcpy(&ts, sub, sizeof(ts));
	memcpy(&commit, (const uint8_t *)sub + 8, sizeof(commit));
	len = (unsigned)(commit & COMMIT_MASK);
	if (len > size - RBPAGE_HDR_SIZE)
		return -EINVAL;
	p->data = (const uint8_t *)sub + RBPAGE_HDR_SIZE;
	p->len = len;
	p->off = 0;
	p->ts = ts;
	p->malformed = 0;
	if (commit & MISSED_EVENTS) {
		int64_t n = -1;

		if ((commit & MISSED_STORED) && (size_t)len + 8 <= size - RBPAGE_HDR_SIZE)
			memcpy(&n, p->data + len, sizeof(n));
		*missed = n < 0 ? -1 : (long)n;
	}
	return 0;
}

/* An absolute time stamp lacks the top bits: they come from the time before. */
static uint64_t fix_abs_ts(uint64_t abs, uint64_t prev)
{
	if (prev & TS_MSB) {
		abs |= prev & TS_MSB;
		if (abs < prev)
			abs += 1ull << 59;
	}
	return abs;
}

bool rbpage_skip(struct rbpage *p, uint32_t hdr)
{
	uint32_t arr, delta = hdr >> 5;

	if (p->len - p->off < 8)
		return false;
	memcpy(&arr, p->data + p->off + 4, 4);
	switch (hdr & 0x1f) {
	case TYPE_PADDING:
		/* Delta 0: the page ends here. Otherwise a discarded record, timeless. */
		if (!delta || arr > p->len - p->off - 4)
			return false;
		p->off += 4 + arr;
		return true;
	case TYPE_TIME_EXTEND:
		p->ts += ((uint64_t)arr << TS_SHIFT) + delta;
		break;
	case TYPE_TIME_STAMP:
		p->ts = fix_abs_ts(((uint64_t)arr << TS_SHIFT) | delta, p->ts);
		break;
	default:
		return false;
	}
	p->off += 8;
	return true;
}
