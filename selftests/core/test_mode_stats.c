// SPDX-License-Identifier: GPL-2.0
/*
 * test_mode_stats.c - the statistics by switching mode and by pair
 * (kmod/core/stats.c, pair_stats.c): each mode's latency (count, mean,
 * min, max, p50, p99), globally and per node; each pair's messages, bytes
 * and latency by mode, in a table of at most HN_PAIRS_MAX pairs whose
 * overflow is counted; a reset clears them all.
 */
#include "harness.h"
#include "sim.h"

/* Let virtual time pass to @t with nothing queued. */
static void idle_to(struct sim *s, u64 t)
{
	hn_run_until(s->e, t);
}

/*
 * ding4 at zero load, the closed forms of test_latency.c: a frame of L
 * bytes on a preloaded circuit whose slot is the only one configured (SES
 * runs it back to back) leaves at link rate from the moment it arrives,
 * on the slot's byte grid (at most one byte time later), then crosses
 * both NICs and wires and the fabric; by wormhole (Eq. 3.3) it pays the
 * same path, the first flit's arbitration and one flit time per flit.
 * (The byte grid: 6.4 Gb/s is 1.25 ns a byte, so 98 B take 122.5 ns,
 * 122 to 124 from the next byte's start.)
 */
static u64 circuit_max(const struct hn_config *c, u32 len)
{
	return hn_bytes_ns(c, len + 1) + 2ULL * c->nic_ns +
	       2ULL * (c->wire_ns - c->serdes_ns) + c->fabric_ns;
}

static u64 wormhole_zero_load(const struct hn_config *c, u32 len)
{
	return 2ULL * (c->nic_ns + c->wire_ns) + c->fabric_ns +
	       (c->wh_first_ns - c->wh_flit_ns) +
	       (u64)(len + c->flit_bytes - 1) / c->flit_bytes * c->wh_flit_ns;
}

/*
 * Ping's frames (98 B: IPv4 echo with 56 bytes of data) one at a time,
 * from 0 to 1 on a circuit, then, the circuits released, from 2 to 3 by
 * wormhole: each mode's latency is its closed form, and the circuit's is
 * the lower, globally and per node.  (With the circuit still there, a
 * worm would wait for its slot to end: SES runs S_W only once wormhole
 * data waits.)
 */
