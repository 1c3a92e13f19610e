// SPDX-License-Identifier: GPL-2.0
/*
 * test_fault.c - links and switches down and up again (topo_fault.c,
 * fault.c; docs/model.md "Faults"): in a fat tree any one link between
 * switches down leaves every pair connected, by routes that avoid it; a
 * node's link or its switch down cuts that node off and nothing else; a
 * torus's dimension-order routes lose exactly the pairs whose route
 * crossed the link; a GH's go around it by Zydallis's 2-hop detour (C2.5)
 * where its values allow one, the ranks still rising; with every link up
 * again the tables go.  Traffic on every engine never crosses a dead
 * link, every message taken arrives, and one for a destination cut off is
 * refused; one already queued waits until its link is back; a restored
 * link carries its share again.
 */
#include "harness.h"
#include "fabric.h"
#include "digits.h"
#include "engine.h"		/* which slot is in progress */

/* Whether the route hop[0..n) crosses a dead link. */
static bool crosses_dead(const struct hn_topo *t, const struct hn_tport *hop,
			 u32 n, u32 src)
{
	u32 i;

	if (hn_topo_link_is_down(t, src))
		return true;
	for (i = 0; i < n; i++)
		if (hn_topo_link_is_down(t, t->ops->link(t, hop[i].sw,
							 hop[i].port)) ||
		    hn_topo_switch_is_down(t, hop[i].sw))
			return true;
	return false;
}

/*
 * Every pair src != dst of @t: hn_topo_reach() says @want (for a pair
 * with @cut at one end, false), and when it reaches, random routes
 * chosen as headers choose them avoid every dead link and arrive.
 */
static void pairs(struct __test_metadata *_metadata, const struct hn_topo *t,
		  u32 cut, u64 *seed)
{
	struct hn_upsel_arg a = { .mode = HN_UPSEL_RANDOM, .seed = seed };
	struct hn_tport hop[64];
	u32 s, d;
	int n;

	for (s = 0; s < t->nodes; s++)
		for (d = 0; d < t->nodes; d++) {
			if (s == d)
				continue;
			if (s == cut || d == cut) {
				EXPECT_FALSE(hn_topo_reach(t, s, d));
				continue;
			}
			ASSERT_TRUE(hn_topo_reach(t, s, d))
				TH_LOG("%s %u -> %u", t->ops->name, s, d);
			n = hn_topo_path(t, s, d, &a, hop, 64);
			ASSERT_LT(0, n);
			ASSERT_FALSE(crosses_dead(t, hop, n, s))
				TH_LOG("%u -> %u", s, d);
		}
}

/* Woods-Corwin's claim, C4.6: one link down loses no pair. */
TEST(any_one_link_keeps_every_pair)
{
	static const u32 shape[][3] = { { 3, 4, 1 }, { 4, 4, 37 } };
	struct hn_topo t;
	u64 seed = 1;
	u32 i, l;

	for (i = 0; i < ARRAY_SIZE(shape); i++) {
		ASSERT_EQ(0, hn_topo_ft(&t, shape[i][0], shape[i][1], 10,
					6400, NULL));
		for (l = t.nodes; l < t.nlinks; l += shape[i][2]) {
			ASSERT_EQ(0, hn_topo_fault_set(&t, false, l, true));
			EXPECT_TRUE(hn_topo_link_is_down(&t, l));
			pairs(_metadata, &t, HN_NONE, &seed);
			ASSERT_EQ(0, hn_topo_fault_set(&t, false, l, false));
			EXPECT_EQ(NULL, t.fault);	/* all up: tables go */
		}
		hn_topo_fini(&t);
	}
}

/* A node's link, or its switch, down: that node only is cut off. */
TEST(node_link_or_its_switch_cuts_the_node)
{
	struct hn_topo t;
	u64 seed = 2;
	u32 links, sws;

	ASSERT_EQ(0, hn_topo_ft(&t, 3, 4, 10, 6400, NULL));
	ASSERT_EQ(0, hn_topo_fault_set(&t, false, 5, true));
	pairs(_metadata, &t, 5, &seed);
	ASSERT_EQ(0, hn_topo_fault_set(&t, false, 5, false));
	/* a switch above level 0: nobody is cut off */
	ASSERT_EQ(0, hn_topo_fault_set(&t, true, t.nsw - 1, true));
	ASSERT_EQ(0, hn_topo_fault_set(&t, true, t.nsw - 2, true));
	hn_topo_fault_count(&t, &links, &sws);
	EXPECT_EQ(0, links);
	EXPECT_EQ(2, sws);
	pairs(_metadata, &t, HN_NONE, &seed);
	/* taking one down twice counts once */
	ASSERT_EQ(0, hn_topo_fault_set(&t, true, t.nsw - 1, true));
	hn_topo_fault_count(&t, &links, &sws);
	EXPECT_EQ(2, sws);
	ASSERT_EQ(0, hn_topo_fault_set(&t, true, t.nsw - 1, false));
	ASSERT_EQ(0, hn_topo_fault_set(&t, true, t.nsw - 2, false));
	EXPECT_EQ(NULL, t.fault);
	EXPECT_EQ(-EINVAL, hn_topo_fault_set(&t, true, t.nsw, true));
	EXPECT_EQ(-EINVAL, hn_topo_fault_set(&t, false, t.nlinks, true));
	EXPECT_EQ(NULL, t.fault);
	hn_topo_fini(&t);
}

/*
 * torus:4x4 routes by dimension order, one way only: a link down loses
 * exactly the pairs whose route crossed it, for every link.
 */
TEST(one_way_routes_lose_the_pairs_that_crossed)
{
	struct hn_upsel_arg det = { .mode = HN_UPSEL_DET };
	struct hn_tport hop[64];
	struct hn_topo t;
	u32 l, s, d, lost;
	int n;

	ASSERT_EQ(0, hn_topo_cube(&t, 2, 4, true, 10, 6400));
	for (l = t.nodes; l < t.nlinks; l++) {
		ASSERT_EQ(0, hn_topo_fault_set(&t, false, l, true));
		lost = 0;
		for (s = 0; s < t.nodes; s++)
			for (d = 0; d < t.nodes; d++) {
				if (s == d)
					continue;
				n = hn_topo_path(&t, s, d, &det, hop, 64);
				ASSERT_LT(0, n);
				EXPECT_EQ(!crosses_dead(&t, hop, n, s),
					  hn_topo_reach(&t, s, d))
					TH_LOG("link %u: %u -> %u", l, s, d);
				lost += !hn_topo_reach(&t, s, d);
			}
		EXPECT_LT(0, lost);
		ASSERT_EQ(0, hn_topo_fault_set(&t, false, l, false));
	}
	hn_topo_fini(&t);
}

/* GH(@k)'s port @p > 0 leads along this dimension */
static u32 gh_dim(u32 k, u32 p)
{
	return (p - 1) / (k - 1);
}

