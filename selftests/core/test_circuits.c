// SPDX-License-Identifier: GPL-2.0
/*
 * test_circuits.c - the three communication modes (Sec. 3.3): tagging by
 * the Predicted Circuit Switching Table, preload, predicted requests with
 * first fit, release (with data waiting), the eviction predictors (the
 * idle time-out and the counter) and the second-level working set.
 */
#include "harness.h"
#include "sim.h"

FIXTURE(eng) {
	struct sim s;
	struct hn_config c;
};

FIXTURE_SETUP(eng)
{
	sim_config_zero(&self->c, 8, 4);
	ASSERT_EQ(0, sim_init(&self->s, &self->c));
}

FIXTURE_TEARDOWN(eng)
{
	sim_fini(&self->s);
}

/* Sec. 3.4.1: table row 00000101 for PE_3 - PE_0 and PE_2 by circuit. */
TEST_F(eng, table_tags_messages)
{
	struct hn_pair a = { 3, 0 }, b = { 3, 2 };
	u64 row[1];
	u32 d;

	ASSERT_EQ(0, sim_preload1(&self->s, 0, &a, 1));
	ASSERT_EQ(0, sim_preload1(&self->s, 1, &b, 1));
	ASSERT_EQ(0, hn_pcs_row(self->s.e, 3, row, 1));
	EXPECT_EQ(0x5, row[0]);
	for (d = 0; d < 8; d++)
		ASSERT_EQ(0, sim_send(&self->s, 3, d, 16));
	sim_drain(&self->s, 1000000);
	ASSERT_EQ(8, self->s.nlog);
	for (d = 0; d < 8; d++) {
		struct tmsg *t = sim_find(&self->s, 3, d, 0);

		EXPECT_EQ(d == 0 || d == 2 ? HN_MODE_CIRCUIT : HN_MODE_WORMHOLE,
			  t->m.tag);
		EXPECT_EQ(t->m.tag, t->m.mode);
	}
}

TEST_F(eng, preload_is_all_or_nothing)
{
	struct hn_pair ok[2] = { { 0, 1 }, { 1, 0 } };
	struct hn_pair clash[2] = { { 2, 3 }, { 4, 3 } };
	struct hn_slot_cfg cfg[2] = {
		{ .slot = 0, .npairs = 2, .pairs = ok },
		{ .slot = 1, .npairs = 2, .pairs = clash },
	};
	struct hn_err err;

	u32 gen = hn_circuit_gen(self->s.e);

	EXPECT_EQ(-EINVAL, hn_preload(self->s.e, cfg, 2, &err));
	EXPECT_EQ(gen, hn_circuit_gen(self->s.e));	/* nothing changed */
	EXPECT_STREQ("two circuits to one output", err.msg);
	EXPECT_EQ(1, err.slot);
	EXPECT_EQ(2, err.a.src);
	EXPECT_EQ(3, err.a.dst);
	EXPECT_EQ(4, err.b.src);
	EXPECT_EQ(3, err.b.dst);
	/* slot 0 was valid but nothing was installed */
	EXPECT_EQ(0, hn_slot_conns(self->s.e, 0));
	EXPECT_EQ(0, hn_slot_conns(self->s.e, 1));
	clash[1].dst = 5;
	EXPECT_EQ(0, hn_preload(self->s.e, cfg, 2, &err));
	EXPECT_NE(gen, hn_circuit_gen(self->s.e));
	EXPECT_EQ(2, hn_slot_conns(self->s.e, 0));
	EXPECT_EQ(5, hn_circuit(self->s.e, 1, 4));
	EXPECT_EQ(1, hn_pcs_slot(self->s.e, 2, 3));
	/* a connection may live in one slot only (Table 5.1) */
	ok[0] = (struct hn_pair){ 2, 3 };
	EXPECT_EQ(-EEXIST, hn_preload(self->s.e, &cfg[0], 1, &err));
	EXPECT_EQ(2, err.node);
	EXPECT_EQ(0, err.slot);
	EXPECT_EQ(1, err.other);
	EXPECT_EQ(3, err.a.dst);
	/* replacing a slot with itself is fine; an empty config clears it */
	EXPECT_EQ(0, hn_preload(self->s.e, &cfg[1], 1, &err));
	cfg[1].npairs = 0;
	EXPECT_EQ(0, hn_preload(self->s.e, &cfg[1], 1, &err));
	EXPECT_EQ(0, hn_slot_conns(self->s.e, 1));
	EXPECT_EQ(0, hn_check(self->s.e, NULL));
}

