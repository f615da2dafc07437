// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder: each tick's samples (what the sources said, as
 * model_apply got them) into a SQLite file, one interval a transaction.
 *
 * The samples are stored by store/recsample.c (only what moved; zlib over
 * the interval's bytes); a replay (store/replay.c) gives them to
 * model_apply again, so it is what ran live by construction. Keyframes
 * (every keyframe_s, and the first interval of each run) decode without
 * what came before, so a replay can start anywhere; a new file starts with
 * a hidden keyframe of what the decoder remembers. Beside the samples, for
 * people who query the file with sqlite3 (store/recfmt.c says how they are
 * kept small): each process life once (life, kind, text: the view proc),
 * its syscall tables per interval (life's first, task_after, sctab: the
 * views task, syscall and syscall_error), the whole system's counts and
 * signal flows (interval, the view sigflow), containers' names (cgname).
 */
#include "record.h"
#include "recflight.h"
#include "recnames.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
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
#include <zlib.h>

#include "../lib/pidmap.h"
#include "../lib/rcstr.h"
#include "recfmt.h"
#include "recsample.h"
#include "sccache.h"
#include "../lib/scnames.h"
#include "../lib/util.h"
#include "recfile.h"

#define KEYFRAME_S 600.0
#define SC_SEEN_MAX 2048	/* system call numbers named (x86_64's go to ~470) */
#define ERRNO_SEEN_MAX 4096	/* errnos named (sc_err_errno's range) */


/* A tick's samples, copied: each owns what it points to. */
struct kept {
	struct sample *v;
	size_t n, ninit, cap;
	struct sctable **tabs;		/* the rows' tables */
	size_t ntabs, cap_tabs;
};

static void kept_free(struct kept *k);

/* A process life the file has a proc row of. */
struct rtask {
	int64_t id;		/* its proc row in the file written now */
	unsigned gen;		/* the file of that row (record.gen) */
	pid_t pid;
	uint64_t starttime;
	uint32_t life;		/* the events' life of it (task.life); 0: not told */
	uint64_t mark;		/* the tick it was last seen in the model */
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

/* Values stored once per file (a table of id, value): what was stored, by hash. */
struct dedup {
	struct dslot {
		uint64_t hash;
		int64_t id;		/* 0 = free */
		char *s;
		size_t len;
		bool blob;
	} *v;
	size_t cap, n;
	int64_t next_id;
	sqlite3_stmt *ins;
};

/*
 * The last command lines stored whole, a new one's candidates to share its
 * beginning and end with (text.base): a compiler's lines share their flags.
 */
#define CMD_BASES 8
#define CMD_PREFIX_MIN 32	/* sharing less, the base's id and lengths save nothing */
struct cmdbase {
	int64_t id;		/* 0 = none */
	char *s;
	size_t len;
	bool blob;
};

/* Distinct texts remembered per table; past it, they are forgotten (and may repeat). */
#define DEDUP_MAX 65536


struct record {
	struct record_opts o;
	char path[PATH_MAX];
	sqlite3 *db;
	int lock_fd;
	bool guarded;			/* holds a recfile_guard */
	sqlite3_stmt *st_interval, *st_proc, *st_task, *st_session, *st_scname, *st_errname;
	/* The names the file has (put_names). */
	bool sc_seen[SC_ABI_NR][SC_SEEN_MAX];
	bool errno_seen[ERRNO_SEEN_MAX];
	int64_t seq, next_id;
	unsigned gen;

	struct pidmap map;		/* pid -> struct rtask */
	struct rtask **ents;
	size_t nents, cap;

	/* What the samples' decoder will remember: encoder and decoder keep it alike. */
	struct recmem mem;
	struct recbuf tick;		/* this tick's samples, encoded */
	struct recbuf z;		/* the interval's bytes compressed */
	z_stream zs;			/* their deflate state (zinit) */
	bool zinit;
	bool in_tick;			/* a tick's samples are being taken (its transaction open) */
	bool keyframe;			/* this tick's are stored whole */
	/*
	 * A tick's samples were encoded (and deflated) but not written: what
	 * the decoder would remember is not what the encoder does, so the next
	 * tick is a keyframe.
	 */
	bool lost_tick;
	bool failed;			/* recording stops at the tick's end (r->err) */
	/* The samples of the tick before the last, the last, this one: a new file's baseline. */
	struct kept kept[3];
	/*
	 * The exit records of processes still listed (zombies): their rows keep
	 * the record's numbers for as long as they are listed, which may be
	 * longer than the baseline's two ticks; a new file gives them again.
	 */
	struct zfinal {
		struct task_final f;
		int64_t given;		/* the interval (seq) it was given in */
		int64_t read;		/* the last interval /proc read it a zombie in (-1: none) */
	} *zfin;
	size_t nzfin, cap_zfin;
	struct pidmap zidx;		/* a zfin's id -> its index + 1 */

	bool have_prev;			/* a tick was written */
	bool made;			/* the file written now was made by this ktop */
	bool rotates;			/* the pattern has strftime conversions: new files come */
	/*
	 * The pattern's name of now: the file written is it or, when it was
	 * refused, one of its next names (open_free). No file at all (every
	 * name refused): nothing is written until the pattern's name changes.
	 */
	char natural[PATH_MAX];
	bool paused;
	char notes[4096];		/* lines to say, NUL-separated (record_notice) */
	size_t notes_len, notes_off;	/* their bytes; the next one's offset */
	uint64_t file_ticks;		/* ticks written to it */
	uint64_t keyframe_mono;

	bool have_session;
	struct rsession sess;

	struct recbuf buf, sc, cmd;
	struct dedup cgroups, tables, texts, kinds;
	struct cmdbase bases[CMD_BASES];
	unsigned next_base;
	struct sccache tabcache;	/* the tables' ids by their contents (no text written) */
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

/* Names tried after a refused one: NAME.1.EXT to NAME.9.EXT. */
#define ALT_MAX 9

/*
 * @natural with ".@i" before the extension of its last component (k.db:
 * k.1.db; k: k.1), into @out; -1 when it is too long. Retention's glob of
 * the pattern finds it where a conversion is in the last component.
 */
static int alt_name(const char *natural, unsigned i, char *out, size_t n)
{
	const char *base = strrchr(natural, '/'), *dot;
	int len;

	base = base ? base + 1 : natural;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = natural + strlen(natural);
	len = snprintf(out, n, "%.*s.%u%s", (int)(dot - natural), natural, i, dot);
	return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* A line to say (record_notice); past the room left, it is cut. */
static void note(struct record *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct record *r, const char *fmt, ...)
{
	size_t room = sizeof(r->notes) - r->notes_len;
	va_list ap;
	int n;

	if (room < 2)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->notes + r->notes_len, room, fmt, ap);
	va_end(ap);
	if (n >= 0)
		r->notes_len += (size_t)n < room ? (size_t)n + 1 : room;
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

/* The id @s (@n bytes) was stored as, or 0; @h gets its hash. */
static int64_t dedup_find(struct dedup *d, const char *s, size_t n, bool blob, uint64_t *h)
{
	size_t i;

	*h = hash_text(s, n) ^ blob;
	if (!d->cap)
		return 0;
	for (i = *h & (d->cap - 1); d->v[i].id; i = (i + 1) & (d->cap - 1))
		if (d->v[i].hash == *h && d->v[i].len == n && d->v[i].blob == blob &&
		    !memcmp(d->v[i].s, s, n))
			return d->v[i].id;
	return 0;
}

/* Remember @s as stored under @id (the row is written). */
static void dedup_keep(struct dedup *d, const char *s, size_t n, bool blob, uint64_t h, int64_t id)
{
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
		;
	d->v[i] = (struct dslot){ .hash = h, .id = id, .s = xmalloc(n + 1), .len = n, .blob = blob };
	memcpy(d->v[i].s, s, n);
	d->n++;
}

static int step(struct record *r, sqlite3_stmt *st);

/* The id of text @s (@n bytes) in the file, stored now if new. 0 on a write error. */
static int64_t dedup_blob(struct record *r, struct dedup *d, const char *s, size_t n, bool blob)
{
	uint64_t h;
	int64_t id = dedup_find(d, s, n, blob, &h);

	if (id)
		return id;
	sqlite3_bind_int64(d->ins, 1, d->next_id);
	if (blob)
		sqlite3_bind_blob(d->ins, 2, n ? s : "", (int)n, SQLITE_STATIC);
	else
		sqlite3_bind_text(d->ins, 2, s, (int)n, SQLITE_STATIC);
	if (step(r, d->ins))
		return 0;
	dedup_keep(d, s, n, blob, h, d->next_id);
	return d->next_id++;
}

static int64_t dedup_id(struct record *r, struct dedup *d, const char *s, size_t n)
{
	return dedup_blob(r, d, s, n, false);
}

static void bases_clear(struct record *r)
{
	unsigned i;

	for (i = 0; i < CMD_BASES; i++)
		free(r->bases[i].s);
	memset(r->bases, 0, sizeof(r->bases));
	r->next_base = 0;
}

/* The bytes @a and @b (@n of each, backwards from their ends) share at their ends. */
static size_t common_end(const char *a, const char *b, size_t n)
{
	size_t k = 0;

	while (k < n && a[-1 - (ptrdiff_t)k] == b[-1 - (ptrdiff_t)k])
		k++;
	return k;
}

/*
 * A command line's id in text, stored now if new: as the middle between the
 * longest beginning and end it shares with one of the last stored whole
 * (CMD_BASES), when they are long enough to pay (text.base, text.n, text.m;
 * the view proc puts it back together), else whole. Text is cut between
 * characters, so that each part is UTF-8 as the line was. 0 on a write error.
 */
static int64_t cmdline_id(struct record *r, const char *s, size_t n, bool blob)
{
	struct dedup *d = &r->texts;
	const struct cmdbase *base = NULL;
	size_t best = 0, pre = 0, post = 0, p, q, k;
	unsigned i;
	uint64_t h;
	int64_t id = dedup_find(d, s, n, blob, &h);

	if (id)
		return id;
	for (i = 0; i < CMD_BASES; i++) {
		const struct cmdbase *b = &r->bases[i];
		size_t max = b->len < n ? b->len : n;

		if (!b->id || b->blob != blob)
			continue;
		for (p = 0; p < max && b->s[p] == s[p]; p++)
			;
		while (!blob && p && p < n && ((unsigned char)s[p] & 0xc0) == 0x80)
			p--;
		q = common_end(b->s + b->len, s + n, max - p);
		while (!blob && q && ((unsigned char)s[n - q] & 0xc0) == 0x80)
			q--;
		if (p + q > best) {
			best = p + q;
			pre = p;
			post = q;
			base = b;
		}
	}
	if (best < CMD_PREFIX_MIN) {
		base = NULL;
		pre = post = 0;
	}
	k = n - pre - post;
	sqlite3_bind_int64(d->ins, 1, d->next_id);
	if (blob)
		sqlite3_bind_blob(d->ins, 2, k ? s + pre : "", (int)k, SQLITE_STATIC);
	else
		sqlite3_bind_text(d->ins, 2, s + pre, (int)k, SQLITE_STATIC);
	if (base) {
		sqlite3_bind_int64(d->ins, 3, base->id);
		sqlite3_bind_int64(d->ins, 4, (int64_t)pre);
		sqlite3_bind_int64(d->ins, 5, (int64_t)post);
	}
	if (step(r, d->ins))
		return 0;
	if (!base) {
		struct cmdbase *b = &r->bases[r->next_base++ % CMD_BASES];

		free(b->s);
		*b = (struct cmdbase){ .id = d->next_id, .s = xmalloc(n + 1), .len = n, .blob = blob };
		memcpy(b->s, s, n);
	}
	dedup_keep(d, s, n, blob, h, d->next_id);
	return d->next_id++;
}

/*
 * The names a query wants (syscall_name, errno_name): the recording host's,
 * of the system calls and errnos the file's tables hold, each once (a file
 * of a day holds a few dozen: all of them were a fixed 50 KiB).
 */
static int put_names(struct record *r, const struct sctable *t, bool err)
{
	static const struct {
		const char *const *names;
		const unsigned *count;
	} abis[SC_ABI_NR] = {
		[SC_ABI_NATIVE] = { syscall_names, &syscall_names_count },
		[SC_ABI_X32] = { syscall_names_x32, &syscall_names_x32_count },
		[SC_ABI_COMPAT] = { syscall_names_compat, &syscall_names_compat_count },
	};
	char name[SYSCALL_LABEL_BUF], en[ERRNO_NAME_BUF];
	uint32_t i;

	for (i = 0; i < t->cap; i++) {
		uint32_t key = t->slots[i].nr, nr, e = 0;
		enum sc_abi abi;

		if (key == SC_EMPTY)
			continue;
		if (err) {
			e = sc_err_errno(key);
			key = sc_err_nr(key);
		}
		if (e && e < ERRNO_SEEN_MAX && !r->errno_seen[e]) {
			r->errno_seen[e] = true;
			sqlite3_bind_int64(r->st_errname, 1, e);
			sqlite3_bind_text(r->st_errname, 2, errno_name((int)e, en, sizeof(en)), -1,
					  SQLITE_TRANSIENT);
			if (step(r, r->st_errname))
				return -1;
		}
		abi = sc_key_abi(key);
		nr = sc_key_nr(key);
		/* Numbers no table names stay without a row, as before. */
		if (key >= SC_KEY_INVALID || nr >= *abis[abi].count || !abis[abi].names[nr] ||
		    nr >= SC_SEEN_MAX || r->sc_seen[abi][nr])
			continue;
		r->sc_seen[abi][nr] = true;
		sqlite3_bind_int64(r->st_scname, 1, key);
		sqlite3_bind_text(r->st_scname, 2, syscall_label(key, name, sizeof(name)), -1,
				  SQLITE_TRANSIENT);
		sqlite3_bind_text(r->st_scname, 3, subsystem_name(syscall_subsystem(key)), -1,
				  SQLITE_STATIC);
		if (step(r, r->st_scname))
			return -1;
	}
	return 0;
}

static int create_schema(struct record *r)
{
	char sql[128];

	if (exec(r, "BEGIN") || exec(r, recfmt_schema))
		return -1;
	snprintf(sql, sizeof(sql), "PRAGMA application_id=%d", RECFMT_APP_ID);
	if (exec(r, sql))
		return -1;
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", RECFMT_VERSION);
	if (exec(r, sql))
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
	sqlite3_finalize(r->st_scname);
	sqlite3_finalize(r->st_errname);
	r->st_scname = r->st_errname = NULL;
	sqlite3_finalize(r->st_names);
	r->st_names = NULL;
	sqlite3_finalize(r->cgroups.ins);
	sqlite3_finalize(r->tables.ins);
	sqlite3_finalize(r->texts.ins);
	sqlite3_finalize(r->kinds.ins);
	r->texts.ins = r->kinds.ins = NULL;
	r->st_interval = r->st_proc = r->st_task = r->st_session = NULL;
	r->cgroups.ins = r->tables.ins = NULL;
	/* Ids are the file's: a new file stores its texts again. */
	dedup_clear(&r->cgroups);
	dedup_clear(&r->tables);
	dedup_clear(&r->texts);
	dedup_clear(&r->kinds);
	bases_clear(r);
	sccache_clear(&r->tabcache);
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
	/*
	 * Small pages (before WAL mode writes the first): a file holds a dozen
	 * small tables, a page each at least; the samples' blobs overflow alike.
	 */
	if ((empty && exec(r, "PRAGMA page_size=1024")) ||
	    exec(r, "PRAGMA journal_mode=WAL") || exec(r, "PRAGMA synchronous=NORMAL") ||
	    (empty && create_schema(r)))
		goto fail;
	r->seq = query_int(r->db, "SELECT ifnull(max(seq), 0) FROM interval", &rc) + 1;
	if (rc == SQLITE_OK)
		r->next_id = query_int(r->db, "SELECT ifnull(max(id), 0) FROM life", &rc) + 1;
	if (rc == SQLITE_OK)
		r->texts.next_id = query_int(r->db, "SELECT ifnull(max(id), 0) FROM text", &rc) + 1;
	if (rc == SQLITE_OK)
		r->kinds.next_id = query_int(r->db, "SELECT ifnull(max(id), 0) FROM kind", &rc) + 1;
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
	    sqlite3_prepare_v2(r->db, "INSERT INTO life VALUES (?,?,?,?,?,?,?,?)", -1,
			       &r->st_proc, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO kind VALUES (?,?,?,?,?,?,?)", -1,
			       &r->kinds.ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO text VALUES (?,?,?,?,?)", -1, &r->texts.ins,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, recfmt_task_insert, -1, &r->st_task, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1,
			       &r->st_session, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO cgroup VALUES (?,?)", -1, &r->cgroups.ins,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT INTO sctab VALUES (?,?)", -1, &r->tables.ins,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT OR IGNORE INTO syscall_name VALUES (?,?,?)", -1,
			       &r->st_scname, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "INSERT OR IGNORE INTO errno_name VALUES (?,?)", -1,
			       &r->st_errname, NULL) != SQLITE_OK) {
		db_error(r, "prepare");
		goto fail;
	}
	r->names_written = 0;
	/* Appending to a file: what it names already is ignored on insert. */
	memset(r->sc_seen, 0, sizeof(r->sc_seen));
	memset(r->errno_seen, 0, sizeof(r->errno_seen));
	if (recnames_open(r->db, &r->st_names) != SQLITE_OK) {
		db_error(r, "prepare");
		goto fail;
	}
	r->made = empty;
	r->file_ticks = 0;
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
 * The glob of the next names (alt_name) of the pattern's glob @pat, into
 * @out: false where its last component has a conversion ('*'), whose glob
 * matches them already.
 */
static bool alt_glob(const char *pat, char *out, size_t n)
{
	const char *base = strrchr(pat, '/'), *dot;
	int len;

	base = base ? base + 1 : pat;
	if (strchr(base, '*'))
		return false;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = pat + strlen(pat);
	len = snprintf(out, n, "%.*s.[1-9]%s", (int)(dot - pat), pat, dot);
	return len >= 0 && (size_t)len < n;
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
	int found, alts = GLOB_NOMATCH;

	if ((r->o.keep_days <= 0 && !r->o.max_bytes) || !pattern_glob(r->o.pattern, pat, sizeof(pat)))
		return;
	found = glob(pat, GLOB_NOSORT, NULL, &g);
	/* The next names (alt_name) where the glob's last component does not match them. */
	if (alt_glob(pat, side, sizeof(side))) {
		if (found)
			globfree(&g);
		alts = glob(side, GLOB_NOSORT | (found ? 0 : GLOB_APPEND), NULL, &g);
	}
	if (found && alts)
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

/*
 * Open @natural, the pattern's name of now; when it is refused (another
 * user's file planted there, a link, another ktop's recording...), the first
 * of its next names (alt_name) that is not: a name planted in a shared
 * directory delays a daily recording by nothing. Each refused name is said
 * once (record_notice) and counted (record_stats.refused). A fixed name
 * (no conversion) is the user's choice: no other is tried. -1 when no name
 * could be opened, r->err saying why the last one was refused.
 */
static int open_free(struct record *r, const char *natural)
{
	char name[PATH_MAX] = "", why[sizeof(r->err)], first[sizeof(r->err)];
	unsigned i;

	snprintf(r->natural, sizeof(r->natural), "%s", natural);
	if (!open_file(r, natural))
		return 0;
	if (!r->rotates)
		return -1;
	r->st.refused++;
	snprintf(first, sizeof(first), "%s", r->err);
	/* Where the directory is the reason, every name in it is refused alike. */
	if (recfile_check_dir(natural, why, sizeof(why))) {
		note(r, "%s: nothing recorded until the next file name", first);
		return -1;
	}
	for (i = 1; i <= ALT_MAX && !alt_name(natural, i, name, sizeof(name)); i++) {
		snprintf(why, sizeof(why), "%s", r->err);
		if (!open_file(r, name)) {
			note(r, "%s; recording to %s", why, name);
			return 0;
		}
		note(r, "%s; trying %s", why, name);
		r->st.refused++;
	}
	note(r, "%s; no name left: nothing recorded until the next file name", r->err);
	snprintf(r->err, sizeof(r->err), "%.300s; so were its next names, up to %.150s", first, name);
	return -1;
}

int record_open(const struct record_opts *o, double now, struct record **out, char *err,
		size_t errsz)
{
	struct record *r = xcalloc(1, sizeof(*r));
	char path[PATH_MAX];

	r->o = *o;
	r->rotates = pattern_glob(o->pattern, path, sizeof(path));
	if (r->o.keyframe_s <= 0)
		r->o.keyframe_s = KEYFRAME_S;
	r->lock_fd = -1;
	pidmap_init(&r->map);
	pidmap_init(&r->zidx);
	recmem_init(&r->mem);
	if (file_name(o->pattern, now, path, sizeof(path))) {
		snprintf(err, errsz, "-w %.200s: the file name is empty or too long", o->pattern);
		record_close(r);
		return -1;
	}
	if (open_free(r, path)) {
		snprintf(err, errsz, "%s: not recording", r->err);
		record_close(r);
		return -1;
	}
	remove_old(r, now);
	*out = r;
	return 0;
}

int record_flight(struct record *r, double wall, const char *path, const char *why,
		  uint64_t bytes, char *err, size_t errsz)
{
	if (!r->db || r->in_tick) {
		snprintf(err, errsz, "no recording file open now");
		return -1;
	}
	if (recflight_add(r->db, wall, path, why, bytes) != SQLITE_OK) {
		snprintf(err, errsz, "%s", sqlite3_errmsg(r->db));
		return -1;
	}
	return 0;
}

const char *record_path(const struct record *r)
{
	return r->path;
}

const char *record_notice(struct record *r)
{
	const char *line = r->notes + r->notes_off;

	if (r->notes_off >= r->notes_len) {
		r->notes_len = r->notes_off = 0;
		return NULL;
	}
	r->notes_off += strlen(line) + 1;
	return line;
}

void record_get_stats(const struct record *r, struct record_stats *st)
{
	*st = r->st;
}


void record_close(struct record *r)
{
	size_t i;

	if (!r)
		return;
	close_file(r);
	for (i = 0; i < r->nents; i++)
		free(r->ents[i]);
	free(r->ents);
	pidmap_free(&r->map);
	recmem_free(&r->mem);
	for (i = 0; i < 3; i++)
		kept_free(&r->kept[i]);
	free(r->zfin);
	pidmap_free(&r->zidx);
	recbuf_free(&r->tick);
	recbuf_free(&r->z);
	if (r->zinit)
		deflateEnd(&r->zs);
	recbuf_free(&r->buf);
	recbuf_free(&r->sc);
	recbuf_free(&r->cmd);
	free(r);
}

static void bind_text(sqlite3_stmt *st, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, col);
}

/*
 * A command line's id in the file (table text: a command run again has one),
 * 0 for none; -1 on a write error.
 */
static int64_t cmdline_of(struct record *r, const char *s, size_t len)
{
	int64_t id;

	if (!s)
		return 0;
	if (r->cmd.cap < len + 1) {
		r->cmd.cap = len + 64;
		r->cmd.p = xrealloc(r->cmd.p, r->cmd.cap);
	}
	/* Text when it says the line exactly; an empty one (a kernel thread's) is a blob. */
	if (recfmt_cmdline_text(s, len, (char *)r->cmd.p))
		id = cmdline_id(r, (const char *)r->cmd.p, len - 1, false);
	else
		id = cmdline_id(r, s, len, true);
	return id ? id : -1;
}

/* A text's id in @d (a user name, a cgroup path), 0 for none; -1 on a write error. */
static int64_t text_of(struct record *r, struct dedup *d, const char *s)
{
	int64_t id;

	if (!s)
		return 0;
	id = dedup_id(r, d, s, strlen(s));
	return id ? id : -1;
}

static void bind_id(sqlite3_stmt *st, int col, int64_t id)
{
	if (id)
		sqlite3_bind_int64(st, col, id);
	else
		sqlite3_bind_null(st, col);
}

static int step(struct record *r, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : db_error(r, "write");
}


/* A table as the file stores it (JSON text, once per distinct one): its id, 0 on an error. */
static int64_t table_id(void *arg, const struct sctable *t, bool err)
{
	struct record *r = arg;

	size_t n = r->tables.n;
	int64_t id = sccache_get(&r->tabcache, t, err);

	if (id)
		return id;
	r->sc.len = 0;
	if (err)
		recfmt_err_encode(&r->sc, t);
	else
		recfmt_sc_encode(&r->sc, t);
	id = dedup_id(r, &r->tables, (const char *)r->sc.p, strlen((const char *)r->sc.p));
	/* A table new to the file: its calls' and errnos' names too. */
	if (id && r->tables.n != n && put_names(r, t, err))
		return 0;
	sccache_put(&r->tabcache, t, err, id);
	return id;
}

/*
 * What @t shares with other lives (comm, parent, user, command line,
 * cgroup): its row of kind, stored now if new. 0 on a write error.
 */
static int64_t kind_of(struct record *r, const struct task *t)
{
	struct {
		char comm[PROC_COMM_MAX];
		int64_t ppid, uid, user, cmdline, cgroup;
	} k;
	sqlite3_stmt *st = r->kinds.ins;
	uint64_t h;
	int64_t id;

	memset(&k, 0, sizeof(k));
	snprintf(k.comm, sizeof(k.comm), "%s", t->comm);
	k.ppid = t->ppid;
	k.uid = t->uid;
	if ((k.user = text_of(r, &r->texts, t->user)) < 0 ||
	    (k.cmdline = cmdline_of(r, t->cmdline, t->cmdline_len)) < 0 ||
	    (k.cgroup = text_of(r, &r->cgroups, t->cgroup)) < 0)
		return 0;
	id = dedup_find(&r->kinds, (const char *)&k, sizeof(k), true, &h);
	if (id)
		return id;
	sqlite3_bind_int64(st, 1, r->kinds.next_id);
	bind_text(st, 2, t->comm);
	sqlite3_bind_int64(st, 3, t->ppid);
	sqlite3_bind_int64(st, 4, t->uid);
	bind_id(st, 5, k.user);
	bind_id(st, 6, k.cmdline);
	bind_id(st, 7, k.cgroup);
	if (step(r, st))
		return 0;
	dedup_keep(&r->kinds, (const char *)&k, sizeof(k), true, h, r->kinds.next_id);
	return r->kinds.next_id++;
}

/*
 * Its identity in the file written now, once per life (and once per file),
 * with the syscall tables of its first interval there (ids, 0: none).
 */
static int put_proc(struct record *r, struct rtask *e, const struct task *t, int64_t sc,
		    int64_t err)
{
	sqlite3_stmt *st = r->st_proc;
	int64_t kind = kind_of(r, t);

	if (!kind)
		return -1;
	e->id = r->next_id++;
	e->gen = r->gen;
	sqlite3_bind_int64(st, 1, e->id);
	sqlite3_bind_int64(st, 2, r->seq);
	sqlite3_bind_int64(st, 3, t->pid);
	/* A process's own: its tgid is its pid (the view proc says so). */
	if (t->tgid != t->pid)
		sqlite3_bind_int64(st, 4, t->tgid);
	sqlite3_bind_int64(st, 5, (int64_t)t->starttime);
	sqlite3_bind_int64(st, 6, kind);
	bind_id(st, 7, sc);
	bind_id(st, 8, err);
	r->st.proc_rows++;
	return step(r, st);
}

static bool same_life(const struct rtask *e, const struct task *t)
{
	return e->pid == t->pid && e->starttime == t->starttime &&
	       (!e->life || !t->life || e->life == t->life);
}

/*
 * The entry of @t's life: the map's (a pid's newest), or for an earlier life
 * of a pid the model still shows (task.past) its own, found among the
 * entries (a few a tick); NULL when new.
 */
static struct rtask *life_of(struct record *r, const struct task *t)
{
	struct rtask *e = pidmap_get(&r->map, t->pid);
	size_t i;

	if (!t->past || (e && same_life(e, t)))
		return e;
	for (i = 0; i < r->nents; i++)
		if (r->ents[i] != e && same_life(r->ents[i], t))
			return r->ents[i];
	return NULL;
}

/*
 * The processes of the interval: each life's proc row once, and for those
 * with system calls their tables (the views syscall and syscall_error read
 * them). Lives the model dropped are forgotten.
 */
static int put_tasks(struct record *r, const struct model *m)
{
	sqlite3_stmt *st = r->st_task;
	size_t i;

	for (i = 0; i < m->ntasks; i++) {
		const struct task *t = m->tasks[i];
		struct rtask *e;
		int64_t sc = 0, err = 0;

		/* An earlier life of a pid: its row was its last. */
		if (t->past && t->seen_tick != m->tick)
			continue;
		e = life_of(r, t);
		if (!t->past && e && !same_life(e, t)) {
			e->mark = 0;	/* a reused pid: the old life ends */
			pidmap_del(&r->map, t->pid);
			e = NULL;
		}
		if (!e) {
			e = xcalloc(1, sizeof(*e));
			e->pid = t->pid;
			e->starttime = t->starttime;
			if (r->nents == r->cap) {
				r->cap = r->cap ? r->cap * 2 : 256;
				r->ents = xrealloc(r->ents, r->cap * sizeof(*r->ents));
			}
			r->ents[r->nents++] = e;
			if (!t->past)
				pidmap_put(&r->map, e->pid, e);
		}
		if (!e->life)
			e->life = t->life;
		e->mark = m->tick;
		if (t->sc.used && !(sc = table_id(r, &t->sc, false)))
			return -1;
		if (t->err.used && !(err = table_id(r, &t->err, true)))
			return -1;
		/* New to the file: its first interval's tables go in its life row. */
		if (e->gen != r->gen) {
			if (put_proc(r, e, t, sc, err))
				return -1;
			continue;
		}
		if (!sc && !err)
			continue;
		sqlite3_bind_int64(st, 1, r->seq);
		sqlite3_bind_int64(st, 2, e->id);
		if (sc)
			sqlite3_bind_int64(st, 3, sc);
		if (err)
			sqlite3_bind_int64(st, 4, err);
		r->st.task_rows++;
		if (step(r, st))
			return -1;
	}
	for (i = 0; i < r->nents;) {
		struct rtask *e = r->ents[i];

		if (e->mark == m->tick) {
			i++;
			continue;
		}
		if (pidmap_get(&r->map, e->pid) == e)
			pidmap_del(&r->map, e->pid);
		free(e);
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

/*
 * The interval's samples into r->z: their length in 4 bytes (what a reader
 * allocates, bounded), then deflated. The intervals from a keyframe to the
 * next are one deflate stream, flushed to a byte at each interval's end: an
 * interval's bytes are found again in the one before (the same processes,
 * the same commands), which a stream started anew each interval could not
 * see (a fifth fewer bytes on issue 22's workload). A reader inflates them
 * in order from the keyframe, as it decodes the samples anyway.
 */
static int deflate_samples(struct record *r, const struct recbuf *samples, bool keyframe)
{
	int rc;

	r->z.len = 0;
	rec_put_bytes(&r->z, (const uint8_t[4]){ (uint8_t)(samples->len >> 24),
		      (uint8_t)(samples->len >> 16), (uint8_t)(samples->len >> 8),
		      (uint8_t)samples->len }, 4);
	/* One deflate state for the run: a new one each interval costs its 256 KiB again. */
	if (!r->zinit) {
		if (deflateInit(&r->zs, 6) != Z_OK) {
			snprintf(r->err, sizeof(r->err), "%.300s: cannot compress: out of memory", r->path);
			return -1;
		}
		r->zinit = true;
	} else if (keyframe) {
		deflateReset(&r->zs);
	}
	r->zs.next_in = (Bytef *)(samples->p ? samples->p : (const uint8_t *)"");
	r->zs.avail_in = (uInt)samples->len;
	do {
		size_t room = deflateBound(&r->zs, r->zs.avail_in) + 64;

		if (r->z.cap - r->z.len < room) {
			r->z.cap = r->z.len + room;
			r->z.p = xrealloc(r->z.p, r->z.cap);
		}
		r->zs.next_out = r->z.p + r->z.len;
		r->zs.avail_out = (uInt)(r->z.cap - r->z.len);
		rc = deflate(&r->zs, Z_SYNC_FLUSH);
		r->z.len = r->z.cap - r->zs.avail_out;
	} while (rc == Z_OK && !r->zs.avail_out);
	if (rc != Z_OK || r->zs.avail_in) {
		snprintf(r->err, sizeof(r->err), "%.300s: cannot compress an interval", r->path);
		return -1;
	}
	return 0;
}

static int put_interval(struct record *r, uint64_t mono, double wall, unsigned flags,
			const struct model *m, const struct recbuf *samples)
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
		sqlite3_bind_int64(st, 14, (int64_t)m->exits_lost);
		sqlite3_bind_int64(st, 15, m->exits_lost_unknown);
	}
	/* Who signalled whom (the Signals view), when anyone did: for sqlite3 users. */
	if (m) {
		r->sc.len = 0;
		recfmt_flows_encode(&r->sc, &m->sigflows, m);
		if (r->sc.len > 2)
			sqlite3_bind_text(st, 13, (const char *)r->sc.p, (int)r->sc.len, SQLITE_STATIC);
	}
	if (deflate_samples(r, samples, flags & RI_KEYFRAME))
		return -1;
	sqlite3_bind_blob(st, 16, r->z.p, (int)r->z.len, SQLITE_STATIC);
	r->st.intervals++;
	return step(r, st);
}

/* A copy of @s that owns what it points to (its tables in @k, directories in @pool). */
static void keep_sample(struct kept *k, const struct sample *s, struct strpool *pool)
{
	struct sample *d;
	size_t i;

	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 8;
		k->v = xrealloc(k->v, k->cap * sizeof(*k->v));
	}
	if (k->n == k->ninit)
		sample_init(&k->v[k->ninit++]);
	d = &k->v[k->n++];
	d->begin = s->begin;
	d->end = s->end;
	d->mono_ns = s->mono_ns;
	d->wall_s = s->wall_s;
	if (s->have_sys) {
		int n = s->sys.stat.ncpu < 0 ? 0 : s->sys.stat.ncpu > SYS_MAX_CPUS ? SYS_MAX_CPUS :
			s->sys.stat.ncpu;

		d->have_sys = true;
		d->sys = s->sys;
		d->sys.stat.cpu = d->cpu;
		if (n && s->sys.stat.cpu)
			memcpy(d->cpu, s->sys.stat.cpu, (size_t)n * sizeof(*d->cpu));
	}
	for (i = 0; i < s->ntasks; i++) {
		struct task_reading *t = sample_add_task(d);

		*t = s->tasks[i];
		t->cmdline = rcstr_ref(t->cmdline);
	}
	for (i = 0; i < s->nrows; i++) {
		struct row_events *e = sample_add_row(d);
		int j;

		*e = s->rows[i];
		for (j = 0; j < 2; j++) {
			const struct sctable *src = j ? e->err : e->sc;
			struct sctable *t;

			if (!src)
				continue;
			if (k->ntabs == k->cap_tabs) {
				k->cap_tabs = k->cap_tabs ? k->cap_tabs * 2 : 64;
				k->tabs = xrealloc(k->tabs, k->cap_tabs * sizeof(*k->tabs));
				memset(k->tabs + k->ntabs, 0, (k->cap_tabs - k->ntabs) * sizeof(*k->tabs));
			}
			if (!k->tabs[k->ntabs])
				k->tabs[k->ntabs] = xcalloc(1, sizeof(struct sctable));
			t = k->tabs[k->ntabs++];
			sctable_clear(t);
			sctable_merge(t, src);
			if (j)
				e->err = t;
			else
				e->sc = t;
		}
	}
	for (i = 0; i < s->nwithheld; i++)
		sample_add_withheld(d, s->withheld[i]);
	for (i = 0; i < s->nexits; i++)
		sample_add_exit(d, s->exits[i]);
	for (i = 0; i < s->nunfocus; i++)
		sample_add_unfocus(d, s->unfocus[i]);
	for (i = 0; i < s->nfinals; i++)
		*sample_add_final(d) = s->finals[i];
	d->have_exit_totals = s->have_exit_totals;
	d->exits_lost = s->exits_lost;
	d->exits_lost_unknown = s->exits_lost_unknown;
	for (i = 0; i < s->nflows; i++)
		*sample_add_flow(d) = s->flows[i];
	for (i = 0; i < s->nconns; i++)
		*sample_add_conn(d) = s->conns[i];
	d->have_totals = s->have_totals;
	memcpy(d->ev_total, s->ev_total, sizeof(d->ev_total));
	d->lost = s->lost;
	d->lost_unknown = s->lost_unknown;
	for (i = 0; i < s->ncgres; i++) {
		struct cg_reading *c = sample_add_cgres(d);

		*c = s->cgres[i];
		c->dir = strpool_get(pool, s->cgres[i].dir);
	}
}

static void kept_clear(struct kept *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		sample_reset(&k->v[i]);
	k->n = 0;
	k->ntabs = 0;
}

static void kept_free(struct kept *k)
{
	size_t i;

	for (i = 0; i < k->ninit; i++)
		sample_free(&k->v[i]);
	for (i = 0; i < k->cap_tabs; i++) {
		if (k->tabs[i])
			sctable_free(k->tabs[i]);
		free(k->tabs[i]);
	}
	free(k->v);
	free(k->tabs);
	memset(k, 0, sizeof(*k));
}

/*
 * A new file while recording: it starts with the two intervals before,
 * hidden, their samples stored whole from the first (a keyframe), so that
 * its first interval is shown with its rates, and finds what its samples
 * speak of (a task that left, a zombie reaped, a late row) as they found it
 * when recorded. As a jump does (store/replay.c).
 */
/* Whether a sample of the baseline has @id's exit record already. */
static bool baseline_has_final(const struct record *r, pid_t id)
{
	size_t i, j;
	int k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < r->kept[k].n; i++)
			for (j = 0; j < r->kept[k].v[i].nfinals; j++)
				if (r->kept[k].v[i].finals[j].id == id)
					return true;
	return false;
}

/*
 * The first baseline interval's last sample, given the exit records of the
 * zombies still listed whose record came before the baseline (then taken
 * back: the kept sample is as it was). Returns how many it had.
 */
static size_t baseline_add_zombies(struct record *r, struct sample *s)
{
	size_t n = s->nfinals, i;

	for (i = 0; i < r->nzfin; i++)
		if (!baseline_has_final(r, r->zfin[i].f.id)) {
			struct task_final *f = sample_add_final(s);

			*f = r->zfin[i].f;
			f->born = false;
		}
	return n;
}

static int put_baseline(struct record *r)
{
	const struct recsample_tables tb = { .arg = r, .id = table_id };
	int k, first = 1;
	size_t i;

	recmem_keyframe(&r->mem);
	for (k = 0; k < 2; k++) {
		struct kept *t = &r->kept[k];
		size_t nf = 0;

		if (!t->n)
			continue;
		r->tick.len = 0;
		if (first)
			nf = baseline_add_zombies(r, &t->v[t->n - 1]);
		for (i = 0; i < t->n; i++)
			if (recsample_encode(&r->tick, &r->mem, &t->v[i], &tb))
				return -1;
		if (first)
			t->v[t->n - 1].nfinals = nf;
		if (put_session(r, &r->sess, first, false, t->v[0].wall_s) ||
		    put_interval(r, t->v[0].mono_ns, t->v[0].wall_s,
				 (first ? RI_KEYFRAME : 0) | RI_HIDDEN | RI_SESSION, NULL, &r->tick))
			return -1;
		r->seq++;
		first = 0;
	}
	return 0;
}

static int write_tick(struct record *r, const struct model *m)
{
	struct rsession s;
	unsigned flags = 0;
	bool restart = !r->have_prev;

	session_of(m, &s);
	if (!r->have_session || !session_eq(&s, &r->sess)) {
		bool clear = r->have_session && s.threads != r->sess.threads;

		if (put_session(r, &s, restart, clear, m->wall_s))
			return -1;
		flags |= RI_SESSION;
	}
	if (r->keyframe)
		flags |= RI_KEYFRAME;
	if (put_interval(r, m->t_now, m->wall_s, flags, m, &r->tick) || put_tasks(r, m))
		return -1;
	if (recnames_write(r->st_names, &m->names, &r->names_written) != SQLITE_OK)
		return db_error(r, "write");
	return 0;
}

/*
 * A tick begins: its transaction, in a new file when the name changed (its
 * baseline first), its samples stored whole when it is a keyframe. 0, or -1.
 */
static int begin_tick(struct record *r, const struct sample *s)
{
	char path[PATH_MAX];
	bool new_file = file_name(r->o.pattern, s->wall_s, path, sizeof(path)) == 0 &&
			strcmp(path, r->natural);

	if (new_file) {
		char old[PATH_MAX];
		bool unused = r->db && r->made && !r->file_ticks;

		/* A new day (or hour...): the old file is closed whole, a new one starts. */
		snprintf(old, sizeof(old), "%s", r->path);
		close_file(r);
		/* Made at the start, the first tick in the next second: no interval, no file. */
		if (unused)
			remove_recording(old);
		if (open_free(r, path)) {
			/* Said (record_notice): the ticks until the next name are not recorded. */
			r->paused = true;
			return 0;
		}
		if (r->paused)
			note(r, "recording again, to %s", r->path);
		r->paused = false;
		remove_old(r, s->wall_s);
	}
	if (r->paused)
		return 0;
	if (exec(r, "BEGIN"))
		return -1;
	/* The tables the samples name go into the file in the tick's transaction. */
	r->keyframe = !r->have_prev || r->lost_tick ||
		      s->mono_ns - r->keyframe_mono >= (uint64_t)(r->o.keyframe_s * 1e9);
	r->lost_tick = false;
	if (new_file && r->have_prev) {
		if (put_baseline(r))
			return -1;
		r->keyframe = false;
		r->keyframe_mono = r->kept[0].n ? r->kept[0].v[0].mono_ns : r->kept[1].v[0].mono_ns;
	} else if (r->keyframe) {
		recmem_keyframe(&r->mem);
		r->keyframe_mono = s->mono_ns;
	}
	r->tick.len = 0;
	return 0;
}

/* The kept exit record of @id, or NULL. */
static struct zfinal *zfinal_of(const struct record *r, pid_t id)
{
	uintptr_t j = (uintptr_t)pidmap_get(&r->zidx, id);

	return j ? &r->zfin[j - 1] : NULL;
}

/* @s's exit records, kept while their processes may stay listed (record_tick prunes). */
static void keep_finals(struct record *r, const struct sample *s)
{
	size_t i;

	for (i = 0; i < s->nfinals; i++) {
		struct zfinal *z = zfinal_of(r, s->finals[i].id);

		if (!z) {
			if (r->nzfin == r->cap_zfin) {
				r->cap_zfin = r->cap_zfin ? r->cap_zfin * 2 : 16;
				r->zfin = xrealloc(r->zfin, r->cap_zfin * sizeof(*r->zfin));
			}
			z = &r->zfin[r->nzfin++];
			pidmap_put(&r->zidx, s->finals[i].id, (void *)(uintptr_t)r->nzfin);
		}
		*z = (struct zfinal){ s->finals[i], r->seq, -1 };
	}
}

/* The kept records of zombies @s read, marked as read in this interval. */
static void note_zombies_read(struct record *r, const struct sample *s)
{
	size_t i;

	for (i = 0; i < s->ntasks && r->nzfin; i++) {
		struct zfinal *z = s->tasks[i].stat.state == 'Z' ? zfinal_of(r, s->tasks[i].pid) : NULL;

		if (z)
			z->read = r->seq;
	}
}

/*
 * A keyframe's last sample comes after the exit records of the zombies /proc
 * read in it whose record an earlier interval gave: a jump decodes from the
 * keyframe and finds their rows with the record's numbers, not /proc's (a
 * zombie's stat leaves out its exit's own work). Read in order, giving one
 * again changes nothing: the task has it (apply_final sets the same counts).
 * 0, or -1.
 */
static int regive_finals(struct record *r)
{
	const struct recsample_tables tb = { .arg = r, .id = table_id };
	struct sample s;
	size_t i;
	int rc;

	sample_init(&s);
	for (i = 0; i < r->nzfin; i++)
		if (r->zfin[i].read == r->seq && r->zfin[i].given != r->seq) {
			struct task_final *f = sample_add_final(&s);

			*f = r->zfin[i].f;
			f->born = false;
		}
	rc = s.nfinals ? recsample_encode(&r->tick, &r->mem, &s, &tb) : 0;
	sample_free(&s);
	return rc ? -1 : 0;
}

/* Only the records of processes the model still lists as zombies stay kept. */
static void prune_finals(struct record *r, const struct model *m)
{
	size_t i, n = 0;

	for (i = 0; i < r->nzfin; i++) {
		const struct task *t = model_task_find(m, r->zfin[i].f.id);

		if (t && t->zombie_exited && t->state == 'Z')
			r->zfin[n++] = r->zfin[i];
	}
	if (n == r->nzfin)
		return;
	r->nzfin = n;
	pidmap_clear(&r->zidx);
	for (i = 0; i < n; i++)
		pidmap_put(&r->zidx, r->zfin[i].f.id, (void *)(uintptr_t)(i + 1));
}

void record_sample(struct record *r, const struct sample *s)
{
	const struct recsample_tables tb = { .arg = r, .id = table_id };

	if ((!r->db && !r->paused) || r->failed)
		return;
	if (s->begin) {
		if (r->in_tick && r->db) {
			/* The rows its samples' tables made went too: found again, they are written again. */
			sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
			r->lost_tick = true;
			dedup_clear(&r->tables);
			sccache_clear(&r->tabcache);
			memset(r->sc_seen, 0, sizeof(r->sc_seen));
			memset(r->errno_seen, 0, sizeof(r->errno_seen));
		}
		kept_clear(&r->kept[2]);
		r->in_tick = true;
		if (begin_tick(r, s)) {
			r->failed = true;
			return;
		}
	}
	if (!r->in_tick)
		return;
	/* Only a name with conversions changes: the copies a new file's baseline needs. */
	if (r->rotates)
		keep_sample(&r->kept[2], s, &r->mem.pool);
	note_zombies_read(r, s);
	if (r->db && s->end && r->keyframe && regive_finals(r))
		r->failed = true;
	keep_finals(r, s);
	if (r->db && recsample_encode(&r->tick, &r->mem, s, &tb))
		r->failed = true;
}

int record_tick(struct record *r, const struct model *m, char *err, size_t errsz)
{
	struct kept k;

	if (!r->db && !r->failed && !r->paused)
		return -1;
	/* No sample of this tick was taken (recording started mid-tick): nothing to say. */
	if (!r->in_tick && !r->failed)
		return 0;
	r->in_tick = false;
	if (r->paused && !r->failed) {
		/* No file for this name: the interval is not written, a new file's baseline kept. */
		r->st.unrecorded++;
		goto keep;
	}
	if (r->failed || !r->db || write_tick(r, m) || exec(r, "COMMIT")) {
		snprintf(err, errsz, "recording stopped: %s", r->err);
		if (r->db)
			sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		close_file(r);
		return -1;
	}
	r->seq++;
	r->have_prev = true;
	r->file_ticks++;
keep:
	prune_finals(r, m);
	/* The last two ticks' samples: a new file's baseline. */
	k = r->kept[0];
	r->kept[0] = r->kept[1];
	r->kept[1] = r->kept[2];
	r->kept[2] = k;
	return 0;
}
