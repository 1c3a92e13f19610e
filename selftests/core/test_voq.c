// SPDX-License-Identifier: GPL-2.0
/*
 * test_voq.c - the arbiter of a node's input over its VQ_W (voq_arbiter,
 * voq_timeout_ns; docs/model.md "The input's arbiter"), on the crossbar
 * (one switch), a fat tree (switch.c) and a fat tree through the flit
 * router (flit.c).
 *
 * Zydallis's arbiter (Ch. 4, Table 10) serves the longest mini-queue,
 * ties to the highest index, unless a queue has timed out.  His golden
 * case: VOQ 7 holds 100 messages and VOQ 0 one; with no time-out VOQ 0
 * is the 101st served (7 drains to one, then wins the tie of one against
 * one), with a time-out T it is served at the first arbitration after
 * its message has waited T.
 */
#include "harness.h"
#include "sim.h"

enum { XBAR, FTREE, FLIT, NKIND };

static const char *const kind_name[NKIND] = { "crossbar", "fattree",
					      "fattree vc_count=1" };

/*
 * @kind with zero delays, a 1 Tb/s uplink (a 128 B message is at the
 * switch 2 ns after the one before it) and a 128 B message crossing the
 * switch in 16 flits of 40 ns: while the first crosses, every later one
 * of a burst reaches VQ_W.  Buffers hold all of them; a message is one
 * worm.
 */
static void config(struct hn_config *c, int kind, u32 arb, u64 timeout)
{
	if (kind == XBAR)
		sim_config_zero(c, 16, 0);
	else
		sim_config_ft(c, 2, 4, 0);
	c->link_mbps = 1000000;
	c->wh_first_ns = 40;
	c->wh_flit_ns = 40;
	c->flit_bytes = 8;
	c->worm_bytes = 2048;
	c->max_msg_bytes = 2048;
	c->nic_buf_bytes = 65536;
	c->sw_buf_bytes = 65536;
	c->rx_buf_bytes = 65536;
	if (kind == FLIT) {
		c->vc_count = 1;
		c->vc_flits = 256;
	}
	c->voq_arbiter = arb;
	c->voq_timeout_ns = timeout;
}

/*
 * Node 3 sends @n[i] messages of @len[i] bytes to @dst[i], in that order,
 * and the engine drains: 0, or what went wrong.
 */
static const char *burst(struct sim *s, const u32 *dst, const u32 *n,
			 const u32 *len, u32 k)
{
	u32 i, j;

	for (i = 0; i < k; i++)
		for (j = 0; j < n[i]; j++)
			if (sim_send(s, 3, dst[i], len[i]))
				return "refused";
	sim_drain(s, 10000000);
	if (hn_busy(s->e))
		return "not drained";
	if (s->order_errors)
		return "out of order";
	return hn_check(s->e, NULL) ? "hn_check" : NULL;
}

/* The deliveries' destinations in order, as text: "6 4 1 4 1". */
static const char *order(struct sim *s)
{
	static char buf[256];
	u32 i, o = 0;

	buf[0] = 0;
	for (i = 0; i < s->nlog && o + 12 < sizeof(buf); i++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%u", i ? " " : "",
			      s->log[i]->m.dst);
	return buf;
}

/* Where the message to @dst came in the deliveries, or -1. */
static int place_of(struct sim *s, u32 dst)
{
	u32 i;

	for (i = 0; i < s->nlog; i++)
		if (s->log[i]->m.dst == dst)
			return (int)i;
	return -1;
}

static const u32 gold_dst[2] = { 7, 0 }, gold_n[2] = { 100, 1 },
		 gold_len[2] = { 128, 128 };

TEST(golden_longest_queue_first)
{
	struct hn_config c;
	struct sim s;
	int kind;

	for (kind = 0; kind < NKIND; kind++) {
		TH_LOG("%s", kind_name[kind]);
		/* no time-out: VOQ 0 is the 101st */
		config(&c, kind, HN_VOQ_LQF, 0);
		ASSERT_EQ(0, sim_init(&s, &c));
		EXPECT_EQ(NULL, burst(&s, gold_dst, gold_n, gold_len, 2));
		EXPECT_EQ(101, s.nlog);
		EXPECT_EQ(100, place_of(&s, 0));
		sim_fini(&s);
		/* round-robin: VOQ 0 comes right after the first to 7 */
		config(&c, kind, HN_VOQ_RR, 0);
		ASSERT_EQ(0, sim_init(&s, &c));
		EXPECT_EQ(NULL, burst(&s, gold_dst, gold_n, gold_len, 2));
		EXPECT_EQ(1, place_of(&s, 0));
		sim_fini(&s);
	}
}

/*
 * With a time-out of T, VOQ 0 starts at the first arbitration at or
 * after its message has waited T at the switch: one 640 ns message
 * time at most after that, never before.  VOQ 7, served all along,
 * never times out.
 */
