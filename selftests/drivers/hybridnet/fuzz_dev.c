// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_dev.c - a seeded fuzzer of /dev/hybridnet: threads that open, bind
 * (nodes in and out of range), write and writev (good and bad headers,
 * lengths, pointers), read and readv (buffers too small, bad pointers),
 * poll, switch O_NONBLOCK, call ioctls known and unknown, and close files
 * while other threads are blocked in them, with signals arriving all the
 * while.  Every call must return success or one of the errnos the device
 * documents; at the end, with every file closed, the fabric drains and
 * sysfs conserves messages: injected = delivered, and delivered = read +
 * dropped (closed or unbound receivers).
 *
 * HN_FUZZ_SEED (default 1), HN_FUZZ_OPS (operations per thread, default
 * 20000) and HN_FUZZ_SECONDS (a time limit instead, for make soak) set the
 * run.  Expects the module loaded with nodes=16 and no file open.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/uio.h>

#include "kselftest_harness.h"
#include "hn_test.h"

#define THREADS		4
#define FILES		6	/* per thread */
#define NODES		16

struct fz {
	pthread_t t;
	uint64_t seed;
	uint64_t ops, ok, errs, unexpected;
	int last_errno, last_op;
};

static struct fz fz[THREADS];
/* shared: a thread may close a file another one is blocked in */
static int fds[THREADS * FILES];
static volatile int stop_all;
static uint64_t ops_each = 20000, end_ns;

static void on_signal(int sig)
{
	(void)sig;
}

static uint32_t rnd(struct fz *f, uint32_t n)
{
	return n ? ht_rng(&f->seed) % n : 0;
}

/* The errnos the device documents (dev.c, README). */
static bool expected(int e)
{
	switch (e) {
	case EINVAL: case ENOTCONN: case EBUSY: case EFAULT: case EMSGSIZE:
	case EAGAIN: case EINTR: case ENOTTY: case EBADF: case ENOMEM:
	case EHOSTUNREACH:
		return true;
	default:
		return false;
	}
}

static void one_op(struct fz *f)
{
	uint8_t buf[4096 + sizeof(struct hybridnet_msg_hdr)];
	struct hybridnet_msg_hdr *h = (void *)buf;
	int i = rnd(f, THREADS * FILES), fd = fds[i], op = rnd(f, 11);
	struct iovec iov[3];
	struct pollfd p;
	uint32_t node, len;
	long rc = 0;

	f->last_op = op;
	switch (op) {
	case 0:		/* open, or close and open again */
		if (fd >= 0 && __sync_bool_compare_and_swap(&fds[i], fd, -1))
			close(fd);
		fd = open("/dev/hybridnet", O_RDWR | O_CLOEXEC |
			  (rnd(f, 2) ? O_NONBLOCK : 0));
		if (fd >= 0 && !__sync_bool_compare_and_swap(&fds[i], -1, fd))
			close(fd);	/* another thread filled it first */
		rc = fd < 0 ? -1 : 0;
		break;
	case 1:		/* bind, sometimes out of range or to a bad pointer */
		node = rnd(f, NODES + 2);
		rc = ioctl(fd, HYBRIDNET_IOC_BIND, rnd(f, 8) ? &node : HN_BAD_PTR);
		break;
	case 2:		/* write: mostly good, sometimes not */
	case 3:
		len = 1 + rnd(f, rnd(f, 4) ? 256 : 4096);
		memset(h, 0, sizeof(*h));
		h->dst = rnd(f, NODES + (rnd(f, 8) ? 0 : 4));
		h->len = rnd(f, 16) ? len : rnd(f, 8192);
		h->flags = rnd(f, 32) ? 0 : 1;
		rc = write(fd, rnd(f, 64) ? buf : HN_BAD_PTR,
			   sizeof(*h) + len - (rnd(f, 32) ? 0 : 1));
		break;
	case 4:		/* writev in pieces */
		len = 1 + rnd(f, 512);
		memset(h, 0, sizeof(*h));
		h->dst = rnd(f, NODES);
		h->len = len;
		iov[0].iov_base = buf;
		iov[0].iov_len = 8;
		iov[1].iov_base = buf + 8;
		iov[1].iov_len = sizeof(*h) - 8 + len / 2;
		iov[2].iov_base = rnd(f, 32) ? buf + sizeof(*h) + len / 2 :
				  HN_BAD_PTR;
		iov[2].iov_len = len - len / 2;
		rc = writev(fd, iov, 3);
		break;
	case 5:		/* read, with buffers of every size */
	case 6:
		len = rnd(f, 4) ? sizeof(buf) : rnd(f, sizeof(buf));
		rc = read(fd, rnd(f, 64) ? buf : HN_BAD_PTR, len);
		break;
	case 7:		/* readv */
		iov[0].iov_base = buf;
		iov[0].iov_len = sizeof(*h);
		iov[1].iov_base = buf + sizeof(*h);
		iov[1].iov_len = rnd(f, 4096);
		rc = readv(fd, iov, 2);
		break;
	case 8:		/* poll */
		p.fd = fd;
		p.events = POLLIN | POLLOUT;
		rc = poll(&p, 1, rnd(f, 3));
		break;
	case 9:		/* switch blocking */
		rc = fcntl(fd, F_SETFL, rnd(f, 2) ? O_NONBLOCK : 0);
		break;
	case 10:	/* ioctls, known and not */
		rc = ioctl(fd, rnd(f, 2) ? HYBRIDNET_IOC_INFO :
			   _IOR(HYBRIDNET_IOC_MAGIC, rnd(f, 16), int),
			   rnd(f, 16) ? (void *)buf : HN_BAD_PTR);
		break;
	}
	f->ops++;
	if (rc >= 0) {
		f->ok++;
		return;
	}
	f->errs++;
	if (!expected(errno)) {
		f->unexpected++;
		f->last_errno = errno;
	}
}

