// SPDX-License-Identifier: GPL-2.0
/*
 * test_msg_switching.c - a message's own switching (hn_msg.sw, flow.c)
 * and a switch's (hn_set_switch_flow()): Zydallis's router stores and
 * forwards some messages and passes others as worms; a setting per
 * switch, routers of both kinds in one fabric, is ours.  A message of its
 * own switching crosses every switch as it would on a fabric of that
 * switching, and so does every message when every switch has that
 * switching, on each engine; a message's own comes before its switch's;
 * mixed, they drain; on an idle path each store-and-forward switch adds
 * its wait, so that all of them give Duato's store-and-forward latency;
 * where the fabric cannot carry one it is refused.
 */
#include "harness.h"
#include "fabric.h"

static u64 log_a[1 << 18], log_b[1 << 18];

/* @c with @sw's buffers: cut-through and SAF hold a worm per VC */
static void fabric(struct hn_config *c, u32 kind, u32 sw)
{
	switch (kind) {
	case 0:				/* the crossbar: one switch */
		hn_config_profile(c, "ding4");
		c->nodes = 8;
		c->k = 2;
		c->policy = 0;
		c->slot_p_ns = c->slot_w_ns = 300;
		break;
	case 1:				/* FT(2,4): switch.c */
		ft_config(c, "ding4", 2, 4);
		break;
	default:			/* FT(2,4): the flit router */
		ft_config(c, "ding4", 2, 4);
		c->vc_count = 2;
		c->vc_flits = 40;
		break;
	}
	c->max_msg_bytes = 300;
	c->sw_buf_bytes = 320;
	c->switching = sw;
}

/*
 * Every message stored and forwarded (or cut through) by its own choice
 * on a wormhole fabric arrives when it would on a fabric of that
 * switching, and a wormhole message on such a fabric as on a wormhole one.
 */
TEST(own_switching_is_the_fabrics)
{
	static const char *const what[] = { "crossbar", "FT(2,4)",
					    "FT(2,4) flit" };
	struct hn_config a, b;
	u32 kind, sw;
	int na, nb;

	for (kind = 0; kind < ARRAY_SIZE(what); kind++) {
		for (sw = HN_SWITCH_VCT; sw <= HN_SWITCH_SAF; sw++) {
			fabric(&a, kind, sw);
			fabric(&b, kind, HN_SWITCH_WORMHOLE);
			na = traffic(&a, 20000, 5 + sw, log_a,
				     ARRAY_SIZE(log_a));
			nb = traffic_sw(&b, (u8)(sw + 1), 20000, 5 + sw, log_b,
					ARRAY_SIZE(log_b));
			ASSERT_LT(500, na);
			ASSERT_EQ(na, nb);
			EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64)))
				TH_LOG("%s: switching %u by message", what[kind],
				       sw);
			/* and back: wormhole messages on this fabric */
			nb = traffic(&b, 20000, 5 + sw, log_b,
				     ARRAY_SIZE(log_b));
			fabric(&a, kind, sw);
			na = traffic_sw(&a, HN_SWITCH_WORMHOLE + 1, 20000,
					5 + sw, log_a, ARRAY_SIZE(log_a));
			ASSERT_EQ(na, nb);
			EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64)))
				TH_LOG("%s: wormhole messages on switching %u",
				       what[kind], sw);
		}
	}
}

static u8 flow[64];

/*
 * Messages of every switching at once, each its own at random, on each
 * engine, and on the fabrics with switches of every switching at random
 * too (a header entering a storing switch from a wormhole one needs room
 * for its whole worm there, or both wait for ever): traffic() checks the
 * engine every 40 ns, the pairs' order and that all drain.  The same
 * traffic all by the fabric's switching arrives otherwise: SAF messages
 * cost more than wormhole ones.
 */
