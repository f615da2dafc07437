/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_VIEW_H
#define KTOP_VIEW_H

/*
 * A view draws part of the screen from the app state and answers keys with an
 * action. Views write into curses' screen buffer only: src/ui.c is the one place
 * that sends it to the terminal (doupdate) and reads input.
 */

#include <curses.h>

#include "app.h"

/* A key of a view, in the table the handler and the help screen both read. */
struct key_binding {
	int keys[4];		/* 0-terminated when fewer */
	const char *label;	/* how help shows the keys: "P" or "Up/k" */
	const char *help;
	enum action (*fn)(struct app *a);
};

/* A mouse event, as ui.c hands it to a view. */
enum mouse_kind { MOUSE_CLICK, MOUSE_DOUBLE, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };

struct view {
	const char *name;
	/* Draw into rows y0..y0+h-1, width w. */
	void (*draw)(struct app *a, int y0, int h, int w);
	/* Optional: keys the table below cannot express (NULL: the table answers). */
	enum action (*key)(struct app *a, int ch);
	/* Optional: a click or wheel at screen cell (y, x). */
	enum action (*mouse)(struct app *a, int y, int x, enum mouse_kind kind);
	/* Its key table: what the keys do, and what help and the function-key bar list. */
	const struct key_binding *keys;
	size_t nkeys;
	bool fullscreen;	/* hides the header (help) */
	bool overlay;		/* draws on the bottom line over the view below (prompt) */
	const char *hint;	/* the bottom line's keys; NULL = the function-key bar */
	/* The bar's word for F1..F10 where the view's differs (6 cells at most); NULL: the bar's. */
	const char *const *bar_words;
	/*
	 * It draws every cell of its area each time, so the screen need not be
	 * erased before (src/ui.c): curses then sends only what changed.
	 */
	bool whole_lines;
};

/* Line-drawing and graph glyphs: UTF-8, or ASCII (no UTF-8 locale, --ascii). */
struct glyphs {
	const char *tree_branch, *tree_last, *tree_vert, *tree_blank;	/* 3 cells each */
	const char *tree_vert1;		/* 1 cell: tree_vert where the tree narrows */
	const char *folded, *unfolded;	/* 1 cell: children hidden / shown */
	const char *spark[8];		/* 1 cell each: graph levels, low to high */
	const char *bar;		/* 1 cell: a full cell of a bar */
	const char *hline;		/* 1 cell: a horizontal rule */
	const char *sort_desc, *sort_asc;	/* 1 cell: the sort column's order */
};
const struct glyphs *glyphs_get(const struct app *a);

extern const struct view table_view;
extern const struct view help_view;
extern const struct view procview_view;	/* a focused process */
extern const struct view evlist_view;	/* its kernel events */
extern const struct view snapshot_view;	/* one event and the variables at it */

extern const struct view setup_view;
extern const struct view menu_view;

/* The system-wide views (views/sysview.c), indexed by enum sv_id (app.h). */
extern const struct view sys_views[SV_NR];
/* Their state: the rows of each, the groups by @by; @view is the one picked first. */
void sysview_init(struct app *a, enum view_kind view, enum cgroup_group_by by);
void sysview_free(struct app *a);
/* After each tick: the groups summed again, the rows of the views on the stack rebuilt. */
void sysview_refresh_all(struct app *a);
/* Show view @k at the bottom of the stack (what was over it closes). */
enum action sysview_switch(struct app *a, enum view_kind k);
/*
 * What Enter on a table's row opens (the engine's table_drill): the process
 * view, the processes behind the row, a subsystem's syscalls; or why nothing.
 */
struct drill;
enum action view_drill(struct app *a, const struct drill *d);
/* The bottom line's right side (filter, sort) when a system view is on top. */
bool sysview_status(const struct app *a, char *buf, size_t n);
/* The view keys every picked view binds: the next one, a menu, each one by number. */
enum action key_view_next(struct app *a);
enum action key_view_menu(struct app *a);
enum action key_view_1(struct app *a);
enum action key_view_2(struct app *a);
enum action key_view_3(struct app *a);
enum action key_view_4(struct app *a);
enum action key_view_5(struct app *a);
enum action key_view_6(struct app *a);
enum action key_view_7(struct app *a);
enum action key_view_8(struct app *a);
enum action key_view_9(struct app *a);