static void *fz_thread(void *arg)
{
	struct fz *f = arg;
	uint64_t n;

	for (n = 0; !stop_all; n++) {
		if (end_ns ? hn_now_ns() >= end_ns : n >= ops_each)
			break;
		one_op(f);
	}
	return NULL;
}

/* Interrupt the threads now and then: blocked calls end in EINTR. */
static void *signaller(void *arg)
{
	(void)arg;
	while (!stop_all) {
		int i;

		for (i = 0; i < THREADS; i++)
			pthread_kill(fz[i].t, SIGUSR1);
		usleep(2000);
	}
	return NULL;
}

FIXTURE(fz) {
	int unused;
};

FIXTURE_SETUP(fz)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fds); i++)
		fds[i] = -1;
}

FIXTURE_TEARDOWN(fz)
{
}

TEST_F_TIMEOUT(fz, seeded_device_fuzz, 7200)
{
	struct sigaction sa = { .sa_handler = on_signal };
	uint64_t seed = 1, tx, rx, read_, dropped, total = 0;
	const char *e;
	pthread_t sig;
	int i;

	e = getenv("HN_FUZZ_SEED");
	if (e)
		seed = strtoull(e, NULL, 0);
	e = getenv("HN_FUZZ_OPS");
	if (e)
		ops_each = strtoull(e, NULL, 0);
	e = getenv("HN_FUZZ_SECONDS");
	if (e)
		end_ns = hn_now_ns() + strtoull(e, NULL, 0) * 1000000000ull;
	ASSERT_TRUE(hn_loaded());
	ASSERT_EQ(NODES, hn_sys("config/nodes"));
	ASSERT_EQ(0, hn_sys_write("reset", "1"));
	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART */

	for (i = 0; i < THREADS; i++) {
		fz[i].seed = seed * 1000003 + i;
		ASSERT_EQ(0, pthread_create(&fz[i].t, NULL, fz_thread, &fz[i]));
	}
	ASSERT_EQ(0, pthread_create(&sig, NULL, signaller, NULL));
	for (i = 0; i < THREADS; i++)
		pthread_join(fz[i].t, NULL);
	stop_all = 1;
	pthread_join(sig, NULL);
	for (i = 0; i < THREADS * FILES; i++)
		if (fds[i] >= 0)
			close(fds[i]);

	for (i = 0; i < THREADS; i++) {
		total += fz[i].ops;
		EXPECT_EQ(0, fz[i].unexpected) {
			TH_LOG("thread %d: op %d gave errno %d", i,
			       fz[i].last_op, fz[i].last_errno);
		}
	}
	/* every file closed: what is in flight drains into rx_dropped */
	ASSERT_EQ(0, hn_quiesce(20000));
	tx = hn_tx_msgs();
	rx = hn_rx_msgs();
	read_ = hn_sys("stats/rx_read");
	dropped = hn_sys("stats/rx_dropped");
	EXPECT_EQ(0, hn_sys("stats/in_flight_msgs"));
	EXPECT_EQ(tx, rx);
	EXPECT_EQ(rx, read_ + dropped);
	EXPECT_EQ(0, hn_sys("stats/rx_queued"));
	TH_LOG("seed %llu: %llu operations, %llu messages through, %llu read, %llu dropped at close",
	       (unsigned long long)seed, (unsigned long long)total,
	       (unsigned long long)rx, (unsigned long long)read_,
	       (unsigned long long)dropped);
}

TEST_HARNESS_MAIN
