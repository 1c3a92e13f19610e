// SPDX-License-Identifier: GPL-2.0
/*
 * test_fattree.c - fat trees and their schedulers (kmod/core/fattree.c,
 * ftsched.c) against Ding's Ch. 7 and the
 * SC2006 paper: the node 3 to node 95
 * route in FT(4,4) (Sec. 7.4, paper Sec. 4; note C17), the two-request
 * conflict of Fig. 7.4 (Sec. 7.4, paper Sec. 4; C18), the symmetry theorem on
 * random routes (Sec. 7.3, paper Sec. 3; C16), legality of every schedule, the optimal
 * scheduler on every random permutation, and bad input.
 */
#include "harness.h"
#include "hn_sched.h"
#include "workload.h"		/* hn_wl_perm(), as hnsim sched draws */

/* ---- independent arithmetic: base-w digit vectors ---- */
struct digits {
	u32 l, w;
	u32 d[HN_FT_MAX_LEVELS];	/* d[i] = digit i, i < l - 1 */
};

static void to_digits(struct digits *t, u32 l, u32 w, u32 tau)
{
	u32 i;

	t->l = l;
	t->w = w;
	for (i = 0; i + 1 < l; i++) {
		t->d[i] = tau % w;
		tau /= w;
	}
}

static u32 from_digits(const struct digits *t)
{
	u32 i, v = 0;

	for (i = t->l - 1; i-- > 0;)
		v = v * t->w + t->d[i];
	return v;
}

/* "keep t_{l-2}..t_{h+1}, drop t_h, shift t_{h-1}..t_0 up, P in digit 0" */
static u32 ref_parent(u32 l, u32 w, u32 h, u32 tau, u32 p)
{
	struct digits t;
	u32 i;

	to_digits(&t, l, w, tau);
	for (i = h; i > 0; i--)
		t.d[i] = t.d[i - 1];
	t.d[0] = p;
	return from_digits(&t);
}

static u32 ref_level(u32 l, u32 w, u32 s, u32 d)
{
	struct digits a, b;
	u32 i;

	to_digits(&a, l, w, s);
	to_digits(&b, l, w, d);
	for (i = l - 1; i-- > 0;)
		if (a.d[i] != b.d[i])
			return i + 1;
	return 0;
}

/*
 * Legality without the library's checker: each granted route meets at its
 * top, uses each directed link and node port once.
 */
static int ref_legal(u32 l, u32 w, const struct hn_route *r, u32 n)
{
	u32 nodes = 1, i, h, s, d, nl;
	unsigned char *used;
	int ok = 1;

	for (i = 0; i < l; i++)
		nodes *= w;
	nl = 2 * l * nodes + 2 * nodes;
	used = calloc(nl, 1);
	for (i = 0; i < n && ok; i++) {
		if (!r[i].granted)
			continue;
		if (used[r[i].src]++ || used[nodes + r[i].dst]++)
			ok = 0;
		s = r[i].src / w;
		d = r[i].dst / w;
		if (r[i].level != ref_level(l, w, s, d))
			ok = 0;
		for (h = 0; h < r[i].level && ok; h++) {
			u32 p = r[i].port[h];
			u32 lu = 2 * nodes + (h * nodes + s * w + p) * 2;

			if (p >= w || used[lu]++)	/* Ulink(h, s, p) */
				ok = 0;
			/* the down link (h, d, p): its own slot */
			lu = 2 * nodes + (h * nodes + d * w + p) * 2 + 1;
			if (used[lu]++)
				ok = 0;
			s = ref_parent(l, w, h, s, p);
			d = ref_parent(l, w, h, d, p);
		}
		if (s != d)
			ok = 0;
	}
	free(used);
	return ok;
}

static u32 ipow(u32 w, u32 l)
{
	u32 n = 1;

	while (l--)
		n *= w;
	return n;
}

