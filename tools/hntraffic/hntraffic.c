// SPDX-License-Identifier: GPL-2.0
/*
 * hntraffic.c - synthetic traffic through /dev/hybridnet: the patterns of
 * "hnsim run --pattern" (the core's generator, the same options through
 * tools/hnsim/topts.c), one thread per node, every message verified.
 * Options, the device, the main loop (end of run, progress) and the exit
 * status; node.c has the threads, report.c the output.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "hntraffic.h"
#include "topts.h"
#include "json_pretty.h"

#define LOAD(p)		__atomic_load_n(p, __ATOMIC_RELAXED)
#define ACQUIRE(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define U(x)		((unsigned long long)(x))

#define SYSFS_FABRIC	"/sys/class/hybridnet/fabric"
#define TICK_NS		20000000ULL	/* the main loop's period */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted++;
}

static void usage(FILE *f)
{
	fprintf(f,
"NAME\n"
"    hntraffic - drive a synthetic traffic pattern through /dev/hybridnet\n"
"\n"
"SYNOPSIS\n"
"    hntraffic --pattern NAME [PATTERN OPTIONS] (--load L | --batch M)\n"
"              [--size SPEC] [--seed S] [METHOD] [--nodes LIST]\n"
"              [--time-scale X] [--timeout S] [--progress]\n"
"              [--json [--pretty]]\n"
"\n"
"DESCRIPTION\n"
"    hntraffic binds one file of /dev/hybridnet to every node of the run and\n"
"    gives each node a thread that generates the node's messages, writes\n"
"    them to the device and reads and verifies what arrives for the node.\n"
"    The messages are those of 'hnsim run --pattern' with the same options\n"
"    and seed, node for node and in order (the core's generator,\n"
"    kmod/core/pattern.c), on the M nodes of the run: with --nodes, the\n"
"    run's logical node i is the i-th device node of the list, so\n"
"    '--nodes 0-15' sends what 'hnsim run -n 16' simulates.  --root and\n"
"    --hot name device nodes (of the run); --grid lays the run's nodes out\n"
"    in the order of the list.\n"
"\n"
"    The device's network (N, K, policy, timing, preloaded circuits) is the\n"
"    module's: set it with module parameters or 'hnctl set'; hnsim's\n"
"    --net, --preload-slots, -p, -n, -k, -P, -s and -c do not apply.  A run\n"
"    is one point: a list or range of values (hnsim run's sweeps) is\n"
"    refused.\n"
"\n"
"PATTERNS, SIZES, INJECTION (the words of 'hnsim run --pattern')\n");
	hn_topts_usage_patterns(f);
	fprintf(f,
"    Every message must hold the 24-byte check stamp: sizes start at 24.\n"
"Injection:\n"
"  --load L          Bernoulli: offered load per sender, fraction of the\n"
"                    link rate (link_mbps), 0 < L <= 1 (also NN%%); one trial\n"
"                    per --cycle NS (10) of pattern time\n"
"  --batch M         M messages per sender; a sender whose NIC is full\n"
"                    waits (poll) and keeps reading meanwhile\n"
"  --gen-rate MBPS   batch: the PE takes len x 8 / MBPS pattern ns to make\n"
"                    each message, after the last was accepted (0: none)\n"
"  --msg-switching S every message written with its own switching,\n"
"                    wormhole, vct or saf (HYBRIDNET_MSG_SWITCHING)\n"
"\n"
"TIME AND METHOD\n"
"    The patterns' times are in pattern ns, as in hnsim; a real device runs\n"
"    in wall time, so hntraffic maps pattern time t to wall time\n"
"    start + t x X:\n"
"  --time-scale X    wall ns per pattern ns.  Default: 10^6 / pace_ppm on a\n"
"                    paced clock (pattern time is then the device's virtual\n"
"                    time, and L is a fraction of the emulated link), 1000 on\n"
"                    a free clock (whose virtual time stands still while the\n"
"                    fabric is idle: L then sets the rate of messages, L x\n"
"                    link_mbps / 8 / X / mean size per ns of wall time)\n"
"Method (Bernoulli, as in hnsim; every length in pattern ns):\n"
"  --warmup NS       sent and verified, not measured (20000)\n"
"  --measure NS      messages generated in this window are measured: latency,\n"
"                    offered and accepted load, msg/s (100000)\n"
"  --drain NS        generation goes on, unmeasured, until every measured\n"
"                    message has arrived; not within NS after the window:\n"
"                    saturated (200000)\n"
"  --max-queue M     a sender whose source queue (messages due but not yet\n"
"                    accepted by write()) holds more than M: saturated (1000)\n"
"  --sat-tol F       bytes received in the window below (1 - F) x those\n"
"                    generated in it, by more than a message per sender:\n"
"                    saturated (0.05)\n"
"  --limit NS        batch: give up when the device's virtual time has run\n"
"                    NS since the start (10 s)\n"
"    When generation stops (done, saturated, limit, a signal), hntraffic\n"
"    still reads every message already written, so that it can tell lost\n"
"    from late; messages due but not yet written are simply not sent.\n"
"\n"
"OPTIONS\n"
"  --nodes LIST      device nodes of the run, e.g. 0-15,32 (all N); each is\n"
"                    bound, so none may be in use by another program\n"
"  --fabric F        the nodes of fabric F of the network namespace\n"
"                    (hnctl fabric lists them; default: its first)\n"
"  --device PATH     the device (/dev/hybridnet); the fabric's configuration\n"
"                    is read from " SYSFS_FABRIC "F/config/\n"
"  --timeout S       wall seconds without a message sent or received after\n"
"                    which the run stops as stalled, and the longest the\n"
"                    final collection waits for a message (10)\n"
"  --progress        a progress line on stderr, also when it is not a\n"
"                    terminal (one line a second); --no-progress: none.\n"
"                    Default: on a terminal, rewritten in place\n"
"  -j, --json        one JSON object on stdout instead of the report\n"
"      --pretty      with --json: indented, one member per line (as\n"
"                    hnctl -j -p; -p is hnsim's --profile, refused here)\n"
"  --fault KIND      test the checker: node 0's third message is lost (its\n"
"                    number skipped), dup (written twice), swap (sent after\n"
"                    the next one, to the same node) or corrupt (a bit\n"
"                    flipped after the checksum); the run must exit with 3\n"
"  -h, --help        this text\n"
"\n"
"VERIFICATION\n"
"    Each payload starts with a stamp: the source node, the destination,\n"
"    the message's number in its (source, destination) stream, its length,\n"
"    the send time and a checksum over the stamp and every payload byte,\n"
"    seeded per run; the rest is filled from those values.  A receiver\n"
"    checks the header against the stamp, the checksum, and the number\n"
"    against the next one expected from that source.  At the end every\n"
"    stream's count sent is compared with what arrived.  Failures are\n"
"    counted as lost (never arrived), duplicated, out of order (a number\n"
"    other than the next), corrupt (stamp or checksum wrong, or a number\n"
"    never sent) and stray (from a node outside the run).  A corrupt\n"
"    message's number is not trusted, so it also counts as lost.\n"
"\n"
"OUTPUT\n"
"    The report: the run, the device, how it ended, messages sent and\n"
"    received and the circuit/wormhole split (the header's mode; retagged:\n"
"    its tag differed), the verification, throughput (messages/s and\n"
"    bytes/s of wall time: batch from the start to the last message,\n"
"    Bernoulli over the measurement window), offered and accepted load\n"
"    (Bernoulli: bytes generated and received in the window over the\n"
"    senders' link capacity in pattern time, over the part of the window\n"
"    the run lived), latency of the measured messages (min, mean, p50,\n"
"    p99, max; p50 and p99 are upper bounds, the top of a bucket of the\n"
"    engine's log histogram, at most 12.5 %% above the value, never above\n"
"    max: the function and buckets of hnsim, hnctl stats and hnctl\n"
"    traffic, so a batch run after 'hnctl stats reset' reads the same\n"
"    virtual figures as hnctl stats):\n"
"    virtual, t_deliver - t_inject of the header (NIC injection to\n"
"    delivery, in the device's time), and wall, write() to read(); Ding's\n"
"    utilisation (Ch. 1: bytes received / (last t_deliver - first t_inject)\n"
"    / senders' link rate); the largest source queue and the EAGAINs.\n"
"    --json keys: tool, device, pattern, nodes, node_set, device_nodes,\n"
"    active, seed, slots, profile, policy, link_mbps, clock, time_scale,\n"
"    inject, load_ppm, batch, size, size_max, end (done, saturated, limit,\n"
"    stalled, interrupted, error), saturated, completed, why, verified,\n"
"    in_order, lost, duplicated, reordered, corrupt, stray, first_failure,\n"
"    gen_msgs, gen_bytes, sent_msgs, sent_bytes, recv_msgs, recv_bytes,\n"
"    circuit_msgs, wormhole_msgs, retagged, tagged, tagged_done, wall_s,\n"
"    msgs_per_s, bytes_per_s, virtual_ns, offered_ppm, accepted_ppm,\n"
"    util_ppm, lat_n, lat_{min,mean,p50,p99,max}_ns, lat_n_circuit,\n"
"    lat_{min,mean,p50,p99,max}_circuit_ns and the same for wormhole (by the\n"
"    mode that carried the message), wall_lat_n, wall_lat_{...}_ns,\n"
"    backlog_max, tx_again.\n"
"\n"
"EXIT STATUS\n"
"    0  completed, and every message arrived once, in order and intact\n"
"    1  bad options, or the device could not be opened, bound, written or\n"
"       read\n"
"    2  saturated, stopped at --limit, stalled or interrupted (all verified)\n"
"    3  a message was lost, duplicated, out of order, corrupt or stray\n"
"\n"
"EXAMPLES\n"
"    hntraffic --pattern all-to-all --batch 100 --size 64-1024 --nodes 0-15\n"
"    hntraffic --pattern uniform --load 0.1 --measure 2000000 --json\n"
"    hntraffic --pattern mixed --pred 0.7 --batch 1000 --size 80/80\n"
"\n"
"SEE ALSO\n"
"    hnsim run --help (the same patterns in simulation), docs/hntraffic.md,\n"
"    docs/hnsim.md (\"Traffic and experiments\"), docs/model.md (\"Traffic\").\n");
}

