// SPDX-License-Identifier: GPL-2.0
/*
 * dev_api.c - /dev/hybridnet, one call at a time: binding, the header of a
 * delivered message, poll, close, and every bad input with its errno,
 * proving with a snapshot of all sysfs counters that a bad input changes
 * one error counter and nothing else.
 *
 * Needs the module loaded with its defaults (profile ding4, no circuits).
 */
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "hn_test.h"

/* the ioctl names of version 1 still name the same ioctls */
_Static_assert(HN_IOC_BIND == HYBRIDNET_IOC_BIND, "HN_IOC_BIND");
_Static_assert(HN_IOC_INFO == HYBRIDNET_IOC_INFO, "HN_IOC_INFO");

static struct hn_snap snap_a, snap_b;

FIXTURE(dev) {
	struct hn_handle *a, *b, *u;	/* node 0, node 1, unbound */
	int nodes, max_msg, k;
};

FIXTURE_SETUP(dev)
{
	ASSERT_TRUE(hn_loaded());
	ASSERT_EQ(0, hn_quiesce(5000));
	ASSERT_EQ(0, hn_open(&self->a, NULL, 0));
	ASSERT_EQ(0, hn_open(&self->b, NULL, 0));
	ASSERT_EQ(0, hn_open(&self->u, NULL, 0));
	ASSERT_EQ(0, hn_bind(self->a, 0));
	ASSERT_EQ(0, hn_bind(self->b, 1));
	ASSERT_EQ(0, hn_sys_write("reset", "1"));
	self->nodes = hn_sys("config/nodes");
	self->max_msg = hn_sys("config/max_msg_bytes");
	self->k = hn_sys("config/slots");
}

FIXTURE_TEARDOWN(dev)
{
	hn_close(self->a);
	hn_close(self->b);
	hn_close(self->u);
}

/* Run @op; it must fail with @err and change only @counter, by one. */
#define EXPECT_BAD(op, err, counter) do {				\
	long __rc;							\
	hn_snap_take(&snap_a, self->nodes);				\
	__rc = (op);							\
	hn_snap_take(&snap_b, self->nodes);				\
	EXPECT_EQ(-1, __rc);						\
	EXPECT_EQ(err, errno);						\
	EXPECT_EQ(0, hn_snap_diff(&snap_a, &snap_b, counter, 1));	\
} while (0)

static ssize_t send_raw(struct hn_handle *h, uint32_t dst, uint32_t len,
			uint32_t flags, size_t payload)
{
	static uint8_t buf[(2 << 20) + 64];
	struct hybridnet_msg_hdr hdr = { .dst = dst, .len = len,
					 .flags = flags };

	memcpy(buf, &hdr, sizeof(hdr));
	return write(hn_fd(h), buf, sizeof(hdr) + payload);
}

TEST_F(dev, info)
{
	struct hybridnet_info info;

	ASSERT_EQ(0, hn_info(self->u, &info));
	EXPECT_EQ(self->nodes, info.nodes);
	EXPECT_EQ(self->k, info.slots);
	EXPECT_EQ(self->max_msg, info.max_msg);
	EXPECT_EQ(HYBRIDNET_UNBOUND, info.node);
	ASSERT_EQ(0, hn_info(self->b, &info));
	EXPECT_EQ(1, info.node);
	EXPECT_EQ(hn_sys("config/nic_buf_bytes"), info.nic_room);
	EXPECT_EQ(0, info.rx_queued);
	EXPECT_EQ(0, info.rx_next_len);
	EXPECT_EQ(1, hn_sys("nodes/1/bound"));
	EXPECT_EQ(0, hn_sys("nodes/2/bound"));
}