TEST(golden_timeout)
{
	static const u64 T[] = { 16, 500, 1000, 5000 };
	struct hn_config c;
	struct tmsg *m;
	struct sim s;
	u64 start;
	int kind;
	u32 i;

	for (kind = 0; kind < NKIND; kind++)
	for (i = 0; i < ARRAY_SIZE(T); i++) {
		TH_LOG("%s, time-out %llu ns", kind_name[kind],
		       (unsigned long long)T[i]);
		config(&c, kind, HN_VOQ_LQF, T[i]);
		ASSERT_EQ(0, sim_init(&s, &c));
		EXPECT_EQ(NULL, burst(&s, gold_dst, gold_n, gold_len, 2));
		ASSERT_LE(0, place_of(&s, 0));
		m = s.log[place_of(&s, 0)];
		/* each message takes 640 ns of the switch */
		start = m->m.t_deliver - 640;
		EXPECT_LE(m->m.t_ready + T[i], start);
		EXPECT_GT(m->m.t_ready + T[i] + 640, start);
		EXPECT_GT(100, place_of(&s, 0));
		sim_fini(&s);
	}
}

/*
 * Node 3 first sends 1 KiB to 6 (it holds the input while the rest
 * reach VQ_W), then two messages each to 1 and 4: lqf serves the tie of
 * two against two, then of one against one, to the highest destination;
 * round-robin goes on after 6 (7, 0, 1, ...).  bytes serves 1 KiB to 4
 * before three 128 B messages to 1, which lqf serves first.
 */
TEST(ties_and_bytes)
{
	static const u32 d1[3] = { 6, 1, 4 }, n1[3] = { 1, 2, 2 },
			 l1[3] = { 1024, 128, 128 };
	static const u32 d2[3] = { 6, 1, 4 }, n2[3] = { 1, 3, 1 },
			 l2[3] = { 1024, 128, 1024 };
	static const struct {
		const u32 *dst, *n, *len;
		u32 arb;
		const char *want;
	} t[] = {
		{ d1, n1, l1, HN_VOQ_LQF, "6 4 1 4 1" },
		{ d1, n1, l1, HN_VOQ_BYTES, "6 4 1 4 1" },
		{ d1, n1, l1, HN_VOQ_RR, "6 1 4 1 4" },
		{ d2, n2, l2, HN_VOQ_LQF, "6 1 1 4 1" },
		{ d2, n2, l2, HN_VOQ_BYTES, "6 4 1 1 1" },
		{ d2, n2, l2, HN_VOQ_RR, "6 1 4 1 1" },
	};
	struct hn_config c;
	struct sim s;
	int kind;
	u32 i;

	for (kind = 0; kind < NKIND; kind++)
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		TH_LOG("%s, case %u", kind_name[kind], i);
		config(&c, kind, t[i].arb, 0);
		ASSERT_EQ(0, sim_init(&s, &c));
		EXPECT_EQ(NULL, burst(&s, t[i].dst, t[i].n, t[i].len, 3));
		EXPECT_STREQ(t[i].want, order(&s));
		sim_fini(&s);
	}
}

/*
 * The arbiter changes live (hn_set_live()) every 2 us while every node
 * sends to random destinations: every message is delivered once, in
 * order per stream, and the engine's invariants hold at each change.
 */
TEST(live_change_loses_nothing)
{
	static const struct { u32 arb; u64 timeout; } step[] = {
		{ HN_VOQ_LQF, 0 }, { HN_VOQ_BYTES, 300 }, { HN_VOQ_RR, 0 },
		{ HN_VOQ_LQF, 100 }, { HN_VOQ_RR, 50 }, { HN_VOQ_BYTES, 0 },
	};
	struct hn_config c, n;
	u64 seed = 11, sent;
	struct sim s;
	u32 i, u, round;
	int kind;

	for (kind = 0; kind < NKIND; kind++) {
		TH_LOG("%s", kind_name[kind]);
		config(&c, kind, HN_VOQ_RR, 0);
		c.link_mbps = 6400;
		ASSERT_EQ(0, sim_init(&s, &c));
		sent = 0;
		for (round = 0; round < 60; round++) {
			for (u = 0; u < c.nodes; u++)
				if (!sim_send(&s, u, hn_rand_below(&seed, c.nodes),
					      64 + 64 * hn_rand_below(&seed, 8)))
					sent++;
			hn_run_until(s.e, hn_now(s.e) + 2000);
			if (round % 10 == 9) {
				n = c;
				i = round / 10;
				n.voq_arbiter = step[i].arb;
				n.voq_timeout_ns = step[i].timeout;
				ASSERT_EQ(0, hn_set_live(s.e, &n, NULL));
				EXPECT_EQ(0, hn_check(s.e, NULL));
			}
		}
		sim_drain(&s, 100000000);
		EXPECT_FALSE(hn_busy(s.e));
		EXPECT_LT(100, sent);
		EXPECT_EQ(sent, s.nlog);
		EXPECT_EQ(0, s.order_errors);
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

TEST_HARNESS_MAIN
