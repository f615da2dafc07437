// SPDX-License-Identifier: GPL-2.0-only
#include "ui.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "themefile.h"
#include "../collectors/clocks.h"
#include "../views/theme.h"
#include "../views/view.h"

static bool active;
/*
 * What was on screen at the last draw. The screen is erased only when that
 * changes (another view, a resize): otherwise the header and the views that say
 * so (whole_lines) draw every line they own in full, and curses sends the
 * terminal only the cells that differ. Other views get their area blanked first.
 */
static const struct view *drawn_base, *drawn_top;
static int drawn_lines, drawn_cols;
static bool drawn_small;

static bool ui_can_address(void)
{
	char cup[] = "cup";	/* tigetstr takes a char *: no string literal */
	const char *s = tigetstr(cup);

	return s && s != (char *)-1;
}

const char *ui_fd_kind(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return errno == EBADF ? "closed" : "unreadable";
	if (S_ISFIFO(st.st_mode))
		return "a pipe";
	if (S_ISREG(st.st_mode))
		return "a file";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	if (S_ISCHR(st.st_mode))
		return "a device that is not a terminal (such as /dev/null)";
	return "not a terminal";
}

int ui_start(struct app *a)
{
	const char *nc = getenv("NO_COLOR");

	/* NO_COLOR: any value but the empty string (no-color.org). */
	a->color = !(nc && *nc);
	a->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0 && !a->ascii;	/* --ascii */
	a->ascii = !a->utf8;
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "ktop: cannot start the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	active = true;
	/* TERM=dumb and the like: a screen that cannot move the cursor cannot show a table. */
	if (!ui_can_address()) {
		ui_stop();
		fprintf(stderr, "ktop: TERM=%s cannot move the cursor: use a terminal such as "
			"xterm or vt100, or -b for batch output\n", getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);	/* Esc answers at once; keys' escape sequences still parse */
	curs_set(0);
	if (a->mouse) {
		/* Clicks only: motion reports would cost bytes over SSH for nothing. */
		mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED |
			  BUTTON5_PRESSED, NULL);
		mouseinterval(250);
	}
	ui_theme(a);
	return 0;
}

int ui_theme(struct app *a)
{
	char err[512];
	struct theme_def d;
	bool color;
	int ret;

	if (!active)
		return 0;
	/* Without colours the theme is "mono" whatever a->theme says. */
	color = theme_colors(a->color);
	ret = theme_load(color ? a->theme : "mono", &d, err, sizeof(err));
	if (ret)
		theme_builtin(color ? "default" : "mono", &d);
	theme_apply(&d, color);
	if (ret)
		app_message(a, "%s; theme %s used", err, theme_current());
	else if (strcmp(theme_current(), a->theme) && a->color)
		app_message(a, "theme %s (the terminal has no colours)", theme_current());
	drawn_base = NULL;	/* everything in the new look */
	return ret;
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
	const char *p;
	int y = 0, n;

	snprintf(msg, sizeof(msg), "terminal %dx%d is too small: ktop needs %dx%d", COLS, LINES,
		 UI_MIN_COLS, UI_MIN_ROWS);
	/* Word-wrapped: a 20x5 terminal must still read "too small". */
	for (p = msg; *p && y < LINES; y++) {
		n = (int)strlen(p);
		if (n > COLS) {
			for (n = COLS; n > 0 && p[n] != ' '; n--)
				;
			if (n == 0)
				n = COLS;
		}
		mvaddnstr(y, 0, p, n);
		p += n;
		while (*p == ' ')
			p++;
	}
}

void ui_draw(struct app *a)
{
	const struct view *top = a->stack[a->depth - 1];
	const struct view *base = top;
	bool small = COLS < UI_MIN_COLS || LINES < UI_MIN_ROWS;
	int h, i;

	if (!active)
		return;
	/* Views read the clock from here: they make no system calls of their own. */
	a->now_ns = clocks_mono_ns();
	if (a->message[0] && !a->message_until)
		a->message_until = a->now_ns + a->message_ns;
	for (i = a->depth - 1; i > 0 && a->stack[i]->overlay; i--)
		;
	base = a->stack[i];
	if (base != drawn_base || top != drawn_top || LINES != drawn_lines || COLS != drawn_cols ||
	    small != drawn_small) {
		erase();
		drawn_base = base;
		drawn_top = top;
		drawn_lines = LINES;
		drawn_cols = COLS;
		drawn_small = small;
	}
	if (small) {
		draw_too_small();
		goto out;
	}
	if (base->fullscreen) {
		if (!base->whole_lines)
			erase();
		base->draw(a, 0, LINES - 1, COLS);
	} else {
		h = header_draw(a, COLS, LINES / 3);
		if (!base->whole_lines) {	/* its area blank first */
			move(h, 0);
			clrtobot();
		}
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

static enum action ui_mouse(struct app *a)
{
	const struct view *v = a->stack[a->depth - 1];
	MEVENT ev;
	enum mouse_kind kind;

	if (getmouse(&ev) != OK || !v->mouse)
		return ACT_NONE;
	if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
		kind = MOUSE_DOUBLE;
	else if (ev.bstate & BUTTON1_CLICKED)
		kind = MOUSE_CLICK;
	else if (ev.bstate & BUTTON4_PRESSED)
		kind = MOUSE_WHEEL_UP;
	else if (ev.bstate & BUTTON5_PRESSED)
		kind = MOUSE_WHEEL_DOWN;
	else
		return ACT_NONE;
	return v->mouse(a, ev.y, ev.x, kind);
}

enum action ui_key(struct app *a, int ch)
{
	const struct view *v;

	/* resizeterm() queues KEY_RESIZE: the resize itself was done on SIGWINCH. */
	if (ch == KEY_RESIZE)
		return ACT_REDRAW;
	if (ch == KEY_MOUSE)
		return ui_mouse(a);
	v = a->stack[a->depth - 1];
	a->now_ns = clocks_mono_ns();
	return v->key ? v->key(a, ch) : keys_dispatch(a, v->keys, v->nkeys, ch);
}
