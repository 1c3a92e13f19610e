/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kth.h - the k-th unit of weighted items, found and reweighted in
 * O(log n): a Fenwick tree.  The random fault injectors choose the k-th
 * live link (or channel) in order of links with it, once per one they
 * take down, in O(count log links) instead of a walk of every link per
 * choice.
 */
#ifndef HN_KTH_H
#define HN_KTH_H

#include "compat.h"

struct hn_kth {
	u32 n;		/* items, 0..n-1 */
	u32 top;	/* the highest power of two <= n, 0 for none */
	u32 *t;		/* t[1..n]: the tree's partial sums */
};

/* @n items of weight 0: 0 or -ENOMEM. */
int hn_kth_init(struct hn_kth *k, u32 n);
void hn_kth_free(struct hn_kth *k);
/* Item @i's weight += @d (the weight stays >= 0). */
void hn_kth_add(struct hn_kth *k, u32 i, s32 d);
/*
 * The item holding unit *@r (from 0) of the total weight, *@r < total;
 * *@r becomes the unit's place in that item, from 0.
 */
u32 hn_kth_find(const struct hn_kth *k, u32 *r);

#endif
