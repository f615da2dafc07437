// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat v7 (tracedat.h), written the way trace-cmd's own writer lays it
 * out (lib/trace-cmd/trace-output.c): little-endian numbers of the host (the
 * pages are the host kernel's), sections each with a header (id, flags,
 * description's string id, size), flyrecord CPU data aligned to the
 * buffer's page size, the options section last and its offset patched into
 * the initial header.
 */
#include "tracedat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/util.h"

/* Section and option ids (trace-cmd.dat.v7(5)). */
enum {
	OPT_DONE = 0, OPT_CPUSTAT = 2, OPT_BUFFER = 3, OPT_TRACECLOCK = 4, OPT_UNAME = 5,
	OPT_CPUCOUNT = 8, OPT_VERSION = 9, OPT_STRINGS = 15, OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17, OPT_EVENT_FORMATS = 18, OPT_KALLSYMS = 19, OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
};

#define WBUF (64 * 1024)

struct out {
	int fd;
	uint64_t off;		/* the file's offset of the next byte */
	unsigned char *buf;
	size_t n;
	int err;		/* the first error, -errno */
	const char *what;	/* what is being written */
	const char *failed;	/* what was being written when it failed */
};

static void fail(struct out *o, int err)
{
	if (err && !o->err) {
		o->err = err;
		o->failed = o->what;
	}
}

static int write_all(int fd, const void *p, size_t len, uint64_t at)
{
	const unsigned char *c = p;

	while (len) {
		ssize_t w = pwrite(fd, c, len, (off_t)at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		c += w;
		at += (uint64_t)w;
		len -= (size_t)w;
	}
	return 0;
}

static void flush(struct out *o)
{
	if (o->n && !o->err)
		fail(o, write_all(o->fd, o->buf, o->n, o->off - o->n));
	o->n = 0;
}

static void put(struct out *o, const void *p, size_t len)
{
	if (o->err)
		return;
	if (len >= WBUF / 2) {
		flush(o);
		if (!o->err)
			fail(o, write_all(o->fd, p, len, o->off));
		o->off += len;
		return;
	}
	if (o->n + len > WBUF)
		flush(o);
	memcpy(o->buf + o->n, p, len);
	o->n += len;
	o->off += len;
}

static void put2(struct out *o, uint16_t v) { put(o, &v, 2); }
static void put4(struct out *o, uint32_t v) { put(o, &v, 4); }
static void put8(struct out *o, uint64_t v) { put(o, &v, 8); }
static void put_str(struct out *o, const char *s) { put(o, s, strlen(s) + 1); }

/* Zeros up to the next multiple of @align (a power of two): a hole, not written. */
static void align_to(struct out *o, uint64_t align)
{
	uint64_t to = (o->off + align - 1) & ~(align - 1);

	flush(o);
	o->off = to;
}

/* Patch 8 bytes at @at (already written past). */
static void patch8(struct out *o, uint64_t at, uint64_t v)
{
	flush(o);
	if (!o->err)
		fail(o, write_all(o->fd, &v, 8, at));
}

/* The descriptions of the sections, in the strings section: their ids are offsets there. */
struct strings {
	char *s;
	size_t len;
};

static uint32_t add_string(struct strings *st, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t id = (uint32_t)st->len;

	st->s = xrealloc(st->s, st->len + n);
	memcpy(st->s + st->len, s, n);
	st->len += n;
	return id;
}

/* A section's header; returns where its size goes (section_end fills it in). */
static uint64_t section_begin(struct out *o, uint16_t id, uint32_t desc)
{
	uint64_t at;

	put2(o, id);
	put2(o, 0);		/* flags: not compressed */
	put4(o, desc);
	at = o->off;
	put8(o, 0);
	return at;
}

static void section_end(struct out *o, uint64_t size_at)
{
	patch8(o, size_at, o->off - size_at - 8);
}

/* One option into the options buffer @ob. */
static void opt(struct strings *ob, uint16_t id, const void *data, uint32_t len)
{
	ob->s = xrealloc(ob->s, ob->len + 6 + len);
	memcpy(ob->s + ob->len, &id, 2);
	memcpy(ob->s + ob->len + 2, &len, 4);
	memcpy(ob->s + ob->len + 6, data, len);
	ob->len += 6 + len;
}

static void opt_u64(struct strings *ob, uint16_t id, uint64_t v)
{
	opt(ob, id, &v, 8);
}

static void opt_str(struct strings *ob, uint16_t id, const char *s)
{
	if (s)
		opt(ob, id, s, (uint32_t)strlen(s) + 1);
}

static void formats(struct out *o, const struct tracedat_format *f, size_t n, bool systems)
{
	size_t i, j;

	if (!systems) {
		put4(o, (uint32_t)n);
		for (i = 0; i < n; i++) {
			put8(o, f[i].len);
			put(o, f[i].text, f[i].len);
		}
		return;
	}
	/* Systems: each a name and its events; consecutive events of one system go together. */
	size_t nsys = 0;

	for (i = 0; i < n; i++)
		if (!i || strcmp(f[i].system, f[i - 1].system))
			nsys++;
	put4(o, (uint32_t)nsys);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(f[j].system, f[i].system); j++)
			;
		put_str(o, f[i].system);
		put4(o, (uint32_t)(j - i));
		for (size_t k = i; k < j; k++) {
			put8(o, f[k].len);
			put(o, f[k].text, f[k].len);
		}
	}
}

