// SPDX-License-Identifier: GPL-2.0
/*
 * reload.c - unload with files open and traffic in flight, 20 times.
 *
 * While a file of /dev/hybridnet is open the module cannot go:
 * delete_module() fails with EWOULDBLOCK (the misc device holds a module
 * reference per open file) and the device keeps working.  Once the files
 * are closed, with messages still queued in the fabric and for readers,
 * the unload succeeds at once: the clock thread stops, queued and in-flight
 * messages are freed (the module WARNs at unload if one is missing, which
 * fails the VM run), and the next load starts afresh.  Alternates the free
 * and the paced clock.
 */
#include "kselftest_harness.h"
#include "hn_test.h"

#define ROUNDS	20
#define SIZE	1000

FIXTURE(reload) {
	int unused;
};

FIXTURE_SETUP(reload)
{
	if (hn_loaded())
		hn_unload();
	ASSERT_FALSE(hn_loaded());
}

FIXTURE_TEARDOWN(reload)
{
	if (hn_loaded())
		hn_unload();
}

/* Send from @a to node 1 until the fabric refuses for 100 ms. */
static uint64_t saturate(struct hn_handle *a)
{
	struct pollfd p = { .fd = hn_fd(a), .events = POLLOUT };
	uint8_t buf[SIZE];
	uint64_t sent = 0;
	int rc;

	memset(buf, 0x5a, sizeof(buf));
	for (;;) {
		rc = hn_send(a, 1, buf, SIZE);
		if (!rc) {
			sent++;
		} else if (rc != -EAGAIN || poll(&p, 1, 100) == 0) {
			return sent;
		}
	}
}

TEST_F(reload, unload_busy_then_idle)
{
	static const char * const params[] = {
		"", "clock=paced pace_ppm=100000 tick_us=200",
	};
	struct hn_handle *a, *b, *u;
	uint8_t buf[SIZE];
	uint64_t sent;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		ASSERT_EQ(0, hn_load(params[i % 2]));
		ASSERT_EQ(0, hn_open(&a, NULL, HN_NONBLOCK));
		ASSERT_EQ(0, hn_open(&b, NULL, 0));
		ASSERT_EQ(0, hn_open(&u, NULL, 0));
		ASSERT_EQ(0, hn_bind(a, 0));
		ASSERT_EQ(0, hn_bind(b, 1));
		sent = saturate(a);
		ASSERT_LT(0, sent);
		/* traffic in flight, a reader that has not read */
		ASSERT_LT(0, hn_sys("stats/in_flight_msgs"));
		ASSERT_LT(0, hn_sys("nodes/1/rx_queued"));

		EXPECT_EQ(-EWOULDBLOCK, hn_unload());
		ASSERT_TRUE(hn_loaded());
		/* still working: one message read, one more can go */
		ASSERT_EQ(SIZE, hn_recv(b, NULL, buf, sizeof(buf)));
		hn_close(u);
		EXPECT_EQ(-EWOULDBLOCK, hn_unload());
		hn_close(b);
		EXPECT_EQ(-EWOULDBLOCK, hn_unload());
		hn_close(a);
		/* nothing open: goes at once, whatever is in flight */
		EXPECT_EQ(0, hn_unload());
		ASSERT_FALSE(hn_loaded());
		EXPECT_NE(0, access("/dev/hybridnet", F_OK));
	}
}

TEST_HARNESS_MAIN
