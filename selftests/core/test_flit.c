// SPDX-License-Identifier: GPL-2.0
/*
 * test_flit.c - the flit router (flit.c, vc_count >= 1; docs/model.md
 * "Flit router"): Duato's base latencies at zero load on every fabric
 * and technique, for messages of several worms too (which the per-worm
 * model of switch.c cannot give with buffers of a worm); the engine's
 * invariants under random traffic, whatever the slot length; every
 * pattern drains at load 1.0 on trees, meshes and GHs and, with two
 * virtual channels and the dateline, on the torus, which deadlocks with
 * one; virtual channels let a worm pass one blocked on the same link;
 * the link statistics count as with worms; what it needs is checked.
 */
#include "harness.h"
#include "fabric.h"

/* Virtual channels and their depth, the rest as @c has it. */
static void vcs(struct hn_config *c, u32 count, u32 flits)
{
	c->vc_count = count;
	c->vc_flits = flits;
}

/*
 * Zero load: a message of @len on the route of @D links from node 0 to
 * @dst takes Duato's time, its worms one behind the other, with buffers
 * covering the round trip of a credit (16 flits here; four worms for
 * cut-through and store-and-forward, whose header needs room for its
 * worm while the one before it leaves), for 1, 2 and 4 virtual channels.
 */
static void zero_load_at(struct __test_metadata *_metadata,
			 const struct hn_config *c0, u32 dst, u32 D)
{
	static const u32 len[] = { 8, 64, 128, 384, 328, 1024 };
	u32 i, j, v, f[8], n, sw;
	struct hn_config c;

	for (sw = 0; sw <= 2; sw++) {
		for (v = 1; v <= 4; v *= 2) {
			for (i = 0; i < ARRAY_SIZE(len); i++) {
				c = *c0;
				c.switching = sw;
				c.max_msg_bytes = 1024;
				vcs(&c, v, sw ? 4 * c.worm_bytes /
					       c.flit_bytes : 16);
				for (n = 0, j = 0; j < len[i];
				     j += c.worm_bytes, n++)
					f[n] = (hn_min64(c.worm_bytes,
							 len[i] - j) +
						c.flit_bytes - 1) /
					       c.flit_bytes;
				EXPECT_EQ(duato(&c, sw, D, f, n),
					  one(&c, 0, dst, len[i]))
					TH_LOG("switching %u, %u VCs, %u B to %u",
					       sw, v, len[i], dst);
			}
		}
	}
}

TEST(zero_load_trees)
{
	struct hn_config c;
	u32 h;

	for (h = 0; h < 3; h++) {
		ft_config(&c, "ding4", 3, 4);
		zero_load_at(_metadata, &c, h ? c.nodes >> (2 * (3 - h)) : 1,
			     2 * h + 2);
	}
	ft_config(&c, "ding4", 2, 4);
	c.wh_overlap = 1;
	zero_load_at(_metadata, &c, 15, 4);
}

TEST(zero_load_direct)
{
	static const char *const fab[] = { "mesh:4x4", "torus:4x4",
					   "gh:2,4" };
	struct hn_config c;
	struct hn_tport hop[16];
	struct hn_upsel_arg a = { .mode = HN_UPSEL_DET };
	struct hn_topo t;
	u32 i, dst;
	int h;

	for (i = 0; i < ARRAY_SIZE(fab); i++) {
		direct_config(&c, fab[i]);
		ASSERT_EQ(0, hn_topo_cube(&t, 2, 4, i == 1, 1, 1));
		if (i == 2) {
			hn_topo_fini(&t);
			ASSERT_EQ(0, hn_topo_gh(&t, 2, 4, 1, 1));
		}
		for (dst = 1; dst < c.nodes; dst += 5) {
			h = hn_topo_path(&t, 0, dst, &a, hop, 16);
			ASSERT_LT(0, h);
			zero_load_at(_metadata, &c, dst, h + 1);
		}
		hn_topo_fini(&t);
	}
}

/*
 * With one flit of buffer the header's routing holds the flit behind it
 * a while at every switch: slower than Duato's, never faster.  Buffers of
 * a whole worm let a message's next worm follow its last one at once
 * (per-flit credit), which switch.c's per-worm credit cannot: it is slower.
 */
TEST(zero_load_shallow_buffers)
{
	struct hn_config c;
	u32 f[3] = { 16, 16, 16 };
	u64 want;

	ft_config(&c, "ding4", 3, 4);
	c.max_msg_bytes = 384;
	want = duato(&c, 0, 6, f, 3);
	vcs(&c, 1, 1);
	EXPECT_LT(want, one(&c, 0, 63, 384));
	vcs(&c, 1, 16);
	EXPECT_EQ(want, one(&c, 0, 63, 384));
	vcs(&c, 0, 16);
	EXPECT_LT(want, one(&c, 0, 63, 384));
}

