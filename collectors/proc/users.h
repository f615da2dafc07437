/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_USERS_H
#define KTOP_USERS_H

#include <stdint.h>

/*
 * uid -> user name, looked up once per uid through NSS and kept: the per-tick
 * path does no lookups. Returned strings live until users_free().
 */
struct users;

struct users *users_new(void);
void users_free(struct users *u);
/* Name of @uid, or the number as text when it has no name; NULL for uid < 0. */
const char *users_name(struct users *u, int64_t uid);

#endif
