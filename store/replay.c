// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replayer: a recording's intervals as samples.
 *
 * It keeps every live task's last recorded state (a task row says only what
 * moved) and, for each interval, emits what the live sources emitted then:
 * a reading per task /proc read, the rows of events, the withheld rows, the
 * exits, in the sample's order. A jump reads forward from the keyframe before
 * the target and emits the interval before it as a baseline.
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

#include "recfmt.h"
#include "../lib/strpool.h"
#include "../lib/util.h"

#define PID_LIMIT	(1 << 22)	/* the kernel's PID_MAX_LIMIT */
#define CMDLINE_LIMIT	(1 << 16)	/* more than /proc gives ktop (CMDLINE_MAX) */
#define TEXT_LIMIT	4096
#define WALL_LIMIT	1e11		/* seconds since 1970: year 5138 */

/* A task's recorded state, and what this interval says of it. */
struct ptask {
	int64_t id;
	pid_t pid, tgid;
	uint64_t starttime;
	char state;
	bool csw;
	int64_t v[RF_NR];
	char comm[PROC_COMM_MAX];
	const char *user, *cgroup;	/* interned (r->pool) */
	char *cmdline;
	size_t cmdline_len;
	bool cmd_new;			/* the next reading carries its command line */
	/* This interval: */
	bool row;			/* it has a row: its flags say what it did */
	unsigned flags;
	bool renamed;
	uint64_t ev[RECFMT_NEV];
	bool have_states;		/* states[] known (column states) */
	uint64_t states[RECFMT_NSTATES];
	int sc, err;			/* indices in r->sc, -1 = none */
	uint32_t final_have;		/* its final reading (RT_FINAL) */
	uint64_t final_cnt[CNT_NR];
};

struct replay {
	char path[256];
	sqlite3 *db;
	sqlite3_stmt *st_next, *st_tasks, *st_range, *st_proc, *st_sess, *st_sess_le, *st_key,
		*st_time, *st_last, *st_prev, *st_after;
	struct strpool pool;
	/* Containers' names (table cgname, store/recnames.h), looked up once per path. */
	sqlite3_stmt *st_names;
	const char **named;		/* paths looked up (interned in pool); open addressing */
	size_t nnamed, cap_named;

	struct ptask *live;		/* sorted by id */
	size_t nlive, cap_live;
	struct ptask *evo;		/* this interval's tasks not read (rows, exits) */
	size_t nevo, cap_evo;
	struct sc_table *sc;		/* this interval's per-syscall tables */
	size_t nsc, cap_sc;

	int64_t seq;			/* the last interval read */
	int64_t shown_seq;		/* the last one filled */
	bool have_prev;			/* a previous interval of this session was read */
	uint64_t mono;
	double wall;
	unsigned iflags;
	uint64_t totals[RECFMT_NEV], lost;
	bool lost_unknown;
	uint64_t lost_exits;
	bool lost_exits_unknown;
	char *flows;			/* the interval's signal flows (JSON), NULL = none */
	size_t flows_len;
	struct sys_sample sys;		/* the last interval's, the base of the next difference */

	struct sample_session sess, first;
	pid_t *pins, *first_pins;
	bool restart;			/* the next sample starts the model over */
	bool baseline_pending;		/* a jump: the next fill is the state read (hidden) */
	int64_t hide_through;		/* a jump: the intervals up to this one are not shown */
	uint64_t step_limit_ns;		/* the longest a query may run */
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
	if (ss->hz <= 0 || ss->hz > 100000 || ss->page_kb <= 0 || ss->page_kb > (1 << 20) ||
	    ss->events_uid < -1)
		return fail(r, "bad session");
	return rc;
}

#define SESS_COLS "hz, page_kb, threads, event_counters, events_uid, trace_status, pins, restart," \
	" clear, exit_records, exits_status"

