/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RWPROTO_H
#define KTOP_RWPROTO_H

/*
 * outputs/rwproto: Prometheus remote write 1.0's body. The series are those of
 * a text exposition (promtext.h's text format, what /metrics serves), each
 * with one sample at the given time, the external labels added, as a
 * protobuf WriteRequest:
 *
 *	WriteRequest { repeated TimeSeries timeseries = 1; }
 *	TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
 *	Label        { string name = 1; string value = 2; }
 *	Sample       { double value = 1; int64 timestamp = 2; }   (ms since 1970)
 *
 * labels sorted by name, __name__ among them; then snappy's block format
 * (not its framing format), as the specification wants. Pure: no I/O.
 */

#include <stddef.h>
#include <stdint.h>

struct rw_label {
	const char *name, *value;
};

/* A WriteRequest, snappy-compressed. */
struct rw_body {
	char *data;		/* malloc'd, the caller's */
	size_t len;
	size_t samples;		/* series (one sample each) */
	size_t raw_len;		/* the protobuf before snappy */
};

/*
 * Encode the exposition @text (@len bytes) with @nlabels external labels
 * (a series' own label of the same name wins, as Prometheus's external
 * labels). Returns 0, -EINVAL if a line is not of the text format (the
 * reason in @err), or -ENOMEM.
 */
int rw_encode(const char *text, size_t len, int64_t ts_ms, const struct rw_label *ext,
	      size_t nlabels, struct rw_body *out, char *err, size_t errlen);

/* For tests: decode a WriteRequest (not compressed) back to text lines. */
int rw_decode_text(const char *pb, size_t len, char **text, size_t *text_len);

#endif
