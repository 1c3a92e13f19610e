// SPDX-License-Identifier: GPL-2.0
/*
 * nl_traffic.c - module tests of the in-kernel traffic generator through
 * raw netlink (TRAFFIC_START, _STOP, _GET, the traffic event): a batch run
 * round trip with exact counts and the same result as the core's run
 * driver in user space (hnsim run), percentiles that agree with the
 * engine's statistics, a Bernoulli run's window, load and convergence
 * test as in user space, a Bernoulli run stopped, saturation,
 * bounded memory with slots of a second,
 * EBUSY, bad input (errno and extack text, nothing changed), permission,
 * traffic of /dev/hybridnet beside a run, the paced clock, and unloading
 * the module while a run goes on.  (The memory of runs on the largest
 * trees is genmem.c's.)  Expects the module loaded with nodes=16 slots=4
 * and no file open; the tests run in order.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "hn_test.h"
#include "nl_raw.h"
#include "nl_traffic.h"
#include "hn_traffic.h"
#include "cfg_field.h"

static int start_batch(struct nlr *r, const char *pattern, uint32_t batch,
		       uint64_t seed)
{
	start_msg(r, pattern);
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, batch);
	nlr_u64(r, HYBRIDNET_ATTR_SEED, seed);
	return nlr_call(r, NULL, NULL);
}

/* A Bernoulli run whose window ends far in virtual time. */
static int start_long(struct nlr *r, uint32_t load_ppm)
{
	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, load_ppm);
	nlr_u64(r, HYBRIDNET_ATTR_MEASURE_NS, 100000000000ull);
	return nlr_call(r, NULL, NULL);
}

static int stop(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_STOP, 0);
	return nlr_call(r, NULL, NULL);
}


/* The module's engine configuration, as the core's struct. */
static int module_config(struct nlr *r, struct hn_config *c)
{
	/* every field of hn_fields.h, the table CONFIG_GET is made from */
	static const int attr[HN_CFG_NR] = {
#define HN_FIELD(fld, A, param, name, help, T, lo, hi, live, words)	\
		[HN_CFG_##fld] = HYBRIDNET_ATTR_##A,
#include "hn_fields.h"
#undef HN_FIELD
	};
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	unsigned int i;
	int rc;

	nlr_msg(r, HYBRIDNET_CMD_CONFIG_GET, 0);
	rc = nlr_call(r, NULL, NULL);
	if (rc != 1)
		return -1;
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	if (!tb[HYBRIDNET_ATTR_PROFILE] ||
	    hn_config_profile(c, (const char *)tb[HYBRIDNET_ATTR_PROFILE] +
			      NLA_HDRLEN))
		return -1;
	for (i = 0; i < HN_CFG_NR; i++) {
		const struct nlattr *a = tb[attr[i]];

		if (!a)
			continue;
		if (hn_cfg_fields[i].type == HN_CFG_STRING) {
			if (hn_cfg_fields[i].text.parse(c, (const char *)a +
							NLA_HDRLEN, NULL))
				return -1;
		} else {
			hn_cfg_set(c, i, hn_cfg_fields[i].type == HN_CFG_U64 ?
				   nlr_get_u64(a) : nlr_get_u32(a));
		}
	}
	return 0;
}

/* @t run to its end in user space on @c, @rc its defaults; NULL: failed */
static struct hn_trun *user_run(const struct hn_config *c,
				const struct hn_tcfg *t, struct hn_trun_cfg *rc)
{
	struct hn_trun *run;
	int rv;

	hn_trun_cfg_default(rc);
	run = hn_trun_create(c, t, rc, &rv, NULL);
	if (run && hn_trun_run(run, 0)) {
		hn_trun_destroy(run);
		run = NULL;
	}
	return run;
}

/*
 * Up to @max traffic events on @ev, in order: those waiting, and while
 * fewer than @want came, those that come within 60 s.  A run's end is
 * announced from a work item after GET reads it (kmod/generator.c), so
 * the last event may come after the test saw the end.
 */
static int traffic_events(struct nlr *ev, struct tstate *s, int want, int max)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct pollfd pfd = { .fd = ev->fd, .events = POLLIN };
	uint64_t end = hn_now_ns() + 60 * 1000000000ull;
	struct nlmsghdr *h;
	int n = 0, len;

	while (n < max) {
		if (n < want && hn_now_ns() < end)
			poll(&pfd, 1, 100);
		len = recv(ev->fd, ev->rx, sizeof(ev->rx), MSG_DONTWAIT);
		if (len <= 0 && n < want && hn_now_ns() < end)
			continue;
		if (len <= 0)
			break;
		h = (struct nlmsghdr *)ev->rx;
		nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
		if (!tb[HYBRIDNET_ATTR_EVENT] ||
		    nlr_get_u32(tb[HYBRIDNET_ATTR_EVENT]) !=
		    HYBRIDNET_EVENT_TRAFFIC)
			continue;
		parse_traffic(h, &s[n++]);
	}
	return n;
}

