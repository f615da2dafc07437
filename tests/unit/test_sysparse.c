// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of collectors/system/sysparse.c: /proc/stat, meminfo, vmstat, loadavg and
 * uptime parsers. Buffers are exactly-sized heap copies with no NUL terminator,
 * so AddressSanitizer catches any read past the length.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/system/sysparse.h"
#include "../../lib/util.h"
#include "test.h"

#define NCPU_MAX 8

/* An exactly-sized copy of @s (@len bytes); free it. */
static char *dup_exact(const char *s, size_t len)
{
	char *b = malloc(len);

	/* malloc(0) is not NULL with glibc or ASan: a buffer with no byte to read. */
	if (!b)
		abort();
	memcpy(b, s, len);
	return b;
}

static int stat_exact(const char *s, size_t len, struct sys_stat *st)
{
	char *b = dup_exact(s, len);
	int r = sysparse_sys_stat(b, len, st);

	free(b);
	return r;
}

static int meminfo_exact(const char *s, size_t len, struct sys_mem *m)
{
	char *b = dup_exact(s, len);
	int r = sysparse_meminfo(b, len, m);

	free(b);
	return r;
}

static int vmstat_exact(const char *s, size_t len, struct sys_vm *v)
{
	char *b = dup_exact(s, len);
	int r = sysparse_vmstat(b, len, v);

	free(b);
	return r;
}

static int loadavg_exact(const char *s, size_t len, struct sys_load *l)
{
	char *b = dup_exact(s, len);
	int r = sysparse_loadavg(b, len, l);

	free(b);
	return r;
}

static int uptime_exact(const char *s, size_t len, double *up)
{
	char *b = dup_exact(s, len);
	int r = sysparse_uptime(b, len, up);

	free(b);
	return r;
}

/* A sys_stat over @cpus whose entries are all marked present (stale values). */
static void stat_init(struct sys_stat *st, struct cpu_times *cpus, int n)
{
	int i;

	memset(st, 0, sizeof(*st));
	memset(cpus, 0, (size_t)n * sizeof(*cpus));
	for (i = 0; i < n; i++) {
		cpus[i].present = 1;
		cpus[i].user = 999999;
	}
	st->cpu = cpus;
	st->ncpu_max = n;
	st->ctxt = st->intr = st->forks = 77;
}

/* /proc/stat as this machine writes it (2 CPUs, intr line shortened). */
static const char stat_real[] =
	"cpu  1279 0 956 69298 282 0 22 8 0 0\n"
	"cpu0 350 0 324 35232 5 0 6 1 0 0\n"
	"cpu1 928 3 631 34065 277 2 16 6 0 0\n"
	"intr 99107 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 13 0 0 0 0 71 25\n"
	"ctxt 219950\n"
	"btime 1795346769\n"
	"processes 3128\n"
	"procs_running 2\n"
	"procs_blocked 1\n"
	"softirq 64937 0 7100 4 616 28444 0 2 16160 0 12611\n";

static void test_stat_real(void)
{
	struct cpu_times cpus[NCPU_MAX];
	struct sys_stat st;
	int i;

	stat_init(&st, cpus, NCPU_MAX);
	CHECK_EQ_I64(stat_exact(stat_real, sizeof(stat_real) - 1, &st), 0);
	CHECK_EQ_U64(st.total.user, 1279);
	CHECK_EQ_U64(st.total.nice, 0);
	CHECK_EQ_U64(st.total.system, 956);
	CHECK_EQ_U64(st.total.idle, 69298);
	CHECK_EQ_U64(st.total.iowait, 282);
	CHECK_EQ_U64(st.total.irq, 0);
	CHECK_EQ_U64(st.total.softirq, 22);
	CHECK_EQ_U64(st.total.steal, 8);
	CHECK(st.total.present);
	CHECK_EQ_I64(st.ncpu, 2);
	CHECK(cpus[0].present);
	CHECK_EQ_U64(cpus[0].user, 350);
	CHECK_EQ_U64(cpus[0].system, 324);
	CHECK_EQ_U64(cpus[0].idle, 35232);
	CHECK_EQ_U64(cpus[0].steal, 1);
	CHECK(cpus[1].present);
	CHECK_EQ_U64(cpus[1].user, 928);
	CHECK_EQ_U64(cpus[1].nice, 3);
	CHECK_EQ_U64(cpus[1].system, 631);
	CHECK_EQ_U64(cpus[1].idle, 34065);
	CHECK_EQ_U64(cpus[1].iowait, 277);
	CHECK_EQ_U64(cpus[1].irq, 2);
	CHECK_EQ_U64(cpus[1].softirq, 16);
	CHECK_EQ_U64(cpus[1].steal, 6);
	for (i = 2; i < NCPU_MAX; i++)
		CHECK(!cpus[i].present);
	CHECK_EQ_U64(st.intr, 99107);
	CHECK_EQ_U64(st.ctxt, 219950);
	CHECK_EQ_U64(st.forks, 3128);
	CHECK_EQ_U64(st.procs_running, 2);
	CHECK_EQ_U64(st.procs_blocked, 1);
}

