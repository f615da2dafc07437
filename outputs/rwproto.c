// SPDX-License-Identifier: GPL-2.0-only
#include "rwproto.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/dlsnappy.h"
#include "../lib/util.h"

/* A growing byte buffer. */
struct bbuf {
	char *p;
	size_t len, cap;
	bool nomem;
};

static bool reserve(struct bbuf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->nomem)
		return false;
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->nomem = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

static void put(struct bbuf *b, const void *s, size_t n)
{
	if (n && reserve(b, n)) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	}
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* A varint at @o (room reserved); returns the byte after it. */
static unsigned char *varint_at(unsigned char *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (unsigned char)v;
	return o;
}

/* A length-delimited field: tag, length, bytes. */
static unsigned char *bytes_at(unsigned char *o, unsigned char tag, const char *s, size_t n)
{
	*o++ = tag;
	o = varint_at(o, n);
	memcpy(o, s, n);
	return o + n;
}

/* A label of the series being encoded: its bytes are the sample's, the writer's, or the scratch's. */
struct lab {
	const char *name, *value;
	size_t nlen, vlen;
	size_t len;		/* of its Label message */
};

struct rw_writer {
	struct bbuf pb;		/* the WriteRequest */
	struct bbuf scratch;	/* this series' name and unescaped values */
	struct lab *labs;
	size_t nlabs, cap_labs;
	struct rw_label *ext;	/* copies */
	size_t *ext_nlen, *ext_vlen;
	size_t next;
	struct bbuf out;	/* the compressed body, kept: no new mapping per push */
	int64_t ts;
	size_t samples;
	int err;		/* the first error of this request */
};

/* A label; an empty value is no label, as Prometheus reads the page. */
static bool add_lab(struct rw_writer *w, const char *n, size_t nl, const char *v, size_t vl)
{
	if (!vl)
		return true;
	if (w->nlabs == w->cap_labs) {
		size_t cap = w->cap_labs ? w->cap_labs * 2 : 16;
		struct lab *l = realloc(w->labs, cap * sizeof(*l));

		if (!l)
			return false;
		w->labs = l;
		w->cap_labs = cap;
	}
	w->labs[w->nlabs++] = (struct lab){ n, v, nl, vl, 0 };
	return true;
}

static int lab_cmp(const struct lab *a, const struct lab *b)
{
	size_t n = a->nlen < b->nlen ? a->nlen : b->nlen;
	int c = memcmp(a->name, b->name, n);

	return c ? c : (a->nlen > b->nlen) - (a->nlen < b->nlen);
}

static bool has_lab(const struct rw_writer *w, const char *n, size_t nl)
{
	size_t i;

	for (i = 0; i < w->nlabs; i++)
		if (w->labs[i].nlen == nl && !memcmp(w->labs[i].name, n, nl))
			return true;
	return false;
}

/*
 * The series in w->labs (its own labels) with @v: the external labels it
 * lacks added, sorted by name, one TimeSeries. Returns false on ENOMEM.
 */