TEST(construction_and_naming)
{
	struct hn_ft *ft;
	char buf[32];

	ASSERT_EQ(0, hn_ft_create(4, 4, &ft, NULL));
	EXPECT_EQ(256, hn_ft_nodes(ft));
	EXPECT_EQ(64, hn_ft_switches(ft));
	EXPECT_EQ(4, hn_ft_levels(ft));
	EXPECT_EQ(4, hn_ft_width(ft));
	/* "node 95 is on switch 23 = 113" (Sec. 7.4, paper Sec. 4) */
	EXPECT_EQ(23, hn_ft_leaf(ft, 95));
	EXPECT_EQ(0, hn_ft_leaf(ft, 3));
	EXPECT_EQ(HN_NONE, hn_ft_leaf(ft, 256));
	EXPECT_EQ(9, hn_ft_name(ft, 0, 23, buf, sizeof(buf)));
	EXPECT_STREQ("SW(0,113)", buf);
	EXPECT_EQ(3, hn_ft_digit(ft, 23, 0));
	EXPECT_EQ(1, hn_ft_digit(ft, 23, 1));
	EXPECT_EQ(1, hn_ft_digit(ft, 23, 2));
	EXPECT_EQ(HN_NONE, hn_ft_digit(ft, 23, 3));
	EXPECT_EQ(-ENOSPC, hn_ft_name(ft, 0, 23, buf, 9));
	EXPECT_EQ(-EINVAL, hn_ft_name(ft, 4, 0, buf, sizeof(buf)));
	/* every link free, 4 bits per vector */
	EXPECT_EQ(0xf, hn_ft_links(ft, HN_FT_UP, 2, 63));
	EXPECT_EQ(0, hn_ft_links(ft, HN_FT_UP, 3, 0));	/* top: none */
	hn_ft_destroy(ft);

	ASSERT_EQ(0, hn_ft_create(2, 40, &ft, NULL));
	EXPECT_EQ(8, hn_ft_name(ft, 1, 39, buf, sizeof(buf)));
	EXPECT_STREQ("SW(1,39)", buf);
	hn_ft_destroy(ft);
	ASSERT_EQ(0, hn_ft_create(3, 40, &ft, NULL));
	EXPECT_EQ(11, hn_ft_name(ft, 2, 41, buf, sizeof(buf)));
	EXPECT_STREQ("SW(2,01.01)", buf);
	hn_ft_destroy(ft);
	ASSERT_EQ(0, hn_ft_create(1, 8, &ft, NULL));
	EXPECT_EQ(1, hn_ft_switches(ft));
	EXPECT_EQ(7, hn_ft_name(ft, 0, 0, buf, sizeof(buf)));
	EXPECT_STREQ("SW(0,0)", buf);
	hn_ft_destroy(ft);
}

/* Theorem 3 against digit shuffling, and child() as its inverse */
TEST(parent_formula)
{
	static const u32 shapes[][2] = {
		{ 2, 2 }, { 3, 4 }, { 4, 4 }, { 3, 3 }, { 4, 5 }, { 2, 64 },
		{ 5, 6 }, { 16, 2 }, { 3, 16 }, { 4, 8 }, { 3, 7 },
	};
	u64 seed = 1;
	u32 i, t;

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		u32 l = shapes[i][0], w = shapes[i][1];
		struct hn_ft *ft;

		ASSERT_EQ(0, hn_ft_create(l, w, &ft, NULL));
		for (t = 0; t < 2000; t++) {
			u32 tau = hn_rand_below(&seed, hn_ft_switches(ft));
			u32 h = hn_rand_below(&seed, l - 1);
			u32 p = hn_rand_below(&seed, w), pi, d;

			pi = hn_ft_parent(ft, h, tau, p);
			ASSERT_EQ(ref_parent(l, w, h, tau, p), pi);
			/* down-port d = the dropped digit h leads back */
			d = hn_ft_digit(ft, tau, h);
			ASSERT_EQ(tau, hn_ft_child(ft, h + 1, pi, d));
			ASSERT_EQ(p, pi % w);
			/* and any child reaches its parent by pi mod w */
			d = hn_rand_below(&seed, w);
			ASSERT_EQ(pi, hn_ft_parent(ft, h, hn_ft_child(ft, h + 1,
						   pi, d), pi % w));
		}
		EXPECT_EQ(HN_NONE, hn_ft_parent(ft, l - 1, 0, 0));
		EXPECT_EQ(HN_NONE, hn_ft_parent(ft, 0, 0, w));
		EXPECT_EQ(HN_NONE, hn_ft_child(ft, 0, 0, 0));
		hn_ft_destroy(ft);
	}
}

/*
 * C16, Theorem 4 (Sec. 7.3, paper Sec. 3): on random routes, climbing from sigma_0 and
 * from delta_0 with the same ports P_0..P_{H-1} meets at one switch of
 * level H; walking down physically from there (child() through the down
 * ports that lead to delta_0's digits) uses Dlink(h, delta_h, P_h).  And
 * FT(3,4): SW(0,0) to SW(0,6) turns at level 2 (Sec. 7.3, paper Sec. 3).
 */
