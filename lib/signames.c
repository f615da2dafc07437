// SPDX-License-Identifier: GPL-2.0-only
#include "signames.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

const char *signal_name(int sig, char *buf, size_t n)
{
	/* glibc's SIGRTMIN is past the two real-time signals it keeps for itself. */
	const char *s = sig > 0 && sig < SIGRTMIN ? sigabbrev_np(sig) : NULL;

	if (s)
		snprintf(buf, n, "SIG%s", s);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, n, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, n, "SIG%d", sig);
	return buf;
}
