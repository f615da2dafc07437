// SPDX-License-Identifier: GPL-2.0-only
/* The optional libraries' tables and their loader (lib/dl.h says why). */
#define DL_DEFINE
#include "dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlcurl.h"
#include "dlhttp.h"
#include "dlsnappy.h"
#include "dlyaml.h"
/* DL_SONAME_* and DL_PATH_*: the files this build linked against (tools/gen-dlnames.sh). */
#include "dlnames.h"

#define LIB(key, KEY) \
	struct dl_##key dl_##key##_fn; \
	static const struct dl_sym key##_syms[] = { DL_##KEY##_SYMS(KEY##_SYM) }; \
	struct dl_lib dl_##key##_lib = { \
		.soname = DL_SONAME_##KEY, .path = DL_PATH_##KEY, .syms = key##_syms, \
		.nsyms = sizeof(key##_syms) / sizeof(key##_syms[0]), .fns = &dl_##key##_fn, \
		.size = sizeof(dl_##key##_fn), \
	};

#define MHD_SYM(f) DL_SYM(struct dl_mhd, f)
#define GNUTLS_SYM(f) DL_SYM(struct dl_gnutls, f)
#define CRYPT_SYM(f) DL_SYM(struct dl_crypt, f)
#define YAML_SYM(f) DL_SYM(struct dl_yaml, f)
#define CURL_SYM(f) DL_SYM(struct dl_curl, f)
#define SNAPPY_SYM(f) DL_SYM(struct dl_snappy, f)

LIB(mhd, MHD)
LIB(gnutls, GNUTLS)
LIB(crypt, CRYPT)
LIB(yaml, YAML)
LIB(curl, CURL)
LIB(snappy, SNAPPY)

const struct dl_feature dl_features[] = {
	{ "exporter", "--listen", &dl_mhd_lib },
	{ "exporter", "--listen", &dl_gnutls_lib },
	{ "web config", "--web-config", &dl_yaml_lib },
	{ "web config", "--web-config", &dl_crypt_lib },
	{ "remote write", "--remote-write", &dl_curl_lib },
	{ "remote write", "--remote-write", &dl_snappy_lib },
};
const size_t dl_nfeatures = sizeof(dl_features) / sizeof(dl_features[0]);

/* The loader's reason without the soname it starts with (the message names it). */
static const char *reason(const char *soname, const char *e)
{
	size_t n = strlen(soname);

	if (!e)
		return "unknown error";
	return !strncmp(e, soname, n) && !strncmp(e + n, ": ", 2) ? e + n + 2 : e;
}

int dl_load(struct dl_lib *l, char *err, size_t errlen)
{
	void *h, *sym;
	size_t i;

	if (l->loaded)
		return 0;
	h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		if (err && errlen)
			snprintf(err, errlen, "%s (%s)", l->soname, reason(l->soname, dlerror()));
		return -1;
	}
	for (i = 0; i < l->nsyms; i++) {
		dlerror();
		sym = dlsym(h, l->syms[i].name);
		if (!sym) {
			/* Another build of the library: none of its pointers is half set. */
			if (err && errlen)
				snprintf(err, errlen, "%s (it has no %s)", l->soname, l->syms[i].name);
			memset(l->fns, 0, l->size);
			dlclose(h);
			return -1;
		}
		/* POSIX: a data pointer from dlsym converts to the function's pointer. */
		memcpy((char *)l->fns + l->syms[i].off, &sym, sizeof(sym));
	}
	l->handle = h;
	l->loaded = true;
	return 0;
}

int dl_load_for(const char *option, char *err, size_t errlen)
{
	char why[256];
	size_t i;

	for (i = 0; i < dl_nfeatures; i++) {
		if (strcmp(dl_features[i].option, option) || !dl_load(dl_features[i].lib, why, sizeof(why)))
			continue;
		snprintf(err, errlen, "%s needs %s", option, why);
		return -1;
	}
	return 0;
}

void dl_need(struct dl_lib *l)
{
	char why[256], line[300];

	if (!dl_load(l, why, sizeof(why)))
		return;
	/* A caller that did not load its library first: a defect, said before abort(). */
	snprintf(line, sizeof(line), "ktop: cannot load %s\n", why);
	fputs(line, stderr);
	abort();
}
