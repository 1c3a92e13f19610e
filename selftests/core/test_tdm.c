// SPDX-License-Identifier: GPL-2.0
/*
 * test_tdm.c - the TDM cycle controller against the worked examples of
 * Chapter 4: Fig. 4.3 (Sec. 4.2.1),
 * SES Fig. 4.5 (Sec. 4.3), SLA Fig. 4.7 (Sec. 4.4), PREEMPT (Sec. 4.5).
 */
#include "harness.h"
#include "sim.h"

static void unit_config(struct hn_config *c, u32 nodes, u32 k)
{
	sim_config_zero(c, nodes, k);
	sim_config_units(c);
}

#define CHUNK	SIM_CHUNK
#define PACKET	SIM_PACKET

/* Fig. 4.3: PE_0's circuits in B^(0..3), wormhole to PE_6..9. */
TEST(fig4_3_slot_sequence)
{
	static const u32 pcs[4] = { 1, 3, 4, 12 };
	struct hn_config c;
	struct sim s;
	u32 i, cyc;

	unit_config(&c, 16, 4);
	c.policy = 0;			/* the plain counter of Fig. 4.4 */
	ASSERT_EQ(0, sim_init(&s, &c));
	for (i = 0; i < 4; i++) {
		struct hn_pair p = { 0, pcs[i] };

		ASSERT_EQ(0, sim_preload1(&s, i, &p, 1));
	}
	for (cyc = 0; cyc < 2; cyc++)
		for (i = 0; i < 4; i++)
			ASSERT_EQ(0, sim_send(&s, 0, pcs[i], CHUNK));
	for (i = 6; i <= 9; i++)
		ASSERT_EQ(0, sim_send(&s, 0, i, PACKET));
	sim_drain(&s, 100000);
	ASSERT_EQ(12, s.nlog);
	ASSERT_EQ(0, s.order_errors);
	/* each cycle: slots 0-3 of 200 ns, then S_W of 200 ns */
	for (cyc = 0; cyc < 2; cyc++) {
		for (i = 0; i < 4; i++) {
			struct tmsg *t = sim_find(&s, 0, pcs[i], cyc);

			ASSERT_NE(NULL, t);
			EXPECT_EQ(HN_MODE_CIRCUIT, t->m.mode);
			EXPECT_EQ(i, t->m.slot);
			EXPECT_EQ(cyc * 1000 + (i + 1) * 200, t->m.t_deliver);
		}
	}
	/* round robin: 6 and 7 in cycle 1's S_W, 8 and 9 in cycle 2's */
	for (i = 6; i <= 9; i++) {
		struct tmsg *t = sim_find(&s, 0, i, 0);

		ASSERT_NE(NULL, t);
		EXPECT_EQ(HN_MODE_WORMHOLE, t->m.mode);
		EXPECT_EQ(4, t->m.slot);
		EXPECT_EQ((i - 6) / 2 * 1000 + 900 + (i - 6) % 2 * 100,
			  t->m.t_deliver);
	}
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/* Fig. 4.5: B^(0), B^(1) full, B^(2), B^(3) empty; S_W left out. */
static u64 ses_run(u32 policy, u64 until, struct hn_gstats *g)
{
	struct hn_pair p0[8], p1[8];
	struct hn_config c;
	struct sim s;
	u32 u, i;
	u64 t;

	unit_config(&c, 8, 4);
	c.policy = policy | HN_POL_NO_W;
	if (sim_init(&s, &c))
		return 0;
	for (u = 0; u < 8; u++) {
		p0[u] = (struct hn_pair){ u, (u + 1) % 8 };
		p1[u] = (struct hn_pair){ u, (u + 2) % 8 };
	}
	sim_preload1(&s, 0, p0, 8);
	sim_preload1(&s, 1, p1, 8);
	for (i = 0; i < 10; i++)
		for (u = 0; u < 8; u++) {
			sim_send(&s, u, (u + 1) % 8, CHUNK);
			sim_send(&s, u, (u + 2) % 8, CHUNK);
		}
	sim_drain(&s, 1000000);
	t = s.nlog == 160 && !s.order_errors ? sim_last_delivery(&s) : 0;
	hn_run_until(s.e, until);	/* finish the last cycle */
	hn_stats_global(s.e, g);
	sim_fini(&s);
	return t;
}

/* Fraction of the fabric's slot capacity that carried data, in ppm. */
static u64 slot_util(const struct hn_gstats *g)
{
	u64 b = 0, cap = 0;
	u32 i;

	for (i = 0; i < g->nslots; i++) {
		b += g->slot[i].bytes;
		cap += g->slot[i].cap_bytes;
	}
	return cap ? b * 1000000 / cap : 0;
}

TEST(ses_skips_empty_slots)
{
	struct hn_gstats g;

	/* SES: 0, 1, 0, 1, ... - 20 slots of 200 ns, nothing wasted */
	ASSERT_EQ(4000, ses_run(HN_POL_SES, 4000, &g));
	EXPECT_EQ(1000000, g.util_ppm);
	EXPECT_EQ(1000000, slot_util(&g));
	EXPECT_EQ(10, g.slot[0].runs);
	EXPECT_EQ(10, g.slot[1].runs);
	EXPECT_EQ(0, g.slot[2].runs);
	EXPECT_EQ(9, g.slot[2].skipped);	/* between the 10 pairs */
	EXPECT_EQ(0, g.slot[3].runs);
	/*
	 * Without SES every cycle is 0, 1, 2, 3: the data needs 9 whole
	 * cycles and two slots of a tenth; over the 10 cycles, half the
	 * slot time is wasted (Sec. 4.3).
	 */
	ASSERT_EQ((9 * 4 + 2) * 200, ses_run(0, 8000, &g));
	EXPECT_EQ(500000, slot_util(&g));
	EXPECT_EQ(10, g.slot[2].runs);
	EXPECT_EQ(0, g.slot[2].bytes);
	EXPECT_EQ(0, g.slot[2].skipped);
}

/* Fig. 4.7: 4 chunks in 2 predictive slots, 6 packets by wormhole. */
static u64 fig4_7(u32 policy, u32 slot_w)
{
	static const u32 d[3] = { 1, 2, 3 };
	struct hn_config c;

	unit_config(&c, 4, 2);
	c.policy = policy;
	c.slot_w_ns = slot_w;
	return sim_fig4_7(&c, d);
}

TEST(sla_fig4_7)
{
	/* equal slots: 3 cycles of 3 units = 9 units of 200 ns */
	EXPECT_EQ(9 * 200, fig4_7(HN_POL_SES, 200));
	EXPECT_EQ(9 * 200, fig4_7(HN_POL_SES | HN_POL_SLA, 200));
	/* NUM_W = 1.5 NUM_P: 2 cycles of 3.5 units = 7 units */
	EXPECT_EQ(7 * 200, fig4_7(HN_POL_SES | HN_POL_SLA, 300));
	/* without SLA the wormhole length is ignored */
	EXPECT_EQ(9 * 200, fig4_7(HN_POL_SES, 300));
}

TEST(preempt_fig4_7)
{
	/* equal slots, no ratio given: 3 + 3 + 1 = 7 units (Sec. 4.5) */
	EXPECT_EQ(7 * 200, fig4_7(HN_POL_PREEMPT, 200));
	EXPECT_EQ(7 * 200, fig4_7(HN_POL_PREEMPT | HN_POL_PREEMPT_SLOT, 200));
}

/* PREEMPT counts the configured slots it passes over. */
TEST(preempt_counts)
{
	struct hn_pair a = { 0, 1 };
	struct hn_gstats g;
	struct hn_config c;
	struct sim s;

	unit_config(&c, 4, 2);
	c.policy = HN_POL_PREEMPT;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &a, 1));
	ASSERT_EQ(0, sim_send(&s, 0, 3, PACKET));
	sim_drain(&s, 100000);
	hn_stats_global(s.e, &g);
	/* slot 0 preempted (no circuit data), slot 1 empty, S_W runs */
	EXPECT_EQ(1, g.slot[0].preempted);
	EXPECT_EQ(0, g.slot[0].runs);
	EXPECT_EQ(1, g.slot[1].skipped);
	EXPECT_EQ(1, g.slot[2].runs);
	EXPECT_EQ(100, sim_last_delivery(&s));
	sim_fini(&s);
}

/* A worm longer than the wormhole slot is suspended and resumed. */
TEST(worm_suspends_across_slots)
{
	struct hn_pair a = { 1, 2 };
	struct hn_config c;
	struct sim s;
	struct tmsg *t;

	unit_config(&c, 4, 1);
	c.policy = 0;
	c.worm_bytes = 160;		/* 10 + 19 x 10 = 200 ns per worm */
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &a, 1));
	/* slot 0 [0,200) carries nothing for node 0; S_W [200,400) */
	hn_step(s.e);
	ASSERT_EQ(200, hn_now(s.e));
	ASSERT_EQ(0, sim_send(&s, 0, 3, 8));	/* 10 ns */
	ASSERT_EQ(0, sim_send(&s, 0, 3, 160));	/* 200 ns: 190 + 10 */
	sim_drain(&s, 100000);
	ASSERT_EQ(2, s.nlog);
	t = sim_find(&s, 0, 3, 1);
	/* starts at 210, runs 190 ns to 400, resumes at 600 for 10 ns */
	EXPECT_EQ(610, t->m.t_deliver);
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

TEST_HARNESS_MAIN
