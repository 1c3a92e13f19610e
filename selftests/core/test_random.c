// SPDX-License-Identifier: GPL-2.0
/*
 * test_random.c - random configurations and random traffic, many seeds:
 * after every action each B^(s) is a partial permutation and conservation
 * holds (hn_check); at the end every accepted message arrived once, in
 * stream order; and two runs with one seed give identical statistics.
 */
#include "harness.h"
#include "sim.h"

#define SEEDS	40
#define ROUNDS	3000

static const u32 policies[] = {
	0, HN_POL_SES, HN_POL_SES | HN_POL_SLA, HN_POL_PREEMPT,
	HN_POL_PREEMPT | HN_POL_PREEMPT_SLOT | HN_POL_SLA,
	HN_POL_SES | HN_POL_NO_W,
};

static void random_config(u64 *r, struct hn_config *c)
{
	sim_config_zero(c, 2 + hn_rand_below(r, 31), hn_rand_below(r, 5));
	c->policy = policies[hn_rand_below(r, 6)];
	if (!c->k)
		c->policy &= ~HN_POL_NO_W;
	c->slot_p_ns = 50 + hn_rand_below(r, 400);
	c->slot_w_ns = 50 + hn_rand_below(r, 400);
	c->guard_ns = hn_rand_below(r, 40);
	c->wire_ns = hn_rand_below(r, 100);
	c->nic_ns = hn_rand_below(r, 20);
	c->sched_ns = hn_rand_below(r, 100);
	c->flit_bytes = 1 + hn_rand_below(r, 16);
	c->worm_bytes = c->flit_bytes * (1 + hn_rand_below(r, 16));
	c->wh_flit_ns = 1 + hn_rand_below(r, 20);
	c->wh_first_ns = c->wh_flit_ns + hn_rand_below(r, 100);
	c->max_msg_bytes = 16 + hn_rand_below(r, 512);
	c->nic_buf_bytes = c->max_msg_bytes + hn_rand_below(r, 2048);
	c->sw_buf_bytes = c->max_msg_bytes + hn_rand_below(r, 2048);
	c->rx_buf_bytes = c->max_msg_bytes + hn_rand_below(r, 2048);
	c->idle_timeout_ns = hn_rand_below(r, 2) ? 0 : 500 +
			     hn_rand_below(r, 5000);
	c->predict_algo = hn_rand_below(r, 2);
	c->wh_overlap = hn_rand_below(r, 2);
	c->predict_kstep = 1 + hn_rand_below(r, 2 * c->nodes - 1 < 9 ?
						 2 * c->nodes - 1 : 9);
}

static void random_preload(u64 *r, struct sim *s)
{
	u32 N = s->cfg.nodes, perm[32], i, j, t;
	struct hn_pair p[32];

	for (i = 0; i < N; i++)
		perm[i] = i;
	/* one cycle (Sattolo): no node to itself, which is refused */
	for (i = N; i-- > 1;) {
		j = hn_rand_below(r, i);
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < N; i++)
		p[i] = (struct hn_pair){ i, perm[i] };
	/* mostly valid; a duplicate pair now and then must be refused */
	t = hn_rand_below(r, N + 1);
	if (t > 1 && hn_rand_below(r, 8) == 0)
		p[1].dst = p[0].dst;
	sim_preload1(s, hn_rand_below(r, s->cfg.k), p, t);
}

struct outcome {
	struct hn_gstats g;
	struct hn_nstats n[32];
	u32 accepted, delivered, order_errors, check_failures;
};

static void run(u64 seed, struct outcome *o)
{
	struct hn_pair req[8];
	struct hn_grant g[8];
	struct hn_config c;
	struct hn_err err;
	struct sim s;
	u64 r = seed;
	u32 i, j, n;

	memset(o, 0, sizeof(*o));
	random_config(&r, &c);
	if (sim_init(&s, &c))
		return;
	s.hold_rx = hn_rand_below(&r, 2);
	for (i = 0; i < ROUNDS; i++) {
		u32 a = hn_rand_below(&r, 100);
		u32 src = hn_rand_below(&r, c.nodes);
		u32 dst = hn_rand_below(&r, c.nodes);

		if (a < 60) {
			o->accepted += !sim_send(&s, src, dst,
				1 + hn_rand_below(&r, c.max_msg_bytes));
		} else if (a < 63 && c.k) {
			random_preload(&r, &s);
		} else if (a < 66 && c.k) {
			n = 1 + hn_rand_below(&r, 8);
			for (j = 0; j < n; j++) {
				req[j].src = hn_rand_below(&r, c.nodes);
				req[j].dst = (req[j].src + 1 +
					      hn_rand_below(&r, c.nodes - 1)) %
					     c.nodes;
			}
			hn_predict(s.e, req, n, g, NULL);
		} else if (a < 68) {
			hn_release(s.e, src, dst, NULL);
		} else if (a < 69 && c.k) {
			hn_release_slot(s.e, hn_rand_below(&r, c.k), NULL);
		} else if (a < 95) {
			hn_step(s.e);
		} else {
			hn_run_until(s.e, hn_now(s.e) +
				     hn_rand_below(&r, 3000));
		}
		if (s.hold_rx && hn_rand_below(&r, 4) == 0)
			for (j = 0; j < c.nodes; j++)
				hn_consume(s.e, j, c.rx_buf_bytes);
		o->check_failures += hn_check(s.e, &err) != 0;
	}
	s.hold_rx = 0;
	for (j = 0; j < c.nodes; j++)
		hn_consume(s.e, j, c.rx_buf_bytes);
	sim_drain(&s, hn_now(s.e) + 1000000000ULL);
	o->check_failures += hn_check(s.e, &err) != 0;
	o->delivered = s.nlog;
	o->order_errors = s.order_errors;
	hn_stats_global(s.e, &o->g);
	for (j = 0; j < c.nodes; j++)
		hn_stats_node(s.e, j, &o->n[j]);
	sim_fini(&s);
}

TEST(invariants_and_order)
{
	struct outcome o;
	u64 seed;

	for (seed = 1; seed <= SEEDS; seed++) {
		run(seed, &o);
		ASSERT_LT(0, o.accepted);
		EXPECT_EQ(0, o.check_failures);
		EXPECT_EQ(o.accepted, o.delivered);
		EXPECT_EQ(0, o.order_errors);
		EXPECT_EQ(0, o.g.in_flight_msgs);
		EXPECT_EQ(o.accepted, o.g.rx_msgs[0] + o.g.rx_msgs[1]);
		if (o.check_failures || o.accepted != o.delivered)
			TH_LOG("seed %llu", (unsigned long long)seed);
	}
}

TEST(deterministic)
{
	static struct outcome a, b;
	u64 seed;

	for (seed = 100; seed < 100 + SEEDS / 4; seed++) {
		run(seed, &a);
		run(seed, &b);
		ASSERT_LT(0, a.delivered);
		EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	}
}

TEST_HARNESS_MAIN
