// SPDX-License-Identifier: GPL-2.0-only
#include "ui.h"

#include <curses.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../views/theme.h"
#include "../views/view.h"

static bool active;

int ui_start(struct app *a)
{
	const char *nc = getenv("NO_COLOR");

	a->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "ktop: cannot start the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	active = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);	/* Esc answers at once; keys' escape sequences still parse */
	curs_set(0);
	theme_init(!(nc && *nc));
	return 0;
}

void ui_stop(void)
{
	if (!active)
		return;
	active = false;
	endwin();
}

void ui_resize(void)
{
	struct winsize ws;

	if (!active)
		return;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
}

static void draw_too_small(void)
{
	char msg[80];

	snprintf(msg, sizeof(msg), "terminal %dx%d is too small: ktop needs %dx%d", COLS, LINES,
		 UI_MIN_COLS, UI_MIN_ROWS);
	mvaddnstr(LINES / 2, 0, msg, COLS);
}

void ui_draw(struct app *a)
{
	const struct view *top = a->stack[a->depth - 1];
	const struct view *base = top;
	int h, i;

	if (!active)
		return;
	erase();
	if (COLS < UI_MIN_COLS || LINES < UI_MIN_ROWS) {
		draw_too_small();
		goto out;
	}
	for (i = a->depth - 1; i > 0 && a->stack[i]->overlay; i--)
		;
	base = a->stack[i];
	if (base->fullscreen) {
		base->draw(a, 0, LINES - 1, COLS);
	} else {
		h = header_draw(a, COLS, LINES / 3);
		base->draw(a, h, LINES - 1 - h, COLS);
	}
	if (top->overlay)
		top->draw(a, LINES - 1, 1, COLS);
	else
		footer_draw(a, LINES - 1, COLS);
out:
	wnoutrefresh(stdscr);
	doupdate();
}

bool ui_next_key(int *ch)
{
	if (!active)
		return false;
	*ch = getch();
	return *ch != ERR;
}

enum action ui_key(struct app *a, int ch)
{
	/* resizeterm() queues KEY_RESIZE: the resize itself was done on SIGWINCH. */
	if (ch == KEY_RESIZE)
		return ACT_REDRAW;
	return a->stack[a->depth - 1]->key(a, ch);
}
