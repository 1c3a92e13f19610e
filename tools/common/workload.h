/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - the request sets of the scheduler experiments, drawn with
 * the engine's hn_rand() (kmod/core/hn_core.h): one copy for "hnsim
 * sched", "hnctl sched --perm", the scheduler benchmark
 * (selftests/bench/sched/) and the unit tests (selftests/core/).
 *
 * The published results (docs/results/) are regenerated from seeds, so
 * these functions must draw exactly the same numbers in the same order
 * for ever: change a stream and every table changes.
 *
 * The functions are static inline because the unit tests and the
 * benchmarks are each built from their own source files alone; the tools
 * and tests reach this header by -Itools/common (the top-level Makefile).
 * Nothing here goes into the kernel module.
 */
#ifndef HN_TOOLS_WORKLOAD_H
#define HN_TOOLS_WORKLOAD_H

#include <string.h>
#include "hn_core.h"

/* hnsim sched's workloads, its --workload numbers */
enum hn_wl_kind {
	HN_WL_RANDOM,		/* m distinct random pairs */
	HN_WL_MIXED,		/* a permutation plus m distinct random pairs */
	HN_WL_PERM,		/* a permutation */
};

/* hnsim sched's fat trees seed local-random with trial seed ^ this */
#define HN_WL_LOCAL_RANDOM_MIX	0x5bd1e995ULL

/* @s with @v mixed in by a step of hn_rand() (splitmix64) */
static inline u64 hn_wl_mix(u64 s, u64 v)
{
	s ^= v;
	return hn_rand(&s);
}

/*
 * The random state of hnsim sched's trial @trial at point (@a, @b): a
 * crossbar's (nodes, pairs drawn, 0 for the perm workload), a fat
 * tree's (levels, width).  Each input is mixed in in turn, so that no
 * two of them share a state (XOR-ed together, seed 1's trial 0 was seed
 * 0's trial 1) and a point's state is that of its values, not of its
 * place in --load's list.
 */
static inline u64 hn_wl_trial_seed(u64 seed, u32 a, u32 b, u32 trial)
{
	u64 s = hn_wl_mix(0, seed);

	s = hn_wl_mix(s, a);
	s = hn_wl_mix(s, b);
	return hn_wl_mix(s, trial);
}

/*
 * A uniformly random permutation of @n nodes (Fisher-Yates, from the
 * top): req[i] = (i, d_i), in source order.
 */
static inline void hn_wl_perm(u64 *rs, u32 n, struct hn_pair *req)
{
	u32 i, j, t;

	for (i = 0; i < n; i++) {
		req[i].src = i;
		req[i].dst = i;
	}
	for (i = n - 1; i > 0; i--) {
		j = hn_rand_below(rs, i + 1);
		t = req[i].dst;
		req[i].dst = req[j].dst;
		req[j].dst = t;
	}
}

/* Bytes of the pair bitmap hn_wl_xbar() needs for @n nodes. */
static inline size_t hn_wl_bitmap_bytes(u32 n)
{
	return ((u64)n * n + 63) / 64 * 8;
}

/*
 * A crossbar's request set of workload @kind on @n nodes into @req (room
 * for n + m pairs): the permutation first (mixed, perm), then @m further
 * distinct pairs (random, mixed) drawn uniformly from the n^2 pairs not
 * yet requested (m <= n^2 / 2 keeps that quick).  @bits is scratch of
 * hn_wl_bitmap_bytes(n) bytes.  Returns the number of requests.
 */
static inline u32 hn_wl_xbar(u64 *rs, enum hn_wl_kind kind, u32 n, u32 m,
			     struct hn_pair *req, u64 *bits)
{
	u32 nreq = 0, i;

	memset(bits, 0, hn_wl_bitmap_bytes(n));
	if (kind != HN_WL_RANDOM) {
		hn_wl_perm(rs, n, req);
		nreq = n;
		for (i = 0; i < n; i++) {
			u64 b = (u64)req[i].src * n + req[i].dst;

			bits[b / 64] |= 1ULL << (b % 64);
		}
		if (kind == HN_WL_PERM)
			return nreq;
	}
	while (m) {
		u32 u = hn_rand_below(rs, n), v = hn_rand_below(rs, n);
		u64 b = (u64)u * n + v;

		if (bits[b / 64] >> (b % 64) & 1)
			continue;
		bits[b / 64] |= 1ULL << (b % 64);
		req[nreq].src = u;
		req[nreq].dst = v;
		nreq++;
		m--;
	}
	return nreq;
}

#endif /* HN_TOOLS_WORKLOAD_H */
