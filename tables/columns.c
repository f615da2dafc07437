// SPDX-License-Identifier: GPL-2.0-only
#include "columns.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../lib/cgroup.h"
#include "../lib/scnames.h"
#include "../lib/util.h"

/*
 * One row per column. "doc" says where the number comes from: follow it to the
 * collector and its parser (collectors/proc/procfs.c).
 */
const struct column columns[COL_NR] = {
	[COL_PID] = { "pid", "PID", 7, false, CT_INT, 0, -1, SORT_ASC,
		      "process id (thread id in thread mode)" },
	[COL_TGID] = { "tgid", "TGID", 7, false, CT_INT, 0, -1, SORT_ASC,
		       "thread group (process) id" },
	[COL_PPID] = { "ppid", "PPID", 7, false, CT_INT, 0, -1, SORT_ASC,
		       "parent process id, stat field 4" },
	[COL_USER] = { "user", "USER", 8, true, CT_STR, 0, -1, SORT_ASC,
		       "effective user: status Uid, else the owner of /proc/PID" },
	[COL_UID] = { "uid", "UID", 6, false, CT_INT, 0, -1, SORT_ASC,
		      "effective user id" },
	[COL_STATE] = { "state", "S", 1, true, CT_CHAR, 0, -1, SORT_ASC,
			"state R S D Z T t X I, stat field 3" },
	[COL_NICE] = { "nice", "NI", 3, false, CT_INT, 0, -1, SORT_DESC,
		       "nice value, stat field 19" },
	[COL_CPU] = { "cpu_pct", "CPU%", 5, false, CT_PCT, 0, -1, SORT_DESC,
		      "CPU use in the interval, 100 = one CPU, at most 100 a thread: stat utime+stime; a dead one's cpu_s" },
	[COL_MEM] = { "mem_pct", "MEM%", 5, false, CT_PCT, 0, -1, SORT_DESC,
		      "resident memory as a share of MemTotal" },
	[COL_RSS] = { "rss_kb", "RES", 6, false, CT_KB, 0, -1, SORT_DESC,
		      "resident set size in KiB, stat field 24" },
	[COL_VSZ] = { "vsz_kb", "VIRT", 6, false, CT_KB, 0, -1, SORT_DESC,
		      "virtual memory size in KiB, stat field 23" },
	[COL_TIME] = { "cpu_s", "TIME+", 9, false, CT_TIME, 0, -1, SORT_DESC,
		       "CPU time since start in seconds, stat utime+stime; a dead one's: its exit record and its events after it" },
	[COL_TOPSC] = { "top_syscall", "TOP-SYSCALL", 14, true, CT_STR, 0, -1, SORT_ASC,
			"most frequent system call in the interval" },
	[COL_WAIT] = { "wait_pct", "WAIT%", 9, false, CT_PCT, NEED_SCHEDSTAT, -1, SORT_DESC,
		       "the largest share of the interval it waited, all threads, and what for: runq "
		       "(runq_ms: for a CPU), blk (blocked_ms: D, I/O); sleep is not waiting. Shown where "
		       "RUNQ% and BLOCK% do not fit (CSV, JSON: the share)" },
	[COL_SCP99] = { "sc_p99_us", "SCP99", 8, false, CT_USEC_BOUND, 0, -1, SORT_DESC,
			"99th percentile of those calls' durations in us, all threads and system calls, as the "
			"upper bound of its log2 bucket (the longest call when shorter): 16 = 99% took at most "
			"16 us; the screen scales it, <=16us (--latency, -p, -- CMD)" },
	[COL_LOST] = { "lost_events", "LOST", 6, false, CT_INT, 0, -1, SORT_DESC,
		       "events the kernel dropped in the interval, whole system" },
	[COL_LOST_EXITS] = { "lost_exits", "LOSTX", 6, false, CT_INT, 0, -1, SORT_DESC,
			     "exit records (taskstats) the kernel dropped in the interval, whole system" },
	[COL_THREADS] = { "threads", "THR", 4, false, CT_INT, 0, -1, SORT_DESC,
			  "number of threads, stat field 20" },
	[COL_CPUID] = { "cpu", "CPU", 3, false, CT_INT, 0, -1, SORT_ASC,
			"CPU it last ran on, stat field 39" },
	[COL_THROTTLED] = { "throttled_pct", "THROT%", 6, false, CT_PCT, NEED_CPULIMIT, -1, SORT_DESC,
			    "share of the interval its CPU cgroup (or the nearest above it with a CPU "
			    "limit) was throttled, from that cgroup's cpu.stat (v2 cpu.max, v1 "
			    "cpu.cfs_quota_us at its own path in the cpu hierarchy); 0 when no limit; "
			    "the screen and the text output leave 0 blank" },
	[COL_CGROUP] = { "cgroup", "CGROUP", 24, true, CT_STR, NEED_CGROUP, -1, SORT_ASC,
			 "cgroup path: /proc/PID/cgroup, the v2 line (else name=systemd, pids, ...)" },
	[COL_UNIT] = { "unit", "UNIT", 20, true, CT_STR, NEED_CGROUP, -1, SORT_ASC,
		       "systemd unit of the cgroup: its innermost .service or .scope, else .slice" },
	[COL_CONTAINER] = { "container", "CONTAINER", 19, true, CT_STR, NEED_CGROUP, -1, SORT_ASC,
			    "container of the cgroup by its name, as the Groups view names it (web-1, "
			    "namespace/pod/container), else RUNTIME:ID; empty on the host" },
	[COL_CONTAINER_ID] = { "container_id", "CONTAINER-ID", 23, true, CT_STR, NEED_CGROUP, -1,
			       SORT_ASC, "its container's RUNTIME:ID (12 hex digits); empty on the host" },
	[COL_COMM] = { "comm", "COMMAND", 15, true, CT_STR, 0, -1, SORT_ASC,
		       "command name, stat field 2" },
	[COL_CMDLINE] = { "cmdline", "COMMAND", 15, true, CT_STR, NEED_CMDLINE, -1, SORT_ASC,
			  "command line, /proc/PID/cmdline ([comm] if empty)" },
	/* The counters' columns: their catalog rows (model/counters.def). */
#define COUNTER(id, src, family, label, doc)
#define SHOWN(id, col, key, title, width, type, needs, sort, src, family, label, doc) \
	[COL_##col] = { key, title, width, false, type, needs, CNT_##id, sort, doc },
#include "../model/counters.def"
};

/*
 * What WAIT% names: the shares of the interval a process waits for something
 * other than its own sleep. Another kind is one row here: a cgroup's CPU
 * throttling, once the catalog has a throttled_pct column, is
 * { COL_THROTTLED, "thr" } (columns_share reads a CT_PCT column as it is).
 */
static const struct {
	enum col_id col;
	const char *word;
} wait_kinds[] = {
	{ COL_RUNQ, "runq" },
	{ COL_BLOCKED, "blk" },
};

/* Column @c (CT_MS or CT_PCT) as a share of the interval, 100 = one thread all of it. */
static bool columns_share(const struct model *m, const struct task *t, enum col_id c, double *out)
{
	if (!columns_num(m, t, c, out))
		return false;
	if (columns[c].type == CT_MS) {
		if (m->interval_s <= 0)
			return false;
		*out /= m->interval_s * 10;
	}
	return true;
}

static bool runq_throttled(const struct model *m, const struct task *t, double runq);

bool columns_wait(const struct model *m, const struct task *t, double *pct, const char **word)
{
	bool known = false;
	size_t i;
	double v;

	*pct = 0;
	*word = "";
	for (i = 0; i < ARRAY_SIZE(wait_kinds); i++) {
		if (!columns_share(m, t, wait_kinds[i].col, &v))
			continue;
		if (!known || v > *pct) {
			*pct = v;
			*word = wait_kinds[i].word;
		}
		known = true;
	}
	/*
	 * A throttled task is runnable: its throttled time is in RUNQ too. When
	 * the limit is most of that wait (at least half of it), the wait is the
	 * quota's, not the machine's: "thr", so that nobody adds CPUs for it.
	 */
	if (known && !strcmp(*word, "runq") && runq_throttled(m, t, *pct))
		*word = "thr";
	return known;
}

/* @runq (a share of the interval) is at least half @t's cgroup's throttling. */
static bool runq_throttled(const struct model *m, const struct task *t, double runq)
{
	double thr;

	return columns_num(m, t, COL_THROTTLED, &thr) && thr > 0 && thr >= runq / 2;
}

bool columns_wait_redundant(const bool *shown)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(wait_kinds); i++)
		if (!shown[wait_kinds[i].col])
			return false;
	return true;
}

