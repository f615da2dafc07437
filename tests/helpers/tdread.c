// SPDX-License-Identifier: GPL-2.0-only
/*
 * tdread FILE: a trace.dat read with libtracecmd's read API (the flight
 * recorder's tests: tests/cli/flight.bats), one line per event:
 *
 *   BUFFER CPU TS PID COMM SYSTEM:EVENT DETAIL
 *
 * tab-separated; BUFFER is "top" for the top buffer, else the instance's
 * name; TS the record's time stamp in ns (the trace clock's); COMM the
 * file's command line for PID; DETAIL "id=N ret=N" for raw_syscalls:sys_exit,
 * "prev=PID next=PID" for sched:sched_switch, else "-". Each buffer's ends
 * with "# events BUFFER N"; "# missed BUFFER CPU N" for each page that says
 * events were lost before it. Only the public read API (trace-cmd.h).
 * Exit 1 when the file cannot be opened or read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

struct ctx {
	const char *buf;
	unsigned long long events;
};

static long long field(struct tep_event *ev, struct tep_record *r, const char *name)
{
	unsigned long long v = 0;

	if (tep_get_field_val(NULL, ev, name, r, &v, 0))
		return -1;
	return (long long)v;
}

static int on_event(struct tracecmd_input *h, struct tep_record *r, int cpu, void *arg)
{
	struct ctx *c = arg;
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, r);
	int pid = tep_data_pid(tep, r);
	const char *comm = tep_data_comm_from_pid(tep, pid);
	char detail[128] = "-";

	if (!ev) {
		printf("%s\t%d\t%llu\t%d\t%s\t?\t-\n", c->buf, cpu, r->ts, pid, comm);
		return 0;
	}
	if (r->missed_events)
		printf("# missed %s %d %lld\n", c->buf, cpu, r->missed_events);
	if (!strcmp(ev->system, "raw_syscalls") && !strcmp(ev->name, "sys_exit"))
		snprintf(detail, sizeof(detail), "id=%lld ret=%lld", field(ev, r, "id"),
			 field(ev, r, "ret"));
	else if (!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_switch"))
		snprintf(detail, sizeof(detail), "prev=%lld next=%lld", field(ev, r, "prev_pid"),
			 field(ev, r, "next_pid"));
	printf("%s\t%d\t%llu\t%d\t%s\t%s:%s\t%s\n", c->buf, cpu, r->ts, pid, comm, ev->system,
	       ev->name, detail);
	c->events++;
	return 0;
}

static int dump(struct tracecmd_input *h, const char *name)
{
	struct ctx c = { .buf = name };

	if (tracecmd_iterate_events(h, NULL, 0, on_event, &c) < 0)
		return -1;
	printf("# events %s %llu\n", name, c.events);
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	int i, n, ret = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: tdread FILE\n");
		return 2;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "tdread: cannot open %s as a trace.dat\n", argv[1]);
		return 1;
	}
	if (dump(h, "top"))
		ret = 1;
	n = tracecmd_buffer_instances(h);
	for (i = 0; i < n; i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);

		if (!b) {
			ret = 1;
			continue;
		}
		if (dump(b, tracecmd_buffer_instance_name(h, i)))
			ret = 1;
		tracecmd_close(b);
	}
	tracecmd_close(h);
	return ret;
}
