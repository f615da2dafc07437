// SPDX-License-Identifier: GPL-2.0-only
#include "taskstats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/taskstats.h>

/* Datagrams per recvmmsg, and the room for each (a record is under 2 KiB). */
#define BATCH 32
#define MSG_MAX 8192
/*
 * The kernel makes a record in do_exit a little before it queues it (it may
 * be preempted in between): the exit bound's allowance for that.
 */
#define EXIT_SLACK_NS 100000000ull
/* Kernel memory per queued record, until measured (see taskstats_drain). */
#define TRUESIZE_GUESS 1280

struct taskstats_listener {
	int fd;
	uint16_t family;
	uint32_t seq;
	char cpus[512];		/* the possible CPUs, a cpulist: registered, then deregistered */
	struct taskstats_counts cnt;
	struct taskparse_stats ps;
	uint64_t last_empty_ns;	/* CLOCK_BOOTTIME when the queue was last seen empty */
	size_t truesize;	/* kernel memory per queued record, as measured */
	uint32_t drops32;	/* SK_MEMINFO_DROPS when last read (it wraps) */
	struct taskstats_vec early;	/* records read before the registration's answer */
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
	unsigned char buf[BATCH][MSG_MAX];
};

static uint64_t now_boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void taskstats_vec_free(struct taskstats_vec *v)
{
	free(v->v);
	memset(v, 0, sizeof(*v));
}

/* Room in @v for @more records. */
static int vec_reserve(struct taskstats_vec *v, size_t more)
{
	size_t cap = v->cap ? v->cap : 64;
	struct taskparse_exit *p;

	if (more <= v->cap - v->n)
		return 0;
	while (more > cap - v->n) {
		if (cap > SIZE_MAX / 2 / sizeof(*p))
			return -ENOMEM;
		cap *= 2;
	}
	p = realloc(v->v, cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	v->v = p;
	v->cap = cap;
	return 0;
}

/* A request being built: header, generic netlink header, attributes. */
struct req {
	union {
		struct nlmsghdr h;
		unsigned char b[NLMSG_HDRLEN + GENL_HDRLEN + 1024];
	} u;
};

static void req_init(struct req *r, uint16_t type, uint16_t flags, uint32_t seq, uint8_t cmd,
		     uint8_t version)
{
	struct genlmsghdr g = { .cmd = cmd, .version = version };

	memset(r, 0, sizeof(*r));
	r->u.h.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	r->u.h.nlmsg_type = type;
	r->u.h.nlmsg_flags = flags;
	r->u.h.nlmsg_seq = seq;
	memcpy(r->u.b + NLMSG_HDRLEN, &g, sizeof(g));
}

/* Append a NUL-terminated string attribute. */
static int req_put_str(struct req *r, uint16_t type, const char *s)
{
	size_t len = strlen(s) + 1, off = NLMSG_ALIGN(r->u.h.nlmsg_len);
	struct nlattr nla;

	if (off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(r->u.b))
		return -E2BIG;
	nla.nla_len = (uint16_t)(NLA_HDRLEN + len);
	nla.nla_type = type;
	memcpy(r->u.b + off, &nla, sizeof(nla));
	memcpy(r->u.b + off + NLA_HDRLEN, s, len);
	r->u.h.nlmsg_len = (uint32_t)(off + NLA_HDRLEN + NLA_ALIGN(len));
	return 0;
}

static int req_send(int fd, const struct req *r)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	ssize_t n;

	do
		n = sendto(fd, r->u.b, r->u.h.nlmsg_len, 0, (struct sockaddr *)&kernel,
			   sizeof(kernel));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == r->u.h.nlmsg_len ? 0 : -EIO;
}

/* One datagram, without waiting: its length, 0 when none is queued, or -errno. */
static ssize_t recv_one(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = recv(fd, buf, len, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	return n;
}

/*
 * In the datagram @buf: the answer (NLMSG_ERROR) to request @seq? Sets *@err
 * to its error (0 = acknowledged) and returns true.
 */
static bool find_answer(const unsigned char *buf, size_t len, uint32_t seq, int *err)
{
	struct nlmsghdr h;
	size_t off = 0;
	int32_t e;

	while (len - off >= NLMSG_HDRLEN) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off)
			return false;
		if (h.nlmsg_type == NLMSG_ERROR && h.nlmsg_seq == seq &&
		    h.nlmsg_len >= NLMSG_HDRLEN + sizeof(e)) {
			memcpy(&e, buf + off + NLMSG_HDRLEN, sizeof(e));
			*err = e > 0 ? -e : e;
			return true;
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
		if (off > len)
			return false;
	}
	return false;
}

