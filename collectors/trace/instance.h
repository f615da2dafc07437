/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_INSTANCE_H
#define KTOP_INSTANCE_H

/*
 * collectors/trace/instance: ktop's own tracefs instance, "ktop-<pid>", the only place
 * ktop writes in tracefs. Like rtla: created with tracing off, configured,
 * started last, destroyed on every exit path (instance_close). A crash stops
 * tracing from its signal handler (instance_emergency_stop) but leaves the
 * instance; instances left by a ktop that crashed or was killed are removed at
 * the next start; nothing else is touched.
 *
 * Reading: one non-blocking trace_pipe_raw descriptor per CPU, wrapped in a
 * tracefs_cpu and read with splice (tracefs_cpu_buffered_read) in whole
 * sub-buffers; the partly filled last page is read with tracefs_cpu_flush at
 * each tick. The descriptors are poll()ed by the main loop: the kernel wakes it
 * when a buffer is buffer_percent full.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

struct pollfd;

struct flight;
struct instance;

struct instance_config {
	const char *const (*events)[2];	/* {system, event} pairs to enable */
	size_t nevents;
	size_t buffer_kb;	/* per CPU; 0 = chosen from memory and CPU count */
	/*
	 * The buffers mkdir made, neither resized nor re-paged: nothing read
	 * from them is ever shown (ktop -b -n 1 writes its baseline only).
	 */
	bool keep_buffer;
	unsigned buffer_percent;
	const pid_t *pids;	/* non-NULL: only these (and, with follow, children) */
	size_t npids;
	bool follow_forks;
	/*
	 * NULL: ktop's main instance "ktop-<pid>-<start>" (<start>: ktop's start
	 * time in clock ticks since boot, /proc/PID/stat field 22). A suffix
	 * names a second one, "ktop-<pid>-<start><suffix>" (the focus view's
	 * "-f"): removed as stale like the main one once its maker is gone.
	 */
	const char *name_suffix;
	const char *clock;	/* trace_clock to select (e.g. "mono"); NULL = default */
	struct flight *flight;	/* non-NULL: every page read is kept there too (flight.h) */
};

/*
 * instance_parse_name - read an instance name of ktop's
 * Returns 0 for ktop-PID-START[-f], 1 for an older ktop's ktop-PID[-f] (@start
 * 0), -1 for a name that is not ktop's.
 */
int instance_parse_name(const char *name, pid_t *pid, uint64_t *start, bool *focus);

/*
 * instance_maker_alive - may the ktop that made an instance still run?
 * @format: instance_parse_name's result; @exists: a process has the pid now,
 * started at @now_start. Boot-relative times only: no clock step fools it.
 */
bool instance_maker_alive(int format, uint64_t start, bool exists, uint64_t now_start);

/*
 * instance_open - create, configure and start ktop's instance
 * @why: on failure, a one-line reason for the header ("needs root ...")
 *
 * Events that this kernel lacks are skipped and named in @missing (may be "").
 * Returns 0 or -errno; on failure nothing is left behind.
 */
int instance_open(const struct instance_config *cfg, struct instance **out, char *why, size_t whylen,
	       char *missing, size_t missinglen);
/* Stop tracing, close every descriptor and remove the instance. NULL is fine. */
void instance_close(struct instance *t);
/*
 * From a crash's signal handler: stop tracing, async-signal-safe calls only. The
 * instance stays (see instance.c) for the next ktop to remove.
 */
void instance_emergency_stop(void);
/*
 * instance_emergency_stop, then the instances removed: async-signal-safe, for a
 * caller that has closed every descriptor of the process (no splice pipe may
 * hold their pages; see instance_emergency_stop).
 */
void instance_emergency_remove(void);

/* The text of a file under events/ (header_page, SYS/EVENT/format); malloc'ed. */
char *instance_read_format(const char *rel, size_t *len);
/* Was the event enabled (present on this kernel)? */
bool instance_event_on(const struct instance *t, size_t i);
/* Disable event @i (@sys:@ev) again: ktop cannot decode it (its format is unreadable). */
void instance_event_off(struct instance *t, size_t i, const char *sys, const char *ev);

int instance_ncpus(const struct instance *t);
/* The descriptor to poll for CPU @i (readable: the buffer is partly full). */
int instance_cpu_fd(const struct instance *t, int i);
/* Fill @pfd with the CPUs' descriptors (POLLIN); returns how many, at most @max. */
size_t instance_pollfds(const struct instance *t, struct pollfd *pfd, size_t max);
int instance_page_size(const struct instance *t);
/*
 * Read the next sub-buffer of CPU @i into @page (instance_page_size bytes).
 * @flush: also the partly filled page the writer is on (at a tick).
 * @partial: if not NULL, set when the page read is that one (no whole
 * sub-buffer was left before it).
 * Returns its size, 0 when there is nothing more now, or -errno.
 */
