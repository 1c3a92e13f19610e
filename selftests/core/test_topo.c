// SPDX-License-Identifier: GPL-2.0
/*
 * test_topo.c - the engine's topologies (kmod/core/topo*.c): the crossbar,
 * and the fat tree FT(l, w) of Ch. 7 before it carries traffic.  Every
 * route of every tree, with every kind of up-port choice, is valid, goes
 * up to the common-ancestor level then down (up*, then down*: the channel
 * ranks rise), and comes down through its up-ports' numbers (Theorem 4);
 * the node 3 to node 95 route of Sec. 7.4 crosses the switches the text
 * names; the links are consistent from both ends.  The arithmetic the
 * tests compare with is their own, on base-w digit vectors.
 */
#include <stdlib.h>
#include "harness.h"
#include "topo.h"
#include "digits.h"

/* ---- independent arithmetic (digits.h) ---- */

/* "keep t_{l-2}..t_{h+1}, drop t_h, shift t_{h-1}..t_0 up, P in digit 0" */
static u32 ref_parent(u32 l, u32 w, u32 h, u32 tau, u32 p)
{
	u32 d[32], i, v = 0;

	for (i = 0; i + 1 < l; i++)
		d[i] = digit(tau, w, i);
	for (i = h; i > 0; i--)
		d[i] = d[i - 1];
	d[0] = p;
	for (i = l - 1; i-- > 0;)
		v = v * w + d[i];
	return v;
}

/* H = 1 + the highest digit where the leaf switches differ */
static u32 ref_level(u32 l, u32 w, u32 s, u32 d)
{
	u32 i;

	for (i = l - 1; i-- > 0;)
		if (digit(s, w, i) != digit(d, w, i))
			return i + 1;
	return 0;
}

static u32 occ_tab[64][128];

static u32 occ_of(void *ctx, u32 sw, u32 port)
{
	(void)ctx;
	return occ_tab[sw % 64][port % 128];
}

TEST(crossbar)
{
	struct hn_upsel_arg a = { .mode = HN_UPSEL_DET };
	struct hn_tport hop[4], e;
	struct hn_topo t;
	u32 s, d;

	hn_topo_xbar(&t, 16, 10, 6400);
	EXPECT_EQ(HN_TOPO_CROSSBAR, t.kind);
	EXPECT_EQ(16, t.nodes);
	EXPECT_EQ(1, t.nsw);
	EXPECT_EQ(16, t.radix);
	EXPECT_EQ(16, t.nlinks);
	EXPECT_EQ(10, hn_topo_link_ns(&t, 3));
	EXPECT_EQ(6400, t.link_mbps);
	for (s = 0; s < 16; s++) {
		e = t.ops->attach(&t, s);
		EXPECT_EQ(0, e.sw);
		EXPECT_EQ(s, e.port);
		EXPECT_EQ(s, t.ops->link(&t, 0, s));
		for (d = 0; d < 16; d++) {
			EXPECT_EQ(d, hn_topo_out(&t, 0, d));
			EXPECT_EQ(d, t.ops->route(&t, 0, d));
			ASSERT_EQ(1, hn_topo_path(&t, s, d, &a, hop, 4));
			EXPECT_EQ(0, hop[0].sw);
			EXPECT_EQ(d, hop[0].port);
		}
	}
	e = t.ops->peer(&t, 0, 16);
	EXPECT_EQ(HN_NONE, e.sw);
	EXPECT_EQ(HN_NONE, t.ops->link(&t, 1, 0));
	EXPECT_EQ(-EINVAL, hn_topo_path(&t, 16, 0, &a, hop, 4));
	hn_topo_fini(&t);
}

TEST(fattree_counts)
{
	static const u32 lw[][7] = {
		/* l, w: nodes, switches, radix, links, longest route */
		{ 1, 4, 4, 1, 8, 4, 1 },
		{ 2, 8, 64, 16, 16, 128, 3 },
		{ 3, 4, 64, 48, 8, 192, 5 },
		{ 3, 8, 512, 192, 16, 1536, 5 },
		{ 4, 3, 81, 108, 6, 324, 7 },
	};
	struct hn_topo t;
	u32 i;

	for (i = 0; i < sizeof(lw) / sizeof(lw[0]); i++) {
		ASSERT_EQ(0, hn_topo_ft(&t, lw[i][0], lw[i][1], 80, 2500,
					NULL));
		EXPECT_EQ(HN_TOPO_FATTREE, t.kind);
		EXPECT_EQ(lw[i][2], t.nodes);
		EXPECT_EQ(lw[i][3], t.nsw);
		EXPECT_EQ(lw[i][4], t.radix);
		EXPECT_EQ(lw[i][5], t.nlinks);
		EXPECT_EQ(lw[i][6], t.max_hops);
		EXPECT_EQ(80, hn_topo_link_ns(&t, 0));
		hn_topo_fini(&t);
	}
}

