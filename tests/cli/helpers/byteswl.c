// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workloads of known bytes for tests/cli/bytes.bats: each reports its own
 * counts (what it asked the kernel, and its /proc/self/io) so that ktop's
 * numbers are compared with the process's truth, not with a guess. REPORT
 * must be on a file system without block I/O (tmpfs): its writes are not
 * counted then.
 *
 *   byteswl disk-die FILE BYTES READ REPORT
 *	write BYTES at the start of FILE (1 MiB calls; over what it holds,
 *	not truncated), fsync, read READ bytes of it back
 *	with O_DIRECT (asked of the block layer: read_bytes), write
 *	"PID read_bytes write_bytes" of /proc/self/io to REPORT, exit.
 *   byteswl disk-live FILE GO REPORT
 *	report "PID read_bytes write_bytes" of /proc/self/io, wait until GO
 *	exists, then three times: write 1 MiB, fsync, read it back (O_DIRECT),
 *	sleep 0.3 s; report the second line, and sleep until killed.
 *   byteswl tcp SEND ANSWER REPORT [HOW FILE]
 *	a server (this process) and a client (its child) over TCP on
 *	127.0.0.1: the client sends SEND bytes, the server answers ANSWER bytes;
 *	REPORT gets "server PID TX RX PORT RETRANS" and "client PID TX RX PORT
 *	RETRANS": the sums of what their calls returned, the server's port, and
 *	the kernel's count of the segments the socket retransmitted
 *	(TCP_INFO's tcpi_total_retrans, read just before its close). Both exit. HOW: send (the default);
 *	sendfile or splice (through a pipe) of FILE, SEND bytes long; uring:
 *	io_uring's IORING_OP_SEND, one at a time (FILE unused).
 *   byteswl udp N SIZE REPORT
 *	a receiver (this process) and a sender (its child) over UDP on
 *	127.0.0.1: N datagrams of SIZE bytes, each first peeked (MSG_PEEK) then
 *	read; REPORT as for tcp. A pipe (not a socket) paces the sender so no
 *	datagram is dropped.
 *   byteswl udp-reuse N SIZE REPORT
 *	a receiver (this process) and two senders over UDP on 127.0.0.1, one
 *	socket each, at the same kernel address: the first (a child) sends N
 *	datagrams of SIZE bytes and exits; then children are made until one's
 *	socket is where the first's was (its pointer in /proc/net/udp, the
 *	kernel's address hashed the same way each time), and that one sends
 *	N + 1 datagrams of SIZE + 1 bytes (the others exit without sending).
 *	REPORT: "receiver PID 0 RX PORT", "first PID TX 0 PORT POINTER" and
 *	"second PID TX 0 PORT POINTER TRIES"; exits 3 when no socket took the
 *	address in UDP_REUSE_TRIES children.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024 * 1024)

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void self_io(unsigned long long *rd, unsigned long long *wr)
{
	char line[128];
	FILE *f = fopen("/proc/self/io", "r");

	if (!f)
		die("/proc/self/io");
	*rd = *wr = 0;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "read_bytes: %llu", rd);
		sscanf(line, "write_bytes: %llu", wr);
	}
	fclose(f);
}

/* Write @n bytes at the end of @fd, fsync; read @rd of them back, bypassing the page cache. */
static void write_read(const char *path, int fd, size_t n, size_t rd)
{
	static char *buf;
	size_t done = 0;
	int dfd;

	if (!buf && posix_memalign((void **)&buf, 4096, MIB))
		die("posix_memalign");
	memset(buf, 'k', MIB);
	while (done < n) {
		size_t c = n - done < MIB ? n - done : MIB;
		ssize_t w = write(fd, buf, c);

		if (w <= 0)
			die("write");
		done += (size_t)w;
	}
	if (fsync(fd))
		die("fsync");
	if (!rd)
		return;
	dfd = open(path, O_RDONLY | O_DIRECT);
	if (dfd < 0)
		die("open O_DIRECT");
	for (done = 0; done < rd;) {
		size_t c = rd - done < MIB ? rd - done : MIB;
		ssize_t r = pread(dfd, buf, c, (off_t)done);

		if (r <= 0)
			die("pread O_DIRECT");
		done += (size_t)r;
	}
	close(dfd);
}

