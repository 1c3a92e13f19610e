// SPDX-License-Identifier: GPL-2.0
/*
 * test_errors.c - bad input to every public core function returns a
 * distinct error and changes nothing.
 */
#include "harness.h"
#include "sim.h"

/* Everything observable: statistics, circuits, time. */
struct snap {
	struct hn_gstats g;
	u32 out[4][8];
	u64 now;
};

static void take(struct hn_engine *e, struct snap *s)
{
	u32 k, u;

	memset(s, 0, sizeof(*s));
	hn_stats_global(e, &s->g);
	for (k = 0; k < 4; k++)
		for (u = 0; u < 8; u++)
			s->out[k][u] = hn_circuit(e, k, u);
	s->now = hn_now(e);
}

FIXTURE(eng) {
	struct sim s;
	struct snap before;
};

FIXTURE_SETUP(eng)
{
	struct hn_pair p[2] = { { 0, 1 }, { 1, 2 } };
	struct hn_config c;

	sim_config_zero(&c, 8, 4);
	ASSERT_EQ(0, sim_init(&self->s, &c));
	ASSERT_EQ(0, sim_preload1(&self->s, 0, p, 2));
	ASSERT_EQ(0, sim_send(&self->s, 0, 1, 100));
	ASSERT_EQ(0, sim_send(&self->s, 3, 4, 100));
	take(self->s.e, &self->before);
}

FIXTURE_TEARDOWN(eng)
{
	struct snap after;

	take(self->s.e, &after);
	EXPECT_EQ(0, memcmp(&self->before, &after, sizeof(after)));
	EXPECT_EQ(0, hn_check(self->s.e, NULL));
	sim_fini(&self->s);
}

TEST_F(eng, inject)
{
	struct hn_msg m = { .src = 0, .dst = 1, .len = 10 };
	struct hn_err err;

	m.src = 8;
	EXPECT_EQ(-EINVAL, hn_inject(self->s.e, &m, &err));
	EXPECT_STREQ("node out of range", err.msg);
	EXPECT_EQ(8, err.node);
	m.src = 0;
	m.dst = 99;
	EXPECT_EQ(-EINVAL, hn_inject(self->s.e, &m, &err));
	EXPECT_EQ(99, err.node);
	m.dst = 1;
	m.len = 0;
	EXPECT_EQ(-EINVAL, hn_inject(self->s.e, &m, &err));
	EXPECT_STREQ("empty message", err.msg);
	m.len = 8193;
	EXPECT_EQ(-EMSGSIZE, hn_inject(self->s.e, &m, &err));
	m.len = 10;
	m.t_inject = hn_now(self->s.e) + 1;
	EXPECT_EQ(-EINVAL, hn_inject(self->s.e, &m, &err));
	EXPECT_STREQ("injection time is in the future", err.msg);
}

TEST_F(eng, preload)
{
	struct hn_pair p[3] = { { 4, 5 }, { 6, 5 }, { 9, 1 } };
	struct hn_slot_cfg c = { .slot = 4, .npairs = 1, .pairs = p };
	struct hn_slot_cfg two[2] = { { 2, 1, p }, { 2, 1, &p[1] } };
	struct hn_err err;

	EXPECT_EQ(-EINVAL, hn_preload(self->s.e, &c, 1, &err));
	EXPECT_STREQ("slot out of range", err.msg);
	EXPECT_EQ(4, err.slot);
	c.slot = 3;
	c.npairs = 2;
	EXPECT_EQ(-EINVAL, hn_preload(self->s.e, &c, 1, &err));
	EXPECT_STREQ("two circuits to one output", err.msg);
	EXPECT_EQ(1, err.index);
	c.pairs = &p[2];
	c.npairs = 1;
	EXPECT_EQ(-EINVAL, hn_preload(self->s.e, &c, 1, &err));
	EXPECT_EQ(9, err.node);
	c.npairs = 9;
	EXPECT_EQ(-E2BIG, hn_preload(self->s.e, &c, 1, &err));
	EXPECT_EQ(-EINVAL, hn_preload(self->s.e, two, 2, &err));
	EXPECT_STREQ("slot given twice", err.msg);
	EXPECT_EQ(-EINVAL, hn_preload(self->s.e, two, 5, &err));
	p[0] = (struct hn_pair){ 1, 2 };	/* already in slot 0 */
	c.pairs = p;
	c.npairs = 1;
	EXPECT_EQ(-EEXIST, hn_preload(self->s.e, &c, 1, &err));
	EXPECT_STREQ("connection already in another slot", err.msg);
}

/*
 * A circuit from a node to itself carries nothing (no pattern sends to
 * itself): preloading or predicting one is refused, with the reason the
 * kernel's extack and hnctl -n give, word for word.
 */
TEST_F(eng, self_circuit)
{
	struct hn_pair p[2] = { { 2, 4 }, { 3, 3 } };
	struct hn_slot_cfg c = { .slot = 1, .npairs = 2, .pairs = p };
	struct hn_grant g[2];
	struct hn_err err = { 0 };
	char text[128];

	EXPECT_EQ(-EINVAL, hn_preload(self->s.e, &c, 1, &err));
	EXPECT_STREQ(HN_SELF_CIRCUIT, err.msg);
	EXPECT_EQ(1, err.index);
	hn_err_text(text, sizeof(text), -EINVAL, &err, "preload refused");
	EXPECT_STREQ("preload refused: a circuit cannot connect a node to itself (slot 1, node 3)",
		     text);
	memset(&err, 0, sizeof(err));
	EXPECT_EQ(-EINVAL, hn_predict(self->s.e, p, 2, g, &err));
	EXPECT_EQ(1, err.index);
	hn_err_text(text, sizeof(text), -EINVAL, &err, "predict refused");
	EXPECT_STREQ("predict refused: a circuit cannot connect a node to itself (node 3)",
		     text);
}

