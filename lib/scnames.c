// SPDX-License-Identifier: GPL-2.0-only
/*
 * System call names, subsystems and errno names. The numbers → names array is
 * generated at build time (tools/gen-syscalls.sh); this file holds the one
 * hand-written table, names → subsystems, which is architecture independent.
 */
#include "scnames.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const subsystem_names[SUB_NR] = {
	[SUB_FS] = "Filesystem",
	[SUB_MM] = "Memory Mgmt.",
	[SUB_PROC] = "Process Mgmt.",
	[SUB_SCHED] = "Scheduler",
	[SUB_SIGNAL] = "Signal",
	[SUB_NET] = "Network",
	[SUB_FUTEX] = "Futex",
	[SUB_TIME] = "Time",
	[SUB_IPC] = "IPC",
	[SUB_CAP] = "Capability",
	[SUB_SECURITY] = "Security",
	[SUB_IO_URING] = "I/O uring",
	[SUB_BPF] = "BPF",
	[SUB_PERF] = "Perf/Tracing",
	[SUB_MODULE] = "Modules",
	[SUB_SYSTEM] = "System",
	[SUB_OTHER] = "Other",
};

struct syscall_class {
	const char *name;
	unsigned char sub;	/* enum subsystem */
};

/*
 * System call name → subsystem.
 *
 * The rule, as in the kernel's workload-tracing guide: a call belongs to the
 * subsystem of the kernel source that defines it (its SYSCALL_DEFINE), and the
 * arch/ implementations of generic calls (mmap, rt_sigreturn) go with the
 * generic ones.
 *
 *	fs/, block/ (ioprio)			Filesystem; epoll, eventfd,
 *						signalfd, timerfd, inotify,
 *						fanotify, aio and userfaultfd too,
 *						as the guide puts epoll and eventfd
 *	mm/					Memory Mgmt.
 *	kernel/fork.c, exit.c, sys.c, groups.c,	Process Mgmt.
 *	pid.c, nsproxy.c, nstree.c, ptrace.c, kcmp.c,
 *	exec_domain.c, acct.c; arch per-task
 *	state (arch_prctl, LDT, TLS, iopl)
 *	kernel/sched/, kernel/rseq.c		Scheduler
 *	kernel/signal.c				Signal
 *	net/					Network
 *	kernel/futex/				Futex
 *	kernel/time/				Time
 *	ipc/					IPC
 *	kernel/capability.c			Capability
 *	security/ (keys, landlock, LSM)		Security
 *	io_uring/				I/O uring
 *	kernel/bpf/				BPF
 *	kernel/events/, uprobes			Perf/Tracing
 *	kernel/module/				Modules
 *	kernel/reboot.c, kexec*.c, printk/,	System: kernel-wide services
 *	sysctl; drivers/char/random.c
 *
 * Exceptions, placed by what they do rather than by file:
 *  - execve, execveat (fs/exec.c): Process Mgmt., with clone and exit_group.
 *    The guide itself lists execve under Filesystem in its tables.
 *  - getpriority, setpriority, getcpu (kernel/sys.c): Scheduler.
 *  - seccomp (kernel/seccomp.c): Security.
 *  - wait4 (kernel/exit.c): Process Mgmt.; the guide's tables say Time.
 * Calls that were removed from the kernel keep the place of their old source.
 *
 * The names are those of x86_64 (syscall_64.tbl), of i386 (syscall_32.tbl:
 * 32-bit programs on x86_64) and of the generic table (scripts/syscall.tbl,
 * once asm-generic/unistd.h), which aarch64, riscv and other new
 * architectures use, 64 and 32 bit, up to Linux 7.0
 * (rseq_slice_yield): every name data/syscalls gives a machine needs a row
 * here (tests/unit/test_scnames.c checks). Names this architecture lacks are
 * just not looked up.
 */
