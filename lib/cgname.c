// SPDX-License-Identifier: GPL-2.0-only
#include "cgname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One component of a path: [s, s + n). */
struct comp {
	const char *s;
	size_t n;
};

static bool comp_is(struct comp c, const char *w)
{
	size_t k = strlen(w);

	return c.n == k && !memcmp(c.s, w, k);
}

static bool comp_starts(struct comp c, const char *w)
{
	size_t k = strlen(w);

	return c.n >= k && !memcmp(c.s, w, k);
}

static bool comp_ends(struct comp c, const char *w)
{
	size_t k = strlen(w);

	return c.n > k && !memcmp(c.s + c.n - k, w, k);
}

static int hexv(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Bytes of a whole UTF-8 character at @s (@n > 0 left), 1 for a stray byte. */
static size_t char_len(const char *s, size_t n)
{
	unsigned char b = (unsigned char)s[0];
	size_t k = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 1;
	size_t i;

	if (b >= 0xf5 || k > n)
		return 1;
	for (i = 1; i < k; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			return 1;
	return k;
}

/* @s (@n bytes) into @out, NUL-terminated, cut at a character boundary; the length. */
static size_t copy_cut(char *out, size_t cap, const char *s, size_t n)
{
	size_t o = 0, k;

	if (!cap)
		return 0;
	while (o < n) {
		k = char_len(s + o, n - o);
		if (o + k >= cap)
			break;
		o += k;
	}
	memmove(out, s, o);
	out[o] = '\0';
	return o;
}

/* The pod UID of a pod's component (either driver), dashed, into @uid. */
static bool pod_uid_of(struct comp c, char *uid, size_t cap)
{
	const char *p;
	size_t n, i;

	if (comp_starts(c, "pod") && !comp_ends(c, ".slice")) {
		/* cgroupfs driver: "pod" + the UID as it is. */
		p = c.s + 3;
		n = c.n - 3;
	} else if (comp_starts(c, "kubepods") && comp_ends(c, ".slice") &&
		   (p = memmem(c.s, c.n, "-pod", 4)) != NULL) {
		/* systemd driver: "kubepods[-QOS]-pod" + UID with '_' for '-' + ".slice". */
		p += 4;
		n = (size_t)(c.s + c.n - strlen(".slice") - p);
	} else {
		return false;
	}
	if (n < 8 || n + 1 > cap)
		return false;
	for (i = 0; i < n; i++) {
		char ch = p[i] == '_' ? '-' : p[i];

		if (hexv(ch) < 0 && ch != '-')
			return false;
		uid[i] = ch;
	}
	uid[n] = '\0';
	return true;
}

/* A machined scope "machine-NAME.scope": the name, systemd's \xHH escapes undone. */
static bool machine_of(struct comp c, char *out, size_t cap)
{
	size_t i, o = 0, n;
	const char *s;

	if (!comp_starts(c, "machine-") || !comp_ends(c, ".scope") || !cap)
		return false;
	s = c.s + strlen("machine-");
	n = c.n - strlen("machine-") - strlen(".scope");
	if (!n)
		return false;
	for (i = 0; i < n && o + 1 < cap; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' && hexv(s[i + 2]) >= 0 &&
		    hexv(s[i + 3]) >= 0) {
			char ch = (char)(hexv(s[i + 2]) << 4 | hexv(s[i + 3]));

			/* Printable ASCII only, as cgroup_unit() does. */
			if (ch >= 0x20 && ch < 0x7f) {
				out[o++] = ch;
				i += 3;
				continue;
			}
		}
		out[o++] = s[i];
	}
	out[o] = '\0';
	return true;
}

bool cgname_ident(const char *path, struct cg_ident *id)
{
	const char *p = path, *e;
	size_t off, n, dl;
	struct comp c;
	bool in_kube = false;

	memset(id, 0, sizeof(*id));
	id->runtime = cgroup_container_span(path, &off, &n, &dl);
	if (id->runtime != CGROUP_RT_NONE) {
		copy_cut(id->id, sizeof(id->id), path + off, n);
		id->ctr_len = dl;
	}
	/* Outwards in: the pod (its QoS from the components before it), a machine. */
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchr(p, '/');
		c.s = p;
		c.n = e ? (size_t)(e - p) : strlen(p);
		if (comp_is(c, "kubepods") || comp_is(c, "kubepods.slice")) {
			in_kube = true;
			id->qos = CG_QOS_GUARANTEED;
			id->pod_uid[0] = '\0';
		} else if (in_kube && (comp_is(c, "burstable") || comp_is(c, "kubepods-burstable.slice"))) {
			id->qos = CG_QOS_BURSTABLE;
		} else if (in_kube &&
			   (comp_is(c, "besteffort") || comp_is(c, "kubepods-besteffort.slice"))) {
			id->qos = CG_QOS_BESTEFFORT;
		} else if (in_kube && !id->pod_uid[0] &&
			   pod_uid_of(c, id->pod_uid, sizeof(id->pod_uid))) {
			id->pod_len = (size_t)(c.s + c.n - path);
		} else if (!id->ctr_len && machine_of(c, id->name, sizeof(id->name))) {
			id->machine = true;
			id->ctr_len = (size_t)(c.s + c.n - path);
		}
		p = c.s + c.n;
	}
	if (!id->pod_uid[0])
		id->qos = CG_QOS_NONE;
	return id->runtime != CGROUP_RT_NONE || id->pod_uid[0] || id->machine;
}


