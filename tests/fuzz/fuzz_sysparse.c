// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the system-wide /proc parsers (stat, meminfo, vmstat,
 * loadavg, uptime; tracefs stats' now ts, debugfs sched/debug) on any bytes, each over an exact-size copy. /proc/stat gets
 * a CPU array smaller than the CPUs an input may name: lines past it must be
 * ignored, never written.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/system/sysparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	struct cpu_times *cpu = malloc(4 * sizeof(*cpu));
	struct sys_stat st = { 0 };
	struct sys_mem mem;
	struct sys_vm vm;
	struct sys_load load;
	uint64_t raw;
	double up;
	int in_ns, r;

	if (!buf || !cpu)
		goto out;
	if (size)
		memcpy(buf, data, size);
	st.cpu = cpu;
	st.ncpu_max = 4;
	if (sysparse_sys_stat(buf, size, &st) == 0 && (st.ncpu < 0 || st.ncpu > st.ncpu_max))
		abort();
	sysparse_meminfo(buf, size, &mem);
	sysparse_vmstat(buf, size, &vm);
	sysparse_loadavg(buf, size, &load);
	sysparse_uptime(buf, size, &up);
	sysparse_trace_now_ts(buf, size, &raw, &in_ns);
	r = sysparse_sched_clock_stable(buf, size);
	if (r != 0 && r != 1 && r != -EINVAL)
		abort();
out:
	free(cpu);
	free(buf);
	return 0;
}
