// SPDX-License-Identifier: GPL-2.0-only
#include "evformat.h"

#include <errno.h>
#include <stdlib.h>

#include <event-parse.h>

#include "instance.h"

/* libtraceevent parses from a writable, NUL-terminated buffer. */
static char *dup_text(const char *s, size_t len)
{
	char *buf = malloc(len + 1);

	if (buf) {
		memcpy(buf, s, len);
		buf[len] = '\0';
	}
	return buf;
}

int evformat_init(struct tep_handle **tep, int *page_size, const char *header_page, size_t len)
{
	char *buf;
	int err;

	*tep = tep_alloc();
	if (!*tep)
		return -ENOMEM;
	buf = dup_text(header_page, len);
	if (!buf)
		return -ENOMEM;
	err = tep_parse_header_page(*tep, buf, (unsigned long)len, (int)sizeof(long));
	free(buf);
	if (err)
		return -EINVAL;
	*page_size = tep_get_sub_buffer_size(*tep);
	/*
	 * The page walk (instance.h) assumes a 64-bit little-endian host reading its
	 * own kernel's buffers (the commit word is a long): say so rather than
	 * misread.
	 */
	if (*page_size <= RBPAGE_HDR_SIZE || !rbpage_host_ok())
		return -EINVAL;
	return 0;
}

int evformat_add(struct tep_handle *tep, int page_size, const char *system, const char *name,
		 const char *format, size_t len, const char *const *names, int nmax,
		 unsigned optional, struct ev_field *out, int *min_size)
{
	struct tep_event *ev;
	char *buf;
	int i, err, min = RB_COMMON_SIZE;

	buf = dup_text(format, len);
	if (!buf)
		return -ENOMEM;
	err = tep_parse_event(tep, buf, len, system);
	free(buf);
	/* Found even when parsing failed: the tracepoint was added before. */
	ev = tep_find_event_by_name(tep, system, name);
	if (!ev)
		return err == TEP_ERRNO__MEM_ALLOC_FAILED ? -ENOMEM : -EINVAL;
	for (i = 0; i < nmax && names[i]; i++) {
		struct tep_format_field *f = tep_find_field(ev, names[i]);
		struct ev_field *ef = &out[i];

		memset(ef, 0, sizeof(*ef));
		if (!f) {
			if (optional & (1u << i))
				continue;
			return -EINVAL;
		}
		ef->offset = f->offset;
		ef->size = f->size;
		ef->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
		ef->data_loc = f->flags & TEP_FIELD_IS_DYNAMIC;
		if (ef->offset < 0 || ef->size <= 0 || ef->offset + ef->size > page_size)
			return -EINVAL;
		if (ef->offset + ef->size > min)
			min = ef->offset + ef->size;
	}
	if (ev->id < 0 || ev->id > 0xffff)
		return -EINVAL;
	*min_size = min;
	return ev->id;
}

const char *ev_str(const uint8_t *rec, int size, const struct ev_field *f, size_t *len)
{
	uint32_t loc;
	unsigned off, n;

	if (!f->data_loc) {
		*len = (size_t)f->size;
		return (const char *)rec + f->offset;
	}
	memcpy(&loc, rec + f->offset, 4);
	off = loc & 0xffff;
	n = loc >> 16;
	if (off > (unsigned)size || n > (unsigned)size - off)
		return NULL;
	*len = n;
	return (const char *)rec + off;
}
