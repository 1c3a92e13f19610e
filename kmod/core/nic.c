// SPDX-License-Identifier: GPL-2.0
/*
 * nic.c - what happens at the network interfaces: the NIC forwards its
 * wormhole FIFO Q_W into the switch's VQ_W while VQ_W has room (L594:
 * "If the wormhole buffer VQ_W in the switch node is not full, NIC_i
 * forwards the message"), the receiver reserves buffer space before the
 * first byte of a message is sent, and delivery hands the message back.
 */
#include "engine.h"

/*
 * Move Q_W's head into VQ_W while it fits; Q_W is one FIFO (L667).
 * Returns the messages moved: the NIC's room grew by their bytes.
 */
u32 hn_nic_forward(struct hn_engine *e, u32 u, u64 t)
{
	struct hn_node *n = &e->node[u];
	struct hn_stream *st;
	struct hn_msg *m;
	u32 moved = 0;

	while ((m = n->q_w.head) &&
	       n->sw_used + m->len <= e->cfg.sw_buf_bytes) {
		hn_q_pop(&n->q_w);
		st = hn_stream_find(e, u, m->dst);
		st->q_w_msgs--;
		n->buf_used -= m->len;
		n->sw_used += m->len;
		m->t_ready = hn_max64(t, m->t_inject) + e->cfg.nic_ns +
			     e->cfg.wire_ns;
		if (!st->vq_w.count)
			hn_ring_add(n, st);
		hn_q_push(&st->vq_w, m);
		hn_wormhole_arm(e, u, m->t_ready);
		moved++;
	}
	return moved;
}

/*
 * @u's NIC has more room at @t, in the middle of a slot: tell the owner
 * (ops->room), whose PE may hand it a message at @t.  If the owner wants
 * to, the run stops at @t, once everything else due at @t has happened.
 */
void hn_room_grew(struct hn_engine *e, u32 u, u64 t)
{
	if (e->ops->room && e->ops->room(e->ctx, u, t) && t < e->stop_at)
		e->stop_at = t;
}

/* Hold receive space for all of @m before its first byte leaves. */
bool hn_rx_reserve(struct hn_engine *e, struct hn_msg *m)
{
	struct hn_node *r = &e->node[m->dst];

	if (m->rx_held)
		return true;
	if (r->rx_used + m->len > e->cfg.rx_buf_bytes)
		return false;
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
