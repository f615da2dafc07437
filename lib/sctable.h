/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SCTABLE_H
#define KTOP_SCTABLE_H

/*
 * Per-syscall statistics of one thread or process: syscall number -> calls,
 * errors and time. Sparse (a process uses a few dozen of the ~460 syscalls), open
 * addressing keyed by the number, so the per-event path is a multiply, a compare
 * and an increment, and allocates only when a table grows.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lathist.h"

#define SC_EMPTY UINT32_MAX

/*
 * The key of a system call (sc_stat.nr): its number, and in the top two bits
 * the ABI it was made in, since a number means another call in each:
 * SC_ABI_NATIVE (this machine's: x86_64), SC_ABI_X32 (x86_64's numbers with
 * __X32_SYSCALL_BIT, bit 30, as the kernel reports them) and SC_ABI_COMPAT (a
 * 32-bit program's: i386 on x86_64). SC_KEY_INVALID is every number no ABI has
 * (syscall(-1), say): they fail with ENOSYS and share one slot.
 */
enum sc_abi { SC_ABI_NATIVE, SC_ABI_X32, SC_ABI_COMPAT, SC_ABI_NR };
#define SC_KEY_ABI_SHIFT 30
#define SC_KEY_NR_MASK 0x3fffffffu
#define SC_KEY_INVALID (SC_EMPTY - 1)

/* The key of call @nr as a raw_syscalls event reports it, of a task in @compat mode. */
static inline uint32_t sc_key(long nr, bool compat)
{
	if (compat)
		return nr >= 0 && nr <= (long)SC_KEY_NR_MASK ?
			(uint32_t)SC_ABI_COMPAT << SC_KEY_ABI_SHIFT | (uint32_t)nr : SC_KEY_INVALID;
	/* x32's bit 30 is its ABI's. */
	return nr >= 0 && nr < (long)SC_ABI_COMPAT << SC_KEY_ABI_SHIFT ? (uint32_t)nr : SC_KEY_INVALID;
}

static inline enum sc_abi sc_key_abi(uint32_t key)
{
	return key >= SC_KEY_INVALID ? SC_ABI_NATIVE : (enum sc_abi)(key >> SC_KEY_ABI_SHIFT);
}

/* The number within its ABI's table; SC_KEY_INVALID's is itself. */
static inline uint32_t sc_key_nr(uint32_t key)
{
	return key >= SC_KEY_INVALID ? key : key & SC_KEY_NR_MASK;
}

struct sc_stat {
	uint32_t nr;		/* syscall key (sc_key); SC_EMPTY = free slot */
	uint32_t top_errno;	/* the errno seen most recently, 0 = none */
	uint64_t calls, errors;
	uint64_t time_ns;	/* sum over the calls that were timed */
	uint64_t timed;		/* how many calls were timed (enter and exit seen) */
	uint64_t max_ns;
};

struct sctable {
	struct sc_stat *slots;	/* NULL until the first call */
	/*
	 * The timed calls' durations, slot by slot (hist[i] is slots[i]'s):
	 * NULL until a call is timed (sctable_time), so the tables of an
	 * untimed session (no sys_enter) stay small.
	 */
	struct lathist *hist;
	uint32_t cap, used;	/* cap is 0 or a power of two */
	/*
	 * The slot of the entry found last away from its first slot (its first
	 * was another's): a flood of one call that collided with an earlier one
	 * is found there second, not by probing. Below cap (0 when cap is 0).
	 */
	uint32_t hot;
};

struct sc_stat *sctable_slow_get(struct sctable *t, uint32_t nr);

/* The entry of @nr, created (zeroed) if new. Never NULL (allocation failure aborts). */
static inline struct sc_stat *sctable_get(struct sctable *t, uint32_t nr)
{
	if (t->cap) {
		uint32_t i = (nr * 2654435769u >> 16) & (t->cap - 1);

		if (t->slots[i].nr == nr)
			return &t->slots[i];
		if (t->slots[t->hot].nr == nr)
			return &t->slots[t->hot];
	}
	return sctable_slow_get(t, nr);
}

