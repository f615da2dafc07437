// SPDX-License-Identifier: GPL-2.0-only
#include "evsums.h"

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "../../lib/scnames.h"
#include "../../lib/util.h"

/* The largest errno the kernel returns: -4095..-1 are errors, as in strace. */
#define MAX_ERRNO 4095

/* evsums_thread.seg: no segment open (see seg_begin). */
#define SEG_NONE UINT32_MAX
/* seg_nr: the segment's only record is the exit that opened it (kept already). */
#define SEG_KEPT (SC_KEY_INVALID - 1)
/* acct.here's bits above the CPU number: a count of the pages that lost events. */
#define SEG_CPU_BITS 16

/*
 * The numbers of the calls acct treats apart, in the compat ABI (a 32-bit
 * program's), from the generated tables by name: -1 for none (no compat ABI
 * here, or a name it lacks).
 */
static struct compat_nrs {
	bool done;
	long execve, exit, exit_group, rt_sigreturn;
	long child[4];
	long cred[19];
} cnr;

static const char *const child_names[] = { "fork", "vfork", "clone", "clone3" };
/* Both the 16-bit id calls (kernel/uid16.c) and the 32-bit ones. */
static const char *const cred_names[] = {
	"setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setfsuid",
	"setfsgid", "setgroups", "setuid32", "setgid32", "setreuid32", "setregid32",
	"setresuid32", "setresgid32", "setfsuid32", "setfsgid32", "setgroups32", "capset",
};

static long compat_nr(const char *name)
{
	unsigned nr;

	for (nr = 0; nr < syscall_names_compat_count; nr++)
		if (syscall_names_compat[nr] && strcmp(syscall_names_compat[nr], name) == 0)
			return (long)nr;
	return -1;
}

static void compat_nrs_init(void)
{
	size_t i;

	if (cnr.done)
		return;
	cnr.execve = compat_nr("execve");
	cnr.exit = compat_nr("exit");
	cnr.exit_group = compat_nr("exit_group");
	cnr.rt_sigreturn = compat_nr("rt_sigreturn");
	for (i = 0; i < ARRAY_SIZE(child_names); i++)
		cnr.child[i] = compat_nr(child_names[i]);
	for (i = 0; i < ARRAY_SIZE(cred_names); i++)
		cnr.cred[i] = compat_nr(cred_names[i]);
	cnr.done = true;
}

static bool in_list(long nr, const long *v, size_t n)
{
	size_t i;

	for (i = 0; i < n && nr >= 0; i++)
		if (v[i] == nr)
			return true;
	return false;
}

bool evsums_child_return_compat(long nr, long ret)
{
	compat_nrs_init();
	return ret == 0 && in_list(nr, cnr.child, ARRAY_SIZE(cnr.child));
}

bool evsums_compat_execve(long nr)
{
	compat_nrs_init();
	return nr >= 0 && nr == cnr.execve;
}

bool evsums_cred_call_compat(long nr)
{
	compat_nrs_init();
	return in_list(nr, cnr.cred, ARRAY_SIZE(cnr.cred));
}

void evsums_init(struct evsums *a)
{
	memset(a, 0, sizeof(*a));
	pidmap_init(&a->threads);
	compat_nrs_init();
	/* CPU 0 until evsums_set_cpu says another. */
	a->cpus = xcalloc(1, sizeof(*a->cpus));
	a->cpus[0].cur = -1;
	a->ncpus_cap = 1;
	a->on = a->cpus;
}

static void thread_free(struct evsums_thread *t)
{
	sctable_free(&t->sc);
	sctable_free(&t->err);
	free(t);
}

void evsums_free(struct evsums *a)
{
	struct evsums_thread *t, *older;
	size_t i;

	for (i = 0; i < a->threads.cap; i++)
		for (t = a->threads.slots[i].key ? a->threads.slots[i].val : NULL; t; t = older) {
			older = t->older;
			thread_free(t);
		}
	pidmap_free(&a->threads);
	free(a->born);
	free(a->dead);
	free(a->execs);
	free(a->tv);
	free(a->tv_tmp);
	free(a->tv_runs.start);
	free(a->sv_runs.start);
	free(a->moved);
	free(a->flows);
	free(a->flow_idx);
	free(a->lv);
	free(a->life_str);
	free(a->sv);
	free(a->sv_tmp);
	free(a->st_read);
	free(a->cpus);
	free(a->dslots);
	memset(a, 0, sizeof(*a));
}

struct evsums_thread *evsums_thread_new(struct evsums *a, pid_t tid)
{
	struct evsums_thread *t = xcalloc(1, sizeof(*t));

	t->tid = tid;
	t->enter_nr = SC_EMPTY;
	t->seg = SEG_NONE;
	t->abi_slow = true;	/* its ABI is unknown */
	t->life_hi = t->call_hi = UINT64_MAX;
	t->first_ts = UINT64_MAX;
	t->serial = ++a->lives ? a->lives : ++a->lives;
	t->made = a->intervals;
	return t;
}

struct evsums_thread *evsums_thread_slow(struct evsums *a, pid_t tid)
{
	struct evsums_thread *t = pidmap_get(&a->threads, tid);

	if (!t) {
		t = evsums_thread_new(a, tid);
		pidmap_put(&a->threads, tid, t);
	}
	a->recent[(uint32_t)tid & (ACCT_RECENT - 1)] = t;
	return t;
}

static struct evsums_thread *activate_thread(struct evsums *a, struct evsums_thread *t)
{
	if (!t->active) {
		t->active = true;
		t->next = a->active;
		a->active = t;
	}
	return t;
}

static void count(struct evsums *a, struct evsums_thread *t, enum counter c)
{
	t->n[c]++;
	a->total[c]++;
}

/* A call of @t at @ts: its life's calls span this far (evlives.c splits by them). */
static inline void note_ts(struct evsums_thread *t, uint64_t ts)
{
	if (ts < t->first_ts)
		t->first_ts = ts;
	if (ts > t->last_call_ts)
		t->last_call_ts = ts;
}

/*
 * A call's entry is kept with its number as reported, keyed as native: only
 * an exec changes the ABI between a call's entry and its exit (whose key has
 * the ABI), and a thread's ABI may be learnt after its entry.
 */
static uint32_t sc_nr(long nr)
{
	return sc_key(nr, false);
}

/* An exit's key as its entry was kept (sc_nr): the number as reported. */
static uint32_t entry_key(uint32_t key)
{
	return sc_key_abi(key) == SC_ABI_COMPAT ? sc_key_nr(key) : key;
}

/* Pairing the kept records in time order: an entry, or (SC_EMPTY) none pending from @ts on. */
static void time_enter(struct evsums_thread *t, uint32_t n, uint64_t ts)
{
	/* Older than an exit seen: its own exit went by untimed, it must not time a later call. */
	if (ts < t->last_exit_ts)
		return;
	t->enter_nr = n;
	t->enter_ts = ts;
	if (n == SC_EMPTY)
		t->last_exit_ts = ts;
}

static void time_exit(struct evsums_thread *t, struct sc_stat *s, uint32_t n, uint64_t ts)
{
	/* Older than the entry pending (read late, at another tick): not its exit. */
	if (ts >= t->enter_ts) {
		if (t->enter_nr == entry_key(n))
			sctable_time(&t->sc, s, ts - t->enter_ts);
		t->enter_nr = SC_EMPTY;
	}
	if (ts > t->last_exit_ts)
		t->last_exit_ts = ts;
}

/*
 * The kept records (call timings, scheduler events) are a few ascending runs:
 * each CPU's buffer is decoded in turn, in time order, and where a run begins
 * was noted as they were kept (run_begins). A merge sort over a scratch
 * array of the same size merges neighbouring runs, pair by pair, until two
 * are left, and those two are merged straight into their use: @each is
 * called on every record in order (the last pass copies nothing; with one
 * or two runs, nothing is copied at all). O(n log runs), with the order
 * inline (a generic sort's callback per comparison was most of --latency's
 * cost). Stable: for records in the same place of the order, the run read
 * first comes first, so the order is the one stable sort's.
 * Walks *@v (@n records, runs @r) using *@tmp; after it the records walked
 * are in *@v, and *@tmp (@n records' room) was not read by the walk: @each
 * may keep records there (@ctx's to say where). @r says one run.
 */
#define DEFINE_MERGE_RUNS(name, type, before, ctx_type, each)				\
static void name(ctx_type *ctx, type **v, type **tmp, size_t n, struct evsums_runs *r)	\
{											\
	type *src = *v, *dst = *tmp, *swap;						\
	size_t i, m, mid;								\
											\
	while (r->n > 1) {								\
		size_t j, runs = r->n + 1, nnew = 0;					\
											\
		for (j = 0; j < runs; j += 2) {						\
			size_t lo = j ? r->start[j - 1] : 0;				\
			size_t hi = j + 2 < runs ? r->start[j + 1] : n;			\
			size_t k = lo;							\
											\
			mid = j + 1 < runs ? r->start[j] : n;				\
			i = lo;								\
			m = mid;							\
			while (i < mid && m < hi)					\
				dst[k++] = before(&src[m], &src[i]) ? src[m++] : src[i++]; \
			while (i < mid)							\
				dst[k++] = src[i++];					\
			while (m < hi)							\
				dst[k++] = src[m++];					\
		}									\
		/* The merged runs begin where the even ones did. */			\
		for (j = 1; j < r->n; j += 2)						\
			r->start[nnew++] = r->start[j];					\
		r->n = nnew;								\
		swap = src;								\
		src = dst;								\
		dst = swap;								\
	}										\
	mid = r->n ? r->start[0] : n;							\
	r->n = 0;									\
	*v = src;									\
	*tmp = dst;									\
	for (i = 0, m = mid; i < mid && m < n;)						\
		each(ctx, before(&src[m], &src[i]) ? &src[m++] : &src[i++]);		\
	for (; i < mid; i++)								\
		each(ctx, &src[i]);							\
	for (; m < n; m++)								\
		each(ctx, &src[m]);							\
}

