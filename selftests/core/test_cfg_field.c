// SPDX-License-Identifier: GPL-2.0
/*
 * test_cfg_field.c - a configuration field's value as text
 * (kmod/core/cfg_field.c), as the module parameters, sysfs and hnsim take
 * and print it: every field prints what reads back to the same value; a
 * word or its number, both ends of a range, the policy's words; every bad
 * value is refused with its reason and changes nothing; and the ranges
 * hn_config_check() holds a configuration to are the table's.
 */
#include "harness.h"
#include "sim.h"
#include "cfg_field.h"

/* the index of the field called @name */
static u32 field(const char *name)
{
	u32 i;

	for (i = 0; i < HN_CFG_NR; i++)
		if (!strcmp(hn_cfg_fields[i].name, name))
			return i;
	return HN_NONE;
}

/* every field of both profiles prints what reads back the same */
TEST(print_reads_back)
{
	static const char *const profiles[] = { "ding4", "ding5" };
	char buf[HN_CFG_TEXT_LEN], why[HN_CFG_WHY_LEN];
	struct hn_config c, d;
	u32 p, i;

	for (p = 0; p < ARRAY_SIZE(profiles); p++) {
		ASSERT_EQ(0, hn_config_profile(&c, profiles[p]));
		for (i = 0; i < HN_CFG_NR; i++) {
			memset(&d, 0xff, sizeof(d));
			d.topology = c.topology;
			hn_cfg_print(&c, i, buf, sizeof(buf));
			ASSERT_EQ(0, hn_cfg_parse(&d, i, buf, why, sizeof(why)))
				TH_LOG("%s=%s: %s", hn_cfg_fields[i].name, buf, why);
			EXPECT_EQ(hn_cfg_get(&c, i), hn_cfg_get(&d, i))
				TH_LOG("%s=%s", hn_cfg_fields[i].name, buf);
		}
	}
}

/* a field whose values are words takes each word and its number */
TEST(words_both_ways)
{
	char buf[HN_CFG_TEXT_LEN], num[8], why[HN_CFG_WHY_LEN];
	struct hn_config c;
	u32 i, w, n = 0;

	for (i = 0; i < HN_CFG_NR; i++) {
		if (!hn_cfg_fields[i].words)
			continue;
		n++;
		EXPECT_NE(NULL, strstr(hn_cfg_values[i], "|"));
		for (w = 0; hn_cfg_fields[i].words[w]; w++) {
			hn_config_default(&c);
			ASSERT_EQ(0, hn_cfg_parse(&c, i, hn_cfg_fields[i].words[w],
						  why, sizeof(why)));
			EXPECT_EQ(w, hn_cfg_get(&c, i));
			EXPECT_STREQ(hn_cfg_fields[i].words[w],
				     hn_cfg_print(&c, i, buf, sizeof(buf)));
			hn_config_default(&c);
			snprintf(num, sizeof(num), "%u", w);
			ASSERT_EQ(0, hn_cfg_parse(&c, i, num, why, sizeof(why)));
			EXPECT_EQ(w, hn_cfg_get(&c, i));
		}
		EXPECT_EQ(hn_cfg_fields[i].max, w - 1) TH_LOG("%s",
							      hn_cfg_fields[i].name);
	}
	EXPECT_EQ(6, n);	/* predict_algo ... ft_sched, voq_arbiter */
}

static const struct {
	const char *field, *val, *why;
} bad[] = {
	{ "nodes", "1", "out of range 2..4096" },
	{ "nodes", "4097", "out of range 2..4096" },
	{ "nodes", "-2", "out of range 2..4096" },
	{ "nodes", "abc", "not a number" },
	{ "nodes", "", "not a number" },
	{ "nodes", "12x", "not a number" },
	{ "nodes", "0x", "not a number" },
	{ "nodes", "99999999999999999999", "out of range 2..4096" },
	{ "idle_timeout_ns", "1000000000000001",
	  "out of range 0..1000000000000000" },
	{ "guard_ns", "1000000000", "out of range 0..999999999" },
	{ "switching", "cut", "neither wormhole, vct, saf, drop nor a number" },
	{ "switching", "4", "out of range 0..3" },
	{ "switching", "Wormhole", "neither wormhole, vct, saf, drop nor a number" },
	{ "policy", "64", "out of range 0..63" },
	{ "policy", "ses,bogus",
	  "not words of fixed|ses|sla|preempt|slot|no-w|dynamic joined by ',', nor a number" },
	{ "policy", "", "not words of fixed|ses|sla|preempt|slot|no-w|dynamic joined by ',', nor a number" },
	{ "topology", "ring", "topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K" },
};

TEST(refused)
{
	char why[HN_CFG_WHY_LEN];
	struct hn_config c, before;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		hn_config_default(&c);
		before = c;
		ASSERT_NE(HN_NONE, field(bad[i].field));
		EXPECT_EQ(-EINVAL, hn_cfg_parse(&c, field(bad[i].field),
						bad[i].val, why,
						sizeof(why)));
		EXPECT_STREQ(bad[i].why, why)
			TH_LOG("%s=%s", bad[i].field, bad[i].val);
		EXPECT_EQ(0, memcmp(&before, &c, sizeof(c)))
			TH_LOG("%s=%s changed it", bad[i].field,
			       bad[i].val);
	}
}

