// SPDX-License-Identifier: GPL-2.0
/*
 * test_ftcircuits.c - predictive circuits through a fat tree FT(l, w)
 * (Ch. 7): a circuit of slot s reserves, in s, one up-port per level below
 * its common-ancestor level and the down-links of the same numbers
 * (Theorem 4, Sec. 7.3); preload and predict route with ft_sched, explicit
 * paths are checked link by link, a refusal names the link, and the live
 * engine grants what hn_sched_run() grants for the same requests.
 */
#include "harness.h"
#include "sim.h"
#include "hn_sched.h"

/*
 * FT(@l, @w), @k slots, pure TDM (no wormhole slot), every delay zero;
 * circuits routed by the fat-tree scheduler @algo (enum hn_sched_algo).
 */
static void ft_config(struct hn_config *c, u32 l, u32 w, u32 k, u32 algo)
{
	sim_config_ft(c, l, w, k);
	c->policy = HN_POL_NO_W;
	c->ft_sched = algo - HN_SCHED_LEVELWISE;
	c->predict_algo = HN_PREDICT_KSTEP;	/* per slot, all at once */
}

static int preload_paths(struct sim *s, u32 slot, const struct hn_pair *p,
			 u32 n, const u8 *ports, struct hn_err *err)
{
	struct hn_slot_cfg c = {
		.slot = slot, .npairs = n, .pairs = p, .ports = ports,
	};

	return hn_preload(s->e, &c, 1, err);
}

/*
 * A random permutation of @n nodes, by source (the engine's order), with
 * no node to itself, which the engine refuses (hn_predict()): one cycle
 * of all the nodes (Sattolo's shuffle).
 */
static void permutation(struct hn_pair *p, u32 n, u64 *seed)
{
	u32 i, j, t, *d = calloc(n, sizeof(*d));

	for (i = 0; i < n; i++)
		d[i] = i;
	for (i = n; i-- > 1;) {
		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (u32)(*seed >> 33) % i;
		t = d[i];
		d[i] = d[j];
		d[j] = t;
	}
	for (i = 0; i < n; i++) {
		p[i].src = i;
		p[i].dst = d[i];
	}
	free(d);
}

TEST(config_checks_the_tree)
{
	struct hn_config c;
	struct hn_err err;

	ft_config(&c, 2, 4, 2, HN_SCHED_LEVELWISE);
	EXPECT_EQ(0, hn_config_check(&c, &err));
	c.nodes = 15;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "width^levels"));
	c.nodes = 16;
	c.ft_sched = HN_FT_OPTIMAL + 1;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("ft_sched must be levelwise|local-greedy|local-random|optimal",
		     err.msg);
	c.ft_sched = HN_FT_OPTIMAL;
	c.predict_algo = HN_PREDICT_SECOND_LEVEL;
	EXPECT_EQ(-EOPNOTSUPP, hn_config_check(&c, &err));
	c.predict_algo = HN_PREDICT_FIRST_FIT;
	c.width = 65;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
}

/*
 * Level-wise takes the first port free both ways (Sec. 7.4): two circuits
 * from leaf 0 to leaf 1 of FT(2,4) climb by ports 0 and 1, and come down
 * by the same numbers; another slot's links are its own.
 */
