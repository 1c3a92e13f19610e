// SPDX-License-Identifier: GPL-2.0
/*
 * test_fthybrid.c - the hybrid on a fat tree FT(l, w) (issue 13, step 5):
 * what the crossbar does, the tree does.  The three modes (a message with
 * no circuit as worms, a predicted circuit, a preloaded one), SLA and
 * PREEMPT on Fig. 4.7's traffic, the idle time-out giving a circuit's
 * links back, every traffic pattern on every way of making circuits (the
 * run driver's nets), and random hybrid traffic with hn_check() -
 * conservation, and each slot's circuits a set of link-disjoint paths of
 * the tree - after every step.
 */
#include "harness.h"
#include "sim.h"

/* FT(@l, @w) with Fig. 4.7's slot arithmetic, every delay zero, SES. */
static void tree_config(struct hn_config *c, u32 l, u32 w, u32 k)
{
	sim_config_ft(c, l, w, k);
	sim_config_units(c);
	c->policy = HN_POL_SES;
}

#define CHUNK	SIM_CHUNK
#define PACKET	SIM_PACKET

/*
 * Unpredictable, predicted, preloaded on FT(3,4): 0 -> 63 has no circuit
 * and goes as worms in S_W; 1 -> 62 is predicted (PREDICT, routed
 * level-wise) and 2 -> 61 preloaded, both of level 2, so their circuits
 * climb two levels by two different up-ports from leaf 0.  Each message
 * is tagged and carried by its mode, and the statistics count them so.
 */
TEST(three_modes)
{
	struct hn_pair pred = { 1, 62 }, pre = { 2, 61 };
	struct hn_grant g;
	struct hn_gstats gs;
	struct hn_config c;
	struct hn_err err;
	struct tmsg *t;
	struct sim s;
	u8 a[4], b[4];

	tree_config(&c, 3, 4, 2);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &pre, 1));
	ASSERT_EQ(0, hn_predict(s.e, &pred, 1, &g, NULL));
	ASSERT_EQ(HN_GRANTED, g.result);
	EXPECT_EQ(0, g.slot);		/* first fit: beside the preload */
	ASSERT_EQ(2, hn_circuit_path(s.e, 0, 2, a, 4));
	ASSERT_EQ(2, hn_circuit_path(s.e, 0, 1, b, 4));
	EXPECT_NE(a[0], b[0]);		/* leaf 0's up-links are one each */
	ASSERT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, sim_send(&s, 0, 63, PACKET));
	ASSERT_EQ(0, sim_send(&s, 1, 62, CHUNK));
	ASSERT_EQ(0, sim_send(&s, 2, 61, CHUNK));
	ASSERT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	sim_drain(&s, 100000);
	ASSERT_EQ(3, s.nlog);
	t = sim_find(&s, 0, 63, 0);
	EXPECT_EQ(HN_MODE_WORMHOLE, t->m.mode);
	EXPECT_EQ(HN_MODE_WORMHOLE, t->m.tag);
	EXPECT_EQ(c.k, t->m.slot);
	t = sim_find(&s, 1, 62, 0);
	EXPECT_EQ(HN_MODE_CIRCUIT, t->m.mode);
	EXPECT_EQ(0, t->m.slot);
	t = sim_find(&s, 2, 61, 0);
	EXPECT_EQ(HN_MODE_CIRCUIT, t->m.mode);
	EXPECT_EQ(0, t->m.slot);
	hn_stats_global(s.e, &gs);
	EXPECT_EQ(2, gs.rx_msgs[HN_MODE_CIRCUIT]);
	EXPECT_EQ(1, gs.rx_msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(1, gs.grants);
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	sim_fini(&s);
}

/* Fig. 4.7 (sim_fig4_7()) on FT(2,4), between node 0 and @d[0..2]. */
static u64 fig4_7(u32 policy, u32 slot_w, const u32 *d)
{
	struct hn_config c;

	tree_config(&c, 2, 4, 2);
	c.policy = policy;
	c.slot_w_ns = slot_w;
	return sim_fig4_7(&c, d);
}

