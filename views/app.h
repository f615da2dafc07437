/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_APP_H
#define KTOP_APP_H

/*
 * The state the interactive views share: the UI state (selection, scroll,
 * prompt, messages) and a const pointer to the model they draw, which is the
 * program's (struct ktop, src/ktop.h). Views change only this; anything that
 * needs I/O or changes the model (collecting now, re-arming the timer,
 * switching thread mode, reading the rows shown) is an action they return to
 * the main loop, or state src/ reads (table_state.shown).
 */

#include <stdbool.h>
#include <stdint.h>

#include "../model/model.h"
#include "../tables/systable.h"
#include "../tables/columns.h"
#include "../tables/groups.h"
#include "../model/fproc.h"
#include "../tables/list.h"
#include "../tables/evindex.h"
#include "../tables/rows.h"
#include "../lib/themedef.h"

enum action {
	ACT_NONE,	/* nothing changed */
	ACT_REDRAW,	/* draw again */
	ACT_RESORT,	/* filter or sort changed: rebuild a->rows, draw */
	ACT_COLLECT,	/* collect now (what is shown needs new data) */
	ACT_DELAY,	/* the delay changed: re-arm the timer */
	ACT_THREADS,	/* thread mode toggled: restart the collector */
	ACT_FOCUS,	/* a process view opened on view_pid: focus its events */
	ACT_UNFOCUS,	/* the process view of view_pid closed */
	ACT_THEME,	/* a->theme changed: load it */
	ACT_SIGNAL,	/* send a->req.sig to a->req.pid, say how it went */
	ACT_RENICE,	/* set the nice value of a->req.pid to a->req.nice */
	ACT_ENVIRON,	/* show the environment of a->req.pid (a menu of its lines) */
	ACT_SAVE,	/* write the settings file */
	ACT_REPLAY_BACK,	/* a replay: the interval before */
	ACT_REPLAY_FWD,		/* the interval after */
	ACT_REPLAY_JUMP,	/* the interval at a->jump_to */
	ACT_FLIGHT,	/* save the flight recorder's events */
	ACT_QUIT,
};

struct view;
struct app;

#define VIEW_STACK_MAX 8

/*
 * The system-wide views' screens (views/sysview.c): the five a user picks,
 * and the two a row of one opens (a subsystem's syscalls, the processes
 * behind a row). Each keeps its rows' order, filter and selection.
 */
enum sv_id {
	SV_SYSCALLS, SV_ERRORS, SV_SUBSYSTEMS, SV_SIGNALS, SV_GROUPS, SV_LATENCY,
	SV_CONNECTIONS, SV_DISKS,
	SV_SUB_SYSCALLS,	/* the syscalls of one subsystem */
	SV_CALLERS,		/* the processes behind a row */
	SV_NR
};

struct sv_state {
	struct systable av;	/* its rows: refreshed each tick and when its order changes */
	struct list list;	/* the selected row, the first shown, the rows it had room for */
};

/*
 * Each screen's own state, kept here rather than in its file: the menus'
 * items live as long as the menu shows them.
 */
#define USERS_MAX 256
#define SIGNALS_MAX 16
struct table_state {			/* views/tableview.c */
	struct list list;		/* the selected row, the first shown */
	/*
	 * The selected process (pid and start time: a reused pid is another).
	 * Once the user puts the selection on one (a move, a click, a search,
	 * F), it stays on it whatever reorders the rows (@sticky); before, and
	 * after Home or End, on its line, as in htop.
	 */
	pid_t selected_pid;
	uint64_t selected_start;
	bool sticky;
	bool keep_pid;			/* the user reordered: on its process at the next rebuild */
	int tree_step, tree_first;	/* the tree's lines: cells per level, first level drawn */
	char saved_filter[128];		/* the filter before the prompt opened (Esc restores it) */
	/*
	 * The rows drawn last, since the last tick when @shown: their status
	 * and command lines are read next (live_want_rows, src/modesinks.c).
	 */
	size_t shown_first, shown_n;
	bool shown;
	struct user_item {		/* the u menu: the users of the processes shown */
		char name[48];
		int64_t uid;
	} users[USERS_MAX + 1];
	const char *user_items[USERS_MAX + 1];
	size_t nusers;
	const char *signal_items[SIGNALS_MAX];	/* the k menu */
	/* The e menu: a process's environment as read (src/live.c), its lines' starts. */
	char *environ;
	const char **environ_items;
	size_t environ_n;
};

struct sysviews_state {			/* views/sysview.c: what the system views share */
	char saved_filter[128];		/* the filter before the prompt opened */
	int filter_id;			/* the view the prompt filters (enum sv_id) */
	const char *view_items[VIEW_NR];	/* the views menu */
	char view_text[VIEW_NR][160];	/* a description is never cut here, only at the edge */
	const char *by_items[CGROUP_BY__COUNT];	/* the group-by menu */
};

typedef enum action (*menu_pick_fn)(struct app *a, size_t index);
struct menu_state {			/* views/menu.c */
	char title[160];
	const char *const *items;	/* the opener's, alive while the menu is open */
	size_t n;
	struct list list;
	menu_pick_fn pick;
	int y0;				/* the first item's line at the last draw */
};

