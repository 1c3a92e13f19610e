// SPDX-License-Identifier: GPL-2.0
/*
 * pattern.c - synthetic traffic: destination patterns, message sizes and
 * injection processes, deterministic from a seed.
 *
 * Every node draws from its own pseudo-random streams (hn_rand, seeded
 * from the seed and the node number), so a node's messages do not depend
 * on the order in which nodes are served, nor on the load: the i-th
 * message of node s has the same destination and size at any offered
 * load, in hnsim and in the kernel.
 *
 * Notation: N nodes, s the source, i the number of destinations s has
 * drawn before this one.  The mesh patterns use a 2-D grid of w columns
 * and h rows (w x h = N; by default h is the largest divisor of N not
 * above sqrt(N): 8 x 8 for 64, 16 x 8 for 128, 8 x 4 for 32), node
 * s = y w + x, with wrap-around, so that each direction is a permutation
 * and four slots hold the whole mesh (Sec. 4.2.2).  The directions, in order:
 * 0 east (x + 1), 1 west (x - 1), 2 south (y + 1), 3 north (y - 1).
 *
 * A permutation's fixed points (d = s) stay silent: a crossbar port sends
 * nothing to itself, so they are not network traffic (Duato notes 6.2).
 */
#include "hn_traffic.h"
#include "hn_sched.h"		/* enum hn_topology */

static const char * const pat_names[HN_NPATTERNS] = {
	[HN_PAT_UNIFORM] = "uniform",
	[HN_PAT_TRANSPOSE] = "transpose",
	[HN_PAT_BITCOMP] = "bitcomp",
	[HN_PAT_BITREV] = "bitrev",
	[HN_PAT_SHUFFLE] = "shuffle",
	[HN_PAT_TORNADO] = "tornado",
	[HN_PAT_NEIGHBOR] = "neighbor",
	[HN_PAT_RANDPERM] = "randperm",
	[HN_PAT_HOTSPOT] = "hotspot",
	[HN_PAT_SCATTER] = "scatter",
	[HN_PAT_ALLTOALL] = "all-to-all",
	[HN_PAT_RAND2ALL] = "random-to-all",
	[HN_PAT_OMESH] = "ordered-mesh",
	[HN_PAT_RMESH] = "random-mesh",
	[HN_PAT_TWOPHASE] = "two-phase",
	[HN_PAT_MIXED] = "mixed",
	[HN_PAT_PHASED] = "phased",
	[HN_PAT_LOCALIZED] = "localized",
};

static const char * const net_names[HN_NNETS] = {
	[HN_NET_AS_IS] = "hybrid",
	[HN_NET_WORMHOLE] = "wormhole",
	[HN_NET_CIRCUIT] = "circuit",
	[HN_NET_DYNAMIC] = "dynamic",
	[HN_NET_PRELOAD] = "preload",
};

static const char * const phases_names[HN_NPHASES] = {
	[HN_PHASES_GLOBAL] = "global",
	[HN_PHASES_PER_NODE] = "per-node",
	[HN_PHASES_GLOBAL_HINT] = "global-hint",
};

struct hn_tnode {
	u64 rng;		/* destinations and sizes */
	u64 irng;		/* injection trials */
	u64 count;		/* destinations drawn */
	u64 pred;		/* ordered-mesh destinations drawn */
	u64 cycle;		/* Bernoulli: last trial */
};

struct hn_tgen {
	struct hn_tcfg t;
	u32 w, h;		/* grid */
	u32 bits;		/* log2 N when N is a power of two */
	u32 levels, width;	/* localized: the fat tree FT(levels, width) */
	u64 p32;		/* Bernoulli: success probability x 2^32 */
	u32 *perm;		/* randperm */
	struct hn_tnode *node;
};

const char *hn_pattern_name(u32 p)
{
	return p < HN_NPATTERNS ? pat_names[p] : NULL;
}

