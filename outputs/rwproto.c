// SPDX-License-Identifier: GPL-2.0-only
#include "rwproto.h"

#include <errno.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <snappy-c.h>

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

static void put_varint(struct bbuf *b, uint64_t v)
{
	unsigned char t[10];
	size_t n = 0;

	while (v >= 0x80) {
		t[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	t[n++] = (unsigned char)v;
	put(b, t, n);
}

/* A label of the series being encoded: into the scratch buffer. */
struct lab {
	size_t name, nlen, value, vlen;		/* offsets into the scratch */
};

struct enc {
	struct bbuf pb;		/* the WriteRequest */
	struct bbuf scratch;	/* this series' names and unescaped values */
	struct lab *labs;
	size_t nlabs, cap_labs;
	const struct rw_label *ext;
	size_t next;
	int64_t ts;
	locale_t c;
};

static bool add_lab(struct enc *e, const char *n, size_t nl, const char *v, size_t vl)
{
	struct lab *l;

	/* An empty value is no label, as Prometheus reads the page. */
	if (!vl)
		return true;
	if (e->nlabs == e->cap_labs) {
		size_t cap = e->cap_labs ? e->cap_labs * 2 : 16;

		l = realloc(e->labs, cap * sizeof(*l));
		if (!l)
			return false;
		e->labs = l;
		e->cap_labs = cap;
	}
	l = &e->labs[e->nlabs++];
	l->name = e->scratch.len;
	l->nlen = nl;
	put(&e->scratch, n, nl);
	l->value = e->scratch.len;
	l->vlen = vl;
	put(&e->scratch, v, vl);
	return !e->scratch.nomem;
}

static int lab_cmp(const struct enc *e, const struct lab *a, const struct lab *b)
{
	size_t n = a->nlen < b->nlen ? a->nlen : b->nlen;
	int c = memcmp(e->scratch.p + a->name, e->scratch.p + b->name, n);

	return c ? c : (a->nlen > b->nlen) - (a->nlen < b->nlen);
}

static bool has_lab(const struct enc *e, const char *n)
{
	size_t i, nl = strlen(n);

	for (i = 0; i < e->nlabs; i++)
		if (e->labs[i].nlen == nl && !memcmp(e->scratch.p + e->labs[i].name, n, nl))
			return true;
	return false;
}

/* The series in e->labs with @v: one TimeSeries. */
static void put_series(struct enc *e, double v)
{
	size_t i, j, ts_len = 0, sample_len;

	for (i = 0; i < e->next; i++)
		if (!has_lab(e, e->ext[i].name))
			add_lab(e, e->ext[i].name, strlen(e->ext[i].name), e->ext[i].value,
				strlen(e->ext[i].value));
	/* Sorted by name (few labels: insertion). */
	for (i = 1; i < e->nlabs; i++) {
		struct lab t = e->labs[i];

		for (j = i; j > 0 && lab_cmp(e, &e->labs[j - 1], &t) > 0; j--)
			e->labs[j] = e->labs[j - 1];
		e->labs[j] = t;
	}
	for (i = 0; i < e->nlabs; i++) {
		size_t l = 1 + varint_len(e->labs[i].nlen) + e->labs[i].nlen +
			   1 + varint_len(e->labs[i].vlen) + e->labs[i].vlen;

		ts_len += 1 + varint_len(l) + l;
	}
	sample_len = 1 + 8 + 1 + varint_len((uint64_t)e->ts);
	ts_len += 1 + varint_len(sample_len) + sample_len;
	/* Room for the whole series at once: each put below is a copy. */
	if (!reserve(&e->pb, 1 + varint_len(ts_len) + ts_len))
		return;
	put(&e->pb, "\x0a", 1);
	put_varint(&e->pb, ts_len);
	for (i = 0; i < e->nlabs; i++) {
		const struct lab *l = &e->labs[i];
		size_t n = 1 + varint_len(l->nlen) + l->nlen + 1 + varint_len(l->vlen) + l->vlen;

		put(&e->pb, "\x0a", 1);
		put_varint(&e->pb, n);
		put(&e->pb, "\x0a", 1);
		put_varint(&e->pb, l->nlen);
		put(&e->pb, e->scratch.p + l->name, l->nlen);
		put(&e->pb, "\x12", 1);
		put_varint(&e->pb, l->vlen);
		put(&e->pb, e->scratch.p + l->value, l->vlen);
	}
	put(&e->pb, "\x12", 1);
	put_varint(&e->pb, sample_len);
	{
		unsigned char d[9] = { 0x09 };
		uint64_t bits;

		memcpy(&bits, &v, sizeof(bits));
		for (i = 0; i < 8; i++)
			d[1 + i] = (unsigned char)(bits >> (8 * i));
		put(&e->pb, d, sizeof(d));
	}
	put(&e->pb, "\x10", 1);
	put_varint(&e->pb, (uint64_t)e->ts);
}

/* A label whose name and value were written at the end of the scratch. */
static bool push_lab(struct enc *e, size_t name, size_t nlen, size_t value, size_t vlen)
{
	if (!vlen)
		return true;	/* an empty value is no label, as Prometheus reads the page */
	if (e->nlabs == e->cap_labs) {
		size_t cap = e->cap_labs ? e->cap_labs * 2 : 16;
		struct lab *l = realloc(e->labs, cap * sizeof(*l));

		if (!l)
			return false;
		e->labs = l;
		e->cap_labs = cap;
	}
	e->labs[e->nlabs++] = (struct lab){ name, nlen, value, vlen };
	return true;
}

/*
 * One sample line: name[{labels}] value. 0, or -EINVAL. The scratch is
 * reserved for the whole line first (a value unescaped is never longer than
 * written): names and values are copied without a check each.
 */
static int parse_line(struct enc *e, const char *p, const char *end)
{
	const char *name = p, *q;
	char num[64], *sc;
	size_t n;
	double v;

	e->nlabs = 0;
	e->scratch.len = 0;
	if (!reserve(&e->scratch, (size_t)(end - p) + 8))
		return -ENOMEM;
	sc = e->scratch.p;
	while (p < end && *p != '{' && *p != ' ')
		p++;
	if (p == name)
		return -EINVAL;
	memcpy(sc, "__name__", 8);
	memcpy(sc + 8, name, (size_t)(p - name));
	e->scratch.len = 8 + (size_t)(p - name);
	if (!push_lab(e, 0, 8, 8, (size_t)(p - name)))
		return -ENOMEM;
	if (p < end && *p == '{') {
		p++;
		while (p < end && *p != '}') {
			const char *ln = p;
			size_t nl, noff, voff;

			q = memchr(p, '=', (size_t)(end - p));
			if (!q || q + 1 >= end || q[1] != '"')
				return -EINVAL;
			nl = (size_t)(q - ln);
			noff = e->scratch.len;
			memcpy(sc + noff, ln, nl);
			voff = noff + nl;
			n = voff;
			p = q + 2;
			for (;;) {
				const char *stop = p;

				while (stop < end && *stop != '"' && *stop != '\\')
					stop++;
				memcpy(sc + n, p, (size_t)(stop - p));
				n += (size_t)(stop - p);
				p = stop;
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
			e->scratch.len = n;
			if (!push_lab(e, noff, nl, voff, n - voff))
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
	{
		char *stop;

		v = strtod_l(num, &stop, e->c);
		if (*stop)
			return -EINVAL;
	}
	put_series(e, v);
	return e->pb.nomem || e->scratch.nomem ? -ENOMEM : 0;
}

int rw_encode(const char *text, size_t len, int64_t ts_ms, const struct rw_label *ext,
	      size_t nlabels, struct rw_body *out, char *err, size_t errlen)
{
	struct enc e = { .ext = ext, .next = nlabels, .ts = ts_ms };
	const char *p = text, *end = text + len;
	size_t n = 0, line = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	e.c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!e.c)
		return err_set(err, errlen, -ENOMEM, "remote write: out of memory");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		line++;
		if (le > p && *p != '#') {
			r = parse_line(&e, p, le);
			if (r) {
				if (r == -EINVAL)
					err_set(err, errlen, r, "remote write: line %zu of the page is not of the text format",
						line);
				goto out;
			}
			n++;
		}
		p = nl ? nl + 1 : end;
	}
	if (e.pb.nomem) {
		r = -ENOMEM;
		goto out;
	}
	out->raw_len = e.pb.len;
	out->len = snappy_max_compressed_length(e.pb.len);
	out->data = malloc(out->len ? out->len : 1);
	if (!out->data) {
		r = -ENOMEM;
		goto out;
	}
	if (snappy_compress(e.pb.p ? e.pb.p : "", e.pb.len, out->data, &out->len) != SNAPPY_OK) {
		r = -ENOMEM;
		goto out;
	}
	out->samples = n;
out:
	if (r == -ENOMEM)
		err_set(err, errlen, r, "remote write: out of memory");
	if (r) {
		free(out->data);
		memset(out, 0, sizeof(*out));
	}
	freelocale(e.c);
	free(e.pb.p);
	free(e.scratch.p);
	free(e.labs);
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
