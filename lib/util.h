/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_UTIL_H
#define KTOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define KTOP_VERSION "0.1.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/*
 * xrealloc for an array a flood makes large (the state split's records: tens
 * of MiB a second of context switches), keeping its first @used bytes: past
 * 2 MiB, in 2 MiB-aligned blocks the kernel is asked to back with huge pages,
 * a few page faults instead of one per 4 KiB (a fresh ktop spent an eighth of
 * its time on a context-switch flood faulting its arrays in). Freed with free().
 */
void *xrealloc_huge(void *p, size_t used, size_t n);
/*
 * qsort and qsort_r for arrays that may be empty: an empty vector's base is
 * often NULL, which qsort's contract forbids (UBSan stops there).
 */
void sort_array(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void sort_array_r(void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *, void *), void *arg);
char *xstrdup(const char *s);
/* FNV-1a of the string @s: the hash of the tables keyed by a path. */
size_t str_hash(const char *s);
/* Room for any uint64_t in decimal (20 digits) and a byte before it. */
#define U64_DEC_BUF 24
/*
 * @v in decimal, written backwards so that it ends at @end (no NUL): returns
 * its first digit. @end must have 20 bytes before it. For writers that put
 * many numbers a second (snprintf parses its format for each).
 */
char *u64_dec(char *end, uint64_t v);

/*
 * Strict number parsing for the command line and prompts: the whole string must be
 * the number, no sign surprises, no trailing junk. Return 0 or -EINVAL/-ERANGE.
 */
/*
 * Write the message of an error into @err (@errlen bytes; NULL or 0: none),
 * for callers that report one line; returns @ret, the error (-errno).
 */
int err_set(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

int parse_uint(const char *s, unsigned long long max, unsigned long long *out);
int parse_seconds(const char *s, double min, double max, double *out);

/* The delay between refreshes, one range for -d, the d key, F2 and the settings file. */
#define DELAY_MIN_S 0.01
#define DELAY_MAX_S 86400.0

/*
 * Copy @n bytes of untrusted text (a process name, a command line) into @dst so
 * that it is safe to print on a terminal: control bytes become '?', NUL bytes (the
 * cmdline argument separator) become spaces, and invalid UTF-8 becomes '?'.
 * Valid multi-byte UTF-8 is kept when @utf8 is not 0 (TEXT_UTF8, TEXT_DATA).
 * Always NUL-terminates.
 * Returns the length written.
 */
/* Length of the valid, printable UTF-8 sequence at @s (at most @n bytes), or 0. */
size_t utf8_seq_len(const unsigned char *s, size_t n);
/* The code point of the valid sequence of @len bytes at @s (utf8_seq_len's). */
unsigned utf8_cp(const unsigned char *s, size_t len);
/*
 * Code points that change how text around them shows without being seen:
 * bidirectional controls (U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069, which
 * can show a name reversed), Unicode's format characters (general category Cf:
 * U+00AD, zero-width U+200B-U+200D, U+2060-U+2064, U+FEFF, ...) and the line
 * and paragraph separators U+2028/U+2029. Shown as '?' like controls.
 */
bool cp_invisible(unsigned cp);

/*
 * sanitize_text's @utf8. TEXT_UTF8: valid UTF-8 kept, invisible code points
 * as '?': whatever is shown or written as text (screens, text, CSV; the
 * Prometheus label values write them '?' too, outputs/promtext.c). TEXT_DATA:
 * valid UTF-8 kept whole, for sorting, filtering and JSON (which escapes the
 * invisible ones itself, as \uXXXX: batch_json_string); never written as it is.
 */
#define TEXT_UTF8 1
#define TEXT_DATA 2
size_t sanitize_text(char *dst, size_t dstsz, const char *src, size_t n, int utf8);

/* Display width (terminal cells) of sanitized text: wide CJK 2, combining marks 0. */
size_t text_width(const char *s, size_t n);
/*
 * The longest prefix of sanitized @s (@n bytes) that fits in @maxw cells, cut at
 * a character boundary: its length in bytes; its width in *@w.
 */
size_t text_fit(const char *s, size_t n, size_t maxw, size_t *w);
/* @s cut or padded with spaces to exactly @width cells, into @dst. */
const char *text_pad(char *dst, size_t dstsz, const char *s, size_t width);

#endif
