// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rows: filter, sort and the tree view's order. In the tree each row is under
 * its parent (a thread under its process in thread mode), siblings in the sort
 * order, roots too. A row whose parent is not among the rows (filtered out, or
 * gone) is a root. No recursion: a chain of thousands of processes must not
 * overflow the stack.
 */
#include "rows.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proctable.h"
#include "../lib/util.h"

void rowset_init(struct rowset *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->sort_col = COL_CPU;
	rs->sort_dir = SORT_DESC;
	rs->filter_uid = -1;
}

void rowset_free(struct rowset *rs)
{
	free(rs->rows);
	free(rs->folded);
	pidmap_free(&rs->index);
	memset(rs, 0, sizeof(*rs));
}

bool rowset_is_folded(const struct rowset *rs, pid_t pid)
{
	size_t i;

	for (i = 0; i < rs->nfolded; i++)
		if (rs->folded[i] == pid)
			return true;
	return false;
}

bool rowset_fold(struct rowset *rs, pid_t pid, bool fold)
{
	size_t i;

	for (i = 0; i < rs->nfolded && rs->folded[i] != pid; i++)
		;
	if (fold == (i < rs->nfolded))
		return false;
	if (fold) {
		rs->folded = xrealloc(rs->folded, (rs->nfolded + 1) * sizeof(*rs->folded));
		rs->folded[rs->nfolded++] = pid;
	} else {
		rs->folded[i] = rs->folded[--rs->nfolded];
	}
	return true;
}

bool rowset_unfold_all(struct rowset *rs)
{
	if (!rs->nfolded)
		return false;
	rs->nfolded = 0;
	return true;
}

void rowset_want(const struct rowset *rs, struct model *m, size_t first, size_t count)
{
	size_t i;

	for (i = first; i < first + count && i < rs->nrows; i++)
		model_want_task(m, rs->rows[i].task);
}

bool task_text_matches(const struct task *t, const char *text)
{
	if (!text[0] || strcasestr(t->comm, text))
		return true;
	if (t->cmdline && t->cmdline_len) {
		/* The command line is NUL-separated; match it as the shell shows it. */
		char buf[512];
		size_t n = t->cmdline_len < sizeof(buf) - 1 ? t->cmdline_len : sizeof(buf) - 1;
		size_t k;

		for (k = 0; k < n; k++)
			buf[k] = t->cmdline[k] ? t->cmdline[k] : ' ';
		buf[n] = '\0';
		return strcasestr(buf, text) != NULL;
	}
	return false;
}

static pid_t parent_of(const struct model *m, const struct task *t)
{
	return m->threads && t->pid != t->tgid ? t->tgid : t->ppid;
}

static void emit(const struct rowset *rs, struct row *out, size_t *k, int r, const int *first,
		 bool *done)
{
	struct row *row = &rs->rows[r];

	row->kids = first[r] >= 0;
	row->folded = row->kids && rowset_is_folded(rs, row->task->pid);
	out[(*k)++] = *row;
	done[r] = true;
}

/* Put the rows (sorted) in tree order, each with its place in the tree. */
static void tree_order(struct rowset *rs, const struct model *m)
{
	size_t n = rs->nrows, i, k = 0;
	int *first, *last, *next, *stack, *cur, root_first = -1, root_last = -1, sp;
	struct row *rows = rs->rows, *out;
	bool *done, *hidden;

	if (!n)
		return;
	first = xmalloc(n * sizeof(int));
	last = xmalloc(n * sizeof(int));
	next = xmalloc(n * sizeof(int));
	stack = xmalloc(n * sizeof(int));
	cur = xmalloc(n * sizeof(int));
	done = xcalloc(n, sizeof(bool));
	hidden = xcalloc(n, sizeof(bool));
	out = xmalloc(n * sizeof(*out));
	if (rs->index.slots)
		pidmap_clear(&rs->index);
	else
		pidmap_init(&rs->index);
	for (i = 0; i < n; i++) {
		/* A reused pid's earlier life (X) is no parent of the newer one's children. */
		if (!rows[i].task->past || !pidmap_get(&rs->index, rows[i].task->pid))
			pidmap_put(&rs->index, rows[i].task->pid, &rows[i]);
		first[i] = last[i] = next[i] = -1;
	}
	/* Children lists in the sort order (rows are sorted already). */
	for (i = 0; i < n; i++) {
		const struct row *p = pidmap_get(&rs->index, parent_of(m, rows[i].task));
		int pi = p && p != &rows[i] ? (int)(p - rows) : -1;

		if (pi >= 0) {
			if (last[pi] >= 0)
				next[last[pi]] = (int)i;
			else
				first[pi] = (int)i;
			last[pi] = (int)i;
		} else {
			if (root_last >= 0)
				next[root_last] = (int)i;
			else
				root_first = (int)i;
			root_last = (int)i;
		}
	}
	/*
	 * Depth first from each root, then from each row not reached: those are in
	 * a parent cycle (a reused pid can make one), and the first of each becomes
	 * a root, the loop cut. Rows under a folded one are walked but not shown.
	 */
	for (i = 0; i < n; i++) {
		int r;

		if (root_first >= 0) {
			r = root_first;
			root_first = next[r];
			i--;	/* the unreached are scanned after the roots */
		} else if (!done[i]) {
			r = (int)i;
			next[r] = -1;
		} else {
			continue;
		}
		rows[r].depth = 0;
		rows[r].more = 0;
		rows[r].last = next[r] < 0;
		emit(rs, out, &k, r, first, done);
		sp = 0;
		stack[sp] = r;
		hidden[sp] = rows[r].folded;
		cur[sp++] = first[r];
		while (sp > 0) {
			int c = cur[sp - 1], p = stack[sp - 1];
			struct row *t, *pt = &rows[p];

			if (c < 0 || done[c]) {
				sp--;
				continue;
			}
			cur[sp - 1] = next[c];
			t = &rows[c];
			t->depth = (uint16_t)(sp < 65535 ? sp : 65535);
			t->more = pt->more;
			if (pt->depth >= 1 && pt->depth < 64 && !pt->last)
				t->more |= 1ull << pt->depth;
			t->last = next[c] < 0;
			if (hidden[sp - 1])
				done[c] = true;
			else
				emit(rs, out, &k, c, first, done);
			stack[sp] = c;
			hidden[sp] = hidden[sp - 1] || t->folded;
			cur[sp++] = first[c];
		}
	}
	memcpy(rows, out, k * sizeof(*out));
	rs->nrows = k;
	free(first);
	free(last);
	free(next);
	free(stack);
	free(cur);
	free(done);
	free(hidden);
	free(out);
}

void rowset_refresh(struct rowset *rs, const struct model *m)
{
	struct table t;
	size_t i;

	if (rs->cap < m->ntasks) {
		rs->cap = m->cap > m->ntasks ? m->cap : m->ntasks;
		rs->rows = xrealloc(rs->rows, rs->cap * sizeof(*rs->rows));
	}
	/* The process table's definition (proctable.c): its filter and sort keys. */
	proc_table(&t, m, rs, NULL, 0);
	rs->nrows = 0;
	for (i = 0; i < m->ntasks; i++) {
		struct row r = { .task = m->tasks[i] };

		if (table_match(&t, &r, rs->filter))
			rs->rows[rs->nrows++] = r;
	}
	if (!rs->nrows)
		return;
	table_sort(&t, rs->rows, rs->nrows, sizeof(*rs->rows));
	if (rs->tree)
		tree_order(rs, m);
}
