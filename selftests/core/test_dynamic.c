// SPDX-License-Identifier: GPL-2.0
/*
 * test_dynamic.c - Dynamic TDM (HN_POL_DYNAMIC, Sec. 5.3 and 5.5 of
 * seeds/000_fa1c7d81da297c92.txt): requests from non-empty VQ_PCKTs, the
 * grant delay of L1036, the time-out predictor (L937), circuit switching as
 * TDM of degree one (L913, L1776) and slots pinned for a partial preload
 * (L1065).
 */
#include "kselftest_harness.h"
#include "sim.h"

/* 100 ns slots of 80 B (L1042); a grant is usable 240 ns on (L1036). */
static void dyn_config(struct hn_config *c, u32 nodes, u32 k, u64 timeout)
{
	sim_config_zero(c, nodes, k);
	c->slot_p_ns = 100;
	c->slot_w_ns = 100;
	c->sched_ns = 240;
	c->policy = HN_POL_SES | HN_POL_NO_W | HN_POL_DYNAMIC;
	c->idle_timeout_ns = timeout;
}

TEST(config_rules)
{
	struct hn_config c;
	struct hn_err err = { 0 };

	dyn_config(&c, 4, 2, 1000);
	EXPECT_EQ(0, hn_config_check(&c, &err));
	c.policy = HN_POL_SES | HN_POL_DYNAMIC;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "no-w"));
	dyn_config(&c, 4, 2, 0);
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "time-out"));
	dyn_config(&c, 4, 2, 1000);
	c.pin_slots = 2;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	c.pin_slots = 3;
	c.policy = 0;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "pin_slots"));
}

/* A message with no circuit waits; its request is granted at once. */
TEST(request_grant_delay)
{
	struct hn_config c;
	struct hn_gstats g;
	struct tmsg *t;
	struct sim s;

	dyn_config(&c, 4, 2, 1000);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 64));
	ASSERT_TRUE(hn_busy(s.e));
	ASSERT_EQ(0, hn_check(s.e, NULL));
	ASSERT_EQ(HN_NONE, hn_pcs_slot(s.e, 0, 1));
	hn_step(s.e);
	EXPECT_EQ(0, hn_pcs_slot(s.e, 0, 1));
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_drain(&s, 100000);
	ASSERT_EQ(1, s.nlog);
	t = s.log[0];
	/* granted at 0, usable at 240: the slot of [300, 400) carries it */
	EXPECT_EQ(380, t->m.t_deliver);
	EXPECT_EQ(HN_MODE_CIRCUIT, t->m.mode);
	EXPECT_EQ(HN_MODE_CIRCUIT, t->m.tag);
	/* the time-out predictor: unused for 1000 ns, it goes */
	hn_run_until(s.e, 1300);
	EXPECT_EQ(0, hn_pcs_slot(s.e, 0, 1));
	hn_run_until(s.e, 1401);
	EXPECT_EQ(HN_NONE, hn_pcs_slot(s.e, 0, 1));
	hn_stats_global(s.e, &g);
	EXPECT_EQ(1, g.grants);
	EXPECT_EQ(1, g.timeouts);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/* K = 1, time-out 1 ns: a circuit per message, held while data waits. */
TEST(circuit_switching)
{
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	struct tmsg *a, *b;

	dyn_config(&c, 4, 1, 1);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 64));
	ASSERT_EQ(0, sim_send(&s, 0, 2, 64));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 64));
	sim_drain(&s, 100000);
	ASSERT_EQ(3, s.nlog);
	EXPECT_EQ(0, s.order_errors);
	a = sim_find(&s, 0, 1, 1);
	b = sim_find(&s, 0, 2, 0);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	/* 0->1 holds its circuit for both messages: 380, then 460 */
	EXPECT_EQ(380, sim_find(&s, 0, 1, 0)->m.t_deliver);
	EXPECT_EQ(460, a->m.t_deliver);
	/* released at 500, 0->2 granted then: usable 740, sent [800, 900) */
	EXPECT_EQ(880, b->m.t_deliver);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(2, g.grants);
	EXPECT_LE(1, g.refusals);
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/* Partial preload: slot 0 pinned for the preload, slot 1 dynamic. */
TEST(pinned_slots)
{
	struct hn_pair p = { 0, 1 };
	struct hn_config c;
	struct hn_grant gr;
	struct sim s;

	dyn_config(&c, 4, 2, 200);
	c.pin_slots = 1;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 64));
	ASSERT_EQ(0, sim_send(&s, 0, 2, 64));
	sim_drain(&s, 100000);
	ASSERT_EQ(2, s.nlog);
	EXPECT_EQ(1, sim_find(&s, 0, 2, 0)->m.slot);
	EXPECT_EQ(0, sim_find(&s, 0, 1, 0)->m.slot);
	hn_run_until(s.e, 100000);
	/* the preloaded circuit outlives the time-out, the dynamic one not */
	EXPECT_EQ(0, hn_pcs_slot(s.e, 0, 1));
	EXPECT_EQ(HN_NONE, hn_pcs_slot(s.e, 0, 2));
	/* Mode-2 requests skip the pinned slot too */
	p.dst = 3;
	ASSERT_EQ(0, hn_predict(s.e, &p, 1, &gr, NULL));
	EXPECT_EQ(HN_GRANTED, gr.result);
	EXPECT_EQ(1, gr.slot);
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/* A preload that creates a waiting stream's circuit takes its messages. */
TEST(preload_serves_waiting)
{
	struct hn_pair p = { 2, 3 };
	struct hn_config c;
	struct hn_err err;
	struct sim s;

	dyn_config(&c, 4, 2, 1000);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 2, 3, 10));
	ASSERT_EQ(0, sim_send(&s, 2, 3, 10));
	EXPECT_EQ(-EBUSY, hn_set_policy(s.e, HN_POL_SES | HN_POL_NO_W, 100,
					100, &err));
	EXPECT_NE(NULL, strstr(err.msg, "Dynamic"));
	ASSERT_EQ(0, sim_preload1(&s, 1, &p, 1));
	ASSERT_EQ(0, hn_check(s.e, NULL));
	hn_step(s.e);
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_drain(&s, 100000);
	ASSERT_EQ(2, s.nlog);
	EXPECT_EQ(1, s.log[0]->m.slot);
	EXPECT_EQ(0, s.order_errors);
	sim_fini(&s);
}

/* Random traffic: invariants after every step, all delivered, in order. */
TEST(random_dynamic)
{
	struct hn_config c;
	struct hn_err err = { 0 };
	u64 rng = 7, sent = 0;
	struct sim s;
	u32 i, n, k;

	for (k = 1; k <= 4; k++) {
		dyn_config(&c, 16, k, 150 * k);
		c.nic_buf_bytes = 2048;
		c.max_msg_bytes = 512;
		ASSERT_EQ(0, sim_init(&s, &c));
		sent = 0;
		for (i = 0; i < 400; i++) {
			for (n = 0; n < 6; n++) {
				u32 a = hn_rand_below(&rng, 16);
				u32 b = (a + 1 + hn_rand_below(&rng, 15)) % 16;

				if (!sim_send(&s, a, b, 1 + hn_rand_below(&rng, 300)))
					sent++;
			}
			hn_step(s.e);
			ASSERT_EQ(0, hn_check(s.e, &err)) {
				TH_LOG("k %u step %u: %s", k, i, err.msg);
			}
		}
		sim_drain(&s, 10000000);
		EXPECT_EQ(sent, s.nlog);
		EXPECT_EQ(0, s.order_errors);
		EXPECT_FALSE(hn_busy(s.e));
		ASSERT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

TEST_HARNESS_MAIN
