// SPDX-License-Identifier: GPL-2.0
/*
 * test_soft.c - soft boundaries between wormhole slots (engine.c).
 *
 * When only wormhole slots run, back to back (K = 0, or SES with no
 * circuit, no guard band), the crossbar's S_W keeps its events across
 * the boundary with the next S_W instead of suspending every worm and
 * having every input look again.  So:
 * - a boundary where nothing happens costs nothing: the engine handles
 *   as many events with 13 ns slots as with 2 us slots, where it used to
 *   handle every waiting input at every slot's start;
 * - nothing else changes: the same traffic gives the same deliveries,
 *   at the same times, as on an engine whose boundaries stay hard (PREEMPT
 *   with a circuit that never has data: its slot is passed over, taking
 *   no time, but an engine with a circuit keeps its boundaries hard), for
 *   any way of driving the clock, with receivers short of room (an input
 *   waiting for one looks again at the next slot's start, as it did) and
 *   every arbiter;
 * - an input waiting for a receiver's room, freed in the middle of a
 *   slot, starts at the next slot's start, as at a hard boundary.
 */
#include "harness.h"
#include "sim.h"
#include "cfg_text.h"		/* hn_topology_parse() */

/* ding4's crossbar of @nodes, K = 4 under SES, no guard, @slot_ns slots */
static void soft_config(struct hn_config *c, u32 nodes, u32 slot_ns)
{
	hn_config_profile(c, "ding4");
	c->nodes = nodes;
	c->k = 4;
	c->policy = HN_POL_SES;
	c->guard_ns = 0;
	c->slot_p_ns = slot_ns;
	c->slot_w_ns = slot_ns;
}

/*
 * ding4's crossbar of 64 nodes, K = 4 under SES with no circuit, slots
 * of @slot_ns: every node sends one 1 KB message to node 0 at 0, so 62
 * inputs wait for output 0 while another's worm holds it across slot
 * boundaries.  Returns the last delivery (0: something went wrong), and
 * in *@calls the calls the run took with its work bounded to one event
 * (hn_set_work(): each call handles the events of one time).
 */
static u64 to_one(const char *fab, u32 slot_ns, u64 *calls)
{
	struct hn_config c;
	struct sim s;
	u64 last = 0;
	u32 u;

	soft_config(&c, 64, slot_ns);
	if (hn_topology_parse(&c, fab, NULL))
		return 0;
	*calls = 0;
	if (sim_init(&s, &c))
		return 0;
	hn_set_work(s.e, 1);
	for (u = 1; u < 64; u++)
		sim_send(&s, u, 0, 1024);
	while (hn_busy(s.e) && *calls < 10000000) {
		hn_run_until(s.e, hn_now(s.e) + 1000000);
		(*calls)++;
	}
	if (s.nlog == 63 && !s.order_errors && !hn_check(s.e, NULL))
		last = sim_last_delivery(&s);
	sim_fini(&s);
	return last;
}

static void nothing_to_do(struct __test_metadata *_metadata, const char *fab)
{
	u64 c13, c10, c2000, t13, t10, t2000;

	t13 = to_one(fab, 13, &c13);
	t10 = to_one(fab, 10, &c10);
	t2000 = to_one(fab, 2000, &c2000);
	TH_LOG("%s: %llu calls with 2 us slots, %llu with 13 ns, %llu with 10 ns",
	       fab, (unsigned long long)c2000, (unsigned long long)c13,
	       (unsigned long long)c10);
	ASSERT_NE(0, t2000);
	/* the same network: the slot length changes nothing */
	EXPECT_EQ(t2000, t13);
	EXPECT_EQ(t2000, t10);
	/* 63 x 8 worms through output 0: about 91 us, 9,100 slots of 10 ns */
	EXPECT_LT(90000, t2000);
	/*
	 * As many calls within 10 % when few events fall on a boundary (it
	 * took one a slot and more: 9,561 with 10 ns slots); with 10 ns
	 * slots every worm ends on one, where its end and its input's look
	 * take a call each.
	 */
	EXPECT_LE(c13, c2000 + c2000 / 10);
	EXPECT_LE(c10, 2 * c2000);
}

