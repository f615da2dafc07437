/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_EVFORMAT_H
#define KTOP_EVFORMAT_H

/*
 * collectors/trace/evformat: what both decoders (evdecode: counting; evrich: the
 * focus view's full events) need from the kernel's event descriptions. At
 * start-up libtraceevent parses events/header_page and the format of each
 * tracepoint in use, once; the fields' offsets and sizes are kept, and the
 * per-event path reads them at fixed offsets with ev_num/ev_str, bounded by the
 * record. No I/O: the caller hands in the text.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tep_handle;

struct ev_field {
	int offset, size;	/* size 0: the field is missing on this kernel */
	bool is_signed, data_loc;
};

/*
 * evformat_init - a libtraceevent handle that knows the ring buffer's page
 * @page_size: set to the bytes of one sub-buffer
 *
 * Returns 0 or -errno (-EINVAL also when this host cannot walk its kernel's
 * pages: rbpage_host_ok, instance.h); *@tep, when set, is the caller's to
 * tep_free.
 */
int evformat_init(struct tep_handle **tep, int *page_size, const char *header_page, size_t len);

/*
 * evformat_add - parse one tracepoint's format and resolve its fields
 * @names: the fields wanted, NULL-terminated or @nmax long
 * @optional: a bit per field that may be missing (its size stays 0)
 * @out: @nmax fields
 * @min_size: set to the record size every wanted field fits in
 *
 * Returns the kernel's event id (>= 0), -EINVAL when the format lacks a field
 * that is not optional or places one outside a page, or -ENOMEM.
 */
int evformat_add(struct tep_handle *tep, int page_size, const char *system, const char *name,
		 const char *format, size_t len, const char *const *names, int nmax,
		 unsigned optional, struct ev_field *out, int *min_size);

/* A field as a signed or unsigned 64-bit number; 0 when the kernel lacks it. */
static inline long long ev_num(const uint8_t *rec, const struct ev_field *f)
{
	union { int8_t s8; uint8_t u8; int16_t s16; uint16_t u16; int32_t s32; uint32_t u32;
		int64_t s64; } v;

	switch (f->size) {
	case 1:
		memcpy(&v.u8, rec + f->offset, 1);
		return f->is_signed ? (long long)v.s8 : (long long)v.u8;
	case 2:
		memcpy(&v.u16, rec + f->offset, 2);
		return f->is_signed ? (long long)v.s16 : (long long)v.u16;
	case 4:
		memcpy(&v.u32, rec + f->offset, 4);
		return f->is_signed ? (long long)v.s32 : (long long)v.u32;
	case 8:
		memcpy(&v.s64, rec + f->offset, 8);
		return v.s64;
	default:
		return 0;
	}
}

/* An array field of @n bytes at least, in place; NULL when the kernel lacks it. */
static inline const uint8_t *ev_bytes(const uint8_t *rec, const struct ev_field *f, int n)
{
	return f->size >= n && !f->data_loc ? rec + f->offset : NULL;
}

/*
 * A string field of a record of @size bytes: fixed arrays in place, __data_loc
 * ones at the offset the record holds. NULL when it points outside the record;
 * *@len is the field's bytes (the text may end earlier, at a NUL).
 */
const char *ev_str(const uint8_t *rec, int size, const struct ev_field *f, size_t *len);

#endif