/*
 * Every connected port's peer leads back to it over the same link; the
 * up-ports lead to Theorem 3's parent, the top level's to nothing; every
 * link has exactly two ends, a node's one of them.
 */
static void links_consistent(struct __test_metadata *_metadata, u32 l, u32 w)
{
	struct hn_topo t;
	struct hn_tport e, b;
	u32 sw, p, h, tau, h2, tau2, lk, *ends;

	ASSERT_EQ(0, hn_topo_ft(&t, l, w, 1, 1, NULL));
	ends = calloc(t.nlinks, sizeof(*ends));
	ASSERT_NE(NULL, ends);
	for (sw = 0; sw < t.nsw; sw++) {
		hn_topo_ft_sw(&t, sw, &h, &tau);
		for (p = 0; p < t.radix; p++) {
			e = t.ops->peer(&t, sw, p);
			lk = t.ops->link(&t, sw, p);
			if (p >= w && h == l - 1) {
				EXPECT_EQ(HN_NONE, e.sw);
				EXPECT_EQ(HN_NONE, lk);
				continue;
			}
			ASSERT_GT(t.nlinks, lk);
			ends[lk]++;
			if (e.sw == HN_TOPO_NODE) {
				EXPECT_EQ(0, h);
				EXPECT_GT(w, p);
				EXPECT_EQ(tau * w + p, e.port);
				EXPECT_EQ(e.port, lk);
				b = t.ops->attach(&t, e.port);
				EXPECT_EQ(sw, b.sw);
				EXPECT_EQ(p, b.port);
				ends[lk]++;
				continue;
			}
			ASSERT_GT(t.nsw, e.sw);
			EXPECT_LE(w, lk);
			hn_topo_ft_sw(&t, e.sw, &h2, &tau2);
			if (p >= w) {
				EXPECT_EQ(h + 1, h2);
				EXPECT_EQ(ref_parent(l, w, h, tau, p - w), tau2);
				EXPECT_GT(w, e.port);
			} else {
				EXPECT_EQ(h - 1, h2);
				EXPECT_LE(w, e.port);
			}
			b = t.ops->peer(&t, e.sw, e.port);
			EXPECT_EQ(sw, b.sw);
			EXPECT_EQ(p, b.port);
			EXPECT_EQ(lk, t.ops->link(&t, e.sw, e.port));
		}
	}
	for (lk = 0; lk < t.nlinks; lk++)
		EXPECT_EQ(2, ends[lk]);
	free(ends);
	hn_topo_fini(&t);
}

TEST(fattree_links)
{
	links_consistent(_metadata, 1, 4);
	links_consistent(_metadata, 2, 4);
	links_consistent(_metadata, 3, 4);
	links_consistent(_metadata, 4, 3);
	links_consistent(_metadata, 3, 5);
	links_consistent(_metadata, 2, 16);
}

/*
 * The route from s to d chosen as @a says: 2H + 1 switches, levels 0..H
 * then back to 0, each hop's rank above the last, up-ports at levels
 * below H and the one down-port there is above; at the top SW(H, .) the
 * route turns, and SW(h, delta_h) below reaches delta_{h+1} through the
 * up-port P_h of the way up (Theorem 4).  Returns the up-ports.
 */
static void check_route(struct __test_metadata *_metadata,
			const struct hn_topo *t, u32 l, u32 w, u32 s, u32 d,
			struct hn_upsel_arg *a, u32 *up)
{
	struct hn_tport hop[64], e;
	u32 H = ref_level(l, w, s / w, d / w), i, h, tau, r, last = 0;
	u32 sigma = s / w, delta[32];
	int n;