/* A run of kept records begins at index @at. */
static void run_begins(struct evsums_runs *r, size_t at)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->start = xrealloc(r->start, r->cap * sizeof(*r->start));
	}
	r->start[r->n++] = (uint32_t)at;
}

/* Is @x before @y in time? */
static inline bool timing_before(const struct evsums_timing *x, const struct evsums_timing *y)
{
	if (x->ts != y->ts)
		return x->ts < y->ts;
	/* The same time stamp: the entry first (a call takes some time). */
	if ((x->tid < 0) != (y->tid < 0))
		return x->tid > 0;
	/* exit_group's entry, then its end (both from the same tracepoint). */
	return x->nr != SC_EMPTY && y->nr == SC_EMPTY;
}

/* A kept record of a call, paired in time order. */
static inline void time_record(struct evsums *a, const struct evsums_timing *r)
{
	struct evsums_thread *t;

	if (r->tid > 0) {
		time_enter(evsums_life_call(a, evsums_thread(a, r->tid), r->ts), r->nr, r->ts);
	} else {
		/* The exit was counted this interval: its entry is in the table. */
		t = evsums_life_call(a, evsums_thread(a, -r->tid), r->ts);
		time_exit(t, sctable_get(&t->sc, r->nr), r->nr, r->ts);
	}
}

DEFINE_MERGE_RUNS(time_in_order, struct evsums_timing, timing_before, struct evsums, time_record)

/* Records kept at most (16 MiB): past that, they are timed as they are. */
#define TIMING_MAX (1u << 20)

/* The kept records are full: room made for one more. */
static __attribute__((noinline)) void timing_full(struct evsums *a)
{
	if (a->cap_tv >= TIMING_MAX) {
		evsums_time_calls(a);
	} else {
		a->cap_tv = a->cap_tv ? a->cap_tv * 2 : 4096;
		a->tv = xrealloc(a->tv, a->cap_tv * sizeof(*a->tv));
		a->tv_tmp = xrealloc(a->tv_tmp, a->cap_tv * sizeof(*a->tv_tmp));
	}
}

static void keep_timing(struct evsums *a, pid_t tid, uint32_t nr, uint64_t ts)
{
	struct evsums_timing *r;

	if (a->ntv == a->cap_tv)
		timing_full(a);
	r = &a->tv[a->ntv];
	r->ts = ts;
	r->tid = tid;
	r->nr = nr;
	if (a->ntv && timing_before(r, r - 1))
		run_begins(&a->tv_runs, a->ntv);
	a->ntv++;
}

/*
 * Segments. A thread runs on one CPU at a time, and leaves it only through a
 * switch-out, written in that CPU's buffer in time order with its calls' own
 * records: two records of it read from one CPU's pages with no switch-out
 * of it in between are next to each other in its own order, whatever the
 * other CPUs hold. So within a segment its entry and exit are paired as
 * they are decoded, nothing kept. What crosses segments (a call it blocked
 * or was preempted in, that moved, or whose two sides were read in another
 * order) is kept: the segment's last state when it ends, the exit that
 * opens the next, both few; evsums_time_calls pairs them in time order.
 */
/* @t's segment ends: its last state kept for the pairing in time order. */
static void seg_end(struct evsums *a, struct evsums_thread *t)
{
	if (t->seg_nr != SEG_KEPT)
		keep_timing(a, t->tid, t->seg_nr, t->seg_ts);
	t->seg = SEG_NONE;
	if (a->nseg)
		a->nseg--;
}

/* A record of @t from another segment than its open one (if any): a segment begins here. */
static __attribute__((noinline)) void seg_begin(struct evsums *a, struct evsums_thread *t)
{
	if (t->seg != SEG_NONE)
		seg_end(a, t);
	a->nseg++;
	t->seg = a->here;
}

static void note_read(struct evsums *a);

/* Room for CPUs 0..@n-1 in acct.cpus (acct.on follows). */
static void cpus_grow(struct evsums *a, size_t n)
{
	size_t on = (size_t)(a->on - a->cpus), i;

	if (n <= a->ncpus_cap)
		return;
	a->cpus = xrealloc(a->cpus, n * sizeof(*a->cpus));
	memset(a->cpus + a->ncpus_cap, 0, (n - a->ncpus_cap) * sizeof(*a->cpus));
	for (i = a->ncpus_cap; i < n; i++)
		a->cpus[i].cur = -1;
	a->ncpus_cap = n;
	a->on = a->cpus + on;
}

void evsums_set_cpu(struct evsums *a, int cpu)
{
	uint32_t c = (uint32_t)cpu & ((1u << SEG_CPU_BITS) - 1);

	if (a->st_ncpus)
		note_read(a);
	a->here = (a->here & ~((1u << SEG_CPU_BITS) - 1)) | c;
	cpus_grow(a, (size_t)c + 1);
	a->on = &a->cpus[c];
	a->cpu_tag = c << 8;
}

static void cpu_unseen(struct evsums *a, pid_t tid, uint64_t ts);

/*
 * A record written on the CPU being read by @tid (its common_pid): @tid ran
 * there at @ts. Inline, a compare, on every system call: the state split's.
 */
static inline __attribute__((always_inline)) void cpu_proof(struct evsums *a, pid_t tid, uint64_t ts)
{
	if (a->states && __builtin_expect(tid != a->on->cur, 0))
		cpu_unseen(a, tid, ts);
}

/*
 * A sys_enter of @t. Inline in evsums_sys_enter and evsums_sys_call (the compiler
 * left a call in the latter: --latency's every call).
 */
static inline __attribute__((always_inline)) void sys_enter(struct evsums *a, struct evsums_thread *t,
							    long nr, uint64_t ts)
{
	/*
	 * syscalls:sys_enter_exit{,_group}, which count the calls that never
	 * return, ignore a 32-bit program's (the kernel's
	 * ARCH_TRACE_IGNORE_COMPAT_SYSCALLS): they are counted at their entry.
	 */
	if (a->compat_seen && t->compat && (nr == cnr.exit_group || nr == cnr.exit) && nr >= 0) {
		evsums_sys_noreturn(a, t->tid, nr, ts);
		return;
	}
	if (t->seg != a->here)
		seg_begin(a, t);
	/*
	 * The entry of a call that never returns, its own event decoded first
	 * (whichever probe the kernel calls first): nothing is pending.
	 */
	if ((uint32_t)nr + 1 == t->noret) {
		t->seg_nr = SC_EMPTY;
		t->seg_ts = ts;
		return;
	}
	t->seg_nr = sc_nr(nr);
	t->seg_ts = ts;
}

void evsums_sys_enter(struct evsums *a, pid_t tid, long nr, uint64_t ts)
{
	if (tid <= 0)
		return;
	cpu_proof(a, tid, ts);
	sys_enter(a, evsums_life_call(a, evsums_thread(a, tid), ts), nr, ts);
}

/*
 * The exit @n at @ts of @t (counted in @s): timed from its entry in the
 * segment, or kept. @ek: entry_key(@n), which a native call's key is.
 */
static inline void seg_exit(struct evsums *a, struct evsums_thread *t, struct sc_stat *s, uint32_t n,
			    uint32_t ek, uint64_t ts)
{
	if (t->seg != a->here) {
		seg_begin(a, t);
		keep_timing(a, -t->tid, n, ts);
		t->seg_nr = SEG_KEPT;
		t->seg_ts = ts;
		return;
	}
	if (t->seg_nr == ek && ts >= t->seg_ts)
		sctable_time(&t->sc, s, ts - t->seg_ts);
	t->seg_nr = SC_EMPTY;
	t->seg_ts = ts;
}

/* Every open segment ends (their last states kept). */
static void seg_end_all(struct evsums *a)
{
	size_t i;

	for (i = 0; a->nseg && i < a->threads.cap; i++) {
		struct evsums_thread *t = a->threads.slots[i].key ? a->threads.slots[i].val : NULL;

		for (; t; t = t->older)
			if (t->seg != SEG_NONE)
				seg_end(a, t);
	}
	a->nseg = 0;
}

void evsums_time_calls(struct evsums *a)
{
	seg_end_all(a);
	time_in_order(a, &a->tv, &a->tv_tmp, a->ntv, &a->tv_runs);
	a->ntv = 0;
}

/*
 * A new task leaves the kernel through the syscall exit path too, as a fork
 * family call returning 0; that is the parent's call, counted once in the
 * parent (strace counts it so).
 */
