// SPDX-License-Identifier: GPL-2.0
/*
 * test_traffic.c - traffic patterns, sizes, injection and the run driver
 * (kmod/core/pattern.c, traffic_run.c): destinations against hand-computed
 * tables, permutations, determinism from the seed, batch runs that deliver
 * exactly what they generate, saturation that ends a run, and refusals.
 */
#include "harness.h"
#include "sim.h"
#include "hn_traffic.h"
#include "topo.h"

static struct hn_tgen *gen(u32 pattern, u32 nodes, struct hn_tcfg *t,
			   struct hn_config *c)
{
	hn_config_default(c);
	c->nodes = nodes;
	hn_tcfg_default(t, nodes);
	t->pattern = pattern;
	if (hn_tcfg_check(t, c, NULL))
		return NULL;
	return hn_tgen_create(t, c, NULL);
}

/* d[s] for every s of a permutation pattern; HN_NONE: silent. */
static void perm_table(u32 pattern, u32 gw, u32 gh, u32 *d)
{
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g;
	u32 s;

	hn_config_default(&c);
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	t.pattern = pattern;
	t.grid_w = gw;
	t.grid_h = gh;
	g = hn_tgen_create(&t, &c, NULL);
	for (s = 0; s < 16; s++)
		d[s] = hn_tgen_dest(g, s);
	hn_tgen_destroy(g);
}

#define X HN_NONE	/* a fixed point: silent */

TEST(permutations_by_hand)
{
	static const struct {
		u32 pattern, gw, gh;
		u32 d[16];
	} tab[] = {
		/* (r, c) -> (c, r) on 4 x 4 */
		{ HN_PAT_TRANSPOSE, 0, 0,
		  { X, 4, 8, 12, 1, X, 9, 13, 2, 6, X, 14, 3, 7, 11, X } },
		{ HN_PAT_BITCOMP, 0, 0,
		  { 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 } },
		/* 4 bits reversed: 0001 -> 1000 */
		{ HN_PAT_BITREV, 0, 0,
		  { X, 8, 4, 12, 2, 10, X, 14, 1, X, 5, 13, 3, 11, 7, X } },
		/* rotate left: 1000 -> 0001 */
		{ HN_PAT_SHUFFLE, 0, 0,
		  { X, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, X } },
		/* 8 x 2: x + ceil(8/2) - 1 = x + 3, y + ceil(2/2) - 1 = y */
		{ HN_PAT_TORNADO, 8, 2,
		  { 3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10 } },
		/* 4 x 4: (x + 1, y + 1) */
		{ HN_PAT_NEIGHBOR, 0, 0,
		  { 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0 } },
	};
	u32 i, s, d[16];

	for (i = 0; i < ARRAY_SIZE(tab); i++) {
		perm_table(tab[i].pattern, tab[i].gw, tab[i].gh, d);
		for (s = 0; s < 16; s++)
			EXPECT_EQ(tab[i].d[s], d[s]) {
				TH_LOG("%s: source %u",
				       hn_pattern_name(tab[i].pattern), s);
			}
	}
}

/* Every permutation pattern maps the nodes one to one. */
TEST(permutations_are_permutations)
{
	static const u32 pats[] = {
		HN_PAT_TRANSPOSE, HN_PAT_BITCOMP, HN_PAT_BITREV,
		HN_PAT_SHUFFLE, HN_PAT_TORNADO, HN_PAT_NEIGHBOR,
		HN_PAT_RANDPERM,
	};
	static const u32 sizes[] = { 16, 64, 256 };
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g;
	u8 hit[256];
	u32 i, n, s, d, N;

	for (n = 0; n < ARRAY_SIZE(sizes); n++) {
		for (i = 0; i < ARRAY_SIZE(pats); i++) {
			N = sizes[n];
			g = gen(pats[i], N, &t, &c);
			ASSERT_NE(NULL, g);
			memset(hit, 0, sizeof(hit));
			for (s = 0; s < N; s++) {
				d = hn_tgen_dest(g, s);
				EXPECT_EQ(d != HN_NONE, hn_tgen_active(g, s));
				if (d == HN_NONE)
					d = s;	/* silent: a fixed point */
				ASSERT_LT(d, N);
				hit[d]++;
			}
			for (s = 0; s < N; s++)
				EXPECT_EQ(1, hit[s]) {
					TH_LOG("%s N %u: node %u hit %u times",
					       hn_pattern_name(pats[i]), N, s,
					       hit[s]);
				}
			hn_tgen_destroy(g);
		}
	}
}

/* node 5 = (1, 1) and node 0 on 4 x 4: E, W, S, N with wrap-around */
static const u32 mesh5[] = { 6, 4, 9, 1 };
static const u32 mesh0[] = { 1, 3, 4, 12 };