/*
 * Errors by errno: an sc_table keyed by sc_err_key(nr, errno) whose entries
 * count, in @errors, the calls of system call key @nr that returned -errno.
 * The kernel's errors are 1..4095 (12 bits); the key's other 20 bits are the
 * ABI (2) and the number (18). Numbers from SC_ERR_NUM_MAX up (no system call
 * has one: they all fail with ENOSYS) share the key of SC_KEY_INVALID, as they
 * share that slot in a call table.
 */
#define SC_ERR_NR_MAX 0xffffeu
#define SC_ERR_NUM_MAX 0x3ffffu
static inline uint32_t sc_err_key(uint32_t nr, uint32_t err)
{
	uint32_t num = sc_key_nr(nr), f;

	f = nr >= SC_KEY_INVALID || num >= SC_ERR_NUM_MAX ? SC_ERR_NR_MAX :
		(nr >> SC_KEY_ABI_SHIFT) << 18 | num;
	return f << 12 | (err & 0xfffu);
}

static inline uint32_t sc_err_nr(uint32_t key)
{
	uint32_t f = key >> 12;

	return f == SC_ERR_NR_MAX ? SC_KEY_INVALID : (f >> 18) << SC_KEY_ABI_SHIFT | (f & SC_ERR_NUM_MAX);
}

static inline uint32_t sc_err_errno(uint32_t key)
{
	return key & 0xfffu;
}

/* The entry of @nr, or NULL. */
const struct sc_stat *sctable_find(const struct sctable *t, uint32_t nr);
/* Forget every entry, keep the memory (the next interval uses it again). */
void sctable_clear(struct sctable *t);
/* What @t's slots and histograms take: a copy of it takes that much again at most. */
size_t sctable_mem(const struct sctable *t);
/*
 * What every table alive takes (one count for the process, like lib/rcstr.h's):
 * a replay refuses a file whose rows' tables would take more than its limit.
 */
size_t sctable_live_bytes(void);
void sctable_free(struct sctable *t);
/* Add @src's calls, errors and times to @dst (same syscall or a sum of several). */
void sctable_stat_add(struct sc_stat *dst, const struct sc_stat *src);
/* Add every entry of @src to @dst, durations too. */
void sctable_merge(struct sctable *dst, const struct sctable *src);
/* Add @s, an entry of @src, to @dst's entry @nr, durations too. */
void sctable_add(struct sctable *dst, uint32_t nr, const struct sctable *src,
		  const struct sc_stat *s);
/* @t's histograms, one a slot, zeroed: allocated at its first timed call. */
void sctable_hist_alloc(struct sctable *t);
/*
 * A call of entry @s (of @t) timed at @ns: its time, count, max and bucket.
 * Inline: --latency times most calls.
 */
static inline void sctable_time(struct sctable *t, struct sc_stat *s, uint64_t ns)
{
	if (__builtin_expect(!t->hist, 0))
		sctable_hist_alloc(t);
	s->time_ns += ns;
	s->timed++;
	if (ns > s->max_ns)
		s->max_ns = ns;
	t->hist[s - t->slots].n[lathist_bucket(ns)]++;
}
/*
 * Add @h to the durations of entry @s of @t (a recording's histogram read
 * back: the calls' times, counts and max are the entry's own fields).
 */
void sctable_put_hist(struct sctable *t, struct sc_stat *s, const struct lathist *h);
/* The durations of entry @s of @t; NULL when none of its calls was timed. */
const struct lathist *sctable_hist(const struct sctable *t, const struct sc_stat *s);
/*
 * The durations of every entry of @t summed into @out (zeroed first), and the
 * longest call into *@max_ns. Returns how many calls it holds.
 */
uint64_t sctable_hist_sum(const struct sctable *t, struct lathist *out, uint64_t *max_ns);
/* The entry with most calls (ties: the lower number), or NULL when empty. */
const struct sc_stat *sctable_top(const struct sctable *t);
/* The sum of the entries' time_ns: time inside the calls timed. */
uint64_t sctable_time_ns(const struct sctable *t);
/*
 * Fill @out with pointers to the entries, most calls first (ties: lower number).
 * Returns how many; @out must hold t->used. The pointers live until the table
 * changes.
 */
size_t sctable_sorted(const struct sctable *t, const struct sc_stat **out);

#endif
