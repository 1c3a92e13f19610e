// SPDX-License-Identifier: GPL-2.0
/*
 * release.c - circuits leave B^(s): released on request (one connection, a
 * slot, all), replaced by a preload (preload.c), or dropped by the
 * eviction predictor of Sec. 5.2.2 (Sec. 5.2.2): the time-out, when they have
 * carried nothing for idle_timeout_ns, or the counter, when other circuits
 * have been used evict_count times since their own last use.  What still
 * waits for a circuit that leaves goes to the wormhole path.
 */
#include "engine.h"

/*
 * u's circuit in slot @s sends nothing more in the run in progress, if
 * that run is s's: released (below), or routed again (fault.c).
 */
void hn_circuit_stop(struct hn_engine *e, u32 s, u32 u)
{
	if (!e->in_slot || e->cur != s)
		return;
	hn_ev_del(e, u);
	e->node[u].c_run = 0;
}

/*
 * Remove u's circuit from slot s.  Messages still waiting for it in VQ_PCKT
 * are re-tagged wormhole and go to the tail of Q_W, or ahead of those of
 * lower priorities (note 8.10 leaves this open): Q_W holds only older
 * messages of the pair, so the order of each priority is kept.  A
 * message the circuit had begun keeps what it sent: its worms carry the
 * rest, and a multistage fabric (switch.c) counts the circuit's part as
 * arrived, as it does before any worm of the message.
 */
void hn_circuit_drop(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];
	struct hn_stream *st = hn_stream_find(e, u, sl->out[u]);
	struct hn_msg *m;

	while (st && (m = hn_q_pop(&st->vq_pckt))) {
		m->rcvd = m->sent;
		hn_q_push_prio(&e->node[u].q_w, m, false);
		st->q_w_msgs++;
		sl->pending--;
		e->pending--;
		e->wh_msgs++;
		e->g.retagged++;
	}
	hn_circuit_stop(e, s, u);	/* it stops sending at once */
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

/*
 * The eviction predictors of Sec. 5.2.2 (Sec. 5.2.2) keep, per circuit, what
 * they need: the time of its last use (the time-out) and the count of all
 * circuit uses at its last use (the counter: the uses of the others since
 * are the global count minus that, so no per-use sweep is needed).  A
 * "use" is a slot in which the circuit carried data.
 */
void hn_circuit_used(struct hn_engine *e, u32 s, u32 u, u64 t)
{
	e->slot[s].last_use[u] = t;
	e->slot[s].use_at[u] = ++e->uses;
}

/* Does the predictor evict u's circuit of slot @s at @t? */
static bool evict_due(const struct hn_engine *e, const struct hn_slot *sl,
		      u32 u, u64 t)
{
	const struct hn_config *c = &e->cfg;

	if (c->evict_algo == HN_EVICT_COUNTER)
		return e->uses - sl->use_at[u] >= c->evict_count;
	return c->idle_timeout_ns && sl->last_use[u] + c->idle_timeout_ns <= t;
}

/*
 * The eviction predictor (Sec. 5.2.2) on slot @s at @t: drop the circuits it
 * says have left the working set and for which nothing waits.
 *   time-out  unused for idle_timeout_ns ("a connection is removed if it
 *             is not used for a certain period of time"); 0: never;
 *   counter   other circuits were used evict_count times since its own
 *             last use ("reset to zero every time that connection is used
 *             and is incremented every time another connection is used.
 *             When the counter reaches a certain threshold, the connection
 *             is evicted"), so a computation phase, with no communication,
 *             evicts nothing.
 */
void hn_timeouts(struct hn_engine *e, u32 s, u64 t)
{
	struct hn_slot *sl = &e->slot[s];
	struct hn_stream *st;
	u32 i, u;

	if (s < e->cfg.pin_slots)	/* pinned: the preload's */
		return;
	for (i = sl->nconn; i-- > 0;) {
		u = sl->conn[i];
		if (!evict_due(e, sl, u, t))
			continue;
		st = hn_stream_find(e, u, sl->out[u]);
		if (st && st->vq_pckt.count)
			continue;
		hn_circuit_drop(e, s, u);
		e->g.timeouts++;
	}
}

/*
 * When the predictor next evicts something if nothing happens meanwhile:
 * the time-out's earliest expiry; for the counter, 0 when a circuit is
 * already due (only uses move it), else never.  HN_U64_MAX: never.
 */
u64 hn_next_timeout(const struct hn_engine *e)
{
	u64 t = HN_U64_MAX;
	const struct hn_slot *sl;
	u32 s, i;

	if (e->cfg.evict_algo == HN_EVICT_TIMEOUT && !e->cfg.idle_timeout_ns)
		return t;
	for (s = e->cfg.pin_slots; s < e->cfg.k; s++) {
		sl = &e->slot[s];
		for (i = 0; i < sl->nconn; i++) {
			if (e->cfg.evict_algo == HN_EVICT_COUNTER) {
				if (evict_due(e, sl, sl->conn[i], 0))
					return 0;
				continue;
			}
			t = hn_min64(t, sl->last_use[sl->conn[i]] +
				     e->cfg.idle_timeout_ns);
		}
	}
	return t;
}
