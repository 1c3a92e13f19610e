// SPDX-License-Identifier: GPL-2.0
/*
 * test_paths.c - circuits as paths of any topology (topo.h's
 * hn_topo_circuit() and hn_topo_chan(), slot.c): every channel between
 * switches has its own number; on a mesh, a torus and a GH a circuit
 * takes the topology's route and holds its channels in its slot, two
 * circuits of a slot never share one (a preload that would is refused
 * naming the channel and its holder, first fit goes on to the next
 * slot, K-step's matching is granted only where the links are free),
 * hn_check() finds a slot whose channel state lies, and a circuit's data
 * crosses each link between switches at Sec. 5.5.2's cost and is counted
 * on each channel of its path (circuit_bytes), on no other.
 */
#include "harness.h"
#include "sim.h"
#include "engine.h"		/* a slot's channel state, to corrupt it */
#include "topo.h"
#include "cfg_text.h"

/* @topo ("mesh:4x4"), @k slots, pure TDM, every delay zero */
static void config(struct __test_metadata *_metadata, struct hn_config *c,
		   const char *topo, u32 k)
{
	struct hn_err err;

	sim_config_zero(c, 16, k);
	ASSERT_EQ(0, hn_topology_parse(c, topo, &err)) TH_LOG("%s", err.msg);
	c->policy = HN_POL_NO_W;
	c->predict_algo = HN_PREDICT_FIRST_FIT;
	ASSERT_EQ(0, hn_config_check(c, &err)) TH_LOG("%s", err.msg);
}

/* Every channel between switches of @t has a number below nchan, once. */
static void numbered_once(struct __test_metadata *_metadata,
			  const struct hn_topo *t)
{
	u32 sw, p, c, n = hn_topo_nchan(t), seen = 0;
	struct hn_tport e;
	u8 *hit = calloc(n, 1);

	ASSERT_NE(NULL, hit);
	for (sw = 0; sw < t->nsw; sw++)
		for (p = 0; p < t->radix; p++) {
			e = t->ops->peer(t, sw, p);
			if (e.sw == HN_NONE || e.sw == HN_TOPO_NODE)
				continue;
			c = hn_topo_chan(t, sw, p);
			ASSERT_GT(n, c) TH_LOG("%s sw %u port %u", t->ops->name,
					      sw, p);
			EXPECT_EQ(0, hit[c]++) TH_LOG("%s sw %u port %u",
						     t->ops->name, sw, p);
			seen++;
		}
	EXPECT_EQ(2 * (t->nlinks - t->nodes), seen) TH_LOG("%s", t->ops->name);
	free(hit);
}

TEST(channels_numbered_once)
{
	struct hn_topo t;

	ASSERT_EQ(0, hn_topo_ft(&t, 3, 4, 10, 6400, NULL));
	numbered_once(_metadata, &t);
	hn_topo_fini(&t);
	ASSERT_EQ(0, hn_topo_cube(&t, 2, 4, false, 10, 6400));
	numbered_once(_metadata, &t);
	hn_topo_fini(&t);
	ASSERT_EQ(0, hn_topo_cube(&t, 3, 3, true, 10, 6400));
	numbered_once(_metadata, &t);
	hn_topo_fini(&t);
	ASSERT_EQ(0, hn_topo_cube(&t, 1, 2, true, 10, 6400));	/* 2 links */
	numbered_once(_metadata, &t);
	hn_topo_fini(&t);
	ASSERT_EQ(0, hn_topo_gh(&t, 2, 4, 10, 6400));
	numbered_once(_metadata, &t);
	hn_topo_fini(&t);
}

/*
 * mesh:4x4's row 0: 0 -> 2 and 1 -> 3 both take the channel from switch
 * 1 to switch 2.  One preload of both is refused, naming that channel by
 * the port that sends on it and 0:2 as its holder, and nothing of it
 * stays; each alone is taken.
 */
TEST(preload_refusal_names_the_channel)
{
	struct hn_pair p[2] = { { 0, 2 }, { 1, 3 } };
	struct hn_slot_cfg sc = { .slot = 0, .npairs = 2, .pairs = p };
	struct hn_config c;
	struct hn_topo t;
	struct hn_err err;
	struct sim s;
	char text[160];

	config(_metadata, &c, "mesh:4x4", 2);
	ASSERT_EQ(0, hn_topo_cube(&t, 2, 4, false, 10, 6400));
	ASSERT_EQ(0, sim_init(&s, &c));
	memset(&err, 0, sizeof(err));
	ASSERT_EQ(-EBUSY, hn_preload(s.e, &sc, 1, &err));
	EXPECT_TRUE(err.link);
	EXPECT_TRUE(err.chan);
	EXPECT_EQ(1, err.sw);
	EXPECT_EQ(t.ops->route(&t, 1, 3), err.port);
	EXPECT_EQ(0, err.owner.src);
	EXPECT_EQ(2, err.owner.dst);
	EXPECT_EQ(1, err.index);
	hn_err_text(text, sizeof(text), -EBUSY, &err, "preload refused");
	EXPECT_NE(NULL, strstr(text, "channel sw0.1/down")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "held by 0:2")) TH_LOG("%s", text);
	EXPECT_EQ(HN_NONE, hn_circuit(s.e, 0, 0));	/* all or nothing */
	EXPECT_EQ(0, sim_preload1(&s, 0, &p[0], 1));
	EXPECT_EQ(0, sim_preload1(&s, 1, &p[1], 1));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	/* a path given by ports is a fat tree's */
	sc.npairs = 1;
	sc.ports = (const u8 *)"\0";
	EXPECT_EQ(-EINVAL, hn_preload(s.e, &sc, 1, &err));
	EXPECT_NE(NULL, strstr(err.msg, "fat tree's"));
	EXPECT_EQ(-EINVAL, hn_circuit_path(s.e, 0, 0, (u8 *)text, 4));
	hn_topo_fini(&t);
	sim_fini(&s);
}

