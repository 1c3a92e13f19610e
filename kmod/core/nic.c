// SPDX-License-Identifier: GPL-2.0
/*
 * nic.c - what happens at the network interfaces: the NIC forwards its
 * wormhole FIFO Q_W into the switch's VQ_W while VQ_W has room (Sec. 3.3.1:
 * "If the wormhole buffer VQ_W in the switch node is not full, NIC_i
 * forwards the message") over its one uplink, the receiver reserves
 * buffer space before the first byte of a message is sent, and delivery
 * hands the message back.
 */
#include "engine.h"

/*
 * The uplink (Ch. 3: "Communication data and control data share the same
 * high-speed link connected between the network interface cards and the
 * switch node", Sec. 3.2.1) carries one message at a time, at link rate.  A
 * wormhole message stays in the NIC buffer until its last byte has left.
 * Circuit data has the link first: a circuit's slot comes once a cycle,
 * while a wormhole message need only be in VQ_W before S_W.  So a
 * wormhole message is not started while the circuit of the slot in
 * progress sends, and one on the way pauses while it does
 * (hn_uplink_preempt()); the circuit's data never waits for it.
 */

/* Transfers whose last byte has left by now are out of the NIC. */
void hn_nic_release(struct hn_engine *e, u32 u)
{
	struct hn_node *n = &e->node[u];
	struct hn_rel *r;

	while (n->rel_n && (r = &n->rel[n->rel_head])->t <= e->now) {
		n->buf_used -= r->len;
		n->rel_bytes -= r->len;
		n->rel_head = n->rel_head + 1 < n->rel_cap ? n->rel_head + 1 : 0;
		n->rel_n--;
	}
}

/*
 * @m crosses @u's uplink over [s, t], kept in order of t (after those
 * before it, but for a message that took the link from them:
 * up_start()); false: out of memory.
 */
static bool rel_push(struct hn_node *n, u64 s, u64 t, struct hn_msg *m)
{
	struct hn_rel *r, x;
	u32 cap, i;

	if (n->rel_n == n->rel_cap) {
		cap = n->rel_cap ? 2 * n->rel_cap : 4;
		r = hn_zalloc(cap * sizeof(*r));
		if (!r)
			return false;
		for (i = 0; i < n->rel_n; i++)
			r[i] = n->rel[(n->rel_head + i) % n->rel_cap];
		hn_free(n->rel);
		n->rel = r;
		n->rel_cap = cap;
		n->rel_head = 0;
	}
	n->rel[(n->rel_head + n->rel_n) % n->rel_cap] =
		(struct hn_rel){ s, t, m, m->len };
	n->rel_n++;
	n->rel_bytes += m->len;
	for (i = n->rel_n - 1; i; i--) {
		r = &n->rel[(n->rel_head + i - 1) % n->rel_cap];
		if (r->t <= t)
			break;
		x = *r;
		*r = n->rel[(n->rel_head + i) % n->rel_cap];
		n->rel[(n->rel_head + i) % n->rel_cap] = x;
	}
	return true;
}

/*
 * @u's circuit sends over [a, b]: the wormhole messages on the uplink
 * after a give it the link, and go on b - a later.  O(1) when none is.
 */
void hn_uplink_preempt(struct hn_engine *e, u32 u, u64 a, u64 b)
{
	struct hn_node *n = &e->node[u];
	u64 d = b - a;
	struct hn_rel *r;
	u32 j;

	if (!n->rel_n || n->up_free <= a || !d)
		return;
	for (j = 0; j < n->rel_n; j++) {
		r = &n->rel[(n->rel_head + j) % n->rel_cap];
		if (r->t <= a)
			continue;
		if (r->s >= a) {
			r->s += d;
			r->m->t_ready += d;
		}
		r->t += d;
		r->m->t_tail += d;
	}
	n->up_free += d;
}