static int subscribe(struct nlr *ev)
{
	if (nlr_open(ev) || !ev->mcgrp)
		return -1;
	return setsockopt(ev->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			  &ev->mcgrp, sizeof(ev->mcgrp));
}

FIXTURE(tr) {
	struct nlr r;
};

FIXTURE_SETUP(tr)
{
	ASSERT_EQ(0, nlr_open(&self->r));
	/* a test that failed half-way may have left a run going */
	ASSERT_EQ(0, stop(&self->r));
}

FIXTURE_TEARDOWN(tr)
{
	nlr_close(&self->r);
}

TEST_F(tr, idle_before_the_first_run)
{
	struct tstate s;

	ASSERT_EQ(0, traffic_get(&self->r, &s));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_IDLE, s.state);
	EXPECT_STREQ("", s.pattern);
	EXPECT_EQ(0, s.have[HYBRIDNET_STAT_GEN_MSGS]);
	EXPECT_EQ(0, stop(&self->r));	/* nothing to stop: no error */
}

/*
 * Uniform, 16 nodes, 100 messages each, on a new engine: every message
 * generated is delivered, nothing reaches a reader, the engine's counts
 * agree, and the result is the core's run driver's in user space.
 */
TEST_F(tr, batch_round_trip_as_in_user_space)
{
	static struct nlr ev;
	struct nlr *r = &self->r;
	struct tstate s, e[4];
	struct hybridnet_info info;
	struct hn_trun_cfg rc;
	const struct hn_tres *u;
	struct hn_handle *h;
	struct hn_config c;
	struct hn_trun *run;
	struct hn_tcfg t;
	uint64_t t0;
	u32 m;

	/* a new engine, at time 0 */
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 8));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
	ASSERT_EQ(0, subscribe(&ev));
	ASSERT_EQ(0, hn_open(&h, NULL, 0));
	ASSERT_EQ(0, hn_bind(h, 3));

	t0 = hn_now_ns();
	ASSERT_EQ(0, start_batch(r, "uniform", 100, 7));
	ASSERT_EQ(0, wait_end(r, &s, 60));
	TH_LOG("batch run: %.3f s wall from START to GET saying done",
	       (hn_now_ns() - t0) / 1e9);
	EXPECT_EQ(HYBRIDNET_TRAFFIC_DONE, s.state);
	EXPECT_STREQ("uniform", s.pattern);
	EXPECT_STREQ("completed: every message delivered", s.why);
	EXPECT_EQ(7, s.seed);
	EXPECT_EQ(1600, s.st[HYBRIDNET_STAT_GEN_MSGS]);
	EXPECT_EQ(1600, s.st[HYBRIDNET_STAT_INJ_MSGS]);
	EXPECT_EQ(1600, s.st[HYBRIDNET_STAT_DONE_MSGS]);
	EXPECT_EQ(1600 * 128, s.st[HYBRIDNET_STAT_DONE_BYTES]);
	EXPECT_EQ(0, s.st[HYBRIDNET_STAT_IN_FLIGHT_MSGS]);

	/* the engine counted them; none reached node 3's reader */
	EXPECT_EQ(1600, nlr_gstat(r, HYBRIDNET_STAT_RX_MSGS_CIRCUIT) +
		  nlr_gstat(r, HYBRIDNET_STAT_RX_MSGS_WORMHOLE));
	EXPECT_EQ(1600, nlr_gstat(r, HYBRIDNET_STAT_TX_MSGS_CIRCUIT) +
		  nlr_gstat(r, HYBRIDNET_STAT_TX_MSGS_WORMHOLE));
	EXPECT_EQ(0, nlr_gstat(r, HYBRIDNET_STAT_IN_FLIGHT_MSGS));
	EXPECT_EQ(0, nlr_gstat(r, HYBRIDNET_STAT_RX_DROPPED));
	ASSERT_EQ(0, hn_info(h, &info));
	EXPECT_EQ(0, info.rx_queued);
	hn_close(h);

	/* the start and the end were announced, in that order */
	ASSERT_EQ(2, traffic_events(&ev, e, 2, 4));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_RUNNING, e[0].state);
	EXPECT_STREQ("uniform", e[0].pattern);
	EXPECT_EQ(HYBRIDNET_TRAFFIC_DONE, e[1].state);
	EXPECT_EQ(1600, e[1].st[HYBRIDNET_STAT_DONE_MSGS]);
	nlr_close(&ev);

	/* hnsim run --pattern uniform --batch 100 --seed 7, same engine */
	ASSERT_EQ(0, module_config(r, &c));
	hn_tcfg_default(&t, c.nodes);
	t.inject = HN_INJ_BATCH;
	t.batch = 100;
	t.seed = 7;
	run = user_run(&c, &t, &rc);
	ASSERT_NE(NULL, run);
	u = hn_trun_result(run);
	EXPECT_EQ(u->gen_msgs, s.st[HYBRIDNET_STAT_GEN_MSGS]);
	EXPECT_EQ(u->done_msgs, s.st[HYBRIDNET_STAT_DONE_MSGS]);
	EXPECT_EQ(u->done_bytes, s.st[HYBRIDNET_STAT_DONE_BYTES]);
	EXPECT_EQ(u->t_end, s.st[HYBRIDNET_STAT_TIME_NS]);
	EXPECT_EQ(u->lat_min, s.st[HYBRIDNET_STAT_LAT_MIN_NS]);
	EXPECT_EQ(u->lat_sum / u->lat_n, s.st[HYBRIDNET_STAT_LAT_MEAN_NS]);
	EXPECT_EQ(u->lat_max, s.st[HYBRIDNET_STAT_LAT_MAX_NS]);
	EXPECT_EQ(hn_hist_percentile(u->hist, u->lat_min, u->lat_max, 500),
		  s.st[HYBRIDNET_STAT_LAT_P50_NS]);
	EXPECT_EQ(hn_hist_percentile(u->hist, u->lat_min, u->lat_max, 990),
		  s.st[HYBRIDNET_STAT_LAT_P99_NS]);
	EXPECT_LE(s.st[HYBRIDNET_STAT_LAT_P99_NS],
		  s.st[HYBRIDNET_STAT_LAT_MAX_NS]);
	/* one run, one histogram: the engine's statistics say the same */
	EXPECT_EQ(s.st[HYBRIDNET_STAT_LAT_P50_NS],
		  nlr_gstat(r, HYBRIDNET_STAT_LAT_P50_NS));
	EXPECT_EQ(s.st[HYBRIDNET_STAT_LAT_P99_NS],
		  nlr_gstat(r, HYBRIDNET_STAT_LAT_P99_NS));
	EXPECT_EQ(s.st[HYBRIDNET_STAT_LAT_MAX_NS],
		  nlr_gstat(r, HYBRIDNET_STAT_LAT_MAX_NS));
	EXPECT_EQ(u->util_ppm, s.st[HYBRIDNET_STAT_UTIL_PPM]);
	EXPECT_EQ(u->queue_max, s.st[HYBRIDNET_STAT_QUEUE_MAX]);
	/* by mode, as in user space, and as the engine's statistics */
	for (m = 0; m < HN_NMODES; m++) {
		const struct hn_lat *l = &u->lat_mode[m];
		u64 n = u->lat_n_mode[m];
		int a = m ? HYBRIDNET_STAT_LAT_MIN_WORMHOLE_NS :
			    HYBRIDNET_STAT_LAT_MIN_CIRCUIT_NS;

		/* min, mean, max, p50, p99: five in a row */
		EXPECT_EQ(n ? l->min : 0, s.st[a]);
		EXPECT_EQ(n ? l->sum / n : 0, s.st[a + 1]);
		EXPECT_EQ(l->max, s.st[a + 2]);
		EXPECT_EQ(hn_hist_percentile(u->hist_mode[m], l->min, l->max,
					     500), s.st[a + 3]);
		EXPECT_EQ(hn_hist_percentile(u->hist_mode[m], l->min, l->max,
					     990), s.st[a + 4]);
		EXPECT_EQ(s.st[a + 4], nlr_gstat(r, a + 4));
	}
	EXPECT_EQ(u->lat_n, u->lat_n_mode[0] + u->lat_n_mode[1]);
	/* a batch has no window: no convergence figures */
	EXPECT_EQ(0, s.have[HYBRIDNET_STAT_MEASURED_NS]);
	TH_LOG("kernel and user space: %llu messages in %llu ns virtual, latency %llu/%llu/%llu ns, utilisation %.2f %%",
	       (unsigned long long)s.st[HYBRIDNET_STAT_DONE_MSGS],
	       (unsigned long long)s.st[HYBRIDNET_STAT_TIME_NS],
	       (unsigned long long)s.st[HYBRIDNET_STAT_LAT_MIN_NS],
	       (unsigned long long)s.st[HYBRIDNET_STAT_LAT_MEAN_NS],
	       (unsigned long long)s.st[HYBRIDNET_STAT_LAT_MAX_NS],
	       s.st[HYBRIDNET_STAT_UTIL_PPM] / 1e4);
	hn_trun_destroy(run);
}