/* A refused preload leaves no trace that could misjudge the next one. */
TEST_F(eng, refused_preload_leaves_no_state)
{
	struct hn_pair a = { 1, 2 }, b[2] = { { 3, 4 }, { 1, 2 } };
	struct hn_pair c = { 3, 5 };

	ASSERT_EQ(0, sim_preload1(&self->s, 0, &a, 1));
	EXPECT_EQ(-EEXIST, sim_preload1(&self->s, 1, b, 2));
	EXPECT_EQ(0, sim_preload1(&self->s, 1, &c, 1));
	EXPECT_EQ(5, hn_circuit(self->s.e, 1, 3));
	EXPECT_EQ(0, hn_check(self->s.e, NULL));
}

/* First fit (Sec. 3.4.2): 0 -> 1..6 with K = 4 fills slots 0..3, refuses two. */
TEST_F(eng, predict_first_fit)
{
	struct hn_pair req[7];
	struct hn_grant g[7];
	struct hn_gstats gs;
	u32 i;

	for (i = 0; i < 6; i++)
		req[i] = (struct hn_pair){ 0, i + 1 };
	req[6] = (struct hn_pair){ 0, 1 };	/* asked twice */
	ASSERT_EQ(0, hn_predict(self->s.e, req, 7, g, NULL));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(HN_GRANTED, g[i].result);
		EXPECT_EQ(i, g[i].slot);
	}
	EXPECT_EQ(HN_REFUSED, g[4].result);
	EXPECT_EQ(HN_NONE, g[4].slot);
	EXPECT_EQ(HN_REFUSED, g[5].result);
	EXPECT_EQ(HN_EXISTS, g[6].result);
	EXPECT_EQ(0, g[6].slot);
	/* another input fits beside them: 1 -> 2 goes to slot 0 */
	req[0] = (struct hn_pair){ 1, 2 };
	req[1] = (struct hn_pair){ 5, 2 };	/* output 2 busy in 0, 1 */
	ASSERT_EQ(0, hn_predict(self->s.e, req, 2, g, NULL));
	EXPECT_EQ(0, g[0].slot);
	EXPECT_EQ(2, g[1].slot);
	hn_stats_global(self->s.e, &gs);
	EXPECT_EQ(6, gs.grants);
	EXPECT_EQ(2, gs.refusals);
	EXPECT_EQ(1, gs.exists);
	EXPECT_EQ(0, hn_check(self->s.e, NULL));
}

/*
 * K-step placement (Ch. 6): one slot, requests 0:1, 0:2, 2:1.  First fit
 * takes 0:1 and blocks both others; greedy + an augmenting path of 3
 * edges finds the maximum, 0:2 and 2:1.  K = 1 is greedy alone.
 */
static u32 kstep_grants(u32 algo, u32 k, struct hn_grant *g)
{
	struct hn_pair req[3] = { { 0, 1 }, { 0, 2 }, { 2, 1 } };
	struct hn_config c;
	struct sim s;
	u32 i, n = 0;

	sim_config_zero(&c, 4, 1);
	c.predict_algo = algo;
	c.predict_kstep = k;
	if (sim_init(&s, &c) || hn_predict(s.e, req, 3, g, NULL) ||
	    hn_check(s.e, NULL))
		return 99;
	for (i = 0; i < 3; i++)
		n += g[i].result == HN_GRANTED;
	sim_fini(&s);
	return n;
}

TEST(predict_kstep_finds_more)
{
	struct hn_grant g[3];

	EXPECT_EQ(1, kstep_grants(HN_PREDICT_FIRST_FIT, 9, g));
	EXPECT_EQ(HN_GRANTED, g[0].result);
	EXPECT_EQ(1, kstep_grants(HN_PREDICT_KSTEP, 1, g));
	EXPECT_EQ(2, kstep_grants(HN_PREDICT_KSTEP, 3, g));
	EXPECT_EQ(HN_REFUSED, g[0].result);
	EXPECT_EQ(HN_GRANTED, g[1].result);
	EXPECT_EQ(HN_GRANTED, g[2].result);
	EXPECT_EQ(0, g[1].slot);
}

