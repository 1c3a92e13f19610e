// SPDX-License-Identifier: GPL-2.0
/*
 * introspect.c - views of the engine's state for the unit tests, hnsim and
 * the benchmarks: each NIC's Predicted Circuit Switching Table as a
 * bitmap, a slot's connection count, the memory used.
 *
 * Like check.c (hn_check()), this file is in the user-space library
 * (build/libhncore.a takes every .c file of kmod/core) but not in
 * hybridnet.ko: kmod/Kbuild leaves both out, as nothing in the module
 * calls them.
 */
#include "engine.h"

int hn_pcs_row(const struct hn_engine *e, u32 src, u64 *bitmap, u32 nwords)
{
	u32 s, v;

	if (src >= e->cfg.nodes || (u64)nwords * 64 < e->cfg.nodes)
		return -EINVAL;
	memset(bitmap, 0, nwords * sizeof(*bitmap));
	for (s = 0; s < e->cfg.k; s++) {
		v = e->slot[s].out[src];
		if (v != HN_NONE)
			bitmap[v / 64] |= 1ULL << (v % 64);
	}
	return 0;
}

u32 hn_slot_conns(const struct hn_engine *e, u32 slot)
{
	return slot < e->cfg.k ? e->slot[slot].nconn : 0;
}

/*
 * Bytes the engine has allocated: fixed arrays, the pair table, live and
 * cached streams, the NICs' tables of streams and uplink rings, and a
 * multistage fabric's ports and worms.
 */
u64 hn_mem_bytes(const struct hn_engine *e)
{
	u64 N = e->cfg.nodes, b, streams = 0;
	const struct hn_fab *f = e->fab;
	const struct hn_stream *st;
	u32 u, i;

	b = sizeof(*e) + N * (sizeof(*e->node) + 3 * sizeof(u32));
	b += (e->cfg.k + 1) * sizeof(*e->slot) +
	     e->cfg.k * N * (4 * sizeof(u32) + 2 * sizeof(u64));
	b += (u64)e->pairs.max * sizeof(*e->pairs.v) +
	     ((u64)e->pairs.mask + 1) * sizeof(*e->pairs.idx);
	for (u = 0; u < N; u++) {
		b += e->node[u].tab_cap * sizeof(*e->node[u].tab) +
		     e->node[u].rel_cap * sizeof(*e->node[u].rel);
		for (i = 0; i < e->node[u].tab_cap; i++)
			streams += !!e->node[u].tab[i];
	}
	for (st = e->free_streams; st; st = st->free_next)
		streams++;
	if (f)
		b += sizeof(*f) + (e->nev - N) * 3 * sizeof(u32) +
		     f->nin * (sizeof(*f->in) + sizeof(*f->stash)) +
		     f->nout * (sizeof(*f->out) + sizeof(*f->in_of) +
				f->words * sizeof(*f->wait)) +
		     2 * e->topo.nlinks * sizeof(*f->chan) +
		     f->wcap * f->wsize;
	if (f && f->fl)
		b += sizeof(*f->fl) + (u64)f->nin * f->fl->V *
		     (sizeof(*f->fl->vc) + f->fl->depth *
		      sizeof(*f->fl->flits)) +
		     (u64)f->nout * (f->fl->V * (sizeof(*f->fl->owner) +
						 sizeof(*f->fl->credit)) +
				     sizeof(*f->fl->req) + sizeof(*f->fl->rr) +
				     sizeof(*f->fl->arrive) +
				     f->fl->words * sizeof(*f->fl->wait)) +
		     (u64)f->nin * sizeof(*f->fl->in_busy) +
		     (u64)f->fl->nev * (sizeof(*f->fl->evt) +
					sizeof(*f->fl->stash) + 1);
	return b + streams * sizeof(struct hn_stream);
}
