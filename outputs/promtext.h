/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROMTEXT_H
#define KTOP_PROMTEXT_H

/*
 * A writer of metric families in the Prometheus text format 0.0.4 and in
 * OpenMetrics 1.0.0, into a growable buffer. Pure: no I/O, no global state
 * (but for a "C" locale object made once, so that numbers never take the
 * user's decimal comma).
 *
 * Use: a family is made once (prom_family_new) and lives as long as the
 * exporter, because its series cap is sticky across scrapes. At each scrape:
 *
 *	prom_buf_reset(&buf);
 *	for each family f:
 *		prom_family_begin(f);
 *		prom_family_add_u64(f, (const char *[]){ comm, "read" }, n);  ...
 *		prom_family_write(f, &buf, fmt);
 *		dropped += prom_family_dropped(f);
 *	prom_write_eof(&buf, fmt);
 *	if (buf.nomem) ... 500
 *
 * Names. A family is named without the counter suffix: "ktop_syscalls" is
 * written as "# TYPE ktop_syscalls counter" and samples "ktop_syscalls_total"
 * in OpenMetrics, and as "# TYPE ktop_syscalls_total counter" in the text
 * format. A unit ("seconds") is written as "# UNIT" in OpenMetrics only, and
 * must end the family's name ("ktop_cpu_seconds"), as OpenMetrics requires.
 *
 * Label values are arbitrary bytes (process names, cgroup paths): written as
 * valid UTF-8. Each byte that does not start a valid UTF-8 sequence (RFC 3629:
 * no overlong forms, no surrogates, nothing past U+10FFFF) becomes U+FFFD, and
 * so does each control character but newline (C0, DEL, C1: they could drive
 * the terminal of whoever reads the metrics); each invisible code point
 * (cp_invisible, lib/util.h: U+202E and the other bidi controls, zero-width
 * and format characters) becomes '?', as the text output and CSV show it;
 * newline, backslash and double quote are escaped (\n \\ \"). An empty value
 * is written as label="". Label sets are compared after this mapping: two
 * names that differ only in their invalid bytes are one series, whose value
 * is the sum of both.
 *
 * Series cap (max_series, 0 = none). A family has at most max_series series of
 * its own plus one overflow series whose label values are all "other"; what
 * does not get its own series is summed into the overflow series, and counted
 * (prom_family_dropped) so that the caller can expose it. The rule:
 *  - counters: sticky. A label set that gets a series keeps it for as long
 *    as it is offered at every write; slots are given to label sets in the
 *    order they are first offered (within one scrape, largest value first)
 *    until max_series are taken, and given back only by a label set left out
 *    of a write (its group expired: it is gone, as a process that ended).
 *    Every later label set is in the overflow series, for as long as it is
 *    offered (at every write). So no series ever moves between its own series and the
 *    overflow, and each stays monotonic. The overflow counter adds, at each
 *    write, the increase of each of its members since the previous write (its
 *    whole value for a member new to it or whose value went down, as rate()
 *    counts a reset): it never decreases, even when a member stops being
 *    offered.
 *  - gauges: the largest max_series values of each scrape get their own
 *    series; the rest are summed into the overflow series.
 * A label set that is all "other" (a process named "other") is always summed
 * into the overflow series, which would otherwise be written twice. The
 * overflow series of a counter, once written, is written at every later scrape.
 * The caller offers every label set of a counter at every scrape for as long
 * as it exists (a group whose processes all exited, with its final counts):
 * one that is left out and offered again later counts whole again in the
 * overflow, as a new member (and its own series looks reset to Prometheus).
 *
 * Memory: a family holds its definition, the keys of at most max_series label
 * sets, and the label sets and values offered at its last scrape (reused; it
 * grows to the largest scrape seen, not with time).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum prom_format {
	PROM_FMT_TEXT,		/* text/plain; version=0.0.4 */
	PROM_FMT_OPENMETRICS,	/* application/openmetrics-text; version=1.0.0 */
};

enum prom_type {
	PROM_COUNTER,
	PROM_GAUGE,
	/*
	 * Fixed buckets (prom_family_new_hist): samples NAME_bucket{le=...}
	 * (cumulative, +Inf last), NAME_sum, NAME_count. Offered with
	 * prom_family_add_hist; capped as counters are (each bucket and the
	 * sum of the overflow series advance by its members' increases).
	 */
	PROM_HISTOGRAM,
};

/* The type of a family's values: exact integers, or doubles (seconds, ratios). */
enum prom_value {
	PROM_U64,
	PROM_DOUBLE,
};

/* Content-Type headers of the two formats. */
#define PROM_CONTENT_TYPE_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define PROM_CONTENT_TYPE_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

/*
 * A growable byte buffer; zero-initialise it. @data is owned by the buffer and
 * NUL-terminated once anything was written. An allocation failure sets @nomem
 * and stops further appends: the contents are then incomplete and must not be
 * served.
 */
struct prom_buf {
	char *data;
	size_t len, cap;
	bool nomem;
};

/* Empty the buffer for a new scrape, keeping its memory. */
void prom_buf_reset(struct prom_buf *b);
void prom_buf_free(struct prom_buf *b);

struct prom_family_def {
	const char *name;	/* [a-zA-Z_:][a-zA-Z0-9_:]*, without "_total" */
	enum prom_type type;
	enum prom_value value;
	const char *unit;	/* NULL or "": none; else name ends in "_" unit */
	const char *help;	/* any text; NULL or "": no HELP line */
	const char *const *labels;	/* label names [a-zA-Z_][a-zA-Z0-9_]*, not "__..." */
	size_t nlabels;
	size_t max_series;	/* 0: no cap */
};

struct prom_family;