/*
 * A Bernoulli run on a new engine: the window as measured, the warm-up
 * it took, the load and the convergence test are those of the core's run
 * driver in user space, figure for figure (issue 10).
 */
TEST_F(tr, bernoulli_as_in_user_space)
{
	struct nlr *r = &self->r;
	struct hn_trun_cfg rc;
	const struct hn_tres *u;
	struct hn_config c;
	struct hn_trun *run;
	struct hn_tcfg t;
	struct tstate s;

	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 8));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 300000);
	nlr_u64(r, HYBRIDNET_ATTR_SEED, 5);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, wait_end(r, &s, 60));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_DONE, s.state);
	EXPECT_NE(NULL, strstr(s.why, "every measured message delivered"));

	ASSERT_EQ(0, module_config(r, &c));
	hn_tcfg_default(&t, c.nodes);
	t.load_ppm = 300000;
	t.seed = 5;
	run = user_run(&c, &t, &rc);
	ASSERT_NE(NULL, run);
	u = hn_trun_result(run);
	EXPECT_EQ(HN_END_DONE, u->end);
	EXPECT_STREQ(u->why, s.why);
	EXPECT_EQ(u->gen_msgs, s.st[HYBRIDNET_STAT_GEN_MSGS]);
	EXPECT_EQ(u->offered_ppm, s.st[HYBRIDNET_STAT_OFFERED_PPM]);
	EXPECT_EQ(u->accepted_ppm, s.st[HYBRIDNET_STAT_ACCEPTED_PPM]);
	EXPECT_EQ(u->warmup_taken_ns, s.st[HYBRIDNET_STAT_WARMUP_TAKEN_NS]);
	EXPECT_EQ(rc.measure_ns, s.st[HYBRIDNET_STAT_MEASURED_NS]);
	EXPECT_EQ(u->lat_first, s.st[HYBRIDNET_STAT_LAT_MEAN_FIRST_NS]);
	EXPECT_EQ(u->lat_second, s.st[HYBRIDNET_STAT_LAT_MEAN_SECOND_NS]);
	EXPECT_EQ(u->trend_up, s.st[HYBRIDNET_STAT_LAT_TREND_UP]);
	EXPECT_EQ(u->trend_down, s.st[HYBRIDNET_STAT_LAT_TREND_DOWN]);
	EXPECT_EQ(u->trend_min, s.st[HYBRIDNET_STAT_LAT_TREND_MIN]);
	EXPECT_LT(s.st[HYBRIDNET_STAT_LAT_TREND_UP],
		  s.st[HYBRIDNET_STAT_LAT_TREND_DOWN] +
		  s.st[HYBRIDNET_STAT_LAT_TREND_MIN]);
	EXPECT_EQ(hn_hist_percentile(u->hist, u->lat_min, u->lat_max, 990),
		  s.st[HYBRIDNET_STAT_LAT_P99_NS]);
	TH_LOG("offered %.4f, accepted %.4f over %llu ns after %llu ns of warm-up; halves %llu, %llu ns",
	       s.st[HYBRIDNET_STAT_OFFERED_PPM] / 1e6,
	       s.st[HYBRIDNET_STAT_ACCEPTED_PPM] / 1e6,
	       (unsigned long long)s.st[HYBRIDNET_STAT_MEASURED_NS],
	       (unsigned long long)s.st[HYBRIDNET_STAT_WARMUP_TAKEN_NS],
	       (unsigned long long)s.st[HYBRIDNET_STAT_LAT_MEAN_FIRST_NS],
	       (unsigned long long)s.st[HYBRIDNET_STAT_LAT_MEAN_SECOND_NS]);
	hn_trun_destroy(run);
}

