// SPDX-License-Identifier: GPL-2.0
/*
 * test_fabric.c - packets across the switches of a fat tree (switch.c,
 * flow.c; docs/model.md "Topologies"): Duato's base latencies at zero
 * load for wormhole, virtual cut-through and store-and-forward over every
 * distance of FT(2,4) and FT(3,4), and over the mesh, torus and GH;
 * FT(1, w) gives what the crossbar gives; with K = 0 the slot length
 * changes nothing.
 */
#include "harness.h"
#include "fabric.h"

static const u32 lens[] = { 8, 128, 384, 328, 1024 };

static void zero_load(struct __test_metadata *_metadata, const char *profile,
		      u32 levels, u32 overlap)
{
	struct hn_config c;
	u32 sw, h, i, f[16], n, left, dst, w = 4;
	u64 want, got;

	ft_config(&c, profile, levels, w);
	c.wh_overlap = overlap;
	for (sw = 0; sw <= 2; sw++) {
		c.switching = sw;
		for (h = 0; h < levels; h++) {
			dst = h ? c.nodes >> (2 * (levels - h)) : 1;
			for (i = 0; i < ARRAY_SIZE(lens); i++) {
				for (n = 0, left = lens[i]; left; n++) {
					f[n] = (left < c.worm_bytes ? left :
						c.worm_bytes) / c.flit_bytes;
					left -= left < c.worm_bytes ? left :
						c.worm_bytes;
				}
				want = duato(&c, sw, 2 * h + 2, f, n);
				got = one(&c, 0, dst, lens[i]);
				EXPECT_EQ(want, got) {
					TH_LOG("%s FT(%u,4) switching %u, H %u, %u B",
					       profile, levels, sw, h, lens[i]);
				}
				/* the same distance the other way */
				got = one(&c, c.nodes - 1,
					  c.nodes - 1 - dst, lens[i]);
				EXPECT_EQ(want, got);
			}
		}
	}
}

TEST(zero_load_ft2)
{
	zero_load(_metadata, "ding4", 2, 0);
	zero_load(_metadata, "ding5", 2, 1);
}

TEST(zero_load_ft3)
{
	zero_load(_metadata, "ding4", 3, 1);
	zero_load(_metadata, "ding5", 3, 0);
}

/* The crossbar, one switch (cut-through, store-and-forward, wormhole): D = 2. */
TEST(zero_load_crossbar)
{
	struct hn_config c;
	u32 f1[1] = { 16 }, f3[3] = { 16, 16, 16 };

	hn_config_profile(&c, "ding4");
	c.nodes = 16;
	c.k = 0;
	c.policy = 0;
	c.switching = 1;
	EXPECT_EQ(duato(&c, 1, 2, f1, 1), one(&c, 3, 9, 128));
	EXPECT_EQ(duato(&c, 1, 2, f3, 3), one(&c, 3, 9, 384));
	c.switching = 2;
	EXPECT_EQ(duato(&c, 2, 2, f1, 1), one(&c, 3, 9, 128));
	EXPECT_EQ(duato(&c, 2, 2, f3, 3), one(&c, 3, 9, 384));
	c.switching = 0;		/* wormhole */
	EXPECT_EQ(duato(&c, 0, 2, f3, 3), one(&c, 3, 9, 384));
}

/*
 * One blocked packet (Duato, Secs. 2.3.3, 2.3.4).  On FT(2,4), node 5
 * sends 4 KB to node 4 (its leaf switch 1 is theirs), holding the output
 * to node 4 for 5 us; node 0's 3 KB for node 4 (W1) waits for it in leaf
 * switch 1's input from its parent X, and node 1's 2 KB (W2) comes up
 * behind, through the same switches.  At 8 us: wormhole spreads W2 over
 * two switches: it claimed the 1 KB left at leaf 1 and holds the rest,
 * and X's output, in X; cut-through keeps all of W2 in X, whose output it
 * has not taken.  Store-and-forward sends W2 first (its tail was in
 * first): it waits whole in leaf 1, and W1 whole in X behind it.
 */