TEST(boundaries_with_nothing_to_do_cost_nothing)
{
	nothing_to_do(_metadata, "crossbar");
	nothing_to_do(_metadata, "fattree:3,4");
}

/*
 * A soft end made hard with inputs waiting: FT(3,4) with 2-flit buffers
 * under SES with no circuit, 63 nodes sending 1 KB to node 0, so many of
 * switch.c's inputs wait with no event of their own (34 at 3 us); at 3 us a circuit 0 -> 1 is preloaded
 * in slot 0, so boundaries turn hard and slot 0 runs between wormhole
 * slots.  Every input that waits must be found then (on the stash, its
 * times moved by each gap): the invariants hold at every step, and all
 * 63 messages arrive.
 */
TEST(soft_end_made_hard_with_inputs_waiting)
{
	struct hn_pair p = { 0, 1 };
	struct hn_config c;
	struct sim s;
	u64 t;
	u32 u;

	soft_config(&c, 64, 100);
	ASSERT_EQ(0, hn_topology_parse(&c, "fattree:3,4", NULL));
	c.vc_flits = 2;		/* worms span switches: tails wait unknown */
	ASSERT_EQ(0, sim_init(&s, &c));
	for (u = 1; u < 64; u++)
		ASSERT_EQ(0, sim_send(&s, u, 0, 1024));
	for (t = 0; t <= 3000; t += 50) {
		hn_run_until(s.e, t);
		ASSERT_EQ(0, hn_check(s.e, NULL));
	}
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	for (; hn_busy(s.e) && t < 10000000; t += 500) {
		hn_run_until(s.e, t);
		ASSERT_EQ(0, hn_check(s.e, NULL)) {
			TH_LOG("at %llu ns", (unsigned long long)t);
		}
	}
	EXPECT_EQ(63, s.nlog);
	EXPECT_EQ(0, s.order_errors);
	sim_fini(&s);
}

/* ---- the same as hard boundaries ---- */

#define NMSG	600

struct smsg {
	struct hn_msg m;
	u32 id;
};

struct srun {
	struct hn_engine *e;
	u64 rng;			/* the driving's: ops->room, stops */
	u32 stop_ppm;
	int hold;			/* receivers read late (consume()) */
	u64 held[16];			/* bytes delivered, not read yet */
	u64 t_deliver[NMSG];
	u8 mode[NMSG];
	int accepted[NMSG];
	struct hn_gstats g;
};

static void s_deliver(void *ctx, struct hn_msg *m)
{
	struct srun *r = ctx;
	struct smsg *x = (struct smsg *)m;

	r->t_deliver[x->id] = m->t_deliver;
	r->mode[x->id] = m->mode;
	if (r->hold)
		r->held[m->dst] += m->len;
	else
		hn_consume(r->e, m->dst, m->len);
	if (r->stop_ppm && hn_rand_below(&r->rng, 4) == 0)
		hn_stop_at(r->e, hn_now(r->e) + 10 * hn_rand_below(&r->rng, 3));
	free(x);
}

static void s_reclaim(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	free(m);
}

static bool s_room(void *ctx, u32 node, u64 t)
{
	struct srun *r = ctx;

	(void)node;
	(void)t;
	return hn_rand_below(&r->rng, 1000000) < r->stop_ppm;
}

static const struct hn_ops s_ops = {
	.deliver = s_deliver, .reclaim = s_reclaim, .room = s_room,
};

struct act {
	u64 t;
	u32 src, dst, len;
	int read;			/* the receivers read what they hold */
};

/* Get to @t, in one call (@style 0), or in random steps and stops. */
static void s_reach(struct srun *r, u64 t, int style)
{
	u64 now, mid;

	while ((now = hn_now(r->e)) < t) {
		mid = now + 1 + hn_rand_below(&r->rng, 300);
		mid = mid < t ? mid : t;
		switch (style ? hn_rand_below(&r->rng, 3) : 0) {
		case 0:
			hn_run_until(r->e, t);	/* may stop early: room */
			break;
		case 1:
			hn_run_until(r->e, mid);
			break;
		default:
			hn_step_until(r->e, mid);
			break;
		}
	}
}