/* the fabric's sysfs directory, once it is known */
static char hnt_sysdir[64];

static int sys_str(const char *name, char *buf, size_t n)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/config/%s", hnt_sysdir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int sys_u32(const char *name, u32 *v)
{
	char buf[32];

	return sys_str(name, buf, sizeof(buf)) || hn_topt_u32(buf, v) ? -1 : 0;
}

/* "0-15,32" -> sorted, distinct device nodes below @ndev */
static int parse_nodes(const char *s, u32 ndev, u32 **mapp, u32 *mp)
{
	u8 *in = calloc(ndev, 1);
	char *buf = strdup(s), *tok, *save, *dash;
	u32 a, b, i, m = 0, *map;
	int rc = -1;

	if (!in || !buf)
		goto out;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash++ = 0;
		if (hn_topt_u32(tok, &a) || (dash && hn_topt_u32(dash, &b)))
			goto out;
		if (!dash)
			b = a;
		if (a > b || b >= ndev)
			goto out;
		for (i = a; i <= b; i++)
			in[i] = 1;
	}
	for (i = 0; i < ndev; i++)
		m += in[i];
	map = malloc((size_t)(m ? m : 1) * sizeof(*map));
	if (!map)
		goto out;
	for (i = 0, m = 0; i < ndev; i++)
		if (in[i])
			map[m++] = i;
	*mapp = map;
	*mp = m;
	rc = 0;
