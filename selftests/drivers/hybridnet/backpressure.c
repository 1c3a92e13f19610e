// SPDX-License-Identifier: GPL-2.0
/*
 * backpressure.c - nothing is dropped when a receiver does not read: the
 * fabric fills exactly the receive buffer, the switch buffer and the NIC
 * buffer, a non-blocking sender then gets EAGAIN (counted once per
 * refusal), a blocking sender waits, a signal interrupts it, the clock
 * thread stops spinning (a stall is counted), and once the receiver reads
 * everything arrives, in order.
 */
#include <pthread.h>
#include <signal.h>

#include "kselftest_harness.h"
#include "hn_test.h"

#define SIZE	1000

FIXTURE(bp) {
	struct hn_handle *a, *b;
	uint32_t rx_buf, sw_buf, nic_buf, expect;
	uint64_t sent, eagain;
};

/* Send from a (non-blocking) until the fabric is full for 300 ms. */
static void fill(struct _test_data_bp *self)
{
	struct pollfd p = { .fd = hn_fd(self->a), .events = POLLOUT };
	uint8_t buf[SIZE];
	int rc;

	for (;;) {
		ht_fill(buf, SIZE, 0, 1, self->sent);
		rc = hn_send(self->a, 1, buf, SIZE);
		if (!rc) {
			self->sent++;
			continue;
		}
		if (rc != -EAGAIN)
			return;
		self->eagain++;
		if (poll(&p, 1, 300) == 0)
			return;
	}
}

FIXTURE_SETUP(bp)
{
	ASSERT_TRUE(hn_loaded());
	ASSERT_EQ(0, hn_quiesce(5000));
	ASSERT_EQ(0, hn_open(&self->a, NULL, HN_NONBLOCK));
	ASSERT_EQ(0, hn_open(&self->b, NULL, 0));
	ASSERT_EQ(0, hn_bind(self->a, 0));
	ASSERT_EQ(0, hn_bind(self->b, 1));
	ASSERT_EQ(0, hn_sys_write("reset", "1"));
	self->rx_buf = hn_sys("config/rx_buf_bytes");
	self->sw_buf = hn_sys("config/sw_buf_bytes");
	self->nic_buf = hn_sys("config/nic_buf_bytes");
	/* delivered + waiting in the switch + waiting in the NIC */
	self->expect = self->rx_buf / SIZE + self->sw_buf / SIZE +
		       self->nic_buf / SIZE;
	self->sent = 0;
	self->eagain = 0;
	fill(self);
}

FIXTURE_TEARDOWN(bp)
{
	hn_close(self->a);
	hn_close(self->b);
}

TEST_F(bp, full_fabric_exact)
{
	uint64_t steps;
	struct pollfd p = { .fd = hn_fd(self->a), .events = POLLOUT };

	EXPECT_EQ(self->expect, self->sent);
	EXPECT_LT(0, self->eagain);
	EXPECT_EQ(self->eagain, hn_sys("errors/write_again"));
	EXPECT_EQ(self->eagain, hn_sys("stats/tx_full"));
	EXPECT_EQ(self->eagain, hn_sys("nodes/0/tx_full"));
	EXPECT_EQ(self->sent, hn_tx_msgs());
	EXPECT_EQ(self->rx_buf / SIZE, hn_sys("nodes/1/rx_queued"));
	EXPECT_EQ(self->rx_buf / SIZE, hn_rx_msgs());
	EXPECT_EQ(self->sent - self->rx_buf / SIZE,
		  hn_sys("stats/in_flight_msgs"));
	EXPECT_EQ(self->nic_buf - self->nic_buf / SIZE * SIZE,
		  hn_sys("nodes/0/nic_room"));
	EXPECT_EQ(0, hn_sys("stats/rx_dropped"));
	/* POLLOUT stays off: there is no room for a SIZE message */
	EXPECT_EQ(0, poll(&p, 1, 0));
	/* the clock thread saw the stall and sleeps instead of spinning */
	EXPECT_LE(1, hn_sys("clock/stalls"));
	steps = hn_sys("clock/steps");
	usleep(300000);
	EXPECT_EQ(steps, hn_sys("clock/steps"));

	/* reading frees space: everything arrives, in order, once */
	ASSERT_EQ(0, ht_drain(self->b, SIZE, 0, self->sent));
	ASSERT_EQ(0, hn_quiesce(5000));
	EXPECT_EQ(self->sent, hn_rx_msgs());
	EXPECT_EQ(self->sent, hn_sys("nodes/1/rx_read"));
	EXPECT_EQ(0, hn_sys("stats/in_flight_msgs"));
	EXPECT_EQ(1, poll(&p, 1, 0));
}

TEST_F(bp, blocking_writer_waits)
{
	struct ht_blocked bs = { .h = self->a, .len = SIZE, .seq = self->sent };
	pthread_t t;

	ASSERT_EQ(self->expect, self->sent);
	ASSERT_EQ(0, hn_set_nonblock(self->a, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, ht_blocking_send, &bs));
	usleep(400000);
	EXPECT_EQ(0, bs.done);
	EXPECT_EQ(1, hn_sys("stats/tx_waits"));
	/* the receiver reads: the writer completes, its message comes last */
	ASSERT_EQ(0, ht_drain(self->b, SIZE, 0, self->sent));
	pthread_join(t, NULL);
	EXPECT_EQ(0, bs.rc);
	ASSERT_EQ(0, ht_drain(self->b, SIZE, self->sent, 1));
	ASSERT_EQ(0, hn_quiesce(5000));
	EXPECT_EQ(self->sent + 1, hn_rx_msgs());
	EXPECT_EQ(0, hn_sys("errors/write_intr"));
}

static void on_usr1(int sig)
{
	(void)sig;
}

TEST_F(bp, signal_interrupts_blocked_writer)
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	uint8_t buf[SIZE];
	pid_t me = getpid();
	pid_t child;
	int rc;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, hn_set_nonblock(self->a, 0));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		usleep(300000);
		kill(me, SIGUSR1);
		_exit(0);
	}
	ht_fill(buf, SIZE, 0, 1, self->sent);
	rc = hn_send(self->a, 1, buf, SIZE);
	EXPECT_EQ(-EINTR, rc);
	EXPECT_EQ(1, hn_sys("errors/write_intr"));
	EXPECT_EQ(self->sent, hn_tx_msgs());
	waitpid(child, NULL, 0);
	ASSERT_EQ(0, ht_drain(self->b, SIZE, 0, self->sent));
}

TEST_HARNESS_MAIN