TEST(by_mode_globally_and_per_node)
{
	struct hn_pair p[2] = { { 0, 1 }, { 1, 0 } };
	struct hn_nstats n1, n3;
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	u64 t = 1000, cmax, wlat;
	u32 i;

	ASSERT_EQ(0, hn_config_profile(&c, "ding4"));
	c.nodes = 4;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, p, 2));
	for (i = 0; i < 10; i++, t += 1037) {
		idle_to(&s, t);
		ASSERT_EQ(0, sim_send(&s, 0, 1, 98));
		sim_drain(&s, t + 1000);
	}
	ASSERT_EQ(0, hn_release_all(s.e, NULL));
	for (i = 0; i < 10; i++, t += 1037) {
		idle_to(&s, t);
		ASSERT_EQ(0, sim_send(&s, 2, 3, 98));
		sim_drain(&s, t + 1000);
	}
	ASSERT_EQ(20, s.nlog);
	hn_stats_global(s.e, &g);
	cmax = circuit_max(&c, 98);
	wlat = wormhole_zero_load(&c, 98);
	EXPECT_EQ(165, cmax);		/* 99 B 124 + 2 x 10 + 2 x 10 + 1 */
	EXPECT_EQ(191, wlat);		/* 40 + 1 + 20 + 13 x 10 */
	EXPECT_EQ(10, g.rx_msgs[HN_MODE_CIRCUIT]);
	EXPECT_EQ(10, g.rx_msgs[HN_MODE_WORMHOLE]);
	EXPECT_LE(g.lat_mode[HN_MODE_CIRCUIT].max, cmax);
	EXPECT_GE(g.lat_mode[HN_MODE_CIRCUIT].min, cmax - 2);	/* 98 B 122.5 */
	EXPECT_EQ(wlat, g.lat_mode[HN_MODE_WORMHOLE].min);
	EXPECT_EQ(wlat, g.lat_mode[HN_MODE_WORMHOLE].max);
	EXPECT_EQ(10 * wlat, g.lat_mode[HN_MODE_WORMHOLE].sum);
	EXPECT_LT(g.lat_mode[HN_MODE_CIRCUIT].sum,
		  g.lat_mode[HN_MODE_WORMHOLE].sum);
	EXPECT_EQ(g.lat_sum, g.lat_mode[0].sum + g.lat_mode[1].sum);
	EXPECT_EQ(g.lat_min, g.lat_mode[HN_MODE_CIRCUIT].min);
	EXPECT_EQ(g.lat_max, wlat);
	/* percentiles of one mode, by the one percentile function */
	for (i = 0; i < HN_NMODES; i++) {
		u64 p50 = hn_hist_percentile(g.hist_mode[i], g.lat_mode[i].min,
					     g.lat_mode[i].max, 500);
		u64 p99 = hn_hist_percentile(g.hist_mode[i], g.lat_mode[i].min,
					     g.lat_mode[i].max, 990);

		EXPECT_GE(p50, g.lat_mode[i].min);
		EXPECT_LE(p50, p99);
		EXPECT_LE(p99, g.lat_mode[i].max);
	}
	EXPECT_EQ(wlat, hn_hist_percentile(g.hist_mode[HN_MODE_WORMHOLE],
					   wlat, wlat, 990));
	/* per node: at the receiver */
	ASSERT_EQ(0, hn_stats_node(s.e, 1, &n1));
	ASSERT_EQ(0, hn_stats_node(s.e, 3, &n3));
	EXPECT_EQ(10, n1.rx_msgs[HN_MODE_CIRCUIT]);
	EXPECT_EQ(g.lat_mode[HN_MODE_CIRCUIT].sum,
		  n1.lat_mode[HN_MODE_CIRCUIT].sum);
	EXPECT_EQ(g.lat_mode[HN_MODE_CIRCUIT].min,
		  n1.lat_mode[HN_MODE_CIRCUIT].min);
	EXPECT_EQ(0, n1.lat_mode[HN_MODE_WORMHOLE].sum);
	EXPECT_EQ(HN_U64_MAX, n1.lat_mode[HN_MODE_WORMHOLE].min);
	EXPECT_EQ(0, n1.lat_mode[HN_MODE_WORMHOLE].max);
	EXPECT_EQ(10 * wlat, n3.lat_mode[HN_MODE_WORMHOLE].sum);
	EXPECT_EQ(wlat, n3.lat_mode[HN_MODE_WORMHOLE].max);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/*
 * Circuit against wormhole at low load, for sizes from one byte to
 * messages of several worms and slots: one message on the circuit, then
 * the same once the circuit is released.  The circuit is faster, and
 * up to a worm each is its closed form.
 */