/* ---- JSON: a scan for one key's string ---- */

static void put_utf8(char *out, size_t cap, size_t *o, unsigned cp)
{
	char b[4];
	size_t k;

	if (cp < 0x80) {
		b[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		k = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		k = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		k = 4;
	}
	if (*o + k < cap) {
		memcpy(out + *o, b, k);
		*o += k;
	}
}

static int hex4(const char *s, const char *end)
{
	int v = 0, i, h;

	if (end - s < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		h = hexv(s[i]);
		if (h < 0)
			return -1;
		v = v << 4 | h;
	}
	return v;
}

/*
 * The JSON string at *@pp (after its opening quote), unescaped into @out when
 * @out is not NULL; *@pp moves past its closing quote. False when it does not end.
 */
static bool json_str(const char **pp, const char *end, char *out, size_t cap, size_t *olen)
{
	const char *p = *pp;
	size_t o = 0;
	int cp, lo;

	while (p < end && *p != '"') {
		if (*p != '\\') {
			/* A NUL (not JSON's, or \u0000) would cut the name: dropped. */
			if (out && o + 1 < cap && *p)
				out[o++] = *p;
			p++;
			continue;
		}
		if (++p >= end)
			return false;
		switch (*p) {
		case 'u':
			cp = hex4(p + 1, end);
			if (cp < 0)
				return false;
			p += 5;
			/* A surrogate pair is one character. */
			if (cp >= 0xd800 && cp < 0xdc00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
			    (lo = hex4(p + 2, end)) >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				p += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;
			}
			if (out && cp)
				put_utf8(out, cap, &o, (unsigned)cp);
			continue;
		case 'n': cp = '\n'; break;
		case 't': cp = '\t'; break;
		case 'r': cp = '\r'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		default: cp = (unsigned char)*p; break;
		}
		if (out && o + 1 < cap && cp)
			out[o++] = (char)cp;
		p++;
	}
	if (p >= end)
		return false;
	*pp = p + 1;
	if (out && cap) {
		/* Cut at a character boundary: the bytes past @cap were dropped. */
		o = copy_cut(out, cap, out, o);
		out[o] = '\0';
	}
	if (olen)
		*olen = o;
	return true;
}

int cgname_json_string(const char *buf, size_t len, const char *key, int depth, char *out,
		       size_t cap)
{
	const char *p = buf, *end = buf + len, *k0, *q;
	size_t klen = strlen(key), n;
	uint64_t arrays = 0;	/* bit per nesting level below 64: an array, not an object */
	int d = 0;		/* objects and arrays open */
	int objs = 0;		/* objects open: a key's depth */
	bool want_key = false;

	if (cap)
		out[0] = '\0';
	while (p < end) {
		switch (*p) {
		case '{':
		case '[':
			if (d < 64)
				arrays = (arrays & ~(1ull << d)) | (uint64_t)(*p == '[') << d;
			d++;
			objs += *p == '{';
			want_key = *p == '{';
			p++;
			continue;
		case '}':
		case ']':
			if (d > 0)
				d--;
			if (*p == '}' && objs > 0)
				objs--;
			want_key = false;
			p++;
			continue;
		case ',':
			/* Keys are an object's: inside an array, none until the next '{'. */
			want_key = d > 0 && (d > 64 || !(arrays >> (d - 1) & 1));
			p++;
			continue;
		case '"':
			break;
		default:
			p++;
			continue;
		}
		k0 = ++p;
		if (!json_str(&p, end, NULL, 0, NULL))
			return -1;
		if (!want_key)
			continue;
		want_key = false;
		q = p;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
			q++;
		if (q >= end || *q != ':')
			continue;
		/* The key's raw bytes: the keys looked for have no escapes. */
		if ((size_t)(p - 1 - k0) != klen || memcmp(k0, key, klen) || (depth && objs != depth))
			continue;
		q++;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
			q++;
		if (q >= end || *q != '"')
			continue;
		q++;
		if (!json_str(&q, end, out, cap, &n)) {
			/* Cut short: what was copied is no value. */
			if (cap)
				out[0] = '\0';
			return -1;
		}
		return (int)n;
	}
	return -1;
}

/* ---- kubelet file names ---- */

bool cgname_pod_dir(const char *dirname, const char *uid, char *ns, size_t ns_cap, char *pod,
		    size_t pod_cap)
{
	const char *u1 = strchr(dirname, '_'), *u2 = strrchr(dirname, '_');

	if (!u1 || u1 == u2 || u1 == dirname || u2 == u1 + 1 || strcmp(u2 + 1, uid))
		return false;
	copy_cut(ns, ns_cap, dirname, (size_t)(u1 - dirname));
	copy_cut(pod, pod_cap, u1 + 1, (size_t)(u2 - u1 - 1));
	return true;
}

bool cgname_container_log(const char *fname, const char *id, char *out, size_t cap)
{
	size_t n = strlen(fname), k = strlen(id);
	const char *dash, *u1, *u2;

	/* "POD_NAMESPACE_CONTAINER-ID.log" */
	if (k < 12 || n < k + 6 || strcmp(fname + n - 4, ".log"))
		return false;
	dash = fname + n - 4 - k - 1;
	if (*dash != '-' || memcmp(dash + 1, id, k))
		return false;
	u1 = strchr(fname, '_');
	u2 = u1 ? strchr(u1 + 1, '_') : NULL;
	if (!u2 || u2 >= dash || u2 + 1 == dash)
		return false;
	copy_cut(out, cap, u2 + 1, (size_t)(dash - u2 - 1));
	return true;
}

/* ---- keys ---- */

static size_t set(char *out, size_t cap, const char *s)
{
	return copy_cut(out, cap, s, strlen(s));
}

size_t cgname_group_key(enum cgroup_group_by by, const char *comm, const char *user,
			const char *path, const struct cg_name *nm, char *out, size_t cap)
{
	struct cg_ident id;
	char tmp[CGNAME_NS_MAX + 16];

	if (by != CGROUP_BY_CONTAINER && by != CGROUP_BY_POD && by != CGROUP_BY_NAMESPACE)
		return cgroup_group_key(by, comm, user, path, out, cap);
	if (!cap)
		return 0;
	if (!path || !*path)
		return set(out, cap, "?");
	if (!cgname_ident(path, &id))
		return set(out, cap, "-");
	switch (by) {
	case CGROUP_BY_CONTAINER:
		if (nm && nm->container[0])
			return set(out, cap, nm->container);
		if (id.runtime == CGROUP_RT_NONE && id.machine) {
			snprintf(tmp, sizeof(tmp), "machine:%s", id.name);
			return set(out, cap, tmp);
		}
		return cgroup_group_key(by, comm, user, path, out, cap);
	case CGROUP_BY_POD:
		if (nm && nm->pod[0])
			return set(out, cap, nm->pod);
		if (!id.pod_uid[0])
			return set(out, cap, "-");
		snprintf(tmp, sizeof(tmp), "pod:%s", id.pod_uid);
		return set(out, cap, tmp);
	default:
		if (nm && nm->ns[0])
			return set(out, cap, nm->ns);
		return set(out, cap, id.pod_uid[0] ? "?" : "-");
	}
}

size_t cgname_group_id(enum cgroup_group_by by, const char *path, char *out, size_t cap)
{
	struct cg_ident id;
	char tmp[CGNAME_NS_MAX + 16];

	if (!cap)
		return 0;
	out[0] = '\0';
	if (!path || !cgname_ident(path, &id))
		return 0;
	if (by == CGROUP_BY_CONTAINER && id.runtime != CGROUP_RT_NONE)
		return cgroup_group_key(by, NULL, NULL, path, out, cap);
	if (by == CGROUP_BY_CONTAINER && id.machine) {
		snprintf(tmp, sizeof(tmp), "machine:%s", id.name);
		return set(out, cap, tmp);
	}
	if ((by == CGROUP_BY_POD || by == CGROUP_BY_NAMESPACE) && id.pod_uid[0]) {
		snprintf(tmp, sizeof(tmp), "pod:%s", id.pod_uid);
		return set(out, cap, tmp);
	}
	return 0;
}

/* The bytes of @path up to the end of its innermost unit (as cgroup_unit() names it). */
static size_t unit_len(const char *path)
{
	const char *p = path, *e;
	size_t unit = 0, slice = 0;
	struct comp c;

	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchr(p, '/');
		c.s = p;
		c.n = e ? (size_t)(e - p) : strlen(p);
		if (comp_ends(c, ".service") || comp_ends(c, ".scope"))
			unit = (size_t)(c.s + c.n - path);
		else if (comp_ends(c, ".slice"))
			slice = (size_t)(c.s + c.n - path);
		p = c.s + c.n;
	}
	return unit ? unit : slice;
}

