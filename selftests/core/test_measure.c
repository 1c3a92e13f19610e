// SPDX-License-Identifier: GPL-2.0
/*
 * test_measure.c - what the runs report (issue 10, "Measurement
 * correctness"): offered and accepted load over the part of the window a
 * run lived, saturation just above capacity found by the convergence test
 * whatever the window, an end that says what was delivered, and latency
 * percentiles that are true upper bounds within [min, max]
 * (kmod/core/traffic_run.c, stats.c).
 */
#include "harness.h"
#include "sim.h"
#include "hn_traffic.h"

/* A Bernoulli run of @pattern at @load_ppm on @nodes nodes, K = 0. */
static struct hn_trun *bern_of(u32 pattern, u32 nodes, u32 load_ppm,
			       const struct hn_trun_cfg *rc)
{
	struct hn_config c;
	struct hn_tcfg t;
	int rv;

	hn_config_default(&c);
	c.nodes = nodes;
	c.k = 0;
	hn_tcfg_default(&t, nodes);
	t.pattern = pattern;
	t.load_ppm = load_ppm;
	return hn_trun_create(&c, &t, rc, &rv, NULL);
}

/* the same, uniform */
static struct hn_trun *bern(u32 nodes, u32 load_ppm,
			    const struct hn_trun_cfg *rc)
{
	return bern_of(HN_PAT_UNIFORM, nodes, load_ppm, rc);
}

static u64 lcg(u64 *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The percentile is the top of the nearest-rank value's bucket, cut at
 * the largest value: never below the value, never above max (nor below
 * min), and at most 12.5 % above the value.
 */
TEST(percentile_is_a_bound)
{
	static const u32 pm[] = { 1, 100, 500, 900, 990, 999, 1000 };
	static u64 hist[HN_HIST_BUCKETS];
	static u64 v[5000];
	u64 seed = 7, min, max, want, got;
	u32 i, k, d, n;

	EXPECT_EQ(0, hn_hist_percentile(hist, HN_U64_MAX, 0, 500));
	/* one latency, 78580 ns: its bucket tops at 81919 */
	hist[hn_hist_bucket(78580)] = 1;
	EXPECT_EQ(78580, hn_hist_percentile(hist, 78580, 78580, 990));
	EXPECT_EQ(78580, hn_hist_percentile(hist, 78580, 78580, 500));
	hist[hn_hist_bucket(78580)] = 0;

	for (d = 0; d < 4; d++) {
		n = d == 3 ? 3 : 5000;
		memset(hist, 0, sizeof(hist));
		min = HN_U64_MAX;
		max = 0;
		for (i = 0; i < n; i++) {
			switch (d) {
			case 0:		/* uniform, small */
				v[i] = lcg(&seed) % 40;
				break;
			case 1:		/* uniform, wide */
				v[i] = 200 + lcg(&seed) % 100000;
				break;
			default:	/* heavy tail */
				v[i] = 220 + (lcg(&seed) % 1000) *
				       (lcg(&seed) % 1000) *
				       (1 + lcg(&seed) % 100);
				break;
			}
			hist[hn_hist_bucket(v[i])]++;
			min = v[i] < min ? v[i] : min;
			max = v[i] > max ? v[i] : max;
		}
		qsort(v, n, sizeof(v[0]), cmp_u64);
		for (k = 0; k < ARRAY_SIZE(pm); k++) {
			i = (u32)(((u64)n * pm[k] + 999) / 1000);
			want = v[(i ? i : 1) - 1];
			got = hn_hist_percentile(hist, min, max, pm[k]);
			EXPECT_LE(want, got);
			EXPECT_LE(got, max);
			EXPECT_GE(got, min);
			EXPECT_LE(got, want + want / 8);
		}
	}
}

/* A run's own percentiles, as every tool reports them, stay within. */
TEST(run_percentiles_within_min_max)
{
	const struct hn_tres *res;
	struct hn_trun_cfg rc;
	struct hn_trun *r;
	u64 p50, p99;

	hn_trun_cfg_default(&rc);
	r = bern(16, 500000, &rc);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	ASSERT_GT(res->lat_n, 0);
	p50 = hn_hist_percentile(res->hist, res->lat_min, res->lat_max, 500);
	p99 = hn_hist_percentile(res->hist, res->lat_min, res->lat_max, 990);
	EXPECT_LE(res->lat_min, p50);
	EXPECT_LE(p50, p99);
	EXPECT_LE(p99, res->lat_max);
	hn_trun_destroy(r);
}

/*
 * A run that ends inside its window (here the queue limit, with the
 * warm-up held to its minimum) divides by the part it lived: the load
 * offered is the load asked for, not that times the fraction lived.
 */
TEST(offered_over_the_window_lived)
{
	const struct hn_tres *res;
	struct hn_trun_cfg rc;
	struct hn_trun *r;

	hn_trun_cfg_default(&rc);
	rc.measure_ns = 400000;		/* warm-up: half of it, 200 us */
	rc.warmup_max_ns = rc.warmup_ns;
	rc.max_queue = 300;
	r = bern(32, 1000000, &rc);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_SAT_QUEUE, res->end);
	EXPECT_GT(res->measured_ns, 0);
	EXPECT_LT(res->measured_ns, rc.measure_ns);
	EXPECT_EQ(res->measured_ns, res->t_end - res->warmup_taken_ns);
	TH_LOG("cut at %llu of %llu ns: offered %.4f, accepted %.4f",
	       (unsigned long long)res->measured_ns,
	       (unsigned long long)rc.measure_ns, res->offered_ppm / 1e6,
	       res->accepted_ppm / 1e6);
	EXPECT_GT(res->offered_ppm, 950000);
	EXPECT_LT(res->offered_ppm, 1050000);
	EXPECT_LT(res->accepted_ppm, res->offered_ppm);
	EXPECT_GT(res->accepted_ppm, 700000);
	hn_trun_destroy(r);
}