int hn_pattern_parse(const char *name)
{
	u32 p;

	for (p = 0; p < HN_NPATTERNS; p++)
		if (!strcmp(name, pat_names[p]))
			return p;
	return -EINVAL;
}

const char *hn_net_name(u32 net)
{
	return net < HN_NNETS ? net_names[net] : NULL;
}

int hn_net_parse(const char *name)
{
	u32 n;

	for (n = 0; n < HN_NNETS; n++)
		if (!strcmp(name, net_names[n]))
			return n;
	return -EINVAL;
}

const char *hn_phases_name(u32 p)
{
	return p < HN_NPHASES ? phases_names[p] : NULL;
}

int hn_phases_parse(const char *name)
{
	u32 p;

	for (p = 0; p < HN_NPHASES; p++)
		if (!strcmp(name, phases_names[p]))
			return p;
	return -EINVAL;
}

void hn_tcfg_default(struct hn_tcfg *t, u32 nodes)
{
	memset(t, 0, sizeof(*t));
	t->pattern = HN_PAT_UNIFORM;
	t->nodes = nodes;
	t->nhot = 1;			/* hot[0] = node 0 */
	t->hot_ppm = 100000;		/* 10 % to the hot set */
	t->pred_ppm = 500000;
	t->dirs = 4;
	t->phase_msgs = 256;
	t->rmesh_msgs = 16;		/* Sec. 5.5.2: 16 random nearest neighbour */
	t->size_dist = HN_SIZE_FIXED;
	t->size = 128;			/* Sec. 4.6.1 */
	t->size_max = 128;
	t->inject = HN_INJ_BERNOULLI;
	t->load_ppm = 100000;
	t->cycle_ns = 10;		/* one 8 B flit at 6.4 Gb/s (Sec. 5.5.2) */
	t->batch = 64;
	t->seed = 1;
}

/* a mod b for a u64 a, without a 64-bit '%' (32-bit kernels) */
static u32 mod64(u64 a, u32 b)
{
	return (u32)(a - hn_div(a, b) * b);
}

static u32 isqrt(u32 n)
{
	u32 r = 0;

	while ((u64)(r + 1) * (r + 1) <= n)
		r++;
	return r;
}

static void grid_of(const struct hn_tcfg *t, u32 *w, u32 *h)
{
	u32 d;

	if (t->grid_w || t->grid_h) {
		*w = t->grid_w;
		*h = t->grid_h;
		return;
	}
	for (d = isqrt(t->nodes); d > 1 && t->nodes % d; d--)
		;
	*h = d ? d : 1;
	*w = t->nodes / *h;
}

static u32 log2_exact(u32 n)
{
	u32 b = 0;

	if (!n || (n & (n - 1)))
		return HN_NONE;
	while ((1u << b) < n)
		b++;
	return b;
}

static bool is_mesh(u32 p)
{
	return p == HN_PAT_OMESH || p == HN_PAT_RMESH ||
	       p == HN_PAT_TWOPHASE || p == HN_PAT_MIXED ||
	       p == HN_PAT_PHASED;
}

static bool is_perm(u32 p)
{
	return p == HN_PAT_TRANSPOSE || p == HN_PAT_BITCOMP ||
	       p == HN_PAT_BITREV || p == HN_PAT_SHUFFLE ||
	       p == HN_PAT_TORNADO || p == HN_PAT_NEIGHBOR ||
	       p == HN_PAT_RANDPERM;
}

u64 hn_tcfg_mean_x1e6(const struct hn_tcfg *t)
{
	switch (t->size_dist) {
	case HN_SIZE_UNIFORM:
		return ((u64)t->size + t->size_max) * (HN_PPM / 2);
	case HN_SIZE_BIMODAL:
		return (u64)t->size * (HN_PPM - t->large_ppm) +
		       (u64)t->size_max * t->large_ppm;
	default:
		return (u64)t->size * HN_PPM;
	}
}