/*
 * SLA and PREEMPT on a tree (Secs. 4.4, 4.5).  In one leaf switch
 * Fig. 4.7's figures are the crossbar's exactly: 9 units of 200 ns with
 * equal slots, 7 with NUM_W = 1.5 NUM_P, 7 preempted.  Across the tree
 * (pairs of level 1) a worm crosses two switches more, 10 ns each (one
 * flit time, every other delay zero).  Preempted, S_W runs on until the
 * worms are through: 20 ns more than in the leaf.  Otherwise the slot's
 * end catches the second worm of each S_W 20 ns short of its
 * destination, and it waits in the tree for the next S_W (the TDM cycle
 * is global): the last packet arrives 20 ns into a later S_W than in the
 * leaf, yet SLA still saves what it saves there.
 */
TEST(sla_and_preempt_fig4_7)
{
	static const u32 leaf[3] = { 1, 2, 3 }, tree[3] = { 5, 10, 15 };
	static const struct {
		u32 policy, slot_w, units;
	} run[] = {
		{ HN_POL_SES, 200, 9 },
		{ HN_POL_SES | HN_POL_SLA, 200, 9 },
		{ HN_POL_SES | HN_POL_SLA, 300, 7 },
		{ HN_POL_SES, 300, 9 },		/* no SLA: S_W as S_P */
		{ HN_POL_PREEMPT, 200, 7 },
		{ HN_POL_PREEMPT | HN_POL_PREEMPT_SLOT, 200, 7 },
	};
	u64 t[ARRAY_SIZE(run)];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(run); i++) {
		EXPECT_EQ(run[i].units * 200,
			  fig4_7(run[i].policy, run[i].slot_w, leaf))
			TH_LOG("run %u, in a leaf", i);
		t[i] = fig4_7(run[i].policy, run[i].slot_w, tree);
		ASSERT_LT(run[i].units * 200, t[i]) TH_LOG("run %u", i);
		if (run[i].policy & HN_POL_PREEMPT) {
			EXPECT_EQ(run[i].units * 200 + 20, t[i]);
		} else {
			EXPECT_EQ(20, t[i] % 100) TH_LOG("run %u", i);
			EXPECT_LT(run[i].units * 200 + 20, t[i]);
		}
	}
	EXPECT_EQ(t[0], t[1]);
	EXPECT_EQ(t[0], t[3]);
	EXPECT_EQ(9 * 200 - 7 * 200, t[0] - t[2]);
}

/*
 * The idle time-out (Sec. 5.2.2) on a tree releases a predicted circuit
 * and gives its links back: on FT(2,4), 0 -> 4 and 1 -> 5 take leaf 0's
 * up-ports 0 and 1 (level-wise, first free both ways); once idle past the
 * time-out both are gone, and 2 -> 6 takes up-port 0 again.  Used, a
 * circuit stays.
 */
TEST(idle_timeout_frees_links)
{
	struct hn_pair p[3] = { { 0, 4 }, { 1, 5 }, { 2, 6 } };
	struct hn_grant g[3];
	struct hn_gstats gs;
	struct hn_config c;
	struct hn_err err;
	struct sim s;
	u8 port[2];
	int i;

	tree_config(&c, 2, 4, 1);
	c.idle_timeout_ns = 1000;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_predict(s.e, p, 2, g, NULL));
	ASSERT_EQ(HN_GRANTED, g[0].result);
	ASSERT_EQ(HN_GRANTED, g[1].result);
	ASSERT_EQ(1, hn_circuit_path(s.e, 0, 0, port, 2));
	EXPECT_EQ(0, port[0]);
	ASSERT_EQ(1, hn_circuit_path(s.e, 0, 1, port, 2));
	EXPECT_EQ(1, port[0]);
	/* 0 -> 4 busy every 400 ns; 1 -> 5 idle */
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, sim_send(&s, 0, 4, 64));
		hn_run_until(s.e, hn_now(s.e) + 400);
		ASSERT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(4, hn_circuit(s.e, 0, 0));
	EXPECT_EQ(HN_NONE, hn_circuit(s.e, 0, 1));
	hn_run_until(s.e, hn_now(s.e) + 2000);
	EXPECT_EQ(HN_NONE, hn_circuit(s.e, 0, 0));
	hn_stats_global(s.e, &gs);
	EXPECT_EQ(2, gs.timeouts);
	EXPECT_EQ(10, gs.rx_msgs[HN_MODE_CIRCUIT]);
	ASSERT_EQ(0, hn_predict(s.e, &p[2], 1, g, NULL));
	ASSERT_EQ(HN_GRANTED, g[0].result);
	ASSERT_EQ(1, hn_circuit_path(s.e, 0, 2, port, 2));
	EXPECT_EQ(0, port[0]);
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	sim_fini(&s);
}

