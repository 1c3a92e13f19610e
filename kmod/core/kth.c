// SPDX-License-Identifier: GPL-2.0
/*
 * kth.c - the k-th unit of weighted items: a Fenwick tree (kth.h).
 * t[i] (1-based) holds the weights of the items i - lowbit(i) + 1..i.
 */
#include "kth.h"

int hn_kth_init(struct hn_kth *k, u32 n)
{
	k->n = n;
	k->top = n ? 1 : 0;
	while (k->top && k->top <= n / 2)
		k->top <<= 1;
	k->t = hn_zalloc(((size_t)n + 1) * sizeof(*k->t));
	return k->t ? 0 : -ENOMEM;
}

void hn_kth_free(struct hn_kth *k)
{
	hn_free(k->t);
	k->t = NULL;
}

void hn_kth_add(struct hn_kth *k, u32 i, s32 d)
{
	u64 j;

	for (j = (u64)i + 1; j <= k->n; j += j & -j)
		k->t[j] += d;
}

u32 hn_kth_find(const struct hn_kth *k, u32 *r)
{
	u32 pos = 0, step;

	for (step = k->top; step; step >>= 1) {
		if (pos + step <= k->n && k->t[pos + step] <= *r) {
			pos += step;
			*r -= k->t[pos];
		}
	}
	return pos;
}