static u64 log_a[1 << 18], log_b[1 << 18];

/*
 * Random traffic with hn_check() every 40 ns (traffic()): trees, meshes,
 * tori (two VCs or more) and GHs, each technique, 1 to 4 VCs of 4 to 16
 * flits; and the wormhole slot's length (K = 0) changes no delivery.
 */
TEST(invariants_and_slot_length)
{
	static const char *const fab[] = { "fattree:2,4", "fattree:3,4",
					   "mesh:4x4", "torus:4x4", "gh:2,4" };
	static const u32 slot[] = { 20, 200, 12000 };
	struct hn_config c;
	u32 i, sw, v, s;
	int na, nb;

	for (i = 0; i < ARRAY_SIZE(fab); i++) {
		for (sw = 0; sw <= 2; sw++) {
			for (v = 1; v <= 4; v *= 2) {
				if (v == 1 && !strncmp(fab[i], "torus", 5))
					continue;	/* it may deadlock */
				direct_config(&c, fab[i]);
				c.switching = sw;
				c.max_msg_bytes = 300;
				c.sw_buf_bytes = 320;
				vcs(&c, v, sw ? 16 : 2 + 2 * v);
				c.slot_w_ns = c.slot_p_ns = slot[0];
				na = traffic(&c, 10000, 3 + v, log_a,
					     ARRAY_SIZE(log_a));
				ASSERT_LT(200, na)
					TH_LOG("%s, switching %u, %u VCs",
					       fab[i], sw, v);
				for (s = 1; s < ARRAY_SIZE(slot); s++) {
					c.slot_w_ns = c.slot_p_ns = slot[s];
					nb = traffic(&c, 10000, 3 + v, log_b,
						     ARRAY_SIZE(log_b));
					ASSERT_EQ(na, nb)
						TH_LOG("%s, switching %u, %u VCs, %u ns slots",
						       fab[i], sw, v, slot[s]);
					EXPECT_EQ(0, memcmp(log_a, log_b,
							    na * sizeof(u64)))
						TH_LOG("%s, switching %u, %u VCs, %u ns slots",
						       fab[i], sw, v, slot[s]);
				}
			}
		}
	}
}

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300

/*
 * Deadlock freedom: every pattern at offered load 1.0 drains on trees
 * (up and down), meshes (dimension order) and GHs with one VC of one or two
 * flits and with several; on the torus with two VCs and the dateline
 * (Duato, Sec. 4.2).  Each technique under uniform traffic too.
 */
TEST(saturated_drain)
{
	static const char *const fab[] = { "fattree:3,4", "mesh:4x4",
					   "gh:2,4", "torus:4x4",
					   "torus:3x3x3", "torus:8" };
	static const u32 pat[] = { HN_PAT_UNIFORM, HN_PAT_TRANSPOSE,
				   HN_PAT_BITREV, HN_PAT_TORNADO,
				   HN_PAT_HOTSPOT, HN_PAT_NEIGHBOR };
	struct hn_config c;
	u32 i, p, v, sw;
	long n;

	for (i = 0; i < ARRAY_SIZE(fab); i++) {
		for (p = 0; p < ARRAY_SIZE(pat); p++) {
			for (v = 1; v <= 4; v *= 2) {
				for (sw = 0; sw <= 2; sw++) {
					if ((sw && pat[p] != HN_PAT_UNIFORM) ||
					    (v == 1 && !strncmp(fab[i], "torus", 5)))
						continue;
					direct_config(&c, fab[i]);
					c.switching = sw;
					vcs(&c, v, sw ? 64 : v == 1 ? 1 : 2);
					c.max_msg_bytes = c.sw_buf_bytes = 512;
					c.nic_buf_bytes = 1024;
					c.rx_buf_bytes = 2048;
					n = saturate(_metadata, &c, pat[p],
						     50000, 0);
					EXPECT_LE(0, n)
						TH_LOG("%s %s, %u VCs, switching %u",
						       fab[i],
						       hn_pattern_name(pat[p]),
						       v, sw);
				}
			}
		}
	}
}

/*
 * One virtual channel on a torus deadlocks under full uniform load, and
 * the detector reports a cycle of channels around one ring; two VCs with
 * the dateline never do under the same traffic.
 */
