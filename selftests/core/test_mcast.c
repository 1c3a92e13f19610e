// SPDX-License-Identifier: GPL-2.0
/*
 * test_mcast.c - Zydallis's multicast (mcast.c; docs/model.md
 * "Multicast"), his acceptance of C5.2: three members of one group cost
 * one injection and arrive as three messages, each naming its member;
 * members in two groups cost two; a broadcast reaches every other node
 * once; Table 7's processor codes are exactly his sets.  Bad entries are
 * refused with the entry named, and the copies go all or none.
 */
#include <linux/hybridnet.h>
#include "harness.h"
#include "sim.h"

/* Multicast a message of @len from @src to the @n entries @ent. */
static int mcast(struct sim *s, u32 src, const u32 *ent, u32 n, u32 len,
		 u32 *sent)
{
	u32 dst[HN_MAX_NODES], groups, i;
	struct hn_msg *m[HN_MAX_NODES];
	struct tmsg *t;
	int rc, count;

	*sent = 0;
	count = hn_mcast_members(ent, n, src, s->cfg.nodes, dst, &groups,
				 NULL);
	if (count < 0)
		return count;
	for (i = 0; i < (u32)count; i++) {
		t = calloc(1, sizeof(*t));
		t->m.src = src;
		t->m.dst = dst[i];
		t->m.len = len;
		t->m.t_inject = hn_now(s->e);
		t->seq = s->next_seq[sim_seq_at(s, src, dst[i], s->prio)];
		m[i] = &t->m;
	}
	rc = hn_inject_mcast(s->e, m, count, groups, sent, NULL);
	for (i = 0; i < (u32)count; i++) {
		if (i < *sent)
			s->next_seq[sim_seq_at(s, src, dst[i], s->prio)]++;
		else
			free(m[i]);
	}
	return rc;
}

/* Deliveries from @src: a bitmap of who got one, 0 if any got two. */
static u64 got(const struct sim *s, u32 src)
{
	u64 set = 0;
	u32 i;

	for (i = 0; i < s->nlog; i++) {
		if (s->log[i]->m.src != src)
			continue;
		if (set & 1ULL << s->log[i]->m.dst)
			return 0;
		set |= 1ULL << s->log[i]->m.dst;
	}
	return set;
}

static void gstats(struct sim *s, struct hn_gstats *g)
{
	hn_stats_global(s->e, g);
}

/* [Z:543]: (0,0) to (0,1), (0,2), (0,3): port 0's bitmap 00001110 */
TEST(three_in_one_group_one_injection)
{
	const u32 ent[] = { HYBRIDNET_MCAST(0, 0x0e) };
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	u32 sent, i;

	sim_config_ft(&c, 2, 4, 0);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, mcast(&s, 0, ent, 1, 64, &sent));
	EXPECT_EQ(3, sent);
	sim_drain(&s, 1000000);
	EXPECT_EQ(0x0eULL, got(&s, 0));
	ASSERT_EQ(3, s.nlog);
	for (i = 0; i < s.nlog; i++)
		EXPECT_EQ(i + 1, s.log[i]->m.dst);	/* the member, no bitmap */
	gstats(&s, &g);
	EXPECT_EQ(1, g.mcast_msgs);
	EXPECT_EQ(1, g.mcast_injections);
	EXPECT_EQ(3, g.mcast_copies);
	EXPECT_EQ(3, g.tx_msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(0, s.order_errors);
	sim_fini(&s);
}

/* [Z:545]: a member behind another port, (0,25), goes separately */
TEST(two_groups_two_injections)
{
	const u32 ent[] = { HYBRIDNET_MCAST(0, 0x0e),
			    HYBRIDNET_MCAST(3, 0x02) };
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	u32 sent;

	sim_config_zero(&c, 32, 0);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, mcast(&s, 0, ent, 2, 100, &sent));
	EXPECT_EQ(4, sent);
	sim_drain(&s, 1000000);
	EXPECT_EQ(0x0eULL | 1ULL << 25, got(&s, 0));
	gstats(&s, &g);
	EXPECT_EQ(1, g.mcast_msgs);
	EXPECT_EQ(2, g.mcast_injections);
	EXPECT_EQ(4, g.mcast_copies);
	sim_fini(&s);
}

/* [Z:589]: from every node of the crossbar and of FT(2,4), once each */
TEST(broadcast_every_node_once)
{
	const u32 ent[] = { HYBRIDNET_MCAST_ALL };
	struct hn_config c[2];
	struct hn_gstats g;
	u32 i, u, sent, copies = 0, groups = 0;
	struct sim s;

	sim_config_zero(&c[0], 9, 0);		/* 2 groups, one of 1 */
	sim_config_ft(&c[1], 2, 4, 0);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, sim_init(&s, &c[i]));
		copies = groups = 0;
		for (u = 0; u < c[i].nodes; u++) {
			ASSERT_EQ(0, mcast(&s, u, ent, 1, 40, &sent));
			EXPECT_EQ(c[i].nodes - 1, sent);
			copies += sent;
			/* node 8 alone in its group sends to one group */
			groups += i == 0 && u == 8 ? 1 : 2;
		}
		sim_drain(&s, 10000000);
		for (u = 0; u < c[i].nodes; u++)
			EXPECT_EQ(((1ULL << c[i].nodes) - 1) & ~(1ULL << u),
				  got(&s, u)) TH_LOG("node %u", u);
		gstats(&s, &g);
		EXPECT_EQ(c[i].nodes, g.mcast_msgs);
		EXPECT_EQ(copies, g.mcast_copies);
		EXPECT_EQ(groups, g.mcast_injections);
		EXPECT_EQ(0, s.order_errors);
		sim_fini(&s);
	}
}

