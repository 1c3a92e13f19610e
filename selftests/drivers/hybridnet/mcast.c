// SPDX-License-Identifier: GPL-2.0
/*
 * mcast.c - one write to many through /dev/hybridnet (Zydallis's
 * multicast, HYBRIDNET_MSG_MULTICAST; docs/model.md "Multicast"): each
 * test loads the module itself on FT(2,4), 16 nodes in groups 0 (nodes
 * 0-7) and 1 (8-15), and unloads it.
 *
 * - groups: three members of one group are one injection and three
 *   copies, each read once by its member with dst its own node and the
 *   flag set, and by nobody else; a member in another group costs a
 *   second injection; a broadcast reaches every other node once; code
 *   c1 (even) of group 1 its four nodes.
 * - refused: bad entries (EINVAL, errors/write_bad_mcast), copies that
 *   could never fit in the NIC (EMSGSIZE), a member cut off by a fault
 *   (EHOSTUNREACH): nothing sent, nothing counted.
 * - exactly_once: with the exactly-once protocol and a third of every
 *   copy lost, every node broadcasts: each reads every other's messages
 *   once, in order, intact.
 */
#include "kselftest_harness.h"
#include "hn_test.h"

#define NODES	16

struct fab {
	struct hn_handle *h[NODES];
};

static int fab_open(struct fab *f)
{
	uint32_t u;
	int rc;

	for (u = 0; u < NODES; u++) {
		rc = hn_open(&f->h[u], NULL, HN_NONBLOCK);
		if (!rc)
			rc = hn_bind(f->h[u], u);
		if (rc)
			return rc;
	}
	return 0;
}

static void fab_close(struct fab *f)
{
	uint32_t u;

	for (u = 0; u < NODES; u++)
		hn_close(f->h[u]);
}

/*
 * Wait until the nodes of @want (a bitmap) have each one message from
 * @src of @len bytes, with their own node as dst and the multicast flag:
 * 0, or the first node that did not get exactly that (no other node gets
 * anything).
 */
static int reads(struct fab *f, uint32_t src, uint32_t want, uint32_t len,
		 const char *payload)
{
	static char buf[4096];
	struct hybridnet_msg_hdr hdr;
	uint32_t got = 0, u, i;
	ssize_t n;

	for (i = 0; i < 2000 && got != want; i++) {
		for (u = 0; u < NODES; u++) {
			n = hn_recv(f->h[u], &hdr, buf, sizeof(buf));
			if (n == -EAGAIN)
				continue;
			if (n != len || hdr.src != src || hdr.dst != u ||
			    !(hdr.flags & HYBRIDNET_MSG_MULTICAST) ||
			    memcmp(buf, payload, len) || !(want & 1u << u) ||
			    (got & 1u << u))
				return 100 + u;
			got |= 1u << u;
		}
		if (got != want)
			usleep(1000);
	}
	return got == want ? 0 : 1;
}

TEST(groups)
{
	const uint32_t three[] = { HYBRIDNET_MCAST(0, 0x0e) };
	const uint32_t two[] = { HYBRIDNET_MCAST(0, 0x0e),
				 HYBRIDNET_MCAST(1, 0x02) };
	const uint32_t all[] = { HYBRIDNET_MCAST_ALL };
	const uint32_t even[] = { HYBRIDNET_MCAST(1, HYBRIDNET_MCAST_CODE(1)) };
	struct fab f;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0"));
	ASSERT_EQ(0, fab_open(&f));
	ASSERT_EQ(0, hn_send_mcast(f.h[0], three, 1, "abc", 3, 0));
	EXPECT_EQ(0, reads(&f, 0, 0x000e, 3, "abc"));
	EXPECT_EQ(1, hn_sys("stats/mcast_injections"));
	EXPECT_EQ(3, hn_sys("stats/mcast_copies"));
	ASSERT_EQ(0, hn_send_mcast(f.h[0], two, 2, "de", 2, 0));
	EXPECT_EQ(0, reads(&f, 0, 0x020e, 2, "de"));
	EXPECT_EQ(3, hn_sys("stats/mcast_injections"));
	ASSERT_EQ(0, hn_send_mcast(f.h[5], all, 1, "every", 5, 0));
	EXPECT_EQ(0, reads(&f, 5, 0xffff & ~(1u << 5), 5, "every"));
	ASSERT_EQ(0, hn_send_mcast(f.h[0], even, 1, "c1", 2, 0));
	EXPECT_EQ(0, reads(&f, 0, 0x5500, 2, "c1"));
	EXPECT_EQ(4, hn_sys("stats/mcast_msgs"));
	EXPECT_EQ(1 + 2 + 2 + 1, hn_sys("stats/mcast_injections"));
	EXPECT_EQ(3 + 4 + 15 + 4, hn_sys("stats/mcast_copies"));
	EXPECT_EQ(3 + 4 + 15 + 4, hn_tx_msgs());
	fab_close(&f);
	EXPECT_EQ(0, hn_unload());
}