/*
 * Run the actions @a on @c: soft boundaries (@hard 0: K = 4 under SES,
 * no circuit) or hard ones (PREEMPT, a circuit N-1 -> N-2 in slot 3 that
 * no message takes), the clock driven in @style.
 */
static void s_run(const struct hn_config *c, const struct act *a, int hard,
		  int style, u32 stop_ppm, int hold, struct srun *r)
{
	struct hn_pair p = { c->nodes - 1, c->nodes - 2 };
	struct hn_slot_cfg sc = { 3, 1, &p };
	struct hn_config cc = *c;
	struct smsg *x;
	u32 i, u;
	int rc;

	memset(r, 0, sizeof(*r));
	r->rng = 5 + style;
	r->stop_ppm = stop_ppm;
	r->hold = hold;
	if (hard)
		cc.policy = HN_POL_PREEMPT;
	r->e = hn_create(&cc, &s_ops, r, &rc);
	rc = hard ? hn_preload(r->e, &sc, 1, NULL) : 0;
	for (i = 0; i < NMSG; i++) {
		s_reach(r, a[i].t, style);
		if (a[i].read) {
			for (u = 0; u < c->nodes; u++)
				hn_consume(r->e, u, (u32)r->held[u]);
			memset(r->held, 0, sizeof(r->held));
		}
		x = calloc(1, sizeof(*x));
		x->id = i;
		x->m.src = a[i].src;
		x->m.dst = a[i].dst;
		x->m.len = a[i].len;
		x->m.t_inject = a[i].t;
		r->accepted[i] = !hn_inject(r->e, &x->m, NULL);
		if (!r->accepted[i])
			free(x);
	}
	for (i = 0; hn_busy(r->e) && i < 100000; i++) {
		for (u = 0; u < c->nodes; u++)	/* read every 500 ns */
			hn_consume(r->e, u, (u32)r->held[u]);
		memset(r->held, 0, sizeof(r->held));
		s_reach(r, a[NMSG - 1].t + 500 * (i + 1), style);
	}
	r->accepted[0] |= hn_check(r->e, NULL) ? 2 : 0;	/* a failure */
	r->accepted[0] |= rc ? 4 : 0;
	hn_stats_global(r->e, &r->g);
	hn_destroy(r->e);
}

/*
 * The crossbar's wormhole, then FT(2,4) and the torus 4x4 by each
 * switching, the crossbar by VCT.
 */