/* @ver: the file's format (1: no states column). */
static int prepare(struct replay *r, int64_t ver)
{
	char tasks[1024], range[1024];
	const struct {
		sqlite3_stmt **st;
		const char *sql;
	} q[] = {
		{ &r->st_next,
		  "SELECT seq, mono_ns, wall, flags, syscalls, syscall_errors, sig_recv, sig_sent,"
		  " vcsw, ivcsw, lost, lost_unknown, sys, sigflows, lost_exits, lost_exits_unknown"
		  " FROM interval WHERE seq > ?"
		  " ORDER BY seq LIMIT 1" },
		{ &r->st_tasks, tasks },
		{ &r->st_range, range },
		{ &r->st_proc,
		  "SELECT pid, tgid, starttime, comm, ppid, uid, user, cmdline,"
		  " (SELECT path FROM cgroup WHERE id = proc.cgroup) FROM proc WHERE id = ?" },
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

	snprintf(tasks, sizeof(tasks), "%s WHERE seq = ? ORDER BY proc",
		 ver < 2 ? recfmt_task_select_v1 : recfmt_task_select);
	/* A jump reads forward through the intervals before: their syscalls are not shown. */
	snprintf(range, sizeof(range), "%s WHERE seq >= ? AND seq <= ? ORDER BY seq, proc",
		 ver < 2 ? recfmt_task_select_nosc_v1 : recfmt_task_select_nosc);
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

static void clear_tasks(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->nlive; i++)
		free(r->live[i].cmdline);
	for (i = 0; i < r->nevo; i++)
		free(r->evo[i].cmdline);
	r->nlive = r->nevo = 0;
}

void replay_close(struct replay *r)
{
	size_t i;

	if (!r)
		return;
	clear_tasks(r);
	sqlite3_finalize(r->st_next);
	sqlite3_finalize(r->st_tasks);
	sqlite3_finalize(r->st_range);
	sqlite3_finalize(r->st_proc);
	sqlite3_finalize(r->st_sess);
	sqlite3_finalize(r->st_sess_le);
	sqlite3_finalize(r->st_key);
	sqlite3_finalize(r->st_time);
	sqlite3_finalize(r->st_last);
	sqlite3_finalize(r->st_prev);
	sqlite3_finalize(r->st_after);
	sqlite3_finalize(r->st_names);
	free(r->named);
	sqlite3_close_v2(r->db);
	for (i = 0; i < r->cap_sc; i++)
		sc_table_free(&r->sc[i]);
	free(r->sc);
	free(r->live);
	free(r->evo);
	free(r->pins);
	free(r->first_pins);
	free(r->flows);
	free(r->sys.stat.cpu);
	strpool_free(&r->pool);
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
static const char *const read_tables[] = { "interval", "proc", "task", "session", "cgroup", "sctab" };

/*
 * Each table a replay reads must be one, made by CREATE TABLE (not a view,
 * not a virtual table), with each of ktop's columns as ktop makes it: the
 * same type and key, stored (not generated), without a default (a default is
 * evaluated when a query is prepared, where no time limit holds). What ktop
 * makes is recfmt_schema, made here in memory. 0, or -1 (r->why).
 */
/* @ver: the file's format (1 has no task.states). */
static int check_schema(struct replay *r, int64_t ver)
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

			if (ver < 2 && c && !strcmp(t, "task") && !strcmp(c, "states"))
				continue;
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
	strpool_init(&r->pool);
	r->sys.stat.cpu = xcalloc(SYS_MAX_CPUS, sizeof(struct cpu_times));
	r->sys.stat.ncpu_max = SYS_MAX_CPUS;
	r->restart = true;
	r->step_limit_ns = (uint64_t)((o->step_limit_s > 0 ? o->step_limit_s : REPLAY_STEP_LIMIT_S) * 1e9);
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
	if (check_schema(r, ver)) {
		put_err(r, err, errsz);
		goto fail;
	}
	if (prepare(r, ver)) {
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

static struct ptask *find_live(struct replay *r, int64_t id)
{
	size_t lo = 0, hi = r->nlive;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (r->live[mid].id == id)
			return &r->live[mid];
		if (r->live[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct ptask *add_task(struct ptask **v, size_t *n, size_t *cap, int64_t id, bool sorted)
{
	size_t at = *n;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	/* Ids grow with births: a new one goes last, but for a jump's reading order. */
	if (sorted)
		while (at > 0 && (*v)[at - 1].id > id)
			at--;
	memmove(*v + at + 1, *v + at, (*n - at) * sizeof(**v));
	(*n)++;
	memset(*v + at, 0, sizeof(**v));
	(*v)[at].id = id;
	(*v)[at].sc = (*v)[at].err = -1;
	return *v + at;
}

static const char *text_col(sqlite3_stmt *st, int col, size_t limit, bool *bad)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	if (s && (size_t)sqlite3_column_bytes(st, col) > limit)
		*bad = true;
	return s;
}

static int set_cmdline(struct replay *r, struct ptask *p, sqlite3_stmt *st, int col)
{
	int type = sqlite3_column_type(st, col), n;
	const void *b;

	if (type == SQLITE_NULL)
		return 0;
	/* Text: the arguments separated by spaces; a blob: the line as read. */
	b = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(st, col) :
				  sqlite3_column_blob(st, col);
	n = sqlite3_column_bytes(st, col);
	if (n < 0 || n >= CMDLINE_LIMIT)
		return fail(r, "command line too long");
	free(p->cmdline);
	p->cmdline = xmalloc((size_t)n + 2);
	if (type == SQLITE_TEXT) {
		recfmt_cmdline_from_text(b, (size_t)n, p->cmdline);
		p->cmdline_len = (size_t)n + 1;
	} else {
		if (n)
			memcpy(p->cmdline, b, (size_t)n);
		p->cmdline_len = (size_t)n;
	}
	p->cmdline[p->cmdline_len] = '\0';
	p->cmd_new = true;
	return 0;
}

/* A task's identity, once per life: its proc row. */
static int load_proc(struct replay *r, struct ptask *p)
{
	sqlite3_stmt *st = r->st_proc;
	const char *s;
	bool bad = false;
	int64_t pid, tgid;
	int rc;

	sqlite3_bind_int64(st, 1, p->id);
	rc = step_row(r, st);
	if (rc <= 0)
		return rc < 0 ? -1 : fail(r, "a task row names no process");
	pid = sqlite3_column_int64(st, 0);
	tgid = sqlite3_column_int64(st, 1);
	if (pid <= 0 || pid >= PID_LIMIT || tgid <= 0 || tgid >= PID_LIMIT) {
		sqlite3_reset(st);
		return fail(r, "bad pid");
	}
	p->pid = (pid_t)pid;
	p->tgid = (pid_t)tgid;
	p->starttime = (uint64_t)sqlite3_column_int64(st, 2);
	s = text_col(st, 3, TEXT_LIMIT, &bad);
	snprintf(p->comm, sizeof(p->comm), "%s", s ? s : "");
	p->v[RF_PPID] = sqlite3_column_int64(st, 4);
	p->v[RF_UID] = sqlite3_column_int64(st, 5);
	s = text_col(st, 6, TEXT_LIMIT, &bad);
	p->user = s ? strpool_get(&r->pool, s) : NULL;
	rc = set_cmdline(r, p, st, 7);
	s = text_col(st, 8, TEXT_LIMIT, &bad);
	p->cgroup = s ? strpool_get(&r->pool, s) : NULL;
	p->state = '?';
	sqlite3_reset(st);
	if (bad)
		return fail(r, "text too long");
	return rc;
}

static struct sc_table *new_sc(struct replay *r)
{
	if (r->nsc == r->cap_sc) {
		size_t old = r->cap_sc;

		r->cap_sc = r->cap_sc ? r->cap_sc * 2 : 64;
		r->sc = xrealloc(r->sc, r->cap_sc * sizeof(*r->sc));
		memset(r->sc + old, 0, (r->cap_sc - old) * sizeof(*r->sc));
	}
	return &r->sc[r->nsc++];
}

/* One task row (the statement's current row) onto the state. */
static int apply_row(struct replay *r, sqlite3_stmt *st)
{
	int64_t id = sqlite3_column_int64(st, 1);
	unsigned flags = (unsigned)sqlite3_column_int64(st, 2) & RT_ALL;
	struct ptask *p = find_live(r, id);
	const char *s;
	bool bad = false;
	int i;

	if (!p) {
		/* Born now (read), or a task only its events told of. */
		if (flags & RT_READ)
			p = add_task(&r->live, &r->nlive, &r->cap_live, id, true);
		else
			p = add_task(&r->evo, &r->nevo, &r->cap_evo, id, false);
		if (load_proc(r, p))
			return -1;
	}
	p->row = true;
	p->flags = flags;
	/* A reading's fields, or an exit record's parent and owner. */
	if (flags & (RT_READ | RT_FINAL)) {
		for (i = 0; i < RF_NR; i++)
			if (sqlite3_column_type(st, RECFMT_COL_FIELDS + i) != SQLITE_NULL)
				p->v[i] = sqlite3_column_int64(st, RECFMT_COL_FIELDS + i);
		if (p->v[RF_UID] < -1)
			return fail(r, "bad uid");
		if ((s = text_col(st, RECFMT_COL_USER, TEXT_LIMIT, &bad)))
			p->user = strpool_get(&r->pool, s);
	}
	if (flags & RT_FINAL) {
		const char *f = (const char *)sqlite3_column_text(st, RECFMT_COL_FINAL);

		if (!f || recfmt_final_decode(f, (size_t)sqlite3_column_bytes(st, RECFMT_COL_FINAL),
					      &p->final_have, p->final_cnt))
			return fail(r, "bad exit record");
	}
	if (flags & RT_READ) {
		s = text_col(st, RECFMT_COL_STATE, 8, &bad);
		if (s)
			p->state = s[0] ? s[0] : '?';
		p->csw = flags & RT_CSW;
		if ((s = text_col(st, RECFMT_COL_CGROUP, TEXT_LIMIT, &bad)))
			p->cgroup = strpool_get(&r->pool, s);
		if (set_cmdline(r, p, st, RECFMT_COL_CMDLINE))
			return -1;
	}
	if ((s = text_col(st, RECFMT_COL_COMM, TEXT_LIMIT, &bad))) {
		p->renamed = strcmp(s, p->comm) != 0;
		snprintf(p->comm, sizeof(p->comm), "%s", s);
	}
	if (bad)
		return fail(r, "text too long");
	if (flags & RT_ROW) {
		int n = sqlite3_column_bytes(st, RECFMT_COL_SC);

		for (i = 0; i < RECFMT_NEV; i++)
			p->ev[i] = (uint64_t)sqlite3_column_int64(st, RECFMT_COL_EV + i);
		p->have_states = sqlite3_column_type(st, RECFMT_COL_STATES) != SQLITE_NULL;
		if (p->have_states &&
		    recfmt_states_decode((const char *)sqlite3_column_text(st, RECFMT_COL_STATES),
					 (size_t)sqlite3_column_bytes(st, RECFMT_COL_STATES), p->states))
			return fail(r, "bad states");
		if (sqlite3_column_type(st, RECFMT_COL_SC) != SQLITE_NULL) {
			const char *sc = (const char *)sqlite3_column_text(st, RECFMT_COL_SC);

			if (!sc || recfmt_sc_decode(sc, (size_t)n, new_sc(r)))
				return fail(r, "bad syscall table");
			p->sc = (int)r->nsc - 1;
		}
		if (sqlite3_column_type(st, RECFMT_COL_ERRS) != SQLITE_NULL) {
			const char *e = (const char *)sqlite3_column_text(st, RECFMT_COL_ERRS);

			n = sqlite3_column_bytes(st, RECFMT_COL_ERRS);
			if (!e || recfmt_err_decode(e, (size_t)n, new_sc(r)))
				return fail(r, "bad table of errors");
			p->err = (int)r->nsc - 1;
		}
	}
	return 0;
}

/* The interval's task rows (the statement at its first row, of seq @seq). Returns the step's rc. */
static int read_rows(struct replay *r, sqlite3_stmt *st, int64_t seq, int rc)
{
	while (rc == 1 && sqlite3_column_int64(st, 0) == seq) {
		if (apply_row(r, st))
			return -1;
		rc = step_row(r, st);
	}
	return rc;
}

/* After an interval: tasks that left go, its flags and events are forgotten. */
static void end_interval(struct replay *r)
{
	size_t i, k = 0;

	for (i = 0; i < r->nlive; i++) {
		struct ptask *p = &r->live[i];

		/* A row without a reading: it was not read, it left. */
		if (p->row && !(p->flags & RT_READ)) {
			free(p->cmdline);
			continue;
		}
		p->row = false;
		p->flags = 0;
		p->renamed = false;
		p->sc = p->err = -1;
		memset(p->ev, 0, sizeof(p->ev));
		p->have_states = false;
		r->live[k++] = *p;
	}
	r->nlive = k;
	for (i = 0; i < r->nevo; i++)
		free(r->evo[i].cmdline);
	r->nevo = 0;
	r->nsc = 0;
}

/* The interval row of @st (at its row) into the replayer's interval state. */
static int read_interval(struct replay *r, sqlite3_stmt *st)
{
	int64_t seq = sqlite3_column_int64(st, 0);
	uint64_t mono = (uint64_t)sqlite3_column_int64(st, 1);
	double wall = sqlite3_column_double(st, 2);
	unsigned flags = (unsigned)sqlite3_column_int64(st, 3);
	const uint8_t *sys = sqlite3_column_blob(st, 12);
	int n = sqlite3_column_bytes(st, 12), c;
	bool key = flags & RI_KEYFRAME;

	if (!isfinite(wall) || wall < 0 || wall > WALL_LIMIT)
		return fail(r, "bad time");
	if (!key && !r->have_prev)
		return fail(r, "an interval without the one before");
	if (r->have_prev && !(flags & RI_SESSION) && mono <= r->mono)
		return fail(r, "time goes back");
	if (recfmt_sys_decode(sys, (size_t)(n > 0 ? n : 0), !key, &r->sys))
		return fail(r, "bad system sample");
	r->seq = seq;
	r->mono = mono;
	r->wall = wall;
	r->iflags = flags;
	for (c = 0; c < RECFMT_NEV; c++)
		r->totals[c] = (uint64_t)sqlite3_column_int64(st, 4 + c);
	r->lost = (uint64_t)sqlite3_column_int64(st, 10);
	r->lost_unknown = sqlite3_column_int64(st, 11) != 0;
	r->lost_exits = (uint64_t)sqlite3_column_int64(st, 14);
	r->lost_exits_unknown = sqlite3_column_int64(st, 15) != 0;
	free(r->flows);
	r->flows = NULL;
	if (sqlite3_column_type(st, 13) != SQLITE_NULL) {
		const unsigned char *f = sqlite3_column_text(st, 13);

		r->flows_len = (size_t)sqlite3_column_bytes(st, 13);
		r->flows = xmalloc(r->flows_len + 1);
		memcpy(r->flows, f ? (const char *)f : "", f ? r->flows_len + 1 : 1);
		if (!f)
			r->flows_len = 0;
	}
	r->have_prev = true;
	return 0;
}

/* The session that starts at this interval, or the one in force at it (@restart). */
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

static void fill_reading(struct replay *r, const struct ptask *p, struct sample *s)
{
	struct task_reading *t = sample_add_task(s);

	t->pid = p->pid;
	t->tgid = p->tgid;
	t->born = p->flags & RT_BORN;
	t->stat.starttime = p->starttime;
	recfmt_reading(p->v, p->state, p->comm, r->sess.page_kb, p->csw, t);
	t->user = p->user;
	t->cgroup = p->cgroup;
	if (p->cmd_new && p->cmdline) {
		t->cmdline = xmalloc(p->cmdline_len + 1);
		memcpy(t->cmdline, p->cmdline, p->cmdline_len + 1);
		t->cmdline_len = p->cmdline_len;
	}
}

static void fill_events(struct replay *r, const struct ptask *p, struct sample *s)
{
	struct row_events *e;
	int c;

	if (p->flags & RT_WITHHELD)
		sample_add_withheld(s, p->pid);
	if (!(p->flags & RT_ROW))
		return;
	e = sample_add_row(s);
	e->id = p->pid;
	e->tgid = p->tgid;
	for (c = 0; c < RECFMT_NEV; c++)
		e->n[recfmt_ev_counter[c]] = p->ev[c];
	e->have_state = p->have_states;
	for (c = 0; p->have_states && c < RECFMT_NSTATES; c++)
		e->n[CNT_ONCPU + c] = p->states[c];
	e->sc = p->sc >= 0 ? &r->sc[p->sc] : NULL;
	e->err = p->err >= 0 ? &r->sc[p->err] : NULL;
	/* Its calls' time: the syscall table's, as the live source sums it. */
	if (e->sc)
		e->n[CNT_SCTIME] = sc_table_time_ns(e->sc);
	/* The events' name: the kernel's 16 bytes at most. */
	memcpy(e->comm, p->comm, sizeof(e->comm) - 1);
	e->renamed = p->renamed;
	e->ppid = (pid_t)p->v[RF_PPID];
	e->exited = p->flags & RT_EXITED;
}

/* Its exit record: what the model took from it, said again. */
static void fill_final(const struct ptask *p, struct sample *s)
{
	struct task_final *f = sample_add_final(s);

	f->id = p->pid;
	f->tgid = p->tgid;
	f->ppid = (pid_t)p->v[RF_PPID];
	f->born = p->flags & RT_BORN;
	f->have = p->final_have;
	memcpy(f->cnt, p->final_cnt, sizeof(f->cnt));
	f->uid = p->v[RF_UID];
	f->user = p->user;
	memcpy(f->comm, p->comm, sizeof(f->comm) - 1);
}

/* The state as the sample of the interval read last. 0, or -1 (its flows are bad). */
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

/* The recorded names of the cgroups first read in this interval (none in older files). */
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
	for (i = 0; i < r->nlive; i++) {
		const char *path = r->live[i].cgroup;

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

static int fill(struct replay *r, struct sample *s)
{
	size_t i;
	int c;

	if (r->restart || (r->iflags & RI_SESSION)) {
		s->have_session = true;
		s->session = r->sess;
		s->session.restart |= r->restart;
	}
	s->begin = s->end = true;
	s->mono_ns = r->mono;
	s->wall_s = r->wall;
	s->have_sys = true;
	s->sys = r->sys;
	s->sys.stat.cpu = s->cpu;
	memcpy(s->cpu, r->sys.stat.cpu, (size_t)r->sys.stat.ncpu * sizeof(*s->cpu));
	for (i = 0; i < r->nlive; i++) {
		if (r->restart)
			r->live[i].cmd_new = true;
		/* Read again, or unchanged (no row): read, as the live source did. */
		if (!r->live[i].row || (r->live[i].flags & RT_READ))
			fill_reading(r, &r->live[i], s);
		r->live[i].cmd_new = false;
	}
	fill_names(r, s);
	for (i = 0; i < r->nlive; i++)
		fill_events(r, &r->live[i], s);
	for (i = 0; i < r->nevo; i++)
		fill_events(r, &r->evo[i], s);
	for (i = 0; i < r->nlive; i++)
		if (r->live[i].flags & RT_EXIT)
			sample_add_exit(s, r->live[i].pid);
	for (i = 0; i < r->nevo; i++)
		if (r->evo[i].flags & RT_EXIT)
			sample_add_exit(s, r->evo[i].pid);
	for (i = 0; i < r->nlive; i++)
		if (r->live[i].flags & RT_FINAL)
			fill_final(&r->live[i], s);
	for (i = 0; i < r->nevo; i++)
		if (r->evo[i].flags & RT_FINAL)
			fill_final(&r->evo[i], s);
	s->have_totals = true;
	for (c = 0; c < RECFMT_NEV; c++)
		s->ev_total[recfmt_ev_counter[c]] = r->totals[c];
	s->lost = r->lost;
	s->lost_unknown = r->lost_unknown;
	s->have_exit_totals = true;
	s->exits_lost = r->lost_exits;
	s->exits_lost_unknown = r->lost_exits_unknown;
	r->restart = false;
	if (r->flows && recfmt_flows_decode(r->flows, r->flows_len, s)) {
		sample_reset(s);
		return fail(r, "bad signal flows");
	}
	return 0;
}

int replay_next(struct replay *r, struct sample *s, bool *shown, char *err, size_t errsz)
{
	int rc;

	if (r->baseline_pending) {
		r->baseline_pending = false;
		if (fill(r, s)) {
			put_err(r, err, errsz);
			return -1;
		}
		*shown = false;
		return 1;
	}
	sqlite3_bind_int64(r->st_next, 1, r->seq);
	rc = step_row(r, r->st_next);
	if (rc <= 0) {
		if (rc < 0)
			put_err(r, err, errsz);
		return rc;
	}
	end_interval(r);
	rc = read_interval(r, r->st_next);
	sqlite3_reset(r->st_next);
	if (!rc && (r->iflags & RI_SESSION))
		rc = load_session(r, r->seq, false);
	else if (!rc && r->restart)
		rc = load_session(r, r->seq, true);
	if (!rc) {
		sqlite3_bind_int64(r->st_tasks, 1, r->seq);
		rc = read_rows(r, r->st_tasks, r->seq, step_row(r, r->st_tasks));
		sqlite3_reset(r->st_tasks);
	}
	if (rc < 0) {
		put_err(r, err, errsz);
		return -1;
	}
	if (r->iflags & RI_SESSION && r->sess.restart)
		r->restart = true;
	if (fill(r, s)) {
		put_err(r, err, errsz);
		return -1;
	}
	*shown = !(r->iflags & RI_HIDDEN) && r->seq > r->hide_through;
	if (*shown)
		r->shown_seq = r->seq;
	return 1;
}

/* Read the intervals from @from up to @to onto the state (a jump), filling nothing. */
static int roll_forward(struct replay *r, int64_t from, int64_t to)
{
	sqlite3_stmt *st = r->st_range;
	int64_t seq = from - 1;
	int rc, trc;

	sqlite3_bind_int64(st, 1, from);
	sqlite3_bind_int64(st, 2, to);
	trc = step_row(r, st);
	for (;;) {
		sqlite3_bind_int64(r->st_next, 1, seq);
		rc = step_row(r, r->st_next);
		if (rc < 0)
			break;
		if (rc == 0 || sqlite3_column_int64(r->st_next, 0) > to) {
			sqlite3_reset(r->st_next);
			rc = seq >= from ? 0 : fail(r, "the keyframe is missing");
			break;
		}
		end_interval(r);
		rc = read_interval(r, r->st_next);
		sqlite3_reset(r->st_next);
		if (rc)
			break;
		seq = r->seq;
		/* Rows of a seq no interval has are skipped, as a sequential replay would. */
		while (trc == 1 && sqlite3_column_int64(st, 0) < seq)
			trc = step_row(r, st);
		trc = read_rows(r, st, seq, trc);
		if (trc < 0) {
			rc = -1;
			break;
		}
	}
	sqlite3_reset(st);
	return rc;
}

int replay_seek(struct replay *r, int64_t seq, char *err, size_t errsz)
{
	int64_t key, sess_seq;
	int rc;

	clear_tasks(r);
	r->nsc = 0;
	r->have_prev = false;
	r->restart = true;
	r->hide_through = 0;
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
	r->baseline_pending = false;
	if (sess_seq == seq && r->sess.restart) {
		r->seq = seq - 1;
		return 0;
	}
	/*
	 * Two intervals before @seq, not shown: the first from the state read
	 * forward from the keyframe before it, the second as recorded. What the
	 * second says of a task that left (its last events, its exit record)
	 * then finds the task the first read, as it did when recorded.
	 */
	r->hide_through = seq - 1;
	if (sess_seq == seq - 1 && r->sess.restart) {
		r->seq = seq - 2;
		return 0;
	}
	sqlite3_bind_int64(r->st_key, 1, seq - 2);
	rc = step_row(r, r->st_key);
	if (rc <= 0) {
		if (!rc)
			fail(r, "no keyframe");
		goto fail;
	}
	key = sqlite3_column_int64(r->st_key, 0);
	sqlite3_reset(r->st_key);
	if (roll_forward(r, key, seq - 2))
		goto fail;
	/* The session in force at the baseline (a change at @seq comes with it). */
	if (load_session(r, r->seq, true))
		goto fail;
	/* The baseline is filled from the state as it is now: not read again. */
	r->iflags &= ~(unsigned)RI_SESSION;
	r->baseline_pending = true;
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