TEST(mixed_switchings_drain)
{
	struct hn_config c;
	u64 seed = 77;
	u32 kind, i;
	int n, nw;

	for (kind = 0; kind < 5; kind++) {
		fabric(&c, kind < 3 ? kind : kind - 2, HN_SWITCH_WORMHOLE);
		for (i = 0; i < ARRAY_SIZE(flow); i++)
			flow[i] = (u8)hn_rand_below(&seed, 4);
		n = traffic_at(&c, kind < 3 ? NULL : flow, HN_SW_MIXED, 20000,
			       9, log_a, ARRAY_SIZE(log_a));
		nw = traffic(&c, 20000, 9, log_b, ARRAY_SIZE(log_b));
		ASSERT_LT(500, n) TH_LOG("kind %u", kind);
		ASSERT_LT(500, nw);
		EXPECT_TRUE(n != nw || memcmp(log_a, log_b, n * sizeof(u64)));
	}
}

/*
 * On an idle path of five switches of FT(3,4), a worm of a message stored
 * and forwarded by its own choice on a wormhole fabric: Duato's SAF
 * latency, above his wormhole one.
 */
TEST(idle_saf_message_is_duatos_saf)
{
	struct hn_config c;
	struct sim s;
	u32 f[1], len;
	u64 lat;

	ft_config(&c, "ding4", 3, 4);
	len = c.worm_bytes < 256 ? c.worm_bytes : 256;
	ASSERT_EQ(0, sim_init(&s, &c));
	s.sw = HN_SWITCH_SAF + 1;
	ASSERT_EQ(0, sim_send(&s, 0, 63, len));
	sim_drain(&s, 1000000);
	ASSERT_EQ(1u, s.nlog);
	lat = s.log[0]->m.t_deliver - s.log[0]->m.t_inject;
	sim_fini(&s);
	f[0] = len / c.flit_bytes;
	EXPECT_EQ(duato(&c, HN_SWITCH_SAF, 6, f, 1), lat);
	EXPECT_LT(duato(&c, HN_SWITCH_WORMHOLE, 6, f, 1), lat);
}

/* every switch of its own switching @sw (HN_SWITCH_*), or none (-1) */
static const u8 *every(int sw)
{
	memset(flow, sw + 1, sizeof(flow));
	return flow;
}

/*
 * Every switch of its own switching, VCT or SAF, on a wormhole fabric:
 * the run of a fabric of that switching, ns for ns, on the crossbar,
 * FT(2,4) and the flit router; every switch wormhole on such a fabric, a
 * wormhole fabric's run; and a message's own switching comes first.
 */
TEST(every_switch_so_is_the_fabric_so)
{
	struct hn_config a, b;
	u32 kind, sw;
	int na, nb;

	for (kind = 0; kind <= 2; kind++) {
		for (sw = HN_SWITCH_VCT; sw <= HN_SWITCH_SAF; sw++) {
			fabric(&a, kind, sw);
			fabric(&b, kind, HN_SWITCH_WORMHOLE);
			na = traffic(&a, 20000, 3 + sw, log_a,
				     ARRAY_SIZE(log_a));
			nb = traffic_at(&b, every(sw), 0, 20000, 3 + sw,
					log_b, ARRAY_SIZE(log_b));
			ASSERT_LT(500, na);
			ASSERT_EQ(na, nb);
			EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64)))
				TH_LOG("kind %u: switches of switching %u",
				       kind, sw);
			/* every switch wormhole on this fabric */
			nb = traffic(&b, 20000, 3 + sw, log_b,
				     ARRAY_SIZE(log_b));
			na = traffic_at(&a, every(HN_SWITCH_WORMHOLE), 0,
					20000, 3 + sw, log_a,
					ARRAY_SIZE(log_a));
			ASSERT_EQ(na, nb);
			EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64)))
				TH_LOG("kind %u: wormhole switches on %u",
				       kind, sw);
			/* messages wormhole by their own, switches not */
			na = traffic_at(&a, every(sw), HN_SWITCH_WORMHOLE + 1,
					20000, 3 + sw, log_a,
					ARRAY_SIZE(log_a));
			ASSERT_EQ(na, nb);
			EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64)))
				TH_LOG("kind %u: wormhole messages, switches %u",
				       kind, sw);
		}
	}
}