TEST(ding_patterns_by_hand)
{
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g;
	u32 i, d, seen = 0;

	g = gen(HN_PAT_OMESH, 16, &t, &c);
	ASSERT_NE(NULL, g);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(mesh5[i % 4], hn_tgen_dest(g, 5));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(mesh0[i % 4], hn_tgen_dest(g, 0));
	hn_tgen_destroy(g);

	/* all-to-all: node 3 sends to 4, 5, ..., 15, 0, 1, 2, then 4 */
	g = gen(HN_PAT_ALLTOALL, 16, &t, &c);
	for (i = 0; i < 16; i++)
		EXPECT_EQ((3 + 1 + i % 15) % 16, hn_tgen_dest(g, 3));
	hn_tgen_destroy(g);

	/* scatter from 2: 3..15, 0, 1; everyone else silent */
	hn_config_default(&c);
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	t.pattern = HN_PAT_SCATTER;
	t.root = 2;
	g = hn_tgen_create(&t, &c, NULL);
	for (i = 0; i < 16; i++)
		EXPECT_EQ((2 + 1 + i % 15) % 16, hn_tgen_dest(g, 2));
	EXPECT_EQ(HN_NONE, hn_tgen_dest(g, 0));
	EXPECT_FALSE(hn_tgen_active(g, 0));
	EXPECT_TRUE(hn_tgen_active(g, 2));
	hn_tgen_destroy(g);

	/* two-phase, R = 2: 1..15 from node 0, two neighbours, then 1 */
	hn_tcfg_default(&t, 16);
	t.pattern = HN_PAT_TWOPHASE;
	t.rmesh_msgs = 2;
	g = hn_tgen_create(&t, &c, NULL);
	for (i = 0; i < 15; i++)
		EXPECT_EQ(i + 1, hn_tgen_dest(g, 0));
	for (i = 0; i < 2; i++) {
		d = hn_tgen_dest(g, 0);
		EXPECT_TRUE(d == 1 || d == 3 || d == 4 || d == 12);
	}
	EXPECT_EQ(1, hn_tgen_dest(g, 0));
	hn_tgen_destroy(g);

	/* random mesh: always one of the four neighbours, each of them */
	g = gen(HN_PAT_RMESH, 16, &t, &c);
	for (i = 0; i < 200; i++) {
		d = hn_tgen_dest(g, 5);
		ASSERT_TRUE(d == 6 || d == 4 || d == 9 || d == 1);
		seen |= 1u << d;
	}
	EXPECT_EQ((1u << 6) | (1u << 4) | (1u << 9) | (1u << 1), seen);
	hn_tgen_destroy(g);

	/* phased, 8 per phase pair, ratio 0.5: 4 ordered, then 4 uniform */
	hn_tcfg_default(&t, 16);
	t.pattern = HN_PAT_PHASED;
	t.phase_msgs = 8;
	t.pred_ppm = 500000;
	g = hn_tgen_create(&t, &c, NULL);
	for (i = 0; i < 16; i++) {
		d = hn_tgen_dest(g, 5);
		if (i % 8 < 4) {
			EXPECT_EQ(mesh5[(i / 8 * 4 + i % 8) % 4], d);
		} else {
			EXPECT_NE(5, d);
		}
	}
	hn_tgen_destroy(g);

	/* mixed: ratio 1 is the ordered mesh, over the first dirs dirs */
	hn_tcfg_default(&t, 16);
	t.pattern = HN_PAT_MIXED;
	t.pred_ppm = 1000000;
	t.dirs = 2;
	g = hn_tgen_create(&t, &c, NULL);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(i % 2 ? 4 : 6, hn_tgen_dest(g, 5));
	hn_tgen_destroy(g);
}

/*
 * Woods-Corwin's localized pattern (C2.4 of the notes): on FT(4,4), 10^5
 * destinations from every source in turn have their nearest common
 * ancestor, read from the topology's route (2 l - 1 switches), at level
 * l = 1, 2, 3, 4 with probability 1/2, 1/4, 1/8, 1/8 within 1 % absolute;
 * never at the source.  Within a level every node at that distance is
 * drawn (FT(2,4): 3 at level 1, 12 at level 2, from each source).  Other
 * fabrics refuse it.
 */
TEST(localized_ancestor_levels)
{
	static const u32 want_ppm[4] = { 500000, 250000, 125000, 125000 };
	struct hn_upsel_arg a = { .mode = HN_UPSEL_DET };
	struct hn_tport hop[16];
	u32 hist[5] = { 0 }, s, d, i, l, seen[16];
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g;
	struct hn_topo topo;
	struct hn_err err;
	int n;

	hn_config_default(&c);
	c.topology = HN_TOPO_FATTREE;
	c.levels = 4;
	c.width = 4;
	c.nodes = 256;
	hn_tcfg_default(&t, 256);
	t.pattern = HN_PAT_LOCALIZED;
	ASSERT_EQ(0, hn_tcfg_check(&t, &c, NULL));
	g = hn_tgen_create(&t, &c, NULL);
	ASSERT_NE(NULL, g);
	ASSERT_EQ(0, hn_topo_ft(&topo, 4, 4, 1, 1, NULL));
	for (i = 0; i < 100000; i++) {
		s = i % 256;
		d = hn_tgen_dest(g, s);
		ASSERT_GT(256, d);
		ASSERT_NE(s, d);
		n = hn_topo_path(&topo, s, d, &a, hop, 16);
		ASSERT_EQ(1, n % 2);
		l = ((u32)n + 1) / 2;
		ASSERT_GE(4, l);
		hist[l]++;
	}
	for (l = 1; l <= 4; l++) {
		EXPECT_GE(want_ppm[l - 1] + 10000, hist[l] * 10)
			TH_LOG("level %u: %u of 10^5", l, hist[l]);
		EXPECT_LE(want_ppm[l - 1] - 10000, hist[l] * 10)
			TH_LOG("level %u: %u of 10^5", l, hist[l]);
	}
	hn_topo_fini(&topo);
	hn_tgen_destroy(g);
	/* FT(2,4): from node 5, levels 1 and 2 reach 3 and 12 nodes */
	c.levels = 2;
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	t.pattern = HN_PAT_LOCALIZED;
	g = hn_tgen_create(&t, &c, NULL);
	ASSERT_NE(NULL, g);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 2000; i++)
		seen[hn_tgen_dest(g, 5)]++;
	for (d = 0; d < 16; d++) {
		if (d == 5) {
			EXPECT_EQ(0, seen[d]);
		} else if (d / 4 == 1) {	/* 5's leaf: 1/2 over 3 */
			EXPECT_LT(250, seen[d]) TH_LOG("to %u: %u", d, seen[d]);
		} else {			/* 1/2 over 12 */
			EXPECT_LT(40, seen[d]) TH_LOG("to %u: %u", d, seen[d]);
		}
	}
	hn_tgen_destroy(g);
	/* the crossbar, and a fat tree of one level, have no distances */
	c.topology = HN_TOPO_CROSSBAR;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	EXPECT_STREQ("localized needs a fat tree of 2 levels or more",
		     err.msg);
	c.topology = HN_TOPO_FATTREE;
	c.levels = 1;
	c.width = 16;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, NULL));
}

