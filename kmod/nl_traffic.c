// SPDX-License-Identifier: GPL-2.0
/*
 * nl_traffic.c - HYBRIDNET_CMD_TRAFFIC_START, _STOP and _GET: the
 * in-kernel generator (generator.c) through netlink, and its event.
 *
 * START takes the words of hnsim run: a pattern name, exactly one of
 * load-ppm (Bernoulli injection) and batch (messages per sender), the
 * message size (size, size-max, size-dist), pred-ppm for mixed and phased,
 * phases for phased (global, the default, or per-node: enum hn_phases),
 * root for scatter, a seed, and the method: warmup-ns, measure-ns and
 * drain-ns for Bernoulli, limit-ns for batch.  Everything else takes
 * hnsim run's default (injection cycle 10 ns, hot set {0} at 10 %, four
 * mesh directions, no generation rate limit, queue limit 1000 messages,
 * tolerance 5 %), and the network is the module's as configured.  A run
 * holds at most the memory it reserved (HN_GEN_MEM_MAX, generator.c),
 * queued or in the fabric: one that would hold more is past saturation
 * and ends so.  Values
 * are checked here, with an extack message naming the attribute and the
 * value, then by the core (hn_tcfg_check(), hn_trun_check()).
 *
 * GET and the events carry the state, the pattern, how the run ended,
 * the engine's time, the configuration as given, and a statistics nest:
 * gen-msgs, inj-msgs, unreach-msgs (refused: no live route),
 * done-msgs, done-bytes, in-flight-msgs (injected, not yet delivered),
 * queue-max, mem-max (the most bytes its messages
 * held, as charged against the reservation), the latency of the measured messages
 * (lat-*: batch every message, Bernoulli those generated in the window;
 * p50 and p99 are upper bounds within [min, max], hn_hist_percentile()),
 * and, once the run has ended, offered-ppm and accepted-ppm (Bernoulli,
 * of the senders' link capacity over measured-ns, the part of the window
 * the run lived) and util-ppm (Ding's Ch. 1 over the senders' links);
 * time-ns is the run's virtual duration.  A Bernoulli run adds its
 * convergence test (hn_traffic.h): warmup-taken-ns, measured-ns, the mean
 * latency of the window's two halves, and lat-trend-up, -down and -min
 * (the trend rises when up - down >= min).
 */
#include <linux/kernel.h>

#include "hn_nl.h"

const struct nla_policy hn_traffic_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_PATTERN] = { .type = NLA_NUL_STRING, .len = 31 },
	[HYBRIDNET_ATTR_LOAD_PPM] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_BATCH] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_SIZE] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_SIZE_MAX] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_SIZE_DIST] = { .type = NLA_NUL_STRING, .len = 31 },
	[HYBRIDNET_ATTR_PRED_PPM] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_PHASES] = { .type = NLA_NUL_STRING, .len = 15 },
	[HYBRIDNET_ATTR_ROOT] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_SEED] = { .type = NLA_U64 },
	[HYBRIDNET_ATTR_WARMUP_NS] = { .type = NLA_U64 },
	[HYBRIDNET_ATTR_MEASURE_NS] = { .type = NLA_U64 },
	[HYBRIDNET_ATTR_DRAIN_NS] = { .type = NLA_U64 },
	[HYBRIDNET_ATTR_LIMIT_NS] = { .type = NLA_U64 },
	HN_NL_POLICY_FABRIC,
};

#define HN_BATCH_MAX	1000000000u