TEST(preload_routes_level_wise)
{
	struct hn_pair p[2] = { { 0, 4 }, { 1, 5 } }, q = { 2, 6 };
	struct hn_config c;
	struct sim s;
	u8 port[4];

	ft_config(&c, 2, 4, 2, HN_SCHED_LEVELWISE);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, preload_paths(&s, 0, p, 2, NULL, NULL));
	ASSERT_EQ(1, hn_circuit_path(s.e, 0, 0, port, 4));
	EXPECT_EQ(0, port[0]);
	ASSERT_EQ(1, hn_circuit_path(s.e, 0, 1, port, 4));
	EXPECT_EQ(1, port[0]);
	ASSERT_EQ(0, preload_paths(&s, 1, &q, 1, NULL, NULL));
	ASSERT_EQ(1, hn_circuit_path(s.e, 1, 2, port, 4));
	EXPECT_EQ(0, port[0]);
	EXPECT_EQ(-ENOENT, hn_circuit_path(s.e, 1, 0, port, 4));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * FT(2,3): 0->3 by port 0, 6->4 by 1, 1->7 by 2 leave leaf 0 only up-port
 * 1 and leaf 1 only down-port 2, so 2->5 has no way at level 0.  Given
 * that path, the refusal names the link and its circuit, and nothing of
 * the refused preload stays; predicted beside the three, 2->5 is refused.
 * Routed by level-wise, all four find ways.
 */