/*
 * A menu of @n items in the table's place (signals, users): Enter calls @pick
 * with the index, Esc leaves. @items must live as long as the menu is open.
 */
void menu_open(struct app *a, const char *title, const char *const *items, size_t n,
	       size_t cursor, menu_pick_fn pick);

/*
 * The one sort menu (sortmenu.c): item @i of a table's columns (@doc may be
 * NULL; @current: the sort column), then the menu of @n of them, the
 * cursor on @cur; Enter calls @pick with the column's index.
 */
void sort_menu_item(struct app *a, size_t i, bool current, const char *title, const char *key,
		    const char *doc);
void sort_menu_open(struct app *a, size_t n, size_t cur, menu_pick_fn pick);

/* What the process table's screen holds (the e menu's environment), freed at the end. */
void table_view_free(struct app *a);
/* The process table's columns that fit in @w cells, into @out (COL_NR of room); how many. */
size_t table_view_fit(struct app *a, int w, int *out);

/* The header (meters and system rates); returns how many lines it used. */
int header_draw(struct app *a, int w, int max_lines);

/* The bottom line: function keys, or a message. */
void footer_draw(struct app *a, int y, int w);

/* A one-line editor on the bottom line; @done gets the text, or NULL on Esc. */
void prompt_open(struct app *a, const char *label, const char *initial, prompt_done_fn done,
		 prompt_change_fn change);
/* Keys the open prompt's owner answers first (the search's F3); ACT_NONE: not one. */
void prompt_keys(struct app *a, prompt_key_fn key);
/* A new label for the open prompt (the search's "no match"). */
void prompt_relabel(struct app *a, const char *label);

/* The next (@dir 1) or previous (-1) theme in a->themes into a->theme: ACT_THEME. */
enum action theme_step(struct app *a, int dir);

/* Look up @ch in @keys and run it; ACT_NONE if unbound. */
enum action keys_dispatch(struct app *a, const struct key_binding *keys, size_t n, int ch);
/* Key handlers every view shares: help, back to the view below, quit. */
enum action key_help(struct app *a);
enum action key_back(struct app *a);
enum action key_quit(struct app *a);
/* A replay: the interval before, after (a message when ktop is not replaying). */
/* Z: pause or resume; Space: a replay's pause and play, live says there are no tags. */
enum action key_pause(struct app *a);
enum action key_space(struct app *a);
enum action key_replay_back(struct app *a);
enum action key_replay_fwd(struct app *a);
/* A replay: a prompt for the time to jump to. */
enum action key_replay_jump(struct app *a);
/* Save the flight recorder's events (src/flightctl.c). */
enum action key_flight(struct app *a);

/* The event list's stepping and times, shared with the snapshot view. */
struct fproc;
struct kev;
struct model;
/* Open the event list of a->view_pid: every event, or @syscall's (a label) only. */
void evlist_open(struct app *a, const char *syscall);
/* Its index's memory, at exit. */
void evlist_free(struct app *a);
/* The event of the list's filter before (@dir < 0) or after event @seq; false when none. */
bool evlist_step(struct app *a, const struct fproc *fp, uint64_t seq, int dir, uint64_t *out);
/* The theme's element of an event's kind: event-syscall, -switch, -fault, -signal, -process. */
enum elem evlist_elem(const struct kev *e);
/* Wall-clock "HH:MM:SS.uuuuuu" of a CLOCK_MONOTONIC event time. */
void evlist_time(const struct model *m, uint64_t ts, char *buf, size_t n);

/* Text in a width, cut (never wrapped) at the edge. */
void put_text(int y, int x, int maxw, const char *s);
/*
 * put_line - @s at (@y, @x), cut at @w cells and padded with blanks up to them,
 * in the current attributes: a whole line, for views with whole_lines.
 */
void put_line(int y, int x, int w, const char *s);
/* Lines @y up to @end blank: what a whole-lines view leaves unused of its area. */
void blank_lines(int y, int end, int w);
/*
 * @s, text of a process or the kernel (a name, a file name, an event), as the
 * terminal may show it: controls, C1 and invalid UTF-8 as '?'. Returns @buf.
 */
const char *view_clean(const struct app *a, char *buf, size_t n, const char *s);

#endif