/*
 * Just above capacity (K = 0 carries about 0.87 of the link, uniform):
 * the run is saturated, whatever the window; the accepted load alone
 * falls within the 5 % tolerance of the offered.  Below, it converges,
 * and its mean latency does not depend on the window.
 */
TEST(saturation_just_above_capacity)
{
	static const u64 win[] = { 100000, 300000 };
	const struct hn_tres *res;
	struct hn_trun_cfg rc;
	struct hn_trun *r;
	u64 mean[2];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(win); i++) {
		hn_trun_cfg_default(&rc);
		rc.measure_ns = win[i];
		r = bern(32, 900000, &rc);
		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, hn_trun_run(r, 0));
		res = hn_trun_result(r);
		TH_LOG("load 0.9, window %llu ns: %s",
		       (unsigned long long)win[i], res->why);
		EXPECT_NE(HN_END_DONE, res->end);
		EXPECT_NE(NULL, strstr(res->why, "saturated"));
		hn_trun_destroy(r);

		r = bern(32, 500000, &rc);
		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, hn_trun_run(r, 0));
		res = hn_trun_result(r);
		EXPECT_EQ(HN_END_DONE, res->end);
		EXPECT_FALSE(res->rising);
		EXPECT_EQ(HN_TRUN_SAMPLES, res->trend_periods);
		EXPECT_LT(res->trend_up, res->trend_down + res->trend_min);
		EXPECT_EQ(res->measured_ns, win[i]);
		mean[i] = res->lat_sum / res->lat_n;
		hn_trun_destroy(r);
	}
	TH_LOG("load 0.5: mean latency %llu and %llu ns",
	       (unsigned long long)mean[0], (unsigned long long)mean[1]);
	EXPECT_LT(mean[0] > mean[1] ? mean[0] - mean[1] : mean[1] - mean[0],
		  mean[1] / 10);
}

/* The trend: the window's periods rise past capacity; the warm-up waits. */
TEST(convergence_figures)
{
	const struct hn_tres *res;
	struct hn_trun_cfg rc;
	struct hn_trun *r;
	u32 i;

	hn_trun_cfg_default(&rc);
	r = bern(32, 900000, &rc);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_SAT_TREND, res->end);
	EXPECT_TRUE(res->rising);
	EXPECT_GE(res->trend_up, res->trend_down + res->trend_min);
	EXPECT_GT(res->lat_second, res->lat_first);
	/* the warm-up went on while the latency rose, to its limit */
	EXPECT_TRUE(res->warmup_capped);
	EXPECT_EQ(rc.warmup_ns + HN_TRUN_SAMPLES * rc.measure_ns,
		  res->warmup_taken_ns);
	for (i = 0; i < HN_TRUN_SAMPLES; i++)
		EXPECT_GT(res->smp_lat_n[i], 0);
	hn_trun_destroy(r);

	/* below capacity: at least --warmup and half the window, not more
	 * than a few periods beyond */
	r = bern(32, 300000, &rc);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_DONE, res->end);
	EXPECT_FALSE(res->warmup_capped);
	EXPECT_GE(res->warmup_taken_ns, rc.measure_ns / 2);
	EXPECT_LT(res->warmup_taken_ns, 2 * rc.measure_ns);
	hn_trun_destroy(r);
}

