// SPDX-License-Identifier: GPL-2.0-only
#include "evrich.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "../../lib/scnames.h"
#include "../../lib/util.h"

/*
 * The tracepoint catalog: the fields each decodes, in the order decode() reads
 * them. Optional ones (bit per field) may be missing on older kernels.
 */
static const struct rich_tp_def {
	const char *system, *name;
	const char *fields[EVRICH_MAX_FIELDS];
	unsigned optional;
} tp_defs[RT_NR] = {
	[RT_SYS_ENTER]	= { "raw_syscalls", "sys_enter", { "id", "args" }, 0 },
	[RT_SYS_EXIT]	= { "raw_syscalls", "sys_exit", { "id", "ret" }, 0 },
	[RT_SWITCH]	= { "sched", "sched_switch",
			    { "prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid" }, 0 },
	[RT_FAULT]	= { "exceptions", "page_fault_user", { "address", "ip", "error_code" }, 0 },
	[RT_SIGGEN]	= { "signal", "signal_generate",
			    { "sig", "errno", "code", "comm", "pid", "group", "result" }, 0 },
	[RT_SIGDELIVER]	= { "signal", "signal_deliver",
			    { "sig", "errno", "code", "sa_handler", "sa_flags" }, 0 },
	[RT_NEWTASK]	= { "task", "task_newtask", { "pid", "clone_flags", "comm" }, 0 },
	[RT_EXEC]	= { "sched", "sched_process_exec", { "filename", "pid", "old_pid" }, 0 },
	[RT_EXIT]	= { "sched", "sched_process_exit", { "pid", "group_dead" }, 1u << 1 },
};




const char *evrich_system(enum rich_tp t)
{
	return tp_defs[t].system;
}

const char *evrich_name(enum rich_tp t)
{
	return tp_defs[t].name;
}


int evrich_init(struct evrich *d, const char *header_page, size_t len)
{
	int t;

	memset(d, 0, sizeof(*d));
	for (t = 0; t < RT_NR; t++)
		d->id[t] = -1;
	return evformat_init(&d->tep, &d->page_size, header_page, len);
}

void evrich_free(struct evrich *d)
{
	if (d->tep)
		tep_free(d->tep);
	memset(d, 0, sizeof(*d));
}

int evrich_add(struct evrich *d, enum rich_tp t, const char *format, size_t len)
{
	const struct rich_tp_def *def = &tp_defs[t];
	int id, min;

	id = evformat_add(d->tep, d->page_size, def->system, def->name, format, len, def->fields,
			  EVRICH_MAX_FIELDS, def->optional, d->f[t], &min);
	if (id < 0)
		return id;
	d->id[t] = id;
	d->min_size[t] = min;
	return 0;
}

