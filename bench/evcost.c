// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/evcost.c - the counting path's user-space work per event, on pages
 * recorded from the kernel (bench/evcost.sh records them and runs this under
 * callgrind, whose instruction count does not depend on the machine's load).
 *
 *   evcost DIR TICKS [latency]
 *
 * BENCH_EC_DRAIN (26) pages of a CPU are decoded before the next CPU's, as
 * ktop's reader drains a CPU whose 128-sub-buffer ring is a fifth full
 * (collectors/trace/counting.c WAKE_PERCENT): the state split's records then come
 * in as many runs as they do live; 0 decodes each CPU's tick at once.
 *
 * DIR holds header_page, one format file per event kind (SYSTEM:EVENT, the
 * text of events/SYSTEM/EVENT/format) and cpuN.raw, the sub-buffers read
 * from per_cpu/cpuN/trace_pipe_raw, each a whole 64 KiB sub-buffer. The pages are
 * cut into TICKS intervals; each is decoded as above and closed as
 * collectors/trace/counting.c closes a tick (lifecycle order, call timing with
 * "latency", the state split up to the tick's cut, the interval's end).
 * All of that runs in measured_tick() and measured_end(), which callgrind is
 * told to count (--toggle-collect="measured*"). Prints: events=<decoded>
 * pages=<n> threads=<n> malformed=<n> digest=<the counts' hash, see add_digest>
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collectors/trace/evdecode.h"
#include "../collectors/trace/evsums.h"
#include "../collectors/trace/instance.h"

#define MAX_CPUS 64
/* The sub-buffer size bench/evcost.sh records with (ktop's, collectors/trace/instance.c). */
#define SUBBUF (64 * 1024)

struct cpu_pages {
	uint8_t *data;
	size_t len;
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap + 1);
	while (buf) {
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (n < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap + 1);
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

static uint64_t newest;	/* the latest record time decoded: the tick's cut */
static uint64_t oldest = UINT64_MAX;	/* the first page's time */

static uint64_t page_last_ts(const uint8_t *page, size_t size)
{
	struct rbpage p;
	unsigned n;
	long missed;

	if (rbpage_load(&p, page, size, &missed))
		return 0;
	while (rbpage_next(&p, &n))
		;
	return p.ts;
}

/*
 * Every task that wrote a record is known to run native code, as ktop knows
 * it after its first tick (resolve_abi in counting.c reads /proc/PID/exe):
 * the steady state, not a start-up in which every thread is looked at.
 */
static void known_abi(struct evsums *a, const struct cpu_pages *cpu, int ncpus)
{
	struct rbpage p;
	const uint8_t *rec;
	unsigned n;
	long missed;
	size_t i;
	int c;

	for (c = 0; c < ncpus; c++) {
		for (i = 0; i + SUBBUF <= cpu[c].len; i += SUBBUF) {
			if (rbpage_load(&p, cpu[c].data + i, SUBBUF, &missed))
				continue;
			while ((rec = rbpage_next(&p, &n))) {
				int32_t pid;

				memcpy(&pid, rec + RB_COMMON_PID_OFF, sizeof(pid));
				if (pid > 0)
					evsums_set_abi(a, evsums_thread(a, pid), false);
			}
		}
	}
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/*
 * What the interval's threads add up to, order-free (a sum of one hash per
 * thread and per syscall entry): two builds given the same pages must print
 * the same digest, or an optimisation changed a count. Not measured.
 */
static uint64_t digest;

static void add_digest(const struct evsums *a)
{
	const struct evsums_thread *t;
	uint32_t i;
	int c;

	for (t = evsums_first_active(a); t; t = t->next) {
		uint64_t h = mix(0, (uint64_t)t->tid);

		for (c = 0; c < CNT_NR; c++)
			h = mix(h, t->n[c]);
		digest += h;
		for (i = 0; i < t->sc.cap; i++) {
			const struct sc_stat *e = &t->sc.slots[i];

			if (e->nr == SC_EMPTY)
				continue;
			digest += mix(mix(mix(mix(mix(mix(mix(1, (uint64_t)t->tid), e->nr), e->calls),
						  e->errors), e->time_ns), e->timed), e->max_ns);
		}
		for (i = 0; i < t->err.cap; i++)
			if (t->err.slots[i].nr != SC_EMPTY)
				digest += mix(mix(mix(2, (uint64_t)t->tid), t->err.slots[i].nr),
					      t->err.slots[i].errors);
	}
}

/*
 * The tick's cut: before it, every CPU's records are in the tick's pages (the
 * oldest time of the pages that follow them; past the last page, all of it),
 * as a live tick's cut is a time before which every CPU was read.
 */
static uint64_t tick_cut(const struct cpu_pages *cpu, int ncpus, const size_t *to)
{
	uint64_t cut = newest + 1, first;
	int c;

	for (c = 0; c < ncpus; c++) {
		if ((to[c] + 1) * SUBBUF > cpu[c].len)
			continue;
		memcpy(&first, cpu[c].data + to[c] * SUBBUF, sizeof(first));
		if (first && first < cut)
			cut = first;
	}
	return cut;
}

/* What callgrind counts (--toggle-collect="measured*"): decoding a tick's pages, closing it. */
static __attribute__((noinline)) void measured_tick(struct evdecode *d, struct evsums *a,
						   struct cpu_pages *cpu, int ncpus, int t, int ticks,
						   size_t drain)
{
	size_t at[MAX_CPUS], to[MAX_CPUS];
	bool more = true;
	int c;

	for (c = 0; c < ncpus; c++) {
		size_t npages = cpu[c].len / SUBBUF;

		at[c] = npages * (size_t)t / (size_t)ticks;
		to[c] = npages * (size_t)(t + 1) / (size_t)ticks;
	}
	/*
	 * Each CPU in turn, drain pages at a time, as ktop's reader takes them
	 * (a whole drain's worth is a drain: the state split's records every
	 * CPU was read past are applied; what is left is the tick's read).
	 */
	while (more) {
		more = false;
		for (c = 0; c < ncpus; c++) {
			size_t end = to[c] - at[c] > drain ? at[c] + drain : to[c];
			bool whole = end - at[c] == drain;

			evsums_set_cpu(a, c);
			for (; at[c] < end; at[c]++)
				evdecode_page(d, cpu[c].data + at[c] * SUBBUF, SUBBUF, a);
			/* The mapping is exact: no slack. */
			if (whole)
				evsums_state_drained(a, 0);
			more |= at[c] < to[c];
		}
	}
	evsums_order_life(a);
	if (a->order_times)
		evsums_time_calls(a);
	evsums_state_end(a, tick_cut(cpu, ncpus, to));
}

static __attribute__((noinline)) void measured_end(struct evsums *a)
{
	evsums_end_interval(a);
}

int main(int argc, char **argv)
{
	static const enum ev_kind kinds[] = {
		EV_SYS_EXIT, EV_EXIT, EV_EXIT_GROUP, EV_SWITCH, EV_NEWTASK, EV_EXEC, EV_PEXIT,
		EV_SIGNAL, EV_CGATTACH, EV_RENAME, EV_WAKEUP, EV_WAKEUP_NEW, EV_SYS_ENTER,
	};
	struct cpu_pages cpu[MAX_CPUS];
	struct evdecode dec;
	struct clockmap cmap;
	struct evsums a;
	char path[4096];
	size_t len, i, nkinds = sizeof(kinds) / sizeof(kinds[0]);
	char *text;
	int ncpus = 0, ticks, latency, c;
	const char *dr = getenv("BENCH_EC_DRAIN");
	size_t drain = dr && *dr ? strtoul(dr, NULL, 10) : 26;

	if (argc < 3 || (ticks = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: evcost DIR TICKS [latency]\n");
		return 2;
	}
	latency = argc > 3 && !strcmp(argv[3], "latency");
	if (!drain)
		drain = SIZE_MAX;
	snprintf(path, sizeof(path), "%s/header_page", argv[1]);
	text = slurp(path, &len);
	if (!text || evdecode_init(&dec, text, len)) {
		fprintf(stderr, "evcost: cannot use %s\n", path);
		return 1;
	}
	free(text);
	if (!latency)
		nkinds--;	/* sys_enter: --latency only */
	for (i = 0; i < nkinds; i++) {
		snprintf(path, sizeof(path), "%s/%s:%s", argv[1], ev_system(kinds[i]), ev_name(kinds[i]));
		text = slurp(path, &len);
		if (!text || evdecode_add(&dec, kinds[i], text, len)) {
			fprintf(stderr, "evcost: cannot use %s\n", path);
			return 1;
		}
		free(text);
	}
	for (c = 0; c < MAX_CPUS; c++) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", argv[1], c);
		cpu[ncpus].data = (uint8_t *)slurp(path, &cpu[ncpus].len);
		if (!cpu[ncpus].data)
			break;
		for (i = 0; i + SUBBUF <= cpu[ncpus].len; i += SUBBUF) {
			uint64_t ts = page_last_ts(cpu[ncpus].data + i, SUBBUF);

			uint64_t first;

			memcpy(&first, cpu[ncpus].data + i, sizeof(first));
			if (ts > newest)
				newest = ts;
			if (first && first < oldest)
				oldest = first;
		}
		ncpus++;
	}
	/*
	 * Pages of a clock other than mono are mapped as ktop maps them
	 * (lib/clockmap.h): two samples, the stamps between them on the older
	 * segment (one step back, as a tick's events are). Exact samples with
	 * slope 1 map every stamp to itself: the digest is mono's.
	 */
	snprintf(path, sizeof(path), "%s/trace_clock", argv[1]);
	text = slurp(path, &len);
	if (text && strncmp(text, "mono", 4) && ncpus && oldest < newest) {
		clockmap_init(&cmap, 1.0, 0);
		clockmap_sample(&cmap, oldest - 1, oldest - 1, oldest - 1);
		clockmap_sample(&cmap, newest + 1, newest + 1, newest + 1);
		dec.cmap = &cmap;
	}
	free(text);
	evsums_init(&a);
	a.order_life = true;
	a.states = true;
	a.order_times = latency;
	evsums_state_cpus(&a, ncpus);
	known_abi(&a, cpu, ncpus);
	for (c = 0; c < ticks; c++) {
		measured_tick(&dec, &a, cpu, ncpus, c, ticks, drain);
		add_digest(&a);
		measured_end(&a);
	}
	len = 0;
	for (c = 0; c < ncpus; c++)
		len += cpu[c].len / SUBBUF;
	printf("events=%llu pages=%zu threads=%zu malformed=%llu digest=%016llx\n",
	       (unsigned long long)dec.events, len, a.threads.n, (unsigned long long)dec.malformed,
	       (unsigned long long)digest);
	evsums_free(&a);
	evdecode_free(&dec);
	for (c = 0; c < ncpus; c++)
		free(cpu[c].data);
	return 0;
}
