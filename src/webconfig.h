/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_WEBCONFIG_H
#define KTOP_WEBCONFIG_H

/*
 * --web-config FILE: the exporter-toolkit's web configuration (node_exporter's
 * --web.config.file), the part of it ktop serves:
 *
 *	tls_server_config:
 *	  cert_file: server.crt          (PEM; relative to FILE's directory)
 *	  key_file: server.key
 *	  client_ca_file: ca.crt         (then clients must show a certificate)
 *	  client_auth_type: RequireAndVerifyClientCert  (any type but
 *	                                 NoClientCert needs client_ca_file: ktop
 *	                                 asks for certificates of that CA only)
 *	basic_auth_users:
 *	  alice: $2y$10$...              (bcrypt, as htpasswd -nBC 10 makes)
 *
 * Strict: a key ktop does not know, or one of the format it does not serve
 * (cipher_suites, http_server_config, ...), is an error naming its line,
 * rather than a setting silently not applied.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

enum webconfig_client_auth {
	WC_NO_CLIENT_CERT,		/* NoClientCert (the default without a CA) */
	WC_REQUEST_CLIENT_CERT,		/* RequestClientCert: asked, not checked */
	WC_REQUIRE_ANY_CLIENT_CERT,	/* RequireAnyClientCert: any, not checked */
	WC_VERIFY_IF_GIVEN,		/* VerifyClientCertIfGiven */
	WC_REQUIRE_AND_VERIFY,		/* RequireAndVerifyClientCert (the default with a CA) */
};

struct webconfig_user {
	char *name;
	char *hash;			/* bcrypt: $2y$, $2b$ or $2a$ */
};

struct webconfig {
	bool tls;			/* cert_file and key_file given */
	char *cert_file, *key_file, *client_ca_file;	/* resolved paths; NULL: none */
	enum webconfig_client_auth client_auth;
	struct webconfig_user *users;
	size_t nusers;
};

/*
 * Parse @path into @wc (zeroed first; free with webconfig_free). Returns 0,
 * or -EINVAL (a bad file, with "FILE:LINE: why" in @err; one that asks for
 * neither TLS nor basic auth, an empty one) or another negative errno
 * (unreadable, or not trusted: webconfig_trusted).
 */
int webconfig_load(const char *path, struct webconfig *wc, char *err, size_t errlen);
/* Parse @len bytes of YAML; @dir resolves relative file names; @name is for errors. */
int webconfig_parse(const char *text, size_t len, const char *name, const char *dir,
		    struct webconfig *wc, char *err, size_t errlen);
void webconfig_free(struct webconfig *wc);

/*
 * The whole of the file @path (at most 1 MiB), NUL-terminated, its length in
 * *@lenp (may be NULL); the caller frees it. NULL with "WHAT PATH: why" in @err.
 */
char *slurp_file(const char *what, const char *path, size_t *lenp, char *err,
		      size_t errlen);

/*
 * Whether a file --web-config reads (the file, its certificates, key and CA)
 * is one only ktop's user or root can have made so: a regular file, owned by
 * ktop's effective user or root, not writable by group or others. Another
 * user who can write it decides who may scrape. 0, or -EPERM with
 * "WHAT PATH: why" in @err.
 */
int webconfig_trusted(const char *what, const char *path, const struct stat *sb, char *err,
		      size_t errlen);

/* slurp_file of a file --web-config names, refused unless webconfig_trusted. */
char *webconfig_read_file(const char *what, const char *path, char *err, size_t errlen);

/*
 * A number that changes when the file or one it names changes (inode, size,
 * mtime; ctime: its mode or owner).
 */
unsigned long long webconfig_stamp(const char *path, const struct webconfig *wc);

#endif
