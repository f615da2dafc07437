/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROCPARSE_H
#define KTOP_PROCPARSE_H

/*
 * The /proc parsers are procfs.c's now (procfs.h). This name stays only for
 * collectors/instance.c, which another branch is rewriting (the rbpage.c
 * merge): once that lands it includes procfs.h and this file goes.
 */
#include "procfs.h"

#endif
