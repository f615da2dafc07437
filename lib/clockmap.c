// SPDX-License-Identifier: GPL-2.0-only
#include "clockmap.h"

#include <string.h>

void clockmap_init(struct clockmap *m, double nominal, double quantum_ns)
{
	memset(m, 0, sizeof(*m));
	m->nominal = nominal;
	m->quantum_ns = quantum_ns;
}

static void ring_reset(struct clockmap *m, uint64_t raw, uint64_t mono)
{
	m->nring = 1;
	m->pos = 0;
	m->ring[0].raw = raw;
	m->ring[0].mono = mono;
}

static void ring_push(struct clockmap *m, uint64_t raw, uint64_t mono)
{
	unsigned i;

	if (m->nring < CLOCKMAP_RING) {
		i = (m->pos + m->nring++) % CLOCKMAP_RING;
	} else {
		i = m->pos;
		m->pos = (m->pos + 1) % CLOCKMAP_RING;
	}
	m->ring[i].raw = raw;
	m->ring[i].mono = mono;
}

/*
 * The rate across the samples kept: their reading errors divided by a span of
 * up to CLOCKMAP_RING ticks. Until they span CLOCKMAP_RATE_SPAN_NS the nominal
 * rate is closer (1.0 for a clock in ns: the two clocks' rates differ by the
 * NTP correction, parts per million), unless there is none.
 */
static double measured_rate(const struct clockmap *m)
{
	unsigned last = (m->pos + m->nring - 1) % CLOCKMAP_RING;
	uint64_t draw, dmono;

	if (m->nring < 2)
		return m->nominal;
	draw = m->ring[last].raw - m->ring[m->pos].raw;
	dmono = m->ring[last].mono - m->ring[m->pos].mono;
	if (!draw || m->ring[last].mono <= m->ring[m->pos].mono ||
	    (m->nominal > 0 && dmono < CLOCKMAP_RATE_SPAN_NS))
		return m->nominal;
	return (double)dmono / (double)draw;
}

static void push_seg(struct clockmap *m, uint64_t raw, uint64_t mono, double slope)
{
	if (m->nseg)
		m->cur = (m->cur + 1) % CLOCKMAP_SEGS;
	if (m->nseg < CLOCKMAP_SEGS)
		m->nseg++;
	m->seg[m->cur].raw = raw;
	m->seg[m->cur].mono = mono;
	/* At least 1: the mapping stays strictly increasing. */
	m->seg[m->cur].mult = slope * 4294967296.0 < 1 ? 1 : (uint64_t)(slope * 4294967296.0 + 0.5);
}

static uint64_t abs64(int64_t v)
{
	return v < 0 ? (uint64_t)-v : (uint64_t)v;
}

int clockmap_sample(struct clockmap *m, uint64_t raw, uint64_t lo, uint64_t hi)
{
	uint64_t mid, half, prev_mid = 0, v;
	unsigned last;
	double corr, dt;
	int64_t err;

	if (hi < lo || hi - lo > CLOCKMAP_MAX_BRACKET_NS ||
	    (m->nseg && raw <= m->seg[m->cur].raw)) {
		m->refused++;
		return -1;
	}
	/* The raw reading was taken somewhere between lo and hi. */
	mid = lo + (hi - lo) / 2;
	half = (hi - lo + 1) / 2 + (uint64_t)m->quantum_ns;
	if (m->nring) {
		last = (m->pos + m->nring - 1) % CLOCKMAP_RING;
		prev_mid = m->ring[last].mono;
	}
	ring_push(m, raw, mid);
	m->rate = measured_rate(m);
	if (m->rate <= 0)
		return 0;	/* a clock of unknown rate: the next sample says it */
	m->samples++;
	if (!m->nseg) {
		push_seg(m, raw, mid, m->rate);
		m->bound_ns = half;
		return 0;
	}
	v = clockmap_mono(m, raw);
	err = (int64_t)(mid - v);
	dt = mid > prev_mid && prev_mid ? (double)(mid - prev_mid) : 1e9;
	/* A drift is at most what a slew corrects (NTP's 500 ppm and more); beyond, a jump. */
	if ((double)abs64(err) > CLOCKMAP_STEP_NS + CLOCKMAP_SLEW * dt) {
		/* Not a drift: the clocks jumped apart. Start again from here. */
		m->steps++;
		ring_reset(m, raw, mid);
		m->rate = m->nominal > 0 ? m->nominal : m->rate;
		push_seg(m, raw, mid, m->rate);
		m->last_err_ns = err;
		m->bound_ns = half;
		return 0;
	}
	/*
	 * Slewed: the error is gone when the next sample is due (if it comes as
	 * long after as this one did), as far as CLOCKMAP_SLEW allows. Not
	 * sooner than CLOCKMAP_HORIZON_NS: after a short interval (ktop's first)
	 * the next may be long, and a slope set for a short one would carry
	 * the mapping past the truth by as much.
	 */
	corr = (double)err / (dt > CLOCKMAP_HORIZON_NS ? dt : CLOCKMAP_HORIZON_NS);
	if (corr > CLOCKMAP_SLEW)
		corr = CLOCKMAP_SLEW;
	if (corr < -CLOCKMAP_SLEW)
		corr = -CLOCKMAP_SLEW;
	push_seg(m, raw, v, m->rate * (1 + corr));
	m->last_err_ns = err;
	if (abs64(err) > m->max_err_ns)
		m->max_err_ns = abs64(err);
	/* At the new segment's start the mapping is |err| off, give or take the reading's error. */
	m->bound_ns = abs64(err) + half;
	return 0;
}