TEST(blocked_packet)
{
	static const u64 x_buf[] = { 1024, 2048, 3072 };
	static const u32 x_held[] = { 1, 0, 0 };
	static const u64 leaf_buf[] = { 4096, 3072, 2048 };
	struct hn_switch_stats ss, leaf;
	struct hn_config c;
	struct sim s;
	u32 sw, x, busy;

	for (sw = 0; sw <= 2; sw++) {
		ft_config(&c, "ding4", 2, 4);
		c.switching = sw;
		c.max_msg_bytes = c.sw_buf_bytes = c.worm_bytes = 4096;
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, sim_send(&s, 5, 4, 4096));
		ASSERT_EQ(0, sim_send(&s, 0, 4, 3072));
		ASSERT_EQ(0, sim_send(&s, 1, 4, 2048));
		hn_run_until(s.e, 8000);
		ASSERT_EQ(0, hn_check(s.e, NULL));
		ASSERT_EQ(0, hn_switch_stats(s.e, 1, &leaf));
		EXPECT_EQ(leaf_buf[sw], leaf.buf_bytes);
		EXPECT_EQ(1, leaf.held);	/* to node 4 */
		for (x = 4, busy = 0; x < 8; x++) {	/* level 1 */
			ASSERT_EQ(0, hn_switch_stats(s.e, x, &ss));
			EXPECT_EQ(1, ss.level);
			if (!ss.buf_bytes)
				continue;
			busy++;
			EXPECT_EQ(x_buf[sw], ss.buf_bytes) TH_LOG("switching %u", sw);
			EXPECT_EQ(x_held[sw], ss.held) TH_LOG("switching %u", sw);
		}
		EXPECT_EQ(1, busy);
		ASSERT_EQ(0, hn_switch_stats(s.e, 0, &ss));
		if (sw < 2)	/* W2 has left node 1's leaf */
			EXPECT_EQ(0, ss.held + ss.buf_bytes);
		sim_drain(&s, 1000000);
		EXPECT_EQ(3, s.nlog);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

/*
 * The direct networks at zero load: Duato's latencies with D = the
 * switches a route crosses + 1 links, for every pair of a mesh, a torus
 * and a GH (the route's length from hn_topo_path(), test_direct.c's
 * subject), each technique, one worm and three.
 */
TEST(zero_load_direct)
{
	static const char *const fab[] = { "mesh:4x4", "torus:5x5",
					   "gh:2,4", "mesh:3x3x3" };
	struct hn_upsel_arg a = { .mode = HN_UPSEL_DET };
	u32 i, sw, s, d, f1 = 16, f3[3] = { 16, 16, 16 };
	struct hn_tport hop[16];
	struct hn_config c;
	struct hn_topo t;
	int h;

	for (i = 0; i < ARRAY_SIZE(fab); i++) {
		direct_config(&c, fab[i]);
		ASSERT_EQ(0, hn_config_check(&c, NULL)) TH_LOG("%s", fab[i]);
		if (c.topology == HN_TOPO_GH)
			h = hn_topo_gh(&t, c.levels, c.width, 1, 1);
		else
			h = hn_topo_cube(&t, c.levels, c.width,
					 c.topology == HN_TOPO_TORUS, 1, 1);
		ASSERT_EQ(0, h);
		for (sw = 0; sw <= 2; sw++) {
			c.switching = sw;
			for (s = 0; s < c.nodes; s += 3) {
				d = (s * 7 + 5) % c.nodes;
				if (d == s)
					continue;
				h = hn_topo_path(&t, s, d, &a, hop, 16);
				ASSERT_LT(0, h);
				EXPECT_EQ(duato(&c, sw, h + 1, &f1, 1),
					  one(&c, s, d, 128))
					TH_LOG("%s %u to %u, switching %u",
					       fab[i], s, d, sw);
				EXPECT_EQ(duato(&c, sw, h + 1, f3, 3),
					  one(&c, s, d, 384));
			}
		}
		hn_topo_fini(&t);
	}
}

/*
 * Wormhole with flit buffers (vc_flits): a worm's latency does not depend
 * on the depth of the buffers it crosses (Duato, Sec. 2.3.4, eq. 2.10)
 * once they cover the round trip to the next switch (two flits here: a
 * flit's 10 ns and the 11 ns to the next input).  A buffer of one flit
 * does not: each flit waits for the one ahead to leave the next switch,
 * so a worm of more than one flit is slower.  Cut-through with buffers of
 * exactly a worm is eq. 2.3.
 */
TEST(zero_load_flit_buffers)
{
	static const u32 depth[] = { 1, 2, 5, 16, 17 };
	static const u32 len[] = { 8, 64, 128 };
	struct hn_config c;
	u32 i, j, h, dst, f;
	u64 want, got;

	ft_config(&c, "ding4", 3, 4);
	for (i = 0; i < ARRAY_SIZE(depth); i++) {
		c.vc_flits = depth[i];
		for (h = 0; h < 3; h++) {
			dst = h ? c.nodes >> (2 * (3 - h)) : 1;
			for (j = 0; j < ARRAY_SIZE(len); j++) {
				f = len[j] / c.flit_bytes;
				want = duato(&c, 0, 2 * h + 2, &f, 1);
				got = one(&c, 0, dst, len[j]);
				if (depth[i] > 1 || f == 1 || !h) {
					EXPECT_EQ(want, got)
						TH_LOG("vc_flits %u, H %u, %u B",
						       depth[i], h, len[j]);
				} else {
					EXPECT_LT(want, got)
						TH_LOG("H %u, %u B", h, len[j]);
				}
			}
		}
	}
	c.switching = 1;
	c.vc_flits = c.worm_bytes / c.flit_bytes;
	f = c.vc_flits;
	EXPECT_EQ(duato(&c, 1, 6, &f, 1), one(&c, 0, 63, 128));
}

/*
 * A blocked worm holds buffers in several switches (Duato, Sec. 2.3.4).
 * blocked_packet's W1 (node 0's 3 KB for node 4, blocked for 5 us behind
 * node 5's 4 KB) with buffers of 2 flits between switches: at 4 us its
 * header waits in leaf 1's input from X with 16 B, X's input from leaf 0
 * holds 16 B more, and the worm holds leaf 0's and X's outputs: it spans
 * three switches, its tail still in node 0's VQ_W.  With buffers of a
 * whole worm (vc_flits 0: sw_buf_bytes) all of it is in leaf 1 and it
 * holds no output but node 5's worm's.
 */
TEST(worm_spans_switches)
{
	struct hn_switch_stats ss;
	struct hn_config c;
	struct sim s;
	u32 x, held, bytes, d;

	for (d = 0; d <= 2; d += 2) {
		ft_config(&c, "ding4", 2, 4);
		c.max_msg_bytes = c.sw_buf_bytes = c.worm_bytes = 4096;
		c.vc_flits = d;
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, sim_send(&s, 5, 4, 4096));
		ASSERT_EQ(0, sim_send(&s, 0, 4, 3072));
		hn_run_until(s.e, 4000);
		ASSERT_EQ(0, hn_check(s.e, NULL));
		for (x = 0, held = 0, bytes = 0; x < 8; x++) {
			ASSERT_EQ(0, hn_switch_stats(s.e, x, &ss));
			held += ss.held;
			bytes += ss.buf_bytes;
			EXPECT_LE(ss.buf_peak, d ? 16 : 4096);
		}
		ASSERT_EQ(0, hn_switch_stats(s.e, 1, &ss));
		EXPECT_EQ(d ? 16 : 3072, ss.buf_bytes);	/* leaf 1 */
		EXPECT_EQ(1, ss.held);			/* to node 4 */
		EXPECT_EQ(d ? 32 : 3072, bytes);
		EXPECT_EQ(d ? 3 : 1, held);
		ASSERT_EQ(0, hn_switch_stats(s.e, 0, &ss));
		EXPECT_EQ(d ? 1 : 0, ss.held);		/* leaf 0, up */
		sim_drain(&s, 1000000);
		EXPECT_EQ(2, s.nlog);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

/* vc_flits: where it means nothing, and cut-through's whole worm. */
TEST(vc_flits_checked)
{
	struct hn_config c;
	struct hn_err err;

	hn_config_profile(&c, "ding4");
	c.vc_flits = 4;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("crossbar: no switch feeds another, vc_flits and vc_count must be 0",
		     err.msg);
	ft_config(&c, "ding4", 3, 4);
	c.vc_flits = 1;
	EXPECT_EQ(0, hn_config_check(&c, &err));
	c.switching = 1;
	c.vc_flits = c.worm_bytes / c.flit_bytes - 1;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("multistage fabric: cut-through and store-and-forward hold a whole worm in a switch: vc_flits x flit_bytes >= worm_bytes",
		     err.msg);
	c.switching = 2;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	c.vc_flits++;
	EXPECT_EQ(0, hn_config_check(&c, &err));
	c.switching = 0;
	c.flit_bytes = c.worm_bytes;
	c.vc_flits = HN_VC_FLITS_MAX;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("multistage fabric: vc_flits x flit_bytes must be at most 64 MiB",
		     err.msg);
}

/*
 * Per-link and per-switch statistics (hn_core.h, fabric_stats.c): one
 * worm of 128 B from node 0 to node 63 of FT(3,4), on an idle tree, under
 * ding4 (t_r 20 ns, 10 ns a flit, 11 ns from a switch to the next input).
 */
TEST(link_and_switch_stats)
{
	struct hn_fabric_info fi;
	struct hn_link_stats ls;
	struct hn_switch_stats ss;
	struct hn_level_stats lv;
	u64 up = 0, down = 0, bytes = 0, worms = 0;
	struct hn_config c;
	struct sim s;
	u32 l, sw, on = 0;

	ft_config(&c, "ding4", 3, 4);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_fabric_info(s.e, &fi));
	EXPECT_EQ(1, fi.topology);
	EXPECT_EQ(3, fi.levels);
	EXPECT_EQ(4, fi.width);
	EXPECT_EQ(64, fi.nodes);
	EXPECT_EQ(48, fi.switches);
	EXPECT_EQ(8, fi.radix);
	EXPECT_EQ(192, fi.links);
	EXPECT_EQ(5, fi.max_hops);
	EXPECT_EQ(-EINVAL, hn_link_stats(s.e, 192, &ls));
	EXPECT_EQ(-EINVAL, hn_switch_stats(s.e, 48, &ss));
	ASSERT_EQ(0, sim_send(&s, 0, 63, 128));
	sim_drain(&s, 100000);
	ASSERT_EQ(1, s.nlog);

	/* node 0's link: its worm went up it; node 63's: down */
	ASSERT_EQ(0, hn_link_stats(s.e, 0, &ls));
	EXPECT_EQ(HN_NONE, ls.sw[HN_UP]);
	EXPECT_EQ(0, ls.port[HN_UP]);
	EXPECT_EQ(0, ls.sw[HN_DOWN]);
	EXPECT_EQ(0, ls.port[HN_DOWN]);
	EXPECT_EQ(128, ls.ch[HN_UP].bytes);
	EXPECT_EQ(1, ls.ch[HN_UP].worms);
	EXPECT_EQ(160, ls.ch[HN_UP].busy_ns);	/* 128 B at 6.4 Gb/s */
	EXPECT_EQ(0, ls.ch[HN_DOWN].bytes);
	ASSERT_EQ(0, hn_link_stats(s.e, 63, &ls));
	EXPECT_EQ(0, ls.ch[HN_UP].bytes);
	EXPECT_EQ(128, ls.ch[HN_DOWN].bytes);
	EXPECT_EQ(15, ls.sw[HN_DOWN]);		/* SW(0, 15) */
	EXPECT_EQ(3, ls.port[HN_DOWN]);
	/* held from its take to its tail: t_r + 16 flits */
	EXPECT_EQ(180, ls.ch[HN_DOWN].busy_ns);
	EXPECT_EQ(0, ls.ch[HN_DOWN].buf_peak);	/* a node: no buffer */
	/* two links up and two down between switches */
	for (l = 64; l < fi.links; l++) {
		ASSERT_EQ(0, hn_link_stats(s.e, l, &ls));
		EXPECT_NE(HN_NONE, ls.sw[HN_UP]);
		up += ls.ch[HN_UP].bytes;
		down += ls.ch[HN_DOWN].bytes;
		if (!ls.ch[HN_UP].bytes && !ls.ch[HN_DOWN].bytes)
			continue;
		EXPECT_EQ(180, ls.ch[ls.ch[HN_UP].bytes ? HN_UP :
				      HN_DOWN].busy_ns);
		/* the buffer it feeds held the worm from its header's
		 * crossing to its tail's leaving: 2 t_r + a flit + 11 ns +
		 * 16 flits = 221 ns
		 */
		EXPECT_EQ(128, ls.ch[ls.ch[HN_UP].bytes ? HN_UP :
				      HN_DOWN].buf_peak);
		EXPECT_EQ(128 * 221, ls.ch[ls.ch[HN_UP].bytes ? HN_UP :
					    HN_DOWN].buf_byte_ns);
	}
	EXPECT_EQ(256, up);
	EXPECT_EQ(256, down);
	/* five switches on its way, each passed it once */
	for (sw = 0; sw < fi.switches; sw++) {
		ASSERT_EQ(0, hn_switch_stats(s.e, sw, &ss));
		EXPECT_EQ(sw / 16, ss.level);
		bytes += ss.bytes;
		worms += ss.worms;
		on += !!ss.worms;
		EXPECT_EQ(0, ss.blocked_ns + ss.credit_stalls + ss.buf_bytes +
			  ss.held);
	}
	EXPECT_EQ(5 * 128, bytes);
	EXPECT_EQ(5, worms);
	EXPECT_EQ(5, on);
	/* by level: up through 0, 1, to 2, and down through 1 and 0 */
	for (l = 0; l < 3; l++) {
		ASSERT_EQ(0, hn_level_stats(s.e, l, &lv));
		EXPECT_EQ(16, lv.switches);
		EXPECT_EQ(64, lv.links);
		EXPECT_EQ(l < 2 ? 256 : 128, lv.bytes);
		EXPECT_EQ(l < 2 ? 2 : 1, lv.worms);
		EXPECT_EQ(128, lv.buf_peak);	/* level 0: from level 1 */
		EXPECT_EQ(0, lv.blocked_ns + lv.credit_stalls);
		EXPECT_EQ(l ? 180 : 160, lv.busy_ns[HN_UP]);
		EXPECT_EQ(180, lv.busy_ns[HN_DOWN]);
	}
	EXPECT_EQ(-EINVAL, hn_level_stats(s.e, 3, &lv));
	hn_stats_reset(s.e);
	ASSERT_EQ(0, hn_link_stats(s.e, 63, &ls));
	EXPECT_EQ(0, ls.ch[HN_DOWN].bytes + ls.ch[HN_DOWN].busy_ns);
	ASSERT_EQ(0, hn_switch_stats(s.e, 15, &ss));
	EXPECT_EQ(0, ss.bytes + ss.worms + ss.buf_peak + ss.buf_byte_ns);
	sim_fini(&s);

	/* the crossbar's wormhole: one switch, a link a node */
	hn_config_profile(&c, "ding4");
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(0, hn_fabric_info(s.e, &fi));
	EXPECT_EQ(64, fi.links);
	EXPECT_EQ(1, fi.switches);
	ASSERT_EQ(0, sim_send(&s, 0, 63, 128));
	sim_drain(&s, 100000);
	ASSERT_EQ(1, s.nlog);
	ASSERT_EQ(0, hn_link_stats(s.e, 0, &ls));
	EXPECT_EQ(128, ls.ch[HN_UP].bytes);
	EXPECT_EQ(1, ls.ch[HN_UP].worms);
	EXPECT_EQ(0, ls.ch[HN_DOWN].bytes);
	ASSERT_EQ(0, hn_link_stats(s.e, 63, &ls));
	EXPECT_EQ(128, ls.ch[HN_DOWN].bytes);
	EXPECT_EQ(0, ls.sw[HN_DOWN]);
	EXPECT_EQ(63, ls.port[HN_DOWN]);
	ASSERT_EQ(0, hn_switch_stats(s.e, 0, &ss));
	EXPECT_EQ(1, ss.worms);
	EXPECT_EQ(-EINVAL, hn_switch_stats(s.e, 1, &ss));
	ASSERT_EQ(0, hn_level_stats(s.e, 0, &lv));
	EXPECT_EQ(1, lv.switches);
	EXPECT_EQ(-EINVAL, hn_level_stats(s.e, 1, &lv));
	sim_fini(&s);
}

/*
 * Under contention: blocked_packet's three worms, cut-through.  W2 found
 * too little credit into leaf 1 (from X) and waited; W1 waited at leaf 1
 * for the output to node 4.
 */
/*
 * A crossbar of more than 255 ports, by each switching: every node sends
 * to the node 150 on, so outputs 256 and up carry worms; none is lost,
 * and with VCT, SAF (switch.c) and drop (drop.c) each left by its own
 * output.  A stream
 * kept its next port in 8 bits, so a port past 255 wrapped and indexed
 * outside the outputs (a crash in hnsim, memory corruption in the
 * module).
 */
TEST(crossbar_past_255_ports)
{
	static const u8 runs[] = {
		HN_SWITCH_WORMHOLE, HN_SWITCH_VCT, HN_SWITCH_SAF,
		HN_SWITCH_DROP,
	};
	struct hn_link_stats ls;
	struct hn_config c;
	struct sim s;
	u32 r, u, N = 300;

	for (r = 0; r < ARRAY_SIZE(runs); r++) {
		sim_config_zero(&c, N, 0);
		c.switching = runs[r];
		ASSERT_EQ(0, sim_init(&s, &c));
		for (u = 0; u < N; u++)
			ASSERT_EQ(0, sim_send(&s, u, (u + 150) % N, 128));
		sim_drain(&s, 10000000);
		EXPECT_EQ(N, s.nlog);
		EXPECT_EQ(0, s.order_errors);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		for (u = 0; r && u < N; u++) {
			ASSERT_EQ(0, hn_link_stats(s.e, u, &ls));
			EXPECT_EQ(128, ls.ch[HN_DOWN].bytes) {
				TH_LOG("run %u, node %u's output", r, u);
			}
		}
		sim_fini(&s);
	}
}

TEST(contention_stats)
{
	struct hn_switch_stats leaf, ss;
	struct hn_link_stats ls;
	u64 stalls = 0, cstalls = 0;
	struct hn_config c;
	struct sim s;
	u32 x, l;

	ft_config(&c, "ding4", 2, 4);
	c.switching = 1;
	c.max_msg_bytes = c.sw_buf_bytes = c.worm_bytes = 4096;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 5, 4, 4096));
	ASSERT_EQ(0, sim_send(&s, 0, 4, 3072));
	ASSERT_EQ(0, sim_send(&s, 1, 4, 2048));
	sim_drain(&s, 1000000);
	ASSERT_EQ(3, s.nlog);
	ASSERT_EQ(0, hn_switch_stats(s.e, 1, &leaf));
	EXPECT_LT(4000, leaf.blocked_ns);	/* W1 waited for 5 us */
	/* W1 alone: W2 came in only once all of it had room */
	EXPECT_EQ(3072, leaf.buf_peak);
	for (x = 4; x < 8; x++) {
		ASSERT_EQ(0, hn_switch_stats(s.e, x, &ss));
		stalls += ss.credit_stalls;
	}
	EXPECT_EQ(1, stalls);			/* W2, once, at X */
	for (l = 16; l < 32; l++) {		/* leaf to level 1 */
		ASSERT_EQ(0, hn_link_stats(s.e, l, &ls));
		cstalls += ls.ch[HN_DOWN].credit_stalls;
	}
	EXPECT_EQ(1, cstalls);			/* on X's channel down */
	sim_fini(&s);
}