TEST(refusal_names_the_link)
{
	struct hn_pair p[4] = { { 0, 3 }, { 6, 4 }, { 1, 7 }, { 2, 5 } };
	u8 ports[4] = { 0, 1, 2, 1 };
	struct hn_grant g;
	struct hn_config c;
	struct hn_err err;
	struct sim s;

	ft_config(&c, 2, 3, 1, HN_SCHED_LEVELWISE);
	ASSERT_EQ(0, sim_init(&s, &c));
	memset(&err, 0, sizeof(err));
	ASSERT_EQ(-EBUSY, preload_paths(&s, 0, p, 4, ports, &err));
	EXPECT_TRUE(err.link);
	EXPECT_TRUE(err.down);
	EXPECT_EQ(0, err.slot);
	EXPECT_EQ(3, err.index);
	EXPECT_EQ(0, err.level);
	EXPECT_EQ(1, err.sw);			/* leaf 1: nodes 3..5 */
	EXPECT_EQ(1, err.port);
	EXPECT_EQ(6, err.owner.src);
	EXPECT_EQ(4, err.owner.dst);
	EXPECT_EQ(HN_NONE, hn_circuit(s.e, 0, 0));	/* all or nothing */
	ports[3] = 3;
	EXPECT_EQ(-EINVAL, preload_paths(&s, 0, p, 4, ports, &err));
	EXPECT_NE(NULL, strstr(err.msg, "past the switch"));
	/* the first three, then 2->5 predicted: refused */
	ASSERT_EQ(0, preload_paths(&s, 0, p, 3, ports, NULL));
	ASSERT_EQ(0, hn_predict(s.e, &p[3], 1, &g, NULL));
	EXPECT_EQ(HN_REFUSED, g.result);
	memset(&err, 0, sizeof(err));
	EXPECT_EQ(-EBUSY, hn_ft_blocked(s.e, 0, 2, 5, &err));
	EXPECT_TRUE(err.link);
	EXPECT_EQ(0, err.level);
	EXPECT_EQ(0, err.sw);			/* leaf 0, 2's */
	EXPECT_EQ(HN_NONE, err.port);
	EXPECT_EQ(0, hn_ft_blocked(s.e, 0, 2, 8, NULL));	/* up 1 is free */
	EXPECT_EQ(0, hn_check(s.e, NULL));
	/* level-wise routes the four together */
	EXPECT_EQ(0, preload_paths(&s, 0, p, 4, NULL, NULL));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * A whole permutation of FT(3,4) level-wise cannot route (Ch. 7 reports
 * 78-95 % of the requests): the preload is refused naming the level and
 * the switch where a pair found no port free both ways, and changes
 * nothing; optimal routes it.
 */
TEST(level_wise_refusal_names_the_level)
{
	struct hn_pair p[64];
	struct hn_config c;
	struct hn_err err;
	u64 seed = 3;
	struct sim s;
	u32 tries;
	int rc;

	ft_config(&c, 3, 4, 1, HN_SCHED_LEVELWISE);
	ASSERT_EQ(0, sim_init(&s, &c));
	for (tries = 0, rc = 0; tries < 50 && !rc; tries++) {
		permutation(p, 64, &seed);
		memset(&err, 0, sizeof(err));
		rc = preload_paths(&s, 0, p, 64, NULL, &err);
	}
	ASSERT_EQ(-EBUSY, rc);
	EXPECT_TRUE(err.link);
	EXPECT_LT(err.level, 2);
	EXPECT_EQ(HN_NONE, err.port);
	EXPECT_EQ(p[err.index].src, err.a.src);
	EXPECT_EQ(HN_NONE, hn_circuit(s.e, 0, 0));
	sim_fini(&s);
	c.ft_sched = HN_FT_OPTIMAL;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(0, preload_paths(&s, 0, p, 64, NULL, NULL));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * SCHED_RUN and the live engine give the same grants and paths for the
 * same requests (issue 13, step 4): a random permutation on FT(3,4), one
 * slot, for each fat-tree scheduler.
 */
TEST(engine_grants_as_sched_run)
{
	static const u32 algo[] = {
		HN_SCHED_LEVELWISE, HN_SCHED_LOCAL_GREEDY,
		HN_SCHED_LOCAL_RANDOM, HN_SCHED_OPTIMAL,
	};
	struct hn_sched_params sp = {
		.topology = HN_TOPO_FATTREE, .levels = 3, .width = 4,
		.seed = 1,
	};
	struct hn_sched_result res;
	struct hn_pair p[64];
	struct hn_route r[64];
	struct hn_grant g[64];
	struct hn_config c;
	u32 a, i, granted, h, H;
	u64 seed = 7;
	struct sim s;
	u8 port[4];

	for (a = 0; a < ARRAY_SIZE(algo); a++) {
		permutation(p, 64, &seed);
		sp.algo = algo[a];
		ASSERT_EQ(0, hn_sched_run(&sp, p, 64, r, &res, NULL));
		ft_config(&c, 3, 4, 1, algo[a]);
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, hn_predict(s.e, p, 64, g, NULL));
		for (i = 0, granted = 0; i < 64; i++) {
			EXPECT_EQ(r[i].granted, g[i].result == HN_GRANTED);
			granted += r[i].granted;
			if (!r[i].granted)
				continue;
			H = hn_circuit_path(s.e, 0, p[i].src, port, 4);
			ASSERT_EQ(r[i].level, H);
			for (h = 0; h < H; h++)
				EXPECT_EQ(r[i].port[h], port[h]);
		}
		EXPECT_EQ(res.granted, granted);
		EXPECT_LT(16, granted);
		if (algo[a] == HN_SCHED_OPTIMAL)
			EXPECT_EQ(64, granted);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

/*
 * Circuit data crosses the tree at the circuit timing, link by link: a
 * circuit that climbs H levels crosses 2H more links between switches,
 * whose two (de)serialisers it skips, and 2H more switches.
 */
TEST(circuit_latency_by_level)
{
	struct hn_pair p[3] = { { 0, 1 }, { 2, 5 }, { 3, 40 } };
	struct tmsg *t[3];
	struct hn_config c;
	struct sim s;
	u32 i;

	ft_config(&c, 3, 4, 1, HN_SCHED_LEVELWISE);
	c.wire_ns = 80;
	c.serdes_ns = 30;
	c.fabric_ns = 1;
	c.nic_ns = 10;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, preload_paths(&s, 0, p, 3, NULL, NULL));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, sim_send(&s, p[i].src, p[i].dst, 64));
	sim_drain(&s, 1000000);
	for (i = 0; i < 3; i++) {
		t[i] = sim_find(&s, p[i].src, p[i].dst, 0);
		ASSERT_NE(NULL, t[i]);
		EXPECT_EQ(HN_MODE_CIRCUIT, t[i]->m.mode);
	}
	/* H = 0, 1, 2: each level adds 2 (80 - 2 * 30 + 1) ns */
	EXPECT_EQ(42, t[1]->m.t_deliver - t[0]->m.t_deliver);
	EXPECT_EQ(84, t[2]->m.t_deliver - t[0]->m.t_deliver);
	sim_fini(&s);
}

/*
 * Grants, preloads and releases in any order keep every slot a set of
 * link-disjoint paths whose links, and only those, are marked busy
 * (hn_check()); releasing everything frees every link.
 */
TEST(random_changes_keep_paths_disjoint)
{
	static const u32 algo[] = {
		HN_SCHED_LEVELWISE, HN_SCHED_LOCAL_RANDOM, HN_SCHED_OPTIMAL,
	};
	struct hn_pair p[64], full[64];
	struct hn_grant g[64];
	struct hn_config c;
	struct hn_err err;
	u64 seed = 99;
	u32 a, round, i;
	struct sim s;
	u8 port[4];

	for (a = 0; a < ARRAY_SIZE(algo); a++) {
		ft_config(&c, 3, 4, 4, algo[a]);
		c.predict_algo = a == 1 ? HN_PREDICT_FIRST_FIT :
			HN_PREDICT_KSTEP;
		ASSERT_EQ(0, sim_init(&s, &c));
		for (round = 0; round < 40; round++) {
			permutation(p, 64, &seed);
			ASSERT_EQ(0, hn_predict(s.e, p, 16 + round % 48, g,
						NULL));
			ASSERT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
			for (i = 0; i < 64; i += 3)
				hn_release(s.e, p[i].src, p[i].dst, NULL);
			ASSERT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
			if (round % 10 == 9) {
				permutation(full, 64, &seed);
				hn_preload(s.e, &(struct hn_slot_cfg){
					.slot = round % 4, .npairs = 64,
					.pairs = full }, 1, NULL);
				ASSERT_EQ(0, hn_check(s.e, &err))
					TH_LOG("%s", err.msg);
			}
		}
		ASSERT_EQ(0, hn_release_all(s.e, NULL));
		for (i = 0; i < 64; i++)
			EXPECT_EQ(-ENOENT, hn_circuit_path(s.e, 0, i, port, 4));
		/* every link free again: a full permutation routes optimally */
		EXPECT_EQ(0, hn_check(s.e, &err));
		sim_fini(&s);
	}
}

/*
 * Dynamic TDM on FT(3,4) (Sec. 5.3, Ch. 7's routing): every message waits
 * for a circuit its stream requests; the scheduling array routes them
 * through the slot's free links, the time-out frees them.  Random traffic
 * drains, in order, with every slot's paths link-disjoint throughout.
 */
TEST(dynamic_tdm_drains)
{
	struct hn_config c;
	struct hn_err err;
	u32 i, src, dst, sent = 0;
	u64 seed = 5;
	struct sim s;

	ft_config(&c, 3, 4, 4, HN_SCHED_LEVELWISE);
	c.policy |= HN_POL_SES | HN_POL_DYNAMIC;
	c.idle_timeout_ns = 2000;
	c.slot_p_ns = 200;
	ASSERT_EQ(0, sim_init(&s, &c));
	for (i = 0; i < 2000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		src = (u32)(seed >> 40) % 64;
		dst = (u32)(seed >> 20) % 64;
		if (src == dst)
			continue;
		ASSERT_EQ(0, sim_send(&s, src, dst, 64));
		sent++;
		if (i % 16 == 15) {
			hn_step(s.e);
			ASSERT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
		}
	}
	sim_drain(&s, 100000000);
	EXPECT_FALSE(hn_busy(s.e));
	EXPECT_EQ(sent, s.nlog);
	EXPECT_EQ(0, s.order_errors);
	for (i = 0; i < s.nlog; i++)
		EXPECT_EQ(HN_MODE_CIRCUIT, s.log[i]->m.mode);
	EXPECT_EQ(0, hn_check(s.e, &err)) TH_LOG("%s", err.msg);
	sim_fini(&s);
}

TEST_HARNESS_MAIN