/*
 * Bernoulli injection: in each cycle of cycle_ns, a node generates a
 * message with probability p = load x (link bytes per cycle) / mean size,
 * so that it offers load x link capacity on average.  p x 2^32.
 */
static u64 bernoulli_p32(const struct hn_tcfg *t, const struct hn_config *c)
{
	u64 num = (u64)t->load_ppm * t->cycle_ns * c->link_mbps;

	return hn_mul_div(num, 1ULL << 32, 8000ULL * hn_tcfg_mean_x1e6(t));
}

static int bad(struct hn_err *err, const char *msg, u32 node)
{
	return hn_fail(err, -EINVAL, msg, HN_NONE, node, HN_NONE);
}

static int check_pattern(const struct hn_tcfg *t, const struct hn_config *c,
			 struct hn_err *err)
{
	u32 N = t->nodes, w, h, i;

	if (t->pattern >= HN_NPATTERNS)
		return bad(err, "unknown pattern", HN_NONE);
	if (t->grid_w || t->grid_h) {
		if ((u64)t->grid_w * t->grid_h != N)
			return bad(err, "grid: width x height must equal the node count",
				   HN_NONE);
	}
	grid_of(t, &w, &h);
	switch (t->pattern) {
	case HN_PAT_BITCOMP:
	case HN_PAT_BITREV:
	case HN_PAT_SHUFFLE:
		if (log2_exact(N) == HN_NONE)
			return bad(err,
				   "bitcomp, bitrev and shuffle need a power-of-two node count",
				   HN_NONE);
		break;
	case HN_PAT_TRANSPOSE:
		if (isqrt(N) * isqrt(N) != N)
			return bad(err, "transpose needs a square node count (n x n)",
				   HN_NONE);
		break;
	case HN_PAT_SCATTER:
		if (t->root >= N)
			return bad(err, "scatter: root out of range", t->root);
		break;
	case HN_PAT_HOTSPOT:
		if (!t->nhot || t->nhot > HN_MAX_HOT)
			return bad(err, "hotspot: hot set must have 1..16 nodes",
				   HN_NONE);
		for (i = 0; i < t->nhot; i++)
			if (t->hot[i] >= N)
				return bad(err, "hotspot: hot node out of range",
					   t->hot[i]);
		if (t->hot_ppm > HN_PPM)
			return bad(err, "hotspot: fraction must be 0..1", HN_NONE);
		break;
	default:
		break;
	}
	if (is_mesh(t->pattern) && (w < 3 || h < 3))
		return bad(err, "mesh patterns need a grid of at least 3 x 3",
			   HN_NONE);
	if (t->pattern == HN_PAT_MIXED || t->pattern == HN_PAT_PHASED) {
		if (t->pred_ppm > HN_PPM)
			return bad(err, "predictable ratio must be 0..1", HN_NONE);
		if (t->dirs < 1 || t->dirs > 4)
			return bad(err, "mesh directions must be 1..4", HN_NONE);
	}
	if (t->pattern == HN_PAT_LOCALIZED &&
	    (c->topology != HN_TOPO_FATTREE || c->levels < 2))
		return bad(err, "localized needs a fat tree of 2 levels or more",
			   HN_NONE);	/* its levels are the distances */
	if (t->pattern == HN_PAT_PHASED && !t->phase_msgs)
		return bad(err, "phased: phase length must be at least 1 message",
			   HN_NONE);
	if (t->phases >= HN_NPHASES)
		return bad(err, "phases must be global or per-node", HN_NONE);
	return 0;
}

static int check_sizes(const struct hn_tcfg *t, const struct hn_config *c,
		       struct hn_err *err)
{
	u32 top = t->size_dist == HN_SIZE_FIXED ? t->size : t->size_max;
	struct hn_msg m = { 0 };
	const char *why;

