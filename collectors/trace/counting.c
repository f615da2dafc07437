// SPDX-License-Identifier: GPL-2.0-only
#include "counting.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blockev.h"
#include "../clocks.h"
#include "darkrun.h"
#include "evsums.h"
#include "../proc/creds.h"
#include "evdecode.h"
#include "../proc/procfs.h"
#include "instance.h"
#include "sockconn.h"
#include "../../lib/util.h"

/* Passes over one interval's forks: a chain longer than this is followed next time. */
#define FOLLOW_PASSES 8
/* Wake the reader when a CPU's buffer is this full (percent). */
#define WAKE_PERCENT 20
/* Pages one drain call reads from a CPU before the loop looks at keys and ticks. */
#define DRAIN_BATCH 256
/* /proc/TID/status reads a tick for threads of unknown processes (resolve_tgid). */
#define RESOLVE_PER_TICK 256
/* /proc/PID/exe reads a tick for processes of an unknown ABI (resolve_abi): ~13 us each. */
#define ABI_PER_TICK 1024

struct counting {
	struct instance *tr;
	struct evdecode dec;
	struct blockev *blk;		/* the block devices (NULL: their events are not on) */
	struct evsums acct;
	unsigned resolve_budget;	/* status reads left this tick */
	unsigned abi_budget;		/* exe reads left this tick */
	/*
	 * The model of the call in progress (set by each entry point that has
	 * one): the tasks /proc listed name their threads' processes without a
	 * read, the dead ones too.
	 */
	const struct model *model;
	bool deferred;			/* the last resolve_tgid ran out of them */
	bool on, decoder_ready;
	bool loaded[EV_NR];		/* the decoder knows the kind's format */
	bool group_dead_known;		/* sched_process_exit says which exit ends a process */
	enum ev_kind kinds[EV_NR];	/* the kinds enabled, in config order */
	size_t nkinds;
	void *page;
	int64_t only_uid;		/* non-root: only this user's tasks; -1 = all */
	uint64_t lost_seen;		/* instance_lost at the last tick */
	uint64_t lost_interval;		/* lost in the interval that counting_read ended */
	uint64_t reads;			/* counting_read calls */
	uint64_t cut_ns;		/* CLOCK_MONOTONIC before the last counting_read read a CPU */
	pid_t *added;			/* counting_follow: processes that joined the focus */
	size_t nadded, cap_added;
	pid_t *cred_ids;		/* counting_cred_changes */
	size_t ncred_ids, cap_cred_ids;
	pid_t *held_ids;		/* counting_held: rows that end next tick */
	size_t nheld_ids, cap_held_ids;
	/* Counts of threads carried to the next interval: the totals go with the rows. */
	uint64_t carried_now[CNT_NR], carried_prev[CNT_NR];
	pid_t *moved_ids;		/* counting_cgroup_moves */
	size_t nmoved_ids, cap_moved_ids;
	int64_t *exec_owner;		/* per acct.execs: its owner before (-1: a new task) */
	size_t nexec_owner, cap_exec_owner;
	struct counting_priv *priv;	/* counting_privileged */
	size_t npriv, cap_priv;
	struct pidmap noted;		/* watched processes no longer reported (priv) */
	struct pidmap withheld;		/* rows withheld this tick (judge_creds) */
	struct pidmap abi_memo;		/* this tick's resolve_abi: tgid -> 1 native, 2 compat */
	struct counting_stats st;
	/* The trace clock's stamps to CLOCK_MONOTONIC; unused (mapped false) with mono. */
	struct clockmap cmap;
	bool mapped;
	uint64_t cut_margin;		/* the mapping's error bound at the last sample */
	struct stash *stash;		/* per CPU: counting_stash */
	struct sockconn conns;		/* the sockets (the Connections view) */
	struct darkrun dark;		/* the run time of threads whose switch-outs are not written */
	char status[160];
	const char *disks_why;		/* why the block devices are not counted ("": they are) */
};

/*
 * Whole sub-buffers taken out of a CPU's ring buffer by counting_stash, not
 * decoded yet: read_cpu decodes them, in order, before it reads the CPU
 * again. @len[i] is the length of page i; @head the next one to decode.
 */
struct stash {
	unsigned char *pages;
	int *len;
	size_t n, head, cap;
};

/* The default view's events: one per syscall (its exit), the rest are rare. */
static const enum ev_kind default_kinds[] = {
	EV_SYS_EXIT, EV_EXIT, EV_EXIT_GROUP, EV_SWITCH, EV_NEWTASK, EV_EXEC, EV_PEXIT,
	EV_SIGNAL, EV_CGATTACH, EV_RENAME, EV_WAKEUP, EV_WAKEUP_NEW,
	EV_SOCK_SEND, EV_SOCK_RECV, EV_SOCK_STATE, EV_TCP_RETRANS, EV_TCP_RESET,
};

/*
 * The decoder learns the formats of the events enabled. An event whose format
 * cannot be read or parsed is disabled again and named in @missing, like an
 * event this kernel lacks: the others still count.
 */
static int load_formats(struct counting *ft, char *missing, size_t missinglen)
{
	size_t len, i, used = strlen(missing);
	char rel[128];
	char *text;
	int err, nloaded = 0;

	text = instance_read_format("header_page", &len);
	if (!text)
		return -ENOENT;
	err = evdecode_init(&ft->dec, text, len);
	free(text);
	ft->decoder_ready = true;
	if (err)
		return err;
	/* Only the formats of the events in use: all of them would cost ~260 ms. */
	for (i = 0; i < ft->nkinds; i++) {
		enum ev_kind k = ft->kinds[i];

		if (!instance_event_on(ft->tr, i))
			continue;
		snprintf(rel, sizeof(rel), "%s/%s/format", ev_system(k), ev_name(k));
		text = instance_read_format(rel, &len);
		err = text ? evdecode_add(&ft->dec, k, text, len) : -ENOENT;
		free(text);
		if (err == -ENOMEM)
			return err;
		if (!err) {
			ft->loaded[k] = true;
			nloaded++;
			continue;
		}
		instance_event_off(ft->tr, i, ev_system(k), ev_name(k));
		if (used + strlen(rel) + 2 < missinglen)
			used += (size_t)snprintf(missing + used, missinglen - used, "%s%s:%s",
						 used ? " " : "", ev_system(k), ev_name(k));
	}
	return nloaded ? 0 : -ENOENT;
}

/*
 * The kernel filters by thread id: a process is all of its threads now, and
 * (event-fork) whatever they create later. Returns a malloc'ed list. Each
 * thread's process is known from here on: a thread whose first event is its
 * exit cannot be looked up in /proc any more.
 */
static pid_t *threads_of(struct evsums *a, const pid_t *pids, size_t npids, size_t *n)
{
	size_t cap = npids + 16, i;
	pid_t *v = xmalloc(cap * sizeof(*v));

	*n = 0;
	for (i = 0; i < npids; i++) {
		char path[64];
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pids[i]);
		d = opendir(path);
		if (!d) {
			v[(*n)++] = pids[i];
			continue;
		}
		while ((de = readdir(d))) {
			int tid = atoi(de->d_name);

			if (tid <= 0)
				continue;
			if (*n == cap) {
				cap *= 2;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[(*n)++] = tid;
			evsums_set_tgid(a, evsums_thread(a, tid), pids[i]);
		}
		closedir(d);
	}
	return v;
}

