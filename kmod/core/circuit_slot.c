// SPDX-License-Identifier: GPL-2.0
/*
 * circuit_slot.c - the data a predictive slot carries: in slot s every
 * NIC whose circuit is in B^(s) sends from that circuit's VQ_PCKT through
 * the fabric, configured for the whole slot (Sec. 3.4.1).  The wormhole
 * slot's counterpart is wormhole.c.
 *
 * A circuit sends at link rate from the slot's data start (after the
 * guard band), message after message, a message longer than what is left
 * of the slot continuing the next time the slot comes round (Sec. 5.5.2).
 * Data that reaches an idle circuit's VQ_PCKT in the middle of its slot
 * (the PE made it then, or found room in its NIC then) is sent from that
 * moment, on the same byte grid: a circuit's position is counted in bytes
 * from the data start, so running the slot in segments changes nothing.
 * Each circuit has one event at a time: the moment the message it is
 * sending has left; only circuits with data are visited, so a slot costs
 * O(active connections + messages).
 */
#include "engine.h"

static u64 data_start(const struct hn_engine *e)
{
	return e->slot_start + e->cfg.guard_ns;
}

/* The first byte position whose start is not before @t. */
static u64 pos_at(const struct hn_engine *e, u64 t)
{
	u64 t0 = data_start(e), p;

	if (t <= t0)
		return 0;
	p = hn_ns_bytes(&e->cfg, t - t0);
	return hn_bytes_ns(&e->cfg, p) < t - t0 ? p + 1 : p;
}

/*
 * u's circuit in slot s may send in this run of the slot from byte @pos:
 * its configuration was valid when the slot began, and none of the
 * pair's earlier messages is still on the wormhole path.
 */
static bool circuit_open(struct hn_engine *e, u32 s, u32 u, u64 pos)
{
	struct hn_slot *sl = &e->slot[s];
	struct hn_node *n = &e->node[u];
	struct hn_stream *st;

	if (sl->valid_from[u] > e->slot_start)
		return false;
	st = hn_stream_find(e, u, sl->out[u]);
	if (!st || st->q_w_msgs || st->vq_w.count || st->fab)
		return false;	/* older messages still on the wormhole */
	n->c_st = st;
	n->c_pos = pos;
	n->c_run = e->run;
	n->c_stall = 0;
	n->c_busy = 0;
	return true;
}

/*
 * When u's head message will have left, reserving its receive space;
 * HN_U64_MAX when it does not leave in this slot (no room at the
 * receiver, or what is left of the slot is too short: the rest goes when
 * the slot ends).
 */
static u64 head_done(struct hn_engine *e, u32 u)
{
	struct hn_node *n = &e->node[u];
	struct hn_msg *m = n->c_st->vq_pckt.head;
	u64 t0 = data_start(e), end, t;

	if (!m || n->c_pos >= e->slot_cap)
		return HN_U64_MAX;
	if (!hn_rx_reserve(e, m)) {
		n->c_stall = 1;		/* the receiver is full: next time */
		return HN_U64_MAX;
	}
	end = hn_min64(n->c_pos + m->len - m->sent, e->slot_cap);
	t = t0 + hn_bytes_ns(&e->cfg, end);
	n->c_busy = t;			/* the uplink is the circuit's */
	if (n->rel_n && n->up_free > t0)
		hn_uplink_preempt(e, u, t0 + hn_bytes_ns(&e->cfg, n->c_pos), t);
	return end < n->c_pos + m->len - m->sent ? HN_U64_MAX : t;
}

/* u's circuit carries data in this run of the slot: one use (release.c). */
static void used(struct hn_engine *e, u32 u)
{
	struct hn_node *n = &e->node[u];

	if (n->c_used == e->run)
		return;
	n->c_used = e->run;
	hn_circuit_used(e, e->cur, u, e->slot_start);
}

/*
 * u's head has left at @t: deliver it.  Returns when the next one will
 * have left, HN_U64_MAX for not in this slot.
 */
static u64 msg_left(struct hn_engine *e, u32 u, u64 t)
{
	const struct hn_config *c = &e->cfg;
	u64 lat = 2ULL * c->nic_ns + 2ULL * (c->wire_ns - c->serdes_ns) +
		  c->fabric_ns;
	struct hn_node *n = &e->node[u];
	struct hn_stream *st = n->c_st;
	struct hn_slot *sl = &e->slot[e->cur];
	struct hn_msg *m = hn_q_pop(&st->vq_pckt);
	u32 x = m->len - m->sent;

	/*
	 * A circuit across switches also crosses its links between them
	 * (a fat tree's H up and H down), both of whose (de)serialisers it
	 * skips, and as many more switches (Sec. 5.5.2's timing, link by
	 * link).
	 */
	if (sl->hops)
		lat += (u64)sl->hops[u] *
		       (c->wire_ns - 2ULL * c->serdes_ns + c->fabric_ns);

	m->sent = m->len;
	n->c_pos += x;
	sl->pending--;
	e->pending--;
	n->buf_used -= m->len;
	used(e, u);
	e->g.slot[e->cur].bytes += x;
	hn_fab_circuit(e, e->cur, u, x);
	if (e->fab)
		hn_sw_unreserve(e, m);
	hn_deliver(e, m, t + lat, HN_MODE_CIRCUIT, e->cur);
	hn_room_grew(e, u, t);
	if (st->vq_pckt.count)
		return head_done(e, u);
	hn_slot_sleep(e, e->cur, u);
	hn_stream_put(e, st);
	n->c_st = NULL;
	return HN_U64_MAX;
}