static void report(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path))
		die(path);
}

static int disk_die(char **av)
{
	/* Not truncated: a file written before has its blocks, none is allocated now. */
	int fd = open(av[0], O_WRONLY | O_CREAT, 0644);
	unsigned long long rd, wr;
	char line[128];

	if (fd < 0)
		die(av[0]);
	write_read(av[0], fd, strtoull(av[1], NULL, 0), strtoull(av[2], NULL, 0));
	close(fd);
	self_io(&rd, &wr);
	snprintf(line, sizeof(line), "%d %llu %llu\n", (int)getpid(), rd, wr);
	report(av[3], line);
	return 0;
}

static int disk_live(char **av)
{
	unsigned long long r0, w0, r1, w1;
	struct timespec ts = { 0, 300000000 };
	char text[256];
	struct stat sb;
	int fd, i;

	fd = open(av[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(av[0]);
	self_io(&r0, &w0);
	snprintf(text, sizeof(text), "%d %llu %llu\n", (int)getpid(), r0, w0);
	report(av[2], text);
	while (stat(av[1], &sb))
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	for (i = 0; i < 3; i++) {
		write_read(av[0], fd, MIB, (size_t)(i + 1) * MIB);
		nanosleep(&ts, NULL);
	}
	self_io(&r1, &w1);
	snprintf(text, sizeof(text), "%d %llu %llu\n%d %llu %llu\n", (int)getpid(), r0, w0,
		 (int)getpid(), r1, w1);
	report(av[2], text);
	for (;;)
		pause();
	return 0;
}

/* send() all of @n bytes; returns what the calls returned, summed. */
static unsigned long long send_all(int fd, size_t n)
{
	static char buf[65536];
	unsigned long long sum = 0;

	while (sum < n) {
		size_t c = n - sum < sizeof(buf) ? n - sum : sizeof(buf);
		ssize_t w = send(fd, buf, c, 0);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("send");
		sum += (unsigned long long)w;
	}
	return sum;
}

/* recv() until @n bytes (or the end, with @n 0); returns the sum. */
static unsigned long long recv_all(int fd, size_t n)
{
	static char buf[65536];
	unsigned long long sum = 0;

	while (!n || sum < n) {
		size_t c = n && n - sum < sizeof(buf) ? n - sum : sizeof(buf);
		ssize_t r = recv(fd, buf, c, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("recv");
		if (r == 0)
			break;
		sum += (unsigned long long)r;
	}
	return sum;
}

/* @n bytes of @path to @fd by sendfile(2) or (@splice) splice(2) through a pipe. */
static unsigned long long file_all(int fd, const char *path, size_t n, bool splice_it)
{
	unsigned long long sum = 0;
	int in = open(path, O_RDONLY), p[2];

	if (in < 0 || (splice_it && pipe(p)))
		die(path);
	while (sum < n) {
		ssize_t w;

		if (!splice_it) {
			w = sendfile(fd, in, NULL, n - sum);
		} else {
			ssize_t r = splice(in, NULL, p[1], NULL, n - sum, 0);

			if (r <= 0)
				die("splice from the file");
			for (w = 0; w < r;) {
				ssize_t k = splice(p[0], NULL, fd, NULL, (size_t)(r - w), 0);

				if (k <= 0)
					die("splice to the socket");
				w += k;
			}
		}
		if (w <= 0)
			die("sendfile");
		sum += (unsigned long long)w;
	}
	close(in);
	if (splice_it) {
		close(p[0]);
		close(p[1]);
	}
	return sum;
}

/* A ring of one submission at a time, without liburing. */
struct uring {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static void uring_init(struct uring *u)
{
	struct io_uring_params p;
	size_t sqsz, cqsz;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	u->fd = (int)syscall(__NR_io_uring_setup, 4, &p);
	if (u->fd < 0)
		die("io_uring_setup");
	sqsz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	cqsz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sqsz = cqsz = sqsz > cqsz ? sqsz : cqsz;
	sq = mmap(NULL, sqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
		  IORING_OFF_SQ_RING);
	cq = (p.features & IORING_FEAT_SINGLE_MMAP) ? sq :
	     mmap(NULL, cqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
		  IORING_OFF_CQ_RING);
	u->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, u->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || u->sqes == MAP_FAILED)
		die("mmap io_uring");
	u->sq_tail = (unsigned *)(void *)(sq + p.sq_off.tail);
	u->sq_mask = (unsigned *)(void *)(sq + p.sq_off.ring_mask);
	u->sq_array = (unsigned *)(void *)(sq + p.sq_off.array);
	u->cq_head = (unsigned *)(void *)(cq + p.cq_off.head);
	u->cq_tail = (unsigned *)(void *)(cq + p.cq_off.tail);
	u->cq_mask = (unsigned *)(void *)(cq + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)(void *)(cq + p.cq_off.cqes);
}

/* One IORING_OP_SEND of @len bytes, waited for: its result. */
static int uring_send(struct uring *u, int fd, const void *buf, size_t len)
{
	unsigned tail = *u->sq_tail, idx = tail & *u->sq_mask, head;
	struct io_uring_sqe *sqe = &u->sqes[idx];
	int res;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_SEND;
	sqe->fd = fd;
	sqe->addr = (uint64_t)(uintptr_t)buf;
	sqe->len = (uint32_t)len;
	u->sq_array[idx] = idx;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, u->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		die("io_uring_enter");
	for (;;) {
		head = __atomic_load_n(u->cq_head, __ATOMIC_ACQUIRE);
		if (head != __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
			break;
		if (syscall(__NR_io_uring_enter, u->fd, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
			die("io_uring_enter");
	}
	res = u->cqes[head & *u->cq_mask].res;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* send_all through io_uring. */
static unsigned long long uring_all(int fd, size_t n)
{
	static char buf[65536];
	unsigned long long sum = 0;
	struct uring u;

	uring_init(&u);
	while (sum < n) {
		size_t c = n - sum < sizeof(buf) ? n - sum : sizeof(buf);
		int w = uring_send(&u, fd, buf, c);

		if (w <= 0) {
			errno = -w;
			die("IORING_OP_SEND");
		}
		sum += (unsigned long long)w;
	}
	close(u.fd);
	return sum;
}

static int bound_socket(int type, struct sockaddr_in *a)
{
	socklen_t len = sizeof(*a);
	int fd = socket(AF_INET, type, 0);

	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof(*a)) ||
	    getsockname(fd, (struct sockaddr *)a, &len))
		die("socket");
	return fd;
}

/* The child's line, sent up a pipe; the parent's; both into @path. */
static void report_pair(const char *path, const char *me, int fromchild, pid_t child)
{
	char text[512], theirs[256];
	ssize_t n = read(fromchild, theirs, sizeof(theirs) - 1);
	int st;

	if (n <= 0)
		die("child report");
	theirs[n] = '\0';
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		die("child");
	snprintf(text, sizeof(text), "%s%s", me, theirs);
	report(path, text);
}

/* The segments @fd retransmitted, as the kernel counts them. */
static unsigned total_retrans(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		die("TCP_INFO");
	return ti.tcpi_total_retrans;
}

static int tcp(char **av, const char *how, const char *file)
{
	size_t nsend = strtoull(av[0], NULL, 0), nanswer = strtoull(av[1], NULL, 0);
	unsigned long long tx, rx;
	struct sockaddr_in a;
	unsigned retrans;
	int lfd, fd, p[2];
	char me[128];
	pid_t child;

	lfd = bound_socket(SOCK_STREAM, &a);
	if (listen(lfd, 1) || pipe(p))
		die("listen");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		char line[128];

		close(lfd);
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
			die("connect");
		if (!how || !strcmp(how, "send"))
			tx = send_all(fd, nsend);
		else if (!strcmp(how, "uring"))
			tx = uring_all(fd, nsend);
		else
			tx = file_all(fd, file, nsend, !strcmp(how, "splice"));
		rx = recv_all(fd, nanswer);
		retrans = total_retrans(fd);
		close(fd);
		snprintf(line, sizeof(line), "client %d %llu %llu %u %u\n", (int)getpid(), tx, rx,
			 ntohs(a.sin_port), retrans);
		if (write(p[1], line, strlen(line)) < 0)
			die("write");
		_exit(0);
	}
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		die("accept");
	rx = recv_all(fd, nsend);
	tx = send_all(fd, nanswer);
	rx += recv_all(fd, 0);	/* the client's close: a call of 0 bytes */
	retrans = total_retrans(fd);
	close(fd);
	close(lfd);
	snprintf(me, sizeof(me), "server %d %llu %llu %u %u\n", (int)getpid(), tx, rx,
		 ntohs(a.sin_port), retrans);
	report_pair(av[2], me, p[0], child);
	return 0;
}

#define UDP_BATCH 50

static int udp(char **av)
{
	size_t n = strtoull(av[0], NULL, 0), size = strtoull(av[1], NULL, 0), i;
	unsigned long long tx = 0, rx = 0, peeked = 0;
	int fd, p[2], ack[2];
	struct sockaddr_in a;
	char me[128], *buf;
	pid_t child;

	buf = calloc(1, size + 1);
	fd = bound_socket(SOCK_DGRAM, &a);
	if (!buf || pipe(p) || pipe(ack))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		int s = socket(AF_INET, SOCK_DGRAM, 0);
		char line[128], c;

		close(fd);
		if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)))
			die("connect");
		for (i = 0; i < n; i++) {
			ssize_t w;

			if (i && i % UDP_BATCH == 0 && read(ack[0], &c, 1) != 1)
				die("ack");
			w = send(s, buf, size, 0);
			if (w != (ssize_t)size)
				die("send");
			tx += (unsigned long long)w;
		}
		close(s);
		snprintf(line, sizeof(line), "sender %d %llu 0 %u\n", (int)getpid(), tx,
			 ntohs(a.sin_port));
		if (write(p[1], line, strlen(line)) < 0)
			die("write");
		_exit(0);
	}
	for (i = 0; i < n; i++) {
		ssize_t r = recv(fd, buf, size + 1, MSG_PEEK);

		if (r != (ssize_t)size)
			die("recv MSG_PEEK");
		peeked += (unsigned long long)r;
		r = recv(fd, buf, size + 1, 0);
		if (r != (ssize_t)size)
			die("recv");
		rx += (unsigned long long)r;
		if ((i + 1) % UDP_BATCH == 0 && write(ack[1], "k", 1) != 1)
			die("ack");
	}
	close(fd);
	snprintf(me, sizeof(me), "receiver %d 0 %llu %u %llu\n", (int)getpid(), rx,
		 ntohs(a.sin_port), peeked);
	report_pair(av[2], me, p[0], child);
	return 0;
}