/* CPU 1 offline: its line is missing, ncpu still counts up to the highest. */
static void test_stat_offline_gap(void)
{
	static const char buf[] =
		"cpu  10 0 10 100 0 0 0 0 0 0\n"
		"cpu0 5 0 5 50 0 0 0 0 0 0\n"
		"cpu2 5 0 5 50 0 0 0 0 0 0\n"
		"ctxt 5\n";
	struct cpu_times cpus[NCPU_MAX];
	struct sys_stat st;

	stat_init(&st, cpus, NCPU_MAX);
	CHECK_EQ_I64(stat_exact(buf, sizeof(buf) - 1, &st), 0);
	CHECK_EQ_I64(st.ncpu, 3);
	CHECK(cpus[0].present);
	CHECK(!cpus[1].present);
	CHECK(cpus[2].present);
	CHECK(!cpus[3].present);
	CHECK_EQ_U64(cpus[2].idle, 50);
	CHECK_EQ_U64(st.ctxt, 5);
	/* Lines that are absent read as 0, not as the stale values. */
	CHECK_EQ_U64(st.intr, 0);
	CHECK_EQ_U64(st.forks, 0);

	/* Next sample: CPU 2 went offline too; its old present flag is cleared. */
	CHECK_EQ_I64(stat_exact(buf, strlen("cpu  10 0 10 100 0 0 0 0 0 0\ncpu0 5 0 5 50 0 0 0 0 0 0\n"),
				&st), 0);
	CHECK_EQ_I64(st.ncpu, 1);
	CHECK(cpus[0].present);
	CHECK(!cpus[2].present);
}

/* CPU numbers at or past the array size are ignored, never written. */
static void test_stat_cpu_beyond_max(void)
{
	static const char buf[] =
		"cpu  10 0 10 100\n"
		"cpu0 1 2 3 4\n"
		"cpu3 1 2 3 4\n"
		"cpu4 1 2 3 4\n"
		"cpu99999999999 1 2 3 4\n"
		"cpu18446744073709551617 1 2 3 4\n";
	struct cpu_times cpus[5];
	struct sys_stat st;

	stat_init(&st, cpus, 4);
	memset(&cpus[4], 0, sizeof(cpus[4]));
	cpus[4].present = 42;	/* a canary past ncpu_max */
	cpus[4].user = 999999;
	CHECK_EQ_I64(stat_exact(buf, sizeof(buf) - 1, &st), 0);
	CHECK_EQ_I64(st.ncpu, 4);
	CHECK(cpus[3].present);
	CHECK_EQ_I64(cpus[4].present, 42);
	CHECK_EQ_U64(cpus[4].user, 999999);
	/* Old kernels' four-field lines: the later fields read as 0. */
	CHECK_EQ_U64(st.total.user, 10);
	CHECK_EQ_U64(st.total.idle, 100);
	CHECK_EQ_U64(st.total.iowait, 0);
	CHECK_EQ_U64(st.total.steal, 0);
	CHECK_EQ_U64(cpus[0].idle, 4);
}

static void test_stat_invalid(void)
{
	static const char *const bad[] = {
		"",
		"\n",
		"garbage\n",
		"cpu0 1 2 3 4\nctxt 5\n",	/* no total line */
		"cpu  1 2 3\n",		/* too few fields */
		"cpu  \n",
		"cpu x y z w\n",
		"cpux 1 2 3 4\n",
		"ctxt 1\nintr 2\nprocesses 3\n",
		"\0\0\0\0\0\0\0\0",
	};
	struct cpu_times cpus[NCPU_MAX];
	struct sys_stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		size_t len = bad[i][0] ? strlen(bad[i]) : (i == ARRAY_SIZE(bad) - 1 ? 8 : 0);

		stat_init(&st, cpus, NCPU_MAX);
		if (!CHECK_EQ_I64(stat_exact(bad[i], len, &st), -EINVAL))
			printf("#   input #%zu\n", i);
		CHECK(st.ncpu >= 0 && st.ncpu <= NCPU_MAX);
	}
}