/* K-step never realises a connection twice (Table 5.1). */
TEST_F(eng, predict_kstep_exists)
{
	struct hn_pair p = { 0, 1 }, req[4] = { { 0, 1 }, { 2, 3 }, { 2, 3 },
						{ 4, 5 } };
	struct hn_grant g[4];

	self->c.predict_algo = HN_PREDICT_KSTEP;
	self->c.predict_kstep = 9;
	sim_fini(&self->s);
	ASSERT_EQ(0, sim_init(&self->s, &self->c));
	ASSERT_EQ(0, sim_preload1(&self->s, 0, &p, 1));
	ASSERT_EQ(0, hn_predict(self->s.e, req, 4, g, NULL));
	EXPECT_EQ(HN_EXISTS, g[0].result);
	EXPECT_EQ(0, g[0].slot);
	EXPECT_EQ(HN_GRANTED, g[1].result);
	EXPECT_EQ(HN_EXISTS, g[2].result);
	EXPECT_EQ(g[1].slot, g[2].slot);
	EXPECT_EQ(HN_GRANTED, g[3].result);
	EXPECT_EQ(0, hn_check(self->s.e, NULL));
	EXPECT_EQ(-EINVAL, hn_config_check(&(struct hn_config){
		.nodes = 4, .predict_algo = 2 }, NULL));
}

/* Rotating priority (Sec. 5.3.2): two inputs contend for one output. */
TEST_F(eng, predict_rotates_priority)
{
	struct hn_pair req[2] = { { 1, 7 }, { 2, 7 } };
	struct hn_grant g[2];
	u32 wins[2] = { 0, 0 }, i;

	self->c.k = 1;
	sim_fini(&self->s);
	ASSERT_EQ(0, sim_init(&self->s, &self->c));
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, hn_predict(self->s.e, req, 2, g, NULL));
		ASSERT_EQ(1, (g[0].result == HN_GRANTED) +
			     (g[1].result == HN_GRANTED));
		wins[g[1].result == HN_GRANTED]++;
		ASSERT_EQ(0, hn_release_all(self->s.e, NULL));
	}
	EXPECT_EQ(wins[0], wins[1]);
}

/*
 * The priority order itself (Sec. 5.3.2): rotated row-major, equal keys in
 * submission order.  300 nodes, so the keys take three bytes; one slot,
 * so of requests for one output only the first in that order is granted.
 */
TEST_F(eng, predict_priority_order)
{
	struct hn_pair r1[4] = { { 290, 7 }, { 220, 7 }, { 3, 7 }, { 3, 7 } };
	struct hn_pair r2[3] = { { 2, 9 }, { 299, 9 }, { 5, 9 } };
	struct hn_grant g[4];

	sim_fini(&self->s);
	sim_config_zero(&self->c, 300, 1);
	ASSERT_EQ(0, sim_init(&self->s, &self->c));
	ASSERT_EQ(0, hn_predict(self->s.e, r1, 4, g, NULL));
	EXPECT_EQ(HN_REFUSED, g[0].result);
	EXPECT_EQ(HN_REFUSED, g[1].result);
	EXPECT_EQ(HN_GRANTED, g[2].result);	/* submitted first */
	EXPECT_EQ(HN_EXISTS, g[3].result);
	/* the rows now start at 4: 5 first, 299 before 2 */
	ASSERT_EQ(0, hn_predict(self->s.e, r2, 3, g, NULL));
	EXPECT_EQ(HN_REFUSED, g[0].result);
	EXPECT_EQ(HN_REFUSED, g[1].result);
	EXPECT_EQ(HN_GRANTED, g[2].result);
	ASSERT_EQ(0, hn_release_all(self->s.e, NULL));
	/* from row 6: 299 before 2 */
	ASSERT_EQ(0, hn_predict(self->s.e, r2, 2, g, NULL));
	EXPECT_EQ(HN_REFUSED, g[0].result);
	EXPECT_EQ(HN_GRANTED, g[1].result);
}