TEST(symmetry_theorem)
{
	static const u32 shapes[][2] = {
		{ 3, 4 }, { 4, 4 }, { 2, 8 }, { 5, 3 }, { 6, 4 }, { 12, 2 },
		{ 3, 16 }, { 4, 6 },
	};
	u64 seed = 42;
	u32 i, t, h;
	struct hn_ft *ft;

	ASSERT_EQ(0, hn_ft_create(3, 4, &ft, NULL));
	EXPECT_EQ(2, hn_ft_common_level(ft, 0, 6));
	EXPECT_EQ(0, hn_ft_common_level(ft, 6, 6));
	EXPECT_EQ(1, hn_ft_common_level(ft, 4, 6));
	EXPECT_EQ(HN_NONE, hn_ft_common_level(ft, 16, 6));
	/* P_0 = 1 from SW(0,0) comes back down on Dlink(0,6,1) (Sec. 7.3) */
	for (t = 0; t < 4; t++) {
		u32 top = hn_ft_parent(ft, 1, hn_ft_parent(ft, 0, 0, 1), t);
		u32 mid = hn_ft_child(ft, 2, top, hn_ft_digit(ft, 6, 1));

		EXPECT_EQ(6, hn_ft_child(ft, 1, mid, hn_ft_digit(ft, 6, 0)));
		EXPECT_EQ(1, mid % 4);
	}
	hn_ft_destroy(ft);

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		u32 l = shapes[i][0], w = shapes[i][1];

		ASSERT_EQ(0, hn_ft_create(l, w, &ft, NULL));
		for (t = 0; t < 3000; t++) {
			u32 sw = hn_ft_switches(ft), H;
			u32 s0 = hn_rand_below(&seed, sw);
			u32 d0 = hn_rand_below(&seed, sw);
			u32 s = s0, d = d0, P[HN_FT_MAX_LEVELS];
			u32 dpath[HN_FT_MAX_LEVELS + 1];

			H = hn_ft_common_level(ft, s0, d0);
			ASSERT_EQ(ref_level(l, w, s0, d0), H);
			for (h = 0; h < H; h++) {
				P[h] = hn_rand_below(&seed, w);
				dpath[h] = d;
				s = hn_ft_parent(ft, h, s, P[h]);
				d = hn_ft_parent(ft, h, d, P[h]);
				if (h + 1 < H)	/* not met below level H */
					ASSERT_NE(s, d);
			}
			ASSERT_EQ(s, d);
			/* the physical way down to d0 from the meeting switch */
			for (h = H; h-- > 0;) {
				u32 c = hn_ft_child(ft, h + 1, s,
						    hn_ft_digit(ft, d0, h));

				ASSERT_EQ(dpath[h], c);
				ASSERT_EQ(P[h], s % w);	/* through Dlink(h,c,P_h) */
				s = c;
			}
			ASSERT_EQ(d0, s);
		}
		hn_ft_destroy(ft);
	}
}

/*
 * C17: FT(4,4), node 3 to node 95: sigma_0 = 000, delta_0 = 113 (Sec. 7.4).
 * Level 0: port 0 free both ways, P0 = 0.  Level 1: sigma_1 = 000,
 * delta_1 = 110; port 0 is busy and port 1 free, P1 = 1 (paper Sec. 4).  Level 2:
 * sigma_2 = 001, delta_2 = 101, port 0 free, P2 = 0.  Granted as
 * "(0,000) (0,113) P0=0 P1=1 P2=0" (Sec. 7.4, paper Sec. 4).
 */
TEST(route_3_to_95)
{
	static const struct hn_pair req = { 3, 95 };
	struct hn_sched_result res = { 0 };
	struct hn_route out;
	struct hn_ft *ft;
	char buf[16];

	ASSERT_EQ(0, hn_ft_create(4, 4, &ft, NULL));
	EXPECT_EQ(0, hn_ft_parent(ft, 0, 0, 0));
	EXPECT_EQ(20, hn_ft_parent(ft, 0, 23, 0));
	hn_ft_name(ft, 1, 20, buf, sizeof(buf));
	EXPECT_STREQ("SW(1,110)", buf);
	EXPECT_EQ(1, hn_ft_parent(ft, 1, 0, 1));
	EXPECT_EQ(17, hn_ft_parent(ft, 1, 20, 1));
	hn_ft_name(ft, 2, 17, buf, sizeof(buf));
	EXPECT_STREQ("SW(2,101)", buf);
	EXPECT_EQ(3, hn_ft_common_level(ft, 0, 23));
	/* Ulink(1, 000)[0] = 0 */
	ASSERT_EQ(0, hn_ft_set_link(ft, HN_FT_UP, 1, 0, 0, false, NULL));
	ASSERT_EQ(0, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 0, NULL, &req, 1,
				    &out, &res, NULL));
	EXPECT_EQ(1, out.granted);
	EXPECT_EQ(3, out.level);
	EXPECT_EQ(3, out.nports);
	EXPECT_EQ(0, out.port[0]);
	EXPECT_EQ(1, out.port[1]);
	EXPECT_EQ(0, out.port[2]);
	EXPECT_EQ(1, res.granted);
	/* the links it took are busy now */
	EXPECT_EQ(0xe, hn_ft_links(ft, HN_FT_UP, 0, 0));
	EXPECT_EQ(0xe, hn_ft_links(ft, HN_FT_DOWN, 0, 23));
	EXPECT_EQ(0xc, hn_ft_links(ft, HN_FT_UP, 1, 0));
	EXPECT_EQ(0xd, hn_ft_links(ft, HN_FT_DOWN, 1, 20));
	EXPECT_EQ(0xe, hn_ft_links(ft, HN_FT_UP, 2, 1));
	EXPECT_EQ(0xe, hn_ft_links(ft, HN_FT_DOWN, 2, 17));
	EXPECT_EQ(0, hn_ft_check(ft, &out, 1, false, NULL));
	hn_ft_destroy(ft);
}