/* A string field into @dst (NUL-terminated, cut to fit); "" when out of the record. */
static void get_str(const uint8_t *rec, int size, const struct ev_field *f, char *dst,
		    size_t dstsz)
{
	size_t len;
	const char *s = ev_str(rec, size, f, &len);

	if (!s) {
		dst[0] = '\0';
		return;
	}
	len = strnlen(s, len);
	if (len >= dstsz)
		len = dstsz - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

static void decode(struct evrich *d, enum rich_tp t, const uint8_t *rec, int size,
		   struct evrich_rec *r)
{
	const struct ev_field *f = d->f[t];
	struct kev *e = &r->ev;
	int i;

	switch (t) {
	case RT_SYS_ENTER:
		e->kind = KEV_SYSCALL;
		e->u.sc.nr = ev_num(rec, &f[0]);
		/* args is an array of longs: its size says how many fit. */
		for (i = 0; i < KEV_SC_ARGS && (i + 1) * 8 <= f[1].size; i++)
			memcpy(&e->u.sc.args[i], rec + f[1].offset + i * 8, 8);
		break;
	case RT_SYS_EXIT:
		e->kind = KEV_SYSCALL;
		e->u.sc.nr = ev_num(rec, &f[0]);
		e->u.sc.ret = ev_num(rec, &f[1]);
		break;
	case RT_SWITCH:
		e->kind = KEV_SWITCH;
		get_str(rec, size, &f[0], e->u.sw.prev_comm, sizeof(e->u.sw.prev_comm));
		e->u.sw.prev = (int32_t)ev_num(rec, &f[1]);
		e->u.sw.prev_state = ev_num(rec, &f[2]);
		get_str(rec, size, &f[3], e->u.sw.next_comm, sizeof(e->u.sw.next_comm));
		e->u.sw.next = (int32_t)ev_num(rec, &f[4]);
		break;
	case RT_FAULT:
		e->kind = KEV_FAULT;
		e->u.pf.address = (uint64_t)ev_num(rec, &f[0]);
		e->u.pf.ip = (uint64_t)ev_num(rec, &f[1]);
		e->u.pf.error_code = (uint64_t)ev_num(rec, &f[2]);
		break;
	case RT_SIGGEN:
		e->kind = KEV_SIGGEN;
		e->u.sig.sig = (int32_t)ev_num(rec, &f[0]);
		e->u.sig.err = (int32_t)ev_num(rec, &f[1]);
		e->u.sig.code = (int32_t)ev_num(rec, &f[2]);
		get_str(rec, size, &f[3], e->u.sig.comm, sizeof(e->u.sig.comm));
		e->u.sig.target = (int32_t)ev_num(rec, &f[4]);
		e->u.sig.group = (int32_t)ev_num(rec, &f[5]);
		e->u.sig.result = (int32_t)ev_num(rec, &f[6]);
		e->u.sig.sender = r->irq ? 0 : r->pid;
		break;
	case RT_SIGDELIVER:
		e->kind = KEV_SIGDELIVER;
		e->u.sig.sig = (int32_t)ev_num(rec, &f[0]);
		e->u.sig.err = (int32_t)ev_num(rec, &f[1]);
		e->u.sig.code = (int32_t)ev_num(rec, &f[2]);
		e->u.sig.handler = (uint64_t)ev_num(rec, &f[3]);
		e->u.sig.sa_flags = (uint64_t)ev_num(rec, &f[4]);
		e->u.sig.target = r->pid;
		break;
	case RT_NEWTASK:
		e->kind = KEV_FORK;
		e->u.fork.parent = r->pid;
		e->u.fork.child = (int32_t)ev_num(rec, &f[0]);
		e->u.fork.clone_flags = (uint64_t)ev_num(rec, &f[1]);
		get_str(rec, size, &f[2], e->u.fork.comm, sizeof(e->u.fork.comm));
		break;
	case RT_EXEC:
		e->kind = KEV_EXEC;
		get_str(rec, size, &f[0], e->u.exec.file, sizeof(e->u.exec.file));
		r->file = ev_str(rec, size, &f[0], &r->file_len);
		if (!r->file)
			r->file_len = 0;
		e->u.exec.pid = (int32_t)ev_num(rec, &f[1]);
		e->u.exec.old_pid = (int32_t)ev_num(rec, &f[2]);
		break;
	case RT_EXIT:
		e->kind = KEV_EXIT;
		e->u.exit.pid = (int32_t)ev_num(rec, &f[0]);
		e->u.exit.group_dead = f[1].size ? ev_num(rec, &f[1]) != 0 : -1;
		break;
	case RT_NR:
		break;
	}
}

static int tp_of(const struct evrich *d, uint16_t id)
{
	int t;

	/* Nine kinds: a scan beats a table for the focus stream's rates. */
	for (t = 0; t < RT_NR; t++)
		if (d->id[t] == id)
			return t;
	return -1;
}

/* From where the walk is, the first record of ours (a known tracepoint, whole). */
static bool settle(struct evrich *d, struct evrich_cursor *c)
{
	const uint8_t *rec;
	unsigned size;
	uint16_t id;
	int t;

	while ((rec = rbpage_next(&c->page, &size))) {
		memcpy(&id, rec, sizeof(id));
		t = tp_of(d, id);
		if (t < 0)
			continue;
		if ((int)size < d->min_size[t]) {
			d->malformed++;
			continue;
		}
		c->rec = rec;
		c->size = (int)size;
		c->tp = t;
		c->ts = c->page.ts;
		return true;
	}
	d->malformed += c->page.malformed;
	c->page.malformed = 0;
	c->rec = NULL;
	return false;
}

int evrich_cursor_load(struct evrich *d, struct evrich_cursor *c, const void *page, size_t len,
		       long *missed)
{
	c->rec = NULL;
	if (rbpage_load(&c->page, page, len, missed))
		return -EINVAL;
	settle(d, c);
	return 0;
}

bool evrich_cursor_next(struct evrich *d, struct evrich_cursor *c)
{
	if (!c->rec)
		return false;
	return settle(d, c);
}

void evrich_cursor_decode(struct evrich *d, const struct evrich_cursor *c, struct evrich_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->tp = (enum rich_tp)c->tp;
	r->ts = c->ts;
	memcpy(&r->pid, c->rec + RB_COMMON_PID_OFF, sizeof(r->pid));
	r->irq = c->rec[RB_COMMON_FLAGS_OFF] & RB_FLAG_IRQ_CONTEXT;
	r->ev.ts = c->ts;
	decode(d, r->tp, c->rec, c->size, r);
	d->events++;
}

int evrich_page(struct evrich *d, const void *page, size_t len, evrich_fn fn, void *ctx,
		long *missed)
{
	struct evrich_cursor c;
	struct evrich_rec r;
	int count = 0, err;

	err = evrich_cursor_load(d, &c, page, len, missed);
	if (err)
		return err;
	for (; c.rec; evrich_cursor_next(d, &c)) {
		evrich_cursor_decode(d, &c, &r);
		fn(ctx, &r);
		count++;
	}
	return count;
}
