// SPDX-License-Identifier: GPL-2.0
/*
 * hnsim - run the hybridnet engine in user space on a message trace.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"
#include "json_pretty.h"

static void usage(FILE *f)
{
	fprintf(f,
"NAME\n"
"    hnsim - the hybridnet engine in user space: traces, synthetic traffic,\n"
"    schedulers, configurations\n"
"\n"
"SYNOPSIS\n"
"    hnsim [run] [OPTION]... [TRACE]\n"
"    hnsim run --pattern NAME ...  synthetic traffic, sweeps ('hnsim run --help')\n"
"    hnsim sched ...               the schedulers alone ('hnsim sched --help')\n"
"    hnsim idem ...                Woods-Corwin's three messages on switching\n"
"                                  drop ('hnsim idem --help')\n"
"    hnsim mrp ...                 Woods-Corwin's MRP route words from one\n"
"                                  node to another ('hnsim mrp --help')\n"
"    hnsim config [OPTION]...      print the configuration the options make\n"
"                                  ('hnsim config --help')\n"
"\n"
"DESCRIPTION\n"
"    Run the hybridnet engine (the same code as hybridnet.ko) in user space\n"
"    on a message trace and print statistics.  TRACE is a file, or - or\n"
"    nothing for standard input.  Time is virtual, in nanoseconds; the same\n"
"    configuration and trace always give the same statistics.\n"
"\n"
"OPTIONS\n"
"  -p, --profile NAME   start from a timing profile: ding4 (default; Ch. 4:\n"
"                       64 nodes, 6.4 Gb/s, 200 ns slots) or ding5 (Ch. 5:\n"
"                       128 nodes, 100 ns = 80 B slots, 240 ns circuit set-up)\n"
"  -t, --topology T     the fabric: crossbar (default); fattree:L,W, the fat\n"
"                       tree of Ch. 7 (L levels of 2W-port switches, W^L\n"
"                       nodes); mesh:KxK.. or torus:KxK.., Duato's k-ary\n"
"                       n-cube (K^n nodes); gh:N,K, Zydallis's generalized\n"
"                       hypercube (K^N nodes).  It sets the nodes (a later\n"
"                       -n must agree); on the last three a circuit takes\n"
"                       the topology's route\n"
"  -n, --nodes N        number of virtual nodes, 2..4096\n"
"  -k, --slots K        predictive slots, 0..64; slot K is the wormhole slot\n"
"  -P, --policy LIST    cycle controller, comma-separated:\n"
"                         fixed    every slot gets time (Fig. 4.4)\n"
"                         ses      skip empty slots (Sec. 4.3)\n"
"                         sla      ses, and the wormhole slot lasts slot_w_ns\n"
"                         preempt  ses, and skip predictive slots while no\n"
"                                  circuit data waits (Sec. 4.5)\n"
"                         slot     with preempt: decide per slot\n"
"                         no-w     no wormhole slot (pure TDM)\n"
"                         dynamic  Dynamic TDM (with ses, no-w): circuits on\n"
"                                  demand, released after idle_timeout_ns\n"
"  -s, --set KEY=VALUE  set one configuration value (repeatable; see KEYS)\n"
"  -c, --config FILE    read KEY=VALUE lines (# comments), or the JSON object\n"
"                       'hnctl -j show' prints; also profile=, policy=;\n"
"                       applied in order with -s and -p\n"
"  -u, --until NS       stop at this virtual time (default: run until every\n"
"                       message is delivered, at most 1000 s virtual)\n"
"  -N, --per-node       add per-node statistics\n"
"  -j, --json           print statistics as one JSON object\n"
"      --pretty         with --json: indented, one member per line (as\n"
"                       hnctl -j -p; -p is --profile here)\n"
"      --progress       a progress line on stderr (default: when it is a\n"
"                       terminal); every mode takes it (run, sched, config)\n"
"      --no-progress    none\n"
"  -h, --help           this text\n"
"\n"
"TRACE FORMAT\n"
"    One event per line, times in ns, not decreasing; '#' starts a comment.\n"
"  TIME SRC DST BYTES            SRC generates a message to DST; DST 'all'\n"
"                                or G/BITS[,G/BITS...]: a multicast to every\n"
"                                other node, or to the nodes 8G+i of each bit\n"
"                                i of BITS (a number, or cC: code C, 0..7)\n"
"  TIME preload SLOT [S:D ...]   install B^(SLOT) whole (no pairs: clear it);\n"
"                                every slot must be a partial permutation\n"
"  TIME predict S:D [S:D ...]    predicted requests: first fit over slots\n"
"                                0..K-1, usable after wire+sched+wire+setup\n"
"  TIME release S:D | slot SLOT | all\n"
"  TIME second-level SLOT [S:D ...]  store slot SLOT of the second-level\n"
"                                working set (Sec. 5.2.3), not used until a\n"
"                                swap; with -s predict_algo=2 a predicted\n"
"                                request in it swaps it in\n"
"  TIME swap                     exchange the working set and the second\n"
"                                level (the compiler's 'the conditional is\n"
"                                true')\n"
"    A message the sender's NIC cannot take (buffer full) waits, in order,\n"
"    and is offered again the moment its NIC finds room; its latency counts\n"
"    from TIME.  A message to a destination in the sender's circuit table\n"
"    goes by circuit, any other by wormhole.  Example:\n"
"  0 preload 0 0:1 1:2 2:3 3:0\n"
"  0 0 1 128\n"
"  100 2 0 4096\n"
"\n"
"KEYS (-s, -c)\n");
	cfg_print_keys(f);
	fprintf(f,
"\n"
"OUTPUT\n"
"    Messages and bytes by mode (circuit/wormhole), latency (min, mean,\n"
"    p50/p99 upper bounds from a log histogram, max; also by the mode that\n"
"    carried the message, lat_mean_circuit_ns, ...), bandwidth utilisation\n"
"    as Ding defines it (Ch. 1: bits delivered / time taken / (N x link\n"
"    rate)), and per slot: runs, time, utilisation, skipped and preempted\n"
"    counts.\n"
"\n"
"EXIT STATUS\n"
"    0  every message was delivered\n"
"    1  bad input or options\n"
"    2  the run stopped with traffic still in flight\n");
}

/*
 * "hnsim config [OPTION]...": the configuration the options make, as
 * module parameters (KEY=VALUE lines, which -c reads back and insmod
 * takes joined by spaces), or with -j as hnctl show -j prints it.
 */
