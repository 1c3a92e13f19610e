// SPDX-License-Identifier: GPL-2.0
/*
 * test_match.c - crossbar matching (kmod/core/xbar.c) against Ding's Ch. 6:
 * the worked example of Figs. 6.1-6.4
 * (Secs. 6.3, 6.4.1; note C6), K = 1 is greedy
 * (Sec. 6.5.3, C3), K = 2N-1 is a maximum matching (Sec. 6.2, C4) against
 * Hopcroft-Karp and an independent augmenting-path search, every round adds
 * exactly one edge (Sec. 6.4.1; C5), the same paths as the thesis' stage
 * sets taken literally, and bad input.
 */
#include "harness.h"
#include "hn_sched.h"

/* ---- an independent reference: Kuhn's augmenting paths, recursive ---- */
struct ref {
	u32 n;
	const unsigned char *adj;	/* n * n */
	u32 *mx, *my;
	unsigned char *vis;
};

static int ref_try(struct ref *r, u32 u)
{
	u32 v;

	for (v = 0; v < r->n; v++) {
		if (!r->adj[u * r->n + v] || r->vis[v])
			continue;
		r->vis[v] = 1;
		if (r->my[v] == HN_NONE || ref_try(r, r->my[v])) {
			r->mx[u] = v;
			r->my[v] = u;
			return 1;
		}
	}
	return 0;
}

static u32 ref_max_matching(u32 n, const unsigned char *adj)
{
	struct ref r = { .n = n, .adj = adj };
	u32 u, size = 0;

	r.mx = malloc(n * sizeof(u32));
	r.my = malloc(n * sizeof(u32));
	r.vis = malloc(n);
	for (u = 0; u < n; u++)
		r.mx[u] = r.my[u] = HN_NONE;
	for (u = 0; u < n; u++) {
		memset(r.vis, 0, n);
		size += ref_try(&r, u);
	}
	free(r.mx);
	free(r.my);
	free(r.vis);
	return size;
}

/*
 * ---- the thesis' detection and isolation taken literally (Figs. 6.6-6.7,
 * errata of A14): A[1] the free xs with a request, Ymask the OR of U's rows
 * of every x of A[s], A[s+2] the mates of Ymask, stop at the first Ymask
 * with a free y or when A[s+2] adds nothing to the union; the walk back
 * takes the lowest free y, then at each stage the lowest x of A[t] next to
 * the walk's y.  Plain arrays, no bitmaps: what xbar.c must equal. ----
 */
struct lit {
	u32 n;
	const unsigned char *adj;	/* R, n * n */
	u32 *mx, *my;
	unsigned char *a;		/* A[1], A[3], ...: n sets of n */
	unsigned char *y, *cum;
};

static int lit_augment(struct lit *l, u32 k, u32 *path, u64 *steps)
{
	u32 n = l->n, j = 0, s = 1, t, u, v, i;
	unsigned char *a = l->a;
	int any = 0, hit, sub;

	for (u = 0; u < n; u++) {
		a[u] = 0;
		for (v = 0; v < n && l->mx[u] == HN_NONE; v++)
			a[u] |= l->adj[u * n + v];
		l->cum[u] = a[u];
		any |= a[u];
	}
	if (!any)
		return 0;
	for (;;) {
		memset(l->y, 0, n);
		for (u = 0; u < n; u++)
			for (v = 0; v < n && a[u]; v++)
				if (l->adj[u * n + v] && l->mx[u] != v)
					l->y[v] = 1;
		(*steps)++;
		for (v = 0, hit = 0; v < n; v++)
			hit |= l->y[v] && l->my[v] == HN_NONE;
		if (hit)
			break;
		if (s + 2 > k)
			return 0;
		a += n;
		memset(a, 0, n);
		for (v = 0; v < n; v++)
			if (l->y[v])
				a[l->my[v]] = 1;
		(*steps)++;
		for (u = 0, sub = 0; u < n; u++) {
			sub |= a[u] && !l->cum[u];
			l->cum[u] |= a[u];
		}
		if (!sub)
			return 0;
		j++;
		s += 2;
	}
	for (v = 0; !l->y[v] || l->my[v] != HN_NONE; v++)
		;
	for (t = j + 1; t-- > 0;) {
		a = l->a + (size_t)t * n;
		for (u = 0; !a[u] || !l->adj[u * n + v] || l->mx[u] == v; u++)
			;
		path[2 * t] = u;
		path[2 * t + 1] = v;
		if (t)
			v = l->mx[u];
	}
	for (i = 0; i <= j; i++) {
		l->mx[path[2 * i]] = path[2 * i + 1];
		l->my[path[2 * i + 1]] = path[2 * i];
	}
	return 2 * j + 1;
}