	if (t->size_dist > HN_SIZE_BIMODAL)
		return bad(err, "unknown size distribution", HN_NONE);
	if (!t->size)
		return bad(err, "message size must be at least 1 byte", HN_NONE);
	if (t->size_dist == HN_SIZE_UNIFORM && t->size_max < t->size)
		return bad(err, "size range: the top is below the bottom", HN_NONE);
	if (t->size_dist == HN_SIZE_BIMODAL && t->large_ppm > HN_PPM)
		return bad(err, "bimodal: fraction of large messages must be 0..1",
			   HN_NONE);
	if (top > c->max_msg_bytes || !top)
		return bad(err, "message size above the engine's max_msg_bytes",
			   HN_NONE);
	if (t->sw > HN_SWITCH_SAF + 1)
		return bad(err, "a message's switching is wormhole, vct or saf",
			   HN_NONE);
	m.len = top;			/* the largest, by its own switching */
	m.sw = (u8)t->sw;
	why = m.sw ? hn_flow_bad(c, &m) : NULL;
	if (why)
		return bad(err, why, HN_NONE);
	return 0;
}

int hn_tcfg_check(const struct hn_tcfg *t, const struct hn_config *c,
		  struct hn_err *err)
{
	u64 p32;
	int rc;

	if (t->nodes != c->nodes)
		return bad(err, "traffic node count differs from the engine's",
			   HN_NONE);
	rc = check_pattern(t, c, err);
	if (!rc)
		rc = check_sizes(t, c, err);
	if (rc)
		return rc;
	if (t->inject == HN_INJ_BATCH) {
		if (!t->batch || t->batch > 1000000000u)
			return bad(err, "batch must be 1..10^9 messages per node",
				   HN_NONE);
		if (t->gen_mbps > 1000000)
			return bad(err, "generation rate must be 0..10^6 Mb/s",
				   HN_NONE);
		return 0;
	}
	if (t->inject != HN_INJ_BERNOULLI)
		return bad(err, "unknown injection process", HN_NONE);
	if (!t->load_ppm || t->load_ppm > HN_PPM)
		return bad(err, "offered load must be above 0 and at most 1 (the link rate)",
			   HN_NONE);
	if (!t->cycle_ns || t->cycle_ns > 1000000)
		return bad(err, "injection cycle must be 1 ns..1 ms", HN_NONE);
	p32 = bernoulli_p32(t, c);
	if (p32 > (1ULL << 32))
		return bad(err,
			   "offered load needs more than one message per injection cycle: lower the load or the cycle, or raise the size",
			   HN_NONE);
	if (p32 < (1ULL << 12))
		return bad(err, "offered load below one message per 2^20 injection cycles",
			   HN_NONE);
	return 0;
}

/* A well-mixed starting state for stream @k of node @u. */
static u64 stream_seed(u64 seed, u32 u, u32 k)
{
	u64 x = seed ^ ((u64)(u + 1) * 0xd1b54a32d192ed03ULL) ^
		((u64)k * 0x8cb92ba72f3d8dd7ULL);

	return hn_rand(&x);
}

struct hn_tgen *hn_tgen_create(const struct hn_tcfg *t,
			       const struct hn_config *c, int *errp)
{
	struct hn_tgen *g = hn_zalloc(sizeof(*g));
	u32 u, j, x, N = t->nodes;
	u64 r;

	if (!g)
		goto nomem;
	g->t = *t;
	grid_of(t, &g->w, &g->h);
	g->bits = log2_exact(N);
	if (c->topology == HN_TOPO_FATTREE) {
		g->levels = c->levels;
		g->width = c->width;
	}
	g->p32 = bernoulli_p32(t, c);
	g->node = hn_zalloc((size_t)N * sizeof(*g->node));
	if (!g->node)
		goto nomem;
	for (u = 0; u < N; u++) {
		g->node[u].rng = stream_seed(t->seed, u, 1);
		g->node[u].irng = stream_seed(t->seed, u, 2);
	}
	if (t->pattern == HN_PAT_RANDPERM) {
		/* BookSim randperm: Fisher-Yates from the seed */
		g->perm = hn_zalloc((size_t)N * sizeof(*g->perm));
		if (!g->perm)
			goto nomem;
		r = stream_seed(t->seed, N, 3);
		for (u = 0; u < N; u++)
			g->perm[u] = u;
		for (u = N - 1; u > 0; u--) {
			j = hn_rand_below(&r, u + 1);
			x = g->perm[u];
			g->perm[u] = g->perm[j];
			g->perm[j] = x;
		}
	}
	if (errp)
		*errp = 0;
	return g;
nomem:
	hn_tgen_destroy(g);
	if (errp)
		*errp = -ENOMEM;
	return NULL;
}