/*
 * A task /proc never read (born and gone between two refreshes: its row is
 * its events' and its exit record's) has no stat: its nice value, memory,
 * threads and CPU are not known, not 0.
 */
static bool stat_known(const struct task *t)
{
	return t->starttime != 0;
}

bool columns_num(const struct model *m, const struct task *t, enum col_id c, double *out)
{
	const char *word;
	uint64_t d;

	switch (c) {
	case COL_NICE:
	case COL_MEM:
	case COL_RSS:
	case COL_VSZ:
	case COL_THREADS:
	case COL_CPUID:
		if (!stat_known(t))
			return false;
		break;
	default:
		break;
	}
	switch (c) {
	case COL_PID: *out = t->pid; return true;
	case COL_TGID: *out = t->tgid; return true;
	case COL_PPID: *out = t->ppid; return true;
	case COL_UID:
		*out = (double)t->uid;
		return t->uid >= 0;
	case COL_NICE: *out = (double)t->nice; return true;
	case COL_CPU:
		*out = t->cpu_pct;
		return t->have_cpu;
	case COL_MEM:
		if (!m->sys.have_mem || !m->sys.mem.total)
			return false;
		*out = 100.0 * (double)t->rss_kb / (double)m->sys.mem.total;
		return true;
	case COL_RSS: *out = (double)t->rss_kb; return true;
	case COL_VSZ: *out = (double)t->vsize_kb; return true;
	case COL_TIME:
		if (!(t->have & (1u << CNT_CPU)))
			return false;
		*out = (double)t->cnt[CNT_CPU] / 1e9;
		return true;
	case COL_THREADS: *out = (double)t->threads; return true;
	case COL_CPUID:
		*out = t->processor;
		return t->processor >= 0;
	case COL_WAIT:
		return columns_wait(m, t, out, &word);
	case COL_THROTTLED: {
		const struct cgres *r;

		if (!columns_cpu_limit(m, t, &r))
			return false;
		*out = 0;
		return !r || cgres_num(r, CGF_THROTTLED_PCT, out);
	}
	case COL_SCP99:
		return task_delta(t, CNT_SCTIME, &d) && task_sc_quantile_us(t, 0.99, out);
	case COL_LOST:
		*out = (double)m->lost_events;
		return m->event_counters != 0 && m->interval_s > 0;
	case COL_LOST_EXITS:
		*out = (double)m->exits_lost;
		return m->exit_records && m->interval_s > 0;
	case COL_MINFLT:
	case COL_MAJFLT:
	case COL_VCSW:
	case COL_IVCSW:
	case COL_SYSC:
	case COL_SYSERR:
	case COL_SIGRECV:
	case COL_SIGSENT:
	case COL_DISK_READ:
	case COL_DISK_WRITE:
	case COL_NET_TX:
	case COL_NET_RX:
		if (!task_delta(t, (enum counter)columns[c].counter, &d))
			return false;
		*out = (double)d;
		return true;
	case COL_ONCPU:
	case COL_RUNQ:
	case COL_SLEEP:
	case COL_BLOCKED:
	case COL_STOPPED:
	case COL_SCTIME:
		if (!task_delta(t, (enum counter)columns[c].counter, &d))
			return false;
		*out = (double)d / 1e6;
		return true;
	default:
		return false;
	}
}

