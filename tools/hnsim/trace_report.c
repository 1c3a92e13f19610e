// SPDX-License-Identifier: GPL-2.0
/* trace_report.c - hnsim: a trace run's statistics, for people or as JSON. */
#include <inttypes.h>
#include "hnsim.h"

#define U(x) ((unsigned long long)(x))

static u64 sum2(const u64 *v)
{
	return v[0] + v[1];
}

static const char *const mode_name[HN_NMODES] = { "circuit", "wormhole" };

void report_mode_lat_json(FILE *f, const struct hn_lat *lat,
			  const u64 (*hist)[HN_HIST_BUCKETS], const u64 *n)
{
	const char *m;
	u32 i;

	for (i = 0; i < HN_NMODES; i++) {
		m = mode_name[i];
		fprintf(f, "\"lat_min_%s_ns\": %llu, \"lat_mean_%s_ns\": %llu, \"lat_p50_%s_ns\": %llu, \"lat_p99_%s_ns\": %llu, \"lat_max_%s_ns\": %llu, ",
			m, U(n[i] ? lat[i].min : 0), m,
			U(n[i] ? lat[i].sum / n[i] : 0), m,
			U(hn_hist_percentile(hist[i], lat[i].min, lat[i].max, 500)),
			m,
			U(hn_hist_percentile(hist[i], lat[i].min, lat[i].max, 990)),
			m, U(lat[i].max));
	}
}

void report_mode_lat_human(FILE *f, const struct hn_lat *lat,
			   const u64 (*hist)[HN_HIST_BUCKETS], const u64 *n)
{
	u32 i;

	for (i = 0; i < HN_NMODES; i++)
		if (n[i])
			fprintf(f, "  %-9s %llu messages: min %llu, mean %llu, p50 <= %llu, p99 <= %llu, max %llu ns\n",
				mode_name[i], U(n[i]), U(lat[i].min),
				U(lat[i].sum / n[i]),
				U(hn_hist_percentile(hist[i], lat[i].min,
						     lat[i].max, 500)),
				U(hn_hist_percentile(hist[i], lat[i].min,
						     lat[i].max, 990)),
				U(lat[i].max));
}

static void human(FILE *f, const struct sim_opts *o, struct hn_engine *e,
		  const struct sim_result *r)
{
	const struct hn_config *c = hn_cfg(e);
	struct hn_gstats g;
	char pol[64];
	u64 n;
	u32 s;

	hn_stats_global(e, &g);
	n = sum2(g.rx_msgs);
	fprintf(f, "fabric      %u nodes, slots %u predictive + wormhole slot %uw, policy %s\n",
		c->nodes, c->k, c->k,
		cfg_policy_name(c->policy, pol, sizeof(pol)));
	fprintf(f, "time        %llu ns virtual (%.3f s wall), %llu cycles\n",
		U(g.now), r->wall_s, U(g.cycles));
	fprintf(f, "messages    injected %llu (circuit %llu, wormhole %llu), delivered %llu (circuit %llu, wormhole %llu), in flight %llu\n",
		U(sum2(g.tx_msgs)), U(g.tx_msgs[0]), U(g.tx_msgs[1]), U(n),
		U(g.rx_msgs[0]), U(g.rx_msgs[1]), U(g.in_flight_msgs));
	fprintf(f, "bytes       injected %llu, delivered %llu\n",
		U(sum2(g.tx_bytes)), U(sum2(g.rx_bytes)));
	if (n)
		fprintf(f, "latency     min %llu, mean %llu, p50 <= %llu, p99 <= %llu, max %llu ns\n",
			U(g.lat_min), U(g.lat_sum / n),
			U(hn_hist_percentile(g.hist, g.lat_min, g.lat_max, 500)),
			U(hn_hist_percentile(g.hist, g.lat_min, g.lat_max, 990)),
			U(g.lat_max));
	report_mode_lat_human(f, g.lat_mode, g.hist_mode, g.rx_msgs);
	fprintf(f, "utilisation %.2f %% (bits delivered / (last delivery - first injection) / N link rate)\n",
		g.util_ppm / 1e4);
	fprintf(f, "pushback    %llu injections refused (buffer full), %llu retried later, %llu never accepted, %llu retagged to wormhole\n",
		U(g.tx_full), U(r->retries), U(r->waiting), U(g.retagged));
	if (g.mcast_msgs)
		fprintf(f, "multicast   %llu messages, %llu injections (groups), %llu copies\n",
			U(g.mcast_msgs), U(g.mcast_injections),
			U(g.mcast_copies));
	fprintf(f, "scheduler   %llu grants, %llu exists, %llu refusals, %llu releases, %llu time-outs, %llu preloads\n",
		U(g.grants), U(g.exists), U(g.refusals), U(g.releases),
		U(g.timeouts), U(g.preloads));
	if (g.circuit_reroutes)
		fprintf(f, "faults      %llu circuits routed again\n",
			U(g.circuit_reroutes));
	fprintf(f, "slot        runs        time_ns     util %%  skipped  preempted\n");
	for (s = 0; s < g.nslots; s++)
		fprintf(f, "%u%-7s %10llu %14llu %8.2f %8llu %10llu\n", s,
			s == c->k ? "w" : "", U(g.slot[s].runs),
			U(g.slot[s].time_ns),
			g.slot[s].cap_bytes ?
			100.0 * g.slot[s].bytes / g.slot[s].cap_bytes : 0.0,
			U(g.slot[s].skipped), U(g.slot[s].preempted));
	if (!r->drained)
		fprintf(f, "note        stopped with traffic in flight\n");
	if (o->per_node) {
		fprintf(f, "node   tx_circuit tx_wormhole  rx_circuit rx_wormhole   lat_mean  lat_max  full\n");
		for (s = 0; s < c->nodes; s++) {
			struct hn_nstats ns;
			u64 rn;

			hn_stats_node(e, s, &ns);
			rn = sum2(ns.rx_msgs);
			fprintf(f, "%-5u %11llu %11llu %11llu %11llu %10llu %8llu %5llu\n",
				s, U(ns.tx_msgs[0]), U(ns.tx_msgs[1]),
				U(ns.rx_msgs[0]), U(ns.rx_msgs[1]),
				U(rn ? ns.lat_sum / rn : 0), U(ns.lat_max),
				U(ns.tx_full));
		}
	}
}

