/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_SIGNAMES_H
#define KTOP_SIGNAMES_H

/* Signal names, for every side that names a signal (events, flows, metrics). */

#include <stddef.h>

/* "SIGUSR1", "SIGRTMIN+3", or "SIG32" (a real-time signal glibc keeps for itself). Returns @buf. */
const char *signal_name(int sig, char *buf, size_t n);

#endif
