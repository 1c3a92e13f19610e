// SPDX-License-Identifier: GPL-2.0
/*
 * flap.c - links failing over time in the module (fault_mtbf_ns,
 * fault_repair_ns; docs/model.md "Faults"): the test loads the module
 * itself on FT(2,4) with links between switches failing every 2 us of
 * virtual time on average, each back up 10 us later, and the
 * exactly-once protocol on.  The nodes write while links come and go:
 * every message is read once, in its pair's order, intact; failures and
 * repairs are counted; nothing is given up.  And a failure every
 * nanosecond cannot hold the paced clock: an idle second of them is
 * brought up to date a call's work at a time, the rest slipping.
 */
#include <poll.h>

#include "kselftest_harness.h"
#include "hn_test.h"

#define NODES	16
#define PER	100		/* messages each node writes */

TEST(exactly_once_while_links_flap)
{
	static uint32_t sent[NODES][NODES], next[NODES][NODES];
	uint32_t u, d, k = 0, got = 0, bad = 0, idle = 0, body[3];
	uint32_t total = NODES * PER;
	struct hn_handle *h[NODES];
	struct hybridnet_msg_hdr hdr;
	uint64_t rng = 9;
	ssize_t n;
	int rc;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0 fault_mtbf_ns=2000 fault_repair_ns=10000 idem_timeout_ns=50000"));
	for (u = 0; u < NODES; u++) {
		ASSERT_EQ(0, hn_open(&h[u], NULL, HN_NONBLOCK));
		ASSERT_EQ(0, hn_bind(h[u], u));
	}
	/* until all is read, or nothing came for 30000 turns (a failure) */
	for (; got < total && idle < 30000; idle++) {
		for (u = 0; u < NODES && k < total; u++) {
			d = (u + 1 + ht_rng(&rng) % (NODES - 1)) % NODES;
			body[0] = u;
			body[1] = sent[u][d];
			body[2] = u * 31 + d * 7 + body[1];
			rc = hn_send(h[u], d, body, sizeof(body));
			if (rc == -EAGAIN)
				continue;
			ASSERT_EQ(0, rc) TH_LOG("%s", hn_strerror(h[u], rc));
			sent[u][d]++;
			k++;
		}
		for (u = 0; u < NODES; u++) {
			while ((n = hn_recv(h[u], &hdr, body, sizeof(body))) > 0) {
				bad += n != sizeof(body) || body[0] != hdr.src ||
				       body[1] != next[hdr.src][u]++ ||
				       body[2] != hdr.src * 31 + u * 7 + body[1];
				got++;
				idle = 0;
			}
			ASSERT_EQ(-EAGAIN, n) TH_LOG("%s", hn_strerror(h[u], n));
		}
		if (k == total)
			usleep(1000);
	}
	EXPECT_EQ(total, got) {
		TH_LOG("written %u, read %u; links failed %llu, repaired %llu",
		       k, got,
		       (unsigned long long)hn_sys("stats/links_failed"),
		       (unsigned long long)hn_sys("stats/links_repaired"));
	}
	EXPECT_EQ(0, bad);		/* once, in order, intact */
	EXPECT_GT(hn_sys("stats/links_failed"), 5);
	EXPECT_GT(hn_sys("stats/links_repaired"), 0);
	EXPECT_EQ(0, hn_sys("errors/given_up"));
	for (u = 0; u < NODES; u++)
		hn_close(h[u]);
	EXPECT_EQ(0, hn_unload());
}

/*
 * A failure or repair every nanosecond or so, on the paced clock, idle
 * for a second: the write that brings the engine's time up to date runs
 * one call's work of them and lets the rest slip (clock/overruns), and
 * the message goes through.  Before the failures were work, that write
 * ran a second's 10^9 of them under the fabric's lock.
 */
TEST(dense_failures_do_not_hold_the_clock)
{
	struct hybridnet_msg_hdr hdr;
	struct hn_handle *a, *b;
	struct pollfd pfd;
	char x = 7, y = 0;
	int rc;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0 clock=paced fault_mtbf_ns=1 fault_repair_ns=3 idem_timeout_ns=50000"));
	ASSERT_EQ(0, hn_open(&a, NULL, 0));
	ASSERT_EQ(0, hn_bind(a, 0));
	ASSERT_EQ(0, hn_open(&b, NULL, HN_NONBLOCK));
	ASSERT_EQ(0, hn_bind(b, 15));
	sleep(1);
	rc = hn_send(a, 15, &x, 1);
	ASSERT_EQ(0, rc) TH_LOG("%s", hn_strerror(a, rc));
	pfd.fd = hn_fd(b);
	pfd.events = POLLIN;
	/* a bound on a hang, not a time asserted: it takes microseconds */
	ASSERT_EQ(1, poll(&pfd, 1, 20000));
	ASSERT_EQ(1, hn_recv(b, &hdr, &y, 1));
	EXPECT_EQ(x, y);
	EXPECT_EQ(0, hdr.src);
	EXPECT_GT(hn_sys("stats/links_failed"), 100);
	EXPECT_GT(hn_sys("clock/overruns"), 0);
	hn_close(a);
	hn_close(b);
	EXPECT_EQ(0, hn_unload());
}

TEST_HARNESS_MAIN