static const struct syscall_class syscall_table[] = {
	/* fs/read_write.c */
	{ "read", SUB_FS }, { "write", SUB_FS }, { "readv", SUB_FS }, { "writev", SUB_FS },
	{ "pread64", SUB_FS }, { "pwrite64", SUB_FS }, { "preadv", SUB_FS },
	{ "pwritev", SUB_FS }, { "preadv2", SUB_FS }, { "pwritev2", SUB_FS },
	{ "lseek", SUB_FS }, { "llseek", SUB_FS }, { "_llseek", SUB_FS }, { "sendfile", SUB_FS },
	{ "sendfile64", SUB_FS }, { "copy_file_range", SUB_FS },
	/* fs/open.c */
	{ "open", SUB_FS }, { "openat", SUB_FS }, { "openat2", SUB_FS }, { "creat", SUB_FS },
	{ "close", SUB_FS }, { "close_range", SUB_FS }, { "access", SUB_FS },
	{ "faccessat", SUB_FS }, { "faccessat2", SUB_FS }, { "chdir", SUB_FS },
	{ "fchdir", SUB_FS }, { "chroot", SUB_FS }, { "chmod", SUB_FS }, { "fchmod", SUB_FS },
	{ "fchmodat", SUB_FS }, { "fchmodat2", SUB_FS }, { "chown", SUB_FS },
	{ "lchown", SUB_FS }, { "fchown", SUB_FS }, { "fchownat", SUB_FS },
	{ "chown32", SUB_FS }, { "lchown32", SUB_FS }, { "fchown32", SUB_FS },
	{ "truncate", SUB_FS }, { "ftruncate", SUB_FS }, { "truncate64", SUB_FS },
	{ "ftruncate64", SUB_FS }, { "fallocate", SUB_FS }, { "vhangup", SUB_FS },
	/* fs/stat.c, fs/statfs.c */
	{ "stat", SUB_FS }, { "lstat", SUB_FS }, { "fstat", SUB_FS }, { "newfstatat", SUB_FS },
	{ "stat64", SUB_FS }, { "lstat64", SUB_FS }, { "fstat64", SUB_FS },
	{ "fstatat64", SUB_FS }, { "statx", SUB_FS }, { "readlink", SUB_FS },
	{ "readlinkat", SUB_FS }, { "statfs", SUB_FS }, { "fstatfs", SUB_FS },
	{ "statfs64", SUB_FS }, { "fstatfs64", SUB_FS }, { "ustat", SUB_FS },
	{ "oldstat", SUB_FS }, { "oldlstat", SUB_FS }, { "oldfstat", SUB_FS },
	/* fs/namei.c, fs/readdir.c, fs/d_path.c */
	{ "mknod", SUB_FS }, { "mknodat", SUB_FS }, { "mkdir", SUB_FS }, { "mkdirat", SUB_FS },
	{ "rmdir", SUB_FS }, { "unlink", SUB_FS }, { "unlinkat", SUB_FS },
	{ "symlink", SUB_FS }, { "symlinkat", SUB_FS }, { "link", SUB_FS },
	{ "linkat", SUB_FS }, { "rename", SUB_FS }, { "renameat", SUB_FS },
	{ "renameat2", SUB_FS }, { "getdents", SUB_FS }, { "getdents64", SUB_FS },
	{ "getcwd", SUB_FS }, { "readdir", SUB_FS },
	/* fs/fcntl.c, fs/ioctl.c, fs/locks.c, fs/file.c, fs/pipe.c, fs/select.c */
	{ "fcntl", SUB_FS }, { "fcntl64", SUB_FS }, { "ioctl", SUB_FS }, { "flock", SUB_FS },
	{ "dup", SUB_FS }, { "dup2", SUB_FS }, { "dup3", SUB_FS }, { "pipe", SUB_FS },
	{ "pipe2", SUB_FS }, { "select", SUB_FS }, { "_newselect", SUB_FS }, { "pselect6", SUB_FS },
	{ "pselect6_time64", SUB_FS }, { "poll", SUB_FS }, { "ppoll", SUB_FS },
	{ "ppoll_time64", SUB_FS },
	/* fs/sync.c, fs/splice.c, fs/utimes.c */
	{ "sync", SUB_FS }, { "syncfs", SUB_FS }, { "fsync", SUB_FS }, { "fdatasync", SUB_FS },
	{ "sync_file_range", SUB_FS }, { "sync_file_range2", SUB_FS }, { "splice", SUB_FS },
	{ "tee", SUB_FS }, { "vmsplice", SUB_FS }, { "utime", SUB_FS }, { "utimes", SUB_FS },
	{ "futimesat", SUB_FS }, { "utimensat", SUB_FS }, { "utimensat_time64", SUB_FS },
	/* fs/xattr.c, fs/file_attr.c */
	{ "setxattr", SUB_FS }, { "lsetxattr", SUB_FS }, { "fsetxattr", SUB_FS },
	{ "getxattr", SUB_FS }, { "lgetxattr", SUB_FS }, { "fgetxattr", SUB_FS },
	{ "listxattr", SUB_FS }, { "llistxattr", SUB_FS }, { "flistxattr", SUB_FS },
	{ "removexattr", SUB_FS }, { "lremovexattr", SUB_FS }, { "fremovexattr", SUB_FS },
	{ "setxattrat", SUB_FS }, { "getxattrat", SUB_FS }, { "listxattrat", SUB_FS },
	{ "removexattrat", SUB_FS }, { "file_getattr", SUB_FS }, { "file_setattr", SUB_FS },
	/* fs/namespace.c, fs/fsopen.c, fs/filesystems.c, fs/quota/, fs/fhandle.c */
	{ "mount", SUB_FS }, { "umount", SUB_FS }, { "umount2", SUB_FS }, { "pivot_root", SUB_FS },
	{ "open_tree", SUB_FS }, { "open_tree_attr", SUB_FS }, { "move_mount", SUB_FS },
	{ "fsopen", SUB_FS }, { "fsconfig", SUB_FS }, { "fsmount", SUB_FS },
	{ "fspick", SUB_FS }, { "mount_setattr", SUB_FS }, { "statmount", SUB_FS },
	{ "listmount", SUB_FS }, { "sysfs", SUB_FS }, { "quotactl", SUB_FS },
	{ "quotactl_fd", SUB_FS }, { "name_to_handle_at", SUB_FS },
	{ "open_by_handle_at", SUB_FS },
	/* fs/eventpoll.c (epoll_*_old: the never wired-up first x86_64 ABI),
	 * fs/eventfd.c, fs/signalfd.c, fs/timerfd.c, fs/userfaultfd.c */
	{ "epoll_create", SUB_FS }, { "epoll_create1", SUB_FS }, { "epoll_ctl", SUB_FS },
	{ "epoll_wait", SUB_FS }, { "epoll_pwait", SUB_FS }, { "epoll_pwait2", SUB_FS },
	{ "epoll_ctl_old", SUB_FS }, { "epoll_wait_old", SUB_FS }, { "eventfd", SUB_FS },
	{ "eventfd2", SUB_FS }, { "signalfd", SUB_FS }, { "signalfd4", SUB_FS },
	{ "timerfd_create", SUB_FS }, { "timerfd_settime", SUB_FS },
	{ "timerfd_gettime", SUB_FS }, { "timerfd_settime64", SUB_FS },
	{ "timerfd_gettime64", SUB_FS }, { "userfaultfd", SUB_FS },
	/* fs/notify/, fs/aio.c */
	{ "inotify_init", SUB_FS }, { "inotify_init1", SUB_FS },
	{ "inotify_add_watch", SUB_FS }, { "inotify_rm_watch", SUB_FS },
	{ "fanotify_init", SUB_FS }, { "fanotify_mark", SUB_FS }, { "io_setup", SUB_FS },
	{ "io_destroy", SUB_FS }, { "io_submit", SUB_FS }, { "io_cancel", SUB_FS },
	{ "io_getevents", SUB_FS }, { "io_pgetevents", SUB_FS },
	{ "io_pgetevents_time64", SUB_FS },
	/* fs/exec.c; fs/nfsctl.c and fs/dcookies.c, both removed; block/ioprio.c;
	 * fs/buffer.c (bdflush, removed) */
	{ "uselib", SUB_FS }, { "nfsservctl", SUB_FS }, { "lookup_dcookie", SUB_FS },
	{ "bdflush", SUB_FS },
	{ "ioprio_set", SUB_FS }, { "ioprio_get", SUB_FS },

	/* mm/, arch/x86/kernel/sys_x86_64.c (mmap), arch/x86/kernel/shstk.c */
	{ "brk", SUB_MM }, { "mmap", SUB_MM }, { "mmap2", SUB_MM }, { "munmap", SUB_MM },
	{ "mremap", SUB_MM }, { "remap_file_pages", SUB_MM }, { "mprotect", SUB_MM },
	{ "pkey_mprotect", SUB_MM }, { "pkey_alloc", SUB_MM }, { "pkey_free", SUB_MM },
	{ "msync", SUB_MM }, { "mincore", SUB_MM }, { "madvise", SUB_MM },
	{ "process_madvise", SUB_MM }, { "mlock", SUB_MM }, { "mlock2", SUB_MM },
	{ "munlock", SUB_MM }, { "mlockall", SUB_MM }, { "munlockall", SUB_MM },
	{ "mbind", SUB_MM }, { "set_mempolicy", SUB_MM }, { "get_mempolicy", SUB_MM },
	{ "set_mempolicy_home_node", SUB_MM }, { "migrate_pages", SUB_MM },
	{ "move_pages", SUB_MM }, { "swapon", SUB_MM }, { "swapoff", SUB_MM },
	{ "readahead", SUB_MM }, { "fadvise64", SUB_MM }, { "fadvise64_64", SUB_MM },
	{ "memfd_create", SUB_MM }, { "memfd_secret", SUB_MM },
	{ "process_vm_readv", SUB_MM }, { "process_vm_writev", SUB_MM },
	{ "process_mrelease", SUB_MM }, { "cachestat", SUB_MM }, { "mseal", SUB_MM },
	{ "map_shadow_stack", SUB_MM }, { "riscv_flush_icache", SUB_MM },

	/* kernel/fork.c, fs/exec.c (exec), kernel/exit.c */
	{ "clone", SUB_PROC }, { "clone3", SUB_PROC }, { "fork", SUB_PROC },
	{ "vfork", SUB_PROC }, { "set_tid_address", SUB_PROC }, { "unshare", SUB_PROC },
	{ "execve", SUB_PROC }, { "execveat", SUB_PROC }, { "exit", SUB_PROC },
	{ "exit_group", SUB_PROC }, { "wait4", SUB_PROC }, { "waitid", SUB_PROC },
	{ "waitpid", SUB_PROC },
	/* kernel/sys.c, kernel/groups.c */
	{ "getpid", SUB_PROC }, { "gettid", SUB_PROC }, { "getppid", SUB_PROC },
	{ "getuid", SUB_PROC }, { "geteuid", SUB_PROC }, { "getgid", SUB_PROC },
	{ "getegid", SUB_PROC }, { "setuid", SUB_PROC }, { "setgid", SUB_PROC },
	{ "setreuid", SUB_PROC }, { "setregid", SUB_PROC }, { "setresuid", SUB_PROC },
	{ "getresuid", SUB_PROC }, { "setresgid", SUB_PROC }, { "getresgid", SUB_PROC },
	{ "setfsuid", SUB_PROC }, { "setfsgid", SUB_PROC }, { "getgroups", SUB_PROC },
	{ "setgroups", SUB_PROC }, { "setpgid", SUB_PROC }, { "getpgid", SUB_PROC },
	{ "getpgrp", SUB_PROC }, { "setsid", SUB_PROC }, { "getsid", SUB_PROC },
	{ "times", SUB_PROC }, { "uname", SUB_PROC }, { "sethostname", SUB_PROC },
	{ "setdomainname", SUB_PROC }, { "getrlimit", SUB_PROC }, { "setrlimit", SUB_PROC },
	{ "prlimit64", SUB_PROC }, { "getrusage", SUB_PROC }, { "umask", SUB_PROC },
	{ "prctl", SUB_PROC }, { "sysinfo", SUB_PROC }, { "olduname", SUB_PROC },
	{ "oldolduname", SUB_PROC }, { "ugetrlimit", SUB_PROC },
	/* kernel/sys.c, kernel/groups.c: i386's 32-bit uid calls (the plain ones
	 * take 16-bit ids there, kernel/uid16.c) */
	{ "getuid32", SUB_PROC }, { "geteuid32", SUB_PROC }, { "getgid32", SUB_PROC },
	{ "getegid32", SUB_PROC }, { "setuid32", SUB_PROC }, { "setgid32", SUB_PROC },
	{ "setreuid32", SUB_PROC }, { "setregid32", SUB_PROC }, { "setresuid32", SUB_PROC },
	{ "getresuid32", SUB_PROC }, { "setresgid32", SUB_PROC }, { "getresgid32", SUB_PROC },
	{ "setfsuid32", SUB_PROC }, { "setfsgid32", SUB_PROC }, { "getgroups32", SUB_PROC },
	{ "setgroups32", SUB_PROC },
	/* kernel/pid.c, nsproxy.c, nstree.c, ptrace.c, kcmp.c, exec_domain.c, acct.c */
	{ "pidfd_open", SUB_PROC }, { "pidfd_getfd", SUB_PROC }, { "setns", SUB_PROC },
	{ "listns", SUB_PROC }, { "ptrace", SUB_PROC }, { "kcmp", SUB_PROC }, { "personality", SUB_PROC },
	{ "acct", SUB_PROC },
	/* arch/x86/kernel/: process_64.c, ldt.c, tls.c, ioport.c */
	{ "arch_prctl", SUB_PROC }, { "modify_ldt", SUB_PROC },
	{ "set_thread_area", SUB_PROC }, { "get_thread_area", SUB_PROC },
	{ "iopl", SUB_PROC }, { "ioperm", SUB_PROC },
	/* arch/x86/kernel/vm86_32.c */
	{ "vm86", SUB_PROC }, { "vm86old", SUB_PROC },

	/* kernel/sched/, kernel/rseq.c (rseq, rseq_slice_yield), kernel/sys.c
	 * (nice, getcpu) */
	{ "sched_setparam", SUB_SCHED }, { "sched_getparam", SUB_SCHED },
	{ "sched_setscheduler", SUB_SCHED }, { "sched_getscheduler", SUB_SCHED },
	{ "sched_get_priority_max", SUB_SCHED }, { "sched_get_priority_min", SUB_SCHED },
	{ "sched_rr_get_interval", SUB_SCHED }, { "sched_rr_get_interval_time64", SUB_SCHED },
	{ "sched_yield", SUB_SCHED }, { "sched_setaffinity", SUB_SCHED },
	{ "sched_getaffinity", SUB_SCHED }, { "sched_setattr", SUB_SCHED },
	{ "sched_getattr", SUB_SCHED }, { "membarrier", SUB_SCHED }, { "rseq", SUB_SCHED },
	{ "rseq_slice_yield", SUB_SCHED },
	{ "getpriority", SUB_SCHED }, { "setpriority", SUB_SCHED }, { "getcpu", SUB_SCHED },
	{ "nice", SUB_SCHED },
	/* the idle loop's, arch/i386/kernel/process.c until Linux 2.3 */
	{ "idle", SUB_SCHED },

	/* kernel/signal.c, arch/x86/kernel/signal.c (rt_sigreturn) */
	{ "kill", SUB_SIGNAL }, { "tkill", SUB_SIGNAL }, { "tgkill", SUB_SIGNAL },
	{ "rt_sigaction", SUB_SIGNAL }, { "rt_sigprocmask", SUB_SIGNAL },
	{ "rt_sigpending", SUB_SIGNAL }, { "rt_sigtimedwait", SUB_SIGNAL },
	{ "rt_sigtimedwait_time64", SUB_SIGNAL }, { "rt_sigqueueinfo", SUB_SIGNAL },
	{ "rt_tgsigqueueinfo", SUB_SIGNAL }, { "rt_sigsuspend", SUB_SIGNAL },
	{ "rt_sigreturn", SUB_SIGNAL }, { "sigaltstack", SUB_SIGNAL }, { "pause", SUB_SIGNAL },
	{ "restart_syscall", SUB_SIGNAL }, { "pidfd_send_signal", SUB_SIGNAL },
	/* kernel/signal.c, arch/x86/kernel/signal_32.c: the old (non-rt) calls */
	{ "signal", SUB_SIGNAL }, { "sigaction", SUB_SIGNAL }, { "sigprocmask", SUB_SIGNAL },
	{ "sigpending", SUB_SIGNAL }, { "sigsuspend", SUB_SIGNAL }, { "sigreturn", SUB_SIGNAL },
	{ "sgetmask", SUB_SIGNAL }, { "ssetmask", SUB_SIGNAL },

	/* net/socket.c */
	{ "socket", SUB_NET }, { "socketpair", SUB_NET }, { "bind", SUB_NET },
	{ "listen", SUB_NET }, { "accept", SUB_NET }, { "accept4", SUB_NET },
	{ "connect", SUB_NET }, { "getsockname", SUB_NET }, { "getpeername", SUB_NET },
	{ "sendto", SUB_NET }, { "recvfrom", SUB_NET }, { "sendmsg", SUB_NET },
	{ "recvmsg", SUB_NET }, { "sendmmsg", SUB_NET }, { "recvmmsg", SUB_NET },
	{ "recvmmsg_time64", SUB_NET }, { "shutdown", SUB_NET }, { "setsockopt", SUB_NET },
	{ "getsockopt", SUB_NET }, { "socketcall", SUB_NET },

	/* kernel/futex/ */
	{ "futex", SUB_FUTEX }, { "futex_time64", SUB_FUTEX }, { "futex_waitv", SUB_FUTEX },
	{ "futex_wake", SUB_FUTEX }, { "futex_wait", SUB_FUTEX },
	{ "futex_requeue", SUB_FUTEX }, { "set_robust_list", SUB_FUTEX },
	{ "get_robust_list", SUB_FUTEX },

	/* kernel/time/ */
	{ "time", SUB_TIME }, { "gettimeofday", SUB_TIME }, { "settimeofday", SUB_TIME },
	{ "adjtimex", SUB_TIME }, { "clock_adjtime", SUB_TIME }, { "clock_adjtime64", SUB_TIME },
	{ "clock_gettime", SUB_TIME }, { "clock_gettime64", SUB_TIME },
	{ "clock_settime", SUB_TIME }, { "clock_settime64", SUB_TIME },
	{ "clock_getres", SUB_TIME }, { "clock_getres_time64", SUB_TIME },
	{ "clock_nanosleep", SUB_TIME }, { "clock_nanosleep_time64", SUB_TIME },
	{ "nanosleep", SUB_TIME }, { "timer_create", SUB_TIME }, { "timer_settime", SUB_TIME },
	{ "timer_settime64", SUB_TIME }, { "timer_gettime", SUB_TIME },
	{ "timer_gettime64", SUB_TIME }, { "timer_getoverrun", SUB_TIME },
	{ "timer_delete", SUB_TIME }, { "alarm", SUB_TIME }, { "getitimer", SUB_TIME },
	{ "setitimer", SUB_TIME }, { "stime", SUB_TIME },

	/* ipc/ */
	{ "msgget", SUB_IPC }, { "msgsnd", SUB_IPC }, { "msgrcv", SUB_IPC },
	{ "msgctl", SUB_IPC }, { "semget", SUB_IPC }, { "semop", SUB_IPC },
	{ "semctl", SUB_IPC }, { "semtimedop", SUB_IPC }, { "semtimedop_time64", SUB_IPC },
	{ "shmget", SUB_IPC }, { "shmat", SUB_IPC }, { "shmdt", SUB_IPC },
	{ "shmctl", SUB_IPC }, { "mq_open", SUB_IPC }, { "mq_unlink", SUB_IPC },
	{ "mq_timedsend", SUB_IPC }, { "mq_timedsend_time64", SUB_IPC },
	{ "mq_timedreceive", SUB_IPC }, { "mq_timedreceive_time64", SUB_IPC },
	{ "mq_notify", SUB_IPC }, { "mq_getsetattr", SUB_IPC },
	/* ipc/syscall.c: i386's one entry for them all */
	{ "ipc", SUB_IPC },

	/* kernel/capability.c */
	{ "capget", SUB_CAP }, { "capset", SUB_CAP },

	/* security/keys/, security/landlock/, security/lsm_syscalls.c,
	 * kernel/seccomp.c */
	{ "add_key", SUB_SECURITY }, { "request_key", SUB_SECURITY },
	{ "keyctl", SUB_SECURITY }, { "landlock_create_ruleset", SUB_SECURITY },
	{ "landlock_add_rule", SUB_SECURITY }, { "landlock_restrict_self", SUB_SECURITY },
	{ "lsm_get_self_attr", SUB_SECURITY }, { "lsm_set_self_attr", SUB_SECURITY },
	{ "lsm_list_modules", SUB_SECURITY }, { "seccomp", SUB_SECURITY },

	/* io_uring/ */
	{ "io_uring_setup", SUB_IO_URING }, { "io_uring_enter", SUB_IO_URING },
	{ "io_uring_register", SUB_IO_URING },

	/* kernel/bpf/ */
	{ "bpf", SUB_BPF },

	/* kernel/events/, arch/x86/kernel/uprobes.c */
	{ "perf_event_open", SUB_PERF }, { "uretprobe", SUB_PERF }, { "uprobe", SUB_PERF },

	/* kernel/module/; the first three are the removed Linux 2.4 interface */
	{ "create_module", SUB_MODULE }, { "get_kernel_syms", SUB_MODULE },
	{ "query_module", SUB_MODULE }, { "init_module", SUB_MODULE },
	{ "finit_module", SUB_MODULE }, { "delete_module", SUB_MODULE },

	/* kernel/reboot.c, kexec.c, kexec_file.c, printk/, sysctl_binary.c
	 * (removed), drivers/char/random.c, arch/riscv/kernel/sys_hwprobe.c */
	{ "reboot", SUB_SYSTEM }, { "kexec_load", SUB_SYSTEM },
	{ "kexec_file_load", SUB_SYSTEM }, { "syslog", SUB_SYSTEM }, { "_sysctl", SUB_SYSTEM },
	{ "getrandom", SUB_SYSTEM }, { "riscv_hwprobe", SUB_SYSTEM },

	/*
	 * Reserved numbers that never had an implementation in mainline Linux,
	 * so no source file to place them by (they return ENOSYS): AFS, STREAMS,
	 * the LSM multiplexer, the TUX web server, Linux-VServer; and i386's
	 * slots for Version 7 Unix calls Linux never implemented (and MPX's).
	 */
	{ "afs_syscall", SUB_OTHER }, { "getpmsg", SUB_OTHER }, { "putpmsg", SUB_OTHER },
	{ "security", SUB_OTHER }, { "tuxcall", SUB_OTHER }, { "vserver", SUB_OTHER },
	{ "break", SUB_OTHER }, { "stty", SUB_OTHER }, { "gtty", SUB_OTHER },
	{ "ftime", SUB_OTHER }, { "prof", SUB_OTHER }, { "lock", SUB_OTHER },
	{ "mpx", SUB_OTHER }, { "ulimit", SUB_OTHER }, { "profil", SUB_OTHER },
};