/* Slot e->cur begins at e->slot_start; its circuits start in its first run. */
void hn_circuit_begin(struct hn_engine *e)
{
	e->slot_cap = hn_ns_bytes(&e->cfg, e->slot_end - data_start(e));
	e->g.slot[e->cur].cap_bytes += e->slot_cap * e->cfg.nodes;
	e->c_fresh = true;
}

/*
 * The circuits with data when the slot began start sending from its data
 * start (those armed since have started already).  Backwards: msg_left()
 * may take u off act[], and hn_slot_sleep() moves the last entry into its
 * place.
 */
static void start_all(struct hn_engine *e, u64 lim, bool batch)
{
	struct hn_slot *sl = &e->slot[e->cur];
	struct hn_node *n;
	u32 i, u;
	u64 t;

	e->c_fresh = false;
	for (i = sl->nact; i-- > 0;) {
		u = sl->act[i];
		n = &e->node[u];
		if (n->c_run == e->run || !circuit_open(e, e->cur, u, 0))
			continue;
		t = head_done(e, u);
		while (batch && t <= lim)
			t = msg_left(e, u, t);
		n->in_free = t;
		if (t != HN_U64_MAX)
			hn_ev_set(e, u, n->in_free);
	}
}

/*
 * Every message that has left by @lim (<= the slot's end), or up to a
 * stop.  Circuits never meet, so unless the owner may ask to stop
 * (ops->room), each is run on its own to @lim, and only circuits still
 * sending after a segment use the heap: a slot run in one piece costs
 * O(active circuits + messages), as a loop over them.  Otherwise every
 * message leaves in time order (event.c), so that a stop at t finds
 * nothing after t done.  Both give the same deliveries at the same times.
 */
void hn_circuit_run(struct hn_engine *e, u64 lim)
{
	bool batch = !e->ops->room;
	struct hn_node *n;
	u32 u;
	u64 t;

	if (e->c_fresh)
		start_all(e, lim, batch);
	while ((t = hn_ev_top(e)) <= hn_min64(lim, e->stop_at)) {
		u = hn_ev_peek(e);
		n = &e->node[u];
		if (!batch)
			e->now = t;
		do {
			t = msg_left(e, u, t);
		} while (batch && t <= lim);
		n->in_free = t;
		if (t == HN_U64_MAX)
			hn_ev_del(e, u);
		else
			hn_ev_set(e, u, n->in_free);
		if (!batch)
			hn_work(e, e->now);
	}
}

/* The slot ends: each head that did not finish has sent what fitted. */
void hn_circuit_end(struct hn_engine *e)
{
	u32 s = e->cur, i, u;
	struct hn_slot *sl = &e->slot[s];
	struct hn_node *n;
	struct hn_msg *m;
	u64 x;

	hn_ev_clear(e);
	e->c_fresh = false;
	for (i = 0; i < sl->nact; i++) {
		u = sl->act[i];
		n = &e->node[u];
		if (n->c_run != e->run || n->c_stall || !n->c_st ||
		    n->c_pos >= e->slot_cap)
			continue;
		m = n->c_st->vq_pckt.head;
		if (!m || !m->rx_held)
			continue;
		x = e->slot_cap - n->c_pos;
		m->sent += (u32)x;
		n->c_pos = e->slot_cap;
		used(e, u);
		e->g.slot[s].bytes += x;
		hn_fab_circuit(e, s, u, x);
	}
}

/*
 * u's circuit in slot s has just got data (its VQ_PCKT was empty): if s
 * is in progress, the circuit sends it from now on.
 */
void hn_circuit_arm(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_node *n = &e->node[u];
	u64 pos, t;

	if (!e->in_slot || e->cur != s)
		return;
	pos = pos_at(e, e->now);
	if (n->c_run == e->run) {
		if (n->c_stall || n->c_st)
			return;		/* already sending, or stalled */
		pos = hn_max64(pos, n->c_pos);
	}
	if (!circuit_open(e, s, u, pos))
		return;
	t = head_done(e, u);
	if (t == HN_U64_MAX)
		return;
	n->in_free = t;
	hn_ev_set(e, u, n->in_free);
}
