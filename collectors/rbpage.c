// SPDX-License-Identifier: GPL-2.0-only
#include "rbpage.h"

#include <errno.h>

#define COMMIT_MASK ((1u << 27) - 1)
#define MISSED_EVENTS (1ull << 31)
#define MISSED_STORED (1ull << 30)
#define TYPE_PADDING 29		/* delta 0: nothing more on the page */
#define TYPE_TIME_EXTEND 30	/* a delta too large for 27 bits */
#define TYPE_TIME_STAMP 31	/* an absolute time stamp */
#define TS_SHIFT 27
#define TS_MSB (0xf8ull << 56)	/* bits an absolute time stamp lacks */

bool rbpage_host_ok(void)
{
	return sizeof(long) == 8 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

int rbpage_load(struct rbpage *p, const void *sub, size_t size, long *missed)
{
	uint64_t commit, ts;
	unsigned len;

	*missed = 0;
	if (size < RBPAGE_HDR_SIZE)
		return -EINVAL;
	memcpy(&ts, sub, sizeof(ts));
	memcpy(&commit, (const uint8_t *)sub + 8, sizeof(commit));
	len = (unsigned)(commit & COMMIT_MASK);
	if (len > size - RBPAGE_HDR_SIZE)
		return -EINVAL;
	p->data = (const uint8_t *)sub + RBPAGE_HDR_SIZE;
	p->len = len;
	p->off = 0;
	p->ts = ts;
	p->malformed = 0;
	if (commit & MISSED_EVENTS) {
		int64_t n = -1;

		if ((commit & MISSED_STORED) && (size_t)len + 8 <= size - RBPAGE_HDR_SIZE)
			memcpy(&n, p->data + len, sizeof(n));
		*missed = n < 0 ? -1 : (long)n;
	}
	return 0;
}

/* An absolute time stamp lacks the top bits: they come from the time before. */
static uint64_t fix_abs_ts(uint64_t abs, uint64_t prev)
{
	if (prev & TS_MSB) {
		abs |= prev & TS_MSB;
		if (abs < prev)
			abs += 1ull << 59;
	}
	return abs;
}

bool rbpage_skip(struct rbpage *p, uint32_t hdr)
{
	uint32_t arr, delta = hdr >> 5;

	if (p->len - p->off < 8)
		return false;
	memcpy(&arr, p->data + p->off + 4, 4);
	switch (hdr & 0x1f) {
	case TYPE_PADDING:
		/* Delta 0: the page ends here. Otherwise a discarded record, timeless. */
		if (!delta || arr > p->len - p->off - 4)
			return false;
		p->off += 4 + arr;
		return true;
	case TYPE_TIME_EXTEND:
		p->ts += ((uint64_t)arr << TS_SHIFT) + delta;
		break;
	case TYPE_TIME_STAMP:
		p->ts = fix_abs_ts(((uint64_t)arr << TS_SHIFT) | delta, p->ts);
		break;
	default:
		return false;
	}
	p->off += 8;
	return true;
}
