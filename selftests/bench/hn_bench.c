// SPDX-License-Identifier: GPL-2.0
/*
 * hn_bench - speed and memory of the engine (make bench).
 *
 * Mixed traffic as issue 2 asks: on a sqrt(N) x sqrt(N) torus preloaded
 * into 4 slots (east, west, south, north: each a permutation), every node
 * sends one 128 B message to a random neighbour (circuit) and one to a
 * uniformly random node (wormhole) every 2 us of virtual time, under ding4.
 * Reported: wall time per simulated ms, CPU ns per delivered message, the
 * cost of a predictive slot against its number of connections, and bytes
 * of engine state per node.  Then uniform wormhole traffic at offered
 * load 0.5 on the 512-node crossbar and on FT(3,8): CPU per message and
 * per switch crossed; and FT(3,16)'s bytes per node.  Last, CPU per
 * flit-hop at loads 0.1 and 0.5 on the 64-port crossbar, FT(3,8) and the
 * torus 8x8x8, the last two with the flit router too.  And what the slot
 * length costs when only wormhole slots run: "hn_bench slot" runs that
 * case alone.  And what exactly-once delivery (idem.c) costs per message
 * when nothing is lost: "hn_bench idem" runs that case alone.  And the
 * engine's share of make bench-vm's device run: one node streaming 128 B
 * and 4 KiB messages to another on 16 nodes, run slot by slot as the
 * module's clock runs it (clock.c: hn_step_until() with a share of
 * HN_BATCH_WORK): "hn_bench stream" runs that case alone.  "hn_bench
 * crossbar" runs the crossbar's rows alone (the 512-node fabric row, the
 * 64-port flit-hop rows, the slot length's), for callgrind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hn_core.h"
#include "cfg_text.h"
#include "idem.h"

struct bmsg {
	struct hn_msg m;
	struct bmsg *free_next;
};

static struct bmsg *pool;
static u64 delivered;
static struct hn_engine *eng;

static void put(struct hn_msg *m)
{
	struct bmsg *b = (struct bmsg *)m;

	b->free_next = pool;
	pool = b;
}

static void deliver(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	hn_consume(eng, m->dst, m->len);
	put(m);
	delivered++;
}

static void reclaim(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	deliver(ctx, m);
}

static const struct hn_ops ops = { .deliver = deliver, .reclaim = reclaim };

static struct bmsg *get(void)
{
	struct bmsg *b = pool;

	if (!b)
		return calloc(1, sizeof(*b));
	pool = b->free_next;
	return b;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static u32 side_of(u32 n)
{
	u32 s = 1;

	while (s * s < n)
		s++;
	return s;
}

static u32 neighbour(u32 u, u32 side, u32 dir)
{
	u32 x = u % side, y = u / side;

	switch (dir) {
	case 0: x = (x + 1) % side; break;
	case 1: x = (x + side - 1) % side; break;
	case 2: y = (y + 1) % side; break;
	default: y = (y + side - 1) % side; break;
	}
	return y * side + x;
}

static struct hn_engine *mesh_engine(u32 n)
{
	static struct hn_pair p[4][4096];
	struct hn_slot_cfg cfg[4];
	struct hn_config c;
	u32 side = side_of(n), d, u;
	int rc;

	hn_config_profile(&c, "ding4");
	c.nodes = n;
	c.k = 4;
	eng = hn_create(&c, &ops, NULL, &rc);
	if (!eng) {
		fprintf(stderr, "hn_bench: create: %d\n", rc);
		exit(1);
	}
	for (d = 0; d < 4; d++) {
		for (u = 0; u < n; u++)
			p[d][u] = (struct hn_pair){ u, neighbour(u, side, d) };
		cfg[d] = (struct hn_slot_cfg){ .slot = d, .npairs = n,
						 .pairs = p[d] };
	}
	if (hn_preload(eng, cfg, 4, NULL)) {
		fprintf(stderr, "hn_bench: preload failed\n");
		exit(1);
	}
	return eng;
}

/* A message of 128 B from @src to @dst made at @t */
static struct hn_msg *make(u32 src, u32 dst, u64 t)
{
	struct bmsg *b = get();

	b->m.src = src;
	b->m.dst = dst;
	b->m.len = 128;
	b->m.t_inject = t;
	return &b->m;
}