/*
 * Placing the two: first fit puts 1 -> 3 in the next slot, whose links
 * are free, where on the crossbar both share slot 0; with one slot it is
 * refused.  K-step's matching (a crossbar's) pairs both in slot 0 but
 * gets only the first.  Releasing 0 -> 2 frees its channels for 1 -> 3.
 */
TEST(first_fit_goes_round_links)
{
	struct hn_pair p[2] = { { 0, 2 }, { 1, 3 } };
	struct hn_grant g[2];
	struct hn_config c;
	struct sim s;

	config(_metadata, &c, "mesh:4x4", 2);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_predict(s.e, p, 2, g, NULL));
	EXPECT_EQ(HN_GRANTED, g[0].result);
	EXPECT_EQ(0, g[0].slot);
	EXPECT_EQ(HN_GRANTED, g[1].result);
	EXPECT_EQ(1, g[1].slot);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);

	c.k = 1;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_predict(s.e, p, 2, g, NULL));
	EXPECT_EQ(HN_GRANTED, g[0].result);
	EXPECT_EQ(HN_REFUSED, g[1].result);
	ASSERT_EQ(0, hn_release(s.e, 0, 2, NULL));
	ASSERT_EQ(0, hn_predict(s.e, &p[1], 1, g, NULL));
	EXPECT_EQ(HN_GRANTED, g[0].result);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);

	c.predict_algo = HN_PREDICT_KSTEP;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_predict(s.e, p, 2, g, NULL));
	EXPECT_EQ(1, (g[0].result == HN_GRANTED) + (g[1].result == HN_GRANTED));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);

	sim_config_zero(&c, 16, 1);	/* the crossbar */
	c.policy = HN_POL_NO_W;
	c.predict_algo = HN_PREDICT_FIRST_FIT;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_predict(s.e, p, 2, g, NULL));
	EXPECT_EQ(HN_GRANTED, g[1].result);
	EXPECT_EQ(0, g[1].slot);
	sim_fini(&s);
}

/* A slot's channel state that differs from its circuits' is found. */
TEST(check_finds_a_lying_slot)
{
	struct hn_pair p = { 0, 5 };
	struct hn_config c;
	struct hn_err err;
	struct sim s;
	u64 w;

	config(_metadata, &c, "torus:4x4", 1);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	ASSERT_EQ(0, hn_check(s.e, NULL));
	EXPECT_EQ(2, s.e->slot[0].hops[0]);	/* one step in x, one in y */
	for (w = 0; !s.e->slot[0].busy[w]; w++)
		;
	s.e->slot[0].busy[w] &= s.e->slot[0].busy[w] - 1;	/* one free */
	EXPECT_EQ(-EIO, hn_check(s.e, &err));
	EXPECT_STREQ("link state differs from the circuits' links", err.msg);
	sim_fini(&s);

	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	s.e->slot[0].hops[0] = 1;
	EXPECT_EQ(-EIO, hn_check(s.e, &err));
	EXPECT_STREQ("circuit's hop count wrong", err.msg);
	sim_fini(&s);
}

/* The delivery time of one 160 B message over a circuit u -> v, slot 0. */
static u64 circuit_time(struct __test_metadata *_metadata,
			const struct hn_config *c, u32 u, u32 v)
{
	struct hn_pair p = { u, v };
	struct tmsg *m;
	struct sim s;
	u64 t;

	EXPECT_EQ(0, sim_init(&s, c));
	EXPECT_EQ(0, sim_preload1(&s, 0, &p, 1));
	EXPECT_EQ(0, sim_send(&s, u, v, 160));
	sim_drain(&s, 1000000);
	m = sim_find(&s, u, v, 0);
	EXPECT_NE(NULL, m);
	t = m ? m->m.t_deliver : 0;
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
	return t;
}

/*
 * Each link between switches a circuit crosses adds the wire less both
 * (de)serialisers, which a circuit skips, and one more switch (Sec.
 * 5.5.2, link by link): on torus:4x4, 0 -> 2 crosses two links, 0 -> 1
 * one, 0 -> 3 one (round the wrap), 0 -> 10 four.
 */