TEST(circuit_below_wormhole_at_low_load)
{
	static const u32 len[] = { 1, 8, 64, 98, 118, 128, 1000, 1514, 8192 };
	struct hn_pair p = { 0, 1 };
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	u32 i;

	ASSERT_EQ(0, hn_config_profile(&c, "ding4"));
	c.nodes = 4;
	for (i = 0; i < ARRAY_SIZE(len); i++) {
		ASSERT_EQ(0, sim_init(&s, &c));
		ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
		idle_to(&s, 777);
		ASSERT_EQ(0, sim_send(&s, 0, 1, len[i]));
		sim_drain(&s, 1000000);
		ASSERT_EQ(0, hn_release_all(s.e, NULL));
		idle_to(&s, hn_now(s.e) + 3333);
		ASSERT_EQ(0, sim_send(&s, 0, 1, len[i]));
		sim_drain(&s, 2000000);
		hn_stats_global(s.e, &g);
		ASSERT_EQ(1, g.rx_msgs[HN_MODE_CIRCUIT]);
		ASSERT_EQ(1, g.rx_msgs[HN_MODE_WORMHOLE]);
		EXPECT_LT(g.lat_mode[HN_MODE_CIRCUIT].sum,
			  g.lat_mode[HN_MODE_WORMHOLE].sum);
		if (len[i] <= c.worm_bytes) {
			EXPECT_LE(g.lat_mode[HN_MODE_CIRCUIT].sum,
				  circuit_max(&c, len[i]));
			EXPECT_EQ(wormhole_zero_load(&c, len[i]),
				  g.lat_mode[HN_MODE_WORMHOLE].sum);
		}
		EXPECT_EQ(0, hn_check(s.e, NULL));
		sim_fini(&s);
	}
}

static struct hn_pair_stats pair_at(struct hn_engine *e, u32 i)
{
	struct hn_pair_stats ps;

	memset(&ps, 0xee, sizeof(ps));
	if (hn_pair_stats(e, i, &ps))
		ps.src = ps.dst = HN_NONE;
	return ps;
}

/*
 * Each pair's messages, bytes and latency by mode, in the order of the
 * pairs' first delivery; a pair whose circuit goes counts its later
 * messages as wormhole.
 */