bool evsums_child_return(long nr, long ret)
{
	if (ret != 0)
		return false;
	switch (nr) {
#ifdef SYS_clone
	case SYS_clone:
#endif
#ifdef SYS_clone3
	case SYS_clone3:
#endif
#ifdef SYS_fork
	case SYS_fork:
#endif
#ifdef SYS_vfork
	case SYS_vfork:
#endif
		return true;
	default:
		return false;
	}
}

/*
 * rt_sigreturn restores the registers of the interrupted context, whose
 * syscall number is -1: sys_exit then reports -1. Nothing else returns with -1
 * but a call ptrace or seccomp skipped, which is rare enough to count alike.
 */
long evsums_real_nr(long nr)
{
#ifdef SYS_rt_sigreturn
	if (nr == -1)
		return SYS_rt_sigreturn;
#endif
	return nr;
}

/*
 * Each returns 0 when it changed something (setfsuid and setfsgid return the
 * old id: 0 when root switched to another, the case that matters, see counting.c).
 */
bool evsums_cred_call(long nr)
{
	switch (nr) {
#ifdef SYS_setuid
	case SYS_setuid:
#endif
#ifdef SYS_setgid
	case SYS_setgid:
#endif
#ifdef SYS_setreuid
	case SYS_setreuid:
#endif
#ifdef SYS_setregid
	case SYS_setregid:
#endif
#ifdef SYS_setresuid
	case SYS_setresuid:
#endif
#ifdef SYS_setresgid
	case SYS_setresgid:
#endif
#ifdef SYS_setfsuid
	case SYS_setfsuid:
#endif
#ifdef SYS_setfsgid
	case SYS_setfsgid:
#endif
#ifdef SYS_setgroups
	case SYS_setgroups:
#endif
#ifdef SYS_capset
	case SYS_capset:
#endif
		return true;
	default:
		return false;
	}
}

static void set_slow(struct evsums_thread *t)
{
	t->abi_slow = t->compat || !t->abi_known || t->in_exec || t->stash_nr;
}

static void learn_abi(struct evsums *a, struct evsums_thread *t, bool compat, uint64_t ts)
{
	t->compat = compat;
	t->abi_known = true;
	t->abi_ts = ts;
	a->compat_seen |= compat;
}

/*
 * The sys_exit of a thread whose ABI needs a look (abi_slow): false when it is
 * not a call of its own (a fork's return in the child), or is stashed.
 */
static bool abi_exit(struct evsums *a, struct evsums_thread *t, long nr, long ret, uint64_t ts)
{
	if (t->in_exec) {
		/*
		 * The return of its exec: the kernel reports it as the execve of
		 * the new program's ABI (x86's set_personality_64bit,
		 * set_personality_ia32 and _x32 set orig_ax), whichever call it
		 * entered.
		 */
		t->in_exec = false;
		if (ret == 0 && nr == SYS_execve)
			learn_abi(a, t, false, ts);
		else if (ret == 0 && nr == cnr.execve && cnr.execve >= 0)
			learn_abi(a, t, true, ts);
#ifdef __x86_64__
		else if (ret == 0 && (nr & ~(long)SC_KEY_NR_MASK) == 1L << SC_KEY_ABI_SHIFT)
			learn_abi(a, t, false, ts);	/* x32's, with its own bit */
#endif
	}
	set_slow(t);
	if (t->compat ? evsums_child_return_compat(nr, ret) : evsums_child_return(nr, ret)) {
		/* A new task's first return: its life begins (its fork is its creator's call). */
		evsums_life_begin(a, t, ts, true, false);
		return false;
	}
	if (t->compat)
		return true;
	/*
	 * Its first call, of an unknown ABI, may be a 32-bit fork's return in
	 * the child: evsums_set_abi decides when the ABI is learnt (at the end of
	 * the interval, for the active threads: it is made one).
	 */
	if (!t->abi_known && !t->sc.used && !t->stash_nr && evsums_child_return_compat(nr, ret)) {
		t->stash_nr = (uint32_t)nr + 1;
		t->abi_slow = true;
		activate_thread(a, t);
		return false;
	}
	return true;
}

/* A sys_exit of @t: inline in evsums_sys_exit and evsums_sys_call, as sys_enter. */
static inline __attribute__((always_inline)) void sys_exit(struct evsums *a, struct evsums_thread *t,
							   long nr, long ret, uint64_t ts)
{
	struct sc_stat *s;
	uint32_t n;

	bool compat = false;

	/* The hot path: one flag for all that a native, known thread needs not. */
	if (t->abi_slow) {
		if (!abi_exit(a, t, nr, ret, ts))
			return;
		compat = t->compat;
	} else if (evsums_child_return(nr, ret)) {
		evsums_life_begin(a, t, ts, true, false);
		return;
	}
	if (!compat)
		nr = evsums_real_nr(nr);
	else if (nr == -1)
		/* i386 has sigreturn too; the restored -1 does not say which. */
		nr = cnr.rt_sigreturn;
	n = sc_key(nr, compat);
	activate_thread(a, t);
	note_ts(t, ts);
	s = sctable_get(&t->sc, n);
	s->calls++;
	count(a, t, CNT_SYSCALLS);
	if (ret < 0 && ret >= -MAX_ERRNO) {
		s->errors++;
		s->top_errno = (uint32_t)-ret;
		sctable_get(&t->err, sc_err_key(n, (uint32_t)-ret))->errors++;
		count(a, t, CNT_SYSERR);
	} else if (ret == 0 && (compat ? evsums_cred_call_compat(nr) : evsums_cred_call(nr))) {
		t->cred_call = true;
	}
	if (a->order_times)
		seg_exit(a, t, s, n, compat ? entry_key(n) : n, ts);
}

void evsums_sys_exit(struct evsums *a, pid_t tid, long nr, long ret, uint64_t ts)
{
	if (tid <= 0)
		return;
	cpu_proof(a, tid, ts);
	sys_exit(a, evsums_life_call(a, evsums_thread(a, tid), ts), nr, ret, ts);
}

void evsums_sys_call(struct evsums *a, pid_t tid, long enter_nr, uint64_t enter_ts, long nr, long ret,
		   uint64_t ts)
{
	struct evsums_thread *t;

	if (tid <= 0)
		return;
	cpu_proof(a, tid, enter_ts);
	t = evsums_life_call(a, evsums_thread(a, tid), ts);
	sys_enter(a, t, enter_nr, enter_ts);
	sys_exit(a, t, nr, ret, ts);
}

void evsums_sys_noreturn(struct evsums *a, pid_t tid, long nr, uint64_t ts)
{
	struct evsums_thread *t;

	if (tid <= 0)
		return;
	cpu_proof(a, tid, ts);
	t = activate_thread(a, evsums_life_call(a, evsums_thread(a, tid), ts));
	note_ts(t, ts);
	sctable_get(&t->sc, sc_key(nr, t->compat))->calls++;
	count(a, t, CNT_SYSCALLS);
	/*
	 * No call pending from then on, in its segment's order (a call still
	 * pending from the last interval, a sleep's clock_nanosleep, a shell's
	 * wait4, is paired with its exit before this). Its raw sys_enter may
	 * follow: not a call pending either.
	 */
	if (!a->order_times)
		return;
	if (t->seg != a->here)
		seg_begin(a, t);
	t->seg_nr = SC_EMPTY;
	t->seg_ts = ts;
	t->noret = (uint32_t)nr + 1;
}

/* @t's keys of this interval, counted as native, as @t's compat ABI's. */
static void rekey(struct sctable *tab, bool err)
{
	struct sctable old = *tab;
	uint32_t i;

	memset(tab, 0, sizeof(*tab));
	for (i = 0; i < old.cap; i++) {
		const struct sc_stat *s = &old.slots[i];
		uint32_t k = s->nr;

		if (k == SC_EMPTY)
			continue;
		if (err)
			k = sc_err_key(sc_key((long)sc_err_nr(k), true), sc_err_errno(k));
		else
			k = sc_key((long)k, true);
		sctable_add(tab, k, &old, s);
	}
	sctable_free(&old);
}

void evsums_set_abi(struct evsums *a, struct evsums_thread *t, bool compat)
{
	uint32_t stash = t->stash_nr;

	if (t->abi_known)
		return;
	learn_abi(a, t, compat, 0);
	t->stash_nr = 0;
	if (compat) {
		size_t i;

		rekey(&t->sc, false);
		rekey(&t->err, true);
		/* Its credential calls, counted as native, were not seen as such. */
		for (i = 0; i < ARRAY_SIZE(cnr.cred); i++) {
			const struct sc_stat *c = cnr.cred[i] < 0 ? NULL :
				sctable_find(&t->sc, sc_key(cnr.cred[i], true));

			if (c && c->calls > c->errors)
				t->cred_call = true;
		}
	} else if (stash) {
		/* Not a 32-bit fork's return: a call of its own. */
		activate_thread(a, t);
		sctable_get(&t->sc, sc_nr((long)stash - 1))->calls++;
		count(a, t, CNT_SYSCALLS);
	}
	set_slow(t);
}