/* random distinct requests; returns how many */
static u32 random_requests(u64 *seed, u32 n, u32 want, struct hn_pair *req,
			   unsigned char *adj)
{
	u32 i = 0;

	memset(adj, 0, n * n);
	if (want > n * n)
		want = n * n;
	while (i < want) {
		u32 u = hn_rand_below(seed, n), v = hn_rand_below(seed, n);

		if (adj[u * n + v])
			continue;
		adj[u * n + v] = 1;
		req[i].src = u;
		req[i].dst = v;
		i++;
	}
	return i;
}

/* M is a matching inside the requests: checked without the library */
static int legal_matching(struct hn_xbar *x, u32 n, const unsigned char *adj)
{
	unsigned char *used = calloc(n, 1);
	u32 u, v, size = 0;
	int ok = 1;

	for (u = 0; u < n; u++) {
		v = hn_xbar_mate(x, u);
		if (v == HN_NONE)
			continue;
		size++;
		if (v >= n || !adj[u * n + v] || used[v])
			ok = 0;
		else
			used[v] = 1;
	}
	free(used);
	return ok && size == hn_xbar_size(x) && !hn_xbar_check(x, NULL);
}

static int is_matched_y(struct hn_xbar *x, u32 n, u32 y)
{
	u32 u;

	for (u = 0; u < n; u++)
		if (hn_xbar_mate(x, u) == y)
			return 1;
	return 0;
}

/*
 * Figs. 6.1-6.4 with the thesis' 1-based names (n = 6, node 0 unused:
 * "XMask[1] is {0 0 0 0 1 0}", Sec. 6.4.1).  After greedy only x4 is free; from
 * x4 the unsaturated edges reach y3 and y5 (stage 1), whose mates are x5
 * and x3 (stage 2); those reach y2, y4, y5 (stage 3); y4 is free (Sec. 6.4.1).
 * 11 edges as e1..e11 of Fig. 6.1 (Sec. 6.3).
 */
static const struct hn_pair fig61_req[11] = {
	{ 1, 1 }, { 1, 2 }, { 2, 1 }, { 2, 2 }, { 3, 2 }, { 3, 5 },
	{ 4, 3 }, { 4, 5 }, { 5, 3 }, { 5, 4 }, { 5, 5 },
};

static const struct hn_pair fig61_match[4] = {
	{ 1, 1 }, { 2, 2 }, { 3, 5 }, { 5, 3 },
};

