// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_traffic.c - "hnctl traffic start|stop|status": the module's
 * in-kernel traffic generator (kmod/generator.c), with the option words of
 * "hnsim run --pattern" so that an experiment runs in user space or in the
 * kernel with the same command line.  Values are checked here as hnsim
 * run checks them; what depends on the fabric (pattern names, sizes
 * against max-msg-bytes, the scatter root) the kernel checks, and its reason is
 * printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hnctl.h"
#include "json.h"
#include "parse.h"		/* hn_parse_ppm(), as hnsim reads ratios */
#include "hn_traffic.h"		/* hn_phases_parse(): the engine's names */

const char hnctl_help_traffic[] =
"NAME\n"
"    hnctl traffic - the module's in-kernel traffic generator\n"
"\n"
"SYNOPSIS\n"
"    hnctl traffic start --pattern NAME (--load L | --batch M) [--size SPEC]\n"
"                        [--pred F] [--phases P] [--root R] [--seed S]\n"
"                        [--warmup T] [--measure T] [--drain T] [--limit T]\n"
"                        [--wait [--timeout SECONDS]] [-j] [-n]\n"
"    hnctl traffic stop\n"
"    hnctl traffic [status] [-j]\n"
"\n"
"DESCRIPTION\n"
"    Like pktgen: the module generates a traffic pattern on its own\n"
"    virtual nodes, in virtual time, with the core's run driver (the code\n"
"    of \"hnsim run\"), beside any traffic of /dev/hybridnet.  Its messages\n"
"    never reach a reader.  One run at a time; start, stop and a run's end\n"
"    are \"traffic\" events (hnctl monitor).  docs/generator.md has the\n"
"    details.\n"
"\n"
"    start takes the words of hnsim run, with the same meaning, and the\n"
"    same seed gives the same messages: on an idle fabric, the same\n"
"    result as hnsim run with the module's configuration.\n"
"      --pattern NAME  uniform transpose bitcomp bitrev shuffle tornado\n"
"                      neighbor randperm hotspot scatter all-to-all\n"
"                      random-to-all ordered-mesh random-mesh two-phase\n"
"                      mixed phased localized (a fat tree only)\n"
"      --load L        Bernoulli injection: offered load per sender, a\n"
"                      fraction of the link rate, 0 < L <= 1 (or NN%)\n"
"      --batch M       M messages per sender, run to completion\n"
"      --size SPEC     B (fixed, default 128), A-B (uniform),\n"
"                      bimodal:S,L,F (L bytes with probability F), 80/80\n"
"      --pred F        mixed, phased: predictable ratio, 0..1 (0.5)\n"
"      --phases P      phased: global (the machine's phases; the default),\n"
"                      global-hint (and the random phase hinted wormhole)\n"
"                      or per-node\n"
"      --root R        scatter: the sending node (0)\n"
"      --seed S        (1)\n"
"      --warmup T --measure T --drain T   Bernoulli: the method (20us,\n"
"                      100us, 200us); T in ns, or with us, ms, s.  The\n"
"                      warm-up lasts at least T and half the window, and\n"
"                      goes on while the latency still rises (hnsim run\n"
"                      --help, docs/model.md)\n"
"      --limit T       batch: give up after T of virtual time (10s)\n"
"    Every other parameter is hnsim run's default (hot set {0} at 0.1,\n"
"    four mesh directions, injection cycle 10 ns, no generation rate\n"
"    limit, max-queue 1000, sat-tol 0.05) and the network is the fabric\n"
"    as configured.  --wait waits for the end and prints the status.\n"
"\n"
"    stop stops a run (its messages in the fabric are delivered; none is\n"
"    generated any more).  status prints the state, the run's\n"
"    configuration and its results: messages generated, injected,\n"
"    delivered, in flight; once a Bernoulli run has ended (or was\n"
"    stopped), the window as measured (cut short if the run ended inside\n"
"    it), the warm-up it took, offered and accepted load (fraction of the\n"
"    senders' link capacity over the measured window) and the convergence\n"
"    test (the mean latency of the window's two halves; the trend S over\n"
"    its 10 sample periods, rising from lat-trend-min on, which means\n"
"    saturated); latency from generation to delivery (batch: every\n"
"    message; Bernoulli: those generated in the window; p50 and p99 are\n"
"    upper bounds, never above max, as hnctl stats, hnsim and hntraffic\n"
"    give them); Ding's utilisation (Ch. 1); how it ended.  The states:\n"
"    idle (no run yet), running, done, saturated, limit (batch not done\n"
"    by --limit), stopped, deadlock (the fabric deadlocked: a torus with\n"
"    one virtual channel can; nothing moves any more).\n"
"\n"
"EXIT STATUS\n"
"    0 done; 1 bad usage; 2 the kernel refused (its reason is printed);\n"
"    3 with --wait: the run did not complete (saturated, limit, stopped,\n"
"    deadlock)\n"
"    or --timeout passed first.\n"
"\n"
"EXAMPLES\n"
"    hnctl traffic start --pattern uniform --batch 100 --seed 7 --wait\n"
"    hnctl traffic start --pattern mixed --pred 0.8 --load 0.3 --size 80/80\n"
"    hnctl traffic status\n"
"    hnctl traffic stop\n"
"    hnctl -j traffic\n";

