// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder (flightctl.h): the ring made before tracing starts,
 * saves asked for and written, the triggers read at each interval.
 *
 * --flight's default, 64 MiB: on this 2-CPU VM an idle system's pages (the
 * counting instance's, ktop's own calls included) come at about 20 KiB/s
 * and a busy desktop's at 1-3 MiB/s, so 64 MiB holds minutes of an
 * ordinary system and tens of seconds of a busy one; a syscall flood (tens
 * of MiB/s a CPU) fills it in a second or two, which a save still holds
 * whole. It is what the ring buffers themselves take at the default of 8
 * MiB a CPU on a machine of 8 CPUs, and a save of it takes a fraction of a
 * second (bench numbers: man page, FLIGHT RECORDER).
 */
#include "flightctl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../collectors/clocks.h"
#include "../collectors/trace/flight.h"
#include "../collectors/trace/flightsave.h"
#include "../collectors/focus/focus.h"
#include "../collectors/proc/procfs.h"
#include "../lib/util.h"
#include "../model/sample.h"
#include "../store/recfile.h"
#include "../store/tracedat.h"
#include "../tables/trigger.h"
#include "ktop.h"

struct flightctl {
	struct flight *fl;
	struct trigger trig[OPT_LIST_MAX];
	size_t ntrig;
	struct groups groups[CGROUP_BY__COUNT];
	uint64_t oom_prev;
	bool oom_known;
	/* The save asked for and not written yet. */
	bool pending;
	uint64_t due_ns;
	uint64_t held_back;		/* the ring's count when it was asked for */
	char why[512];
	/* The rate limit of the triggers. */
	bool triggered;
	uint64_t last_trigger_ns;
	uint64_t suppressed;
	/* What the saves did. */
	uint64_t files, bytes, failures;
	/* Said while the live view ends (its screen is gone): for stderr, after it. */
	bool ending;
	char late[2048];
	uint64_t save_ns_last, save_ns_max, pages_in, pages_out;
};

static void say(struct ktop *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct ktop *k, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (k->mode->screen && k->flight && k->flight->ending) {
		size_t n = strlen(k->flight->late);

		snprintf(k->flight->late + n, sizeof(k->flight->late) - n, "ktop: %s\n", line);
	} else if (k->mode->screen) {
		app_message(&k->app, "%s", line);
	} else {
		fprintf(stderr, "ktop: %s\n", line);
	}
}

struct flight *flightctl_start(struct ktop *k)
{
	struct flightctl *fc;
	size_t i;

	if (!k->opt.flight || k->opt.no_trace)
		return NULL;
	fc = xcalloc(1, sizeof(*fc));
	for (i = 0; i < k->opt.ntriggers; i++) {
		char err[256];

		/* Checked by options_parse: it parses again. */
		if (!trigger_parse(k->opt.triggers[i], &fc->trig[fc->ntrig], err, sizeof(err)))
			fc->ntrig++;
	}
	for (i = 0; i < CGROUP_BY__COUNT; i++)
		groups_init(&fc->groups[i], (enum cgroup_group_by)i);
	fc->fl = flight_new(k->opt.flight_set ? (size_t)k->opt.flight :
			    flightsave_default_size((size_t)k->opt.flight));
	k->flight = fc;
	return fc->fl;
}

void flightctl_free(struct ktop *k)
{
	struct flightctl *fc = k->flight;

	if (!fc)
		return;
	/* The terminal is the shell's again: what the last save said. */
	fputs(fc->late, stderr);
	for (size_t i = 0; i < CGROUP_BY__COUNT; i++)
		groups_free(&fc->groups[i]);
	flight_free(fc->fl);
	free(fc);
	k->flight = NULL;
}

