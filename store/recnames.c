// SPDX-License-Identifier: GPL-2.0-only
#include "recnames.h"

int recnames_open(sqlite3 *db, sqlite3_stmt **ins)
{
	int rc = sqlite3_exec(db,
			      "CREATE TABLE IF NOT EXISTS cgname(path TEXT PRIMARY KEY, container TEXT,"
			      " pod TEXT, ns TEXT) WITHOUT ROWID",
			      NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return rc;
	/* A path named again (appending to a file) keeps its first names. */
	return sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO cgname VALUES (?,?,?,?)", -1, ins,
				  NULL);
}

int recnames_write(sqlite3_stmt *ins, const struct cgnames *t, size_t *written)
{
	size_t i;
	int rc;

	/* Names are only ever added: a count that moved says there are new ones. */
	if (t->n == *written)
		return SQLITE_OK;
	for (i = 0; i < t->cap; i++) {
		const struct cg_name *nm = t->v[i];

		if (!t->keys[i])
			continue;
		sqlite3_bind_text(ins, 1, t->keys[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, nm->container, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, nm->pod, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 4, nm->ns, -1, SQLITE_STATIC);
		rc = sqlite3_step(ins);
		sqlite3_reset(ins);
		sqlite3_clear_bindings(ins);
		if (rc != SQLITE_DONE)
			return rc;
	}
	*written = t->n;
	return SQLITE_OK;
}