/*
 * The phased pattern's phases (Sec. 4.6.2) in the kernel: global (the
 * default, with barriers), per-node and global-hint, each as hnsim runs it.
 */
TEST_F(tr, phased_as_in_user_space)
{
	static const char *const ph[] = { "global", "per-node", "global-hint" };
	struct nlr *r = &self->r;
	struct hn_trun_cfg rc;
	const struct hn_tres *u;
	struct hn_config c;
	struct hn_trun *run;
	struct hn_tcfg t;
	struct tstate s;
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(ph); i++) {
		ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 8));
		ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
		start_msg(r, "phased");
		nlr_u32(r, HYBRIDNET_ATTR_BATCH, 64);
		nlr_u32(r, HYBRIDNET_ATTR_PRED_PPM, 500000);
		if (i)
			nlr_str(r, HYBRIDNET_ATTR_PHASES, ph[i]);
		ASSERT_EQ(0, nlr_call(r, NULL, NULL));
		ASSERT_EQ(0, wait_end(r, &s, 60));
		EXPECT_EQ(HYBRIDNET_TRAFFIC_DONE, s.state);
		EXPECT_STREQ(ph[i], s.phases);
		ASSERT_EQ(0, module_config(r, &c));
		hn_tcfg_default(&t, c.nodes);
		t.pattern = HN_PAT_PHASED;
		t.pred_ppm = 500000;
		t.phases = hn_phases_parse(ph[i]);
		t.inject = HN_INJ_BATCH;
		t.batch = 64;
		run = user_run(&c, &t, &rc);
		ASSERT_NE(NULL, run);
		u = hn_trun_result(run);
		EXPECT_EQ(u->done_msgs, s.st[HYBRIDNET_STAT_DONE_MSGS]);
		EXPECT_EQ(u->t_end, s.st[HYBRIDNET_STAT_TIME_NS]);
		EXPECT_EQ(u->lat_max, s.st[HYBRIDNET_STAT_LAT_MAX_NS]);
		EXPECT_EQ(u->util_ppm, s.st[HYBRIDNET_STAT_UTIL_PPM]);
		hn_trun_destroy(run);
	}
}