/*
 * One worm of L flits on an idle path of five switches of FT(3,4), from
 * node 0 up to the root and down to node 63: each switch that stores and
 * forwards it adds its wait to Duato's wormhole latency, L - 1 flit times
 * inside the path (its tail comes L - 1 flits after its header), and the
 * rest of Duato's store-and-forward latency at the first (its tail comes
 * from the node), so that none gives the one latency and all the other.
 */
TEST(idle_path_each_saf_switch_adds_its_wait)
{
	struct hn_fabric_info fi;
	struct hn_switch_stats ss;
	struct hn_config c;
	struct sim s;
	u32 f[1], len, sw, lv;
	u64 lat, wh, saf, step, first, want;

	ft_config(&c, "ding4", 3, 4);
	len = c.worm_bytes < 256 ? c.worm_bytes : 256;
	f[0] = len / c.flit_bytes;
	wh = duato(&c, HN_SWITCH_WORMHOLE, 6, f, 1);
	saf = duato(&c, HN_SWITCH_SAF, 6, f, 1);
	step = (f[0] - 1) * c.wh_flit_ns;
	ASSERT_LT(wh + 5 * step, saf + 1);
	first = saf - wh - 4 * step;
	/* the levels that store: none, 0 (the first and last), 0-1, all */
	for (lv = 0; lv <= 3; lv++) {
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, hn_fabric_info(s.e, &fi));
		for (sw = 0; sw < fi.switches; sw++) {
			ASSERT_EQ(0, hn_switch_stats(s.e, sw, &ss));
			ASSERT_EQ(0, hn_set_switch_flow(s.e, sw,
							ss.level < lv ?
							HN_SWITCH_SAF + 1 : 0,
							NULL));
		}
		ASSERT_EQ(0, sim_send(&s, 0, 63, len));
		sim_drain(&s, 1000000);
		ASSERT_EQ(1u, s.nlog);
		lat = s.log[0]->m.t_deliver - s.log[0]->m.t_inject;
		sim_fini(&s);
		want = wh + (lv >= 1 ? first + step : 0) +
		       (lv >= 2 ? 2 * step : 0) + (lv >= 3 ? step : 0);
		EXPECT_EQ(want, lat)
			TH_LOG("levels below %u store and forward", lv);
	}
}

/*
 * Zydallis's idle-path acceptance (C1.1) on a grid: a message of L flits
 * (2, 8, 32) over H switches (1: two nodes of one leaf of FT(2,4); 2, 3:
 * along a row of mesh:4x4), stored and forwarded, then as a worm: each
 * is Duato's latency, so SAF - WH = (H (L - 1) + 1) flit times, each
 * switch waiting for the tail that a worm's header would not (and the
 * +1: Duato's SAF router delay has no flit time of its own).  The notes'
 * (H - 1) L cycles counts H another way: it is not asserted.
 */
TEST(saf_against_wormhole_on_a_grid)
{
	static const struct {
		const char *fab;
		u32 dst, h;
	} path[] = { { "fattree:2,4", 1, 1 }, { "mesh:4x4", 1, 2 },
		     { "mesh:4x4", 2, 3 } };
	static const u32 flits[] = { 2, 8, 32 };
	struct hn_config c;
	u32 p, i, f[1];
	u64 wh, saf;

	for (p = 0; p < ARRAY_SIZE(path); p++) {
		for (i = 0; i < ARRAY_SIZE(flits); i++) {
			direct_config(&c, path[p].fab);
			c.worm_bytes = 32 * c.flit_bytes;	/* one worm */
			f[0] = flits[i];
			c.switching = HN_SWITCH_WORMHOLE;
			wh = one(&c, 0, path[p].dst, f[0] * c.flit_bytes);
			c.switching = HN_SWITCH_SAF;
			saf = one(&c, 0, path[p].dst, f[0] * c.flit_bytes);
			EXPECT_EQ(duato(&c, HN_SWITCH_WORMHOLE, path[p].h + 1,
					f, 1), wh)
				TH_LOG("H %u, L %u", path[p].h, f[0]);
			EXPECT_EQ(duato(&c, HN_SWITCH_SAF, path[p].h + 1, f, 1),
				  saf) TH_LOG("H %u, L %u", path[p].h, f[0]);
			EXPECT_EQ((path[p].h * (f[0] - 1) + 1) *
				  (u64)c.wh_flit_ns, saf - wh)
				TH_LOG("H %u, L %u", path[p].h, f[0]);
		}
	}
}