	n = hn_topo_path(t, s, d, a, hop, 64);
	ASSERT_EQ((int)(2 * H + 1), n);
	for (i = 0; i < (u32)n; i++) {
		hn_topo_ft_sw(t, hop[i].sw, &h, &tau);
		ASSERT_EQ(i <= H ? i : 2 * H - i, h);
		r = t->ops->rank(t, hop[i].sw, hop[i].port);
		ASSERT_LT(last, r);
		last = r;
		if (i < H) {			/* up from sigma_i */
			ASSERT_EQ(sigma, tau);
			ASSERT_LE(w, hop[i].port);
			up[i] = hop[i].port - w;
			sigma = ref_parent(l, w, i, sigma, up[i]);
		} else {			/* down, by digit h of d */
			if (i == H)
				ASSERT_EQ(sigma, tau);
			ASSERT_EQ(digit(d, w, h), hop[i].port);
			delta[h] = tau;
		}
	}
	/* Theorem 4: delta_{h+1} = parent(h, delta_h, P_h) */
	for (h = 0; h < H; h++)
		ASSERT_EQ(delta[h + 1], ref_parent(l, w, h, delta[h], up[h]));
	ASSERT_EQ(d / w, delta[0]);
	e = t->ops->peer(t, hop[n - 1].sw, hop[n - 1].port);
	ASSERT_EQ(HN_TOPO_NODE, e.sw);
	ASSERT_EQ(d, e.port);
}

/* every pair of FT(l, w), each way of choosing the up-ports */
static void every_route(struct __test_metadata *_metadata, u32 l, u32 w)
{
	struct hn_upsel_arg a;
	struct hn_topo t;
	u64 seed = 1 + l * 100 + w;
	u8 pick[32];
	u32 s, d, i, h, H, up[32], sw, p;

	ASSERT_EQ(0, hn_topo_ft(&t, l, w, 1, 1, NULL));
	for (sw = 0; sw < 64; sw++)
		for (p = 0; p < 128; p++)
			occ_tab[sw][p] = hn_rand_below(&seed, 4);
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			H = ref_level(l, w, s / w, d / w);
			a = (struct hn_upsel_arg){ .mode = HN_UPSEL_DET };
			check_route(_metadata, &t, l, w, s, d, &a, up);
			for (h = 0; h < H; h++)	/* destination digits */
				ASSERT_EQ(digit(d, w, h), up[h]);
			a = (struct hn_upsel_arg){ .mode = HN_UPSEL_RANDOM,
						   .seed = &seed };
			check_route(_metadata, &t, l, w, s, d, &a, up);
			a = (struct hn_upsel_arg){ .mode = HN_UPSEL_ADAPTIVE,
						   .occ = occ_of };
			check_route(_metadata, &t, l, w, s, d, &a, up);
			for (i = 0; i < sizeof(pick); i++)
				pick[i] = hn_rand_below(&seed, w);
			a = (struct hn_upsel_arg){ .mode = HN_UPSEL_EXPLICIT,
						   .pick = pick, .npick = H };
			check_route(_metadata, &t, l, w, s, d, &a, up);
			for (h = 0; h < H; h++)
				ASSERT_EQ(pick[h], up[h]);
			ASSERT_EQ(H, a.used);
		}
	}
	hn_topo_fini(&t);
}

TEST(fattree_every_route)
{
	every_route(_metadata, 1, 4);
	every_route(_metadata, 2, 4);
	every_route(_metadata, 3, 4);
	every_route(_metadata, 2, 8);
	every_route(_metadata, 4, 3);	/* w not a power of two */
	every_route(_metadata, 3, 5);
	every_route(_metadata, 4, 4);
}

/*
 * Sec. 7.4 (paper Sec. 4): node 3 to node 95 in FT(4,4), sigma_0 = 000,
 * delta_0 = 113, H = 3, granted with P0 = 0, P1 = 1, P2 = 0: up through
 * SW(0,000), SW(1,000) (sigma_1 = s2 s1 P0), SW(2,001) (sigma_2 = s2 P0
 * P1), to SW(3,010), and down through delta_2 = d2 P0 P1 = 101 and
 * delta_1 = d2 d1 P0 = 110 to SW(0,113), whose down-port 3 is node 95.
 */
