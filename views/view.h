/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_VIEW_H
#define KTOP_VIEW_H

/*
 * A view draws part of the screen from the app state and answers keys with an
 * action. Views write into curses' screen buffer only: src/ui.c is the one place
 * that sends it to the terminal (doupdate) and reads input.
 */

#include <curses.h>

#include "../src/app.h"

struct key_binding;

struct view {
	const char *name;
	/* Draw into rows y0..y0+h-1, width w. */
	void (*draw)(struct app *a, int y0, int h, int w);
	enum action (*key)(struct app *a, int ch);
	bool fullscreen;	/* hides the header (help) */
	bool overlay;		/* draws on the bottom line over the view below (prompt) */
	const struct key_binding *keys;	/* what help lists for it */
	size_t nkeys;
	const char *hint;	/* the bottom line's keys; NULL = the table's */
};

/* A key of a view, in the table the handler and the help screen both read. */
struct key_binding {
	int keys[4];		/* 0-terminated when fewer */
	const char *label;	/* how help shows the keys: "P" or "Up/k" */
	const char *help;
	enum action (*fn)(struct app *a);
};

extern const struct view table_view;
extern const struct view help_view;
extern const struct view sort_view;
extern const struct view procview_view;	/* a focused process */
extern const struct view evlist_view;	/* its kernel events */
extern const struct view snapshot_view;	/* one event and the variables at it */

extern const struct key_binding table_keys[];
extern const size_t table_nkeys;

/* The header (meters and system rates); returns how many lines it used. */
int header_draw(struct app *a, int w, int max_lines);

/* The bottom line: function keys, or a message. */
void footer_draw(struct app *a, int y, int w);

/* A one-line editor on the bottom line; @done gets the text, or NULL on Esc. */
typedef enum action (*prompt_done_fn)(struct app *a, const char *text);
typedef void (*prompt_change_fn)(struct app *a, const char *text);
void prompt_open(struct app *a, const char *label, const char *initial, prompt_done_fn done,
		 prompt_change_fn change);

/* Look up @ch in @keys and run it; ACT_NONE if unbound. */
enum action keys_dispatch(struct app *a, const struct key_binding *keys, size_t n, int ch);

/* The event list's filter, stepping and times, shared with the snapshot view. */
struct fproc;
struct kev;
struct model;
bool evlist_match(const struct app *a, const struct kev *e);
/* The matching event before (@dir < 0) or after @seq in the ring; false when none. */
bool evlist_step(const struct app *a, const struct fproc *fp, uint64_t seq, int dir,
		 uint64_t *out);
/* Wall-clock "HH:MM:SS.uuuuuu" of a CLOCK_MONOTONIC event time. */
void evlist_time(const struct model *m, uint64_t ts, char *buf, size_t n);

/* Text in a width, cut (never wrapped) at the edge. */
void put_text(int y, int x, int maxw, const char *s);

#endif
