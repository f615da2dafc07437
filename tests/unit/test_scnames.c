// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/scnames.c: the generated number → name array
 * (build/gen/syscall_names.c) against <asm/unistd.h>, x86_64's known numbers
 * and the kernel's own tables shipped in data/syscalls (read here, from the
 * source tree: run from its top, as tests/run.sh does), the subsystem of
 * common calls, full coverage of this architecture's calls and of every
 * shipped table's by the subsystem table, and errno names.
 */
#include <asm/unistd.h>
#include <errno.h>
#include <linux/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/scnames.h"
#include "../../lib/util.h"
#include "test.h"

/*
 * The names the table leaves in SUB_OTHER on purpose: reserved numbers that
 * never had an implementation in mainline Linux (see lib/scnames.c).
 */
static const char *const unclassified[] = {
	"afs_syscall", "getpmsg", "putpmsg", "security", "tuxcall", "vserver",
	/* i386's */
	"break", "stty", "gtty", "ftime", "prof", "lock", "mpx", "ulimit", "profil",
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
	/* Added after the Linux 6.1 headers of Debian 12: from data/syscalls. */
	CHECK_STR(syscall_name(335, buf, sizeof(buf)), "uretprobe");
	CHECK_STR(syscall_name(336, buf, sizeof(buf)), "uprobe");
	CHECK_STR(syscall_name(458, buf, sizeof(buf)), "listmount");
	CHECK_STR(syscall_name(462, buf, sizeof(buf)), "mseal");
	CHECK_STR(syscall_name(468, buf, sizeof(buf)), "file_getattr");
	CHECK_STR(syscall_name(471, buf, sizeof(buf)), "rseq_slice_yield");
	/* The hole between uprobe and pidfd_send_signal. */
	CHECK_STR(syscall_name(400, buf, sizeof(buf)), "syscall_400");
	CHECK(syscall_names_count >= 472);
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
			       is_other ? "no subsystem in lib/scnames.c's table"
					: "listed as unclassifiable but has a subsystem");
			CHECK(!"subsystem table out of date");
		}
		other += is_other;
	}
	printf("# %u system calls, %u with a subsystem\n", named, named - other);
	CHECK(named >= 300);
	CHECK(other <= ARRAY_SIZE(unclassified));
}

/* ------------------------------------------------ the shipped tables */

#define TABLE_DIR "data/syscalls"

/* This machine as data/syscalls/abis names it; NULL if it has no table. */
#if defined(__x86_64__) && !defined(__ILP32__)
#define THIS_MACHINE "x86_64"
#elif defined(__aarch64__) && !defined(__ILP32__)
#define THIS_MACHINE "aarch64"
#elif defined(__riscv) && __riscv_xlen == 64
#define THIS_MACHINE "riscv64"
#elif defined(__loongarch__) && __loongarch_grlen == 64
#define THIS_MACHINE "loongarch64"
#else
#define THIS_MACHINE NULL
#endif

/* A parsed table of data/syscalls, the rows of one machine's ABIs. */
struct tbl_row {
	unsigned nr;
	char name[64];
};

struct tbl {
	unsigned version;		/* KERNEL_VERSION() of its "# linux" line */
	size_t n;
	struct tbl_row rows[1024];
};

/* Is word @w one of the space-separated words of @list? */
static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = list; (p = strstr(p, w)); p++)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* Reads TABLE_DIR/@file's rows whose ABI is one of @abis into @t. */
static bool read_table(const char *file, const char *abis, struct tbl *t)
{
	char path[256], line[256], abi[64];
	unsigned a, b, c;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", TABLE_DIR, file);
	f = fopen(path, "r");
	if (!CHECK(f)) {
		printf("# %s: cannot open (run from the top of the source tree)\n", path);
		return false;
	}
	t->n = 0;
	t->version = 0;
	while (fgets(line, sizeof(line), f)) {
		struct tbl_row *r = &t->rows[t->n];

		if (sscanf(line, "# linux %u.%u.%u", &a, &b, &c) == 3)
			t->version = KERNEL_VERSION(a, b, c > 255 ? 255 : c);
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!CHECK(sscanf(line, "%u %63s %63s", &r->nr, abi, r->name) == 3)) {
			printf("# %s: bad row: %s", path, line);
			continue;
		}
		if (has_word(abis, abi) && CHECK(t->n + 1 < ARRAY_SIZE(t->rows)))
			t->n++;
	}
	fclose(f);
	CHECK(t->version >= KERNEL_VERSION(6, 11, 0));
	return true;
}

/*
 * The rows this machine's table gives it: each number has a name, the
 * table's one unless the headers ktop was built with are newer (what
 * tools/gen-syscalls.sh keeps), and a subsystem.
 */