/* The clocks whose stamps are ns (mapped by an offset and a rate near 1), and the TSC's. */
static const char *const ns_clocks[] = { "local", "global", "perf", "mono", "mono_raw", "boot", "tai" };

bool counting_clock_ok(const char *name)
{
	size_t i;

	if (!strcmp(name, "auto") || !strcmp(name, "x86-tsc"))
		return true;
	for (i = 0; i < ARRAY_SIZE(ns_clocks); i++)
		if (!strcmp(name, ns_clocks[i]))
			return true;
	return false;
}

/*
 * The cheapest clock that is safe here. Calls are paired across CPUs, a
 * switch-out with its wakeup on another CPU, and intervals end at a
 * CLOCK_MONOTONIC time: the clock must agree across CPUs. "mono"
 * (ktime_get_mono_fast_ns) does, but reads the clocksource (kvm-clock here:
 * +0.06-0.10x on a getppid flood, bench/clockcost.sh). "local"
 * (sched_clock) is cheaper and agrees across CPUs when the kernel says it
 * is stable (kernel/sched/clock.c); its stamps are then mapped to
 * CLOCK_MONOTONIC (clockmap). Otherwise, or when that cannot be told, mono.
 */
static const char *pick_clock(const char *want, char *why, size_t whylen)
{
	if (want && *want && strcmp(want, "auto")) {
		snprintf(why, whylen, "KTOP_TRACE_CLOCK");
		return want;
	}
	return sched_clock_stable(why, whylen) == 1 ? "local" : "mono";
}

/*
 * Map a clock other than mono: the first sample now (two, 5 ms apart, for a
 * TSC's rate). Returns 0, or -errno when the clock cannot be read (the
 * caller falls back to mono).
 */
static int start_clock(struct counting *ft, const char *clock)
{
	uint64_t raw, lo, hi;
	int in_ns, err;

	clockmap_init(&ft->cmap, 1.0, 500);
	err = instance_clock_now(ft->tr, 3, &raw, &lo, &hi, &in_ns);
	if (err)
		return err;
	if (!in_ns) {
		const struct timespec wait = { 0, 5000000 };

		clockmap_init(&ft->cmap, 0, 0);
		clockmap_sample(&ft->cmap, raw, lo, hi);
		nanosleep(&wait, NULL);
		err = instance_clock_now(ft->tr, 3, &raw, &lo, &hi, &in_ns);
		if (err)
			return err;
	}
	clockmap_sample(&ft->cmap, raw, lo, hi);
	if (!clockmap_ready(&ft->cmap))
		return -EIO;
	ft->cut_margin = ft->cmap.bound_ns;
	ft->mapped = true;
	ft->dec.cmap = &ft->cmap;
	snprintf(ft->st.clock, sizeof(ft->st.clock), "%s", clock);
	return 0;
}

static struct sockconn_proc conn_proc(void *arg, pid_t tid, uint64_t ts);

/* The counting source's state before its instance: the sums, the maps, the default events. */
static struct counting *counting_alloc(int64_t only_uid)
{
	struct counting *ft = xcalloc(1, sizeof(*ft));
	size_t i;

	evsums_init(&ft->acct);
	sockconn_init(&ft->conns);
	sockconn_set_procs(&ft->conns, conn_proc, ft);
	/* Each CPU is read in turn: forks, execs, renames and exits are merged by time. */
	ft->acct.order_life = true;
	ft->resolve_budget = RESOLVE_PER_TICK;
	pidmap_init(&ft->noted);
	pidmap_init(&ft->withheld);
	pidmap_init(&ft->abi_memo);
	ft->only_uid = only_uid;
	for (i = 0; i < ARRAY_SIZE(default_kinds); i++)
		ft->kinds[ft->nkinds++] = default_kinds[i];
	return ft;
}

int counting_start(const struct counting_opts *o, struct counting **out)
{
	const char *events[EV_NR][2];
	struct instance_config cfg = { 0 };
	struct counting *ft = counting_alloc(geteuid() == 0 ? -1 : (int64_t)geteuid());
	pid_t *tids = NULL;
	char missing[128];
	size_t i, len;
	int err;

	*out = ft;
	if (o->time_syscalls)
		ft->kinds[ft->nkinds++] = EV_SYS_ENTER;
	if (o->pids) {
		ft->kinds[ft->nkinds++] = EV_SIGDELIVER;
		ft->acct.recv_on_deliver = true;
	} else {
		/*
		 * The block devices (collectors/trace/blockev.h), three events a
		 * request. Not with -p: the kernel's pid filter would keep
		 * only the completions that interrupt a watched process.
		 */
		ft->kinds[ft->nkinds++] = EV_BLK_ISSUE;
		ft->kinds[ft->nkinds++] = EV_BLK_COMPLETE;
		ft->kinds[ft->nkinds++] = EV_BLK_START;
		ft->kinds[ft->nkinds++] = EV_BLK_REQUEUE;
	}
	for (i = 0; i < ft->nkinds; i++) {
		events[i][0] = ev_system(ft->kinds[i]);
		events[i][1] = ev_name(ft->kinds[i]);
	}
	cfg.events = (const char *const (*)[2])events;
	cfg.nevents = ft->nkinds;
	cfg.buffer_kb = o->buffer_kb;
	cfg.keep_buffer = o->baseline_only && !o->buffer_kb;
	cfg.buffer_percent = WAKE_PERCENT;
	if (o->pids) {
		tids = threads_of(&ft->acct, o->pids, o->npids, &cfg.npids);
		cfg.pids = tids;
		cfg.follow_forks = true;
	}
	cfg.clock = pick_clock(o->trace_clock, ft->st.clock_why, sizeof(ft->st.clock_why));
	cfg.flight = o->flight;
	err = instance_open(&cfg, &ft->tr, ft->status, sizeof(ft->status), missing, sizeof(missing));
	free(tids);
	if (err)
		return err;
	err = load_formats(ft, missing, sizeof(missing));
	if (err) {
		snprintf(ft->status, sizeof(ft->status), "tracing off: cannot read event formats: %s",
			 strerror(-err));
		instance_close(ft->tr);
		ft->tr = NULL;
		return err;
	}
	ft->dec.self = getpid();
	/* The sockets are known by the sock events' sk (6.3+ have it). */
	if (ft->loaded[EV_SOCK_SEND] && ft->dec.f[EV_SOCK_SEND][3].size)
		ft->dec.conns = &ft->conns;
	if (ft->loaded[EV_BLK_ISSUE] && ft->loaded[EV_BLK_COMPLETE]) {
		ft->blk = blockev_new("/sys");
		ft->dec.blk = ft->blk;
	} else if (o->pids) {
		ft->disks_why = "not counted with -p or -- CMD: the kernel's pid filter would drop other tasks' completions";
	} else {
		ft->disks_why = "not counted: this kernel has no block:block_rq_issue and block_rq_complete events";
	}
	snprintf(ft->st.clock, sizeof(ft->st.clock), "mono");
	if (strcmp(cfg.clock, "mono") && start_clock(ft, cfg.clock)) {
		/* Its time cannot be read here: mono after all (the buffers start again). */
		snprintf(ft->st.clock_why, sizeof(ft->st.clock_why), "%s unreadable", cfg.clock);
		instance_set_clock(ft->tr, "mono");
	}
	len = 0;
	if (missing[0])
		len = (size_t)snprintf(ft->status, sizeof(ft->status), "events missing here: %s; ",
				       missing);
	if (len < sizeof(ft->status))
		snprintf(ft->status + len, sizeof(ft->status) - len, "trace clock %s", ft->st.clock);
	ft->group_dead_known = ft->loaded[EV_PEXIT] && ft->dec.f[EV_PEXIT][1].size;
	ft->acct.group_dead_known = ft->group_dead_known;
	/*
	 * Calls are paired as decoded while their thread stays on one CPU,
	 * which only its switch-outs tell (evsums.h, evsums_thread.seg).
	 */
	ft->acct.order_times = ft->loaded[EV_SYS_ENTER] && ft->loaded[EV_SYS_EXIT] &&
			       ft->loaded[EV_SWITCH];
	/* The state split needs switch-ins and wakeups: all of them, or none of it. */
	ft->acct.states = ft->loaded[EV_SWITCH] && ft->dec.f[EV_SWITCH][2].size &&
			  ft->loaded[EV_WAKEUP] && ft->loaded[EV_WAKEUP_NEW];
	/* Applied as the drains read every CPU past them: a tick's worth never piles up. */
	if (ft->acct.states) {
		/* Tracing began: every thread's run time now, for the dark ones' (evdark.c). */
		darkrun_start(&ft->dark, &ft->acct);
		evsums_state_cpus(&ft->acct, instance_ncpus(ft->tr));
		for (i = 0; i < (size_t)instance_ncpus(ft->tr); i++)
			if (instance_cpu_fd(ft->tr, (int)i) < 0)
				evsums_state_no_cpu(&ft->acct, (int)i);
	}
	ft->page = xmalloc((size_t)instance_page_size(ft->tr));
	ft->st.buffer_kb = instance_buffer_kb(ft->tr);
	ft->on = true;
	return 0;
}

