// SPDX-License-Identifier: GPL-2.0
/*
 * test_time.c - time inside a slot (issue 10, modelling errors 1 and 2).
 *
 * - A PE acts at the virtual time something happens to it: a message
 *   made, or room found in its NIC, in the middle of a slot takes part in
 *   that slot (the wormhole slot, or its circuit's slot).
 * - Without predictive slots (K = 0) the slot length is therefore no
 *   parameter of the network: utilisation and mean latency are the same
 *   for slot lengths from 20 ns to 12 us, with small (128 B) and large
 *   (2 KB) NIC buffers, at low and at high load; and at low load the mean
 *   latency is the zero-load latency of Eq. 3.3.
 * - The outcome depends only on what is injected when, not on how the
 *   caller drives the clock (hn_run_until() to every injection, random
 *   extra stops, hn_step_until(), stops asked for by ops->room, calls
 *   cut short by a bound on their work, hn_set_work()), on a crossbar
 *   and on a fat tree.
 */
#include "harness.h"
#include "sim.h"
#include "hn_traffic.h"

/*
 * Tolerances.  The model makes the K = 0 results exactly equal (a worm
 * crossing a slot's end resumes at the same instant, and ties are broken
 * by time alone); the tolerance only keeps the test about the claim.
 */
#define SAME_PPM	10000		/* 1 % between slot lengths */
#define EQ33_PPM	20000		/* 2 % above Eq. 3.3 at load 0.01 */

static const u32 slot_lens[] = { 20, 100, 200, 1000, 4000, 12000 };

struct k0 {
	u32 util_ppm;
	u64 lat_mean;
	u32 end;
};

/*
 * A K = 0 run of ding4 (64 nodes, 128 B messages, 6.4 Gb/s): Bernoulli
 * uniform traffic at @load_ppm, or (load 0) a batch of 256 messages per
 * node made at 32 Gb/s (Ch. 4's PE, Sec. 4.6), which saturates the network.
 * Every slot lasts @slot_ns (SLA: NUM_P = NUM_W).
 */
static int k0_run(const char *profile, u32 load_ppm, u32 buf, u32 slot_ns,
		  struct k0 *out)
{
	struct hn_trun_cfg rc;
	const struct hn_tres *res;
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_trun *r;
	int rv;

	hn_config_profile(&c, profile);
	c.k = 0;
	c.policy = HN_POL_SES | HN_POL_SLA;
	c.slot_p_ns = slot_ns;
	c.slot_w_ns = slot_ns;
	c.max_msg_bytes = 128;
	c.nic_buf_bytes = buf;
	c.sw_buf_bytes = buf;
	hn_tcfg_default(&t, c.nodes);
	t.pattern = HN_PAT_UNIFORM;
	t.size = 128;
	if (load_ppm) {
		t.load_ppm = load_ppm;
	} else {
		t.inject = HN_INJ_BATCH;
		t.batch = 256;
		t.gen_mbps = 32000;
	}
	hn_trun_cfg_default(&rc);
	rc.measure_ns = 50000;
	r = hn_trun_create(&c, &t, &rc, &rv, NULL);
	if (!r)
		return rv;
	rv = hn_trun_run(r, 0);
	res = hn_trun_result(r);
	out->util_ppm = res->util_ppm;
	out->lat_mean = res->lat_n ? res->lat_sum / res->lat_n : 0;
	out->end = res->end;
	if (!rv)
		rv = hn_check(hn_trun_engine(r), NULL);
	hn_trun_destroy(r);
	return rv;
}

static bool within(u64 a, u64 ref, u32 ppm)
{
	u64 d = a > ref ? a - ref : ref - a;

	return d * 1000000 <= (u64)ppm * ref;
}

/*
 * Modelling error 1 and 2: with K = 0 the slot length must not matter.
 * Before the fix, SLA's 12 us wormhole slot took a pure wormhole network
 * from 49 % to 2.7 % utilisation with 128 B buffers (a PE refilled its
 * NIC only between slots), and the mean latency at low load grew with the
 * slot (messages entered only at slot boundaries).
 */
