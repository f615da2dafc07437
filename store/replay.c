// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replayer: a recording's intervals as samples.
 *
 * An interval of the file is the samples the live sources gave model_apply
 * then (store/recsample.h decodes them, remembering what the recorder's
 * encoder remembered); they are given to model_apply again, one by one, so
 * the model ends up as it was. A jump decodes forward from the keyframe
 * before the target, the intervals before it applied but not shown.
 *
 * Everything read from the file is checked before it reaches the model: a
 * damaged or hostile file is an error, never a crash (tests/fuzz/fuzz_replay.c).
 * A recording may come from anyone (sharing one is what -r is for), so SQLite
 * is not let trust it either: its schema runs nothing (no view, trigger or
 * default is evaluated, its tables are checked against ktop's), no value
 * longer than RECFMT_VALUE_MAX is read, and a query that runs too long is
 * stopped: a hostile file ends in bounded time and memory, with one line.
 */
#include "replay.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "recfmt.h"
#include "recsample.h"
#include "../lib/rcstr.h"
#include "../lib/sctable.h"
#include "../lib/strpool.h"
#include "../lib/util.h"

#define PID_LIMIT	(1 << 22)	/* the kernel's PID_MAX_LIMIT */
#define WALL_LIMIT	1e11		/* seconds since 1970: year 5138 */

struct replay {
	char path[256];
	sqlite3 *db;
	sqlite3_stmt *st_next, *st_sctab, *st_sess, *st_sess_le, *st_key, *st_time, *st_last,
		*st_prev, *st_after;
	/* Containers' names (table cgname, store/recnames.h), looked up once per path. */
	sqlite3_stmt *st_names;
	sqlite3_stmt *st_flight;	/* the flight recorder's saves (store/recflight.h) */
	const char **named;		/* paths looked up (interned in mem.pool); open addressing */
	size_t nnamed, cap_named;

	/* What the samples' encoder remembered (store/recsample.h), from the last keyframe on. */
	struct recmem mem;
	bool have_key;			/* mem holds a keyframe's state */
	uint8_t *raw;			/* the interval's samples, inflated */
	size_t len, pos, cap;
	/*
	 * Format 4 on: the deflate stream of the intervals from a keyframe on
	 * (store/record.c deflate_samples); zok: it inflated every one of them
	 * so far, in order.
	 */
	z_stream zs;
	bool zinit, zok;
	/* The syscall tables of the sample filled last (valid until it is applied). */
	struct sctable **sc;
	int64_t *sc_id;			/* each one's id * 2 + (a table of errors) */
	size_t nsc, cap_sc;

	int64_t seq;			/* the last interval read */
	int64_t shown_seq;		/* the last one shown */
	uint64_t mono;
	double wall;
	unsigned iflags;
	bool shown_now;			/* the interval being filled is shown */
	bool first_sample;		/* its next sample is its first */
	/* The readings, rows and exit records its samples gave so far (check_limits). */
	size_t n_tasks, n_rows, n_finals;
	size_t n_table_bytes;		/* and what their rows' tables take, copied */

	struct sample_session sess, first;
	pid_t *pins, *first_pins;
	bool restart;			/* the next sample starts the model over */
	int64_t hide_through;		/* a jump: the intervals up to this one are not shown */
	uint64_t step_limit_ns;		/* the longest a query may run */
	int strings_max_mib, tables_max_mib;	/* check_limits's (replay_opts) */
	size_t tasks_max;
	uint64_t deadline_ns;		/* of the query running now (CLOCK_MONOTONIC) */
	bool timed_out;			/* the progress handler stopped it */
	char why[384];
};

static int fail(struct replay *r, const char *what)
{
	snprintf(r->why, sizeof(r->why), "%.200s: damaged recording: %s", r->path, what);
	return -1;
}

static int db_fail(struct replay *r)
{
	if (r->timed_out) {
		snprintf(r->why, sizeof(r->why),
			 "%.200s: a query ran for more than %.0f s: refused (damaged, or not a ktop recording)",
			 r->path, (double)r->step_limit_ns / 1e9);
		return -1;
	}
	if (r->db && sqlite3_errcode(r->db) == SQLITE_TOOBIG)
		return fail(r, "a value longer than ktop ever writes");
	return fail(r, r->db ? sqlite3_errmsg(r->db) : "out of memory");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* SQLite's progress handler: nonzero stops the query (SQLITE_INTERRUPT). */
static int progress(void *arg)
{
	struct replay *r = arg;

	if (now_ns() <= r->deadline_ns)
		return 0;
	r->timed_out = true;
	return 1;
}

/* sqlite3_step with the time limit of one query. */
static int step(struct replay *r, sqlite3_stmt *st)
{
	r->deadline_ns = now_ns() + r->step_limit_ns;
	r->timed_out = false;
	return sqlite3_step(st);
}

/*
 * A message for the terminal: SQLite's can quote a damaged file's schema,
 * whatever bytes it holds. One line of printable ASCII, the rest '?'.
 */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

static void put_err(const struct replay *r, char *err, size_t n)
{
	snprintf(err, n, "%s", r->why);
	one_line(err);
}

/* Step @st to its one row: 1 a row, 0 none, -1 error. The statement is reset on 0 and -1. */
static int step_row(struct replay *r, sqlite3_stmt *st)
{
	int rc = step(r, st);

	if (rc == SQLITE_ROW)
		return 1;
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(r);
}

static int parse_pins(struct replay *r, const char *s, pid_t **out, size_t *n)
{
	size_t k = 0;

	free(*out);
	*out = NULL;
	*n = 0;
	if (!s || !*s)
		return 0;
	*out = xcalloc(strlen(s) / 2 + 2, sizeof(**out));
	while (*s) {
		long v = 0;

		if (*s < '0' || *s > '9')
			return fail(r, "bad session pids");
		while (*s >= '0' && *s <= '9' && v < PID_LIMIT)
			v = v * 10 + (*s++ - '0');
		if (v <= 0 || v >= PID_LIMIT)
			return fail(r, "bad session pid");
		(*out)[k++] = (pid_t)v;
		if (*s == ',')
			s++;
		else if (*s)
			return fail(r, "bad session pids");
	}
	*n = k;
	return 0;
}

/* The session row of the statement's current row into @ss. */
static int read_session(struct replay *r, sqlite3_stmt *st, struct sample_session *ss,
			pid_t **pins)
{
	const char *ts = (const char *)sqlite3_column_text(st, 5), *es;
	int rc;

	memset(ss, 0, sizeof(*ss));
	ss->hz = (long)sqlite3_column_int64(st, 0);
	ss->page_kb = (long)sqlite3_column_int64(st, 1);
	ss->threads = sqlite3_column_int64(st, 2) != 0;
	ss->event_counters = (uint32_t)sqlite3_column_int64(st, 3) & ((1u << CNT_NR) - 1);
	ss->events_uid = sqlite3_column_int64(st, 4);
	snprintf(ss->trace_status, sizeof(ss->trace_status), "%s", ts ? ts : "");
	rc = parse_pins(r, (const char *)sqlite3_column_text(st, 6), pins, &ss->npins);
	ss->pins = *pins;
	ss->restart = sqlite3_column_int64(st, 7) != 0;
	ss->clear = sqlite3_column_int64(st, 8) != 0;
	ss->exit_records = sqlite3_column_int64(st, 9) != 0;
	es = (const char *)sqlite3_column_text(st, 10);
	snprintf(ss->exits_status, sizeof(ss->exits_status), "%s", es ? es : "");
	if (r->mem.format < RECFMT_DISKS)
		snprintf(ss->disks_status, sizeof(ss->disks_status),
			 "not recorded in this file (format %d; ktop records them from format %d)",
			 r->mem.format, RECFMT_DISKS);
	if (r->mem.format < RECFMT_CONNS)
		snprintf(ss->conns_status, sizeof(ss->conns_status),
			 "not recorded in this file (format %d; ktop records them from format %d)",
			 r->mem.format, RECFMT_CONNS);
	if (ss->hz <= 0 || ss->hz > 100000 || ss->page_kb <= 0 || ss->page_kb > (1 << 20) ||
	    ss->events_uid < -1)
		return fail(r, "bad session");
	return rc;
}

#define SESS_COLS "hz, page_kb, threads, event_counters, events_uid, trace_status, pins, restart," \
	" clear, exit_records, exits_status"

static int prepare(struct replay *r)
{
	const struct {
		sqlite3_stmt **st;
		const char *sql;
	} q[] = {
		{ &r->st_next,
		  "SELECT seq, mono_ns, wall, flags, samples FROM interval WHERE seq > ?"
		  " ORDER BY seq LIMIT 1" },
		{ &r->st_sctab, "SELECT sc FROM sctab WHERE id = ?" },
		{ &r->st_sess, "SELECT " SESS_COLS " FROM session WHERE seq = ?" },
		{ &r->st_sess_le,
		  "SELECT " SESS_COLS ", seq FROM session WHERE seq <= ? ORDER BY seq DESC LIMIT 1" },
		{ &r->st_key,
		  "SELECT seq FROM interval WHERE seq <= ? AND (flags & 1) ORDER BY seq DESC LIMIT 1" },
		{ &r->st_time,
		  "SELECT seq FROM interval WHERE wall >= ? AND NOT (flags & 2) ORDER BY wall, seq LIMIT 1" },
		{ &r->st_last,
		  "SELECT seq, wall FROM interval WHERE NOT (flags & 2) ORDER BY seq DESC LIMIT 1" },
		{ &r->st_prev,
		  "SELECT seq FROM interval WHERE seq < ? AND NOT (flags & 2) ORDER BY seq DESC LIMIT 1" },
		{ &r->st_after,
		  "SELECT seq FROM interval WHERE seq > ? AND NOT (flags & 2) ORDER BY seq LIMIT 1" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(q); i++)
		if (sqlite3_prepare_v2(r->db, q[i].sql, -1, q[i].st, NULL) != SQLITE_OK)
			return -1;
	return 0;
}

static int64_t pragma_int(struct replay *r, const char *sql, int *rc)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	*rc = sqlite3_prepare_v2(r->db, sql, -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return 0;
	*rc = step(r, st);
	if (*rc == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	*rc = *rc == SQLITE_ROW || *rc == SQLITE_DONE ? SQLITE_OK : *rc;
	sqlite3_finalize(st);
	return v;
}

void replay_close(struct replay *r)
{
	size_t i;

	if (!r)
		return;
	sqlite3_finalize(r->st_next);
	sqlite3_finalize(r->st_sctab);
	sqlite3_finalize(r->st_sess);
	sqlite3_finalize(r->st_sess_le);
	sqlite3_finalize(r->st_key);
	sqlite3_finalize(r->st_time);
	sqlite3_finalize(r->st_last);
	sqlite3_finalize(r->st_prev);
	sqlite3_finalize(r->st_after);
	sqlite3_finalize(r->st_names);
	sqlite3_finalize(r->st_flight);
	free(r->named);
	sqlite3_close_v2(r->db);
	for (i = 0; i < r->cap_sc; i++) {
		if (r->sc[i])
			sctable_free(r->sc[i]);
		free(r->sc[i]);
	}
	free(r->sc);
	free(r->sc_id);
	free(r->raw);
	if (r->zinit)
		inflateEnd(&r->zs);
	recmem_free(&r->mem);
	free(r->pins);
	free(r->first_pins);
	free(r);
}

/*
 * The path before SQLite opens it: a FIFO would block its open() for ever, a
 * directory would be a "disk I/O error". *@wal: its header says WAL mode
 * (a recording being written, or one whose writer was killed).
 */
static int check_path(const char *path, bool *wal, char *err, size_t errsz)
{
	unsigned char h[100];
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errsz, "%.200s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		snprintf(err, errsz, "%.200s: not a recording: %s", path,
			 S_ISDIR(sb.st_mode) ? "a directory" : S_ISFIFO(sb.st_mode) ? "a FIFO" :
			 S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device" :
			 S_ISSOCK(sb.st_mode) ? "a socket" : "not a regular file");
		close(fd);
		return -1;
	}
	*wal = read(fd, h, sizeof(h)) == (ssize_t)sizeof(h) && (h[18] == 2 || h[19] == 2);
	close(fd);
	return 0;
}

/* "file:" and @path, %-escaped but for unreserved characters: a name with ? or # stays a name. */
static char *uri_of(const char *path, const char *query)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path), k;
	char *u = xmalloc(3 * n + strlen(query) + 16);
	const unsigned char *p;

	/* An absolute path after an empty authority: "//x" is not a host. */
	k = (size_t)sprintf(u, "file:%s", path[0] == '/' ? "//" : "");
	for (p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/._-~", *p)) {
			u[k++] = (char)*p;
		} else {
			u[k++] = '%';
			u[k++] = hex[*p >> 4];
			u[k++] = hex[*p & 15];
		}
	}
	strcpy(u + k, query);
	return u;
}

