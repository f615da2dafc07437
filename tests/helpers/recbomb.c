// SPDX-License-Identifier: GPL-2.0-only
/*
 * A recording that asks a replay for much memory in few bytes, for
 * tests/cli/record.bats and the replay fuzzer's seeds (tests/fuzz/fuzz_replay.c).
 *
 *	recbomb [-d] [-i INTERVALS] [-l BYTES] [-p PARTS] [-s SYSCALLS] FILE TASKS
 *
 * FILE gets one session of INTERVALS intervals (default 1), each adding TASKS
 * new tasks to those before (pids from 1000 on), whose command line is BYTES
 * long (default 65,536, the most ktop reads). Without -d every task's is the
 * same: the encoder (store/recsample.c) stores each new task as the one
 * before, "its command line" included, a byte or two: 5,000 tasks of 64 KiB
 * are a 36 KB file. With -d each has its own (they deflate well: the file
 * stays small, the replay must hold every one). With -s each task has a row
 * of events too, all with the same syscall table (its id) of SYSCALLS
 * entries, each timed (a histogram): a table the model copies into each task.
 * With -p an interval's tasks come in PARTS samples, a share each (no live
 * source does: /proc's are one sample): the model has them all.
 *
 * Only what a replay reads is written (schema, session, intervals), as the
 * recorder writes it: the same schema, encoder and deflate stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <sqlite3.h>

#include "../../lib/rcstr.h"
#include "../../lib/sctable.h"
#include "../../lib/util.h"
#include "../../store/recfmt.h"
#include "../../store/recsample.h"

static void die(const char *what, sqlite3 *db)
{
	fprintf(stderr, "recbomb: %s: %s\n", what, db ? sqlite3_errmsg(db) : "failed");
	exit(1);
}

/* The one table of -s: sctab's row 1. */
static int64_t table_id(void *arg, const struct sctable *t, bool err)
{
	(void)arg;
	(void)t;
	return err ? 0 : 1;
}