TEST(k0_slot_length_does_not_matter)
{
	static const u32 loads[] = { 50000, 400000, 0 };	/* 0: batch */
	static const u32 bufs[] = { 128, 2048 };
	struct k0 ref, got;
	u32 b, l, i;

	for (b = 0; b < ARRAY_SIZE(bufs); b++) {
		for (l = 0; l < ARRAY_SIZE(loads); l++) {
			ASSERT_EQ(0, k0_run("ding4", loads[l], bufs[b], 200,
					    &ref));
			EXPECT_EQ(HN_END_DONE, ref.end);
			for (i = 0; i < ARRAY_SIZE(slot_lens); i++) {
				ASSERT_EQ(0, k0_run("ding4", loads[l], bufs[b],
						    slot_lens[i], &got));
				EXPECT_EQ(HN_END_DONE, got.end);
				EXPECT_TRUE(within(got.util_ppm, ref.util_ppm,
						   SAME_PPM)) {
					TH_LOG("buf %u load %u slot %u: util %u against %u at 200 ns",
					       bufs[b], loads[l], slot_lens[i],
					       got.util_ppm, ref.util_ppm);
				}
				EXPECT_TRUE(within(got.lat_mean, ref.lat_mean,
						   SAME_PPM)) {
					TH_LOG("buf %u load %u slot %u: latency %llu against %llu at 200 ns",
					       bufs[b], loads[l], slot_lens[i],
					       (unsigned long long)got.lat_mean,
					       (unsigned long long)ref.lat_mean);
				}
			}
		}
	}
}

/*
 * At low load (0.01) a K = 0 network is at zero load: the mean latency is
 * Eq. 3.3's 2 T_w + k (T_sch + T_setup) + T_packet (Sec. 3.1), whatever the
 * slot length: 220 ns for 128 B under ding4, 410 ns under ding5, plus
 * the fabric's propagation (1 ns of LVDS under ding4, Sec. 3.1).
 */
TEST(k0_low_load_latency_is_eq_3_3)
{
	static const char * const profiles[] = { "ding4", "ding5" };
	struct hn_config c;
	struct k0 got;
	u64 eq33;
	u32 p, i;

	for (p = 0; p < ARRAY_SIZE(profiles); p++) {
		hn_config_profile(&c, profiles[p]);
		eq33 = 2ULL * (c.nic_ns + c.wire_ns) +
		       (c.wh_first_ns - c.wh_flit_ns) +
		       128 / c.flit_bytes * c.wh_flit_ns;
		EXPECT_EQ(p ? 410 : 220, eq33);
		eq33 += c.fabric_ns;
		for (i = 0; i < ARRAY_SIZE(slot_lens); i++) {
			ASSERT_EQ(0, k0_run(profiles[p], 10000, 8192,
					    slot_lens[i], &got));
			EXPECT_EQ(HN_END_DONE, got.end);
			EXPECT_LE(eq33, got.lat_mean);
			EXPECT_TRUE(within(got.lat_mean, eq33, EQ33_PPM)) {
				TH_LOG("%s slot %u: mean latency %llu, Eq. 3.3 %llu",
				       profiles[p], slot_lens[i],
				       (unsigned long long)got.lat_mean,
				       (unsigned long long)eq33);
			}
		}
	}
}

/* ding4 with K = 1 and the plain counter: slot 0 [0, 200), S_W [200, 400). */
static void k1_config(struct hn_config *c)
{
	hn_config_profile(c, "ding4");
	c->nodes = 8;
	c->k = 1;
	c->policy = 0;
}

/* A wormhole message made in the middle of S_W goes in that S_W. */
TEST(wormhole_slot_admits_arrivals)
{
	struct hn_config c;
	struct sim s;
	struct tmsg *t;

	k1_config(&c);
	ASSERT_EQ(0, sim_init(&s, &c));
	hn_run_until(s.e, 250);
	ASSERT_EQ(250, hn_now(s.e));
	ASSERT_EQ(0, sim_send(&s, 0, 3, 8));
	sim_drain(&s, 100000);
	ASSERT_EQ(1, s.nlog);
	t = s.log[0];
	EXPECT_EQ(HN_MODE_WORMHOLE, t->m.mode);
	/* at the switch at 270, one 30 ns flit, out at 300: 321 */
	EXPECT_EQ(250 + 2 * (c.nic_ns + c.wire_ns) + c.wh_first_ns +
		  c.fabric_ns, t->m.t_deliver);
	sim_fini(&s);
}

/*
 * A circuit carries data that reaches its VQ_PCKT during its slot, from
 * that moment, on the slot's byte grid; what does not fit continues the
 * next time the slot comes (Sec. 5.5.2).
 */