out:
	free(in);
	free(buf);
	return rc;
}

static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hntraffic: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/*
 * The virtual time of the run's fabric, as a node's file sees it (an
 * unbound file would see the namespace's first fabric's).  The ioctl
 * alone: the node's thread owns its handle.
 */
static u64 dev_now(const struct hnt_run *r)
{
	struct hybridnet_info info;

	return ioctl(hn_fd(r->node[0].h), HYBRIDNET_IOC_INFO, &info) ? 0 :
	       info.now;
}

/* Open and bind the run's nodes; buffers and streams. */
static int setup_nodes(struct hnt_run *r)
{
	u32 top = r->t.size_dist == HN_SIZE_FIXED ? r->t.size : r->t.size_max;
	struct hnt_node *n;
	u32 i;
	int rc;

	r->node = calloc(r->m, sizeof(*r->node));
	if (!r->node)
		return fail("out of memory");
	for (i = 0; i < r->m; i++) {
		n = &r->node[i];
		n->run = r;
		n->id = i;
		n->dev = r->map[i];
		n->active = hn_tgen_active(r->g, i);
		r->nactive += n->active;
		n->seq_to = calloc(r->m, sizeof(*n->seq_to));
		n->from = calloc(r->m, sizeof(*n->from));
		n->tx = malloc(top);
		n->rx = malloc(top);
		n->rx_cap = top;
		if (!n->seq_to || !n->from || !n->tx || !n->rx)
			return fail("out of memory");
		n->v_first = HN_U64_MAX;
		hnt_hist_init(&n->vlat);
		hnt_hist_init(&n->wlat);
		hnt_hist_init(&n->vlat_mode[0]);
		hnt_hist_init(&n->vlat_mode[1]);
		rc = hn_open(&n->h, r->devpath, HN_NONBLOCK);
		if (rc)
			return fail("%s", hn_strerror(NULL, rc));
		rc = hn_bind_fabric(n->h, r->fabric, n->dev);
		if (rc)
			return fail("%s%s", hn_strerror(n->h, rc),
				    rc == -EBUSY ? "; hntraffic takes the nodes --nodes names" : "");
	}
	return 0;
}