/* A table of names by number: one per ABI. */
struct abi_names {
	const char *const *names;
	const unsigned *count;
};

static const struct abi_names abi_names[SC_ABI_NR] = {
	[SC_ABI_NATIVE] = { syscall_names, &syscall_names_count },
	[SC_ABI_X32] = { syscall_names_x32, &syscall_names_x32_count },
	[SC_ABI_COMPAT] = { syscall_names_compat, &syscall_names_compat_count },
};

/* enum subsystem by number, per ABI, as many as its names; NULL until init. */
static unsigned char *sub_by_nr[SC_ABI_NR];

/* The names being sorted by syscalls_init. */
static const char *const *sort_names;

/* Numbers of the named system calls, sorted by name, for bsearch at init. */
static int cmp_nr_by_name(const void *a, const void *b)
{
	return strcmp(sort_names[*(const unsigned *)a], sort_names[*(const unsigned *)b]);
}

static int cmp_name_nr(const void *key, const void *elem)
{
	return strcmp(key, sort_names[*(const unsigned *)elem]);
}

static unsigned char *subsystems_of(const char *const *names, unsigned count)
{
	unsigned char *sub = xmalloc(count ? count : 1);
	unsigned *by_name, nr, n = 0;
	size_t i;

	memset(sub, SUB_OTHER, count ? count : 1);
	by_name = xcalloc(count ? count : 1, sizeof(*by_name));
	for (nr = 0; nr < count; nr++)
		if (names[nr])
			by_name[n++] = nr;
	sort_names = names;
	if (n)
		sort_array(by_name, n, sizeof(*by_name), cmp_nr_by_name);

	for (i = 0; i < ARRAY_SIZE(syscall_table); i++) {
		const unsigned *hit = n ? bsearch(syscall_table[i].name, by_name, n,
						  sizeof(*by_name), cmp_name_nr) : NULL;

		if (hit)
			sub[*hit] = syscall_table[i].sub;
	}
	free(by_name);
	return sub;
}

