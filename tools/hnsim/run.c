// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - hnsim run --pattern NAME ...: synthetic traffic through the
 * engine, with the core's run driver (kmod/core/traffic_run.c), so the
 * in-kernel generator runs the same code on the same words.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hnsim.h"
#include "hn_traffic.h"
#include "topts.h"
#include "json_pretty.h"

#define U(x) ((unsigned long long)(x))

static void run_usage(FILE *f)
{
	fprintf(f,
"NAME\n"
"    hnsim run - a synthetic traffic pattern on the engine, measured\n"
"\n"
"SYNOPSIS\n"
"    hnsim run --pattern NAME [PATTERN OPTIONS] (--load L | --batch M)\n"
"              [--size SPEC] [--net NET] [METHOD] [--seed S]\n"
"              [--json [--pretty]] [ENGINE OPTIONS]\n"
"\n"
"DESCRIPTION\n"
"    Generate a synthetic traffic pattern on the engine's N virtual nodes\n"
"    and measure it.  Without --pattern, 'hnsim run [OPTIONS] TRACE' is the\n"
"    trace mode ('hnsim --help').  The same options and seed give the same\n"
"    messages and statistics here and in the kernel's generator.\n"
"\n"
"OPTIONS\n");
	hn_topts_usage_patterns(f);
	fprintf(f,
"Injection:\n"
"  --load L          Bernoulli: offered load per sender, fraction of the link\n"
"                    rate, 0 < L <= 1 (also NN%%); one trial per --cycle NS\n"
"                    (10) with probability L x link bytes per cycle / mean size\n"
"  --batch M         M messages per sender, run to completion; the sender\n"
"                    blocks while its NIC is full\n"
"  --gen-rate MBPS   batch: the PE generates data at this rate (0: at once)\n"
"Method (Bernoulli; Duato, BookSim; docs/model.md, 'Statistics'):\n"
"  --warmup NS       not measured: at least NS (20000) and half the window;\n"
"                    then on, a sample period (--measure / 10) at a time,\n"
"                    while the latency of the last 10 periods still rises\n"
"  --warmup-max NS   the warm-up ends here at the latest (--warmup + 10 x\n"
"                    --measure)\n"
"  --measure NS      messages generated in this window are measured (100000)\n"
"  --drain NS        they must all arrive within this after it (200000)\n"
"  --max-queue M     a source queue longer than M messages is saturation (1000)\n"
"  --sat-tol F       accepted below (1 - F) x offered in the window is\n"
"                    saturation (0.05)\n"
"  Saturation is also a latency that rises through the window's 10 sample\n"
"  periods (Mann-Kendall trend test, 0.1 %%; 10 %% after a warm-up that ran\n"
"  to --warmup-max): past capacity every later period waits longer.  Within\n"
"  a few %% of capacity a short window may not tell: lengthen --measure.\n"
"  --limit NS        batch: give up at this virtual time (10 s)\n"
"Networks (--net, default hybrid):\n"
"  hybrid            the engine as configured (-k, -P ...), with the pattern's\n"
"                    plan preloaded in --preload-slots P slots (0)\n"
"  wormhole          K = 0: wormhole switching only\n"
"  circuit           circuit switching: a circuit per message, 240 ns set-up\n"
"                    in ding5, held while the NIC has data for it (Sec. 8.4.2)\n"
"  dynamic           Dynamic TDM: greedy scheduler on non-empty VQs, time-out\n"
"                    predictor (idle_timeout_ns, default one slot); with\n"
"                    --preload-slots P, P slots preloaded, K - P dynamic\n"
"  preload           pure TDM on the pattern's plan in P = K slots, the next\n"
"                    group installed when the fabric is empty and a PE waits\n"
"Engine options: -p PROFILE, -t TOPOLOGY, -n N, -k K, -P POLICY, -s KEY=VALUE,\n"
"-c FILE, as in trace mode ('hnsim --help').\n"
"\n"
"OUTPUT\n"
"    Offered and accepted load (fraction of the senders' link capacity,\n"
"    over the part of the window measured: all of it unless the run ended\n"
"    inside it), the convergence test (mean latency per sample period, the\n"
"    halves, S), latency from generation to delivery (min, mean, p50, p99,\n"
"    max; p50 and p99 are upper bounds from a log histogram, at most\n"
"    12.5 %% above, never above max: the same figures as hnctl and\n"
"    hntraffic), Ding's utilisation (Ch. 1: bits delivered / (last delivery\n"
"    - first generation) / senders' link rate; also over all N links), what\n"
"    was and was not delivered, and how the run ended.  --json prints one\n"
"    object (keys: docs/names.md), --pretty indented (as hnctl -j -p).\n"
"\n"
"EXIT STATUS\n"
"    0  completed\n"
"    1  bad options\n"
"    2  saturated or not completed\n");
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a percentile: an upper bound, within [min, max] (hn_hist_percentile) */
static u64 pct(const struct hn_tres *r, u32 permille)
{
	return hn_hist_percentile(r->hist, r->lat_min, r->lat_max, permille);
}

/* the sample periods' figures: @what 0 mean latency, 1 offered, 2 accepted */
static u64 smp(const struct hn_tres *r, u32 i, int what, double cap)
{
	u64 b = what == 1 ? r->smp_gen_bytes[i] : r->smp_acc_bytes[i];

	if (!what)
		return r->smp_lat_n[i] ? r->smp_lat_sum[i] / r->smp_lat_n[i] : 0;
	return cap > 0 ? (u64)(b * 1e6 / cap + 0.5) : 0;
}

/* bytes the senders' links carry in one sample period */
static double smp_cap(const struct hn_config *c, const struct hn_trun_cfg *rc,
		      const struct hn_tres *r)
{
	return (double)rc->measure_ns / HN_TRUN_SAMPLES * c->link_mbps /
	       8000 * r->active;
}

/* "+12.3 %": the second half's mean latency against the first's */
static double rise_pct(const struct hn_tres *r)
{
	return r->lat_first ? 100.0 * ((double)r->lat_second - r->lat_first) /
			      r->lat_first : 0;
}

static void print_convergence(const struct hn_trun_cfg *rc,
			      const struct hn_tres *r)
{
	u32 i;

	printf("convergence mean latency by generation, %u sample periods of %llu ns:",
	       HN_TRUN_SAMPLES, U(rc->measure_ns / HN_TRUN_SAMPLES));
	for (i = 0; i < HN_TRUN_SAMPLES; i++)
		printf(" %llu", U(smp(r, i, 0, 0)));
	printf(" ns\n");
	printf("            halves %llu, %llu ns (%+.1f %%); trend S = %d over %u periods, a rise from %u (%s): %s\n",
	       U(r->lat_first), U(r->lat_second), rise_pct(r),
	       (int)r->trend_up - (int)r->trend_down, r->trend_periods,
	       r->trend_min, r->warmup_capped ?
	       "10 %, the warm-up never settled" : "0.1 %",
	       r->end == HN_END_STOPPED ? "not judged" :
	       r->rising ? "rising, not converged" : "converged");
}

/* predictive slots: given time, passed over empty (SES), preempted */
static void pslots(const struct hn_gstats *g, u32 k, u64 *run, u64 *skip,
		   u64 *pre)
{
	u32 s;

	*run = *skip = *pre = 0;
	for (s = 0; s < k; s++) {
		*run += g->slot[s].runs;
		*skip += g->slot[s].skipped;
		*pre += g->slot[s].preempted;
	}
}

static void print_human(const struct hn_tcfg *t, const struct hn_trun_cfg *rc,
			struct hn_engine *e, const struct hn_tres *r,
			double wall_s)
{
	const struct hn_config *c = hn_cfg(e);
	u64 run, skip, pre;
	struct hn_gstats g;
	char pol[64], sz[96];

	hn_stats_global(e, &g);
	printf("run         %s, %u nodes (%u send), net %s, slots %u, policy %s, seed %llu\n",
	       hn_pattern_name(t->pattern), c->nodes, r->active,
	       hn_net_name(rc->net), c->k,
	       cfg_policy_name(c->policy, pol, sizeof(pol)), U(t->seed));
	if (t->inject == HN_INJ_BATCH)
		printf("injection   batch of %u per sender, %s, generation %s%u Mb/s\n",
		       t->batch, hn_topts_size_desc(t, sz, sizeof(sz)),
		       t->gen_mbps ? "" : "unlimited, ", t->gen_mbps);
	else
		printf("injection   Bernoulli, offered %.4f of the link, %s\n",
		       t->load_ppm / 1e6, hn_topts_size_desc(t, sz, sizeof(sz)));
	if (t->pattern == HN_PAT_PHASED)
		printf("phases      %s, %u messages per ordered+random pair, ratio %.6f\n",
		       hn_phases_name(t->phases), t->phase_msgs,
		       t->pred_ppm / 1e6);
	printf("ended       %s, at %llu ns virtual (%.3f s wall)\n", r->why,
	       U(r->t_end), wall_s);
	printf("messages    generated %llu, delivered %llu (circuit %llu, wormhole %llu), not delivered %llu; measured %llu, of them delivered %llu\n",
	       U(r->gen_msgs), U(r->done_msgs), U(g.rx_msgs[0]),
	       U(g.rx_msgs[1]), U(r->gen_msgs - r->done_msgs), U(r->tagged),
	       U(r->tagged_done));
	if (t->inject == HN_INJ_BERNOULLI && !r->measured_ns) {
		printf("window      none: the run ended in the warm-up, after %llu ns\n",
		       U(r->warmup_taken_ns));
	} else if (t->inject == HN_INJ_BERNOULLI) {
		printf("window      [%llu, %llu) ns, %llu ns of it measured; warm-up %llu ns (--warmup %llu%s)\n",
		       U(r->warmup_taken_ns), U(r->warmup_taken_ns + rc->measure_ns),
		       U(r->measured_ns), U(r->warmup_taken_ns), U(rc->warmup_ns),
		       r->warmup_capped ?
		       ", cut at --warmup-max with the latency still rising" :
		       ", half the window, then while the latency rose");
		printf("throughput  offered %.4f, accepted %.4f of the senders' link capacity (window)\n",
		       r->offered_ppm / 1e6, r->accepted_ppm / 1e6);
		print_convergence(rc, r);
	}
	if (r->lat_n)
		printf("latency     min %llu, mean %llu, p50 <= %llu, p99 <= %llu, max %llu ns (generation to delivery; p50, p99: upper bounds)\n",
		       U(r->lat_min), U(r->lat_sum / r->lat_n),
		       U(pct(r, 500)), U(pct(r, 990)), U(r->lat_max));
	printf("utilisation %.2f %% of the senders' links, %.2f %% of all N links (Ch. 1)\n",
	       r->util_ppm / 1e4, r->util_all_ppm / 1e4);
	printf("circuits    %llu grants, %llu refusals, %llu time-outs, %llu plan groups; source queue max %llu\n",
	       U(g.grants), U(g.refusals), U(g.timeouts), U(r->groups),
	       U(r->queue_max));
	pslots(&g, c->k, &run, &skip, &pre);
	printf("slots       predictive: %llu run, %llu skipped (empty), %llu preempted; wormhole: %llu run\n",
	       U(run), U(skip), U(pre), U(g.slot[c->k].runs));
}

static void json_smp(const char *key, const struct hn_tres *r, int what,
		     double cap)
{
	u32 i;

	printf("\"%s\": [", key);
	for (i = 0; i < HN_TRUN_SAMPLES; i++)
		printf("%s%llu", i ? ", " : "", U(smp(r, i, what, cap)));
	printf("], ");
}

/* the window as measured, and the convergence test's figures */
static void json_convergence(const struct hn_config *c,
			     const struct hn_trun_cfg *rc,
			     const struct hn_tres *r)
{
	double cap = smp_cap(c, rc, r);

	printf("\"warmup_taken_ns\": %llu, \"measured_ns\": %llu, \"sample_ns\": %llu, ",
	       U(r->warmup_taken_ns), U(r->measured_ns),
	       U(rc->measure_ns / HN_TRUN_SAMPLES));
	json_smp("sample_lat_mean", r, 0, 0);
	json_smp("sample_offered_ppm", r, 1, cap);
	json_smp("sample_accepted_ppm", r, 2, cap);
	printf("\"lat_mean_first\": %llu, \"lat_mean_second\": %llu, \"lat_trend_up\": %u, \"lat_trend_down\": %u, \"lat_trend_min\": %u, \"lat_trend_periods\": %u, \"warmup_capped\": %s, \"converged\": %s, ",
	       U(r->lat_first), U(r->lat_second), r->trend_up,
	       r->trend_down, r->trend_min, r->trend_periods,
	       r->warmup_capped ? "true" : "false",
	       r->rising ? "false" : "true");
}

static void print_json(const struct hn_tcfg *t, const struct hn_trun_cfg *rc,
		       struct hn_engine *e, const struct hn_tres *r,
		       double wall_s)
{
	const struct hn_config *c = hn_cfg(e);
	u64 run, skip, pre;
	struct hn_gstats g;
	char pol[64];

	hn_stats_global(e, &g);
	printf("{\"pattern\": \"%s\", \"nodes\": %u, \"active\": %u, \"net\": \"%s\", \"slots\": %u, \"policy\": \"%s\", \"seed\": %llu, ",
	       hn_pattern_name(t->pattern), c->nodes, r->active,
	       hn_net_name(rc->net), c->k,
	       cfg_policy_name(c->policy, pol, sizeof(pol)), U(t->seed));
	printf("\"inject\": \"%s\", \"load_ppm\": %u, \"batch\": %u, \"size\": %u, \"size_max\": %u, ",
	       t->inject == HN_INJ_BATCH ? "batch" : "bernoulli",
	       t->inject == HN_INJ_BATCH ? 0 : t->load_ppm,
	       t->inject == HN_INJ_BATCH ? t->batch : 0, t->size,
	       t->size_dist == HN_SIZE_FIXED ? t->size : t->size_max);
	printf("\"end\": \"%s\", \"saturated\": %s, \"completed\": %s, \"why\": \"%s\", \"t_end_ns\": %llu, \"wall_s\": %.6f, ",
	       r->end == HN_END_DONE ? "done" : r->end == HN_END_LIMIT ?
	       "limit" : "saturated",
	       r->end != HN_END_DONE && r->end != HN_END_LIMIT ?
	       "true" : "false", r->end == HN_END_DONE ? "true" : "false",
	       r->why, U(r->t_end), wall_s);
	if (t->inject == HN_INJ_BERNOULLI)
		json_convergence(hn_cfg(e), rc, r);
	printf("\"gen_msgs\": %llu, \"gen_bytes\": %llu, \"done_msgs\": %llu, \"done_bytes\": %llu, \"circuit_msgs\": %llu, \"wormhole_msgs\": %llu, \"tagged\": %llu, \"tagged_done\": %llu, ",
	       U(r->gen_msgs), U(r->gen_bytes), U(r->done_msgs),
	       U(r->done_bytes), U(g.rx_msgs[0]), U(g.rx_msgs[1]),
	       U(r->tagged), U(r->tagged_done));
	printf("\"offered_ppm\": %u, \"accepted_ppm\": %u, \"util_ppm\": %u, \"util_all_ppm\": %u, ",
	       r->offered_ppm, r->accepted_ppm, r->util_ppm, r->util_all_ppm);
	printf("\"lat_min_ns\": %llu, \"lat_mean_ns\": %llu, \"lat_p50_ns\": %llu, \"lat_p99_ns\": %llu, \"lat_max_ns\": %llu, ",
	       U(r->lat_n ? r->lat_min : 0),
	       U(r->lat_n ? r->lat_sum / r->lat_n : 0),
	       U(pct(r, 500)), U(pct(r, 990)), U(r->lat_max));
	pslots(&g, c->k, &run, &skip, &pre);
	printf("\"pslot_runs\": %llu, \"pslot_skipped\": %llu, \"pslot_preempted\": %llu, \"wslot_runs\": %llu, ",
	       U(run), U(skip), U(pre), U(g.slot[c->k].runs));
	printf("\"grants\": %llu, \"refusals\": %llu, \"timeouts\": %llu, \"groups\": %llu, \"queue_max\": %llu}\n",
	       U(g.grants), U(g.refusals), U(g.timeouts), U(r->groups),
	       U(r->queue_max));
}

static int opt_err(const char *opt, const char *val, const char *what)
{
	return hn_topt_err("hnsim run", opt, val, what);
}

enum { O_NET = HN_TOPT_END, O_PSLOTS, O_WMAX, O_PRETTY };

/* Is "hnsim run ARGS" the pattern mode (else the trace mode)? */
int run_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--pattern") ||
		    !strncmp(argv[i], "--pattern=", 10) ||
		    !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/* hnsim run --pattern ...; argv[0] is "run". */
int run_main(int argc, char **argv)
{
	static const struct option lo[] = {
		HN_TOPT_LONGOPTS,
		{ "net", required_argument, NULL, O_NET },
		{ "preload-slots", required_argument, NULL, O_PSLOTS },
		{ "warmup-max", required_argument, NULL, O_WMAX },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, O_PRETTY },
		HNSIM_CFG_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hn_config cfg;
	struct hn_topts o;
	struct hn_tcfg t;
	struct hn_trun_cfg rc;
	struct hn_err err = { 0 };
	const struct hn_tres *res;
	struct hn_trun *r;
	unsigned long long v;
	int c, json = 0, pretty = 0, rv;
	double t0;

	hn_config_default(&cfg);
	hn_topts_init(&o, "hnsim run");
	optind = 1;
	while ((c = getopt_long(argc, argv, HNSIM_CFG_SHORTOPTS "jh", lo, NULL)) != -1) {
		rv = hn_topts_opt(&o, c, optarg);
		if (rv < 0)
			rv = cfg_opt(&cfg, NULL, c, optarg, "hnsim run");
		if (rv > 0)
			return 1;
		if (!rv)
			continue;
		switch (c) {
		case O_NET:
			rv = hn_net_parse(optarg);
			if (rv < 0)
				return opt_err("--net", optarg,
					       "unknown network: hybrid, wormhole, circuit, dynamic or preload");
			o.r.net = (u32)rv;
			break;
		case O_PSLOTS:
			if (hn_topt_u32(optarg, &o.r.preload_slots))
				return opt_err("--preload-slots", optarg, "want slots");
			break;
		case O_WMAX:
			if (hn_topt_u64(optarg, &v))
				return opt_err("--warmup-max", optarg, "want ns");
			o.r.warmup_max_ns = v;
			break;
		case 'j':
			json = 1;
			break;
		case O_PRETTY:
			pretty = 1;
			break;
		case 'h':
			run_usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'hnsim run --help'.\n");
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hnsim run: unexpected argument '%s' (a trace is read only without --pattern)\n",
			argv[optind]);
		return 1;
	}
	if (hn_topts_finish(&o, cfg.nodes))
		return 1;
	t = o.t;
	rc = o.r;
	t0 = wall();
	r = hn_trun_create(&cfg, &t, &rc, &rv, &err);
	if (!r) {
		fprintf(stderr, "hnsim run: %s\n",
			err.msg ? err.msg : strerror(-rv));
		return 1;
	}
	rv = hn_trun_run(r, 0);
	if (rv) {
		fprintf(stderr, "hnsim run: the run failed: %s\n",
			rv == -EHOSTUNREACH ?
			"the preload plan has no circuit for a message" :
			strerror(-rv));
		hn_trun_destroy(r);
		return 1;
	}
	res = hn_trun_result(r);
	if (json && pretty)
		json_pretty_begin();
	if (json)
		print_json(&t, &rc, hn_trun_engine(r), res, wall() - t0);
	else
		print_human(&t, &rc, hn_trun_engine(r), res, wall() - t0);
	json_pretty_end();
	rv = res->end == HN_END_DONE ? 0 : 2;
	if (rv && !json)
		fprintf(stderr, "hnsim run: %s\n", res->why);
	hn_trun_destroy(r);
	return rv;
}