/*
 * 0 -> 4 of 600 B on its circuit (slot 0 of 1, 160 B a slot) is cut off
 * after one slot: its circuit is replaced by a preload (@how 0), released
 * (1), or all circuits are (2).  What is left goes as worms, and the message
 * arrives, once; on FT(2,4) 20 ns after it does on a crossbar of 16 nodes
 * (@l = 0), its worms crossing two switches more.  Its delivery time, or
 * 0 if anything went wrong.
 */
static u64 cut_off(u32 l, u32 how)
{
	struct hn_pair a = { 0, 4 }, b = { 1, 5 };
	struct hn_config c;
	struct sim s;
	u64 t = 0;

	tree_config(&c, 2, 4, 1);
	if (!l)
		c.topology = HN_TOPO_CROSSBAR;
	if (sim_init(&s, &c) || sim_preload1(&s, 0, &a, 1) ||
	    sim_send(&s, 0, 4, 600))
		goto out;
	hn_step(s.e);		/* slot 0: 160 B of it */
	if (hn_now(s.e) != 200 || s.nlog || hn_check(s.e, NULL))
		goto out;
	if ((how == 0 && sim_preload1(&s, 0, &b, 1)) ||
	    (how == 1 && hn_release(s.e, 0, 4, NULL)) ||
	    (how == 2 && hn_release_all(s.e, NULL)) ||
	    hn_check(s.e, NULL))
		goto out;
	sim_drain(&s, 1000000);
	if (!hn_busy(s.e) && s.nlog == 1 && !hn_check(s.e, NULL) &&
	    s.log[0]->m.mode == HN_MODE_WORMHOLE &&	/* its last byte */
	    s.log[0]->m.tag == HN_MODE_CIRCUIT)		/* at injection */
		t = s.log[0]->m.t_deliver;
out:
	sim_fini(&s);
	return t;
}

/*
 * A message its circuit began, and lost, ends as worms (release.c): on a
 * tree it was never delivered, the circuit's part never counting as
 * arrived (hn_check(): "worms do not carry what messages cut").
 */
TEST(circuit_cut_off_mid_message)
{
	u32 how;

	for (how = 0; how < 3; how++) {
		EXPECT_LT(0, cut_off(0, how)) TH_LOG("crossbar, way %u", how);
		EXPECT_EQ(cut_off(0, how) + 20, cut_off(2, how))
			TH_LOG("way %u", how);
	}
}

/*
 * A batch run of @pattern with circuits made the @net way (the run
 * driver's, enum hn_net) on FT(@l, @w), or with @l = 0 on the crossbar of
 * w^l nodes: 0 and its result, or -errno.  The engine must end idle and
 * hn_check() true; @circ gets the messages delivered by circuit.
 */
static int tree_run(u32 l, u32 w, u32 pattern, u32 net, u32 policy,
		    struct hn_tres *out, u64 *circ)
{
	struct hn_trun_cfg rc;
	struct hn_gstats gs;
	struct hn_config c;
	struct hn_tcfg t;
	int rv;

