// SPDX-License-Identifier: GPL-2.0-only
#include "evdecode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "blockev.h"
#include "instance.h"
#include "sockconn.h"
#include "sockev.h"

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
	/* next_pid: the state split's switch-in (optional: the counts do without). */
	[EV_SWITCH]	= { "sched", "sched_switch", { "prev_pid", "prev_state", "next_pid" }, 1u << 2 },
	[EV_NEWTASK]	= { "task", "task_newtask", { "pid", "clone_flags", "comm" }, 0 },
	[EV_EXEC]	= { "sched", "sched_process_exec", { "filename", "pid", "old_pid" }, 0 },
	[EV_PEXIT]	= { "sched", "sched_process_exit", { "pid", "group_dead" }, 1u << 1 },
	[EV_SIGNAL]	= { "signal", "signal_generate", { "pid", "result", "sig" }, 0 },
	[EV_SIGDELIVER]	= { "signal", "signal_deliver", { "sig" }, 0 },
	[EV_CGATTACH]	= { "cgroup", "cgroup_attach_task", { "pid" }, 0 },
	/* Its pid may go (it is always the writer's, but for /proc/PID/comm): common_pid then. */
	[EV_RENAME]	= { "task", "task_rename", { "newcomm", "pid" }, 1u << 1 },
	[EV_WAKEUP]	= { "sched", "sched_wakeup", { "pid" }, 0 },
	[EV_WAKEUP_NEW]	= { "sched", "sched_wakeup_new", { "pid" }, 0 },
	/* sk, protocol: the Connections view's (collectors/trace/sockconn.h). */
	[EV_SOCK_SEND]	= { "sock", "sock_send_length", { "family", "ret", "flags", "sk", "protocol" },
			    3u << 3 },
	[EV_SOCK_RECV]	= { "sock", "sock_recv_length", { "family", "ret", "flags", "sk", "protocol" },
			    3u << 3 },
	[EV_SOCK_STATE]	= { "sock", "inet_sock_set_state", { "skaddr", "oldstate", "newstate", "sport",
			    "dport", "family", "protocol", "saddr", "daddr", "saddr_v6", "daddr_v6" },
			    3u << 9 },
	/* err came in 6.13: before, every event was a segment sent. */
	[EV_TCP_RETRANS] = { "tcp", "tcp_retransmit_skb", { "skaddr", "state", "sport", "dport", "family",
			     "saddr", "daddr", "saddr_v6", "daddr_v6", "err" }, (1u << 4) | (3u << 7) | (1u << 9) },
	[EV_TCP_RESET]	= { "tcp", "tcp_send_reset", { "skaddr" }, 0 },
	[EV_BLK_ISSUE]	= { "block", "block_rq_issue", { "dev", "sector", "nr_sector", "rwbs" }, 0 },
	[EV_BLK_COMPLETE] = { "block", "block_rq_complete", { "dev", "sector", "nr_sector", "rwbs" }, 0 },
	/* block_io_start came in 6.5: without it the devices are counted, their submitters not. */
	[EV_BLK_START]	= { "block", "block_io_start", { "dev", "bytes", "comm" }, 0 },
	[EV_BLK_REQUEUE] = { "block", "block_rq_requeue", { "dev", "sector" }, 0 },
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
	int k;

	memset(d, 0, sizeof(*d));
	for (k = 0; k < EV_NR; k++)
		d->id[k] = -1;
	d->self = -1;
	return evformat_init(&d->tep, &d->page_size, header_page, len);
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
	int id, err, min;

	id = evformat_add(d->tep, d->page_size, def->system, def->name, format, len, def->fields,
			  EV_MAX_FIELDS, def->optional, d->f[k], &min);
	if (id < 0)
		return id;
	err = map_id(d, id, k);
	if (err)
		return err;
	d->id[k] = id;
	d->min_size[k] = min;
	return 0;
}

/* Inline: in walk_page's two copies, a call of its own cost the context-switch flood's wakeups. */
static inline __attribute__((always_inline)) void decode(struct evdecode *d, enum ev_kind k,
							  const uint8_t *rec, int size, uint64_t ts,
							  struct evsums *a)
{
	const struct ev_field *f = d->f[k];
	int32_t pid;
	const char *s;
	size_t n;