/* Releasing a circuit with data waiting moves it to wormhole, in order. */
TEST_F(eng, release_keeps_order)
{
	struct hn_pair p = { 0, 1 };
	struct hn_gstats g;
	u32 i;

	ASSERT_EQ(0, sim_preload1(&self->s, 2, &p, 1));
	for (i = 0; i < 20; i++)
		ASSERT_EQ(0, sim_send(&self->s, 0, 1, 100));
	hn_step(self->s.e);
	EXPECT_EQ(-ENOENT, hn_release(self->s.e, 0, 2, NULL));
	ASSERT_EQ(0, hn_release(self->s.e, 0, 1, NULL));
	ASSERT_EQ(0, hn_check(self->s.e, NULL));
	for (i = 0; i < 5; i++)			/* now by wormhole */
		ASSERT_EQ(0, sim_send(&self->s, 0, 1, 100));
	ASSERT_EQ(0, sim_preload1(&self->s, 0, &p, 1));
	for (i = 0; i < 5; i++)			/* circuit again */
		ASSERT_EQ(0, sim_send(&self->s, 0, 1, 100));
	sim_drain(&self->s, 10000000);
	EXPECT_EQ(30, self->s.nlog);
	EXPECT_EQ(0, self->s.order_errors);
	hn_stats_global(self->s.e, &g);
	/* slot 2 (160 B) carried message 1 and 60 B of message 2 */
	EXPECT_EQ(19, g.retagged);
	EXPECT_EQ(25, g.tx_msgs[HN_MODE_CIRCUIT]);
	EXPECT_EQ(6, g.rx_msgs[HN_MODE_CIRCUIT]);
	EXPECT_EQ(24, g.rx_msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(0, hn_check(self->s.e, NULL));
}

/* The time-out predictor (Sec. 5.2.2) drops circuits unused for the time-out. */
TEST_F(eng, idle_timeout)
{
	struct hn_pair p[2] = { { 0, 1 }, { 2, 3 } };
	struct hn_gstats g;

	ASSERT_EQ(0, hn_set_timeout(self->s.e, 5000));
	ASSERT_EQ(0, sim_preload1(&self->s, 0, p, 2));
	hn_run_until(self->s.e, 3000);
	ASSERT_EQ(0, sim_send(&self->s, 0, 1, 64));	/* keeps 0 -> 1 */
	hn_run_until(self->s.e, 6000);
	EXPECT_EQ(1, hn_slot_conns(self->s.e, 0));
	EXPECT_EQ(1, hn_circuit(self->s.e, 0, 0));
	EXPECT_EQ(HN_NONE, hn_circuit(self->s.e, 0, 2));
	hn_run_until(self->s.e, 9000);
	EXPECT_EQ(0, hn_slot_conns(self->s.e, 0));
	hn_stats_global(self->s.e, &g);
	EXPECT_EQ(2, g.timeouts);
	EXPECT_EQ(0, hn_check(self->s.e, NULL));
}

/*
 * Buffers push back: wormhole data moves on into the switch's VQ_W while
 * it has room (Sec. 3.3.1), so a sender is refused only when its NIC buffer and
 * its switch input buffer are both full; a receiver that does not consume
 * stalls its senders, and nothing is lost.
 */
TEST(receiver_backpressure)
{
	struct hn_config c;
	struct sim s;
	u32 i;

	sim_config_zero(&c, 4, 1);
	c.rx_buf_bytes = c.max_msg_bytes = 256;
	c.nic_buf_bytes = c.sw_buf_bytes = 1024;
	ASSERT_EQ(0, sim_init(&s, &c));
	s.hold_rx = 1;
	/* four fill the NIC: they leave it over the uplink, 320 ns each */
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, sim_send(&s, 0, 1, 256));
	EXPECT_EQ(-EAGAIN, sim_send(&s, 0, 1, 1));
	EXPECT_EQ(0, hn_nic_room(s.e, 0));
	EXPECT_EQ(4 * hn_bytes_ns(&c, 256), hn_nic_room_at(s.e, 0, 1024));
	hn_run_until(s.e, hn_now(s.e) + 100000);
	EXPECT_EQ(1, s.nlog);		/* one receive buffer's worth */
	/* three wait in VQ_W: four more fill the NIC, one goes to VQ_W */
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, sim_send(&s, 0, 1, 256));
	EXPECT_EQ(-EAGAIN, sim_send(&s, 0, 1, 1));
	EXPECT_EQ(0, hn_nic_room(s.e, 0));
	for (i = 2; i <= 8; i++) {
		EXPECT_EQ(0, hn_check(s.e, NULL));
		hn_consume(s.e, 1, 256);
		hn_run_until(s.e, hn_now(s.e) + 100000);
		EXPECT_EQ(i, s.nlog);
		EXPECT_EQ(i < 8, hn_busy(s.e));
	}
	hn_consume(s.e, 1, 256);
	EXPECT_EQ(1024, hn_nic_room(s.e, 0));
	EXPECT_EQ(0, s.order_errors);
	sim_fini(&s);
}

