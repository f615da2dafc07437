// SPDX-License-Identifier: GPL-2.0-only
/*
 * model/cgres: the parsers of the cgroup files (as kernel 6.18 writes them,
 * and damaged), the interval's numbers from two readings (a pressure share
 * is the total's delta over the time between the readings), the alerts and
 * the table's life.
 */
#include "test.h"

#include "../../model/cgres.h"
#include "../../collectors/cgroup/cgparse.h"

static void test_parse(void)
{
	static const char psi[] = "some avg10=64.78 avg60=59.98 avg300=25.79 total=104740116\n"
				  "full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n";
	static const char stat1[] = "nr_periods 120\nnr_throttled 45\nthrottled_time 2250000000\n"
				    "nr_bursts 0\nburst_time 0\n";
	static const char stat2[] = "usage_usec 1\nuser_usec 1\nsystem_usec 0\nnr_periods 3\n"
				    "nr_throttled 2\nthrottled_usec 12345\n";
	static const char oomc[] = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
	static const char ev[] = "low 0\nhigh 0\nmax 17\noom 2\noom_kill 1\noom_group_kill 0\n";
	uint64_t a = 0, b = 0;

	CHECK_EQ_U64(cgparse_psi(psi, sizeof(psi) - 1, &a, &b), 3);
	CHECK_EQ_U64(a, 104740116);
	CHECK_EQ_U64(b, 7);
	/* Older kernels have no "full" line for cpu; a cut line gives nothing. */
	CHECK_EQ_U64(cgparse_psi(psi, 60, &a, &b), 1);
	CHECK_EQ_U64(cgparse_psi("some avg10=1 total=", 19, &a, &b), 0);
	CHECK_EQ_U64(cgparse_psi("some total=12x\n", 15, &a, &b), 0);
	CHECK(cgparse_key(stat1, sizeof(stat1) - 1, "nr_throttled", &a) && a == 45);
	CHECK(cgparse_key(stat1, sizeof(stat1) - 1, "throttled_time", &a) && a == 2250000000ull);
	CHECK(!cgparse_key(stat1, sizeof(stat1) - 1, "throttled_usec", &a));
	CHECK(cgparse_key(stat2, sizeof(stat2) - 1, "throttled_usec", &a) && a == 12345);
	/* A key is a whole word: "nr_throttled" is not "nr_throttled_x", "oom" not "oom_kill". */
	CHECK(cgparse_key(ev, sizeof(ev) - 1, "oom", &a) && a == 2);
	CHECK(cgparse_key(ev, sizeof(ev) - 1, "oom_kill", &a) && a == 1);
	CHECK(cgparse_key(ev, sizeof(ev) - 1, "max", &a) && a == 17);
	CHECK(cgparse_key(oomc, sizeof(oomc) - 1, "oom_kill", &a) && a == 3);
	CHECK(cgparse_limit("max\n", 4, &a) && a == CGR_UNLIMITED);
	CHECK(cgparse_limit("-1\n", 3, &a) && a == CGR_UNLIMITED);
	CHECK(cgparse_limit("9223372036854771712\n", 20, &a) && a == CGR_UNLIMITED);
	CHECK(cgparse_limit("1048576\n", 8, &a) && a == 1048576);
	CHECK(!cgparse_limit("", 0, &a));
	CHECK(!cgparse_limit("12k\n", 4, &a));
	CHECK(!cgparse_limit("99999999999999999999999\n", 24, &a));
	CHECK(cgparse_cpu_max("10000 100000\n", 13, &a, &b) && a == 10000 && b == 100000);
	CHECK(cgparse_cpu_max("max 100000\n", 11, &a, &b) && a == CGR_UNLIMITED);
	CHECK(!cgparse_cpu_max("10000\n", 6, &a, &b));
	CHECK(!cgparse_cpu_max("10000 0\n", 8, &a, &b));
}