	memcpy(&pid, rec + RB_COMMON_PID_OFF, sizeof(pid));
	switch (k) {
	case EV_SYS_EXIT:
		/* Fields of another size than long's (evdecode_page decodes the usual ones). */
		evsums_sys_exit(a, pid, (long)ev_num(rec, &f[0]), (long)ev_num(rec, &f[1]), ts);
		break;
	case EV_SYS_ENTER:
		evsums_sys_enter(a, pid, (long)ev_num(rec, &f[0]), ts);
		break;
	case EV_EXIT:
	case EV_EXIT_GROUP:
		evsums_sys_noreturn(a, pid, (long)ev_num(rec, &f[0]), ts);
		break;
	case EV_SWITCH: {
		pid_t prev = (pid_t)ev_num(rec, &f[0]);
		long state = (long)ev_num(rec, &f[1]);

		evsums_switch(a, prev, state, ts);
		if (a->states && f[2].size)
			evsums_state_switch(a, prev, state, (pid_t)ev_num(rec, &f[2]), ts);
		break;
	}
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
		if (a->states)
			evsums_state_wakeup(a, (pid_t)ev_num(rec, &f[0]), k == EV_WAKEUP_NEW, pid, ts);
		break;
	case EV_NEWTASK:
		s = ev_str(rec, size, &f[2], &n);
		evsums_newtask(a, pid, (pid_t)ev_num(rec, &f[0]), (uint64_t)ev_num(rec, &f[1]),
			     s ? s : "", s ? n : 0, ts);
		break;
	case EV_EXEC:
		s = ev_str(rec, size, &f[0], &n);
		evsums_exec(a, (pid_t)ev_num(rec, &f[1]), (pid_t)ev_num(rec, &f[2]),
			  s ? s : "", s ? n : 0, ts);
		break;
	case EV_PEXIT:
		evsums_exit(a, (pid_t)ev_num(rec, &f[0]), f[1].size ? ev_num(rec, &f[1]) != 0 : false, ts);
		if (d->conns)
			sockconn_exit(d->conns, (pid_t)ev_num(rec, &f[0]),
				      f[1].size ? ev_num(rec, &f[1]) != 0 : -1, ts);
		break;
	case EV_RENAME:
		s = ev_str(rec, size, &f[0], &n);
		if (s)
			evsums_rename(a, f[1].size ? (pid_t)ev_num(rec, &f[1]) : pid, s, n, ts);
		break;
	case EV_SIGNAL:
		evsums_signal(a, (rec[RB_COMMON_FLAGS_OFF] & RB_FLAG_IRQ_CONTEXT) ? 0 : pid,
			    (pid_t)ev_num(rec, &f[0]), (int)ev_num(rec, &f[2]), (int)ev_num(rec, &f[1]), ts);
		break;
	case EV_SIGDELIVER:
		evsums_signal_deliver(a, pid, ts);
		break;
	case EV_CGATTACH:
		evsums_cgroup_attach(a, (pid_t)ev_num(rec, &f[0]));
		break;
	case EV_SOCK_SEND:
	case EV_SOCK_RECV:
		/* ktop's own (taskstats, the exporter's clients) as its system calls: dropped. */
		if (pid == d->self)
			break;
		sockev_bytes(a, pid, k == EV_SOCK_SEND, (unsigned)ev_num(rec, &f[0]),
			     (int)ev_num(rec, &f[1]), (int)ev_num(rec, &f[2]), ts);
		if (d->conns && f[3].size)
			sockconn_io(d->conns, (uint64_t)ev_num(rec, &f[3]), pid, k == EV_SOCK_SEND,
				    (unsigned)ev_num(rec, &f[0]), (unsigned)ev_num(rec, &f[4]),
				    (int)ev_num(rec, &f[1]), (int)ev_num(rec, &f[2]), ts);
		break;
	case EV_SOCK_STATE: {
		struct sockconn_addr ad = {
			.family = (unsigned)ev_num(rec, &f[5]),
			.sport = (uint16_t)ev_num(rec, &f[3]), .dport = (uint16_t)ev_num(rec, &f[4]),
			.saddr4 = ev_bytes(rec, &f[7], 4), .daddr4 = ev_bytes(rec, &f[8], 4),
			.saddr6 = ev_bytes(rec, &f[9], 16), .daddr6 = ev_bytes(rec, &f[10], 16),
		};
		bool irq = rec[RB_COMMON_FLAGS_OFF] & RB_FLAG_IRQ_CONTEXT;

		if (d->conns && !(pid == d->self && !irq))
			sockconn_state(d->conns, (uint64_t)ev_num(rec, &f[0]), irq ? 0 : pid,
				       (int)ev_num(rec, &f[1]), (int)ev_num(rec, &f[2]),
				       (unsigned)ev_num(rec, &f[6]), &ad, ts);
		break;
	}
	case EV_TCP_RETRANS: {
		struct sockconn_addr ad = {
			.family = f[4].size ? (unsigned)ev_num(rec, &f[4]) : SOCKEV_AF_INET,
			.sport = (uint16_t)ev_num(rec, &f[2]), .dport = (uint16_t)ev_num(rec, &f[3]),
			.saddr4 = ev_bytes(rec, &f[5], 4), .daddr4 = ev_bytes(rec, &f[6], 4),
			.saddr6 = ev_bytes(rec, &f[7], 16), .daddr6 = ev_bytes(rec, &f[8], 16),
		};

		if (d->conns)
			sockconn_retrans(d->conns, (uint64_t)ev_num(rec, &f[0]), (int)ev_num(rec, &f[1]),
					 &ad, (int)ev_num(rec, &f[9]), ts);
		break;
	}
	case EV_TCP_RESET:
		if (d->conns)
			sockconn_reset(d->conns, (uint64_t)ev_num(rec, &f[0]), ts);
		break;
	case EV_BLK_ISSUE:
	case EV_BLK_COMPLETE:
		s = ev_str(rec, size, &f[3], &n);
		if (!d->blk || !s)
			break;
		if (k == EV_BLK_ISSUE)
			blockev_issue(d->blk, (uint32_t)ev_num(rec, &f[0]), (uint64_t)ev_num(rec, &f[1]),
				      (uint32_t)ev_num(rec, &f[2]), s, strnlen(s, n), ts);
		else
			blockev_complete(d->blk, (uint32_t)ev_num(rec, &f[0]),
					 (uint64_t)ev_num(rec, &f[1]), (uint32_t)ev_num(rec, &f[2]),
					 s, strnlen(s, n), ts);
		break;
	case EV_BLK_REQUEUE:
		if (d->blk)
			blockev_requeue(d->blk, (uint32_t)ev_num(rec, &f[0]), (uint64_t)ev_num(rec, &f[1]),
					ts);
		break;
	case EV_BLK_START:
		s = ev_str(rec, size, &f[2], &n);
		if (d->blk && s)
			blockev_start(d->blk, (uint32_t)ev_num(rec, &f[0]), pid, s, strnlen(s, n),
				      (uint32_t)ev_num(rec, &f[1]));
		break;
	case EV_NR:
		break;
	}
}

