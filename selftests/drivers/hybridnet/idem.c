// SPDX-License-Identifier: GPL-2.0
/*
 * idem.c - exactly once through /dev/hybridnet (docs/model.md "Exactly
 * once"; Woods-Corwin C4.1, C4.5): each test loads the module itself on
 * FT(2,4) with the protocol on (idem_timeout_ns) and unloads it.
 *
 * - lossy: a third of every kind of copy lost (loss_ppm), bits flipped
 *   (flip_ppm), and links between switches going down and coming back up
 *   while the nodes write: every message is read once, in its pair's
 *   order, its payload intact; the protocol's statistics show what it
 *   made up for, and its records are gone once all is quiet.
 * - cut_off: a destination whose link is down: the writer's next write()
 *   fails with ETIMEDOUT (and poll() says POLLERR) once its message is
 *   given up after idem_retry_max resends; errors/given_up counts it.
 */
#include <poll.h>

#include "kselftest_harness.h"
#include "hn_test.h"

#define NODES	16
#define PER	150		/* messages each node writes */
#define LEN	64

struct body {
	uint32_t src, dst, seq;
	uint8_t fill[LEN - 12];
};

static void fill(struct body *b, uint32_t src, uint32_t dst, uint32_t seq)
{
	uint32_t i;

	b->src = src;
	b->dst = dst;
	b->seq = seq;
	for (i = 0; i < sizeof(b->fill); i++)
		b->fill[i] = (uint8_t)(src * 31 + dst * 7 + seq * 13 + i);
}

static const char *const links[] = { "sw0.0/up0", "sw0.1/up1", "sw1.2/down3" };

/* Take the three links down (@down 1) or bring them up */
static int faults(struct hn_ctl *c, int down)
{
	struct hn_ctl_fabric f;
	uint32_t sw, port, i;
	int rc = hn_ctl_fabric_get(c, &f);

	for (i = 0; !rc && i < sizeof(links) / sizeof(links[0]); i++) {
		rc = hn_ctl_fabric_parse(&f, links[i], &sw, &port);
		if (!rc)
			rc = hn_ctl_fault_set(c, sw, port, down);
	}
	return rc;
}