/* A Bernoulli run that completed says which messages it waited for. */
TEST(done_says_what_was_delivered)
{
	const struct hn_tres *res;
	struct hn_trun_cfg rc;
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_trun *r;
	int rv;

	hn_trun_cfg_default(&rc);
	r = bern(16, 500000, &rc);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_DONE, res->end);
	EXPECT_EQ(res->tagged, res->tagged_done);
	EXPECT_LT(res->done_msgs, res->gen_msgs);	/* not all of them */
	EXPECT_EQ(NULL, strstr(res->why, "every message delivered"));
	EXPECT_NE(NULL, strstr(res->why, "every measured message delivered"));
	hn_trun_destroy(r);

	/* a batch waits for every message, and says so */
	hn_config_default(&c);
	c.nodes = 16;
	hn_tcfg_default(&t, 16);
	t.inject = HN_INJ_BATCH;
	t.batch = 20;
	r = hn_trun_create(&c, &t, &rc, &rv, NULL);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_DONE, res->end);
	EXPECT_EQ(res->gen_msgs, res->done_msgs);
	EXPECT_STREQ("completed: every message delivered", res->why);
	hn_trun_destroy(r);
}

/*
 * Stopped from outside (TRAFFIC_STOP): the figures are those of the
 * window as lived; stopped in the warm-up, nothing was measured.
 */
TEST(stopped_run_measured_so_far)
{
	const struct hn_tres *res;
	struct hn_trun_cfg rc;
	struct hn_trun *r;
	u64 now;

	hn_trun_cfg_default(&rc);
	rc.measure_ns = 1000000;
	r = bern(16, 300000, &rc);
	ASSERT_NE(NULL, r);
	do {
		ASSERT_EQ(0, hn_trun_step(r));
		now = hn_now(hn_trun_engine(r));
	} while (now < 100000);
	hn_trun_stop(r);
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_STOPPED, res->end);
	EXPECT_EQ(0, res->measured_ns);		/* warm-up: 500 us at least */
	EXPECT_GT(res->offered_ppm, 270000);	/* the warm-up's */
	EXPECT_LT(res->offered_ppm, 330000);
	EXPECT_EQ(0, res->accepted_ppm);
	EXPECT_EQ(1, hn_trun_step(r));		/* over */
	hn_trun_destroy(r);

	r = bern(16, 300000, &rc);
	ASSERT_NE(NULL, r);
	do {
		ASSERT_EQ(0, hn_trun_step(r));
		res = hn_trun_result(r);
		now = hn_now(hn_trun_engine(r));
	} while (!res->measured_ns && now < res->warmup_taken_ns + 300000);
	hn_trun_stop(r);
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_STOPPED, res->end);
	EXPECT_EQ(now - res->warmup_taken_ns, res->measured_ns);
	EXPECT_GT(res->offered_ppm, 270000);
	EXPECT_LT(res->offered_ppm, 330000);
	hn_trun_destroy(r);
}

/*
 * Saturated in the warm-up (hotspot at 0.9: the hot node's queue grows
 * from the start): no window was measured, yet the run says what load it
 * ran at, over the warm-up it lived; it used to say 0.
 */
TEST(saturated_in_warmup_reports_its_offered_load)
{
	const struct hn_tres *res;
	struct hn_trun_cfg rc;
	struct hn_trun *r;

	hn_trun_cfg_default(&rc);
	r = bern_of(HN_PAT_HOTSPOT, 64, 900000, &rc);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, hn_trun_run(r, 0));
	res = hn_trun_result(r);
	EXPECT_EQ(HN_END_SAT_QUEUE, res->end);
	EXPECT_EQ(0, res->measured_ns);
	EXPECT_EQ(res->t_end, res->warmup_taken_ns);
	EXPECT_GT(res->offered_ppm, 850000);
	EXPECT_LT(res->offered_ppm, 950000);
	EXPECT_EQ(0, res->accepted_ppm);
	hn_trun_destroy(r);
}

TEST_HARNESS_MAIN
