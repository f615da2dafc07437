// SPDX-License-Identifier: GPL-2.0-only
#include "promtext.h"
#include "../lib/util.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- buffer ---- */

static bool buf_reserve(struct prom_buf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->nomem)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	if (more > SIZE_MAX / 4 - b->len) {
		b->nomem = true;
		return false;
	}
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more + 1)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->nomem = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

static void buf_put(struct prom_buf *b, const char *s, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void buf_puts(struct prom_buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

static void buf_putc(struct prom_buf *b, char c)
{
	buf_put(b, &c, 1);
}

void prom_buf_reset(struct prom_buf *b)
{
	b->len = 0;
	b->nomem = false;
	if (b->data)
		b->data[0] = '\0';
}

void prom_buf_free(struct prom_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* ---- text: UTF-8 and escaping ---- */

/*
 * Length of the valid UTF-8 sequence at @s (RFC 3629), at most @n bytes, with
 * its code point in @cp; 0 when @s does not start one.
 */
static size_t utf8_valid(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		*cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		*cp = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		*cp = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* past U+10FFFF */
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		unsigned d = s[i];

		if (d < (i == 1 ? lo : 0x80) || d > (i == 1 ? hi : 0xbf))
			return 0;
		*cp = *cp << 6 | (d & 0x3f);
	}
	return len;
}

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/*
 * Append @n bytes of @s as valid UTF-8 without control characters, escaping
 * backslash and newline, and double quote when @quote (label values, and HELP
 * in OpenMetrics, whose grammar has no bare quote in an escaped string).
 * Invisible code points (cp_invisible: bidi controls, zero-width and other
 * format characters) become '?', as in text and CSV: a dashboard's legend
 * shows "x?abc" where the name would have shown reversed.
 */
static void put_escaped(struct prom_buf *b, const char *s, size_t n, bool quote)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	const unsigned char *run = p;	/* bytes copied as they are, in one go */
	unsigned cp;
	size_t k;

	while (p < end) {
		const char *rep;

		k = utf8_valid(p, (size_t)(end - p), &cp);
		if (k && cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp <= 0x9f) && cp != '\\' &&
		    !(quote && cp == '"') && !cp_invisible(cp)) {
			p += k;
			continue;
		}
		if (!k) {
			rep = REPLACEMENT;
			k = 1;
		} else if (cp == '\\') {
			rep = "\\\\";
		} else if (cp == '"') {
			rep = "\\\"";
		} else if (cp == '\n') {
			rep = "\\n";
		} else if (cp_invisible(cp)) {
			rep = "?";	/* as the text output and CSV show it (sanitize_text) */
		} else {
			rep = REPLACEMENT;
		}
		buf_put(b, (const char *)run, (size_t)(p - run));
		buf_puts(b, rep);
		p += k;
		run = p;
	}
	buf_put(b, (const char *)run, (size_t)(p - run));
}

int prom_put_label_value(struct prom_buf *out, const char *s, size_t len)
{
	put_escaped(out, s, len, true);
	return out->nomem ? -ENOMEM : 0;
}

/* ---- numbers ---- */

static void put_u64(struct prom_buf *b, uint64_t v)
{
	char tmp[U64_DEC_BUF], *s = u64_dec(tmp + sizeof(tmp), v);

	buf_put(b, s, (size_t)(tmp + sizeof(tmp) - s));
}

int prom_put_u64(struct prom_buf *out, uint64_t v)
{
	put_u64(out, v);
	return out->nomem ? -ENOMEM : 0;
}

/*
 * The "C" locale: ktop runs under setlocale(LC_ALL, ""), and a decimal comma
 * would make every fractional value unreadable to Prometheus.
 */
static locale_t c_locale(void)
{
	static locale_t loc;

	if (!loc)
		loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return loc;
}

