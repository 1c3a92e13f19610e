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

#define U(x) ((unsigned long long)(x))

static void run_usage(FILE *f)
{
	u32 i;

	fprintf(f,
"Usage: hnsim run --pattern NAME [PATTERN OPTIONS] (--load L | --batch M)\n"
"                 [--size SPEC] [--net NET] [METHOD] [--seed S] [--json]\n"
"                 [ENGINE OPTIONS]\n"
"Generate a synthetic traffic pattern on the engine's N virtual nodes and\n"
"measure it.  Without --pattern, 'hnsim run [OPTIONS] TRACE' is the trace\n"
"mode ('hnsim --help').  The same options and seed give the same messages\n"
"and statistics here and in the kernel's generator.\n"
"\n"
"Patterns (destination formulas: docs/model.md, 'Traffic'):\n ");
	for (i = 0; hn_pattern_name(i); i++)
		fprintf(f, " %s", hn_pattern_name(i));
	fprintf(f,
"\n"
"  --root R          scatter: the sending node (0)\n"
"  --hot LIST        hotspot: hot nodes, comma-separated (0)\n"
"  --hot-frac F      hotspot: fraction of messages to the hot set (0.1)\n"
"  --pred F          mixed, phased: predictable (ordered-mesh) ratio (0.5)\n"
"  --dirs D          mixed, phased: mesh directions used, 1..4 (4)\n"
"  --phase-len M     phased: messages per node per ordered+random pair (256)\n"
"  --rmesh M         two-phase: random-mesh messages after the all-to-all (16)\n"
"  --grid WxH        grid of the mesh patterns, tornado, neighbor (auto)\n"
"Sizes (--size, default 128):\n"
"  B                 fixed, bytes\n"
"  A-B               uniform on A..B\n"
"  bimodal:S,L,F     L bytes with probability F, else S\n"
"  80/80             Ch. 1's rule (L356): bimodal:256,8192,0.111111 - 8/9 of\n"
"                    messages 256 B, 80 %% of the bytes in 8 KB messages\n"
"Injection:\n"
"  --load L          Bernoulli: offered load per sender, fraction of the link\n"
"                    rate, 0 < L <= 1 (also NN%%); one trial per --cycle NS\n"
"                    (10) with probability L x link bytes per cycle / mean size\n"
"  --batch M         M messages per sender, run to completion; the sender\n"
"                    blocks while its NIC is full\n"
"  --gen-rate MBPS   batch: the PE generates data at this rate (0: at once)\n"
"Method (Bernoulli; Duato, BookSim):\n"
"  --warmup NS       not measured (20000)\n"
"  --measure NS      messages generated in this window are measured (100000)\n"
"  --drain NS        they must all arrive within this after it (200000)\n"
"  --max-queue M     a source queue longer than M messages is saturation (1000)\n"
"  --sat-tol F       accepted below (1 - F) x offered in the window is\n"
"                    saturation (0.05)\n"
"  --limit NS        batch: give up at this virtual time (10 s)\n"
"Networks (--net, default hybrid):\n"
"  hybrid            the engine as configured (-k, -P ...), with the pattern's\n"
"                    plan preloaded in --preload-slots P slots (0)\n"
"  wormhole          K = 0: wormhole switching only\n"
"  circuit           circuit switching: a circuit per message, 240 ns set-up\n"
"                    in ding5, held while the NIC has data for it (L1776)\n"
"  dynamic           Dynamic TDM: greedy scheduler on non-empty VQs, time-out\n"
"                    predictor (idle_timeout_ns, default one slot); with\n"
"                    --preload-slots P, P slots preloaded, K - P dynamic\n"
"  preload           pure TDM on the pattern's plan in P = K slots, the next\n"
"                    group installed when the fabric is empty and a PE waits\n"
"Engine options: -p PROFILE, -n N, -k K, -P POLICY, -s KEY=VALUE, -c FILE, as\n"
"in trace mode ('hnsim --help').\n"
"Output: offered and accepted load (fraction of the senders' link capacity,\n"
"measurement window), latency from generation to delivery (min, mean, p50,\n"
"p99, max), Ding's utilisation (L316: bits delivered / (last delivery -\n"
"first generation) / senders' link rate; also over all N links), and how\n"
"the run ended.  --json prints one object.\n"
"Exit status: 0 completed, 1 bad options, 2 saturated or not completed.\n");
}

