// SPDX-License-Identifier: GPL-2.0
/*
 * test_dynamic.c - Dynamic TDM (HN_POL_DYNAMIC, Secs. 5.3 and 5.5):
 * requests from non-empty VQ_PCKTs, the
 * scheduling array's rate (one slot per SL clock, Sec. 5.3.2) and grant delay
 * (Sec. 5.5.2), the time-out predictor (Sec. 5.2.2), circuit switching as TDM of
 * degree one (Secs. 5.2, 8.4.2) and slots pinned for a partial preload (Sec. 5.5.2).
 */
#include "harness.h"
#include "sim.h"

/* 100 ns slots of 80 B (Sec. 5.5.2); a grant is usable 240 ns on (Sec. 5.5.2). */
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

/*
 * A message with no circuit waits; the array's first tick (SL clock of
 * 240 ns here) grants it, usable 240 ns on.  The time-out releases the
 * circuit at the array's first visit of its slot once it is due.
 */
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
	/*
	 * The time-out predictor: unused since 300, due at 1300.  The SL
	 * counter alternates between slot 0 (active) and slot 1 (the lowest
	 * empty): ticks 0, 480, 960, 1440 visit slot 0, so the circuit goes
	 * at 1440, simulated at the first slot boundary after it (1500).
	 */
	hn_run_until(s.e, 1401);
	EXPECT_EQ(0, hn_pcs_slot(s.e, 0, 1));
	hn_run_until(s.e, 1501);
	EXPECT_EQ(HN_NONE, hn_pcs_slot(s.e, 0, 1));
	hn_stats_global(s.e, &g);
	EXPECT_EQ(1, g.grants);
	EXPECT_EQ(1, g.timeouts);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * The scheduling array completes one slot per SL clock (Sec. 5.3.2): K requests
 * of one input, which need K different slots, take K ticks.  Here the SL
 * clock is 1000 ns, ten slots: after each tick exactly one more circuit.
 */