TEST(fig6_1_augmenting_path)
{
	struct hn_xbar *x;
	u32 path[12], len = 0;
	u64 steps = 0;

	ASSERT_EQ(0, hn_xbar_create(6, &x, NULL));
	ASSERT_EQ(0, hn_xbar_set_requests(x, fig61_req, 11, NULL));
	ASSERT_EQ(0, hn_xbar_set_match(x, fig61_match, 4, NULL));
	ASSERT_EQ(4, hn_xbar_size(x));
	/* no augmenting path of length 1: greedy's result stands */
	ASSERT_EQ(0, hn_xbar_augment(x, 1, path, &len, &steps));
	EXPECT_EQ(1, steps);		/* stage 1 only */
	/* K = 3: "x_4 -> y_3 -> x_5 -> y_4" (Sec. 6.4.1) */
	steps = 0;
	ASSERT_EQ(1, hn_xbar_augment(x, 3, path, &len, &steps));
	EXPECT_EQ(3, len);
	EXPECT_EQ(3, steps);		/* stages 1, 2 and 3 */
	EXPECT_EQ(4, path[0]);
	EXPECT_EQ(3, path[1]);
	EXPECT_EQ(5, path[2]);
	EXPECT_EQ(4, path[3]);
	/* remove {x5,y3}, add {x4,y3} and {x5,y4} (Sec. 6.4.1) */
	EXPECT_EQ(5, hn_xbar_size(x));
	EXPECT_EQ(3, hn_xbar_mate(x, 4));
	EXPECT_EQ(4, hn_xbar_mate(x, 5));
	EXPECT_EQ(1, hn_xbar_mate(x, 1));
	EXPECT_EQ(2, hn_xbar_mate(x, 2));
	EXPECT_EQ(5, hn_xbar_mate(x, 3));
	EXPECT_EQ(HN_NONE, hn_xbar_mate(x, 0));
	EXPECT_EQ(0, hn_xbar_check(x, NULL));
	/* every sender with a request is matched: nothing more to find */
	EXPECT_EQ(0, hn_xbar_augment(x, 11, NULL, NULL, NULL));
	EXPECT_EQ(5, hn_xbar_hopcroft_karp(x, NULL));
	hn_xbar_destroy(x);
}

/* Row-major first fit: lowest sender first, its lowest free receiver. */
TEST(greedy_first_fit)
{
	static const struct hn_pair req[] = {
		{ 0, 1 }, { 0, 2 }, { 1, 1 }, { 2, 0 }, { 2, 1 }, { 3, 3 },
	};
	struct hn_xbar *x;

	ASSERT_EQ(0, hn_xbar_create(4, &x, NULL));
	ASSERT_EQ(0, hn_xbar_set_requests(x, req, 6, NULL));
	EXPECT_EQ(3, hn_xbar_greedy(x));
	EXPECT_EQ(1, hn_xbar_mate(x, 0));
	EXPECT_EQ(HN_NONE, hn_xbar_mate(x, 1));	/* y1 taken by x0 */
	EXPECT_EQ(0, hn_xbar_mate(x, 2));
	EXPECT_EQ(3, hn_xbar_mate(x, 3));
	/* x1 -> y1 -> x0 -> y2 is the one augmenting path */
	EXPECT_EQ(4, hn_xbar_kstep(x, 3, 0, NULL, NULL));
	EXPECT_EQ(1, hn_xbar_mate(x, 1));
	EXPECT_EQ(2, hn_xbar_mate(x, 0));
	hn_xbar_destroy(x);
}

/*
 * Thousands of random request sets over N = 2..48 and loads up to 8:
 * K = 1 changes nothing after greedy; every round adds exactly one edge and
 * keeps a legal matching; path lengths never decrease; K = 2N-1 gives the
 * maximum (Hopcroft-Karp and the recursive reference agree); and the
 * result of every K is the prefix of the rounds with length <= K.
 */
