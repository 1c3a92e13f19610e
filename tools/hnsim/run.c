// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - hnsim run --pattern NAME ...: synthetic traffic through the
 * engine, with the core's run driver (kmod/core/traffic_run.c), so the
 * in-kernel generator runs the same code on the same words.  Its options,
 * the points of a sweep (sweep.c) run one after the other with a
 * progress line; run_report.c prints each.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "hnsim.h"
#include "hn_traffic.h"
#include "topts.h"
#include "json_pretty.h"
#include "fab_name.h"
#include "cfg_field.h"

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
"              [--json [--pretty] | --csv] [--fields NAMES]\n"
"              [--progress | --no-progress]\n"
"              [ENGINE OPTIONS]\n"
"    hnsim run --pattern LIST --load LIST [-s KEY=LIST]... --csv | hnplot\n"
"\n"
"DESCRIPTION\n"
"    Generate a synthetic traffic pattern on the engine's N virtual nodes\n"
"    and measure it.  Without --pattern, 'hnsim run [OPTIONS] TRACE' is the\n"
"    trace mode ('hnsim --help').  The same options and seed give the same\n"
"    messages and statistics here and in the kernel's generator.  Lists of\n"
"    values make a sweep, one run per point (SWEEPS).\n"
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
"  --msg-switching S every message crosses the switches by its own\n"
"                    switching, wormhole, vct or saf, whatever the fabric's\n"
"                    (-s switching; not drop): Zydallis's router\n"
"  --switch-switching NAME=S,...  these switches (hnctl switches' names,\n"
"                    sw1.0) cross worms by their own switching, wormhole,\n"
"                    vct or saf, unless the message has one (routers of\n"
"                    both kinds in one fabric)\n"
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
"Faults (docs/model.md, 'Faults'; not under pure TDM, -P no-w):\n"
"  --down LIST       these links and switches down from the start, by name,\n"
"                    comma-separated: swL.I a switch, swL.I/upP or nodeU a link\n"
"                    (hnctl links' names), LINK/cJ channel J of a link of\n"
"                    dilation 2 or more (-s switching=drop), its others up\n"
"  --down-random N   N links between switches down from the start, chosen at\n"
"                    random among those up (takes a list: SWEEPS)\n"
"  --down-random-channels N  N channels of links between switches down from\n"
"                    the start, chosen at random among those that may go:\n"
"                    every link keeps one channel up (-s switching=drop,\n"
"                    dilation 2 or more; takes a list: SWEEPS)\n"
"  --down-seed S     the seed of these choices (1)\n"
"  --down-before-plan  take them down before the pattern's plan is\n"
"                    preloaded (--preload-slots), which then routes its\n"
"                    circuits around them or is refused; by default they go\n"
"                    down just after, releasing the circuits over them\n"
"  A message whose destination no live route reaches is refused at its\n"
"  source and counted (unreach_msgs), out of the measured ones and of the\n"
"  load the saturation test holds the accepted load against.\n"
"Output:\n"
"  -j, --json        one JSON object per point, a line each (JSON lines)\n"
"      --links       after each point, the statistics of every link (a row\n"
"                    per channel) and switch, as hnctl links and hnctl\n"
"                    switches print the module's; with --json the arrays\n"
"                    links and switches (not with --csv)\n"
"      --pretty      with --json: indented (as hnctl -j -p)\n"
"      --csv         a header line, then one line per point (OUTPUT)\n"
"      --fields NAMES  with --csv or --json: only these columns or keys,\n"
"                    comma-separated, in this order (take a column by its\n"
"                    name: a new one may come before it)\n"
"      --progress    a progress line on stderr (default: when it is a\n"
"                    terminal); --no-progress: none\n"
"\n"
"SWEEPS\n"
"    --pattern, --net, -s KEY=VALUE, --down-random, --down-random-channels,\n"
"    --seed and --load take a list, comma-separated, of values and ranges\n"
"    FIRST:LAST:STEP (numbers only: FIRST, FIRST+STEP, ... up to LAST; loads\n"
"    count in millionths, so 0.05:0.95:0.05 is 19 loads ending at 0.95\n"
"    exactly).  The run is then a sweep over the cross product of the\n"
"    lists: --pattern varies slowest, then --net, the -s keys in the order\n"
"    given, --down-random, --down-random-channels, --seed, and\n"
"    --load fastest, so the points of one curve follow each other.  Each\n"
"    point is the command line with every list replaced by one of its\n"
"    values, run on an engine of its own with the same --seed: it prints\n"
"    exactly what that command line prints alone, whatever the other\n"
"    points.  Every point is checked before the first runs.  -s topology=,\n"
"    -s policy= and -s dilation-levels= take one value, whose commas are\n"
"    its own.\n"
"      hnsim run --pattern uniform,transpose --load 0.05:0.95:0.05 -k 0 \\\n"
"          -s switching=wormhole,vct --csv | hnplot -o curve.png\n"
"\n"
"OUTPUT\n"
"    Offered and accepted load (fraction of the senders' link capacity,\n"
"    over the part of the window measured: all of it unless the run ended\n"
"    inside it), the convergence test (mean latency per sample period, the\n"
"    halves, S), latency from generation to delivery (min, mean, p50, p99,\n"
"    max; p50 and p99 are upper bounds from a log histogram, at most\n"
"    12.5 %% above, never above max: the same figures as hnctl and hntraffic;\n"
"    and by the mode that carried the message, lat_mean_circuit_ns, ...),\n"
"    Ding's utilisation (Ch. 1: bits delivered / (last delivery - first\n"
"    generation) / senders' link rate; also over all N links), what was and\n"
"    was not delivered, and how the run ended.  --json prints one object per\n"
"    point (keys: docs/names.md); --csv a column for each of its members\n"
"    but the sample periods' arrays, named as the member, and one for each\n"
"    swept -s KEY after seed.  Units: as a name ends, _ns, _ppm (millionths\n"
"    of the senders' link capacity), _bytes, _s; size and size_max are\n"
"    bytes, lat_mean_first and lat_mean_second ns; the rest are counts,\n"
"    words or true/false.\n"
"    A figure the point did not measure is null in JSON and empty in CSV,\n"
"    never 0: the latency when no measured message arrived, the accepted\n"
"    load when the run ended in its warm-up (saturated from the start; its\n"
"    offered_ppm is then the warm-up's), both loads of a batch.  load_ppm is\n"
"    the offered load the point was given.\n"
"\n"
"EXIT STATUS\n"
"    0  completed (a sweep: every point)\n"
"    1  bad options\n"
"    2  saturated or not completed (a sweep: a point)\n");
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int opt_err(const char *opt, const char *val, const char *what)
{
	return hn_topt_err("hnsim run", opt, val, what);
}

