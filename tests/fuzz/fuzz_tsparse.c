// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the taskstats netlink parser on any bytes, over an
 * exact-size copy (ASan sees a read one byte past what recv returned).
 * Invariants beyond "no crash": the record bound taskparse.h promises
 * (N / TS_RECORD_MIN_BYTES + 1 records for N bytes) holds, so nothing
 * overflows an array sized by it; every comm is NUL-terminated; a group record
 * has no thread; the start window of any record, with exit bounds taken from
 * the input, is ordered.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/exits/taskparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The family id the seeds were captured with (Linux 6.18 here). */
#define FAMILY 31

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t max = size / TS_RECORD_MIN_BYTES + 1, n, i;
	struct taskparse_stats st = { 0 };
	char *buf = malloc(size ? size : 1);
	struct taskparse_exit *e = malloc(max * sizeof(*e));
	uint64_t lo, hi;

	if (!buf || !e)
		goto out;
	if (size)
		memcpy(buf, data, size);
	n = taskparse(buf, size, FAMILY, e, max, &st);
	if (n > max || st.overflow)
		abort();
	for (i = 0; i < n; i++) {
		if (!memchr(e[i].comm, '\0', sizeof(e[i].comm)))
			abort();
		if (e[i].group && e[i].tid)
			abort();
		e[i].exit_lo_ns = e[i].minflt;
		e[i].exit_hi_ns = e[i].majflt;
		if (taskparse_start_window(&e[i], (long)(e[i].nvcsw % 2000), &lo, &hi) && lo > hi)
			abort();
		taskparse_exit_is(&e[i], e[i].tid, e[i].nivcsw, 100);
	}
out:
	free(e);
	free(buf);
	return 0;
}
