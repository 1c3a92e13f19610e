// SPDX-License-Identifier: GPL-2.0
/*
 * test_cfg_text.c - the topology as text (kmod/core/cfg_text.c): what
 * reads, what it sets, that it prints back what it read, that every bad
 * text is refused with a message and changes nothing; and what
 * hn_config_check() makes of a topology, a switching technique and an
 * up-port choice.
 */
#include "harness.h"
#include "topo.h"		/* enum hn_upsel */
#include "cfg_text.h"

static const struct {
	const char *text, *back;	/* back: what it prints */
	u32 topology, levels, width, nodes;	/* nodes 0: unchanged */
} good[] = {
	{ "crossbar", "crossbar", HN_TOPO_CROSSBAR, 0, 0, 0 },
	{ "fattree:3,4", "fattree:3,4", HN_TOPO_FATTREE, 3, 4, 64 },
	{ "fattree:1,2", "fattree:1,2", HN_TOPO_FATTREE, 1, 2, 2 },
	{ "fattree:12,2", "fattree:12,2", HN_TOPO_FATTREE, 12, 2, 4096 },
	{ "fattree:2,64", "fattree:2,64", HN_TOPO_FATTREE, 2, 64, 4096 },
	{ "fattree:03,008", "fattree:3,8", HN_TOPO_FATTREE, 3, 8, 512 },
	{ "mesh:8x8", "mesh:8x8", HN_TOPO_MESH, 2, 8, 64 },
	{ "mesh:16", "mesh:16", HN_TOPO_MESH, 1, 16, 16 },
	{ "torus:4x4x4", "torus:4x4x4", HN_TOPO_TORUS, 3, 4, 64 },
	{ "torus:04x4", "torus:4x4", HN_TOPO_TORUS, 2, 4, 16 },
	{ "torus:4x4x4x4x4", "torus:4x4x4x4x4", HN_TOPO_TORUS, 5, 4, 1024 },
	{ "gh:2,8", "gh:2,8", HN_TOPO_GH, 2, 8, 64 },
	{ "gh:12,2", "gh:12,2", HN_TOPO_GH, 12, 2, 4096 },
};

TEST(parse_and_print)
{
	char buf[16], again[16];	/* HN_TEXT_MAX + 1 */
	struct hn_config c, d;
	struct hn_err err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		hn_config_default(&c);
		c.topology = HN_TOPO_FATTREE;	/* crossbar clears these */
		c.levels = 9;
		c.width = 9;
		ASSERT_EQ(0, hn_topology_parse(&c, good[i].text, &err))
			TH_LOG("%s: %s", good[i].text, err.msg);
		EXPECT_EQ(good[i].topology, c.topology) TH_LOG("%s", good[i].text);
		EXPECT_EQ(good[i].levels, c.levels) TH_LOG("%s", good[i].text);
		EXPECT_EQ(good[i].width, c.width) TH_LOG("%s", good[i].text);
		EXPECT_EQ(good[i].nodes ? good[i].nodes : 64, c.nodes)
			TH_LOG("%s", good[i].text);
		EXPECT_STREQ(good[i].back,
			     hn_topology_print(&c, buf, sizeof(buf)));
		/* what it prints reads back to the same configuration */
		d = c;
		ASSERT_EQ(0, hn_topology_parse(&d, buf, &err));
		EXPECT_EQ(0, memcmp(&c, &d, sizeof(c))) TH_LOG("%s", buf);
		EXPECT_STREQ(buf, hn_topology_print(&d, again, sizeof(again)));
	}
}