TEST(refused)
{
	const uint32_t bad[][2] = {
		{ HYBRIDNET_MCAST(2, 1) },		/* group out of range */
		{ HYBRIDNET_MCAST(0, 0) },		/* no member */
		{ HYBRIDNET_MCAST(1, 1), HYBRIDNET_MCAST(1, 2) },
		{ HYBRIDNET_MCAST(0, 2), HYBRIDNET_MCAST_ALL },
	};
	const uint32_t nbad[] = { 1, 1, 2, 2 };
	const uint32_t all[] = { HYBRIDNET_MCAST_ALL };
	const uint32_t some[] = { HYBRIDNET_MCAST(0, 0x0e),
				  HYBRIDNET_MCAST(1, 0x02) };
	struct hybridnet_msg_hdr hdr = { .flags = HYBRIDNET_MSG_MULTICAST };
	static char big[4096];
	struct hn_ctl *c;
	struct fab f;
	uint32_t i;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0 nic_buf_bytes=16384 max_msg_bytes=4096"));
	ASSERT_EQ(0, hn_ctl_open(&c));
	ASSERT_EQ(0, fab_open(&f));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(-EINVAL, hn_send_mcast(f.h[0], bad[i], nbad[i], "x",
						 1, 0)) TH_LOG("case %u", i);
	EXPECT_EQ(4, hn_sys("errors/write_bad_mcast"));
	/* no entry, too many: refused before any is read */
	EXPECT_EQ(-1, write(hn_fd(f.h[0]), &hdr, sizeof(hdr)));
	hdr.dst = HYBRIDNET_MCAST_MAX + 1;
	EXPECT_EQ(-1, write(hn_fd(f.h[0]), &hdr, sizeof(hdr)));
	EXPECT_EQ(6, hn_sys("errors/write_bad_mcast"));
	/* 15 copies of 4 KiB never fit in 16 KiB; 4 do */
	EXPECT_EQ(-EMSGSIZE, hn_send_mcast(f.h[0], all, 1, big, sizeof(big), 0));
	EXPECT_EQ(1, hn_sys("errors/write_too_big"));
	/* node 9 cut off: none of the four goes */
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 9, 1));
	EXPECT_EQ(-EHOSTUNREACH, hn_send_mcast(f.h[0], some, 2, "y", 1, 0));
	EXPECT_EQ(0, hn_sys("stats/mcast_msgs"));
	EXPECT_EQ(0, hn_tx_msgs());
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 9, 0));
	EXPECT_EQ(0, hn_send_mcast(f.h[0], some, 2, big, sizeof(big), 0));
	EXPECT_EQ(0, reads(&f, 0, 0x020e, sizeof(big), big));
	EXPECT_EQ(4, hn_sys("stats/mcast_copies"));
	fab_close(&f);
	hn_ctl_close(c);
	EXPECT_EQ(0, hn_unload());
}

TEST(exactly_once)
{
	static uint32_t next[NODES][NODES];
	const uint32_t all[] = { HYBRIDNET_MCAST_ALL };
	uint32_t u, seq, got = 0, bad = 0, per = 10, idle = 0;
	uint32_t total = NODES * (NODES - 1) * per, body[3];
	struct hybridnet_msg_hdr hdr;
	struct fab f;
	ssize_t n;
	int rc;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0 idem_timeout_ns=20000 loss_ppm=300000"));
	ASSERT_EQ(0, fab_open(&f));
	/* until all is read, or nothing came for 30000 turns (a failure) */
	for (seq = 0; got < total && idle < 30000; idle++) {
		for (u = 0; u < NODES && seq < per; u++) {
			body[0] = u;
			body[1] = seq;
			body[2] = u * 7 + seq;
			rc = hn_send_mcast(f.h[u], all, 1, body, sizeof(body), 0);
			ASSERT_EQ(0, rc) TH_LOG("%s", hn_strerror(f.h[u], rc));
		}
		seq += seq < per;
		for (u = 0; u < NODES; u++) {
			while ((n = hn_recv(f.h[u], &hdr, body, sizeof(body))) > 0) {
				bad += n != sizeof(body) || body[0] != hdr.src ||
				       hdr.dst != u || hdr.src == u ||
				       body[1] != next[hdr.src][u]++ ||
				       body[2] != hdr.src * 7 + body[1];
				got++;
				idle = 0;
			}
			ASSERT_EQ(-EAGAIN, n) TH_LOG("%s", hn_strerror(f.h[u], n));
		}
		if (seq == per && got < total)
			usleep(2000);
	}
	EXPECT_EQ(total, got);
	EXPECT_EQ(0, bad);		/* once, in order, intact */
	EXPECT_EQ(NODES * per, hn_sys("stats/mcast_msgs"));
	EXPECT_EQ(total, hn_sys("stats/mcast_copies"));
	EXPECT_GT(hn_sys("stats/idem_msg_lost"), 0);
	EXPECT_EQ(0, hn_sys("errors/given_up"));
	fab_close(&f);
	EXPECT_EQ(0, hn_unload());
}

TEST_HARNESS_MAIN