/* Where each buffer's CPUs went, for its BUFFER option. */
struct cpu_data {
	uint64_t off, size;
};

/* A buffer's flyrecord section: each CPU's pages, page-aligned. */
static void buffer_section(struct out *o, const struct tracedat *td, size_t b, uint32_t desc,
			   struct cpu_data *cd)
{
	const struct tracedat_buffer *tb = &td->buffers[b];
	uint64_t size_at = section_begin(o, OPT_BUFFER, desc);
	int c;

	for (c = 0; c < tb->ncpus && !o->err; c++) {
		const void *page;

		align_to(o, tb->page_size);
		cd[c].off = o->off;
		while (!o->err && (page = td->page(td->arg, b, c)))
			put(o, page, tb->page_size);
		cd[c].size = o->off - cd[c].off;
	}
	section_end(o, size_at);
}

static void buffer_option(struct strings *ob, const struct tracedat_buffer *tb, uint64_t at,
			  const struct cpu_data *cd)
{
	struct strings v = { 0 };
	uint32_t n = 0, u32;
	int c;

	/* offset, name, clock, page size, CPUs with data: (id, offset, size) each. */
	v.s = xmalloc(8);
	memcpy(v.s, &at, 8);
	v.len = 8;
	add_string(&v, tb->name);
	add_string(&v, tb->clock);
	for (c = 0; c < tb->ncpus; c++)
		n += cd[c].size != 0;
	v.s = xrealloc(v.s, v.len + 8 + (size_t)n * 20);
	memcpy(v.s + v.len, &tb->page_size, 4);
	memcpy(v.s + v.len + 4, &n, 4);
	v.len += 8;
	for (c = 0; c < tb->ncpus; c++) {
		if (!cd[c].size)
			continue;
		u32 = (uint32_t)c;
		memcpy(v.s + v.len, &u32, 4);
		memcpy(v.s + v.len + 4, &cd[c].off, 8);
		memcpy(v.s + v.len + 12, &cd[c].size, 8);
		v.len += 20;
	}
	opt(ob, OPT_BUFFER, v.s, (uint32_t)v.len);
	free(v.s);
}

