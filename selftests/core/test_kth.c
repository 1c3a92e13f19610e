// SPDX-License-Identifier: GPL-2.0
/*
 * test_kth.c - the k-th unit of weighted items (kth.c) against a walk of
 * the items, for every unit, every size up to 70 and random weights,
 * while weights change.
 */
#include "harness.h"
#include "sim.h"
#include "kth.h"

/* The item holding unit @r of @w[0..n-1], @r becoming its place there. */
static u32 walk(const u32 *w, u32 n, u32 *r)
{
	u32 i;

	for (i = 0; i < n && *r >= w[i]; i++)
		*r -= w[i];
	return i;
}

TEST(kth_is_the_walk)
{
	u32 w[70], n, i, u, r, q, got, want, total, round;
	struct hn_kth k;
	u64 seed = 1;

	for (n = 0; n <= 70; n++) {
		ASSERT_EQ(0, hn_kth_init(&k, n));
		total = 0;
		for (i = 0; i < n; i++) {
			w[i] = hn_rand_below(&seed, 4);	/* zeros too */
			hn_kth_add(&k, i, w[i]);
			total += w[i];
		}
		for (round = 0; round < 20 && total; round++) {
			for (u = 0; u < total; u++) {
				q = u;
				want = walk(w, n, &q);
				r = u;
				got = hn_kth_find(&k, &r);
				ASSERT_EQ(want, got) TH_LOG("n %u unit %u", n, u);
				ASSERT_EQ(q, r) TH_LOG("n %u unit %u", n, u);
			}
			i = hn_rand_below(&seed, n);	/* take one, or give */
			if (w[i] && hn_rand_below(&seed, 2)) {
				w[i]--;
				total--;
				hn_kth_add(&k, i, -1);
			} else {
				w[i]++;
				total++;
				hn_kth_add(&k, i, 1);
			}
		}
		hn_kth_free(&k);
	}
}

TEST_HARNESS_MAIN
