// SPDX-License-Identifier: GPL-2.0
/*
 * test_workload.c - the trials of hnsim sched are independent: no two
 * (seed, point, trial) share a random state, and two seeds' trials share
 * no request set (tools/common/workload.h).
 */
#include <stdlib.h>
#include "harness.h"
#include "hn_core.h"
#include "workload.h"

#define SEEDS	16
#define TRIALS	100
#define NODES	16

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* every (seed, a, b, trial) its own state: XOR-ed, seed 1's trial 0 was
 * seed 0's trial 1, and seeds 0 to 3 drew the same 100 sets */
TEST(trial_states_distinct)
{
	static const u32 pts[][2] = { { 16, 0 }, { 16, 8 }, { 3, 4 }, { 4, 3 } };
	size_t n = 0, i;
	u64 *s = malloc(sizeof(*s) * SEEDS * TRIALS * 4);
	u32 seed, p, t;

	ASSERT_NE(NULL, s);
	for (seed = 0; seed < SEEDS; seed++)
		for (p = 0; p < 4; p++)
			for (t = 0; t < TRIALS; t++)
				s[n++] = hn_wl_trial_seed(seed, pts[p][0],
							  pts[p][1], t);
	qsort(s, n, sizeof(*s), cmp_u64);
	for (i = 1; i < n; i++)
		ASSERT_NE(s[i - 1], s[i]);
	free(s);
}

static void perm_of(u64 seed, u32 trial, struct hn_pair *req)
{
	u64 rs = hn_wl_trial_seed(seed, NODES, 0, trial);

	hn_wl_perm(&rs, NODES, req);
}

/* seeds 1 and 7 shared 96 of their 100 permutations */
TEST(seeds_share_no_permutation)
{
	struct hn_pair a[NODES], b[NODES];
	u32 i, j;

	for (i = 0; i < TRIALS; i++) {
		perm_of(1, i, a);
		for (j = 0; j < TRIALS; j++) {
			perm_of(7, j, b);
			ASSERT_NE(0, memcmp(a, b, sizeof(a)));
		}
	}
}

TEST_HARNESS_MAIN