int tracedat_write(int fd, const struct tracedat *td, uint64_t *bytes, char *err, size_t errsz)
{
	struct out o = { .fd = fd };
	struct strings st = { 0 }, ob = { 0 };
	uint64_t opts_at, at, size_at, cmd_at, strings_at;
	uint64_t sec[OPT_CMDLINES + 1] = { 0 };
	uint32_t d_headers, d_ftrace, d_events, d_kallsyms, d_printk, d_cmdlines, d_strings,
		 d_options, *d_buf;
	struct cpu_data **cd;
	uint64_t *buf_at;
	char name[128];
	size_t b, len = 0;
	char *cmd;
	uint32_t zero4 = 0;

	*bytes = 0;
	if (!td->nbuffers || td->buffers[0].name[0]) {
		snprintf(err, errsz, "trace.dat: the first buffer must be the top one");
		return -EINVAL;
	}
	o.buf = xmalloc(WBUF);
	d_headers = add_string(&st, "headers");
	d_ftrace = add_string(&st, "ftrace events");
	d_events = add_string(&st, "events format");
	d_kallsyms = add_string(&st, "kallsyms");
	d_printk = add_string(&st, "printk");
	d_cmdlines = add_string(&st, "command lines");
	d_buf = xcalloc(td->nbuffers, sizeof(*d_buf));
	for (b = 0; b < td->nbuffers; b++) {
		snprintf(name, sizeof(name), "buffer flyrecord %s", td->buffers[b].name);
		d_buf[b] = add_string(&st, name);
	}
	d_strings = add_string(&st, "strings");
	d_options = add_string(&st, "options");

	/* The initial header: magic, version, endianness, long size, page size, no compression. */
	put(&o, "\x17\x08\x44tracing", 10);
	put_str(&o, "7");
	put(&o, "\0\x08", 2);	/* little endian (rbpage_host_ok), 64-bit long */
	put4(&o, td->buffers[0].page_size);
	put_str(&o, "none");
	put_str(&o, "");
	opts_at = o.off;
	put8(&o, 0);		/* the options section's offset, patched at the end */

	o.what = "headers";
	sec[OPT_HEADER_INFO] = o.off;
	size_at = section_begin(&o, OPT_HEADER_INFO, d_headers);
	put(&o, "header_page", 12);
	put8(&o, td->header_page_len);
	put(&o, td->header_page, td->header_page_len);
	put(&o, "header_event", 13);
	put8(&o, td->header_event_len);
	put(&o, td->header_event, td->header_event_len);
	section_end(&o, size_at);

	o.what = "event formats";
	sec[OPT_FTRACE_EVENTS] = o.off;
	size_at = section_begin(&o, OPT_FTRACE_EVENTS, d_ftrace);
	formats(&o, td->ftrace, td->nftrace, false);
	section_end(&o, size_at);
	sec[OPT_EVENT_FORMATS] = o.off;
	size_at = section_begin(&o, OPT_EVENT_FORMATS, d_events);
	formats(&o, td->events, td->nevents, true);
	section_end(&o, size_at);
	/* No kallsyms nor printk formats: the events ktop keeps print neither. */
	sec[OPT_KALLSYMS] = o.off;
	size_at = section_begin(&o, OPT_KALLSYMS, d_kallsyms);
	put4(&o, zero4);
	section_end(&o, size_at);
	sec[OPT_PRINTK] = o.off;
	size_at = section_begin(&o, OPT_PRINTK, d_printk);
	put4(&o, zero4);
	section_end(&o, size_at);

	o.what = "the pages";
	cd = xcalloc(td->nbuffers, sizeof(*cd));
	buf_at = xcalloc(td->nbuffers, sizeof(*buf_at));
	for (b = 0; b < td->nbuffers && !o.err; b++) {
		cd[b] = xcalloc((size_t)td->buffers[b].ncpus + 1, sizeof(**cd));
		flush(&o);
		buf_at[b] = o.off;
		buffer_section(&o, td, b, d_buf[b], cd[b]);
	}

	o.what = "command lines";
	cmd = td->cmdlines && !o.err ? td->cmdlines(td->arg, &len) : NULL;
	cmd_at = o.off;
	size_at = section_begin(&o, OPT_CMDLINES, d_cmdlines);
	put8(&o, cmd ? len : 0);
	if (cmd)
		put(&o, cmd, len);
	free(cmd);
	section_end(&o, size_at);
	sec[OPT_CMDLINES] = cmd_at;

	strings_at = o.off;
	size_at = section_begin(&o, OPT_STRINGS, d_strings);
	put(&o, st.s, st.len);
	section_end(&o, size_at);
	(void)strings_at;

	/* The options, last: they point at everything above. */
	o.what = "options";
	for (int id = OPT_HEADER_INFO; id <= OPT_CMDLINES; id++)
		opt_u64(&ob, (uint16_t)id, sec[id]);
	opt(&ob, OPT_CPUCOUNT, &td->ncpus, 4);
	opt_str(&ob, OPT_TRACECLOCK, td->trace_clock);
	opt_str(&ob, OPT_UNAME, td->uname);
	opt_str(&ob, OPT_VERSION, td->version);
	for (size_t i = 0; i < td->ncpustats; i++)
		opt_str(&ob, OPT_CPUSTAT, td->cpustats[i]);
	for (b = 0; b < td->nbuffers && cd[b]; b++)
		buffer_option(&ob, &td->buffers[b], buf_at[b], cd[b]);
	opt_u64(&ob, OPT_DONE, 0);	/* no next options section */
	at = o.off;
	size_at = section_begin(&o, OPT_DONE, d_options);
	put(&o, ob.s, ob.len);
	section_end(&o, size_at);
	patch8(&o, opts_at, at);
	flush(&o);
	*bytes = o.off;

	for (b = 0; b < td->nbuffers; b++)
		free(cd[b]);
	free(cd);
	free(buf_at);
	free(d_buf);
	free(st.s);
	free(ob.s);
	free(o.buf);
	if (o.err)
		snprintf(err, errsz, "writing %s: %s", o.failed, strerror(-o.err));
	return o.err;
}
