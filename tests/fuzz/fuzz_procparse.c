// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: /proc/PID/stat and /proc/PID/status parsers on any bytes.
 * The input is copied to a buffer of exactly its size, so ASan sees a read one
 * byte past what pread returned. Invariants checked beyond "no crash": comm is
 * NUL-terminated within its array; a stat that parsed has a pid in range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/proc/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	struct pid_stat st;
	struct pid_status ss;

	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	if (procfs_parse_pid_stat(buf, size, &st) == 0) {
		if (st.pid <= 0 || !memchr(st.comm, '\0', sizeof(st.comm)))
			abort();
	}
	procfs_parse_pid_status(buf, size, &ss);
	free(buf);
	return 0;
}
