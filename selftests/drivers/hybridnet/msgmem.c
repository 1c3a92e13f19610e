// SPDX-License-Identifier: GPL-2.0
/*
 * msgmem.c - the memory of the messages written to the device is bounded
 * by msg_mem_max_bytes, whatever the buffers: with 64 MiB buffers and a
 * 16 MiB bound, a receiver that does not read lets a sender fill 16 MiB
 * (headers included) and no more.  A non-blocking sender then gets EAGAIN
 * while its NIC still has room, poll() shows no POLLOUT, a blocking one
 * waits until a message is read, and everything still arrives, in order.
 * The in-kernel generator's run takes its memory from the same bound: it
 * finds none while the device's messages hold it all, and while it runs
 * it holds half of it, which writers then cannot have.  The parameter is
 * checked at load and shows the value in force.
 */
#include <pthread.h>
#include <sys/sysinfo.h>

#include "kselftest_harness.h"
#include "hn_test.h"
#include "nl_raw.h"

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

/* Send from a to node 1 until refused; returns how many were sent. */
static uint64_t fill(struct hn_handle *a, uint64_t first)
{
	uint8_t buf[SIZE];
	uint64_t n;

	for (n = 0; n < 3 * MEM_MAX / SIZE; n++) {
		ht_fill(buf, SIZE, 0, 1, first + n);
		if (hn_send(a, 1, buf, SIZE))
			break;
	}
	return n;
}

static int gen_start(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_START, 0);
	nlr_str(r, HYBRIDNET_ATTR_PATTERN, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 10000);
	nlr_u64(r, HYBRIDNET_ATTR_MEASURE_NS, 100000000000ull);
	return nlr_call(r, NULL, NULL);
}

/*
 * The generator's run reserves its memory from msg_mem_max_bytes (half
 * of it here): not while the device's messages hold it, and writers
 * cannot have what the run holds.  It comes back when the run's messages
 * have left.
 */
TEST_F(mm, generator_shares_the_bound)
{
	uint64_t more, mem;
	struct nlr r;
	int i;

	ASSERT_EQ(-EAGAIN, self->last);
	ASSERT_EQ(0, nlr_open(&r));
	EXPECT_EQ(-ENOBUFS, gen_start(&r));
	EXPECT_STREQ("the device's messages hold msg_mem_max_bytes: the generator needs 1 MiB",
		     r.msg);

	ASSERT_EQ(0, ht_drain(self->b, SIZE, 0, self->sent));
	ASSERT_EQ(0, hn_quiesce(5000));
	ASSERT_EQ(0, hn_sys("stats/msg_mem_bytes"));
	ASSERT_EQ(0, gen_start(&r));
	EXPECT_EQ(MEM_MAX / 2, hn_sys("stats/msg_mem_bytes"));
	more = fill(self->a, self->sent);
	mem = hn_sys("stats/msg_mem_bytes");
	EXPECT_LE(mem, MEM_MAX);
	EXPECT_LT(MEM_MAX - CHARGE_MAX, mem);
	EXPECT_GT(self->sent / 2 + 2, more);
	EXPECT_LT(self->sent / 2 - 2, more);

	nlr_msg(&r, HYBRIDNET_CMD_TRAFFIC_STOP, 0);
	ASSERT_EQ(0, nlr_do(&r));
	for (i = 0; i < 500 && hn_sys("stats/msg_mem_bytes") > MEM_MAX / 2;
	     i++)
		usleep(10000);
	EXPECT_GE(MEM_MAX / 2, hn_sys("stats/msg_mem_bytes"));
	ASSERT_EQ(0, ht_drain(self->b, SIZE, self->sent, more));
	ASSERT_EQ(0, hn_quiesce(5000));
	EXPECT_EQ(0, hn_sys("stats/msg_mem_bytes"));
	nlr_close(&r);
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