TEST(kstep_random)
{
	struct hn_pair *req = malloc(48 * 48 * sizeof(*req));
	unsigned char *adj = malloc(48 * 48);
	u32 *lens = malloc(48 * sizeof(u32));
	u64 seed = 12345;
	u32 t, sets = 3000, nonopt = 0;

	ASSERT_NE(NULL, req);
	for (t = 0; t < sets; t++) {
		u32 n = 2 + hn_rand_below(&seed, 47);
		u32 nreq = hn_rand_below(&seed, 8 * n + 1);
		u32 g, size, len, rounds, k, maxm, i, greedy_mate[48];
		struct hn_sched_result res = { 0 };
		struct hn_xbar *x, *h;

		nreq = random_requests(&seed, n, nreq, req, adj);
		ASSERT_EQ(0, hn_xbar_create(n, &x, NULL));
		ASSERT_EQ(0, hn_xbar_create(n, &h, NULL));
		ASSERT_EQ(0, hn_xbar_set_requests(x, req, nreq, NULL));
		ASSERT_EQ(0, hn_xbar_set_requests(h, req, nreq, NULL));
		g = hn_xbar_greedy(x);
		ASSERT_TRUE(legal_matching(x, n, adj));
		for (i = 0; i < n; i++)
			greedy_mate[i] = hn_xbar_mate(x, i);
		/* C3: K = 1 is greedy, edge for edge */
		ASSERT_EQ(g, hn_xbar_kstep(x, 1, 0, NULL, NULL));
		for (i = 0; i < n; i++)
			ASSERT_EQ(greedy_mate[i], hn_xbar_mate(x, i));
		/* C5 and C4, round by round */
		rounds = 0;
		size = g;
		while (hn_xbar_augment(x, 2 * n - 1, NULL, &len, NULL) == 1) {
			ASSERT_EQ(size + 1, hn_xbar_size(x));
			ASSERT_TRUE(legal_matching(x, n, adj));
			ASSERT_EQ(1, len % 2);
			if (rounds)
				ASSERT_LE(lens[rounds - 1], len);
			lens[rounds++] = len;
			size++;
		}
		maxm = hn_xbar_hopcroft_karp(h, NULL);
		ASSERT_TRUE(legal_matching(h, n, adj));
		ASSERT_EQ(maxm, size);
		ASSERT_EQ(maxm, ref_max_matching(n, adj));
		nonopt += g < maxm;
		/* every K: a fresh greedy + K-step equals the prefix count */
		for (k = 1; k <= 2 * n - 1; k += 1 + (k > 15) * 6) {
			u32 want = g;

			for (i = 0; i < rounds; i++)
				want += lens[i] <= k;
			hn_xbar_clear_match(h);
			ASSERT_EQ(g, hn_xbar_greedy(h));
			ASSERT_EQ(want, hn_xbar_kstep(h, k, 0, NULL, &res));
			ASSERT_TRUE(legal_matching(h, n, adj));
		}
		/* from an empty matching, K = 1 grows a maximal one */
		hn_xbar_clear_match(h);
		while (hn_xbar_augment(h, 1, NULL, &len, NULL) == 1)
			ASSERT_EQ(1, len);
		for (i = 0; i < nreq; i++)
			ASSERT_FALSE(hn_xbar_mate(h, req[i].src) == HN_NONE &&
				     !is_matched_y(h, n, req[i].dst));
		ASSERT_EQ(maxm, hn_xbar_kstep(h, 2 * n - 1, 0, NULL, NULL));
		/* Hopcroft-Karp from greedy's matching too */
		hn_xbar_clear_match(h);
		hn_xbar_greedy(h);
		ASSERT_EQ(maxm, hn_xbar_hopcroft_karp(h, NULL));
		hn_xbar_destroy(x);
		hn_xbar_destroy(h);
	}
	/* the sets are not trivial: greedy often misses the maximum */
	ASSERT_LT(sets / 10, nonopt);
	free(req);
	free(adj);
	free(lens);
}

/* the round cap stops early; 2N-1 on a large set equals Hopcroft-Karp */
TEST(kstep_large_and_capped)
{
	u32 n = 512, nreq, g;
	struct hn_pair *req = malloc(4 * n * sizeof(*req));
	unsigned char *adj = malloc(n * n);
	struct hn_sched_result res = { 0 };
	struct hn_xbar *x;
	u64 seed = 99;

	nreq = random_requests(&seed, n, 2 * n, req, adj);
	ASSERT_EQ(0, hn_xbar_create(n, &x, NULL));
	ASSERT_EQ(0, hn_xbar_set_requests(x, req, nreq, NULL));
	g = hn_xbar_greedy(x);
	ASSERT_EQ(g + 2, hn_xbar_kstep(x, 2 * n - 1, 2, NULL, &res));
	EXPECT_EQ(2, res.rounds);
	hn_xbar_kstep(x, 2 * n - 1, 0, NULL, &res);
	EXPECT_EQ(hn_xbar_size(x) - g, res.rounds);
	ASSERT_TRUE(legal_matching(x, n, adj));
	g = hn_xbar_size(x);
	hn_xbar_clear_match(x);
	EXPECT_EQ(g, hn_xbar_hopcroft_karp(x, NULL));
	EXPECT_EQ(g, ref_max_matching(n, adj));
	hn_xbar_destroy(x);
	free(req);
	free(adj);
}

