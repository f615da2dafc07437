// SPDX-License-Identifier: GPL-2.0-only
#include "webconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/dlyaml.h"
#include "../lib/util.h"

/* Keys of the exporter-toolkit's format that ktop does not serve: refused by name. */
static const char *const unsupported[] = {
	"http_server_config", "cert", "key", "client_ca", "cipher_suites",
	"curve_preferences", "min_version", "max_version", "prefer_server_cipher_suites",
	"client_allowed_sans", "rate_limit",
};

static const struct {
	const char *name;
	enum webconfig_client_auth v;
} auth_types[] = {
	{ "NoClientCert", WC_NO_CLIENT_CERT },
	{ "RequestClientCert", WC_REQUEST_CLIENT_CERT },
	{ "RequireAnyClientCert", WC_REQUIRE_ANY_CLIENT_CERT },
	{ "VerifyClientCertIfGiven", WC_VERIFY_IF_GIVEN },
	{ "RequireAndVerifyClientCert", WC_REQUIRE_AND_VERIFY },
};

struct parse {
	yaml_parser_t p;
	yaml_event_t ev;
	bool have_ev;
	const char *name, *dir;
	char *err;
	size_t errlen;
};

static int fail(struct parse *ps, const yaml_mark_t *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parse *ps, const yaml_mark_t *at, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "--web-config %s:%zu: %s", ps->name,
		 at ? (size_t)at->line + 1 : (size_t)ps->p.problem_mark.line + 1, why);
	return -EINVAL;
}

/* The next event, the previous one freed; aliases are refused (nothing here needs them). */
static int next(struct parse *ps)
{
	if (ps->have_ev)
		yaml_event_delete(&ps->ev);
	ps->have_ev = false;
	if (!yaml_parser_parse(&ps->p, &ps->ev))
		return fail(ps, NULL, "%s", ps->p.problem ? ps->p.problem : "not YAML");
	ps->have_ev = true;
	if (ps->ev.type == YAML_ALIAS_EVENT)
		return fail(ps, &ps->ev.start_mark, "aliases are not accepted");
	return 0;
}

static const char *scalar(const struct parse *ps)
{
	return (const char *)ps->ev.data.scalar.value;
}

/* A scalar that YAML reads as null: an empty value, ~ or null. */
static bool is_null(const struct parse *ps)
{
	const char *s = scalar(ps);

	return ps->ev.type == YAML_SCALAR_EVENT && ps->ev.data.scalar.plain_implicit &&
	       (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
		!strcmp(s, "NULL"));
}

static int refuse_key(struct parse *ps, const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (!strcmp(key, unsupported[i]))
			return fail(ps, &ps->ev.start_mark, "'%s' is not supported by ktop", key);
	return fail(ps, &ps->ev.start_mark, "unknown key '%s'", key);
}

/* A file name, relative to the configuration's directory. */
static int path_value(struct parse *ps, char **out)
{
	const char *v = scalar(ps);

	if (ps->ev.type != YAML_SCALAR_EVENT || !*v)
		return fail(ps, &ps->ev.start_mark, "a file name is expected");
	free(*out);
	if (v[0] == '/' || !ps->dir)
		*out = strdup(v);
	else if (asprintf(out, "%s/%s", ps->dir, v) < 0)
		*out = NULL;
	return *out ? 0 : -ENOMEM;
}