/* A system call of ktop's own (the kinds up to EV_EXIT_GROUP are the calls). */
static inline bool own_call(int32_t self, const uint8_t *rec)
{
	int32_t pid;

	memcpy(&pid, rec + RB_COMMON_PID_OFF, sizeof(pid));
	return pid == self;
}

/* --latency's sys_enter decoded in the walk (its nr a long), not by the kind dispatch. */
static inline bool enter_inline(const struct evdecode *d)
{
	return d->id[EV_SYS_ENTER] >= 0 && d->f[EV_SYS_ENTER][0].size == 8;
}

/*
 * The walk of a page, made twice: with --latency's sys_enter (@enter: its
 * entries paired with their exits as read) and without (the counting
 * path's loop kept as small as it was: its registers are few).
 */
static inline __attribute__((always_inline)) int walk_page(struct evdecode *d, const void *sub,
							   size_t size, struct evsums *a, bool enter)
{
	struct rbpage p;
	const uint8_t *rec;
	unsigned rsize;
	long missed;
	int count = 0;

	const struct ev_field *xf = d->f[EV_SYS_EXIT], *nf = d->f[EV_SYS_ENTER];
	const struct ev_field *sf = d->f[EV_SWITCH];
	/*
	 * sys_exit, most of the records (and with --latency sys_enter, as
	 * many), with their fields longs: decoded before the dispatch.
	 */
	int exit_id = d->id[EV_SYS_EXIT] >= 0 && xf[0].size == 8 && xf[1].size == 8 ?
		      d->id[EV_SYS_EXIT] : -1;
	int enter_id = enter_inline(d) ? d->id[EV_SYS_ENTER] : -1;
	unsigned exit_min = (unsigned)d->min_size[EV_SYS_EXIT];
	unsigned enter_min = (unsigned)d->min_size[EV_SYS_ENTER];
	/* sched_switch, two or three a context switch: its pids ints, its state a long. */
	int switch_id = d->id[EV_SWITCH] >= 0 && sf[0].size == 4 && sf[1].size == 8 &&
			(sf[2].size == 4 || !sf[2].size) ? d->id[EV_SWITCH] : -1;
	unsigned switch_min = (unsigned)d->min_size[EV_SWITCH];

	const struct clockmap *cm = d->cmap;
	struct clockmap_cursor cur = { { 0, 0, 0 }, 0 };

	if (rbpage_load(&p, sub, size, &missed))
		return -EINVAL;
	/* A page's stamps grow: its segment is looked up once, and again only past its end. */
	if (cm)
		clockmap_seek(cm, p.ts, &cur);
	if (missed)
		evsums_lost(a, missed);
	while ((rec = rbpage_next(&p, &rsize))) {
		uint64_t ts = cm ? clockmap_next(cm, &cur, p.ts) : p.ts;
		uint16_t id;
		int k;

dispatch:
		memcpy(&id, rec, sizeof(id));
		if (enter && id == enter_id && rsize >= enter_min) {
			int64_t nr;
			int32_t pid, xpid;
			uint64_t next_ts;

			memcpy(&pid, rec + RB_COMMON_PID_OFF, sizeof(pid));
			if (pid == d->self)
				continue;	/* its exit is dropped as it comes */
			memcpy(&nr, rec + nf[0].offset, 8);
			/*
			 * --latency: a call that neither blocked nor was
			 * preempted has its exit next, on this page. Both in
			 * one call: one thread lookup, one call's overhead.
			 */
			rec = rbpage_next(&p, &rsize);
			if (!rec) {
				evsums_sys_enter(a, pid, (long)nr, ts);
				count++;
				break;
			}
			next_ts = cm ? clockmap_next(cm, &cur, p.ts) : p.ts;
			memcpy(&id, rec, sizeof(id));
			memcpy(&xpid, rec + RB_COMMON_PID_OFF, sizeof(xpid));
			if (id == exit_id && rsize >= exit_min && xpid == pid) {
				int64_t xnr, ret;

				memcpy(&xnr, rec + xf[0].offset, 8);
				memcpy(&ret, rec + xf[1].offset, 8);
				evsums_sys_call(a, pid, (long)nr, ts, (long)xnr, (long)ret, next_ts);
				count += 2;
				continue;
			}
			evsums_sys_enter(a, pid, (long)nr, ts);
			count++;
			/* The record read ahead goes the usual way. */
			ts = next_ts;
			goto dispatch;
		}
		if (id == exit_id && rsize >= exit_min) {
			int64_t nr, ret;
			int32_t pid;

			memcpy(&pid, rec + RB_COMMON_PID_OFF, sizeof(pid));
			if (pid == d->self)
				continue;
			memcpy(&nr, rec + xf[0].offset, 8);
			memcpy(&ret, rec + xf[1].offset, 8);
			evsums_sys_exit(a, pid, (long)nr, (long)ret, ts);
			count++;
			continue;
		}
		if (id == switch_id && rsize >= switch_min) {
			int32_t prev, next;
			int64_t state;

			memcpy(&prev, rec + sf[0].offset, 4);
			memcpy(&state, rec + sf[1].offset, 8);
			evsums_switch(a, prev, (long)state, ts);
			if (a->states && sf[2].size) {
				memcpy(&next, rec + sf[2].offset, 4);
				evsums_state_switch(a, prev, (long)state, next, ts);
			}
			count++;
			continue;
		}
		if (id >= d->nkind_of || !d->kind_of[id])
			continue;
		k = d->kind_of[id] - 1;
		if ((int)rsize < d->min_size[k]) {
			d->malformed++;
			continue;
		}
		if (k <= EV_EXIT_GROUP && own_call(d->self, rec))
			continue;
		decode(d, (enum ev_kind)k, rec, (int)rsize, ts, a);
		count++;
	}
	d->malformed += p.malformed;
	d->events += (uint64_t)count;
	return count;
}

int evdecode_page(struct evdecode *d, const void *sub, size_t size, struct evsums *a)
{
	if (enter_inline(d))
		return walk_page(d, sub, size, a, true);
	return walk_page(d, sub, size, a, false);
}