/* Again, on the engine whose clock has run: the run counts from now. */
TEST_F(tr, batch_again_later)
{
	struct nlr *r = &self->r;
	struct tstate s;

	ASSERT_EQ(0, start_batch(r, "transpose", 50, 1));
	ASSERT_EQ(0, wait_end(r, &s, 60));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_DONE, s.state);
	/* transpose: the 4 nodes on the diagonal stay silent */
	EXPECT_EQ(12 * 50, s.st[HYBRIDNET_STAT_GEN_MSGS]);
	EXPECT_EQ(12 * 50, s.st[HYBRIDNET_STAT_DONE_MSGS]);
	EXPECT_LT(s.st[HYBRIDNET_STAT_TIME_NS], s.now);
	EXPECT_GT(s.st[HYBRIDNET_STAT_TIME_NS], 0);
}

/* A Bernoulli run with a long window, stopped. */
TEST_F(tr, bernoulli_stopped)
{
	static struct nlr ev;
	struct nlr *r = &self->r;
	struct tstate s, e[4];
	uint64_t gen, t0, end;

	ASSERT_EQ(0, subscribe(&ev));
	ASSERT_EQ(0, start_long(r, 300000));
	t0 = hn_now_ns();
	end = t0 + 60000000000ull;
	do {
		usleep(20000);
		ASSERT_EQ(0, traffic_get(r, &s));
	} while (s.st[HYBRIDNET_STAT_DONE_MSGS] < 20000 && hn_now_ns() < end);
	TH_LOG("Bernoulli at 0.3: %llu messages in %.3f s wall, %llu ns virtual: %.0f messages/s",
	       (unsigned long long)s.st[HYBRIDNET_STAT_DONE_MSGS],
	       (hn_now_ns() - t0) / 1e9,
	       (unsigned long long)s.st[HYBRIDNET_STAT_TIME_NS],
	       s.st[HYBRIDNET_STAT_DONE_MSGS] * 1e9 / (hn_now_ns() - t0));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_RUNNING, s.state);
	EXPECT_STREQ("", s.why);
	EXPECT_LE(20000, s.st[HYBRIDNET_STAT_DONE_MSGS]);
	ASSERT_EQ(0, stop(r));
	ASSERT_EQ(0, traffic_get(r, &s));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_STOPPED, s.state);
	EXPECT_STREQ("stopped: by TRAFFIC_STOP", s.why);
	/*
	 * in the warm-up (half of a 100 s window): nothing was measured;
	 * the load offered is the warm-up's
	 */
	EXPECT_EQ(1, s.have[HYBRIDNET_STAT_MEASURED_NS]);
	EXPECT_EQ(0, s.st[HYBRIDNET_STAT_MEASURED_NS]);
	EXPECT_LT(250000, s.st[HYBRIDNET_STAT_OFFERED_PPM]);
	EXPECT_GT(350000, s.st[HYBRIDNET_STAT_OFFERED_PPM]);
	EXPECT_EQ(0, s.st[HYBRIDNET_STAT_ACCEPTED_PPM]);
	gen = s.st[HYBRIDNET_STAT_GEN_MSGS];
	/* what was injected drains; nothing more is generated */
	ASSERT_EQ(0, wait_drained(r, &s, 10));
	EXPECT_EQ(gen, s.st[HYBRIDNET_STAT_GEN_MSGS]);
	EXPECT_EQ(s.st[HYBRIDNET_STAT_INJ_MSGS], s.st[HYBRIDNET_STAT_DONE_MSGS]);
	EXPECT_GE(gen, s.st[HYBRIDNET_STAT_INJ_MSGS]);
	EXPECT_EQ(0, nlr_gstat(r, HYBRIDNET_STAT_IN_FLIGHT_MSGS));
	/* stopping again changes nothing */
	EXPECT_EQ(0, stop(r));
	ASSERT_EQ(0, traffic_get(r, &s));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_STOPPED, s.state);
	ASSERT_EQ(2, traffic_events(&ev, e, 2, 4));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_RUNNING, e[0].state);
	EXPECT_EQ(HYBRIDNET_TRAFFIC_STOPPED, e[1].state);
	EXPECT_STREQ("stopped: by TRAFFIC_STOP", e[1].why);
	nlr_close(&ev);
}

/* Past saturation the run ends and says so; it does not hang. */
TEST_F(tr, saturation_reported)
{
	struct nlr *r = &self->r;
	struct tstate s;

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 1000000);
	nlr_u64(r, HYBRIDNET_ATTR_SEED, 3);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, wait_end(r, &s, 60));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_SATURATED, s.state);
	EXPECT_EQ(0, strncmp(s.why, "saturated: ", 11));
	EXPECT_LT(s.st[HYBRIDNET_STAT_ACCEPTED_PPM],
		  s.st[HYBRIDNET_STAT_OFFERED_PPM]);
	TH_LOG("offered %.4f, accepted %.4f: %s",
	       s.st[HYBRIDNET_STAT_OFFERED_PPM] / 1e6,
	       s.st[HYBRIDNET_STAT_ACCEPTED_PPM] / 1e6, s.why);
	ASSERT_EQ(0, wait_drained(r, &s, 10));
}