/*
 * xbar.c need not search as the hardware does, but must choose the same:
 * random sets over N up to 200 (one to four words a row, rows of a few
 * requests and of many), from greedy's matching and from none, several K,
 * one crossbar taking set after set (and sets refused) as predict.c's does.
 * Every round of hn_xbar_augment() takes the literal rounds' path and
 * counts their stages; hn_xbar_kstep() stopped after r rounds holds their
 * matching after r and their path lengths and stages, for every r.
 */
TEST(kstep_literal)
{
	static const u32 sizes[] = { 2, 5, 17, 63, 64, 65, 130, 200 };
	u32 *path = malloc(2 * 200 * sizeof(u32)), *p2 = malloc(2 * 200 * sizeof(u32));
	struct hn_pair *req = malloc((200 * 200 + 1) * sizeof(*req));
	u32 *lens = malloc(200 * sizeof(u32)), *mates = malloc(200 * 200 * sizeof(u32));
	u64 *steps = malloc(201 * sizeof(u64));
	unsigned char *adj = malloc(200 * 200);
	struct lit l;
	u64 seed = 2024;
	u32 si, t, i, u;

	ASSERT_NE(NULL, mates);
	l.mx = malloc(200 * sizeof(u32));
	l.my = malloc(200 * sizeof(u32));
	l.a = malloc(200 * 200);
	l.y = malloc(200);
	l.cum = malloc(200);
	l.adj = adj;
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		struct hn_xbar *x;

		ASSERT_EQ(0, hn_xbar_create(sizes[si], &x, NULL));
		for (t = 0; t < (sizes[si] > 64 ? 6 : 40); t++) {
			static const u32 per_node[] = { 1, 2, 3, 8 };
			u32 n = sizes[si], k, kk, r, rounds, len, nreq;
			u64 lsteps, xsteps;

			l.n = n;
			nreq = t % 5 == 4 ? n * n / 3 : per_node[t % 4] * n;
			nreq = random_requests(&seed, n, nreq, req, adj);
			if (t % 3 == 2) {	/* refused, the last one twice */
				req[nreq] = req[0];
				ASSERT_EQ(-EINVAL, hn_xbar_set_requests(x, req,
									nreq + 1,
									NULL));
				ASSERT_EQ(0, hn_xbar_check(x, NULL));
			}
			ASSERT_EQ(0, hn_xbar_set_requests(x, req, nreq, NULL));
			for (kk = 0; kk < 4; kk++) {
				k = kk == 3 ? 2 * n - 1 : 2 * kk + 3;
				if (k > 2 * n - 1)
					k = 2 * n - 1;
				hn_xbar_clear_match(x);
				if (t & 1)
					hn_xbar_greedy(x);
				for (u = 0; u < n; u++)
					l.mx[u] = l.my[u] = HN_NONE;
				for (u = 0; u < n; u++)
					if (hn_xbar_mate(x, u) != HN_NONE) {
						l.mx[u] = hn_xbar_mate(x, u);
						l.my[l.mx[u]] = u;
					}
				/* the literal rounds, and augment's, side by side */
				lsteps = 0;
				xsteps = 0;
				for (rounds = 0;; rounds++) {
					len = lit_augment(&l, k, path, &lsteps);
					ASSERT_EQ(len ? 1 : 0,
						  hn_xbar_augment(x, k, p2, &r,
								  &xsteps));
					ASSERT_EQ(lsteps, xsteps);
					steps[rounds] = lsteps;
					if (!len)
						break;
					ASSERT_EQ(len, r);
					for (i = 0; i <= len; i++)
						ASSERT_EQ(path[i], p2[i]);
					lens[rounds] = len;
					for (u = 0; u < n; u++)
						mates[rounds * n + u] = l.mx[u];
				}
				/* K-step stopped after r rounds, for every r */
				for (r = 1; r <= rounds + 1; r++) {
					struct hn_sched_result res = { 0 };
					u32 got[200], want = r <= rounds ? r : rounds;

					hn_xbar_clear_match(x);
					if (t & 1)
						hn_xbar_greedy(x);
					hn_xbar_kstep(x, k, r, got, &res);
					ASSERT_EQ(want, res.rounds);
					ASSERT_EQ(steps[r - 1], res.steps);
					for (i = 0; i < want; i++)
						ASSERT_EQ(lens[i], got[i]);
					for (u = 0; u < n && want; u++)
						ASSERT_EQ(mates[(want - 1) * n + u],
							  hn_xbar_mate(x, u));
					ASSERT_EQ(0, hn_xbar_check(x, NULL));
				}
			}
		}
		hn_xbar_destroy(x);
	}
	free(path);
	free(p2);
	free(req);
	free(lens);
	free(mates);
	free(steps);
	free(adj);
	free(l.mx);
	free(l.my);
	free(l.a);
	free(l.y);
	free(l.cum);
}

