/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_VERSION_H
#define KTOP_VERSION_H

#include <stdio.h>

/* ktop --version: the version, the features built in and their libraries, the kernel's. */
void version_print(FILE *f);

#endif