TEST(route_3_to_95)
{
	static const struct { u32 h; const char *tau; u32 port; } want[7] = {
		{ 0, "000", 4 + 0 }, { 1, "000", 4 + 1 }, { 2, "001", 4 + 0 },
		{ 3, "010", 1 }, { 2, "101", 1 }, { 1, "110", 3 },
		{ 0, "113", 3 },
	};
	static const u8 pick[3] = { 0, 1, 0 };
	struct hn_upsel_arg a = { .mode = HN_UPSEL_EXPLICIT, .pick = pick,
				  .npick = 3 };
	struct hn_tport hop[8];
	struct hn_topo t;
	u32 i, h, tau, b4;
	const char *c;

	ASSERT_EQ(0, hn_topo_ft(&t, 4, 4, 1, 1, NULL));
	ASSERT_EQ(7, hn_topo_path(&t, 3, 95, &a, hop, 8));
	for (i = 0; i < 7; i++) {
		hn_topo_ft_sw(&t, hop[i].sw, &h, &tau);
		for (b4 = 0, c = want[i].tau; *c; c++)	/* t_2 t_1 t_0 */
			b4 = b4 * 4 + (u32)(*c - '0');
		EXPECT_EQ(want[i].h, h);
		EXPECT_EQ(b4, tau);
		EXPECT_EQ(want[i].port, hop[i].port);
	}
	EXPECT_EQ(23, hop[6].sw % t.nsw);	/* switch 23 = 113 */
	hn_topo_fini(&t);
}

/* adaptive: the least occupied up-port, ties to the deterministic one */
TEST(adaptive_and_random_choice)
{
	struct hn_upsel_arg a = { .mode = HN_UPSEL_ADAPTIVE, .occ = occ_of };
	u32 seen = 0, i, p;
	struct hn_topo t;
	u64 seed = 7;

	ASSERT_EQ(0, hn_topo_ft(&t, 2, 4, 1, 1, NULL));
	memset(occ_tab, 0, sizeof(occ_tab));
	/* at SW(0,0) towards node 6 (leaf 1): det is up-port digit 0 = 2 */
	EXPECT_EQ(4 + 2, hn_topo_choose(&t, 0, 6, &a));
	occ_tab[0][4 + 2] = 3;
	occ_tab[0][4 + 0] = 1;
	occ_tab[0][4 + 1] = 2;
	occ_tab[0][4 + 3] = 1;
	EXPECT_EQ(4 + 0, hn_topo_choose(&t, 0, 6, &a));
	occ_tab[0][4 + 2] = 1;
	EXPECT_EQ(4 + 2, hn_topo_choose(&t, 0, 6, &a));
	/* going down there is one way, whatever the occupancy */
	occ_tab[4][1] = 9;
	EXPECT_EQ(1, hn_topo_choose(&t, 4, 6, &a));
	/* random reaches every up-port */
	a = (struct hn_upsel_arg){ .mode = HN_UPSEL_RANDOM, .seed = &seed };
	for (i = 0; i < 200; i++) {
		p = hn_topo_choose(&t, 0, 6, &a);
		ASSERT_LE(4, p);
		ASSERT_GT(8, p);
		seen |= 1u << (p - 4);
	}
	EXPECT_EQ(0xf, seen);
	memset(occ_tab, 0, sizeof(occ_tab));
	hn_topo_fini(&t);
}

TEST(bad_input)
{
	static const u8 pick[2] = { 0, 4 };
	struct hn_upsel_arg a = { .mode = HN_UPSEL_EXPLICIT, .pick = pick,
				  .npick = 1 };
	struct hn_tport hop[8];
	struct hn_err err;
	struct hn_topo t;

	EXPECT_EQ(-EINVAL, hn_topo_ft(&t, 3, 1, 1, 1, &err));
	EXPECT_EQ(-EINVAL, hn_topo_ft(&t, 0, 4, 1, 1, &err));
	ASSERT_EQ(0, hn_topo_ft(&t, 3, 4, 1, 1, NULL));
	EXPECT_EQ(-EINVAL, hn_topo_path(&t, 0, 64, &a, hop, 8));
	/* node 0 to node 63 climbs two levels: one choice is missing */
	EXPECT_EQ(-EINVAL, hn_topo_path(&t, 0, 63, &a, hop, 8));
	a.used = 0;
	a.npick = 2;		/* the second is port 4 of 0..3 */
	EXPECT_EQ(-EINVAL, hn_topo_path(&t, 0, 63, &a, hop, 8));
	a.mode = HN_UPSEL_DET;
	EXPECT_EQ(-ENOSPC, hn_topo_path(&t, 0, 63, &a, hop, 4));
	EXPECT_EQ(5, hn_topo_path(&t, 0, 63, &a, hop, 8));
	EXPECT_EQ(HN_NONE, t.ops->peer(&t, 0, 8).sw);
	EXPECT_EQ(HN_NONE, t.ops->link(&t, 48, 0));
	hn_topo_fini(&t);
}

TEST_HARNESS_MAIN
