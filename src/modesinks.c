// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modes: the live view, batch output, --summary, the headless exporter
 * and the headless recorder. The sources are the same in each; a mode is the
 * last sink of the list (sinks.c): what it needs read, what it does with
 * each interval, and at the end. -1 goes on, else an exit status.
 */
#include <errno.h>
#include <string.h>

#include "../collectors/proc/procfs.h"
#include "../tables/columns.h"
#include "../views/view.h"
#include "ktop.h"
#include "ui.h"

/* Sorting or filtering by a value means reading it for every task. */
static void rows_needs(const struct model *m, const struct rowset *rs, struct procfs_need *need)
{
	need->all |= columns_needs(m, rs->sort_col);
	if (rs->filter[0])
		need->all |= NEED_CMDLINE;
}

static void live_needs(const struct ktop *k, struct procfs_need *need)
{
	const struct model *m = &k->model;
	size_t i;

	for (i = 0; i < k->app.ncols; i++)
		need->wanted |= columns_needs(m, k->app.cols[i]);
	/* Groups by a cgroup are summed each tick: every row's cgroup. */
	if (k->app.groups.by >= CGROUP_BY_CGROUP)
		need->all |= NEED_CGROUP;
	/* The Groups view's CPU limits are its rows' (at each one's own path). */
	if (k->app.view == VIEW_GROUPS && k->app.groups.by >= CGROUP_BY_CGROUP)
		need->all |= NEED_CPULIMIT;
	if (k->app.view == VIEW_GROUPS)
		need->all |= columns_needs(m, COL_VCSW) | columns_needs(m, COL_IVCSW) | columns_needs(m, COL_RUNQ) |
			     columns_needs(m, COL_DISK_READ);
	/*
	 * A search (F3, while its prompt is open) looks at every command line,
	 * as a filter. So does the first frame, once: which rows it shows is
	 * not known before they are sorted, and they show command lines, as
	 * top and htop's first screen do (then only the rows shown).
	 */
	if (k->app.searching || (!m->tick && k->app.show_cmdline))
		need->all |= NEED_CMDLINE;
	rows_needs(m, &k->app.rows, need);
}

void live_want_rows(struct ktop *k)
{
	struct table_state *ts = &k->app.table;

	if (!k->mode->screen || !ts->shown)
		return;
	rowset_want(&k->app.rows, &k->model, ts->shown_first, ts->shown_n);
	ts->shown = false;
}

static int live_tick(struct ktop *k)
{
	cmd_notice(k);
	ui_draw(&k->app);
	return -1;
}

static void batch_needs_of(const struct ktop *k, struct procfs_need *need)
{
	const struct model *m = &k->model;

	if (k->batch.view == VIEW_GROUPS) {
		/* Every row's group (by a cgroup: its cgroup) and the numbers summed. */
		if (k->batch.groups.by >= CGROUP_BY_CGROUP)
			need->all |= NEED_CGROUP | NEED_CPULIMIT;
		need->all |= columns_needs(m, COL_VCSW) | columns_needs(m, COL_IVCSW) | columns_needs(m, COL_RUNQ) |
			     columns_needs(m, COL_DISK_READ);
	} else if (k->batch.view == VIEW_PROCESSES) {
		need->all |= batch_needs(m, k->batch.cols, k->batch.ncols);
	}
	/* The other system views are sums of events: nothing more to read. */
	rows_needs(m, &k->batch.rows, need);
}

static int batch_tick(struct ktop *k)
{
	int err = batch_write(&k->batch, &k->model);

	if (err == -EPIPE)
		return 0;	/* the reader left: not an error */
	if (err) {
		/* Closed stdout (EBADF), a full disk: say so once, and stop. */
		fprintf(stderr, "ktop: cannot write the output: %s\n", strerror(-err));
		return 1;
	}
	return -1;
}

static int summary_end(struct ktop *k)
{
	return write_summary(k) ? 1 : 0;
}

const struct mode mode_live = { "live", true, live_needs, live_tick, NULL };
const struct mode mode_batch = { "batch", false, batch_needs_of, batch_tick, NULL };
const struct mode mode_summary = { "summary", false, NULL, NULL, summary_end };
/* ktop -b --listen: the exporter (exporter.c) is its only sink; nothing on stdout. */
const struct mode mode_exporter = { "exporter", false, NULL, NULL, NULL };
/* -b -w FILE with no output asked for: the recorder is the only sink (it reads what -b would). */
const struct mode mode_record = { "record", false, batch_needs_of, NULL, NULL };