TEST(print_truncates)
{
	struct hn_config c;
	char buf[8];

	hn_config_default(&c);
	c.topology = HN_TOPO_FATTREE;
	c.levels = 4294967295u;
	c.width = 4294967295u;
	EXPECT_STREQ("fattree", hn_topology_print(&c, buf, sizeof(buf)));
	EXPECT_STREQ("fat", hn_topology_print(&c, buf, 4));
	buf[0] = 'x';
	hn_topology_print(&c, buf, 0);
	EXPECT_EQ('x', buf[0]);
}

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "", "topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K" },
	{ "ring:8", "topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K" },
	{ "Crossbar", "topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K" },
	{ "crossbar ", "topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K" },
	{ "fattree", "topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K" },
	{ "crossbar:32", "topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K" },
	{ "fattree:3", "topology fattree:L,W: L and W must be numbers" },
	{ "fattree:3,", "topology fattree:L,W: L and W must be numbers" },
	{ "fattree:,4", "topology fattree:L,W: L and W must be numbers" },
	{ "fattree:3,4,5", "topology fattree:L,W: L and W must be numbers" },
	{ "fattree:3,4x", "topology fattree:L,W: L and W must be numbers" },
	{ "fattree:-1,4", "topology fattree:L,W: L and W must be numbers" },
	{ "fattree:4294967296,2",
	  "topology fattree:L,W: L and W must be numbers" },
	{ "fattree:3,1", "topology fattree:L,W: W, the width, must be 2..64" },
	{ "fattree:3,65", "topology fattree:L,W: W, the width, must be 2..64" },
	{ "fattree:0,4",
	  "topology fattree:L,W: L, the levels, must be at least 1" },
	{ "fattree:13,2",
	  "topology fattree:L,W: W^L, the nodes, must be at most 4096" },
	{ "fattree:4,16",
	  "topology fattree:L,W: W^L, the nodes, must be at most 4096" },
	{ "fattree:4294967295,64",
	  "topology fattree:L,W: W^L, the nodes, must be at most 4096" },
	{ "mesh:", "topology mesh:KxK, torus:KxK: each K must be a number" },
	{ "mesh:4x", "topology mesh:KxK, torus:KxK: each K must be a number" },
	{ "torus:4xx4",
	  "topology mesh:KxK, torus:KxK: each K must be a number" },
	{ "torus:4,4",
	  "topology mesh:KxK, torus:KxK: each K must be a number" },
	{ "mesh:4x8",
	  "topology mesh:KxK, torus:KxK: one K for every dimension" },
	{ "mesh:1x1",
	  "topology mesh, torus, gh: K 2 or more, 1..12 dimensions" },
	{ "gh:0,4",
	  "topology mesh, torus, gh: K 2 or more, 1..12 dimensions" },
	{ "gh:13,2",
	  "topology mesh, torus, gh: K 2 or more, 1..12 dimensions" },
	{ "gh:2", "topology gh:N,K: N and K must be numbers" },
	{ "gh:2,x", "topology gh:N,K: N and K must be numbers" },
	{ "torus:65x65",
	  "topology mesh, torus, gh: K^n, the nodes, at most 4096" },
	{ "gh:4,9",
	  "topology mesh, torus, gh: K^n, the nodes, at most 4096" },
	{ "gh:1,4294967295",
	  "topology mesh, torus, gh: K^n, the nodes, at most 4096" },
};

TEST(refused)
{
	struct hn_config c, before;
	struct hn_err err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		hn_config_default(&c);
		before = c;
		err.msg = NULL;
		EXPECT_EQ(-EINVAL, hn_topology_parse(&c, bad[i].text, &err))
			TH_LOG("'%s'", bad[i].text);
		EXPECT_STREQ(bad[i].msg, err.msg ? err.msg : "(none)")
			TH_LOG("'%s'", bad[i].text);
		EXPECT_EQ(0, memcmp(&before, &c, sizeof(c)))
			TH_LOG("'%s' changed the configuration", bad[i].text);
	}
}

/*
 * A fat tree's dilation level by level: "D,D,.." from the nodes' links
 * up, 4 bits a level, printed back as read; "0" and "" clear it; a
 * number past 8, a 0 in the list, a ninth level or junk are refused,
 * changing nothing.
 */
TEST(dilation_levels)
{
	static const struct {
		const char *text, *back;
		u32 v;
	} ok[] = {
		{ "2,2,3,5", "2,2,3,5", 0x5322 },
		{ "8", "8", 0x8 },
		{ "1,2,3,4,5,6,7,8", "1,2,3,4,5,6,7,8", 0x87654321 },
		{ "02,1", "2,1", 0x12 },
		{ "0x5322", "2,2,3,5", 0x5322 },
		{ "0", "0", 0 },
		{ "", "0", 0 },
	};
	static const char *const no[] = { "9", "2,0", "1,2,3,4,5,6,7,8,1",
					  "2,", ",2", "2;2", "a", "-1",
					  "0x123456789", "0xg" };
	struct hn_config c, before;
	struct hn_err err;
	char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		hn_config_default(&c);
		c.dil_levels = 0x11;
		ASSERT_EQ(0, hn_dil_levels_parse(&c, ok[i].text, &err))
			TH_LOG("%s: %s", ok[i].text, err.msg);
		EXPECT_EQ(ok[i].v, c.dil_levels) TH_LOG("%s", ok[i].text);
		EXPECT_STREQ(ok[i].back, hn_dil_levels_print(&c, buf,
							     sizeof(buf)));
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		hn_config_default(&c);
		c.dil_levels = 0x11;
		before = c;
		EXPECT_EQ(-EINVAL, hn_dil_levels_parse(&c, no[i], &err))
			TH_LOG("'%s'", no[i]);
		EXPECT_NE(NULL, strstr(err.msg, "dilation_levels"));
		EXPECT_EQ(0, memcmp(&before, &c, sizeof(c))) TH_LOG("'%s'", no[i]);
	}
	c.dil_levels = 0x5322;
	EXPECT_STREQ("2,2", hn_dil_levels_print(&c, buf, 4));
	EXPECT_EQ(3, hn_dil_at(&c, 2));
	EXPECT_EQ(5, hn_dil_max(&c));
	c.dil_levels = 0;
	c.dilation = 2;
	EXPECT_EQ(2, hn_dil_at(&c, 2));
	EXPECT_EQ(2, hn_dil_max(&c));
}

