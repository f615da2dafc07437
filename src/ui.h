/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_UI_H
#define KTOP_UI_H

/*
 * The terminal: the one module that initializes curses, sends the screen to the
 * terminal and reads keys. Views draw into curses' buffer; ui_draw sends only
 * what changed (curses compares with what the terminal shows).
 */

#include <stdbool.h>

#include "../views/app.h"

#define UI_MIN_COLS 40
#define UI_MIN_ROWS 10

/* Start curses on the terminal; returns 0 or -1 (message printed). */
int ui_start(struct app *a);
/* What @fd is when it is not a terminal: "a pipe", "a file", "closed"... (static). */
const char *ui_fd_kind(int fd);
/* Load and show theme a->theme; on error a message says why (file and line). */
int ui_theme(struct app *a);
/* Restore the terminal. Idempotent, safe from atexit and fatal-signal paths. */
void ui_stop(void);
/* The terminal changed size (SIGWINCH). */
void ui_resize(void);
void ui_draw(struct app *a);
/* Next pending key, or false when none is waiting. */
bool ui_next_key(int *ch);
/* Give a key to the top view; returns what should happen next. */
enum action ui_key(struct app *a, int ch);

#endif