/* Pure TDM (no wormhole slot): nothing may be left with nowhere to go. */
TEST(no_wormhole_slot)
{
	struct hn_pair p = { 0, 1 }, q = { 0, 2 };
	struct hn_slot_cfg c1 = { .slot = 1, .npairs = 1, .pairs = &q };
	struct hn_slot_cfg c0 = { .slot = 0, .npairs = 1, .pairs = &q };
	struct hn_config c;
	struct hn_err err;
	struct sim s;

	sim_config_zero(&c, 4, 2);
	c.policy = HN_POL_SES | HN_POL_NO_W;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	EXPECT_EQ(-EHOSTUNREACH, sim_send(&s, 0, 3, 10));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 10));
	EXPECT_EQ(-EBUSY, hn_release(s.e, 0, 1, &err));
	EXPECT_STREQ("circuit has data waiting and there is no wormhole slot",
		     err.msg);
	EXPECT_EQ(-EBUSY, hn_release_slot(s.e, 0, &err));
	EXPECT_EQ(-EBUSY, hn_release_all(s.e, &err));
	EXPECT_EQ(-EBUSY, hn_preload(s.e, &c0, 1, &err));
	EXPECT_EQ(0, hn_preload(s.e, &c1, 1, &err));	/* slot 1 is free */
	EXPECT_EQ(1, hn_circuit(s.e, 0, 0));
	sim_drain(&s, 100000);
	EXPECT_EQ(1, s.nlog);
	EXPECT_EQ(0, hn_release(s.e, 0, 1, &err));	/* nothing waits now */
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * The counter predictor (Sec. 5.2.2, Sec. 5.2.2): each circuit's counter "is
 * reset to zero every time that connection is used and is incremented
 * every time another connection is used.  When the counter reaches a
 * certain threshold, the connection is evicted", so it is "not evicted if
 * the application is in a computation phase, where no communication takes
 * place".  A use is a slot in which the circuit carries data (ding4: a
 * 200 ns slot carries 160 B).
 */
TEST_F(eng, counter_predictor)
{
	struct hn_pair p[2] = { { 0, 1 }, { 2, 3 } }, q = { 4, 5 };
	struct hn_engine *e = self->s.e;
	struct hn_gstats g;

	ASSERT_EQ(0, hn_set_evict(e, HN_EVICT_COUNTER, 3, NULL));
	ASSERT_EQ(0, sim_preload1(&self->s, 0, p, 2));
	ASSERT_EQ(0, sim_preload1(&self->s, 1, &q, 1));
	/* 2 -> 3 used: the others count 1 */
	ASSERT_EQ(0, sim_send(&self->s, 2, 3, 160));
	sim_drain(&self->s, 100000);
	/* 0 -> 1 used: its count back to 0; 2 -> 3 at 1, 4 -> 5 at 2 */
	ASSERT_EQ(0, sim_send(&self->s, 0, 1, 160));
	sim_drain(&self->s, 100000);
	EXPECT_EQ(5, hn_circuit(e, 1, 4));
	/* 2 -> 3 twice (two slots): 4 -> 5 reaches 4, 0 -> 1 only 2 */
	ASSERT_EQ(0, sim_send(&self->s, 2, 3, 320));
	sim_drain(&self->s, 100000);
	hn_run_until(e, hn_now(e) + 2000);
	EXPECT_EQ(HN_NONE, hn_circuit(e, 1, 4));
	EXPECT_EQ(1, hn_circuit(e, 0, 0));
	EXPECT_EQ(3, hn_circuit(e, 0, 2));
	/* a computation phase: however long, nothing is used, nothing goes */
	hn_run_until(e, hn_now(e) + 10000000);
	EXPECT_EQ(1, hn_circuit(e, 0, 0));
	EXPECT_EQ(3, hn_circuit(e, 0, 2));
	hn_stats_global(e, &g);
	EXPECT_EQ(1, g.timeouts);
	/* the time-out predictor would take them both in that time */
	ASSERT_EQ(0, hn_set_timeout(e, 5000));
	ASSERT_EQ(0, hn_set_evict(e, HN_EVICT_TIMEOUT, 3, NULL));
	hn_run_until(e, hn_now(e) + 400);
	EXPECT_EQ(0, hn_slot_conns(e, 0));
	hn_stats_global(e, &g);
	EXPECT_EQ(3, g.timeouts);
	EXPECT_EQ(0, hn_check(e, NULL));
}