struct counting *counting_new_offline(int64_t only_uid)
{
	struct counting *ft = counting_alloc(only_uid);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(default_kinds); i++)
		ft->loaded[default_kinds[i]] = true;
	ft->group_dead_known = ft->acct.group_dead_known = true;
	ft->reads = 2;
	ft->on = true;
	return ft;
}

struct evsums *counting_acct(struct counting *ft)
{
	return &ft->acct;
}

void counting_stop(struct counting *ft)
{
	if (!ft)
		return;
	for (int i = 0; ft->stash && i < instance_ncpus(ft->tr); i++) {
		free(ft->stash[i].pages);
		free(ft->stash[i].len);
	}
	free(ft->stash);
	instance_close(ft->tr);
	if (ft->decoder_ready)
		evdecode_free(&ft->dec);
	blockev_free(ft->blk);
	darkrun_free(&ft->dark);
	evsums_free(&ft->acct);
	sockconn_free(&ft->conns);
	pidmap_free(&ft->noted);
	pidmap_free(&ft->withheld);
	pidmap_free(&ft->abi_memo);
	free(ft->page);
	free(ft->added);
	free(ft->cred_ids);
	free(ft->held_ids);
	free(ft->moved_ids);
	free(ft->exec_owner);
	free(ft->priv);
	free(ft);
}

bool counting_on(const struct counting *ft)
{
	return ft && ft->on;
}

uint32_t counting_event_counters(const struct counting *ft)
{
	if (!counting_on(ft))
		return 0;
	/*
	 * Only what the events enabled can count: without sched_switch the
	 * context switches come from /proc; without the signal events the
	 * signal columns are unknown, never 0.
	 */
	uint32_t c = 0;

	if (ft->loaded[EV_SYS_EXIT])
		c |= (1u << CNT_SYSCALLS) | (1u << CNT_SYSERR);
	if (ft->loaded[EV_SWITCH])
		c |= (1u << CNT_VCSW) | (1u << CNT_IVCSW);
	if (ft->loaded[EV_SIGNAL])
		c |= 1u << CNT_SIGSENT;
	if (ft->acct.recv_on_deliver ? ft->loaded[EV_SIGDELIVER] : ft->loaded[EV_SIGNAL])
		c |= 1u << CNT_SIGRECV;
	if (ft->acct.order_times)
		c |= 1u << CNT_SCTIME;
	if (ft->loaded[EV_SOCK_SEND])
		c |= 1u << CNT_NET_TX;
	if (ft->loaded[EV_SOCK_RECV])
		c |= 1u << CNT_NET_RX;
	if (ft->acct.states)
		c |= CNT_STATE_MASK | (1u << CNT_EXITCPU);
	return c;
}

int64_t counting_only_uid(const struct counting *ft)
{
	return ft->only_uid;
}

void counting_emergency_stop(void)
{
	instance_emergency_stop();
}

const char *counting_status(const struct counting *ft)
{
	return ft ? ft->status : "";
}

const char *counting_disks_why(const struct counting *ft)
{
	return ft && ft->disks_why ? ft->disks_why : "";
}

size_t counting_pollfds(const struct counting *ft, struct pollfd *pfd, size_t max)
{
	return counting_on(ft) ? instance_pollfds(ft->tr, pfd, max) : 0;
}

/*
 * Returns the pages read; stops at @max, when the CPU has nothing more, or
 * at a partial page of nothing but ktop's own calls: each read of it adds
 * one (its sys_exit), and what follows was written after the cut.
 */
static size_t read_cpu(struct counting *ft, int cpu, bool flush, size_t max)
{
	struct stash *sh = ft->stash ? &ft->stash[cpu] : NULL;
	size_t pages = 0, stashed = 0;
	bool partial;
	int n, got;

	evsums_set_cpu(&ft->acct, cpu);
	/* What counting_stash took from this CPU came first. */
	for (; sh && sh->head < sh->n; sh->head++, stashed++)
		if (evdecode_page(&ft->dec, sh->pages + sh->head * (size_t)instance_page_size(ft->tr),
				  (size_t)sh->len[sh->head], &ft->acct) < 0)
			ft->st.malformed++;
	/* Decoded: its copies go (up to STASH_BUFFERS times the ring buffer a CPU). */
	if (sh && sh->cap) {
		free(sh->pages);
		free(sh->len);
		memset(sh, 0, sizeof(*sh));
	}
	if (sh && sh->cap * ((size_t)instance_page_size(ft->tr) + sizeof(int)) > ft->st.stash_kept)
		ft->st.stash_kept = sh->cap * ((size_t)instance_page_size(ft->tr) + sizeof(int));
	while (pages < max && (n = instance_read_page(ft->tr, cpu, ft->page, flush, &partial)) > 0) {
		got = evdecode_page(&ft->dec, ft->page, (size_t)n, &ft->acct);
		if (got < 0)
			ft->st.malformed++;
		pages++;
		if (partial && got == 0)
			break;
	}
	ft->st.pages += pages + stashed;
	return pages + stashed;
}

/*
 * A long /proc scan (a read of /proc/PID/stat waits while PID execs: 10,000
 * processes exec'ing at once held a tick 40 s) must not let the ring buffers
 * overrun: ktop copies their whole sub-buffers out, without decoding
 * anything (the tick's counts are being folded), and read_cpu decodes them
 * first. At most STASH_BUFFERS times the ring buffer a CPU; past that the
 * kernel drops events, and they are counted as lost as always.
 */
#define STASH_BUFFERS 4

