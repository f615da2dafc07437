// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/flood.c - workloads for bench/trace.sh (the cost of tracing).
 *
 *   flood getppid SECONDS [NPROCS]
 *       NPROCS processes (default: one per CPU this process may run on), each
 *       pinned to its own CPU, start together and call getppid() in a loop for
 *       SECONDS. Prints: ns=<ns per call> calls=<total> procs=<n> secs=<...>
 *       where ns = the sum of the processes' loop times / the sum of their
 *       calls (each has a CPU of its own: the time a CPU spends per call).
 *   flood open SECONDS DIR [NPROCS]
 *       The same with open("DIR/f.N") + read(64 bytes) + close per iteration
 *       (DIR on tmpfs, e.g. /dev/shm; each process its own small file, made
 *       and removed here). ns is per iteration (3 system calls).
 *   flood pingpong SECONDS [NPAIRS]
 *       NPAIRS pairs of processes (default: one per two CPUs, at least one),
 *       the two of a pair pinned to two CPUs, passing one byte back and forth
 *       over two pipes: each round trip is two sleeps, two wakeups and two
 *       context switches a side (the scheduler events' worst case). ns is per
 *       round trip, of the side that starts them.
 *   flood tcp64 SECONDS [NPAIRS]
 *       NPAIRS TCP connections on 127.0.0.1 (default: one per CPU), each a
 *       sender and a receiver pinned to two CPUs (pair i: the sender on CPU
 *       i, the receiver on CPU i+1), so every CPU sends and receives. The
 *       sender writes 64-byte messages with send() (TCP_NODELAY: a segment
 *       each, as a small-message protocol has), the receiver reads them with
 *       recv() of at most 64 bytes, so one send and about one recv a message
 *       (two sock events). The sender stops after SECONDS with shutdown();
 *       the receiver reads to the end, and every byte sent must have come.
 *       ns is per message: the senders' loop times / all messages (with one
 *       sender per CPU, the time a CPU spends sending and receiving one).
 *       The output adds bytes=<received: both directions' bytes are this
 *       each> recvs=<recv calls> pids=<the flood processes, comma-separated>.
 *   flood firstline -- COMMAND [ARG ...]
 *       Runs COMMAND with stdout on a pipe and prints, in ms from just before
 *       fork: first=<first byte on stdout> row=<first line that starts with a
 *       number, after blanks: ktop's first process row> exit=<COMMAND reaped>
 *       status=<exit status>. What COMMAND prints is thrown away.
 *
 * The loops run for a time, not a count: a tracer that makes each call 1000x
 * slower (strace) gets a run of the same length, and the clock is read only
 * every 256 calls (every 32 iterations for open). Every process started here
 * dies with its parent (PR_SET_PDEATHSIG): with the script, strace or perf
 * that started it, so a killed run leaves nothing behind; on SIGTERM, SIGINT
 * or SIGHUP the parent kills and reaps its flood processes before dying.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROCS 256

/* The flood processes, for the parent's SIGTERM/SIGINT handler. */
static pid_t kids[MAX_PROCS];
static volatile sig_atomic_t nkids;

