// SPDX-License-Identifier: GPL-2.0-only
#include "vars.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>	/* getpagesize: rss is in pages */

#include "procdata.h"
#include "../lib/signames.h"
#include "../lib/util.h"

enum var_fmt { VF_NUM, VF_KB, VF_PAGES, VF_STATE, VF_TASK, VF_SIGNAL, VF_HEX, VF_UID };

/*
 * The variable catalog. @off and @size say where the value is in the source's
 * parsed form: struct kev for events, struct pid_stat, struct pid_status,
 * struct sys_mem, struct sys_vm (the existing /proc parsers); SigBlk, which no
 * parser reads, has a key instead. A new variable is one row here (and an
 * enum var_id).
 */
static const struct var_def {
	const char *name, *unit;
	enum var_src src;
	size_t off, size;
	const char *key;	/* VS_STATUS lines no parser reads: "SigBlk:" */
	enum var_fmt fmt;
	bool system;
} var_defs[VAR_NR] = {
#define ST(f) VS_STAT, offsetof(struct pid_stat, f), sizeof(((struct pid_stat *)0)->f), NULL
#define SU(f) VS_STATUS, offsetof(struct pid_status, f), sizeof(((struct pid_status *)0)->f), NULL
#define MI(f) VS_MEMINFO, offsetof(struct sys_mem, f), sizeof(((struct sys_mem *)0)->f), NULL
#define VM(f) VS_VMSTAT, offsetof(struct sys_vm, f), sizeof(((struct sys_vm *)0)->f), NULL
#define EV(f) VS_EVENT, offsetof(struct kev, f), sizeof(((struct kev *)0)->f), NULL
	[VAR_PID]	= { "pid", "", ST(pid), VF_NUM, false },
	[VAR_TID]	= { "tid", "", EV(tid), VF_NUM, false },
	[VAR_PPID]	= { "ppid", "", ST(ppid), VF_NUM, false },
	[VAR_PGID]	= { "pgid", "", ST(pgid), VF_NUM, false },
	[VAR_UID]	= { "uid", "", SU(uid), VF_UID, false },
	[VAR_STATE]	= { "state", "", ST(state), VF_STATE, false },
	[VAR_MINFLT]	= { "minflt", "faults", ST(minflt), VF_NUM, false },
	[VAR_MAJFLT]	= { "majflt", "faults", ST(majflt), VF_NUM, false },
	[VAR_VCSW]	= { "vcsw", "switches", SU(vcsw), VF_NUM, false },
	[VAR_IVCSW]	= { "ivcsw", "switches", SU(ivcsw), VF_NUM, false },
	[VAR_RSS]	= { "rss", "kB", ST(rss), VF_PAGES, false },
	[VAR_THREADS]	= { "threads", "", ST(num_threads), VF_NUM, false },
	[VAR_SIGBLK]	= { "sigblk", "mask", VS_STATUS, 0, 8, "SigBlk:", VF_HEX, false },
	[VAR_MEMFREE]	= { "mem_free", "kB", MI(free), VF_KB, true },
	[VAR_MEMTOTAL]	= { "mem_total", "kB", MI(total), VF_KB, true },
	[VAR_PGFAULT]	= { "pgfault", "faults", VM(pgfault), VF_NUM, true },
	[VAR_PGPGIN]	= { "pgpgin", "kB", VM(pgpgin), VF_NUM, true },
	[VAR_PGPGOUT]	= { "pgpgout", "kB", VM(pgpgout), VF_NUM, true },
	[VAR_PSWPIN]	= { "pswpin", "pages", VM(pswpin), VF_NUM, true },
	[VAR_PSWPOUT]	= { "pswpout", "pages", VM(pswpout), VF_NUM, true },
	[VAR_SW_OUT]	= { "switch_out", "task", EV(last_out), VF_TASK, true },
	[VAR_SW_IN]	= { "switch_in", "task", EV(last_in), VF_TASK, true },
	[VAR_LASTSIG]	= { "last_signal", "", EV(last_sig), VF_SIGNAL, false },
#undef ST
#undef SU
#undef MI
#undef VM
#undef EV
};