/*
 * When @m may start across @u's uplink, from @t: once those on it have
 * crossed; or, for the fabric's own priority under switching drop, once
 * the one crossing at @t and those of its priority have, the others
 * giving it the link (hn_uplink_preempt(); ours: Zydallis's control
 * messages "must be sent immediately" [Z:671]).
 */
static u64 up_start(struct hn_engine *e, u32 u, const struct hn_msg *m,
		    u64 t)
{
	struct hn_node *n = &e->node[u];
	const struct hn_rel *r;
	u64 a = t;
	u32 j;

	if (!hn_goes_first(&e->cfg, m))
		return hn_max64(t, n->up_free);
	for (j = 0; j < n->rel_n; j++) {
		r = &n->rel[(n->rel_head + j) % n->rel_cap];
		if (r->s >= t && r->m->prio < m->prio)
			break;
		a = hn_max64(a, r->t);
	}
	hn_uplink_preempt(e, u, a, a + hn_bytes_ns(&e->cfg, m->len));
	return a;
}

/*
 * Move Q_W's head into VQ_W while it fits; Q_W is one FIFO (Sec. 3.4.1).  Each
 * crosses the uplink after the one before, from @t or when the link is
 * free (after the data of the slot's circuit): its head is at the switch
 * nic_ns + wire_ns after it starts, and its bytes leave the NIC, which
 * then has room, at link rate.
 */
void hn_nic_forward(struct hn_engine *e, u32 u, u64 t)
{
	const struct hn_config *c = &e->cfg;
	struct hn_node *n = &e->node[u];
	struct hn_stream *st;
	struct hn_msg *m;
	u64 s, done, lat;

	while ((m = n->q_w.head) && hn_sw_fits(c, n, m)) {
		hn_q_pop(&n->q_w);
		st = hn_stream_find(e, u, m->dst);
		st->q_w_msgs--;
		n->sw_used += m->len;
		s = t;
		if (e->in_slot && e->cur < c->k && n->c_run == e->run)
			s = hn_max64(s, n->c_busy);
		s = up_start(e, u, m, s);
		done = s + hn_bytes_ns(c, m->len);
		n->up_free = hn_max64(n->up_free, done);
		lat = c->nic_ns + hn_topo_link_ns(&e->topo, u);	/* u's link */
		m->t_ready = s + lat;
		m->t_tail = done + lat;
		if (done <= e->now || !rel_push(n, s, done, m))
			n->buf_used -= m->len;
		if (!st->vq_w.count)
			hn_ring_add(e, u, st);
		if (c->switching == HN_SWITCH_DROP)	/* a worm a message */
			hn_q_push_prio(&st->vq_w, m, st->cutting);
		else
			hn_q_push(&st->vq_w, m);
		e->w_arm(e, u, m->t_ready);
		hn_room_grew(e, u, done);
	}
}

/* Would @m's receiver take it (hn_rx_reserve() without reserving)? */
bool hn_rx_fits(const struct hn_engine *e, const struct hn_msg *m)
{
	return m->rx_held ||
	       e->node[m->dst].rx_used + m->len <= e->cfg.rx_buf_bytes;
}

/* Hold receive space for all of @m before its first byte leaves. */
bool hn_rx_reserve(struct hn_engine *e, struct hn_msg *m)
{
	struct hn_node *r = &e->node[m->dst];

	if (m->rx_held)
		return true;
	if (r->rx_used + m->len > e->cfg.rx_buf_bytes)
		return false;
	hn_rx_tight(e, r->rx_used, r->rx_used + m->len);
	r->rx_used += m->len;
	m->rx_held = 1;
	return true;
}

void hn_deliver(struct hn_engine *e, struct hn_msg *m, u64 t, u8 mode,
		u32 slot)
{
	m->t_deliver = t;
	m->mode = mode;
	m->slot = slot;
	m->next = NULL;
	hn_stats_delivered(e, m);
	e->ops->deliver(e->ctx, m);
}
