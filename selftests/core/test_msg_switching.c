// SPDX-License-Identifier: GPL-2.0
/*
 * test_msg_switching.c - a message's own switching (hn_msg.sw, flow.c):
 * Zydallis's router stores and forwards some messages and passes others
 * as worms.  A message of its own switching crosses every switch as it
 * would on a fabric of that switching, on each engine; mixed, they drain;
 * where the fabric cannot carry one it is refused at injection.
 */
#include "harness.h"
#include "fabric.h"

static u64 log_a[1 << 18], log_b[1 << 18];

/* @c with @sw's buffers: cut-through and SAF hold a worm per VC */
static void fabric(struct hn_config *c, u32 kind, u32 sw)
{
	switch (kind) {
	case 0:				/* the crossbar: wormhole.c, switch.c */
		hn_config_profile(c, "ding4");
		c->nodes = 8;
		c->k = 2;
		c->policy = 0;
		c->slot_p_ns = c->slot_w_ns = 300;
		break;
	case 1:				/* FT(2,4): switch.c */
		ft_config(c, "ding4", 2, 4);
		break;
	default:			/* FT(2,4): the flit router */
		ft_config(c, "ding4", 2, 4);
		c->vc_count = 2;
		c->vc_flits = 40;
		break;
	}
	c->max_msg_bytes = 300;
	c->sw_buf_bytes = 320;
	c->switching = sw;
}

/*
 * Every message stored and forwarded (or cut through) by its own choice
 * on a wormhole fabric arrives when it would on a fabric of that
 * switching, and a wormhole message on such a fabric as on a wormhole one.
 */
TEST(own_switching_is_the_fabrics)
{
	static const char *const what[] = { "crossbar", "FT(2,4)",
					    "FT(2,4) flit" };
	struct hn_config a, b;
	u32 kind, sw;
	int na, nb;

	for (kind = 0; kind < ARRAY_SIZE(what); kind++) {
		for (sw = HN_SWITCH_VCT; sw <= HN_SWITCH_SAF; sw++) {
			fabric(&a, kind, sw);
			fabric(&b, kind, HN_SWITCH_WORMHOLE);
			na = traffic(&a, 20000, 5 + sw, log_a,
				     ARRAY_SIZE(log_a));
			nb = traffic_sw(&b, (u8)(sw + 1), 20000, 5 + sw, log_b,
					ARRAY_SIZE(log_b));
			ASSERT_LT(500, na);
			ASSERT_EQ(na, nb);
			EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64)))
				TH_LOG("%s: switching %u by message", what[kind],
				       sw);
			/* and back: wormhole messages on this fabric */
			nb = traffic(&b, 20000, 5 + sw, log_b,
				     ARRAY_SIZE(log_b));
			fabric(&a, kind, sw);
			na = traffic_sw(&a, HN_SWITCH_WORMHOLE + 1, 20000,
					5 + sw, log_a, ARRAY_SIZE(log_a));
			ASSERT_EQ(na, nb);
			EXPECT_EQ(0, memcmp(log_a, log_b, na * sizeof(u64)))
				TH_LOG("%s: wormhole messages on switching %u",
				       what[kind], sw);
		}
	}
}

/*
 * Messages of every switching at once, each its own at random, on each
 * engine: traffic() checks the engine every 40 ns, the pairs' order and
 * that all drain.  The same traffic all by the fabric's switching
 * arrives otherwise: SAF messages cost more than wormhole ones.
 */
TEST(mixed_switchings_drain)
{
	struct hn_config c;
	u32 kind;
	int n, nw;

	for (kind = 0; kind < 3; kind++) {
		fabric(&c, kind, HN_SWITCH_WORMHOLE);
		n = traffic_sw(&c, HN_SW_MIXED, 20000, 9, log_a,
			       ARRAY_SIZE(log_a));
		nw = traffic(&c, 20000, 9, log_b, ARRAY_SIZE(log_b));
		ASSERT_LT(500, n) TH_LOG("kind %u", kind);
		ASSERT_LT(500, nw);
		EXPECT_TRUE(n != nw || memcmp(log_a, log_b, n * sizeof(u64)));
	}
}

/*
 * On an idle path of five switches of FT(3,4), a worm of a message stored
 * and forwarded by its own choice on a wormhole fabric: Duato's SAF
 * latency, above his wormhole one.
 */
TEST(idle_saf_message_is_duatos_saf)
{
	struct hn_config c;
	struct sim s;
	u32 f[1], len;
	u64 lat;

	ft_config(&c, "ding4", 3, 4);
	len = c.worm_bytes < 256 ? c.worm_bytes : 256;
	ASSERT_EQ(0, sim_init(&s, &c));
	s.sw = HN_SWITCH_SAF + 1;
	ASSERT_EQ(0, sim_send(&s, 0, 63, len));
	sim_drain(&s, 1000000);
	ASSERT_EQ(1u, s.nlog);
	lat = s.log[0]->m.t_deliver - s.log[0]->m.t_inject;
	sim_fini(&s);
	f[0] = len / c.flit_bytes;
	EXPECT_EQ(duato(&c, HN_SWITCH_SAF, 6, f, 1), lat);
	EXPECT_LT(duato(&c, HN_SWITCH_WORMHOLE, 6, f, 1), lat);
}

/* Inject a message of switching @sw into @s: hn_inject()'s result. */
static int send_sw(struct sim *s, u32 len, u8 sw, struct hn_err *err)
{
	struct tmsg *t = calloc(1, sizeof(*t));
	int rc;

	t->m.dst = 1;
	t->m.len = len;
	t->m.sw = sw;
	t->m.t_inject = hn_now(s->e);
	rc = hn_inject(s->e, &t->m, err);
	if (rc)
		free(t);
	return rc;
}

/* Where the fabric cannot carry a message so, it is refused, with why. */
TEST(refused_where_the_fabric_cannot)
{
	struct hn_config c;
	struct hn_err err;
	struct sim s;

	fabric(&c, 2, HN_SWITCH_WORMHOLE);
	c.vc_flits = 4;			/* 4 flits: less than a worm */
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EINVAL, send_sw(&s, 200, HN_SWITCH_SAF + 1, &err));
	EXPECT_NE(NULL, strstr(err.msg, "buffers of a worm"));
	EXPECT_EQ(-EINVAL, send_sw(&s, 200, HN_SWITCH_VCT + 1, &err));
	EXPECT_EQ(-EINVAL, send_sw(&s, 200, HN_SWITCH_SAF + 2, &err));
	EXPECT_NE(NULL, strstr(err.msg, "wormhole, vct or saf"));
	/* a worm the buffers hold goes */
	EXPECT_EQ(0, send_sw(&s, 4 * c.flit_bytes, HN_SWITCH_SAF + 1, &err));
	EXPECT_EQ(0, send_sw(&s, 200, HN_SWITCH_WORMHOLE + 1, &err));
	sim_drain(&s, 1000000);
	EXPECT_EQ(2u, s.nlog);
	sim_fini(&s);

	ft_config(&c, "ding4", 2, 4);
	c.switching = HN_SWITCH_DROP;
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EINVAL, send_sw(&s, 10, HN_SWITCH_WORMHOLE + 1, &err));
	EXPECT_NE(NULL, strstr(err.msg, "switching drop"));
	EXPECT_EQ(0, send_sw(&s, 10, 0, &err));
	sim_drain(&s, 1000000);
	EXPECT_EQ(1u, s.nlog);
	sim_fini(&s);
}

TEST_HARNESS_MAIN
