// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loop's watchdog (watchdog.h). Everything the handler does is
 * async-signal-safe, except ui_stop, which the crash handler does too: a
 * terminal left in raw mode is worse than the small risk.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../collectors/trace/counting.h"
#include "../collectors/trace/instance.h"
#include "ui.h"
#include "watchdog.h"

static timer_t timer;
static bool ready;
static volatile sig_atomic_t busy;
/* Written by the loop before busy is set, read by the handler while it is. */
static volatile uint64_t busy_since_ns;
/* When the handler first saw an ending signal pending in this busy stretch; 0 = not yet. */
static volatile uint64_t seen_ns;
/* The grace, from the longest busy stretch finished after the first (start-up). */
static volatile uint64_t grace_ns = WATCHDOG_GRACE_MS * 1000000ull;
static unsigned stretches;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* @v in decimal at @p (room for 20 digits); returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char d[20];
	int n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = d[--n];
	return p;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static __attribute__((noreturn)) void bail(int sig, uint64_t busy_ms)
{
	char msg[256], *p = msg;

	counting_emergency_stop();
	ui_stop();
	p = put_str(p, "ktop: the main loop has been busy for ");
	p = put_u64(p, busy_ms);
	p = put_str(p, " ms without finishing (a defect in ktop); ended on ");
	p = put_str(p, "SIG");
	p = put_str(p, sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	p = put_str(p, ": tracing stopped, its instance removed\n");
	if (write(STDERR_FILENO, msg, (size_t)(p - msg)) < 0) {
		/* Nothing more can be said. */
	}
	/*
	 * Every descriptor first: a splice pipe still holding ring-buffer pages
	 * when its instance goes makes the kernel free them twice.
	 */
	close_range(3, ~0U, 0);
	instance_emergency_remove();
	_exit(1);
}

static void on_timer(int sig, siginfo_t *si, void *uc)
{
	static const int ends[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };
	int saved = errno;
	sigset_t pending;
	uint64_t now;
	size_t i;

	(void)sig, (void)si, (void)uc;
	if (!busy || sigpending(&pending))
		goto out;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		if (sigismember(&pending, ends[i]) != 1)
			continue;
		/* A long step that ends soon still leaves through the loop. */
		now = mono_ns();
		if (!seen_ns)
			seen_ns = now;
		else if (now - seen_ns >= grace_ns)
			bail(ends[i], (now - busy_since_ns) / 1000000u);
		break;
	}
out:
	errno = saved;
}

int watchdog_init(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL };
	struct sigaction sa = { .sa_sigaction = on_timer, .sa_flags = SA_SIGINFO | SA_RESTART };

	/* A real-time signal of its own: every classic one is read from the signalfd. */
	sev.sigev_signo = SIGRTMIN + 2;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sev.sigev_signo, &sa, NULL) || timer_create(CLOCK_MONOTONIC, &sev, &timer))
		return -errno;
	ready = true;
	watchdog_busy();
	return 0;
}

void watchdog_busy(void)
{
	/* Looks four times a second while busy. */
	struct itimerspec its = {
		.it_value = { .tv_nsec = 250000000L },
		.it_interval = { .tv_nsec = 250000000L },
	};

	if (!ready || busy)
		return;
	busy_since_ns = mono_ns();
	seen_ns = 0;
	busy = 1;
	timer_settime(timer, 0, &its, NULL);
}

void watchdog_idle(void)
{
	static const struct itimerspec off;
	uint64_t g;

	if (!ready || !busy)
		return;
	busy = 0;
	timer_settime(timer, 0, &off, NULL);
	g = (mono_ns() - busy_since_ns) * WATCHDOG_STEPS;
	if (stretches++ && g > grace_ns)
		grace_ns = g < WATCHDOG_GRACE_MAX_MS * 1000000ull ? g : WATCHDOG_GRACE_MAX_MS * 1000000ull;
}