/*
 * C18, Fig. 7.4: SW(0,0) and SW(0,1) both to SW(0,8) in FT(3,4).  Local:
 * both climb on port 0 and meet on Dlink(0,8,0): one of two.  Level-wise:
 * the second "Ulink(0,1,0) cannot be chosen because it will also need to
 * use Dlink(0,8,0)" (paper Sec. 4) and takes port 1: two of two.
 */
TEST(fig7_4_conflict)
{
	static const struct hn_pair req[2] = { { 0, 32 }, { 4, 33 } };
	struct hn_sched_result res;
	struct hn_route out[2];
	u32 algo, flags;
	struct hn_ft *ft;
	u64 seed = 3;

	ASSERT_EQ(0, hn_ft_create(3, 4, &ft, NULL));
	for (flags = 0; flags <= HN_SCHED_ALL_FLAGS; flags++) {
		hn_ft_clear(ft);
		memset(&res, 0, sizeof(res));
		ASSERT_EQ(0, hn_ft_schedule(ft, HN_SCHED_LOCAL_GREEDY, flags,
					    NULL, req, 2, out, &res, NULL));
		EXPECT_EQ(1, res.granted);
		EXPECT_EQ(1, out[0].granted);
		EXPECT_EQ(0, out[1].granted);
		EXPECT_EQ(0, out[0].port[0]);
		EXPECT_EQ(0, out[1].port[0]);
		EXPECT_EQ(0, out[1].fail);	/* at Dlink(0,8,0) */
		EXPECT_EQ(0, hn_ft_check(ft, out, 2,
					 !(flags & HN_SCHED_KEEP_ON_FAIL),
					 NULL));
		/* with keep, the failed request still holds its up-port */
		EXPECT_EQ(flags & HN_SCHED_KEEP_ON_FAIL ? 0xe : 0xf,
			  hn_ft_links(ft, HN_FT_UP, 0, 1));

		hn_ft_clear(ft);
		memset(&res, 0, sizeof(res));
		ASSERT_EQ(0, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, flags,
					    NULL, req, 2, out, &res, NULL));
		EXPECT_EQ(2, res.granted);
		EXPECT_EQ(0, out[0].port[0]);
		EXPECT_EQ(1, out[1].port[0]);
		EXPECT_EQ(0xc, hn_ft_links(ft, HN_FT_DOWN, 0, 8));
		EXPECT_EQ(0, hn_ft_check(ft, out, 2, true, NULL));
	}
	for (algo = HN_SCHED_LOCAL_RANDOM; algo <= HN_SCHED_OPTIMAL; algo++) {
		hn_ft_clear(ft);
		memset(&res, 0, sizeof(res));
		ASSERT_EQ(0, hn_ft_schedule(ft, algo, 0, &seed, req, 2, out,
					    &res, NULL));
		if (algo == HN_SCHED_OPTIMAL)
			EXPECT_EQ(2, res.granted);
		EXPECT_EQ(0, hn_ft_check(ft, out, 2, true, NULL));
	}
	hn_ft_destroy(ft);
}

/*
 * Every schedule of every algorithm and option is legal, on random full
 * and partial permutations of trees of 1 to 12 levels; the optimal
 * scheduler routes all of them; level-wise never loses to local-greedy on
 * average; on two-level trees level-major and request-major agree.
 */
