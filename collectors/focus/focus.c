// SPDX-License-Identifier: GPL-2.0-only
#include "focus.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../clocks.h"
#include "../trace/callargs.h"
#include "../proc/creds.h"
#include "evrich.h"
#include "../proc/procfs.h"
#include "../trace/instance.h"
#include "varsread.h"
#include "../../model/fproc.h"
#include "../../lib/pidmap.h"
#include "../../lib/scnames.h"
#include "../../lib/util.h"

/* Per CPU: small, the focused processes alone write here. */
#define FOCUS_BUFFER_KB_DEFAULT 4096
#define FOCUS_WAKE_PERCENT 20
/* Sub-buffers one drain reads per CPU before the loop looks at keys and ticks. */
#define DRAIN_PAGES 64
#define MAX_FOCUS 16

/* A thread of a focused process (or a descendant), as the focus stream knows it. */
struct ftid {
	pid_t tid;
	pid_t owner;		/* the focused process it counts for; 0 = none (not kept) */
	bool in_call;
	bool compat;		/* a 32-bit program's: its numbers are that ABI's (sctable.h) */
	bool in_exec;		/* its exec was read: its next sys_exit is the exec's return */
	/*
	 * The call in progress was entered before the focus began (read from
	 * /proc/TID/syscall): enter_ts is when the focus began, a lower bound.
	 */
	bool before;
	bool exited;		/* its exit was read */
	bool gone;		/* and its last state split was put */
	char comm[16];		/* its name: from its switches, or /proc when listed */
	/* What enter_ts's call's descriptor is (FA_FD), read once for that call. */
	uint64_t target_ts;
	char target[64];
	uint16_t enter_cpu;
	int64_t enter_nr;
	uint64_t enter_ts;
	uint64_t args[KEV_SC_ARGS];
};

struct fcpu {
	struct evrich_cursor cur;
	void *page;
	bool loaded;		/* cur is on a page (it may have no record left) */
	/*
	 * This read pass found nothing more to read here: not asked again until
	 * the next pass. Without it, an idle CPU was asked (a splice, EAGAIN)
	 * once for every record a busy CPU gave.
	 */
	bool drained;
};

struct fpid {
	pid_t pid;
	bool with_descendants;
	bool privileged;	/* an exec made it another user's: its events end there */
	struct varsread_proc vp;
	bool had_events;	/* this read pass: sample its variables */
};

struct focus {
	struct instance *tr;
	struct evrich dec;
	bool dec_ready;
	struct fcpu *cpu;
	int ncpus;
	struct pidmap tids;		/* tid -> struct ftid */
	struct fpid pids[MAX_FOCUS];
	size_t npids;
	unsigned gen;
	int procfd;
	struct varsread_sys sys;
	bool sys_open;
	struct callargs args;		/* what each call's arguments are */
	uint64_t lost_seen;
	size_t buffer_kb;		/* per CPU */
	/*
	 * During a read pass: the model read (@m), and written through
	 * model_focus_feed only (@out).
	 */
	const struct model *m;
	struct model *out;
	int cur_cpu;
	bool offline;			/* focus_new_offline: no instance, records given (tests) */
	struct flight *flight;		/* the instance's pages kept there too; NULL: not */
	struct fcall *calls;		/* list_calls' */
	size_t cap_calls;
};

struct focus *focus_new(size_t buffer_kb)
{
	struct focus *f = xcalloc(1, sizeof(*f));

	f->buffer_kb = buffer_kb ? buffer_kb : FOCUS_BUFFER_KB_DEFAULT;
	pidmap_init(&f->tids);
	f->procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	f->sys_open = f->procfd >= 0 && !varsread_sys_open(&f->sys, f->procfd);
	return f;
}

struct focus *focus_new_offline(void)
{
	struct focus *f = xcalloc(1, sizeof(*f));

	f->offline = true;
	f->procfd = -1;		/* no variables sampled */
	pidmap_init(&f->tids);
	return f;
}

void focus_set_flight(struct focus *f, struct flight *fl)
{
	f->flight = fl;
}

static void close_instance(struct focus *f)
{
	int i;

	/* Readers closed before the instance goes (instance_close): see instance.h. */
	instance_close(f->tr);
	f->tr = NULL;
	for (i = 0; f->cpu && i < f->ncpus; i++)
		free(f->cpu[i].page);
	free(f->cpu);
	f->cpu = NULL;
	f->ncpus = 0;
	if (f->dec_ready)
		evrich_free(&f->dec);
	f->dec_ready = false;
	f->lost_seen = 0;
	f->gen++;
}