/*
 * GH(@n, @k), @t0 with nothing down, and @t with link @l between switches
 * down, its two values in its dimension a and b: a pair whose route on
 * @t0 does not cross it keeps that route; one whose route does is cut
 * off when max(a, b) = k - 1 (counted in *@cut), else still reaches and
 * goes around (counted in *@around), as headers route it, by destination
 * and at random: the same hops in every other dimension, two in @l's
 * where it took one, over live links, its ranks climbing.
 */
static void gh_link_down(struct __test_metadata *_metadata,
			 const struct hn_topo *t0, struct hn_topo *t, u32 k,
			 u32 l, u32 *around, u32 *cut)
{
	struct hn_upsel_arg a0 = { .mode = HN_UPSEL_DET, .detour = true };
	struct hn_upsel_arg a[2] = { { .mode = HN_UPSEL_DET, .detour = true },
				     { .mode = HN_UPSEL_RANDOM, .detour = true } };
	struct hn_tport h0[64], h[64], e;
	u32 s, d, sw, p, dim = 0, lo = 0, hi = 0, j, r, last, m, i, c0, c1;
	int n0, n;
	u64 seed = l;

	for (sw = 0; sw < t->nsw; sw++)		/* the link's ends */
		for (p = 1; p < t->radix; p++)
			if (t->ops->link(t, sw, p) == l) {
				e = t->ops->peer(t, sw, p);
				dim = gh_dim(k, p);
				lo = digit(sw, k, dim);
				hi = digit(e.sw, k, dim);
			}
	if (lo > hi) {
		j = lo;
		lo = hi;
		hi = j;
	}
	a[1].seed = &seed;
	ASSERT_EQ(0, hn_topo_fault_set(t, false, l, true));
	for (s = 0; s < t->nodes; s++)
		for (d = 0; d < t->nodes; d++) {
			if (s == d)
				continue;
			n0 = hn_topo_path(t0, s, d, &a0, h0, 64);
			ASSERT_LT(0, n0);
			if (!crosses_dead(t, h0, n0, s)) {
				ASSERT_TRUE(hn_topo_reach(t, s, d));
				n = hn_topo_path(t, s, d, &a[0], h, 64);
				ASSERT_EQ(n0, n);
				EXPECT_EQ(0, memcmp(h0, h, n * sizeof(*h)))
					TH_LOG("link %u: %u -> %u", l, s, d);
				continue;
			}
			if (hi == k - 1) {
				EXPECT_FALSE(hn_topo_reach(t, s, d))
					TH_LOG("link %u: %u -> %u", l, s, d);
				++*cut;
				continue;
			}
			ASSERT_TRUE(hn_topo_reach(t, s, d))
				TH_LOG("link %u (%u, %u): %u -> %u", l, lo, hi,
				       s, d);
			++*around;
			for (i = 0; i < 2; i++) {
				n = hn_topo_path(t, s, d, &a[i], h, 64);
				ASSERT_EQ(n0 + 1, n) TH_LOG("%u -> %u", s, d);
				ASSERT_GE(t->max_hops, (u32)n);
				EXPECT_FALSE(crosses_dead(t, h, n, s));
				for (j = 0, last = 0; j < (u32)n; j++) {
					r = t->ops->rank(t, h[j].sw, h[j].port);
					EXPECT_LT(last, r) TH_LOG("%u -> %u", s, d);
					last = r;
				}
				for (m = 0; m < HN_CUBE_MAX_DIMS; m++) {
					for (j = 0, c0 = 0; j + 1 < (u32)n0; j++)
						c0 += gh_dim(k, h0[j].port) == m;
					for (j = 0, c1 = 0; j + 1 < (u32)n; j++)
						c1 += gh_dim(k, h[j].port) == m;
					EXPECT_EQ(c0 + (m == dim), c1)
						TH_LOG("%u -> %u dim %u", s, d, m);
				}
			}
		}
	ASSERT_EQ(0, hn_topo_fault_set(t, false, l, false));
}

/*
 * Zydallis's C2.5, "with a direct link down, traffic still delivers over
 * a 2-hop detour": GH(2,4), GH(2,8) (every 13th link) and GH(3,3), each
 * link between switches down in turn.  A link with max(a, b) = k - 1
 * has no detour whose ranks climb: its pairs are cut off.
 */
TEST(gh_detours_around_a_dead_link)
{
	static const u32 shape[][3] = { { 2, 4, 1 }, { 2, 8, 13 }, { 3, 3, 1 } };
	struct hn_topo t0, t;
	u32 i, l, around, cut;

	for (i = 0; i < ARRAY_SIZE(shape); i++) {
		ASSERT_EQ(0, hn_topo_gh(&t0, shape[i][0], shape[i][1], 10,
					6400));
		ASSERT_EQ(0, hn_topo_gh(&t, shape[i][0], shape[i][1], 10,
					6400));
		around = cut = 0;
		for (l = t.nodes; l < t.nlinks; l += shape[i][2])
			gh_link_down(_metadata, &t0, &t, shape[i][1], l,
				     &around, &cut);
		EXPECT_LT(0, around);
		EXPECT_LT(0, cut);
		EXPECT_EQ(NULL, t.fault);
		hn_topo_fini(&t0);
		hn_topo_fini(&t);
	}
}

/*
 * A detour is two hops: GH(2,5) with the links 1-2 and 3-2 of dimension
 * 0 down, node 1's messages for node 2 go by switch 4; a header at
 * switch 3 that came from 1 (a detour whose second link died under it)
 * takes no second detour, but one from switch 3's own node does.
 */
TEST(gh_detour_is_two_hops)
{
	struct hn_upsel_arg a = { .mode = HN_UPSEL_DET, .detour = true };
	struct hn_tport h[8];
	struct hn_topo t;
	u32 p12, p32;

	ASSERT_EQ(0, hn_topo_gh(&t, 2, 5, 10, 6400));
	p12 = t.ops->route(&t, 1, 2);
	p32 = t.ops->route(&t, 3, 2);
	ASSERT_EQ(0, hn_topo_fault_set(&t, false, t.ops->link(&t, 1, p12),
				       true));
	ASSERT_EQ(0, hn_topo_fault_set(&t, false, t.ops->link(&t, 3, p32),
				       true));
	ASSERT_EQ(3, hn_topo_path(&t, 1, 2, &a, h, 8));
	EXPECT_EQ(4, t.ops->peer(&t, 1, h[0].port).sw);
	EXPECT_EQ(4, h[1].sw);
	a.in = t.ops->route(&t, 3, 1);		/* came from switch 1 */
	EXPECT_EQ(p32, hn_topo_choose(&t, 3, 2, &a));
	a.in = 0;				/* from its node */
	EXPECT_EQ(t.ops->route(&t, 3, 4), hn_topo_choose(&t, 3, 2, &a));
	a.detour = false;			/* a circuit's path */
	EXPECT_EQ(p32, hn_topo_choose(&t, 3, 2, &a));
	hn_topo_fini(&t);
}