TEST(every_schedule_legal)
{
	static const u32 shapes[][3] = {	/* l, w, permutations */
		{ 1, 4, 20 }, { 2, 2, 50 }, { 2, 8, 50 }, { 2, 16, 20 },
		{ 2, 64, 4 }, { 3, 3, 50 }, { 3, 4, 50 }, { 3, 8, 20 },
		{ 3, 16, 3 }, { 4, 4, 30 }, { 4, 5, 10 }, { 4, 8, 3 },
		{ 5, 3, 20 }, { 6, 4, 2 }, { 8, 2, 20 }, { 12, 2, 2 },
		{ 2, 7, 40 }, { 3, 6, 10 },
	};
	u64 seed = 2024, rseed = 5;
	u32 i, t, a, flags, j;

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		u32 l = shapes[i][0], w = shapes[i][1], n = ipow(w, l);
		struct hn_pair *req = malloc(n * sizeof(*req));
		struct hn_route *out = malloc(n * sizeof(*out));
		struct hn_route *out2 = malloc(n * sizeof(*out));
		u64 lw = 0, lg = 0;
		struct hn_ft *ft;

		ASSERT_EQ(0, hn_ft_create(l, w, &ft, NULL));
		for (t = 0; t < shapes[i][2]; t++) {
			u32 nreq = n;

			hn_wl_perm(&seed, n, req);
			if (t % 3 == 2) {	/* a partial permutation */
				nreq = hn_rand_below(&seed, n + 1);
				for (j = 0; j < nreq; j++) {
					u32 k = j + hn_rand_below(&seed,
								   n - j);
					struct hn_pair tmp = req[j];

					req[j] = req[k];
					req[k] = tmp;
				}
			}
			for (a = HN_SCHED_LEVELWISE; a <= HN_SCHED_OPTIMAL;
			     a++)
				for (flags = 0; flags <= HN_SCHED_ALL_FLAGS;
				     flags++) {
					struct hn_sched_result res = { 0 };
					bool exact = !(flags &
						       HN_SCHED_KEEP_ON_FAIL);

					if (a == HN_SCHED_OPTIMAL && flags)
						continue;
					hn_ft_clear(ft);
					ASSERT_EQ(0, hn_ft_schedule(ft, a, flags,
								    &rseed, req,
								    nreq, out,
								    &res, NULL));
					ASSERT_EQ(0, hn_ft_check(ft, out, nreq,
								 exact, NULL));
					ASSERT_TRUE(ref_legal(l, w, out, nreq));
					ASSERT_EQ(nreq, res.requests);
					if (a == HN_SCHED_OPTIMAL)
						ASSERT_EQ(nreq, res.granted);
					if (a == HN_SCHED_LEVELWISE && !flags)
						lw += res.granted;
					if (a == HN_SCHED_LOCAL_GREEDY && !flags)
						lg += res.granted;
					if (a == HN_SCHED_LEVELWISE && l == 2 &&
					    flags == HN_SCHED_REQUEST_MAJOR) {
						hn_ft_clear(ft);
						hn_ft_schedule(ft, a, 0, NULL, req,
							       nreq, out2, NULL,
							       NULL);
						for (j = 0; j < nreq; j++)
							ASSERT_EQ(0, memcmp(&out[j],
									    &out2[j],
									    sizeof(*out)));
					}
				}
		}
		EXPECT_LE(lg, lw);
		hn_ft_destroy(ft);
		free(req);
		free(out);
		free(out2);
	}
}

static int busy_links_match(struct hn_ft *ft, const struct hn_route *r,
			    u32 n)
{
	u32 l = hn_ft_levels(ft), w = hn_ft_width(ft), h, tau, i;

	for (h = 0; h + 1 < l; h++) {
		u32 up = 0, down = 0, want = 0;

		for (tau = 0; tau < hn_ft_switches(ft); tau++) {
			u64 full = w == 64 ? ~0ULL : (1ULL << w) - 1;

			up += __builtin_popcountll(~hn_ft_links(ft, HN_FT_UP,
								 h, tau) & full);
			down += __builtin_popcountll(~hn_ft_links(ft,
								   HN_FT_DOWN,
								   h, tau) &
						     full);
		}
		for (i = 0; i < n; i++)
			want += r[i].level > h;
		if (up != want || down != want)
			return 0;
	}
	return 1;
}

/* the optimal scheduler on every tree of 64 to 4096 nodes of the papers */
TEST(optimal_routes_every_permutation)
{
	static const u32 shapes[][3] = {
		{ 2, 8, 100 }, { 2, 16, 50 }, { 2, 32, 10 }, { 2, 64, 5 },
		{ 3, 4, 100 }, { 3, 8, 20 }, { 3, 16, 5 }, { 4, 4, 50 },
		{ 4, 8, 5 }, { 6, 4, 5 }, { 12, 2, 5 }, { 3, 5, 20 },
	};
	u64 seed = 77;
	u32 i, t;

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		u32 l = shapes[i][0], w = shapes[i][1], n = ipow(w, l);
		struct hn_pair *req = malloc(n * sizeof(*req));
		struct hn_route *out = malloc(n * sizeof(*out));
		struct hn_ft *ft;

		ASSERT_EQ(0, hn_ft_create(l, w, &ft, NULL));
		for (t = 0; t < shapes[i][2]; t++) {
			struct hn_sched_result res = { 0 };

			hn_wl_perm(&seed, n, req);
			hn_ft_clear(ft);
			ASSERT_EQ(0, hn_ft_schedule(ft, HN_SCHED_OPTIMAL, 0,
						    NULL, req, n, out, &res,
						    NULL));
			ASSERT_EQ(n, res.granted);
			ASSERT_EQ(0, hn_ft_check(ft, out, n, true, NULL));
			ASSERT_EQ(n, res.requests);
			/* level h carries exactly the routes above it */
			ASSERT_TRUE(busy_links_match(ft, out, n));
		}
		hn_ft_destroy(ft);
		free(req);
		free(out);
	}
}