static u64 log_a[1 << 18], log_b[1 << 18];

/*
 * FT(1, w) is one switch of w nodes: the fat tree's topology (topo_ft.c)
 * must give what the crossbar's (topo_xbar.c) does.
 */
TEST(one_level_tree_is_the_crossbar)
{
	static const u32 k[] = { 0, 0, 2 }, guard[] = { 0, 20, 10 };
	struct hn_config x, f;
	int na, nb;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(k); i++) {
		hn_config_profile(&x, "ding4");
		x.nodes = 8;
		x.k = k[i];
		x.policy = 0;		/* empty predictive slots run */
		x.guard_ns = guard[i];
		x.slot_p_ns = x.slot_w_ns = 300;
		x.max_msg_bytes = 400;
		x.sw_buf_bytes = 512;
		x.nic_buf_bytes = 1024;
		x.rx_buf_bytes = 1024;
		x.wh_overlap = i == 1;
		f = x;
		f.topology = 1;
		f.levels = 1;
		f.width = 8;
		na = traffic(&x, 40000, 7 + i, log_a, ARRAY_SIZE(log_a));
		nb = traffic(&f, 40000, 7 + i, log_b, ARRAY_SIZE(log_b));
		ASSERT_LT(1000, na);
		ASSERT_EQ(na, nb);
		EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64))) {
			TH_LOG("case %u differs", i);
		}
	}
}