/*
 * Cut at every length: no crash or overread; -EINVAL until the total line has
 * its four required numbers; the full total once its line is complete, and the
 * per-cpu and counter lines once they are.
 */
static void test_stat_truncated(void)
{
	size_t n = sizeof(stat_real) - 1, len;
	size_t total_min = strlen("cpu  1279 0 956 6");	/* 4th number started */
	size_t total_end = strlen("cpu  1279 0 956 69298 282 0 22 8 0 0\n");
	size_t ctxt_end = (size_t)(strstr(stat_real, "ctxt 219950\n") - stat_real) +
			  strlen("ctxt 219950\n");

	for (len = 0; len <= n; len++) {
		struct cpu_times cpus[NCPU_MAX];
		struct sys_stat st;
		int r;

		stat_init(&st, cpus, NCPU_MAX);
		r = stat_exact(stat_real, len, &st);
		CHECK(st.ncpu >= 0 && st.ncpu <= 2);
		if (len < total_min) {
			CHECK_EQ_I64(r, -EINVAL);
			continue;
		}
		CHECK_EQ_I64(r, 0);
		if (len >= total_end) {
			CHECK_EQ_U64(st.total.user, 1279);
			CHECK_EQ_U64(st.total.steal, 8);
		}
		if (len >= ctxt_end) {
			CHECK_EQ_I64(st.ncpu, 2);
			CHECK_EQ_U64(cpus[1].steal, 6);
			CHECK_EQ_U64(st.ctxt, 219950);
		}
	}
}

/* /proc/meminfo as this machine writes it, with some lines changed. */
static const char meminfo_real[] =
	"MemTotal:       24684084 kB\n"
	"MemFree:        24531936 kB\n"
	"MemAvailable:   24442392 kB\n"
	"Buffers:             428 kB\n"
	"Cached:            27152 kB\n"
	"SwapCached:          999 kB\n"
	"Active:             8476 kB\n"
	"Inactive:          14732 kB\n"
	"Active(file):       6964 kB\n"
	"SwapTotal:       2097148 kB\n"
	"SwapFree:        2000000 kB\n"
	"Dirty:               104 kB\n"
	"Shmem:              8872 kB\n"
	"KReclaimable:      45208 kB\n"
	"Slab:              66248 kB\n"
	"SReclaimable:      45200 kB\n"
	"SUnreclaim:        21040 kB\n"
	"HugePages_Total:       0\n"
	"Hugepagesize:       2048 kB\n";

static void test_meminfo_real(void)
{
	struct sys_mem m;

	CHECK_EQ_I64(meminfo_exact(meminfo_real, sizeof(meminfo_real) - 1, &m), 0);
	CHECK_EQ_U64(m.total, 24684084);
	CHECK_EQ_U64(m.free, 24531936);
	CHECK_EQ_U64(m.available, 24442392);
	CHECK(m.has_available);
	CHECK_EQ_U64(m.buffers, 428);
	CHECK_EQ_U64(m.cached, 27152);	/* not SwapCached */
	CHECK_EQ_U64(m.sreclaimable, 45200);	/* not KReclaimable */
	CHECK_EQ_U64(m.shmem, 8872);
	CHECK_EQ_U64(m.swap_total, 2097148);
	CHECK_EQ_U64(m.swap_free, 2000000);
}

/* Kernels before 3.14 have no MemAvailable: estimated as free + buffers + cache. */
static void test_meminfo_no_available(void)
{
	static const char buf[] =
		"MemTotal:        1000000 kB\n"
		"MemFree:          300000 kB\n"
		"Buffers:           20000 kB\n"
		"Cached:           100000 kB\n"
		"SwapCached:            0 kB\n"
		"SwapTotal:             0 kB\n"
		"SwapFree:              0 kB\n";
	struct sys_mem m;

	CHECK_EQ_I64(meminfo_exact(buf, sizeof(buf) - 1, &m), 0);
	CHECK(!m.has_available);
	CHECK_EQ_U64(m.total, 1000000);
	CHECK_EQ_U64(m.available, 420000);
}