void hn_tgen_destroy(struct hn_tgen *g)
{
	if (!g)
		return;
	hn_free(g->perm);
	hn_free(g->node);
	hn_free(g);
}

/* Neighbour of @s in direction @dir: 0 E, 1 W, 2 S, 3 N, with wrap. */
static u32 mesh(const struct hn_tgen *g, u32 s, u32 dir)
{
	u32 x = s % g->w, y = s / g->w;

	switch (dir) {
	case 0:
		x = (x + 1) % g->w;
		break;
	case 1:
		x = (x + g->w - 1) % g->w;
		break;
	case 2:
		y = (y + 1) % g->h;
		break;
	default:
		y = (y + g->h - 1) % g->h;
		break;
	}
	return y * g->w + x;
}

/*
 * The permutations, d = f(s):
 *   transpose  N = n x n, s = r n + c:  d = c n + r  (BookSim's bit swap
 *              of the two halves when N is a power of 4)
 *   bitcomp    d = (N - 1) XOR s
 *   bitrev     d_i = s_(b-1-i), b = log2 N
 *   shuffle    d = ((s << 1) | (s >> (b - 1))) AND (N - 1)  (Duato's
 *              perfect shuffle, Secs. 2.1.1, 2.1.2)
 *   tornado    x' = (x + ceil(w/2) - 1) mod w, y' = (y + ceil(h/2) - 1)
 *              mod h on the grid (BookSim's k-ary 2-cube tornado)
 *   neighbor   x' = (x + 1) mod w, y' = (y + 1) mod h
 *   randperm   perm[s], Fisher-Yates from the seed
 */
static u32 perm_dest(const struct hn_tgen *g, u32 s)
{
	u32 N = g->t.nodes, n, d = 0, i, x, y;

	switch (g->t.pattern) {
	case HN_PAT_TRANSPOSE:
		n = isqrt(N);
		return (s % n) * n + s / n;
	case HN_PAT_BITCOMP:
		return (N - 1) ^ s;
	case HN_PAT_BITREV:
		for (i = 0; i < g->bits; i++)
			if (s & (1u << i))
				d |= 1u << (g->bits - 1 - i);
		return d;
	case HN_PAT_SHUFFLE:
		if (!g->bits)
			return s;
		return ((s << 1) | (s >> (g->bits - 1))) & (N - 1);
	case HN_PAT_TORNADO:
		x = (s % g->w + (g->w + 1) / 2 - 1) % g->w;
		y = (s / g->w + (g->h + 1) / 2 - 1) % g->h;
		return y * g->w + x;
	case HN_PAT_NEIGHBOR:
		x = (s % g->w + 1) % g->w;
		y = (s / g->w + 1) % g->h;
		return y * g->w + x;
	case HN_PAT_RANDPERM:
		return g->perm[s];
	default:
		return s;
	}
}

bool hn_tgen_active(const struct hn_tgen *g, u32 src)
{
	if (src >= g->t.nodes)
		return false;
	if (g->t.pattern == HN_PAT_SCATTER)
		return src == g->t.root;
	if (is_perm(g->t.pattern))
		return perm_dest(g, src) != src;
	return true;
}

/* uniform: d = (s + 1 + U[0, N-2]) mod N, never s itself */
static u32 uniform(const struct hn_tgen *g, u32 s, u64 *rng)
{
	return (s + 1 + hn_rand_below(rng, g->t.nodes - 1)) % g->t.nodes;
}

