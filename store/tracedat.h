/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TRACEDAT_H
#define KTOP_TRACEDAT_H

/*
 * store/tracedat: a trace.dat file, version 7 (trace-cmd.dat.v7(5): what
 * trace-cmd, KernelShark and libtracecmd read), uncompressed: the initial
 * header, then sections (the ring buffer's header_page and header_event, the
 * event formats, kallsyms and printk formats (empty), the command lines, one
 * flyrecord section per buffer with each CPU's pages as the kernel wrote
 * them, the strings), and last the options section that names them all
 * (buffers, trace clock, CPU count, uname, a version line that says why the
 * file was written). The first buffer is the top one ("").
 *
 * It knows the file's layout, nothing of where the pages come from: the
 * caller hands them in, one CPU of one buffer at a time (the flight
 * recorder's ring, collectors/trace/flight.h).
 */

#include <stddef.h>
#include <stdint.h>

struct tracedat_format {
	const char *system, *name;
	const char *text;	/* the format file */
	size_t len;
};

struct tracedat_buffer {
	const char *name;	/* "" for the top buffer (the first) */
	const char *clock;	/* its trace clock */
	uint32_t page_size;	/* its sub-buffer, a power of two */
	int ncpus;
};

struct tracedat {
	const char *header_page, *header_event;	/* events/header_page, header_event */
	size_t header_page_len, header_event_len;
	const struct tracedat_format *ftrace;	/* events/ftrace/'*'/format */
	size_t nftrace;
	const struct tracedat_format *events;	/* the other events', grouped by system */
	size_t nevents;
	int ncpus;				/* the host's CPUs */
	const char *trace_clock;		/* the top buffer's trace_clock file ("[local] ...") */
	const char *uname;			/* "Linux HOST RELEASE VERSION MACHINE" */
	const char *version;			/* one line: who wrote it, why */
	const char *const *cpustats;		/* per CPU: "CPU: N\n" and its stats file */
	size_t ncpustats;
	const struct tracedat_buffer *buffers;
	size_t nbuffers;
	/*
	 * The next page of buffer @buf's CPU @cpu (page_size bytes), NULL at
	 * the end; each CPU's pages are asked for in a row.
	 */
	const void *(*page)(void *arg, size_t buf, int cpu);
	/*
	 * After every page: the command lines ("PID COMM\n" each), malloc'ed,
	 * *@len bytes (the pages name the pids). NULL: none.
	 */
	char *(*cmdlines)(void *arg, size_t *len);
	void *arg;
};

/*
 * tracedat_write - write @td to @fd (a new, empty file) from its start
 * @bytes: set to the file's size
 *
 * Returns 0, or -errno (a full disk: -ENOSPC) with @err saying what failed.
 */
int tracedat_write(int fd, const struct tracedat *td, uint64_t *bytes, char *err, size_t errsz);

#endif