TEST(array_one_slot_per_tick)
{
	struct hn_config c;
	struct sim s;
	u32 d, n, tick;

	dyn_config(&c, 8, 4, 1000000);
	c.sched_ns = 1000;
	ASSERT_EQ(0, sim_init(&s, &c));
	for (d = 1; d <= 4; d++)
		ASSERT_EQ(0, sim_send(&s, 0, d, 64));
	for (tick = 0; tick < 4; tick++) {
		hn_run_until(s.e, tick * 1000 + 1);
		for (d = 1, n = 0; d <= 4; d++)
			n += hn_pcs_slot(s.e, 0, d) != HN_NONE;
		EXPECT_EQ(tick + 1, n) {
			TH_LOG("after tick %u at %u ns", tick, tick * 1000);
		}
	}
	/* each in its own slot, the SL counter's order: 0, 1, 2, 3 */
	for (d = 1; d <= 4; d++)
		EXPECT_EQ(d - 1, hn_pcs_slot(s.e, 0, d));
	sim_drain(&s, 100000);
	EXPECT_EQ(4, s.nlog);
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * Ch. 5's timing (80 ns SL clock, 100 ns slots): the array grants 0->1 in
 * slot 0 at tick 0, 0->2 in slot 1 at tick 80, 0->3 in slot 2 at 160 and
 * 0->4 in slot 3 at 240, each usable 80 ns later.  No slot's first run
 * (0, 100, 200, 300) finds its circuit usable, so the four go in the
 * second cycle.  A scheduler that filled all four slots at once would have
 * sent 0->2 at [100, 200).
 */
TEST(array_rate_delays_data)
{
	struct hn_config c;
	struct sim s;
	u32 d;

	dyn_config(&c, 8, 4, 1000000);
	c.sched_ns = 80;
	ASSERT_EQ(0, sim_init(&s, &c));
	for (d = 1; d <= 4; d++)
		ASSERT_EQ(0, sim_send(&s, 0, d, 64));
	sim_drain(&s, 100000);
	ASSERT_EQ(4, s.nlog);
	for (d = 1; d <= 4; d++) {
		EXPECT_EQ(d - 1, sim_find(&s, 0, d, 0)->m.slot);
		EXPECT_EQ(380 + 100 * d, sim_find(&s, 0, d, 0)->m.t_deliver);
	}
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * The array sees a request wire_ns after the NIC raises it (Sec. 5.5.2): raised
 * at 30 with an 80 ns line, it is first seen by the tick at 160 (SL clock
 * 80 ns), and the grant is usable after 80 ns of array and 80 ns of grant
 * line: at 320.  Nothing runs before, so the slot starts there.
 */
TEST(array_sees_request_after_wire)
{
	struct hn_config c;
	struct sim s;

	dyn_config(&c, 4, 2, 1000000);
	c.sched_ns = 80;
	c.wire_ns = 80;
	ASSERT_EQ(0, sim_init(&s, &c));
	hn_run_until(s.e, 30);
	ASSERT_EQ(30, hn_now(s.e));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 64));
	hn_step(s.e);
	EXPECT_EQ(HN_NONE, hn_pcs_slot(s.e, 0, 1));	/* not seen at 80 */
	sim_drain(&s, 100000);
	ASSERT_EQ(1, s.nlog);
	/* slot 0 runs [160, 260) unusable, [260, 360) unusable (320), and
	 * [360, 460) carries it: 360 + 80 + 2 x 80 of wires */
	EXPECT_EQ(360 + 80 + 160, s.log[0]->m.t_deliver);
	ASSERT_EQ(0, hn_check(s.e, NULL));
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

/*
 * Dynamic TDM needs its eviction predictor: turned on live together with
 * it (netlink CONFIG_SET of policy, evict-algo and idle-timeout-ns in one
 * request), it goes in, though neither change alone would; a refusal
 * changes nothing, and turned off with the predictor, it goes out.
 */
TEST(live_change_as_a_whole)
{
	struct hn_config c, n;
	struct hn_err err = { 0 };
	struct sim s;

	sim_config_zero(&c, 4, 2);
	c.policy = HN_POL_SES;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EINVAL, hn_set_policy(s.e, HN_POL_SES | HN_POL_NO_W |
					 HN_POL_DYNAMIC, c.slot_p_ns,
					 c.slot_w_ns, &err));
	EXPECT_NE(NULL, strstr(err.msg, "eviction predictor"));
	n = *hn_cfg(s.e);
	n.policy = HN_POL_SES | HN_POL_NO_W | HN_POL_DYNAMIC;
	n.evict_algo = HN_EVICT_COUNTER;
	n.evict_count = 3;
	n.nodes = 99;			/* not live: not taken */
	ASSERT_EQ(0, hn_set_live(s.e, &n, &err));
	EXPECT_EQ(n.policy, hn_cfg(s.e)->policy);
	EXPECT_EQ(HN_EVICT_COUNTER, hn_cfg(s.e)->evict_algo);
	EXPECT_EQ(3, hn_cfg(s.e)->evict_count);
	EXPECT_EQ(4, hn_cfg(s.e)->nodes);
	/* messages wait for circuits: refused, nothing changed */
	ASSERT_EQ(0, sim_send(&s, 2, 3, 10));
	n.policy = HN_POL_SES;
	n.evict_count = 5;
	EXPECT_EQ(-EBUSY, hn_set_live(s.e, &n, &err));
	EXPECT_EQ(HN_POL_SES | HN_POL_NO_W | HN_POL_DYNAMIC,
		  hn_cfg(s.e)->policy);
	EXPECT_EQ(3, hn_cfg(s.e)->evict_count);
	sim_drain(&s, 1000000);
	ASSERT_EQ(1, s.nlog);
	n.evict_algo = HN_EVICT_TIMEOUT;
	EXPECT_EQ(0, hn_set_live(s.e, &n, &err));
	EXPECT_EQ(HN_POL_SES, hn_cfg(s.e)->policy);
	EXPECT_EQ(0, hn_check(s.e, NULL));
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

/*
 * Dynamic TDM with the counter predictor (Sec. 5.2.2) in place of the time-out:
 * circuits leave only while others are used, so after the traffic the
 * last circuits stay (a computation phase evicts nothing), and every
 * message arrives, in order, with the invariants kept.
 */
TEST(counter_predictor_dynamic)
{
	struct hn_config c;
	struct hn_err err = { 0 };
	struct hn_gstats g;
	u64 rng = 11, sent = 0;
	struct sim s;
	u32 i, n, conns = 0;

	dyn_config(&c, 16, 3, 0);
	c.evict_algo = HN_EVICT_COUNTER;
	c.evict_count = 20;
	c.nic_buf_bytes = 2048;
	c.max_msg_bytes = 512;
	ASSERT_EQ(0, sim_init(&s, &c));
	for (i = 0; i < 300; i++) {
		for (n = 0; n < 4; n++) {
			u32 a = hn_rand_below(&rng, 16);
			u32 b = (a + 1 + hn_rand_below(&rng, 15)) % 16;

			if (!sim_send(&s, a, b, 1 + hn_rand_below(&rng, 200)))
				sent++;
		}
		hn_step(s.e);
		ASSERT_EQ(0, hn_check(s.e, &err)) {
			TH_LOG("step %u: %s", i, err.msg);
		}
	}
	sim_drain(&s, 10000000);
	EXPECT_EQ(sent, s.nlog);
	EXPECT_EQ(0, s.order_errors);
	hn_stats_global(s.e, &g);
	EXPECT_GT(g.timeouts, 0);
	hn_run_until(s.e, hn_now(s.e) + 10000000);
	for (i = 0; i < 3; i++)
		conns += hn_slot_conns(s.e, i);
	EXPECT_GT(conns, 0);
	ASSERT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

TEST_HARNESS_MAIN