/* K = 0: the wormhole slot's length changes nothing on a tree either. */
TEST(k0_slot_length_does_not_matter)
{
	static const u32 slot[] = { 20, 200, 1000, 12000 };
	struct hn_config c;
	int na, nb;
	u32 i, sw;

	for (sw = 0; sw <= 2; sw++) {
		ft_config(&c, "ding4", 2, 4);
		c.switching = sw;
		c.max_msg_bytes = 300;
		c.sw_buf_bytes = 320;
		c.slot_w_ns = c.slot_p_ns = slot[0];
		na = traffic(&c, 20000, 3, log_a, ARRAY_SIZE(log_a));
		ASSERT_LT(500, na);
		for (i = 1; i < ARRAY_SIZE(slot); i++) {
			c.slot_w_ns = c.slot_p_ns = slot[i];
			nb = traffic(&c, 20000, 3, log_b, ARRAY_SIZE(log_b));
			ASSERT_EQ(na, nb);
			EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64)))
				TH_LOG("switching %u, %u ns slots", sw, slot[i]);
		}
	}
}

/*
 * Deadlock freedom (docs/model.md): every pattern at offered load 1.0 on
 * FT(2,4) and FT(3,4), with each up-port choice, drains; so does each
 * switching technique under uniform and hotspot traffic.  Buffers of four
 * worms, messages of one to four.  Its timeout detects a hang, no more:
 * under ASan on a busy host the run came close to the harness's 30 s,
 * and 6.1's harness has no TEST() with a timeout of its own.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
TEST(saturated_trees_drain)
{
	static const u32 lv[] = { 2, 3 };
	struct hn_config c;
	u32 i, p, up, sw;
	long n;

	for (i = 0; i < ARRAY_SIZE(lv); i++) {
		for (sw = 0; sw <= 2; sw++) {
			for (up = 0; up <= 2; up++) {
				for (p = 0; p < HN_NPATTERNS; p++) {
					if (sw && p != HN_PAT_UNIFORM &&
					    p != HN_PAT_HOTSPOT)
						continue;
					ft_config(&c, "ding4", lv[i], 4);
					c.switching = sw;
					c.up_select = up;
					c.max_msg_bytes = c.sw_buf_bytes = 512;
					c.nic_buf_bytes = 1024;
					c.rx_buf_bytes = 2048;
					n = saturate(_metadata, &c, p, 100000, 0);
					EXPECT_LE(0, n)
						TH_LOG("FT(%u,4) %s, switching %u, up_select %u",
						       lv[i], hn_pattern_name(p),
						       sw, up);
				}
			}
		}
	}
}

/* Deadlock freedom with buffers of one flit between switches (wormhole). */
TEST(saturated_trees_drain_flit_buffers)
{
	static const u32 pat[] = { HN_PAT_UNIFORM, HN_PAT_HOTSPOT,
				   HN_PAT_TRANSPOSE, HN_PAT_BITREV };
	struct hn_config c;
	u32 i, up;
	long n;

	for (up = 0; up <= 2; up++) {
		for (i = 0; i < ARRAY_SIZE(pat); i++) {
			ft_config(&c, "ding4", 3, 4);
			c.up_select = up;
			c.vc_flits = 1;
			c.max_msg_bytes = c.sw_buf_bytes = 512;
			c.nic_buf_bytes = 1024;
			c.rx_buf_bytes = 2048;
			n = saturate(_metadata, &c, pat[i], 100000, 0);
			EXPECT_LE(0, n)
				TH_LOG("%s, up_select %u",
				       hn_pattern_name(pat[i]), up);
		}
	}
}