void evsums_switch(struct evsums *a, pid_t prev, long prev_state, uint64_t ts)
{
	struct evsums_thread *t;

	if (prev <= 0)	/* the idle task */
		return;
	t = evsums_thread(a, prev);
	/* Its last switch, after its exit: that life's, whichever life the tid has now. */
	if (!(prev_state & ACCT_STATE_PREEMPTED) && (prev_state & ACCT_STATE_EXITED))
		t = evsums_life_tail(a, t, ts);
	else
		t = evsums_life_at(a, t, ts);
	activate_thread(a, t);
	if (ts < t->first_ts)
		t->first_ts = ts;
	/* It leaves this CPU: what it does next may be written on another. */
	if (t->seg == a->here)
		seg_end(a, t);
	if (!(prev_state & ACCT_STATE_PREEMPTED) && (prev_state & ACCT_STATE_EXITED)) {
		t->gone_ts = ts;
		evsums_life_gone(t, ts);
	}
	/*
	 * The kernel counts nvcsw when schedule() was not a preemption and the task
	 * was not runnable; a runnable task that calls schedule() (on the way back
	 * to user space, or yielding) counts as nivcsw, like a preempted one.
	 */
	if (!(prev_state & ACCT_STATE_PREEMPTED) && (prev_state & (ACCT_STATE_PREEMPTED - 1)))
		count(a, t, CNT_VCSW);
	else
		count(a, t, CNT_IVCSW);
}

bool evsums_gone(const struct evsums_thread *t)
{
	return t->exited && t->gone_ts && t->gone_ts >= t->life_ts;
}

/* signal_generate's result: TRACE_SIGNAL_DELIVERED and _LOSE_INFO queue it. */
#define SIG_RESULT_DELIVERED 0
#define SIG_RESULT_LOSE_INFO 4

/* Is @tid a thread of a watched process? */
static bool sig_watched(struct evsums *a, pid_t tid)
{
	struct evsums_thread *t;
	size_t i;

	for (i = 0; i < a->nsig_watch; i++)
		if (a->sig_watch[i] == tid)
			return true;
	t = a->nsig_watch ? pidmap_get(&a->threads, tid) : NULL;
	for (i = 0; t && t->tgid && i < a->nsig_watch; i++)
		if (a->sig_watch[i] == t->tgid)
			return true;
	return false;
}

#define FLOW_SLOTS (2 * ACCT_FLOWS)

static void flow_count(struct evsums *a, pid_t sender, pid_t target, int sig, int result)
{
	uint32_t h = ((uint32_t)sender * 2654435761u) ^ ((uint32_t)target * 40503u) ^
		     ((uint32_t)sig << 8) ^ (uint32_t)result;
	uint32_t i = (h ^ h >> 15) & (FLOW_SLOTS - 1);
	struct evsums_flow *f;

	if (!a->flows) {
		a->flows = xcalloc(FLOW_SLOTS, sizeof(*a->flows));
		a->flow_idx = xcalloc(ACCT_FLOWS, sizeof(*a->flow_idx));
	}
	for (f = &a->flows[i]; f->n; f = &a->flows[i]) {
		if (f->sender == sender && f->target == target && f->sig == sig && f->result == result) {
			f->n++;
			return;
		}
		i = (i + 1) & (FLOW_SLOTS - 1);
	}
	if (a->nflows == ACCT_FLOWS) {
		a->flows_over++;
		return;
	}
	*f = (struct evsums_flow){ sender, target, sig, result, 1 };
	a->flow_idx[a->nflows++] = (uint16_t)i;
}

void evsums_signal(struct evsums *a, pid_t sender, pid_t target, int sig, int result, uint64_t ts)
{
	/* A sender's SIGCHLD follows its exit: its life's, whichever life the tid has now. */
	struct evsums_thread *t = sender > 0 ?
		activate_thread(a, evsums_life_tail(a, evsums_thread(a, sender), ts)) : NULL;

	flow_count(a, sender > 0 ? sender : 0, target, sig, result);

	if (a->nsigs < ACCT_SIGS && target > 0 && sig_watched(a, target)) {
		struct evsums_sig *s = &a->sigs[a->nsigs++];

		*s = (struct evsums_sig){ sender, target, sig, result, "" };
		/* Senders are often short-lived (a child's SIGCHLD): keep the name now. */
		if (t)
			memcpy(s->comm, t->comm, sizeof(s->comm));
	}
	if (t)
		count(a, t, CNT_SIGSENT);
	if (!a->recv_on_deliver && target > 0 &&
	    (result == SIG_RESULT_DELIVERED || result == SIG_RESULT_LOSE_INFO))
		count(a, activate_thread(a, evsums_life_at(a, evsums_thread(a, target), ts)), CNT_SIGRECV);
}

void evsums_signal_deliver(struct evsums *a, pid_t tid, uint64_t ts)
{
	if (a->recv_on_deliver && tid > 0)
		count(a, activate_thread(a, evsums_life_at(a, evsums_thread(a, tid), ts)), CNT_SIGRECV);
}

static void push_pid(pid_t **v, size_t *n, size_t *cap, pid_t pid)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = pid;
}