/* The predictor's configuration is checked; a zero threshold is refused. */
TEST(evict_config)
{
	struct hn_config c;
	struct hn_err err = { 0 };

	sim_config_zero(&c, 8, 4);
	EXPECT_EQ(HN_EVICT_TIMEOUT, c.evict_algo);
	EXPECT_EQ(256, c.evict_count);
	c.evict_algo = 2;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "evict_algo"));
	c.evict_algo = HN_EVICT_COUNTER;
	c.evict_count = 0;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	/* Dynamic TDM takes either predictor */
	c.evict_count = 10;
	c.k = 2;
	c.policy = HN_POL_SES | HN_POL_NO_W | HN_POL_DYNAMIC;
	c.idle_timeout_ns = 0;
	EXPECT_EQ(0, hn_config_check(&c, &err));
	c.evict_algo = HN_EVICT_TIMEOUT;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
}

/*
 * The second-level working set (Sec. 5.2.3, Sec. 5.2.3): stored beside the
 * working set, unused, and "swapped in only when the conditional is true".
 * With predict_algo = second-level a predicted request that the working
 * set lacks and the second level has is that signal: the two levels of
 * every slot are exchanged, so a request for the old set swaps it back.
 * Data waiting for a circuit that leaves goes wormhole, in order.
 */