TEST(sched_run_fattree)
{
	static const struct hn_pair req[2] = { { 0, 32 }, { 4, 33 } };
	struct hn_sched_params p = {
		.topology = HN_TOPO_FATTREE, .levels = 3, .width = 4,
		.algo = HN_SCHED_LOCAL_GREEDY,
	};
	struct hn_sched_result res;
	struct hn_route out[2];

	ASSERT_EQ(0, hn_sched_run(&p, req, 2, out, &res, NULL));
	EXPECT_EQ(1, res.granted);
	p.algo = HN_SCHED_LEVELWISE;
	ASSERT_EQ(0, hn_sched_run(&p, req, 2, out, &res, NULL));
	EXPECT_EQ(2, res.granted);
	EXPECT_EQ(1, out[1].port[0]);
	p.algo = HN_SCHED_LOCAL_RANDOM;
	p.seed = 9;
	ASSERT_EQ(0, hn_sched_run(&p, req, 2, out, &res, NULL));
	p.algo = HN_SCHED_OPTIMAL;
	ASSERT_EQ(0, hn_sched_run(&p, req, 2, out, &res, NULL));
	EXPECT_EQ(2, res.granted);
	EXPECT_EQ(0, res.local);
}

TEST(bad_input)
{
	static const struct hn_pair dsrc[] = { { 1, 2 }, { 1, 3 } };
	static const struct hn_pair ddst[] = { { 1, 2 }, { 0, 2 } };
	static const struct hn_pair far[] = { { 1, 2 }, { 0, 64 } };
	static const struct hn_pair ok[] = { { 1, 2 }, { 0, 63 } };
	struct hn_sched_params p = {
		.topology = HN_TOPO_FATTREE, .levels = 3, .width = 4,
		.algo = HN_SCHED_LEVELWISE,
	};
	struct hn_sched_result res = { 0 };
	struct hn_err err = { 0 };
	struct hn_route out[2];
	struct hn_ft *ft;

	EXPECT_EQ(-EINVAL, hn_ft_create(3, 1, &ft, &err));	/* a chain */
	EXPECT_EQ(NULL, ft);
	EXPECT_NE(NULL, strstr(err.msg, "at least 2"));
	EXPECT_EQ(-EINVAL, hn_ft_create(3, 0, &ft, &err));
	EXPECT_EQ(-EINVAL, hn_ft_create(2, 65, &ft, &err));
	EXPECT_EQ(-EINVAL, hn_ft_create(0, 4, &ft, &err));
	EXPECT_EQ(-EINVAL, hn_ft_create(17, 2, &ft, &err));
	EXPECT_EQ(-EINVAL, hn_ft_create(9, 4, &ft, &err));	/* 4^9 */
	EXPECT_NE(NULL, strstr(err.msg, "65536"));
	EXPECT_EQ(-EINVAL, hn_ft_create(3, 64, &ft, &err));
	EXPECT_EQ(-EINVAL, hn_ft_create(3, 4, NULL, &err));
	ASSERT_EQ(0, hn_ft_create(16, 2, &ft, &err));
	hn_ft_destroy(ft);
	ASSERT_EQ(0, hn_ft_create(3, 4, &ft, &err));

	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 0, NULL,
					  dsrc, 2, out, &res, &err));
	EXPECT_STREQ("node is the source of two requests", err.msg);
	EXPECT_EQ(1, err.index);
	EXPECT_EQ(1, err.node);
	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 0, NULL,
					  ddst, 2, out, &res, &err));
	EXPECT_STREQ("node is the destination of two requests", err.msg);
	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 0, NULL,
					  far, 2, out, &res, &err));
	EXPECT_EQ(64, err.node);
	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_KSTEP, 0, NULL, ok, 2,
					  out, &res, &err));
	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 1 << 5, NULL,
					  ok, 2, out, &res, &err));
	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LOCAL_RANDOM, 0, NULL,
					  ok, 2, out, &res, &err));
	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 0, NULL,
					  NULL, 2, out, &res, &err));
	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 0, NULL,
					  ok, 2, NULL, &res, &err));
	EXPECT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 0, NULL,
					  ok, 65, out, &res, &err));
	EXPECT_EQ(0, res.requests);	/* nothing ran */
	/* the optimal scheduler needs an empty tree */
	ASSERT_EQ(0, hn_ft_set_link(ft, HN_FT_DOWN, 1, 5, 2, false, &err));
	EXPECT_EQ(-EBUSY, hn_ft_schedule(ft, HN_SCHED_OPTIMAL, 0, NULL, ok, 2,
					 out, &res, &err));
	EXPECT_EQ(-EINVAL, hn_ft_set_link(ft, 2, 0, 0, 0, false, &err));
	EXPECT_EQ(-EINVAL, hn_ft_set_link(ft, HN_FT_UP, 2, 0, 0, false, &err));
	EXPECT_EQ(-EINVAL, hn_ft_set_link(ft, HN_FT_UP, 0, 16, 0, false,
					  &err));
	EXPECT_EQ(-EINVAL, hn_ft_set_link(ft, HN_FT_UP, 0, 0, 4, false, &err));
	/* the checker catches a route that does not connect */
	hn_ft_clear(ft);
	ASSERT_EQ(0, hn_ft_schedule(ft, HN_SCHED_LEVELWISE, 0, NULL, ok, 2,
				    out, &res, &err));
	out[1].port[1] ^= 1;
	EXPECT_EQ(-EIO, hn_ft_check(ft, out, 2, false, &err));
	out[1].port[1] ^= 1;
	EXPECT_EQ(0, hn_ft_check(ft, out, 2, true, &err));
	out[1].granted = 0;			/* its links look leaked */
	EXPECT_EQ(-EIO, hn_ft_check(ft, out, 2, true, &err));
	EXPECT_EQ(0, hn_ft_check(ft, out, 2, false, &err));
	hn_ft_destroy(ft);
	hn_ft_destroy(NULL);

	p.width = 1;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, ok, 2, out, &res, &err));
	p.width = 4;
	p.algo = HN_SCHED_HOPCROFT_KARP;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, ok, 2, out, &res, &err));
	p.algo = HN_SCHED_LEVELWISE;
	p.flags = 1 << 4;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, ok, 2, out, &res, &err));
	p.flags = 0;
	EXPECT_EQ(-EINVAL, hn_sched_run(&p, dsrc, 2, out, &res, &err));
	EXPECT_EQ(0, hn_sched_run(&p, ok, 2, out, &res, &err));
	EXPECT_EQ(2, res.granted);
}