bool columns_kthread(const struct task *t)
{
	if (t->have_flags)
		return t->kthread;
	return (t->pid == 2 || t->ppid == 2) && !t->vsize_kb && t->starttime;
}

static const char *cmdline_text(const struct task *t, char *buf, size_t n, int utf8)
{
	size_t len = t->cmdline ? t->cmdline_len : 0;

	/* Not read (yet): the name will do, a kernel thread's bracketed as always. */
	if (!t->cmdline && !columns_kthread(t))
		return columns_text(t, COL_COMM, buf, n, utf8);
	/* Kernel threads and zombies have no command line: show [comm] like ps. */
	while (len && t->cmdline[len - 1] == '\0')
		len--;
	if (!len || t->state == 'Z') {
		char comm[PROC_COMM_MAX];

		sanitize_text(comm, sizeof(comm), t->comm, strlen(t->comm), utf8);
		snprintf(buf, n, "[%s]", comm);
		return buf;
	}
	sanitize_text(buf, n, t->cmdline, len, utf8);
	return buf;
}

/* The cgroup columns: derived from the path when shown, not stored. */
static const char *cgroup_text(const struct task *t, enum col_id c, char *buf, size_t n, int utf8)
{
	char raw[CGROUP_KEY_MAX];
	struct cgroup_container ct;

	raw[0] = '\0';
	if (!t->cgroup)
		snprintf(raw, sizeof(raw), "?");	/* not read (yet) */
	else if (c == COL_CGROUP)
		snprintf(raw, sizeof(raw), "%s", t->cgroup);
	else if (c == COL_UNIT)
		cgroup_unit(t->cgroup, raw, sizeof(raw));
	else if (c == COL_CONTAINER_ID)
		cgname_group_id(CGROUP_BY_CONTAINER, t->cgroup, raw, sizeof(raw));
	else if (cgroup_container(t->cgroup, &ct) != CGROUP_RT_NONE)
		snprintf(raw, sizeof(raw), "%s:%s", cgroup_runtime_name(ct.runtime), ct.id);
	sanitize_text(buf, n, raw, strlen(raw), utf8);
	return buf;
}