static void put_double(struct prom_buf *b, double v)
{
	char tmp[40];
	locale_t loc, old = (locale_t)0;
	int prec;

	if (isnan(v)) {
		buf_puts(b, "NaN");
		return;
	}
	if (isinf(v)) {
		buf_puts(b, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	/* Integers (counts kept as doubles) exactly, without an exponent. */
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {	/* 2^53 */
		if (v < 0) {
			buf_putc(b, '-');
			v = -v;
		}
		put_u64(b, (uint64_t)v);
		return;
	}
	loc = c_locale();
	if (loc)
		old = uselocale(loc);
	/* The shortest of 15, 16, 17 digits that reads back to the same double. */
	for (prec = 15; prec < 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(tmp, sizeof(tmp), "%.17g", v);
	if (loc)
		uselocale(old);
	/* Without a "C" locale object (no memory): never a decimal comma. */
	for (char *c = tmp; *c; c++)
		if (*c == ',')
			*c = '.';
	buf_puts(b, tmp);
}

int prom_put_double(struct prom_buf *out, double v)
{
	put_double(out, v);
	return out->nomem ? -ENOMEM : 0;
}

/* ---- key tables ---- */

union pval {
	uint64_t u;
	double d;
};

/*
 * A table of keys (label sets, as their escaped label values each followed by
 * a NUL) with a value each, in insertion order, with a hash index.
 */
struct kent {
	uint64_t hash;
	size_t off, len;	/* in the table's arena */
	union pval v;
	int64_t owner;		/* who offered it (prom_family_owner; -1: nobody said) */
	int where;		/* WHERE_OWN, WHERE_OTHER (WHERE_ADMITTED, WHERE_EVICTED while placing) */
};

struct keytab {
	struct kent *e;
	size_t n, cap;
	char *arena;
	size_t alen, acap;
	uint32_t *slot;		/* 0: empty, else index + 1 */
	size_t nslot;		/* 0 or a power of two, >= 2 * n */
};

/*
 * WHERE_EVICTED: had a series of its own, given up at this write to an owner
 * below its share (share_slots); in the overflow from now on, counting from
 * its value now.
 */
enum { WHERE_OWN, WHERE_OTHER, WHERE_ADMITTED, WHERE_EVICTED };

static uint64_t hash_bytes(const char *s, size_t n, uint64_t seed)
{
	uint64_t h = seed ^ (n * 0x9e3779b97f4a7c15ull);
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h;
}

static void keytab_clear(struct keytab *t)
{
	t->n = 0;
	t->alen = 0;
	if (t->nslot)
		memset(t->slot, 0, t->nslot * sizeof(*t->slot));
}

static void keytab_free(struct keytab *t)
{
	free(t->e);
	free(t->arena);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static const char *keytab_key(const struct keytab *t, const struct kent *e)
{
	return t->arena + e->off;
}

/* The entry of key @k (@n bytes, hash @h), or NULL. */
static struct kent *keytab_find(const struct keytab *t, const char *k, size_t n, uint64_t h)
{
	size_t mask = t->nslot - 1, i;
	uint32_t s;

	if (!t->nslot)
		return NULL;
	for (i = h & mask; (s = t->slot[i]); i = (i + 1) & mask) {
		struct kent *e = &t->e[s - 1];

		if (e->hash == h && e->len == n && !memcmp(keytab_key(t, e), k, n))
			return e;
	}
	return NULL;
}

static int keytab_rehash(struct keytab *t, size_t nslot)
{
	uint32_t *slot = calloc(nslot, sizeof(*slot));
	size_t i, j;

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		for (j = t->e[i].hash & (nslot - 1); slot[j]; j = (j + 1) & (nslot - 1))
			;
		slot[j] = (uint32_t)(i + 1);
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	return 0;
}

/*
 * Add key @k (not in the table) with value @v. Returns the entry (valid until
 * the next add) or NULL on ENOMEM.
 */
static struct kent *keytab_add(struct keytab *t, const char *k, size_t n, uint64_t h,
			       union pval v)
{
	struct kent *e;
	size_t i, mask;

	if (t->n >= UINT32_MAX - 1)
		return NULL;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;

		e = realloc(t->e, cap * sizeof(*e));
		if (!e)
			return NULL;
		t->e = e;
		t->cap = cap;
	}
	if (2 * (t->n + 1) > t->nslot && keytab_rehash(t, t->nslot ? t->nslot * 2 : 128))
		return NULL;
	if (t->alen + n > t->acap || !t->arena) {
		size_t acap = t->acap ? t->acap : 1024;
		char *a;

		while (acap < t->alen + n)
			acap *= 2;
		a = realloc(t->arena, acap);
		if (!a)
			return NULL;
		t->arena = a;
		t->acap = acap;
	}
	if (n)
		memcpy(t->arena + t->alen, k, n);
	e = &t->e[t->n];
	e->hash = h;
	e->off = t->alen;
	e->len = n;
	e->v = v;
	e->owner = -1;
	e->where = WHERE_OWN;
	t->alen += n;
	mask = t->nslot - 1;
	for (i = h & mask; t->slot[i]; i = (i + 1) & mask)
		;
	t->slot[i] = (uint32_t)(t->n + 1);
	t->n++;
	return e;
}

/*
 * A histogram's values beside a keytab's entries (entry i: counts
 * [i * nb, (i + 1) * nb), sum[i]), grown with it.
 */
struct hvec {
	uint64_t *c;
	double *sum;
	size_t cap;
};

/* ---- families ---- */

struct prom_family {
	char *name, *unit, *help;
	enum prom_type type;
	enum prom_value vtype;
	char **labels;
	size_t nlabels;
	size_t max_series;
	uint64_t seed;
	int64_t owner;			/* the owner of the samples offered next */
	bool owned;			/* an owner was named this scrape */

	struct keytab scrape;		/* this scrape's label sets and values */
	struct prom_buf key;		/* the key being built by an add */
	char *other_key;		/* the overflow label set's key */
	size_t other_len;
	uint64_t other_hash;

	struct keytab admitted;		/* counters: label sets with a series of their own */
	struct keytab prev_other;	/* counters: the overflow's members at the last write */
	struct keytab spare;		/* counters: the next prev_other, memory kept */
	union pval other_total;		/* counters: the overflow series' value */
	bool other_written;		/* counters: the overflow series exists */
	size_t dropped;
	uint64_t invalid;

	/* histograms: nb buckets (+Inf last), the vectors of scrape, prev_other, spare */
	double *bounds;
	size_t nb;
	struct hvec h_scrape, h_prev, h_spare;
	uint64_t *other_c;		/* the overflow series' buckets and sum */
	double other_sum;

	struct prom_label *lab;		/* scratch of a write: a sample's labels (and le) */
	struct prom_buf le;		/* scratch of a write: a bucket's bound as text */
	/* scratch of a write: the candidates to sort */
	struct cand {
		union pval v;
		size_t i;
		int64_t owner;
	} *cand;
	size_t ncand_cap;
	struct oshare *osh;		/* scratch of a write: share_slots's owners */
	size_t nosh_cap;
};

static bool valid_name(const char *s, bool colon)
{
	const char *p;

	if (!s || !*s)
		return false;
	for (p = s; *p; p++) {
		char c = *p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		    (colon && c == ':') || (p > s && c >= '0' && c <= '9'))
			continue;
		return false;
	}
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int check_def(const struct prom_family_def *d, const double *bounds, size_t nbounds,
		     char *err, size_t errlen)
{
	size_t i, j;

	if (!valid_name(d->name, true))
		return err_set(err, errlen, -EINVAL, "metric name '%s' is not [a-zA-Z_:][a-zA-Z0-9_:]*",
			       d->name ? d->name : "(null)");
	if (d->type == PROM_COUNTER && ends_with(d->name, "_total"))
		return err_set(err, errlen, -EINVAL, "counter '%s': name it without _total", d->name);
	if (d->unit && *d->unit) {
		size_t n = strlen(d->name), k = strlen(d->unit);

		if (!valid_name(d->unit, false) || k + 1 >= n ||
		    strcmp(d->name + n - k, d->unit) || d->name[n - k - 1] != '_')
			return err_set(err, errlen, -EINVAL, "metric '%s': unit '%s' must end its name",
				       d->name, d->unit);
	}
	if (d->nlabels && !d->labels)
		return err_set(err, errlen, -EINVAL, "metric '%s': no label names", d->name);
	if ((d->type == PROM_HISTOGRAM) != (bounds != NULL))
		return err_set(err, errlen, -EINVAL, "metric '%s': buckets are a histogram's (only)",
			       d->name);
	if (d->type == PROM_HISTOGRAM) {
		if (!nbounds)
			return err_set(err, errlen, -EINVAL, "histogram '%s': no buckets", d->name);
		for (i = 0; i < nbounds; i++)
			if (!isfinite(bounds[i]) || (i && bounds[i] <= bounds[i - 1]))
				return err_set(err, errlen, -EINVAL,
					       "histogram '%s': bounds not finite and increasing", d->name);
		for (i = 0; i < d->nlabels; i++)
			if (d->labels[i] && !strcmp(d->labels[i], "le"))
				return err_set(err, errlen, -EINVAL, "histogram '%s': a label 'le'",
					       d->name);
	}
	for (i = 0; i < d->nlabels; i++) {
		if (!valid_name(d->labels[i], false) || !strncmp(d->labels[i], "__", 2))
			return err_set(err, errlen, -EINVAL, "metric '%s': bad label name '%s'", d->name,
				       d->labels[i] ? d->labels[i] : "(null)");
		for (j = 0; j < i; j++)
			if (!strcmp(d->labels[i], d->labels[j]))
				return err_set(err, errlen, -EINVAL, "metric '%s': label '%s' twice",
					       d->name, d->labels[i]);
	}
	return 0;
}

static char *dup_or_null(const char *s, bool *fail)
{
	char *d;

	if (!s || !*s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = true;
	return d;
}

struct prom_family *prom_family_new(const struct prom_family_def *def, char *err, size_t errlen)
{
	return prom_family_new_hist(def, NULL, 0, err, errlen);
}

struct prom_family *prom_family_new_hist(const struct prom_family_def *def, const double *bounds,
					 size_t nbounds, char *err, size_t errlen)
{
	struct prom_family *f;
	bool fail = false;
	size_t i;

	if (check_def(def, bounds, nbounds, err, errlen))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		goto nomem;
	f->type = def->type;
	/* A histogram's value, what its cap ranks by, is its count. */
	f->vtype = def->type == PROM_HISTOGRAM ? PROM_U64 : def->value;
	f->nlabels = def->nlabels;
	f->max_series = def->nlabels ? def->max_series : 0;
	/* Not a secret: it spreads label sets that a user's process names chose. */
	f->seed = (uint64_t)(uintptr_t)f * 0x9e3779b97f4a7c15ull;
	if (def->type == PROM_HISTOGRAM) {
		f->nb = nbounds + 1;
		f->bounds = malloc(nbounds * sizeof(*f->bounds));
		f->other_c = calloc(f->nb, sizeof(*f->other_c));
		if (!f->bounds || !f->other_c)
			goto nomem;
		memcpy(f->bounds, bounds, nbounds * sizeof(*f->bounds));
	}
	f->name = dup_or_null(def->name, &fail);
	f->unit = dup_or_null(def->unit, &fail);
	f->help = dup_or_null(def->help, &fail);
	/* A sample's labels, and a histogram bucket's le after them. */
	f->lab = calloc(f->nlabels + 1, sizeof(*f->lab));
	if (!f->lab)
		goto nomem;
	if (f->nlabels) {
		f->labels = calloc(f->nlabels, sizeof(*f->labels));
		if (!f->labels)
			goto nomem;
		for (i = 0; i < f->nlabels; i++)
			f->labels[i] = dup_or_null(def->labels[i], &fail);
	}
	/* "other" per label, each followed by its NUL, as an added key would be. */
	f->other_len = f->nlabels * sizeof("other");
	f->other_key = malloc(f->other_len + 1);
	if (fail || !f->other_key)
		goto nomem;
	for (i = 0; i < f->nlabels; i++)
		memcpy(f->other_key + i * sizeof("other"), "other", sizeof("other"));
	f->other_hash = hash_bytes(f->other_key, f->other_len, f->seed);
	return f;
nomem:
	prom_family_free(f);
	err_set(err, errlen, -EINVAL, "metric '%s': out of memory", def->name);
	return NULL;
}

void prom_family_free(struct prom_family *f)
{
	size_t i;

	if (!f)
		return;
	free(f->name);
	free(f->unit);
	free(f->help);
	for (i = 0; f->labels && i < f->nlabels; i++)
		free(f->labels[i]);
	free(f->labels);
	free(f->lab);
	free(f->other_key);
	keytab_free(&f->scrape);
	keytab_free(&f->admitted);
	keytab_free(&f->prev_other);
	keytab_free(&f->spare);
	prom_buf_free(&f->key);
	prom_buf_free(&f->le);
	free(f->cand);
	free(f->osh);
	free(f->bounds);
	free(f->other_c);
	for (i = 0; i < 3; i++) {
		struct hvec *v = i == 0 ? &f->h_scrape : i == 1 ? &f->h_prev : &f->h_spare;

		free(v->c);
		free(v->sum);
	}
	free(f);
}

void prom_family_begin(struct prom_family *f)
{
	keytab_clear(&f->scrape);
	f->owner = -1;
	f->owned = false;
}

void prom_family_owner(struct prom_family *f, int64_t owner)
{
	f->owner = owner;
	if (owner >= 0)
		f->owned = true;
}

static union pval val_add(const struct prom_family *f, union pval a, union pval b)
{
	if (f->vtype == PROM_DOUBLE)
		a.d += b.d;
	else
		a.u = a.u > UINT64_MAX - b.u ? UINT64_MAX : a.u + b.u;
	return a;
}

/* Room in @v for entry @i's values (@nb buckets). 0 or -ENOMEM. */
static int hvec_reserve(struct hvec *v, size_t i, size_t nb)
{
	size_t cap;
	uint64_t *c;
	double *s;

	if (i < v->cap)
		return 0;
	cap = v->cap ? v->cap * 2 : 64;
	while (cap <= i)
		cap *= 2;
	c = realloc(v->c, cap * nb * sizeof(*c));
	if (!c)
		return -ENOMEM;
	v->c = c;
	s = realloc(v->sum, cap * sizeof(*s));
	if (!s)
		return -ENOMEM;
	v->sum = s;
	v->cap = cap;
	return 0;
}

/* Entry @i of @v takes @counts and @sum (set), or adds them (@add). */
static int hvec_put(const struct prom_family *f, struct hvec *v, size_t i, const uint64_t *counts,
		    double sum, bool add)
{
	size_t k;

	if (hvec_reserve(v, i, f->nb))
		return -ENOMEM;
	for (k = 0; k < f->nb; k++) {
		uint64_t *c = &v->c[i * f->nb + k];

		*c = !add ? counts[k] : *c > UINT64_MAX - counts[k] ? UINT64_MAX : *c + counts[k];
	}
	v->sum[i] = add ? v->sum[i] + sum : sum;
	return 0;
}

static int add_sample_h(struct prom_family *f, const char *const *values, union pval v,
			const uint64_t *counts, double sum);

static int add_sample(struct prom_family *f, const char *const *values, union pval v)
{
	return add_sample_h(f, values, v, NULL, 0);
}

/*
 * Offer a sample; a histogram's with its @counts and @sum (its value @v
 * the count: what the cap ranks by).
 */
static int add_sample_h(struct prom_family *f, const char *const *values, union pval v,
			const uint64_t *counts, double sum)
{
	const char *key;
	struct kent *e;
	uint64_t h;
	size_t i;

	prom_buf_reset(&f->key);
	for (i = 0; i < f->nlabels; i++) {
		const char *s = values[i] ? values[i] : "";

		put_escaped(&f->key, s, strlen(s), true);
		buf_put(&f->key, "", 1);	/* the NUL: escaped values have none */
	}
	if (f->key.nomem)
		return -ENOMEM;
	key = f->key.data ? f->key.data : "";	/* no label: no byte written */
	h = hash_bytes(key, f->key.len, f->seed);
	e = keytab_find(&f->scrape, key, f->key.len, h);
	if (e) {
		e->v = val_add(f, e->v, v);
		return counts ? hvec_put(f, &f->h_scrape, (size_t)(e - f->scrape.e), counts, sum, true) : 0;
	}
	e = keytab_add(&f->scrape, key, f->key.len, h, v);
	if (!e)
		return -ENOMEM;
	e->owner = f->owner;
	if (counts && hvec_put(f, &f->h_scrape, f->scrape.n - 1, counts, sum, false)) {
		f->scrape.n--;	/* not offered after all: the index keeps no stale slot */
		keytab_rehash(&f->scrape, f->scrape.nslot);
		return -ENOMEM;
	}
	return 0;
}

int prom_family_add_hist(struct prom_family *f, const char *const *values,
			 const uint64_t *counts, double sum)
{
	union pval p = { 0 };
	size_t k;

	if (f->type != PROM_HISTOGRAM)
		return -EINVAL;
	for (k = 0; k < f->nb; k++)
		p.u = p.u > UINT64_MAX - counts[k] ? UINT64_MAX : p.u + counts[k];
	return add_sample_h(f, values, p, counts, sum);
}

int prom_family_add_u64(struct prom_family *f, const char *const *values, uint64_t v)
{
	union pval p;

	if (f->vtype == PROM_DOUBLE)
		p.d = (double)v;
	else
		p.u = v;
	return add_sample(f, values, p);
}

int prom_family_add_double(struct prom_family *f, const char *const *values, double v)
{
	union pval p;

	if (f->type == PROM_COUNTER && (isnan(v) || v < 0)) {
		f->invalid++;
		return 0;
	}
	if (f->vtype == PROM_DOUBLE)
		p.d = v;
	else if (isnan(v) || v <= 0)
		p.u = 0;
	else if (v >= 18446744073709551616.0)	/* 2^64 */
		p.u = UINT64_MAX;
	else
		p.u = (uint64_t)v;
	return add_sample(f, values, p);
}

size_t prom_family_dropped(const struct prom_family *f)
{
	return f->dropped;
}

uint64_t prom_family_invalid(const struct prom_family *f)
{
	return f->invalid;
}

/* Whether @e is the overflow's own label set (all values "other"). */
static bool is_other_key(const struct prom_family *f, const struct kent *e)
{
	return e->hash == f->other_hash && e->len == f->other_len &&
	       !memcmp(f->scrape.arena + e->off, f->other_key, e->len);
}

/* Descending by value (NaN last), then by first offer: a stable order. */
static int cand_cmp_u64(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->v.u != y->v.u)
		return x->v.u > y->v.u ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int cand_cmp_double(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	bool xn = isnan(x->v.d), yn = isnan(y->v.d);

	if (xn != yn)
		return xn ? 1 : -1;
	if (!xn && x->v.d != y->v.d)
		return x->v.d > y->v.d ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Of the candidates (entries marked WHERE_OWN for now), keep the @keep largest
 * and mark the others WHERE_OTHER. Returns 0 or -ENOMEM.
 */
static int keep_largest(struct prom_family *f, size_t ncand, size_t keep)
{
	struct keytab *t = &f->scrape;
	size_t i, n = 0;

	if (ncand <= keep)
		return 0;
	if (ncand > f->ncand_cap) {
		struct cand *c = realloc(f->cand, ncand * sizeof(*c));

		if (!c)
			return -ENOMEM;
		f->cand = c;
		f->ncand_cap = ncand;
	}
	for (i = 0; i < t->n && n < ncand; i++)
		if (t->e[i].where == WHERE_OWN)
			f->cand[n++] = (struct cand){ t->e[i].v, i, t->e[i].owner };
	sort_array(f->cand, n, sizeof(*f->cand),
	      f->vtype == PROM_DOUBLE ? cand_cmp_double : cand_cmp_u64);
	for (i = keep; i < n; i++)
		t->e[f->cand[i].i].where = WHERE_OTHER;
	return 0;
}

/*
 * A histogram in the overflow: the increases of scrape entry @i's buckets
 * and sum since the last write, from prev_other's entry @p (SIZE_MAX: new
 * to the overflow, counted whole; so is one whose count went down, a reset).
 */
static void other_hist_add(struct prom_family *f, size_t i, size_t p)
{
	const uint64_t *now = &f->h_scrape.c[i * f->nb];
	const uint64_t *was = p != SIZE_MAX ? &f->h_prev.c[p * f->nb] : NULL;
	double sum = f->h_scrape.sum[i];
	size_t k;

	for (k = 0; was && k < f->nb; k++)
		if (now[k] < was[k])
			was = NULL;
	for (k = 0; k < f->nb; k++) {
		uint64_t inc = now[k] - (was ? was[k] : 0);

		f->other_c[k] = f->other_c[k] > UINT64_MAX - inc ? UINT64_MAX : f->other_c[k] + inc;
	}
	if (was && sum >= f->h_prev.sum[p])
		sum -= f->h_prev.sum[p];
	f->other_sum += sum;
}

/* By owner, then descending by value, then by first offer. */
static int cand_cmp_owner(const void *a, const void *b, void *arg)
{
	const struct cand *x = a, *y = b;
	const struct prom_family *f = arg;

	if (x->owner != y->owner)
		return x->owner < y->owner ? -1 : 1;
	return f->vtype == PROM_DOUBLE ? cand_cmp_double(a, b) : cand_cmp_u64(a, b);
}

/*
 * An owner's part in share_slots: of f->cand, its admitted label sets
 * [a_lo, a_hi) (evicted from a_hi down: the smallest first) and its
 * newcomers [n_lo, n_hi) (admitted from n_lo up: the largest first).
 */
struct oshare {
	int64_t owner;
	size_t held;
	size_t a_lo, a_hi, n_lo, n_hi;
	size_t n_first;		/* its first newcomer */
};

static struct oshare *share_pick(struct oshare *o, size_t n, bool pending, const struct oshare *not)
{
	struct oshare *best = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (&o[i] == not || (pending && o[i].n_lo == o[i].n_hi))
			continue;
		if (!best || (pending ? o[i].held < best->held : o[i].held > best->held))
			best = &o[i];
	}
	return best;
}

/*
 * The sticky rule with owners (prom_family_owner): the @nnew newcomers (WHERE_OWN)
 * take the @left free slots, and then the slots of owners holding two more
 * than theirs (max-min, as the groups are shared out: outputs/metrics.c), so
 * one owner's churn of new label sets takes only its own share and never
 * keeps another's out. A slot given up is WHERE_EVICTED, a newcomer refused
 * WHERE_OTHER. *@evicted: whether any was. Returns 0 or -ENOMEM.
 */
static int share_slots(struct prom_family *f, size_t nadm, size_t nnew, size_t left, bool *evicted)
{
	struct keytab *t = &f->scrape;
	size_t i, na = 0, nn = nadm, no = 0;
	struct oshare *a, *b;

	if (nadm + nnew > f->ncand_cap) {
		struct cand *c = realloc(f->cand, (nadm + nnew) * sizeof(*c));

		if (!c)
			return -ENOMEM;
		f->cand = c;
		f->ncand_cap = nadm + nnew;
	}
	if (nadm + nnew > f->nosh_cap) {
		struct oshare *o = realloc(f->osh, (nadm + nnew) * sizeof(*o));

		if (!o)
			return -ENOMEM;
		f->osh = o;
		f->nosh_cap = nadm + nnew;
	}
	for (i = 0; i < t->n; i++) {
		const struct kent *e = &t->e[i];

		if (e->where == WHERE_ADMITTED && na < nadm)
			f->cand[na++] = (struct cand){ e->v, i, e->owner };
		else if (e->where == WHERE_OWN && nn < nadm + nnew)
			f->cand[nn++] = (struct cand){ e->v, i, e->owner };
	}
	sort_array_r(f->cand, na, sizeof(*f->cand), cand_cmp_owner, f);
	sort_array_r(f->cand + nadm, nn - nadm, sizeof(*f->cand), cand_cmp_owner, f);
	/* The owners: a merge of the two sorted runs. */
	for (i = 0, nn = nadm; i < na || nn < nadm + nnew;) {
		int64_t ow = i < na && (nn == nadm + nnew || f->cand[i].owner <= f->cand[nn].owner) ?
			     f->cand[i].owner : f->cand[nn].owner;
		struct oshare *o = &f->osh[no++];

		*o = (struct oshare){ .owner = ow, .a_lo = i, .n_lo = nn, .n_first = nn };
		while (i < na && f->cand[i].owner == ow)
			i++;
		while (nn < nadm + nnew && f->cand[nn].owner == ow)
			nn++;
		o->a_hi = i;
		o->n_hi = nn;
		o->held = o->a_hi - o->a_lo;
	}
	while ((a = share_pick(f->osh, no, true, NULL))) {
		size_t j = 0;

		b = left ? NULL : share_pick(f->osh, no, false, a);
		if (b && b->held >= a->held + 2 && b->a_hi == b->a_lo)
			/* One it was given at this write (it was below a then: never, so far). */
			for (j = b->n_lo; j > b->n_first && t->e[f->cand[j - 1].i].where != WHERE_OWN; j--)
				;
		if (!left && (!b || b->held < a->held + 2 || (b->a_hi == b->a_lo && j == b->n_first))) {
			for (; a->n_lo < a->n_hi; a->n_lo++)
				t->e[f->cand[a->n_lo].i].where = WHERE_OTHER;
			continue;
		}
		if (!left) {
			/* Its smallest label set: an older one first. */
			if (b->a_hi > b->a_lo) {
				t->e[f->cand[--b->a_hi].i].where = WHERE_EVICTED;
				*evicted = true;
			} else {
				t->e[f->cand[j - 1].i].where = WHERE_OTHER;
			}
			b->held--;
			left++;
		}
		left--;
		a->held++;
		a->n_lo++;	/* stays WHERE_OWN: admitted */
	}
	return 0;
}

/*
 * Counters: the sticky rule (promtext.h). Marks each entry, admits newcomers
 * while slots are left, and advances the overflow counter by its members'
 * increases. Returns 0 or -ENOMEM.
 */
static int place_counters(struct prom_family *f, union pval *other)
{
	struct keytab *t = &f->scrape, *next = &f->spare, swap;
	size_t i, newcomers = 0, nadmitted = 0, left;
	bool any = false;
	int r = 0;

	for (i = 0; i < t->n; i++) {
		struct kent *e = &t->e[i];
		const char *k = keytab_key(t, e);

		if (is_other_key(f, e))
			e->where = WHERE_OTHER;
		else if (keytab_find(&f->admitted, k, e->len, e->hash))
			e->where = WHERE_ADMITTED, nadmitted++;
		else if (keytab_find(&f->prev_other, k, e->len, e->hash))
			e->where = WHERE_OTHER;	/* never moves out: it would count twice */
		else
			e->where = WHERE_OWN, newcomers++;
	}
	/* Label sets no longer offered (their group left) give their slots back. */
	if (nadmitted < f->admitted.n) {
		keytab_clear(&f->admitted);
		for (i = 0; i < t->n; i++) {
			struct kent *e = &t->e[i];

			if (e->where == WHERE_ADMITTED &&
			    !keytab_add(&f->admitted, keytab_key(t, e), e->len, e->hash, e->v))
				r = -ENOMEM;
		}
		if (r)
			return r;
	}
	left = f->max_series - f->admitted.n;
	/* The newcomers (WHERE_OWN for now) compete for the slots left. */
	if (newcomers > left && f->owned) {
		bool evicted = false;

		r = share_slots(f, nadmitted, newcomers, left, &evicted);
		if (!r && evicted) {
			keytab_clear(&f->admitted);
			for (i = 0; i < t->n && !r; i++) {
				struct kent *e = &t->e[i];

				if (e->where == WHERE_ADMITTED &&
				    !keytab_add(&f->admitted, keytab_key(t, e), e->len, e->hash, e->v))
					r = -ENOMEM;
			}
		}
	} else if (newcomers) {
		r = keep_largest(f, newcomers, left);
	}
	for (i = 0; i < t->n; i++) {
		struct kent *e = &t->e[i];

		if (e->where == WHERE_ADMITTED)
			e->where = WHERE_OWN;
		else if (e->where == WHERE_OWN && !r &&
			 !keytab_add(&f->admitted, keytab_key(t, e), e->len, e->hash, e->v))
			r = -ENOMEM;
	}
	if (r)
		return r;
	/* The overflow: its members' increases since the last write. */
	keytab_clear(next);
	for (i = 0; i < t->n; i++) {
		struct kent *e = &t->e[i], *p;
		const char *k = keytab_key(t, e);
		union pval inc = e->v;

		if (e->where == WHERE_EVICTED) {
			/* Its series ends here: the overflow counts what it adds from now. */
			any = true;
			if (!keytab_add(next, k, e->len, e->hash, e->v) ||
			    (f->nb && hvec_put(f, &f->h_spare, next->n - 1, &f->h_scrape.c[i * f->nb],
					       f->h_scrape.sum[i], false)))
				r = -ENOMEM;
			continue;
		}
		if (e->where != WHERE_OTHER)
			continue;
		any = true;
		p = keytab_find(&f->prev_other, k, e->len, e->hash);
		if (p && f->vtype == PROM_DOUBLE && e->v.d >= p->v.d)
			inc.d = e->v.d - p->v.d;
		else if (p && f->vtype == PROM_U64 && e->v.u >= p->v.u)
			inc.u = e->v.u - p->v.u;
		if (f->nb)
			other_hist_add(f, i, p ? (size_t)(p - f->prev_other.e) : SIZE_MAX);
		/* A failed add only makes the next write count this member whole. */
		if (!keytab_add(next, k, e->len, e->hash, e->v) ||
		    (f->nb && hvec_put(f, &f->h_spare, next->n - 1, &f->h_scrape.c[i * f->nb],
				       f->h_scrape.sum[i], false)))
			r = -ENOMEM;
		f->other_total = val_add(f, f->other_total, inc);
	}
	swap = f->prev_other;
	f->prev_other = *next;
	*next = swap;
	{
		struct hvec hs = f->h_prev;

		f->h_prev = f->h_spare;
		f->h_spare = hs;
	}
	if (any)
		f->other_written = true;
	*other = f->other_total;
	return r;
}

/* Gauges: the largest max_series of this scrape. */
static int place_gauges(struct prom_family *f, union pval *other, bool *any)
{
	struct keytab *t = &f->scrape;
	size_t i, ncand = 0;
	int r;

	for (i = 0; i < t->n; i++) {
		struct kent *e = &t->e[i];

		if (is_other_key(f, e)) {
			e->where = WHERE_OTHER;
		} else {
			e->where = WHERE_OWN;
			ncand++;
		}
	}
	r = keep_largest(f, ncand, f->max_series);
	if (r)
		return r;
	memset(other, 0, sizeof(*other));
	for (i = 0; i < t->n; i++) {
		if (t->e[i].where != WHERE_OTHER)
			continue;
		*other = val_add(f, *other, t->e[i].v);
		*any = true;
	}
	return 0;
}

/* The sample's name: counters end in _total in both formats. */
static void put_sample_name(const struct prom_family *f, struct prom_buf *b)
{
	buf_puts(b, f->name);
	if (f->type == PROM_COUNTER)
		buf_puts(b, "_total");
}

/* A line of the text formats: name{label="value",...} value */
static void put_text_sample(struct prom_buf *b, const struct prom_sample *s)
{
	size_t i;

	buf_puts(b, s->name);
	buf_puts(b, s->suffix);
	if (s->nlabels) {
		buf_putc(b, '{');
		for (i = 0; i < s->nlabels; i++) {
			if (i)
				buf_putc(b, ',');
			buf_puts(b, s->labels[i].name);
			buf_puts(b, "=\"");
			buf_put(b, s->labels[i].value, s->labels[i].len);
			buf_putc(b, '"');
		}
		buf_putc(b, '}');
	}
	buf_putc(b, ' ');
	if (s->type == PROM_DOUBLE)
		put_double(b, s->d);
	else
		put_u64(b, s->u);
	buf_putc(b, '\n');
}

int prom_emit_sample(const struct prom_out *o, const struct prom_sample *s)
{
	if (o->text) {
		put_text_sample(o->text, s);
		if (o->text->nomem)
			return -ENOMEM;
	}
	return o->sample ? o->sample(o->ctx, s) : 0;
}

/* The family's labels of @key (escaped values, each followed by a NUL) into f->lab. */
static void key_labels(struct prom_family *f, const char *key)
{
	size_t i;

	for (i = 0; i < f->nlabels; i++) {
		size_t n = strlen(key);

		f->lab[i] = (struct prom_label){ f->labels[i], key, n };
		key += n + 1;
	}
}

/* One sample; @key is the escaped values, each followed by a NUL. */
static int put_sample(struct prom_family *f, const struct prom_out *o, const char *key,
		      union pval v)
{
	struct prom_sample s = {
		.name = f->name, .suffix = f->type == PROM_COUNTER ? "_total" : "",
		.labels = f->lab, .nlabels = f->nlabels, .type = f->vtype,
	};

	key_labels(f, key);
	if (f->vtype == PROM_DOUBLE)
		s.d = v.d;
	else
		s.u = v.u;
	return prom_emit_sample(o, &s);
}

/*
 * A histogram's series: its buckets, cumulative, +Inf last (le after the
 * family's labels, as the text writes its bound); its sum and count.
 */
static int put_hist(struct prom_family *f, const struct prom_out *o, const char *key,
		    const uint64_t *c, double sum)
{
	struct prom_sample s = {
		.name = f->name, .suffix = "_bucket", .labels = f->lab, .nlabels = f->nlabels + 1,
		.type = PROM_U64,
	};
	uint64_t cum = 0;
	size_t k;
	int r = 0;

	key_labels(f, key);
	for (k = 0; k < f->nb && !r; k++) {
		prom_buf_reset(&f->le);
		put_double(&f->le, k + 1 < f->nb ? f->bounds[k] : INFINITY);
		if (f->le.nomem)
			return -ENOMEM;
		f->lab[f->nlabels] = (struct prom_label){ "le", f->le.data, f->le.len };
		cum = cum > UINT64_MAX - c[k] ? UINT64_MAX : cum + c[k];
		s.u = cum;
		r = prom_emit_sample(o, &s);
	}
	s.nlabels = f->nlabels;
	s.suffix = "_sum";
	s.type = PROM_DOUBLE;
	s.d = sum;
	r = r ? r : prom_emit_sample(o, &s);
	s.suffix = "_count";
	s.type = PROM_U64;
	s.u = cum;
	return r ? r : prom_emit_sample(o, &s);
}

static void put_meta(const struct prom_family *f, struct prom_buf *b, enum prom_format fmt)
{
	const char *type = f->type == PROM_COUNTER ? "counter" :
			   f->type == PROM_HISTOGRAM ? "histogram" : "gauge";

	/*
	 * OpenMetrics names the family ("ktop_syscalls", samples _total); the text
	 * format names the samples ("ktop_syscalls_total") in HELP and TYPE.
	 */
	if (fmt == PROM_FMT_OPENMETRICS) {
		buf_puts(b, "# TYPE ");
		buf_puts(b, f->name);
		buf_putc(b, ' ');
		buf_puts(b, type);
		buf_putc(b, '\n');
		if (f->unit) {
			buf_puts(b, "# UNIT ");
			buf_puts(b, f->name);
			buf_putc(b, ' ');
			buf_puts(b, f->unit);
			buf_putc(b, '\n');
		}
		if (f->help) {
			buf_puts(b, "# HELP ");
			buf_puts(b, f->name);
			buf_putc(b, ' ');
			put_escaped(b, f->help, strlen(f->help), true);
			buf_putc(b, '\n');
		}
		return;
	}
	if (f->help) {
		buf_puts(b, "# HELP ");
		put_sample_name(f, b);
		buf_putc(b, ' ');
		/* The text format knows only \\ and \n in HELP; a \" would be an error. */
		put_escaped(b, f->help, strlen(f->help), false);
		buf_putc(b, '\n');
	}
	buf_puts(b, "# TYPE ");
	put_sample_name(f, b);
	buf_putc(b, ' ');
	buf_puts(b, type);
	buf_putc(b, '\n');
}

int prom_family_emit(struct prom_family *f, const struct prom_out *o)
{
	struct keytab *t = &f->scrape;
	union pval other = { 0 };
	bool write_other = false;
	size_t i;
	int r = 0, r2;

	f->dropped = 0;
	if (f->max_series && f->type != PROM_GAUGE) {
		r = place_counters(f, &other);
		write_other = f->other_written;
	} else if (f->max_series) {
		r = place_gauges(f, &other, &write_other);
	} else {
		for (i = 0; i < t->n; i++)
			t->e[i].where = WHERE_OWN;
	}
	if (r) {
		if (o->text)
			o->text->nomem = true;
		return r;
	}
	if (o->text)
		put_meta(f, o->text, o->fmt);
	/* On a failure, the rest is still counted (dropped) and its first error returned. */
	for (i = 0; i < t->n; i++) {
		const struct kent *e = &t->e[i];

		if (e->where == WHERE_OWN && f->nb) {
			r2 = put_hist(f, o, keytab_key(t, e), &f->h_scrape.c[i * f->nb],
				      f->h_scrape.sum[i]);
			r = r ? r : r2;
		} else if (e->where == WHERE_OWN) {
			r2 = put_sample(f, o, keytab_key(t, e), e->v);
			r = r ? r : r2;
		} else if (!is_other_key(f, e)) {
			f->dropped++;
		}
	}
	if (write_other && f->nb) {
		r2 = put_hist(f, o, f->other_key, f->other_c, f->other_sum);
		r = r ? r : r2;
	} else if (write_other) {
		r2 = put_sample(f, o, f->other_key, other);
		r = r ? r : r2;
	}
	if (o->text && o->text->nomem)
		return -ENOMEM;
	return r;
}

int prom_family_write(struct prom_family *f, struct prom_buf *out, enum prom_format fmt)
{
	const struct prom_out o = { .text = out, .fmt = fmt };

	return prom_family_emit(f, &o);
}

int prom_write_eof(struct prom_buf *out, enum prom_format fmt)
{
	if (fmt == PROM_FMT_OPENMETRICS)
		buf_puts(out, "# EOF\n");
	return out->nomem ? -ENOMEM : 0;
}

int prom_out_eof(const struct prom_out *o)
{
	return o->text ? prom_write_eof(o->text, o->fmt) : 0;
}