#define CMD	"traffic"
#define BIT(a)	HN_CTL_TBIT(HYBRIDNET_ATTR_##a)

/* --size: B, A-B, bimodal:S,L,F or 80/80 (hnsim run's forms) */
static int parse_size(const char *s, struct hn_ctl_traffic *t)
{
	char buf[64], *a, *b;
	long long f;
	uint64_t x, y;

	if (!strcmp(s, "80/80")) {
		strcpy(t->size_dist, "8080");
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	if (!strncmp(buf, "bimodal:", 8)) {
		a = strchr(buf + 8, ',');
		b = a ? strchr(a + 1, ',') : NULL;
		if (!b)
			return -1;
		*a++ = '\0';
		*b++ = '\0';
		f = hn_parse_ppm(b);
		if (hnctl_num(buf + 8, UINT32_MAX, &x) ||
		    hnctl_num(a, UINT32_MAX, &y) || f < 0 || f > 1000000)
			return -1;
		snprintf(t->size_dist, sizeof(t->size_dist), "bimodal:%lld", f);
	} else if ((a = strchr(buf, '-'))) {
		*a++ = '\0';
		if (hnctl_num(buf, UINT32_MAX, &x) ||
		    hnctl_num(a, UINT32_MAX, &y))
			return -1;
		strcpy(t->size_dist, "uniform");
	} else {
		if (hnctl_num(buf, UINT32_MAX, &x))
			return -1;
		t->size = (uint32_t)x;
		t->mask |= BIT(SIZE);
		return 0;
	}
	t->size = (uint32_t)x;
	t->size_max = (uint32_t)y;
	t->mask |= BIT(SIZE) | BIT(SIZE_MAX);
	return 0;
}

/* hnsim run options the kernel's generator does not take */
static const char *const hnsim_only[] = {
	"--hot", "--hot-frac", "--dirs", "--phase-len", "--rmesh", "--grid",
	"--gen-rate", "--cycle", "--max-queue", "--sat-tol", "--net",
	"--preload-slots", NULL,
};

struct start_opts {
	struct hn_ctl_traffic t;
	int wait;
	uint64_t timeout_s;		/* 0: none */
};

/* One "--opt value" or "--opt=value"; returns 0, or EXIT_USAGE. */
/* --phases VAL is none of the engine's names: say which they are */
static int phases_usage(const char *val)
{
	char names[64] = "";
	size_t len = 0;
	u32 p;

	for (p = 0; hn_phases_name(p) && len < sizeof(names); p++)
		len += snprintf(names + len, sizeof(names) - len, "%s%s",
				p ? " " : "", hn_phases_name(p));
	return hnctl_usage(CMD, "--phases '%s': want one of %s", val, names);
}

static int start_opt(struct start_opts *s, const char *opt, const char *val)
{
	struct hn_ctl_traffic *t = &s->t;
	long long ppm;
	uint64_t v;
	int i;

	for (i = 0; hnsim_only[i]; i++)
		if (!strcmp(opt, hnsim_only[i]))
			return hnctl_usage(CMD, "%s: not in the kernel's generator, which takes hnsim run's default (use hnsim run or hntraffic)",
					   opt);
	if (!val)
		return hnctl_usage(CMD, "%s needs a value", opt);
	if (!strcmp(opt, "--pattern")) {
		if (strlen(val) >= sizeof(t->pattern) || !*val)
			return hnctl_usage(CMD, "--pattern '%s': not a pattern name",
					   val);
		strcpy(t->pattern, val);
	} else if (!strcmp(opt, "--load")) {
		ppm = hn_parse_ppm(val);
		if (ppm < 0)
			return hnctl_usage(CMD, "--load '%s': not a load: want a fraction of the link rate, 0 < L <= 1",
					   val);
		if (ppm == 0 || ppm > 1000000)
			return hnctl_usage(CMD, "--load '%s': out of range: the offered load must be above 0 and at most 1 (the link rate)",
					   val);
		t->load_ppm = (uint32_t)ppm;
		t->mask |= BIT(LOAD_PPM);
	} else if (!strcmp(opt, "--batch")) {
		if (hnctl_num(val, UINT32_MAX, &v) || !v)
			return hnctl_usage(CMD, "--batch '%s': want messages per sender, >= 1",
					   val);
		t->batch = (uint32_t)v;
		t->mask |= BIT(BATCH);
	} else if (!strcmp(opt, "--size")) {
		if (parse_size(val, t))
			return hnctl_usage(CMD, "--size '%s': want B, A-B, bimodal:S,L,F or 80/80",
					   val);
	} else if (!strcmp(opt, "--pred")) {
		ppm = hn_parse_ppm(val);
		if (ppm < 0 || ppm > 1000000)
			return hnctl_usage(CMD, "--pred '%s': want a ratio 0..1",
					   val);
		t->pred_ppm = (uint32_t)ppm;
		t->mask |= BIT(PRED_PPM);
	} else if (!strcmp(opt, "--phases")) {
		if (hn_phases_parse(val) < 0)
			return phases_usage(val);
		strcpy(t->phases, val);
	} else if (!strcmp(opt, "--root")) {
		if (hnctl_num(val, UINT32_MAX, &v))
			return hnctl_usage(CMD, "--root '%s': not a node number",
					   val);
		t->root = (uint32_t)v;
		t->mask |= BIT(ROOT);
	} else if (!strcmp(opt, "--seed")) {
		if (hnctl_num(val, UINT64_MAX, &t->seed))
			return hnctl_usage(CMD, "--seed '%s': want a number", val);
		t->mask |= BIT(SEED);
	} else if (!strcmp(opt, "--warmup") || !strcmp(opt, "--measure") ||
		   !strcmp(opt, "--drain") || !strcmp(opt, "--limit")) {
		if (hnctl_num_unit(val, HNCTL_UNIT_TIME, UINT64_MAX, &v))
			return hnctl_usage(CMD, "%s '%s': want a time (ns, or with us, ms, s)",
					   opt, val);
		if (opt[2] == 'w') {
			t->warmup_ns = v;
			t->mask |= BIT(WARMUP_NS);
		} else if (opt[2] == 'm') {
			t->measure_ns = v;
			t->mask |= BIT(MEASURE_NS);
		} else if (opt[2] == 'd') {
			t->drain_ns = v;
			t->mask |= BIT(DRAIN_NS);
		} else {
			t->limit_ns = v;
			t->mask |= BIT(LIMIT_NS);
		}
	} else if (!strcmp(opt, "--timeout")) {
		if (hnctl_num(val, 1000000, &s->timeout_s) || !s->timeout_s)
			return hnctl_usage(CMD, "--timeout '%s': want seconds, >= 1",
					   val);
	} else {
		return hnctl_usage(CMD, "unknown option '%s'", opt);
	}
	return 0;
}

static const struct {
	uint16_t attr;
	uint8_t wide;
	const char *name;
} cfg_keys[] = {
	{ HYBRIDNET_ATTR_LOAD_PPM, 0, "load-ppm" },
	{ HYBRIDNET_ATTR_BATCH, 0, "batch" },
	{ HYBRIDNET_ATTR_SIZE, 0, "size" },
	{ HYBRIDNET_ATTR_SIZE_MAX, 0, "size-max" },
	{ HYBRIDNET_ATTR_PRED_PPM, 0, "pred-ppm" },
	{ HYBRIDNET_ATTR_ROOT, 0, "root" },
	{ HYBRIDNET_ATTR_SEED, 1, "seed" },
	{ HYBRIDNET_ATTR_WARMUP_NS, 1, "warmup-ns" },
	{ HYBRIDNET_ATTR_MEASURE_NS, 1, "measure-ns" },
	{ HYBRIDNET_ATTR_DRAIN_NS, 1, "drain-ns" },
	{ HYBRIDNET_ATTR_LIMIT_NS, 1, "limit-ns" },
};

static uint64_t cfg_val(const struct hn_ctl_traffic *t, unsigned int i)
{
	switch (cfg_keys[i].attr) {
	case HYBRIDNET_ATTR_LOAD_PPM: return t->load_ppm;
	case HYBRIDNET_ATTR_BATCH: return t->batch;
	case HYBRIDNET_ATTR_SIZE: return t->size;
	case HYBRIDNET_ATTR_SIZE_MAX: return t->size_max;
	case HYBRIDNET_ATTR_PRED_PPM: return t->pred_ppm;
	case HYBRIDNET_ATTR_ROOT: return t->root;
	case HYBRIDNET_ATTR_SEED: return t->seed;
	case HYBRIDNET_ATTR_WARMUP_NS: return t->warmup_ns;
	case HYBRIDNET_ATTR_MEASURE_NS: return t->measure_ns;
	case HYBRIDNET_ATTR_DRAIN_NS: return t->drain_ns;
	default: return t->limit_ns;
	}
}

/* The configuration as "KEY VALUE" words (or JSON members). */
static void cfg_words(const struct hn_ctl_traffic *t, int json)
{
	unsigned int i;

	if (t->pattern[0]) {
		if (json)
			j_str("pattern", t->pattern);
		else
			printf(" pattern %s", t->pattern);
	}
	for (i = 0; i < sizeof(cfg_keys) / sizeof(cfg_keys[0]); i++) {
		if (!(t->mask & HN_CTL_TBIT(cfg_keys[i].attr)))
			continue;
		if (json)
			j_u64(cfg_keys[i].name, cfg_val(t, i));
		else
			printf(" %s %" PRIu64, cfg_keys[i].name, cfg_val(t, i));
	}
	if (t->size_dist[0]) {
		if (json)
			j_str("size-dist", t->size_dist);
		else
			printf(" size-dist %s", t->size_dist);
	}
	if (t->phases[0]) {
		if (json)
			j_str("phases", t->phases);
		else
			printf(" phases %s", t->phases);
	}
}

static uint64_t st(const struct hn_ctl_traffic *t, unsigned int i)
{
	return hn_ctl_stat_has(&t->stats, i) ? t->stats.v[i] : 0;
}

static int has_stats(const struct hn_ctl_stats *s)
{
	unsigned int i;

	for (i = 0; i < HN_CTL_STAT_WORDS; i++)
		if (s->mask[i])
			return 1;
	return 0;
}

static const char *state_name(uint32_t state, char *buf, size_t len)
{
	const char *n = hn_ctl_traffic_name(state);

	if (n)
		return n;
	snprintf(buf, len, "state-%u", state);
	return buf;
}

static void status_json(const struct hn_ctl_traffic *t)
{
	unsigned int i;
	char buf[16];

	j_obj(NULL);
	j_str("state", state_name(t->state, buf, sizeof(buf)));
	if (t->why[0])
		j_str("why", t->why);
	j_u64("now", t->now);
	cfg_words(t, 1);
	if (has_stats(&t->stats)) {
		j_obj("stats");
		for (i = 0; i <= HYBRIDNET_STAT_MAX; i++) {
			const char *n = hn_ctl_stat_name(i);

			if (!hn_ctl_stat_has(&t->stats, i))
				continue;
			if (!n) {
				snprintf(buf, sizeof(buf), "stat-%u", i);
				n = buf;
			}
			j_u64(n, t->stats.v[i]);
		}
		j_obj_end();
	}
	j_obj_end();
	j_end();
}

/* A Bernoulli run that ended: its window, load and convergence test. */
static void convergence(const struct hn_ctl_traffic *t)
{
	uint64_t m = st(t, HYBRIDNET_STAT_MEASURED_NS);
	uint64_t a = st(t, HYBRIDNET_STAT_LAT_MEAN_FIRST_NS);
	uint64_t b = st(t, HYBRIDNET_STAT_LAT_MEAN_SECOND_NS);
	int64_t s = (int64_t)st(t, HYBRIDNET_STAT_LAT_TREND_UP) -
		    (int64_t)st(t, HYBRIDNET_STAT_LAT_TREND_DOWN);
	uint64_t min = st(t, HYBRIDNET_STAT_LAT_TREND_MIN);

	if (!m) {
		printf("window       none: the run ended in the warm-up, after %" PRIu64 " ns, offered %.4f over it\n",
		       st(t, HYBRIDNET_STAT_WARMUP_TAKEN_NS),
		       st(t, HYBRIDNET_STAT_OFFERED_PPM) / 1e6);
		return;
	}
	printf("window       %" PRIu64 " ns measured, after a warm-up of %" PRIu64 " ns\n",
	       m, st(t, HYBRIDNET_STAT_WARMUP_TAKEN_NS));
	printf("throughput   offered %.4f, accepted %.4f of the senders' link capacity (window)\n",
	       st(t, HYBRIDNET_STAT_OFFERED_PPM) / 1e6,
	       st(t, HYBRIDNET_STAT_ACCEPTED_PPM) / 1e6);
	printf("convergence  mean latency of the window's halves %" PRIu64 ", %" PRIu64
	       " ns, trend S = %" PRId64, a, b, s);
	if (t->state == HYBRIDNET_TRAFFIC_STOPPED)
		printf(" (stopped: not judged)\n");
	else if (min)
		printf(" (a rise from %" PRIu64 "): %s\n", min,
		       s >= (int64_t)min ? "rising, not converged" :
		       "converged");
	else
		printf(": too few periods to test\n");
}

static void status_text(const struct hn_ctl_traffic *t)
{
	int batch = !!(t->mask & BIT(BATCH));
	uint64_t n = st(t, HYBRIDNET_STAT_DONE_MSGS);
	char buf[16];

	printf("state        %s", state_name(t->state, buf, sizeof(buf)));
	if (t->state == HYBRIDNET_TRAFFIC_IDLE) {
		printf(" (no run since the module was loaded)\n");
		return;
	}
	if (t->why[0])
		printf(" (%s)", t->why);
	printf("\nrun         ");
	cfg_words(t, 0);
	printf("\ntime         %" PRIu64 " ns virtual (now %" PRIu64 ")\n",
	       st(t, HYBRIDNET_STAT_TIME_NS), t->now);
	printf("messages     generated %" PRIu64 ", injected %" PRIu64
	       ", delivered %" PRIu64 " (%" PRIu64 " B), in flight %" PRIu64
	       ", source queue max %" PRIu64 "\n",
	       st(t, HYBRIDNET_STAT_GEN_MSGS), st(t, HYBRIDNET_STAT_INJ_MSGS),
	       n, st(t, HYBRIDNET_STAT_DONE_BYTES),
	       st(t, HYBRIDNET_STAT_IN_FLIGHT_MSGS),
	       st(t, HYBRIDNET_STAT_QUEUE_MAX));
	if (st(t, HYBRIDNET_STAT_UNREACH_MSGS))
		printf("refused      %" PRIu64 ": no live route to their destination (hnctl links)\n",
		       st(t, HYBRIDNET_STAT_UNREACH_MSGS));
	printf("memory       %" PRIu64 " B at most (its messages and the fabric's part for them)\n",
	       st(t, HYBRIDNET_STAT_MEM_MAX));
	if (!batch && t->state != HYBRIDNET_TRAFFIC_RUNNING)
		convergence(t);
	if (st(t, HYBRIDNET_STAT_LAT_MAX_NS))
		printf("latency      min %" PRIu64 ", mean %" PRIu64
		       ", p50 <= %" PRIu64 ", p99 <= %" PRIu64 ", max %" PRIu64
		       " ns (generation to delivery; p50, p99: upper bounds)\n",
		       st(t, HYBRIDNET_STAT_LAT_MIN_NS),
		       st(t, HYBRIDNET_STAT_LAT_MEAN_NS),
		       st(t, HYBRIDNET_STAT_LAT_P50_NS),
		       st(t, HYBRIDNET_STAT_LAT_P99_NS),
		       st(t, HYBRIDNET_STAT_LAT_MAX_NS));
	if (t->state != HYBRIDNET_TRAFFIC_RUNNING &&
	    t->state != HYBRIDNET_TRAFFIC_STOPPED)
		printf("utilisation  %.2f %% of the senders' links (Ch. 1)\n",
		       st(t, HYBRIDNET_STAT_UTIL_PPM) / 1e4);
}

static int status(struct hnctl *o)
{
	struct hn_ctl_traffic t;
	int rc = hn_ctl_traffic_get(o->ctl, &t);

	if (rc)
		return hnctl_refused(o, "traffic status", rc);
	if (o->json)
		status_json(&t);
	else
		status_text(&t);
	return 0;
}

/* --wait: poll until the run ends (or the time-out); then the status. */
static int wait_end(struct hnctl *o, uint64_t timeout_s)
{
	struct timespec ts = { 0, 10000000 }, t0, now;
	struct hn_ctl_traffic t;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		rc = hn_ctl_traffic_get(o->ctl, &t);
		if (rc)
			return hnctl_refused(o, "traffic status", rc);
		if (t.state != HYBRIDNET_TRAFFIC_RUNNING)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (timeout_s && (uint64_t)(now.tv_sec - t0.tv_sec) >= timeout_s) {
			fprintf(stderr, "hnctl: traffic still running after %" PRIu64
				" s (hnctl traffic stop stops it)\n", timeout_s);
			return EXIT_TIMEOUT;
		}
		nanosleep(&ts, NULL);
	}
	if (o->json)
		status_json(&t);
	else
		status_text(&t);
	return t.state == HYBRIDNET_TRAFFIC_DONE ? 0 : EXIT_TIMEOUT;
}

