// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: sanitize_text (lib/util.c), the one function every
 * process-supplied string (comm, cmdline, user, event comm) goes through before
 * it reaches the terminal or the text and CSV output. Beyond "no crash", it
 * checks what the terminal must never get: C0 controls, DEL, C1 controls
 * (U+0080..U+009F, which some terminals obey as escapes) or invalid UTF-8 in
 * UTF-8 mode; any byte >= 0x80 in ASCII mode; and never more than the buffer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const char *out, size_t len, int utf8)
{
	const unsigned char *u = (const unsigned char *)out;
	size_t i = 0, n;

	if (out[len] != '\0' || strlen(out) != len)
		abort();
	while (i < len) {
		if (u[i] < 0x20 || u[i] == 0x7f)
			abort();
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		if (!utf8)
			abort();
		/* utf8_seq_len refuses C1 controls and invalid sequences. */
		n = utf8_seq_len(u + i, len - i);
		if (n < 2)
			abort();
		/* On a screen or in text, no bidi control or zero-width character. */
		if (utf8 == TEXT_UTF8 && cp_invisible(utf8_cp(u + i, n)))
			abort();
		i += n;
	}
	/* A cut by display width: at a character boundary, never wider than asked. */
	for (size_t want = 0; want < 12; want += 5) {
		size_t w, cut = text_fit(out, len, want, &w);

		if (cut > len || w > want || (cut < len && u[cut] >= 0x80 && !utf8_seq_len(u + cut, len - cut)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The first byte picks the destination size: tiny ones cut characters. */
	size_t dstsz = size ? (size_t)data[0] % 40 + 1 : 1;
	char *src = malloc(size ? size : 1), *dst = malloc(dstsz);
	size_t len;
	int utf8;

	if (!src || !dst)
		goto out;
	if (size)
		memcpy(src, data, size);
	for (utf8 = 0; utf8 <= TEXT_DATA; utf8++) {
		len = sanitize_text(dst, dstsz, src, size, utf8);
		if (len >= dstsz)
			abort();
		check(dst, len, utf8);
	}
out:
	free(src);
	free(dst);
	return 0;
}