static int tls_section(struct parse *ps, struct webconfig *wc)
{
	bool auth_set = false;
	int r;

	if ((r = next(ps)))
		return r;
	if (is_null(ps))
		return 0;
	if (ps->ev.type != YAML_MAPPING_START_EVENT)
		return fail(ps, &ps->ev.start_mark, "tls_server_config: a mapping is expected");
	for (;;) {
		char key[64];
		size_t i;

		if ((r = next(ps)))
			return r;
		if (ps->ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (ps->ev.type != YAML_SCALAR_EVENT)
			return fail(ps, &ps->ev.start_mark, "a key is expected");
		snprintf(key, sizeof(key), "%s", scalar(ps));
		if (strcmp(key, "cert_file") && strcmp(key, "key_file") &&
		    strcmp(key, "client_ca_file") && strcmp(key, "client_auth_type"))
			return refuse_key(ps, key);
		if ((r = next(ps)))
			return r;
		if (!strcmp(key, "cert_file"))
			r = path_value(ps, &wc->cert_file);
		else if (!strcmp(key, "key_file"))
			r = path_value(ps, &wc->key_file);
		else if (!strcmp(key, "client_ca_file"))
			r = path_value(ps, &wc->client_ca_file);
		else {
			if (ps->ev.type != YAML_SCALAR_EVENT)
				return fail(ps, &ps->ev.start_mark, "client_auth_type: a name is expected");
			for (i = 0; i < sizeof(auth_types) / sizeof(auth_types[0]); i++)
				if (!strcmp(scalar(ps), auth_types[i].name))
					break;
			if (i == sizeof(auth_types) / sizeof(auth_types[0]))
				return fail(ps, &ps->ev.start_mark,
					    "client_auth_type '%s' is not NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert",
					    scalar(ps));
			wc->client_auth = auth_types[i].v;
			auth_set = true;
		}
		if (r)
			return r;
	}
	if (!wc->cert_file != !wc->key_file)
		return fail(ps, &ps->ev.start_mark, "tls_server_config needs both cert_file and key_file");
	wc->tls = wc->cert_file != NULL;
	if (!wc->tls && (wc->client_ca_file || auth_set))
		return fail(ps, &ps->ev.start_mark, "client certificates need cert_file and key_file");
	/* As the exporter-toolkit: a CA given and no type is RequireAndVerifyClientCert. */
	if (wc->client_ca_file && !auth_set)
		wc->client_auth = WC_REQUIRE_AND_VERIFY;
	if (!wc->client_ca_file && wc->client_auth != WC_NO_CLIENT_CERT)
		return fail(ps, &ps->ev.start_mark,
			    "client_auth_type other than NoClientCert needs client_ca_file");
	return 0;
}

static bool bcrypt_like(const char *h)
{
	return strlen(h) == 60 && h[0] == '$' && h[1] == '2' &&
	       (h[2] == 'y' || h[2] == 'b' || h[2] == 'a') && h[3] == '$';
}

static int users_section(struct parse *ps, struct webconfig *wc)
{
	int r;

	if ((r = next(ps)))
		return r;
	if (is_null(ps))
		return 0;
	if (ps->ev.type != YAML_MAPPING_START_EVENT)
		return fail(ps, &ps->ev.start_mark, "basic_auth_users: a mapping is expected");
	for (;;) {
		struct webconfig_user *v, *u;
		size_t i;

		if ((r = next(ps)))
			return r;
		if (ps->ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (ps->ev.type != YAML_SCALAR_EVENT || !*scalar(ps) || strchr(scalar(ps), ':'))
			return fail(ps, &ps->ev.start_mark, "a user name (without ':') is expected");
		for (i = 0; i < wc->nusers; i++)
			if (!strcmp(wc->users[i].name, scalar(ps)))
				return fail(ps, &ps->ev.start_mark, "user '%s' twice", scalar(ps));
		v = realloc(wc->users, (wc->nusers + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		wc->users = v;
		u = &wc->users[wc->nusers];
		*u = (struct webconfig_user){ strdup(scalar(ps)), NULL };
		wc->nusers++;
		if (!u->name)
			return -ENOMEM;
		if ((r = next(ps)))
			return r;
		if (ps->ev.type != YAML_SCALAR_EVENT || !bcrypt_like(scalar(ps)))
			return fail(ps, &ps->ev.start_mark,
				    "user '%s': a bcrypt hash ($2y$..., 60 characters) is expected",
				    u->name);
		u->hash = strdup(scalar(ps));
		if (!u->hash)
			return -ENOMEM;
	}
	return 0;
}

int webconfig_parse(const char *text, size_t len, const char *name, const char *dir,
		    struct webconfig *wc, char *err, size_t errlen)
{
	struct parse ps = { .name = name, .dir = dir, .err = err, .errlen = errlen };
	bool seen_tls = false, seen_users = false;
	int r;

	memset(wc, 0, sizeof(*wc));
	if (!yaml_parser_initialize(&ps.p))
		return err_set(err, errlen, -ENOMEM, "--web-config: out of memory");
	yaml_parser_set_input_string(&ps.p, (const unsigned char *)text, len);
	if ((r = next(&ps)) || (r = next(&ps)))	/* stream start, document start */
		goto out;
	if (ps.ev.type == YAML_STREAM_END_EVENT)
		goto out;	/* an empty file: plain HTTP, no auth, as the toolkit */
	if ((r = next(&ps)))
		goto out;
	if (is_null(&ps))
		goto done;
	if (ps.ev.type != YAML_MAPPING_START_EVENT) {
		r = fail(&ps, &ps.ev.start_mark, "a mapping is expected");
		goto out;
	}
	for (;;) {
		char key[64];

		if ((r = next(&ps)))
			goto out;
		if (ps.ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (ps.ev.type != YAML_SCALAR_EVENT) {
			r = fail(&ps, &ps.ev.start_mark, "a key is expected");
			goto out;
		}
		snprintf(key, sizeof(key), "%s", scalar(&ps));
		if (!strcmp(key, "tls_server_config") && !seen_tls) {
			seen_tls = true;
			r = tls_section(&ps, wc);
		} else if (!strcmp(key, "basic_auth_users") && !seen_users) {
			seen_users = true;
			r = users_section(&ps, wc);
		} else if (!strcmp(key, "tls_server_config") || !strcmp(key, "basic_auth_users")) {
			r = fail(&ps, &ps.ev.start_mark, "'%s' twice", key);
		} else {
			r = refuse_key(&ps, key);
		}
		if (r)
			goto out;
	}
done:
	if ((r = next(&ps)))	/* document end */
		goto out;
	if ((r = next(&ps)))
		goto out;
	if (ps.ev.type != YAML_STREAM_END_EVENT)
		r = fail(&ps, &ps.ev.start_mark, "one document is expected");
out:
	/*
	 * The toolkit serves an empty file as no file: plain HTTP, anyone may
	 * scrape. A file given for protection that asks for none (emptied,
	 * truncated) is rather a mistake than a wish, and would fail open.
	 */
	if (!r && !wc->tls && !wc->nusers)
		r = err_set(err, errlen, -EINVAL,
			    "--web-config %s: asks for neither TLS nor basic auth (an empty file?): refused; leave --web-config out to serve plain HTTP",
			    name);
	if (r == -ENOMEM)
		err_set(err, errlen, r, "--web-config: out of memory");
	if (ps.have_ev)
		yaml_event_delete(&ps.ev);
	yaml_parser_delete(&ps.p);
	if (r)
		webconfig_free(wc);
	return r;
}

int webconfig_trusted(const char *what, const char *path, const struct stat *sb, char *err,
		      size_t errlen)
{
	if (!S_ISREG(sb->st_mode))
		return err_set(err, errlen, -EPERM, "%s %s: not a regular file: not read", what, path);
	if (sb->st_uid != geteuid() && sb->st_uid != 0)
		return err_set(err, errlen, -EPERM,
			       "%s %s: owned by uid %u, neither ktop's user (uid %u) nor root: not read",
			       what, path, (unsigned)sb->st_uid, (unsigned)geteuid());
	if (sb->st_mode & (S_IWGRP | S_IWOTH))
		return err_set(err, errlen, -EPERM,
			       "%s %s: group or others may write it (mode %04o): not read", what,
			       path, (unsigned)(sb->st_mode & 07777));
	return 0;
}

/* slurp_file, the file checked first (webconfig_trusted) when @checked. */
static char *slurp(const char *what, const char *path, bool checked, size_t *lenp, char *err,
		   size_t errlen)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	struct stat sb;
	int fd, r = 0;
	ssize_t n;

	/* O_NONBLOCK: a FIFO at the name is refused, not waited on. */
	fd = open(path, O_RDONLY | O_CLOEXEC | (checked ? O_NONBLOCK : 0));
	if (fd < 0) {
		err_set(err, errlen, -errno, "%s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	/* On the descriptor read: what was checked is what is read. */
	if (checked && (fstat(fd, &sb) ? err_set(err, errlen, -errno, "%s %s: %s", what, path,
						  strerror(errno)) :
			webconfig_trusted(what, path, &sb, err, errlen))) {
		close(fd);
		return NULL;
	}
	for (;;) {
		if (len + 4096 > cap) {
			char *t;

			cap = cap ? cap * 2 : 8192;
			if (cap > (1 << 20)) {
				r = err_set(err, errlen, -EFBIG, "%s %s: larger than 1 MiB", what, path);
				break;
			}
			t = realloc(text, cap);
			if (!t) {
				r = err_set(err, errlen, -ENOMEM, "%s: out of memory", what);
				break;
			}
			text = t;
		}
		n = read(fd, text + len, cap - len - 1);
		if (n < 0) {
			r = err_set(err, errlen, -errno, "%s %s: %s", what, path, strerror(errno));
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r) {
		free(text);
		return NULL;
	}
	if (!text && !(text = malloc(1))) {
		err_set(err, errlen, -ENOMEM, "%s: out of memory", what);
		return NULL;
	}
	text[len] = '\0';
	if (lenp)
		*lenp = len;
	return text;
}

char *slurp_file(const char *what, const char *path, size_t *lenp, char *err, size_t errlen)
{
	return slurp(what, path, false, lenp, err, errlen);
}

char *webconfig_read_file(const char *what, const char *path, char *err, size_t errlen)
{
	return slurp(what, path, true, NULL, err, errlen);
}

int webconfig_load(const char *path, struct webconfig *wc, char *err, size_t errlen)
{
	char *text, *dir = NULL, *slash;
	size_t len = 0;
	int r = 0;

	memset(wc, 0, sizeof(*wc));
	text = slurp("--web-config", path, true, &len, err, errlen);
	if (!text)
		return -EIO;
	dir = strdup(path);
	if (!dir) {
		r = err_set(err, errlen, -ENOMEM, "--web-config: out of memory");
		goto out;
	}
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	r = webconfig_parse(text, len, path, slash ? dir : NULL, wc, err, errlen);
out:
	free(text);
	free(dir);
	return r;
}

void webconfig_free(struct webconfig *wc)
{
	size_t i;

	free(wc->cert_file);
	free(wc->key_file);
	free(wc->client_ca_file);
	for (i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
	}
	free(wc->users);
	memset(wc, 0, sizeof(*wc));
}

static unsigned long long stamp_of(const char *path, unsigned long long h)
{
	struct stat st;

	if (!path)
		return h;
	if (stat(path, &st))
		return h * 31 + 1;
	h = h * 1000003 ^ (unsigned long long)st.st_ino;
	h = h * 1000003 ^ (unsigned long long)st.st_size;
	h = h * 1000003 ^ (unsigned long long)st.st_mtim.tv_sec;
	h = h * 1000003 ^ (unsigned long long)st.st_mtim.tv_nsec;
	/* A chmod or chown changes whether the file is trusted. */
	h = h * 1000003 ^ (unsigned long long)st.st_ctim.tv_sec;
	h = h * 1000003 ^ (unsigned long long)st.st_ctim.tv_nsec;
	return h;
}

unsigned long long webconfig_stamp(const char *path, const struct webconfig *wc)
{
	unsigned long long h = stamp_of(path, 1);

	h = stamp_of(wc->cert_file, h);
	h = stamp_of(wc->key_file, h);
	return stamp_of(wc->client_ca_file, h);
}