/* Where a switch cannot have its own switching, it is refused, with why. */
TEST(switch_switching_refused_where_it_cannot)
{
	struct hn_config c;
	struct hn_err err;
	struct sim s;

	fabric(&c, 2, HN_SWITCH_WORMHOLE);
	c.vc_flits = 4;			/* 4 flits: less than a worm */
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EINVAL, hn_set_switch_flow(s.e, 0, HN_SWITCH_SAF + 1,
					      &err));
	EXPECT_NE(NULL, strstr(err.msg, "buffers of a worm"));
	EXPECT_EQ(-EINVAL, hn_set_switch_flow(s.e, 0, HN_SWITCH_VCT + 1,
					      &err));
	EXPECT_EQ(-EINVAL, hn_set_switch_flow(s.e, 0, HN_SWITCH_SAF + 2,
					      &err));
	EXPECT_NE(NULL, strstr(err.msg, "wormhole, vct or saf"));
	EXPECT_EQ(-EINVAL, hn_set_switch_flow(s.e, 12, 1, &err));
	EXPECT_EQ(0, hn_set_switch_flow(s.e, 0, HN_SWITCH_WORMHOLE + 1,
					&err));
	EXPECT_EQ(HN_SWITCH_WORMHOLE + 1, hn_switch_flow(s.e, 0));
	/* not while a worm is in the fabric */
	ASSERT_EQ(0, sim_send(&s, 0, 15, 200));
	hn_run_until(s.e, hn_now(s.e) + 100);
	EXPECT_EQ(-EBUSY, hn_set_switch_flow(s.e, 1, 0, &err));
	EXPECT_NE(NULL, strstr(err.msg, "while it is empty"));
	sim_drain(&s, 1000000);
	EXPECT_EQ(1u, s.nlog);
	EXPECT_EQ(0, hn_set_switch_flow(s.e, 0, 0, &err));
	EXPECT_EQ(0u, hn_switch_flow(s.e, 0));
	sim_fini(&s);

	ft_config(&c, "ding4", 2, 4);
	c.switching = HN_SWITCH_DROP;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EOPNOTSUPP, hn_set_switch_flow(s.e, 0, 1, &err));
	EXPECT_NE(NULL, strstr(err.msg, "switching drop"));
	sim_fini(&s);
}

/*
 * A node's input chooses among its VQ_W (switch.c's start_node(), and an
 * inner input among its queues: start_inner()): a message stored and
 * forwarded by its own choice waits for its tail, and only it.  Node 0
 * sends X to node 2, then a short wormhole message B to node 3, whose
 * output node 1 holds, then a long store-and-forward S to node 2, which
 * follows X in round-robin order, ahead of B.  When node 3's output
 * frees, B goes, before S's tail is in.  (switch.c once took S's tail
 * time for the next queue's too: B waited for it, then for S.)
 */
/*
 * A node's input chooses among its VQ_W (switch.c's start_node(), and an
 * inner input among its queues: start_inner()): a message stored and
 * forwarded by its own choice waits for its tail, and only it.  Node 0
 * sends X to node 2, then a short wormhole message B to node 3, whose
 * output node 1 holds, then a long store-and-forward S to node 2, which
 * follows X in round-robin order, ahead of B.  When node 3's output
 * frees, B goes, before S's tail is in, and at the same time on every
 * engine.  (switch.c once took S's tail time for B's queue too: B waited
 * for it.)
 */