static void test_meminfo_invalid(void)
{
	static const char *const bad[] = {
		"",
		"\n",
		"garbage",
		"MemFree: 5 kB\n",		/* no MemTotal */
		"MemTotal: 0 kB\nMemFree: 0 kB\n",
		"MemTotal: kB\n",
		"MemTotal 5 kB\n",
		"memtotal: 5 kB\n",
	};
	struct sys_mem m;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!CHECK_EQ_I64(meminfo_exact(bad[i], strlen(bad[i]), &m), -EINVAL))
			printf("#   input #%zu\n", i);
}

static void test_meminfo_truncated(void)
{
	size_t n = sizeof(meminfo_real) - 1, len;
	size_t first = strlen("MemTotal:       2");
	size_t all = (size_t)(strstr(meminfo_real, "SwapFree:") - meminfo_real) +
		     strlen("SwapFree:        2000000 ");

	for (len = 0; len <= n; len++) {
		struct sys_mem m;
		int r = meminfo_exact(meminfo_real, len, &m);

		CHECK_EQ_I64(r, len < first ? -EINVAL : 0);
		if (len >= all) {
			CHECK_EQ_U64(m.total, 24684084);
			CHECK_EQ_U64(m.available, 24442392);
			CHECK_EQ_U64(m.swap_free, 2000000);
		}
	}
}

static const char vmstat_real[] =
	"nr_free_pages 1066411\n"
	"pgpgin 123456\n"
	"pgpgout 654321\n"
	"pswpin 11\n"
	"pswpout 22\n"
	"pgalloc_normal 999\n"
	"pgfault 870638\n"
	"pgmajfault 3225\n"
	"pgmajfault_s 5\n"
	"pgfault_x 6\n"
	"workingset_refault_file 32069\n";

static void test_vmstat(void)
{
	static const char partial[] = "nr_free_pages 5\npgfault 7\n";
	struct sys_vm v;

	CHECK_EQ_I64(vmstat_exact(vmstat_real, sizeof(vmstat_real) - 1, &v), 0);
	CHECK_EQ_U64(v.pgfault, 870638);
	CHECK_EQ_U64(v.pgmajfault, 3225);
	CHECK_EQ_U64(v.pswpin, 11);
	CHECK_EQ_U64(v.pswpout, 22);
	CHECK_EQ_U64(v.pgpgin, 123456);
	CHECK_EQ_U64(v.pgpgout, 654321);

	CHECK_EQ_I64(vmstat_exact(partial, sizeof(partial) - 1, &v), 0);
	CHECK_EQ_U64(v.pgfault, 7);
	CHECK_EQ_U64(v.pgmajfault, 0);
	CHECK_EQ_U64(v.pswpout, 0);
}

static void test_vmstat_invalid(void)
{
	static const char *const bad[] = { "", "\n", "garbage", "nr_free_pages 5\n",
					   "pgfault\n", "pgfault x\n", "PGFAULT 5\n" };
	struct sys_vm v;
	size_t i, len, n = sizeof(vmstat_real) - 1;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!CHECK_EQ_I64(vmstat_exact(bad[i], strlen(bad[i]), &v), -EINVAL))
			printf("#   input #%zu\n", i);
	/* Cut at every length: no crash or overread. */
	for (len = 0; len <= n; len++) {
		int r = vmstat_exact(vmstat_real, len, &v);

		CHECK_EQ_I64(r, len < strlen("nr_free_pages 1066411\npgpgin 1") ? -EINVAL : 0);
	}
}

static void test_loadavg(void)
{
	static const char real[] = "0.08 0.03 0.01 1/79 12345\n";
	static const char busy[] = "123.45 67.00 8.5 17/2048 99\n";
	static const char no_nl[] = "1 2 3 4/5";
	struct sys_load l;

	CHECK_EQ_I64(loadavg_exact(real, sizeof(real) - 1, &l), 0);
	CHECK_NEAR(l.avg[0], 0.08, 1e-9);
	CHECK_NEAR(l.avg[1], 0.03, 1e-9);
	CHECK_NEAR(l.avg[2], 0.01, 1e-9);
	CHECK_EQ_U64(l.running, 1);
	CHECK_EQ_U64(l.threads, 79);
	CHECK_EQ_I64(loadavg_exact(busy, sizeof(busy) - 1, &l), 0);
	CHECK_NEAR(l.avg[0], 123.45, 1e-9);
	CHECK_NEAR(l.avg[1], 67.0, 1e-9);
	CHECK_NEAR(l.avg[2], 8.5, 1e-9);
	CHECK_EQ_U64(l.running, 17);
	CHECK_EQ_U64(l.threads, 2048);
	CHECK_EQ_I64(loadavg_exact(no_nl, sizeof(no_nl) - 1, &l), 0);
	CHECK_NEAR(l.avg[2], 3.0, 1e-9);
	CHECK_EQ_U64(l.running, 4);
	CHECK_EQ_U64(l.threads, 5);
}