TEST(circuit_slot_admits_arrivals)
{
	struct hn_pair p = { 2, 5 };
	struct hn_config c;
	struct sim s;
	u64 lat;

	k1_config(&c);
	lat = 2 * (c.nic_ns + c.wire_ns) + c.fabric_ns;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	hn_run_until(s.e, 50);
	ASSERT_EQ(0, sim_send(&s, 2, 5, 64));	/* 80 ns: out at 130 */
	hn_run_until(s.e, 150);
	ASSERT_EQ(1, s.nlog);
	EXPECT_EQ(130 + lat, s.log[0]->m.t_deliver);
	/* at 150 (byte 120 of 160): 40 B now, 24 B in slot 0 at 400 */
	ASSERT_EQ(0, sim_send(&s, 2, 5, 64));
	sim_drain(&s, 100000);
	ASSERT_EQ(2, s.nlog);
	EXPECT_EQ(400 + hn_bytes_ns(&c, 24) + lat, s.log[1]->m.t_deliver);
	EXPECT_EQ(0, s.order_errors);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * A NIC whose room grows inside a slot lets its PE in at that moment
 * (ops->room): with 128 B buffers and a 12 us wormhole slot, ten
 * messages from one node leave 200 ns apart: a worm (180 ns), then the
 * next message's head crosses NIC and wire (20 ns), the switch buffer
 * holding one message.  Before, each waited for the next slot (12 us).
 */
TEST(room_inside_a_slot)
{
	struct hn_trun_cfg rc;
	const struct hn_tres *res;
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_trun *r;
	int rv;

	hn_config_profile(&c, "ding4");
	c.nodes = 4;
	c.k = 0;
	c.policy = HN_POL_SES | HN_POL_SLA;
	c.slot_w_ns = 12000;
	c.max_msg_bytes = c.nic_buf_bytes = c.sw_buf_bytes = 128;
	hn_tcfg_default(&t, c.nodes);
	t.pattern = HN_PAT_SCATTER;
	t.inject = HN_INJ_BATCH;
	t.batch = 10;
	hn_trun_cfg_default(&rc);
	r = hn_trun_create(&c, &t, &rc, &rv, NULL);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_DONE, res->end);
	/* first out at 221, then one every 200 ns */
	EXPECT_EQ(221 + 9 * 200, res->t_last);
	hn_trun_destroy(r);
}

/*
 * The uplink (issue 10, modelling error 5): one message at a time at link
 * rate, and a message holds its NIC buffer until its last byte has left.
 * ding4, 128 B = 160 ns on the link: of three messages made at 0 into a
 * 256 B NIC the third is refused until the first has left, at 160.
 */
TEST(uplink_one_message_at_a_time)
{
	struct hn_config c;
	struct sim s;

	hn_config_profile(&c, "ding4");
	c.nodes = 4;
	c.k = 0;
	c.max_msg_bytes = c.nic_buf_bytes = 256;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 0, 1, 128));
	ASSERT_EQ(0, sim_send(&s, 0, 2, 128));
	EXPECT_EQ(-EAGAIN, sim_send(&s, 0, 3, 128));
	EXPECT_EQ(160, hn_nic_room_at(s.e, 0, 128));
	EXPECT_EQ(320, hn_nic_room_at(s.e, 0, 256));
	hn_run_until(s.e, 159);
	EXPECT_EQ(-EAGAIN, sim_send(&s, 0, 3, 128));
	hn_run_until(s.e, 160);
	EXPECT_EQ(128, hn_nic_room(s.e, 0));
	ASSERT_EQ(0, sim_send(&s, 0, 3, 128));
	sim_drain(&s, 100000);
	ASSERT_EQ(3, s.nlog);
	/* the second's head reaches the switch at 160 + 20 */
	EXPECT_EQ(221, sim_find(&s, 0, 1, 0)->m.t_deliver);
	EXPECT_EQ(401, sim_find(&s, 0, 2, 0)->m.t_deliver);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * Circuit data has the uplink first: the circuit's 128 B leave at once,
 * over [0, 160), and a wormhole message made at the same time, which had
 * started, pauses and crosses the link after them: its head reaches the
 * switch at 160 + 20.  K = 1, plain counter: slot 0 [0, 200), S_W
 * [200, 400).
 */