TEST(lossy)
{
	static uint32_t sent[NODES][NODES], next[NODES][NODES];
	struct hn_handle *h[NODES];
	struct hybridnet_msg_hdr hdr;
	uint32_t u, d, k, got = 0, bad = 0, phase = 0, total = NODES * PER;
	uint64_t rng = 5, t0;
	struct body b, want;
	struct hn_ctl *c;
	ssize_t n;
	int rc;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0 idem_timeout_ns=20000 loss_ppm=300000 flip_ppm=2000"));
	ASSERT_EQ(0, hn_ctl_open(&c));
	for (u = 0; u < NODES; u++) {
		ASSERT_EQ(0, hn_open(&h[u], NULL, HN_NONBLOCK));
		ASSERT_EQ(0, hn_bind(h[u], u));
	}
	t0 = hn_now_ns();
	for (k = 0; got < total && hn_now_ns() - t0 < 120ull * 1000000000;) {
		if (phase < 2 && k >= (phase + 1) * total / 3) {
			/* down a third of the way, up at two thirds */
			ASSERT_EQ(0, faults(c, !phase));
			phase++;
		}
		for (u = 0; u < NODES && k < total; u++) {
			d = (u + 1 + ht_rng(&rng) % (NODES - 1)) % NODES;
			fill(&b, u, d, sent[u][d]);
			rc = hn_send(h[u], d, &b, sizeof(b));
			if (rc == -EAGAIN)
				continue;
			ASSERT_EQ(0, rc) TH_LOG("%s", hn_strerror(h[u], rc));
			sent[u][d]++;
			k++;
		}
		for (u = 0; u < NODES; u++) {
			while ((n = hn_recv(h[u], &hdr, &b, sizeof(b))) > 0) {
				fill(&want, hdr.src, u, next[hdr.src][u]++);
				bad += n != sizeof(b) || memcmp(&b, &want, sizeof(b));
				got++;
			}
			ASSERT_EQ(-EAGAIN, n) TH_LOG("%s", hn_strerror(h[u], n));
		}
		if (k == total)
			usleep(1000);
	}
	EXPECT_EQ(2, phase);
	EXPECT_EQ(total, got) {
		TH_LOG("written %u, read %u; idem: msg_tx %llu, resends %llu, lost %llu, send %llu, recv %llu; in flight %llu",
		       k, got,
		       (unsigned long long)hn_sys("stats/idem_msg_tx"),
		       (unsigned long long)hn_sys("stats/idem_msg_resends"),
		       (unsigned long long)hn_sys("stats/idem_msg_lost"),
		       (unsigned long long)hn_sys("stats/idem_send_state_entries"),
		       (unsigned long long)hn_sys("stats/idem_recv_state_entries"),
		       (unsigned long long)hn_sys("stats/in_flight_msgs"));
	}
	EXPECT_EQ(0, bad);		/* once, in order, intact */
	for (u = 0; u < 500 && hn_sys("stats/idem_recv_state_entries"); u++)
		usleep(10000);
	EXPECT_EQ(0, hn_sys("stats/idem_recv_state_entries"));
	EXPECT_EQ(0, hn_sys("stats/idem_send_state_entries"));
	EXPECT_EQ(0, hn_sys("stats/idem_retries_exhausted"));
	EXPECT_EQ(0, hn_sys("errors/given_up"));
	EXPECT_GT(hn_sys("stats/idem_msg_lost"), total / 5);
	EXPECT_GT(hn_sys("stats/idem_ack_lost"), total / 5);
	EXPECT_GT(hn_sys("stats/idem_ack2_lost"), total / 5);
	EXPECT_GT(hn_sys("stats/idem_crc_fail"), 0);
	EXPECT_GE(hn_sys("stats/idem_msg_tx"),
		  total + hn_sys("stats/idem_msg_lost"));
	EXPECT_GT(hn_sys("stats/idem_dups_suppressed"), 0);
	for (u = 0; u < NODES; u++)
		hn_close(h[u]);
	hn_ctl_close(c);
	EXPECT_EQ(0, hn_unload());
}

TEST(cut_off)
{
	struct hn_handle *a, *b;
	struct pollfd pfd;
	struct hn_ctl *c;
	char buf[8] = "x";
	int rc = 0, i;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0 idem_timeout_ns=20000 idem_retry_max=3"));
	ASSERT_EQ(0, hn_ctl_open(&c));
	ASSERT_EQ(0, hn_open(&a, NULL, 0));
	ASSERT_EQ(0, hn_open(&b, NULL, 0));
	ASSERT_EQ(0, hn_bind(a, 0));
	ASSERT_EQ(0, hn_bind(b, 5));
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 5, 1));
	/* taken, then given up after 3 resends: said by the next call */
	EXPECT_EQ(0, hn_send(a, 5, buf, 1));
	pfd.fd = hn_fd(a);
	pfd.events = POLLIN;
	for (i = 0; i < 1000 && hn_sys("stats/idem_retries_exhausted") < 1; i++)
		usleep(10000);
	EXPECT_EQ(1, hn_sys("stats/idem_retries_exhausted"));
	EXPECT_EQ(3, hn_sys("stats/idem_msg_resends"));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLERR);
	rc = hn_send(a, 1, buf, 1);
	EXPECT_EQ(-ETIMEDOUT, rc);
	EXPECT_EQ(1, hn_sys("errors/given_up"));
	EXPECT_EQ(0, hn_send(a, 1, buf, 1));	/* said once */
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 5, 0));
	EXPECT_EQ(0, hn_send(a, 5, buf, 2));
	EXPECT_EQ(2, hn_recv(b, NULL, buf, sizeof(buf)));
	hn_close(b);
	hn_close(a);
	hn_ctl_close(c);
	EXPECT_EQ(0, hn_unload());
}

TEST_HARNESS_MAIN