/*
 * Woods-Corwin's localized traffic on FT(L, W) ([W:922-924]): the
 * common ancestor of s and d is at level l w.p. 2^-l for l < L, the rest at
 * level L; d is uniform over the nodes whose nearest common ancestor with s
 * is at level l: under s's subtree of W^l nodes, not under its subtree of
 * W^(l-1) (a subtree's nodes are numbered consecutively: test_traffic.c).
 */
static u32 localized(const struct hn_tgen *g, u32 s, u64 *rng)
{
	u32 l = 1, big = g->width, small = 1, base, k;

	while (l < g->levels && hn_rand_below(rng, 2)) {
		l++;
		small = big;
		big *= g->width;
	}
	base = s - s % big;
	k = hn_rand_below(rng, big - small);
	if (k >= s - s % small - base)		/* past s's own subtree */
		k += small;
	return base + k;
}

/* The next ordered-mesh destination: the directions in turn. */
static u32 ordered(const struct hn_tgen *g, struct hn_tnode *n, u32 s,
		   u32 dirs)
{
	return mesh(g, s, mod64(n->pred++, dirs));
}

/*
 * The next destination of @src, or HN_NONE if @src never sends.
 *   uniform, random-to-all  uniform over the other N - 1 (Sec. 1.1.3: Ch. 1's
 *                random traffic; BookSim's uniform also draws s itself)
 *   hotspot      w.p. hot_ppm a node of the hot set drawn uniformly
 *                (Pfister and Norton); if that is s, or otherwise, uniform
 *   scatter      root r only: d = (r + 1 + i mod (N - 1)) mod N (Sec. 5.5.2)
 *   all-to-all   d = (s + 1 + i mod (N - 1)) mod N: the pairwise exchange
 *                whose step j is the permutation s -> s + j (Sec. 2.3.1)
 *   ordered-mesh the four neighbours in turn: direction i mod 4 (Sec. 5.5.2:
 *                four destinations per processor)
 *   random-mesh  a neighbour drawn uniformly: no order to predict (Sec. 5.5.2)
 *   two-phase    per round of N - 1 + R messages (R = rmesh_msgs = 16):
 *                all-to-all steps 1..N-1, then R random-mesh (Sec. 5.5.2)
 *   mixed        w.p. pred_ppm the next ordered-mesh destination over the
 *                first dirs directions, else uniform (Sec. 4.6.1: interleaved)
 *   phased       per phase_msgs messages: the first
 *                floor(phase_msgs x pred) ordered-mesh, the rest uniform
 *                (Sec. 4.6.2: each kind in its own phase; the network is not told
 *                where phases begin); hn_tgen_phase() numbers the phases,
 *                which the run driver keeps global (hn_tcfg.phases)
 *   localized    on FT(L, W), the common ancestor at level l w.p. 2^-l (the
 *                rest at L), then uniform at that distance (Woods-Corwin)
 */