/* ---- a literal level-wise, as the text orders it (Sec. 7.4, paper Sec. 6) ---- */
struct lw_ref {
	u32 l, w, nsw;
	u64 *up, *down;			/* [(h * nsw + tau)], 1 = free */
};

static void lw_ref_release(struct lw_ref *t, const struct hn_route *r,
			   u32 upto)
{
	u32 s = r->src / t->w, d = r->dst / t->w, h;

	for (h = 0; h < upto; h++) {
		t->up[h * t->nsw + s] |= 1ULL << r->port[h];
		t->down[h * t->nsw + d] |= 1ULL << r->port[h];
		s = ref_parent(t->l, t->w, h, s, r->port[h]);
		d = ref_parent(t->l, t->w, h, d, r->port[h]);
	}
}

static int lw_ref_step(struct lw_ref *t, struct hn_route *r, u32 h,
		       u32 *s, u32 *d, int keep)
{
	u64 a = t->up[h * t->nsw + *s] & t->down[h * t->nsw + *d];
	u32 p;

	if (!a) {
		r->fail = h;
		if (!keep)
			lw_ref_release(t, r, h);
		return 0;
	}
	for (p = 0; !((a >> p) & 1); p++)
		;
	t->up[h * t->nsw + *s] &= ~(1ULL << p);
	t->down[h * t->nsw + *d] &= ~(1ULL << p);
	r->port[h] = p;
	r->nports = h + 1;
	*s = ref_parent(t->l, t->w, h, *s, p);
	*d = ref_parent(t->l, t->w, h, *d, p);
	return 1;
}

static void lw_ref_run(struct lw_ref *t, const struct hn_pair *req, u32 n,
		       struct hn_route *out, int request_major, int keep)
{
	u32 *s = malloc(n * sizeof(u32)), *d = malloc(n * sizeof(u32));
	u32 i, h;

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].src = req[i].src;
		out[i].dst = req[i].dst;
		out[i].fail = HN_FT_NOFAIL;
		s[i] = req[i].src / t->w;
		d[i] = req[i].dst / t->w;
		out[i].level = ref_level(t->l, t->w, s[i], d[i]);
	}
	if (request_major) {
		for (i = 0; i < n; i++)
			for (h = 0; h < out[i].level; h++)
				if (!lw_ref_step(t, &out[i], h, &s[i], &d[i],
						 keep))
					break;
	} else {
		for (h = 0; h + 1 < t->l; h++)
			for (i = 0; i < n; i++)
				if (out[i].level > h &&
				    out[i].fail == HN_FT_NOFAIL)
					lw_ref_step(t, &out[i], h, &s[i], &d[i],
						    keep);
	}
	for (i = 0; i < n; i++)
		out[i].granted = out[i].fail == HN_FT_NOFAIL;
	free(s);
	free(d);
}

/*
 * The library's one-pass level-wise against the literal orders of the
 * text, on trees with random links busy beforehand: same grants, same
 * ports, same failure levels, same link state, for every option.
 */