static const char *const src_names[VS_NR] = {
	[VS_EVENT] = "event", [VS_STAT] = "/proc/PID/stat", [VS_STATUS] = "/proc/PID/status",
	[VS_MEMINFO] = "/proc/meminfo", [VS_VMSTAT] = "/proc/vmstat",
};

const char *vars_name(enum var_id v) { return var_defs[v].name; }
const char *vars_unit(enum var_id v) { return var_defs[v].unit; }
enum var_src vars_source(enum var_id v) { return var_defs[v].src; }
const char *vars_source_name(enum var_src s) { return src_names[s]; }
bool vars_is_system(enum var_id v) { return var_defs[v].system; }

char *vars_format(enum var_id v, int64_t val, char *buf, size_t n)
{
	switch (var_defs[v].fmt) {
	case VF_KB:
		snprintf(buf, n, "%" PRId64 " kB", val);
		break;
	case VF_PAGES:	/* stat's rss is in pages */
		snprintf(buf, n, "%" PRId64 " kB", val * (getpagesize() / 1024));
		break;
	case VF_STATE:
		snprintf(buf, n, "%c", val > ' ' && val < 127 ? (char)val : '?');
		break;
	case VF_TASK:
		if (val > 0)
			snprintf(buf, n, "%" PRId64, val);
		else
			snprintf(buf, n, val == 0 ? "0 (idle)" : "none seen yet");
		break;
	case VF_SIGNAL:
		if (val > 0)
			signal_name((int)val, buf, n);
		else
			snprintf(buf, n, "none yet");
		break;
	case VF_HEX:
		snprintf(buf, n, "0x%016" PRIx64, (uint64_t)val);
		break;
	case VF_UID:
	case VF_NUM:
		snprintf(buf, n, "%" PRId64, val);
		break;
	}
	return buf;
}

static int64_t get_field(const void *base, size_t off, size_t size)
{
	const unsigned char *p = (const unsigned char *)base + off;
	int64_t v64;
	int32_t v32;
	int16_t v16;

	switch (size) {
	case 1:
		return *(const char *)p;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

void vars_snap(const struct kev *e, pid_t pid, const struct var_sample *s, struct var_snap *out)
{
	int v;

	memset(out, 0, sizeof(*out));
	for (v = 0; v < VAR_NR; v++) {
		const struct var_def *d = &var_defs[v];

		if (d->src == VS_EVENT) {
			out->v[v] = get_field(e, d->off, d->size);
			out->at_ns[v] = e->ts;
			out->have |= 1u << v;
		} else if (s && (s->have & (1u << v))) {
			out->v[v] = s->v[v];
			out->at_ns[v] = s->read_ns[d->src];
			out->have |= 1u << v;
		}
	}
	/* The pid is known without reading anything. */
	if (!(out->have & (1u << VAR_PID))) {
		out->v[VAR_PID] = pid;
		out->at_ns[VAR_PID] = e->ts;
		out->have |= 1u << VAR_PID;
	}
}

uint32_t vars_changed(const struct var_snap *prev, const struct var_snap *cur)
{
	uint32_t both = prev->have & cur->have, changed = 0;
	int v;

	for (v = 0; v < VAR_NR; v++)
		if ((both & (1u << v)) && prev->v[v] != cur->v[v])
			changed |= 1u << v;
	return changed;
}

void vars_take(enum var_src src, const void *parsed, struct var_sample *out)
{
	int v;

	for (v = 0; v < VAR_NR; v++) {
		const struct var_def *d = &var_defs[v];

		if (d->src != src || d->key)
			continue;
		out->v[v] = get_field(parsed, d->off, d->size);
		/* pid_status says -1 for a line the kernel did not write. */
		if (src == VS_STATUS && out->v[v] < 0)
			continue;
		out->have |= 1u << v;
	}
}

const char *vars_key(enum var_id v)
{
	return var_defs[v].key;
}