struct result {
	uint64_t calls;	/* loop iterations */
	uint64_t ns;	/* loop time */
	uint64_t bytes;	/* tcp64: bytes sent, or received */
	uint64_t recvs;	/* tcp64: recv calls that returned bytes */
	int err;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "flood: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void usage(void)
{
	fputs("usage: flood getppid SECONDS [NPROCS]\n"
	      "       flood open SECONDS DIR [NPROCS]\n"
	      "       flood pingpong SECONDS [NPAIRS]\n"
	      "       flood tcp64 SECONDS [NPAIRS]\n"
	      "       flood firstline -- COMMAND [ARG ...]\n", stderr);
	exit(2);
}

static void loop_getppid(uint64_t dur, struct result *r)
{
	uint64_t t0 = now_ns(), t, n = 0;
	int i;

	do {
		for (i = 0; i < 256; i++) {
			pid_t p = getppid();	/* glibc does not cache it: one syscall */

			__asm__ volatile("" : : "r"(p));
		}
		n += 256;
		t = now_ns();
	} while (t - t0 < dur);
	r->calls = n;
	r->ns = t - t0;
}

static void loop_open(uint64_t dur, const char *path, struct result *r)
{
	uint64_t t0, t, n = 0;
	char buf[64];
	int i, fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, "a small file on tmpfs, read whole on each iteration\n", 52) != 52) {
		r->err = errno ? errno : EIO;
		return;
	}
	close(fd);
	t0 = now_ns();
	do {
		for (i = 0; i < 32; i++) {
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0 || read(fd, buf, sizeof(buf)) != 52) {
				r->err = errno ? errno : EIO;
				unlink(path);
				return;
			}
			close(fd);
		}
		n += 32;
		t = now_ns();
	} while (t - t0 < dur);
	r->calls = n;
	r->ns = t - t0;
	unlink(path);
}

/* One side of a ping-pong pair: @first starts each round trip (and times them). */
static void loop_pingpong(uint64_t dur, int in, int out, bool first, struct result *r)
{
	uint64_t t0 = now_ns(), t = t0, n = 0;
	char c = 'p';
	int i;

	do {
		for (i = 0; i < 64; i++) {
			if (first && write(out, &c, 1) != 1)
				goto fail;
			if (read(in, &c, 1) != 1)
				goto fail;
			if (!first && !c)
				goto done;
			if (!first && write(out, &c, 1) != 1)
				goto fail;
		}
		n += 64;
		t = now_ns();
		/* The first side says when to stop: a zero byte after the last round trip. */
		if (first && t - t0 >= dur) {
			c = 0;
			if (write(out, &c, 1) != 1)
				goto fail;
			break;
		}
	} while (1);
done:
	r->calls = first ? n : 0;
	r->ns = first ? t - t0 : 0;
	return;
fail:
	r->err = errno ? errno : EIO;
}

#define MSG_LEN 64

/* tcp64's sender: 64-byte sends for @dur, then the end of the stream. */
static void loop_tcp_send(uint64_t dur, int fd, struct result *r)
{
	uint64_t t0 = now_ns(), t, n = 0;
	char msg[MSG_LEN];
	int i;

	memset(msg, 'm', sizeof(msg));
	do {
		for (i = 0; i < 64; i++)
			if (send(fd, msg, sizeof(msg), 0) != (ssize_t)sizeof(msg))
				goto fail;
		n += 64;
		t = now_ns();
	} while (t - t0 < dur);
	if (shutdown(fd, SHUT_WR))
		goto fail;
	r->calls = n;
	r->ns = t - t0;
	r->bytes = n * MSG_LEN;
	return;
fail:
	r->err = errno ? errno : EIO;
}

/* tcp64's receiver: recv() of at most a message until the sender's end. */
static void loop_tcp_recv(int fd, struct result *r)
{
	char buf[MSG_LEN];
	ssize_t got;

	while ((got = recv(fd, buf, sizeof(buf), 0)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			r->err = errno;
			return;
		}
		r->bytes += (uint64_t)got;
		r->recvs++;
	}
}

/*
 * A connected pair on 127.0.0.1 through @lfd (listening): @c the sender's
 * end (TCP_NODELAY), @s the receiver's.
 */
static void tcp_pair(int lfd, const struct sockaddr_in *addr, int *c, int *s)
{
	int one = 1;

	*c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*c < 0)
		die("socket");
	if (connect(*c, (const struct sockaddr *)addr, sizeof(*addr)))
		die("connect 127.0.0.1");
	*s = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (*s < 0)
		die("accept");
	if (setsockopt(*c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("TCP_NODELAY");
}

/* A listening socket on 127.0.0.1, a port the kernel picks, in @addr. */
static int tcp_listen(struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket");
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) || listen(fd, MAX_PROCS) ||
	    getsockname(fd, (struct sockaddr *)addr, &len))
		die("listen on 127.0.0.1");
	return fd;
}