TEST(saf_tail_holds_its_own_queue_only)
{
	static const char *const what[] = { "crossbar", "crossbar vct",
					    "FT(2,4)", "FT(3,4)" };
	const struct hn_msg *b, *m, *saf;
	struct hn_config c;
	u64 at = 0;
	struct sim s;
	u32 kind, i;

	for (kind = 0; kind < ARRAY_SIZE(what); kind++) {
		ft_config(&c, "ding4", kind < 2 ? 1 : kind, kind < 2 ? 16 : 4);
		if (kind < 2) {		/* one switch: wormhole, vct */
			c.topology = 0;		/* HN_TOPO_CROSSBAR */
			c.switching = kind ? HN_SWITCH_VCT : 0;
		}
		c.max_msg_bytes = c.worm_bytes;
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, sim_send(&s, 1, 3, 64));
		ASSERT_EQ(0, sim_send(&s, 0, 2, 32));		/* X */
		hn_run_until(s.e, 1);
		ASSERT_EQ(0, sim_send(&s, 0, 3, 16));		/* B */
		hn_run_until(s.e, 2);
		s.sw = HN_SWITCH_SAF + 1;
		ASSERT_EQ(0, sim_send(&s, 0, 2, c.worm_bytes));	/* S */
		sim_drain(&s, 1000000);
		ASSERT_EQ(4u, s.nlog);
		b = saf = NULL;
		for (i = 0; i < 4; i++) {
			m = &s.log[i]->m;
			if (m->src == 0 && m->dst == 3)
				b = m;
			if (m->sw)
				saf = m;
		}
		ASSERT_NE(NULL, b);
		ASSERT_NE(NULL, saf);
		EXPECT_LT(b->t_deliver, saf->t_tail) TH_LOG("%s", what[kind]);
		if (!kind)
			at = b->t_deliver;
		EXPECT_EQ(at, b->t_deliver) TH_LOG("%s", what[kind]);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

/* Inject a message of switching @sw into @s: hn_inject()'s result. */
static int send_sw(struct sim *s, u32 len, u8 sw, struct hn_err *err)
{
	struct tmsg *t = calloc(1, sizeof(*t));
	int rc;

	t->m.dst = 1;
	t->m.len = len;
	t->m.sw = sw;
	t->m.t_inject = hn_now(s->e);
	rc = hn_inject(s->e, &t->m, err);
	if (rc)
		free(t);
	return rc;
}

/* Where the fabric cannot carry a message so, it is refused, with why. */
TEST(refused_where_the_fabric_cannot)
{
	struct hn_config c;
	struct hn_err err;
	struct sim s;

	fabric(&c, 2, HN_SWITCH_WORMHOLE);
	c.vc_flits = 4;			/* 4 flits: less than a worm */
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EINVAL, send_sw(&s, 200, HN_SWITCH_SAF + 1, &err));
	EXPECT_NE(NULL, strstr(err.msg, "buffers of a worm"));
	EXPECT_EQ(-EINVAL, send_sw(&s, 200, HN_SWITCH_VCT + 1, &err));
	EXPECT_EQ(-EINVAL, send_sw(&s, 200, HN_SWITCH_SAF + 2, &err));
	EXPECT_NE(NULL, strstr(err.msg, "wormhole, vct or saf"));
	/* a worm the buffers hold goes */
	EXPECT_EQ(0, send_sw(&s, 4 * c.flit_bytes, HN_SWITCH_SAF + 1, &err));
	EXPECT_EQ(0, send_sw(&s, 200, HN_SWITCH_WORMHOLE + 1, &err));
	sim_drain(&s, 1000000);
	EXPECT_EQ(2u, s.nlog);
	sim_fini(&s);

	ft_config(&c, "ding4", 2, 4);
	c.switching = HN_SWITCH_DROP;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EINVAL, send_sw(&s, 10, HN_SWITCH_WORMHOLE + 1, &err));
	EXPECT_NE(NULL, strstr(err.msg, "switching drop"));
	EXPECT_EQ(0, send_sw(&s, 10, 0, &err));
	sim_drain(&s, 1000000);
	EXPECT_EQ(1u, s.nlog);
	sim_fini(&s);
}

TEST_HARNESS_MAIN