static int hn_put_traffic_cfg(struct sk_buff *skb,
			      const struct hn_gen_state *s)
{
	const struct hn_tcfg *t = s->t;
	const struct hn_trun_cfg *rc = s->rc;
	bool batch = t->inject == HN_INJ_BATCH;

	if (nla_put_string(skb, HYBRIDNET_ATTR_PATTERN,
			   hn_pattern_name(t->pattern)) ||
	    nla_put_u32(skb, batch ? HYBRIDNET_ATTR_BATCH :
			HYBRIDNET_ATTR_LOAD_PPM, batch ? t->batch : t->load_ppm) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_SIZE, t->size) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_SIZE_MAX, t->size_max) ||
	    nla_put_string(skb, HYBRIDNET_ATTR_SIZE_DIST, s->dist) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_SEED, t->seed,
			      HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	if ((t->pattern == HN_PAT_MIXED || t->pattern == HN_PAT_PHASED) &&
	    nla_put_u32(skb, HYBRIDNET_ATTR_PRED_PPM, t->pred_ppm))
		return -EMSGSIZE;
	if (t->pattern == HN_PAT_PHASED &&
	    nla_put_string(skb, HYBRIDNET_ATTR_PHASES,
			   hn_phases_name(t->phases)))
		return -EMSGSIZE;
	if (t->pattern == HN_PAT_SCATTER &&
	    nla_put_u32(skb, HYBRIDNET_ATTR_ROOT, t->root))
		return -EMSGSIZE;
	if (batch)
		return nla_put_u64_64bit(skb, HYBRIDNET_ATTR_LIMIT_NS,
					 rc->limit_ns, HYBRIDNET_ATTR_PAD);
	if (nla_put_u64_64bit(skb, HYBRIDNET_ATTR_WARMUP_NS, rc->warmup_ns,
			      HYBRIDNET_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_MEASURE_NS, rc->measure_ns,
			      HYBRIDNET_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_DRAIN_NS, rc->drain_ns,
			      HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	return 0;
}

/* a percentile's upper bound, within [min, max], as every tool has it */
static u64 hn_pct(const struct hn_tres *res, u32 permille)
{
	return hn_hist_percentile(res->hist, res->lat_min, res->lat_max,
				  permille);
}

/* The latency of the measured messages each mode carried. */
static int hn_put_mode_lat(struct sk_buff *skb, const struct hn_tres *res)
{
	static const u16 attr[HN_NMODES][5] = {
		{ HYBRIDNET_STAT_LAT_MIN_CIRCUIT_NS,
		  HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS,
		  HYBRIDNET_STAT_LAT_MAX_CIRCUIT_NS,
		  HYBRIDNET_STAT_LAT_P50_CIRCUIT_NS,
		  HYBRIDNET_STAT_LAT_P99_CIRCUIT_NS },
		{ HYBRIDNET_STAT_LAT_MIN_WORMHOLE_NS,
		  HYBRIDNET_STAT_LAT_MEAN_WORMHOLE_NS,
		  HYBRIDNET_STAT_LAT_MAX_WORMHOLE_NS,
		  HYBRIDNET_STAT_LAT_P50_WORMHOLE_NS,
		  HYBRIDNET_STAT_LAT_P99_WORMHOLE_NS },
	};
	u32 m;

	for (m = 0; m < HN_NMODES; m++) {
		const struct hn_lat *l = &res->lat_mode[m];
		const u64 *h = res->hist_mode[m];

		if (hn_nl_put64(skb, attr[m][0], hn_lat_min(l->min)) ||
		    hn_nl_put64(skb, attr[m][1],
				hn_lat_mean(l->sum, res->lat_n_mode[m])) ||
		    hn_nl_put64(skb, attr[m][2], l->max) ||
		    hn_nl_put64(skb, attr[m][3],
				hn_hist_percentile(h, l->min, l->max, 500)) ||
		    hn_nl_put64(skb, attr[m][4],
				hn_hist_percentile(h, l->min, l->max, 990)))
			return -EMSGSIZE;
	}
	return 0;
}

static int hn_put_traffic_stats(struct sk_buff *skb,
				const struct hn_gen_state *s,
				const struct hn_tres *res)
{
	struct nlattr *nest;
	u64 n = res->lat_n;

	nest = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
	if (!nest ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_GEN_MSGS, res->gen_msgs) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_INJ_MSGS, res->inj_msgs) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_UNREACH_MSGS, res->unreach_msgs) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_DONE_MSGS, res->done_msgs) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_DONE_BYTES, res->done_bytes) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_IN_FLIGHT_MSGS,
			res->inj_msgs - res->done_msgs) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_QUEUE_MAX, res->queue_max) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_MEM_MAX, res->mem_max) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_OFFERED_PPM, res->offered_ppm) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_ACCEPTED_PPM, res->accepted_ppm) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_UTIL_PPM, res->util_ppm) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_LAT_MIN_NS, n ? res->lat_min : 0) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_LAT_MEAN_NS,
			hn_lat_mean(res->lat_sum, n)) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_LAT_MAX_NS, res->lat_max) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_LAT_P50_NS, n ? hn_pct(res, 500) : 0) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_LAT_P99_NS, n ? hn_pct(res, 990) : 0) ||
	    hn_put_mode_lat(skb, res) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_TIME_NS, s->elapsed))
		return -EMSGSIZE;
	if (s->t->inject == HN_INJ_BERNOULLI &&
	    (hn_nl_put64(skb, HYBRIDNET_STAT_WARMUP_TAKEN_NS, res->warmup_taken_ns) ||
	     hn_nl_put64(skb, HYBRIDNET_STAT_MEASURED_NS, res->measured_ns) ||
	     hn_nl_put64(skb, HYBRIDNET_STAT_LAT_MEAN_FIRST_NS,
			 res->lat_first) ||
	     hn_nl_put64(skb, HYBRIDNET_STAT_LAT_MEAN_SECOND_NS,
			 res->lat_second) ||
	     hn_nl_put64(skb, HYBRIDNET_STAT_LAT_TREND_UP, res->trend_up) ||
	     hn_nl_put64(skb, HYBRIDNET_STAT_LAT_TREND_DOWN, res->trend_down) ||
	     hn_nl_put64(skb, HYBRIDNET_STAT_LAT_TREND_MIN, res->trend_min)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The generator's state, configuration and results; takes hd->lock. */
static int hn_nl_put_traffic(struct sk_buff *skb, struct hn_dev *hd)
{
	struct hn_gen_state s;
	const struct hn_tres *res;
	int rc = -EMSGSIZE;

	mutex_lock(&hd->lock);
	res = hn_gen_state(hd, &s);
	if (nla_put_u32(skb, HYBRIDNET_ATTR_TRAFFIC_STATE, s.state) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NOW, s.now,
			      HYBRIDNET_ATTR_PAD))
		goto out;
	if (s.why && nla_put_string(skb, HYBRIDNET_ATTR_WHY, s.why))
		goto out;
	if (res && (hn_put_traffic_cfg(skb, &s) ||
		    hn_put_traffic_stats(skb, &s, res)))
		goto out;
	rc = 0;
out:
	mutex_unlock(&hd->lock);
	return rc;
}

/* HYBRIDNET_EVENT_TRAFFIC with the generator's state now. */
static void hn_nl_traffic_event(struct hn_dev *hd)
{
	struct sk_buff *skb;
	void *hdr;

	skb = hn_nl_event_new(hd, HYBRIDNET_EVENT_TRAFFIC, 0, &hdr);
	if (!skb)
		return;
	if (hn_nl_put_traffic(skb, hd)) {
		nlmsg_free(skb);
		return;
	}
	hn_nl_event_send(hd, skb, hdr);
}

/* 'unknown WHAT "VALUE" (NAME NAME ...)', the names from @name's table */
static void hn_nl_unknown(struct genl_info *info, const struct nlattr *a,
			  const char *what, const char *(*name)(u32 p))
{
	char list[HN_NL_MSG_MAX];
	size_t len = 0;
	u32 p;

	list[0] = 0;
	for (p = 0; name(p); p++)
		len += scnprintf(list + len, sizeof(list) - len, "%s%s",
				 p ? " " : "", name(p));
	hn_nl_errf(info, a, "unknown %s \"%.15s\" (%s)", what,
		   (const char *)nla_data(a), list);
}

static int hn_nl_pattern(struct genl_info *info, struct hn_tcfg *t)
{
	const struct nlattr *a = info->attrs[HYBRIDNET_ATTR_PATTERN];
	int p;

	if (!a) {
		NL_SET_ERR_MSG(info->extack, "missing pattern attribute");
		return -EINVAL;
	}
	p = hn_pattern_parse(nla_data(a));
	if (p >= 0) {
		t->pattern = p;
		return 0;
	}
	hn_nl_unknown(info, a, "pattern", hn_pattern_name);
	return -EINVAL;
}

/* size, size-max, size-dist: fixed, uniform, bimodal[:PPM] or 8080 */
static int hn_nl_sizes(struct genl_info *info, struct hn_tcfg *t,
		       char *dist, size_t dlen)
{
	struct nlattr **tb = info->attrs;
	const struct nlattr *a = tb[HYBRIDNET_ATTR_SIZE_DIST];
	const struct nlattr *sz = tb[HYBRIDNET_ATTR_SIZE];
	const struct nlattr *mx = tb[HYBRIDNET_ATTR_SIZE_MAX];
	const char *d = a ? nla_data(a) : "fixed";
	u32 max_msg = hn_nl_dev(info)->cfg.max_msg_bytes, ppm;

	if (!strcmp(d, "8080")) {
		if (sz || mx) {
			hn_nl_errf(info, sz ? sz : mx,
				   "size-dist 8080 sets the sizes itself (%u and %u bytes): give no size or size-max",
				   HN_8080_SMALL, HN_8080_LARGE);
			return -EINVAL;
		}
		t->size_dist = HN_SIZE_BIMODAL;
		t->size = HN_8080_SMALL;
		t->size_max = HN_8080_LARGE;
		t->large_ppm = HN_8080_PPM;
		strscpy(dist, d, dlen);
		return 0;
	}
	if (!strcmp(d, "fixed")) {
		t->size_dist = HN_SIZE_FIXED;
	} else if (!strcmp(d, "uniform")) {
		t->size_dist = HN_SIZE_UNIFORM;
	} else if (!strcmp(d, "bimodal")) {
		t->size_dist = HN_SIZE_BIMODAL;
		t->large_ppm = HN_8080_PPM;
	} else if (!strncmp(d, "bimodal:", 8) && !kstrtou32(d + 8, 10, &ppm) &&
		   ppm <= HN_PPM) {
		t->size_dist = HN_SIZE_BIMODAL;
		t->large_ppm = ppm;
	} else {
		hn_nl_errf(info, a,
			   "unknown size-dist \"%.20s\" (fixed, uniform, bimodal, bimodal:PPM with PPM 0..1000000, or 8080)",
			   d);
		return -EINVAL;
	}
	strscpy(dist, d, dlen);
	if (sz)
		t->size = nla_get_u32(sz);
	if (!t->size || t->size > max_msg) {
		hn_nl_errf(info, sz,
			   "size %u out of range: 1..%u bytes (max_msg_bytes)",
			   t->size, max_msg);
		return -ERANGE;
	}
	if (t->size_dist == HN_SIZE_FIXED) {
		if (mx) {
			NL_SET_ERR_MSG_ATTR(info->extack, mx,
					    "size-max needs size-dist uniform or bimodal");
			return -EINVAL;
		}
		t->size_max = t->size;
		return 0;
	}
	if (!mx) {
		hn_nl_errf(info, a, "size-dist %s needs size-max", d);
		return -EINVAL;
	}
	t->size_max = nla_get_u32(mx);
	if (t->size_max < t->size || t->size_max > max_msg) {
		hn_nl_errf(info, mx,
			   "size-max %u out of range: %u (size)..%u bytes (max_msg_bytes)",
			   t->size_max, t->size, max_msg);
		return -ERANGE;
	}
	return 0;
}

/* Attributes that belong to one pattern or injection process only. */
static int hn_nl_misplaced(struct genl_info *info, const struct hn_tcfg *t)
{
	static const u16 bern[] = { HYBRIDNET_ATTR_WARMUP_NS,
				    HYBRIDNET_ATTR_MEASURE_NS,
				    HYBRIDNET_ATTR_DRAIN_NS };
	struct nlattr **tb = info->attrs;
	const char *p = hn_pattern_name(t->pattern);
	unsigned int i;

	if (tb[HYBRIDNET_ATTR_PRED_PPM] && t->pattern != HN_PAT_MIXED &&
	    t->pattern != HN_PAT_PHASED) {
		hn_nl_errf(info, tb[HYBRIDNET_ATTR_PRED_PPM],
			   "pred-ppm applies to mixed and phased, not %s", p);
		return -EINVAL;
	}
	if (tb[HYBRIDNET_ATTR_PHASES] && t->pattern != HN_PAT_PHASED) {
		hn_nl_errf(info, tb[HYBRIDNET_ATTR_PHASES],
			   "phases applies to phased, not %s", p);
		return -EINVAL;
	}
	if (tb[HYBRIDNET_ATTR_ROOT] && t->pattern != HN_PAT_SCATTER) {
		hn_nl_errf(info, tb[HYBRIDNET_ATTR_ROOT],
			   "root applies to scatter, not %s", p);
		return -EINVAL;
	}
	if (t->inject == HN_INJ_BERNOULLI && tb[HYBRIDNET_ATTR_LIMIT_NS]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[HYBRIDNET_ATTR_LIMIT_NS],
				    "limit-ns applies to batch injection, not load-ppm");
		return -EINVAL;
	}
	for (i = 0; t->inject == HN_INJ_BATCH && i < ARRAY_SIZE(bern); i++) {
		if (tb[bern[i]]) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[bern[i]],
					    "warmup-ns, measure-ns and drain-ns apply to load-ppm (Bernoulli) injection, not batch");
			return -EINVAL;
		}
	}
	return 0;
}