static void test_interval(void)
{
	struct cgres_table t;
	struct cgres_raw r = { 0 };
	const struct cgres *g;
	double v;

	cgres_table_init(&t);
	r.have = CGR_PSI_SOME(CG_PSI_CPU) | CGR_PSI_SOME(CG_PSI_MEM) | CGR_THROTTLE |
		 CGR_CPU_MAX | CGR_OOM_KILL | CGR_MEM_CUR | CGR_MEM_MAX | CGR_PIDS_CUR |
		 CGR_PIDS_MAX | CGR_MEM_HITS;
	r.mem_max_hits = 7;
	r.psi_some[CG_PSI_CPU] = 1000000;
	r.psi_some[CG_PSI_MEM] = 50;
	r.nr_throttled = 10;
	r.throttled_us = 1000;
	r.quota_us = 10000;
	r.period_us = 100000;
	r.oom_kill = 4;
	r.mem_cur = 2048 * 1024;
	r.mem_max = CGR_UNLIMITED;
	r.pids_cur = 3;
	r.pids_max = 100;
	cgres_table_apply(&t, "/g", &r, 1000000000ull, 1);
	cgres_table_end(&t, 1);
	g = cgres_find(&t, "/g");
	if (!CHECK(g))
		return;
	/* One reading: no interval numbers; the levels are known. */
	CHECK(!cgres_num(g, CGF_CPU_SOME, &v));
	CHECK(!cgres_num(g, CGF_THROTTLED, &v));
	CHECK(cgres_num(g, CGF_CPU_LIMIT, &v) && v == 10.0);
	CHECK(cgres_num(g, CGF_MEM_KB, &v) && v == 2048);
	CHECK(!cgres_num(g, CGF_MEM_MAX_KB, &v));	/* unlimited */
	CHECK(cgres_num(g, CGF_PIDS_MAX, &v) && v == 100);
	CHECK(cgres_num(g, CGF_OOM_KILLS_TOTAL, &v) && v == 0);
	CHECK_EQ_U64(cgres_alerts(g), 0);
	/* 0.5 s later: 250 ms of cpu pressure is 50%, 20 throttled periods, 1 OOM kill. */
	r.psi_some[CG_PSI_CPU] += 250000;
	r.psi_some[CG_PSI_MEM] += 10000;
	r.nr_throttled += 20;
	r.throttled_us += 100000;
	r.oom_kill += 1;
	r.mem_max_hits += 5;
	cgres_table_apply(&t, "/g", &r, 1500000000ull, 2);
	cgres_table_end(&t, 2);
	CHECK(cgres_num(g, CGF_CPU_SOME, &v) && v == 50.0);
	CHECK(cgres_num(g, CGF_CPU_SOME_US, &v) && v == 250000);
	CHECK(cgres_num(g, CGF_MEM_SOME, &v) && v == 2.0);
	CHECK(!cgres_num(g, CGF_IO_SOME, &v));	/* not in the readings */
	CHECK(cgres_num(g, CGF_THROTTLED, &v) && v == 20);
	CHECK(cgres_num(g, CGF_THROTTLED_US, &v) && v == 100000);
	CHECK(cgres_num(g, CGF_THROTTLED_PCT, &v) && v == 20.0);
	CHECK(cgres_num(g, CGF_OOM_KILLS, &v) && v == 1);
	CHECK(cgres_num(g, CGF_OOM_KILLS_TOTAL, &v) && v == 1);
	CHECK(cgres_num(g, CGF_MEM_HITS, &v) && v == 5);
	CHECK_EQ_U64(cgres_alerts(g), CGA_THROTTLED | CGA_OOM_KILL | CGA_MEM_PRESS);
	CHECK_EQ_U64(t.n_throttled, 1);
	CHECK_EQ_U64(t.n_oom, 1);
	CHECK_EQ_U64(t.n_mem, 1);
	{
		char buf[32];

		CHECK_STR(cgres_alert_text(cgres_alerts(g), buf, sizeof(buf)), "THR,OOM,MEM");
		CHECK_STR(cgres_alert_text(CGA_OOM_KILL, buf, sizeof(buf)), "OOM");
		CHECK_STR(cgres_alert_text(CGA_THROTTLED | CGA_MEM_PRESS, buf, sizeof(buf)),
			  "THR,MEM");
		CHECK_STR(cgres_group_alerts(&t, "/g", buf, sizeof(buf)), "THR,OOM,MEM");
		CHECK_STR(cgres_group_alerts(&t, "/none", buf, sizeof(buf)), "");
	}
	/* A quiet interval: no alerts, the total kept. */
	r.psi_some[CG_PSI_MEM] += 1;
	cgres_table_apply(&t, "/g", &r, 2500000000ull, 3);
	cgres_table_end(&t, 3);
	CHECK(cgres_num(g, CGF_CPU_SOME, &v) && v == 0);
	CHECK_EQ_U64(cgres_alerts(g), 0);
	CHECK(cgres_num(g, CGF_OOM_KILLS_TOTAL, &v) && v == 1);
	CHECK_EQ_U64(t.n_throttled + t.n_oom + t.n_mem, 0);
	/* A counter that went back (the cgroup made anew): not known, not negative. */
	r.nr_throttled = 0;
	cgres_table_apply(&t, "/g", &r, 3000000000ull, 4);
	CHECK(!cgres_num(g, CGF_THROTTLED, &v));
	/* A tick skipped: the readings are not consecutive, no interval. */
	cgres_table_apply(&t, "/g", &r, 4000000000ull, 6);
	CHECK(!cgres_num(g, CGF_CPU_SOME, &v));
	/* The system's: dir "". */
	cgres_table_apply(&t, "", &r, 1, 6);
	CHECK(cgres_find(&t, "") == &t.sys);
	/* Not read for long: forgotten. */
	cgres_table_end(&t, 100);
	CHECK(!cgres_find(&t, "/g"));
	cgres_table_free(&t);
}