TEST(levelwise_orders)
{
	static const u32 shapes[][2] = {
		{ 3, 4 }, { 4, 4 }, { 3, 3 }, { 2, 8 }, { 5, 2 }, { 4, 5 },
	};
	u64 seed = 11;
	u32 i, t, flags, j, h, tau, busy;

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		u32 l = shapes[i][0], w = shapes[i][1], n = ipow(w, l);
		struct hn_pair *req = malloc(n * sizeof(*req));
		struct hn_route *out = malloc(n * sizeof(*out));
		struct hn_route *ref = malloc(n * sizeof(*ref));
		struct lw_ref R = { .l = l, .w = w, .nsw = n / w };
		u32 nl = (l - 1) * R.nsw;
		struct hn_ft *ft;

		R.up = malloc((nl + 1) * 8);
		R.down = malloc((nl + 1) * 8);
		ASSERT_EQ(0, hn_ft_create(l, w, &ft, NULL));
		for (t = 0; t < 40; t++) {
			u32 nreq = n;

			hn_wl_perm(&seed, n, req);
			if (t % 2)
				nreq = hn_rand_below(&seed, n + 1);
			for (flags = 0; flags <= HN_SCHED_ALL_FLAGS; flags++) {
				hn_ft_clear(ft);
				busy = hn_rand_below(&seed, nl * w / 4 + 1);
				for (j = 0; j < busy; j++)
					hn_ft_set_link(ft,
						       hn_rand_below(&seed, 2),
						       hn_rand_below(&seed, l - 1),
						       hn_rand_below(&seed, R.nsw),
						       hn_rand_below(&seed, w),
						       false, NULL);
				for (h = 0; h + 1 < l; h++)
					for (tau = 0; tau < R.nsw; tau++) {
						R.up[h * R.nsw + tau] =
							hn_ft_links(ft, HN_FT_UP, h, tau);
						R.down[h * R.nsw + tau] =
							hn_ft_links(ft, HN_FT_DOWN, h, tau);
					}
				ASSERT_EQ(0, hn_ft_schedule(ft, HN_SCHED_LEVELWISE,
							    flags, NULL, req, nreq,
							    out, NULL, NULL));
				lw_ref_run(&R, req, nreq, ref,
					   flags & HN_SCHED_REQUEST_MAJOR,
					   flags & HN_SCHED_KEEP_ON_FAIL);
				for (j = 0; j < nreq; j++) {
					ASSERT_EQ(ref[j].granted, out[j].granted);
					ASSERT_EQ(ref[j].level, out[j].level);
					ASSERT_EQ(ref[j].fail, out[j].fail);
					ASSERT_EQ(ref[j].nports, out[j].nports);
					ASSERT_EQ(0, memcmp(ref[j].port, out[j].port,
							    ref[j].nports));
				}
				for (h = 0; h + 1 < l; h++)
					for (tau = 0; tau < R.nsw; tau++) {
						ASSERT_EQ(R.up[h * R.nsw + tau],
							  hn_ft_links(ft, HN_FT_UP, h, tau));
						ASSERT_EQ(R.down[h * R.nsw + tau],
							  hn_ft_links(ft, HN_FT_DOWN, h, tau));
					}
			}
		}
		hn_ft_destroy(ft);
		free(R.up);
		free(R.down);
		free(req);
		free(out);
		free(ref);
	}
}

/* a bad request late in the set leaves the link state as it was */
TEST(bad_request_undoes)
{
	u32 n = 256, t, flags, h, tau, j;
	struct hn_pair *req = malloc(n * sizeof(*req));
	struct hn_route *out = malloc(n * sizeof(*out));
	u64 before[2][3][64];
	struct hn_err err;
	struct hn_ft *ft;
	u64 seed = 8;

	ASSERT_EQ(0, hn_ft_create(4, 4, &ft, NULL));
	for (t = 0; t < 30; t++) {
		for (flags = 0; flags <= HN_SCHED_ALL_FLAGS; flags++) {
			u32 bad = 1 + hn_rand_below(&seed, n - 1);

			hn_ft_clear(ft);
			for (j = 0; j < 100; j++)
				hn_ft_set_link(ft, hn_rand_below(&seed, 2),
					       hn_rand_below(&seed, 3),
					       hn_rand_below(&seed, 64),
					       hn_rand_below(&seed, 4), false,
					       NULL);
			for (h = 0; h < 3; h++)
				for (tau = 0; tau < 64; tau++) {
					before[0][h][tau] = hn_ft_links(ft, 0, h, tau);
					before[1][h][tau] = hn_ft_links(ft, 1, h, tau);
				}
			hn_wl_perm(&seed, n, req);
			req[bad].dst = req[bad - 1].dst;	/* twice */
			ASSERT_EQ(-EINVAL, hn_ft_schedule(ft, HN_SCHED_LEVELWISE,
							  flags, NULL, req, n,
							  out, NULL, &err));
			ASSERT_EQ(bad, err.index);
			ASSERT_STREQ("node is the destination of two requests",
				     err.msg);
			for (h = 0; h < 3; h++)
				for (tau = 0; tau < 64; tau++) {
					ASSERT_EQ(before[0][h][tau],
						  hn_ft_links(ft, 0, h, tau));
					ASSERT_EQ(before[1][h][tau],
						  hn_ft_links(ft, 1, h, tau));
				}
		}
	}
	hn_ft_destroy(ft);
	free(req);
	free(out);
}

TEST_HARNESS_MAIN