	tree_config(&c, l ? l : 2, w, 4);
	if (!l) {
		c.topology = HN_TOPO_CROSSBAR;
		c.nodes = w * w;
	}
	c.policy = policy;
	c.idle_timeout_ns = 4000;
	c.ft_sched = HN_FT_OPTIMAL;	/* rearrangeable: every plan routes */
	hn_tcfg_default(&t, c.nodes);
	t.pattern = pattern;
	t.inject = HN_INJ_BATCH;
	t.batch = 12;
	t.size_dist = HN_SIZE_UNIFORM;
	t.size = 1;
	t.size_max = 400;
	t.pred_ppm = 500000;
	hn_trun_cfg_default(&rc);
	rc.net = net;
	rc.preload_slots = net == HN_NET_AS_IS ? 2 : 0;
	memset(&gs, 0, sizeof(gs));
	rv = sim_trun(&c, &t, &rc, out, &gs);
	*circ = gs.rx_msgs[HN_MODE_CIRCUIT];
	return rv;
}

/*
 * Every traffic pattern, on FT(3,4) and FT(2,8), with the hybrid as
 * configured plus two slots of the pattern's plan (Ch. 4), Dynamic TDM
 * (Sec. 5.3), pure TDM on the plan (Sec. 4.2.2) and wormhole only: what
 * runs on the 64-node crossbar runs on the trees, every message generated
 * delivered, the engine idle at the end, hn_check() true, as many
 * messages by circuit; what the crossbar refuses (pure TDM for a pattern
 * whose plan misses pairs) the trees refuse alike, but localized, which
 * needs a tree.  Dynamic and pure TDM carry everything on circuits,
 * wormhole nothing.
 */
TEST(every_pattern_every_net)
{
	static const u32 net[] = {
		HN_NET_AS_IS, HN_NET_DYNAMIC, HN_NET_PRELOAD, HN_NET_WORMHOLE,
	};
	static const u32 tree[2][2] = { { 3, 4 }, { 2, 8 } };
	struct hn_tres r, x;
	u32 p, n, i, ran = 0;
	u64 circ, xcirc;
	bool local;
	int rv, xrv;

	for (p = 0; p < HN_NPATTERNS; p++) {
		local = p == HN_PAT_LOCALIZED;
		for (n = 0; n < ARRAY_SIZE(net); n++) {
			xrv = tree_run(0, 8, p, net[n], HN_POL_SES, &x, &xcirc);
			if (local) {		/* the crossbar has no levels */
				EXPECT_EQ(-EINVAL, xrv);
				xrv = 0;
			}
			for (i = 0; i < 2; i++) {
				rv = tree_run(tree[i][0], tree[i][1], p, net[n],
					      HN_POL_SES, &r, &circ);
				ASSERT_EQ(xrv, rv)
					TH_LOG("FT(%u,%u) %s, %s", tree[i][0],
					       tree[i][1], hn_pattern_name(p),
					       hn_net_name(net[n]));
				if (rv)
					continue;
				ran++;
				EXPECT_EQ(HN_END_DONE, r.end)
					TH_LOG("%s, %s: %s", hn_pattern_name(p),
					       hn_net_name(net[n]), r.why);
				EXPECT_LT(0, r.gen_msgs);
				if (!local)
					EXPECT_EQ(x.gen_msgs, r.gen_msgs);
				EXPECT_EQ(r.gen_msgs, r.done_msgs);
				EXPECT_EQ(r.gen_bytes, r.done_bytes);
				if (net[n] == HN_NET_DYNAMIC ||
				    net[n] == HN_NET_PRELOAD)
					EXPECT_EQ(r.done_msgs, circ)
						TH_LOG("%s, %s",
						       hn_pattern_name(p),
						       hn_net_name(net[n]));
				if (net[n] == HN_NET_WORMHOLE)
					EXPECT_EQ(0, circ);
				if (net[n] != HN_NET_AS_IS && !local)
					EXPECT_EQ(xcirc, circ);
			}
		}
	}
	/* every pattern on three nets at least, on both trees */
	EXPECT_LE(HN_NPATTERNS * 2 * 3, ran);
}