/* uniform never sends to itself and reaches everyone; hotspot's share. */
TEST(random_patterns)
{
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g;
	u32 i, d, cnt[16] = { 0 }, hot = 0;

	g = gen(HN_PAT_UNIFORM, 16, &t, &c);
	for (i = 0; i < 15000; i++) {
		d = hn_tgen_dest(g, 7);
		ASSERT_NE(7, d);
		ASSERT_LT(d, 16);
		cnt[d]++;
	}
	for (i = 0; i < 16; i++)
		if (i != 7)
			EXPECT_TRUE(cnt[i] > 850 && cnt[i] < 1150);
	hn_tgen_destroy(g);

	hn_tcfg_default(&t, 16);
	t.pattern = HN_PAT_HOTSPOT;
	t.nhot = 2;
	t.hot[0] = 3;
	t.hot[1] = 9;
	t.hot_ppm = 300000;
	g = hn_tgen_create(&t, &c, NULL);
	for (i = 0; i < 20000; i++) {
		d = hn_tgen_dest(g, 0);
		ASSERT_NE(0, d);
		hot += d == 3 || d == 9;
	}
	/* 0.3 + 0.7 x 2/15 = 0.393 */
	EXPECT_TRUE(hot > 7500 && hot < 8200);
	hn_tgen_destroy(g);
}

/*
 * The same seed gives the same messages: these values are what node 3
 * draws from seed 1 (uniform destinations, sizes uniform on 1..1000) and
 * node 5's first Bernoulli times at load 0.1; the kernel's generator must
 * draw the same (the engine is the same code, integer only).
 */
TEST(seed_golden)
{
	static const u32 gold[8][2] = {
		{ 12, 994 }, { 4, 984 }, { 9, 747 }, { 6, 85 },
		{ 10, 913 }, { 2, 930 }, { 13, 881 }, { 7, 345 },
	};
	static const u64 tgold[] = {
		7020, 23910, 47430, 49550, 60390, 61260, 82330, 85080,
	};
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g, *h;
	u32 i;

	hn_config_default(&c);
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	t.seed = 1;
	t.size_dist = HN_SIZE_UNIFORM;
	t.size = 1;
	t.size_max = 1000;
	ASSERT_EQ(0, hn_tcfg_check(&t, &c, NULL));
	g = hn_tgen_create(&t, &c, NULL);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(gold[i][0], hn_tgen_dest(g, 3));
		EXPECT_EQ(gold[i][1], hn_tgen_size(g, 3));
	}
	for (i = 0; i < 8; i++)
		EXPECT_EQ(tgold[i], hn_tgen_next_ns(g, 5));
	hn_tgen_destroy(g);
	/* same seed: same sequence; another seed: another */
	t.pattern = HN_PAT_MIXED;
	g = hn_tgen_create(&t, &c, NULL);
	h = hn_tgen_create(&t, &c, NULL);
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(hn_tgen_dest(g, i % 16), hn_tgen_dest(h, i % 16));
		ASSERT_EQ(hn_tgen_size(g, i % 16), hn_tgen_size(h, i % 16));
	}
	hn_tgen_destroy(h);
	t.seed = 2;
	h = hn_tgen_create(&t, &c, NULL);
	for (i = 0, c.k = 0; i < 100; i++)
		c.k += hn_tgen_dest(g, 1) != hn_tgen_dest(h, 1);
	EXPECT_GT(c.k, 50);
	hn_tgen_destroy(g);
	hn_tgen_destroy(h);
}

/* The 80/80 rule (Sec. 1.1.2): 80 % of messages <= 256 B, 80 % of bytes >= 8000. */
TEST(sizes_8080)
{
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g;
	u64 small = 0, big_bytes = 0, bytes = 0;
	u32 i, s;

	hn_config_default(&c);
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	t.size_dist = HN_SIZE_BIMODAL;
	t.size = HN_8080_SMALL;
	t.size_max = HN_8080_LARGE;
	t.large_ppm = HN_8080_PPM;
	ASSERT_EQ(0, hn_tcfg_check(&t, &c, NULL));
	EXPECT_EQ(256ULL * 888889 + 8192ULL * 111111, hn_tcfg_mean_x1e6(&t));
	g = hn_tgen_create(&t, &c, NULL);
	for (i = 0; i < 90000; i++) {
		s = hn_tgen_size(g, i % 16);
		ASSERT_TRUE(s == 256 || s == 8192);
		small += s <= 256;
		bytes += s;
		if (s >= 8000)
			big_bytes += s;
	}
	EXPECT_GE(small * 100, 80ULL * 90000);
	EXPECT_TRUE(big_bytes * 100 > bytes * 78 && big_bytes * 100 < bytes * 82);
	hn_tgen_destroy(g);
}