static void ask(struct ktop *k, const char *why, uint64_t now)
{
	struct flightctl *fc = k->flight;
	struct flight_stats st;
	size_t len = strlen(fc->why);
	int64_t off;

	if (fc->pending) {
		/* One file holds both: the first one's moment and this one's. */
		if (len + strlen(why) + 3 < sizeof(fc->why))
			snprintf(fc->why + len, sizeof(fc->why) - len, "; %s", why);
		return;
	}
	snprintf(fc->why, sizeof(fc->why), "%s", why);
	fc->pending = true;
	fc->due_ns = now + (uint64_t)(k->opt.flight_after * 1e9);
	flight_get_stats(fc->fl, &st);
	fc->held_back = st.held_back;
	/* In the trace clock when it maps: pages of earlier events still to come count not. */
	flight_hold(fc->fl, true, counting_clock_offset(k->ftrace, &off) ? now + (uint64_t)off : 0);
	if (k->mode->screen)
		app_message(&k->app, "flight recorder: saving the events kept%s (%s)",
			    k->opt.flight_after > 0 ? " and those of the next seconds" : "", why);
}

void flightctl_request(struct ktop *k, const char *why)
{
	if (!k->flight) {
		say(k, "flight recorder off: %s (%s ignored)",
		    k->replay ? "a replay (-r) has no kernel events to keep" :
		    k->opt.no_trace ? "--no-trace" : !k->opt.flight ? "--flight 0" : "tracing is off", why);
		return;
	}
	if (!counting_on(k->ftrace)) {
		say(k, "flight recorder off: tracing is off (%s ignored)", why);
		return;
	}
	ask(k, why, clocks_mono_ns());
}

/* A save's file name: HOST as a file name may hold it. */
static void host_name(char *out, size_t n)
{
	char host[256] = "localhost";
	size_t i;

	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	for (i = 0; host[i] && i + 1 < n; i++) {
		char c = host[i];

		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '-' || c == '.' || c == '_' ? c : '_';
	}
	out[i] = '\0';
}

/* The directory saves go to: --flight-dir, the recording's, or the current one. */
static void save_dir(const struct ktop *k, char *out, size_t n)
{
	const char *p = k->opt.flight_dir, *slash;

	if (!p && k->opt.write) {
		p = k->rec ? record_path(k->rec) : k->opt.write;
		slash = strrchr(p, '/');
		if (!slash)
			p = ".";
		else if (slash == p)
			p = "/";
		else {
			snprintf(out, n, "%.*s", (int)(slash - p), p);
			return;
		}
	}
	snprintf(out, n, "%s", p ? p : ".");
}

/* A pid's name for a save: ktop's process table first, then what the pages said, its process's. */
static const char *comm_of(void *arg, pid_t pid, const char *seen)
{
	struct ktop *k = arg;
	const struct model *m = &k->model;
	const struct task *t = pidmap_get(&m->index, pid);

	if (t)
		return t->comm;
	if (seen[0])
		return seen;
	if (counting_on(k->ftrace)) {
		const struct evsums_thread *th = pidmap_get(&counting_acct(k->ftrace)->threads, pid);

		if (th && th->tgid && (t = pidmap_get(&m->index, th->tgid)))
			return t->comm;
	}
	return NULL;
}

static struct tracedat_format *formats(const struct flightsave_fmt *f, size_t n)
{
	struct tracedat_format *v = xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = (struct tracedat_format){ f[i].system, f[i].name, f[i].text, f[i].len };
	return v;
}

/* The file's version line: who wrote it, when, on what clock, why. */
static void version_line(struct ktop *k, const char *why, const char *clock, char *out, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;
	char when[64];
	int64_t off;

	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
	if (counting_clock_offset(k->ftrace, &off)) {
		uint64_t ts = clocks_mono_ns() + (uint64_t)off;

		snprintf(out, n, "ktop %s flight recorder; saved %s, trace clock %s %llu.%06llu; why: %s",
			 KTOP_VERSION, when, clock, (unsigned long long)(ts / 1000000000ull),
			 (unsigned long long)(ts % 1000000000ull / 1000), why);
	} else {
		snprintf(out, n, "ktop %s flight recorder; saved %s; why: %s", KTOP_VERSION, when, why);
	}
}