/* Table 7 [Z:569-577]: each code, exactly its processors */
TEST(table7_codes)
{
	static const u8 want[8][8] = {
		{ 0, 1, 2, 3, 4, 5, 6, 7 }, { 0, 2, 4, 6 }, { 1, 3, 5, 7 },
		{ 0, 1, 2, 4 }, { 0, 1, 2, 3 }, { 4, 5, 6, 7 },
		{ 0, 1, 4, 5 }, { 2, 3, 6, 7 },
	};
	u32 code, i, ent, dst[8], groups;
	u8 bits;
	int n;

	for (code = 0; code < 8; code++) {
		bits = HYBRIDNET_MCAST_CODE(code);
		ent = HYBRIDNET_MCAST(1, bits);
		n = hn_mcast_members(&ent, 1, 0, 16, dst, &groups, NULL);
		ASSERT_EQ(code ? 4 : 8, n) TH_LOG("code %u", code);
		for (i = 0; i < (u32)n; i++)
			EXPECT_EQ(8 + want[code][i], dst[i]);
		EXPECT_EQ(1, groups);
	}
}

TEST(bad_entries_refused_with_the_entry)
{
	static const struct {
		u32 nodes, n, ent[3], index;
		const char *why;
	} bad[] = {
		{ 16, 0, { 0 }, HN_NONE, "destination entries" },
		{ 16, 1, { HYBRIDNET_MCAST(2, 1) }, 0, "out of range" },
		{ 13, 2, { HYBRIDNET_MCAST(0, 1), HYBRIDNET_MCAST(1, 0x20) },
		  1, "out of range" },
		{ 16, 1, { HYBRIDNET_MCAST(1, 0) }, 0, "no member" },
		{ 16, 2, { HYBRIDNET_MCAST(1, 1), HYBRIDNET_MCAST(1, 2) }, 1,
		  "two multicast entries" },
		{ 16, 2, { HYBRIDNET_MCAST(0, 2), HYBRIDNET_MCAST_ALL }, 1,
		  "only one" },
		{ 1, 1, { HYBRIDNET_MCAST_ALL }, HN_NONE, "no other node" },
	};
	u32 dst[HN_MAX_NODES], groups, i;
	struct hn_err err;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&err, 0, sizeof(err));
		EXPECT_EQ(-EINVAL, hn_mcast_members(bad[i].ent, bad[i].n, 0,
						    bad[i].nodes, dst, &groups,
						    &err)) TH_LOG("case %u", i);
		ASSERT_NE(NULL, err.msg);
		EXPECT_NE(NULL, strstr(err.msg, bad[i].why)) TH_LOG("%s", err.msg);
		if (bad[i].index != HN_NONE)
			EXPECT_EQ(bad[i].index, err.index);
	}
	memset(&err, 0, sizeof(err));
	EXPECT_EQ(-EINVAL, hn_mcast_members(dst, HN_MCAST_MAX + 1, 0, 16, dst,
					    &groups, &err));
	/* the last group of 4096 nodes, every member */
	dst[0] = HYBRIDNET_MCAST(HN_MCAST_MAX - 1, 0xff);
	EXPECT_EQ(8, hn_mcast_members(dst, 1, 0, HN_MAX_NODES, dst + 1,
				      &groups, NULL));
}

/* EMSGSIZE, EAGAIN, EHOSTUNREACH: nothing goes, nothing is counted */
TEST(all_or_none)
{
	const u32 ent[] = { HYBRIDNET_MCAST(0, 0xfe) };	/* 7 members */
	struct hn_err err = { 0 };
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	u32 sent;

	sim_config_ft(&c, 2, 4, 0);
	c.nic_buf_bytes = 1000;
	c.max_msg_bytes = 400;
	ASSERT_EQ(0, hn_config_check(&c, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, sim_init(&s, &c));
	EXPECT_EQ(-EMSGSIZE, mcast(&s, 0, ent, 1, 200, &sent));
	ASSERT_EQ(0, sim_send(&s, 0, 9, 400));
	EXPECT_EQ(-EAGAIN, mcast(&s, 0, ent, 1, 100, &sent));
	EXPECT_EQ(0, sent);
	ASSERT_EQ(0, hn_set_fault(s.e, false, 5, true, NULL, NULL));
	sim_drain(&s, 1000000);
	EXPECT_EQ(-EHOSTUNREACH, mcast(&s, 0, ent, 1, 100, &sent));
	EXPECT_EQ(0, sent);
	gstats(&s, &g);
	EXPECT_EQ(1, g.tx_msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(0, g.mcast_msgs + g.mcast_copies + g.mcast_injections);
	ASSERT_EQ(0, hn_set_fault(s.e, false, 5, false, NULL, NULL));
	EXPECT_EQ(0, mcast(&s, 0, ent, 1, 100, &sent));
	EXPECT_EQ(7, sent);
	sim_drain(&s, 2000000);
	EXPECT_EQ(0xfeULL | 1ULL << 9, got(&s, 0));
	sim_fini(&s);
}

TEST_HARNESS_MAIN
