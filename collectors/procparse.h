/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROCPARSE_H
#define KTOP_PROCPARSE_H

/*
 * Parsers of /proc files. Pure functions over a buffer: no I/O, no allocation, so
 * they can be unit-tested and fuzzed with hostile input (a comm with spaces, ')',
 * newlines; truncated or empty files; fields the running kernel lacks).
 * Each returns 0 on success or -EINVAL when the buffer is not a usable file.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../model/procdata.h"

int parse_pid_stat(const char *buf, size_t len, struct pid_stat *st);

int parse_pid_status(const char *buf, size_t len, struct pid_status *st);

/*
 * The start of an ELF file (@len bytes of @h, 20 needed): 1 when it is a
 * 32-bit program of another machine than @native_em (an e_machine; x86_64's
 * x32 programs are class 32 of EM_X86_64 itself), 0 for another program, -1
 * when it is no ELF header.
 */
int parse_elf_compat(const unsigned char *h, size_t len, unsigned native_em);

#endif
