// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workloads with exactly known system calls, errors, signals and context
 * switches, for tests/cli/trace.bats.
 *
 *     tracewl READY GATE MODE [N]
 *     tracewl nr NAME...          print the numbers of these system calls
 *
 * Sets itself up (every process of the workload), writes its pids to READY
 * (written to READY.tmp, then renamed), and blocks in read() on the FIFO GATE
 * (opened read-write: never EOF, never blocks the writer). The test waits until
 * each process is switched out in its expected system call (/proc/PID/syscall),
 * takes ktop's baseline, then writes one byte to GATE. After the work the
 * workload writes "done\n" to stdout and every process blocks again in read()
 * until it is killed. Between the gate and that last read, each mode makes
 * exactly these system calls (raw syscall(2) where glibc could add any):
 *
 *   fails N         P: read(GATE), N x openat(missing file) = ENOENT, write(done):
 *                   N + 2 calls, N errors.
 *   fails-child N   P: read(GATE), fork, wait4, write(done): 4 calls, no error.
 *                   Its child C (born and gone after the gate): N x openat = ENOENT,
 *                   exit_group: N + 1 calls, N errors. READY: P.
 *   signals N       P sends SIGUSR1 to its child C N times, each only after C has
 *                   run its handler and said so through a pipe (never two pending).
 *                   P: sig_sent N, sig_recv 0; C: sig_recv N, sig_sent 0. READY: P C.
 *   pingpong N      P and C (processes): N round trips of one byte through two
 *                   pipes. Each side writes only once the other one is switched out
 *                   in its read() (seen in /proc/TID/syscall, which answers only for
 *                   a task that is not running): each side makes at least N
 *                   voluntary switches. READY: P C.
 *   pingpong-threads N   the same between two threads of one process. READY: P.
 *   mix N M K       the signals mode's P and C, P doing more after the gate:
 *                   P: read(GATE), N x openat(missing file) = ENOENT, M x getppid,
 *                   K x (kill(C, SIGUSR1), read(ack)), write(done): read K + 1,
 *                   openat N (N ENOENT), getppid M, kill K, write 1.
 *                   C: K x (rt_sigsuspend = ERESTARTNOHAND, rt_sigreturn = EINTR
 *                   (the interrupted call's, restored), write): 3K calls, 2K errors.
 *                   K SIGUSR1 from P to C, delivered. READY: P C.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int gate_fd = -1;

static void die(const char *what)
{
	fprintf(stderr, "tracewl: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void ready(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		die(tmp);
	if (rename(tmp, path))
		die("rename");
}

/* One byte from @fd; the call the test sees the process blocked in. */
static void read1(int fd)
{
	char c;

	if (syscall(SYS_read, fd, &c, 1) != 1)
		die("read");
}

static void write1(int fd)
{
	char c = 'x';

	if (syscall(SYS_write, fd, &c, 1) != 1)
		die("write");
}

static void done_and_block(void)
{
	static const char msg[] = "done\n";

	if (syscall(SYS_write, 1, msg, sizeof(msg) - 1) != (long)sizeof(msg) - 1)
		die("write done");
	for (;;)
		read1(gate_fd);		/* nobody writes again: blocks until killed */
}

static void failing_opens(long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (syscall(SYS_openat, AT_FDCWD, "/nonexistent-ktop-test/missing", O_RDONLY) != -1 ||
		    errno != ENOENT)
			die("openat of a missing file did not fail with ENOENT");
}

/* ---------------------------------------------------------------- signals */

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void getppids(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* The signals mode, P making @nopen failed opens and @nppid getppid calls first. */
static void signals_mix(const char *readyp, long n, long nopen, long nppid)
{
	int ack[2];
	char text[64];
	pid_t c;
	long i;

	if (pipe(ack))
		die("pipe");
	c = fork();
	if (c < 0)
		die("fork");
	if (c == 0) {
		struct sigaction sa;
		sigset_t block, none;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sigemptyset(&block);
		sigaddset(&block, SIGUSR1);
		sigemptyset(&none);
		sigprocmask(SIG_BLOCK, &block, NULL);
		sigaction(SIGUSR1, &sa, NULL);
		write1(ack[1]);		/* set up */
		for (i = 0; i < n; i++) {
			while (got == i)
				sigsuspend(&none);
			write1(ack[1]);
		}
		for (;;)
			read1(gate_fd);
	}
	read1(ack[0]);
	snprintf(text, sizeof(text), "%d %d\n", (int)getpid(), (int)c);
	ready(readyp, text);
	read1(gate_fd);
	failing_opens(nopen);
	getppids(nppid);
	for (i = 0; i < n; i++) {
		if (syscall(SYS_kill, c, SIGUSR1))
			die("kill");
		read1(ack[0]);
	}
	done_and_block();
}

static void signals(const char *readyp, long n)
{
	signals_mix(readyp, n, 0, 0);
}

/* ---------------------------------------------------------------- ping-pong */

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/*
 * Until task @tid is switched out in read(@fd): /proc/TID/syscall shows the
 * call only for a task that is not running (else "running").
 */
static void wait_blocked_in_read(pid_t tgid, pid_t tid, int fd)
{
	char path[96], buf[256];
	long nr, arg;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)tgid, (int)tid);
	for (;;) {
		f = open(path, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			die(path);
		n = read(f, buf, sizeof(buf) - 1);
		close(f);
		if (n > 0) {
			buf[n] = '\0';
			if (sscanf(buf, "%ld 0x%lx", &nr, &arg) == 2 && nr == SYS_read && arg == fd)
				return;
		}
		sched_yield();
	}
}

struct side {
	pid_t tgid, peer_tgid, peer_tid;
	int in, out, peer_in;	/* read from in, write to out; the peer reads peer_in */
	long n;
	bool first;		/* writes first */
};

static void play(const struct side *s)
{
	long i;

	for (i = 0; i < s->n; i++) {
		if (!s->first)
			read1(s->in);
		wait_blocked_in_read(s->peer_tgid, s->peer_tid, s->peer_in);
		write1(s->out);
		if (s->first)
			read1(s->in);
	}
}

static struct side thread_side;
static volatile pid_t thread_tid;

static void *thread_main(void *arg)
{
	(void)arg;
	thread_tid = gettid_();
	play(&thread_side);
	for (;;)
		read1(thread_side.in);
	return NULL;
}

static void pingpong(const char *readyp, long n, bool threads)
{
	int a[2], b[2];		/* a: P -> C, b: C -> P */
	struct side p = { 0 };
	char text[64];

	if (pipe(a) || pipe(b))
		die("pipe");
	p.tgid = getpid();
	p.in = b[0];
	p.out = a[1];
	p.peer_in = a[0];
	p.n = n;
	p.first = true;
	thread_side = (struct side){ .in = a[0], .out = b[1], .peer_in = b[0], .n = n,
				     .peer_tgid = p.tgid, .peer_tid = p.tgid };
	if (threads) {
		pthread_t th;

		thread_side.tgid = p.tgid;
		if (pthread_create(&th, NULL, thread_main, NULL))
			die("pthread_create");
		while (!thread_tid)
			sched_yield();
		p.peer_tgid = p.tgid;
		p.peer_tid = thread_tid;
		snprintf(text, sizeof(text), "%d\n", (int)p.tgid);
	} else {
		pid_t c = fork();

		if (c < 0)
			die("fork");
		if (c == 0) {
			thread_side.tgid = getpid();
			play(&thread_side);
			for (;;)
				read1(thread_side.in);
		}
		p.peer_tgid = p.peer_tid = c;
		snprintf(text, sizeof(text), "%d %d\n", (int)p.tgid, (int)c);
	}
	ready(readyp, text);
	read1(gate_fd);
	play(&p);
	done_and_block();
}

/* ---------------------------------------------------------------- main */

static void print_nrs(int argc, char **argv)
{
	static const struct { const char *name; long nr; } t[] = {
		{ "read", SYS_read }, { "rt_sigsuspend", SYS_rt_sigsuspend },
		{ "wait4", SYS_wait4 }, { "openat", SYS_openat },
		{ "getppid", SYS_getppid }, { "kill", SYS_kill }, { "write", SYS_write },
		{ "rt_sigreturn", SYS_rt_sigreturn },
	};
	int i;
	size_t k;

	for (i = 0; i < argc; i++) {
		for (k = 0; k < sizeof(t) / sizeof(t[0]); k++)
			if (!strcmp(argv[i], t[k].name))
				break;
		if (k == sizeof(t) / sizeof(t[0])) {
			fprintf(stderr, "tracewl: unknown syscall %s\n", argv[i]);
			exit(2);
		}
		printf("%s%ld", i ? " " : "", t[k].nr);
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	const char *readyp, *mode;
	char text[64];
	long n;

	if (argc >= 2 && !strcmp(argv[1], "nr")) {
		print_nrs(argc - 2, argv + 2);
		return 0;
	}
	if (argc < 4) {
		fputs("usage: tracewl READY GATE MODE [N] | tracewl nr NAME...\n", stderr);
		return 2;
	}
	readyp = argv[1];
	mode = argv[3];
	n = argc > 4 ? atol(argv[4]) : 0;
	gate_fd = open(argv[2], O_RDWR | O_CLOEXEC);
	if (gate_fd < 0)
		die(argv[2]);
	snprintf(text, sizeof(text), "%d\n", (int)getpid());

	if (!strcmp(mode, "fails")) {
		ready(readyp, text);
		read1(gate_fd);
		failing_opens(n);
		done_and_block();
	} else if (!strcmp(mode, "fails-child")) {
		long c;
		int st;

		ready(readyp, text);
		read1(gate_fd);
		/* The raw call: glibc's fork() makes calls of its own in the child. */
#ifdef SYS_fork
		c = syscall(SYS_fork);
#else
		c = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
		if (c < 0)
			die("fork");
		if (c == 0) {
			failing_opens(n);
			syscall(SYS_exit_group, 0);
		}
		if (syscall(SYS_wait4, c, &st, 0, NULL) != c || !WIFEXITED(st) || WEXITSTATUS(st))
			die("wait4");
		done_and_block();
	} else if (!strcmp(mode, "signals")) {
		signals(readyp, n);
	} else if (!strcmp(mode, "mix") && argc == 7) {
		signals_mix(readyp, atol(argv[6]), n, atol(argv[5]));
	} else if (!strcmp(mode, "pingpong")) {
		pingpong(readyp, n, false);
	} else if (!strcmp(mode, "pingpong-threads")) {
		pingpong(readyp, n, true);
	} else {
		fprintf(stderr, "tracewl: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}
