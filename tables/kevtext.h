/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_KEVTEXT_H
#define KTOP_KEVTEXT_H

/* tables/kevtext: a focused process's events (model/kev.h) as text. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/kev.h"

/*
 * kevtext_render - the one-line text of an event (without time, cpu, tid)
 *
 * "openat(0xffffff9c, 0x7ffd12345678, 0x80000, 0) = 3 <12.1 us>",
 * "= -2 ENOENT", "out S -> 1234 (bash)", "read user not-present at 0x... ip 0x...".
 * Returns @buf.
 */
char *kevtext_render(const struct kev *e, char *buf, size_t n);

/* Pieces the snapshot view shows field by field. */
const char *kevtext_switch_state(int64_t prev_state, char *buf, size_t n);
/* "read user not-present" style text of an x86 page-fault error code. */
char *kevtext_fault_text(uint64_t error_code, char *buf, size_t n);
/* signal_generate's result: "delivered", "ignored", "already pending", ... */
const char *kevtext_sig_result(int result);
/* Time as "12.1 us", "3.40 ms", "1.234 s". */
char *kevtext_duration(uint64_t ns, char *buf, size_t n);

/*
 * The fields of @e, one "name value" pair per call, for the snapshot: @i from
 * 0; returns false past the last.
 */
bool kevtext_field(const struct kev *e, int i, const char **name, char *val, size_t n);

#endif
