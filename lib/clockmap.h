/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_CLOCKMAP_H
#define KTOP_CLOCKMAP_H

/*
 * lib/clockmap: a trace clock's time stamps ("raw": sched_clock ns, TSC
 * cycles) mapped to CLOCK_MONOTONIC ns, from calibration samples (a raw
 * reading taken between two CLOCK_MONOTONIC reads), one a tick.
 *
 * The mapping is a continuous, strictly increasing piecewise-linear
 * function of raw: each sample starts a segment at its raw time, at the
 * value the previous segment gives there (no step), with a slope that is
 * the measured rate corrected so that the error the sample showed is gone
 * one sample interval later (a slew, bounded by CLOCKMAP_SLEW). So the
 * order of any two raw stamps is kept, and so is a duration's length but
 * for the rate's error (parts per million at most). A sample's raw time
 * must be later than every stamp mapped before it (take it after the
 * buffers were read), so that a stamp's mapping never changes. Only an
 * error beyond CLOCKMAP_STEP_NS plus what CLOCKMAP_SLEW corrects in a
 * sample interval (the clock jumped: a VM resumed, a clock not
 * synchronized after all) starts a segment at the sample's own value: a
 * step, counted.
 */

#include <stdbool.h>
#include <stdint.h>

#define CLOCKMAP_SEGS 8		/* segments kept: stamps older map on the oldest */
#define CLOCKMAP_RING 64	/* samples the rate is measured across */
#define CLOCKMAP_SLEW 1e-3	/* at most 1000 ppm of correction */
#define CLOCKMAP_HORIZON_NS 1e9	/* an error is slewed away over this at least */
#define CLOCKMAP_STEP_NS 200000	/* an error beyond this (and a slew's worth) is stepped */
#define CLOCKMAP_MAX_BRACKET_NS 50000	/* a sample read slower is refused */
#define CLOCKMAP_RATE_SPAN_NS 1000000000ull	/* the rate measured once samples span this */

struct clockmap_seg {
	uint64_t raw, mono;	/* where the segment starts */
	uint64_t mult;		/* its slope, mono ns per raw unit, times 2^32 */
};

struct clockmap {
	struct clockmap_seg seg[CLOCKMAP_SEGS];
	unsigned nseg, cur;	/* seg[cur] is the newest */
	struct {
		uint64_t raw, mono;
	} ring[CLOCKMAP_RING];
	unsigned nring, pos;	/* ring[pos] is the oldest once full */
	double nominal;		/* the rate before one is measured; 0 = unknown */
	double quantum_ns;	/* a raw reading's rounding (the stats file prints us) */
	double rate;
	uint64_t samples, refused, steps;
	int64_t last_err_ns;	/* the error the last sample showed (truth - mapped) */
	uint64_t max_err_ns;	/* the largest |error| a sample showed, steps aside */
	uint64_t bound_ns;	/* how far a mapped time may be from the truth now */
};

/*
 * clockmap_init - an empty mapping
 * @nominal: mono ns per raw unit until the rate is measured (1.0 for a clock
 *           in ns), 0 when unknown (two samples are needed then)
 * @quantum_ns: how coarse a raw reading is, in ns
 */
void clockmap_init(struct clockmap *m, double nominal, double quantum_ns);

/*
 * clockmap_sample - a calibration sample: raw time @raw read between the
 * CLOCK_MONOTONIC readings @lo and @hi
 *
 * Returns 0 when it was taken, -1 when refused (read too slowly, or @raw
 * before the newest segment: the clock went back). clockmap_ready says
 * whether stamps can be mapped.
 */
int clockmap_sample(struct clockmap *m, uint64_t raw, uint64_t lo, uint64_t hi);

static inline bool clockmap_ready(const struct clockmap *m)
{
	return m->nseg > 0;
}

/* @d raw units on segment @s's slope, in ns: 32.32 fixed point, as exact as 2^-32 of a slope. */
static inline uint64_t clockmap_scale(const struct clockmap_seg *s, uint64_t d)
{
	return (uint64_t)(((unsigned __int128)d * s->mult) >> 32);
}

/* The segment that maps @raw: the newest that starts at or before it, else the oldest. */
static inline const struct clockmap_seg *clockmap_seg_of(const struct clockmap *m, uint64_t raw,
							  unsigned *idx)
{
	unsigned i = m->cur, left = m->nseg;

	while (raw < m->seg[i].raw && --left)
		i = i ? i - 1 : CLOCKMAP_SEGS - 1;
	*idx = i;
	return &m->seg[i];
}

/* The CLOCK_MONOTONIC time of raw stamp @raw (clockmap_ready first). */
static inline uint64_t clockmap_mono(const struct clockmap *m, uint64_t raw)
{
	unsigned i;
	const struct clockmap_seg *s = clockmap_seg_of(m, raw, &i);

	/* Before the oldest segment: its line, backwards. */
	if (raw < s->raw)
		return s->mono - clockmap_scale(s, s->raw - raw);
	return s->mono + clockmap_scale(s, raw - s->raw);
}

/*
 * A decoder's place in the mapping: the segment of the stamps it maps now,
 * and where the next begins. A CPU's stamps only grow within a page, so the
 * segment is looked up again only when a stamp leaves it.
 */
struct clockmap_cursor {
	struct clockmap_seg seg;
	uint64_t end;		/* the next segment's start; UINT64_MAX: none */
};

static inline void clockmap_seek(const struct clockmap *m, uint64_t raw, struct clockmap_cursor *c)
{
	unsigned i;
	const struct clockmap_seg *s = clockmap_seg_of(m, raw, &i);

	c->seg = *s;
	c->end = i == m->cur ? UINT64_MAX : m->seg[(i + 1) % CLOCKMAP_SEGS].raw;
	if (raw < s->raw) {
		/* Before the oldest: a segment of its line that starts at @raw (within 1 ns of it). */
		c->end = s->raw;
		c->seg.raw = raw;
		c->seg.mono = clockmap_mono(m, raw);
	}
}

/*
 * clockmap_mono through a cursor (clockmap_seek first): once per event. A
 * page's stamps grow, but one may come a little before the one before
 * (nested writes): looked up again, like one past the segment's end.
 */
static inline uint64_t clockmap_next(const struct clockmap *m, struct clockmap_cursor *c, uint64_t raw)
{
	if (raw < c->seg.raw || raw >= c->end)
		clockmap_seek(m, raw, c);
	return c->seg.mono + clockmap_scale(&c->seg, raw - c->seg.raw);
}

#endif