static int config_main(int argc, char **argv)
{
	static const struct option lo[] = {
		HNSIM_CFG_LONGOPTS,
		{ "json", no_argument, NULL, 'j' },
		{ "progress", no_argument, NULL, 1 },
		{ "no-progress", no_argument, NULL, 1 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hn_err err = { 0 };
	struct hn_config cfg;
	int c, rc, json = 0;
	u32 preload = 0;

	hn_config_default(&cfg);
	while ((c = getopt_long(argc, argv, HNSIM_CFG_SHORTOPTS "jh", lo,
				NULL)) != -1) {
		rc = cfg_opt(&cfg, &preload, c, optarg, "hnsim config");
		if (rc > 0)
			return 1;
		if (!rc)
			continue;
		if (c == 'j') {
			json = 1;
		} else if (c == 1) {
			/* --progress, --no-progress: nothing to show */
		} else if (c == 'h') {
			printf(
"NAME\n"
"    hnsim config - print the configuration that options make\n"
"\n"
"SYNOPSIS\n"
"    hnsim config [-p NAME] [-t TOPOLOGY] [-n N] [-k K] [-P LIST]\n"
"                 [-s KEY=VALUE]... [-c FILE] [-j] [--progress|--no-progress]\n"
"\n"
"DESCRIPTION\n"
"    Print the configuration these options make (the options and KEYS of\n"
"    'hnsim --help'): as module parameters, one KEY=VALUE a line, which -c\n"
"    reads back and insmod takes joined by spaces; with -j, --json as one\n"
"    JSON object equal to what 'hnctl -j show KEY...' prints of a module so\n"
"    loaded.  FILE may be the output of 'hnctl -j show'.  --progress and\n"
"    --no-progress are taken, as by every mode, and show nothing here.\n"
"\n"
"EXIT STATUS\n"
"    0  printed\n"
"    1  bad options or configuration\n");
			return 0;
		} else {
			fprintf(stderr, "Try 'hnsim config --help'.\n");
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hnsim config: '%s': no arguments; try 'hnsim config --help'\n",
			argv[optind]);
		return 1;
	}
	if (hn_config_check(&cfg, &err)) {
		fprintf(stderr, "hnsim config: bad configuration: %s\n", err.msg);
		return 1;
	}
	if (json)
		cfg_print_json(stdout, &cfg);
	else
		cfg_print(stdout, &cfg, preload);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		HNSIM_CFG_LONGOPTS,
		{ "until", required_argument, NULL, 'u' },
		{ "per-node", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 3 },
		{ "progress", no_argument, NULL, 1 },
		{ "no-progress", no_argument, NULL, 2 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sim_opts o = { .progress = -1 };
	struct sim_result res = { 0 };
	struct hn_engine *e = NULL;
	char why[160], *end;
	struct hn_err err = { 0 };
	int c, rc = 0, pretty = 0;

	if (argc > 1 && !strcmp(argv[1], "config"))
		return config_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "sched"))
		return sched_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "idem"))
		return idem_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "mrp"))
		return mrp_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "run")) {
		if (run_wanted(argc - 1, argv + 1))
			return run_main(argc - 1, argv + 1);
		argv[1] = argv[0];	/* "hnsim run TRACE": the trace mode */
		argc--;
		argv++;
	}
	hn_config_default(&o.cfg);
	while ((c = getopt_long(argc, argv, HNSIM_CFG_SHORTOPTS "u:Njh", lo,
				NULL)) != -1) {
		rc = cfg_opt(&o.cfg, &o.preload, c, optarg, "hnsim");
		if (rc > 0)
			return 1;
		if (!rc)
			continue;
		rc = 0;
		switch (c) {
		case 'u':
			o.until = strtoull(optarg, &end, 10);
			if (*end || !*optarg) {
				snprintf(why, sizeof(why),
					 "--until wants ns, not '%s'", optarg);
				rc = -1;
			}
			break;
		case 'N':
			o.per_node = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 3:
			pretty = 1;
			break;
		case 1:
		case 2:
			o.progress = c == 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'hnsim --help'.\n");
			return 1;
		}
		if (rc) {
			fprintf(stderr, "hnsim: %s\n", why);
			return 1;
		}
	}
	if (optind < argc - 1) {
		fprintf(stderr, "hnsim: one trace at most; try 'hnsim --help'\n");
		return 1;
	}
	o.trace = optind < argc ? argv[optind] : "-";
	if (hn_config_check(&o.cfg, &err)) {
		fprintf(stderr, "hnsim: bad configuration: %s\n", err.msg);
		return 1;
	}
	rc = trace_run(&o, &e, &res);
	if (e && !rc && o.json && pretty)
		json_pretty_begin();
	if (e && !rc)
		report(stdout, &o, e, &res);
	json_pretty_end();
	hn_destroy(e);
	if (rc)
		return 1;
	return res.drained ? 0 : 2;
}