static int cpus_allowed(int *cpus, int max)
{
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity");
	for (i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	return n;
}

/* Stopped early: end the flood processes and reap them (no zombie left to init). */
static void on_stop(int sig)
{
	int i;

	for (i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < nkids; i++)
		waitpid(kids[i], NULL, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

enum mode { M_GETPPID, M_OPEN, M_PINGPONG, M_TCP64 };

static const char *mode_name(enum mode mode)
{
	switch (mode) {
	case M_OPEN: return "open/read";
	case M_PINGPONG: return "pingpong";
	case M_TCP64: return "tcp64";
	default: return "getppid";
	}
}

static int run_flood(enum mode mode, double secs, const char *dir, int nprocs)
{
	int cpus[MAX_PROCS], ncpus = cpus_allowed(cpus, MAX_PROCS);
	int ready[2], go[2], res[2], i, failed = 0, open_mode = mode == M_OPEN;
	int pp[MAX_PROCS][2];	/* pingpong: pipe i carries what process i writes */
	int sk[MAX_PROCS];	/* tcp64: process i's socket (even: sender, odd: receiver) */
	uint64_t dur = (uint64_t)(secs * 1e9), calls = 0, ns = 0, sent = 0, got = 0, recvs = 0;
	bool paired = mode == M_PINGPONG || mode == M_TCP64;
	struct sockaddr_in addr;
	char c;

	if (nprocs <= 0)
		nprocs = mode == M_PINGPONG ? (ncpus > 1 ? ncpus / 2 : 1) : ncpus;
	if (paired)
		nprocs *= 2;	/* pairs */
	if (nprocs > MAX_PROCS || ncpus <= 0)
		usage();
	for (i = 0; mode == M_PINGPONG && i < nprocs; i++)
		if (pipe2(pp[i], O_CLOEXEC))
			die("pipe");
	if (mode == M_TCP64) {
		int lfd = tcp_listen(&addr);

		for (i = 0; i < nprocs; i += 2)
			tcp_pair(lfd, &addr, &sk[i], &sk[i + 1]);
		close(lfd);
	}
	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC) || pipe2(res, O_CLOEXEC))
		die("pipe");
	for (i = 0; i < nprocs; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (kids[i] == 0) {
			struct result r = { 0 };
			char path[4096];
			cpu_set_t set;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			CPU_ZERO(&set);
			/* tcp64: pair i/2's sender on CPU i/2, its receiver on the next. */
			CPU_SET(cpus[(mode == M_TCP64 ? i / 2 + (i & 1) : i) % ncpus], &set);
			sched_setaffinity(0, sizeof(set), &set);
			close(ready[0]);
			close(go[1]);
			close(res[0]);
			if (write(ready[1], "r", 1) != 1)
				_exit(2);
			/* All start when the parent closes the go pipe. */
			if (read(go[0], &c, 1) < 0)
				_exit(2);
			if (mode == M_TCP64) {
				if (i & 1)
					loop_tcp_recv(sk[i], &r);
				else
					loop_tcp_send(dur, sk[i], &r);
			} else if (mode == M_PINGPONG) {
				/* Reads its partner's pipe (i ^ 1), writes its own. */
				loop_pingpong(dur, pp[i ^ 1][0], pp[i][1], !(i & 1), &r);
			} else if (open_mode) {
				snprintf(path, sizeof(path), "%s/f.%d", dir, i);
				loop_open(dur, path, &r);
			} else {
				loop_getppid(dur, &r);
			}
			if (write(res[1], &r, sizeof(r)) != sizeof(r))
				_exit(2);
			_exit(r.err ? 1 : 0);
		}
	}
	nkids = nprocs;
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	signal(SIGHUP, on_stop);
	close(ready[1]);
	close(go[0]);
	close(res[1]);
	/* The parent's copies: the flood's are the only ends (the stream's end is shutdown's). */
	for (i = 0; mode == M_TCP64 && i < nprocs; i++)
		close(sk[i]);
	for (i = 0; i < nprocs; i++)
		if (read(ready[0], &c, 1) != 1)
			die("a flood process did not start");
	close(go[1]);
	for (i = 0; i < nprocs; i++) {
		struct result r;

		if (read(res[0], &r, sizeof(r)) != sizeof(r)) {
			failed = 1;
			break;
		}
		if (r.err) {
			errno = r.err;
			fprintf(stderr, "flood: %s: %s\n", mode_name(mode), strerror(errno));
			failed = 1;
		}
		calls += r.calls;
		ns += r.ns;
		/* tcp64: a receiver's result has its recv calls (none: nothing received). */
		if (r.recvs) {
			got += r.bytes;
			recvs += r.recvs;
		} else {
			sent += r.bytes;
		}
	}
	for (i = 0; i < nprocs; i++) {
		int st;

		if (waitpid(kids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	}
	if (!failed && sent != got) {
		fprintf(stderr, "flood: tcp64: %llu bytes sent, %llu received\n",
			(unsigned long long)sent, (unsigned long long)got);
		failed = 1;
	}
	if (failed || !calls) {
		fprintf(stderr, "flood: a flood process failed\n");
		return 1;
	}
	/* secs: of the processes that time their loop (pingpong's, tcp64's first sides). */
	printf("ns=%.2f calls=%llu procs=%d secs=%.3f", (double)ns / (double)calls,
	       (unsigned long long)calls, nprocs, (double)ns / 1e9 / (paired ? nprocs / 2 : nprocs));
	if (mode == M_TCP64) {
		printf(" bytes=%llu recvs=%llu pids=", (unsigned long long)got, (unsigned long long)recvs);
		for (i = 0; i < nprocs; i++)
			printf("%s%d", i ? "," : "", (int)kids[i]);
	}
	printf("\n");
	return 0;
}

static int run_firstline(char **argv)
{
	uint64_t t0, first = 0, row = 0, end;
	int p[2], st, bol = 1, blank = 1;
	char buf[65536];
	ssize_t n, i;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		die("pipe");
	t0 = now_ns();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while ((n = read(p[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("read");
		}
		if (!first)
			first = now_ns();
		/* A line whose first non-blank character is a digit: a process row. */
		for (i = 0; i < n && !row; i++) {
			char ch = buf[i];

			if (ch == '\n') {
				bol = 1;
				blank = 1;
			} else if (bol && blank && ch == ' ') {
				continue;
			} else {
				if (bol && blank && ch >= '0' && ch <= '9')
					row = now_ns();
				bol = 0;
				blank = 0;
			}
		}
	}
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	end = now_ns();
	printf("first=%.2f row=%.2f exit=%.2f status=%d\n",
	       first ? (double)(first - t0) / 1e6 : -1.0, row ? (double)(row - t0) / 1e6 : -1.0,
	       (double)(end - t0) / 1e6, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}

int main(int argc, char **argv)
{
	double secs;

	/* Never outlive whoever started us (the script, strace, perf). */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "firstline")) {
		if (argc < 4 || strcmp(argv[2], "--"))
			usage();
		return run_firstline(argv + 3);
	}
	if (argc < 3)
		usage();
	secs = atof(argv[2]);
	if (secs <= 0 || secs > 600)
		usage();
	if (!strcmp(argv[1], "getppid") && argc <= 4)
		return run_flood(M_GETPPID, secs, NULL, argc == 4 ? atoi(argv[3]) : 0);
	if (!strcmp(argv[1], "open") && (argc == 4 || argc == 5))
		return run_flood(M_OPEN, secs, argv[3], argc == 5 ? atoi(argv[4]) : 0);
	if (!strcmp(argv[1], "pingpong") && argc <= 4)
		return run_flood(M_PINGPONG, secs, NULL, argc == 4 ? atoi(argv[3]) : 0);
	if (!strcmp(argv[1], "tcp64") && argc <= 4)
		return run_flood(M_TCP64, secs, NULL, argc == 4 ? atoi(argv[3]) : 0);
	usage();
	return 2;
}
