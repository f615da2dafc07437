// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tree view's order: each row under its parent (a thread under its process
 * in thread mode), siblings in the sort order, roots too. A row whose parent is
 * not among the rows (filtered out, or gone) is a root. No recursion: a chain
 * of thousands of processes must not overflow the stack.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

bool model_is_folded(const struct model *m, pid_t pid)
{
	size_t i;

	for (i = 0; i < m->nfolded; i++)
		if (m->folded[i] == pid)
			return true;
	return false;
}

bool model_fold(struct model *m, pid_t pid, bool fold)
{
	size_t i;

	for (i = 0; i < m->nfolded && m->folded[i] != pid; i++)
		;
	if (fold == (i < m->nfolded))
		return false;
	if (fold) {
		m->folded = xrealloc(m->folded, (m->nfolded + 1) * sizeof(*m->folded));
		m->folded[m->nfolded++] = pid;
	} else {
		m->folded[i] = m->folded[--m->nfolded];
	}
	return true;
}

static pid_t parent_of(const struct model *m, const struct task *t)
{
	return m->threads && t->pid != t->tgid ? t->tgid : t->ppid;
}

static void emit(const struct model *m, struct task **out, size_t *k, int r, const int *first,
		 bool *done)
{
	struct task *t = m->rows[r];

	t->tree_kids = first[r] >= 0;
	t->tree_folded = t->tree_kids && model_is_folded(m, t->pid);
	out[(*k)++] = t;
	done[r] = true;
}

void tree_order(struct model *m)
{
	size_t n = m->nrows, i, k = 0;
	int *first, *last, *next, *stack, *cur, root_first = -1, root_last = -1, sp;
	struct task **out;
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
	for (i = 0; i < m->ntasks; i++)
		m->tasks[i]->tree_row = -1;
	for (i = 0; i < n; i++) {
		m->rows[i]->tree_row = (int)i;
		first[i] = last[i] = next[i] = -1;
	}
	/* Children lists in the sort order (rows are sorted already). */
	for (i = 0; i < n; i++) {
		struct task *t = m->rows[i], *p = model_task_find(m, parent_of(m, t));
		int pi = p && p != t ? p->tree_row : -1;

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
		m->rows[r]->tree_depth = 0;
		m->rows[r]->tree_more = 0;
		m->rows[r]->tree_last = next[r] < 0;
		emit(m, out, &k, r, first, done);
		sp = 0;
		stack[sp] = r;
		hidden[sp] = m->rows[r]->tree_folded;
		cur[sp++] = first[r];
		while (sp > 0) {
			int c = cur[sp - 1], p = stack[sp - 1];
			struct task *t, *pt = m->rows[p];

			if (c < 0 || done[c]) {
				sp--;
				continue;
			}
			cur[sp - 1] = next[c];
			t = m->rows[c];
			t->tree_depth = (uint16_t)(sp < 65535 ? sp : 65535);
			t->tree_more = pt->tree_more;
			if (pt->tree_depth >= 1 && pt->tree_depth < 64 && !pt->tree_last)
				t->tree_more |= 1ull << pt->tree_depth;
			t->tree_last = next[c] < 0;
			if (hidden[sp - 1])
				done[c] = true;
			else
				emit(m, out, &k, c, first, done);
			stack[sp] = c;
			hidden[sp] = hidden[sp - 1] || t->tree_folded;
			cur[sp++] = first[c];
		}
	}
	memcpy(m->rows, out, k * sizeof(*out));
	m->nrows = k;
	free(first);
	free(last);
	free(next);
	free(stack);
	free(cur);
	free(done);
	free(hidden);
	free(out);
}
