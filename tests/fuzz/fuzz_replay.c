// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the replayer (store/replay.c) on any bytes as a
 * recording. The seeds are real recordings (tests/fuzz/corpus/replay, made
 * by ktop -w and shrunk with VACUUM); mutated, they are damaged files, files
 * that are SQLite but not ktop's, ktop's with hostile values. The hostile-*
 * seeds are recordings with a hostile schema: a table a view over an endless
 * recursive query (it spun for ever), a virtual table, a default, a generated
 * column that builds a 100 MB text. The refs-* seeds (tests/helpers/recbomb.c)
 * ask for much in a few bytes: tasks that take the one before's 64 KiB
 * command line, tasks with their own, rows that each name one syscall
 * table, an interval's tasks in several samples; mutated, they ask for more.
 * The replay counts what a file makes it hold against its limits, here lower
 * (replay_opts) so that what they let through stays under run.sh's RSS limit
 * (-rss_limit_mb): a way around the count is a find. Every interval is applied
 * to a model and written by the batch writer, then a jump to each interval is
 * tried: an error is fine, a crash, a leak or a hang (run.sh's -timeout) is a
 * find.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../store/replay.h"
#include "../../tables/columns.h"
#include "../../model/model.h"
#include "../../tables/rows.h"
#include "../../outputs/batch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void write_file(const uint8_t *data, size_t size)
{
	char side[80];
	int fd;

	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/ktop-fuzz-replay-%d.db", (int)getpid());
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
}

/* Apply up to @max intervals; write each shown one (text and JSON, syscalls). */
static int play(struct replay *r, struct model *m, struct sample *s, FILE *out, int max)
{
	static const int cols[] = { COL_PID, COL_USER, COL_STATE, COL_CPU, COL_MEM, COL_SYSC,
				    COL_TOPSC, COL_VCSW, COL_TIME, COL_CGROUP, COL_CMDLINE };
	struct batch b = { .out = out, .cols = cols, .ncols = sizeof(cols) / sizeof(cols[0]),
			   .syscalls = true };
	char err[320];
	bool shown;
	int n = 0, rc;

	rowset_init(&b.rows);
	while (n < max && (rc = replay_next(r, s, &shown, err, sizeof(err))) == 1) {
		model_apply(m, s);
		if (!shown)
			continue;
		b.fmt = n % 2 ? OUT_JSON : OUT_TEXT;
		batch_write(&b, m);
		n++;
	}
	sample_reset(s);
	rowset_free(&b.rows);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* 20,000 tasks are ~40 MB; strings and tables then take at most 32 + 64 MiB. */
	static const struct replay_opts o = { .strings_max_mib = 32, .tables_max_mib = 64,
					      .tasks_max = 20000 };
	struct replay *r;
	struct model m;
	struct sample s;
	char err[320];
	FILE *out;
	int64_t seq;
	int n;

	write_file(data, size);
	if (replay_open(path, &o, &r, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();	/* one line, always */
		return 0;
	}
	out = fopen("/dev/null", "w");
	model_init(&m, 100, 4);
	sample_init(&s);
	model_set_session(&m, replay_first_session(r));
	n = play(r, &m, &s, out, 64);
	for (seq = 1; seq <= n + 2 && seq < 40; seq++) {
		if (replay_seek(r, seq, err, sizeof(err)) == 0)
			play(r, &m, &s, out, 2);
	}
	if (replay_find_time(r, 0, &seq, err, sizeof(err)) == 1)
		replay_step_seq(r, seq, 1, &seq, err, sizeof(err));
	sample_free(&s);
	model_free(&m);
	replay_close(r);
	fclose(out);
	return 0;
}
