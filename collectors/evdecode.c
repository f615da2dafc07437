// SPDX-License-Identifier: GPL-2.0-only
#include "evdecode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "rbpage.h"

/*
 * The event catalog. Fields marked optional may be missing on older kernels
 * (sched_process_exit's group_dead came in 6.16); the others are required.
 */
static const struct ev_def {
	const char *system, *name;
	const char *fields[EV_MAX_FIELDS];
	unsigned optional;	/* bit per field */
} ev_defs[EV_NR] = {
	[EV_SYS_EXIT]	= { "raw_syscalls", "sys_exit", { "id", "ret" }, 0 },
	[EV_SYS_ENTER]	= { "raw_syscalls", "sys_enter", { "id" }, 0 },
	[EV_EXIT]	= { "syscalls", "sys_enter_exit", { "__syscall_nr" }, 0 },
	[EV_EXIT_GROUP]	= { "syscalls", "sys_enter_exit_group", { "__syscall_nr" }, 0 },
	[EV_SWITCH]	= { "sched", "sched_switch", { "prev_pid", "prev_state" }, 0 },
	[EV_NEWTASK]	= { "task", "task_newtask", { "pid", "clone_flags", "comm" }, 0 },
	[EV_EXEC]	= { "sched", "sched_process_exec", { "filename", "pid", "old_pid" }, 0 },
	[EV_PEXIT]	= { "sched", "sched_process_exit", { "pid", "group_dead" }, 1u << 1 },
	[EV_SIGNAL]	= { "signal", "signal_generate", { "pid", "result", "sig" }, 0 },
	[EV_SIGDELIVER]	= { "signal", "signal_deliver", { "sig" }, 0 },
};



const char *ev_system(enum ev_kind k)
{
	return ev_defs[k].system;
}

const char *ev_name(enum ev_kind k)
{
	return ev_defs[k].name;
}

int evdecode_init(struct evdecode *d, const char *header_page, size_t len)
{
	char *buf;
	int k;

	memset(d, 0, sizeof(*d));
	for (k = 0; k < EV_NR; k++)
		d->id[k] = -1;
	d->tep = tep_alloc();
	if (!d->tep)
		return -ENOMEM;
	/* libtraceevent parses from a writable buffer. */
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, header_page, len);
	buf[len] = '\0';
	if (tep_parse_header_page(d->tep, buf, (unsigned long)len, (int)sizeof(long))) {
		free(buf);
		return -EINVAL;
	}
	free(buf);
	d->page_size = tep_get_sub_buffer_size(d->tep);
	/*
	 * The page walk below assumes the layout of a 64-bit little-endian host
	 * reading its own kernel's buffers (the commit word is a long): say so
	 * rather than misread.
	 */
	if (d->page_size <= RBPAGE_HDR_SIZE || !rbpage_host_ok())
		return -EINVAL;
	return 0;
}

void evdecode_free(struct evdecode *d)
{
	if (d->tep)
		tep_free(d->tep);
	free(d->kind_of);
	memset(d, 0, sizeof(*d));
}

static int map_id(struct evdecode *d, int id, enum ev_kind k)
{
	if (id < 0 || id > 0xffff)
		return -EINVAL;
	if (id >= d->nkind_of) {
		uint8_t *n = realloc(d->kind_of, (size_t)id + 1);

		if (!n)
			return -ENOMEM;
		memset(n + d->nkind_of, 0, (size_t)(id + 1 - d->nkind_of));
		d->kind_of = n;
		d->nkind_of = id + 1;
	}
	d->kind_of[id] = (uint8_t)(k + 1);
	return 0;
}

int evdecode_add(struct evdecode *d, enum ev_kind k, const char *format, size_t len)
{
	const struct ev_def *def = &ev_defs[k];
	struct tep_event *ev;
	char *buf;
	int i, err, min = RB_COMMON_SIZE;

	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, format, len);
	buf[len] = '\0';
	err = tep_parse_event(d->tep, buf, len, def->system);
	free(buf);
	/* Found even when parsing failed: the kind was added before. */
	ev = tep_find_event_by_name(d->tep, def->system, def->name);
	if (!ev)
		return err == TEP_ERRNO__MEM_ALLOC_FAILED ? -ENOMEM : -EINVAL;

	for (i = 0; i < EV_MAX_FIELDS && def->fields[i]; i++) {
		struct tep_format_field *f = tep_find_field(ev, def->fields[i]);
		struct ev_field *ef = &d->f[k][i];

		memset(ef, 0, sizeof(*ef));
		if (!f) {
			if (def->optional & (1u << i))
				continue;
			return -EINVAL;
		}
		ef->offset = f->offset;
		ef->size = f->size;
		ef->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
		ef->data_loc = f->flags & TEP_FIELD_IS_DYNAMIC;
		if (ef->offset < 0 || ef->size <= 0 || ef->offset + ef->size > d->page_size)
			return -EINVAL;
		if (ef->offset + ef->size > min)
			min = ef->offset + ef->size;
	}
	err = map_id(d, ev->id, k);
	if (err)
		return err;
	d->id[k] = ev->id;
	d->min_size[k] = min;
	return 0;
}