static void forget_tids(struct focus *f)
{
	size_t i;

	for (i = 0; i < f->tids.cap; i++)
		if (f->tids.slots[i].key)
			free(f->tids.slots[i].val);
	pidmap_free(&f->tids);
	pidmap_init(&f->tids);
}

void focus_free(struct focus *f)
{
	size_t i;

	if (!f)
		return;
	close_instance(f);
	forget_tids(f);
	pidmap_free(&f->tids);
	for (i = 0; i < f->npids; i++)
		varsread_proc_close(&f->pids[i].vp);
	if (f->sys_open)
		varsread_sys_close(&f->sys);
	if (f->procfd >= 0)
		close(f->procfd);
	free(f->calls);
	free(f);
}

static struct fpid *fpid_of(struct focus *f, pid_t pid)
{
	size_t i;

	for (i = 0; i < f->npids; i++)
		if (f->pids[i].pid == pid)
			return &f->pids[i];
	return NULL;
}

/* The one way the focus writes the model (model.h): at event rate, between ticks. */
static void feed(struct focus *f, const struct focus_feed *ff)
{
	model_focus_feed(f->out, ff);
}

static void feed_status(struct focus *f, const char *status)
{
	feed(f, &(struct focus_feed){ .kind = FEED_STATUS, .status = status });
}

/*
 * @compat: the ABI of a new one's calls, as its creator's; -1: its process's
 * (read once: a thread of a known owner is the owner's).
 */
static struct ftid *add_tid(struct focus *f, pid_t tid, pid_t owner, int compat)
{
	struct ftid *t = pidmap_get(&f->tids, tid);

	if (!t) {
		struct ftid *o = owner > 0 && owner != tid ? pidmap_get(&f->tids, owner) : NULL;

		t = xcalloc(1, sizeof(*t));
		t->tid = tid;
		if (compat < 0)
			compat = o ? o->compat : exe_compat(owner > 0 ? owner : tid) > 0;
		t->compat = compat > 0;
		pidmap_put(&f->tids, tid, t);
	}
	t->owner = owner;
	t->in_call = false;
	t->before = false;
	return t;
}

/* A listed thread's name, until its switches tell it (a sleeping one has none). */
static void read_comm(struct ftid *t, pid_t pid)
{
	char path[64], buf[32];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)t->tid);
	n = read_small_file(path, buf, sizeof(buf));
	if (n <= 0)
		return;
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(t->comm, sizeof(t->comm), "%.15s", buf);
}

/* The threads of @pid now; event-fork adds what they create later. */
static void list_threads(struct focus *f, pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	read_comm(add_tid(f, pid, pid, -1), pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int tid = atoi(de->d_name);

		if (tid > 0)
			read_comm(add_tid(f, tid, pid, -1), pid);
	}
	closedir(d);
}

static int load_formats(struct focus *f)
{
	char rel[128];
	size_t len;
	char *text;
	int err, t;

	text = instance_read_format("header_page", &len);
	if (!text)
		return -ENOENT;
	err = evrich_init(&f->dec, text, len);
	free(text);
	f->dec_ready = true;
	if (err)
		return err;
	for (t = 0; t < RT_NR; t++) {
		if (!instance_event_on(f->tr, (size_t)t))
			continue;
		snprintf(rel, sizeof(rel), "%s/%s/format", evrich_system(t), evrich_name(t));
		text = instance_read_format(rel, &len);
		if (!text)
			return -ENOENT;
		err = evrich_add(&f->dec, t, text, len);
		free(text);
		if (err)
			return err;
	}
	return 0;
}