/*
 * Slots of one second, set live.  Until issue 10 every step gave the
 * engine a whole slot and made millions of messages due at once (the
 * kernel's memory went, until the OOM killer panicked it); now a PE acts
 * when its messages are due, whatever the slot length, and a step is at
 * most the rest of one slot.  Offered the whole link, more than a
 * wormhole switch carries, the run must end as saturated with its queues
 * bounded.
 */
TEST_F(tr, long_slots_bounded)
{
	struct nlr *r = &self->r;
	uint64_t slot_p, slot_w;
	struct tstate s;
	char buf[32];

	ASSERT_EQ(0, hn_read_file(HN_SYSFS "/config/slot_p_ns", buf,
				  sizeof(buf)));
	slot_p = strtoull(buf, NULL, 0);
	ASSERT_EQ(0, hn_read_file(HN_SYSFS "/config/slot_w_ns", buf,
				  sizeof(buf)));
	slot_w = strtoull(buf, NULL, 0);
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 1000000000));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, 1000000000));
	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 1000000);
	nlr_u64(r, HYBRIDNET_ATTR_MEASURE_NS, 174046);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, wait_end(r, &s, 60));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_SATURATED, s.state);
	EXPECT_LE(s.st[HYBRIDNET_STAT_QUEUE_MAX], 1001);
	EXPECT_LE(s.st[HYBRIDNET_STAT_MEM_MAX], gen_bound());
	TH_LOG("%s", s.why);
	ASSERT_EQ(0, wait_drained(r, &s, 30));
	EXPECT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, slot_p));
	EXPECT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, slot_w));
}

/* One run at a time. */
TEST_F(tr, busy)
{
	struct nlr *r = &self->r;
	struct tstate s;

	ASSERT_EQ(0, start_long(r, 100000));
	EXPECT_EQ(-EBUSY, start_batch(r, "bitrev", 10, 1));
	EXPECT_STREQ("the generator is running: stop it first", r->msg);
	ASSERT_EQ(0, traffic_get(r, &s));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_RUNNING, s.state);
	EXPECT_STREQ("uniform", s.pattern);
	ASSERT_EQ(0, stop(r));
	/* once stopped, the next run starts (it waits for the drain) */
	ASSERT_EQ(0, start_batch(r, "bitrev", 10, 1));
	ASSERT_EQ(0, wait_end(r, &s, 60));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_DONE, s.state);
	EXPECT_STREQ("bitrev", s.pattern);
	/* bitrev on 16 nodes: 0, 6, 9 and 15 are fixed points */
	EXPECT_EQ(120, s.st[HYBRIDNET_STAT_DONE_MSGS]);
}

/* Refusals: errno, the extack text, and the last run's state unchanged. */
TEST_F(tr, bad_input)
{
	struct nlr *r = &self->r;
	struct tstate before, after;

	ASSERT_EQ(0, traffic_get(r, &before));

	start_msg(r, "nosuch");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("unknown pattern \"nosuch\" (uniform transpose bitcomp bitrev shuffle tornado neighbor randperm hotspot scatter all-to-all random-to-all ordered-mesh random-mesh two-phase mixed phased localized)",
		     r->msg);

	start_msg(r, NULL);
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("missing pattern attribute", r->msg);

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 1500000);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("load-ppm 1500000 out of range: the offered load is 1..1000000 ppm of the link rate",
		     r->msg);

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 0);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("load-ppm 0 out of range: the offered load is 1..1000000 ppm of the link rate",
		     r->msg);

	/* in range, but too little for the core's trials */
	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 1);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("traffic refused: offered load below one message per 2^20 injection cycles",
		     r->msg);

	start_msg(r, "uniform");
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("give exactly one of load-ppm (Bernoulli injection) and batch (messages per sender)",
		     r->msg);

	/* the crossbar has no distances for it */
	start_msg(r, "localized");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("traffic refused: localized needs a fat tree of 2 levels or more",
		     r->msg);

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 100000);
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 0);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("batch 0 out of range: 1..1000000000 messages per sender",
		     r->msg);

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_str(r, HYBRIDNET_ATTR_SIZE_DIST, "zipf");
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("unknown size-dist \"zipf\" (fixed, uniform, bimodal, bimodal:PPM with PPM 0..1000000, or 8080)",
		     r->msg);

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_u32(r, HYBRIDNET_ATTR_SIZE, 0);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	EXPECT_EQ(0, strncmp(r->msg, "size 0 out of range: 1..", 24));

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_str(r, HYBRIDNET_ATTR_SIZE_DIST, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_SIZE, 100);
	nlr_u32(r, HYBRIDNET_ATTR_SIZE_MAX, 50);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	EXPECT_EQ(0, strncmp(r->msg, "size-max 50 out of range: 100 (size)..", 38));

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_u32(r, HYBRIDNET_ATTR_PRED_PPM, 500000);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("pred-ppm applies to mixed and phased, not uniform", r->msg);

	start_msg(r, "mixed");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_str(r, HYBRIDNET_ATTR_PHASES, "global");
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("phases applies to phased, not mixed", r->msg);

	start_msg(r, "phased");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_str(r, HYBRIDNET_ATTR_PHASES, "lockstep");
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("unknown phases \"lockstep\" (global per-node global-hint)", r->msg);

	start_msg(r, "mixed");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_u32(r, HYBRIDNET_ATTR_PRED_PPM, 2000000);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("pred-ppm 2000000 out of range: the predictable ratio is 0..1000000 ppm",
		     r->msg);

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 100000);
	nlr_u64(r, HYBRIDNET_ATTR_LIMIT_NS, 1000);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("limit-ns applies to batch injection, not load-ppm", r->msg);

	/* the core's checks, against the module's 16 nodes */
	start_msg(r, "scatter");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_u32(r, HYBRIDNET_ATTR_ROOT, 99);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("traffic refused: scatter: root out of range (node 99)",
		     r->msg);

	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_LOAD_PPM, 1000000);
	nlr_u32(r, HYBRIDNET_ATTR_SIZE, 1);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("traffic refused: offered load needs more than one message per injection cycle: lower the load or the cycle, or raise the size",
		     r->msg);

	/* an attribute START does not take (strict policy) */
	start_msg(r, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	nlr_u32(r, HYBRIDNET_ATTR_NODES, 4);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));

	/* STOP and GET take none */
	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_GET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 10);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));

	ASSERT_EQ(0, traffic_get(r, &after));
	EXPECT_EQ(before.state, after.state);
	EXPECT_STREQ(before.pattern, after.pattern);
	EXPECT_EQ(before.st[HYBRIDNET_STAT_GEN_MSGS],
		  after.st[HYBRIDNET_STAT_GEN_MSGS]);
}