const char *columns_text_model(const struct model *m, const struct task *t, enum col_id c, char *buf,
			   size_t n, int utf8)
{
	char raw[CGROUP_KEY_MAX];

	if (c != COL_CONTAINER || !t->cgroup)
		return columns_text(t, c, buf, n, utf8);
	/* The Groups view's key by container: its name once known; the host's "-" is empty. */
	cgname_group_key(CGROUP_BY_CONTAINER, NULL, NULL, t->cgroup,
			 cgnames_get(&m->names, t->cgroup), raw, sizeof(raw));
	if (!strcmp(raw, "-"))
		raw[0] = '\0';
	sanitize_text(buf, n, raw, strlen(raw), utf8);
	return buf;
}

bool columns_cpu_limit(const struct model *m, const struct task *t, const struct cgres **r)
{
	return cgres_cpu_of(&m->cgres, t->pid, m->tick, r);
}

const char *columns_text(const struct task *t, enum col_id c, char *buf, size_t n, int utf8)
{
	switch (c) {
	case COL_USER:
		if (t->user)
			sanitize_text(buf, n, t->user, strlen(t->user), utf8);
		else if (t->uid >= 0)
			snprintf(buf, n, "%lld", (long long)t->uid);
		else
			snprintf(buf, n, "?");
		return buf;
	case COL_STATE:
		snprintf(buf, n, "%c", t->state >= 'A' && t->state <= 'z' ? t->state : '?');
		return buf;
	case COL_COMM:
		sanitize_text(buf, n, t->comm, strlen(t->comm), utf8);
		return buf;
	case COL_CMDLINE:
		return cmdline_text(t, buf, n, utf8);
	case COL_CGROUP:
	case COL_UNIT:
	case COL_CONTAINER:
	case COL_CONTAINER_ID:
		return cgroup_text(t, c, buf, n, utf8);
	case COL_TOPSC: {
		char tmp[SYSCALL_LABEL_BUF];

		/* Into @buf: callers print @buf, and a name is a static string. */
		snprintf(buf, n, "%s", t->top_nr == SC_EMPTY ? "" :
			 syscall_label(t->top_nr, tmp, sizeof(tmp)));
		return buf;
	}
	default:
		if (n)
			buf[0] = '\0';
		return buf;
	}
}

unsigned columns_needs(const struct model *m, int c)
{
	unsigned needs = columns[c].needs;
	size_t i;

	if (c == COL_WAIT) {	/* what its kinds need */
		for (needs = 0, i = 0; i < ARRAY_SIZE(wait_kinds); i++)
			needs |= columns_needs(m, wait_kinds[i].col);
		return needs;
	}
	if (columns[c].counter >= 0 && model_counts_events(m, (enum counter)columns[c].counter))
		needs &= ~(NEED_STATUS | NEED_SCHEDSTAT);
	return needs;
}

