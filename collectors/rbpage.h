/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_RBPAGE_H
#define KTOP_RBPAGE_H

/*
 * collectors/rbpage: the records of one ring-buffer sub-buffer, walked by the
 * rules of the kernel's own reader (kernel/trace/ring_buffer.c: rb_event_length,
 * rb_update_read_stamp). Both decoders (evdecode: counting; evrich: the focus
 * view's full events) walk pages with it. By hand rather than with kbuffer:
 * twice the records per CPU second in a syscall flood, and bounded by the page
 * at every step (pages come from the kernel, but the walk trusts nothing).
 *
 * A sub-buffer: a u64 time stamp, the commit word (bytes of records; its top
 * bits say events were missed before this page, and whether their count is
 * stored after the records), then records. Each record starts with a u32:
 * type_len in the low 5 bits, a time delta in the other 27. The walk assumes
 * a 64-bit little-endian host reading its own kernel's buffers
 * (rbpage_host_ok).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RBPAGE_HDR_SIZE 16

/* The fields every record starts with (include/linux/trace_events.h). */
#define RB_COMMON_FLAGS_OFF 2
#define RB_COMMON_PID_OFF 4
#define RB_COMMON_SIZE 8
/* common_flags bits of interrupt context: hardirq, softirq, NMI. */
#define RB_FLAG_IRQ_CONTEXT (0x08 | 0x10 | 0x40)

struct rbpage {
	const uint8_t *data;	/* the records */
	unsigned len, off;	/* bytes of records; the next one's offset */
	uint64_t ts;		/* the time of the record last returned */
	uint64_t malformed;	/* records cut short or too short, on this page */
};

/* Can this host read its kernel's pages the way rbpage does? */
bool rbpage_host_ok(void);

/*
 * rbpage_load - start on the sub-buffer @sub of @size bytes
 * @missed: set to the events the kernel lost before this page: 0, a count,
 *          or -1 when it lost some but did not say how many
 *
 * Returns 0, or -EINVAL when the header does not fit @size.
 */
int rbpage_load(struct rbpage *p, const void *sub, size_t size, long *missed);

/* What rbpage_next does with anything but a plain data record. */
bool rbpage_skip(struct rbpage *p, uint32_t hdr);

/*
 * rbpage_next - the next data record, or NULL at the end of the page
 * @size: set to the record's payload bytes (at least RB_COMMON_SIZE)
 *
 * p->ts is the record's time. Inline: it runs once per event.
 */
static inline const uint8_t *rbpage_next(struct rbpage *p, unsigned *size)
{
	for (;;) {
		uint32_t hdr, type, arr, n;
		const uint8_t *rec;

		if (p->len - p->off < 4)
			return NULL;
		memcpy(&hdr, p->data + p->off, 4);
		type = hdr & 0x1f;
		if (type > 28) {	/* padding, time extend, absolute time stamp */
			if (!rbpage_skip(p, hdr))
				return NULL;
			continue;
		}
		if (type) {		/* 1..28: the payload is type_len words */
			rec = p->data + p->off + 4;
			n = type * 4;
		} else {		/* a long record: the next word has its length */
			if (p->len - p->off < 8)
				return NULL;
			memcpy(&arr, p->data + p->off + 4, 4);
			rec = p->data + p->off + 8;
			n = arr - 4;	/* arr counts itself */
			if (arr < 4)
				n = p->len;	/* refused below */
		}
		if (n > p->len - (unsigned)(rec - p->data)) {
			p->malformed++;
			p->off = p->len;
			return NULL;
		}
		p->off = (unsigned)(rec - p->data) + n;
		p->ts += hdr >> 5;
		if (n < RB_COMMON_SIZE) {
			p->malformed++;
			continue;
		}
		*size = n;
		return rec;
	}
}

#endif