/* The plan: mesh slots are the four directions; scatter's one pair each. */
TEST(plans)
{
	struct hn_pair p[16];
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g;
	u32 n, s;

	g = gen(HN_PAT_RMESH, 16, &t, &c);
	EXPECT_EQ(1, hn_tgen_groups(g, 4));
	EXPECT_EQ(2, hn_tgen_groups(g, 2));
	n = hn_tgen_plan(g, 4, 0, 2, p);	/* south */
	ASSERT_EQ(16, n);
	for (s = 0; s < 16; s++)
		EXPECT_EQ((s + 4) % 16, p[s].dst);
	hn_tgen_destroy(g);
	g = gen(HN_PAT_SCATTER, 16, &t, &c);
	EXPECT_EQ(4, hn_tgen_groups(g, 4));	/* 15 destinations */
	ASSERT_EQ(1, hn_tgen_plan(g, 4, 3, 2, p));
	EXPECT_EQ(0, p[0].src);
	EXPECT_EQ(15, p[0].dst);		/* shift 3 x 4 + 2 + 1 */
	EXPECT_EQ(0, hn_tgen_plan(g, 4, 3, 3, p));	/* shift 16: none */
	hn_tgen_destroy(g);
	g = gen(HN_PAT_TWOPHASE, 16, &t, &c);
	EXPECT_EQ(4 + 1, hn_tgen_groups(g, 4));
	ASSERT_EQ(16, hn_tgen_plan(g, 4, 4, 0, p));	/* east */
	EXPECT_EQ(6, p[5].dst);
	hn_tgen_destroy(g);
}

static int batch_run(u32 pattern, u32 net, const char *profile, u32 nodes,
		     u32 k, u32 pslots, u32 size, struct hn_tres *out)
{
	struct hn_trun_cfg rc;
	struct hn_config c;
	struct hn_tcfg t;

	hn_config_profile(&c, profile);
	c.nodes = nodes;
	c.k = k;
	hn_tcfg_default(&t, nodes);
	t.pattern = pattern;
	t.inject = HN_INJ_BATCH;
	t.batch = 40;
	t.size = size;
	t.size_max = size;
	t.pred_ppm = 300000;
	hn_trun_cfg_default(&rc);
	rc.net = net;
	rc.preload_slots = pslots;
	return sim_trun(&c, &t, &rc, out, NULL);
}

/* A batch run delivers exactly the messages it generated, on every net. */
TEST(batch_delivers_all)
{
	static const struct {
		u32 pattern, net, k, pslots, size;
	} runs[] = {
		{ HN_PAT_MIXED, HN_NET_AS_IS, 4, 4, 128 },
		{ HN_PAT_PHASED, HN_NET_AS_IS, 4, 4, 128 },
		{ HN_PAT_UNIFORM, HN_NET_WORMHOLE, 4, 0, 300 },
		{ HN_PAT_RMESH, HN_NET_CIRCUIT, 4, 0, 64 },
		{ HN_PAT_TWOPHASE, HN_NET_DYNAMIC, 4, 0, 100 },
		{ HN_PAT_MIXED, HN_NET_DYNAMIC, 3, 1, 48 },
		{ HN_PAT_SCATTER, HN_NET_PRELOAD, 4, 0, 200 },
		{ HN_PAT_TWOPHASE, HN_NET_PRELOAD, 4, 0, 8 },
		{ HN_PAT_BITREV, HN_NET_PRELOAD, 2, 0, 8 },
		{ HN_PAT_HOTSPOT, HN_NET_AS_IS, 2, 2, 1000 },
	};
	struct hn_tres r;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		ASSERT_EQ(0, batch_run(runs[i].pattern, runs[i].net, "ding5",
				       64, runs[i].k, runs[i].pslots,
				       runs[i].size, &r)) {
			TH_LOG("run %u", i);
		}
		EXPECT_EQ(HN_END_DONE, r.end) {
			TH_LOG("run %u: %s", i, r.why);
		}
		EXPECT_EQ(40ULL * r.active, r.gen_msgs);
		EXPECT_EQ(r.gen_msgs, r.done_msgs);
		EXPECT_EQ(r.gen_bytes, r.done_bytes);
		EXPECT_EQ(r.gen_msgs, r.lat_n);
		EXPECT_GT(r.util_ppm, 0);
		EXPECT_LE(r.util_ppm, 1000000);
	}
}

static struct hn_trun *bern(u32 pattern, u32 load_ppm, u32 nodes,
			    struct hn_trun_cfg *rc, int *rv)
{
	struct hn_config c;
	struct hn_tcfg t;

	hn_config_default(&c);
	c.nodes = nodes;
	c.k = 0;
	hn_tcfg_default(&t, nodes);
	t.pattern = pattern;
	t.load_ppm = load_ppm;
	return hn_trun_create(&c, &t, rc, rv, NULL);
}