int columns_by_key(const char *key)
{
	int i;

	for (i = 0; i < COL_NR; i++)
		if (!strcasecmp(columns[i].key, key))
			return i;
	return -1;
}

int columns_compare(const struct model *m, const struct task *a, const struct task *b,
		enum col_id c)
{
	double x, y;
	bool hx, hy;

	if (columns[c].type == CT_STR || columns[c].type == CT_CHAR) {
		char bx[256], by[256];

		return strcmp(columns_text_model(m, a, c, bx, sizeof(bx), true),
			      columns_text_model(m, b, c, by, sizeof(by), true));
	}
	hx = columns_num(m, a, c, &x);
	hy = columns_num(m, b, c, &y);
	if (hx != hy)
		return hx ? 1 : -1;
	if (!hx)
		return 0;
	return x < y ? -1 : x > y;
}

/*
 * How a cell is written for a person: the screen and the text batch (CSV and
 * JSON write raw numbers). Numbers are formatted with integer arithmetic: a text batch at 5,000
 * processes formats 50,000 cells per refresh, and printf's floating point was a
 * fifth of ktop's own CPU time there.
 */

/* Decimal digits of @v at @buf (room for 20); returns the length. */
static size_t put_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/* @v (>= 0) with @decimals (0 to 2) and an optional unit suffix, into @buf. */
void fmt_fixed(char *buf, size_t n, double v, int decimals, char suffix)
{
	static const uint64_t scale[] = { 1, 10, 100 };
	char tmp[48];
	uint64_t x, sc = scale[decimals > 2 ? 2 : decimals < 0 ? 0 : decimals];
	size_t len;

	if (!(v >= 0))
		v = 0;
	if (v > 1e16)
		v = 1e16;
	x = (uint64_t)llround(v * (double)sc);
	len = put_u64(tmp, x / sc);
	if (sc > 1) {
		tmp[len++] = '.';
		if (sc == 100)
			tmp[len++] = (char)('0' + x / 10 % 10);
		tmp[len++] = (char)('0' + x % 10);
	}
	if (suffix)
		tmp[len++] = suffix;
	if (!n)
		return;
	if (len >= n)
		len = n - 1;
	memcpy(buf, tmp, len);
	buf[len] = '\0';
}

void fmt_rate(char *buf, size_t n, double v)
{
	/*
	 * A rare event (one SIGCHLD every 2.5 s, a major fault now and then) is
	 * 0.4/s, not 0: below 10 a decimal, as top gives percentages. Zero
	 * stays "0": nothing happened, exactly.
	 */
	if (v > 0 && v < 9.95)
		fmt_fixed(buf, n, v, 1, 0);
	else if (v < 9999.5)
		fmt_fixed(buf, n, v, 0, 0);
	else if (v < 99950)
		fmt_fixed(buf, n, v / 1e3, 1, 'k');
	else if (v < 9999.5e3)
		fmt_fixed(buf, n, v / 1e3, 0, 'k');
	else if (v < 99950e3)
		fmt_fixed(buf, n, v / 1e6, 1, 'M');
	else if (v < 9999.5e6)
		fmt_fixed(buf, n, v / 1e6, 0, 'M');
	else
		fmt_fixed(buf, n, v / 1e9, 1, 'G');
}

bool columns_bytes(int c)
{
	return c == COL_DISK_READ || c == COL_DISK_WRITE || c == COL_NET_TX || c == COL_NET_RX;
}

void fmt_bytes(char *buf, size_t n, double v)
{
	if (v < 999.5)
		fmt_fixed(buf, n, v, 0, 0);
	else if (v < 1024.0 * 999.95)
		fmt_fixed(buf, n, v / 1024, 1, 'K');
	else if (v < 1024.0 * 1024 * 999.95)
		fmt_fixed(buf, n, v / (1024.0 * 1024), 1, 'M');
	else if (v < 1024.0 * 1024 * 1024 * 999.95)
		fmt_fixed(buf, n, v / (1024.0 * 1024 * 1024), 1, 'G');
	else
		fmt_fixed(buf, n, v / (1024.0 * 1024 * 1024 * 1024), 1, 'T');
}

