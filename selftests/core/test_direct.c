// SPDX-License-Identifier: GPL-2.0
/*
 * test_direct.c - the direct networks (topo_cube.c, topo_gh.c): the
 * k-ary n-cube, mesh and torus, and the generalized hypercube GH(n, k).
 * Their shapes (nodes, ports, links, the longest route); links consistent
 * from both ends, each numbered once; every route of every pair valid,
 * as long as the distance the tests compute on digit vectors (mesh: the
 * sum of the digits' differences; torus: of the shorter ways round; GH:
 * the digits that differ), so the diameters are n (k - 1), n floor(k/2)
 * and n (Zydallis's GH: n, with degree n (k - 1)); the channel ranks rise
 * along every route of the mesh and the GH, and fall somewhere on the
 * torus (its wrap-around), which says so.  A GH with k > 2 counts its
 * detours around dead links in its longest route (test_fault.c): two
 * links a dimension.
 */
#include <stdlib.h>
#include "harness.h"
#include "topo.h"
#include "digits.h"

enum { MESH, TORUS, GH };

static u32 dist(u32 kind, u32 n, u32 k, u32 s, u32 d)
{
	u32 i, a, b, h = 0, f;

	for (i = 0; i < n; i++) {
		a = digit(s, k, i);
		b = digit(d, k, i);
		f = a > b ? a - b : b - a;
		if (kind == GH)
			h += !!f;
		else if (kind == TORUS)
			h += f < k - f ? f : k - f;
		else
			h += f;
	}
	return h;
}

static int make(struct hn_topo *t, u32 kind, u32 n, u32 k)
{
	if (kind == GH)
		return hn_topo_gh(t, n, k, 10, 6400);
	return hn_topo_cube(t, n, k, kind == TORUS, 10, 6400);
}

static void shape(struct __test_metadata *_metadata, u32 kind, u32 n,
		  u32 k)
{
	struct hn_tport e, b;
	struct hn_topo t;
	u32 sw, p, lk, *ends, N = ipow(k, n), diam;

	ASSERT_EQ(0, make(&t, kind, n, k));
	EXPECT_EQ(N, t.nodes);
	EXPECT_EQ(N, t.nsw);
	EXPECT_EQ(kind == GH ? 1 + n * (k - 1) : 1 + 2 * n, t.radix);
	diam = kind == GH ? n : kind == TORUS ? n * (k / 2) : n * (k - 1);
	EXPECT_EQ(kind == GH && k > 2 ? 2 * n + 1 : diam + 1, t.max_hops);
	EXPECT_EQ(kind != TORUS, t.acyclic);
	ends = calloc(t.nlinks, sizeof(*ends));
	ASSERT_NE(NULL, ends);
	for (sw = 0; sw < t.nsw; sw++) {
		for (p = 0; p < t.radix; p++) {
			e = t.ops->peer(&t, sw, p);
			lk = t.ops->link(&t, sw, p);
			if (e.sw == HN_NONE) {	/* a mesh's edge */
				EXPECT_EQ(MESH, kind);
				EXPECT_EQ(HN_NONE, lk);
				continue;
			}
			ASSERT_GT(t.nlinks, lk);
			ends[lk]++;
			if (e.sw == HN_TOPO_NODE) {
				EXPECT_EQ(0, p);
				EXPECT_EQ(sw, e.port);
				EXPECT_EQ(sw, lk);
				b = t.ops->attach(&t, sw);
				EXPECT_EQ(sw, b.sw);
				EXPECT_EQ(0, b.port);
				ends[lk]++;
				continue;
			}
			ASSERT_GT(t.nsw, e.sw);
			EXPECT_LE(N, lk);
			EXPECT_EQ(1, dist(kind, n, k, sw, e.sw));
			b = t.ops->peer(&t, e.sw, e.port);
			EXPECT_EQ(sw, b.sw);
			EXPECT_EQ(p, b.port);
			EXPECT_EQ(lk, t.ops->link(&t, e.sw, e.port));
			EXPECT_NE(t.ops->rank(&t, sw, p),
				  t.ops->rank(&t, e.sw, e.port));
		}
	}
	for (lk = 0; lk < t.nlinks; lk++)
		EXPECT_EQ(2, ends[lk]) TH_LOG("link %u", lk);
	free(ends);
	hn_topo_fini(&t);
}