/*
 * Several links down at once, at random (GH(2,5) and GH(3,4), 20 draws of
 * 2 to 12 links each): hn_topo_reach() says a pair reaches exactly when
 * the route headers take, detours and all, crosses no dead link, and
 * every such route climbs the ranks: the walk and the choice agree.
 */
TEST(gh_reach_agrees_with_the_detoured_routes)
{
	static const u32 shape[][2] = { { 2, 5 }, { 3, 4 } };
	struct hn_upsel_arg a = { .mode = HN_UPSEL_DET, .detour = true };
	u32 i, j, l, s, d, r, last, reach = 0, cut = 0;
	struct hn_tport h[64];
	struct hn_topo t;
	u64 seed = 7;
	int n;

	for (i = 0; i < ARRAY_SIZE(shape); i++) {
		ASSERT_EQ(0, hn_topo_gh(&t, shape[i][0], shape[i][1], 10, 6400));
		for (r = 0; r < 20; r++) {
			for (j = 0; j < 2 + r % 11; j++) {
				l = t.nodes + hn_rand_below(&seed,
							    t.nlinks - t.nodes);
				ASSERT_EQ(0, hn_topo_fault_set(&t, false, l, true));
			}
			for (s = 0; s < t.nodes; s++)
				for (d = 0; d < t.nodes; d++) {
					if (s == d)
						continue;
					n = hn_topo_path(&t, s, d, &a, h, 64);
					ASSERT_LT(0, n);
					ASSERT_GE(t.max_hops, (u32)n);
					EXPECT_EQ(!crosses_dead(&t, h, n, s),
						  hn_topo_reach(&t, s, d))
						TH_LOG("%u -> %u", s, d);
					if (!hn_topo_reach(&t, s, d)) {
						cut++;
						continue;
					}
					reach++;
					for (j = 0, last = 0; j < (u32)n; j++) {
						l = t.ops->rank(&t, h[j].sw,
								h[j].port);
						EXPECT_LT(last, l);
						last = l;
					}
				}
			for (l = t.nodes; l < t.nlinks; l++)
				ASSERT_EQ(0, hn_topo_fault_set(&t, false, l,
							       false));
			EXPECT_EQ(NULL, t.fault);
		}
		hn_topo_fini(&t);
	}
	EXPECT_LT(0, reach);
	EXPECT_LT(0, cut);
}

/* The level of switch @sw. */
static u32 level_of(struct sim *s, u32 sw)
{
	struct hn_switch_stats ss;

	return hn_switch_stats(s->e, sw, &ss) ? HN_NONE : ss.level;
}

/* The bytes a link's two channels have carried. */
static u64 link_bytes(struct sim *s, u32 l)
{
	struct hn_link_stats ls;

	if (hn_link_stats(s->e, l, &ls))
		return 0;
	return ls.ch[0].bytes + ls.ch[1].bytes;
}

/*
 * Random traffic on @c for @span ns with the links between switches
 * numbered @down[0..n) among them down from the start: every message the
 * NICs take arrives, refused ones are refused for their route only, and
 * no dead link carries a byte.  Returns the messages refused as
 * unreachable.
 */
static u32 faulty_traffic(struct __test_metadata *_metadata,
			  const struct hn_config *c, u32 *down, u32 n,
			  u64 span)
{
	u64 seed = 11, t, sent = 0;
	u32 i, u, v, unreach = 0;
	struct hn_fabric_info fi;
	struct sim s;
	int rc;

	if (sim_init(&s, c) || hn_fabric_info(s.e, &fi))
		return HN_NONE;
	for (i = 0; i < n; i++) {
		down[i] = fi.nodes + down[i] % (fi.links - fi.nodes);
		EXPECT_EQ(0, hn_set_fault(s.e, false, down[i], true, NULL, NULL));
	}
	for (t = 0; t < span; t += 40) {
		hn_run_until(s.e, t);
		for (u = 0; u < c->nodes; u++) {
			if (hn_rand_below(&seed, 3))
				continue;
			v = (u + 1 + hn_rand_below(&seed, c->nodes - 1)) %
			    c->nodes;
			rc = sim_send(&s, u, v, 1 + hn_rand_below(&seed, 200));
			EXPECT_TRUE(!rc || rc == -EAGAIN ||
				    rc == -EHOSTUNREACH);
			sent += !rc;
			unreach += rc == -EHOSTUNREACH;
		}
	}
	sim_drain(&s, span * 1000);
	EXPECT_FALSE(hn_busy(s.e));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	EXPECT_EQ(sent, s.nlog);
	if (in_order(c))
		EXPECT_EQ(0, s.order_errors);
	for (i = 0; i < n; i++)
		EXPECT_EQ(0, link_bytes(&s, down[i])) TH_LOG("link %u", down[i]);
	sim_fini(&s);
	return unreach;
}

TEST(traffic_keeps_off_dead_links)
{
	static const struct {
		const char *topo;
		u32 upsel, vcs, depth, sw, d;
		bool all;	/* every pair keeps a route */
	} v[] = {
		{ "fattree:3,4", HN_UPSEL_DET, 0, 0, HN_SWITCH_VCT, 1, true },
		{ "fattree:3,4", HN_UPSEL_RANDOM, 0, 0, HN_SWITCH_VCT, 1, true },
		{ "fattree:3,4", HN_UPSEL_ADAPTIVE, 0, 0, HN_SWITCH_WORMHOLE, 1,
		  true },
		{ "fattree:3,4", HN_UPSEL_RANDOM, 2, 4, HN_SWITCH_WORMHOLE, 1,
		  true },
		{ "fattree:3,4", HN_UPSEL_RANDOM, 0, 0, HN_SWITCH_DROP, 2, true },
		{ "fattree:3,4", HN_UPSEL_DET, 0, 0, HN_SWITCH_DROP, 1, true },
		{ "mesh:4x4", HN_UPSEL_DET, 0, 0, HN_SWITCH_VCT, 1, false },
		{ "torus:4x4", HN_UPSEL_DET, 2, 4, HN_SWITCH_WORMHOLE, 1, false },
		{ "gh:2,4", HN_UPSEL_DET, 0, 0, HN_SWITCH_DROP, 1, false },
	};
	struct hn_config c;
	u32 i, down[3], unreach;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		direct_config(&c, v[i].topo);
		c.up_select = v[i].upsel;
		c.switching = v[i].sw;
		c.dilation = v[i].d;
		c.vc_count = v[i].vcs;
		c.vc_flits = v[i].depth;
		if (v[i].sw == HN_SWITCH_DROP)
			c.vc_count = c.vc_flits = 0;
		else if (!v[i].vcs)
			c.worm_bytes = c.max_msg_bytes;
		down[0] = 3;
		down[1] = 17;
		down[2] = 30;
		unreach = faulty_traffic(_metadata, &c, down, 3, 20000);
		EXPECT_EQ(v[i].all, !unreach) TH_LOG("%s: %u refused",
						     v[i].topo, unreach);
	}
}

