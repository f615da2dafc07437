// SPDX-License-Identifier: GPL-2.0-only
/*
 * A focused process's events (model/kev.h) as text: the event list's line,
 * the snapshot's fields, and the pieces the process view shows.
 */
#include "kevtext.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../lib/scnames.h"
#include "../lib/signames.h"
#include "../lib/util.h"

/* Rendering. Small numbers read best in decimal, addresses and flags in hex. */
static int put_num(char *buf, size_t n, uint64_t v)
{
	return snprintf(buf, n, v < 65536 ? "%" PRIu64 : "0x%" PRIx64, v);
}

char *kevtext_duration(uint64_t ns, char *buf, size_t n)
{
	if (ns < 1000000)
		snprintf(buf, n, "%.1f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, n, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(buf, n, "%.3f s", (double)ns / 1e9);
	return buf;
}

/* Appends with snprintf semantics: @len never passes @n - 1. */
static size_t append(char *buf, size_t n, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t n, size_t len, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (len + 1 >= n)
		return len;
	va_start(ap, fmt);
	w = vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
	if (w < 0)
		return len;
	return len + (size_t)w >= n ? n - 1 : len + (size_t)w;
}

static char *render_syscall(const struct kev *e, char *buf, size_t n)
{
	char nb[SYSCALL_LABEL_BUF], eb[ERRNO_NAME_BUF], num[24], d[24];
	const char *name = syscall_label((unsigned)e->u.sc.nr, nb, sizeof(nb));
	size_t len = 0;
	int i;

	len = append(buf, n, len, "%s(", name);
	if (e->flags & KEVF_NO_ENTER) {
		len = append(buf, n, len, "?");
	} else {
		for (i = 0; i < e->nargs && i < KEV_SC_ARGS; i++) {
			put_num(num, sizeof(num), e->u.sc.args[i]);
			len = append(buf, n, len, "%s%s", i ? ", " : "", num);
		}
	}
	len = append(buf, n, len, ")");
	if (e->flags & KEVF_NO_EXIT)
		return (void)append(buf, n, len, " = ?"), buf;
	if (e->u.sc.ret < 0 && e->u.sc.ret >= -4095) {
		const char *hint = errno_hint((int)e->u.sc.ret);

		len = append(buf, n, len, " = %" PRId64 " %s%s%s%s", e->u.sc.ret,
			     errno_name((int)e->u.sc.ret, eb, sizeof(eb)), hint ? " (" : "",
			     hint ? hint : "", hint ? ")" : "");
	} else {
		put_num(num, sizeof(num), (uint64_t)e->u.sc.ret);
		len = append(buf, n, len, " = %s", num);
	}
	if (!(e->flags & KEVF_NO_ENTER))
		append(buf, n, len, " <%s%s>", e->flags & KEVF_BEFORE ? "more than " : "",
		       kevtext_duration(e->u.sc.dur_ns, d, sizeof(d)));
	return buf;
}

const char *kevtext_switch_state(int64_t s, char *buf, size_t n)
{
	/* The kernel's TASK_REPORT bits, as sched_switch prints them. */
	static const char letters[] = "SDTtXZPI";
	size_t len = 0;
	int i;

	if (s & 0x100)
		return "R+";	/* preempted: runnable when it left */
	if (!(s & 0xff))
		return "R";
	for (i = 0; i < 8 && len + 2 < n; i++)
		if (s & (1 << i)) {
			if (len)
				buf[len++] = '|';
			buf[len++] = letters[i];
		}
	buf[len] = '\0';
	return buf;
}

static char *render_switch(const struct kev *e, char *buf, size_t n)
{
	char st[24];

	if (e->flags & KEVF_SWITCH_IN)
		snprintf(buf, n, "switch in (from %d %.16s, which left %s)", e->u.sw.prev,
			 e->u.sw.prev_comm, kevtext_switch_state(e->u.sw.prev_state, st, sizeof(st)));
	else
		snprintf(buf, n, "switch out %s -> %d %.16s",
			 kevtext_switch_state(e->u.sw.prev_state, st, sizeof(st)), e->u.sw.next,
			 e->u.sw.next_comm);
	return buf;
}

char *kevtext_fault_text(uint64_t ec, char *buf, size_t n)
{
	/* x86 page-fault error code: P, W/R, U/S, RSVD, I/D, PK bits. */
	snprintf(buf, n, "%s %s %s%s%s%s", ec & 2 ? "write" : "read", ec & 4 ? "user" : "kernel",
		 ec & 1 ? "protection" : "not-present", ec & 16 ? " ifetch" : "",
		 ec & 8 ? " reserved-bit" : "", ec & 32 ? " pkey" : "");
	return buf;
}

static char *render_fault(const struct kev *e, char *buf, size_t n)
{
	char t[64];

	snprintf(buf, n, "page fault %s at 0x%" PRIx64 " ip 0x%" PRIx64 " (error 0x%" PRIx64 ")",
		 kevtext_fault_text(e->u.pf.error_code, t, sizeof(t)), e->u.pf.address, e->u.pf.ip,
		 e->u.pf.error_code);
	return buf;
}

const char *kevtext_sig_result(int result)
{
	/* include/trace/events/signal.h: enum trace_signal_result */
	static const char *const names[] = {
		"delivered", "ignored", "already pending", "overflow", "lose info",
	};

	return result >= 0 && result < (int)ARRAY_SIZE(names) ? names[result] : "?";
}

static char *render_siggen(const struct kev *e, char *buf, size_t n)
{
	char sb[16];

	snprintf(buf, n, "signal %s from %d to %d %.16s: %s",
		 signal_name(e->u.sig.sig, sb, sizeof(sb)), e->u.sig.sender, e->u.sig.target,
		 e->u.sig.comm, kevtext_sig_result(e->u.sig.result));
	return buf;
}

static const char *handler_text(uint64_t h)
{
	return h == 0 ? "default action" : h == 1 ? "ignored" : "handler";
}

static char *render_sigdeliver(const struct kev *e, char *buf, size_t n)
{
	char sb[16];
	size_t len;

	len = (size_t)snprintf(buf, n, "deliver %s (%s", signal_name(e->u.sig.sig, sb, sizeof(sb)),
			       handler_text(e->u.sig.handler));
	if (len >= n)
		return buf;
	if (e->u.sig.sender > 0)
		snprintf(buf + len, n - len, ", sent by %d %.16s)", e->u.sig.sender, e->u.sig.comm);
	else
		snprintf(buf + len, n - len, ")");
	return buf;
}

static char *render_fork(const struct kev *e, char *buf, size_t n)
{
	snprintf(buf, n, "%s %d (%.16s) flags 0x%" PRIx64,
		 e->u.fork.clone_flags & 0x00010000 ? "new thread" : "fork: child",
		 e->u.fork.child, e->u.fork.comm, e->u.fork.clone_flags);
	return buf;
}

static char *render_exec(const struct kev *e, char *buf, size_t n)
{
	snprintf(buf, n, "exec %.64s", e->u.exec.file);
	return buf;
}

static char *render_exit(const struct kev *e, char *buf, size_t n)
{
	snprintf(buf, n, "exit of %d%s", e->u.exit.pid,
		 e->u.exit.group_dead > 0 ? " (the last thread: the process is gone)" : "");
	return buf;
}

/* How each kind (enum kev_kind) reads. */
static char *(*const renderers[KEV_NR])(const struct kev *e, char *buf, size_t n) = {
	[KEV_SYSCALL] = render_syscall, [KEV_SWITCH] = render_switch, [KEV_FAULT] = render_fault,
	[KEV_SIGGEN] = render_siggen, [KEV_SIGDELIVER] = render_sigdeliver, [KEV_FORK] = render_fork,
	[KEV_EXEC] = render_exec, [KEV_EXIT] = render_exit,
};

char *kevtext_render(const struct kev *e, char *buf, size_t n)
{
	if (!n)
		return buf;
	buf[0] = '\0';
	if (e->kind < KEV_NR)
		renderers[e->kind](e, buf, n);
	return buf;
}

bool kevtext_field(const struct kev *e, int i, const char **name, char *val, size_t n)
{
	char t[64], sb[16], nb[SYSCALL_LABEL_BUF], eb[ERRNO_NAME_BUF];

	switch (e->kind) {
	case KEV_SYSCALL: {
		static const char *const an[KEV_SC_ARGS] = { "arg0", "arg1", "arg2", "arg3", "arg4", "arg5" };
		int na = (e->flags & KEVF_NO_ENTER) ? 1 : e->nargs;

		if (i == 0) {
			*name = "syscall";
			snprintf(val, n, "%s (%u, %s)",
				 syscall_label((unsigned)e->u.sc.nr, nb, sizeof(nb)),
				 sc_key_nr((uint32_t)e->u.sc.nr),
				 subsystem_name(syscall_subsystem((unsigned)e->u.sc.nr)));
		} else if (i <= na && (e->flags & KEVF_NO_ENTER)) {
			*name = "args";
			snprintf(val, n, "not seen (no entry event)");
		} else if (i <= na && i <= KEV_SC_ARGS) {
			*name = an[i - 1];
			snprintf(val, n, "0x%" PRIx64 " (%" PRIu64 ")", e->u.sc.args[i - 1],
				 e->u.sc.args[i - 1]);
		} else if (i == na + 1) {
			*name = "return";
			if (e->flags & KEVF_NO_EXIT)
				snprintf(val, n, "? (never returned)");
			else if (e->u.sc.ret < 0 && e->u.sc.ret >= -4095)
				snprintf(val, n, "%" PRId64 " %s%s%s%s", e->u.sc.ret,
					 errno_name((int)e->u.sc.ret, eb, sizeof(eb)),
					 errno_hint((int)e->u.sc.ret) ? " (" : "",
					 errno_hint((int)e->u.sc.ret) ? errno_hint((int)e->u.sc.ret) : "",
					 errno_hint((int)e->u.sc.ret) ? ")" : "");
			else
				snprintf(val, n, "%" PRId64 " (0x%" PRIx64 ")", e->u.sc.ret,
					 (uint64_t)e->u.sc.ret);
		} else if (i == na + 2 && !(e->flags & (KEVF_NO_ENTER | KEVF_NO_EXIT))) {
			*name = "duration";
			kevtext_duration(e->u.sc.dur_ns, t, sizeof(t));
			snprintf(val, n, "%s%s", t, e->flags & KEVF_BEFORE ?
				 " at least (entered before the view opened)" : "");
		} else {
			return false;
		}
		return true;
	}
	case KEV_SWITCH:
		switch (i) {
		case 0: *name = "direction"; snprintf(val, n, "%s", e->flags & KEVF_SWITCH_IN ? "in" : "out"); return true;
		case 1: *name = "prev"; snprintf(val, n, "%d %.16s", e->u.sw.prev, e->u.sw.prev_comm); return true;
		case 2: *name = "prev_state"; snprintf(val, n, "%s", kevtext_switch_state(e->u.sw.prev_state, t, sizeof(t))); return true;
		case 3: *name = "next"; snprintf(val, n, "%d %.16s", e->u.sw.next, e->u.sw.next_comm); return true;
		default: return false;
		}
	case KEV_FAULT:
		switch (i) {
		case 0: *name = "address"; snprintf(val, n, "0x%" PRIx64, e->u.pf.address); return true;
		case 1: *name = "ip"; snprintf(val, n, "0x%" PRIx64, e->u.pf.ip); return true;
		case 2: *name = "error_code"; snprintf(val, n, "0x%" PRIx64 " %s", e->u.pf.error_code, kevtext_fault_text(e->u.pf.error_code, t, sizeof(t))); return true;
		default: return false;
		}
	case KEV_SIGGEN:
	case KEV_SIGDELIVER:
		switch (i) {
		case 0: *name = "signal"; snprintf(val, n, "%s (%d)", signal_name(e->u.sig.sig, sb, sizeof(sb)), e->u.sig.sig); return true;
		case 1: *name = "sender"; if (e->u.sig.sender > 0) snprintf(val, n, "%d%s%.16s", e->u.sig.sender, e->kind == KEV_SIGDELIVER ? " " : "", e->kind == KEV_SIGDELIVER ? e->u.sig.comm : ""); else snprintf(val, n, "%s", e->kind == KEV_SIGGEN ? "interrupt context" : "not seen"); return true;
		case 2: *name = "receiver"; snprintf(val, n, "%d%s%.16s", e->u.sig.target, e->kind == KEV_SIGGEN ? " " : "", e->kind == KEV_SIGGEN ? e->u.sig.comm : ""); return true;
		case 3: *name = "si_code"; snprintf(val, n, "%d", e->u.sig.code); return true;
		case 4:
			*name = "result";
			snprintf(val, n, "%s", e->kind == KEV_SIGGEN ? kevtext_sig_result(e->u.sig.result) : handler_text(e->u.sig.handler));
			return true;
		default: return false;
		}
	case KEV_FORK:
		switch (i) {
		case 0: *name = "parent"; snprintf(val, n, "%d", e->u.fork.parent); return true;
		case 1: *name = "child"; snprintf(val, n, "%d %.16s", e->u.fork.child, e->u.fork.comm); return true;
		case 2: *name = "clone_flags"; snprintf(val, n, "0x%" PRIx64 "%s", e->u.fork.clone_flags, e->u.fork.clone_flags & 0x00010000 ? " (thread)" : ""); return true;
		default: return false;
		}
	case KEV_EXEC:
		switch (i) {
		case 0: *name = "filename"; snprintf(val, n, "%.64s", e->u.exec.file); return true;
		case 1: *name = "pid"; snprintf(val, n, "%d (was %d)", e->u.exec.pid, e->u.exec.old_pid); return true;
		default: return false;
		}
	case KEV_EXIT:
		switch (i) {
		case 0: *name = "pid"; snprintf(val, n, "%d", e->u.exit.pid); return true;
		case 1: *name = "group_dead"; snprintf(val, n, "%s", e->u.exit.group_dead < 0 ? "not on this kernel" : e->u.exit.group_dead ? "yes" : "no"); return true;
		default: return false;
		}
	default:
		return false;
	}
}