/* Write the trace.dat to @fd. 0, or -errno with @err. */
static int write_file(struct ktop *k, int fd, const char *why, uint64_t *bytes, char *err,
		      size_t errsz)
{
	struct flightctl *fc = k->flight;
	struct flightsave fs;
	struct tracedat td = { 0 };
	struct tracedat_buffer tb[FLIGHT_BUFFERS];
	struct utsname u;
	char uname_s[600], version[1200];
	size_t i;
	int ret;

	ret = flightsave_begin(&fs, fc->fl, comm_of, k);
	if (ret) {
		snprintf(err, errsz, "cannot read the event formats: %s", strerror(-ret));
		return ret;
	}
	td.nbuffers = fs.nbuffers;
	for (i = 0; i < td.nbuffers; i++) {
		const struct flight_buffer_info *bi = &fs.buf[i];

		tb[i] = (struct tracedat_buffer){ bi->name, bi->clock, (uint32_t)bi->page_size, bi->ncpus };
		if (!i) {
			td.header_page = bi->header_page;
			td.header_page_len = bi->header_len;
		}
	}
	td.buffers = tb;
	td.header_event = fs.meta.header_event;
	td.header_event_len = fs.meta.header_event_len;
	td.ftrace = formats(fs.meta.ftrace, fs.meta.nftrace);
	td.nftrace = fs.meta.nftrace;
	td.events = formats(fs.meta.events, fs.meta.nevents);
	td.nevents = fs.meta.nevents;
	td.ncpus = td.nbuffers ? tb[0].ncpus : 0;
	td.trace_clock = fs.meta.trace_clock;
	if (!uname(&u)) {
		snprintf(uname_s, sizeof(uname_s), "%s %s %s %s %s", u.sysname, u.nodename, u.release,
			 u.version, u.machine);
		td.uname = uname_s;
	}
	version_line(k, why, td.nbuffers ? tb[0].clock : "?", version, sizeof(version));
	td.version = version;
	td.cpustats = (const char *const *)fs.meta.cpustats;
	td.ncpustats = fs.meta.ncpustats;
	td.page = fs.page;
	td.cmdlines = fs.cmdlines;
	td.arg = fs.arg;
	ret = tracedat_write(fd, &td, bytes, err, errsz);
	free((void *)td.ftrace);
	free((void *)td.events);
	flightsave_end(&fs, &fc->pages_in, &fc->pages_out);
	return ret;
}

/* What sits at @path, in a few words ("" when it is ktop's user's own file). */
static const char *planted(const char *path)
{
	struct stat sb;
	char err[512];

	if (lstat(path, &sb))
		return "";
	if (S_ISLNK(sb.st_mode))
		return "a symbolic link";
	return recfile_check(path, &sb, err, sizeof(err)) ? "not ktop's user's own file" : "";
}

#define NAMES 10

/*
 * The file: made unnamed in the directory (O_TMPFILE) and linked to the
 * first free name once written, so a full disk or an error leaves nothing;
 * where that cannot be, made new (O_EXCL) at the first free name and
 * removed on failure. Either way nothing at a name is opened or replaced,
 * and no link is followed. Returns 0 with @path, or -1 with @err.
 */
