// SPDX-License-Identifier: GPL-2.0
/*
 * msgmem.c - the memory of the messages written to the device is bounded
 * by msg_mem_max_bytes, whatever the buffers: with 64 MiB buffers and a
 * 16 MiB bound, a receiver that does not read lets a sender fill 16 MiB
 * (headers included) and no more.  A non-blocking sender then gets EAGAIN
 * while its NIC still has room, poll() shows no POLLOUT, a blocking one
 * waits until a message is read, and everything still arrives, in order.
 * The parameter is checked at load and shows the value in force.
 */
#include <pthread.h>
#include <sys/sysinfo.h>

#include "kselftest_harness.h"
#include "hn_test.h"

#define SIZE		4000
#define MEM_MAX		(16u << 20)
/* a message's charge: header and payload, as kmalloc rounds them */
#define CHARGE_MAX	8192
#define PARAM		"/sys/module/hybridnet/parameters/msg_mem_max_bytes"

static uint64_t param(void)
{
	char buf[64];

	if (hn_read_file(PARAM, buf, sizeof(buf)))
		return ~0ull;
	return strtoull(buf, NULL, 0);
}

FIXTURE(mm) {
	struct hn_handle *a, *b;
	uint64_t sent;
	int last;
};

FIXTURE_SETUP(mm)
{
	uint8_t buf[SIZE];

	if (hn_loaded())
		ASSERT_EQ(0, hn_unload());
	ASSERT_EQ(0, hn_load("nodes=2 slots=0 max_msg_bytes=4096 "
			     "nic_buf_bytes=67108864 sw_buf_bytes=67108864 "
			     "rx_buf_bytes=67108864 msg_mem_max_bytes=16777216"));
	ASSERT_EQ(0, hn_open(&self->a, NULL, HN_NONBLOCK));
	ASSERT_EQ(0, hn_open(&self->b, NULL, 0));
	ASSERT_EQ(0, hn_bind(self->a, 0));
	ASSERT_EQ(0, hn_bind(self->b, 1));
	/* b does not read: send until refused (the bound is far below 64 MiB) */
	for (self->sent = 0; self->sent < 3 * MEM_MAX / SIZE; self->sent++) {
		ht_fill(buf, SIZE, 0, 1, self->sent);
		self->last = hn_send(self->a, 1, buf, SIZE);
		if (self->last)
			break;
	}
}

FIXTURE_TEARDOWN(mm)
{
	hn_close(self->a);
	hn_close(self->b);
	EXPECT_EQ(0, hn_unload());
}

TEST_F(mm, bound_refuses_nonblocking_writer)
{
	struct pollfd p = { .fd = hn_fd(self->a), .events = POLLOUT };
	uint64_t mem = hn_sys("stats/msg_mem_bytes");

	EXPECT_EQ(MEM_MAX, param());
	ASSERT_EQ(-EAGAIN, self->last);
	/* the memory, not the NIC, refused it */
	EXPECT_LE(SIZE, hn_sys("nodes/0/nic_room"));
	EXPECT_LE(mem, MEM_MAX);
	EXPECT_LT(MEM_MAX - CHARGE_MAX, mem);
	EXPECT_GE(mem, self->sent * SIZE);
	EXPECT_EQ(1, hn_sys("errors/write_again"));
	EXPECT_EQ(0, hn_sys("stats/tx_full"));
	EXPECT_EQ(0, poll(&p, 1, 0));
	/* reading one makes room: POLLOUT, and the next write succeeds */
	ASSERT_EQ(0, ht_drain(self->b, SIZE, 0, 1));
	EXPECT_EQ(1, poll(&p, 1, 1000));
	ASSERT_EQ(0, ht_drain(self->b, SIZE, 1, self->sent - 1));
	ASSERT_EQ(0, hn_quiesce(5000));
	EXPECT_EQ(0, hn_sys("stats/msg_mem_bytes"));
	EXPECT_EQ(self->sent, hn_sys("nodes/1/rx_read"));
}

TEST_F(mm, bound_holds_blocking_writer)
{
	struct ht_blocked bs = { .h = self->a, .len = SIZE, .seq = self->sent };
	pthread_t t;
	int i;

	ASSERT_EQ(-EAGAIN, self->last);
	ASSERT_EQ(0, hn_set_nonblock(self->a, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, ht_blocking_send, &bs));
	for (i = 0; i < 500 && hn_sys("stats/mem_waits") != 1; i++)
		usleep(10000);
	EXPECT_EQ(1, hn_sys("stats/mem_waits"));
	usleep(200000);
	EXPECT_EQ(0, bs.done);
	EXPECT_EQ(self->sent, hn_tx_msgs());
	/* one message read: the writer completes, its message comes last */
	ASSERT_EQ(0, ht_drain(self->b, SIZE, 0, 1));
	pthread_join(t, NULL);
	EXPECT_EQ(0, bs.rc);
	ASSERT_EQ(0, ht_drain(self->b, SIZE, 1, self->sent));
	ASSERT_EQ(0, hn_quiesce(5000));
	EXPECT_EQ(self->sent + 1, hn_rx_msgs());
	EXPECT_EQ(0, hn_sys("stats/msg_mem_bytes"));
}

/* Out of range at load: refused; by default an eighth of RAM. */
TEST(msg_mem_max_bytes_at_load)
{
	static const char *const bad[] = {
		"msg_mem_max_bytes=1000", "msg_mem_max_bytes=-5",
		"msg_mem_max_bytes=1152921504606846976",
	};
	struct sysinfo si;
	unsigned int i;

	if (hn_loaded())
		ASSERT_EQ(0, hn_unload());
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, hn_load(bad[i])) TH_LOG("%s", bad[i]);
		EXPECT_FALSE(hn_loaded());
	}
	ASSERT_EQ(0, sysinfo(&si));
	ASSERT_EQ(0, hn_load(NULL));
	EXPECT_EQ((uint64_t)si.totalram * si.mem_unit / 8, param());
	EXPECT_EQ(0, hn_unload());
}

TEST_HARNESS_MAIN
