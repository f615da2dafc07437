// SPDX-License-Identifier: GPL-2.0-only
/*
 * clockcheck CLOCK [N]: ktop's mapping of trace clock CLOCK to
 * CLOCK_MONOTONIC (lib/clockmap.c, sampled as the counting collector samples
 * it: instance_clock_now each interval) checked against a reading it does not
 * use: a write to the instance's trace_marker between two clock_gettime
 * calls (as trace-cmd's tsync does), its stamp read back from the ring buffer
 * and mapped. N markers (default 8), 100 ms apart, each mapped after the next
 * sample as ktop maps a tick's events. One line per marker: "bracket_ns
 * err_ns" (mapped - the bracket's middle); exits 1 when one is off by more
 * than half its bracket plus 5 us, 2 when it cannot run. Root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../collectors/clocks.h"
#include "../../collectors/trace/instance.h"
#include "../../lib/clockmap.h"

#define SLACK_NS 5000

static const char *const events[][2] = { { "sched", "sched_process_exec" } };

/* The id of ftrace/print (trace_marker's records), from its format. */
static int print_id(void)
{
	size_t len;
	char *f = instance_read_format("ftrace/print/format", &len), *p;
	int id = -1;

	if (f && (p = strstr(f, "\nID: ")))
		id = atoi(p + 5);
	free(f);
	return id;
}

/* The stamp of the marker @tag in CPU @cpu's pages read now; 0 if none. */
static uint64_t find_marker(struct instance *t, int id, const char *tag, void *page)
{
	uint64_t ts = 0;
	int cpu, n;

	for (cpu = 0; cpu < instance_ncpus(t); cpu++) {
		while ((n = instance_read_page(t, cpu, page, true, NULL)) > 0) {
			const uint8_t *rec;
			struct rbpage p;
			unsigned size;
			long missed;

			if (rbpage_load(&p, page, (size_t)n, &missed))
				break;
			while ((rec = rbpage_next(&p, &size))) {
				uint16_t rid;

				memcpy(&rid, rec, sizeof(rid));
				if (rid == id && memmem(rec, size, tag, strlen(tag)))
					ts = p.ts;
			}
		}
	}
	return ts;
}

static int sample(struct instance *t, struct clockmap *m)
{
	uint64_t raw, lo, hi;
	int in_ns;

	if (instance_clock_now(t, 3, &raw, &lo, &hi, &in_ns))
		return -1;
	return clockmap_sample(m, raw, lo, hi);
}

int main(int argc, char **argv)
{
	struct instance_config cfg = { .events = events, .nevents = 1, .buffer_kb = 1024,
				    .buffer_percent = 50, .name_suffix = "-f" };
	const struct timespec gap = { 0, 100000000 };
	char why[160], tag[32];
	int n = argc > 2 ? atoi(argv[2]) : 8, i, id, fd, bad = 0;
	uint64_t raw, lo, hi;
	struct clockmap m;
	struct instance *t;
	void *page;
	int in_ns;

	if (argc < 2 || n < 1)
		return 2;
	cfg.clock = argv[1];
	if (instance_open(&cfg, &t, why, sizeof(why), NULL, 0)) {
		fprintf(stderr, "clockcheck: %s\n", why);
		return 2;
	}
	id = print_id();
	fd = instance_file_open(t, "trace_marker", O_WRONLY);
	page = malloc((size_t)instance_page_size(t));
	if (id < 0 || fd < 0 || !page ||
	    instance_clock_now(t, 1, &raw, &lo, &hi, &in_ns)) {
		fprintf(stderr, "clockcheck: no ftrace/print id, trace_marker or stats here\n");
		instance_close(t);
		return 2;
	}
	clockmap_init(&m, in_ns ? 1.0 : 0, in_ns ? 500 : 0);
	if (!in_ns) {
		sample(t, &m);
		nanosleep(&gap, NULL);
	}
	sample(t, &m);
	for (i = 0; i < n; i++) {
		uint64_t a, b, ts, mono;
		int64_t err;

		snprintf(tag, sizeof(tag), "kclk-%d-%d", (int)getpid(), i);
		a = clocks_mono_ns();
		if (write(fd, tag, strlen(tag)) < 0)
			break;
		b = clocks_mono_ns();
		nanosleep(&gap, NULL);
		/* The next sample first, then the marker read and mapped: a tick's order. */
		sample(t, &m);
		ts = find_marker(t, id, tag, page);
		if (!ts) {
			fprintf(stderr, "clockcheck: marker %d not read back\n", i);
			bad = 1;
			continue;
		}
		mono = clockmap_mono(&m, ts);
		err = (int64_t)(mono - (a + (b - a) / 2));
		printf("%llu %lld\n", (unsigned long long)(b - a), (long long)err);
		if ((uint64_t)llabs(err) > (b - a) / 2 + SLACK_NS)
			bad = 1;
	}
	close(fd);
	free(page);
	instance_close(t);
	return bad;
}
