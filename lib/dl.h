/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_DL_H
#define KTOP_DL_H

/*
 * Libraries loaded when an option needs them (dlopen), not when ktop starts:
 * the exporter's (libmicrohttpd, and GnuTLS and libcrypt beside it), the web
 * config's (libyaml), remote write's (libcurl, snappy). Linked, they brought
 * 34 more shared objects into every start (libcurl's Kerberos, LDAP, SSH...),
 * each relocated before main.
 *
 * One header per user (lib/dlhttp.h, dlyaml.h, dlcurl.h, dlsnappy.h) lists
 * its library's functions once (an X-macro), makes the struct of their
 * pointers from the declarations of the library's own header (__typeof__,
 * so no signature is written twice), and turns each name into a call
 * through its pointer, the library loaded first if nobody did: the code
 * that calls libcurl reads as it did. ktop loads the libraries of the options
 * given before anything starts (src/exporter.c), where a missing one is a
 * line and exit 1; the load on first use is for the unit tests.
 */

#include <stdbool.h>
#include <stddef.h>

struct dl_sym {
	const char *name;
	size_t off;		/* of its pointer in the library's struct */
};

struct dl_lib {
	const char *soname;	/* as the build's linker named it (tools/gen-dlnames.sh) */
	const char *path;	/* where the build found it */
	const struct dl_sym *syms;
	size_t nsyms;
	void *fns;		/* the library's struct of pointers */
	size_t size;		/* its size */
	void *handle;
	bool loaded;
};

/*
 * dl_load - load @l and resolve every symbol of it (once; again after a failure)
 * @err: on failure, one line: which library, and the loader's reason
 *
 * Returns 0, or -1 (@l stays unloaded: no pointer of it is set).
 */
int dl_load(struct dl_lib *l, char *err, size_t errlen);

/* dl_load, or (a defect: nobody loaded it before its use) the reason on stderr and abort(). */
void dl_need(struct dl_lib *l);

/* The optional libraries, by the option that needs them, in the order --version names them. */
struct dl_feature {
	const char *feature;	/* what it serves: "exporter", ... */
	const char *option;	/* the option that loads it */
	struct dl_lib *lib;
};
extern const struct dl_feature dl_features[];
extern const size_t dl_nfeatures;

/*
 * dl_load_for - load every library @option needs
 * @err: on failure, one line: "--listen needs libmicrohttpd.so.12 (why)"
 *
 * Returns 0, or -1.
 */
int dl_load_for(const char *option, char *err, size_t errlen);

#define DL_FIELD(f) __typeof__(f) *f;
#define DL_SYM(type, f) { #f, offsetof(type, f) },
/* A call of the library's @f: through its pointer, the library loaded on first use. */
#define DL_CALL(lib, fns, f) (((lib).loaded ? (void)0 : dl_need(&(lib))), (fns).f)

#endif