TEST(soft_boundaries_change_nothing)
{
	static const u32 lens[] = { 10, 20, 30, 70, 200 };
	static const char *const fabs[] = { "crossbar", "fattree:2,4",
					    "torus:4x4", "crossbar" };
	static struct srun hard, soft;
	static struct act a[NMSG];
	struct hn_config c;
	u64 r = 17, t;
	u32 cfg, i, style, n;

	for (cfg = 0; cfg < 24 * ARRAY_SIZE(fabs); cfg++) {
		soft_config(&c, 16, lens[hn_rand_below(&r, 5)]);
		ASSERT_EQ(0, hn_topology_parse(&c, fabs[cfg / 24], NULL));
		c.switching = cfg < 24 ? HN_SWITCH_WORMHOLE :
			      cfg >= 72 ? HN_SWITCH_VCT : cfg % 3;
		c.idle_timeout_ns = 0;		/* the circuit stays */
		c.max_msg_bytes = 1024;
		c.rx_buf_bytes = cfg % 3 ? 1024 : 65536;
		c.voq_arbiter = cfg % 4 == 3 ? HN_VOQ_LQF : HN_VOQ_RR;
		c.voq_timeout_ns = cfg % 5 == 4 ? 300 : 0;
		c.wh_overlap = cfg % 6 == 5;
		if (cfg % 7 == 6) {
			c.nic_ns = 0;
			c.wire_ns = 0;
		}
		ASSERT_EQ(0, hn_config_check(&c, NULL));
		for (i = 0, t = 0; i < NMSG; i++) {
			t += hn_rand_below(&r, 2) ? 10 * hn_rand_below(&r, 4) :
			     hn_rand_below(&r, 40);
			a[i].t = t;
			a[i].src = hn_rand_below(&r, 15);
			do {	/* not the circuit's pair, 15 -> 14 */
				a[i].dst = hn_rand_below(&r, 16);
			} while (a[i].dst == a[i].src);
			a[i].len = cfg % 2 ? 128 : 1 + hn_rand_below(&r, 1024);
			a[i].read = hn_rand_below(&r, 8) == 0;
		}
		s_run(&c, a, 1, 0, 0, cfg % 3 == 1, &hard);
		for (style = 0; style < 3; style++) {
			s_run(&c, a, 0, style, style == 2 ? 300000 : 0,
			      cfg % 3 == 1, &soft);
			ASSERT_EQ(hard.accepted[0] & 6, 0);
			ASSERT_EQ(soft.accepted[0] & 6, 0) {
				TH_LOG("%s, switching %u, config %u, style %u",
				       fabs[cfg / 24], c.switching, cfg, style);
			}
			for (i = 0, n = 0; i < NMSG; i++) {
				ASSERT_EQ(hard.accepted[i], soft.accepted[i]);
				if (!hard.accepted[i])
					continue;
				n++;
				ASSERT_EQ(hard.t_deliver[i], soft.t_deliver[i]);
				ASSERT_EQ(hard.mode[i], soft.mode[i]);
			}
			EXPECT_LT(NMSG / 2, n);
			/* the slots: slot 3's circuit had it preempted */
			EXPECT_EQ(hard.g.cycles, soft.g.cycles);
			EXPECT_EQ(hard.g.idle_ns, soft.g.idle_ns);
			EXPECT_EQ(hard.g.slot[4].runs, soft.g.slot[4].runs);
			EXPECT_EQ(hard.g.slot[4].time_ns, soft.g.slot[4].time_ns);
			EXPECT_EQ(hard.g.slot[4].cap_bytes,
				  soft.g.slot[4].cap_bytes);
			EXPECT_EQ(hard.g.slot[4].bytes, soft.g.slot[4].bytes);
			EXPECT_EQ(hard.g.slot[0].skipped, soft.g.slot[0].skipped);
			EXPECT_EQ(hard.g.slot[3].preempted,
				  soft.g.slot[3].skipped);
		}
	}
}

/*
 * Node 2's message to node 0 waits for node 1's to be read: 0's receive
 * buffer holds one.  Node 1's arrives at 380 + 21, and is read at 1337,
 * in the middle of a 100 ns slot; node 2's input looks again at the next
 * slot's start, 1400, as it would after a hard end (its wait has no
 * time of its own), and sends its two worms of 180 ns from there.
 */