static int hn_nl_traffic_parse(struct genl_info *info, struct hn_tcfg *t,
			       struct hn_trun_cfg *rc, char *dist, size_t dlen)
{
	struct nlattr **tb = info->attrs;
	const struct nlattr *a;
	int err;

	hn_tcfg_default(t, hn_nl_dev(info)->cfg.nodes);
	hn_trun_cfg_default(rc);
	err = hn_nl_pattern(info, t);
	if (err)
		return err;
	if (!tb[HYBRIDNET_ATTR_LOAD_PPM] == !tb[HYBRIDNET_ATTR_BATCH]) {
		NL_SET_ERR_MSG(info->extack,
			       "give exactly one of load-ppm (Bernoulli injection) and batch (messages per sender)");
		return -EINVAL;
	}
	a = tb[HYBRIDNET_ATTR_LOAD_PPM];
	if (a) {
		t->inject = HN_INJ_BERNOULLI;
		t->load_ppm = nla_get_u32(a);
		if (!t->load_ppm || t->load_ppm > HN_PPM) {
			hn_nl_errf(info, a,
				   "load-ppm %u out of range: the offered load is 1..1000000 ppm of the link rate",
				   t->load_ppm);
			return -ERANGE;
		}
	}
	a = tb[HYBRIDNET_ATTR_BATCH];
	if (a) {
		t->inject = HN_INJ_BATCH;
		t->batch = nla_get_u32(a);
		if (!t->batch || t->batch > HN_BATCH_MAX) {
			hn_nl_errf(info, a,
				   "batch %u out of range: 1..%u messages per sender",
				   t->batch, HN_BATCH_MAX);
			return -ERANGE;
		}
	}
	err = hn_nl_misplaced(info, t);
	if (!err)
		err = hn_nl_sizes(info, t, dist, dlen);
	if (err)
		return err;
	a = tb[HYBRIDNET_ATTR_PRED_PPM];
	if (a) {
		t->pred_ppm = nla_get_u32(a);
		if (t->pred_ppm > HN_PPM) {
			hn_nl_errf(info, a,
				   "pred-ppm %u out of range: the predictable ratio is 0..1000000 ppm",
				   t->pred_ppm);
			return -ERANGE;
		}
	}
	a = tb[HYBRIDNET_ATTR_PHASES];
	if (a) {
		err = hn_phases_parse(nla_data(a));
		if (err < 0) {
			hn_nl_unknown(info, a, "phases", hn_phases_name);
			return -EINVAL;
		}
		t->phases = err;
	}
	if (tb[HYBRIDNET_ATTR_ROOT])
		t->root = nla_get_u32(tb[HYBRIDNET_ATTR_ROOT]);
	if (tb[HYBRIDNET_ATTR_SEED])
		t->seed = nla_get_u64(tb[HYBRIDNET_ATTR_SEED]);
	if (tb[HYBRIDNET_ATTR_WARMUP_NS])
		rc->warmup_ns = nla_get_u64(tb[HYBRIDNET_ATTR_WARMUP_NS]);
	if (tb[HYBRIDNET_ATTR_MEASURE_NS])
		rc->measure_ns = nla_get_u64(tb[HYBRIDNET_ATTR_MEASURE_NS]);
	if (tb[HYBRIDNET_ATTR_DRAIN_NS])
		rc->drain_ns = nla_get_u64(tb[HYBRIDNET_ATTR_DRAIN_NS]);
	if (tb[HYBRIDNET_ATTR_LIMIT_NS])
		rc->limit_ns = nla_get_u64(tb[HYBRIDNET_ATTR_LIMIT_NS]);
	return 0;
}