TEST_F(dev, roundtrip_header)
{
	struct hybridnet_msg_hdr h;
	uint8_t out[300], in[300];
	ssize_t n;

	ht_fill(out, sizeof(out), 0, 1, 7);
	ASSERT_EQ(0, hn_send(self->a, 1, out, sizeof(out)));
	n = hn_recv(self->b, &h, in, sizeof(in));
	ASSERT_EQ(sizeof(out), n);
	EXPECT_EQ(0, memcmp(out, in, sizeof(out)));
	EXPECT_EQ(0, h.src);
	EXPECT_EQ(1, h.dst);
	EXPECT_EQ(sizeof(out), h.len);
	EXPECT_EQ(0, h.flags);
	EXPECT_EQ(0, h.__reserved);
	/* no circuit is set up: the wormhole slot (id K) carries it */
	EXPECT_EQ(HYBRIDNET_MODE_WORMHOLE, h.mode);
	EXPECT_EQ(HYBRIDNET_MODE_WORMHOLE, h.tag);
	EXPECT_EQ(self->k, h.slot);
	EXPECT_LT(h.t_inject, h.t_deliver);
	EXPECT_EQ(h.t_deliver - h.t_inject, hn_sys("stats/lat_sum_ns"));
	EXPECT_EQ(h.t_deliver - h.t_inject, hn_sys("nodes/1/lat_min_ns"));
	EXPECT_EQ(1, hn_sys("stats/tx_msgs_wormhole"));
	EXPECT_EQ(0, hn_sys("stats/tx_msgs_circuit"));
	EXPECT_EQ(sizeof(out), hn_sys("stats/tx_bytes_wormhole"));
	EXPECT_EQ(1, hn_sys("stats/rx_msgs_wormhole"));
	EXPECT_EQ(sizeof(out), hn_sys("stats/rx_bytes_wormhole"));
	EXPECT_EQ(1, hn_sys("nodes/0/tx_msgs_wormhole"));
	EXPECT_EQ(1, hn_sys("nodes/0/tx_done"));
	EXPECT_EQ(1, hn_sys("nodes/1/rx_msgs_wormhole"));
	EXPECT_EQ(1, hn_sys("nodes/1/rx_read"));
	EXPECT_EQ(1, hn_sys("stats/rx_read"));
	EXPECT_EQ(0, hn_sys("stats/rx_queued"));
	EXPECT_EQ(0, hn_sys("stats/in_flight_msgs"));
}

TEST_F(dev, send_to_self_and_largest)
{
	uint8_t *out = malloc(self->max_msg), *in = malloc(self->max_msg);
	struct hybridnet_msg_hdr h;

	ht_fill(out, self->max_msg, 0, 0, 1);
	ASSERT_EQ(0, hn_send(self->a, 0, out, self->max_msg));
	ASSERT_EQ(self->max_msg, hn_recv(self->a, &h, in, self->max_msg));
	EXPECT_EQ(0, memcmp(out, in, self->max_msg));
	EXPECT_EQ(0, h.src);
	EXPECT_EQ(0, h.dst);
	free(out);
	free(in);
}

TEST_F(dev, bind_rules)
{
	struct hn_handle *c;
	uint32_t node;

	ASSERT_EQ(0, hn_open(&c, NULL, 0));
	/* the same node again: fine; another node: EBUSY */
	EXPECT_EQ(0, hn_bind(self->a, 0));
	node = 2;
	EXPECT_BAD(ioctl(hn_fd(self->a), HYBRIDNET_IOC_BIND, &node), EBUSY,
		   "errors/bind_busy");
	/* a node another file holds: EBUSY */
	node = 1;
	EXPECT_BAD(ioctl(hn_fd(c), HYBRIDNET_IOC_BIND, &node), EBUSY,
		   "errors/bind_busy");
	node = self->nodes;
	EXPECT_BAD(ioctl(hn_fd(c), HYBRIDNET_IOC_BIND, &node), EINVAL,
		   "errors/bind_range");
	node = ~0u;
	EXPECT_BAD(ioctl(hn_fd(c), HYBRIDNET_IOC_BIND, &node), EINVAL,
		   "errors/bind_range");
	EXPECT_BAD(ioctl(hn_fd(c), HYBRIDNET_IOC_BIND, HN_BAD_PTR), EFAULT,
		   "errors/ioctl_fault");
	EXPECT_BAD(ioctl(hn_fd(c), _IO(HN_IOC_MAGIC, 0x0f)), ENOTTY,
		   "errors/ioctl_unknown");
	/* the last node is bindable; closing frees a node */
	EXPECT_EQ(0, hn_bind(c, self->nodes - 1));
	hn_close(c);
	ASSERT_EQ(0, hn_open(&c, NULL, 0));
	EXPECT_EQ(0, hn_bind(c, self->nodes - 1));
	hn_close(c);
}