static void inject(u32 src, u32 dst, u64 t, u64 *refused)
{
	struct hn_msg *m = make(src, dst, t);

	if (hn_inject(eng, m, NULL)) {
		put(m);
		(*refused)++;
	}
}

static void mixed(u32 n, u64 sim_ns)
{
	u32 side = side_of(n), u;
	u64 seed = 42, t, refused = 0;
	double c0, w0, cpu, wall;
	struct hn_gstats g;

	mesh_engine(n);
	delivered = 0;
	c0 = cpu_s();
	w0 = wall_s();
	for (t = 0; t < sim_ns; t += 2000) {
		hn_run_until(eng, t);
		for (u = 0; u < n; u++) {
			inject(u, neighbour(u, side, hn_rand_below(&seed, 4)), t,
			       &refused);
			inject(u, hn_rand_below(&seed, n), t, &refused);
		}
	}
	while (hn_busy(eng))
		hn_step(eng);
	cpu = cpu_s() - c0;
	wall = wall_s() - w0;
	hn_stats_global(eng, &g);
	printf("mixed %4u nodes: %8llu msgs (circuit %llu, wormhole %llu), "
	       "%.0f ns CPU/msg, %.3f s wall per simulated ms, util %.1f %%, "
	       "refused %llu\n", n, (unsigned long long)delivered,
	       (unsigned long long)g.rx_msgs[0],
	       (unsigned long long)g.rx_msgs[1], cpu * 1e9 / delivered,
	       wall / (sim_ns / 1e6), g.util_ppm / 1e4,
	       (unsigned long long)refused);
	printf("memory %4u nodes: %llu bytes of engine state, %llu per node\n",
	       n, (unsigned long long)hn_mem_bytes(eng),
	       (unsigned long long)(hn_mem_bytes(eng) / n));
	hn_destroy(eng);
}

/* One predictive slot carrying @conns circuits, each with data waiting. */
static void slot_cost(u32 n, u32 conns)
{
	struct hn_pair p[4096];
	struct hn_slot_cfg cfg = { .slot = 0, .npairs = conns, .pairs = p };
	struct hn_config c;
	u64 slots = 0, refused = 0;
	double t = 0, c0;
	int rc;
	u32 u, r;

	hn_config_profile(&c, "ding4");
	c.nodes = n;
	c.k = 1;
	c.policy = HN_POL_SES | HN_POL_NO_W;
	eng = hn_create(&c, &ops, NULL, &rc);
	for (u = 0; u < conns; u++)
		p[u] = (struct hn_pair){ u, (u + 1) % n };
	hn_preload(eng, &cfg, 1, NULL);
	for (r = 0; r < 200; r++) {
		for (u = 0; u < conns; u++)	/* 128 B: one slot each */
			inject(u, (u + 1) % n, hn_now(eng), &refused);
		c0 = cpu_s();
		while (hn_busy(eng)) {
			hn_step(eng);
			slots++;
		}
		t += cpu_s() - c0;
	}
	printf("slot  %4u nodes, %4u active circuits: %7.0f ns per slot, "
	       "%5.1f ns per circuit\n", n, conns, t * 1e9 / slots,
	       t * 1e9 / slots / conns);
	hn_destroy(eng);
}

/*
 * Uniform wormhole traffic on @c (K = 0) into eng, made for it: each node
 * makes a 128 B message w.p. @below / @range every 160 ns (its time at
 * 6.4 Gb/s), for @sim_ns, then it drains (or deadlocks).  Returns the CPU
 * seconds; eng stays for the caller to read and destroy.
 */
static double run_uniform(struct hn_config *c, const char *what, u32 range,
			  u32 below, u64 sim_ns, u64 *refused)
{
	u64 seed = 7, t;
	double c0;
	u32 u;
	int rc;

	eng = hn_create(c, &ops, NULL, &rc);
	if (!eng) {
		fprintf(stderr, "hn_bench: create %s: %d\n", what, rc);
		exit(1);
	}
	delivered = 0;
	*refused = 0;
	c0 = cpu_s();
	for (t = 0; t < sim_ns; t += 160) {
		hn_run_until(eng, t);
		for (u = 0; u < c->nodes; u++)
			if (hn_rand_below(&seed, range) >= range - below)
				inject(u, (u + 1 + hn_rand_below(&seed,
						c->nodes - 1)) % c->nodes,
				       t, refused);
	}
	while (hn_busy(eng) && hn_deadlock(eng, NULL))
		hn_step(eng);
	return cpu_s() - c0;
}