static int open_instance(struct focus *f)
{
	const struct model *m = f->m;
	char status[sizeof(m->focus_status)];
	const char *events[RT_NR][2];
	struct instance_config cfg = { 0 };
	pid_t *tids;
	size_t i, n = 0;
	char missing[128];
	int err, t;

	if (f->offline) {
		feed_status(f, "");
		return 0;
	}
	memcpy(status, m->focus_status, sizeof(status));
	for (t = 0; t < RT_NR; t++) {
		events[t][0] = evrich_system(t);
		events[t][1] = evrich_name(t);
	}
	tids = xmalloc((f->tids.n + 1) * sizeof(*tids));
	for (i = 0; i < f->tids.cap; i++) {
		struct ftid *ft = f->tids.slots[i].val;

		if (f->tids.slots[i].key && ft->owner)
			tids[n++] = ft->tid;
	}
	cfg.events = (const char *const (*)[2])events;
	cfg.nevents = RT_NR;
	cfg.buffer_kb = f->buffer_kb;
	cfg.buffer_percent = FOCUS_WAKE_PERCENT;
	cfg.pids = tids;
	cfg.npids = n;
	cfg.follow_forks = true;
	cfg.name_suffix = "-f";
	/* Event times on CLOCK_MONOTONIC: comparable with when /proc was read. */
	cfg.clock = "mono";
	cfg.flight = f->flight;
	err = instance_open(&cfg, &f->tr, status, sizeof(status), missing, sizeof(missing));
	free(tids);
	if (err) {
		feed_status(f, status);
		return err;
	}
	err = load_formats(f);
	if (err) {
		snprintf(status, sizeof(status), "events off: cannot read event formats: %s",
			 strerror(-err));
		feed_status(f, status);
		close_instance(f);
		return err;
	}
	if (missing[0])
		snprintf(status, sizeof(status), "not on this kernel: %.120s", missing);
	else
		status[0] = '\0';
	feed_status(f, status);
	f->ncpus = instance_ncpus(f->tr);
	f->cpu = xcalloc((size_t)f->ncpus, sizeof(*f->cpu));
	for (t = 0; t < f->ncpus; t++)
		f->cpu[t].page = xmalloc((size_t)instance_page_size(f->tr));
	f->gen++;
	return 0;
}