int hn_nl_traffic_start(struct sk_buff *skb, struct genl_info *info)
{
	struct hn_dev *hd = hn_nl_dev(info);
	struct hn_err err = { };
	const char *busy = NULL;
	struct hn_trun_cfg rc;
	struct hn_tcfg t;
	char dist[32];
	int rv;

	rv = hn_nl_traffic_parse(info, &t, &rc, dist, sizeof(dist));
	if (rv)
		return rv;
	rv = hn_gen_start(hd, &t, &rc, dist, hn_nl_traffic_event, &err, &busy);
	if (busy) {
		hn_nl_errf(info, NULL, "%s", busy);
		return rv;
	}
	if (rv && err.msg)
		return hn_nl_core_err(info, rv, &err, "traffic refused");
	if (rv)
		return rv;
	hn_nl_traffic_event(hd);	/* running: before the end's */
	hn_gen_go(hd);
	return 0;
}

int hn_nl_traffic_stop(struct sk_buff *skb, struct genl_info *info)
{
	struct hn_dev *hd = hn_nl_dev(info);

	if (hn_gen_stop(hd, "stopped: by TRAFFIC_STOP"))
		hn_nl_traffic_event(hd);
	return 0;
}

int hn_nl_traffic_get(struct sk_buff *skb, struct genl_info *info)
{
	return hn_nl_reply(info, HYBRIDNET_CMD_TRAFFIC_GET, NLMSG_GOODSIZE,
			   hn_nl_put_traffic);
}