struct live_sum {
	u64 gen, sent, recv, tagged_gen, tagged_recv, backlog, errors;
	u64 v_next;		/* least over the Bernoulli senders */
	int all_done;
};

static void live_sum(struct hnt_run *r, struct live_sum *s)
{
	struct hnt_node *n;
	u32 i;

	memset(s, 0, sizeof(*s));
	s->v_next = HN_U64_MAX;
	s->all_done = 1;
	for (i = 0; i < r->m; i++) {
		n = &r->node[i];
		/* acquire first: what the thread published before is final */
		if (!ACQUIRE(&n->live.sending_done))
			s->all_done = 0;
		if (n->active) {
			u64 v = ACQUIRE(&n->live.v_next);

			s->v_next = v < s->v_next ? v : s->v_next;
		}
		s->gen += LOAD(&n->live.gen);
		s->sent += LOAD(&n->live.sent);
		s->recv += LOAD(&n->live.recv);
		s->tagged_gen += LOAD(&n->live.tagged_gen);
		s->tagged_recv += LOAD(&n->live.tagged_recv);
		s->backlog += LOAD(&n->live.backlog);
		s->errors += LOAD(&n->live.errors);
	}
}

static const char *phase_of(const struct hnt_run *r, u64 now)
{
	if (LOAD(&r->end))
		return "collect";
	if (r->t.inject == HN_INJ_BATCH)
		return "batch";
	if (now < r->w_win0)
		return "warm-up";
	if (now < r->w_win1)
		return "measure";
	return "drain";
}