/* The mesh and the GH: every pattern at load 1.0 drains (no cycle). */
TEST(saturated_direct_drain)
{
	static const char *const fab[] = { "mesh:4x4", "gh:2,4",
					   "mesh:3x3x3" };
	static const u32 pat[] = { HN_PAT_UNIFORM, HN_PAT_TRANSPOSE,
				   HN_PAT_TORNADO, HN_PAT_HOTSPOT };
	struct hn_config c;
	u32 i, p, v;
	long n;

	for (i = 0; i < ARRAY_SIZE(fab); i++) {
		for (p = 0; p < ARRAY_SIZE(pat); p++) {
			for (v = 0; v <= 1; v++) {
				direct_config(&c, fab[i]);
				c.vc_flits = v;
				c.max_msg_bytes = c.sw_buf_bytes = 512;
				c.nic_buf_bytes = 1024;
				c.rx_buf_bytes = 2048;
				n = saturate(_metadata, &c, pat[p], 100000, 0);
				EXPECT_LE(0, n)
					TH_LOG("%s %s, vc_flits %u", fab[i],
					       hn_pattern_name(pat[p]), v);
			}
		}
	}
}

/*
 * A torus with one virtual channel deadlocks (its wrap-around closes a
 * ring of channels, docs/model.md): uniform traffic at full load with
 * buffers of one flit.  The detector reports it deadlock_ns after the
 * last flit moved, with a cycle of channels each leading to the switch of
 * the next (a ring of one dimension), and the engine takes no more
 * messages; everything it holds is handed back.
 */