void counting_stash(struct counting *ft)
{
	size_t psz, max;
	int cpu, n;

	if (!counting_on(ft))
		return;
	psz = (size_t)instance_page_size(ft->tr);
	max = STASH_BUFFERS * (instance_buffer_kb(ft->tr) * 1024 / psz + 1);
	if (!ft->stash)
		ft->stash = xcalloc((size_t)instance_ncpus(ft->tr), sizeof(*ft->stash));
	for (cpu = 0; cpu < instance_ncpus(ft->tr); cpu++) {
		struct stash *sh = &ft->stash[cpu];

		while (sh->n < max) {
			if (sh->n == sh->cap) {
				sh->cap = sh->cap ? 2 * sh->cap : 16;
				sh->pages = xrealloc(sh->pages, sh->cap * psz);
				sh->len = xrealloc(sh->len, sh->cap * sizeof(*sh->len));
			}
			n = instance_read_page(ft->tr, cpu, sh->pages + sh->n * psz, false, NULL);
			if (n <= 0)
				break;
			sh->len[sh->n++] = n;
			ft->st.stashed++;
		}
	}
}

/*
 * How far before what the drains read the state split's records may be
 * applied: mono's stamps are the cut's clock, every one read before the
 * tick is before its cut. Mapped ones may be up to the mapping's error
 * past it, and the tick moves its cut back by as much (calibrate): twice
 * the error known, and a millisecond for a next sample that shows more.
 */
static uint64_t drain_slack(const struct counting *ft)
{
	uint64_t bound = ft->cmap.bound_ns > ft->cut_margin ? ft->cmap.bound_ns : ft->cut_margin;

	return ft->mapped ? 2 * bound + 1000000 : 0;
}

void counting_drain(struct counting *ft, int fd)
{
	int i;

	if (!counting_on(ft))
		return;
	for (i = 0; i < instance_ncpus(ft->tr); i++)
		if (instance_cpu_fd(ft->tr, i) == fd && read_cpu(ft, i, false, DRAIN_BATCH)) {
			ft->st.drains++;
			evsums_state_drained(&ft->acct, drain_slack(ft));
		}
}

/*
 * The threads of process @tgid that acct knows without their process: all of
 * them at once, from one listing of /proc/TGID/task. A process of 10,000
 * threads that were there before tracing started costs one status read and
 * one listing, not 10,000 status reads in one tick.
 */
static void adopt_siblings(struct counting *ft, pid_t tgid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct evsums_thread *t;
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0 || !(t = pidmap_get(&ft->acct.threads, (pid_t)tid)) || t->tgid)
			continue;
		evsums_set_tgid(&ft->acct, t, tgid);
	}
	closedir(d);
}

/*
 * The process of a thread no event introduced (it existed before tracing
 * started): /proc/TID/status says, once per process (adopt_siblings). At most
 * RESOLVE_PER_TICK reads a tick: a thread left for the next tick keeps its
 * counts (evsums_carry), so a tick never waits on thousands of reads.
 * @read false: what is known without a read (none spent, nothing deferred).
 */
static pid_t tgid_of(struct counting *ft, struct evsums_thread *th, bool read)
{
	struct pid_status st;
	char path[64], buf[2048];
	ssize_t n;

	if (th->tgid)
		return th->tgid;
	/* A thread made by one whose process was not known: it is the creator's. */
	if (th->creator) {
		struct evsums_thread *c = pidmap_get(&ft->acct.threads, th->creator);

		th->creator = 0;
		if (c && c != th && tgid_of(ft, c, read)) {
			evsums_set_tgid(&ft->acct, th, c->tgid);
			return th->tgid;
		}
	}
	/*
	 * A task /proc listed as a process (or, with threads, as a thread of
	 * one): it existed before tracing, so no event can have said, and it
	 * may be gone already (a mass exit: reads would fail, or run out).
	 */
	if (ft->model) {
		const struct task *t = model_task_find(ft->model, th->tid);

		if (t && t->tgid > 0 && (ft->model->threads || t->tgid == th->tid)) {
			evsums_set_tgid(&ft->acct, th, t->tgid);
			return th->tgid;
		}
	}
	if (!read)
		return 0;
	if (!ft->resolve_budget) {
		ft->deferred = true;
		return 0;
	}
	ft->resolve_budget--;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)th->tid);
	n = read_small_file(path, buf, sizeof(buf));
	if (n <= 0 || procfs_parse_pid_status(buf, (size_t)n, &st) || st.tgid <= 0)
		return 0;
	evsums_set_tgid(&ft->acct, th, (pid_t)st.tgid);
	if (st.tgid != th->tid)
		adopt_siblings(ft, (pid_t)st.tgid);
	return th->tgid;
}

static pid_t resolve_tgid(struct counting *ft, struct evsums_thread *th)
{
	return tgid_of(ft, th, true);
}

/*
 * The process of thread @tid at @ts, for the sockets' table
 * (sockconn_set_procs): the life of the tid that holds @ts (each event was
 * routed to it when decoded; looked up, none made), its process, and that
 * process's life as its rows have it (add_row), so that a reused pid's
 * process is another. Not known: { 0, the thread's life }.
 */
static struct sockconn_proc conn_proc(void *arg, pid_t tid, uint64_t ts)
{
	struct counting *ft = arg;
	struct evsums_thread *th = pidmap_get(&ft->acct.threads, tid), *l, *leader;
	struct sockconn_proc p = { 0 };

	for (l = th; l && (ts < l->life_lo || ts > l->life_hi); l = l->older)
		;
	if (l)
		th = l;
	if (!th)
		return p;
	/* After its exit /proc has nothing to say (a read would only spend the budget). */
	p.tgid = tgid_of(ft, th, !(th->end_ts && ts >= th->end_ts));
	if (!p.tgid) {
		p.life = th->serial;
		return p;
	}
	leader = evsums_life_of_proc(&ft->acct, th, p.tgid);
	p.life = leader ? (leader->own_life ? leader->serial : 0) : th->proc_life;
	return p;
}

/*
 * The ABI of a thread no event told (it ran before tracing started, or its
 * creator is unknown): its program's ELF class, read once per process and
 * tick (abi_memo). One whose program cannot be read (gone, a kernel thread)
 * is taken as native. At most ABI_PER_TICK reads a tick (the first tick
 * among 10,000 processes): the others stay unknown, their calls of this
 * interval named as native, and are read in the next ticks.
 */
static void resolve_abi(struct counting *ft, struct evsums_thread *th, pid_t tgid)
{
	uintptr_t v = (uintptr_t)pidmap_get(&ft->abi_memo, tgid);
	int c;

	if (!v) {
		if (!ft->abi_budget)
			return;
		ft->abi_budget--;
		c = exe_compat(tgid);
		v = c > 0 ? 2 : 1;
		pidmap_put(&ft->abi_memo, tgid, (void *)v);
	}
	evsums_set_abi(&ft->acct, th, v == 2);
}

/*
 * A thread whose state is known but that nothing happened to this interval
 * (no scheduler event, no count), of a task /proc did not see this tick:
 * gone, its exit lost (an overflow). Its state is forgotten, it has no row.
 */
static bool state_ghost(const struct model *m, struct evsums_thread *th, pid_t tgid)
{
	const struct task *t;
	int c;

	if (th->st_moved || th->exited || th->st == ACCT_ST_UNKNOWN)
		return false;
	for (c = 0; c < CNT_ONCPU; c++)
		if (th->n[c])
			return false;
	t = model_task_find(m, m->threads ? th->tid : tgid);
	if (t && t->seen_tick == m->tick)
		return false;
	th->st = ACCT_ST_UNKNOWN;
	return true;
}

