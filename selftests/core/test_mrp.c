// SPDX-License-Identifier: GPL-2.0
/*
 * test_mrp.c - Woods-Corwin's MRP route words (mrp.c): his worked example
 * byte for byte and router by router, the priority option's twice as many
 * words, every route read back as the routers read it, and words that are
 * no route refused.
 */
#include "harness.h"
#include "mrp.h"

/* 0xC423 -> 0xD7F3 of 2^16 nodes with data 0x12345678 is 0xABE1D7F312345678 */
TEST(woods_corwins_worked_example)
{
	struct hn_mrp_opts o = { .levels = 8, .xbits = 0x18, .pad = 1 };
	static const u8 want[] = { 0xab, 0xe1, 0xd7, 0xf3 };
	static const u8 data[] = { 0x12, 0x34, 0x56, 0x78 };
	struct hn_mrp_hop hop[32];
	u8 msg[16];
	u32 at, i, ups = 0, downs = 0;
	int n;

	/* the six up pairs' X: 0, 0, 0, 1, 1, 0 */
	n = hn_mrp_encode(&o, 0xc423, 0xd7f3, msg, sizeof(msg));
	ASSERT_EQ(4, n);
	EXPECT_EQ(0, memcmp(msg, want, sizeof(want)));
	memcpy(msg + n, data, sizeof(data));
	n = hn_mrp_walk(&o, msg, 8, hop, ARRAY_SIZE(hop), &at);
	ASSERT_EQ(14, n);		/* 2L + 2 routers, L = 6 */
	EXPECT_EQ(4u, at);
	EXPECT_EQ(0, memcmp(msg + at, data, sizeof(data)));
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(HN_MRP_UP, hop[i].dir);
		EXPECT_EQ(i, hop[i].level);
		EXPECT_EQ(o.xbits >> i & 1, hop[i].port);
		EXPECT_EQ(i == 3, hop[i].swallow);	/* up: 3 mod 4 */
		ups++;
	}
	EXPECT_EQ(HN_MRP_ACROSS, hop[6].dir);
	EXPECT_EQ(6, hop[6].level);
	EXPECT_EQ(1, hop[6].swallow);
	for (i = 7; i < 14; i++) {
		EXPECT_EQ(HN_MRP_DOWN, hop[i].dir);
		EXPECT_EQ(13 - i, hop[i].level);
		EXPECT_EQ(0xd7f3 >> 2 * hop[i].level & 3, hop[i].port);
		EXPECT_EQ(hop[i].level == 4 || hop[i].level == 0,
			  hop[i].swallow);		/* down: 0 mod 4 */
		downs++;
	}
	EXPECT_EQ(6u, ups);
	EXPECT_EQ(7u, downs);
}

/* With a priority in each word's low four bits, twice the words */
TEST(priority_takes_twice_the_words)
{
	struct hn_mrp_opts o = { .levels = 8, .xbits = 0x18, .pad = 1 };
	struct hn_mrp_hop a[32], b[32];
	u8 m1[32], m2[32];
	u32 p1, p2, i;
	int n1, n2;

	n1 = hn_mrp_encode(&o, 0xc423, 0xd7f3, m1, sizeof(m1));
	o.prio = true;
	o.prio_val = 9;
	n2 = hn_mrp_encode(&o, 0xc423, 0xd7f3, m2, sizeof(m2));
	ASSERT_EQ(2 * n1, n2);
	for (i = 0; i < (u32)n2; i++)
		EXPECT_EQ(9, m2[i] & 15);
	ASSERT_EQ(14, hn_mrp_walk(&o, m2, n2, b, 32, &p2));
	o.prio = false;
	ASSERT_EQ(14, hn_mrp_walk(&o, m1, n1, a, 32, &p1));
	EXPECT_EQ((u32)n1, p1);
	EXPECT_EQ((u32)n2, p2);
	for (i = 0; i < 14; i++) {	/* the same routers, other swallows */
		EXPECT_EQ(a[i].level, b[i].level);
		EXPECT_EQ(a[i].dir, b[i].dir);
		EXPECT_EQ(a[i].port, b[i].port);
	}
}

/*
 * Any two nodes of trees of 1 to 16 levels, with or without priority: the
 * routers read back climb (highest differing bit) / 2 levels with the X
 * given, cross once, and come down through the destination's pairs to
 * level 0; the data begins where the words end.
 */
TEST(every_route_reads_back)
{
	struct hn_mrp_opts o = { 0 };
	struct hn_mrp_hop hop[64];
	u64 seed = 5;
	u32 L, t, src, dst, up, at, i, b;
	u8 msg[64];
	int n, h;

	for (L = 1; L <= HN_MRP_MAX_LEVELS; L++) {
		for (t = 0; t < 2000; t++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			src = (u32)(seed >> 32);
			dst = (u32)seed;
			if (L < 16) {
				src &= (1u << 2 * L) - 1;
				dst &= (1u << 2 * L) - 1;
			}
			if (src == dst)
				continue;
			o.levels = L;
			o.xbits = (u32)(seed >> 17);
			o.across = seed >> 40 & 1;
			o.pad = seed >> 41 & 3;
			o.prio = t & 1;
			o.prio_val = seed >> 44 & 15;
			for (b = 31, up = src ^ dst; !(up >> b); b--)
				;
			up = b / 2;
			n = hn_mrp_encode(&o, src, dst, msg, sizeof(msg));
			ASSERT_LT(1, n);
			h = hn_mrp_walk(&o, msg, n, hop, ARRAY_SIZE(hop), &at);
			ASSERT_EQ((int)(2 * up + 2), h) TH_LOG("L %u %x->%x", L, src, dst);
			EXPECT_EQ((u32)n, at);
			for (i = 0; i < up; i++)
				ASSERT_EQ(o.xbits >> i & 1, hop[i].port);
			ASSERT_EQ(HN_MRP_ACROSS, hop[up].dir);
			ASSERT_EQ(o.across, hop[up].port);
			for (i = up + 1; i < (u32)h; i++)
				ASSERT_EQ(dst >> 2 * hop[i].level & 3, hop[i].port);
			ASSERT_EQ(0, hop[h - 1].level);
		}
	}
}