TEST(torus_one_vc_deadlocks)
{
	struct hn_config c;
	struct sim s;
	u32 v;

	for (v = 1; v <= 2; v++) {
		direct_config(&c, "torus:4x4");
		vcs(&c, v, 1);
		ASSERT_EQ(0, sim_init(&s, &c));
		EXPECT_EQ(v == 1, torus_flood(_metadata, &s, 400000))
			TH_LOG("%u VCs", v);
		if (v == 2) {
			EXPECT_EQ(-ENOENT, hn_deadlock(s.e, NULL));
			sim_drain(&s, 100000000);
			EXPECT_FALSE(hn_busy(s.e));
			EXPECT_EQ(0, hn_check(s.e, NULL));
		}
		sim_fini(&s);
	}
}

/* FT(2,4), worms of up to 4 KB, @v VCs of 2 flits. */
static void big_worms(struct hn_config *c, u32 v)
{
	ft_config(c, "ding4", 2, 4);
	c->max_msg_bytes = c->sw_buf_bytes = c->worm_bytes = 4096;
	c->nic_buf_bytes = c->rx_buf_bytes = 8192;
	vcs(c, v, 2);
}

/* The latency of the first message for @dst that @s delivered, or 0. */
static u64 lat_to(const struct sim *s, u32 dst)
{
	u32 i;

	for (i = 0; i < s->nlog; i++)
		if (s->log[i]->m.dst == dst)
			return s->log[i]->m.t_deliver - s->log[i]->m.t_inject;
	return 0;
}

/*
 * On big_worms(@v): node 5 sends 4 KB to node 4 at 0, node 0 3 KB to node
 * 4 at 100, node @src 64 B to node @dst at 400: the 64 B's latency.
 */
static u64 beside(struct __test_metadata *_metadata, u32 v, u32 src,
		  u32 dst)
{
	struct hn_config c;
	struct sim s;
	u64 lat;

	big_worms(&c, v);
	if (sim_init(&s, &c))
		return 0;
	EXPECT_EQ(0, sim_send(&s, 5, 4, 4096));
	hn_run_until(s.e, 100);
	EXPECT_EQ(0, sim_send(&s, 0, 4, 3072));
	hn_run_until(s.e, 400);
	EXPECT_EQ(0, sim_send(&s, src, dst, 64));
	sim_drain(&s, 10000000);
	EXPECT_EQ(3, s.nlog);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	lat = lat_to(&s, dst);
	sim_fini(&s);
	return lat;
}

/*
 * Virtual channels share a link (Duato, Sec. 2.6): on FT(2,4), with one
 * VC node 0's 3 KB worm for node 4 is blocked in leaf 1 behind node 5's
 * 4 KB one and holds the link from leaf 0 up, and node 1's message for
 * node 8, which needs that link, waits until it moves; with two it passes.
 */
TEST(vcs_pass_a_blocked_worm)
{
	EXPECT_LT(3000, beside(_metadata, 1, 1, 8));	/* behind it */
	EXPECT_GT(500, beside(_metadata, 2, 1, 8));	/* beside it */
}

/*
 * A node's input sends up to vc_count worms at once, as any input does:
 * with two VCs node 0's 3 KB worm for node 4 shares node 4's link with
 * node 5's 4 KB one, so that its flits leave node 0's input at half the
 * rate; with one VC node 0's 64 B message for node 1 waits until that
 * worm's tail has gone (at half the rate or behind node 5's), with two it
 * goes beside it as soon as the uplink has brought it (after the 3 KB).
 */
TEST(node_sends_beside_its_slow_worm)
{
	struct hn_config c;
	u64 up;

	big_worms(&c, 2);
	up = hn_bytes_ns(&c, 3072);	/* the 3 KB on node 0's uplink */
	EXPECT_LT(2 * up - 400, beside(_metadata, 1, 0, 1));
	EXPECT_GT(up + one(&c, 0, 1, 64), beside(_metadata, 2, 0, 1));
}

/*
 * A node's link takes up to vc_count worms at once, their flits
 * interleaved: node 0's and node 5's 4 KB worms for node 4 arrive one
 * after the other (5120 ns of flits apart) with one VC, together with
 * two.
 */
TEST(node_takes_worms_at_once)
{
	struct hn_config c;
	struct sim s;
	u64 gap[3];
	u32 v;

	for (v = 1; v <= 2; v++) {
		big_worms(&c, v);
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, sim_send(&s, 5, 4, 4096));
		ASSERT_EQ(0, sim_send(&s, 0, 4, 4096));
		sim_drain(&s, 10000000);
		ASSERT_EQ(2, s.nlog);
		gap[v] = s.log[1]->m.t_deliver - s.log[0]->m.t_deliver;
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
	EXPECT_LE(4096 / c.flit_bytes * c.wh_flit_ns, gap[1]);
	EXPECT_GT(100, gap[2]);
}