/*
 * The row that @th's events add to, into @s: one /proc did not list (born and
 * gone within the interval) is made from the events, one /proc listed before
 * but not now is gone (model_apply says so). Returns NULL when it must not be
 * shown: outside the focus, or not the user's.
 */
static struct row_events *add_row(struct counting *ft, const struct model *m, struct sample *s,
				  struct evsums_thread *th, pid_t tgid)
{
	pid_t id = m->threads ? th->tid : tgid;
	const struct task *t = model_task_find(m, id);
	/* Its process's life (a reused tgid's older one, for a thread of that). */
	struct evsums_thread *leader = m->threads ? th : evsums_life_of_proc(&ft->acct, th, tgid);
	struct row_events *e;

	if (m->focus && !model_is_focused(m, tgid))
		return NULL;
	if (ft->only_uid >= 0) {
		struct evsums_thread *proc = pidmap_get(&ft->acct.threads, tgid);

		/* Nobody can say whose it was; a user sees only their own tasks. */
		if (!t || t->uid != ft->only_uid)
			return NULL;
		/*
		 * It exec'd and was gone before /proc could say whose it was
		 * then: the program may have been a setuid one. Hidden.
		 */
		if (t->seen_tick != m->tick && proc && proc->renamed)
			return NULL;
	}
	e = sample_add_row(s);
	e->id = id;
	e->tgid = tgid;
	memcpy(e->comm, (leader && leader->comm[0] ? leader : th)->comm, sizeof(e->comm));
	e->renamed = leader && leader->named && leader->comm[0];
	e->ppid = (leader ? leader : th)->ppid;
	/*
	 * A thread's exit ends a thread row; a process's ends with its last
	 * thread (acct.dead, from group_dead). A kernel without that field
	 * (before 6.16): the leader's exit, most often the last.
	 */
	e->exited = th->exited && (m->threads || (!ft->group_dead_known && th->tid == tgid));
	/*
	 * Which life: its number when it began while traced; an older one
	 * ended (evlives.c). A thread's row is its process's: its leader's
	 * life, or the number it was made in.
	 */
	if (leader) {
		e->life = leader->own_life ? leader->serial : 0;
		e->born = leader->born;
		e->ended = leader->ended;
	} else {
		e->life = th->proc_life;
	}
	e->unsure = th->mixed || (leader && leader->mixed);
	return e;
}

static void push_id(pid_t **v, size_t *n, size_t *cap, pid_t id)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = id;
}

size_t counting_cred_changes(struct counting *ft, const struct model *m, const pid_t **ids)
{
	const struct evsums *a;
	struct evsums_thread *th;
	size_t i;

	*ids = NULL;
	if (!counting_on(ft))
		return 0;
	ft->model = m;
	a = &ft->acct;
	ft->ncred_ids = ft->nexec_owner = 0;
	if (a->nexecs > ft->cap_exec_owner) {
		ft->cap_exec_owner = a->nexecs;
		ft->exec_owner = xrealloc(ft->exec_owner, a->nexecs * sizeof(*ft->exec_owner));
	}
	for (i = 0; i < a->nexecs; i++) {
		const struct task *t = model_task_find(m, a->execs[i].pid);

		/* Whose it was: the model still has the last tick's owner. */
		ft->exec_owner[i] = t ? t->uid : -1;
		ft->nexec_owner = i + 1;
		/* An exec leaves one thread, with the process's pid. */
		push_id(&ft->cred_ids, &ft->ncred_ids, &ft->cap_cred_ids, a->execs[i].pid);
	}
	for (th = evsums_first_active(a); th; th = th->next) {
		pid_t id = th->cred_call ? m->threads ? th->tid : resolve_tgid(ft, th) : 0;

		if (id)
			push_id(&ft->cred_ids, &ft->ncred_ids, &ft->cap_cred_ids, id);
	}
	*ids = ft->cred_ids;
	return ft->ncred_ids;
}

size_t counting_cgroup_moves(struct counting *ft, const struct model *m, const pid_t **ids)
{
	const struct evsums *a;
	size_t i;

	*ids = NULL;
	if (!counting_on(ft))
		return 0;
	a = &ft->acct;
	ft->nmoved_ids = 0;
	for (i = 0; i < a->nmoved; i++) {
		pid_t id = a->moved[i];

		/* A process moves as a whole on cgroup v2: its leader's event names it. */
		if (!m->threads) {
			const struct evsums_thread *t = pidmap_get(&a->threads, id);

			if (t && t->tgid)
				id = t->tgid;
		}
		if (ft->nmoved_ids && ft->moved_ids[ft->nmoved_ids - 1] == id)
			continue;
		push_id(&ft->moved_ids, &ft->nmoved_ids, &ft->cap_moved_ids, id);
	}
	*ids = ft->moved_ids;
	return ft->nmoved_ids;
}

/* @t's process stops being reported: it gained privileges (@from 0) or descends from @from. */
static void note_privileged(struct counting *ft, const struct model *m, struct sample *s, pid_t pid,
			    pid_t from, const char *comm)
{
	struct counting_priv *p;

	if (pidmap_get(&ft->noted, pid))
		return;
	pidmap_put(&ft->noted, pid, ft);
	if (ft->npriv == ft->cap_priv) {
		ft->cap_priv = ft->cap_priv ? ft->cap_priv * 2 : 8;
		ft->priv = xrealloc(ft->priv, ft->cap_priv * sizeof(*ft->priv));
	}
	p = &ft->priv[ft->npriv++];
	p->pid = pid;
	p->from = from;
	/* A followed one leaves the focus; one the user named stays, its events unknown. */
	p->pinned = model_is_pinned(m, pid);
	if (!p->pinned)
		sample_add_unfocus(s, pid);
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
}

static pid_t parent_of(struct counting *ft, const struct evsums_thread *c);

/*
 * Not root, at the end of an interval in which credentials may have changed
 * (the owners of those tasks were read again since: procfs_recheck_owners).
 *
 * - A process that exec'd and is another user's now (a setuid program, or one
 *   the exec made non-dumpable: setgid, file capabilities) is like any other
 *   user's: row_of leaves it out, its row's events are unknown from this
 *   interval on. A watched one is noted (counting_privileged).
 * - One that is still the user's, but ran a program on the way that is not
 *   ordinary (a setuid program that exec'd one of the user's in the same
 *   interval, or a name that cannot be looked up): what ran in between was
 *   not the user's, the interval is withheld.
 * - One that exec'd and is gone before /proc said whose it was: row_of.
 * - A task whose set*id, setgroups or capset call succeeded: before it, it was
 *   another user's (a root process becoming the user's: a login, cron, su's
 *   child) or, rarely, the user's choosing among their own ids: the interval
 *   is withheld either way.
 *
 * An interval's counts cannot be split at the exec: the events before it in
 * that interval, the user's own, go with the rest.
 */
static void withhold(struct counting *ft, struct sample *s, pid_t id)
{
	if (pidmap_get(&ft->withheld, id))
		return;
	pidmap_put(&ft->withheld, id, ft);
	sample_add_withheld(s, id);
}