static int save_to(struct ktop *k, const char *why, char *path, size_t pathsz, uint64_t *bytes,
		   char *err, size_t errsz)
{
	char dir[PATH_MAX], host[128], stamp[32], base[PATH_MAX + 256], name[PATH_MAX + 300];
	char note[1024] = "";
	time_t now = time(NULL);
	struct tm tm;
	bool tmp = true;
	int fd, i, ret;

	save_dir(k, dir, sizeof(dir));
	host_name(host, sizeof(host));
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(base, sizeof(base), "%s/ktop-flight-%s-%s", dir, host, stamp);
	snprintf(name, sizeof(name), "%s.dat", base);
	if (recfile_check_dir(name, err, errsz))
		return -1;
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		tmp = false;
		for (i = 0; i < NAMES; i++) {
			if (i)
				snprintf(name, sizeof(name), "%s.%d.dat", base, i);
			fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (fd >= 0 || errno != EEXIST)
				break;
			if (!note[0] && planted(name)[0])
				snprintf(note, sizeof(note), "%.300s is %s: left alone; ", name, planted(name));
		}
	}
	if (fd < 0) {
		snprintf(err, errsz, "cannot save in %.300s: %s", dir, strerror(errno));
		return -1;
	}
	/* Whatever the umask: the events name every process. */
	fchmod(fd, 0600);
	ret = write_file(k, fd, why, bytes, err, errsz);
	if (ret) {
		char what[512];

		snprintf(what, sizeof(what), "%.400s", err);
		snprintf(err, errsz, "cannot save in %.300s: %s%s", dir, what,
			 tmp ? "" : " (the partial file removed)");
	}
	if (!ret && tmp) {
		char self[64];

		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		for (i = 0; i < NAMES; i++) {
			if (i)
				snprintf(name, sizeof(name), "%s.%d.dat", base, i);
			if (!linkat(AT_FDCWD, self, AT_FDCWD, name, AT_SYMLINK_FOLLOW))
				break;
			if (errno != EEXIST) {
				ret = -errno;
				snprintf(err, errsz, "cannot name %.300s: %s", name, strerror(errno));
				break;
			}
			if (!note[0] && planted(name)[0])
				snprintf(note, sizeof(note), "%.300s is %s: left alone; ", name, planted(name));
		}
		if (!ret && i == NAMES) {
			ret = -EEXIST;
			snprintf(err, errsz, "%.300s.dat and its next %d names are taken", base, NAMES - 1);
		}
	}
	if (ret && !tmp)
		unlink(name);	/* ours: made new above */
	close(fd);
	if (ret) {
		if (note[0]) {
			size_t nl = strlen(note);

			snprintf(note + nl, sizeof(note) - nl, "%s", err);
			snprintf(err, errsz, "%s", note);
		}
		return -1;
	}
	snprintf(path, pathsz, "%s", name);
	if (note[0])
		say(k, "flight recorder: %ssaved as %s", note, name);
	return 0;
}

static void save(struct ktop *k)
{
	struct flightctl *fc = k->flight;
	struct flight_stats st;
	char path[PATH_MAX + 300], err[1024];
	uint64_t t0 = clocks_mono_ns(), bytes = 0, span;

	fc->pending = false;
	flight_hold(fc->fl, false, 0);
	flight_get_stats(fc->fl, &st);
	span = st.oldest_ns && t0 > st.oldest_ns ? t0 - st.oldest_ns : 0;
	if (save_to(k, fc->why, path, sizeof(path), &bytes, err, sizeof(err))) {
		fc->failures++;
		say(k, "flight recorder: %s (%s)", err, fc->why);
		return;
	}
	fc->save_ns_last = clocks_mono_ns() - t0;
	if (fc->save_ns_last > fc->save_ns_max)
		fc->save_ns_max = fc->save_ns_last;
	fc->files++;
	fc->bytes += bytes;
	say(k, "flight recorder: saved %s (%.1f MiB, %.1f s of events; %s)", path,
	    (double)bytes / (1 << 20), (double)span / 1e9, fc->why);
	if (k->rec && record_flight(k->rec, clocks_wall_s(), path, fc->why, bytes, err, sizeof(err)))
		say(k, "flight recorder: %s not listed in the recording: %s", path, err);
}

/* "oom": the kernel's OOM kills since the last interval. */
static bool oom_fired(struct flightctl *fc, char *what, size_t n)
{
	uint64_t kills;
	bool fired;

	if (flightsave_oom_kills(&kills))
		return false;
	fired = fc->oom_known && kills > fc->oom_prev;
	if (fired)
		snprintf(what, n, "%llu OOM kill%s (/proc/vmstat oom_kill)",
			 (unsigned long long)(kills - fc->oom_prev), kills - fc->oom_prev > 1 ? "s" : "");
	fc->oom_prev = kills;
	fc->oom_known = true;
	return fired;
}