/* Decide when the run ends; then collect what is in flight. */
static void main_loop(struct hnt_run *r, int progress)
{
	int tty = progress == 2, batch = r->t.inject == HN_INJ_BATCH;
	u64 now, moved = 0, last_move = r->t0, last_p = r->t0, prev_recv = 0;
	u64 w_drain = r->w_win1 + (u64)((double)r->rc.drain_ns * r->scale);
	u64 v_win1 = r->rc.warmup_ns + r->rc.measure_ns;
	struct timespec ts = { 0, (long)TICK_NS };
	struct live_sum s;
	int shown = 0;

	for (;;) {
		nanosleep(&ts, NULL);
		now = hnt_now();
		live_sum(r, &s);
		if (s.sent + s.recv != moved) {
			moved = s.sent + s.recv;
			last_move = now;
		}
		if (interrupted)
			hnt_set_end(r, HNT_INTERRUPTED,
				    "interrupted by a signal");
		if (!LOAD(&r->end)) {
			if (batch && s.all_done && s.recv == s.sent)
				hnt_set_end(r, HNT_DONE,
					    "completed: every message delivered");
			else if (batch && dev_now(r) - r->v0 > r->rc.limit_ns)
				hnt_set_end(r, HNT_LIMIT,
					    "stopped: the batch was not delivered within --limit %llu ns of the device's virtual time",
					    U(r->rc.limit_ns));
			else if (!batch && now >= r->w_win1 &&
				 s.v_next >= v_win1 &&
				 s.tagged_recv == s.tagged_gen)
				hnt_set_end(r, HNT_DONE,
					    "completed: every measured message delivered");
			else if (!batch && now >= w_drain)
				hnt_set_end(r, HNT_SAT_DRAIN,
					    "saturated: measured messages still undelivered --drain %llu ns (%.3f s) after the window",
					    U(r->rc.drain_ns),
					    (w_drain - r->w_win1) / 1e9);
			else if (now - last_move > r->timeout_ns)
				hnt_set_end(r, HNT_STALLED,
					    "stalled: nothing sent or received for %.1f s (--timeout)",
					    r->timeout_ns / 1e9);
		} else if ((s.all_done && s.recv == s.sent) ||
			   now - last_move > r->timeout_ns ||
			   LOAD(&r->end) == HNT_STALLED || interrupted > 1) {
			break;
		}
		if (progress && (now - last_p >= (tty ? 250000000ULL :
						   1000000000ULL))) {
			fprintf(stderr, "%shntraffic %6.1f s  %-7s  sent %llu  received %llu  %.0f msg/s  queued %llu  in flight %llu  errors %llu%s",
				tty ? "\r" : "", (now - r->t0) / 1e9,
				phase_of(r, now), U(s.sent), U(s.recv),
				(s.recv - prev_recv) / ((now - last_p) / 1e9),
				U(s.backlog),
				U(s.sent > s.recv ? s.sent - s.recv : 0),
				U(s.errors), tty ? "\033[K" : "\n");
			prev_recv = s.recv;
			last_p = now;
			shown = 1;
		}
	}
	if (shown && tty)
		fprintf(stderr, "\n");
	__atomic_store_n(&r->quit, 1, __ATOMIC_RELAXED);
}