/* Words that are no route, and nodes that have none, refused */
TEST(no_route_refused)
{
	struct hn_mrp_opts o = { .levels = 2 };
	struct hn_mrp_hop hop[8];
	u8 up_up[] = { 0xaa, 0x00 }, msg[8];
	u32 at;

	EXPECT_EQ(-EINVAL, hn_mrp_walk(&o, up_up, 2, hop, 8, &at));
	EXPECT_EQ(-EINVAL, hn_mrp_walk(&o, up_up, 0, hop, 8, &at));
	EXPECT_EQ(-EINVAL, hn_mrp_encode(&o, 3, 3, msg, 8));	/* itself */
	EXPECT_EQ(-EINVAL, hn_mrp_encode(&o, 0, 16, msg, 8));	/* 4^2 nodes */
	EXPECT_EQ(-ENOSPC, hn_mrp_encode(&o, 0, 15, msg, 1));
	EXPECT_EQ(2, hn_mrp_encode(&o, 0, 15, msg, 2));
	/* the route without its last down word */
	EXPECT_EQ(-EINVAL, hn_mrp_walk(&o, msg, 1, hop, 8, &at));
	o.levels = 17;
	EXPECT_EQ(-EINVAL, hn_mrp_encode(&o, 0, 1, msg, 8));
}

/* One router's input through hn_mrp_stage(), pair @at, into @out. */
static int stage(const struct hn_mrp_opts *o, u32 at, bool swallow,
		 const u16 *in, u32 n, u16 out[4][8], u32 len[4])
{
	u16 *const port[4] = { out[0], out[1], out[2], out[3] };

	return hn_mrp_stage(o, at, swallow, in, n, port, 8, len);
}

/*
 * His golden stream [W:824]: 0x155, 0x0ff, 0x134, 0x154, 0x000, a
 * message towards 55 overridden by one towards ff: the stub 0x155 goes
 * to port 1 (0x55's first pair, 01, the priority 5 in its low bits), the
 * rest to port 3, beginning 0x1ff.
 */
TEST(golden_stream_drop_and_reroute)
{
	static const u16 in[] = { 0x155, 0x0ff, 0x134, 0x154, 0x000 };
	static const u16 port3[] = { 0x1ff, 0x134, 0x154, 0x000 };
	struct hn_mrp_opts o = { .levels = 4, .prio = true };
	u16 out[4][8];
	u32 len[4];

	ASSERT_EQ(0, stage(&o, 0, false, in, ARRAY_SIZE(in), out, len));
	EXPECT_EQ(0u, len[0]);
	ASSERT_EQ(1u, len[1]);
	EXPECT_EQ(0x155, out[1][0]);
	EXPECT_EQ(0u, len[2]);
	ASSERT_EQ(4u, len[3]);
	EXPECT_EQ(0, memcmp(out[3], port3, sizeof(port3)));
}

/*
 * A drop ends a message with it; the next word with the control bit
 * begins another, routed afresh; a drop with none going is nothing; a
 * router that swallows keeps the first word; the second pair routes too.
 */
TEST(stage_drops_and_swallows)
{
	static const u16 in[] = { 0x000, 0x1c5, 0x101, 0x000, 0x175, 0x102,
				  0x000 };
	struct hn_mrp_opts o = { .levels = 4, .prio = true };
	u16 out[4][8];
	u32 len[4];

	ASSERT_EQ(0, stage(&o, 0, false, in, ARRAY_SIZE(in), out, len));
	ASSERT_EQ(3u, len[3]);		/* 0xc5: pair 11 */
	EXPECT_EQ(0x1c5, out[3][0]);
	EXPECT_EQ(0x000, out[3][2]);
	ASSERT_EQ(3u, len[1]);		/* 0x75: pair 01 */
	EXPECT_EQ(0x175, out[1][0]);
	EXPECT_EQ(0u, len[0] + len[2]);

	ASSERT_EQ(0, stage(&o, 1, true, in, ARRAY_SIZE(in), out, len));
	ASSERT_EQ(2u, len[0]);		/* 0xc5's second pair: 00 */
	EXPECT_EQ(0x101, out[0][0]);
	ASSERT_EQ(2u, len[3]);		/* 0x75's: 11 */
	EXPECT_EQ(0x102, out[3][0]);

	EXPECT_EQ(-EINVAL, stage(&o, 2, false, in, 1, out, len));
	EXPECT_EQ(-ENOSPC, hn_mrp_stage(&o, 0, false, in, ARRAY_SIZE(in),
					(u16 *const[4]){ out[0], out[1],
							 out[2], out[3] },
					1, len));
}

TEST_HARNESS_MAIN
