// SPDX-License-Identifier: GPL-2.0-only
#include "trigger.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "../lib/util.h"

int trigger_parse(const char *s, struct trigger *t, char *err, size_t errsz)
{
	char buf[sizeof(t->text)], *key, *op, *end;
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	t->col = -1;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t')
			continue;
		if (n + 1 >= sizeof(buf)) {
			snprintf(err, errsz, "--trigger: too long");
			return -EINVAL;
		}
		buf[n++] = *s;
	}
	buf[n] = '\0';
	snprintf(t->text, sizeof(t->text), "%s", buf);
	if (!strcmp(buf, "oom")) {
		t->oom = true;
		return 0;
	}
	key = buf;
	op = strpbrk(buf, ":<>");
	if (op && *op == ':') {
		*op = '\0';
		if (cgroup_group_by_parse(buf, &t->by)) {
			snprintf(err, errsz, "--trigger '%s': '%s' is not a group key (comm, user, cgroup, "
				 "unit, container, pod, namespace)", t->text, buf);
			return -EINVAL;
		}
		t->grouped = true;
		key = op + 1;
		op = strpbrk(key, "<>");
	}
	if (!op || op == key) {
		snprintf(err, errsz, "--trigger '%s': not KEY>N, KEY<N (>=, <=), BY:KEY>N or oom",
			 t->text);
		return -EINVAL;
	}
	t->op = op[0] == '>' ? (op[1] == '=' ? TRIG_GE : TRIG_GT) : (op[1] == '=' ? TRIG_LE : TRIG_LT);
	*op = '\0';
	op += op[1] == '=' ? 2 : 1;
	t->col = columns_by_key(key);
	if (t->col < 0 || columns[t->col].type == CT_STR || columns[t->col].type == CT_CHAR) {
		snprintf(err, errsz, "--trigger '%s': '%s' is not a numeric column (see --help)",
			 t->text, key);
		return -EINVAL;
	}
	t->value = strtod(op, &end);
	if (end == op || *end || !isfinite(t->value)) {
		snprintf(err, errsz, "--trigger '%s': '%s' is not a number", t->text, op);
		return -EINVAL;
	}
	return 0;
}

static bool holds(const struct trigger *t, double v)
{
	switch (t->op) {
	case TRIG_GT: return v > t->value;
	case TRIG_GE: return v >= t->value;
	case TRIG_LT: return v < t->value;
	case TRIG_LE: return v <= t->value;
	}
	return false;
}

bool trigger_eval(const struct trigger *t, const struct model *m, struct groups *g, char *what,
		  size_t whatsz)
{
	char key[256], comm[64];
	double v;
	size_t i;

	if (t->oom || t->col < 0 || m->interval_s <= 0)
		return false;
	if (t->grouped && groups_col_sums(t->col)) {
		groups_update(g, m);
		for (i = 0; i < g->n; i++) {
			const struct group *gr = &g->v[i];

			if (gr->seen_tick != g->tick || !group_num(gr, t->col, &v) || !holds(t, v))
				continue;
			sanitize_text(key, sizeof(key), gr->key, strlen(gr->key), 0);
			snprintf(what, whatsz, "%s %s: %s %.1f", cgroup_group_by_name(t->by), key,
				 columns[t->col].key, v);
			return true;
		}
		return false;
	}
	for (i = 0; i < m->ntasks; i++) {
		const struct task *tk = m->tasks[i];

		if (!columns_num(m, tk, (enum col_id)t->col, &v) || !holds(t, v))
			continue;
		sanitize_text(comm, sizeof(comm), tk->comm, strnlen(tk->comm, sizeof(tk->comm)), 0);
		if (t->grouped) {
			char raw[256];

			groups_task_key(m, t->by, tk, raw, sizeof(raw));
			sanitize_text(key, sizeof(key), raw, strlen(raw), 0);
			snprintf(what, whatsz, "%s %s (pid %d %s): %s %.1f", cgroup_group_by_name(t->by),
				 key, (int)tk->pid, comm, columns[t->col].key, v);
		} else {
			snprintf(what, whatsz, "pid %d (%s): %s %.1f", (int)tk->pid, comm,
				 columns[t->col].key, v);
		}
		return true;
	}
	return false;
}

unsigned trigger_needs(const struct trigger *t, const struct model *m)
{
	unsigned need;

	if (t->oom || t->col < 0)
		return 0;
	need = columns_needs(m, t->col);
	if (t->grouped && t->by >= CGROUP_BY_CGROUP)
		need |= NEED_CGROUP;
	return need;
}