/* Below saturation the network accepts what is offered; same seed, same. */
TEST(bernoulli_offered_accepted)
{
	struct hn_trun_cfg rc;
	struct hn_trun *r, *r2;
	struct hn_tres a, b;
	int rv;

	hn_trun_cfg_default(&rc);
	rc.warmup_ns = 5000;
	rc.measure_ns = 40000;
	r = bern(HN_PAT_UNIFORM, 300000, 32, &rc, &rv);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	a = *hn_trun_result(r);
	EXPECT_EQ(HN_END_DONE, a.end);
	EXPECT_TRUE(a.offered_ppm > 280000 && a.offered_ppm < 320000);
	EXPECT_TRUE(a.accepted_ppm > 280000 && a.accepted_ppm < 320000);
	EXPECT_EQ(a.tagged, a.tagged_done);
	EXPECT_GT(a.lat_min, 0);
	EXPECT_EQ(0, hn_check(hn_trun_engine(r), NULL));
	r2 = bern(HN_PAT_UNIFORM, 300000, 32, &rc, &rv);
	ASSERT_EQ(0, hn_trun_run(r2, 0));
	b = *hn_trun_result(r2);
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	hn_trun_destroy(r);
	hn_trun_destroy(r2);
}

/* Past saturation the run ends, saying so, in bounded steps. */
TEST(saturation_reported)
{
	struct hn_trun_cfg rc;
	struct hn_trun *r;
	const struct hn_tres *res;
	int rv;

	/* everyone to node 0: its link carries 1/31 of what is offered */
	hn_trun_cfg_default(&rc);
	rc.warmup_ns = 2000;
	rc.measure_ns = 20000;
	r = bern(HN_PAT_HOTSPOT, 500000, 32, &rc, &rv);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 1000000));
	res = hn_trun_result(r);
	EXPECT_TRUE(res->end == HN_END_SAT_RATE ||
		    res->end == HN_END_SAT_QUEUE);
	EXPECT_NE(NULL, strstr(res->why, "saturated"));
	EXPECT_EQ(0, hn_check(hn_trun_engine(r), NULL));
	hn_trun_destroy(r);

	/* the queue criterion, before the window even ends */
	rc.max_queue = 20;
	rc.measure_ns = 500000;
	r = bern(HN_PAT_UNIFORM, 1000000, 32, &rc, &rv);
	ASSERT_EQ(0, hn_trun_run(r, 1000000));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_SAT_QUEUE, res->end);
	EXPECT_LT(res->t_end, 502000);
	hn_trun_destroy(r);

	/* the drain criterion, with the rate test off */
	rc.max_queue = 1000000;
	rc.measure_ns = 20000;
	rc.sat_tol_ppm = 1000000;
	rc.drain_ns = 1000;
	r = bern(HN_PAT_UNIFORM, 1000000, 32, &rc, &rv);
	ASSERT_EQ(0, hn_trun_run(r, 1000000));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_SAT_DRAIN, res->end);
	EXPECT_LT(res->tagged_done, res->tagged);
	hn_trun_destroy(r);
}

/*
 * Offered more than the network carries, with 1 ms slots: the run ends
 * saturated, holding at most max_queue + 1 per source and max_mem bytes
 * in all, whatever the slot length (the in-kernel generator's bound).
 * (A PE acts inside a slot, so a long slot no longer makes its whole
 * length's messages due at once.)
 */
/* Uniform traffic at the whole link rate on @c, slots of @slot_ns. */
static void full_load(struct hn_config *c, struct hn_tcfg *t,
		      struct hn_trun_cfg *rc, u32 slot_ns)
{
	c->slot_p_ns = slot_ns;
	c->slot_w_ns = slot_ns;
	hn_tcfg_default(t, c->nodes);
	t->pattern = HN_PAT_UNIFORM;
	t->load_ppm = 1000000;
	hn_trun_cfg_default(rc);
}

TEST(generation_bounded)
{
	struct hn_trun_cfg rc;
	const struct hn_tres *res;
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_trun *r;
	int rv;

	hn_config_default(&c);
	c.nodes = 16;
	c.k = 0;
	full_load(&c, &t, &rc, 1000000);
	rc.measure_ns = 100000000;	/* the queues fill first */
	r = hn_trun_create(&c, &t, &rc, &rv, NULL);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_SAT_QUEUE, res->end);
	EXPECT_LE(res->queue_max, rc.max_queue + 1);
	EXPECT_LE(res->gen_msgs - res->inj_msgs,
		  (u64)c.nodes * (rc.max_queue + 1));
	hn_trun_destroy(r);

	/* no queue limit to speak of: the bound on the whole run holds */
	rc.max_queue = 1000000;
	rc.max_mem = 1 << 20;
	r = hn_trun_create(&c, &t, &rc, &rv, NULL);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_SAT_MEM, res->end);
	EXPECT_NE(NULL, strstr(res->why, "max_mem"));
	EXPECT_LE(res->mem_max, rc.max_mem);
	/* within one message of it: the most one takes on a crossbar */
	EXPECT_GT(res->mem_max + 1024, rc.max_mem);
	EXPECT_EQ(0, hn_check(hn_trun_engine(r), NULL));
	hn_trun_destroy(r);
}

/*
 * The in-kernel generator's case: the whole link offered on the largest
 * trees, with slots of a second.  The run counts the memory its messages
 * hold (their own, and what the engine takes for each: worms of 64 + 40
 * bytes a hop, a stream) and ends saturated, with the reason, before it
 * holds more than max_mem.  What it counted holds the engine's growth
 * but for a part fixed by the configuration, and once the messages have
 * left, the run holds nothing and hn_trim() gives the engine's back.
 */