static void check_this_machine(const struct tbl *t)
{
	char buf[SYSCALL_NAME_BUF];
	unsigned bad = 0;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct tbl_row *r = &t->rows[i];
		const char *name = syscall_name(r->nr, buf, sizeof(buf));
		bool sub_ok = syscall_subsystem(r->nr) != SUB_OTHER || is_unclassified(r->name);
		bool name_ok = r->nr < syscall_names_count && syscall_names[r->nr] &&
			       (strcmp(name, r->name) == 0 || LINUX_VERSION_CODE > t->version);

		if (!name_ok || !sub_ok) {
			printf("# %u: table %s, ktop %s, subsystem %s\n", r->nr, r->name, name,
			       subsystem_name(syscall_subsystem(r->nr)));
			bad++;
		}
	}
	printf("# %s: %zu numbers of the shipped table checked\n", THIS_MACHINE, t->n);
	CHECK(t->n >= 300);
	CHECK_EQ_U64(bad, 0);
}

/*
 * Every name any shipped table gives any machine has a subsystem in
 * lib/scnames.c, whatever machine runs the test; and this machine's numbers
 * are all named as its table says.
 */
static void test_shipped_tables(void)
{
	static struct tbl t;
	char line[256], machine[32], file[64], abis[160];
	unsigned machines = 0, mine = 0;
	FILE *f = fopen(TABLE_DIR "/abis", "r");

	if (!CHECK(f)) {
		printf("# %s/abis: cannot open (run from the top of the source tree)\n", TABLE_DIR);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t i;
		int off = 0;

		if (line[0] == '#' || sscanf(line, "%31s %63s %n", machine, file, &off) < 2 || !off)
			continue;
		snprintf(abis, sizeof(abis), "%s", line + off);
		abis[strcspn(abis, "\n")] = '\0';
		if (!read_table(file, abis, &t))
			continue;
		machines++;
		for (i = 0; i < t.n; i++)
			if ((syscall_subsystem_by_name(t.rows[i].name) == SUB_OTHER) !=
			    is_unclassified(t.rows[i].name)) {
				printf("# %s %u %s: no subsystem in lib/scnames.c's table\n",
				       machine, t.rows[i].nr, t.rows[i].name);
				CHECK(!"subsystem table out of date");
			}
		if (THIS_MACHINE && strcmp(machine, THIS_MACHINE) == 0) {
			check_this_machine(&t);
			mine++;
		}
#if defined(__x86_64__) && !defined(__ILP32__)
		/* The other ABIs of x86_64's processes: every row named as the table says. */
		if (strcmp(machine, "i386") == 0 || strcmp(machine, "x32") == 0) {
			bool compat = machine[0] == 'i';
			char nb[SYSCALL_NAME_BUF];
			unsigned bad = 0;

			for (i = 0; i < t.n; i++) {
				long nr = (long)t.rows[i].nr | (compat ? 0 : 0x40000000L);

				const char *name = syscall_name(sc_key(nr, compat), nb, sizeof(nb));

				if (strcmp(name, t.rows[i].name) != 0) {
					printf("# %s %u: table %s, ktop %s\n", machine, t.rows[i].nr,
					       t.rows[i].name, name);
					bad++;
				}
			}
			CHECK(t.n >= 300);
			CHECK_EQ_U64(bad, 0);
		}
#endif
	}
	fclose(f);
	CHECK(machines >= 4);
	if (THIS_MACHINE)
		CHECK_EQ_U64(mine, 1);
	else
		printf("# no shipped table for this machine: names from the headers alone\n");
}

static void test_subsystem_by_name(void)
{
	CHECK_EQ_U64(syscall_subsystem_by_name("listmount"), SUB_FS);
	CHECK_EQ_U64(syscall_subsystem_by_name("mseal"), SUB_MM);
	CHECK_EQ_U64(syscall_subsystem_by_name("uretprobe"), SUB_PERF);
	CHECK_EQ_U64(syscall_subsystem_by_name("rseq_slice_yield"), SUB_SCHED);
	CHECK_EQ_U64(syscall_subsystem_by_name("listns"), SUB_PROC);
	CHECK_EQ_U64(syscall_subsystem_by_name("tuxcall"), SUB_OTHER);
	CHECK_EQ_U64(syscall_subsystem_by_name("no_such_call"), SUB_OTHER);
	CHECK_EQ_U64(syscall_subsystem_by_name(""), SUB_OTHER);
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
	/* The kernel-internal ones get plain words; a user-visible one needs none. */
	CHECK_STR(errno_name(-512, buf, sizeof(buf)), "ERESTARTSYS");
	CHECK(errno_hint(-512) && strstr(errno_hint(-512), "signal"));
	CHECK(errno_hint(516) && strstr(errno_hint(516), "restart_syscall"));
	CHECK(errno_hint(519) != NULL);
	CHECK(errno_hint(520) == NULL && errno_hint(511) == NULL);
	CHECK(errno_hint(-ENOENT) == NULL && errno_hint(0) == NULL);
	CHECK(errno_hint(-2147483647 - 1) == NULL);
}


/*
 * The numbers of each ABI of this machine's processes: x86_64's, i386's (a
 * 32-bit program's) and x32's, each with its own names and subsystems.
 */