#define UDP_REUSE_TRIES 100000

/* The kernel's address of UDP socket @fd as /proc/net/udp prints it (hashed), into @ptr. */
static void udp_pointer(int fd, char ptr[32])
{
	unsigned long ino;
	char line[512];
	struct stat st;
	FILE *f;

	if (fstat(fd, &st))
		die("fstat");
	f = fopen("/proc/net/udp", "r");
	if (!f)
		die("/proc/net/udp");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %lu %*s %31s", &ino, ptr) == 2 &&
		    ino == (unsigned long)st.st_ino) {
			fclose(f);
			return;
		}
	die("not in /proc/net/udp");
}

/*
 * A child with a socket connected to @a: when @want is NULL or its pointer,
 * it sends @n datagrams of @size and writes "ROLE PID TX 0 PORT" and its
 * pointer (@want NULL) up @out; exits 0 then, 10 when it was elsewhere.
 */
static pid_t udp_reuse_sender(const struct sockaddr_in *a, const char *want, const char *role,
			      size_t n, size_t size, int out)
{
	unsigned long long tx = 0;
	char ptr[32], line[160], *buf;
	pid_t child = fork();
	size_t i;
	int s;

	if (child)
		return child;
	s = socket(AF_INET, SOCK_DGRAM, 0);
	buf = calloc(1, size);
	if (s < 0 || !buf || connect(s, (const struct sockaddr *)a, sizeof(*a)))
		die("connect");
	udp_pointer(s, ptr);
	if (want && strcmp(ptr, want))
		_exit(10);
	for (i = 0; i < n; i++) {
		if (send(s, buf, size, 0) != (ssize_t)size)
			die("send");
		tx += size;
	}
	close(s);
	snprintf(line, sizeof(line), "%s %d %llu 0 %u %s\n", role, (int)getpid(), tx,
		 ntohs(a->sin_port), ptr);
	if (write(out, line, strlen(line)) < 0)
		die("write");
	_exit(0);
}