/*
 * Make a family from @def (copied: @def's strings need not outlive the call).
 * Returns NULL with a reason in @err when @def is invalid (a bad name, a
 * counter named "..._total", a unit that does not end the name, a duplicate
 * label) or on ENOMEM. Free it with prom_family_free().
 */
struct prom_family *prom_family_new(const struct prom_family_def *def, char *err,
				    size_t errlen);
/*
 * The same for a PROM_HISTOGRAM: @bounds, its buckets' @nbounds upper
 * bounds, increasing and finite (+Inf is added), copied.
 */
struct prom_family *prom_family_new_hist(const struct prom_family_def *def, const double *bounds,
					 size_t nbounds, char *err, size_t errlen);
void prom_family_free(struct prom_family *f);

/* Start a scrape: forget the samples offered at the previous one. */
void prom_family_begin(struct prom_family *f);

/*
 * The owner (a uid; -1: none) of the samples offered next in this scrape
 * (prom_family_begin forgets it). With owners named, a counter family's
 * slots are shared out per owner as the groups are (max-min): when
 * newcomers find no free slot, an owner holding two more slots than a
 * newcomer's owner gives up its smallest label set, whose series ends and
 * which counts in the overflow from then on (from its value then: the
 * overflow stays monotonic and counts no increase twice).
 */
void prom_family_owner(struct prom_family *f, int64_t owner);

/*
 * Offer a sample: @values holds the family's nlabels label values, raw bytes,
 * NUL-terminated (NULL when nlabels is 0); they are copied. A label set offered
 * twice in one scrape is one series: the values are added. A family's values
 * are of one type: prom_family_add_u64 for PROM_U64 (and prom_family_add_double
 * is converted for it, rounded down and clamped to [0, 2^64-1]), doubles for
 * PROM_DOUBLE. A counter's NaN or negative double is not written (counted by
 * prom_family_invalid()).
 * Returns 0, or -ENOMEM (the sample is lost; the write still works).
 */
int prom_family_add_u64(struct prom_family *f, const char *const *values, uint64_t v);
int prom_family_add_double(struct prom_family *f, const char *const *values, double v);
/*
 * A histogram's sample: @counts holds nbounds + 1 counts, bucket by bucket
 * (not cumulative: the last one past the last bound), @sum the sum of the
 * observations. Offered twice in one scrape, the counts and sums add.
 * Returns 0, or -ENOMEM.
 */
int prom_family_add_hist(struct prom_family *f, const char *const *values,
			 const uint64_t *counts, double sum);

/*
 * A sample as the exposition writes it, for an encoder other than the text
 * (remote write's protobuf, outputs/rwproto.h): the series' name is @name
 * then @suffix ("_total" for a counter, "_bucket", "_sum" or "_count" for a
 * histogram's series, else ""); @labels in the family's order (a histogram's
 * "le" included). A value is as the text writes it: mapped to valid UTF-8
 * and escaped (\\ \" \n), @len bytes, not NUL-terminated; an empty one is
 * label="" in the text.
 */
struct prom_label {
	const char *name;
	const char *value;
	size_t len;
};

struct prom_sample {
	const char *name, *suffix;
	const struct prom_label *labels;
	size_t nlabels;
	enum prom_value type;
	uint64_t u;		/* PROM_U64 */
	double d;		/* PROM_DOUBLE */
};

/*
 * Where a family goes: the text in @fmt appended to @text (when not NULL),
 * and each sample to @sample (when not NULL; called with @ctx, in the order
 * of the text's lines; a non-zero return is the write's). Both at once: one
 * rendering serves a --textfile and a push.
 */
struct prom_out {
	struct prom_buf *text;
	enum prom_format fmt;
	int (*sample)(void *ctx, const struct prom_sample *s);
	void *ctx;
};

/*
 * Write the family (its HELP, TYPE, UNIT lines and the samples offered since
 * prom_family_begin, capped as described above) to @o. A family with no
 * sample is written as its metadata lines alone (valid in both formats).
 * Writing the same samples again (the other format, a push, or a second
 * scrape of an unchanged model) gives the same series and values.
 * Returns 0, -ENOMEM (@o->text->nomem is then set), or @o->sample's error.
 */
int prom_family_emit(struct prom_family *f, const struct prom_out *o);
/* prom_family_emit to the text @out in @fmt alone. */
int prom_family_write(struct prom_family *f, struct prom_buf *out, enum prom_format fmt);

/*
 * One sample written by hand (a family type the writer above does not
 * make): its line in @o->text and the sample to @o->sample, as
 * prom_family_emit does. Returns 0, -ENOMEM or @o->sample's error.
 */
int prom_emit_sample(const struct prom_out *o, const struct prom_sample *s);

/* Label sets summed into the overflow series by the last write. */
size_t prom_family_dropped(const struct prom_family *f);
/* Samples not written since the family was made: counters' NaN or negative values. */
uint64_t prom_family_invalid(const struct prom_family *f);

/* End the exposition: "# EOF\n" in OpenMetrics, nothing in the text format. */
int prom_write_eof(struct prom_buf *out, enum prom_format fmt);
/* The same for @o: its text, if any. */
int prom_out_eof(const struct prom_out *o);

/*
 * Helpers, exposed for the tests and for a caller that writes by hand:
 * append @s as a label value (the mapping above, without the quotes), and a
 * value the way the family writer does (integers exact; doubles the shortest
 * decimal that reads back to the same double; +Inf, -Inf, NaN).
 */
int prom_put_label_value(struct prom_buf *out, const char *s, size_t len);
int prom_put_u64(struct prom_buf *out, uint64_t v);
int prom_put_double(struct prom_buf *out, double v);

#endif