/*
 * C2.5 through the engine: GH(2,4) with the link between switches 1 and
 * 2 down (digit 0, both below k - 1): every message arrives and none is
 * refused, on every engine (VCT, wormhole with buffers of one flit, the
 * flit router, drop on block), by destination and at random; with the
 * link between 2 and 3 down (3 = k - 1) instead, its pairs' messages are
 * refused and every other one arrives.
 */
TEST(gh_traffic_goes_around_a_dead_link)
{
	static const struct {
		u32 sw, upsel, vcs, depth, link;
		bool all;
	} v[] = {
		{ HN_SWITCH_VCT, HN_UPSEL_DET, 0, 0, 3, true },
		{ HN_SWITCH_VCT, HN_UPSEL_RANDOM, 0, 0, 3, true },
		{ HN_SWITCH_WORMHOLE, HN_UPSEL_DET, 0, 1, 3, true },
		{ HN_SWITCH_WORMHOLE, HN_UPSEL_RANDOM, 2, 4, 3, true },
		{ HN_SWITCH_DROP, HN_UPSEL_DET, 0, 0, 3, true },
		{ HN_SWITCH_VCT, HN_UPSEL_DET, 0, 0, 5, false },
	};
	struct hn_config c;
	u32 i, down, unreach;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		direct_config(&c, "gh:2,4");
		c.up_select = v[i].upsel;
		c.switching = v[i].sw;
		c.vc_count = v[i].vcs;
		c.vc_flits = v[i].depth;
		if (v[i].sw == HN_SWITCH_VCT)
			c.worm_bytes = c.max_msg_bytes;
		down = v[i].link;	/* 3: (1, 2) of digit 0; 5: (2, 3) */
		unreach = faulty_traffic(_metadata, &c, &down, 1, 20000);
		EXPECT_EQ(v[i].all, !unreach) TH_LOG("case %u: %u refused", i,
						     unreach);
	}
}

/*
 * Under random traffic, three links and a switch go down a third of the
 * way through and come back two thirds through, the engine checked
 * every 40 ns: worms in flight finish, nothing is lost or duplicated,
 * messages cut off wait and then arrive, on every engine.
 */
TEST(links_go_and_come_back_under_load)
{
	static const char *const fab[] = { "fattree:3,4", "fattree:3,4",
					   "fattree:3,4", "mesh:4x4", "gh:2,4" };
	static const u32 sw[] = { HN_SWITCH_VCT, HN_SWITCH_WORMHOLE,
				  HN_SWITCH_DROP, HN_SWITCH_VCT,
				  HN_SWITCH_DROP };
	u64 seed = 3, t, sent, span = 30000;
	struct hn_fabric_info fi;
	u32 i, j, u, v, l[3];
	struct hn_config c;
	struct sim s;
	int rc;

	for (i = 0; i < ARRAY_SIZE(fab); i++) {
		direct_config(&c, fab[i]);
		c.up_select = HN_UPSEL_RANDOM;
		c.switching = sw[i];
		c.worm_bytes = c.max_msg_bytes;
		if (i == 1) {		/* the flit router */
			c.vc_count = 2;
			c.vc_flits = 4;
			c.worm_bytes = 64;
		}
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, hn_fabric_info(s.e, &fi));
		for (j = 0; j < 3; j++)
			l[j] = fi.nodes + (7 + 11 * j) % (fi.links - fi.nodes);
		for (sent = 0, t = 0; t < span; t += 40) {
			hn_run_until(s.e, t);
			ASSERT_EQ(0, hn_check(s.e, NULL)) TH_LOG("%s at %llu",
				  fab[i], (unsigned long long)t);
			for (j = 0; j < 3 && (t == span / 3 / 40 * 40 ||
					      t == 2 * span / 3 / 40 * 40); j++)
				ASSERT_EQ(0, hn_set_fault(s.e, false, l[j],
							  t < span / 2, NULL,
							  NULL));
			if (t == span / 3 / 40 * 40 ||
			    t == 2 * span / 3 / 40 * 40)
				ASSERT_EQ(0, hn_set_fault(s.e, true, fi.switches - 1,
							  t < span / 2, NULL,
							  NULL));
			for (u = 0; u < c.nodes; u++) {
				if (hn_rand_below(&seed, 3))
					continue;
				v = (u + 1 + hn_rand_below(&seed, c.nodes - 1)) %
				    c.nodes;
				rc = sim_send(&s, u, v,
					      1 + hn_rand_below(&seed, 200));
				EXPECT_TRUE(!rc || rc == -EAGAIN ||
					    rc == -EHOSTUNREACH);
				sent += !rc;
			}
		}
		sim_drain(&s, span * 1000);
		EXPECT_FALSE(hn_busy(s.e)) TH_LOG("%s", fab[i]);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		EXPECT_EQ(sent, s.nlog) TH_LOG("%s", fab[i]);
		sim_fini(&s);
	}
}

/*
 * A message queued for a node whose link then goes down waits, counted
 * by hn_unreach_waiting(), and new ones are refused, until the link is
 * back; then it arrives and the count is 0.
 */
TEST(queued_message_waits_for_its_link)
{
	struct hn_config c;
	struct hn_err err;
	struct sim s;

	direct_config(&c, "fattree:3,4");
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 0, 5, 64));
	ASSERT_EQ(0, sim_send(&s, 0, 5, 64));
	ASSERT_EQ(0, sim_send(&s, 2, 5, 64));
	EXPECT_EQ(0u, hn_unreach_waiting(s.e));	/* nothing down */
	ASSERT_EQ(0, hn_set_fault(s.e, false, 5, true, NULL, NULL));
	hn_run_until(s.e, 1000000);
	EXPECT_EQ(0, s.nlog);
	EXPECT_TRUE(hn_busy(s.e));
	EXPECT_EQ(3u, hn_unreach_waiting(s.e));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	EXPECT_EQ(-EHOSTUNREACH, sim_send(&s, 1, 5, 64));
	EXPECT_EQ(-EHOSTUNREACH, sim_send(&s, 5, 1, 64));
	EXPECT_EQ(0, sim_send(&s, 1, 6, 64));
	hn_run_until(s.e, 2000000);
	EXPECT_EQ(1, s.nlog);			/* 1 -> 6 */
	EXPECT_EQ(3u, hn_unreach_waiting(s.e));
	ASSERT_EQ(0, hn_set_fault(s.e, false, 5, false, NULL, NULL));
	EXPECT_EQ(0u, hn_unreach_waiting(s.e));	/* a route again */
	sim_drain(&s, 10000000);
	EXPECT_EQ(4, s.nlog);
	EXPECT_NE(NULL, sim_find(&s, 0, 5, 1));
	EXPECT_NE(NULL, sim_find(&s, 2, 5, 0));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	/* what cannot be done says why */
	EXPECT_EQ(-EINVAL, hn_set_fault(s.e, false, 1u << 30, true, NULL, &err));
	EXPECT_STREQ("no such link", err.msg);
	EXPECT_EQ(-EINVAL, hn_set_fault(s.e, true, 1u << 30, true, NULL, &err));
	EXPECT_STREQ("no such switch", err.msg);
	EXPECT_EQ(-EINVAL, hn_set_fault_random(s.e, 1000, 1, NULL, &err));
	sim_fini(&s);
	/* pure TDM: a dead circuit's messages would have nowhere to go */
	c.k = 2;
	c.policy = HN_POL_NO_W;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EOPNOTSUPP, hn_set_fault(s.e, false, 20, true, NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "pure TDM"));
	sim_fini(&s);
}

