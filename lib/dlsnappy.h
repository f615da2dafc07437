/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_DLSNAPPY_H
#define KTOP_DLSNAPPY_H

/*
 * snappy, loaded for --remote-write (lib/dl.h): the push's compression.
 * outputs/rwproto.c includes this, not <snappy-c.h>.
 */

#include <snappy-c.h>

#include "dl.h"

#define DL_SNAPPY_SYMS(X) \
	X(snappy_compress) X(snappy_max_compressed_length)

struct dl_snappy { DL_SNAPPY_SYMS(DL_FIELD) };
extern struct dl_lib dl_snappy_lib;
extern struct dl_snappy dl_snappy_fn;

/* lib/dl.c defines the tables; every other includer calls through them. */
#ifndef DL_DEFINE
#define DL_SNAPPY(f) DL_CALL(dl_snappy_lib, dl_snappy_fn, f)
#define snappy_compress DL_SNAPPY(snappy_compress)
#define snappy_max_compressed_length DL_SNAPPY(snappy_max_compressed_length)
#endif

#endif