typedef enum action (*prompt_done_fn)(struct app *a, const char *text);
typedef void (*prompt_change_fn)(struct app *a, const char *text);
typedef enum action (*prompt_key_fn)(struct app *a, int ch, const char *text);
struct prompt_state {			/* views/prompt.c */
	char label[128];		/* "Filter: " */
	char text[128];
	size_t len;
	prompt_done_fn done;
	prompt_change_fn change;
	prompt_key_fn key;
};

struct app {
	const struct model *model;	/* the program's (struct ktop), read only here */
	struct rowset rows;		/* the table's: sort, filter, tree; refreshed each tick */
	double delay_s;
	bool paused;
	bool utf8;			/* the locale is UTF-8: keep UTF-8 text */
	bool show_cmdline;		/* COMMAND shows the command line, not comm */

	int cols[COL_NR];		/* table columns, COMMAND last */
	size_t ncols;

	/* The screens' own state. */
	struct table_state table;
	struct sysviews_state svs;
	struct menu_state menu;
	struct prompt_state prompt;
	struct list setup;		/* views/setup.c: the setting picked */
	struct list help;		/* views/help.c: the first line shown */
	struct sortmenu_state {		/* views/sortmenu.c: the sort menu's items, while it is open */
#define SORT_MENU_MAX 48
		const char *items[SORT_MENU_MAX];
		char text[SORT_MENU_MAX][200];
		int col[SORT_MENU_MAX];	/* the process table's: the column of each item */
	} sortmenu;

	/* The process view, its event list and snapshot (views/procview.c, ...). */
	pid_t view_pid;			/* the process shown; 0 = none */
	/*
	 * The table's row of an exited process Enter opened (its last numbers,
	 * as the row showed them: no more come), for the process view of @pid.
	 */
	struct pv_last_row {
		pid_t pid;
		char comm[64];
		char command[256];
		char header[1024], row[1024];
	} pv_last;
	struct list pv_list;		/* the selected row of its syscall table */
	struct evlist_state {		/* views/evlist.c: the event list */
		struct evfilter filter;	/* the kind and syscall it shows */
		bool paused;		/* the list stays where it is */
		uint64_t pause_end;	/* while paused: the events shown end here (seq) */
		uint64_t sel;		/* the selected event (its sequence number in the ring) */
		bool follow;		/* the selection follows the newest event */
		struct evindex index;	/* the events that pass the filter: the list's items */
		struct list list;	/* its selection (an item of the index) and window */
		int y_top;		/* the screen line of the window's first item, at the last draw */
	} ev;
	struct fsnap snap;		/* the snapshot view's event (model/fproc.c computes it) */

	const struct view *stack[VIEW_STACK_MAX];
	int depth;

	/* The system-wide views; the view at the bottom of the stack is the one picked. */
	enum view_kind view;		/* what the view keys picked last (settings: view) */
	struct sv_state sv[SV_NR];
	struct groups groups;		/* the groups view's (settings: group_by) */

	char search[128];		/* the last search (F3): name or command line */
	bool searching;			/* its prompt is open: every command line is read */
	char message[160];		/* a one-line notice at the bottom */
	char notice[160];		/* a lasting one (ktop -- CMD: runs, exited), under it */
	uint64_t message_until;		/* monotonic ns; 0: from the next draw */
	uint64_t message_ns;		/* how long it stays from then */
	uint64_t now_ns;		/* monotonic ns of this draw or key (src/ui.c sets it) */

	/* Look and feel (issue 6). */
	char theme[THEME_NAME_MAX + 192];	/* the theme asked for: a name or a file */
	bool color;			/* colours allowed: NO_COLOR is not set */
	bool ascii;			/* ASCII lines and graphs (no UTF-8 locale, --ascii) */
	bool mouse;			/* mouse clicks wanted (no --no-mouse) */
	bool follow;			/* F: the footer says so, and when the process is gone */
	bool tracing;			/* kernel events are counted */
	bool replay;			/* -r: a recording, not the live system */
	bool replay_end;		/* it shows the last interval recorded (so far) */
	char jump_to[64];		/* the time typed to jump to (ACT_REPLAY_JUMP) */
	int64_t replay_pos, replay_n;	/* the interval shown (1..n) of n; n 0: not known */
	double replay_first_s, replay_last_s;	/* the recording's first and last times */
	int recording;			/* -w: 1 recording, 2 stopped (a full disk) */
	char (*themes)[THEME_NAME_MAX];	/* the themes found at start, for Z and F2 */
	size_t nthemes;
	struct {			/* what ACT_SIGNAL / ACT_RENICE act on */
		pid_t pid;
		uint64_t starttime;
		int sig, nice;
	} req;
	/* Where the table's column titles were drawn, for mouse clicks. */
	int hdr_y, rows_y;
	int hdr_x[COL_NR + 1];
	int hdr_col[COL_NR];
	size_t hdr_n;
};

/* How long a message stays on the bottom line. */
#define MESSAGE_NS (4ull * 1000000000ull)

void app_message(struct app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void app_push(struct app *a, const struct view *v);
void app_pop(struct app *a);

#endif
