// SPDX-License-Identifier: GPL-2.0
/*
 * second.c - the second-level working set of Sec. 5.2.3 (Sec. 5.2.3): "consider
 * the case where a loop contains an embedded 'if' statement.  The
 * communication pattern for the loop may now depend on the condition of
 * 'if' statement.  The predictor's knowledge of the conditional can
 * significantly simplify the communication pattern detection.  One way
 * this could be used is to store a second level working set that is
 * swapped in only when the conditional is true."
 *
 * Beside each register B^(s) the engine keeps a second one, out2[]: the
 * second level, loaded whole slots at a time by a compiler or the user
 * (hn_preload_second(), checked as a preload is) and never used by the
 * fabric.  A swap exchanges the two levels of every slot that is not
 * pinned: the second level becomes the working set, usable at once as a
 * preload is (Sec. 3.4.1), and the working set is stored as the second level,
 * so the next swap brings it back (the 'if' ends).  Circuits that leave
 * hand their waiting data to the wormhole path (release.c); without a
 * wormhole slot a swap that would strand data is refused (-EBUSY).
 *
 * Who says the conditional is true: hn_swap_second() directly (the
 * compiler's instruction), or, with predict_algo = second-level, the
 * predictor: a request (predicted, or Dynamic TDM's) for a connection that
 * the working set lacks and the second level has (predict.c).
 */
#include "engine.h"

u32 hn_second(const struct hn_engine *e, u32 slot, u32 src)
{
	if (slot >= e->cfg.k || src >= e->cfg.nodes)
		return HN_NONE;
	return e->slot[slot].out2[src];
}

/* Does a request miss the working set and hit the second level? */
bool hn_second_hit(const struct hn_engine *e, const struct hn_pair *req,
		   u32 n)
{
	u32 i, s;

	for (i = 0; i < n; i++) {
		if (hn_pcs_slot(e, req[i].src, req[i].dst) != HN_NONE)
			continue;
		for (s = e->cfg.pin_slots; s < e->cfg.k; s++)
			if (e->slot[s].out2[req[i].src] == req[i].dst)
				return true;
	}
	return false;
}

/* Load whole slots of the second level, all or nothing. */
/* Its circuits would need paths of their own: not on switches feeding switches yet. */
static int no_tree(struct hn_err *err)
{
	return hn_fail(err, -EOPNOTSUPP, HN_SECOND_XBAR, HN_NONE, HN_NONE,
		       HN_NONE);
}

int hn_preload_second(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		      u32 n, struct hn_err *err)
{
	struct hn_slot *sl;
	u32 i, p, u;
	int rc;

	if (e->cfg.topology != HN_TOPO_CROSSBAR)
		return no_tree(err);
	rc = hn_preload_check(e, cfg, n, true, err);
	if (rc)
		return rc;
	for (i = 0; i < n; i++)
		if (cfg[i].slot < e->cfg.pin_slots)
			return hn_fail(err, -EINVAL,
				       "a pinned slot has no second level",
				       cfg[i].slot, HN_NONE, i);
	for (i = 0; i < n; i++) {
		sl = &e->slot[cfg[i].slot];
		for (u = 0; u < e->cfg.nodes; u++)
			sl->out2[u] = HN_NONE;
		for (p = 0; p < cfg[i].npairs; p++)
			sl->out2[cfg[i].pairs[p].src] = cfg[i].pairs[p].dst;
	}
	return 0;
}

/* Exchange the two levels of every slot that is not pinned. */
int hn_swap_second(struct hn_engine *e, struct hn_err *err)
{
	u32 N = e->cfg.nodes, lo = e->cfg.pin_slots, s, u, i, v;
	struct hn_slot *sl;
	u32 *old;
	int rc;

	if (e->cfg.topology != HN_TOPO_CROSSBAR)
		return no_tree(err);
	/* without a wormhole path, data waiting for a leaving circuit stays */
	for (s = lo; s < e->cfg.k; s++) {
		sl = &e->slot[s];
		for (i = 0; i < sl->nconn; i++) {
			u = sl->conn[i];
			if (sl->out2[u] == sl->out[u])
				continue;
			rc = hn_circuit_busy(e, s, u, err);
			if (rc)
				return rc;
		}
	}
	old = hn_zalloc((size_t)(e->cfg.k - lo) * N * sizeof(*old));
	if (!old)
		return -ENOMEM;
	/* every leaving circuit first, so no connection is in two slots */
	for (s = lo; s < e->cfg.k; s++) {
		sl = &e->slot[s];
		for (u = 0; u < N; u++)
			old[(s - lo) * N + u] = sl->out[u];
		for (i = sl->nconn; i-- > 0;) {
			u = sl->conn[i];
			if (sl->out2[u] != sl->out[u])
				hn_circuit_drop(e, s, u);
		}
	}
	for (s = lo; s < e->cfg.k; s++) {
		sl = &e->slot[s];
		for (u = 0; u < N; u++) {
			v = sl->out2[u];
			if (v == HN_NONE || sl->out[u] == v)
				continue;
			hn_slot_add(e, s, u, v, e->now, NULL);
			hn_req_granted(e, s, u, v);
		}
		for (u = 0; u < N; u++)
			sl->out2[u] = old[(s - lo) * N + u];
	}
	hn_free(old);
	e->g.swaps++;
	return 0;
}