/* The hybrid on a tree, circuits in their slots, flits in the wormhole's. */
TEST(hybrid_tree_drains)
{
	static const u32 pat[] = { HN_PAT_UNIFORM, HN_PAT_NEIGHBOR };
	struct hn_config c;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(pat); i++) {
		ft_config(&c, "ding4", 3, 4);
		c.k = 2;
		c.policy = HN_POL_SES;
		c.ft_sched = HN_FT_OPTIMAL;
		c.max_msg_bytes = c.sw_buf_bytes = 512;
		c.nic_buf_bytes = 1024;
		vcs(&c, 2, 4);
		EXPECT_LT(0, saturate(_metadata, &c, pat[i], 50000, 2))
			TH_LOG("%s", hn_pattern_name(pat[i]));
	}
}

/*
 * The link and switch statistics (hnctl links) count the same with
 * flits as with worms, for messages that meet no other: bytes, worms and
 * time busy on every channel, bytes and worms through every switch.
 */
TEST(link_stats_as_per_worm)
{
	struct hn_link_stats la, lb;
	struct hn_switch_stats sa, sb;
	struct hn_config c;
	struct sim s[2];
	u32 l, d, k;

	for (k = 0; k < 2; k++) {
		ft_config(&c, "ding4", 3, 4);
		c.max_msg_bytes = 1024;
		vcs(&c, k, 16);
		ASSERT_EQ(0, sim_init(&s[k], &c));
		for (d = 1; d < c.nodes; d += 7) {
			ASSERT_EQ(0, sim_send(&s[k], 0, d, 8 * d + 1));
			sim_drain(&s[k], 1000000 * d);
		}
	}
	for (l = 0; l < 192; l++) {
		ASSERT_EQ(0, hn_link_stats(s[0].e, l, &la));
		ASSERT_EQ(0, hn_link_stats(s[1].e, l, &lb));
		for (d = HN_UP; d <= HN_DOWN; d++) {
			EXPECT_EQ(la.ch[d].bytes, lb.ch[d].bytes);
			EXPECT_EQ(la.ch[d].worms, lb.ch[d].worms);
			EXPECT_EQ(la.ch[d].busy_ns, lb.ch[d].busy_ns)
				TH_LOG("link %u, %s", l, d ? "down" : "up");
		}
	}
	for (l = 0; l < 48; l++) {
		ASSERT_EQ(0, hn_switch_stats(s[0].e, l, &sa));
		ASSERT_EQ(0, hn_switch_stats(s[1].e, l, &sb));
		EXPECT_EQ(sa.bytes, sb.bytes);
		EXPECT_EQ(sa.worms, sb.worms);
		EXPECT_EQ(0, sb.buf_bytes + sb.held);
	}
	sim_fini(&s[0]);
	sim_fini(&s[1]);
}

/* What the flit router needs, refused with the reason. */
TEST(vc_count_checked)
{
	struct hn_config c;
	struct hn_err err;

	ft_config(&c, "ding4", 2, 4);
	c.vc_count = 2;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("multistage fabric: the flit router (vc_count) needs vc_flits of at least 1",
		     err.msg);
	c.vc_flits = 2049;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("multistage fabric: the flit router holds at most 4096 flits an input: vc_count x vc_flits <= 4096",
		     err.msg);
	c.vc_flits = 2048;
	EXPECT_EQ(0, hn_config_check(&c, &err));
	ft_config(&c, "ding4", 3, 16);		/* 24576 ports */
	vcs(&c, 16, 256);
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("multistage fabric: the flit router's buffers would take more than 256 MiB: fewer vc_count x vc_flits, or a smaller fabric",
		     err.msg);
	vcs(&c, 2, 16);
	EXPECT_EQ(0, hn_config_check(&c, &err));
	/* an event per switch port, two through the flit router */
	direct_config(&c, "gh:2,40");		/* 1600 x 79 ports */
	EXPECT_EQ(0, hn_config_check(&c, &err));
	vcs(&c, 1, 1);
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("multistage fabric: at most 131072 switch ports (65536 through the flit router, vc_count): a smaller fabric",
		     err.msg);
	direct_config(&c, "gh:2,64");		/* 4096 x 127 */
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	c.vc_count = HN_VC_MAX + 1;
	c.vc_flits = 1;
	EXPECT_NE(0, hn_config_check(&c, &err));
	hn_config_profile(&c, "ding4");
	c.vc_count = 1;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("crossbar: no switch feeds another, vc_flits and vc_count must be 0",
		     err.msg);
}

TEST_HARNESS_MAIN