static void judge_creds(struct counting *ft, const struct model *m, struct sample *s)
{
	const struct evsums *a = &ft->acct;
	struct evsums_thread *th;
	bool more = true;
	size_t i;
	int pass;

	for (i = 0; i < a->nexecs; i++) {
		const struct evsums_exec *x = &a->execs[i];
		const struct task *t = model_task_find(m, x->pid);
		int64_t before = i < ft->nexec_owner ? ft->exec_owner[i] : -1;

		if (!t || t->seen_tick != m->tick || pidmap_get(&ft->withheld, x->pid) ||
		    !model_is_focused(m, x->pid))
			continue;
		if (t->uid != ft->only_uid) {
			/*
			 * Gained, if it was the user's: a watched process is, unless
			 * -p named another user's; a new one was forked by a
			 * watched one (followed), the user's.
			 */
			if (m->focus && (before < 0 || before == ft->only_uid))
				note_privileged(ft, m, s, x->pid, 0, t->comm);
		} else if (x->cut || !creds_exec_ordinary(x->pid, x->file, sizeof(x->file),
						     (uid_t)ft->only_uid, getegid())) {
			withhold(ft, s, x->pid);
		}
	}
	for (th = evsums_first_active(a); th; th = th->next) {
		pid_t id;

		if (!th->cred_call)
			continue;
		id = m->threads ? th->tid : resolve_tgid(ft, th);
		if (id && model_task_find(m, id))
			withhold(ft, s, id);
	}
	/* What they forked this interval joined the focus already: it goes with them. */
	for (pass = 0; ft->npriv && more && pass < FOLLOW_PASSES; pass++) {
		more = false;
		for (i = m->npinned; i < m->nfocus; i++) {
			struct evsums_thread *c = pidmap_get(&a->threads, m->focus[i]);
			pid_t parent = c ? parent_of(ft, c) : 0;

			if (parent && pidmap_get(&ft->noted, parent) && !pidmap_get(&ft->noted, c->tid)) {
				note_privileged(ft, m, s, c->tid, parent, c->comm);
				more = true;
			}
		}
	}
}

size_t counting_privileged(const struct counting *ft, const struct counting_priv **out)
{
	if (!counting_on(ft))
		return 0;
	*out = ft->priv;
	return ft->npriv;
}

/* The process of thread @tid, and what the events call it; the tid itself when not known. */
static pid_t flow_end(struct counting *ft, pid_t tid, char comm[16])
{
	struct evsums_thread *th = tid > 0 ? pidmap_get(&ft->acct.threads, tid) : NULL;
	struct evsums_thread *leader;
	pid_t tgid;

	comm[0] = '\0';
	if (!th)
		return tid;
	tgid = resolve_tgid(ft, th);
	if (!tgid)
		tgid = tid;
	leader = pidmap_get(&ft->acct.threads, tgid);
	memcpy(comm, (leader && leader->comm[0] ? leader : th)->comm, 16);
	return tgid;
}

/* May the rows of process @tgid be shown (focus, and not root: the user's own)? */
static bool flow_visible(const struct counting *ft, const struct model *m, pid_t tgid)
{
	const struct task *t;

	if (tgid <= 0)
		return false;
	if (m->focus && !model_is_focused(m, tgid))
		return false;
	if (ft->only_uid < 0)
		return true;
	t = model_task_find(m, tgid);
	return t && t->uid == ft->only_uid;
}

/*
 * The interval's signals per (sender, receiver, signal, result), as
 * processes: a flow is shown when either end's rows are (a user sees the
 * signals their processes send and receive).
 */
static void add_flows(struct counting *ft, const struct model *m, struct sample *s)
{
	const struct evsums *a = &ft->acct;
	size_t i;

	for (i = 0; i < a->nflows; i++) {
		const struct evsums_flow *f = &a->flows[a->flow_idx[i]];
		struct sig_flow *o;
		char sc[16], rc[16];
		pid_t sender = flow_end(ft, f->sender, sc);
		pid_t receiver = flow_end(ft, f->target, rc);

		if (!flow_visible(ft, m, sender) && !flow_visible(ft, m, receiver))
			continue;
		o = sample_add_flow(s);
		o->sender = sender;
		o->receiver = receiver;
		o->sig = f->sig;
		o->result = f->result;
		o->n = f->n;
		memcpy(o->sender_comm, sc, sizeof(sc));
		memcpy(o->receiver_comm, rc, sizeof(rc));
	}
	/* Past the bound: counted, on the other row (root only: whose is not known). */
	if (a->flows_over && ft->only_uid < 0 && !m->focus) {
		struct sig_flow *o = sample_add_flow(s);

		o->sender = o->receiver = -1;
		o->n = a->flows_over;
	}
}

/*
 * The sockets of the interval (collectors/trace/sockconn.h), as processes: the
 * Connections view. Shown as flows are: a user sees their processes' own;
 * a socket no process used yet (accepted, not read) and the sockets the full
 * table did not keep only as root, without a focus.
 */
static void add_conns(struct counting *ft, const struct model *m, struct sample *s)
{
	const struct sockconn *c = &ft->conns;
	bool all = ft->only_uid < 0 && !m->focus;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct sockconn_entry *e = &c->v[i];
		struct sock_conn *o;
		char comm[16] = "";
		pid_t pid;

		if (!e->active)
			continue;
		pid = e->tid ? flow_end(ft, e->tid, comm) : 0;
		/* Its row is its process's (sockconn.h): that one, should the tid be another's now. */
		if (e->proc.tgid > 0 && pid != e->proc.tgid) {
			pid = e->proc.tgid;
			comm[0] = '\0';
		}
		if (pid ? !flow_visible(ft, m, pid) : !all)
			continue;
		o = sample_add_conn(s);
		o->id = e->id;
		o->pid = pid;
		memcpy(o->comm, comm, sizeof(comm));
		o->family = e->family;
		o->protocol = e->protocol;
		o->state = e->state;
		o->flags = (e->named ? SOCK_CONN_NAMED : 0) | (e->begun ? SOCK_CONN_BEGUN : 0);
		o->lport = e->lport;
		o->rport = e->rport;
		memcpy(&o->addr[0], e->laddr, 16);
		memcpy(&o->addr[2], e->raddr, 16);
		o->tx = e->n[SCN_TX];
		o->rx = e->n[SCN_RX];
		o->retrans = e->n[SCN_RETRANS];
		o->resets = e->n[SCN_RESETS];
		o->tx_total = e->total[SCN_TX];
		o->rx_total = e->total[SCN_RX];
		o->retrans_total = e->total[SCN_RETRANS];
		o->first_ns = e->first_ns;
	}
	if (all && (c->other[SCN_TX] || c->other[SCN_RX] || c->other[SCN_RETRANS] ||
		    c->other[SCN_RESETS])) {
		struct sock_conn *o = sample_add_conn(s);

		o->tx = c->other[SCN_TX];
		o->rx = c->other[SCN_RX];
		o->retrans = c->other[SCN_RETRANS];
		o->resets = c->other[SCN_RESETS];
	}
}

/* @th's counts go on into the next interval, and so do the totals' share of them. */
static void carry(struct counting *ft, struct evsums_thread *th)
{
	int c;

	evsums_carry(&ft->acct, th);
	for (c = 0; c < CNT_NR; c++)
		ft->carried_now[c] += th->n[c];
}