TEST(receiver_room_seen_at_the_next_slot)
{
	struct hn_config c;
	struct tmsg *m;
	struct sim s;
	u64 lat;

	soft_config(&c, 4, 100);
	c.max_msg_bytes = 256;
	c.rx_buf_bytes = 256;
	ASSERT_EQ(0, sim_init(&s, &c));
	lat = c.fabric_ns + c.wire_ns + c.nic_ns;
	s.hold_rx = 1;
	ASSERT_EQ(0, sim_send(&s, 1, 0, 256));
	hn_run_until(s.e, 5);
	ASSERT_EQ(0, sim_send(&s, 2, 0, 256));
	hn_run_until(s.e, 1337);
	ASSERT_EQ(1, s.nlog);
	EXPECT_EQ(380 + lat, sim_find(&s, 1, 0, 0)->m.t_deliver);
	hn_consume(s.e, 0, 256);
	sim_drain(&s, 100000);
	m = sim_find(&s, 2, 0, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(1400 + 2 * 180 + lat, m->m.t_deliver);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * Node 2's worm to node 3 ends at 200, a slot boundary, where node 1's
 * input, first in priority there, would start its message to node 3,
 * for which 3's receiver has room once node 2's message is read, at its
 * delivery.  After a hard end every worm ending at 200 ends before any
 * input looks, so node 1 starts at 200: so it does here, though the run
 * goes on through 200 in one call.
 */
TEST(worm_end_at_a_boundary_frees_room)
{
	struct hn_config c;
	struct tmsg *m;
	struct sim s;

	soft_config(&c, 4, 20);
	c.max_msg_bytes = 256;
	c.rx_buf_bytes = 256;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 2, 3, 128));	/* a worm 20..200 */
	hn_run_until(s.e, 5);
	ASSERT_EQ(0, sim_send(&s, 1, 3, 256));	/* waits for output 3 */
	hn_run_until(s.e, 10000);
	m = sim_find(&s, 1, 3, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(200 + 2 * 180 + c.fabric_ns + c.wire_ns + c.nic_ns,
		  m->m.t_deliver);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * As above, but where the receivers have room for the longest message
 * from every input but one does not (tight): node 3's receiver holds
 * seven unread 128 B messages, and node 2's 128 B worm to it, reserved,
 * fills it.  That worm ends at a boundary, 4200, where node 1's input,
 * first in priority there, waits for output 3 with a 128 B message for
 * node 3: node 2's is read at its delivery, so node 1 starts at 4200, as
 * after a hard end, though the run goes on through it in one call.  (Its
 * worm's end and node 1's start in one event, as where no receiver is
 * tight, would find no room and start at the next slot, 4220.)
 */
TEST(tight_receiver_at_a_boundary)
{
	struct hn_config c;
	struct tmsg *m;
	struct sim s;
	u32 i;

	soft_config(&c, 4, 20);
	c.max_msg_bytes = 128;
	c.rx_buf_bytes = 1024;		/* 4 x 128 below it: not tight */
	ASSERT_EQ(0, sim_init(&s, &c));
	s.hold_rx = 1;
	for (i = 0; i < 7; i++)
		ASSERT_EQ(0, sim_send(&s, 0, 3, 128));
	hn_run_until(s.e, 3000);
	ASSERT_EQ(7, s.nlog);
	s.hold_rx = 0;
	hn_run_until(s.e, 4000);	/* idle: a slot begins at 4000 */
	ASSERT_EQ(0, sim_send(&s, 2, 3, 128));	/* a worm 4020..4200 */
	hn_run_until(s.e, 4005);
	ASSERT_EQ(0, sim_send(&s, 1, 3, 128));	/* waits for output 3 */
	hn_run_until(s.e, 10000);
	m = sim_find(&s, 2, 3, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(4200 + c.fabric_ns + c.wire_ns + c.nic_ns, m->m.t_deliver);
	m = sim_find(&s, 1, 3, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(4200 + 180 + c.fabric_ns + c.wire_ns + c.nic_ns,
		  m->m.t_deliver);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * The last worm ends at 200, a boundary: SES passes the empty wormhole
 * slot over there, and the controller idles until the next message,
 * which begins a slot at its own time, as after a hard end.
 */
TEST(last_worm_at_a_boundary_idles)
{
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;

	soft_config(&c, 4, 20);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 1, 2, 128));	/* a worm 20..200 */
	hn_run_until(s.e, 1007);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(10, g.slot[4].runs);
	EXPECT_EQ(807, g.idle_ns);
	ASSERT_EQ(0, sim_send(&s, 1, 2, 128));
	hn_run_until(s.e, 2000);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(20, g.slot[4].runs);	/* from 1007 to 1207 */
	EXPECT_EQ(1027 + 180 + c.fabric_ns + c.wire_ns + c.nic_ns,
		  sim_find(&s, 1, 2, 1)->m.t_deliver);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

TEST_HARNESS_MAIN
