// SPDX-License-Identifier: GPL-2.0
/*
 * preempt.c - Woods-Corwin's preemptive priority through /dev/hybridnet
 * on a drop network (docs/model.md "Drop on block", "Priority and
 * preemption"): the test loads the module itself on FT(2,4) with
 * switching drop and dilation 1, and unloads it.
 *
 * - hot_spot: on the paced clock (a microsecond of virtual time a
 *   millisecond), nodes 0-13 write 512-byte messages at priority 0 to node
 *   15 and node 14 writes 16-byte ones at priority 5 to it too, so that
 *   headers of priority 5 find node 15's link held by worms of priority
 *   0: the module preempts (stats preemptions, stub_flits), and node 15
 *   reads every message once, each pair's in order, intact, and each
 *   with the priority it was written with.
 */
#include "kselftest_harness.h"
#include "hn_test.h"

#define NODES	16
#define DST	15
#define HIGH	14		/* the node that writes at priority 5 */
#define PER	40		/* messages each writer writes */
#define BIG	512
#define SMALL	16

/* A message's length and priority by its writer */
static uint32_t len_of(uint32_t u)
{
	return u == HIGH ? SMALL : BIG;
}

TEST(hot_spot)
{
	static uint8_t buf[BIG];
	struct hn_handle *h[NODES];
	struct hybridnet_msg_hdr hdr;
	uint32_t sent[NODES] = { 0 }, next[NODES] = { 0 }, got = 0, u;
	uint64_t t0;
	ssize_t n;
	int rc;

	hn_unload();
	/* paced at 1 us a ms: the writers' messages meet in the fabric */
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0 switching=drop dilation=1 clock=paced"));
	for (u = 0; u < NODES; u++) {
		ASSERT_EQ(0, hn_open(&h[u], NULL, HN_NONBLOCK));
		ASSERT_EQ(0, hn_bind(h[u], u));
	}
	t0 = hn_now_ns();
	while (got < (NODES - 1) * PER &&
	       hn_now_ns() - t0 < 120ull * 1000000000) {
		for (u = 0; u < NODES - 1; u++) {
			if (sent[u] == PER)
				continue;
			ht_fill(buf, len_of(u), u, DST, sent[u]);
			rc = hn_send_flags(h[u], DST, buf, len_of(u),
					   u == HIGH ? 5 : 0);
			if (rc == -EAGAIN)
				continue;
			ASSERT_EQ(0, rc) TH_LOG("node %u", u);
			sent[u]++;
		}
		while ((n = hn_recv(h[DST], &hdr, buf, sizeof(buf))) > 0) {
			u = hdr.src;
			ASSERT_LT(u, NODES - 1);
			ASSERT_EQ(len_of(u), (uint32_t)n);
			ASSERT_EQ(u == HIGH ? 5u : 0u, hdr.flags) TH_LOG("node %u", u);
			ASSERT_EQ(0, ht_check(buf, (uint32_t)n, u, DST, next[u]))
				TH_LOG("node %u, message %u", u, next[u]);
			next[u]++;
			got++;
		}
		if (n != -EAGAIN)
			ASSERT_EQ(-EAGAIN, n);
		usleep(200);
	}
	TH_LOG("%u read; %llu attempts, %llu drops, %llu preemptions, %llu stub flits",
	       got, (unsigned long long)hn_sys("stats/attempts"),
	       (unsigned long long)hn_sys("stats/drops"),
	       (unsigned long long)hn_sys("stats/preemptions"),
	       (unsigned long long)hn_sys("stats/stub_flits"));
	EXPECT_EQ((NODES - 1) * PER, got);
	for (u = 0; u < NODES - 1; u++)
		EXPECT_EQ(PER, next[u]) TH_LOG("node %u", u);
	EXPECT_LT(0, hn_sys("stats/preemptions"));
	EXPECT_LT(0, hn_sys("stats/stub_flits"));
	EXPECT_LE(hn_sys("stats/preemptions_late"),
		  hn_sys("stats/preemptions"));
	for (u = 0; u < NODES; u++)
		hn_close(h[u]);
	EXPECT_EQ(0, hn_unload());
}

TEST_HARNESS_MAIN