static void check_triggers(struct ktop *k, uint64_t now)
{
	struct flightctl *fc = k->flight;
	char what[384], why[512];
	bool done = false;

	for (size_t i = 0; i < fc->ntrig; i++) {
		const struct trigger *t = &fc->trig[i];
		bool fired = t->oom ? oom_fired(fc, what, sizeof(what)) :
			     !done && trigger_eval(t, &k->model, &fc->groups[t->by], what, sizeof(what));

		if (!fired || done)
			continue;
		done = true;
		if (fc->triggered && now - fc->last_trigger_ns < (uint64_t)(k->opt.trigger_every * 1e9)) {
			fc->suppressed++;
			continue;
		}
		fc->triggered = true;
		fc->last_trigger_ns = now;
		snprintf(why, sizeof(why), "trigger %s: %s", t->text, what);
		ask(k, why, now);
	}
}

void flightctl_clock(struct ktop *k)
{
	int64_t off;
	bool ok;

	if (!k->flight || !counting_on(k->ftrace))
		return;
	ok = counting_clock_offset(k->ftrace, &off);
	flight_clock_offset(k->flight->fl, ok ? off : 0, ok);
}

int flightctl_interval(struct ktop *k)
{
	struct flightctl *fc = k->flight;
	struct flight_stats st;
	uint64_t now;

	if (!fc || !counting_on(k->ftrace))
		return -1;
	flightctl_clock(k);
	now = clocks_mono_ns();
	check_triggers(k, now);
	if (!fc->pending)
		return -1;
	flight_get_stats(fc->fl, &st);
	/* Due, or half the ring came since it was asked for: what came before must stay. */
	if (now >= fc->due_ns || st.held_back != fc->held_back)
		save(k);
	return -1;
}

void flightctl_needs(const struct ktop *k, struct procfs_need *need)
{
	const struct flightctl *fc = k->flight;

	for (size_t i = 0; fc && i < fc->ntrig; i++)
		need->all |= trigger_needs(&fc->trig[i], &k->model);
}

void flightctl_now(struct ktop *k)
{
	if (k->flight && k->flight->pending && counting_on(k->ftrace))
		save(k);
}

void flightctl_finish(struct ktop *k)
{
	if (k->flight && k->flight->pending && counting_on(k->ftrace)) {
		/* The loop is over: the live view draws no more. */
		k->flight->ending = true;
		save(k);
	}
}

void flightctl_counts(const struct ktop *k, uint64_t *files, uint64_t *bytes)
{
	*files = k->flight ? k->flight->files : 0;
	*bytes = k->flight ? k->flight->bytes : 0;
}

void flightctl_print_stats(const struct ktop *k)
{
	const struct flightctl *fc = k->flight;
	struct flight_stats st;

	if (!fc)
		return;
	flight_get_stats(fc->fl, &st);
	fprintf(stderr, "ktop-stats: flight_cap=%zu flight_used=%zu flight_pages=%llu flight_bytes=%llu "
		"flight_dropped=%llu flight_held_back=%llu flight_saves=%llu flight_saved_bytes=%llu "
		"flight_failures=%llu flight_suppressed=%llu flight_save_ms_last=%.1f "
		"flight_save_ms_max=%.1f flight_pages_in=%llu flight_pages_out=%llu\n",
		st.cap, st.used, (unsigned long long)st.pages, (unsigned long long)st.bytes,
		(unsigned long long)st.dropped, (unsigned long long)st.held_back,
		(unsigned long long)fc->files, (unsigned long long)fc->bytes,
		(unsigned long long)fc->failures, (unsigned long long)fc->suppressed,
		(double)fc->save_ns_last / 1e6, (double)fc->save_ns_max / 1e6,
		(unsigned long long)fc->pages_in, (unsigned long long)fc->pages_out);
}