static void test_loadavg_invalid(void)
{
	static const char *const bad[] = {
		"", "\n", "garbage", "0.08 0.03 0.01", "0.08 0.03 0.01\n", "0.08 0.03 0.01 1",
		"0.08 0.03 0.01 1 79", "0.08 0.03 0.01 1/", "0.08 0.03 0.01 1/x",
		"-1 0.03 0.01 1/79 5", "0.08 x 0.01 1/79 5", ". . . 1/2 3",
	};
	static const char real[] = "0.08 0.03 0.01 1/79 12345\n";
	struct sys_load l;
	size_t i, len, slash = strlen("0.08 0.03 0.01 1/");

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!CHECK_EQ_I64(loadavg_exact(bad[i], strlen(bad[i]), &l), -EINVAL))
			printf("#   input #%zu\n", i);
	/* Cut at every length: no crash; -EINVAL until the thread count starts. */
	for (len = 0; len < sizeof(real); len++) {
		int r = loadavg_exact(real, len, &l);

		CHECK_EQ_I64(r, len <= slash ? -EINVAL : 0);
		if (len >= slash + 2)
			CHECK_EQ_U64(l.threads, 79);
	}
}

static void test_uptime(void)
{
	static const char real[] = "360.60 692.98\n";
	static const char *const bad[] = { "", "\n", "abc", "-5 3", ". 5", " \n" };
	double up = -1;
	size_t i, len;

	CHECK_EQ_I64(uptime_exact(real, sizeof(real) - 1, &up), 0);
	CHECK_NEAR(up, 360.60, 1e-9);
	CHECK_EQ_I64(uptime_exact("12", 2, &up), 0);
	CHECK_NEAR(up, 12.0, 1e-12);
	CHECK_EQ_I64(uptime_exact("1234567.89 1\n", 13, &up), 0);
	CHECK_NEAR(up, 1234567.89, 1e-6);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!CHECK_EQ_I64(uptime_exact(bad[i], strlen(bad[i]), &up), -EINVAL))
			printf("#   input #%zu\n", i);
	for (len = 0; len < sizeof(real); len++) {
		int r = uptime_exact(real, len, &up);

		CHECK_EQ_I64(r, len == 0 ? -EINVAL : 0);
		if (len >= 6)
			CHECK_NEAR(up, 360.60, 1e-9);
	}
}

/* Random bytes and plausible tokens through every parser: no crash, no overread. */
static void test_fuzz_all(void)
{
	static const char *const tok[] = { "cpu", "cpu ", "cpu0 ", "cpu7", " ", "\n", "1",
					   "99999999999999999999999", "MemTotal:", "Cached:",
					   "pgfault ", ".", "/", "ctxt ", "intr ", "\t" };
	uint32_t x = 88172645u;
	int iter;

	for (iter = 0; iter < 20000; iter++) {
		char buf[200];
		size_t n = test_fuzz_fill(buf, sizeof(buf), 32, 31, &x, tok, ARRAY_SIZE(tok));
		struct cpu_times cpus[NCPU_MAX];
		struct sys_stat st;
		struct sys_mem m;
		struct sys_vm v;
		struct sys_load l;
		double up;

		stat_init(&st, cpus, NCPU_MAX);
		CHECK(stat_exact(buf, n, &st) <= 0);
		CHECK(st.ncpu >= 0 && st.ncpu <= NCPU_MAX);
		CHECK(meminfo_exact(buf, n, &m) <= 0);
		CHECK(vmstat_exact(buf, n, &v) <= 0);
		CHECK(loadavg_exact(buf, n, &l) <= 0);
		CHECK(uptime_exact(buf, n, &up) <= 0);
	}
}


static int now_exact(const char *s, uint64_t *raw, int *in_ns)
{
	size_t len = strlen(s);
	char *b = dup_exact(s, len);
	int ret = sysparse_trace_now_ts(b, len, raw, in_ns);

	free(b);
	return ret;
}