TEST(per_pair_by_mode)
{
	struct hn_pair p = { 0, 1 };
	struct hn_pair_stats a, b;
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	u64 csum = 0, wsum = 0;
	u32 i;

	ASSERT_EQ(0, hn_config_profile(&c, "ding4"));
	c.nodes = 8;
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_preload1(&s, 0, &p, 1));
	ASSERT_EQ(0, sim_send(&s, 5, 2, 40));
	sim_drain(&s, 100000);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, sim_send(&s, 0, 1, 100));
	sim_drain(&s, 100000);
	ASSERT_EQ(0, hn_release_all(s.e, NULL));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, sim_send(&s, 0, 1, 50));
	sim_drain(&s, 100000);
	ASSERT_EQ(6, s.nlog);
	for (i = 0; i < s.nlog; i++) {
		struct hn_msg *m = &s.log[i]->m;

		if (m->src != 0)
			continue;
		if (m->mode == HN_MODE_CIRCUIT)
			csum += m->t_deliver - m->t_inject;
		else
			wsum += m->t_deliver - m->t_inject;
	}
	hn_stats_global(s.e, &g);
	EXPECT_EQ(2, g.pairs);
	EXPECT_EQ(8 * 7, g.pairs_max);
	EXPECT_EQ(0, g.pair_overflow_msgs);
	a = pair_at(s.e, 0);
	b = pair_at(s.e, 1);
	EXPECT_EQ(5, a.src);
	EXPECT_EQ(2, a.dst);
	EXPECT_EQ(0, a.msgs[HN_MODE_CIRCUIT]);
	EXPECT_EQ(1, a.msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(40, a.bytes[HN_MODE_WORMHOLE]);
	EXPECT_EQ(0, b.src);
	EXPECT_EQ(1, b.dst);
	EXPECT_EQ(3, b.msgs[HN_MODE_CIRCUIT]);
	EXPECT_EQ(300, b.bytes[HN_MODE_CIRCUIT]);
	EXPECT_EQ(2, b.msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(100, b.bytes[HN_MODE_WORMHOLE]);
	EXPECT_EQ(csum, b.lat_sum[HN_MODE_CIRCUIT]);
	EXPECT_EQ(wsum, b.lat_sum[HN_MODE_WORMHOLE]);
	EXPECT_EQ(HN_NONE, pair_at(s.e, 2).src);
	EXPECT_EQ(-ENOENT, hn_pair_stats(s.e, 2, &a));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/* The table holds every pair up to HN_PAIRS_MAX: min(N (N - 1), it). */
TEST(table_size)
{
	static const u32 n[] = { 2, 3, 64, 128, 129, 4096 };
	struct hn_config c;
	struct hn_gstats g;
	struct hn_engine *e;
	struct sim s;
	u32 i;

	EXPECT_EQ(128 * 127, 16256);
	EXPECT_LE(128 * 127, HN_PAIRS_MAX);
	for (i = 0; i < ARRAY_SIZE(n); i++) {
		sim_config_zero(&c, n[i], 1);
		e = hn_create(&c, &sim_ops, &s, NULL);
		ASSERT_NE(NULL, e);
		hn_stats_global(e, &g);
		EXPECT_EQ(n[i] * (n[i] - 1) < HN_PAIRS_MAX ?
			  n[i] * (n[i] - 1) : HN_PAIRS_MAX, g.pairs_max);
		EXPECT_EQ(0, g.pairs);
		/* accounted: 56 bytes a pair and 2..4 index entries of 4 */
		EXPECT_GE(hn_mem_bytes(e), (u64)g.pairs_max * (56 + 8));
		hn_destroy(e);
	}
}

/*
 * More pairs than the table holds: the first HN_PAIRS_MAX to deliver are
 * kept, every message of the others is counted in the overflow (never
 * lost), messages of pairs in the table are still counted there, and a
 * reset empties table and overflow.
 */
TEST(overflow_counted_and_reset)
{
	const u32 N = 200, extra = 123, len = 8;
	struct hn_pair_stats ps;
	struct hn_config c;
	struct hn_gstats g;
	struct sim s;
	u32 i, src, dst, sent = 0;

	sim_config_zero(&c, N, 1);
	ASSERT_EQ(0, sim_init(&s, &c));
	/* pair i is (i / (N - 1), its (i % (N - 1))-th other node) */
	for (i = 0; i < HN_PAIRS_MAX + extra; i++) {
		src = i / (N - 1);
		dst = i % (N - 1);
		dst += dst >= src;
		ASSERT_EQ(0, sim_send(&s, src, dst, len));
		sent++;
		if (sent % 1000 == 0)
			sim_drain(&s, HN_U64_MAX);
	}
	sim_drain(&s, HN_U64_MAX);
	ASSERT_EQ(sent, s.nlog);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(HN_PAIRS_MAX, g.pairs);
	EXPECT_EQ(HN_PAIRS_MAX, g.pairs_max);
	EXPECT_EQ(extra, g.pair_overflow_msgs);
	EXPECT_EQ(extra * len, g.pair_overflow_bytes);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	/* a pair of the table: counted there, not in the overflow */
	ASSERT_EQ(0, hn_pair_stats(s.e, 0, &ps));
	ASSERT_EQ(0, sim_send(&s, ps.src, ps.dst, len));
	/* a pair that is not: the overflow */
	ASSERT_EQ(0, sim_send(&s, N - 1, N - 2, len));
	sim_drain(&s, HN_U64_MAX);
	hn_stats_global(s.e, &g);
	ASSERT_EQ(0, hn_pair_stats(s.e, 0, &ps));
	EXPECT_EQ(2, ps.msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(extra + 1, g.pair_overflow_msgs);
	EXPECT_EQ(HN_PAIRS_MAX, g.pairs);
	EXPECT_EQ(0, hn_check(s.e, NULL));

	hn_stats_reset(s.e);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(0, g.pairs);
	EXPECT_EQ(HN_PAIRS_MAX, g.pairs_max);
	EXPECT_EQ(0, g.pair_overflow_msgs);
	EXPECT_EQ(0, g.pair_overflow_bytes);
	for (i = 0; i < HN_NMODES; i++) {
		EXPECT_EQ(0, g.lat_mode[i].sum);
		EXPECT_EQ(HN_U64_MAX, g.lat_mode[i].min);
		EXPECT_EQ(0, g.lat_mode[i].max);
		EXPECT_EQ(0, hn_hist_percentile(g.hist_mode[i], 0, 0, 500));
	}
	EXPECT_EQ(-ENOENT, hn_pair_stats(s.e, 0, &ps));
	/* the pair that overflowed has room now */
	ASSERT_EQ(0, sim_send(&s, N - 1, N - 2, len));
	sim_drain(&s, HN_U64_MAX);
	hn_stats_global(s.e, &g);
	EXPECT_EQ(1, g.pairs);
	EXPECT_EQ(0, g.pair_overflow_msgs);
	ASSERT_EQ(0, hn_pair_stats(s.e, 0, &ps));
	EXPECT_EQ(N - 1, ps.src);
	EXPECT_EQ(N - 2, ps.dst);
	EXPECT_EQ(1, ps.msgs[HN_MODE_WORMHOLE]);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_fini(&s);
}

/* A node's per-mode latency is cleared by a reset too. */
TEST(reset_clears_nodes)
{
	struct hn_config c;
	struct hn_nstats n;
	struct sim s;
	u32 m;

	sim_config_zero(&c, 4, 1);
	ASSERT_EQ(0, sim_init(&s, &c));
	ASSERT_EQ(0, sim_send(&s, 0, 3, 64));
	sim_drain(&s, 100000);
	ASSERT_EQ(0, hn_stats_node(s.e, 3, &n));
	EXPECT_NE(0, n.lat_mode[HN_MODE_WORMHOLE].max);
	hn_stats_reset(s.e);
	ASSERT_EQ(0, hn_stats_node(s.e, 3, &n));
	for (m = 0; m < HN_NMODES; m++) {
		EXPECT_EQ(0, n.lat_mode[m].sum);
		EXPECT_EQ(HN_U64_MAX, n.lat_mode[m].min);
		EXPECT_EQ(0, n.lat_mode[m].max);
	}
	sim_fini(&s);
}

/*
 * The run driver (hnsim run, the module's generator) splits its measured
 * messages' latency by mode too: the mixed pattern on a preloaded plan
 * (Sec. 4.6.1) sends both ways, and the modes add up to the whole.
 */
TEST(run_by_mode)
{
	struct hn_trun_cfg rc;
	struct hn_config c;
	struct hn_gstats g;
	struct hn_tcfg t;
	struct hn_tres *r = calloc(1, sizeof(*r));
	u64 n = 0, sum = 0, b, h;
	u32 m;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_config_profile(&c, "ding4"));
	c.nodes = 16;
	hn_tcfg_default(&t, c.nodes);
	t.pattern = HN_PAT_MIXED;
	t.inject = HN_INJ_BATCH;
	t.batch = 50;
	t.pred_ppm = 500000;
	hn_trun_cfg_default(&rc);
	rc.preload_slots = c.k;
	ASSERT_EQ(0, sim_trun(&c, &t, &rc, r, &g));
	for (m = 0; m < HN_NMODES; m++) {
		EXPECT_LT(0, r->lat_n_mode[m]);
		EXPECT_EQ(g.rx_msgs[m], r->lat_n_mode[m]);	/* batch: all */
		EXPECT_EQ(g.lat_mode[m].sum, r->lat_mode[m].sum);
		EXPECT_EQ(g.lat_mode[m].max, r->lat_mode[m].max);
		n += r->lat_n_mode[m];
		sum += r->lat_mode[m].sum;
	}
	EXPECT_EQ(r->lat_n, n);
	EXPECT_EQ(r->lat_sum, sum);
	for (b = 0; b < HN_HIST_BUCKETS; b++) {
		h = r->hist_mode[0][b] + r->hist_mode[1][b];
		if (h != r->hist[b])
			break;
	}
	EXPECT_EQ(HN_HIST_BUCKETS, b);
	free(r);
}

TEST_HARNESS_MAIN