/* sctab's row 1: @n syscalls, each called and timed once. */
static void put_table(sqlite3 *db, struct sctable *t, size_t n)
{
	struct recbuf b = { 0 };
	struct lathist h = { { 0 } };
	sqlite3_stmt *st;
	uint32_t nr;

	h.n[3] = 1;
	for (nr = 0; nr < n; nr++) {
		struct sc_stat *s = sctable_get(t, nr);

		s->calls = s->timed = 1;
		s->time_ns = s->max_ns = 5000;
		sctable_put_hist(t, s, &h);
	}
	recfmt_sc_encode(&b, t);
	if (sqlite3_prepare_v2(db, "INSERT INTO sctab VALUES (1, ?)", -1, &st, NULL) != SQLITE_OK)
		die("prepare", db);
	sqlite3_bind_text(st, 1, (const char *)b.p, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		die("sctab", db);
	sqlite3_finalize(st);
	recbuf_free(&b);
}

/* @b deflated on the stream @zs (the recorder's: one from the keyframe on), after its length. */
static void deflate_interval(z_stream *zs, const struct recbuf *b, struct recbuf *z)
{
	int rc;

	z->len = 0;
	rec_put_bytes(z, (const uint8_t[4]){ (uint8_t)(b->len >> 24), (uint8_t)(b->len >> 16),
					     (uint8_t)(b->len >> 8), (uint8_t)b->len }, 4);
	zs->next_in = b->p;
	zs->avail_in = (uInt)b->len;
	do {
		size_t room = deflateBound(zs, zs->avail_in) + 64;

		if (z->cap - z->len < room) {
			z->cap = z->len + room;
			z->p = xrealloc(z->p, z->cap);
		}
		zs->next_out = z->p + z->len;
		zs->avail_out = (uInt)(z->cap - z->len);
		rc = deflate(zs, Z_SYNC_FLUSH);
		z->len = z->cap - zs->avail_out;
	} while (rc == Z_OK && !zs->avail_out);
	if (rc != Z_OK || zs->avail_in)
		die("deflate", NULL);
}

/* The command line of task @i: "bomb", then 'x's to @len bytes (-d: @i's number in them). */
static char *cmdline(size_t i, size_t len, bool distinct)
{
	char *c = xmalloc(len), *s;

	memset(c, 'x', len);
	memcpy(c, "bomb", len < 5 ? len : 5);
	if (distinct && len > 24)
		snprintf(c + 5, 20, "%zu", i);
	s = rcstr_new(c, len);
	free(c);
	return s;
}

/* Task @i (pid 1000 + @i), with @cmd (@len bytes; NULL: not read again, the same life). */
static void add_task(struct sample *s, size_t i, char *cmd, size_t len)
{
	struct task_reading *r = sample_add_task(s);

	r->pid = r->tgid = r->stat.pid = (pid_t)(1000 + i);
	snprintf(r->stat.comm, sizeof(r->stat.comm), "bomb");
	r->stat.state = 'S';
	r->stat.ppid = 1;
	r->stat.starttime = 100;
	r->uid = 0;
	r->cmdline = cmd;
	r->cmdline_len = cmd ? len : 0;
}

int main(int argc, char **argv)
{
	const struct recsample_tables tb = { .id = table_id };
	size_t ntasks, nint = 1, len = 65536, nsc = 0, nparts = 1, i, k;
	struct sctable tab = { 0 };
	bool distinct = false;
	struct recbuf b = { 0 }, z = { 0 };
	struct recmem mem;
	struct sample s;
	sqlite3_stmt *st;
	char *same = NULL;
	z_stream zs = { 0 };
	sqlite3 *db;
	char sql[256];
	int opt;

	while ((opt = getopt(argc, argv, "di:l:p:s:")) != -1) {
		if (opt == 'd')
			distinct = true;
		else if (opt == 'i')
			nint = strtoul(optarg, NULL, 10);
		else if (opt == 'l')
			len = strtoul(optarg, NULL, 10);
		else if (opt == 'p')
			nparts = strtoul(optarg, NULL, 10);
		else if (opt == 's')
			nsc = strtoul(optarg, NULL, 10);
		else
			goto usage;
	}
	if (argc - optind != 2 || !nint || !len || len > 65536 || nsc > SC_KEY_NR_MASK || !nparts)
		goto usage;
	ntasks = strtoul(argv[optind + 1], NULL, 10);
	unlink(argv[optind]);
	if (sqlite3_open(argv[optind], &db) != SQLITE_OK)
		die("open", db);
	/* A session that counted system calls: a replay says nothing of tracing. */
	snprintf(sql, sizeof(sql), "PRAGMA application_id=%d; PRAGMA user_version=%d; BEGIN;"
		 " INSERT INTO session VALUES (1, 1700000000, 'bomb', 'Linux', 'recbomb', 100, 4, 0,"
		 " %d, -1, '', '', 1, 0, 0, '')", RECFMT_APP_ID, RECFMT_VERSION, 1 << CNT_SYSCALLS);
	if (sqlite3_exec(db, recfmt_schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die("schema", db);
	if (sqlite3_prepare_v2(db, "INSERT INTO interval (seq, mono_ns, wall, flags, samples)"
			       " VALUES (?, ?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
		die("prepare", db);
	if (nsc)
		put_table(db, &tab, nsc);
	if (deflateInit(&zs, 6) != Z_OK)
		die("deflateInit", NULL);
	recmem_init(&mem);
	sample_init(&s);
	if (!distinct)
		same = cmdline(0, len, false);
	for (k = 0; k < nint; k++) {
		size_t n = (k + 1) * ntasks, part;

		b.len = 0;
		for (part = 0; part < nparts; part++) {
			s.begin = part == 0;
			s.end = part == nparts - 1;
			for (i = part * n / nparts; i < (part + 1) * n / nparts; i++)
				add_task(&s, i, i >= k * ntasks ? (same ? rcstr_ref(same) :
								   cmdline(i, len, true)) : NULL, len);
			for (i = 0; nsc && s.end && i < n; i++) {
				struct row_events *e = sample_add_row(&s);

				e->id = e->tgid = (pid_t)(1000 + i);
				e->n[CNT_SYSCALLS] = nsc;
				e->sc = &tab;
				snprintf(e->comm, sizeof(e->comm), "bomb");
			}
			if (recsample_encode(&b, &mem, &s, &tb))
				die("encode", NULL);
			sample_reset(&s);
		}
		if (b.len > RECFMT_SAMPLES_MAX) {
			fprintf(stderr, "recbomb: interval %zu: %zu bytes, more than a replay reads\n",
				k + 1, b.len);
			return 1;
		}
		deflate_interval(&zs, &b, &z);
		sqlite3_bind_int64(st, 1, (int64_t)k + 1);
		sqlite3_bind_int64(st, 2, (int64_t)(k + 1) * 1000000000);
		sqlite3_bind_double(st, 3, 1700000000.0 + (double)k);
		sqlite3_bind_int64(st, 4, k ? 0 : RI_KEYFRAME | RI_SESSION);
		sqlite3_bind_blob(st, 5, z.p, (int)z.len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			die("insert", db);
		sqlite3_reset(st);
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		die("commit", db);
	sqlite3_finalize(st);
	sqlite3_close(db);
	deflateEnd(&zs);
	rcstr_put(same);
	sctable_free(&tab);
	sample_free(&s);
	recmem_free(&mem);
	recbuf_free(&b);
	recbuf_free(&z);
	return 0;
usage:
	fprintf(stderr, "usage: recbomb [-d] [-i INTERVALS] [-l BYTES] [-p PARTS] [-s SYSCALLS] FILE TASKS\n");
	return 2;
}
