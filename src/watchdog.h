/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_WATCHDOG_H
#define KTOP_WATCHDOG_H

/*
 * The loop's watchdog. Signals are read from a signalfd by the one loop, so a
 * step of it that never finished (a defect: a cyclic list, a kernel write that
 * waits for minutes) would leave SIGTERM, SIGINT, SIGHUP and SIGQUIT pending
 * for ever. While the loop is busy, a timer looks four times a second: one of
 * them still pending a grace time after it was first seen (a long step that
 * ends in time leaves through the loop, cleanly), ktop stops tracing,
 * restores the terminal, closes every descriptor, removes its instances,
 * says what happened on stderr and exits with status 1. The grace is
 * WATCHDOG_GRACE_MS, or WATCHDOG_STEPS times the longest step finished so
 * far (start-up apart) when that is longer, at most WATCHDOG_GRACE_MAX_MS: on
 * a machine where every step is slow (a sanitizer build beside CPU hogs, a
 * tick of a thousand exits took 1.3 s) a step a few times longer than usual
 * is not a defect; one far longer than any before is.
 */
#define WATCHDOG_GRACE_MS 1000
#define WATCHDOG_STEPS 4
#define WATCHDOG_GRACE_MAX_MS 8000

/* Installs the handler and the timer; busy from now on. 0, or -errno (then it does nothing). */
int watchdog_init(void);
/* The loop is working (after poll returns) or waiting (before it polls). */
void watchdog_busy(void);
void watchdog_idle(void);

#endif
