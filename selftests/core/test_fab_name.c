// SPDX-License-Identifier: GPL-2.0
/*
 * test_fab_name.c - the names of a fabric's switches, ports and links
 * (kmod/core/fab_name.c): every switch, port and node of a crossbar and of
 * fat trees prints a name that reads back to the same numbers, the names
 * are as docs/names.md gives them, and what is no name of the fabric is
 * refused.
 */
#include "harness.h"
#include "sim.h"
#include "fab_name.h"
#include "cfg_text.h"

/* the shape of a fabric, as the engine gives it; nodes 0: a crossbar's */
static void shape(const char *topology, u32 nodes, struct hn_fabric_info *fi)
{
	struct hn_config c;
	struct hn_engine *e;
	struct hn_err err;
	int rc;

	hn_config_default(&c);
	if (nodes)
		c.nodes = nodes;
	c.switching = HN_SWITCH_VCT;
	memset(fi, 0, sizeof(*fi));
	if (hn_topology_parse(&c, topology, &err))
		return;
	e = hn_create(&c, &sim_ops, NULL, &rc);
	if (!e)
		return;
	hn_fabric_info(e, fi);
	hn_destroy(e);
}

/* every switch, port and node reads back */
static void round_trip(struct __test_metadata *_metadata,
		       const struct hn_fabric_info *fi)
{
	char buf[HN_FAB_NAME_LEN];
	struct hn_fab_name n, m;
	u32 sw, p, sw2, p2;

	for (sw = 0; sw < fi->switches; sw++)
		for (p = 0; p <= fi->radix; p++) {
			u32 port = p == fi->radix ? HN_NONE : p;

			ASSERT_EQ(0, hn_fab_of(fi, sw, port, &n));
			hn_fab_print(&n, buf, sizeof(buf));
			ASSERT_EQ(0, hn_fab_scan(buf, &m)) TH_LOG("%s", buf);
			ASSERT_EQ(0, hn_fab_numbers(fi, &m, &sw2, &p2));
			EXPECT_EQ(sw, sw2) TH_LOG("%s", buf);
			EXPECT_EQ(port, p2) TH_LOG("%s", buf);
		}
	for (p = 0; p < fi->nodes; p++) {
		ASSERT_EQ(0, hn_fab_of(fi, HN_NONE, p, &n));
		hn_fab_print(&n, buf, sizeof(buf));
		ASSERT_EQ(0, hn_fab_scan(buf, &m));
		ASSERT_EQ(0, hn_fab_numbers(fi, &m, &sw2, &p2));
		EXPECT_EQ(HN_NONE, sw2);
		EXPECT_EQ(p, p2);
	}
	EXPECT_EQ(-EINVAL, hn_fab_of(fi, fi->switches, 0, &n));
	EXPECT_EQ(-EINVAL, hn_fab_of(fi, 0, fi->radix, &n));
	EXPECT_EQ(-EINVAL, hn_fab_of(fi, HN_NONE, fi->nodes, &n));
}

/* the name of switch @sw's port @port in @fi */
static const char *name(const struct hn_fabric_info *fi, u32 sw, u32 port,
			char *buf)
{
	struct hn_fab_name n;

	if (hn_fab_of(fi, sw, port, &n))
		return "(none)";
	return hn_fab_print(&n, buf, HN_FAB_NAME_LEN);
}

TEST(crossbar)
{
	char buf[HN_FAB_NAME_LEN];
	struct hn_fabric_info fi;

	shape("crossbar", 8, &fi);
	ASSERT_EQ(1, fi.switches);
	round_trip(_metadata, &fi);
	EXPECT_STREQ("sw0.0", name(&fi, 0, HN_NONE, buf));
	EXPECT_STREQ("sw0.0/down7", name(&fi, 0, 7, buf));
	EXPECT_STREQ("node3", name(&fi, HN_NONE, 3, buf));
}

TEST(fattree)
{
	static const char *const trees[] = {
		"fattree:2,4", "fattree:3,2", "fattree:1,2", "fattree:2,16",
	};
	char buf[HN_FAB_NAME_LEN];
	struct hn_fabric_info fi;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(trees); i++) {
		shape(trees[i], 0, &fi);
		ASSERT_NE(0, fi.switches) TH_LOG("%s", trees[i]);
		round_trip(_metadata, &fi);
	}
	/* FT(2,4): 4 switches a level, ports 0..3 down, 4..7 up */
	shape("fattree:2,4", 0, &fi);
	EXPECT_STREQ("sw0.1", name(&fi, 1, HN_NONE, buf));
	EXPECT_STREQ("sw0.1/down2", name(&fi, 1, 2, buf));
	EXPECT_STREQ("sw0.1/up0", name(&fi, 1, 4, buf));
	EXPECT_STREQ("sw1.3/up3", name(&fi, 7, 7, buf));
	EXPECT_STREQ("sw1.0", name(&fi, 4, HN_NONE, buf));
}

static const char *const bad[] = {
	"", "sw", "sw0", "sw0.", "sw.0", "sw0.0/", "sw0.0/up", "sw0.0/side1",
	"sw0.0/up1x", "swx.0", "SW(0,0)", "sw-1.0", "sw0.0 ", " sw0.0",
	"node", "node-1", "node1/up0", "n3", "3", "sw0.0/down4294967295",
	"sw99999999999.0",
};

TEST(refused)
{
	struct hn_fabric_info fi;
	struct hn_fab_name n;
	u32 sw, port;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, hn_fab_scan(bad[i], &n)) TH_LOG("bad[%zu]", i);
	/* names of no switch, port or node of FT(2,4) */
	shape("fattree:2,4", 0, &fi);
	ASSERT_EQ(0, hn_fab_scan("sw2.0", &n));
	EXPECT_EQ(-EINVAL, hn_fab_numbers(&fi, &n, &sw, &port));
	ASSERT_EQ(0, hn_fab_scan("sw0.4", &n));
	EXPECT_EQ(-EINVAL, hn_fab_numbers(&fi, &n, &sw, &port));
	ASSERT_EQ(0, hn_fab_scan("sw0.0/up4", &n));
	EXPECT_EQ(-EINVAL, hn_fab_numbers(&fi, &n, &sw, &port));
	ASSERT_EQ(0, hn_fab_scan("sw0.0/down4", &n));
	EXPECT_EQ(-EINVAL, hn_fab_numbers(&fi, &n, &sw, &port));
	ASSERT_EQ(0, hn_fab_scan("node16", &n));
	EXPECT_EQ(-EINVAL, hn_fab_numbers(&fi, &n, &sw, &port));
	/* a crossbar has no up-ports */
	shape("crossbar", 8, &fi);
	ASSERT_EQ(0, hn_fab_scan("sw0.0/up0", &n));
	EXPECT_EQ(-EINVAL, hn_fab_numbers(&fi, &n, &sw, &port));
}

TEST(truncates)
{
	struct hn_fab_name n = { HN_FAB_UP, 11, 2047, 1 };
	char buf[HN_FAB_NAME_LEN];

	EXPECT_STREQ("sw11.2047/up1", hn_fab_print(&n, buf, sizeof(buf)));
	EXPECT_STREQ("sw11.", hn_fab_print(&n, buf, 6));
	buf[0] = 'x';
	hn_fab_print(&n, buf, 0);
	EXPECT_EQ('x', buf[0]);
}

TEST_HARNESS_MAIN