int focus_may_see(pid_t pid, char *why, size_t len)
{
	uid_t me = geteuid();
	struct pid_status st;
	char path[64], buf[2048];
	int64_t owner;
	ssize_t n;

	if (me == 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	owner = creds_owner(AT_FDCWD, path);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	n = read_small_file(path, buf, sizeof(buf));
	if (owner < 0 || n <= 0 || procfs_parse_pid_status(buf, (size_t)n, &st) || st.uid < 0) {
		snprintf(why, len, "process %d: its owner cannot be read: not focused", (int)pid);
		return n < 0 ? (int)n : -ESRCH;
	}
	if (st.uid != (int64_t)me) {
		snprintf(why, len, "process %d is uid %lld's, not yours: only root sees its events",
			 (int)pid, (long long)st.uid);
		return -EPERM;
	}
	/* Its effective uid is yours, but the kernel's owner (the counts' rule) may not be. */
	if (owner != (int64_t)me) {
		snprintf(why, len, "process %d changed credentials (setgid, capabilities, a setuid "
			 "program): only root sees its events", (int)pid);
		return -EPERM;
	}
	return 0;
}

/*
 * calls_before - the calls @pid's threads are in now that began before the
 * instance was on (their sys_enter is not in it), from /proc/TID/syscall:
 * "NR ARG0 .. ARG5 SP PC" while a thread is in a call, "running" or "-1 SP
 * PC" otherwise. Read once the instance is on, so that the end of each is
 * in the stream; a sys_enter read later (a call begun since) replaces what
 * this says. @since: a time after the instance was switched on (the calls
 * began before it: their age is at least from there).
 */
static void calls_before(struct focus *f, pid_t pid, uint64_t since)
{
	size_t i;
	long nr;

	for (i = 0; i < f->tids.cap; i++) {
		struct ftid *t = f->tids.slots[i].val;

		if (!f->tids.slots[i].key || t->owner != pid || t->in_call ||
		    !callargs_current(pid, t->tid, &nr, t->args))
			continue;
		t->in_call = true;
		t->before = true;
		t->enter_nr = nr;
		t->enter_ts = since;
	}
}

/*
 * The instance was made anew: what was in progress may have ended in the
 * gap (its exit not recorded). Every focused thread's call is read again.
 */
static void calls_reopened(struct focus *f, uint64_t since)
{
	size_t i;

	for (i = 0; i < f->tids.cap; i++)
		if (f->tids.slots[i].key)
			((struct ftid *)f->tids.slots[i].val)->in_call = false;
	for (i = 0; i < f->npids; i++)
		if (!f->pids[i].privileged)
			calls_before(f, f->pids[i].pid, since);
}

int focus_add(struct focus *f, struct model *m, pid_t pid, bool with_descendants)
{
	struct fpid *p = fpid_of(f, pid);
	char why[sizeof(m->focus_status)];
	struct focus_feed open = { .kind = FEED_OPEN, .pid = pid,
				   .with_descendants = with_descendants };
	int err;

	f->m = f->out = m;
	/* The Ktrace rule: a user other than root sees their own processes' events only. */
	err = p ? 0 : focus_may_see(pid, why, sizeof(why));
	if (err) {
		if (!f->npids)	/* else the status is the focused ones' */
			feed_status(f, why);
		return err;
	}
	feed(f, &open);
	if (p)
		return f->tr ? 0 : -ENOENT;
	if (f->npids == MAX_FOCUS) {
		snprintf(why, sizeof(why), "events off: %d processes focused already", MAX_FOCUS);
		feed_status(f, why);
		return -ENOSPC;
	}
	p = &f->pids[f->npids++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->with_descendants = with_descendants;
	if (f->procfd < 0 || varsread_proc_open(&p->vp, f->procfd, pid))
		for (err = 0; err < VS_NR; err++)
			p->vp.fd[err] = -1;
	list_threads(f, pid);
	/* The kernel's pid list is set while the instance is off: make it anew. */
	close_instance(f);
	err = open_instance(f);
	open.ns = clocks_mono_ns();
	feed(f, &open);
	if (!err)
		calls_reopened(f, open.ns);
	return err;
}

void focus_remove(struct focus *f, struct model *m, pid_t pid)
{
	struct fpid *p = fpid_of(f, pid);
	size_t i;

	f->m = f->out = m;
	feed(f, &(struct focus_feed){ .kind = FEED_CLOSE, .pid = pid });
	if (!p)
		return;
	varsread_proc_close(&p->vp);
	*p = f->pids[--f->npids];
	for (i = 0; i < f->tids.cap; i++) {
		struct ftid *t = f->tids.slots[i].val;

		if (f->tids.slots[i].key && t->owner == pid)
			t->owner = 0;
	}
	close_instance(f);
	if (f->npids) {
		forget_tids(f);
		for (i = 0; i < f->npids; i++)
			list_threads(f, f->pids[i].pid);
		if (!open_instance(f))
			calls_reopened(f, clocks_mono_ns());
	} else {
		forget_tids(f);
		feed_status(f, "");
	}
}

unsigned focus_generation(const struct focus *f)
{
	return f->gen;
}

size_t focus_pollfds(const struct focus *f, struct pollfd *pfd, size_t max)
{
	return f->tr ? instance_pollfds(f->tr, pfd, max) : 0;
}

/* The focused task @tid, learning its process from /proc once if no event said. */
static struct ftid *tid_of(struct focus *f, pid_t tid)
{
	struct ftid *t = pidmap_get(&f->tids, tid);
	struct pid_status st;
	char path[64], buf[2048];
	struct fpid *p;
	ssize_t n;

	if (t || tid <= 0)
		return t;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	n = read_small_file(path, buf, sizeof(buf));
	if (n > 0 && !procfs_parse_pid_status(buf, (size_t)n, &st) && (p = fpid_of(f, (pid_t)st.tgid)) &&
	    !p->privileged)
		return add_tid(f, tid, (pid_t)st.tgid, -1);
	/* Someone the kernel filter let in (a descendant): known, not kept. */
	return add_tid(f, tid, 0, -1);
}

static const struct fproc *fproc_of(struct focus *f, const struct ftid *t)
{
	struct fpid *p;

	if (!t || !t->owner)
		return NULL;
	p = fpid_of(f, t->owner);
	if (p)
		p->had_events = true;
	return model_fproc_find(f->m, t->owner);
}

/* Event @e of thread @tid into @fp's ring (@kind: what else the model takes from it). */
static void push(struct focus *f, const struct fproc *fp, struct kev *e, pid_t tid,
		 enum focus_feed_kind kind)
{
	struct focus_feed ff = { .kind = kind, .pid = fp->pid };

	e->tid = tid;
	e->cpu = (uint16_t)f->cur_cpu;
	ff.ev = *e;
	feed(f, &ff);
}

static void on_sys_exit(struct focus *f, struct ftid *t, const struct evrich_rec *r)
{
	struct focus_feed ff = { .kind = FEED_SYSCALL, .returned = true };
	const struct fproc *fp;
	struct kev e = r->ev;
	bool paired;

	if (t->in_exec) {
		/* The kernel reports it as the execve of the new program's ABI (evsums.c). */
		t->in_exec = false;
		if (e.u.sc.ret == 0 && e.u.sc.nr == SYS_execve)
			t->compat = false;
		else if (e.u.sc.ret == 0 && e.u.sc.nr >= 0 && evsums_compat_execve(e.u.sc.nr))
			t->compat = true;
	}
	if (!t->compat)
		e.u.sc.nr = evsums_real_nr((long)e.u.sc.nr);
	paired = t->in_call && t->enter_nr == e.u.sc.nr && r->ts >= t->enter_ts;
	t->in_call = false;
	/* A new task's first return is its creator's call, counted there (as strace does). */
	if (!paired && (t->compat ? evsums_child_return_compat((long)e.u.sc.nr, (long)e.u.sc.ret) :
				    evsums_child_return((long)e.u.sc.nr, (long)e.u.sc.ret)))
		return;
	/* From here on, the call's key: its number and ABI. */
	e.u.sc.nr = sc_key((long)e.u.sc.nr, t->compat);
	fp = fproc_of(f, t);
	if (!fp)
		return;
	if (paired) {
		memcpy(e.u.sc.args, t->args, sizeof(e.u.sc.args));
		e.u.sc.dur_ns = r->ts - t->enter_ts;
		e.nargs = callargs_count(&f->args, e.u.sc.nr);
		/* Entered before the focus: its time is a lower bound, not one to average. */
		if (t->before)
			e.flags |= KEVF_BEFORE;
	} else {
		e.flags |= KEVF_NO_ENTER;
	}
	t->before = false;
	ff.pid = fp->pid;
	ff.timed = paired && !(e.flags & KEVF_BEFORE);
	e.tid = t->tid;
	e.cpu = (uint16_t)f->cur_cpu;
	ff.ev = e;
	feed(f, &ff);
}

/* The call a task was in when it exited (exit, exit_group): it never returns. */
static void unfinished_call(struct focus *f, struct ftid *t, const struct fproc *fp, uint64_t ts)
{
	struct kev e;

	if (!t->in_call)
		return;
	t->in_call = false;
	memset(&e, 0, sizeof(e));
	e.kind = KEV_SYSCALL;
	e.flags = KEVF_NO_EXIT;
	e.ts = ts;
	e.u.sc.nr = sc_key((long)t->enter_nr, t->compat);
	memcpy(e.u.sc.args, t->args, sizeof(e.u.sc.args));
	e.nargs = callargs_count(&f->args, e.u.sc.nr);
	push(f, fp, &e, t->tid, FEED_SYSCALL);
}

static void on_switch(struct focus *f, const struct evrich_rec *r)
{
	struct ftid *prev = pidmap_get(&f->tids, r->ev.u.sw.prev);
	struct ftid *next = pidmap_get(&f->tids, r->ev.u.sw.next);
	const struct fproc *fp;
	struct kev e = r->ev;

	/* Their names now (a thread's prctl(PR_SET_NAME) shows at its next switch). */
	if (prev)
		snprintf(prev->comm, sizeof(prev->comm), "%.15s", r->ev.u.sw.prev_comm);
	if (next)
		snprintf(next->comm, sizeof(next->comm), "%.15s", r->ev.u.sw.next_comm);
	if ((fp = fproc_of(f, prev)))
		push(f, fp, &e, prev->tid, FEED_SWITCH);
	if ((fp = fproc_of(f, next))) {
		e.flags |= KEVF_SWITCH_IN;
		push(f, fp, &e, next->tid, FEED_SWITCH);
	}
}

/*
 * Not root: did this exec of a kept process make it another user's (creds.h)?
 * Asked when the record is read, up to a tick later: its owner then, and the
 * file it ran (a setuid program that exec'd one of the user's since leaves
 * the user as the owner).
 */
static bool exec_gains(struct focus *f, const struct evrich_rec *r)
{
	pid_t pid = r->ev.u.exec.pid;
	uid_t me = geteuid();
	char rel[32];

	if (me == 0)
		return false;
	snprintf(rel, sizeof(rel), f->procfd >= 0 ? "%d" : "/proc/%d", (int)pid);
	return creds_owner(f->procfd >= 0 ? f->procfd : AT_FDCWD, rel) != (int64_t)me ||
	       !creds_exec_ordinary(pid, r->file ? r->file : "", r->file_len, me, getegid());
}

/*
 * The exec of @t made it another user's: its events end before that exec
 * (and so do a focused process's descendants' kept with it). A descendant
 * alone is let go; the focused process itself ends its view's events, whose
 * status line says why. What /proc shows anyone stays.
 */
static void disown(struct focus *f, struct ftid *t, const struct evrich_rec *r)
{
	struct fpid *p = fpid_of(f, t->owner);
	char file[48], status[sizeof(f->m->focus_status)];
	size_t i;

	if (!p || t->tid != p->pid) {
		t->owner = 0;
		return;
	}
	p->privileged = true;
	for (i = 0; i < f->tids.cap; i++) {
		struct ftid *o = f->tids.slots[i].val;

		if (f->tids.slots[i].key && o->owner == p->pid)
			o->owner = 0;
	}
	sanitize_text(file, sizeof(file), r->ev.u.exec.file, strlen(r->ev.u.exec.file), false);
	snprintf(status, sizeof(status),
		 "process %d gained privileges (exec %s): its events after that are not shown",
		 (int)p->pid, file);
	feed_status(f, status);
}

static void on_record(struct focus *f, const struct evrich_rec *r)
{
	struct ftid *t, *c;
	const struct fproc *fp, *tfp;
	struct focus_feed ff = { .kind = FEED_SIGGEN };
	struct kev e = r->ev;
	int i;

	switch (r->tp) {
	case RT_SYS_ENTER:
		t = tid_of(f, r->pid);
		if (!t)
			return;
		t->in_call = true;
		t->before = false;
		t->enter_nr = r->ev.u.sc.nr;
		t->enter_ts = r->ts;
		t->enter_cpu = (uint16_t)f->cur_cpu;
		for (i = 0; i < KEV_SC_ARGS; i++)
			t->args[i] = r->ev.u.sc.args[i];
		break;
	case RT_SYS_EXIT:
		t = tid_of(f, r->pid);
		if (t)
			on_sys_exit(f, t, r);
		break;
	case RT_SWITCH:
		on_switch(f, r);
		break;
	case RT_FAULT:
		fp = fproc_of(f, tid_of(f, r->pid));
		if (fp)
			push(f, fp, &e, r->pid, FEED_EVENT);
		break;
	case RT_SIGGEN:
		/* Sent by a focused task: to itself, or to another. */
		fp = fproc_of(f, tid_of(f, r->pid));
		tfp = fproc_of(f, pidmap_get(&f->tids, e.u.sig.target));
		if (fp)
			push(f, fp, &e, r->pid, FEED_EVENT);
		if (tfp) {
			/* Its panel entry (with a focused sender's name), and its ring unless the sender's. */
			ff.pid = tfp->pid;
			ff.from = fp ? fp->pid : 0;
			e.tid = e.u.sig.target;
			e.cpu = (uint16_t)f->cur_cpu;
			ff.ev = e;
			feed(f, &ff);
		}
		break;
	case RT_SIGDELIVER:
		t = tid_of(f, r->pid);
		fp = fproc_of(f, t);
		if (fp)
			push(f, fp, &e, r->pid, FEED_SIGDELIVER);
		break;
	case RT_NEWTASK:
		t = tid_of(f, r->pid);
		fp = fproc_of(f, t);
		if (!t)
			break;
		/* A thread is its creator's; a child, with descendants kept, too. */
		c = add_tid(f, e.u.fork.child, 0, t->compat);
		if (fp && ((e.u.fork.clone_flags & 0x00010000) || fp->with_descendants))
			c->owner = t->owner;
		if (fp)
			push(f, fp, &e, r->pid, FEED_EVENT);
		break;
	case RT_EXEC:
		t = tid_of(f, e.u.exec.pid);
		if (e.u.exec.old_pid != e.u.exec.pid) {
			struct ftid *o = pidmap_get(&f->tids, e.u.exec.old_pid);

			if (o)
				o->in_call = false;
		}
		if (t && t->owner && exec_gains(f, r))
			disown(f, t, r);
		fp = fproc_of(f, t);
		if (fp)
			push(f, fp, &e, e.u.exec.pid, FEED_EVENT);
		if (t) {
			t->in_call = false;	/* execve's return comes as the new program's */
			t->in_exec = true;
		}
		break;
	case RT_EXIT:
		t = tid_of(f, e.u.exit.pid);
		if (t)
			t->exited = true;
		fp = fproc_of(f, t);
		if (!fp)
			break;
		unfinished_call(f, t, fp, r->ts);
		push(f, fp, &e, e.u.exit.pid, FEED_EVENT);
		break;
	case RT_NR:
		break;
	}
}

/* Make CPU @i's cursor point at a record, reading its next sub-buffer if needed. */
static bool refill(struct focus *f, int i, bool flush, size_t *pages)
{
	struct fcpu *c = &f->cpu[i];

	while (!c->loaded || !c->cur.rec) {
		long missed = 0;
		int n;

		if (c->drained)
			return false;

		/*
		 * Bounded either way: a writer that never pauses must not hold the
		 * loop (a tick reads at most a buffer's worth per CPU, a drain less).
		 */
		if (*pages >= (flush ? f->buffer_kb * 1024 / (size_t)instance_page_size(f->tr) + 16 :
				     DRAIN_PAGES) * (size_t)f->ncpus)
			return false;
		n = instance_read_page(f->tr, i, c->page, flush, NULL);
		c->loaded = false;
		if (n <= 0) {
			c->drained = true;
			return false;
		}
		(*pages)++;
		if (evrich_cursor_load(&f->dec, &c->cur, c->page, (size_t)n, &missed))
			continue;
		c->loaded = true;
		if (missed) {
			size_t k;

			/*
			 * An entry before the loss and an exit after it may be of
			 * two calls: no call in progress is timed across it.
			 */
			for (k = 0; k < f->tids.cap; k++)
				if (f->tids.slots[k].key)
					((struct ftid *)f->tids.slots[k].val)->in_call = false;
			feed(f, &(struct focus_feed){ .kind = FEED_LOST, .unknown = missed < 0,
						      .n = missed < 0 ? 0 : (uint64_t)missed });
		}
	}
	return true;
}

/*
 * Merge the CPUs' records in time order: a task entering a call on one CPU may
 * leave it on another. @flush (at a tick) reads the partly filled pages too, so
 * everything written up to now is in; a drain reads whole pages only, and a
 * CPU with none is taken as having nothing earlier (a rare misorder of
 * microseconds when a task moves between CPUs mid-drain).
 */
static void read_all(struct focus *f, bool flush)
{
	const struct model *m = f->m;
	size_t pages = 0, i;
	int c;

	if (!f->tr || !f->dec_ready)
		return;
	for (i = 0; i < f->npids; i++)
		f->pids[i].had_events = false;
	for (c = 0; c < f->ncpus; c++)
		f->cpu[c].drained = false;
	for (;;) {
		int best = -1;
		struct evrich_rec r;

		for (c = 0; c < f->ncpus; c++) {
			if (!refill(f, c, flush, &pages))
				continue;
			if (best < 0 || f->cpu[c].cur.ts < f->cpu[best].cur.ts)
				best = c;
		}
		if (best < 0)
			break;
		evrich_cursor_decode(&f->dec, &f->cpu[best].cur, &r);
		f->cur_cpu = best;
		on_record(f, &r);
		evrich_cursor_next(&f->dec, &f->cpu[best].cur);
	}
	/* The variables, once per tick per process that had events, right after them. */
	for (i = 0; i < f->npids; i++) {
		struct fpid *p = &f->pids[i];
		const struct fproc *fp = model_fproc_find(m, p->pid);
		struct var_sample vs;

		if (!fp || !p->had_events || p->privileged || fp->sampled_tick == m->tick + 1)
			continue;
		memset(&vs, 0, sizeof(vs));
		varsread_sample(&p->vp, &f->sys, clocks_mono_ns(), &vs);
		feed(f, &(struct focus_feed){ .kind = FEED_VARS, .pid = p->pid, .vars = &vs });
	}
}

void focus_feed(struct focus *f, struct model *m, int cpu, const struct evrich_rec *r)
{
	f->m = f->out = m;
	f->cur_cpu = cpu;
	on_record(f, r);
}

void focus_drain(struct focus *f, struct model *m, int fd)
{
	int i;

	if (!f->tr)
		return;
	f->m = f->out = m;
	for (i = 0; i < f->ncpus; i++)
		if (instance_cpu_fd(f->tr, i) == fd) {
			read_all(f, false);
			return;
		}
}

/* What descriptor @fd of @t is now: its /proc link, read once per call. */
static void read_target(struct ftid *t, int fd)
{
	if (t->target_ts == t->enter_ts)
		return;
	t->target_ts = t->enter_ts;
	callargs_fd_target(t->owner, t->tid, fd, t->target, sizeof(t->target));
}

/*
 * The calls in progress at @cut that were in progress at the last tick too
 * (one interval or more), and those begun before the focus. Counted, like
 * every call, in the interval where they end.
 */
static void list_calls(struct focus *f, uint64_t cut)
{
	const struct model *m = f->m;
	uint64_t interval = m->t_now && cut > m->t_now ? cut - m->t_now : 0;
	size_t i, n = 0;

	for (i = 0; i < f->tids.cap; i++) {
		struct ftid *t = f->tids.slots[i].val;
		struct fcall *c;
		uint32_t key;

		if (!f->tids.slots[i].key || !t->owner || !t->in_call || t->enter_ts > cut)
			continue;
		if (!t->before && (!interval || cut - t->enter_ts < interval))
			continue;
		if (!model_fproc_find(m, t->owner))
			continue;
		key = sc_key((long)t->enter_nr, t->compat);
		if (n == f->cap_calls) {
			f->cap_calls = f->cap_calls ? f->cap_calls * 2 : 16;
			f->calls = xrealloc(f->calls, f->cap_calls * sizeof(*f->calls));
		}
		c = &f->calls[n++];
		memset(c, 0, sizeof(*c));
		c->tgid = t->owner;
		c->tid = t->tid;
		c->nr = key;
		c->arg = (uint8_t)callargs_first(&f->args, key);
		c->arg0 = t->args[0];
		c->before = t->before;
		c->since_ns = t->enter_ts;
		if (c->arg == FA_FD) {
			read_target(t, (int)t->args[0]);
			memcpy(c->target, t->target, sizeof(c->target));
		}
	}
	feed(f, &(struct focus_feed){ .kind = FEED_CALLS, .ns = cut, .calls = f->calls, .ncalls = n });
}

void focus_thread_states(struct focus *f, const struct model *m, const struct evsums *a,
			 struct sample *s)
{
	static const enum counter ac[FS_NR] = {
		[FS_ONCPU] = CNT_ONCPU, [FS_RUNQ] = CNT_RUNQ, [FS_SLEEP] = CNT_SLEEP,
		[FS_BLOCKED] = CNT_BLOCKED,
	};
	bool states = a && a->states;
	size_t i;

	s->have_fthreads = true;
	s->fthreads_known = states;
	for (i = 0; i < f->tids.cap; i++) {
		struct ftid *t = f->tids.slots[i].val;
		const struct evsums_thread *th;
		struct fthread_split *sp;
		bool exited;
		int st;

		if (!f->tids.slots[i].key || !t->owner || t->gone || !model_fproc_find(m, t->owner))
			continue;
		th = a ? pidmap_get(&a->threads, t->tid) : NULL;
		/* Its interval goes on into the next one (evsums_carry): so does its row's. */
		if (th && th->carry)
			continue;
		exited = t->exited || (th && th->exited);
		sp = sample_add_fthread(s);
		sp->pid = t->owner;
		sp->tid = t->tid;
		memcpy(sp->comm, t->comm, sizeof(sp->comm));
		for (st = 0; st < FS_NR; st++)
			sp->ns[st] = th ? th->n[ac[st]] : 0;
		sp->known = states && th && th->st != ACCT_ST_UNKNOWN;
		sp->exited = exited;
		t->gone = exited;
	}
}

void focus_collect(struct focus *f, struct model *m)
{
	uint64_t lost, cut;

	if (!f->tr)
		return;
	f->m = f->out = m;
	/* Every event before this time is in the buffers (the instance's clock is mono). */
	cut = clocks_mono_ns();
	read_all(f, true);
	list_calls(f, cut);
	lost = instance_lost(f->tr);
	if (lost > f->lost_seen)
		feed(f, &(struct focus_feed){ .kind = FEED_LOST, .n = lost - f->lost_seen });
	f->lost_seen = lost;
}

void focus_signal_seen(struct focus *f, struct model *m, const struct evsums_sig *as)
{
	pid_t sender = as->sender;
	struct ftid *t = pidmap_get(&f->tids, as->target);
	struct focus_feed ff = { .kind = FEED_SIGSEEN, .pid = t ? t->owner : 0, .comm = as->comm };
	const struct task *st;
	char buf[32];
	ssize_t n;

	if (!ff.pid || !model_fproc_find(m, ff.pid))
		return;
	/* A focused sender's were recorded from the focus stream already. */
	if (sender > 0 && (t = pidmap_get(&f->tids, sender)) && t->owner)
		return;
	f->m = f->out = m;
	ff.ev.ts = clocks_mono_ns();
	ff.ev.u.sig.sender = sender;
	ff.ev.u.sig.target = as->target;
	ff.ev.u.sig.sig = as->sig;
	ff.ev.u.sig.result = as->result;
	/* Its name: the event's, the model's, /proc's. */
	if (!as->comm[0] && sender > 0) {
		st = model_task_find(m, sender);
		if (st) {
			ff.comm = st->comm;
		} else {
			char path[64];

			snprintf(path, sizeof(path), "/proc/%d/comm", (int)sender);
			n = read_small_file(path, buf, sizeof(buf));
			if (n > 0) {
				buf[strcspn(buf, "\n")] = '\0';
				ff.comm = buf;
			}
		}
	}
	feed(f, &ff);
}
