// SPDX-License-Identifier: GPL-2.0
/*
 * predict.c - the K-step placement of predicted requests
 * (HN_PREDICT_KSTEP).  Slot by slot, the requests still pending whose
 * input and output are both free in that slot are matched greedily and
 * the matching is grown by augmenting paths of at most K edges (Ch. 6,
 * seeds/000_fa1c7d81da297c92.txt L1076-L1346; kmod/core/xbar.c); the
 * matched pairs are granted in that slot.  Existing circuits are never
 * moved: only free ports take part, so an augmenting path re-pairs only
 * requests of this call.  With K = 9 the matching is about 99 % of the
 * maximum (L1346); first fit (L685) is the K = 1 greedy of one request
 * at a time.
 */
#include "engine.h"
#include "hn_sched.h"

#define PENDING	0xff		/* out[].result while not decided */

int hn_predict_kstep(struct hn_engine *e, const struct hn_pair *req,
		     const u32 *idx, u32 n, struct hn_grant *out, u64 from,
		     struct hn_pair *first, struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;
	struct hn_pair *pairs;
	struct hn_grant *g;
	u32 i, m, s, u, v;
	int rc = 0;

	if (!e->xbar) {
		rc = hn_xbar_create(c->nodes, &e->xbar, err);
		if (rc)
			return rc;
	}
	pairs = hn_zalloc((n ? n : 1) * sizeof(*pairs));
	if (!pairs)
		return -ENOMEM;
	for (s = c->pin_slots; s < c->k && !rc; s++) {
		for (i = 0, m = 0; i < n; i++) {
			g = &out[idx[i]];
			u = g->src;
			v = g->dst;
			if (g->result != PENDING)
				continue;
			/* already realised, before or by a twin (Table 5.1) */
			g->slot = hn_pcs_slot(e, u, v);
			if (g->slot != HN_NONE) {
				g->result = HN_EXISTS;
				e->g.exists++;
				continue;
			}
			if (e->slot[s].out[u] != HN_NONE ||
			    e->slot[s].in[v] != HN_NONE)
				continue;
			/* equal requests are adjacent in priority order */
			if (m && pairs[m - 1].src == u && pairs[m - 1].dst == v)
				continue;
			pairs[m].src = u;
			pairs[m++].dst = v;
		}
		if (!m)
			continue;
		hn_xbar_clear_match(e->xbar);
		rc = hn_xbar_set_requests(e->xbar, pairs, m, err);
		if (rc)
			break;
		hn_xbar_greedy(e->xbar);
		hn_xbar_kstep(e->xbar, c->predict_kstep, 0, NULL, NULL);
		for (i = 0; i < n; i++) {
			g = &out[idx[i]];
			u = g->src;
			v = g->dst;
			if (g->result != PENDING || hn_xbar_mate(e->xbar, u) != v)
				continue;
			g->slot = s;
			if (e->slot[s].out[u] == v) {	/* its twin got it */
				g->result = HN_EXISTS;
				e->g.exists++;
				continue;
			}
			hn_slot_add(e, s, u, v, from);
			g->result = HN_GRANTED;
			e->g.grants++;
			if (first->src == HN_NONE)
				*first = req[idx[i]];
		}
	}
	hn_free(pairs);
	return rc;
}
