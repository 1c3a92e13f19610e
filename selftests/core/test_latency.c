// SPDX-License-Identifier: GPL-2.0
/*
 * test_latency.c - zero-load latency against the closed forms.
 *
 * Ding Eq. 3.3 (wormhole, Sec. 3.1): T = 2 T_w + k (T_sch + T_setup) + T_packet
 * with T_w = nic_ns + wire_ns (NIC to switch), T_sch + T_setup = the first
 * flit's arbitration = wh_first_ns - wh_flit_ns, T_packet = flits x flit.
 * Duato Eq. 2.1 (circuit, Sec. 4.2.1 of 001_b2460e8b3f6ab09f.txt):
 * t = t_setup + t_data, t_data = L / B; with a predicted circuit t_setup is
 * request + scheduling + grant = wire + sched + wire + setup (Ch. 5 Sec. 5.5.2:
 * 80 + 80 + 80 ns), paid ahead of the data when the prediction is early.
 */
#include "harness.h"
#include "sim.h"

static struct tmsg *one(struct sim *s, u32 src, u32 dst, u32 len)
{
	if (sim_send(s, src, dst, len))
		return NULL;
	sim_drain(s, 1000000);
	return s->nlog ? s->log[s->nlog - 1] : NULL;
}

/* ding5: 6.4 Gb/s, wire 80, NIC 10, first flit 80, flits 10 ns / 8 B. */
TEST(wormhole_eq_3_3)
{
	struct hn_config c;
	struct tmsg *t;
	struct sim s;
	u32 k, len, ov;

	ASSERT_EQ(0, hn_config_profile(&c, "ding5"));
	/* the worms of one message are arbitrated one after the other */
	for (ov = 0; ov <= 1; ov++)
	for (len = 8; len <= 1024; len *= 2) {
		c.wh_overlap = ov;
		ASSERT_EQ(0, sim_init(&s, &c));
		t = one(&s, 3, 7, len);
		ASSERT_NE(NULL, t);
		EXPECT_EQ(HN_MODE_WORMHOLE, t->m.mode);
		k = (len + c.worm_bytes - 1) / c.worm_bytes;
		EXPECT_EQ(2 * (c.nic_ns + c.wire_ns) +
			  k * (c.wh_first_ns - c.wh_flit_ns) +
			  len / c.flit_bytes * c.wh_flit_ns,
			  t->m.t_deliver - t->m.t_inject);
		sim_fini(&s);
	}
	/* and the numbers: 128 B = 180 + 70 + 160; 256 B = 180 + 140 + 320 */
	c.wh_overlap = 0;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(410, one(&s, 0, 1, 128)->m.t_deliver);
	sim_fini(&s);
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(640, one(&s, 0, 1, 256)->m.t_deliver);
	sim_fini(&s);
}

/*
 * Serial arbitration (wh_overlap = 0, Duato's router: a message waiting
 * for a link "will be routed again after the link is freed"): the worm
 * to 2 waits for the worm to 1, then is arbitrated, 180 ns each (ding4:
 * 30 ns first flit + 15 x 10).  Overlapped (1): its head has waited at
 * the switch, so it was arbitrated meanwhile and follows after 160 ns of
 * flits.  Either way each message alone meets Eq. 3.3 (220 ns, and 1 ns
 * through ding4's LVDS fabric).
 */
TEST(wormhole_arbitration_overlap)
{
	struct hn_config c;
	struct sim s;
	u32 ov;

	for (ov = 0; ov <= 1; ov++) {
		ASSERT_EQ(0, hn_config_profile(&c, "ding4"));
		c.k = 0;
		c.wh_overlap = ov;
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, sim_send(&s, 0, 1, 128));
		ASSERT_EQ(0, sim_send(&s, 0, 2, 128));
		sim_drain(&s, 100000);
		ASSERT_EQ(2, s.nlog);
		/* + 1 ns through the fabric */
		EXPECT_EQ(221, sim_find(&s, 0, 1, 0)->m.t_deliver);
		EXPECT_EQ(ov ? 381 : 401, sim_find(&s, 0, 2, 0)->m.t_deliver);
		sim_fini(&s);
	}
}

/* A preloaded circuit: data at once, t = L/B + 2 T_w + fabric. */
TEST(preloaded_circuit)
{
	struct hn_pair p = { 2, 5 };
	struct hn_config c;
	struct tmsg *t;
	struct sim s;

	ASSERT_EQ(0, hn_config_profile(&c, "ding4"));
	c.guard_ns = 10;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	t = one(&s, 2, 5, 128);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(HN_MODE_CIRCUIT, t->m.mode);
	/* guard 10 + 128 B at 6.4 Gb/s 160 + 2 x (10 + 10) + fabric 1 */
	EXPECT_EQ(10 + 160 + 40 + 1, t->m.t_deliver - t->m.t_inject);
	EXPECT_EQ(c.guard_ns + hn_bytes_ns(&c, 128) +
		  2 * (c.nic_ns + c.wire_ns) + c.fabric_ns,
		  t->m.t_deliver - t->m.t_inject);
	sim_fini(&s);
}

/*
 * A predicted circuit (ding5): granted at 0, usable from 240 ns; slot 0
 * runs at 0, 100, 200, 300 (SES skips the empty slots): the data leaves at
 * 300 and takes 80 (64 B) + 10 + 30 + 20 + 20 + 30 + 10 = 200 ns: the NIC's
 * send and receive cycles (Sec. 5.5.2) around Ch. 5's point-to-point delay of a
 * circuit, "30+20+20+30 ns" (Sec. 5.5.2), serialised once at each end.
 */
TEST(predicted_circuit)
{
	struct hn_pair p = { 1, 4 };
	struct hn_grant g;
	struct hn_config c;
	struct tmsg *t;
	struct sim s;

	ASSERT_EQ(0, hn_config_profile(&c, "ding5"));
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, hn_predict(s.e, &p, 1, &g, NULL));
	EXPECT_EQ(HN_GRANTED, g.result);
	EXPECT_EQ(0, g.slot);
	t = one(&s, 1, 4, 64);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(HN_MODE_CIRCUIT, t->m.mode);
	EXPECT_EQ(300 + 80 + 120, t->m.t_deliver);
	/* later messages find the circuit set up: t_data + the path only */
	ASSERT_EQ(400, hn_now(s.e));
	t = one(&s, 1, 4, 64);
	EXPECT_EQ(400 + 80 + 120, t->m.t_deliver);
	sim_fini(&s);
}

/* Ch. 5 (Sec. 5.5.2): 80 B per 100 ns slot; longer messages wait. */
TEST(message_spans_slots)
{
	struct hn_pair p = { 0, 1 }, q = { 2, 3 };
	struct hn_config c;
	struct tmsg *t;
	struct sim s;

	sim_config_zero(&c, 4, 2);
	c.slot_p_ns = c.slot_w_ns = 100;
	c.policy = 0;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	ASSERT_EQ(0, sim_preload1(&s, 1, &q, 1));
	/* 64 B fits one slot (80 ns) */
	t = one(&s, 0, 1, 64);
	EXPECT_EQ(80, t->m.t_deliver);
	ASSERT_EQ(100, hn_now(s.e));
	/* 200 B at 100: slot 0 at 300, 600 and 900 carry 80 + 80 + 40 */
	t = one(&s, 0, 1, 200);
	EXPECT_EQ(900 + 50, t->m.t_deliver);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

TEST_HARNESS_MAIN