void fmt_kb(char *buf, size_t n, double kb)
{
	/* At most 6 characters: "999.9M", then "1.0G"; never "20480.0G" (ASan's VIRT). */
	if (kb < 100000)
		fmt_fixed(buf, n, kb, 0, 0);
	else if (kb < 1024.0 * 999.95)
		fmt_fixed(buf, n, kb / 1024, 1, 'M');
	else if (kb < 1024.0 * 1024 * 999.95)
		fmt_fixed(buf, n, kb / (1024.0 * 1024), 1, 'G');
	else
		fmt_fixed(buf, n, kb / (1024.0 * 1024 * 1024), 1, 'T');
}

void fmt_mem(char *buf, size_t n, double kb)
{
	if (kb < 1024)
		fmt_fixed(buf, n, kb, 0, 'K');
	else if (kb < 1024.0 * 1024)
		fmt_fixed(buf, n, kb / 1024, 1, 'M');
	else if (kb < 1024.0 * 1024 * 1024)
		fmt_fixed(buf, n, kb / (1024.0 * 1024), 1, 'G');
	else
		fmt_fixed(buf, n, kb / (1024.0 * 1024 * 1024), 1, 'T');
}

void fmt_usec(char *buf, size_t n, double us, bool bound, bool utf8)
{
	static const struct {
		double scale;
		char unit[3];
	} units[] = { { 1, "us" }, { 1e3, "ms" }, { 1e6, "s" } };
	const char *le = !bound ? "" : utf8 ? "\u2264" : "<=";
	char num[32];
	size_t u = 0;
	double v;

	if (!(us > 0))
		us = 0;
	/* The unit where the number is under 1000 once rounded; seconds past that. */
	while (u + 1 < ARRAY_SIZE(units) && us / units[u].scale >= 999.5)
		u++;
	v = us / units[u].scale;
	/* Three digits at least: 0.4us, 16us, 4.19ms, 26.2ms, 262ms, 3.00s. */
	fmt_fixed(num, sizeof(num), v, !u ? v < 9.95 : v < 9.995 ? 2 : v < 99.95, 0);
	snprintf(buf, n, "%s%s%s", le, num, units[u].unit);
}

void fmt_cputime(char *buf, size_t n, double s)
{
	uint64_t cs = (uint64_t)llround(s > 0 ? s * 100 : 0);
	uint64_t min = cs / 6000;
	char tmp[48];
	size_t len;

	if (min >= 1000) {
		fmt_fixed(buf, n, (double)(min / 60), 0, 'h');
		return;
	}
	len = put_u64(tmp, min);
	tmp[len++] = ':';
	tmp[len++] = (char)('0' + cs / 100 % 60 / 10);
	tmp[len++] = (char)('0' + cs / 100 % 10);
	tmp[len++] = '.';
	tmp[len++] = (char)('0' + cs % 100 / 10);
	tmp[len++] = (char)('0' + cs % 10);
	tmp[len] = '\0';
	snprintf(buf, n, "%s", tmp);
}

void fmt_uptime(char *buf, size_t n, double s)
{
	unsigned long long t = (unsigned long long)s;
	unsigned long long days = t / 86400, h = t / 3600 % 24, m = t / 60 % 60;

	if (days)
		snprintf(buf, n, "%llu day%s, %02llu:%02llu", days, days == 1 ? "" : "s", h, m);
	else
		snprintf(buf, n, "%02llu:%02llu", h, m);
}

bool fmt_since_start(const struct model *m, const struct task *t, enum col_id c, double *out)
{
	int k = columns[c].counter;
	double age;

	if (m->interval_s > 0 || !m->sys.have_uptime || m->hz <= 0)
		return false;
	age = m->sys.uptime_s - (double)t->starttime / (double)m->hz;
	if (!(age > 0.01))
		return false;
	if (c == COL_CPU) {
		if (!(t->have & (1u << CNT_CPU)))
			return false;
		*out = (double)t->cnt[CNT_CPU] / 1e9 / age * 100.0;
		return true;
	}
	/* The kernel's own counters since the start; events are counted from ktop's. */
	if (k < 0 || k > CNT_IVCSW || model_counts_events(m, (enum counter)k) ||
	    !(t->have & (1u << k)))
		return false;
	*out = (double)t->cnt[k] / age;
	return true;
}

