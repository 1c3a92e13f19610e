// SPDX-License-Identifier: GPL-2.0
/*
 * dynamic.c - Dynamic TDM (Sec. 5.3, the "Dynamic TDM" network of
 * Sec. 5.5): circuits made on demand by the greedy scheduler and removed
 * by the time-out predictor.
 *
 * With HN_POL_DYNAMIC (which needs HN_POL_NO_W: there is no wormhole
 * path) a message whose destination has no circuit waits in its VQ_PCKT,
 * and a non-empty VQ_PCKT is the request R_u,v (L960: R_u "indicating
 * which of the logical queues of that NIC is not empty").  Before each
 * slot the scheduler takes every waiting request in the rotating priority
 * order of L1000 and places it first fit from slot pin_slots to K-1
 * (hn_predict); a grant is usable after wire + sched + wire + setup (Ch. 5:
 * 80 + 80 + 80 ns, L1036).  A refused request stays and is tried again
 * before the next slot.  A circuit leaves when it has carried nothing for
 * idle_timeout_ns and nothing waits for it: the "time-out" predictor of
 * L937 (Table 5.1's release of an unrequested connection, with the
 * time-out as the request's memory, note 8.7).
 *
 * Pure circuit switching is the same machine with one slot (L913:
 * "circuit switching amounts to TDM with a multiplexing degree of one")
 * and a time-out of 1 ns: a circuit is requested per message and held
 * while the NIC has data for that pair (L1776).
 *
 * The scheduler works on the whole set at a slot boundary, rather than one
 * slot per SL clock (L970); the hardware's SL clock (80 ns) is shorter
 * than a slot (100 ns), so this is the text's rate, batched.
 *
 * This file holds that scheduling pass; the list of waiting requests is
 * request.c's, the placement predict.c's and the time-out release.c's.
 */
#include "engine.h"

static int req_grow(struct hn_engine *e, u32 n)
{
	u32 cap = e->req_cap ? e->req_cap : 64;
	struct hn_pair *p;
	struct hn_grant *g;

	while (cap < n)
		cap *= 2;
	p = hn_zalloc(cap * sizeof(*p));
	g = hn_zalloc(cap * sizeof(*g));
	if (!p || !g) {
		hn_free(p);
		hn_free(g);
		return -ENOMEM;
	}
	hn_free(e->req_pairs);
	hn_free(e->req_grants);
	e->req_pairs = p;
	e->req_grants = g;
	e->req_cap = cap;
	return 0;
}

/* Before a slot: release idle circuits, then place waiting requests. */
void hn_dyn_schedule(struct hn_engine *e)
{
	struct hn_stream *st;
	u32 n = 0, s;

	if (!e->req_head)
		return;
	for (s = e->cfg.pin_slots; s < e->cfg.k; s++)
		hn_timeouts(e, s, e->now);
	n = e->nreq < HN_MAX_REQ ? e->nreq : HN_MAX_REQ;
	if (n > e->req_cap && req_grow(e, n))
		return;			/* out of memory: try again later */
	n = 0;
	for (st = e->req_head; st && n < e->req_cap && n < HN_MAX_REQ;
	     st = st->req_next)
		e->req_pairs[n++] = (struct hn_pair){ st->src, st->dst };
	hn_predict(e, e->req_pairs, n, e->req_grants, NULL);
}