static void copy_comm(char dst[16], const char *src, size_t len)
{
	size_t n = strnlen(src, len < 15 ? len : 15);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Is an event at @ts older than what is known of @t? Then it changes only what
 * is still unknown: it was read late (its CPU was read before it was written,
 * another's after a later one was), or it is of a task that had the tid before.
 */
static bool life_stale(struct evsums_thread *t, uint64_t ts)
{
	if (ts < t->life_ts)
		return true;
	t->life_ts = ts;
	return false;
}

static void life_newtask(struct evsums *a, pid_t parent, pid_t child, uint64_t clone_flags,
			 const char *comm, size_t comm_len, uint64_t ts)
{
	struct evsums_thread *t, *p;
	pid_t ppid, tgid = 0;

	p = parent > 0 ? evsums_life_at(a, evsums_thread(a, parent), ts) : NULL;
	/* Every CPU is read: a fork decoding could not place is placed now. */
	t = evsums_life_begin(a, evsums_life_at(a, evsums_thread(a, child), ts), ts, false, true);
	ppid = p ? (p->tgid ? p->tgid : p->tid) : 0;
	/* Whose process's life a thread's rows are: its creator's (a reused tgid has others). */
	if (clone_flags & ACCT_CLONE_THREAD)
		t->proc_life = !p ? 0 : p->proc_life ? p->proc_life : p->tgid == p->tid ? p->serial : 0;
	else
		t->proc_life = t->serial;
	if (clone_flags & ACCT_CLONE_THREAD)
		tgid = p ? p->tgid : 0;
	else
		tgid = child;
	if (!(clone_flags & ACCT_CLONE_THREAD))
		push_pid(&a->born, &a->nborn, &a->cap_born, child);
	if (life_stale(t, ts)) {
		/* Its exec or exit came first: they stay, its parent is learnt. */
		if (!t->ppid)
			t->ppid = ppid;
		if (!t->tgid && tgid)
			t->tgid = tgid;
		if (!t->tgid && (clone_flags & ACCT_CLONE_THREAD))
			t->creator = parent;
		if (!t->comm[0])
			copy_comm(t->comm, comm, comm_len);
		return;
	}
	/* A reused tid: whatever was known of the old thread is not this one's. */
	t->exited = 0;
	t->group_dead = t->held = false;
	if (t->exit_ts < ts)
		t->exit_ts = 0;
	/*
	 * Only what is older than the fork: the calls are paired (evsums_time_calls)
	 * before the forks are applied, so a call the child began this interval
	 * is pending here already; dropped, its exit went untimed (a summary of a
	 * shell loop: 103 of 490 untimed calls were children's wait4, nanosleep...).
	 */
	if (t->enter_nr != SC_EMPTY && t->enter_ts < ts)
		t->enter_nr = SC_EMPTY;
	if (t->last_exit_ts < ts)
		t->last_exit_ts = 0;
	t->noret = 0;
	copy_comm(t->comm, comm, comm_len);
	t->ppid = ppid;
	t->creator = 0;
	t->tgid = tgid;
	/* The creator's process is learnt later (from /proc); so is this one's. */
	if (!t->tgid && (clone_flags & ACCT_CLONE_THREAD))
		t->creator = parent;
}

static void life_exec(struct evsums *a, pid_t pid, pid_t old_pid, const char *filename, size_t len,
		      uint64_t ts)
{
	struct evsums_exec *x;
	struct evsums_thread *t;
	const char *base = filename;
	size_t i;

	if (old_pid != pid && old_pid > 0) {
		/* A non-leader thread exec'd: it carries on as the leader's pid. */
		struct evsums_thread *o = evsums_life_at(a, evsums_thread(a, old_pid), ts);

		if (!o->exited && !life_stale(o, ts))
			o->exited = 1;
	}
	t = evsums_life_at(a, evsums_thread(a, pid), ts);
	t->tgid = pid;
	t->renamed = true;
	if (!life_stale(t, ts)) {
		t->exited = 0;
		/* comm becomes the file's base name, as the kernel sets it. */
		for (i = 0; i < len && filename[i]; i++)
			if (filename[i] == '/')
				base = filename + i + 1;
		copy_comm(t->comm, base, len - (size_t)(base - filename));
		t->named = true;
	}

	if (a->nexecs == a->cap_execs) {
		a->cap_execs = a->cap_execs ? a->cap_execs * 2 : 16;
		a->execs = xrealloc(a->execs, a->cap_execs * sizeof(*a->execs));
	}
	x = &a->execs[a->nexecs++];
	x->pid = pid;
	len = strnlen(filename, len);
	x->cut = len >= sizeof(x->file);
	len = x->cut ? 0 : len;
	memcpy(x->file, filename, len);
	x->file[len] = '\0';
}

static void life_rename(struct evsums *a, pid_t pid, const char *comm, size_t comm_len, uint64_t ts)
{
	struct evsums_thread *t = evsums_life_at(a, evsums_thread(a, pid), ts);

	if (life_stale(t, ts))
		return;
	copy_comm(t->comm, comm, comm_len);
	t->named = true;
}

static void life_exit(struct evsums *a, pid_t tid, bool group_dead, uint64_t ts)
{
	struct evsums_thread *t = activate_thread(a, evsums_life_at(a, evsums_thread(a, tid), ts));

	/* Older than its fork: a task that had the tid before, gone already. */
	if (life_stale(t, ts))
		return;
	t->exited = 1;
	t->group_dead = group_dead;
	/* An older life's row says it ended (ended): the tid's newest is another process. */
	if (group_dead && !t->ended)
		push_pid(&a->dead, &a->ndead, &a->cap_dead, tid);
}

void evsums_cgroup_attach(struct evsums *a, pid_t tid)
{
	/* The same task again (another hierarchy, hybrid layouts): once is enough. */
	if (tid <= 0 || (a->nmoved && a->moved[a->nmoved - 1] == tid))
		return;
	push_pid(&a->moved, &a->nmoved, &a->cap_moved, tid);
}

/* Keep an event for evsums_order_life; @file (an exec's) is copied. */
static struct evsums_life *keep_life(struct evsums *a, uint8_t kind, pid_t pid, uint64_t ts,
				   const char *file, size_t file_len)
{
	struct evsums_life *l;

	if (a->nlv == a->cap_lv) {
		a->cap_lv = a->cap_lv ? a->cap_lv * 2 : 256;
		a->lv = xrealloc(a->lv, a->cap_lv * sizeof(*a->lv));
	}
	l = &a->lv[a->nlv++];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->pid = pid;
	l->ts = ts;
	l->seq = a->life_seq++;
	if (file) {
		file_len = strnlen(file, file_len);
		if (file_len > ACCT_EXEC_FILE)
			file_len = ACCT_EXEC_FILE;	/* evsums_exec's "cut" all the same */
		if (a->nlife_str + file_len > a->cap_life_str) {
			a->cap_life_str = (a->nlife_str + file_len) * 2 + 4096;
			a->life_str = xrealloc(a->life_str, a->cap_life_str);
		}
		memcpy(a->life_str + a->nlife_str, file, file_len);
		l->file_off = (uint32_t)a->nlife_str;
		l->file_len = (uint32_t)file_len;
		a->nlife_str += file_len;
	}
	return l;
}

void evsums_newtask(struct evsums *a, pid_t parent, pid_t child, uint64_t clone_flags,
		  const char *comm, size_t comm_len, uint64_t ts)
{
	struct evsums_life *l;
	struct evsums_thread *p, *c;

	if (child <= 0)
		return;
	/* A life of the child's tid begins, as decoded: what it did before is another's. */
	c = evsums_life_begin(a, evsums_life_at(a, evsums_thread(a, child), ts), ts, false, !a->order_life);
	/*
	 * A new task runs in its creator's ABI (as decoded: its calls follow).
	 * Known already: from a task that had its tid before, unless what told
	 * it (its exec's return, decoded first from another CPU) is newer.
	 */
	p = parent > 0 ? pidmap_get(&a->threads, parent) : NULL;
	if (p)
		p = evsums_life_at(a, p, ts);
	if (c && p && p->abi_known) {
		if (!c->abi_known) {
			evsums_set_abi(a, c, p->compat);
			c->abi_ts = ts;
		} else if (c->abi_ts < ts) {
			learn_abi(a, c, p->compat, ts);
			set_slow(c);
		}
	}
	if (!a->order_life) {
		life_newtask(a, parent, child, clone_flags, comm, comm_len, ts);
		return;
	}
	l = keep_life(a, AL_NEWTASK, child, ts, NULL, 0);
	l->other = parent;
	l->clone_flags = clone_flags;
	copy_comm(l->comm, comm, comm_len);
}

void evsums_exec(struct evsums *a, pid_t pid, pid_t old_pid, const char *filename, size_t len,
	       uint64_t ts)
{
	struct evsums_thread *t;

	if (pid <= 0)
		return;
	/* As decoded: its return follows, on this CPU (see abi_exit). */
	t = evsums_thread(a, pid);
	t->in_exec = t->abi_slow = true;
	if (!a->order_life)
		life_exec(a, pid, old_pid, filename, len, ts);
	else
		keep_life(a, AL_EXEC, pid, ts, filename, len)->other = old_pid;
}

void evsums_rename(struct evsums *a, pid_t pid, const char *comm, size_t comm_len, uint64_t ts)
{
	if (pid <= 0)
		return;
	if (!a->order_life)
		life_rename(a, pid, comm, comm_len, ts);
	else
		copy_comm(keep_life(a, AL_RENAME, pid, ts, NULL, 0)->comm, comm, comm_len);
}

void evsums_exit(struct evsums *a, pid_t tid, bool group_dead, uint64_t ts)
{
	struct evsums_thread *l;

	if (tid <= 0)
		return;
	/*
	 * Its life ends here, as decoded: what its tid does after (but its
	 * last switch and SIGCHLD) is another life's. Not a leader's whose
	 * process goes on (an exec from another thread takes its tid over).
	 */
	l = evsums_life_at(a, evsums_thread(a, tid), ts);
	evsums_life_end(a, l, ts, group_dead || !a->group_dead_known || l->tgid != tid);
	/*
	 * As decoded, not in time order: the state split may apply its switches
	 * before the tick, and they are on this CPU's pages after this event.
	 */
	if (ts > l->exit_ts && ts >= l->life_ts)
		l->exit_ts = ts;
	if (!a->order_life) {
		life_exit(a, tid, group_dead, ts);
		return;
	}
	keep_life(a, AL_EXIT, tid, ts, NULL, 0)->group_dead = group_dead;
	/* Its counts go to its row this interval, whenever the exit is applied. */
	activate_thread(a, l);
}

static int life_cmp(const void *pa, const void *pb)
{
	const struct evsums_life *x = pa, *y = pb;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void evsums_order_life(struct evsums *a)
{
	size_t i;

	/* Each CPU's events are in order already: the sort merges a few runs. */
	if (a->nlv)
		sort_array(a->lv, a->nlv, sizeof(*a->lv), life_cmp);
	for (i = 0; i < a->nlv; i++) {
		const struct evsums_life *l = &a->lv[i];

		switch (l->kind) {
		case AL_NEWTASK:
			life_newtask(a, l->other, l->pid, l->clone_flags, l->comm, sizeof(l->comm),
				     l->ts);
			break;
		case AL_EXEC:
			life_exec(a, l->pid, l->other, a->life_str + l->file_off, l->file_len, l->ts);
			break;
		case AL_RENAME:
			life_rename(a, l->pid, l->comm, sizeof(l->comm), l->ts);
			break;
		case AL_EXIT:
			life_exit(a, l->pid, l->group_dead, l->ts);
			break;
		}
	}
	a->nlv = a->nlife_str = 0;
	a->life_seq = 0;
	/* Senders named by the events now: one forked this interval had no name when decoded. */
	for (i = 0; i < a->nsigs; i++) {
		struct evsums_thread *t;

		if (a->sigs[i].comm[0] || a->sigs[i].sender <= 0)
			continue;
		t = pidmap_get(&a->threads, a->sigs[i].sender);
		if (t)
			memcpy(a->sigs[i].comm, t->comm, sizeof(t->comm));
	}
}

void evsums_lost(struct evsums *a, long n)
{
	/* A switch-out may be among them: no segment goes on across the gap. */
	a->here += 1u << SEG_CPU_BITS;
	if (n < 0)
		a->lost_unknown = true;
	else
		a->lost += (uint64_t)n;
}

void evsums_set_tgid(struct evsums *a, struct evsums_thread *t, pid_t tgid)
{
	(void)a;
	t->tgid = tgid;
}

/* @t, the tid's newest life, and the older ones it keeps. */
static void forget(struct evsums *a, struct evsums_thread *t)
{
	struct evsums_thread *older;

	if (a->recent[(uint32_t)t->tid & (ACCT_RECENT - 1)] == t)
		a->recent[(uint32_t)t->tid & (ACCT_RECENT - 1)] = NULL;
	pidmap_del(&a->threads, t->tid);
	for (; t; t = older) {
		older = t->older;
		thread_free(t);
	}
}

/*
 * The new interval for every life of a tid (@t its newest): older lives done
 * (their rows shown, a late CPU's events read) are freed. Returns true when
 * one of them is still on the active list (its row carried).
 */
static bool lives_end_interval(struct evsums_thread *t)
{
	struct evsums_thread **pp = &t->older, *o;
	bool busy = false;

	for (o = t; o; o = o->older) {
		o->renamed = false;
		o->named = false;
		o->cred_call = false;
		/* The next interval's records (at a drain, at the tick) set it. */
		o->st_moved = false;
		o->dark_budget = false;
		/* A carried row keeps them: it is shown next interval. */
		if (!o->active)
			o->born = o->mixed = false;
		if (o->exited)
			o->exited++;
		else if (o->idle < UINT16_MAX)
			o->idle++;
		if (o->ended && o->ended_age < UINT8_MAX)
			o->ended_age++;
	}
	while ((o = *pp)) {
		if (o->active) {
			busy = true;
			pp = &o->older;
		} else if (o->exited > 2 || o->ended_age > 2) {
			*pp = o->older;
			thread_free(o);
		} else {
			pp = &o->older;
		}
	}
	return busy;
}

void evsums_carry(struct evsums *a, struct evsums_thread *t)
{
	(void)a;
	if (t->active)
		t->carry = true;
}

void evsums_end_interval(struct evsums *a)
{
	struct evsums_thread *t, *next, *doomed = NULL;
	size_t i;

	/* What is not timed yet belongs to the tables about to be cleared. */
	if (a->ntv || a->nseg)
		evsums_time_calls(a);
	if (a->nlv)
		evsums_order_life(a);
	/* Slots point at threads that may be freed below (evsums_state_end used them). */
	a->ndslots = 0;

	for (t = a->active, a->active = NULL; t; t = next) {
		next = t->next;
		t->idle = 0;
		if (t->carry) {
			/* Still active, counts kept: folded with the next interval's. */
			t->carry = false;
			t->next = a->active;
			a->active = t;
			continue;
		}
		t->active = false;
		t->next = NULL;
		t->oncpu_before += t->n[CNT_ONCPU];
		memset(t->n, 0, sizeof(t->n));
		sctable_clear(&t->sc);
		sctable_clear(&t->err);
	}
	memset(a->total, 0, sizeof(a->total));
	a->intervals++;
	a->lost = 0;
	a->lost_unknown = false;
	a->nborn = a->ndead = a->nsigs = a->nexecs = a->nmoved = 0;
	for (i = 0; i < a->nflows; i++)
		a->flows[a->flow_idx[i]].n = 0;
	a->nflows = 0;
	a->flows_over = 0;

	/* Deleting shifts slots, so collect first (on the now unused active links). */
	for (i = 0; i < a->threads.cap; i++) {
		if (!a->threads.slots[i].key)
			continue;
		t = a->threads.slots[i].val;
		/*
		 * A carried thread is still on the active list, linked through
		 * ->next: it is forgotten once its counts are folded, never
		 * before (freed there, the list walks freed memory or loops).
		 */
		if (lives_end_interval(t) || t->active)
			continue;
		if (t->exited > 2 || (t->idle >= ACCT_IDLE_FORGET && t->enter_nr == SC_EMPTY)) {
			t->next = doomed;
			doomed = t;
		}
	}
	for (t = doomed; t; t = next) {
		next = t->next;
		forget(a, t);
	}
}

/*
 * The state split: where each thread's wall time goes, from the scheduler's
 * events. A thread is on a CPU from its switch-in to its switch-out; then
 * runnable (preempted, or it yielded) or asleep in the state the switch-out
 * reports; a wakeup makes a sleeping one runnable, and it waits for a CPU
 * until its next switch-in. The events of one thread are written on several
 * CPUs (it sleeps on one, is woken from another, runs on a third) and each
 * CPU's buffer is decoded in turn: they are kept (16 bytes each, no lookup)
 * and applied in time order once every CPU is read.
 *
 * A switch the kernel did not write (acct_cpu) is told, as each CPU's
 * buffer is decoded in its own time order, by a record written by another
 * task than the one running there: that one ran on it since the CPU's
 * previous record at the earliest (no record of the CPU between says
 * otherwise), and not before it was runnable (its wakeup may be in another
 * CPU's buffer, applied first in time order). A record says so
 * (ACCT_SR_RAN, ACCT_SR_IDLE), written at the time of the one that told it.
 */

enum evsums_sched_what {
	ACCT_SR_RAN,		/* the thread's records say it ran on the CPU, since... (above) */
	ACCT_SR_IDLE,		/* the idle task's: no thread ran on it since its previous record */
	ACCT_SR_IN,		/* switched in */
	ACCT_SR_WAKE,		/* sched_wakeup: runnable, if it slept */
	ACCT_SR_WAKE_NEW,	/* sched_wakeup_new: a new task, runnable */
	ACCT_SR_OUT,		/* + enum evsums_st: switched out into that state */
};

#define SR_KIND(what) ((what) & 0xffu)
#define SR_CPU(what) ((what) >> 8)

/* Records kept at most (32 MiB): past that, they are applied as they are. */
#define SCHED_MAX (1u << 21)

/* A state's counter: the catalog's row of the same name. */
static const enum counter st_cnt[] = {
#define COUNTER(id, src, family, label, doc) COUNTERS_IF_STATE(src, [ACCT_ST_##id] = CNT_##id,)
#include "../../model/counters.def"
};

/* Inline for a switch's records; evsums_state_of for the rest. */
static inline enum evsums_st state_of(long prev_state)
{
	/* TASK_REPORT_MAX: preempted, whatever state it was about to sleep in. */
	if (prev_state & ACCT_STATE_PREEMPTED)
		return ACCT_ST_RUNQ;
	if (prev_state & ACCT_STATE_EXITED)
		return ACCT_ST_DEAD;
	/* D, also TASK_KILLABLE (a vfork parent, most of the kernel's waits for I/O). */
	if (prev_state & 0x2)
		return ACCT_ST_BLOCKED;
	if (prev_state & 0x1)
		return ACCT_ST_SLEEP;
	if (prev_state & (0x4 | 0x8))
		return ACCT_ST_STOPPED;
	/* P (parked) and I (TASK_IDLE: D without load, an idle kernel thread): sleeping. */
	if (prev_state & (0x40 | 0x80))
		return ACCT_ST_SLEEP;
	/* R: it called schedule() runnable (yield, a wakeup won the race). */
	return ACCT_ST_RUNQ;
}

enum evsums_st evsums_state_of(long prev_state)
{
	return state_of(prev_state);
}

/*
 * Each CPU's records are in time order: the array is a few ascending runs
 * (a run per CPU and drain), merged (DEFINE_MERGE_RUNS) stably: for equal
 * times, the run read first first. Then, across CPUs at one time stamp, what
 * a CPU's records told (before the switch-out that told it), a switch-out,
 * a wakeup, a switch-in.
 */
static inline bool sched_before(const struct evsums_sched *x, const struct evsums_sched *y)
{
	static const uint8_t rank[16] = {
		[ACCT_SR_RAN] = 0, [ACCT_SR_IDLE] = 0, [ACCT_SR_IN] = 3, [ACCT_SR_WAKE] = 2,
		[ACCT_SR_WAKE_NEW] = 2, [ACCT_SR_OUT ... 15] = 1,
	};

	if (x->ts != y->ts)
		return x->ts < y->ts;
	return rank[x->what & 15] < rank[y->what & 15];
}

_Static_assert(ACCT_SR_OUT + ACCT_ST_DEAD < 16, "sched_before's ranks");

static void apply_sched_all(struct evsums *a);

/* The kept scheduler records are full: room made for @more. */
static __attribute__((noinline)) void sched_full(struct evsums *a, size_t more)
{
	while (a->cap_sv - a->nsv < more) {
		if (a->cap_sv >= SCHED_MAX) {
			/* Full before the tick: in order as far as read, not beyond. */
			a->st_overflow++;
			apply_sched_all(a);
			return;
		}
		a->cap_sv = a->cap_sv ? a->cap_sv * 2 : 8192;
		a->sv = xrealloc_huge(a->sv, a->nsv * sizeof(*a->sv), a->cap_sv * sizeof(*a->sv));
		a->sv_tmp = xrealloc_huge(a->sv_tmp, 0, a->cap_sv * sizeof(*a->sv_tmp));
	}
}

static inline void set_sched(struct evsums_sched *r, pid_t tid, uint32_t what, uint64_t ts)
{
	r->ts = ts;
	r->tid = tid;
	r->what = what;
}

/* Inline, the growth apart: two or three of these per context switch. */
static inline void keep_sched(struct evsums *a, pid_t tid, uint32_t what, uint64_t ts)
{
	struct evsums_sched *r;

	if (a->nsv == a->cap_sv)
		sched_full(a, 1);
	r = &a->sv[a->nsv];
	set_sched(r, tid, what | a->cpu_tag, ts);
	if (a->nsv && sched_before(r, r - 1))
		run_begins(&a->sv_runs, a->nsv);
	a->nsv++;
}

/*
 * @tid wrote a record at @ts on the CPU being read, which its records so far
 * said another ran on: a switch to it was not read. Kept at @ts, in the
 * CPU's order (apply_sched finds since when). The first record read of a
 * CPU tells nothing: it was not known who ran there before.
 */
static __attribute__((noinline)) void cpu_unseen(struct evsums *a, pid_t tid, uint64_t ts)
{
	if (a->on->cur >= 0) {
		keep_sched(a, tid, tid > 0 ? ACCT_SR_RAN : ACCT_SR_IDLE, ts);
		a->st_unseen++;
	}
	a->on->cur = tid;
}

void evsums_state_switch(struct evsums *a, pid_t prev, long prev_state, pid_t next, uint64_t ts)
{
	struct evsums_sched *r;

	if (!a->states)
		return;
	/* prev runs here until now: if the CPU's records said another, a switch to it was missed. */
	cpu_proof(a, prev, ts);
	a->on->cur = next;
	/* The idle tasks (pid 0, one a CPU) are not threads of anyone. */
	if (prev <= 0 || next <= 0) {
		if (prev > 0)
			keep_sched(a, prev, ACCT_SR_OUT + state_of(prev_state), ts);
		if (next > 0)
			keep_sched(a, next, ACCT_SR_IN, ts);
		return;
	}
	/* Both at once: the switch-in is never before the switch-out of its time. */
	if (a->cap_sv - a->nsv < 2)
		sched_full(a, 2);
	r = &a->sv[a->nsv];
	set_sched(r, prev, (ACCT_SR_OUT + state_of(prev_state)) | a->cpu_tag, ts);
	set_sched(r + 1, next, ACCT_SR_IN | a->cpu_tag, ts);
	if (a->nsv && sched_before(r, r - 1))
		run_begins(&a->sv_runs, a->nsv);
	a->nsv += 2;
}

void evsums_state_wakeup(struct evsums *a, pid_t pid, bool new_task, pid_t by, uint64_t ts)
{
	if (!a->states)
		return;
	cpu_proof(a, by, ts);
	if (pid > 0)
		keep_sched(a, pid, new_task ? ACCT_SR_WAKE_NEW : ACCT_SR_WAKE, ts);
}

/*
 * Where @t's on-CPU time from @from to @ts on its CPU begins: not before
 * what the CPU credited already ends, one task at a time. None overlaps by
 * construction (the CPU's owner alone runs there); what would is counted
 * (st_overlaps) and credited as waiting, never twice as on a CPU.
 */
static uint64_t oncpu_from(struct evsums *a, struct evsums_thread *t, uint64_t from, uint64_t ts)
{
	struct evsums_cpu *c = &a->cpus[t->st_cpu];

	if (from < c->credited) {
		uint64_t end = c->credited < ts ? c->credited : ts;

		t->n[CNT_RUNQ] += end - from;
		a->total[CNT_RUNQ] += end - from;
		a->st_overlaps++;
		from = end;
	}
	if (ts > c->credited)
		c->credited = ts;
	return from;
}

/* Of its time on a CPU from @from to @ts, what came after its exit event. */
static __attribute__((noinline)) void exit_time(struct evsums *a, struct evsums_thread *t, uint64_t from,
						      uint64_t ts)
{
	if (from < t->exit_ts)
		from = t->exit_ts;
	t->n[CNT_EXITCPU] += ts - from;
	a->total[CNT_EXITCPU] += ts - from;
}

/* Its time in the state it leaves at @ts. An event older than what is known adds nothing. */
static inline void st_close(struct evsums *a, struct evsums_thread *t, uint64_t ts)
{
	uint64_t from = t->st_since;

	if (ts <= from) {
		/* Never back in time: the first event of it sets its start. */
		if (t->st == ACCT_ST_UNKNOWN)
			t->st_since = ts;
		return;
	}
	if (t->st != ACCT_ST_UNKNOWN && t->st != ACCT_ST_DEAD) {
		enum counter c = st_cnt[t->st];

		if (t->st == ACCT_ST_ONCPU && !a->st_detached)
			from = oncpu_from(a, t, from, ts);
		t->n[c] += ts - from;
		a->total[c] += ts - from;
		if (t->exit_ts && t->st == ACCT_ST_ONCPU && ts > t->exit_ts)
			exit_time(a, t, from, ts);
	}
	t->st_since = ts;
}

/* The thread @tid, if known (not made). */
static struct evsums_thread *find_thread(struct evsums *a, pid_t tid)
{
	struct evsums_thread *t = a->recent[(uint32_t)tid & (ACCT_RECENT - 1)];

	return t && t->tid == tid ? t : pidmap_get(&a->threads, tid);
}

/* @t leaves the CPU it is on (about to change state): that CPU has no owner. */
static inline void cpu_release(struct evsums *a, struct evsums_thread *t)
{
	if (t->st == ACCT_ST_ONCPU && a->cpus[t->st_cpu].owner == t->tid)
		a->cpus[t->st_cpu].owner = 0;
}

/*
 * @c's owner, whose switch-out was not read, did not run on it after @ts:
 * off it from then, in a state not known (asleep, until its own records say).
 * Returns it (NULL: none), and in *@credited (if not NULL) where its on-CPU
 * time credited ends (evdark.c's slot).
 */
static __attribute__((noinline)) struct evsums_thread *cpu_evict(struct evsums *a, struct evsums_cpu *c,
								  uint64_t ts, uint64_t *credited)
{
	struct evsums_thread *o = find_thread(a, c->owner);

	c->owner = 0;
	/* Of its tid's lives (evlives.c), the one on it: an older one's switch-out may be missed. */
	while (o && (o->st != ACCT_ST_ONCPU || &a->cpus[o->st_cpu] != c))
		o = o->older;
	if (!o)
		return NULL;
	/* Its on-CPU time credited ends here: not before what was credited (a cut). */
	if (credited)
		*credited = ts > o->st_since ? ts : o->st_since;
	st_close(a, o, ts);
	o->st = ACCT_ST_SLEEP;
	o->st_guess = true;
	o->st_moved = true;
	activate_thread(a, o);
	return o;
}

/*
 * @t, on another CPU, is on CPU @cpu at @ts: its switch-out there was not
 * read. It left that CPU after that one's last record at the earliest: off
 * it since then, so that the CPU's next thread may run from then.
 */
static inline void cpu_moved(struct evsums *a, struct evsums_thread *t, uint32_t cpu, uint64_t ts)
{
	struct evsums_cpu *old = &a->cpus[t->st_cpu];

	if (t->st == ACCT_ST_ONCPU && t->st_cpu != cpu)
		cpu_evict(a, old, old->last < ts ? old->last : ts, NULL);
}

/* @t runs on CPU @cpu from @ts: whoever was there is not (it left unseen). */
static inline void run_on(struct evsums *a, struct evsums_thread *t, uint32_t cpu, uint64_t ts)
{
	struct evsums_cpu *c = &a->cpus[cpu];

	if (c->owner && c->owner != t->tid)
		cpu_evict(a, c, ts, NULL);
	cpu_moved(a, t, cpu, ts);
	st_close(a, t, ts);
	t->st = ACCT_ST_ONCPU;
	t->st_cpu = (uint16_t)cpu;
	t->st_guess = false;
	c->owner = t->tid;
}

/*
 * ACCT_SR_RAN: @t's record at @ts on CPU @cpu said it ran there, no switch
 * to it read. The CPU's records applied before (all of its older ones, in
 * time order) end at c->last: whoever it held was not there after that,
 * and @t ran since then at the earliest, since it was runnable if later.
 * Asleep as its own switch-out said, with no wakeup read (the waker's was
 * not written): from @ts only, what is known.
 */
static __attribute__((noinline)) void ran_on(struct evsums *a, struct evsums_thread *t, uint32_t cpu,
					     uint64_t ts)
{
	struct evsums_cpu *c = &a->cpus[cpu];
	uint64_t from = c->last < ts ? c->last : ts, d_from = 0;
	struct evsums_thread *d = NULL;

	if (c->owner && c->owner != t->tid)
		d = cpu_evict(a, c, from, &d_from);
	cpu_moved(a, t, cpu, ts);
	switch (t->st) {
	case ACCT_ST_DEAD:
	case ACCT_ST_ONCPU:	/* here already */
		if (d)
			evdark_slot(a, d, d_from, NULL, ts, ts);
		return;
	case ACCT_ST_RUNQ:
		break;
	case ACCT_ST_SLEEP:
		if (t->st_guess)
			break;
		/* fall through */
	default:
		from = ts;
		break;
	}
	/* Not before its current state began (its wakeup, read on another CPU). */
	if (from < t->st_since)
		from = t->st_since;
	run_on(a, t, cpu, from);
	/* The one it evicted left unseen: how long it ran is its own count's (evdark.c). */
	if (d)
		evdark_slot(a, d, d_from, t, from, ts);
}

/*
 * A record of a thread that exited, past the cut, applied at the tick (its
 * row ends now: its time up to its last switch) before its CPU's records
 * that precede it, which are the next interval's: its own state only. Its
 * CPU's owner, last record and credited time follow that CPU's records in
 * their order (st_detached).
 */
static __attribute__((noinline)) void apply_detached(struct evsums *a, struct evsums_thread *t,
						     uint32_t what, uint64_t ts)
{
	if (t->st == ACCT_ST_DEAD)
		return;
	st_close(a, t, ts);
	if (SR_KIND(what) == ACCT_SR_IN || SR_KIND(what) == ACCT_SR_RAN) {
		t->st = ACCT_ST_ONCPU;
		t->st_cpu = (uint16_t)SR_CPU(what);
	} else {
		t->st = (uint8_t)(SR_KIND(what) - ACCT_SR_OUT);
	}
	t->st_guess = false;
}

static inline void apply_sched(struct evsums *a, struct evsums_thread *t, uint32_t what, uint64_t ts)
{
	uint32_t cpu = SR_CPU(what);

	t->st_moved = true;
	activate_thread(a, t);
	if (a->st_detached && SR_KIND(what) != ACCT_SR_WAKE && SR_KIND(what) != ACCT_SR_WAKE_NEW) {
		apply_detached(a, t, what, ts);
		return;
	}
	switch (SR_KIND(what)) {
	case ACCT_SR_IN:
		run_on(a, t, cpu, ts);
		break;
	case ACCT_SR_RAN:
		ran_on(a, t, cpu, ts);
		break;
	case ACCT_SR_WAKE:
		/* On a CPU still (woken before it slept), or runnable: nothing changes. */
		if (t->st == ACCT_ST_ONCPU || t->st == ACCT_ST_RUNQ || t->st == ACCT_ST_DEAD)
			break;
		st_close(a, t, ts);
		t->st = ACCT_ST_RUNQ;
		t->st_guess = false;
		break;
	case ACCT_SR_WAKE_NEW:
		/* A new task (its tid may have been a dead one's). */
		if (t->st == ACCT_ST_ONCPU)
			break;
		st_close(a, t, ts);
		t->st = ACCT_ST_RUNQ;
		t->st_guess = false;
		break;
	default:
		/* It ran here until now: not whoever the CPU's records had there. */
		if (a->cpus[cpu].owner && a->cpus[cpu].owner != t->tid)
			cpu_evict(a, &a->cpus[cpu], ts, NULL);
		st_close(a, t, ts);
		cpu_release(a, t);
		t->st = (uint8_t)(SR_KIND(what) - ACCT_SR_OUT);
		t->st_guess = false;
		break;
	}
}

/* The life a scheduler record is of: by its time, a last switch after an exit that life's. */
static inline struct evsums_thread *sched_life(struct evsums *a, const struct evsums_sched *r)
{
	struct evsums_thread *t = evsums_thread(a, r->tid);

	if (SR_KIND(r->what) == ACCT_SR_OUT + ACCT_ST_DEAD)
		return evsums_life_tail(a, t, r->ts);
	return evsums_life_at(a, t, r->ts);
}

/* A record, @t its thread if looked up already. */
static inline void apply_one(struct evsums *a, const struct evsums_sched *r, struct evsums_thread *t)
{
	struct evsums_cpu *c = &a->cpus[SR_CPU(r->what)];

	if (SR_KIND(r->what) == ACCT_SR_IDLE) {
		uint64_t d_from = 0;
		struct evsums_thread *d = c->owner ? cpu_evict(a, c, c->last < r->ts ? c->last : r->ts, &d_from)
						   : NULL;

		/* Idle since it left, unseen: how long it ran is its own count's (evdark.c). */
		if (d)
			evdark_slot(a, d, d_from, NULL, r->ts, r->ts);
	} else {
		apply_sched(a, t ? t : sched_life(a, r), r->what, r->ts);
	}
	if (r->ts > c->last && !a->st_detached)
		c->last = r->ts;
}

static inline void apply_record(struct evsums *a, const struct evsums_sched *r)
{
	apply_one(a, r, NULL);
}

DEFINE_MERGE_RUNS(apply_in_order, struct evsums_sched, sched_before, struct evsums, apply_record)

static void apply_sched_all(struct evsums *a)
{
	note_read(a);
	apply_in_order(a, &a->sv, &a->sv_tmp, a->nsv, &a->sv_runs);
	a->nsv = a->st_mark = a->st_left = 0;
}

/* A walk of the kept records: those to apply before @cut, and those kept past it. */
struct sched_end {
	struct evsums *a;
	uint64_t cut;
	bool early;		/* at a drain: past the cut is kept, whoever's it is */
	size_t keep;		/* records kept (in acct.sv_tmp, the walk's spare) */
};

/* @early is a constant in each walk below: each loop stays as small as its own was. */
static inline __attribute__((always_inline)) void split_record(struct sched_end *e,
							       const struct evsums_sched *r,
							       bool early)
{
	struct evsums_thread *t = NULL;

	/*
	 * After the cut: the next interval's, but at the tick for a thread
	 * that exited (its exit was applied, its row ends now): up to its last
	 * switch, a few microseconds past the cut at most.
	 */
	if (r->ts >= e->cut &&
	    (early || r->tid <= 0 || !(t = sched_life(e->a, r))->exited)) {
		e->a->sv_tmp[e->keep++] = *r;
		return;
	}
	if (early)
		e->a->st_early++;
	if (r->ts < e->cut) {
		apply_one(e->a, r, t);
		return;
	}
	e->a->st_detached = true;
	apply_one(e->a, r, t);
	e->a->st_detached = false;
}

static inline void end_record(struct sched_end *e, const struct evsums_sched *r)
{
	split_record(e, r, false);
}

static inline void early_record(struct sched_end *e, const struct evsums_sched *r)
{
	split_record(e, r, true);
}

DEFINE_MERGE_RUNS(end_in_order, struct evsums_sched, sched_before, struct sched_end, end_record)
DEFINE_MERGE_RUNS(early_in_order, struct evsums_sched, sched_before, struct sched_end, early_record)

/* Apply the kept records before @e->cut, in time order; the others, in order (one run), stay. */
static inline __attribute__((always_inline)) void split_sched(struct evsums *a, struct sched_end *e)
{
	struct evsums_sched *swap;

	if (e->early)
		early_in_order(e, &a->sv, &a->sv_tmp, a->nsv, &a->sv_runs);
	else
		end_in_order(e, &a->sv, &a->sv_tmp, a->nsv, &a->sv_runs);
	swap = a->sv;
	a->sv = a->sv_tmp;
	a->sv_tmp = swap;
	a->nsv = a->st_mark = a->st_left = e->keep;
}

void evsums_state_end(struct evsums *a, uint64_t cut)
{
	struct sched_end e = { .a = a, .cut = cut };
	struct evsums_thread *t;
	size_t i;

	if (!a->states)
		return;
	note_read(a);
	split_sched(a, &e);
	for (i = 0; i < a->threads.cap; i++) {
		if (!a->threads.slots[i].key)
			continue;
		t = a->threads.slots[i].val;
		if (t->st == ACCT_ST_UNKNOWN || t->st == ACCT_ST_DEAD)
			continue;
		st_close(a, t, cut);
		/* Its row is due, time added or not (its clock may be past the cut). */
		activate_thread(a, t);
	}
	/* Every state of the interval closed: the dark threads' runs given back. */
	evdark_apply(a, cut);
	a->st_cut = cut;
}

/*
 * The newest record of the CPU being read (the last kept since st_mark: a
 * CPU's records come in time order) is as far as it was read.
 */
static void note_read(struct evsums *a)
{
	uint32_t cpu = a->here & ((1u << SEG_CPU_BITS) - 1);

	if (a->nsv > a->st_mark && cpu < (uint32_t)a->st_ncpus &&
	    a->sv[a->nsv - 1].ts > a->st_read[cpu])
		a->st_read[cpu] = a->sv[a->nsv - 1].ts;
	a->st_mark = a->nsv;
}

void evsums_state_cpus(struct evsums *a, int ncpus)
{
	free(a->st_read);
	a->st_read = ncpus > 0 ? xcalloc((size_t)ncpus, sizeof(*a->st_read)) : NULL;
	a->st_ncpus = ncpus > 0 ? ncpus : 0;
	a->st_mark = a->nsv;
	cpus_grow(a, (size_t)a->st_ncpus);
}

void evsums_state_no_cpu(struct evsums *a, int cpu)
{
	if (cpu >= 0 && cpu < a->st_ncpus)
		a->st_read[cpu] = UINT64_MAX;
}

void evsums_state_drained(struct evsums *a, uint64_t slack)
{
	struct sched_end e = { .a = a, .cut = UINT64_MAX, .early = true };
	int c;

	if (!a->states || !a->st_ncpus)
		return;
	note_read(a);
	/*
	 * Strictly before: a CPU read up to a time may hold more records of
	 * that time, which go before some of the others' (sched_before).
	 */
	for (c = 0; c < a->st_ncpus; c++) {
		uint64_t upto = a->st_read[c] > a->st_cut ? a->st_read[c] : a->st_cut;

		if (upto < e.cut)
			e.cut = upto;
	}
	e.cut = e.cut > slack ? e.cut - slack : 0;
	if (!a->nsv || e.cut <= a->st_cut || a->nsv < a->st_left + a->st_left / 2)
		return;
	a->st_walks++;
	split_sched(a, &e);
}

struct evsums_thread *evsums_activate(struct evsums *a, pid_t tid, uint64_t ts)
{
	return activate_thread(a, evsums_life_call(a, evsums_thread(a, tid), ts));
}