/*
 * FT(3,4) with two circuit slots: a link down on a circuit's path
 * releases that circuit alone, and its messages arrive by wormhole; a
 * preload over the dead link is refused, naming it, and one the
 * scheduler routes goes around it; every slot's link state holds it
 * taken (hn_check()), until it is back up.
 */
/* FT(3,4) with two circuit slots under SES, as the circuits' tests take it */
static void ft_circuits(struct hn_config *c)
{
	direct_config(c, "fattree:3,4");
	c->k = 2;
	c->policy = HN_POL_SES;
}

/* Deliveries of (src, dst) the mode @mode carried */
static u32 by_mode(struct sim *s, u32 src, u32 dst, u8 mode)
{
	u32 i, n = 0;

	for (i = 0; i < s->nlog; i++)
		n += s->log[i]->m.src == src && s->log[i]->m.dst == dst &&
		     s->log[i]->m.mode == mode;
	return n;
}

/*
 * A fat tree's circuit cut by a dead link is routed again in its slot
 * where a path is free: the same pair, another up-port, the slot's other
 * circuit untouched, its messages still by circuit and never over the
 * dead link; with both links of its leaf switch's free up-ports down, none
 * is free and it is released (below).
 */
TEST(circuit_routed_again_around_a_dead_link)
{
	struct hn_pair p[2] = { { 0, 63 }, { 1, 62 } };
	u8 path[4], other[4], now[4];
	struct hn_config c;
	struct hn_err err;
	u32 released = 9, L, i;
	u64 before;
	struct sim s;

	ft_circuits(&c);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, p, 2));
	ASSERT_EQ(2, hn_circuit_path(s.e, 0, 0, path, 4));
	ASSERT_EQ(2, hn_circuit_path(s.e, 0, 1, other, 4));
	L = hn_link_at(s.e, 0, 4 + path[0]);	/* sw0.0's up-port */
	ASSERT_NE(HN_NONE, L);
	before = link_bytes(&s, L);
	ASSERT_EQ(0, hn_set_fault(s.e, false, L, true, &released, NULL));
	EXPECT_EQ(0, released);
	EXPECT_EQ(1, s.e->g.circuit_reroutes);
	EXPECT_EQ(0, s.e->g.releases);
	EXPECT_EQ(63, hn_circuit(s.e, 0, 0));
	ASSERT_EQ(2, hn_circuit_path(s.e, 0, 0, now, 4));
	EXPECT_NE(path[0], now[0]);
	EXPECT_NE(other[0], now[0]);
	ASSERT_EQ(2, hn_circuit_path(s.e, 0, 1, now, 4));
	EXPECT_EQ(0, memcmp(other, now, 2));
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, sim_send(&s, 0, 63, 200));
	sim_drain(&s, 10000000);
	EXPECT_EQ(3, s.nlog);
	EXPECT_EQ(3, by_mode(&s, 0, 63, HN_MODE_CIRCUIT));
	EXPECT_EQ(0, s.order_errors);
	EXPECT_EQ(before, link_bytes(&s, L));
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	sim_fini(&s);
}

/*
 * A circuit cut while its slot runs, in the middle of a message longer
 * than the slot: it sends nothing more in that run, so the message
 * arrives later than without the fault, by its new path, from what the
 * earlier runs sent; in order, never over the dead link.
 */
TEST(circuit_routed_again_while_its_slot_runs)
{
	struct hn_pair p = { 0, 63 };
	u64 before = 0, t, at[2] = { 0 };
	struct hn_config c;
	struct hn_err err;
	u8 path[4], now[4];
	struct sim s;
	u32 L = 0, n, f;

	ft_circuits(&c);
	for (f = 0; f < 2; f++) {
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
		ASSERT_EQ(2, hn_circuit_path(s.e, 0, 0, path, 4));
		L = hn_link_at(s.e, 0, 4 + path[0]);
		ASSERT_NE(HN_NONE, L);
		ASSERT_EQ(0, sim_send(&s, 0, 63, 1000));
		ASSERT_EQ(0, sim_send(&s, 0, 63, 64));
		/* into slot 0's second run, the first having sent part */
		for (n = 0, t = 0; n < 100000; n++) {
			t += 5;
			hn_run_until(s.e, t);
			if (s.e->in_slot && s.e->cur == 0 &&
			    s.e->g.slot[0].runs == 2 &&
			    hn_now(s.e) > s.e->slot_start + c.guard_ns)
				break;
		}
		ASSERT_GT(100000, n);
		ASSERT_EQ(0, s.nlog);
		ASSERT_LT(0, s.e->g.slot[0].bytes);
		before = link_bytes(&s, L);
		if (f) {
			ASSERT_EQ(0, hn_set_fault(s.e, false, L, true, NULL,
						  NULL));
			EXPECT_EQ(1, s.e->g.circuit_reroutes);
			ASSERT_EQ(2, hn_circuit_path(s.e, 0, 0, now, 4));
			EXPECT_NE(path[0], now[0]);
			EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
		}
		sim_drain(&s, 100000000);
		EXPECT_EQ(2, s.nlog);
		EXPECT_EQ(2, by_mode(&s, 0, 63, HN_MODE_CIRCUIT));
		EXPECT_EQ(0, s.order_errors);
		EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
		ASSERT_LT(0, s.nlog);
		at[f] = s.log[0]->m.t_deliver;
		if (f)
			EXPECT_EQ(before, link_bytes(&s, L));
		sim_fini(&s);
	}
	EXPECT_LT(at[0], at[1]);
}

/*
 * Released when no path is free: slot 0's four circuits from sw0.0 to
 * sw0.15 hold its four up-ports, so the one cut has none left.
 */
