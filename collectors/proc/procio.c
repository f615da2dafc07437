// SPDX-License-Identifier: GPL-2.0-only
#include "procio.h"

#include <errno.h>
#include <string.h>

/* The file is seven lines of at most 20 digits each: 512 bytes hold it. */
#define PROCIO_BUF 512

/* The number after "@key: " at the start of a line of @buf, or -EINVAL. */
static int line_u64(const char *buf, size_t len, const char *key, uint64_t *out)
{
	size_t klen = strlen(key), i = 0;

	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;

		/* The kernel ends every line: one without its newline is cut, its number too. */
		if (nl && end - i > klen + 1 && !memcmp(buf + i, key, klen) && buf[i + klen] == ':') {
			const char *p = buf + i + klen + 1, *e = buf + end;
			uint64_t v = 0;
			bool digits = false;

			while (p < e && *p == ' ')
				p++;
			for (; p < e && *p >= '0' && *p <= '9'; p++) {
				uint64_t d = (uint64_t)(*p - '0');

				if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
					return -EINVAL;
				v = v * 10 + d;
				digits = true;
			}
			if (!digits || p != e)
				return -EINVAL;
			*out = v;
			return 0;
		}
		i = end + 1;
	}
	return -EINVAL;
}

int procio_parse(const char *buf, size_t len, struct procio *io)
{
	memset(io, 0, sizeof(*io));
	if (line_u64(buf, len, "read_bytes", &io->read_bytes) ||
	    line_u64(buf, len, "write_bytes", &io->write_bytes))
		return -EINVAL;
	/* Absent without CONFIG_TASK_IO_ACCOUNTING's full set: 0. */
	if (line_u64(buf, len, "cancelled_write_bytes", &io->cancelled_write_bytes))
		io->cancelled_write_bytes = 0;
	return 0;
}

int procio_read(struct fdcache *fc, struct pfile *pf, const char *dir, struct procio *io)
{
	char buf[PROCIO_BUF];
	ssize_t n = pfile_read(fc, pf, buf, sizeof(buf), "%s/io", dir);

	if (n < 0)
		return (int)n;
	if (n == 0 || n == (ssize_t)sizeof(buf))
		return -EIO;
	return procio_parse(buf, (size_t)n, io);
}