TEST_F(dev, write_unbound)
{
	EXPECT_BAD(send_raw(self->u, 1, 10, 0, 10), ENOTCONN,
		   "errors/write_unbound");
}

TEST_F(dev, write_short)
{
	EXPECT_BAD(write(hn_fd(self->a), "0123456789", 10), EINVAL,
		   "errors/write_short");
	EXPECT_BAD(write(hn_fd(self->a), "", 0), EINVAL,
		   "errors/write_short");
}

TEST_F(dev, write_flags)
{
	EXPECT_BAD(send_raw(self->a, 1, 10, HYBRIDNET_MSG_MULTICAST << 1, 10),
		   EINVAL, "errors/write_flags");
	EXPECT_BAD(send_raw(self->a, 1, 10, 1U << 31, 10), EINVAL,
		   "errors/write_flags");
}

/*
 * A message's priority is the header's flags, and comes back in them;
 * the fabric's own, 15, is root's: a process without CAP_NET_ADMIN gets
 * EPERM for it, counted, and may send 14.
 */
TEST_F(dev, write_priority)
{
	struct hybridnet_msg_hdr h;
	uint8_t in[16];
	uint32_t p;
	pid_t pid;
	int st;

	for (p = 0; p <= HYBRIDNET_PRIO_RESERVED; p += 5) {
		ASSERT_EQ(sizeof(h) + 10, send_raw(self->a, 1, 10, p, 10));
		ASSERT_EQ(10, hn_recv(self->b, &h, in, sizeof(in)));
		EXPECT_EQ(p, h.flags);
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		hn_snap_take(&snap_a, self->nodes);
		if (send_raw(self->a, 1, 10, HYBRIDNET_PRIO_RESERVED, 10) !=
		    -1 || errno != EPERM)
			_exit(3);
		hn_snap_take(&snap_b, self->nodes);
		if (hn_snap_diff(&snap_a, &snap_b, "errors/write_prio", 1))
			_exit(4);
		_exit(send_raw(self->a, 1, 10, HYBRIDNET_PRIO_RESERVED - 1,
			       10) != sizeof(h) + 10);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	ASSERT_EQ(10, hn_recv(self->b, &h, in, sizeof(in)));
	EXPECT_EQ(HYBRIDNET_PRIO_RESERVED - 1, h.flags);
}

/*
 * A message's own switching is the header's flags beside its priority,
 * and comes back in them, by the library's hn_send_flags() too.
 */
TEST_F(dev, write_switching)
{
	struct hybridnet_msg_hdr h;
	uint8_t in[16];
	uint32_t sw, fl;

	for (sw = 0; sw <= HYBRIDNET_SWITCHING_SAF + 1; sw++) {
		fl = sw << HYBRIDNET_MSG_SWITCHING_SHIFT | 3;
		ASSERT_EQ(sizeof(h) + 10, send_raw(self->a, 1, 10, fl, 10));
		ASSERT_EQ(10, hn_recv(self->b, &h, in, sizeof(in)));
		EXPECT_EQ(fl, h.flags);
		ASSERT_EQ(0, hn_send_flags(self->a, 1, "0123456789", 10, fl));
		ASSERT_EQ(10, hn_recv(self->b, &h, in, sizeof(in)));
		EXPECT_EQ(fl, h.flags);
		EXPECT_EQ(0, memcmp(in, "0123456789", 10));
	}
}

TEST_F(dev, write_len_mismatch)
{
	EXPECT_BAD(send_raw(self->a, 1, 10, 0, 11), EINVAL,
		   "errors/write_len");
	EXPECT_BAD(send_raw(self->a, 1, 10, 0, 9), EINVAL,
		   "errors/write_len");
}

TEST_F(dev, write_empty)
{
	EXPECT_BAD(send_raw(self->a, 1, 0, 0, 0), EINVAL,
		   "errors/write_empty");
}

TEST_F(dev, write_too_big)
{
	EXPECT_BAD(send_raw(self->a, 1, self->max_msg + 1, 0,
			    self->max_msg + 1), EMSGSIZE,
		   "errors/write_too_big");
	EXPECT_BAD(send_raw(self->a, 1, 2 << 20, 0, 2 << 20), EMSGSIZE,
		   "errors/write_too_big");
}

TEST_F(dev, write_bad_dst)
{
	EXPECT_BAD(send_raw(self->a, self->nodes, 10, 0, 10), EINVAL,
		   "errors/write_bad_dst");
	EXPECT_BAD(send_raw(self->a, ~0u, 10, 0, 10), EINVAL,
		   "errors/write_bad_dst");
}

TEST_F(dev, write_fault)
{
	struct hybridnet_msg_hdr hdr = { .dst = 1, .len = 10 };
	struct iovec iov[2] = {
		{ &hdr, sizeof(hdr) }, { HN_BAD_PTR, 10 },
	};

	EXPECT_BAD(write(hn_fd(self->a), HN_BAD_PTR, 50), EFAULT,
		   "errors/write_fault");
	EXPECT_BAD(writev(hn_fd(self->a), iov, 2), EFAULT,
		   "errors/write_fault");
}

TEST_F(dev, read_unbound)
{
	uint8_t buf[64];

	EXPECT_BAD(read(hn_fd(self->u), buf, sizeof(buf)), ENOTCONN,
		   "errors/read_unbound");
}

TEST_F(dev, read_nonblock_empty)
{
	uint8_t buf[64];

	ASSERT_EQ(0, hn_set_nonblock(self->b, 1));
	EXPECT_BAD(read(hn_fd(self->b), buf, sizeof(buf)), EAGAIN,
		   "errors/read_again");
}

TEST_F(dev, read_too_small_keeps_message)
{
	struct hybridnet_info info;
	uint8_t out[100], in[200];
	ssize_t n;
	int i;

	ht_fill(out, sizeof(out), 0, 1, 3);
	ASSERT_EQ(0, hn_send(self->a, 1, out, sizeof(out)));
	for (i = 0; i < 500; i++) {
		ASSERT_EQ(0, hn_info(self->b, &info));
		if (info.rx_queued)
			break;
		usleep(10000);
	}
	ASSERT_EQ(1, info.rx_queued);
	EXPECT_EQ(sizeof(out), info.rx_next_len);
	EXPECT_BAD(read(hn_fd(self->b), in, HN_HDR + sizeof(out) - 1),
		   EMSGSIZE, "errors/read_too_small");
	EXPECT_BAD(read(hn_fd(self->b), in, 1), EMSGSIZE,
		   "errors/read_too_small");
	EXPECT_BAD(read(hn_fd(self->b), HN_BAD_PTR, HN_HDR + sizeof(out)),
		   EFAULT, "errors/read_fault");
	n = read(hn_fd(self->b), in, HN_HDR + sizeof(out));
	ASSERT_EQ(HN_HDR + sizeof(out), n);
	EXPECT_EQ(0, memcmp(out, in + HN_HDR, sizeof(out)));
	EXPECT_EQ(1, hn_sys("nodes/1/rx_read"));
	EXPECT_EQ(0, hn_sys("nodes/1/rx_queued"));
}

TEST_F(dev, poll_in_out)
{
	struct pollfd p[2] = {
		{ .fd = hn_fd(self->a), .events = POLLIN | POLLOUT },
		{ .fd = hn_fd(self->b), .events = POLLIN | POLLOUT },
	};
	struct pollfd pu = { .fd = hn_fd(self->u), .events = POLLIN };
	uint8_t buf[64];

	ASSERT_EQ(2, poll(p, 2, 0));
	EXPECT_EQ(POLLOUT, p[0].revents);
	EXPECT_EQ(POLLOUT, p[1].revents);
	ASSERT_EQ(1, poll(&pu, 1, 0));
	EXPECT_EQ(POLLERR, pu.revents);

	ASSERT_EQ(0, hn_send(self->a, 1, "ping", 4));
	p[1].events = POLLIN;
	ASSERT_EQ(1, poll(&p[1], 1, 5000));
	EXPECT_EQ(POLLIN, p[1].revents);
	ASSERT_EQ(4, hn_recv(self->b, NULL, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "ping", 4));
	ASSERT_EQ(0, poll(&p[1], 1, 0));
}

TEST_F(dev, close_drops_and_unbound_drops)
{
	struct hybridnet_info info;
	uint8_t out[50];
	int i;

	for (i = 0; i < 3; i++) {
		ht_fill(out, sizeof(out), 0, 1, i);
		ASSERT_EQ(0, hn_send(self->a, 1, out, sizeof(out)));
	}
	for (i = 0; i < 500; i++) {
		ASSERT_EQ(0, hn_info(self->b, &info));
		if (info.rx_queued == 3)
			break;
		usleep(10000);
	}
	ASSERT_EQ(3, info.rx_queued);
	EXPECT_EQ(3, hn_sys("stats/rx_queued"));
	hn_close(self->b);
	self->b = NULL;
	EXPECT_EQ(3, hn_sys("nodes/1/rx_dropped"));
	EXPECT_EQ(3, hn_sys("stats/rx_dropped"));
	EXPECT_EQ(0, hn_sys("stats/rx_queued"));
	EXPECT_EQ(0, hn_sys("nodes/1/bound"));
	/* to a node nobody is bound to: delivered, counted, freed */
	ASSERT_EQ(0, hn_send(self->a, 1, out, sizeof(out)));
	ASSERT_EQ(0, hn_quiesce(5000));
	EXPECT_EQ(4, hn_sys("nodes/1/rx_dropped"));
	EXPECT_EQ(4, hn_sys("stats/rx_dropped"));
	EXPECT_EQ(4, hn_rx_msgs());
	EXPECT_EQ(0, hn_sys("nodes/1/rx_read"));
}

TEST_F(dev, reset_clears)
{
	ASSERT_EQ(0, hn_send(self->a, 1, "x", 1));
	ASSERT_EQ(0, hn_quiesce(5000));
	EXPECT_EQ(-1, write(hn_fd(self->u), "", 0));
	EXPECT_EQ(1, hn_tx_msgs());
	EXPECT_EQ(1, hn_sys("errors/write_unbound"));
	ASSERT_EQ(0, hn_sys_write("reset", "1"));
	EXPECT_EQ(0, hn_tx_msgs());
	EXPECT_EQ(0, hn_rx_msgs());
	EXPECT_EQ(0, hn_sys("errors/write_unbound"));
	EXPECT_EQ(0, hn_sys("stats/lat_min_ns"));
	EXPECT_EQ(-EINVAL, hn_sys_write("reset", "0"));
	/* the message is still queued: reset clears counters, not state */
	EXPECT_EQ(1, hn_sys("stats/rx_queued"));
}

TEST_HARNESS_MAIN