TEST(circuits_release_and_avoid_dead_links)
{
	struct hn_pair p[4] = { { 0, 63 }, { 1, 62 }, { 2, 61 }, { 3, 60 } };
	struct hn_pair q = { 0, 63 };
	struct hn_slot_cfg sc = { .slot = 1, .npairs = 1, .pairs = &q };
	u8 path[4], via[2];
	struct hn_config c;
	struct hn_err err;
	u32 released = 0, L, i;
	char text[200];
	struct sim s;

	ft_circuits(&c);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, p, 4));
	ASSERT_EQ(2, hn_circuit_path(s.e, 0, 0, path, 4));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, sim_send(&s, 0, 63, 200));
	/* sw0.0's up-port path[0]: its ports are 4 down, then 4 up */
	L = hn_link_at(s.e, 0, 4 + path[0]);
	ASSERT_NE(HN_NONE, L);
	ASSERT_EQ(0, hn_set_fault(s.e, false, L, true, &released, NULL));
	EXPECT_EQ(1, released);
	EXPECT_EQ(0, s.e->g.circuit_reroutes);
	EXPECT_EQ(HN_NONE, hn_circuit(s.e, 0, 0));
	EXPECT_EQ(62, hn_circuit(s.e, 0, 1));
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	sim_drain(&s, 10000000);
	EXPECT_EQ(3, s.nlog);
	EXPECT_EQ(0, s.order_errors);
	EXPECT_EQ(0, link_bytes(&s, L));
	/* over the dead link: refused, the link named */
	via[0] = path[0];
	via[1] = path[1];
	sc.ports = via;
	EXPECT_EQ(-EBUSY, hn_preload(s.e, &sc, 1, &err));
	hn_err_text(text, sizeof(text), -EBUSY, &err, "preload refused");
	EXPECT_NE(NULL, strstr(text, "path's up-link is down: link sw0.0/up"))
		TH_LOG("%s", text);
	/* routed by the scheduler: around it */
	sc.ports = NULL;
	ASSERT_EQ(0, hn_preload(s.e, &sc, 1, NULL));
	ASSERT_EQ(2, hn_circuit_path(s.e, 1, 0, via, 2));
	EXPECT_NE(path[0], via[0]);
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	/* back up: the explicit path is taken */
	ASSERT_EQ(0, hn_set_fault(s.e, false, L, false, &released, NULL));
	EXPECT_EQ(0, released);
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	via[0] = path[0];
	via[1] = path[1];
	sc.ports = via;
	EXPECT_EQ(0, hn_preload(s.e, &sc, 1, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	sim_fini(&s);
}

/*
 * A link brought back up while a circuit slot is in progress: the node
 * whose message waited for it looks again when the wormhole slot comes,
 * on every engine (VCT, the flit router, drop, the crossbar).
 */
TEST(back_up_in_a_circuit_slot)
{
	static const u32 vcs[] = { 0, 2 };
	struct hn_pair p = { 1, 2 };
	struct hn_config c;
	struct sim s;
	u32 i, n;

	for (i = 0; i < ARRAY_SIZE(vcs) + 2; i++) {
		direct_config(&c, i > ARRAY_SIZE(vcs) ? "crossbar" : "fattree:3,4");
		if (i > ARRAY_SIZE(vcs))
			c.nodes = 16;
		c.k = 2;
		c.policy = HN_POL_SES;
		c.worm_bytes = c.max_msg_bytes;
		c.vc_count = i < ARRAY_SIZE(vcs) ? vcs[i] : 0;
		c.vc_flits = c.vc_count ? 4 : 0;
		if (i == ARRAY_SIZE(vcs))
			c.switching = HN_SWITCH_DROP;
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
		ASSERT_EQ(0, sim_send(&s, 0, 5, 64));
		ASSERT_EQ(0, hn_set_fault(s.e, false, 5, true, NULL, NULL));
		for (n = 0; n < 10000; n++) {	/* the circuit keeps its slot busy */
			if (n % 20 == 0)
				sim_send(&s, 1, 2, 64);
			hn_run_until(s.e, 100000 + n * 5);
			if (s.e->in_slot && s.e->cur < c.k)
				break;
		}
		ASSERT_GT(10000, n);
		EXPECT_EQ(NULL, sim_find(&s, 0, 5, 0));
		ASSERT_EQ(0, hn_set_fault(s.e, false, 5, false, NULL, NULL));
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_drain(&s, hn_now(s.e) + 10000000);
		EXPECT_NE(NULL, sim_find(&s, 0, 5, 0)) TH_LOG("engine %u", i);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

/* A mesh's circuit takes the topology's route: down, it goes. */
TEST(mesh_circuit_over_a_dead_link)
{
	struct hn_pair p = { 0, 2 };
	struct hn_slot_cfg sc = { .slot = 0, .npairs = 1, .pairs = &p };
	struct hn_config c;
	struct hn_topo t;
	struct hn_err err;
	u32 released = 0, L;
	char text[200];
	struct sim s;

	ASSERT_EQ(0, hn_topo_cube(&t, 2, 4, false, 10, 6400));
	direct_config(&c, "mesh:4x4");
	c.k = 2;
	c.policy = HN_POL_SES;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	/* 0 -> 2 runs along row 0: switch 1 to switch 2 */
	L = hn_link_at(s.e, 1, t.ops->route(&t, 1, 2));
	hn_topo_fini(&t);
	ASSERT_NE(HN_NONE, L);
	ASSERT_EQ(0, hn_set_fault(s.e, false, L, true, &released, NULL));
	EXPECT_EQ(1, released);
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EBUSY, hn_preload(s.e, &sc, 1, &err));
	hn_err_text(text, sizeof(text), -EBUSY, &err, "preload refused");
	EXPECT_NE(NULL, strstr(text, "path's link is down: channel sw0.1/"))
		TH_LOG("%s", text);
	/* the pair's messages: no live route either, so refused */
	EXPECT_EQ(-EHOSTUNREACH, sim_send(&s, 0, 2, 10));
	EXPECT_EQ(0, sim_send(&s, 0, 4, 10));
	sim_drain(&s, 10000000);
	EXPECT_EQ(1, s.nlog);
	sim_fini(&s);
}

/* The crossbar's links are its nodes': one down cuts that node off. */
TEST(crossbar_node_link)
{
	struct hn_config c;
	struct sim s;
	u32 u;

	direct_config(&c, "crossbar");
	c.nodes = 8;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 0, 3, 100));
	ASSERT_EQ(0, hn_set_fault(s.e, false, 3, true, NULL, NULL));
	for (u = 0; u < c.nodes; u++) {
		if (u == 3)
			continue;
		EXPECT_EQ(-EHOSTUNREACH, sim_send(&s, 3, u, 100));
		EXPECT_EQ(-EHOSTUNREACH, sim_send(&s, u, 3, 100));
		EXPECT_EQ(0, sim_send(&s, u, u == 2 ? 4 : (u + 1) % 8, 100));
	}
	hn_run_until(s.e, 1000000);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	EXPECT_EQ(7, s.nlog);	/* 0 -> 3 waits */
	ASSERT_EQ(0, hn_set_fault(s.e, false, 3, false, NULL, NULL));
	sim_drain(&s, 10000000);
	EXPECT_EQ(8, s.nlog);
	EXPECT_NE(NULL, sim_find(&s, 0, 3, 0));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/* The same seed takes the same links down; another, others. */
TEST(random_faults_are_seeded)
{
	struct hn_config c;
	struct sim a, b;
	u32 l, same = 0, links, sws;

	direct_config(&c, "fattree:3,4");
	ASSERT_EQ(0, sim_init(&a, &c));
	ASSERT_EQ(0, sim_init(&b, &c));
	ASSERT_EQ(0, hn_set_fault_random(a.e, 20, 7, NULL, NULL));
	ASSERT_EQ(0, hn_set_fault_random(b.e, 20, 7, NULL, NULL));
	for (l = 0; l < c.nodes; l++)
		EXPECT_FALSE(hn_link_down(a.e, l));	/* never a node's */
	for (; l < 200; l++)
		same += hn_link_down(a.e, l) == hn_link_down(b.e, l);
	EXPECT_EQ(200 - c.nodes, same);
	hn_faults(a.e, &links, &sws);
	EXPECT_EQ(20, links);
	EXPECT_EQ(0, sws);
	sim_fini(&b);
	ASSERT_EQ(0, sim_init(&b, &c));
	ASSERT_EQ(0, hn_set_fault_random(b.e, 20, 8, NULL, NULL));
	for (same = 0, l = c.nodes; l < 200; l++)
		same += hn_link_down(a.e, l) && hn_link_down(b.e, l);
	EXPECT_GT(20, same);
	sim_fini(&a);
	sim_fini(&b);
}

/*
 * Links failing over time (fault_mtbf_ns, fault_repair_ns): about one
 * failure a mean time, each link back up a repair time later, traffic
 * on all the while delivered or refused, never lost; the same run twice.
 */
static void flapping(struct __test_metadata *_metadata,
		     const struct hn_config *c, u64 span, struct hn_gstats *g,
		     u32 *down)
{
	u64 seed = 5, t, sent = 0;
	struct sim s;
	u32 u, v, sw;
	int rc;

	ASSERT_EQ(0, sim_init(&s, c));
	for (t = 0; t < span; t += 40) {
		hn_run_until(s.e, t);
		for (u = 0; u < c->nodes; u++) {
			if (hn_rand_below(&seed, 4))
				continue;
			v = (u + 1 + hn_rand_below(&seed, c->nodes - 1)) %
			    c->nodes;
			rc = sim_send(&s, u, v, 1 + hn_rand_below(&seed, 100));
			EXPECT_TRUE(!rc || rc == -EAGAIN || rc == -EHOSTUNREACH);
			sent += !rc;
		}
	}
	hn_faults(s.e, down, &sw);
	hn_stats_global(s.e, g);
	sim_drain(&s, span * 1000);
	EXPECT_FALSE(hn_busy(s.e));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	EXPECT_EQ(sent, s.nlog);
	sim_fini(&s);
}

TEST(links_fail_and_come_back_over_time)
{
	struct hn_gstats g, g2;
	struct hn_config c;
	struct hn_err err;
	u32 down, down2;

	sim_config_ft(&c, 3, 4, 0);
	c.up_select = HN_UPSEL_RANDOM;
	c.fault_mtbf_ns = 2000;
	c.fault_repair_ns = 10000;
	ASSERT_EQ(0, hn_config_check(&c, NULL));
	flapping(_metadata, &c, 200000, &g, &down);
	/* 100 failures expected; the gaps' spread makes +-20 generous */
	EXPECT_GE(g.links_failed, 80);
	EXPECT_LE(g.links_failed, 120);
	/* down now: those of the last repair time, about 5 */
	EXPECT_EQ(g.links_failed - g.links_repaired, down);
	EXPECT_GE(down, 1);
	EXPECT_LE(down, 10);
	flapping(_metadata, &c, 200000, &g2, &down2);
	EXPECT_EQ(g.links_failed, g2.links_failed);
	EXPECT_EQ(g.rx_msgs[HN_MODE_WORMHOLE], g2.rx_msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(g.lat_sum, g2.lat_sum);
	/* never repaired: they stay down */
	c.fault_repair_ns = 0;
	flapping(_metadata, &c, 20000, &g, &down);
	EXPECT_EQ(0, g.links_repaired);
	EXPECT_EQ(g.links_failed, down);
	EXPECT_GE(down, 5);
	/* only a fabric of switches; a repair needs failures */
	c.topology = HN_TOPO_CROSSBAR;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "fabric of switches"));
	sim_config_ft(&c, 3, 4, 0);
	c.fault_repair_ns = 10;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "needs fault_mtbf_ns"));
	/* nor under pure TDM, where faults are refused (and stay so live) */
	sim_config_ft(&c, 3, 4, 2);
	c.fault_mtbf_ns = 1000;
	c.policy |= HN_POL_NO_W;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "needs the wormhole slot"));
}