/* Without CAP_NET_ADMIN: read the state, but neither start nor stop. */
TEST_F(tr, permission)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		struct tstate s;
		struct nlr c;
		int bad = 0;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(100);
		if (nlr_open(&c))
			_exit(101);
		bad |= (start_batch(&c, "uniform", 10, 1) != -EPERM) << 0;
		bad |= (stop(&c) != -EPERM) << 1;
		bad |= (traffic_get(&c, &s) != 0) << 2;
		bad |= (s.state != HYBRIDNET_TRAFFIC_DONE) << 3;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * /dev/hybridnet beside a run: every message sent arrives intact, only
 * those, and the engine's books balance once both have drained.
 */
TEST_F(tr, devices_beside_a_run)
{
	struct nlr *r = &self->r;
	struct hybridnet_msg_hdr hdr;
	struct hn_handle *h[4];
	struct tstate s;
	char buf[64], want[64];
	int i, k, n;
	int64_t tx, rx;
	uint64_t t0;

	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, hn_open(&h[i], NULL, 0));
		ASSERT_EQ(0, hn_bind(h[i], i * 4 + 1));
	}
	ASSERT_EQ(0, start_long(r, 100000));
	t0 = hn_now_ns();
	for (k = 0; k < 25; k++) {
		for (i = 0; i < 4; i++) {
			n = snprintf(want, sizeof(want), "msg %d from %d", k, i);
			ASSERT_EQ(0, hn_send(h[i], ((i + 1) % 4) * 4 + 1,
					     want, n));
		}
		for (i = 0; i < 4; i++) {
			n = hn_recv(h[i], &hdr, buf, sizeof(buf));
			ASSERT_LT(0, n);
			buf[n] = 0;
			snprintf(want, sizeof(want), "msg %d from %d", k,
				 (i + 3) % 4);
			EXPECT_STREQ(want, buf);
			EXPECT_EQ(((i + 3) % 4) * 4 + 1, hdr.src);
		}
	}
	ASSERT_EQ(0, traffic_get(r, &s));
	TH_LOG("100 messages through /dev/hybridnet in %.2f s wall beside %llu of the generator's",
	       (hn_now_ns() - t0) / 1e9,
	       (unsigned long long)s.st[HYBRIDNET_STAT_DONE_MSGS]);
	EXPECT_EQ(HYBRIDNET_TRAFFIC_RUNNING, s.state);
	EXPECT_LT(0, s.st[HYBRIDNET_STAT_DONE_MSGS]);
	ASSERT_EQ(0, stop(r));
	ASSERT_EQ(0, wait_drained(r, &s, 10));
	for (i = 0; i < 4; i++) {
		struct hybridnet_info info;

		ASSERT_EQ(0, hn_info(h[i], &info));
		EXPECT_EQ(0, info.rx_queued);
		hn_close(h[i]);
	}
	tx = nlr_gstat(r, HYBRIDNET_STAT_TX_MSGS_CIRCUIT) +
	     nlr_gstat(r, HYBRIDNET_STAT_TX_MSGS_WORMHOLE);
	rx = nlr_gstat(r, HYBRIDNET_STAT_RX_MSGS_CIRCUIT) +
	     nlr_gstat(r, HYBRIDNET_STAT_RX_MSGS_WORMHOLE);
	EXPECT_EQ(0, nlr_gstat(r, HYBRIDNET_STAT_IN_FLIGHT_MSGS));
	EXPECT_EQ(tx, rx);
}