/* The family id in a CTRL_CMD_NEWFAMILY answer to @seq; 0 = not in @buf. */
static uint16_t find_family_id(const unsigned char *buf, size_t len, uint32_t seq)
{
	size_t off = 0, pos, end;
	struct nlmsghdr h;
	struct nlattr nla;
	uint16_t id;

	while (len - off >= NLMSG_HDRLEN) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off)
			return 0;
		if (h.nlmsg_type == GENL_ID_CTRL && h.nlmsg_seq == seq) {
			pos = off + NLMSG_HDRLEN + GENL_HDRLEN;
			end = off + h.nlmsg_len;
			while (pos < end && end - pos >= NLA_HDRLEN) {
				memcpy(&nla, buf + pos, sizeof(nla));
				if (nla.nla_len < NLA_HDRLEN || nla.nla_len > end - pos)
					return 0;
				if ((nla.nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID &&
				    nla.nla_len >= NLA_HDRLEN + sizeof(id)) {
					memcpy(&id, buf + pos + NLA_HDRLEN, sizeof(id));
					return id;
				}
				pos += NLA_ALIGN((size_t)nla.nla_len);
			}
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
		if (off > len)
			return 0;
	}
	return 0;
}

/* The TASKSTATS family's id: CTRL_CMD_GETFAMILY, answered while it is sent. */
static int resolve_family(struct taskstats_listener *t)
{
	uint32_t seq = ++t->seq;
	struct req r;
	ssize_t n;
	int err, i;

	req_init(&r, GENL_ID_CTRL, NLM_F_REQUEST, seq, CTRL_CMD_GETFAMILY, 1);
	err = req_put_str(&r, CTRL_ATTR_FAMILY_NAME, TASKSTATS_GENL_NAME);
	if (!err)
		err = req_send(t->fd, &r);
	if (err)
		return err;
	/* Nothing else is queued yet: the answer is among the first datagrams. */
	for (i = 0; i < 8; i++) {
		n = recv_one(t->fd, t->buf[0], MSG_MAX);
		if (n <= 0)
			return n ? (int)n : -ETIMEDOUT;
		if (find_answer(t->buf[0], (size_t)n, seq, &err))
			return err ? err : -EPROTO;
		t->family = find_family_id(t->buf[0], (size_t)n, seq);
		if (t->family)
			return 0;
	}
	return -EPROTO;
}