/* @th's row (@id) waits for the next tick, once, its counts carried; @why counts it. */
static void hold_row(struct counting *ft, struct evsums_thread *th, pid_t id, uint64_t *why)
{
	th->held = true;
	(*why)++;
	carry(ft, th);
	push_id(&ft->held_ids, &ft->nheld_ids, &ft->cap_held_ids, id);
}

/*
 * A row that ends this tick (a thread's, or a process's last thread) whose
 * exit was read but not its last switch: its CPU was read in between, and
 * what the kernel does after the exit event (SIGCHLD to the parent, that
 * switch) comes next tick. Its row waits for it, so it is shown once, whole,
 * not twice. Once: a lost switch does not keep it longer. Never at the
 * @last collect: no tick would show it.
 */
static bool hold_ending(struct counting *ft, const struct model *m, struct evsums_thread *th,
			pid_t tgid, bool last)
{
	bool ends = m->threads || (ft->group_dead_known ? th->group_dead : th->tid == tgid);

	if (last || th->exited != 1 || !ends || evsums_gone(th) || th->held ||
	    !ft->loaded[EV_SWITCH])
		return false;
	hold_row(ft, th, m->threads ? th->tid : tgid, &ft->st.held);
	return true;
}

/*
 * A row of a process born while traced whose fork was not read yet: its
 * parent's CPU was read before the fork was written, its own after its exec
 * or exit were. Its parent, and with -- CMD whether it is followed at all,
 * come with the fork next tick: the row waits for it, once. Born while
 * traced: /proc never listed it (without a focus), or the kernel's pid
 * filter let its calls through (with one: only the focus's descendants').
 */
static bool hold_unparented(struct counting *ft, const struct model *m, struct evsums_thread *th,
			    pid_t tgid, bool last)
{
	const struct evsums_thread *leader = m->threads ? th : evsums_life_of_proc(&ft->acct, th, tgid);
	pid_t id = m->threads ? th->tid : tgid;

	if (last || th->held || !leader || leader->ppid || !ft->loaded[EV_NEWTASK])
		return false;
	if (m->focus ? !m->focus_follow || model_is_focused(m, tgid) ||
			       !(th->n[CNT_SYSCALLS] || th->exited || leader->named)
		     : model_task_find(m, id) != NULL)
		return false;
	hold_row(ft, th, id, &ft->st.unparented);
	return true;
}

/* A process's last thread exited: its row is its last one. */
static void tell_exit(struct counting *ft, struct sample *s, pid_t tgid)
{
	sample_add_exit(s, tgid);
	/* Its pid, reused, is another process. */
	pidmap_del(&ft->noted, tgid);
}

static void fold(struct counting *ft, const struct model *m, struct sample *s, bool last)
{
	struct evsums_thread *th;
	size_t i;
	int c;

	ft->npriv = 0;
	ft->nheld_ids = 0;
	ft->resolve_budget = RESOLVE_PER_TICK;
	memcpy(ft->carried_prev, ft->carried_now, sizeof(ft->carried_prev));
	memset(ft->carried_now, 0, sizeof(ft->carried_now));
	pidmap_clear(&ft->withheld);
	pidmap_clear(&ft->abi_memo);
	ft->abi_budget = ABI_PER_TICK;
	/* Before judge_creds: a 32-bit program's credential calls have other numbers. */
	for (th = evsums_first_active(&ft->acct); th; th = th->next) {
		pid_t tgid;

		if (th->abi_known)
			continue;
		ft->deferred = false;
		tgid = resolve_tgid(ft, th);
		if (tgid)
			resolve_abi(ft, th, tgid);
	}
	if (ft->only_uid >= 0)
		judge_creds(ft, m, s);
	for (th = evsums_first_active(&ft->acct); th; th = th->next) {
		struct row_events *e;
		pid_t tgid;

		ft->deferred = false;
		tgid = resolve_tgid(ft, th);
		if (!tgid && ft->deferred) {
			/* Not looked up this tick: its counts wait for the next one. */
			carry(ft, th);
			ft->st.carried += th->n[CNT_SYSCALLS] + th->n[CNT_VCSW] + th->n[CNT_IVCSW];
			continue;
		}
		if (!tgid) {
			ft->st.unattributed += th->n[CNT_SYSCALLS] + th->n[CNT_VCSW] + th->n[CNT_IVCSW];
			continue;
		}
		if (hold_ending(ft, m, th, tgid, last) || hold_unparented(ft, m, th, tgid, last))
			continue;
		if (state_ghost(m, th, tgid))
			continue;
		e = add_row(ft, m, s, th, tgid);
		/* Held last tick, its process's end is told now (an older life's row says so). */
		if (th->held && th->group_dead && !m->threads && !th->ended)
			tell_exit(ft, s, tgid);
		th->held = false;
		if (!e)
			continue;
		/* A withheld row's are unknown (model_apply drops them): not in the totals either. */
		for (c = 0; c < CNT_NR; c++) {
			e->n[c] = th->n[c];
			if (ft->only_uid >= 0 && !pidmap_get(&ft->withheld, e->id))
				s->ev_total[c] += th->n[c];
		}
		e->sc = &th->sc;
		e->err = &th->err;
		e->have_state = th->st != ACCT_ST_UNKNOWN;
		if (ft->acct.order_times)
			e->n[CNT_SCTIME] = sctable_time_ns(&th->sc);
	}
	if (ft->only_uid < 0)
		for (c = 0; c < CNT_NR; c++)
			s->ev_total[c] = ft->acct.total[c] + ft->carried_prev[c] -
						 ft->carried_now[c];
	add_flows(ft, m, s);
	add_conns(ft, m, s);
	/* Processes whose last thread exited: their row is their last one. */
	for (i = 0; i < ft->acct.ndead; i++) {
		struct evsums_thread *d = pidmap_get(&ft->acct.threads, ft->acct.dead[i]);

		if (d && d->tgid && !d->held)
			tell_exit(ft, s, d->tgid);
	}
}

/*
 * A tick's sample of the trace clock, before the buffers are read: a sample
 * after every stamp mapped so far (clockmap's rule). The stamps of the tick
 * map within the bound of the samples either side of them; so the cut is
 * moved back, if need be, until every event mapped before it was written
 * before the CPUs are read (an event within the bound of the cut may fall in
 * either interval, and is counted once).
 */
static void calibrate(struct counting *ft)
{
	uint64_t raw, lo, hi, start, margin;
	int in_ns;

	if (!instance_clock_now(ft->tr, 3, &raw, &lo, &hi, &in_ns))
		clockmap_sample(&ft->cmap, raw, lo, hi);
	margin = ft->cmap.bound_ns > ft->cut_margin ? ft->cmap.bound_ns : ft->cut_margin;
	ft->cut_margin = ft->cmap.bound_ns;
	if (margin > ft->st.clock_bound_ns)
		ft->st.clock_bound_ns = margin;
	start = clocks_mono_ns();
	if (start - ft->cut_ns < margin)
		ft->cut_ns = start - margin;
}