u32 hn_tgen_dest(struct hn_tgen *g, u32 src)
{
	const struct hn_tcfg *t = &g->t;
	u32 N = t->nodes, d;
	struct hn_tnode *n;
	u64 i, j;

	if (src >= N)
		return HN_NONE;
	n = &g->node[src];
	i = n->count++;
	switch (t->pattern) {
	case HN_PAT_HOTSPOT:
		if (hn_rand_below(&n->rng, HN_PPM) < t->hot_ppm) {
			d = t->hot[hn_rand_below(&n->rng, t->nhot)];
			if (d != src)
				return d;
		}
		return uniform(g, src, &n->rng);
	case HN_PAT_LOCALIZED:
		return localized(g, src, &n->rng);
	case HN_PAT_SCATTER:
		if (src != t->root)
			return HN_NONE;
		return (src + 1 + mod64(i, N - 1)) % N;
	case HN_PAT_ALLTOALL:
		return (src + 1 + mod64(i, N - 1)) % N;
	case HN_PAT_OMESH:
		return mesh(g, src, mod64(i, 4));
	case HN_PAT_RMESH:
		return mesh(g, src, hn_rand_below(&n->rng, 4));
	case HN_PAT_TWOPHASE:
		j = mod64(i, N - 1 + t->rmesh_msgs);
		if (j < N - 1)
			return (src + 1 + (u32)j) % N;
		return mesh(g, src, hn_rand_below(&n->rng, 4));
	case HN_PAT_MIXED:
		if (hn_rand_below(&n->rng, HN_PPM) < t->pred_ppm)
			return ordered(g, n, src, t->dirs);
		return uniform(g, src, &n->rng);
	case HN_PAT_PHASED:
		j = mod64(i, t->phase_msgs);
		if (j < hn_div((u64)t->phase_msgs * t->pred_ppm, HN_PPM))
			return ordered(g, n, src, t->dirs);
		return uniform(g, src, &n->rng);
	case HN_PAT_UNIFORM:
	case HN_PAT_RAND2ALL:
		return uniform(g, src, &n->rng);
	default:
		d = perm_dest(g, src);
		return d == src ? HN_NONE : d;
	}
}

/* The size of @src's next message, from the same stream as its dests. */
u32 hn_tgen_size(struct hn_tgen *g, u32 src)
{
	const struct hn_tcfg *t = &g->t;
	u64 *rng = &g->node[src].rng;

	switch (t->size_dist) {
	case HN_SIZE_UNIFORM:
		return t->size + hn_rand_below(rng, t->size_max - t->size + 1);
	case HN_SIZE_BIMODAL:
		return hn_rand_below(rng, HN_PPM) < t->large_ppm ?
		       t->size_max : t->size;
	default:
		return t->size;
	}
}

/*
 * Bernoulli: the time of @src's next message, the end of the first cycle
 * after the last one whose trial succeeds with probability g->p32 / 2^32.
 */
u64 hn_tgen_next_ns(struct hn_tgen *g, u32 src)
{
	struct hn_tnode *n = &g->node[src];

	do {
		n->cycle++;
	} while ((hn_rand(&n->irng) >> 32) >= g->p32);
	return n->cycle * g->t.cycle_ns;
}

/* Bernoulli: @src's PE makes no trial before @t (it waited at a barrier). */
void hn_tgen_skip(struct hn_tgen *g, u32 src, u64 t)
{
	struct hn_tnode *n = &g->node[src];
	u64 c = hn_div(t, g->t.cycle_ns);

	if (c > n->cycle)
		n->cycle = c;
}

/* phased: ordered-mesh messages at the start of each phase pair */
static u64 phase_ord(const struct hn_tcfg *t)
{
	return hn_div((u64)t->phase_msgs * t->pred_ppm, HN_PPM);
}

/* phased with both kinds of phase: the phases have boundaries to keep */
static bool two_kinds(const struct hn_tcfg *t)
{
	u64 ord = phase_ord(t);

	return t->pattern == HN_PAT_PHASED && ord && ord < t->phase_msgs;
}

/*
 * The communication phase of @src's next message (the one the next
 * hn_tgen_dest() draws): 2 r for the ordered-mesh phase of pair r, 2 r + 1
 * for its random phase; 0 for every message of the other patterns, and of
 * phased when one kind is empty (ratio 0 or 1: one phase only).  *@random:
 * the message belongs to a random phase (phased only).
 */
u32 hn_tgen_phase(const struct hn_tgen *g, u32 src, bool *random)
{
	const struct hn_tcfg *t = &g->t;
	u64 i, j, r;

	*random = false;
	if (t->pattern != HN_PAT_PHASED || src >= t->nodes)
		return 0;
	i = g->node[src].count;
	r = hn_div(i, t->phase_msgs);
	j = i - r * t->phase_msgs;
	*random = j >= phase_ord(t);
	if (!two_kinds(t))
		return 0;
	return (u32)hn_min64(2 * r + (*random ? 1 : 0), HN_NONE - 1);
}