enum {
	O_NET = HN_TOPT_END, O_PSLOTS, O_WMAX, O_PRETTY, O_CSV, O_PROGRESS,
	O_NO_PROGRESS, O_LINKS, O_DOWN, O_DOWN_RANDOM, O_DOWN_SEED,
	O_DOWN_BEFORE, O_FIELDS, O_SWITCH_SW, O_DOWN_CHANS
};

static const struct option run_lo[] = {
	HN_TOPT_LONGOPTS,
	{ "net", required_argument, NULL, O_NET },
	{ "preload-slots", required_argument, NULL, O_PSLOTS },
	{ "warmup-max", required_argument, NULL, O_WMAX },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, O_PRETTY },
	{ "csv", no_argument, NULL, O_CSV },
	{ "fields", required_argument, NULL, O_FIELDS },
	{ "links", no_argument, NULL, O_LINKS },
	{ "down", required_argument, NULL, O_DOWN },
	{ "down-random", required_argument, NULL, O_DOWN_RANDOM },
	{ "down-random-channels", required_argument, NULL, O_DOWN_CHANS },
	{ "down-seed", required_argument, NULL, O_DOWN_SEED },
	{ "down-before-plan", no_argument, NULL, O_DOWN_BEFORE },
	{ "switch-switching", required_argument, NULL, O_SWITCH_SW },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "no-progress", no_argument, NULL, O_NO_PROGRESS },
	HNSIM_CFG_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
#define RUN_SHORTOPTS	HNSIM_CFG_SHORTOPTS "jh"