/*
 * Load 0.5 (run_uniform()): CPU per delivered message and, from the
 * switches' counts, per switch crossed (the crossbar: one).
 */
static double uniform_half(struct hn_config *c, const char *what, u64 sim_ns)
{
	struct hn_fabric_info fi;
	struct hn_switch_stats ss;
	u64 refused, passed = 0;
	double cpu, hops;
	u32 sw;

	cpu = run_uniform(c, what, 2, 1, sim_ns, &refused);
	hn_fabric_info(eng, &fi);
	for (sw = 0; sw < fi.switches; sw++)
		if (!hn_switch_stats(eng, sw, &ss))
			passed += ss.worms;
	hops = passed ? (double)passed / delivered : 1;
	printf("fabric %-12s %u nodes: %7llu msgs, %4.0f ns CPU/msg, "
	       "%.2f switches/msg, %4.0f ns CPU/msg/switch, refused %llu, "
	       "%llu bytes/node\n", what, c->nodes,
	       (unsigned long long)delivered, cpu * 1e9 / delivered, hops,
	       cpu * 1e9 / delivered / hops, (unsigned long long)refused,
	       (unsigned long long)(hn_mem_bytes(eng) / c->nodes));
	hn_destroy(eng);
	return cpu * 1e9 / delivered / hops;
}

/*
 * Load @ppm (run_uniform()): CPU per delivered message and per flit-hop
 * (a flit crossing a switch: the switches' bytes over flit_bytes).
 */
static void per_flit_hop(struct hn_config *c, const char *what, u32 ppm,
			 u64 sim_ns)
{
	struct hn_fabric_info fi;
	struct hn_switch_stats ss;
	u64 refused, bytes = 0;
	double cpu, fh;
	u32 sw;

	cpu = run_uniform(c, what, 1000000, ppm, sim_ns, &refused);
	hn_fabric_info(eng, &fi);
	for (sw = 0; sw < fi.switches; sw++)
		if (!hn_switch_stats(eng, sw, &ss))
			bytes += ss.bytes;
	fh = (double)bytes / c->flit_bytes;
	printf("flit-hop %-17s load %.1f: %7llu msgs, %5.0f ns CPU/msg, "
	       "%5.1f flit-hops/msg, %5.1f ns CPU/flit-hop%s\n", what,
	       ppm / 1e6, (unsigned long long)delivered,
	       cpu * 1e9 / delivered, fh / delivered, cpu * 1e9 / fh,
	       hn_deadlock(eng, NULL) ? "" : ", deadlocked");
	hn_destroy(eng);
}

/*
 * CPU per flit-hop: the 64-port crossbar, FT(3,8), the torus 8x8x8 with
 * switch.c's per-worm model; FT(3,8) and the torus with the flit router
 * (flit.c: two virtual channels of 8 flits, the torus's dateline).
 */
static void flit_hops(void)
{
	static const u32 ppm[] = { 100000, 500000 };
	static const char *const fab[] = { "crossbar", "fattree:3,8",
					   "torus:8x8x8", "fattree:3,8",
					   "torus:8x8x8" };
	static const u32 vcs[] = { 0, 0, 0, 2, 2 };
	char what[32];
	struct hn_config c;
	u32 i, l;

	for (i = 0; i < ARRAY_SIZE(fab); i++) {
		for (l = 0; l < ARRAY_SIZE(ppm); l++) {
			hn_config_profile(&c, "ding4");
			if (hn_topology_parse(&c, fab[i], NULL))
				exit(1);
			c.k = 0;
			c.policy = 0;
			c.vc_count = vcs[i];
			c.vc_flits = vcs[i] ? 8 : 0;
			snprintf(what, sizeof(what), "%s%s", fab[i],
				 vcs[i] ? " flit" : "");
			per_flit_hop(&c, what, ppm[l], 100000);
		}
	}
}

/*
 * Slot length (docs/performance.md): the same uniform wormhole traffic at
 * load 0.2 on the 64-node crossbar, K = 4 under SES with no circuit, so
 * only wormhole slots run, back to back; 10 ns slots against 200 ns.
 * The results are the same; the CPU per message should be too.
 */