/* a permutation plus random requests always has a perfect matching */
TEST(mixed_complete)
{
	u32 n = 64, t, i;
	struct hn_pair req[64 * 5];
	unsigned char adj[64 * 64];
	u64 seed = 7;

	for (t = 0; t < 50; t++) {
		u32 perm[64], nreq = 0, j;
		struct hn_xbar *x;

		for (i = 0; i < n; i++)
			perm[i] = i;
		for (i = n - 1; i > 0; i--) {
			u32 tmp = perm[i];

			j = hn_rand_below(&seed, i + 1);
			perm[i] = perm[j];
			perm[j] = tmp;
		}
		memset(adj, 0, sizeof(adj));
		for (i = 0; i < n; i++) {
			req[nreq].src = i;
			req[nreq++].dst = perm[i];
			adj[i * n + perm[i]] = 1;
		}
		while (nreq < 5 * n) {
			u32 u = hn_rand_below(&seed, n), v = hn_rand_below(&seed, n);

			if (adj[u * n + v])
				continue;
			adj[u * n + v] = 1;
			req[nreq].src = u;
			req[nreq++].dst = v;
		}
		ASSERT_EQ(0, hn_xbar_create(n, &x, NULL));
		ASSERT_EQ(0, hn_xbar_set_requests(x, req, nreq, NULL));
		hn_xbar_greedy(x);
		EXPECT_EQ(n, hn_xbar_kstep(x, 2 * n - 1, 0, NULL, NULL));
		hn_xbar_destroy(x);
	}
}

TEST(sched_run_crossbar)
{
	struct hn_sched_params p = {
		.topology = HN_TOPO_CROSSBAR, .nodes = 6, .k = 3,
		.algo = HN_SCHED_KSTEP,
	};
	struct hn_route out[11];
	struct hn_sched_result res;
	u32 i, granted = 0;

	ASSERT_EQ(0, hn_sched_run(&p, fig61_req, 11, out, &res, NULL));
	EXPECT_EQ(11, res.requests);
	EXPECT_EQ(5, res.granted);
	for (i = 0; i < 11; i++) {
		EXPECT_EQ(fig61_req[i].src, out[i].src);
		EXPECT_EQ(fig61_req[i].dst, out[i].dst);
		granted += out[i].granted;
	}
	EXPECT_EQ(5, granted);
	p.algo = HN_SCHED_HOPCROFT_KARP;
	ASSERT_EQ(0, hn_sched_run(&p, fig61_req, 11, out, &res, NULL));
	EXPECT_EQ(5, res.granted);
	p.algo = HN_SCHED_GREEDY;
	ASSERT_EQ(0, hn_sched_run(&p, fig61_req, 11, out, &res, NULL));
	EXPECT_EQ(5, res.granted);	/* x1y1 x2y2 x3y5 x4y3 x5y4 */
	p.algo = HN_SCHED_KSTEP;
	p.k = 1000;			/* clamped to 2N - 1 */
	ASSERT_EQ(0, hn_sched_run(&p, fig61_req, 11, out, &res, NULL));
	EXPECT_EQ(5, res.granted);
	EXPECT_EQ(HN_SCHED_KSTEP, hn_sched_algo_parse("kstep"));
	EXPECT_EQ(HN_SCHED_OPTIMAL, hn_sched_algo_parse("optimal"));
	EXPECT_EQ(-EINVAL, hn_sched_algo_parse("best"));
	EXPECT_EQ(-EINVAL, hn_sched_algo_parse(NULL));
	EXPECT_STREQ("hopcroft-karp",
		     hn_sched_algo_name(HN_SCHED_HOPCROFT_KARP));
	EXPECT_EQ(NULL, hn_sched_algo_name(HN_SCHED_NALGOS));
}