TEST(torus_deadlock_reported)
{
	struct hn_config c;
	struct sim s;

	direct_config(&c, "torus:4x4");
	c.vc_flits = 1;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_TRUE(torus_flood(_metadata, &s, 2000000));
	sim_fini(&s);
}

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 30

/*
 * The hybrid on a tree: two slots of circuits (u to u + 1 and u + 2,
 * routed by the optimal scheduler) and the wormhole slot share the
 * cycle.  Traffic to the neighbours goes by circuit, the rest as worms;
 * a pair's messages stay in order across the two paths, and it drains.
 */
TEST(hybrid_tree_drains)
{
	static const u32 pat[] = { HN_PAT_UNIFORM, HN_PAT_NEIGHBOR,
				   HN_PAT_MIXED };
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	u32 i, pol;

	for (pol = 0; pol < 2; pol++) {
		for (i = 0; i < ARRAY_SIZE(pat); i++) {
			ft_config(&c, "ding4", 3, 4);
			c.k = 2;
			c.policy = pol ? HN_POL_SES : 0;
			c.ft_sched = HN_FT_OPTIMAL;
			c.max_msg_bytes = c.sw_buf_bytes = 512;
			c.nic_buf_bytes = 1024;
			EXPECT_LT(0, saturate(_metadata, &c, pat[i], 50000, 2))
				TH_LOG("%s, policy %u", hn_pattern_name(pat[i]),
				       c.policy);
		}
	}
	/* both paths carried data */
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_preload_shift(s.e, 0, NULL));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 256));
	ASSERT_EQ(0, sim_send(&s, 0, 63, 256));
	sim_drain(&s, 1000000);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(1, g.rx_msgs[HN_MODE_CIRCUIT]);
	EXPECT_EQ(1, g.rx_msgs[HN_MODE_WORMHOLE]);
	sim_fini(&s);
}

