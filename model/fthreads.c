// SPDX-License-Identifier: GPL-2.0-only
/*
 * A focused process's threads and their state split with its history
 * (model/fproc.h, struct fthread): put by the focus collector each tick from
 * the counting instance's per-thread numbers, the ones the process's row is
 * the sum of, so that the process view's thread table adds up to its row.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fproc.h"
#include "../lib/util.h"

/* Ticks a thread stays listed without news (exited, or forgotten by the source). */
#define THREAD_KEEP 3

static struct fthread *thread_of(struct fproc *fp, pid_t tid)
{
	struct fthread *th;
	size_t i;
	int s;

	for (i = 0; i < fp->nthr; i++)
		if (fp->thr[i].tid == tid)
			return &fp->thr[i];
	if (fp->nthr == FPROC_THREADS) {
		fp->over_cur++;
		return NULL;
	}
	/* Grown one at a time: a process has its threads for long, and the bound is small. */
	fp->thr = xrealloc(fp->thr, (fp->nthr + 1) * sizeof(*fp->thr));
	th = &fp->thr[fp->nthr++];
	memset(th, 0, sizeof(*th));
	th->tid = tid;
	/* Nothing known of it before it came: its earlier ticks are not zeros. */
	for (s = 0; s < FS_NR; s++)
		for (i = 0; i < FPROC_HIST; i++)
			th->hist[s][i] = NAN;
	return th;
}

void fproc_thread_put(struct fproc *fp, pid_t tid, const char *comm, const uint64_t ns[FS_NR],
		      bool known, bool exited)
{
	struct fthread *th = thread_of(fp, tid);

	if (!th)
		return;
	if (comm && comm[0])
		snprintf(th->comm, sizeof(th->comm), "%.15s", comm);
	th->put = true;
	th->known = known;
	th->exited |= exited;
	memcpy(th->cur, ns, sizeof(th->cur));
}

void fproc_threads_tick(struct fproc *fp, double interval_s)
{
	size_t i = 0;
	int s;

	fp->threads_over = fp->over_cur;
	fp->over_cur = 0;
	while (i < fp->nthr) {
		struct fthread *th = &fp->thr[i];

		for (s = 0; s < FS_NR; s++)
			th->hist[s][fp->hist_pos] = th->put && th->known && interval_s > 0 ?
						    (float)((double)th->cur[s] / interval_s) : NAN;
		if (th->put)
			th->unseen = 0;
		else if (++th->unseen > THREAD_KEEP) {
			fp->thr[i] = fp->thr[--fp->nthr];
			continue;
		}
		th->put = false;
		memset(th->cur, 0, sizeof(th->cur));
		i++;
	}
}

bool fproc_thread_hist(const struct fproc *fp, const struct fthread *th, enum fp_state st,
		       size_t back, double *out)
{
	float v;

	if (back >= fp->hist_n)
		return false;
	v = th->hist[st][(fp->hist_pos + FPROC_HIST - 1 - back) % FPROC_HIST];
	if (isnan(v))
		return false;
	*out = v;
	return true;
}