/* "0.35", "35%", "1" -> parts per million; -1 if not a number */
static long long parse_ppm(const char *s)
{
	unsigned long long ip = 0, fp = 0, scale = 1000000;
	const char *p = s;
	int digits = 0, pct = 0;

	if (!*p)
		return -1;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		ip = ip * 10 + (*p - '0');
		if (ip > 1000000000ULL)
			return -1;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			if (scale > 1) {
				scale /= 10;
				fp += (*p - '0') * scale;
			}
		}
	}
	if (*p == '%') {
		pct = 1;
		p++;
	}
	if (*p || !digits)
		return -1;
	ip = ip * 1000000 + fp;
	return pct ? (long long)(ip / 100) : (long long)ip;
}

static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_u32(const char *s, u32 *v)
{
	unsigned long long x;

	if (parse_u64(s, &x) || x > 0xffffffffULL)
		return -1;
	*v = (u32)x;
	return 0;
}

static int parse_size(const char *s, struct hn_tcfg *t)
{
	char buf[96], *a, *b, *c;
	long long f;

	if (!strcmp(s, "80/80")) {
		t->size_dist = HN_SIZE_BIMODAL;
		t->size = HN_8080_SMALL;
		t->size_max = HN_8080_LARGE;
		t->large_ppm = HN_8080_PPM;
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	if (!strncmp(buf, "bimodal:", 8)) {
		a = buf + 8;
		b = strchr(a, ',');
		c = b ? strchr(b + 1, ',') : NULL;
		if (!b || !c)
			return -1;
		*b++ = 0;
		*c++ = 0;
		f = parse_ppm(c);
		if (parse_u32(a, &t->size) || parse_u32(b, &t->size_max) ||
		    f < 0)
			return -1;
		t->large_ppm = (u32)f;
		t->size_dist = HN_SIZE_BIMODAL;
		return 0;
	}
	a = strchr(buf, '-');
	if (a) {
		*a++ = 0;
		t->size_dist = HN_SIZE_UNIFORM;
		return parse_u32(buf, &t->size) || parse_u32(a, &t->size_max);
	}
	t->size_dist = HN_SIZE_FIXED;
	if (parse_u32(buf, &t->size))
		return -1;
	t->size_max = t->size;
	return 0;
}

static int parse_hot(const char *s, struct hn_tcfg *t)
{
	char buf[256], *tok, *save;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	t->nhot = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (t->nhot == HN_MAX_HOT || parse_u32(tok, &t->hot[t->nhot]))
			return -1;
		t->nhot++;
	}
	return t->nhot ? 0 : -1;
}