/* per_cpu/cpuN/stats as 6.18 writes it: the clock in us for ns clocks, a count for x86-tsc. */
static void test_trace_now_ts(void)
{
	const char *local = "entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
			    "oldest event ts:     0.000000\nnow ts: 35199.022460\n"
			    "dropped events: 0\nread events: 0\n";
	uint64_t raw = 0;
	int in_ns = -1;

	CHECK_EQ_I64(now_exact(local, &raw, &in_ns), 0);
	CHECK_EQ_U64(raw, 35199022460000ull);
	CHECK_EQ_I64(in_ns, 1);
	/* Padded to 5 digits of seconds early after boot. */
	CHECK_EQ_I64(now_exact("now ts:    12.000001\n", &raw, &in_ns), 0);
	CHECK_EQ_U64(raw, 12000001000ull);
	CHECK_EQ_I64(now_exact("oldest event ts: 5\nnow ts: 73779054471234567\n", &raw, &in_ns), 0);
	CHECK_EQ_U64(raw, 73779054471234567ull);
	CHECK_EQ_I64(in_ns, 0);
	/* No line, no digits, five or seven digits of us, a number too large for ns. */
	CHECK_EQ_I64(now_exact("entries: 0\n", &raw, &in_ns), -EINVAL);
	CHECK_EQ_I64(now_exact("now ts: .123456\n", &raw, &in_ns), -EINVAL);
	CHECK_EQ_I64(now_exact("now ts: 1.12345\n", &raw, &in_ns), -EINVAL);
	CHECK_EQ_I64(now_exact("now ts: 1.1234567\n", &raw, &in_ns), -EINVAL);
	CHECK_EQ_I64(now_exact("now ts: 99999999999999999.000000\n", &raw, &in_ns), -EINVAL);
	/* Cut short: what is there is all there is. */
	CHECK_EQ_I64(now_exact("now ts: 35199.0224", &raw, &in_ns), -EINVAL);
}

static int stable_exact(const char *s)
{
	size_t len = strlen(s);
	char *b = dup_exact(s, len);
	int ret = sysparse_sched_clock_stable(b, len);

	free(b);
	return ret;
}

static void test_sched_clock_stable(void)
{
	static const char head[] = "Sched Debug Version: v0.11, 6.18.44 #1\n"
				   "ktime                                   : 35178581.552129\n"
				   "sched_clk                               : 35178604.360328\n"
				   "cpu_clk                                 : 35178582.992883\n"
				   "jiffies                                 : 4303686889\n";
	char buf[512];

	snprintf(buf, sizeof(buf), "%ssched_clock_stable()                    : 1\n\nsysctl_sched\n", head);
	CHECK_EQ_I64(stable_exact(buf), 1);
	snprintf(buf, sizeof(buf), "%ssched_clock_stable()                    : 0\n\n", head);
	CHECK_EQ_I64(stable_exact(buf), 0);
	/* No CONFIG_HAVE_UNSTABLE_SCHED_CLOCK: no line, always stable. */
	snprintf(buf, sizeof(buf), "%s\nsysctl_sched\nsched_clock_stable() : 0\n", head);
	CHECK_EQ_I64(stable_exact(buf), 1);
	CHECK_EQ_I64(stable_exact("ktime : 1\nsched_clock_stable() : 1\n"), -EINVAL);
	snprintf(buf, sizeof(buf), "%ssched_clock_stable()                    : 2\n", head);
	CHECK_EQ_I64(stable_exact(buf), -EINVAL);
	snprintf(buf, sizeof(buf), "%ssched_clock_stable()\n", head);
	CHECK_EQ_I64(stable_exact(buf), -EINVAL);
}

static const struct test tests[] = {
	{ "stat_real", test_stat_real },
	{ "stat_offline_gap", test_stat_offline_gap },
	{ "stat_cpu_beyond_max", test_stat_cpu_beyond_max },
	{ "stat_invalid", test_stat_invalid },
	{ "stat_truncated", test_stat_truncated },
	{ "meminfo_real", test_meminfo_real },
	{ "meminfo_no_available", test_meminfo_no_available },
	{ "meminfo_invalid", test_meminfo_invalid },
	{ "meminfo_truncated", test_meminfo_truncated },
	{ "vmstat", test_vmstat },
	{ "vmstat_invalid", test_vmstat_invalid },
	{ "loadavg", test_loadavg },
	{ "loadavg_invalid", test_loadavg_invalid },
	{ "uptime", test_uptime },
	{ "trace_now_ts", test_trace_now_ts },
	{ "sched_clock_stable", test_sched_clock_stable },
	{ "fuzz_all", test_fuzz_all },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