/*
 * Each row's CPU limit (collectors/cgroup/cgcpu.h): the reading of the cgroup that
 * limits it, keyed CGRES_CPU_KEY PATH apart from the groups' (the same path
 * may be two cgroups on a hybrid host), or none; known in its tick only.
 */
static void test_cpu_of(void)
{
	struct cgres_table t;
	struct cgres_raw grp = { 0 }, lim = { 0 };
	const struct cgres *r;
	double v;
	int i;

	cgres_table_init(&t);
	grp.have = CGR_MEM_CUR;
	lim.have = CGR_CPU_MAX | CGR_THROTTLE;
	lim.quota_us = 20000;
	lim.period_us = 100000;
	for (i = 1; i <= 3; i++) {
		cgres_table_apply(&t, "/ktop", &grp, (uint64_t)i * 1000000000ull, (uint64_t)i);
		cgres_table_apply(&t, "cpu:/ktop", &lim, (uint64_t)i * 1000000000ull, (uint64_t)i);
		cgres_table_cpu_of(&t, 42, "cpu:/ktop", (uint64_t)i);
		cgres_table_cpu_of(&t, 43, "", (uint64_t)i);
		cgres_table_cpu_of(&t, 44, "cpu:/not-read", (uint64_t)i);
		cgres_table_end(&t, (uint64_t)i);
		/* 800 ms of the second throttled: 80% */
		lim.nr_throttled += 10;
		lim.throttled_us += 800000;
	}
	CHECK(cgres_cpu_of(&t, 42, 3, &r) && r && !strcmp(r->dir, "cpu:/ktop"));
	CHECK(r && cgres_is_cpu(r) && !cgres_is_cpu(cgres_find(&t, "/ktop")));
	CHECK(r && cgres_num(r, CGF_THROTTLED_PCT, &v) && v == 80.0);
	CHECK(r && cgres_num(r, CGF_CPU_LIMIT, &v) && v == 20.0);
	CHECK(cgres_cpu_of(&t, 43, 3, &r) && !r);	/* nothing limits it */
	CHECK(!cgres_cpu_of(&t, 44, 3, &r));		/* its reading not there: not known */
	CHECK(!cgres_cpu_of(&t, 45, 3, &r));		/* not read */
	CHECK(!cgres_cpu_of(&t, 42, 4, &r));		/* another tick's */
	/* The throttled CPU cgroup counts once; the group's is not a CPU one. */
	CHECK_EQ_U64(t.n_throttled, 1);
	CHECK(t.have_groups);
	/* A tick without rows asked for: the group alone, nothing known of the rows. */
	cgres_table_apply(&t, "/ktop", &grp, 4000000000ull, 4);
	cgres_table_end(&t, 4);
	CHECK(!cgres_cpu_of(&t, 42, 4, &r));
	CHECK_EQ_U64(t.n_throttled, 0);
	cgres_table_free(&t);
}

static const struct test tests[] = {
	{ "parse", test_parse },
	{ "interval", test_interval },
	{ "cpu_of", test_cpu_of },
};

int main(void)
{
	return run_tests(tests, sizeof(tests) / sizeof(tests[0]));
}
