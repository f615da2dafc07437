// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of src/syscalls.c: the generated number → name array
 * (build/gen/syscall_names.c) against <asm/unistd.h> and x86_64's known
 * numbers, the subsystem of common calls, full coverage of this architecture's
 * calls by the subsystem table, and errno names.
 */
#include <asm/unistd.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "syscalls.h"
#include "util.h"
#include "test.h"

/*
 * The names the table leaves in SUB_OTHER on purpose: reserved numbers that
 * never had an implementation in mainline Linux (see src/syscalls.c).
 */
static const char *const unclassified[] = {
	"afs_syscall", "getpmsg", "putpmsg", "security", "tuxcall", "vserver",
};

static bool is_unclassified(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unclassified); i++)
		if (strcmp(name, unclassified[i]) == 0)
			return true;
	return false;
}

/* The number of a system call by name on this architecture, or -1. */
static long nr_of(const char *name)
{
	unsigned nr;

	for (nr = 0; nr < syscall_names_count; nr++)
		if (syscall_names[nr] && strcmp(syscall_names[nr], name) == 0)
			return nr;
	return -1;
}

/* The subsystem name of a system call by name; "(missing)" if there is none. */
static const char *sub_of(const char *name)
{
	long nr = nr_of(name);

	return nr < 0 ? "(missing)" : subsystem_name(syscall_subsystem((unsigned)nr));
}

static void test_names_x86_64(void)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	char buf[SYSCALL_NAME_BUF];

	CHECK_STR(syscall_name(0, buf, sizeof(buf)), "read");
	CHECK_STR(syscall_name(1, buf, sizeof(buf)), "write");
	CHECK_STR(syscall_name(59, buf, sizeof(buf)), "execve");
	CHECK_STR(syscall_name(231, buf, sizeof(buf)), "exit_group");
	CHECK_STR(syscall_name(257, buf, sizeof(buf)), "openat");
	CHECK_STR(syscall_name(424, buf, sizeof(buf)), "pidfd_send_signal");
	/* The hole between rseq and pidfd_send_signal. */
	CHECK_STR(syscall_name(400, buf, sizeof(buf)), "syscall_400");
	CHECK(syscall_names_count >= 451);
#else
	printf("# not x86_64: the literal numbers are not checked\n");
#endif
}

/* The generated array agrees with the compiler's own __NR_ macros. */
static void test_names_match_unistd(void)
{
	char buf[SYSCALL_NAME_BUF];

	CHECK_STR(syscall_name(__NR_read, buf, sizeof(buf)), "read");
	CHECK_STR(syscall_name(__NR_openat, buf, sizeof(buf)), "openat");
	CHECK_STR(syscall_name(__NR_execve, buf, sizeof(buf)), "execve");
	CHECK_STR(syscall_name(__NR_exit_group, buf, sizeof(buf)), "exit_group");
	CHECK_STR(syscall_name(__NR_futex, buf, sizeof(buf)), "futex");
#ifdef __NR_fcntl	/* 64-bit; an alias of __NR3264_fcntl on asm-generic */
	CHECK_STR(syscall_name(__NR_fcntl, buf, sizeof(buf)), "fcntl");
	CHECK_STR(syscall_name(__NR_mmap, buf, sizeof(buf)), "mmap");
#endif
	CHECK_EQ_I64(nr_of("clone"), __NR_clone);
	CHECK_EQ_I64(nr_of("sched_yield"), __NR_sched_yield);
	CHECK_EQ_I64(nr_of("no_such_call"), -1);
}

static void test_names_unknown(void)
{
	char buf[SYSCALL_NAME_BUF], want[32], small[8];
	unsigned nr;

	snprintf(want, sizeof(want), "syscall_%u", syscall_names_count);
	CHECK_STR(syscall_name(syscall_names_count, buf, sizeof(buf)), want);
	CHECK_STR(syscall_name(4294967295u, buf, sizeof(buf)), "syscall_4294967295");
	/* A hole inside the array, if this architecture has one. */
	for (nr = 0; nr < syscall_names_count && syscall_names[nr]; nr++)
		;
	if (nr < syscall_names_count) {
		snprintf(want, sizeof(want), "syscall_%u", nr);
		CHECK_STR(syscall_name(nr, buf, sizeof(buf)), want);
	}
	/* A short buffer is cut, still terminated. */
	CHECK_STR(syscall_name(123456, small, sizeof(small)), "syscall");
}