TEST(shapes)
{
	shape(_metadata, MESH, 2, 4);
	shape(_metadata, MESH, 3, 3);
	shape(_metadata, MESH, 1, 8);
	shape(_metadata, TORUS, 2, 4);
	shape(_metadata, TORUS, 3, 5);
	shape(_metadata, TORUS, 2, 2);
	shape(_metadata, GH, 2, 8);
	shape(_metadata, GH, 3, 4);
	shape(_metadata, GH, 6, 2);	/* the binary 6-cube */
}

/* Every pair's route: its length, its end, and its ranks. */
static void routes(struct __test_metadata *_metadata, u32 kind, u32 n, u32 k)
{
	struct hn_upsel_arg a = { .mode = HN_UPSEL_DET };
	struct hn_tport hop[64], e;
	struct hn_topo t;
	u32 s, d, j, r, last, falls = 0, longest = 0;
	int h;

	ASSERT_EQ(0, make(&t, kind, n, k));
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			h = hn_topo_path(&t, s, d, &a, hop, 64);
			ASSERT_EQ(dist(kind, n, k, s, d) + 1, (u32)h)
				TH_LOG("%u to %u", s, d);
			EXPECT_EQ(s, hop[0].sw);
			e = t.ops->peer(&t, hop[h - 1].sw, hop[h - 1].port);
			EXPECT_EQ(HN_TOPO_NODE, e.sw);
			EXPECT_EQ(d, e.port);
			for (j = 0, last = 0; j < (u32)h; j++) {
				r = t.ops->rank(&t, hop[j].sw, hop[j].port);
				falls += r <= last;
				last = r;
			}
			if ((u32)h > longest)
				longest = h;
		}
	}
	EXPECT_EQ(kind == GH && k > 2 ? n + 1 : t.max_hops, longest);
	EXPECT_GE(t.max_hops, longest);
	if (t.acyclic) {
		EXPECT_EQ(0, falls);
	} else {
		EXPECT_LT(0, falls);
	}
	hn_topo_fini(&t);
}

TEST(every_route)
{
	routes(_metadata, MESH, 2, 4);
	routes(_metadata, MESH, 3, 3);
	routes(_metadata, TORUS, 2, 5);
	routes(_metadata, TORUS, 3, 4);
	routes(_metadata, GH, 2, 8);
	routes(_metadata, GH, 4, 3);
}

/* Zydallis's GH(2, k): diameter 2, degree 2 (k - 1) (notes, C2.5). */
TEST(gh_2_k)
{
	struct hn_topo t;
	u32 k;

	for (k = 2; k <= 64; k *= 2) {
		ASSERT_EQ(0, hn_topo_gh(&t, 2, k, 10, 6400));
		/* two links, four with detours (not on the binary cube) */
		EXPECT_EQ(k > 2 ? 5 : 3, t.max_hops);
		EXPECT_EQ(2 * (k - 1), t.radix - 1);	/* and the node's */
		hn_topo_fini(&t);
	}
}

TEST(bad_shapes)
{
	struct hn_topo t;

	EXPECT_EQ(-EINVAL, hn_topo_cube(&t, 0, 4, false, 10, 6400));
	EXPECT_EQ(-EINVAL, hn_topo_cube(&t, 2, 1, true, 10, 6400));
	EXPECT_EQ(-EINVAL, hn_topo_cube(&t, 13, 2, false, 10, 6400));
	EXPECT_EQ(-EINVAL, hn_topo_cube(&t, 2, 65, false, 10, 6400));
	EXPECT_EQ(-EINVAL, hn_topo_gh(&t, 3, 17, 10, 6400));
	EXPECT_EQ(-EINVAL, hn_topo_gh(&t, 1, 1, 10, 6400));
}

TEST_HARNESS_MAIN