int instance_read_page(struct instance *t, int i, void *page, bool flush, bool *partial);
/*
 * instance_clock_now - the trace clock read now, between two CLOCK_MONOTONIC reads
 * @tries: reads taken; the one read fastest is kept (the tightest bracket)
 * @raw: its "now ts" (per_cpu stats: the clock read on ktop's CPU), in ns
 *       (rounded to us) for clocks in ns, else the clock's count (@in_ns 0)
 * @lo, @hi: CLOCK_MONOTONIC just before and after it
 *
 * Returns 0, or -errno when no stats file could be read.
 */
int instance_clock_now(struct instance *t, unsigned tries, uint64_t *raw, uint64_t *lo, uint64_t *hi,
		    int *in_ns);
/* Open the instance's file @file (e.g. trace_marker) with @flags: a descriptor, or -errno. */
int instance_file_open(const struct instance *t, const char *file, int flags);
/* Select trace_clock @clock (the kernel empties the buffers). Returns 0 or -errno. */
int instance_set_clock(struct instance *t, const char *clock);
/* Events the kernel dropped or overwrote, all CPUs, since the start. */
uint64_t instance_lost(struct instance *t);
size_t instance_buffer_kb(const struct instance *t);

/*
 * The records of one sub-buffer read from the instance (instance_read_page),
 * walked by the rules of the kernel's own reader (kernel/trace/ring_buffer.c:
 * rb_event_length, rb_update_read_stamp). Both decoders (evdecode: counting;
 * evrich: the focus view's full events) walk pages with it. By hand rather
 * than with kbuffer: twice the records per CPU second in a syscall flood, and
 * bounded by the page at every step (pages come from the kernel, but the walk
 * trusts nothing).
 *
 * A sub-buffer: a u64 time stamp, the commit word (bytes of records; its top
 * bits say events were missed before this page, and whether their count is
 * stored after the records), then records. Each record starts with a u32:
 * type_len in the low 5 bits, a time delta in the other 27. The walk assumes
 * a 64-bit little-endian host reading its own kernel's buffers
 * (rbpage_host_ok).
 */

#define RBPAGE_HDR_SIZE 16

/* The fields every record starts with (include/linux/trace_events.h). */
#define RB_COMMON_FLAGS_OFF 2
#define RB_COMMON_PID_OFF 4
#define RB_COMMON_SIZE 8
/* common_flags bits of interrupt context: hardirq, softirq, NMI. */
#define RB_FLAG_IRQ_CONTEXT (0x08 | 0x10 | 0x40)

struct rbpage {
	const uint8_t *data;	/* the records */
	unsigned len, off;	/* bytes of records; the next one's offset */
	uint64_t ts;		/* the time of the record last returned */
	uint64_t malformed;	/* records cut short or too short, on this page */
};

/* Can this host read its kernel's pages the way rbpage does? */
bool rbpage_host_ok(void);

/*
 * rbpage_load - start on the sub-buffer @sub of @size bytes
 * @missed: set to the events the kernel lost before this page: 0, a count,
 *          or -1 when it lost some but did not say how many
 *
 * Returns 0, or -EINVAL when the header does not fit @size.
 */
int rbpage_load(struct rbpage *p, const void *sub, size_t size, long *missed);

/* What rbpage_next does with anything but a plain data record. */
bool rbpage_skip(struct rbpage *p, uint32_t hdr);

/*
 * rbpage_next - the next data record, or NULL at the end of the page
 * @size: set to the record's payload bytes (at least RB_COMMON_SIZE)
 *
 * p->ts is the record's time. Inline: it runs once per event.
 */
static inline const uint8_t *rbpage_next(struct rbpage *p, unsigned *size)
{
	for (;;) {
		uint32_t hdr, type, arr, n;
		const uint8_t *rec;

		if (p->len - p->off < 4)
			return NULL;
		memcpy(&hdr, p->data + p->off, 4);
		type = hdr & 0x1f;
		if (type > 28) {	/* padding, time extend, absolute time stamp */
			if (!rbpage_skip(p, hdr))
				return NULL;
			continue;
		}
		if (type) {		/* 1..28: the payload is type_len words */
			rec = p->data + p->off + 4;
			n = type * 4;
		} else {		/* a long record: the next word has its length */
			if (p->len - p->off < 8)
				return NULL;
			memcpy(&arr, p->data + p->off + 4, 4);
			rec = p->data + p->off + 8;
			n = arr - 4;	/* arr counts itself */
			if (arr < 4)
				n = p->len;	/* refused below */
		}
		if (n > p->len - (unsigned)(rec - p->data)) {
			p->malformed++;
			p->off = p->len;
			return NULL;
		}
		p->off = (unsigned)(rec - p->data) + n;
		p->ts += hdr >> 5;
		if (n < RB_COMMON_SIZE) {
			p->malformed++;
			continue;
		}
		*size = n;
		return rec;
	}
}

#endif