static bool put_series(struct rw_writer *w, double v)
{
	size_t i, j, ts_len = 0, sample_len;
	unsigned char *o;
	uint64_t bits;

	for (i = 0; i < w->next; i++)
		if (!has_lab(w, w->ext[i].name, w->ext_nlen[i]) &&
		    !add_lab(w, w->ext[i].name, w->ext_nlen[i], w->ext[i].value, w->ext_vlen[i]))
			return false;
	/* Sorted by name (few labels: insertion). */
	for (i = 1; i < w->nlabs; i++) {
		struct lab t = w->labs[i];

		for (j = i; j > 0 && lab_cmp(&w->labs[j - 1], &t) > 0; j--)
			w->labs[j] = w->labs[j - 1];
		w->labs[j] = t;
	}
	for (i = 0; i < w->nlabs; i++) {
		struct lab *l = &w->labs[i];

		l->len = 1 + varint_len(l->nlen) + l->nlen + 1 + varint_len(l->vlen) + l->vlen;
		ts_len += 1 + varint_len(l->len) + l->len;
	}
	sample_len = 1 + 8 + 1 + varint_len((uint64_t)w->ts);
	ts_len += 1 + varint_len(sample_len) + sample_len;
	/* Room for the whole series at once, then written in place. */
	if (!reserve(&w->pb, 1 + varint_len(ts_len) + ts_len))
		return false;
	o = (unsigned char *)w->pb.p + w->pb.len;
	*o++ = 0x0a;
	o = varint_at(o, ts_len);
	for (i = 0; i < w->nlabs; i++) {
		const struct lab *l = &w->labs[i];

		*o++ = 0x0a;
		o = varint_at(o, l->len);
		o = bytes_at(o, 0x0a, l->name, l->nlen);
		o = bytes_at(o, 0x12, l->value, l->vlen);
	}
	*o++ = 0x12;
	o = varint_at(o, sample_len);
	*o++ = 0x09;
	memcpy(&bits, &v, sizeof(bits));
	for (i = 0; i < 8; i++)
		*o++ = (unsigned char)(bits >> (8 * i));
	*o++ = 0x10;
	o = varint_at(o, (uint64_t)w->ts);
	w->pb.len = (size_t)((char *)o - w->pb.p);
	w->samples++;
	return true;
}

/* ---- from the samples (promtext.h) ---- */

struct rw_writer *rw_writer_new(const struct rw_label *ext, size_t nlabels)
{
	struct rw_writer *w = calloc(1, sizeof(*w));
	size_t i;

	if (!w)
		return NULL;
	w->ext = calloc(nlabels ? nlabels : 1, sizeof(*w->ext));
	w->ext_nlen = calloc(nlabels ? nlabels : 1, sizeof(*w->ext_nlen));
	w->ext_vlen = calloc(nlabels ? nlabels : 1, sizeof(*w->ext_vlen));
	if (!w->ext || !w->ext_nlen || !w->ext_vlen)
		goto nomem;
	for (i = 0; i < nlabels; i++) {
		w->ext[i].name = strdup(ext[i].name);
		w->ext[i].value = strdup(ext[i].value);
		w->next++;
		if (!w->ext[i].name || !w->ext[i].value)
			goto nomem;
		w->ext_nlen[i] = strlen(ext[i].name);
		w->ext_vlen[i] = strlen(ext[i].value);
	}
	return w;
nomem:
	rw_writer_free(w);
	return NULL;
}

void rw_writer_free(struct rw_writer *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->next; i++) {
		free((char *)w->ext[i].name);
		free((char *)w->ext[i].value);
	}
	free(w->ext);
	free(w->ext_nlen);
	free(w->ext_vlen);
	free(w->out.p);
	free(w->pb.p);
	free(w->scratch.p);
	free(w->labs);
	free(w);
}

void rw_writer_begin(struct rw_writer *w, int64_t ts_ms)
{
	w->pb.len = 0;
	w->pb.nomem = false;
	w->scratch.nomem = false;
	w->ts = ts_ms;
	w->samples = 0;
	w->err = 0;
}

/* A value as the text's reader gets it: one NaN, no negative zero. */
static double text_value(const struct prom_sample *s)
{
	double v = s->type == PROM_DOUBLE ? s->d : (double)s->u;

	if (isnan(v))
		return NAN;
	return v == 0 ? 0.0 : v;
}

