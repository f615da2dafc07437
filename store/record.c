// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder: after each tick, the model's interval into a SQLite file.
 *
 * It keeps a mirror of what it last wrote of each task, so that an interval
 * stores only what moved (a changed reading, events, a birth, an exit), and
 * says what each tick's samples said of a task (task.applied) the way a
 * replay must say it again (store/replay.c) for the model to end up the
 * same. Keyframes (every keyframe_s, and the first interval of each file)
 * write every live task whole, so a replay can start anywhere.
 */
#include "record.h"
#include "recnames.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../lib/pidmap.h"
#include "recfmt.h"
#include "../lib/scnames.h"
#include "../lib/util.h"
#include "recfile.h"

#define KEYFRAME_S 600.0

/* What the recorder last wrote of a task. */
struct rtask {
	int64_t id;		/* its proc row in the file written now */
	unsigned gen;		/* the file of that row (record.gen) */
	pid_t pid, tgid;
	uint64_t starttime;
	bool live;		/* read last tick: a replay emits its reading */
	bool text_moved;	/* a text differs from its proc row's */
	uint64_t mark;		/* the tick it was last matched to a task */
	uint64_t dead_tick;	/* the tick of its last row without a reading */
	char dead_state;	/* the model's state of it then: 'X', or '?' (only events told) */
	bool was_read;		/* state and v[] are a reading's */
	bool zombie_exited;	/* read 'Z' with its exit applied (model.h) */
	/* Its exit record, as the row of tick fin_tick stored it. */
	uint64_t fin_tick;
	uint32_t fin_have;
	uint64_t fin_cnt[CNT_NR];
	char state;
	bool csw;
	int64_t v[RF_NR];
	char comm[PROC_COMM_MAX];
	char *user, *cgroup;	/* copies; NULL: none */
	char *cmdline;		/* NULL: not read */
	size_t cmdline_len;
};

/* The session's settings as a replay needs them. */
struct rsession {
	long hz, page_kb;
	bool threads;
	uint32_t event_counters;
	int64_t events_uid;
	char trace_status[160];
	char pins[256];
	bool exit_records;
	char exits_status[160];
};

/* Texts stored once per file (a table of id, text): what was stored, by hash. */
struct dedup {
	struct dslot {
		uint64_t hash;
		int64_t id;		/* 0 = free */
		char *s;
		size_t len;
	} *v;
	size_t cap, n;
	int64_t next_id;
	sqlite3_stmt *ins;
};

/* Distinct texts remembered per table; past it, they are forgotten (and may repeat). */
#define DEDUP_MAX 65536

struct record {
	struct record_opts o;
	char path[PATH_MAX];
	sqlite3 *db;
	int lock_fd;
	bool guarded;			/* holds a recfile_guard */
	sqlite3_stmt *st_interval, *st_proc, *st_task, *st_session;
	int64_t seq, next_id;
	unsigned gen;

	struct pidmap map;		/* pid -> struct rtask */
	struct rtask **ents;
	size_t nents, cap;

	/* The interval written last: the baseline of a new file, the base of differences. */
	bool have_prev;
	uint64_t tick, prev_tick;	/* the model's tick written now, and the one before */
	uint64_t prev_mono;
	double prev_wall;
	struct sys_sample prev_sys;
	uint64_t keyframe_mono;

	bool have_session;
	struct rsession sess;

	pid_t *exits;			/* this tick's exits, sorted */
	size_t nexits, cap_exits;
	struct recbuf buf, sc, cmd;
	struct dedup cgroups, tables;
	sqlite3_stmt *st_names;		/* containers' names (recnames.h) */
	size_t names_written;
	struct record_stats st;
	char err[512];
};