/* both ends of every number's range, and hex */
TEST(ranges)
{
	char buf[32], why[HN_CFG_WHY_LEN];
	struct hn_config c;
	u32 i;

	for (i = 0; i < HN_CFG_NR; i++) {
		if (hn_cfg_fields[i].type == HN_CFG_STRING)
			continue;
		hn_config_default(&c);
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)hn_cfg_fields[i].min);
		EXPECT_EQ(0, hn_cfg_parse(&c, i, buf, why, sizeof(why)));
		EXPECT_EQ(hn_cfg_fields[i].min, hn_cfg_get(&c, i));
		snprintf(buf, sizeof(buf), "0x%llx",
			 (unsigned long long)hn_cfg_fields[i].max);
		EXPECT_EQ(0, hn_cfg_parse(&c, i, buf, why, sizeof(why)));
		EXPECT_EQ(hn_cfg_fields[i].max, hn_cfg_get(&c, i));
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)hn_cfg_fields[i].max + 1);
		EXPECT_EQ(-EINVAL, hn_cfg_parse(&c, i, buf, why, sizeof(why)));
		EXPECT_EQ(hn_cfg_fields[i].max, hn_cfg_get(&c, i));
		/* hn_config_check() holds the field to the same range */
		hn_config_default(&c);
		hn_cfg_set(&c, i, hn_cfg_fields[i].max + 1);
		EXPECT_EQ(-EINVAL, hn_cfg_check_ranges(&c, NULL));
		hn_cfg_set(&c, i, hn_cfg_fields[i].max);
		EXPECT_EQ(0, hn_cfg_check_ranges(&c, NULL));
	}
}

/* the policy's words, as every interface takes and prints them */
TEST(policy_words)
{
	static const struct {
		const char *in, *out;
		u32 flags;
	} good[] = {
		{ "fixed", "fixed", 0 },
		{ "0", "fixed", 0 },
		{ "ses", "ses", HN_POL_SES },
		{ "sla", "sla", HN_POL_SES | HN_POL_SLA },
		{ "ses,preempt,slot", "ses,preempt,slot",
		  HN_POL_SES | HN_POL_PREEMPT | HN_POL_PREEMPT_SLOT },
		{ "preempt+sla", "sla,preempt",
		  HN_POL_SES | HN_POL_SLA | HN_POL_PREEMPT },
		{ "sla+no-w", "sla,no-w", HN_POL_SES | HN_POL_SLA | HN_POL_NO_W },
		{ "dynamic", "dynamic",
		  HN_POL_DYNAMIC | HN_POL_NO_W | HN_POL_SES },
		{ "31", "sla,preempt,slot,no-w", 31 },
		{ "0x12", "no-w,0x2", HN_POL_NO_W | HN_POL_SLA },
		{ "no-w,0x2", "no-w,0x2", HN_POL_NO_W | HN_POL_SLA },
		{ "63", "dynamic,sla,preempt,slot", 63 },
	};
	char buf[HN_CFG_TEXT_LEN], why[HN_CFG_WHY_LEN];
	u32 i = field("policy"), g, p, back;
	struct hn_config c;

	for (g = 0; g < ARRAY_SIZE(good); g++) {
		hn_config_default(&c);
		ASSERT_EQ(0, hn_cfg_parse(&c, i, good[g].in, why, sizeof(why)))
			TH_LOG("%s: %s", good[g].in, why);
		EXPECT_EQ(good[g].flags, c.policy) TH_LOG("%s", good[g].in);
		EXPECT_STREQ(good[g].out, hn_cfg_print(&c, i, buf, sizeof(buf)));
	}
	/* every policy prints what reads back the same */
	for (p = 0; p <= HN_POL_ALL; p++) {
		hn_policy_text(p, buf, sizeof(buf));
		ASSERT_EQ(0, hn_policy_from_text(buf, &back, NULL)) TH_LOG("%s", buf);
		EXPECT_EQ(p, back) TH_LOG("%s", buf);
	}
	EXPECT_STREQ("sla", hn_policy_text(HN_POL_SES | HN_POL_SLA, buf, 4));
	EXPECT_STREQ("sl", hn_policy_text(HN_POL_SES | HN_POL_SLA, buf, 3));
}

/*
 * hn_set_live() changes exactly the fields the table marks live: each to a
 * value of its range the configuration takes, the others never
 */
TEST(live_fields)
{
	struct hn_config c, n;
	struct hn_engine *e;
	struct hn_err err;
	u64 cand[3];
	u32 i, j, live = 0;
	int rc;

	hn_config_default(&c);
	for (i = 0; i < HN_CFG_NR; i++) {
		if (hn_cfg_fields[i].type == HN_CFG_STRING)
			continue;
		e = hn_create(&c, &sim_ops, NULL, &rc);
		ASSERT_NE(NULL, e);
		cand[0] = hn_cfg_fields[i].max;
		cand[1] = hn_cfg_fields[i].min;
		cand[2] = hn_cfg_get(&c, i) + 1;
		for (j = 0; j < 3; j++) {
			n = c;
			hn_cfg_set(&n, i, cand[j]);
			if (cand[j] != hn_cfg_get(&c, i) &&
			    cand[j] <= hn_cfg_fields[i].max &&
			    !hn_config_check(&n, &err))
				break;
		}
		if (j == 3) {	/* no other value alone: nothing to see */
			hn_destroy(e);
			continue;
		}
		ASSERT_EQ(0, hn_set_live(e, &n, &err))
			TH_LOG("%s: %s", hn_cfg_fields[i].name, err.msg);
		EXPECT_EQ(hn_cfg_fields[i].live ? cand[j] : hn_cfg_get(&c, i),
			  hn_cfg_get(hn_cfg(e), i))
			TH_LOG("%s, live %d", hn_cfg_fields[i].name,
			       hn_cfg_fields[i].live);
		live += hn_cfg_fields[i].live;
		hn_destroy(e);
	}
	EXPECT_LE(9, live);	/* policy, slot lengths, ..., ft_sched */
}

TEST_HARNESS_MAIN