/*
 * Messages each node sends in phase @phase (hn_tgen_phase()) when it sends
 * @limit in all (HN_U64_MAX: no limit); 0 past the last.
 */
u64 hn_tgen_phase_msgs(const struct hn_tgen *g, u32 phase, u64 limit)
{
	const struct hn_tcfg *t = &g->t;
	u64 ord = phase_ord(t), lo, hi;

	if (!two_kinds(t))
		return phase ? 0 : limit;
	lo = (u64)(phase / 2) * t->phase_msgs + ((phase & 1) ? ord : 0);
	hi = (phase & 1) ? lo + t->phase_msgs - ord : lo + ord;
	if (lo >= limit)
		return 0;
	return hn_min64(hi, limit) - lo;
}

/*
 * The plan: the configurations a compiler would preload for the pattern
 * (Secs. 4.2.2, 5.2.3), in groups of @slots slots.  Group g, slot j:
 *   mesh patterns  direction g slots + j (of the D = 4 directions, or dirs
 *                  for mixed and phased): s -> neighbour, for every s
 *   uniform, random-to-all, hotspot, all-to-all
 *                  shift m = g slots + j + 1 <= N - 1: s -> s + m, for all s
 *   scatter        shift m likewise, for the root only
 *   two-phase      the all-to-all groups, then the four-direction mesh
 *   permutations   one group, slot 0: s -> f(s) for every non-fixed s
 */
static u32 mesh_dirs(const struct hn_tcfg *t)
{
	return t->pattern == HN_PAT_MIXED || t->pattern == HN_PAT_PHASED ?
	       t->dirs : 4;
}

static u32 ceil_div(u32 a, u32 b)
{
	return (a + b - 1) / b;
}

u32 hn_tgen_groups(const struct hn_tgen *g, u32 slots)
{
	const struct hn_tcfg *t = &g->t;

	if (!slots)
		return 0;
	if (is_perm(t->pattern))
		return 1;
	if (t->pattern == HN_PAT_TWOPHASE)
		return ceil_div(t->nodes - 1, slots) + ceil_div(4, slots);
	if (is_mesh(t->pattern))
		return ceil_div(mesh_dirs(t), slots);
	return ceil_div(t->nodes - 1, slots);
}

u32 hn_tgen_plan(const struct hn_tgen *g, u32 slots, u32 group, u32 j,
		 struct hn_pair *pairs)
{
	const struct hn_tcfg *t = &g->t;
	u32 N = t->nodes, s, n = 0, m, d, g1;

	if (!slots || j >= slots || group >= hn_tgen_groups(g, slots))
		return 0;
	m = group * slots + j;
	if (is_perm(t->pattern)) {
		for (s = 0; s < N && !m; s++) {
			d = perm_dest(g, s);
			if (d != s)
				pairs[n++] = (struct hn_pair){ s, d };
		}
		return n;
	}
	if (t->pattern == HN_PAT_TWOPHASE) {
		g1 = ceil_div(N - 1, slots);
		if (group >= g1) {
			m = (group - g1) * slots + j;
			goto mesh;
		}
	} else if (is_mesh(t->pattern)) {
		goto mesh;
	}
	if (m + 1 > N - 1)
		return 0;
	if (t->pattern == HN_PAT_SCATTER) {
		pairs[0] = (struct hn_pair){ t->root, (t->root + m + 1) % N };
		return 1;
	}
	for (s = 0; s < N; s++)
		pairs[n++] = (struct hn_pair){ s, (s + m + 1) % N };
	return n;
mesh:
	if (m >= (t->pattern == HN_PAT_TWOPHASE ? 4 : mesh_dirs(t)))
		return 0;
	for (s = 0; s < N; s++)
		pairs[n++] = (struct hn_pair){ s, mesh(g, s, m) };
	return n;
}