/*
 * Woods-Corwin's random up-link (C2.3 of the notes): with up_select
 * random, @n messages of 64 B on FT(3,4), each to a random other node
 * (a multiple of 4 with @mult4), and the share of each switch's up-bound worms each of its up-links
 * carried: share[switch][up-port] in ppm, for the switches below the top.
 */
static int up_shares(const struct hn_config *c, u32 n, bool mult4,
		     u32 share[][4])
{
	struct hn_link_stats ls;
	struct hn_fabric_info fi;
	u64 seed = 3, sent = 0, t = 0, sum[64] = { 0 }, up[64][4] = { { 0 } };
	struct sim s;
	u32 u, v, l, sw, p;
	int rc = -1;

	if (sim_init(&s, c))
		return -1;
	if (hn_fabric_info(s.e, &fi) || fi.switches > 64)
		goto out;
	while (sent < n) {
		hn_run_until(s.e, t += 100);
		for (u = 0; u < c->nodes && sent < n; u++) {
			if (hn_rand_below(&seed, 4))
				continue;
			do {
				v = hn_rand_below(&seed, c->nodes);
				if (mult4)
					v &= ~3u;
			} while (v == u);
			sent += !sim_send(&s, u, v, 64);
		}
	}
	sim_drain(&s, 100000000);
	if (hn_busy(s.e) || s.nlog != n || hn_check(s.e, NULL))
		goto out;
	for (l = c->nodes; l < fi.links; l++) {
		if (hn_link_stats(s.e, l, &ls))
			goto out;
		sw = ls.sw[HN_UP];
		p = ls.port[HN_UP] - c->width;	/* up-ports are W..2W-1 */
		if (sw >= 64 || p >= 4)
			goto out;
		up[sw][p] += ls.ch[HN_UP].worms;
		sum[sw] += ls.ch[HN_UP].worms;
	}
	for (sw = 0; sw < fi.switches; sw++)
		for (p = 0; p < 4; p++)
			share[sw][p] = sum[sw] ? up[sw][p] * 1000000 / sum[sw] :
				       HN_NONE;
	rc = 0;
out:
	sim_fini(&s);
	return rc;
}