static void test_subsystems(void)
{
	CHECK_STR(sub_of("read"), "Filesystem");
	CHECK_STR(sub_of("openat"), "Filesystem");
	CHECK_STR(sub_of("close"), "Filesystem");
	CHECK_STR(sub_of("epoll_ctl"), "Filesystem");
	CHECK_STR(sub_of("eventfd2"), "Filesystem");
	CHECK_STR(sub_of("mmap"), "Memory Mgmt.");
	CHECK_STR(sub_of("brk"), "Memory Mgmt.");
	CHECK_STR(sub_of("set_mempolicy"), "Memory Mgmt.");
	CHECK_STR(sub_of("clone"), "Process Mgmt.");
	CHECK_STR(sub_of("execve"), "Process Mgmt.");
	CHECK_STR(sub_of("exit_group"), "Process Mgmt.");
	CHECK_STR(sub_of("wait4"), "Process Mgmt.");
	CHECK_STR(sub_of("getppid"), "Process Mgmt.");
	CHECK_STR(sub_of("prlimit64"), "Process Mgmt.");
	CHECK_STR(sub_of("set_tid_address"), "Process Mgmt.");
	CHECK_STR(sub_of("sched_yield"), "Scheduler");
	CHECK_STR(sub_of("sched_setaffinity"), "Scheduler");
	CHECK_STR(sub_of("kill"), "Signal");
	CHECK_STR(sub_of("rt_sigaction"), "Signal");
	CHECK_STR(sub_of("rt_sigreturn"), "Signal");
	CHECK_STR(sub_of("socket"), "Network");
	CHECK_STR(sub_of("sendto"), "Network");
	CHECK_STR(sub_of("socketpair"), "Network");
	CHECK_STR(sub_of("futex"), "Futex");
	CHECK_STR(sub_of("set_robust_list"), "Futex");
	CHECK_STR(sub_of("clock_gettime"), "Time");
	CHECK_STR(sub_of("nanosleep"), "Time");
	CHECK_STR(sub_of("clock_nanosleep"), "Time");
	CHECK_STR(sub_of("msgget"), "IPC");
	CHECK_STR(sub_of("semop"), "IPC");
	CHECK_STR(sub_of("capget"), "Capability");
	CHECK_STR(sub_of("keyctl"), "Security");
	CHECK_STR(sub_of("seccomp"), "Security");
	CHECK_STR(sub_of("io_uring_enter"), "I/O uring");
	CHECK_STR(sub_of("bpf"), "BPF");
	CHECK_STR(sub_of("perf_event_open"), "Perf/Tracing");
	CHECK_STR(sub_of("finit_module"), "Modules");
	CHECK_STR(sub_of("getrandom"), "System");
#if defined(__x86_64__) && !defined(__ILP32__)
	CHECK_STR(sub_of("arch_prctl"), "Process Mgmt.");
	CHECK_STR(sub_of("pause"), "Signal");
	CHECK_STR(sub_of("alarm"), "Time");
#endif
	/* Out of range numbers. */
	CHECK_EQ_U64(syscall_subsystem(syscall_names_count), SUB_OTHER);
	CHECK_EQ_U64(syscall_subsystem(~0u), SUB_OTHER);
}

/* Every system call of this architecture has a subsystem but the few on purpose. */
static void test_full_coverage(void)
{
	unsigned nr, named = 0, other = 0;

	for (nr = 0; nr < syscall_names_count; nr++) {
		const char *name = syscall_names[nr];
		bool is_other;

		if (!name)
			continue;
		named++;
		is_other = syscall_subsystem(nr) == SUB_OTHER;
		if (is_other != is_unclassified(name)) {
			printf("# %s (%u): %s\n", name, nr,
			       is_other ? "no subsystem in src/syscalls.c's table"
					: "listed as unclassifiable but has a subsystem");
			CHECK(!"subsystem table out of date");
		}
		other += is_other;
	}
	printf("# %u system calls, %u with a subsystem\n", named, named - other);
	CHECK(named >= 300);
	CHECK(other <= ARRAY_SIZE(unclassified));
}

static void test_subsystem_names(void)
{
	unsigned i, j;

	for (i = 0; i < SUB_NR; i++) {
		if (!CHECK(subsystem_name((enum subsystem)i)))
			continue;
		CHECK(strlen(subsystem_name((enum subsystem)i)) > 0);
		for (j = 0; j < i; j++)
			CHECK(strcmp(subsystem_name((enum subsystem)i),
				     subsystem_name((enum subsystem)j)) != 0);
	}
	CHECK_STR(subsystem_name(SUB_FS), "Filesystem");
	CHECK_STR(subsystem_name(SUB_MM), "Memory Mgmt.");
	CHECK_STR(subsystem_name(SUB_PROC), "Process Mgmt.");
	CHECK_STR(subsystem_name(SUB_OTHER), "Other");
	CHECK_STR(subsystem_name(SUB_NR), "Other");
	CHECK_STR(subsystem_name((enum subsystem)-1), "Other");
}

static void test_init_idempotent(void)
{
	syscalls_init();
	syscalls_init();
	CHECK_STR(sub_of("read"), "Filesystem");
}

static void test_errno_names(void)
{
	char buf[ERRNO_NAME_BUF];

	CHECK_STR(errno_name(2, buf, sizeof(buf)), "ENOENT");
	CHECK_STR(errno_name(ENOENT, buf, sizeof(buf)), "ENOENT");
	CHECK_STR(errno_name(-EAGAIN, buf, sizeof(buf)), "EAGAIN");
	CHECK_STR(errno_name(EPERM, buf, sizeof(buf)), "EPERM");
	CHECK_STR(errno_name(99999, buf, sizeof(buf)), "E99999");
	CHECK_STR(errno_name(-99999, buf, sizeof(buf)), "E99999");
	CHECK_STR(errno_name(-2147483647 - 1, buf, sizeof(buf)), "E-2147483648");
}

static const struct test tests[] = {
	{ "names_x86_64", test_names_x86_64 },
	{ "names_match_unistd", test_names_match_unistd },
	{ "names_unknown", test_names_unknown },
	{ "subsystems", test_subsystems },
	{ "full_coverage", test_full_coverage },
	{ "subsystem_names", test_subsystem_names },
	{ "init_idempotent", test_init_idempotent },
	{ "errno_names", test_errno_names },
};

int main(void)
{
	syscalls_init();
	return run_tests(tests, ARRAY_SIZE(tests));
}