/* The file name of @now: the pattern through strftime. */
static int file_name(const char *pattern, double now, char *out, size_t n)
{
	time_t t = (time_t)now;
	struct tm tm;
	size_t len;

	if (!strchr(pattern, '%')) {
		if (strlen(pattern) >= n)
			return -1;
		strcpy(out, pattern);
		return 0;
	}
	localtime_r(&t, &tm);
	/* The user's pattern is the format: that is what -w is for. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	len = strftime(out, n, pattern, &tm);
#pragma GCC diagnostic pop
	return len ? 0 : -1;
}

static int db_error(struct record *r, const char *what)
{
	char *s;

	/* A file refused by the guard says why better than SQLite's "unable to open". */
	if (recfile_refused()[0])
		snprintf(r->err, sizeof(r->err), "%s", recfile_refused());
	else
		snprintf(r->err, sizeof(r->err), "%.300s: %s: %s", r->path, what,
			 r->db ? sqlite3_errmsg(r->db) : "out of memory");
	/* One line of text: SQLite may quote a damaged file's schema. */
	for (s = r->err; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			*s = '?';
	return -1;
}

static int exec(struct record *r, const char *sql)
{
	return sqlite3_exec(r->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : db_error(r, "write");
}

static int64_t query_int(sqlite3 *db, const char *sql, int *rc)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	*rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return 0;
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW) {
		v = sqlite3_column_int64(st, 0);
		*rc = SQLITE_OK;
	} else if (*rc == SQLITE_DONE) {
		*rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return v;
}

static void dedup_clear(struct dedup *d)
{
	size_t i;

	for (i = 0; i < d->cap; i++)
		free(d->v[i].s);
	free(d->v);
	d->v = NULL;
	d->cap = d->n = 0;
}

static uint64_t hash_text(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;	/* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* The id of text @s (@n bytes) in the file, stored now if new. 0 on a write error. */
static int64_t dedup_id(struct record *r, struct dedup *d, const char *s, size_t n)
{
	uint64_t h = hash_text(s, n);
	size_t i;

	if (d->n + 1 > d->cap * 3 / 4) {
		struct dslot *old = d->v;
		size_t oldcap = d->cap, k;

		if (d->n >= DEDUP_MAX) {
			dedup_clear(d);
			oldcap = 0;
			old = NULL;
		}
		d->cap = d->cap ? d->cap * 2 : 256;
		d->v = xcalloc(d->cap, sizeof(*d->v));
		for (k = 0; k < oldcap; k++) {
			if (!old[k].id)
				continue;
			for (i = old[k].hash & (d->cap - 1); d->v[i].id; i = (i + 1) & (d->cap - 1))
				;
			d->v[i] = old[k];
		}
		free(old);
	}
	for (i = h & (d->cap - 1); d->v[i].id; i = (i + 1) & (d->cap - 1))
		if (d->v[i].hash == h && d->v[i].len == n && !memcmp(d->v[i].s, s, n))
			return d->v[i].id;
	sqlite3_bind_int64(d->ins, 1, d->next_id);
	sqlite3_bind_text(d->ins, 2, s, (int)n, SQLITE_STATIC);
	i = (size_t)sqlite3_step(d->ins);
	sqlite3_reset(d->ins);
	sqlite3_clear_bindings(d->ins);
	if (i != SQLITE_DONE)
		return db_error(r, "write"), 0;
	for (i = h & (d->cap - 1); d->v[i].id; i = (i + 1) & (d->cap - 1))
		;
	d->v[i] = (struct dslot){ .hash = h, .id = d->next_id, .s = xmalloc(n + 1), .len = n };
	memcpy(d->v[i].s, s, n);
	d->n++;
	return d->next_id++;
}

/* The names a query wants (syscall_name, errno_name): the recording host's. */
static int write_names(struct record *r)
{
	/* Each ABI's numbers, keyed as the tables are (sc_key), named with the ABI. */
	static const struct {
		const char *const *names;
		const unsigned *count;
		bool compat;
		uint32_t bit;
	} abis[] = {
		{ syscall_names, &syscall_names_count, false, 0 },
		{ syscall_names_x32, &syscall_names_x32_count, false, 1u << SC_KEY_ABI_SHIFT },
		{ syscall_names_compat, &syscall_names_compat_count, true, 0 },
	};
	sqlite3_stmt *st;
	char name[SYSCALL_LABEL_BUF];
	unsigned nr;
	size_t a;
	int rc = sqlite3_prepare_v2(r->db, "INSERT INTO syscall_name VALUES (?,?,?)", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return db_error(r, "write");
	for (a = 0; a < ARRAY_SIZE(abis); a++)
		for (nr = 0; nr < *abis[a].count && rc == SQLITE_OK; nr++) {
			uint32_t key = sc_key((long)(nr | abis[a].bit), abis[a].compat);

			if (!abis[a].names[nr])
				continue;
			sqlite3_bind_int64(st, 1, key);
			sqlite3_bind_text(st, 2, syscall_label(key, name, sizeof(name)), -1,
					  SQLITE_TRANSIENT);
			sqlite3_bind_text(st, 3, subsystem_name(syscall_subsystem(key)), -1,
					  SQLITE_STATIC);
			rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
			sqlite3_reset(st);
		}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(r->db, "INSERT INTO errno_name VALUES (?,?)", -1, &st, NULL);
	else
		return db_error(r, "write");
	for (nr = 1; nr < 134 && rc == SQLITE_OK; nr++) {
		char en[ERRNO_NAME_BUF];

		sqlite3_bind_int64(st, 1, nr);
		sqlite3_bind_text(st, 2, errno_name((int)nr, en, sizeof(en)), -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : db_error(r, "write");
}

static int create_schema(struct record *r)
{
	char sql[128];

	if (exec(r, "PRAGMA page_size=4096") || exec(r, "BEGIN") || exec(r, recfmt_schema))
		return -1;
	snprintf(sql, sizeof(sql), "PRAGMA application_id=%d", RECFMT_APP_ID);
	if (exec(r, sql))
		return -1;
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", RECFMT_VERSION);
	if (exec(r, sql) || write_names(r))
		return -1;
	snprintf(sql, sizeof(sql), "INSERT INTO meta VALUES ('format', %d), ('created', %.6f)",
		 RECFMT_VERSION, (double)time(NULL));
	if (exec(r, sql) || exec(r, "COMMIT"))
		return -1;
	return 0;
}

/* An existing file: ktop's, of this format, or refused. */
static int check_file(struct record *r, bool *empty)
{
	int rc;
	int64_t app = query_int(r->db, "PRAGMA application_id", &rc), ver, tables;

	if (rc != SQLITE_OK) {
		if (recfile_refused()[0])
			return db_error(r, "read");
		snprintf(r->err, sizeof(r->err), "%.300s: not a ktop recording (%s): not written to",
			 r->path, sqlite3_errstr(rc));
		return -1;
	}
	ver = query_int(r->db, "PRAGMA user_version", &rc);
	tables = query_int(r->db, "SELECT count(*) FROM sqlite_master", &rc);
	if (rc != SQLITE_OK)
		return db_error(r, "read");
	*empty = !app && !ver && !tables;
	if (*empty)
		return 0;
	if (app != RECFMT_APP_ID) {
		snprintf(r->err, sizeof(r->err), "%.300s: not a ktop recording: not written to", r->path);
		return -1;
	}
	if (ver != RECFMT_VERSION) {
		snprintf(r->err, sizeof(r->err),
			 "%.300s: a recording of format %lld, this ktop writes format %d: not written to",
			 r->path, (long long)ver, RECFMT_VERSION);
		return -1;
	}
	return 0;
}

static void close_file(struct record *r)
{
	sqlite3_finalize(r->st_interval);
	sqlite3_finalize(r->st_proc);
	sqlite3_finalize(r->st_task);
	sqlite3_finalize(r->st_session);
	sqlite3_finalize(r->st_names);
	r->st_names = NULL;
	sqlite3_finalize(r->cgroups.ins);
	sqlite3_finalize(r->tables.ins);
	r->st_interval = r->st_proc = r->st_task = r->st_session = NULL;
	r->cgroups.ins = r->tables.ins = NULL;
	/* Ids are the file's: a new file stores its texts again. */
	dedup_clear(&r->cgroups);
	dedup_clear(&r->tables);
	if (r->db) {
		/*
		 * Back to a rollback journal: the file alone is the recording, and
		 * a reader without write access to its directory can open it. Not
		 * possible while a replay reads it: then it stays in WAL mode.
		 */
		sqlite3_exec(r->db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);
		sqlite3_close_v2(r->db);
		r->db = NULL;
	}
	if (r->guarded)
		recfile_guard(false, NULL, 0);
	r->guarded = false;
	/* Last: closing a descriptor of the file drops the process's locks on it. */
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	r->lock_fd = -1;
}

/* Open (creating) @path for appending intervals. */
static int open_file(struct record *r, const char *path)
{
	bool empty = false;
	int rc;

	snprintf(r->path, sizeof(r->path), "%s", path);
	recfile_clear_refused();
	/*
	 * Command lines can hold secrets: the file and its companions are
	 * ktop's user's own (made new with mode 0600, or checked), in a
	 * directory where nobody else can swap them (store/recfile.h).
	 */
	if (recfile_check_dir(path, r->err, sizeof(r->err)) ||
	    recfile_check_sides(path, r->err, sizeof(r->err)))
		return -1;
	r->lock_fd = recfile_open(path, r->err, sizeof(r->err));
	if (r->lock_fd < 0)
		return -1;
	if (flock(r->lock_fd, LOCK_EX | LOCK_NB)) {
		snprintf(r->err, sizeof(r->err), "%.300s: another ktop records to it", path);
		close_file(r);
		return -1;
	}
	if (recfile_guard(true, r->err, sizeof(r->err))) {
		close_file(r);
		return -1;
	}
	r->guarded = true;
	rc = sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, "unix");
	if (rc != SQLITE_OK || check_file(r, &empty)) {
		if (rc != SQLITE_OK)
			db_error(r, "open");
		close_file(r);
		return -1;
	}
	sqlite3_busy_timeout(r->db, 2000);
	/*
	 * WAL: a reader sees whole intervals while this one writes, and a kill
	 * loses only the transaction being written. NORMAL: no fsync per
	 * interval; the file stays consistent on a crash of the machine too.
	 */
	if (exec(r, "PRAGMA journal_mode=WAL") || exec(r, "PRAGMA synchronous=NORMAL") ||
	    (empty && create_schema(r)))
		goto fail;
	r->seq = query_int(r->db, "SELECT ifnull(max(seq), 0) FROM interval", &rc) + 1;
	if (rc == SQLITE_OK)
		r->next_id = query_int(r->db, "SELECT ifnull(max(id), 0) FROM proc", &rc) + 1;
	if (rc == SQLITE_OK)
		r->cgroups.next_id = query_int(r->db, "SELECT ifnull(max(id), 0) FROM cgroup", &rc) + 1;
	if (rc == SQLITE_OK)
		r->tables.next_id = query_int(r->db, "SELECT ifnull(max(id), 0) FROM sctab", &rc) + 1;
	if (rc != SQLITE_OK) {
		db_error(r, "read");
		goto fail;
	}
	if (sqlite3_prepare_v2(r->db, "INSERT INTO interval VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1,
			       &r->st_interval, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO proc VALUES (?,?,?,?,?,?,?,?,?,?,?)", -1,
			       &r->st_proc, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, recfmt_task_insert, -1, &r->st_task, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1,
			       &r->st_session, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO cgroup VALUES (?,?)", -1, &r->cgroups.ins,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO sctab VALUES (?,?)", -1, &r->tables.ins,
			       NULL) != SQLITE_OK) {
		db_error(r, "prepare");
		goto fail;
	}
	r->names_written = 0;
	if (recnames_open(r->db, &r->st_names) != SQLITE_OK) {
		db_error(r, "prepare");
		goto fail;
	}
	r->gen++;
	r->st.files++;
	r->have_session = false;
	return 0;
fail:
	close_file(r);
	return -1;
}

/*
 * The pattern as a glob: each conversion any text, the rest literal. Returns
 * false when it has no conversion (one file: nothing else is its).
 */
static bool pattern_glob(const char *pattern, char *out, size_t n)
{
	size_t k = 0;
	bool conv = false;
	const char *p;

	for (p = pattern; *p && k + 3 < n; p++) {
		if (*p == '%' && p[1]) {
			p++;
			if (*p == '%') {
				out[k++] = '%';
				continue;
			}
			while ((*p == 'E' || *p == 'O') && p[1])
				p++;
			if (k && out[k - 1] == '*')
				continue;
			out[k++] = '*';
			conv = true;
			continue;
		}
		if (strchr("*?[\\", *p))
			out[k++] = '\\';
		out[k++] = *p;
	}
	out[k] = '\0';
	return conv && !*p;
}

/*
 * Is @path a recording of ktop's user (regular, theirs, starting like a ktop
 * recording: SQLite, application id "ktop")? @sb gets its status.
 */
static bool own_recording(const char *path, struct stat *sb)
{
	unsigned char h[100];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	bool ok;

	if (fd < 0)
		return false;
	ok = !fstat(fd, sb) && recfile_owned(sb) &&
	     read(fd, h, sizeof(h)) == (ssize_t)sizeof(h) && !memcmp(h, "SQLite format 3", 16) &&
	     ((uint32_t)h[68] << 24 | (uint32_t)h[69] << 16 | (uint32_t)h[70] << 8 | h[71]) ==
		     RECFMT_APP_ID;
	close(fd);
	return ok;
}

/* A recording of the pattern other than the one being written. */
struct oldfile {
	const char *path;
	double mtime;
	uint64_t bytes;		/* with its -wal */
};

static int cmp_mtime(const void *a, const void *b)
{
	const struct oldfile *x = a, *y = b;

	return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

/*
 * What @path takes on the disk: its allocated blocks, not its size (a sparse
 * file of a terabyte holds nothing), and only a file of ktop's user: one of
 * anyone else's is neither counted nor removed.
 */
static uint64_t disk_bytes(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) || !recfile_owned(&sb) ? 0 : (uint64_t)sb.st_blocks * 512;
}

static void remove_recording(const char *f)
{
	char side[PATH_MAX + 8];
	struct stat sb;
	const char *const ext[] = { "-wal", "-shm" };
	size_t i;

	if (unlink(f))
		return;
	for (i = 0; i < ARRAY_SIZE(ext); i++) {
		snprintf(side, sizeof(side), "%s%s", f, ext[i]);
		if (!lstat(side, &sb) && recfile_owned(&sb))
			unlink(side);
	}
}

/*
 * --record-keep, --record-max-size: the pattern's other recordings older
 * than keep_days go; then, oldest first, as many as make the pattern's files
 * (the one being written included) take more than max_bytes on the disk.
 * Only ktop's user's own regular files that are ktop recordings, never the
 * one being written.
 */
static void remove_old(struct record *r, double now)
{
	char pat[PATH_MAX], side[PATH_MAX + 8];
	struct oldfile *v;
	uint64_t total;
	size_t i, n = 0;
	glob_t g;

	if ((r->o.keep_days <= 0 && !r->o.max_bytes) || !pattern_glob(r->o.pattern, pat, sizeof(pat)))
		return;
	if (glob(pat, GLOB_NOSORT, NULL, &g))
		return;
	v = xmalloc((g.gl_pathc ? g.gl_pathc : 1) * sizeof(*v));
	snprintf(side, sizeof(side), "%s-wal", r->path);
	total = disk_bytes(r->path) + disk_bytes(side);
	for (i = 0; i < g.gl_pathc; i++) {
		const char *f = g.gl_pathv[i];
		struct stat sb;

		if (!strcmp(f, r->path) || !own_recording(f, &sb))
			continue;
		if (r->o.keep_days > 0 && (double)sb.st_mtime <= now - r->o.keep_days * 86400) {
			remove_recording(f);
			continue;
		}
		snprintf(side, sizeof(side), "%s-wal", f);
		v[n++] = (struct oldfile){ f, (double)sb.st_mtime,
					   (uint64_t)sb.st_blocks * 512 + disk_bytes(side) };
		total += v[n - 1].bytes;
	}
	if (r->o.max_bytes) {
		sort_array(v, n, sizeof(*v), cmp_mtime);
		for (i = 0; i < n && total > r->o.max_bytes; i++) {
			remove_recording(v[i].path);
			total -= v[i].bytes;
		}
	}
	free(v);
	globfree(&g);
}

int record_open(const struct record_opts *o, double now, struct record **out, char *err,
		size_t errsz)
{
	struct record *r = xcalloc(1, sizeof(*r));
	char path[PATH_MAX];

	r->o = *o;
	if (r->o.keyframe_s <= 0)
		r->o.keyframe_s = KEYFRAME_S;
	r->lock_fd = -1;
	pidmap_init(&r->map);
	r->prev_sys.stat.cpu = xcalloc(SYS_MAX_CPUS, sizeof(struct cpu_times));
	r->prev_sys.stat.ncpu_max = SYS_MAX_CPUS;
	if (file_name(o->pattern, now, path, sizeof(path))) {
		snprintf(err, errsz, "-w %.200s: the file name is empty or too long", o->pattern);
		record_close(r);
		return -1;
	}
	if (open_file(r, path)) {
		snprintf(err, errsz, "%s", r->err);
		record_close(r);
		return -1;
	}
	remove_old(r, now);
	*out = r;
	return 0;
}

const char *record_path(const struct record *r)
{
	return r->path;
}

void record_get_stats(const struct record *r, struct record_stats *st)
{
	*st = r->st;
}

static void rtask_free(struct rtask *e)
{
	free(e->user);
	free(e->cgroup);
	free(e->cmdline);
	free(e);
}

void record_close(struct record *r)
{
	size_t i;

	if (!r)
		return;
	close_file(r);
	for (i = 0; i < r->nents; i++)
		rtask_free(r->ents[i]);
	free(r->ents);
	pidmap_free(&r->map);
	free(r->prev_sys.stat.cpu);
	free(r->exits);
	recbuf_free(&r->buf);
	recbuf_free(&r->sc);
	recbuf_free(&r->cmd);
	free(r);
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void str_set(char **dst, const char *s)
{
	if (str_eq(*dst, s))
		return;
	free(*dst);
	*dst = s ? xstrdup(s) : NULL;
}

static void bind_text(sqlite3_stmt *st, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, col);
}

static void bind_cmdline(struct record *r, sqlite3_stmt *st, int col, const char *s,
			 size_t len)
{
	if (!s) {
		sqlite3_bind_null(st, col);
		return;
	}
	if (r->cmd.cap < len + 1) {
		r->cmd.cap = len + 64;
		r->cmd.p = xrealloc(r->cmd.p, r->cmd.cap);
	}
	/* Text when it says the line exactly; an empty one (a kernel thread's) is a blob. */
	if (recfmt_cmdline_text(s, len, (char *)r->cmd.p))
		sqlite3_bind_text(st, col, (const char *)r->cmd.p, (int)len - 1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_blob(st, col, len ? s : "", (int)len, SQLITE_TRANSIENT);
}

/* A cgroup path, by its id in the file. */
static int bind_cgroup(struct record *r, sqlite3_stmt *st, int col, const char *path)
{
	int64_t id;

	if (!path) {
		sqlite3_bind_null(st, col);
		return 0;
	}
	id = dedup_id(r, &r->cgroups, path, strlen(path));
	if (!id)
		return -1;
	sqlite3_bind_int64(st, col, id);
	return 0;
}

static int step(struct record *r, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : db_error(r, "write");
}

/* Its identity in the file written now, once per life (and once per file). */
static int put_proc(struct record *r, struct rtask *e)
{
	sqlite3_stmt *st = r->st_proc;

	if (e->gen == r->gen)
		return 0;
	e->id = r->next_id++;
	e->gen = r->gen;
	e->text_moved = false;
	sqlite3_bind_int64(st, 1, e->id);
	sqlite3_bind_int64(st, 2, r->seq);
	sqlite3_bind_int64(st, 3, e->pid);
	sqlite3_bind_int64(st, 4, e->tgid);
	sqlite3_bind_int64(st, 5, (int64_t)e->starttime);
	bind_text(st, 6, e->comm);
	sqlite3_bind_int64(st, 7, e->v[RF_PPID]);
	sqlite3_bind_int64(st, 8, e->v[RF_UID]);
	bind_text(st, 9, e->user);
	bind_cmdline(r, st, 10, e->cmdline, e->cmdline_len);
	if (bind_cgroup(r, st, 11, e->cgroup))
		return -1;
	r->st.proc_rows++;
	return step(r, st);
}

static struct rtask *rtask_new(struct record *r, const struct task *t)
{
	struct rtask *e = xcalloc(1, sizeof(*e));

	e->pid = t->pid;
	e->tgid = t->tgid;
	e->starttime = t->starttime;
	if (r->nents == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->ents = xrealloc(r->ents, r->cap * sizeof(*r->ents));
	}
	r->ents[r->nents++] = e;
	pidmap_put(&r->map, e->pid, e);
	return e;
}

/* A task row. @t NULL: flags only (it left). @full: every field, as a keyframe has. */
struct row {
	unsigned flags;
	bool full;
	bool state, fields[RF_NR], user, comm, cmdline, cgroup;
};

static int put_task(struct record *r, struct rtask *e, const struct row *w, const struct task *t)
{
	sqlite3_stmt *st = r->st_task;
	int i, c;

	if (put_proc(r, e))
		return -1;
	sqlite3_bind_int64(st, 1, r->seq);
	sqlite3_bind_int64(st, 2, e->id);
	sqlite3_bind_int64(st, 3, w->flags);
	if (w->state || w->full) {
		char s[2] = { e->state, 0 };

		sqlite3_bind_text(st, RECFMT_COL_STATE + 1, s, 1, SQLITE_TRANSIENT);
	}
	/* A full row has the switches as last read too: the next reading may equal them. */
	for (i = 0; i < RF_NR; i++)
		if (w->fields[i] || w->full)
			sqlite3_bind_int64(st, RECFMT_COL_FIELDS + 1 + i, e->v[i]);
	/* Texts: a full row repeats only those that moved since its proc row. */
	if (w->user || (w->full && e->text_moved))
		bind_text(st, RECFMT_COL_USER + 1, e->user);
	if (w->comm || (w->full && e->text_moved))
		bind_text(st, RECFMT_COL_COMM + 1, e->comm);
	if (w->cmdline || (w->full && e->text_moved))
		bind_cmdline(r, st, RECFMT_COL_CMDLINE + 1, e->cmdline, e->cmdline_len);
	if ((w->cgroup || (w->full && e->text_moved)) && bind_cgroup(r, st, RECFMT_COL_CGROUP + 1, e->cgroup))
		return -1;
	if (t && (w->flags & RT_ROW)) {
		for (c = 0; c < RECFMT_NEV; c++)
			sqlite3_bind_int64(st, RECFMT_COL_EV + 1 + c, (int64_t)t->ev[recfmt_ev_counter[c]]);
		if (t->sc.used) {
			int64_t id;

			r->sc.len = 0;
			recfmt_sc_encode(&r->sc, &t->sc);
			id = dedup_id(r, &r->tables, (const char *)r->sc.p, r->sc.len);
			if (!id)
				return -1;
			sqlite3_bind_int64(st, RECFMT_COL_SC + 1, id);
		}
		if (t->err.used) {
			int64_t id;

			r->sc.len = 0;
			recfmt_err_encode(&r->sc, &t->err);
			id = dedup_id(r, &r->tables, (const char *)r->sc.p, r->sc.len);
			if (!id)
				return -1;
			sqlite3_bind_int64(st, RECFMT_COL_ERRS + 1, id);
		}
	}
	if (t && (w->flags & RT_ROW) && t->st_known) {
		char buf[128];

		recfmt_states_encode(buf, sizeof(buf), &t->ev[CNT_ONCPU]);
		sqlite3_bind_text(st, RECFMT_COL_STATES + 1, buf, -1, SQLITE_TRANSIENT);
	}
	if (t && (w->flags & RT_FINAL)) {
		/* Kept: a new file's baseline says it again (put_baseline). */
		e->fin_tick = r->tick;
		e->fin_have = t->final ? t->have : 0;
		memcpy(e->fin_cnt, t->cnt, sizeof(e->fin_cnt));
	}
	if (w->flags & RT_FINAL) {
		r->sc.len = 0;
		/* One with no counters (t->final unset) changed only its name, owner, state. */
		recfmt_final_encode(&r->sc, e->fin_have, e->fin_cnt);
		sqlite3_bind_text(st, RECFMT_COL_FINAL + 1, (const char *)r->sc.p, (int)r->sc.len,
				  SQLITE_STATIC);
	}
	r->st.task_rows++;
	return step(r, st);
}

static bool exited_now(const struct record *r, pid_t pid)
{
	size_t lo = 0, hi = r->nexits;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (r->exits[mid] == pid)
			return true;
		if (r->exits[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Did the row carry anything the model used (events, a table)? */
static bool row_has_data(const struct task *t)
{
	int c;

	if (t->sc.used || t->err.used || t->st_known)
		return true;
	for (c = 0; c < RECFMT_NEV; c++)
		if (t->ev[recfmt_ev_counter[c]])
			return true;
	return false;
}

/* A task /proc read this tick: what moved since the mirror, or all of it. */
static int put_read(struct record *r, struct rtask *e, const struct task *t, bool keyframe)
{
	struct row w = { .flags = RT_READ };
	int64_t v[RF_NR];
	bool csw = t->have & (1u << CNT_VCSW), moved = false;
	int i;

	recfmt_task_fields(t, v);
	w.full = keyframe || !e->live;
	if (csw)
		w.flags |= RT_CSW;
	if (t->have_prev == ~0u)
		w.flags |= RT_BORN;
	if (t->ev_withheld)
		w.flags |= RT_WITHHELD;
	if ((t->applied & APPLIED_ROW) && !t->ev_withheld && row_has_data(t))
		w.flags |= RT_ROW;
	if (t->applied & APPLIED_EXIT || exited_now(r, t->pid))
		w.flags |= RT_EXIT;
	if (t->applied & APPLIED_FINAL)
		w.flags |= RT_FINAL;
	w.state = t->state != e->state;
	for (i = 0; i < RF_NR; i++) {
		/* Switches read from status: only when read, else they are as before. */
		if ((i == RF_VCSW || i == RF_IVCSW) && !csw)
			continue;
		w.fields[i] = v[i] != e->v[i];
		moved |= w.fields[i];
		e->v[i] = v[i];
	}
	e->state = t->state;
	w.comm = strcmp(t->comm, e->comm) != 0;
	w.user = !str_eq(t->user, e->user);
	w.cgroup = !str_eq(t->cgroup, e->cgroup);
	w.cmdline = t->cmdline && (!e->cmdline || e->cmdline_len != t->cmdline_len ||
				   memcmp(e->cmdline, t->cmdline, t->cmdline_len));
	if (w.comm)
		memcpy(e->comm, t->comm, sizeof(e->comm));
	if (w.user)
		str_set(&e->user, t->user);
	if (w.cgroup)
		str_set(&e->cgroup, t->cgroup);
	if (w.cmdline) {
		free(e->cmdline);
		e->cmdline = xmalloc(t->cmdline_len + 1);
		memcpy(e->cmdline, t->cmdline, t->cmdline_len);
		e->cmdline_len = t->cmdline_len;
	}
	moved |= w.state || w.comm || w.user || w.cgroup || w.cmdline || csw != e->csw;
	if ((w.comm || w.user || w.cgroup || w.cmdline) && e->gen == r->gen)
		e->text_moved = true;
	e->csw = csw;
	e->live = true;
	e->was_read = true;
	e->zombie_exited = t->zombie_exited;
	if (!moved && !w.full && !(w.flags & ~(RT_READ | RT_CSW)))
		return 0;
	return put_task(r, e, &w, t);
}

/*
 * A task the events told of, not /proc this tick: one born and gone between
 * two reads (new to the mirror), or one /proc read before (it left, these
 * were its last events). The model made its row from the event's name.
 */
static int put_event_only(struct record *r, struct rtask *e, const struct task *t, bool keyframe)
{
	struct row w = { .flags = RT_ROW };

	if (t->exited)
		w.flags |= RT_EXITED;
	if (t->ev_withheld)
		w.flags |= RT_WITHHELD;
	if (t->applied & APPLIED_EXIT || exited_now(r, t->pid))
		w.flags |= RT_EXIT;
	if (!(t->applied & APPLIED_ROW))
		w.flags &= ~(unsigned)RT_ROW;
	if (e->live)
		w.flags |= RT_GONE;
	e->live = false;
	/* What the model made of it ('X', or '?' when only events told of it): a new file's baseline. */
	e->dead_tick = r->tick;
	e->dead_state = t->state;
	/*
	 * Its exit record: its counters (column final), and the name, parent
	 * and owner the model has with it.
	 */
	if (t->applied & APPLIED_FINAL) {
		w.flags |= RT_FINAL;
		if (t->have_prev == ~0u)
			w.flags |= RT_BORN;
		/* Each only when not what the proc row (or a row since) says: most are. */
		w.fields[RF_UID] = e->v[RF_UID] != t->uid;
		w.fields[RF_PPID] = e->v[RF_PPID] != t->ppid;
		w.user = !str_eq(t->user, e->user);
		e->v[RF_UID] = t->uid;
		e->v[RF_PPID] = t->ppid;
		if (w.user)
			str_set(&e->user, t->user);
	}
	/* Its last name, by the exec event after /proc last read it. */
	if (strcmp(t->comm, e->comm)) {
		memcpy(e->comm, t->comm, sizeof(e->comm));
		w.comm = true;
		if (e->gen == r->gen)
			e->text_moved = true;
	}
	/*
	 * A jump starts from a keyframe: the name this task has now (an exec
	 * since its proc row), for what names it while it is still there.
	 */
	if (keyframe && e->text_moved)
		w.comm = true;
	return put_task(r, e, &w, t);
}

/* The identity of a task new to the mirror, as its proc row stores it. */
static void rtask_fill(struct rtask *e, const struct task *t)
{
	recfmt_task_fields(t, e->v);
	e->state = t->state;
	memcpy(e->comm, t->comm, sizeof(e->comm));
	str_set(&e->user, t->user);
	str_set(&e->cgroup, t->cgroup);
	if (t->cmdline) {
		e->cmdline = xmalloc(t->cmdline_len + 1);
		memcpy(e->cmdline, t->cmdline, t->cmdline_len);
		e->cmdline_len = t->cmdline_len;
	}
	e->csw = t->have & (1u << CNT_VCSW);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

static int put_tasks(struct record *r, const struct model *m, bool keyframe)
{
	size_t i;

	r->nexits = 0;
	if (m->ntick_exits > r->cap_exits) {
		r->cap_exits = m->ntick_exits;
		r->exits = xrealloc(r->exits, r->cap_exits * sizeof(*r->exits));
	}
	if (m->ntick_exits) {
		memcpy(r->exits, m->tick_exits, m->ntick_exits * sizeof(*r->exits));
		r->nexits = m->ntick_exits;
		sort_array(r->exits, r->nexits, sizeof(*r->exits), cmp_pid);
	}
	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];
		struct rtask *e = pidmap_get(&r->map, t->pid);
		bool seen = t->seen_tick == m->tick;
		bool is_new = false;

		if (e && e->starttime != t->starttime) {
			/* Another process with that pid (or /proc told who an evented one was). */
			if (e->live) {
				struct row w = { .flags = RT_GONE };

				e->live = false;
				if (put_task(r, e, &w, NULL))
					return -1;
			}
			e->mark = 0;	/* dropped below */
			pidmap_del(&r->map, t->pid);
			e = NULL;
		}
		if (!e && !seen)
			continue;	/* kept by the model as it was: nothing to say */
		if (!e) {
			e = rtask_new(r, t);
			rtask_fill(e, t);
			is_new = true;
		}
		e->mark = m->tick;
		if (t->applied & APPLIED_READ) {
			if (is_new) {
				/* Its first row is whole; the proc row holds its texts. */
				e->live = false;
			}
			if (put_read(r, e, t, keyframe))
				return -1;
		} else if (seen) {
			if (put_event_only(r, e, t, keyframe))
				return -1;
		} else if (e->live || exited_now(r, t->pid)) {
			/* Not read (the model keeps it as it was): it left the live set. */
			struct row w = { .flags = (e->live ? RT_GONE : 0) |
						  (exited_now(r, t->pid) ? RT_EXIT : 0) };

			e->live = false;
			if (put_task(r, e, &w, NULL))
				return -1;
		}
	}
	/* Tasks the model dropped: gone; their exits are said still. */
	i = 0;
	while (i < r->nents) {
		struct rtask *e = r->ents[i];

		if (e->mark == m->tick) {
			i++;
			continue;
		}
		bool exit = pidmap_get(&r->map, e->pid) == e && exited_now(r, e->pid);

		if (e->live || exit) {
			struct row w = { .flags = (e->live ? RT_GONE : 0) | (exit ? RT_EXIT : 0) };

			if (put_task(r, e, &w, NULL))
				return -1;
		}
		if (pidmap_get(&r->map, e->pid) == e)
			pidmap_del(&r->map, e->pid);
		rtask_free(e);
		r->ents[i] = r->ents[--r->nents];
	}
	return 0;
}

static void session_of(const struct model *m, struct rsession *s)
{
	size_t i, k = 0;

	memset(s, 0, sizeof(*s));
	s->hz = m->hz;
	s->page_kb = m->page_kb;
	s->threads = m->threads;
	s->event_counters = m->event_counters;
	s->events_uid = m->events_uid;
	snprintf(s->trace_status, sizeof(s->trace_status), "%s", m->trace_status);
	s->exit_records = m->exit_records;
	snprintf(s->exits_status, sizeof(s->exits_status), "%s", m->exits_status);
	/* -p: the pids named, when only they are watched (not -- CMD's followed children). */
	if (m->focus && !m->focus_follow)
		for (i = 0; i < m->npinned && k + 12 < sizeof(s->pins); i++)
			k += (size_t)snprintf(s->pins + k, sizeof(s->pins) - k, "%s%d", i ? "," : "",
					      (int)m->focus[i]);
}

static bool session_eq(const struct rsession *a, const struct rsession *b)
{
	return a->hz == b->hz && a->page_kb == b->page_kb && a->threads == b->threads &&
	       a->event_counters == b->event_counters && a->events_uid == b->events_uid &&
	       !strcmp(a->trace_status, b->trace_status) && !strcmp(a->pins, b->pins) &&
	       a->exit_records == b->exit_records && !strcmp(a->exits_status, b->exits_status);
}

static int put_session(struct record *r, const struct rsession *s, bool restart, bool clear,
		       double wall)
{
	sqlite3_stmt *st = r->st_session;
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	sqlite3_bind_int64(st, 1, r->seq);
	sqlite3_bind_double(st, 2, wall);
	bind_text(st, 3, u.nodename);
	bind_text(st, 4, u.release);
	bind_text(st, 5, KTOP_VERSION);
	sqlite3_bind_int64(st, 6, s->hz);
	sqlite3_bind_int64(st, 7, s->page_kb);
	sqlite3_bind_int64(st, 8, s->threads);
	sqlite3_bind_int64(st, 9, s->event_counters);
	sqlite3_bind_int64(st, 10, s->events_uid);
	bind_text(st, 11, s->trace_status);
	bind_text(st, 12, s->pins[0] ? s->pins : NULL);
	sqlite3_bind_int64(st, 13, restart);
	sqlite3_bind_int64(st, 14, clear);
	sqlite3_bind_int64(st, 15, s->exit_records);
	bind_text(st, 16, s->exits_status);
	r->sess = *s;
	r->have_session = true;
	return step(r, st);
}

static int put_interval(struct record *r, uint64_t mono, double wall, unsigned flags,
			const struct model *m, const struct sys_sample *sys, bool delta)
{
	sqlite3_stmt *st = r->st_interval;
	int c;

	sqlite3_bind_int64(st, 1, r->seq);
	sqlite3_bind_int64(st, 2, (int64_t)mono);
	sqlite3_bind_double(st, 3, wall);
	sqlite3_bind_int64(st, 4, flags);
	if (m) {
		for (c = 0; c < RECFMT_NEV; c++)
			sqlite3_bind_int64(st, 5 + c, (int64_t)m->ev_total[recfmt_ev_counter[c]]);
		sqlite3_bind_int64(st, 11, (int64_t)m->lost_events);
		sqlite3_bind_int64(st, 12, m->lost_unknown);
		sqlite3_bind_int64(st, 15, (int64_t)m->exits_lost);
		sqlite3_bind_int64(st, 16, m->exits_lost_unknown);
	}
	r->buf.len = 0;
	recfmt_sys_encode(&r->buf, sys, delta ? &r->prev_sys : NULL);
	sqlite3_bind_blob(st, 13, r->buf.p, (int)r->buf.len, SQLITE_STATIC);
	/* Who signalled whom (the Signals view), when anyone did. */
	if (m) {
		r->sc.len = 0;
		recfmt_flows_encode(&r->sc, &m->sigflows, m);
		if (r->sc.len > 2)
			sqlite3_bind_text(st, 14, (const char *)r->sc.p, (int)r->sc.len, SQLITE_STATIC);
	}
	r->st.intervals++;
	return step(r, st);
}

/*
 * A new file while recording: it starts with the last interval written,
 * hidden, so that its first is shown with its rates, and with what the
 * model held then, so that its rows find what they found when recorded.
 * As a jump does (store/replay.c), that takes two intervals. The
 * first, a keyframe, reads every task the model had with a reading: the
 * live ones, and those that left in the last interval (a late row of one
 * shows its last reading: its size, threads, owner). The second, at the
 * same time (a session row, the same, lets the time stand still: no rate,
 * no point of any history), says again what the model took of the last
 * interval without a reading: the exit records (a zombie still read counts
 * from its counters: one read less than them has no CPU; one whose exit was
 * applied says X once reaped), the tasks that
 * left ('X': their last row, or exit record, with their owner), those only
 * events told of ('?'). Without them, such a task were new to the replay,
 * without its owner, and its exit record would be shown twice. Only those
 * the model still has now (@m): the others it drops unseen, they change
 * nothing this interval shows, and a busy machine has many.
 */
static int put_baseline(struct record *r, const struct model *m)
{
	struct row w = { .flags = RT_READ, .full = true };
	size_t i;

	if (put_session(r, &r->sess, true, false, r->prev_wall) ||
	    put_interval(r, r->prev_mono, r->prev_wall, RI_KEYFRAME | RI_HIDDEN | RI_SESSION, NULL,
			 &r->prev_sys, false))
		return -1;
	for (i = 0; i < r->nents; i++) {
		struct rtask *e = r->ents[i];
		char state = e->state;
		int rc;

		if (!e->live && !(e->was_read && e->dead_tick == r->prev_tick &&
				  model_task_find(m, e->pid)))
			continue;
		/*
		 * One read in state X (its exit seen then) reads as one not known
		 * to have left: the row that says it left finds it, as it did.
		 */
		if (!e->live && state == 'X')
			e->state = '?';
		w.flags = RT_READ | (e->csw ? RT_CSW : 0);
		rc = put_task(r, e, &w, NULL);
		e->state = state;
		if (rc)
			return -1;
	}
	r->seq++;
	if (put_session(r, &r->sess, false, false, r->prev_wall) ||
	    put_interval(r, r->prev_mono, r->prev_wall, RI_HIDDEN | RI_SESSION, NULL, &r->prev_sys, true))
		return -1;
	for (i = 0; i < r->nents; i++) {
		struct rtask *e = r->ents[i];
		bool fin = e->fin_tick == r->prev_tick;
		struct row d = { 0 };

		if (e->live) {
			if (!fin && !e->zombie_exited)
				continue;	/* read again, as it was */
			/* Its exit record, or one without counters: it exited. */
			d.flags = RT_READ | (e->csw ? RT_CSW : 0) | RT_FINAL;
		} else if (e->dead_tick != r->prev_tick || !model_task_find(m, e->pid)) {
			continue;	/* the model kept it as it was, or drops it */
		} else if (e->dead_state == 'X') {
			/* A row finds the task read above (its reading's owner), an exit record makes it. */
			d.flags = e->was_read ? RT_ROW | RT_EXITED : RT_FINAL;
			if (fin)
				d.flags |= RT_FINAL;
		} else {
			d.flags = RT_ROW;
		}
		if (!fin)
			e->fin_have = 0;
		if (put_task(r, e, &d, NULL))
			return -1;
	}
	r->keyframe_mono = r->prev_mono;
	r->seq++;
	return 0;
}

static void copy_sys(struct sys_sample *dst, const struct sys_sample *src)
{
	struct cpu_times *cpu = dst->stat.cpu;
	int n = src->stat.ncpu < 0 ? 0 : src->stat.ncpu > SYS_MAX_CPUS ? SYS_MAX_CPUS : src->stat.ncpu;

	*dst = *src;
	dst->stat.cpu = cpu;
	dst->stat.ncpu_max = SYS_MAX_CPUS;
	if (n && src->stat.cpu)
		memcpy(cpu, src->stat.cpu, (size_t)n * sizeof(*cpu));
}

static int write_tick(struct record *r, const struct model *m, bool new_file)
{
	struct rsession s;
	unsigned flags = 0;
	bool keyframe, restart = !r->have_prev;

	session_of(m, &s);
	r->tick = m->tick;
	if (new_file && r->have_prev && put_baseline(r, m))
		return -1;
	keyframe = !r->have_prev || m->t_now - r->keyframe_mono >= (uint64_t)(r->o.keyframe_s * 1e9);
	if (!r->have_session || !session_eq(&s, &r->sess)) {
		bool clear = r->have_session && s.threads != r->sess.threads;

		if (put_session(r, &s, restart, clear, m->wall_s))
			return -1;
		flags |= RI_SESSION;
		keyframe = true;
	}
	if (keyframe) {
		flags |= RI_KEYFRAME;
		r->keyframe_mono = m->t_now;
	}
	if (put_interval(r, m->t_now, m->wall_s, flags, m, &m->sys, !keyframe) ||
	    put_tasks(r, m, keyframe))
		return -1;
	if (recnames_write(r->st_names, &m->names, &r->names_written) != SQLITE_OK)
		return db_error(r, "write");
	return 0;
}

int record_tick(struct record *r, const struct model *m, char *err, size_t errsz)
{
	char path[PATH_MAX];
	bool new_file = false;

	if (!r->db)
		return -1;
	if (file_name(r->o.pattern, m->wall_s, path, sizeof(path)) == 0 && strcmp(path, r->path)) {
		/* A new day (or hour...): the old file is closed whole, a new one starts. */
		close_file(r);
		if (open_file(r, path)) {
			snprintf(err, errsz, "recording stopped: %s", r->err);
			return -1;
		}
		remove_old(r, m->wall_s);
		new_file = true;
	}
	if (exec(r, "BEGIN") || write_tick(r, m, new_file) || exec(r, "COMMIT")) {
		snprintf(err, errsz, "recording stopped: %s", r->err);
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		close_file(r);
		return -1;
	}
	r->seq++;
	r->have_prev = true;
	r->prev_tick = m->tick;
	r->prev_mono = m->t_now;
	r->prev_wall = m->wall_s;
	copy_sys(&r->prev_sys, &m->sys);
	return 0;
}