/*
 * fault_mtbf_ns and fault_repair_ns change live (hn_set_live()): failures
 * begin from the instant they are set, the first drawn from then; set
 * back to 0 they stop, and the links they took down still come back up;
 * set again, they go on.  A change the configuration refuses changes
 * nothing.
 */
TEST(failures_over_time_change_live)
{
	struct hn_config c, n;
	struct hn_gstats g;
	struct hn_err err;
	struct sim s;
	u32 down, sw;
	u64 f;

	sim_config_ft(&c, 3, 4, 0);
	ASSERT_EQ(0, sim_init(&s, &c));
	hn_run_until(s.e, 100000);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(0, g.links_failed);
	n = c;
	n.fault_mtbf_ns = 1000;
	n.fault_repair_ns = 5000;
	ASSERT_EQ(0, hn_set_live(s.e, &n, NULL));
	hn_run_until(s.e, 100000 + 2 * 1000 - 1);	/* the longest gap */
	hn_stats_global(s.e, &g);
	EXPECT_GE(g.links_failed, 1);
	hn_run_until(s.e, 150000);
	hn_stats_global(s.e, &g);
	/* 50 expected in 50 us; the gaps' spread makes +-15 generous */
	EXPECT_GE(g.links_failed, 35);
	EXPECT_LE(g.links_failed, 65);
	f = g.links_failed;
	n.fault_mtbf_ns = 0;
	n.fault_repair_ns = 0;
	ASSERT_EQ(0, hn_set_live(s.e, &n, NULL));
	hn_run_until(s.e, 200000);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(f, g.links_failed);
	EXPECT_EQ(f, g.links_repaired);
	hn_faults(s.e, &down, &sw);
	EXPECT_EQ(0, down);
	n.fault_mtbf_ns = 1000;
	ASSERT_EQ(0, hn_set_live(s.e, &n, NULL));
	hn_run_until(s.e, 250000);
	hn_stats_global(s.e, &g);
	EXPECT_GE(g.links_failed, g.links_repaired + 35);
	/* refused: a repair with no failures; the failures go on */
	n.fault_mtbf_ns = 0;
	n.fault_repair_ns = 10;
	EXPECT_EQ(-EINVAL, hn_set_live(s.e, &n, &err));
	EXPECT_NE(NULL, strstr(err.msg, "needs fault_mtbf_ns"));
	EXPECT_EQ(1000, hn_cfg(s.e)->fault_mtbf_ns);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * Failures and repairs are events of a call's work (hn_set_work()): with
 * one every nanosecond, a call over a long idle stretch stops once its
 * work is spent instead of running millions of them at once (the module's
 * paced clock brings an idle engine's time up to date in one call), and
 * the calls after it go on to the same state as one unbounded call.
 */
TEST(dense_failures_are_bounded_work)
{
	const u64 span = 200000;
	struct hn_gstats g, g2;
	struct hn_config c;
	struct sim s, s2;
	u32 down, down2, sw, calls = 0;

	sim_config_ft(&c, 3, 4, 0);
	c.fault_mtbf_ns = 1;
	c.fault_repair_ns = 3;
	ASSERT_EQ(0, hn_config_check(&c, NULL));
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_init(&s2, &c));
	hn_set_work(s.e, 64);
	hn_run_until(s.e, span);
	EXPECT_TRUE(hn_cut(s.e));
	EXPECT_LT(hn_now(s.e), span);
	hn_stats_global(s.e, &g);
	EXPECT_LE(g.links_failed + g.links_repaired, 64);
	EXPECT_GE(g.links_failed, 10);
	while (hn_now(s.e) < span && calls++ < span)
		hn_run_until(s.e, span);
	EXPECT_EQ(span, hn_now(s.e));
	hn_run_until(s2.e, span);	/* no bound: all of it at once */
	hn_stats_global(s.e, &g);
	hn_stats_global(s2.e, &g2);
	EXPECT_GT(g2.links_failed, span / 4);
	EXPECT_EQ(g2.links_failed, g.links_failed);
	EXPECT_EQ(g2.links_repaired, g.links_repaired);
	hn_faults(s.e, &down, &sw);
	hn_faults(s2.e, &down2, &sw);
	EXPECT_EQ(down2, down);
	EXPECT_GT(calls, 100);
	sim_fini(&s);
	sim_fini(&s2);
}

/*
 * C4.6: a link brought back up carries at least 20 % of its equal share
 * (the mean of the links between the same two levels) within one window
 * (the w after it is back) of random up-ports under uniform load.
 */
TEST(restored_link_carries_its_share)
{
	u64 seed = 5, t, w = 200000, before[256], share = 0, mine;
	struct hn_link_stats ls, me;
	struct hn_fabric_info fi;
	struct hn_config c;
	u32 l, u, n = 0, L;
	struct sim s;

	direct_config(&c, "fattree:3,4");
	c.up_select = HN_UPSEL_RANDOM;
	c.worm_bytes = c.max_msg_bytes;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_fabric_info(s.e, &fi));
	ASSERT_GE(256, fi.links);
	L = c.nodes + 5;
	ASSERT_EQ(0, hn_link_stats(s.e, L, &me));
	ASSERT_EQ(0, hn_set_fault(s.e, false, L, true, NULL, NULL));
	for (t = 0; t <= 2 * w; t += 100) {
		if (t == w) {
			ASSERT_EQ(0, hn_set_fault(s.e, false, L, false, NULL, NULL));
			for (l = c.nodes; l < fi.links; l++)
				before[l] = link_bytes(&s, l);
			EXPECT_EQ(0, before[L]);
		}
		hn_run_until(s.e, t);
		for (u = 0; u < c.nodes; u++)
			if (!hn_rand_below(&seed, 4))
				sim_send(&s, u, hn_rand_below(&seed, c.nodes),
					 64);
	}
	for (l = c.nodes; l < fi.links; l++) {
		ASSERT_EQ(0, hn_link_stats(s.e, l, &ls));
		if (ls.sw[HN_UP] == HN_NONE ||
		    level_of(&s, ls.sw[HN_UP]) != level_of(&s, me.sw[HN_UP]))
			continue;
		share += link_bytes(&s, l) - before[l];
		n++;
	}
	mine = link_bytes(&s, L) - before[L];
	ASSERT_LT(1, n);
	EXPECT_LE(share / n / 5, mine)
		TH_LOG("restored %llu B, the mean of %u links %llu B",
		       (unsigned long long)mine, n,
		       (unsigned long long)(share / n));
	sim_fini(&s);
}

