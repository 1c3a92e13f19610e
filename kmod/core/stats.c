// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - statistics: per node, global, per slot, and a latency
 * histogram with 8 linear sub-buckets per power of two (error < 12.5 %),
 * of every message and of each mode's (per pair: pair_stats.c).
 */
#include "engine.h"

/* The histogram bucket of latency @v (see hn_hist_value()). */
u32 hn_hist_bucket(u64 v)
{
	u32 msb;

	if (v < HN_HIST_SUB)
		return (u32)v;
	msb = 63 - __builtin_clzll(v);
	return (msb - 2) * HN_HIST_SUB + (u32)((v >> (msb - 3)) & 7);
}

/* The smallest value that falls in bucket @b. */
u64 hn_hist_value(u32 b)
{
	if (b < HN_HIST_SUB)
		return b;
	if (b >= HN_HIST_BUCKETS)
		return HN_U64_MAX;
	return (u64)(HN_HIST_SUB + b % HN_HIST_SUB) << (b / HN_HIST_SUB - 1);
}

/*
 * The one place percentiles are computed: every tool and interface
 * (hnsim, hnctl stats and traffic, sysfs, hntraffic) reports these.
 *
 * @hist counts some latencies, of which @min is the least and @max the
 * largest.  The @permille-th (500: the median, 990: p99) is the
 * nearest-rank value, the ceil(n x permille / 1000)-th smallest.  It lies
 * in a known bucket, and this returns the top of that bucket: an upper
 * bound, at most 12.5 % above the value, and never above @max (the value
 * cannot be larger) nor below @min.  0 when @hist is empty.
 */
u64 hn_hist_percentile(const u64 *hist, u64 min, u64 max, u32 permille)
{
	u64 total = 0, want, seen = 0, top = max;
	u32 b;

	for (b = 0; b < HN_HIST_BUCKETS; b++)
		total += hist[b];
	if (!total)
		return 0;
	want = hn_div(total * hn_min64(permille, 1000) + 999, 1000);
	if (!want)
		want = 1;
	for (b = 0; b < HN_HIST_BUCKETS; b++) {
		seen += hist[b];
		if (seen >= want) {
			if (b + 1 < HN_HIST_BUCKETS)
				top = hn_hist_value(b + 1) - 1;
			break;
		}
	}
	return hn_max64(hn_min64(top, max), min);
}

static void lat_reset(struct hn_lat *l)
{
	u32 m;

	for (m = 0; m < HN_NMODES; m++)
		l[m].min = HN_U64_MAX;
}

static void node_reset(struct hn_nstats *s)
{
	memset(s, 0, sizeof(*s));
	s->lat_min = HN_U64_MAX;
	lat_reset(s->lat_mode);
}

void hn_stats_init(struct hn_engine *e)
{
	u32 u;

	memset(&e->g, 0, sizeof(e->g));
	e->w_skips = 0;
	e->g.lat_min = HN_U64_MAX;
	lat_reset(e->g.lat_mode);
	e->g.t_first_inject = HN_U64_MAX;
	for (u = 0; u < e->cfg.nodes; u++)
		node_reset(&e->node[u].st);
	hn_pairs_reset(e);
}

void hn_stats_reset(struct hn_engine *e)
{
	hn_stats_init(e);
	hn_fab_stats_reset(e);
}

void hn_stats_delivered(struct hn_engine *e, const struct hn_msg *m)
{
	struct hn_nstats *r = &e->node[m->dst].st;
	u64 lat = m->t_deliver - m->t_inject;

	e->node[m->src].st.tx_done++;
	r->rx_msgs[m->mode]++;
	r->rx_bytes[m->mode] += m->len;
	r->lat_sum += lat;
	r->lat_min = hn_min64(r->lat_min, lat);
	r->lat_max = hn_max64(r->lat_max, lat);
	hn_lat_add(&r->lat_mode[m->mode], lat);
	e->g.rx_msgs[m->mode]++;
	e->g.rx_bytes[m->mode] += m->len;
	e->g.lat_sum += lat;
	e->g.lat_min = hn_min64(e->g.lat_min, lat);
	e->g.lat_max = hn_max64(e->g.lat_max, lat);
	e->g.hist[hn_hist_bucket(lat)]++;
	hn_lat_add(&e->g.lat_mode[m->mode], lat);
	e->g.hist_mode[m->mode][hn_hist_bucket(lat)]++;
	hn_pairs_delivered(e, m, lat);
	e->g.t_last_deliver = hn_max64(e->g.t_last_deliver, m->t_deliver);
	e->out_msgs++;
	e->out_bytes += m->len;
}

/* Ch. 1: bits delivered / time taken / peak bandwidth (N links). */
static u32 util_ppm(const struct hn_engine *e)
{
	const struct hn_gstats *g = &e->g;
	u64 bytes = g->rx_bytes[0] + g->rx_bytes[1];
	u64 dt, cap, ppm;

	if (!bytes || g->t_last_deliver <= g->t_first_inject)
		return 0;
	dt = g->t_last_deliver - g->t_first_inject;
	cap = hn_mul_div(dt, (u64)e->cfg.link_mbps * e->cfg.nodes, 1000);
	if (!cap)
		return 0;
	ppm = hn_mul_div(bytes * 8, 1000000, cap);
	return ppm > 0xffffffffULL ? 0xffffffffu : (u32)ppm;
}

void hn_stats_global(const struct hn_engine *e, struct hn_gstats *g)
{
	u32 s;

	*g = e->g;
	for (s = 0; s < e->cfg.k; s++)	/* engine.c's soft boundaries' */
		g->slot[s].skipped += e->w_skips;
	g->now = e->now;
	g->nslots = e->nslots;
	g->in_flight_msgs = e->in_msgs - e->out_msgs;
	g->in_flight_bytes = e->in_bytes - e->out_bytes;
	g->util_ppm = util_ppm(e);
	g->pairs = e->pairs.n;
	g->pairs_max = e->pairs.max;
}

int hn_stats_node(const struct hn_engine *e, u32 node, struct hn_nstats *s)
{
	if (node >= e->cfg.nodes)
		return -EINVAL;
	*s = e->node[node].st;
	return 0;
}