/* The possible CPUs as a cpulist ("0-63"), the registration's mask. */
static int read_possible(char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open("/sys/devices/system/cpu/possible", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return n ? -errno : -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -EIO;
}

/* Parse the datagram @buf into @out, its records stamped with the exit bounds. */
static int take(struct taskstats_listener *t, const unsigned char *buf, size_t len, struct taskstats_vec *out,
		uint64_t hi_ns)
{
	uint64_t lo_ns = t->last_empty_ns > EXIT_SLACK_NS ? t->last_empty_ns - EXIT_SLACK_NS : 1;
	size_t n, i;

	if (vec_reserve(out, len / TS_RECORD_MIN_BYTES + 1))
		return -ENOMEM;
	n = taskparse(buf, len, t->family, out->v + out->n, out->cap - out->n, &t->ps);
	for (i = 0; i < n; i++) {
		out->v[out->n + i].exit_lo_ns = lo_ns;
		out->v[out->n + i].exit_hi_ns = hi_ns;
	}
	out->n += n;
	t->cnt.records += n;
	return (int)n;
}

/* Register for the exits on every possible CPU; records before the answer go to t->early. */
static int do_register(struct taskstats_listener *t, const char *attr_cpus, uint16_t attr)
{
	uint32_t seq = ++t->seq;
	struct req r;
	ssize_t n;
	int err;

	req_init(&r, t->family, NLM_F_REQUEST | NLM_F_ACK, seq, TASKSTATS_CMD_GET,
		 TASKSTATS_GENL_VERSION);
	err = req_put_str(&r, attr, attr_cpus);
	if (err)
		return err;
	t->last_empty_ns = now_boot_ns();
	err = req_send(t->fd, &r);
	if (err)
		return err;
	/*
	 * The answer is queued before sendto returns, behind any records of
	 * exits on other CPUs since the registration took effect.
	 */
	for (;;) {
		n = recv_one(t->fd, t->buf[0], MSG_MAX);
		if (n == -ENOBUFS) {
			t->cnt.enobufs++;
			continue;
		}
		if (n <= 0)
			return n ? (int)n : -ETIMEDOUT;
		if (find_answer(t->buf[0], (size_t)n, seq, &err))
			return err;
		t->cnt.msgs++;
		t->cnt.bytes += (uint64_t)n;
		if (take(t, t->buf[0], (size_t)n, &t->early, now_boot_ns()) < 0)
			return -ENOMEM;
	}
}

static void say(char *why, size_t whylen, const char *msg)
{
	if (why && whylen)
		snprintf(why, whylen, "taskstats: %s", msg);
}

static void say_err(char *why, size_t whylen, const char *what, int err)
{
	if (why && whylen)
		snprintf(why, whylen, "taskstats: %s: %s", what, strerror(-err));
}

int taskstats_open(size_t rcvbuf, struct taskstats_listener **out, char *why, size_t whylen)
{
	struct sockaddr_nl local = { .nl_family = AF_NETLINK };
	struct taskstats_listener *t;
	socklen_t sl;
	int err, v;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t) {
		say(why, whylen, "out of memory");
		return -ENOMEM;
	}
	t->truesize = TRUESIZE_GUESS;
	t->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (t->fd < 0) {
		err = -errno;
		say_err(why, whylen, "no generic netlink socket", err);
		goto fail;
	}
	if (bind(t->fd, (struct sockaddr *)&local, sizeof(local)) < 0) {
		err = -errno;
		say_err(why, whylen, "bind", err);
		goto fail;
	}
	err = resolve_family(t);
	if (err) {
		if (err == -ENOENT)
			say(why, whylen, "kernel without TASKSTATS (CONFIG_TASKSTATS)");
		else
			say_err(why, whylen, "family lookup", err);
		goto fail;
	}
	err = read_possible(t->cpus, sizeof(t->cpus));
	if (err) {
		say_err(why, whylen, "/sys/devices/system/cpu/possible", err);
		goto fail;
	}
	/* Large before the first record: SO_RCVBUFFORCE passes rmem_max (root). */
	if (!rcvbuf)
		rcvbuf = TS_RCVBUF_DEFAULT;
	v = rcvbuf > INT32_MAX / 2 ? INT32_MAX / 2 : (int)rcvbuf;
	if (setsockopt(t->fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) < 0)
		setsockopt(t->fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	sl = sizeof(v);
	if (getsockopt(t->fd, SOL_SOCKET, SO_RCVBUF, &v, &sl) == 0 && v > 0)
		t->cnt.rcvbuf = (size_t)v;
	err = do_register(t, t->cpus, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK);
	if (err) {
		if (err == -EPERM || err == -EACCES)
			say(why, whylen, "needs root (CAP_NET_ADMIN)");
		else if (err == -EINVAL)
			say(why, whylen, "not in the initial user and PID namespaces");
		else
			say_err(why, whylen, "register", err);
		goto fail;
	}
	*out = t;
	return 0;
fail:
	taskstats_close(t);
	return err;
}

void taskstats_close(struct taskstats_listener *t)
{
	struct req r;

	if (!t)
		return;
	if (t->fd >= 0 && t->family && t->cpus[0]) {
		/* Not waited for: closing alone also ends it, at the next exit. */
		req_init(&r, t->family, NLM_F_REQUEST, ++t->seq, TASKSTATS_CMD_GET,
			 TASKSTATS_GENL_VERSION);
		if (!req_put_str(&r, TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK, t->cpus))
			req_send(t->fd, &r);
	}
	if (t->fd >= 0)
		close(t->fd);
	taskstats_vec_free(&t->early);
	free(t);
}

int taskstats_fd(const struct taskstats_listener *t)
{
	return t->fd;
}

/* The socket's SO_MEMINFO: queued bytes and drops; false when the kernel lacks it. */
static bool meminfo(int fd, uint32_t *rmem, uint32_t *drops, bool *have_drops)
{
	uint32_t mi[SK_MEMINFO_VARS];
	socklen_t len = sizeof(mi);

	memset(mi, 0, sizeof(mi));
	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mi, &len) < 0)
		return false;
	*rmem = mi[SK_MEMINFO_RMEM_ALLOC];
	*have_drops = len > SK_MEMINFO_DROPS * sizeof(mi[0]);
	*drops = *have_drops ? mi[SK_MEMINFO_DROPS] : 0;
	return true;
}