/* The tables a replay reads. */
static const char *const read_tables[] = { "interval", "session", "sctab" };

/*
 * Each table a replay reads must be one, made by CREATE TABLE (not a view,
 * not a virtual table), with each of ktop's columns as ktop makes it: the
 * same type and key, stored (not generated), without a default (a default is
 * evaluated when a query is prepared, where no time limit holds). What ktop
 * makes is recfmt_schema, made here in memory. 0, or -1 (r->why).
 */
static int check_schema(struct replay *r)
{
	sqlite3 *ref = NULL;
	sqlite3_stmt *rcols = NULL, *fcol = NULL, *master = NULL;
	size_t i;
	int rc = -1, k;

	if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(ref, recfmt_schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(ref, "SELECT name, upper(type), pk FROM pragma_table_xinfo(?)", -1,
			       &rcols, NULL) != SQLITE_OK) {
		fail(r, ref ? sqlite3_errmsg(ref) : "out of memory");
		goto out;
	}
	if (sqlite3_prepare_v2(r->db, "SELECT type = 'table' AND sql LIKE 'CREATE TABLE %'"
			       " FROM sqlite_master WHERE name = ? COLLATE NOCASE", -1, &master,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "SELECT upper(type) = ?3 AND pk = ?4 AND hidden = 0"
			       " AND dflt_value IS NULL FROM pragma_table_xinfo(?1) WHERE name = ?2",
			       -1, &fcol, NULL) != SQLITE_OK) {
		db_fail(r);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(read_tables); i++) {
		const char *t = read_tables[i];

		sqlite3_bind_text(master, 1, t, -1, SQLITE_STATIC);
		k = step_row(r, master);
		if (k < 0)
			goto out;
		if (k == 0 || !sqlite3_column_int(master, 0)) {
			snprintf(r->why, sizeof(r->why), "%.200s: not a ktop recording: %s %s", r->path, t,
				 k ? "is not a table" : "is missing");
			goto out;
		}
		sqlite3_reset(master);
		sqlite3_bind_text(rcols, 1, t, -1, SQLITE_STATIC);
		while ((k = sqlite3_step(rcols)) == SQLITE_ROW) {
			const char *c = (const char *)sqlite3_column_text(rcols, 0);

			sqlite3_bind_text(fcol, 1, t, -1, SQLITE_STATIC);
			sqlite3_bind_text(fcol, 2, c, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(fcol, 3, (const char *)sqlite3_column_text(rcols, 1), -1,
					  SQLITE_TRANSIENT);
			sqlite3_bind_int64(fcol, 4, sqlite3_column_int64(rcols, 2));
			k = step_row(r, fcol);
			if (k < 0)
				goto out;
			if (k == 0 || !sqlite3_column_int(fcol, 0)) {
				snprintf(r->why, sizeof(r->why),
					 "%.200s: not a ktop recording: %s.%.40s %s", r->path, t, c,
					 k ? "is not ktop's column" : "is missing");
				goto out;
			}
			sqlite3_reset(fcol);
		}
		sqlite3_reset(rcols);
		if (k != SQLITE_DONE) {
			fail(r, sqlite3_errmsg(ref));
			goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(master);
	sqlite3_finalize(fcol);
	sqlite3_finalize(rcols);
	sqlite3_close(ref);
	return rc;
}

/* SQLite on @path, told to trust nothing of it. */
static int open_db(struct replay *r, const char *path, const struct replay_opts *o, bool wal)
{
	char *uri = NULL;
	int rc;

	/* Not being written (rollback-journal mode) and not followed: immutable. */
	if (!wal && !o->follow)
		uri = uri_of(path, "?immutable=1");
	rc = sqlite3_open_v2(uri ? uri : path, &r->db,
			     SQLITE_OPEN_READONLY | (uri ? SQLITE_OPEN_URI : 0), NULL);
	free(uri);
	if (rc != SQLITE_OK)
		return rc;
	/* Before the schema is read: it runs no SQL of the file's, nothing writes it. */
	sqlite3_db_config(r->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(r->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(r->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_db_config(r->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_limit(r->db, SQLITE_LIMIT_LENGTH, RECFMT_VALUE_MAX);
	sqlite3_limit(r->db, SQLITE_LIMIT_ATTACHED, 0);
	sqlite3_progress_handler(r->db, 1000, progress, r);
	return SQLITE_OK;
}

int replay_open(const char *path, const struct replay_opts *o, struct replay **out, char *err,
		size_t errsz)
{
	static const struct replay_opts defaults;
	struct replay *r = xcalloc(1, sizeof(*r));
	int64_t app, ver;
	bool wal = false;
	int rc;

	if (!o)
		o = &defaults;
	snprintf(r->path, sizeof(r->path), "%s", path);
	recmem_init(&r->mem);
	r->restart = true;
	r->step_limit_ns = (uint64_t)((o->step_limit_s > 0 ? o->step_limit_s : REPLAY_STEP_LIMIT_S) * 1e9);
	r->strings_max_mib = o->strings_max_mib > 0 && o->strings_max_mib < REPLAY_STRINGS_MAX_MIB ?
			     o->strings_max_mib : REPLAY_STRINGS_MAX_MIB;
	r->tables_max_mib = o->tables_max_mib > 0 && o->tables_max_mib < REPLAY_TABLES_MAX_MIB ?
			    o->tables_max_mib : REPLAY_TABLES_MAX_MIB;
	r->tasks_max = o->tasks_max && o->tasks_max < RECSAMPLE_COUNT_MAX ? o->tasks_max :
		       RECSAMPLE_COUNT_MAX;
	if (check_path(path, &wal, err, errsz))
		goto fail;
	rc = open_db(r, path, o, wal);
	if (rc != SQLITE_OK) {
		snprintf(err, errsz, "%.200s: cannot open: %s", path,
			 r->db ? sqlite3_errmsg(r->db) : sqlite3_errstr(rc));
		goto fail;
	}
	/* A file another ktop is writing: wait a little for its commit. */
	sqlite3_busy_timeout(r->db, 2000);
	app = pragma_int(r, "PRAGMA application_id", &rc);
	if (rc != SQLITE_OK) {
		if (rc == SQLITE_NOTADB)
			snprintf(err, errsz, "%.200s: not a ktop recording (not a SQLite file)", path);
		else if (r->timed_out && db_fail(r))
			put_err(r, err, errsz);
		else
			snprintf(err, errsz, "%.200s: damaged recording: %s", path, sqlite3_errstr(rc));
		goto fail;
	}
	ver = pragma_int(r, "PRAGMA user_version", &rc);
	if (rc != SQLITE_OK || app != RECFMT_APP_ID || ver < 1) {
		snprintf(err, errsz, "%.200s: not a ktop recording", path);
		goto fail;
	}
	if (ver > RECFMT_VERSION) {
		snprintf(err, errsz, "%.200s: recorded in format %lld, newer than this ktop reads (%d): "
			 "replay it with a newer ktop", path, (long long)ver, RECFMT_VERSION);
		goto fail;
	}
	if (ver < RECFMT_SAMPLES) {
		snprintf(err, errsz, "%.200s: recorded in format %lld by an older ktop (the model's rows,"
			 " not the sources' samples): this ktop replays formats %d to %d", path,
			 (long long)ver, RECFMT_SAMPLES, RECFMT_VERSION);
		goto fail;
	}
	r->mem.format = (int)ver;
	if (check_schema(r)) {
		put_err(r, err, errsz);
		goto fail;
	}
	if (prepare(r)) {
		snprintf(err, errsz, "%.200s: damaged recording: %s", path, sqlite3_errmsg(r->db));
		goto fail;
	}
	/* The first session: the caller sets up its columns from it. */
	rc = step_row(r, r->st_last);
	sqlite3_reset(r->st_last);
	if (rc == 0) {
		snprintf(err, errsz, "%.200s: no interval recorded (yet)", path);
		goto fail;
	}
	if (rc == 1) {
		sqlite3_stmt *st;

		rc = -1;
		if (sqlite3_prepare_v2(r->db, "SELECT " SESS_COLS " FROM session ORDER BY seq LIMIT 1",
				       -1, &st, NULL) != SQLITE_OK) {
			db_fail(r);
		} else {
			rc = step_row(r, st);
			if (rc == 1)
				rc = read_session(r, st, &r->first, &r->first_pins);
			else if (rc == 0)
				rc = fail(r, "no session");
			sqlite3_finalize(st);
		}
	}
	if (rc < 0) {
		put_err(r, err, errsz);
		goto fail;
	}
	*out = r;
	return 0;
fail:
	one_line(err);
	replay_close(r);
	return -1;
}

const struct sample_session *replay_first_session(const struct replay *r)
{
	return &r->first;
}

int64_t replay_seq(const struct replay *r)
{
	return r->shown_seq;
}

/* The session that starts at this interval, or the one in force at it (@in_force). */
static int load_session(struct replay *r, int64_t seq, bool in_force)
{
	sqlite3_stmt *st = in_force ? r->st_sess_le : r->st_sess;
	int rc;

	sqlite3_bind_int64(st, 1, seq);
	rc = step_row(r, st);
	if (rc <= 0)
		return rc < 0 ? -1 : fail(r, "an interval without its session");
	rc = read_session(r, st, &r->sess, &r->pins);
	sqlite3_reset(st);
	return rc;
}

/* Marks @path looked up; false when it was already. */
static bool first_lookup(struct replay *r, const char *path)
{
	size_t i, j;

	if ((r->nnamed + 1) * 2 > r->cap_named) {
		const char **old = r->named;
		size_t oc = r->cap_named;

		r->cap_named = r->cap_named ? r->cap_named * 2 : 64;
		r->named = xcalloc(r->cap_named, sizeof(*r->named));
		for (i = 0; i < oc; i++) {
			if (!old[i])
				continue;
			j = (size_t)((uintptr_t)old[i] >> 4) & (r->cap_named - 1);
			while (r->named[j])
				j = (j + 1) & (r->cap_named - 1);
			r->named[j] = old[i];
		}
		free(old);
	}
	j = (size_t)((uintptr_t)path >> 4) & (r->cap_named - 1);
	while (r->named[j] && r->named[j] != path)
		j = (j + 1) & (r->cap_named - 1);
	if (r->named[j])
		return false;
	r->named[j] = path;
	r->nnamed++;
	return true;
}

/* The recorded names of the cgroups the sample reads first (store/recnames.h). */
static void fill_names(struct replay *r, struct sample *s)
{
	struct cg_named *e;
	const unsigned char *t;
	size_t i;
	int k;

	if (!r->st_names &&
	    sqlite3_prepare_v2(r->db, "SELECT container, pod, ns FROM cgname WHERE path = ?", -1,
			       &r->st_names, NULL) != SQLITE_OK) {
		r->st_names = NULL;	/* no table (yet): tried again next interval */
		return;
	}
	for (i = 0; i < s->ntasks; i++) {
		const char *path = s->tasks[i].cgroup;

		if (!path || !first_lookup(r, path))
			continue;
		sqlite3_bind_text(r->st_names, 1, path, -1, SQLITE_STATIC);
		if (sqlite3_step(r->st_names) == SQLITE_ROW) {
			e = sample_add_named(s);
			e->cgroup = path;
			for (k = 0; k < 3; k++) {
				char *dst = k == 0 ? e->name.container : k == 1 ? e->name.pod : e->name.ns;
				size_t cap = k == 0 ? sizeof(e->name.container) :
					     k == 1 ? sizeof(e->name.pod) : sizeof(e->name.ns);

				t = sqlite3_column_text(r->st_names, k);
				snprintf(dst, cap, "%s", t ? (const char *)t : "");
			}
		}
		sqlite3_reset(r->st_names);
		sqlite3_clear_bindings(r->st_names);
	}
}

/* A row's syscall table by its id in sctab; none when the interval is not shown. */
static const struct sctable *get_table(void *arg, int64_t id, bool err, bool *bad)
{
	struct replay *r = arg;
	struct sctable *t;
	const char *txt;
	int rc;

	if (!r->shown_now)
		return NULL;
	/* Rows of one sample share tables (the same command run again): the last ones first. */
	for (size_t i = r->nsc; i > 0 && i + 64 > r->nsc; i--)
		if (r->sc_id[i - 1] == id * 2 + err)
			return r->sc[i - 1];
	if (r->nsc == r->cap_sc) {
		r->cap_sc = r->cap_sc ? r->cap_sc * 2 : 64;
		r->sc = xrealloc(r->sc, r->cap_sc * sizeof(*r->sc));
		r->sc_id = xrealloc(r->sc_id, r->cap_sc * sizeof(*r->sc_id));
		memset(r->sc + r->nsc, 0, (r->cap_sc - r->nsc) * sizeof(*r->sc));
	}
	if (!r->sc[r->nsc])
		r->sc[r->nsc] = xcalloc(1, sizeof(struct sctable));
	t = r->sc[r->nsc];
	sqlite3_bind_int64(r->st_sctab, 1, id);
	rc = step_row(r, r->st_sctab);
	if (rc <= 0) {
		if (!rc)
			fail(r, "a syscall table that is not there");
		*bad = true;
		return NULL;
	}
	txt = (const char *)sqlite3_column_text(r->st_sctab, 0);
	rc = txt ? (err ? recfmt_err_decode(txt, (size_t)sqlite3_column_bytes(r->st_sctab, 0), t) :
		    recfmt_sc_decode(txt, (size_t)sqlite3_column_bytes(r->st_sctab, 0), t)) : -1;
	sqlite3_reset(r->st_sctab);
	if (rc) {
		fail(r, "a bad syscall table");
		*bad = true;
		return NULL;
	}
	r->sc_id[r->nsc++] = id * 2 + err;
	return t;
}

/*
 * The interval's @zn deflated bytes into r->raw, exactly r->len of them:
 * before format 4 a zlib stream each, from it on the next part of the
 * keyframe's stream. 0, or -1.
 */
static int inflate_samples(struct replay *r, const uint8_t *z, size_t zn)
{
	uLongf n = r->len;
	int rc;

	if (r->mem.format < RECFMT_ZSTREAM)
		return uncompress(r->raw, &n, z, zn) == Z_OK && n == r->len ? 0 : -1;
	if (!r->zinit) {
		if (inflateInit(&r->zs) != Z_OK)
			return -1;
		r->zinit = true;
	} else if (r->iflags & RI_KEYFRAME) {
		inflateReset(&r->zs);
	}
	if (r->iflags & RI_KEYFRAME)
		r->zok = true;
	if (!r->zok)
		return -1;	/* an interval before this one since the keyframe did not inflate */
	r->zok = false;
	r->zs.next_in = (Bytef *)z;
	r->zs.avail_in = (uInt)zn;
	r->zs.next_out = r->raw;
	r->zs.avail_out = (uInt)r->len;
	rc = inflate(&r->zs, Z_SYNC_FLUSH);
	/* All of it and no more: the encoder flushed each interval whole, never ended the stream. */
	if ((rc != Z_OK && !(rc == Z_BUF_ERROR && !r->len)) || r->zs.avail_in || r->zs.avail_out)
		return -1;
	r->zok = true;
	return 0;
}

/* The samples of the interval of @st's row: read, checked, inflated. 0, or -1. */
static int read_interval(struct replay *r, sqlite3_stmt *st)
{
	const uint8_t *z = sqlite3_column_blob(st, 4);
	size_t zn = (size_t)sqlite3_column_bytes(st, 4);
	uLongf n;
	int64_t mono = sqlite3_column_int64(st, 1);

	r->seq = sqlite3_column_int64(st, 0);
	r->mono = (uint64_t)mono;
	r->wall = sqlite3_column_double(st, 2);
	r->iflags = (unsigned)sqlite3_column_int64(st, 3);
	if (mono < 0 || !isfinite(r->wall) || r->wall < 0 || r->wall > WALL_LIMIT ||
	    (r->iflags & ~(unsigned)(RI_KEYFRAME | RI_HIDDEN | RI_SESSION)))
		return fail(r, "a bad interval");
	if (!z || zn < 4)
		return fail(r, "an interval without its samples");
	n = (uLongf)z[0] << 24 | (uLongf)z[1] << 16 | (uLongf)z[2] << 8 | z[3];
	if (n > RECFMT_SAMPLES_MAX)
		return fail(r, "an interval longer than ktop ever writes");
	if (r->cap < n + 1) {
		r->cap = n + 1;
		r->raw = xrealloc(r->raw, r->cap);
	}
	r->len = n;
	if (inflate_samples(r, z + 4, zn - 4))
		return fail(r, "an interval's samples do not inflate");
	r->pos = 0;
	if (r->iflags & RI_KEYFRAME) {
		recmem_reset(&r->mem);
		/* Started here (a jump, the file's start): the model is given what it had before. */
		r->mem.fresh = !r->have_key;
		r->have_key = true;
	} else if (!r->have_key) {
		return fail(r, "an interval without its keyframe");
	} else {
		r->mem.fresh = false;
	}
	return 0;
}

/* The next interval's row, read: 1, 0 when there is none (yet), -1. */
static int next_interval(struct replay *r)
{
	int rc;

	sqlite3_bind_int64(r->st_next, 1, r->seq);
	rc = step_row(r, r->st_next);
	if (rc <= 0)
		return rc;
	rc = read_interval(r, r->st_next);
	sqlite3_reset(r->st_next);
	if (!rc && (r->iflags & RI_SESSION))
		rc = load_session(r, r->seq, false);
	else if (!rc && r->restart)
		rc = load_session(r, r->seq, true);
	if (rc)
		return -1;
	if ((r->iflags & RI_SESSION) && r->sess.restart)
		r->restart = true;
	r->shown_now = !(r->iflags & RI_HIDDEN) && r->seq > r->hide_through;
	r->first_sample = true;
	r->n_tasks = r->n_rows = r->n_finals = r->n_table_bytes = 0;
	return 1;
}

/* The limits of replay.h, in bytes. */
static int over(struct replay *r, size_t bytes, int max_mib, const char *what)
{
	if (bytes <= (size_t)max_mib << 20)
		return 0;
	snprintf(r->why, sizeof(r->why),
		 "%.200s: interval %lld would need %.1f MiB for its %s, over the replay's limit"
		 " of %d MiB", r->path, (long long)r->seq, (double)bytes / (1 << 20), what, max_mib);
	return -1;
}

/*
 * What the sample just decoded makes the replay hold, against the limits
 * (replay.h), before the model has it: the tasks of the interval so far;
 * the strings alive, the model's and the decoder's (every command line is a
 * lib/rcstr.h string, and a replay is the one source of a process); the
 * syscall tables alive (lib/sctable.h), and the copies the model is to make
 * of the rows' tables. 0, or -1 (r->why).
 */
static int check_limits(struct replay *r, const struct sample *s)
{
	const struct {
		size_t *n;
		size_t add;
		const char *what;
	} c[] = {
		{ &r->n_tasks, s->ntasks, "readings of tasks" },
		{ &r->n_rows, s->nrows, "rows of events" },
		{ &r->n_finals, s->nfinals, "exit records" },
	};
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		if (s->rows[i].sc)
			r->n_table_bytes += sctable_mem(s->rows[i].sc);
		if (s->rows[i].err)
			r->n_table_bytes += sctable_mem(s->rows[i].err);
	}
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		*c[i].n += c[i].add;
		if (*c[i].n > r->tasks_max) {
			snprintf(r->why, sizeof(r->why),
				 "%.200s: interval %lld gives %zu %s, over the replay's limit of %zu",
				 r->path, (long long)r->seq, *c[i].n, c[i].what, r->tasks_max);
			return -1;
		}
	}
	if (over(r, rcstr_live_bytes() + strpool_mem(&r->mem.pool), r->strings_max_mib,
		 "tasks' strings"))
		return -1;
	return over(r, sctable_live_bytes() + r->n_table_bytes, r->tables_max_mib,
		    "rows' syscall tables");
}

int replay_next(struct replay *r, struct sample *s, bool *shown, char *err, size_t errsz)
{
	const struct recsample_tables tb = { .arg = r, .get = get_table };
	int rc;

	*shown = false;
	if (r->pos >= r->len) {
		rc = next_interval(r);
		if (rc <= 0) {
			if (rc < 0)
				put_err(r, err, errsz);
			return rc;
		}
	}
	r->nsc = 0;
	rc = recsample_decode(r->raw, r->len, &r->pos, &r->mem, s, &tb);
	if (rc <= 0 || (r->first_sample && !s->begin) || (s->end && r->pos != r->len) ||
	    (!s->end && r->pos >= r->len)) {
		if (!r->why[0] || rc >= 0)
			fail(r, "an interval's samples are not ktop's");
		rc = -1;
	} else {
		rc = check_limits(r, s);
	}
	if (rc < 0) {
		sample_reset(s);
		r->pos = r->len = 0;
		r->have_key = false;
		put_err(r, err, errsz);
		return -1;
	}
	if (r->first_sample && (r->restart || (r->iflags & RI_SESSION))) {
		s->have_session = true;
		s->session = r->sess;
		s->session.restart |= r->restart;
		r->restart = false;
	}
	r->first_sample = false;
	s->mono_ns = r->mono;
	s->wall_s = r->wall;
	fill_names(r, s);
	if (s->end && r->shown_now) {
		*shown = true;
		r->shown_seq = r->seq;
	}
	return 1;
}

bool replay_showing(const struct replay *r)
{
	return r->shown_now;
}

int replay_seek(struct replay *r, int64_t seq, char *err, size_t errsz)
{
	int64_t key, sess_seq;
	int rc;

	r->pos = r->len = 0;
	r->have_key = false;
	r->restart = true;
	r->hide_through = 0;
	r->why[0] = '\0';
	/* The session in force at @seq: where it starts, @seq needs no baseline. */
	sqlite3_bind_int64(r->st_sess_le, 1, seq);
	rc = step_row(r, r->st_sess_le);
	if (rc <= 0) {
		if (!rc)
			fail(r, "an interval without its session");
		goto fail;
	}
	sess_seq = sqlite3_column_int64(r->st_sess_le, 11);
	rc = read_session(r, r->st_sess_le, &r->sess, &r->pins);
	sqlite3_reset(r->st_sess_le);
	if (rc)
		goto fail;
	if (sess_seq == seq && r->sess.restart) {
		r->seq = seq - 1;
		return 0;
	}
	/*
	 * From the keyframe before @seq's interval before, not shown: the
	 * samples decode from there, and the model has the interval before
	 * @seq as it had it when recorded (what @seq says of a task that left,
	 * its last events, its exit record, finds it).
	 */
	r->hide_through = seq - 1;
	sqlite3_bind_int64(r->st_key, 1, seq - 1);
	rc = step_row(r, r->st_key);
	if (rc <= 0) {
		if (!rc)
			fail(r, "no keyframe");
		goto fail;
	}
	key = sqlite3_column_int64(r->st_key, 0);
	sqlite3_reset(r->st_key);
	/* The session in force at the keyframe. */
	if (load_session(r, key, true))
		goto fail;
	r->seq = key - 1;
	return 0;
fail:
	put_err(r, err, errsz);
	return -1;
}

int replay_find_time(struct replay *r, double t, int64_t *seq, char *err, size_t errsz)
{
	int rc;

	/* A time as ktop printed it (%.6f) may be rounded up by half a microsecond. */
	sqlite3_bind_double(r->st_time, 1, t - 5e-7);
	rc = step_row(r, r->st_time);
	if (rc == 1) {
		*seq = sqlite3_column_int64(r->st_time, 0);
		sqlite3_reset(r->st_time);
		return 1;
	}
	if (rc == 0) {
		/* After the last: the last. */
		rc = step_row(r, r->st_last);
		if (rc == 1) {
			*seq = sqlite3_column_int64(r->st_last, 0);
			sqlite3_reset(r->st_last);
		}
	}
	if (rc < 0)
		put_err(r, err, errsz);
	return rc;
}

int replay_step_seq(struct replay *r, int64_t seq, int dir, int64_t *out, char *err,
		    size_t errsz)
{
	sqlite3_stmt *st = dir < 0 ? r->st_prev : r->st_after;
	int rc;

	sqlite3_bind_int64(st, 1, seq);
	rc = step_row(r, st);
	if (rc == 1) {
		*out = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	} else if (rc < 0) {
		put_err(r, err, errsz);
	}
	return rc;
}

int replay_range(struct replay *r, double *first, double *last, char *err, size_t errsz)
{
	sqlite3_stmt *st;
	int rc = -1;

	if (sqlite3_prepare_v2(r->db, "SELECT min(wall), max(wall) FROM interval WHERE NOT (flags & 2)",
			       -1, &st, NULL) != SQLITE_OK) {
		db_fail(r);
	} else {
		rc = step_row(r, st);
		if (rc == 1 && sqlite3_column_type(st, 0) == SQLITE_NULL)
			rc = 0;
		if (rc == 1) {
			*first = sqlite3_column_double(st, 0);
			*last = sqlite3_column_double(st, 1);
		}
		sqlite3_finalize(st);
	}
	if (rc < 0)
		put_err(r, err, errsz);
	return rc;
}

int replay_flight(struct replay *r, double after, double upto, char *out, size_t n)
{
	const unsigned char *path, *why;
	int rc;

	if (!r->st_flight &&
	    sqlite3_prepare_v2(r->db, "SELECT path, why FROM flight WHERE wall > ?1 AND wall <= ?2"
			       " ORDER BY wall LIMIT 1", -1, &r->st_flight, NULL) != SQLITE_OK) {
		r->st_flight = NULL;	/* no save listed (yet): asked again at the next interval */
		return 0;
	}
	sqlite3_bind_double(r->st_flight, 1, after);
	sqlite3_bind_double(r->st_flight, 2, upto);
	rc = step(r, r->st_flight);
	if (rc == SQLITE_ROW) {
		path = sqlite3_column_text(r->st_flight, 0);
		why = sqlite3_column_text(r->st_flight, 1);
		snprintf(out, n, "%.300s (%.300s)", path ? (const char *)path : "?",
			 why ? (const char *)why : "?");
	}
	sqlite3_reset(r->st_flight);
	return rc == SQLITE_ROW;
}