TEST_F(eng, predict_release)
{
	struct hn_pair r[2] = { { 2, 3 }, { 2, 8 } };
	struct hn_grant g[2];
	struct hn_err err;

	EXPECT_EQ(-EINVAL, hn_predict(self->s.e, r, 2, g, &err));
	EXPECT_EQ(1, err.index);
	EXPECT_EQ(8, err.node);
	EXPECT_EQ(-E2BIG, hn_predict(self->s.e, r, 65537, g, &err));
	EXPECT_EQ(-EINVAL, hn_release(self->s.e, 0, 8, &err));
	EXPECT_EQ(-ENOENT, hn_release(self->s.e, 0, 2, &err));
	EXPECT_STREQ("no such circuit", err.msg);
	EXPECT_EQ(-EINVAL, hn_release_slot(self->s.e, 4, &err));
}

TEST_F(eng, queries)
{
	struct hn_nstats ns;
	u64 row[2];

	EXPECT_EQ(-EINVAL, hn_stats_node(self->s.e, 8, &ns));
	EXPECT_EQ(-EINVAL, hn_pcs_row(self->s.e, 8, row, 2));
	EXPECT_EQ(-EINVAL, hn_pcs_row(self->s.e, 0, row, 0));
	EXPECT_EQ(HN_NONE, hn_circuit(self->s.e, 4, 0));
	EXPECT_EQ(HN_NONE, hn_circuit(self->s.e, 0, 8));
	EXPECT_EQ(HN_NONE, hn_pcs_slot(self->s.e, 8, 0));
	EXPECT_EQ(0, hn_slot_conns(self->s.e, 4));
	EXPECT_EQ(0, hn_nic_room(self->s.e, 8));
	hn_consume(self->s.e, 8, 100);	/* ignored */
}

TEST_F(eng, set_policy)
{
	struct hn_err err;

	EXPECT_EQ(-EINVAL, hn_set_policy(self->s.e, 1 << 9, 200, 200, &err));
	EXPECT_STREQ("policy must be fixed|ses|sla|preempt|slot|no-w|dynamic",
		     err.msg);
	EXPECT_EQ(-EINVAL, hn_set_policy(self->s.e, HN_POL_SES, 0, 200, &err));
	EXPECT_EQ(-EINVAL, hn_set_timeout(self->s.e, ~0ULL));
	/* 3 -> 4 waits for the wormhole slot */
	EXPECT_EQ(-EBUSY, hn_set_policy(self->s.e, HN_POL_SES | HN_POL_NO_W,
					200, 200, &err));
}

/*
 * Configurations: each bad field is refused with its own reason, the
 * range of its row in hn_fields.h or the rule it breaks.
 */
TEST(config)
{
	static const struct {
		size_t off;
		u64 val;
		const char *msg;
	} bad[] = {
#define F(f, v, m) { offsetof(struct hn_config, f), v, m }
		F(nodes, 1, "nodes must be 2..4096"),
		F(nodes, 4097, "nodes must be 2..4096"),
		F(k, 65, "slots must be 0..64"),
		F(link_mbps, 0, "link_mbps must be 1..1000000"),
		F(slot_p_ns, 0, "slot_p_ns must be 1..1000000000"),
		F(guard_ns, 200, "guard_ns must be shorter than every slot"),
		F(wire_ns, 2000000000, "wire_ns must be 0..1000000000"),
		F(wh_flit_ns, 0, "wh_flit_ns must be 1..1000000000"),
		F(wh_first_ns, 5, "need wh_flit_ns <= wh_first_ns"),
		F(flit_bytes, 0, "flit_bytes must be 1..4096"),
		F(worm_bytes, 4, "worm_bytes must be at least flit_bytes"),
		F(nic_buf_bytes, 0, "nic_buf_bytes must be 1..67108864"),
		F(sw_buf_bytes, 0, "sw_buf_bytes must be 1..67108864"),
		F(rx_buf_bytes, 0, "rx_buf_bytes must be 1..67108864"),
		F(max_msg_bytes, 0, "max_msg_bytes must be 1..1048576"),
		F(switching, 4, "switching must be wormhole|vct|saf|drop"),
		F(dilation, 0, "dilation must be 1..8"),
		F(dilation, 9, "dilation must be 1..8"),
		F(evict_count, 0, "evict_count must be 1..2147483647"),
		F(nic_buf_bytes, 100,
		  "every buffer must hold a max_msg_bytes message"),
#undef F
	};
	struct hn_config c;
	struct hn_err err;
	u32 i;
	int rc;

	hn_config_default(&c);
	ASSERT_EQ(0, hn_config_check(&c, &err));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hn_config_default(&c);
		*(u32 *)((char *)&c + bad[i].off) = (u32)bad[i].val;
		EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
		EXPECT_STREQ(bad[i].msg, err.msg);
		EXPECT_EQ(NULL, hn_create(&c, &sim_ops, NULL, &rc));
		EXPECT_EQ(-EINVAL, rc);
	}
	hn_config_default(&c);
	c.k = 0;
	c.policy = HN_POL_NO_W;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_EQ(-ENOENT, hn_config_profile(&c, "ding9"));
	EXPECT_EQ(NULL, hn_create(&c, NULL, NULL, &rc));
}

TEST_HARNESS_MAIN