/* KEY=VALUE lines, '#' comments, as hnsim -c reads them. */
static int config_lines(struct hn_config *c, const char *path)
{
	char *buf = NULL, *k, *v, *eq, why[160];
	unsigned long n = 0;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (!rc && getline(&buf, &cap, f) >= 0) {
		n++;
		k = strchr(buf, '#');
		if (k)
			*k = 0;
		k = buf + strspn(buf, " \t\r\n");
		if (!*k)
			continue;
		eq = strchr(k, '=');
		if (!eq) {
			fprintf(stderr, "hnsim run: %s:%lu: want KEY=VALUE\n",
				path, n);
			rc = -1;
			break;
		}
		*eq = 0;
		v = eq + 1 + strspn(eq + 1, " \t");
		k[strcspn(k, " \t")] = 0;
		v[strcspn(v, " \t\r\n")] = 0;
		if (cfg_set(c, k, v, why, sizeof(why))) {
			fprintf(stderr, "hnsim run: %s:%lu: %s\n", path, n, why);
			rc = -1;
		}
	}
	free(buf);
	fclose(f);
	return rc;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *size_desc(const struct hn_tcfg *t, char *buf, size_t n)
{
	if (t->size_dist == HN_SIZE_UNIFORM)
		snprintf(buf, n, "uniform %u..%u B", t->size, t->size_max);
	else if (t->size_dist == HN_SIZE_BIMODAL)
		snprintf(buf, n, "bimodal %u B / %u B w.p. %.6f", t->size,
			 t->size_max, t->large_ppm / 1e6);
	else
		snprintf(buf, n, "%u B", t->size);
	return buf;
}

/* a percentile's upper bound from the histogram, never above the max */
static u64 pct(const struct hn_tres *r, u32 permille)
{
	u64 v = hn_hist_percentile(r->hist, permille);

	return v < r->lat_max ? v : r->lat_max;
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
	printf("run         %s, %u nodes (%u send), net %s, K = %u, policy %s, seed %llu\n",
	       hn_pattern_name(t->pattern), c->nodes, r->active,
	       hn_net_name(rc->net), c->k,
	       cfg_policy_name(c->policy, pol, sizeof(pol)), U(t->seed));
	if (t->inject == HN_INJ_BATCH)
		printf("injection   batch of %u per sender, %s, generation %s%u Mb/s\n",
		       t->batch, size_desc(t, sz, sizeof(sz)),
		       t->gen_mbps ? "" : "unlimited, ", t->gen_mbps);
	else
		printf("injection   Bernoulli, offered %.4f of the link, %s; window [%llu, %llu) ns\n",
		       t->load_ppm / 1e6, size_desc(t, sz, sizeof(sz)),
		       U(rc->warmup_ns), U(rc->warmup_ns + rc->measure_ns));
	printf("ended       %s, at %llu ns virtual (%.3f s wall)\n", r->why,
	       U(r->t_end), wall_s);
	printf("messages    generated %llu, delivered %llu (circuit %llu, wormhole %llu), measured %llu of %llu\n",
	       U(r->gen_msgs), U(r->done_msgs), U(g.rx_msgs[0]),
	       U(g.rx_msgs[1]), U(r->tagged_done), U(r->tagged));
	if (t->inject == HN_INJ_BERNOULLI)
		printf("throughput  offered %.4f, accepted %.4f of the senders' link capacity (window)\n",
		       r->offered_ppm / 1e6, r->accepted_ppm / 1e6);
	if (r->lat_n)
		printf("latency     min %llu, mean %llu, p50 <= %llu, p99 <= %llu, max %llu ns (generation to delivery)\n",
		       U(r->lat_min), U(r->lat_sum / r->lat_n),
		       U(pct(r, 500)), U(pct(r, 990)), U(r->lat_max));
	printf("utilisation %.2f %% of the senders' links, %.2f %% of all N links (L316)\n",
	       r->util_ppm / 1e4, r->util_all_ppm / 1e4);
	printf("circuits    %llu grants, %llu refusals, %llu time-outs, %llu plan groups; source queue max %llu\n",
	       U(g.grants), U(g.refusals), U(g.timeouts), U(r->groups),
	       U(r->queue_max));
	pslots(&g, c->k, &run, &skip, &pre);
	printf("slots       predictive: %llu run, %llu skipped (empty), %llu preempted; wormhole: %llu run\n",
	       U(run), U(skip), U(pre), U(g.slot[c->k].runs));
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
	printf("{\"pattern\": \"%s\", \"nodes\": %u, \"active\": %u, \"net\": \"%s\", \"k\": %u, \"policy\": \"%s\", \"seed\": %llu, ",
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
	printf("\"gen_msgs\": %llu, \"gen_bytes\": %llu, \"done_msgs\": %llu, \"done_bytes\": %llu, \"circuit_msgs\": %llu, \"wormhole_msgs\": %llu, \"tagged\": %llu, \"tagged_done\": %llu, ",
	       U(r->gen_msgs), U(r->gen_bytes), U(r->done_msgs),
	       U(r->done_bytes), U(g.rx_msgs[0]), U(g.rx_msgs[1]),
	       U(r->tagged), U(r->tagged_done));
	printf("\"offered_ppm\": %u, \"accepted_ppm\": %u, \"util_ppm\": %u, \"util_all_ppm\": %u, ",
	       r->offered_ppm, r->accepted_ppm, r->util_ppm, r->util_all_ppm);
	printf("\"lat_min\": %llu, \"lat_mean\": %llu, \"lat_p50_max\": %llu, \"lat_p99_max\": %llu, \"lat_max\": %llu, ",
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
	fprintf(stderr, "hnsim run: %s '%s': %s\n", opt, val, what);
	return 1;
}

enum {
	O_PATTERN = 256, O_ROOT, O_HOT, O_HOTF, O_PRED, O_DIRS, O_PHASE,
	O_RMESH, O_GRID, O_SIZE, O_LOAD, O_BATCH, O_GEN, O_CYCLE, O_WARM,
	O_MEAS, O_DRAIN, O_MAXQ, O_LIMIT, O_NET, O_PSLOTS, O_SEED, O_SATTOL,
};

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
		{ "pattern", required_argument, NULL, O_PATTERN },
		{ "root", required_argument, NULL, O_ROOT },
		{ "hot", required_argument, NULL, O_HOT },
		{ "hot-frac", required_argument, NULL, O_HOTF },
		{ "pred", required_argument, NULL, O_PRED },
		{ "dirs", required_argument, NULL, O_DIRS },
		{ "phase-len", required_argument, NULL, O_PHASE },
		{ "rmesh", required_argument, NULL, O_RMESH },
		{ "grid", required_argument, NULL, O_GRID },
		{ "size", required_argument, NULL, O_SIZE },
		{ "load", required_argument, NULL, O_LOAD },
		{ "batch", required_argument, NULL, O_BATCH },
		{ "gen-rate", required_argument, NULL, O_GEN },
		{ "cycle", required_argument, NULL, O_CYCLE },
		{ "warmup", required_argument, NULL, O_WARM },
		{ "measure", required_argument, NULL, O_MEAS },
		{ "drain", required_argument, NULL, O_DRAIN },
		{ "max-queue", required_argument, NULL, O_MAXQ },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ "net", required_argument, NULL, O_NET },
		{ "preload-slots", required_argument, NULL, O_PSLOTS },
		{ "seed", required_argument, NULL, O_SEED },
		{ "sat-tol", required_argument, NULL, O_SATTOL },
		{ "json", no_argument, NULL, 'j' },
		{ "profile", required_argument, NULL, 'p' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "slots", required_argument, NULL, 'k' },
		{ "policy", required_argument, NULL, 'P' },
		{ "set", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hn_config cfg;
	struct hn_tcfg t;
	struct hn_trun_cfg rc;
	struct hn_err err = { 0 };
	const struct hn_tres *res;
	struct hn_trun *r;
	const char *pattern = NULL, *hot = NULL;
	unsigned long long v;
	char why[160], *eq;
	int c, json = 0, have_load = 0, have_batch = 0, rv;
	long long ppm, pred = -1, hotf = -1;
	u32 root = 0, dirs = 4, phase = 256, rmesh = 16, gw = 0, gh = 0;
	const char *size = "128";
	double t0;

	hn_config_default(&cfg);
	hn_tcfg_default(&t, cfg.nodes);
	hn_trun_cfg_default(&rc);
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:n:k:P:s:c:jh", lo, NULL)) != -1) {
		rv = 0;
		switch (c) {
		case O_PATTERN:
			pattern = optarg;
			break;
		case O_ROOT:
			if (parse_u32(optarg, &root))
				return opt_err("--root", optarg, "not a node number");
			break;
		case O_HOT:
			hot = optarg;
			break;
		case O_HOTF:
			hotf = parse_ppm(optarg);
			if (hotf < 0 || hotf > 1000000)
				return opt_err("--hot-frac", optarg, "want a fraction 0..1");
			break;
		case O_PRED:
			pred = parse_ppm(optarg);
			if (pred < 0 || pred > 1000000)
				return opt_err("--pred", optarg, "want a ratio 0..1");
			break;
		case O_DIRS:
			if (parse_u32(optarg, &dirs))
				return opt_err("--dirs", optarg, "want 1..4");
			break;
		case O_PHASE:
			if (parse_u32(optarg, &phase))
				return opt_err("--phase-len", optarg, "want messages");
			break;
		case O_RMESH:
			if (parse_u32(optarg, &rmesh))
				return opt_err("--rmesh", optarg, "want messages");
			break;
		case O_GRID:
			if (sscanf(optarg, "%ux%u", &gw, &gh) != 2)
				return opt_err("--grid", optarg, "want WxH");
			break;
		case O_SIZE:
			size = optarg;
			break;
		case O_LOAD:
			ppm = parse_ppm(optarg);
			if (ppm < 0)
				return opt_err("--load", optarg,
					       "not a load: want a fraction of the link rate, 0 < L <= 1");
			if (ppm == 0 || ppm > 1000000)
				return opt_err("--load", optarg,
					       "out of range: the offered load must be above 0 and at most 1 (the link rate)");
			t.load_ppm = (u32)ppm;
			have_load = 1;
			break;
		case O_BATCH:
			if (parse_u32(optarg, &t.batch) || !t.batch)
				return opt_err("--batch", optarg, "want messages per sender, >= 1");
			have_batch = 1;
			break;
		case O_GEN:
			if (parse_u32(optarg, &t.gen_mbps))
				return opt_err("--gen-rate", optarg, "want Mb/s");
			break;
		case O_CYCLE:
			if (parse_u32(optarg, &t.cycle_ns))
				return opt_err("--cycle", optarg, "want ns");
			break;
		case O_WARM:
		case O_MEAS:
		case O_DRAIN:
		case O_LIMIT:
			if (parse_u64(optarg, &v))
				return opt_err(lo[c - O_PATTERN].name, optarg,
					       "want ns");
			if (c == O_WARM)
				rc.warmup_ns = v;
			else if (c == O_MEAS)
				rc.measure_ns = v;
			else if (c == O_DRAIN)
				rc.drain_ns = v;
			else
				rc.limit_ns = v;
			break;
		case O_MAXQ:
			if (parse_u32(optarg, &rc.max_queue))
				return opt_err("--max-queue", optarg, "want messages");
			break;
		case O_NET:
			rv = hn_net_parse(optarg);
			if (rv < 0)
				return opt_err("--net", optarg,
					       "unknown network: hybrid, wormhole, circuit, dynamic or preload");
			rc.net = (u32)rv;
			rv = 0;
			break;
		case O_PSLOTS:
			if (parse_u32(optarg, &rc.preload_slots))
				return opt_err("--preload-slots", optarg, "want slots");
			break;
		case O_SEED:
			if (parse_u64(optarg, &v))
				return opt_err("--seed", optarg, "want a number");
			t.seed = v;
			break;
		case O_SATTOL:
			ppm = parse_ppm(optarg);
			if (ppm < 0 || ppm > 1000000)
				return opt_err("--sat-tol", optarg, "want a fraction 0..1");
			rc.sat_tol_ppm = (u32)ppm;
			break;
		case 'j':
			json = 1;
			break;
		case 'p':
			rv = cfg_set(&cfg, "profile", optarg, why, sizeof(why));
			break;
		case 'n':
			rv = cfg_set(&cfg, "nodes", optarg, why, sizeof(why));
			break;
		case 'k':
			rv = cfg_set(&cfg, "k", optarg, why, sizeof(why));
			break;
		case 'P':
			rv = cfg_set(&cfg, "policy", optarg, why, sizeof(why));
			break;
		case 's':
			eq = strchr(optarg, '=');
			if (!eq)
				return opt_err("--set", optarg, "want KEY=VALUE");
			*eq = 0;
			rv = cfg_set(&cfg, optarg, eq + 1, why, sizeof(why));
			break;
		case 'c':
			if (config_lines(&cfg, optarg))
				return 1;
			break;
		case 'h':
			run_usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'hnsim run --help'.\n");
			return 1;
		}
		if (rv) {
			fprintf(stderr, "hnsim run: %s\n", why);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hnsim run: unexpected argument '%s' (a trace is read only without --pattern)\n",
			argv[optind]);
		return 1;
	}
	if (!pattern) {
		fprintf(stderr, "hnsim run: --pattern NAME is required; try 'hnsim run --help'\n");
		return 1;
	}
	rv = hn_pattern_parse(pattern);
	if (rv < 0) {
		fprintf(stderr, "hnsim run: unknown pattern '%s'; the patterns are:",
			pattern);
		for (rv = 0; hn_pattern_name(rv); rv++)
			fprintf(stderr, " %s", hn_pattern_name(rv));
		fprintf(stderr, "\n");
		return 1;
	}
	t.pattern = (u32)rv;
	if (have_load == have_batch) {
		fprintf(stderr, "hnsim run: give exactly one of --load L (Bernoulli) and --batch M\n");
		return 1;
	}
	t.inject = have_batch ? HN_INJ_BATCH : HN_INJ_BERNOULLI;
	t.nodes = cfg.nodes;
	t.root = root;
	t.dirs = dirs;
	t.phase_msgs = phase;
	t.rmesh_msgs = rmesh;
	t.grid_w = gw;
	t.grid_h = gh;
	if (pred >= 0)
		t.pred_ppm = (u32)pred;
	if (hotf >= 0)
		t.hot_ppm = (u32)hotf;
	if (hot && parse_hot(hot, &t))
		return opt_err("--hot", hot, "want up to 16 node numbers, comma-separated");
	if (parse_size(size, &t))
		return opt_err("--size", size,
			       "want B, A-B, bimodal:S,L,F or 80/80");
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
	if (json)
		print_json(&t, &rc, hn_trun_engine(r), res, wall() - t0);
	else
		print_human(&t, &rc, hn_trun_engine(r), res, wall() - t0);
	rv = res->end == HN_END_DONE ? 0 : 2;
	if (rv && !json)
		fprintf(stderr, "hnsim run: %s\n", res->why);
	hn_trun_destroy(r);
	return rv;
}
