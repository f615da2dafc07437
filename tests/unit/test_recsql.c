// SPDX-License-Identifier: GPL-2.0-only
/*
 * A recording as sqlite3 reads it (store/recfmt.c's schema, store/record.c):
 * the views proc, task, syscall, syscall_error and sigflow give back what
 * the model was given, command lines stored as the middle of an earlier one
 * included (text and blob, cut between UTF-8 characters), and a short-lived
 * process costs few bytes there (issue 22: atop stores none of them).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../model/model.h"
#include "../../store/record.h"
#include "../../lib/rcstr.h"
#include "../../lib/util.h"
#include "fixture.h"
#include "test.h"

#define NIDLE 200	/* read every tick, never a call */
#define NSHORT 30	/* short-lived processes a tick, all alike: a loop's ls */
#define NTICK 12
#define PARENT 999	/* their shell: calls every tick, their SIGCHLDs */
#define SPECIAL 8	/* processes of tick 0 with command lines of one family */
#define SC_READ 0
#define SC_OPENAT 257
#define SC_WAIT4 61

/*
 * Command lines as /proc gives them (NUL after each argument) that share
 * their beginning and end: a compiler's (text), one split inside a UTF-8
 * character (é and ê differ in their second byte), one with a space in an
 * argument (a blob).
 */