static int start(struct hnctl *o, int argc, char **argv)
{
	struct start_opts s;
	const char *val;
	char opt[32];
	int i, rc;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!strcmp(argv[i], "--wait")) {
			s.wait = 1;
			continue;
		}
		if (strncmp(argv[i], "--", 2))
			return hnctl_usage(CMD, "start: '%s': expected an option",
					   argv[i]);
		if (eq && (size_t)(eq - argv[i]) < sizeof(opt)) {
			memcpy(opt, argv[i], eq - argv[i]);
			opt[eq - argv[i]] = '\0';
			val = eq + 1;
		} else {
			snprintf(opt, sizeof(opt), "%s", argv[i]);
			val = i + 1 < argc ? argv[++i] : NULL;
		}
		rc = start_opt(&s, opt, val);
		if (rc)
			return rc;
	}
	if (!s.t.pattern[0])
		return hnctl_usage(CMD, "start: --pattern NAME is required");
	if (!(s.t.mask & BIT(LOAD_PPM)) == !(s.t.mask & BIT(BATCH)))
		return hnctl_usage(CMD, "start: give exactly one of --load L (Bernoulli) and --batch M");
	if (s.timeout_s && !s.wait)
		return hnctl_usage(CMD, "start: --timeout goes with --wait");
	if (o->dry_run) {
		if (o->json) {
			j_obj(NULL);
			j_str("request", "traffic-start");
			cfg_words(&s.t, 1);
			j_obj_end();
			j_end();
		} else {
			printf("traffic-start");
			cfg_words(&s.t, 0);
			putchar('\n');
		}
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_traffic_start(o->ctl, &s.t);
	if (rc)
		return hnctl_refused(o, "traffic start", rc);
	return s.wait ? wait_end(o, s.timeout_s) : 0;
}

int cmd_traffic(struct hnctl *o, int argc, char **argv)
{
	const char *what = "status";
	int rc;

	if (argc && argv[0][0] != '-') {
		what = argv[0];
		argc--;
		argv++;
	}
	if (!strcmp(what, "start"))
		return start(o, argc, argv);
	if (strcmp(what, "stop") && strcmp(what, "status"))
		return hnctl_usage(CMD, "'%s': expected start, stop or status",
				   what);
	if (argc)
		return hnctl_usage(CMD, "%s: unexpected '%s'", what, argv[0]);
	if (o->dry_run) {
		if (o->json) {
			j_obj(NULL);
			j_str("request", !strcmp(what, "stop") ?
			      "traffic-stop" : "traffic-get");
			j_obj_end();
			j_end();
		} else {
			puts(!strcmp(what, "stop") ? "traffic-stop" :
			     "traffic-get");
		}
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	if (!strcmp(what, "stop")) {
		rc = hn_ctl_traffic_stop(o->ctl);
		return rc ? hnctl_refused(o, "traffic stop", rc) : 0;
	}
	return status(o);
}