/* A field as a signed or unsigned 64-bit number; 0 when the kernel lacks it. */
static inline long long get_num(const uint8_t *rec, const struct ev_field *f)
{
	union { int8_t s8; uint8_t u8; int16_t s16; uint16_t u16; int32_t s32; uint32_t u32;
		int64_t s64; } v;

	switch (f->size) {
	case 1:
		memcpy(&v.u8, rec + f->offset, 1);
		return f->is_signed ? (long long)v.s8 : (long long)v.u8;
	case 2:
		memcpy(&v.u16, rec + f->offset, 2);
		return f->is_signed ? (long long)v.s16 : (long long)v.u16;
	case 4:
		memcpy(&v.u32, rec + f->offset, 4);
		return f->is_signed ? (long long)v.s32 : (long long)v.u32;
	case 8:
		memcpy(&v.s64, rec + f->offset, 8);
		return v.s64;
	default:
		return 0;
	}
}

/*
 * A string field: fixed arrays in place, __data_loc ones at the offset the
 * record holds. Returns NULL when it points outside the record.
 */
static const char *get_str(const uint8_t *rec, int size, const struct ev_field *f, size_t *len)
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

static void decode(struct evdecode *d, enum ev_kind k, const uint8_t *rec, int size,
		   uint64_t ts, struct acct *a)
{
	const struct ev_field *f = d->f[k];
	int32_t pid;
	const char *s;
	size_t n;

	memcpy(&pid, rec + RB_COMMON_PID_OFF, sizeof(pid));
	switch (k) {
	case EV_SYS_EXIT:
		/* One per syscall: the hot path. Both fields are longs everywhere. */
		if (f[0].size == 8 && f[1].size == 8) {
			int64_t nr, ret;

			memcpy(&nr, rec + f[0].offset, 8);
			memcpy(&ret, rec + f[1].offset, 8);
			acct_sys_exit(a, pid, (long)nr, (long)ret, ts);
		} else {
			acct_sys_exit(a, pid, (long)get_num(rec, &f[0]), (long)get_num(rec, &f[1]), ts);
		}
		break;
	case EV_SYS_ENTER:
		acct_sys_enter(a, pid, (long)get_num(rec, &f[0]), ts);
		break;
	case EV_EXIT:
	case EV_EXIT_GROUP:
		acct_sys_noreturn(a, pid, (long)get_num(rec, &f[0]));
		break;
	case EV_SWITCH:
		acct_switch(a, (pid_t)get_num(rec, &f[0]), (long)get_num(rec, &f[1]));
		break;
	case EV_NEWTASK:
		s = get_str(rec, size, &f[2], &n);
		acct_newtask(a, pid, (pid_t)get_num(rec, &f[0]), (uint64_t)get_num(rec, &f[1]),
			     s ? s : "", s ? n : 0);
		break;
	case EV_EXEC:
		s = get_str(rec, size, &f[0], &n);
		acct_exec(a, (pid_t)get_num(rec, &f[1]), (pid_t)get_num(rec, &f[2]),
			  s ? s : "", s ? n : 0);
		break;
	case EV_PEXIT:
		acct_exit(a, (pid_t)get_num(rec, &f[0]), f[1].size ? get_num(rec, &f[1]) != 0 : false);
		break;
	case EV_SIGNAL:
		acct_signal(a, (rec[RB_COMMON_FLAGS_OFF] & RB_FLAG_IRQ_CONTEXT) ? 0 : pid,
			    (pid_t)get_num(rec, &f[0]), (int)get_num(rec, &f[2]), (int)get_num(rec, &f[1]));
		break;
	case EV_SIGDELIVER:
		acct_signal_deliver(a, pid);
		break;
	case EV_NR:
		break;
	}
}

int evdecode_page(struct evdecode *d, const void *sub, size_t size, struct acct *a)
{
	struct rbpage p;
	const uint8_t *rec;
	unsigned rsize;
	long missed;
	int count = 0;

	if (rbpage_load(&p, sub, size, &missed))
		return -EINVAL;
	if (missed)
		acct_lost(a, missed);
	while ((rec = rbpage_next(&p, &rsize))) {
		uint16_t id;
		int k;

		memcpy(&id, rec, sizeof(id));
		if (id >= d->nkind_of || !d->kind_of[id])
			continue;
		k = d->kind_of[id] - 1;
		if ((int)rsize < d->min_size[k]) {
			d->malformed++;
			continue;
		}
		decode(d, (enum ev_kind)k, rec, (int)rsize, p.ts, a);
		count++;
	}
	d->malformed += p.malformed;
	d->events += (uint64_t)count;
	return count;
}