/*
 * WAIT%'s cell: "runq 12", "blk 4.5", at most 9 characters (a share of
 * 10,000% and more, a hundred threads waiting, is "runq 12k"); "0" when
 * nothing waited a twentieth of a percent.
 */
static const char *fmt_wait(const struct model *m, const struct task *t, char *buf, size_t n)
{
	const char *word;
	char num[16];
	double v;

	if (!columns_wait(m, t, &v, &word)) {
		snprintf(buf, n, "-");
		return buf;
	}
	if (v < 0.05) {
		snprintf(buf, n, "0");
		return buf;
	}
	if (v < 9999.5)
		fmt_fixed(num, sizeof(num), v, v < 9.95, 0);
	else
		fmt_rate(num, sizeof(num), v);
	snprintf(buf, n, "%s %s", word, num);
	return buf;
}

const char *fmt_cell(const struct model *m, const struct task *t, enum col_id c,
		     char *buf, size_t n, bool utf8)
{
	const struct column *col = &columns[c];
	double v;

	/* A kernel thread's name bracketed as in its COMMAND line (CSV and JSON: the name). */
	if (c == COL_COMM && columns_kthread(t)) {
		char comm[PROC_COMM_MAX * 4];

		snprintf(buf, n, "[%s]", columns_text(t, c, comm, sizeof(comm), utf8));
		return buf;
	}
	if (col->type == CT_STR || col->type == CT_CHAR)
		return columns_text_model(m, t, c, buf, n, utf8);
	/* The first frame: what is known at once, the average since the start. */
	if (fmt_since_start(m, t, c, &v)) {
		if (c == COL_CPU)
			fmt_fixed(buf, n, v, v < 999.95, 0);
		else
			fmt_rate(buf, n, v);
		return buf;
	}
	if (!columns_num(m, t, c, &v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	if (c == COL_WAIT)
		return fmt_wait(m, t, buf, n);
	/* Not throttled, the usual: blank, so that a throttled row stands out. */
	if (c == COL_THROTTLED && v < 0.05) {
		snprintf(buf, n, "%s", "");
		return buf;
	}
	switch (col->type) {
	case CT_COUNTER:
		if (m->interval_s <= 0) {
			snprintf(buf, n, "-");
			break;
		}
		if (columns_bytes(c))
			fmt_bytes(buf, n, v / m->interval_s);
		else
			fmt_rate(buf, n, v / m->interval_s);
		break;
	case CT_PCT:
		/*
		 * MEM% of a 10 MB process on a 24 GiB machine is 0.04: with one
		 * decimal every process but the largest would read 0.0.
		 */
		if (c == COL_MEM && v < 9.995)
			fmt_fixed(buf, n, v, 2, 0);
		else
			fmt_fixed(buf, n, v, v < 999.95, 0);
		break;
	case CT_MS:
		if (m->interval_s <= 0) {
			snprintf(buf, n, "-");
			break;
		}
		/* ms / (s * 1000) * 100: the share of the interval. */
		v /= m->interval_s * 10;
		if (model_state_counter((enum counter)col->counter) && v > task_share_max(m, t))
			v = task_share_max(m, t);
		fmt_fixed(buf, n, v, v < 999.95, 0);
		/*
		 * Where THROT% has no room (120 columns), a wait that is mostly
		 * its cgroup's quota is marked "t" on RUNQ% itself: throttled is
		 * not contended.
		 */
		if (c == COL_RUNQ && runq_throttled(m, t, v) && strlen(buf) + 1 < n)
			strcat(buf, "t");
		break;
	case CT_KB:
		fmt_kb(buf, n, v);
		break;
	case CT_TIME:
		fmt_cputime(buf, n, v);
		break;
	case CT_USEC_BOUND:
		fmt_usec(buf, n, v, true, utf8);
		break;
	default:
		if (v < 0) {	/* nice, priority */
			buf[0] = '-';
			fmt_fixed(buf + 1, n - 1, -v, 0, 0);
		} else {
			fmt_fixed(buf, n, v, 0, 0);
		}
		break;
	}
	return buf;
}