size_t cgname_group_dir(enum cgroup_group_by by, const char *path, char *out, size_t cap)
{
	struct cg_ident id;
	size_t n = 0;

	if (cap)
		out[0] = '\0';
	if (!path || path[0] != '/' || !path[1] || !cap)
		return 0;
	switch (by) {
	case CGROUP_BY_CGROUP:
		n = strlen(path);
		/* A path cgroup_path_fit() shortened is no directory. */
		if (strstr(path, "/\xe2\x80\xa6"))
			return 0;
		break;
	case CGROUP_BY_UNIT:
		n = unit_len(path);
		break;
	case CGROUP_BY_CONTAINER:
		if (cgname_ident(path, &id))
			n = id.ctr_len;
		break;
	case CGROUP_BY_POD:
		if (cgname_ident(path, &id))
			n = id.pod_len;
		break;
	default:
		break;
	}
	if (!n || n >= cap)
		return 0;
	memcpy(out, path, n);
	out[n] = '\0';
	return n;
}

/* ---- the model's table ---- */

void cgnames_init(struct cgnames *t)
{
	memset(t, 0, sizeof(*t));
}

void cgnames_free(struct cgnames *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->v[i]);
	free(t->keys);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static size_t slot(const struct cgnames *t, const char *key)
{
	size_t i = (size_t)((uintptr_t)key * 0x9e3779b97f4a7c15ull >> 20) & (t->cap - 1);

	while (t->keys[i] && t->keys[i] != key)
		i = (i + 1) & (t->cap - 1);
	return i;
}

void cgnames_set(struct cgnames *t, const char *path, const struct cg_name *nm)
{
	size_t i;

	if ((t->n + 1) * 2 > t->cap) {
		struct cgnames old = *t;

		t->cap = t->cap ? t->cap * 2 : 64;
		t->keys = xcalloc(t->cap, sizeof(*t->keys));
		t->v = xcalloc(t->cap, sizeof(*t->v));
		for (i = 0; i < old.cap; i++)
			if (old.keys[i]) {
				size_t j = slot(t, old.keys[i]);

				t->keys[j] = old.keys[i];
				t->v[j] = old.v[i];
			}
		free(old.keys);
		free(old.v);
	}
	i = slot(t, path);
	if (!t->keys[i]) {
		t->keys[i] = path;
		t->v[i] = xmalloc(sizeof(*t->v[i]));
		t->n++;
	}
	*t->v[i] = *nm;
}

const struct cg_name *cgnames_get(const struct cgnames *t, const char *path)
{
	size_t i;

	if (!t->cap || !path)
		return NULL;
	i = slot(t, path);
	return t->keys[i] ? t->v[i] : NULL;
}