static void slot_length(void)
{
	static const u32 len[2] = { 10, 200 };
	double ns[2];
	struct hn_config c;
	u64 refused;
	u32 i;

	for (i = 0; i < 2; i++) {
		hn_config_profile(&c, "ding4");
		c.nodes = 64;
		c.k = 4;
		c.policy = HN_POL_SES;
		c.guard_ns = 0;
		c.slot_p_ns = len[i];
		c.slot_w_ns = len[i];
		ns[i] = run_uniform(&c, "slot length", 5, 1, 2000000,
				    &refused) * 1e9 / delivered;
		hn_destroy(eng);
	}
	printf("slot length 64 nodes, load 0.2: %.0f ns CPU/msg with 10 ns "
	       "slots, %.0f with 200 ns: %.2f x (target 0.90..1.10)\n",
	       ns[0], ns[1], ns[0] / ns[1]);
}

/*
 * The device's stream (dev_bench.c) without the device: node 0 keeps its
 * NIC full of @len-byte messages to node 1, the module's defaults (ding4,
 * 16 nodes), the engine run one slot a call with the work share clock.c
 * gives it (16384 / min(64, 16384 / N) events).
 */
static void stream(u32 len)
{
	u64 steps = 0, want = 20000;
	struct hn_config c;
	struct hn_msg *m;
	double t0;
	int rc;

	hn_config_profile(&c, "ding4");
	c.nodes = 16;
	eng = hn_create(&c, &ops, NULL, &rc);
	if (!eng) {
		printf("stream: hn_create: %d\n", rc);
		exit(1);
	}
	hn_set_work(eng, 16384 / 64);
	delivered = 0;
	t0 = cpu_s();
	while (delivered < want) {
		while (hn_nic_room(eng, 0) >= len) {
			m = make(0, 1, hn_now(eng));
			m->len = len;
			if (hn_inject(eng, m, NULL)) {
				put(m);
				break;
			}
		}
		hn_step_until(eng, HN_U64_MAX);
		steps++;
	}
	printf("stream 16 nodes, 0 -> 1, %u B: %.0f ns CPU/msg, %.1f slot steps a message\n",
	       len, (cpu_s() - t0) * 1e9 / delivered,
	       (double)steps / delivered);
	hn_destroy(eng);
}

/* The fat tree against the crossbar (issue 13): CPU per message per hop. */
static void fabric(void)
{
	struct hn_config c;
	double xbar, ft;

	hn_config_profile(&c, "ding4");
	c.nodes = 512;
	c.k = 0;
	c.policy = 0;
	xbar = uniform_half(&c, "crossbar", 200000);
	c.topology = 1;			/* HN_TOPO_FATTREE */
	c.levels = 3;
	c.width = 8;
	ft = uniform_half(&c, "FT(3,8)", 200000);
	printf("fabric FT(3,8) per switch crossed: %.2f x the crossbar's "
	       "per message (target <= 2)\n", ft / xbar);
	c.levels = 3;
	c.width = 16;
	c.nodes = 4096;
	uniform_half(&c, "FT(3,16)", 20000);
}

/*
 * The crossbar's wormhole alone ("hn_bench crossbar"): 512 nodes at load
 * 0.5, 64 at 0.1 and 0.5 (CPU per flit-hop), the slot length's cost.
 */
static void crossbar(void)
{
	struct hn_config c;
	u32 ppm;

	hn_config_profile(&c, "ding4");
	c.nodes = 512;
	c.k = 0;
	c.policy = 0;
	uniform_half(&c, "crossbar", 200000);
	for (ppm = 100000; ppm <= 500000; ppm += 400000) {
		hn_config_profile(&c, "ding4");
		c.k = 0;
		c.policy = 0;
		per_flit_hop(&c, "crossbar", ppm, 100000);
	}
	slot_length();
}

/* The protocol's client: it gets each message once, none given up */
static void idem_deliver(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	put(m);
	delivered++;
}

static void idem_give_up(void *ctx, struct hn_msg *m, u32 src, u32 dst,
			 int err)
{
	(void)ctx;
	(void)m;
	fprintf(stderr, "hn_bench: idem gave up %u -> %u: %d\n", src, dst, err);
	exit(1);
}

static void idem_reclaim(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	put(m);
}

static const struct hn_idem_ops idem_ops = {
	.deliver = idem_deliver,
	.give_up = idem_give_up,
	.reclaim = idem_reclaim,
};

/*
 * Uniform traffic on @c, each node a 128 B message w.p. 0.3 every 160 ns
 * for @sim_ns, by hn_inject() or, with @x, hn_idem_send(); run until all
 * is delivered (with @x: acknowledged).  Returns the CPU seconds.
 */