void syscalls_init(void)
{
	int abi;

	if (sub_by_nr[SC_ABI_NATIVE])
		return;
	/* The native last: it says that all are done. */
	for (abi = SC_ABI_NR - 1; abi >= 0; abi--)
		sub_by_nr[abi] = subsystems_of(abi_names[abi].names, *abi_names[abi].count);
}

const char *syscall_name(unsigned nr, char *buf, size_t n)
{
	const struct abi_names *t = &abi_names[sc_key_abi(nr)];
	unsigned num = sc_key_nr(nr);

	if (num < *t->count && t->names[num])
		return t->names[num];
	snprintf(buf, n, "syscall_%u", num);
	return buf;
}

const char *syscall_abi_name(unsigned nr)
{
	switch (sc_key_abi(nr)) {
	case SC_ABI_X32:
		return "x32";
	case SC_ABI_COMPAT:
		return "32-bit";
	default:
		return sizeof(long) == 8 ? "64-bit" : "32-bit";
	}
}

const char *syscall_label(unsigned nr, char *buf, size_t n)
{
	char nb[SYSCALL_NAME_BUF];
	const char *name = syscall_name(nr, nb, sizeof(nb));

	if (sc_key_abi(nr) == SC_ABI_NATIVE)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "%s (%s)", name, syscall_abi_name(nr));
	return buf;
}

