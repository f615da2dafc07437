/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RWPROTO_H
#define KTOP_RWPROTO_H

/*
 * outputs/rwproto: Prometheus remote write 1.0's body. The series are those of
 * the exposition (what /metrics serves), each with one sample at the given
 * time, the external labels added, as a protobuf WriteRequest:
 *
 *	WriteRequest { repeated TimeSeries timeseries = 1; }
 *	TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
 *	Label        { string name = 1; string value = 2; }
 *	Sample       { double value = 1; int64 timestamp = 2; }   (ms since 1970)
 *
 * labels sorted by name, __name__ among them; then snappy's block format
 * (not its framing format), as the specification wants. Pure: no I/O.
 *
 * A push is encoded from the samples as the exposition is rendered
 * (rw_writer, a promtext.h prom_out's encoder): no text is written and read
 * back. rw_encode reads a text exposition instead; both give the same bytes
 * for the same series (tests/unit/test_rwproto.c).
 */

#include <stddef.h>
#include <stdint.h>

#include "promtext.h"

struct rw_label {
	const char *name, *value;
};

/* A WriteRequest, snappy-compressed. */
struct rw_body {
	char *data;		/* rw_encode: malloc'd, the caller's; rw_writer_end: the writer's */
	size_t len;
	size_t samples;		/* series (one sample each) */
	size_t raw_len;		/* the protobuf before snappy */
};

/*
 * The encoder of the samples of one exposition at a time; its buffers are
 * kept from one to the next. @ext, the external labels (@nlabels; copied): a
 * series' own label of the same name wins, as Prometheus's external labels.
 * An empty label value is no label, as Prometheus reads a page. NULL on ENOMEM.
 *
 *	rw_writer_begin(w, ts);
 *	metrics_emit(mx, h, &(struct prom_out){ .sample = rw_writer_sample, .ctx = w });
 *	rw_writer_end(w, &body, err, errlen);
 */
struct rw_writer *rw_writer_new(const struct rw_label *ext, size_t nlabels);
void rw_writer_free(struct rw_writer *w);
/* A new WriteRequest, its samples at @ts_ms. */
void rw_writer_begin(struct rw_writer *w, int64_t ts_ms);
/* prom_out's sample callback (@ctx the writer): one TimeSeries. 0 or -ENOMEM. */
int rw_writer_sample(void *ctx, const struct prom_sample *s);
/*
 * The WriteRequest compressed, in @out: its data is the writer's, valid until
 * the next rw_writer_begin (kept: a body this size is a fresh mapping each
 * time otherwise). 0, or -ENOMEM (said in @err) of any sample or here.
 */
int rw_writer_end(struct rw_writer *w, struct rw_body *out, char *err, size_t errlen);

/*
 * Encode the text exposition @text (@len bytes). Returns 0, -EINVAL if a
 * line is not of the text format (the reason in @err), or -ENOMEM.
 */
int rw_encode(const char *text, size_t len, int64_t ts_ms, const struct rw_label *ext,
	      size_t nlabels, struct rw_body *out, char *err, size_t errlen);

/* For tests: decode a WriteRequest (not compressed) back to text lines. */
int rw_decode_text(const char *pb, size_t len, char **text, size_t *text_len);

#endif