int rw_writer_sample(void *ctx, const struct prom_sample *s)
{
	struct rw_writer *w = ctx;
	size_t i, nl = strlen(s->name), sl = strlen(s->suffix), room = nl + sl;
	char *sc;

	if (w->err)
		return w->err;
	w->nlabs = 0;
	for (i = 0; i < s->nlabels; i++)
		room += s->labels[i].len;
	/* Reserved at once: the pointers into it stay valid for the series. */
	w->scratch.len = 0;
	if (!reserve(&w->scratch, room))
		goto nomem;
	sc = w->scratch.p;
	memcpy(sc, s->name, nl);
	memcpy(sc + nl, s->suffix, sl);
	w->scratch.len = nl + sl;
	if (!add_lab(w, "__name__", 8, sc, nl + sl))
		goto nomem;
	for (i = 0; i < s->nlabels; i++) {
		const struct prom_label *l = &s->labels[i];
		const char *v = l->value, *bs = memchr(v, '\\', l->len);
		size_t vl = l->len;

		/* Escaped (\\ \" \n): unescaped into the scratch; most values are as they are. */
		if (bs) {
			const char *p = v, *end = v + l->len;
			char *o = sc + w->scratch.len;

			v = o;
			while (p < end) {
				if (*p == '\\' && p + 1 < end) {
					p++;
					*o++ = *p == 'n' ? '\n' : *p;
					p++;
				} else {
					*o++ = *p++;
				}
			}
			vl = (size_t)(o - v);
			w->scratch.len += vl;
		}
		if (!add_lab(w, l->name, strlen(l->name), v, vl))
			goto nomem;
	}
	if (put_series(w, text_value(s)))
		return 0;
nomem:
	w->err = -ENOMEM;
	return w->err;
}

int rw_writer_end(struct rw_writer *w, struct rw_body *out, char *err, size_t errlen)
{
	size_t len = snappy_max_compressed_length(w->pb.len);

	memset(out, 0, sizeof(*out));
	w->out.len = 0;
	if (!w->err && !reserve(&w->out, len ? len : 1))
		w->err = -ENOMEM;
	if (!w->err && snappy_compress(w->pb.p ? w->pb.p : "", w->pb.len, w->out.p, &len) != SNAPPY_OK)
		w->err = -ENOMEM;
	if (w->err)
		return err_set(err, errlen, w->err, "remote write: out of memory");
	out->data = w->out.p;
	out->len = len;
	out->samples = w->samples;
	out->raw_len = w->pb.len;
	return 0;
}

/* ---- from a text exposition ---- */

/*
 * One sample line: name[{labels}] value. 0, -EINVAL or -ENOMEM. The scratch is
 * reserved for the whole line first (a value unescaped is never longer than
 * written): names and values are copied without a check each.
 */
static int parse_line(struct rw_writer *w, locale_t c, const char *p, const char *end)
{
	const char *name = p, *q;
	char num[64], *sc, *stop;
	size_t n;
	double v;

	w->nlabs = 0;
	w->scratch.len = 0;
	if (!reserve(&w->scratch, (size_t)(end - p)))
		return -ENOMEM;
	sc = w->scratch.p;
	while (p < end && *p != '{' && *p != ' ')
		p++;
	if (p == name)
		return -EINVAL;
	if (!add_lab(w, "__name__", 8, name, (size_t)(p - name)))
		return -ENOMEM;
	if (p < end && *p == '{') {
		p++;
		while (p < end && *p != '}') {
			const char *ln = p;
			size_t voff;

			q = memchr(p, '=', (size_t)(end - p));
			if (!q || q + 1 >= end || q[1] != '"')
				return -EINVAL;
			voff = n = w->scratch.len;
			p = q + 2;
			for (;;) {
				const char *run = p;

				while (run < end && *run != '"' && *run != '\\')
					run++;
				memcpy(sc + n, p, (size_t)(run - p));
				n += (size_t)(run - p);
				p = run;
				if (p >= end)
					return -EINVAL;
				if (*p == '"')
					break;
				if (++p >= end)
					return -EINVAL;
				sc[n++] = *p == 'n' ? '\n' : *p;
				p++;
			}
			p++;
			w->scratch.len = n;
			if (!add_lab(w, ln, (size_t)(q - ln), sc + voff, n - voff))
				return -ENOMEM;
			if (p < end && *p == ',')
				p++;
		}
		if (p >= end)
			return -EINVAL;
		p++;
	}
	if (p >= end || *p != ' ')
		return -EINVAL;
	p++;
	q = memchr(p, ' ', (size_t)(end - p));
	if (!q)
		q = end;
	if (q == p || (size_t)(q - p) >= sizeof(num))
		return -EINVAL;
	memcpy(num, p, (size_t)(q - p));
	num[q - p] = '\0';
	v = strtod_l(num, &stop, c);
	if (*stop)
		return -EINVAL;
	return put_series(w, v) ? 0 : -ENOMEM;
}