TEST(each_link_costs_a_hop)
{
	struct hn_config c;
	u64 t1, hop;

	config(_metadata, &c, "torus:4x4", 1);
	c.wire_ns = 100;
	c.serdes_ns = 10;
	c.fabric_ns = 50;
	hop = c.wire_ns - 2 * c.serdes_ns + c.fabric_ns;
	t1 = circuit_time(_metadata, &c, 0, 1);
	EXPECT_EQ(t1 + hop, circuit_time(_metadata, &c, 0, 2));
	EXPECT_EQ(t1, circuit_time(_metadata, &c, 0, 3));
	EXPECT_EQ(t1 + 3 * hop, circuit_time(_metadata, &c, 0, 10));
}

/*
 * mesh:4x4's circuit 0 -> 2 carries 1000 B: node 0's link up, the
 * channels from switch 0 to 1 and 1 to 2, and node 2's link down count
 * them as circuit_bytes, no other channel does, nor does any channel
 * count them as a worm's; switches 0, 1 and 2 each send them on, the
 * level sums them; a reset clears them.
 */
TEST(circuit_bytes_along_the_path)
{
	struct hn_pair p = { 0, 2 };
	struct hn_switch_stats ss;
	struct hn_level_stats lv;
	struct hn_link_stats ls;
	struct hn_config c;
	struct sim s;
	u32 l, d, sw, on = 0;
	u64 want;

	config(_metadata, &c, "mesh:4x4", 1);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	ASSERT_EQ(0, sim_send(&s, 0, 2, 1000));
	sim_drain(&s, 1000000);
	ASSERT_EQ(1, s.nlog);
	for (l = 0; l < 16 + 24; l++) {
		ASSERT_EQ(0, hn_link_stats(s.e, l, &ls));
		for (d = HN_UP; d <= HN_DOWN; d++) {
			sw = ls.sw[d];
			/* a node's link: [HN_UP] is the node's, port its number */
			want = (ls.sw[HN_UP] == HN_NONE &&
				ls.port[HN_UP] == (d == HN_UP ? 0 : 2)) ||
			       ((sw == 0 || sw == 1) && ls.sw[!d] == sw + 1) ?
			       1000 : 0;
			EXPECT_EQ(want, ls.ch[d].circuit_bytes)
				TH_LOG("link %u dir %u", l, d);
			EXPECT_EQ(0, ls.ch[d].bytes);
			on += !!want;
		}
	}
	EXPECT_EQ(4, on);
	for (sw = 0; sw < 16; sw++) {
		ASSERT_EQ(0, hn_switch_stats(s.e, sw, &ss));
		EXPECT_EQ(sw <= 2 ? 1000 : 0, ss.circuit_bytes) TH_LOG("sw %u", sw);
	}
	ASSERT_EQ(0, hn_level_stats(s.e, 0, &lv));
	EXPECT_EQ(3000, lv.circuit_bytes);
	hn_stats_reset(s.e);
	ASSERT_EQ(0, hn_link_stats(s.e, 0, &ls));
	EXPECT_EQ(0, ls.ch[HN_UP].circuit_bytes);
	ASSERT_EQ(0, hn_level_stats(s.e, 0, &lv));
	EXPECT_EQ(0, lv.circuit_bytes);
	sim_fini(&s);
}

/*
 * Dynamic TDM on every direct network: circuits come and go for random
 * traffic, each placed where its links are free, and every message
 * arrives once and in order, the invariants holding throughout (the
 * sender waits while its NIC's buffer is full).
 */
TEST(dynamic_tdm_carries_traffic)
{
	static const char *const topo[] = { "mesh:4x4", "torus:4x4", "gh:2,4" };
	struct hn_config c;
	u64 seed = 7, steps;
	struct sim s;
	u32 i, j, u, v, len;
	int rc;

	for (i = 0; i < 3; i++) {
		config(_metadata, &c, topo[i], 4);
		c.policy = HN_POL_SES | HN_POL_NO_W | HN_POL_DYNAMIC;
		c.idle_timeout_ns = 1000;
		ASSERT_EQ(0, sim_init(&s, &c));
		for (j = 0; j < 400; j++) {
			seed = seed * 6364136223846793005ULL + 1;
			u = (seed >> 33) % 16;
			v = (u + 1 + (seed >> 40) % 15) % 16;
			len = 64 + (seed >> 50) % 512;
			while ((rc = sim_send(&s, u, v, len)) == -EAGAIN)
				hn_step(s.e);	/* the NIC's buffer is full */
			ASSERT_EQ(0, rc);
		}
		for (steps = 0; hn_busy(s.e) && steps < 1000000; steps++) {
			hn_step(s.e);
			if (!(steps % 64))
				ASSERT_EQ(0, hn_check(s.e, NULL))
					TH_LOG("%s", topo[i]);
		}
		EXPECT_FALSE(hn_busy(s.e)) TH_LOG("%s", topo[i]);
		EXPECT_EQ(400, s.nlog) TH_LOG("%s", topo[i]);
		EXPECT_EQ(0, s.order_errors) TH_LOG("%s", topo[i]);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

TEST_HARNESS_MAIN