/*
 * Over 10^5 messages of uniform traffic each up-link of a switch below
 * the top carries 25 % +- 2 % of its up-bound worms.  By the
 * destination's digits (det), traffic to nodes 0 mod 4 climbs every leaf
 * switch by its up-port 0 alone; random spreads the same traffic.
 */
TEST(random_up_links_balance)
{
	static u32 share[64][4];
	struct hn_config c;
	u32 sw, p, below = 32;	/* FT(3,4): levels 0 and 1 climb */

	ft_config(&c, "ding4", 3, 4);
	c.up_select = HN_UPSEL_RANDOM;
	ASSERT_EQ(0, up_shares(&c, 100000, false, share));
	for (sw = 0; sw < below; sw++)
		for (p = 0; p < 4; p++) {
			EXPECT_LE(230000, share[sw][p])
				TH_LOG("switch %u up-port %u: %u ppm", sw, p,
				       share[sw][p]);
			EXPECT_GE(270000, share[sw][p])
				TH_LOG("switch %u up-port %u: %u ppm", sw, p,
				       share[sw][p]);
		}
	ASSERT_EQ(0, up_shares(&c, 20000, true, share));
	for (sw = 0; sw < 16; sw++)		/* the leaf switches */
		EXPECT_GT(350000, share[sw][0]);
	c.up_select = HN_UPSEL_DET;
	ASSERT_EQ(0, up_shares(&c, 20000, true, share));
	for (sw = 0; sw < 16; sw++)
		EXPECT_EQ(1000000, share[sw][0]);
}

TEST_HARNESS_MAIN