TEST_HARNESS_MAIN

/*
 * Every fat-tree scheduler routes around dead links: with one of sw0.0's
 * four up-links down, four pairs from its nodes to sw0.15's cannot all
 * have a circuit in one slot, three can, and a fourth predicted goes to
 * another slot; none that is made crosses the dead link.  The optimal
 * scheduler, which needs every link up, refused every preload once a
 * link was down and granted predictions over it.
 */
TEST(schedulers_route_around_dead_links)
{
	struct hn_pair p[4] = { { 0, 63 }, { 1, 62 }, { 2, 61 }, { 3, 60 } };
	struct hn_slot_cfg sc = { .slot = 0, .npairs = 4, .pairs = p };
	struct hn_grant g[1];
	struct hn_config c;
	struct hn_err err;
	u32 algo, L, i, n;
	struct sim s;
	int rc;

	for (algo = HN_FT_LEVELWISE; algo <= HN_FT_OPTIMAL; algo++) {
		ft_circuits(&c);
		c.ft_sched = algo;
		ASSERT_EQ(0, sim_init(&s, &c));
		L = hn_link_at(s.e, 0, 4);		/* sw0.0/up0 */
		ASSERT_NE(HN_NONE, L);
		ASSERT_EQ(0, hn_set_fault(s.e, false, L, true, NULL, NULL));
		rc = hn_preload(s.e, &sc, 1, &err);
		EXPECT_EQ(-EBUSY, rc) TH_LOG("ft_sched %u", algo);
		for (i = 0, n = 0; i < 4; i++) {
			if (hn_circuit(s.e, 0, i) == HN_NONE)
				continue;
			n++;
			EXPECT_TRUE(hn_circuit_live(s.e, 0, i))
				TH_LOG("ft_sched %u: %u's circuit", algo, i);
		}
		EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
		/* predicted: 0 -> 63 has only the dead up-port left */
		ASSERT_EQ(0, hn_release_all(s.e, NULL));
		ASSERT_EQ(0, hn_preload(s.e, &(struct hn_slot_cfg){
				.slot = 0, .npairs = 3, .pairs = p + 1 }, 1,
				&err)) TH_LOG("%s", err.msg);
		ASSERT_EQ(0, hn_predict(s.e, p, 1, g, NULL));
		EXPECT_NE(0, g[0].slot) TH_LOG("ft_sched %u", algo);
		for (i = 0; i < 4; i++) {
			EXPECT_TRUE(hn_circuit(s.e, 0, i) == HN_NONE ||
				    hn_circuit_live(s.e, 0, i))
				TH_LOG("ft_sched %u: %u's circuit", algo, i);
		}
		EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
		sim_fini(&s);
	}
}