/* the options that take a list, slowest first (hnsim run --help, Sweeps) */
static const struct sweep_opt run_sweep[] = {
	{ HN_TOPT_PATTERN, "--pattern", SWEEP_WORD },
	{ O_NET, "--net", SWEEP_WORD },
	{ 's', "-s", SWEEP_KEYED },
	{ O_DOWN_RANDOM, "--down-random", SWEEP_NUMBER },
	{ O_DOWN_CHANS, "--down-random-channels", SWEEP_NUMBER },
	{ HN_TOPT_SEED, "--seed", SWEEP_NUMBER },
	{ HN_TOPT_LOAD, "--load", SWEEP_RATIO },
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

#define DOWN_MAX	1024	/* --down's list, bytes */
#define FIELDS_MAX	1024	/* --fields' list, bytes */

/* one point's command line, parsed */
struct run_opts {
	struct hn_config cfg;
	struct hn_topts o;
	int json, pretty, csv, progress, links;
	char down[DOWN_MAX];		/* names, comma-separated */
	u32 down_random;
	u32 down_chans;			/* --down-random-channels */
	u64 down_seed;
	int down_before;		/* before the plan's preload */
	char fields[FIELDS_MAX];	/* names, comma-separated; or "" */
	char switch_sw[DOWN_MAX];	/* NAME=SWITCHING, comma-separated */
};

/* 0, 1 bad (said on stderr), 2 the help printed */
static int parse_point(int argc, char **argv, struct run_opts *p)
{
	unsigned long long v;
	int c, rv;

	memset(p, 0, sizeof(*p));
	p->progress = -1;
	p->down_seed = 1;
	hn_config_default(&p->cfg);
	hn_topts_init(&p->o, "hnsim run");
	optind = 0;
	while ((c = getopt_long(argc, argv, RUN_SHORTOPTS, run_lo, NULL)) != -1) {
		rv = hn_topts_opt(&p->o, c, optarg);
		if (rv < 0)
			rv = cfg_opt(&p->cfg, NULL, c, optarg, "hnsim run");
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
			p->o.r.net = (u32)rv;
			break;
		case O_PSLOTS:
			if (hn_topt_u32(optarg, &p->o.r.preload_slots))
				return opt_err("--preload-slots", optarg, "want slots");
			break;
		case O_WMAX:
			if (hn_topt_u64(optarg, &v))
				return opt_err("--warmup-max", optarg, "want ns");
			p->o.r.warmup_max_ns = v;
			break;
		case 'j':
			p->json = 1;
			break;
		case O_PRETTY:
			p->pretty = 1;
			break;
		case O_CSV:
			p->csv = 1;
			break;
		case O_LINKS:
			p->links = 1;
			break;
		case O_FIELDS:
			if (strlen(optarg) >= FIELDS_MAX || !*optarg ||
			    optarg[strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789_,")] ||
			    *optarg == ',' || strstr(optarg, ",,") ||
			    optarg[strlen(optarg) - 1] == ',')
				return opt_err("--fields", optarg,
					       "want names of keys or columns, comma-separated");
			strcpy(p->fields, optarg);
			break;
		case O_DOWN:
			if (strlen(optarg) >= DOWN_MAX)
				return opt_err("--down", optarg,
					       "a list of at most 1023 characters");
			strcpy(p->down, optarg);
			break;
		case O_DOWN_RANDOM:
			if (hn_topt_u32(optarg, &p->down_random))
				return opt_err("--down-random", optarg,
					       "want a count of links");
			break;
		case O_DOWN_CHANS:
			if (hn_topt_u32(optarg, &p->down_chans))
				return opt_err("--down-random-channels", optarg,
					       "want a count of channels");
			break;
		case O_DOWN_BEFORE:
			p->down_before = 1;
			break;
		case O_SWITCH_SW:
			if (strlen(optarg) >= DOWN_MAX)
				return opt_err("--switch-switching", optarg,
					       "a list of at most 1023 characters");
			strcpy(p->switch_sw, optarg);
			break;
		case O_DOWN_SEED:
			if (hn_topt_u64(optarg, &v))
				return opt_err("--down-seed", optarg,
					       "want a seed");
			p->down_seed = v;
			break;
		case O_PROGRESS:
		case O_NO_PROGRESS:
			p->progress = c == O_PROGRESS;
			break;
		case 'h':
			run_usage(stdout);
			return 2;
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
	if (p->csv && (p->json || p->pretty)) {
		fprintf(stderr, "hnsim run: --csv, or --json [--pretty]: one of them\n");
		return 1;
	}
	if (*p->fields && !p->csv && !p->json) {
		fprintf(stderr, "hnsim run: --fields: the keys of --json or the columns of --csv, with one of them\n");
		return 1;
	}
	if (p->csv && p->links) {
		fprintf(stderr, "hnsim run: --links: a row per link and switch, which no CSV column holds: a table, or --json\n");
		return 1;
	}
	if (hn_topts_finish(&p->o, p->cfg.nodes))
		return 1;
	/* the words were in the command line, which goes */
	p->o.pattern = p->o.hot = p->o.size = NULL;
	return 0;
}

/*
 * The links, channels and switches --down names, then --down-random's
 * and --down-random-channels', down on @e: 0, or -errno with *@err and
 * in @bad the option refused ("" on success).
 */
static int take_down(const struct run_opts *p, struct hn_engine *e,
		     struct hn_err *err, char *bad, size_t len)
{
	char list[DOWN_MAX], *name, *save = NULL;
	struct hn_fabric_info fi;
	struct hn_fab_name n;
	u32 sw, port, l, j = HN_NONE;
	int rv;

	*bad = 0;
	hn_fabric_info(e, &fi);
	strcpy(list, p->down);
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		snprintf(bad, len, "--down %s", name);
		if ((hn_fab_scan(name, &n) && hn_fab_scan_chan(name, &n, &j)) ||
		    hn_fab_numbers(&fi, &n, &sw, &port))
			return hn_fail(err, -EINVAL,
				       "no such link, channel or switch (names: swL.I, swL.I/upP, swL.I/downP, nodeU, LINK/cJ)",
				       HN_NONE, HN_NONE, HN_NONE);
		l = n.kind == HN_FAB_SWITCH ? HN_NONE : hn_link_at(e, sw, port);
		if (n.kind == HN_FAB_SWITCH)
			rv = hn_set_fault(e, true, sw, true, NULL, err);
		else if (l == HN_NONE)
			rv = hn_fail(err, -EINVAL, "that port has no link",
				     HN_NONE, HN_NONE, HN_NONE);
		else if (j != HN_NONE)
			rv = hn_set_chan_fault(e, l, j, true, err);
		else
			rv = hn_set_fault(e, false, l, true, NULL, err);
		j = HN_NONE;
		if (rv)
			return rv;
	}
	snprintf(bad, len, "--down-random %u", p->down_random);
	if (p->down_random)
		rv = hn_set_fault_random(e, p->down_random, p->down_seed,
					 NULL, err);
	else
		rv = 0;
	if (!rv && p->down_chans) {
		snprintf(bad, len, "--down-random-channels %u", p->down_chans);
		rv = hn_set_chan_fault_random(e, p->down_chans, p->down_seed,
					      err);
	}
	if (!rv)
		*bad = 0;
	return rv;
}

/*
 * The switches' own switching, --switch-switching's NAME=SWITCHING each:
 * 0, or -errno with *@err and in @bad the item refused.
 */
static int switch_switching(const struct run_opts *p, struct hn_engine *e,
			    struct hn_err *err, char *bad, size_t len)
{
	char list[DOWN_MAX], *item, *tech, *save = NULL, why[128];
	struct hn_fabric_info fi = { 0 };
	struct hn_fab_name n;
	struct hn_config x;
	u32 sw, port;
	int rv;

	hn_fabric_info(e, &fi);
	strcpy(list, p->switch_sw);
	for (item = strtok_r(list, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		snprintf(bad, len, "--switch-switching %s", item);
		tech = strchr(item, '=');
		if (tech)
			*tech++ = 0;
		if (!tech || hn_cfg_parse(&x, HN_CFG_switching, tech, why,
					  sizeof(why)) ||
		    x.switching == HN_SWITCH_DROP)
			return hn_fail(err, -EINVAL,
				       "want NAME=SWITCHING, a switch's name and wormhole, vct or saf",
				       HN_NONE, HN_NONE, HN_NONE);
		if (hn_fab_scan(item, &n) || n.kind != HN_FAB_SWITCH ||
		    hn_fab_numbers(&fi, &n, &sw, &port))
			return hn_fail(err, -EINVAL,
				       "no such switch (names: swL.I, as hnctl switches prints them)",
				       HN_NONE, HN_NONE, HN_NONE);
		rv = hn_set_switch_flow(e, sw, x.switching + 1, err);
		if (rv)
			return rv;
	}
	*bad = 0;
	return 0;
}

/* switch_switching() then take_down(), as hn_trun_create_prep()'s hook */
struct down_arg {
	const struct run_opts *p;
	char bad[DOWN_MAX + 16];	/* the option refused, or "" */
};

static int prep(struct hn_engine *e, void *arg, struct hn_err *err)
{
	struct down_arg *a = arg;
	int rv = switch_switching(a->p, e, err, a->bad, sizeof(a->bad));

	return rv ? rv : take_down(a->p, e, err, a->bad, sizeof(a->bad));
}

/*
 * The run of @p, or NULL (said, with @what: the point of a sweep): its
 * links and switches down just after the plan is preloaded, or before
 * it with --down-before-plan.
 */
static struct hn_trun *create(struct run_opts *p, const char *what)
{
	struct down_arg a = { p, "" };
	struct hn_err err = { 0 };
	struct hn_trun *r;
	int rv;

	r = hn_trun_create_prep(&p->cfg, &p->o.t, &p->o.r,
				p->down_before ? prep : NULL, &a, &rv, &err);
	if (r && !p->down_before) {
		rv = prep(hn_trun_engine(r), &a, &err);
		if (rv) {
			hn_trun_destroy(r);
			r = NULL;
		}
	}
	if (!r && !*a.bad && p->down_before &&
	    (*p->down || p->down_random || p->down_chans))
		snprintf(a.bad, sizeof(a.bad),
			 "the plan's preload, around the links down");
	if (!r)
		fprintf(stderr, "hnsim run: %s%s%s%s%s\n", what,
			*what ? ": " : "", a.bad, *a.bad ? ": " : "",
			err.msg ? err.msg : strerror(-rv));
	return r;
}

/*
 * The progress line on stderr: on a terminal rewritten in place four
 * times a second, else a line a second; and at the start of each point.
 */
struct progress {
	int on, tty;
	double last;
};

static void progress(struct progress *g, struct hn_trun *r, u32 i, u32 n,
		     const char *what, int force)
{
	const struct hn_tres *res = hn_trun_result(r);
	double t = wall();

	if (!g->on || (!force && t - g->last < (g->tty ? 0.25 : 1.0)))
		return;
	g->last = t;
	fprintf(stderr, "%shnsim run: ", g->tty ? "\r" : "");
	if (n > 1)
		fprintf(stderr, "point %u of %u, %s: ", i + 1, n, what);
	fprintf(stderr, "%llu ns virtual, %llu generated, %llu delivered%s",
		U(hn_now(hn_trun_engine(r))), U(res->gen_msgs),
		U(res->done_msgs), g->tty ? "\033[K" : "\n");
}

/* Run @r to its end, showing progress: 0, or the driver's error. */
static int drive(struct hn_trun *r, struct progress *g, u32 i, u32 n,
		 const char *what)
{
	int rv;

	progress(g, r, i, n, what, 1);
	while (!(rv = hn_trun_run(r, 1024)) && !hn_trun_result(r)->end)
		progress(g, r, i, n, what, 0);
	return rv;
}

/* the point @i's swept -s keys, those the report has not (nodes, slots) */
static u32 point_set(const struct sweep *s, u32 i, struct run_set *set)
{
	u32 j, n = 0;

	for (j = 0; j < s->ndim; j++)
		if (s->dim[j].opt->kind == SWEEP_KEYED &&
		    strcmp(s->dim[j].key, "nodes") &&
		    strcmp(s->dim[j].key, "slots"))
			set[n++] = (struct run_set){ s->dim[j].key,
						     sweep_value(s, i, j) };
	return n;
}

/* the report of point @i of @s, run by @r */
static struct run_point point(const struct run_opts *p, const struct sweep *s,
			      u32 i, struct hn_trun *r, const char *what,
			      struct run_set *set)
{
	return (struct run_point){
		.t = &p->o.t, .rc = &p->o.r, .e = hn_trun_engine(r),
		.r = hn_trun_result(r), .what = s->ndim ? what : NULL,
		.index = i, .count = s->npoints, .set = set,
		.nset = point_set(s, i, set), .links = p->links,
		.fields = *p->fields ? p->fields : NULL,
	};
}

/*
 * hnsim run --pattern ...; argv[0] is "run".  Every point of a sweep is
 * checked before the first runs; each runs on an engine of its own.
 */
int run_main(int argc, char **argv)
{
	struct run_set set[SWEEP_MAX_DIMS];
	struct progress g = { 0 };
	struct run_point rp;
	struct run_opts *pts, *p;
	const struct hn_tres *res;
	struct hn_trun *r;
	struct sweep s;
	char what[512], **v;
	int rv = 0, fmt, status = 0;
	double t0;
	u32 i;

	if (sweep_parse(&s, argc, argv, run_lo, RUN_SHORTOPTS, run_sweep,
			ARRAY_SIZE(run_sweep)))
		return 1;
	pts = calloc(s.npoints, sizeof(*pts));
	if (!pts) {
		fprintf(stderr, "hnsim run: out of memory\n");
		sweep_free(&s);
		return 1;
	}
	for (i = 0; i < s.npoints && !rv; i++) {
		v = sweep_argv(&s, i);
		rv = parse_point(argc, v, &pts[i]);
		sweep_argv_free(&s, v);
		sweep_describe(&s, i, what, sizeof(what));
		if (!rv) {
			p = &pts[i];
			r = create(p, what);
			rv = r ? 0 : 1;
			/* the names --fields gives, each the point's */
			fmt = p->csv ? RUN_CSV : RUN_JSON;
			if (r && *p->fields) {
				rp = point(p, &s, i, r, what, set);
				rv = run_fields_check(fmt, &rp) ? 1 : 0;
			}
			hn_trun_destroy(r);
		}
	}
	if (rv)
		goto out;
	p = &pts[0];
	fmt = p->csv ? RUN_CSV : p->json ? RUN_JSON : RUN_HUMAN;
	g.tty = isatty(2);
	g.on = p->progress < 0 ? g.tty : p->progress;
	for (i = 0; i < s.npoints && !rv; i++) {
		p = &pts[i];
		sweep_describe(&s, i, what, sizeof(what));
		t0 = wall();
		r = create(p, what);
		if (!r) {
			rv = 1;
			break;
		}
		rv = drive(r, &g, i, s.npoints, what);
		if (g.on && g.tty)
			fprintf(stderr, "\r\033[K");
		if (rv) {
			fprintf(stderr, "hnsim run: %s%sthe run failed: %s\n",
				what, *what ? ": " : "",
				rv == -EHOSTUNREACH ?
				"the preload plan has no circuit for a message" :
				strerror(-rv));
			hn_trun_destroy(r);
			rv = 1;
			break;
		}
		res = hn_trun_result(r);
		rp = point(p, &s, i, r, what, set);
		rp.wall_s = wall() - t0;
		if (fmt == RUN_CSV && !i)
			run_report(stdout, RUN_CSV_HEAD, &rp);
		if (fmt == RUN_HUMAN && i)
			putchar('\n');
		if (fmt == RUN_JSON && p->pretty)
			json_pretty_begin();
		run_report(stdout, fmt, &rp);
		json_pretty_end();
		fflush(stdout);
		if (res->end != HN_END_DONE) {
			status = 2;
			if (fmt == RUN_HUMAN)
				fprintf(stderr, "hnsim run: %s%s%s\n", what,
					*what ? ": " : "", res->why);
		}
		hn_trun_destroy(r);
	}
out:
	free(pts);
	sweep_free(&s);
	return rv == 2 ? 0 : rv ? 1 : status;
}