/* The paced clock: the run follows wall time and still completes. */
TEST_F(tr, paced_clock)
{
	struct nlr *r = &self->r;
	struct tstate s;
	uint64_t t0;

	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_CLOCK, HYBRIDNET_CLOCK_PACED);
	nlr_u32(r, HYBRIDNET_ATTR_PACE_PPM, 100000);	/* 1 ns per 10 ns */
	ASSERT_EQ(0, nlr_do(r));
	t0 = hn_now_ns();
	ASSERT_EQ(0, start_batch(r, "uniform", 100, 7));
	ASSERT_EQ(0, wait_end(r, &s, 60));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_DONE, s.state);
	EXPECT_EQ(1600, s.st[HYBRIDNET_STAT_DONE_MSGS]);
	/* about 20 us virtual at a tenth of wall speed: 200 us or more */
	EXPECT_LE(s.st[HYBRIDNET_STAT_TIME_NS] * 10, hn_now_ns() - t0);
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_CLOCK, HYBRIDNET_CLOCK_FREE);
	ASSERT_EQ(0, nlr_do(r));
}

/* Run @cmd with sh; its stdout and stderr in @out; its exit status. */
static int sh(const char *cmd, char *out, size_t len)
{
	char full[512];
	size_t n = 0;
	FILE *f;
	int st;

	snprintf(full, sizeof(full), "%s 2>&1", cmd);
	f = popen(full, "r");
	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* hnctl traffic (on PATH in the VM): the same round trips, its words. */
TEST_F(tr, hnctl_traffic)
{
	static char out[8192];

	ASSERT_EQ(0, sh("hnctl traffic start --pattern uniform --batch 100 --seed 7 --wait",
			out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "state        done (completed: every message delivered)\n"));
	EXPECT_NE(NULL, strstr(out, "run          pattern uniform batch 100 size 128 size-max 128 seed 7 limit-ns 10000000000 size-dist fixed\n"));
	EXPECT_NE(NULL, strstr(out, "messages     generated 1600, injected 1600, delivered 1600 (204800 B), in flight 0,"));
	ASSERT_EQ(0, sh("hnctl -j traffic", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "{\"state\":\"done\",\"why\":\"completed: every message delivered\","));
	EXPECT_NE(NULL, strstr(out, "\"gen-msgs\":1600,"));
	EXPECT_NE(NULL, strstr(out, "\"done-msgs\":1600,"));

	ASSERT_EQ(0, sh("hnctl traffic start --pattern uniform --load 0.3 --measure 100s",
			out, sizeof(out)));
	EXPECT_STREQ("", out);
	ASSERT_EQ(0, sh("hnctl traffic status", out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "state        running\nrun          pattern uniform load-ppm 300000 ", 66));
	EXPECT_EQ(2, sh("hnctl traffic start --pattern bitrev --batch 10", out,
			sizeof(out)));
	EXPECT_STREQ("hnctl: traffic start refused: the generator is running: stop it first\n",
		     out);
	ASSERT_EQ(0, sh("hnctl traffic stop", out, sizeof(out)));
	ASSERT_EQ(0, sh("hnctl traffic", out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "state        stopped (stopped: by TRAFFIC_STOP)\n", 48));

	EXPECT_EQ(2, sh("hnctl traffic start --pattern nosuch --batch 1", out,
			sizeof(out)));
	EXPECT_STREQ("hnctl: traffic start refused: unknown pattern \"nosuch\" (uniform transpose bitcomp bitrev shuffle tornado neighbor randperm hotspot scatter all-to-all random-to-all ordered-mesh random-mesh two-phase mixed phased localized) (attribute pattern)\n",
		     out);
	EXPECT_EQ(1, sh("hnctl traffic start --pattern uniform --load 1.5", out,
			sizeof(out)));
	EXPECT_STREQ("hnctl traffic: --load '1.5': out of range: the offered load must be above 0 and at most 1 (the link rate)\nTry 'hnctl traffic --help'.\n",
		     out);
	EXPECT_EQ(2, sh("hnctl traffic start --pattern uniform --batch 10 --size 5000000",
			out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "hnctl: traffic start refused: size 5000000 out of range: 1..", 60));
	/* a saturated run ends --wait with status 3 */
	EXPECT_EQ(3, sh("hnctl traffic start --pattern uniform --load 1 --wait",
			out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "state        saturated (saturated: "));
}

/* Unload while a run goes on: no warning, nothing leaks; load again. */
TEST_F(tr, unload_while_running)
{
	struct nlr *r = &self->r;
	struct tstate s;

	ASSERT_EQ(0, start_long(r, 500000));
	usleep(20000);
	ASSERT_EQ(0, traffic_get(r, &s));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_RUNNING, s.state);
	nlr_close(r);
	ASSERT_EQ(0, hn_unload());
	EXPECT_EQ(0, hn_loaded());
	ASSERT_EQ(0, hn_load("nodes=16 slots=4"));
	ASSERT_EQ(0, nlr_open(r));
	ASSERT_EQ(0, traffic_get(r, &s));
	EXPECT_EQ(HYBRIDNET_TRAFFIC_IDLE, s.state);
}

TEST_HARNESS_MAIN