enum {
	O_NODES = HN_TOPT_END, O_DEVICE, O_SCALE, O_TIMEOUT, O_PROGRESS,
	O_NOPROGRESS, O_FAULT, O_SIMONLY, O_PRETTY, O_FABRIC,
};

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		HN_TOPT_LONGOPTS,
		{ "nodes", required_argument, NULL, O_NODES },
		{ "device", required_argument, NULL, O_DEVICE },
		{ "fabric", required_argument, NULL, O_FABRIC },
		{ "time-scale", required_argument, NULL, O_SCALE },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "no-progress", no_argument, NULL, O_NOPROGRESS },
		{ "fault", required_argument, NULL, O_FAULT },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, O_PRETTY },
		{ "help", no_argument, NULL, 'h' },
		/* hnsim's network options: refused with the reason */
		{ "net", required_argument, NULL, O_SIMONLY },
		{ "preload-slots", required_argument, NULL, O_SIMONLY },
		{ "profile", required_argument, NULL, O_SIMONLY },
		{ "slots", required_argument, NULL, O_SIMONLY },
		{ "policy", required_argument, NULL, O_SIMONLY },
		{ "set", required_argument, NULL, O_SIMONLY },
		{ "config", required_argument, NULL, O_SIMONLY },
		{ NULL, 0, NULL, 0 },
	};
	static const char * const faults[] = {
		[HNT_FAULT_LOSE] = "lose", [HNT_FAULT_DUP] = "dup",
		[HNT_FAULT_SWAP] = "swap", [HNT_FAULT_CORRUPT] = "corrupt",
	};
	struct hnt_run run, *r = &run;
	struct hybridnet_info info;
	struct hn_topts o;
	struct hn_err err = { 0 };
	struct hn_handle *ctl;
	struct hnt_total tot;
	struct sigaction sa;
	pthread_attr_t attr;
	const char *nodes = NULL;
	double scale = 0, timeout = 10;
	int c, li, rv, json = 0, pretty = 0, progress = -1;
	char *end, pol[64];
	u32 i, link = 0;

	memset(r, 0, sizeof(*r));
	r->devpath = HN_DEV_PATH;
	r->fabric = HYBRIDNET_FABRIC_FIRST;
	hn_topts_init(&o, "hntraffic");
	while ((c = getopt_long(argc, argv, "jhp:n:k:P:s:c:", lo, &li)) != -1) {
		rv = hn_topts_opt(&o, c, optarg);
		if (rv > 0)
			return 1;
		if (!rv)
			continue;
		switch (c) {
		case O_NODES:
			nodes = optarg;
			break;
		case O_DEVICE:
			r->devpath = optarg;
			break;
		case O_FABRIC:
			if (hn_topt_u32(optarg, &r->fabric) ||
			    r->fabric >= HYBRIDNET_MAX_FABRICS)
				return hn_topt_err("hntraffic", "--fabric",
						   optarg, "want a fabric's number (hnctl fabric lists them)");
			break;
		case O_SCALE:
			scale = strtod(optarg, &end);
			if (*end || !(scale > 0) || scale > 1e12)
				return hn_topt_err("hntraffic", "--time-scale",
						   optarg, "want wall ns per pattern ns, > 0");
			break;
		case O_TIMEOUT:
			timeout = strtod(optarg, &end);
			if (*end || !(timeout > 0) || timeout > 1e6)
				return hn_topt_err("hntraffic", "--timeout",
						   optarg, "want seconds, > 0");
			break;
		case O_PROGRESS:
			progress = 1;
			break;
		case O_NOPROGRESS:
			progress = 0;
			break;
		case O_FAULT:
			for (i = 1; i < ARRAY_SIZE(faults); i++)
				if (!strcmp(optarg, faults[i]))
					break;
			if (i == ARRAY_SIZE(faults))
				return hn_topt_err("hntraffic", "--fault",
						   optarg, "want lose, dup, swap or corrupt");
			r->fault = (int)i;
			break;
		case 'j':
			json = 1;
			break;
		case O_PRETTY:
			pretty = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case O_SIMONLY:
		case 'p':
		case 'n':
		case 'k':
		case 'P':
		case 's':
		case 'c':
			if (c == 'n')
				return fail("-n is hnsim's node count; here the run's nodes are the device's, or those of --nodes LIST (e.g. --nodes 0-15 for 16)");
			return fail("%s%s is an hnsim option: the device's network is the module's (module parameters, or 'hnctl set'); see 'hntraffic --help'",
				    c == O_SIMONLY ? "--" : "-",
				    c == O_SIMONLY ? lo[li].name :
				    (char[]){ (char)c, 0 });
		default:
			fprintf(stderr, "Try 'hntraffic --help'.\n");
			return 1;
		}
	}
	if (optind < argc)
		return fail("unexpected argument '%s'", argv[optind]);
	/* the words first (again below, on the run's node count) */
	if (hn_topts_finish(&o, 2))
		return 1;

	/* the device */
	rv = hn_open(&ctl, r->devpath, 0);
	if (rv)
		return fail("%s", hn_strerror(NULL, rv));
	/* the first fabric's, as the device tells an unbound file */
	if (r->fabric == HYBRIDNET_FABRIC_FIRST) {
		rv = hn_info(ctl, &info);
		if (rv)
			return fail("%s: HYBRIDNET_IOC_INFO: %s", r->devpath,
				    hn_strerror(ctl, rv));
		r->fabric = info.fabric;
	}
	snprintf(hnt_sysdir, sizeof(hnt_sysdir), SYSFS_FABRIC "%u", r->fabric);
	if (sys_u32("nodes", &r->ndev) || sys_u32("slots", &r->k) ||
	    sys_u32("max_msg_bytes", &r->max_msg))
		return fail("no fabric %u: cannot read %s/config/ (hnctl fabric lists the fabrics)",
			    r->fabric, hnt_sysdir);
	if (sys_u32("link_mbps", &link) || !link) {
		fprintf(stderr, "hntraffic: cannot read %s/config/link_mbps; assuming the profile's\n",
			hnt_sysdir);
		link = 0;
	}
	if (sys_str("clock", r->clock, sizeof(r->clock)))
		strcpy(r->clock, "?");
	if (sys_str("profile", r->profile, sizeof(r->profile)))
		strcpy(r->profile, "?");
	if (sys_u32("pace_ppm", &r->pace_ppm))
		r->pace_ppm = 0;
	/* the policy's words ("sla,preempt"), as the module prints them */
	if (sys_str("policy", pol, sizeof(pol)) ||
	    hn_ctl_policy_parse(pol, &r->policy))
		r->policy = 0;

	/* the run's nodes, the pattern on them */
	if (nodes) {
		if (parse_nodes(nodes, r->ndev, &r->map, &r->m))
			return fail("--nodes '%s': want device nodes 0..%u, e.g. 0,1 or 0-%u",
				    nodes, r->ndev - 1, r->ndev - 1);
	} else {
		r->map = malloc(r->ndev * sizeof(*r->map));
		if (!r->map)
			return fail("out of memory");
		for (i = 0; i < r->ndev; i++)
			r->map[i] = i;
		r->m = r->ndev;
	}
	if (r->m < 2)
		return fail("--nodes '%s': a run needs at least 2 nodes", nodes);
	r->rmap = malloc(r->ndev * sizeof(*r->rmap));
	if (!r->rmap)
		return fail("out of memory");
	for (i = 0; i < r->ndev; i++)
		r->rmap[i] = HN_NONE;
	for (i = 0; i < r->m; i++)
		r->rmap[r->map[i]] = i;
	if (hn_topts_finish(&o, r->m))
		return 1;
	r->t = o.t;
	r->rc = o.r;
	/* --root and --hot name device nodes: the run's numbers for them */
	if (o.have_root) {
		if (r->t.root >= r->ndev || r->rmap[r->t.root] == HN_NONE)
			return fail("--root %u: not a node of the run", r->t.root);
		r->t.root = r->rmap[r->t.root];
	}
	for (i = 0; o.hot && i < r->t.nhot; i++) {
		if (r->t.hot[i] >= r->ndev || r->rmap[r->t.hot[i]] == HN_NONE)
			return fail("--hot: node %u is not a node of the run",
				    r->t.hot[i]);
		r->t.hot[i] = r->rmap[r->t.hot[i]];
	}
	hn_config_default(&r->c);
	r->c.nodes = r->m;
	if (link)
		r->c.link_mbps = link;
	r->c.max_msg_bytes = r->max_msg;
	if (hn_tcfg_check(&r->t, &r->c, &err))
		return fail("%s", err.msg ? err.msg : "bad traffic options");
	if (r->t.pattern == HN_PAT_PHASED &&
	    r->t.phases != HN_PHASES_PER_NODE)
		return fail("--pattern phased: hntraffic's nodes run their phases unsynchronised and the device takes no wormhole hint; give --phases per-node (the global phases, with or without the hint, run in hnsim and the in-kernel generator)");
	if (r->t.size < HNT_STAMP &&
	    !(r->t.size_dist == HN_SIZE_BIMODAL && r->t.large_ppm == HN_PPM))
		return fail("--size: messages of %u bytes cannot hold the %u-byte check stamp; the least size is %u",
			    r->t.size, HNT_STAMP, HNT_STAMP);
	r->g = hn_tgen_create(&r->t, &r->c, &rv);
	if (!r->g)
		return fail("the pattern generator: %s", strerror(-rv));
	if (!scale)
		scale = !strcmp(r->clock, "paced") && r->pace_ppm ?
			1e6 / r->pace_ppm : 1000;
	r->scale = scale;
	r->timeout_ns = (u64)(timeout * 1e9);
	r->nonce = ((u64)getpid() << 32) ^ hnt_now() ^ 0x686e74726166ULL;
	if (progress < 0)
		progress = isatty(2) ? 2 : 0;
	else if (progress && isatty(2))
		progress = 2;

	if (setup_nodes(r))
		return 1;
	if (!r->nactive)
		return fail("no node of the run sends with this pattern");
	pthread_mutex_init(&r->lock, NULL);
	if (pthread_barrier_init(&r->start, NULL, r->m + 1))
		return fail("pthread_barrier_init failed");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (i = 0; i < r->m; i++) {
		rv = pthread_create(&r->node[i].thread, &attr, hnt_node_main,
				    &r->node[i]);
		if (rv)
			return fail("starting thread %u of %u: %s", i, r->m,
				    strerror(rv));
	}
	r->v0 = dev_now(r);
	r->t0 = hnt_now();
	if (r->t.inject == HN_INJ_BATCH) {
		r->w_win1 = HN_U64_MAX;
	} else {
		r->w_win0 = r->t0 + (u64)((double)r->rc.warmup_ns * scale);
		r->w_win1 = r->t0 + (u64)((double)(r->rc.warmup_ns +
						   r->rc.measure_ns) * scale);
	}
	pthread_barrier_wait(&r->start);
	main_loop(r, progress);
	for (i = 0; i < r->m; i++)
		pthread_join(r->node[i].thread, NULL);
	r->w_end = hnt_now();
	r->v1 = dev_now(r);

	hnt_count_lost(r);
	hnt_total(r, &tot);
	if (r->end == HNT_DONE && r->t.inject == HN_INJ_BERNOULLI &&
	    (u64)tot.win_gen_bytes * (HN_PPM - r->rc.sat_tol_ppm) / HN_PPM >
	    tot.win_acc_bytes &&
	    tot.win_gen_bytes - tot.win_acc_bytes >
	    (u64)(r->t.size_dist == HN_SIZE_FIXED ? r->t.size :
		  r->t.size_max) * r->nactive) {
		r->end = HNT_SAT_RATE;
		snprintf(r->end_why, sizeof(r->end_why),
			 "saturated: the bytes received in the window fell more than --sat-tol short of those generated in it");
	}
	if (json && pretty)
		json_pretty_begin();
	if (json)
		hnt_print_json(stdout, r, &tot);
	else
		hnt_print_human(stdout, r, &tot);
	json_pretty_end();
	fflush(stdout);
	for (i = 0; i < r->m; i++)
		hn_close(r->node[i].h);
	hn_close(ctl);
	if (!tot.verified) {
		fprintf(stderr, "hntraffic: verification failed: %llu lost, %llu duplicated, %llu out of order, %llu corrupt, %llu stray\n",
			U(tot.lost), U(tot.dup), U(tot.reordered),
			U(tot.corrupt), U(tot.stray));
		return 3;
	}
	if (r->end == HNT_ERROR) {
		fprintf(stderr, "hntraffic: %s\n", r->end_why);
		return 1;
	}
	if (r->end != HNT_DONE) {
		if (!json)
			fprintf(stderr, "hntraffic: %s\n", r->end_why);
		return 2;
	}
	return 0;
}