TEST(bad_input)
{
	static const struct hn_pair dup[] = { { 0, 1 }, { 2, 3 }, { 0, 1 } };
	static const struct hn_pair far[] = { { 0, 1 }, { 4, 0 } };
	static const struct hn_pair two[] = { { 0, 1 }, { 2, 1 } };
	struct hn_sched_params p = {
		.topology = HN_TOPO_CROSSBAR, .nodes = 4,
		.algo = HN_SCHED_KSTEP, .k = 0,
	};
	struct hn_sched_result res;
	struct hn_route out[4];
	struct hn_err err = { 0 };
	struct hn_xbar *x;

	EXPECT_EQ(-EINVAL, hn_xbar_create(1, &x, &err));
	EXPECT_EQ(NULL, x);
	EXPECT_NE(NULL, err.msg);
	EXPECT_EQ(-EINVAL, hn_xbar_create(4097, &x, &err));
	EXPECT_EQ(-EINVAL, hn_xbar_create(4, NULL, &err));
	ASSERT_EQ(0, hn_xbar_create(4, &x, &err));
	err.msg = NULL;
	EXPECT_EQ(-EINVAL, hn_xbar_set_requests(x, dup, 3, &err));
	EXPECT_STREQ("request given twice", err.msg);
	EXPECT_EQ(2, err.index);
	EXPECT_EQ(0, hn_xbar_greedy(x));	/* refused: R left empty */
	EXPECT_EQ(-EINVAL, hn_xbar_set_requests(x, far, 2, &err));
	EXPECT_EQ(1, err.index);
	EXPECT_EQ(4, err.node);
	EXPECT_EQ(-EINVAL, hn_xbar_set_requests(x, NULL, 2, &err));
	ASSERT_EQ(0, hn_xbar_set_requests(x, two, 2, &err));
	EXPECT_EQ(-EINVAL, hn_xbar_set_match(x, two, 2, &err));
	EXPECT_EQ(1, err.index);
	EXPECT_EQ(-EINVAL, hn_xbar_set_match(x, dup + 1, 1, &err));
	EXPECT_EQ(-EINVAL, hn_xbar_augment(x, 0, NULL, NULL, NULL));
	EXPECT_EQ(0, hn_xbar_check(x, NULL));
	hn_xbar_destroy(x);
	hn_xbar_destroy(NULL);

	EXPECT_EQ(-EINVAL, hn_sched_run(&p, two, 2, out, &res, &err));
	EXPECT_NE(NULL, strstr(err.msg, "K >= 1"));
	p.k = 3;
	p.flags = HN_SCHED_REQUEST_MAJOR;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, two, 2, out, &res, &err));
	p.flags = 0;
	p.algo = HN_SCHED_LEVELWISE;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, two, 2, out, &res, &err));
	p.algo = 99;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, two, 2, out, &res, &err));
	p.algo = HN_SCHED_GREEDY;
	p.nodes = 1;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, two, 2, out, &res, &err));
	p.nodes = 4;
	p.topology = 7;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, two, 2, out, &res, &err));
	p.topology = HN_TOPO_CROSSBAR;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, dup, 3, out, &res, &err));
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, two, 2, NULL, &res, &err));
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, two, 2, out, NULL, &err));
	EXPECT_EQ(-EINVAL, hn_sched_run(NULL, two, 2, out, &res, &err));
	EXPECT_EQ(0, hn_sched_run(&p, two, 2, out, &res, &err));
	EXPECT_EQ(1, res.granted);
}

TEST_HARNESS_MAIN
