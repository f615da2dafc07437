// SPDX-License-Identifier: GPL-2.0-only
#include "recflight.h"

#include <stddef.h>

int recflight_add(sqlite3 *db, double wall, const char *path, const char *why, uint64_t bytes)
{
	sqlite3_stmt *st;
	int rc = sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS flight(wall REAL NOT NULL,"
			      " path TEXT NOT NULL, why TEXT, bytes INTEGER)", NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_prepare_v2(db, "INSERT INTO flight VALUES (?,?,?,?)", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_double(st, 1, wall);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, why, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)bytes);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