TEST(memory_bounded_on_big_trees)
{
	static const u32 tree[][2] = { { 12, 2 }, { 6, 4 }, { 2, 64 } };
	const struct hn_tres *res;
	struct hn_trun_cfg rc;
	struct hn_engine *e;
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_trun *r;
	u64 base, grown, fixed;
	u32 i;
	int rv;

	for (i = 0; i < ARRAY_SIZE(tree); i++) {
		sim_config_ft(&c, tree[i][0], tree[i][1], 0);
		full_load(&c, &t, &rc, 1000000000);
		rc.max_queue = 1000000;
		rc.max_mem = 8 << 20;
		r = hn_trun_create(&c, &t, &rc, &rv, NULL);
		ASSERT_NE(NULL, r);
		e = hn_trun_engine(r);
		base = hn_mem_bytes(e);
		ASSERT_EQ(0, hn_trun_run(r, 0));
		res = hn_trun_result(r);
		EXPECT_EQ(HN_END_SAT_MEM, res->end);
		EXPECT_NE(NULL, strstr(res->why, "max_mem"));
		EXPECT_LE(res->mem_max, rc.max_mem);
		/*
		 * The engine keeps what it made for them: worms, streams,
		 * tables (of 8 entries at first), in allocations of 64 worms
		 * at least.  The messages' own struct is in mem_max too.
		 */
		grown = hn_mem_bytes(e) - base;
		fixed = (u64)c.nodes * (8 * sizeof(void *) + 4 * 32) +
			64 * hn_msg_mem(e, t.size);
		EXPECT_LE(grown, res->mem_max + fixed);
		TH_LOG("FT(%u, %u): %llu messages, at most %llu bytes held, the engine grew by %llu",
		       tree[i][0], tree[i][1],
		       (unsigned long long)res->gen_msgs,
		       (unsigned long long)res->mem_max,
		       (unsigned long long)grown);
		while (hn_busy(e))
			hn_step(e);
		EXPECT_EQ(res->gen_msgs - res->inj_msgs + res->done_msgs,
			  res->gen_msgs);
		EXPECT_EQ(0, res->mem_bytes);
		EXPECT_EQ(0, hn_check(e, NULL));
		hn_trim(e);
		EXPECT_EQ(base, hn_mem_bytes(e));
		hn_trun_destroy(r);
	}
}

/* Bad names and out-of-range values are refused, with a reason. */
TEST(refusals)
{
	struct hn_err err = { 0 };
	struct hn_trun_cfg rc;
	struct hn_config c;
	struct hn_tcfg t;
	int rv;

	EXPECT_EQ(-EINVAL, hn_pattern_parse("uniformly"));
	EXPECT_EQ(-EINVAL, hn_pattern_parse(""));
	EXPECT_EQ(HN_PAT_TWOPHASE, hn_pattern_parse("two-phase"));
	EXPECT_EQ(-EINVAL, hn_net_parse("torus"));
	EXPECT_EQ(HN_NET_DYNAMIC, hn_net_parse("dynamic"));
	EXPECT_STREQ("random-to-all", hn_pattern_name(HN_PAT_RAND2ALL));
	EXPECT_EQ(NULL, hn_pattern_name(HN_NPATTERNS));

	hn_config_default(&c);
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	ASSERT_EQ(0, hn_tcfg_check(&t, &c, &err));
	t.load_ppm = 0;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "offered load"));
	t.load_ppm = 1500000;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "at most 1"));
	t.load_ppm = 1000000;
	t.size = 4;			/* 8 B per cycle: 2 messages per cycle */
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "more than one message"));
	hn_tcfg_default(&t, 16);
	t.pattern = HN_NPATTERNS;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "unknown pattern"));
	c.nodes = 12;
	hn_tcfg_default(&t, 12);
	t.pattern = HN_PAT_BITREV;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "power-of-two"));
	t.pattern = HN_PAT_TRANSPOSE;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	t.pattern = HN_PAT_OMESH;	/* 4 x 3 is fine */
	EXPECT_EQ(0, hn_tcfg_check(&t, &c, &err));
	t.grid_w = 6;
	t.grid_h = 2;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "3 x 3"));
	hn_tcfg_default(&t, 12);
	t.size = c.max_msg_bytes + 1;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "max_msg_bytes"));
	hn_tcfg_default(&t, 16);
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, &err));	/* 16 != 12 */
	/* the driver's own checks */
	c.nodes = 16;
	hn_trun_cfg_default(&rc);
	rc.measure_ns = 0;
	EXPECT_EQ(NULL, hn_trun_create(&c, &t, &rc, &rv, &err));
	EXPECT_EQ(-EINVAL, rv);
	EXPECT_NE(NULL, strstr(err.msg, "measurement window"));
	hn_trun_cfg_default(&rc);
	rc.net = HN_NET_WORMHOLE;
	rc.preload_slots = 2;
	EXPECT_EQ(NULL, hn_trun_create(&c, &t, &rc, &rv, &err));
	rc.net = HN_NNETS;
	EXPECT_EQ(NULL, hn_trun_create(&c, &t, &rc, &rv, &err));
	EXPECT_NE(NULL, strstr(err.msg, "unknown network"));
}

/*
 * On an engine someone else owns (as the module's generator will run):
 * the owner's callbacks hand the driver's messages back, and the run gives
 * the same result as on an engine of its own.
 */
static struct hn_trun *attached;