static void test_abis(void)
{
	char buf[SYSCALL_LABEL_BUF], nb[SYSCALL_NAME_BUF];

#if defined(__x86_64__) && !defined(__ILP32__)
	/* What a 32-bit program making getppid, open and getcwd was shown as. */
	CHECK_STR(syscall_name(64, nb, sizeof(nb)), "semget");
	CHECK_STR(syscall_name(sc_key(64, true), nb, sizeof(nb)), "getppid");
	CHECK_STR(syscall_name(sc_key(5, true), nb, sizeof(nb)), "open");
	CHECK_STR(syscall_name(sc_key(183, true), nb, sizeof(nb)), "getcwd");
	CHECK_STR(syscall_name(183, nb, sizeof(nb)), "afs_syscall");
	CHECK_STR(syscall_name(sc_key(11, true), nb, sizeof(nb)), "execve");
	CHECK_STR(syscall_name(sc_key(252, true), nb, sizeof(nb)), "exit_group");
	CHECK_STR(syscall_name(sc_key(471, true), nb, sizeof(nb)), "rseq_slice_yield");
	CHECK_STR(subsystem_name(syscall_subsystem(sc_key(64, true))), "Process Mgmt.");
	CHECK_STR(subsystem_name(syscall_subsystem(64)), "IPC");
	CHECK_STR(subsystem_name(syscall_subsystem(sc_key(183, true))), "Filesystem");
	CHECK_STR(subsystem_name(syscall_subsystem(sc_key(5, true))), "Filesystem");
	CHECK_STR(syscall_label(sc_key(64, true), buf, sizeof(buf)), "getppid (32-bit)");
	CHECK_STR(syscall_label(64, buf, sizeof(buf)), "semget");
	CHECK_STR(syscall_abi_name(sc_key(64, true)), "32-bit");
	CHECK_STR(syscall_abi_name(64), "64-bit");
	CHECK(syscall_names_compat_count >= 472);
	/* x32: x86_64's numbers with bit 30, as the kernel reports them. */
	CHECK_STR(syscall_name(sc_key(0x40000000L | 512, false), nb, sizeof(nb)), "rt_sigaction");
	CHECK_STR(syscall_name(sc_key(0x40000000L | 1, false), nb, sizeof(nb)), "write");
	CHECK_STR(syscall_label(sc_key(0x40000000L | 1, false), buf, sizeof(buf)), "write (x32)");
	CHECK_STR(subsystem_name(syscall_subsystem(sc_key(0x40000000L | 512, false))), "Signal");
	/* A number i386 lacks: named by its number, with its ABI. */
	CHECK_STR(syscall_label(sc_key(222, true), buf, sizeof(buf)), "syscall_222 (32-bit)");
	CHECK_EQ_U64(syscall_subsystem(sc_key(222, true)), SUB_OTHER);
#else
	/* No other ABI here: a compat key is named by its number. */
	CHECK_STR(syscall_label(sc_key(64, true), buf, sizeof(buf)), "syscall_64 (32-bit)");
#endif
	/* Keys: the ABI survives the errors' key; numbers no ABI has share one. */
	CHECK_EQ_U64(sc_err_nr(sc_err_key(sc_key(64, true), 2)), sc_key(64, true));
	CHECK_EQ_U64(sc_err_errno(sc_err_key(sc_key(64, true), 2)), 2);
	CHECK_EQ_U64(sc_err_nr(sc_err_key(sc_key(0x40000000L | 512, false), 22)),
		     sc_key(0x40000000L | 512, false));
	CHECK_EQ_U64(sc_err_nr(sc_err_key(257, 2)), 257);
	CHECK(sc_err_key(sc_key(64, true), 2) != sc_err_key(64, 2));
	CHECK_EQ_U64(sc_key(-1, true), SC_KEY_INVALID);
	CHECK_EQ_U64(sc_key(-1, false), SC_KEY_INVALID);
	CHECK_EQ_U64(sc_key(0x80000000L, false), SC_KEY_INVALID);
	CHECK_EQ_U64(sc_err_nr(sc_err_key(SC_KEY_INVALID, 38)), SC_KEY_INVALID);
	CHECK_EQ_U64(sc_key_abi(SC_KEY_INVALID), SC_ABI_NATIVE);
	CHECK_STR(syscall_name(SC_KEY_INVALID, nb, sizeof(nb)), "syscall_4294967294");
	(void)nb;
}

static const struct test tests[] = {
	{ "syscalls: each ABI's numbers named by its own table (i386, x32), keys", test_abis },
	{ "names_x86_64", test_names_x86_64 },
	{ "names_match_unistd", test_names_match_unistd },
	{ "names_unknown", test_names_unknown },
	{ "subsystems", test_subsystems },
	{ "full_coverage", test_full_coverage },
	{ "shipped_tables", test_shipped_tables },
	{ "subsystem_by_name", test_subsystem_by_name },
	{ "subsystem_names", test_subsystem_names },
	{ "init_idempotent", test_init_idempotent },
	{ "errno_names", test_errno_names },
};

int main(void)
{
	syscalls_init();
	return run_tests(tests, ARRAY_SIZE(tests));
}