int taskstats_drain(struct taskstats_listener *t, struct taskstats_vec *out, size_t max, size_t *left)
{
	uint32_t rmem0 = 0, rmem, drops;
	size_t done = 0, want, k, i;
	bool emptied = false, have_drops;
	int appended = 0, r;
	uint64_t before, after;

	if (left)
		*left = 0;
	if (!max)
		max = TS_DRAIN_DEFAULT;
	if (t->early.n) {
		if (vec_reserve(out, t->early.n))
			return -ENOMEM;
		memcpy(out->v + out->n, t->early.v, t->early.n * sizeof(*out->v));
		out->n += t->early.n;
		appended += (int)t->early.n;
		t->early.n = 0;
	}
	meminfo(t->fd, &rmem0, &drops, &have_drops);
	while (done < max) {
		want = max - done < BATCH ? max - done : BATCH;
		for (i = 0; i < want; i++) {
			t->iov[i].iov_base = t->buf[i];
			t->iov[i].iov_len = MSG_MAX;
			memset(&t->mm[i].msg_hdr, 0, sizeof(t->mm[i].msg_hdr));
			t->mm[i].msg_hdr.msg_iov = &t->iov[i];
			t->mm[i].msg_hdr.msg_iovlen = 1;
		}
		before = now_boot_ns();
		r = recvmmsg(t->fd, t->mm, (unsigned)want, MSG_DONTWAIT, NULL);
		after = now_boot_ns();
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				/* Records were dropped; the error is reported once, read on. */
				t->cnt.enobufs++;
				continue;
			}
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				t->last_empty_ns = before;
				emptied = true;
				break;
			}
			return -errno;
		}
		k = (size_t)r;
		for (i = 0; i < k; i++) {
			t->cnt.msgs++;
			t->cnt.bytes += t->mm[i].msg_len;
			if (t->mm[i].msg_hdr.msg_flags & MSG_TRUNC)
				t->ps.malformed++;
			r = take(t, t->buf[i], t->mm[i].msg_len, out, after);
			if (r < 0)
				return r;
			appended += r;
		}
		done += k;
		if (k < want) {
			/* recvmmsg stopped at an empty queue. */
			t->last_empty_ns = before;
			emptied = true;
			break;
		}
	}
	/* Learn the kernel memory of a record from a queue read to its end. */
	if (emptied && done >= 16 && rmem0)
		t->truesize = rmem0 / done > 256 ? rmem0 / done : 256;
	if (!emptied && left && meminfo(t->fd, &rmem, &drops, &have_drops))
		*left = rmem ? (rmem + t->truesize - 1) / t->truesize : 0;
	return appended;
}

void taskstats_get_counts(struct taskstats_listener *t, struct taskstats_counts *c)
{
	uint32_t rmem, drops;
	bool have_drops = false;

	if (meminfo(t->fd, &rmem, &drops, &have_drops) && have_drops) {
		t->cnt.drops_known = true;
		t->cnt.drops += (uint32_t)(drops - t->drops32);
		t->drops32 = drops;
	}
	t->cnt.malformed = t->ps.malformed;
	t->cnt.unsupported = t->ps.unsupported;
	t->cnt.lost_unknown = t->cnt.enobufs && !t->cnt.drops_known;
	*c = t->cnt;
}