/*
 * The direct networks take predictive slots (their circuits on the
 * topology's route) but not the crossbar's second level, and a GH's
 * switch has at most 128 ports.
 */
TEST(direct_checks)
{
	struct hn_config c;
	struct hn_err err;

	hn_config_default(&c);
	ASSERT_EQ(0, hn_topology_parse(&c, "torus:4x4x4", &err));
	EXPECT_EQ(0, hn_config_check(&c, &err)) TH_LOG("%s", err.msg);
	c.predict_algo = HN_PREDICT_SECOND_LEVEL;
	EXPECT_EQ(-EOPNOTSUPP, hn_config_check(&c, &err));
	EXPECT_STREQ(HN_SECOND_XBAR, err.msg);
	c.predict_algo = 0;
	c.k = 0;
	c.policy = 0;
	EXPECT_EQ(0, hn_config_check(&c, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, hn_topology_parse(&c, "gh:1,256", &err));
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("gh:N,K: a switch has N (K - 1) + 1 ports, at most 128",
		     err.msg);
	ASSERT_EQ(0, hn_topology_parse(&c, "gh:1,128", &err));
	EXPECT_EQ(0, hn_config_check(&c, &err)) TH_LOG("%s", err.msg);
	/* 127 ports a switch, but 520192 in all: more than events index */
	ASSERT_EQ(0, hn_topology_parse(&c, "gh:2,64", &err));
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("multistage fabric: at most 131072 switch ports (65536 through the flit router, vc_count): a smaller fabric",
		     err.msg);
	c.nodes = 32;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
}

/* what the text sets, hn_config_check() takes: the crossbar */
TEST(crossbar_checks)
{
	struct hn_config c;
	struct hn_err err;

	hn_config_default(&c);
	c.nodes = 32;
	ASSERT_EQ(0, hn_topology_parse(&c, "fattree:3,4", &err));
	EXPECT_EQ(64, c.nodes);
	ASSERT_EQ(0, hn_topology_parse(&c, "crossbar", &err));
	EXPECT_EQ(0, hn_config_check(&c, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(64, c.nodes);
	EXPECT_EQ(0, c.levels);
	EXPECT_EQ(0, c.width);
}

/*
 * What the text sets, hn_config_check() takes: a fat tree of W^L nodes
 * (with no wormhole slot, see below); one whose node count is not W^L it
 * refuses.
 */
TEST(fattree_checks)
{
	struct hn_config c;
	struct hn_err err;

	hn_config_default(&c);
	c.policy |= HN_POL_NO_W;
	ASSERT_EQ(0, hn_topology_parse(&c, "fattree:3,4", &err));
	EXPECT_EQ(0, hn_config_check(&c, &err)) TH_LOG("%s", err.msg);
	c.nodes = 32;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	EXPECT_STREQ("a fat tree FT(l, w) has w^l nodes: nodes must be width^levels",
		     err.msg);
}

/* every up-port choice is a configuration; a fourth is not */
TEST(up_select)
{
	struct hn_config c;
	struct hn_err err;
	u32 u;

	hn_config_default(&c);
	for (u = HN_UPSEL_DET; u <= HN_UPSEL_ADAPTIVE; u++) {
		c.up_select = u;
		EXPECT_EQ(0, hn_config_check(&c, &err)) TH_LOG("%u", u);
	}
	c.up_select = HN_UPSEL_ADAPTIVE + 1;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
	c.up_select = HN_UPSEL_DET;
	c.switching = HN_SWITCH_DROP + 1;
	EXPECT_EQ(-EINVAL, hn_config_check(&c, &err));
}

/* a fat tree carries worms and circuits together (switch.c, ftroute.c) */
TEST(fattree_accepted)
{
	struct hn_config c;
	struct hn_err err;

	hn_config_default(&c);
	ASSERT_EQ(0, hn_topology_parse(&c, "fattree:3,4", &err));
	EXPECT_EQ(0, hn_config_check(&c, &err)) TH_LOG("%s", err.msg);
	c.policy |= HN_POL_NO_W;
	EXPECT_EQ(0, hn_config_check(&c, &err));
}

/* every switching technique, on the crossbar and on a tree */
TEST(vct_saf_accepted)
{
	struct hn_config c;
	struct hn_err err;

	hn_config_default(&c);
	c.switching = HN_SWITCH_VCT;
	EXPECT_EQ(0, hn_config_check(&c, &err));
	c.switching = HN_SWITCH_SAF;
	EXPECT_EQ(0, hn_config_check(&c, &err));
	ASSERT_EQ(0, hn_topology_parse(&c, "fattree:2,8", &err));
	EXPECT_EQ(0, hn_config_check(&c, &err));
}

TEST_HARNESS_MAIN