static void owner_deliver(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	if (m->owner == HN_OWNER_TRUN)
		hn_trun_delivered(attached, m);
	else
		abort();
}

static void owner_reclaim(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	hn_trun_reclaimed(attached, m);
}

static bool owner_room(void *ctx, u32 node, u64 t)
{
	(void)ctx;
	return hn_trun_room(attached, node, t);
}

TEST(attach_to_an_engine)
{
	static const struct hn_ops ops = {
		.deliver = owner_deliver, .reclaim = owner_reclaim,
		.room = owner_room,
	};
	struct hn_trun_cfg rc;
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_engine *e;
	struct hn_trun *own;
	struct hn_tres a, b;
	int rv;

	hn_config_default(&c);
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	t.pattern = HN_PAT_MIXED;
	t.inject = HN_INJ_BATCH;
	t.batch = 50;
	hn_trun_cfg_default(&rc);
	rc.preload_slots = 4;
	own = hn_trun_create(&c, &t, &rc, &rv, NULL);
	ASSERT_NE(NULL, own);
	ASSERT_EQ(0, hn_trun_run(own, 0));
	a = *hn_trun_result(own);
	hn_trun_destroy(own);

	e = hn_create(&c, &ops, NULL, &rv);
	ASSERT_NE(NULL, e);
	attached = hn_trun_attach(e, &t, &rc, &rv, NULL);
	ASSERT_NE(NULL, attached);
	EXPECT_EQ(16, hn_slot_conns(e, 0));	/* east, preloaded */
	ASSERT_EQ(0, hn_trun_run(attached, 0));
	b = *hn_trun_result(attached);
	EXPECT_EQ(HN_END_DONE, b.end);
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	EXPECT_EQ(0, hn_check(e, NULL));
	hn_destroy(e);		/* nothing left to reclaim */
	hn_trun_destroy(attached);
}

/*
 * Sec. 4.6.2's phases (struct hn_tcfg.phases).  A run of the phased
 * pattern on an engine of the test's own, whose deliveries are recorded:
 * 16 nodes, 8 messages per ordered+random pair at ratio 0.5, 32 messages
 * per node (phases 0..7 of 4 messages each), the ordered mesh preloaded in
 * 4 slots (the Ch. 4 hybrid) under PREEMPT.  The PE makes a 128 B message
 * in 32 ns (32 Gb/s), so a node's generation times strictly increase and
 * its i-th message is the i-th in time.
 */
#define PH_N		16
#define PH_BATCH	32
struct ph_rec {
	u32 src;
	u64 t_inject, t_deliver;
	u8 mode, hint;
};
static struct ph_rec ph_log[PH_N * PH_BATCH];
static u32 ph_n;
static struct hn_trun *ph_run;

static void ph_deliver(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	if (ph_n < ARRAY_SIZE(ph_log))
		ph_log[ph_n++] = (struct ph_rec){ m->src, m->t_inject,
						  m->t_deliver, m->mode,
						  m->hint };
	hn_trun_delivered(ph_run, m);
}

static void ph_reclaim(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	hn_trun_reclaimed(ph_run, m);
}

static int ph_cmp(const void *a, const void *b)
{
	const struct ph_rec *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->t_inject < y->t_inject ? -1 : x->t_inject > y->t_inject;
}

/* Run it with @phases; the log sorted by source, then generation. */
static int ph_runit(u32 phases, struct hn_gstats *g)
{
	static const struct hn_ops ops = {
		.deliver = ph_deliver, .reclaim = ph_reclaim,
	};
	struct hn_trun_cfg rc;
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_engine *e;
	int rv;

	hn_config_default(&c);
	c.nodes = PH_N;
	c.policy = HN_POL_PREEMPT;
	hn_tcfg_default(&t, PH_N);
	t.pattern = HN_PAT_PHASED;
	t.phases = phases;
	t.phase_msgs = 8;
	t.pred_ppm = 500000;
	t.inject = HN_INJ_BATCH;
	t.batch = PH_BATCH;
	t.gen_mbps = 32000;
	hn_trun_cfg_default(&rc);
	rc.preload_slots = 4;
	e = hn_create(&c, &ops, NULL, &rv);
	if (!e)
		return rv;
	ph_n = 0;
	ph_run = hn_trun_attach(e, &t, &rc, &rv, NULL);
	if (!ph_run) {
		hn_destroy(e);
		return rv;
	}
	rv = hn_trun_run(ph_run, 0);
	if (!rv && hn_trun_result(ph_run)->end != HN_END_DONE)
		rv = -EIO;
	hn_stats_global(e, g);
	hn_destroy(e);
	hn_trun_destroy(ph_run);
	qsort(ph_log, ph_n, sizeof(*ph_log), ph_cmp);
	return rv;
}

/* The latest arrival of phase @p and the earliest generation of p + 1. */
static void ph_edges(u32 p, u64 *last_arrival, u64 *first_gen)
{
	u32 i, k;

	*last_arrival = 0;
	*first_gen = HN_U64_MAX;
	for (i = 0; i < ph_n; i++) {
		k = i % PH_BATCH / 4;		/* the node's phase */
		if (k == p)
			*last_arrival = hn_max64(*last_arrival,
						 ph_log[i].t_deliver);
		else if (k == p + 1)
			*first_gen = hn_min64(*first_gen, ph_log[i].t_inject);
	}
}

/* no node makes a message of the next phase before every message of the
 * current one, from every node, has arrived */
