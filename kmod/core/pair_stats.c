// SPDX-License-Identifier: GPL-2.0
/*
 * pair_stats.c - statistics per (source, destination) pair: each pair's
 * delivered messages, bytes and latency sum by the mode that carried
 * them (hn_pair_stats(), hn_core.h).
 *
 * No N x N array: a table of at most min(N (N - 1), HN_PAIRS_MAX) pairs,
 * filled in the order pairs first deliver and emptied only by a reset.
 * A pair is found by an open-addressing index at most half full, so a
 * delivery costs one or two probes.  A message whose pair finds the table
 * full is counted in the overflow (struct hn_gstats), never lost.
 */
#include "engine.h"

static u32 pairs_cap(u32 nodes)
{
	u64 all = (u64)nodes * (nodes - 1);

	return (u32)hn_min64(all, HN_PAIRS_MAX);
}

int hn_pairs_alloc(struct hn_engine *e)
{
	struct hn_pairs *p = &e->pairs;
	u32 size = 2;

	p->max = pairs_cap(e->cfg.nodes);
	while (size < 2 * p->max)
		size *= 2;
	p->mask = size - 1;
	p->v = hn_zalloc(p->max * sizeof(*p->v));
	p->idx = hn_zalloc(size * sizeof(*p->idx));
	return p->v && p->idx ? 0 : -ENOMEM;	/* hn_stats_init() empties it */
}

void hn_pairs_free(struct hn_engine *e)
{
	hn_free(e->pairs.v);
	hn_free(e->pairs.idx);
	e->pairs.v = NULL;
	e->pairs.idx = NULL;
}

void hn_pairs_reset(struct hn_engine *e)
{
	struct hn_pairs *p = &e->pairs;

	if (!p->idx)
		return;
	memset(p->idx, 0xff, (p->mask + 1) * sizeof(*p->idx));	/* HN_NONE */
	p->n = 0;
}

/* The index entry of (@src, @dst): its own, or the free one to take. */
static u32 *slot_of(const struct hn_pairs *p, u32 src, u32 dst)
{
	u64 key = (u64)src << 32 | dst;
	u32 h = (u32)((key * 0x9e3779b97f4a7c15ULL) >> 32) & p->mask;

	for (;; h = (h + 1) & p->mask) {
		u32 i = p->idx[h];

		if (i == HN_NONE || (p->v[i].src == src && p->v[i].dst == dst))
			return &p->idx[h];
	}
}

void hn_pairs_delivered(struct hn_engine *e, const struct hn_msg *m, u64 lat)
{
	struct hn_pairs *p = &e->pairs;
	struct hn_pair_stats *ps;
	u32 *i = slot_of(p, m->src, m->dst);

	if (*i == HN_NONE) {
		if (p->n == p->max) {
			e->g.pair_overflow_msgs++;
			e->g.pair_overflow_bytes += m->len;
			return;
		}
		*i = p->n++;
		ps = &p->v[*i];
		memset(ps, 0, sizeof(*ps));
		ps->src = m->src;
		ps->dst = m->dst;
	}
	ps = &p->v[*i];
	ps->msgs[m->mode]++;
	ps->bytes[m->mode] += m->len;
	ps->lat_sum[m->mode] += lat;
}

int hn_pair_stats(const struct hn_engine *e, u32 i, struct hn_pair_stats *out)
{
	if (i >= e->pairs.n)
		return -ENOENT;
	*out = e->pairs.v[i];
	return 0;
}