static double idem_run(const struct hn_config *c, struct hn_idem *x,
		       u64 sim_ns)
{
	u64 seed = 7, t;
	struct hn_msg *m;
	double c0;
	u32 u;
	int rc;

	delivered = 0;
	c0 = cpu_s();
	for (t = 0; t < sim_ns || (x && hn_idem_busy(x)); t += 160) {
		hn_run_until(eng, t);
		for (u = 0; u < c->nodes && t < sim_ns; u++) {
			if (hn_rand_below(&seed, 10) >= 3)
				continue;
			m = make(u, (u + 1 + hn_rand_below(&seed, c->nodes - 1)) %
				 c->nodes, t);
			rc = x ? hn_idem_send(x, m) : hn_inject(eng, m, NULL);
			if (rc) {
				fprintf(stderr, "hn_bench: idem: refused: %d\n",
					rc);
				exit(1);
			}
		}
		if (x)
			hn_idem_tick(x);
	}
	while (hn_busy(eng))
		hn_step(eng);
	return cpu_s() - c0;
}

/*
 * Exactly once, what it costs when nothing is lost: the same messages on
 * FT(3,4) (64 nodes, VCT) injected straight and sent by Woods-Corwin's
 * protocol (idem.c: an ACK and an ACK2 of 20 % each, the timers of
 * hn_idem_cfg_default()).  CPU per delivered message, and the ratio.
 */
static void idem_cost(void)
{
	struct hn_idem_stats s;
	struct hn_idem_cfg ic;
	struct hn_config c;
	struct hn_idem *x;
	double ns[2];
	u64 msgs[2];
	int rc;

	hn_config_profile(&c, "ding4");
	if (hn_topology_parse(&c, "fattree:3,4", NULL))
		exit(1);
	c.k = 0;
	c.policy = 0;
	c.switching = HN_SWITCH_VCT;
	hn_idem_cfg_default(&ic);
	x = NULL;
	eng = hn_create(&c, &ops, NULL, &rc);
	if (eng) {
		ns[0] = idem_run(&c, NULL, 2000000) * 1e9 / delivered;
		msgs[0] = delivered;
		hn_destroy(eng);
		x = hn_idem_create(&c, &ic, &idem_ops, NULL, &rc);
	}
	if (!x) {
		fprintf(stderr, "hn_bench: create idem: %d\n", rc);
		exit(1);
	}
	eng = hn_idem_engine(x);
	ns[1] = idem_run(&c, x, 2000000) * 1e9 / delivered;
	msgs[1] = delivered;
	hn_idem_stats(x, &s);
	hn_idem_destroy(x);
	if (msgs[1] != msgs[0]) {
		fprintf(stderr, "hn_bench: idem delivered %llu of %llu\n",
			(unsigned long long)msgs[1],
			(unsigned long long)msgs[0]);
		exit(1);
	}
	printf("idem FT(3,4) VCT load 0.3: %llu msgs, %.0f ns CPU/msg "
	       "without the protocol, %.0f with (%llu sent again): %.2f x\n",
	       (unsigned long long)msgs[0], ns[0], ns[1],
	       (unsigned long long)(s.resends[0] + s.resends[1]),
	       ns[1] / ns[0]);
}

int main(int argc, char **argv)
{
	u32 k;

	printf("hn_bench: engine speed and memory (one core, -O2)\n");
	if (argc > 1 && !strcmp(argv[1], "idem")) {
		idem_cost();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "circuits")) {	/* callgrind */
		slot_cost(4096, 1024);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "mixed")) {	/* for callgrind */
		mixed(64, 1000000);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "stream")) {	/* callgrind */
		stream(128);
		stream(4096);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "crossbar")) {	/* callgrind */
		crossbar();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "slot")) {
		slot_length();
		return 0;
	}
	mixed(64, 10000000);		/* 10 ms virtual */
	mixed(1024, 1000000);		/* 1 ms virtual */
	mixed(4096, 200000);
	slot_length();
	for (k = 128; k <= 4096; k *= 2)
		slot_cost(4096, k);
	stream(128);
	stream(4096);
	fabric();
	flit_hops();
	idem_cost();
	while (pool) {
		struct bmsg *b = pool;

		pool = b->free_next;
		free(b);
	}
	return 0;
}