static size_t special_cmd(int i, char *out, size_t size)
{
	int n;

	switch (i % 4) {
	case 0:
	case 1:
		n = snprintf(out, size, "cc|-O2|-g|-std=gnu11|-Wall|-Wextra|-Ilib|-c|-o|build/f%03d.o|"
			     "src/f%03d.c|-MMD|-MP|-fstack-protector-strong|", i, i);
		break;
	case 2:
		n = snprintf(out, size, "printf|%%s|\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3%c"
			     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9|", i < 4 ? 0xa9 : 0xaa);
		break;
	default:
		n = snprintf(out, size, "sh|-c|echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %d; "
			     "sleep 1 # bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb|", i);
		break;
	}
	for (char *p = out; *p; p++)
		if (*p == '|')
			*p = '\0';
	return (size_t)n;
}

static void reading(struct sample *s, pid_t pid, pid_t ppid, const char *comm, const char *cmd,
		    size_t len)
{
	struct task_reading *r = fx_reading(s, pid, comm);

	r->stat.ppid = ppid;
	r->uid = 0;
	r->user = "root";
	r->cgroup = "/user.slice";
	if (cmd) {
		r->cmdline = rcstr_new(cmd, len);
		r->cmdline_len = len;
	}
}

static void row(struct sample *s, pid_t pid, struct sctable *sc, struct sctable *err,
		bool exited)
{
	struct row_events *e = fx_row(s, pid, "", exited);

	e->n[CNT_SYSCALLS] = sc->used;
	e->sc = sc;
	e->err = err->used ? err : NULL;
}

static int64_t query(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The file's pages now (the WAL's included), as a reader sees them. */
static int64_t file_bytes(const char *path)
{
	sqlite3 *db;
	int64_t v = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
		v = query(db, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
	sqlite3_close(db);
	return v;
}

/* The command line of tick 0's special process @i as the view proc gives it, compared. */
static void check_cmdline(sqlite3 *db, int i)
{
	char want[512], sql[128];
	size_t len = special_cmd(i, want, sizeof(want)), k;
	bool text = true;
	sqlite3_stmt *st;

	for (k = 0; k + 1 < len; k++)
		if (want[k] == ' ')
			text = false;
	snprintf(sql, sizeof(sql), "SELECT cmdline FROM proc WHERE pid = %d", 2000 + i);
	if (!CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK))
		return;
	if (CHECK(sqlite3_step(st) == SQLITE_ROW)) {
		const char *got = sqlite3_column_blob(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0);

		CHECK_EQ_I64(sqlite3_column_type(st, 0), text ? SQLITE_TEXT : SQLITE_BLOB);
		if (text) {
			for (k = 0; k + 1 < len; k++)
				if (!want[k])
					want[k] = ' ';
			len--;
		}
		if (!CHECK(n == len && !memcmp(got, want, len)))
			printf("# process %d: %.*s\n", i, (int)n, got);
	}
	sqlite3_finalize(st);
}

static void test_views_and_bytes(void)
{
	char dir[] = "/tmp/ktop-test-recsql-XXXXXX", f[128], err[640], cmd[512];
	struct record_opts o = { .pattern = f };
	struct sctable ls_sc = { 0 }, ls_err = { 0 }, sh_sc = { 0 }, none = { 0 };
	struct record *rec = NULL;
	struct model m;
	struct sample s;
	int64_t bytes1 = 0, bytes2;
	pid_t next = 3000;
	sqlite3 *db;
	int k, i;

	if (!CHECK(mkdtemp(dir)))
		return;
	snprintf(f, sizeof(f), "%s/q.db", dir);
	model_init(&m, 100, 4);
	m.event_counters = 1u << CNT_SYSCALLS;
	m.exit_records = true;
	sample_init(&s);
	sctable_get(&ls_sc, SC_READ)->calls = 40;
	sctable_get(&ls_sc, SC_OPENAT)->calls = 12;
	sctable_get(&ls_sc, SC_OPENAT)->errors = 2;
	sctable_get(&ls_sc, SC_OPENAT)->top_errno = 2;
	sctable_get(&ls_err, sc_err_key(SC_OPENAT, 2))->errors = 2;
	sctable_get(&sh_sc, SC_WAIT4)->calls = NSHORT;
	if (!CHECK(record_open(&o, 1700000000.0, &rec, err, sizeof(err)) == 0)) {
		printf("# %s\n", err);
		goto out;
	}
	for (k = 0; k < NTICK; k++) {
		s.begin = s.end = true;
		s.mono_ns = 1000000000ull * (uint64_t)(k + 1);
		s.wall_s = 1700000000.0 + k;
		/* The sources give a command line once a life: the first tick. */
		for (i = 0; i < NIDLE; i++)
			reading(&s, 1000 + i, 1, "idle", k ? NULL : "idle\0", 5);
		reading(&s, PARENT, 1, "sh", k ? NULL : "sh\0-c\0loop\0", 11);
		row(&s, PARENT, &sh_sc, &none, false);
		for (i = 0; !k && i < SPECIAL; i++) {
			size_t len = special_cmd(i, cmd, sizeof(cmd));

			reading(&s, 2000 + i, PARENT, "special", cmd, len);
		}
		for (i = 0; i < NSHORT; i++, next++) {
			struct sig_flow *fl = sample_add_flow(&s);

			reading(&s, next, PARENT, "ls", "ls\0-la\0/usr/share/doc\0", 22);
			row(&s, next, &ls_sc, &ls_err, true);
			fl->sender = next;
			fl->receiver = PARENT;
			fl->sig = 17;
			fl->n = 1;
		}
		record_sample(rec, &s);
		model_apply(&m, &s);
		sample_reset(&s);
		if (!CHECK(record_tick(rec, &m, err, sizeof(err)) == 0)) {
			printf("# %s\n", err);
			break;
		}
		if (k == 1)
			bytes1 = file_bytes(f);
	}
	bytes2 = file_bytes(f);
	record_close(rec);
	/*
	 * A short-lived process: its life row, its SIGCHLD, its samples (a
	 * reading, a row of events, its exit): 37 bytes here. Format 4 took 81
	 * (a life row with its texts, a task row, the flow's 20 bytes of JSON).
	 */
	CHECK(bytes1 > 0 && bytes2 > bytes1);
	printf("# %lld bytes a short-lived process\n",
	       (long long)((bytes2 - bytes1) / (NSHORT * (NTICK - 2))));
	CHECK((bytes2 - bytes1) / (NSHORT * (NTICK - 2)) <= 60);
	if (!CHECK(sqlite3_open_v2(f, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK))
		goto out;
	CHECK_EQ_I64(query(db, "SELECT count(*) FROM proc"), NIDLE + 1 + SPECIAL + NSHORT * NTICK);
	/* Alike lives share one row of kind: the idle ones, the ls of the loop. */
	CHECK_EQ_I64(query(db, "SELECT count(DISTINCT kind) FROM life WHERE pid >= 3000"), 1);
	CHECK_EQ_I64(query(db, "SELECT count(DISTINCT kind) FROM life WHERE pid < 1000 + 200"), 2);
	CHECK_EQ_I64(query(db, "SELECT count(*) FROM proc WHERE comm = 'ls' AND ppid = 999 AND"
			       " user = 'root' AND cmdline = 'ls -la /usr/share/doc'"), NSHORT * NTICK);
	for (i = 0; i < SPECIAL; i++)
		check_cmdline(db, i);
	/* Some were stored as the middle of an earlier one. */
	CHECK(query(db, "SELECT count(*) FROM text WHERE base IS NOT NULL") >= 4);
	/* Each interval's calls: the shell's in every interval, each ls's in its one. */
	CHECK_EQ_I64(query(db, "SELECT count(*) FROM task AS t JOIN proc AS p ON p.id = t.proc"
			       " WHERE p.pid = 999"), NTICK);
	CHECK_EQ_I64(query(db, "SELECT sum(calls) FROM syscall AS s JOIN proc AS p ON p.id = s.proc"
			       " WHERE p.pid = 999 AND s.nr = 61"), NSHORT * NTICK);
	CHECK_EQ_I64(query(db, "SELECT count(DISTINCT s.seq) FROM syscall AS s JOIN proc AS p"
			       " ON p.id = s.proc WHERE p.pid = 999"), NTICK);
	CHECK_EQ_I64(query(db, "SELECT sum(calls) FROM syscall WHERE nr = 0"), 40 * NSHORT * NTICK);
	CHECK_EQ_I64(query(db, "SELECT sum(errors) FROM syscall WHERE nr = 257 AND last_errno = 2"),
		     2 * NSHORT * NTICK);
	CHECK_EQ_I64(query(db, "SELECT sum(count) FROM syscall_error WHERE nr = 257 AND errno = 2"),
		     2 * NSHORT * NTICK);
	/* Every SIGCHLD the model counted (from the second interval: the first is its baseline). */
	CHECK_EQ_I64(query(db, "SELECT count(*) FROM sigflow WHERE receiver = 999 AND signal = 17"
			       " AND result = 0 AND n = 1 AND sender >= 3000 + 30"), NSHORT * (NTICK - 1));
	CHECK_EQ_I64(query(db, "SELECT count(DISTINCT sender) FROM sigflow"), NSHORT * (NTICK - 1));
	sqlite3_close(db);
out:
	unlink(f);
	rmdir(dir);
	sample_free(&s);
	model_free(&m);
	sctable_free(&ls_sc);
	sctable_free(&ls_err);
	sctable_free(&sh_sc);
}

static const struct test tests[] = {
	{ "views_and_bytes", test_views_and_bytes },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