bool counting_read(struct counting *ft, const pid_t **born, size_t *nborn)
{
	size_t max;
	uint64_t lost;
	int cpu;

	*nborn = 0;
	if (!counting_on(ft))
		return false;
	/*
	 * Every event before this time is in the buffers: the state split's
	 * interval ends here, and the tick's (counting_cut_ns).
	 */
	ft->cut_ns = clocks_mono_ns();
	/* At the cut: what the dark threads ran up to it (evdark.c). */
	darkrun_read(&ft->dark, &ft->acct);
	if (ft->mapped)
		calibrate(ft);
	/* Bounded: a writer that never pauses must not hold the tick forever. */
	max = instance_buffer_kb(ft->tr) * 1024 / (size_t)instance_page_size(ft->tr) + 16;
	for (cpu = 0; cpu < instance_ncpus(ft->tr); cpu++)
		read_cpu(ft, cpu, true, max);
	/* Every CPU is read up to now: lifecycle events merged, entries and exits paired in order. */
	if (ft->blk)
		blockev_cut(ft->blk, ft->cut_ns);
	evsums_order_life(&ft->acct);
	sockconn_apply(&ft->conns);
	evsums_time_calls(&ft->acct);
	evsums_state_end(&ft->acct, ft->cut_ns);
	lost = instance_lost(ft->tr);
	ft->lost_interval = lost - ft->lost_seen;
	if (ft->acct.lost > ft->lost_interval)
		ft->lost_interval = ft->acct.lost;
	ft->lost_seen = lost;
	ft->st.lost += ft->lost_interval;
	*born = ft->acct.born;
	*nborn = ft->acct.nborn;
	/* The first interval began before tracing did: only later ones are complete. */
	return ft->reads++ > 0 && !ft->lost_interval && !ft->acct.lost_unknown;
}

uint64_t counting_cut_ns(const struct counting *ft)
{
	return counting_on(ft) ? ft->cut_ns : 0;
}

size_t counting_signals(const struct counting *ft, const struct evsums_sig **sigs)
{
	if (!counting_on(ft))
		return 0;
	*sigs = ft->acct.sigs;
	return ft->acct.nsigs;
}

void counting_watch_signals(struct counting *ft, const pid_t *pids, size_t n)
{
	if (!counting_on(ft))
		return;
	if (n > ACCT_WATCH)
		n = ACCT_WATCH;
	memcpy(ft->acct.sig_watch, pids, n * sizeof(*pids));
	ft->acct.nsig_watch = n;
}

/*
 * May a block device's submitter @tid be named (not root: the user's own
 * tasks only, as their rows)? A thread whose process is not known is not.
 */
static bool submitter_visible(void *arg, pid_t tid)
{
	struct counting *ft = arg;
	const struct evsums_thread *th = pidmap_get(&ft->acct.threads, tid);

	return flow_visible(ft, ft->model, th && th->tgid ? th->tgid : tid);
}

void counting_collect(struct counting *ft, const struct model *m, struct sample *s, bool last)
{
	if (!counting_on(ft))
		return;
	s->have_totals = true;
	s->lost = ft->lost_interval;
	s->lost_unknown = ft->acct.lost_unknown && !s->lost;
	ft->model = m;
	fold(ft, m, s, last);
	/* The last interval: what was read after the cut is counted too. */
	if (ft->blk && last)
		blockev_cut(ft->blk, UINT64_MAX);
	if (ft->blk)
		blockev_fill(ft->blk, s, ft->only_uid >= 0 ? submitter_visible : NULL, ft);
	ft->nexec_owner = 0;
}

size_t counting_held(const struct counting *ft, const pid_t **ids)
{
	*ids = counting_on(ft) ? ft->held_ids : NULL;
	return counting_on(ft) ? ft->nheld_ids : 0;
}

void counting_end_interval(struct counting *ft)
{
	if (!counting_on(ft))
		return;
	evsums_end_interval(&ft->acct);
	sockconn_end_interval(&ft->conns);
}

/* The process of the thread that forked @c (its tgid), 0 if unknown. */
static pid_t parent_of(struct counting *ft, const struct evsums_thread *c)
{
	struct evsums_thread *p;

	if (c->ppid <= 0)
		return 0;
	/* ppid is the forking thread's tid when its process was not known then. */
	p = pidmap_get(&ft->acct.threads, c->ppid);
	return p ? resolve_tgid(ft, p) : c->ppid;
}

/* @pid is in the model's focus, or joins it this tick (ft->added). */
static bool focused_now(const struct counting *ft, const struct model *m, pid_t pid)
{
	size_t i;

	if (model_is_focused(m, pid))
		return true;
	for (i = 0; i < ft->nadded; i++)
		if (ft->added[i] == pid)
			return true;
	return false;
}

size_t counting_follow(struct counting *ft, const struct model *m, const pid_t **added)
{
	struct evsums *a;
	bool more = true;
	size_t i;
	int pass;

	*added = NULL;
	if (!counting_on(ft) || !m->focus || !m->focus_follow)
		return 0;
	a = &ft->acct;	/* not before: without tracing there is no ft */
	ft->model = m;
	ft->nadded = 0;
	/*
	 * Each CPU's events are in order, but a child forked on one CPU may be
	 * decoded before its parent's own fork on another: repeat until stable.
	 */
	for (pass = 0; more && pass < FOLLOW_PASSES; pass++) {
		more = false;
		for (i = 0; i < a->nborn; i++) {
			struct evsums_thread *c = pidmap_get(&a->threads, a->born[i]);
			pid_t parent;

			if (!c || c->tid <= 0 || focused_now(ft, m, c->tid))
				continue;
			parent = parent_of(ft, c);
			/* Not what a process that gained privileges forks (judge_creds). */
			if (!parent || !focused_now(ft, m, parent) || pidmap_get(&ft->noted, parent))
				continue;
			push_id(&ft->added, &ft->nadded, &ft->cap_added, c->tid);
			more = true;
		}
	}
	*added = ft->added;
	return ft->nadded;
}

void counting_get_stats(const struct counting *ft, struct counting_stats *st)
{
	*st = ft->st;
	st->lives_unsplit = ft->acct.lives_unsplit;
	if (ft->mapped) {
		st->clock_samples = ft->cmap.samples;
		st->clock_refused = ft->cmap.refused;
		st->clock_steps = ft->cmap.steps;
		st->clock_err_last_ns = ft->cmap.last_err_ns;
		st->clock_err_max_ns = ft->cmap.max_err_ns;
		st->clock_rate = ft->cmap.rate;
	}
	st->conns = ft->conns.st;
	st->switches_unseen = ft->acct.st_unseen;
	st->oncpu_overlaps = ft->acct.st_overlaps;
	st->dark_threads = ft->dark.n;
	st->dark_moved_ns = ft->acct.dark_moved_ns;
	st->dark_dropped = ft->acct.dark_dropped;
	st->block_on = ft->blk != NULL;
	if (ft->blk)
		blockev_get_stats(ft->blk, &st->block);
	if (ft->decoder_ready) {
		st->events = ft->dec.events;
		st->malformed += ft->dec.malformed;
	}
}

bool counting_clock_offset(const struct counting *ft, int64_t *off_ns)
{
	const struct clockmap_seg *seg;

	if (!counting_on(ft) || !ft->tr)
		return false;
	if (!ft->mapped) {
		*off_ns = 0;
		return !strcmp(ft->st.clock, "mono");
	}
	if (!strcmp(ft->st.clock, "x86-tsc") || !clockmap_ready(&ft->cmap))
		return false;
	/* The newest segment's start: its error is the mapping's, a few us. */
	seg = &ft->cmap.seg[ft->cmap.cur];
	*off_ns = (int64_t)(seg->raw - seg->mono);
	return true;
}