TEST_F(eng, second_level_working_set)
{
	struct hn_pair w[2] = { { 0, 1 }, { 2, 3 } }, w2a = { 0, 4 };
	struct hn_pair w2b[2] = { { 2, 5 }, { 1, 0 } }, bad[2] = {
		{ 3, 6 }, { 3, 7 } }, r;
	struct hn_slot_cfg c2[2] = {
		{ .slot = 0, .npairs = 1, .pairs = &w2a },
		{ .slot = 1, .npairs = 2, .pairs = w2b },
	}, cb = { .slot = 2, .npairs = 2, .pairs = bad };
	struct hn_engine *e = self->s.e;
	struct hn_err err = { 0 };
	struct hn_gstats g;
	struct hn_grant gr;

	ASSERT_EQ(0, hn_set_predict(e, HN_PREDICT_SECOND_LEVEL, 9, NULL));
	ASSERT_EQ(0, sim_preload1(&self->s, 0, w, 2));
	ASSERT_EQ(0, hn_preload_second(e, c2, 2, &err));
	/* stored, not used */
	EXPECT_EQ(4, hn_second(e, 0, 0));
	EXPECT_EQ(5, hn_second(e, 1, 2));
	EXPECT_EQ(HN_NONE, hn_pcs_slot(e, 0, 4));
	EXPECT_EQ(0, hn_pcs_slot(e, 2, 3));
	/* a message waits for 2 -> 3, which the swap will take away */
	ASSERT_EQ(0, sim_send(&self->s, 2, 3, 64));
	/* the conditional: a request for 0 -> 4 swaps the second level in */
	r = w2a;
	ASSERT_EQ(0, hn_predict(e, &r, 1, &gr, NULL));
	EXPECT_EQ(HN_EXISTS, gr.result);
	EXPECT_EQ(0, gr.slot);
	EXPECT_EQ(0, hn_pcs_slot(e, 0, 4));
	EXPECT_EQ(1, hn_pcs_slot(e, 2, 5));
	EXPECT_EQ(1, hn_pcs_slot(e, 1, 0));
	EXPECT_EQ(HN_NONE, hn_pcs_slot(e, 0, 1));
	EXPECT_EQ(HN_NONE, hn_pcs_slot(e, 2, 3));
	/* the old working set is now the second level */
	EXPECT_EQ(1, hn_second(e, 0, 0));
	EXPECT_EQ(3, hn_second(e, 0, 2));
	EXPECT_EQ(HN_NONE, hn_second(e, 1, 2));
	sim_drain(&self->s, 100000);
	ASSERT_EQ(1, self->s.nlog);
	EXPECT_EQ(HN_MODE_WORMHOLE, self->s.log[0]->m.mode);
	hn_stats_global(e, &g);
	EXPECT_EQ(1, g.swaps);
	EXPECT_EQ(1, g.retagged);
	/* the 'if' ends: a request of the old set swaps it back */
	r = w[1];
	ASSERT_EQ(0, hn_predict(e, &r, 1, &gr, NULL));
	EXPECT_EQ(HN_EXISTS, gr.result);
	EXPECT_EQ(0, hn_pcs_slot(e, 0, 1));
	EXPECT_EQ(0, hn_pcs_slot(e, 2, 3));
	EXPECT_EQ(4, hn_second(e, 0, 0));
	/* a request in neither level is placed first fit, no swap */
	r = (struct hn_pair){ 6, 7 };
	ASSERT_EQ(0, hn_predict(e, &r, 1, &gr, NULL));
	EXPECT_EQ(HN_GRANTED, gr.result);
	EXPECT_EQ(0, gr.slot);
	/* first fit alone does not swap: 0 -> 4 is placed in slot 1 */
	ASSERT_EQ(0, hn_set_predict(e, HN_PREDICT_FIRST_FIT, 9, NULL));
	r = w2a;
	ASSERT_EQ(0, hn_predict(e, &r, 1, &gr, NULL));
	EXPECT_EQ(HN_GRANTED, gr.result);
	EXPECT_EQ(1, gr.slot);
	hn_stats_global(e, &g);
	EXPECT_EQ(2, g.swaps);
	/* the second level is checked as a preload is */
	EXPECT_EQ(-EINVAL, hn_preload_second(e, &cb, 1, &err));
	EXPECT_NE(NULL, strstr(err.msg, "two circuits from one input"));
	cb.npairs = 1;
	cb.pairs = &w2a;	/* 0 -> 4 is in slot 0 of the second level */
	EXPECT_EQ(-EEXIST, hn_preload_second(e, &cb, 1, &err));
	EXPECT_EQ(0, hn_check(e, NULL));
}

/* Without a wormhole slot a swap that would strand data is refused. */
TEST(second_level_no_w)
{
	struct hn_pair a = { 0, 1 }, b = { 0, 2 };
	struct hn_slot_cfg c2 = { .slot = 0, .npairs = 1, .pairs = &b };
	struct hn_config c;
	struct hn_err err = { 0 };
	struct sim s;

	sim_config_zero(&c, 4, 2);
	c.policy = HN_POL_SES | HN_POL_NO_W;
	c.pin_slots = 1;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EINVAL, hn_preload_second(s.e, &c2, 1, &err));
	EXPECT_NE(NULL, strstr(err.msg, "pinned"));
	c2.slot = 1;
	ASSERT_EQ(0, hn_preload_second(s.e, &c2, 1, &err));
	ASSERT_EQ(0, sim_preload1(&s, 1, &a, 1));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 64));
	EXPECT_EQ(-EBUSY, hn_swap_second(s.e, &err));
	EXPECT_EQ(1, hn_pcs_slot(s.e, 0, 1));
	sim_drain(&s, 100000);
	ASSERT_EQ(0, hn_swap_second(s.e, &err));
	EXPECT_EQ(1, hn_pcs_slot(s.e, 0, 2));
	EXPECT_EQ(1, hn_second(s.e, 1, 0));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

TEST_HARNESS_MAIN