enum subsystem syscall_subsystem(unsigned nr)
{
	enum sc_abi abi = sc_key_abi(nr);
	unsigned num = sc_key_nr(nr);

	if (!sub_by_nr[SC_ABI_NATIVE])
		syscalls_init();
	return num < *abi_names[abi].count ? (enum subsystem)sub_by_nr[abi][num] : SUB_OTHER;
}

enum subsystem syscall_subsystem_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(syscall_table); i++)
		if (strcmp(syscall_table[i].name, name) == 0)
			return (enum subsystem)syscall_table[i].sub;
	return SUB_OTHER;
}

const char *subsystem_name(enum subsystem sub)
{
	return (unsigned)sub < SUB_NR ? subsystem_names[sub] : subsystem_names[SUB_OTHER];
}

const char *errno_hint(int err)
{
	/* What each kernel-internal code means for the program that made the call. */
	static const char *const hint[] = {
		"interrupted by a signal: restarted, or EINTR",		/* ERESTARTSYS */
		"interrupted by a signal: always restarted",		/* ERESTARTNOINTR */
		"interrupted by a signal: EINTR if a handler ran",	/* ERESTARTNOHAND */
		"no such ioctl: the program sees ENOTTY",		/* ENOIOCTLCMD */
		"interrupted sleep, resumed by restart_syscall",	/* ERESTART_RESTARTBLOCK */
		"kernel-internal: a driver's probe deferred",		/* EPROBE_DEFER */
		"kernel-internal: a stale open, retried",		/* EOPENSTALE */
		"kernel-internal: unknown parameter",			/* ENOPARAM */
	};

	if (err < 0 && err != INT_MIN)
		err = -err;
	if (err >= 512 && err < 512 + (int)ARRAY_SIZE(hint))
		return hint[err - 512];
	return NULL;
}

const char *errno_name(int err, char *buf, size_t n)
{
	const char *name = NULL;

	/* The kernel's own, which a trace sees before the restart logic hides them. */
	static const char *const kernel_only[] = {
		"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
		"ERESTART_RESTARTBLOCK", "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM",
	};

	if (err < 0 && err != INT_MIN)
		err = -err;
	if (err >= 512 && err < 512 + (int)ARRAY_SIZE(kernel_only))
		return kernel_only[err - 512];
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
	name = strerrorname_np(err);
#endif
	if (name)
		return name;
	snprintf(buf, n, "E%d", err);
	return buf;
}