/* SLA, PREEMPT (global and per slot) and fixed carry mixed traffic too. */
TEST(every_policy_mixed)
{
	static const u32 pol[] = {
		0, HN_POL_SES, HN_POL_SES | HN_POL_SLA, HN_POL_PREEMPT,
		HN_POL_PREEMPT | HN_POL_PREEMPT_SLOT,
	};
	struct hn_tres r;
	u64 circ;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(pol); i++) {
		ASSERT_EQ(0, tree_run(3, 4, HN_PAT_MIXED, HN_NET_AS_IS, pol[i],
				      &r, &circ))
			TH_LOG("policy %u", pol[i]);
		EXPECT_EQ(HN_END_DONE, r.end) TH_LOG("%s", r.why);
		EXPECT_EQ(r.gen_msgs, r.done_msgs);
		/* the mesh half on the plan's circuits, the rest as worms */
		EXPECT_LT(0, circ);
		EXPECT_LT(circ, r.done_msgs);
	}
}

/*
 * Random hybrid traffic on FT(3,4): messages of every size between random
 * pairs, predictions, preloads and releases at random, the time-out and
 * PREEMPT; after every step hn_check() holds (messages conserved, every
 * slot's circuits link-disjoint paths that mark exactly their links).  It
 * drains, every message once and in order.
 */
TEST(random_hybrid_checked)
{
	struct hn_pair p[8], perm[64];
	struct hn_grant g[8];
	struct hn_config c;
	struct hn_err err;
	u64 seed = 11, sent = 0;
	u32 i, j, step, preloads = 0;
	struct sim s;
	int rv;

	tree_config(&c, 3, 4, 4);
	c.policy = HN_POL_SES | HN_POL_PREEMPT;
	c.idle_timeout_ns = 3000;
	ASSERT_EQ(0, sim_init(&s, &c));
	for (step = 0; step < 3000; step++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		switch ((seed >> 60) % 8) {
		case 0:		/* a prediction of a few pairs */
			for (j = 0; j < 8; j++) {
				p[j].src = (u32)(seed >> (8 + j)) % 64;
				p[j].dst = (u32)(seed >> (16 + 3 * j)) % 64;
				if (p[j].dst == p[j].src)
					p[j].dst = (p[j].dst + 1) % 64;
			}
			ASSERT_EQ(0, hn_predict(s.e, p, 8, g, NULL));
			break;
		case 1:		/* a slot of a digit shift, routed */
			j = (u32)(seed >> 20) % 3;
			for (i = 0; i < 64; i++) {
				perm[i].src = i;
				perm[i].dst = (i & ~(3u << (2 * j))) |
					(((i >> (2 * j)) + 1) & 3) << (2 * j);
			}
			/* refused if a pair has a circuit in another slot */
			rv = hn_preload(s.e, &(struct hn_slot_cfg){
				.slot = (u32)(seed >> 30) % 4, .npairs = 64,
				.pairs = perm }, 1, &err);
			ASSERT_TRUE(!rv || rv == -EEXIST) TH_LOG("%s", err.msg);
			preloads += !rv;
			break;
		case 2:
			hn_release(s.e, (u32)(seed >> 8) % 64,
				   (u32)(seed >> 16) % 64, NULL);
			break;
		default:	/* messages */
			i = (u32)(seed >> 8) % 64;
			j = (u32)(seed >> 16) % 64;
			if (i == j)
				break;
			if (!sim_send(&s, i, j, 1 + (u32)(seed >> 24) % 600))
				sent++;
			break;
		}
		if (step % 4 == 3)
			hn_step(s.e);
		ASSERT_EQ(0, hn_check(s.e, &err))
			TH_LOG("step %u: %s", step, err.msg);
	}
	EXPECT_LT(0, preloads);
	sim_drain(&s, 100000000);
	EXPECT_FALSE(hn_busy(s.e));
	EXPECT_EQ(sent, s.nlog);
	EXPECT_EQ(0, s.order_errors);
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	sim_fini(&s);
}

TEST_HARNESS_MAIN