/* @n datagrams of @size into @rx. */
static void udp_receive(int fd, size_t n, size_t size, unsigned long long *rx)
{
	char *buf = calloc(1, size + 1);
	size_t i;

	if (!buf)
		die("calloc");
	for (i = 0; i < n; i++) {
		if (recv(fd, buf, size + 1, 0) != (ssize_t)size)
			die("recv");
		*rx += size;
	}
	free(buf);
}

static int udp_reuse(char **av)
{
	size_t n = strtoull(av[0], NULL, 0), size = strtoull(av[1], NULL, 0), tries;
	char first[160], second[160], ptr[32], me[512];
	unsigned long long rx = 0;
	struct sockaddr_in a;
	pid_t child;
	ssize_t len;
	int fd, p[2], st;

	fd = bound_socket(SOCK_DGRAM, &a);
	if (pipe(p))
		die("pipe");
	/* Its datagrams wait in the receiver's queue (N * SIZE within its buffer). */
	child = udp_reuse_sender(&a, NULL, "first", n, size, p[1]);
	len = read(p[0], first, sizeof(first) - 1);
	if (len <= 0 || waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		die("first sender");
	first[len] = '\0';
	if (sscanf(first, "%*s %*s %*s %*s %*s %31s", ptr) != 1)
		die("first's pointer");
	udp_receive(fd, n, size, &rx);
	/* Its socket freed (after an RCU grace period): the next ones may take its place. */
	for (tries = 1; tries <= UDP_REUSE_TRIES; tries++) {
		child = udp_reuse_sender(&a, ptr, "second", n + 1, size + 1, p[1]);
		if (waitpid(child, &st, 0) != child || !WIFEXITED(st))
			die("waitpid");
		if (WEXITSTATUS(st) == 0)
			break;
		if (WEXITSTATUS(st) != 10)
			die("second sender");
	}
	if (tries > UDP_REUSE_TRIES) {
		fprintf(stderr, "byteswl: no socket took the first one's address in %d tries\n",
			UDP_REUSE_TRIES);
		return 3;
	}
	len = read(p[0], second, sizeof(second) - 1);
	if (len <= 0)
		die("second's report");
	second[len] = '\0';
	second[strcspn(second, "\n")] = '\0';
	udp_receive(fd, n + 1, size + 1, &rx);
	close(fd);
	snprintf(me, sizeof(me), "receiver %d 0 %llu %u\n%s%s %zu\n", (int)getpid(), rx,
		 ntohs(a.sin_port), first, second, tries);
	report(av[2], me);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "disk-die"))
		return disk_die(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "disk-live"))
		return disk_live(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "tcp"))
		return tcp(argv + 2, NULL, NULL);
	if (argc == 7 && !strcmp(argv[1], "tcp"))
		return tcp(argv + 2, argv[5], argv[6]);
	if (argc == 5 && !strcmp(argv[1], "udp"))
		return udp(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "udp-reuse"))
		return udp_reuse(argv + 2);
	fprintf(stderr, "usage: byteswl disk-die FILE BYTES READ REPORT | disk-live FILE GO REPORT |\n"
			"       tcp SEND ANSWER REPORT [send|sendfile|splice FILE] | udp N SIZE REPORT |\n"
			"       udp-reuse N SIZE REPORT\n");
	return 2;
}