static void pair(FILE *f, const char *name, const u64 *v, const char *end)
{
	fprintf(f, "\"%s\": {\"circuit\": %llu, \"wormhole\": %llu}%s", name,
		U(v[0]), U(v[1]), end);
}

static void json(FILE *f, const struct sim_opts *o, struct hn_engine *e,
		 const struct sim_result *r)
{
	const struct hn_config *c = hn_cfg(e);
	struct hn_gstats g;
	char pol[64];
	u64 n;
	u32 s;

	hn_stats_global(e, &g);
	n = sum2(g.rx_msgs);
	fprintf(f, "{\"nodes\": %u, \"slots\": %u, \"policy\": \"%s\", ", c->nodes,
		c->k, cfg_policy_name(c->policy, pol, sizeof(pol)));
	fprintf(f, "\"now_ns\": %llu, \"wall_s\": %.6f, \"cycles\": %llu, ",
		U(g.now), r->wall_s, U(g.cycles));
	fprintf(f, "\"drained\": %s, \"events\": %llu, ",
		r->drained ? "true" : "false", U(r->events));
	pair(f, "tx_msgs", g.tx_msgs, ", ");
	pair(f, "tx_bytes", g.tx_bytes, ", ");
	pair(f, "rx_msgs", g.rx_msgs, ", ");
	pair(f, "rx_bytes", g.rx_bytes, ", ");
	fprintf(f, "\"in_flight_msgs\": %llu, \"in_flight_bytes\": %llu, ",
		U(g.in_flight_msgs), U(g.in_flight_bytes));
	fprintf(f, "\"lat_min_ns\": %llu, \"lat_mean_ns\": %llu, \"lat_p50_ns\": %llu, \"lat_p99_ns\": %llu, \"lat_max_ns\": %llu, ",
		U(n ? g.lat_min : 0), U(n ? g.lat_sum / n : 0),
		U(hn_hist_percentile(g.hist, g.lat_min, g.lat_max, 500)),
		U(hn_hist_percentile(g.hist, g.lat_min, g.lat_max, 990)),
		U(g.lat_max));
	report_mode_lat_json(f, g.lat_mode, g.hist_mode, g.rx_msgs);
	fprintf(f, "\"util_ppm\": %u, \"t_first_inject\": %llu, \"t_last_deliver\": %llu, ",
		g.util_ppm, U(n ? g.t_first_inject : 0), U(g.t_last_deliver));
	fprintf(f, "\"tx_full\": %llu, \"retries\": %llu, \"waiting\": %llu, \"retagged\": %llu, ",
		U(g.tx_full), U(r->retries), U(r->waiting), U(g.retagged));
	fprintf(f, "\"sched\": {\"grants\": %llu, \"exists\": %llu, \"refusals\": %llu, \"releases\": %llu, \"timeouts\": %llu, \"preloads\": %llu, \"circuit_reroutes\": %llu}, ",
		U(g.grants), U(g.exists), U(g.refusals), U(g.releases),
		U(g.timeouts), U(g.preloads), U(g.circuit_reroutes));
	fprintf(f, "\"slots\": [");
	for (s = 0; s < g.nslots; s++)
		fprintf(f, "%s{\"slot\": %u, \"wormhole\": %s, \"runs\": %llu, \"time_ns\": %llu, \"bytes\": %llu, \"cap_bytes\": %llu, \"skipped\": %llu, \"preempted\": %llu}",
			s ? ", " : "", s, s == c->k ? "true" : "false",
			U(g.slot[s].runs), U(g.slot[s].time_ns),
			U(g.slot[s].bytes), U(g.slot[s].cap_bytes),
			U(g.slot[s].skipped), U(g.slot[s].preempted));
	fprintf(f, "]");
	if (o->per_node) {
		fprintf(f, ", \"per_node\": [");
		for (s = 0; s < c->nodes; s++) {
			struct hn_nstats ns;

			hn_stats_node(e, s, &ns);
			fprintf(f, "%s{\"node\": %u, ", s ? ", " : "", s);
			pair(f, "tx_msgs", ns.tx_msgs, ", ");
			pair(f, "rx_msgs", ns.rx_msgs, ", ");
			pair(f, "rx_bytes", ns.rx_bytes, ", ");
			fprintf(f, "\"lat_sum_ns\": %llu, \"lat_max_ns\": %llu, \"tx_full\": %llu}",
				U(ns.lat_sum), U(ns.lat_max), U(ns.tx_full));
		}
		fprintf(f, "]");
	}
	fprintf(f, ", \"mcast_msgs\": %llu, \"mcast_injections\": %llu, \"mcast_copies\": %llu}\n",
		U(g.mcast_msgs), U(g.mcast_injections), U(g.mcast_copies));
}

void report(FILE *f, const struct sim_opts *o, struct hn_engine *e,
	    const struct sim_result *r)
{
	if (o->json)
		json(f, o, e, r);
	else
		human(f, o, e, r);
}
