/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SCTABLE_H
#define KTOP_SCTABLE_H

/*
 * Per-syscall statistics of one thread or process: syscall number -> calls,
 * errors and time. Sparse (a process uses a few dozen of the ~460 syscalls), open
 * addressing keyed by the number, so the per-event path is a multiply, a compare
 * and an increment, and allocates only when a table grows.
 */

#include <stddef.h>
#include <stdint.h>

#define SC_EMPTY UINT32_MAX

struct sc_stat {
	uint32_t nr;		/* syscall number; SC_EMPTY = free slot */
	uint32_t top_errno;	/* the errno seen most recently, 0 = none */
	uint64_t calls, errors;
	uint64_t time_ns;	/* sum over the calls that were timed */
	uint64_t timed;		/* how many calls were timed (enter and exit seen) */
	uint64_t max_ns;
};

struct sc_table {
	struct sc_stat *slots;	/* NULL until the first call */
	uint32_t cap, used;	/* cap is 0 or a power of two */
};

struct sc_stat *sc_table_slow_get(struct sc_table *t, uint32_t nr);

/* The entry of @nr, created (zeroed) if new. Never NULL (allocation failure aborts). */
static inline struct sc_stat *sc_table_get(struct sc_table *t, uint32_t nr)
{
	if (t->cap) {
		uint32_t i = (nr * 2654435769u >> 16) & (t->cap - 1);

		if (t->slots[i].nr == nr)
			return &t->slots[i];
	}
	return sc_table_slow_get(t, nr);
}

/*
 * Errors by errno: an sc_table keyed by sc_err_key(nr, errno) whose entries
 * count, in @errors, the calls of system call @nr that returned -errno. The
 * kernel's errors are 1..4095 (12 bits); numbers from SC_ERR_NR_MAX up (no
 * system call has one: they all fail with ENOSYS) share the key of
 * SC_EMPTY - 1, as they share that slot in a call table.
 */
#define SC_ERR_NR_MAX 0xffffeu
static inline uint32_t sc_err_key(uint32_t nr, uint32_t err)
{
	return (nr < SC_ERR_NR_MAX ? nr : SC_ERR_NR_MAX) << 12 | (err & 0xfffu);
}

static inline uint32_t sc_err_nr(uint32_t key)
{
	return key >> 12 == SC_ERR_NR_MAX ? SC_EMPTY - 1 : key >> 12;
}

static inline uint32_t sc_err_errno(uint32_t key)
{
	return key & 0xfffu;
}

/* The entry of @nr, or NULL. */
const struct sc_stat *sc_table_find(const struct sc_table *t, uint32_t nr);
/* Forget every entry, keep the memory (the next interval uses it again). */
void sc_table_clear(struct sc_table *t);
void sc_table_free(struct sc_table *t);
/* Add @src's calls, errors and times to @dst (same syscall or a sum of several). */
void sc_stat_add(struct sc_stat *dst, const struct sc_stat *src);
/* Add every entry of @src to @dst. */
void sc_table_merge(struct sc_table *dst, const struct sc_table *src);
/* The entry with most calls (ties: the lower number), or NULL when empty. */
const struct sc_stat *sc_table_top(const struct sc_table *t);
/*
 * Fill @out with pointers to the entries, most calls first (ties: lower number).
 * Returns how many; @out must hold t->used. The pointers live until the table
 * changes.
 */
size_t sc_table_sorted(const struct sc_table *t, const struct sc_stat **out);

#endif