int rw_encode(const char *text, size_t len, int64_t ts_ms, const struct rw_label *ext,
	      size_t nlabels, struct rw_body *out, char *err, size_t errlen)
{
	struct rw_writer *w = rw_writer_new(ext, nlabels);
	const char *p = text, *end = text + len;
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	size_t line = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (!w || !c) {
		r = err_set(err, errlen, -ENOMEM, "remote write: out of memory");
		goto out;
	}
	rw_writer_begin(w, ts_ms);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		line++;
		if (le > p && *p != '#') {
			r = parse_line(w, c, p, le);
			if (r == -EINVAL) {
				err_set(err, errlen, r, "remote write: line %zu of the page is not of the text format",
					line);
				goto out;
			}
			if (r) {
				w->err = r;
				break;
			}
		}
		p = nl ? nl + 1 : end;
	}
	r = rw_writer_end(w, out, err, errlen);
	if (!r) {
		char *copy = malloc(out->len ? out->len : 1);

		if (copy)
			memcpy(copy, out->data, out->len);
		else
			r = err_set(err, errlen, -ENOMEM, "remote write: out of memory");
		out->data = copy;
	}
	if (r)
		memset(out, 0, sizeof(*out));
out:
	if (c)
		freelocale(c);
	rw_writer_free(w);
	return r;
}

/* ---- decoding, for tests ---- */

static bool get_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		unsigned char c = *(*p)++;

		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/* A length-delimited field @tag at *@p: its bytes. */
static bool get_field(const unsigned char **p, const unsigned char *end, unsigned char tag,
		      const unsigned char **f, size_t *flen)
{
	uint64_t n;

	if (*p >= end || **p != tag)
		return false;
	(*p)++;
	if (!get_varint(p, end, &n) || n > (uint64_t)(end - *p))
		return false;
	*f = *p;
	*flen = (size_t)n;
	*p += n;
	return true;
}

int rw_decode_text(const char *pb, size_t len, char **text, size_t *text_len)
{
	const unsigned char *p = (const unsigned char *)pb, *end = p + len;
	struct bbuf o = { 0 };
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);

	if (!c)
		return -ENOMEM;
	while (p < end) {
		const unsigned char *ts, *tend;
		size_t tlen;
		bool first = true;

		if (!get_field(&p, end, 0x0a, &ts, &tlen))
			goto bad;
		tend = ts + tlen;
		while (ts < tend && *ts == 0x0a) {
			const unsigned char *l, *lend, *n, *v;
			size_t llen, nl, vl;

			if (!get_field(&ts, tend, 0x0a, &l, &llen))
				goto bad;
			lend = l + llen;
			if (!get_field(&l, lend, 0x0a, &n, &nl) || !get_field(&l, lend, 0x12, &v, &vl))
				goto bad;
			put(&o, first ? "" : ",", first ? 0 : 1);
			put(&o, n, nl);
			put(&o, "=\"", 2);
			put(&o, v, vl);
			put(&o, "\"", 1);
			first = false;
		}
		while (ts < tend) {
			const unsigned char *s, *send;
			size_t slen;
			uint64_t bits = 0, t;
			double v;
			char num[96];
			int i;

			if (!get_field(&ts, tend, 0x12, &s, &slen) || slen < 10 || s[0] != 0x09)
				goto bad;
			send = s + slen;
			for (i = 0; i < 8; i++)
				bits |= (uint64_t)s[1 + i] << (8 * i);
			memcpy(&v, &bits, sizeof(v));
			s += 9;
			if (*s++ != 0x10 || !get_varint(&s, send, &t))
				goto bad;
			{
				locale_t old = uselocale(c);

				snprintf(num, sizeof(num), " %.17g %lld\n", v, (long long)t);
				uselocale(old);
			}
			put(&o, num, strlen(num));
		}
	}
	freelocale(c);
	if (o.nomem)
		return -ENOMEM;
	put(&o, "", 1);
	*text = o.p;
	*text_len = o.len ? o.len - 1 : 0;
	return 0;
bad:
	freelocale(c);
	free(o.p);
	return -EINVAL;
}
