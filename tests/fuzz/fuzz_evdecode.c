// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the event decoder's public entry point, evdecode_page, on
 * any bytes, with the page header and event formats of tests/unit/evformats.h
 * (the ids of a 6.18 kernel; tests/fuzz/corpus/evdecode holds pages recorded
 * from such a kernel). An input is cut into sub-buffers of the decoder's page
 * size; each is decoded from an exact-size copy, so a read past the length the
 * kernel returned is an ASan error even inside what would be the page buffer.
 * The per-thread accounts (evsums.c) are kept across the pages of one input and an
 * interval is ended after each, as the ftrace collector does at a tick.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/trace/evsums.h"
#include "../../collectors/trace/evdecode.h"
#include "evformats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The two kinds the unit tests do not use, as the same kernel describes them. */
static const struct ev_format more_formats[] = {
	{ EV_EXIT, "name: sys_enter_exit\nID: 218\nformat:\n" COMMON
	  "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	  "\tfield:int error_code;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	  "print fmt: \"error_code: 0x%08lx\", ((unsigned long)(REC->error_code))\n" },
	{ EV_SIGDELIVER, "name: signal_deliver\nID: 260\nformat:\n" COMMON
	  "\tfield:int sig;\toffset:8;\tsize:4;\tsigned:1;\n"
	  "\tfield:int errno;\toffset:12;\tsize:4;\tsigned:1;\n"
	  "\tfield:int code;\toffset:16;\tsize:4;\tsigned:1;\n"
	  "\tfield:unsigned long sa_handler;\toffset:24;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned long sa_flags;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	  "print fmt: \"sig=%d\", REC->sig\n" },
};

static struct evdecode dec;
static int ready;	/* 1 set up, -1 failed */

static int add_all(const struct ev_format *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (evdecode_add(&dec, f[i].kind, f[i].format, strlen(f[i].format)))
			return -1;
	return 0;
}

static int setup(void)
{
	if (evdecode_init(&dec, header_page, sizeof(header_page) - 1) ||
	    add_all(formats, sizeof(formats) / sizeof(formats[0])) ||
	    add_all(more_formats, sizeof(more_formats) / sizeof(more_formats[0])))
		return -1;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t page = 0, off = 0;
	struct evsums a;

	if (!ready)
		ready = setup();
	if (ready < 0)
		abort();	/* the fixed formats must load: a broken harness is a failure */
	page = (size_t)dec.page_size;
	evsums_init(&a);
	/*
	 * The first input byte picks whether signals count at delivery (-p
	 * mode) and whether calls are timed (--latency); each page is another
	 * CPU's by turns, so that the timing's segments begin and end.
	 */
	a.recv_on_deliver = size && (data[0] & 1);
	a.order_times = size && (data[0] & 2);
	do {
		evsums_set_cpu(&a, (int)(off / (page ? page : 1)) & 1);
		size_t n = size - off < page ? size - off : page;
		uint8_t *copy = malloc(n ? n : 1);

		if (!copy)
			break;
		if (n)
			memcpy(copy, data + off, n);
		evdecode_page(&dec, copy, n, &a);
		free(copy);
		off += n;
		/* A tick: what counting_collect does once the model has the counts. */
		evsums_end_interval(&a);
	} while (off < size);
	evsums_free(&a);
	return 0;
}