static void ph_barriers(struct __test_metadata *_metadata)
{
	u64 last, first;
	u32 i, p;

	ASSERT_EQ(PH_N * PH_BATCH, ph_n);
	for (i = 1; i < ph_n; i++)
		if (ph_log[i].src == ph_log[i - 1].src)
			ASSERT_LT(ph_log[i - 1].t_inject, ph_log[i].t_inject);
	for (p = 0; p + 1 < PH_BATCH / 4; p++) {
		ph_edges(p, &last, &first);
		EXPECT_LE(last, first) {
			TH_LOG("phase %u ends at %llu, phase %u starts at %llu",
			       p, (unsigned long long)last, p + 1,
			       (unsigned long long)first);
		}
	}
}

/*
 * Global phases (the default): barriers between phases, and the NIC's
 * table tags every message, as the text's NIC does: the ordered phases go
 * by circuit, and so do the random-phase messages to a neighbour.
 */
TEST(phases_global)
{
	struct hn_gstats g;
	u32 i;

	ASSERT_EQ(0, ph_runit(HN_PHASES_GLOBAL, &g));
	ph_barriers(_metadata);
	for (i = 0; i < ph_n; i++) {
		EXPECT_EQ(HN_HINT_NONE, ph_log[i].hint);
		if (!(i % PH_BATCH / 4 & 1))
			EXPECT_EQ(HN_MODE_CIRCUIT, ph_log[i].mode);
	}
	EXPECT_GT(g.rx_msgs[HN_MODE_CIRCUIT], PH_N * PH_BATCH / 2);
}

/*
 * global-hint, our option: the same barriers, and random-phase messages
 * hinted wormhole go wormhole, so the circuits carry exactly the
 * ordered-mesh phases (half the messages) and PREEMPT's slots are passed
 * over during the random phases.
 */
TEST(phases_global_hint)
{
	struct hn_gstats g;
	u32 i, p;

	ASSERT_EQ(0, ph_runit(HN_PHASES_GLOBAL_HINT, &g));
	ph_barriers(_metadata);
	for (i = 0; i < ph_n; i++) {
		p = i % PH_BATCH / 4;
		EXPECT_EQ(p & 1 ? HN_MODE_WORMHOLE : HN_MODE_CIRCUIT,
			  ph_log[i].mode);
		EXPECT_EQ(p & 1 ? HN_HINT_WORMHOLE : HN_HINT_NONE,
			  ph_log[i].hint);
	}
	EXPECT_EQ(PH_N * PH_BATCH / 2, g.rx_msgs[HN_MODE_CIRCUIT]);
	EXPECT_GT(g.slot[0].preempted, 0);
}

/*
 * Per-node phases, the engine's first model, kept as an option: nodes
 * drift out of phase (some node starts a phase before another's previous
 * one has all arrived) and the table tags random messages to a neighbour
 * circuit.
 */
TEST(phases_per_node)
{
	u64 last, first;
	struct hn_gstats g;
	u32 p, overlaps = 0;

	ASSERT_EQ(0, ph_runit(HN_PHASES_PER_NODE, &g));
	ASSERT_EQ(PH_N * PH_BATCH, ph_n);
	for (p = 0; p + 1 < PH_BATCH / 4; p++) {
		ph_edges(p, &last, &first);
		overlaps += first < last;
	}
	EXPECT_GT(overlaps, 0);
	EXPECT_GT(g.rx_msgs[HN_MODE_CIRCUIT], PH_N * PH_BATCH / 2);
}

/* hn_tgen_phase() and hn_tgen_phase_msgs() on phase pairs of 8 at 0.5. */
TEST(phase_numbers)
{
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_tgen *g;
	bool rnd;
	u32 i;

	hn_config_default(&c);
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	t.pattern = HN_PAT_PHASED;
	t.phase_msgs = 8;
	t.pred_ppm = 500000;
	g = hn_tgen_create(&t, &c, NULL);
	ASSERT_NE(NULL, g);
	for (i = 0; i < 20; i++) {
		EXPECT_EQ(i / 4, hn_tgen_phase(g, 3, &rnd));
		EXPECT_EQ(i / 4 % 2 == 1, rnd);
		hn_tgen_dest(g, 3);
	}
	EXPECT_EQ(4, hn_tgen_phase_msgs(g, 0, HN_U64_MAX));
	EXPECT_EQ(4, hn_tgen_phase_msgs(g, 5, HN_U64_MAX));
	EXPECT_EQ(2, hn_tgen_phase_msgs(g, 2, 10));	/* messages 8, 9 */
	EXPECT_EQ(0, hn_tgen_phase_msgs(g, 3, 10));
	hn_tgen_destroy(g);
	/* one kind only (ratio 1): one phase, every message ordered */
	t.pred_ppm = 1000000;
	g = hn_tgen_create(&t, &c, NULL);
	ASSERT_NE(NULL, g);
	for (i = 0; i < 10; i++) {
		EXPECT_EQ(0, hn_tgen_phase(g, 3, &rnd));
		EXPECT_FALSE(rnd);
		hn_tgen_dest(g, 3);
	}
	EXPECT_EQ(10, hn_tgen_phase_msgs(g, 0, 10));
	EXPECT_EQ(0, hn_tgen_phase_msgs(g, 1, 10));
	hn_tgen_destroy(g);
	t.phases = HN_NPHASES;
	EXPECT_EQ(-EINVAL, hn_tcfg_check(&t, &c, NULL));
}

TEST_HARNESS_MAIN
