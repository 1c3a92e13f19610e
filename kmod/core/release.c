// SPDX-License-Identifier: GPL-2.0
/*
 * release.c - circuits leave B^(s): released on request (one connection, a
 * slot, all), replaced by a preload (preload.c), or dropped by the idle
 * time-out predictor (L937) when they have carried nothing for
 * idle_timeout_ns.  What still waits for a circuit that leaves goes to the
 * wormhole path.
 */
#include "engine.h"

/*
 * Remove u's circuit from slot s.  Messages still waiting for it in VQ_PCKT
 * are re-tagged wormhole and go to the tail of Q_W (note 8.10 leaves this
 * open): Q_W holds only older messages of the pair, so order is kept.
 */
void hn_circuit_drop(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];
	struct hn_stream *st = hn_stream_find(e, u, sl->out[u]);
	struct hn_msg *m;

	while (st && (m = hn_q_pop(&st->vq_pckt))) {
		hn_q_push(&e->node[u].q_w, m);
		st->q_w_msgs++;
		sl->pending--;
		e->pending--;
		e->wh_msgs++;
		e->g.retagged++;
	}
	hn_slot_del(e, s, u);
	if (st)
		hn_nic_forward(e, u, e->now);
}

/*
 * With no wormhole slot (HN_POL_NO_W) a circuit's waiting data has nowhere
 * else to go, so such a circuit may not be released or replaced: -EBUSY
 * for u's circuit in slot s then, else 0.
 */
int hn_circuit_busy(struct hn_engine *e, u32 s, u32 u, struct hn_err *err)
{
	struct hn_stream *st;

	if (!(e->cfg.policy & HN_POL_NO_W))
		return 0;
	st = hn_stream_find(e, u, e->slot[s].out[u]);
	if (!st || !st->vq_pckt.count)
		return 0;
	return hn_fail(err, -EBUSY,
		       "circuit has data waiting and there is no wormhole slot",
		       s, u, HN_NONE);
}

int hn_release(struct hn_engine *e, u32 src, u32 dst, struct hn_err *err)
{
	u32 s;
	int rc;

	if (src >= e->cfg.nodes || dst >= e->cfg.nodes)
		return hn_fail(err, -EINVAL, "node out of range", HN_NONE,
			       src >= e->cfg.nodes ? src : dst, HN_NONE);
	s = hn_pcs_slot(e, src, dst);
	if (s == HN_NONE)
		return hn_fail(err, -ENOENT, "no such circuit", HN_NONE, src,
			       HN_NONE);
	rc = hn_circuit_busy(e, s, src, err);
	if (rc)
		return rc;
	hn_circuit_drop(e, s, src);
	e->g.releases++;
	return 0;
}

int hn_release_slot(struct hn_engine *e, u32 slot, struct hn_err *err)
{
	struct hn_slot *sl;
	u32 i;
	int rc;

	if (slot >= e->cfg.k)
		return hn_fail(err, -EINVAL, "slot out of range", slot,
			       HN_NONE, HN_NONE);
	sl = &e->slot[slot];
	for (i = 0; i < sl->nconn; i++) {
		rc = hn_circuit_busy(e, slot, sl->conn[i], err);
		if (rc)
			return rc;
	}
	while (sl->nconn) {
		hn_circuit_drop(e, slot, sl->conn[sl->nconn - 1]);
		e->g.releases++;
	}
	return 0;
}

int hn_release_all(struct hn_engine *e, struct hn_err *err)
{
	u32 s, i;
	int rc;

	for (s = 0; s < e->cfg.k; s++) {
		for (i = 0; i < e->slot[s].nconn; i++) {
			rc = hn_circuit_busy(e, s, e->slot[s].conn[i], err);
			if (rc)
				return rc;
		}
	}
	for (s = 0; s < e->cfg.k; s++)
		hn_release_slot(e, s, NULL);
	return 0;
}

/* Idle time-out predictor (L937): drop circuits unused for the time-out. */
void hn_timeouts(struct hn_engine *e, u32 s, u64 t)
{
	struct hn_slot *sl = &e->slot[s];
	u64 to = e->cfg.idle_timeout_ns;
	struct hn_stream *st;
	u32 i, u;

	if (!to || s < e->cfg.pin_slots)	/* pinned: the preload's */
		return;
	for (i = sl->nconn; i-- > 0;) {
		u = sl->conn[i];
		if (sl->last_use[u] + to > t)
			continue;
		st = hn_stream_find(e, u, sl->out[u]);
		if (st && st->vq_pckt.count)
			continue;
		hn_circuit_drop(e, s, u);
		e->g.timeouts++;
	}
}

u64 hn_next_timeout(const struct hn_engine *e)
{
	u64 t = HN_U64_MAX;
	u32 s, i;

	if (!e->cfg.idle_timeout_ns)
		return t;
	for (s = e->cfg.pin_slots; s < e->cfg.k; s++)
		for (i = 0; i < e->slot[s].nconn; i++)
			t = hn_min64(t, e->slot[s].last_use[e->slot[s].conn[i]] +
				     e->cfg.idle_timeout_ns);
	return t;
}
