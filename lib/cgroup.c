// SPDX-License-Identifier: GPL-2.0-only
#include "cgroup.h"

#include "cgname.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* A run of bytes inside a path: a component, a line's field. Not NUL-terminated. */
struct span {
	const char *s;
	size_t n;
};

static bool span_is(struct span c, const char *word)
{
	size_t k = strlen(word);

	return c.n == k && memcmp(c.s, word, k) == 0;
}

static bool span_starts(struct span c, const char *prefix)
{
	size_t k = strlen(prefix);

	return c.n >= k && memcmp(c.s, prefix, k) == 0;
}

/* Ends with @suffix, with something before it: ".service" alone names no unit. */
static bool span_ends(struct span c, const char *suffix)
{
	size_t k = strlen(suffix);

	return c.n > k && memcmp(c.s + c.n - k, suffix, k) == 0;
}

static int hex_val(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static bool all_digits(const char *s, size_t n)
{
	for (; n; n--, s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool all_hex(const char *s, size_t n)
{
	while (n--)
		if (hex_val(*s++) < 0)
			return false;
	return true;
}

/*
 * The component that ends at *@end (a position in @base's path), walking
 * towards the root: *@end moves to its start. False when none is left.
 */
static bool comp_prev(const char *base, const char **end, struct span *c)
{
	const char *e = *end, *s;

	while (e > base && e[-1] == '/')
		e--;
	if (e == base)
		return false;
	s = e;
	while (s > base && s[-1] != '/')
		s--;
	c->s = s;
	c->n = (size_t)(e - s);
	*end = s;
	return true;
}

/*
 * Bytes of the character at @s (@n > 0 bytes left): a whole valid UTF-8
 * sequence, else 1 (a stray byte stands alone). So a copy cut between two
 * units never splits a character.
 */
static size_t unit_len(const char *s, size_t n)
{
	unsigned char b = (unsigned char)s[0];
	size_t k, i;

	if (b >= 0xc2 && b <= 0xdf)
		k = 2;
	else if (b >= 0xe0 && b <= 0xef)
		k = 3;
	else if (b >= 0xf0 && b <= 0xf4)
		k = 4;
	else
		return 1;
	if (k > n)
		return 1;
	for (i = 1; i < k; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			return 1;
	return k;
}

/* Appends @k bytes if they fit with the NUL; false (nothing written) if not. */
static bool put(char *out, size_t cap, size_t *o, const char *s, size_t k)
{
	if (*o + k >= cap)
		return false;
	memcpy(out + *o, s, k);
	*o += k;
	return true;
}

/* Appends as many whole characters of @s (@n bytes) as fit. */
static void put_units(char *out, size_t cap, size_t *o, const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		k = unit_len(s + i, n - i);
		if (!put(out, cap, o, s + i, k))
			break;
		i += k;
	}
}

/* @s (@n bytes) as the whole of @out, cut at a character boundary. */
static size_t set_str(char *out, size_t cap, const char *s, size_t n)
{
	size_t o = 0;

	if (!cap)
		return 0;
	put_units(out, cap, &o, s, n);
	out[o] = '\0';
	return o;
}

/*
 * The id after @prefix in @c: "PREFIX<hex>" or "PREFIX<hex>.scope", at least
 * CGROUP_SHORT_ID hex digits. "libpod-conmon-ID.scope" is not one (a monitor).
 */
static bool id_after(struct span c, const char *prefix, struct span *id)
{
	size_t k = strlen(prefix);
	struct span r;

	if (!span_starts(c, prefix))
		return false;
	r.s = c.s + k;
	r.n = c.n - k;
	if (span_ends(r, ".scope"))
		r.n -= strlen(".scope");
	if (r.n < CGROUP_SHORT_ID || !all_hex(r.s, r.n))
		return false;
	*id = r;
	return true;
}

/*
 * The container @path (@n bytes) names and its id (a span of @path), from the
 * innermost component outwards. Why these forms: see cgroup_container().
 */
static enum cgroup_runtime container_of(const char *path, size_t n, struct span *id)
{
	const char *end = path + n, *up;
	struct span c, a;

	while (comp_prev(path, &end, &c)) {
		if (id_after(c, "docker-", id))
			return CGROUP_RT_DOCKER;
		if (id_after(c, "cri-containerd-", id))
			return CGROUP_RT_CONTAINERD;
		if (id_after(c, "crio-", id))
			return CGROUP_RT_CRIO;
		if (id_after(c, "libpod-", id))
			return CGROUP_RT_PODMAN;
		if (span_starts(c, "lxc.payload.") && c.n > strlen("lxc.payload.")) {
			id->s = c.s + strlen("lxc.payload.");
			id->n = c.n - strlen("lxc.payload.");
			return CGROUP_RT_LXC;
		}
		up = end;
		if (c.n == 64 && all_hex(c.s, c.n)) {
			/* A bare id: the nearest ancestor that says whose. */
			*id = c;
			while (comp_prev(path, &up, &a)) {
				if (span_is(a, "docker"))
					return CGROUP_RT_DOCKER;
				if (span_starts(a, "kubepods"))
					return CGROUP_RT_KUBEPODS;
			}
			return CGROUP_RT_OTHER;
		}
		if (comp_prev(path, &up, &a) && (span_is(a, "lxc") || span_is(a, "lxc.payload"))) {
			*id = c;
			return CGROUP_RT_LXC;
		}
	}
	return CGROUP_RT_NONE;
}

enum cgroup_runtime cgroup_container(const char *path, struct cgroup_container *c)
{
	struct span id;
	size_t o = 0;

	c->runtime = container_of(path, strlen(path), &id);
	c->id[0] = '\0';
	if (c->runtime == CGROUP_RT_NONE)
		return c->runtime;
	if (c->runtime != CGROUP_RT_LXC && id.n > CGROUP_SHORT_ID)
		id.n = CGROUP_SHORT_ID;
	put_units(c->id, sizeof(c->id), &o, id.s, id.n);
	c->id[o] = '\0';
	return c->runtime;
}

enum cgroup_runtime cgroup_container_span(const char *path, size_t *off, size_t *n,
					  size_t *dir_len)
{
	struct span id;
	enum cgroup_runtime rt = container_of(path, strlen(path), &id);
	const char *e;

	if (rt == CGROUP_RT_NONE)
		return rt;
	*off = (size_t)(id.s - path);
	*n = id.n;
	e = strchr(id.s + id.n, '/');
	*dir_len = e ? (size_t)(e - path) : strlen(path);
	return rt;
}

const char *cgroup_runtime_name(enum cgroup_runtime rt)
{
	static const char *const names[CGROUP_RT__COUNT] = {
		[CGROUP_RT_NONE] = "",
		[CGROUP_RT_DOCKER] = "docker",
		[CGROUP_RT_CONTAINERD] = "containerd",
		[CGROUP_RT_KUBEPODS] = "kubepods",
		[CGROUP_RT_PODMAN] = "podman",
		[CGROUP_RT_CRIO] = "crio",
		[CGROUP_RT_LXC] = "lxc",
		[CGROUP_RT_OTHER] = "container",
	};

	return (unsigned)rt < CGROUP_RT__COUNT ? names[rt] : "";
}

/*
 * A unit name into @out, systemd's "\xHH" escapes of printable ASCII undone.
 * An escape of anything else (a control byte, a byte of UTF-8) stays as it
 * is, four bytes never cut: undone, it could make a name print differently
 * from what `systemctl` shows, or not be UTF-8.
 */
static size_t unit_unescape(struct span c, char *out, size_t cap)
{
	size_t i = 0, o = 0, k;
	char ch;

	if (!cap)
		return 0;
	while (i < c.n) {
		if (c.s[i] == '\\' && c.n - i >= 4 && c.s[i + 1] == 'x' &&
		    hex_val(c.s[i + 2]) >= 0 && hex_val(c.s[i + 3]) >= 0) {
			ch = (char)(hex_val(c.s[i + 2]) << 4 | hex_val(c.s[i + 3]));
			if (ch >= 0x20 && ch < 0x7f)
				k = put(out, cap, &o, &ch, 1);
			else
				k = put(out, cap, &o, c.s + i, 4);
			if (!k)
				break;
			i += 4;
			continue;
		}
		k = unit_len(c.s + i, c.n - i);
		if (!put(out, cap, &o, c.s + i, k))
			break;
		i += k;
	}
	out[o] = '\0';
	return o;
}

size_t cgroup_unit(const char *path, char *out, size_t cap)
{
	const char *end = path + strlen(path);
	struct span c, slice = { NULL, 0 };

	while (comp_prev(path, &end, &c)) {
		if (span_ends(c, ".service") || span_ends(c, ".scope"))
			return unit_unescape(c, out, cap);
		if (!slice.s && span_ends(c, ".slice"))
			slice = c;
	}
	if (slice.s)
		return unit_unescape(slice, out, cap);
	return set_str(out, cap, "-", 1);
}

size_t cgroup_path_fit(const char *path, size_t n, char *out, size_t cap)
{
	static const char ell[] = "/\xe2\x80\xa6";	/* "/…" */
	const size_t ell_n = sizeof(ell) - 1;
	const char *slash;
	size_t room, head = 0, t, k, o;

	if (!cap)
		return 0;
	room = cap - 1;
	if (n <= room) {
		memcpy(out, path, n);
		out[n] = '\0';
		return n;
	}
	/* Too small to keep both ends meaningfully: the start. */
	if (room < ell_n + 16)
		return set_str(out, cap, path, n);
	/* The first component ("/kubepods", "/docker") when it is short. */
	if (path[0] == '/') {
		slash = memchr(path + 1, '/', n - 1);
		head = slash ? (size_t)(slash - path) : n;
		if (head > room / 3)
			head = 0;
	}
	t = n - (room - head - ell_n);
	slash = memchr(path + t, '/', n - t);
	if (slash) {
		t = (size_t)(slash - path);
	} else {
		/* The last component alone is too long: its end, from a character start. */
		for (k = 0; k < 3 && t < n && ((unsigned char)path[t] & 0xc0) == 0x80; k++)
			t++;
	}
	o = head;
	memcpy(out, path, head);
	memcpy(out + o, ell, ell_n);
	o += ell_n;
	memcpy(out + o, path + t, n - t);
	o += n - t;
	out[o] = '\0';
	return o;
}

/* Rank of a hierarchy's line in cgroup_parse_proc()'s order (lower first). */
static int line_rank(struct span ctl)
{
	const char *p = ctl.s, *e = ctl.s + ctl.n, *comma;
	struct span w;
	int r, best = 5;

	if (ctl.n == 0)
		return 0;	/* v2 (the caller checked the id is 0) */
	while (p <= e) {
		comma = memchr(p, ',', (size_t)(e - p));
		w.s = p;
		w.n = (size_t)((comma ? comma : e) - p);
		r = span_is(w, "name=systemd") ? 1 : span_is(w, "pids") ? 2 :
		    span_is(w, "memory") ? 3 : span_is(w, "cpu") ? 4 : 5;
		if (r < best)
			best = r;
		if (!comma)
			break;
		p = comma + 1;
	}
	return best;
}

/* A line of /proc/PID/cgroup: "ID:CONTROLLERS:PATH", the path being the rest of the line. */
struct cg_line {
	struct span ctl, path;
	bool v2;		/* "0::PATH", its " (deleted)" mark dropped */
};

/*
 * The next line at *@p (before @end) that parses, into @l; *@p moves past
 * it. A second "0::" line (*@v2_seen) is not the kernel's. False at the end.
 */
static bool next_line(const char **p, const char *end, bool *v2_seen, struct cg_line *l)
{
	static const char deleted[] = " (deleted)";
	const char *le, *c1, *c2;
	size_t k;

	for (; *p < end; *p = le < end ? le + 1 : end) {
		le = memchr(*p, '\n', (size_t)(end - *p));
		if (!le)
			le = end;
		c1 = memchr(*p, ':', (size_t)(le - *p));
		if (!c1 || c1 == *p || c1 - *p > 10 || !all_digits(*p, (size_t)(c1 - *p)))
			continue;
		c2 = memchr(c1 + 1, ':', (size_t)(le - c1 - 1));
		if (!c2)
			continue;
		l->ctl.s = c1 + 1;
		l->ctl.n = (size_t)(c2 - l->ctl.s);
		l->path.s = c2 + 1;
		l->path.n = (size_t)(le - l->path.s);
		/* A NUL is not the kernel's (and would cut the string the model keeps). */
		if (!l->path.n || l->path.s[0] != '/' || memchr(l->path.s, '\0', l->path.n))
			continue;
		l->v2 = l->ctl.n == 0 && c1 - *p == 1 && (*p)[0] == '0';
		if (!l->v2 && l->ctl.n == 0)
			continue;
		if (l->v2) {
			if (*v2_seen)
				continue;
			*v2_seen = true;
			k = sizeof(deleted) - 1;
			if (l->path.n > k && memcmp(l->path.s + l->path.n - k, deleted, k) == 0)
				l->path.n -= k;
		}
		*p = le < end ? le + 1 : end;
		return true;
	}
	return false;
}

int cgroup_parse_proc(const char *buf, size_t len, char *out, size_t cap)
{
	const char *p = buf, *end = buf + len, *best = NULL;
	size_t best_n = 0;
	int best_score = INT_MAX, score;
	bool any = false, v2_seen = false;
	struct span id;
	struct cg_line l;

	if (cap)
		out[0] = '\0';
	while (next_line(&p, end, &v2_seen, &l)) {
		any = true;
		if (l.path.n == 1)
			continue;	/* the root */
		score = line_rank(l.ctl);
		if (container_of(l.path.s, l.path.n, &id) == CGROUP_RT_NONE)
			score += 8;
		if (score < best_score) {
			best_score = score;
			best = l.path.s;
			best_n = l.path.n;
		}
	}
	if (best)
		return (int)cgroup_path_fit(best, best_n, out, cap);
	if (any)
		return (int)set_str(out, cap, "/", 1);
	return -EINVAL;
}

/* Does the comma-separated list @ctl name controller @w? */
static bool has_ctl(struct span ctl, const char *w)
{
	const char *p = ctl.s, *e = ctl.s + ctl.n, *comma;
	struct span c;

	while (p <= e) {
		comma = memchr(p, ',', (size_t)(e - p));
		c.s = p;
		c.n = (size_t)((comma ? comma : e) - p);
		if (span_is(c, w))
			return true;
		if (!comma)
			break;
		p = comma + 1;
	}
	return false;
}

int cgroup_hier_path(const char *buf, size_t len, const char *ctl, char *out, size_t cap)
{
	const char *p = buf, *end = buf + len;
	bool v2_seen = false;
	struct cg_line l;

	if (cap)
		out[0] = '\0';
	while (next_line(&p, end, &v2_seen, &l)) {
		if (ctl ? l.v2 || !has_ctl(l.ctl, ctl) : !l.v2)
			continue;
		if (l.path.n >= cap)
			return -ENAMETOOLONG;
		memcpy(out, l.path.s, l.path.n);
		out[l.path.n] = '\0';
		return (int)l.path.n;
	}
	return -ENOENT;
}

static const char *const group_by_names[CGROUP_BY__COUNT] = {
	[CGROUP_BY_COMM] = "comm",
	[CGROUP_BY_USER] = "user",
	[CGROUP_BY_CGROUP] = "cgroup",
	[CGROUP_BY_UNIT] = "unit",
	[CGROUP_BY_CONTAINER] = "container",
	[CGROUP_BY_POD] = "pod",
	[CGROUP_BY_NAMESPACE] = "namespace",
};

const char *cgroup_group_by_name(enum cgroup_group_by by)
{
	return (unsigned)by < CGROUP_BY__COUNT ? group_by_names[by] : "";
}

int cgroup_group_by_parse(const char *s, enum cgroup_group_by *by)
{
	int i;

	for (i = 0; i < CGROUP_BY__COUNT; i++)
		if (strcmp(s, group_by_names[i]) == 0) {
			*by = (enum cgroup_group_by)i;
			return 0;
		}
	return -EINVAL;
}

size_t cgroup_group_key(enum cgroup_group_by by, const char *comm, const char *user,
			const char *path, char *out, size_t cap)
{
	const char *s = by == CGROUP_BY_COMM ? comm : by == CGROUP_BY_USER ? user : path;
	struct cgroup_container c;
	const char *rt;
	size_t o = 0;

	if (!cap)
		return 0;
	if (!s || !*s || (unsigned)by >= CGROUP_BY__COUNT)
		return set_str(out, cap, "?", 1);
	switch (by) {
	case CGROUP_BY_CGROUP:
		return cgroup_path_fit(s, strlen(s), out, cap);
	case CGROUP_BY_UNIT:
		return cgroup_unit(s, out, cap);
	case CGROUP_BY_CONTAINER:
		if (cgroup_container(s, &c) == CGROUP_RT_NONE)
			return set_str(out, cap, "-", 1);
		rt = cgroup_runtime_name(c.runtime);
		if (put(out, cap, &o, rt, strlen(rt)) && put(out, cap, &o, ":", 1))
			put_units(out, cap, &o, c.id, strlen(c.id));
		out[o] = '\0';
		return o;
	case CGROUP_BY_POD:
	case CGROUP_BY_NAMESPACE:
		return cgname_group_key(by, comm, user, s, NULL, out, cap);
	default:
		return set_str(out, cap, s, strlen(s));
	}
}