TEST(uplink_circuit_first)
{
	struct hn_pair p = { 0, 1 };
	struct hn_config c;
	struct sim s;

	k1_config(&c);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	ASSERT_EQ(0, sim_send(&s, 0, 2, 128));	/* wormhole */
	ASSERT_EQ(0, sim_send(&s, 0, 1, 128));	/* circuit */
	sim_drain(&s, 100000);
	ASSERT_EQ(2, s.nlog);
	/* 160 ns of data, then NIC, wire, fabric, wire, NIC */
	EXPECT_EQ(160 + 2 * (c.nic_ns + c.wire_ns) + c.fabric_ns,
		  sim_find(&s, 0, 1, 0)->m.t_deliver);
	EXPECT_EQ(180, sim_find(&s, 0, 2, 0)->m.t_ready);
	EXPECT_EQ(340, sim_find(&s, 0, 2, 0)->m.t_tail);
	/* the worm runs from S_W's start, 200, for 180 ns */
	EXPECT_EQ(200 + 180 + c.fabric_ns + c.wire_ns + c.nic_ns,
		  sim_find(&s, 0, 2, 0)->m.t_deliver);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/* ---- the outcome does not depend on how the clock is driven ---- */

#define NMSG	400

struct plan {
	u64 t;
	u32 src, dst, len;
};

struct drive {
	struct hn_engine *e;
	u64 rng;
	u32 stop_ppm;			/* ops->room says stop this often */
	u64 t_deliver[NMSG];
	u8 mode[NMSG], slot[NMSG];
	int accepted[NMSG];
	u64 calls, cuts;		/* of hn_step(), hn_run_until() */
};

struct dmsg {
	struct hn_msg m;
	u32 id;
	struct drive *d;
};

static void d_deliver(void *ctx, struct hn_msg *m)
{
	struct dmsg *x = (struct dmsg *)m;
	struct drive *d = ctx;

	d->t_deliver[x->id] = m->t_deliver;
	d->mode[x->id] = m->mode;
	d->slot[x->id] = m->slot;
	hn_consume(d->e, m->dst, m->len);
	free(x);
}

static void d_reclaim(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	free(m);
}

static bool d_room(void *ctx, u32 node, u64 t)
{
	struct drive *d = ctx;

	(void)node;
	(void)t;
	return hn_rand_below(&d->rng, 1000000) < d->stop_ppm;
}

static const struct hn_ops plain_ops = {
	.deliver = d_deliver, .reclaim = d_reclaim,
};

static const struct hn_ops room_ops = {
	.deliver = d_deliver, .reclaim = d_reclaim, .room = d_room,
};

/* Get to @t: in one call, or (@style 1) with random stops on the way. */
static void reach(struct drive *d, u64 t, int style)
{
	u64 mid;

	while (hn_now(d->e) < t) {
		d->calls++;
		if (style && hn_rand_below(&d->rng, 2)) {
			mid = hn_now(d->e) + hn_rand_below(&d->rng, 400);
			if (hn_rand_below(&d->rng, 2))
				hn_step_until(d->e, mid < t ? mid : t);
			else
				hn_run_until(d->e, mid < t ? mid : t);
		} else {
			hn_run_until(d->e, t);	/* may stop early: room */
		}
	}
}

/*
 * Run @p: the clock driven in @style, ops->room asking to stop @stop_ppm
 * of the time, each call's work bounded to @work events (0: none).
 */
static void drive_run(const struct hn_config *c, const struct plan *p,
		      int style, u32 stop_ppm, u32 work, struct drive *d)
{
	struct hn_pair mesh[2][32];
	struct hn_slot_cfg sc[2];
	struct dmsg *x;
	u32 i, u;
	int rv;

	memset(d, 0, sizeof(*d));
	d->rng = 7;
	d->stop_ppm = stop_ppm;
	d->e = hn_create(c, stop_ppm || work ? &room_ops : &plain_ops, d,
			 &rv);
	hn_set_work(d->e, work);
	for (u = 0; u < c->nodes; u++) {
		mesh[0][u] = (struct hn_pair){ u, (u + 1) % c->nodes };
		mesh[1][u] = (struct hn_pair){ u, (u + 2) % c->nodes };
	}
	sc[0] = (struct hn_slot_cfg){ 0, c->nodes, mesh[0] };
	sc[1] = (struct hn_slot_cfg){ 1, c->nodes, mesh[1] };
	hn_preload(d->e, sc, 2, NULL);
	for (i = 0; i < NMSG; i++) {
		reach(d, p[i].t, style);
		x = calloc(1, sizeof(*x));
		x->id = i;
		x->m.src = p[i].src;
		x->m.dst = p[i].dst;
		x->m.len = p[i].len;
		x->m.t_inject = p[i].t;
		d->accepted[i] = !hn_inject(d->e, &x->m, NULL);
		if (!d->accepted[i])
			free(x);
	}
	while (hn_busy(d->e)) {
		hn_step(d->e);
		d->calls++;
		d->cuts += hn_cut(d->e);
	}
	hn_destroy(d->e);
}

/*
 * ding4 on 16 nodes, K = 3, or (@i >= 4) a random configuration; from
 * @i = 12 on, on the fat tree FT(2, 4) of 16 nodes.
 */
static void drive_config(struct hn_config *c, u32 i, u64 *r)
{
	static const u32 pols[] = {
		0, HN_POL_SES, HN_POL_SES | HN_POL_SLA, HN_POL_PREEMPT,
		HN_POL_PREEMPT | HN_POL_PREEMPT_SLOT | HN_POL_SLA,
	};

	hn_config_profile(c, "ding4");
	c->nodes = 16;
	c->k = 3;
	c->policy = pols[i % 4];
	c->slot_w_ns = 500;
	c->nic_buf_bytes = c->sw_buf_bytes = 1024;
	c->max_msg_bytes = 512;
	if (i < 4)
		return;
	c->policy = pols[hn_rand_below(r, 5)];
	c->k = 2 + hn_rand_below(r, 3);
	c->slot_p_ns = 20 + hn_rand_below(r, 400);
	c->slot_w_ns = 20 + hn_rand_below(r, 2000);
	c->guard_ns = hn_rand_below(r, 15);
	c->wire_ns = hn_rand_below(r, 100);
	c->serdes_ns = hn_rand_below(r, c->wire_ns + 1);
	c->nic_ns = hn_rand_below(r, 20);
	c->fabric_ns = hn_rand_below(r, 5);
	c->wh_flit_ns = 1 + hn_rand_below(r, 20);
	c->wh_first_ns = c->wh_flit_ns + hn_rand_below(r, 100);
	c->wh_overlap = hn_rand_below(r, 2);
	c->worm_bytes = c->flit_bytes * (1 + hn_rand_below(r, 32));
	c->nic_buf_bytes = c->max_msg_bytes + hn_rand_below(r, 2048);
	c->sw_buf_bytes = c->max_msg_bytes + hn_rand_below(r, 2048);
	if (i < 12)
		return;
	c->topology = HN_TOPO_FATTREE;
	c->levels = 2;
	c->width = 4;
	c->serdes_ns = c->wire_ns / 2;	/* one at each end of a link */
	c->wh_flit_ns += 10;		/* a flit crosses a link meanwhile */
	c->wh_first_ns += 10;
}

TEST(clock_driving_does_not_matter)
{
	static struct drive a, b, c2, d2, w1, w7;
	static struct plan p[NMSG];
	struct hn_config c;
	u64 r = 99, t = 0;
	u32 i, pol;

	for (pol = 0; pol < 20; pol++) {
		drive_config(&c, pol, &r);
		ASSERT_EQ(0, hn_config_check(&c, NULL));
		for (i = 0; i < NMSG; i++) {
			t += hn_rand_below(&r, 60);
			p[i] = (struct plan){ t, hn_rand_below(&r, 16),
					      hn_rand_below(&r, 16),
					      1 + hn_rand_below(&r, 512) };
		}
		drive_run(&c, p, 0, 0, 0, &a);
		drive_run(&c, p, 1, 0, 0, &b);
		drive_run(&c, p, 0, 300000, 0, &c2);
		drive_run(&c, p, 1, 500000, 0, &d2);
		drive_run(&c, p, 0, 0, 1, &w1);
		drive_run(&c, p, 1, 200000, 7, &w7);
		/* the bound cut calls short, and they took more of them */
		EXPECT_LT(0, w1.cuts);
		EXPECT_LT(a.calls, w1.calls);
		for (i = 0; i < NMSG; i++) {
			ASSERT_EQ(a.accepted[i], b.accepted[i]);
			ASSERT_EQ(a.accepted[i], c2.accepted[i]);
			ASSERT_EQ(a.accepted[i], d2.accepted[i]);
			ASSERT_EQ(a.accepted[i], w1.accepted[i]);
			ASSERT_EQ(a.accepted[i], w7.accepted[i]);
			if (!a.accepted[i])
				continue;
			EXPECT_EQ(a.t_deliver[i], b.t_deliver[i]);
			EXPECT_EQ(a.t_deliver[i], c2.t_deliver[i]);
			EXPECT_EQ(a.t_deliver[i], d2.t_deliver[i]);
			EXPECT_EQ(a.t_deliver[i], w1.t_deliver[i]);
			EXPECT_EQ(a.t_deliver[i], w7.t_deliver[i]);
			EXPECT_EQ(a.mode[i], d2.mode[i]);
			EXPECT_EQ(a.slot[i], d2.slot[i]);
			EXPECT_EQ(a.mode[i], w1.mode[i]);
			EXPECT_EQ(a.slot[i], w1.slot[i]);
		}
	}
}

TEST_HARNESS_MAIN
